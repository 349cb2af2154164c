// The VTK viewer (viz/, tanbo view): layouts, off-screen pictures checked pixel by pixel, the
// game logic behind the window, and the window itself driven by synthetic mouse clicks.
//
// Pictures need an X display: the tests run `xvfb-run -a tanbo view ... --png` (skipped when
// xvfb-run is missing), and the window tests re-run this program under xvfb-run. Without the
// viewer in the build, `tanbo view` must say so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

std::string tanbo_bin() {
  return TANBO_BINARY;
}

[[maybe_unused]] bool have_xvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

[[maybe_unused]] fs::path temp_dir() {
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
[[maybe_unused]] std::string xvfb_run() {
  static int next = 0;
  const int n = 100 + (::getpid() * 7 + next++ * 37) % 800;
  std::string env;
#if defined(__SANITIZE_ADDRESS__)
  const char* asan = std::getenv("ASAN_OPTIONS");
  env = "ASAN_OPTIONS='" + std::string(asan ? asan : "") + ":detect_leaks=0' ";
#endif
  return env + "xvfb-run -a -n " + std::to_string(n) + " -s '-screen 0 1280x1024x24' ";
}

[[maybe_unused]] std::string quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

}  // namespace

#ifndef TANBO_HAVE_VIEWER

TEST(ViewerNotBuilt, ViewSaysSo) {
  tanbo::test::expect_refused(tanbo_bin() + " view --topology 'grid 5x5x5'",
                              "built without the viewer");
}

#else

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkImageData.h>
#include <vtkPNGReader.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

#include <cmath>
#include <set>

#include "layout.hpp"
#include "scene.hpp"
#include "session.hpp"
#include "tanbo/error.hpp"
#include "tanbo/gamefile.hpp"
#include "tanbo/random.hpp"
#include "viewer.hpp"

using namespace tanbo;
using tanbo::test::expect_refused;
using tanbo::test::make;
using tanbo::test::run_command;

namespace {

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
Image read_png(const fs::path& path) {
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
std::string random_moves(Position& pos, int count, std::uint64_t seed) {
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
fs::path render(const std::string& name, const std::string& args) {
  const fs::path out = temp_dir() / (name + ".png");
  const std::string cmd = xvfb_run() + quote(tanbo_bin()) + " view " + args + " --png " +
                          quote(out.string()) + " --size " + std::to_string(kW) + "x" +
                          std::to_string(kH);
  auto r = run_command(cmd);
  if (r.status != 0 && r.err.find("Xvfb") != std::string::npos) r = run_command(cmd);
  EXPECT_EQ(r.status, 0) << cmd << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("wrote " + out.string()), std::string::npos) << r.out;
  return out;
}

// Share of pixels that differ from the background, and the number of distinct colours.
void expect_not_blank(const Image& img) {
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

std::size_t pixels_differing(const Image& a, const Image& b) {
  std::size_t n = 0;
  for (int y = 0; y < a.h; ++y)
    for (int x = 0; x < a.w; ++x)
      if (a.at(x, y) != b.at(x, y)) ++n;
  return n;
}

// Distance from point p to segment ab (2D).
double seg_dist(const std::array<double, 3>& p, const std::array<double, 3>& a,
                const std::array<double, 3>& b) {
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

// A stone of player p whose centre nothing else covers in the picture (no nearer stone, dot
// or root tube over it), the nearest such to the viewer; kNoVertex if none.
Vertex visible_stone(const Position& pos, const std::vector<std::array<double, 3> >& dp, Player p,
                     bool empty_dots) {
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
      const double r = pos.at(w) != kEmpty ? 0.32 : (empty_dots ? 0.06 : 0.0);
      if (r > 0 && std::hypot(dp[w][0] - c[0], dp[w][1] - c[1]) < r * u + 4) covered = true;
      if (pos.at(w) == kEmpty) continue;
      for (Vertex x : g.neighbours(w)) {  // root tubes from nearer stones
        if (x == v || dp[x][0] < 0 || pos.root_of(x) != pos.root_of(w)) continue;
        if (seg_dist(c, dp[w], dp[x]) < 0.085 * u + 4) covered = true;
      }
    }
    if (!covered && (best == kNoVertex || c[2] < dp[best][2])) best = v;
  }
  return best;
}

// The picture shows player p's colour at the centre of one of p's uncovered stones.
void expect_stone_colour(const Image& img, const Position& pos, const viz::SceneOptions& opts,
                         Player p) {
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

const char* kDotGrid =
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
std::string dot_without_pos() {
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

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p;
}

}  // namespace

// ------------------------------------------------------------------ layouts (no display)

TEST(ViewerLayout, LatticeCoordinatesAndSlices) {
  auto t = parse_topology("grid 5x5x5x5");
  viz::ViewSpec view;
  viz::parse_axes("x,y,w", *t, view);
  viz::parse_slices("z=2", *t, view);
  const auto L = viz::compute_layout(*t, view);
  int visible = 0;
  for (Vertex v = 0; v < t->num_vertices(); ++v) {
    const auto c = t->coords(v);
    EXPECT_EQ(bool(L.visible[v]), c[2] == 1) << t->name(v);
    if (!L.visible[v]) continue;
    ++visible;
    EXPECT_EQ(L.point[v][0], c[0]);
    EXPECT_EQ(L.point[v][1], c[1]);
    EXPECT_EQ(L.point[v][2], c[3]);  // w drawn as the third direction
  }
  EXPECT_EQ(visible, 125);
  viz::ViewSpec multiples;
  multiples.multiples_axis = 3;
  const auto M = viz::compute_layout(*t, multiples);
  EXPECT_EQ(M.panels, 5);
  EXPECT_EQ(std::count(M.visible.begin(), M.visible.end(), 1), 625);  // z at its middle slice
}

TEST(ViewerLayout, RefusesBadViews) {
  auto t4 = parse_topology("grid 5x5x5x5");
  viz::ViewSpec view;
  EXPECT_THROW(viz::parse_axes("x,x,y", *t4, view); viz::normalise_view(*t4, view), Error);
  view = {};
  EXPECT_THROW(viz::parse_axes("x,y,q", *t4, view), Error);
  EXPECT_THROW(viz::parse_axes("x,y", *t4, view), Error);
  view = {};
  EXPECT_THROW(viz::parse_slices("w=6", *t4, view), Error);
  EXPECT_THROW(viz::parse_slices("w3", *t4, view), Error);
  view = {};
  viz::parse_slices("x=2", *t4, view);  // x is drawn by default
  EXPECT_THROW(viz::normalise_view(*t4, view), Error);
  auto hex = parse_topology("hex 4");
  EXPECT_THROW(viz::parse_axes("x,y,z", *hex, view), Error);
  EXPECT_EQ(viz::parse_axis("a5", 6), 4);
  EXPECT_EQ(viz::parse_axis("W", 4), 3);
  EXPECT_EQ(viz::parse_axis("2", 4), 1);
}

TEST(ViewerLayout, HexNeighboursOneUnitApartInAPlane) {
  auto t = parse_topology("hex 5");
  const auto L = viz::compute_layout(*t, {});
  EXPECT_EQ(L.space_dims, 2);
  for (Vertex v = 0; v < t->num_vertices(); ++v) {
    EXPECT_EQ(L.point[v][2], 0.0);
    for (Vertex w : t->graph.neighbours(v)) {
      EXPECT_NEAR(std::hypot(L.point[v][0] - L.point[w][0], L.point[v][1] - L.point[w][1]), 1.0,
                  1e-9);
    }
  }
}

TEST(ViewerLayout, DotPositionsScaledAndComputedLayoutIsSeeded) {
  auto with_pos = make_from_dot(kDotGrid, "grid.dot");
  ASSERT_EQ(with_pos->positions.size(), 16u);
  const auto L = viz::compute_layout(*with_pos, {});
  EXPECT_EQ(L.space_dims, 2);
  for (Vertex v = 0; v < 16; ++v)
    for (Vertex w : with_pos->graph.neighbours(v))
      EXPECT_NEAR(std::hypot(L.point[v][0] - L.point[w][0], L.point[v][1] - L.point[w][1]), 1.0,
                  1e-9);

  auto no_pos = make_from_dot(dot_without_pos(), "free.dot");
  ASSERT_TRUE(no_pos->positions.empty());
  const auto a = viz::compute_layout(*no_pos, {});
  const auto b = viz::compute_layout(*no_pos, {});
  EXPECT_EQ(a.point, b.point);  // the same picture every time
  EXPECT_EQ(a.space_dims, 3);
  // Force-directed: neighbours end up closer than non-neighbours on average.
  double near = 0, far = 0;
  int nn = 0, nf = 0;
  for (Vertex v = 0; v < 16; ++v) {
    for (Vertex w = v + 1; w < 16; ++w) {
      double d = 0;
      for (int k = 0; k < 3; ++k) d += std::pow(a.point[v][k] - a.point[w][k], 2);
      d = std::sqrt(d);
      if (no_pos->graph.adjacent(v, w)) {
        near += d;
        ++nn;
      } else {
        far += d;
        ++nf;
      }
    }
  }
  EXPECT_LT(near / nn, 0.75 * far / nf);
}

// ------------------------------------------------------------------ pictures (Xvfb)

class ViewerPng : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed (apt-get install xvfb)";
  }
};

TEST_F(ViewerPng, Cube5x5x5StonesInTheirColours) {
  Position pos = make("grid 5x5x5");
  const std::string moves = random_moves(pos, 24, 7);
  const auto png = render("cube", "--topology 'grid 5x5x5' --moves '" + moves + "'");
  const Image img = read_png(png);
  expect_not_blank(img);
  viz::SceneOptions opts;
  expect_stone_colour(img, pos, opts, kBlack);
  expect_stone_colour(img, pos, opts, kWhite);

  // --move shows an earlier position: a different picture, its own stones in place.
  const auto early =
      render("cube_move4", "--topology 'grid 5x5x5' --moves '" + moves + "' --move 4");
  const Image img4 = read_png(early);
  EXPECT_GT(pixels_differing(img, img4), 2000u);
  expect_stone_colour(img4, viz::position_at(pos, 4), opts, kBlack);
}

TEST_F(ViewerPng, FourDCrossSectionsDifferBySlice) {
  Position pos = make("grid 5x5x5x5");
  const std::string moves = random_moves(pos, 160, 11);
  const std::string base = "--topology 'grid 5x5x5x5' --moves '" + moves + "'";
  const Image w1 = read_png(render("4d_w1", base + " --slice w=1"));
  const Image w3 = read_png(render("4d_w3", base + " --slice w=3"));
  expect_not_blank(w1);
  expect_not_blank(w3);
  EXPECT_GT(pixels_differing(w1, w3), static_cast<std::size_t>(kW * kH / 100));
  for (std::uint32_t w : {0u, 2u}) {
    viz::SceneOptions opts;
    viz::parse_slices("w=" + std::to_string(w + 1), pos.topology(), opts.view);
    for (Player p : {kBlack, kWhite}) expect_stone_colour(w == 0 ? w1 : w3, pos, opts, p);
  }
  // Another choice of drawn axes.
  const Image xyw = read_png(render("4d_xyw", base + " --axes x,y,w --slice z=2"));
  expect_not_blank(xyw);
  viz::SceneOptions opts;
  viz::parse_axes("x,y,w", pos.topology(), opts.view);
  viz::parse_slices("z=2", pos.topology(), opts.view);
  expect_stone_colour(xyw, pos, opts, kBlack);
  expect_stone_colour(xyw, pos, opts, kWhite);
  // Small multiples: every slice of w side by side.
  const Image mult = read_png(render("4d_multiples", base + " --multiples w"));
  expect_not_blank(mult);
  viz::SceneOptions mo;
  mo.view.multiples_axis = 3;
  expect_stone_colour(mult, pos, mo, kBlack);
  expect_stone_colour(mult, pos, mo, kWhite);
}

TEST_F(ViewerPng, HexBoardFlat) {
  Position pos = make("hex 5");
  const std::string moves = random_moves(pos, 16, 3);
  const std::string args = "--topology 'hex 5' --moves '" + moves + "'";
  // Point names (on by default here) may lie over other stones: colours are checked without.
  const Image img = read_png(render("hex", args + " --names 0"));
  expect_not_blank(img);
  viz::SceneOptions opts;
  opts.show_names = 0;
  expect_stone_colour(img, pos, opts, kBlack);
  expect_stone_colour(img, pos, opts, kWhite);
  const Image named = read_png(render("hex_names", args));
  EXPECT_GT(pixels_differing(img, named), 1000u);  // the names are drawn
}

TEST_F(ViewerPng, DotBoardsWithAndWithoutPositions) {
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"grid.dot", kDotGrid},
                                   {"free.dot", dot_without_pos()}}) {
    const fs::path file = write_temp(name, text);
    auto topo = parse_topology("file " + file.string());
    Position pos(topo, make_setup(*topo));
    const std::string moves = random_moves(pos, 4, 5);
    const std::string args =
        "--topology " + quote("file " + file.string()) + " --moves '" + moves + "'";
    const Image img = read_png(render(name, args + " --names 0"));
    expect_not_blank(img);
    viz::SceneOptions opts;
    opts.show_names = 0;
    expect_stone_colour(img, pos, opts, kBlack);
    expect_stone_colour(img, pos, opts, kWhite);
    const Image named = read_png(render(name + "_names", args));
    EXPECT_GT(pixels_differing(img, named), 500u);
  }
}

TEST_F(ViewerPng, GameFileShownAtAnyMove) {
  Game game = new_game("grid 5x5x5", "default", 2, {"ann", "bob"});
  random_moves(game.position, 12, 9);
  const fs::path file = temp_dir() / "g.tanbo";
  save_game(game, file.string());
  const Image all = read_png(render("game_all", quote(file.string())));
  const Image m6 = read_png(render("game_6", quote(file.string()) + " --move 6"));
  viz::SceneOptions opts;
  expect_stone_colour(all, game.position, opts, kBlack);
  expect_stone_colour(m6, viz::position_at(game.position, 6), opts, kWhite);
  EXPECT_GT(pixels_differing(all, m6), 1000u);
}

TEST(ViewerCli, RefusesBadOptionsClearly) {
  struct Case {
    std::string args, says;
  };
  const fs::path out = temp_dir() / "never.png";
  for (const Case& c : std::vector<Case>{
           {"--topology 'grid 5x5x5' --slice z=3", "4 or more axes"},
           {"--topology 'grid 5x5x5x5' --axes x,x,y", "twice"},
           {"--topology 'grid 5x5x5x5' --slice w=9", "1..5"},
           {"--topology 'grid 5x5x5x5' --axes x,y,v", "unknown axis"},
           {"--topology 'grid 5x5x5' --size 10", "--size"},
           {"--topology 'grid 5x5x5' --moves 999", "not a point"},
           {"--topology 'grid 5x5x5' --moves 333", "no Black stone touches 333"},
           {"--topology 'grid 5x5x5' --move 3", "the game has 0 moves"},
           {"/nonexistent/game.tanbo", "no such game file"},
           {"--topology 'grid 5x5x5' --bogus", "bogus"},
       }) {
    expect_refused(quote(tanbo_bin()) + " view " + c.args + " --png " + quote(out.string()),
                   c.says);
    EXPECT_FALSE(fs::exists(out));
  }
  // Without an X display: a clear message, no crash.
  expect_refused("env -u DISPLAY " + quote(tanbo_bin()) + " view --topology 'grid 5x5x5' --png " +
                     quote(out.string()),
                 "xvfb-run");
  EXPECT_FALSE(fs::exists(out));
}

// ------------------------------------------------------------------ game logic of the window

TEST(ViewerSession, ClicksPlayRefuseAndSave) {
  Game game = new_game("grid 5x5x5", "default", 2, {});
  const fs::path file = temp_dir() / "session.tanbo";
  std::vector<std::unique_ptr<Agent> > engines;
  engines.push_back(nullptr);
  engines.push_back(make_agent("random", 3));
  viz::Session s(game, file.string(), std::move(engines));
  const Topology& t = game.position.topology();

  // 333 touches no black stone: refused with the rules' reason, nothing changes.
  bool played = true;
  std::string m = s.click(*t.parse_vertex("333"), &played);
  EXPECT_FALSE(played);
  EXPECT_NE(m.find(game.position.explain(kBlack, *t.parse_vertex("333"))), std::string::npos) << m;
  EXPECT_EQ(s.last_ply(), 0u);
  EXPECT_FALSE(fs::exists(file));

  // 125 grows Black's 115 (the pbmserv sample game): played and saved.
  m = s.click(*t.parse_vertex("125"), &played);
  EXPECT_TRUE(played) << m;
  EXPECT_NE(m.find("Black played 125"), std::string::npos) << m;
  EXPECT_EQ(load_game(file.string()).position.ply(), 1u);

  // White is the engine: a click is refused, the engine answers and the file has both moves.
  EXPECT_TRUE(s.engine_to_move());
  m = s.click(*t.parse_vertex("255"), &played);
  EXPECT_FALSE(played);
  EXPECT_NE(m.find("engine"), std::string::npos);
  m = s.engine_move();
  EXPECT_NE(m.find("White (random) played"), std::string::npos) << m;
  EXPECT_EQ(load_game(file.string()).position.ply(), 2u);

  // Looking back at an earlier move: no playing there.
  s.previous();
  EXPECT_EQ(s.shown_ply(), 1u);
  const Vertex legal = game.position.legal_moves(kBlack).front();
  m = s.click(legal, &played);
  EXPECT_FALSE(played);
  EXPECT_NE(m.find("press End"), std::string::npos);
  s.last();
  EXPECT_TRUE(s.at_end());

  // Take back: the engine's move and ours, saved.
  m = s.take_back();
  EXPECT_EQ(s.last_ply(), 0u);
  EXPECT_EQ(load_game(file.string()).position.ply(), 0u);
}

// An engine thinks on a thread of its own while the window stays live: its choice is played
// when collected, unless the game moved on meanwhile (then it is dropped and nothing changes);
// someone looking at an earlier move keeps looking at it.
TEST(ViewerSession, EnginesThinkInTheBackgroundAndStaleChoicesAreDropped) {
  Game game = new_game("grid 5x5x5", "default", 2, {});
  std::vector<std::unique_ptr<Agent> > engines;
  engines.push_back(nullptr);
  engines.push_back(make_agent("mcts:playouts=300", 3));
  viz::Session s(game, "", std::move(engines));
  const Topology& t = game.position.topology();

  bool played = false;
  s.click(*t.parse_vertex("125"), &played);
  ASSERT_TRUE(played);
  EXPECT_FALSE(s.engine_thinking());
  ASSERT_TRUE(s.start_engine());
  EXPECT_TRUE(s.engine_thinking());
  EXPECT_FALSE(s.start_engine()) << "one engine at a time";
  // Meanwhile the window can page back through the game.
  s.previous();
  EXPECT_EQ(s.shown_ply(), 0u);
  while (!s.engine_ready()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::string m = s.finish_engine();
  EXPECT_NE(m.find("White (mcts:playouts=300) played"), std::string::npos) << m;
  EXPECT_FALSE(s.engine_thinking());
  EXPECT_EQ(s.last_ply(), 2u);
  EXPECT_EQ(s.shown_ply(), 0u) << "the view stays where it was";
  s.last();

  // Black plays, White starts thinking, Black takes the move back: White's choice is stale.
  const Vertex black = game.position.legal_move(kBlack, 0);
  s.click(black, &played);
  ASSERT_TRUE(played);
  ASSERT_TRUE(s.start_engine());
  s.take_back();
  EXPECT_EQ(s.last_ply(), 2u);
  const std::uint64_t before = game.position.hash();
  EXPECT_EQ(s.finish_engine(), "");
  EXPECT_EQ(game.position.hash(), before);
  EXPECT_EQ(s.last_ply(), 2u);
  EXPECT_FALSE(s.engine_to_move()) << "Black, a person, is to move";

  // engine_move() collects a thinking engine first, then lets the one to move play.
  s.click(black, &played);
  ASSERT_TRUE(s.start_engine());
  m = s.engine_move();
  EXPECT_NE(m.find("White"), std::string::npos) << m;
  EXPECT_EQ(s.last_ply(), 4u);
  // An engine still thinking when the session ends is waited for (no crash, no leak).
  s.click(game.position.legal_move(kBlack, 0), &played);
  ASSERT_TRUE(s.start_engine());
}

// An engine that would think for a minute: a take-back tells it to stop, so its stale choice
// is ready within moments; closing the session (the window) while it thinks stops it too.
TEST(ViewerSession, TakeBackAndClosingStopALongThink) {
  using Clock = std::chrono::steady_clock;
  Game game = new_game("grid 9x9", "default", 2, {});
  std::vector<std::unique_ptr<Agent> > engines;
  engines.push_back(nullptr);
  engines.push_back(make_agent("mcts:time=60", 3));
  auto s = std::make_unique<viz::Session>(game, "", std::move(engines));
  bool played = false;
  s->click(game.position.legal_move(kBlack, 0), &played);
  ASSERT_TRUE(played);
  ASSERT_TRUE(s->start_engine());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s->take_back();
  EXPECT_EQ(s->last_ply(), 0u);
  auto t0 = Clock::now();
  // engine_ready() repeats the stop while the choice is stale (the first one may have come
  // before the search started).
  while (!s->engine_ready() && Clock::now() - t0 < std::chrono::seconds(30)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(s->engine_ready()) << "the stale search did not stop";
  EXPECT_EQ(s->finish_engine(), "");
  EXPECT_EQ(s->last_ply(), 0u);

  // finish_engine() itself, called at once on a stale choice, stops the engine too.
  s->click(game.position.legal_move(kBlack, 0), &played);
  ASSERT_TRUE(played);
  ASSERT_TRUE(s->start_engine());
  s->take_back();
  t0 = Clock::now();
  EXPECT_EQ(s->finish_engine(), "");
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 30.0)
      << "finish_engine waited for the stale engine's minute";
  EXPECT_FALSE(s->engine_thinking());
  EXPECT_EQ(s->last_ply(), 0u);

  s->click(game.position.legal_move(kBlack, 0), &played);
  ASSERT_TRUE(played);
  ASSERT_TRUE(s->start_engine());
  t0 = Clock::now();
  s.reset();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 30.0)
      << "closing waited for the engine's minute";
  EXPECT_EQ(game.position.ply(), 1u) << "the stopped engine's move is not played";
}

// ------------------------------------------------------------------ the window (Xvfb)

namespace {

// Runs the test `name` of this program under xvfb-run when there is no display; returns
// true when the caller should go on (a display is there), false when the child did the work.
bool under_display(const std::string& name) {
  if (viz::have_display()) return true;
  if (!have_xvfb()) {
    ADD_FAILURE() << "neither DISPLAY nor xvfb-run";
    return false;
  }
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string cmd = xvfb_run() + quote(self) + " --gtest_filter=" + name;
  auto r = run_command(cmd);
  if (r.status != 0 && r.err.find("Xvfb") != std::string::npos) r = run_command(cmd);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("[  PASSED  ] 1 test"), std::string::npos) << r.out;
  return false;
}

// A legal move of the side to move that a click at its picture lands on, turning the camera
// when every legal point is hidden; kNoVertex if none after a full turn.
Vertex clickable_legal_move(viz::ViewerWindow& w, const Position& pos, std::array<double, 3>& at) {
  for (int turn = 0; turn < 8; ++turn) {
    for (Vertex v : pos.legal_moves(pos.to_move())) {
      at = viz::world_to_display(w.renderer(), w.info().layout.point[v]);
      at = {std::round(at[0]), std::round(at[1]), at[2]};  // a mouse is at whole pixels
      if (at[0] < 2 || at[1] < 2 || at[0] > 398 || at[1] > 298) continue;
      if (viz::pick_vertex(w.renderer(), w.info(), at[0], at[1]) == v) return v;
    }
    w.renderer()->GetActiveCamera()->Azimuth(45);
  }
  return kNoVertex;
}

}  // namespace

TEST(ViewerWindow, WholeGameWithTheMouseAgainstTheEngine) {
  if (!under_display("ViewerWindow.WholeGameWithTheMouseAgainstTheEngine")) return;
  Game game = new_game("grid 5x5x5", "default", 2, {"me", "engine"});
  const fs::path file = temp_dir() / "mouse.tanbo";
  std::vector<std::unique_ptr<Agent> > engines;
  engines.push_back(nullptr);
  engines.push_back(make_agent("random", 5));
  viz::Session session(game, file.string(), std::move(engines));
  viz::ViewerWindow w(session, {}, 400, 300, 0);  // no anti-aliasing: quicker in software
  w.open();

  // A click on a stone: refused with the reason, shown in the window.
  const Vertex stone = *game.position.topology().parse_vertex("115");
  auto at = viz::world_to_display(w.renderer(), w.info().layout.point[stone]);
  w.simulate_click(int(std::lround(at[0])), int(std::lround(at[1])));
  EXPECT_EQ(game.position.ply(), 0u);
  EXPECT_NE(w.message().find("cannot play"), std::string::npos) << w.message();

  // Keys: toggles and history.
  w.simulate_key("e");
  EXPECT_FALSE(w.options().show_empty);
  w.simulate_key("e");
  EXPECT_TRUE(w.options().show_empty);
  w.simulate_key("r");
  EXPECT_TRUE(w.options().show_root_space);
  w.simulate_key("r");

  // Play to the end: every Black move a mouse click, every White move the engine's.
  int clicks = 0;
  while (!game.position.is_over() && clicks < 400) {
    const Vertex v = clickable_legal_move(w, game.position, at);
    ASSERT_NE(v, kNoVertex) << "no legal point can be clicked";
    const std::uint32_t before = game.position.ply();
    w.simulate_click(int(std::lround(at[0])), int(std::lround(at[1])));
    ASSERT_EQ(game.position.ply(), before + 1) << w.message();
    EXPECT_EQ(game.position.history().back().vertex, v);
    ++clicks;
    w.run_engines();
  }
  EXPECT_TRUE(game.position.is_over());
  const Game saved = load_game(file.string());
  EXPECT_EQ(saved.position.ply(), game.position.ply());
  EXPECT_EQ(saved.position.winner(), game.position.winner());

  // Stepping back through the game with the keys.
  w.simulate_key("Home");
  EXPECT_EQ(session.shown_ply(), 0u);
  w.simulate_key("Right");
  EXPECT_EQ(session.shown_ply(), 1u);
  w.simulate_key("End");
  EXPECT_TRUE(session.at_end());
}

TEST(ViewerWindow, EnginesPlayOnTheirTimer) {
  if (!under_display("ViewerWindow.EnginesPlayOnTheirTimer")) return;
  Game game = new_game("hex 3", "default", 2, {});
  std::vector<std::unique_ptr<Agent> > engines;
  engines.push_back(make_agent("random", 1));
  engines.push_back(make_agent("random", 2));
  viz::Session session(game, "", std::move(engines));
  viz::ViewerWindow w(session, {}, 300, 300, 0);
  w.open();
  // The real event loop: the window's timer lets each engine move in turn. A timer of the
  // test's own ends the loop when the game is over (or after a minute).
  struct Watch {
    const Position* pos;
    vtkRenderWindowInteractor* in;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  } watch{&game.position, w.interactor()};
  vtkNew<vtkCallbackCommand> cb;
  cb->SetClientData(&watch);
  cb->SetCallback([](vtkObject*, unsigned long, void* data, void*) {
    auto* wt = static_cast<Watch*>(data);
    if (wt->pos->is_over() ||
        std::chrono::steady_clock::now() - wt->start > std::chrono::seconds(60)) {
      wt->in->TerminateApp();
    }
  });
  w.interactor()->AddObserver(vtkCommand::TimerEvent, cb);
  w.interactor()->CreateRepeatingTimer(100);
  w.run();
  EXPECT_TRUE(game.position.is_over());
  EXPECT_NE(w.message().find("wins"), std::string::npos) << w.message();
}

TEST(ViewerWindow, SlicesAndAxesOfA4DBoard) {
  if (!under_display("ViewerWindow.SlicesAndAxesOfA4DBoard")) return;
  Game game = new_game("grid 5x5x5x5", "default", 2, {});
  viz::Session session(game, "", {});
  viz::ViewerWindow w(session, {}, 900, 650, 0);
  w.open();
  auto visible_w = [&] {  // the w values of the drawn points
    std::set<std::uint32_t> ws;
    for (Vertex v = 0; v < game.position.num_vertices(); ++v)
      if (w.info().layout.visible[v]) ws.insert(game.position.topology().coords(v)[3]);
    return ws;
  };
  EXPECT_EQ(w.options().view.axes, (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(w.slider_axes(), std::vector<int>{3});
  EXPECT_EQ(visible_w(), std::set<std::uint32_t>{2});  // the middle slice first
  w.set_slice(3, 4);
  EXPECT_EQ(visible_w(), std::set<std::uint32_t>{4});
  w.simulate_key("a");
  EXPECT_EQ(w.options().view.axes, (std::array<int, 3>{0, 1, 3}));
  EXPECT_EQ(w.slider_axes(), std::vector<int>{2});
  w.simulate_key("m");
  EXPECT_EQ(w.options().view.multiples_axis, 2);
  EXPECT_TRUE(w.slider_axes().empty());
  EXPECT_EQ(std::count(w.info().layout.visible.begin(), w.info().layout.visible.end(), 1), 625);
}

#endif
