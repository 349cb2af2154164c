// How Python values cross into the module's C++: integer arguments read with their own
// refusals, and exceptions set whatever bytes their messages hold.
#pragma once

#include <pybind11/pybind11.h>

#include <climits>
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
  if (overflow || v < INT_MIN || v > INT_MAX) {
    throw Error(refusal(std::string(py::str(index))));
  }
  return static_cast<int>(v);
}
// The same for an argument that may not be None.
template <class Refusal>
int required_int_argument(const py::object& x, Refusal&& refusal) {
  if (x.is_none()) throw py::type_error("an integer is required, not None");
  return *int_argument(x, std::forward<Refusal>(refusal));
}

}  // namespace tanbo::python
