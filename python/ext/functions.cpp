// pycute's free functions (and every other calculator operation through `call`), each computed
// by the calculator's operation of the same name: the command's code, not a second algebra.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>

#include "convert.hpp"

namespace cotile::python {

namespace {

struct Param {
  std::string name;
  bool required = true;
};

// Operations on integer tuples computed without text::Value when every argument is an integer or
// a tuple of integers: the engine functions the calculator's operation of the same name calls
// (ops_algebra.cpp). Any error falls back to the operation itself, which reports it.
using Fast = py::object (*)(const std::vector<IntTuple>&);
Fast fast_path(const std::string& op, size_t n) {
  using T = std::vector<IntTuple>;
  static const std::map<std::pair<std::string, size_t>, Fast> table = {
      {{"size", 1}, [](const T& a) { return to_py(size(a[0])); }},
      {{"rank", 1}, [](const T& a) { return to_py(rank(a[0])); }},
      {{"depth", 1}, [](const T& a) { return to_py(depth(a[0])); }},
      {{"product", 1}, [](const T& a) { return to_py(product(a[0])); }},
      {{"product_each", 1}, [](const T& a) { return to_py(product_each(a[0])); }},
      {{"flatten", 1}, [](const T& a) { return to_py(flatten(a[0])); }},
      {{"shape_div", 2}, [](const T& a) { return to_py(shape_div(a[0], a[1])); }},
      {{"ceil_div", 2}, [](const T& a) { return to_py(ceil_div(a[0], a[1])); }},
      {{"inner_product", 2}, [](const T& a) { return to_py(inner_product(a[0], a[1])); }},
      {{"prefix_product", 1}, [](const T& a) { return to_py(prefix_product(a[0])); }},
      {{"prefix_product", 2}, [](const T& a) { return to_py(prefix_product(a[0], a[1])); }},
      {{"elem_less", 2}, [](const T& a) { return to_py(elem_less(a[0], a[1])); }},
      {{"congruent", 2}, [](const T& a) { return to_py(congruent(a[0], a[1])); }},
      {{"compatible", 2}, [](const T& a) { return to_py(compatible(a[0], a[1])); }},
      {{"crd2idx", 3}, [](const T& a) { return check_extents("crd2idx", a[1]), to_py(crd2idx(a[0], a[1], a[2])); }},
      {{"idx2crd", 2}, [](const T& a) { return check_extents("idx2crd", a[1]), to_py(idx2crd(a[0], a[1])); }},
      {{"idx2crd", 3}, [](const T& a) { return check_extents("idx2crd", a[1]), to_py(idx2crd(a[0], a[1], a[2])); }},
  };
  auto it = table.find({op, n});
  return it == table.end() ? nullptr : it->second;
}

// Binds `pyname(params..., *, as_cute=None, strict=None)` to the calculator operation `op`.
// Optional parameters given as None are absent; a positional parameter starting with '*'
// collects the remaining arguments.
void def_op(py::module_& m, const char* pyname, const std::string& op, std::vector<Param> params, const char* doc) {
  const std::string fn = pyname;
  m.def(
      pyname,
      [fn, op, params](py::args args, py::kwargs kw) {
        Mode mode = default_mode();
        const bool variadic = !params.empty() && params.back().name[0] == '*';
        if (!variadic && args.size() > params.size())
          throw py::type_error(fn + "() takes at most " + std::to_string(params.size()) + " arguments (" +
                               std::to_string(args.size()) + " given)");
        std::vector<py::object> given(variadic ? std::max(args.size(), params.size() - 1) : params.size());
        for (size_t i = 0; i < args.size(); ++i) given[i] = py::reinterpret_borrow<py::object>(args[i]);
        for (auto item : kw) {
          const std::string k = py::str(item.first);
          if (k == "as_cute" || k == "strict") {
            if (!item.second.is_none()) (k == "as_cute" ? mode.as_cute : mode.strict) = item.second.cast<bool>();
            continue;
          }
          size_t j = 0;
          while (j < params.size() && params[j].name != k) ++j;
          if (j == params.size() || params[j].name[0] == '*')
            throw py::type_error(fn + "() got an unexpected keyword argument '" + k + "'");
          if (given[j]) throw py::type_error(fn + "() got multiple values for argument '" + k + "'");
          given[j] = py::reinterpret_borrow<py::object>(item.second);
        }
        // the arguments given, up to the first absent optional one
        size_t n = 0;
        while (n < given.size() && given[n] &&
               !(given[n].is_none() && !params[std::min(n, params.size() - 1)].required))
          ++n;
        if (n == given.size() ||
            std::all_of(given.begin() + long(n), given.end(), [](const py::object& g) { return !g || g.is_none(); })) {
          if (Fast fast = fast_path(op, n)) {
            std::vector<IntTuple> tuples(n);
            bool ints = true;
            for (size_t i = 0; i < n && ints; ++i) ints = to_int_tuple(given[i], tuples[i]);
            if (ints) {
              try {
                return fast(tuples);
              } catch (const Error&) {
              }
            }
          }
        }
        std::vector<Value> values;
        for (size_t i = 0; i < given.size(); ++i) {
          const Param& p = params[std::min(i, params.size() - 1)];
          const std::string name = p.name[0] == '*' ? p.name.substr(1) : p.name;
          if (!given[i] || (!p.required && given[i].is_none())) {
            if (p.required && p.name[0] != '*')
              throw py::type_error(fn + "() missing required argument '" + name + "'");
            // an absent optional argument ends the call's arguments
            for (size_t k = i + 1; k < given.size(); ++k)
              if (given[k] && !given[k].is_none())
                throw py::type_error(fn + "(): argument '" + params[k].name + "' given without '" + name + "'");
            break;
          }
          values.push_back(to_value(given[i], fn, name));
        }
        return call_op(op, values, mode);
      },
      doc);
}

}  // namespace

void bind_functions(py::module_& m) {
  const Param opt_profile{"profile", false};
  // integer tuples
  def_op(m, "size", "size", {{"a"}}, "size(shape | layout): the product of the shape's leaves");
  def_op(m, "cosize", "cosize", {{"layout"}}, "cosize(layout): the size of the codomain, L(size-1)+1");
  def_op(m, "rank", "rank", {{"a"}}, "rank(shape | layout): the number of top-level modes");
  def_op(m, "depth", "depth", {{"a"}}, "depth(shape | layout): the nesting depth");
  def_op(m, "shape", "shape", {{"layout"}}, "shape(layout)");
  def_op(m, "stride", "stride", {{"layout"}}, "stride(layout)");
  def_op(m, "product", "product", {{"a"}}, "product(shape): the product of the leaves");
  def_op(m, "product_each", "product_each", {{"a"}}, "product_each(shape): the product of each top-level mode");
  def_op(m, "inner_product", "inner_product", {{"a"}, {"b"}},
         "inner_product(a, b): sum of products of congruent leaves");
  def_op(m, "prefix_product", "prefix_product", {{"a"}, {"init", false}},
         "prefix_product(a, init=_1): exclusive prefix products");
  def_op(m, "shape_div", "shape_div", {{"a"}, {"b"}}, "shape_div(a, b): CuTe's shape division");
  def_op(m, "ceil_div", "ceil_div", {{"a"}, {"b"}}, "ceil_div(a, b)");
  def_op(m, "flatten", "flatten", {{"a"}}, "flatten(shape | layout): the leaves as a flat tuple");
  def_op(m, "crd2idx", "crd2idx", {{"crd"}, {"shape"}, {"stride"}},
         "crd2idx(crd, shape, stride): the index of a coordinate");
  def_op(m, "idx2crd", "idx2crd", {{"idx"}, {"shape"}, {"stride", false}},
         "idx2crd(idx, shape, stride=None): the coordinate of an index (in a compact shape:stride)");
  def_op(m, "elem_less", "elem_less", {{"a"}, {"b"}}, "elem_less(a, b)");
  def_op(m, "congruent", "congruent", {{"a"}, {"b"}}, "congruent(a, b)");
  def_op(m, "compatible", "compatible", {{"a"}, {"b"}}, "compatible(a, b)");
  // layouts
  def_op(m, "make_layout_right", "make_layout_right", {{"shape"}}, "make_layout_right(shape): compact row-major");
  def_op(m, "make_ordered_layout", "make_ordered_layout", {{"shape"}, {"order"}}, "make_ordered_layout(shape, order)");
  def_op(m, "coalesce", "coalesce", {{"layout"}, opt_profile}, "coalesce(layout, profile=None)");
  def_op(m, "filter", "filter", {{"layout"}, opt_profile},
         "filter(layout, profile=None): coalesce without stride-0 and size-1 modes");
  def_op(m, "filter_zeros", "filter_zeros", {{"layout"}}, "filter_zeros(layout)");
  def_op(m, "nullspace", "nullspace", {{"layout"}}, "nullspace(layout): K with L(K(i)) = 0");
  def_op(m, "select", "select", {{"layout"}, {"modes"}}, "select(layout, modes)");
  def_op(m, "group", "group", {{"layout"}, {"begin"}, {"end"}}, "group(layout, begin, end)");
  def_op(m, "take", "take", {{"layout"}, {"begin"}, {"end"}}, "take(layout, begin, end)");
  def_op(m, "append", "append", {{"a"}, {"b"}}, "append(a, b)");
  def_op(m, "prepend", "prepend", {{"a"}, {"b"}}, "prepend(a, b)");
  def_op(m, "replace", "replace", {{"layout"}, {"i"}, {"b"}}, "replace(layout, i, b)");
  def_op(m, "zip", "zip", {{"a"}}, "zip(layout)");
  def_op(m, "get", "get", {{"layout"}, {"*i"}}, "get(layout, i, ...): the sub-layout of mode i");
  def_op(m, "slice", "slice", {{"crd"}, {"layout"}}, "slice(crd, layout): the modes where crd has None ('_')");
  def_op(m, "slice_and_offset", "slice_and_offset", {{"crd"}, {"layout"}}, "slice_and_offset(crd, layout)");
  // the algebra
  def_op(m, "composition", "composition", {{"layoutA"}, {"layoutB"}}, "composition(A, B): R(c) = A(B(c))");
  def_op(m, "complement", "complement", {{"layout"}, {"max_idx", false}},
         "complement(layout, cotarget=cosize(layout))");
  def_op(m, "left_inverse", "left_inverse", {{"layout"}}, "left_inverse(layout): R(L(i)) = i");
  def_op(m, "right_inverse", "right_inverse", {{"layout"}},
         "right_inverse(layout): L(R(i)) = i with R(i) an index of L");
  for (const char* d : {"logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
                        "zipped_product", "tiled_product", "blocked_product", "raked_product"})
    def_op(m, d, d, {{"layoutA"}, {"layoutB"}}, (std::string(d) + "(A, B)").c_str());
  def_op(m, "max_common_vector", "max_common_vector", {{"a"}, {"b"}}, "max_common_vector(a, b)");
  def_op(m, "max_common_layout", "max_common_layout", {{"a"}, {"b"}}, "max_common_layout(a, b)");
  def_op(m, "upcast", "upcast", {{"layout"}, {"n"}}, "upcast(layout, n)");
  def_op(m, "downcast", "downcast", {{"layout"}, {"n"}}, "downcast(layout, n)");
  def_op(m, "tile_to_shape", "tile_to_shape", {{"layout"}, {"shape"}, {"order", false}},
         "tile_to_shape(layout, shape, order=None)");
  // atoms
  def_op(m, "copy_atom", "copy_atom", {{"atom"}, {"elem"}}, "copy_atom(atom, elem): a copy instruction's layouts");
  def_op(m, "mma_atom", "mma_atom", {{"atom"}}, "mma_atom(atom): an MMA instruction's layouts");
  def_op(m, "fmha_gen_q", "fmha_gen_q", {{"elem"}, {"D"}, {"M"}, {"atom_q_tv"}}, "fmha_gen_q(elem, D, M, atom_q_tv)");

  m.def(
      "call",
      [](const std::string& op, py::args args, py::kwargs kw) {
        const Mode mode = mode_of(kw, "call");
        std::vector<Value> values;
        for (size_t i = 0; i < args.size(); ++i) values.push_back(to_value(args[i], op, "arg" + std::to_string(i + 1)));
        return call_op(op, values, mode);
      },
      py::arg("op"), "call(op, *args): any calculator operation by name (cotile calc --list)");
  m.def(
      "calc",
      [](const std::string& expr, bool as_cute, bool strict) {
        cli::CalcOptions opt;
        opt.as_cute = as_cute || default_mode().as_cute;
        opt.strict = strict || default_mode().strict;
        LawLog log;
        opt.log = opt.as_cute ? &log : nullptr;
        const Value v = cli::evaluate(expr, opt);
        warn_laws(log);
        return to_py(v);
      },
      py::arg("expr"), py::arg("as_cute") = false, py::arg("strict") = false,
      "calc(expr): evaluate an expression as `cotile calc` does");
  m.def(
      "parse", [](const std::string& s) { return to_py(text::parse(s)); }, py::arg("text"),
      "parse(text): a value from CuTe's print format");
  m.def(
      "to_text", [](py::handle h) { return text::to_string(to_value(h, "to_text", "value")); }, py::arg("value"),
      "to_text(value): CuTe's print format of any value");
  m.def("operations", [] {
    py::list ops;
    for (const auto& [name, op] : cli::registry()) ops.append(py::make_tuple(name, op.signature, op.summary));
    return ops;
  });
  m.def(
      "set_mode",
      [](bool as_cute, bool strict) {
        default_mode() = Mode{as_cute, strict};
      },
      py::arg("as_cute"), py::arg("strict"));
  m.def("get_mode", [] { return py::make_tuple(default_mode().as_cute, default_mode().strict); });
}

}  // namespace cotile::python
