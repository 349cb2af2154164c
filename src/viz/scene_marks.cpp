// The 3D marks of a scene: stones, empty points, board lines, root trees, root space and the
// last move (steps of build_scene, scene_parts.hpp).
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkGlyph3DMapper.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTubeFilter.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>

#include "scene_parts.hpp"

namespace tanbo::viz {

namespace {

// Points with an RGB colour each, as polydata.
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

// Line segments with a colour per end, as polydata (the input of a tube filter).
struct ColouredLines {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colours;
  ColouredLines() { colours->SetNumberOfComponents(3); }
  void add(const std::array<double, 3>& a, const std::array<double, 3>& b, const Rgb& ca,
           const Rgb& cb) {
    vtkIdType ids[2];
    for (int i = 0; i < 2; ++i) {
      const auto& p = i == 0 ? a : b;
      const auto& c = i == 0 ? ca : cb;
      ids[i] = points->InsertNextPoint(p[0], p[1], p[2]);
      colours->InsertNextTuple3(c[0] * 255.0, c[1] * 255.0, c[2] * 255.0);
    }
    lines->InsertNextCell(2, ids);
  }
  vtkIdType size() const { return lines->GetNumberOfCells(); }
};

vtkSmartPointer<vtkSphereSource> sphere(double radius, int theta, int phi) {
  auto s = vtkSmartPointer<vtkSphereSource>::New();
  s->SetRadius(radius);
  s->SetThetaResolution(theta);
  s->SetPhiResolution(phi);
  return s;
}

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

// A polished surface: shaded by the lights with a highlight, so that a dark stone still shows
// its round shape.
void glossy(vtkActor* actor) {
  vtkProperty* p = actor->GetProperty();
  p->SetAmbient(0.28);
  p->SetDiffuse(0.78);
  p->SetSpecular(0.55);
  p->SetSpecularPower(28);
  p->SetSpecularColor(1, 1, 1);
}

void see_through(vtkActor* actor) {
  actor->GetProperty()->SetOpacity(kFadedOpacity);
  actor->GetProperty()->SetSpecular(0.0);
  actor->PickableOff();
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

void add_tubes(vtkRenderer* renderer, ColouredLines& segs, bool faded) {
  if (segs.size() == 0) return;
  vtkNew<vtkPolyData> pd;
  pd->SetPoints(segs.points);
  pd->SetLines(segs.lines);
  pd->GetPointData()->SetScalars(segs.colours);
  vtkNew<vtkTubeFilter> tubes;
  tubes->SetInputData(pd);
  tubes->SetRadius(kTubeRadius);
  tubes->SetNumberOfSides(12);
  tubes->CappingOff();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(tubes->GetOutputPort());
  mapper->SetColorModeToDirectScalars();
  mapper->ScalarVisibilityOn();
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  glossy(actor);
  actor->GetProperty()->SetSpecular(0.3);
  if (faded) see_through(actor);
  renderer->AddActor(actor);
}

// The drawn axis whose layers are faded: the one the camera looks most nearly along, with
// the sign of the camera's direction along it.
std::pair<int, double> depth_axis(const double dop[3]) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(dop[i]) > std::abs(dop[k])) k = i;
  return {k, dop[k]};
}

std::string value_range(const std::string& axis, std::uint32_t lo, std::uint32_t hi) {
  if (lo == hi) return axis + "=" + std::to_string(lo);
  return axis + "=" + std::to_string(lo) + ".." + std::to_string(hi);
}

// Faded layers of a lattice with three drawn axes: planes across the axis the camera looks
// along, counted from the camera's side.
void fade_lattice_layers(SceneContext& s, const double dop[3], int layers) {
  const Topology& topo = s.pos.topology();
  const std::array<int, 3> axes = topo.dimensions() > 3 ? s.view.axes : std::array<int, 3>{0, 1, 2};
  const auto [k, sign] = depth_axis(dop);
  const std::uint32_t size = topo.dims[axes[k]];
  const auto n = static_cast<std::uint32_t>(std::min<long>(layers, long(size) - 1));
  if (n == 0) return;
  for (Vertex v = 0; v < s.pos.num_vertices(); ++v) {
    const std::uint32_t c = topo.coords(v)[axes[k]];
    const std::uint32_t layer = sign > 0 ? c : size - 1 - c;
    s.info.faded[v] = s.info.layout.visible[v] && layer < n;
  }
  const std::string name = axis_name(axes[k]);
  s.info.fade_text = (n == 1 ? "layer " : "layers ") +
                     (sign > 0 ? value_range(name, 1, n) : value_range(name, size - n + 1, size));
}

// Faded layers of any other 3D layout: bands of one unit of depth, nearest first.
void fade_depth_bands(SceneContext& s, const double dop[3], int layers) {
  const Layout& L = s.info.layout;
  double lo = 1e300;
  std::vector<double> depth(L.point.size(), 0.0);
  for (Vertex v = 0; v < L.point.size(); ++v) {
    if (!L.visible[v]) continue;
    for (int k = 0; k < 3; ++k) depth[v] += L.point[v][k] * dop[k];
    lo = std::min(lo, depth[v]);
  }
  for (Vertex v = 0; v < L.point.size(); ++v) {
    s.info.faded[v] = L.visible[v] && depth[v] - lo < layers;
  }
  s.info.fade_text = std::to_string(layers) + (layers == 1 ? " unit" : " units") + " of depth";
}

}  // namespace

void measure_depth(SceneContext& s) {
  const Layout& L = s.info.layout;
  s.info.faded.assign(s.pos.num_vertices(), 0);
  s.depth.assign(s.pos.num_vertices(), 0.0);
  if (s.info.flat) return;
  double dop[3];
  s.renderer->GetActiveCamera()->GetDirectionOfProjection(dop);
  double lo = 1e300, hi = -1e300;
  for (Vertex v = 0; v < L.point.size(); ++v) {
    if (!L.visible[v]) continue;
    s.depth[v] = L.point[v][0] * dop[0] + L.point[v][1] * dop[1] + L.point[v][2] * dop[2];
    lo = std::min(lo, s.depth[v]);
    hi = std::max(hi, s.depth[v]);
  }
  for (double& d : s.depth) d = hi > lo ? std::clamp((d - lo) / (hi - lo), 0.0, 1.0) : 0.0;
  if (s.options.fade_front <= 0) return;
  const Topology& topo = s.pos.topology();
  if (topo.kind == BoardKind::kLattice && topo.dimensions() >= 3) {
    fade_lattice_layers(s, dop, s.options.fade_front);
  } else {
    fade_depth_bands(s, dop, s.options.fade_front);
  }
}

Rgb at_depth(const SceneContext& s, const Rgb& c, Vertex v) {
  const double t = kFog * s.depth[v];
  const Rgb bg = background_colour();
  return {c[0] + (bg[0] - c[0]) * t, c[1] + (bg[1] - c[1]) * t, c[2] + (bg[2] - c[2]) * t};
}

void add_stones(SceneContext& s) {
  const Layout& L = s.info.layout;
  ColouredPoints solid, outline, ghost, empties;
  s.info.stone.assign(s.pos.num_vertices(), 0);
  for (Vertex v = 0; v < s.pos.num_vertices(); ++v) {
    const Player p = s.pos.at(v);
    s.info.stone[v] = p != kEmpty;
    if (!L.visible[v]) continue;
    if (p == kEmpty) {
      if (s.options.show_empty) empties.add(L.point[v], at_depth(s, kEmptyColour, v));
    } else if (s.info.faded[v]) {
      ghost.add(L.point[v], player_colour(p));
    } else {
      solid.add(L.point[v], at_depth(s, player_colour(p), v));
      outline.add(L.point[v], at_depth(s, outline_colour(p), v));
    }
  }
  if (solid.size() > 0) {
    auto stones = glyph_actor(solid, sphere(s.info.stone_radius, 32, 20));
    glossy(stones);
    s.renderer->AddActor(stones);
    // The outline: a slightly bigger sphere of which only the far side is drawn, so that it
    // shows as a ring around the stone (and between overlapping stones).
    auto ring = glyph_actor(outline, sphere(s.info.stone_radius + kOutlineWidth, 32, 20));
    ring->GetProperty()->FrontfaceCullingOn();
    ring->GetProperty()->LightingOff();
    ring->PickableOff();
    s.renderer->AddActor(ring);
  }
  if (ghost.size() > 0) {
    auto stones = glyph_actor(ghost, sphere(s.info.stone_radius, 24, 14));
    glossy(stones);
    see_through(stones);
    s.renderer->AddActor(stones);
  }
  s.drew_empty = empties.size() > 0;
  if (empties.size() > 0) {
    auto dots = glyph_actor(empties, sphere(kDotRadius, 8, 6));
    dots->GetProperty()->SetAmbient(0.6);
    dots->GetProperty()->SetDiffuse(0.4);
    s.renderer->AddActor(dots);
  }
}

void add_board_lines(SceneContext& s) {
  const Topology& topo = s.pos.topology();
  const Layout& L = s.info.layout;
  const std::uint32_t n = s.pos.num_vertices();
  const bool draw_edges =
      topo.kind == BoardKind::kFile || (topo.kind == BoardKind::kLattice && topo.dimensions() <= 2);
  if (draw_edges) {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    for (Vertex v = 0; v < n; ++v) pts->InsertNextPoint(L.point[v].data());
    for (Vertex v = 0; v < n; ++v) {
      if (!L.visible[v]) continue;
      for (Vertex w : s.pos.graph().neighbours(v)) {
        if (w < v || !L.visible[w] || !short_edge(topo, v, w)) continue;
        const vtkIdType ids[2] = {v, w};
        lines->InsertNextCell(2, ids);
      }
    }
    add_lines(s.renderer, pts, lines, {0.38, 0.41, 0.47});
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
    add_lines(s.renderer, pts, cells, {0.36, 0.39, 0.45});
  }
}

void add_root_trees(SceneContext& s) {
  const Topology& topo = s.pos.topology();
  const Layout& L = s.info.layout;
  ColouredLines solid, ghost;
  for (Vertex v = 0; v < s.pos.num_vertices(); ++v) {
    if (!L.visible[v] || s.pos.at(v) == kEmpty) continue;
    for (Vertex w : s.pos.graph().neighbours(v)) {
      if (w < v || !L.visible[w] || s.pos.root_of(w) != s.pos.root_of(v)) continue;
      if (!short_edge(topo, v, w)) continue;
      if (topo.kind == BoardKind::kLattice) {
        // Lattice edges are one unit long; longer ones join small-multiple panels.
        double d2 = 0;
        for (int k = 0; k < 3; ++k) d2 += std::pow(L.point[v][k] - L.point[w][k], 2);
        if (d2 > 1.5) continue;
      }
      const Rgb c = player_colour(s.pos.at(v));
      if (s.info.faded[v] || s.info.faded[w]) {
        ghost.add(L.point[v], L.point[w], c, c);
      } else {
        solid.add(L.point[v], L.point[w], at_depth(s, c, v), at_depth(s, c, w));
      }
    }
  }
  s.drew_tubes = solid.size() + ghost.size() > 0;
  add_tubes(s.renderer, solid, false);
  add_tubes(s.renderer, ghost, true);
}

void add_root_space(SceneContext& s) {
  if (!s.options.show_root_space) return;
  ColouredPoints space;
  const int k = s.pos.num_players();
  for (RootId r : s.pos.live_roots()) {
    const Player p = s.pos.root_owner(r);
    // Where the root spaces of several colours meet, their cubes stand side by side.
    const double shift = (p - 1 - (k - 1) / 2.0) * 0.1;
    for (Vertex v : s.pos.root_space_points(r)) {
      if (!s.info.layout.visible[v]) continue;
      auto at = s.info.layout.point[v];
      at[0] += shift;
      space.add(at, at_depth(s, player_colour(p), v));
    }
  }
  s.drew_space = space.size() > 0;
  if (space.size() == 0) return;
  vtkNew<vtkCubeSource> cube;
  cube->SetXLength(kSpaceCube);
  cube->SetYLength(kSpaceCube);
  cube->SetZLength(kSpaceCube);
  auto actor = glyph_actor(space, cube);
  actor->GetProperty()->SetAmbient(0.35);
  actor->GetProperty()->SetDiffuse(0.65);
  actor->GetProperty()->SetEdgeVisibility(true);
  actor->GetProperty()->SetEdgeColor(0.2, 0.2, 0.2);
  s.renderer->AddActor(actor);
}

void add_last_move(SceneContext& s) {
  if (s.pos.ply() == 0 || s.pos.last_move().kind != MoveRecord::Kind::kPlace) return;
  const Vertex v = s.pos.last_move().vertex;
  if (!s.info.layout.visible[v]) return;
  s.drew_last = true;
  vtkNew<vtkCubeSource> frame;
  frame->SetCenter(s.info.layout.point[v].data());
  frame->SetXLength(kFrameSize);
  frame->SetYLength(kFrameSize);
  frame->SetZLength(s.info.flat ? 0.01 : kFrameSize);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(frame->GetOutputPort());
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  actor->GetProperty()->SetRepresentationToWireframe();
  actor->GetProperty()->SetColor(kLastMoveColour[0], kLastMoveColour[1], kLastMoveColour[2]);
  actor->GetProperty()->SetLineWidth(3.0);
  actor->GetProperty()->LightingOff();
  actor->PickableOff();
  s.renderer->AddActor(actor);
}

}  // namespace tanbo::viz
