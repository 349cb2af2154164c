// The move model: the features of a move (the neighbourhood of its point, and what it changes
// in the roots once played) and the fitted weights that score them.
#include "tanbo/ai/move_model.hpp"

#include <algorithm>
#include <cmath>

namespace tanbo {
namespace {

// The fitted weights, in the order of kFeatureNames: written by
// examples/move-model/fit.py from the data of examples/move-model/data.cpp (see the README
// there for the commands).
constexpr std::array<double, kMoveFeatures> kWeights = {
    // clang-format off
    -0.8437, -1.9915, 2.6843, 1.1028, -1.6408, -2.3550, -6.8574, -1.0428, 0.9960, 0.3325, 0.4554, -0.1920, -0.1200, -0.8981, 0.2870, -0.0796, -0.1341, 0.2292, 0.2026, 0.2693, 2.3032, -0.2797, -0.7744, -0.3148, 0.0358, -0.1501, -0.0612, -0.2079,
    // clang-format on
};

constexpr std::array<const char*, kMoveFeatures> kFeatureNames = {
    "edge",               // 0: the point has fewer neighbours than the board's largest degree
    "corner",             // 1: at least two fewer
    "others_adjacent_0",  // 2-5: other players' stones next to the point: 0, 1, 2, 3 or more
    "others_adjacent_1", "others_adjacent_2", "others_adjacent_3",
    "empty_fraction",  // 6: empty neighbours over the degree
    "no_empty",        // 7: no empty neighbour
    "next_to_last",    // 8: the point touches the move before
    "near_last",       // 9: two steps from the move before
    "wins",            // 10: the move ends the game, won
    "takes",           // 11: the move removes other players' stones
    "log_taken",       // 12: log(1 + stones removed from the others)
    "loses",           // 13: the move removes stones of the mover (its own root bounded,
                       //     or another of its roots whose space the stone takes)
    "log_lost",        // 14: log(1 + the mover's stones removed, the new one included)
    "joined_space_1",  // 15-19: root space of the joined root after the move: 1, 2, 3,
    "joined_space_2",  //        4 or 5, 6 or more (none of them: 0, the root is bounded)
    "joined_space_3", "joined_space_4_5", "joined_space_6",
    "own_space_change",    // 20: change of the sum of sqrt(space) over the mover's roots
    "other_space_change",  // 21: the same over the other players' roots
    "own_at_1_change",     // 22: change of the mover's roots with one point of space
    "own_at_2_3_change",   // 23: with two or three
    "other_at_1_change",   // 24: change of the other players' roots with one point of space
    "other_at_2_change",   // 25: with two
    "other_at_3_change",   // 26: with three
    "log_joined_size",     // 27: log(1 + stones of the root the stone joins)
};

// Root counts of one side of the board: the mover's or the other players'.
struct RootCounts {
  double space = 0;              // sum of sqrt(root space)
  std::uint32_t short_[3] = {};  // roots with 1, 2, 3 points of root space
};

void count_roots(const Position& pos, Player me, RootCounts& own, RootCounts& other) {
  for (RootId r = 0; r < pos.num_root_ids(); ++r) {
    if (!pos.root_alive(r)) continue;
    const std::uint32_t space = pos.root_space(r);
    RootCounts& side = pos.root_owner(r) == me ? own : other;
    side.space += std::sqrt(static_cast<double>(space));
    if (space >= 1 && space <= 3) ++side.short_[space - 1];
  }
}

std::uint32_t stones_of_others(const Position& pos, Player me) {
  std::uint32_t n = 0;
  for (Player q = 1; q <= pos.num_players(); ++q) {
    if (q != me) n += pos.stones(q);
  }
  return n;
}

// Features 0-9 and 15-19, 27: the point and its neighbourhood as the board stands.
void neighbourhood_features(const Position& pos, const PositionSummary& before, Vertex v,
                            MoveFeatures& out) {
  const Graph& g = pos.graph();
  const std::uint32_t degree = g.degree(v);
  std::uint32_t empty = 0, others = 0;
  bool next_to_last = false;
  for (Vertex w : g.neighbours(v)) {
    const Player q = pos.at(w);
    if (q == kEmpty) {
      ++empty;
    } else if (q != before.me) {
      ++others;
    }
    next_to_last = next_to_last || w == before.last;
  }
  bool near_last = false;
  if (before.last != kNoVertex && !next_to_last) {
    for (Vertex w : g.neighbours(v)) {
      for (Vertex x : g.neighbours(w)) near_last = near_last || x == before.last;
    }
  }
  out[0] = degree < before.max_degree;
  out[1] = degree + 2 <= before.max_degree;
  out[2 + std::min<std::uint32_t>(others, 3)] = 1;
  out[6] = degree ? static_cast<float>(empty) / static_cast<float>(degree) : 0.0f;
  out[7] = empty == 0;
  out[8] = next_to_last;
  out[9] = near_last;
  const std::uint32_t joined_space = pos.joined_space_after(before.me, v);
  if (joined_space >= 1) {
    const std::uint32_t bucket = joined_space <= 3 ? joined_space - 1 : joined_space <= 5 ? 3 : 4;
    out[15 + bucket] = 1;
  }
  const RootId joined = pos.joined_root(before.me, v);
  out[27] = joined == kNoRoot ? 0.0f : std::log1p(static_cast<float>(pos.root_size(joined)));
}

// Features 10-14 and 20-26: what the move changes, read after playing it.
void outcome_features(Position& pos, const PositionSummary& before, Vertex v, MoveFeatures& out) {
  const Player me = before.me;
  pos.play(v);
  const double taken = static_cast<double>(before.other_stones) - stones_of_others(pos, me);
  const double lost = static_cast<double>(before.own_stones) + 1.0 - pos.stones(me);
  RootCounts own, other;
  count_roots(pos, me, own, other);
  out[10] = pos.is_over() && pos.winner() == me;
  pos.undo();
  out[11] = taken > 0;
  out[12] = static_cast<float>(std::log1p(std::max(0.0, taken)));
  out[13] = lost > 0;
  out[14] = static_cast<float>(std::log1p(std::max(0.0, lost)));
  out[20] = static_cast<float>(own.space - before.own_space);
  out[21] = static_cast<float>(other.space - before.other_space);
  out[22] = static_cast<float>(own.short_[0]) - static_cast<float>(before.own_short[0]);
  out[23] = static_cast<float>(own.short_[1] + own.short_[2]) -
            static_cast<float>(before.own_short[1] + before.own_short[2]);
  out[24] = static_cast<float>(other.short_[0]) - static_cast<float>(before.other_short[0]);
  out[25] = static_cast<float>(other.short_[1]) - static_cast<float>(before.other_short[1]);
  out[26] = static_cast<float>(other.short_[2]) - static_cast<float>(before.other_short[2]);
}

}  // namespace

const char* move_feature_name(int i) {
  return i >= 0 && i < kMoveFeatures ? kFeatureNames[static_cast<std::size_t>(i)] : "";
}

PositionSummary summarize(const Position& pos, Vertex last) {
  PositionSummary s;
  s.me = pos.to_move();
  s.last = last;
  s.max_degree = pos.graph().max_degree();
  RootCounts own, other;
  count_roots(pos, s.me, own, other);
  s.own_space = own.space;
  s.other_space = other.space;
  for (int i = 0; i < 3; ++i) {
    s.own_short[i] = own.short_[i];
    s.other_short[i] = other.short_[i];
  }
  s.own_stones = pos.stones(s.me);
  s.other_stones = stones_of_others(pos, s.me);
  return s;
}

void move_features(Position& pos, const PositionSummary& before, Vertex v, MoveFeatures& out) {
  out.fill(0.0f);
  neighbourhood_features(pos, before, v, out);
  outcome_features(pos, before, v, out);
}

double move_score(const MoveFeatures& features) {
  double z = 0;
  for (std::size_t i = 0; i < features.size(); ++i) z += kWeights[i] * features[i];
  return z;
}

void move_model_shares(Position& pos, Vertex last, std::span<const Vertex> moves,
                       std::vector<double>& shares) {
  const PositionSummary summary = summarize(pos, last);
  MoveFeatures features;
  shares.clear();
  double best = -1e300;
  for (Vertex v : moves) {
    move_features(pos, summary, v, features);
    shares.push_back(move_score(features));
    best = std::max(best, shares.back());
  }
  for (double& s : shares) s = std::exp(s - best);
}

}  // namespace tanbo
