// The inner loop of a random game driven from Python (is_terminal, legal_actions,
// apply_action) as plain CPython methods: pybind11's dispatcher, which matches arguments against
// every overload, cost about a third of each move of that loop (docs/python.md, "Speed").
// They behave as the pybind11 bindings did: the same arguments, results and errors.
#include "fast.hpp"

#include <new>
#include <optional>
#include <string>

namespace tanbo::python {

namespace {

PyGame& game_of(PyObject* self) {
  return py::cast<PyGame&>(py::handle(self));
}

// Runs f, turning C++ exceptions into Python's as the module's translator does (tanbo::Error:
// ValueError); nullptr then.
template <class F>
PyObject* guarded(F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    set_error(PyExc_ValueError, e.what());
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    set_error(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// Refuses an integer too big for a long long, which is no player and no point, with the
// ValueError `refusal` words for its decimal text (the number as it was given, not a clamped
// one). Takes over the reference to `index`; returns nullptr.
template <class Refusal>
PyObject* refuse_huge(PyObject* index, Refusal&& refusal) {
  PyObject* text = PyObject_Str(index);
  Py_DECREF(index);
  if (!text) return nullptr;
  const char* utf8 = PyUnicode_AsUTF8(text);
  PyObject* out =
      utf8 ? guarded([&]() -> PyObject* { throw Error(refusal(std::string(utf8))); }) : nullptr;
  Py_DECREF(text);
  return out;
}

PyObject* is_terminal(PyObject* self, PyObject*) {
  return guarded([&] { return PyBool_FromLong(game_of(self).is_over()); });
}

// legal_actions(player=None), positional or by keyword: the player as OpenSpiel takes it, from
// 0 or one of its special ids (PyGame::legal_actions checks it).
PyObject* legal_actions(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs + nkw > 1 ||
      (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "player"))) {
    PyErr_SetString(PyExc_TypeError, "legal_actions() takes one argument: player=None");
    return nullptr;
  }
  std::optional<std::int64_t> player;
  if (nargs + nkw == 1 && args[0] != Py_None) {
    PyObject* index = PyNumber_Index(args[0]);
    if (!index) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return nullptr;
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError,
                   "legal_actions(): player must be a 0-based player number or None, not %.100s",
                   Py_TYPE(args[0])->tp_name);
      return nullptr;
    }
    int overflow = 0;
    const long long p = PyLong_AsLongLongAndOverflow(index, &overflow);
    if (overflow) {
      return refuse_huge(
          index, [&](const std::string& text) { return game_of(self).not_a_player_id(text); });
    }
    Py_DECREF(index);
    if (p == -1 && PyErr_Occurred()) return nullptr;
    player = p;
  }
  return guarded([&] { return game_of(self).legal_actions(player).release().ptr(); });
}

// apply_action(action): any integer, NumPy's too.
PyObject* apply_action(PyObject* self, PyObject* action) {
  PyObject* index = PyNumber_Index(action);
  if (!index) return nullptr;
  int overflow = 0;
  const long long id = PyLong_AsLongLongAndOverflow(index, &overflow);
  if (overflow) {
    return refuse_huge(index,
                       [&](const std::string& text) { return game_of(self).not_a_point_id(text); });
  }
  Py_DECREF(index);
  if (id == -1 && PyErr_Occurred()) return nullptr;
  return guarded([&] {
    game_of(self).play_id(id);
    Py_RETURN_NONE;
  });
}

PyMethodDef kMethods[] = {
    {"is_terminal", is_terminal, METH_NOARGS, "whether the game is over"},
    {"legal_actions", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(legal_actions)),
     METH_FASTCALL | METH_KEYWORDS,
     "legal_actions(player=None): the side to move's legal points as vertex ids, ascending ([] "
     "for any other player, OpenSpiel's special ids -1 to -5 included, and once the game is "
     "over)"},
    {"apply_action", apply_action, METH_O,
     "apply_action(action): plays a vertex id for the side to move (ValueError when illegal)"},
};

}  // namespace

void add_fast_methods(py::class_<PyGame>& game) {
  auto* type = reinterpret_cast<PyTypeObject*>(game.ptr());
  for (PyMethodDef& def : kMethods) {
    py::object method = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &def));
    if (!method) throw py::error_already_set();
    game.attr(def.ml_name) = method;
  }
}

}  // namespace tanbo::python
