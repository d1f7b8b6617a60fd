// Layouts: a shape and a congruent stride, a function from coordinates to offsets.
//
//   L = S:D,  L(c) = sum_i c_i * d_i  for a natural coordinate c of S;
//   L(i) for an integer i first maps i to the colexicographic coordinate of S.
#pragma once

#include "int_tuple.hpp"

namespace cotile {

struct Layout {
  IntTuple shape = IntTuple::leaf(static_int(1));
  IntTuple stride = IntTuple::leaf(static_int(0));

  COTILE_HD friend constexpr bool operator==(const Layout& a, const Layout& b) {
    return a.shape == b.shape && a.stride == b.stride;
  }
  COTILE_HD constexpr int rank() const { return shape.rank(); }
  COTILE_HD constexpr bool is_leaf() const { return shape.is_leaf(); }
  COTILE_HD constexpr Layout get(int i) const { return Layout{shape.get(i), stride.get(i)}; }
};

inline std::string to_string(const Layout& l) { return to_string(l.shape) + ":" + to_string(l.stride); }

// --- construction ---------------------------------------------------------------------------

// A layout's shape counts coordinates: every extent is >= 0 (0 makes an empty layout). A negative
// extent has no coordinates to count (CuTe, unchecked, computes sizes and cosizes from it).
// A run-time extent the typed layer cannot see here is checked on its value at run time: by the
// operation run again on the values, or, with known_only, by the caller (the typed layer's
// coordinate functions, which check the values alone: ct/layout.hpp, check_shape_extents).
COTILE_HD constexpr void check_extents(const char* op, const IntTuple& s, bool known_only = false) {
  for (int k = 0; k < s.num_leaves(); ++k) {
    const Int x = s.leaf_at(k);
    if ((known_only ? is_known(x) : decidable(x, x)) && x.value < 0)
      fail(op, "a layout's shape must not be negative: an extent counts coordinates", "give every mode a size >= 0",
           arg("shape", s));
  }
}

// make_layout(S, D). Requires: S and D congruent; S >= 0.
COTILE_HD constexpr Layout make_layout(const IntTuple& s, const IntTuple& d) {
  if (!is_congruent(s, d))
    fail("make_layout", "shape and stride must be congruent", nullptr, arg("shape", s), arg("stride", d));
  check_extents("make_layout", s);
  return Layout{s, d};
}
// make_layout(S): compact column-major strides (a static _1 mode gets stride _0).
COTILE_HD constexpr Layout make_layout(const IntTuple& s) {
  check_extents("make_layout", s);
  return Layout{s, compact_col_major(s)};
}
// make_layout_right(S): compact row-major strides (LayoutRight).
COTILE_HD constexpr Layout make_layout_right(const IntTuple& s) {
  check_extents("make_layout_right", s);
  return Layout{s, compact_row_major(s)};
}
// make_ordered_layout(S, O): compact strides increasing in the order given by O.
COTILE_HD constexpr Layout make_ordered_layout(const IntTuple& s, const IntTuple& o) {
  check_extents("make_ordered_layout", s);
  return Layout{s, compact_order(s, o)};
}

// make_layout(L0, L1, ...): the layout whose top-level modes are L0, L1, ... (always a tuple,
// so make_layout(L) = (shape(L)):(stride(L))).
struct LayoutList {
  IntTuple shape = IntTuple::tuple();
  IntTuple stride = IntTuple::tuple();
  COTILE_HD constexpr void push_back(const Layout& l) {
    shape.push_back(l.shape);
    stride.push_back(l.stride);
  }
  COTILE_HD constexpr Layout layout() const { return Layout{shape, stride}; }
};
template <class... Ls>
COTILE_HD constexpr Layout make_layout_concat(const Ls&... ls) {
  LayoutList r;
  (r.push_back(ls), ...);
  return r.layout();
}

// --- accessors ------------------------------------------------------------------------------

COTILE_HD constexpr Int size(const Layout& l) { return size(l.shape); }
COTILE_HD constexpr Int rank(const Layout& l) { return rank(l.shape); }
COTILE_HD constexpr Int depth(const Layout& l) { return depth(l.shape); }

// cosize(L) = 1 + sum over leaves of (s_i - 1) * |d_i|   (the size of the codomain)
// Summed level by level as CuTe does (_0 + mode0 + mode1 ...), then _1 is added.
// An empty layout (an extent 0) reaches no offset: its cosize is 0, static when its size is (CuTe
// takes the sum there too: _-5 for _0:_6, _2 for (_4,_0):(_1,_2)).
// On symbolic extents (the typed layer) the sum is multiplied by "every one > 0", unless it is
// static: then it is the cosize of every non-empty layout of that shape, a bound for the empty one.
COTILE_HD constexpr Int inner_product_m1(const IntTuple& s, const IntTuple& d) {
  if (s.is_leaf()) return (s.value() - static_int(1)) * abs(d.value());
  Int r = static_int(0);
  for (int i = 0; i < s.rank(); ++i) r = r + inner_product_m1(s.get(i), d.get(i));
  return r;
}
COTILE_HD constexpr Int cosize(const Layout& l) {
  bool empty = false, static_empty = false;
  Int nonempty = static_int(1);  // on the symbolic extents
  for (int k = 0; k < l.shape.num_leaves(); ++k) {
    const Int s = l.shape.leaf_at(k);
    if (!is_known(s)) {
      nonempty = logical_and(nonempty, less(static_int(0), s));
    } else if (s.value == 0) {
      empty = true;
      static_empty = static_empty || s.is_static;
    }
  }
  if (empty) return Int{0, static_empty};
  const Int c = inner_product_m1(l.shape, l.stride) + static_int(1);
  return c.is_static || is_known(nonempty) ? c : c * nonempty;
}

// L(c): c is an integer index or a hierarchical coordinate congruent to a prefix of L.
COTILE_HD constexpr Int eval(const Layout& l, const IntTuple& c) { return crd2idx(c, l.shape, l.stride); }
COTILE_HD constexpr Int eval(const Layout& l, int64_t i) { return eval(l, int_tuple(dynamic_int(i))); }

// --- tuple-like manipulation ----------------------------------------------------------------

COTILE_HD constexpr Layout flatten(const Layout& l) { return Layout{flatten(l.shape), flatten(l.stride)}; }
COTILE_HD constexpr Layout append(const Layout& l, const Layout& x) {
  return Layout{append(l.shape, x.shape), append(l.stride, x.stride)};
}
COTILE_HD constexpr Layout prepend(const Layout& l, const Layout& x) {
  return Layout{prepend(l.shape, x.shape), prepend(l.stride, x.stride)};
}
// append<N>(L): pad L with _1:_0 modes up to rank N (an integer layout of rank 1 stays as is
// when N == 1).
COTILE_HD constexpr Layout append_to_rank(const Layout& l, int n) {
  if (l.rank() >= n) return l;
  Layout r = l;
  while (r.rank() < n) r = append(r, Layout{});
  return r;
}
COTILE_HD constexpr Layout replace(const Layout& l, int i, const Layout& x) {
  return Layout{replace(l.shape, i, x.shape), replace(l.stride, i, x.stride)};
}
COTILE_HD constexpr Layout group(const Layout& l, int b, int e) {
  return Layout{group(l.shape, b, e), group(l.stride, b, e)};
}
COTILE_HD constexpr Layout take(const Layout& l, int b, int e) {
  return Layout{take(l.shape, b, e), take(l.stride, b, e)};
}
// select(L, (i0,i1,...)): the listed modes, in that order, as a tuple layout.
COTILE_HD constexpr Layout select(const Layout& l, const IntTuple& idx) {
  LayoutList r;
  for (int k = 0; k < idx.num_leaves(); ++k) {
    const int64_t i = idx.leaf_at(k).value;
    if (i < 0 || i >= l.rank()) fail("select", "mode index out of range", nullptr, arg("layout", l), arg("index", i));
    r.push_back(l.get(int(i)));
  }
  return r.layout();
}
// zip(L): transpose the two outer levels of shape and stride.
COTILE_HD constexpr Layout zip(const Layout& l) { return Layout{zip(l.shape), zip(l.stride)}; }
// zip(A, B) = zip((A, B)).
COTILE_HD constexpr Layout zip(const Layout& a, const Layout& b) { return zip(make_layout_concat(a, b)); }

// --- coalesce and filter --------------------------------------------------------------------

// What coalesce did to each flat mode, last to first (for explanation tools).
struct CoalesceStep {
  enum Action : uint8_t { kFront, kSkipStaticOne, kReplaceOne, kMerge, kPrepend };
  int mode = 0;
  Action action = kFront;
  Int shape, stride;
};
struct CoalesceTrace {
  CoalesceStep steps[kMaxLeaves];
  int n = 0;
  COTILE_HD constexpr void add(const CoalesceStep& s) {
    if (n < kMaxLeaves) steps[n++] = s;
  }
};

namespace detail {

// Backward coalesce of a flat layout, from its last mode to its first, keeping a front mode:
//   mode s:d with static s == _1        -> skip it
//   front is the integer _1             -> the mode replaces the front
//   front shape static and s*d == front stride statically  -> merge: front = (s*front):d
//   otherwise                           -> prepend the mode
// A result whose shape is the integer _1 is _1:_0. `first_shape` seeds the front (coalesce_x
// seeds a static _1 last mode with _2 so that the function is kept beyond the domain).
// by_value: decide both rules on the values, static or not (a mode of extent 1 is skipped, s*d ==
// front stride merges, into a run-time extent); the same function, with run-time modes joined
// where their values allow.
COTILE_HD constexpr Layout bw_coalesce(const IntTuple& fs, const IntTuple& fd, const Int& first_shape,
                                       CoalesceTrace* tr = nullptr, bool by_value = false) {
  const int r = fs.rank();
  IntTuple ns = int_tuple(first_shape), nd = fd.get(r - 1);
  if (tr) tr->add(CoalesceStep{r - 1, CoalesceStep::kFront, fs.mode_value(r - 1), fd.mode_value(r - 1)});
  for (int i = r - 2; i >= 0; --i) {
    const Int s = fs.mode_value(i), d = fd.mode_value(i);
    auto note = [&](CoalesceStep::Action a) {
      if (tr) tr->add(CoalesceStep{i, a, s, d});
    };
    if (is_constant(s, 1) || (by_value && decided_equal(s, 1))) {
      note(CoalesceStep::kSkipStaticOne);
      continue;
    }
    if (ns.is_leaf() && is_constant(ns.value(), 1)) {
      note(CoalesceStep::kReplaceOne);
      ns = int_tuple(s);
      nd = int_tuple(d);
      continue;
    }
    const Int front_s = ns.mode_value(0), front_d = nd.mode_value(0);
    // (A product s * d beyond 64 bits is not the front's stride: no merge, and nothing computed.)
    const bool known = front_s.is_static && detail::mul_fits(s.value, d.value) && is_constant(equal(s * d, front_d), 1);
    if (known || (by_value && detail::mul_fits(s.value, d.value) && decided_equal(s * d, front_d))) {
      note(CoalesceStep::kMerge);
      // (joined on run-time values: the joined extent is a run-time value too)
      ns = replace(ns, 0, int_tuple(known ? s * front_s : dynamic_int((s * front_s).value)));
      nd = replace(nd, 0, int_tuple(d));
    } else {
      note(CoalesceStep::kPrepend);
      ns = prepend(ns, int_tuple(s));
      nd = prepend(nd, int_tuple(d));
    }
  }
  if (ns.is_leaf() && is_constant(ns.value(), 1)) return Layout{};
  return Layout{ns, nd};
}

COTILE_HD constexpr IntTuple flat_modes(const IntTuple& t) { return wrap(flatten(t)); }

}  // namespace detail

// coalesce(L): the same function on [0, size(L)) with as few modes as statically provable.
// Ensures: size(R) == size(L), depth(R) <= 1, R(i) == L(i) for i < size(L).
COTILE_HD constexpr Layout coalesce(const Layout& l, CoalesceTrace* tr = nullptr) {
  const IntTuple fs = detail::flat_modes(l.shape), fd = detail::flat_modes(l.stride);
  if (fs.rank() == 0) fail("coalesce", "the layout has no modes", nullptr, arg("layout", l));
  return detail::bw_coalesce(fs, fd, fs.mode_value(fs.rank() - 1), tr);
}

// coalesce_x(L): like coalesce but R(i) == L(i) for every i >= 0, also beyond size(L).
COTILE_HD constexpr Layout coalesce_x(const Layout& l) {
  const IntTuple fs = detail::flat_modes(l.shape), fd = detail::flat_modes(l.stride);
  if (fs.rank() == 0) fail("coalesce", "the layout has no modes", nullptr, arg("layout", l));
  const Int last = fs.mode_value(fs.rank() - 1);
  return detail::bw_coalesce(fs, fd, is_constant(last, 1) ? static_int(2) : last);
}

// coalesce_x_by_value(L): coalesce_x deciding on the values, run-time ones included: R(i) == L(i)
// for every i >= 0, with a mode of L joined to the next where s * d equals its stride and a mode
// of extent 1 below the last left out. (coalesce_x joins only what is statically known, as CuTe.)
COTILE_HD constexpr Layout coalesce_x_by_value(const Layout& l) {
  const IntTuple fs = detail::flat_modes(l.shape), fd = detail::flat_modes(l.stride);
  if (fs.rank() == 0) fail("coalesce", "the layout has no modes", nullptr, arg("layout", l));
  const Int last = fs.mode_value(fs.rank() - 1);
  return detail::bw_coalesce(fs, fd, is_constant(last, 1) ? static_int(2) : last, nullptr, true);
}

// coalesce(L, P): coalesce applied below each terminal of the profile P: for a tuple P,
// mode i of L is coalesce(L_i, P_i) for i < rank(P) and L_i unchanged beyond; an integer P
// coalesces the whole layout. Requires rank(P) <= rank(L).
COTILE_HD constexpr Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return coalesce(l);
  if (profile.rank() > l.rank())
    fail("coalesce", "the profile has more modes than the layout", nullptr, arg("layout", l), arg("profile", profile));
  LayoutList r;
  for (int i = 0; i < l.rank(); ++i) r.push_back(i < profile.rank() ? coalesce(l.get(i), profile.get(i)) : l.get(i));
  return r.layout();
}

// filter_zeros(L): every mode with a static _0 stride gets shape _1, but for a known extent 0: L is
// empty and stays so (CuTe's _1 there makes filter((4,0):(_1,_0)) the 4:_1 of offsets the empty L
// never reaches). A symbolic extent (the typed layer) is taken as non-zero, as CuTe takes it.
COTILE_HD constexpr Layout filter_zeros(const Layout& l) {
  IntTuple s = filter_zeros(l.stride, l.shape);
  for (int k = 0; k < s.num_leaves(); ++k)
    if (decided_equal(l.shape.leaf_at(k), 0)) s.leaf_at(k) = l.shape.leaf_at(k);
  return Layout{s, l.stride};
}

// filter(L) = coalesce(filter_zeros(L)): drops static-0-stride and static size-1 modes.
// Law: R reaches the same offsets as L (none when L is empty).
COTILE_HD constexpr Layout filter(const Layout& l) { return coalesce(filter_zeros(l)); }

// filter(L, profile): filter applied at the terminals of profile, mode by mode (CuTe's
// transform_layout; modes beyond the profile's rank are kept). An integer profile filters L.
COTILE_HD constexpr Layout filter(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return filter(l);
  if (profile.rank() > l.rank())
    fail("filter", "the profile has more modes than the layout", nullptr, arg("layout", l), arg("profile", profile));
  LayoutList r;
  for (int i = 0; i < l.rank(); ++i) r.push_back(i < profile.rank() ? filter(l.get(i), profile.get(i)) : l.get(i));
  return r.layout();
}

}  // namespace cotile
