#include "commands.hpp"

#include <iostream>
#include <string_view>

namespace tanbo::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"gtp", "speak the engine protocol (GTP 2 framing) on stdin/stdout", cmd_gtp},
      {"bench", "play uniformly random games and report playouts per second", cmd_bench},
  };
  return table;
}

namespace {
void usage(std::ostream& os) {
  os << "tanbo " TANBO_VERSION " - Tanbo on any board that is a graph\n\n"
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
    if (sub == c.name) return c.fn(args, std::cin, std::cout, std::cerr);
  }
  std::cerr << "tanbo: unknown subcommand \"" << sub << "\" (tanbo --help lists them)\n";
  return 2;
}

}  // namespace tanbo::cli
