// The incremental legal-move sets (src/core/legal_set.hpp) against a plain model: random points
// go in and out of every player's set, and the set must agree with the model on its size, its
// members, its list in vertex order and its i-th point (with and without BMI2), on boards of
// every way of counting: one block, a few blocks, many blocks in groups of 8 and 64.
#include <gtest/gtest.h>

#include <vector>

#include "../src/core/legal_set.hpp"
#include "tanbo/core/random.hpp"

namespace tanbo {
namespace {

using Counting = LegalSets::Counting;

// Flips u in p's set (in when `in`, else out), as the rules do: through a Changes of the set's
// kind of counting, several flips of one player committed together.
template <Counting kC>
void flip_all(LegalSets& sets, Player p, const std::vector<std::pair<Vertex, bool>>& flips) {
  auto changes = sets.changes<kC>(p);
  for (const auto& [u, in] : flips) changes.flip(u, in ? 1u : 0u, in ? 0u : 1u);
  changes.commit();
}

void flip(LegalSets& sets, Player p, const std::vector<std::pair<Vertex, bool>>& flips) {
  switch (sets.counting()) {
    case Counting::kOne:
      return flip_all<Counting::kOne>(sets, p, flips);
    case Counting::kFew:
      return flip_all<Counting::kFew>(sets, p, flips);
    case Counting::kMany:
      return flip_all<Counting::kMany>(sets, p, flips);
  }
}

std::vector<Vertex> members(const std::vector<bool>& model) {
  std::vector<Vertex> out;
  for (Vertex v = 0; v < model.size(); ++v) {
    if (model[v]) out.push_back(v);
  }
  return out;
}

// The set agrees with the model in every respect; every i-th point is asked on small boards,
// a sample on big ones.
void expect_agree(const LegalSets& sets, Player p, const std::vector<bool>& model,
                  const std::string& where) {
  const std::vector<Vertex> want = members(model);
  ASSERT_EQ(sets.size(p), want.size()) << where;
  ASSERT_EQ(sets.list(p), want) << where;
  ASSERT_EQ(sets.check(p, model), "") << where;
  const std::size_t step = want.size() > 3000 ? 97 : 1;
  for (std::size_t i = 0; i < want.size(); i += step) {
    ASSERT_EQ(sets.nth(p, static_cast<std::uint32_t>(i)), want[i]) << where << " i " << i;
    ASSERT_EQ(sets.nth_portable(p, static_cast<std::uint32_t>(i)), want[i]) << where << " i " << i;
  }
  for (Vertex v = 0; v < model.size(); v += 1 + static_cast<Vertex>(model.size() / 5000)) {
    ASSERT_EQ(sets.contains(p, v), model[v]) << where << " point " << v;
  }
}

TEST(LegalSet, CountingFollowsTheBoardSize) {
  EXPECT_EQ(LegalSets(1, 2).counting(), Counting::kOne);
  EXPECT_EQ(LegalSets(1024, 2).counting(), Counting::kOne);
  EXPECT_EQ(LegalSets(1025, 2).counting(), Counting::kFew);
  EXPECT_EQ(LegalSets(4096, 2).counting(), Counting::kFew);
  EXPECT_EQ(LegalSets(4097, 2).counting(), Counting::kMany);
  EXPECT_EQ(LegalSets(1000000, 8).counting(), Counting::kMany);
}

// Sizes on both sides of each boundary: a word, one block of 8 and of 16 words, a few blocks,
// a group of 64 blocks (32,768 points) and more, up to a million points.
TEST(LegalSet, AgreesWithAModelAsPointsComeAndGo) {
  for (std::uint32_t n : {1u, 63u, 64u, 81u, 361u, 512u, 513u, 1024u, 1025u, 4096u, 4097u, 10000u,
                          32768u, 32769u, 70000u, 1000000u}) {
    for (int players : {2, 3}) {
      LegalSets sets(n, players);
      std::vector<std::vector<bool>> model(players, std::vector<bool>(n, false));
      Rng rng(n * 10 + static_cast<std::uint64_t>(players));
      const std::string where = std::to_string(n) + " points, " + std::to_string(players);
      for (int round = 0; round < 12; ++round) {
        for (int q = 0; q < players; ++q) {
          const auto p = static_cast<Player>(q + 1);
          // A batch of flips of distinct points (as one move's), then single flips; the set
          // fills up in the first rounds and empties again in the last ones.
          std::vector<std::pair<Vertex, bool>> batch;
          std::vector<bool> touched(n, false);
          const std::uint32_t k = std::min<std::uint32_t>(n, 1 + n / 7);
          for (std::uint32_t j = 0; j < k; ++j) {
            const Vertex u = rng.below(n);
            if (touched[u]) continue;
            touched[u] = true;
            const bool in = round < 8 ? !model[q][u] || rng.below(4) == 0 : false;
            if (in == model[q][u]) continue;  // a flip always changes the point
            batch.emplace_back(u, in);
            model[q][u] = in;
          }
          flip(sets, p, batch);
          ASSERT_NO_FATAL_FAILURE(expect_agree(sets, p, model[q], where));
        }
      }
      for (int q = 0; q < players; ++q) {
        const auto p = static_cast<Player>(q + 1);
        for (Vertex u = 0; u < n; ++u) {
          if (model[q][u]) flip(sets, p, {{u, false}});
        }
        ASSERT_EQ(sets.size(p), 0u) << where;
        ASSERT_EQ(sets.check(p, std::vector<bool>(n, false)), "") << where;
      }
    }
  }
}

// check() reports a set that differs from what the board says.
TEST(LegalSet, CheckFindsADifference) {
  for (std::uint32_t n : {81u, 2000u, 40000u}) {
    LegalSets sets(n, 2);
    std::vector<bool> model(n, false);
    flip(sets, kWhite, {{5, true}, {n - 1, true}});
    model[5] = model[n - 1] = true;
    EXPECT_EQ(sets.check(kWhite, model), "") << n;
    model[n - 1] = false;
    EXPECT_NE(sets.check(kWhite, model), "") << n;
    EXPECT_NE(sets.check(kBlack, std::vector<bool>{true}), "") << n;
    // A point beyond the ones the board has is never in a set.
    std::vector<bool> shorter(n - 1, false);
    shorter[5] = true;
    EXPECT_EQ(sets.check(kWhite, shorter), "legal set has a bit beyond the board") << n;
  }
}

}  // namespace
}  // namespace tanbo
