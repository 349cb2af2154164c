// Monte Carlo tree search: determinism, limits (playouts, time, memory), threads, stopping,
// options and strength. Its knowledge against the rules: test_mcts_knowledge.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "../src/ai/mcts_tree.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/move_model.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/study/games.hpp"
#include "test_support.hpp"

using namespace tanbo;

TEST(Mcts, SameSeedSameGame) {
  // On 7x7 without the exact solver, which would spend 100,000 positions a move there (its
  // reproducibility is checked on hex 3, 19 points).
  for (const std::string board : {"grid 7x7", "hex 3"}) {
    const std::string spec = board == "hex 3" ? "mcts:playouts=150" : "mcts:playouts=150,solver=0";
    std::vector<Vertex> games[2];
    for (int run = 0; run < 2; ++run) {
      auto a = make_agent(spec, 42);
      auto b = make_agent(spec, 43);
      Position pos = test::make(board);
      while (!pos.is_over()) {
        const Vertex v = (pos.to_move() == kBlack ? a : b)->choose(pos);
        games[run].push_back(v);
        pos.play(v);
      }
    }
    EXPECT_EQ(games[0], games[1]) << board;
    EXPECT_GT(games[0].size(), 5u);
  }
}

TEST(Mcts, DifferentSeedsExploreDifferently) {
  // Not a strength claim: two seeds should not produce the very same 10 opening moves on
  // 9x9 with a small budget (if they do, the seed is not reaching the search).
  std::vector<Vertex> line[2];
  for (int s = 0; s < 2; ++s) {
    Mcts m(parse_mcts_options("playouts=30"), 100 + s);
    Position pos = test::make("grid 9x9");
    for (int i = 0; i < 10 && !pos.is_over(); ++i) {
      line[s].push_back(m.search(pos));
      pos.play(line[s].back());
    }
  }
  EXPECT_NE(line[0], line[1]);
}

TEST(Mcts, RunsExactlyThePlayoutLimitWithOneOrSeveralThreads) {
  const Position pos = test::make("grid 9x9");
  for (const std::string opts :
       {"playouts=300", "playouts=300,threads=3", "playouts=300,threads=2,parallel=root"}) {
    Mcts m(parse_mcts_options(opts), 7);
    const Vertex v = m.search(pos);
    EXPECT_EQ(pos.check_move(kBlack, v), MoveStatus::kLegal) << opts;
    EXPECT_EQ(m.last_stats().playouts, 300u) << opts;
    EXPECT_GT(m.last_stats().playout_moves, 300u) << opts;
    EXPECT_GT(m.last_stats().best_visits, 0u) << opts;
  }
}

TEST(Mcts, EachPlayoutGrowsTheTreeByOneLevelAtMost) {
  // A search of P playouts expands at most P + 1 nodes, each into at most its legal moves; with
  // expand=1 it once expanded every node down to the end of the game on every playout.
  const Position pos = test::make("grid 9x9");
  for (const char* opts : {"playouts=60,expand=1,solver=0", "playouts=60,expand=2,solver=0"}) {
    Mcts m(parse_mcts_options(opts), 3);
    m.search(pos);
    EXPECT_LE(m.last_stats().nodes, 1 + 61u * pos.num_vertices()) << opts;
    EXPECT_GT(m.last_stats().playout_moves, 60u) << opts;  // the playouts still play
  }
}

// The trees of one search hold at most `memory` MB in all, whatever the threads: one tree
// takes it whole, root parallelism shares it. Each search here would grow its trees past twice
// 1 MB (about 29,000 nodes) without the limit. The tree grows no more once full; the playouts go
// on.
TEST(Mcts, TreesKeepWithinTheirMemory) {
  const Position pos = test::make("grid 9x9");
  const std::uint64_t most = (std::uint64_t{1} << 20) / sizeof(detail::Node);
  for (const std::string opts : {"playouts=8000,solver=0", "playouts=8000,solver=0,threads=4",
                                 "playouts=8000,solver=0,threads=4,parallel=root"}) {
    Mcts free_to_grow(parse_mcts_options(opts), 5);
    free_to_grow.search(pos);
    EXPECT_GT(free_to_grow.last_stats().nodes, 2 * most) << opts;
    Mcts held(parse_mcts_options(opts + ",memory=1"), 5);
    const Vertex v = held.search(pos);
    EXPECT_EQ(pos.check_move(kBlack, v), MoveStatus::kLegal) << opts;
    EXPECT_EQ(held.last_stats().playouts, 8000u) << opts;
    EXPECT_LE(held.last_stats().nodes, most) << opts;
    EXPECT_GT(held.last_stats().nodes, most / 2) << opts;  // it filled its share
  }
}

// Under a memory limit the trees of a search take at most half of what the limit leaves a
// board: 20 MB leave 16 MB, so 8 MB, about a twentieth of one default tree.
TEST(Mcts, TreesKeepWithinTheMemoryLimit) {
  const Position pos = test::make("grid 9x9");
  set_max_memory(std::uint64_t{20} << 20);
  Mcts m(parse_mcts_options("playouts=30000,solver=0,threads=2,parallel=root"), 5);
  m.search(pos);
  set_max_memory(0);
  EXPECT_EQ(m.last_stats().playouts, 30000u);
  const std::uint64_t room = (std::uint64_t{20} << 20) * 8 / 10;
  EXPECT_LE(m.last_stats().nodes, room / 2 / sizeof(detail::Node));
  EXPECT_GT(m.last_stats().nodes, room / 4 / sizeof(detail::Node) / 2);
}

TEST(Mcts, TimeLimitStopsTheSearch) {
  Mcts m(parse_mcts_options("time=0.05"), 1);
  const Position pos = test::make("grid 19x19");
  m.search(pos);
  EXPECT_GT(m.last_stats().playouts, 0u);
  // Generous bound: the limit is checked between playouts (a 19x19 playout takes < 1 ms).
  EXPECT_LT(m.last_stats().seconds, 2.0);
}

// On a board of a million points one playout takes about a second, and greedy's priors of the
// start would take seconds more: the time limit holds all the same (a 1 s move took 11 s).
TEST(Mcts, TimeLimitHoldsOnAMillionPointBoard) {
  Mcts m(parse_mcts_options("time=0.5"), 1);
  const Position pos = test::make("grid 1000x1000");
  const Vertex v = m.search(pos);
  EXPECT_EQ(pos.check_move(kBlack, v), MoveStatus::kLegal);
  EXPECT_LT(m.last_stats().seconds, 4.0);  // generous: a loaded machine
}

// Greedy's priors rank the moves, except where ranking them would look at too many roots
// (moves times root ids over kOnePlyWork): then every move's share is alike.
TEST(Mcts, OnePlyPriorsAreAlikeWhereRankingCostsTooMuch) {
  std::vector<double> shares;
  std::vector<std::uint32_t> order;
  Position small = test::make("grid 9x9");
  one_ply_shares(small, small.legal_moves(kBlack), shares, order);
  EXPECT_EQ(*std::max_element(shares.begin(), shares.end()), 1.0);
  EXPECT_LT(*std::min_element(shares.begin(), shares.end()), 1.0);
  Position big = test::make("grid 1000x1000");
  const std::vector<Vertex> moves = big.legal_moves(kBlack);
  ASSERT_GT(static_cast<double>(moves.size()) * big.num_root_ids(), kOnePlyWork);
  one_ply_shares(big, moves, shares, order);
  ASSERT_EQ(shares.size(), moves.size());
  EXPECT_TRUE(std::all_of(shares.begin(), shares.end(), [](double x) { return x == 0.5; }));
}

// stop() from another thread ends a search of a minute within moments, with the threads of one
// shared tree and of root-parallel trees, and the move is legal; a stop() while no search runs
// does not cut the next one short (it runs its full playout limit).
TEST(Mcts, StopEndsTheRunningSearchOnly) {
  const Position pos = test::make("grid 19x19");
  for (const char* options : {"time=60", "time=60,threads=2", "time=60,threads=2,parallel=root"}) {
    Mcts m(parse_mcts_options(options), 1);
    Vertex chosen = kNoVertex;
    std::atomic<bool> done{false};
    const auto t0 = std::chrono::steady_clock::now();
    std::thread search([&] {
      chosen = m.search(pos);
      done = true;
    });
    // A stop() that comes before the search has started counts for nothing: ask again until it
    // returns (or for 30 s, far less than the minute it would take).
    while (!done && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      m.stop();
    }
    search.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 30.0) << options << ": the search ran on after stop()";
    EXPECT_GT(m.last_stats().playouts, 0u) << options;
    EXPECT_EQ(pos.check_move(kBlack, chosen), MoveStatus::kLegal) << options;
  }
  Mcts m(parse_mcts_options("playouts=300"), 1);
  m.stop();
  m.search(pos);
  EXPECT_EQ(m.last_stats().playouts, 300u) << "a stop with no search running counts for nothing";
  m.stop();
  m.search(pos);
  EXPECT_EQ(m.last_stats().playouts, 300u);
}

// Positions from random games where some legal move ends the game with the mover winning
// and some other move does not.
static std::vector<Position> winning_positions(const std::string& board, int wanted) {
  std::vector<Position> out;
  Rng rng(5);
  const Position start = test::make(board);
  for (int game = 0; game < 400 && static_cast<int>(out.size()) < wanted; ++game) {
    Position pos = start;
    while (!pos.is_over()) {
      const Player p = pos.to_move();
      int wins = 0, others = 0;
      Position probe = pos;
      for (Vertex v : pos.legal_moves(p)) {
        probe.play(v);
        (probe.is_over() && probe.winner() == p ? wins : others)++;
        probe.undo();
      }
      if (wins > 0 && others > 0) {
        out.push_back(pos);
        break;
      }
      pos.play(random_move(pos, rng));
    }
  }
  return out;
}

TEST(Mcts, TakesAnImmediateWin) {
  const auto positions = winning_positions("grid 7x7", 5);
  ASSERT_GE(positions.size(), 3u);
  for (const auto& pos : positions) {
    Mcts m(parse_mcts_options("playouts=300"), 3);
    Position after = pos;
    after.play(m.search(pos));
    EXPECT_TRUE(after.is_over());
    EXPECT_EQ(after.winner(), pos.to_move());
  }
}

TEST(Mcts, BeatsRandomInAShortMatch) {
  // A real match with fixed seeds: 20 games on 7x7, seats alternating; the search alone,
  // without the exact solver.
  const auto score = test::first_agent_score(test::make("grid 7x7"),
                                             {"mcts:playouts=200,solver=0", "random"}, 9, 20);
  ASSERT_EQ(score.unfinished, 0);
  EXPECT_GE(score.wins, 18);
}

TEST(Mcts, OptionsParseAndPrint) {
  const MctsConfig c = parse_mcts_options("playouts=5000,time=2.5,threads=4,parallel=root,rave=0");
  EXPECT_EQ(c.playouts, 5000u);
  EXPECT_DOUBLE_EQ(c.move_seconds, 2.5);
  EXPECT_EQ(c.threads, 4);
  EXPECT_FALSE(c.tree_parallel);
  EXPECT_FALSE(c.rave);
  EXPECT_EQ(mcts_spec(c), "mcts:playouts=5000,time=2.5,threads=4,parallel=root,rave=0");
  EXPECT_EQ(mcts_spec(MctsConfig{}), "mcts");
  EXPECT_FALSE(parse_mcts_options("reuse=0").reuse_tree);
  EXPECT_TRUE(MctsConfig{}.reuse_tree);
  EXPECT_EQ(mcts_spec(parse_mcts_options("playouts=10,reuse=off")), "mcts:playouts=10,reuse=0");
  EXPECT_TRUE(playout_tactics(MctsConfig{}, test::make("grid 9x9").graph()));
  EXPECT_TRUE(playout_tactics(MctsConfig{}, test::make("grid 13x13").graph()));
  EXPECT_TRUE(playout_tactics(MctsConfig{}, test::make("grid 19x19").graph()));
  EXPECT_FALSE(playout_tactics(MctsConfig{}, test::make("grid 19x20").graph()));
  // In every playout move up to 169 points (13x13, hex 8), in the first 200 beyond.
  EXPECT_EQ(tactics_moves(MctsConfig{}, test::make("grid 13x13").graph()), 0u);
  EXPECT_EQ(tactics_moves(MctsConfig{}, test::make("hex 8").graph()), 0u);
  EXPECT_EQ(tactics_moves(MctsConfig{}, test::make("grid 13x14").graph()), 200u);
  EXPECT_EQ(tactics_moves(MctsConfig{}, test::make("grid 19x19").graph()), 200u);
  EXPECT_EQ(tactics_moves(parse_mcts_options("tmoves=0"), test::make("grid 19x19").graph()), 0u);
  EXPECT_EQ(tactics_moves(parse_mcts_options("tmoves=50"), test::make("grid 9x9").graph()), 50u);
  EXPECT_EQ(mcts_spec(parse_mcts_options("tmoves=50")), "mcts:tmoves=50");
  EXPECT_THROW(parse_mcts_options("tmoves=-1"), Error);
  EXPECT_TRUE(playout_tactics(MctsConfig{}, test::make("grid 5x5x5").graph()));
  EXPECT_TRUE(playout_tactics(parse_mcts_options("tactics=1"), test::make("grid 20x20").graph()));
  EXPECT_FALSE(playout_tactics(parse_mcts_options("tactics=off"), test::make("grid 9x9").graph()));
  EXPECT_EQ(mcts_spec(parse_mcts_options("tactics=0")), "mcts:tactics=0");
  EXPECT_THROW(parse_mcts_options("tactics=2"), Error);
  EXPECT_TRUE(MctsConfig{}.transpositions);
  EXPECT_FALSE(parse_mcts_options("trans=0").transpositions);
  EXPECT_EQ(mcts_spec(parse_mcts_options("playouts=10,trans=off")), "mcts:playouts=10,trans=0");
  EXPECT_EQ(mcts_spec(parse_mcts_options("trans=1")), "mcts");
  EXPECT_THROW(parse_mcts_options("trans=2"), Error);
  EXPECT_FALSE(MctsConfig{}.last_good_reply);
  EXPECT_TRUE(parse_mcts_options("reply=1").last_good_reply);
  EXPECT_EQ(mcts_spec(parse_mcts_options("playouts=10,reply=on")), "mcts:playouts=10,reply=1");
  EXPECT_THROW(parse_mcts_options("reply=2"), Error);
  // A key given twice would silently take its second value.
  try {
    parse_mcts_options("playouts=1,time=2,playouts=2");
    ADD_FAILURE() << "a key given twice was taken";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "mcts option \"playouts\" is given twice");
  }
  EXPECT_EQ(MctsConfig{}.move_model_priors, std::nullopt);
  EXPECT_EQ(parse_mcts_options("model=0").move_model_priors, false);
  EXPECT_EQ(parse_mcts_options("model=1").move_model_priors, true);
  EXPECT_EQ(mcts_spec(parse_mcts_options("playouts=10,model=off")), "mcts:playouts=10,model=0");
  EXPECT_THROW(parse_mcts_options("model=2"), Error);
  EXPECT_THROW(parse_mcts_options("reuse=maybe"), Error);
  EXPECT_THROW(parse_mcts_options("threads=0"), Error);
  EXPECT_THROW(parse_mcts_options("playouts=10,"), Error);
  EXPECT_THROW(parse_mcts_options("gametime=abc"), Error);
  EXPECT_EQ(MctsConfig{}.memory_mb, 0u);
  EXPECT_EQ(parse_mcts_options("memory=64").memory_mb, 64u);
  EXPECT_EQ(mcts_spec(parse_mcts_options("playouts=10,memory=64")), "mcts:playouts=10,memory=64");
  EXPECT_THROW(parse_mcts_options("memory=0"), Error);
  EXPECT_THROW(parse_mcts_options("memory=1.5"), Error);
}

TEST(Mcts, ExplorationIsChosenByTheBoardUnlessGiven) {
  const MctsConfig automatic;
  EXPECT_EQ(exploration_constant(automatic, test::make("grid 9x9").graph()), 0.0);
  EXPECT_EQ(exploration_constant(automatic, test::make("line 12").graph()), 0.0);
  EXPECT_EQ(exploration_constant(automatic, test::make("grid 10x10").graph()), 0.0);
  EXPECT_EQ(exploration_constant(automatic, test::make("grid 13x13").graph()), 0.2);
  EXPECT_EQ(exploration_constant(automatic, test::make("grid 5x5x5").graph()), 0.2);
  EXPECT_EQ(exploration_constant(automatic, test::make("hex 4").graph()), 0.2);
  EXPECT_EQ(exploration_constant(automatic, test::make("grid 19x19").graph()), 0.2);
  EXPECT_EQ(exploration_constant(parse_mcts_options("rave=0"), test::make("grid 9x9").graph()),
            0.2);
  EXPECT_EQ(exploration_constant(parse_mcts_options("explore=0.7"), test::make("grid 9x9").graph()),
            0.7);
  EXPECT_EQ(mcts_spec(parse_mcts_options("explore=0")), "mcts:explore=0");
  EXPECT_EQ(mcts_spec(automatic), "mcts");
}

TEST(Mcts, GameTimeBudgetIsSpreadOverTheGame) {
  // Two seconds for some 25 moves: enough for playouts on every move even under ASan on a
  // loaded machine (with 0.5 s, a move's share could pass in the one-ply priors and the solver).
  auto agent = make_agent("mcts:gametime=2", 1);
  auto random = make_agent("random", 2);
  Position pos = test::make("grid 7x7");
  std::vector<Agent*> seats = {agent.get(), random.get()};
  play_game(pos, seats);
  EXPECT_TRUE(pos.is_over());
  EXPECT_GT(agent->playouts_run(), 0u);
  EXPECT_LT(agent->seconds_spent(), 3.5);  // the budget plus scheduling slack
}
