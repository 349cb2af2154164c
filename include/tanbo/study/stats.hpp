// The statistics of matches and studies: win rates with their 95% interval, Elo differences,
// and the sums the games of a match or of a study's board come to.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tanbo/study/games.hpp"

namespace tanbo {

// A 95% (z = 1.96) Wilson score interval for `wins` successes in `n` trials; [0, 1] for n = 0.
struct Interval {
  double lo = 0;
  double hi = 1;
};
Interval wilson_interval(double wins, double n, double z = 1.959963984540054);

// The Elo difference that makes a score rate p expected: -400 log10(1/p - 1); +-infinity at
// p = 1 and p = 0.
double elo_from_rate(double p);

// Text of a number in Elo with sign ("+191", "-35", "+inf").
std::string format_elo(double elo);

// What the games of a match came to, per player (index = place in --players) and per seat.
struct MatchTally {
  explicit MatchTally(int k)
      : wins(k, 0),
        seat_wins(k, std::vector<std::uint64_t>(k, 0)),
        seat_games(k, std::vector<std::uint64_t>(k, 0)),
        playouts(k, 0),
        seconds(k, 0) {}
  std::vector<std::uint64_t> wins;
  std::vector<std::vector<std::uint64_t>> seat_wins;   // [player][seat - 1]
  std::vector<std::vector<std::uint64_t>> seat_games;  // [player][seat - 1]
  std::vector<std::uint64_t> playouts;
  std::vector<double> seconds;
  std::uint64_t unfinished = 0, length_sum = 0;
  double wall = 0;  // seconds for the whole match
};

// Player a's Elo figure of `n` games with its interval (figure, low, high): its wins plus half
// of the unfinished games.
std::array<double, 3> match_elo(const MatchTally& t, int a, double n);

// The sums one topology contributes to a study: integers only, so that shards add up exactly.
struct StudyTally {
  std::string topology;                  // the spec as given in the list
  std::string setup;                     // the setup name ("default" when not given)
  std::uint64_t games = 0;               // games played
  std::uint64_t first_wins = 0;          // games won by the first player (seat 1, Black)
  std::uint64_t unfinished = 0;          // games cut off without a winner
  std::uint64_t length_sum = 0;          // sum of game lengths (moves)
  std::uint64_t length_sq_sum = 0;       // sum of squared game lengths
  std::uint64_t removals_sum = 0;        // sum of roots removed per game
  std::vector<std::uint64_t> seat_wins;  // wins per seat (seat 1 first)

  void add(const GameResult& r, int seats);
  void merge(const StudyTally& other);  // adds another shard's sums (same topology)
  double first_rate() const { return games ? static_cast<double>(first_wins) / games : 0; }
  double mean_length() const;
  double sd_length() const;  // sample standard deviation (0 below two games)
  double removals_per_game() const;
};

// Adds `more` into `into`, matching topologies by (topology, setup); new ones are appended.
void merge_tallies(std::vector<StudyTally>& into, const std::vector<StudyTally>& more);

}  // namespace tanbo
