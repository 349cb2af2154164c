// The exact solver (see solver.hpp and docs/solved.md).
#include "tanbo/ai/solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "solver_internal.hpp"
#include "tanbo/ai/policy.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo {

using namespace solver_detail;

namespace {

SolverOptions checked(SolverOptions o) {
  check_solver_memory(o);
  return o;
}

}  // namespace

struct Solver::Impl {
  SolverOptions options;
  Table table;
  TopologyPtr topology;  // the board the symmetries are of
  std::unique_ptr<Symmetries> symmetries;

  explicit Impl(SolverOptions o) : options(checked(std::move(o))), table(options.table_bytes) {}

  void ready_for(const Position& pos) {
    if (topology == pos.topology_ptr() && symmetries) return;
    topology = pos.topology_ptr();
    symmetries = std::make_unique<Symmetries>(pos.topology(), options.symmetry);
    table.clear();
  }

  SolveResult solve(const Position& pos, const SolveLimits& limits);

  // The running solve's shared state, for running_nodes (null between solves), shown by a
  // Running while the solve lives.
  mutable std::mutex running_mu;
  const Shared* running = nullptr;
  class Running {
   public:
    Running(Impl& impl, const Shared& sh) : impl_(impl) { set(&sh); }
    ~Running() { set(nullptr); }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;

   private:
    void set(const Shared* sh) {
      const std::lock_guard<std::mutex> lock(impl_.running_mu);
      impl_.running = sh;
    }
    Impl& impl_;
  };
};

namespace {

// One root move's outcome, for the side to move at the root.
struct RootResult {
  Vertex move = kNoVertex;
  Outcome outcome;  // for the side to move at the root (kWin: the move wins)
  bool done = false;
};

// The root's moves as the threads share them: the next move nobody has taken, then (df-pn
// with several threads) a hand with a move another thread is still proving.
struct RootMoves {
  std::vector<RootResult>& results;
  std::vector<std::atomic<bool>> finished;  // proven (by whichever thread was first)
  std::vector<std::atomic<int>> searching;  // threads proving it now

  explicit RootMoves(std::vector<RootResult>& r)
      : results(r), finished(r.size()), searching(r.size()) {}

  // The next move to prove, or results.size() when there is none left to take or help with.
  std::size_t take(Shared& sh) {
    const std::size_t fresh = sh.next_move.fetch_add(1);
    if (fresh < results.size() || !sh.busy) return std::min(fresh, results.size());
    std::size_t pick = results.size();
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (finished[i].load()) continue;
      if (pick == results.size() || searching[i].load() < searching[pick].load()) pick = i;
    }
    if (pick < results.size()) sh.helping = true;
    return pick;
  }
};

// A thread's share of the root: proves root moves until none is left or the search stops (the
// first winning move stops it unless every move is asked for). A move another thread finishes
// first stops this thread's proof of it.
void root_worker(Searcher& searcher, Shared& sh, RootMoves& roots, WorkSlot& slot) {
  const Player me = searcher.position().to_move();
  for (;;) {
    const std::size_t i = roots.take(sh);
    if (i >= roots.results.size() || sh.stop.load()) return;
    RootResult& r = roots.results[i];
    roots.searching[i].fetch_add(1);
    searcher.set_cancel(&roots.finished[i]);
    const bool pn = sh.options.method == SolveMethod::kProofNumber;
    if (pn) searcher.set_report(&slot, r.move);
    const Outcome child =
        pn ? searcher.child_outcome_pn(r.move, me) : searcher.child_outcome(r.move, me, 0);
    searcher.set_report(&slot, kNoVertex);
    searcher.set_cancel(nullptr);
    roots.searching[i].fetch_sub(1);
    if (child.value == Value::kUnknown) {
      if (sh.stop.load()) return;
      continue;  // (another thread proved it)
    }
    if (roots.finished[i].exchange(true)) continue;
    r.outcome = {child.value == Value::kLoss ? Value::kWin : Value::kLoss, child.plies + 1};
    r.done = true;
    sh.moves_done.fetch_add(1);
    if (r.outcome.value == Value::kWin && !sh.options.all_moves) {
      sh.stop = true;
      return;
    }
  }
}

// The root's moves searched by one worker per searcher (searchers[0] on this thread when there
// is one); the others make their own searcher, copying the position. A worker's exception (out
// of memory) stops the others and is thrown again here.
void run_root_workers(const Position& pos, Shared& sh,
                      std::vector<std::unique_ptr<Searcher>>& searchers,
                      std::vector<RootResult>& open) {
  RootMoves roots(open);
  if (searchers.size() == 1) {
    root_worker(*searchers[0], sh, roots, sh.work[0]);
    return;
  }
  if (sh.options.method == SolveMethod::kProofNumber) {
    sh.busy = std::make_unique<std::atomic<std::uint8_t>[]>(Shared::kBusySlots);
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(searchers.size());
  for (std::size_t t = 0; t < searchers.size(); ++t) {
    pool.emplace_back([&, t] {
      try {
        if (!searchers[t]) searchers[t] = std::make_unique<Searcher>(pos, sh);
        root_worker(*searchers[t], sh, roots, sh.work[t]);
      } catch (...) {
        errors[t] = std::current_exception();
        sh.stop = true;
      }
    });
  }
  for (auto& th : pool) th.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

// The result the root's moves give `me`: the winning moves, and the value with the quickest
// win or, when every move is proven lost, the longest loss.
void read_off(const std::vector<RootResult>& roots, Player me, SolveResult& result) {
  const RootResult* best_win = nullptr;
  const RootResult* longest_loss = nullptr;
  std::size_t done = 0;
  for (const RootResult& r : roots) {
    if (!r.done) continue;
    ++done;
    if (r.outcome.value == Value::kWin) {
      result.winning_moves.push_back(r.move);
      if (!best_win || r.outcome.plies < best_win->outcome.plies) best_win = &r;
    } else if (!longest_loss || r.outcome.plies > longest_loss->outcome.plies) {
      longest_loss = &r;
    }
  }
  std::sort(result.winning_moves.begin(), result.winning_moves.end());
  result.moves_done = done;
  const bool all_done = done == roots.size();
  if (best_win) {
    result.solved = true;
    result.winner = me;
    result.best = best_win->move;
    result.plies = best_win->outcome.plies;
  } else if (all_done && longest_loss) {
    result.solved = true;
    result.winner = me == kBlack ? kWhite : kBlack;
    result.best = longest_loss->move;
    result.plies = longest_loss->outcome.plies;
  }
}

}  // namespace

SolveResult Solver::Impl::solve(const Position& pos, const SolveLimits& limits) {
  if (pos.num_players() != 2) {
    throw Error("the solver handles two-player games only; this game has " +
                std::to_string(pos.num_players()) + " players");
  }
  if (pos.is_over()) throw Error("the game is over: nothing to solve");
  // (the limits count the setup too, and from the caller's start when it gives one)
  const Clock::time_point start = limits.since == Clock::time_point{} ? Clock::now() : limits.since;
  ready_for(pos);
  const int threads = solver_threads(options.threads);
  Shared sh(table, *symmetries, limits, options, start);
  sh.work = std::vector<WorkSlot>(static_cast<std::size_t>(threads));
  sh.board = &pos.topology();
  const Running live(*this, sh);
  const Watchdog watchdog(sh);
  // One searcher now for the root's moves; the others are made by their own threads (each
  // copies the position: on a huge board that takes a while).
  std::vector<std::unique_ptr<Searcher>> searchers(static_cast<std::size_t>(threads));
  searchers[0] = std::make_unique<Searcher>(pos, sh);

  SolveResult result;
  result.symmetries = symmetries->count();
  const Player me = pos.to_move();
  std::vector<RootResult> roots;
  for (Vertex v : searchers[0]->root_moves()) roots.push_back({v, {}, false});
  sh.moves_total = roots.size();
  result.moves_total = roots.size();
  // A move that ends the game at once needs no search.
  for (RootResult& r : roots) {
    if (move_wins_at_once(pos, me, r.move)) {
      r.outcome = {Value::kWin, 1};
      r.done = true;
    }
  }
  const bool instant = std::any_of(roots.begin(), roots.end(), [](const RootResult& r) {
    return r.done && r.outcome.value == Value::kWin;
  });
  if (!instant || options.all_moves) {
    // Moves proven at once are skipped by moving them out of the workers' way.
    std::vector<RootResult> open, proven;
    for (RootResult& r : roots) (r.done ? proven : open).push_back(r);
    sh.moves_done = proven.size();
    run_root_workers(pos, sh, searchers, open);
    roots = std::move(proven);
    roots.insert(roots.end(), open.begin(), open.end());
  }

  for (const auto& s : searchers) result.nodes += s ? s->local_nodes() : 0;
  result.seconds = std::chrono::duration<double>(Clock::now() - sh.start).count();
  read_off(roots, me, result);
  if (result.solved) searchers[0]->store_root(result.winner == me, result.best, result.plies);
  return result;
}

int solver_threads(int asked) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::clamp(asked, 1, cores);
}

std::size_t solver_table_bytes(std::size_t asked) {
  return Table::size_for(asked);
}

void check_solver_memory(const SolverOptions& options) {
  const std::size_t need = solver_table_bytes(options.table_bytes);
  const MemoryLimit limit = memory_limit();
  if (need > limit.board_room()) {
    throw Error("the solver's table of " + human_bytes(need) + " " + memory_refusal(need, limit) +
                " (or ask for a smaller table)");
  }
}

Solver::Solver(SolverOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Solver::~Solver() = default;
Solver::Solver(Solver&&) noexcept = default;
Solver& Solver::operator=(Solver&&) noexcept = default;

SolveResult Solver::solve(const Position& pos, const SolveLimits& limits) {
  return impl_->solve(pos, limits);
}
void Solver::clear() {
  impl_->table.clear();
}
const SolverOptions& Solver::options() const {
  return impl_->options;
}
void Solver::set_options(SolverOptions options) {
  if (options.table_bytes != impl_->options.table_bytes ||
      options.symmetry != impl_->options.symmetry) {
    throw Error("a solver's table size and symmetry setting are fixed when it is made");
  }
  impl_->options = std::move(options);
}

void Solver::prepare(const Position& pos) {
  impl_->ready_for(pos);
}
std::size_t Solver::table_words() const {
  return impl_->table.word_count();
}
void Solver::read_table(std::size_t first, std::span<std::uint64_t> out) const {
  impl_->table.copy_out(first, out);
}
void Solver::write_table(std::size_t first, std::span<const std::uint64_t> words,
                         std::size_t source_words) {
  impl_->table.copy_in(first, words, source_words);
}
std::uint64_t Solver::running_nodes() const {
  const std::lock_guard<std::mutex> lock(impl_->running_mu);
  return impl_->running ? impl_->running->nodes.load() : 0;
}

}  // namespace tanbo
