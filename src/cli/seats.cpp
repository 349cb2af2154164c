#include "seats.hpp"

#include <algorithm>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::cli {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Setup setup_for_players(const Topology& topo, const std::string& name, int players) {
  std::string chosen = to_lower(trim(name));
  if (chosen.empty() || chosen == "default") chosen = default_setup(topo);
  const auto fit = setups_for(topo, players);
  // A setup of this board that seats another number of players: the list does not fit it.
  if (listed(setups_for(topo), chosen) && !listed(fit, chosen)) {
    std::string others;
    for (const auto& n : fit) others += (others.empty() ? "" : ", ") + n;
    throw Error("--players lists " + std::to_string(players) + " players, but setup " + chosen +
                " does not seat " + std::to_string(players) + " players on " + topo.spec +
                (others.empty() ? "; no setup of this board does"
                                : "; setups that do: " + others + " (choose one with --setup)"));
  }
  return make_setup(topo, chosen, players);  // unknown names are refused with the list
}

}  // namespace tanbo::cli
