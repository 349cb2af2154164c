// The VTK scene of a position: stones as shaded, outlined glyph spheres in their players'
// colours, empty points as small dots, each root's tree as tubes between its adjacent stones,
// the last move framed, optional root space (small cubes in the owner's colour), optional
// see-through front layers, axis labels in the board's own notation, a legend with an entry
// for every kind of mark drawn, and a status line. Text never overlaps: every label and panel
// of text has a box in the window, and labels are placed so that no two boxes meet.
//
// The same scene serves the interactive window (viewer.hpp) and off-screen PNG rendering.
// Rendering needs an X display (on a server: xvfb-run -a tanbo view ...); building a scene,
// framing it and laying out its text do not.
#pragma once

#include <vtkSmartPointer.h>

#include <array>
#include <string>
#include <vector>

#include "layout.hpp"
#include "tanbo/core/position.hpp"

class vtkRenderer;
class vtkTextActor;

namespace tanbo::viz {

struct SceneOptions {
  ViewSpec view;                 // axes and slices of a lattice with 4+ axes
  bool show_empty = true;        // small dots on the empty points
  bool show_root_space = false;  // each root's root space as small cubes in its colour
  int show_names = -1;           // label every drawn point with its name: 1 yes, 0 no, -1 auto
                                 // (hex boards and DOT boards up to 200 points)
  bool show_legend = true;       // players with stones and roots, and every mark, top left
  int fade_front = 0;            // 3D views: the stones of this many front layers see-through
  std::string status;            // extra text for the status line (file name, move counter)
  std::string message;           // a message at the bottom, e.g. why a click was refused
  std::string help;              // key help, top right (interactive window)
  int font_size = 0;             // 0 = chosen from the image height
  std::vector<std::string> player_names;  // per player, shown in the legend ("" = none)
  int slider_rows = 0;  // slider widgets at the bottom right (the camera keeps clear)
};

// A rectangle in display pixels (x to the right, y up from the lower-left corner).
struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool intersects(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool inside(double w, double h) const { return x0 >= 0 && y0 >= 0 && x1 <= w && y1 <= h; }
};

// A piece of text in the picture and the box it takes. Roles: "legend", "status", "help",
// "sliders" (the window's slice sliders, no text of ours), "tick", "axis title",
// "panel title", "name".
struct TextBox {
  std::string role;
  std::string text;
  Box box;
};

// A label anchored at a world point (axis ticks and titles, panel titles, point names). The
// layout moves it by a few pixels or hides it when it would overlap other text.
struct SceneLabel {
  std::string role;
  std::string text;
  std::array<double, 3> at{0, 0, 0};  // anchor (the text is centred on it when not moved)
  int priority = 0;                   // placed in increasing order: titles before ticks
  Box extent;                         // the text's box around its anchor, in pixels
  vtkSmartPointer<vtkTextActor> actor;
  bool shown = false;  // after place_labels
  Box box;             // after place_labels, when shown
};

// What build_scene drew: where each vertex is and what the camera must frame.
struct SceneInfo {
  Layout layout;
  std::array<double, 6> bounds{0, 0, 0, 0, 0, 0};  // xmin xmax ymin ymax zmin zmax to frame
  bool flat = false;        // drawn in a plane (line, 2D grid, hex, flat DOT): viewed face on
  double stone_radius = 0;  // in world units (points of a lattice are one unit apart)
  std::vector<std::array<double, 3>> frame;  // points the camera keeps in view (stones)
  std::vector<char> stone;                   // per vertex: a stone stands there
  std::vector<char> faded;                   // per vertex: drawn see-through (fade_front)
  std::string fade_text;                     // which layers are see-through, "" if none
  std::vector<SceneLabel> labels;            // world-anchored text
  std::vector<TextBox> overlays;             // legend, status, help, sliders: fixed boxes
  std::array<double, 3> centre{0, 0, 0};     // the drawn board's centre (labels move away)
  int width = 0, height = 0;                 // the window size the text was laid out for
};

// The RGB colour (0..1) of player p's stones as the legend names it (their lit, shaded
// surface varies around it: black stones are dark grey so that light shows their shape).
std::array<double, 3> player_colour(Player p);
// The colour of the outline drawn around player p's stones (light around dark stones, dark
// around light ones).
std::array<double, 3> outline_colour(Player p);
// The background colour (0..1).
std::array<double, 3> background_colour();
// The colour of axis labels and point names.
std::array<double, 3> label_colour();

// Replaces everything in `renderer` with the scene of `pos`, its labels placed for the
// renderer's camera when it has one (else frame_camera places them). The renderer must belong
// to a render window of the final size.
SceneInfo build_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options);

// Places the camera the same way every time: face on for flat boards, from the front right
// and above for 3D ones (x to the right, z up), with the whole board and its labels in the
// largest part of the window that the legend, status line, help and sliders leave free; then
// places the labels (place_labels).
void frame_camera(vtkRenderer* renderer, SceneInfo& info);

// Lays the labels out for the current camera: each at its anchor, or moved a few pixels away
// from the board's centre, whichever first overlaps neither a fixed box nor a label placed
// before it (titles first, then ticks, then names) and stays inside the window; a label that
// fits nowhere is hidden. Call after the camera moved.
void place_labels(vtkRenderer* renderer, SceneInfo& info);

// Every piece of text shown and its box: the fixed boxes, then the labels shown.
std::vector<TextBox> text_boxes(const SceneInfo& info);

// Display coordinates (x, y from the lower-left corner in pixels; z the depth, smaller is
// nearer) of a world point under the renderer's current camera.
std::array<double, 3> world_to_display(vtkRenderer* renderer, const std::array<double, 3>& p);

// Builds and frames the scene of `pos` in `renderer` as render_png does: build_scene,
// frame_camera, and for see-through front layers build_scene again for the framed camera.
SceneInfo prepare_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options);

// Renders `pos` off screen into a PNG file of width x height pixels (written atomically).
// Throws tanbo::Error when there is no X display or the file cannot be written.
void render_png(const Position& pos, const SceneOptions& options, int width, int height,
                const std::string& path);

// Where every vertex lands in the image render_png makes with the same arguments (display
// coordinates as in world_to_display; hidden vertices get x = y = -1). Needs no X display.
std::vector<std::array<double, 3>> display_positions(const Position& pos,
                                                     const SceneOptions& options, int width,
                                                     int height);

// The text of the image render_png makes with the same arguments, with the box of each piece
// (text_boxes). Needs no X display.
std::vector<TextBox> text_layout(const Position& pos, const SceneOptions& options, int width,
                                 int height);

// Empty when an X display is there for rendering; otherwise why not (DISPLAY unset, or the
// server it names cannot be opened), as a sentence for the user. VTK aborts the program when
// its window cannot reach the display, so every window is opened only after this check.
std::string display_problem();

// True when display_problem() is empty.
bool have_display();

// Throws tanbo::Error saying what is missing and what to do instead when the viewer's window
// cannot open (no reachable X display).
void require_window_display();

}  // namespace tanbo::viz
