#include "commands.hpp"

#include <iostream>
#include <string_view>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"play", "play a game in the terminal: humans and engine players, any board", cmd_play},
      {"new", "start a game file for play by file or mail", cmd_new},
      {"move", "play a move in a game file", cmd_move},
      {"show", "draw a game file or SGF (at any move)", cmd_show},
      {"undo", "take back the last turn of a game file", cmd_undo},
      {"resign", "a player resigns in a game file", cmd_resign},
      {"export", "write a game file as SGF (2D boards)", cmd_export},
      {"import", "turn an SGF record into a game file", cmd_import},
      {"gtp", "speak the engine protocol (GTP 2 framing) on stdin/stdout", cmd_gtp},
      {"bench", "play uniformly random games and report playouts per second", cmd_bench},
      {"match", "play engine players against each other and score them", cmd_match},
      {"study", "measure fairness and game length of many topologies", cmd_study},
      {"solve", "find the winner with perfect play and the winning moves (two players)", cmd_solve},
      {"analyze", "review a game: win rate before and after each move, mistakes, chart",
       cmd_analyze},
      {"view", "show a game or position in 3D (VTK), play it with the mouse, render PNGs",
       cmd_view},
  };
  return table;
}

namespace {

// Runs a subcommand; what escapes it becomes a message and an exit code, never an abort.
int run_guarded(const Command& c, const std::vector<std::string>& args) {
  try {
    return c.fn(args, std::cin, std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    std::cerr << "tanbo " << c.name
              << ": out of memory (the board or the search needs more memory than this process "
                 "may have; see --max-memory)\n";
  } catch (const Error& e) {
    std::cerr << "tanbo " << c.name << ": " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "tanbo " << c.name << ": internal error: " << e.what() << "\n";
  }
  return 1;
}

void usage(std::ostream& os) {
  os << "tanbo " TANBO_VERSION
        " - Tanbo on any board that is a graph\n\n"
        "usage: tanbo SUBCOMMAND [options]   (tanbo SUBCOMMAND --help for its options)\n\n"
        "subcommands:\n";
  for (const auto& c : commands()) {
    os << "  " << c.name << std::string(10 - std::string_view(c.name).size(), ' ') << c.summary
       << "\n";
  }
  os << "\nexample: tanbo gtp --topology \"grid 5x5x5\"\n"
        "documentation: README.md and docs/ (cli.md, protocol.md, rules.md)\n";
}
}  // namespace

int run(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string_view sub = argv[1];
  if (sub == "--help" || sub == "-h" || sub == "help") {
    usage(std::cout);
    return 0;
  }
  if (sub == "--version" || sub == "version") {
    std::cout << "tanbo " TANBO_VERSION "\n";
    return 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& c : commands()) {
    if (sub == c.name) return run_guarded(c, args);
  }
  std::cerr << "tanbo: unknown subcommand " << quote_input(sub) << " (tanbo --help lists them)\n";
  return 2;
}

}  // namespace tanbo::cli
