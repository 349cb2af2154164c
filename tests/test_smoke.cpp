#include <gtest/gtest.h>

#include "tanbo/random.hpp"
#include "test_support.hpp"

using namespace tanbo;

TEST(Smoke, RandomGameOn19x19EndsWithOneWinner) {
  Position pos = test::make("grid 19x19");
  EXPECT_EQ(pos.check_consistency(), "");
  Rng rng(7);
  std::uint32_t moves = 0;
  while (!pos.is_over()) {
    pos.play(random_move(pos, rng));
    ++moves;
    ASSERT_EQ(pos.check_consistency(), "") << "after move " << moves;
  }
  EXPECT_NE(pos.winner(), kEmpty);
  while (pos.ply() > 0) {
    pos.undo();
    ASSERT_EQ(pos.check_consistency(), "");
  }
  EXPECT_EQ(pos.stones(kBlack), 8u);
}
