#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <sstream>

#include "tanbo/ai/playout.hpp"
#include "tanbo/core/random.hpp"
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

// `tanbo bench` ends with the contract line, and plays the games the library plays: the same
// seed gives the same uniformly random games, so the same moves per game.
TEST(Bench, LastLineIsTheContractLineOfTheLibrarysGames) {
  const std::string bin = TANBO_BINARY;
  const auto r = test::run_command(bin + " bench --topology 'grid 9x9' --games 40 --seed 5", "");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string last;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) last = line;
  std::smatch m;
  ASSERT_TRUE(std::regex_match(
      last, m,
      std::regex(
          R"(games=40 moves_per_game=([0-9]+\.[0-9]) playouts_per_second=([0-9]+(\.[0-9]+)?))")))
      << last;
  EXPECT_GT(std::stod(m[2].str()), 0.0);

  const Position start = test::make("grid 9x9");
  Rng rng(5);
  std::uint64_t moves = 0;
  for (int g = 0; g < 40; ++g) {
    Position pos = start;
    moves += random_playout(pos, rng);
    ASSERT_TRUE(pos.is_over());
  }
  char want[32];
  std::snprintf(want, sizeof want, "%.1f", static_cast<double>(moves) / 40.0);
  EXPECT_EQ(m[1].str(), want);

  test::expect_refused(bin + " bench --games 0", "--games must be at least 1");
  test::expect_refused(bin + " bench --gamez 3", "gamez");
}
