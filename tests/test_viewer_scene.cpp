// The viewer's scene (src/viz/scene*.cpp): a click at a point's centre picks that point, text
// never overlaps and is drawn where the layout says, the legend names every mark, stones are
// shaded and outlined in their players' colours, front layers fade, and pictures of every
// kind of board. Pictures are rendered by the real program under xvfb-run (skipped when it is
// missing); layouts and picking need no display.
#include "viewer_test.hpp"

#ifdef TANBO_HAVE_VIEWER

#include <vtkCamera.h>

#include <map>

#include "tanbo/io/gamefile.hpp"
#include "viewer.hpp"

using namespace tanbo;
using namespace tanbo::viewer_test;

// ------------------------------------------------------------------ picking (no display)

namespace {

// Projects the centre of every drawn point to the screen, clicks there (at whole pixels, as a
// mouse does) and expects that point picked. After the player turned the board two points may
// land on the same spot (`exact` false): then the one nearer the viewer may be picked instead.
// Returns the number of points tried.
int expect_each_point_picked_at_its_centre(Framed& f, const Position& pos, const std::string& what,
                                           bool exact = true) {
  int tried = 0;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (!f.info.layout.visible[v]) continue;
    const auto d = viz::world_to_display(f.renderer, f.info.layout.point[v]);
    const double x = std::round(d[0]), y = std::round(d[1]);
    const Vertex got = viz::pick_vertex(f.renderer, f.info, x, y);
    ++tried;
    if (!exact && got != v && got != kNoVertex) {
      const auto g = viz::world_to_display(f.renderer, f.info.layout.point[got]);
      if (std::hypot(g[0] - d[0], g[1] - d[1]) < 1.5 && g[2] < d[2]) continue;
    }
    EXPECT_EQ(got, v) << what << ": a click at the centre of " << pos.topology().name(v) << " ("
                      << x << "," << y << ") picked "
                      << (got == kNoVertex ? std::string("nothing") : pos.topology().name(got));
  }
  return tried;
}

}  // namespace

TEST(ViewerPick, EveryPointAtItsCentreOnTheCubeAnd4DViews) {
  struct Case {
    std::string what;
    Position pos;
    viz::SceneOptions opts;
    int points;
    std::vector<std::array<int, 2>> sizes;
  };
  std::vector<Case> cases;
  cases.push_back({"5x5x5 start", make("grid 5x5x5"), {}, 125, {{900, 650}, {400, 300}}});
  cases.push_back(
      {"5x5x5 move 60", played("grid 5x5x5", 60, 3), {}, 125, {{900, 650}, {640, 480}}});
  Case slice{"5x5x5x5 axes x,y,w slice z=3", played("grid 5x5x5x5", 150, 2), {}, 125, {{900, 650}}};
  viz::parse_axes("x,y,w", slice.pos.topology(), slice.opts.view);
  viz::parse_slices("z=3", slice.pos.topology(), slice.opts.view);
  cases.push_back(slice);
  Case mult{"5x5x5x5 multiples w", played("grid 5x5x5x5", 150, 2), {}, 625, {{1400, 520}}};
  mult.opts.view.multiples_axis = 3;
  cases.push_back(mult);
  for (Case& c : cases) {
    for (const auto& [w, h] : c.sizes) {
      const std::string what = c.what + " at " + std::to_string(w) + "x" + std::to_string(h);
      Framed f(c.pos, c.opts, w, h);
      EXPECT_EQ(expect_each_point_picked_at_its_centre(f, c.pos, what), c.points);
      // After the player turns the board (the camera moves, the scene stays).
      f.renderer->GetActiveCamera()->Azimuth(35);
      f.renderer->GetActiveCamera()->Elevation(20);
      f.renderer->GetActiveCamera()->OrthogonalizeViewUp();
      expect_each_point_picked_at_its_centre(f, c.pos, what + ", turned", false);
    }
  }
  // Away from every point: nothing.
  Framed f(make("grid 5x5x5"), {}, 640, 480);
  EXPECT_EQ(viz::pick_vertex(f.renderer, f.info, 2, 2), kNoVertex);
}

// ------------------------------------------------------------------ text (no display)

namespace {

// No two boxes of text meet, every box is inside the window, the legend and status line are
// there, and at a fair size no title is left out and few ticks and names are.
void expect_text_laid_out(const viz::SceneInfo& info, int w, int h, const std::string& what) {
  const auto boxes = viz::text_boxes(info);
  auto has = [&](const std::string& role) {
    return std::any_of(boxes.begin(), boxes.end(), [&](auto& b) { return b.role == role; });
  };
  EXPECT_TRUE(has("legend")) << what;
  EXPECT_TRUE(has("status")) << what;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const auto& a = boxes[i];
    EXPECT_TRUE(a.box.inside(w, h)) << what << ": \"" << a.text << "\" leaves the window";
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      const auto& b = boxes[j];
      EXPECT_FALSE(a.box.intersects(b.box))
          << what << ": " << a.role << " \"" << a.text << "\" [" << a.box.x0 << "," << a.box.y0
          << " " << a.box.x1 << "," << a.box.y1 << "] overlaps " << b.role << " \"" << b.text
          << "\" [" << b.box.x0 << "," << b.box.y0 << " " << b.box.x1 << "," << b.box.y1 << "]";
    }
  }
  if (w < 640 || h < 480) return;
  std::map<std::string, std::array<int, 2>> shown;  // role -> shown, total
  for (const auto& l : info.labels) {
    shown[l.role][0] += l.shown;
    shown[l.role][1] += 1;
    if (l.role == "axis title" || l.role == "panel title") {
      EXPECT_TRUE(l.shown) << what << ": the " << l.role << " \"" << l.text << "\" is left out";
    }
  }
  for (const char* role : {"tick", "name"}) {
    const auto [n, total] = shown[role];
    EXPECT_GE(n * 10, total * 8) << what << ": only " << n << " of " << total << " " << role
                                 << " labels fit";
  }
}

}  // namespace

TEST(ViewerText, NoTwoPiecesOfTextOverlapAtAnySize) {
  struct Case {
    std::string what;
    Position pos;
    viz::SceneOptions opts;
  };
  std::vector<Case> cases;
  Case cube{"5x5x5 move 60, root space, see-through", played("grid 5x5x5", 60, 3), {}};
  cube.opts.show_root_space = true;
  cube.opts.fade_front = 1;
  cases.push_back(cube);
  Case mult{"5x5x5x5 multiples", played("grid 5x5x5x5", 150, 2), {}};
  mult.opts.view.multiples_axis = 3;
  cases.push_back(mult);
  Case slice{"5x5x5x5 slice", played("grid 5x5x5x5", 150, 2), {}};
  viz::parse_axes("x,y,w", slice.pos.topology(), slice.opts.view);
  cases.push_back(slice);
  cases.push_back({"hex 5", played("hex 5", 24, 4), {}});
  cases.push_back({"19x19", played("grid 19x19", 60, 5), {}});
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"grid.dot", kDotGrid},
                                   {"free.dot", dot_without_pos()}}) {
    auto topo = make_from_dot(text, name);
    Position pos(topo, make_setup(*topo));
    random_moves(pos, 4, 5);
    cases.push_back({name, pos, {}});
  }
  // The window's text: key help top right, a long message, a slider bottom right.
  Case window{"5x5x5x5 in the window", played("grid 5x5x5x5", 60, 1), {}};
  window.opts.help = viz::kViewerKeys;
  window.opts.status = "viewing move 12 of 60";
  window.opts.message = "Black cannot play 3,3,3,3: no Black stone touches 3,3,3,3";
  window.opts.slider_rows = 1;
  cases.push_back(window);
  for (const Case& c : cases) {
    for (const auto& [w, h] : std::vector<std::array<int, 2>>{
             {640, 480}, {900, 650}, {1400, 520}, {1000, 750}, {400, 300}}) {
      Framed f(c.pos, c.opts, w, h);
      expect_text_laid_out(f.info, w, h,
                           c.what + " at " + std::to_string(w) + "x" + std::to_string(h));
    }
  }
}

// The legend has an entry for every kind of mark drawn, and none for marks not drawn.
TEST(ViewerText, LegendNamesEveryMarkDrawn) {
  auto legend = [](const Position& pos, const viz::SceneOptions& opts) {
    for (const auto& b : viz::text_layout(pos, opts, 900, 650))
      if (b.role == "legend") return b.text;
    return std::string();
  };
  const Position start = make("grid 5x5x5");
  std::string l = legend(start, {});
  EXPECT_NE(l.find("Black: 4 stones, 4 roots  <- to move"), std::string::npos) << l;
  EXPECT_NE(l.find("White: 4 stones, 4 roots"), std::string::npos) << l;
  EXPECT_NE(l.find("dot: empty point"), std::string::npos) << l;
  EXPECT_EQ(l.find("tube"), std::string::npos) << "no root has two stones yet: " << l;
  EXPECT_EQ(l.find("frame"), std::string::npos) << "no move yet: " << l;

  Position pos = played("grid 5x5x5", 60, 3);
  viz::SceneOptions opts;
  opts.show_root_space = true;
  opts.fade_front = 2;
  opts.show_empty = false;
  l = legend(pos, opts);
  EXPECT_NE(l.find("tube: a root's stones joined"), std::string::npos) << l;
  EXPECT_NE(l.find("frame: last move, " + pos.topology().name(pos.last_move().vertex)),
            std::string::npos)
      << l;
  EXPECT_NE(l.find("cube: root space"), std::string::npos) << l;
  EXPECT_NE(l.find("see-through: front layers y=1..2"), std::string::npos) << l;
  opts.fade_front = 1;
  l = legend(pos, opts);
  EXPECT_NE(l.find("see-through: front layer y=1"), std::string::npos) << l;
  EXPECT_EQ(l.find("dot"), std::string::npos) << "empty points hidden: " << l;
}

// --fade-front N: the N layers nearest the camera, across the axis it looks most nearly
// along (y for the starting camera), are see-through; none on other layers.
TEST(ViewerText, FadeFrontLayers) {
  const Position pos = played("grid 5x5x5", 60, 3);
  for (int n : {1, 2, 9}) {
    viz::SceneOptions opts;
    opts.fade_front = n;
    Framed f(pos, opts, 640, 480);
    for (Vertex v = 0; v < pos.num_vertices(); ++v) {
      const std::uint32_t y = pos.topology().coords(v)[1];
      EXPECT_EQ(bool(f.info.faded[v]), y < std::uint32_t(std::min(n, 4))) << pos.topology().name(v);
    }
  }
  Framed none(pos, {}, 640, 480);
  EXPECT_EQ(std::count(none.info.faded.begin(), none.info.faded.end(), 1), 0);
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

namespace {

int brightness(const std::array<int, 3>& c) {
  return (c[0] + c[1] + c[2]) / 3;
}

bool near(const std::array<int, 3>& c, const std::array<double, 3>& want, int tolerance) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(c[k] - want[k] * 255) > tolerance) return false;
  return true;
}

// Every piece of text the layout lists is drawn in the PNG inside its box: some pixels of the
// box have the text's colour.
void expect_text_in_its_boxes(const Image& img, const std::vector<viz::TextBox>& boxes,
                              const std::string& what) {
  ASSERT_FALSE(boxes.empty());
  for (const auto& b : boxes) {
    if (b.role == "legend" || b.role == "sliders") continue;  // symbols and widgets inside
    const auto colour = b.role == "status" || b.role == "help" ? viz::kInk : viz::label_colour();
    int ink = 0;
    for (int y = int(b.box.y0); y < int(b.box.y1); ++y)
      for (int x = int(b.box.x0); x < int(b.box.x1); ++x) ink += near(img.at(x, y), colour, 75);
    EXPECT_GT(ink, 2) << what << ": no text drawn in the box of " << b.role << " \"" << b.text
                      << "\"";
  }
}

}  // namespace

// The text of the PNG is where text_layout says, so the layout test above is about the real
// picture: for the cube, the 4D small multiples, hex and a DOT board.
TEST_F(ViewerPng, TextIsDrawnWhereTheLayoutSays) {
  Position cube = make("grid 5x5x5");
  const std::string moves = random_moves(cube, 60, 3);
  viz::SceneOptions opts;
  opts.show_root_space = true;
  const Image c = read_png(
      render("layout_cube", "--topology 'grid 5x5x5' --root-space --moves '" + moves + "'"));
  expect_text_in_its_boxes(c, viz::text_layout(cube, opts, kW, kH), "5x5x5");

  Position four = make("grid 5x5x5x5");
  const std::string moves4 = random_moves(four, 150, 2);
  viz::SceneOptions mo;
  mo.view.multiples_axis = 3;
  const Image m = read_png(render(
      "layout_4d", "--topology 'grid 5x5x5x5' --multiples w --moves '" + moves4 + "'", 1400, 520));
  expect_text_in_its_boxes(m, viz::text_layout(four, mo, 1400, 520), "4D multiples");

  Position hex = make("hex 5");
  const std::string hmoves = random_moves(hex, 24, 4);
  const Image h = read_png(render("layout_hex", "--topology 'hex 5' --moves '" + hmoves + "'"));
  expect_text_in_its_boxes(h, viz::text_layout(hex, {}, kW, kH), "hex 5");
}

// Stones read as balls: both colours shaded across the disc (a highlight up and to the left)
// and outlined, black with a light ring, white with a dark one.
TEST_F(ViewerPng, StonesShadedAndOutlined) {
  Position pos = make("grid 5x5x5");
  const std::string moves = random_moves(pos, 24, 7);
  const Image img =
      read_png(render("shaded", "--topology 'grid 5x5x5' --no-empty --moves '" + moves + "'"));
  viz::SceneOptions opts;
  opts.show_empty = false;
  const auto dp = viz::display_positions(pos, opts, kW, kH);
  Framed f(pos, opts, kW, kH);  // the same camera: its scale gives the pixels of a unit
  const double unit = kH / (2 * f.renderer->GetActiveCamera()->GetParallelScale());
  for (Player p : {kBlack, kWhite}) {
    const Vertex v = visible_stone(pos, dp, p, false);
    ASSERT_NE(v, kNoVertex);
    const double r = viz::kStoneRadius * unit;
    ASSERT_GT(r, 6) << "stones too small to look at";
    const int cx = int(std::lround(dp[v][0])), cy = int(std::lround(dp[v][1]));
    // Shading: the upper left (towards the light) is brighter than the lower right.
    const int lit = brightness(img.at(int(cx - 0.45 * r), int(cy + 0.45 * r)));
    const int shade = brightness(img.at(int(cx + 0.6 * r), int(cy - 0.6 * r)));
    EXPECT_GT(lit - shade, 25) << player_title(p) << " stone " << pos.topology().name(v) << ": lit "
                               << lit << ", shaded " << shade;
    // The outline: a ring just outside the disc, light around black, dark around white, in
    // at least one of the four directions (a tube may leave from the others).
    int ring = 0;
    for (const auto& [dx, dy] : std::vector<std::array<int, 2>>{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      for (double t = 0.85; t <= 1.35; t += 0.05) {
        const auto c = img.at(int(std::lround(cx + dx * t * r)), int(std::lround(cy + dy * t * r)));
        ring += p == kBlack ? brightness(c) > 205 : brightness(c) < 60;
      }
    }
    EXPECT_GT(ring, 1) << player_title(p) << " stone " << pos.topology().name(v)
                       << " has no outline";
  }
}

// --fade-front: the front layer's stones are see-through, so the picture changes there and
// the legend says so.
TEST_F(ViewerPng, FadeFrontMakesTheFrontLayerSeeThrough) {
  Position pos = make("grid 5x5x5");
  const std::string moves = random_moves(pos, 60, 3);
  const std::string args = "--topology 'grid 5x5x5' --moves '" + moves + "'";
  const Image solid = read_png(render("solid", args));
  const Image faded = read_png(render("faded", args + " --fade-front 1"));
  viz::SceneOptions opts;
  opts.fade_front = 1;
  const auto dp = viz::display_positions(pos, opts, kW, kH);
  // The centre of a front stone no longer has its player's colour.
  int checked = 0;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) == kEmpty || pos.topology().coords(v)[1] != 0) continue;
    const auto c = faded.at(int(std::lround(dp[v][0])), int(std::lround(dp[v][1])));
    bool behind = false;  // another stone right behind it would show through
    for (Vertex w = 0; w < pos.num_vertices(); ++w)
      behind = behind || (w != v && pos.at(w) != kEmpty &&
                          std::hypot(dp[w][0] - dp[v][0], dp[w][1] - dp[v][1]) < 20);
    if (behind) continue;
    EXPECT_FALSE(near(c, viz::player_colour(pos.at(v)), 40)) << pos.topology().name(v);
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(pixels_differing(solid, faded), 2000u);
}

#endif
