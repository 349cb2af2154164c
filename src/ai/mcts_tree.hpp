// The search tree of the MCTS engine (mcts.cpp) and what is read off its root: the tally of the
// root's moves that picks the move to play, and the analysis lines with their principal
// variations (mcts_root.cpp). Internal to the search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo::detail {

// Moves of an analysis line's principal variation, at most.
inline constexpr std::size_t kLineLength = 12;

struct Node {
  Vertex move = kNoVertex;  // the move that leads here
  std::uint32_t first = 0;  // children: nodes[first, first + count)
  std::uint32_t count = 0;  // 0 = not expanded
  std::uint32_t n = 0;      // visits (including virtual losses of running playouts)
  std::uint32_t an = 0;     // AMAF visits
  float w = 0;              // wins of `player`
  float aw = 0;             // AMAF wins of `player`
  Player player = kEmpty;   // who moved into this node
  bool expanded = false;
  // Two players: +1 when `player` wins from here with perfect play, -1 when it loses, 0 while
  // unknown (the MCTS-solver's proofs: game ends, backed up through the tree).
  std::int8_t proof = 0;
  std::uint32_t win_child = 0;  // a child whose move wins at once (0 = none known)
};

// A block of children: the moves of one position, nodes[first, first + count).
struct Block {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t win_child = 0;
};

// The nodes, the root first; a node's children are contiguous. With transpositions
// (MctsConfig::transpositions) nodes whose positions are the same share one block of children, so
// the tree is a graph without cycles (a Tanbo position never comes back: each move adds a stone
// or removes a root, and roots are never made again).
struct Tree {
  std::vector<Node> nodes;
  std::unordered_map<std::uint64_t, Block> blocks;  // transpositions: position hash -> children
  std::mutex mu;                                    // used only when threads share the tree
};

// What the search knows about each move at the root: visits and wins gathered from one tree or
// from several, and proofs for the side to move (+1 wins, -1 loses) from the solver or from any
// tree (a proof is exact, whichever tree found it).
struct RootTally {
  std::vector<Vertex> moves;  // the legal moves, in the order of legal_moves()
  std::vector<double> visits, wins;
  std::vector<int> proof;

  // No visits yet; every move lost when the solver proved the position lost, `proven_win`
  // (if any) won.
  RootTally(const Position& pos, bool solver_lost, Vertex proven_win);
  // Adds what a tree's root children hold (created in the order of legal_moves(), as `moves`).
  void gather(const Tree& tree);
  // Indices of the moves, best first: proven wins, then unproven moves, proven losses last;
  // then by visits and wins.
  std::vector<std::size_t> best_first() const;
  // The win rate of move i for the side to move: 1 or 0 when proven.
  double value(std::size_t i) const;
};

// The line the tree expects after `move` at the root: at each node the child a player would
// pick (a proven win, else the most visited move not proven to lose), up to kLineLength moves.
std::vector<Vertex> principal_variation(const Tree& tree, Vertex move);

// The analysis lines of a search: every move searched or proven, in `order` (best first), each
// with its principal variation in `tree`.
std::vector<MoveAnalysis> analysis_of(const RootTally& tally, const std::vector<std::size_t>& order,
                                      const Tree& tree);

}  // namespace tanbo::detail
