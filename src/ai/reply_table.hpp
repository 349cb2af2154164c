// The last good reply with forgetting (Baier and Drake, "The Power of Forgetting: Improving the
// Last-Good-Reply Policy in Monte Carlo Go", 2010): a playout policy that learns, within one
// search, which answer to a move won the playouts it was played in.
//
// For every player p and every point u the table holds at most one reply: the point p last
// played right after a move on u in a playout that p won. A playout p lost forgets the reply it
// played, if that is the one stored. The policy (mcts.cpp, `reply=1`) plays the stored reply to
// the move before when it is legal and does not bound p's own root, and otherwise draws as
// usual. Internal to the search; tests/test_mcts.cpp checks it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/players.hpp"

namespace tanbo::detail {

// One move of a simulation (the tree's part and the playout's): who played where.
struct Step {
  Player player;
  Vertex vertex;
};

class ReplyTable {
 public:
  ReplyTable() = default;
  // An empty table for `players` players (1 to kMaxPlayers) on a board of `points` points.
  ReplyTable(std::uint32_t players, std::uint32_t points)
      : points_(points), replies_(std::size_t{players} * points, kNoVertex) {}

  // The reply p last played to a move on `before` in a playout it won; kNoVertex when there is
  // none (never learnt, or forgotten since).
  Vertex reply(Player p, Vertex before) const { return replies_[slot(p, before)]; }

  // Learns from one finished simulation, its moves in order: each move of the winner becomes
  // the reply to the move before it; a move of another player that is the stored reply to the
  // move before it is forgotten.
  void learn(std::span<const Step> moves, Player winner) {
    for (std::size_t j = 1; j < moves.size(); ++j) {
      Vertex& stored = replies_[slot(moves[j].player, moves[j - 1].vertex)];
      if (moves[j].player == winner) {
        stored = moves[j].vertex;
      } else if (stored == moves[j].vertex) {
        stored = kNoVertex;
      }
    }
  }

 private:
  std::size_t slot(Player p, Vertex before) const {
    return (p - 1u) * std::size_t{points_} + before;
  }
  std::uint32_t points_ = 0;
  std::vector<Vertex> replies_;  // [player - 1][point before]
};

}  // namespace tanbo::detail
