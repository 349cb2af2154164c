// Position::check_consistency: everything the rules keep move by move, recomputed from the
// stones on the board and compared, and the rules' invariants (no bounded root, every root a
// tree holding its seed). For tests and for a search that wants to be sure; O(board).
#include <sstream>

#include "position_core.hpp"
#include "tanbo/core/zobrist.hpp"

namespace tanbo {

namespace {

using detail::PositionCore;

// The slots of every empty point: for each colour the number of neighbours of that colour and
// the XOR of their roots. (Occupied points are the store's own to check: store.check.)
template <class View>
std::string check_slots(const PositionCore& core, const View& rec) {
  const Topology& t = *core.topology;
  for (Vertex v = 0; v < core.n; ++v) {
    if (rec.color(v) > core.players) {
      return "vertex " + t.name(v) + " holds player " + std::to_string(rec.color(v));
    }
    if (rec.color(v) != kEmpty) continue;
    for (int q = 1; q <= core.players; ++q) {
      std::uint32_t count = 0;
      RootId xr = 0;
      for (Vertex u : t.graph.neighbours(v)) {
        if (rec.color(u) == q) {
          ++count;
          xr ^= rec.root(u);
        }
      }
      const detail::SlotState have = rec.slot(v, static_cast<Player>(q));
      if (have.state != count || have.root != xr) {
        std::ostringstream err;
        err << "neighbour count of " << t.name(v) << " for " << player_name(static_cast<Player>(q))
            << " is " << have.state << ", should be " << count;
        return err.str();
      }
    }
  }
  return "";
}

// The hash, and every stone in a live root of its colour.
template <class View>
std::string check_stones(const PositionCore& core, const View& rec) {
  std::uint64_t h = 0;
  for (Vertex v = 0; v < core.n; ++v) {
    const Player p = rec.color(v);
    if (p == kEmpty) continue;
    h ^= zobrist::stone(v, p);
    const RootId r = rec.root(v);
    if (r >= core.roots.count() || !core.roots[r].alive || core.roots[r].owner != p) {
      return "stone at " + core.topology->name(v) + " belongs to no live root of its colour";
    }
  }
  if (h != core.hash) return "hash differs from the stones on the board";
  return "";
}

// Every live root: its seed, a tree of its colour that no other root of its colour touches,
// its size and list, its root space (counted in one pass over the empty points), not bounded.
template <class View>
std::string check_roots(const PositionCore& core, const View& rec) {
  const Topology& t = *core.topology;
  std::vector<std::uint32_t> space_of(core.roots.count(), 0);
  for (Vertex u = 0; u < core.n; ++u) {
    if (rec.color(u) != kEmpty) continue;
    for (int q = 1; q <= core.players; ++q) {
      std::uint32_t c = 0;
      Vertex only = kNoVertex;
      for (Vertex w : t.graph.neighbours(u)) {
        if (rec.color(w) == q) {
          ++c;
          only = w;
        }
      }
      if (c == 1 && rec.root(only) < space_of.size()) ++space_of[rec.root(only)];
    }
  }
  std::vector<std::uint8_t> seen(core.n, 0);
  std::ostringstream err;
  for (RootId r = 0; r < core.roots.count(); ++r) {
    const detail::Root& root = core.roots[r];
    if (!root.alive) continue;
    if (rec.color(root.seed) != root.owner || rec.root(root.seed) != r) {
      err << "root " << r << " has lost its seed " << t.name(root.seed);
      return err.str();
    }
    std::vector<Vertex> comp{root.seed};  // the component, breadth first from the seed
    seen[root.seed] = 1;
    std::uint64_t inner_edges = 0;
    for (std::size_t i = 0; i < comp.size(); ++i) {
      for (Vertex u : t.graph.neighbours(comp[i])) {
        if (rec.color(u) != root.owner) continue;
        ++inner_edges;
        if (!seen[u]) {
          seen[u] = 1;
          comp.push_back(u);
        }
      }
    }
    for (Vertex u : comp) {
      if (rec.root(u) != r) {
        err << "stone " << t.name(u) << " touches root " << r << " but is in root " << rec.root(u)
            << " (roots of one colour joined)";
        return err.str();
      }
    }
    if (inner_edges / 2 != comp.size() - 1) {
      err << "root " << r << " at " << t.name(root.seed) << " is not a tree";
      return err.str();
    }
    std::uint32_t listed = 0;
    for (Vertex s = root.head; s != kNoVertex; s = rec.next(s)) {
      if (++listed > core.n || s >= core.n || rec.color(s) != root.owner || rec.root(s) != r) {
        return "stone list of root " + std::to_string(r) + " is broken";
      }
    }
    if (listed != comp.size() || root.size != comp.size()) {
      err << "root " << r << " has " << comp.size() << " stones, but size " << root.size
          << " and list " << listed;
      return err.str();
    }
    if (space_of[r] != core.roots.space(r)) {
      err << "root " << r << " has root space " << space_of[r] << ", recorded "
          << core.roots.space(r);
      return err.str();
    }
    if (space_of[r] == 0 && core.to_move != kEmpty) {
      err << "root " << r << " at " << t.name(root.seed) << " is bounded";
      return err.str();
    }
    for (Vertex u : comp) seen[u] = 0;
  }
  return "";
}

// Per player: stones, live roots and the legal set; then the turn.
template <class View>
std::string check_players(const PositionCore& core, const View& rec) {
  std::vector<std::uint32_t> stones(core.players, 0), roots(core.players, 0);
  for (Vertex v = 0; v < core.n; ++v) {
    if (rec.color(v) != kEmpty) ++stones[rec.color(v) - 1];
  }
  for (RootId r = 0; r < core.roots.count(); ++r) {
    if (core.roots[r].alive) ++roots[core.roots[r].owner - 1];
  }
  for (int q = 1; q <= core.players; ++q) {
    const auto p = static_cast<Player>(q);
    if (stones[q - 1] != core.stones[q - 1] || roots[q - 1] != core.root_count[q - 1]) {
      return player_title(p) + " stone or root count is wrong";
    }
    std::vector<bool> legal(core.n);
    for (Vertex v = 0; v < core.n; ++v)
      legal[v] = rec.color(v) == kEmpty && rec.slot(v, p).state == 1;
    const std::string sets = core.legal.check(p, legal);
    if (!sets.empty()) return sets;
  }
  int in = 0;
  for (int q = 0; q < core.players; ++q) {
    const bool out = (core.out_of_game >> q) & 1u;
    if (core.stones[q] == 0 && !out) return "a player without stones is not out";
    in += !out;
  }
  if ((in <= 1) != (core.to_move == kEmpty)) return "game-over state is wrong";
  if (core.to_move != kEmpty && ((core.out_of_game >> (core.to_move - 1)) & 1u))
    return "side to move is out";
  return "";
}

}  // namespace

std::string Position::check_consistency() const {
  const PositionCore& core = *core_;
  return core.with_store([&core](const auto& store) {
    const auto& view = store.view();
    std::string fault = check_slots(core, view);
    if (fault.empty()) fault = store.check(core.topology->graph, core.players);
    if (fault.empty()) fault = check_stones(core, view);
    if (fault.empty()) fault = check_roots(core, view);
    if (fault.empty()) fault = check_players(core, view);
    return fault;
  });
}

}  // namespace tanbo
