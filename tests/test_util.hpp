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
