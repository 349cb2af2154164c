// `tanbo play`: an interactive game in the terminal, any mix of humans and engine players.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "play_review.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/platform/signal_thread.hpp"

namespace tanbo::cli {

namespace {

// What "engine" means when --engine is not given: the first of these make_agent accepts.
const char* const kEngineDefaults[] = {"mcts:time=2", "greedy", "random"};

const char* const kPlayHelp =
    "usage: tanbo play [--topology SPEC] [--setup NAME] [--players N|NAMES]\n"
    "                  [--black WHO] [--white WHO] [--red WHO] ... [--seat N=WHO]\n"
    "                  [--engine SPEC] [--load FILE] [--seed S] [--colour auto|always|never]\n"
    "Plays a game in the terminal. WHO is \"human\" (the default), \"engine\" (the strongest\n"
    "engine player available, or --engine SPEC) or an engine spec such as \"random\",\n"
    "\"greedy\" or \"mcts:time=2\". Moves are typed in the board's own notation (D4 on 2D\n"
    "boards, 235 on 5x5x5, node ids on DOT boards). At the prompt: undo [N], hint, roots,\n"
    "board, moves, save FILE, load FILE, resign, help, quit. When the game is over: review,\n"
    "back, forward, goto N, first, last, moves, undo [N] (and play on), save FILE, new, quit;\n"
    "--load of a finished game opens it there. Move N is the N-th turn, as in tanbo show.\n"
    "Ctrl-C makes a thinking engine move now; at a prompt it leaves the game (status 130).\n"
    "SIGTERM and SIGHUP leave the game at once (status 143, 129).\n"
    "examples:\n"
    "  tanbo play --topology \"grid 5x5x5\" --white engine\n"
    "  tanbo play --topology \"grid 9x9\" --players alice,bob\n"
    "  tanbo play --load game.tanbo --black random --seed 7";

const char* const kPrompts =
    "commands:\n"
    "  POINT          play there (D4, 235, 1,2,3,4, a node id; \"play POINT\" also works)\n"
    "  undo [N]       take back the last turn and the engines' turns before it, back to a\n"
    "                 person's turn; undo N takes back exactly N turns\n"
    "  hint           show every legal move of the side to move ('*')\n"
    "  moves          list those legal moves\n"
    "  roots          list every root with its size and root space\n"
    "  board          draw the board again\n"
    "  save FILE      save the game (game-file format; .sgf gives SGF on 2D boards)\n"
    "  load FILE      load a game file or SGF and go on playing it\n"
    "  resign         the side to move resigns\n"
    "  help           this list\n"
    "  quit           leave the game\n"
    "When the game is over: review, back, forward, goto N, first, last, moves, undo [N], save\n"
    "FILE, new, quit.\n";

// Builds the agent for a seat; throws tanbo::Error with make_agent's reason.
std::unique_ptr<Agent> resolve(const std::string& who, const std::string& engine,
                               std::uint64_t seed, std::string& resolved) {
  if (who == "human") return nullptr;
  if (who == "engine") {
    if (!engine.empty()) {
      resolved = engine;
      return make_agent(engine, seed);
    }
    std::string last;
    for (const char* spec : kEngineDefaults) {
      try {
        auto a = make_agent(spec, seed);
        resolved = spec;
        return a;
      } catch (const Error& e) {
        last = e.what();
      }
    }
    throw Error("no engine player is available: " + last);
  }
  resolved = who;
  return make_agent(who, seed);
}

// A game at the console: the players' turns until the game is over, then the menu of the
// finished game (play_review.hpp), which may take turns back or start a new game.
class TerminalGame {
 public:
  TerminalGame(Session& session, PlayConsole& console) : session_(session), console_(console) {}

  // A signal, taken on a thread of its own (SignalThread). Ctrl-C (SIGINT) while an engine
  // thinks asks it to play the best move it has found (Agent::stop); a second Ctrl-C, a Ctrl-C
  // at a prompt, SIGTERM and SIGHUP leave the game, as quit does but with status 128 + the
  // signal's number (130 for Ctrl-C).
  void interrupt(int signal) {
    Agent* engine = thinking_.load();
    if (signal == SIGINT && engine && !stop_asked_.exchange(true)) {
      engine->stop();
      return;
    }
    const char* const bye = signal == SIGINT   ? "\nLeaving the game unfinished (Ctrl-C).\n"
                            : signal == SIGHUP ? "\nLeaving the game unfinished (SIGHUP).\n"
                                               : "\nLeaving the game unfinished (SIGTERM).\n";
    (void)!::write(STDOUT_FILENO, bye, std::char_traits<char>::length(bye));
    std::_Exit(128 + signal);  // (the game is saved by `save FILE` only: nothing else to finish)
  }

  int run() {
    draw();
    for (;;) {
      if (!play_until_over()) return 0;  // quit, or the input ended
      out() << "Game over: " << result_text(session_.game()) << ".\n";
      if (game_over_menu(session_, console_) == AfterGame::kLeave) return 0;
    }
  }

 private:
  const Position& pos() const { return session_.position(); }
  std::ostream& out() { return console_.out(); }
  void draw(const std::vector<Vertex>* highlight = nullptr) {
    console_.draw(pos(), session_.game().names, highlight);
  }

  // Turns until the game is over (true) or the players leave it (false).
  bool play_until_over() {
    while (!pos().is_over()) {
      const Player p = pos().to_move();
      if (session_.engine_to_move()) {
        engine_turn();
        continue;
      }
      std::string line;
      const auto read = console_.read(player_label(p, session_.game().names) + "> ", line);
      if (read == PlayConsole::Read::kEnd) {
        out() << "input ended; the game is not finished (next time: save FILE)\n";
        return false;
      }
      if (read == PlayConsole::Read::kTooLong) {
        out() << "the line is longer than " << kMaxInputLine << " bytes; " << player_title(p)
              << " to play again\n";
        continue;
      }
      if (!command(trim(line))) return false;  // quit
    }
    return true;
  }

  void engine_turn() {
    Agent* engine = session_.engine(pos().to_move());
    const std::string spec = engine->spec();
    out() << std::flush;
    stop_asked_ = false;
    thinking_ = engine;
    session_.engine_move();
    thinking_ = nullptr;
    out() << "move " << pos().ply() << " [" << spec
          << "]: " << describe_move(pos(), pos().last_move()) << "\n";
    draw();
  }

  // Handles one input line; returns false to quit.
  bool command(const std::string& line) {
    if (line.empty()) return true;
    std::istringstream words(line);
    std::string word;
    words >> word;
    std::string rest;
    std::getline(words, rest);
    rest = trim(rest);
    const std::string cmd = to_lower(word);
    const Player p = pos().to_move();
    if (cmd == "quit" || cmd == "exit") {
      out() << "Leaving the game unfinished.\n";
      return false;
    }
    if (cmd == "help" || cmd == "?") {
      out() << kPrompts;
    } else if (cmd == "board" || cmd == "show") {
      draw();
    } else if (cmd == "hint" || cmd == "hints") {
      hint(p);
    } else if (cmd == "moves") {
      const auto moves = pos().legal_moves(p);
      out() << moves.size() << " legal move" << (moves.size() == 1 ? "" : "s") << " for "
            << player_title(p) << ":";
      for (Vertex v : moves) out() << ' ' << pos().topology().name(v);
      out() << "\n";
    } else if (cmd == "roots") {
      out() << render_roots(pos());
    } else if (cmd == "undo") {
      if (undo_command(session_, rest, out()) > 0) draw();
    } else if (cmd == "resign") {
      session_.resign(p);
      out() << "move " << pos().ply() << ": " << describe_move(pos(), pos().last_move()) << "\n";
      if (!pos().is_over()) draw();
    } else if (cmd == "save") {
      save_command(session_, rest, out());
    } else if (cmd == "load") {
      load(rest);
    } else {
      play(p, cmd == "play" ? rest : line);
    }
    return true;
  }

  void hint(Player p) {
    const auto moves = pos().legal_moves(p);
    draw(&moves);
    out() << moves.size() << " legal move" << (moves.size() == 1 ? "" : "s") << " for "
          << player_title(p)
          << (pos().topology().kind == BoardKind::kFile ? " (listed as marked points)"
                                                        : " (shown as *)")
          << "\n";
  }

  void load(const std::string& file) {
    if (file.empty()) {
      out() << "load needs a file name: load game.tanbo\n";
      return;
    }
    try {
      Game g = load_game(file);
      const int before = pos().num_players();
      session_.replace_game(std::move(g));
      const int now = pos().num_players();
      if (now != before) {
        out() << "(the loaded game has " << now << " players"
              << (now > before ? "; the new seats are human" : "") << ")\n";
      }
      out() << "loaded " << shown_name(file) << ": " << pos().topology().spec << ", " << pos().ply()
            << " turns\n";
      draw();
    } catch (const Error& e) {
      out() << "not loaded: " << e.what() << "\n";
    }
  }

  void play(Player p, const std::string& text) {
    const Topology& t = pos().topology();
    const TurnResult r = session_.play(0, text);
    if (r.status == TurnStatus::kNotAPoint) {
      out() << r.message << "; type help for the commands\n";
    } else if (r.status == TurnStatus::kIllegal) {
      out() << "Illegal move " << t.name(*t.parse_vertex(text)) << ": " << r.reason << ". "
            << player_title(p) << " to play again.\n";
    } else if (r.done()) {
      out() << "move " << pos().ply() << ": " << describe_move(pos(), pos().last_move()) << "\n";
      draw();
    } else {
      out() << r.message << "\n";
    }
  }

  Session& session_;
  PlayConsole& console_;
  std::atomic<Agent*> thinking_{nullptr};  // the engine whose move is being searched
  std::atomic<bool> stop_asked_{false};    // Ctrl-C asked it to move now
};

}  // namespace

int cmd_play(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
             std::ostream& err) {
  BoardOptions board;
  std::string engine, load, colour = "auto";
  std::vector<std::string> seat_args;
  std::vector<std::string> by_colour(kMaxPlayers);
  po::options_description desc("tanbo play options");
  add_board_options(desc, board);
  for (Player p = 1; p <= kMaxPlayers; ++p) {
    const std::string name(player_name(p));
    desc.add_options()(name.c_str(), po::value(&by_colour[p - 1]),
                       p == 1 ? "who plays Black: human, engine or an engine spec"
                              : ("who plays " + player_title(p)).c_str());
  }
  desc.add_options()("seat", po::value(&seat_args)->composing(),
                     "N=WHO: who plays player N (a number or colour name), e.g. --seat 3=random")(
      "engine", po::value(&engine),
      "engine spec that \"engine\" stands for (default: the strongest available, mcts:time=2)")(
      "load", po::value(&load), "go on with a saved game file or SGF")(
      "colour", po::value(&colour)->default_value(colour),
      "auto (colour when writing to a terminal), always or never")("color", po::value(&colour),
                                                                   "same as --colour");
  po::variables_map vm;
  if (const auto stop = parse_args(args, desc, nullptr, vm, kPlayHelp, out, err)) return *stop;
  if (colour != "auto" && colour != "always" && colour != "never") {
    err << "tanbo play: --colour must be auto, always or never, not \"" << colour << "\"\n";
    return 2;
  }
  refuse_empty_names(vm, {{"load", "--load FILE"}});  // "" would start a new game instead
  // "" would be read as the default (a person, or the default engine) without a word.
  for (Player p = 1; p <= kMaxPlayers; ++p) {
    const std::string name(player_name(p));
    if (vm.count(name) && by_colour[p - 1].empty()) {
      throw Error("--" + name + " is empty: give human, engine or an engine spec");
    }
  }
  if (vm.count("engine") && engine.empty()) {
    throw Error("--engine is empty: give an engine spec such as mcts:time=2");
  }
  std::optional<Game> game;
  if (!load.empty()) {
    if (!vm["topology"].defaulted() || !vm["setup"].defaulted() || vm.count("players")) {
      throw Error(
          "--load takes the board and players from the file; drop --topology, "
          "--setup and --players");
    }
    game.emplace(load_game(load));
  } else {
    const int count = player_count(board.players);
    game.emplace(new_game(board.topology, board.setup, count, player_names(board.players, count)));
  }
  const int players = game->position.num_players();
  std::vector<std::string> who(static_cast<std::size_t>(players), "human");
  std::vector<std::string> given_by(static_cast<std::size_t>(players));  // the option, for messages
  for (Player p = 1; p <= kMaxPlayers; ++p) {
    if (by_colour[p - 1].empty()) continue;
    if (p > players) {
      throw Error("--" + std::string(player_name(p)) + ": this game has only " +
                  std::to_string(players) + " players");
    }
    who[p - 1] = by_colour[p - 1];
    given_by[p - 1] = "--" + std::string(player_name(p)) + " " + by_colour[p - 1];
  }
  for (const auto& s : seat_args) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw Error("--seat " + s + ": write N=WHO, e.g. --seat 2=engine");
    const auto p = parse_player(s.substr(0, eq), players);
    if (!p) {
      throw Error("--seat " + s + ": " + quote_input(s.substr(0, eq)) +
                  " is not a player of this " + std::to_string(players) + "-player game");
    }
    // Two options for one seat: neither is taken over the other.
    if (!given_by[*p - 1].empty()) {
      throw Error("--seat " + s + " and " + given_by[*p - 1] + " both name " + player_title(*p) +
                  "'s player; give one");
    }
    who[*p - 1] = s.substr(eq + 1);
    given_by[*p - 1] = "--seat " + s;
  }
  const bool use_colour =
      colour == "always" || (colour == "auto" && &out == &std::cout && ::isatty(STDOUT_FILENO) &&
                             !std::getenv("NO_COLOR"));
  // The board, and its setup when it is not the board's own (e.g. dense for 3 players on
  // 19x19, whose own setup seats 2).
  const Topology& topo = game->position.topology();
  const std::string setup = game->position.setup().name;
  const std::string spec =
      topo.spec + (setup == default_setup(topo) ? "" : " (setup " + setup + ")");
  // Input that does not come from a terminal is repeated after the prompts.
  PlayConsole console(in, out, &in != &std::cin || !::isatty(STDIN_FILENO), use_colour);
  std::vector<Seat> seats(static_cast<std::size_t>(players));
  for (int i = 0; i < players; ++i) {
    std::string resolved;
    try {
      seats[i].agent = resolve(to_lower(trim(who[i])) == "human" ? "human" : who[i], engine,
                               board.seed + static_cast<std::uint64_t>(i), resolved);
    } catch (const Error& e) {
      throw Error(given_by[i] + ": " + e.what());
    }
    seats[i].spec = seats[i].agent ? resolved : "human";
  }
  out << "Tanbo on " << spec << ":";
  for (int i = 0; i < players; ++i) {
    out << (i ? ", " : " ") << player_title(static_cast<Player>(i + 1)) << " " << seats[i].spec;
  }
  out << ". Type help for the commands.\n";
  // The signals are taken before the engines' threads start, and only in the program itself (a
  // test that calls cmd_play with streams of its own keeps its signals).
  std::optional<SignalThread> ctrl_c;
  if (&in == &std::cin) ctrl_c.emplace(std::initializer_list<int>{SIGINT, SIGTERM, SIGHUP});
  Session session(std::move(*game), std::move(seats));
  TerminalGame terminal(session, console);
  struct StopFirst {  // the signals' thread ends before the game it acts on goes
    std::optional<SignalThread>& thread;
    ~StopFirst() {
      if (thread) thread->stop();
    }
  } stop_first{ctrl_c};
  if (ctrl_c) ctrl_c->start([&terminal](int signal) { terminal.interrupt(signal); });
  return terminal.run();
}

}  // namespace tanbo::cli
