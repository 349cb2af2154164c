// How much the trees of one MCTS search may hold (mcts_budget.hpp).
#include "mcts_budget.hpp"

#include <algorithm>

#include "mcts_tree.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo::detail {

namespace {

constexpr std::size_t kMaxNodes = std::size_t{1} << 22;  // ~4M nodes (151 MB) per tree
// Positions the transposition table of a tree holds at most (kBlockBytes each: 34 MB). On 9x9 a
// search of 10,000 playouts holds about 10,000; boards of one or two moves a position could
// otherwise hold one for every other node.
constexpr std::size_t kMaxBlocks = std::size_t{1} << 19;
// With root parallelism (a tree a thread) the trees of one search share four trees' worth of
// nodes and positions: up to four threads keep whole trees, and 256 threads (the most mcts
// takes) stay near 740 MB in all instead of 47 GB.
constexpr std::size_t kTreesWorth = 4;
// What a whole tree takes: its nodes, and its table's positions (an entry of the hash map with
// its share of the buckets).
constexpr std::uint64_t kBlockBytes = 64;
constexpr std::uint64_t kTreeBytes = kMaxNodes * sizeof(Node) + kMaxBlocks * kBlockBytes;
// The least a tree keeps whatever the memory allows: the root's children on most boards.
constexpr std::size_t kLeastNodes = 4096;

// What each of `trees` trees may hold when they share `bytes`: the same share of each, at most
// a whole tree, at least kLeastNodes nodes.
TreeBudget budget_of_each(std::size_t trees, std::uint64_t bytes) {
  const std::uint64_t each = std::min(kTreeBytes, bytes / std::max<std::size_t>(trees, 1));
  const auto share = [each](std::size_t whole) {
    return static_cast<std::size_t>(static_cast<long double>(whole) * each / kTreeBytes);
  };
  return {std::max(share(kMaxNodes), kLeastNodes), std::max<std::size_t>(share(kMaxBlocks), 1)};
}

// The bytes the trees of one search may take in all: `memory` (MctsConfig::memory_mb) or four
// trees' worth, and never more than half the room the process's memory limit leaves a board,
// so that a search of many threads on a small machine or container stays within its limit.
// The limit is read only when the trees could grow past kSmallTrees (`most`, the most they can
// take by the search's playout limit): its files take longer to read than a search of 20
// playouts (a match of such searches on 9x9 took 1.8 times the time).
constexpr std::uint64_t kSmallTrees = std::uint64_t{16} << 20;
std::uint64_t trees_bytes(std::uint64_t memory_mb, std::uint64_t most) {
  std::uint64_t bytes = memory_mb ? memory_mb << 20 : kTreesWorth * kTreeBytes;
  if (most <= kSmallTrees) return bytes;
  try {
    bytes = std::min(bytes, memory_limit().board_room() / 2);
  } catch (const Error&) {
    // (a TANBO_MAX_MEMORY that is not a size: refused where programs read it)
  }
  return bytes;
}
// The most the trees of a search can take: each playout adds a block of at most `points`
// nodes to one tree (and a position to its table), after what the trees hold already. A search
// without a playout limit (or with one of more playouts than kSmallTrees bytes) can take
// anything.
std::uint64_t most_trees_take(std::size_t trees, std::uint64_t playouts, std::uint64_t points,
                              std::uint64_t nodes) {
  if (playouts == 0 || playouts > kSmallTrees) return ~std::uint64_t{0};
  const std::uint64_t blocks = playouts + trees;
  return (nodes + blocks * points) * sizeof(Node) + blocks * kBlockBytes;
}

}  // namespace

TreeBudget tree_budget(std::size_t trees, std::uint64_t memory_mb, std::uint64_t playouts,
                       std::uint64_t points, std::uint64_t nodes) {
  const std::uint64_t most = most_trees_take(trees, playouts, points, nodes);
  return budget_of_each(trees, trees_bytes(memory_mb, most));
}

}  // namespace tanbo::detail
