// tanbo solve --checkpoint FILE [--resume]: a long solve in stages (docs/solved.md, "Long
// solves in stages"). The solver's table is written to FILE every --checkpoint-every seconds and
// when the run ends (solved, at a limit, or stopped by SIGINT or SIGTERM); --resume reads it
// back first, so that the next run carries on with what the earlier ones learnt.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>

#include "commands.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/ai/solver_checkpoint.hpp"

namespace tanbo::cli {

struct CheckpointArgs {
  std::string path;     // --checkpoint FILE ("" = none)
  double every = 600;   // --checkpoint-every SECONDS (0 = only when the run ends)
  bool resume = false;  // --resume
  bool every_given = false;
};

// Writes `solver`'s table with `run` to `path`, atomically under its lock (a write that fails
// or is killed leaves the previous file whole); the seconds include flushing it to disk.
CheckpointStats save_checkpoint(const std::string& path, const Solver& solver,
                                const CheckpointRun& run);

// --checkpoint, --checkpoint-every and --resume.
void add_checkpoint_options(po::options_description& desc, CheckpointArgs& a);

// Refuses options that do not go together and, before any search, a FILE that cannot be
// written or that exists without --resume (it would be overwritten).
void check_checkpoint_args(const CheckpointArgs& a);

struct StagedSolve {
  SolveResult result;       // this run's
  CheckpointRun run;        // every run's, this one included
  int signal = 0;           // the signal that stopped it (0 = none)
  std::string write_error;  // why the checkpoint at the end was not written ("" = it was)
};

// Solves `pos` with `solver` under `limits` and the checkpoint of `a` (its path is set): reads
// it first with --resume, writes it every a.every seconds and at the end, and stops the search
// on SIGINT or SIGTERM (a second one ends the program at once). A checkpoint that held the
// result already (the solve read it without searching) is left as it was, and the run is not
// counted. Notes go to `err`. Throws
// tanbo::Error when the checkpoint is refused (the file is then not changed).
StagedSolve solve_in_stages(Solver& solver, const Position& pos, SolveLimits limits,
                            const CheckpointArgs& a, std::ostream& err);
// Runs `work` with SIGINT and SIGTERM turned into `stop`, a flag the work looks at; a second
// signal ends the program at once. When the work throws tanbo::Error after a signal came (it
// stopped), the signal is returned; 0 when the work ended on its own. Other errors pass through.
int run_until_signal(const std::function<void(const std::atomic<bool>& stop)>& work);

// Solves `pos` with `solver` under `limits`, without a checkpoint, stopping the search on SIGINT
// or SIGTERM (a second one ends the program at once): the result so far, and the signal.
StagedSolve solve_until_signal(Solver& solver, const Position& pos, SolveLimits limits);

}  // namespace tanbo::cli
