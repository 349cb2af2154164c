// Checkpoints of the solver's table: a solve in stages through a file proves what one solve
// proves, into a table of any size, and damaged or foreign checkpoints are refused whole.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "../src/cli/solve_checkpoint.hpp"

#include "tanbo/ai/solver.hpp"
#include "tanbo/ai/solver_checkpoint.hpp"
#include "tanbo/core/error.hpp"
#include "test_support.hpp"

using namespace tanbo;
using tanbo::cli::save_checkpoint;
namespace fs = std::filesystem;

namespace {

SolverOptions sized(std::size_t mb, SolveMethod method = SolveMethod::kProofNumber) {
  SolverOptions o;
  o.method = method;
  o.table_bytes = mb << 20;
  o.all_moves = true;
  return o;
}

struct TempDir {
  fs::path path =
      fs::temp_directory_path() / ("tanbo-checkpoint-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}
void put_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

struct Staged {
  SolveResult last;
  int runs = 0;
  std::uint64_t nodes = 0;
};

// Solves pos in runs of at most `nodes` nodes, each a new solver (of mbs[i] MB, the sizes taking
// turns) that reads the checkpoint the run before wrote, until it is proven (200 runs at most).
Staged solve_in_stages(const Position& pos, std::uint64_t nodes, const std::string& file,
                       std::vector<std::size_t> mbs = {4},
                       SolveMethod method = SolveMethod::kProofNumber) {
  Staged s;
  CheckpointRun run;
  while (s.runs < 200) {
    Solver solver(sized(mbs[s.runs % mbs.size()], method));
    const std::string id = checkpoint_identity(pos, solver.options());
    if (s.runs++ > 0) run = load_checkpoint(file, solver, pos, id);
    run.identity = id;
    s.last = solver.solve(pos, SolveLimits{0, nodes, nullptr});
    s.nodes += s.last.nodes;
    run.nodes += s.last.nodes;
    run.runs += 1;
    save_checkpoint(file, solver, run);
    if (s.last.solved && s.last.moves_done == s.last.moves_total) break;  // (all moves asked)
  }
  return s;
}

void expect_same_answer(const SolveResult& a, const SolveResult& b, const std::string& what) {
  ASSERT_TRUE(a.solved && b.solved) << what;
  EXPECT_EQ(a.winner, b.winner) << what;
  EXPECT_EQ(a.winning_moves, b.winning_moves) << what;
}

}  // namespace

TEST(SolverCheckpoint, StagesProveWhatOneSolveProves) {
  const TempDir dir;
  struct Case {
    std::string spec, setup;
    std::uint64_t nodes;
    SolveMethod method;
  };
  for (const Case& c : {Case{"grid 5x5", "spaced", 40000, SolveMethod::kProofNumber},
                        Case{"hex 3", "hexbo", 5000, SolveMethod::kProofNumber},
                        Case{"line 24", "spaced", 10000, SolveMethod::kAlphaBeta}}) {
    const Position pos = test::make(c.spec, c.setup);
    const SolveResult once = Solver(sized(4, c.method)).solve(pos);
    const std::string file = dir.file("stages.ckpt");
    fs::remove(file);
    const Staged s = solve_in_stages(pos, c.nodes, file, {4}, c.method);
    expect_same_answer(once, s.last, c.spec);
    EXPECT_GE(s.runs, 2) << c.spec << ": the limit stopped no run";
    // The table carries the work: the runs together take about what one solve takes.
    EXPECT_LE(s.nodes, once.nodes * 3 / 2 + c.nodes) << c.spec << " in " << s.runs << " runs";
  }
}

TEST(SolverCheckpoint, TablesOfOtherSizesTakeTheCheckpoint) {
  const TempDir dir;
  const Position pos = test::make("grid 5x5", "spaced");
  const SolveResult once = Solver(sized(4)).solve(pos);
  // 16 MB, 1 MB and 4 MB in turns: each checkpoint goes into a table of another size.
  const Staged s = solve_in_stages(pos, 40000, dir.file("sizes.ckpt"), {16, 1, 4});
  expect_same_answer(once, s.last, "16, 1 and 4 MB");
}

TEST(SolverCheckpoint, ForeignCheckpointsAreRefusedAndLeftAlone) {
  const TempDir dir;
  const std::string file = dir.file("a.ckpt");
  const Position pos = test::make("grid 5x5", "spaced");
  Solver solver(sized(1));
  solver.solve(pos, SolveLimits{0, 20000, nullptr});
  CheckpointRun run;
  run.identity = checkpoint_identity(pos, solver.options());
  save_checkpoint(file, solver, run);
  const std::string before = bytes_of(file);
  auto refused = [&](const Position& p, const SolverOptions& o, const std::string& why) {
    Solver other(o);
    try {
      load_checkpoint(file, other, p, checkpoint_identity(p, o));
      ADD_FAILURE() << "not refused: " << why;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("the file was not changed"), std::string::npos);
    }
    EXPECT_EQ(bytes_of(file), before) << why;
  };
  refused(test::make("grid 4x4", "spaced"), sized(1), "board: grid 5x5; this solve has grid 4x4");
  refused(test::make("grid 5x5", "default"), sized(1), "setup: spaced");
  Position moved = pos;
  moved.play(moved.legal_moves(moved.to_move()).front());
  refused(moved, sized(1), "position: ");
  refused(pos, sized(1, SolveMethod::kAlphaBeta), "method: pn; this solve has ab");
  SolverOptions plain = sized(1);
  plain.symmetry = false;
  refused(pos, plain, "symmetry: on; this solve has off");
  // And the same file is read by the solve it belongs to.
  Solver same(sized(1));
  EXPECT_NO_THROW(load_checkpoint(file, same, pos, checkpoint_identity(pos, same.options())));
}

TEST(SolverCheckpoint, DamagedCheckpointsAreRefusedWithAnEmptyTable) {
  const TempDir dir;
  const std::string good = dir.file("good.ckpt"), bad = dir.file("bad.ckpt");
  const Position pos = test::make("grid 5x5", "spaced");
  Solver solver(sized(1));
  solver.solve(pos, SolveLimits{0, 20000, nullptr});
  CheckpointRun run;
  run.identity = checkpoint_identity(pos, solver.options());
  const CheckpointStats stats = save_checkpoint(good, solver, run);
  EXPECT_GT(stats.blocks, 0u);
  const std::string bytes = bytes_of(good);
  ASSERT_EQ(bytes.size(), stats.bytes);
  const std::size_t body = bytes.find("\n\n") + 2;
  struct Damage {
    std::string what, bytes, message;
  };
  std::string flipped = bytes;
  flipped[bytes.size() - 100] ^= 0x10;
  std::string header = bytes;
  header.replace(header.find("nodes: 0"), 8, "nodes: 1");
  std::string version = bytes;
  const std::size_t at = version.find("\nversion: ") + 10;
  version.replace(at, version.find('\n', at) - at, "9");
  for (const Damage& d : {Damage{"a bit flipped", flipped, "damaged"},
                          Damage{"the header changed", header, "checksum"},
                          Damage{"cut in half", bytes.substr(0, bytes.size() / 2), "truncated"},
                          Damage{"cut in the header", bytes.substr(0, body / 2), "header"},
                          Damage{"cut by a byte", bytes.substr(0, bytes.size() - 1), "truncated"},
                          Damage{"a byte more", bytes + "x", "after its checksum"},
                          Damage{"empty", "", "not a solver checkpoint"},
                          Damage{"a game file", "tanbo 1\n\n", "not a solver checkpoint"},
                          Damage{"a later version", version, "version 9"}}) {
    put_bytes(bad, d.bytes);
    Solver other(sized(1));
    try {
      load_checkpoint(bad, other, pos, run.identity);
      ADD_FAILURE() << d.what << ": not refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(d.message), std::string::npos)
          << d.what << ": " << e.what();
    }
    EXPECT_EQ(bytes_of(bad), d.bytes) << d.what;
    std::vector<std::uint64_t> words(other.table_words());
    other.read_table(0, words);
    EXPECT_TRUE(std::all_of(words.begin(), words.end(), [](std::uint64_t w) { return w == 0; }))
        << d.what << ": the table keeps what was read before the damage";
  }
}

TEST(SolverCheckpoint, WritesWhileTheSearchRuns) {
  // A checkpoint written from another thread during a solve with two threads is sound: the
  // next solve from it proves the same.
  const TempDir dir;
  const std::string file = dir.file("live.ckpt");
  const Position pos = test::make("grid 5x5", "spaced");
  SolverOptions o = sized(4);
  o.threads = 2;
  Solver solver(o);
  solver.prepare(pos);  // as the command does before its periodic writes start
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    CheckpointRun run;
    run.identity = checkpoint_identity(pos, solver.options());
    while (!stop) save_checkpoint(file, solver, run);
  });
  solver.solve(pos, SolveLimits{0, 200000, nullptr});
  stop = true;
  writer.join();
  Solver next(sized(4));
  load_checkpoint(file, next, pos, checkpoint_identity(pos, next.options()));
  expect_same_answer(Solver(sized(4)).solve(pos), next.solve(pos), "after live writes");
}
