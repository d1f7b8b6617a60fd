// Building a law's failure message (report.hpp gives its layout).
#pragma once

#include <type_traits>

#include "flat.hpp"

namespace cotile::laws {

// What a condition on the inputs decided: the law holds (proven), or the first part of the
// condition that fails (then the law is checked point by point).
struct Proof {
  bool proven = false;
  Text why;
};

// The report of a law not (yet) found violated. `values_known`: false when an input has symbolic
// leaves; the law is then deferred, checked once the values are known.
COTILE_HD constexpr LawReport holding(const char* op, const char* law, bool values_known) {
  LawReport r;
  r.op = op;
  r.law = law;
  r.deferred = !values_known;
  return r;
}

// The report marked as holding by its condition (no point checked).
COTILE_HD constexpr LawReport proven(LawReport r) {
  r.proven = true;
  return r;
}

// Starts the report of a failed law: "<op>: <law> fails" (the caller adds " at <witness>" or ": ...").
COTILE_HD constexpr LawReport failed(const char* op, const char* law) {
  LawReport r;
  r.holds = false;
  r.op = op;
  r.law = law;
  r.message.add(op).add(": ").add(law).add(" fails");
  return r;
}
// Starts the report of a law that could not be checked (its condition fails and there are more
// points than law_points()).
COTILE_HD constexpr LawReport unverified(const char* op, const char* law, int64_t points) {
  LawReport r;
  r.holds = false;
  r.op = op;
  r.law = law;
  r.message.add(op)
      .add(": ")
      .add(law)
      .add(" could not be verified: the condition below does not hold and there are ")
      .num(points)
      .add(" points, more than cotile enumerates (")
      .num(law_points())
      .add(")");
  return r;
}
// "\n  <name> = <value>"
template <class T>
COTILE_HD constexpr void line(LawReport& r, const char* name, const T& value) {
  r.message.add("\n  ").add(name).add(" = ");
  if constexpr (std::is_integral_v<T>) r.message.num(value);
  else r.message.add(value);
}
// "\n  why: <text>" (nothing when the text is empty)
COTILE_HD constexpr void why(LawReport& r, const Text& t) {
  if (t.n > 0) r.message.add("\n  why: ").add(t);
}
// What CuTe 4.7 does with the same inputs: returns `result`, or refuses them (`refusal`).
COTILE_HD constexpr void cute(LawReport& r, const Layout& result, const char* refusal = nullptr) {
  if (refusal) r.message.add("\n  CuTe 4.7 refuses these inputs (").add(refusal).add(")");
  else r.message.add("\n  CuTe 4.7 returns ").add(result).add(" here");
}
// The same for an integer result (max_common_vector's).
COTILE_HD constexpr void cute(LawReport& r, const Int& result) {
  r.message.add("\n  CuTe 4.7 returns ").add(result).add(" here");
}
COTILE_HD constexpr void fix(LawReport& r, const char* hint) { r.message.add("\n  fix: ").add(hint); }

// "L(i)"-style text: name(index)
COTILE_HD constexpr Text call(const char* f, int64_t x) {
  Text t;
  t.add(f).add("(").num(x).add(")");
  return t;
}

}  // namespace cotile::laws
