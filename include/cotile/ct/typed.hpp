// The typed layer: CuTe-style static integers, tuples, layouts and tensors for kernels.
//
// Static parts live in the type (template arguments: specs), dynamic parts in the object
// (int64_t slots). Every algorithm is the engine's, evaluated at compile time on the specs with
// symbolic dynamic leaves (see spec.hpp); at run time only the recorded integer program runs.
#pragma once

#include <type_traits>
#include <utility>

#include "error.hpp"
#include "integer.hpp"
#include "spec.hpp"
#include "tuple.hpp"

#include <cstdio>
#include <string>

namespace cotile::ct {

// --- heterogeneous packs: make_shape / make_stride / make_coord / make_tile are ct::tuples ----

template <class... Ts>
using Pack = tuple<Ts...>;
template <class... Ts>
COTILE_HD constexpr Pack<Ts...> make_pack(const Ts&... xs) {
  return Pack<Ts...>(xs...);
}

template <class... Ts>
COTILE_HD constexpr auto make_shape(const Ts&... xs) {
  return make_pack(xs...);
}
template <class... Ts>
COTILE_HD constexpr auto make_stride(const Ts&... xs) {
  return make_pack(xs...);
}
template <class... Ts>
COTILE_HD constexpr auto make_coord(const Ts&... xs) {
  return make_pack(xs...);
}
template <class... Ts>
COTILE_HD constexpr auto make_tile(const Ts&... xs) {
  return make_pack(xs...);
}

// --- typed tuples and layouts ---------------------------------------------------------------

template <int N>
struct Slots {
  int64_t v[N] = {};
  COTILE_HD constexpr int64_t* data() { return v; }
  COTILE_HD constexpr const int64_t* data() const { return v; }
};
template <>
struct Slots<0> {
  COTILE_HD constexpr int64_t* data() { return nullptr; }
  COTILE_HD constexpr const int64_t* data() const { return nullptr; }
};

// An integer tuple whose structure and static leaves are S (a TupleSpec).
template <auto S>
struct Tuple {
  static constexpr auto spec = S;
  Slots<S.slots> dyn;
};

template <auto S>
struct TypedLayout;

// --- argument traits: how each typed value enters the engine ------------------------------------

template <class T, class = void>
struct Arg;

template <int64_t N>
struct Arg<Int<N>> {
  static constexpr int slots = 0;
  using value_type = int;
  static constexpr EInt engine_int(Tape*, int, const int64_t* = nullptr) { return static_int(N); }
  static constexpr IntTuple engine_tuple(Tape* t, int f, const int64_t* v = nullptr) {
    return int_tuple(engine_int(t, f, v));
  }
  static constexpr ETile engine_tile(Tape* t, int f, const int64_t* v = nullptr) {
    return tile_int(engine_int(t, f, v));
  }
  template <class V>
  COTILE_HD static constexpr void gather(const Int<N>&, V*) {}
};

// A standard integral constant: the static integer of its value.
template <class T, T V>
struct Arg<std::integral_constant<T, V>, std::enable_if_t<is_static_int<std::integral_constant<T, V>>::value>>
    : Arg<Int<int64_t(V)>> {
  template <class W>
  COTILE_HD static constexpr void gather(const std::integral_constant<T, V>&, W*) {}
};

template <class T>
struct Arg<T, std::enable_if_t<std::is_integral_v<T>>> {
  static constexpr int slots = 1;
  using value_type = std::conditional_t<(sizeof(T) > 4), int64_t, int>;
  static constexpr EInt engine_int(Tape* t, int f, const int64_t* v = nullptr) {
    return t ? t->input(f) : dynamic_int(v ? v[f] : 0);
  }
  static constexpr IntTuple engine_tuple(Tape* t, int f, const int64_t* v = nullptr) {
    return int_tuple(engine_int(t, f, v));
  }
  static constexpr ETile engine_tile(Tape* t, int f, const int64_t* v = nullptr) {
    return tile_int(engine_int(t, f, v));
  }
  template <class V>
  COTILE_HD static constexpr void gather(const T& x, V* out) {
#if !defined(__CUDA_ARCH__)
    using Wide = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;  // (bool, char too)
    if (!std::in_range<V>(Wide(x)))
      fail("typed layer", "a run-time integer does not fit the integer type its operation computes in",
           "pass values below 2^63 as int64_t", arg("value", std::to_string(Wide(x)).c_str()));
#endif
    out[0] = V(x);
  }
};

template <>
struct Arg<Underscore> {
  static constexpr int slots = 0;
  using value_type = int;
  static constexpr ETile engine_tile(Tape*, int, const int64_t* = nullptr) { return tile_underscore(); }
  template <class V>
  COTILE_HD static constexpr void gather(const Underscore&, V*) {}
};

template <auto S>
struct Arg<Tuple<S>> {
  static constexpr int slots = S.slots;
  using value_type = std::conditional_t<(S.slots > 0), int64_t, int>;
  static constexpr IntTuple engine_tuple(Tape* t, int f, const int64_t* v = nullptr) {
    return t ? expand(S, nullptr, t, f) : expand(S, v ? v + f : nullptr, nullptr, 0);
  }
  static constexpr ETile engine_tile(Tape* t, int f, const int64_t* v = nullptr) {
    return tile_of_shape(engine_tuple(t, f, v));
  }
  template <class V>
  COTILE_HD static constexpr void gather(const Tuple<S>& x, V* out) {
    for (int k = 0; k < S.slots; ++k) out[k] = V(x.dyn.data()[k]);
  }
};

template <auto S>
struct Arg<TypedLayout<S>> {
  static constexpr int slots = S.slots();
  using value_type = std::conditional_t<(S.slots() > 0), int64_t, int>;
  static constexpr ::cotile::Layout engine_layout(Tape* t, int f, const int64_t* v = nullptr) {
    if (!t)
      return ::cotile::Layout{expand(S.shape, v ? v + f : nullptr, nullptr, 0),
                              expand(S.stride, v ? v + f : nullptr, nullptr, 0)};
    return ::cotile::Layout{expand(S.shape, nullptr, t, f), expand(S.stride, nullptr, t, f)};
  }
  static constexpr ETile engine_tile(Tape* t, int f, const int64_t* v = nullptr) {
    return tile_layout(engine_layout(t, f, v));
  }
  template <class V>
  COTILE_HD static constexpr void gather(const TypedLayout<S>& x, V* out) {
    for (int k = 0; k < slots; ++k) out[k] = V(x.dyn.data()[k]);
  }
};

// A tuple: its elements' trees as the modes, their slots one after the other.
template <class... Ts>
struct Arg<tuple<Ts...>> {
  static constexpr int slots = (0 + ... + Arg<Ts>::slots);
  using value_type = std::common_type_t<int, typename Arg<Ts>::value_type...>;
  // (The empty tuple () reads none of its arguments: [[maybe_unused]].)
  static constexpr IntTuple engine_tuple([[maybe_unused]] Tape* t, int f, [[maybe_unused]] const int64_t* v = nullptr) {
    IntTuple r = IntTuple::tuple();
    [[maybe_unused]] int at = f;
    ((r.push_back(Arg<Ts>::engine_tuple(t, at, v)), at += Arg<Ts>::slots), ...);
    return r;
  }
  static constexpr ETile engine_tile([[maybe_unused]] Tape* t, int f, [[maybe_unused]] const int64_t* v = nullptr) {
    ETile r = ETile::tuple();
    [[maybe_unused]] int at = f;
    ((r.push_back(Arg<Ts>::engine_tile(t, at, v)), at += Arg<Ts>::slots), ...);
    return r;
  }
  template <class V>
  COTILE_HD static constexpr void gather(const tuple<Ts...>& x, V* out) {
    gather_each(x, out, std::index_sequence_for<Ts...>{});
  }

 private:
  template <class V, size_t... Is>
  COTILE_HD static constexpr void gather_each([[maybe_unused]] const tuple<Ts...>& x, [[maybe_unused]] V* out,
                                              std::index_sequence<Is...>) {
    [[maybe_unused]] int at = 0;
    ((Arg<Ts>::gather(get<Is>(x), out + at), at += Arg<Ts>::slots), ...);
  }
};

template <class T>
using ArgOf = Arg<std::remove_cv_t<std::remove_reference_t<T>>>;

// --- lifting an engine operation ------------------------------------------------------------

// A law's message as a compile-time string on one line (the run-time message's lines joined by "; ").
template <size_t N>
constexpr Message<N> law_message(const Text& t) {
  Message<N> m;
  size_t o = 0;
  for (int k = 0; k < t.n && o + 1 < N; ++k) {
    if (t.buf[k] == '\n' && k + 2 < t.n && t.buf[k + 1] == ' ' && t.buf[k + 2] == ' ') {
      m.text[o++] = ';';
      if (o + 1 < N) m.text[o++] = ' ';
      k += 2;
      continue;
    }
    m.text[o++] = t.buf[k];
  }
  return m;
}

// Engine arguments of kind K for typed arguments Ts, with their first input slots.
enum class Kind { kInt, kTuple, kLayout, kTile };

// With a tape: symbolic dynamic leaves; without: the values vals[first ...] (the gathered inputs).
template <Kind K, class T>
COTILE_HD constexpr auto engine_arg(Tape* t, int first, const int64_t* vals = nullptr) {
  if constexpr (K == Kind::kInt) return ArgOf<T>::engine_int(t, first, vals);
  else if constexpr (K == Kind::kTuple) return ArgOf<T>::engine_tuple(t, first, vals);
  else if constexpr (K == Kind::kLayout) return ArgOf<T>::engine_layout(t, first, vals);
  else return ArgOf<T>::engine_tile(t, first, vals);
}

// An operation's options during the symbolic evaluation: CuTe's refusals (strict), and laws that
// fail recorded in `log` (the typed layer turns them into a compile error whose first line is
// the message) or deferred to run time when they depend on dynamic values.
template <class Op>
constexpr Op configured(LawLog* log) {
  Op op{};
  if constexpr (requires { op.opt; }) op.opt = Options{true, true, log};
  return op;
}

template <class... Ts>
struct SlotOffsets {
  static constexpr int total = (0 + ... + ArgOf<Ts>::slots);
  static constexpr int at(int i) {
    const int s[] = {ArgOf<Ts>::slots..., 0};
    int o = 0;
    for (int k = 0; k < i; ++k) o += s[k];
    return o;
  }
};

// Lifted<Op, Kinds, Ts...>: Op{}(engine args...) evaluated symbolically at compile time.
template <class Op, class KindList, class... Ts>
struct Lifted;

template <Kind... Ks>
struct Kinds {};

template <class Op, Kind... Ks, class... Ts>
struct Lifted<Op, Kinds<Ks...>, Ts...> {
  template <size_t... Is>
  static constexpr Raw eval(std::index_sequence<Is...>) {
    Tape tape;
    LawLog log;
    const auto r = configured<Op>(&log)(engine_arg<Ks, Ts>(&tape, SlotOffsets<Ts...>::at(int(Is)))...);
    Raw raw = make_raw(r, tape);
    raw.law_deferred = log.deferred > 0 || tape.unchecked;
    if (log.count > 0) raw.law.add(log.kept[0].message);
    return raw;
  }
  static constexpr Raw raw = eval(std::index_sequence_for<Ts...>{});
  // A law the static values violate: the compile error's first line is its message.
  static constexpr bool law_holds = Require<raw.law.n == 0, law_message<raw.law.n + 1>(raw.law)>::value;
  // Laws and preconditions that depend on dynamic values: checked on the host at run time (and on
  // the device with COTILE_DEVICE_CHECKS), by the engine on the values.
  static constexpr bool law_deferred = raw.law_deferred;
  // The engine on the values: its preconditions and law checked, and its result, which the typed
  // result must equal (apply_lifted).
  template <size_t... Is>
  COTILE_HD static constexpr auto on_values(const int64_t* vals, std::index_sequence<Is...>) {
    return Op{}(engine_arg<Ks, Ts>(nullptr, SlotOffsets<Ts...>::at(int(Is)), vals)...);
  }
  static constexpr auto program = program_of<raw.tape.n, raw.outs>(raw);
  // Whether the program checks decisions taken on run-time values (int.hpp, assume): then it runs
  // even where the result is a static integer.
  static constexpr bool assumes = checks_decisions(program);
  // The name errors give: the operation's own (Op::name), else the layer's.
  static constexpr const char* name() {
    if constexpr (requires { Op::name; }) return Op::name;
    else return "typed layer";
  }
  static constexpr int inputs = SlotOffsets<Ts...>::total;
  using value_type = std::common_type_t<int, typename ArgOf<Ts>::value_type...>;
  // What the result is, as plain constants (device code may use these, not `raw` itself).
  static constexpr bool is_layout = raw.is_layout;
  static constexpr bool is_leaf = raw.shape.is_leaf();
  // (a layout is never a static leaf: its stride may be dynamic even when its shape is _N)
  static constexpr bool is_static_leaf = !raw.is_layout && is_leaf && raw.shape.value().is_static;
  static constexpr int64_t leaf_value = is_leaf ? raw.shape.value().value : 0;
  static constexpr int nodes = raw.shape.num_nodes(), leaves = raw.shape.num_leaves();
  static constexpr auto tuple = tuple_spec<nodes, leaves>(raw.shape, 0);
  static constexpr auto layout = LayoutSpec<nodes, leaves>{tuple, tuple_spec<nodes, leaves>(raw.stride, tuple.slots)};

  template <size_t... Is>
  COTILE_HD COTILE_INLINE static constexpr void gather([[maybe_unused]] value_type* in, std::index_sequence<Is...>,
                                                       const Ts&... xs) {
    (ArgOf<Ts>::gather(xs, in + SlotOffsets<Ts...>::at(int(Is))), ...);
  }
};

// The typed result of a lifted operation from its gathered inputs: a static Int, a dynamic
// int64_t, a Tuple or a Layout.
template <class L, class V>
COTILE_HD COTILE_INLINE constexpr auto lifted_result([[maybe_unused]] const V* in) {
  constexpr int outs = decltype(L::program)::outs;
  V res[outs > 0 ? outs : 1] = {};
  if constexpr (!L::is_static_leaf || L::assumes) run<L::program, V>(in, res);
  if constexpr (L::is_layout) {
    TypedLayout<L::layout> out{};
    for (int k = 0; k < outs; ++k) out.dyn.data()[k] = int64_t(res[k]);
    return out;
  } else if constexpr (L::is_static_leaf) {
    return Int<L::leaf_value>{};
  } else if constexpr (L::is_leaf) {
    return res[0];
  } else {
    Tuple<L::tuple> out{};
    for (int k = 0; k < outs; ++k) out.dyn.data()[k] = int64_t(res[k]);
    return out;
  }
}

// The typed result equals the engine's on the values. It can differ only where the compile-time
// evaluation decided on a value it did not have (an order of run-time strides, a run-time extent
// of 0 or 1: decided_equal and decided_less record the decision on the tape, int.hpp).
template <class R, class E>
COTILE_HD constexpr void check_same_result(const char* op, const R& typed, const E& eng) {
  const auto refuse = [&](const auto& typed_value) {
    fail(op,
         "the result fixed at compile time differs from the engine's on the run-time values: the algorithm decided "
         "on a run-time value (an order of strides, an extent of 0 or 1) that the compile-time evaluation did not "
         "have",
         "make the values it decides on static (Int<N>), or compute on the values with the engine (cotile::)",
         arg("typed result", typed_value), arg("engine's result", eng));
  };
  if constexpr (requires { R::spec; }) {  // a TypedLayout or a Tuple
    if (!(engine(typed) == eng)) refuse(engine(typed));
  } else {  // an integer; the engine's result an Int, or an IntTuple that is one integer
    bool same = false;
    if constexpr (requires { eng.is_leaf(); }) same = eng.is_leaf() && eng.value().value == int64_t(typed);
    else same = eng.value == int64_t(typed);
    if (!same) refuse(int64_t(typed));
  }
}

// Apply a lifted operation. Where its law or a precondition depends on run-time values, or the
// compile-time evaluation decided on one (law_deferred), the engine runs on the values first (host;
// the device too with COTILE_DEVICE_CHECKS): its refusals are the call's, and its result must be
// the typed one.
template <class L, class... Ts>
COTILE_HD COTILE_INLINE constexpr auto apply_lifted(const Ts&... xs) {
  using V = typename L::value_type;
  static_assert(L::law_holds);
  V in[L::inputs > 0 ? L::inputs : 1] = {};
  L::gather(in, std::index_sequence_for<Ts...>{}, xs...);
  if constexpr (L::law_deferred) {
#if !defined(__CUDA_ARCH__) || defined(COTILE_DEVICE_CHECKS)
    if (!__builtin_is_constant_evaluated()) {
      int64_t vals[L::inputs > 0 ? L::inputs : 1] = {};
      for (int k = 0; k < L::inputs; ++k) vals[k] = int64_t(in[k]);
      const auto eng = L::on_values(vals, std::index_sequence_for<Ts...>{});
      const auto r = lifted_result<L>(in);
      check_same_result(L::name(), r, eng);
      return r;
    }
#endif
  }
  return lifted_result<L>(in);
}

template <class Op, Kind... Ks, class... Ts>
COTILE_HD COTILE_INLINE constexpr auto lift(const Ts&... xs) {
  return apply_lifted<Lifted<Op, Kinds<Ks...>, Ts...>>(xs...);
}

// --- Layout ---------------------------------------------------------------------------------

namespace op {
struct Eval {
  constexpr EInt operator()(const ::cotile::Layout& l, const IntTuple& c) const { return eval(l, c); }
};
}  // namespace op

namespace op {
struct HierCoord;  // layout.hpp
}  // namespace op

// A layout whose structure and static leaves are S (a LayoutSpec), its dynamic leaves in `dyn`:
// what make_layout and every layout operation return. CuTe's spelling of the type,
// Layout<Shape, Stride>, names the same types (layout.hpp).
template <auto S>
struct TypedLayout {
  static constexpr auto spec = S;
  Slots<S.slots()> dyn;

  // L(c): the offset of a coordinate (an integer index or a hierarchical coordinate).
  template <class C>
  COTILE_HD COTILE_INLINE constexpr auto operator()(const C& c) const {
    return lift<op::Eval, Kind::kLayout, Kind::kTuple>(*this, c);
  }
  template <class C0, class C1, class... Cs>
  COTILE_HD constexpr auto operator()(const C0& c0, const C1& c1, const Cs&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }
  // The hierarchical coordinate of index i: L(get_hier_coord(i)) == i for a compact L (the
  // engine's idx2crd(i, shape, stride), CuTe's member).
  template <class Idx>
  COTILE_HD COTILE_INLINE constexpr auto get_hier_coord(const Idx& i) const {
    return lift<op::HierCoord, Kind::kLayout, Kind::kInt>(*this, i);
  }
};

// The engine value of a typed layout (host or device; concrete dynamic values).
template <auto S>
COTILE_HD constexpr ::cotile::Layout engine(const TypedLayout<S>& l) {
  return ::cotile::Layout{expand(S.shape, l.dyn.data(), nullptr, 0), expand(S.stride, l.dyn.data(), nullptr, 0)};
}
template <auto S>
COTILE_HD constexpr IntTuple engine(const Tuple<S>& t) {
  return expand(S, t.dyn.data(), nullptr, 0);
}

template <class T>
struct is_layout : std::false_type {};
template <auto S>
struct is_layout<TypedLayout<S>> : std::true_type {};

}  // namespace cotile::ct
