// The interactive viewer window: rotate and zoom with the mouse, step through the game with
// the keys, click a point to play it, engines answer on their turn, the game file is saved
// after every move. Needs an X display.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "scene.hpp"
#include "tanbo/agent.hpp"
#include "tanbo/gamefile.hpp"

namespace tanbo::viz {

// Keys of the window (also shown in it, and in docs/viewer.md).
inline constexpr const char* kViewerKeys =
    "Left/Right: previous/next move   Home/End: first/last move\n"
    "e: empty points   r: root space   n: names   m: small multiples   a: next axes\n"
    "u: take back   c: reset camera   h: hide this help   q: quit";

struct ViewerConfig {
  std::string game_path;                        // saved after every move; "" = not saved
  std::vector<std::unique_ptr<Agent>> engines;  // per player (index p-1), nullptr = a person
  SceneOptions options;                         // what to show at the start
  int width = 1100;                             // window size in pixels
  int height = 800;
  long start_ply = -1;  // move shown first, -1 = the last one
};

// Opens the window on `game` and runs until it is closed. Returns 0, or 1 after printing a
// reason to `err` (no X display). Moves made in the window change `game`.
int run_viewer(Game& game, ViewerConfig& config, std::ostream& err);

// The vertex a click at display point (x, y) lands on: the nearest drawn point whose stone
// would cover the click, nearest to the viewer when several do; kNoVertex if none.
// `renderer` holds the scene built from `info`.
Vertex pick_vertex(vtkRenderer* renderer, const SceneInfo& info, double x, double y);

// The position after the first `ply` turns of `game_position`'s history.
Position position_at(const Position& game_position, std::uint32_t ply);

}  // namespace tanbo::viz
