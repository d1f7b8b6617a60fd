// Integer tuples (shapes, strides, coordinates) and their algebra.
//
// An IntTuple is an Int or a tuple of IntTuples: (_2,(4,_8)). Every function below states its
// definition; staticness of results follows int.hpp (static iff decided by static inputs alone).
#pragma once

#include "int.hpp"
#include "tree.hpp"

#include <string>

namespace cotile {

using IntTuple = Tree<Int, kMaxLeaves, kMaxNodes>;

// CuTe print format: _8, 8, (_2,4), ((_2,_4),8). No spaces.
inline std::string to_string(const IntTuple& t) {
  if (t.is_leaf()) return to_string(t.value());
  std::string s = "(";
  for (int i = 0; i < t.rank(); ++i) s += (i ? "," : "") + to_string(t.get(i));
  return s + ")";
}

// --- construction ---------------------------------------------------------------------------

// int_tuple(x): the integer x as an IntTuple (a leaf); an IntTuple is returned unchanged.
COTILE_HD constexpr IntTuple int_tuple(const Int& x) { return IntTuple::leaf(x); }
COTILE_HD constexpr const IntTuple& int_tuple(const IntTuple& t) { return t; }

// make_tuple(x, y, ...) = (x,y,...); each argument an Int or an IntTuple:
// make_tuple(static_int(4), make_tuple(dynamic_int(2), static_int(8))) is (_4,(2,_8)).
template <class... Ts>
COTILE_HD constexpr IntTuple make_tuple(const Ts&... xs) {
  IntTuple t;
  (t.push_back(int_tuple(xs)), ...);
  return t;
}

// wrap(x) = (x) for an integer, x for a tuple.
COTILE_HD constexpr IntTuple wrap(const IntTuple& t) { return t.is_leaf() ? make_tuple(t) : t; }

// unwrap((x)) = unwrap(x); other values unchanged.
COTILE_HD constexpr IntTuple unwrap(const IntTuple& t) {
  return (t.is_tuple() && t.rank() == 1) ? unwrap(t.get(0)) : t;
}

// append(t, x): t with x as a new last mode; an integer t becomes (t, x).
template <class T>
COTILE_HD constexpr T append(const T& t, const T& x) {
  T r = t.is_leaf() ? T::tuple() : t;
  if (t.is_leaf()) r.push_back(t);
  r.push_back(x);
  return r;
}

// prepend(t, x): (x, t...); an integer t becomes (x, t).
template <class T>
COTILE_HD constexpr T prepend(const T& t, const T& x) {
  T r = t.is_leaf() ? T::tuple() : t;
  if (t.is_leaf()) r.push_back(t);
  r.insert_mode(0, x);
  return r;
}

// take(t, b, e): the modes [b, e) as a tuple.
template <class T>
COTILE_HD constexpr T take(const T& t, int b, int e) {
  T r = T::tuple();
  for (int i = b; i < e; ++i) r.push_back(t.get(i));
  return r;
}

// remove(t, i): t without mode i.
template <class T>
COTILE_HD constexpr T remove(const T& t, int i) {
  T r = T::tuple();
  for (int k = 0; k < t.rank(); ++k)
    if (k != i) r.push_back(t.get(k));
  return r;
}

// replace(t, i, x): t with mode i replaced by x. For an integer t, replace(t, 0, x) = x.
template <class T>
COTILE_HD constexpr T replace(const T& t, int i, const T& x) {
  if (t.is_leaf()) {
    if (i != 0) fail("replace", "mode index out of range for an integer (rank 1)", nullptr, arg("index", i));
    return x;
  }
  if (i < 0 || i >= t.rank())
    fail("replace", "mode index out of range", nullptr, arg("index", i), arg("rank", t.rank()));
  T r = t;
  r.replace_mode(i, x);
  return r;
}

// group(t, b, e): modes [b, e) grouped into one mode: (t0..t(b-1), (tb..t(e-1)), te..). An empty
// range groups nothing (b = e: the modes unchanged, CuTe's group<B,B>; an integer becomes (t)).
template <class T>
COTILE_HD constexpr T group(const T& t, int b, int e) {
  const int r = t.rank();
  if (b < 0 || e > r || b > e)
    fail("group", "requires 0 <= B <= E <= rank", nullptr, arg("B", b), arg("E", e), arg("rank", r));
  T out = T::tuple();
  for (int k = 0; k < b; ++k) out.push_back(t.get(k));
  if (b < e) out.push_back(take(t, b, e));
  for (int k = e; k < r; ++k) out.push_back(t.get(k));
  return out;
}

// flatten(t): the leaves of t as a flat tuple; an integer stays an integer.
template <class T>
COTILE_HD constexpr T flatten(const T& t) {
  if (t.is_leaf()) return t;
  T r = T::tuple();
  for (int k = 0; k < t.num_leaves(); ++k) r.push_back(T::leaf(t.leaf_at(k)));
  return r;
}

// repeat_like(t, x): t's structure with every leaf replaced by x.
COTILE_HD constexpr IntTuple repeat_like(const IntTuple& t, const Int& x) {
  return t.map([x](const Int&) { return x; });
}

// --- reductions -----------------------------------------------------------------------------

// product(t) = t0 * t1 * ... over all leaves (left fold); product(()) = _1.
COTILE_HD constexpr Int product(const IntTuple& t) {
  if (t.num_leaves() == 0) return static_int(1);
  Int p = t.leaf_at(0);
  for (int k = 1; k < t.num_leaves(); ++k) p = p * t.leaf_at(k);
  return p;
}
COTILE_HD constexpr Int size(const IntTuple& t) { return product(t); }

// sum(t) = _0 + t0 + t1 + ...
COTILE_HD constexpr Int sum(const IntTuple& t) {
  Int s = static_int(0);
  for (int k = 0; k < t.num_leaves(); ++k) s = s + t.leaf_at(k);
  return s;
}

// rank(t): number of top-level modes (_1 for an integer). Always static.
COTILE_HD constexpr Int rank(const IntTuple& t) { return static_int(t.rank()); }

// depth(t): _0 for an integer, 1 + max depth of the modes for a tuple. Always static.
COTILE_HD constexpr int depth_of(const IntTuple& t) {
  if (t.is_leaf()) return 0;
  int d = 0;
  for (int i = 0; i < t.rank(); ++i) {
    const int di = depth_of(t.get(i));
    d = di > d ? di : d;
  }
  return 1 + d;
}
COTILE_HD constexpr Int depth(const IntTuple& t) { return static_int(depth_of(t)); }

// product_each(t) = (product(t0), product(t1), ...); an integer gives the rank-1 tuple (t).
COTILE_HD constexpr IntTuple product_each(const IntTuple& t) {
  const IntTuple w = wrap(t);
  IntTuple r = IntTuple::tuple();
  for (int i = 0; i < w.rank(); ++i) r.push_back(int_tuple(product(w.get(i))));
  return r;
}

// product_like(t, g): g's nesting with, at each leaf of g, the product of t's subtree there
// (product_each is product_like(t, the rank-1 profile of t)).      Requires g weakly congruent to t
//   product_like(((_2,_3),_4), (_1,_1)) = (_6,_4);  product_like((_2,_3), _1) = _6
COTILE_HD constexpr IntTuple product_like(const IntTuple& t, const IntTuple& g) {
  if (g.is_leaf()) return int_tuple(product(t));
  if (t.is_leaf() || t.rank() != g.rank())
    fail("product_like", "the guide must be weakly congruent to the tuple", nullptr, arg("tuple", t), arg("guide", g));
  IntTuple r = IntTuple::tuple();
  for (int i = 0; i < g.rank(); ++i) r.push_back(product_like(t.get(i), g.get(i)));
  return r;
}

// elem_scale(a, b): a's nesting with each leaf a_i scaled by the product of b's subtree there.
//   Requires a weakly congruent to b.      elem_scale((_2,3), ((_2,_2),4)) = (_8,12)
COTILE_HD constexpr IntTuple elem_scale(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return int_tuple(a.value() * product(b));
  if (b.is_leaf() || a.rank() != b.rank())
    fail("elem_scale", "a must be weakly congruent to b", nullptr, arg("a", a), arg("b", b));
  IntTuple r = IntTuple::tuple();
  for (int i = 0; i < a.rank(); ++i) r.push_back(elem_scale(a.get(i), b.get(i)));
  return r;
}

// --- division -------------------------------------------------------------------------------

// The fold of b over a's modes (ceil_div, shape_div of a tuple by an integer) divides what is left
// of b by mode i before the modes after it: a mode of 0 there leaves it undefined.
COTILE_HD constexpr void check_fold_mode(const char* op, const IntTuple& a, const IntTuple& b, int i) {
  if (known_equal(product(a.get(i)), 0))
    fail(op, "a mode of a before its last is 0, so what is left of b for the modes after it is undefined", nullptr,
         arg("a", a), arg("b", b), arg("mode", int64_t(i)));
}

// ceil_div(a, b):
//   int / int:     the least integer not below a / b (CuTe's (a + b - 1) / b where b > 0 and a > -b)
//   tuple / tuple: elementwise; missing modes of b are _1         Requires rank(a) >= rank(b)
//   tuple / int:   fold b across the modes of a left to right:
//                  r_i = ceil_div(a_i, b_i), b_(i+1) = ceil_div(b_i, a_i)
//   int / tuple:   ceil_div(a, product(b))
COTILE_HD constexpr IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    IntTuple r = IntTuple::tuple();
    if (b.is_tuple()) {
      if (a.rank() < b.rank()) fail("ceil_div", "rank(a) must be >= rank(b)", nullptr, arg("a", a), arg("b", b));
      for (int i = 0; i < a.rank(); ++i)
        r.push_back(ceil_div(a.get(i), i < b.rank() ? b.get(i) : int_tuple(static_int(1))));
    } else {
      IntTuple rest = b;  // what is left of b to divide the modes after a_i by
      for (int i = 0; i < a.rank(); ++i) {
        r.push_back(ceil_div(a.get(i), rest));
        if (i + 1 == a.rank()) break;  // (nothing left to divide: a last mode of 0 is fine)
        check_fold_mode("ceil_div", a, b, i);
        rest = ceil_div(rest, a.get(i));
      }
    }
    return r;
  }
  if (b.is_tuple()) return ceil_div(a, int_tuple(product(b)));
  if (b.value().value == 0) fail("ceil_div", "division by zero", nullptr, arg("a", a), arg("b", b));
  return int_tuple(ceil_div(a.value(), b.value()));
}

// shape_div(a, b): division for shapes.
//   int / int:     a / b, rounded away from zero     Requires a % b == 0 or b % a == 0
//                  (so a / b where b divides a, else signum(a) signum(b), as CuTe computes it)
//   tuple / tuple: elementwise                       Requires rank(a) == rank(b)
//   tuple / int:   fold b across the modes of a: r_i = shape_div(a_i, b_i), b_(i+1) = shape_div(b_i, a_i)
//                  e.g. shape_div((4,5,6), 40) = (1,1,3)
//   int / tuple:   shape_div(a, product(b))
COTILE_HD constexpr IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    IntTuple r = IntTuple::tuple();
    if (b.is_tuple()) {
      if (a.rank() != b.rank()) fail("shape_div", "rank(a) must equal rank(b)", nullptr, arg("a", a), arg("b", b));
      for (int i = 0; i < a.rank(); ++i) r.push_back(shape_div(a.get(i), b.get(i)));
    } else {
      IntTuple rest = b;  // what is left of b to divide the modes after a_i by
      for (int i = 0; i < a.rank(); ++i) {
        r.push_back(shape_div(a.get(i), rest));
        if (i + 1 == a.rank()) break;  // (nothing left to divide: a last mode of 0 is fine)
        check_fold_mode("shape_div", a, b, i);
        rest = shape_div(rest, a.get(i));
      }
    }
    return r;
  }
  if (b.is_tuple()) return shape_div(a, int_tuple(product(b)));
  const Int x = a.value(), y = b.value();
  if (y.value == 0) fail("shape_div", "division by zero", nullptr, arg("a", a), arg("b", b));
  // (n % -1 is 0, but computed it overflows at n = -2^63; x = 0 is a multiple of y, never a divisor)
  const auto divides = [](int64_t d, int64_t n) { return d == -1 || n % d == 0; };
  if (decidable(x, y) && !divides(y.value, x.value) && !divides(x.value, y.value))
    fail("shape_div", "divisibility condition a % b == 0 or b % a == 0 violated", nullptr, arg("a", a), arg("b", b));
  const Int q = x / y;
  const Int r = q + equal(q, static_int(0)) * signum(x) * signum(y);
  return int_tuple(r.is_static && !(x.is_static && y.is_static) ? dynamic_int(r.value) : r);
}

// inner_product(a, b) = _0 + a0*b0 + a1*b1 + ... over congruent a and b (CuTe's fold from Int<0>):
// static when every product is.                  Requires a and b congruent
COTILE_HD constexpr Int inner_product(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() && b.is_leaf()) return a.value() * b.value();
  if (a.is_leaf() || b.is_leaf() || a.rank() != b.rank())
    fail("inner_product", "a and b must be congruent", nullptr, arg("a", a), arg("b", b));
  Int r = static_int(0);
  for (int i = 0; i < a.rank(); ++i) r = r + inner_product(a.get(i), b.get(i));
  return r;
}

// prefix_product(a, init = _1): exclusive prefix products congruent to a (CuTe's, without the
// _1 -> _0 rule of compact strides).
//   tuple, int:   r_i = prefix_product(a_i, init), init = init * product(a_i)
//   tuple, tuple: elementwise                      Requires rank(a) == rank(init)
//   int, int:     init                             (int, tuple: an error)
COTILE_HD constexpr IntTuple prefix_product(const IntTuple& a, const IntTuple& init) {
  if (a.is_leaf()) {
    if (init.is_tuple())
      fail("prefix_product", "init must be an integer for an integer a", nullptr, arg("a", a), arg("init", init));
    return init;
  }
  IntTuple r = IntTuple::tuple();
  if (init.is_tuple()) {
    if (a.rank() != init.rank())
      fail("prefix_product", "rank(a) must equal rank(init)", nullptr, arg("a", a), arg("init", init));
    for (int i = 0; i < a.rank(); ++i) r.push_back(prefix_product(a.get(i), init.get(i)));
    return r;
  }
  Int running = init.value();
  for (int i = 0; i < a.rank(); ++i) {
    r.push_back(prefix_product(a.get(i), int_tuple(running)));
    running = running * product(a.get(i));
  }
  return r;
}
COTILE_HD constexpr IntTuple prefix_product(const IntTuple& a) { return prefix_product(a, int_tuple(static_int(1))); }

// --- comparison -----------------------------------------------------------------------------

// congruent(a, b): a and b have the same profile (nesting structure). Always static.
COTILE_HD constexpr bool is_congruent(const IntTuple& a, const IntTuple& b) { return a.same_profile(b); }
COTILE_HD constexpr Int congruent(const IntTuple& a, const IntTuple& b) {
  return static_int(is_congruent(a, b) ? 1 : 0);
}

// is_static(t): every leaf of t is a compile-time integer.
COTILE_HD constexpr bool is_static(const IntTuple& t) {
  for (int k = 0; k < t.num_leaves(); ++k)
    if (!t.leaf_at(k).is_static) return false;
  return true;
}

// compatible(a, b): every coordinate of a is a coordinate of b.
//   tuple/tuple: equal rank and all modes compatible (rank mismatch: static _0)
//   int a:       a == size(b)
//   tuple a, int b: static _0
// Mode results are combined with a left-folded logical AND starting from static true.
COTILE_HD constexpr Int compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple()) {
    if (a.rank() != b.rank()) return static_int(0);
    Int r = static_int(1);
    for (int i = 0; i < a.rank(); ++i) r = logical_and(r, compatible(a.get(i), b.get(i)));
    return r;
  }
  if (a.is_leaf()) return equal(a.value(), size(b));
  return static_int(0);
}

// weakly_congruent(a, b): a's profile is b's with some subtrees collapsed to an integer (a <= b,
// a partial order; congruent(a, b) is weakly_congruent both ways):
//   int a:          _1 (an integer stands for any subtree)
//   tuple/tuple:    equal rank and every mode of a weakly congruent to b's (else _0)
//   tuple a, int b: _0
// Always static (the profiles are).  (_2,_3) <= (_4,(_1,_6));  (_2) !<= _4;  (_2,_3) !<= (_2,_3,_1)
COTILE_HD constexpr bool is_weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return true;
  if (b.is_leaf() || a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!is_weakly_congruent(a.get(i), b.get(i))) return false;
  return true;
}
COTILE_HD constexpr Int weakly_congruent(const IntTuple& a, const IntTuple& b) {
  return static_int(is_weakly_congruent(a, b) ? 1 : 0);
}

// elem_less(a, b): every leaf of a is < the corresponding leaf of b.
//   tuple/tuple: elem_less(a0,b0) && elem_less(a1,b1) && ... ; true if a runs out first,
//                false if b runs out first (right-nested AND)
//   int/int:     a < b
COTILE_HD constexpr Int elem_less(const IntTuple& a, const IntTuple& b, int from = 0) {
  if (a.is_tuple() && b.is_tuple()) {
    if (from == a.rank()) return static_int(1);
    if (from == b.rank()) return static_int(0);
    return logical_and(elem_less(a.get(from), b.get(from)), elem_less(a, b, from + 1));
  }
  if (a.is_leaf() && b.is_leaf()) return less(a.value(), b.value());
  fail("elem_less", "a and b must be congruent (an integer cannot be compared with a tuple)", nullptr, arg("a", a),
       arg("b", b));
}

// lex_less(a, b): a comes before b when their leaves are read as digits, the first leaf most
// significant; colex_less(a, b): the last leaf most significant (the order of idx2crd's indices).
// From the least significant leaf up: r = x < y || (x == y && r), as the engine's booleans
// (static where the leaves are).                       Requires a and b with the same profile
COTILE_HD constexpr Int ordered_less(const IntTuple& a, const IntTuple& b, bool first_most_significant,
                                     const char* op) {
  if (!a.same_profile(b)) fail(op, "a and b must have the same profile", nullptr, arg("a", a), arg("b", b));
  const int n = a.num_leaves();
  Int r = static_int(0);
  for (int j = 0; j < n; ++j) {
    const int k = first_most_significant ? n - 1 - j : j;
    const Int x = a.leaf_at(k), y = b.leaf_at(k);
    r = logical_or(less(x, y), logical_and(equal(x, y), r));
  }
  return r;
}
COTILE_HD constexpr Int lex_less(const IntTuple& a, const IntTuple& b) { return ordered_less(a, b, true, "lex_less"); }
COTILE_HD constexpr Int colex_less(const IntTuple& a, const IntTuple& b) {
  return ordered_less(a, b, false, "colex_less");
}

// --- coordinates ----------------------------------------------------------------------------

COTILE_HD constexpr Int crd2idx_rest(const Int& c, const IntTuple& s, const IntTuple& d, int i);

// An integer index is read mode by mode, divided by the extents: one of 0 leaves it no coordinate
// (the layout is empty). Named here, before the division's own "division by zero".
COTILE_HD constexpr void check_index_extent(const char* op, const Int& extent, const IntTuple& s) {
  if (known_equal(extent, 0))
    fail(op, "the shape has an extent 0: it is empty, so no index has a coordinate", "evaluate only non-empty layouts",
         arg("shape", s));
}

// crd2idx(c, S, D): the index of coordinate c in shape S with strides D.
//   int c, int S:       c * D
//   tuple c, tuple S:   sum_i crd2idx(c_i, S_i, D_i)                  (left fold)
//   int c, tuple S:     crd2idx(c % size(S_0), S_0, D_0) + crd2idx(c / size(S_0), (S_1..), (D_1..))
//                       the last mode takes the whole remainder (right-nested sum)
COTILE_HD constexpr Int crd2idx(const IntTuple& c, const IntTuple& s, const IntTuple& d) {
  if (c.is_tuple()) {
    if (!s.is_tuple() || c.rank() != s.rank() || s.rank() != d.rank())
      fail("crd2idx", "coordinate rank must match the shape rank", nullptr, arg("coord", c), arg("shape", s),
           arg("stride", d));
    if (c.rank() == 0) return static_int(0);
    Int r = crd2idx(c.get(0), s.get(0), d.get(0));
    for (int i = 1; i < c.rank(); ++i) r = r + crd2idx(c.get(i), s.get(i), d.get(i));
    return r;
  }
  if (s.is_tuple()) {
    if (!d.is_tuple() || s.rank() != d.rank())
      fail("crd2idx", "shape and stride must be congruent", nullptr, arg("shape", s), arg("stride", d));
    if (s.rank() == 0) return static_int(0);
    return crd2idx_rest(c.value(), s, d, 0);
  }
  if (!d.is_leaf()) fail("crd2idx", "shape and stride must be congruent", nullptr, arg("shape", s), arg("stride", d));
  return c.value() * d.value();
}
// Helper: an integer coordinate over modes [i, rank) of tuple s.
COTILE_HD constexpr Int crd2idx_rest(const Int& c, const IntTuple& s, const IntTuple& d, int i) {
  if (i == s.rank() - 1) return crd2idx(int_tuple(c), s.get(i), d.get(i));
  const Int p = product(s.get(i));
  check_index_extent("crd2idx", p, s);
  return crd2idx(int_tuple(c % p), s.get(i), d.get(i)) + crd2idx_rest(c / p, s, d, i + 1);
}

// idx2crd(c, S): the natural (colexicographic) coordinate of index c in shape S.
//   tuple c: mode by mode;  int c, int S: c
//   int c, tuple S: c_0 = c % size(S_0), rest = c / size(S_0), recursively; the last mode takes
//                   the remainder without a modulus.
COTILE_HD constexpr IntTuple idx2crd(const IntTuple& c, const IntTuple& s) {
  if (c.is_tuple()) {
    if (!s.is_tuple() || c.rank() != s.rank())
      fail("idx2crd", "coordinate rank must match the shape rank", nullptr, arg("coord", c), arg("shape", s));
    IntTuple r = IntTuple::tuple();
    for (int i = 0; i < c.rank(); ++i) r.push_back(idx2crd(c.get(i), s.get(i)));
    return r;
  }
  if (s.is_leaf()) return c;
  IntTuple r = IntTuple::tuple();
  Int rest = c.value();
  for (int i = 0; i < s.rank(); ++i) {
    const IntTuple si = s.get(i);
    if (i + 1 == s.rank()) {
      r.push_back(idx2crd(int_tuple(rest), si));
    } else {
      const Int p = product(si);
      check_index_extent("idx2crd", p, s);
      r.push_back(idx2crd(int_tuple(rest % p), si));
      rest = rest / p;
    }
  }
  return r;
}

// --- compact strides ------------------------------------------------------------------------

// compact_major(S, current, left): compact strides for shape S starting at `current`.
// Column-major (left) visits the leaves left to right, row-major right to left; a leaf gets the
// running stride, which is then multiplied by its shape, except a static _1 leaf, which gets _0.
COTILE_HD constexpr IntTuple compact_major(const IntTuple& s, Int current, bool left) {
  IntTuple r = s;
  const int n = s.num_leaves();
  for (int k = 0; k < n; ++k) {
    const int i = left ? k : n - 1 - k;
    const Int si = s.leaf_at(i);
    if (is_constant(si, 1)) {
      r.leaf_at(i) = static_int(0);
    } else {
      r.leaf_at(i) = current;
      current = current * si;
    }
  }
  return r;
}
COTILE_HD constexpr IntTuple compact_col_major(const IntTuple& s, Int current = static_int(1)) {
  return compact_major(s, current, true);
}
COTILE_HD constexpr IntTuple compact_row_major(const IntTuple& s, Int current = static_int(1)) {
  return compact_major(s, current, false);
}

// idx2crd(c, S, D): the coordinate of index c in a compact S:D, CuTe's three-argument form.
//   int c, int S, int D:       (c / D) % S; 0 for a shape 1 (no division by a 0 stride); refused
//                              for a stride 0 of a larger shape (CuTe divides by it)
//   int c, tuple S, tuple D:   mode by mode, each from the whole index
//   int c, tuple S, int D:     D is the start of S's compact column-major strides
//   tuple c, tuple S, tuple D: mode by mode                Requires equal ranks
COTILE_HD constexpr IntTuple idx2crd(const IntTuple& c, const IntTuple& s, const IntTuple& d) {
  if (c.is_tuple()) {
    if (!s.is_tuple() || c.rank() != s.rank() || !d.is_tuple() || c.rank() != d.rank())
      fail("idx2crd", "coordinate, shape and stride ranks must match", nullptr, arg("coord", c), arg("shape", s),
           arg("stride", d));
    IntTuple r = IntTuple::tuple();
    for (int i = 0; i < c.rank(); ++i) r.push_back(idx2crd(c.get(i), s.get(i), d.get(i)));
    return r;
  }
  if (s.is_tuple()) {
    const IntTuple strides = d.is_tuple() ? d : compact_col_major(s, d.value());
    if (!strides.is_tuple() || strides.rank() != s.rank())
      fail("idx2crd", "shape and stride ranks must match", nullptr, arg("shape", s), arg("stride", d));
    IntTuple r = IntTuple::tuple();
    for (int i = 0; i < s.rank(); ++i) r.push_back(idx2crd(c, s.get(i), strides.get(i)));
    return r;
  }
  if (d.is_tuple())
    fail("idx2crd", "an integer shape needs an integer stride", nullptr, arg("shape", s), arg("stride", d));
  if (is_constant(s.value(), 1)) return int_tuple(static_int(0));
  check_index_extent("idx2crd", s.value(), s);
  if (known_equal(s.value(), 1)) return int_tuple(Int{0, false});  // a run-time 1: its one coordinate
  if (known_equal(d.value(), 0))
    fail("idx2crd", "a stride of 0 sends every coordinate of the mode to the same index, so no index tells them apart",
         "give the mode a non-zero stride (idx2crd(c, S) for the natural coordinate)", arg("shape", s),
         arg("stride", d));
  return int_tuple((c.value() / d.value()) % s.value());
}

// compact_order(S, O): compact strides whose order of increase follows O (congruent to S).
// Dynamic entries of O are taken as larger than every static one, in left-to-right order.
// The stride of the mode with order o starts at the product of all (flattened) modes whose
// order is strictly smaller; equal orders therefore get equal starting strides.
namespace detail {
// Flatten `s` down to the leaves of the order profile `o`: ref[k] = the k-th sub-shape.
COTILE_HD constexpr void order_leaves(const IntTuple& s, const IntTuple& o, IntTuple& ref) {
  if (o.is_leaf()) {
    ref.push_back(int_tuple(product(s)));
    return;
  }
  if (s.is_leaf() || s.rank() != o.rank())
    fail("make_ordered_layout", "the order must be (weakly) congruent to the shape", nullptr, arg("shape", s),
         arg("order", o));
  for (int i = 0; i < o.rank(); ++i) order_leaves(s.get(i), o.get(i), ref);
}
// Assign strides below each order leaf k, starting at start[k].
COTILE_HD constexpr IntTuple order_assign(const IntTuple& s, const IntTuple& o, const Int* start, int& k) {
  if (o.is_leaf()) return compact_col_major(s, start[k++]);
  IntTuple r = IntTuple::tuple();
  for (int i = 0; i < o.rank(); ++i) r.push_back(order_assign(s.get(i), o.get(i), start, k));
  return r;
}
}  // namespace detail

COTILE_HD constexpr IntTuple compact_order(const IntTuple& s, const IntTuple& o) {
  IntTuple ref = IntTuple::tuple();
  detail::order_leaves(s, o, ref);
  const int n = o.num_leaves();
  // Reference orders: static orders as given; dynamic ones replaced by max_static + 1 + position.
  int64_t max_order = 0;
  for (int k = 0; k < n; ++k)
    if (o.leaf_at(k).is_static && o.leaf_at(k).value > max_order) max_order = o.leaf_at(k).value;
  int64_t ord[kMaxLeaves] = {};
  for (int k = 0; k < n; ++k) ord[k] = o.leaf_at(k).is_static ? o.leaf_at(k).value : max_order + 1 + k;
  Int start[kMaxLeaves] = {};
  for (int k = 0; k < n; ++k) {
    Int p = static_int(1);
    for (int j = 0; j < n; ++j) p = p * (ord[j] < ord[k] ? ref.leaf_at(j) : static_int(1));
    start[k] = p;
  }
  int k = 0;
  return detail::order_assign(s, o, start, k);
}

// coalesce_shape(S): merge neighbouring leaves of equal staticness by multiplication, left to
// right; a single remaining leaf is returned as an integer. e.g. (_2,_4,8,2,_3) -> (_8,16,_3)
COTILE_HD constexpr IntTuple coalesce_shape(const IntTuple& t) {
  if (t.is_leaf()) return t;
  IntTuple acc = IntTuple::tuple();
  for (int k = 0; k < t.num_leaves(); ++k) {
    const Int a = t.leaf_at(k);
    const int last = acc.rank() - 1;
    if (last >= 0 && acc.mode_value(last).is_static == a.is_static)
      acc = replace(acc, last, int_tuple(acc.mode_value(last) * a));
    else acc.push_back(int_tuple(a));
  }
  return unwrap(acc);
}

// filter_zeros(d, s): s with every leaf whose corresponding d leaf is a static _0 replaced by _1.
COTILE_HD constexpr IntTuple filter_zeros(const IntTuple& d, const IntTuple& s) {
  IntTuple r = s;
  for (int k = 0; k < s.num_leaves(); ++k)
    if (is_constant(d.leaf_at(k), 0)) r.leaf_at(k) = static_int(1);
  return r;
}

// zip(t): for t = ((a0,a1,..),(b0,b1,..),..) whose modes all have rank r: ((a0,b0,..),(a1,b1,..),..).
template <class T>
COTILE_HD constexpr T zip(const T& t) {
  if (t.is_leaf()) return t;
  if (t.rank() == 0 || t.get(0).is_leaf()) return prepend(T::tuple(), t);
  const int r = t.get(0).rank();
  T out = T::tuple();
  for (int j = 0; j < r; ++j) {
    T m = T::tuple();
    for (int i = 0; i < t.rank(); ++i) {
      const T ti = t.get(i);
      if (ti.rank() != r) fail("zip", "all modes must have the same rank", nullptr);
      m.push_back(ti.get(j));
    }
    out.push_back(m);
  }
  return out;
}

}  // namespace cotile
