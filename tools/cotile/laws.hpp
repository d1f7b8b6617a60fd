// The law of each calculator operation that has one, checked on given inputs (verify law, and
// explain's "law" step). The checks are the engine's (include/cotile/laws/); an operation defined
// by others (the divides and products) is checked through its definition: the laws of its
// complement and composition, and its result equal to theirs.
#pragma once

#include <string>
#include <vector>

#include "ops.hpp"

namespace cotile::cli {

struct LawCheck {
  std::string name;  // "composition: R(c) = A(B(c))"
  bool holds = true;
  std::string detail;  // how it holds ("on all 8 points", "by its condition"), or the failure's message
};

// The operations `law_checks` knows.
bool has_law(const std::string& op);

// The checks of op's law on args, for the result the algorithm computes without checking it (for
// static values, CuTe's result; with run-time values, also where CuTe refuses them unless
// opt.strict). Throws an Error for an operation without a law, or when the inputs are refused
// before a result exists (CuTe's own checks).
std::vector<LawCheck> law_checks(const std::string& op, const std::vector<Value>& args, const CalcOptions& opt);

}  // namespace cotile::cli
