// Parser for CuTe's print format, and for calc expressions (nested function calls). Host only.
//
//   expr  := term [':' term]                      a layout when ':' is present
//   term  := int | '_' | '(' [expr (',' expr)*] ')'
//          | 'Sw<' int ',' int ',' int '>' ['o' term 'o' expr]
//          | name ['(' [expr (',' expr)*] ')']      a call, when a call handler is given
//   int   := ['_'] ['-'] digits                    '_' marks a static integer
// Errors give the column (1-based) and what was expected.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "value.hpp"

namespace cotile::text {

using CallHandler = std::function<Value(const std::string& fn, std::vector<Value>& args)>;

class Parser {
 public:
  explicit Parser(std::string_view src, const CallHandler* call = nullptr) : src_(src), call_(call) {}

  Value parse_all() {
    Value v = expr();
    skip_ws();
    if (pos_ != src_.size()) error("end of input");
    return v;
  }

 private:
  [[noreturn]] void error(const std::string& expected) const {
    std::string found = pos_ < src_.size() ? std::string("'") + src_[pos_] + "'" : "end of input";
    const std::string rule = "expected " + expected + " at column " + std::to_string(pos_ + 1) + ", found " + found;
    std::string caret(pos_ + 2, ' ');
    caret += '^';
    throw Error("parse", rule, "parse: " + rule + "\n  " + std::string(src_) + "\n" + caret);
  }
  void skip_ws() {
    while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\n')) ++pos_;
  }
  bool peek(char c) {
    skip_ws();
    return pos_ < src_.size() && src_[pos_] == c;
  }
  void expect(char c, const std::string& what) {
    if (!peek(c)) error(what);
    ++pos_;
  }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  static bool is_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || is_digit(c) || c == '.';
  }

  // Nesting deeper than any value cotile can hold is refused before it can exhaust the stack.
  static constexpr int kMaxDepth = 64;
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& q) : p(q) {
      if (++p.depth_ > kMaxDepth) p.error("at most 64 levels of nesting");
    }
    ~DepthGuard() { --p.depth_; }
  };

  Value expr() {
    DepthGuard guard(*this);
    const size_t start = pos_;
    Value a = term();
    if (!peek(':')) return a;
    ++pos_;
    const size_t rhs_at = pos_;
    Value b = term();
    if (!a.is_int_tuple()) {
      pos_ = start;
      error("an integer tuple as the shape of a layout");
    }
    if (!b.is_int_tuple()) {
      pos_ = rhs_at;
      skip_ws();
      error("an integer tuple as the stride of a layout");
    }
    const IntTuple s = to_int_tuple(a, "parse", 1), d = to_int_tuple(b, "parse", 2);
    if (!is_congruent(s, d)) {
      pos_ = rhs_at;
      skip_ws();
      error("a stride congruent to the shape " + cotile::to_string(s));
    }
    for (int k = 0; k < s.num_leaves(); ++k) {
      if (s.leaf_at(k).value >= 0) continue;
      // (at the shape's first minus sign: the negative extent where it is written as a number)
      const size_t minus = src_.substr(start, rhs_at - start).find('-');
      pos_ = minus == std::string_view::npos ? start : start + minus;
      error("a shape of extents >= 0 (an extent counts coordinates)");
    }
    return Value::of(Layout{s, d});
  }

  // The value of the digits at pos_, negated when `neg`: at most 2^63 - 1, or 2^63 when negated
  // (-9223372036854775808 fits in 64 bits too).
  int64_t digits(bool neg = false) {
    if (pos_ >= src_.size() || !is_digit(src_[pos_])) error("a digit");
    const uint64_t limit = uint64_t(detail::kIntMax) + (neg ? 1 : 0);
    uint64_t v = 0;
    while (pos_ < src_.size() && is_digit(src_[pos_])) {
      const unsigned d = unsigned(src_[pos_] - '0');
      if (v > (limit - d) / 10) error("an integer that fits in 64 bits");
      v = v * 10 + d;
      ++pos_;
    }
    return neg ? int64_t(0 - v) : int64_t(v);  // (two's complement: 0 - 2^63 is -2^63)
  }

  Value integer(bool is_static) {
    bool neg = false;
    if (pos_ < src_.size() && src_[pos_] == '-') {
      neg = true;
      ++pos_;
    }
    return Value::of(Int{digits(neg), is_static});
  }

  Value term() {
    skip_ws();
    if (pos_ >= src_.size()) error("a value");
    const char c = src_[pos_];
    if (c == '(') {
      ++pos_;
      Value t;
      t.kind = Value::kTuple;
      if (peek(')')) {
        ++pos_;
        return t;
      }
      t.elems.push_back(expr());
      while (peek(',')) {
        ++pos_;
        t.elems.push_back(expr());
      }
      expect(')', "',' or ')'");
      return t;
    }
    if (c == '_') {
      if (pos_ + 1 < src_.size() && (is_digit(src_[pos_ + 1]) || src_[pos_ + 1] == '-')) {
        ++pos_;
        return integer(true);
      }
      if (pos_ + 1 < src_.size() && is_ident(src_[pos_ + 1])) return name_or_call();
      ++pos_;
      return Value::underscore();
    }
    if (c == '-' || is_digit(c)) return integer(false);
    if (src_.substr(pos_, 3) == "Sw<") return swizzle();
    if (is_ident(c)) return name_or_call();
    error("a value (integer, '_', '(' or a name)");
  }

  Value swizzle() {
    pos_ += 3;
    auto num = [&]() {
      skip_ws();
      bool neg = false;
      if (pos_ < src_.size() && src_[pos_] == '-') {
        neg = true;
        ++pos_;
      }
      const int64_t v = digits();
      if (v > 64) error("a swizzle parameter at most 64");
      return int(neg ? -v : v);
    };
    const int b = num();
    expect(',', "','");
    const int m = num();
    expect(',', "','");
    const int s = num();
    expect('>', "'>'");
    Swizzle sw;
    try {
      sw = make_swizzle(b, m, s);
    } catch (const Error& e) {
      error("valid swizzle parameters (" + e.rule() + ")");
    }
    const size_t save = pos_;
    skip_ws();
    if (pos_ + 1 < src_.size() && src_[pos_] == 'o' && (src_[pos_ + 1] == ' ' || src_[pos_ + 1] == '\t')) {
      ++pos_;
      Value off = term();
      if (off.kind != Value::kInt) error("an integer offset after 'o'");
      skip_ws();
      if (!(pos_ < src_.size() && src_[pos_] == 'o')) error("'o' before the layout");
      ++pos_;
      Value l = expr();
      if (l.kind != Value::kLayout) error("a layout after 'o'");
      Value v;
      v.kind = Value::kComposed;
      v.composed = ComposedLayout{sw, off.integer, l.layout};
      return v;
    }
    pos_ = save;
    return Value::of(sw);
  }

  Value name_or_call() {
    const size_t start = pos_;
    while (pos_ < src_.size() && is_ident(src_[pos_])) ++pos_;
    // Template-like names: SM80_..._TN, Op<...> (angle brackets kept verbatim).
    if (pos_ < src_.size() && src_[pos_] == '<') {
      int depth = 0;
      while (pos_ < src_.size()) {
        if (src_[pos_] == '<') ++depth;
        if (src_[pos_] == '>' && --depth == 0) {
          ++pos_;
          break;
        }
        ++pos_;
      }
      if (depth != 0) error("'>' closing the name's template arguments");
    }
    std::string name(src_.substr(start, pos_ - start));
    if (!peek('(') || call_ == nullptr) return Value::named(name);
    ++pos_;
    std::vector<Value> args;
    if (!peek(')')) {
      args.push_back(expr());
      while (peek(',')) {
        ++pos_;
        args.push_back(expr());
      }
    }
    expect(')', "',' or ')' closing the arguments of " + name);
    return (*call_)(name, args);
  }

  std::string_view src_;
  const CallHandler* call_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// parse(s): a value in CuTe's print format. Throws cotile::Error with the column on bad input.
inline Value parse(std::string_view s) { return Parser(s).parse_all(); }

}  // namespace cotile::text
