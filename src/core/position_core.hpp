// The state behind Position: what a game in progress keeps. Position (position.cpp) answers the
// queries from it; the rules (rules.hpp) change it.
#pragma once

#include <array>
#include <cstdint>
#include <variant>
#include <vector>

#include "compact_store.hpp"
#include "general_store.hpp"
#include "legal_set.hpp"
#include "pod_vector.hpp"
#include "roots.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo::detail {

// The point store in use: one of the two layouts (point_store.hpp).
using AnyStore = std::variant<GeneralStore, CompactStore>;

struct PositionCore;
// The rules' entry points for one position's point store, legal sets and players (rules.hpp).
struct RulesTable {
  const MoveRecord& (*play)(PositionCore&, Vertex v);    // plays v for the side to move
  const MoveRecord& (*resign)(PositionCore&, Player p);  // p resigns
  void (*undo)(PositionCore&);                           // takes back the last turn
  void (*place)(PositionCore&, Vertex v, Player p, RootId r, Vertex next);  // puts a stone
};

struct PositionCore {
  // An empty board of `topology` for `players` players (2..kMaxPlayers), with the point store
  // `choice` asks for; Position's constructors then put the stones on.
  PositionCore(TopologyPtr topology, Setup setup, int players, Position::Store choice);

  // ---- the board
  TopologyPtr topology;
  Setup setup;
  std::uint32_t n = 0;  // points
  int players = 2;      // 2..8
  // The point store (each point's colour, root and neighbour counts): the general layout, or
  // the compact one on big two-player lattices.
  AnyStore store;
  const RulesTable* rules = nullptr;                // the rules instance for this store (rules_for)
  LegalSets legal;                                  // every player's legal moves
  Roots roots;                                      // every root made, by id
  std::array<std::uint32_t, kMaxPlayers> stones{};  // per player: stones on the board
  std::array<std::uint32_t, kMaxPlayers> root_count{};  // per player: live roots
  std::uint64_t hash = 0;  // Zobrist hash of the stones (the side to move is added on request)

  // ---- the turn
  Player to_move = kBlack;  // kEmpty once the game is over
  Player winner = kEmpty;
  std::uint8_t out_of_game = 0;  // bit p-1: player p is out (resigned or stoneless)

  // ---- the game record (see Position::set_recording)
  // The turns, and the roots each turn removed, in order. PodVectors grow without copying
  // (pod_vector.hpp), which matters for a recorded game of millions of turns.
  PodVector<MoveRecord> history;
  PodVector<RootId> removed;
  bool recording = true;
  std::uint32_t turns_forgotten = 0;  // turns played before history's first (not kept)

  // Roots whose space fell to zero during the last place(): spaceless_roots[0 ..
  // spaceless_count), room for the most a stone can make (one per colour on its point and one
  // per neighbour).
  std::vector<RootId> spaceless_roots;
  std::uint32_t spaceless_count = 0;

  bool compact() const { return std::holds_alternative<CompactStore>(store); }
  // f(store) for the store in use; the same code is compiled for each layout.
  template <class F>
  decltype(auto) with_store(F&& f) const {
    if (const auto* c = std::get_if<CompactStore>(&store)) return f(*c);
    return f(*std::get_if<GeneralStore>(&store));
  }
  // f(view) for the view of the store in use (point_store.hpp).
  template <class F>
  decltype(auto) with_view(F&& f) const {
    return with_store([&f](const auto& r) -> decltype(auto) { return f(r.view()); });
  }
  template <class F>
  decltype(auto) with_store(F&& f) {
    if (auto* c = std::get_if<CompactStore>(&store)) return f(*c);
    return f(*std::get_if<GeneralStore>(&store));
  }
  // Forgets the turns recorded so far, still counting them in ply().
  void forget_record() {
    turns_forgotten += static_cast<std::uint32_t>(history.size());
    history.clear();
    removed.clear();
    with_store([](auto& r) { r.forget_removed(); });
  }
};

}  // namespace tanbo::detail
