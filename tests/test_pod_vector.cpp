// PodVector, the realloc-grown array that holds a position's game record.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../src/core/pod_vector.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

struct Pair {
  std::uint32_t a = 7;  // a default, to see value-initialisation
  std::uint32_t b = 9;
};

// Growing past glibc's mapping threshold (blocks of many megabytes are moved by realloc, not
// copied) keeps every value, in order.
TEST(PodVector, GrowingKeepsEveryValue) {
  PodVector<std::uint32_t> v;
  EXPECT_TRUE(v.empty());
  constexpr std::uint32_t kCount = 12'000'000;  // 48 MB
  for (std::uint32_t i = 0; i < kCount; ++i) v.push_back(i * 3u);
  ASSERT_EQ(v.size(), kCount);
  EXPECT_GE(v.capacity(), kCount);
  for (std::uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(v[i], i * 3u) << i;
  }
  EXPECT_EQ(v.back(), (kCount - 1) * 3u);
  v.pop_back();
  EXPECT_EQ(v.back(), (kCount - 2) * 3u);
  EXPECT_EQ(v.end() - v.begin(), static_cast<std::ptrdiff_t>(kCount - 1));
}

TEST(PodVector, EmplaceAndResizeValueInitialise) {
  PodVector<Pair> v;
  Pair& p = v.emplace_back();
  EXPECT_EQ(p.a, 7u);
  p.a = 1;
  v.resize(40);  // grows: the new values are defaults
  EXPECT_EQ(v[0].a, 1u);
  for (std::size_t i = 1; i < 40; ++i) EXPECT_EQ(v[i].b, 9u) << i;
  v.resize(1);  // shrinks, keeps the block
  EXPECT_EQ(v.size(), 1u);
  EXPECT_GE(v.capacity(), 40u);
  EXPECT_EQ(v.view().size(), 1u);
  EXPECT_EQ(v.view()[0].a, 1u);
}

// push_back of a value held in the array itself, at the moment the array must grow.
TEST(PodVector, PushBackOfItsOwnValueWhileGrowing) {
  PodVector<std::uint64_t> v;
  v.push_back(42);
  while (v.size() < v.capacity()) v.push_back(v.size());
  const std::size_t full = v.size();
  v.push_back(v[0]);
  ASSERT_EQ(v.size(), full + 1);
  EXPECT_EQ(v.back(), 42u);
}

TEST(PodVector, CopiesAndMoves) {
  PodVector<std::uint32_t> big;
  for (std::uint32_t i = 0; i < 1000; ++i) big.push_back(i);
  PodVector<std::uint32_t> small;
  small.push_back(5);

  PodVector<std::uint32_t> copy(big);  // copy construction
  ASSERT_EQ(copy.size(), 1000u);
  EXPECT_EQ(copy[999], 999u);
  copy[0] = 77;
  EXPECT_EQ(big[0], 0u) << "a copy has its own values";

  // Assigning a shorter array keeps the target's block (a position reset to its start for the
  // next game keeps the room of the last game's record).
  const std::size_t room = copy.capacity();
  copy = small;
  EXPECT_EQ(copy.size(), 1u);
  EXPECT_EQ(copy[0], 5u);
  EXPECT_EQ(copy.capacity(), room);
  copy = big;  // and a longer one fits again without growing
  EXPECT_EQ(copy.size(), 1000u);
  EXPECT_EQ(copy[500], 500u);
  PodVector<std::uint32_t> empty;
  copy = empty;
  EXPECT_TRUE(copy.empty());
  small = big;  // a longer one into a small block
  EXPECT_EQ(small.size(), 1000u);
  EXPECT_EQ(small[999], 999u);
  small[0] = 11;
  const PodVector<std::uint32_t>& same = small;
  small = same;  // self-assignment changes nothing
  EXPECT_EQ(small.size(), 1000u);
  EXPECT_EQ(small[0], 11u);

  PodVector<std::uint32_t> moved(std::move(big));
  EXPECT_EQ(moved.size(), 1000u);
  EXPECT_TRUE(big.empty());  // NOLINT(bugprone-use-after-move): a moved-from array is empty
  big = std::move(moved);
  EXPECT_EQ(big.size(), 1000u);
  EXPECT_EQ(big[123], 123u);
}

// A position's record through copies: a copy of a position in mid-game undoes to the start
// exactly like the original, and a position reset by assignment plays the same game again.
TEST(PodVector, PositionRecordSurvivesCopies) {
  const Position start = test::make("grid 9x9");
  Position pos = start;
  Rng rng(5);
  while (!pos.is_over()) pos.play(random_move(pos, rng));
  const std::vector<MoveRecord> played(pos.history().begin(), pos.history().end());
  ASSERT_GT(played.size(), 20u);
  Position copy = pos;
  ASSERT_EQ(copy.ply(), played.size());
  while (copy.ply() > 0) copy.undo();
  EXPECT_EQ(copy.hash(), start.hash());
  EXPECT_EQ(copy.check_consistency(), "");

  pos = start;
  EXPECT_EQ(pos.ply(), 0u);
  for (const MoveRecord& rec : played) pos.play(rec.vertex);
  ASSERT_EQ(pos.ply(), played.size());
  for (std::size_t i = 0; i < played.size(); ++i) {
    EXPECT_EQ(pos.history()[i].vertex, played[i].vertex);
    EXPECT_EQ(pos.history()[i].stones_removed, played[i].stones_removed);
  }
  EXPECT_TRUE(pos.is_over());
}

}  // namespace
}  // namespace tanbo
