// A solve spread over many machines (docs/solved.md, "Solving on many machines"): the
// positions DEPTH plies from the root are written as work units, each unit is solved on its
// own, and the merge combines their results into the root's value and, when the units wrote
// certificates, one certificate of the whole result.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "solve_checkpoint.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/io/gamefile.hpp"

namespace tanbo::cli {

// Writes DIR/manifest.txt and DIR/units/unit-N.tanbo, one game file per distinct position
// DEPTH plies after `root` (positions that are mirror images of each other are one unit).
// DIR must not hold a split already. Prints what it wrote. Throws tanbo::Error, writing
// nothing, when the walk to DEPTH outlasts limits.seconds or makes more than a million units.
void split_solve(const Game& root, int depth, const std::string& dir, const SolveLimits& limits,
                 std::ostream& out);

// Solves unit `unit` of DIR and writes DIR/results/unit-N.txt (and, with `proof_path`, the
// unit's certificate there: the merge reads DIR/results/unit-N.proof), atomically. Throws
// tanbo::Error, writing nothing, when a limit stops the search. With a checkpoint path, the
// unit's search keeps its table there (solve_in_stages, notes on `err`).
void solve_unit(const std::string& dir, std::size_t unit, const SolverOptions& options,
                const SolveLimits& limits, const std::string& proof_path,
                const CheckpointArgs& checkpoint, std::ostream& out, std::ostream& err);

// Refuses (tanbo::Error) `path`, given as `option`, when it names one of the split's own files
// in DIR: its manifest, root.tanbo, result.txt, or a file in units/ or results/ other than
// `allowed` (a unit's own certificate) and `allowed` + ".gz". Writing there would break the
// split.
void refuse_split_file(const std::string& dir, const std::string& path, const std::string& option,
                       const std::string& allowed = "");

// Combines the results of every unit of DIR into the root's value and prints, and writes to
// DIR/result.txt, the lines tanbo solve prints for the root (`winner: ...`, `winning moves:
// ...`); with `proof_path`, one certificate of the whole result from the units' certificates.
// Refuses a missing unit, a result of another split, a certificate that is missing. Progress
// lines of the certificate's writing and check go to `err` every `progress` seconds (0: none).
// SIGINT or SIGTERM while the certificate is written stops the merge with nothing written:
// returns 128 + the signal, else 0.
int merge_solve(const std::string& dir, const std::string& proof_path, double progress,
                std::ostream& out, std::ostream& err);

}  // namespace tanbo::cli
