// Position: the facade. Each call forwards to the state behind it (position_core.hpp).
#include "tanbo/position.hpp"

#include "position_core.hpp"

namespace tanbo {

using detail::PositionCore;

Position::Position(TopologyPtr topology, const Setup& setup, Records records)
    : core_(std::make_unique<PositionCore>(std::move(topology), setup, records)) {}

Position Position::from_stones(TopologyPtr topology, int players,
                               const std::vector<std::pair<Vertex, Player>>& stones,
                               Player to_move) {
  return Position(std::make_unique<PositionCore>(
      PositionCore::from_stones(std::move(topology), players, stones, to_move)));
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

const Topology& Position::topology() const {
  return core_->topology();
}
const TopologyPtr& Position::topology_ptr() const {
  return core_->topology_ptr();
}
const Graph& Position::graph() const {
  return core_->graph();
}
const Setup& Position::setup() const {
  return core_->setup();
}
std::uint32_t Position::num_vertices() const {
  return core_->num_vertices();
}
int Position::num_players() const {
  return core_->num_players();
}
Player Position::at(Vertex v) const {
  return core_->at(v);
}
std::uint32_t Position::neighbours_of(Vertex v, Player p) const {
  return core_->neighbours_of(v, p);
}
bool Position::compact_records() const {
  return core_->compact_records();
}

Player Position::to_move() const {
  return core_->to_move();
}
bool Position::is_over() const {
  return core_->is_over();
}
Player Position::winner() const {
  return core_->winner();
}
bool Position::is_out(Player p) const {
  return core_->is_out(p);
}
std::uint32_t Position::ply() const {
  return core_->ply();
}
Player Position::next_player() const {
  return core_->next_player();
}

MoveStatus Position::check_move(Player p, Vertex v) const {
  return core_->check_move(p, v);
}
bool Position::is_legal_point(Player p, Vertex v) const {
  return core_->is_legal_point(p, v);
}
std::uint32_t Position::joined_space_after(Player p, Vertex v) const {
  return core_->joined_space_after(p, v);
}
std::uint32_t Position::others_bounded(Player p, Vertex v) const {
  return core_->others_bounded(p, v);
}
std::string Position::explain(Player p, Vertex v) const {
  return core_->explain(p, v);
}
std::uint32_t Position::legal_count(Player p) const {
  return core_->legal_count(p);
}
Vertex Position::legal_move(Player p, std::uint32_t i) const {
  return core_->legal_move(p, i);
}
Vertex Position::legal_move_portable(Player p, std::uint32_t i) const {
  return core_->legal_move_portable(p, i);
}
std::vector<Vertex> Position::legal_moves(Player p) const {
  return core_->legal_moves(p);
}
bool Position::prefetches() const {
  return core_->prefetches();
}
void Position::prefetch_move(Vertex v) const {
  core_->prefetch_move(v);
}

const MoveRecord& Position::play(Vertex v) {
  return core_->play(v);
}
const MoveRecord& Position::play_checked(Player p, Vertex v) {
  return core_->play_checked(p, v);
}
const MoveRecord& Position::resign(Player p) {
  return core_->resign(p);
}
void Position::undo() {
  core_->undo();
}
void Position::clear_history() {
  core_->clear_history();
}
void Position::set_recording(bool on) {
  core_->set_recording(on);
}
bool Position::recording() const {
  return core_->recording();
}

std::span<const MoveRecord> Position::history() const {
  return core_->history();
}
const MoveRecord& Position::last_move() const {
  return core_->last_move();
}
std::span<const RootId> Position::removed_roots() const {
  return core_->removed_roots();
}

std::uint32_t Position::num_root_ids() const {
  return core_->num_root_ids();
}
RootId Position::root_of(Vertex v) const {
  return core_->root_of(v);
}
bool Position::root_alive(RootId r) const {
  return core_->root_alive(r);
}
Player Position::root_owner(RootId r) const {
  return core_->root_owner(r);
}
std::uint32_t Position::root_size(RootId r) const {
  return core_->root_size(r);
}
std::uint32_t Position::root_space(RootId r) const {
  return core_->root_space(r);
}
Vertex Position::root_seed(RootId r) const {
  return core_->root_seed(r);
}
std::vector<Vertex> Position::root_stones(RootId r) const {
  return core_->root_stones(r);
}
std::vector<Vertex> Position::root_space_points(RootId r) const {
  return core_->root_space_points(r);
}
std::vector<RootId> Position::live_roots() const {
  return core_->live_roots();
}

std::uint32_t Position::stones(Player p) const {
  return core_->stones(p);
}
std::uint32_t Position::roots_alive(Player p) const {
  return core_->roots_alive(p);
}
std::uint64_t Position::hash() const {
  return core_->hash();
}
std::string Position::check_consistency() const {
  return core_->check_consistency();
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
