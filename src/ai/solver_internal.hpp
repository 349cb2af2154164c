// The solver's internals, shared by the alpha-beta search (solver.cpp) and the proof-number
// search (solver_pn.cpp): the transposition table, the Zobrist keys with the board's
// symmetries, and one thread's searcher.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/solver.hpp"

namespace tanbo::solver_detail {

using Clock = std::chrono::steady_clock;

inline std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// What the table knows of a position, packed in 64 bits: bit 0 set (an entry), bit 1 proven.
// A proof: bit 2 the side to move wins, bits 3-34 the best move in the canonical frame, bits
// 35-50 the plies to the end along the proof, bits 51-58 log2 of the nodes the proof took
// (for replacement). Not proven yet (proof-number search): bits 2-29 the proof number, bits
// 30-57 the disproof number, bits 58-63 log2 of the nodes.
inline constexpr std::uint32_t kInfinity = (1u << 28) - 1;  // a proof or disproof number: done
struct Entry {
  bool proven = true;
  bool win = false;
  Vertex move = kNoVertex;
  std::uint32_t plies = 0;
  std::uint32_t work = 0;
  std::uint32_t pn = 1, dn = 1;

  std::uint64_t pack() const {
    if (!proven) {
      return 1u | (std::uint64_t{std::min(pn, kInfinity)} << 2) |
             (std::uint64_t{std::min(dn, kInfinity)} << 30) |
             (std::uint64_t{std::min<std::uint32_t>(work, 63)} << 58);
    }
    return 3u | (std::uint64_t{win} << 2) | (std::uint64_t{move} << 3) |
           (std::uint64_t{std::min<std::uint32_t>(plies, 0xFFFF)} << 35) |
           (std::uint64_t{std::min<std::uint32_t>(work, 0xFF)} << 51);
  }
  static Entry unpack(std::uint64_t d) {
    Entry e;
    e.proven = (d >> 1) & 1u;
    if (!e.proven) {
      e.pn = static_cast<std::uint32_t>((d >> 2) & kInfinity);
      e.dn = static_cast<std::uint32_t>((d >> 30) & kInfinity);
      e.work = static_cast<std::uint32_t>(d >> 58);
      return e;
    }
    e.win = (d >> 2) & 1u;
    e.move = static_cast<Vertex>(d >> 3);
    e.plies = static_cast<std::uint32_t>((d >> 35) & 0xFFFF);
    e.work = static_cast<std::uint32_t>((d >> 51) & 0xFF);
    return e;
  }
};

inline std::uint32_t log2_of(std::uint64_t x) {
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
    const Entry was = Entry::unpack(old);
    const bool keep = (old & 1u) && !same && (was.work > e.work || (was.proven && !e.proven));
    Slot& s = keep ? b.slots[1] : deep;
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
    if (sh_.table.probe(k, e) && e.proven) return {e.win ? Value::kWin : Value::kLoss, e.plies};
    const std::uint64_t before = nodes_;
    const Player me = pos_.to_move();
    std::vector<Vertex>& moves = moves_at(ply);
    moves.clear();
    const std::uint32_t count = pos_.legal_count(me);
    for (std::uint32_t i = 0; i < count; ++i) moves.push_back(pos_.legal_move(me, i));
    for (Vertex v : moves) {
      if (move_wins_at_once(pos_, me, v)) {
        store(k, sym, true, v, 1, nodes_);
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
    if (sh_.table.probe(k, e) && e.proven && e.move < pos_.num_vertices())
      first = sh_.keys.inverse[sym][e.move];
    std::vector<Vertex> moves = pos_.legal_moves(pos_.to_move());
    order(moves, pos_.to_move(), first);
    return moves;
  }

  // Proof-number search (solver_pn.cpp): the numbers of the position for the side to move,
  // searched until it is proven or its numbers reach the thresholds.
  struct Numbers {
    std::uint32_t pn = 1, dn = 1, plies = 0;
    bool aborted = false;
  };
  Numbers prove(std::uint32_t thpn, std::uint32_t thdn, std::size_t ply);
  // The outcome for the side to move after `me` plays v, proven by proof-number search.
  Outcome child_outcome_pn(Vertex v, Player me, std::size_t ply);

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
  struct Child {
    Vertex move;
    std::uint32_t pn, dn;  // for the side to move after the move
    std::uint32_t plies;   // when proven
  };
  Child child_numbers(Vertex v, Player me);
  std::vector<Child>& children_at(std::size_t ply) {
    if (kids_.size() <= ply) kids_.resize(ply + 1);
    return kids_[ply];
  }
  std::vector<Vertex>& moves_at(std::size_t ply) {
    if (lists_.size() <= ply) lists_.resize(ply + 1);
    return lists_[ply];
  }
  void store(std::uint64_t k, std::size_t sym, bool win, Vertex best, std::uint32_t plies,
             std::uint64_t before) {
    Entry e;
    e.win = win;
    e.move = sh_.keys.perms[sym][best];
    e.plies = plies;
    e.work = log2_of(nodes_ - before + 1);
    sh_.table.store(k, e);
  }
  void store_numbers(std::uint64_t k, std::uint32_t pn, std::uint32_t dn, std::uint64_t before) {
    Entry e;
    e.proven = false;
    e.pn = pn;
    e.dn = dn;
    e.work = log2_of(nodes_ - before + 1);
    sh_.table.store(k, e);
  }

  Position pos_;
  Shared& sh_;
  std::vector<std::uint64_t> hashes_, saved_;
  std::vector<Player> board_;
  // Per ply (deques: a deeper ply added never moves the lists of the plies above).
  std::deque<std::vector<Vertex>> lists_;
  std::deque<std::vector<Child>> kids_;
  std::vector<std::uint32_t> history_;
  std::vector<std::pair<std::int64_t, Vertex>> scored_;
  std::uint64_t nodes_ = 0;
};

}  // namespace tanbo::solver_detail
