#include "tanbo/study/seats.hpp"

#include <algorithm>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/study/games.hpp"

namespace tanbo {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Setup setup_for_players(const Topology& topo, const std::string& name, int players,
                        std::string_view how_to_choose) {
  std::string chosen = to_lower(trim(name));
  if (chosen.empty() || chosen == "default") chosen = default_setup(topo);
  const auto fit = setups_for(topo, players);
  // A setup of this board that seats another number of players: the list does not fit it.
  if (listed(setups_for(topo), chosen) && !listed(fit, chosen)) {
    std::string others;
    for (const auto& n : fit) others += (others.empty() ? "" : ", ") + n;
    throw Error("--players lists " + std::to_string(players) + " players, but setup " + chosen +
                " does not seat " + std::to_string(players) + " players on " + topo.spec +
                (others.empty()
                     ? "; no setup of this board does"
                     : "; setups that do: " + others + " (" + std::string(how_to_choose) + ")"));
  }
  return make_setup(topo, chosen, players);  // unknown names are refused with the list
}

Seating seat_agents(const std::vector<std::string>& specs, std::uint64_t seed,
                    std::uint64_t seed_game, std::uint64_t game) {
  const int k = static_cast<int>(specs.size());
  Seating s;
  for (int a = 0; a < k; ++a)
    s.agents.push_back(make_agent(specs[a], game_seed(seed, seed_game, a)));
  for (int seat = 1; seat <= k; ++seat)
    s.seats.push_back(s.agents[agent_in_seat(seat, game, k)].get());
  return s;
}

}  // namespace tanbo
