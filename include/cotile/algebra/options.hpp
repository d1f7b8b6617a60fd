// How an algebra operation treats CuTe's refusals and its own law.
#pragma once

#include "../laws/report.hpp"

namespace cotile {

// By default every operation returns a result only when it satisfies the operation's law
// (docs/algebra.md, "Laws"): where the values are known it proves the law from them or checks it
// point by point, and refuses otherwise (fail_law), also where CuTe returns a layout.
struct Options {
  // Refuse dynamic values exactly where CuTe refuses them (left_inverse, complement of rank > 1);
  // otherwise they are computed from the run-time values.
  bool strict = false;
  // The algorithm's result, also where it violates the law: each violation is added to `log`
  // (when given) instead of refusing the inputs. With strict, that is what CuTe 4.7 returns
  // (cotile calc --as-cute sets both).
  bool as_cute = false;
  LawLog* log = nullptr;
  // Where CuTe's result breaks the law, answer with modes that run-time values decide
  // (composition's A joined by value) instead of refusing. The calculator's default mode (and so
  // Python's and the browser's); off by default because a caller that fixes a result's modes
  // before the values are known, as the typed layer does, would get CuTe's modes with the
  // engine's law satisfied by other ones.
  bool by_value = false;
};

// The calculator's default mode: the law enforced, run-time modes joined by value where that
// keeps it.
inline constexpr Options kByValue{false, false, nullptr, true};

// The result `r` of an operation whose law `check()` reports: r when the law holds (or cannot be
// decided yet: symbolic values), else refused, or logged in CuTe's mode.
template <class T, class Check>
COTILE_HD constexpr T lawful(const Options& opt, Check check, const T& r) {
  if (opt.as_cute && opt.log == nullptr) return r;
  const LawReport rep = check();
  if (rep.deferred && opt.log) ++opt.log->deferred;
  if (rep.holds) return r;
  if (opt.as_cute) {
    opt.log->add(rep);
    return r;
  }
  fail_law(rep);
}

}  // namespace cotile
