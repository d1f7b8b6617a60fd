// Python <-> engine values for the cotile module: Python ints are dynamic integers, cotile.S
// instances static ones, tuples (and lists) tuples, None is CuTe's '_', a str is CuTe text.
// Results come back the same way (tuples as cotile.IntTuple, named results as cotile.Record).
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "ops.hpp"

namespace cotile::python {

namespace py = pybind11;
using text::Value;

// The Python-side types, set once by the package (cotile/__init__.py) through _cotile._bind.
struct PyTypes {
  py::object static_int, int_tuple, record;        // S(int), IntTuple(tuple), Record
  py::object layout_error, law_error, type_error;  // LayoutError(ValueError) and its subclasses
  py::object law_warning;                          // issued for each law CuTe's result violates
};
PyTypes& types();

// The mode of calls that do not say: CuTe's results (as_cute) and CuTe's refusals (strict).
struct Mode {
  bool as_cute = false, strict = false;
};
Mode& default_mode();
// The default mode with the keyword arguments as_cute= and strict= of a call to `fn` applied; any
// other keyword raises TypeError as Python does ("fn() got an unexpected keyword argument 'k'").
Mode mode_of(const py::kwargs& kw, const std::string& fn);

// `h` as an engine value; a Python type that is none of the above raises TypeError naming the
// function and the argument.
// Nesting deeper than the engine's values can hold (64 levels, as the parser) is refused.
Value to_value(py::handle h, const std::string& fn, const std::string& arg, int depth = 0);
py::object to_py(const Value& v);

// Fast paths that skip text::Value (6.8 KB each): Python ints and tuples of them straight to the
// engine's IntTuple (false for anything else: the caller then takes the general path), and
// integers and integer tuples straight to Python.
bool to_int_tuple(py::handle h, IntTuple& out, int depth = 0);
py::object to_py(const Int& x);
py::object to_py(const IntTuple& t);

// Calls the calculator operation `op` (cli::call: the command's own code) in mode `m`; the laws
// CuTe's result violates (as_cute) are issued as cotile.LawWarning.
py::object call_op(const std::string& op, const std::vector<Value>& args, const Mode& m);
Value call_value(const std::string& op, const std::vector<Value>& args, const Mode& m);
// Issues each law in `log` as a cotile.LawWarning (the command's --as-cute warnings).
void warn_laws(const LawLog& log);

// CuTe text without staticness markers: the key of equality and hashing (CuTe compares values).
std::string plain_text(const Value& v);

// Translates cotile::Error into cotile.LayoutError (engine messages unchanged).
void register_translator();

}  // namespace cotile::python
