// Move knowledge: what a move does under the rules, judged one ply deep, and the policies
// built on it.
//
// `Policy` is what a search asks about moves, and all it asks: the prior of each move of a new
// tree node, the next move of a playout, and how urgent a move looks to a depth-first search's
// move ordering. The Monte Carlo tree search (mcts.hpp) and the exact solver (solver.hpp) take
// one, the way OpenSpiel's MCTS takes an Evaluator; `TanboPolicy` is the Tanbo knowledge they
// use when given none. The free functions below are the pieces TanboPolicy is made of (and the
// greedy player's judgement, one_ply_score); none of this knows anything of a search.
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
// The most moves times root ids one_ply_shares scores (about 0.1 s): the start of grid 300x300
// (2,652 roots, 10,000 moves) is within it; that of grid 1000x1000 (28,224 roots, 110,000
// moves) took 9 s, which made a 1 s move of the engine last 11 s.
inline constexpr double kOnePlyWork = 1 << 25;
// Greedy's priors (TanboPolicy without the move model): shares[i], the share of the AMAF prior wins
// that moves[i] (legal for the side to move) starts with, from the moves ranked by one_ply_score
// (ties in the order given): the best 1, the next 1 - 1/m, ..., the worst 1/m, m moves.
// `order` is scratch space. Plays each move on pos and takes it back. Each score looks at every
// root, so where the moves times the root ids exceed kOnePlyWork every share is 0.5 instead.
void one_ply_shares(Position& pos, std::span<const Vertex> moves, std::vector<double>& shares,
                    std::vector<std::uint32_t>& order);

// Whether player p putting a stone on v ends the game with p the winner: the stone bounds
// every root of every other player and not the root it joins.
bool move_wins_at_once(const Position& pos, Player p, Vertex v);
// A move that wins for p at once (move_wins_at_once), or kNoVertex when there is none. With two
// players it looks at one point at most: a stone of p takes root space from a root of the
// other colour only by standing on it, and the roots of one colour have no root-space point
// in common (it would touch two stones of that colour), so p wins at once only when the other
// player has one root left, with one root-space point. With more players it tries p's moves.
Vertex winning_move_at_once(const Position& pos, Player p);

// The light playout policy: draws `tries` legal moves at random and plays the first that
// bounds another player's root without bounding its own; else the first draw, unless that
// one bounds its own root (then one other draw). TanboPolicy::playout_move tries tactical_move
// and the search's suggestion (the last good reply, reply=1) before it. `no_taking`
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

// ---- the interface a search takes

// Room a policy keeps between its calls from one search thread. Each thread of a search owns
// one, empty at the start of each search, and hands it to every call it makes; the calls of one
// thread come one after another, so a policy may cache there what it found on earlier moves of
// the same search (TanboPolicy: each root's last point). Threads never share one.
struct PolicyScratch {
  std::vector<Vertex> vertices;
  std::vector<std::uint32_t> indices;
};

// One playout move to choose: where the playout is and what the search itself suggests.
struct PlayoutTurn {
  // Moves the playout has played since it left the tree (0 on its first move).
  std::uint64_t ply = 0;
  // The search's own suggestion, learnt from its earlier playouts (the last good reply to the
  // move before, MctsConfig::last_good_reply), or kNoVertex. It may be illegal now: the policy
  // decides whether and when to play it.
  Vertex suggestion = kNoVertex;
};

// Move knowledge a search consults. Implementations are immutable while a search uses them and
// are called from every thread of the search at once: per-thread state goes in the
// PolicyScratch the caller passes. Every method is given a position that is not over, and
// returns its answer for the side to move there.
class Policy {
 public:
  virtual ~Policy() = default;

  // Priors of a new tree node's children: shares[i] in [0, 1], the share of the prior wins
  // moves[i] starts with (the search gives each child MctsConfig::prior_visits AMAF visits that
  // hold prior_visits * shares[i] wins). `moves` are legal moves of pos's side to move, in
  // vertex order; `last` is the move that led to pos (kNoVertex when unknown). The policy may
  // play on pos and take its moves back: pos is as it was on return. `shares` is resized to
  // moves.size().
  virtual void prior_shares(Position& pos, Vertex last, std::span<const Vertex> moves,
                            std::vector<double>& shares, PolicyScratch& scratch) const = 0;

  // The next move of a playout from pos: a legal move of the side to move. Draws its random
  // numbers from `rng` only, so that a seeded search replays move for move. Called once for
  // every move of every playout: the search's rate rests on it being cheap.
  virtual Vertex playout_move(const Position& pos, const PlayoutTurn& turn, Rng& rng,
                              PolicyScratch& scratch) const = 0;

  // How a move of player p looks before any search (v legal for p): > 0 to try it early, < 0
  // to try it late, 0 without an opinion. The solver orders its moves by its sign first, then
  // by its history; it is called for every move of every position it expands, so it must be
  // cheap. The default has no opinion.
  virtual int move_urgency(const Position& pos, Player p, Vertex v) const;
};

// What TanboPolicy does; MctsConfig's playout options are read into one by
// tanbo_policy_options (mcts.hpp), with their defaults for the board.
struct TanboPolicyOptions {
  bool light = true;                // light playout moves (light_playout_move); false: uniform
  int tries = 1;                    // light_playout_move's random draws
  bool tactics = false;             // playouts try tactical_move first
  std::uint32_t tactics_plies = 0;  // ... in this many moves of a playout from its first (0: all)
  bool model_priors = false;        // priors from the move model (move_model.hpp), else greedy's
};

// The Tanbo knowledge the search and the solver use when given no policy:
//  - priors: the move model's shares (move_model_shares) or greedy's (one_ply_shares);
//  - playouts: tactical_move (when on, in the first tactics_plies moves), then the search's
//    suggestion when it is legal and does not bound the mover's own root, then
//    light_playout_move (told when tactical_move has ruled out every taking move), or a
//    uniform random_move;
//  - urgency: -1 for a move that bounds its own root (move_bounds_own_root), else +1 for one
//    that bounds another player's root (move_bounds_other_root), else 0.
// It is final, so that a search holding a TanboPolicy calls it without a virtual call.
class TanboPolicy final : public Policy {
 public:
  TanboPolicy() = default;
  explicit TanboPolicy(const TanboPolicyOptions& options) : options_(options) {}

  void prior_shares(Position& pos, Vertex last, std::span<const Vertex> moves,
                    std::vector<double>& shares, PolicyScratch& scratch) const override;
  Vertex playout_move(const Position& pos, const PlayoutTurn& turn, Rng& rng,
                      PolicyScratch& scratch) const override;
  int move_urgency(const Position& pos, Player p, Vertex v) const override {
    return urgency(pos, p, v);
  }
  // move_urgency, callable without an object (the solver's ordering, where it is inlined).
  static int urgency(const Position& pos, Player p, Vertex v) {
    if (pos.joined_space_after(p, v) == 0) return -1;  // v is legal: it joins one root of p
    return pos.others_bounded(p, v) > 0 ? 1 : 0;
  }
  const TanboPolicyOptions& options() const { return options_; }

 private:
  TanboPolicyOptions options_;
};

}  // namespace tanbo
