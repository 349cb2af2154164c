// tanbo-move-data: writes the data the move model is fitted to (see README.md here).
//
// Plays games of self-play on one board: the first 2 to 9 moves of each game at random (so
// that the games differ), then every move chosen by an MCTS search. For every position
// searched it prints one CSV row per legal move: the position's number, the playouts the
// search gave the move, and the move's features (tanbo/ai/move_model.hpp).
#include <charconv>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/move_model.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"

namespace {

using namespace tanbo;

constexpr const char* kUsage =
    "usage: tanbo-move-data [--topology SPEC] [--setup NAME] [--games N] [--seed S]\n"
    "                       [--engine OPTIONS]\n"
    "Plays N games of self-play (default 10) on the board (default \"grid 9x9\", setup\n"
    "\"default\"): 2 to 9 random moves, then the moves of an MCTS search with OPTIONS (the\n"
    "keys of mcts:, default \"playouts=5000,model=0\"). Prints, as CSV on standard output,\n"
    "one row per legal move of every position searched: position,visits,<features>.\n";

struct Settings {
  std::string topology = "grid 9x9";
  std::string setup = "default";
  std::uint64_t games = 10;
  std::uint64_t seed = 1;
  std::string engine = "playouts=5000,model=0";
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
  std::printf("position,visits");
  for (int i = 0; i < kMoveFeatures; ++i) std::printf(",%s", move_feature_name(i));
  std::printf("\n");
}

// Prints the rows of one searched position.
void print_position(std::uint64_t number, Position& pos,
                    const std::vector<MoveAnalysis>& analysis) {
  std::unordered_map<Vertex, std::uint32_t> visits;
  for (const MoveAnalysis& a : analysis) visits[a.move] = a.visits;
  const Vertex last = pos.ply() > 0 ? pos.last_move().vertex : kNoVertex;
  const PositionSummary summary = summarize(pos, last);
  MoveFeatures features;
  for (Vertex v : pos.legal_moves(pos.to_move())) {
    move_features(pos, summary, v, features);
    const auto it = visits.find(v);
    std::printf("%llu,%u", static_cast<unsigned long long>(number),
                it == visits.end() ? 0u : it->second);
    for (float f : features) std::printf(",%.6g", static_cast<double>(f));
    std::printf("\n");
  }
}

void run(const Settings& s) {
  const TopologyPtr topology = parse_topology(s.topology);
  const Setup setup = make_setup(*topology, s.setup);
  const MctsConfig config = parse_mcts_options(s.engine);
  Rng rng(s.seed);
  std::uint64_t number = 0;
  print_header();
  for (std::uint64_t game = 0; game < s.games; ++game) {
    Position pos(topology, setup);
    Mcts search(config, s.seed * 1000 + game);
    const std::uint32_t random_moves = 2 + rng.below(8);
    while (!pos.is_over() && pos.ply() < 4 * pos.num_vertices()) {
      if (pos.ply() < random_moves) {
        pos.play(pos.legal_move(pos.to_move(), rng.below(pos.legal_count(pos.to_move()))));
        continue;
      }
      const std::vector<MoveAnalysis> analysis = search.analyze(pos);
      if (analysis.empty()) break;
      print_position(number++, pos, analysis);
      pos.play(analysis.front().move);
    }
    std::fflush(stdout);
    std::fprintf(stderr, "game %llu: %u moves, %llu positions so far\n",
                 static_cast<unsigned long long>(game + 1), pos.ply(),
                 static_cast<unsigned long long>(number));
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
    std::fprintf(stderr, "tanbo-move-data: %s\n", e.what());
    return 2;
  }
}
