// The MCTS engine's use of the exact solver: before each search of a two-player position with
// few empty points, the solver of `tanbo solve` tries to prove it (docs/strength.md, "The exact
// solver first").
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"

namespace tanbo {

namespace {
// The exact solver's positions per playout of the search's playout limit, above
// kSolverSmallEmpty empty points (see solve_root).
constexpr std::uint64_t kSolverNodesPerPlayout = 10;
// At most this many empty points the solver has its whole budget, whatever the playouts: there
// it proves most positions within 100,000 positions, in a fraction of a second.
constexpr std::uint32_t kSolverSmallEmpty = 25;

// The solver's limits for one proof of pos within a move of `seconds` (0: no time limit).
SolveLimits solver_limits(const MctsConfig& config, const Position& pos, double seconds,
                          const std::atomic<bool>* stop) {
  const std::uint32_t empty = pos.num_vertices() - pos.stones(kBlack) - pos.stones(kWhite);
  SolveLimits limits;
  // Above 25 empty points, proportionate to the search: a solver position costs about a quarter
  // of a 9x9 playout, and far from the end the solver seldom proves anything, so a fixed budget
  // would make small searches many times slower for nothing. At 25 empty points or fewer the
  // whole budget: proofs are within reach there, and a small search misses the wins they find
  // (docs/experiments.md).
  limits.nodes = config.solver_nodes;
  if (config.playouts > 0 && empty > kSolverSmallEmpty)
    limits.nodes = std::min(limits.nodes, kSolverNodesPerPlayout * config.playouts);
  limits.seconds = seconds > 0 ? seconds / 4 : 0;  // a quarter of the move's time at most
  limits.stop = stop;
  return limits;
}

}  // namespace

Vertex Mcts::solve_root(const Position& pos, double seconds, const std::atomic<bool>* stop,
                        bool& lost) {
  lost = false;
  // Only where a proof may be within reach: two players, at most 64 empty points.
  const std::uint32_t empty = pos.num_vertices() - pos.stones(kBlack) - pos.stones(kWhite);
  if (config_.solver_nodes == 0 || pos.num_players() != 2 || empty > 64) return kNoVertex;
  if (!solver_) {
    SolverOptions options;
    options.table_bytes = std::size_t{16} << 20;
    options.policy = policy_;
    try {
      check_solver_memory(options);
    } catch (const Error&) {
      return kNoVertex;  // no room for its table under the memory limit: the search alone
    }
    solver_ = std::make_unique<Solver>(options);
  }
  const SolveResult r = solver_->solve(pos, solver_limits(config_, pos, seconds, stop));
  stats_.solver_nodes = r.nodes;
  if (!r.solved) return kNoVertex;
  lost = r.winner != pos.to_move();
  return lost ? kNoVertex : r.best;
}

std::vector<Vertex> Mcts::proof_line(const Position& pos, Vertex win, std::size_t length,
                                     double seconds, const std::atomic<bool>* stop) {
  std::vector<Vertex> line{win};
  if (!solver_) return line;
  Position next(pos);
  next.clear_history();
  next.play(win);
  // Each position of the line was met by the proof just made, so its table entry answers at
  // once; a position the limits cannot prove again ends the line there.
  while (line.size() < length && !next.is_over()) {
    const SolveResult r = solver_->solve(next, solver_limits(config_, next, seconds, stop));
    stats_.solver_nodes += r.nodes;
    if (!r.solved || r.best == kNoVertex) break;
    line.push_back(r.best);
    next.play(r.best);
  }
  return line;
}

}  // namespace tanbo
