// Compile-time descriptions of engine values, and the programs that compute their dynamic
// leaves. This is how the typed layer stays one implementation with the engine:
//
//   1. at compile time, the engine runs on the argument specs, with every dynamic leaf a
//      symbolic input of a Tape (int.hpp);
//   2. the result's structure and static leaves become a Spec (a template argument), and the
//      tape becomes a Program that computes the result's dynamic leaves from the arguments';
//   3. at run time (host or device) only the Program runs: a few integer operations.
#pragma once

#include <type_traits>

#include "../cotile.hpp"

namespace cotile::ct {

using EInt = ::cotile::Int;    // the engine's integer (ct::Int<N> is the static integer type)
using ETile = ::cotile::Tile;  // the engine's tiler (ct::Tile<...> is CuTe's tuple of tilers)
using ::cotile::IntTuple;

// A tuple's structure (preorder codes) and leaves; a dynamic leaf holds its slot number.
template <int NN, int NL>
struct TupleSpec {
  int8_t code[NN] = {};
  int64_t val[NL > 0 ? NL : 1] = {};
  bool is_static[NL > 0 ? NL : 1] = {};
  int slots = 0;  // dynamic leaves
  static constexpr int nodes = NN, leaves = NL;
};

template <int NN, int NL>
struct LayoutSpec {
  TupleSpec<NN, NL> shape, stride;  // slots: the shape's, then the stride's
  static constexpr int nodes = NN, leaves = NL;
  constexpr int slots() const { return shape.slots + stride.slots; }
};

// --- engine value <-> spec --------------------------------------------------------------------

// The spec of an engine tuple whose dynamic leaves are numbered from `first_slot`.
template <int NN, int NL>
constexpr TupleSpec<NN, NL> tuple_spec(const IntTuple& t, int first_slot = 0) {
  TupleSpec<NN, NL> s{};
  for (int k = 0; k < NN; ++k) s.code[k] = t.code_at(k);
  for (int k = 0; k < NL; ++k) {
    const EInt x = t.leaf_at(k);
    s.is_static[k] = x.is_static;
    s.val[k] = x.is_static ? x.value : first_slot + s.slots++;
  }
  return s;
}

// The engine tuple of a spec; dynamic leaves come from `dyn` (concrete) or a tape (symbolic).
template <class Spec>
constexpr IntTuple expand(const Spec& s, const int64_t* dyn, Tape* tape, int first_input) {
  IntTuple t;
  t.nodes_ = uint8_t(Spec::nodes);
  t.leaves_ = uint8_t(Spec::leaves);
  for (int k = 0; k < Spec::nodes; ++k) t.code_[k] = s.code[k];
  for (int k = 0; k < Spec::leaves; ++k) {
    if (s.is_static[k]) t.leaf_[k] = static_int(s.val[k]);
    else if (tape) t.leaf_[k] = tape->input(first_input + int(s.val[k]));
    else t.leaf_[k] = dynamic_int(dyn ? dyn[s.val[k]] : 0);
  }
  return t;
}

// --- programs -------------------------------------------------------------------------------

template <int N, int M>
struct Program {
  TapeNode node[N > 0 ? N : 1] = {};
  int16_t out[M > 0 ? M : 1] = {};
  static constexpr int nodes = N, outs = M;
};

// Run a program: inputs in `in`, the outputs written to `out`. The loop has a constant trip
// count over constant nodes, so the compiler reduces it to the operations themselves.
// The arithmetic runs in V: the arguments' integer type (int when every dynamic input is an int,
// as CuTe computes with its inputs' types; int64_t as soon as one is 64-bit). On the host each
// node runs through the engine's checked operations (apply, int.hpp) and must fit V: where CuTe's
// int arithmetic would wrap silently, the replay fails naming the operation and its operands.
// On the device the arithmetic is V's own, unchecked.
// Whether a program checks decisions taken on run-time values (kAssume, int.hpp's assume).
template <int N, int M>
constexpr bool checks_decisions(const Program<N, M>& p) {
  for (int k = 0; k < N; ++k)
    if (p.node[k].op == TapeOp::kAssume) return true;
  return false;
}

template <auto P, class V = int64_t>
COTILE_HD COTILE_INLINE constexpr void run(const V* in, V* out) {
  constexpr bool kAssumes = checks_decisions(P);  // only such a program has the test in its loop
  V v[std::remove_cvref_t<decltype(P)>::nodes > 0 ? std::remove_cvref_t<decltype(P)>::nodes : 1] = {};
  COTILE_UNROLL
  for (int k = 0; k < std::remove_cvref_t<decltype(P)>::nodes; ++k) {
    const TapeNode& n = P.node[k];
    if (n.op == TapeOp::kInput) {
      v[k] = in[n.a.value];
      continue;
    }
    const V a = n.a.node >= 0 ? v[n.a.node] : V(n.a.value);
    const V b = n.b.node >= 0 ? v[n.b.node] : V(n.b.value);
    if constexpr (kAssumes) {
      if (n.op == TapeOp::kAssume) {  // a decision taken at compile time (int.hpp, assume): does it hold?
        if ((a != 0) != (b != 0)) {
#if defined(__CUDA_ARCH__)
          __trap();  // the result would be wrong (COTILE_DEVICE_CHECKS names both results first)
#else
          // On the host the typed layer compares the result with the engine's (apply_lifted), which
          // names both; in a constant evaluation this is the compile error.
          if (__builtin_is_constant_evaluated())
            fail("typed layer", "a decision taken at compile time on a run-time value does not hold for its value",
                 "make the values the operation decides on static (Int<N>)");
#endif
        }
        continue;
      }
    }
#if !defined(__CUDA_ARCH__)
    // A run-time divisor of 0 (a dynamic extent of 0): the engine's error, not a trap.
    if ((n.op == TapeOp::kDiv || n.op == TapeOp::kMod) && b == 0)
      fail("typed layer", "division by zero: a run-time value divides by a run-time 0",
           "give the extent a nonzero value", arg("dividend", int64_t(a)));
    const int64_t r = apply(n.op, dynamic_int(int64_t(a)), dynamic_int(int64_t(b))).value;
    if (r != int64_t(V(r)))
      fail("typed layer", "32-bit overflow: a run-time result does not fit the int its arguments are computed in",
           "pass the run-time values as int64_t", arg("operation", tape_op_text(n.op)), arg("a", int64_t(a)),
           arg("b", int64_t(b)), arg("exact result", r));
    v[k] = V(r);
#else
    switch (n.op) {
      case TapeOp::kAdd: v[k] = a + b; break;
      case TapeOp::kSub: v[k] = a - b; break;
      case TapeOp::kMul: v[k] = a * b; break;
      case TapeOp::kDiv: v[k] = a / b; break;
      case TapeOp::kMod: v[k] = a % b; break;
      case TapeOp::kMin: v[k] = a < b ? a : b; break;
      case TapeOp::kMax: v[k] = a < b ? b : a; break;
      case TapeOp::kAbs: v[k] = a < 0 ? -a : a; break;
      case TapeOp::kSignum: v[k] = a > 0 ? 1 : (a < 0 ? -1 : 0); break;
      case TapeOp::kEq: v[k] = a == b; break;
      case TapeOp::kLt: v[k] = a < b; break;
      case TapeOp::kAnd: v[k] = (a != 0) && (b != 0); break;
      case TapeOp::kOr: v[k] = (a != 0) || (b != 0); break;
      default: break;
    }
#endif
  }
  COTILE_UNROLL
  for (int k = 0; k < std::remove_cvref_t<decltype(P)>::outs; ++k) out[k] = v[P.out[k]];
}

// --- the result of one symbolic evaluation --------------------------------------------------

// What a symbolic evaluation returns: the result (dynamic leaves as slots) and its tape.
struct Raw {
  IntTuple shape, stride;  // a tuple result uses `shape` only
  bool is_layout = false;
  Tape tape;
  int16_t out[2 * kMaxLeaves] = {};
  int outs = 0;
  Text law;                   // the message of a law the static values violate ("" when none)
  bool law_deferred = false;  // a law depends on dynamic values
};

namespace detail {
// Replace each symbolic leaf by its output slot and record the node computing it.
constexpr IntTuple take_outputs(const IntTuple& t, Raw& r) {
  IntTuple u = t;
  for (int k = 0; k < t.num_leaves(); ++k) {
    const EInt x = t.leaf_at(k);
    if (x.is_static) {
      u.leaf_at(k) = static_int(x.value);
      continue;
    }
    if (x.sym < 0)
      fail("typed layer", "a dynamic leaf of the result does not come from the arguments",
           "report this as a cotile bug");
    r.out[r.outs] = x.sym;
    u.leaf_at(k) = EInt{r.outs++, false};
  }
  return u;
}
}  // namespace detail

constexpr Raw make_raw(const IntTuple& t, const Tape& tape) {
  Raw r{};
  r.tape = tape;
  r.shape = detail::take_outputs(t, r);
  return r;
}
constexpr Raw make_raw(const Layout& l, const Tape& tape) {
  Raw r{};
  r.tape = tape;
  r.is_layout = true;
  r.shape = detail::take_outputs(l.shape, r);
  r.stride = detail::take_outputs(l.stride, r);
  return r;
}
constexpr Raw make_raw(const EInt& x, const Tape& tape) { return make_raw(int_tuple(x), tape); }

template <int N, int M>
constexpr Program<N, M> program_of(const Raw& r) {
  Program<N, M> p{};
  for (int k = 0; k < N; ++k) p.node[k] = r.tape.node[k];
  for (int k = 0; k < M; ++k) p.out[k] = r.out[k];
  return p;
}

}  // namespace cotile::ct
