#include "mcts_memory.hpp"

#include <algorithm>
#include <span>
#include <unordered_map>

namespace tanbo {

using detail::Block;
using detail::Node;
using detail::Tree;

void init_root(Tree& tree) {
  tree.nodes.clear();
  tree.blocks.clear();
  tree.nodes.reserve(1024);
  tree.nodes.emplace_back();
}

namespace {

// The node reached from the root by `moves` (each the move of a child of the node before), or
// nothing when the tree does not hold that line.
std::optional<std::uint32_t> descend(const Tree& tree, std::span<const Vertex> moves) {
  std::uint32_t index = 0;
  for (Vertex v : moves) {
    const Node& node = tree.nodes[index];
    if (!node.expanded) return std::nullopt;
    std::uint32_t next = 0;
    for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
      if (tree.nodes[i].move == v) next = i;
    }
    if (next == 0) return std::nullopt;
    index = next;
  }
  return index;
}

// Makes node `index` the root, keeping only what it reaches: copied breadth first, so that each
// block of children stays contiguous, and a block shared by transpositions is copied once; child
// indices (first, win_child) and the blocks of the transposition table are renumbered.
void reroot(Tree& tree, std::uint32_t index) {
  if (index == 0) return;
  std::vector<Node> kept;
  std::unordered_map<std::uint32_t, std::uint32_t> moved;  // old first -> new first
  // A child index (first or win_child, 0 for none) of a block that moved to `to`.
  const auto renumber = [](std::uint32_t child, std::uint32_t first, std::uint32_t to) {
    return child ? to + (child - first) : 0;
  };
  kept.push_back(tree.nodes[index]);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!kept[i].expanded) continue;
    const std::uint32_t first = kept[i].first, count = kept[i].count;
    auto [it, fresh] = moved.try_emplace(first, static_cast<std::uint32_t>(kept.size()));
    if (fresh) {
      kept.insert(kept.end(), tree.nodes.begin() + first, tree.nodes.begin() + first + count);
    }
    kept[i].win_child = renumber(kept[i].win_child, first, it->second);
    kept[i].first = it->second;
  }
  // A block shared by transpositions holds the visits of every line into it: the new root stands
  // for them all.
  std::uint32_t visits = 0;
  for (std::uint32_t i = 0; i < kept[0].count; ++i) visits += kept[kept[0].first + i].n;
  kept[0].n = std::max(kept[0].n, visits);
  tree.nodes.swap(kept);
  for (auto it = tree.blocks.begin(); it != tree.blocks.end();) {
    const auto m = moved.find(it->second.first);
    if (m == moved.end()) {
      it = tree.blocks.erase(it);
      continue;
    }
    Block& b = it->second;
    b.win_child = renumber(b.win_child, b.first, m->second);
    b.first = m->second;
    ++it;
  }
}

}  // namespace

Player Mcts::Memory::first_mover(const Position& pos) {
  return pos.ply() > 0 ? pos.history()[0].to_move_before : pos.to_move();
}

// The moves that lead from the remembered position to pos, when pos follows it.
std::optional<std::vector<Vertex>> Mcts::Memory::path_to(const Position& pos) const {
  if (trees.empty() || pos.topology_ptr() != topology || pos.ply() < moves.size() ||
      first_mover(pos) != first_to_move || pos.setup().players != setup.players ||
      pos.setup().stones != setup.stones) {
    return std::nullopt;
  }
  const auto history = pos.history();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const MoveRecord& a = history[i];
    const MoveRecord& b = moves[i];
    if (a.kind != b.kind || a.player != b.player || a.vertex != b.vertex) return std::nullopt;
  }
  std::vector<Vertex> path;
  for (std::size_t i = moves.size(); i < history.size(); ++i) {
    if (history[i].kind != MoveRecord::Kind::kPlace) return std::nullopt;  // a resignation
    path.push_back(history[i].vertex);
  }
  return path;
}

// Readies `count` trees for a search of pos: the subtrees that pos's moves reach, or new
// trees. Returns the root visits kept.
std::uint64_t Mcts::Memory::adopt(const Position& pos, std::size_t count, bool reuse) {
  const std::optional<std::vector<Vertex>> path =
      reuse && trees.size() == count ? path_to(pos) : std::nullopt;
  std::uint64_t kept = 0;
  if (trees.size() != count) {
    trees.clear();
    for (std::size_t t = 0; t < count; ++t) trees.push_back(std::make_unique<Tree>());
  }
  const std::uint32_t legal = pos.legal_count(pos.to_move());
  for (auto& tree : trees) {
    const std::optional<std::uint32_t> node =
        path ? descend(*tree, *path) : std::optional<std::uint32_t>();
    // Kept only when expanded: its children are then pos's legal moves.
    if (node && tree->nodes[*node].expanded && tree->nodes[*node].count == legal) {
      reroot(*tree, *node);
      kept += tree->nodes[0].n;
    } else {
      init_root(*tree);
    }
  }
  return kept;
}

void Mcts::Memory::remember(const Position& pos) {
  topology = pos.topology_ptr();
  setup = pos.setup();
  first_to_move = first_mover(pos);
  moves.assign(pos.history().begin(), pos.history().end());
}

}  // namespace tanbo
