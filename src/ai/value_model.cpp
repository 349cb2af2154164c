// The value model: the features of a position and the fitted weights that judge it.
#include "tanbo/ai/value_model.hpp"

#include <cmath>

#include "tanbo/ai/move_model.hpp"

namespace tanbo {
namespace {

// The fitted weights, in the order of kFeatureNames: written by examples/value-model/fit.py
// from the data of examples/value-model/data.cpp (see the README there for the commands).
constexpr std::array<double, kValueFeatures> kWeights = {
    // clang-format off
    0.2302, -0.3243, -0.6015, 0.4008, -0.3974, 1.6227, -1.6162, -0.3263, -0.4535, -0.2731, -0.1079, 0.3117, 0.2092, 0.4195, -0.4297,
    // clang-format on
};

constexpr std::array<const char*, kValueFeatures> kFeatureNames = {
    "bias",          // 0: 1
    "own_stones",    // 1: the mover's stones over the board's points
    "other_stones",  // 2: the opponent's
    "own_roots",     // 3: the mover's live roots
    "other_roots",   // 4: the opponent's
    "own_space",     // 5: sum over the mover's roots of sqrt(root space)
    "other_space",   // 6: the same over the opponent's
    "own_at_1",      // 7-9: the mover's roots with 1, 2, 3 points of root space
    "own_at_2",     "own_at_3",
    "other_at_1",  // 10-12: the opponent's
    "other_at_2",   "other_at_3",
    "own_legal",    // 13: the mover's legal moves over the board's points
    "other_legal",  // 14: the opponent's
};

}  // namespace

const char* value_feature_name(int i) {
  return i >= 0 && i < kValueFeatures ? kFeatureNames[static_cast<std::size_t>(i)] : "";
}

void value_features(const Position& pos, ValueFeatures& out) {
  const PositionSummary s = summarize(pos, kNoVertex);
  const Player other = pos.next_player();
  const float n = static_cast<float>(pos.num_vertices());
  out[0] = 1;
  out[1] = static_cast<float>(s.own_stones) / n;
  out[2] = static_cast<float>(s.other_stones) / n;
  out[3] = static_cast<float>(pos.roots_alive(s.me));
  out[4] = static_cast<float>(pos.roots_alive(other));
  out[5] = static_cast<float>(s.own_space);
  out[6] = static_cast<float>(s.other_space);
  for (int i = 0; i < 3; ++i) {
    out[7 + i] = static_cast<float>(s.own_short[i]);
    out[10 + i] = static_cast<float>(s.other_short[i]);
  }
  out[13] = static_cast<float>(pos.legal_count(s.me)) / n;
  out[14] = static_cast<float>(pos.legal_count(other)) / n;
}

double value_of_features(const ValueFeatures& features) {
  double z = 0;
  for (std::size_t i = 0; i < features.size(); ++i) z += kWeights[i] * features[i];
  return 1.0 / (1.0 + std::exp(-z));
}

double value_estimate(const Position& pos) {
  ValueFeatures features;
  value_features(pos, features);
  return value_of_features(features);
}

}  // namespace tanbo
