// The `tanbo` Python module (pybind11): the rules engine, game files, the random playouts and
// the search, for experiments from Python (docs/python.md). A front end like the others: it
// only calls the library.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/playout.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/sgf.hpp"

namespace py = pybind11;

namespace tanbo::python {

namespace {

// A game as Python sees it: a tanbo::Game and the operations of docs/python.md.
class PyGame {
 public:
  // None for setup or players means the default; "" and 0, which the library reads as the
  // default too, are refused here as the values they are.
  PyGame(const std::string& topology, const std::optional<std::string>& setup,
         std::optional<int> players)
      : game_(new_game(topology, checked_setup(setup), checked_players(players), {})) {}
  explicit PyGame(Game game) : game_(std::move(game)) {}

  const Game& game() const { return game_; }
  const Position& pos() const { return game_.position; }
  const Topology& topo() const { return game_.position.topology(); }

  // ---- the board
  std::vector<std::string> vertices() const {
    std::vector<std::string> names;
    names.reserve(topo().num_vertices());
    for (Vertex v = 0; v < topo().num_vertices(); ++v) names.push_back(topo().name(v));
    return names;
  }
  std::vector<std::string> neighbours(const std::string& name) const {
    std::vector<std::string> out;
    for (Vertex u : topo().graph.neighbours(topo().need_vertex(name)))
      out.push_back(topo().name(u));
    return out;
  }
  std::string spec() const { return topo().spec; }
  int num_players() const { return pos().num_players(); }

  // ---- the turn
  int to_move() const { return pos().to_move(); }
  std::optional<int> winner() const {
    if (!pos().is_over()) return std::nullopt;
    return pos().winner();
  }
  bool is_over() const { return pos().is_over(); }
  std::uint32_t ply() const { return pos().ply(); }

  // ---- moves
  std::vector<std::string> legal_moves() const { return names_of(legal_move_ids()); }
  std::vector<Vertex> legal_move_ids() const {
    if (pos().is_over()) return {};
    return pos().legal_moves(pos().to_move());
  }
  void play(const std::string& name) { play_id(topo().need_vertex(name)); }
  void play_id(std::int64_t id) {
    if (id < 0 || id >= static_cast<std::int64_t>(topo().num_vertices())) {
      throw Error("move id " + std::to_string(id) + " is not a point of this board (0 to " +
                  std::to_string(topo().num_vertices() - 1) + ")");
    }
    if (pos().is_over()) throw Error("the game is over: " + result_text(game_));
    const auto v = static_cast<Vertex>(id);
    const Player p = pos().to_move();
    const std::string why = pos().explain(p, v);
    if (!why.empty()) {
      throw Error("illegal move " + topo().name(v) + " for " + player_title(p) + ": " + why);
    }
    game_.position.play(v);
  }
  void resign(std::optional<int> player) {
    const int p = player.value_or(pos().to_move());
    if (p < 1 || p > pos().num_players()) {
      throw Error("player " + std::to_string(p) + " is not a player of this game");
    }
    game_.position.resign(static_cast<Player>(p));
  }
  void undo() {
    if (pos().ply() == 0) throw Error("no move to take back: the game is at its start");
    game_.position.undo();
  }
  std::vector<std::string> moves() const {
    std::vector<std::string> out;
    for (const auto& rec : pos().history()) {
      out.push_back(rec.kind == MoveRecord::Kind::kResign ? "resign " + player_text(rec.player)
                                                          : topo().name(rec.vertex));
    }
    return out;
  }

  // ---- stones and roots
  std::vector<std::string> stones(int player) const {
    check_player(player);
    std::vector<std::string> out;
    for (Vertex v = 0; v < topo().num_vertices(); ++v) {
      if (pos().at(v) == player) out.push_back(topo().name(v));
    }
    return out;
  }
  // One pass over the points and one over each player's legal moves (not a scan of the legal
  // moves for every root, which took seconds on big boards).
  py::list roots(py::object root_type) const {
    std::vector<std::vector<Vertex>> stones(pos().num_root_ids()), space(pos().num_root_ids());
    for (Vertex v = 0; v < topo().num_vertices(); ++v) {
      if (const RootId r = pos().root_of(v); r != kNoRoot) stones[r].push_back(v);
    }
    for (Player p = 1; p <= pos().num_players(); ++p) {
      if (pos().roots_alive(p) == 0) continue;
      for (Vertex u : pos().legal_moves(p)) {  // in vertex order, so each space is sorted
        space[pos().joined_root(p, u)].push_back(u);
      }
    }
    py::list out;
    for (RootId r : pos().live_roots()) {
      out.append(root_type(static_cast<int>(pos().root_owner(r)), names_of(stones[r]),
                           names_of(space[r])));
    }
    return out;
  }

  // Planes of 0/1: plane 0 the empty points, plane p player p's stones; by vertex, or by the
  // lattice's shape with the last axis first (numpy's C order: [plane, ..., z, y, x]).
  py::array_t<float> observation() const {
    const std::uint32_t n = topo().num_vertices();
    const auto planes = static_cast<py::ssize_t>(pos().num_players() + 1);
    std::vector<py::ssize_t> shape{planes};
    if (topo().kind == BoardKind::kLattice) {
      for (std::size_t i = topo().dims.size(); i-- > 0;) shape.push_back(topo().dims[i]);
    } else {
      shape.push_back(n);
    }
    py::array_t<float> out(shape);
    float* data = out.mutable_data();
    std::fill(data, data + static_cast<std::size_t>(planes) * n, 0.0f);
    for (Vertex v = 0; v < n; ++v) data[static_cast<std::size_t>(pos().at(v)) * n + v] = 1.0f;
    return out;
  }

  // ---- files
  void save(const std::string& path) const {
    write_file_atomic(path, write_game_as(game_, path, true));
  }
  std::string to_sgf() const { return write_sgf(game_); }
  std::string to_text() const { return write_game(game_); }

  std::string repr() const {
    return "<tanbo.Game " + spec() + ", move " + std::to_string(pos().ply()) + ", " +
           (pos().is_over() ? player_title(pos().winner()) + " won"
                            : player_title(pos().to_move()) + " to play") +
           ">";
  }

  Game& mutable_game() { return game_; }

 private:
  std::vector<std::string> names_of(const std::vector<Vertex>& vs) const {
    std::vector<std::string> out;
    out.reserve(vs.size());
    for (Vertex v : vs) out.push_back(topo().name(v));
    return out;
  }
  void check_player(int player) const {
    if (player < 1 || player > pos().num_players()) {
      throw Error("player " + std::to_string(player) + " is not a player of this " +
                  std::to_string(pos().num_players()) + "-player game");
    }
  }
  static std::string player_text(Player p) { return std::string(player_name(p)); }
  static std::string checked_setup(const std::optional<std::string>& setup) {
    if (setup && setup->empty()) {
      throw Error("setup \"\" is not a setup: give its name, or None for the board's default");
    }
    return setup.value_or("default");
  }
  static int checked_players(std::optional<int> players) {
    if (players && (*players < 2 || *players > kMaxPlayers)) {
      throw Error("a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " +
                  std::to_string(*players) + " (None: the setup's number)");
    }
    return players.value_or(0);
  }

  Game game_;
};

// The position a search works on: a copy taken while the GIL is held. The search then releases
// the GIL and reads only its copy, so another Python thread may play or undo on the game
// meanwhile (docs/python.md, "Threads"). The copy is small against any search: on 1000x1000,
// 50 moves in, 30 ms against 2.5 s for one random playout and 17 s for mcts(playouts=1).
Position searched_copy(const PyGame& g) {
  return g.pos();
}

// A `seconds` argument as the library takes it: 0 means no time limit, and so do infinity and
// values of kNoLimitSeconds or more (over 31 years; the clock cannot reach beyond about 292
// years). Negative and NaN are refused.
constexpr double kNoLimitSeconds = 1e9;
double time_limit(double seconds, const char* name) {
  if (std::isnan(seconds)) {
    throw Error(std::string(name) + " is NaN: give a number of seconds, 0 or more (0 or inf: no " +
                "time limit)");
  }
  if (seconds < 0) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    throw Error(std::string(name) + " must be 0 or more (0 or inf: no time limit), not " + text);
  }
  return seconds >= kNoLimitSeconds ? 0.0 : seconds;
}

// Plays `n` uniformly random games from the game's position; wins by player (index 0 is
// player 1). Runs without the GIL, on a copy taken while the GIL is held (see searched_copy).
std::vector<std::uint64_t> random_playouts(const PyGame& g, std::uint64_t n, std::uint64_t seed) {
  Position base = searched_copy(g);
  std::vector<std::uint64_t> wins(static_cast<std::size_t>(base.num_players()), 0);
  if (base.is_over()) {
    wins[base.winner() - 1] = n;
    return wins;
  }
  base.set_recording(false);  // playouts need no undo
  py::gil_scoped_release release;
  Rng rng(seed);
  Position pos = base;
  for (std::uint64_t i = 0; i < n; ++i) {
    pos = base;
    random_playout(pos, rng);
    ++wins[pos.winner() - 1];
  }
  return wins;
}

// One search of the engine from the game's position: the move it chooses and what the search
// did. Runs without the GIL.
py::dict mcts_search(const PyGame& g, std::uint64_t playouts, double seconds, int threads,
                     std::uint64_t seed) {
  if (g.pos().is_over()) throw Error("the game is over: " + result_text(g.game()));
  if (threads < 1 || threads > 256) throw Error("threads must be from 1 to 256");
  MctsConfig config;
  config.playouts = playouts;
  config.time = time_limit(seconds, "seconds");
  config.threads = threads;
  const Position pos = searched_copy(g);
  std::vector<MoveAnalysis> lines;
  SearchStats stats;
  {
    py::gil_scoped_release release;
    Mcts search(config, seed);
    lines = search.analyze(pos);
    stats = search.last_stats();
  }
  if (lines.empty()) throw Error("the search found no move");
  // The analysis in the form of GTP tanbo-analyze: "move V visits N winrate W [proven] pv ...".
  std::vector<std::string> analysis;
  for (const MoveAnalysis& a : lines) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.4f", a.winrate);
    std::string line = "move " + pos.topology().name(a.move) + " visits " +
                       std::to_string(a.visits) + " winrate " + rate + (a.proven ? " proven" : "") +
                       " pv";
    for (Vertex v : a.pv) line += " " + pos.topology().name(v);
    analysis.push_back(std::move(line));
  }
  py::dict out;
  out["move"] = pos.topology().name(lines.front().move);
  out["analysis"] = analysis;
  out["winrate"] = stats.best_value;
  out["visits"] = stats.best_visits;
  out["playouts"] = stats.playouts;
  out["seconds"] = stats.seconds;
  return out;
}

// The exact solver (two players): the winner with perfect play, a best move, the winning
// moves found. Runs without the GIL.
py::dict solve(const PyGame& g, double seconds, int threads) {
  if (threads < 1 || threads > 256) throw Error("threads must be from 1 to 256");
  SolveLimits limits;
  limits.seconds = time_limit(seconds, "seconds");
  const Position pos = searched_copy(g);
  SolveResult r;
  {
    py::gil_scoped_release release;
    SolverOptions options;
    options.threads = threads;
    options.all_moves = true;
    Solver solver(options);
    r = solver.solve(pos, limits);
  }
  py::dict out;
  out["solved"] = r.solved;
  out["winner"] = r.solved ? py::cast(static_cast<int>(r.winner)) : py::none();
  out["move"] = r.best == kNoVertex ? py::none() : py::cast(pos.topology().name(r.best));
  std::vector<std::string> wins;
  for (Vertex v : r.winning_moves) wins.push_back(pos.topology().name(v));
  out["winning_moves"] = wins;
  out["nodes"] = r.nodes;
  out["seconds"] = r.seconds;
  return out;
}

}  // namespace

PYBIND11_MODULE(tanbo, m) {
  m.doc() =
      "Tanbo on any board that is a graph: the rules engine, game files, random playouts and "
      "the Monte Carlo search of the tanbo program (docs/python.md).";
  // tanbo::Error is bad input: ValueError, with the message the command line gives.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  py::object namedtuple = py::module_::import("collections").attr("namedtuple");
  // module="tanbo": pickle finds the type as tanbo.Root.
  py::object root_type = namedtuple("Root", "player stones space", py::arg("module") = "tanbo");
  root_type.attr("__doc__") =
      "A root: its player (1-based), its stones and its root space (point names).";
  m.attr("Root") = root_type;

  py::class_<PyGame>(m, "Game", "A game of Tanbo: the board, the position and its history.")
      .def(py::init<const std::string&, const std::optional<std::string>&, std::optional<int>>(),
           py::arg("topology") = "grid 19x19", py::arg("setup") = py::none(),
           py::arg("players") = py::none(),
           "A new game at its start: any topology spec of the command line ('grid 9x9', "
           "'hex 5', 'line 31', 'file board.dot'), a named setup (None: the board's default) "
           "and the number of players (None: the setup's). Raises ValueError when refused.")
      .def_property_readonly("topology", &PyGame::spec, "the board's canonical spec")
      .def_property_readonly("players", &PyGame::num_players, "the number of players")
      .def_property_readonly("vertices", &PyGame::vertices, "point names, in vertex order")
      .def("neighbours", &PyGame::neighbours, py::arg("name"), "the neighbours of a point")
      .def_property_readonly("to_move", &PyGame::to_move,
                             "the side to move, 1-based (0 once the game is over)")
      .def_property_readonly("winner", &PyGame::winner, "the winner, or None while playing")
      .def_property_readonly("is_over", &PyGame::is_over, "whether one player is left")
      .def_property_readonly("ply", &PyGame::ply, "turns played")
      .def("legal_moves", &PyGame::legal_moves, "the side to move's legal points, by vertex")
      .def("legal_move_ids", &PyGame::legal_move_ids, "the same as vertex ids (integers)")
      .def("play", &PyGame::play, py::arg("name"),
           "plays a point for the side to move; an illegal move raises ValueError with the "
           "reason and changes nothing")
      .def("play_id", &PyGame::play_id, py::arg("id"), "plays a point given by its vertex id")
      .def("resign", &PyGame::resign, py::arg("player") = py::none(),
           "a player (default: the side to move) resigns")
      .def("undo", &PyGame::undo, "takes back the last turn")
      .def("moves", &PyGame::moves,
           "the game so far: point names, 'resign COLOUR' for a resignation")
      .def("stones", &PyGame::stones, py::arg("player"), "a player's stones (point names)")
      .def(
          "roots", [root_type](const PyGame& g) { return g.roots(root_type); },
          "every root on the board as Root(player, stones, space)")
      .def("observation", &PyGame::observation,
           "a float32 array of players + 1 planes (0: empty points, p: player p's stones), "
           "each by vertex, or by the lattice's shape as [..., z, y, x]")
      .def(
          "copy", [](const PyGame& g) { return PyGame(g.game()); }, "an independent copy")
      .def("__copy__", [](const PyGame& g) { return PyGame(g.game()); })
      .def("__deepcopy__", [](const PyGame& g, py::dict) { return PyGame(g.game()); })
      .def("save", &PyGame::save, py::arg("path"),
           "writes the game file (SGF when the name ends in .sgf), atomically and locked")
      .def("to_sgf", &PyGame::to_sgf, "the game as SGF (2D boards, two players)")
      .def("to_text", &PyGame::to_text, "the game in the game-file format")
      .def("__repr__", &PyGame::repr);

  m.def(
      "load", [](const std::string& path) { return PyGame(load_game(path)); }, py::arg("path"),
      "reads a game file or SGF record (replayed through the rules)");
  m.def("random_playouts", &random_playouts, py::arg("game"), py::arg("n"), py::arg("seed") = 1,
        "plays n uniformly random games from the game's position in C++; returns the wins by "
        "player as a list (index 0: player 1)");
  m.def("mcts", &mcts_search, py::arg("game"), py::arg("playouts") = 1000, py::arg("seconds") = 0.0,
        py::arg("threads") = 1, py::arg("seed") = 1,
        "one Monte Carlo tree search from the game's position (seconds: 0 or inf for no time "
        "limit): a dict with the move, its win rate and visits, playouts, seconds, and the "
        "analysis lines of GTP tanbo-analyze ('move V visits N winrate W [proven] pv ...', best "
        "first)");
  m.def("solve", &solve, py::arg("game"), py::arg("seconds") = 0.0, py::arg("threads") = 1,
        "the exact solver (two players; seconds: 0 or inf for no time limit): a dict with "
        "solved, winner (player number, None when a limit stopped it), move (a best move), "
        "winning_moves, nodes and seconds");
}

}  // namespace tanbo::python
