// Position::from_stones: loading an arbitrary position (a figure, a game in progress).
//
// A position reached by legal play has one root per seed, each a tree. A diagram does not say
// which stone was the seed, so each connected set of same-coloured stones becomes a root whose
// seed is its lowest-numbered stone. The incremental data is built with the same place() the
// moves use: adding stones in any order gives the same counts as adding them in game order.
#include <string>

#include "position_core.hpp"
#include "rules.hpp"
#include "tanbo/core/error.hpp"

namespace tanbo {

namespace {

// The colour of every point, from the stone list (checked: on the board, a player of the game,
// one stone a point).
std::vector<Player> colours_of(const Topology& t, int players,
                               const std::vector<std::pair<Vertex, Player>>& stones) {
  const std::uint32_t n = t.graph.num_vertices();
  std::vector<Player> colour(n, kEmpty);
  for (const auto& [v, p] : stones) {
    if (v >= n) throw Error("stone on vertex " + std::to_string(v) + " is off the board");
    if (p < 1 || p > players) {
      throw Error("the stone at " + t.name(v) + " belongs to player " + std::to_string(p) +
                  " but the game has " + std::to_string(players) + " players");
    }
    if (colour[v] != kEmpty) throw Error("two stones on " + t.name(v));
    colour[v] = p;
  }
  return colour;
}

// Who is to move: `to_move`, or nobody when at most one player is still in (then the winner).
void set_turn(detail::PositionCore& core, Player to_move) {
  core.out_of_game = detail::players_out(core);
  int in = 0;
  Player last_in = kEmpty;
  for (int p = 1; p <= core.players; ++p) {
    if (!((core.out_of_game >> (p - 1)) & 1u)) {
      ++in;
      last_in = static_cast<Player>(p);
    }
  }
  if (in == 0) throw Error("the position has no stones");
  if (in == 1) {
    core.to_move = kEmpty;
    core.winner = last_in;
    return;
  }
  if (to_move < 1 || to_move > core.players) {
    throw Error("there is no player " + std::to_string(to_move) + " to move in this " +
                std::to_string(core.players) + "-player game");
  }
  if ((core.out_of_game >> (to_move - 1)) & 1u) {
    throw Error(player_title(to_move) + " is to move but has no stones on the board");
  }
  core.to_move = to_move;
  core.winner = kEmpty;
}

}  // namespace

Position Position::from_stones(TopologyPtr topology, int players,
                               const std::vector<std::pair<Vertex, Player>>& stones,
                               Player to_move) {
  if (!topology) throw Error("no topology");
  if (players < 2 || players > kMaxPlayers) {
    throw Error("a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " +
                std::to_string(players));
  }
  auto made = std::make_unique<detail::PositionCore>(topology, Setup{"position", players, stones},
                                                     players, Store::kAuto);
  detail::PositionCore& core = *made;
  const Topology& t = *topology;
  const std::uint32_t n = core.n;
  const std::vector<Player> colour = colours_of(t, players, stones);

  // Roots: connected components of one colour, found from their lowest-numbered stone.
  std::vector<RootId> root_of(n, kNoRoot);
  std::vector<Vertex> next(n, kNoVertex);  // each stone's successor in its root's list
  std::vector<Vertex> comp;
  for (Vertex s = 0; s < n; ++s) {
    const Player p = colour[s];
    if (p == kEmpty || root_of[s] != kNoRoot) continue;
    const RootId r = core.roots.count();
    comp.assign(1, s);
    root_of[s] = r;
    std::uint64_t inner = 0;  // each edge inside the component counted twice
    for (std::size_t i = 0; i < comp.size(); ++i) {
      for (Vertex u : t.graph.neighbours(comp[i])) {
        if (colour[u] != p) continue;
        ++inner;
        if (root_of[u] == kNoRoot) {
          root_of[u] = r;
          comp.push_back(u);
        }
      }
    }
    if (inner / 2 != comp.size() - 1) {
      throw Error("the " + player_title(p) + " stones connected to " + t.name(s) +
                  " form a closed loop or clump (" + std::to_string(comp.size()) + " stones, " +
                  std::to_string(inner / 2) +
                  " adjacencies); a root must be a tree, so no game can reach this position");
    }
    Vertex head = kNoVertex;
    for (Vertex u : comp) {  // stone list: the seed ends up last, as in play
      next[u] = head;
      head = u;
    }
    core.roots.add(p, s, static_cast<std::uint32_t>(comp.size()), head);
    core.stones[p - 1] += static_cast<std::uint32_t>(comp.size());
    ++core.root_count[p - 1];
  }
  // Neighbour counts, legal sets, root space and the hash: place() adds one stone to a
  // consistent position, so the stones go onto the empty board one by one.
  for (Vertex v = 0; v < n; ++v) {
    if (colour[v] != kEmpty) core.rules->place(core, v, colour[v], root_of[v], next[v]);
  }
  for (RootId r = 0; r < core.roots.count(); ++r) {
    if (core.roots.space(r) == 0) {
      const detail::Root& root = core.roots[r];
      throw Error("the position has a bounded root: the " + player_title(root.owner) + " root of " +
                  std::to_string(root.size) + (root.size == 1 ? " stone" : " stones") + " at " +
                  t.name(root.seed) + " has no root space");
    }
  }
  set_turn(core, to_move);
  core.spaceless_count = 0;
  return Position(std::move(made));
}

}  // namespace tanbo
