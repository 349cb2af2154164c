// World-anchored labels: lattice axis ticks and titles, small-multiple panel titles, point
// names (steps of build_scene, scene_parts.hpp), and their layout (place_labels, scene.hpp).
#include <vtkCoordinate.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkStdString.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "scene_parts.hpp"

namespace tanbo::viz {

namespace {

constexpr char kGoLetters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// Placement order: panel titles, axis titles, ticks, names.
enum Priority { kPanelTitle = 0, kAxisTitle = 1, kTick = 2, kName = 3 };

std::string ordinal(int i) {
  static const char* kOrd[] = {"1st", "2nd", "3rd"};
  if (i < 3) return kOrd[i];
  return std::to_string(i + 1) + "th";
}

bool go_board(const Topology& topo) {
  return topo.dimensions() == 2 && topo.dims[0] <= 25 && topo.dims[1] <= 25;
}

// Label of value `i` (0-based) on lattice axis `axis`, in the board's notation.
std::string tick_label(const Topology& topo, int axis, std::uint32_t i) {
  if (go_board(topo) && axis == 0) return std::string(1, kGoLetters[i]);
  return std::to_string(i + 1);
}

// Title of a lattice axis, telling where its value stands in a point's name.
std::string axis_title(const Topology& topo, int axis) {
  const std::size_t d = topo.dimensions();
  if (d == 1) return "";
  if (go_board(topo)) return axis == 0 ? "column" : "row";
  const bool digits =
      d == 3 && std::all_of(topo.dims.begin(), topo.dims.end(), [](auto s) { return s <= 9; });
  return axis_name(axis) + (digits ? " (" + ordinal(axis) + " digit)" : " (" + ordinal(axis) + ")");
}

enum class Justify { kLeft, kCentre, kRight };  // where the text stands from its anchor

// A label drawn as 2D text over the scene (2D text needs no translucent 3D pass, which
// software OpenGL renders slowly), at a pixel offset from its world anchor.
void add_label(SceneContext& s, const std::string& role, const std::string& text,
               const std::array<double, 3>& at, int size, bool bold, int priority,
               Justify justify = Justify::kCentre) {
  SceneLabel l;
  l.role = role;
  l.text = text;
  l.at = at;
  l.priority = priority;
  l.actor = vtkSmartPointer<vtkTextActor>::New();
  l.actor->SetInput(text.c_str());
  auto* tp = l.actor->GetTextProperty();
  tp->SetFontSize(size);
  const Rgb c = label_colour();
  tp->SetColor(c[0], c[1], c[2]);
  if (justify == Justify::kLeft) tp->SetJustificationToLeft();
  if (justify == Justify::kCentre) tp->SetJustificationToCentered();
  if (justify == Justify::kRight) tp->SetJustificationToRight();
  tp->SetVerticalJustificationToCentered();
  tp->SetBold(bold);
  l.extent = text_extent(tp, text);
  vtkNew<vtkCoordinate> anchor;
  anchor->SetCoordinateSystemToWorld();
  anchor->SetValue(at[0], at[1], at[2]);
  l.actor->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
  l.actor->GetPositionCoordinate()->SetReferenceCoordinate(anchor);
  l.actor->GetPositionCoordinate()->SetValue(0, 0);
  l.actor->PickableOff();
  s.renderer->AddActor2D(l.actor);
  s.info.labels.push_back(std::move(l));
}

// The drawn axes of a lattice and their sizes.
struct DrawnAxes {
  int count = 3;
  std::array<int, 3> axis{0, 1, 2};
  std::array<std::uint32_t, 3> size{1, 1, 1};
};

DrawnAxes drawn_axes(const Topology& topo, const ViewSpec& view) {
  DrawnAxes a;
  const std::size_t d = topo.dimensions();
  a.count = static_cast<int>(std::min<std::size_t>(d, 3));
  if (d > 3) a.axis = view.axes;
  for (int i = 0; i < a.count; ++i) a.size[i] = topo.dims[a.axis[i]];
  return a;
}

// Where tick t of drawn axis i stands (before the panel's shift).
std::array<double, 3> tick_anchor(const DrawnAxes& a, int i, std::uint32_t t) {
  if (a.count == 1) return {double(t), -0.8, 0.0};
  if (i == 0) return {double(t), -1.0, 0.0};
  if (i == 1)
    return a.count == 2 ? std::array<double, 3>{-1.0, double(t), 0.0}
                        : std::array<double, 3>{a.size[0] - 1 + 1.0, double(t), 0.0};
  return {-1.0, -1.0, double(t)};
}

// Where the title of drawn axis i stands, beyond its ticks (further out on big boards, where a
// unit is only a few pixels), and which way its text runs from there: the x title centred
// below the x ticks, the y title to the right of the y ticks in 3D, the others to the left.
std::pair<std::array<double, 3>, Justify> title_anchor(const DrawnAxes& a, int i) {
  const auto& size = a.size;
  const double g = 0.04 * std::max({size[0], size[1], size[2]});
  if (i == 0)
    return {{(size[0] - 1) / 2.0, (a.count == 2 ? -1.8 : -1.9) - g, 0.0}, Justify::kCentre};
  if (i == 1 && a.count == 2) return {{-1.6 - g, (size[1] - 1) / 2.0, 0.0}, Justify::kRight};
  if (i == 1) return {{size[0] + 0.5 + g, (size[1] - 1) / 2.0, -0.5}, Justify::kLeft};
  return {{-1.45 - g, -1.45 - g, (size[2] - 1) / 2.0}, Justify::kRight};
}

// Ticks of drawn axis i: every value, or on long axes 1, 5, 10, ... and the last.
void add_ticks(SceneContext& s, const DrawnAxes& a, int i, const std::array<double, 3>& shift) {
  const Topology& topo = s.pos.topology();
  const std::uint32_t n = a.size[i];
  const std::uint32_t every = n > 30 || (a.count == 3 && n > 10) ? 5 : 1;
  for (std::uint32_t t = 0; t < n; ++t) {
    if ((t + 1) % every != 0 && t != 0 && t + 1 != n) continue;
    auto at = tick_anchor(a, i, t);
    for (int k = 0; k < 3; ++k) at[k] += shift[k];
    add_label(s, "tick", tick_label(topo, a.axis[i], t), at, s.font, true, kTick);
  }
}

}  // namespace

Box text_extent(vtkTextProperty* tp, const std::string& text) {
  int bb[4] = {0, -1, 0, -1};
  if (!vtkTextRenderer::GetInstance()->GetBoundingBox(tp, vtkStdString(text), bb, 72)) {
    return {};
  }
  return {double(bb[0]), double(bb[2]), double(bb[1] + 1), double(bb[3] + 1)};
}

void add_axis_labels(SceneContext& s) {
  const Topology& topo = s.pos.topology();
  if (topo.kind != BoardKind::kLattice) return;
  const DrawnAxes a = drawn_axes(topo, s.view);
  const double panel_step = topo.dimensions() > 3 ? a.size[0] + kPanelGap : 0.0;
  for (int panel = 0; panel < s.info.layout.panels; ++panel) {
    std::array<double, 3> shift{0, 0, 0};
    for (int k = 0; k < 3; ++k) shift[k] = panel * panel_step * kPanelDirection[k];
    // x ticks on every panel; y and z ticks and the axis titles once, on the first.
    for (int i = 0; i < a.count; ++i) {
      if (panel > 0 && i != 0) continue;
      add_ticks(s, a, i, shift);
      const std::string title = axis_title(topo, a.axis[i]);
      if (!title.empty() && panel == 0) {
        const auto [at, justify] = title_anchor(a, i);
        add_label(s, "axis title", title, at, s.font, false, kAxisTitle, justify);
      }
    }
    if (s.view.multiples_axis >= 0) {
      const std::string t = axis_name(s.view.multiples_axis) + "=" + std::to_string(panel + 1);
      const double top = a.count == 3 ? a.size[2] - 1 + 1.0 : 0.0;
      std::array<double, 3> at{(a.size[0] - 1) / 2.0, a.size[1] - 1.0, top};
      for (int k = 0; k < 3; ++k) at[k] += shift[k];
      add_label(s, "panel title", t, at, s.font + 2, true, kPanelTitle);
    }
  }
}

void add_point_names(SceneContext& s) {
  const Topology& topo = s.pos.topology();
  bool names = s.options.show_names == 1;
  if (s.options.show_names < 0) names = topo.kind != BoardKind::kLattice && s.visible_count <= 200;
  if (!names || s.visible_count > 2000) return;
  const double dy = topo.kind == BoardKind::kHex ? -0.44 : -0.45;
  const Layout& L = s.info.layout;
  for (Vertex v = 0; v < s.pos.num_vertices(); ++v) {
    if (!L.visible[v]) continue;
    auto at = L.point[v];
    // Below the point on screen: y is up on flat boards, z in 3D views.
    at[s.info.flat ? 1 : 2] += s.info.flat ? dy : -0.5;
    add_label(s, "name", topo.name(v), at, std::max(9, s.font * 3 / 4), false, kName);
  }
}

namespace {

Box moved(const Box& b, double dx, double dy) {
  return {b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy};
}

// Offsets to try for a label, in order: none, then further and further away from the board's
// centre, then sideways.
std::vector<std::array<double, 2>> candidate_offsets(const std::array<double, 2>& away,
                                                     const Box& extent) {
  const double h = extent.y1 - extent.y0;
  std::vector<std::array<double, 2>> out{{0, 0}};
  for (int k = 1; k <= 4; ++k) out.push_back({away[0] * 0.4 * h * k, away[1] * 0.4 * h * k});
  for (int k = 1; k <= 2; ++k) {
    for (double sgn : {-1.0, 1.0}) {
      out.push_back({-away[1] * sgn * 0.5 * h * k, away[0] * sgn * 0.5 * h * k});
    }
  }
  return out;
}

}  // namespace

void place_labels(vtkRenderer* renderer, SceneInfo& info) {
  std::vector<Box> taken;
  for (const auto& o : info.overlays) taken.push_back(o.box);
  const auto centre = world_to_display(renderer, info.centre);
  std::vector<std::size_t> order(info.labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return info.labels[a].priority < info.labels[b].priority;
  });
  for (std::size_t i : order) {
    SceneLabel& l = info.labels[i];
    const auto d = world_to_display(renderer, l.at);
    double ax = d[0] - centre[0], ay = d[1] - centre[1];
    const double len = std::hypot(ax, ay);
    std::array<double, 2> away =
        len > 1e-9 ? std::array<double, 2>{ax / len, ay / len} : std::array<double, 2>{0.0, -1.0};
    l.shown = false;
    for (const auto& off : candidate_offsets(away, l.extent)) {
      const Box b = moved(l.extent, d[0] + off[0], d[1] + off[1]);
      if (!b.inside(info.width, info.height)) continue;
      if (std::any_of(taken.begin(), taken.end(), [&](const Box& t) { return t.intersects(b); }))
        continue;
      l.shown = true;
      l.box = b;
      l.actor->GetPositionCoordinate()->SetValue(off[0], off[1]);
      taken.push_back(b);
      break;
    }
    l.actor->SetVisibility(l.shown);
  }
}

std::vector<TextBox> text_boxes(const SceneInfo& info) {
  std::vector<TextBox> out = info.overlays;
  for (const auto& l : info.labels) {
    if (l.shown) out.push_back({l.role, l.text, l.box});
  }
  return out;
}

}  // namespace tanbo::viz
