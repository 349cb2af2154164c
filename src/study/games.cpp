#include "tanbo/study/games.hpp"

#include <algorithm>
#include <cstdint>

#include "tanbo/core/error.hpp"
#include "tanbo/core/mix.hpp"

namespace tanbo {

GameResult play_game(Position& pos, const std::vector<Agent*>& seats, std::uint32_t max_plies) {
  if (static_cast<int>(seats.size()) != pos.num_players()) {
    throw Error("a game of " + std::to_string(pos.num_players()) + " players needs " +
                std::to_string(pos.num_players()) + " engine players, got " +
                std::to_string(seats.size()));
  }
  if (max_plies == 0) {
    // (in 64 bits: 100 a point overflows 32 above 43 million points)
    const std::uint64_t cap = 100u * std::uint64_t{pos.num_vertices()} + 1000u;
    max_plies = static_cast<std::uint32_t>(std::min<std::uint64_t>(cap, UINT32_MAX));
  }
  for (Agent* a : seats) a->new_game();
  GameResult r;
  while (!pos.is_over() && r.plies < max_plies) {
    const Player p = pos.to_move();
    Agent* agent = seats[p - 1];
    const Vertex v = agent->choose(pos);
    if (v >= pos.num_vertices() || pos.check_move(p, v) != MoveStatus::kLegal) {
      throw Error("engine player " + agent->spec() + " chose an illegal move" +
                  (v < pos.num_vertices() ? ": " + pos.explain(p, v) : std::string()));
    }
    const MoveRecord& rec = pos.play(v);
    r.root_removals += rec.removed_end - rec.removed_begin;
    ++r.plies;
  }
  r.winner = pos.winner();
  return r;
}

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t game, std::uint64_t agent) {
  return mix64(mix64(mix64(seed) ^ game) ^ (agent * 0x632BE59BD9B4E019ull));
}

}  // namespace tanbo
