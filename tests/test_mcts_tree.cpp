// Monte Carlo tree search: the tree kept from one search to the next, transpositions, and the
// exact solver inside the tree (the MCTS-solver).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "../src/ai/reply_table.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/move_model.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/study/games.hpp"
#include "test_support.hpp"

using namespace tanbo;

// Tree reuse: a search keeps the part of the last tree below the moves played since. Every
// playout passes through the root, so searching the same position again keeps exactly the
// last search's playouts; one move later it keeps the visits of that move, which is the
// move chosen (the most visited) when the engine plays both sides.
TEST(Mcts, ReusesTheSubtreeOfTheMovesPlayed) {
  // Without transpositions the visits kept are exactly the chosen move's; with them (the last
  // options), a block of children may also hold the visits of other lines into its position.
  for (const std::string opts : {"playouts=400,trans=0", "playouts=400,threads=2,trans=0",
                                 "playouts=400,threads=2,parallel=root,trans=0", "playouts=400"}) {
    const bool exact = opts.find("trans=0") != std::string::npos;
    Mcts m(parse_mcts_options(opts), 11);
    Position pos = test::make("grid 9x9");
    m.search(pos);
    EXPECT_EQ(m.last_stats().reused_visits, 0u) << opts;
    m.search(pos);
    EXPECT_EQ(m.last_stats().reused_visits, 400u) << opts << ": the same position";
    EXPECT_EQ(m.last_stats().playouts, 400u) << opts << ": the limit counts new playouts";
    for (int move = 0; move < 12 && !pos.is_over(); ++move) {
      const Vertex v = m.search(pos);
      ASSERT_EQ(pos.check_move(pos.to_move(), v), MoveStatus::kLegal) << opts;
      const std::uint32_t chosen = m.last_stats().best_visits;
      pos.play(v);
      if (pos.is_over() || pos.legal_count(pos.to_move()) == 1) break;
      m.search(pos);
      // Reused only where the chosen move's node had been expanded (2 visits or more): in the
      // one tree, or in each of the root-parallel trees where it was.
      if (opts.find("root") == std::string::npos) {
        if (chosen >= 2 && exact) {
          EXPECT_EQ(m.last_stats().reused_visits, chosen) << opts << " move " << move;
        } else if (chosen >= 2) {
          EXPECT_GE(m.last_stats().reused_visits, chosen) << opts << " move " << move;
        }
      } else {
        EXPECT_LE(m.last_stats().reused_visits, chosen) << opts << " move " << move;
        if (chosen >= 4) {
          EXPECT_GT(m.last_stats().reused_visits, 0u) << opts << " move " << move;
        }
      }
      EXPECT_EQ(m.last_stats().playouts, 400u) << opts;
    }
  }
}

// Positions that do not follow the last search's position start a new tree: an undone move,
// another start (setup, board, first player), a resignation in between, a new game.
TEST(Mcts, StartsANewTreeWhenThePositionDoesNotFollow) {
  auto searched_twice = [](Mcts& m, const Position& first, const Position& second) {
    m.search(first);
    m.search(second);
    return m.last_stats().reused_visits;
  };
  const auto opts = parse_mcts_options("playouts=200");
  Mcts m(opts, 5);
  Position pos = test::make("grid 9x9");
  Rng rng(3);
  for (int i = 0; i < 6; ++i) pos.play(random_move(pos, rng));
  Position back = pos;
  back.undo();
  EXPECT_EQ(searched_twice(m, pos, back), 0u) << "a move undone";
  Position next = back;  // the control: a move played (the chosen one: its node is expanded)
  next.play(m.search(back));
  m.search(next);
  EXPECT_GT(m.last_stats().reused_visits, 0u) << "a move played";

  const Position dense = test::make("grid 9x9", "dense");
  EXPECT_EQ(searched_twice(m, test::make("grid 9x9"), dense), 0u) << "another setup";
  EXPECT_EQ(searched_twice(m, test::make("grid 9x9"), test::make("grid 9x9")), 0u)
      << "another board object, the same spec";
  const Position start = test::make("grid 9x9");
  std::vector<std::pair<Vertex, Player>> stones = start.setup().stones;
  const Position white_first = Position::from_stones(start.topology_ptr(), 2, stones, kWhite);
  const Position black_first = Position::from_stones(start.topology_ptr(), 2, stones, kBlack);
  EXPECT_GT(searched_twice(m, black_first, black_first), 0u);  // the control
  EXPECT_EQ(searched_twice(m, black_first, white_first), 0u) << "another first player";

  Position three = test::make("grid 9x9", "dense", 3);
  ASSERT_EQ(three.num_players(), 3);
  m.search(three);
  Position resigned = three;
  resigned.resign(kWhite);  // not the side to move: Black still moves
  m.search(resigned);
  EXPECT_EQ(m.last_stats().reused_visits, 0u) << "a resignation";

  m.search(pos);
  m.forget();
  m.search(pos);
  EXPECT_EQ(m.last_stats().reused_visits, 0u) << "forget()";

  Mcts off(parse_mcts_options("playouts=200,reuse=0"), 5);
  EXPECT_EQ(searched_twice(off, pos, pos), 0u) << "reuse=0";
}

// Whole games with reuse stay legal, and reproducible with one thread (the same seed, the same
// game; with several threads the playouts each gets vary). A chosen move never has more visits
// than the new playouts plus those kept.
TEST(Mcts, GamesWithReuseAreLegalAndReproducible) {
  for (const std::string board : {"grid 7x7", "hex 3", "grid 3x3x3"}) {
    std::vector<Vertex> games[3];
    // The exact solver (100,000 positions a move) only where it is cheap: hex 3.
    const std::string solver = board == "hex 3" ? "" : ",solver=0";
    for (int run = 0; run < 3; ++run) {
      Mcts a(parse_mcts_options((run < 2 ? "playouts=120" : "playouts=120,threads=2") + solver),
             42);
      Mcts b(
          parse_mcts_options(
              (run < 2 ? "playouts=120,prior=0" : "playouts=120,threads=2,parallel=root") + solver),
          43);
      Position pos = test::make(board);
      while (!pos.is_over()) {
        Mcts& m = pos.to_move() == kBlack ? a : b;
        const Vertex v = m.search(pos);
        ASSERT_EQ(pos.check_move(pos.to_move(), v), MoveStatus::kLegal) << board;
        if (m.last_stats().playouts > 0) {
          EXPECT_LE(m.last_stats().best_visits,
                    m.last_stats().playouts + m.last_stats().reused_visits);
        }
        games[run].push_back(v);
        pos.play(v);
      }
      ASSERT_EQ(pos.check_consistency(), "");
    }
    EXPECT_EQ(games[0], games[1]) << board;
  }
}

// ---- the exact solver and the MCTS-solver

namespace {

// Late positions of random games on `board` (after `plies` moves) with the solver's verdict.
struct Solved {
  Position pos;
  SolveResult truth;
};
std::vector<Solved> solved_positions(const std::string& board, int plies, int count,
                                     std::uint64_t seed) {
  std::vector<Solved> out;
  Rng rng(seed);
  SolverOptions options;
  options.table_bytes = std::size_t{8} << 20;
  options.all_moves = true;
  Solver solver(options);
  for (int g = 0; g < count * 3 && static_cast<int>(out.size()) < count; ++g) {
    Position pos = test::make(board);
    for (int i = 0; i < plies && !pos.is_over(); ++i) pos.play(random_move(pos, rng));
    if (pos.is_over() || pos.legal_count(pos.to_move()) < 2) continue;
    SolveLimits limits;
    limits.nodes = 2000000;
    const SolveResult r = solver.solve(pos, limits);
    if (r.solved) out.push_back({pos, r});
  }
  return out;
}

bool is_winning(const SolveResult& truth, Vertex v) {
  return std::find(truth.winning_moves.begin(), truth.winning_moves.end(), v) !=
         truth.winning_moves.end();
}

}  // namespace

TEST(MctsSolver, PlaysAWinningMoveInWonPositions) {
  int won = 0, right = 0;
  for (const auto& [board, plies] :
       std::vector<std::pair<std::string, int>>{{"grid 5x5", 14}, {"grid 4x4", 6}, {"hex 3", 10}}) {
    for (const Solved& s : solved_positions(board, plies, 8, 31)) {
      if (s.truth.winner != s.pos.to_move()) continue;
      Mcts m(parse_mcts_options("playouts=300"), 5);
      const Vertex v = m.search(s.pos);
      ++won;
      right += is_winning(s.truth, v);
      EXPECT_TRUE(is_winning(s.truth, v)) << board << " " << s.pos.topology().name(v);
    }
  }
  EXPECT_GE(won, 8);
  EXPECT_EQ(right, won);
}

TEST(MctsSolver, ProofsBackedUpInTheTreeAreRight) {
  // Without the exact solver, the tree's own proofs (game ends backed up) must agree with it.
  int proven = 0;
  for (const Solved& s : solved_positions("grid 4x4", 8, 12, 77)) {
    Mcts m(parse_mcts_options("playouts=3000,solver=0"), 9);
    const Vertex v = m.search(s.pos);
    const int p = m.last_stats().proven;
    if (p > 0) EXPECT_TRUE(is_winning(s.truth, v));
    if (p < 0) EXPECT_NE(s.truth.winner, s.pos.to_move());
    if (s.truth.winner == s.pos.to_move() && p >= 0) {
      // A move proven to lose is never chosen over an unproven one.
      EXPECT_EQ(s.pos.check_move(s.pos.to_move(), v), MoveStatus::kLegal);
    }
    proven += p != 0;
  }
  EXPECT_GE(proven, 3);
}

TEST(MctsSolver, AnalyzeListsCandidatesBestFirst) {
  const Position pos = test::make("grid 7x7");
  Mcts m(parse_mcts_options("playouts=400,reuse=0"), 3);
  const std::vector<MoveAnalysis> lines = m.analyze(pos);
  ASSERT_FALSE(lines.empty());
  Mcts same(parse_mcts_options("playouts=400,reuse=0"), 3);
  EXPECT_EQ(lines.front().move, same.search(pos));
  std::uint64_t visits = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const MoveAnalysis& a = lines[i];
    EXPECT_EQ(pos.check_move(kBlack, a.move), MoveStatus::kLegal);
    EXPECT_GE(a.winrate, 0.0);
    EXPECT_LE(a.winrate, 1.0);
    ASSERT_FALSE(a.pv.empty());
    EXPECT_EQ(a.pv.front(), a.move);
    if (i > 0 && !a.proven && !lines[i - 1].proven) EXPECT_LE(a.visits, lines[i - 1].visits);
    visits += a.visits;
  }
  EXPECT_LE(visits, 400u);
  // A proven win is listed first with win rate 1 and marked (after one move the solver proves
  // it before the search, after six the search finds it too).
  std::vector<Solved> positions = solved_positions("grid 4x4", 1, 4, 12);
  for (Solved& s : solved_positions("grid 4x4", 6, 6, 12)) positions.push_back(std::move(s));
  for (const Solved& s : positions) {
    if (s.truth.winner != s.pos.to_move()) continue;
    Mcts a(parse_mcts_options("playouts=100"), 1);
    const auto proven = a.analyze(s.pos);
    ASSERT_FALSE(proven.empty());
    EXPECT_EQ(proven.front().proven, 1);
    EXPECT_EQ(proven.front().winrate, 1.0);
    EXPECT_TRUE(is_winning(s.truth, proven.front().move));
    // Its principal variation is a line of perfect play, checked with a solver of its own: legal
    // moves in turn, after each of which the winner is still the side that won at the start,
    // twelve moves long unless the game ends first.
    const std::vector<Vertex>& pv = proven.front().pv;
    Position line(s.pos);
    Solver check;
    for (const Vertex v : pv) {
      ASSERT_FALSE(line.is_over());
      ASSERT_EQ(line.check_move(line.to_move(), v), MoveStatus::kLegal);
      line.play(v);
      if (line.is_over()) {
        EXPECT_EQ(line.winner(), s.truth.winner);
        break;
      }
      EXPECT_EQ(check.solve(line).winner, s.truth.winner);
    }
    EXPECT_TRUE(pv.size() == 12 || line.is_over()) << pv.size();
  }
}

TEST(MctsSolver, SolverOptionParsesAndPrints) {
  EXPECT_EQ(parse_mcts_options("solver=0").solver_nodes, 0u);
  EXPECT_EQ(mcts_spec(parse_mcts_options("solver=5000")), "mcts:solver=5000");
  EXPECT_THROW(parse_mcts_options("solver=-1"), Error);
}

// With transpositions, positions reached by different lines share one block of children: on
// 6x6, a search of a few thousand playouts meets positions again by other lines; without them,
// none is shared. Whole games with the tree kept between moves (a shared block is copied once
// when the tree moves to its new root, and the table renumbered) stay legal and reproducible,
// and the principal variations, which run through shared blocks, are legal lines.
TEST(Mcts, TranspositionsShareTheChildrenOfOnePosition) {
  const Position start = test::make("grid 6x6");
  SearchStats stats[2];
  for (int t = 0; t < 2; ++t) {
    Mcts m(parse_mcts_options(std::string("playouts=3000,solver=0,trans=") + (t ? "1" : "0")), 5);
    m.search(start);
    stats[t] = m.last_stats();
  }
  EXPECT_EQ(stats[0].transpositions, 0u);
  EXPECT_GT(stats[1].transpositions, 20u);

  std::vector<Vertex> games[2];
  std::uint64_t shared = 0;
  for (int run = 0; run < 2; ++run) {
    Mcts a(parse_mcts_options("playouts=1500,solver=0,trans=1"), 42);
    Mcts b(parse_mcts_options("playouts=1500,solver=0,trans=1"), 43);
    Position pos = start;
    while (!pos.is_over()) {
      Mcts& m = pos.to_move() == kBlack ? a : b;
      const std::vector<MoveAnalysis> lines = m.analyze(pos);
      ASSERT_FALSE(lines.empty());
      shared += m.last_stats().transpositions;
      for (const MoveAnalysis& line : lines) {
        Position after = pos;
        for (const Vertex v : line.pv) {
          ASSERT_FALSE(after.is_over());
          ASSERT_EQ(after.check_move(after.to_move(), v), MoveStatus::kLegal);
          after.play(v);
        }
      }
      const Vertex v = pos.to_move() == kBlack ? a.search(pos) : lines.front().move;
      ASSERT_EQ(pos.check_move(pos.to_move(), v), MoveStatus::kLegal);
      games[run].push_back(v);
      pos.play(v);
    }
    ASSERT_EQ(pos.check_consistency(), "");
  }
  EXPECT_EQ(games[0], games[1]);
  EXPECT_GT(shared, 0u);
}
