// Errors: one reporting path for every violated precondition.
//
// Algorithms are constexpr; `fail` deliberately is not. Reaching it during constant evaluation is a
// compile error pointing at the failing check; at run time on the host it throws cotile::Error whose
// message names the operation, the rule, the offending arguments (printed in CuTe form) and a way
// out; on the device it prints the operation and the rule and traps.
#pragma once

#include "config.hpp"

#include <cstdio>

#include <stdexcept>
#include <string>
#include <utility>

namespace cotile {

// Error thrown on the host. what() is the full multi-line message:
//   <op>: <rule>
//     <name> = <value>
//     ...
//     fix: <hint>
class Error : public std::runtime_error {
 public:
  Error(std::string op, std::string rule, std::string message)
      : std::runtime_error(std::move(message)), op_(std::move(op)), rule_(std::move(rule)) {}
  const std::string& op() const { return op_; }
  const std::string& rule() const { return rule_; }

 private:
  std::string op_, rule_;
};

// A result that violates its operation's law (docs/algebra.md, "Laws"): the message names the
// law, a witness and, where CuTe returns a layout for the inputs, that layout.
class LawError : public Error {
 public:
  using Error::Error;
};

// Plain integers and text in error reports; cotile types declare their own to_string.
inline std::string to_string(long x) { return std::to_string(x); }
inline std::string to_string(long long x) { return std::to_string(x); }
inline std::string to_string(int x) { return std::to_string(x); }
inline std::string to_string(const char* s) { return s; }

// Formats an error message; the argument lines come pre-printed.
std::string format_error(const char* op, const char* rule, const std::string& args, const char* hint);

// A named argument of an error report: arg("lhs", layout).
template <class T>
struct NamedArg {
  const char* name;
  const T& value;
};
template <class T>
COTILE_HD constexpr NamedArg<T> arg(const char* name, const T& value) {
  return {name, value};
}

// Report a violated precondition. `op` is the operation ("composition"), `rule` the condition in
// words, `hint` the way out (may be nullptr). Never returns.
template <class... Ts>
[[noreturn]] COTILE_HD inline void fail(const char* op, const char* rule, const char* hint, NamedArg<Ts>... args) {
#if defined(__CUDA_ARCH__)
  printf("cotile: %s: %s\n", op, rule);
  __trap();
  while (true) {
  }
#else
  std::string lines;
  ((lines += std::string("\n  ") + args.name + " = " + to_string(args.value)), ...);
  throw Error(op, rule, format_error(op, rule, lines, hint));
#endif
}

inline std::string format_error(const char* op, const char* rule, const std::string& args, const char* hint) {
  std::string m = std::string(op) + ": " + rule + args;
  if (hint != nullptr) m += std::string("\n  fix: ") + hint;
  return m;
}

}  // namespace cotile
