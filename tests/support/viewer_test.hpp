// Helpers shared by the viewer's tests (test_viewer.cpp: layouts, the window, its game logic;
// test_viewer_scene.cpp: picking, text layout, pictures).
//
// Pictures need an X display: the tests run `xvfb-run -a tanbo view ... --png` (skipped when
// xvfb-run is missing), and the window tests re-run their program under xvfb-run.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.hpp"

namespace tanbo::viewer_test {

namespace fs = std::filesystem;

inline std::string tanbo_bin() {
  return TANBO_BINARY;
}

inline bool have_xvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

inline fs::path temp_dir() {
  static const fs::path dir = [] {
    auto d = fs::temp_directory_path() / ("tanbo_viewer_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// `xvfb-run -a` picks a free display number, but two started at once (ctest -j) can pick the
// same one; starting the search at a number from the process id makes that unlikely, and
// run_under_xvfb tries again once when the server did not start.
//
// Under AddressSanitizer the programs that open an X display run without LeakSanitizer: the
// OpenGL driver (Mesa, loaded and unloaded at run time) leaks a few bytes that cannot be told
// apart from ours. Memory errors are still caught, and the viewer's own logic is checked for
// leaks in-process (layouts, session).
inline std::string xvfb_run() {
  static int next = 0;
  const int n = 100 + (::getpid() * 7 + next++ * 37) % 800;
  std::string env;
#if defined(__SANITIZE_ADDRESS__)
  const char* asan = std::getenv("ASAN_OPTIONS");
  env = "ASAN_OPTIONS='" + std::string(asan ? asan : "") + ":detect_leaks=0' ";
#endif
  return env + "xvfb-run -a -n " + std::to_string(n) + " -s '-screen 0 1280x1024x24' ";
}

inline std::string quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

}  // namespace tanbo::viewer_test

#ifdef TANBO_HAVE_VIEWER

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

#include <cmath>
#include <set>

#include "scene.hpp"
#include "scene_parts.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/session/session.hpp"

namespace tanbo::viewer_test {

using tanbo::test::make;
using tanbo::test::run_command;

constexpr int kW = 640;
constexpr int kH = 480;

struct Image {
  int w = 0, h = 0, comps = 0;
  std::vector<unsigned char> data;
  std::array<int, 3> at(int x, int y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * w + x) * comps;
    return {data[i], data[i + 1], data[i + 2]};
  }
};

// Reads a PNG with VTK's reader (origin at the lower left, as display coordinates).
inline Image read_png(const fs::path& path) {
  Image img;
  auto reader = vtkSmartPointer<vtkPNGReader>::New();
  if (!reader->CanReadFile(path.string().c_str())) {
    ADD_FAILURE() << "not a PNG: " << path;
    return img;
  }
  reader->SetFileName(path.string().c_str());
  reader->Update();
  vtkImageData* data = reader->GetOutput();
  int dims[3];
  data->GetDimensions(dims);
  img.w = dims[0];
  img.h = dims[1];
  img.comps = data->GetNumberOfScalarComponents();
  const auto* p = static_cast<const unsigned char*>(data->GetScalarPointer());
  img.data.assign(p, p + static_cast<std::size_t>(img.w) * img.h * img.comps);
  return img;
}

// Plays `count` random moves (seeded) and returns them in the board's notation.
inline std::string random_moves(Position& pos, int count, std::uint64_t seed) {
  Rng rng(seed);
  std::string names;
  for (int i = 0; i < count && !pos.is_over(); ++i) {
    const Vertex v = random_move(pos, rng);
    names += (names.empty() ? "" : " ") + pos.topology().name(v);
    pos.play(v);
  }
  return names;
}

// Renders with the real program under Xvfb; returns the PNG's path.
inline fs::path render(const std::string& name, const std::string& args, int w = kW, int h = kH) {
  const fs::path out = temp_dir() / (name + ".png");
  const std::string cmd = xvfb_run() + quote(tanbo_bin()) + " view " + args + " --png " +
                          quote(out.string()) + " --size " + std::to_string(w) + "x" +
                          std::to_string(h);
  auto r = run_command(cmd);
  if (r.status != 0 && r.err.find("Xvfb") != std::string::npos) r = run_command(cmd);
  EXPECT_EQ(r.status, 0) << cmd << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("wrote " + out.string()), std::string::npos) << r.out;
  return out;
}

// Share of pixels that differ from the background, and the number of distinct colours.
inline void expect_not_blank(const Image& img) {
  ASSERT_EQ(img.w, kW);
  ASSERT_EQ(img.h, kH);
  const auto bg = viz::background_colour();
  std::size_t differ = 0;
  std::set<int> colours;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) {
      const auto c = img.at(x, y);
      int d = 0;
      for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(c[k] - int(std::lround(bg[k] * 255))));
      if (d > 30) ++differ;
      colours.insert(c[0] << 16 | c[1] << 8 | c[2]);
    }
  }
  EXPECT_GT(differ, static_cast<std::size_t>(img.w) * img.h / 40) << "image nearly blank";
  EXPECT_GT(colours.size(), 50u);
}

inline std::size_t pixels_differing(const Image& a, const Image& b) {
  std::size_t n = 0;
  for (int y = 0; y < a.h; ++y)
    for (int x = 0; x < a.w; ++x)
      if (a.at(x, y) != b.at(x, y)) ++n;
  return n;
}

// Distance from point p to segment ab (2D).
inline double seg_dist(const std::array<double, 3>& p, const std::array<double, 3>& a,
                       const std::array<double, 3>& b) {
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

// A stone of player p whose centre nothing else covers in the picture (no nearer stone, dot
// or root tube over it), the nearest such to the viewer; kNoVertex if none.
inline Vertex visible_stone(const Position& pos, const std::vector<std::array<double, 3> >& dp,
                            Player p, bool empty_dots) {
  const Graph& g = pos.graph();
  const Vertex last = pos.ply() > 0 ? pos.last_move().vertex : kNoVertex;
  auto unit_px = [&](Vertex v) {  // pixels per world unit near v
    for (Vertex w : g.neighbours(v)) {
      if (dp[w][0] >= 0) return std::hypot(dp[w][0] - dp[v][0], dp[w][1] - dp[v][1]);
    }
    return 0.0;
  };
  Vertex best = kNoVertex;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) != p || v == last || dp[v][0] < 0) continue;
    const double u = unit_px(v);
    if (u < 8) continue;
    const auto& c = dp[v];
    if (c[0] < 4 || c[1] < 4 || c[0] > kW - 5 || c[1] > kH - 5) continue;
    bool covered = false;
    for (Vertex w = 0; w < pos.num_vertices() && !covered; ++w) {
      if (w == v || dp[w][0] < 0 || dp[w][2] >= c[2]) continue;
      const double r =
          pos.at(w) != kEmpty ? viz::kFlatStoneRadius : (empty_dots ? viz::kDotRadius : 0.0);
      if (r > 0 && std::hypot(dp[w][0] - c[0], dp[w][1] - c[1]) < r * u + 4) covered = true;
      if (pos.at(w) == kEmpty) continue;
      for (Vertex x : g.neighbours(w)) {  // root tubes from nearer stones
        if (x == v || dp[x][0] < 0 || pos.root_of(x) != pos.root_of(w)) continue;
        if (seg_dist(c, dp[w], dp[x]) < viz::kTubeRadius * u + 4) covered = true;
      }
    }
    if (!covered && (best == kNoVertex || c[2] < dp[best][2])) best = v;
  }
  return best;
}

// The picture shows player p's colour at the centre of one of p's uncovered stones.
inline void expect_stone_colour(const Image& img, const Position& pos,
                                const viz::SceneOptions& opts, Player p) {
  const auto dp = viz::display_positions(pos, opts, kW, kH);
  const Vertex v = visible_stone(pos, dp, p, opts.show_empty);
  ASSERT_NE(v, kNoVertex) << "no uncovered stone of player " << int(p);
  const auto want = viz::player_colour(p);
  const int cx = static_cast<int>(std::lround(dp[v][0]));
  const int cy = static_cast<int>(std::lround(dp[v][1]));
  int good = 0;
  std::string seen;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const auto c = img.at(cx + dx, cy + dy);
      bool ok = true;
      for (int k = 0; k < 3; ++k) ok = ok && std::abs(c[k] - want[k] * 255) <= 45;
      good += ok;
      seen += " (" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," +
              std::to_string(c[2]) + ")";
    }
  }
  EXPECT_GE(good, 7) << player_title(p) << " stone " << pos.topology().name(v) << " at pixel " << cx
                     << "," << cy << " shows" << seen;
}

inline constexpr const char* kDotGrid =
    "graph g {\n  players=2\n"
    "  a1 [pos=\"0,0\" stone=1]; a2 [pos=\"0,72\"]; a3 [pos=\"0,144\"]; a4 [pos=\"0,216\" "
    "stone=2];\n"
    "  b1 [pos=\"72,0\"]; b2 [pos=\"72,72\"]; b3 [pos=\"72,144\"]; b4 [pos=\"72,216\"];\n"
    "  c1 [pos=\"144,0\"]; c2 [pos=\"144,72\"]; c3 [pos=\"144,144\"]; c4 [pos=\"144,216\"];\n"
    "  d1 [pos=\"216,0\" stone=2]; d2 [pos=\"216,72\"]; d3 [pos=\"216,144\"]; d4 [pos=\"216,216\" "
    "stone=1];\n"
    "  a1--a2--a3--a4; b1--b2--b3--b4; c1--c2--c3--c4; d1--d2--d3--d4;\n"
    "  a1--b1--c1--d1; a2--b2--c2--d2; a3--b3--c3--d3; a4--b4--c4--d4;\n"
    "}\n";

// The same board without positions, plus diagonals so that its layout is not a plain grid.
inline std::string dot_without_pos() {
  std::string s = kDotGrid;
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 5, "pos=\"") == 0) {
      i = s.find('"', i + 5);  // skip pos="..."
      continue;
    }
    out += s[i];
  }
  out.insert(out.rfind('}'), "  a1--b2; c3--d4;\n");
  return out;
}

inline fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p;
}

// The scene of `pos` framed in a window of the given size, exactly as render_png frames it;
// the window is never drawn, so no display is needed.
struct Framed {
  vtkNew<vtkRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  viz::SceneInfo info;
  Framed(const Position& pos, const viz::SceneOptions& opts, int w, int h) {
    window->SetOffScreenRendering(1);
    window->SetSize(w, h);
    window->AddRenderer(renderer);
    info = viz::prepare_scene(renderer, pos, opts);
  }
};

inline Position played(const std::string& spec, int moves, std::uint64_t seed) {
  Position pos = make(spec);
  random_moves(pos, moves, seed);
  return pos;
}

}  // namespace tanbo::viewer_test

#endif
