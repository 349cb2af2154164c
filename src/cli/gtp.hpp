// The engine protocol: GTP version 2 framing over a Tanbo position (docs/protocol.md).
#pragma once

#include <array>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"

namespace tanbo::cli {

// GTP's vertices name the columns A to Z without I, so `boardsize` takes boards of at most
// 25x25, and GoGui draws no wider board.
inline constexpr std::uint32_t kMaxGtpBoardSize = 25;

class GtpEngine {
 public:
  // Answer of one command: success or failure, and the text after "=" or "?".
  struct Reply {
    bool ok = true;
    std::string text;
  };
  using Handler = std::function<Reply(const std::vector<std::string>& args)>;
  // Chooses a move for the side to move (the position is the engine's own; do not keep it).
  using MoveGenerator = std::function<Vertex(const Position& pos)>;

  // Starts on the 19x19 board with the steere1995 setup (or the given position).
  explicit GtpEngine(std::uint64_t seed = 1);
  explicit GtpEngine(Position start, std::uint64_t seed = 1);

  // Handles one input line; returns the full response ("=id ...\n\n" or "?id ...\n\n"), or
  // "" for a blank or comment line. Sets quit() after `quit`. Whatever text went into the
  // answer, it has no blank line and no control byte but line feed and tab inside.
  std::string handle_line(const std::string& line);
  // Reads commands from `in` until `quit`, the end of input or an answer that cannot be
  // written, answering on `out`.
  void run(std::istream& in, std::ostream& out);
  bool quit() const { return quit_; }

  // Registers (or replaces) a command; extensions use this. `listed`, when given, says whether
  // list_commands and known_command show the command now (a command that only works on some
  // boards); it is answered either way.
  void add_command(const std::string& name, Handler handler, std::function<bool()> listed = {});
  // Replaces the move generator used by genmove (default: a uniformly random legal move).
  void set_move_generator(MoveGenerator gen) { generator_ = std::move(gen); }
  // Called after the position is replaced (new board, setup, clear_board or loadsgf).
  void on_new_game(std::function<void()> hook) { new_game_hook_ = std::move(hook); }
  // Starts a new game from `start`, which may hold moves already played (loadsgf): the clocks
  // start afresh and the new-game hook runs. `names`: the players' names, for printsgf.
  void start_game(Position start, std::vector<std::string> names = {});
  // The players' names of a loaded game ("" or none when not known).
  const std::vector<std::string>& player_names() const { return names_; }
  // Called before each genmove and reg_genmove with the mover's clock (time_settings,
  // time_left): the seconds left and the moves they are for (0: the rest of the game), or
  // seconds < 0 when no clock is known.
  using ClockHook = std::function<void(double seconds, int moves)>;
  void on_clock(ClockHook hook) { clock_hook_ = std::move(hook); }

  const Position& position() const { return *pos_; }
  Position& position() { return *pos_; }
  // The seed the engine was made with (tanbo gtp --seed): tanbo-analyze seeds its searches
  // with it.
  std::uint64_t seed() const { return seed_; }
  // The MCTS that tanbo-analyze searches with: tanbo gtp sets it from its --engine when that
  // is an mcts player; else the default search. tanbo-analyze replaces the playout and time
  // limits.
  void set_analysis_config(const MctsConfig& config) { analysis_config_ = config; }
  const MctsConfig& analysis_config() const { return analysis_config_; }

 private:
  // The built-in commands, in groups: register_builtin calls each.
  void register_builtin();
  void register_admin();    // protocol_version, name, version, known_command, ...
  void register_board();    // boardsize, clear_board, topology, setup
  void register_play();     // play, undo, resign
  void register_queries();  // legal_moves, list_stones, side_to_move, winner, roots, showboard
  void register_engine();   // genmove, reg_genmove
  void register_clock();    // time_settings, time_left
  void reset(Position start);
  Player need_player(const std::string& text) const;  // throws Error
  Vertex need_vertex(const std::string& text) const;  // throws Error
  Vertex generate(Player p);                          // genmove's checks and choice
  // genmove's answer once a two-player game is over: `resign` for the loser, `pass` for the
  // winner (the endings GTP controllers such as gogui-twogtp know); "" otherwise.
  std::string answer_after_end(Player p) const;
  // The position boardsize N starts (N from 1 to kMaxGtpBoardSize): see gtp.cpp.
  Position board_of_size(std::uint32_t n) const;
  void reset_clocks();                   // every player's clock as time_settings starts it
  void spend(Player p, double seconds);  // p's clock after a genmove took `seconds`

  // GTP time control: main time, then periods of `byo` seconds for `stones` moves (Canadian
  // byo-yomi); `limited` is false without time_settings or when it said "no limit".
  struct TimeSettings {
    bool limited = false;
    double main = 0;
    double byo = 0;
    int stones = 0;
  };
  // A player's clock: seconds left, for `stones` moves (0: main time).
  struct Clock {
    bool known = false;
    double seconds = 0;
    int stones = 0;
  };
  TimeSettings time_;
  std::array<Clock, kMaxPlayers + 1> clocks_{};
  ClockHook clock_hook_;

  std::unique_ptr<Position> pos_;
  std::vector<std::string> names_;  // players' names of a loaded game
  std::map<std::string, Handler> commands_;
  std::map<std::string, std::function<bool()>> listed_;  // add_command's `listed`, when given
  bool is_listed(const std::string& name) const;         // known, and listed now
  MoveGenerator generator_;
  std::function<void()> new_game_hook_;
  std::uint64_t seed_;
  MctsConfig analysis_config_;
  Rng rng_;
  bool quit_ = false;
  int passes_after_end_ = 0;  // passes played once the game was over (not turns: no change)
};

// Reads one line of GTP input as the protocol's preprocessing leaves it (GTP 2, section 3.1):
// control characters other than tab dropped, a tab read as a space, a run of spaces as one, a
// comment (from '#' to the end of the line) dropped. At most kMaxInputLine + 1 bytes are kept
// (handle_line refuses a longer line) and the rest is read and dropped, so that a long comment
// or run of blanks makes no line too long. False at the end of the input.
bool read_gtp_line(std::istream& in, std::string& line);

// Adds tanbo-solve and tanbo-analyze to an engine (gtp_solver.cpp; the engine constructor
// calls it).
void add_solver_commands(GtpEngine& engine);
// Checks a command's argument count, min to max; throws tanbo::Error "usage: USAGE" otherwise,
// with "(it takes no arguments)" for a command that takes none (gtp.cpp).
void need_args(const std::vector<std::string>& args, std::size_t min, std::size_t max,
               const char* usage);
// Adds the commands clients such as GoGui, Sabaki and twogtp send: komi, loadsgf, printsgf,
// final_score, gogui-analyze_commands and root_space (gtp_client.cpp; the engine constructor
// calls it).
void add_client_commands(GtpEngine& engine);
// Adds GoGui's ruler commands (gogui-rules_game_id, _board_size, _board, _legal_moves,
// _side_to_move, _final_result), with which GoGui shows a game of Tanbo on square boards
// (gtp_rules.cpp; the engine constructor calls it).
void add_rules_commands(GtpEngine& engine);
// The arguments of tanbo-analyze, PLAYOUTS [INTERVAL] (interval 0: the plain form).
struct AnalyzeRequest {
  std::uint64_t playouts = 0;
  double interval = 0;
};
// Reads tanbo-analyze's arguments, checked alike for both forms, and checks that the engine's
// game goes on; throws tanbo::Error saying why not (gtp_solver.cpp).
AnalyzeRequest need_analyze_request(const GtpEngine& engine, const std::vector<std::string>& a);
// One line per candidate move, best first: "move V visits N winrate W [proven] pv V1 V2 ...".
std::string analysis_text(const Position& pos, const std::vector<MoveAnalysis>& lines);
// The search tanbo-analyze runs: the engine's MCTS options without their playout and time
// limits (each form sets its own).
MctsConfig analysis_config(const GtpEngine& engine);
// Reads commands from `in` until `quit`, the end of input or an answer that cannot be written,
// answering on `out`, like GtpEngine::run, and also answers the streaming form
// "tanbo-analyze PLAYOUTS INTERVAL" with an update every INTERVAL seconds until its search is
// done or the next command comes (gtp_loop.cpp).
void run_gtp(GtpEngine& engine, std::istream& in, std::ostream& out);
// Splits a command line as GTP reads it (control characters other than tabs dropped, tabs as
// spaces, nothing from '#' on): the id, if the first word is one, and the other words, the
// command's name first. False for a blank or comment line.
bool split_command(const std::string& raw, std::string& id, std::vector<std::string>& words);
// Writes `text` (an answer or part of one) to `out` and flushes it; when it cannot be written,
// notes the cause for the program's last message (note_output_failure) and returns false.
bool send(std::ostream& out, const std::string& text);

}  // namespace tanbo::cli
