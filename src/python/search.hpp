// The long calls of the `tanbo` Python module (search.cpp): random_playouts, mcts, Search and
// solve, each interruptible with Ctrl-C.
#pragma once

#include <pybind11/pybind11.h>

#include "game.hpp"

namespace tanbo::python {

// Adds random_playouts, mcts, Search and solve to the module.
void bind_search(pybind11::module_& m);

}  // namespace tanbo::python
