// The VTK scene of a position: stones as glyph spheres in their players' colours, empty points
// as small faint dots, each root's tree as tubes between its adjacent stones, the last move
// marked by a frame, optional root space (small cubes in the owner's colour), axis labels in
// the board's own notation, a legend (players, stones, roots) and a status line.
//
// The same scene serves the interactive window (viewer.hpp) and off-screen PNG rendering.
// Rendering needs an X display (on a server: xvfb-run -a tanbo view ...).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "layout.hpp"
#include "tanbo/position.hpp"

class vtkRenderer;

namespace tanbo::viz {

struct SceneOptions {
  ViewSpec view;                 // axes and slices of a lattice with 4+ axes
  bool show_empty = true;        // small dots on the empty points
  bool show_root_space = false;  // each root's root space as small cubes in its colour
  int show_names = -1;           // label every drawn point with its name: 1 yes, 0 no, -1 auto
                                 // (hex boards and DOT boards up to 200 points)
  bool show_legend = true;       // players with stones and roots, top left
  std::string status;            // extra text for the status line (file name, move counter)
  std::string message;           // a message at the bottom, e.g. why a click was refused
  std::string help;              // key help, bottom right (interactive window)
  int font_size = 0;             // 0 = chosen from the image height
  std::vector<std::string> player_names;  // per player, shown in the legend ("" = none)
  int slider_rows = 0;  // slider widgets at the bottom right (the camera keeps clear)
};

// What build_scene drew: where each vertex is and the bounds used to frame the camera.
struct SceneInfo {
  Layout layout;
  std::array<double, 6> bounds{0, 0, 0, 0, 0, 0};  // xmin xmax ymin ymax zmin zmax of the board
  bool flat = false;      // drawn in a plane (line, 2D grid, hex, flat DOT): viewed face on
  bool parallel = false;  // parallel projection (flat boards, small multiples)
  std::vector<std::array<double, 3>> frame;  // points the camera keeps in view (labels, stones)
  std::vector<char> stone;                   // per vertex: a stone stands there
  double top_px = 0;                         // pixels at the top taken by the legend and help
  double bottom_px = 0;                      // pixels at the bottom taken by the status lines
};

// The RGB colour (0..1) of player p's stones.
std::array<double, 3> player_colour(Player p);
// The background colour (0..1).
std::array<double, 3> background_colour();

// Replaces everything in `renderer` with the scene of `pos`.
SceneInfo build_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options);

// Places the camera the same way every time: face on for flat boards, from the front right
// and above for 3D ones (x to the right, z up), with the whole board in view. The renderer
// must belong to a render window of the final size (rendering is not needed).
void frame_camera(vtkRenderer* renderer, const SceneInfo& info);

// Display coordinates (x, y from the lower-left corner in pixels; z the depth, smaller is
// nearer) of a world point under the renderer's current camera.
std::array<double, 3> world_to_display(vtkRenderer* renderer, const std::array<double, 3>& p);

// Renders `pos` off screen into a PNG file of width x height pixels (written atomically).
// Throws tanbo::Error when there is no X display or the file cannot be written.
void render_png(const Position& pos, const SceneOptions& options, int width, int height,
                const std::string& path);

// Where every vertex lands in the image render_png makes with the same arguments (display
// coordinates as in world_to_display; hidden vertices get x = y = -1). Needs no X display.
std::vector<std::array<double, 3>> display_positions(const Position& pos,
                                                     const SceneOptions& options, int width,
                                                     int height);

// True when an X display is available for rendering (DISPLAY is set).
bool have_display();

}  // namespace tanbo::viz
