// Mixing 64-bit words: the one splitmix64 of the program (Steele, Lea and Flood, 2014), used for
// seeds, hash keys and the random generator's start.
#pragma once

#include <cstdint>

namespace tanbo {

// splitmix64's step: the golden ratio's 64-bit fraction.
inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

// A bijection of 64-bit words that mixes every bit into every other: splitmix64's output for
// the state x (x plus the step, then its finaliser).
inline std::uint64_t mix64(std::uint64_t x) {
  x += kGoldenGamma;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The next word of the splitmix64 sequence at `state`, which moves on by one step.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  const std::uint64_t word = mix64(state);
  state += kGoldenGamma;
  return word;
}

}  // namespace tanbo
