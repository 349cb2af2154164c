// The trees an MCTS player keeps between its searches (mcts=reuse), and the position their roots
// stand for. Internal to the search (mcts.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mcts_tree.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

// A new tree: its root alone.
void init_root(detail::Tree& tree);

// What a search leaves for the next one: its trees (one, or one per thread with root
// parallelism) and the position their roots stand for, known by its board, its start and its
// moves (the rules are deterministic, so these fix the position).
struct Mcts::Memory {
  std::vector<std::unique_ptr<detail::Tree>> trees;
  TopologyPtr topology;  // held, so that a new board is never mistaken for a freed one
  Setup setup;
  Player first_to_move = kEmpty;  // who moved first from the start
  std::vector<MoveRecord> moves;  // the moves from the start to the roots' position

  // Who moved first in pos's game.
  static Player first_mover(const Position& pos);
  // The moves that lead from the remembered position to pos, when pos follows it.
  std::optional<std::vector<Vertex>> path_to(const Position& pos) const;
  // Readies `count` trees for a search of pos: the subtrees that pos's moves reach, or new
  // trees. Returns the root visits kept.
  std::uint64_t adopt(const Position& pos, std::size_t count, bool reuse);
  // Notes pos as the position the trees' roots stand for.
  void remember(const Position& pos);
};

}  // namespace tanbo
