// A growable array of trivially copyable values that grows with std::realloc.
//
// Position keeps its game record in one: a random game on a million points plays five million
// moves, 160 MB of records. A std::vector grows by allocating a bigger block and copying, so it
// writes and page-faults about twice the final size. With glibc, a block of more than a few
// megabytes is a memory mapping of its own, and realloc moves such a mapping's pages to a
// bigger one instead of copying them: each page of the record is faulted in once and never
// copied. Elsewhere realloc copies, as a vector would. Measured: a recorded random game on
// 1000x1000 is 14% faster with it than with std::vector (docs/performance.md, "What made it
// fast"); it holds only what grows with the game record (the turns, the removed stones).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace tanbo {

template <class T>
class PodVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  PodVector() = default;
  PodVector(const PodVector& other) { assign(other); }
  PodVector(PodVector&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  // A copy keeps this array's own block when it is big enough (a position reset to its start
  // for the next random game keeps the memory of the last game's record).
  PodVector& operator=(const PodVector& other) {
    if (this != &other) assign(other);
    return *this;
  }
  PodVector& operator=(PodVector&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~PodVector() { std::free(data_); }

  std::size_t size() const { return size_; }          // values held
  std::size_t capacity() const { return capacity_; }  // values the block can hold
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }  // precondition: not empty
  const T& back() const { return data_[size_ - 1]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::span<const T> view() const { return {data_, size_}; }  // the values, read-only

  // Appends a value-initialised T and returns it. (Inlined, with the growth out of line: every
  // move of a game appends its record.)
  [[gnu::always_inline]] T& emplace_back() {
    if (size_ == capacity_) grow(size_ + 1);
    return *::new (static_cast<void*>(data_ + size_++)) T();
  }
  [[gnu::always_inline]] void push_back(const T& value) {
    const T copy = value;  // `value` may live in the block that grow() moves
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = copy;
  }
  void pop_back() { --size_; }  // precondition: not empty
  void clear() { size_ = 0; }
  // Keeps the first n values, or appends value-initialised ones up to n.
  void resize(std::size_t n) {
    reserve(n);
    for (std::size_t i = size_; i < n; ++i) ::new (static_cast<void*>(data_ + i)) T();
    size_ = n;
  }
  // Makes room for `n` values without changing the contents.
  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(n);
  }

 private:
  // At least doubles, so that appending costs amortised constant time.
  [[gnu::noinline]] void grow(std::size_t need) {
    std::size_t cap = capacity_ ? 2 * capacity_ : 16;
    while (cap < need) cap *= 2;
    reallocate(cap);
  }
  void reallocate(std::size_t cap) {
    void* p = std::realloc(static_cast<void*>(data_), cap * sizeof(T));
    if (!p) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    capacity_ = cap;
  }
  void assign(const PodVector& other) {
    if (other.size_ > capacity_) {
      // The old contents are not needed: a fresh block spares realloc's copy of them.
      std::free(data_);
      data_ = nullptr;
      capacity_ = 0;
      reallocate(other.size_);
    }
    if (other.size_ != 0)
      std::memcpy(static_cast<void*>(data_), other.data_, other.size_ * sizeof(T));
    size_ = other.size_;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace tanbo
