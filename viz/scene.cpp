#include "scene.hpp"

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLegendBoxActor.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTubeFilter.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tanbo/error.hpp"

namespace tanbo::viz {

namespace {

constexpr double kStoneRadius = 0.32;
constexpr double kDotRadius = 0.06;
constexpr double kTubeRadius = 0.085;
constexpr char kGoLetters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

using Rgb = std::array<double, 3>;

// Points with an RGB colour each, as polydata (optionally with vertex cells).
struct ColouredPoints {
  vtkNew<vtkPoints> points;
  vtkNew<vtkUnsignedCharArray> colours;
  ColouredPoints() {
    colours->SetNumberOfComponents(3);
    colours->SetName("colours");
  }
  void add(const std::array<double, 3>& p, const Rgb& c) {
    points->InsertNextPoint(p[0], p[1], p[2]);
    colours->InsertNextTuple3(c[0] * 255.0, c[1] * 255.0, c[2] * 255.0);
  }
  vtkIdType size() const { return points->GetNumberOfPoints(); }
  vtkSmartPointer<vtkPolyData> polydata() {
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(points);
    pd->GetPointData()->SetScalars(colours);
    return pd;
  }
};

// Glyphs (copies of `source`) at the points, in the points' colours.
vtkSmartPointer<vtkActor> glyph_actor(ColouredPoints& pts, vtkAlgorithm* source) {
  vtkNew<vtkGlyph3DMapper> mapper;
  mapper->SetInputData(pts.polydata());
  mapper->SetSourceConnection(source->GetOutputPort());
  mapper->ScalingOff();
  mapper->OrientOff();
  mapper->SetColorModeToDirectScalars();
  mapper->SetScalarModeToUsePointData();
  mapper->ScalarVisibilityOn();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

// Flat, unlit lines (board edges, hex cells) of colour `c`, added to the renderer.
void add_lines(vtkRenderer* renderer, vtkPoints* points, vtkCellArray* lines, const Rgb& c) {
  vtkNew<vtkPolyData> pd;
  pd->SetPoints(points);
  pd->SetLines(lines);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(pd);
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(c[0], c[1], c[2]);
  actor->GetProperty()->SetLineWidth(1.5);
  actor->GetProperty()->LightingOff();
  renderer->AddActor(actor);
}

void matte(vtkActor* actor) {
  actor->GetProperty()->SetAmbient(0.18);
  actor->GetProperty()->SetDiffuse(0.82);
  actor->GetProperty()->SetSpecular(0.0);
}

std::string ordinal(int i) {
  static const char* kOrd[] = {"1st", "2nd", "3rd"};
  if (i < 3) return kOrd[i];
  return std::to_string(i + 1) + "th";
}

// Label of value `i` (0-based) on lattice axis `axis`, in the board's notation.
std::string tick_label(const Topology& topo, int axis, std::uint32_t i) {
  const std::size_t d = topo.dimensions();
  const bool go = d == 2 && topo.dims[0] <= 25 && topo.dims[1] <= 25;
  if (go && axis == 0) return std::string(1, kGoLetters[i]);
  return std::to_string(i + 1);
}

// Title of a lattice axis, telling where its value stands in a point's name.
std::string axis_title(const Topology& topo, int axis) {
  const std::size_t d = topo.dimensions();
  if (d == 1) return "";
  const bool go = d == 2 && topo.dims[0] <= 25 && topo.dims[1] <= 25;
  if (go) return axis == 0 ? "column" : "row";
  const bool digits =
      d == 3 && std::all_of(topo.dims.begin(), topo.dims.end(), [](auto s) { return s <= 9; });
  return axis_name(axis) + (digits ? " (" + ordinal(axis) + " digit)" : " (" + ordinal(axis) + ")");
}

// A label anchored at a world point, drawn as 2D text over the scene (2D text needs no
// translucent 3D pass, which software OpenGL renders slowly).
vtkSmartPointer<vtkTextActor> label3d(const std::string& text, const std::array<double, 3>& at,
                                      int size, const Rgb& colour, bool bold = false) {
  auto a = vtkSmartPointer<vtkTextActor>::New();
  a->SetInput(text.c_str());
  a->GetPositionCoordinate()->SetCoordinateSystemToWorld();
  a->GetPositionCoordinate()->SetValue(at[0], at[1], at[2]);
  auto* tp = a->GetTextProperty();
  tp->SetFontSize(size);
  tp->SetColor(colour[0], colour[1], colour[2]);
  tp->SetJustificationToCentered();
  tp->SetVerticalJustificationToCentered();
  tp->SetBold(bold);
  a->PickableOff();
  return a;
}

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

std::array<int, 2> window_size(vtkRenderer* r) {
  if (r->GetRenderWindow() != nullptr) {
    const int* sz = r->GetRenderWindow()->GetSize();
    if (sz != nullptr && sz[0] > 0 && sz[1] > 0) return {sz[0], sz[1]};
  }
  return {800, 600};
}

// Fraction of the window height the legend takes (the camera keeps the board below it).
double legend_height(int players) {
  return std::min(0.5, 0.05 * players + 0.02);
}

}  // namespace

std::array<double, 3> player_colour(Player p) {
  static const Rgb kColours[] = {
      {0.07, 0.07, 0.08}, {0.96, 0.96, 0.94}, {0.86, 0.12, 0.12}, {0.12, 0.32, 0.92},
      {0.08, 0.66, 0.22}, {0.98, 0.86, 0.08}, {1.00, 0.52, 0.02}, {0.58, 0.20, 0.80},
  };
  if (p < 1 || p > kMaxPlayers) return {0.5, 0.5, 0.5};
  return kColours[p - 1];
}

std::array<double, 3> background_colour() {
  return {0.60, 0.66, 0.74};
}

bool have_display() {
  const char* d = std::getenv("DISPLAY");
  return d != nullptr && *d != '\0';
}

SceneInfo build_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options) {
  renderer->RemoveAllViewProps();
  const Rgb bg = background_colour();
  renderer->SetBackground(bg[0], bg[1], bg[2]);
  const Topology& topo = pos.topology();
  const Graph& g = pos.graph();
  ViewSpec view = options.view;
  normalise_view(topo, view);

  SceneInfo info;
  info.layout = compute_layout(topo, view);
  const Layout& L = info.layout;
  info.flat = L.space_dims <= 2;
  const std::uint32_t n = pos.num_vertices();
  const auto [width, height] = window_size(renderer);
  const int font = options.font_size > 0 ? options.font_size : std::max(11, height / 42);
  const Rgb ink{0.08, 0.09, 0.12};

  // Bounds of the visible board.
  std::array<double, 6> b{1e300, -1e300, 1e300, -1e300, 1e300, -1e300};
  std::uint32_t visible_count = 0;
  for (Vertex v = 0; v < n; ++v) {
    if (!L.visible[v]) continue;
    ++visible_count;
    for (int k = 0; k < 3; ++k) {
      b[2 * k] = std::min(b[2 * k], L.point[v][k]);
      b[2 * k + 1] = std::max(b[2 * k + 1], L.point[v][k]);
    }
  }
  if (visible_count == 0) b = {0, 0, 0, 0, 0, 0};

  // Stones, empty points, root trees.
  ColouredPoints stones, empties;
  info.stone.assign(n, 0);
  for (Vertex v = 0; v < n; ++v) {
    info.stone[v] = pos.at(v) != kEmpty;
    if (!L.visible[v]) continue;
    const Player p = pos.at(v);
    if (p != kEmpty) {
      stones.add(L.point[v], player_colour(p));
    } else if (options.show_empty) {
      empties.add(L.point[v], {0.30, 0.33, 0.38});
    }
  }
  if (stones.size() > 0) {
    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(kStoneRadius);
    sphere->SetThetaResolution(28);
    sphere->SetPhiResolution(18);
    auto actor = glyph_actor(stones, sphere);
    matte(actor);
    renderer->AddActor(actor);
  }
  if (empties.size() > 0) {
    vtkNew<vtkSphereSource> dot;
    dot->SetRadius(kDotRadius);
    dot->SetThetaResolution(8);
    dot->SetPhiResolution(6);
    auto actor = glyph_actor(empties, dot);
    actor->GetProperty()->SetAmbient(0.6);
    actor->GetProperty()->SetDiffuse(0.4);
    renderer->AddActor(actor);
  }

  // Board lines: edges of lines, 2D grids and DOT graphs (thin, faint); hex cells as hexagons.
  const bool draw_edges =
      topo.kind == BoardKind::kFile || (topo.kind == BoardKind::kLattice && topo.dimensions() <= 2);
  if (draw_edges) {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    for (Vertex v = 0; v < n; ++v) pts->InsertNextPoint(L.point[v].data());
    for (Vertex v = 0; v < n; ++v) {
      if (!L.visible[v]) continue;
      for (Vertex w : g.neighbours(v)) {
        if (w < v || !L.visible[w] || !short_edge(topo, v, w)) continue;
        const vtkIdType ids[2] = {v, w};
        lines->InsertNextCell(2, ids);
      }
    }
    add_lines(renderer, pts, lines, {0.38, 0.41, 0.47});
  }
  if (topo.kind == BoardKind::kHex) {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> cells;
    const double R = 1.0 / std::sqrt(3.0);
    for (Vertex v = 0; v < n; ++v) {
      vtkIdType ids[7];
      for (int k = 0; k < 6; ++k) {
        const double a = (30.0 + 60.0 * k) * M_PI / 180.0;
        ids[k] = pts->InsertNextPoint(L.point[v][0] + R * std::cos(a),
                                      L.point[v][1] + R * std::sin(a), -0.02);
      }
      ids[6] = ids[0];
      cells->InsertNextCell(7, ids);
    }
    add_lines(renderer, pts, cells, {0.36, 0.39, 0.45});
  }

  // Root trees: a tube along every edge between two stones of the same root.
  {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetNumberOfComponents(3);
    std::vector<vtkIdType> id(n, -1);
    auto point_id = [&](Vertex v) {
      if (id[v] < 0) {
        id[v] = pts->InsertNextPoint(L.point[v].data());
        const Rgb c = player_colour(pos.at(v));
        colours->InsertNextTuple3(c[0] * 255.0, c[1] * 255.0, c[2] * 255.0);
      }
      return id[v];
    };
    for (Vertex v = 0; v < n; ++v) {
      if (!L.visible[v] || pos.at(v) == kEmpty) continue;
      for (Vertex w : g.neighbours(v)) {
        if (w < v || !L.visible[w] || pos.root_of(w) != pos.root_of(v)) continue;
        if (!short_edge(topo, v, w)) continue;
        if (topo.kind == BoardKind::kLattice) {
          // Lattice edges are one unit long; longer ones join small-multiple panels.
          double d2 = 0;
          for (int k = 0; k < 3; ++k) d2 += std::pow(L.point[v][k] - L.point[w][k], 2);
          if (d2 > 1.5) continue;
        }
        const vtkIdType ids[2] = {point_id(v), point_id(w)};
        lines->InsertNextCell(2, ids);
      }
    }
    if (lines->GetNumberOfCells() > 0) {
      vtkNew<vtkPolyData> pd;
      pd->SetPoints(pts);
      pd->SetLines(lines);
      pd->GetPointData()->SetScalars(colours);
      vtkNew<vtkTubeFilter> tubes;
      tubes->SetInputData(pd);
      tubes->SetRadius(kTubeRadius);
      tubes->SetNumberOfSides(12);
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputConnection(tubes->GetOutputPort());
      mapper->SetColorModeToDirectScalars();
      mapper->ScalarVisibilityOn();
      vtkNew<vtkActor> actor;
      actor->SetMapper(mapper);
      matte(actor);
      renderer->AddActor(actor);
    }
  }

  // Root space: a small cube in the owner's colour on each root-space point.
  if (options.show_root_space) {
    ColouredPoints space;
    const int k = pos.num_players();
    for (RootId r : pos.live_roots()) {
      const Player p = pos.root_owner(r);
      const double shift = (p - 1 - (k - 1) / 2.0) * 0.1;
      for (Vertex v : pos.root_space_points(r)) {
        if (!L.visible[v]) continue;
        auto at = L.point[v];
        at[0] += shift;
        space.add(at, player_colour(p));
      }
    }
    if (space.size() > 0) {
      vtkNew<vtkCubeSource> cube;
      cube->SetXLength(0.22);
      cube->SetYLength(0.22);
      cube->SetZLength(0.22);
      auto actor = glyph_actor(space, cube);
      actor->GetProperty()->SetAmbient(0.35);
      actor->GetProperty()->SetDiffuse(0.65);
      actor->GetProperty()->SetEdgeVisibility(true);
      actor->GetProperty()->SetEdgeColor(0.2, 0.2, 0.2);
      renderer->AddActor(actor);
    }
  }

  // The last move: a bright frame around the stone.
  if (pos.ply() > 0 && pos.last_move().kind == MoveRecord::Kind::kPlace) {
    const Vertex v = pos.last_move().vertex;
    if (L.visible[v]) {
      vtkNew<vtkCubeSource> frame;
      frame->SetCenter(L.point[v].data());
      frame->SetXLength(0.86);
      frame->SetYLength(0.86);
      frame->SetZLength(info.flat ? 0.01 : 0.86);
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputConnection(frame->GetOutputPort());
      vtkNew<vtkActor> actor;
      actor->SetMapper(mapper);
      actor->GetProperty()->SetRepresentationToWireframe();
      actor->GetProperty()->SetColor(1.0, 0.15, 0.55);
      actor->GetProperty()->SetLineWidth(3.0);
      actor->GetProperty()->LightingOff();
      actor->PickableOff();
      renderer->AddActor(actor);
    }
  }

  // Axis labels in the board's notation (lattices), or a name on every point. The camera
  // keeps every label anchor in view.
  auto label = [&](const std::string& text, const std::array<double, 3>& at, int size,
                   const Rgb& colour, bool bold = false) {
    renderer->AddActor(label3d(text, at, size, colour, bold));
    info.frame.push_back(at);
  };
  const Rgb label_colour{0.05, 0.07, 0.15};
  if (topo.kind == BoardKind::kLattice) {
    const std::size_t d = topo.dimensions();
    const int drawn = static_cast<int>(std::min<std::size_t>(d, 3));
    std::array<int, 3> axes{0, 1, 2};
    if (d > 3) axes = view.axes;
    std::array<std::uint32_t, 3> size{1, 1, 1};
    for (int i = 0; i < drawn; ++i) size[i] = topo.dims[axes[i]];
    const double panel_step = d > 3 ? size[0] + kPanelGap : 0.0;
    const int panels = info.layout.panels;
    for (int panel = 0; panel < panels; ++panel) {
      const double off = panel * panel_step;
      auto shifted = [&](std::array<double, 3> p) {
        for (int k = 0; k < 3; ++k) p[k] += off * kPanelDirection[k];
        return p;
      };
      for (int i = 0; i < drawn; ++i) {
        if (panel > 0 && i != 0) continue;  // y and z ticks once, on the first panel
        // Every value, or on long axes 1, 5, 10, ... and the last.
        const std::uint32_t every = size[i] > 30 || (drawn == 3 && size[i] > 10) ? 5 : 1;
        for (std::uint32_t t = 0; t < size[i]; ++t) {
          if ((t + 1) % every != 0 && t != 0 && t + 1 != size[i]) continue;
          std::array<double, 3> at{0, 0, 0};
          if (i == 0) at = shifted({double(t), -1.0, 0.0});
          if (i == 1)
            at = drawn == 2 ? std::array<double, 3>{-1.0, double(t), 0.0}
                            : shifted({size[0] - 1 + 1.0, double(t), 0.0});
          if (i == 2) at = {-1.0, -1.0, double(t)};
          if (drawn == 1) at = {double(t), -0.8, 0.0};
          label(tick_label(topo, axes[i], t), at, font, label_colour, true);
        }
        const std::string title = axis_title(topo, axes[i]);
        if (title.empty() || panel > 0) continue;
        std::array<double, 3> at{0, 0, 0};
        // Further out on big boards, where a unit is only a few pixels.
        const double g = 0.04 * std::max({size[0], size[1], size[2]});
        if (i == 0) at = {(size[0] - 1) / 2.0, (drawn == 2 ? -1.8 : -1.9) - g, 0.0};
        if (i == 1)
          at = drawn == 2 ? std::array<double, 3>{-2.4 - g, (size[1] - 1) / 2.0, 0.0}
                          : std::array<double, 3>{size[0] + 0.9 + g, (size[1] - 1) / 2.0, -0.6};
        if (i == 2) at = {-1.6 - g, -1.6 - g, (size[2] - 1) / 2.0};
        label(title, at, font, ink);
      }
      if (view.multiples_axis >= 0) {
        const std::string t = axis_name(view.multiples_axis) + "=" + std::to_string(panel + 1);
        const double top = drawn == 3 ? size[2] - 1 + 1.0 : 0.0;
        label(t, shifted({(size[0] - 1) / 2.0, size[1] - 1.0, top}), font + 2, ink, true);
      }
    }
  }
  bool names = options.show_names == 1;
  if (options.show_names < 0) {
    names = topo.kind != BoardKind::kLattice && visible_count <= 200;
  }
  if (names && visible_count <= 2000) {
    const double dy = topo.kind == BoardKind::kHex ? -0.39 : -0.45;
    for (Vertex v = 0; v < n; ++v) {
      if (!L.visible[v]) continue;
      auto at = L.point[v];
      // Below the point on screen: y is up on flat boards, z in 3D views.
      at[info.flat ? 1 : 2] += info.flat ? dy : -0.5;
      label(topo.name(v), at, std::max(9, font * 3 / 4), label_colour);
    }
  }

  // Legend: one entry per player with its stones and roots.
  if (options.show_legend) {
    vtkNew<vtkSphereSource> symbol;
    symbol->SetThetaResolution(16);
    symbol->SetPhiResolution(12);
    symbol->Update();
    vtkNew<vtkLegendBoxActor> legend;
    const int k = pos.num_players();
    legend->SetNumberOfEntries(k);
    std::size_t longest = 0;
    for (Player p = 1; p <= k; ++p) {
      std::ostringstream s;
      s << player_title(p);
      if (p <= options.player_names.size() && !options.player_names[p - 1].empty()) {
        s << " (" << options.player_names[p - 1] << ")";
      }
      s << ": " << pos.stones(p) << (pos.stones(p) == 1 ? " stone, " : " stones, ")
        << pos.roots_alive(p) << (pos.roots_alive(p) == 1 ? " root" : " roots");
      if (pos.is_out(p)) s << " (out)";
      if (!pos.is_over() && pos.to_move() == p) s << "  <- to move";
      if (pos.is_over() && pos.winner() == p) s << "  (winner)";
      longest = std::max(longest, s.str().size());
      // The symbol carries the player's colour as scalars; the entry colour is the text's.
      const Rgb c = player_colour(p);
      vtkNew<vtkPolyData> sym;
      sym->DeepCopy(symbol->GetOutput());
      vtkNew<vtkUnsignedCharArray> col;
      col->SetNumberOfComponents(3);
      for (vtkIdType i = 0; i < sym->GetNumberOfPoints(); ++i) {
        col->InsertNextTuple3(c[0] * 255.0, c[1] * 255.0, c[2] * 255.0);
      }
      sym->GetPointData()->SetScalars(col);
      double text_colour[3] = {ink[0], ink[1], ink[2]};
      legend->SetEntry(p - 1, sym.Get(), s.str().c_str(), text_colour);
    }
    legend->UseBackgroundOn();
    legend->SetBackgroundColor(0.85, 0.87, 0.90);
    legend->SetBackgroundOpacity(1.0);
    legend->BorderOn();
    legend->GetEntryTextProperty()->SetColor(ink[0], ink[1], ink[2]);
    legend->GetEntryTextProperty()->SetFontSize(font);
    legend->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    // Sized from the text so that the font stays about `font` pixels high.
    const double h = std::min(legend_height(k), (k * font * 1.7 + 8.0) / height);
    const double w = std::min(0.6, ((longest + 4) * font * 0.58 + 10.0) / width);
    legend->SetPadding(4);
    legend->GetPositionCoordinate()->SetValue(0.01, 0.99 - h);
    legend->GetPosition2Coordinate()->SetCoordinateSystemToNormalizedViewport();
    legend->GetPosition2Coordinate()->SetValue(w, h);
    info.top_px = std::max(info.top_px, (h + 0.01) * height);
    legend->PickableOff();
    renderer->AddActor(legend);
  }

  // Status line, view line and message at the bottom left; key help at the top right.
  {
    std::string text = status_line(pos);
    if (!options.status.empty()) text = options.status + "  |  " + text;
    const std::string vl = view_line(topo, view);
    if (!vl.empty()) text += "\n" + vl;
    if (!options.message.empty()) text += "\n" + options.message;
    const int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    vtkNew<vtkTextActor> m;
    m->SetInput(text.c_str());
    m->GetTextProperty()->SetFontSize(font);
    m->GetTextProperty()->SetColor(ink[0], ink[1], ink[2]);
    m->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m->GetPositionCoordinate()->SetValue(0.01, 0.012);
    renderer->AddActor2D(m);
    info.bottom_px = lines * font * 1.25 + 0.012 * height;
    if (options.slider_rows > 0) {
      info.bottom_px = std::max(info.bottom_px, (0.07 + 0.1 * options.slider_rows) * height);
    }
    if (!options.help.empty()) {
      const int hf = std::max(9, font * 4 / 5);
      vtkNew<vtkTextActor> hlp;
      hlp->SetInput(options.help.c_str());
      hlp->GetTextProperty()->SetFontSize(hf);
      hlp->GetTextProperty()->SetColor(0.15, 0.17, 0.22);
      hlp->GetTextProperty()->SetJustificationToRight();
      hlp->GetTextProperty()->SetVerticalJustificationToTop();
      hlp->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
      hlp->GetPositionCoordinate()->SetValue(0.99, 0.985);
      renderer->AddActor2D(hlp);
      const int help_lines =
          1 + static_cast<int>(std::count(options.help.begin(), options.help.end(), '\n'));
      info.top_px = std::max(info.top_px, help_lines * hf * 1.25 + 0.015 * height);
    }
  }

  // What the camera frames: the drawn points (a stone's radius around each) and the labels.
  for (Vertex v = 0; v < n; ++v) {
    if (!L.visible[v]) continue;
    for (int k = 0; k < (info.flat ? 2 : 3); ++k) {
      for (double sgn : {-0.5, 0.5}) {
        auto p = L.point[v];
        p[k] += sgn;
        info.frame.push_back(p);
      }
    }
  }
  for (int k = 0; k < 3; ++k) {
    info.bounds[2 * k] = b[2 * k];
    info.bounds[2 * k + 1] = b[2 * k + 1];
  }
  for (const auto& p : info.frame) {
    for (int k = 0; k < 3; ++k) {
      info.bounds[2 * k] = std::min(info.bounds[2 * k], p[k]);
      info.bounds[2 * k + 1] = std::max(info.bounds[2 * k + 1], p[k]);
    }
  }
  info.parallel = info.flat || view.multiples_axis >= 0;
  return info;
}

void frame_camera(vtkRenderer* renderer, const SceneInfo& info) {
  vtkCamera* cam = renderer->GetActiveCamera();
  const auto& b = info.bounds;
  const double c[3] = {(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2};
  cam->SetFocalPoint(c);
  cam->SetParallelProjection(info.parallel);
  if (info.flat) {
    cam->SetPosition(c[0], c[1], c[2] + 10.0);
    cam->SetViewUp(0, 1, 0);
  } else {
    // From the front right and above: x runs to the right, y away from the viewer, z up.
    if (info.parallel) {  // small multiples: the panels' row runs to the right on screen
      cam->SetPosition(c[0] + kPanelDirection[1] / kPanelDirection[0], c[1] - 1.0, c[2] + 0.5);
    } else {
      cam->SetPosition(c[0] + 0.45, c[1] - 1.0, c[2] + 0.62);
    }
    cam->SetViewUp(0, 0, 1);
    cam->SetViewAngle(30.0);
  }
  double bb[6];
  std::copy(b.begin(), b.end(), bb);
  renderer->ResetCamera(bb);
  // ResetCamera fits the bounding sphere; fit the projected box instead, into the part of the
  // window below the legend and above the bottom text: centre it, then zoom (twice, because
  // perspective makes one step approximate).
  const auto [width, height] = window_size(renderer);
  const int font = std::max(11, height / 42);
  const double x0 = 0.02 * width + 3 * font, x1 = 0.98 * width - 3 * font;
  const double y0 = info.bottom_px + 0.5 * font, y1 = height - info.top_px - font;
  for (int iter = 0; iter < 3; ++iter) {
    double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
    for (const auto& p : info.frame) {
      const auto d = world_to_display(renderer, p);
      for (int k = 0; k < 2; ++k) {
        lo[k] = std::min(lo[k], d[k]);
        hi[k] = std::max(hi[k], d[k]);
      }
    }
    // Move the camera sideways so the box centre lands on the target centre.
    double focal[3], pos[3];
    cam->GetFocalPoint(focal);
    cam->GetPosition(pos);
    const auto fd = world_to_display(renderer, {focal[0], focal[1], focal[2]});
    const double want[2] = {(x0 + x1) / 2, (y0 + y1) / 2};
    const double have[2] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2};
    double w0[4], w1[4];
    renderer->SetDisplayPoint(fd[0], fd[1], fd[2]);
    renderer->DisplayToWorld();
    renderer->GetWorldPoint(w0);
    renderer->SetDisplayPoint(fd[0] + have[0] - want[0], fd[1] + have[1] - want[1], fd[2]);
    renderer->DisplayToWorld();
    renderer->GetWorldPoint(w1);
    for (int k = 0; k < 3; ++k) {
      const double shift = w1[k] / w1[3] - w0[k] / w0[3];
      focal[k] += shift;
      pos[k] += shift;
    }
    cam->SetFocalPoint(focal);
    cam->SetPosition(pos);
    const double zoom = std::min((x1 - x0) / std::max(1.0, hi[0] - lo[0]),
                                 (y1 - y0) / std::max(1.0, hi[1] - lo[1]));
    cam->Zoom(std::clamp(zoom, 0.2, 20.0));
  }
  renderer->ResetCameraClippingRange();
}

std::array<double, 3> world_to_display(vtkRenderer* renderer, const std::array<double, 3>& p) {
  renderer->SetWorldPoint(p[0], p[1], p[2], 1.0);
  renderer->WorldToDisplay();
  double d[3];
  renderer->GetDisplayPoint(d);
  return {d[0], d[1], d[2]};
}

void render_png(const Position& pos, const SceneOptions& options, int width, int height,
                const std::string& path) {
  if (!have_display()) {
    throw Error(
        "rendering needs an X display and DISPLAY is not set; on a machine without "
        "one run it under Xvfb: xvfb-run -a tanbo view ...");
  }
  if (width < 16 || height < 16 || width > 8192 || height > 8192) {
    throw Error("--size must be between 16x16 and 8192x8192");
  }
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->SetSize(width, height);
  window->SetMultiSamples(0);
  vtkNew<vtkRenderer> renderer;
  window->AddRenderer(renderer);
  const SceneInfo info = build_scene(renderer, pos, options);
  frame_camera(renderer, info);
  window->Render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window);
  grab->SetInputBufferTypeToRGB();
  grab->ReadFrontBufferOff();
  grab->Update();
  const std::filesystem::path target(path);
  std::filesystem::path tmp = target;
  tmp += ".tmp" + std::to_string(::getpid()) + ".png";
  vtkNew<vtkPNGWriter> writer;
  writer->SetFileName(tmp.string().c_str());
  writer->SetInputConnection(grab->GetOutputPort());
  writer->Write();
  std::error_code ec;
  if (writer->GetErrorCode() != 0 || !std::filesystem::exists(tmp, ec)) {
    std::filesystem::remove(tmp, ec);
    throw Error("cannot write \"" + path + "\"");
  }
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw Error("cannot write \"" + path + "\": " + ec.message());
  }
}

std::vector<std::array<double, 3>> display_positions(const Position& pos,
                                                     const SceneOptions& options, int width,
                                                     int height) {
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->SetSize(width, height);
  vtkNew<vtkRenderer> renderer;
  window->AddRenderer(renderer);
  const SceneInfo info = build_scene(renderer, pos, options);
  frame_camera(renderer, info);
  std::vector<std::array<double, 3>> out(pos.num_vertices(), {-1.0, -1.0, 0.0});
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (info.layout.visible[v]) out[v] = world_to_display(renderer, info.layout.point[v]);
  }
  return out;
}

}  // namespace tanbo::viz
