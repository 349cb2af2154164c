// What the viewer window does with a game, without any drawing: which move is shown, what a
// click on a point does (play it for a person to move, or say why not), engine replies,
// taking back, and saving the game file after every change. The window (viewer.hpp) turns
// mouse and keys into these calls; tests drive it directly.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "tanbo/ai/agent.hpp"
#include "tanbo/io/gamefile.hpp"

namespace tanbo::viz {

// The position after the first `ply` turns of `game_position`'s history.
Position position_at(const Position& game_position, std::uint32_t ply);

class Session {
 public:
  // `engines[p-1]` plays player p (nullptr or missing = a person). `path` "" = never saved.
  Session(Game& game, std::string path, std::vector<std::unique_ptr<Agent>> engines);
  ~Session();  // stops an engine still thinking and waits for it
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Game& game() const { return game_; }
  const Position& shown() const { return shown_; }          // the position on screen
  std::uint32_t shown_ply() const { return shown_.ply(); }  // its move number
  std::uint32_t last_ply() const { return game_.position.ply(); }
  bool at_end() const { return shown_ply() == last_ply(); }
  Agent* engine(Player p) const;

  // History navigation (clamped to 0..last_ply()).
  void show(std::uint32_t ply);
  void first() { show(0); }
  void previous() { show(shown_ply() > 0 ? shown_ply() - 1 : 0); }
  void next() { show(shown_ply() + 1); }
  void last() { show(last_ply()); }

  // A click on point v: plays it when a person is to move, the latest position is shown and
  // the move is legal. Returns the sentence to show: what was played (and removed), or why
  // nothing was (the rules' reason from Position::explain, a finished game, an engine's turn,
  // an earlier move on screen). `played` tells which.
  std::string click(Vertex v, bool* played = nullptr);
  // True when an engine is to move in the latest position (and it is shown).
  bool engine_to_move() const;
  // Lets the engine to move play, waiting for it; returns what it did ("" when no engine is
  // to move).
  std::string engine_move();

  // The same in the background, so that the window stays live while an engine thinks:
  // start_engine() lets the engine to move choose on a thread of its own, from a copy of the
  // latest position (false when no engine is to move or one is thinking already);
  // engine_ready() says when it has chosen; finish_engine() waits for the choice and plays it
  // if the game is still where it was when the engine started. A take-back or a move made
  // meanwhile makes the choice stale: it is dropped and finish_engine() returns "". A take-back
  // asks the thinking engine to stop (Agent::stop), and so do engine_ready() and
  // finish_engine() while its choice is stale, so that the engine is soon free to think about
  // the position as it is.
  bool start_engine();
  bool engine_thinking() const { return thinking_.valid(); }
  bool engine_ready();
  std::string finish_engine();
  // Takes back the last turn, and further engine turns, until a person is to move
  // (take_back_to_person in tanbo/core/take_back.hpp, the rule `tanbo play`'s undo follows too).
  std::string take_back();
  // The last save error, "" when the file is up to date (or there is none).
  const std::string& save_error() const { return save_error_; }

 private:
  std::string after_move(const std::string& what);
  bool stale() const;    // the game moved on since the thinking engine started
  void stop_thinking();  // stops the thinking engine and waits until it has chosen
  void save();

  Game& game_;
  std::string path_;
  std::vector<std::unique_ptr<Agent>> engines_;
  Position shown_;
  std::string save_error_;
  std::string saved_text_;           // the game as it was last read or saved (write_game's text)
  std::future<Vertex> thinking_;     // the engine's choice, while it thinks
  Agent* thinking_agent_ = nullptr;  // that engine
  std::uint32_t thinking_ply_ = 0;   // the game's length when it started
  std::uint64_t thinking_hash_ = 0;  // and its position (stones and side to move)
};

}  // namespace tanbo::viz
