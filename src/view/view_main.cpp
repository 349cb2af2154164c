// tanbo-view: the VTK viewer's program (viz/). `tanbo view ARGS` runs it as `tanbo-view ARGS`
// (src/cli/cmd_view.cpp), so that the rest of tanbo does not load VTK.
#include <filesystem>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "tanbo/agent.hpp"
#include "tanbo/error.hpp"
#include "tanbo/gamefile.hpp"
#include "tanbo/random.hpp"
#include "tanbo/sgf.hpp"
#include "viewer.hpp"

namespace tanbo::cli {

namespace {

const char* kViewHelp =
    "usage: tanbo view [GAME] [--topology SPEC] [options]\n"
    "Shows a position in 3D with VTK: stones as spheres in their players' colours, empty points\n"
    "as small dots, each root's tree as tubes, the last move framed, axis labels in the board's\n"
    "notation. Boards of 4+ axes are shown as 3D cross-sections (--axes, --slice, sliders in the\n"
    "window, --multiples for every slice of a hidden axis side by side); hex boards flat; DOT\n"
    "boards at their `pos` attributes or a computed 3D layout.\n"
    "\n"
    "In the window: drag to rotate, wheel to zoom; click a point to play it for the side to\n"
    "move (engines given with --black/--white/... answer on their turn); GAME is saved after\n"
    "every move (a GAME that does not exist yet is created from --topology/--setup/--players).\n"
    "Keys: Left/Right previous/next move, Home/End first/last move, e empty points, r root\n"
    "space, n names, m small multiples, a next choice of axes, u take back, c reset camera,\n"
    "h help, q quit.\n"
    "\n"
    "With --png FILE it renders off screen and exits (needs an X display: on a server use\n"
    "xvfb-run -a tanbo view ...).\n"
    "\n"
    "examples:\n"
    "  tanbo view game.tanbo --white engine\n"
    "  tanbo view --topology \"grid 5x5x5\" --random 30 --png cube.png --size 800x600\n"
    "  tanbo view --topology \"grid 5x5x5x5\" --random 60 --axes x,y,w --slice z=3 --png 4d.png";

bool parse_size(const std::string& s, int& w, int& h) {
  const auto x = s.find_first_of("xX");
  if (x == std::string::npos) return false;
  try {
    std::size_t a = 0, b = 0;
    w = std::stoi(s.substr(0, x), &a);
    h = std::stoi(s.substr(x + 1), &b);
    return a == x && b == s.size() - x - 1 && w >= 16 && h >= 16 && w <= 8192 && h <= 8192;
  } catch (const std::exception&) {
    return false;
  }
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

}  // namespace

int view_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  BoardOptions board;
  board.topology.clear();
  std::string game_path, png, size = "1000x750", moves, axes, slice, multiples, engine;
  long move = -1;
  std::uint32_t random_moves = 0;
  std::vector<std::string> kinds(kMaxPlayers, "human");
  po::options_description desc("tanbo view options");
  desc.add_options()("game", po::value(&game_path), "game file to show and play (positional)");
  add_board_options(desc, board);
  desc.add_options()("png", po::value(&png), "render off screen into this PNG file and exit")(
      "size", po::value(&size)->default_value(size), "picture or window size WxH in pixels")(
      "move", po::value(&move), "show the position after this many moves (0 = the start)")(
      "moves", po::value(&moves), "moves to play first, e.g. \"125 255\" (without GAME)")(
      "random", po::value(&random_moves), "play this many random moves first (seeded by --seed)")(
      "axes", po::value(&axes), "boards of 4+ axes: the three axes drawn, e.g. x,y,w")(
      "slice", po::value(&slice), "boards of 4+ axes: values of hidden axes, e.g. z=3 or z=3,a5=1")(
      "multiples", po::value(&multiples)->implicit_value(""),
      "boards of 4+ axes: every slice of a hidden axis (default: the first) side by side")(
      "root-space", "show each root's root space")("no-empty", "hide the empty points")(
      "names", po::value<int>()->implicit_value(1), "label every point with its name (0 = off)")(
      "no-legend", "hide the legend")(
      "engine", po::value(&engine),
      "engine spec that \"engine\" stands for (default: the strongest available, mcts:time=2)");
  for (Player p = 1; p <= kMaxPlayers; ++p) {
    const std::string name(player_name(p));
    desc.add_options()(name.c_str(), po::value(&kinds[p - 1]),
                       p <= 2 ? "human (default), engine, or an engine spec: random, greedy, "
                                "mcts:playouts=N, mcts:time=S"
                              : "same, for a further player");
  }
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  int code = 0;
  if (!parse_args(args, desc, &positional, vm, kViewHelp, out, err, code)) return code;

  int width = 0, height = 0;
  if (!parse_size(size, width, height)) {
    err << "tanbo view: --size must be WIDTHxHEIGHT in pixels, 16 to 8192 each, e.g. 800x600\n";
    return 2;
  }
  try {
    // The game: a file, or a new position from the board options.
    std::unique_ptr<Game> game;
    std::string save_path;
    namespace fs = std::filesystem;
    if (!game_path.empty() && fs::exists(game_path)) {
      if (!board.topology.empty()) {
        err << "tanbo view: " << game_path << " already holds a game; --topology applies only "
            << "to a new one\n";
        return 2;
      }
      game = std::make_unique<Game>(load_game(game_path));
      // An SGF file is shown but never overwritten with the game format.
      if (is_sgf_text(read_text_file(game_path))) {
        err << "tanbo view: " << game_path << " is SGF: moves made in the window are not "
            << "saved (tanbo import makes a game file of it)\n";
      } else {
        save_path = game_path;
      }
    } else {
      if (!game_path.empty() && board.topology.empty()) {
        err << "tanbo view: no such game file \"" << game_path << "\" (give --topology to start "
            << "a new game in it)\n";
        return 2;
      }
      if (board.topology.empty()) board.topology = "grid 5x5x5";
      const int players = player_count(board.players);
      game = std::make_unique<Game>(
          new_game(board.topology, board.setup, players, player_names(board.players, players)));
      save_path = game_path;
    }
    Position& pos = game->position;
    if ((!moves.empty() || random_moves > 0) && !game_path.empty()) {
      err << "tanbo view: --moves and --random apply to a position from --topology; add moves "
             "to a game file with tanbo move or by clicking in the window\n";
      return 2;
    }
    for (const auto& m : split_moves(moves)) {
      for (std::string one : [&] {
             std::vector<std::string> parts;
             // "125,255" is a list unless commas are the board's own notation ("1,2,3,4").
             if (pos.topology().parse_vertex(m)) return std::vector<std::string>{m};
             std::stringstream ss(m);
             std::string part;
             while (std::getline(ss, part, ',')) parts.push_back(part);
             return parts;
           }()) {
        if (pos.is_over()) throw Error("the game is over before move " + one);
        pos.play_checked(pos.to_move(), pos.topology().need_vertex(one));
      }
    }
    Rng rng(board.seed);
    for (std::uint32_t i = 0; i < random_moves && !pos.is_over(); ++i)
      pos.play(random_move(pos, rng));

    viz::SceneOptions opts;
    const Topology& topo = pos.topology();
    const bool high = topo.kind == BoardKind::kLattice && topo.dimensions() > 3;
    if ((!axes.empty() || !slice.empty() || vm.count("multiples")) && !high) {
      throw Error("--axes, --slice and --multiples apply to boards of 4 or more axes; \"" +
                  topo.spec + "\" is drawn whole");
    }
    if (!axes.empty()) viz::parse_axes(axes, topo, opts.view);
    if (!slice.empty()) viz::parse_slices(slice, topo, opts.view);
    if (vm.count("multiples")) {
      viz::ViewSpec probe = opts.view;
      viz::normalise_view(topo, probe);
      const auto hidden = viz::hidden_axes(topo, probe);
      opts.view.multiples_axis =
          multiples.empty() ? hidden.front() : viz::parse_axis(multiples, topo.dimensions());
    }
    viz::normalise_view(topo, opts.view);
    opts.player_names = game->names;
    opts.show_root_space = vm.count("root-space") > 0;
    opts.show_empty = vm.count("no-empty") == 0;
    opts.show_legend = vm.count("no-legend") == 0;
    if (vm.count("names")) opts.show_names = vm["names"].as<int>() ? 1 : 0;
    if (move > static_cast<long>(pos.ply()) || move < -1) {
      throw Error("--move " + std::to_string(move) + ": the game has " + std::to_string(pos.ply()) +
                  " moves");
    }

    if (!png.empty()) {
      const Position shown =
          move >= 0 ? viz::position_at(pos, static_cast<std::uint32_t>(move)) : pos;
      viz::render_png(shown, opts, width, height, png);
      out << "wrote " << png << " (" << width << "x" << height << ", move " << shown.ply() << ")\n";
      return 0;
    }

    std::vector<std::unique_ptr<Agent> > engines;
    for (Player p = 1; p <= pos.num_players(); ++p) {
      const std::string& k = kinds[p - 1];
      engines.push_back(k == "human" ? nullptr : engine_for(k, engine, board.seed + p));
    }
    for (Player p = pos.num_players() + 1; p <= kMaxPlayers; ++p) {
      if (kinds[p - 1] != "human") {
        throw Error("--" + std::string(player_name(p)) + ": this game has only " +
                    std::to_string(pos.num_players()) + " players");
      }
    }
    if (!save_path.empty() && !fs::exists(save_path)) save_game(*game, save_path);
    viz::Session session(*game, save_path, std::move(engines));
    if (move >= 0) session.show(static_cast<std::uint32_t>(move));
    return viz::run_viewer(session, opts, width, height, err);
  } catch (const Error& e) {
    err << "tanbo view: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace tanbo::cli

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  // What escapes becomes a message and an exit code, never an abort (as in tanbo's run()).
  try {
    return tanbo::cli::view_command(args, std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    std::cerr << "tanbo view: out of memory (the board needs more memory than this process may "
                 "have; see --max-memory)\n";
  } catch (const std::exception& e) {
    std::cerr << "tanbo view: internal error: " << e.what() << "\n";
  }
  return 1;
}
