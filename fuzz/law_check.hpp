// The fuzz targets' oracle: an operation's result against its law, evaluated by the independent
// evaluator of the law tests (tests/algebra/law_oracle.hpp; with a tile, tile_laws.hpp). A result
// that violates its law, or a refusal for a law that CuTe's result does not violate, aborts (a
// finding).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../tests/algebra/law_oracle.hpp"
#include "../tests/algebra/tile_laws.hpp"
#include "ops.hpp"

namespace cotile::fuzz {

// The oracle enumerates in plain 64-bit arithmetic: it keeps to modest values and small domains.
inline bool modest(const Layout& l) {
  for (int k = 0; k < l.shape.num_leaves(); ++k)
    if (l.shape.leaf_at(k).value > 4096 || l.shape.leaf_at(k).value < -4096 || l.stride.leaf_at(k).value > (1 << 20) ||
        l.stride.leaf_at(k).value < -(1 << 20))
      return false;
  return l.shape.num_leaves() <= 12;
}
inline bool small_domain(const Layout& l) {
  const oracle::Fn f(l);
  int64_t n = 1;
  for (int64_t x : f.s) {
    if (x < 1) return false;
    n *= x;
    if (n > 4096) return false;
  }
  return true;
}

// The verdict where an operand is swizzled (Sw o offset o L, or a swizzle Sw<B,M,S>): the laws of
// composition(L, Sw), right_inverse(C) and left_inverse(C), evaluated by law_oracle.hpp's
// ComposedFn (its own swizzle, bit by bit). The result may print as a plain layout (a swizzle of
// no bits).
inline std::string swizzled_verdict(const std::string& op, const std::vector<text::Value>& args, const text::Value& r) {
  using text::Value;
  ComposedLayout out;
  if (r.kind == Value::kComposed) out = r.composed;
  else if (r.kind == Value::kLayout) out = ComposedLayout{Swizzle{}, static_int(0), r.layout};
  else return "-";
  const std::string w = oracle::extents(out.layout);
  if (!w.empty()) return w;
  auto modest_offset = [](const Int& o) { return is_known(o) && o.value >= -(1 << 20) && o.value <= (1 << 20); };
  if (!modest_offset(out.offset) || !modest(out.layout) || !small_domain(out.layout)) return "-";
  if (op == "composition" && args.size() == 2 && args[0].kind == Value::kLayout && args[1].kind == Value::kSwizzle) {
    const Layout& l = args[0].layout;
    if (!modest(l) || !small_domain(l)) return "-";
    return oracle::layout_after_swizzle(l, args[1].composed.swizzle, out);
  }
  if ((op == "right_inverse" || op == "left_inverse") && args.size() == 1 && args[0].kind == Value::kComposed) {
    const ComposedLayout& c = args[0].composed;
    if (!modest_offset(c.offset) || !modest(c.layout) || !small_domain(c.layout)) return "-";
    return op == "right_inverse" ? oracle::swizzled_right_inverse(c, out) : oracle::swizzled_left_inverse(c, out);
  }
  return "-";
}

// The oracle's verdict on `op` applied to args giving r ("" when the law holds; "-" when op has
// no law the oracle knows, or the arguments are of other kinds).
inline std::string oracle_verdict(const std::string& op, const std::vector<text::Value>& args, const text::Value& r) {
  using text::Value;
  auto is_layout = [&](size_t i) { return i < args.size() && args[i].kind == Value::kLayout; };
  if ((!args.empty() && args[0].kind == Value::kComposed) || (args.size() == 2 && args[1].kind == Value::kSwizzle))
    return swizzled_verdict(op, args, r);
  if (r.kind != Value::kLayout && op != "max_common_vector") return "-";
  const Layout out = r.layout;
  if (r.kind == Value::kLayout) {  // a negative extent breaks every operation's law
    const std::string w = oracle::extents(out);
    if (!w.empty()) return w;
  }
  for (const Value& a : args)
    if (a.kind == Value::kLayout && !modest(a.layout)) return "-";
  if (r.kind == Value::kLayout && !modest(out)) return "-";
  if (op == "composition" && args.size() == 2 && is_layout(0) && is_layout(1) && small_domain(args[1].layout))
    return oracle::composition(args[0].layout, args[1].layout, out);
  if (op == "complement" && is_layout(0) && small_domain(out)) {
    const Layout& l = args[0].layout;
    int64_t target = cosize(filter(l)).value;
    if (args.size() == 2) {
      if (args[1].kind != Value::kInt && args[1].kind != Value::kTuple) return "-";
      target = size(text::to_int_tuple(args[1], op, 2)).value;
    }
    if (!small_domain(l) || oracle::Fn(l).size() * oracle::Fn(out).size() > 65536) return "-";
    return oracle::complement(l, target, out);
  }
  if (op == "left_inverse" && is_layout(0) && small_domain(args[0].layout))
    return oracle::left_inverse(args[0].layout, out);
  if (op == "right_inverse" && is_layout(0) && small_domain(out)) return oracle::right_inverse(args[0].layout, out);
  if (op == "coalesce" && args.size() == 1 && is_layout(0) && small_domain(args[0].layout))
    return oracle::coalesce(args[0].layout, out);
  if (op == "filter" && is_layout(0) && small_domain(args[0].layout)) return oracle::filter(args[0].layout, out);
  if (op == "upcast" && is_layout(0) && args.size() == 2 && args[1].kind == Value::kInt)
    return oracle::upcast(args[0].layout, args[1].integer.value, out);
  if (op == "max_common_layout" && is_layout(0) && is_layout(1) && small_domain(out))
    return oracle::max_common_layout(args[0].layout, args[1].layout, out);
  // A tile (a tuple of '_', integers and layouts): by mode (tile_laws.hpp).
  if (args.size() == 2 && is_layout(0) && args[1].kind == Value::kTuple && small_domain(args[0].layout)) {
    Tile t;
    try {
      t = text::to_tile(args[1], op, 2);
    } catch (const Error&) {
      return "-";
    }
    if (!tile_laws::flat_tile(t)) return "-";
    for (int i = 0; i < t.rank(); ++i) {
      Layout b;
      if (tile_laws::element(t, i, b) && (!modest(b) || !small_domain(b))) return "-";
    }
    return tile_laws::verdict(op, args[0].layout, t, out);
  }
  return "-";
}

inline std::string args_text(const std::vector<text::Value>& args) {
  std::string t = "(";
  for (size_t i = 0; i < args.size(); ++i) t += (i ? ", " : "") + text::to_string(args[i]);
  return t + ")";
}

// Calls op as the calculator does (default mode: laws checked) and applies the oracle: to the
// result, or, when op refused it for a violated law, to CuTe's result (which must violate it).
inline text::Value call_checked(const std::string& op, const std::vector<text::Value>& args,
                                const cli::CalcOptions& opt) {
  try {
    const text::Value r = cli::call(op, args, opt);
    const std::string w = oracle_verdict(op, args, r);
    if (w != "-" && !w.empty()) {
      std::fprintf(stderr, "law violated by a returned result: %s%s -> %s: %s\n", op.c_str(), args_text(args).c_str(),
                   text::to_string(r).c_str(), w.c_str());
      std::abort();
    }
    return r;
  } catch (const LawError& e) {
    if (std::string(e.what()).find("could not be verified") != std::string::npos) throw;
    cli::CalcOptions cute = opt;
    cute.unchecked = true;
    text::Value c;
    try {
      c = cli::call(op, args, cute);
    } catch (const Error&) {
      throw e;
    }
    if (oracle_verdict(op, args, c).empty()) {
      std::fprintf(stderr, "spurious refusal: %s%s -> %s holds its law\n%s\n", op.c_str(), args_text(args).c_str(),
                   text::to_string(c).c_str(), e.what());
      std::abort();
    }
    throw;
  }
}

}  // namespace cotile::fuzz
