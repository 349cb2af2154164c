// What the search reads off its tree's root: the tally of the root's moves and the analysis
// lines (mcts_tree.hpp).
#include <algorithm>
#include <utility>

#include "mcts_tree.hpp"

namespace tanbo::detail {

RootTally::RootTally(const Position& pos, bool solver_lost, Vertex proven_win)
    : moves(pos.legal_moves(pos.to_move())),
      visits(moves.size(), 0.0),
      wins(moves.size(), 0.0),
      proof(moves.size(), solver_lost ? -1 : 0) {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (moves[i] == proven_win) proof[i] = 1;
  }
}

void RootTally::gather(const Tree& tree) {
  const Node& root = tree.nodes[0];
  if (!root.expanded) return;
  for (std::uint32_t i = 0; i < root.count; ++i) {
    const Node& child = tree.nodes[root.first + i];
    visits[i] += child.n;
    wins[i] += child.w;
    if (child.proof != 0) proof[i] = child.proof;
  }
}

std::vector<std::size_t> RootTally::best_first() const {
  auto rank = [&](std::size_t i) { return proof[i] > 0 ? 2 : proof[i] == 0 ? 1 : 0; };
  auto better = [&](std::size_t i, std::size_t j) {
    if (rank(i) != rank(j)) return rank(i) > rank(j);
    if (visits[i] != visits[j]) return visits[i] > visits[j];
    return wins[i] > wins[j];
  };
  std::vector<std::size_t> order(moves.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), better);
  return order;
}

double RootTally::value(std::size_t i) const {
  if (proof[i] != 0) return proof[i] > 0 ? 1.0 : 0.0;
  return visits[i] > 0 ? wins[i] / visits[i] : 0.0;
}

std::vector<Vertex> principal_variation(const Tree& tree, Vertex move) {
  std::vector<Vertex> pv{move};
  const Node& root = tree.nodes[0];
  if (!root.expanded) return pv;
  std::uint32_t index = 0;
  for (std::uint32_t i = root.first; i < root.first + root.count; ++i) {
    if (tree.nodes[i].move == move) index = i;
  }
  while (index != 0 && pv.size() < kLineLength && tree.nodes[index].expanded) {
    const Node& node = tree.nodes[index];
    std::uint32_t pick = 0;
    auto key = [&](const Node& c) {
      return std::make_pair(c.proof > 0 ? 2 : c.proof == 0 ? 1 : 0, c.n);
    };
    for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
      if (tree.nodes[i].n == 0 && tree.nodes[i].proof <= 0) continue;
      if (pick == 0 || key(tree.nodes[i]) > key(tree.nodes[pick])) pick = i;
    }
    if (pick == 0) break;
    pv.push_back(tree.nodes[pick].move);
    index = pick;
  }
  return pv;
}

std::vector<MoveAnalysis> analysis_of(const RootTally& tally, const std::vector<std::size_t>& order,
                                      const Tree& tree) {
  std::vector<MoveAnalysis> lines;
  for (std::size_t i : order) {
    // Moves not looked at are left out, but for the first: the move the search chose, even when
    // its time ran out before a playout ended (a limit of microseconds, a board of millions).
    if (!lines.empty() && tally.visits[i] == 0 && tally.proof[i] == 0) continue;
    MoveAnalysis a;
    a.move = tally.moves[i];
    a.visits = static_cast<std::uint32_t>(tally.visits[i]);
    a.proven = tally.proof[i];
    a.winrate = tally.value(i);
    a.pv = principal_variation(tree, tally.moves[i]);
    lines.push_back(std::move(a));
  }
  return lines;
}

}  // namespace tanbo::detail
