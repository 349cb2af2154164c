// The random playout: the uniformly random game to its end that MCTS, the benchmarks and the
// Python module play by the million. Its speed is the engine's headline figure
// (docs/performance.md); the move it draws is random_move's (tanbo/core/random.hpp).
#pragma once

#include <cstdint>

#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"

namespace tanbo {

// Plays uniformly random moves until the game ends; returns the number of moves played. The
// moves are random_move's, drawn from the same numbers, but on big lattices (see
// Position::prefetches) each move is found before the one ahead of it is played: a move that
// removes no stone changes the next player's legal moves only by taking the point played, so
// the next move is then known already, and its entries in the point store load while this move is
// played. After a removal (rare: about one move in 180 on 1000x1000) the next move is found again.
inline std::uint32_t random_playout(Position& pos, Rng& rng) {
  std::uint32_t moves = 0;
  if (!pos.prefetches()) {
    for (; !pos.is_over(); ++moves) pos.play(random_move(pos, rng));
    return moves;
  }
  if (pos.is_over()) return 0;
  Vertex v = random_move(pos, rng);
  for (;;) {
    // The next move if this one removes nothing: the i-th legal point of q other than v. It is
    // first found as if v were not legal for q, which it seldom is, so that the search need not
    // wait for v's entry to arrive; when v is legal for q it is found again without v.
    const Player q = pos.next_player();
    Rng ahead = rng;  // the next move's number, taken from rng only if there is a next move
    const std::uint64_t bits = ahead.next();
    const std::uint32_t all = pos.legal_count(q);
    Vertex w = kNoVertex;
    if (all != 0) {
      w = pos.legal_move(q, Rng::scale(bits, all));
      pos.prefetch_move(w);
    }
    if (pos.is_legal_point(q, v)) {
      const std::uint32_t count = all - 1;
      w = kNoVertex;
      if (count != 0) {
        const std::uint32_t i = Rng::scale(bits, count);
        w = pos.legal_move(q, i);
        if (w >= v) w = pos.legal_move(q, i + 1);
        pos.prefetch_move(w);
      }
    }
    const MoveRecord& rec = pos.play(v);
    ++moves;
    if (pos.is_over()) return moves;
    rng = ahead;
    const Player p = pos.to_move();
    const bool known = rec.removed_begin == rec.removed_end && p == q && w != kNoVertex;
    v = known ? w : pos.legal_move(p, Rng::scale(bits, pos.legal_count(p)));
  }
}

}  // namespace tanbo
