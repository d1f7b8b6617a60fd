// cotile: compute, explain and check CuTe layouts.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "calc.hpp"
#include "explain.hpp"
#include "golden.hpp"
#include "help.hpp"
#include "json.hpp"
#include "ops.hpp"

using namespace cotile;
using namespace cotile::cli;

namespace {

// An option calc or golden does not know, reported as every verb's parser reports it.
int refuse_option(const char* verb, const std::string& a) {
  std::fprintf(stderr, "error: %s\n", unknown_option(verb, a).what());
  return 2;
}

int cmd_calc(const std::vector<std::string>& args) {
  bool json = false;
  CalcOptions opt;
  std::vector<std::string> exprs;
  for (const std::string& a : args) {
    if (a == "--json") {
      json = true;
    } else if (a == "--strict") {
      opt.strict = true;
    } else if (a == "--as-cute") {
      opt.as_cute = true;
    } else if (a == "--list") {
      for (const auto& [name, op] : registry()) std::printf("%-20s %s\n", name.c_str(), op.signature.c_str());
      return 0;
    } else if (a.rfind("--", 0) == 0) {
      return refuse_option("calc", a);
    } else {
      exprs.push_back(a);
    }
  }
  if (exprs.empty()) {
    std::fputs("cotile calc: missing expression\n", stderr);
    std::fputs(verb_help("calc"), stderr);
    return 2;
  }
  int status = 0;
  for (const std::string& e : exprs) {
    const CalcOutcome r = calc_expression(e, opt);
    if (!r.ok) status = 1;
    if (json) {
      std::printf("%s\n", r.json.c_str());
    } else if (r.ok) {
      std::printf("%s\n", r.text.c_str());
      for (const std::string& w : r.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    } else {
      std::fprintf(stderr, "error: %s\n", r.error.c_str());
    }
  }
  return status;
}

int cmd_golden(const std::vector<std::string>& args) {
  bool json = false;
  CalcOptions opt;
  std::vector<std::string> files;
  for (const std::string& a : args) {
    if (a == "--json") json = true;
    else if (a == "--strict") opt.strict = true;
    else if (a.rfind("--", 0) == 0) return refuse_option("golden", a);
    else files.push_back(a);
  }
  if (files.empty()) {
    std::fputs("cotile golden: no files given\n", stderr);
    return 2;
  }
  GoldenReport r;
  for (const std::string& f : files) {
    try {
      run_golden_file(f, r, opt);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cotile golden: %s\n", e.what());
      return 2;
    }
  }
  if (json) {
    std::string j = "{\"passed\":" + std::to_string(r.passed) + ",\"failed\":" + std::to_string(r.failed) +
                    ",\"checked\":{\"passed\":" + std::to_string(r.checked_passed) +
                    ",\"refused\":" + std::to_string(r.refused.size()) +
                    ",\"lawful\":" + std::to_string(r.lawful.size()) +
                    ",\"failed\":" + std::to_string(r.checked_failed) + "},\"by_op\":{";
    bool first = true;
    for (const auto& [op, c] : r.by_op) {
      j += (first ? "" : ",") + json_str(op) + ":{\"passed\":" + std::to_string(c.first) +
           ",\"failed\":" + std::to_string(c.second) + "}";
      first = false;
    }
    // One list of cases; `expected` and `got` under the names the list uses (and the law CuTe's
    // result breaks, for the lawful answers).
    auto cases = [&](const std::vector<GoldenFailure>& list, const char* expected, const char* got,
                     bool with_law = false) {
      std::string t = "[";
      for (size_t i = 0; i < list.size(); ++i) {
        const GoldenFailure& f = list[i];
        t += (i ? "," : "") + std::string("{\"file\":") + json_str(f.file) + ",\"line\":" + std::to_string(f.line) +
             ",\"op\":" + json_str(f.op) + ",\"args\":" + json_str(f.args) + ",\"" + expected +
             "\":" + json_str(f.expected) + (with_law ? ",\"law\":" + json_str(f.law) : std::string()) + ",\"" + got +
             "\":" + json_str(f.got) + "}";
      }
      return t + "]";
    };
    j += "},\"failures\":" + cases(r.failures, "expected", "got") + ",\"refused\":" + cases(r.refused, "cute", "law") +
         ",\"lawful\":" + cases(r.lawful, "cute", "cotile", true);
    std::printf("%s}\n", j.c_str());
  } else {
    for (const GoldenFailure& f : r.failures)
      std::printf("FAIL %s:%d %s %s\n  expected: %s\n  got:      %s\n", f.file.c_str(), f.line, f.op.c_str(),
                  f.args.c_str(), f.expected.c_str(), f.got.c_str());
    for (const GoldenFailure& f : r.refused)
      std::printf("LAW  %s:%d %s %s\n  CuTe:     %s\n  law:      %s\n", f.file.c_str(), f.line, f.op.c_str(),
                  f.args.c_str(), f.expected.c_str(), f.got.c_str());
    for (const GoldenFailure& f : r.lawful)
      std::printf("LAW  %s:%d %s %s\n  CuTe:     %s\n  law:      %s\n  cotile:   %s\n", f.file.c_str(), f.line,
                  f.op.c_str(), f.args.c_str(), f.expected.c_str(), f.law.c_str(), f.got.c_str());
    std::printf("%d passed, %d failed; checked: %d passed, %zu refused (CuTe's result violates its law), %zu answered "
                "lawfully where CuTe's result violates its law, %d failed\n",
                r.passed, r.failed, r.checked_passed, r.refused.size(), r.lawful.size(), r.checked_failed);
  }
  return r.failed == 0 && r.checked_failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    if (args.size() >= 2 && verb_help(args[1])) {  // cotile help VERB
      std::fputs(verb_help(args[1]), stdout);
      return 0;
    }
    std::fputs(usage(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string verb = args[0];
  args.erase(args.begin());
  if (verb_help(verb) && asks_for_help(args)) {
    std::fputs(verb_help(verb), stdout);
    return 0;
  }
  if (verb == "calc") return cmd_calc(args);
  if (verb == "golden") return cmd_golden(args);
  try {
    if (verb == "explain") return cmd_explain(args);
    if (verb == "verify") return cmd_verify(args);
    if (verb == "draw") return cmd_draw(args);
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "error: %s: out of memory (a smaller layout, tile or tensor needs less)\n", verb.c_str());
    return 1;
  }
  std::fprintf(stderr, "cotile: unknown verb '%s'\n%s", verb.c_str(), usage());
  return 2;
}
