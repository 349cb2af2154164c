// The state behind Position (include/tanbo/position.hpp) and the rules that change it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tanbo/platform.hpp"
#include "tanbo/pod_vector.hpp"
#include "tanbo/position.hpp"

namespace tanbo::detail {

struct PositionCore {
  using Records = Position::Records;

 public:
  // Sets up the starting position. Throws tanbo::Error when the setup is refused: a stone off
  // the board or of a player above setup.players, two seeds of one colour adjacent, a root
  // that is already bounded (naming it), or a player with no seed.
  //
  // `records` chooses how the per-point data is laid out. kAuto (the default) uses compact
  // records of 8 bytes a point for two players on lattices of more than 4,096 points with up to
  // 15 axes, at most a fifth of the directions off the board, and on a torus every axis of 3
  // points or more (a board of a million points then keeps 8 MB of records instead of 32 MB,
  // which a move reads at random places: see docs/performance.md), and the general records
  // elsewhere. kGeneral forces the general records; the game is the same either way (the tests
  // play both and compare).

  PositionCore(TopologyPtr topology, const Setup& setup, Records records = Records::kAuto);

  // Loads an arbitrary position, e.g. a diagram of a game in progress (implemented in
  // position_load.cpp). Each connected set of same-coloured stones becomes one root, whose seed
  // is its lowest-numbered stone; roots are numbered by seed. Throws tanbo::Error when a stone
  // is off the board, doubled or of a player above `players`, when a root is not a tree (a
  // closed loop or clump), when a root is bounded, when no player has stones, or when
  // `to_move` has no stones. Players without stones are out; with one player left the game is
  // over. setup() of the result is named "position" and lists every loaded stone.
  static PositionCore from_stones(TopologyPtr topology, int players,
                                  const std::vector<std::pair<Vertex, Player>>& stones,
                                  Player to_move = kBlack);

  // ---- the board
  const Topology& topology() const { return *topo_; }        // the board
  const TopologyPtr& topology_ptr() const { return topo_; }  // shared board
  const Graph& graph() const { return topo_->graph; }        // its adjacency
  const Setup& setup() const { return setup_; }              // how the game started
  std::uint32_t num_vertices() const { return n_; }          // points on the board
  int num_players() const { return players_; }               // 2..8
  Player at(Vertex v) const {                                // stone at v, kEmpty if none
    return compact_ ? compact_color(word(v)) : cell(v).color;
  }
  // Number of neighbours of v with a stone of player p.
  std::uint32_t neighbours_of(Vertex v, Player p) const;
  // Whether the records are the compact ones (see Records).
  bool compact_records() const { return compact_; }

  // ---- turn and result
  Player to_move() const { return to_move_; }  // side to move (kEmpty once the game is over)
  bool is_over() const { return to_move_ == kEmpty; }  // only one player has stones
  Player winner() const { return winner_; }            // the winner, kEmpty while playing
  bool is_out(Player p) const { return (out_ >> (p - 1)) & 1u; }  // no stones or resigned
  std::uint32_t ply() const {                                     // turns played
    return earlier_ + static_cast<std::uint32_t>(history_.size());
  }

  // ---- moves
  // Full legality check of player p putting a stone on v (including whose turn it is).
  MoveStatus check_move(Player p, Vertex v) const;
  // Whether v is a legal point for p on the board as it stands (ignores turn order).
  bool is_legal_point(Player p, Vertex v) const {
    if (compact_) return (half(v, p) & kHalfState) == 1;
    return cell(v).color == kEmpty && slot(v, p).count() == 1;
  }
  // Two facts about player p's stone on v, a legal point for p, known without playing it
  // (O(players) and O(degree), no branch on the board's contents):
  // - the root space that the root the stone joins would have with the stone placed, before
  //   any removal (0: the move bounds its own root, which alone is then removed);
  std::uint32_t joined_space_after(Player p, Vertex v) const;
  // - how many other players' roots have v as their last root-space point (the move bounds
  //   them; they are removed unless it also bounds its own root).
  std::uint32_t others_bounded(Player p, Vertex v) const;
  // A user-facing sentence saying why p cannot play v (names the stones it touches), or ""
  // when the move is legal.
  std::string explain(Player p, Vertex v) const;

  // Number of legal moves of p, and the i-th of them in increasing vertex order (for uniform
  // random choice: legal_move(p, rng.below(legal_count(p)))). legal_move finds the block of
  // 512 points from counts (see Sets), then scans its 8 words.
  std::uint32_t legal_count(Player p) const { return legal_size_[p - 1]; }
  Vertex legal_move(Player p, std::uint32_t i) const;
  // The same search without BMI2 instructions: what legal_move runs on CPUs without them
  // (tests compare the two on every machine).
  Vertex legal_move_portable(Player p, std::uint32_t i) const;
  // Legal moves of p in increasing vertex order.
  std::vector<Vertex> legal_moves(Player p) const;
  // Whether prefetch_move does anything: on lattices of more than 32,768 points, whose point
  // records no longer stay in the nearer caches.
  bool prefetches() const { return !prefetch_.empty(); }
  // A hint that a move at v may come soon: starts loading the records such a move reads (v's
  // and its neighbours'), so that their cache misses overlap other work. Changes nothing.
  void prefetch_move(Vertex v) const {
    if (!prefetch_.empty()) prefetch_point(v);
  }
  // The player who moves after the side to move if that move removes no stone (the next one in
  // cyclic order still in). Precondition: the game is not over.
  Player next_player() const;

  // Plays v for the side to move. Precondition: check_move(to_move(), v) == kLegal.
  // Returns the record of the turn (also available as last_move()).
  const MoveRecord& play(Vertex v);
  // Checks the move and plays it; throws tanbo::Error with explain()'s text when illegal.
  const MoveRecord& play_checked(Player p, Vertex v);
  // Player p resigns or leaves: all its roots are removed and play goes on without it.
  // With two players the other player wins at once. Throws if p is out or the game is over.
  const MoveRecord& resign(Player p);
  // Takes back the last turn exactly (stones, roots, counts, turn). Throws when there is none.
  void undo();
  // Forgets the turns played: the position stays as it is, ply() becomes 0 and undo() has
  // nothing to take back. A search that copies its root for every playout copies it without
  // the game record this way.
  void clear_history() {
    forget_last();
    earlier_ = 0;
  }
  // Keeps the game record (the default) or not. Without it each turn's record replaces the
  // last one: history() and last_move() hold the latest turn only, ply() still counts every
  // turn, and undo() throws. Random playouts need no undo, and on a board of a million points
  // the record would be 160 MB of writes a game. Turning it off forgets the record so far;
  // turning it on starts a new one (undo cannot go back beyond that point).
  void set_recording(bool on) {
    forget_last();
    recording_ = on;
  }
  bool recording() const { return recording_; }

  // ---- history
  std::span<const MoveRecord> history() const { return history_.view(); }  // every turn played
  const MoveRecord& last_move() const { return history_.back(); }  // precondition: ply() > 0
  // Removed root ids of a record: removed_roots()[rec.removed_begin .. rec.removed_end).
  std::span<const RootId> removed_roots() const { return removed_.view(); }

  // ---- roots
  std::uint32_t num_root_ids() const { return static_cast<std::uint32_t>(roots_.size()); }
  RootId root_of(Vertex v) const { return at(v) == kEmpty ? kNoRoot : root_here(v); }
  bool root_alive(RootId r) const { return roots_[r].alive; }         // still on the board
  Player root_owner(RootId r) const { return roots_[r].owner; }       // its colour
  std::uint32_t root_size(RootId r) const { return roots_[r].size; }  // stones in it
  std::uint32_t root_space(RootId r) const { return spaces()[r]; }    // root-space points
  Vertex root_seed(RootId r) const { return roots_[r].seed; }         // its starting stone
  std::vector<Vertex> root_stones(RootId r) const;                    // its stones, sorted
  std::vector<Vertex> root_space_points(RootId r) const;              // its root space, sorted
  std::vector<RootId> live_roots() const;                             // alive roots by id

  // ---- per player
  std::uint32_t stones(Player p) const { return stones_[p - 1]; }           // stones on the board
  std::uint32_t roots_alive(Player p) const { return root_count_[p - 1]; }  // live roots

  // Zobrist-style hash of the stones and the side to move.
  std::uint64_t hash() const;

  // Recomputes every incremental quantity from scratch and compares. Returns "" when all is
  // consistent, else a description of the first difference. Also checks the rule invariants:
  // no bounded root, every root a tree holding its seed.
  std::string check_consistency() const;

 public:
  // How the legal-move sets count their points per block of 512: one block (its count is the
  // set's size), a few blocks (a plain count each: a change costs no branch, a random choice
  // scans them) or many (a count per block, per group of 8 blocks and per group of 64 blocks,
  // 32,768 points: a change costs three additions, a random choice scans the groups of 64,
  // then 8 counts and 8 counts without a branch).
  enum class Sets : std::uint8_t { kOne, kFew, kMany };
  static constexpr std::uint32_t kFewBlocks = 8;  // up to 4,096 points: kFew

 public:
  PositionCore() = default;  // used by from_stones, which fills every member itself

  // Per vertex, one record in a flat buffer: a Cell followed by one Slot per player, so that
  // everything a move reads about a point shares a cache line (32 bytes with two players).
  struct Cell {
    RootId root;           // root of the stone here (meaningful when occupied)
    Vertex next;           // next stone of the same root (stone lists are intrusive)
    std::uint32_t first;   // where the neighbours start in the CSR targets (or a mask, see
                           // lattice_nbrs_)
    std::uint16_t degree;  // number of neighbours (graphs cap degree at 65535)
    Player color;          // kEmpty or the owner
    std::uint8_t pad;
  };
  struct Slot {
    // Bits 0-30: neighbours of this colour; bit 31: this point is occupied (the same in all of
    // its slots); bits 32-63: XOR of those neighbours' root ids (the root when there is one).
    // So the low half is 1 exactly when the point is empty root space of this colour.
    std::uint64_t bits = 0;
    static constexpr std::uint64_t kOccupied = std::uint64_t{1} << 31;
    std::uint32_t count() const { return static_cast<std::uint32_t>(bits) & 0x7FFFFFFFu; }
    RootId xr() const { return static_cast<RootId>(bits >> 32); }
  };
  struct Root {
    Player owner = kEmpty;
    bool alive = true;
    std::uint32_t size = 0;
    Vertex head = kNoVertex;  // most recent stone; the list runs through Cell::next
    Vertex seed = kNoVertex;
  };

  Cell& cell(Vertex v) { return *reinterpret_cast<Cell*>(cells_.data() + v * stride_); }
  const Cell& cell(Vertex v) const {
    return *reinterpret_cast<const Cell*>(cells_.data() + v * stride_);
  }
  Slot* slots(Vertex v) {
    return reinterpret_cast<Slot*>(cells_.data() + v * stride_ + sizeof(Cell));
  }
  const Slot* slots(Vertex v) const {
    return reinterpret_cast<const Slot*>(cells_.data() + v * stride_ + sizeof(Cell));
  }
  Slot& slot(Vertex v, Player p) { return slots(v)[p - 1]; }
  std::uint32_t* spaces() { return space_buf_.data() + 1; }  // root-space counts by root id
  const std::uint32_t* spaces() const { return space_buf_.data() + 1; }
  const Slot& slot(Vertex v, Player p) const { return slots(v)[p - 1]; }

  // Compact records (compact_): one 64-bit word per point, plus a border word at index n_ that
  // stands for every neighbour off the board. Half p-1 (bits 32(p-1) .. 32(p-1)+31) of an
  // empty point's word is its slot for player p: bits 0-4 the neighbours of that colour, bit 5
  // clear, bits 6-31 the XOR of their root ids. An occupied point's word has bit 5 set in both
  // halves; its low half holds the colour (bits 0-4) and root (bits 6-31), its high half the
  // next stone of the root's list plus one (bits 6-31, 0 for none). So (half & kHalfState) == 1
  // exactly when the point is empty root space of that colour, as with Slot. Occupied points
  // keep no neighbour counts (a removal recomputes them from the neighbours), and a removed
  // root's list is kept in removed_stones_ for undo, since its points' words become slots.
  static constexpr std::uint32_t kHalfCount = 31;       // bits of the count (or colour)
  static constexpr std::uint32_t kHalfOccupied = 32;    // the occupied bit
  static constexpr std::uint32_t kHalfState = 63;       // the count and the occupied bit
  static constexpr int kHalfShift = 6;                  // where the root XOR (or root, next) starts
  static constexpr std::uint32_t kBorderColour = 31;    // the border word's colour
  static constexpr std::uint32_t kMaxCompactAxes = 15;  // 30 neighbours: a count fits 5 bits
  std::uint64_t word(Vertex v) const {
    return reinterpret_cast<const std::uint64_t*>(cells_.data())[v];
  }
  std::uint32_t half(Vertex v, Player p) const {
    return static_cast<std::uint32_t>(word(v) >> (32 * (p - 1)));
  }
  static Player compact_color(std::uint64_t w) {
    const auto low = static_cast<std::uint32_t>(w);
    return static_cast<Player>((low & kHalfOccupied) ? (low & kHalfCount) : kEmpty);
  }
  RootId root_here(Vertex v) const {  // root of the stone on v
    return compact_ ? static_cast<RootId>(word(v)) >> kHalfShift : cell(v).root;
  }
  Vertex next_here(Vertex v) const {  // the stone after v in its root's list
    return compact_ ? (half(v, 2) >> kHalfShift) - 1 : cell(v).next;
  }
  // The slot of p at v as a Slot in either layout (with compact records the count and XOR of
  // an occupied point are not kept: such a slot reads as occupied with no neighbours).
  Slot slot_at(Vertex v, Player p) const;
  // Puts a stone of p on the empty v in root r, before `next` in r's list (the caller updates
  // the root itself).
  void put_stone(Vertex v, Player p, RootId r, Vertex next);
  // The compact records' occupy and removal (see occupy_impl and vacate_impl).
  void occupy_compact(Vertex v, Player p, RootId r, Vertex next);
  template <bool kList>
  void vacate_compact(Vertex first);
  // Compact records: the neighbours of v, 2 x axes_ of them computed from the coordinates: on a
  // torus across the edge, else the border index n_ for each direction off the board.
  void compact_neighbours(Vertex v, Vertex* out) const;

  // Sizes every per-vertex/per-player array.
  void allocate(std::uint32_t n, int players, Records records = Records::kAuto);
  void occupy(Vertex v, Player p);  // stone of p appears on v (cell(v).root already set)
  void vacate(Vertex v);            // stone on v disappears
  void vacate_root(RootId r);       // every stone of root r disappears
  template <bool kList>
  void vacate_stones(Vertex first);  // first, and with kList the rest of its root's list
  // occupy and vacate_stones for each kind of legal-move sets, for two players (kPlayers = 2,
  // the loops over colours unrolled) or any number (0).
  template <Sets kSets, int kPlayers>
  void occupy_impl(Vertex v, Player p);
  template <Sets kSets, int kPlayers, bool kList>
  void vacate_impl(Vertex first);
  // The neighbours of v, whose record is cv (degree of them): computed into `around` on big
  // lattices without wrap, else the list in the record or in the graph.
  template <Sets kSets>
  const Vertex* neighbour_list(const Cell& cv, Vertex v, Vertex* around) const;
  // Adds v to (gain = 1) or removes it from (lose = 1) the legal set of player q+1.
  template <Sets kSets>
  void legal_flip_one(std::size_t q, Vertex v, std::uint32_t gain, std::uint32_t lose);
  void prefetch_point(Vertex v) const;  // big lattices: start loading v's and its neighbours'
  // Calls f(s) for each stone s of root r along its list (an undo restoring the root; a removal
  // walks the list inside vacate_impl). On big lattices it fetches the next stone's record and
  // its neighbours' while f handles the current one, so that their cache misses overlap.
  template <class F>
  void for_each_stone(RootId r, F&& f);
  void remove_root(RootId r);
  template <bool kCompact>
  const MoveRecord& play_impl(Vertex v);  // play for compact or general records
  void restore_root(RootId r);
  void advance_turn(Player from, bool removals);
  // Forgets the turns recorded so far, still counting them in ply() (without a record: the last
  // turn's record and removed roots make room for the next turn's).
  void forget_last() {
    earlier_ += static_cast<std::uint32_t>(history_.size());
    history_.clear();
    removed_.clear();
    removed_stones_.clear();
  }
  Player player_after(Player from) const;  // next in cyclic order still in (out_ as it stands)
  std::uint8_t compute_out() const;

  TopologyPtr topo_;
  Setup setup_;
  std::uint32_t n_ = 0;
  int players_ = 2;
  std::size_t stride_ = 0;     // bytes per vertex record
  std::size_t nb_offset_ = 0;  // where a record's inline neighbour list starts
  bool inline_nbrs_ = false;   // records hold their neighbour lists (big boards)
  // Big lattices without wrap: neighbours are computed; Cell::first is then a mask of the
  // directions (2a: coordinate a + 1, 2a + 1: coordinate a - 1) that stay on the board.
  static constexpr std::size_t kMaxLatticeDirections = 32;
  bool lattice_nbrs_ = false;
  bool compact_ = false;  // compact records (see word())
  // Compact records: per axis the vertex id step, the step of the next axis (the span of one
  // line along this axis) and Lemire's constant for v mod span.
  std::uint32_t axes_ = 0;
  bool compact_wrap_ = false;  // the lattice is a torus
  std::array<std::uint32_t, kMaxCompactAxes> axis_step_{};
  std::array<std::uint32_t, kMaxCompactAxes> axis_span_{};
  std::array<std::uint64_t, kMaxCompactAxes> axis_magic_{};
  std::array<std::uint32_t, kMaxLatticeDirections> direction_step_{};  // vertex id change
  const std::uint32_t* off_ = nullptr;                                 // graph CSR, cached
  const Vertex* nbr_ = nullptr;

  std::vector<std::byte, BigBufferAllocator<std::byte>> cells_;  // per vertex: Cell + Slots
  // Big lattices: byte offsets of the neighbour records (+-stride per axis), prefetched all at
  // once when a move starts so that their cache misses overlap. Empty elsewhere.
  std::vector<std::ptrdiff_t> prefetch_;
  std::uint32_t words_ = 0;                 // 64-bit words per player bitmap (8 per block)
  std::uint32_t blocks_ = 0;                // blocks of 8 words (512 points) per player
  std::uint32_t block_words_ = 0;           // words of a block a random choice scans
  std::uint32_t supers_ = 0;                // groups of 64 blocks (kMany), else 0
  std::uint32_t block_stride_ = 0;          // counts per player: blocks_, or 73 x supers_
  Sets sets_ = Sets::kOne;                  // how blocks are counted
  std::vector<std::uint64_t> legal_bits_;   // per player: bitmap of legal points
  std::vector<std::uint32_t> legal_block_;  // per player: block_stride_ counts (see legal_flip)
  std::vector<std::uint32_t> legal_size_;   // per player: legal points
  std::vector<Root> roots_;                 // per root id
  // Root-space points of root r at [r + 1]; [0] is a scratch counter that takes the changes of
  // 0 of the branch-free updates (index -1 of spaces(), see occupy_impl).
  std::vector<std::uint32_t> space_buf_{0};
  std::vector<std::uint32_t> stones_;      // per player
  std::vector<std::uint32_t> root_count_;  // per player
  std::vector<RootId>
      zeroed_;  // roots whose space hit zero in the last occupy (max degree + P + 1)
  std::uint32_t zero_count_ = 0;  // entries of zeroed_ in use
  std::uint64_t hash_ = 0;
  Player to_move_ = kBlack;
  Player winner_ = kEmpty;
  std::uint8_t out_ = 0;
  PodVector<MoveRecord> history_;  // grows without copying (see pod_vector.hpp)
  PodVector<RootId> removed_;
  // Compact records with a record: the stones of the removed roots in removed_'s order, each
  // root's list from its head (restore_root takes them back from the end).
  PodVector<Vertex> removed_stones_;
  bool recording_ = true;      // see set_recording
  std::uint32_t earlier_ = 0;  // turns played before history_'s first
};

}  // namespace tanbo::detail
