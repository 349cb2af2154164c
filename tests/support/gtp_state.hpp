// What a protocol test compares to check that a refused command changed nothing.
#pragma once

#include <cstdint>
#include <string>

#include "../../src/cli/gtp.hpp"

namespace tanbo::test {

// The engine's observable state: board, setup, players, history length, stones and turn.
struct GtpState {
  std::string spec;
  std::string setup;
  int players;
  std::uint32_t ply;
  std::uint64_t hash;
  Player to_move;
  bool operator==(const GtpState&) const = default;
};

inline GtpState gtp_state(const cli::GtpEngine& e) {
  const Position& p = e.position();
  return {p.topology().spec, p.setup().name, p.num_players(), p.ply(), p.hash(), p.to_move()};
}

}  // namespace tanbo::test
