// tanbo-value-data: writes the data the value model is fitted to (see README.md here).
//
// Plays games of self-play on one board (two players): the first 2 to 9 moves of each game at
// random (so that the games differ), then every move chosen by an MCTS search. When a game
// ends it prints one CSV row per position reached after the random moves: the game's number,
// the turn, whether the side to move went on to win (1) or lose (0), and the position's
// features (tanbo/ai/value_model.hpp).
#include <charconv>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/value_model.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"

namespace {

using namespace tanbo;

constexpr const char* kUsage =
    "usage: tanbo-value-data [--topology SPEC] [--setup NAME] [--games N] [--seed S]\n"
    "                        [--engine OPTIONS]\n"
    "Plays N games of self-play (default 10) on the board (default \"grid 9x9\", setup\n"
    "\"default\", two players): 2 to 9 random moves, then the moves of an MCTS search with\n"
    "OPTIONS (the keys of mcts:, default \"playouts=500,value=0\"). Prints, as CSV on standard\n"
    "output, one row per position after the random moves: game,ply,won,<features>, won 1\n"
    "when the side to move went on to win the game.\n";

struct Settings {
  std::string topology = "grid 9x9";
  std::string setup = "default";
  std::uint64_t games = 10;
  std::uint64_t seed = 1;
  std::string engine = "playouts=500,value=0";
};

std::uint64_t parse_number(std::string_view option, std::string_view text) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw Error(std::string(option) + ": expected a whole number, got \"" + std::string(text) +
                "\"");
  }
  return n;
}

// Reads the command line; returns false when it asked for the usage.
bool parse_arguments(int argc, char** argv, Settings& s) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view option = argv[i];
    if (option == "--help" || option == "-h") return false;
    if (i + 1 >= argc) throw Error(std::string(option) + ": unknown option or missing value");
    const std::string value = argv[++i];
    if (option == "--topology") {
      s.topology = value;
    } else if (option == "--setup") {
      s.setup = value;
    } else if (option == "--games") {
      s.games = parse_number(option, value);
    } else if (option == "--seed") {
      s.seed = parse_number(option, value);
    } else if (option == "--engine") {
      s.engine = value;
    } else {
      throw Error("unknown option " + std::string(option) + " (--help lists them)");
    }
  }
  return true;
}

void print_header() {
  std::printf("game,ply,won");
  for (int i = 0; i < kValueFeatures; ++i) std::printf(",%s", value_feature_name(i));
  std::printf("\n");
}

// A position of a game whose outcome is not known yet.
struct Row {
  std::uint32_t ply;
  Player to_move;
  ValueFeatures features;
};

void run(const Settings& s) {
  const TopologyPtr topology = parse_topology(s.topology);
  const Setup setup = make_setup(*topology, s.setup);
  const MctsConfig config = parse_mcts_options(s.engine);
  Rng rng(s.seed);
  print_header();
  std::uint64_t positions = 0;
  for (std::uint64_t game = 0; game < s.games; ++game) {
    Position pos(topology, setup);
    if (pos.num_players() != 2) throw Error("the value model is for two players");
    Mcts search(config, s.seed * 1000 + game);
    const std::uint32_t random_moves = 2 + rng.below(8);
    std::vector<Row> rows;
    while (!pos.is_over() && pos.ply() < 4 * pos.num_vertices()) {
      if (pos.ply() < random_moves) {
        pos.play(pos.legal_move(pos.to_move(), rng.below(pos.legal_count(pos.to_move()))));
        continue;
      }
      Row& row = rows.emplace_back();
      row.ply = pos.ply();
      row.to_move = pos.to_move();
      value_features(pos, row.features);
      pos.play(search.search(pos));
    }
    if (!pos.is_over()) continue;  // never reached by the rules; such a game has no outcome
    for (const Row& row : rows) {
      std::printf("%llu,%u,%d", static_cast<unsigned long long>(game), row.ply,
                  row.to_move == pos.winner() ? 1 : 0);
      for (float f : row.features) std::printf(",%.6g", static_cast<double>(f));
      std::printf("\n");
    }
    positions += rows.size();
    std::fflush(stdout);
    std::fprintf(stderr, "game %llu: %u moves, %llu positions so far\n",
                 static_cast<unsigned long long>(game + 1), pos.ply(),
                 static_cast<unsigned long long>(positions));
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Settings settings;
    if (!parse_arguments(argc, argv, settings)) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    run(settings);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tanbo-value-data: %s\n", e.what());
    return 2;
  }
}
