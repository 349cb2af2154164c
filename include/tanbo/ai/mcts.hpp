// Monte Carlo tree search over any board graph, for 2 to 8 players.
//
// UCT with AMAF/RAVE, max-n values (a node holds the win rate of the player who moved into
// it, so each player maximises its own win), a transposition table (a position reached by
// several lines shares its children and their statistics), light playout knowledge, and two
// ways of using several threads (one shared tree with virtual loss, or independent trees
// merged at the root). docs/strength.md describes the options and the search;
// docs/experiments.md has the matches behind the defaults.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/ai/policy.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"

namespace tanbo {

// Everything that configures a search. Limits combine: the search stops at the first one
// reached. With no limit at all it runs 1000 playouts. Each field says the option of
// "mcts:OPTIONS" that sets it (parse_mcts_options); an empty optional is the choice of the
// function named, by the board.
// The bounds of a search's time per move (time=, and Python's seconds=): at least 0.001 s, and
// at most 10^9 s, from where Python's seconds= means no limit at all.
inline constexpr double kLeastMoveSeconds = 0.001;
inline constexpr double kMostMoveSeconds = 1e9;

struct MctsConfig {
  std::uint64_t playouts = 0;  // playouts: playouts per move (0 = no playout limit)
  double move_seconds = 0;     // time: seconds per move (0 = no time limit)
  double game_seconds = 0;     // gametime: seconds for the whole game, spread over the moves
                               // (0 = none)
  int threads = 1;             // threads: search threads
  bool tree_parallel = true;   // parallel: several threads share one tree (tree) or have one
                               // tree each (root)
  bool rave = true;            // rave: AMAF/RAVE values in the tree policy
  // policy: the default policy's light playout knowledge (light); false: uniform random
  // playouts (random)
  bool light_playouts = true;
  std::uint32_t prior_visits = 30;  // prior: AMAF prior visits of a new child (0 = no priors)
  // model: the priors come from the move model (move_model.hpp), or from greedy's one-ply
  // score; model_priors' choice when empty
  std::optional<bool> move_model_priors;
  int light_tries = 1;  // tries: light policy's random draws searched for a bounding move
  // tactics: light playouts take and save roots down to one point first (tactical_move);
  // playout_tactics' choice when empty
  std::optional<bool> tactics_in_playouts;
  // tmoves: the tactics act in this many moves of a playout from its first, 0 in all;
  // tactics_moves' choice when empty
  std::optional<std::uint32_t> tactics_move_limit;
  // explore: the UCT exploration constant; exploration_constant's choice when empty
  std::optional<double> exploration;
  double rave_equivalence = 300;    // ravek: the visits at which AMAF counts half
  std::uint32_t expand_visits = 2;  // expand: a leaf gets children once it has this many visits
                                    // (one new level a playout)
  bool reuse_tree = true;           // reuse: keep the tree between searches (see Mcts::search)
  bool transpositions = true;       // trans: a position reached by different lines has one block of
                                    // children, with their statistics, shared by every line into it
  bool last_good_reply = false;     // reply: the search suggests to its playouts the last good
                                    // reply to the move before (see src/ai/reply_table.hpp)
  // solver: two players, at most 64 empty points: positions the exact solver searches before
  // each search (0 = none), above 25 empty points at most 10 a playout of the playout limit,
  // and within a quarter of the move's time. A proven win is played at once; the solver's table
  // is kept between moves.
  std::uint64_t solver_nodes = 100000;
  // memory: megabytes the trees of one search may take in all (0: four trees' worth, about 740
  // MB, which one tree or up to four trees of parallel=root fill whole, more share). Never more
  // than half of the room the process's memory limit leaves (memory_limit); each tree keeps at
  // least 4,096 nodes. A full tree stops growing and the search goes on with playouts.
  std::uint64_t memory_mb = 0;
};

// The biggest boards the board-dependent defaults below hold on, each the largest of the boards
// it was measured on (docs/experiments.md): 10x10 for no exploration, 13x13 for the playout
// tactics in every playout move, 19x19 for the tactics in the first kTacticsPlayoutMoves moves
// of each playout and for the move model's priors. On bigger boards the tactics stop after the
// first moves of a playout so that the search keeps 60% of tanbo bench's rate on 19x19.
inline constexpr std::uint32_t kTunedExplorePoints = 100;
inline constexpr std::uint32_t kTunedModelPoints = 361;
inline constexpr std::uint32_t kTunedTacticsPoints = 361;
inline constexpr std::uint32_t kWholeTacticsPoints = 169;
inline constexpr std::uint32_t kTacticsPlayoutMoves = 200;

// The UCT exploration constant a search of `graph` uses: config.exploration when it is set,
// else 0 with RAVE on boards of at most kTunedExplorePoints points that have at most 4
// neighbours each (lines, small square grids: the AMAF values and the priors spread the visits
// enough, and exploration only dilutes them), else 0.2 (plain UCT needs exploration, and on
// 5x5x5 and 13x13 none lost).
double exploration_constant(const MctsConfig& config, const Graph& graph);
// Whether the light playouts of a search of `graph` use tactical_move:
// config.tactics_in_playouts when it is set, else on boards of at most kTunedTacticsPoints points
// (on 9x9, 13x13 and 19x19 they make the search much stronger for a small share of its playout
// rate).
bool playout_tactics(const MctsConfig& config, const Graph& graph);
// How many moves of each playout, from its first, use the tactics when they are on:
// config.tactics_move_limit when it is set, else every move (0) on boards of at most
// kWholeTacticsPoints points, and the first kTacticsPlayoutMoves on bigger ones (the late moves
// of a long playout, with many roots down to one point, are where the tactics cost most).
std::uint32_t tactics_moves(const MctsConfig& config, const Graph& graph);
// Whether the priors of a search of `graph` come from the move model: config.move_model_priors
// when it is set, else on boards of at most kTunedModelPoints points that have at most 4
// neighbours each, like 9x9, where its weights were fitted (there, on 13x13 and on 19x19 it
// beats greedy's priors); elsewhere greedy's priors (the model lost on hex 5 and 5x5x5).
bool model_priors(const MctsConfig& config, const Graph& graph);
// The default policy's options for a search of `graph`: config's playout and prior options,
// with the four choices above (the tactics only in light playouts).
TanboPolicyOptions tanbo_policy_options(const MctsConfig& config, const Graph& graph);

// Reads the options part of "mcts:OPTIONS": comma-separated key=value pairs with keys
// playouts, time, gametime, threads, parallel (tree|root), rave (0|1), policy (light|random),
// prior, model (0|1), tries, tactics (0|1), tmoves, explore, ravek, expand, reuse (0|1), trans
// (0|1), reply (0|1), solver (nodes), memory (MB); MctsConfig says which field each sets. Throws
// tanbo::Error naming the bad key or value.
MctsConfig parse_mcts_options(std::string_view options);
// The spec that recreates a configuration ("mcts:playouts=1000,threads=2"); only options that
// differ from the defaults are written.
std::string mcts_spec(const MctsConfig& config);

// What the last search did.
struct SearchStats {
  std::uint64_t playouts = 0;        // playouts run (all threads)
  std::uint64_t playout_moves = 0;   // moves played inside playouts (after the tree)
  std::uint64_t nodes = 0;           // tree nodes allocated
  std::uint64_t transpositions = 0;  // leaves whose position the tree held already (trans=1):
                                     // they share its children
  double seconds = 0;                // wall time of the search
  double best_value = 0;             // win rate of the chosen move for the side to move
  std::uint32_t best_visits = 0;     // visits of the chosen move
  std::uint64_t reused_visits = 0;   // root visits kept from earlier searches (all trees)
  int proven = 0;                    // +1: the chosen move is proven to win, -1: every move is
                                     // proven to lose (two players), 0: not proven
  std::uint64_t solver_nodes = 0;    // positions the exact solver searched
};

// One candidate move as the search sees it (Mcts::analyze).
struct MoveAnalysis {
  Vertex move = kNoVertex;
  std::uint32_t visits = 0;  // playouts through the move
  double winrate = 0;        // win probability of the side to move after it (1 or 0 if proven)
  int proven = 0;            // +1 proven win, -1 proven loss, 0 not proven
  std::vector<Vertex> pv;    // principal variation, starting with the move
};

// A search engine; keeps its random state, and its tree, between searches.
//
// Its move knowledge comes from a Policy (policy.hpp): the priors of new nodes, every playout
// move, and the move ordering of the solver it runs at the root. Without one it uses a
// TanboPolicy made for each search's board from the config (tanbo_policy_options); with one,
// the config's policy, prior choice and playout options (light_playouts, move_model_priors,
// light_tries, tactics_in_playouts, tactics_move_limit) are the given policy's business and
// are not read. A policy given is shared, never changed, and called from every search thread.
class Mcts {
 public:
  explicit Mcts(MctsConfig config, std::uint64_t seed = 1,
                std::shared_ptr<const Policy> policy = nullptr);
  ~Mcts();
  Mcts(Mcts&&) noexcept;
  Mcts& operator=(Mcts&&) noexcept;
  // Chooses a move for pos.to_move() (precondition: the game is not over). `budget_seconds`
  // (> 0) caps this search's time in addition to the configured limits.
  // With config.reuse_tree, when pos follows the position of the last search by the moves played
  // since (same board, same start, that position's moves first), the search starts from the
  // part of the last tree below those moves, with its visits (last_stats().reused_visits);
  // any other position starts a new tree. The playout limit counts new playouts only.
  Vertex search(const Position& pos, double budget_seconds = 0);
  // The same search, without the shortcuts that skip it (one legal move, a move that wins at
  // once, a win proven by the solver), returning every move that was searched or proven, best
  // first (the first is the move search() would play). Keeps the tree as search() does.
  std::vector<MoveAnalysis> analyze(const Position& pos, double budget_seconds = 0);
  // Drops the tree kept for reuse and its memory (a new game starts).
  void forget();
  // forget(), and the exact solver's table too (16 MB at most, kept for the proofs it holds):
  // nothing of this search stays in memory for the next one.
  void free_memory();
  // Asks a search running on another thread to end: it starts no more playouts, waits for
  // those running and returns the best move found so far (a legal move, also after no playout
  // at all). Safe from any thread; does nothing when no search runs, so it never cuts short a
  // later search.
  void stop();
  const SearchStats& last_stats() const { return stats_; }
  // Totals over every search since construction (for playouts-per-second figures).
  const SearchStats& total_stats() const { return total_; }
  const MctsConfig& config() const { return config_; }
  // Sets the playout limit of the searches from now on, keeping the tree (a streaming analysis
  // searches in steps and gives its last step only the playouts left).
  void set_playout_limit(std::uint64_t playouts) { config_.playouts = playouts; }
  void reseed(std::uint64_t seed) { rng_.reseed(seed); }

 private:
  struct Memory;   // the trees kept between searches and the position they start from
  struct Control;  // whether a search runs and whether it is asked to stop
  // The exact solver's verdict on pos within its budget (config_.solver_nodes positions, fewer
  // above 25 empty points; src/ai/mcts_solver.cpp), ended early by `stop`: the winning move when
  // the side to move is proven to win, kNoVertex otherwise (lost sets `lost`).
  Vertex solve_root(const Position& pos, double seconds, const std::atomic<bool>* stop, bool& lost);
  // The line of perfect play that starts with `win`, a move solve_root proved winning at pos:
  // then in turn the loser's move that resists longest and the winner's shortest win, as the
  // solver finds them, up to `length` moves (fewer where the game ends or a position is not
  // proven again within the limits).
  std::vector<Vertex> proof_line(const Position& pos, Vertex win, std::size_t length,
                                 double seconds, const std::atomic<bool>* stop);
  // A move that needs no search: the only legal move, or one that wins at once (kNoVertex when
  // there is none, and always when analysing).
  Vertex obvious_move(const Position& pos);
  MctsConfig config_;
  std::shared_ptr<const Policy> policy_;  // null: a TanboPolicy for each search's board
  Rng rng_;
  SearchStats stats_;
  SearchStats total_;
  std::unique_ptr<Memory> memory_;
  std::unique_ptr<Control> control_;
  std::unique_ptr<class Solver> solver_;  // made at its first use
  bool analyzing_ = false;                // analyze() is running search()
  std::vector<MoveAnalysis> analysis_;    // what analyze() returns
};

}  // namespace tanbo
