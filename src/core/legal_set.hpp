// The legal moves of every player, kept up to date move by move.
//
// A point is legal for player p when it is empty and exactly one of its neighbours holds a stone
// of p. The rules see when that changes (a neighbour count leaving or reaching 1, a point taken
// or vacated) and flip the point here. Per player the set is a bitmap of the board's points with
// the number of legal points per block of 512 points, so that the i-th legal point in vertex
// order (a uniform random move: nth(p, rng.below(size(p)))) is found by scanning a few counts
// and then the words of one block, without a branch on the data.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/players.hpp"

namespace tanbo {

class LegalSets {
 public:
  // How the legal points are counted, chosen from the board's size:
  //  kOne:  one block (boards of up to 1,024 points, 8 or 16 words): the set's size is the count;
  //  kFew:  up to 8 blocks of 512 points (4,096 points): a count per block, each a plain
  //         addition on a change; a random choice scans them;
  //  kMany: a count per block, per group of 8 blocks and per group of 64 blocks (32,768 points):
  //         a change costs three additions, a random choice scans the groups of 64 (31 on a
  //         million points), then 8 counts and 8 counts without a branch.
  enum class Counting : std::uint8_t { kOne, kFew, kMany };
  static constexpr std::uint32_t kFewBlocks = 8;  // kFew up to 8 blocks, 4,096 points

  LegalSets() = default;
  // Empty sets of `players` players over the points 0 .. points-1.
  LegalSets(std::uint32_t points, int players);

  Counting counting() const { return counting_; }              // how points are counted
  std::uint32_t size(Player p) const { return size_[p - 1]; }  // legal points of p
  bool contains(Player p, Vertex v) const {                    // whether v is legal for p
    return (bits_[(p - 1u) * std::size_t{words_} + (v >> 6)] >> (v & 63)) & 1u;
  }
  Vertex nth(Player p, std::uint32_t i) const;           // p's i-th legal point (i < size(p))
  Vertex nth_portable(Player p, std::uint32_t i) const;  // the same without BMI2
  std::vector<Vertex> list(Player p) const;              // p's legal points in vertex order

  // The changes of one player's set during one operation (kC = counting()): flip(u, gain, lose)
  // adds u (gain = 1), takes it out (lose = 1) or neither (both 0), without a branch; commit()
  // then adds up the size. The bitmap and counts are updated as the flips come; only the size
  // waits for commit, so that a move's flips do not chain through one memory word.
  template <Counting kC>
  class Changes {
   public:
    [[gnu::always_inline]] void flip(Vertex u, std::uint32_t gain, std::uint32_t lose) {
      bits_[u >> 6] ^= std::uint64_t{gain | lose} << (u & 63);
      delta_ += gain - lose;
      if constexpr (kC == Counting::kFew) {
        counts_[u >> 9] += gain - lose;
      } else if constexpr (kC == Counting::kMany) {  // groups of 64 blocks, of 8, then blocks
        counts_[u >> 15] += gain - lose;
        counts_[supers_ + (u >> 12)] += gain - lose;
        counts_[9 * supers_ + (u >> 9)] += gain - lose;
      }
    }
    [[gnu::always_inline]] void commit() {
      *size_ += delta_;
      if constexpr (kC == Counting::kOne) counts_[0] += delta_;
      delta_ = 0;
    }

   private:
    friend class LegalSets;
    Changes(LegalSets& s, std::size_t q)
        : bits_(s.bits_.data() + q * s.words_),
          counts_(s.counts_.data() + q * s.stride_),
          size_(&s.size_[q]),
          supers_(s.supers_) {}
    std::uint64_t* bits_;
    std::uint32_t* counts_;
    std::uint32_t* size_;
    std::uint32_t supers_;
    std::uint32_t delta_ = 0;
  };
  template <Counting kC>
  [[gnu::always_inline]] Changes<kC> changes(Player p) {  // p's changes (see Changes)
    return Changes<kC>(*this, p - 1u);
  }
  // One flip of p's set, committed at once.
  template <Counting kC>
  [[gnu::always_inline]] void flip_one(Player p, Vertex v, std::uint32_t gain, std::uint32_t lose) {
    Changes<kC> c = changes<kC>(p);
    c.flip(v, gain, lose);
    c.commit();
  }

  // "" when p's set holds exactly the points v with legal[v] (bits, counts and size), else what
  // is wrong; no point beyond legal.size() may be in the set.
  std::string check(Player p, const std::vector<bool>& legal) const;

 private:
  std::uint32_t words_ = 0;        // 64-bit words per player bitmap (8 per block)
  std::uint32_t blocks_ = 0;       // blocks of 512 points
  std::uint32_t block_words_ = 0;  // words of a block a random choice scans
  std::uint32_t supers_ = 0;       // kMany: groups of 64 blocks, else 0
  std::uint32_t stride_ = 0;       // counts per player: blocks_, or 73 x supers_ (kMany)
  Counting counting_ = Counting::kOne;
  std::vector<std::uint64_t> bits_;                // per player: words_ words
  std::vector<std::uint32_t> counts_;              // per player: stride_ counts
  std::array<std::uint32_t, kMaxPlayers> size_{};  // per player
};

}  // namespace tanbo
