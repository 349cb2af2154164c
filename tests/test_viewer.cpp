// The VTK viewer (src/viz/, tanbo view): layouts, refusals of the command line, the game logic
// behind the window, and the window itself driven by synthetic mouse clicks and keys.
// Picking, text layout and pictures are tested in test_viewer_scene.cpp.
//
// The window tests re-run this program under xvfb-run when there is no display. Without the
// viewer in the build, `tanbo view` must say so.
#include <array>
#include <chrono>
#include <cmath>
#include <set>
#include <thread>

#include "viewer_test.hpp"

using namespace tanbo::viewer_test;

#ifndef TANBO_HAVE_VIEWER

TEST(ViewerNotBuilt, ViewSaysSo) {
  tanbo::test::expect_refused(tanbo_bin() + " view --topology 'grid 5x5x5'",
                              "built without the viewer");
}

#else

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkRenderWindowInteractor.h>

#include "layout.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/platform/memory.hpp"
#include "viewer.hpp"

using namespace tanbo;
using tanbo::test::expect_refused;

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

// A graph without positions too big for a force layout (all pairs repel: hours for a hundred
// thousand points, and a million never ended) is laid out from graph distances, in time in
// proportion to it: the same picture every time, finite, every point in a place of its own,
// neighbours nearer than other points, isolated points included.
TEST(ViewerLayout, BigGraphsWithoutPositionsAreLaidOutInTimeInProportion) {
  std::string dot = "graph {\n";
  const int chain = 100000, isolated = 2000;
  for (int i = 0; i + 1 < chain; ++i)
    dot += "p" + std::to_string(i) + " -- p" + std::to_string(i + 1) + ";\n";
  for (int i = 0; i < isolated; ++i) dot += "q" + std::to_string(i) + ";\n";
  dot += "}\n";
  auto t = make_from_dot(dot, "big.dot");
  ASSERT_EQ(t->num_vertices(), static_cast<Vertex>(chain + isolated));
  const auto a = viz::compute_layout(*t, {});
  EXPECT_EQ(a.point, viz::compute_layout(*t, {}).point);
  std::set<std::array<double, 3> > places;
  for (const auto& p : a.point) {
    for (double x : p) ASSERT_TRUE(std::isfinite(x));
    places.insert(p);
  }
  EXPECT_EQ(places.size(), a.point.size());
  const auto dist = [&](Vertex v, Vertex w) {
    double d = 0;
    for (int k = 0; k < 3; ++k) d += std::pow(a.point[v][k] - a.point[w][k], 2);
    return std::sqrt(d);
  };
  double near = 0, far = 0;
  for (Vertex v = 0; v + 1 < static_cast<Vertex>(chain); v += 97) {
    near += dist(v, v + 1);
    far += dist(v, (v * 7919 + 12345) % chain);
  }
  EXPECT_LT(near, 0.1 * far);
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
           {"--topology 'grid 5x5x5' --move -1", "--move -1: give 0 (the start) or a later"},
           {"--topology 'grid 500x500' --max-memory 300M", "drawing the 250000 points of"},
           {"--topology 'grid 20x20x20x20' --multiples --max-memory 300M",
            "drawing the 160000 points of"},
           {"--topology 'grid 5x5x5' --size 8192x8192 --max-memory 2G", "at 8192x8192 would need"},
           {"--topology 'grid 5x5x5x5' --slice z=2,z=3", "--slice names z twice"},
           {"--topology 'grid 5x5x5' --engine ''", "--engine SPEC is empty"},
           {"--topology 'grid 9x9' --fade-front", "--fade-front applies to boards drawn in 3D"},
           {"--topology 'hex 4' --fade-front 2", "is flat"},
           {"--topology 'grid 5x5x5' --fade-front=-1", "0 to 1000"},
           {"--topology 'grid 5x5x5' --names=-1", "--names takes 1 (on, as --names alone) or 0"},
           {"/nonexistent/game.tanbo", "no such game file"},
           {"--topology 'grid 5x5x5' --bogus", "bogus"},
       }) {
    expect_refused(quote(tanbo_bin()) + " view " + c.args + " --png " + quote(out.string()),
                   c.says);
    EXPECT_FALSE(fs::exists(out));
  }
  // An empty name is no name: refused, not a window opened instead of the picture.
  expect_refused(quote(tanbo_bin()) + " view --topology 'grid 5x5x5' --png ''",
                 "--png FILE is empty");
  // Without an X display: a clear message, no crash.
  expect_refused("env -u DISPLAY " + quote(tanbo_bin()) + " view --topology 'grid 5x5x5' --png " +
                     quote(out.string()),
                 "xvfb-run");
  EXPECT_FALSE(fs::exists(out));
  // A display that cannot be reached (VTK itself would abort): the same, for the picture and
  // for the window.
  expect_refused("DISPLAY=:4321 " + quote(tanbo_bin()) + " view --topology 'grid 5x5x5' --png " +
                     quote(out.string()),
                 "the X display \":4321\" cannot be opened");
  const fs::path game = out.parent_path() / "new.tanbo";
  expect_refused("DISPLAY=:4321 " + quote(tanbo_bin()) + " view " + quote(game.string()) +
                     " --topology 'grid 5x5x5'",
                 "the X display \":4321\" cannot be opened");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(game)) << "the window did not open: no game file is created";
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
  const fs::path file = temp_dir() / "mouse.tanbo";
  std::vector<Seat> seats(2);
  seats[1] = make_seat("random", 5);
  Session session(new_game("grid 5x5x5", "default", 2, {"me", "engine"}), std::move(seats),
                  file.string());
  const Game& game = session.game();
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
  std::vector<Seat> seats;
  seats.push_back(make_seat("random", 1));
  seats.push_back(make_seat("random", 2));
  Session session(new_game("hex 3", "default", 2, {}), std::move(seats));
  const Game& game = session.game();
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
  Session session(new_game("grid 5x5x5x5", "default", 2, {}));
  const Game& game = session.game();
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
