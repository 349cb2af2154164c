// Who plays where: the setup a list of players is played on, and the agents in the seats of
// each game of a match or a study.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/ai/agent.hpp"
#include "tanbo/core/setup.hpp"

namespace tanbo {

// The setup `name` ("default" = the board's own, default_setup) for exactly `players` players,
// never another setup in its place. When it does not seat that many players, throws
// tanbo::Error with the reason and the setups that would: "--players lists 3 players, but
// setup steere1995 does not seat 3 players on grid 19x19; setups that do: dense, spaced (choose
// one with --setup)"; `how_to_choose` is the hint in brackets (a study's list chooses setups
// in its lines). An unknown name is refused as make_setup refuses it.
Setup setup_for_players(const Topology& topo, const std::string& name, int players,
                        std::string_view how_to_choose = "choose one with --setup");

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

}  // namespace tanbo
