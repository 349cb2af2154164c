// The solver's transposition table (src/ai/solver_table.hpp): keys of two hashes, the
// bucket from one and the tag from both, and entries carried into tables of other sizes as a
// checkpoint carries them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../src/ai/solver_table.hpp"
#include "tanbo/core/mix.hpp"

namespace tanbo::solver_detail {
namespace {

constexpr std::size_t kBucketBytes = 32;

Key random_key(std::uint64_t i) {
  return {mix64(2 * i + 1), mix64(2 * i + 2)};
}

Entry proof_of(std::uint64_t i) {
  Entry e;
  e.win = i % 2 == 0;
  e.move = static_cast<Vertex>(i % 1000);
  e.plies = static_cast<std::uint32_t>(i % 300);
  e.work = static_cast<std::uint32_t>(i % 40);
  return e;
}

std::vector<std::uint64_t> words_of(const Table& t) {
  std::vector<std::uint64_t> words(t.word_count());
  t.copy_out(0, words);
  return words;
}

TEST(SolverTable, AnEntryIsFoundByItsOwnKeyOnly) {
  // 2^15 buckets: the second hash's bits 0-14 pick the bucket (in a smaller table, the bits
  // between the bucket's and the tag's are not compared).
  Table t((std::size_t{1} << 15) * kBucketBytes);
  const Key k = random_key(7);
  t.store(k, proof_of(7));
  Entry e;
  ASSERT_TRUE(t.probe(k, e));
  EXPECT_EQ(e.pack(), proof_of(7).pack());
  // Keys of the same bucket that differ from k in one compared bit of either hash: the first
  // hash's bits 0-38, the second's 15-39.
  for (int bit : {0, 17, 38}) {
    EXPECT_FALSE(t.probe({k.first ^ (std::uint64_t{1} << bit), k.second}, e)) << bit;
  }
  for (int bit : {15, 16, 27, 39}) {
    EXPECT_FALSE(t.probe({k.first, k.second ^ (std::uint64_t{1} << bit)}, e)) << bit;
  }
  // The same first hash in another bucket.
  EXPECT_FALSE(t.probe({k.first, k.second ^ 1u}, e));
}

TEST(SolverTable, EntriesGoIntoATableOfAnotherSizeByTheirKeys) {
  // Few keys for the buckets: entries are lost where two of a bucket meet in the other
  // table's (one slot keeps the entry of more work, the other takes the last one stored),
  // which in a larger table happens to few.
  constexpr std::uint64_t kKeys = 2000;
  for (const std::size_t source_buckets : {std::size_t{1} << 15, std::size_t{1} << 16}) {
    Table source(source_buckets * kBucketBytes);
    for (std::uint64_t i = 0; i < kKeys; ++i) source.store(random_key(i), proof_of(i));
    const std::vector<std::uint64_t> words = words_of(source);
    for (const std::size_t buckets : {std::size_t{1} << 12, std::size_t{1} << 17}) {
      Table target(buckets * kBucketBytes);
      target.copy_in(0, words, words.size());
      std::uint64_t kept = 0, found = 0;
      for (std::uint64_t i = 0; i < kKeys; ++i) {
        Entry was, now;
        const bool in_source = source.probe(random_key(i), was);
        kept += in_source;
        if (!target.probe(random_key(i), now)) continue;
        ++found;
        EXPECT_TRUE(in_source) << i;
        EXPECT_EQ(now.pack(), proof_of(i).pack()) << i;
      }
      EXPECT_GE(found, (buckets > source_buckets ? kept * 99 : kept * 60) / 100)
          << buckets << " from " << source_buckets;
      // Keys never stored are not found.
      Entry e;
      for (std::uint64_t i = kKeys; i < 2 * kKeys; ++i)
        EXPECT_FALSE(target.probe(random_key(i), e));
    }
  }
}

TEST(SolverTable, ATableUnderTheTagsBitsGrowsEmptyAndWithoutFalseEntries) {
  // A table of 2^12 buckets: the second hash's bits 12-14 are neither its bucket's nor in the
  // tag, so a larger table cannot place its entries and leaves them out.
  Table small(4096 * kBucketBytes);
  for (std::uint64_t i = 0; i < 3000; ++i) small.store(random_key(i), proof_of(i));
  const std::vector<std::uint64_t> words = words_of(small);
  Table larger(65536 * kBucketBytes);
  larger.copy_in(0, words, words.size());
  Entry e;
  for (std::uint64_t i = 0; i < 3000; ++i) EXPECT_FALSE(larger.probe(random_key(i), e)) << i;
  // Into a smaller one they go as into any smaller table.
  Table smaller(1024 * kBucketBytes);
  smaller.copy_in(0, words, words.size());
  std::uint64_t found = 0;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    if (!smaller.probe(random_key(i), e)) continue;
    ++found;
    EXPECT_EQ(e.pack(), proof_of(i).pack()) << i;
  }
  EXPECT_GT(found, 1000u);
}

TEST(SolverTable, ATornSlotIsNotCarriedIntoAnotherSize) {
  Table source((std::size_t{1} << 18) * kBucketBytes);
  source.store(random_key(1), proof_of(1));
  std::vector<std::uint64_t> words = words_of(source);
  // A slot whose tag and data were written by two writers: read back, its tag disagrees with
  // the bucket it sits in (the tag's bits 0-2 are the second hash's bits 15-17, which are
  // also the bucket's in a table of 2^18 buckets).
  std::size_t slot = 0;
  while (words[slot + 1] == 0) slot += 2;
  words[slot + 1] ^= 6u;
  Table target((std::size_t{1} << 19) * kBucketBytes);
  target.copy_in(0, words, words.size());
  const std::vector<std::uint64_t> after = words_of(target);
  for (std::size_t i = 1; i < after.size(); i += 2) ASSERT_EQ(after[i], 0u) << i;
}

}  // namespace
}  // namespace tanbo::solver_detail
