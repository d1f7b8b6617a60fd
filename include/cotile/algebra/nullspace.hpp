// The nullspace of a layout: the indices its static-_0-stride modes send to 0.
#pragma once

#include "../laws/message.hpp"
#include "options.hpp"

namespace cotile {

namespace laws {

inline constexpr const char* kNullspaceLaw = "K(i) distinct indices of L with L(K(i)) = 0";

// The law for K = nullspace(L): for i < size(K), 0 <= K(i) < size(L), the K(i) distinct, and
// L(K(i)) = 0. It holds by construction where L has an index (its extents >= 1): K's modes are
// L's static-_0-stride modes at their own place values, every other coordinate 0. An empty L has
// no index, and CuTe's K (_1:_0 or the zero-stride modes) names some.
COTILE_HD constexpr LawReport nullspace(const Layout& l, const Layout& k) {
  LawReport rep = holding("nullspace", kNullspaceLaw, known(l) && known(k));
  if (rep.deferred) return rep;
  const Flat fl = flat(l), fk = flat(k);
  if (fl.size() > 0 || fk.size() == 0) return proven(rep);
  LawReport f = failed("nullspace", kNullspaceLaw);
  f.message.add(" at i = 0 (K(0) = ").num(fk(0)).add(", not an index of L: size(L) = 0)");
  line(f, "L", l);
  cute(f, k);
  fix(f, "L is empty, so no index of it maps to 0: test for an empty layout before taking its nullspace");
  return f;
}

}  // namespace laws

// nullspace(L) = K: the indices of L's domain whose coordinates are 0 on every mode of L but its
// static-_0-stride ones, as a layout: the shapes of flatten(L)'s modes of stride _0, with their
// prefix products in L's shape as strides; _1:_0 when there is none (CuTe's).
// Law (above): K(i) are distinct indices of L (0 <= K(i) < size(L)) and L(K(i)) = 0, for
// i < size(K); size(K) = size(L) / size(filter(L)). By construction where L is not empty.
COTILE_HD constexpr Layout nullspace(const Layout& l, Options opt = {}) {
  const Layout f = flatten(l);
  const IntTuple pre = prefix_product(f.shape);
  IntTuple s = IntTuple::tuple(), d = IntTuple::tuple();
  for (int k = 0; k < f.shape.num_leaves(); ++k)
    if (is_constant(f.stride.leaf_at(k), 0))
      s.push_back(int_tuple(f.shape.leaf_at(k))), d.push_back(int_tuple(pre.leaf_at(k)));
  const Layout r =
      s.rank() == 0 ? Layout{int_tuple(static_int(1)), int_tuple(static_int(0))} : Layout{unwrap(s), unwrap(d)};
  return lawful(
      opt, [&] { return laws::nullspace(l, r); }, r);
}

}  // namespace cotile
