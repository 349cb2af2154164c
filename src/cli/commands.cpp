#include "commands.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <new>
#include <string_view>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"play", "play a game in the terminal: humans and engine players, any board", cmd_play, 2},
      {"new", "start a game file for play by file or mail", cmd_new, 2},
      {"move", "play a move in a game file", cmd_move, 1},
      {"show", "draw a game file or SGF (at any move)", cmd_show, 1},
      {"undo", "take back the last turn of a game file", cmd_undo, 1},
      {"resign", "a player resigns in a game file", cmd_resign, 1},
      {"export", "write a game file as SGF (2D boards)", cmd_export, 1},
      {"import", "turn an SGF record into a game file", cmd_import, 1},
      {"gtp", "speak the engine protocol (GTP 2 framing) on stdin/stdout", cmd_gtp, 2},
      {"bench", "play uniformly random games and report playouts per second", cmd_bench, 2},
      {"match", "play engine players against each other and score them", cmd_match, 2},
      {"study", "measure fairness and game length of many topologies", cmd_study, 2},
      {"solve", "find the winner with perfect play and the winning moves (two players)", cmd_solve,
       2},
      {"check-proof", "verify a proof certificate written by solve --proof", cmd_check_proof, 2},
      {"analyze", "review a game: win rate before and after each move, mistakes, chart",
       cmd_analyze, 2},
      {"view", "show a game or position in 3D (VTK), play it with the mouse, render PNGs", cmd_view,
       2},
      {"serve", "serve the web page and API: play and watch games in a browser", cmd_serve, 2},
  };
  return table;
}

const Command* find_command(std::string_view name) {
  for (const auto& c : commands()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

namespace {

void usage(std::ostream& os) {
  os << "tanbo " TANBO_VERSION
        " - Tanbo on any board that is a graph\n\n"
        "usage: tanbo SUBCOMMAND [options]   (tanbo help SUBCOMMAND, or tanbo SUBCOMMAND --help,\n"
        "                                     for its options)\n\n"
        "subcommands:\n";
  // The summaries start in one column, two spaces past the longest name.
  std::size_t width = 0;
  for (const auto& c : commands()) width = std::max(width, std::string_view(c.name).size());
  for (const auto& c : commands()) {
    os << "  " << c.name << std::string(width + 2 - std::string_view(c.name).size(), ' ')
       << c.summary << "\n";
  }
  os << "\nexample: tanbo gtp --topology \"grid 5x5x5\"\n"
        "documentation: README.md and docs/ (cli.md, protocol.md, rules.md)\n";
}
}  // namespace

int run(int argc, char** argv) {
  // Output past a file-size limit (ulimit -f) then fails with EFBIG instead of the program
  // dying of SIGXFSZ; checked_output reports it.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string_view sub = argv[1];
  if (sub == "--help" || sub == "-h" || sub == "help") {
    if (argc < 3) {
      usage(std::cout);
      return checked_output("--help", 0);
    }
    // tanbo help SUBCOMMAND: that subcommand's own --help.
    const std::string_view about = argv[2];
    if (const Command* c = find_command(about)) {
      return checked_output(c->name,
                            run_subcommand(*c, {"--help"}, std::cin, std::cout, std::cerr));
    }
    std::cerr << "tanbo: no subcommand " << quote_input(about)
              << " to explain (tanbo --help lists them)\n";
    return 2;
  }
  if (sub == "--version" || sub == "version") {
    std::cout << "tanbo " TANBO_VERSION "\n";
    return checked_output("--version", 0);
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  if (const Command* c = find_command(sub)) {
    return checked_output(c->name, run_subcommand(*c, args, std::cin, std::cout, std::cerr));
  }
  std::cerr << "tanbo: unknown subcommand " << quote_input(sub) << " (tanbo --help lists them)\n";
  return 2;
}

}  // namespace tanbo::cli
