// A game session: one game between people and engine players, as every front end runs it (the
// terminal game, the viewer, the web server). It owns the game, knows who plays each seat, plays
// moves for the players after checking them against the rules, lets engines take their turns
// (on the caller's thread, on a thread of its own, or on a thread pool of the caller's), takes
// turns back, steps through the moves played, and saves the game file after every change.
//
// The session is not thread-safe: one thread (or one lock) drives it. The one exception is
// engine thinking: an EngineTurn is a copy of what the engine needs, which any thread may run.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/ai/agent.hpp"
#include "tanbo/io/gamefile.hpp"

namespace tanbo {

// Who plays one seat: a person, or an engine made from `spec` (make_agent).
struct Seat {
  std::string spec = "human";    // "human", or the engine's spec
  std::unique_ptr<Agent> agent;  // nullptr for a person
  bool person() const { return agent == nullptr; }
};

// A seat for `who`: "human", or an engine spec (make_agent's grammar) made with `seed`.
// Throws tanbo::Error with make_agent's reason for a spec it refuses.
Seat make_seat(const std::string& who, std::uint64_t seed = 1);

// The position after the first `ply` turns of `game_position`'s history (ply is clamped to the
// game's length): a copy of the game, turned back with the rules' exact undo.
Position position_at(const Position& game_position, std::uint32_t ply);

// Takes back the last turn, and then every earlier turn while the player to move is not a
// person (`is_person(p)` false), so that a person is to move again, or the game is back at its
// start. When no player of the game is a person, only the last turn goes. A turn taken back
// may have been a move or a resignation, and may have ended the game.
// Returns the number of turns taken back: 0 when the game is at its start (ply() == 0).
std::uint32_t take_back_to_person(Position& pos, const std::function<bool(Player)>& is_person);

// What became of a request to play, resign or take back.
enum class TurnStatus {
  kDone,          // played (or taken back)
  kNotAPoint,     // the text names no point of the board
  kIllegal,       // the rules refuse the move (the message gives the rules' reason)
  kNotYourTurn,   // another player is to move
  kEngineTurn,    // an engine plays the side to move
  kGameOver,      // the game is finished
  kNothingToUndo  // take back: the game is at its start, or fewer turns were played
};

struct TurnResult {
  TurnStatus status = TurnStatus::kDone;
  std::string message;  // a sentence for the players: what happened, or why nothing did
  std::string reason;   // kIllegal: the rules' reason alone (Position::explain)
  bool done() const { return status == TurnStatus::kDone; }
};

// What an engine needs to choose a move, taken from the session so that it can think on any
// thread while the session goes on: the agent, a copy of the position, and where the game was.
struct EngineTurn {
  Agent* agent = nullptr;
  Position position;
  std::uint32_t ply = 0;   // the game's length when the turn was taken
  std::uint64_t hash = 0;  // and its position (stones and side to move)
};

class Session {
 public:
  // `seats[p-1]` plays player p; missing seats are people. `path` "" = never saved; otherwise
  // the game is saved there after every change (SGF when the name ends in .sgf), never over
  // moves another program wrote meanwhile (save_game_if_unchanged).
  explicit Session(Game game, std::vector<Seat> seats = {}, std::string path = "");
  ~Session();  // stops an engine still thinking on the session's own thread and waits for it
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // ------------------------------------------------------------------ the game and its seats
  const Game& game() const { return game_; }
  const Position& position() const { return game_.position; }  // the latest position
  std::uint32_t ply() const { return game_.position.ply(); }
  const Seat& seat(Player p) const;  // precondition: 1 <= p <= players
  Agent* engine(Player p) const;     // nullptr for a person
  bool is_person(Player p) const { return engine(p) == nullptr; }
  // Bumped by every change of the game (a move, a take-back, a new or loaded game): a front
  // end redraws, a server tells its watchers, when it changes.
  std::uint64_t version() const { return version_; }

  // ------------------------------------------------------------------ turns
  // Whether `as` may play v now, and the message when not (nothing is played). `as` = 0 means
  // "whoever is to move", as at a shared terminal; a seat's player number makes a seat's
  // request (web clients): another player's turn is kNotYourTurn.
  TurnResult check(Player as, Vertex v) const;
  // Plays v for `as` after check(); the message says what was played and removed, and who
  // won when the move ended the game.
  TurnResult play(Player as, Vertex v);
  // The same with a point named in the board's notation (kNotAPoint when it names none).
  TurnResult play(Player as, std::string_view point);
  // Plays v for the side to move as play(0, v) does, but says nothing: kDone, or the status of
  // the refusal (check(0, v) has its message). For programs that play many moves in a loop (the
  // Python module), where describing each move would cost more than playing it.
  TurnStatus play_quietly(Vertex v);
  // `as` resigns (0 = the side to move). A person may resign on any of their turns; a seat's
  // request when it is not that seat's turn is kNotYourTurn, and an engine's seat's is
  // kEngineTurn (an engine never resigns).
  TurnResult resign(Player as);
  // Whether `as` may resign now, and the message when not (nothing changes): resign() plays
  // it when this is kDone. A server stores a turn between the check and the turn itself.
  TurnResult check_resign(Player as) const;

  // ------------------------------------------------------------------ engine turns
  // True when the game is not over and an engine plays the side to move.
  bool engine_to_move() const;
  // The engine's turn to run anywhere (nullopt when no engine is to move).
  std::optional<EngineTurn> engine_turn() const;
  // Plays what the engine chose for `turn`, unless the game has moved on since (a take-back, a
  // move or a new game meanwhile): then nothing is played and the status is kNotYourTurn with
  // the message "" (a stale choice is dropped silently). Throws tanbo::Error when the engine
  // chose an illegal move (a bug in the engine, not a player's mistake).
  TurnResult play_engine_choice(const EngineTurn& turn, Vertex v);
  // Lets the engine to move choose on the caller's thread and plays its move ("" when no
  // engine is to move).
  TurnResult engine_move();

  // The same on a thread of the session's own, for front ends that must stay live meanwhile:
  // start_engine() starts it (false when no engine is to move or one is thinking already);
  // engine_ready() says when it has chosen; finish_engine() waits for the choice and plays it
  // (play_engine_choice). A take-back asks the thinking engine to stop (Agent::stop), and so do
  // engine_ready() and finish_engine() while its choice is stale.
  bool start_engine();
  bool engine_thinking() const { return thinking_.valid(); }
  bool engine_ready();
  TurnResult finish_engine();

  // ------------------------------------------------------------------ taking back
  // The last turn and the engines' turns before it, back to a person's turn
  // (take_back_to_person above).
  TurnResult take_back();
  // Exactly the last n turns (kNothingToUndo when fewer were played, and then nothing changes).
  TurnResult take_back(std::uint32_t n);

  // ------------------------------------------------------------------ stepping through the game
  // The move on display: the position after `shown_ply()` turns. It follows the game's end
  // while it is there; once a front end steps back, it stays put while the game goes on. The
  // reference holds until the next change of the game or of the move on display.
  const Position& shown() const { return shown_ ? *shown_ : game_.position; }
  std::uint32_t shown_ply() const { return shown().ply(); }
  bool at_end() const { return shown_ply() == ply(); }
  void show(std::uint32_t ply);  // clamped to 0..ply()
  void first() { show(0); }
  void previous() { show(shown_ply() > 0 ? shown_ply() - 1 : 0); }
  void next() { show(shown_ply() + 1); }
  void last() { show(ply()); }

  // ------------------------------------------------------------------ new games and files
  // A new game with the same board, setup, players and names; the seats stay.
  void new_game();
  // Goes on with `game` (a loaded file): seats beyond its players are dropped, missing ones
  // become people.
  void replace_game(Game game);
  // Writes the game to `file` atomically (SGF when the name ends in .sgf). Throws tanbo::Error.
  void save_as(const std::string& file) const;
  // The last error of the automatic save to `path`, "" when the file is up to date (or none).
  const std::string& save_error() const { return save_error_; }

 private:
  void changed();  // bumps the version, stops a stale engine, shows the end, saves
  TurnResult after_change(TurnResult result);  // changed(), and the message says who won
  bool stale(std::uint32_t ply, std::uint64_t hash) const;
  void stop_thinking();  // stops the session's own thinking engine and waits for its choice
  void save();

  Game game_;
  std::vector<Seat> seats_;
  std::string path_;
  // The move on display when it is not the game's end (then it is the game's own position, so
  // that a move costs no copy of the position).
  std::optional<Position> shown_;
  std::uint64_t version_ = 0;
  std::string save_error_;
  std::string saved_text_;        // the game as last read or saved (write_game's text)
  std::future<Vertex> thinking_;  // the session's own thinking engine's choice
  std::optional<EngineTurn> thinking_turn_;
};

}  // namespace tanbo
