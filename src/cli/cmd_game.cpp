// Game files for play by file, mail or chat: tanbo new / move / show / undo / resign /
// export / import. Every command that changes a file writes it atomically.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/platform/input_file.hpp"

namespace tanbo::cli {

namespace {

bool colour_wanted(const std::string& colour, std::ostream& out) {
  return colour == "always" || (colour == "auto" && &out == &std::cout && ::isatty(STDOUT_FILENO) &&
                                !std::getenv("NO_COLOR"));
}

void add_colour(po::options_description& desc, std::string& colour) {
  desc.add_options()("colour", po::value(&colour)->default_value("auto"),
                     "auto (colour when writing to a terminal), always or never")(
      "color", po::value(&colour), "same as --colour");
}

bool check_colour(const std::string& colour, const char* cmd, std::ostream& err) {
  if (colour == "auto" || colour == "always" || colour == "never") return true;
  err << "tanbo " << cmd << ": --colour must be auto, always or never, not " << quote_input(colour)
      << "\n";
  return false;
}

void print_game(const Game& game, std::ostream& out, bool colour) {
  RenderOptions o;
  o.colour = colour;
  out << render_board(game.position, o) << render_status(game.position, game.names) << "\n";
}

// The refusal of a new file that could not be made because something has the name: a folder,
// FIFO or device (which --force would not replace either: only regular files are written),
// else a file that --force replaces.
[[noreturn]] void refuse_existing(const std::string& path) {
  // O_PATH: what the name is, without opening a device or a FIFO for reading.
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd >= 0) {
    try {
      need_regular_file(fd, shown_name(path));
    } catch (const Error&) {
      ::close(fd);
      throw;
    }
    ::close(fd);
  }
  throw Error(shown_name(path) + " exists already (use --force to overwrite it)");
}

// Writes `text` to `output` atomically, or to `out` when output is "" or "-". An output that
// exists is replaced only when `replace` says so.
void write_output(const std::string& output, const std::string& text, std::ostream& out,
                  std::ostream& err, bool replace = true) {
  if (output.empty() || output == "-") {
    out << text;
    return;
  }
  if (replace) {
    write_file_atomic(output, text);
  } else {
    try {
      create_file_exclusive(output, text);
    } catch (const Error&) {
      if (::access(output.c_str(), F_OK) != 0) throw;
      refuse_existing(output);
    }
  }
  err << "wrote " << shown_name(output) << "\n";
}

// Shared shape of the commands that take GAME first.
struct GameArgs {
  std::string file;
  po::options_description desc;
  po::positional_options_description positional;
  po::variables_map vm;
  explicit GameArgs(const char* title) : desc(title) {
    desc.add_options()("game", po::value(&file)->required(), "the game file (or SGF)");
    positional.add("game", 1);
  }
  // parse_args with these options: the exit code when the command ends here (--help, a bad
  // option), nothing when it goes on.
  std::optional<int> parse(const std::vector<std::string>& args, const std::string& help_text,
                           std::ostream& out, std::ostream& err) {
    return parse_args(args, desc, &positional, vm, help_text, out, err);
  }
};

}  // namespace

int cmd_new(const std::vector<std::string>& args, std::istream&, std::ostream& out,
            std::ostream& err) {
  BoardOptions board;
  std::string file, event, colour;
  bool force = false;
  po::options_description desc("tanbo new options");
  desc.add_options()("game", po::value(&file)->required(), "the game file to create");
  add_board_options(desc, board, false);
  desc.add_options()("event", po::value(&event), "free text stored in the header")(
      "force", po::bool_switch(&force), "overwrite an existing file");
  add_colour(desc, colour);
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  if (const auto stop = parse_args(
          args, desc, &pos, vm,
          "usage: tanbo new GAME [--topology SPEC] [--setup NAME] [--players N|NAMES]\n"
          "Creates a game file at its starting position; then players take turns with\n"
          "tanbo move GAME POINT, passing the file along (mail, chat, a shared folder).\n"
          "A name ending in .sgf (any case) writes SGF instead (2D boards, two players).\n"
          "example: tanbo new cube.tanbo --topology \"grid 5x5x5\" --players alice,bob",
          out, err))
    return *stop;
  if (!check_colour(colour, "new", err)) return 2;
  if (has_control_characters(event)) {
    throw Error("--event " + quote_input(event) +
                ": the text is one line of the file and cannot hold control characters");
  }
  const int count = player_count(board.players);
  Game game = new_game(board.topology, board.setup, count, player_names(board.players, count));
  game.event = event;
  try {
    create_game_file(game, file, force);
  } catch (const Error& e) {
    if (force || ::access(file.c_str(), F_OK) != 0) throw;
    refuse_existing(file);
  }
  out << "created " << shown_name(file) << ": " << game.position.topology().spec << ", setup "
      << game.position.setup().name << ", " << game.position.num_players() << " players\n";
  print_game(game, out, colour_wanted(colour, out));
  return 0;
}

int cmd_move(const std::vector<std::string>& args, std::istream&, std::ostream& out,
             std::ostream& err) {
  GameArgs g("tanbo move options");
  std::string point, as, colour;
  g.desc.add_options()("point", po::value(&point)->required(), "where to play")(
      "as", po::value(&as),
      "refuse the move unless it is this player's turn (name, colour or number)");
  add_colour(g.desc, colour);
  g.positional.add("point", 1);
  if (const auto stop =
          g.parse(args,
                  "usage: tanbo move GAME POINT [--as PLAYER]\n"
                  "Plays POINT for the side to move, if legal, and saves the file (atomically).\n"
                  "Concurrent writers of one file take turns (see docs/game-format.md).\n"
                  "example: tanbo move cube.tanbo 125 --as alice",
                  out, err))
    return *stop;
  if (!check_colour(colour, "move", err)) return 2;
  if (g.vm.count("as") && trim(as).empty()) {  // "" would skip the turn check
    err << "tanbo move: --as PLAYER is empty: give a name, colour or number\n";
    return 2;
  }
  const Game game = update_game_file(g.file, [&](Game& game) {
    Position& pos = game.position;
    if (pos.is_over()) throw Error("the game is over: " + result_text(game));
    const Player p = pos.to_move();
    if (!as.empty()) {
      const auto who = game_player(game, as);
      if (!who)
        throw Error("--as " + quote_input(as) + ": not a player of this game (" + players_of(game) +
                    ")");
      if (*who != p) {
        throw Error("it is " + player_label(p, game.names) + "'s turn, not " + player_title(*who) +
                    "'s");
      }
    }
    const Vertex v = pos.topology().need_vertex(point);
    const std::string why = pos.explain(p, v);
    if (!why.empty()) {
      throw Error("illegal move " + pos.topology().name(v) + " for " + player_title(p) + ": " +
                  why);
    }
    pos.play(v);
  });
  const Position& pos = game.position;
  out << describe_move(pos, pos.last_move()) << "\n";
  print_game(game, out, colour_wanted(colour, out));
  if (pos.is_over()) out << "Game over: " << result_text(game) << ".\n";
  return 0;
}

int cmd_show(const std::vector<std::string>& args, std::istream&, std::ostream& out,
             std::ostream& err) {
  GameArgs g("tanbo show options");
  std::string colour;
  long long move = -1;
  bool roots = false, moves = false, full = false;
  g.desc.add_options()("move,m", po::value(&move), "show the position after move N (0 = start)")(
      "roots", po::bool_switch(&roots), "also list every root")("moves", po::bool_switch(&moves),
                                                                "also list the moves played")(
      "full", po::bool_switch(&full), "draw every point even on a huge board");
  add_colour(g.desc, colour);
  if (const auto stop = g.parse(args,
                                "usage: tanbo show GAME [--move N] [--roots] [--moves]\n"
                                "Draws a game file or SGF record, at its end or after move N.\n"
                                "example: tanbo show cube.tanbo --move 4",
                                out, err))
    return *stop;
  if (!check_colour(colour, "show", err)) return 2;
  Game game = load_game(g.file);
  Position& pos = game.position;
  const auto total = static_cast<long long>(pos.ply());
  if (g.vm.count("move") && (move < 0 || move > total)) {  // a bad value: status 2
    err << "tanbo show: --move " << move << ": the game has moves 0 to " << total << "\n";
    return 2;
  }
  std::vector<std::string> played;
  for (const auto& rec : pos.history()) {
    played.push_back(player_title(rec.player) + " " +
                     (rec.kind == MoveRecord::Kind::kResign ? std::string("resigns")
                                                            : pos.topology().name(rec.vertex)));
  }
  if (move >= 0) {
    while (static_cast<long long>(pos.ply()) > move) pos.undo();
  }
  RenderOptions o;
  o.colour = colour_wanted(colour, out);
  o.full = full;
  out << shown_name(g.file) << ": " << pos.topology().spec << ", setup " << pos.setup().name;
  for (Player p = 1; p <= pos.num_players(); ++p) {
    if (p <= game.names.size() && !game.names[p - 1].empty()) {
      out << ", " << player_title(p) << " " << game.names[p - 1];
    }
  }
  if (!game.date.empty()) out << ", " << game.date;
  out << "\n";
  if (pos.ply() > 0)
    out << "move " << pos.ply() << ": " << describe_move(pos, pos.last_move()) << "\n";
  out << render_board(pos, o) << render_status(pos, game.names) << "\n";
  if (roots) out << render_roots(pos);
  if (moves) {
    for (std::size_t i = 0; i < played.size(); ++i) out << i + 1 << ". " << played[i] << "\n";
  }
  return 0;
}

int cmd_undo(const std::vector<std::string>& args, std::istream&, std::ostream& out,
             std::ostream& err) {
  GameArgs g("tanbo undo options");
  std::string colour;
  add_colour(g.desc, colour);
  if (const auto stop =
          g.parse(args,
                  "usage: tanbo undo GAME\n"
                  "Takes back the last turn (a move or a resignation) and saves the file.\n"
                  "example: tanbo undo cube.tanbo",
                  out, err))
    return *stop;
  if (!check_colour(colour, "undo", err)) return 2;
  std::string what;
  const Game game = update_game_file(g.file, [&](Game& game) {
    if (game.position.ply() == 0) throw Error("no move to take back: the game is at its start");
    what = describe_move(game.position, game.position.last_move());
    game.position.undo();
  });
  out << "took back: " << what << "\n";
  print_game(game, out, colour_wanted(colour, out));
  return 0;
}

int cmd_resign(const std::vector<std::string>& args, std::istream&, std::ostream& out,
               std::ostream& err) {
  GameArgs g("tanbo resign options");
  std::string player;
  g.desc.add_options()("player", po::value(&player)->required(),
                       "who resigns: name, colour, letter or number");
  g.positional.add("player", 1);
  if (const auto stop =
          g.parse(args,
                  "usage: tanbo resign GAME PLAYER\n"
                  "PLAYER resigns (with more than two players their roots are removed and the\n"
                  "game goes on) and the file is saved.\n"
                  "example: tanbo resign cube.tanbo bob",
                  out, err))
    return *stop;
  const Game game = update_game_file(g.file, [&](Game& game) {
    Position& pos = game.position;
    const auto p = game_player(game, player);
    if (!p) {
      throw Error(quote_input(player) + " is not a player of this " +
                  std::to_string(pos.num_players()) + "-player game (" + players_of(game) + ")");
    }
    pos.resign(*p);
  });
  const Position& pos = game.position;
  out << describe_move(pos, pos.last_move()) << "\n";
  out << render_status(pos, game.names) << "\n";
  if (pos.is_over()) out << "Game over: " << result_text(game) << ".\n";
  return 0;
}

int cmd_export(const std::vector<std::string>& args, std::istream&, std::ostream& out,
               std::ostream& err) {
  GameArgs g("tanbo export options");
  std::string output;
  bool sgf = false;
  g.desc.add_options()("sgf", po::bool_switch(&sgf), "write SGF (the only export format)")(
      "output,o", po::value(&output)->notifier(refuse_blank("-o FILE")),
      "write to this file (atomically) instead of stdout");
  if (const auto stop =
          g.parse(args,
                  "usage: tanbo export GAME --sgf [-o FILE]\n"
                  "Writes the game as SGF (2D boards, two players): SZ, PB/PW, the starting\n"
                  "stones, every move with the stones it removed (AE), RE.\n"
                  "example: tanbo export game.tanbo --sgf -o game.sgf",
                  out, err))
    return *stop;
  if (!sgf) {
    err << "tanbo export: say which format: --sgf (the only one so far)\n";
    return 2;
  }
  check_not_an_input(output, {g.file}, "-o");
  write_output(output, write_sgf(load_game(g.file)), out, err);
  return 0;
}

int cmd_import(const std::vector<std::string>& args, std::istream&, std::ostream& out,
               std::ostream& err) {
  GameArgs g("tanbo import options");
  std::string output;
  bool force = false;
  g.desc.add_options()("output,o", po::value(&output)->notifier(refuse_blank("-o GAME")),
                       "write the game file here (atomically) instead of stdout")(
      "force", po::bool_switch(&force), "with -o: overwrite an existing file");
  if (const auto stop =
          g.parse(args,
                  "usage: tanbo import FILE.sgf [-o GAME [--force]]\n"
                  "Reads an SGF record (its main line, replaying every move through the rules)\n"
                  "and writes it as a game file; says on stderr how many variations it left out.\n"
                  "An existing GAME is replaced only with --force.\n"
                  "example: tanbo import game.sgf -o game.tanbo",
                  out, err))
    return *stop;
  check_not_an_input(output, {g.file}, "-o");
  const std::string text = read_text_file(g.file, "game files");
  const std::string origin = shown_name(g.file);
  std::size_t left_out = 0;
  const Game game =
      is_sgf_text(text) ? read_sgf(text, origin, &left_out) : game_from_text(text, origin);
  write_output(output, write_game(game), out, err, force);
  if (left_out > 0) {
    err << "tanbo import: left out " << left_out << " variation" << (left_out == 1 ? "" : "s")
        << " (only the main line is imported)\n";
  }
  return 0;
}

}  // namespace tanbo::cli
