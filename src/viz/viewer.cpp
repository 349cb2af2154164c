#include "viewer.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkRenderWindow.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderer.h>
#include <vtkSliderRepresentation2D.h>
#include <vtkSliderWidget.h>
#include <vtkSmartPointer.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "tanbo/core/error.hpp"

namespace tanbo::viz {

Vertex pick_vertex(vtkRenderer* renderer, const SceneInfo& info, double x, double y) {
  // A point's reach on screen: what 0.45 units beside it project to (at least 5 pixels).
  vtkCamera* cam = renderer->GetActiveCamera();
  double dop[3], up[3], right[3];
  cam->GetDirectionOfProjection(dop);
  cam->GetViewUp(up);
  right[0] = dop[1] * up[2] - dop[2] * up[1];
  right[1] = dop[2] * up[0] - dop[0] * up[2];
  right[2] = dop[0] * up[1] - dop[1] * up[0];
  double len = std::sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
  if (len <= 0) len = 1;
  Vertex best = kNoVertex;
  double best_dist = 1e300, best_depth = 1e300;
  const auto& L = info.layout;
  for (Vertex v = 0; v < L.point.size(); ++v) {
    if (!L.visible[v]) continue;
    const auto d = world_to_display(renderer, L.point[v]);
    auto edge = L.point[v];
    for (int k = 0; k < 3; ++k) edge[k] += 0.45 * right[k] / len;
    const auto e = world_to_display(renderer, edge);
    const double reach = std::max(5.0, std::hypot(e[0] - d[0], e[1] - d[1]));
    const double dist = std::hypot(d[0] - x, d[1] - y);
    if (dist > reach) continue;
    // The nearest centre on screen; of centres equally near, the one nearest the viewer.
    if (dist < best_dist - 1e-9 || (dist <= best_dist + 1e-9 && d[2] < best_depth)) {
      best = v;
      best_dist = dist;
      best_depth = d[2];
    }
  }
  return best;
}

namespace {

// Mouse: the trackball camera (left drag rotates, wheel or right drag zooms, middle or
// shift-left drag pans); a left click that does not drag plays a point. Keys go to the
// viewer; the style's own one-letter commands (w, s, e, q, f, p, ...) are switched off.
class ViewerStyle : public vtkInteractorStyleTrackballCamera {
 public:
  static ViewerStyle* New();
  vtkTypeMacro(ViewerStyle, vtkInteractorStyleTrackballCamera);
  ViewerWindow::Impl* viewer = nullptr;
  void OnLeftButtonDown() override;
  void OnLeftButtonUp() override;
  void OnKeyPress() override;
  void OnChar() override {}

 private:
  int press_[2] = {0, 0};
};
vtkStandardNewMacro(ViewerStyle);

}  // namespace

struct ViewerWindow::Impl {
  Session& session;
  SceneOptions opts;
  int width, height, multisamples;
  SceneInfo info;
  bool opened = false;
  int engine_timer = -1;  // one-shot: the engine to move starts thinking
  int poll_timer = -1;    // one-shot, renewed while an engine thinks: has it chosen?
  vtkNew<vtkRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkRenderWindowInteractor> interactor;
  vtkNew<ViewerStyle> style;
  std::vector<vtkSmartPointer<vtkSliderWidget>> sliders;
  std::vector<int> slider_axes;
  vtkMTimeType camera_time = 0;  // the camera's modification time when the scene was laid out

  Impl(Session& s, const SceneOptions& o, int w, int h, int ms)
      : session(s), opts(o), width(w), height(h), multisamples(ms) {
    normalise_view(topo(), opts.view);
    if (opts.help.empty()) opts.help = kViewerKeys;
  }

  const Topology& topo() const { return session.game().position.topology(); }

  void open() {
    require_window_display();
    window->SetSize(width, height);
    window->SetMultiSamples(multisamples);
    window->SetWindowName(("tanbo view - " + topo().spec).c_str());
    window->AddRenderer(renderer);
    interactor->SetRenderWindow(window);
    style->viewer = this;
    interactor->SetInteractorStyle(style);
    interactor->Initialize();
    vtkNew<vtkCallbackCommand> timer;
    timer->SetCallback(&Impl::on_timer);
    timer->SetClientData(this);
    interactor->AddObserver(vtkCommand::TimerEvent, timer);
    vtkNew<vtkCallbackCommand> moved;
    moved->SetCallback(&Impl::on_camera_moved);
    moved->SetClientData(this);
    style->AddObserver(vtkCommand::EndInteractionEvent, moved);
    opened = true;
    rebuild(true);
    make_sliders();
    schedule_engine();
  }

  void click(double x, double y) {
    const Vertex v = pick_vertex(renderer, info, x, y);
    if (v == kNoVertex) return;
    bool played = false;
    opts.message = click_message(session, v, &played);
    rebuild(false);
    if (played) schedule_engine();
  }

  void key(const std::string& sym) {
    if (sym == "Left" || sym == "Prior" || sym == "b") {
      session.previous();
      shown_changed();
    } else if (sym == "Right" || sym == "Next" || sym == "space") {
      session.next();
      shown_changed();
    } else if (sym == "Home") {
      session.first();
      shown_changed();
    } else if (sym == "End") {
      session.last();
      shown_changed();
      schedule_engine();
    } else if (sym == "e") {
      opts.show_empty = !opts.show_empty;
      rebuild(false);
    } else if (sym == "r") {
      opts.show_root_space = !opts.show_root_space;
      rebuild(false);
    } else if (sym == "n") {
      const bool on =
          opts.show_names == 1 || (opts.show_names < 0 && topo().kind != BoardKind::kLattice);
      opts.show_names = on ? 0 : 1;
      rebuild(false);
    } else if (sym == "m") {
      toggle_multiples();
    } else if (sym == "a") {
      next_axes();
    } else if (sym == "u") {
      opts.message = session.take_back().message;
      rebuild(false);
      schedule_engine();
    } else if (sym == "f") {
      next_fade();
    } else if (sym == "c") {
      rebuild(true);
    } else if (sym == "h") {
      opts.help = opts.help.empty() ? kViewerKeys : "";
      rebuild(false);
    } else if (sym == "q" || sym == "Escape") {
      interactor->TerminateApp();
    }
  }

  void shown_changed() {
    opts.message.clear();
    rebuild(false);
  }

  static void on_timer(vtkObject*, unsigned long, void* self, void* call_data) {
    auto* v = static_cast<Impl*>(self);
    const int id = call_data ? *static_cast<int*>(call_data) : -1;
    if (id == v->engine_timer) {
      v->engine_timer = -1;
      v->start_engine();
    } else if (id == v->poll_timer) {
      // One-shot timers, renewed: destroying a timer inside its own callback is not safe.
      v->poll_timer = -1;
      if (v->session.engine_ready()) {
        v->finish_engine();
      } else {
        v->poll_later();
      }
    }
  }

  // After a turn or zoom: depth (paler far marks, see-through front layers) and labels laid
  // out again for the camera as it is now.
  static void on_camera_moved(vtkObject*, unsigned long, void* self, void*) {
    auto* v = static_cast<Impl*>(self);
    if (v->renderer->GetActiveCamera()->GetMTime() == v->camera_time) return;  // a click
    if (!v->info.flat) return v->rebuild(false);
    place_labels(v->renderer, v->info);
    v->camera_time = v->renderer->GetActiveCamera()->GetMTime();
    v->window->Render();
  }

  // Cycles the number of see-through front layers: none, 1, 2, ... up to all but the last.
  void next_fade() {
    if (info.flat) {
      opts.message = "See-through layers need a board drawn in 3D.";
      return rebuild(false);
    }
    int most = 3;
    if (topo().kind == BoardKind::kLattice && topo().dimensions() >= 3) {
      most = 1;
      for (int a : opts.view.axes) most = std::max(most, int(topo().dims[a]) - 1);
    }
    opts.fade_front = opts.fade_front >= most ? 0 : opts.fade_front + 1;
    opts.message =
        opts.fade_front == 0
            ? "No layer see-through."
            : "Front layers see-through: " + std::to_string(opts.fade_front) + " (f for more)";
    rebuild(false);
  }

  static void on_slider(vtkObject* caller, unsigned long, void* self, void*) {
    auto* v = static_cast<Impl*>(self);
    for (std::size_t i = 0; i < v->sliders.size(); ++i) {
      if (v->sliders[i].Get() != caller) continue;
      auto* rep = static_cast<vtkSliderRepresentation2D*>(v->sliders[i]->GetRepresentation());
      const int axis = v->slider_axes[i];
      const auto value = static_cast<std::uint32_t>(std::lround(rep->GetValue()));
      if (value >= 1) v->set_slice(axis, value - 1);
    }
  }

  void set_slice(int axis, std::uint32_t value) {
    const auto hidden = hidden_axes(topo(), opts.view);
    if (std::find(hidden.begin(), hidden.end(), axis) == hidden.end()) return;
    value = std::min(value, topo().dims[axis] - 1);
    if (value == opts.view.slice[axis]) return;
    opts.view.slice[axis] = value;
    for (std::size_t i = 0; i < sliders.size(); ++i) {
      if (slider_axes[i] == axis) {
        static_cast<vtkSliderRepresentation2D*>(sliders[i]->GetRepresentation())
            ->SetValue(value + 1);
      }
    }
    rebuild(false);
  }

  void rebuild(bool reframe) {
    opts.status = session.at_end() ? ""
                                   : "viewing move " + std::to_string(session.shown_ply()) +
                                         " of " + std::to_string(session.ply());
    if (!opened) return;
    info = reframe ? prepare_scene(renderer, session.shown(), opts)
                   : build_scene(renderer, session.shown(), opts);
    renderer->ResetCameraClippingRange();
    camera_time = renderer->GetActiveCamera()->GetMTime();
    for (auto& s : sliders) {  // build_scene removed every prop: put the sliders back
      s->Off();
      s->On();
    }
    window->Render();
  }

  // An engine to move starts thinking after a short pause (so that the window shows every
  // move of engine against engine), in the background: the window stays live, and a timer
  // asks every 50 ms whether it has chosen. One still thinking over a position taken back is
  // told to stop and waited for (its choice is dropped) before the next starts.
  void schedule_engine() {
    if (!opened || engine_timer >= 0 || poll_timer >= 0) return;
    if (session.engine_thinking()) {
      poll_later();
    } else if (session.engine_to_move()) {
      engine_timer = interactor->CreateOneShotTimer(200);
    }
  }

  // Asks again in 50 ms whether the engine has chosen (a one-shot timer, see on_timer).
  void poll_later() { poll_timer = interactor->CreateOneShotTimer(50); }

  void start_engine() {
    if (!session.start_engine()) return schedule_engine();
    const Player p = session.game().position.to_move();
    opts.message = player_title(p) + " (" + session.engine(p)->spec() + ") is thinking...";
    rebuild(false);
    poll_later();
  }

  void finish_engine() {
    std::string m;
    try {
      m = session.finish_engine().message;
    } catch (const Error& e) {
      m = std::string("The engine failed: ") + e.what();
    }
    if (!m.empty()) opts.message = m;
    rebuild(false);
    schedule_engine();
  }

  void toggle_multiples() {
    const auto hidden = hidden_axes(topo(), opts.view);
    if (hidden.empty()) {
      opts.message = "Small multiples need a board of 4 or more axes.";
      rebuild(false);
      return;
    }
    opts.view.multiples_axis = opts.view.multiples_axis >= 0 ? -1 : hidden.front();
    rebuild(true);
    make_sliders();
  }

  // Cycles through every choice of three drawn axes (in increasing order).
  void next_axes() {
    const int d = static_cast<int>(topo().dimensions());
    if (topo().kind != BoardKind::kLattice || d <= 3) {
      opts.message = "All axes of this board are drawn.";
      rebuild(false);
      return;
    }
    std::array<int, 3> a = opts.view.axes;
    std::sort(a.begin(), a.end());
    int i = 2;  // next 3-combination of 0..d-1 in lexicographic order, wrapping to {0,1,2}
    while (i >= 0 && a[i] == d - 3 + i) --i;
    if (i < 0) {
      a = {0, 1, 2};
    } else {
      ++a[i];
      for (int j = i + 1; j < 3; ++j) a[j] = a[j - 1] + 1;
    }
    opts.view.axes = a;
    opts.view.multiples_axis = -1;
    for (int k = 0; k < 3; ++k) opts.view.slice[a[k]] = 0;
    for (int h : hidden_axes(topo(), opts.view)) {
      opts.view.slice[h] = std::min(opts.view.slice[h], topo().dims[h] - 1);
    }
    opts.message = "Drawn axes: " + axis_name(a[0]) + "," + axis_name(a[1]) + "," + axis_name(a[2]);
    rebuild(true);
    make_sliders();
  }

  // One slider per hidden axis (except the one laid out as small multiples).
  void make_sliders() {
    for (auto& s : sliders) s->Off();
    sliders.clear();
    slider_axes.clear();
    int rows = 0;
    for (int axis : hidden_axes(topo(), opts.view)) rows += axis != opts.view.multiples_axis;
    if (rows != opts.slider_rows) {
      opts.slider_rows = rows;
      rebuild(true);
    }
    if (!opened) return;
    int row = 0;
    for (int axis : hidden_axes(topo(), opts.view)) {
      if (axis == opts.view.multiples_axis) continue;
      vtkNew<vtkSliderRepresentation2D> rep;
      rep->SetMinimumValue(1);
      rep->SetMaximumValue(topo().dims[axis]);
      rep->SetValue(opts.view.slice[axis] + 1);
      rep->SetTitleText(("slice " + axis_name(axis)).c_str());
      rep->SetLabelFormat("%.0f");
      rep->GetPoint1Coordinate()->SetCoordinateSystemToNormalizedDisplay();
      rep->GetPoint2Coordinate()->SetCoordinateSystemToNormalizedDisplay();
      const double y = 0.085 + 0.1 * row;
      rep->GetPoint1Coordinate()->SetValue(0.70, y);
      rep->GetPoint2Coordinate()->SetValue(0.96, y);
      rep->SetSliderLength(0.03);
      rep->SetSliderWidth(0.03);
      rep->SetTubeWidth(0.008);
      rep->SetEndCapLength(0.01);
      rep->GetTitleProperty()->SetColor(0.08, 0.09, 0.12);
      rep->GetLabelProperty()->SetColor(0.08, 0.09, 0.12);
      auto w = vtkSmartPointer<vtkSliderWidget>::New();
      w->SetInteractor(interactor);
      w->SetRepresentation(rep);
      w->SetAnimationModeToJump();
      vtkNew<vtkCallbackCommand> cb;
      cb->SetCallback(&Impl::on_slider);
      cb->SetClientData(this);
      w->AddObserver(vtkCommand::InteractionEvent, cb);
      w->On();
      sliders.push_back(w);
      slider_axes.push_back(axis);
      ++row;
    }
    window->Render();
  }
};

namespace {

void ViewerStyle::OnLeftButtonDown() {
  const int* p = GetInteractor()->GetEventPosition();
  press_[0] = p[0];
  press_[1] = p[1];
  vtkInteractorStyleTrackballCamera::OnLeftButtonDown();
}

void ViewerStyle::OnLeftButtonUp() {
  vtkInteractorStyleTrackballCamera::OnLeftButtonUp();
  const int* p = GetInteractor()->GetEventPosition();
  if (viewer != nullptr && std::abs(p[0] - press_[0]) <= 3 && std::abs(p[1] - press_[1]) <= 3) {
    viewer->click(p[0], p[1]);
  }
}

void ViewerStyle::OnKeyPress() {
  const char* sym = GetInteractor()->GetKeySym();
  if (viewer != nullptr && sym != nullptr) viewer->key(sym);
}

}  // namespace

std::string click_message(Session& session, Vertex v, bool* played) {
  *played = false;
  if (!session.at_end()) {
    return "You are looking at move " + std::to_string(session.shown_ply()) + " of " +
           std::to_string(session.ply()) + ": press End to return to the game, then play.";
  }
  const TurnResult r = session.play(0, v);
  *played = r.done();
  return r.message;
}

ViewerWindow::ViewerWindow(Session& session, const SceneOptions& options, int width, int height,
                           int multisamples)
    : impl_(std::make_unique<Impl>(session, options, width, height, multisamples)) {}

ViewerWindow::~ViewerWindow() = default;

void ViewerWindow::open() {
  impl_->open();
}

void ViewerWindow::run() {
  if (!impl_->opened) open();
  impl_->interactor->Start();
}

vtkRenderWindowInteractor* ViewerWindow::interactor() const {
  return impl_->interactor.Get();
}

void ViewerWindow::simulate_click(int x, int y) {
  auto* in = impl_->interactor.Get();
  in->SetEventInformation(x, y, 0, 0);
  in->InvokeEvent(vtkCommand::LeftButtonPressEvent, nullptr);
  in->SetEventInformation(x, y, 0, 0);
  in->InvokeEvent(vtkCommand::LeftButtonReleaseEvent, nullptr);
}

void ViewerWindow::simulate_key(const std::string& keysym) {
  auto* in = impl_->interactor.Get();
  const char code = keysym.size() == 1 ? keysym[0] : 0;
  in->SetEventInformation(0, 0, 0, 0, code, 1, keysym.c_str());
  in->InvokeEvent(vtkCommand::KeyPressEvent, nullptr);
  in->InvokeEvent(vtkCommand::CharEvent, nullptr);
}

void ViewerWindow::run_engines() {
  for (int* timer : {&impl_->engine_timer, &impl_->poll_timer}) {
    if (*timer >= 0) impl_->interactor->DestroyTimer(*timer);
    *timer = -1;
  }
  // engine_move() collects an engine that is thinking first.
  while (impl_->session.engine_to_move()) impl_->opts.message = impl_->session.engine_move().message;
  impl_->rebuild(false);
}

void ViewerWindow::set_slice(int axis, std::uint32_t value) {
  impl_->set_slice(axis, value);
}
std::vector<int> ViewerWindow::slider_axes() const {
  return impl_->slider_axes;
}

const std::string& ViewerWindow::message() const {
  return impl_->opts.message;
}
const SceneOptions& ViewerWindow::options() const {
  return impl_->opts;
}
const SceneInfo& ViewerWindow::info() const {
  return impl_->info;
}
vtkRenderer* ViewerWindow::renderer() const {
  return impl_->renderer.Get();
}

int run_viewer(Session& session, const SceneOptions& options, int width, int height,
               std::ostream& err) {
  try {
    ViewerWindow w(session, options, width, height);
    w.open();
    w.run();
  } catch (const Error& e) {
    err << "tanbo view: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tanbo::viz
