// The orders in which CuTe's complement and inverses visit modes, shared by the algorithms and
// the proofs of their laws (which must follow the same order).
#pragma once

#include "../int_tuple.hpp"

namespace cotile::detail {

// Index of the smallest stride (the first one on ties), comparing run-time values: the mode
// complement takes next. (decided_less: on a symbolic stride, the order taken is recorded and
// checked on the values, int.hpp.)
COTILE_HD constexpr int argmin(const IntTuple& d) {
  int best = 0;
  for (int i = 1; i < d.rank(); ++i)
    if (decided_less(d.mode_value(i), d.mode_value(best))) best = i;
  return best;
}

// Indices 0..n-1 sorted by key with CuTe's exchange sort (swap when a later key is smaller; not
// stable on ties): the order of right_inverse and left_inverse. Keys are values (the laws') or
// the algorithms' strides, each comparison of those a decided_less.
COTILE_HD constexpr bool key_less(int64_t a, int64_t b) { return a < b; }
COTILE_HD constexpr bool key_less(const Int& a, const Int& b) { return decided_less(a, b); }
template <class K>
COTILE_HD constexpr void exchange_sort(K* key, int* val, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (key_less(key[j], key[i])) {
        const K tk = key[i];
        key[i] = key[j];
        key[j] = tk;
        const int tv = val[i];
        val[i] = val[j];
        val[j] = tv;
      }
}

}  // namespace cotile::detail
