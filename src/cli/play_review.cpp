#include "play_review.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/io/sgf.hpp"

namespace tanbo::cli {

PlayConsole::Read PlayConsole::read(const std::string& prompt, std::string& line) {
  out_ << prompt << std::flush;
  if (!read_line(in_, line, kMaxInputLine + 1)) {
    out_ << "\n";
    return Read::kEnd;
  }
  // Piped input is repeated to keep the transcript readable: a huge line only in part, and one
  // with control characters (an escape sequence would drive the terminal) quoted and escaped.
  if (echo_) {
    const bool plain = line.size() <= 200 && !has_control_characters(trim(line, "\r"));
    out_ << (plain ? line : quote_input(line, 60)) << "\n";
  }
  return line.size() > kMaxInputLine ? Read::kTooLong : Read::kLine;
}

void PlayConsole::draw(const Position& pos, const std::vector<std::string>& names,
                       const std::vector<Vertex>* highlight) {
  RenderOptions o;
  o.colour = colour_;
  o.highlight = highlight;
  out_ << render_board(pos, o) << render_status(pos, names) << "\n";
}

std::optional<std::uint32_t> parse_count(const std::string& text) {
  const auto n = parse_whole(text, 999'999'999);
  if (!n) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

std::uint32_t undo_command(Session& session, const std::string& count, std::ostream& out) {
  const std::uint32_t before = session.ply();
  TurnResult r;
  if (count.empty()) {
    r = session.take_back();
  } else if (const auto n = parse_count(count); n && *n > 0) {
    r = session.take_back(*n);
  } else {
    out << "undo takes a number of turns: undo 2 (not " << quote_input(count) << ")\n";
    return 0;
  }
  out << r.message << "\n";
  return before - session.ply();
}

void save_command(const Session& session, const std::string& file, std::ostream& out) {
  if (file.empty()) {
    out << "save needs a file name: save game.tanbo\n";
    return;
  }
  try {
    session.save_as(file);
    out << "saved to " << shown_name(file) << "\n";
  } catch (const Error& e) {
    out << "not saved: " << e.what() << "\n";
  }
}

namespace {

const char* const kMenuHelp =
    "the game is over; commands:\n"
    "  review         go to the start; then Enter (or forward) shows the next move\n"
    "  back [N]       N moves back (one without N)\n"
    "  forward [N]    N moves forward (one without N); an empty line is forward\n"
    "  goto N         the position after move N (0 is the start)\n"
    "  first, last    the start, the end of the game\n"
    "  moves          the moves played, numbered\n"
    "  board          draw the position shown again\n"
    "  undo [N]       take back the last N turns (without N: back to a person's turn) and\n"
    "                 play on from there; engine players answer again\n"
    "  save FILE      save the whole game (game-file format; .sgf gives SGF on 2D boards)\n"
    "  new            a new game: the same board, setup and players\n"
    "  help           this list\n"
    "  quit           leave\n";

// The menu of a finished game. The session's shown move is the one on screen.
class GameOverMenu {
 public:
  GameOverMenu(Session& session, PlayConsole& console) : session_(session), console_(console) {
    session_.last();
  }

  AfterGame run() {
    out() << "The game is over: review, back, forward, goto N, first, last, moves, undo [N], "
             "save FILE, new, quit (help explains them).\n";
    for (;;) {
      std::string line;
      const auto read = console_.read(prompt(), line);
      if (read == PlayConsole::Read::kEnd) return AfterGame::kLeave;
      if (read == PlayConsole::Read::kTooLong) {
        out() << "the line is longer than " << kMaxInputLine << " bytes; ignored\n";
        continue;
      }
      if (const auto after = command(trim(line))) return *after;
    }
  }

 private:
  std::ostream& out() { return console_.out(); }
  std::uint32_t total() const { return session_.ply(); }
  std::uint32_t shown() const { return session_.shown_ply(); }

  std::string prompt() const {
    if (shown() == total()) return "game over> ";
    return "move " + std::to_string(shown()) + " of " + std::to_string(total()) + "> ";
  }

  // Handles one line; a value when the menu is done.
  std::optional<AfterGame> command(const std::string& line) {
    std::istringstream words(line);
    std::string word, rest;
    words >> word;
    std::getline(words, rest);
    rest = trim(rest);
    const std::string cmd = to_lower(word);
    if (cmd == "quit" || cmd == "exit") return AfterGame::kLeave;
    if (cmd.empty() || cmd == "forward" || cmd == "next" || cmd == "f") {
      step(rest, +1);
    } else if (cmd == "back" || cmd == "previous" || cmd == "b") {
      step(rest, -1);
    } else if (cmd == "review" || cmd == "first") {
      show(0);
    } else if (cmd == "last") {
      show(total());
    } else if (cmd == "goto" || cmd == "go") {
      go_to(rest);
    } else if (cmd == "board" || cmd == "show") {
      show(shown());
    } else if (cmd == "moves") {
      list_moves();
    } else if (cmd == "undo") {
      return undo(rest);
    } else if (cmd == "save") {
      save_command(session_, rest, out());
    } else if (cmd == "new") {
      start_new_game();
      return AfterGame::kPlayOn;
    } else if (cmd == "help" || cmd == "?") {
      out() << kMenuHelp;
    } else {
      out() << "The game is over (" << result_text(session_.game()) << "): " << quote_input(line)
            << " is not a command here; type review, undo, new, quit or help\n";
    }
    return std::nullopt;
  }

  void step(const std::string& count, int direction) {
    std::uint32_t n = 1;
    if (!count.empty()) {
      const auto c = parse_count(count);
      if (!c) {
        out() << "a number of moves, e.g. " << (direction > 0 ? "forward" : "back") << " 5\n";
        return;
      }
      n = *c;
    }
    if (direction > 0 && shown() == total()) {
      out() << "this is the end of the game (move " << total() << ")\n";
      return;
    }
    if (direction < 0 && shown() == 0) {
      out() << "this is the start of the game\n";
      return;
    }
    const std::uint32_t at = shown();
    show(direction > 0 ? at + std::min(n, total() - at) : at - std::min(n, at));
  }

  void go_to(const std::string& count) {
    const auto n = parse_count(count);
    if (!n || *n > total()) {
      out() << "goto takes a move number from 0 (the start) to " << total() << "\n";
      return;
    }
    show(*n);
  }

  // Draws the position after move `ply`, with what that move did.
  void show(std::uint32_t ply) {
    session_.show(ply);
    const Position& pos = session_.shown();
    if (ply == 0) {
      out() << "start of the game (" << total() << " moves in all)\n";
    } else {
      out() << "move " << ply << " of " << total() << ": " << describe_move(pos, pos.last_move())
            << "\n";
    }
    console_.draw(pos, session_.game().names);
  }

  void list_moves() {
    const Position& pos = session_.position();
    const auto history = pos.history();
    std::vector<std::string> items;
    std::size_t width = 0;
    for (std::size_t i = 0; i < history.size(); ++i) {
      const MoveRecord& rec = history[i];
      items.push_back(std::to_string(i + 1) + ". " + player_title(rec.player) + " " +
                      (rec.kind == MoveRecord::Kind::kResign ? std::string("resigns")
                                                             : pos.topology().name(rec.vertex)));
      width = std::max(width, items.back().size());
    }
    // Five a line, in columns.
    for (std::size_t i = 0; i < items.size(); ++i) {
      const bool end = i % 5 == 4 || i + 1 == items.size();
      out() << (end ? items[i] + "\n" : items[i] + std::string(width + 3 - items[i].size(), ' '));
    }
  }

  std::optional<AfterGame> undo(const std::string& count) {
    if (undo_command(session_, count, out()) == 0) return std::nullopt;
    console_.draw(session_.position(), session_.game().names);
    return AfterGame::kPlayOn;
  }

  void start_new_game() {
    session_.new_game();
    const Position& pos = session_.position();
    out() << "new game on " << pos.topology().spec << " (setup " << pos.setup().name << ")\n";
    console_.draw(pos, session_.game().names);
  }

  Session& session_;
  PlayConsole& console_;
};

}  // namespace

AfterGame game_over_menu(Session& session, PlayConsole& console) {
  return GameOverMenu(session, console).run();
}

}  // namespace tanbo::cli
