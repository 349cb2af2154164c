// Move knowledge: what a move does under the rules, judged one ply deep, and the playout
// policy built on it. Shared by the search's priors and playouts (mcts.hpp), the greedy player
// and the exact solver's move ordering; it knows nothing of any search.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"

namespace tanbo {

// Whether player p putting a stone on v (a legal point for p) would leave the root it joins
// with no root space, so that this root is removed at once ("self-bounding").
bool move_bounds_own_root(const Position& pos, Player p, Vertex v);
// Whether player p putting a stone on v takes the last root-space point of some other
// player's root (which is then removed unless p's own root is bounded by the move).
bool move_bounds_other_root(const Position& pos, Player p, Vertex v);

// The one-ply score of the side to move playing v (the greedy player's judgement): stones of
// other players removed +10 each, own stones removed -12 each, plus the square roots of the
// root spaces of own roots, minus half those of other players' roots; +-1e9 for a move that
// ends the game. Plays v and takes it back, leaving `pos` as it was.
double one_ply_score(Position& pos, Vertex v);
// Greedy's priors (MctsConfig::model 0): shares[i], the share of the AMAF prior wins that
// moves[i] (legal for the side to move) starts with, from the moves ranked by one_ply_score
// (ties in the order given): the best 1, the next 1 - 1/m, ..., the worst 1/m, m moves.
// `order` is scratch space. Plays each move on pos and takes it back.
void one_ply_shares(Position& pos, std::span<const Vertex> moves, std::vector<double>& shares,
                    std::vector<std::uint32_t>& order);

// Whether player p putting a stone on v ends the game with p the winner: the stone bounds
// every root of every other player and not the root it joins.
bool move_wins_at_once(const Position& pos, Player p, Vertex v);

// The light playout policy: draws `tries` legal moves at random and plays the first that
// bounds another player's root without bounding its own; else the first draw, unless that
// one bounds its own root (then one other draw). The search's playouts try tactical_move and
// the last good reply (reply=1) before it (Worker::playout_move in mcts.cpp). `no_taking`
// says the caller knows that no legal move bounds another player's root without bounding its
// own (tactical_move looked at every root and found none): the draws and the move are the
// same, without the test of each draw.
Vertex light_playout_move(const Position& pos, Rng& rng, int tries = 1, bool no_taking = false);

// Roots at most tactical_move() looks through (a scan of every root on each playout move);
// on boards with more (a spaced setup on a big board) it finds nothing.
inline constexpr std::uint32_t kTacticsMaxRoots = 64;
// A tactical move for p: the last root-space point of another player's root when p may play
// it without bounding its own root (the other root is removed), else the last point of one of
// p's own roots when growing it there leaves that root some root space; kNoVertex when there
// is neither. `hints`, when given, remembers each root's last point between calls (a playout
// of one thread): a big root is then searched once, not on every move; the answer is the same.
// The scan runs on every playout move and finds a move in few of them, so it reads the roots'
// spaces as one span (Position::root_spaces) and checks a hint by Position::joined_root.
Vertex tactical_move(const Position& pos, Player p, std::vector<Vertex>* hints = nullptr);

}  // namespace tanbo
