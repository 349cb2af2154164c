#include "tanbo/ai/mcts.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mcts_budget.hpp"
#include "mcts_memory.hpp"
#include "mcts_tree.hpp"
#include "reply_table.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"

namespace tanbo {

// ---------------------------------------------------------------- the search

namespace {

using Clock = std::chrono::steady_clock;

using detail::Block;
using detail::Node;
using detail::RootTally;
using detail::Tree;

// Shared limits of one search.
struct Limits {
  std::uint64_t playouts = 0;  // 0 = none
  bool has_deadline = false;
  Clock::time_point deadline;
  std::atomic<std::uint64_t> started{0};
  const std::atomic<bool>* stop = nullptr;  // set by Mcts::stop()

  // Whether the search must end: stopped, or past its deadline.
  bool over() const {
    return stop->load(std::memory_order_relaxed) || (has_deadline && Clock::now() >= deadline);
  }
  // Claims the right to run one more playout.
  bool claim() {
    if (over()) return false;
    if (playouts == 0) return true;
    return started.fetch_add(1, std::memory_order_relaxed) < playouts;
  }
};

using detail::ReplyTable;
using detail::Step;

// One search thread: its own scratch position, random numbers and AMAF marks.
class Worker {
 public:
  Worker(const MctsConfig& config, const Policy& policy, const Position& root, std::uint64_t seed)
      : config_(config),
        policy_(policy),
        root_(root),
        scratch_(root),
        rng_(seed),
        n_(root.num_vertices()),
        marks_(static_cast<std::size_t>(root.num_players()) * root.num_vertices(), 0),
        proofs_(root.num_players() == 2) {
    explore_ = exploration_constant(config, root.graph());
    if (config.last_good_reply) replies_ = ReplyTable(root.num_players(), n_);
    if (root.ply() > 0) root_last_ = root.last_move().vertex;
    root_.clear_history();  // each playout starts from a copy: without the record it is cheaper
  }

  // Runs playouts until a limit is reached or the root is proven.
  void run(Tree& tree, Limits& limits, bool shared, detail::TreeBudget budget) {
    budget_ = budget;
    while (!root_proven_ && limits.claim()) iterate(tree, shared, limits);
  }

  std::uint64_t playouts = 0;
  std::uint64_t playout_moves = 0;
  std::uint64_t transpositions = 0;  // expansions that found their position's children in the table

 private:
  std::uint32_t select(const Tree& tree, const Node& parent) const {
    if (parent.win_child) return parent.win_child;  // a move that ends the game: take it
    const double log_n = std::log(static_cast<double>(std::max<std::uint32_t>(parent.n, 1)));
    double best = -1e300;
    std::uint32_t best_i = parent.first;
    for (std::uint32_t i = parent.first; i < parent.first + parent.count; ++i) {
      const Node& c = tree.nodes[i];
      if (c.proof > 0) return i;  // proven to win for the mover: nothing else to look at
      if (c.proof < 0) continue;  // proven to lose: never (all proven lost: the first)
      double value;
      const double explore = explore_ * std::sqrt(log_n / (c.n + 1.0));
      if (config_.rave && c.an > 0) {
        const double beta =
            std::sqrt(config_.rave_equivalence / (3.0 * c.n + config_.rave_equivalence));
        const double qa = c.aw / c.an;
        const double q = c.n > 0 ? c.w / c.n : qa;
        value = (1.0 - beta) * q + beta * qa + explore;
      } else if (c.n > 0) {
        value = c.w / c.n + explore;
      } else {
        value = 1.0 + explore;  // first-play urgency: try unvisited moves
      }
      if (value > best) {
        best = value;
        best_i = i;
      }
    }
    return best_i;
  }

  void expand(Tree& tree, std::uint32_t index) {
    const std::uint64_t key = scratch_.hash();
    if (config_.transpositions) {
      // The same position reached by another line: its children (and their statistics) are
      // shared.
      if (const auto it = tree.blocks.find(key);
          it != tree.blocks.end() && holds_legal_moves(tree, it->second)) {
        give_children(tree.nodes[index], it->second);
        ++transpositions;
        return;
      }
    }
    const Player p = scratch_.to_move();
    const std::uint32_t count = scratch_.legal_count(p);
    if (tree.nodes.size() + count > budget_.nodes) return;
    // The array grows by doubling, but never past the budget (doubling could take it to twice).
    if (tree.nodes.capacity() < tree.nodes.size() + count) {
      tree.nodes.reserve(
          std::min(budget_.nodes, std::max(2 * tree.nodes.capacity(), tree.nodes.size() + count)));
    }
    const std::uint32_t first = static_cast<std::uint32_t>(tree.nodes.size());
    const std::vector<Vertex> moves = scratch_.legal_moves(p);  // vertex order: deterministic
    std::uint32_t win = 0;
    for (Vertex v : moves) {
      Node c;
      c.move = v;
      c.player = p;
      if (!win && move_wins_at_once(scratch_, p, v))
        win = static_cast<std::uint32_t>(tree.nodes.size());
      tree.nodes.push_back(c);
    }
    if (config_.prior_visits > 0) {
      // Knowledge as AMAF priors: each child starts with `prior_visits` AMAF visits holding its
      // share of as many wins, the policy's prior.
      const Vertex last = index == 0 ? root_last_ : tree.nodes[index].move;
      policy_.prior_shares(scratch_, last, moves, shares_, policy_scratch_);
      for (std::uint32_t i = 0; i < moves.size(); ++i) {
        Node& c = tree.nodes[first + i];
        c.an = config_.prior_visits;
        c.aw = static_cast<float>(config_.prior_visits * shares_[i]);
      }
    }
    const Block block{first, count, win};
    give_children(tree.nodes[index], block);
    if (config_.transpositions && tree.blocks.size() < budget_.blocks) tree.blocks[key] = block;
  }

  static void give_children(Node& node, const Block& block) {
    node.first = block.first;
    node.count = block.count;
    node.win_child = block.win_child;
    node.expanded = true;
  }

  // Whether the block's moves are the legal moves of the scratch position, as a block found by
  // its position's hash must be: a check that makes a collision of two hashes (some 10^-11 a
  // search) a miss, never an illegal move in the tree. It runs on transpositions only (3 to 7%
  // of the expansions on 9x9).
  bool holds_legal_moves(const Tree& tree, const Block& block) const {
    const Player p = scratch_.to_move();
    if (block.count != scratch_.legal_count(p)) return false;
    for (std::uint32_t i = block.first; i < block.first + block.count; ++i) {
      if (tree.nodes[i].player != p || !scratch_.is_legal_point(p, tree.nodes[i].move))
        return false;
    }
    return true;
  }

  // One playout: down the tree (go_down), to the end of the game (playout), and the result
  // back up the path (back_up).
  void iterate(Tree& tree, bool shared, const Limits& limits) {
    scratch_ = root_;
    path_.clear();
    steps_.clear();
    if (!go_down(tree, shared)) return;
    const Player winner = playout(limits);
    if (winner == kEmpty) return;  // cut off by the search's end: it counts for nothing
    if (config_.last_good_reply) replies_.learn(steps_, winner);
    back_up(tree, shared, winner);
  }

  // Down the tree from the root to a leaf, virtual losses on the way; a leaf with enough
  // visits gets its children, and the descent goes one step into them (one new level a
  // playout: with expand=1 it would otherwise expand every node down to the end of the game).
  // False when the root is proven (no playout is needed).
  bool go_down(Tree& tree, bool shared) {
    std::unique_lock<std::mutex> lock(tree.mu, std::defer_lock);
    if (shared) lock.lock();
    if (proofs_ && tree.nodes[0].proof != 0) {
      root_proven_ = true;
      return false;
    }
    std::uint32_t index = 0;
    path_.push_back(0);
    ++tree.nodes[0].n;
    for (bool grown = false; !grown && !scratch_.is_over();) {
      if (!tree.nodes[index].expanded) {
        if (index != 0 && tree.nodes[index].n < config_.expand_visits) break;
        expand(tree, index);
        if (!tree.nodes[index].expanded) break;
        grown = true;
      }
      const std::uint32_t child = select(tree, tree.nodes[index]);
      Node& c = tree.nodes[child];
      ++c.n;  // counts as a loss until the playout returns (virtual loss)
      steps_.push_back({c.player, c.move});
      scratch_.play(c.move);
      path_.push_back(child);
      index = child;
    }
    return true;
  }

  // Plays the game out from the leaf; returns the winner (a playout cut off by the safety net
  // counts the player with the most stones as the winner), or kEmpty when the search ended
  // meanwhile: the limits are looked at every kPlayoutCheck moves, since one playout on a board of
  // a million points takes about a second.
  Player playout(const Limits& limits) {
    constexpr std::uint64_t kPlayoutCheck = 4096;
    std::uint64_t moves = 0;
    const std::uint64_t cap = 50ull * n_ + 1000;  // never reached by the rules; a safety net
    const bool record = config_.rave || config_.last_good_reply;
    while (!scratch_.is_over() && moves < cap) {
      if (moves % kPlayoutCheck == kPlayoutCheck - 1 && limits.over()) return kEmpty;
      const Player p = scratch_.to_move();
      const Vertex v = playout_move(p, moves);
      scratch_.play(v);
      if (record) steps_.push_back({p, v});
      ++moves;
    }
    ++playouts;
    playout_moves += moves;
    last_playout_moves_ = moves;
    Player winner = scratch_.winner();
    if (winner == kEmpty) {
      std::uint32_t most = 0;
      for (Player q = 1; q <= scratch_.num_players(); ++q) {
        if (scratch_.stones(q) > most) most = scratch_.stones(q), winner = q;
      }
    }
    return winner;
  }

  // The result up the path: wins, a proof when the game ended inside the tree, and the AMAF
  // statistics (rave).
  void back_up(Tree& tree, bool shared, Player winner) {
    const bool ended_in_tree = last_playout_moves_ == 0 && scratch_.is_over();
    std::unique_lock<std::mutex> lock(tree.mu, std::defer_lock);
    if (shared) lock.lock();
    if (proofs_ && ended_in_tree) back_up_proof(tree, winner);
    for (std::uint32_t idx : path_) {
      Node& node = tree.nodes[idx];
      if (node.player == winner) node.w += 1.0f;
    }
    if (config_.rave) back_up_amaf(tree, winner);
  }

  // AMAF: a child of the node at depth d gets the result when its player played its move at
  // any step from d on. Walks the steps backwards, marking (player, vertex) pairs.
  void back_up_amaf(Tree& tree, Player winner) {
    ++stamp_;
    if (stamp_ == 0) {
      std::fill(marks_.begin(), marks_.end(), 0);
      stamp_ = 1;
    }
    std::size_t j = steps_.size();
    for (std::size_t d = path_.size(); d-- > 0;) {
      while (j > d) {
        --j;
        marks_[(steps_[j].player - 1u) * std::size_t{n_} + steps_[j].vertex] = stamp_;
      }
      const Node& node = tree.nodes[path_[d]];
      if (!node.expanded) continue;
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
        Node& c = tree.nodes[i];
        if (marks_[(c.player - 1u) * std::size_t{n_} + c.move] == stamp_) {
          ++c.an;
          if (c.player == winner) c.aw += 1.0f;
        }
      }
    }
  }

  // The next playout move of p, after `moves` moves of the playout: the policy's choice, given
  // the last good reply to the move before as the search's suggestion (last_good_reply). One
  // virtual call a move: the search's rate with it stayed within 1.1% of direct calls (LTO,
  // 19x19 and 9x9), inside the noise, so there is no fast path for TanboPolicy here.
  Vertex playout_move(Player p, std::uint64_t moves) {
    PlayoutTurn turn;
    turn.ply = moves;
    if (config_.last_good_reply && !steps_.empty())
      turn.suggestion = replies_.reply(p, steps_.back().vertex);
    return policy_.playout_move(scratch_, turn, rng_, policy_scratch_);
  }

  // The game ended at the last node of the path: that node is proven, and so is every node
  // above it whose mover then has a proven winning move (it loses) or only proven losing
  // moves (it wins).
  void back_up_proof(Tree& tree, Player winner) {
    Node& leaf = tree.nodes[path_.back()];
    leaf.proof = leaf.player == winner ? 1 : -1;
    for (std::size_t d = path_.size() - 1; d > 0; --d) {
      const Node& child = tree.nodes[path_[d]];
      Node& parent = tree.nodes[path_[d - 1]];
      if (child.proof > 0) {
        parent.proof = -1;
      } else {
        for (std::uint32_t i = parent.first; i < parent.first + parent.count; ++i) {
          if (tree.nodes[i].proof >= 0) return;
        }
        parent.proof = 1;
      }
    }
  }

  const MctsConfig& config_;
  detail::TreeBudget budget_;
  const Policy& policy_;          // priors and playout moves
  Position root_;                 // the search's root, without its game record
  Vertex root_last_ = kNoVertex;  // the move that led to the root, if known
  Position scratch_;
  Rng rng_;
  std::uint32_t n_;
  double explore_;
  std::vector<std::uint32_t> marks_;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> path_;
  std::vector<Step> steps_;
  PolicyScratch policy_scratch_;  // this thread's room in the policy
  ReplyTable replies_;  // last_good_reply: the last good replies of this search (reply_table.hpp)
  std::vector<double> shares_;            // expansion with priors: the children's shares of wins
  bool proofs_;                           // two players: proofs are backed up (MCTS-solver)
  bool root_proven_ = false;              // the root's value is proven: no more playouts
  std::uint64_t last_playout_moves_ = 0;  // moves of the last playout (0: ended in the tree)
};

}  // namespace

// A stop request counts only while a search runs: search() marks its start and end under the
// mutex, and stop() sets the flag only between them.
struct Mcts::Control {
  std::mutex mu;
  bool running = false;
  std::atomic<bool> stop{false};
  void begin() {
    std::lock_guard<std::mutex> lock(mu);
    running = true;
    stop = false;
  }
  void end() {
    std::lock_guard<std::mutex> lock(mu);
    running = false;
    stop = false;
  }
  void request() {
    std::lock_guard<std::mutex> lock(mu);
    if (running) stop = true;
  }
};

void Mcts::stop() {
  control_->request();
}

Mcts::Mcts(MctsConfig config, std::uint64_t seed, std::shared_ptr<const Policy> policy)
    : config_(config),
      policy_(std::move(policy)),
      rng_(seed),
      memory_(std::make_unique<Memory>()),
      control_(std::make_unique<Control>()) {
  if (config_.threads < 1) config_.threads = 1;
}
Mcts::~Mcts() = default;
Mcts::Mcts(Mcts&&) noexcept = default;
Mcts& Mcts::operator=(Mcts&&) noexcept = default;

void Mcts::forget() {
  memory_ = std::make_unique<Memory>();
}

void Mcts::free_memory() {
  forget();
  solver_.reset();
}

std::vector<MoveAnalysis> Mcts::analyze(const Position& pos, double budget_seconds) {
  analyzing_ = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{analyzing_};
  search(pos, budget_seconds);
  return analysis_;
}

namespace {

// The limits of one search: the configured playouts and time, the time budget given for this
// move, and 1000 playouts when there is no limit at all.
void set_limits(Limits& limits, const MctsConfig& config, double budget_seconds,
                Clock::time_point t0, const std::atomic<bool>* stop) {
  limits.stop = stop;
  limits.playouts = config.playouts;
  double seconds = config.move_seconds;
  if (budget_seconds > 0) {
    seconds = seconds > 0 ? std::min(seconds, budget_seconds) : budget_seconds;
  }
  if (seconds > 0) {
    limits.has_deadline = true;
    limits.deadline =
        t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  if (limits.playouts == 0 && !limits.has_deadline) limits.playouts = 1000;
}

// Runs one worker per seed: on trees[0] together (one shared tree), or each on its own tree
// (root parallelism), the trees sharing what tree_budget allows. Adds their playouts to `stats`
// and their root children to `tally`; returns the number of tree nodes.
std::uint64_t run_workers(const MctsConfig& config, const Policy& policy, const Position& pos,
                          Limits& limits, const std::vector<std::uint64_t>& seeds, bool one_tree,
                          std::vector<std::unique_ptr<Tree>>& trees, SearchStats& stats,
                          RootTally& tally) {
  const std::size_t threads = seeds.size();
  std::vector<std::unique_ptr<Worker>> workers;
  for (std::size_t t = 0; t < threads; ++t) {
    workers.push_back(std::make_unique<Worker>(config, policy, pos, seeds[t]));
  }
  std::uint64_t held = 0;
  for (const auto& t : trees) held += t->nodes.size();
  const detail::TreeBudget budget = detail::tree_budget(one_tree ? 1 : threads, config.memory_mb,
                                                        limits.playouts, pos.num_vertices(), held);
  if (threads == 1) {
    workers[0]->run(*trees[0], limits, false, budget);
  } else {
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t) {
      Tree& tree = one_tree ? *trees[0] : *trees[t];
      pool.emplace_back([&, t] { workers[t]->run(tree, limits, one_tree, budget); });
    }
    for (auto& th : pool) th.join();
  }
  std::uint64_t nodes = 0;
  for (std::size_t t = 0; t < threads; ++t) {
    stats.playouts += workers[t]->playouts;
    stats.playout_moves += workers[t]->playout_moves;
    stats.transpositions += workers[t]->transpositions;
    if (one_tree && t > 0) continue;
    tally.gather(*trees[t]);
    nodes += trees[t]->nodes.size();
  }
  return nodes;
}

}  // namespace

// A move that needs no search: the only legal move, or one that wins at once.
Vertex Mcts::obvious_move(const Position& pos) {
  const Player me = pos.to_move();
  if (analyzing_) return kNoVertex;
  if (pos.legal_count(me) == 1) {
    stats_.best_visits = 0;
    return pos.legal_move(me, 0);
  }
  for (std::uint32_t i = 0; i < pos.legal_count(me); ++i) {
    if (move_wins_at_once(pos, me, pos.legal_move(me, i))) {
      stats_.best_value = 1.0;
      stats_.proven = 1;
      return pos.legal_move(me, i);
    }
  }
  return kNoVertex;
}

Vertex Mcts::search(const Position& pos, double budget_seconds) {
  const auto t0 = Clock::now();
  stats_ = SearchStats{};
  if (const Vertex v = obvious_move(pos); v != kNoVertex) return v;
  control_->begin();
  struct End {
    Control& control;
    ~End() { control.end(); }
  } end{*control_};

  // The exact solver first: a proven win is played at once.
  bool lost = false;
  const Vertex proven_win =
      solve_root(pos, std::max(config_.move_seconds, budget_seconds), &control_->stop, lost);
  if (proven_win != kNoVertex && !analyzing_) {
    stats_.best_value = 1.0;
    stats_.proven = 1;
    stats_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return proven_win;
  }

  // The trees: kept from the last search where it led here, one or one per thread.
  Limits limits;
  set_limits(limits, config_, budget_seconds, t0, &control_->stop);
  const int threads = std::max(1, config_.threads);
  std::vector<std::uint64_t> seeds(static_cast<std::size_t>(threads));
  for (auto& s : seeds) s = rng_.next();  // from the engine's generator: reproducible per seed
  const bool one_tree = threads == 1 || config_.tree_parallel;
  stats_.reused_visits =
      memory_->adopt(pos, one_tree ? 1 : static_cast<std::size_t>(threads), config_.reuse_tree);

  // The search, and what it says of each move.
  RootTally tally(pos, lost, proven_win);
  const TanboPolicy tanbo(tanbo_policy_options(config_, pos.graph()));
  const Policy& policy = policy_ ? *policy_ : tanbo;
  stats_.nodes =
      run_workers(config_, policy, pos, limits, seeds, one_tree, memory_->trees, stats_, tally);
  const std::vector<std::size_t> order = tally.best_first();
  if (analyzing_) {
    analysis_ = detail::analysis_of(tally, order, *memory_->trees[0]);
    // The solver's proof, not the tree, knows the line of a move it proved before the search.
    if (proven_win != kNoVertex && analysis_.front().move == proven_win) {
      analysis_.front().pv =
          proof_line(pos, proven_win, detail::kLineLength,
                     std::max(config_.move_seconds, budget_seconds), &control_->stop);
    }
  }
  if (config_.reuse_tree) {
    memory_->remember(pos);
  } else {
    memory_->trees.clear();  // frees the tree's memory between moves
  }

  // The best move, and the figures of this search.
  const std::size_t best = order[0];
  stats_.proven = tally.proof[best];
  stats_.best_visits = static_cast<std::uint32_t>(tally.visits[best]);
  stats_.best_value = tally.value(best);
  stats_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  total_.playouts += stats_.playouts;
  total_.playout_moves += stats_.playout_moves;
  total_.nodes += stats_.nodes;
  total_.seconds += stats_.seconds;
  return tally.moves[best];
}

}  // namespace tanbo
