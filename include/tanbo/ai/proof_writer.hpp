// Writing proof certificates (the format: include/tanbo/proof/proof.hpp).
#pragma once

#include <cstdint>
#include <string>

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

// The certificate that `winner` wins from `pos` (a two-player position whose history from its
// setup gives the certificate's `moves` line). Walks the proof tree without recursion: where
// the winner is to move it lists the winning move a solver with `options` finds (the first
// winning move, the shortest win found), where the other player is to move it follows every
// legal move; each position is expanded once. Throws tanbo::Error when `winner` does not win,
// or when `limits` stop a search before the proof is complete.
std::string write_proof(const Position& pos, Player winner, SolverOptions options,
                        const SolveLimits& limits, ProofStats* stats = nullptr);

}  // namespace tanbo
