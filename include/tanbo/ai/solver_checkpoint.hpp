// Checkpoints of a long solve: the solver's transposition table and the run's identity kept in
// a file, so that a solve stopped by a time or node limit or a signal carries on where it
// stopped (tanbo solve --checkpoint FILE --resume; docs/solved.md).
//
// The file: a text header (head -n 16 FILE shows it: the format's version, the solve's identity,
// the nodes and time of the runs so far, the table's size), a blank line, the table's non-empty
// blocks (each its index and its words, in the machine's byte order, which the header names),
// an end mark, and a checksum of everything before it. The caller puts it in a file: tanbo solve
// through the safe-write layer (tanbo/io/safe_file.hpp), locked and atomic, so that a write
// killed half way leaves the previous checkpoint whole.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tanbo/ai/solver.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

// What a checkpoint says of its solve besides the table.
struct CheckpointRun {
  // The lines that must match for a resume: the board (on a DOT board also a hash of its points
  // and edges), the setup, the players, the position (its hash, moves played and side to move),
  // the method and the symmetry setting.
  std::string identity;
  std::uint64_t nodes = 0;        // nodes searched by every run so far
  double seconds = 0;             // their wall time
  std::uint32_t runs = 0;         // runs so far
  std::uint64_t table_bytes = 0;  // the size of the table it holds
};

// The identity of a solve of `pos` with `options` (CheckpointRun::identity).
std::string checkpoint_identity(const Position& pos, const SolverOptions& options);

// What a write or a read took.
struct CheckpointStats {
  std::uint64_t bytes = 0;   // the file's size
  std::uint64_t blocks = 0;  // the table's blocks it holds (the others are empty)
  double seconds = 0;
};

// Hands the checkpoint of `solver`'s table and `run` to `sink`, piece by piece, in order.
// Safe while the solver searches on other threads (see Solver::read_table). What `sink` throws
// passes through.
using CheckpointSink = std::function<void(std::string_view piece)>;
CheckpointStats write_checkpoint(const Solver& solver, const CheckpointRun& run,
                                 const CheckpointSink& sink);

// Reads the checkpoint at `path` into `solver` (readied for pos's board first, its table
// emptied) and returns its run. Throws tanbo::Error, never changing the file, when it is not a
// checkpoint, of another version or byte order, of another solve (an identity that is not
// `identity`: the message names the first line that differs), or damaged or truncated (its
// checksum); the solver's table is then empty.
CheckpointRun load_checkpoint(const std::string& path, Solver& solver, const Position& pos,
                              const std::string& identity, CheckpointStats* stats = nullptr);

}  // namespace tanbo
