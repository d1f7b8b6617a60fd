// Integers that know whether they are static.
//
// CuTe distinguishes compile-time integers (Int<N>, printed _N) from run-time integers (int,
// printed N). cotile represents both as the value type Int and follows CuTe's promotion rules:
// the result of an operation is static when it is determined by static operands alone:
//
//   static op static        -> static            dynamic op anything -> dynamic, except
//   _0 * x, x * _0, _0 / x, _0 % x, x % _1, x % _-1, _0 & x  -> static _0
//   _false && x, x && _false -> static false      _true || x, x || _true -> static true
//
// Multiplying by _1 is not special: _1 * 5 is the dynamic 5.
// Every operation detects 64-bit overflow and division by zero.
#pragma once

#include "config.hpp"
#include "error.hpp"

#include <string>

namespace cotile {

struct Tape;

struct Int {
  int64_t value = 0;
  bool is_static = false;
  // A symbolic run-time value (used when the typed layer evaluates an algorithm at compile time
  // with unknown dynamic leaves): node `sym` of `tape` computes it; `value` is a placeholder 1.
  int16_t sym = -1;
  Tape* tape = nullptr;

  friend COTILE_HD constexpr bool operator==(const Int& a, const Int& b) {
    return a.value == b.value && a.is_static == b.is_static;
  }
};

// A straight-line program recorded while an algorithm runs on symbolic values: each node is an
// operation on earlier nodes, inputs or constants. The typed layer runs it to compute the dynamic
// leaves of a result, so the algorithm itself is written once, in the engine.
// kAssume records a decision the algorithm took on a value the evaluation did not have (assume).
enum class TapeOp : uint8_t {
  kInput,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kMin,
  kMax,
  kAbs,
  kSignum,
  kEq,
  kLt,
  kAnd,
  kOr,
  kAssume
};
// Each operation as an error message names it, in TapeOp's order.
constexpr const char* tape_op_text(TapeOp op) {
  constexpr const char* text[] = {"an input", "a + b",     "a - b",     "a * b",  "a / b",
                                  "a % b",    "min(a, b)", "max(a, b)", "abs(a)", "signum(a)",
                                  "a == b",   "a < b",     "a && b",    "a || b", "the decision a (taken as b)"};
  static_assert(int(sizeof text / sizeof *text) == int(TapeOp::kAssume) + 1, "one text for each TapeOp");
  return text[int(op)];
}
struct TapeRef {
  int16_t node = -1;  // >= 0: a node; otherwise the constant `value`
  int64_t value = 0;
};
struct TapeNode {
  TapeOp op = TapeOp::kInput;
  TapeRef a, b;
};
inline constexpr int kMaxTape = 512;
struct Tape {
  TapeNode node[kMaxTape] = {};
  int16_t n = 0;
  // A precondition the symbolic values could not decide (decidable(), e.g. shape_div's divisibility
  // of a run-time value): the typed layer then runs the engine on the values, as for a deferred law.
  bool unchecked = false;
  COTILE_HD constexpr int16_t push(TapeOp op, TapeRef a, TapeRef b);
  // A new symbolic input: the run-time value of input slot `slot`.
  COTILE_HD constexpr Int input(int slot) {
    const int16_t k = push(TapeOp::kInput, TapeRef{-1, slot}, TapeRef{});
    return Int{1, false, k, this};
  }
};

COTILE_HD constexpr bool is_symbolic(const Int& x) { return x.sym >= 0; }
// A value whose run-time number is known here (static, or an ordinary dynamic value).
COTILE_HD constexpr bool is_known(const Int& x) { return x.is_static || x.sym < 0; }
// Whether a precondition on a and b can be decided here; when a symbolic value leaves it undecided,
// its tape is marked and the typed layer checks it on the values at run time.
COTILE_HD constexpr bool decidable(const Int& a, const Int& b) {
  if (is_known(a) && is_known(b)) return true;
  (a.tape ? a.tape : b.tape)->unchecked = true;
  return false;
}
// Whether x is known here and equals v (is_constant(x, v) asks the same of a static x only): for
// checks (a refusal the engine repeats on the values) and shortcuts that give the value the general
// path gives. A decision that shapes the result uses decided_equal (below).
COTILE_HD constexpr bool known_equal(const Int& x, int64_t v) { return is_known(x) && x.value == v; }

// Constructors by staticness: static_int(128) is CuTe's _128 (Int<128>), dynamic_int(128) the
// run-time 128. (The typed layer's _128 and Int<128> are the compile-time spellings.)
COTILE_HD constexpr Int static_int(int64_t v) { return Int{v, true}; }
COTILE_HD constexpr Int dynamic_int(int64_t v) { return Int{v, false}; }

// is_constant<n>(x): x is static and equals n (CuTe's is_constant<n, T>).
COTILE_HD constexpr bool is_constant(const Int& x, int64_t n) { return x.is_static && x.value == n; }

inline std::string to_string(const Int& x) { return (x.is_static ? "_" : "") + std::to_string(x.value); }

namespace detail {

inline constexpr int64_t kIntMax = 0x7fffffffffffffffLL;
inline constexpr int64_t kIntMin = -kIntMax - 1;

COTILE_HD constexpr int64_t checked_add(int64_t a, int64_t b) {
  if ((b > 0 && a > kIntMax - b) || (b < 0 && a < kIntMin - b))
    fail("integer arithmetic", "64-bit overflow in a + b", "use smaller shapes or strides", arg("a", a), arg("b", b));
  return a + b;
}

COTILE_HD constexpr int64_t checked_sub(int64_t a, int64_t b) {
  if ((b < 0 && a > kIntMax + b) || (b > 0 && a < kIntMin + b))
    fail("integer arithmetic", "64-bit overflow in a - b", "use smaller shapes or strides", arg("a", a), arg("b", b));
  return a - b;
}

// Magnitudes compared in unsigned arithmetic: the product fits iff |a| <= limit / |b|.
COTILE_HD constexpr bool mul_fits(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return true;
  const bool neg = (a < 0) != (b < 0);
  const uint64_t ua = a < 0 ? uint64_t(0) - uint64_t(a) : uint64_t(a);
  const uint64_t ub = b < 0 ? uint64_t(0) - uint64_t(b) : uint64_t(b);
  return ua <= (neg ? uint64_t(kIntMax) + 1 : uint64_t(kIntMax)) / ub;
}

COTILE_HD constexpr int64_t checked_mul(int64_t a, int64_t b) {
  if (!mul_fits(a, b))
    fail("integer arithmetic", "64-bit overflow in a * b", "use smaller shapes or strides", arg("a", a), arg("b", b));
  return a * b;  // fits: the signed product is exact
}

COTILE_HD constexpr void check_divisor(int64_t a, int64_t b, const char* rule) {
  if (b == 0) fail("integer arithmetic", rule, nullptr, arg("a", a), arg("b", b));
  if (a == kIntMin && b == -1)
    fail("integer arithmetic", "64-bit overflow in a / b", nullptr, arg("a", a), arg("b", b));
}

}  // namespace detail

COTILE_HD constexpr int16_t Tape::push(TapeOp op, TapeRef a, TapeRef b) {
  if (n >= kMaxTape)
    fail("typed layer", "the computation of the dynamic leaves is longer than the tape (512 steps)",
         "split the expression into smaller steps");
  node[n] = TapeNode{op, a, b};
  return n++;
}

namespace detail {
COTILE_HD constexpr TapeRef ref(const Int& x) { return x.sym >= 0 ? TapeRef{x.sym, 0} : TapeRef{-1, x.value}; }
// The result of an operation: when it is dynamic and an operand is symbolic, record it.
COTILE_HD constexpr Int result(TapeOp op, const Int& a, const Int& b, int64_t value, bool is_static) {
  if (is_static || (a.sym < 0 && b.sym < 0)) return Int{value, is_static};
  Tape* t = a.tape ? a.tape : b.tape;
  return Int{1, false, t->push(op, ref(a), ref(b)), t};
}
}  // namespace detail

// --- arithmetic with CuTe's staticness rules -------------------------------------------------

COTILE_HD constexpr Int operator+(const Int& a, const Int& b) {
  return detail::result(TapeOp::kAdd, a, b, detail::checked_add(a.value, b.value), a.is_static && b.is_static);
}
COTILE_HD constexpr Int operator-(const Int& a, const Int& b) {
  return detail::result(TapeOp::kSub, a, b, detail::checked_sub(a.value, b.value), a.is_static && b.is_static);
}
COTILE_HD constexpr Int operator*(const Int& a, const Int& b) {
  const bool zero = is_constant(a, 0) || is_constant(b, 0);
  return detail::result(TapeOp::kMul, a, b, zero ? 0 : detail::checked_mul(a.value, b.value),
                        (a.is_static && b.is_static) || zero);
}
// Truncating division (C++ semantics).
COTILE_HD constexpr Int operator/(const Int& a, const Int& b) {
  detail::check_divisor(a.value, b.value, "division by zero in a / b");
  return detail::result(TapeOp::kDiv, a, b, a.value / b.value, (a.is_static && b.is_static) || is_constant(a, 0));
}
COTILE_HD constexpr Int operator%(const Int& a, const Int& b) {
  detail::check_divisor(a.value, b.value, "division by zero in a % b");
  const bool zero = is_constant(a, 0) || is_constant(b, 1) || is_constant(b, -1);
  return detail::result(TapeOp::kMod, a, b, zero ? 0 : a.value % b.value, (a.is_static && b.is_static) || zero);
}
COTILE_HD constexpr Int operator-(const Int& a) { return static_int(0) - a; }

// Booleans are Ints holding 0 or 1 (CuTe prints static ones as _0/_1).
COTILE_HD constexpr Int equal(const Int& a, const Int& b) {
  return detail::result(TapeOp::kEq, a, b, a.value == b.value ? 1 : 0, a.is_static && b.is_static);
}
COTILE_HD constexpr Int less(const Int& a, const Int& b) {
  return detail::result(TapeOp::kLt, a, b, a.value < b.value ? 1 : 0, a.is_static && b.is_static);
}
COTILE_HD constexpr Int logical_and(const Int& a, const Int& b) {
  const bool static_false = is_constant(a, 0) || is_constant(b, 0);
  return detail::result(TapeOp::kAnd, a, b, (!static_false && a.value != 0 && b.value != 0) ? 1 : 0,
                        (a.is_static && b.is_static) || static_false);
}
COTILE_HD constexpr Int logical_or(const Int& a, const Int& b) {
  const bool static_true = (a.is_static && a.value != 0) || (b.is_static && b.value != 0);
  return detail::result(TapeOp::kOr, a, b, (static_true || a.value != 0 || b.value != 0) ? 1 : 0,
                        (a.is_static && b.is_static) || static_true);
}

COTILE_HD constexpr Int abs(const Int& a) {
  if (a.value == detail::kIntMin) fail("integer arithmetic", "64-bit overflow in abs(a)", nullptr, arg("a", a.value));
  return detail::result(TapeOp::kAbs, a, static_int(0), a.value < 0 ? -a.value : a.value, a.is_static);
}
COTILE_HD constexpr Int signum(const Int& a) {
  return detail::result(TapeOp::kSignum, a, static_int(0), a.value > 0 ? 1 : (a.value < 0 ? -1 : 0), a.is_static);
}
COTILE_HD constexpr Int min(const Int& a, const Int& b) {
  return detail::result(TapeOp::kMin, a, b, a.value < b.value ? a.value : b.value, a.is_static && b.is_static);
}
COTILE_HD constexpr Int max(const Int& a, const Int& b) {
  return detail::result(TapeOp::kMax, a, b, a.value < b.value ? b.value : a.value, a.is_static && b.is_static);
}
// Decisions that shape a result (a mode dropped or kept, an order of modes) on values the
// evaluation may not have. On known values they are the comparisons. On a symbolic value (the
// typed layer's compile-time evaluation) the algorithm goes on as CuTe would, and the outcome it
// took is recorded on the tape as an assumption: the run-time program checks it (ct/spec.hpp, run:
// a trap on the device), and the marked tape makes the typed layer compare its result with the
// engine's on the host (ct/typed.hpp, apply_lifted).
COTILE_HD constexpr void assume(const Int& cond, bool holds) {
  if (!is_symbolic(cond)) return;
  cond.tape->unchecked = true;
  cond.tape->push(TapeOp::kAssume, TapeRef{cond.sym, 0}, TapeRef{-1, holds ? 1 : 0});
}
// x == v; a symbolic x is taken as different (the mode kept, as CuTe keeps it).
COTILE_HD constexpr bool decided_equal(const Int& x, const Int& v) {
  if (is_known(x) && is_known(v)) return x.value == v.value;
  assume(equal(x, v), false);
  return false;
}
COTILE_HD constexpr bool decided_equal(const Int& x, int64_t v) { return decided_equal(x, static_int(v)); }
// a < b; a symbolic value is compared by its placeholder (the order written, for equal ones).
COTILE_HD constexpr bool decided_less(const Int& a, const Int& b) {
  const bool r = a.value < b.value;
  if (!(is_known(a) && is_known(b))) assume(less(a, b), r);
  return r;
}
COTILE_HD constexpr Int gcd(const Int& a, const Int& b) {
  if (is_symbolic(a) || is_symbolic(b))
    fail("gcd", "gcd of a run-time value is not supported in the typed layer", "make the operands static");
  int64_t x = a.value < 0 ? -a.value : a.value, y = b.value < 0 ? -b.value : b.value;
  while (y != 0) {
    const int64_t t = x % y;
    x = y;
    y = t;
  }
  return Int{x, a.is_static && b.is_static};
}
// ceil_div(a, b) = the least integer not below a / b (b != 0), for either sign: the truncated
// quotient, plus 1 where the remainder is non-zero and has b's sign. CuTe computes (a + b - 1) / b,
// the same where b > 0 and a > -b (every shape) but not elsewhere (ceil_div(-4, 2) = -1 and
// ceil_div(5, -1) = -3 there), and wrapping near 2^63. Static when a and b are: CuTe's rule, so
// ceil_div(_0, 3) is the run-time 0.
COTILE_HD constexpr Int ceil_div(const Int& a, const Int& b) {
  const Int q = a / b, r = a % b;
  const Int up = !is_known(b)  ? less(static_int(0), signum(r) * signum(b))
                 : b.value > 0 ? less(static_int(0), r)
                               : less(r, static_int(0));
  const Int c = q + up;
  return c.is_static && !(a.is_static && b.is_static) ? dynamic_int(c.value) : c;
}
// round_up(a, b) = ceil_div(a, |b|) |b|: the least multiple of b not below a (b != 0).
COTILE_HD constexpr Int round_up(const Int& a, const Int& b) {
  const Int m = abs(b);
  return ceil_div(a, m) * m;
}
// lcm(a, b) = |a| / gcd(a, b) * |b| (lcm(0, 0) = 0); staticness from those operations.
COTILE_HD constexpr Int lcm(const Int& a, const Int& b) {
  if (known_equal(a, 0) && known_equal(b, 0)) return Int{0, a.is_static && b.is_static};
  return abs(a) / gcd(a, b) * abs(b);
}

// One tape node's operation on concrete values, through the operators above and so with their
// checks (64-bit overflow, division by zero): how the typed layer's host replay computes a node.
COTILE_HD constexpr Int apply(TapeOp op, const Int& a, const Int& b) {
  switch (op) {
    case TapeOp::kAdd: return a + b;
    case TapeOp::kSub: return a - b;
    case TapeOp::kMul: return a * b;
    case TapeOp::kDiv: return a / b;
    case TapeOp::kMod: return a % b;
    case TapeOp::kMin: return min(a, b);
    case TapeOp::kMax: return max(a, b);
    case TapeOp::kAbs: return abs(a);
    case TapeOp::kSignum: return signum(a);
    case TapeOp::kEq: return equal(a, b);
    case TapeOp::kLt: return less(a, b);
    case TapeOp::kAnd: return logical_and(a, b);
    case TapeOp::kOr: return logical_or(a, b);
    default: return a;  // kInput: the input itself
  }
}

}  // namespace cotile
