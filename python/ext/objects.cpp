// The value classes: Layout, ComposedLayout (a swizzled layout) and Swizzle, with pycute's call
// forms (L(i), L(m, n), L[i], len(L), L.size()) computed by the calculator's operations.
#include <pybind11/pybind11.h>

#include "convert.hpp"

namespace cotile::python {

namespace {

bool has_underscore(const Value& v) {
  if (v.kind == Value::kUnderscore) return true;
  if (v.kind != Value::kTuple) return false;
  for (const Value& e : v.elems)
    if (has_underscore(e)) return true;
  return false;
}

// L(i), L(m, n), L((m, n)); a coordinate holding None ('_') slices: L(None, 3).
py::object call_layout(const Value& self, const py::args& args, const py::kwargs& kw) {
  if (args.size() == 0) throw py::type_error("Layout(): a coordinate is required, e.g. L(3) or L(1, 2)");
  // Fast path: integer coordinates of a plain layout, evaluated as the calculator's eval does;
  // anything else (and any error, so that it is reported as eval reports it) takes the general path.
  IntTuple crd_fast;
  if (self.kind == Value::kLayout && kw.empty() &&
      (args.size() == 1 ? to_int_tuple(args[0], crd_fast) : to_int_tuple(args, crd_fast))) {
    try {
      return to_py(eval(self.layout, crd_fast));
    } catch (const Error&) {
    }
  }
  Value crd;
  if (args.size() == 1) {
    crd = to_value(args[0], "Layout.__call__", "coord");
  } else {
    crd.kind = Value::kTuple;
    for (size_t i = 0; i < args.size(); ++i) crd.elems.push_back(to_value(args[i], "Layout.__call__", "coord"));
  }
  const Mode m = mode_of(kw, "Layout.__call__");
  if (has_underscore(crd)) return call_op("slice", {crd, self}, m);
  return call_op("eval", {self, crd}, m);
}

int64_t mode_index(int64_t i, int64_t rank) {
  const int64_t j = i < 0 ? i + rank : i;
  if (j < 0 || j >= rank)
    throw py::index_error("mode index " + std::to_string(i) + " out of range for rank " + std::to_string(rank));
  return j;
}

Value layout_value(const Layout& l) { return Value::of(l); }
Value composed_value(const ComposedLayout& c) {
  Value v;
  v.kind = Value::kComposed;
  v.composed = c;
  return v;
}

py::object compare(const Value& a, py::handle other, const char* fn) {
  if (!py::isinstance<Layout>(other) && !py::isinstance<ComposedLayout>(other) && !py::isinstance<Swizzle>(other))
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return py::bool_(plain_text(a) == plain_text(to_value(other, fn, "other")));
}

}  // namespace

void bind_objects(py::module_& m) {
  py::class_<Layout>(m, "Layout", "A CuTe layout shape:stride; Python ints are dynamic, cotile.S(n) static.")
      .def(py::init([](py::object shape, py::object stride) {
             // Fast path: integer tuples straight to the engine's make_layout (the calculator's
             // make_layout calls the same functions); any error is reported by the general path.
             IntTuple s, d;
             if (to_int_tuple(shape, s) && (stride.is_none() || to_int_tuple(stride, d))) {
               try {
                 return stride.is_none() ? make_layout(s) : make_layout(s, d);
               } catch (const Error&) {
               }
             }
             if (PyUnicode_Check(shape.ptr()))
               throw py::type_error(
                   "Layout(): argument 'shape' must be an int or a tuple, not str (cotile.parse reads CuTe text)");
             std::vector<Value> a{to_value(shape, "Layout", "shape")};
             if (!a[0].is_int_tuple())
               throw py::type_error("Layout(): argument 'shape' must be an int or a tuple of ints");
             if (!stride.is_none()) {
               a.push_back(to_value(stride, "Layout", "stride"));
               if (!a[1].is_int_tuple())
                 throw py::type_error("Layout(): argument 'stride' must be an int or a tuple of ints");
             }
             return text::to_layout(call_value("make_layout", a, default_mode()), "Layout", 1);
           }),
           py::arg("shape"), py::arg("stride") = py::none())
      .def_property_readonly("shape", [](const Layout& l) { return to_py(l.shape); })
      .def_property_readonly("stride", [](const Layout& l) { return to_py(l.stride); })
      .def("__call__", [](const Layout& l, py::args a, py::kwargs kw) { return call_layout(layout_value(l), a, kw); })
      .def("__getitem__", [](const Layout& l, int64_t i) { return l.get(int(mode_index(i, rank(l).value))); })
      .def("__len__", [](const Layout& l) { return rank(l).value; })
      .def("size", [](const Layout& l) { return call_op("size", {layout_value(l)}, default_mode()); })
      .def("cosize", [](const Layout& l) { return call_op("cosize", {layout_value(l)}, default_mode()); })
      .def("__str__", [](const Layout& l) { return to_string(l); })
      .def("__repr__", [](const Layout& l) { return to_string(l); })
      .def("__eq__", [](const Layout& l, py::handle o) { return compare(layout_value(l), o, "Layout.__eq__"); })
      .def("__ne__",
           [](const Layout& l, py::handle o) {
             py::object r = compare(layout_value(l), o, "Layout.__ne__");
             return r.is(py::reinterpret_borrow<py::object>(Py_NotImplemented)) ? r : py::bool_(!r.cast<bool>());
           })
      .def("__hash__", [](const Layout& l) { return py::hash(py::str(plain_text(layout_value(l)))); });

  py::class_<Swizzle>(m, "Swizzle", "CuTe's Swizzle<B,M,S> (printed Sw<B,M,S>): x ^ ((x & YYY) >> S).")
      .def(py::init([](int b, int mbase, int s) { return make_swizzle(b, mbase, s); }), py::arg("bits"),
           py::arg("base"), py::arg("shift"))
      .def_readonly("bits", &Swizzle::b)
      .def_readonly("base", &Swizzle::m)
      .def_readonly("shift", &Swizzle::s)
      .def(
          "__call__", [](const Swizzle& s, int64_t x) { return s(x); }, py::arg("offset"))
      .def("size",
           [](const Swizzle& s) {
             const int bits = s.b + s.m + (s.s < 0 ? -s.s : s.s);
             if (bits > 62) {
               const std::string rule = "the domain 2^" + std::to_string(bits) + " does not fit in 64 bits";
               throw Error("Swizzle.size", rule, "Swizzle.size: " + rule);
             }
             return int64_t(1) << bits;
           })
      .def("__str__", [](const Swizzle& s) { return to_string(s); })
      .def("__repr__", [](const Swizzle& s) { return to_string(s); })
      .def("__eq__", [](const Swizzle& s, py::handle o) { return compare(Value::of(s), o, "Swizzle.__eq__"); })
      .def("__hash__", [](const Swizzle& s) { return py::hash(py::str(to_string(s))); });

  py::class_<ComposedLayout>(m, "ComposedLayout",
                             "A swizzled layout Sw<B,M,S> o offset o layout (pycute's argument order).")
      .def(py::init([](const Swizzle& sw, py::object offset, const Layout& l) {
             return ComposedLayout{sw, text::to_int(to_value(offset, "ComposedLayout", "offset"), "ComposedLayout", 2),
                                   l};
           }),
           py::arg("layoutB"), py::arg("offset"), py::arg("layoutA"))
      .def_property_readonly("layoutB", [](const ComposedLayout& c) { return c.swizzle; })
      .def_property_readonly("swizzle", [](const ComposedLayout& c) { return c.swizzle; })
      .def_property_readonly("offset", [](const ComposedLayout& c) { return to_py(Value::of(c.offset)); })
      .def_property_readonly("layoutA", [](const ComposedLayout& c) { return c.layout; })
      .def_property_readonly("layout", [](const ComposedLayout& c) { return c.layout; })
      .def_property_readonly("shape", [](const ComposedLayout& c) { return to_py(Value::of(c.layout.shape)); })
      .def("__call__",
           [](const ComposedLayout& c, py::args a, py::kwargs kw) { return call_layout(composed_value(c), a, kw); })
      .def("__getitem__",
           [](const ComposedLayout& c, int64_t i) {
             return ComposedLayout{c.swizzle, c.offset, c.layout.get(int(mode_index(i, rank(c.layout).value)))};
           })
      .def("__len__", [](const ComposedLayout& c) { return rank(c.layout).value; })
      .def("size", [](const ComposedLayout& c) { return to_py(Value::of(size(c.layout))); })
      .def("__str__", [](const ComposedLayout& c) { return to_string(c); })
      .def("__repr__", [](const ComposedLayout& c) { return to_string(c); })
      .def("__eq__",
           [](const ComposedLayout& c, py::handle o) { return compare(composed_value(c), o, "ComposedLayout.__eq__"); })
      .def("__hash__", [](const ComposedLayout& c) { return py::hash(py::str(plain_text(composed_value(c)))); });
}

}  // namespace cotile::python
