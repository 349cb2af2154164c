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

#include "tanbo/error.hpp"

namespace tanbo::viz {

Position position_at(const Position& game_position, std::uint32_t ply) {
  Position p(game_position.topology_ptr(), game_position.setup());
  const auto& hist = game_position.history();
  for (std::uint32_t i = 0; i < ply && i < hist.size(); ++i) {
    if (hist[i].kind == MoveRecord::Kind::kResign) {
      p.resign(hist[i].player);
    } else {
      p.play(hist[i].vertex);
    }
  }
  return p;
}

Vertex pick_vertex(vtkRenderer* renderer, const SceneInfo& info, double x, double y) {
  vtkCamera* cam = renderer->GetActiveCamera();
  double dop[3], up[3], right[3];
  cam->GetDirectionOfProjection(dop);
  cam->GetViewUp(up);
  right[0] = dop[1] * up[2] - dop[2] * up[1];
  right[1] = dop[2] * up[0] - dop[0] * up[2];
  right[2] = dop[0] * up[1] - dop[1] * up[0];
  const double len = std::sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
  Vertex best = kNoVertex;
  double best_depth = 1e300;
  const auto& L = info.layout;
  for (Vertex v = 0; v < L.point.size(); ++v) {
    if (!L.visible[v]) continue;
    const auto d = world_to_display(renderer, L.point[v]);
    auto edge = L.point[v];
    for (int k = 0; k < 3; ++k) edge[k] += 0.45 * right[k] / (len > 0 ? len : 1);
    const auto e = world_to_display(renderer, edge);
    const double r = std::max(6.0, std::hypot(e[0] - d[0], e[1] - d[1]));
    if (std::hypot(d[0] - x, d[1] - y) <= r && d[2] < best_depth) {
      best_depth = d[2];
      best = v;
    }
  }
  return best;
}

namespace {

class Viewer;

// Mouse: the trackball camera (left drag rotates, wheel or right drag zooms, middle drag pans)
// and a left click that does not drag plays a point. Keys go to the viewer; the style's own
// one-letter commands (w, s, e, q, f, p, ...) are switched off.
class ViewerStyle : public vtkInteractorStyleTrackballCamera {
 public:
  static ViewerStyle* New();
  vtkTypeMacro(ViewerStyle, vtkInteractorStyleTrackballCamera);
  Viewer* viewer = nullptr;
  void OnLeftButtonDown() override;
  void OnLeftButtonUp() override;
  void OnKeyPress() override;
  void OnChar() override {}

 private:
  int press_[2] = {0, 0};
};
vtkStandardNewMacro(ViewerStyle);

class Viewer {
 public:
  Viewer(Game& game, ViewerConfig& config) : game_(game), cfg_(config), shown_(game.position) {
    opts_ = cfg_.options;
    normalise_view(topo(), opts_.view);
    opts_.help = kViewerKeys;
    ply_ = game.position.ply();
    if (cfg_.start_ply >= 0) ply_ = std::min<std::uint32_t>(ply_, cfg_.start_ply);
    shown_ = position_at(game_.position, ply_);
  }

  int run() {
    window_->SetSize(cfg_.width, cfg_.height);
    window_->SetWindowName(("tanbo view - " + topo().spec).c_str());
    window_->AddRenderer(renderer_);
    interactor_->SetRenderWindow(window_);
    style_->viewer = this;
    interactor_->SetInteractorStyle(style_);
    interactor_->Initialize();
    vtkNew<vtkCallbackCommand> timer;
    timer->SetCallback(&Viewer::on_timer);
    timer->SetClientData(this);
    interactor_->AddObserver(vtkCommand::TimerEvent, timer);
    rebuild(true);
    make_sliders();
    schedule_engine();
    window_->Render();
    interactor_->Start();
    return 0;
  }

  void click(double x, double y) {
    const Vertex v = pick_vertex(renderer_, info_, x, y);
    if (v == kNoVertex) return;
    const Topology& t = topo();
    Position& pos = game_.position;
    if (ply_ != pos.ply()) {
      message("You are looking at move " + std::to_string(ply_) + " of " +
              std::to_string(pos.ply()) + ": press End to return to the game, then play.");
      return;
    }
    if (pos.is_over()) {
      message("The game is over: " + player_title(pos.winner()) + " won.");
      return;
    }
    const Player p = pos.to_move();
    if (engine(p) != nullptr) {
      message("It is " + player_title(p) + "'s turn, played by the engine (" + engine(p)->spec() +
              ").");
      return;
    }
    const MoveStatus st = pos.check_move(p, v);
    if (st != MoveStatus::kLegal) {
      message(player_title(p) + " cannot play " + t.name(v) + ": " + pos.explain(p, v));
      return;
    }
    play(v, player_title(p) + " played " + t.name(v));
  }

  void key(const std::string& sym) {
    const std::uint32_t last = game_.position.ply();
    if (sym == "Left" || sym == "Prior" || sym == "b") {
      if (ply_ > 0) show(ply_ - 1);
    } else if (sym == "Right" || sym == "Next" || sym == "space") {
      if (ply_ < last) show(ply_ + 1);
    } else if (sym == "Home") {
      show(0);
    } else if (sym == "End") {
      show(last);
    } else if (sym == "e") {
      opts_.show_empty = !opts_.show_empty;
      rebuild(false);
    } else if (sym == "r") {
      opts_.show_root_space = !opts_.show_root_space;
      rebuild(false);
    } else if (sym == "n") {
      const bool on =
          opts_.show_names == 1 || (opts_.show_names < 0 && topo().kind != BoardKind::kLattice);
      opts_.show_names = on ? 0 : 1;
      rebuild(false);
    } else if (sym == "m") {
      toggle_multiples();
    } else if (sym == "a") {
      next_axes();
    } else if (sym == "u") {
      take_back();
    } else if (sym == "c") {
      frame_camera(renderer_, info_);
      window_->Render();
    } else if (sym == "h") {
      opts_.help = opts_.help.empty() ? kViewerKeys : "";
      rebuild(false);
    } else if (sym == "q" || sym == "Escape") {
      interactor_->TerminateApp();
    }
  }

  static void on_timer(vtkObject*, unsigned long, void* self, void* call_data) {
    auto* v = static_cast<Viewer*>(self);
    const int id = call_data ? *static_cast<int*>(call_data) : -1;
    if (id == v->engine_timer_) {
      v->engine_timer_ = -1;
      v->engine_move();
    }
  }

  static void on_slider(vtkObject* caller, unsigned long, void* self, void*) {
    auto* v = static_cast<Viewer*>(self);
    auto* w = static_cast<vtkSliderWidget*>(caller);
    for (std::size_t i = 0; i < v->sliders_.size(); ++i) {
      if (v->sliders_[i].Get() != w) continue;
      auto* rep = static_cast<vtkSliderRepresentation2D*>(w->GetRepresentation());
      const int axis = v->slider_axes_[i];
      const auto value = static_cast<std::uint32_t>(std::lround(rep->GetValue()));
      rep->SetValue(value);
      if (value >= 1 && value - 1 != v->opts_.view.slice[axis]) {
        v->opts_.view.slice[axis] = value - 1;
        v->rebuild(false);
      }
    }
  }

 private:
  const Topology& topo() const { return game_.position.topology(); }
  Agent* engine(Player p) const {
    return p >= 1 && p <= cfg_.engines.size() ? cfg_.engines[p - 1].get() : nullptr;
  }

  void message(const std::string& m) {
    opts_.message = m;
    rebuild(false);
  }

  void show(std::uint32_t ply) {
    ply_ = ply;
    shown_ = position_at(game_.position, ply_);
    opts_.message.clear();
    rebuild(false);
  }

  void rebuild(bool reframe) {
    const std::uint32_t last = game_.position.ply();
    opts_.status =
        ply_ == last ? "" : "viewing move " + std::to_string(ply_) + " of " + std::to_string(last);
    info_ = build_scene(renderer_, shown_, opts_);
    if (reframe) frame_camera(renderer_, info_);
    renderer_->ResetCameraClippingRange();
    for (auto& s : sliders_) {  // build_scene removed every prop: put the sliders back
      s->Off();
      s->On();
    }
    window_->Render();
  }

  void save() {
    if (cfg_.game_path.empty()) return;
    try {
      save_game(game_, cfg_.game_path);
    } catch (const Error& e) {
      opts_.message += "  (NOT SAVED: " + std::string(e.what()) + ")";
    }
  }

  void play(Vertex v, const std::string& what) {
    game_.position.play(v);
    ply_ = game_.position.ply();
    shown_ = game_.position;
    opts_.message = what;
    const auto& r = game_.position.last_move();
    if (r.stones_removed > 0) {
      opts_.message += ", removing " + std::to_string(r.stones_removed) +
                       (r.stones_removed == 1 ? " stone" : " stones");
    }
    if (game_.position.is_over()) {
      opts_.message += ". " + player_title(game_.position.winner()) + " wins.";
    }
    save();
    rebuild(false);
    schedule_engine();
  }

  void schedule_engine() {
    const Position& pos = game_.position;
    if (pos.is_over() || ply_ != pos.ply() || engine(pos.to_move()) == nullptr) return;
    if (engine_timer_ >= 0) return;
    engine_timer_ = interactor_->CreateOneShotTimer(150);
  }

  void engine_move() {
    Position& pos = game_.position;
    if (pos.is_over() || ply_ != pos.ply()) return;
    const Player p = pos.to_move();
    Agent* a = engine(p);
    if (a == nullptr) return;
    opts_.message = player_title(p) + " (" + a->spec() + ") is thinking...";
    rebuild(false);
    const Vertex v = a->choose(pos);
    play(v, player_title(p) + " (engine) played " + topo().name(v));
  }

  // Takes back the last turn, and further engine turns, until a person is to move.
  void take_back() {
    Position& pos = game_.position;
    if (pos.ply() == 0) {
      message("Nothing to take back.");
      return;
    }
    do {
      pos.undo();
    } while (pos.ply() > 0 && engine(pos.to_move()) != nullptr);
    ply_ = pos.ply();
    shown_ = pos;
    opts_.message = "Took back to move " + std::to_string(ply_);
    save();
    rebuild(false);
    schedule_engine();
  }

  void toggle_multiples() {
    const auto hidden = hidden_axes(topo(), opts_.view);
    if (hidden.empty()) {
      message("Small multiples need a board of 4 or more axes.");
      return;
    }
    opts_.view.multiples_axis = opts_.view.multiples_axis >= 0 ? -1 : hidden.front();
    rebuild(true);
    make_sliders();
  }

  // Cycles through every choice of three drawn axes (in increasing order).
  void next_axes() {
    const int d = static_cast<int>(topo().dimensions());
    if (topo().kind != BoardKind::kLattice || d <= 3) {
      message("All axes of this board are drawn.");
      return;
    }
    std::array<int, 3> a = opts_.view.axes;
    std::sort(a.begin(), a.end());
    // Next 3-combination of 0..d-1 in lexicographic order, wrapping to {0,1,2}.
    int i = 2;
    while (i >= 0 && a[i] == d - 3 + i) --i;
    if (i < 0) {
      a = {0, 1, 2};
    } else {
      ++a[i];
      for (int j = i + 1; j < 3; ++j) a[j] = a[j - 1] + 1;
    }
    opts_.view.axes = a;
    opts_.view.multiples_axis = -1;
    for (int k = 0; k < 3; ++k) opts_.view.slice[a[k]] = 0;
    rebuild(true);
    make_sliders();
  }

  // One slider per hidden axis (except the one laid out as small multiples).
  void make_sliders() {
    for (auto& s : sliders_) s->Off();
    sliders_.clear();
    slider_axes_.clear();
    int row = 0;
    for (int axis : hidden_axes(topo(), opts_.view)) {
      if (axis == opts_.view.multiples_axis) continue;
      vtkNew<vtkSliderRepresentation2D> rep;
      rep->SetMinimumValue(1);
      rep->SetMaximumValue(topo().dims[axis]);
      rep->SetValue(opts_.view.slice[axis] + 1);
      rep->SetTitleText(("slice " + axis_name(axis)).c_str());
      rep->SetLabelFormat("%.0f");
      rep->GetPoint1Coordinate()->SetCoordinateSystemToNormalizedDisplay();
      rep->GetPoint2Coordinate()->SetCoordinateSystemToNormalizedDisplay();
      const double y = 0.20 + 0.11 * row;
      rep->GetPoint1Coordinate()->SetValue(0.66, y);
      rep->GetPoint2Coordinate()->SetValue(0.96, y);
      rep->SetSliderLength(0.03);
      rep->SetSliderWidth(0.03);
      rep->SetTubeWidth(0.008);
      rep->SetEndCapLength(0.01);
      rep->GetTitleProperty()->SetColor(0.08, 0.09, 0.12);
      rep->GetLabelProperty()->SetColor(0.08, 0.09, 0.12);
      auto w = vtkSmartPointer<vtkSliderWidget>::New();
      w->SetInteractor(interactor_);
      w->SetRepresentation(rep);
      w->SetAnimationModeToJump();
      vtkNew<vtkCallbackCommand> cb;
      cb->SetCallback(&Viewer::on_slider);
      cb->SetClientData(this);
      w->AddObserver(vtkCommand::InteractionEvent, cb);
      w->On();
      sliders_.push_back(w);
      slider_axes_.push_back(axis);
      ++row;
    }
    window_->Render();
  }

  Game& game_;
  ViewerConfig& cfg_;
  SceneOptions opts_;
  Position shown_;
  std::uint32_t ply_ = 0;
  SceneInfo info_;
  int engine_timer_ = -1;
  vtkNew<vtkRenderWindow> window_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkRenderWindowInteractor> interactor_;
  vtkNew<ViewerStyle> style_;
  std::vector<vtkSmartPointer<vtkSliderWidget>> sliders_;
  std::vector<int> slider_axes_;
};

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

int run_viewer(Game& game, ViewerConfig& config, std::ostream& err) {
  if (!have_display()) {
    err << "tanbo view: the window needs an X display and DISPLAY is not set (for pictures "
           "without a display: xvfb-run -a tanbo view ... --png FILE)\n";
    return 1;
  }
  Viewer viewer(game, config);
  return viewer.run();
}

}  // namespace tanbo::viz
