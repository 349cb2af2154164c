#include "tanbo/agent.hpp"
#include "tanbo/error.hpp"
#include "tanbo/random.hpp"

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

}  // namespace

std::unique_ptr<Agent> make_agent(const std::string& spec, std::uint64_t seed) {
  if (spec == "random") return std::make_unique<RandomAgent>(seed);
  throw Error("unknown player \"" + spec + "\"; engine players: random");
}

}  // namespace tanbo
