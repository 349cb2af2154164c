// Taking back moves in a game between people and engine players, as `tanbo play`'s `undo` and
// the viewer's Backspace do it: the same rule in both.
#pragma once

#include <cstdint>
#include <functional>

#include "tanbo/core/position.hpp"

namespace tanbo {

// Takes back the last turn, and then every earlier turn while the player to move is not a
// person (`is_person(p)` false), so that a person is to move again, or the game is back at its
// start. When no player of the game is a person, only the last turn goes. A turn taken back
// may have been a move or a resignation, and may have ended the game.
// Returns the number of turns taken back: 0 when the game is at its start (ply() == 0).
std::uint32_t take_back_to_person(Position& pos, const std::function<bool(Player)>& is_person);

}  // namespace tanbo
