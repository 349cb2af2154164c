// Match and study arithmetic (Wilson interval, Elo, tallies), CSV round trip and merge, the
// PNG writer, and the match/study commands end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/study/csv.hpp"
#include "tanbo/study/seats.hpp"
#include "test_support.hpp"

using namespace tanbo;

TEST(MatchStats, WilsonIntervalMatchesHandComputedValues) {
  // 7 of 10, z = 1.96: centre (0.7 + 1.9208/10) / 1.38415 = 0.64449,
  // half 1.96 * sqrt(0.021 + 0.0096040) / 1.38415 = 0.24772.
  Interval ci = wilson_interval(7, 10);
  EXPECT_NEAR(ci.lo, 0.39677, 1e-4);
  EXPECT_NEAR(ci.hi, 0.89221, 1e-4);
  // 0 of 10: [0, z^2/n / (1 + z^2/n)] = [0, 0.27753].
  ci = wilson_interval(0, 10);
  EXPECT_NEAR(ci.lo, 0.0, 1e-12);
  EXPECT_NEAR(ci.hi, 0.27753, 1e-4);
  // 100 of 100: [1/(1 + z^2/100), 1] = [0.96301, 1].
  ci = wilson_interval(100, 100);
  EXPECT_NEAR(ci.lo, 0.96301, 1e-4);
  EXPECT_NEAR(ci.hi, 1.0, 1e-12);
  // 50 of 100: 0.5 +- 1.96 * sqrt(0.0025 + 0.00009604) / 1.0384 = [0.40383, 0.59617].
  ci = wilson_interval(50, 100);
  EXPECT_NEAR(ci.lo, 0.40383, 1e-4);
  EXPECT_NEAR(ci.hi, 0.59617, 1e-4);
  for (double n : {1.0, 7.0, 10.0, 33.0, 1000.0}) {
    EXPECT_EQ(wilson_interval(n, n).hi, 1.0) << n;  // exactly: Elo +inf, not a huge number
    EXPECT_EQ(wilson_interval(0, n).lo, 0.0) << n;
  }
  ci = wilson_interval(0, 0);
  EXPECT_EQ(ci.lo, 0.0);
  EXPECT_EQ(ci.hi, 1.0);
}

TEST(MatchStats, EloFromScoreRate) {
  // 0.75 = 3:1 odds: 400 log10(3) = 190.85.
  EXPECT_NEAR(elo_from_rate(0.75), 190.85, 0.01);
  EXPECT_NEAR(elo_from_rate(0.25), -190.85, 0.01);
  EXPECT_NEAR(elo_from_rate(0.5), 0.0, 1e-9);
  // 10:1 odds: 400.
  EXPECT_NEAR(elo_from_rate(10.0 / 11.0), 400.0, 1e-6);
  EXPECT_TRUE(std::isinf(elo_from_rate(1.0)));
  EXPECT_GT(elo_from_rate(1.0), 0);
  EXPECT_EQ(format_elo(elo_from_rate(0.75)), "+191");
  EXPECT_EQ(format_elo(-35.4), "-35");
  EXPECT_EQ(format_elo(elo_from_rate(0.0)), "-inf");
}

TEST(MatchStats, SeatsRotate) {
  EXPECT_EQ(agent_in_seat(1, 0, 2), 0);
  EXPECT_EQ(agent_in_seat(2, 0, 2), 1);
  EXPECT_EQ(agent_in_seat(1, 1, 2), 1);
  EXPECT_EQ(agent_in_seat(2, 1, 2), 0);
  EXPECT_EQ(agent_in_seat(1, 4, 3), 1);
  EXPECT_EQ(agent_in_seat(3, 4, 3), 0);
  EXPECT_NE(game_seed(1, 0, 0), game_seed(1, 1, 0));
  EXPECT_NE(game_seed(1, 0, 0), game_seed(1, 0, 1));
  EXPECT_EQ(game_seed(5, 3, 1), game_seed(5, 3, 1));
}

TEST(MatchStats, PlayGameCountsMovesAndRemovals) {
  auto a = make_agent("random", 1), b = make_agent("random", 2);
  Position pos = test::make("grid 9x9");
  const GameResult r = play_game(pos, {a.get(), b.get()});
  EXPECT_TRUE(pos.is_over());
  EXPECT_EQ(r.winner, pos.winner());
  EXPECT_EQ(r.plies, pos.ply());
  std::uint32_t removals = 0;
  for (const auto& rec : pos.history()) removals += rec.removed_end - rec.removed_begin;
  EXPECT_EQ(r.root_removals, removals);
  EXPECT_GE(removals, 2u);  // at least the loser's two roots
}

TEST(StudyTally, MeansSpreadAndCsvRoundTrip) {
  StudyTally t;
  t.topology = "grid 9x9";
  t.setup = "default";
  t.add({kBlack, 10, 2}, 2);
  t.add({kWhite, 20, 4}, 2);
  t.add({kBlack, 30, 6}, 2);
  EXPECT_EQ(t.games, 3u);
  EXPECT_EQ(t.first_wins, 2u);
  EXPECT_DOUBLE_EQ(t.mean_length(), 20.0);
  EXPECT_DOUBLE_EQ(t.sd_length(), 10.0);  // sample sd of 10, 20, 30
  EXPECT_DOUBLE_EQ(t.removals_per_game(), 4.0);

  StudyTally u;
  u.topology = "file my, \"odd\" board.dot";
  u.setup = "file";
  u.add({kEmpty, 500, 1}, 3);
  u.add({3, 40, 2}, 3);
  const std::string csv = study_csv({t, u});
  EXPECT_NE(csv.find("grid 9x9,default,3,2,0,60,1400,12,2:1,0.6667,"), std::string::npos);
  const auto back = parse_study_csv(csv, "t.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(study_csv(back), csv);
  EXPECT_EQ(back[1].topology, u.topology);
  EXPECT_EQ(back[1].unfinished, 1u);
  EXPECT_EQ(back[1].seat_wins, (std::vector<std::uint64_t>{0, 0, 1}));
}

TEST(StudyTally, MergingShardsEqualsTheWhole) {
  StudyTally whole, a, b;
  for (auto* t : {&whole, &a, &b}) t->topology = "hex 5", t->setup = "default";
  for (int i = 0; i < 9; ++i) {
    const GameResult r{static_cast<Player>(1 + i % 2), static_cast<std::uint32_t>(40 + 3 * i),
                       static_cast<std::uint32_t>(i)};
    whole.add(r, 2);
    (i % 3 == 0 ? a : b).add(r, 2);
  }
  std::vector<StudyTally> merged = {a};
  merge_tallies(merged, {b});
  EXPECT_EQ(study_csv(merged), study_csv({whole}));
}

TEST(StudyTally, MalformedCsvIsRefusedWithTheLine) {
  auto message = [](const std::string& text) {
    try {
      parse_study_csv(text, "x.csv");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  StudyTally t;
  t.topology = "line 9";
  t.setup = "default";
  t.add({kBlack, 8, 1}, 2);
  const std::string good = study_csv({t});
  EXPECT_NE(message("a,b\n").find("x.csv:1: not a study CSV"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  const std::string header = good.substr(0, good.find('\n') + 1);
  EXPECT_NE(message(header + "line 9,default,1\n").find("x.csv:2: expected 15 fields"),
            std::string::npos);
  std::string bad = good;
  bad.replace(bad.find(",1,1,0,8,"), 9, ",1,0,0,8,");  // first_wins 0 but seat 1 won
  EXPECT_NE(message(bad).find("do not add up"), std::string::npos);
  bad = good;
  bad.replace(bad.find(",1,1,0,8,"), 9, ",x,1,0,8,");
  EXPECT_NE(message(bad).find("games \"x\""), std::string::npos);
}

TEST(MatchCommand, CsvTableAddsUp) {
  const auto r = test::run_command(std::string(TANBO_BINARY) +
                                   " match --topology 'grid 7x7' --players greedy,random "
                                   "--games 6 --seed 3 --csv");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, a, b;
  std::getline(in, header);
  std::getline(in, a);
  std::getline(in, b);
  EXPECT_EQ(header.rfind("player,spec,games,wins,unfinished,win_rate,", 0), 0u) << header;
  EXPECT_EQ(a.rfind("1,greedy,6,", 0), 0u) << a;
  EXPECT_EQ(b.rfind("2,random,6,", 0), 0u) << b;
  const int wa = std::stoi(a.substr(11)), wb = std::stoi(b.substr(11));
  EXPECT_EQ(wa + wb, 6);
  // Each played 3 games as Black and 3 as White.
  EXPECT_NE(a.find(",3,"), std::string::npos);
}

TEST(MatchCommand, SavedGamesReplayToTheSameResults) {
  const auto dir = std::filesystem::temp_directory_path() / "tanbo_match_games_test";
  std::filesystem::remove_all(dir);
  const auto r = test::run_command(std::string(TANBO_BINARY) +
                                   " match --topology 'hex 3' --players random,greedy --games 4 "
                                   "--save-games " +
                                   dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const Game g = load_game(e.path().string());
    EXPECT_TRUE(g.position.is_over());
    ASSERT_EQ(g.names.size(), 2u);
    ++files;
  }
  EXPECT_EQ(files, 4);
  std::filesystem::remove_all(dir);
}

TEST(MatchCommand, BadPlayersAreRefused) {
  test::expect_refused(
      std::string(TANBO_BINARY) + " match --topology 'grid 7x7' --players mcts:playouts=x,random",
      "playouts=x");
}

TEST(StudyCommand, MergedShardsEqualTheWholeRun) {
  const auto dir = std::filesystem::temp_directory_path() / "tanbo_study_test";
  std::filesystem::create_directories(dir);
  const std::string list = (dir / "list.txt").string();
  { std::ofstream(list) << "# boards\nline 11\ngrid 5x5   # small\nhex 3 | default\n"; }
  const std::string base = std::string(TANBO_BINARY) + " study --topologies " + list +
                           " --players greedy,random --games 5 --seed 4 --csv";
  const auto whole = test::run_command(base);
  ASSERT_EQ(whole.status, 0) << whole.err;
  std::string files;
  for (int i = 1; i <= 2; ++i) {
    const std::string f = (dir / ("s" + std::to_string(i) + ".csv")).string();
    ASSERT_EQ(test::run_command(base + " --shard " + std::to_string(i) + "/2 > " + f).status, 0);
    files += " " + f;
  }
  const auto merged = test::run_command(std::string(TANBO_BINARY) + " study --csv --merge" + files);
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.out, whole.out);
  test::expect_refused(base + " --shard 3/2", "--shard 3/2");
  std::filesystem::remove_all(dir);
}
