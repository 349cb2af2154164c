// The machine tuning of include/tanbo/core/tuning.hpp against plain loops: each way of finding
// the least of a[i] ^ b[i] (the plain one, and AVX2's where the CPU has it) must give the first
// index of the least value, for every length the solver uses and more, on random words, on words
// with the top bit set or clear (where a signed compare would go wrong), and with ties.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "tanbo/core/random.hpp"
#include "tanbo/core/tuning.hpp"

namespace tanbo {
namespace {

using Finder = std::function<std::size_t(const std::uint64_t*, const std::uint64_t*, std::size_t)>;

std::size_t first_least(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < a.size(); ++i) {
    if ((a[i] ^ b[i]) < (a[best] ^ b[best])) best = i;
  }
  return best;
}

// Words drawn from a few kinds: any word, words either side of the top bit, and a handful of
// values (so that ties are common).
std::uint64_t word(Rng& rng, int kind) {
  constexpr std::uint64_t kTop = std::uint64_t{1} << 63;
  switch (kind) {
    case 0:
      return rng.next();
    case 1:
      return kTop | (rng.next() % 4);
    case 2:
      return rng.next() % 4;
    default:
      return rng.next() % 3 == 0 ? kTop : (rng.next() % 3 == 0 ? kTop - 1 : ~std::uint64_t{0});
  }
}

void agrees_with_a_plain_loop(const Finder& find) {
  Rng rng(20261130);
  for (std::size_t n = 1; n <= 150; ++n) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<std::uint64_t> a(n), b(n);
      const int kind = trial % 4;
      for (std::size_t i = 0; i < n; ++i) {
        b[i] = rng.next();
        a[i] = word(rng, kind) ^ b[i];  // so that a[i] ^ b[i] is the word drawn
      }
      ASSERT_EQ(find(a.data(), b.data(), n), first_least(a, b)) << "n " << n << ", kind " << kind;
    }
  }
}

TEST(Tuning, TheLeastOfXorsIsFoundPlainly) {
  agrees_with_a_plain_loop(tuning::least_xor_index_plain);
}

TEST(Tuning, TheLeastOfXorsIsFoundWithAvx2) {
  if (!tuning::cpu_has_avx2()) GTEST_SKIP() << "this CPU has no AVX2";
  agrees_with_a_plain_loop(tuning::least_xor_index_avx2);
}

TEST(Tuning, TheLeastOfXorsIsFoundTheWayThisMachineUses) {
  agrees_with_a_plain_loop(tuning::least_xor_index);
}

}  // namespace
}  // namespace tanbo
