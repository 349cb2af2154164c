// Engine players ("agents"): anything that chooses a move for the side to move.
//
// Spec strings name agents everywhere (tanbo play --white, tanbo match --players, tanbo gtp
// --engine, tanbo study --players):
//   random                     a uniformly random legal move
//   greedy                     one-ply heuristic: bound other roots, keep own roots' space
//   mcts                       Monte Carlo tree search, 1000 playouts a move
//   mcts:KEY=VALUE[,KEY=VALUE] with keys playouts, time, gametime, threads, parallel, rave,
//                              policy, prior, model, tries, tactics, tmoves, explore, ravek,
//                              expand, reuse, trans, reply, solver (see mcts.hpp,
//                              docs/strength.md)
// A list of agents (split_agent_list) separates agents by commas; a comma followed by an
// agent name (random, greedy, mcts) starts a new agent, any other comma continues the
// options of the agent before it: "mcts:playouts=2000,threads=2,random" is two agents.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

class Agent {
 public:
  virtual ~Agent() = default;
  // Chooses a legal move for pos.to_move(). Precondition: the game is not over.
  virtual Vertex choose(const Position& pos) = 0;
  // The spec that recreates this agent ("mcts:playouts=1000").
  virtual std::string spec() const = 0;
  // Called when a new game starts (agents that keep state between moves reset it).
  virtual void new_game() {}
  // Frees what a searching agent keeps from one choice to the next (the tree it would reuse:
  // 45 MB after 100,000 playouts on 9x9; its solver's table, up to 16 MB); its next choice
  // searches afresh. The other agents keep nothing.
  virtual void forget_search() {}
  // Asks a choose() running on another thread to return soon (safe from any thread): a
  // searching agent stops its search and returns the best move found so far, still a legal
  // one. Does nothing when no choice is running. The other agents choose at once and ignore it.
  virtual void stop() {}
  // The time on this player's clock for the next choices: `seconds` for the rest of the game
  // (moves = 0) or for the next `moves` moves (a byo-yomi period); seconds < 0: no clock. A
  // searching agent keeps each search within its share; the others ignore it.
  virtual void set_clock(double seconds, int moves) {
    (void)seconds;
    (void)moves;
  }
  // Search counters of agents that search (0 for the others): playouts run and seconds spent
  // since construction.
  virtual std::uint64_t playouts_run() const { return 0; }
  virtual double seconds_spent() const { return 0; }
};

// Builds an agent from its spec; throws tanbo::Error naming the known agents when the spec is
// unknown or malformed. `seed` makes the agent's choices reproducible.
std::unique_ptr<Agent> make_agent(const std::string& spec, std::uint64_t seed = 1);
// The search configuration of an mcts spec ("mcts" or "mcts:OPTIONS"), or nothing for the
// other players; throws tanbo::Error for a malformed mcts spec, as make_agent does.
std::optional<MctsConfig> mcts_config_of(const std::string& spec);

// The names of the agents make_agent knows: random, greedy, mcts.
const std::vector<std::string>& agent_names();

// Splits a comma-separated list of agent specs (grammar above). Throws tanbo::Error when the
// list is empty, an item is empty, or the list does not start with an agent name.
std::vector<std::string> split_agent_list(const std::string& list);

// The players of `--players LIST` for a `what` ("match", "study") of 2 to 8 seats: the list
// split, each spec checked by building its agent once. Throws tanbo::Error for a bad list or
// spec, or "--players: a WHAT needs 2 to 8 engine players".
std::vector<std::string> seat_specs(const std::string& list, const std::string& what);

// The spec with its search threads set to `threads` (mcts specs; others are returned as they
// are): "mcts:playouts=500" -> "mcts:playouts=500,threads=2", "mcts" -> "mcts:threads=2".
// Throws tanbo::Error when the spec sets its threads itself (two values, neither to win).
std::string with_threads(const std::string& spec, int threads);

// The spec of the engine `tanbo gtp` and `tanbo play` use when none is given.
inline constexpr const char* kDefaultEngine = "mcts:playouts=3000,time=10";

}  // namespace tanbo
