// Google Benchmark targets for the hot paths: play, undo, legal-move queries, playouts.
// Run: build/bench/bench_position (see docs/performance.md).
#include <benchmark/benchmark.h>

#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/move_model.hpp"
#include "tanbo/ai/playout.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/platform/memory.hpp"

using namespace tanbo;

namespace {

Position start(const char* spec) {
  auto t = parse_topology(spec);
  return Position(t, make_setup(*t));
}

// A position some way into a random game, so that moves meet real neighbourhoods.
Position midgame(const char* spec, std::uint32_t plies, std::uint64_t seed) {
  Position pos = start(spec);
  Rng rng(seed);
  for (std::uint32_t i = 0; i < plies && !pos.is_over(); ++i) pos.play(random_move(pos, rng));
  return pos;
}

// One random playout from the start, the copy of the start position included (assigned to
// one position object, as tanbo bench does, so that its buffers are reused; without a game
// record, as there).
void BM_Playout(benchmark::State& state, const char* spec) {
  Position s = start(spec);
  s.set_recording(false);
  Rng rng(1);
  std::uint64_t moves = 0;
  Position pos = s;
  for (auto _ : state) {
    pos = s;
    moves += random_playout(pos, rng);
  }
  state.counters["moves/game"] =
      static_cast<double>(moves) / static_cast<double>(state.iterations());
  state.counters["playouts/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Choice of a uniformly random legal move, play and undo, in a mid-game position (at these
// plies no legal move removes a root yet).
void BM_ChoosePlayUndo(benchmark::State& state, const char* spec, std::uint32_t plies) {
  Position pos = midgame(spec, plies, 3);
  Rng rng(2);
  for (auto _ : state) {
    pos.play(random_move(pos, rng));
    pos.undo();
  }
}

// play + undo of random legal moves drawn beforehand, at random places of the same mid-game
// position: the cost of a move and its undo without the choice.
void BM_PlayUndo(benchmark::State& state, const char* spec, std::uint32_t plies) {
  Position pos = midgame(spec, plies, 3);
  Rng rng(2);
  std::vector<Vertex> moves(65536);
  for (Vertex& v : moves) v = random_move(pos, rng);
  std::size_t i = 0;
  for (auto _ : state) {
    pos.play(moves[i++ & 65535]);
    pos.undo();
  }
}

// play + undo of one fixed legal move, again and again: the cost of a move once its
// neighbourhood is in cache, which shows that the work does not grow with the board.
void BM_PlayUndoWarm(benchmark::State& state, const char* spec, std::uint32_t plies) {
  Position pos = midgame(spec, plies, 3);
  Rng rng(2);
  const Vertex v = random_move(pos, rng);
  for (auto _ : state) {
    pos.play(v);
    pos.undo();
  }
}

// Only the play half: a random game is played and restarted from a copy when it ends.
void BM_Play(benchmark::State& state, const char* spec) {
  const Position s = start(spec);
  Position pos = s;
  Rng rng(4);
  for (auto _ : state) {
    if (pos.is_over()) {
      state.PauseTiming();
      pos = s;
      state.ResumeTiming();
    }
    pos.play(random_move(pos, rng));
  }
}

// One `play` of recorded random games, the choice of each move excluded: every move of a
// game in order, removals included, the position restored to the start between games
// (untimed). The games are drawn once, up to `games` of them or 6 million moves.
void BM_ReplayGame(benchmark::State& state, const char* spec, int games) {
  const Position s = start(spec);
  Rng rng(6);
  std::vector<std::vector<Vertex>> record;
  std::size_t total = 0;
  for (int g = 0; g < games && total < 6000000; ++g) {
    Position pos = s;
    std::vector<Vertex>& moves = record.emplace_back();
    while (!pos.is_over()) moves.push_back(pos.play(random_move(pos, rng)).vertex);
    total += moves.size();
  }
  Position pos = s;
  std::size_t g = 0, i = 0;
  for (auto _ : state) {
    if (i == record[g].size()) {
      state.PauseTiming();
      pos = s;
      g = (g + 1) % record.size();
      i = 0;
      state.ResumeTiming();
    }
    pos.play(record[g][i++]);
  }
}

// The choice of a uniformly random legal move alone: legal_move(p, rng.below(legal_count(p))).
void BM_RandomMove(benchmark::State& state, const char* spec, std::uint32_t plies) {
  const Position pos = midgame(spec, plies, 3);
  Rng rng(2);
  for (auto _ : state) benchmark::DoNotOptimize(random_move(pos, rng));
}

void BM_LegalMovesSorted(benchmark::State& state, const char* spec, std::uint32_t plies) {
  const Position pos = midgame(spec, plies, 5);
  for (auto _ : state) benchmark::DoNotOptimize(pos.legal_moves(pos.to_move()));
}

void BM_IsLegalAllPoints(benchmark::State& state, const char* spec, std::uint32_t plies) {
  const Position pos = midgame(spec, plies, 5);
  const Player p = pos.to_move();
  for (auto _ : state) {
    std::uint32_t n = 0;
    for (Vertex v = 0; v < pos.num_vertices(); ++v) n += pos.is_legal_point(p, v);
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(state.iterations() * pos.num_vertices());
}

// The priors of one expanded node: the shares of every legal move of a position some way into
// a game, from the move model or from greedy's one-ply ranking.
void BM_ModelPriors(benchmark::State& state, const char* spec, std::uint32_t plies) {
  Position pos = midgame(spec, plies, 7);
  const std::vector<Vertex> moves = pos.legal_moves(pos.to_move());
  std::vector<double> shares;
  for (auto _ : state) {
    move_model_shares(pos, pos.last_move().vertex, moves, shares);
    benchmark::DoNotOptimize(shares.data());
  }
  state.counters["moves"] = static_cast<double>(moves.size());
}

void BM_GreedyPriors(benchmark::State& state, const char* spec, std::uint32_t plies) {
  Position pos = midgame(spec, plies, 7);
  const std::vector<Vertex> moves = pos.legal_moves(pos.to_move());
  std::vector<double> shares;
  std::vector<std::uint32_t> order;
  for (auto _ : state) {
    one_ply_shares(pos, moves, shares, order);
    benchmark::DoNotOptimize(shares.data());
  }
  state.counters["moves"] = static_cast<double>(moves.size());
}

}  // namespace

BENCHMARK_CAPTURE(BM_Playout, line31, "line 31");
BENCHMARK_CAPTURE(BM_Playout, g9x9, "grid 9x9");
BENCHMARK_CAPTURE(BM_Playout, g19x19, "grid 19x19");
BENCHMARK_CAPTURE(BM_Playout, g5x5x5, "grid 5x5x5");
BENCHMARK_CAPTURE(BM_Playout, g5x5x5x5, "grid 5x5x5x5");
BENCHMARK_CAPTURE(BM_Playout, hex5, "hex 5");
BENCHMARK_CAPTURE(BM_ChoosePlayUndo, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_ChoosePlayUndo, g1000x1000, "grid 1000x1000", 20000);
BENCHMARK_CAPTURE(BM_PlayUndo, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_PlayUndo, g1000x1000, "grid 1000x1000", 20000);
BENCHMARK_CAPTURE(BM_PlayUndoWarm, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_PlayUndoWarm, g1000x1000, "grid 1000x1000", 20000);
BENCHMARK_CAPTURE(BM_Play, g19x19, "grid 19x19");
BENCHMARK_CAPTURE(BM_Play, g5x5x5, "grid 5x5x5");
BENCHMARK_CAPTURE(BM_Play, g1000x1000, "grid 1000x1000");
BENCHMARK_CAPTURE(BM_Play, g100x100x100, "grid 100x100x100");
BENCHMARK_CAPTURE(BM_ReplayGame, g19x19, "grid 19x19", 2000);
BENCHMARK_CAPTURE(BM_ReplayGame, g1000x1000, "grid 1000x1000", 1);
BENCHMARK_CAPTURE(BM_RandomMove, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_RandomMove, g1000x1000, "grid 1000x1000", 20000);
BENCHMARK_CAPTURE(BM_LegalMovesSorted, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_IsLegalAllPoints, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_ModelPriors, g9x9, "grid 9x9", 30);
BENCHMARK_CAPTURE(BM_GreedyPriors, g9x9, "grid 9x9", 30);
BENCHMARK_CAPTURE(BM_ModelPriors, g19x19, "grid 19x19", 150);
BENCHMARK_CAPTURE(BM_GreedyPriors, g19x19, "grid 19x19", 150);
