// Game files: a documented, line-oriented text format for playing by file, mail or chat
// (docs/game-format.md), read by replaying every move through the rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tanbo/position.hpp"

namespace tanbo {

inline constexpr int kGameFormatVersion = 1;

// A game: the position (with its whole history) and what the header says about it.
struct Game {
  Position position;
  std::vector<std::string> names;  // per player, "" when not given
  std::string date;                // when the game was created, ISO 8601 UTC
  std::string event;               // optional free text ("event" header line)

  explicit Game(Position p) : position(std::move(p)) {}
};

// A new game at its start. `names` may be shorter than the player count.
// `date` "" = now. Throws tanbo::Error when the topology or setup is refused.
Game new_game(std::string_view topology, std::string_view setup, int players,
              const std::vector<std::string>& names, std::string date = "");

// The current time as an ISO 8601 UTC date-time ("2026-11-21T07:50:00Z").
std::string utc_now();

// The game file text (header, moves, result).
std::string write_game(const Game& game);

// Reads game file text. Every move is replayed through the rules; anything wrong (a garbled
// or illegal line, a result that contradicts the moves, a missing header) throws tanbo::Error
// "ORIGIN:LINE: reason" and nothing is returned.
Game read_game(std::string_view text, std::string_view origin = "game");

// Reads a file: SGF when its text starts with '(' (see sgf.hpp), else the game format.
// Throws tanbo::Error naming the file when it cannot be read or is refused.
Game load_game(const std::string& path);

// Writes the game file to `path` atomically (see write_file_atomic).
void save_game(const Game& game, const std::string& path);

// Writes `contents` to a temporary file in the same directory as `path`, flushes it to disk,
// then renames it over `path`: readers see the old file or the new one, never a mixture.
// Throws tanbo::Error (and leaves `path` untouched) when any step fails.
void write_file_atomic(const std::string& path, std::string_view contents);

// Reads a whole file; throws tanbo::Error naming it when it cannot be read.
std::string read_text_file(const std::string& path);

// The game's result in words ("White wins", "Black wins (White resigned)"), "" while playing.
std::string result_text(const Game& game);

}  // namespace tanbo
