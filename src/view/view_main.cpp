// tanbo-view: the VTK viewer's program (src/viz/). `tanbo view ARGS` runs it as `tanbo-view ARGS`
// (src/cli/cmd_view.cpp), so that the rest of tanbo does not load VTK.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "layout.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/app/command.hpp"
#include "tanbo/app/options.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/platform/memory.hpp"
#include "viewer.hpp"

namespace tanbo::view {

using namespace tanbo::app;

namespace {

const char* kViewHelp =
    "usage: tanbo view [GAME] [--topology SPEC] [options]\n"
    "Shows a position in 3D with VTK: stones as shaded, outlined spheres in their players'\n"
    "colours, empty points as small dots, each root's tree as tubes, the last move framed, axis\n"
    "labels in the board's notation, a legend naming every mark. Boards of 4+ axes are shown as\n"
    "3D cross-sections (--axes, --slice, sliders in the window, --multiples for every slice of a\n"
    "hidden axis side by side); hex boards flat; DOT boards at their `pos` attributes or a\n"
    "computed 3D layout. --fade-front N draws the stones of the N front layers see-through.\n"
    "\n"
    "In the window: drag to rotate, wheel to zoom; click a point to play it for the side to\n"
    "move (engines given with --black/--white/... answer on their turn); GAME is saved after\n"
    "every move (a GAME that does not exist yet is created from --topology/--setup/--players).\n"
    "Keys: Left/Right previous/next move, Home/End first/last move, e empty points, r root\n"
    "space, n names, f see-through front layers, m small multiples, a next choice of axes,\n"
    "u take back, c reset camera, h help, q quit.\n"
    "\n"
    "With --png FILE it renders off screen and exits (needs an X display: on a server use\n"
    "xvfb-run -a tanbo view ...).\n"
    "\n"
    "examples:\n"
    "  tanbo view game.tanbo --white engine\n"
    "  tanbo view --topology \"grid 5x5x5\" --random 60 --fade-front 1 --png cube.png --size "
    "900x650\n"
    "  tanbo view --topology \"grid 5x5x5x5\" --random 60 --axes x,y,w --slice z=3 --png 4d.png";

bool parse_size(const std::string& s, int& w, int& h) {
  const auto x = s.find_first_of("xX");
  if (x == std::string::npos) return false;
  const auto a = parse_whole(s.substr(0, x), 8192), b = parse_whole(s.substr(x + 1), 8192);
  if (!a || !b || *a < 16 || *b < 16) return false;
  w = static_cast<int>(*a);
  h = static_cast<int>(*b);
  return true;
}

std::vector<std::string> split_moves(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == ';' || c == '\t') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// "engine" is --engine SPEC when given, else the first of mcts:time=2, greedy, random that
// make_agent accepts (as in tanbo play).
std::unique_ptr<Agent> engine_for(const std::string& spec, const std::string& engine,
                                  std::uint64_t seed) {
  if (spec == "engine" && !engine.empty()) return make_agent(engine, seed);
  if (spec != "engine") return make_agent(spec, seed);
  for (const char* s : {"mcts:time=2", "greedy", "random"}) {
    try {
      return make_agent(s, seed);
    } catch (const Error&) {
    }
  }
  return make_agent("random", seed);
}

// Everything on tanbo view's command line.
struct ViewArgs {
  BoardOptions board;
  std::string game_path, png, size = "1000x750", moves, axes, slice, multiples, engine;
  long move = -1;
  std::uint32_t random_moves = 0;
  int fade_front = 0;
  std::vector<std::string> kinds = std::vector<std::string>(kMaxPlayers, "human");
  po::variables_map vm;
  int width = 0, height = 0;
};

po::options_description view_options(ViewArgs& a) {
  a.board.topology.clear();
  po::options_description desc("tanbo view options");
  desc.add_options()("game", po::value(&a.game_path), "game file to show and play (positional)");
  add_board_options(desc, a.board);
  desc.add_options()("png", po::value(&a.png), "render off screen into this PNG file and exit")(
      "size", po::value(&a.size)->default_value(a.size), "picture or window size WxH in pixels")(
      "move", po::value(&a.move), "show the position after this many moves (0 = the start)")(
      "moves", po::value(&a.moves), "moves to play first, e.g. \"125 255\" (without GAME)")(
      "random", po::value(&a.random_moves), "play this many random moves first (seeded by --seed)")(
      "axes", po::value(&a.axes), "boards of 4+ axes: the three axes drawn, e.g. x,y,w")(
      "slice", po::value(&a.slice),
      "boards of 4+ axes: values of hidden axes, e.g. z=3 or z=3,a5=1")(
      "multiples", po::value(&a.multiples)->implicit_value(""),
      "boards of 4+ axes: every slice of a hidden axis (default: the first) side by side")(
      "root-space", "show each root's root space")("no-empty", "hide the empty points")(
      "names", po::value<int>()->implicit_value(1), "label every point with its name (0 = off)")(
      "no-legend", "hide the legend")(
      "fade-front", po::value(&a.fade_front)->implicit_value(1),
      "3D views: draw the stones of the N front layers see-through (N = 1 when not given)")(
      "engine", po::value(&a.engine),
      "engine spec that \"engine\" stands for (default: the strongest available, mcts:time=2)");
  for (Player p = 1; p <= kMaxPlayers; ++p) {
    const std::string name(player_name(p));
    desc.add_options()(name.c_str(), po::value(&a.kinds[p - 1]),
                       p <= 2 ? "human (default), engine, or an engine spec: random, greedy, "
                                "mcts:playouts=N, mcts:time=S"
                              : "same, for a further player");
  }
  return desc;
}

// The game: GAME when it exists (an SGF record is shown but never saved), else a new position
// from the board options, saved to GAME when given. Sets `save_path` ("" = never saved).
std::unique_ptr<Game> open_game(ViewArgs& a, std::string& save_path, std::ostream& err) {
  namespace fs = std::filesystem;
  if (!a.game_path.empty() && fs::exists(a.game_path)) {
    if (!a.board.topology.empty()) {
      throw Error(a.game_path + " already holds a game; --topology applies only to a new one");
    }
    auto game = std::make_unique<Game>(load_game(a.game_path));
    if (is_sgf_text(read_text_file(a.game_path))) {
      err << "tanbo view: " << a.game_path << " is SGF: moves made in the window are not "
          << "saved (tanbo import makes a game file of it)\n";
    } else {
      save_path = a.game_path;
    }
    return game;
  }
  if (!a.game_path.empty() && a.board.topology.empty()) {
    throw Error("no such game file \"" + a.game_path +
                "\" (give --topology to start a new game in it)");
  }
  if (a.board.topology.empty()) a.board.topology = "grid 5x5x5";
  const int players = player_count(a.board.players);
  save_path = a.game_path;
  return std::make_unique<Game>(
      new_game(a.board.topology, a.board.setup, players, player_names(a.board.players, players)));
}

// --moves, then --random, played on a position from --topology.
void play_given_moves(Position& pos, const ViewArgs& a) {
  if ((!a.moves.empty() || a.random_moves > 0) && !a.game_path.empty()) {
    throw Error(
        "--moves and --random apply to a position from --topology; add moves to a game file "
        "with tanbo move or by clicking in the window");
  }
  for (const auto& m : split_moves(a.moves)) {
    // "125,255" is a list unless commas are the board's own notation ("1,2,3,4").
    std::vector<std::string> parts;
    if (pos.topology().parse_vertex(m)) {
      parts.push_back(m);
    } else {
      std::stringstream ss(m);
      std::string part;
      while (std::getline(ss, part, ',')) parts.push_back(part);
    }
    for (const std::string& one : parts) {
      if (pos.is_over()) throw Error("the game is over before move " + one);
      pos.play_checked(pos.to_move(), pos.topology().need_vertex(one));
    }
  }
  Rng rng(a.board.seed);
  for (std::uint32_t i = 0; i < a.random_moves && !pos.is_over(); ++i)
    pos.play(random_move(pos, rng));
}

// What the picture shows, from the options (refusing views the board does not have).
viz::SceneOptions scene_options(const ViewArgs& a, const Game& game) {
  viz::SceneOptions opts;
  const Topology& topo = game.position.topology();
  const bool high = topo.kind == BoardKind::kLattice && topo.dimensions() > 3;
  if ((!a.axes.empty() || !a.slice.empty() || a.vm.count("multiples")) && !high) {
    throw Error("--axes, --slice and --multiples apply to boards of 4 or more axes; \"" +
                topo.spec + "\" is drawn whole");
  }
  if (!a.axes.empty()) viz::parse_axes(a.axes, topo, opts.view);
  if (!a.slice.empty()) viz::parse_slices(a.slice, topo, opts.view);
  if (a.vm.count("multiples")) {
    viz::ViewSpec probe = opts.view;
    viz::normalise_view(topo, probe);
    const auto hidden = viz::hidden_axes(topo, probe);
    opts.view.multiples_axis =
        a.multiples.empty() ? hidden.front() : viz::parse_axis(a.multiples, topo.dimensions());
  }
  viz::normalise_view(topo, opts.view);
  if (a.vm.count("fade-front")) {
    if (a.fade_front < 0 || a.fade_front > 1000) {
      throw Error("--fade-front takes a number of layers, 0 to 1000");
    }
    if (viz::compute_layout(topo, opts.view).space_dims <= 2) {
      throw Error("--fade-front applies to boards drawn in 3D; \"" + topo.spec + "\" is flat");
    }
    opts.fade_front = a.fade_front;
  }
  opts.player_names = game.names;
  opts.show_root_space = a.vm.count("root-space") > 0;
  opts.show_empty = a.vm.count("no-empty") == 0;
  opts.show_legend = a.vm.count("no-legend") == 0;
  if (a.vm.count("names")) {
    const int names = a.vm["names"].as<int>();
    if (names != 0 && names != 1) {
      throw Error("--names takes 1 (on, as --names alone) or 0 (off), not " +
                  std::to_string(names));
    }
    opts.show_names = names;
  }
  return opts;
}

// What VTK's scene takes a drawn point, above the board itself (the glyphs, tubes and labels,
// and the frame the camera is fitted to), and a pixel of the picture or window (the software
// renderer's buffers, the grabbed image): measured about 1 KB and 38 bytes, here with headroom.
constexpr std::uint64_t kSceneBytesPerPoint = 2048;
constexpr std::uint64_t kBytesPerPixel = 48;

// Refuses a board or a picture size the memory limit cannot draw: the limit lets tanbo play on
// a million points, whose scene takes gigabytes, and a picture of 8192x8192 takes 2.6 GB.
void check_scene_memory(const Topology& topo, const viz::SceneOptions& opts, const ViewArgs& a) {
  std::uint64_t drawn = topo.num_vertices();
  if (topo.kind == BoardKind::kLattice) {  // (a cross-section draws only its points)
    const viz::Layout layout = viz::compute_layout(topo, opts.view);
    drawn = static_cast<std::uint64_t>(std::count(layout.visible.begin(), layout.visible.end(), 1));
  }
  const std::uint64_t pixels = static_cast<std::uint64_t>(a.width) * a.height;
  const std::uint64_t need = drawn * kSceneBytesPerPoint + pixels * kBytesPerPixel;
  const MemoryLimit limit = memory_limit();
  if (need > limit.board_room()) {
    throw Error("drawing the " + std::to_string(drawn) + " points of \"" + topo.spec + "\" at " +
                std::to_string(a.width) + "x" + std::to_string(a.height) + " " +
                memory_refusal(need, limit) +
                " (a smaller --size, or --axes and --slice on 4+ axes, draw less)");
  }
}

int write_png(const Position& pos, const ViewArgs& a, const viz::SceneOptions& opts,
              std::ostream& out) {
  const Position shown = a.move >= 0 ? position_at(pos, static_cast<std::uint32_t>(a.move)) : pos;
  viz::render_png(shown, opts, a.width, a.height, a.png);
  out << "wrote " << a.png << " (" << a.width << "x" << a.height << ", move " << shown.ply()
      << ")\n";
  return 0;
}

// The window on the game, with an engine for every seat that is not a person.
int open_window(Game& game, const std::string& save_path, const ViewArgs& a,
                const viz::SceneOptions& opts, std::ostream& err) {
  const Position& pos = game.position;
  for (Player p = pos.num_players() + 1; p <= kMaxPlayers; ++p) {
    if (a.kinds[p - 1] != "human") {
      throw Error("--" + std::string(player_name(p)) + ": this game has only " +
                  std::to_string(pos.num_players()) + " players");
    }
  }
  // Before anything is saved: a window that cannot open leaves no new game file behind.
  viz::require_window_display();
  std::vector<Seat> seats(static_cast<std::size_t>(pos.num_players()));
  for (Player p = 1; p <= pos.num_players(); ++p) {
    const std::string& k = a.kinds[p - 1];
    if (k == "human") continue;
    seats[p - 1].agent = engine_for(k, a.engine, a.board.seed + p);
    seats[p - 1].spec = seats[p - 1].agent->spec();
  }
  if (!save_path.empty() && !std::filesystem::exists(save_path)) save_game(game, save_path);
  Session session(std::move(game), std::move(seats), save_path);
  if (a.move >= 0) session.show(static_cast<std::uint32_t>(a.move));
  return viz::run_viewer(session, opts, a.width, a.height, err);
}

}  // namespace

int view_command(const std::vector<std::string>& args, std::istream&, std::ostream& out,
                 std::ostream& err) {
  ViewArgs a;
  const po::options_description desc = view_options(a);
  po::positional_options_description positional;
  positional.add("game", 1);
  if (const auto stop = parse_args(args, desc, &positional, a.vm, kViewHelp, out, err))
    return *stop;
  if (!parse_size(a.size, a.width, a.height)) {
    err << "tanbo view: --size must be WIDTHxHEIGHT in pixels, 16 to 8192 each, e.g. 800x600\n";
    return 2;
  }
  // -1 is the value that stands for "not given": a --move -1 given is refused, not the end.
  if (a.vm.count("move") && a.move < 0) {
    throw Error("--move " + std::to_string(a.move) + ": give 0 (the start) or a later move");
  }
  refuse_empty_names(a.vm, {{"png", "--png FILE"}, {"game", "GAME"}, {"engine", "--engine SPEC"}});
  if (!a.png.empty()) {
    // The picture may not replace what the command reads: the game file or the DOT board.
    std::vector<std::string> inputs{a.game_path};
    if (is_file_spec(a.board.topology)) inputs.push_back(trim(a.board.topology.substr(4)));
    check_not_an_input(a.png, inputs, "--png");
  }
  std::string save_path;
  const std::unique_ptr<Game> game = open_game(a, save_path, err);
  const viz::SceneOptions opts = scene_options(a, *game);
  check_scene_memory(game->position.topology(), opts, a);  // before moves that take a while
  play_given_moves(game->position, a);
  if (a.move > static_cast<long>(game->position.ply()) || a.move < -1) {
    throw Error("--move " + std::to_string(a.move) + ": the game has " +
                std::to_string(game->position.ply()) + " moves");
  }
  if (!a.png.empty()) return write_png(game->position, a, opts, out);
  return open_window(*game, save_path, a, opts, err);
}

}  // namespace tanbo::view

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Errors become messages and exit codes in the same place as for tanbo's subcommands.
  static const tanbo::app::Command view{"view", "", tanbo::view::view_command, 2};
  // (a picture's line that cannot be written, > /dev/full, is a failure as in tanbo itself)
  return tanbo::app::checked_output(
      "view", tanbo::app::run_subcommand(view, args, std::cin, std::cout, std::cerr));
}
