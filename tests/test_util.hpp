// Helpers for tests: build values from CuTe text.
#pragma once

#include <string>

#include "cotile/text/parse.hpp"
#include "golden.hpp"
#include "ops.hpp"

namespace cotile::test {

inline Layout L(const std::string& s) { return text::to_layout(text::parse(s), "test", 1); }
inline IntTuple T(const std::string& s) { return text::to_int_tuple(text::parse(s), "test", 1); }
inline Tile TL(const std::string& s) { return text::to_tile(text::parse(s), "test", 1); }
inline std::string str(const Layout& l) { return to_string(l); }
inline std::string str(const IntTuple& t) { return to_string(t); }
inline std::string str(const Int& x) { return to_string(x); }
inline std::string calc(const std::string& e, bool strict = false) {
  cli::CalcOptions o;
  o.strict = strict;
  return text::to_string(cli::evaluate(e, o));
}
// What CuTe 4.7 returns (--as-cute), and the laws it violates (one message each).
inline std::string calc_as_cute(const std::string& e, std::string* warnings = nullptr) {
  cli::CalcOptions o;
  o.as_cute = true;
  LawLog log;
  o.log = &log;
  const std::string r = text::to_string(cli::evaluate(e, o));
  if (warnings)
    for (int k = 0; k < log.count && k < LawLog::kKept; ++k)
      *warnings += log.kept[k].message.c_str() + std::string("\n");
  return r;
}
// The message of the error an expression raises ("" if none).
inline std::string calc_error(const std::string& e, bool strict = false) {
  try {
    calc(e, strict);
  } catch (const Error& err) {
    return err.what();
  }
  return "";
}

}  // namespace cotile::test
