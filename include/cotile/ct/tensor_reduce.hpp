// Reductions of typed tensors (CuTe's), element by element over the layouts' 1-D index:
//   reduce(t, init, op = plus)       op(... op(op(init, t(0)), t(1)) ..., t(n-1))
//   batch_reduce(src, dst, op)       src (RED, BATCH), dst (BATCH): dst(j) = reduce(src(_, j), dst(j), op)
//   logical_reduce(src, dst, p, op)  batch_reduce over src's modes re-grouped by the profile p
//                                    (weakly congruent to src's shape): the modes where p holds an
//                                    integer are reduced, those where it is '_' are the batch, each
//                                    in preorder (p an integer: all reduced; '_': none)
// Sizes: size<1>(src) == size(dst), checked (a compile error when static, else at run time).
#pragma once

#include "tensor_algorithms.hpp"

namespace cotile::ct {

// CuTe's functional objects for the algorithms' operators.
struct plus {
  template <class A, class B>
  COTILE_HD constexpr auto operator()(const A& a, const B& b) const {
    return a + b;
  }
};
struct multiplies {
  template <class A, class B>
  COTILE_HD constexpr auto operator()(const A& a, const B& b) const {
    return a * b;
  }
};

template <tensor_like Src, class T, class Op = plus>
COTILE_HD COTILE_INLINE constexpr T reduce(const Src& src, T init, Op op = {}) {
  detail::for_index(size(src.layout()), [&](int64_t i) { init = op(init, src(i)); });
  return init;
}

template <tensor_like Src, class Dst, class Op = plus>
COTILE_HD COTILE_INLINE constexpr void batch_reduce(const Src& src, Dst&& dst, Op op = {}) {
  static_assert(decltype(rank(src.layout()))::value == 2, "batch_reduce(src, dst): src is (reduced, batch): rank 2");
  const auto n = detail::common_size(make_tensor(src.data(), layout<1>(src.layout())), dst, "batch_reduce");
  detail::for_index(n, [&](int64_t j) { dst(j) = reduce(src(_, j), dst(j), op); });
}

namespace detail {
// The modes of L where the profile P holds an integer (Reduced) or '_' (not Reduced), preorder,
// as a tuple of layouts: P is weakly congruent to L's shape (a tuple entry recurses into its mode).
template <bool Reduced, class P, class L>
COTILE_HD COTILE_INLINE constexpr auto profile_parts(const L& l) {
  if constexpr (std::is_same_v<P, Underscore>) {
    if constexpr (Reduced) return tuple<>{};
    else return make_tuple(l);
  } else if constexpr (!is_tuple_like_v<P>) {
    if constexpr (Reduced) return make_tuple(l);
    else return tuple<>{};
  } else {
    static_assert(tuple_size<P>::value == decltype(rank(l))::value,
                  "logical_reduce(src, dst, profile): the profile has one entry per mode of src (weakly congruent)");
    return [&]<size_t... Is>(std::index_sequence<Is...>) {
      return tuple_cat(profile_parts<Reduced, std::remove_cvref_t<tuple_element_t<Is, P>>>(layout<int(Is)>(l))...);
    }
    (std::make_index_sequence<tuple_size<P>::value>{});
  }
}
// Those modes as one layout, _1:_0 when there is none.
template <bool Reduced, class P, class L>
COTILE_HD COTILE_INLINE constexpr auto profile_modes(const L& l) {
  const auto parts = profile_parts<Reduced, P>(l);
  if constexpr (tuple_size<std::remove_cv_t<decltype(parts)>>::value == 0) return Layout<_1, _0>{};
  else return apply(parts, [](const auto&... ls) { return make_layout(ls...); });
}
}  // namespace detail

template <tensor_like Src, class Dst, class Profile, class Op = plus>
COTILE_HD COTILE_INLINE constexpr void logical_reduce(const Src& src, Dst&& dst, const Profile&, Op op = {}) {
  const auto red = detail::profile_modes<true, Profile>(src.layout());
  const auto batch = detail::profile_modes<false, Profile>(src.layout());
  batch_reduce(make_tensor(src.data(), make_layout(red, batch)), dst, op);
}

}  // namespace cotile::ct
