#include "tanbo/core/tuning.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <cstdlib>
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

}  // namespace

bool cpu_has_bmi2() {
#if TANBO_X86_BMI2
  static const bool has = __builtin_cpu_supports("bmi2");
  return has;
#else
  return false;
#endif
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
