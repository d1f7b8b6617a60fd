// cotile._cotile: the engine and the command's code for Python (the package cotile wraps it).
#include <pybind11/pybind11.h>

#include "convert.hpp"

namespace cotile::python {
void bind_objects(py::module_& m);
void bind_functions(py::module_& m);
void bind_verbs(py::module_& m);
}  // namespace cotile::python

PYBIND11_MODULE(_cotile, m) {
  namespace cp = cotile::python;
  m.doc() = "cotile's engine: CuTe's layout algebra with exact static/dynamic semantics";
  cp::register_translator();
  cp::bind_objects(m);
  cp::bind_functions(m);
  cp::bind_verbs(m);
  m.def(
      "_bind",
      [](cp::py::object static_int, cp::py::object int_tuple, cp::py::object record, cp::py::object layout_error,
         cp::py::object law_error, cp::py::object type_error, cp::py::object law_warning) {
        cp::types() = cp::PyTypes{static_int, int_tuple, record, layout_error, law_error, type_error, law_warning};
      },
      "the package's Python types (cotile/__init__.py calls this once)");
}
