#include "legal_set.hpp"

#include <bit>

#include "tanbo/core/tuning.hpp"

namespace tanbo {

namespace {

using Counting = LegalSets::Counting;

const bool kHasBmi2 = tuning::cpu_has_bmi2();

// What nth searches: one player's counts and bitmap.
struct Search {
  const std::uint32_t* counts;  // per block; kMany: per 64 blocks, per 8 blocks, per block
  const std::uint64_t* bits;    // the bitmap
  std::uint32_t blocks;         // blocks of 512 points (kFew), groups of 64 blocks (kMany)
  std::uint32_t block_words;    // words of a block that can hold points (<= 16)
  Counting counting;
};

// The i-th set bit of the first `words` words of a block, without a data-dependent branch:
// the word is the number of words whose running count stays <= i.
template <bool kBmi2>
[[gnu::always_inline]] inline std::uint32_t point_in_block(const std::uint64_t* bits,
                                                           std::uint32_t words, std::uint32_t i) {
  std::uint32_t prefix[17];  // prefix[k]: set bits in the words before word k (words <= 16)
  std::uint32_t acc = 0, j = 0;
  prefix[0] = 0;
  for (std::uint32_t k = 0; k < words; ++k) {
    acc += static_cast<std::uint32_t>(std::popcount(bits[k]));
    prefix[k + 1] = acc;
    j += acc <= i;
  }
  if constexpr (kBmi2) return j * 64 + tuning::select_bit_bmi2(bits[j], i - prefix[j]);
  return j * 64 + tuning::select_bit_plain(bits[j], i - prefix[j]);
}

// Among `k` counts, the number of leading ones whose running total stays <= i, without a
// data-dependent branch (random choices make an early exit mispredict); i drops by their sum.
template <std::uint32_t k>
[[gnu::always_inline]] inline std::uint32_t skip_counts(const std::uint32_t* counts,
                                                        std::uint32_t k_counts, std::uint32_t& i) {
  std::uint32_t acc = 0, before = 0, skipped = 0;
  const std::uint32_t n = k ? k : k_counts;
  for (std::uint32_t j = 0; j < n; ++j) {
    acc += counts[j];
    const std::uint32_t skip = acc <= i;
    skipped += skip;
    before = skip ? acc : before;
  }
  i -= before;
  return skipped;
}

// The search, compiled twice: for any CPU and for x86-64 CPUs with BMI2 (one instruction for
// the bit within a word, inlined; tuning.hpp).
template <bool kBmi2>
[[gnu::always_inline]] inline Vertex find(const Search& s, std::uint32_t i) {
  // b = number of whole blocks before the one holding the i-th point.
  const std::uint32_t* counts = s.counts;
  std::uint32_t b = 0;
  if (s.counting == Counting::kFew) {  // plain counts: the blocks whose running count <= i
    b = skip_counts<0>(counts, s.blocks, i);
  } else if (s.counting == Counting::kMany) {
    // The group of 64 blocks (a loop: a million points have 31 of them), then the group of 8
    // blocks in it, then the block: 8 counts each, scanned without a branch.
    const std::uint32_t supers = s.blocks;
    std::uint32_t g = 0;
    for (; counts[g] <= i; ++g) i -= counts[g];
    const std::uint32_t m = g * 8 + skip_counts<8>(counts + supers + g * 8, 8, i);
    b = m * 8 + skip_counts<8>(counts + 9 * supers + m * 8, 8, i);
  }
  return b * 512 + point_in_block<kBmi2>(s.bits + b * 8u, s.block_words, i);
}

TANBO_TARGET_BMI2 Vertex find_bmi2(const Search& s, std::uint32_t i) {
  return find<true>(s, i);
}
Vertex find_plain(const Search& s, std::uint32_t i) {
  return find<false>(s, i);
}

}  // namespace

LegalSets::LegalSets(std::uint32_t points, int players) {
  // Blocks of 512 points (8 words), except that a board of up to 1,024 points is one block of
  // 16 words: its sets need no count but their size. The padding words stay zero.
  blocks_ = points <= 1024 ? 1 : (points + 511) / 512;
  words_ = points <= 512 ? 8 : points <= 1024 ? 16 : blocks_ * 8;
  // A random choice scans only the words that can hold points of a one-block board.
  block_words_ = blocks_ == 1 ? (points + 63) / 64 : 8;
  counting_ = blocks_ == 1            ? Counting::kOne
              : blocks_ <= kFewBlocks ? Counting::kFew
                                      : Counting::kMany;
  // kMany counts: supers_ groups of 64 blocks, 8 groups of 8 blocks in each, 8 blocks in each
  // of those (the last ones padded with zero counts), stored in that order.
  supers_ = counting_ == Counting::kMany ? (blocks_ + 63) / 64 : 0;
  stride_ = counting_ == Counting::kMany ? 73 * supers_ : blocks_;
  bits_.assign(std::size_t{words_} * players, 0);
  counts_.assign(std::size_t{stride_} * players, 0);
  size_.fill(0);
}

Vertex LegalSets::nth(Player p, std::uint32_t i) const {
  const std::size_t q = p - 1u;
  const Search s{counts_.data() + q * stride_, bits_.data() + q * words_,
                 counting_ == Counting::kMany ? supers_ : blocks_, block_words_, counting_};
  if (kHasBmi2) return find_bmi2(s, i);
  return find_plain(s, i);
}

Vertex LegalSets::nth_portable(Player p, std::uint32_t i) const {
  const std::size_t q = p - 1u;
  return find_plain({counts_.data() + q * stride_, bits_.data() + q * words_,
                     counting_ == Counting::kMany ? supers_ : blocks_, block_words_, counting_},
                    i);
}

std::vector<Vertex> LegalSets::list(Player p) const {
  std::vector<Vertex> out;
  out.reserve(size(p));
  const std::uint64_t* bits = bits_.data() + (p - 1u) * std::size_t{words_};
  for (std::uint32_t w = 0; w < words_; ++w) {
    for (std::uint64_t word = bits[w]; word; word &= word - 1) {
      out.push_back(w * 64 + static_cast<Vertex>(std::countr_zero(word)));
    }
  }
  return out;
}

std::string LegalSets::check(Player p, const std::vector<bool>& legal) const {
  const std::size_t q = p - 1u;
  const std::uint64_t* bits = bits_.data() + q * words_;
  const auto n = static_cast<std::uint32_t>(legal.size());
  std::uint32_t want = 0;
  std::vector<std::uint32_t> per_block(blocks_, 0);
  for (Vertex v = 0; v < n; ++v) {
    const bool in_set = (bits[v >> 6] >> (v & 63)) & 1u;
    if (legal[v] != in_set) {
      return "point " + std::to_string(v) + (legal[v] ? " is legal for " : " is illegal for ") +
             std::string(player_name(p)) +
             (legal[v] ? " but missing from its legal set" : " but in its legal set");
    }
    if (legal[v]) {
      ++want;
      ++per_block[counting_ == Counting::kOne ? 0 : v >> 9];
    }
  }
  for (std::uint32_t w = n; w < words_ * 64u; ++w) {
    if ((bits[w >> 6] >> (w & 63)) & 1u) return "legal set has a bit beyond the board";
  }
  if (want != size_[q]) return "legal set size is wrong";
  const std::uint32_t* counts = counts_.data() + q * stride_;
  if (counting_ != Counting::kMany) {
    for (std::uint32_t b = 0; b < blocks_; ++b) {
      if (counts[b] != per_block[b]) return "legal block count is wrong";
    }
    return "";
  }
  // Groups of 64 blocks, of 8 blocks, then blocks (see Changes::flip); padding counts are 0.
  per_block.resize(64 * std::size_t{supers_}, 0);
  for (std::uint32_t size : {64u, 8u, 1u}) {
    const std::uint32_t* level = counts + (size == 64 ? 0 : size == 8 ? supers_ : 9 * supers_);
    for (std::uint32_t g = 0; g < 64 * supers_ / size; ++g) {
      std::uint32_t sum = 0;
      for (std::uint32_t b = g * size; b < g * size + size; ++b) sum += per_block[b];
      if (level[g] != sum) {
        return "legal count of a group of " + std::to_string(size) + " blocks is wrong";
      }
    }
  }
  return "";
}

}  // namespace tanbo
