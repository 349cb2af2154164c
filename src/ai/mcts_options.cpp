// The "mcts:" options: read from a spec, written back, and the defaults that depend on the board.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo {

// ---------------------------------------------------------------- options

namespace {

double parse_number(std::string_view key, std::string_view value, double lo, double hi) {
  const auto x = parse_decimal(value);
  if (!x || !(*x >= lo && *x <= hi)) {
    std::ostringstream os;
    os << "mcts option " << key << "=" << value << ": expected a number from " << plain_number(lo)
       << " to " << plain_number(hi);
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
    "tmoves, explore, ravek, expand, reuse, trans, reply, solver, memory";

}  // namespace

double exploration_constant(const MctsConfig& config, const Graph& graph) {
  if (config.exploration) return *config.exploration;
  const bool tuned = graph.num_vertices() <= kTunedExplorePoints && graph.max_degree() <= 4;
  return config.rave && tuned ? 0.0 : 0.2;
}

bool playout_tactics(const MctsConfig& config, const Graph& graph) {
  if (config.tactics_in_playouts) return *config.tactics_in_playouts;
  return graph.num_vertices() <= kTunedTacticsPoints;
}

std::uint32_t tactics_moves(const MctsConfig& config, const Graph& graph) {
  if (config.tactics_move_limit) return *config.tactics_move_limit;
  return graph.num_vertices() <= kWholeTacticsPoints ? 0 : kTacticsPlayoutMoves;
}

bool model_priors(const MctsConfig& config, const Graph& graph) {
  if (config.move_model_priors) return *config.move_model_priors;
  return graph.num_vertices() <= kTunedModelPoints && graph.max_degree() <= 4;
}

TanboPolicyOptions tanbo_policy_options(const MctsConfig& config, const Graph& graph) {
  TanboPolicyOptions o;
  o.light = config.light_playouts;
  o.tries = config.light_tries;
  o.tactics = config.light_playouts && playout_tactics(config, graph);
  o.tactics_plies = tactics_moves(config, graph);
  o.model_priors = model_priors(config, graph);
  return o;
}

MctsConfig parse_mcts_options(std::string_view options) {
  MctsConfig c;
  std::vector<std::string_view> seen;  // the keys given (each may come once)
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
    // (the messages below repeat the value as it is: a NUL would cut them short)
    if (has_control_characters(item)) {
      throw Error("mcts option " + quote_input(item) + " holds a control character");
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      throw Error("mcts option " + quote_input(key) + " is given twice");
    }
    seen.push_back(key);
    if (key == "playouts") {
      c.playouts = parse_count(key, value, 1, 1000000000000ull);
    } else if (key == "time") {
      c.move_seconds = parse_number(key, value, kLeastMoveSeconds, kMostMoveSeconds);
    } else if (key == "gametime") {
      c.game_seconds = parse_number(key, value, 0.01, 1e7);
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
        c.light_playouts = true;
      } else if (value == "random") {
        c.light_playouts = false;
      } else {
        throw Error("mcts option policy=" + std::string(value) + ": expected light or random");
      }
    } else if (key == "model") {
      c.move_model_priors = parse_flag(key, value);
    } else if (key == "prior") {
      c.prior_visits = static_cast<std::uint32_t>(parse_count(key, value, 0, 100000));
    } else if (key == "tactics") {
      c.tactics_in_playouts = parse_flag(key, value);
    } else if (key == "tmoves") {
      c.tactics_move_limit = static_cast<std::uint32_t>(parse_count(key, value, 0, 1000000000));
    } else if (key == "tries") {
      c.light_tries = static_cast<int>(parse_count(key, value, 1, 64));
    } else if (key == "explore") {
      c.exploration = parse_number(key, value, 0, 100);
    } else if (key == "ravek") {
      c.rave_equivalence = parse_number(key, value, 1, 1e9);
    } else if (key == "expand") {
      c.expand_visits = static_cast<std::uint32_t>(parse_count(key, value, 1, 1000000));
    } else if (key == "reuse") {
      c.reuse_tree = parse_flag(key, value);
    } else if (key == "trans") {
      c.transpositions = parse_flag(key, value);
    } else if (key == "reply") {
      c.last_good_reply = parse_flag(key, value);
    } else if (key == "solver") {
      c.solver_nodes = parse_count(key, value, 0, 1000000000000ull);
    } else if (key == "memory") {
      c.memory_mb = parse_count(key, value, 1, 1u << 24);
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
  if (c.move_seconds > 0) parts.push_back("time=" + plain_number(c.move_seconds));
  if (c.game_seconds > 0) parts.push_back("gametime=" + plain_number(c.game_seconds));
  if (c.threads != 1) parts.push_back("threads=" + std::to_string(c.threads));
  if (c.tree_parallel != d.tree_parallel) parts.push_back("parallel=root");
  if (c.rave != d.rave) parts.push_back(c.rave ? "rave=1" : "rave=0");
  if (c.light_playouts != d.light_playouts)
    parts.push_back(c.light_playouts ? "policy=light" : "policy=random");
  if (c.prior_visits != d.prior_visits) parts.push_back("prior=" + std::to_string(c.prior_visits));
  if (c.light_tries != d.light_tries) parts.push_back("tries=" + std::to_string(c.light_tries));
  if (c.tactics_in_playouts) parts.push_back(*c.tactics_in_playouts ? "tactics=1" : "tactics=0");
  if (c.tactics_move_limit) parts.push_back("tmoves=" + std::to_string(*c.tactics_move_limit));
  if (c.exploration) parts.push_back("explore=" + plain_number(*c.exploration));
  if (c.rave_equivalence != d.rave_equivalence)
    parts.push_back("ravek=" + plain_number(c.rave_equivalence));
  if (c.expand_visits != d.expand_visits)
    parts.push_back("expand=" + std::to_string(c.expand_visits));
  if (c.reuse_tree != d.reuse_tree) parts.push_back(c.reuse_tree ? "reuse=1" : "reuse=0");
  if (c.move_model_priors) parts.push_back(*c.move_model_priors ? "model=1" : "model=0");
  if (c.transpositions != d.transpositions)
    parts.push_back(c.transpositions ? "trans=1" : "trans=0");
  if (c.last_good_reply != d.last_good_reply)
    parts.push_back(c.last_good_reply ? "reply=1" : "reply=0");
  if (c.solver_nodes != d.solver_nodes) parts.push_back("solver=" + std::to_string(c.solver_nodes));
  if (c.memory_mb) parts.push_back("memory=" + std::to_string(c.memory_mb));
  std::string s = "mcts";
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "," : ":") + parts[i];
  return s;
}

}  // namespace tanbo
