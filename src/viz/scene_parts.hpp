// The steps of build_scene (scene.hpp), in the order it takes them, and what they share.
// scene_marks.cpp draws the 3D marks, scene_labels.cpp the world-anchored labels and their
// layout, scene_overlay.cpp the legend, status line and help.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "scene.hpp"

class vtkTextProperty;

namespace tanbo::viz {

using Rgb = std::array<double, 3>;

// Sizes in world units (lattice points are one unit apart).
inline constexpr double kStoneRadius = 0.25;      // in 3D: neighbours and tubes show between
inline constexpr double kFlatStoneRadius = 0.36;  // on flat boards nothing hides behind a stone
inline constexpr double kHexStoneRadius = 0.3;    // leaves room for the cell's name below
inline constexpr double kOutlineWidth = 0.035;    // the outline ring around a stone
inline constexpr double kDotRadius = 0.055;
inline constexpr double kTubeRadius = 0.075;
inline constexpr double kSpaceCube = 0.2;      // a root-space mark's edge
inline constexpr double kFrameSize = 0.78;     // the last move's frame
inline constexpr double kFadedOpacity = 0.22;  // see-through stones and tubes
inline constexpr double kFog = 0.42;  // how far the farthest marks fade toward the background

inline constexpr double kPickSpacing = 4.0;  // pixels between two points' centres, at least

inline constexpr Rgb kInk{0.08, 0.09, 0.12};            // text of the legend and status
inline constexpr Rgb kEmptyColour{0.30, 0.33, 0.38};    // empty points
inline constexpr Rgb kLastMoveColour{1.0, 0.15, 0.55};  // the last move's frame
inline constexpr Rgb kLegendBackground{0.86, 0.88, 0.91};

// Everything the steps read and write.
struct SceneContext {
  SceneContext(vtkRenderer* r, const Position& p, const SceneOptions& o)
      : renderer(r), pos(p), options(o), view(o.view) {}
  vtkRenderer* renderer;
  const Position& pos;
  const SceneOptions& options;
  ViewSpec view;  // normalised
  SceneInfo info;
  int font = 12;  // pixels
  std::uint32_t visible_count = 0;
  std::array<double, 6> board{0, 0, 0, 0, 0, 0};  // bounds of the drawn points
  std::vector<double> depth;  // per vertex: 0 nearest the camera .. 1 farthest (3D views)
  // Which kinds of marks were drawn (the legend names each).
  bool drew_empty = false, drew_tubes = false, drew_space = false, drew_last = false;
};

// Step 1 (scene.cpp): clears the renderer, lights, lays the board out, chooses the font.
SceneContext start_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options);

// scene_marks.cpp
// How far each point is from the camera, and which stones are see-through (fade_front).
void measure_depth(SceneContext& s);
// `c` faded toward the background with depth (far marks are paler: depth cueing).
Rgb at_depth(const SceneContext& s, const Rgb& c, Vertex v);
void add_stones(SceneContext& s);       // stones (shaded, outlined) and empty points
void add_board_lines(SceneContext& s);  // edges of flat and DOT boards, hex cells
void add_root_trees(SceneContext& s);   // tubes between the adjacent stones of a root
void add_root_space(SceneContext& s);   // cubes on root-space points
void add_last_move(SceneContext& s);    // the frame around the last move

// scene_labels.cpp
void add_axis_labels(SceneContext& s);  // ticks and titles of lattice axes, panel titles
void add_point_names(SceneContext& s);  // a name under every point (hex, DOT, or --names)
// The box in pixels that `text` drawn with `tp` takes around its anchor, as the text
// renderer measures it (justification included).
Box text_extent(vtkTextProperty* tp, const std::string& text);

// scene_overlay.cpp
void add_legend(SceneContext& s);           // top left: players, then every mark drawn
void add_status_and_help(SceneContext& s);  // status bottom left, help top right, sliders

// Step last (scene.cpp): the points the camera frames.
void collect_frame(SceneContext& s);

}  // namespace tanbo::viz
