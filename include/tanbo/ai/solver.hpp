// An exact solver for two-player Tanbo: who wins with perfect play, and how.
//
// Method (docs/solved.md): a search that proves, depth-first proof-number search (df-pn, the
// default) or alpha-beta on won/lost values (the first winning move ends a node), with
//  - a transposition table keyed by a Zobrist hash of the stones and the side to move, kept
//    incrementally by the solver for every symmetry of the board at once, the key being the
//    smallest of those hashes (so a position and its mirror images share one entry);
//  - move ordering: a move that ends the game at once is taken without search; then the
//    table's move, the moves the policy finds urgent (Policy::move_urgency; TanboPolicy's:
//    moves that bound another root without bounding their own), the history heuristic, and
//    the moves it finds bad (self-bounding ones) last;
//  - threads that share the table and take the root moves one at a time; with df-pn, a
//    thread with none left helps prove a root move another thread is on;
//  - df-pn keeps one child per position (mirror images, self-bounding moves of one root).
// Tanbo positions never repeat (every move adds a stone or removes at least one root, and
// roots never appear), so the game graph is acyclic and a table entry is always sound.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "tanbo/ai/policy.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

// ---- symmetries

// Vertex permutations that map the board onto itself (each perm[v] is the image of v), the
// identity first, at most `cap` of them:
//  - lattices: permutations of axes of equal size combined with reflections of any axes (8 on
//    a square, 48 on a cube, 2 on a line, 4 on an AxB rectangle); on tori the same (no
//    translations);
//  - hex boards: the 12 rotations and reflections of the hexagon;
//  - DOT boards: automorphisms found by a bounded backtracking search (up to 4,096 points).
// Every permutation returned is checked to be an automorphism of the graph.
std::vector<std::vector<Vertex>> board_symmetries(const Topology& topo, std::size_t cap = 48);

// Whether `perm` maps every edge of the graph onto an edge (and is a permutation).
bool is_automorphism(const Graph& graph, const std::vector<Vertex>& perm);

// ---- the solver

// A root move that df-pn is proving, with the numbers of the position it leads to, as the
// thread proving it read them from the line of play it was on shortly before the report: how
// many positions, as df-pn counts them, at least remain to be proven to show that the move
// wins, and that it loses. The number of the side the search is about to prove falls towards
// 0; the other grows as defences are found.
struct RootWork {
  Vertex move = kNoVertex;
  std::uint32_t to_win = 0;   // the disproof number of the position after the move
  std::uint32_t to_lose = 0;  // its proof number
};

struct SolveProgress {
  std::uint64_t nodes = 0;      // positions searched so far
  double seconds = 0;           // since the start
  std::size_t moves_done = 0;   // root moves proven
  std::size_t moves_total = 0;  // root moves
  // df-pn: the root moves being proven now, each once (several threads may prove one), in the
  // order of the threads; empty with alpha-beta and before a thread's first numbers.
  std::vector<RootWork> working;
  const Topology* board = nullptr;  // the board of the moves, to name them (during the call)
};

// The search that proves: depth-first proof-number search (df-pn), or alpha-beta on won/lost
// values (a depth-first search that takes the first winning move). Both share the table.
enum class SolveMethod { kProofNumber, kAlphaBeta };

struct SolverOptions {
  SolveMethod method = SolveMethod::kProofNumber;
  int threads = 1;  // search threads (sharing the table), at most one a core (solver_threads)
  // The transposition table, 16 bytes an entry, rounded down to a power of two (see
  // solver_table_bytes); it must fit in the memory limit (check_solver_memory).
  std::size_t table_bytes = std::size_t{64} << 20;
  bool symmetry = true;       // use the board's symmetries
  bool all_moves = false;     // prove every root move (all winning moves)
  double progress_every = 0;  // seconds between progress calls (0 = none)
  std::function<void(const SolveProgress&)> progress;
  // The move ordering's knowledge (Policy::move_urgency, its sign); null: TanboPolicy's.
  std::shared_ptr<const Policy> policy;
};

struct SolveLimits {
  double seconds = 0;                       // 0 = no time limit
  std::uint64_t nodes = 0;                  // 0 = no node limit
  const std::atomic<bool>* stop = nullptr;  // set from outside to stop
  // When the time limit and the progress lines start counting: the default (a zero time
  // point) is the call; a command gives its own start, so that making the board counts too.
  std::chrono::steady_clock::time_point since{};
};

struct SolveResult {
  bool solved = false;      // false: a limit ended the search first
  Player winner = kEmpty;   // the winner with perfect play (when solved)
  Vertex best = kNoVertex;  // a best move for the side to move: winning when it wins (the
                            // shortest win found), else the move that resists longest
  // Winning moves of the side to move, in vertex order: all of them with
  // SolverOptions::all_moves, else those found before the search stopped.
  std::vector<Vertex> winning_moves;
  // Plies to the end of the game along the proof: the winner plays the solver's winning
  // moves, the loser the move that lasts longest against them.
  std::uint32_t plies = 0;
  std::uint64_t nodes = 0;      // positions searched
  double seconds = 0;           // wall time
  std::size_t moves_done = 0;   // root moves proven
  std::size_t moves_total = 0;  // legal moves at the root
  std::size_t symmetries = 1;   // symmetries used (1 = identity only)
};

// The threads a solve runs for `asked`: from 1 to the number of cores the machine has (more
// would only take turns on the cores, each holding a copy of the position).
int solver_threads(int asked);
// The bytes the table takes for SolverOptions::table_bytes `asked`.
std::size_t solver_table_bytes(std::size_t asked);
// Throws tanbo::Error, naming the table's size and the memory limit (memory_limit(), as for
// boards), when the table does not fit in the room the limit leaves. A Solver checks it when
// it is made, before the table is allocated.
void check_solver_memory(const SolverOptions& options);

// A solver with its transposition table, kept between calls (positions proven once are known
// at once afterwards; the table holds nothing about a particular board, so one solver serves
// any position of its board; a new board clears it).
class Solver {
 public:
  explicit Solver(SolverOptions options = {});
  ~Solver();
  Solver(Solver&&) noexcept;
  Solver& operator=(Solver&&) noexcept;

  // Solves pos for its side to move. Throws tanbo::Error when the game is over or has more
  // than two players. Stops at the first limit reached (result.solved false); the time limit
  // counts from the call, setup included (the board's symmetries, the table). Any length of
  // game: the searches keep their own stacks, not the thread's.
  SolveResult solve(const Position& pos, const SolveLimits& limits = {});
  // Empties the table.
  void clear();
  const SolverOptions& options() const;
  // Changes the options of the solves to come, keeping the table: how they search (method,
  // threads, all_moves, progress, policy). `table_bytes` and `symmetry` must be the solver's
  // own (tanbo::Error otherwise): they shape the table. Not while a solve runs.
  void set_options(SolverOptions options);

  // ---- for checkpoints (solver_checkpoint.hpp)
  // Readies the solver for pos's board as solve(pos) does (a new board empties the table).
  void prepare(const Position& pos);
  // The table's size in 64-bit words (buckets of four: two slots of a check word and data).
  std::size_t table_words() const;
  // Copies the table's words from `first` into `out`. Safe while a solve runs on the board the
  // solver is prepared for (call prepare first): a slot torn by a search writing it reads as a
  // miss, as it does for the searches. (A solve of another board empties the table, and its
  // memory with it, as it starts.)
  void read_table(std::size_t first, std::span<std::uint64_t> out) const;
  // Takes words from `first` of a table of `source_words` words (read_table's, of a solver of
  // this board and the same symmetry setting): copied in place when the sizes agree, else each
  // entry stored again by its key (a smaller table keeps those whose proofs took the most work).
  void write_table(std::size_t first, std::span<const std::uint64_t> words,
                   std::size_t source_words);
  // The nodes the solve running now has searched (counted every few thousand), 0 between
  // solves. Safe to call from another thread.
  std::uint64_t running_nodes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tanbo
