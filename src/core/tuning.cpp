#include "tanbo/core/tuning.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>
#include <new>

namespace tanbo::tuning {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

#if defined(__linux__) && defined(MADV_HUGEPAGE)
// Buffers of two huge pages or more go on huge pages.
bool on_huge_pages(std::size_t bytes) {
  return bytes >= 2 * kHugePage;
}
#endif

// The first i with a[i] ^ b[i] == least (there is one).
std::size_t place_of(std::uint64_t least, const std::uint64_t* a, const std::uint64_t* b) {
  std::size_t i = 0;
  while ((a[i] ^ b[i]) != least) ++i;
  return i;
}

}  // namespace

std::size_t least_xor_index_plain(const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  std::uint64_t least = ~std::uint64_t{0};
  for (std::size_t i = 0; i < n; ++i) least = std::min(least, a[i] ^ b[i]);
  return place_of(least, a, b);
}

#if TANBO_X86_BMI2
namespace {

#define TANBO_TARGET_AVX2 __attribute__((target("avx2")))

// a[i] ^ b[i] for the four lanes from i, top bits flipped.
TANBO_TARGET_AVX2 inline __m256i xor_at(const std::uint64_t* a, const std::uint64_t* b,
                                        std::size_t i, __m256i top) {
  return _mm256_xor_si256(
      _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i)),
                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i))),
      top);
}

// Lane by lane, the lesser (as signed numbers).
TANBO_TARGET_AVX2 inline __m256i least_of(__m256i x, __m256i y) {
  return _mm256_blendv_epi8(x, y, _mm256_cmpgt_epi64(x, y));
}

}  // namespace

// AVX2 compares 64-bit lanes as signed numbers only: flipping the top bit of both sides makes
// that order the unsigned one. Two running minima, so that each compare waits on the one before
// it but one; the place found from masks of equal lanes, without a branch per lane.
TANBO_TARGET_AVX2 std::size_t least_xor_index_avx2(const std::uint64_t* a, const std::uint64_t* b,
                                                   std::size_t n) {
  const __m256i top = _mm256_set1_epi64x(std::numeric_limits<std::int64_t>::min());
  __m256i best0 = _mm256_set1_epi64x(std::numeric_limits<std::int64_t>::max());  // (~0 flipped)
  __m256i best1 = best0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    best0 = least_of(best0, xor_at(a, b, i, top));
    best1 = least_of(best1, xor_at(a, b, i + 4, top));
  }
  if (i + 4 <= n) best0 = least_of(best0, xor_at(a, b, i, top)), i += 4;
  alignas(32) std::uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                     _mm256_xor_si256(least_of(best0, best1), top));
  std::uint64_t least = std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
  for (std::size_t j = i; j < n; ++j) least = std::min(least, a[j] ^ b[j]);
  const __m256i want = _mm256_xor_si256(_mm256_set1_epi64x(static_cast<std::int64_t>(least)), top);
  for (std::size_t block = 0; block < i; block += 64) {  // (64 lanes a word of bits)
    std::uint64_t found = 0;                             // bit j: lane block + j holds it
    for (std::size_t j = 0; j < 64 && block + j < i; j += 4) {
      const auto equal =
          _mm256_castsi256_pd(_mm256_cmpeq_epi64(xor_at(a, b, block + j, top), want));
      found |= std::uint64_t(_mm256_movemask_pd(equal)) << j;
    }
    if (found != 0) return block + static_cast<std::size_t>(std::countr_zero(found));
  }
  return i + place_of(least, a + i, b + i);
}
#else
std::size_t least_xor_index_avx2(const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  return least_xor_index_plain(a, b, n);
}
#endif

// Each answer is asked of the CPU once (__builtin_cpu_supports takes the feature's name as a
// literal only).
#if TANBO_X86_BMI2
bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
bool cpu_has_bmi2() {
  static const bool has = __builtin_cpu_supports("bmi2");
  return has;
}
#else
bool cpu_has_avx2() {
  return false;
}
bool cpu_has_bmi2() {
  return false;
}
#endif

std::size_t least_xor_index(const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  return cpu_has_avx2() ? least_xor_index_avx2(a, b, n) : least_xor_index_plain(a, b, n);
}

void* big_buffer_allocate(std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (on_huge_pages(bytes)) {
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint: failure only costs speed
    return p;
  }
#endif
  // Cache-line aligned, so that a point's entry never straddles more lines than it must.
  return ::operator new (bytes, std::align_val_t{64});
}

void big_buffer_free(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (on_huge_pages(bytes)) {
    std::free(p);
    return;
  }
#endif
  (void)bytes;
  ::operator delete (p, std::align_val_t{64});
}

void* zeroed_buffer_allocate(std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (on_huge_pages(bytes)) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_HUGEPAGE);  // a hint: failure only costs speed
    return p;
  }
#endif
  void* p = std::calloc(bytes, 1);
  if (!p) throw std::bad_alloc();
  return p;
}

void zeroed_buffer_free(void* p, std::size_t bytes) noexcept {
  if (!p) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (on_huge_pages(bytes)) {
    ::munmap(p, bytes);
    return;
  }
#endif
  (void)bytes;
  std::free(p);
}

}  // namespace tanbo::tuning
