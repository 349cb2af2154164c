// Depth-first proof-number search (df-pn) for the exact solver, in negamax form: for the side
// to move, the proof number is the least of its children's disproof numbers and the disproof
// number the sum of their proof numbers. Unproven numbers are kept in the transposition table
// beside the proofs. Children start from their own mobility (proof number 1, disproof number
// the number of moves of their side to move), and a child is searched until its numbers pass
// thresholds with the 1 + epsilon trick (Pawlewicz and Lew), which keeps the search from
// switching back and forth between two children. Tanbo's game graph has no cycles, so the
// table needs no care for repetitions.
#include <algorithm>
#include <cstdint>

#include "solver_internal.hpp"

namespace tanbo::solver_detail {

namespace {

std::uint32_t saturate(std::uint64_t x) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(x, kInfinity - 1));
}

}  // namespace

Searcher::Child Searcher::child_numbers(Vertex v, Player me) {
  Child c{v, 1, 1, 0};
  play(v);
  if (pos_.is_over()) {
    // The game ended: the side to move after the move (if any) has lost or won for good.
    const bool mover_won = pos_.winner() == me;
    c.pn = mover_won ? kInfinity : 0;
    c.dn = mover_won ? 0 : kInfinity;
  } else {
    std::size_t sym = 0;
    const std::uint64_t k = key(sym);
    Entry e;
    if (sh_.table.probe(k, e)) {
      if (e.proven) {
        c.pn = e.win ? 0 : kInfinity;
        c.dn = e.win ? kInfinity : 0;
        c.plies = e.plies;
      } else {
        c.pn = std::max<std::uint32_t>(e.pn, 1);
        c.dn = std::max<std::uint32_t>(e.dn, 1);
      }
    } else {
      c.dn = std::max<std::uint32_t>(pos_.legal_count(pos_.to_move()), 1);
    }
  }
  undo();
  return c;
}

Searcher::Numbers Searcher::prove(std::uint32_t thpn, std::uint32_t thdn, std::size_t ply) {
  Numbers out;
  if (!count_node()) {
    out.aborted = true;
    return out;
  }
  const std::uint64_t before = nodes_;
  std::size_t sym = 0;
  const std::uint64_t k = key(sym);
  const Player me = pos_.to_move();
  // A move that ends the game at once: proven without looking further.
  const std::uint32_t count = pos_.legal_count(me);
  for (std::uint32_t i = 0; i < count; ++i) {
    const Vertex v = pos_.legal_move(me, i);
    if (move_wins_at_once(pos_, me, v)) {
      store(k, sym, true, v, 1, before);
      return {0, kInfinity, 1, false};
    }
  }
  std::vector<Child>& kids = children_at(ply);
  kids.clear();
  for (std::uint32_t i = 0; i < count; ++i)
    kids.push_back(child_numbers(pos_.legal_move(me, i), me));

  for (;;) {
    // The position's numbers from its children's, and the child to search next.
    std::uint32_t pn = kInfinity, second = kInfinity;
    std::uint64_t dn = 0;
    std::size_t best = 0;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const Child& c = kids[i];
      dn += c.pn;
      if (c.dn < pn) {
        second = pn;
        pn = c.dn, best = i;
      } else if (c.dn < second) {
        second = c.dn;
      }
    }
    if (pn == 0) {  // a child proven lost for its side to move: a win, the shortest found
      std::size_t win = best;
      for (std::size_t i = 0; i < kids.size(); ++i) {
        if (kids[i].dn == 0 && kids[i].plies < kids[win].plies) win = i;
      }
      store(k, sym, true, kids[win].move, kids[win].plies + 1, before);
      return {0, kInfinity, kids[win].plies + 1, false};
    }
    if (dn == 0) {  // every child proven won for its side to move: a loss, the longest
      std::size_t longest = 0;
      for (std::size_t i = 0; i < kids.size(); ++i) {
        if (kids[i].plies > kids[longest].plies) longest = i;
      }
      store(k, sym, false, kids[longest].move, kids[longest].plies + 1, before);
      return {kInfinity, 0, kids[longest].plies + 1, false};
    }
    const std::uint32_t sum = saturate(dn);
    if (pn >= thpn || sum >= thdn) {
      store_numbers(k, pn, sum, before);
      return {pn, sum, 0, false};
    }
    // Thresholds of the child: its proof number may grow until this position's disproof
    // number reaches thdn; its disproof number until it passes the second best child's (times
    // 1.25) or this position's proof threshold.
    Child& c = kids[best];
    const std::uint32_t child_thpn =
        thdn >= kInfinity ? kInfinity : saturate(std::uint64_t{thdn} - sum + c.pn);
    const std::uint64_t widened = second >= kInfinity ? kInfinity : second + second / 4 + 1;
    const std::uint32_t child_thdn =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(thpn, widened));
    play(c.move);
    Numbers r;
    if (pos_.is_over()) {  // (children that end the game are proven from the start)
      r = {c.pn, c.dn, 0, false};
    } else {
      r = prove(child_thpn, child_thdn, ply + 1);
    }
    undo();
    if (r.aborted) {
      out.aborted = true;
      return out;
    }
    c.pn = r.pn;  // (the lists are kept in a deque: `c` is still valid)
    c.dn = r.dn;
    c.plies = r.plies;
  }
}

Outcome Searcher::child_outcome_pn(Vertex v, Player me, std::size_t ply) {
  play(v);
  Outcome child;
  if (pos_.is_over()) {
    child = {pos_.winner() == me ? Value::kLoss : Value::kWin, 0};
  } else {
    const Numbers r = prove(kInfinity, kInfinity, ply + 1);
    if (!r.aborted) child = {r.pn == 0 ? Value::kWin : Value::kLoss, r.plies};
  }
  undo();
  return child;
}

}  // namespace tanbo::solver_detail
