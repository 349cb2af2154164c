// tanbo solve: perfect play for two players (docs/cli.md, docs/solved.md).
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "solve_checkpoint.hpp"
#include "solve_split.hpp"
#include "tanbo/ai/proof_writer.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/gzip_text.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::cli {

namespace {

struct SolveArgs {
  BoardOptions board;
  std::string game;  // a game file ("" = the start of --topology/--setup)
  double seconds = 0;
  std::uint64_t nodes = 0;  // --nodes (0 = no limit)
  int threads = 1;
  std::size_t table_mb = 256;
  bool first = false;
  bool no_symmetry = false;
  double progress = 5;
  std::string method = "pn";
  std::string proof;  // where to write the certificate ("" = none)
  int split = 0;      // --split DEPTH
  std::string out;    // --out DIR
  std::size_t unit = 0;
  std::string merge;  // --merge DIR
  CheckpointArgs checkpoint;
};

std::string rate(std::uint64_t nodes, double seconds) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << nodes / std::max(seconds, 1e-9) / 1e6 << " M/s";
  return os.str();
}

void print_result(const Position& pos, const SolveResult& r, const SolveArgs& a,
                  std::ostream& out) {
  const Topology& t = pos.topology();
  const Player me = pos.to_move();
  out << "board: " << t.spec << " (setup " << pos.setup().name << "), " << player_title(me)
      << " to move, " << r.moves_total << " legal moves, " << r.symmetries << " symmetries\n";
  if (!r.solved) {
    out << "winner: unknown (stopped after " << std::fixed << std::setprecision(1) << r.seconds
        << " s: " << r.moves_done << " of " << r.moves_total << " moves proven losing)\n";
  } else {
    out << "winner: " << player_name(r.winner) << "\n";
    if (r.winner == me) {
      const bool complete = r.moves_done == r.moves_total;
      out << "winning moves: " << point_names(t, r.winning_moves);
      if (!complete) {
        out << (a.first ? " (the first found; --first stops there)"
                        : " (found before the time ran out; others unknown)");
      } else {
        out << " (" << r.winning_moves.size() << " of " << r.moves_total << ")";
      }
      out << "\n";
      out << "best: " << t.name(r.best) << " (wins in " << r.plies << " plies)\n";
    } else {
      out << "winning moves: none (" << player_title(me) << " loses)\n";
      out << "best: " << t.name(r.best) << " (resists longest: " << r.plies << " plies)\n";
    }
  }
  out << "nodes: " << r.nodes << " (" << rate(r.nodes, r.seconds) << ")\n";
  // Flushed: a certificate or checkpoint written next may take minutes.
  out << "time: " << std::fixed << std::setprecision(2) << r.seconds << " s\n" << std::flush;
}

// The certificate of the result, written atomically as it is found: the winning moves come from
// `solver`'s table as the solve (and a checkpoint's earlier runs) left it, searched further where
// it has no answer. SIGINT or SIGTERM stops it with nothing written: the signal, else 0.
int write_certificate(Solver& solver, const Position& pos, Player winner, const std::string& path,
                      double progress_every, std::ostream& out, std::ostream& err) {
  const auto progress = [&err](const ProofStats& s) {
    err << "proof: " << std::fixed << std::setprecision(0) << s.seconds << " s, " << s.lines
        << " positions listed, " << s.positions << " in all\n"
        << std::flush;
  };
  ProofStats stats;
  const int signal = run_until_signal([&](const std::atomic<bool>& stop) {
    SolveLimits limits;
    limits.stop = &stop;
    write_text_file_atomic(path, [&](const FileSink& sink) {
      stats = write_proof(solver, pos, winner, limits, sink, progress, progress_every);
    });
  });
  if (signal) {
    out << "proof: not written (stopped by " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << ")\n";
    return signal;
  }
  out << "proof: " << path << " (" << stats.lines << " positions with " << player_name(winner)
      << " to move, " << stats.positions << " in all, " << std::fixed << std::setprecision(2)
      << stats.seconds << " s)\n";
  return 0;
}

// The solver's options from the command line, its checks included.
SolverOptions solver_options(const SolveArgs& a, std::ostream& err) {
  if (a.method != "pn" && a.method != "ab") throw Error("--method must be pn or ab");
  try {  // the table against the memory limit (after the board's own check), before it is made
    SolverOptions table;
    table.table_bytes = a.table_mb << 20;
    check_solver_memory(table);
  } catch (const Error& e) {
    throw Error("--table " + std::to_string(a.table_mb) + ": " + e.what());
  }
  SolverOptions options;
  options.method = a.method == "pn" ? SolveMethod::kProofNumber : SolveMethod::kAlphaBeta;
  options.threads = solver_threads(a.threads);
  if (options.threads < a.threads) {
    err << "tanbo solve: --threads " << a.threads << " capped to " << options.threads
        << ", the number of cores of this machine\n";
  }
  options.table_bytes = a.table_mb << 20;
  options.symmetry = !a.no_symmetry;
  options.all_moves = !a.first;
  options.progress_every = a.progress;
  options.progress = [&err](const SolveProgress& p) {
    err << "solve: " << std::fixed << std::setprecision(0) << p.seconds << " s, " << p.nodes
        << " nodes (" << rate(p.nodes, p.seconds) << "), " << p.moves_done << " of "
        << p.moves_total << " moves proven";
    for (std::size_t i = 0; i < p.working.size(); ++i) {
      const RootWork& w = p.working[i];
      err << (i == 0 ? "; proving " : ", ") << p.board->name(w.move) << " (win " << w.to_win
          << ", loss " << w.to_lose << ")";
    }
    err << "\n" << std::flush;
  };
  return options;
}

void check_ranges(const SolveArgs& a) {
  if (!(a.seconds >= 0 && a.seconds <= 1e7)) throw Error("--time must be 0 to 10^7 seconds");
  if (a.nodes > 1'000'000'000'000'000) throw Error("--nodes must be 0 to 10^15");
  if (a.threads < 1 || a.threads > 256) throw Error("--threads must be 1 to 256");
  if (a.table_mb < 1 || a.table_mb > (std::size_t{1} << 20))
    throw Error("--table must be 1 to 1048576 MB");
  check_progress_seconds(a.progress);
}

// Refuses a --proof FILE that cannot be written or would replace what the solve reads or
// writes: its game file, its DOT board, its checkpoint (also one not written yet). A merge's own
// files are checked by the merge.
void check_proof_target(const SolveArgs& a) {
  check_writable(a.proof);
  std::vector<std::string> inputs = {a.game, a.checkpoint.path};
  if (is_file_spec(a.board.topology)) inputs.push_back(trim(a.board.topology.substr(4)));
  check_not_an_input(a.proof, inputs, "--proof");
  if (a.checkpoint.path.empty()) return;
  namespace fs = std::filesystem;
  std::error_code e1, e2;
  const fs::path proof = fs::weakly_canonical(fs::absolute(a.proof, e1), e1);
  const fs::path checkpoint = fs::weakly_canonical(fs::absolute(a.checkpoint.path, e2), e2);
  if (!e1 && !e2 && proof == checkpoint) {
    throw Error("--proof and --checkpoint name one file: give the certificate another name");
  }
}

// Which of the four jobs the options ask for: a solve, a split, a unit or a merge.
enum class Job { kSolve, kSplit, kUnit, kMerge };

Job job_of(const SolveArgs& a, const po::variables_map& vm) {
  auto given = [&](const char* name) { return vm.count(name) && !vm[name].defaulted(); };
  const bool board = !a.game.empty() || given("topology") || given("setup") || given("players");
  if (!a.game.empty() && (given("topology") || given("setup") || given("players")))
    throw Error("give a game file or --topology/--setup/--players, not both");
  if (given("checkpoint") && (given("split") || given("merge")))
    throw Error("--checkpoint is for a solve of one position or unit, not --split or --merge");
  if (given("merge")) {
    if (board || given("split") || given("unit") || given("out"))
      throw Error("--merge DIR takes no board, --split, --unit or --out");
    return Job::kMerge;
  }
  if (given("unit")) {
    if (board || given("split") || !given("out"))
      throw Error("--unit N needs --out DIR (the split) and no board or --split");
    return Job::kUnit;
  }
  if (given("split") != given("out")) throw Error("--split DEPTH and --out DIR go together");
  if (given("split") && given("proof"))
    throw Error("--split writes units; their certificates come with --unit and --merge");
  return given("split") ? Job::kSplit : Job::kSolve;
}

Game root_of(const SolveArgs& a) {
  Game game = a.game.empty() ? Game(make_position(a.board)) : load_game(a.game);
  const Position& pos = game.position;
  if (pos.num_players() != 2) {
    throw Error("solving needs two players; this game has " + std::to_string(pos.num_players()));
  }
  if (pos.is_over()) throw Error("the game is over: " + player_title(pos.winner()) + " has won");
  return game;
}

// Solves the position (with the checkpoint when asked), prints the result and writes the
// certificate. The exit status: 0, or 128 + the signal that stopped the search.
int solve_position(const Position& pos, const SolveArgs& a, const SolveLimits& limits,
                   std::ostream& out, std::ostream& err) {
  if (!a.proof.empty()) proof::check_names(pos.topology());  // before the search, not after
  Solver solver(solver_options(a, err));
  StagedSolve staged;
  if (a.checkpoint.path.empty()) {
    staged = solve_until_signal(solver, pos, limits);  // Ctrl-C prints what is known
  } else {
    staged = solve_in_stages(solver, pos, limits, a.checkpoint, err);
  }
  const SolveResult& r = staged.result;
  print_result(pos, r, a, out);
  if (!a.checkpoint.path.empty()) {
    // Finished: the winner known, and every root move too unless --first or the loser moves.
    const bool finished =
        r.solved && (a.first || r.winner != pos.to_move() || r.moves_done == r.moves_total);
    out << "total: " << staged.run.nodes << " nodes, " << std::fixed << std::setprecision(2)
        << staged.run.seconds << " s in " << staged.run.runs << " runs (checkpoint "
        << a.checkpoint.path
        << "): " << (finished ? "finished" : "unfinished, run again with --resume to carry on")
        << "\n";
  }
  if (!staged.write_error.empty()) throw Error(staged.write_error);
  if (staged.signal) return 128 + staged.signal;  // (stopped by Ctrl-C or a kill)
  if (!a.proof.empty()) {
    if (!r.solved) throw Error("no proof written: the position was not solved");
    const int signal = write_certificate(solver, pos, r.winner, a.proof, a.progress, out, err);
    if (signal) return 128 + signal;
  }
  return 0;
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
  const auto started = std::chrono::steady_clock::now();  // --time counts from here
  SolveArgs a;
  a.board.topology = "grid 4x4";
  po::options_description desc("tanbo solve options");
  add_board_options(desc, a.board, false);
  desc.add_options()("game", po::value(&a.game), "a game file: solve its current position")(
      "time", po::value(&a.seconds), "give up after S seconds, setup included (default: no limit)")(
      "nodes", po::value(&a.nodes), "give up after N nodes (default: no limit)")(
      "threads", po::value(&a.threads)->default_value(1),
      "search threads (at most the number of cores: more are capped, with a note)")(
      "table", po::value(&a.table_mb)->default_value(a.table_mb),
      "transposition table size in MB (rounded down to a power of two; must fit in the memory "
      "limit, see --max-memory)")("first", po::bool_switch(&a.first),
                                  "stop at the first winning move found")(
      "no-symmetry", po::bool_switch(&a.no_symmetry), "do not use the board's symmetries")(
      "method", po::value(&a.method)->default_value(a.method),
      "pn (proof-number search) or ab (alpha-beta)")(
      "progress", po::value(&a.progress)->default_value(a.progress),
      "seconds between progress lines on stderr (0 = none); with df-pn they "
      "name the first moves being proven and their proof numbers")(
      "proof", po::value(&a.proof),
      "write a certificate of the result to FILE (tanbo check-proof FILE checks it)")(
      "split", po::value(&a.split),
      "write the positions DEPTH plies ahead as work units into --out DIR")(
      "out", po::value(&a.out), "the folder of a split solve")("unit", po::value(&a.unit),
                                                               "solve work unit N of --out DIR")(
      "merge", po::value(&a.merge), "combine the solved units of DIR into the root's value");
  add_checkpoint_options(desc, a.checkpoint);
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  if (const auto stop =
          parse_args(args, desc, &positional, vm,
                     "usage: tanbo solve [GAME] [--topology SPEC --setup NAME] [--time S] "
                     "[--threads T] [--proof FILE]\n"
                     "       tanbo solve [GAME | --topology SPEC ...] --checkpoint FILE --resume "
                     "[--time S]\n"
                     "       tanbo solve [GAME | --topology SPEC ...] --split DEPTH --out DIR\n"
                     "       tanbo solve --out DIR --unit N [--proof DIR/results/unit-N.proof]\n"
                     "       tanbo solve --merge DIR [--proof FILE]\n"
                     "Finds who wins with perfect play from a game file's current position or\n"
                     "from the start of a board (default grid 4x4), two players only, and prints\n"
                     "the winner, every winning move of the side to move, a best move, the nodes\n"
                     "searched and the time. Long searches print a progress line on stderr.\n"
                     "--checkpoint and --resume run a long solve in stages (each run carries on\n"
                     "where the last stopped; a job script may always pass --resume).\n"
                     "--split, --unit and --merge spread a solve over many machines\n"
                     "(scripts/parallel-solve.sh, scripts/slurm-solve.sh).\n"
                     "Boards solved so far and their figures: docs/solved.md.\n"
                     "example: tanbo solve --topology \"grid 4x4\"",
                     out, err))
    return *stop;
  check_ranges(a);
  refuse_empty_names(vm, {{"game", "the game file's name"},
                          {"proof", "--proof FILE"},
                          {"out", "--out DIR"},
                          {"merge", "--merge DIR"},
                          {"checkpoint", "--checkpoint FILE"}});
  a.checkpoint.every_given = vm.count("checkpoint-every") && !vm["checkpoint-every"].defaulted();
  const Job job = job_of(a, vm);
  check_checkpoint_args(a.checkpoint);
  if (!a.proof.empty()) check_proof_target(a);  // before hours of search, not after
  if (job == Job::kMerge) {
    return merge_solve(a.merge, a.proof, a.progress, out, err);
  }
  SolveLimits limits;
  limits.seconds = a.seconds;
  limits.nodes = a.nodes;
  if (job == Job::kUnit) {
    solve_unit(a.out, a.unit, solver_options(a, err), limits, a.proof, a.checkpoint, out, err);
    return 0;
  }
  limits.since = started;  // making the board (0.3 s for 1000x1000) counts against --time too
  const Game root = root_of(a);
  if (job == Job::kSplit) {
    split_solve(root, a.split, a.out, limits, out);
    return 0;
  }
  return solve_position(root.position, a, limits, out, err);
}

}  // namespace tanbo::cli
