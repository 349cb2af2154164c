// Playing games between engine players: one game to its end, and the seeds of the games of a
// match or a study.
#pragma once

#include <cstdint>
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

}  // namespace tanbo
