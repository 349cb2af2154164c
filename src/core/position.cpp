// Position: the facade. Queries read the state (position_core.hpp); changes go to the rules
// (rules.hpp), through the entry points of the instance chosen for its point store when it is made.
#include "tanbo/core/position.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "position_core.hpp"
#include "rules.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/zobrist.hpp"

namespace tanbo {

using detail::PositionCore;

namespace {

detail::AnyStore make_store(const Topology& t, int players, Position::Store choice) {
  if (choice == Position::Store::kAuto && detail::CompactStore::fits(t, players)) {
    return detail::CompactStore(t);
  }
  return detail::GeneralStore(t, players);
}

}  // namespace

namespace detail {

PositionCore::PositionCore(TopologyPtr topo, Setup start, int player_count, Position::Store choice)
    : topology(std::move(topo)),
      setup(std::move(start)),
      n(topology->graph.num_vertices()),
      players(player_count),
      store(make_store(*topology, player_count, choice)) {
  // Root ids (at most one per point) must stay below 2^31: see root_or_scratch.
  if (n >= (1u << 31)) {
    throw Error("a board of " + std::to_string(n) + " points is too big (at most 2^31 - 1)");
  }
  // The compact store' border word is one more point, never legal.
  legal = LegalSets(compact() ? n + 1 : n, players);
  const std::uint32_t most = with_store([](const auto& r) { return r.max_neighbours(); });
  spaceless_roots.assign(std::size_t{most} + static_cast<std::size_t>(players) + 1, kNoRoot);
  rules = rules_for(*this);
}

}  // namespace detail

Position::Position(TopologyPtr topology, const Setup& setup, Store store) {
  if (!topology) throw Error("no topology");
  if (setup.players < 2 || setup.players > kMaxPlayers) {
    throw Error("a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " +
                std::to_string(setup.players));
  }
  check_game_memory(*topology, setup.players);  // the board was checked for two players
  core_ = std::make_unique<PositionCore>(std::move(topology), setup, setup.players, store);
  PositionCore& core = *core_;
  const Topology& t = *core.topology;
  // Each seed is a root of its own.
  for (const auto& [seed, owner] : setup.stones) {
    const Vertex v = seed;
    const Player p = owner;
    if (v >= core.n)
      throw Error("setup stone on vertex " + std::to_string(v) + " is off the board");
    if (p < 1 || p > core.players) {
      throw Error("setup stone at " + t.name(v) + " belongs to player " + std::to_string(p) +
                  " but the game has " + std::to_string(core.players) + " players");
    }
    if (at(v) != kEmpty) throw Error("setup places two stones on " + t.name(v));
    for (Vertex u : t.graph.neighbours(v)) {
      if (at(u) == p) {
        throw Error("setup seeds " + t.name(u) + " and " + t.name(v) + " of " + player_title(p) +
                    " are adjacent: every seed must be a root of its own");
      }
    }
    const RootId r = core.roots.add(p, v, 1, v);
    core.rules->place(core, v, p, r, kNoVertex);
    ++core.stones[p - 1];
    ++core.root_count[p - 1];
  }
  for (int p = 1; p <= core.players; ++p) {
    if (core.stones[p - 1] == 0) {
      throw Error("setup gives " + player_title(static_cast<Player>(p)) + " no stones");
    }
  }
  for (RootId r = 0; r < core.roots.count(); ++r) {
    if (core.roots.space(r) == 0) {
      throw Error("the starting position has a bounded root: the " +
                  player_title(core.roots[r].owner) + " seed at " + t.name(core.roots[r].seed) +
                  " has no root space");
    }
  }
  core.spaceless_count = 0;
}

Position::Position(std::unique_ptr<PositionCore> core) : core_(std::move(core)) {}
Position::Position(const Position& other)
    : core_(other.core_ ? std::make_unique<PositionCore>(*other.core_) : nullptr) {}
Position::Position(Position&& other) noexcept = default;
Position& Position::operator=(const Position& other) {
  if (this == &other) return *this;
  if (core_ && other.core_) {
    *core_ = *other.core_;  // keeps this position's buffers where they are big enough
  } else {
    core_ = other.core_ ? std::make_unique<PositionCore>(*other.core_) : nullptr;
  }
  return *this;
}
Position& Position::operator=(Position&& other) noexcept = default;
Position::~Position() = default;

// ---- the board

const Topology& Position::topology() const {
  return *core_->topology;
}
const TopologyPtr& Position::topology_ptr() const {
  return core_->topology;
}
const Graph& Position::graph() const {
  return core_->topology->graph;
}
const Setup& Position::setup() const {
  return core_->setup;
}
std::uint32_t Position::num_vertices() const {
  return core_->n;
}
int Position::num_players() const {
  return core_->players;
}
Player Position::at(Vertex v) const {
  return core_->with_view([v](const auto& b) { return b.color(v); });
}
void Position::read_board(std::span<Player> out) const {
  core_->with_view([&](const auto& b) {
    for (Vertex v = 0; v < core_->n; ++v) out[v] = b.color(v);
  });
}
std::uint32_t Position::neighbours_of(Vertex v, Player p) const {
  return core_->with_store([v, p](const auto& r) { return r.neighbours_of(v, p); });
}
bool Position::compact_store() const {
  return core_->compact();
}

// ---- turn and result

Player Position::to_move() const {
  return core_->to_move;
}
bool Position::is_over() const {
  return core_->to_move == kEmpty;
}
Player Position::winner() const {
  return core_->winner;
}
bool Position::is_out(Player p) const {
  return (core_->out_of_game >> (p - 1)) & 1u;
}
std::uint32_t Position::ply() const {
  return core_->turns_forgotten + static_cast<std::uint32_t>(core_->history.size());
}
Player Position::next_player() const {
  return detail::player_after(*core_, core_->to_move);
}

// ---- moves

MoveStatus Position::check_move(Player p, Vertex v) const {
  const PositionCore& core = *core_;
  if (is_over()) return MoveStatus::kGameOver;
  if (p < 1 || p > core.players || is_out(p)) return MoveStatus::kPlayerOut;
  if (p != core.to_move) return MoveStatus::kNotYourTurn;
  if (v >= core.n) return MoveStatus::kOffBoard;
  if (at(v) != kEmpty) return MoveStatus::kOccupied;
  const std::uint32_t c = core.with_view([v, p](const auto& b) { return b.slot(v, p).state; });
  if (c == 0) return MoveStatus::kNoConnection;
  if (c > 1) return MoveStatus::kTooMany;
  return MoveStatus::kLegal;
}

bool Position::is_legal_point(Player p, Vertex v) const {
  return core_->legal.contains(p, v);
}

// v leaves e's space; an empty neighbour with no stone of p joins it; an empty neighbour whose
// only stone of p is in e leaves it (it would touch two). A slot's state is the count when the
// point is empty, so one comparison also says "empty"; no branch on the board's contents.
std::uint32_t Position::joined_space_after(Player p, Vertex v) const {
  return core_->with_view([&](const auto& b) {
    const RootId e = b.slot(v, p).root;
    std::uint32_t space = core_->roots.space(e) - 1;
    for (Vertex u : graph().neighbours(v)) {
      const detail::SlotState s = b.slot(u, p);
      space += (s.state == 0) - ((s.state == 1) & (s.root == e));
    }
    return space;
  });
}

std::uint32_t Position::others_bounded(Player p, Vertex v) const {
  return core_->with_view([&](const auto& b) {
    const std::uint32_t* space = core_->roots.spaces();
    std::uint32_t bounded = 0;
    for (int c = 1; c <= core_->players; ++c) {
      const detail::SlotState s = b.slot(v, static_cast<Player>(c));
      const std::uint32_t one = (s.state == 1) & (c != p);
      bounded += one & (space[detail::root_or_scratch(one, s.root)] == 1);
    }
    return bounded;
  });
}

// The three ways a stone removes stones, each read from the slots that play() would change:
// another colour's root whose last point is v; the joined root left without space (v leaves it,
// an empty neighbour with no stone of p joins it, one whose only stone of p is in it leaves it);
// another root of p whose last points are neighbours of v that the stone makes touch p twice.
// The last two are read in one pass over v's neighbours, which counts the joined root's space
// as joined_space_after does: calling it and then passing over the neighbours again for the
// other roots took 4% more CPU on 7x7 from the spaced start and 1 to 3% more on 3x13 (df-pn
// calls this for every child it makes; medians of 4 pairs, the same nodes).
bool Position::removes_stones(Player p, Vertex v) const {
  if (others_bounded(p, v) != 0) return true;
  return core_->with_view([&](const auto& b) {
    const std::uint32_t* space = core_->roots.spaces();
    const RootId e = b.slot(v, p).root;
    std::uint32_t joined = space[e] - 1;
    // The other roots of p that lose points, one entry per point (a root with space k is
    // bounded when k of its points go); a lattice gives a handful at most.
    constexpr std::size_t kInPlace = 32;
    std::array<RootId, kInPlace> in_place;
    std::vector<RootId> more;
    std::size_t lost = 0;
    for (Vertex u : graph().neighbours(v)) {
      const detail::SlotState s = b.slot(u, p);
      if (s.state == 0) {
        ++joined;
      } else if (s.state == 1 && s.root == e) {
        --joined;  // (u is one of e's points other than v: no wrap below 0)
      } else if (s.state == 1) {
        if (space[s.root] == 1) return true;
        if (lost == kInPlace) more.assign(in_place.begin(), in_place.end());
        if (lost < kInPlace)
          in_place[lost] = s.root;
        else
          more.push_back(s.root);
        ++lost;
      }
    }
    if (joined == 0) return true;
    const std::span<RootId> roots =
        lost <= kInPlace ? std::span<RootId>(in_place.data(), lost) : std::span<RootId>(more);
    std::sort(roots.begin(), roots.end());
    for (std::size_t i = 0; i < roots.size();) {
      std::size_t j = i + 1;
      while (j < roots.size() && roots[j] == roots[i]) ++j;
      if (space[roots[i]] == j - i) return true;
      i = j;
    }
    return false;
  });
}

std::string Position::explain(Player p, Vertex v) const {
  const Topology& t = topology();
  switch (check_move(p, v)) {
    case MoveStatus::kLegal:
      return "";
    case MoveStatus::kGameOver:
      return "the game is over: " + player_title(winner()) + " has won";
    case MoveStatus::kPlayerOut:
      if (p < 1 || p > num_players()) {
        return "there is no player " + std::to_string(p) + " in this " +
               std::to_string(num_players()) + "-player game";
      }
      return player_title(p) + " is out of the game";
    case MoveStatus::kNotYourTurn:
      return "it is " + player_title(to_move()) + "'s turn, not " + player_title(p) + "'s";
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
        if (at(u) == p) list += (count++ ? ", " : "") + t.name(u);
      }
      return t.name(v) + " touches " + std::to_string(count) + " " + player_title(p) +
             " stones: " + list + " (a stone must touch exactly one of its own colour)";
    }
  }
  return "illegal move";
}

std::uint32_t Position::legal_count(Player p) const {
  return core_->legal.size(p);
}
Vertex Position::legal_move(Player p, std::uint32_t i) const {
  return core_->legal.nth(p, i);
}
Vertex Position::legal_move_portable(Player p, std::uint32_t i) const {
  return core_->legal.nth_portable(p, i);
}
std::vector<Vertex> Position::legal_moves(Player p) const {
  return core_->legal.list(p);
}
bool Position::prefetches() const {
  return core_->with_store([](const auto& r) { return r.prefetches(); });
}
void Position::prefetch_move(Vertex v) const {
  core_->with_view([v](const auto& b) { b.prefetch_point(v); });
}

// ---- playing

const MoveRecord& Position::play(Vertex v) {
  return core_->rules->play(*core_, v);
}

const MoveRecord& Position::play_checked(Player p, Vertex v) {
  if (check_move(p, v) != MoveStatus::kLegal) throw Error(explain(p, v));
  return play(v);
}

const MoveRecord& Position::resign(Player p) {
  if (is_over()) throw Error("the game is over");
  if (p < 1 || p > num_players()) throw Error("there is no player " + std::to_string(p));
  if (is_out(p)) throw Error(player_title(p) + " is already out of the game");
  return core_->rules->resign(*core_, p);
}

void Position::undo() {
  if (!core_->recording) {
    throw Error("this position keeps no record of its turns: nothing to undo");
  }
  if (core_->history.empty()) throw Error("no move to undo");
  core_->rules->undo(*core_);
}

void Position::clear_history() {
  core_->forget_record();
  core_->turns_forgotten = 0;
}
void Position::set_recording(bool on) {
  core_->forget_record();
  core_->recording = on;
}
bool Position::recording() const {
  return core_->recording;
}

// ---- history

std::span<const MoveRecord> Position::history() const {
  return core_->history.view();
}
const MoveRecord& Position::last_move() const {
  return core_->history.back();
}
std::span<const RootId> Position::removed_roots() const {
  return core_->removed.view();
}

// ---- roots

std::uint32_t Position::num_root_ids() const {
  return core_->roots.count();
}
RootId Position::root_of(Vertex v) const {
  return core_->with_view(
      [v](const auto& b) { return b.color(v) == kEmpty ? kNoRoot : b.root(v); });
}
bool Position::root_alive(RootId r) const {
  return core_->roots[r].alive;
}
Player Position::root_owner(RootId r) const {
  return core_->roots[r].owner;
}
std::uint32_t Position::root_size(RootId r) const {
  return core_->roots[r].size;
}
std::uint32_t Position::root_space(RootId r) const {
  return core_->roots.space(r);
}
Vertex Position::root_seed(RootId r) const {
  return core_->roots[r].seed;
}

std::vector<Vertex> Position::root_stones(RootId r) const {
  std::vector<Vertex> out;
  if (!root_alive(r)) return out;
  core_->with_view([&](const auto& b) {
    for (Vertex s = core_->roots[r].head; s != kNoVertex; s = b.next(s)) out.push_back(s);
  });
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Vertex> Position::root_space_points(RootId r) const {
  std::vector<Vertex> out;
  if (!root_alive(r)) return out;
  const Player p = root_owner(r);
  core_->with_view([&](const auto& b) {
    for (Vertex u : legal_moves(p)) {
      if (b.slot(u, p).root == r) out.push_back(u);
    }
  });
  return out;
}

RootId Position::joined_root(Player p, Vertex v) const {
  return core_->with_view([&](const auto& b) { return b.slot(v, p).root; });
}

std::span<const std::uint32_t> Position::root_spaces() const {
  return {core_->roots.spaces(), core_->roots.count()};
}

Vertex Position::root_space_point(RootId r) const {
  if (!root_alive(r) || root_space(r) == 0) return kNoVertex;
  const Player p = root_owner(r);
  return core_->with_view([&](const auto& b) {
    for (Vertex s = core_->roots[r].head; s != kNoVertex; s = b.next(s)) {
      for (Vertex u : graph().neighbours(s)) {
        if (core_->legal.contains(p, u) && b.slot(u, p).root == r) return u;
      }
    }
    return kNoVertex;
  });
}

std::vector<RootId> Position::live_roots() const {
  std::vector<RootId> out;
  for (RootId r = 0; r < num_root_ids(); ++r) {
    if (root_alive(r)) out.push_back(r);
  }
  return out;
}

// ---- per player

std::uint32_t Position::stones(Player p) const {
  return core_->stones[p - 1];
}
std::uint32_t Position::roots_alive(Player p) const {
  return core_->root_count[p - 1];
}

std::uint64_t Position::hash() const {
  return core_->hash ^ zobrist::side_to_move(core_->to_move);
}

const char* to_string(MoveStatus s) {
  switch (s) {
    case MoveStatus::kLegal:
      return "legal";
    case MoveStatus::kGameOver:
      return "the game is over";
    case MoveStatus::kNotYourTurn:
      return "not your turn";
    case MoveStatus::kPlayerOut:
      return "that player is out of the game";
    case MoveStatus::kOffBoard:
      return "not on this board";
    case MoveStatus::kOccupied:
      return "occupied";
    case MoveStatus::kNoConnection:
      return "no stone of yours touches it";
    case MoveStatus::kTooMany:
      return "it touches two or more of your stones";
  }
  return "?";
}

}  // namespace tanbo
