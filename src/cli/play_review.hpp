// The parts of `tanbo play` around the moves themselves: the players' console (lines in, boards
// out), taking turns back, saving, and the menu of a finished game (step through it, take
// moves back and play on, save it, start a new one).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tanbo/session/session.hpp"

namespace tanbo::cli {

// Where a game is played: the input lines and the text written back.
class PlayConsole {
 public:
  PlayConsole(std::istream& in, std::ostream& out, bool echo, bool colour)
      : in_(in), out_(out), echo_(echo), colour_(colour) {}

  std::ostream& out() { return out_; }

  enum class Read { kLine, kTooLong, kEnd };
  // Writes `prompt`, reads one line into `line`. Input that does not come from a terminal is
  // repeated after the prompt, so that a transcript reads as a session. kTooLong: the line
  // was longer than kMaxInputLine (it is then not to be used); kEnd: the input ended.
  Read read(const std::string& prompt, std::string& line);

  // The board (with `highlight` as '*') and its status line.
  void draw(const Position& pos, const std::vector<std::string>& names,
            const std::vector<Vertex>* highlight = nullptr);

 private:
  std::istream& in_;
  std::ostream& out_;
  bool echo_;
  bool colour_;
};

// A count typed after a command ("undo 3", "goto 12"): digits only, at most 9 of them.
std::optional<std::uint32_t> parse_count(const std::string& text);

// `undo` and `undo N`: without N, the last turn and the engines' turns before it, until a
// person is to move (Session::take_back); with N, exactly the last N turns. Writes what was
// taken back, or why nothing was, to `out`. Returns the number of turns taken back.
std::uint32_t undo_command(Session& session, const std::string& count, std::ostream& out);

// `save FILE`: the game file (SGF when the name ends in .sgf), written atomically; writes
// "saved to FILE" or why not.
void save_command(const Session& session, const std::string& file, std::ostream& out);

// What the players chose in the menu of a finished game.
enum class AfterGame {
  kPlayOn,  // turns were taken back, or a new game set up: play goes on
  kLeave,   // quit, or the input ended
};

// The menu of a finished game, until the players play on or leave: review (step back and
// forward through the game, go to a move), the moves played, undo [N], save FILE, new (the
// same board, setup, players and names), help, quit. The game is changed by undo and new only.
AfterGame game_over_menu(Session& session, PlayConsole& console);

}  // namespace tanbo::cli
