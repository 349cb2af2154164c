// Engine players ("agents"): anything that chooses a move for the side to move.
//
// Spec strings name agents everywhere (tanbo play --white, tanbo match --players, tanbo gtp
// --engine): "random", "greedy", "mcts:playouts=N", "mcts:time=S" (see docs/strength.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tanbo/position.hpp"

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
};

// Builds an agent from its spec; throws tanbo::Error naming the known agents when the spec is
// unknown or malformed. `seed` makes the agent's choices reproducible.
std::unique_ptr<Agent> make_agent(const std::string& spec, std::uint64_t seed = 1);

}  // namespace tanbo
