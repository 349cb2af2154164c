// The move model: a score for every legal move, learnt from the choices of searches, that
// seeds the priors of the search tree (MctsConfig::move_model_priors, TanboPolicy).
//
// A move is described by kMoveFeatures numbers, all read from the rules engine's counts and
// none from the board's shape, so one model applies to every graph: the point's neighbourhood
// (its degree against the board's largest, the other players' stones and the empty points
// around it, whether it touches the move before), the root space the stone's root will have,
// and what the move changes in the roots of both sides once played (stones taken and lost,
// space, roots down to one, two or three points). The score is a weighted sum of the features
// (a logit: the model gives a move the probability exp(score) over the sum of exp(score) of
// the legal moves). The weights were fitted to the visits of 5,000-playout searches on 9x9
// (examples/move-model: the program that writes the data and the script that fits them).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "tanbo/core/position.hpp"

namespace tanbo {

// Number of features of a move.
inline constexpr int kMoveFeatures = 28;
using MoveFeatures = std::array<float, kMoveFeatures>;

// The name of feature i (0 <= i < kMoveFeatures), for the data and the fitting script.
const char* move_feature_name(int i);

// What the features of every move of one position share: counts of the position before the
// move, read once per position.
struct PositionSummary {
  Player me = kEmpty;                 // the side to move
  Vertex last = kNoVertex;            // the move before (another player's), if known
  std::uint32_t max_degree = 0;       // the board's largest degree
  double own_space = 0;               // sum over the mover's roots of sqrt(root space)
  double other_space = 0;             // the same over the other players' roots
  std::uint32_t own_short[3] = {};    // the mover's roots with 1, 2, 3 points of root space
  std::uint32_t other_short[3] = {};  // the other players' roots with 1, 2, 3 points
  std::uint32_t own_stones = 0;       // the mover's stones
  std::uint32_t other_stones = 0;     // the other players' stones
};

// The summary of pos (a game not over); last is the move that led to it, or kNoVertex.
PositionSummary summarize(const Position& pos, Vertex last);

// Writes the features of the mover's legal move v into out. Plays v on pos and takes it back,
// so pos must keep its game record (Position::recording()); it is unchanged on return.
void move_features(Position& pos, const PositionSummary& before, Vertex v, MoveFeatures& out);

// The model's score of a move from its features.
double move_score(const MoveFeatures& features);

// The move model's priors (MctsConfig::move_model_priors): shares[i], the share of the AMAF prior
// wins that moves[i] (legal for the side to move of pos) starts with, exp(s_i - s_max), s_i the
// model's score of the move: 1 for the model's favourite, 1/e for a move it finds e times less
// likely. last is the move that led to pos, or kNoVertex. Plays each move and takes it back.
void move_model_shares(Position& pos, Vertex last, std::span<const Vertex> moves,
                       std::vector<double>& shares);

}  // namespace tanbo
