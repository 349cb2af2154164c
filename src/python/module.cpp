// The `tanbo` Python module (pybind11): the rules engine, game files, the random playouts and
// the search, for experiments from Python (docs/python.md). A front end like the others: it
// only calls the library.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "fast.hpp"
#include "game.hpp"
#include "search.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo::python {

namespace {

// A file's path as Python gives it: str, bytes or os.PathLike (pathlib.Path), as the bytes the
// file system sees (os.fsencode); anything else raises TypeError saying so.
std::string file_path(const py::object& path) {
  return py::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

// The refusals of an integer argument too big for C++ (int_argument), by what it stands for.
auto player_refusal(const PyGame& g) {
  return [&g](const std::string& text) { return g.not_a_player(text); };
}
auto player_index_refusal(const PyGame& g) {
  return [&g](const std::string& text) { return g.not_a_player_index(text); };
}
auto player_id_refusal(const PyGame& g) {  // a player or one of OpenSpiel's special ids
  return [&g](const std::string& text) { return g.not_a_player_id(text); };
}
auto point_id_refusal(const PyGame& g) {
  return [&g](const std::string& text) { return g.not_a_point_id(text); };
}

// Observations of many games at once, in one array: [game, plane, ...] (observation_tensor).
// The games must share the board and the number of players. `games` is any iterable (a list, a
// tuple, a generator): its games are held here until the array is written, since a sequence may
// make each one as it is read and free it after (pybind11's list of pointers then pointed at
// freed games: a segmentation fault).
py::array_t<float> observation_tensors(const py::iterable& batch, const py::object& player_arg) {
  std::vector<py::object> held;
  std::vector<const PyGame*> games;
  for (py::handle item : batch) {
    if (!py::isinstance<PyGame>(item)) {
      throw py::type_error("observation_tensors: game " + std::to_string(games.size()) + " is " +
                           (item.is_none() ? std::string("None")
                                           : "a " + std::string(Py_TYPE(item.ptr())->tp_name)) +
                           ", not a tanbo.Game");
    }
    held.push_back(py::reinterpret_borrow<py::object>(item));
    games.push_back(&item.cast<const PyGame&>());
  }
  if (games.empty()) throw Error("observation_tensors needs at least one game");
  const PyGame& first = *games.front();
  const std::optional<int> player = int_argument(player_arg, player_index_refusal(first));
  std::vector<py::ssize_t> shape = first.planes_shape(first.num_players() + 2);
  shape.insert(shape.begin(), static_cast<py::ssize_t>(games.size()));
  py::array_t<float> out(shape);
  const std::size_t size =
      static_cast<std::size_t>(first.num_players() + 2) * first.pos().num_vertices();
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (!games[i]->same_board(first) || games[i]->num_players() != first.num_players()) {
      // Two DOT boards of one file name have the same spec: their point counts are shown.
      const bool namesake = games[i]->spec() == first.spec() && !games[i]->same_board(first);
      const auto board = [namesake](const PyGame& g) {
        return g.spec() + ", " +
               (namesake ? std::to_string(g.pos().num_vertices()) + " points, " : "") +
               std::to_string(g.num_players()) + " players";
      };
      throw Error("game " + std::to_string(i) + " (" + board(*games[i]) +
                  ") is not on the board of game 0 (" + board(first) + ")" +
                  (namesake ? ": another board of the same name" : ""));
    }
    games[i]->write_observation(player, out.mutable_data() + i * size);
  }
  return out;
}

// A method of PyGame taking an optional player from 0 (None: the side to move), as Python calls
// it: the player read by int_argument.
template <class Result>
auto with_optional_player(Result (PyGame::*method)(std::optional<int>) const) {
  return [method](const PyGame& g, const py::object& player) {
    return (g.*method)(int_argument(player, player_index_refusal(g)));
  };
}

PyGame deserialize(const std::string& text) {
  return PyGame(read_game(text, "text"));
}
// loads(text), Game.deserialize(text): the text as text_argument reads it.
PyGame deserialize_text(const py::object& text) {
  return deserialize(text_argument(text, "text"));
}

// `copy`, a copy of the game `self`, as an object of self's class. A subclass of Game (an
// OpenSpiel-style state of one's own, with attributes) gets an object of its class with its
// attributes, as copy.copy and copy.deepcopy (with `memo`) give any Python object: the copies
// were plain tanbo.Game objects without them. A Game itself takes no Python code.
py::object copy_as(const py::handle& self, PyGame copy, const py::object& memo = py::none()) {
  if (Py_TYPE(self.ptr()) == reinterpret_cast<PyTypeObject*>(py::type::of<PyGame>().ptr())) {
    return py::cast(std::move(copy));
  }
  return py::module_::import("tanbo").attr("_subclass_copy")(self, py::cast(std::move(copy)), memo);
}

// The methods of OpenSpiel's State, in its spelling and meaning (players from 0, actions are
// vertex ids), with value equality, hashing and pickling of positions. `player_action_type` and
// `resignation_type` are the named tuples of full_history() and resignations().
void add_openspiel(py::class_<PyGame>& game, const py::object& player_action_type,
                   const py::object& resignation_type) {
  // returns()[player]: the rewards are the returns (given only at the end).
  const auto player_return = [](const PyGame& g, const py::object& player) {
    return g.player_return(required_int_argument(player, player_index_refusal(g)));
  };
  game.def("current_player", &PyGame::current_player,
           "the side to move, 0-based; tanbo.TERMINAL (-4) once the game is over")
      .def(
          "is_chance_node", [](const PyGame&) { return false; }, "always False (no chance)")
      .def(
          "is_simultaneous_node", [](const PyGame&) { return false; },
          "always False (one player moves at a time)")
      .def(
          "is_mean_field_node", [](const PyGame&) { return false; },
          "always False (not a mean field game)")
      .def(
          "is_player_node", [](const PyGame& g) { return g.current_player() >= 0; },
          "whether a player is to move (current_player() >= 0): True until the game is over")
      .def("returns", &PyGame::returns,
           "+1 for the winner, -1/(players-1) for each other player (zero-sum), 0 for all while "
           "playing")
      .def("rewards", &PyGame::returns, "the returns (given only at the end)")
      .def("player_return", player_return, py::arg("player"), "returns()[player], player from 0")
      .def("player_reward", player_return, py::arg("player"), "rewards()[player], player from 0")
      .def(
          "legal_actions_mask",
          [](const PyGame& g, const py::object& player) {
            return g.legal_actions_mask(int_argument(player, player_id_refusal(g)));
          },
          py::arg("player") = py::none(),
          "a NumPy bool array by vertex id: True on the legal points (all False for any "
          "player but the side to move, OpenSpiel's special ids -1 to -5 included)")
      .def(
          "action_to_string",
          [](const PyGame& g, const py::object& a) {
            return g.action_to_string(std::nullopt, required_int_argument(a, point_id_refusal(g)));
          },
          py::arg("action"), "a point's name")
      .def(
          "action_to_string",
          [](const PyGame& g, const py::object& player, const py::object& a) {
            const int p = required_int_argument(player, player_id_refusal(g));
            return g.action_to_string(p, required_int_argument(a, point_id_refusal(g)));
          },
          py::arg("player"), py::arg("action"),
          "a point's name; player as legal_actions takes it (0 to players-1, or -1 to -5)")
      .def(
          "string_to_action",
          [](const PyGame& g, const std::string& name) {
            return g.string_to_action(std::nullopt, name);
          },
          py::arg("name"),
          "the vertex id of a legal move of the side to move, from its name (any case, spaces "
          "around ignored); ValueError naming the point and why when it is not a legal move")
      .def(
          "string_to_action",
          [](const PyGame& g, const py::object& player, const std::string& name) {
            return g.string_to_action(required_int_argument(player, player_id_refusal(g)), name);
          },
          py::arg("player"), py::arg("name"),
          "the same, player as legal_actions takes it (matched against the side to move's "
          "legal moves, as OpenSpiel does)")
      .def(
          "num_distinct_actions", [](const PyGame& g) { return g.pos().num_vertices(); },
          "the number of points (actions are 0 to this - 1)")
      .def("max_game_length", &PyGame::max_game_length,
           "a proven bound on the turns of a game of this board and setup: roots x points")
      .def("num_players", &PyGame::num_players, "the number of players")
      .def(
          "clone",
          [](const py::object& self) {
            return copy_as(self, PyGame(self.cast<const PyGame&>().game()));
          },
          "an independent copy (of the game's class)")
      .def(
          "child",
          [](const py::object& self, const py::object& action) {
            const PyGame& g = self.cast<const PyGame&>();
            PyGame child(g.game());
            child.play_id(required_int_argument(action, point_id_refusal(g)));
            return copy_as(self, std::move(child));
          },
          py::arg("action"),
          "a copy with the action applied (ValueError when illegal; the game is unchanged)")
      .def(
          "undo_action",
          [](PyGame& g, const py::object& player, const py::object& action) {
            g.undo_action(required_int_argument(player, player_index_refusal(g)),
                          required_int_argument(action, point_id_refusal(g)));
          },
          py::arg("player"), py::arg("action"),
          "takes back the last move, which must be `action` played by `player` (from 0); "
          "ValueError otherwise (a resignation too: undo() takes that back)")
      .def("history", &PyGame::history_ids,
           "the moves played as vertex ids, as applied by apply_action (resignations are not "
           "actions: resignations())")
      .def(
          "full_history",
          [player_action_type](const PyGame& g) { return g.full_history(player_action_type); },
          "the moves played as tanbo.PlayerAction(player, action), player from 0")
      .def(
          "resignations",
          [resignation_type](const PyGame& g) { return g.resignations(resignation_type); },
          "the resignations as tanbo.Resignation(player, move_number), player from 0, "
          "move_number the moves of history() played before it")
      .def("history_str", &PyGame::history_str, "history()'s ids joined by ', '")
      .def("move_number", &PyGame::move_number,
           "the moves played, len(history()) (ply also counts resignations)")
      .def("is_initial_state", &PyGame::is_initial_state,
           "whether no turn was taken yet (no move, no resignation)")
      .def("to_string", &PyGame::to_string,
           "the position as text: the board's spec, the board drawn as tanbo show draws it, "
           "whose turn or who won; equal exactly for equal positions (==)")
      .def("__str__", &PyGame::str)
      .def("observation_string", with_optional_player(&PyGame::observation_string),
           py::arg("player") = py::none(),
           "to_string() for any player (perfect information); player from 0")
      .def("information_state_string", with_optional_player(&PyGame::information_state_string),
           py::arg("player") = py::none(),
           "history_str() for any player (perfect information), with 'resign P' in place of "
           "each resignation; player from 0")
      .def("serialize", &PyGame::to_text, "the game as game-file text (Game.deserialize)")
      .def_static("deserialize", &deserialize_text, py::arg("text"),
                  "a game from serialize()'s text, replayed through the rules")
      .def("observation_tensor", with_optional_player(&PyGame::observation_tensor),
           py::arg("player") = py::none(),
           "float32 planes from a player's view (None: the side to move): its stones, the "
           "others' in seat order after it (player+1, player+2, ... mod players; a player out "
           "keeps its empty plane), the empty points, ones when it is to move")
      .def(
          "__eq__", [](const PyGame& a, const PyGame& b) { return a.same_position(b); },
          py::is_operator())
      .def("__hash__", &PyGame::position_hash)
      // __setstate__ makes a game in place from its text (pickles of earlier versions), or from
      // another game (tanbo._subclass_copy, which makes the copies of a subclass).
      .def(py::pickle([](const PyGame& g) -> py::object { return py::str(g.to_text()); },
                      [](const py::object& state) {
                        if (py::isinstance<PyGame>(state)) {
                          return PyGame(state.cast<const PyGame&>().game());
                        }
                        if (!py::isinstance<py::str>(state) && !py::isinstance<py::bytes>(state)) {
                          throw py::type_error(
                              "Game.__setstate__ takes the text of Game.serialize(), not " +
                              std::string(Py_TYPE(state.ptr())->tp_name));
                        }
                        return deserialize(text_argument(state, "the state"));
                      }))
      // Every protocol, 0 and 1 too: their default makes the object through object.__new__,
      // which a pybind11 class refuses (the process aborted). A subclass's pickle names its
      // class and carries its attributes (tanbo._game_from_text), as copy_as's copies.
      .def("__reduce_ex__", [](const py::object& self, int) {
        const py::object from_text = py::module_::import("tanbo").attr("_game_from_text");
        const std::string text = self.cast<const PyGame&>().to_text();
        if (Py_TYPE(self.ptr()) == reinterpret_cast<PyTypeObject*>(py::type::of<PyGame>().ptr())) {
          return py::make_tuple(from_text, py::make_tuple(text));
        }
        return py::make_tuple(from_text, py::make_tuple(text, py::type::of(self)),
                              py::getattr(self, "__dict__", py::none()));
      });
  add_fast_methods(game);  // is_terminal, legal_actions, apply_action
}

}  // namespace

PYBIND11_MODULE(_tanbo, m) {
  // pybind11 looks NumPy's C API up the first time an array is made, in a function-local
  // static whose initialisation imports NumPy; an import lets other Python threads run, and a
  // second thread reaching the same static blocks on it while holding the GIL, so that two
  // threads making their first arrays at once (random_playouts, mcts, observation_tensor)
  // hung for ever. Making one array here does the lookup while the module is imported. Without
  // NumPy the module still imports, and the calls that make arrays raise its ImportError.
  try {
    py::array_t<float>(0);
  } catch (py::error_already_set&) {
  }
  // Python has no --max-memory: a refusal names the variable, which is read at each build.
  set_memory_advice("os.environ['TANBO_MAX_MEMORY'] = SIZE (e.g. '8G')");
  m.doc() =
      "Tanbo on any board that is a graph: the rules engine, game files, random playouts and "
      "the Monte Carlo search of the tanbo program (docs/python.md).";
  // tanbo::Error is bad input: ValueError, with the message the command line gives.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      set_error(PyExc_ValueError, e.what());
    }
  });
  py::object namedtuple = py::module_::import("collections").attr("namedtuple");
  // module="tanbo": pickle finds the type as tanbo.Root.
  py::object root_type = namedtuple("Root", "player stones space", py::arg("module") = "tanbo");
  root_type.attr("__doc__") =
      "A root: its player (1-based), its stones and its root space (point names).";
  m.attr("Root") = root_type;
  // pyspiel's PlayerAction has .player and .action; a named tuple has them too and unpacks.
  py::object player_action_type =
      namedtuple("PlayerAction", "player action", py::arg("module") = "tanbo");
  player_action_type.attr("__doc__") =
      "A move of full_history(): the player (0-based) and the action (a vertex id).";
  m.attr("PlayerAction") = player_action_type;
  py::object resignation_type =
      namedtuple("Resignation", "player move_number", py::arg("module") = "tanbo");
  resignation_type.attr("__doc__") =
      "A resignation of resignations(): the player (0-based) and the move_number() at which it "
      "resigned (the moves of history() played before it).";
  m.attr("Resignation") = resignation_type;

  py::class_<PyGame> game(m, "Game", "A game of Tanbo: the board, the position and its history.");
  // players read by int_argument: a number too big for C++ is refused as any other count; the
  // topology by text_argument (a file's name from os.listdir may hold surrogates).
  game.def(py::init([](const py::object& topology, const std::optional<std::string>& setup,
                       const py::object& players) {
             return PyGame(text_argument(topology, "topology"), setup,
                           int_argument(players, PyGame::not_a_player_count));
           }),
           py::arg("topology") = "grid 19x19", py::arg("setup") = py::none(),
           py::arg("players") = py::none(),
           "A new game at its start: any topology spec of the command line ('grid 9x9', "
           "'hex 5', 'line 31', 'file board.dot'), a named setup (None: the board's default) "
           "and the number of players (None: the setup's). Raises ValueError when refused.")
      .def_property_readonly("topology", &PyGame::spec, "the board's canonical spec")
      .def_property_readonly("setup", &PyGame::setup, "the name of the setup the game started from")
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
      .def(
          "play", [](PyGame& g, const py::object& name) { g.play(text_argument(name, "name")); },
          py::arg("name"),
          "plays a point for the side to move; an illegal move raises ValueError with the "
          "reason and changes nothing")
      .def(
          "play_id",
          [](PyGame& g, const py::object& id) {
            g.play_id(required_int_argument(id, point_id_refusal(g)));
          },
          py::arg("id"), "plays a point given by its vertex id")
      .def(
          "resign",
          [](PyGame& g, const py::object& player) {
            g.resign(int_argument(player, player_refusal(g)));
          },
          py::arg("player") = py::none(), "a player (default: the side to move) resigns")
      .def("undo", &PyGame::undo, "takes back the last turn")
      .def("moves", &PyGame::moves,
           "the game so far: point names, 'resign COLOUR' for a resignation")
      .def(
          "stones",
          [](const PyGame& g, const py::object& player) {
            return g.stones(required_int_argument(player, player_refusal(g)));
          },
          py::arg("player"), "a player's stones (point names)")
      .def(
          "roots", [root_type](const PyGame& g) { return g.roots(root_type); },
          "every root on the board as Root(player, stones, space)")
      .def("observation", &PyGame::observation,
           "a float32 array of players + 1 planes (0: empty points, p: player p's stones), "
           "each by vertex, or by the lattice's shape as [..., z, y, x]")
      .def(
          "copy",
          [](const py::object& self) {
            return copy_as(self, PyGame(self.cast<const PyGame&>().game()));
          },
          "an independent copy (of the game's class)")
      .def("__copy__",
           [](const py::object& self) {
             return copy_as(self, PyGame(self.cast<const PyGame&>().game()));
           })
      .def("__deepcopy__",
           [](const py::object& self, const py::object& memo) {
             return copy_as(self, PyGame(self.cast<const PyGame&>().game()), memo);
           })
      .def(
          "save", [](const PyGame& g, const py::object& path) { g.save(file_path(path)); },
          py::arg("path"),
          "writes the game file (SGF when the name ends in .sgf), atomically and locked")
      .def("to_sgf", &PyGame::to_sgf, "the game as SGF (2D boards, two players)")
      .def("to_text", &PyGame::to_text, "the game in the game-file format")
      .def("__repr__", &PyGame::repr)
      .def_property_readonly("_initialised", &PyGame::initialised,
                             "whether __init__ or unpickling made this game (tanbo/__init__.py)");
  add_openspiel(game, player_action_type, resignation_type);

  m.def(
      "load",
      [](const py::object& path) {
        return PyGame(load_game(PyGame::named_file(file_path(path), "load")));
      },
      py::arg("path"), "reads a game file or SGF record (replayed through the rules)");
  bind_search(m);
  m.def(
      "setups",
      [](const py::object& topology, const py::object& players) {
        const int count =
            PyGame::checked_players(int_argument(players, PyGame::not_a_player_count));
        return starting_setups(parse_topology(text_argument(topology, "topology")), count).names;
      },
      py::arg("topology") = "grid 19x19", py::arg("players") = py::none(),
      "the names of the setups a game on this board can start from, for this many players "
      "(None: any number a setup seats), the board's default first; Game(topology, setup) "
      "takes each");
  m.def("loads", &deserialize_text, py::arg("text"),
        "a game from game-file text (Game.serialize(), to_text()), replayed through the rules");
  m.def("observation_tensors", &observation_tensors, py::arg("games"),
        py::arg("player") = py::none(),
        "observation_tensor(player) of many games on one board as one float32 array, "
        "[game, plane, ...]");
  m.attr("TERMINAL") = kTerminal;
  m.attr("RESIGN") = kResignAction;
  m.attr("__version__") = TANBO_VERSION;
}

}  // namespace tanbo::python
