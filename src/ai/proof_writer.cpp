// Proof certificates from the solver (include/tanbo/ai/proof_writer.hpp).
#include "tanbo/ai/proof_writer.hpp"

#include <chrono>
#include <unordered_set>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo {

std::string proof_position(const Position& pos) {
  std::vector<Player> stones(pos.num_vertices());
  for (Vertex v = 0; v < stones.size(); ++v) stones[v] = pos.at(v);
  return proof::position_text(pos.topology(), stones, pos.num_players());
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

class ProofWalk {
 public:
  ProofWalk(const Position& pos, Player winner, SolverOptions options, const SolveLimits& limits)
      : pos_(pos), winner_(winner), solver_(std::move(options)), limits_(limits) {}

  std::string run(ProofStats& stats) {
    std::string out = proof_header(pos_, winner_);
    expand(out);
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next == top.moves.size()) {
        stack_.pop_back();
        if (!stack_.empty()) pos_.undo();
        continue;
      }
      const Vertex v = top.moves[top.next++];
      pos_.play(v);
      if (!expand(out)) pos_.undo();
    }
    stats.lines = listed_.size();
    stats.positions = listed_.size() + others_.size();
    return out;
  }

 private:
  // Adds the position's moves to follow as a frame; false when there is nothing to follow.
  bool expand(std::string& out) {
    if (pos_.is_over()) {
      if (pos_.winner() != winner_) throw Error("the proof reached a game the winner loses");
      return false;
    }
    std::string text = proof_position(pos_);
    if (pos_.to_move() != winner_) {
      if (!others_.insert(std::move(text)).second) return false;
      stack_.push_back({pos_.legal_moves(pos_.to_move()), 0});
      return true;
    }
    if (listed_.count(text)) return false;
    const SolveResult r = solver_.solve(pos_, limits_);
    if (!r.solved) throw Error("a limit stopped the search before the proof was complete");
    if (r.winner != winner_) throw Error(std::string(player_name(winner_)) + " does not win");
    out += text + " " + pos_.topology().name(r.best) + "\n";
    listed_.insert(std::move(text));
    stack_.push_back({{r.best}, 0});
    return true;
  }

  Position pos_;
  Player winner_;
  Solver solver_;
  SolveLimits limits_;
  std::vector<Frame> stack_;
  std::unordered_set<std::string> listed_;  // positions listed, the winner to move
  std::unordered_set<std::string> others_;  // positions followed, another player to move
};

}  // namespace

std::string write_proof(const Position& pos, Player winner, SolverOptions options,
                        const SolveLimits& limits, ProofStats* stats) {
  if (pos.num_players() != 2) throw Error("proofs need two players");
  const auto start = std::chrono::steady_clock::now();
  options.all_moves = false;
  options.progress = nullptr;
  ProofStats local;
  std::string text = ProofWalk(pos, winner, std::move(options), limits).run(local);
  local.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (stats) *stats = local;
  return text;
}

}  // namespace tanbo
