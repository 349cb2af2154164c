// The setup a list of players is played on, shared by the commands that seat engine players
// (`tanbo match`; `tanbo study` can use it for each board of its list).
#pragma once

#include <string>

#include "tanbo/core/setup.hpp"

namespace tanbo::cli {

// The setup `name` ("default" = the board's own, default_setup) for exactly `players` players,
// never another setup in its place. When it does not seat that many players, throws
// tanbo::Error with the reason and the setups that would: "--players lists 3 players, but
// setup steere1995 does not seat 3 players on grid 19x19; setups that do: dense, spaced (choose
// one with --setup)". An unknown name is refused as make_setup refuses it.
Setup setup_for_players(const Topology& topo, const std::string& name, int players);

}  // namespace tanbo::cli
