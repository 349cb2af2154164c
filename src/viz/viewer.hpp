// The interactive viewer window: rotate and zoom with the mouse, step through the game with
// the keys, click a point to play it, engines answer on their turn, the game file is saved
// after every move (the game logic is in session.hpp). Needs an X display.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "scene.hpp"
#include "tanbo/session/session.hpp"

class vtkRenderWindowInteractor;

namespace tanbo::viz {

// Keys of the window (also shown in it, and in docs/viewer.md).
inline constexpr const char* kViewerKeys =
    "Left/Right: previous/next move   Home/End: first/last move\n"
    "e: empty points   r: root space   n: names   f: see-through front layers\n"
    "m: small multiples   a: next axes   u: take back   c: reset camera   h: hide help   q: quit";

// The vertex a click at display point (x, y) lands on: of the drawn points whose centre is
// on screen within about a stone's radius of the click, the one whose centre is nearest
// (so a click at a point's centre picks that point, even one behind a stone); of centres
// equally near, the one nearest the viewer; kNoVertex if none.
// `renderer` holds the scene built as `info` describes.
Vertex pick_vertex(vtkRenderer* renderer, const SceneInfo& info, double x, double y);

class ViewerWindow {
 public:
  // `multisamples`: anti-aliasing samples per pixel (0 = none, fastest with software OpenGL).
  ViewerWindow(Session& session, const SceneOptions& options, int width, int height,
               int multisamples = 4);
  ~ViewerWindow();
  ViewerWindow(const ViewerWindow&) = delete;
  ViewerWindow& operator=(const ViewerWindow&) = delete;

  // Creates the window and draws the scene. Throws tanbo::Error without an X display.
  void open();
  // Runs the event loop until the window is closed or q is pressed.
  void run();

  // Sends a left click (press and release) at display point (x, y) through the window's
  // interactor, as the mouse does; engine replies are then due (see run_engines).
  void simulate_click(int x, int y);
  // Sends a key press (X key symbol: "Left", "End", "e", ...) through the interactor.
  void simulate_key(const std::string& keysym);
  // Plays the engine moves that are due at once (the event loop does it on a timer).
  void run_engines();
  vtkRenderWindowInteractor* interactor() const;  // the window's event source
  // What a slider does: shows slice `value` (0-based) of hidden axis `axis`.
  void set_slice(int axis, std::uint32_t value);
  // The hidden axis of each slider, in order (one per hidden axis but the multiples one).
  std::vector<int> slider_axes() const;

  const std::string& message() const;   // the sentence at the bottom of the window
  const SceneOptions& options() const;  // what is shown now
  const SceneInfo& info() const;        // where the points are drawn
  vtkRenderer* renderer() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// What a click on point v does in the window: plays it for the person to move when the latest
// position is shown (Session::play), or says why nothing was played (an earlier move on
// screen, an engine's turn, the rules' reason). `played` tells which.
std::string click_message(Session& session, Vertex v, bool* played);

// Opens the window on `session` and runs until it is closed. Returns 0, or 1 after printing
// a reason to `err` (no X display).
int run_viewer(Session& session, const SceneOptions& options, int width, int height,
               std::ostream& err);

}  // namespace tanbo::viz
