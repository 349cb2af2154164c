// Studies in shards: the games a shard plays, the header that names a shard's run, the checks
// a merge makes (incomplete, duplicated, mixed sets), the time-left estimate and the progress
// lines written without a terminal.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/study/csv.hpp"
#include "tanbo/study/progress.hpp"
#include "tanbo/study/shards.hpp"

using namespace tanbo;
using tanbo::estimate_seconds_left;
using tanbo::ProgressBoard;
using tanbo::StudyProgress;

namespace {

StudyRun sample_run() {
  StudyRun r;
  r.seed = 11;
  r.games = 7;
  r.players = "greedy,mcts:playouts=20,explore=0.3";
  r.boards = 2;
  r.fingerprint = 0x0123456789abcdefull;
  return r;
}

// The CSV a shard of `run` writes: its header and a row per board with the right game count.
std::string shard_text(const StudyRun& run, std::uint64_t index, std::uint64_t count) {
  std::vector<StudyTally> tallies;
  for (std::uint64_t b = 0; b < run.boards; ++b) {
    StudyTally t;
    t.topology = "line " + std::to_string(5 + b);
    t.setup = "default";
    t.seat_wins.assign(2, 0);  // (as a study writes a board of which a shard plays no game)
    for (std::uint64_t g = 0; g < shard_games(b, run.games, index, count); ++g) {
      t.add({static_cast<Player>(1 + g % 2), static_cast<std::uint32_t>(5 + g), 1}, 2);
    }
    tallies.push_back(t);
  }
  return shard_header({run, index, count}) + study_csv(tallies);
}

StudyFile shard_file(const std::string& name, const StudyRun& run, std::uint64_t index,
                     std::uint64_t count) {
  return read_study_file(shard_text(run, index, count), name);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST(StudyShards, ShardGamesSplitEveryBoardExactly) {
  for (std::uint64_t games : {1, 2, 7, 10}) {
    for (std::uint64_t count : {1, 2, 3, 6, 13}) {
      for (std::uint64_t board = 0; board < 4; ++board) {
        std::uint64_t sum = 0;
        for (std::uint64_t i = 1; i <= count; ++i) {
          std::uint64_t brute = 0;
          for (std::uint64_t g = 0; g < games; ++g) brute += (board * games + g) % count == i - 1;
          EXPECT_EQ(shard_games(board, games, i, count), brute)
              << board << " " << games << " " << i << "/" << count;
          sum += brute;
        }
        EXPECT_EQ(sum, games);
      }
    }
  }
}

TEST(StudyShards, HeaderRoundTrip) {
  const ShardId id{sample_run(), 3, 6};
  const std::string text = shard_header(id);
  EXPECT_EQ(text,
            "# tanbo study shard 3/6\n# seed 11\n# games 7\n# boards 2 0123456789abcdef\n"
            "# players greedy,mcts:playouts=20,explore=0.3\n");
  const auto back = parse_shard_header(text + "topology,...\n", "s.csv");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->run, id.run);
  EXPECT_EQ(back->index, 3u);
  EXPECT_EQ(back->count, 6u);
  // A CSV without header (a whole study) has none.
  EXPECT_FALSE(parse_shard_header("topology,setup\n", "w.csv").has_value());
}

TEST(StudyShards, MalformedHeadersAreRefusedWithTheLine) {
  const std::string good = shard_header({sample_run(), 3, 6});
  auto refusal = [](const std::string& text) {
    return error_of([&] { parse_shard_header(text, "s.csv"); });
  };
  std::string bad = good;
  bad.replace(bad.find("3/6"), 3, "7/6");
  EXPECT_NE(refusal(bad).find("s.csv:1: shard header: shard \"7/6\" is not valid"),
            std::string::npos);
  bad = good;
  bad.replace(bad.find("# seed 11"), 9, "# seed x");
  EXPECT_NE(refusal(bad).find("s.csv:2: shard header: seed \"x\""), std::string::npos);
  bad = good;
  bad.replace(bad.find("0123456789abcdef"), 16, "0123");
  EXPECT_NE(refusal(bad).find("s.csv:4: shard header: boards"), std::string::npos);
  EXPECT_NE(refusal("# tanbo study shard 1/2\n# games 7\n").find("s.csv:2: shard header: expected"),
            std::string::npos);
}

TEST(StudyShards, RowsMustBeWhatTheHeaderSays) {
  const StudyRun run = sample_run();
  EXPECT_EQ(shard_file("a.csv", run, 2, 3).tallies.size(), 2u);
  // A cut file: the last row missing.
  std::string text = shard_text(run, 2, 3);
  text.resize(text.rfind('\n', text.size() - 2) + 1);
  EXPECT_NE(error_of([&] {
              read_study_file(text, "cut.csv");
            }).find("cut.csv: 1 board, but its header says 2"),
            std::string::npos);
  // A header of another shard over these rows: the game counts differ.
  text = shard_text(run, 2, 3);
  text.replace(text.find("2/3"), 3, "1/3");
  EXPECT_NE(error_of([&] { read_study_file(text, "x.csv"); }).find("x.csv: \"line 5\" has 2 games"),
            std::string::npos);
}

TEST(StudyMerge, TheWholeSetOfOneRunIsComplete) {
  const StudyRun run = sample_run();
  std::vector<StudyFile> files;
  for (std::uint64_t i = 4; i >= 1; --i)
    files.push_back(shard_file("s" + std::to_string(i), run, i, 4));
  const MergeCheck c = check_merge(files);
  EXPECT_TRUE(c.complete());
  ASSERT_TRUE(c.run.has_value());
  EXPECT_EQ(c.run->count, 4u);
  EXPECT_EQ(c.present, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  // The merge adds every board's games: 7 each.
  for (const auto& t : merge_study_files(files)) EXPECT_EQ(t.games, 7u);
}

TEST(StudyMerge, MissingShardsAreNamed) {
  const StudyRun run = sample_run();
  const MergeCheck c = check_merge(
      {shard_file("s1", run, 1, 4), shard_file("s2", run, 2, 4), shard_file("s4", run, 4, 4)});
  EXPECT_FALSE(c.complete());
  EXPECT_TRUE(c.refusals.empty());
  EXPECT_EQ(c.missing, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(missing_shards_text(c.missing, 4), "missing shards 3/4");
  EXPECT_EQ(missing_shards_text({2, 5}, 6), "missing shards 2/6, 5/6");
  std::vector<std::uint64_t> many;
  for (std::uint64_t i = 1; i <= 20; ++i) many.push_back(i);
  EXPECT_EQ(missing_shards_text(many, 64),
            "missing shards 1/64, 2/64, 3/64, 4/64, 5/64, 6/64, 7/64, 8/64, 9/64, 10/64 and 10 "
            "more");
}

// A header may claim any shard count up to 19 digits: the merge counts the shards missing
// without listing them one by one (it once walked every number up to the count, and a forged
// "1/9999999999999999999" hung it, filling the memory).
TEST(StudyMerge, AHugeShardCountIsCountedNotListed) {
  StudyRun run = sample_run();
  run.games = 1;  // (so that shard 1 of any count plays game 0: board 1's only game)
  const std::uint64_t count = 9'999'999'999'999'999'999ull;
  const MergeCheck c =
      check_merge({shard_file("s1", run, 1, count), shard_file("s3", run, 3, count)});
  EXPECT_FALSE(c.complete());
  EXPECT_TRUE(c.refusals.empty());
  EXPECT_EQ(c.missing_count, count - 2);
  ASSERT_EQ(c.missing.size(), 12u);
  EXPECT_EQ(c.missing.front(), 2u);
  EXPECT_EQ(c.missing[1], 4u);
  EXPECT_EQ(c.missing.back(), 14u);
  EXPECT_EQ(missing_shards_text(c.missing, count, c.missing_count),
            "missing shards 2/9999999999999999999, 4/9999999999999999999, 5/9999999999999999999, "
            "6/9999999999999999999, 7/9999999999999999999, 8/9999999999999999999, "
            "9/9999999999999999999, 10/9999999999999999999, 11/9999999999999999999, "
            "12/9999999999999999999 and 9999999999999999987 more");
  // The last shards missing, after those given, are counted too.
  const MergeCheck last = check_merge({shard_file("s1", run, 1, 4), shard_file("s2", run, 2, 4)});
  EXPECT_EQ(last.missing, (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(last.missing_count, 2u);
}

// Every shard of a run has a row per board of its list, in its order: a file of the run whose
// rows name other boards was edited, and is refused (its games were once counted as boards of
// their own, a merged report with more rows than the list).
TEST(StudyMerge, RowsOfOtherBoardsAreRefused) {
  const StudyRun run = sample_run();
  std::string text = shard_text(run, 2, 2);
  text.replace(text.find("line 6,"), 7, "line 9,");
  const MergeCheck c =
      check_merge({shard_file("s1", run, 1, 2), read_study_file(text, "edited.csv")});
  EXPECT_FALSE(c.complete());
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_EQ(c.refusals[0],
            "edited.csv: board 2 is \"line 9 | default\", but s1 of the same run has \"line 6 | "
            "default\" there (an edited file?)");
  EXPECT_EQ(c.missing, (std::vector<std::uint64_t>{2}));
}

TEST(StudyMerge, ForeignShardsAreNamedWithWhy) {
  const StudyRun run = sample_run();
  StudyRun seed = run, games = run, players = run, boards = run;
  seed.seed = 12;
  games.games = 9;
  players.players = "random,greedy";
  boards.fingerprint ^= 1;
  const MergeCheck c = check_merge({shard_file("s1", run, 1, 3), shard_file("s2", run, 2, 3),
                                    shard_file("old", seed, 3, 3), shard_file("six", run, 3, 6),
                                    shard_file("g", games, 3, 3), shard_file("p", players, 3, 3),
                                    shard_file("b", boards, 3, 3)});
  ASSERT_TRUE(c.run.has_value());
  EXPECT_EQ(c.run->run, run);
  EXPECT_EQ(c.run->count, 3u);
  EXPECT_EQ(c.missing, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(c.refusals.size(), 5u);
  EXPECT_TRUE(has(c.refusals, "old: shard 3/3 of another run: other seed (12, not 11)"));
  EXPECT_TRUE(has(c.refusals, "six: shard 3/6 of another run: other shard count (/6, not /3)"));
  EXPECT_TRUE(
      has(c.refusals, "g: shard 3/3 of another run: other options: games per board 9, not 7"));
  EXPECT_TRUE(
      has(c.refusals, "p: shard 3/3 of another run: other options: players \"random,greedy\""));
  EXPECT_TRUE(has(c.refusals, "b: shard 3/3 of another run: other options: other boards"));
}

TEST(StudyMerge, TheRunIsTheOneMostFilesShare) {
  const StudyRun run = sample_run();
  StudyRun other = run;
  other.seed = 2;
  const MergeCheck c = check_merge(
      {shard_file("o1", other, 1, 2), shard_file("s1", run, 1, 2), shard_file("s2", run, 2, 2)});
  ASSERT_TRUE(c.run.has_value());
  EXPECT_EQ(c.run->run.seed, 11u);
  EXPECT_TRUE(c.missing.empty());
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_EQ(c.refusals[0].rfind("o1: shard 1/2 of another run: other seed (2, not 11)", 0), 0u);
}

TEST(StudyMerge, DuplicatesAndHeaderlessFilesAreRefused) {
  const StudyRun run = sample_run();
  MergeCheck c = check_merge(
      {shard_file("s1", run, 1, 2), shard_file("s2", run, 2, 2), shard_file("copy", run, 2, 2)});
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_EQ(c.refusals[0], "copy: duplicate of shard 2/2 (already given as s2)");
  EXPECT_TRUE(c.missing.empty());

  StudyTally t;
  t.topology = "line 5";
  t.setup = "default";
  t.add({kBlack, 5, 1}, 2);
  const StudyFile whole = read_study_file(study_csv({t}), "whole.csv");
  EXPECT_FALSE(whole.shard.has_value());
  EXPECT_TRUE(check_merge({whole}).complete());  // alone: a whole study, drawn again
  c = check_merge({shard_file("s1", run, 1, 2), shard_file("s2", run, 2, 2), whole});
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_EQ(c.refusals[0].rfind("whole.csv: no shard header", 0), 0u);
  c = check_merge({whole, whole});
  EXPECT_EQ(c.refusals.size(), 2u);
}

TEST(StudyMerge, FingerprintsTellBoardsApart) {
  auto starts = [](const std::vector<std::pair<std::string, std::string>>& boards) {
    std::vector<Position> out;
    for (const auto& [spec, setup] : boards) {
      auto topo = parse_topology(spec);
      out.emplace_back(topo, make_setup(*topo, setup, 2));
    }
    return out;
  };
  const auto a = starts({{"grid 5x5", "default"}, {"hex 3", "default"}});
  const std::uint64_t h = study_fingerprint({"grid 5x5", "hex 3"}, {"default", "default"}, a);
  EXPECT_EQ(h, study_fingerprint({"grid 5x5", "hex 3"}, {"default", "default"},
                                 starts({{"grid 5x5", "default"}, {"hex 3", "default"}})));
  EXPECT_NE(h, study_fingerprint({"grid 5x5", "hex 4"}, {"default", "default"},
                                 starts({{"grid 5x5", "default"}, {"hex 4", "default"}})));
  EXPECT_NE(h, study_fingerprint({"grid 5x5", "hex 3"}, {"default", "x"}, a));  // listed setup
  EXPECT_NE(h, study_fingerprint({"hex 3", "grid 5x5"}, {"default", "default"},
                                 starts({{"hex 3", "default"}, {"grid 5x5", "default"}})));
}

TEST(StudyProgressEstimate, EachBoardAtItsOwnTimePerGame) {
  const std::vector<ProgressBoard> boards = {{"a", 4, 10}, {"b", 4, 20}, {"c", 2, 40}};
  // Nothing measured yet: unknown.
  EXPECT_EQ(estimate_seconds_left(boards, {0, 0, 0}, {0, 0, 0}), -1);
  // a: 2 games in 2 s, so 2 more take 2 s; b and c unstarted: 1 s per game at 10 points is
  // 0.01 s per squared point, so 4 s a game on b (4 games: 16 s) and 16 s on c (2: 32 s).
  EXPECT_NEAR(estimate_seconds_left(boards, {2, 0, 0}, {2, 0, 0}), 2 + 16 + 32, 1e-9);
  // b measured slower than the square would say (3 games in 30 s): its own rate counts.
  EXPECT_NEAR(estimate_seconds_left(boards, {4, 3, 0}, {4, 30, 0}), 10 + 2 * 1600 * 34.0 / 1600,
              1e-9);
  // All played: nothing left.
  EXPECT_EQ(estimate_seconds_left(boards, {4, 4, 2}, {1, 1, 1}), 0);
}

TEST(StudyProgressLines, AStartLineALinePerBoardAndPeriodicLines) {
  std::ostringstream err;
  {
    StudyProgress p(err, StudyProgress::Mode::kLines, 0, "tanbo study shard 2/3",
                    {{"line 7", 2, 7}, {"grid 3x3", 0, 9}});
    p.start_board(0);
    p.game_done(0, 0.5);
    p.game_done(0, 0.3);
    p.board_done(0);
    p.start_board(1);
    p.board_done(1);
    p.finish();
  }
  std::istringstream in(err.str());
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u) << err.str();
  EXPECT_EQ(lines[0].rfind("tanbo study shard 2/3: 0/2 games, elapsed ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(", left unknown; starting, 2 boards"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("tanbo study shard 2/3: 2/2 games, elapsed ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find(", left ~0s; board 1/2 (line 7) done: 2 games, 0.40s a game"),
            std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find("; board 2/2 (grid 3x3) done: 0 games"), std::string::npos) << lines[2];

  // With an interval, lines come while a board is played, without any game finishing. (The
  // stream is read once the progress has stopped; a loaded machine gets longer tries.)
  bool seen = false;
  std::string text;
  for (int attempt = 1; attempt <= 10 && !seen; ++attempt) {
    std::ostringstream ticking;
    StudyProgress p(ticking, StudyProgress::Mode::kLines, 0.02, "tanbo study",
                    {{"grid 9x9", 3, 81}});
    p.start_board(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(100 * attempt));
    p.finish();
    text = ticking.str();
    seen = text.find(
               "tanbo study: 0/3 games, elapsed 0s, left unknown; playing board 1/1 "
               "(grid 9x9)\n") != std::string::npos;
  }
  EXPECT_TRUE(seen) << text;
}

TEST(StudyProgressLines, NothingWhenOff) {
  std::ostringstream err;
  StudyProgress p(err, StudyProgress::Mode::kOff, 0.01, "tanbo study", {{"line 7", 1, 7}});
  p.start_board(0);
  p.game_done(0, 0.1);
  p.board_done(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  p.finish();
  EXPECT_EQ(err.str(), "");
}
