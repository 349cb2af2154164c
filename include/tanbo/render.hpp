// Text rendering of positions, for terminals, GTP's showboard and game files.
#pragma once

#include <string>

#include "tanbo/position.hpp"

namespace tanbo {

struct RenderOptions {
  bool mark_last = true;   // mark the last move >x< as the 1995 post does
  bool colour = false;     // ANSI colours (terminals only)
  const std::vector<Vertex>* highlight = nullptr;  // points to show as '*' (e.g. hints)
};

// The board as text: lines and 2D grids as in the 1995 post (coordinates on all four sides),
// other boards in their own layout (see docs/cli.md). Ends with a newline.
std::string render_board(const Position& pos, const RenderOptions& options = {});

}  // namespace tanbo
