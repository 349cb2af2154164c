// Text and symbols fixed in the window's corners: the legend (top left: every player, then
// every kind of mark drawn), the status line (bottom left), the key help (top right) and the
// room the window's sliders take (bottom right). Steps of build_scene (scene_parts.hpp).
#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scene_parts.hpp"

namespace tanbo::viz {

namespace {

constexpr double kMargin = 8;  // pixels between the window's edge and its text

// ---------------------------------------------------------------- 2D shapes in pixels

// Filled convex polygons in display pixels, each in a colour with an opacity, drawn in the
// order added (later ones over earlier ones) by one 2D actor.
struct Shapes2D {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> polys;
  vtkNew<vtkUnsignedCharArray> colours;
  Shapes2D() { colours->SetNumberOfComponents(4); }

  void fill(const std::vector<std::array<double, 2>>& pts, const Rgb& c, double opacity = 1.0) {
    std::vector<vtkIdType> ids;
    for (const auto& p : pts) ids.push_back(points->InsertNextPoint(p[0], p[1], 0));
    polys->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
    colours->InsertNextTuple4(c[0] * 255, c[1] * 255, c[2] * 255, opacity * 255);
  }
  // A rectangle's border, `width` pixels wide, inside it.
  void frame(double x0, double y0, double x1, double y1, const Rgb& c, double width) {
    fill({{x0, y0}, {x1, y0}, {x1, y0 + width}, {x0, y0 + width}}, c);
    fill({{x0, y1 - width}, {x1, y1 - width}, {x1, y1}, {x0, y1}}, c);
    fill({{x0, y0}, {x0 + width, y0}, {x0 + width, y1}, {x0, y1}}, c);
    fill({{x1 - width, y0}, {x1, y0}, {x1, y1}, {x1 - width, y1}}, c);
  }
  void add_to(vtkRenderer* r) {
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(points);
    pd->SetPolys(polys);
    pd->GetCellData()->SetScalars(colours);
    vtkNew<vtkPolyDataMapper2D> mapper;
    mapper->SetInputData(pd);
    mapper->SetColorModeToDirectScalars();
    mapper->SetScalarModeToUseCellData();
    vtkNew<vtkActor2D> actor;
    actor->SetMapper(mapper);
    actor->PickableOff();
    r->AddActor2D(actor);
  }
};

std::vector<std::array<double, 2>> circle(double x, double y, double radius) {
  std::vector<std::array<double, 2>> pts;
  for (int i = 0; i < 28; ++i) {
    const double a = 2 * M_PI * i / 28;
    pts.push_back({x + radius * std::cos(a), y + radius * std::sin(a)});
  }
  return pts;
}

std::vector<std::array<double, 2>> square(double x, double y, double half) {
  return {{x - half, y - half}, {x + half, y - half}, {x + half, y + half}, {x - half, y + half}};
}

Rgb mix(const Rgb& a, const Rgb& b, double t) {
  return {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t};
}

// A stone as the scene draws it: outline ring, body, highlight up and to the left.
void stone_symbol(Shapes2D& g, double x, double y, double radius, Player p, double opacity = 1.0) {
  const Rgb c = player_colour(p);
  if (opacity >= 1.0) g.fill(circle(x, y, radius + 1.5), outline_colour(p));
  g.fill(circle(x, y, radius), c, opacity);
  g.fill(circle(x - 0.33 * radius, y + 0.33 * radius, 0.3 * radius), mix(c, {1, 1, 1}, 0.5),
         opacity);
}

// ---------------------------------------------------------------- the legend

enum class Symbol { kStone, kTube, kLastMove, kRootSpace, kEmpty, kFaded };

struct LegendEntry {
  Symbol symbol;
  Player player = kEmpty;  // the stone's or tube's colour
  std::string text;
};

std::string player_entry(const SceneContext& s, Player p) {
  const Position& pos = s.pos;
  std::ostringstream e;
  e << player_title(p);
  const auto& names = s.options.player_names;
  if (p <= names.size() && !names[p - 1].empty()) e << " (" << names[p - 1] << ")";
  e << ": " << pos.stones(p) << (pos.stones(p) == 1 ? " stone, " : " stones, ")
    << pos.roots_alive(p) << (pos.roots_alive(p) == 1 ? " root" : " roots");
  if (pos.is_out(p)) e << " (out)";
  if (!pos.is_over() && pos.to_move() == p) e << "  <- to move";
  if (pos.is_over() && pos.winner() == p) e << "  (winner)";
  return e.str();
}

std::vector<LegendEntry> legend_entries(const SceneContext& s) {
  std::vector<LegendEntry> out;
  for (Player p = 1; p <= s.pos.num_players(); ++p) {
    out.push_back({Symbol::kStone, p, player_entry(s, p)});
  }
  if (s.drew_tubes) out.push_back({Symbol::kTube, kBlack, "tube: a root's stones joined"});
  if (s.drew_last) {
    out.push_back({Symbol::kLastMove, kEmpty,
                   "frame: last move, " + s.pos.topology().name(s.pos.last_move().vertex)});
  }
  if (s.drew_space) {
    out.push_back({Symbol::kRootSpace, kEmpty, "cube: root space (legal moves)"});
  }
  if (s.drew_empty) out.push_back({Symbol::kEmpty, kEmpty, "dot: empty point"});
  if (!s.info.fade_text.empty()) {
    out.push_back({Symbol::kFaded, kBlack, "see-through: front " + s.info.fade_text});
  }
  return out;
}

void draw_symbol(const SceneContext& s, Shapes2D& g, const LegendEntry& e, double x, double y,
                 double size) {
  const double rad = size * 0.36;
  switch (e.symbol) {
    case Symbol::kStone:
      stone_symbol(g, x, y, rad, e.player);
      break;
    case Symbol::kFaded:
      stone_symbol(g, x, y, rad, e.player, 0.3);
      break;
    case Symbol::kTube: {
      const double half = size * 0.08;
      g.fill({{x - size * 0.45, y - half},
              {x + size * 0.45, y - half},
              {x + size * 0.45, y + half},
              {x - size * 0.45, y + half}},
             player_colour(e.player));
      stone_symbol(g, x - size * 0.45, y, rad * 0.5, e.player);
      stone_symbol(g, x + size * 0.45, y, rad * 0.5, e.player);
      break;
    }
    case Symbol::kLastMove: {
      const double h = size * 0.38;
      g.frame(x - h, y - h, x + h, y + h, kLastMoveColour, 2.5);
      break;
    }
    case Symbol::kRootSpace: {
      const int k = s.pos.num_players();
      const double half = std::min(size * 0.16, size * 0.9 / (2.2 * k));
      for (Player p = 1; p <= k; ++p) {
        const double cx = x + (p - 1 - (k - 1) / 2.0) * half * 2.4;
        g.fill(square(cx, y, half + 1), {0.2, 0.2, 0.2});
        g.fill(square(cx, y, half), player_colour(p));
      }
      break;
    }
    case Symbol::kEmpty:
      g.fill(circle(x, y, std::max(2.0, size * 0.09)), kEmptyColour);
      break;
  }
}

}  // namespace

namespace {

// The legend's box and rows for one font size.
struct LegendLayout {
  int font = 12;
  double sym = 0, row = 0, pad = 6;
  Box box;
  std::vector<vtkSmartPointer<vtkTextActor>> texts;
};

LegendLayout legend_layout(const SceneContext& s, const std::vector<LegendEntry>& entries,
                           int font) {
  LegendLayout l;
  l.font = font;
  l.sym = font * 1.35;  // a symbol's square
  l.row = font * 1.45;
  double text_w = 0;  // the box is as wide as the longest entry
  for (const auto& e : entries) {
    auto t = vtkSmartPointer<vtkTextActor>::New();
    t->SetInput(e.text.c_str());
    t->GetTextProperty()->SetFontSize(font);
    t->GetTextProperty()->SetColor(kInk[0], kInk[1], kInk[2]);
    t->GetTextProperty()->SetVerticalJustificationToCentered();
    text_w = std::max(text_w, text_extent(t->GetTextProperty(), e.text).x1);
    l.texts.push_back(t);
  }
  const double x0 = kMargin, y1 = s.info.height - kMargin;
  l.box = {x0, y1 - 2 * l.pad - l.row * entries.size(), x0 + 2 * l.pad + l.sym + 6 + text_w, y1};
  return l;
}

}  // namespace

void add_legend(SceneContext& s) {
  if (!s.options.show_legend) return;
  const auto entries = legend_entries(s);
  // The font shrinks (down to 8 pixels) until the legend fits in the window.
  LegendLayout l;
  for (int font = s.font; font >= 8; --font) {
    l = legend_layout(s, entries, font);
    if (l.box.inside(s.info.width, s.info.height)) break;
  }
  if (!l.box.inside(s.info.width, s.info.height)) return;
  const auto [x0, y0, x1, y1] = l.box;
  Shapes2D g;
  g.fill({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, kLegendBackground);
  g.frame(x0, y0, x1, y1, {0.35, 0.38, 0.44}, 1.0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double y = y1 - l.pad - l.row * (i + 0.5);
    draw_symbol(s, g, entries[i], x0 + l.pad + l.sym / 2, y, l.sym);
    l.texts[i]->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
    l.texts[i]->GetPositionCoordinate()->SetValue(x0 + l.pad + l.sym + 6, y);
    l.texts[i]->PickableOff();
  }
  g.add_to(s.renderer);  // under the text, which is added after it
  for (auto& t : l.texts) s.renderer->AddActor2D(t);
  std::string all;
  for (const auto& e : entries) all += (all.empty() ? "" : "\n") + e.text;
  s.info.overlays.push_back({"legend", all, l.box});
}

namespace {

std::string status_line(const Position& pos) {
  std::ostringstream s;
  if (pos.is_over()) {
    s << player_title(pos.winner()) << " won";
  } else {
    s << player_title(pos.to_move()) << " to play";
  }
  s << "  |  move " << pos.ply();
  if (pos.ply() > 0) {
    const MoveRecord& r = pos.last_move();
    if (r.kind == MoveRecord::Kind::kResign) {
      s << "  |  last: " << player_title(r.player) << " resigned";
    } else {
      s << "  |  last: " << player_title(r.player) << " " << pos.topology().name(r.vertex);
    }
    if (r.stones_removed > 0) {
      s << ", removed " << r.stones_removed << (r.stones_removed == 1 ? " stone" : " stones");
    }
  }
  return s.str();
}

std::string view_line(const Topology& topo, const ViewSpec& view) {
  if (topo.kind != BoardKind::kLattice || topo.dimensions() <= 3) return "";
  std::ostringstream s;
  s << "axes " << axis_name(view.axes[0]) << "," << axis_name(view.axes[1]) << ","
    << axis_name(view.axes[2]);
  if (view.multiples_axis >= 0) s << "  |  every slice of " << axis_name(view.multiples_axis);
  bool first = true;
  for (int a : hidden_axes(topo, view)) {
    if (a == view.multiples_axis) continue;
    s << (first ? "  |  slice " : ",") << axis_name(a) << "=" << view.slice[a] + 1;
    first = false;
  }
  return s.str();
}

// `text` with its lines broken at spaces where they would be wider than `width` pixels.
std::string wrap(vtkTextProperty* tp, const std::string& text, double width) {
  std::string out, line, word;
  std::istringstream lines(text);
  bool first_line = true;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string cur;
    while (std::getline(words, word, ' ')) {
      const std::string longer = cur.empty() ? word : cur + " " + word;
      if (!cur.empty() && text_extent(tp, longer).x1 - text_extent(tp, longer).x0 > width) {
        out += (first_line ? "" : "\n") + cur;
        first_line = false;
        cur = word;
      } else {
        cur = longer;
      }
    }
    out += (first_line ? "" : "\n") + cur;
    first_line = false;
  }
  return out;
}

// Text fixed at a corner of the window, its justification pointing it into the window, its
// lines broken to fit beside what is there already; the font shrinks (down to 8 pixels) until
// the text fits beside the boxes already there and inside the window. Returns false when it
// does not fit even then (it is not drawn).
bool add_corner_text(SceneContext& s, const std::string& role, const std::string& text, int size,
                     const Rgb& colour, bool right, bool top) {
  vtkNew<vtkTextActor> t;
  t->SetInput(text.c_str());
  auto* tp = t->GetTextProperty();
  tp->SetColor(colour[0], colour[1], colour[2]);
  if (right) tp->SetJustificationToRight();
  if (top) tp->SetVerticalJustificationToTop();
  const double x = right ? s.info.width - kMargin : kMargin;
  const double y = top ? s.info.height - kMargin : kMargin;
  // The room along this edge: up to the window's other side or the first box in the way.
  double room = s.info.width - 2 * kMargin;
  for (const auto& o : s.info.overlays) {
    const bool same_edge = top ? o.box.y1 > s.info.height - 2 * kMargin : o.box.y0 < 2 * kMargin;
    if (same_edge) room = std::min(room, right ? x - o.box.x1 - kMargin : o.box.x0 - x - kMargin);
  }
  for (; size >= 8; --size) {
    tp->SetFontSize(size);
    const std::string lines = wrap(tp, text, room);
    t->SetInput(lines.c_str());
    const Box e = text_extent(tp, lines);
    const Box b{x + e.x0, y + e.y0, x + e.x1, y + e.y1};
    const bool clear = std::none_of(s.info.overlays.begin(), s.info.overlays.end(),
                                    [&](const TextBox& o) { return o.box.intersects(b); });
    if (!clear || !b.inside(s.info.width, s.info.height)) continue;
    t->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
    t->GetPositionCoordinate()->SetValue(x, y);
    t->PickableOff();
    s.renderer->AddActor2D(t);
    s.info.overlays.push_back({role, lines, b});
    return true;
  }
  return false;
}

}  // namespace

void add_status_and_help(SceneContext& s) {
  std::string text = status_line(s.pos);
  if (!s.options.status.empty()) text = s.options.status + "  |  " + text;
  const std::string vl = view_line(s.pos.topology(), s.view);
  if (!vl.empty()) text += "\n" + vl;
  if (!s.options.message.empty()) text += "\n" + s.options.message;
  if (s.options.slider_rows > 0) {  // the window's sliders, bottom right (viewer.cpp)
    const double w = s.info.width, h = s.info.height;
    s.info.overlays.push_back(
        {"sliders", "", {0.67 * w, 0.0, w, (0.07 + 0.1 * s.options.slider_rows) * h}});
  }
  add_corner_text(s, "status", text, s.font, kInk, false, false);
  if (!s.options.help.empty()) {
    add_corner_text(s, "help", s.options.help, std::max(9, s.font * 4 / 5), {0.15, 0.17, 0.22},
                    true, true);
  }
}

}  // namespace tanbo::viz
