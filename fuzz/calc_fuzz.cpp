// libFuzzer target: the parser and the calculator on arbitrary text.
// Any input must give a value or a cotile::Error: never a crash, a sanitizer report or a hang.
// A value that parses must print back to text that parses to the same text. Every call of an
// operation with a law has its result checked by the laws' independent evaluator (law_check.hpp).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "law_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  try {
    const cotile::text::Value v = cotile::text::parse(input);
    const std::string printed = cotile::text::to_string(v);
    if (v.kind != cotile::text::Value::kRecord && cotile::text::to_string(cotile::text::parse(printed)) != printed)
      abort();
  } catch (const cotile::Error&) {
  }
  for (bool strict : {false, true}) {
    try {
      cotile::cli::CalcOptions opt;
      opt.strict = strict;
      cotile::text::CallHandler h = [&opt](const std::string& fn, std::vector<cotile::text::Value>& args) {
        return cotile::fuzz::call_checked(fn, args, opt);
      };
      (void)cotile::text::Parser(input, &h).parse_all();
    } catch (const cotile::Error&) {
    }
  }
  return 0;
}
