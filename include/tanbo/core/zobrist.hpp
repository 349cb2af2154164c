// Zobrist keys: the hash of a position is the XOR of one key per stone (its point and colour)
// and a key for the side to move. The rules XOR a stone's key in when it is placed and out when
// it is taken off, so the hash follows every move and undo at no extra reads; check_consistency
// recomputes it from the board. The solver hashes the symmetric images of a position with the
// same keys. Keys are computed (splitmix64 of the point and colour), not stored: no table to
// keep in cache, and the same hash on every machine.
#pragma once

#include <cstdint>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/mix.hpp"
#include "tanbo/core/players.hpp"

namespace tanbo::zobrist {

// The key of a stone of player p (1..8) on point v. Black's and White's keys are the ones the
// solver's tables and node counts were first measured with; the other colours' keys pack the
// point and the colour into one word.
inline std::uint64_t stone(Vertex v, Player p) {
  if (p <= kWhite) return mix64((2 * std::uint64_t{v} + (p - 1u)) * 0xD1B54A32D192ED03ull);
  return mix64((std::uint64_t{v} << 3) | (p - 1u));
}

// The key of the side to move (kEmpty once the game is over): none for Black, so that a
// position's hash with Black to move is the XOR of its stones' keys alone.
inline std::uint64_t side_to_move(Player p) {
  if (p == kBlack) return 0;
  if (p == kWhite) return mix64(0x7A4B0C0DE5ull);
  return mix64(0xABCDEF00ull + p);
}

// A second family of keys, independent of the first (another multiplier before the mix), for
// keys of 128 bits: the solver's table picks a position's bucket by its second hash and checks
// the entry against its first, so that a false match needs both to agree by chance.
inline std::uint64_t second_stone(Vertex v, Player p) {
  return mix64((2 * std::uint64_t{v} + (p - 1u)) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
}
inline std::uint64_t second_side_to_move(Player p) {
  return p == kBlack ? 0 : mix64(0x5851F42D4C957F2Dull + p);
}

}  // namespace tanbo::zobrist
