// The value model: the probability that the side to move wins a two-player position, learnt
// from the outcomes of self-play games, which the search mixes with its playouts' results
// (MctsConfig::value).
//
// A position is described by kValueFeatures numbers read from the rules engine's counts, none
// from the board's shape: the stones, roots, root space (summed as square roots), roots down
// to one, two or three points and legal moves of the side to move and of its opponent. The
// probability is the logistic function of their weighted sum. The weights were fitted to the
// outcomes of self-play games on 9x9 (examples/value-model: the program that writes the data
// and the script that fits them).
#pragma once

#include <array>

#include "tanbo/core/position.hpp"

namespace tanbo {

// Number of features of a position.
inline constexpr int kValueFeatures = 15;
using ValueFeatures = std::array<float, kValueFeatures>;

// The name of feature i (0 <= i < kValueFeatures), for the data and the fitting script.
const char* value_feature_name(int i);

// Writes the features of pos (two players, game not over) into out, from the side of the
// player to move.
void value_features(const Position& pos, ValueFeatures& out);

// The model's probability that the side to move wins, from the features.
double value_of_features(const ValueFeatures& features);

// The model's probability that the side to move of pos (two players, game not over) wins.
double value_estimate(const Position& pos);

}  // namespace tanbo
