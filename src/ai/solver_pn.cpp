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

Searcher::Child Searcher::child_start(Vertex v, Player me) {
  Child c{v, 1, 1, 0, {}, false};
  std::size_t sym = 0;
  // Most children are read without playing them. A move that removes nothing cannot end the
  // game, and its opponent cannot win at once while the mover keeps two roots or more, or one
  // with two points of space or more (one stone takes at most one root's last point: see
  // winning_move_at_once). The opponent's moves are then its moves now less v. Without the
  // play and undo (a third of a profile of 7x7 from the spaced start), the first 3,000,000
  // positions of 7x7 took 22% less CPU from the spaced start and 15% less from the 2026 start,
  // 4x4x4 17% and 3x13 19% less, the same nodes (docs/solved.md, "Speed").
  if (!pos_.removes_stones(me, v) &&
      (pos_.roots_alive(me) >= 2 || pos_.joined_space_after(me, v) >= 2)) {
    const Player next = pos_.next_player();
    c.key = key_after(v, me, next, sym);
    c.dn = std::max<std::uint32_t>(pos_.legal_count(next) - pos_.is_legal_point(next, v), 1);
    return c;
  }
  // Otherwise the move is played in pos_ alone: the key is read from the hashes without
  // changing them.
  c.removes = pos_.play(v).stones_removed != 0;
  if (pos_.is_over()) {
    // The game ended: the side to move after the move (if any) has lost or won for good.
    const bool mover_won = pos_.winner() == me;
    c.pn = mover_won ? kInfinity : 0;
    c.dn = mover_won ? 0 : kInfinity;
  } else if (winning_move_at_once(pos_, pos_.to_move()) != kNoVertex) {
    // The side to move after the move wins with its next stone.
    c.pn = 0;
    c.dn = kInfinity;
    c.plies = 1;
  } else {
    c.key = c.removes ? key_after_removal(sym) : key_after(v, me, pos_.to_move(), sym);
    c.dn = std::max<std::uint32_t>(pos_.legal_count(pos_.to_move()), 1);
  }
  pos_.undo();
  return c;
}

std::size_t Searcher::drop_transposed_children(std::size_t begin) {
  // Two moves can lead to one position only when both remove stones (a move that removes
  // nothing adds its stone to the position's, a different point for each move), or as mirror
  // images: then both positions are images of the position's own stones plus one, which
  // (outside rare cases, merely missed here) means that the position is symmetric itself.
  const bool symmetric = position_symmetric();
  keyed_.clear();
  for (std::size_t i = begin; i < kids_.size(); ++i) {
    if (!kids_[i].key.none() && (symmetric || kids_[i].removes))
      keyed_.emplace_back(kids_[i].key, i);
  }
  if (keyed_.size() < 2) return kids_.size();
  std::sort(keyed_.begin(), keyed_.end());
  bool any = false;
  for (std::size_t j = 1; j < keyed_.size(); ++j) {
    if (keyed_[j].first == keyed_[j - 1].first) {
      kids_[keyed_[j].second].move = kNoVertex;  // (a mark: dropped)
      any = true;
    }
  }
  if (!any) return kids_.size();
  const auto kept = std::remove_if(kids_.begin() + static_cast<std::ptrdiff_t>(begin), kids_.end(),
                                   [](const Child& c) { return c.move == kNoVertex; });
  kids_.erase(kept, kids_.end());
  return kids_.size();
}

bool Searcher::open_pn(std::uint32_t thpn, std::uint32_t thdn, Numbers& out) {
  out = {};
  if (!count_node()) {
    out.aborted = true;
    return false;
  }
  const std::uint64_t before = nodes_;
  std::size_t sym = 0;
  const Key k = key(sym);
  const Player me = pos_.to_move();
  // A move that ends the game at once: proven without looking further.
  const std::uint32_t count = pos_.legal_count(me);
  if (const Vertex v = winning_move_at_once(pos_, me); v != kNoVertex) {
    store(k, sym, true, v, 1, before);
    out = {0, kInfinity, 1, false};
    return false;
  }
  const std::size_t begin = kids_.size();
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!tick(4)) {
      kids_.resize(begin);
      out.aborted = true;
      return false;
    }
    kids_.push_back(child_start(pos_.legal_move(me, i), me));
  }
  // The children's entries are fetched all at once, once every key is known: in a table of
  // gigabytes a fetch waits first for the address's translation (a walk of the page tables, slow
  // in a virtual machine), and a prefetch after each child's play held the search up at each
  // walk in turn (half of the time on 7x7). Back to back, the walks and fetches overlap: 27%
  // less CPU for the first 3 million positions of 7x7 from the 2026 start (4 GB table), 4 to 10%
  // on 5x5, 5x6 and 4x8 (1 GB), the same nodes (docs/solved.md, "Speed").
  for (std::size_t i = begin; i < kids_.size(); ++i) {
    if (!kids_[i].key.none()) sh_.table.prefetch(kids_[i].key);
  }
  // The table's word on each child, read once all its entries are on their way from memory.
  for (std::size_t i = begin; i < kids_.size(); ++i) {
    if (!kids_[i].key.none()) reread(kids_[i]);
  }
  pn_.push_back({k, sym, before, thpn, thdn, begin, drop_transposed_children(begin), begin});
  mark_top();
  return true;
}

bool Searcher::step_pn(Numbers& out, std::uint32_t& child_thpn, std::uint32_t& child_thdn) {
  PnFrame& f = pn_.back();
  // The position's numbers from its children's, and the child to search next: the least
  // disproof number (best, and the second least). With threads sharing the tree a child that
  // others are in is read again from the table (they may have moved it on) and counts twice
  // its disproof number plus one (busy_best, busy_second), if that leaves a child within this
  // position's threshold.
  std::uint32_t pn = kInfinity, second = kInfinity;
  std::uint32_t busy_rank = kInfinity, busy_second = kInfinity;
  std::uint64_t dn = 0;
  std::size_t best = f.begin, busy_best = f.begin;
  const bool shared = sh_.busy && sh_.helping.load(std::memory_order_relaxed);
  for (std::size_t i = f.begin; i < f.end; ++i) {
    Child& c = kids_[i];
    const bool others_in = shared && c.pn != 0 && c.dn != 0 && !c.key.none() &&
                           sh_.busy_slot(c.key).load(std::memory_order_relaxed) != 0;
    if (others_in) reread(c);
    dn += c.pn;
    if (c.dn < pn) {
      second = pn;
      pn = c.dn, best = i;
    } else if (c.dn < second) {
      second = c.dn;
    }
    if (!shared) continue;
    const std::uint32_t rank = others_in ? saturate(2 * std::uint64_t{c.dn} + 1) : c.dn;
    if (rank < busy_rank) {
      busy_second = busy_rank;
      busy_rank = rank, busy_best = i;
    } else if (rank < busy_second) {
      busy_second = rank;
    }
  }
  if (shared && busy_best != best && kids_[busy_best].dn < f.thpn) {
    best = busy_best;
    second = busy_second;
  }
  const std::uint32_t sum = saturate(dn);
  if (report_ && pn_.size() == 1) show_numbers(pn, sum);  // (the root move's position)
  if (pn == 0) {  // a child proven lost for its side to move: a win, the shortest found
    std::size_t win = best;
    for (std::size_t i = f.begin; i < f.end; ++i) {
      if (kids_[i].dn == 0 && kids_[i].plies < kids_[win].plies) win = i;
    }
    store(f.key, f.sym, true, kids_[win].move, kids_[win].plies + 1, f.before);
    out = {0, kInfinity, kids_[win].plies + 1, false};
  } else if (dn == 0) {  // every child proven won for its side to move: a loss, the longest
    std::size_t longest = f.begin;
    for (std::size_t i = f.begin; i < f.end; ++i) {
      if (kids_[i].plies > kids_[longest].plies) longest = i;
    }
    store(f.key, f.sym, false, kids_[longest].move, kids_[longest].plies + 1, f.before);
    out = {kInfinity, 0, kids_[longest].plies + 1, false};
  } else if (pn >= f.thpn || sum >= f.thdn) {
    store_numbers(f.key, pn, sum, f.before);
    out = {pn, sum, 0, false};
  } else {
    // Thresholds of the child: its proof number may grow until this position's disproof
    // number reaches thdn; its disproof number until it passes the second best child's (times
    // 1 + epsilon) or this position's proof threshold. Epsilon 1/2, measured against 1/8, 1/4,
    // 3/4 and 1 on eight boards: the fewest nodes on the two largest (6x6 81,987,588 against
    // 90,572,755 with 1/4; 5x5 from the 2026 start 2,223,123 against 2,533,706), and on the
    // other six at most 1% above 1/4 (4x6 21% below). docs/solved.md has the figures.
    const Child& c = kids_[best];
    child_thpn = f.thdn >= kInfinity ? kInfinity : saturate(std::uint64_t{f.thdn} - sum + c.pn);
    const std::uint64_t widened = second >= kInfinity ? kInfinity : second + second / 2 + 1;
    child_thdn = static_cast<std::uint32_t>(std::min<std::uint64_t>(f.thpn, widened));
    f.best = best;
    return false;
  }
  unmark(f);
  kids_.resize(f.begin);
  pn_.pop_back();
  return true;
}

void Searcher::show_path_numbers() {
  if (pn_.empty()) return;
  // The numbers of the frame above (the child being searched): none above the top frame.
  bool above = false;
  std::uint32_t above_pn = 0, above_dn = 0;
  for (std::size_t d = pn_.size(); d-- > 0;) {
    const PnFrame& f = pn_[d];
    std::uint32_t pn = kInfinity;
    std::uint64_t dn = 0;
    for (std::size_t i = f.begin; i < f.end; ++i) {
      const bool searched = above && i == f.best;
      const std::uint32_t child_pn = searched ? above_pn : kids_[i].pn;
      const std::uint32_t child_dn = searched ? above_dn : kids_[i].dn;
      dn += child_pn;
      pn = std::min(pn, child_dn);
    }
    above = true;
    above_pn = pn;
    above_dn = saturate(dn);
  }
  show_numbers(above_pn, above_dn);
}

bool Searcher::reread(Child& c) const {
  Entry e;
  if (!sh_.table.probe(c.key, e)) return false;
  if (e.proven) {
    c.pn = e.win ? 0 : kInfinity;
    c.dn = e.win ? kInfinity : 0;
    c.plies = e.plies;
  } else {
    c.pn = std::max<std::uint32_t>(e.pn, 1);
    c.dn = std::max<std::uint32_t>(e.dn, 1);
  }
  return true;
}

void Searcher::unwind_pn(std::size_t base) {
  // The bottom frame's position was played by the caller; each frame above it by a move here.
  for (std::size_t i = pn_.size(); i > base + 1; --i) undo();
  for (std::size_t i = base; i < pn_.size(); ++i) unmark(pn_[i]);
  kids_.resize(pn_[base].begin);
  pn_.resize(base);
}

Searcher::Numbers Searcher::prove(std::uint32_t thpn, std::uint32_t thdn) {
  const std::size_t base = pn_.size();
  Numbers r;
  if (!open_pn(thpn, thdn, r)) return r;
  for (;;) {
    std::uint32_t child_thpn = 0, child_thdn = 0;
    if (step_pn(r, child_thpn, child_thdn)) {
      if (pn_.size() == base) return r;
      undo();  // the move into the frame just left
    } else {
      const Child& c = kids_[pn_.back().best];
      play(c.move);
      if (pos_.is_over()) {  // (children that end the game are proven from the start)
        r = {c.pn, c.dn, 0, false};
      } else if (open_pn(child_thpn, child_thdn, r)) {
        continue;
      }
      undo();
      if (r.aborted) {
        unwind_pn(base);
        return r;
      }
    }
    Child& c = kids_[pn_.back().best];
    c.pn = r.pn;
    c.dn = r.dn;
    c.plies = r.plies;
  }
}

Outcome Searcher::child_outcome_pn(Vertex v, Player me) {
  play(v);
  Outcome child;
  if (pos_.is_over()) {
    child = {pos_.winner() == me ? Value::kLoss : Value::kWin, 0};
  } else {
    const Numbers r = prove(kInfinity, kInfinity);
    if (!r.aborted) child = {r.pn == 0 ? Value::kWin : Value::kLoss, r.plies};
  }
  undo();
  return child;
}

}  // namespace tanbo::solver_detail
