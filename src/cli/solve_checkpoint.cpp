// tanbo solve --checkpoint FILE [--resume] (see solve_checkpoint.hpp).
#include "solve_checkpoint.hpp"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/ticker.hpp"

namespace tanbo::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_stop_signal(int sig) {
  g_signal = sig;
  g_stop.store(true);
  std::signal(sig, SIG_DFL);  // a second one ends the program (the last checkpoint stays whole)
}

// Turns SIGINT and SIGTERM into a stop of the search while it lives.
class StopOnSignal {
 public:
  StopOnSignal() {
    g_stop = false;
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignal() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

std::string seconds_text(double s) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(s < 10 ? 2 : 0) << s << " s";
  return os.str();
}

// Reads the checkpoint into `solver` when --resume finds one; the run so far.
CheckpointRun resume(Solver& solver, const Position& pos, const CheckpointArgs& a,
                     const std::string& identity, std::ostream& err) {
  CheckpointRun none;
  none.identity = identity;
  if (!a.resume) return none;
  if (!exists(a.path)) {
    err << "tanbo solve: no checkpoint " << shown_name(a.path) << " yet: starting afresh\n";
    return none;
  }
  CheckpointStats stats;
  const CheckpointRun run = load_checkpoint(a.path, solver, pos, identity, &stats);
  err << "tanbo solve: resumed from " << shown_name(a.path) << " (" << run.runs << " runs, "
      << run.nodes << " nodes, " << seconds_text(run.seconds) << " so far; "
      << human_bytes(stats.bytes) << " read in " << seconds_text(stats.seconds) << ")\n";
  const std::uint64_t here = solver.table_words() * 8;
  if (run.table_bytes != here) {
    err << "tanbo solve: the checkpoint's table of " << human_bytes(run.table_bytes)
        << " was read into this run's table of " << human_bytes(here)
        << (run.table_bytes > here ? " (where two entries met, the one whose proof took more work "
                                     "was kept)\n"
                                   : "\n");
  }
  return run;
}

// True when a resumed table answered the solve without a search: every root move open at the
// start was read from it (one node each, a move's child being proven in the table), so the run
// learnt nothing a write would keep. Rewriting a table of gigabytes then only takes time and
// counts a run that did no work (a `--resume --proof` of a finished checkpoint).
bool held_already(const CheckpointRun& before, const SolveResult& r) {
  return before.runs > 0 && r.solved && r.nodes <= r.moves_total;
}

}  // namespace

int run_until_signal(const std::function<void(const std::atomic<bool>& stop)>& work) {
  const StopOnSignal signals;
  try {
    work(g_stop);
  } catch (const Error&) {
    if (g_signal == 0) throw;
    return g_signal;
  }
  return 0;
}

StagedSolve solve_until_signal(Solver& solver, const Position& pos, SolveLimits limits) {
  const StopOnSignal signals;
  limits.stop = &g_stop;
  StagedSolve staged;
  staged.result = solver.solve(pos, limits);
  staged.signal = g_signal;
  return staged;
}

CheckpointStats save_checkpoint(const std::string& path, const Solver& solver,
                                const CheckpointRun& run) {
  const auto start = Clock::now();
  CheckpointStats stats;
  write_file_atomic(path,
                    [&](const FileSink& sink) { stats = write_checkpoint(solver, run, sink); });
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

void add_checkpoint_options(po::options_description& desc, CheckpointArgs& a) {
  desc.add_options()("checkpoint", po::value(&a.path),
                     "keep the search's table in FILE: written every --checkpoint-every seconds "
                     "and when the run ends (solved, at --time or --nodes, or on SIGINT/SIGTERM)")(
      "checkpoint-every", po::value(&a.every)->default_value(a.every),
      "seconds between checkpoints during the run (0 = only at its end)")(
      "resume", po::bool_switch(&a.resume),
      "carry on from the --checkpoint FILE when it exists (else start afresh, with a note); a "
      "checkpoint of another solve is refused");
}

void check_checkpoint_args(const CheckpointArgs& a) {
  if (a.path.empty()) {
    if (a.resume) throw Error("--resume needs --checkpoint FILE");
    if (a.every_given) throw Error("--checkpoint-every needs --checkpoint FILE");
    return;
  }
  if (!(a.every >= 0 && a.every <= 1e7))
    throw Error("--checkpoint-every must be 0 to 10^7 seconds");
  if (!a.resume && exists(a.path)) {
    throw Error(shown_name(a.path) +
                " exists: --resume carries on from it (or remove it to start afresh)");
  }
  check_writable(a.path);
}

StagedSolve solve_in_stages(Solver& solver, const Position& pos, SolveLimits limits,
                            const CheckpointArgs& a, std::ostream& err) {
  const std::string identity = checkpoint_identity(pos, solver.options());
  // (readied for the board before the periodic writes start: solve() finds it so and leaves
  // the table's memory in place while they read it)
  solver.prepare(pos);
  const CheckpointRun before = resume(solver, pos, a, identity, err);
  const auto since = limits.since == Clock::time_point{} ? Clock::now() : limits.since;
  std::mutex err_mu;  // (the periodic writes report from their own thread)
  auto write = [&](std::uint64_t nodes) {
    CheckpointRun run = before;
    run.nodes += nodes;
    run.seconds += std::chrono::duration<double>(Clock::now() - since).count();
    run.runs += 1;
    const CheckpointStats s = save_checkpoint(a.path, solver, run);
    const std::lock_guard<std::mutex> lock(err_mu);
    err << "tanbo solve: checkpoint " << shown_name(a.path) << " written (" << human_bytes(s.bytes)
        << " in " << seconds_text(s.seconds) << ")\n"
        << std::flush;
    return run;
  };
  const StopOnSignal signals;
  limits.stop = &g_stop;
  StagedSolve staged;
  {
    // A write of a big table takes a while: the next one is `every` seconds after it ends.
    const Ticker every(Ticker::after(Clock::now(), a.every), [&](Clock::time_point) {
      try {
        write(solver.running_nodes());
      } catch (const Error& e) {  // (the search goes on; the next write may succeed)
        const std::lock_guard<std::mutex> lock(err_mu);
        err << "tanbo solve: " << e.what() << "\n" << std::flush;
      }
      return Ticker::after(Clock::now(), a.every);
    });
    staged.result = solver.solve(pos, limits);
  }
  staged.signal = g_signal;
  if (held_already(before, staged.result)) {
    err << "tanbo solve: " << shown_name(a.path)
        << " held the result already: left as it was, this run not counted\n";
    staged.run = before;
    return staged;
  }
  try {
    staged.run = write(staged.result.nodes);
  } catch (const Error& e) {  // (the result is still printed)
    staged.run = before;
    staged.write_error = e.what();
  }
  return staged;
}

}  // namespace tanbo::cli
