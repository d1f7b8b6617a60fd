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
};

struct GoldenReport {
  int passed = 0, failed = 0;
  std::vector<GoldenFailure> failures;
  std::map<std::string, std::pair<int, int>> by_op;  // op -> (passed, failed)
};

// Run every case of one file into `report`.
void run_golden_file(const std::string& path, GoldenReport& report, const CalcOptions& opt);

// Check one case given as its TAB-separated fields; returns "" when it passes, else what was got.
std::string check_golden_case(const std::vector<std::string>& fields, const CalcOptions& opt, bool* known_op);

}  // namespace cotile::cli
