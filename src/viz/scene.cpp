#include "scene.hpp"

#include <vtkCamera.h>
#include <vtkLight.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "scene_parts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/safe_file.hpp"

namespace tanbo::viz {

std::array<double, 3> player_colour(Player p) {
  static const Rgb kColours[] = {
      {0.17, 0.17, 0.19}, {0.94, 0.94, 0.91}, {0.86, 0.12, 0.12}, {0.12, 0.32, 0.92},
      {0.08, 0.66, 0.22}, {0.98, 0.86, 0.08}, {1.00, 0.52, 0.02}, {0.58, 0.20, 0.80},
  };
  if (p < 1 || p > kMaxPlayers) return {0.5, 0.5, 0.5};
  return kColours[p - 1];
}

std::array<double, 3> outline_colour(Player p) {
  if (p == kBlack) return {0.86, 0.88, 0.92};
  if (p == kWhite) return {0.10, 0.10, 0.12};
  const Rgb c = player_colour(p);
  return {c[0] * 0.35, c[1] * 0.35, c[2] * 0.35};
}

std::array<double, 3> background_colour() {
  return {0.60, 0.66, 0.74};
}

std::array<double, 3> label_colour() {
  return {0.05, 0.07, 0.15};
}

namespace {

std::array<int, 2> window_size(vtkRenderer* r) {
  if (r->GetRenderWindow() != nullptr) {
    const int* sz = r->GetRenderWindow()->GetSize();
    if (sz != nullptr && sz[0] > 0 && sz[1] > 0) return {sz[0], sz[1]};
  }
  return {800, 600};
}

// A key light from the upper left of the viewer (its highlight sits off a stone's centre, so
// the stone reads as a ball) and a weaker fill light from the viewer without a highlight.
void add_lights(vtkRenderer* renderer) {
  renderer->RemoveAllLights();
  vtkNew<vtkLight> key;
  key->SetLightTypeToCameraLight();
  key->SetPosition(-0.55, 0.75, 1.0);
  key->SetFocalPoint(0, 0, 0);
  key->SetIntensity(0.85);
  renderer->AddLight(key);
  vtkNew<vtkLight> fill;
  fill->SetLightTypeToCameraLight();
  fill->SetPosition(0.3, -0.2, 1.0);
  fill->SetFocalPoint(0, 0, 0);
  fill->SetIntensity(0.35);
  fill->SetSpecularColor(0, 0, 0);
  renderer->AddLight(fill);
}

}  // namespace

SceneContext start_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options) {
  SceneContext s(renderer, pos, options);
  renderer->RemoveAllViewProps();
  const Rgb bg = background_colour();
  renderer->SetBackground(bg[0], bg[1], bg[2]);
  add_lights(renderer);
  normalise_view(pos.topology(), s.view);
  s.info.layout = compute_layout(pos.topology(), s.view);
  const Layout& L = s.info.layout;
  s.info.flat = L.space_dims <= 2;
  s.info.stone_radius = !s.info.flat                             ? kStoneRadius
                        : pos.topology().kind == BoardKind::kHex ? kHexStoneRadius
                                                                 : kFlatStoneRadius;
  const auto [width, height] = window_size(renderer);
  s.info.width = width;
  s.info.height = height;
  s.font = options.font_size > 0 ? options.font_size : std::max(11, height / 42);
  // Bounds and centre of the drawn points.
  std::array<double, 6> b{1e300, -1e300, 1e300, -1e300, 1e300, -1e300};
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (!L.visible[v]) continue;
    ++s.visible_count;
    for (int k = 0; k < 3; ++k) {
      b[2 * k] = std::min(b[2 * k], L.point[v][k]);
      b[2 * k + 1] = std::max(b[2 * k + 1], L.point[v][k]);
    }
  }
  if (s.visible_count == 0) b = {0, 0, 0, 0, 0, 0};
  s.board = b;
  for (int k = 0; k < 3; ++k) s.info.centre[k] = (b[2 * k] + b[2 * k + 1]) / 2;
  return s;
}

void collect_frame(SceneContext& s) {
  const Layout& L = s.info.layout;
  // A stone's radius around each drawn point, and more, stays in view.
  for (Vertex v = 0; v < s.pos.num_vertices(); ++v) {
    if (!L.visible[v]) continue;
    for (int k = 0; k < (s.info.flat ? 2 : 3); ++k) {
      for (double sgn : {-0.5, 0.5}) {
        auto p = L.point[v];
        p[k] += sgn;
        s.info.frame.push_back(p);
      }
    }
  }
  s.info.bounds = s.board;
  auto grow = [&](const std::array<double, 3>& p) {
    for (int k = 0; k < 3; ++k) {
      s.info.bounds[2 * k] = std::min(s.info.bounds[2 * k], p[k]);
      s.info.bounds[2 * k + 1] = std::max(s.info.bounds[2 * k + 1], p[k]);
    }
  };
  for (const auto& p : s.info.frame) grow(p);
  for (const auto& l : s.info.labels) grow(l.at);
}

SceneInfo build_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options) {
  SceneContext s = start_scene(renderer, pos, options);
  measure_depth(s);
  add_stones(s);
  add_board_lines(s);
  add_root_trees(s);
  add_root_space(s);
  add_last_move(s);
  add_legend(s);
  add_status_and_help(s);
  add_axis_labels(s);
  add_point_names(s);
  collect_frame(s);
  if (renderer->IsActiveCameraCreated()) place_labels(renderer, s.info);  // else frame_camera
  return std::move(s.info);
}

namespace {

// The camera's direction: face on for flat boards, from the front right and above for 3D
// ones (x runs to the right, y away from the viewer, z up), turned `turn` degrees about the
// vertical. The 3D direction (31 degrees right of y, 34 degrees up) keeps the points of a
// 5x5x5 lattice at least 0.35 units apart on screen (their neighbours 1 unit apart), so that
// each can be seen and clicked; most directions near it bring two points within 0.1.
void aim_camera(vtkCamera* cam, const SceneInfo& info, double turn) {
  const auto& b = info.bounds;
  const double c[3] = {(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2};
  cam->SetFocalPoint(c);
  cam->SetParallelProjection(true);  // every layer seen the same, rows of points in line
  if (info.flat) {
    cam->SetPosition(c[0], c[1], c[2] + 10.0);
    cam->SetViewUp(0, 1, 0);
    return;
  }
  if (info.layout.panels > 1) {  // small multiples: the panels' row runs to the right on screen
    cam->SetPosition(c[0] + kPanelDirection[1] / kPanelDirection[0], c[1] - 1.0, c[2] + 0.5);
  } else {
    cam->SetPosition(c[0] + 0.600, c[1] - 1.0, c[2] + 0.786);
  }
  cam->SetViewUp(0, 0, 1);
  cam->Azimuth(turn);
}

// The box on screen of everything the camera frames: the points, and each label's text.
Box projected_extent(vtkRenderer* renderer, const SceneInfo& info) {
  Box e{1e300, 1e300, -1e300, -1e300};
  auto grow = [&](const std::array<double, 3>& p, const Box& around) {
    const auto d = world_to_display(renderer, p);
    e.x0 = std::min(e.x0, d[0] + around.x0);
    e.y0 = std::min(e.y0, d[1] + around.y0);
    e.x1 = std::max(e.x1, d[0] + around.x1);
    e.y1 = std::max(e.y1, d[1] + around.y1);
  };
  for (const auto& p : info.frame) grow(p, {});
  for (const auto& l : info.labels) grow(l.at, l.extent);
  return e;
}

// The largest part of the window the board may take: the fixed boxes (legend, status, help,
// sliders) each stay above, below, left or right of it; of every such choice, the one where
// the board can be drawn biggest.
Box free_region(const SceneInfo& info, const Box& extent) {
  const double m = 6, w = info.width, h = info.height;
  const Box whole{m, m, w - m, h - m};
  std::vector<Box> obstacles;
  for (const auto& o : info.overlays) obstacles.push_back(o.box);
  const double bw = std::max(1.0, extent.x1 - extent.x0), bh = std::max(1.0, extent.y1 - extent.y0);
  Box best = whole;
  double best_scale = -1;
  std::size_t choices = 1;
  for (std::size_t i = 0; i < obstacles.size(); ++i) choices *= 4;
  for (std::size_t c = 0; c < choices; ++c) {
    Box r = whole;
    std::size_t code = c;
    for (const Box& o : obstacles) {
      switch (code % 4) {
        case 0:
          r.y0 = std::max(r.y0, o.y1 + m);
          break;  // the board above it
        case 1:
          r.y1 = std::min(r.y1, o.y0 - m);
          break;  // below it
        case 2:
          r.x0 = std::max(r.x0, o.x1 + m);
          break;  // right of it
        default:
          r.x1 = std::min(r.x1, o.x0 - m);
          break;  // left of it
      }
      code /= 4;
    }
    if (r.x1 - r.x0 < 8 || r.y1 - r.y0 < 8) continue;
    const double scale = std::min((r.x1 - r.x0) / bw, (r.y1 - r.y0) / bh);
    if (scale > best_scale) {
      best_scale = scale;
      best = r;
    }
  }
  return best;
}

// Moves the camera sideways by a display offset (dx, dy) in pixels.
void pan_pixels(vtkRenderer* renderer, double dx, double dy) {
  vtkCamera* cam = renderer->GetActiveCamera();
  double focal[3], pos[3];
  cam->GetFocalPoint(focal);
  cam->GetPosition(pos);
  const auto fd = world_to_display(renderer, {focal[0], focal[1], focal[2]});
  double w0[4], w1[4];
  renderer->SetDisplayPoint(fd[0], fd[1], fd[2]);
  renderer->DisplayToWorld();
  renderer->GetWorldPoint(w0);
  renderer->SetDisplayPoint(fd[0] + dx, fd[1] + dy, fd[2]);
  renderer->DisplayToWorld();
  renderer->GetWorldPoint(w1);
  for (int k = 0; k < 3; ++k) {
    const double shift = w1[k] / w1[3] - w0[k] / w0[3];
    focal[k] += shift;
    pos[k] += shift;
  }
  cam->SetFocalPoint(focal);
  cam->SetPosition(pos);
}

// Centres the framed box in `region` and zooms it to fill it (a few times: label text does
// not grow with the zoom, and perspective makes one step approximate).
void fit_into(vtkRenderer* renderer, const SceneInfo& info, const Box& region) {
  for (int iter = 0; iter < 4; ++iter) {
    const Box e = projected_extent(renderer, info);
    pan_pixels(renderer, (e.x0 + e.x1 - region.x0 - region.x1) / 2,
               (e.y0 + e.y1 - region.y0 - region.y1) / 2);
    const double zoom = std::min((region.x1 - region.x0) / std::max(1.0, e.x1 - e.x0),
                                 (region.y1 - region.y0) / std::max(1.0, e.y1 - e.y0));
    renderer->GetActiveCamera()->Zoom(std::clamp(zoom, 0.2, 20.0) * (iter == 3 ? 0.98 : 1.0));
  }
  const Box e = projected_extent(renderer, info);
  pan_pixels(renderer, (e.x0 + e.x1 - region.x0 - region.x1) / 2,
             (e.y0 + e.y1 - region.y0 - region.y1) / 2);
}

// The smallest distance on screen between the centres of two drawn points, or `enough` when
// none are closer (points bucketed by squares of that size, each compared with its own and
// the neighbouring squares).
double min_separation(vtkRenderer* renderer, const SceneInfo& info, double enough) {
  std::map<std::pair<long, long>, std::vector<std::array<double, 2>>> cells;
  double best = enough;
  for (Vertex v = 0; v < info.layout.point.size(); ++v) {
    if (!info.layout.visible[v]) continue;
    const auto d = world_to_display(renderer, info.layout.point[v]);
    const long cx = std::lround(std::floor(d[0] / enough)),
               cy = std::lround(std::floor(d[1] / enough));
    for (long i = cx - 1; i <= cx + 1; ++i) {
      for (long j = cy - 1; j <= cy + 1; ++j) {
        auto it = cells.find({i, j});
        if (it == cells.end()) continue;
        for (const auto& p : it->second)
          best = std::min(best, std::hypot(p[0] - d[0], p[1] - d[1]));
      }
    }
    cells[{cx, cy}].push_back({d[0], d[1]});
  }
  return best;
}

// Aims the camera, turned `turn` degrees, and fits the board into the free region.
void aim_and_fit(vtkRenderer* renderer, const SceneInfo& info, double turn) {
  aim_camera(renderer->GetActiveCamera(), info, turn);
  double bb[6];
  std::copy(info.bounds.begin(), info.bounds.end(), bb);
  renderer->ResetCamera(bb);
  fit_into(renderer, info, free_region(info, projected_extent(renderer, info)));
}

}  // namespace

void frame_camera(vtkRenderer* renderer, SceneInfo& info) {
  aim_and_fit(renderer, info, 0.0);
  // In 3D two points can land on the same pixel, and a click could not tell them apart: turn
  // the camera by a few degrees until every two drawn points are kPickSpacing pixels apart (or
  // as far apart as the turns make them). Small multiples keep their direction (their row of
  // panels runs across the screen); boards too big to click point by point are left.
  const std::uint32_t shown = std::count(info.layout.visible.begin(), info.layout.visible.end(), 1);
  if (!info.flat && info.layout.panels == 1 && shown <= 3000) {
    double best_turn = 0.0, best = min_separation(renderer, info, kPickSpacing);
    for (double turn : {3.0, -3.0, 6.0, -6.0, 9.0, -9.0}) {
      if (best >= kPickSpacing) break;
      aim_and_fit(renderer, info, turn);
      const double sep = min_separation(renderer, info, kPickSpacing);
      if (sep > best) {
        best = sep;
        best_turn = turn;
      }
    }
    if (best_turn != 0.0 || best < kPickSpacing) aim_and_fit(renderer, info, best_turn);
  }
  renderer->ResetCameraClippingRange();
  place_labels(renderer, info);
}

std::array<double, 3> world_to_display(vtkRenderer* renderer, const std::array<double, 3>& p) {
  renderer->SetWorldPoint(p[0], p[1], p[2], 1.0);
  renderer->WorldToDisplay();
  double d[3];
  renderer->GetDisplayPoint(d);
  return {d[0], d[1], d[2]};
}

SceneInfo prepare_scene(vtkRenderer* renderer, const Position& pos, const SceneOptions& options) {
  SceneInfo info = build_scene(renderer, pos, options);
  frame_camera(renderer, info);
  // Depth (paler far marks, see-through front layers, the legend's line about them) depends
  // on the camera's direction: build again now that it is set, and frame again (the same
  // direction, so the same depths).
  if (!info.flat) {
    info = build_scene(renderer, pos, options);
    frame_camera(renderer, info);
  }
  return info;
}

namespace {

// An off-screen window of the picture's size, with one renderer.
struct OffScreen {
  vtkNew<vtkRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  OffScreen(int width, int height) {
    window->SetOffScreenRendering(1);
    window->SetSize(width, height);
    window->SetMultiSamples(0);
    window->AddRenderer(renderer);
  }
};

}  // namespace

void render_png(const Position& pos, const SceneOptions& options, int width, int height,
                const std::string& path) {
  if (const std::string problem = display_problem(); !problem.empty()) {
    throw Error("rendering needs an X display and " + problem +
                "; on a machine without one run it under Xvfb: xvfb-run -a tanbo view ...");
  }
  if (width < 16 || height < 16 || width > 8192 || height > 8192) {
    throw Error("--size must be between 16x16 and 8192x8192");
  }
  check_writable(path);  // before the picture is made: a big scene takes a while
  OffScreen off(width, height);
  prepare_scene(off.renderer, pos, options);
  off.window->Render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(off.window);
  grab->SetInputBufferTypeToRGB();
  grab->ReadFrontBufferOff();
  grab->Update();
  // Encoded in memory and written as every output of tanbo is (write_file_atomic): under the
  // lock, through a temporary file in the target's folder, refusing a target that is not a
  // plain file. A temporary file named after the target and renamed over it replaced devices
  // (--png /dev/null, as root), FIFOs and links, and was left behind by a kill.
  vtkNew<vtkPNGWriter> writer;
  writer->WriteToMemoryOn();
  writer->SetInputConnection(grab->GetOutputPort());
  writer->Write();
  vtkUnsignedCharArray* const png = writer->GetResult();
  if (writer->GetErrorCode() != 0 || png == nullptr || png->GetNumberOfValues() == 0) {
    throw Error("cannot encode the picture for " + shown_name(path));
  }
  write_file_atomic(path, std::string_view(reinterpret_cast<const char*>(png->GetPointer(0)),
                                           static_cast<std::size_t>(png->GetNumberOfValues())));
}

std::vector<std::array<double, 3>> display_positions(const Position& pos,
                                                     const SceneOptions& options, int width,
                                                     int height) {
  OffScreen off(width, height);
  const SceneInfo info = prepare_scene(off.renderer, pos, options);
  std::vector<std::array<double, 3>> out(pos.num_vertices(), {-1.0, -1.0, 0.0});
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (info.layout.visible[v]) out[v] = world_to_display(off.renderer, info.layout.point[v]);
  }
  return out;
}

std::vector<TextBox> text_layout(const Position& pos, const SceneOptions& options, int width,
                                 int height) {
  OffScreen off(width, height);
  return text_boxes(prepare_scene(off.renderer, pos, options));
}

}  // namespace tanbo::viz
