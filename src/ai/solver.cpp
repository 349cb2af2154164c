// The exact solver (see solver.hpp and docs/solved.md).
#include "tanbo/solver.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include "tanbo/error.hpp"
#include "tanbo/mcts.hpp"

namespace tanbo {

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// What the table knows of a position, packed in 64 bits: bit 0 set (an entry), bit 1 the side
// to move wins, bits 2-33 the best move in the canonical frame, bits 34-49 the plies to the
// end along the proof, bits 50-57 log2 of the nodes the proof took (for replacement).
struct Entry {
  bool win = false;
  Vertex move = kNoVertex;
  std::uint32_t plies = 0;
  std::uint32_t work = 0;

  std::uint64_t pack() const {
    return 1u | (std::uint64_t{win} << 1) | (std::uint64_t{move} << 2) |
           (std::uint64_t{std::min<std::uint32_t>(plies, 0xFFFF)} << 34) |
           (std::uint64_t{std::min<std::uint32_t>(work, 0xFF)} << 50);
  }
  static Entry unpack(std::uint64_t d) {
    Entry e;
    e.win = (d >> 1) & 1u;
    e.move = static_cast<Vertex>(d >> 2);
    e.plies = static_cast<std::uint32_t>((d >> 34) & 0xFFFF);
    e.work = static_cast<std::uint32_t>((d >> 50) & 0xFF);
    return e;
  }
};

std::uint32_t log2_of(std::uint64_t x) {
  std::uint32_t r = 0;
  while (x >>= 1) ++r;
  return r;
}

// The transposition table: buckets of two entries (one kept by the work its proof took, one
// always replaced), shared by the threads without locks: each slot stores key ^ data beside
// data, so that a slot torn by two writers reads as a miss.
class Table {
 public:
  explicit Table(std::size_t bytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    buckets_ = std::vector<Bucket>(buckets);
    mask_ = buckets - 1;
  }
  bool probe(std::uint64_t key, Entry& e) const {
    const Bucket& b = buckets_[key & mask_];
    for (const Slot& s : b.slots) {
      const std::uint64_t d = s.data.load(std::memory_order_relaxed);
      if ((s.check.load(std::memory_order_relaxed) ^ d) == key && (d & 1u)) {
        e = Entry::unpack(d);
        return true;
      }
    }
    return false;
  }
  void store(std::uint64_t key, const Entry& e) {
    Bucket& b = buckets_[key & mask_];
    const std::uint64_t d = e.pack();
    Slot& deep = b.slots[0];
    const std::uint64_t old = deep.data.load(std::memory_order_relaxed);
    const bool same = (deep.check.load(std::memory_order_relaxed) ^ old) == key;
    Slot& s = same || !(old & 1u) || Entry::unpack(old).work <= e.work ? deep : b.slots[1];
    s.data.store(d, std::memory_order_relaxed);
    s.check.store(key ^ d, std::memory_order_relaxed);
  }
  void clear() {
    for (Bucket& b : buckets_) {
      for (Slot& s : b.slots) s.data = 0, s.check = 0;
    }
  }

 private:
  struct Slot {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct Bucket {
    Slot slots[2];
  };
  std::vector<Bucket> buckets_;
  std::size_t mask_ = 0;
};

// The board's symmetries and the Zobrist keys, for one topology.
struct Keys {
  std::vector<std::vector<Vertex>> perms, inverse;
  std::vector<std::uint64_t> stone;  // [v * 2 + colour - 1]
  std::uint64_t white_to_move = 0;

  Keys(const Topology& topo, bool symmetry) {
    perms = board_symmetries(topo, symmetry ? 48 : 1);
    for (const auto& p : perms) {
      std::vector<Vertex> inv(p.size());
      for (Vertex v = 0; v < p.size(); ++v) inv[p[v]] = v;
      inverse.push_back(std::move(inv));
    }
    std::uint64_t state = 0x7A4B0C0DE5ull;
    stone.resize(2 * std::size_t{topo.num_vertices()});
    for (auto& k : stone) k = splitmix(state);
    white_to_move = splitmix(state);
  }
};

// Shared by the threads of one solve.
struct Shared {
  Shared(Table& t, const Keys& k, const SolveLimits& l, const SolverOptions& o)
      : table(t), keys(k), limits(l), options(o), start(Clock::now()), last_progress(start) {}
  Table& table;
  const Keys& keys;
  const SolveLimits& limits;
  const SolverOptions& options;
  Clock::time_point start;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> nodes{0};
  std::atomic<std::size_t> next_move{0};
  std::atomic<std::size_t> moves_done{0};
  std::size_t moves_total = 0;
  Clock::time_point last_progress;  // when progress was last reported
  std::mutex progress_mu;
};

enum class Value : std::int8_t { kLoss = 0, kWin = 1, kUnknown = 2 };

struct Outcome {
  Value value = Value::kUnknown;
  std::uint32_t plies = 0;
};

// One thread's search: its own copy of the position, the hashes of every symmetric image of
// the stones, and its move lists.
class Searcher {
 public:
  Searcher(const Position& pos, Shared& shared) : pos_(pos), sh_(shared) {
    pos_.clear_history();
    pos_.set_recording(true);
    const std::size_t s = sh_.keys.perms.size();
    hashes_.assign(s, 0);
    board_.assign(pos_.num_vertices(), kEmpty);
    for (Vertex v = 0; v < pos_.num_vertices(); ++v) {
      if (pos_.at(v) != kEmpty) toggle(v, pos_.at(v));
      board_[v] = pos_.at(v);
    }
    history_.assign(2 * std::size_t{pos_.num_vertices()}, 0);
  }

  const Position& position() const { return pos_; }
  std::uint64_t local_nodes() const { return nodes_; }

  // Plays v and keeps the hashes.
  void play(Vertex v) {
    saved_.insert(saved_.end(), hashes_.begin(), hashes_.end());
    const Player me = pos_.to_move();
    const MoveRecord& rec = pos_.play(v);
    if (rec.stones_removed == 0) {
      toggle(v, me);
      board_[v] = me;
    } else {
      for (Vertex u = 0; u < pos_.num_vertices(); ++u) {
        const Player now = pos_.at(u);
        if (now == board_[u]) continue;
        if (board_[u] != kEmpty) toggle(u, board_[u]);
        if (now != kEmpty) toggle(u, now);
        board_[u] = now;
      }
    }
  }
  void undo() {
    const MoveRecord rec = pos_.last_move();
    pos_.undo();
    const std::size_t s = hashes_.size();
    std::copy(saved_.end() - static_cast<std::ptrdiff_t>(s), saved_.end(), hashes_.begin());
    saved_.resize(saved_.size() - s);
    if (rec.stones_removed == 0) {
      board_[rec.vertex] = kEmpty;
    } else {
      for (Vertex u = 0; u < pos_.num_vertices(); ++u) board_[u] = pos_.at(u);
    }
  }

  // The canonical key of the position and the symmetry that gives it.
  std::uint64_t key(std::size_t& sym) const {
    sym = 0;
    for (std::size_t s = 1; s < hashes_.size(); ++s) {
      if (hashes_[s] < hashes_[sym]) sym = s;
    }
    return hashes_[sym] ^ (pos_.to_move() == kWhite ? sh_.keys.white_to_move : 0);
  }

  // Proves the position for the side to move (the game is not over).
  Outcome search(std::size_t ply) {
    if (!count_node()) return {};
    std::size_t sym = 0;
    const std::uint64_t k = key(sym);
    Entry e;
    if (sh_.table.probe(k, e)) return {e.win ? Value::kWin : Value::kLoss, e.plies};
    const std::uint64_t before = nodes_;
    const Player me = pos_.to_move();
    std::vector<Vertex>& moves = moves_at(ply);
    moves.clear();
    const std::uint32_t count = pos_.legal_count(me);
    for (std::uint32_t i = 0; i < count; ++i) moves.push_back(pos_.legal_move(me, i));
    for (Vertex v : moves) {
      if (move_wins_at_once(pos_, me, v)) {
        sh_.table.store(k, Entry{true, sh_.keys.perms[sym][v], 1, 0});
        return {Value::kWin, 1};
      }
    }
    order(moves, me, kNoVertex);  // (entries are proofs: a position in the table is done)
    std::uint32_t longest = 0;
    Vertex longest_move = moves.front();
    for (Vertex v : moves) {
      const Outcome child = child_outcome(v, me, ply);
      if (child.value == Value::kUnknown) return {};
      if (child.value == Value::kLoss) {
        history_[history_index(me, v)] += 1 + static_cast<std::uint32_t>(ply < 64 ? 64 - ply : 0);
        store(k, sym, true, v, child.plies + 1, before);
        return {Value::kWin, child.plies + 1};
      }
      if (child.plies + 1 > longest) longest = child.plies + 1, longest_move = v;
    }
    store(k, sym, false, longest_move, longest, before);
    return {Value::kLoss, longest};
  }

  // The outcome for the side to move after `me` plays v: a win of `me` when the move ends the
  // game in its favour reads as the opponent's loss.
  Outcome child_outcome(Vertex v, Player me, std::size_t ply) {
    play(v);
    Outcome child;
    if (pos_.is_over()) {
      child = {pos_.winner() == me ? Value::kLoss : Value::kWin, 0};
    } else {
      child = search(ply + 1);
    }
    undo();
    return child;
  }

  // Orders moves best first: `first` (if legal), moves that bound another root without
  // bounding their own, then by the history heuristic; self-bounding moves last.
  void order(std::vector<Vertex>& moves, Player me, Vertex first) {
    scored_.clear();
    for (Vertex v : moves) {
      std::int64_t s = history_[history_index(me, v)];
      const std::uint32_t space = pos_.joined_space_after(me, v);
      if (space == 0) {
        s -= std::int64_t{1} << 40;
      } else if (pos_.others_bounded(me, v) > 0) {
        s += std::int64_t{1} << 36;
      }
      if (v == first) s += std::int64_t{1} << 44;
      scored_.push_back({s, v});
    }
    std::stable_sort(scored_.begin(), scored_.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; i < moves.size(); ++i) moves[i] = scored_[i].second;
  }

  // The root's legal moves, ordered (the root's table move first).
  std::vector<Vertex> root_moves() {
    std::size_t sym = 0;
    const std::uint64_t k = key(sym);
    Entry e;
    Vertex first = kNoVertex;
    if (sh_.table.probe(k, e) && e.move < pos_.num_vertices())
      first = sh_.keys.inverse[sym][e.move];
    std::vector<Vertex> moves = pos_.legal_moves(pos_.to_move());
    order(moves, pos_.to_move(), first);
    return moves;
  }

  void store_root(bool win, Vertex best, std::uint32_t plies) {
    std::size_t sym = 0;
    const std::uint64_t k = key(sym);
    store(k, sym, win, best, plies, 0);
  }

  // Counts a node; every 1,024 checks the limits (and reports progress). False: stop.
  bool count_node() {
    ++nodes_;
    if ((nodes_ & 1023) != 0) return !sh_.stop.load(std::memory_order_relaxed);
    const std::uint64_t total = sh_.nodes.fetch_add(1024, std::memory_order_relaxed) + 1024;
    if (sh_.stop.load(std::memory_order_relaxed)) return false;
    const SolveLimits& lim = sh_.limits;
    const auto now = Clock::now();
    const double secs = std::chrono::duration<double>(now - sh_.start).count();
    if ((lim.nodes && total >= lim.nodes) || (lim.seconds > 0 && secs >= lim.seconds) ||
        (lim.stop && lim.stop->load(std::memory_order_relaxed))) {
      sh_.stop = true;
      return false;
    }
    report(now, total, secs);
    return true;
  }

 private:
  void report(Clock::time_point now, std::uint64_t total, double secs) {
    const SolverOptions& o = sh_.options;
    if (!o.progress || o.progress_every <= 0) return;
    std::unique_lock<std::mutex> lock(sh_.progress_mu, std::try_to_lock);
    if (!lock.owns_lock()) return;
    if (std::chrono::duration<double>(now - sh_.last_progress).count() < o.progress_every) return;
    sh_.last_progress = now;
    o.progress(SolveProgress{total, secs, sh_.moves_done.load(), sh_.moves_total});
  }

  void toggle(Vertex v, Player c) {
    const auto& perms = sh_.keys.perms;
    const std::uint64_t* stone = sh_.keys.stone.data() + (c - 1);
    for (std::size_t s = 0; s < perms.size(); ++s)
      hashes_[s] ^= stone[2 * std::size_t{perms[s][v]}];
  }
  std::size_t history_index(Player p, Vertex v) const {
    return 2 * std::size_t{v} + (p == kWhite ? 1 : 0);
  }
  std::vector<Vertex>& moves_at(std::size_t ply) {
    if (lists_.size() <= ply) lists_.resize(ply + 1);
    return lists_[ply];
  }
  void store(std::uint64_t k, std::size_t sym, bool win, Vertex best, std::uint32_t plies,
             std::uint64_t before) {
    sh_.table.store(k, Entry{win, sh_.keys.perms[sym][best], plies, log2_of(nodes_ - before + 1)});
  }

  Position pos_;
  Shared& sh_;
  std::vector<std::uint64_t> hashes_, saved_;
  std::vector<Player> board_;
  std::vector<std::vector<Vertex>> lists_;
  std::vector<std::uint32_t> history_;
  std::vector<std::pair<std::int64_t, Vertex>> scored_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

struct Solver::Impl {
  SolverOptions options;
  Table table;
  TopologyPtr topology;  // the board the keys are for
  std::unique_ptr<Keys> keys;

  explicit Impl(SolverOptions o) : options(std::move(o)), table(options.table_bytes) {}

  void ready_for(const Position& pos) {
    if (topology == pos.topology_ptr() && keys) return;
    topology = pos.topology_ptr();
    keys = std::make_unique<Keys>(pos.topology(), options.symmetry);
    table.clear();
  }

  SolveResult solve(const Position& pos, const SolveLimits& limits);
};

namespace {

// One root move's outcome, for the side to move at the root.
struct RootResult {
  Vertex move = kNoVertex;
  Outcome outcome;  // for the side to move at the root (kWin: the move wins)
  bool done = false;
};

// A thread's share of the root: takes the next unproven root move until none is left or the
// search stops (the first winning move stops it unless every move is asked for).
void root_worker(Searcher& searcher, Shared& sh, std::vector<RootResult>& results) {
  const Player me = searcher.position().to_move();
  for (;;) {
    const std::size_t i = sh.next_move.fetch_add(1);
    if (i >= results.size() || sh.stop.load()) return;
    RootResult& r = results[i];
    const Outcome child = searcher.child_outcome(r.move, me, 1);
    if (child.value == Value::kUnknown) return;
    r.outcome = {child.value == Value::kLoss ? Value::kWin : Value::kLoss, child.plies + 1};
    r.done = true;
    sh.moves_done.fetch_add(1);
    if (r.outcome.value == Value::kWin && !sh.options.all_moves) {
      sh.stop = true;
      return;
    }
  }
}

}  // namespace

SolveResult Solver::Impl::solve(const Position& pos, const SolveLimits& limits) {
  if (pos.num_players() != 2) {
    throw Error("the solver handles two-player games only; this game has " +
                std::to_string(pos.num_players()) + " players");
  }
  if (pos.is_over()) throw Error("the game is over: nothing to solve");
  ready_for(pos);
  Shared sh(table, *keys, limits, options);
  const int threads = std::max(1, options.threads);
  std::vector<std::unique_ptr<Searcher>> searchers;
  for (int t = 0; t < threads; ++t) searchers.push_back(std::make_unique<Searcher>(pos, sh));

  SolveResult result;
  result.symmetries = keys->perms.size();
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
    if (threads == 1) {
      root_worker(*searchers[0], sh, open);
    } else {
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] { root_worker(*searchers[t], sh, open); });
      }
      for (auto& th : pool) th.join();
    }
    roots = std::move(proven);
    roots.insert(roots.end(), open.begin(), open.end());
  }

  for (const auto& s : searchers) result.nodes += s->local_nodes();
  result.seconds = std::chrono::duration<double>(Clock::now() - sh.start).count();
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
  if (result.solved) searchers[0]->store_root(result.winner == me, result.best, result.plies);
  return result;
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

}  // namespace tanbo
