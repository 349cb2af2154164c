// Small, fast, seedable random numbers (xoshiro256**), the same on every platform.
#pragma once

#include <cstdint>

#include "tanbo/core/mix.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) { reseed(seed); }
  // Restarts the sequence from a seed (expanded with splitmix64).
  void reseed(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }
  // Next 64 random bits.
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-32 for n < 2^32).
  std::uint32_t below(std::uint32_t n) { return scale(next(), n); }
  // What below(n) makes of the 64 bits `bits` drawn by next().
  static std::uint32_t scale(std::uint64_t bits, std::uint32_t n) {
    return static_cast<std::uint32_t>(((bits >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// A uniformly random legal move of the side to move (precondition: the game is not over).
inline Vertex random_move(const Position& pos, Rng& rng) {
  const Player p = pos.to_move();
  return pos.legal_move(p, rng.below(pos.legal_count(p)));
}

}  // namespace tanbo
