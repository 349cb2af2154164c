// Proof certificates from the solver (include/tanbo/ai/proof_writer.hpp).
#include "tanbo/ai/proof_writer.hpp"

#include <chrono>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/platform/ticker.hpp"
#include "tanbo/proof/position_set.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo {

namespace {

std::vector<Player> stones_of(const Position& pos) {
  std::vector<Player> stones(pos.num_vertices());
  for (Vertex v = 0; v < stones.size(); ++v) stones[v] = pos.at(v);
  return stones;
}

}  // namespace

std::string proof_position(const Position& pos) {
  return proof::position_text(pos.topology(), stones_of(pos), pos.num_players());
}

std::string proof_header(const Position& pos, Player winner) {
  std::string moves;
  for (const MoveRecord& m : pos.history()) {
    if (m.vertex != kNoVertex) moves += " " + pos.topology().name(m.vertex);
  }
  return std::string(proof::kMagic) + "\ntopology " + pos.topology().spec + "\n" +
         dot_lines(pos.topology()) + "setup " + pos.setup().name + "\nmoves" + moves + "\nwinner " +
         std::string(player_name(winner)) + "\n";
}

namespace {

// The moves of a position still to be followed.
struct Frame {
  std::vector<Vertex> moves;
  std::size_t next = 0;
};

// The solver searches for the proof: the first winning move, one thread, no progress lines;
// its own options come back when the walk ends.
class ProofSearch {
 public:
  explicit ProofSearch(Solver& solver) : solver_(solver), saved_(solver.options()) {
    SolverOptions o = saved_;
    o.all_moves = false;
    o.threads = 1;
    o.progress = nullptr;
    o.progress_every = 0;
    solver_.set_options(std::move(o));
  }
  ~ProofSearch() { solver_.set_options(saved_); }
  ProofSearch(const ProofSearch&) = delete;
  ProofSearch& operator=(const ProofSearch&) = delete;
  Solver& operator*() { return solver_; }

 private:
  Solver& solver_;
  SolverOptions saved_;
};

class ProofWalk {
 public:
  using Progress = std::function<void(const ProofStats&)>;

  ProofWalk(Solver& solver, const Position& pos, Player winner, const SolveLimits& limits,
            const ProofSink& sink, const Progress& progress, double every)
      : pos_(pos),
        winner_(winner),
        search_(solver),
        limits_(limits),
        text_(sink),
        progress_(progress),
        every_(progress ? every : 0) {}

  ProofStats run() {
    text_.add(proof_header(pos_, winner_));
    expand();
    while (!stack_.empty()) {
      if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) {
        throw Error("stopped before the certificate was complete");
      }
      Frame& top = stack_.back();
      if (top.next == top.moves.size()) {
        stack_.pop_back();
        if (!stack_.empty()) pos_.undo();
        continue;
      }
      const Vertex v = top.moves[top.next++];
      pos_.play(v);
      if (!expand()) pos_.undo();
      if (every_.due()) progress_({lines_, seen_.size(), every_.elapsed()});
    }
    text_.flush();
    return {lines_, seen_.size(), 0};
  }

 private:
  // Adds the position's moves to follow as a frame; false when there is nothing to follow.
  bool expand() {
    if (pos_.is_over()) {
      if (pos_.winner() != winner_) throw Error("the proof reached a game the winner loses");
      return false;
    }
    const std::vector<Player> stones = stones_of(pos_);
    proof::position_key(stones, pos_.num_players(), pos_.to_move(), key_);
    if (!seen_.insert(key_).second) return false;
    if (pos_.to_move() != winner_) {
      stack_.push_back({pos_.legal_moves(pos_.to_move()), 0});
      return true;
    }
    Vertex move = move_into_proof();
    if (move == kNoVertex) {
      const SolveResult r = (*search_).solve(pos_, limits_);
      if (!r.solved) throw Error("a limit stopped the search before the proof was complete");
      if (r.winner != winner_) throw Error(std::string(player_name(winner_)) + " does not win");
      move = r.best;
    }
    text_.add_line(pos_.topology(), stones, pos_.num_players(), move);
    ++lines_;
    stack_.push_back({{move}, 0});
    return true;
  }

  // A move of the winner into a position the proof holds already (the other player to move
  // there, reached from elsewhere: a position the winner wins), which costs the certificate no
  // position more; kNoVertex when there is none.
  Vertex move_into_proof() {
    for (const Vertex v : pos_.legal_moves(winner_)) {
      pos_.play(v);
      bool known = false;
      if (!pos_.is_over()) {
        proof::position_key(stones_of(pos_), pos_.num_players(), pos_.to_move(), probe_);
        known = seen_.find(probe_) != nullptr;
      }
      pos_.undo();
      if (known) return v;
    }
    return kNoVertex;
  }

  Position pos_;
  Player winner_;
  ProofSearch search_;
  const SolveLimits& limits_;
  std::vector<Frame> stack_;
  proof::PositionSet seen_;  // positions expanded, with the side to move
  std::string key_, probe_;
  proof::CertificateText text_;  // the certificate on its way to the sink
  std::uint64_t lines_ = 0;
  const Progress& progress_;
  Every every_;  // when a progress call is due
};

}  // namespace

ProofStats write_proof(Solver& solver, const Position& pos, Player winner,
                       const SolveLimits& limits, const ProofSink& sink,
                       const std::function<void(const ProofStats&)>& progress,
                       double progress_every) {
  if (pos.num_players() != 2) throw Error("proofs need two players");
  proof::check_names(pos.topology());
  const auto start = std::chrono::steady_clock::now();
  ProofStats stats = ProofWalk(solver, pos, winner, limits, sink, progress, progress_every).run();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

std::string write_proof(const Position& pos, Player winner, SolverOptions options,
                        const SolveLimits& limits, ProofStats* stats) {
  Solver solver(std::move(options));
  std::string text;
  const ProofStats s =
      write_proof(solver, pos, winner, limits, [&text](std::string_view piece) { text += piece; });
  if (stats) *stats = s;
  return text;
}

}  // namespace tanbo
