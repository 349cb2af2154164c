// The rules of Tanbo, written once over any point store (point_store.hpp).
//
//  - A move for player p is an empty point with exactly one neighbour of colour p; the stone
//    joins that neighbour's root (the expanded root).
//  - A root's root space: the empty points with exactly one neighbour of its colour, that
//    neighbour in it. A root with no root space is bounded.
//  - After a move: if the expanded root is bounded it alone is removed; otherwise every bounded
//    root, of any colour, is removed.
//  - A player with no stones is out; turns go round the players still in; the last one wins.
//
// Everything a move needs is kept per point and colour: the number of neighbours of that colour
// and the XOR of their roots (the root itself when there is one). A stone placed or removed
// changes its own point and its neighbours' slots of its colour, and from each slot's old value
// the rules know, without a branch, whether a point joins or leaves a root's space and a
// player's legal set (legal_set.hpp). So a move costs O(its degree + the degrees of the stones
// it removes), and undo is the same steps backwards.
//
// Rules<R, kC, kPlayers> is instantiated per store layout R, way of counting the legal sets
// kC and number of players (2, or 0 for any); the position keeps the entry points of its
// instance (RulesTable, chosen by rules_for when it is made), so that no branch on the layout
// runs in a move.
#pragma once

#include <bit>
#include <cstdint>

#include "point_store.hpp"
#include "position_core.hpp"
#include "tanbo/core/zobrist.hpp"

namespace tanbo::detail {

// ---------------------------------------------------------------- turn order

// The next player after `from` in cyclic order still in, without a branch on whose turn it was
// (with two players the turn alternates, which a simple branch predictor gets wrong every time).
inline Player player_after(const PositionCore& core, Player from) {
  unsigned p = from;
  do {
    const unsigned wrap = p == static_cast<unsigned>(core.players);
    p = ((p + 1) & (wrap - 1u)) | wrap;
  } while ((core.out_of_game >> (p - 1)) & 1u);
  return static_cast<Player>(p);
}

// The players out: those marked out (resigned) and those without stones.
inline std::uint8_t players_out(const PositionCore& core) {
  std::uint8_t out = core.out_of_game;
  for (int q = 0; q < core.players; ++q) {
    if (core.stones[q] == 0) out |= static_cast<std::uint8_t>(1u << q);
  }
  return out;
}

// After `from`'s turn: the next player moves, or the game ends with at most one player in.
// Players drop out only when stones were removed, so only then is out_of_game recomputed.
inline void advance_turn(PositionCore& core, Player from, bool removals) {
  if (removals) {
    core.out_of_game = players_out(core);
    const auto all = static_cast<std::uint8_t>((1u << core.players) - 1u);
    const auto in = static_cast<std::uint8_t>(all & ~core.out_of_game);
    if ((in & (in - 1)) == 0) {  // at most one player left
      core.to_move = kEmpty;
      core.winner =
          in ? static_cast<Player>(std::countr_zero(static_cast<unsigned>(in)) + 1) : kEmpty;
      return;
    }
  }
  core.to_move = player_after(core, from);
}

// ---------------------------------------------------------------- moves

template <PointStore R, LegalSets::Counting kC, int kPlayers>
class Rules {
 public:
  Rules(PositionCore& core, R& store) : core_(core), store_(store) {}

  // Plays v for the side to move (a legal move) and returns the turn's record.
  const MoveRecord& play(Vertex v) {
    const auto& board = store_.view();
    board.prefetch_point(v);  // big lattices: the point's and its neighbours' entries at once
    const Player p = core_.to_move;
    if (!core_.recording) forget_record();
    MoveRecord& rec = core_.history.emplace_back();
    rec.kind = MoveRecord::Kind::kPlace;
    rec.player = p;
    rec.vertex = v;
    rec.to_move_before = p;
    rec.out_before = core_.out_of_game;
    rec.removed_begin = rec.removed_end = static_cast<std::uint32_t>(core_.removed.size());

    // The stone joins the root of its one neighbour of colour p.
    const RootId e = board.slot(v, p).root;
    rec.expanded = e;
    Root& expanded = core_.roots[e];
    const Vertex next = expanded.head;
    expanded.head = v;
    ++expanded.size;
    ++core_.stones[p - 1];
    rec.prev_next = place(v, p, e, next);

    // Removals: the expanded root alone if the move bounded it, else every root it bounded.
    if (core_.roots.space(e) == 0) {
      rec.expanded_removed = true;
      rec.stones_removed = expanded.size;
      core_.removed.push_back(e);
      remove_root(e);
    } else {
      // A root other than the expanded one only loses space while the stone is placed, so it
      // is listed at most once; all are listed first, then removed (a removal gives others
      // space back).
      for (std::uint32_t z = 0; z < core_.spaceless_count; ++z) {
        const RootId r = core_.spaceless_roots[z];
        if (r != e && core_.roots.space(r) == 0) {
          rec.stones_removed += core_.roots[r].size;
          core_.removed.push_back(r);
        }
      }
      for (std::size_t i = rec.removed_begin; i < core_.removed.size(); ++i) {
        remove_root(core_.removed[i]);
      }
    }
    rec.removed_end = static_cast<std::uint32_t>(core_.removed.size());
    advance_turn(core_, p, rec.removed_end != rec.removed_begin);
    return rec;
  }

  // Player p (in the game) resigns: all its roots are removed; play goes on without it.
  const MoveRecord& resign(Player p) {
    if (!core_.recording) forget_record();
    MoveRecord rec;
    rec.kind = MoveRecord::Kind::kResign;
    rec.player = p;
    rec.to_move_before = core_.to_move;
    rec.out_before = core_.out_of_game;
    rec.removed_begin = static_cast<std::uint32_t>(core_.removed.size());
    for (RootId r = 0; r < core_.roots.count(); ++r) {
      if (core_.roots[r].alive && core_.roots[r].owner == p) {
        rec.stones_removed += core_.roots[r].size;
        core_.removed.push_back(r);
        remove_root(r);
      }
    }
    rec.removed_end = static_cast<std::uint32_t>(core_.removed.size());
    core_.out_of_game |= static_cast<std::uint8_t>(1u << (p - 1));
    core_.history.push_back(rec);
    // The turn passes on only when the resigning player was the one to move.
    const Player keep = core_.to_move;
    advance_turn(core_, p, true);
    if (p != keep && core_.to_move != kEmpty) core_.to_move = keep;
    return core_.history.back();
  }

  // Takes back the last turn (there is one): the removed roots come back, in reverse order of
  // removal, then the stone goes.
  void undo() {
    const auto& board = store_.view();
    const MoveRecord rec = core_.history.back();
    core_.history.pop_back();
    for (std::uint32_t i = rec.removed_end; i > rec.removed_begin; --i) {
      restore_root(core_.removed[i - 1]);
    }
    core_.removed.resize(rec.removed_begin);
    if (rec.kind == MoveRecord::Kind::kPlace) {
      const Vertex v = rec.vertex;
      Root& expanded = core_.roots[rec.expanded];
      expanded.head = board.next(v);
      take_off<false>(v);
      board.relink(v, rec.prev_next);
      --expanded.size;
      --core_.stones[rec.player - 1];
    }
    core_.to_move = rec.to_move_before;
    core_.out_of_game = rec.out_before;
    core_.winner = kEmpty;
  }

  // A stone of p appears on the empty point v, in root r (whose own entry the caller updates),
  // before `next` in r's list; returns the list link to give back on undo. Roots whose space
  // falls to zero are listed in spaceless_roots[0 .. spaceless_count).
  Vertex place(Vertex v, Player p, RootId r, Vertex next) {
    const auto& board = store_.view();
    std::uint32_t* const space = core_.roots.spaces();
    RootId* const spaceless = core_.spaceless_roots.data();
    std::uint32_t nz = 0;
    // v stops being root space of each colour whose root space it was (a mask, not a branch:
    // see root_or_scratch).
    for (int c = 1; c <= players(); ++c) {
      const SlotState s = board.slot(v, static_cast<Player>(c));
      const std::uint32_t one = s.state == 1;
      const std::uint32_t left = (space[root_or_scratch(one, s.root)] -= one);
      spaceless[nz] = s.root;
      nz += one & (left == 0);
      core_.legal.template flip_one<kC>(static_cast<Player>(c), v, 0, one);
    }
    const Vertex link = board.occupy(v, p, r, next, players());
    core_.hash ^= zobrist::stone(v, p);
    // Each neighbour has one more neighbour of colour p: an empty one that had none joins r's
    // space and p's legal set; an empty one that had one leaves that one's root's space and
    // p's legal set (it would touch two).
    Vertex scratch[kMaxComputedNeighbours];
    const auto around = board.template neighbours<kBig>(v, scratch);
    // Big boards: ask for every neighbour's entry at once (on lattices play() has asked
    // already; asking again measured no slower, and without it a move of a recorded 1000x1000
    // game was about 15% slower).
    if constexpr (kBig) board.prefetch(around);
    auto add = board.adder(p, r);
    auto legal = core_.legal.template changes<kC>(p);
    std::uint32_t gains = 0;
    for (const Vertex u : around) {
      const SlotState old = add.neighbour(u);
      const std::uint32_t gain = old.state == 0;
      const std::uint32_t lose = old.state == 1;
      gains += gain;  // added to r's space after the loop (zero entries are re-checked by play)
      const std::uint32_t left = (space[root_or_scratch(lose, old.root)] -= lose);
      spaceless[nz] = old.root;
      nz += lose & (left == 0);
      legal.flip(u, gain, lose);
    }
    space[r] += gains;
    legal.commit();
    core_.spaceless_count = nz;
    return link;
  }

 private:
  // The stores of boards of more than 4,096 points may list neighbours their own way.
  static constexpr bool kBig = kC == LegalSets::Counting::kMany;

  int players() const { return kPlayers ? kPlayers : core_.players; }

  void forget_record() { core_.forget_record(); }

  // The stone on `first` leaves the board; with kWholeRoot so do the stones after it in its
  // root's list (a removal, in one call, so that what every stone needs is loaded once; on big
  // lattices the next stone's entries are fetched while one is handled).
  template <bool kWholeRoot>
  void take_off(Vertex first) {
    // A copy of the view: its stone loop stores into the point store, after which the compiler
    // would reload every field of the view in place (see point_store.hpp).
    const auto board = store_.view();
    std::uint32_t* const space = core_.roots.spaces();
    const Player p = board.color(first);
    const RootId r = board.root(first);
    const bool save = kWholeRoot && core_.recording;  // undo needs the removed lists
    const bool fetch_ahead = kWholeRoot && store_.prefetches();
    auto take = board.taker(p, r);
    auto legal = core_.legal.template changes<kC>(p);
    std::uint64_t hash = core_.hash;
    std::uint32_t losses = 0;  // points leaving r's space
    for (Vertex v = first; v != kNoVertex;) {
      const Vertex after = kWholeRoot ? board.next(v) : kNoVertex;
      if (fetch_ahead && after != kNoVertex) board.prefetch_point(after);
      if (save) store_.save_removed(v);
      hash ^= zobrist::stone(v, p);
      // Each neighbour has one neighbour of colour p fewer: an empty one that had one leaves
      // r's space and p's legal set; an empty one that had two joins the other one's root's
      // space and p's legal set.
      Vertex scratch[kMaxComputedNeighbours];
      for (const Vertex u : board.template neighbours<kBig>(v, scratch)) {
        const SlotState old = take.neighbour(u);  // its root: the XOR of the others
        const std::uint32_t lose = old.state == 1;
        const std::uint32_t gain = old.state == 2;
        losses += lose;
        space[root_or_scratch(gain, old.root)] += gain;
        legal.flip(u, gain, lose);
      }
      take.vacate(v, players());
      // v becomes root space of each colour with exactly one stone next to it.
      for (int c = 1; c <= players(); ++c) {
        const SlotState s = board.slot(v, static_cast<Player>(c));
        const std::uint32_t one = s.state == 1;
        space[root_or_scratch(one, s.root)] += one;
        core_.legal.template flip_one<kC>(static_cast<Player>(c), v, one, 0);
      }
      v = after;
    }
    core_.hash = hash;
    space[r] -= losses;
    legal.commit();
  }

  // Root r, bounded, leaves the board.
  void remove_root(RootId r) {
    Root& root = core_.roots[r];
    take_off<true>(root.head);
    root.alive = false;
    core_.stones[root.owner - 1] -= root.size;
    --core_.root_count[root.owner - 1];
  }

  // Root r, removed, comes back as it was.
  void restore_root(RootId r) {
    Root& root = core_.roots[r];
    store_.restore_removed(root.head, root.size,
                           [&](Vertex s, Vertex next) { place(s, root.owner, r, next); });
    root.alive = true;
    core_.stones[root.owner - 1] += root.size;
    ++core_.root_count[root.owner - 1];
  }

  PositionCore& core_;
  R& store_;
};

// ---------------------------------------------------------------- the instances

// The rules' entry points for point store R, counting kC and kPlayers players, as plain functions.
template <PointStore R, LegalSets::Counting kC, int kPlayers>
struct RulesFor {
  static Rules<R, kC, kPlayers> of(PositionCore& core) {
    return Rules<R, kC, kPlayers>(core, *std::get_if<R>(&core.store));
  }
  static const MoveRecord& play(PositionCore& core, Vertex v) { return of(core).play(v); }
  static const MoveRecord& resign(PositionCore& core, Player p) { return of(core).resign(p); }
  static void undo(PositionCore& core) { of(core).undo(); }
  static void place(PositionCore& core, Vertex v, Player p, RootId r, Vertex next) {
    of(core).place(v, p, r, next);
  }
  static constexpr RulesTable kTable{play, resign, undo, place};
};

// The entry points for a position's point store, legal sets and number of players (chosen once,
// when the position is made; a call through them costs one indirect call, and nothing per
// neighbour).
inline const RulesTable* rules_for(const PositionCore& core) {
  using C = LegalSets::Counting;
  if (core.compact()) return &RulesFor<CompactStore, C::kMany, 2>::kTable;  // two players, many
  const bool two = core.players == 2;
  switch (core.legal.counting()) {
    case C::kOne:
      return two ? &RulesFor<GeneralStore, C::kOne, 2>::kTable
                 : &RulesFor<GeneralStore, C::kOne, 0>::kTable;
    case C::kFew:
      return two ? &RulesFor<GeneralStore, C::kFew, 2>::kTable
                 : &RulesFor<GeneralStore, C::kFew, 0>::kTable;
    case C::kMany:
      break;
  }
  return two ? &RulesFor<GeneralStore, C::kMany, 2>::kTable
             : &RulesFor<GeneralStore, C::kMany, 0>::kTable;
}

}  // namespace tanbo::detail
