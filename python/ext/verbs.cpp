// explain, verify and draw: the command's verbs, called with the same arguments as the command
// (the package turns Python values and keywords into them) and returning objects.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "explain.hpp"

namespace cotile::python {

void bind_verbs(py::module_& m) {
  py::class_<cli::Step>(m, "Step", "One step of a derivation: a named value, its function and why.")
      .def_readonly("section", &cli::Step::section)
      .def_readonly("name", &cli::Step::name)
      .def_readonly("text", &cli::Step::value, "the value in CuTe's print format")
      .def_readonly("formula", &cli::Step::function)
      .def_readonly("domain", &cli::Step::domain)
      .def_readonly("why", &cli::Step::why)
      .def_property_readonly("value",
                             [](const cli::Step& s) -> py::object {
                               try {
                                 return to_py(text::parse(s.value));
                               } catch (const Error&) {
                                 return py::str(s.value);  // a step whose value is prose, not CuTe text
                               }
                             })
      .def("__repr__", [](const cli::Step& s) { return "Step(" + s.name + " = " + s.value + ")"; });
  py::class_<cli::Table>(m, "Table")
      .def_readonly("title", &cli::Table::title)
      .def_readonly("header", &cli::Table::header)
      .def_readonly("rows", &cli::Table::rows);
  py::class_<cli::Derivation>(m, "Derivation", "What `cotile explain` prints, as objects.")
      .def_readonly("title", &cli::Derivation::title)
      .def_readonly("steps", &cli::Derivation::steps)
      .def_readonly("tables", &cli::Derivation::tables)
      .def_readonly("notes", &cli::Derivation::notes)
      .def("to_json", [](const cli::Derivation& d) { return cli::render_json(d); })
      .def("__str__", [](const cli::Derivation& d) { return cli::render_text(d); })
      .def("__repr__", [](const cli::Derivation& d) { return cli::render_text(d); })
      .def("__len__", [](const cli::Derivation& d) { return d.steps.size(); })
      .def("__getitem__", [](const cli::Derivation& d, py::object key) -> cli::Step {
        if (PyUnicode_Check(key.ptr())) {
          const std::string k = key.cast<std::string>();
          // by name: "data_layout", or the name a step defines ("inv_data_layout = (left_inverse, _1:_0)")
          for (const cli::Step& s : d.steps)
            if (s.name == k || s.name.rfind(k + " = ", 0) == 0) return s;
          throw py::key_error(k);
        }
        int64_t i = key.cast<int64_t>();
        if (i < 0) i += int64_t(d.steps.size());
        if (i < 0 || i >= int64_t(d.steps.size())) throw py::index_error("step index out of range");
        return d.steps[size_t(i)];
      });
  m.def(
      "explain_args", [](const std::vector<std::string>& args) { return cli::explain_from(cli::explain_flags(args)); },
      py::arg("args"), "the derivation `cotile explain ARGS...` prints");

  py::class_<cli::VerifyCheck>(m, "Check")
      .def_readonly("name", &cli::VerifyCheck::name)
      .def_readonly("subject", &cli::VerifyCheck::subject)
      .def_readonly("message", &cli::VerifyCheck::message)
      .def_readonly("holds", &cli::VerifyCheck::holds)
      .def_readonly("counterexample", &cli::VerifyCheck::counterexample)
      .def("__bool__", [](const cli::VerifyCheck& c) { return c.holds; })
      .def("__repr__", [](const cli::VerifyCheck& c) {
        return std::string(c.holds ? "PASS " : "FAIL ") + c.name + ": " + c.message;
      });
  py::class_<cli::VerifyReport>(m, "Report",
                                "What `cotile verify` prints: checks, each PASS or FAIL with a counterexample.")
      .def_readonly("checks", &cli::VerifyReport::checks)
      .def_property_readonly("holds", &cli::VerifyReport::holds)
      .def("__bool__", &cli::VerifyReport::holds)
      .def("to_json", [](const cli::VerifyReport& r) { return cli::render_json(r); })
      .def("__str__", [](const cli::VerifyReport& r) { return cli::render_text(r); })
      .def("__repr__", [](const cli::VerifyReport& r) { return cli::render_text(r); });
  m.def(
      "verify_args", [](const std::vector<std::string>& args) { return cli::verify_from(cli::verify_flags(args)); },
      py::arg("args"), "the report `cotile verify ARGS...` prints");

  py::class_<cli::Drawing>(m, "Drawing", "What `cotile draw` writes: an SVG, and an HTML page with hover tooltips.")
      .def_readonly("subject", &cli::Drawing::subject)
      .def_readonly("title", &cli::Drawing::title)
      .def_readonly("svg", &cli::Drawing::svg)
      .def_readonly("html", &cli::Drawing::html)
      .def_readonly("cells", &cli::Drawing::cells)
      .def_readonly("width", &cli::Drawing::width)
      .def_readonly("height", &cli::Drawing::height)
      .def("_repr_svg_", [](const cli::Drawing& d) { return d.svg; })
      .def("__repr__",
           [](const cli::Drawing& d) { return "Drawing(" + d.title + ", " + std::to_string(d.cells) + " cells)"; });
  m.def(
      "draw_args", [](const std::vector<std::string>& args) { return cli::draw_from(cli::draw_flags(args)); },
      py::arg("args"), "the drawing `cotile draw ARGS...` writes");
}

}  // namespace cotile::python
