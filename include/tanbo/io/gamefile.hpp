// Game files: a documented, line-oriented text format for playing by file, mail or chat
// (docs/game-format.md), read by replaying every move through the rules.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/input_file.hpp"

namespace tanbo {

inline constexpr int kGameFormatVersion = 1;

// A game: the position (with its whole history) and what the header says about it.
struct Game {
  Position position;
  std::vector<std::string> names;  // per player, "" when not given
  std::string date;                // when the game was created, ISO 8601 UTC
  std::string event;               // optional free text ("event" header line)
  // A game file's comment lines ("# ...", each ending in '\n'), kept so that writing the game
  // again keeps them: those of the header, and those among the moves, the lines that follow
  // one another kept together with the number of history records (moves and resignations)
  // before them. Written back in order; a number past the end follows the last move. (Lines
  // kept together cost memory by their text only: a file of comment lines takes its size.)
  std::string header_comments;
  std::vector<std::pair<std::size_t, std::string>> move_comments;

  explicit Game(Position p) : position(std::move(p)) {}
};

// A new game at its start. `names` may be shorter than the player count.
// `date` "" = now. Throws tanbo::Error when the topology or setup is refused.
Game new_game(std::string_view topology, std::string_view setup, int players,
              const std::vector<std::string>& names, std::string date = "");
// The same on a board built already (read from DOT text, or checked against limits of the
// caller's). Throws tanbo::Error when the setup is refused.
Game new_game(TopologyPtr topology, std::string_view setup, int players,
              const std::vector<std::string>& names, std::string date = "");

// The setups a new game on `topology` for `players` (0: each setup's own count) can start
// from: those of setups_for whose starting position the rules accept (a DOT board's own is
// refused when, say, two seeds of a colour touch), in its order.
struct StartingSetups {
  std::string by_default;          // the one new_game takes for "default"; "" when it starts none
  std::vector<std::string> names;  // every one, by_default first
};
StartingSetups starting_setups(const TopologyPtr& topology, int players);

// The current time as an ISO 8601 UTC date-time ("2026-11-21T07:50:00Z").
std::string utc_now();

// The game file text (header, moves, result).
std::string write_game(const Game& game);

// Reads game file text. Every move is replayed through the rules; anything wrong (a garbled
// or illegal line, a result that contradicts the moves, a missing header) throws tanbo::Error
// "ORIGIN:LINE: reason" and nothing is returned. Text over kMaxGameFileBytes (input_file.hpp)
// is refused as a file that large would be.
Game read_game(std::string_view text, std::string_view origin = "game");

// Reads a file: SGF when its text starts with '(' (see sgf.hpp), else the game format. The file
// is read through the input layer (input_file.hpp: a regular file of at most 64 MB). Throws
// tanbo::Error naming the file (shown_name) when it cannot be read or is refused.
Game load_game(const std::string& path);

// Reads file text as load_game does; `origin` names it in messages.
Game game_from_text(const std::string& text, const std::string& origin);

// The game written in the format that goes with a file: SGF when `text_or_name` is SGF text
// (is_name false) or a name ending in .sgf (is_name true), else the game format.
std::string write_game_as(const Game& game, const std::string& text_or_name, bool is_name);

// Writes the game file to `path` atomically and under the writers' lock (safe_file.hpp): SGF
// when the name ends in .sgf, as tanbo new and save FILE write it.
void save_game(const Game& game, const std::string& path);

// The read-check-write of every command that changes a game file: locks `path`, reads the game
// (game file or SGF) under the lock, lets `change` alter it and writes it back atomically in
// the format it had before the lock is released. `change` throws tanbo::Error to refuse, and
// then nothing is written. Returns the changed game.
Game update_game_file(const std::string& path, const std::function<void(Game&)>& change);

// Writes a new game file (SGF when the name ends in .sgf). Without `overwrite` the file is
// created only if none of that name exists; otherwise an existing file is replaced.
void create_game_file(const Game& game, const std::string& path, bool overwrite);

// Saves `game` under the lock only if the file still holds the game written as `expected`
// (the text of the game this program last read or wrote, in either format; the file's own
// formatting and comments do not matter; "" = the file must not exist yet). Throws
// tanbo::Error saying the file was changed by another program otherwise. The file keeps its
// format (SGF stays SGF); a new file is SGF when its name ends in .sgf. Returns the text
// written, to pass as `expected` next time.
std::string save_game_if_unchanged(const Game& game, const std::string& path,
                                   const std::string& expected);

// Reads a player of this game: a name the header stored (case-insensitive) first, so that the
// players of "--players a,b" are "a" and "b" (not b for Black), then a colour name, letter or
// number (parse_player). A name that several players share (a file may hold such names: tanbo
// match names engine players by their spec) names none of them. Returns nullopt when the text
// names nobody in this game.
std::optional<Player> game_player(const Game& game, std::string_view text);

// The players of the game for messages: "black (alice), white (bob)".
std::string players_of(const Game& game);

// The game's result in words ("White wins", "Black wins (White resigned)"), "" while playing.
std::string result_text(const Game& game);

}  // namespace tanbo
