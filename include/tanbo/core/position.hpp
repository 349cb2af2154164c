// A game of Tanbo in progress on any board: the stones, whose turn it is, and every move played,
// with exact undo. What a caller may do with it; how it is done is in src/core (see
// docs/architecture.md: the rules in rules.hpp, the point store, the legal-move sets).
//
// The rules (docs/rules.md; the seed documents are the authority):
//  - A move for player c is an empty point with exactly one neighbour of colour c.
//  - A root is a connected set of same-coloured stones; the rules keep every root a tree that
//    holds its seed. Root space of a root: the empty points with exactly one neighbour of the
//    root's colour, that neighbour in the root. A root with no root space is bounded.
//  - After a move: if the expanded root is bounded it alone is removed; otherwise every bounded
//    root (of any colour) is removed. No root is bounded at the end of a turn.
//  - A player with no stones is out; turns go round the players still in; the last one wins.
//
// Cost: a move costs O(degree of the move + degrees of the removed stones); no query below
// looks at the whole board unless it returns a list.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo {

namespace detail {
struct PositionCore;  // the state behind Position (src/core/position_core.hpp)
}  // namespace detail

using RootId = std::uint32_t;                   // roots are numbered by seed, 0..seeds-1
inline constexpr RootId kNoRoot = 0xFFFFFFFFu;  // "no root"

// Why a move is or is not legal; see Position::check_move.
enum class MoveStatus {
  kLegal,
  kGameOver,      // the game has ended
  kNotYourTurn,   // the player is not the side to move
  kPlayerOut,     // the player has no stones or has resigned
  kOffBoard,      // vertex id out of range
  kOccupied,      // a stone stands there
  kNoConnection,  // no stone of the player touches it
  kTooMany,       // it touches two or more stones of the player
};

// What one turn did, kept in the history for undo and reporting. 32 bytes: a game of millions
// of moves keeps one a move (the one-byte fields come first).
struct MoveRecord {
  enum class Kind : std::uint8_t { kPlace, kResign };
  Kind kind = Kind::kPlace;          // a stone placed, or a resignation
  Player player = kEmpty;            // who moved (or resigned)
  bool expanded_removed = false;     // the expanded root was bounded and removed
  Player to_move_before = kEmpty;    // side to move before this turn
  std::uint8_t out_before = 0;       // bit mask of players out before this turn
  Vertex vertex = kNoVertex;         // where the stone went (kPlace)
  RootId expanded = kNoRoot;         // the root the stone joined (kPlace)
  std::uint32_t removed_begin = 0;   // removed roots: removed_roots()[begin, end)
  std::uint32_t removed_end = 0;     // (end of them)
  std::uint32_t stones_removed = 0;  // stones taken off by this turn
  Vertex prev_next = kNoVertex;      // stone-list link the point had before (for undo)
};
static_assert(sizeof(MoveRecord) == 32);

class Position {
 public:
  // How the per-point data is laid out: kAuto picks the compact store (8 bytes a point) for
  // two players on lattices of more than 4,096 points (src/core/compact_store.hpp), else the
  // general ones; kGeneral forces the general store. The game is the same either way.
  enum class Store : std::uint8_t { kAuto, kGeneral };

  // The starting position of `setup`. Throws tanbo::Error when the setup is refused: a stone
  // off the board or of a player above setup.players, two seeds of one colour adjacent, a root
  // already bounded (naming it), or a player with no seed.
  Position(TopologyPtr topology, const Setup& setup, Store store = Store::kAuto);
  // Loads any position (a diagram, a game in progress): each connected set of same-coloured
  // stones becomes a root whose seed is its lowest-numbered stone; roots are numbered by seed.
  // Throws tanbo::Error for a stone off the board, doubled or of a player above `players`, a
  // root that is not a tree or is bounded, no stones at all, or `to_move` without stones.
  // Players without stones are out. setup() is named "position" and lists every stone.
  static Position from_stones(TopologyPtr topology, int players,
                              const std::vector<std::pair<Vertex, Player>>& stones,
                              Player to_move = kBlack);
  Position(const Position& other);             // an independent copy
  Position(Position&& other) noexcept;         // takes other's state (other is left unusable)
  Position& operator=(const Position& other);  // a copy that reuses this one's buffers
  Position& operator=(Position&& other) noexcept;
  ~Position();

  // ---- the board
  const Topology& topology() const;                       // the board
  const TopologyPtr& topology_ptr() const;                // the shared board
  const Graph& graph() const;                             // its adjacency
  const Setup& setup() const;                             // how the game started
  std::uint32_t num_vertices() const;                     // points on the board
  int num_players() const;                                // 2..8
  Player at(Vertex v) const;                              // the stone on v, kEmpty if none
  std::uint32_t neighbours_of(Vertex v, Player p) const;  // neighbours of v with a stone of p
  bool compact_store() const;                             // whether the point store is compact
  // Every point's stone (kEmpty if none) into out[0 .. num_vertices()), in one call: a pass
  // over the board without a call for each point. Precondition: out.size() >= num_vertices().
  void read_board(std::span<Player> out) const;

  // ---- turn and result
  Player to_move() const;       // the side to move (kEmpty once the game is over)
  bool is_over() const;         // only one player has stones
  Player winner() const;        // the winner, kEmpty while playing
  bool is_out(Player p) const;  // p has no stones or has resigned
  std::uint32_t ply() const;    // turns played
  Player next_player() const;   // who moves after the side to move if its move removes nothing

  // ---- moves
  MoveStatus check_move(Player p, Vertex v) const;  // full legality check, turn included
  bool is_legal_point(Player p, Vertex v) const;    // v legal for p as the board stands
  // For v legal for p, without playing it: the root space of the root the stone joins, with the
  // stone placed, before removals (0: the move bounds its own root, which alone is removed).
  std::uint32_t joined_space_after(Player p, Vertex v) const;
  // For v legal for p: the root that a stone of p on v joins (v is in that root's space).
  RootId joined_root(Player p, Vertex v) const;
  // For v legal for p: how many other players' roots have v as their last root-space point.
  std::uint32_t others_bounded(Player p, Vertex v) const;
  // For v legal for p, without playing it: whether a stone of p on v removes any stone (it
  // bounds its own root, or another root of any colour). The same answer as
  // play(v).stones_removed != 0 when p is to move, for the cost of reading v's neighbours.
  bool removes_stones(Player p, Vertex v) const;
  // Why p cannot play v, in a sentence naming the stones it touches; "" when it is legal.
  std::string explain(Player p, Vertex v) const;
  std::uint32_t legal_count(Player p) const;           // number of legal moves of p
  Vertex legal_move(Player p, std::uint32_t i) const;  // p's i-th legal move in vertex order
  Vertex legal_move_portable(Player p, std::uint32_t i) const;  // the same without BMI2
  std::vector<Vertex> legal_moves(Player p) const;              // p's legal moves in vertex order
  // Whether prefetch_move does anything (lattices of more than 32,768 points).
  bool prefetches() const;
  // A hint that a move at v may come soon: starts loading what it reads. Changes nothing.
  void prefetch_move(Vertex v) const;

  // ---- playing
  // Plays v for the side to move (precondition: check_move(to_move(), v) == kLegal) and
  // returns the record of the turn (also last_move()).
  const MoveRecord& play(Vertex v);
  // Checks the move and plays it; throws tanbo::Error with explain()'s text when illegal.
  const MoveRecord& play_checked(Player p, Vertex v);
  // Player p resigns or leaves: its roots are removed and play goes on without it (with two
  // players the other wins at once). Throws if p is out or the game is over.
  const MoveRecord& resign(Player p);
  // Takes back the last turn exactly (stones, roots, counts, turn). Throws when there is none.
  void undo();
  // Forgets the turns played: ply() becomes 0 and undo() has nothing to take back (a search
  // copies its root for every playout without the game record this way).
  void clear_history();
  // Keeps the game record (the default) or not: without it each turn's record replaces the
  // last one, ply() still counts every turn and undo() throws (random playouts need no undo,
  // and on a million points the record is 160 MB a game). Either switch forgets the record.
  void set_recording(bool on);
  bool recording() const;  // whether the game record is kept

  // ---- history
  std::span<const MoveRecord> history() const;    // every turn played (see set_recording)
  const MoveRecord& last_move() const;            // precondition: ply() > 0
  std::span<const RootId> removed_roots() const;  // [rec.removed_begin, rec.removed_end) of a turn

  // ---- roots
  std::uint32_t num_root_ids() const;                     // roots ever made (ids 0 .. this - 1)
  RootId root_of(Vertex v) const;                         // the root of the stone on v, or kNoRoot
  bool root_alive(RootId r) const;                        // still on the board
  Player root_owner(RootId r) const;                      // its colour
  std::uint32_t root_size(RootId r) const;                // stones in it
  std::uint32_t root_space(RootId r) const;               // root-space points
  Vertex root_seed(RootId r) const;                       // its starting stone
  std::vector<Vertex> root_stones(RootId r) const;        // its stones, sorted
  std::vector<Vertex> root_space_points(RootId r) const;  // its root space, sorted
  // One point of r's root space, found from its stones (the only one when root_space(r) is 1),
  // kNoVertex when it has none or is removed. Reads the root's stones and their neighbours.
  Vertex root_space_point(RootId r) const;
  std::vector<RootId> live_roots() const;  // alive roots by id
  // Every root's root space, by id (num_root_ids() entries; a removed root's entry is left as
  // it was when it went, so check root_alive): one call for a scan of all roots.
  std::span<const std::uint32_t> root_spaces() const;

  // ---- per player
  std::uint32_t stones(Player p) const;       // p's stones on the board
  std::uint32_t roots_alive(Player p) const;  // p's live roots

  // Zobrist hash of the stones and the side to move, kept move by move.
  std::uint64_t hash() const;
  // Recomputes every incremental quantity from scratch and compares, and checks the rule
  // invariants (no bounded root, every root a tree holding its seed): "" or the first fault.
  std::string check_consistency() const;

 private:
  explicit Position(std::unique_ptr<detail::PositionCore> core);
  std::unique_ptr<detail::PositionCore> core_;
};

// Short text for a MoveStatus ("occupied", "not your turn", ...).
const char* to_string(MoveStatus s);

}  // namespace tanbo
