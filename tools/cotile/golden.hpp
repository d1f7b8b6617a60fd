// Runner for golden-corpus files (format: ../shared/golden/README.md).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ops.hpp"

namespace cotile::cli {

struct GoldenFailure {
  std::string file;
  int line = 0;
  std::string op, args, expected, got;
  std::string law;  // (lawful) the law CuTe's result breaks
};

// Every case runs twice: as CuTe computes it (--as-cute: the corpus is CuTe's output, so this is
// the comparison), and in cotile's default mode, which refuses a result that violates its
// operation's law. A case whose CuTe result violates its law is then `refused` (a LawError), or,
// where the default mode answers another result that satisfies the law (downcast's one leaf of
// stride _1, composition's A joined by value), `lawful`, not failed; any other difference in the
// default mode is a failure.
struct GoldenReport {
  int passed = 0, failed = 0;                  // CuTe's mode against the expected text
  int checked_passed = 0, checked_failed = 0;  // the default mode: the same text
  std::vector<GoldenFailure> failures;         // both modes' failures (got = what the mode gave)
  std::vector<GoldenFailure> refused;          // got = the law's message, first line
  // The default mode's lawful result where CuTe's violates its law (got = that result, law = the
  // law CuTe's result breaks, first line).
  std::vector<GoldenFailure> lawful;
  std::map<std::string, std::pair<int, int>> by_op;  // op -> (passed, failed), CuTe's mode
};

// Run every case of one file into `report`; `opt` gives --strict (both modes).
void run_golden_file(const std::string& path, GoldenReport& report, const CalcOptions& opt);

// Check one case given as its TAB-separated fields; returns "" when it passes, else what was got.
std::string check_golden_case(const std::vector<std::string>& fields, const CalcOptions& opt, bool* known_op);

}  // namespace cotile::cli
