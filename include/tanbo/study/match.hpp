// A match: games between engine players on one board, the seats rotating, and its score table.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/study/stats.hpp"

namespace tanbo {

// What a match plays, as tanbo match's options give it.
struct MatchOptions {
  std::string topology = "grid 19x19";
  std::string setup = "default";
  std::string players;  // the list of engine players, one per seat
  std::uint64_t games = 10;
  std::uint64_t seed = 1;
  std::string save_dir;  // where each game is saved (empty: nowhere)
  bool csv = false;
};

// The match: players, board and options, checked before any game is played.
struct Match {
  MatchOptions options;
  std::vector<std::string> specs;  // one per player
  Setup setup;
  std::shared_ptr<const Position> start;
  int k() const { return static_cast<int>(specs.size()); }
};

// Checks the options, builds the board and creates the directory games are saved to. Throws
// tanbo::Error for no games, a bad list of players, a board or setup that does not seat them,
// or a directory that cannot be made.
Match prepare_match(const MatchOptions& o);

// Plays the match's games, saving each when asked; `after_game(tally, games done)` is called
// after each game (the progress bar).
using MatchProgress = std::function<void(const MatchTally&, std::uint64_t)>;
MatchTally play_match(const Match& m, const MatchProgress& after_game = {});

// The score table: wins per player and seat, win rate with its interval, the Elo difference
// (two players), mean game length, search speed and time.
void print_match_table(const Match& m, const MatchTally& t, std::ostream& out);

}  // namespace tanbo
