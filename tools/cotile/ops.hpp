// The calculator's operations: every algebra function callable by name on text values.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cotile/text/parse.hpp"

namespace cotile::cli {

using text::Value;

struct CalcOptions {
  bool strict = false;     // refuse exactly where CuTe refuses dynamic values
  bool as_cute = false;    // CuTe 4.7's results, also where they violate their law (each added to `log`)
  bool unchecked = false;  // the algorithms' results without their laws checked, strict only if asked
  LawLog* log = nullptr;
  Options engine() const {
    return Options{strict || as_cute, as_cute || unchecked, log, !strict && !as_cute && !unchecked};
  }
};

struct Op {
  std::string name;
  int min_args, max_args;
  std::string signature;  // e.g. "composition(layout, layout|tile|int)"
  std::string summary;
  std::function<Value(const std::vector<Value>&, const CalcOptions&)> fn;
};

// All operations, by name.
const std::map<std::string, Op>& registry();

// Evaluate a call; argument-count errors and engine errors name the operation.
Value call(const std::string& name, const std::vector<Value>& args, const CalcOptions& opt);

// Evaluate an expression such as "left_inverse(((_128,_32),_1,_4):((_128,_1),_0,_32))".
Value evaluate(const std::string& expr, const CalcOptions& opt);

}  // namespace cotile::cli
