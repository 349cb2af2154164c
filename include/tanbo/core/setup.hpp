// Starting setups: which stones stand on the board before the first move.
//
// The named setups and the rule that generates each are documented in docs/rules.md.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tanbo/core/players.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo {

// A starting position: the number of players and the seeds.
struct Setup {
  std::string name;                               // e.g. "steere1995"
  int players = 2;                                // 2..8
  std::vector<std::pair<Vertex, Player>> stones;  // the seeds
};

// Names of the setups that fit the topology, the default first. `players` = 0 lists every
// setup; otherwise only those that can seat that many players.
std::vector<std::string> setups_for(const Topology& topo, int players = 0);

// The default setup's name for the topology (steere1995 on 19x19 and 9x9, steere2005 on
// 13x13, steere2026 on the other odd square boards, pbmserv on 5x5x5, hexbo on hex boards,
// file on DOT boards, spaced elsewhere).
std::string default_setup(const Topology& topo);

// Builds setup `name` ("default" = default_setup, or the first setup that fits when the
// default cannot seat `players`) for `players` players (0 = the setup's own count: 2 for most,
// 4 for "four", the DOT `players` attribute for "file").
// Throws tanbo::Error naming the setups that fit when the name is unknown or does not fit.
Setup make_setup(const Topology& topo, std::string_view name = "default", int players = 0);

}  // namespace tanbo
