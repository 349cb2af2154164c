// The solver as its callers meet it: the limits that stop a search (nodes, time, memory,
// threads, the call stack), its progress lines, what it refuses, and the engine protocol's
// commands that call it (tanbo-solve, tanbo-analyze). Its answers are checked against a brute
// force in test_solver.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include "../src/cli/gtp.hpp"

#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;

TEST(Solver, LimitsStopTheSearchWithoutAnAnswer) {
  const Position pos = test::make("grid 7x7");
  SolveLimits limits;
  limits.nodes = 5000;
  Solver solver(test::small_solver());
  const SolveResult r = solver.solve(pos, limits);
  EXPECT_FALSE(r.solved);
  EXPECT_EQ(r.winner, kEmpty);
  EXPECT_GE(r.nodes, 5000u);
  EXPECT_LT(r.nodes, 50000u);
  std::atomic<bool> stop{true};
  SolveLimits stopped;
  stopped.stop = &stop;
  EXPECT_FALSE(solver.solve(pos, stopped).solved);
}

// The progress reports of df-pn name the root moves being proven, each once, with their
// numbers; alpha-beta's name none. 7x7 from the 2026 start: nothing is proven in the time.
TEST(Solver, ProgressNamesTheRootMovesBeingProven) {
  const Position pos = test::make("grid 7x7");
  const std::vector<Vertex> legal = pos.legal_moves(pos.to_move());
  for (const SolveMethod method : {SolveMethod::kProofNumber, SolveMethod::kAlphaBeta}) {
    for (const int threads : {1, 2}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, method " +
                   (method == SolveMethod::kAlphaBeta ? "ab" : "pn"));
      std::mutex mutex;
      std::vector<SolveProgress> reports;
      SolverOptions o = test::small_solver(false, method);
      o.threads = threads;
      o.progress_every = 0.05;
      o.progress = [&](const SolveProgress& p) {
        std::lock_guard lock(mutex);
        reports.push_back(p);
      };
      SolveLimits limits;
      limits.seconds = 0.6;
      EXPECT_FALSE(Solver(o).solve(pos, limits).solved);
      ASSERT_GE(reports.size(), 4u);
      std::size_t named = 0;
      for (const SolveProgress& p : reports) {
        EXPECT_EQ(p.board, &pos.topology());
        EXPECT_LE(p.working.size(), static_cast<std::size_t>(solver_threads(threads)));
        std::set<Vertex> moves;
        for (const RootWork& w : p.working) {
          EXPECT_NE(std::find(legal.begin(), legal.end(), w.move), legal.end());
          EXPECT_TRUE(moves.insert(w.move).second) << "a move named twice";
          EXPECT_GT(w.to_win, 0u);
          EXPECT_GT(w.to_lose, 0u);
        }
        named += !p.working.empty();
      }
      if (method == SolveMethod::kAlphaBeta) {
        EXPECT_EQ(named, 0u);
      } else {
        EXPECT_GE(named, reports.size() / 2);
      }
    }
  }
}

// The numbers a progress report shows for a root move are those of the whole path the search
// is on, asked for shortly before each report: they move on while the search is deep below
// the move's position. 5x5 from the 2026 start, one thread: the proof of B1 stays below one
// child of its position for long stretches: numbers read only when the search came back to
// the position stood still in 18 of 32 reports 50,000 positions apart (none now).
TEST(Solver, ProgressNumbersMoveOnWhileTheSearchIsDeep) {
  const Position pos = test::make("grid 5x5", "steere2026");
  std::mutex mutex;
  std::vector<SolveProgress> reports;
  SolverOptions o = test::small_solver();
  o.progress_every = 0.05;
  o.progress = [&](const SolveProgress& p) {
    std::lock_guard lock(mutex);
    reports.push_back(p);
  };
  SolveLimits limits;
  limits.nodes = TANBO_ASAN ? 1'000'000 : 2'500'000;  // (the sanitizer's run: 47 s for 2.5M)
  Solver(o).solve(pos, limits);
  // Each report against the last one compared (of the same move) at least 50,000 positions
  // before it, whatever the machine's speed.
  std::size_t compared = 0, unchanged = 0;
  std::optional<SolveProgress> last;
  for (const SolveProgress& p : reports) {
    if (p.working.size() != 1) continue;
    if (!last || last->working[0].move != p.working[0].move) {
      last = p;
      continue;
    }
    if (p.nodes < last->nodes + 50'000) continue;
    ++compared;
    unchanged += p.working[0].to_win == last->working[0].to_win &&
                 p.working[0].to_lose == last->working[0].to_lose;
    last = p;
  }
  ASSERT_GE(compared, 10u);
  EXPECT_LE(unchanged * 5, compared) << unchanged << " of " << compared << " reports unchanged";
}

TEST(Solver, RefusesWhatItCannotSolve) {
  Solver solver(test::small_solver());
  EXPECT_THROW(solver.solve(test::make("hex 5", "default", 3)), Error);
  Position pos = test::make("line 5");
  while (!pos.is_over()) pos.play(pos.legal_move(pos.to_move(), 0));
  EXPECT_THROW(solver.solve(pos), Error);
}

// A DOT path of n points with Black at one end and White at the other: a game of n - 2 plies
// (each side has one move a turn), which Black wins.
Position long_path(std::uint32_t n) {
  std::string text = "graph p { n0 [stone=black]; n" + std::to_string(n - 1) + " [stone=white];\n";
  for (std::uint32_t i = 0; i + 1 < n; ++i)
    text += "n" + std::to_string(i) + " -- n" + std::to_string(i + 1) + "\n";
  const TopologyPtr t = make_from_dot(text + "}\n", "test");
  return Position(t, make_setup(*t));
}

TEST(Solver, GamesAsLongAsTheBoardDoNotOverflowTheStack) {
  // A path of 100,000 points: both searches go 99,998 plies deep (50,000 crashed on the call
  // stack when they recursed), here on a thread of its own as a Python thread would.
  const Position pos = long_path(100000);
  for (SolveMethod method : {SolveMethod::kProofNumber, SolveMethod::kAlphaBeta}) {
    SolverOptions options = test::small_solver();
    options.method = method;
    SolveResult r;
    std::thread([&] { r = Solver(options).solve(pos); }).join();
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.winner, kBlack);
    EXPECT_EQ(r.plies, 99998u);
    EXPECT_EQ(pos.topology().name(r.best), "n1");
  }
}

TEST(Solver, TimeLimitCountsSetupOnHugeBoards) {
  // 500x500: the move generation, ordering and table of a node of a quarter of a million moves
  // all look at the clock (a tenth of a second took 7 s); generous bounds that a search
  // ignoring the clock breaks.
  const Position pos = test::make("grid 500x500");
  for (int threads : {1, 4}) {
    SolverOptions options;
    options.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    const SolveResult r = Solver(options).solve(pos, SolveLimits{0.1, 0, nullptr});
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_FALSE(r.solved);
    EXPECT_LT(secs, 2.0) << threads << " threads";
  }
}

TEST(Solver, ThreadsAreCappedToTheCores) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(solver_threads(1), 1);
  EXPECT_EQ(solver_threads(0), 1);
  EXPECT_EQ(solver_threads(1000), cores);
}

TEST(Solver, TableMustFitTheMemoryLimit) {
  EXPECT_EQ(solver_table_bytes(std::size_t{2000} << 20), std::size_t{1} << 30);
  set_max_memory(std::uint64_t{512} << 20);
  SolverOptions big;
  big.table_bytes = std::size_t{2000} << 20;
  try {
    Solver solver(big);
    ADD_FAILURE() << "a table of 1 GB was made under a limit of 512 MB";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("the solver's table of 1 GB"), std::string::npos) << m;
    EXPECT_NE(m.find("the limit of 512 MB (--max-memory)"), std::string::npos) << m;
  }
  SolverOptions fits;
  fits.table_bytes = std::size_t{256} << 20;
  EXPECT_NO_THROW(check_solver_memory(fits));
  set_max_memory(0);
}

// ---- the engine protocol

namespace {

// The reply's lines without "= " and the blank line, or "?" and the message.
std::string reply(cli::GtpEngine& engine, const std::string& command) {
  std::string r = engine.handle_line(command);
  while (!r.empty() && r.back() == '\n') r.pop_back();
  return r;
}

}  // namespace

TEST(GtpSolve, AnswersTheWinnerAndABestMove) {
  cli::GtpEngine engine(test::make("grid 4x4"));
  Solver solver(test::small_solver(true));
  for (int ply = 0; ply < 6; ++ply) {
    const Position& pos = engine.position();
    const SolveResult truth = solver.solve(pos);
    const std::string r = reply(engine, "tanbo-solve");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(r, m, std::regex("= (black|white) (\\S+)"))) << r;
    EXPECT_EQ(m[1].str(), std::string(player_name(truth.winner)));
    const Vertex best = pos.topology().need_vertex(m[2].str());
    EXPECT_EQ(pos.check_move(pos.to_move(), best), MoveStatus::kLegal);
    if (truth.winner == pos.to_move()) {
      EXPECT_TRUE(std::find(truth.winning_moves.begin(), truth.winning_moves.end(), best) !=
                  truth.winning_moves.end());
    }
    ASSERT_EQ(reply(engine, "genmove " + std::string(player_name(pos.to_move())))[0], '=');
    if (engine.position().is_over()) break;
  }
}

TEST(GtpSolve, TimeLimitAndRefusals) {
  cli::GtpEngine engine(test::make("grid 9x9"));
  const std::string r = reply(engine, "tanbo-solve 0.2");
  EXPECT_TRUE(r.rfind("= unknown after ", 0) == 0) << r;
  EXPECT_NE(r.find("nodes"), std::string::npos) << r;
  EXPECT_EQ(reply(engine, "tanbo-solve abc")[0], '?');
  EXPECT_EQ(reply(engine, "tanbo-solve 1 2")[0], '?');
  cli::GtpEngine three(test::make("hex 5", "default", 3));
  const std::string refused = reply(three, "tanbo-solve");
  EXPECT_EQ(refused, "? tanbo-solve solves two-player games only; this game has 3 players");
}

TEST(GtpAnalyze, OneLinePerCandidateInTheDocumentedForm) {
  cli::GtpEngine engine(test::make("grid 5x5"));
  const std::string r = reply(engine, "tanbo-analyze 200");
  ASSERT_EQ(r.rfind("= ", 0), 0u) << r;
  std::istringstream lines(r.substr(2));
  const std::regex form("move \\S+ visits \\d+ winrate [01]\\.\\d+( proven)? pv( \\S+)+");
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_TRUE(std::regex_match(line, form)) << line;
  }
  EXPECT_GE(count, 2);
  EXPECT_EQ(reply(engine, "tanbo-analyze")[0], '?');
  EXPECT_EQ(reply(engine, "tanbo-analyze 0")[0], '?');
  EXPECT_EQ(reply(engine, "tanbo-analyze x")[0], '?');
}
