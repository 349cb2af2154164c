// The general store: per-point data for any graph and any number of players.
//
// Chosen for every board except two-player lattices of more than 4,096 points (those get the
// compact store, compact_store.hpp), and for any board with Position::Store::kGeneral.
//
// Per point one entry in a flat buffer: a Cell (colour, root, next stone of the root, where
// the neighbours are) followed by one 64-bit Slot per player, so that everything a move reads
// about a point shares a cache line: 32 bytes with two players, two entries to a line. A slot
// of colour c holds the number of neighbours of colour c (bits 0-30), a mark that the point is
// occupied (bit 31, the same in all of its slots) and the XOR of those neighbours' root ids
// (bits 32-63). Its low half is therefore 1 exactly when the point is empty root space of c,
// and a neighbour update is one read and one write of one word, without a branch. Occupied
// points keep their counts too. What this buys: any graph, and a 19x19 game's store (11.6
// KB) stays in the nearest cache; the updates mispredict 0.58 branches a move (cachegrind)
// against 10 when they branched on the contents; entries starting on a cache line gained 3%;
// and where many directions are off the board (11 axes of 3 points) these entries, which list
// only the neighbours there are, beat the compact ones (which played 16% slower there).
//
// Big boards (more than 32,768 points), whose entries no longer stay in the nearer caches:
//  - lattices without wrap compute a point's neighbours from a mask of the directions that stay
//    on the board (Cell::first), so the entry stays 32 bytes;
//  - other boards of degree up to 8 copy each point's neighbour list into its entry, so that a
//    move reads one line per point instead of two (its entry and its row of the graph);
//  - lattices fetch a point's and its neighbours' entries at once (prefetch_point), so that
//    their cache misses overlap.
//
// GeneralStore owns the buffer; its View (what the rules use, point_store.hpp) is a few pointers
// and sizes.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "point_store.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/core/tuning.hpp"

namespace tanbo::detail {

class GeneralStore {
  struct Cell;
  struct Slot;

 public:
  // An empty store of the board for `players` players.
  GeneralStore(const Topology& topology, int players);
  GeneralStore(const GeneralStore& other) { *this = other; }
  GeneralStore(GeneralStore&& other) noexcept { *this = std::move(other); }
  GeneralStore& operator=(const GeneralStore& other);  // keeps this buffer if big enough
  GeneralStore& operator=(GeneralStore&& other) noexcept;

  // The store as the rules read and write them (see point_store.hpp). A view: copying it copies
  // pointers, and its const functions may change the points it refers to.
  class View {
   public:
    Player color(Vertex v) const { return cell(v).color; }
    RootId root(Vertex v) const { return cell(v).root; }
    Vertex next(Vertex v) const { return cell(v).next; }
    SlotState slot(Vertex v, Player p) const {
      const std::uint64_t bits = slots(v)[p - 1].bits;
      return {static_cast<std::uint32_t>(bits), static_cast<RootId>(bits >> 32)};
    }

    template <bool kBig>
    [[gnu::always_inline]] std::span<const Vertex> neighbours(Vertex v, Vertex* scratch) const {
      const Cell& c = cell(v);
      if constexpr (kBig) {
        if (lattice_nbrs_) {
          std::uint32_t k = 0;
          for (std::uint32_t m = c.first; m != 0; m &= m - 1) {
            scratch[k++] = v + direction_step_[std::countr_zero(m)];
          }
          return {scratch, k};
        }
        if (inline_nbrs_) {
          return {
              reinterpret_cast<const Vertex*>(reinterpret_cast<const std::byte*>(&c) + nb_offset_),
              c.degree};
        }
      }
      return {nbr_ + c.first, c.degree};
    }

    // Asks for both ends of each entry: entries that keep their neighbour list (40 to 56
    // bytes, wrapped lattices) are not a divisor of the cache line, so half of them straddle
    // two lines (padding them to 64 bytes measured slower: more lines a move). The 32-byte
    // entries of unwrapped lattices never straddle; their second request finds the line
    // already asked for.
    void prefetch_point(Vertex v) const {
      if (prefetch_begin_ == prefetch_end_) return;
      const auto at = reinterpret_cast<std::uintptr_t>(base_) + v * stride_;
      const std::uintptr_t last = stride_ - 1;
      tuning::prefetch_for_write(reinterpret_cast<const void*>(at));
      tuning::prefetch_for_write(reinterpret_cast<const void*>(at + last));
      for (const std::ptrdiff_t* d = prefetch_begin_; d != prefetch_end_; ++d) {
        const std::uintptr_t u = at + static_cast<std::uintptr_t>(*d);
        tuning::prefetch_for_write(reinterpret_cast<const void*>(u));
        tuning::prefetch_for_write(reinterpret_cast<const void*>(u + last));
      }
    }
    [[gnu::always_inline]] void prefetch(std::span<const Vertex> around) const {
      for (const Vertex u : around) tuning::prefetch_for_write(base_ + u * stride_);
    }

    [[gnu::always_inline]] Vertex occupy(Vertex v, Player p, RootId r, Vertex next,
                                         int players) const {
      Cell& c = cell(v);
      const Vertex link = c.next;
      c.root = r;
      c.next = next;
      Slot* s = slots(v);
      for (int q = 0; q < players; ++q) s[q].bits |= Slot::kOccupied;
      c.color = p;
      return link;
    }
    void relink(Vertex v, Vertex link) const { cell(v).next = link; }

    // One more neighbour of colour p in root r.
    struct Adder {
      [[gnu::always_inline]] SlotState neighbour(Vertex u) const {
        std::uint64_t& s = *reinterpret_cast<std::uint64_t*>(slot0 + u * stride);
        const std::uint64_t w = s;
        s = (w + 1) ^ r_high;
        return {static_cast<std::uint32_t>(w), static_cast<RootId>(w >> 32)};
      }
      std::byte* slot0;  // p's slot of point 0
      std::size_t stride;
      std::uint64_t r_high;  // r in the XOR's place
    };
    Adder adder(Player p, RootId r) const {
      return Adder{slot_base(p), stride_, std::uint64_t{r} << 32};
    }

    // One neighbour of colour p in root r fewer.
    struct Taker {
      [[gnu::always_inline]] SlotState neighbour(Vertex u) const {
        std::uint64_t& s = *reinterpret_cast<std::uint64_t*>(slot0 + u * stride);
        const std::uint64_t w = s ^ r_high;  // the count (>= 1) and the XOR without r
        s = w - 1;
        return {static_cast<std::uint32_t>(w), static_cast<RootId>(w >> 32)};
      }
      // v is empty: its slots keep their counts, without the occupied mark.
      [[gnu::always_inline]] void vacate(Vertex v, int players) const {
        std::byte* entry = base + v * stride;
        reinterpret_cast<Cell*>(entry)->color = kEmpty;
        Slot* s = reinterpret_cast<Slot*>(entry + sizeof(Cell));
        for (int q = 0; q < players; ++q) s[q].bits &= ~Slot::kOccupied;
      }
      std::byte* base;   // point 0's entry
      std::byte* slot0;  // p's slot of point 0
      std::size_t stride;
      std::uint64_t r_high;
    };
    Taker taker(Player p, RootId r) const {
      return Taker{base_, slot_base(p), stride_, std::uint64_t{r} << 32};
    }

   private:
    friend class GeneralStore;
    Cell& cell(Vertex v) const { return *reinterpret_cast<Cell*>(base_ + v * stride_); }
    Slot* slots(Vertex v) const {
      return reinterpret_cast<Slot*>(base_ + v * stride_ + sizeof(Cell));
    }
    std::byte* slot_base(Player p) const { return base_ + sizeof(Cell) + (p - 1u) * sizeof(Slot); }

    std::byte* base_ = nullptr;    // point 0's entry
    std::size_t stride_ = 0;       // bytes per entry
    const Vertex* nbr_ = nullptr;  // the graph's neighbour lists (the topology outlives us)
    std::uint32_t nb_offset_ = 0;  // where an entry's own neighbour list starts
    bool inline_nbrs_ = false;     // entries hold their neighbour lists
    bool lattice_nbrs_ = false;    // neighbours computed from Cell::first, a mask of directions
    const std::uint32_t* direction_step_ = nullptr;   // per direction, the vertex id change
    const std::ptrdiff_t* prefetch_begin_ = nullptr;  // see prefetch_
    const std::ptrdiff_t* prefetch_end_ = nullptr;
  };
  const View& view() const { return view_; }

  std::uint32_t neighbours_of(Vertex v, Player p) const { return view_.slots(v)[p - 1].count(); }
  std::uint32_t max_neighbours() const { return max_degree_; }
  bool prefetches() const { return !prefetch_.empty(); }

  // A removed root's list stays in the store (a point reused meanwhile gets its link back
  // from relink on undo), so nothing is saved, and undo walks the list from its head.
  void save_removed(Vertex) {}
  void forget_removed() {}
  template <class F>
  void restore_removed(Vertex head, std::uint32_t /*size*/, F&& f) {
    const bool fetch_ahead = prefetches();
    for (Vertex s = head; s != kNoVertex;) {
      const Vertex next = view_.next(s);
      if (fetch_ahead && next != kNoVertex) view_.prefetch_point(next);
      f(s, next);
      s = next;
    }
  }

  std::string check(const Graph& graph, int players) const;

 private:
  struct Cell {
    RootId root;           // root of the stone here (meaningful when occupied)
    Vertex next;           // next stone of the same root
    std::uint32_t first;   // where the neighbours start in the graph's targets (or a mask of
                           // directions, see View::lattice_nbrs_)
    std::uint16_t degree;  // number of neighbours (graphs cap degree at 65535)
    Player color;          // kEmpty or the owner
    std::uint8_t pad;
  };
  struct Slot {
    std::uint64_t bits = 0;
    static constexpr std::uint64_t kOccupied = std::uint64_t{1} << 31;
    std::uint32_t count() const { return static_cast<std::uint32_t>(bits) & 0x7FFFFFFFu; }
  };
  static constexpr std::size_t kMaxLatticeDirections = kMaxComputedNeighbours;

  void point_view_here();  // points view_ at this object's buffers

  std::uint32_t n_ = 0;
  std::uint32_t max_degree_ = 0;
  View view_;
  std::array<std::uint32_t, kMaxLatticeDirections> direction_step_{};  // vertex id change
  // Byte offsets of a point's neighbours' entries (+-stride per axis) on big lattices, else
  // empty: prefetch_point asks for them all at once.
  std::vector<std::ptrdiff_t> prefetch_;
  std::vector<std::byte, BigBufferAllocator<std::byte>> cells_;  // per point: Cell + Slots
};

static_assert(PointStore<GeneralStore>);

}  // namespace tanbo::detail
