// Functional composition of layouts: R = A o B with R(c) = A(B(c)).
#pragma once

#include "../laws/composition.hpp"
#include "../tile.hpp"
#include "options.hpp"

namespace cotile {

// What composition did, step by step (for explanation tools).
struct CompositionStep {
  enum Action : uint8_t { kStaticZeroStride, kIntegralLhs, kSkip, kTake, kRest };
  enum Rule : uint8_t { kNone, kStrideDivides, kStrideBelowShape };
  int rhs_leaf = 0, lhs_mode = 0;
  Action action = kSkip;
  Rule rule = kNone;
  Int curr_shape, curr_stride, rest_shape, rest_stride, next_shape, next_stride, new_shape;
};
struct CompositionTrace {
  Layout lhs_coalesced;
  bool by_value = false;  // lhs_coalesced joins run-time modes by their values (composition's fallback)
  CompositionStep steps[96];
  int n = 0;
  int leaf = 0;  // the rhs leaf being composed
  COTILE_HD constexpr void add(const CompositionStep& s) {
    if (n < 96) steps[n++] = s;
  }
};

namespace detail {

// composition_impl(lhs, rhs) for a flat (coalesced) lhs and a rhs layout.
//   rhs a tuple:           distribute over the rhs modes (right-distributivity)
//   rhs stride static _0:  rhs itself
//   lhs an integer mode:   rhs_shape : rhs_stride * lhs_stride
//   otherwise (lhs flat tuple, rhs integral): walk the lhs modes 0..R-2 keeping the remaining
//   rhs shape and stride. Mode i (shape s_i, stride d_i) first absorbs the stride
//       next_shape  = ceil_div(s_i, |rest_stride|)
//       next_stride = ceil_div(|rest_stride|, s_i) * signum(rest_stride)
//   then, unless next_shape or rest_shape is a static _1, contributes the mode
//       min(next_shape, rest_shape) : rest_stride * d_i,   rest_shape /= that shape.
//   What is left of the rhs lands in the last lhs mode: rest_shape : rest_stride * d_(R-1).
// Requires (checked where both values are static, as CuTe does; on run-time values the law of
// composition decides, laws/composition.hpp):
//   rest_stride % s_i == 0 or rest_stride < s_i    (stride divisibility)
//   rest_shape % new_shape == 0                    (shape divisibility)
// quiet: a violated divisibility requirement sets *quiet and returns _1:_0 instead of refusing.
COTILE_HD constexpr Layout composition_impl(const Layout& lhs, const Layout& rhs, const Layout& orig_lhs,
                                            CompositionTrace* tr = nullptr, bool* quiet = nullptr) {
  if (rhs.shape.is_tuple()) {
    LayoutList r;
    for (int i = 0; i < rhs.rank(); ++i) {
      r.push_back(composition_impl(lhs, rhs.get(i), orig_lhs, tr, quiet));
      if (quiet && *quiet) return Layout{};
    }
    return r.layout();
  }
  // Whether a violated divisibility requirement returns quietly (else it refuses the inputs).
  auto quietly = [quiet] {
    if (quiet) *quiet = true;
    return quiet != nullptr;
  };
  const Int rs = rhs.shape.value(), rd = rhs.stride.value();
  const int leaf = tr ? tr->leaf++ : 0;
  auto note = [&](CompositionStep::Action a, int mode, CompositionStep::Rule rule, const Int& cs, const Int& cd,
                  const Int& rsh, const Int& rst, const Int& ns, const Int& nd, const Int& nw) {
    if (tr) tr->add(CompositionStep{leaf, mode, a, rule, cs, cd, rsh, rst, ns, nd, nw});
  };
  if (is_constant(rd, 0)) {
    note(CompositionStep::kStaticZeroStride, 0, CompositionStep::kNone, {}, {}, rs, rd, {}, {}, {});
    return rhs;
  }
  if (lhs.shape.is_leaf()) {
    note(CompositionStep::kIntegralLhs, 0, CompositionStep::kNone, lhs.shape.value(), lhs.stride.value(), rs, rd, {},
         {}, {});
    return Layout{int_tuple(rs), int_tuple(rd * lhs.stride.value())};
  }

  const int r = lhs.rank();
  IntTuple result_shape = IntTuple::tuple(), result_stride = IntTuple::tuple();
  Int rest_shape = rs, rest_stride = rd;
  for (int i = 0; i < r - 1; ++i) {
    const Int curr_shape = lhs.shape.mode_value(i), curr_stride = lhs.stride.mode_value(i);
    const Int abs_rest = abs(rest_stride);
    if (curr_shape.value <= 0)
      fail("composition", "the lhs has a mode of size <= 0", "shapes must be positive", arg("lhs", orig_lhs),
           arg("lhs mode", Layout{int_tuple(curr_shape), int_tuple(curr_stride)}));
    if (decidable(abs_rest, abs_rest) && abs_rest.value == 0)
      fail("composition", "the rhs stride is a run-time 0, which no lhs mode can divide",
           "use a static _0 stride for broadcast modes", arg("lhs", orig_lhs), arg("rhs", rhs));
    if (rest_stride.is_static && curr_shape.is_static &&
        !(rest_stride.value % curr_shape.value == 0 || rest_stride.value < curr_shape.value)) {
      if (quietly()) return Layout{};
      // nvcc quotes only the first line of a failing constexpr call: the rule stays on it
      // clang-format off
      fail("composition", "stride divisibility violated: the rhs stride must be a multiple of the lhs mode size or smaller than it",
           "make the rhs stride step over whole lhs modes, or reshape the lhs so a mode boundary falls on it",
           arg("lhs", orig_lhs), arg("rhs", rhs), arg("lhs mode", Layout{int_tuple(curr_shape), int_tuple(curr_stride)}),
           arg("rhs stride at this mode", rest_stride));
      // clang-format on
    }
    const Int next_shape = ceil_div(curr_shape, abs_rest);
    const Int next_stride = ceil_div(abs_rest, curr_shape) * signum(rest_stride);
    const CompositionStep::Rule rule = rest_stride.value % curr_shape.value == 0 ? CompositionStep::kStrideDivides
                                                                                 : CompositionStep::kStrideBelowShape;
    if (is_constant(next_shape, 1) || is_constant(rest_shape, 1)) {
      note(CompositionStep::kSkip, i, rule, curr_shape, curr_stride, rest_shape, rest_stride, next_shape, next_stride,
           {});
      rest_stride = next_stride;
      continue;
    }
    const Int new_shape = min(next_shape, rest_shape);
    if (new_shape.value <= 0)
      fail("composition", "the rhs has a mode of size <= 0", "shapes must be positive", arg("lhs", orig_lhs),
           arg("rhs", rhs));
    if (rest_shape.is_static && new_shape.is_static && rest_shape.value % new_shape.value != 0) {
      if (quietly()) return Layout{};
      fail("composition", "shape divisibility violated: the rhs shape must be divisible by the lhs mode it lands in",
           "choose an rhs shape that splits evenly across the lhs modes", arg("lhs", orig_lhs), arg("rhs", rhs),
           arg("lhs mode", Layout{int_tuple(curr_shape), int_tuple(curr_stride)}),
           arg("remaining rhs shape", rest_shape));
    }
    note(CompositionStep::kTake, i, rule, curr_shape, curr_stride, rest_shape, rest_stride, next_shape, next_stride,
         new_shape);
    result_shape.push_back(int_tuple(new_shape));
    result_stride.push_back(int_tuple(rest_stride * curr_stride));
    rest_shape = rest_shape / new_shape;
    rest_stride = next_stride;
  }
  const Int last_stride = lhs.stride.mode_value(r - 1);
  note(CompositionStep::kRest, r - 1, CompositionStep::kNone, lhs.shape.mode_value(r - 1), last_stride, rest_shape,
       rest_stride, {}, {}, {});
  if (result_shape.rank() == 0) return Layout{int_tuple(rest_shape), int_tuple(rest_stride * last_stride)};
  if (is_constant(rest_shape, 1)) return Layout{unwrap(result_shape), unwrap(result_stride)};
  result_shape.push_back(int_tuple(rest_shape));
  result_stride.push_back(int_tuple(rest_stride * last_stride));
  return Layout{result_shape, result_stride};
}

}  // namespace detail

// composition(A, B): R(c) = A(B(c)) for every c in the domain of B; shape(R) is compatible with
// shape(B). A is first coalesced (keeping its function beyond its domain).
// Law: size(R) = size(B) and R(c) = A(B(c)) for c < size(B), A evaluated beyond its size as
// crd2idx does. It holds when each leaf of B meets A's modes evenly and B's leaves' offsets
// within each mode of A never add up past it; otherwise it is checked point by point
// (laws/composition.hpp).
// Requires: the static divisibility conditions of composition_impl.
// CuTe joins A's modes only where that is statically known, so a run-time A whose modes join by
// value (s_i * d_i = d_(i+1), or an extent 1 below the last) can make B's strides meet the modes
// unevenly where the static form of the same values composes: composition((4,2):(8,32), 2:5) is
// not A o B as CuTe computes it, while A = (_4,_2):(_8,_32) coalesces to _8:_8 and gives _2:_40.
// Where CuTe's R breaks the law, Options::by_value (the calculator's default) composes again with
// A coalesced by its values (coalesce_x_by_value, the same function) and returns that R when it
// satisfies the law; otherwise CuTe's R is refused (strict and as_cute: kept).
COTILE_HD constexpr Layout composition(const Layout& a, const Layout& b, Options opt = {},
                                       CompositionTrace* tr = nullptr) {
  const Layout flat = coalesce_x(a);
  if (tr) tr->lhs_coalesced = flat;
  const Layout r = detail::composition_impl(flat, b, a, tr);
  if (opt.by_value && !opt.strict && !opt.as_cute && laws::known(a) && laws::known(b)) {
    const LawReport rep = laws::composition(a, flat, b, r);
    if (rep.holds) return r;
    const Layout by_value = coalesce_x_by_value(a);
    if (!(by_value == flat)) {
      bool refused = false;
      const Layout r2 = detail::composition_impl(by_value, b, a, nullptr, &refused);
      if (!refused && laws::composition(a, by_value, b, r2).holds) {
        if (tr) {
          *tr = CompositionTrace{};
          tr->lhs_coalesced = by_value;
          tr->by_value = true;
          detail::composition_impl(by_value, b, a, tr);
        }
        return r2;
      }
    }
    fail_law(rep);
  }
  return lawful(
      opt, [&] { return laws::composition(a, flat, b, r); }, r);
}

// composition(A, n) for an integer n: the first n elements of A, i.e. A o (n:_1).
COTILE_HD constexpr Layout composition(const Layout& a, const Int& n, Options opt = {}) {
  return composition(a, make_layout(int_tuple(n), int_tuple(static_int(1))), opt);
}

// composition(A, T) for a tile: mode k of A composed with T_k ('_' keeps it); the modes of A
// beyond rank(T) are dropped. Requires rank(T) <= rank(A).
COTILE_HD constexpr Layout composition(const Layout& a, const Tile& t, Options opt = {}) {
  if (t.is_leaf()) {
    const TileLeaf& x = t.value();
    if (x.kind == TileLeaf::kUnderscore) return a;
    if (x.kind == TileLeaf::kInt) return composition(a, x.integer(), opt);
    return composition(a, x.layout, opt);
  }
  if (t.rank() > a.rank())
    fail("composition", "the tile has more modes than the layout", "drop tile modes or use a layout tiler",
         arg("layout", a), arg("tile", t));
  LayoutList r;
  for (int i = 0; i < t.rank(); ++i) r.push_back(composition(a.get(i), t.get(i), opt));
  return r.layout();
}

}  // namespace cotile
