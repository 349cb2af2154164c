#include "position_core.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>

#include "tanbo/error.hpp"

namespace tanbo::detail {

namespace {

// splitmix64 finaliser: the Zobrist key of (vertex, player) is computed, not stored.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
inline std::uint64_t zobrist(Vertex v, Player p) {
  return mix((std::uint64_t{v} << 3) | (p - 1));
}

}  // namespace

PositionCore::PositionCore(TopologyPtr topology, const Setup& setup, Records records)
    : topo_(std::move(topology)), setup_(setup) {
  if (!topo_) throw Error("no topology");
  n_ = topo_->graph.num_vertices();
  players_ = setup.players;
  if (players_ < 2 || players_ > kMaxPlayers) {
    throw Error("a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " +
                std::to_string(players_));
  }
  allocate(n_, players_, records);

  const Topology& t = *topo_;
  // Place the seeds: each is a root of its own.
  for (const auto& [v, p] : setup.stones) {
    if (v >= n_) throw Error("setup stone on vertex " + std::to_string(v) + " is off the board");
    if (p < 1 || p > players_) {
      throw Error("setup stone at " + t.name(v) + " belongs to player " + std::to_string(p) +
                  " but the game has " + std::to_string(players_) + " players");
    }
    if (at(v) != kEmpty) throw Error("setup places two stones on " + t.name(v));
    for (std::uint32_t i = off_[v]; i < off_[v + 1]; ++i) {
      if (at(nbr_[i]) == p) {
        throw Error("setup seeds " + t.name(nbr_[i]) + " and " + t.name(v) + " of " +
                    player_title(p) + " are adjacent: every seed must be a root of its own");
      }
    }
    RootId r = static_cast<RootId>(roots_.size());
    Root root;
    root.owner = p;
    root.size = 1;
    root.head = v;
    root.seed = v;
    roots_.push_back(root);
    space_buf_.push_back(0);
    put_stone(v, p, r, kNoVertex);
    ++stones_[p - 1];
    ++root_count_[p - 1];
  }
  for (int p = 1; p <= players_; ++p) {
    if (stones_[p - 1] == 0) {
      throw Error("setup gives " + player_title(static_cast<Player>(p)) + " no stones");
    }
  }
  for (RootId r = 0; r < roots_.size(); ++r) {
    if (root_space(r) == 0) {
      throw Error("the starting position has a bounded root: the " + player_title(roots_[r].owner) +
                  " seed at " + t.name(roots_[r].seed) + " has no root space");
    }
  }
  out_ = 0;
  to_move_ = kBlack;
  winner_ = kEmpty;
  zero_count_ = 0;
}

void PositionCore::allocate(std::uint32_t n, int players, Records records) {
  // Root ids (at most one per point) must stay below 2^31: see root_or_scratch.
  if (n >= (1u << 31)) {
    throw Error("a board of " + std::to_string(n) + " points is too big (at most 2^31 - 1)");
  }
  n_ = n;
  players_ = players;
  off_ = topo_->graph.offsets().data();
  nbr_ = topo_->graph.targets().data();
  // Big boards of low degree also copy each point's neighbour list into its record: a move then
  // needs one cache line for the point instead of two (its record and its CSR row).
  // Big lattices without wrap instead compute the neighbours: the record keeps which of the
  // 2 x axes directions stay on the board, so it is 32 bytes with two players (two to a line).
  const Topology& t = *topo_;
  const bool big_lattice = n > (1u << 15) && t.kind == BoardKind::kLattice;
  // Compact records: lattices of more than 4,096 points (legal sets counted by groups of
  // blocks, Sets::kMany; from there on they measured 3 to 7% more playouts a second on 65x65,
  // 80x80, 100x100, 150x150 and 20x20x20, and 40% to 50% on a million points), two players, at
  // most 15 axes (30 neighbours: a count fits 5 bits), on a torus two distinct neighbours along
  // every axis, and root ids and vertex ids + 1 within 26 bits. They compute all 2 x axes
  // directions of a point, with the border word for those off the board, so they are left to
  // boards where at most a fifth of the directions are off the board: on 3x3x...x3 with 11 axes
  // (a third) they played 16% slower than the general records, which list only the neighbours
  // there are; on 15x15x15x15 (a fifteenth) 2% faster.
  bool torus_ok = true;
  for (std::uint32_t d : t.dims) torus_ok = torus_ok && d >= 3;
  const std::uint64_t directions = std::uint64_t{n} * 2 * t.dims.size();
  compact_ = n > kFewBlocks * 512 && t.kind == BoardKind::kLattice && records == Records::kAuto &&
             players == 2 && t.dims.size() <= kMaxCompactAxes && (!t.wrap || torus_ok) &&
             5 * std::uint64_t{off_[n]} >= 4 * directions && n < (1u << (32 - kHalfShift)) - 1;
  lattice_nbrs_ = big_lattice && !t.wrap && !compact_ && 2 * t.dims.size() <= kMaxLatticeDirections;
  nb_offset_ = sizeof(Cell) + sizeof(Slot) * static_cast<std::size_t>(players);
  inline_nbrs_ = !compact_ && !lattice_nbrs_ && n > (1u << 15) && topo_->graph.max_degree() <= 8;
  const std::size_t record =
      nb_offset_ + (inline_nbrs_ ? sizeof(Vertex) * topo_->graph.max_degree() : 0);
  stride_ = compact_ ? sizeof(std::uint64_t) : (record + 7) / 8 * 8;
  // Lattices: how much the vertex id changes along each axis.
  std::vector<std::uint32_t> axis_step(t.dims.size(), 1);
  for (std::size_t a = 1; a < t.dims.size(); ++a) axis_step[a] = axis_step[a - 1] * t.dims[a - 1];
  if (compact_) {
    axes_ = static_cast<std::uint32_t>(t.dims.size());
    compact_wrap_ = t.wrap;
    for (std::uint32_t a = 0; a < axes_; ++a) {
      axis_step_[a] = axis_step[a];
      axis_span_[a] = axis_step[a] * t.dims[a];
      axis_magic_[a] = ~std::uint64_t{0} / axis_span_[a] + 1;
    }
    // Every word empty (no neighbours), and the border word occupied by no player.
    cells_.assign(stride_ * (std::size_t{n} + 1), std::byte{0});
    const std::uint64_t border =
        (std::uint64_t{kHalfOccupied} << 32) | kHalfOccupied | kBorderColour;
    std::memcpy(cells_.data() + stride_ * n, &border, sizeof border);
  } else {
    cells_.assign(stride_ * n, std::byte{0});
  }
  if (lattice_nbrs_) {
    for (std::size_t a = 0; a < t.dims.size(); ++a) {
      direction_step_[2 * a] = axis_step[a];           // coordinate a + 1
      direction_step_[2 * a + 1] = 0u - axis_step[a];  // coordinate a - 1 (wraps in 32 bits)
    }
  }
  for (Vertex v = 0; v < n && !compact_; ++v) {
    Cell& c = cell(v);
    c.root = kNoRoot;
    c.next = kNoVertex;
    c.first = off_[v];
    c.degree = static_cast<std::uint16_t>(off_[v + 1] - off_[v]);
    c.color = kEmpty;
    if (lattice_nbrs_) {
      std::uint32_t mask = 0;
      for (std::size_t a = 0; a < t.dims.size(); ++a) {
        const std::uint32_t x = v / axis_step[a] % t.dims[a];
        mask |= std::uint32_t{x + 1 < t.dims[a]} << (2 * a);
        mask |= std::uint32_t{x > 0} << (2 * a + 1);
      }
      c.first = mask;
    }
    if (inline_nbrs_) {
      std::memcpy(cells_.data() + v * stride_ + nb_offset_, nbr_ + off_[v],
                  sizeof(Vertex) * (off_[v + 1] - off_[v]));
    }
  }
  // Blocks of 512 points (8 words), except that a board of up to 1,024 points is one block of
  // 16 words: its sets need no count but their size. The padding words stay zero.
  // (Compact records count the border word as a point that is never legal: a neighbour update
  // flips its bit by 0.)
  const std::uint32_t points = compact_ ? n + 1 : n;
  blocks_ = n <= 1024 ? 1 : (points + 511) / 512;
  words_ = n <= 512 ? 8 : n <= 1024 ? 16 : blocks_ * 8;
  // A random choice scans only the words that can hold points of a one-block board.
  block_words_ = blocks_ == 1 ? (n + 63) / 64 : 8;
  sets_ = blocks_ == 1 ? Sets::kOne : blocks_ <= kFewBlocks ? Sets::kFew : Sets::kMany;
  // kMany counts: supers_ groups of 64 blocks, 8 groups of 8 blocks in each, 8 blocks in each
  // of those (the last ones padded with zero counts), stored in that order.
  supers_ = sets_ == Sets::kMany ? (blocks_ + 63) / 64 : 0;
  block_stride_ = sets_ == Sets::kMany ? 73 * supers_ : blocks_;
  legal_bits_.assign(std::size_t{words_} * players, 0);
  prefetch_.clear();
  if (big_lattice) {
    for (std::uint32_t step : axis_step) {
      const auto bytes = static_cast<std::ptrdiff_t>(stride_ * step);
      prefetch_.push_back(bytes);
      prefetch_.push_back(-bytes);
    }
  }
  legal_block_.assign(std::size_t{block_stride_} * players, 0);
  legal_size_.assign(players, 0);
  zeroed_.assign(topo_->graph.max_degree() + static_cast<std::size_t>(players) + 1, kNoRoot);
  zero_count_ = 0;
  stones_.assign(players, 0);
  root_count_.assign(players, 0);
}

namespace {

// What PositionCore::legal_move searches: one player's counts and bitmap.
struct LegalSearch {
  const std::uint32_t* counts;  // per block; kMany: per 64 blocks, per 8 blocks, per block
  const std::uint64_t* bits;    // the bitmap
  std::uint32_t blocks;         // blocks of 512 points (kFew), groups of 64 blocks (kMany)
  std::uint32_t block_words;    // words of a block that can hold points (<= 16)
  PositionCore::Sets sets;
};

const bool kHasBmi2 = platform::cpu_has_bmi2();

// In a player's legal set, u becomes legal (gain = 1) or stops being legal (lose = 1), or
// neither: the bitmap bit flips without a branch; the size change is summed into `delta`. The
// counts per block of 512 points follow the board's kind of sets (see PositionCore::Sets): on a
// one-block board the caller adds `delta` to the count once; with a few blocks the block's
// count changes, with many also the counts of its groups of 8 and of 64 blocks (`supers`
// groups of 64 counted first, then the groups of 8, then the blocks); all without a branch.
template <PositionCore::Sets kSets>
[[gnu::always_inline]] inline void legal_flip(std::uint64_t* bits, std::uint32_t* tree,
                                              std::uint32_t supers, Vertex u, std::uint32_t gain,
                                              std::uint32_t lose, std::uint32_t& delta) {
  bits[u >> 6] ^= std::uint64_t{gain | lose} << (u & 63);
  delta += gain - lose;
  if constexpr (kSets == PositionCore::Sets::kFew) {
    tree[u >> 9] += gain - lose;
  } else if constexpr (kSets == PositionCore::Sets::kMany) {
    tree[u >> 15] += gain - lose;
    tree[supers + (u >> 12)] += gain - lose;
    tree[9 * supers + (u >> 9)] += gain - lose;
  }
}

// Where a branch-free update that may change nothing goes, as an index into
// PositionCore::spaces(): root `id` when `use` is 1, else -1, the scratch counter (the id is
// garbage when use is 0). A mask, not a branch: random play makes `use` unpredictable.
[[gnu::always_inline]] inline std::ptrdiff_t root_or_scratch(std::uint32_t use, RootId id) {
  return static_cast<std::int32_t>(id | (use - 1u));
}

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
#if TANBO_X86_BMI2
  if constexpr (kBmi2) return j * 64 + platform::select_bit_bmi2(bits[j], i - prefix[j]);
#endif
  return j * 64 + platform::select_bit_plain(bits[j], i - prefix[j]);
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

// PositionCore::legal_move's search, compiled twice: for any x86-64 and for CPUs with BMI2 (one
// instruction for the bit within a word, inlined).
template <bool kBmi2>
[[gnu::always_inline]] inline Vertex find_legal(const LegalSearch& s, std::uint32_t i) {
  // b = number of whole blocks before the one holding the i-th point.
  const std::uint32_t* tree = s.counts;
  std::uint32_t b = 0;
  if (s.sets == PositionCore::Sets::kFew) {  // plain counts: the blocks whose running count <= i
    b = skip_counts<0>(tree, s.blocks, i);
  } else if (s.sets == PositionCore::Sets::kMany) {
    // The group of 64 blocks (a loop: a million points have 31 of them), then the group of 8
    // blocks in it, then the block: 8 counts each, scanned without a branch.
    const std::uint32_t supers = s.blocks;
    std::uint32_t g = 0;
    for (; tree[g] <= i; ++g) i -= tree[g];
    const std::uint32_t m = g * 8 + skip_counts<8>(tree + supers + g * 8, 8, i);
    b = m * 8 + skip_counts<8>(tree + 9 * supers + m * 8, 8, i);
  }
  return b * 512 + point_in_block<kBmi2>(s.bits + b * 8u, s.block_words, i);
}

#if TANBO_X86_BMI2
TANBO_TARGET_BMI2 Vertex find_legal_bmi2(const LegalSearch& s, std::uint32_t i) {
  return find_legal<true>(s, i);
}
#endif
Vertex find_legal_plain(const LegalSearch& s, std::uint32_t i) {
  return find_legal<false>(s, i);
}

}  // namespace

// legal_flip for the single point v in the set of player q+1, counts committed at once.
template <PositionCore::Sets kSets>
[[gnu::always_inline]] inline void PositionCore::legal_flip_one(std::size_t q, Vertex v,
                                                                std::uint32_t gain,
                                                                std::uint32_t lose) {
  std::uint32_t* const tree = legal_block_.data() + q * block_stride_;
  std::uint32_t d = 0;
  legal_flip<kSets>(legal_bits_.data() + q * words_, tree, supers_, v, gain, lose, d);
  legal_size_[q] += d;
  if constexpr (kSets == Sets::kOne) tree[0] += d;
}

Vertex PositionCore::legal_move(Player p, std::uint32_t i) const {
  const std::size_t q = p - 1u;
  const LegalSearch s{legal_block_.data() + q * block_stride_, legal_bits_.data() + q * words_,
                      sets_ == Sets::kMany ? supers_ : blocks_, block_words_, sets_};
#if TANBO_X86_BMI2
  if (kHasBmi2) return find_legal_bmi2(s, i);
#endif
  return find_legal_plain(s, i);
}

Vertex PositionCore::legal_move_portable(Player p, std::uint32_t i) const {
  const std::size_t q = p - 1u;
  return find_legal_plain({legal_block_.data() + q * block_stride_, legal_bits_.data() + q * words_,
                           sets_ == Sets::kMany ? supers_ : blocks_, block_words_, sets_},
                          i);
}

// The neighbours of v (cell cv), cv.degree of them: from the record (big boards of low degree),
// computed into `around` (big lattices without wrap) or the graph's CSR row.
template <PositionCore::Sets kSets>
[[gnu::always_inline]] inline const Vertex* PositionCore::neighbour_list(const Cell& cv, Vertex v,
                                                                         Vertex* around) const {
  if constexpr (kSets == Sets::kMany) {
    if (lattice_nbrs_) {
      std::uint32_t k = 0;
      for (std::uint32_t m = cv.first; m != 0; m &= m - 1) {
        around[k++] = v + direction_step_[std::countr_zero(m)];
      }
      return around;
    }
    if (inline_nbrs_) {
      return reinterpret_cast<const Vertex*>(reinterpret_cast<const std::byte*>(&cv) + nb_offset_);
    }
  }
  return nbr_ + cv.first;
}

// A stone of p appears on the empty vertex v; cell(v).root is set by the caller. Roots whose
// space drops to zero are listed in zeroed_[0, zero_count_). A neighbour's slot says both its
// count and whether it is occupied, so one read of it decides. The neighbour updates are
// branch-free: where a branch would skip a root-space change, a change of 0 goes to the
// scratch counter (root_or_scratch), and the legal-set bit flips by 0. Members are read into
// locals first, as the compiler must otherwise reload them after every store.
void PositionCore::occupy(Vertex v, Player p) {
  const bool two = players_ == 2;
  switch (sets_) {
    case Sets::kOne:
      return two ? occupy_impl<Sets::kOne, 2>(v, p) : occupy_impl<Sets::kOne, 0>(v, p);
    case Sets::kFew:
      return two ? occupy_impl<Sets::kFew, 2>(v, p) : occupy_impl<Sets::kFew, 0>(v, p);
    case Sets::kMany:
      return two ? occupy_impl<Sets::kMany, 2>(v, p) : occupy_impl<Sets::kMany, 0>(v, p);
  }
}

template <PositionCore::Sets kSets, int kPlayers>
void PositionCore::occupy_impl(Vertex v, Player p) {
  std::byte* const base = cells_.data();
  const std::size_t stride = stride_;
  const int players = kPlayers ? kPlayers : players_;
  std::uint32_t* const space = spaces();
  RootId* const zero = zeroed_.data();
  std::uint32_t nz = 0;
  Cell& cv = cell(v);
  const RootId r = cv.root;
  {
    // v stops being root space for every colour it was root space of, and is marked occupied
    // in every slot.
    Slot* sv = reinterpret_cast<Slot*>(base + v * stride + sizeof(Cell));
    for (int c = 0; c < players; ++c) {
      const std::uint32_t one = static_cast<std::uint32_t>(sv[c].bits) == 1;
      sv[c].bits |= Slot::kOccupied;
      const RootId owner = sv[c].xr();
      const std::uint32_t left = (space[root_or_scratch(one, owner)] -= one);
      zero[nz] = owner;
      nz += one & (left == 0);
      legal_flip_one<kSets>(static_cast<std::size_t>(c), v, 0, one);
    }
  }
  cv.color = p;
  hash_ ^= zobrist(v, p);
  Vertex around[kMaxLatticeDirections];
  const Vertex* nb = neighbour_list<kSets>(cv, v, around);
  const Vertex* const end = nb + cv.degree;
  // Big boards: fetch every neighbour record at once. On lattices play() has asked for them
  // already (prefetch_point); asking again from the list measured no slower, and without it a
  // move of a recorded 1000x1000 game measured about 15% slower, so both stay.
  if constexpr (kSets == Sets::kMany) {
    for (const Vertex* i = nb; i != end; ++i) platform::prefetch_for_write(base + *i * stride);
  }
  const std::size_t q = p - 1u;
  std::byte* const slot_base = base + sizeof(Cell) + q * sizeof(Slot);  // p's slot of record 0
  std::uint64_t* const bits = legal_bits_.data() + q * words_;
  std::uint32_t* const tree = legal_block_.data() + q * block_stride_;
  const std::uint32_t supers = supers_;
  const std::uint64_t r_high = std::uint64_t{r} << 32;
  std::uint32_t delta = 0;  // change of p's legal-set size
  std::uint32_t gains = 0;  // points joining r's space
  for (; nb != end; ++nb) {
    const Vertex u = *nb;
    const std::size_t at = u * stride;
    Slot& s = *reinterpret_cast<Slot*>(slot_base + at);
    const std::uint64_t w = s.bits;
    s.bits = (w + 1) ^ r_high;                         // one more neighbour of colour p, in root r
    const auto old = static_cast<std::uint32_t>(w);    // the count, and 2^31 if u is occupied
    const auto single = static_cast<RootId>(w >> 32);  // old == 1: the root of that neighbour
    const std::uint32_t gain = old == 0;               // u is empty and joins the space of r
    const std::uint32_t lose = old == 1;  // u is empty and leaves the space of single's root
    gains += gain;  // added to r's space after the loop (zero entries are re-checked by play)
    const std::uint32_t left = (space[root_or_scratch(lose, single)] -= lose);
    zero[nz] = single;
    nz += lose & (left == 0);
    legal_flip<kSets>(bits, tree, supers, u, gain, lose, delta);
  }
  space[r] += gains;
  legal_size_[q] += delta;
  if constexpr (kSets == Sets::kOne) tree[0] += delta;
  zero_count_ = nz;
}

// The stone on v disappears (its root bookkeeping is the caller's). Branch-free like occupy.
void PositionCore::vacate(Vertex v) {
  vacate_stones<false>(v);
}

// Every stone of root r disappears, along its list.
void PositionCore::vacate_root(RootId r) {
  vacate_stones<true>(roots_[r].head);
}

template <bool kList>
void PositionCore::vacate_stones(Vertex first) {
  if (compact_) return vacate_compact<kList>(first);
  const bool two = players_ == 2;
  switch (sets_) {
    case Sets::kOne:
      return two ? vacate_impl<Sets::kOne, 2, kList>(first)
                 : vacate_impl<Sets::kOne, 0, kList>(first);
    case Sets::kFew:
      return two ? vacate_impl<Sets::kFew, 2, kList>(first)
                 : vacate_impl<Sets::kFew, 0, kList>(first);
    case Sets::kMany:
      return two ? vacate_impl<Sets::kMany, 2, kList>(first)
                 : vacate_impl<Sets::kMany, 0, kList>(first);
  }
}

// Takes the stone on `first` off the board, and with kList the stones after it in its root's
// list too (a removal: one call, so that what every stone needs is loaded once). On big
// lattices the next stone's record and its neighbours' are fetched while one is handled.
template <PositionCore::Sets kSets, int kPlayers, bool kList>
void PositionCore::vacate_impl(Vertex first) {
  std::byte* const base = cells_.data();
  const std::size_t stride = stride_;
  const int players = kPlayers ? kPlayers : players_;
  std::uint32_t* const space = spaces();
  const bool fetch_ahead = kList && !prefetch_.empty();
  const Player p = cell(first).color;
  const RootId r = cell(first).root;
  const std::size_t q = p - 1u;
  std::byte* const slot_base = base + sizeof(Cell) + q * sizeof(Slot);
  std::uint64_t* const bits = legal_bits_.data() + q * words_;
  std::uint32_t* const tree = legal_block_.data() + q * block_stride_;
  const std::uint32_t supers = supers_;
  const std::uint64_t r_high = std::uint64_t{r} << 32;
  std::uint64_t hash = hash_;
  std::uint32_t delta = 0;
  std::uint32_t losses = 0;  // points leaving r's space
  for (Vertex v = first; v != kNoVertex;) {
    Cell& cv = cell(v);
    const Vertex after = kList ? cv.next : kNoVertex;  // the list stays as it is
    if (fetch_ahead && after != kNoVertex) prefetch_point(after);
    cv.color = kEmpty;
    hash ^= zobrist(v, p);
    Vertex around[kMaxLatticeDirections];
    const Vertex* nb = neighbour_list<kSets>(cv, v, around);
    const Vertex* const end = nb + cv.degree;
    for (; nb != end; ++nb) {
      const Vertex u = *nb;
      const std::size_t at = u * stride;
      Slot& s = *reinterpret_cast<Slot*>(slot_base + at);
      const std::uint64_t w = s.bits ^ r_high;  // the count (>= 1) and the XOR without r
      s.bits = w - 1;
      const auto old = static_cast<std::uint32_t>(w);  // the count, and 2^31 if u is occupied
      const auto rest = static_cast<RootId>(w >> 32);  // old == 2: the other neighbour's root
      const std::uint32_t lose = old == 1;             // u is empty and leaves the space of r
      const std::uint32_t gain = old == 2;             // u is empty and joins rest's root's space
      losses += lose;
      space[root_or_scratch(gain, rest)] += gain;
      legal_flip<kSets>(bits, tree, supers, u, gain, lose, delta);
    }
    // v becomes root space for every colour with exactly one stone next to it.
    Slot* sv = reinterpret_cast<Slot*>(base + v * stride + sizeof(Cell));
    for (int c = 0; c < players; ++c) {
      sv[c].bits &= ~Slot::kOccupied;
      const std::uint32_t one = static_cast<std::uint32_t>(sv[c].bits) == 1;
      space[root_or_scratch(one, sv[c].xr())] += one;
      legal_flip_one<kSets>(static_cast<std::size_t>(c), v, one, 0);
    }
    v = after;
  }
  hash_ = hash;
  space[r] -= losses;
  legal_size_[q] += delta;
  if constexpr (kSets == Sets::kOne) tree[0] += delta;
}

// Asks for both ends of each record: records that keep their neighbour list (40 to 56 bytes,
// wrapped lattices) are not a divisor of the cache line, so half of them straddle two lines
// (padding them to 64 bytes measured slower: more lines a move). The 32-byte records of
// unwrapped lattices never straddle; their second request finds the line already asked for.
void PositionCore::prefetch_point(Vertex v) const {
  const auto at = reinterpret_cast<std::uintptr_t>(cells_.data()) + v * stride_;
  if (compact_) {
    // 8-byte words never straddle lines, and the words before and after v's (asked for with
    // the first axis) share a line with it, one or the other.
    for (std::ptrdiff_t d : prefetch_) {
      platform::prefetch_for_write(
          reinterpret_cast<const void*>(at + static_cast<std::uintptr_t>(d)));
    }
    return;
  }
  const std::uintptr_t last = stride_ - 1;
  platform::prefetch_for_write(reinterpret_cast<const void*>(at));
  platform::prefetch_for_write(reinterpret_cast<const void*>(at + last));
  for (std::ptrdiff_t d : prefetch_) {
    const std::uintptr_t u = at + static_cast<std::uintptr_t>(d);
    platform::prefetch_for_write(reinterpret_cast<const void*>(u));
    platform::prefetch_for_write(reinterpret_cast<const void*>(u + last));
  }
}

// ---- compact records (see PositionCore::word)

namespace {

// a mod d for a 32-bit a, with magic = 2^64 / d rounded up (Lemire, Kaser and Kurz, "Faster
// remainder by direct computation", 2019): two multiplications instead of a division.
inline std::uint32_t fast_mod(std::uint32_t a, std::uint64_t magic, std::uint32_t d) {
  __extension__ using U128 = unsigned __int128;
  const std::uint64_t low = magic * a;
  return static_cast<std::uint32_t>((static_cast<U128>(low) * d) >> 64);
}

}  // namespace

void PositionCore::compact_neighbours(Vertex v, Vertex* out) const {
  // Along axis a: the coordinate is (v mod span) / step, so the point has a neighbour at
  // + step when (v mod span) + step < span and at - step when (v mod span) >= step. The last
  // axis's span is the board (no remainder needed). Past an edge: the point on the other side
  // on a torus, else the border word.
  for (std::uint32_t a = 0; a < axes_; ++a) {
    const std::uint32_t step = axis_step_[a], span = axis_span_[a];
    const std::uint32_t m = a + 1 == axes_ ? v : fast_mod(v, axis_magic_[a], span);
    const Vertex up_edge = compact_wrap_ ? v + step - span : n_;
    const Vertex down_edge = compact_wrap_ ? v + span - step : n_;
    out[2 * a] = m + step < span ? v + step : up_edge;
    out[2 * a + 1] = m >= step ? v - step : down_edge;
  }
}

PositionCore::Slot PositionCore::slot_at(Vertex v, Player p) const {
  if (!compact_) return slot(v, p);
  const std::uint32_t h = half(v, p);
  Slot s;
  s.bits = (h & kHalfOccupied) ? Slot::kOccupied
                               : (std::uint64_t{h >> kHalfShift} << 32) | (h & kHalfCount);
  return s;
}

std::uint32_t PositionCore::neighbours_of(Vertex v, Player p) const {
  if (!compact_) return slot(v, p).count();
  if (at(v) == kEmpty) return half(v, p) & kHalfCount;
  std::uint32_t count = 0;
  for (Vertex u : graph().neighbours(v)) count += at(u) == p;
  return count;
}

void PositionCore::put_stone(Vertex v, Player p, RootId r, Vertex next) {
  if (compact_) return occupy_compact(v, p, r, next);
  Cell& cv = cell(v);
  cv.root = r;
  cv.next = next;
  occupy(v, p);
}

// occupy_impl for compact records (two players, many blocks): the same updates, on one word a
// point, where an occupied neighbour's word (or the border's) is written back unchanged.
void PositionCore::occupy_compact(Vertex v, Player p, RootId r, Vertex next) {
  std::uint64_t* const words = reinterpret_cast<std::uint64_t*>(cells_.data());
  std::uint32_t* const space = spaces();
  RootId* const zero = zeroed_.data();
  std::uint32_t nz = 0;
  {
    // v stops being root space for each colour it was root space of.
    const std::uint64_t wv = words[v];
    for (std::uint32_t c = 0; c < 2; ++c) {
      const auto h = static_cast<std::uint32_t>(wv >> (32 * c));
      const std::uint32_t one = (h & kHalfState) == 1;
      const RootId owner = h >> kHalfShift;
      const std::uint32_t left = (space[root_or_scratch(one, owner)] -= one);
      zero[nz] = owner;
      nz += one & (left == 0);
      legal_flip_one<Sets::kMany>(c, v, 0, one);
    }
  }
  words[v] = (std::uint64_t{((next + 1) << kHalfShift) | kHalfOccupied} << 32) | (r << kHalfShift) |
             kHalfOccupied | p;
  hash_ ^= zobrist(v, p);
  Vertex around[2 * kMaxCompactAxes];
  compact_neighbours(v, around);
  const std::uint32_t degree = 2 * axes_;
  for (std::uint32_t i = 0; i < degree; ++i) platform::prefetch_for_write(words + around[i]);
  const std::size_t q = p - 1u;
  std::uint32_t* const halves = reinterpret_cast<std::uint32_t*>(words) + q;
  std::uint64_t* const bits = legal_bits_.data() + q * words_;
  std::uint32_t* const tree = legal_block_.data() + q * block_stride_;
  const std::uint32_t supers = supers_;
  const std::uint32_t r_high = r << kHalfShift;
  std::uint32_t delta = 0;  // change of p's legal-set size
  std::uint32_t gains = 0;  // points joining r's space
  for (std::uint32_t i = 0; i < degree; ++i) {
    const Vertex u = around[i];
    std::uint32_t& hu = halves[2 * std::size_t{u}];
    const std::uint32_t h = hu;
    hu = (h & kHalfOccupied) ? h : (h + 1) ^ r_high;  // one more neighbour of colour p, in r
    const std::uint32_t old = h & kHalfState;         // the count, and 32 if u is occupied
    const RootId single = h >> kHalfShift;            // old == 1: the root of that neighbour
    const std::uint32_t gain = old == 0;              // u is empty and joins the space of r
    const std::uint32_t lose = old == 1;  // u is empty and leaves the space of single's root
    gains += gain;
    const std::uint32_t left = (space[root_or_scratch(lose, single)] -= lose);
    zero[nz] = single;
    nz += lose & (left == 0);
    legal_flip<Sets::kMany>(bits, tree, supers, u, gain, lose, delta);
  }
  space[r] += gains;
  legal_size_[q] += delta;
  zero_count_ = nz;
}

// vacate_impl for compact records. An occupied point keeps no slots, so each vacated point's
// are computed from its neighbours: of its own colour p only stones of its root r can touch it
// (a stone's neighbours of its colour are in its root), those not taken off yet; of the other
// colour the stones there, with their roots.
template <bool kList>
void PositionCore::vacate_compact(Vertex first) {
  std::uint64_t* const words = reinterpret_cast<std::uint64_t*>(cells_.data());
  std::uint32_t* const space = spaces();
  const Player p = at(first);
  const RootId r = root_here(first);
  const std::size_t q = p - 1u;
  const Player other = static_cast<Player>(3 - p);
  std::uint32_t* const halves = reinterpret_cast<std::uint32_t*>(words);
  std::uint64_t* const bits = legal_bits_.data() + q * words_;
  std::uint32_t* const tree = legal_block_.data() + q * block_stride_;
  const std::uint32_t supers = supers_;
  const std::uint32_t r_high = r << kHalfShift;
  const std::uint32_t degree = 2 * axes_;
  const bool keep = kList && recording_;  // undo needs the list, which the slots overwrite
  std::uint64_t hash = hash_;
  std::uint32_t delta = 0;
  std::uint32_t losses = 0;  // points leaving r's space
  for (Vertex v = first; v != kNoVertex;) {
    const Vertex after = kList ? next_here(v) : kNoVertex;
    if (kList && after != kNoVertex) prefetch_point(after);
    if (keep) removed_stones_.push_back(v);
    hash ^= zobrist(v, p);
    Vertex around[2 * kMaxCompactAxes];
    compact_neighbours(v, around);
    std::uint32_t own = 0, others = 0, others_xor = 0;
    for (std::uint32_t i = 0; i < degree; ++i) {
      const Vertex u = around[i];
      const std::uint32_t low = halves[2 * std::size_t{u}];
      std::uint32_t& hu = halves[2 * std::size_t{u} + q];
      const std::uint32_t h = hu;
      const std::uint32_t occupied = h & kHalfOccupied;
      const std::uint32_t w = (h ^ r_high) - 1;  // the count and the XOR without r
      hu = occupied ? h : w;
      const std::uint32_t old = h & kHalfState;
      const std::uint32_t lose = old == 1;  // u is empty and leaves the space of r
      const std::uint32_t gain = old == 2;  // u is empty and joins the other neighbour's root's
      losses += lose;
      space[root_or_scratch(gain, w >> kHalfShift)] += gain;
      legal_flip<Sets::kMany>(bits, tree, supers, u, gain, lose, delta);
      const std::uint32_t colour = occupied ? (low & kHalfCount) : 0;
      own += colour == p;
      const std::uint32_t theirs = colour == other;
      others += theirs;
      others_xor ^= theirs ? low >> kHalfShift : 0;
    }
    std::uint32_t hv[2];
    hv[q] = own | ((own & 1) ? r_high : 0);
    hv[1 - q] = others | (others_xor << kHalfShift);
    words[v] = (std::uint64_t{hv[1]} << 32) | hv[0];
    // v becomes root space for every colour with exactly one stone next to it.
    for (std::uint32_t c = 0; c < 2; ++c) {
      const std::uint32_t one = (hv[c] & kHalfState) == 1;
      space[root_or_scratch(one, hv[c] >> kHalfShift)] += one;
      legal_flip_one<Sets::kMany>(c, v, one, 0);
    }
    v = after;
  }
  hash_ = hash;
  space[r] -= losses;
  legal_size_[q] += delta;
}

template <class F>
void PositionCore::for_each_stone(RootId r, F&& f) {
  for (Vertex s = roots_[r].head; s != kNoVertex;) {
    const Vertex next = cell(s).next;  // f leaves the list as it is
    if (next != kNoVertex && !prefetch_.empty()) prefetch_point(next);
    f(s);
    s = next;
  }
}

void PositionCore::remove_root(RootId r) {
  Root& root = roots_[r];
  vacate_root(r);
  root.alive = false;
  stones_[root.owner - 1] -= root.size;
  --root_count_[root.owner - 1];
}

void PositionCore::restore_root(RootId r) {
  Root& root = roots_[r];
  if (compact_) {
    // The list was kept in removed_stones_ from the head on: rebuild it from its end.
    Vertex next = kNoVertex;
    for (std::uint32_t i = 0; i < root.size; ++i) {
      const Vertex s = removed_stones_.back();
      removed_stones_.pop_back();
      occupy_compact(s, root.owner, r, next);
      next = s;
    }
  } else {
    for_each_stone(r, [&](Vertex s) {
      cell(s).root = r;  // another root may have used the point while this one was off the board
      occupy(s, root.owner);
    });
  }
  root.alive = true;
  stones_[root.owner - 1] += root.size;
  ++root_count_[root.owner - 1];
}

std::uint8_t PositionCore::compute_out() const {
  std::uint8_t out = out_;
  for (int p = 0; p < players_; ++p) {
    if (stones_[p] == 0) out |= static_cast<std::uint8_t>(1u << p);
  }
  return out;
}

// Chooses the next side to move after `from` moved, or ends the game. Players can only drop
// out when stones were removed, so the out mask is recomputed only then.
void PositionCore::advance_turn(Player from, bool removals) {
  if (removals) {
    out_ = compute_out();
    const std::uint8_t all = static_cast<std::uint8_t>((1u << players_) - 1u);
    const std::uint8_t in = static_cast<std::uint8_t>(all & ~out_);
    if ((in & (in - 1)) == 0) {  // at most one player left
      to_move_ = kEmpty;
      winner_ = in ? static_cast<Player>(std::countr_zero(static_cast<unsigned>(in)) + 1) : kEmpty;
      return;
    }
  }
  to_move_ = player_after(from);
}

// The next player after `from` in cyclic order still in: without a branch on whose turn it
// was (with two players the turn alternates, which a simple branch predictor gets wrong every
// time).
Player PositionCore::player_after(Player from) const {
  unsigned p = from;
  do {
    const unsigned wrap = p == static_cast<unsigned>(players_);
    p = ((p + 1) & (wrap - 1u)) | wrap;
  } while ((out_ >> (p - 1)) & 1u);
  return static_cast<Player>(p);
}

Player PositionCore::next_player() const {
  return player_after(to_move_);
}

MoveStatus PositionCore::check_move(Player p, Vertex v) const {
  if (is_over()) return MoveStatus::kGameOver;
  if (p < 1 || p > players_ || is_out(p)) return MoveStatus::kPlayerOut;
  if (p != to_move_) return MoveStatus::kNotYourTurn;
  if (v >= n_) return MoveStatus::kOffBoard;
  if (at(v) != kEmpty) return MoveStatus::kOccupied;
  const std::uint32_t c = slot_at(v, p).count();
  if (c == 0) return MoveStatus::kNoConnection;
  if (c > 1) return MoveStatus::kTooMany;
  return MoveStatus::kLegal;
}

std::uint32_t PositionCore::joined_space_after(Player p, Vertex v) const {
  const RootId e = slot_at(v, p).xr();
  // v leaves e's space; an empty neighbour with no stone of p joins it; an empty neighbour
  // whose only stone of p is in e leaves it (it would touch two). A slot's low half is the
  // count plus 2^31 when the point is occupied, so one comparison also says "empty".
  std::uint32_t space = root_space(e) - 1;
  for (Vertex u : graph().neighbours(v)) {
    const std::uint64_t w = slot_at(u, p).bits;
    const auto low = static_cast<std::uint32_t>(w);
    space += (low == 0) - ((low == 1) & (static_cast<RootId>(w >> 32) == e));
  }
  return space;
}

std::uint32_t PositionCore::others_bounded(Player p, Vertex v) const {
  const std::uint32_t* space = spaces();
  std::uint32_t bounded = 0;
  for (int c = 0; c < players_; ++c) {
    const Slot sc = slot_at(v, static_cast<Player>(c + 1));
    const std::uint32_t one = (static_cast<std::uint32_t>(sc.bits) == 1) & (c + 1 != p);
    bounded += one & (space[root_or_scratch(one, sc.xr())] == 1);
  }
  return bounded;
}

std::string PositionCore::explain(Player p, Vertex v) const {
  const MoveStatus st = check_move(p, v);
  const Topology& t = *topo_;
  switch (st) {
    case MoveStatus::kLegal:
      return "";
    case MoveStatus::kGameOver:
      return "the game is over: " + player_title(winner_) + " has won";
    case MoveStatus::kPlayerOut:
      if (p < 1 || p > players_) {
        return "there is no player " + std::to_string(p) + " in this " + std::to_string(players_) +
               "-player game";
      }
      return player_title(p) + " is out of the game";
    case MoveStatus::kNotYourTurn:
      return "it is " + player_title(to_move_) + "'s turn, not " + player_title(p) + "'s";
    case MoveStatus::kOffBoard:
      return "not on this board";
    case MoveStatus::kOccupied:
      return t.name(v) + " is occupied by " + player_title(at(v));
    case MoveStatus::kNoConnection:
      return "no " + player_title(p) + " stone touches " + t.name(v);
    case MoveStatus::kTooMany: {
      std::string list;
      std::uint32_t count = 0;
      for (Vertex u : t.graph.neighbours(v)) {
        if (at(u) == p) {
          list += (count++ ? ", " : "") + t.name(u);
        }
      }
      return t.name(v) + " touches " + std::to_string(count) + " " + player_title(p) +
             " stones: " + list + " (a stone must touch exactly one of its own colour)";
    }
  }
  return "illegal move";
}

std::vector<Vertex> PositionCore::legal_moves(Player p) const {
  std::vector<Vertex> out;
  out.reserve(legal_size_[p - 1]);
  const std::uint64_t* bits = legal_bits_.data() + (p - 1u) * std::size_t{words_};
  for (std::uint32_t w = 0; w < words_; ++w) {
    for (std::uint64_t word = bits[w]; word; word &= word - 1) {
      out.push_back(w * 64 + static_cast<Vertex>(std::countr_zero(word)));
    }
  }
  return out;
}

const MoveRecord& PositionCore::play(Vertex v) {
  return compact_ ? play_impl<true>(v) : play_impl<false>(v);
}

// play for one layout of the records: the layout's branches stay out of small boards' moves
// (with them a 19x19 move took 19 instructions more and measured 2% slower).
template <bool kCompact>
const MoveRecord& PositionCore::play_impl(Vertex v) {
  // Big lattices: fetch the point's record and its neighbours' records at once.
  if (!prefetch_.empty()) prefetch_point(v);
  const Player p = to_move_;
  if (!recording_) forget_last();
  MoveRecord& rec = history_.emplace_back();
  rec.kind = MoveRecord::Kind::kPlace;
  rec.player = p;
  rec.vertex = v;
  rec.to_move_before = p;
  rec.out_before = out_;
  const RootId e = kCompact ? half(v, p) >> kHalfShift : slot(v, p).xr();
  rec.expanded = e;
  rec.removed_begin = rec.removed_end = static_cast<std::uint32_t>(removed_.size());

  // Place the stone and grow the expanded root.
  Root& er = roots_[e];
  // General records: the point may sit in the list of a removed root (compact ones keep such
  // lists in removed_stones_).
  const Vertex next = er.head;
  er.head = v;
  ++er.size;
  ++stones_[p - 1];
  if constexpr (kCompact) {
    rec.prev_next = kNoVertex;
    occupy_compact(v, p, e, next);
  } else {
    Cell& cv = cell(v);
    cv.root = e;
    rec.prev_next = cv.next;
    cv.next = next;
    occupy(v, p);
  }

  // Remove bounded roots.
  if (root_space(e) == 0) {
    rec.expanded_removed = true;
    rec.stones_removed = er.size;
    removed_.push_back(e);
    remove_root(e);
  } else {
    // Every root the move bounded is listed first, then removed (a removal gives others
    // space). A root other than the expanded one only loses space while the stone is placed,
    // so it is listed at most once; the expanded root may be listed but is not bounded.
    for (std::uint32_t z = 0; z < zero_count_; ++z) {
      const RootId r = zeroed_[z];
      if (r != e && root_space(r) == 0) {
        rec.stones_removed += roots_[r].size;
        removed_.push_back(r);
      }
    }
    for (std::size_t i = rec.removed_begin; i < removed_.size(); ++i) remove_root(removed_[i]);
  }
  rec.removed_end = static_cast<std::uint32_t>(removed_.size());
  advance_turn(p, rec.removed_end != rec.removed_begin);
  return rec;
}

const MoveRecord& PositionCore::play_checked(Player p, Vertex v) {
  if (check_move(p, v) != MoveStatus::kLegal) throw Error(explain(p, v));
  return play(v);
}

const MoveRecord& PositionCore::resign(Player p) {
  if (is_over()) throw Error("the game is over");
  if (p < 1 || p > players_) throw Error("there is no player " + std::to_string(p));
  if (is_out(p)) throw Error(player_title(p) + " is already out of the game");
  if (!recording_) forget_last();
  MoveRecord rec;
  rec.kind = MoveRecord::Kind::kResign;
  rec.player = p;
  rec.to_move_before = to_move_;
  rec.out_before = out_;
  rec.removed_begin = static_cast<std::uint32_t>(removed_.size());
  for (RootId r = 0; r < roots_.size(); ++r) {
    if (roots_[r].alive && roots_[r].owner == p) {
      rec.stones_removed += roots_[r].size;
      removed_.push_back(r);
      remove_root(r);
    }
  }
  rec.removed_end = static_cast<std::uint32_t>(removed_.size());
  out_ |= static_cast<std::uint8_t>(1u << (p - 1));
  history_.push_back(rec);
  // The turn passes on only when the resigning player was the one to move.
  if (p == to_move_) {
    advance_turn(p, true);
  } else {
    const Player keep = to_move_;
    advance_turn(p, true);
    if (!is_over()) to_move_ = keep;
  }
  return history_.back();
}

void PositionCore::undo() {
  if (!recording_) throw Error("this position keeps no record of its turns: nothing to undo");
  if (history_.empty()) throw Error("no move to undo");
  const MoveRecord rec = history_.back();
  history_.pop_back();
  // Restore removed roots (in reverse order of removal), then take the stone back.
  for (std::uint32_t i = rec.removed_end; i > rec.removed_begin; --i) restore_root(removed_[i - 1]);
  removed_.resize(rec.removed_begin);
  if (rec.kind == MoveRecord::Kind::kPlace) {
    const Vertex v = rec.vertex;
    Root& er = roots_[rec.expanded];
    er.head = next_here(v);
    vacate(v);
    if (!compact_) cell(v).next = rec.prev_next;
    --er.size;
    --stones_[rec.player - 1];
  }
  to_move_ = rec.to_move_before;
  out_ = rec.out_before;
  winner_ = kEmpty;
}

std::vector<Vertex> PositionCore::root_stones(RootId r) const {
  std::vector<Vertex> out;
  if (!roots_[r].alive) return out;
  for (Vertex s = roots_[r].head; s != kNoVertex; s = next_here(s)) out.push_back(s);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Vertex> PositionCore::root_space_points(RootId r) const {
  std::vector<Vertex> out;
  if (!roots_[r].alive) return out;
  const Player p = roots_[r].owner;
  for (Vertex u : legal_moves(p)) {
    if (slot_at(u, p).xr() == r) out.push_back(u);
  }
  return out;
}

std::vector<RootId> PositionCore::live_roots() const {
  std::vector<RootId> out;
  for (RootId r = 0; r < roots_.size(); ++r) {
    if (roots_[r].alive) out.push_back(r);
  }
  return out;
}

std::uint64_t PositionCore::hash() const {
  return hash_ ^ mix(0xABCDEF00ull + to_move_);
}

std::string PositionCore::check_consistency() const {
  std::ostringstream err;
  const Topology& t = *topo_;
  if (compact_ && compact_color(word(n_)) != kBorderColour)
    return "the border record of the board is overwritten";
  // Neighbour counts and XORs.
  for (Vertex v = 0; v < n_; ++v) {
    if (at(v) > players_) {
      err << "vertex " << t.name(v) << " holds player " << int(at(v));
      return err.str();
    }
    for (int q = 1; q <= players_; ++q) {
      std::uint32_t count = 0;
      RootId xr = 0;
      for (Vertex u : t.graph.neighbours(v)) {
        if (at(u) == q) {
          ++count;
          xr ^= root_here(u);
        }
      }
      const Slot have = slot_at(v, static_cast<Player>(q));
      if (((have.bits & Slot::kOccupied) != 0) != (at(v) != kEmpty)) {
        err << "occupied mark of " << t.name(v) << " for " << player_name(static_cast<Player>(q))
            << " is wrong";
        return err.str();
      }
      // Compact records keep no slots on occupied points.
      if (compact_ && at(v) != kEmpty) continue;
      if (have.count() != count || have.xr() != xr) {
        err << "neighbour count of " << t.name(v) << " for " << player_name(static_cast<Player>(q))
            << " is " << have.count() << ", should be " << count;
        return err.str();
      }
    }
  }
  // Roots: components, trees, seeds, sizes, lists, space.
  std::vector<std::uint32_t> stones(players_, 0), rcount(players_, 0);
  std::vector<std::uint8_t> seen(n_, 0);
  std::uint64_t h = 0;
  for (Vertex v = 0; v < n_; ++v) {
    if (at(v) != kEmpty) {
      h ^= zobrist(v, at(v));
      ++stones[at(v) - 1];
      const RootId r = root_here(v);
      if (r >= roots_.size() || !roots_[r].alive || roots_[r].owner != at(v)) {
        err << "stone at " << t.name(v) << " belongs to no live root of its colour";
        return err.str();
      }
    }
  }
  if (h != hash_) return "hash differs from the stones on the board";
  // Root space of every root in one pass over the empty points (O(n * degree), not per root).
  std::vector<std::uint32_t> space_of(roots_.size(), 0);
  for (Vertex u = 0; u < n_; ++u) {
    if (at(u) != kEmpty) continue;
    for (int q = 1; q <= players_; ++q) {
      std::uint32_t c = 0;
      Vertex only = kNoVertex;
      for (Vertex w : t.graph.neighbours(u)) {
        if (at(w) == q) {
          ++c;
          only = w;
        }
      }
      if (c == 1 && root_here(only) < space_of.size()) ++space_of[root_here(only)];
    }
  }
  for (RootId r = 0; r < roots_.size(); ++r) {
    const Root& root = roots_[r];
    if (!root.alive) continue;
    ++rcount[root.owner - 1];
    if (at(root.seed) != root.owner || root_here(root.seed) != r) {
      err << "root " << r << " has lost its seed " << t.name(root.seed);
      return err.str();
    }
    // Component by BFS from the seed.
    std::vector<Vertex> comp{root.seed};
    seen[root.seed] = 1;
    std::uint64_t inner_edges = 0;
    for (std::size_t i = 0; i < comp.size(); ++i) {
      for (Vertex u : t.graph.neighbours(comp[i])) {
        if (at(u) != root.owner) continue;
        ++inner_edges;
        if (!seen[u]) {
          seen[u] = 1;
          comp.push_back(u);
        }
      }
    }
    for (Vertex u : comp) {
      if (root_here(u) != r) {
        err << "stone " << t.name(u) << " touches root " << r << " but is in root " << root_here(u)
            << " (roots of one colour joined)";
        return err.str();
      }
    }
    if (inner_edges / 2 != comp.size() - 1) {
      err << "root " << r << " at " << t.name(root.seed) << " is not a tree";
      return err.str();
    }
    std::uint32_t listed = 0;
    for (Vertex s = root.head; s != kNoVertex; s = next_here(s)) {
      if (++listed > n_ || s >= n_ || at(s) != root.owner || root_here(s) != r) {
        return "stone list of root " + std::to_string(r) + " is broken";
      }
    }
    if (listed != comp.size() || root.size != comp.size()) {
      err << "root " << r << " has " << comp.size() << " stones, but size " << root.size
          << " and list " << listed;
      return err.str();
    }
    const std::uint32_t space = space_of[r];
    if (space != root_space(r)) {
      err << "root " << r << " has root space " << space << ", recorded " << root_space(r);
      return err.str();
    }
    if (space == 0 && !is_over()) {
      err << "root " << r << " at " << t.name(root.seed) << " is bounded";
      return err.str();
    }
    for (Vertex u : comp) seen[u] = 0;
  }
  for (int q = 0; q < players_; ++q) {
    if (stones[q] != stones_[q] || rcount[q] != root_count_[q]) {
      err << player_title(static_cast<Player>(q + 1)) << " stone or root count is wrong";
      return err.str();
    }
    // Legal sets.
    std::uint32_t want = 0;
    std::vector<std::uint32_t> per_block(blocks_, 0);
    for (Vertex v = 0; v < n_; ++v) {
      const bool legal = at(v) == kEmpty && slot_at(v, static_cast<Player>(q + 1)).count() == 1;
      const bool in_set = (legal_bits_[q * std::size_t{words_} + (v >> 6)] >> (v & 63)) & 1u;
      if (legal != in_set) {
        err << t.name(v) << (legal ? " is legal for " : " is illegal for ")
            << player_name(static_cast<Player>(q + 1))
            << (legal ? " but missing from its legal set" : " but in its legal set");
        return err.str();
      }
      if (legal) {
        ++want;
        ++per_block[sets_ == Sets::kOne ? 0 : v >> 9];
      }
    }
    for (std::uint32_t w = n_; w < words_ * 64u; ++w) {  // (compact: the border's bit too)
      if ((legal_bits_[q * std::size_t{words_} + (w >> 6)] >> (w & 63)) & 1u) {
        return "legal set has a bit beyond the board";
      }
    }
    if (want != legal_size_[q]) return "legal set size is wrong";
    const std::uint32_t* counts = legal_block_.data() + q * std::size_t{block_stride_};
    if (sets_ != Sets::kMany) {
      for (std::uint32_t b = 0; b < blocks_; ++b) {
        if (counts[b] != per_block[b]) return "legal block count is wrong";
      }
    } else {
      // Groups of 64 blocks, of 8 blocks, then blocks (see legal_flip); padding counts are 0.
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
    }
  }
  // Turn order.
  std::uint8_t out = out_;
  for (int q = 0; q < players_; ++q) {
    if (stones_[q] == 0 && !((out >> q) & 1u)) return "a player without stones is not out";
  }
  int in = 0;
  for (int q = 0; q < players_; ++q) in += !((out >> q) & 1u);
  if ((in <= 1) != is_over()) return "game-over state is wrong";
  if (!is_over() && is_out(to_move_)) return "side to move is out";
  return "";
}

}  // namespace tanbo::detail
