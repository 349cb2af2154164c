// Text rendering of positions, for terminals, GTP's showboard and game files.
//
// Layouts (docs/cli.md shows each one):
//  - line N: one row of points, numbered above and below;
//  - 2D grids: as in the 1995 post, coordinates on all four sides, '+' on the star points of
//    9x9, 13x13 and 19x19, the last move marked >x< with '>' '<' at the row's ends too (a
//    point on the border keeps the border: ">x|" on the right edge, "|x<" on the left);
//  - 3D grids: the Z layers side by side (wrapped into several bands on wide boards), each
//    panel titled with its Z and the digit its point names end with (235 = column 2, row 3,
//    panel Z=5);
//  - 4D and more: one band of Z layers per 3D cross-section, titled with the higher coordinates;
//  - hex boards: a hexagon, row letters on both sides, and the cell numbers at the edges: a
//    cell's number counts from the left of its row, so the cells of one number lie on a
//    diagonal, labelled at the top (bottom) edge and running to the middle row;
//  - DOT boards (and boards too big to draw): a list of roots.
// Symbols: '#' Black, 'o' White, 'x' Red, '@' Blue, ... (players.hpp), '.' empty, '+' star
// point, '*' highlighted point (hints).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tanbo/core/position.hpp"

namespace tanbo {

struct RenderOptions {
  bool mark_last = true;                           // mark the last move >x< as the 1995 post does
  bool colour = false;                             // ANSI colours (terminals only)
  const std::vector<Vertex>* highlight = nullptr;  // sorted points to show as '*' (e.g. hints)
  // Boards with more points than this are summarised (roots listed, not every point drawn)
  // unless `full` is set. The default keeps a terminal readable.
  std::uint64_t max_points = 20000;
  bool full = false;  // draw every point whatever the size
};

// The board as text in the layout of its kind (see above). Ends with a newline.
std::string render_board(const Position& pos, const RenderOptions& options = {});

// One line (no newline): the last move's number, whose turn (or who won), stones and roots per
// player, e.g. "after move 3, White to play | Black 5 stones 2 roots | White 4 stones 2 roots"
// ("start, Black to play | ..." before the first move). Move N is the N-th turn, as in
// `tanbo show --move N` and the viewer's status.
// `names` (optional, per player, "" = none) adds player names: "White (bob)".
std::string render_status(const Position& pos, const std::vector<std::string>& names = {});

// Every live root, one a line: owner, size, root-space size, seed, stones (at most
// `max_stones` named, then "..."); at most `max_roots` roots (0 = all), then a count of the
// rest. Ends with a newline (empty string when no roots).
std::string render_roots(const Position& pos, std::size_t max_stones = 40,
                         std::size_t max_roots = 0);

// A sentence about turn `index` of pos.history() (the position must still be right after it,
// i.e. index == ply()-1, for the stone counts to be exact): "Black plays D4.", or when roots
// went, "White's move at D5 bounded 2 roots: removed 19 stones (Black 12, White 7).", or
// "White's move at J1 bounded its own root: removed 4 stones.", or "Red resigns: 3 roots
// removed (25 stones)."; " Blue is out." is added for a player the move eliminated.
std::string describe_move(const Position& pos, const MoveRecord& record);

// Player p's title with an optional name: "White (bob)" or "White".
std::string player_label(Player p, const std::vector<std::string>& names = {});

}  // namespace tanbo
