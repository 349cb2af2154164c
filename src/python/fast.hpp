// Plain CPython methods for the hot calls of tanbo.Game (fast.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include "game.hpp"

namespace tanbo::python {

// Sets is_terminal, legal_actions and apply_action of the Game class.
void add_fast_methods(pybind11::class_<PyGame>& game);

}  // namespace tanbo::python
