#include "session.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "tanbo/core/error.hpp"
#include "tanbo/core/take_back.hpp"

namespace tanbo::viz {

Position position_at(const Position& game_position, std::uint32_t ply) {
  Position p(game_position.topology_ptr(), game_position.setup());
  const auto& hist = game_position.history();
  for (std::uint32_t i = 0; i < ply && i < hist.size(); ++i) {
    if (hist[i].kind == MoveRecord::Kind::kResign) {
      p.resign(hist[i].player);
    } else {
      p.play(hist[i].vertex);
    }
  }
  return p;
}

Session::Session(Game& game, std::string path, std::vector<std::unique_ptr<Agent>> engines)
    : game_(game),
      path_(std::move(path)),
      engines_(std::move(engines)),
      shown_(game.position),
      // A file that does not exist yet is created by the first save.
      saved_text_(path_.empty() || ::access(path_.c_str(), F_OK) != 0 ? "" : write_game(game)) {}

// An engine still thinking is stopped, and its move is dropped.
Session::~Session() {
  if (thinking_.valid()) stop_thinking();
}

// Asks the thinking engine to stop, again every 50 ms (a request that comes before its search
// has started counts for nothing), until it has chosen.
void Session::stop_thinking() {
  do {
    thinking_agent_->stop();
  } while (thinking_.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready);
}

Agent* Session::engine(Player p) const {
  return p >= 1 && p <= engines_.size() ? engines_[p - 1].get() : nullptr;
}

void Session::show(std::uint32_t ply) {
  ply = std::min(ply, last_ply());
  if (ply == last_ply()) {
    shown_ = game_.position;
  } else if (ply != shown_ply()) {
    shown_ = position_at(game_.position, ply);
  }
}

std::string Session::click(Vertex v, bool* played) {
  if (played) *played = false;
  const Position& pos = game_.position;
  const Topology& t = pos.topology();
  if (v >= pos.num_vertices()) return "";
  if (!at_end()) {
    return "You are looking at move " + std::to_string(shown_ply()) + " of " +
           std::to_string(last_ply()) + ": press End to return to the game, then play.";
  }
  if (pos.is_over()) return "The game is over: " + player_title(pos.winner()) + " won.";
  const Player p = pos.to_move();
  if (Agent* a = engine(p)) {
    return "It is " + player_title(p) + "'s turn, played by the engine (" + a->spec() + ").";
  }
  if (pos.check_move(p, v) != MoveStatus::kLegal) {
    return player_title(p) + " cannot play " + t.name(v) + ": " + pos.explain(p, v);
  }
  game_.position.play(v);
  if (played) *played = true;
  return after_move(player_title(p) + " played " + t.name(v));
}

bool Session::engine_to_move() const {
  const Position& pos = game_.position;
  return at_end() && !pos.is_over() && engine(pos.to_move()) != nullptr;
}

std::string Session::engine_move() {
  if (thinking_.valid()) {  // one started earlier: its move, unless it was for another position
    std::string m = finish_engine();
    if (!m.empty()) return m;
  }
  if (!start_engine()) return "";
  return finish_engine();
}

bool Session::start_engine() {
  if (thinking_.valid() || !engine_to_move()) return false;
  thinking_ply_ = game_.position.ply();
  thinking_hash_ = game_.position.hash();
  Agent* a = engine(game_.position.to_move());
  thinking_agent_ = a;
  // The agent is used by this thread alone until finish_engine() collects its choice.
  // (stop() is the one call other threads may make.)
  thinking_ = std::async(std::launch::async,
                         [a, position = Position(game_.position)] { return a->choose(position); });
  return true;
}

bool Session::engine_ready() {
  if (!thinking_.valid()) return false;
  if (thinking_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) return true;
  if (stale()) thinking_agent_->stop();  // its move would be dropped: no need to finish it
  return false;
}

bool Session::stale() const {
  // The same length and hash: the position the engine started from, the same side to move.
  return game_.position.ply() != thinking_ply_ || game_.position.hash() != thinking_hash_;
}

std::string Session::finish_engine() {
  if (!thinking_.valid()) return "";
  if (stale()) stop_thinking();      // its move will be dropped: no need to wait for it all
  const Vertex v = thinking_.get();  // rethrows what the engine threw
  Position& pos = game_.position;
  if (stale()) return "";  // the game moved on while the engine thought
  const Player p = pos.to_move();
  Agent* a = engine(p);
  if (pos.check_move(p, v) != MoveStatus::kLegal) {
    throw Error("the engine " + a->spec() + " chose an illegal move");
  }
  // Someone looking at an earlier move meanwhile keeps looking at it.
  const bool was_at_end = at_end();
  const std::uint32_t viewing = shown_ply();
  pos.play(v);
  std::string m =
      after_move(player_title(p) + " (" + a->spec() + ") played " + pos.topology().name(v));
  if (!was_at_end) show(viewing);
  return m;
}

std::string Session::take_back() {
  Position& pos = game_.position;
  if (pos.ply() == 0) return "Nothing to take back.";
  take_back_to_person(pos, [this](Player p) { return engine(p) == nullptr; });
  if (thinking_.valid()) thinking_agent_->stop();  // its move is now stale
  shown_ = pos;
  save();
  std::string m = "Took back to move " + std::to_string(pos.ply()) + ".";
  if (!save_error_.empty()) m += " NOT SAVED: " + save_error_;
  return m;
}

std::string Session::after_move(const std::string& what) {
  shown_ = game_.position;
  std::string m = what;
  const MoveRecord& r = game_.position.last_move();
  if (r.stones_removed > 0) {
    m += ", removing " + std::to_string(r.stones_removed) +
         (r.stones_removed == 1 ? " stone" : " stones");
  }
  m += ".";
  if (game_.position.is_over()) m += " " + player_title(game_.position.winner()) + " wins.";
  save();
  if (!save_error_.empty()) m += " NOT SAVED: " + save_error_;
  return m;
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

}  // namespace tanbo::viz
