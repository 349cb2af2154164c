// Writing proof certificates (the format: include/tanbo/proof/proof.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tanbo/ai/solver.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

// POSITION of the certificate format for the stones of `pos`.
std::string proof_position(const Position& pos);

// The certificate's header: the moves of `pos`'s history from its setup, and the winner.
std::string proof_header(const Position& pos, Player winner);

struct ProofStats {
  std::uint64_t lines = 0;      // positions listed (the winner to move)
  std::uint64_t positions = 0;  // positions of the proof, the winner's and the others'
  double seconds = 0;           // wall time, the searches included
};

// Where a certificate's text goes, piece by piece and in order (a file being written).
using ProofSink = std::function<void(std::string_view piece)>;

// Writes to `sink` the certificate that `winner` wins from `pos` (a two-player position whose
// history from its setup gives the certificate's `moves` line). Walks the proof tree without
// recursion: where the winner is to move it lists the winning move `solver` finds (the first
// winning move, the shortest win found), where the other player is to move it follows every
// legal move; each position is expanded once, and the positions are kept compactly (a few
// bytes a stone), so that proofs of hundreds of millions of positions fit in memory. The
// searches use `solver`'s table as it stands (a solve's, or a checkpoint's: positions proven
// there are answered at once) and one thread each; the solver's options are given back after.
// `progress`, when given, is called with the figures so far every `progress_every` seconds (0:
// never).
// Throws tanbo::Error when `winner` does not win, or when `limits` stop a search before the
// proof is complete.
ProofStats write_proof(Solver& solver, const Position& pos, Player winner,
                       const SolveLimits& limits, const ProofSink& sink,
                       const std::function<void(const ProofStats&)>& progress = {},
                       double progress_every = 0);

// The same with a solver of its own made with `options`, the certificate returned as text.
std::string write_proof(const Position& pos, Player winner, SolverOptions options,
                        const SolveLimits& limits, ProofStats* stats = nullptr);

}  // namespace tanbo
