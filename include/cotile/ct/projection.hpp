// Projections (CuTe's dice with a Step): the modes of a tiler, coordinate or thread layout that a
// step keeps, so that one (M, N, K) tiler and one thread layout serve A, B and C:
//   dice(c, t)    t's modes where c is not X (= _), in order; a tuple step recurses into its mode
//   local_tile(t, tiler, coord, step)      = local_tile(t, dice(step, tiler), dice(step, coord))
//   local_partition(t, thr, i, step)       = local_partition(t, dice(step, thr), i)
// e.g. with tiler (BM, BN, BK), coord (m, n, _): Step<_1, X, _1> gives A's (BM, BK) tile at (m, _).
// A diced thread layout keeps its strides, so thread i's coordinate in it is (i / d) % s per mode:
// its row in a (16,16):(1,16) grid with Step<_1, X>, its column with Step<X, _1>.
#pragma once

#include <utility>

#include "tensor.hpp"
#include "tuple_algorithms.hpp"

namespace cotile::ct {

using X = Underscore;  // CuTe's name for a mode a Step leaves out

namespace detail {
template <class C>
inline constexpr bool is_underscore_v = std::is_same_v<std::remove_cvref_t<C>, Underscore>;

// The indices of C's modes that are not X, as an index_sequence.
template <class C, size_t I = 0, size_t... Kept>
constexpr auto kept_modes() {
  if constexpr (I == tuple_size<C>::value) return std::index_sequence<Kept...>{};
  else if constexpr (is_underscore_v<tuple_element_t<I, C>>) return kept_modes<C, I + 1, Kept...>();
  else return kept_modes<C, I + 1, Kept..., I>();
}
}  // namespace detail

template <class C, class T>
COTILE_HD COTILE_INLINE constexpr auto dice(const C& c, const T& t) {
  if constexpr (detail::is_underscore_v<C>) {
    return tuple<>{};
  } else if constexpr (!is_tuple_like_v<C>) {
    return make_tuple(t);
  } else if constexpr (is_layout_v<T>) {
    static_assert(tuple_size<C>::value == decltype(rank(t))::value,
                  "dice(step, layout): the step has one entry per mode of the layout");
    return [&]<size_t... K>(std::index_sequence<K...>) {
      static_assert((!is_tuple_like_v<tuple_element_t<K, C>> && ...),
                    "dice(step, layout): a step on a layout is flat (X or an integer per mode)");
      return select<int(K)...>(t);
    }
    (detail::kept_modes<C>());
  } else {
    static_assert(tuple_size<C>::value == tuple_size<std::remove_cvref_t<decltype(detail::tuple_of(t))>>::value,
                  "dice(step, tuple): the step has one entry per element of the tuple");
    return [&]<size_t... K>(std::index_sequence<K...>) {
      const auto& u = detail::tuple_of(t);
      return make_tuple([&]() {
        if constexpr (is_tuple_like_v<tuple_element_t<K, C>>) return dice(get<K>(c), get<K>(u));
        else return get<K>(u);
      }()...);
    }
    (detail::kept_modes<C>());
  }
}

template <class Iter, class L, class Tiler, class Coord, class Step>
requires is_tuple_like_v<Step> COTILE_HD COTILE_INLINE constexpr auto local_tile(const Tensor<Iter, L>& t,
                                                                                 const Tiler& tiler, const Coord& coord,
                                                                                 const Step& step) {
  return local_tile(t, dice(step, tiler), dice(step, coord));
}

template <class Iter, class L, class ThrLayout, class Idx, class Step>
requires is_tuple_like_v<Step> COTILE_HD COTILE_INLINE constexpr auto local_partition(const Tensor<Iter, L>& t,
                                                                                      const ThrLayout& thr,
                                                                                      const Idx& i, const Step& step) {
  return local_partition(t, dice(step, thr), i);
}

}  // namespace cotile::ct
