// One `cotile calc` evaluation as data: the printed text, the --json line, the --as-cute warnings
// or the error. The command prints it; the WebAssembly playground returns it to the page.
#pragma once

#include <string>
#include <vector>

#include "ops.hpp"

namespace cotile::cli {

struct CalcOutcome {
  bool ok = false;
  std::string text;                   // what `cotile calc EXPR` prints on stdout, without the newline
  std::string json;                   // what `cotile calc --json EXPR` prints, without the newline
  std::vector<std::string> warnings;  // --as-cute: the laws CuTe's result violates
  std::string error;                  // the error's full message (what follows "error: ")
  std::string error_op, error_rule;
  int column = 0;  // 1-based column of a parse error in the expression; 0 if none
};

// Evaluate one expression as `cotile calc` does with the options `opt` (its log is not used).
CalcOutcome calc_expression(const std::string& expr, CalcOptions opt);

// The --json object of a value: kind, value and the kind's fields (docs/cli.md).
std::string value_json(const Value& v);

}  // namespace cotile::cli
