// The Policy interface (policy.hpp): the search and the solver ask the policy they are given,
// and the default TanboPolicy plays as its pieces do.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/policy.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

// A policy without knowledge that counts what it is asked: flat priors, uniform playout moves,
// no urgency.
class CountingPolicy : public Policy {
 public:
  void prior_shares(Position&, Vertex, std::span<const Vertex> moves, std::vector<double>& shares,
                    PolicyScratch&) const override {
    ++priors;
    shares.assign(moves.size(), 0.5);
  }
  Vertex playout_move(const Position& pos, const PlayoutTurn&, Rng& rng,
                      PolicyScratch&) const override {
    ++playout_moves;
    return random_move(pos, rng);
  }
  int move_urgency(const Position&, Player, Vertex) const override {
    ++urgencies;
    return 0;
  }
  mutable std::atomic<std::uint64_t> priors{0}, playout_moves{0}, urgencies{0};
};

// The moves of a seeded game of `plies` moves between two searches made by `make`.
template <class Make>
std::vector<Vertex> seeded_game(const std::string& board, int plies, Make&& make) {
  Position pos = test::make(board);
  Mcts black = make(1), white = make(2);
  std::vector<Vertex> moves;
  for (int i = 0; i < plies && !pos.is_over(); ++i) {
    const Vertex v = (i % 2 == 0 ? black : white).search(pos);
    moves.push_back(v);
    pos.play(v);
  }
  return moves;
}

TEST(Policy, AGivenTanboPolicyPlaysAsTheDefault) {
  // The same options, given as a policy (called through the interface), replay the default's
  // seeded games move for move.
  for (const std::string board : {"grid 9x9", "hex 4", "grid 4x4x4"}) {
    for (const std::string options :
         {"playouts=200,solver=0", "playouts=200,policy=random,reply=1,solver=0"}) {
      const MctsConfig config = parse_mcts_options(options);
      const auto policy =
          std::make_shared<TanboPolicy>(tanbo_policy_options(config, test::make(board).graph()));
      const auto by_default = seeded_game(board, 12, [&](int s) { return Mcts(config, s); });
      const auto given = seeded_game(board, 12, [&](int s) { return Mcts(config, s, policy); });
      EXPECT_EQ(by_default, given) << board << " " << options;
    }
  }
}

TEST(Policy, TheSearchAsksThePolicyItIsGiven) {
  const auto policy = std::make_shared<CountingPolicy>();
  Mcts mcts(parse_mcts_options("playouts=300,solver=0"), 5, policy);
  const Position pos = test::make("grid 9x9");
  const Vertex v = mcts.search(pos);
  EXPECT_TRUE(pos.is_legal_point(pos.to_move(), v));
  EXPECT_EQ(policy->playout_moves.load(), mcts.last_stats().playout_moves);
  EXPECT_GT(policy->priors.load(), 0u);
  // Without priors the policy's priors are not asked for.
  const auto flat = std::make_shared<CountingPolicy>();
  Mcts(parse_mcts_options("playouts=300,prior=0,solver=0"), 5, flat).search(pos);
  EXPECT_EQ(flat->priors.load(), 0u);
  EXPECT_GT(flat->playout_moves.load(), 0u);
}

TEST(Policy, TheSolverOrdersByThePolicyItIsGiven) {
  // The order changes the work, never the verdict; TanboPolicy given is the default exactly.
  for (const std::string board : {"grid 4x4", "line 9"}) {
    const Position pos = test::make(board);
    SolverOptions options;
    options.method = SolveMethod::kAlphaBeta;
    options.symmetry = false;
    const SolveResult plain = Solver(options).solve(pos);
    options.policy = std::make_shared<TanboPolicy>();
    const SolveResult tanbo = Solver(options).solve(pos);
    const auto counting = std::make_shared<CountingPolicy>();
    options.policy = counting;
    const SolveResult flat = Solver(options).solve(pos);
    ASSERT_TRUE(plain.solved && tanbo.solved && flat.solved) << board;
    EXPECT_EQ(tanbo.nodes, plain.nodes) << board;
    EXPECT_EQ(tanbo.best, plain.best) << board;
    EXPECT_EQ(flat.winner, plain.winner) << board;
    EXPECT_GT(counting->urgencies.load(), 0u) << board;
  }
}

TEST(Policy, TanboPolicyUrgencyReadsTheRules) {
  Rng rng(3);
  Position pos = test::make("grid 7x7");
  const TanboPolicy policy;
  int bad = 0, urgent = 0;
  while (!pos.is_over()) {
    const Player p = pos.to_move();
    for (Vertex v : pos.legal_moves(p)) {
      const int u = policy.move_urgency(pos, p, v);
      const bool own = move_bounds_own_root(pos, p, v);
      EXPECT_EQ(u, own ? -1 : move_bounds_other_root(pos, p, v) ? 1 : 0);
      bad += u < 0;
      urgent += u > 0;
    }
    pos.play(light_playout_move(pos, rng));
  }
  EXPECT_GT(bad, 0);
  EXPECT_GT(urgent, 0);
}

TEST(Policy, OptionsFollowTheConfigAndTheBoard) {
  const Position nine = test::make("grid 9x9");
  const Graph& small = nine.graph();
  const TanboPolicyOptions o = tanbo_policy_options(MctsConfig{}, small);
  EXPECT_TRUE(o.light);
  EXPECT_TRUE(o.tactics);
  EXPECT_TRUE(o.model_priors);
  EXPECT_EQ(o.tactics_plies, 0u);
  // Uniform playouts have no tactics; the options given win over the board's choice.
  const TanboPolicyOptions r =
      tanbo_policy_options(parse_mcts_options("policy=random,tries=3,model=0,tmoves=7"), small);
  EXPECT_FALSE(r.light);
  EXPECT_FALSE(r.tactics);
  EXPECT_FALSE(r.model_priors);
  EXPECT_EQ(r.tries, 3);
  EXPECT_EQ(r.tactics_plies, 7u);
}

}  // namespace
}  // namespace tanbo
