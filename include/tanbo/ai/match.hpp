// Games between engine players, and the statistics of matches and topology studies.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tanbo/ai/agent.hpp"
#include "tanbo/core/position.hpp"

namespace tanbo {

// The outcome of one game.
struct GameResult {
  Player winner = kEmpty;           // winning seat (player), kEmpty when cut off
  std::uint32_t plies = 0;          // moves played
  std::uint32_t root_removals = 0;  // roots removed over the game
};

// Plays a game from `pos` to its end: seats[p-1] chooses the moves of player p. Stops after
// `max_plies` moves (0 = 100 moves per board point + 1000, far beyond any game seen), which
// leaves the winner kEmpty. `pos` holds the final position afterwards. Throws tanbo::Error
// when an agent returns an illegal move.
GameResult play_game(Position& pos, const std::vector<Agent*>& seats, std::uint32_t max_plies = 0);

// Seed of the agents of game `game`, seat-independent: agent `agent` of game `game` of a run
// seeded with `seed` (splitmix64 mixing). The same game gets the same seeds in a full run and
// in any shard of it.
std::uint64_t game_seed(std::uint64_t seed, std::uint64_t game, std::uint64_t agent);

// Which agent sits in seat s (1-based) of game g when k agents alternate: (s - 1 + g) mod k.
inline int agent_in_seat(int seat, std::uint64_t game, int agents) {
  return static_cast<int>((static_cast<std::uint64_t>(seat - 1) + game) % agents);
}

// The players of one game of a run: agents[a] is built from specs[a] and seeded with
// game_seed(seed, seed_game, a); seats[s-1] is the agent in seat s when the agents rotate as in
// game `game` (agent_in_seat). A match has seed_game == game; a study seeds by the game's index
// in the whole study and rotates by its index within the topology.
struct Seating {
  std::vector<std::unique_ptr<Agent>> agents;
  std::vector<Agent*> seats;
};
Seating seat_agents(const std::vector<std::string>& specs, std::uint64_t seed,
                    std::uint64_t seed_game, std::uint64_t game);

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

// ---- topology studies

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

// CSV of a study: a header line and one line per topology with the sums and the derived
// figures. Fields with commas or quotes are quoted.
std::string study_csv(const std::vector<StudyTally>& tallies);
// Reads study_csv()'s text back (only the sums are read; derived columns are recomputed).
// Lines starting with '#' before the header are skipped (a shard's header, study.hpp).
// Throws tanbo::Error naming the line when the text is not such a CSV.
std::vector<StudyTally> parse_study_csv(const std::string& text, const std::string& origin);
// Adds `more` into `into`, matching topologies by (topology, setup); new ones are appended.
void merge_tallies(std::vector<StudyTally>& into, const std::vector<StudyTally>& more);

}  // namespace tanbo
