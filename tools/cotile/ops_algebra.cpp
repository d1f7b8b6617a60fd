// Calculator operations of the layout algebra (golden families inttuple, layout, composition,
// complement_inverse, divide_product, swizzle).
#include <stdexcept>

#include "ops.hpp"

namespace cotile::cli {

std::map<std::string, Op>& mutable_registry() {
  static std::map<std::string, Op> t;
  return t;
}

namespace {

using text::to_string;

// Typed access to the arguments of one call; conversion errors name the operation.
struct Args {
  const std::string& op;
  const std::vector<Value>& v;
  const CalcOptions& opt;

  size_t size() const { return v.size(); }
  Value::Kind kind(size_t i) const { return v[i].kind; }
  bool is_layout(size_t i) const { return kind(i) == Value::kLayout; }
  Layout layout(size_t i) const { return text::to_layout(v[i], op, int(i) + 1); }
  IntTuple tuple(size_t i) const { return text::to_int_tuple(v[i], op, int(i) + 1); }
  Int integer(size_t i) const { return text::to_int(v[i], op, int(i) + 1); }
  Tile tile(size_t i) const { return text::to_tile(v[i], op, int(i) + 1); }
  Options options() const { return opt.engine(); }
  int64_t static_int(size_t i) const {
    const Int n = integer(i);
    if (!n.is_static) text::wrong_kind(op, int(i) + 1, "a static integer (e.g. _4)", v[i]);
    return n.value;
  }
  Swizzle swizzle(size_t i) const {
    if (kind(i) != Value::kSwizzle) text::wrong_kind(op, int(i) + 1, "a swizzle Sw<B,M,S>", v[i]);
    return v[i].composed.swizzle;
  }
};

using Fn = std::function<Value(const Args&)>;

std::map<std::string, Op>& table() { return mutable_registry(); }

void add(const std::string& name, int lo, int hi, const std::string& sig, const std::string& summary, Fn fn) {
  table()[name] =
      Op{name, lo,      hi,
         sig,  summary, [name, fn](const std::vector<Value>& v, const CalcOptions& o) {
                       return fn(Args{name, v, o}); }};
}

Value V(const Int& x) { return Value::of(x); }
Value V(const IntTuple& x) { return Value::of(x); }
Value V(const Layout& x) { return Value::of(x); }

// Tuple of dynamic integers, e.g. evaluated offsets.
Value offsets_value(const std::vector<int64_t>& xs) {
  Value t;
  t.kind = Value::kTuple;
  for (int64_t x : xs) t.elems.push_back(Value::of(dynamic_int(x)));
  return t;
}

// Evaluate a (possibly swizzled) layout at linear index i.
int64_t eval_any(const Value& l, const Int& i, const Args& a, size_t argno) {
  if (l.kind == Value::kComposed) return eval(l.composed, int_tuple(i));
  return eval(a.layout(argno), int_tuple(i)).value;
}

void register_inttuple() {
  add("size", 1, 1, "size(shape|layout)", "product of the shape's leaves",
      [](const Args& a) { return V(a.is_layout(0) ? size(a.layout(0)) : size(a.tuple(0))); });
  add("rank", 1, 1, "rank(shape|layout)", "number of top-level modes",
      [](const Args& a) { return V(a.is_layout(0) ? rank(a.layout(0)) : rank(a.tuple(0))); });
  add("depth", 1, 1, "depth(shape|layout)", "nesting depth",
      [](const Args& a) { return V(a.is_layout(0) ? depth(a.layout(0)) : depth(a.tuple(0))); });
  add("product", 1, 1, "product(shape)", "product of the leaves", [](const Args& a) { return V(product(a.tuple(0))); });
  add("product_each", 1, 1, "product_each(shape)", "the product of each top-level mode",
      [](const Args& a) { return V(product_each(a.is_layout(0) ? a.layout(0).shape : a.tuple(0))); });
  add("flatten", 1, 1, "flatten(shape|layout)", "the leaves as a flat tuple",
      [](const Args& a) { return a.is_layout(0) ? V(flatten(a.layout(0))) : V(flatten(a.tuple(0))); });
  add("shape_div", 2, 2, "shape_div(a, b)", "shape division",
      [](const Args& a) { return V(shape_div(a.tuple(0), a.tuple(1))); });
  add("ceil_div", 2, 2, "ceil_div(a, b)", "ceiling division",
      [](const Args& a) { return V(ceil_div(a.tuple(0), a.tuple(1))); });
  add("elem_less", 2, 2, "elem_less(a, b)", "every leaf of a below b's",
      [](const Args& a) { return V(elem_less(a.tuple(0), a.tuple(1))); });
  add("congruent", 2, 2, "congruent(a, b)", "same profile",
      [](const Args& a) { return V(congruent(a.tuple(0), a.tuple(1))); });
  add("compatible", 2, 2, "compatible(a, b)", "coordinates of a are coordinates of b",
      [](const Args& a) { return V(compatible(a.tuple(0), a.tuple(1))); });
  add("inner_product", 2, 2, "inner_product(a, b)", "sum of the products of congruent leaves",
      [](const Args& a) { return V(inner_product(a.tuple(0), a.tuple(1))); });
  add("prefix_product", 1, 2, "prefix_product(a[, init])", "exclusive prefix products, congruent to a",
      [](const Args& a) {
        return V(a.size() == 1 ? prefix_product(a.tuple(0)) : prefix_product(a.tuple(0), a.tuple(1)));
      });
  // (The shape's extents count coordinates: a negative one is refused, as a layout's is.)
  add("crd2idx", 3, 3, "crd2idx(coord, shape, stride)", "index of a coordinate", [](const Args& a) {
    check_extents("crd2idx", a.tuple(1));
    return V(crd2idx(a.tuple(0), a.tuple(1), a.tuple(2)));
  });
  add("idx2crd", 2, 3, "idx2crd(index, shape[, stride])", "natural coordinate of an index (in a compact shape:stride)",
      [](const Args& a) {
        check_extents("idx2crd", a.tuple(1));
        return V(a.size() == 2 ? idx2crd(a.tuple(0), a.tuple(1)) : idx2crd(a.tuple(0), a.tuple(1), a.tuple(2)));
      });
}

void register_layout() {
  add("make_layout", 1, 8, "make_layout(shape[, stride]) | make_layout(layout, layout, ...)",
      "column-major layout, a layout from shape and stride, or the concatenation of layouts", [](const Args& a) {
        if (a.is_layout(0)) {
          LayoutList r;
          for (size_t i = 0; i < a.size(); ++i) r.push_back(a.layout(i));
          return V(r.layout());
        }
        if (a.size() == 1) return V(make_layout(a.tuple(0)));
        if (a.size() == 2 && a.kind(1) == Value::kName) {
          if (a.v[1].name == "LayoutRight" || a.v[1].name == "GenRowMajor") return V(make_layout_right(a.tuple(0)));
          if (a.v[1].name == "LayoutLeft" || a.v[1].name == "GenColMajor") return V(make_layout(a.tuple(0)));
          text::wrong_kind(a.op, 2, "a stride, LayoutLeft or LayoutRight", a.v[1]);
        }
        if (a.size() != 2) text::wrong_kind(a.op, 3, "absent (make_layout(shape, stride) takes two tuples)", a.v[2]);
        return V(make_layout(a.tuple(0), a.tuple(1)));
      });
  add("make_layout_right", 1, 1, "make_layout_right(shape)", "compact row-major layout",
      [](const Args& a) { return V(make_layout_right(a.tuple(0))); });
  add("make_ordered_layout", 2, 2, "make_ordered_layout(shape, order)", "compact layout in the given mode order",
      [](const Args& a) { return V(make_ordered_layout(a.tuple(0), a.tuple(1))); });
  add("make_layout_concat", 1, 8, "make_layout_concat(layout, ...)", "layout whose modes are the arguments",
      [](const Args& a) {
        LayoutList r;
        for (size_t i = 0; i < a.size(); ++i) r.push_back(a.layout(i));
        return V(r.layout());
      });
  add("cosize", 1, 1, "cosize(layout)", "size of the codomain", [](const Args& a) { return V(cosize(a.layout(0))); });
  add("shape", 1, 1, "shape(layout)", "the shape", [](const Args& a) { return V(a.layout(0).shape); });
  add("stride", 1, 1, "stride(layout)", "the stride", [](const Args& a) { return V(a.layout(0).stride); });
  add("get", 2, 8, "get(layout, i, ...)", "the sub-layout of mode i (nested indices go deeper)", [](const Args& a) {
    Layout l = a.layout(0);
    for (size_t i = 1; i < a.size(); ++i) l = l.get(int(a.integer(i).value));
    return V(l);
  });
  add("eval", 2, 2, "eval(layout, index|coord)", "the layout applied to a linear index or a coordinate",
      [](const Args& a) {
        if (a.kind(0) == Value::kComposed) return V(dynamic_int(eval_any(a.v[0], a.integer(1), a, 0)));
        return V(eval(a.layout(0), a.tuple(1)));
      });
  add("slice", 2, 2, "slice(coord, layout)", "the sub-layout of the modes where coord has '_'",
      [](const Args& a) { return V(slice_and_offset(a.tile(0), a.layout(1)).layout); });
  add("slice_and_offset", 2, 2, "slice_and_offset(coord, layout)", "slice, and the offset of the fixed coordinates",
      [](const Args& a) {
        const SlicedLayout s = slice_and_offset(a.tile(0), a.layout(1));
        return Value::record({"layout", "offset"}, {V(s.layout), V(s.offset)});
      });
  add("coalesce", 1, 2, "coalesce(layout[, profile])", "fewest modes with the same function",
      [](const Args& a) { return V(a.size() == 1 ? coalesce(a.layout(0)) : coalesce(a.layout(0), a.tuple(1))); });
  add("filter", 1, 2, "filter(layout[, profile])", "coalesce without stride-0 and size-1 modes",
      [](const Args& a) { return V(a.size() == 1 ? filter(a.layout(0)) : filter(a.layout(0), a.tuple(1))); });
  add("filter_zeros", 1, 1, "filter_zeros(layout)", "static-0-stride modes get shape _1",
      [](const Args& a) { return V(filter_zeros(a.layout(0))); });
  add("nullspace", 1, 1, "nullspace(layout)", "K with L(K(i)) == 0: the static-0-stride modes' indices",
      [](const Args& a) { return V(nullspace(a.layout(0), a.options())); });
  add("select", 2, 2, "select(layout, (i,...))", "the listed modes",
      [](const Args& a) { return V(select(a.layout(0), a.tuple(1))); });
  add("replace", 3, 3, "replace(layout, i, layout)", "mode i replaced",
      [](const Args& a) { return V(replace(a.layout(0), int(a.integer(1).value), a.layout(2))); });
  add("append", 2, 2, "append(layout, layout)", "a new last mode",
      [](const Args& a) { return V(append(a.layout(0), a.layout(1))); });
  add("prepend", 2, 2, "prepend(layout, layout)", "a new first mode",
      [](const Args& a) { return V(prepend(a.layout(0), a.layout(1))); });
  add("group", 2, 2, "group(layout, (B,E))", "modes [B,E) grouped", [](const Args& a) {
    const IntTuple be = a.tuple(1);
    if (be.rank() != 2 || be.is_leaf()) text::wrong_kind(a.op, 2, "a pair (B,E)", a.v[1]);
    return V(group(a.layout(0), int(be.get(0).value().value), int(be.get(1).value().value)));
  });
  add("take", 3, 3, "take(layout, B, E)", "modes [B,E)",
      [](const Args& a) { return V(take(a.layout(0), int(a.integer(1).value), int(a.integer(2).value))); });
  add("zip", 1, 1, "zip(layout)", "transpose the two outer levels", [](const Args& a) { return V(zip(a.layout(0))); });
}

void register_algebra() {
  add("composition", 2, 2, "composition(layout, layout|tile|int|swizzle) | composition(swizzle, layout)",
      "R(c) = A(B(c))", [](const Args& a) {
        if (a.kind(0) == Value::kSwizzle) return Value::of(composition(a.swizzle(0), a.layout(1)));
        const Layout l = a.layout(0);
        if (a.kind(1) == Value::kSwizzle) return Value::of(composition(l, a.swizzle(1), a.options()));
        if (a.is_layout(1)) return V(composition(l, a.layout(1), a.options()));
        return V(composition(l, a.tile(1), a.options()));
      });
  add("complement", 1, 2, "complement(layout[, cotarget])", "the offsets the layout does not reach", [](const Args& a) {
    if (a.size() == 1) return V(complement(a.layout(0), a.options()));
    return V(complement(a.layout(0), a.tuple(1), a.options()));
  });
  add("right_inverse", 1, 1, "right_inverse(layout|swizzled layout)", "R with L(R(i)) == i", [](const Args& a) {
    if (a.kind(0) == Value::kComposed) return Value::of(right_inverse(a.v[0].composed, a.options()));
    return V(right_inverse(a.layout(0), a.options()));
  });
  add("left_inverse", 1, 1, "left_inverse(layout|swizzled layout)", "R with L(R(L(i))) == L(i)", [](const Args& a) {
    if (a.kind(0) == Value::kComposed) return Value::of(left_inverse(a.v[0].composed, a.options()));
    return V(left_inverse(a.layout(0), a.options()));
  });

  using DivFn = Layout (*)(const Layout&, const Tile&, Options);
  const std::pair<const char*, DivFn> tilers[] = {
      {"logical_divide", logical_divide}, {"zipped_divide", zipped_divide},     {"tiled_divide", tiled_divide},
      {"flat_divide", flat_divide},       {"logical_product", logical_product}, {"zipped_product", zipped_product},
      {"tiled_product", tiled_product}};
  for (const auto& [name, fn] : tilers) {
    add(name, 2, 2, std::string(name) + "(layout, layout|tile|int)", "",
        [fn = fn](const Args& a) { return V(fn(a.layout(0), a.tile(1), a.options())); });
  }
  add("blocked_product", 2, 2, "blocked_product(layout, layout)", "blocks laid out by the tiler",
      [](const Args& a) { return V(blocked_product(a.layout(0), a.layout(1), a.options())); });
  add("raked_product", 2, 2, "raked_product(layout, layout)", "blocks interleaved by the tiler",
      [](const Args& a) { return V(raked_product(a.layout(0), a.layout(1), a.options())); });
  add("max_common_vector", 2, 2, "max_common_vector(a, b)", "contiguous elements a and b agree on",
      [](const Args& a) { return V(max_common_vector(a.layout(0), a.layout(1), a.options())); });
  add("max_common_layout", 2, 2, "max_common_layout(a, b)", "layout of the common contiguous elements",
      [](const Args& a) { return V(max_common_layout(a.layout(0), a.layout(1), a.options())); });
  add("upcast", 2, 2, "upcast(layout, _N)", "view in units N times larger",
      [](const Args& a) { return V(upcast(a.layout(0), a.static_int(1), a.options())); });
  add("downcast", 2, 2, "downcast(layout, _N)", "view in units N times smaller",
      [](const Args& a) { return V(downcast(a.layout(0), a.static_int(1), a.options())); });
}

void register_swizzle() {
  add("swizzle_apply", 2, 2, "swizzle_apply(Sw<B,M,S>, (x,...))", "the swizzle applied to each offset",
      [](const Args& a) {
        const Swizzle sw = a.swizzle(0);
        const IntTuple xs = a.tuple(1);
        std::vector<int64_t> r;
        for (int k = 0; k < xs.num_leaves(); ++k) r.push_back(sw(xs.leaf_at(k).value));
        return offsets_value(r);
      });
  add("swizzle_compose", 3, 3, "swizzle_compose(Sw<B,M,S>, layout, (i,...))",
      "layout= the swizzled layout, offsets= its values at the indices", [](const Args& a) {
        const ComposedLayout c = composition(a.swizzle(0), a.layout(1));
        const IntTuple idx = a.tuple(2);
        std::vector<int64_t> r;
        for (int k = 0; k < idx.num_leaves(); ++k) r.push_back(eval(c, int_tuple(idx.leaf_at(k))));
        return Value::record({"layout", "offsets"}, {Value::of(c), offsets_value(r)});
      });
  add("tile_to_shape", 2, 3, "tile_to_shape(atom, shape[, order])", "the atom repeated to cover the shape",
      [](const Args& a) {
        const IntTuple trg = a.tuple(1);
        IntTuple order;
        const IntTuple* ord = nullptr;
        if (a.size() == 3) {
          order = a.tuple(2);
          ord = &order;
        }
        if (a.kind(0) == Value::kComposed) return Value::of(tile_to_shape(a.v[0].composed, trg, ord));
        return V(tile_to_shape(a.layout(0), trg, ord, a.options()));
      });
}

}  // namespace

void register_algebra_ops() {
  register_inttuple();
  register_layout();
  register_algebra();
  register_swizzle();
}

}  // namespace cotile::cli
