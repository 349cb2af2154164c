// Alpha-beta on won/lost values for the exact solver (see solver.hpp): a depth-first search
// that takes the first winning move, on a stack of frames of its own rather than the call
// stack, so that a game of any length (a path of a million points is a game of a million
// plies) is searched without overflowing the thread's stack.
#include <algorithm>
#include <cstdint>

#include "solver_internal.hpp"

namespace tanbo::solver_detail {

bool Searcher::open_ab(Outcome& out) {
  out = {};
  if (!count_node()) return false;
  std::size_t sym = 0;
  const Key k = key(sym);
  Entry e;
  if (sh_.table.probe(k, e) && e.proven) {
    out = {e.win ? Value::kWin : Value::kLoss, e.plies};
    return false;
  }
  const std::uint64_t before = nodes_;
  const Player me = pos_.to_move();
  const std::size_t begin = moves_.size();
  if (const Vertex v = winning_move_at_once(pos_, me); v != kNoVertex) {
    store(k, sym, true, v, 1, before);
    out = {Value::kWin, 1};
    return false;
  }
  const std::uint32_t count = pos_.legal_count(me);
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!tick(1)) {
      moves_.resize(begin);
      return false;
    }
    moves_.push_back(pos_.legal_move(me, i));
  }
  // (entries are proofs: a position in the table is done, so it has no move to try first)
  if (!order(std::span<Vertex>(moves_).subspan(begin), me, kNoVertex)) {
    moves_.resize(begin);
    return false;
  }
  ab_.push_back({k, sym, before, begin, moves_.size(), begin, 0, moves_[begin], me});
  return true;
}

void Searcher::unwind_ab(std::size_t base) {
  // The bottom frame's position was played by the caller; each frame above it by a move here.
  for (std::size_t i = ab_.size(); i > base + 1; --i) undo();
  moves_.resize(ab_[base].begin);
  ab_.resize(base);
}

Outcome Searcher::search(std::size_t ply) {
  const std::size_t base = ab_.size();
  Outcome r;
  if (!open_ab(r)) return r;
  bool have = false;  // r holds the outcome of the top frame's last move tried
  for (;;) {
    AbFrame& f = ab_.back();
    bool done = false;
    if (have) {
      have = false;
      const Vertex v = moves_[f.next - 1];
      if (r.value == Value::kUnknown) {
        unwind_ab(base);
        return {};
      }
      if (r.value == Value::kLoss) {
        const std::size_t depth = ply + (ab_.size() - 1 - base);
        history_[history_index(f.me, v)] +=
            1 + static_cast<std::uint32_t>(depth < 64 ? 64 - depth : 0);
        store(f.key, f.sym, true, v, r.plies + 1, f.before);
        r = {Value::kWin, r.plies + 1};
        done = true;
      } else if (r.plies + 1 > f.longest) {
        f.longest = r.plies + 1, f.longest_move = v;
      }
    }
    if (!done && f.next < f.end) {
      const Player me = f.me;
      play(moves_[f.next++]);
      if (pos_.is_over()) {
        r = {pos_.winner() == me ? Value::kLoss : Value::kWin, 0};
      } else if (open_ab(r)) {
        continue;  // (f is no longer the top frame)
      }
      undo();
      have = true;
      continue;
    }
    if (!done) {  // every move loses: the longest resistance
      store(f.key, f.sym, false, f.longest_move, f.longest, f.before);
      r = {Value::kLoss, f.longest};
    }
    moves_.resize(f.begin);
    ab_.pop_back();
    if (ab_.size() == base) return r;
    undo();
    have = true;
  }
}

Outcome Searcher::child_outcome(Vertex v, Player me, std::size_t ply) {
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

bool Searcher::order(std::span<Vertex> moves, Player me, Vertex first) {
  scored_.clear();
  for (Vertex v : moves) {
    if (!tick(1)) return false;
    std::int64_t s = history_[history_index(me, v)];
    const int urgency = move_urgency(me, v);
    if (urgency < 0) {
      s -= std::int64_t{1} << 40;
    } else if (urgency > 0) {
      s += std::int64_t{1} << 36;
    }
    if (v == first) s += std::int64_t{1} << 44;
    scored_.push_back({s, v});
  }
  std::stable_sort(scored_.begin(), scored_.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < moves.size(); ++i) moves[i] = scored_[i].second;
  return true;
}

}  // namespace tanbo::solver_detail
