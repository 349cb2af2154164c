#include "play_review.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/session/session.hpp"
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
  // Piped input is repeated to keep the transcript readable (a huge line only in part).
  if (echo_) out_ << (line.size() > 200 ? quote_input(line, 60) : line) << "\n";
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
  if (text.empty() || text.size() > 9) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return static_cast<std::uint32_t>(std::stoul(text));
}

namespace {

std::string turns(std::uint32_t n) {
  return std::to_string(n) + (n == 1 ? " turn" : " turns");
}

}  // namespace

std::uint32_t undo_command(Position& pos, const std::string& count, const IsPerson& is_person,
                           std::ostream& out) {
  if (pos.ply() == 0) {
    out << "nothing to undo: the game is at its start\n";
    return 0;
  }
  std::uint32_t taken = 0;
  if (count.empty()) {
    taken = take_back_to_person(pos, is_person);
  } else {
    const auto n = parse_count(count);
    if (!n || *n == 0) {
      out << "undo takes a number of turns: undo 2 (not " << quote_input(count) << ")\n";
      return 0;
    }
    if (*n > pos.ply()) {
      out << "cannot take back " << turns(*n) << ": only " << turns(pos.ply())
          << " have been played\n";
      return 0;
    }
    for (; taken < *n; ++taken) pos.undo();
  }
  out << "took back " << turns(taken) << "\n";
  return taken;
}

void save_command(const Game& game, const std::string& file, std::ostream& out) {
  if (file.empty()) {
    out << "save needs a file name: save game.tanbo\n";
    return;
  }
  try {
    write_file_atomic(file, is_sgf_file_name(file) ? write_sgf(game) : write_game(game));
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

// The menu of a finished game. `shown_` is the move on screen: the position after it.
class GameOverMenu {
 public:
  GameOverMenu(Game& game, const IsPerson& is_person, PlayConsole& console)
      : game_(game), is_person_(is_person), console_(console), shown_(game.position.ply()) {}

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
  std::uint32_t total() const { return game_.position.ply(); }

  std::string prompt() const {
    if (shown_ == total()) return "game over> ";
    return "move " + std::to_string(shown_) + " of " + std::to_string(total()) + "> ";
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
      show(shown_);
    } else if (cmd == "moves") {
      list_moves();
    } else if (cmd == "undo") {
      return undo(rest);
    } else if (cmd == "save") {
      save_command(game_, rest, out());
    } else if (cmd == "new") {
      start_new_game();
      return AfterGame::kPlayOn;
    } else if (cmd == "help" || cmd == "?") {
      out() << kMenuHelp;
    } else {
      out() << "The game is over (" << result_text(game_) << "): " << quote_input(line)
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
    if (direction > 0 && shown_ == total()) {
      out() << "this is the end of the game (move " << total() << ")\n";
      return;
    }
    if (direction < 0 && shown_ == 0) {
      out() << "this is the start of the game\n";
      return;
    }
    show(direction > 0 ? shown_ + std::min(n, total() - shown_) : shown_ - std::min(n, shown_));
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
    shown_ = ply;
    Position pos = game_.position;
    while (pos.ply() > ply) pos.undo();
    if (ply == 0) {
      out() << "start of the game (" << total() << " moves in all)\n";
    } else {
      out() << "move " << ply << " of " << total() << ": " << describe_move(pos, pos.last_move())
            << "\n";
    }
    console_.draw(pos, game_.names);
  }

  void list_moves() {
    const Position& pos = game_.position;
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
    if (undo_command(game_.position, count, is_person_, out()) == 0) return std::nullopt;
    shown_ = total();
    console_.draw(game_.position, game_.names);
    return AfterGame::kPlayOn;
  }

  void start_new_game() {
    Game fresh(Position(game_.position.topology_ptr(), game_.position.setup()));
    fresh.names = game_.names;
    fresh.date = utc_now();
    game_ = std::move(fresh);
    shown_ = 0;
    out() << "new game on " << game_.position.topology().spec << " (setup "
          << game_.position.setup().name << ")\n";
    console_.draw(game_.position, game_.names);
  }

  Game& game_;
  const IsPerson& is_person_;
  PlayConsole& console_;
  std::uint32_t shown_;
};

}  // namespace

AfterGame game_over_menu(Game& game, const IsPerson& is_person, PlayConsole& console) {
  return GameOverMenu(game, is_person, console).run();
}

}  // namespace tanbo::cli
