#include "convert.hpp"

#include <pybind11/stl.h>

#include "describe.hpp"

namespace cotile::python {

PyTypes& types() {
  static PyTypes* t = new PyTypes();  // never destroyed: Python objects outlive static destructors
  return *t;
}

Mode& default_mode() {
  static Mode m;
  return m;
}

Mode mode_of(const py::kwargs& kw, const std::string& fn) {
  Mode m = default_mode();
  for (auto item : kw) {
    const std::string k = py::str(item.first);
    if (k == "as_cute") m.as_cute = item.second.cast<bool>();
    else if (k == "strict") m.strict = item.second.cast<bool>();
    else throw py::type_error(fn + "() got an unexpected keyword argument '" + k + "'");
  }
  return m;
}

namespace {

bool is_static_int(PyObject* o);

[[noreturn]] void type_error(const std::string& fn, const std::string& arg, py::handle h) {
  const std::string got = py::str(py::type::of(h).attr("__name__"));
  throw py::type_error(fn + "(): argument '" + arg +
                       "' must be a Layout, ComposedLayout, Swizzle, int, tuple, None or CuTe text, not " + got);
}

}  // namespace

Value to_value(py::handle h, const std::string& fn, const std::string& arg, int depth) {
  PyObject* o = h.ptr();
  if (PyLong_Check(o)) {
    if (PyBool_Check(o)) type_error(fn, arg, h);
    const long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      const std::string rule = "argument '" + arg + "' = " + std::string(py::str(h)) + " does not fit in 64 bits";
      throw Error(fn, rule, fn + ": " + rule);
    }
    return Value::of(is_static_int(o) ? static_int(x) : dynamic_int(x));
  }
  if (PyTuple_Check(o) || PyList_Check(o)) {
    if (depth >= 64) {
      const std::string rule = "argument '" + arg + "' is nested deeper than 64 levels";
      throw Error(fn, rule, fn + ": " + rule);
    }
    Value t;
    t.kind = Value::kTuple;
    t.elems.reserve(size_t(PySequence_Size(o)));
    for (py::handle e : h) t.elems.push_back(to_value(e, fn, arg, depth + 1));
    return t;
  }
  if (o == Py_None) return Value::underscore();
  if (py::isinstance<Layout>(h)) return Value::of(h.cast<const Layout&>());
  if (py::isinstance<ComposedLayout>(h)) {
    Value v;
    v.kind = Value::kComposed;
    v.composed = h.cast<const ComposedLayout&>();
    return v;
  }
  if (py::isinstance<Swizzle>(h)) return Value::of(h.cast<const Swizzle&>());
  if (PyUnicode_Check(o)) return text::parse(h.cast<std::string>());
  type_error(fn, arg, h);
}

namespace {

bool is_static_int(PyObject* o) {
  return types().static_int && PyObject_TypeCheck(o, (PyTypeObject*)types().static_int.ptr());
}

// A new cotile.IntTuple of n (unset) items.
py::object new_int_tuple(Py_ssize_t n) {
  PyTypeObject* tp = (PyTypeObject*)types().int_tuple.ptr();
  PyObject* t = tp->tp_alloc(tp, n);
  if (t == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(t);
}

// The leaves and nodes of an IntTuple in order: node code < 0 is a leaf, else a tuple of `code`
// modes (include/cotile/tree.hpp).
py::object build(const IntTuple& t, int& node, int& leaf) {
  const int code = t.code_at(node++);
  if (code < 0) return to_py(t.leaf_at(leaf++));
  py::object r = new_int_tuple(code);
  for (int i = 0; i < code; ++i) PyTuple_SET_ITEM(r.ptr(), i, build(t, node, leaf).release().ptr());
  return r;
}

}  // namespace

py::object to_py(const Int& x) {
  if (!x.is_static) return py::int_(x.value);
  // static integers are immutable: the common ones are made once
  static py::object* cache = new py::object[1025];
  if (x.value >= 0 && x.value <= 1024) {
    py::object& c = cache[x.value];
    if (!c) c = types().static_int(x.value);
    return c;
  }
  return types().static_int(x.value);
}

py::object to_py(const IntTuple& t) {
  int node = 0, leaf = 0;
  return build(t, node, leaf);
}

bool to_int_tuple(py::handle h, IntTuple& out, int depth) {
  PyObject* o = h.ptr();
  if (PyLong_Check(o)) {
    if (PyBool_Check(o)) return false;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0 || (x == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    out = int_tuple(is_static_int(o) ? static_int(x) : dynamic_int(x));
    return true;
  }
  if ((!PyTuple_Check(o) && !PyList_Check(o)) || depth >= 64) return false;
  py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
  const size_t n = seq.size();
  IntTuple t = IntTuple::tuple();
  IntTuple e;
  for (size_t i = 0; i < n; ++i) {
    if (!to_int_tuple(seq[i], e, depth + 1)) return false;
    if (t.num_nodes() + e.num_nodes() > 128 || t.num_leaves() + e.num_leaves() > 64 || t.rank() >= 127) return false;
    t.push_back(e);
  }
  out = t;
  return true;
}

py::object to_py(const Value& v) {
  switch (v.kind) {
    case Value::kInt: return to_py(v.integer);
    case Value::kTuple: {
      py::object t = new_int_tuple(Py_ssize_t(v.elems.size()));
      for (size_t i = 0; i < v.elems.size(); ++i)
        PyTuple_SET_ITEM(t.ptr(), Py_ssize_t(i), to_py(v.elems[i]).release().ptr());
      return t;
    }
    case Value::kLayout: return py::cast(v.layout);
    case Value::kComposed: return py::cast(v.composed);
    case Value::kSwizzle: return py::cast(v.composed.swizzle);
    case Value::kUnderscore: return py::none();
    case Value::kName: return py::str(v.name);
    case Value::kRecord: {
      py::list names, values;
      for (size_t i = 0; i < v.names.size(); ++i) {
        names.append(py::str(v.names[i]));
        values.append(to_py(v.elems[i]));
      }
      return types().record(names, values);
    }
  }
  throw py::type_error("cotile: a value of unknown kind");
}

void warn_laws(const LawLog& log) {
  if (log.count == 0 || !types().law_warning) return;
  py::module_ warnings = py::module_::import("warnings");
  for (int k = 0; k < log.count && k < LawLog::kKept; ++k)
    warnings.attr("warn")(py::str(log.kept[k].message.c_str()), types().law_warning, 2);
  if (log.count > LawLog::kKept)
    warnings.attr("warn")(py::str(std::to_string(log.count - LawLog::kKept) + " more violated laws"),
                          types().law_warning, 2);
}

Value call_value(const std::string& op, const std::vector<Value>& args, const Mode& m) {
  LawLog log;
  cli::CalcOptions opt;
  opt.strict = m.strict;
  opt.as_cute = m.as_cute;
  opt.log = m.as_cute ? &log : nullptr;
  Value v = cli::call(op, args, opt);
  warn_laws(log);
  return v;
}

py::object call_op(const std::string& op, const std::vector<Value>& args, const Mode& m) {
  return to_py(call_value(op, args, m));
}

std::string plain_text(const Value& v) { return cli::plain(text::to_string(v)); }

void register_translator() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      const PyTypes& t = types();
      const std::string& rule = e.rule();
      const bool wrong_kind = rule.rfind("argument ", 0) == 0 && rule.find(" must be ") != std::string::npos;
      const bool law = dynamic_cast<const LawError*>(&e) != nullptr;
      py::object type = law ? t.law_error : wrong_kind ? t.type_error : t.layout_error;
      if (!type) {
        PyErr_SetString(PyExc_ValueError, e.what());
        return;
      }
      py::object exc = type(py::str(e.what()));
      exc.attr("op") = py::str(e.op());
      exc.attr("rule") = py::str(e.rule());
      PyErr_SetObject(type.ptr(), exc.ptr());
    }
  });
}

}  // namespace cotile::python
