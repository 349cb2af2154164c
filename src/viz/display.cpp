// The check that an X display is reachable before VTK opens a window on it (VTK aborts the
// program when it cannot). Xlib's header stays in this file: its macros (None, Status, Bool)
// would collide with names elsewhere.
#include <X11/Xlib.h>

#include <cstdlib>
#include <string>

#include "scene.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::viz {

std::string display_problem() {
  const char* name = std::getenv("DISPLAY");
  if (name == nullptr || *name == '\0') return "DISPLAY is not set";
  // The connection stays open for the life of the process: closing it and letting VTK open
  // another crashed OpenGL under Xvfb now and then (seen in the window tests), as the new
  // connection can reuse the closed one's address, which the GL library remembers.
  static Display* const display = XOpenDisplay(name);
  if (display == nullptr) return "the X display " + quote_input(name) + " cannot be opened";
  return {};
}

bool have_display() {
  return display_problem().empty();
}

void require_window_display() {
  if (const std::string problem = display_problem(); !problem.empty()) {
    throw Error("the window needs an X display and " + problem +
                " (for pictures without a display: xvfb-run -a tanbo view ... --png FILE)");
  }
}

}  // namespace tanbo::viz
