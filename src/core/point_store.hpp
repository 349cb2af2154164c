// What the rules need of the point store (the per-point data): the interface both layouts give.
//
// The rules (rules.hpp) keep, per point and colour, the number of neighbours of that colour and
// the XOR of their root ids (the root itself when there is one neighbour): a point is legal for
// p, and root space of that neighbour's root, exactly when it is empty with one neighbour of p.
// How a point's colour, root, list link and those counts are laid out in memory is the store's
// business; two layouts exist:
//  - GeneralStore (general_store.hpp): any graph, any number of players; 32 bytes a point
//    with two players.
//  - CompactStore (compact_store.hpp): two players on lattices of more than 4,096 points;
//    8 bytes a point, neighbours computed from the coordinates.
// The rules are written once, as templates over this interface, and instantiated for each
// layout; Position picks the layout once, when it is made.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo::detail {

// One point's slot of one colour, as the rules read it. `state` is the number of neighbours of
// that colour when the point is empty, and a value above any count when it is occupied, so
// `state == 1` says "empty root space of this colour" in one comparison. `root` is the XOR of
// those neighbours' root ids: the root itself when state is 1 (else meaningless).
struct SlotState {
  std::uint32_t state;
  RootId root;
};

// The most neighbours a store layout computes into the caller's scratch array (lattices of
// up to 16 axes); neighbours() needs room for that many.
inline constexpr std::uint32_t kMaxComputedNeighbours = 32;

// The interface, in two parts. A store type R owns the memory; R::View, from view(), is what
// the rules read and write a point through: a few pointers and sizes (a view's const functions
// may change the points it refers to). A removal copies the view into locals, so that the
// compiler keeps it in registers instead of reloading it after every store into the buffer
// (those stores are untyped bytes to the compiler, which may alias anything); elsewhere the
// rules read it in place: a copy at the start of every move measured 5% slower on 19x19 though
// it ran fewer instructions, and one in place() 1% slower on 5x5x5. Besides what the concepts
// check:
//  - View::Adder, from adder(p, r): neighbour(u) adds one neighbour of colour p in root r to
//    u's slot of p and returns the slot as it was;
//  - View::Taker, from taker(p, r): neighbour(u) takes one neighbour of colour p in root r out
//    of u's slot of p and returns the slot as it was, its root the XOR of the other neighbours;
//    vacate(v, players) then empties v itself (after all of v's neighbours are done), its slots
//    counting the stones around it;
//  - R::restore_removed(head, size, f): calls f(stone, next) for the stones of a removed root,
//    in the order that rebuilds its list (see save_removed).
template <class V>
concept PointStoreView = requires(const V& c, Vertex v, Player p, RootId id, Vertex* scratch,
                                  std::span<const Vertex> around) {
  { c.color(v) } -> std::same_as<Player>;  // kEmpty or the stone's owner
  { c.root(v) } -> std::same_as<RootId>;   // the root of the stone on v (v occupied)
  { c.next(v) } -> std::same_as<Vertex>;   // the stone after v in its root's list
  { c.slot(v, p) } -> std::same_as<SlotState>;
  // v's neighbours, computed into `scratch` or found in place. kBig: the board may have more
  // than 4,096 points (smaller ones skip the big boards' ways of listing).
  { c.template neighbours<true>(v, scratch) } -> std::same_as<std::span<const Vertex>>;
  c.prefetch_point(v);  // a hint: start loading v's entry and its neighbours' (big lattices)
  c.prefetch(around);   // a hint: start loading these points' entries for writing
  // A stone of p goes on the empty v, in root r, before `next` in r's list; the slots of v
  // read as occupied after. Returns the list link to give back to relink() on undo.
  { c.occupy(v, p, id, v, 2) } -> std::same_as<Vertex>;
  c.relink(v, v);  // undo of occupy's link, after v is emptied again
  { c.adder(p, id).neighbour(v) } -> std::same_as<SlotState>;
  { c.taker(p, id).neighbour(v) } -> std::same_as<SlotState>;
};

template <class R>
concept PointStore = PointStoreView<typename R::View> &&
    requires(R& r, const R& c, Vertex v, Player p, const Graph& graph) {
  { c.view() } -> std::same_as<const typename R::View&>;
  { c.neighbours_of(v, p) } -> std::same_as<std::uint32_t>;  // also on occupied points
  { c.max_neighbours() } -> std::same_as<std::uint32_t>;     // most that neighbours() lists
  { c.prefetches() } -> std::same_as<bool>;                  // whether prefetch_point does anything
  r.save_removed(v);   // v's stone is removed with its root: keep what undo needs
  r.forget_removed();  // the saved lists are not needed any more
  // "" when the layout's own encoding (occupied points, border) is consistent, else the fault.
  { c.check(graph, 2) } -> std::same_as<std::string>;
};

}  // namespace tanbo::detail
