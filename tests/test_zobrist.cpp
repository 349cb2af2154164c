// The position's Zobrist hash is kept move by move (each stone's key goes in when it is placed
// and out when it is taken off); here it is checked after every move and every undo against the
// hash of the same stones and side to move loaded from scratch, which computes it anew.
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

// The hash of pos's stones and side to move, computed from scratch.
std::uint64_t recomputed(const Position& pos) {
  return Position::from_stones(pos.topology_ptr(), pos.num_players(), test::stones_of(pos),
                               pos.to_move())
      .hash();
}

// A random game, every move compared; then every undo back to the start; with resignations
// in games of more than two players. Whole games on boards of every kind of point store and legal
// sets: one block, a few blocks, the compact store (two players on a lattice of more than 4,096
// points).
TEST(Zobrist, HashFollowsEveryMoveAndUndo) {
  struct Case {
    const char* spec;
    const char* setup;
    int players;
  };
  for (const Case c : {Case{"grid 9x9", "default", 2}, Case{"grid 19x19", "default", 2},
                       Case{"grid 5x5x5", "default", 2}, Case{"hex 5", "default", 3},
                       Case{"grid 13x13", "default", 4}, Case{"grid 40x40", "spaced", 2},
                       Case{"grid 70x70", "spaced", 2}, Case{"line 15", "default", 2},
                       Case{"grid 3x3x3", "default", 2}, Case{"hex 4", "default", 2}}) {
    Position pos = test::make(c.spec, c.setup, c.players);
    // Under AddressSanitizer the big boards recompute the hash at every 16th ply only (each
    // recomputation loads the whole board); the kept hash is still compared at every undo.
    const int every = TANBO_ASAN && pos.topology().num_vertices() > 1000 ? 16 : 1;
    Rng rng(17);
    std::vector<std::uint64_t> hashes{pos.hash()};
    ASSERT_EQ(pos.hash(), recomputed(pos)) << c.spec;
    while (!pos.is_over()) {
      if (pos.num_players() > 2 && pos.ply() == 40) {
        pos.resign(pos.next_player());
      } else {
        pos.play(random_move(pos, rng));
      }
      hashes.push_back(pos.hash());
      if (pos.is_over()) break;  // (a finished game has no side to move to load)
      if (pos.ply() % every == 0) {
        ASSERT_EQ(pos.hash(), recomputed(pos)) << c.spec << " move " << pos.ply();
      }
    }
    while (pos.ply() > 0) {
      pos.undo();
      ASSERT_EQ(pos.hash(), hashes[pos.ply()]) << c.spec << " undo to " << pos.ply();
      if (pos.ply() % every == 0) {
        ASSERT_EQ(pos.hash(), recomputed(pos)) << c.spec << " undo to " << pos.ply();
      }
    }
  }
}

// The hash tells positions apart: along random games, two positions get the same hash exactly
// when they have the same stones and side to move; and the side to move counts.
TEST(Zobrist, HashesDifferWhenPositionsDo) {
  std::map<std::uint64_t, std::pair<std::vector<std::pair<Vertex, Player>>, Player>> seen;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    Position pos = test::make("grid 19x19");
    Rng rng(seed);
    while (!pos.is_over()) {
      const auto key = std::make_pair(test::stones_of(pos), pos.to_move());
      const auto [it, fresh] = seen.emplace(pos.hash(), key);
      if (!fresh) ASSERT_EQ(it->second, key) << "two positions share hash " << pos.hash();
      pos.play(random_move(pos, rng));
    }
  }
  EXPECT_GT(seen.size(), 1000u);
  const Position start = test::make("grid 19x19");
  const auto stones = test::stones_of(start);
  EXPECT_NE(Position::from_stones(start.topology_ptr(), 2, stones, kBlack).hash(),
            Position::from_stones(start.topology_ptr(), 2, stones, kWhite).hash());
}

}  // namespace
}  // namespace tanbo
