// The compact store: 8 bytes a point, for big two-player lattices.
//
// Chosen (fits()) for two players on lattices of more than 4,096 points with up to 15 axes, at
// most a fifth of the directions off the board, and on a torus every axis of 3 points or more.
// What they buy: a board of a million points keeps its points in 8 MB instead of the general
// store's 32 MB, which this machine's memory serves at about 45 ns a load instead of 170, and
// a move reads its entries at random places: one 1000x1000 game went from 224 to 128 ns a move
// (docs/performance.md); 3 to 7% more playouts a second from 65x65 to 150x150 and on 20x20x20.
// Where they do not pay they are not used: on 3x3x...x3 with 11 axes (a third of the directions
// off the board, each computed and pointing at the border) they played 16% slower.
//
// One 64-bit word per point, plus a border word at index n that stands for every neighbour off
// the board. Half p-1 (bits 32(p-1) .. 32(p-1)+31) of an empty point's word is its slot of
// player p: bits 0-4 the number of neighbours of that colour, bit 5 clear, bits 6-31 the XOR of
// their root ids. An occupied point's word has bit 5 set in both halves; its low half holds the
// colour (bits 0-4) and root (bits 6-31), its high half the next stone of the root's list plus
// one (bits 6-31, 0 for none). So (half & 63) == 1 exactly when the point is empty root space of
// that colour, as with the general store. Occupied points keep no neighbour counts: a removal
// recomputes each vacated point's slots from its neighbours, whose words it reads anyway (its
// own colour's neighbours are stones of the same root, the other colour's give their roots), and
// keeps a removed root's list apart for undo, since the slots overwrite it. The neighbours are
// computed from the coordinates (a remainder by multiplication per axis).
//
// CompactStore owns the words; its View (what the rules use, point_store.hpp) is a few pointers
// and sizes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pod_vector.hpp"
#include "point_store.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/core/tuning.hpp"

namespace tanbo::detail {

class CompactStore {
  static constexpr std::uint32_t kCount = 31;         // bits of the count (or colour)
  static constexpr std::uint32_t kOccupied = 32;      // the occupied bit
  static constexpr std::uint32_t kState = 63;         // the count and the occupied bit
  static constexpr int kShift = 6;                    // where the root XOR (or root, next) starts
  static constexpr std::uint32_t kBorderColour = 31;  // the border word's colour
  static constexpr std::uint32_t kMaxAxes = 15;       // 30 neighbours: a count fits 5 bits

  // Per axis: the vertex id step, the step of the next axis (the span of one line along this
  // axis) and Lemire's constant for v mod span.
  struct Axis {
    std::uint32_t step = 0;
    std::uint32_t span = 0;
    std::uint64_t magic = 0;
  };

 public:
  // Whether the compact store serve this board and number of players (see above).
  static bool fits(const Topology& topology, int players);
  // An empty store of the board (fits(topology, 2)).
  explicit CompactStore(const Topology& topology);
  CompactStore(const CompactStore& other) { *this = other; }
  CompactStore(CompactStore&& other) noexcept { *this = std::move(other); }
  CompactStore& operator=(const CompactStore& other);  // keeps this buffer if big enough
  CompactStore& operator=(CompactStore&& other) noexcept;

  // The store as the rules read and write them (see point_store.hpp). A view: copying it copies
  // pointers, and its const functions may change the points it refers to.
  class View {
   public:
    Player color(Vertex v) const { return color_of(words_[v]); }
    RootId root(Vertex v) const { return static_cast<RootId>(words_[v]) >> kShift; }
    Vertex next(Vertex v) const { return (half(v, kWhite) >> kShift) - 1; }
    SlotState slot(Vertex v, Player p) const {
      const std::uint32_t h = half(v, p);
      return {h & kState, h >> kShift};
    }

    // The 2 x axes neighbours, computed: along axis a the coordinate is (v mod span) / step, so
    // the point has a neighbour at + step when (v mod span) + step < span and at - step when
    // (v mod span) >= step. The last axis's span is the board (no remainder needed). Past an
    // edge: the point on the other side on a torus, else the border word.
    template <bool kBig>
    [[gnu::always_inline]] std::span<const Vertex> neighbours(Vertex v, Vertex* scratch) const {
      for (std::uint32_t a = 0; a < axes_; ++a) {
        const Axis& x = axis_[a];
        const std::uint32_t m = a + 1 == axes_ ? v : fast_mod(v, x.magic, x.span);
        const Vertex up_edge = wrap_ ? v + x.step - x.span : n_;
        const Vertex down_edge = wrap_ ? v + x.span - x.step : n_;
        scratch[2 * a] = m + x.step < x.span ? v + x.step : up_edge;
        scratch[2 * a + 1] = m >= x.step ? v - x.step : down_edge;
      }
      return {scratch, 2 * axes_};
    }

    // 8-byte words never straddle lines, and the words before and after v's (asked for with
    // the first axis) share a line with it, one or the other.
    void prefetch_point(Vertex v) const {
      const auto at = reinterpret_cast<std::uintptr_t>(words_ + v);
      for (const std::ptrdiff_t* d = prefetch_begin_; d != prefetch_end_; ++d) {
        tuning::prefetch_for_write(
            reinterpret_cast<const void*>(at + static_cast<std::uintptr_t>(*d)));
      }
    }
    [[gnu::always_inline]] void prefetch(std::span<const Vertex> around) const {
      for (const Vertex u : around) tuning::prefetch_for_write(words_ + u);
    }

    [[gnu::always_inline]] Vertex occupy(Vertex v, Player p, RootId r, Vertex next, int) const {
      words_[v] =
          (std::uint64_t{((next + 1) << kShift) | kOccupied} << 32) | (r << kShift) | kOccupied | p;
      return kNoVertex;  // nothing to relink: removed lists are kept apart
    }
    void relink(Vertex, Vertex) const {}

    // One more neighbour of colour p in root r; an occupied point (or the border) is written
    // back unchanged.
    struct Adder {
      [[gnu::always_inline]] SlotState neighbour(Vertex u) const {
        std::uint32_t& hu = halves[2 * std::size_t{u}];
        const std::uint32_t h = hu;
        hu = (h & kOccupied) ? h : (h + 1) ^ r_high;
        return {h & kState, h >> kShift};
      }
      std::uint32_t* halves;  // p's half of point 0's word, every second entry
      std::uint32_t r_high;   // r in the XOR's place
    };
    Adder adder(Player p, RootId r) const {
      return Adder{reinterpret_cast<std::uint32_t*>(words_) + (p - 1u), r << kShift};
    }

    // One neighbour of colour p in root r fewer; while it goes round the neighbours of a
    // vacated point it also counts the stones there, from which vacate() computes the point's
    // slots: of colour p only stones of root r can touch it, those not taken off yet; of the
    // other colour the stones there, with their roots.
    struct Taker {
      [[gnu::always_inline]] SlotState neighbour(Vertex u) {
        const std::uint32_t low = halves[2 * std::size_t{u}];
        std::uint32_t& hu = halves[2 * std::size_t{u} + q];
        const std::uint32_t h = hu;
        const std::uint32_t occupied = h & kOccupied;
        const std::uint32_t w = (h ^ r_high) - 1;  // the count and the XOR without r
        hu = occupied ? h : w;
        const std::uint32_t colour = occupied ? (low & kCount) : 0;
        own += colour == p;
        const std::uint32_t theirs = colour == other;
        others += theirs;
        others_xor ^= theirs ? low >> kShift : 0;
        return {h & kState, w >> kShift};
      }
      [[gnu::always_inline]] void vacate(Vertex v, int) {
        std::uint32_t hv[2];
        hv[q] = own | ((own & 1) ? r_high : 0);
        hv[1 - q] = others | (others_xor << kShift);
        reinterpret_cast<std::uint64_t*>(halves)[v] = (std::uint64_t{hv[1]} << 32) | hv[0];
        own = others = others_xor = 0;
      }
      std::uint32_t* halves;  // both halves of every word
      std::size_t q;          // p - 1
      std::uint32_t p, other;
      std::uint32_t r_high;
      std::uint32_t own = 0, others = 0, others_xor = 0;  // around the point being vacated
    };
    Taker taker(Player p, RootId r) const {
      return Taker{reinterpret_cast<std::uint32_t*>(words_), p - 1u, p, 3u - p, r << kShift};
    }

   private:
    friend class CompactStore;
    static Player color_of(std::uint64_t w) {
      const auto low = static_cast<std::uint32_t>(w);
      return static_cast<Player>((low & kOccupied) ? (low & kCount) : kEmpty);
    }
    std::uint32_t half(Vertex v, Player p) const {
      return static_cast<std::uint32_t>(words_[v] >> (32 * (p - 1)));
    }
    // a mod d for a 32-bit a, with magic = 2^64 / d rounded up (Lemire, Kaser and Kurz,
    // "Faster remainder by direct computation", 2019): two multiplications, no division.
    static std::uint32_t fast_mod(std::uint32_t a, std::uint64_t magic, std::uint32_t d) {
      __extension__ using U128 = unsigned __int128;
      const std::uint64_t low = magic * a;
      return static_cast<std::uint32_t>((static_cast<U128>(low) * d) >> 64);
    }

    std::uint64_t* words_ = nullptr;  // n + 1 words (the border last)
    std::uint32_t n_ = 0;
    std::uint32_t axes_ = 0;
    bool wrap_ = false;                               // the lattice is a torus
    const Axis* axis_ = nullptr;                      // per axis
    const std::ptrdiff_t* prefetch_begin_ = nullptr;  // see prefetch_
    const std::ptrdiff_t* prefetch_end_ = nullptr;
  };
  const View& view() const { return view_; }

  std::uint32_t neighbours_of(Vertex v, Player p) const;
  std::uint32_t max_neighbours() const { return 2 * view_.axes_; }
  bool prefetches() const { return !prefetch_.empty(); }

  // A removed root's stones, kept from its head on (undo takes them back from the end).
  void save_removed(Vertex v) { removed_.push_back(v); }
  void forget_removed() { removed_.clear(); }
  template <class F>
  void restore_removed(Vertex /*head*/, std::uint32_t size, F&& f) {
    Vertex next = kNoVertex;
    for (std::uint32_t i = 0; i < size; ++i) {
      const Vertex s = removed_.back();
      removed_.pop_back();
      f(s, next);
      next = s;
    }
  }

  std::string check(const Graph& graph, int players) const;

 private:
  void point_view_here();  // points view_ at this object's buffers

  View view_;
  std::array<Axis, kMaxAxes> axis_{};
  // Byte offsets of a point's neighbours' words (+-8 x step per axis) on lattices of more than
  // 32,768 points, else empty: prefetch_point asks for them all at once.
  std::vector<std::ptrdiff_t> prefetch_;
  std::vector<std::uint64_t, BigBufferAllocator<std::uint64_t>> words_;  // n + 1 (the border)
  PodVector<Vertex> removed_;  // the stones of the removed roots, for undo (grows with the record)
};

static_assert(PointStore<CompactStore>);

}  // namespace tanbo::detail
