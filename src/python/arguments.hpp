// How Python values cross into the module's C++: integer arguments read with their own
// refusals, and exceptions set whatever bytes their messages hold.
#pragma once

#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "tanbo/core/error.hpp"

namespace tanbo::python {

namespace py = pybind11;

// Sets a Python exception of `type` with `message`, whatever bytes it holds: a name from a file
// may not be UTF-8, and PyErr_SetString would then raise an exception with no text at all.
inline void set_error(PyObject* type, const char* message) {
  PyObject* text = PyUnicode_DecodeUTF8(message, static_cast<Py_ssize_t>(std::strlen(message)),
                                        "backslashreplace");
  if (!text) {
    PyErr_Clear();
    PyErr_SetString(type, "(a message that cannot be shown)");
    return;
  }
  PyErr_SetObject(type, text);
  Py_DECREF(text);
}

// The decimal text of a Python int for a message. Python refuses to write an int of more than
// 4300 digits (sys.set_int_max_str_digits), which would turn the refusal of a number out of range
// into a ValueError about the conversion: such a number is described instead.
inline std::string integer_text(const py::handle& index) {
  PyObject* text = PyObject_Str(index.ptr());
  if (!text) {
    PyErr_Clear();
    return "(an integer too long to write out)";
  }
  const std::string out = py::reinterpret_steal<py::str>(text);
  return out;
}

// A text argument `name` that names files or holds their text: a str, whose surrogates (the
// undecodable bytes of a name from os.listdir or a text read with errors="surrogateescape")
// become the bytes they stand for, as os.fsencode makes them, or bytes. The library then
// refuses what is not UTF-8 by name; pybind11 refused such a str with "incompatible function
// arguments", which does not say why.
inline std::string text_argument(const py::handle& x, const char* name) {
  if (PyBytes_Check(x.ptr())) return std::string(py::reinterpret_borrow<py::bytes>(x));
  if (!PyUnicode_Check(x.ptr())) {
    throw py::type_error(std::string(name) + " must be a str, not " +
                         (x.is_none() ? std::string("None") : Py_TYPE(x.ptr())->tp_name));
  }
  const py::object bytes = py::reinterpret_steal<py::object>(
      PyUnicode_AsEncodedString(x.ptr(), "utf-8", "surrogateescape"));
  if (!bytes) throw py::error_already_set();  // a lone high surrogate: UnicodeEncodeError
  return std::string(py::reinterpret_borrow<py::bytes>(bytes));
}

// An integer argument (a Python int, a NumPy integer, anything with __index__) that must fit
// `int`: one beyond that is refused with `refusal`'s words for its decimal text, a ValueError
// as for any other number out of range (pybind11 would raise "incompatible function
// arguments"). None gives nullopt.
template <class Refusal>
std::optional<int> int_argument(const py::object& x, Refusal&& refusal) {
  if (x.is_none()) return std::nullopt;
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(x.ptr()));
  if (!index) throw py::error_already_set();  // TypeError: not an integer
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow || v < INT_MIN || v > INT_MAX) throw Error(refusal(integer_text(index)));
  return static_cast<int>(v);
}
// The same for an argument that may not be None.
template <class Refusal>
int required_int_argument(const py::object& x, Refusal&& refusal) {
  if (x.is_none()) throw py::type_error("an integer is required, not None");
  return *int_argument(x, std::forward<Refusal>(refusal));
}

// A count, a seed or a size given as an argument `name`: an integer (a Python int, a NumPy
// integer, anything with __index__) from `lo` to `hi`, else a ValueError naming the argument, its
// range and the value as given (pybind11 refused a negative or huge one with "incompatible
// function arguments", which names neither). None, a float and a bool are refused with
// TypeError: a bool here is a slip, such as random_playouts(game, 100, True) meant as
// per_game=True, which read True as the seed 1.
inline std::uint64_t count_argument(const py::handle& x, const char* name, std::uint64_t lo,
                                    std::uint64_t hi, const char* range) {
  if (PyBool_Check(x.ptr()) || (!PyLong_Check(x.ptr()) && !PyIndex_Check(x.ptr()))) {
    throw py::type_error(std::string(name) + " must be an integer, not " +
                         (x.is_none()
                              ? std::string("None")
                              : std::string(py::str(py::type::handle_of(x).attr("__name__"))) +
                                    " (" + std::string(py::repr(x)).substr(0, 40) + ")"));
  }
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(x.ptr()));
  if (!index) throw py::error_already_set();
  const unsigned long long v = PyLong_AsUnsignedLongLong(index.ptr());
  const bool fits = !(v == static_cast<unsigned long long>(-1) && PyErr_Occurred());
  if (!fits) PyErr_Clear();  // negative, or 2**64 and more
  if (!fits || v < lo || v > hi) {
    throw Error(std::string(name) + " must be " + range + ", not " + integer_text(index));
  }
  return v;
}

}  // namespace tanbo::python
