// The solver's transposition table: what it knows of a position (Entry), a position's key of
// two hashes (Key), and the table of entries the threads share (Table). The alpha-beta and
// proof-number searches (solver_internal.hpp) and the checkpoints (Solver::read_table,
// Solver::write_table) use it.
#pragma once

#include <algorithm>
#include <atomic>
#include <compare>
#include <cstdint>
#include <span>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/tuning.hpp"

namespace tanbo::solver_detail {

// What the table knows of a position, packed in 64 bits: bit 0 set (an entry), bit 1 proven.
// A proof: bit 2 the side to move wins, bits 3-34 the best move in the canonical frame, bits
// 35-50 the plies to the end along the proof, bits 51-58 log2 of the nodes the proof took
// (for replacement). Not proven yet (proof-number search): bits 2-29 the proof number, bits
// 30-57 the disproof number, bits 58-63 log2 of the nodes.
inline constexpr std::uint32_t kInfinity = (1u << 28) - 1;  // a proof or disproof number: done
struct Entry {
  bool proven = true;
  bool win = false;
  Vertex move = kNoVertex;
  std::uint32_t plies = 0;
  std::uint32_t work = 0;
  std::uint32_t pn = 1, dn = 1;

  std::uint64_t pack() const {
    if (!proven) {
      return 1u | (std::uint64_t{std::min(pn, kInfinity)} << 2) |
             (std::uint64_t{std::min(dn, kInfinity)} << 30) |
             (std::uint64_t{std::min<std::uint32_t>(work, 63)} << 58);
    }
    return 3u | (std::uint64_t{win} << 2) | (std::uint64_t{move} << 3) |
           (std::uint64_t{std::min<std::uint32_t>(plies, 0xFFFF)} << 35) |
           (std::uint64_t{std::min<std::uint32_t>(work, 0xFF)} << 51);
  }
  static Entry unpack(std::uint64_t d) {
    Entry e;
    e.proven = (d >> 1) & 1u;
    if (!e.proven) {
      e.pn = static_cast<std::uint32_t>((d >> 2) & kInfinity);
      e.dn = static_cast<std::uint32_t>((d >> 30) & kInfinity);
      e.work = static_cast<std::uint32_t>(d >> 58);
      return e;
    }
    e.win = (d >> 2) & 1u;
    e.move = static_cast<Vertex>(d >> 3);
    e.plies = static_cast<std::uint32_t>((d >> 35) & 0xFFFF);
    e.work = static_cast<std::uint32_t>((d >> 51) & 0xFF);
    return e;
  }
  // Whether `d` (a slot's data word; 0: an empty slot) is one a search writes on a board of
  // `points` points: an open position's numbers are 1 to kInfinity - 1 (0 and kInfinity mean
  // proven, and a proof is stored as one), a proven one's move is a point or none. The slots
  // of a checkpoint are read through it.
  static bool possible(std::uint64_t d, std::uint32_t points) {
    if ((d & 1u) == 0) return d == 0;
    const Entry e = unpack(d);
    if (!e.proven) return e.pn >= 1 && e.dn >= 1 && e.pn < kInfinity && e.dn < kInfinity;
    return e.move == kNoVertex || e.move < points;
  }
};

inline std::uint32_t log2_of(std::uint64_t x) {
  std::uint32_t r = 0;
  while (x >>= 1) ++r;
  return r;
}

// A position's key in the table: two independent 64-bit Zobrist hashes of the same image of
// the position (tanbo/core/zobrist.hpp's two families). The image is the one whose first hash
// is least, so that all images of a position share one key. All zero: no position (a move
// that ended the game).
struct Key {
  std::uint64_t first = 0, second = 0;
  bool none() const { return first == 0 && second == 0; }
  friend auto operator<=>(const Key&, const Key&) = default;
};

// The transposition table: buckets of two entries (one kept by the work its proof took, one
// always replaced), shared by the threads without locks: each slot stores tag ^ data beside
// data, so that a slot torn by two writers reads as a miss. Its memory comes zeroed from the
// system (tuning::zeroed_buffer_allocate) and is only touched as the search reaches it, so
// that making or clearing a table of gigabytes costs no time before the search.
//
// The bucket is given by the low bits of the key's second hash, and the tag holds the first
// hash's low 39 bits (the first hash is the least of the images', so its high bits lean to 0)
// and bits 15-39 of the second. A lookup meets another position's entry and takes it for its
// own only when 79 bits of the two hashes agree, the bucket's b bits among them: a chance of
// 2^-(79-b) a slot, 2^-51 in a table of 8 GB, where a key of 64 bits split into bucket and tag
// gave 2^-36. The second hash's bits 15-39 in the tag let a checkpoint be read into a table of
// any size from 1 MB (2^15 buckets) up (copy_in).
class Table {
 public:
  // The bytes a table of at most `bytes` takes: a power of two of buckets, at least one, at
  // most 2^40 (the second hash's bits that the tag keeps).
  static std::size_t size_for(std::size_t bytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * kBucketBytes <= bytes && buckets < kMaxBuckets) buckets *= 2;
    return buckets * kBucketBytes;
  }
  explicit Table(std::size_t bytes) : words_(size_for(bytes) / sizeof(std::uint64_t)) {
    mask_ = words_ / kBucketWords - 1;
    allocate();
  }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table() { tuning::zeroed_buffer_free(data_, bytes()); }

  bool probe(const Key& key, Entry& e) const {
    std::uint64_t* b = bucket(key.second);
    const std::uint64_t t = tag(key);
    for (int i = 0; i < 2; ++i) {
      const std::uint64_t d = load(b[2 * i + 1]);
      if ((load(b[2 * i]) ^ d) == t && (d & 1u)) {
        e = Entry::unpack(d);
        return true;
      }
    }
    return false;
  }
  // Starts fetching the bucket of `key` into the cache: a position's children are probed
  // after all their keys are known, so that their misses overlap instead of following one
  // another. The probes of the children were 35% of a solve's time, nearly all waiting for
  // memory (5x5 from the 2026 start, a 1 GB table).
  void prefetch(const Key& key) const { __builtin_prefetch(bucket(key.second)); }
  void store(const Key& key, const Entry& e) { store_at(bucket(key.second), tag(key), e); }
  // Empties the table: fresh zeroed memory in place of the old (no pass over it).
  void clear() {
    tuning::zeroed_buffer_free(data_, bytes());
    data_ = nullptr;
    allocate();
  }

  // For checkpoints (Solver::read_table, Solver::write_table).
  std::size_t word_count() const { return words_; }
  void copy_out(std::size_t first, std::span<std::uint64_t> out) const {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = load(data_[first + i]);
  }
  void copy_in(std::size_t first, std::span<const std::uint64_t> in, std::size_t source_words) {
    if (source_words == words_) {
      std::copy(in.begin(), in.end(), data_ + first);
      return;
    }
    // Another size: each entry to its bucket here, found from the second hash's low bits (the
    // bucket it sits in and the tag's part), skipping slots that are empty or torn (whose tag
    // disagrees with the bucket they sit in). From a table of under 2^15 buckets into a larger
    // one, the bits in between are unknown and the entries are left out.
    const std::size_t source_mask = source_words / kBucketWords - 1;
    for (std::size_t i = 0; i + 1 < in.size(); i += 2) {
      const std::uint64_t d = in[i + 1], t = in[i] ^ d;
      const std::uint64_t bucket = (first + i) / kBucketWords;
      const std::uint64_t second =
          ((t & kTagSecondMask) << kTagSecondShift) | (bucket & kTagSecondLow);
      if (!(d & 1u) || (second & source_mask) != bucket) continue;
      if (source_mask < kTagSecondLow && mask_ > source_mask) continue;
      store_at(data_ + (second & mask_) * kBucketWords, t, Entry::unpack(d));
    }
  }

 private:
  static constexpr std::size_t kBucketWords = 4;  // two slots of tag and data
  static constexpr std::size_t kBucketBytes = kBucketWords * sizeof(std::uint64_t);
  // The tag: the first hash's low 39 bits above the second hash's bits 15-39.
  static constexpr int kTagSecondShift = 15, kTagSecondBits = 25;
  static constexpr std::uint64_t kTagSecondLow = (std::uint64_t{1} << kTagSecondShift) - 1;
  static constexpr std::uint64_t kTagSecondMask = (std::uint64_t{1} << kTagSecondBits) - 1;
  static constexpr std::size_t kMaxBuckets = std::size_t{1} << (kTagSecondShift + kTagSecondBits);

  static std::uint64_t tag(const Key& key) {
    return (key.first << kTagSecondBits) | ((key.second >> kTagSecondShift) & kTagSecondMask);
  }
  void store_at(std::uint64_t* b, std::uint64_t t, const Entry& e) {
    const std::uint64_t d = e.pack();
    const std::uint64_t old = load(b[1]);
    const bool same = (load(b[0]) ^ old) == t;
    const Entry was = Entry::unpack(old);
    const bool keep = (old & 1u) && !same && (was.work > e.work || (was.proven && !e.proven));
    std::uint64_t* s = keep ? b + 2 : b;  // the kept slot or the one always replaced
    std::atomic_ref<std::uint64_t>(s[1]).store(d, std::memory_order_relaxed);
    std::atomic_ref<std::uint64_t>(s[0]).store(t ^ d, std::memory_order_relaxed);
  }
  void allocate() { data_ = static_cast<std::uint64_t*>(tuning::zeroed_buffer_allocate(bytes())); }
  std::size_t bytes() const { return words_ * sizeof(std::uint64_t); }
  std::uint64_t* bucket(std::uint64_t second) const {
    return data_ + (second & mask_) * kBucketWords;
  }
  static std::uint64_t load(std::uint64_t& w) {
    return std::atomic_ref<std::uint64_t>(w).load(std::memory_order_relaxed);
  }

  std::size_t words_;
  std::size_t mask_ = 0;
  std::uint64_t* data_ = nullptr;
};

}  // namespace tanbo::solver_detail
