#include <cmath>

#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo {

namespace {

// Plays a uniformly random legal move.
class RandomAgent : public Agent {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  Vertex choose(const Position& pos) override { return random_move(pos, rng_); }
  std::string spec() const override { return "random"; }

 private:
  Rng rng_;
};

// One-ply heuristic: tries every legal move and scores the position it leads to. Stones of
// other players removed count for, own stones removed against; then the root space of the
// own roots (room to grow) for and the other players' root space against. Ties are broken at
// random.
class GreedyAgent : public Agent {
 public:
  explicit GreedyAgent(std::uint64_t seed) : rng_(seed) {}

  Vertex choose(const Position& pos) override {
    const Player me = pos.to_move();
    const std::vector<Vertex> moves = pos.legal_moves(me);
    if (moves.size() == 1) return moves[0];
    if (!scratch_ || &scratch_->topology() != &pos.topology()) {
      scratch_ = std::make_unique<Position>(pos);
    } else {
      *scratch_ = pos;
    }
    Position& s = *scratch_;
    double best = -1e300;
    Vertex best_v = moves[0];
    for (Vertex v : moves) {
      double score = one_ply_score(s, v);
      score += 1e-3 * rng_.uniform();
      if (score > best) {
        best = score;
        best_v = v;
      }
    }
    return best_v;
  }
  std::string spec() const override { return "greedy"; }

 private:
  Rng rng_;
  std::unique_ptr<Position> scratch_;
};

// Monte Carlo tree search (mcts.hpp). With a game-time budget it keeps track of the time it
// has used in the current game and spreads the rest over the moves it expects to play; with a
// clock (set_clock) it spreads the clock's time the same way, or over the moves of a byo-yomi
// period, keeping a margin for the time around the search. The smaller share wins.
class MctsAgent : public Agent {
 public:
  MctsAgent(const MctsConfig& config, std::uint64_t seed) : mcts_(config, seed) {}

  Vertex choose(const Position& pos) override {
    double budget = 0;
    const MctsConfig& c = mcts_.config();
    // Expected moves of this player left: from the mean playout length of the last search,
    // else the board size, shared among the players still in.
    const auto moves_left = [&] {
      double plies = static_cast<double>(pos.num_vertices());
      const SearchStats& last = mcts_.last_stats();
      if (last.playouts > 0) plies = static_cast<double>(last.playout_moves) / last.playouts;
      int alive = 0;
      for (Player q = 1; q <= pos.num_players(); ++q) alive += pos.is_out(q) ? 0 : 1;
      return std::max(plies / std::max(alive, 1), 1.0);
    };
    if (c.game_seconds > 0) {
      const double left = std::max(c.game_seconds - used_, 0.0);
      budget = std::max(left / (moves_left() + 2.0), 0.001);
    }
    if (clock_ >= 0) {
      const double share = clock_moves_ > 0 ? clock_ / clock_moves_ : clock_ / (moves_left() + 2.0);
      const double fit = std::max(0.8 * share - 0.05, 0.005);
      budget = budget > 0 ? std::min(budget, fit) : fit;
    }
    const Vertex v = mcts_.search(pos, budget);
    used_ += mcts_.last_stats().seconds;
    return v;
  }
  std::string spec() const override { return mcts_spec(mcts_.config()); }
  void new_game() override {
    used_ = 0;
    mcts_.forget();
  }
  void forget_search() override { mcts_.free_memory(); }
  void stop() override { mcts_.stop(); }
  void set_clock(double seconds, int moves) override {
    clock_ = seconds;
    clock_moves_ = moves;
  }
  std::uint64_t playouts_run() const override { return mcts_.total_stats().playouts; }
  double seconds_spent() const override { return mcts_.total_stats().seconds; }

 private:
  Mcts mcts_;
  double used_ = 0;      // seconds used in the current game
  double clock_ = -1;    // seconds on the clock (< 0: none)
  int clock_moves_ = 0;  // the moves they are for (0: the rest of the game)
};

std::string known_list() {
  return "random, greedy, mcts, mcts:playouts=N, mcts:time=S";
}

}  // namespace

const std::vector<std::string>& agent_names() {
  static const std::vector<std::string> names = {"random", "greedy", "mcts"};
  return names;
}

std::optional<MctsConfig> mcts_config_of(const std::string& spec) {
  if (spec == "mcts") return MctsConfig{};
  if (spec.rfind("mcts:", 0) != 0) return std::nullopt;
  const std::string options = spec.substr(5);
  if (options.empty()) throw Error("player " + quote_input(spec) + ": no options after \"mcts:\"");
  try {
    return parse_mcts_options(options);
  } catch (const Error& e) {
    throw Error("player " + quote_input(spec) + ": " + e.what());
  }
}

std::unique_ptr<Agent> make_agent(const std::string& spec, std::uint64_t seed) {
  if (spec == "random") return std::make_unique<RandomAgent>(seed);
  if (spec == "greedy") return std::make_unique<GreedyAgent>(seed);
  if (const std::optional<MctsConfig> config = mcts_config_of(spec))
    return std::make_unique<MctsAgent>(*config, seed);
  throw Error("unknown player " + quote_input(spec) + "; engine players: " + known_list());
}

std::vector<std::string> seat_specs(const std::string& list, const std::string& what) {
  std::vector<std::string> specs = split_agent_list(list);
  if (specs.size() < 2 || specs.size() > static_cast<std::size_t>(kMaxPlayers)) {
    throw Error("--players: a " + what + " needs 2 to " + std::to_string(kMaxPlayers) +
                " engine players");
  }
  for (const auto& s : specs) make_agent(s, 1);  // refuse a bad spec before any game
  return specs;
}

std::string with_threads(const std::string& spec, int threads) {
  if (spec != "mcts" && spec.rfind("mcts:", 0) != 0) return spec;
  if (spec.find(":threads=") != std::string::npos || spec.find(",threads=") != std::string::npos) {
    throw Error("--threads " + std::to_string(threads) + " and the engine's own threads= are " +
                "both given; give one");
  }
  return spec + (spec == "mcts" ? ":" : ",") + "threads=" + std::to_string(threads);
}

std::vector<std::string> split_agent_list(const std::string& list) {
  auto starts_agent = [](const std::string& item) {
    for (const auto& name : agent_names()) {
      if (item == name || item.rfind(name + ":", 0) == 0) return true;
    }
    return false;
  };
  std::vector<std::string> out;
  std::size_t pos = 0;
  if (list.empty()) throw Error("no players given; engine players: " + known_list());
  while (pos <= list.size()) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(pos, end - pos);
    if (item.empty()) throw Error("players " + quote_input(list) + ": empty item between commas");
    if (starts_agent(item)) {
      out.push_back(item);
    } else if (!out.empty() && item.find('=') != std::string::npos &&
               out.back().find(':') != std::string::npos) {
      out.back() += "," + item;  // an option of the agent before
    } else {
      const std::string where =
          item.size() == list.size() ? "" : "players " + quote_input(list, 20) + ": ";
      throw Error(where + quote_input(item, 30) + " is not an engine player (" + known_list() +
                  ")");
    }
    pos = end + 1;
  }
  return out;
}

}  // namespace tanbo
