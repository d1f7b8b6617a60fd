// Law reports: what a check of an operation's law found, as text that is built the same way at
// compile time, on the host and on the device.
//
// A report holds the whole message (format_error's layout):
//   <op>: <law> fails at <witness>
//     <name> = <value>              the operation's inputs
//     why: <the first condition that does not hold>
//     CuTe 4.7 returns <R> here     (or: CuTe 4.7 refuses these inputs ...)
//     fix: <a way out>
// fail_law throws it as a LawError on the host, prints it and traps on the device, and is not
// constexpr, so a violation found during constant evaluation is a compile error (the typed
// layer puts the message itself into the first error line, ct/typed.hpp).
#pragma once

#include "../layout.hpp"

namespace cotile {

// Fixed-capacity text (truncated, never overflowing), usable in constant expressions.
struct Text {
  static constexpr int kCapacity = 2047;
  char buf[kCapacity + 1] = {};
  int n = 0;

  COTILE_HD constexpr Text& add(const char* s) {
    while (s && *s && n < kCapacity) buf[n++] = *s++;
    return *this;
  }
  COTILE_HD constexpr Text& add(const Text& t) {
    for (int k = 0; k < t.n && n < kCapacity; ++k) buf[n++] = t.buf[k];
    return *this;
  }
  COTILE_HD constexpr Text& num(int64_t v) {
    char d[24] = {};
    int k = 0;
    const bool neg = v < 0;
    uint64_t u = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    do {
      d[k++] = char('0' + u % 10);
      u /= 10;
    } while (u);
    if (neg && n < kCapacity) buf[n++] = '-';
    while (k && n < kCapacity) buf[n++] = d[--k];
    return *this;
  }
  // CuTe's print form: _8 (static), 8 (dynamic).
  COTILE_HD constexpr Text& add(const Int& x) {
    if (x.is_static) add("_");
    return num(x.value);
  }
  // (_2,(4,_8)): the preorder codes, with the number of elements each open tuple still expects.
  COTILE_HD constexpr Text& add(const IntTuple& t) {
    int remaining[kMaxNodes] = {}, depth = 0, leaf = 0;
    for (int k = 0; k < t.num_nodes(); ++k) {
      const int code = t.code_at(k);
      if (code < 0) {
        add(t.leaf_at(leaf++));
      } else if (code > 0) {
        add("(");
        remaining[depth++] = code;
        continue;
      } else {
        add("()");
      }
      // the node is complete: separate it from the next element, or close the tuples it ends
      while (depth > 0) {
        if (--remaining[depth - 1] > 0) {
          add(",");
          break;
        }
        add(")");
        --depth;
      }
    }
    return *this;
  }
  COTILE_HD constexpr Text& add(const Layout& l) { return add(l.shape).add(":").add(l.stride); }
  COTILE_HD constexpr const char* c_str() const { return buf; }
};

// What a check of a law found.
struct LawReport {
  bool holds = true;
  // The inputs have symbolic (run-time) leaves: the law is checked when their values are known.
  bool deferred = false;
  const char* op = "";
  const char* law = "";  // e.g. "R(c) = A(B(c))"
  Text message;          // when !holds: the whole message
  // When it holds: how that is known. proven: from a condition on the values (no enumeration);
  // otherwise it was checked on `points` points.
  bool proven = false;
  int64_t points = 0;
};

// A law's failure: throws cotile::LawError on the host, prints and traps on the device. Not
// constexpr: reaching it in a constant expression is a compile error.
[[noreturn]] COTILE_HD inline void fail_law(const LawReport& r) {
#if defined(__CUDA_ARCH__)
  printf("cotile: %s\n", r.message.c_str());
  __trap();
  while (true) {
  }
#else
  throw LawError(r.op, r.law, r.message.c_str());
#endif
}

// The violations an operation in CuTe's mode (Options::as_cute) computed anyway: the first few
// reports and their count.
struct LawLog {
  static constexpr int kKept = 4;
  LawReport kept[kKept] = {};
  int count = 0;
  int deferred = 0;  // laws not decided: their inputs had symbolic values
  COTILE_HD constexpr void add(const LawReport& r) {
    if (count < kKept) kept[count] = r;
    ++count;
  }
};

}  // namespace cotile
