// How much the trees of one MCTS search may hold: their nodes and their tables' positions,
// shared by the trees of root parallelism, under MctsConfig::memory_mb and the process's memory
// limit. Internal to the search (mcts.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tanbo::detail {

// What one tree may hold: a full tree stops growing (expansions wait), the playouts go on.
struct TreeBudget {
  std::size_t nodes = 0;   // nodes of the tree
  std::size_t blocks = 0;  // positions in its transposition table
};

// What each of `trees` trees of one search may hold: memory_mb megabytes in all (0: four whole
// trees' worth), at most half of what the memory limit leaves, at most a whole tree each, at
// least 4,096 nodes each. `playouts` (0: none) bounds what the search adds to the `nodes` the
// trees hold already, on a board of `points` points: the memory limit is read only when that
// could pass 16 MB.
TreeBudget tree_budget(std::size_t trees, std::uint64_t memory_mb, std::uint64_t playouts,
                       std::uint64_t points, std::uint64_t nodes);

}  // namespace tanbo::detail
