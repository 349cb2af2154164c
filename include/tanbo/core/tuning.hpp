// Tuning for the machine, in one place: cache prefetch, huge pages for big buffers, the BMI2
// bit search and the AVX2 search for the least of the solver's hashes. Nothing here changes a
// result; each piece only makes the same work faster on the machines that have it, and does nothing
// (or the portable thing) elsewhere. This is the only header of the engine with an `#if` on the
// compiler, the operating system or the CPU.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TANBO_X86_BMI2 1
// Compiles a function for CPUs with BMI2 (chosen at run time with cpu_has_bmi2()).
#define TANBO_TARGET_BMI2 __attribute__((target("bmi2")))
#else
#define TANBO_X86_BMI2 0
#define TANBO_TARGET_BMI2
#endif

namespace tanbo::tuning {

// Starts loading the cache line of `p` for writing; a hint that changes nothing. Big boards ask
// for a move's point entries before it reads them, so that their cache misses overlap
// (docs/performance.md: without it a move of a recorded 1000x1000 game was about 15% slower).
inline void prefetch_for_write(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p, 1);
#else
  (void)p;
#endif
}

// Whether this CPU has BMI2 (checked once, at start).
bool cpu_has_bmi2();

// Position of the i-th set bit of `word` (i < popcount(word)), portably: whole bytes are
// skipped by their popcount, then the lowest bits cleared.
inline std::uint32_t select_bit_plain(std::uint64_t word, std::uint32_t i) {
  std::uint32_t base = 0;
  for (;;) {
    const auto c = static_cast<std::uint32_t>(std::popcount(word & 0xFF));
    if (i < c) break;
    i -= c;
    word >>= 8;
    base += 8;
  }
  for (; i > 0; --i) word &= word - 1;
  return base + static_cast<std::uint32_t>(std::countr_zero(word));
}

// The same with BMI2's pdep, one instruction, in code compiled TANBO_TARGET_BMI2 and run only
// where cpu_has_bmi2(); elsewhere the portable search.
TANBO_TARGET_BMI2 inline std::uint32_t select_bit_bmi2(std::uint64_t word, std::uint32_t i) {
#if TANBO_X86_BMI2
  return static_cast<std::uint32_t>(__builtin_ctzll(_pdep_u64(std::uint64_t{1} << i, word)));
#else
  return select_bit_plain(word, i);
#endif
}

// The index of the least of a[i] ^ b[i] for i < n (n > 0), the first of them when several are
// least: the solver's canonical key of a position, the least of its images' hashes. With AVX2
// (where cpu_has_avx2()) four images at a time; elsewhere a pass for the least value, without
// branches, then a pass for its place. Against a loop that keeps the least so far, whose branch
// the hashes make unpredictable, df-pn's first 3,000,000 positions took (CPU, medians of 5
// pairs of runs, the same nodes, the Release build with link-time optimisation) 41% less time
// on 4x4x4 (48 images), 20% on hex 4 (12), 18% on 7x7 (8) and 9% on 3x3x3; the portable way
// alone 3% less on 7x7 and none on 3x3x3 (docs/solved.md, Speed).
std::size_t least_xor_index(const std::uint64_t* a, const std::uint64_t* b, std::size_t n);
// The two ways, for the tests: the AVX2 one only where cpu_has_avx2() (elsewhere it is the
// plain one).
bool cpu_has_avx2();
std::size_t least_xor_index_plain(const std::uint64_t* a, const std::uint64_t* b, std::size_t n);
std::size_t least_xor_index_avx2(const std::uint64_t* a, const std::uint64_t* b, std::size_t n);

// Memory for the big per-point buffer of a position. On Linux, buffers of 4 MB and more are
// aligned to 2 MB and marked for transparent huge pages (madvise), so that moves at random
// places of a board of a million points do not miss the TLB on every access; smaller buffers
// start on a cache line. Elsewhere plain aligned new/delete. Huge pages make a move on a
// three-player 1000x1000 board (40 MB of point store) about 7% faster (docs/performance.md).
void* big_buffer_allocate(std::size_t bytes);
void big_buffer_free(void* p, std::size_t bytes) noexcept;

// Zeroed memory for a big table that is filled as it is used (the solver's transposition
// table): on Linux a private anonymous mapping, zero without a pass over it and marked for
// transparent huge pages from 4 MB, so that the pages are only made (512 times fewer of them)
// as they are first touched; elsewhere calloc. Throws std::bad_alloc when there is no room.
void* zeroed_buffer_allocate(std::size_t bytes);
void zeroed_buffer_free(void* p, std::size_t bytes) noexcept;

// A std::allocator for such buffers.
template <class T>
struct BigBufferAllocator {
  using value_type = T;
  BigBufferAllocator() = default;
  template <class U>
  BigBufferAllocator(const BigBufferAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(big_buffer_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { big_buffer_free(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const BigBufferAllocator<U>&) const {
    return true;
  }
};

}  // namespace tanbo::tuning

namespace tanbo {
using tuning::BigBufferAllocator;  // (bench/bench_memory.cpp measures the memory with it)
}  // namespace tanbo
