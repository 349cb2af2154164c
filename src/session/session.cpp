#include "tanbo/session/session.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "tanbo/core/error.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/io/safe_file.hpp"

namespace tanbo {

Seat make_seat(const std::string& who, std::uint64_t seed) {
  Seat s;
  if (who == "human") return s;
  s.agent = make_agent(who, seed);
  s.spec = who;
  return s;
}

Position position_at(const Position& game_position, std::uint32_t ply) {
  Position p = game_position;
  while (p.ply() > ply) p.undo();
  return p;
}

std::uint32_t take_back_to_person(Position& pos, const std::function<bool(Player)>& is_person) {
  bool any_person = false;
  for (Player p = 1; p <= pos.num_players(); ++p) any_person = any_person || is_person(p);
  std::uint32_t taken = 0;
  while (pos.ply() > 0) {
    pos.undo();
    ++taken;
    if (!any_person || is_person(pos.to_move())) break;
  }
  return taken;
}

namespace {

TurnResult refused(TurnStatus status, std::string message) {
  return {status, std::move(message), ""};
}

std::string turns(std::uint32_t n) {
  return std::to_string(n) + (n == 1 ? " turn" : " turns");
}

}  // namespace

// ---------------------------------------------------------------- the game and its seats

Session::Session(Game game, std::vector<Seat> seats, std::string path)
    : game_(std::move(game)),
      seats_(std::move(seats)),
      path_(std::move(path)),
      // A file that does not exist yet is created by the first save.
      saved_text_(path_.empty() || ::access(path_.c_str(), F_OK) != 0 ? "" : write_game(game_)) {
  seats_.resize(static_cast<std::size_t>(game_.position.num_players()));
}

Session::~Session() {
  if (thinking_.valid()) stop_thinking();
}

const Seat& Session::seat(Player p) const {
  return seats_.at(p - 1);
}

Agent* Session::engine(Player p) const {
  return p >= 1 && p <= seats_.size() ? seats_[p - 1].agent.get() : nullptr;
}

// ---------------------------------------------------------------- turns

TurnResult Session::check(Player as, Vertex v) const {
  const Position& pos = game_.position;
  if (pos.is_over()) {
    return refused(TurnStatus::kGameOver, "the game is over: " + result_text(game_));
  }
  const Player p = pos.to_move();
  if (as != 0 && as != p) {
    return refused(TurnStatus::kNotYourTurn,
                   "it is " + player_title(p) + "'s turn, not " + player_title(as) + "'s");
  }
  if (const Agent* a = engine(p)) {
    return refused(
        TurnStatus::kEngineTurn,
        "it is " + player_title(p) + "'s turn, played by the engine (" + a->spec() + ")");
  }
  if (v >= pos.num_vertices()) {
    return refused(TurnStatus::kNotAPoint, "vertex " + std::to_string(v) + " is not on the board");
  }
  std::string why = pos.explain(p, v);
  if (!why.empty()) {
    TurnResult r = refused(TurnStatus::kIllegal,
                           player_title(p) + " cannot play " + pos.topology().name(v) + ": " + why);
    r.reason = std::move(why);
    return r;
  }
  return {};
}

TurnResult Session::play(Player as, Vertex v) {
  TurnResult r = check(as, v);
  if (!r.done()) return r;
  const MoveRecord& rec = game_.position.play(v);
  return after_change({TurnStatus::kDone, describe_move(game_.position, rec), ""});
}

TurnStatus Session::play_quietly(Vertex v) {
  const Position& pos = game_.position;
  const Player p = pos.to_move();
  // The rules' fast test (no message built); check() says why when it fails.
  if (pos.is_over() || engine(p) || pos.check_move(p, v) != MoveStatus::kLegal) {
    return check(0, v).status;
  }
  game_.position.play(v);
  changed();
  return TurnStatus::kDone;
}

TurnResult Session::play(Player as, std::string_view point) {
  const Topology& t = game_.position.topology();
  const auto v = t.parse_vertex(point);
  if (!v) return refused(TurnStatus::kNotAPoint, t.not_a_point(point));
  return play(as, *v);
}

TurnResult Session::check_resign(Player as) const {
  const Position& pos = game_.position;
  if (pos.is_over()) {
    return refused(TurnStatus::kGameOver, "the game is over: " + result_text(game_));
  }
  const Player p = as == 0 ? pos.to_move() : as;
  if (p != pos.to_move()) {
    return refused(TurnStatus::kNotYourTurn, player_title(p) +
                                                 " may resign on their own turn; it is " +
                                                 player_title(pos.to_move()) + "'s turn");
  }
  // An engine's seat plays its own turns: nobody resigns for it (a server hands every seat's
  // link to the game's creator, who could otherwise win against the engine that way).
  if (const Agent* a = engine(p)) {
    return refused(TurnStatus::kEngineTurn, player_title(p) + " is played by the engine (" +
                                                a->spec() + "), which does not resign");
  }
  return {};
}

TurnResult Session::resign(Player as) {
  TurnResult r = check_resign(as);
  if (!r.done()) return r;
  const Player p = as == 0 ? game_.position.to_move() : as;
  const MoveRecord& rec = game_.position.resign(p);
  return after_change({TurnStatus::kDone, describe_move(game_.position, rec), ""});
}

// ---------------------------------------------------------------- engine turns

bool Session::engine_to_move() const {
  const Position& pos = game_.position;
  return !pos.is_over() && engine(pos.to_move()) != nullptr;
}

std::optional<EngineTurn> Session::engine_turn() const {
  if (!engine_to_move()) return std::nullopt;
  const Position& pos = game_.position;
  return EngineTurn{engine(pos.to_move()), pos, pos.ply(), pos.hash()};
}

bool Session::stale(std::uint32_t ply, std::uint64_t hash) const {
  // The same length and hash: the position the engine started from, the same side to move.
  return game_.position.ply() != ply || game_.position.hash() != hash;
}

TurnResult Session::play_engine_choice(const EngineTurn& turn, Vertex v) {
  if (stale(turn.ply, turn.hash)) return refused(TurnStatus::kNotYourTurn, "");
  Position& pos = game_.position;
  const Player p = pos.to_move();
  const std::string why = v < pos.num_vertices() ? pos.explain(p, v) : "not a point";
  if (!why.empty()) {
    throw Error("the engine " + turn.agent->spec() + " chose an illegal move: " + why);
  }
  // Someone looking at an earlier move meanwhile keeps looking at it.
  const bool was_at_end = at_end();
  const std::uint32_t viewing = shown_ply();
  const MoveRecord& rec = pos.play(v);
  TurnResult r = after_change(
      {TurnStatus::kDone, "[" + turn.agent->spec() + "] " + describe_move(pos, rec), ""});
  if (!was_at_end) show(viewing);
  return r;
}

TurnResult Session::engine_move() {
  if (thinking_.valid()) {  // one started earlier: its move, unless it was for another position
    TurnResult r = finish_engine();
    if (r.done()) return r;
  }
  const auto turn = engine_turn();
  if (!turn) return refused(TurnStatus::kNotYourTurn, "");
  return play_engine_choice(*turn, turn->agent->choose(turn->position));
}

bool Session::start_engine() {
  if (thinking_.valid()) return false;
  thinking_turn_ = engine_turn();
  if (!thinking_turn_) return false;
  // The agent is used by that thread alone until finish_engine() collects its choice
  // (stop() is the one call other threads may make).
  thinking_ = std::async(std::launch::async,
                         [turn = &*thinking_turn_] { return turn->agent->choose(turn->position); });
  return true;
}

bool Session::engine_ready() {
  if (!thinking_.valid()) return false;
  if (thinking_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) return true;
  // Its move would be dropped: no need to finish it.
  if (stale(thinking_turn_->ply, thinking_turn_->hash)) thinking_turn_->agent->stop();
  return false;
}

TurnResult Session::finish_engine() {
  if (!thinking_.valid()) return refused(TurnStatus::kNotYourTurn, "");
  if (stale(thinking_turn_->ply, thinking_turn_->hash)) stop_thinking();
  const Vertex v = thinking_.get();  // rethrows what the engine threw
  const EngineTurn turn = std::move(*thinking_turn_);
  thinking_turn_.reset();
  return play_engine_choice(turn, v);
}

// Asks the thinking engine to stop, again every 50 ms (a request that comes before its search
// has started counts for nothing), until it has chosen.
void Session::stop_thinking() {
  do {
    thinking_turn_->agent->stop();
  } while (thinking_.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready);
}

// ---------------------------------------------------------------- taking back

TurnResult Session::take_back() {
  Position& pos = game_.position;
  if (pos.ply() == 0) {
    return refused(TurnStatus::kNothingToUndo, "nothing to undo: the game is at its start");
  }
  const std::uint32_t n = take_back_to_person(pos, [this](Player p) { return is_person(p); });
  return after_change({TurnStatus::kDone, "took back " + turns(n), ""});
}

TurnResult Session::take_back(std::uint32_t n) {
  Position& pos = game_.position;
  if (n == 0 || n > pos.ply()) {
    return refused(TurnStatus::kNothingToUndo, "cannot take back " + turns(n) + ": only " +
                                                   turns(pos.ply()) + " have been played");
  }
  for (std::uint32_t i = 0; i < n; ++i) pos.undo();
  return after_change({TurnStatus::kDone, "took back " + turns(n), ""});
}

// ---------------------------------------------------------------- stepping through the game

void Session::show(std::uint32_t ply) {
  ply = std::min(ply, this->ply());
  if (ply == this->ply()) {
    shown_.reset();
  } else if (ply != shown_ply()) {
    shown_ = position_at(game_.position, ply);
  }
}

// ---------------------------------------------------------------- new games and files

void Session::new_game() {
  Game fresh(Position(game_.position.topology_ptr(), game_.position.setup()));
  fresh.names = game_.names;
  fresh.date = utc_now();
  game_ = std::move(fresh);
  after_change({});
}

void Session::replace_game(Game game) {
  game_ = std::move(game);
  seats_.resize(static_cast<std::size_t>(game_.position.num_players()));
  after_change({});
}

void Session::save_as(const std::string& file) const {
  write_file_atomic(file, write_game_as(game_, file, true));
}

void Session::changed() {
  ++version_;
  // A take-back or a new game makes a thinking engine's move stale: it is asked to stop.
  if (thinking_.valid() && stale(thinking_turn_->ply, thinking_turn_->hash)) {
    thinking_turn_->agent->stop();
  }
  shown_.reset();  // the end of the game
  save();
}

TurnResult Session::after_change(TurnResult result) {
  changed();
  // A turn that ended the game says who won.
  if (!result.message.empty() && game_.position.is_over()) {
    result.message += " " + result_text(game_) + ".";
  }
  if (!save_error_.empty()) result.message += " NOT SAVED: " + save_error_;
  return result;
}

void Session::save() {
  save_error_.clear();
  if (path_.empty()) return;
  try {
    // Another program (tanbo move, a second viewer) may have changed the file meanwhile: its
    // moves are never overwritten.
    saved_text_ = save_game_if_unchanged(game_, path_, saved_text_);
  } catch (const Error& e) {
    save_error_ = e.what();
  }
}

}  // namespace tanbo
