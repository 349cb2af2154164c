// Zobrist keys: the hash of a position is the XOR of one key per stone (its point and colour)
// and a key for the side to move. The rules XOR a stone's key in when it is placed and out when
// it is taken off, so the hash follows every move and undo at no extra reads; check_consistency
// recomputes it from the board. Keys are computed (splitmix64 of the point and colour), not
// stored: no table to keep in cache, and the same hash on every machine.
#pragma once

#include <cstdint>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/players.hpp"

namespace tanbo::zobrist {

// splitmix64's finaliser: a bijection of 64-bit words that mixes every bit into every other.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The key of a stone of player p (1..8) on point v.
inline std::uint64_t stone(Vertex v, Player p) {
  return mix((std::uint64_t{v} << 3) | (p - 1u));
}

// The key of the side to move (kEmpty once the game is over).
inline std::uint64_t side_to_move(Player p) {
  return mix(0xABCDEF00ull + p);
}

}  // namespace tanbo::zobrist
