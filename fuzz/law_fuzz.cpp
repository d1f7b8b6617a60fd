// libFuzzer target: the laws as the oracle, on layouts built from the input's bytes (shapes,
// strides, staticness, nesting; swizzles) and an operation chosen by it. Every returned result must satisfy
// its law by the independent evaluator, and every refusal for a violated law must be one that
// CuTe's result really violates (law_check.hpp); anything else aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

#include "law_check.hpp"

namespace {

using namespace cotile;

Int leaf(FuzzedDataProvider& in, int64_t lo, int64_t hi) {
  const int64_t v = in.ConsumeIntegralInRange<int64_t>(lo, hi);
  return Int{v, in.ConsumeBool()};
}

// A layout of rank 1..4, each mode a leaf or a pair, shapes 1..16, strides -8..64.
Layout layout(FuzzedDataProvider& in) {
  IntTuple s = IntTuple::tuple(), d = IntTuple::tuple();
  const int r = in.ConsumeIntegralInRange<int>(1, 4);
  for (int i = 0; i < r; ++i) {
    const int n = in.ConsumeIntegralInRange<int>(1, 2);
    IntTuple ss = IntTuple::tuple(), dd = IntTuple::tuple();
    for (int k = 0; k < n; ++k) {
      ss.push_back(int_tuple(leaf(in, 1, 16)));
      dd.push_back(int_tuple(leaf(in, in.ConsumeIntegralInRange<int>(0, 15) == 0 ? -8 : 0, 64)));
    }
    s.push_back(n == 1 ? ss.get(0) : ss);
    d.push_back(n == 1 ? dd.get(0) : dd);
  }
  if (r == 1 && in.ConsumeBool()) return Layout{s.get(0), d.get(0)};
  return Layout{s, d};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  static const char* kOps[] = {"composition", "complement", "left_inverse", "right_inverse",
                               "coalesce",    "filter",     "upcast",       "max_common_layout"};
  const std::string op = kOps[in.ConsumeIntegralInRange<int>(0, 7)];
  std::vector<text::Value> args;
  // composition(L, Sw), right_inverse(C) and left_inverse(C) of C = Sw o offset o L, one in two.
  const bool swizzled = (op == "composition" || op == "left_inverse" || op == "right_inverse") && in.ConsumeBool();
  try {
    if (swizzled) {
      const Layout l = layout(in);
      const int b = in.ConsumeIntegralInRange<int>(0, 3), m = in.ConsumeIntegralInRange<int>(0, 5);
      const int s = in.ConsumeIntegralInRange<int>(b, b + 4) * (in.ConsumeBool() ? 1 : -1);
      const Swizzle sw = make_swizzle(b, m, s);
      if (op == "composition") {
        args = {text::Value::of(l), text::Value::of(sw)};
      } else {
        const Int offset = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? leaf(in, 1, 64) : static_int(0);
        args = {text::Value::of(ComposedLayout{sw, offset, l})};
      }
    } else {
      args.push_back(text::Value::of(layout(in)));
      if (op == "composition" || op == "max_common_layout") args.push_back(text::Value::of(layout(in)));
    }
    if (op == "complement" && in.ConsumeBool()) args.push_back(text::Value::of(int_tuple(leaf(in, 1, 256))));
    if (op == "upcast") args.push_back(text::Value::of(static_int(int64_t(1) << in.ConsumeIntegralInRange<int>(1, 4))));
  } catch (const Error&) {
    return 0;  // a capacity limit while building the input
  }
  if (std::getenv("COTILE_FUZZ_PRINT")) std::fprintf(stderr, "%s%s\n", op.c_str(), fuzz::args_text(args).c_str());
  for (const bool strict : {false, true}) {
    cli::CalcOptions opt;
    opt.strict = strict;
    try {
      (void)fuzz::call_checked(op, args, opt);
    } catch (const Error&) {
    }
  }
  return 0;
}
