// The "mcts:" options: read from a spec, written back, and the defaults that depend on the board.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"

namespace tanbo {

// ---------------------------------------------------------------- options

namespace {

double parse_number(std::string_view key, std::string_view value, double lo, double hi) {
  const auto x = parse_decimal(value);
  if (!x || !(*x >= lo && *x <= hi)) {
    std::ostringstream os;
    os << "mcts option " << key << "=" << value << ": expected a number from " << lo << " to "
       << hi;
    throw Error(os.str());
  }
  return *x;
}

std::uint64_t parse_count(std::string_view key, std::string_view value, std::uint64_t lo,
                          std::uint64_t hi) {
  const auto x = parse_whole(value);
  if (!x || *x < lo || *x > hi) {
    throw Error("mcts option " + std::string(key) + "=" + std::string(value) +
                ": expected a whole number from " + std::to_string(lo) + " to " +
                std::to_string(hi));
  }
  return *x;
}

bool parse_flag(std::string_view key, std::string_view value) {
  if (value == "1" || value == "on" || value == "yes" || value == "true") return true;
  if (value == "0" || value == "off" || value == "no" || value == "false") return false;
  throw Error("mcts option " + std::string(key) + "=" + std::string(value) +
              ": expected 1 or 0 (on/off)");
}

// Every key parse_mcts_options reads, for its messages.
constexpr const char* kOptionKeys =
    "playouts, time, gametime, threads, parallel, rave, policy, prior, model, tries, tactics, "
    "tmoves, explore, ravek, expand, reuse, trans, reply, solver";

std::string format_number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

}  // namespace

double exploration_constant(const MctsConfig& config, const Graph& graph) {
  if (config.explore >= 0) return config.explore;
  const bool tuned = graph.num_vertices() <= kTunedExplorePoints && graph.max_degree() <= 4;
  return config.rave && tuned ? 0.0 : 0.2;
}

bool playout_tactics(const MctsConfig& config, const Graph& graph) {
  if (config.tactics >= 0) return config.tactics == 1;
  return graph.num_vertices() <= kTunedTacticsPoints;
}

std::uint32_t tactics_moves(const MctsConfig& config, const Graph& graph) {
  if (config.tmoves >= 0) return static_cast<std::uint32_t>(config.tmoves);
  return graph.num_vertices() <= kWholeTacticsPoints ? 0 : kTacticsPlayoutMoves;
}

bool model_priors(const MctsConfig& config, const Graph& graph) {
  if (config.model >= 0) return config.model == 1;
  return graph.num_vertices() <= kTunedModelPoints && graph.max_degree() <= 4;
}

MctsConfig parse_mcts_options(std::string_view options) {
  MctsConfig c;
  std::size_t pos = 0;
  while (pos <= options.size() && !options.empty()) {
    std::size_t end = options.find(',', pos);
    if (end == std::string_view::npos) end = options.size();
    const std::string_view item = options.substr(pos, end - pos);
    const std::size_t eq = item.find('=');
    if (item.empty() || eq == std::string_view::npos || eq == 0) {
      throw Error("mcts option \"" + std::string(item) +
                  "\": expected key=value (keys: " + kOptionKeys + ")");
    }
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (key == "playouts") {
      c.playouts = parse_count(key, value, 1, 1000000000000ull);
    } else if (key == "time") {
      c.time = parse_number(key, value, 0.001, 1e6);
    } else if (key == "gametime") {
      c.game_time = parse_number(key, value, 0.01, 1e7);
    } else if (key == "threads") {
      c.threads = static_cast<int>(parse_count(key, value, 1, 256));
    } else if (key == "parallel") {
      if (value == "tree") {
        c.tree_parallel = true;
      } else if (value == "root") {
        c.tree_parallel = false;
      } else {
        throw Error("mcts option parallel=" + std::string(value) + ": expected tree or root");
      }
    } else if (key == "rave") {
      c.rave = parse_flag(key, value);
    } else if (key == "policy") {
      if (value == "light") {
        c.light = true;
      } else if (value == "random") {
        c.light = false;
      } else {
        throw Error("mcts option policy=" + std::string(value) + ": expected light or random");
      }
    } else if (key == "model") {
      c.model = parse_flag(key, value) ? 1 : 0;
    } else if (key == "prior") {
      c.prior = static_cast<std::uint32_t>(parse_count(key, value, 0, 100000));
    } else if (key == "tactics") {
      c.tactics = parse_flag(key, value) ? 1 : 0;
    } else if (key == "tmoves") {
      c.tmoves = static_cast<std::int64_t>(parse_count(key, value, 0, 1000000000));
    } else if (key == "tries") {
      c.tries = static_cast<int>(parse_count(key, value, 1, 64));
    } else if (key == "explore") {
      c.explore = parse_number(key, value, 0, 100);
    } else if (key == "ravek") {
      c.rave_k = parse_number(key, value, 1, 1e9);
    } else if (key == "expand") {
      c.expand = static_cast<std::uint32_t>(parse_count(key, value, 1, 1000000));
    } else if (key == "reuse") {
      c.reuse = parse_flag(key, value);
    } else if (key == "trans") {
      c.transpose = parse_flag(key, value);
    } else if (key == "reply") {
      c.reply = parse_flag(key, value);
    } else if (key == "solver") {
      c.solver = parse_count(key, value, 0, 1000000000000ull);
    } else {
      throw Error("unknown mcts option \"" + std::string(key) + "\" (keys: " + kOptionKeys + ")");
    }
    pos = end + 1;
  }
  return c;
}

std::string mcts_spec(const MctsConfig& c) {
  const MctsConfig d;
  std::vector<std::string> parts;
  if (c.playouts) parts.push_back("playouts=" + std::to_string(c.playouts));
  if (c.time > 0) parts.push_back("time=" + format_number(c.time));
  if (c.game_time > 0) parts.push_back("gametime=" + format_number(c.game_time));
  if (c.threads != 1) parts.push_back("threads=" + std::to_string(c.threads));
  if (c.tree_parallel != d.tree_parallel) parts.push_back("parallel=root");
  if (c.rave != d.rave) parts.push_back(c.rave ? "rave=1" : "rave=0");
  if (c.light != d.light) parts.push_back(c.light ? "policy=light" : "policy=random");
  if (c.prior != d.prior) parts.push_back("prior=" + std::to_string(c.prior));
  if (c.tries != d.tries) parts.push_back("tries=" + std::to_string(c.tries));
  if (c.tactics != d.tactics) parts.push_back(c.tactics == 1 ? "tactics=1" : "tactics=0");
  if (c.tmoves != d.tmoves) parts.push_back("tmoves=" + std::to_string(c.tmoves));
  if (c.explore != d.explore) parts.push_back("explore=" + format_number(c.explore));
  if (c.rave_k != d.rave_k) parts.push_back("ravek=" + format_number(c.rave_k));
  if (c.expand != d.expand) parts.push_back("expand=" + std::to_string(c.expand));
  if (c.reuse != d.reuse) parts.push_back(c.reuse ? "reuse=1" : "reuse=0");
  if (c.model != d.model) parts.push_back(c.model == 1 ? "model=1" : "model=0");
  if (c.transpose != d.transpose) parts.push_back(c.transpose ? "trans=1" : "trans=0");
  if (c.reply != d.reply) parts.push_back(c.reply ? "reply=1" : "reply=0");
  if (c.solver != d.solver) parts.push_back("solver=" + std::to_string(c.solver));
  std::string s = "mcts";
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "," : ":") + parts[i];
  return s;
}

}  // namespace tanbo
