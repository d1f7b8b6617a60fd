#include "ops.hpp"
#include <cstdint>

namespace cotile::cli {

void register_algebra_ops();
void register_atom_ops();
std::map<std::string, Op>& mutable_registry();

const std::map<std::string, Op>& registry() {
  static const bool once = [] {
    register_algebra_ops();
    register_atom_ops();
    return true;
  }();
  (void)once;
  return mutable_registry();
}

// A layout the calculator prints has a size and offsets that fit in 64 bits: an operation on
// inputs whose own offsets overflow (composition(_8:_1, _4:_4611686018427387904), B(3) = 3 * 2^62)
// or whose result reaches beyond them (left_inverse(_4:_4611686018427387904), size 2^64) is refused.
static void representable(const std::string& name, const Layout& l) {
  int64_t size = 1, reach = 0;  // reach: the largest |offset|
  bool fits = true;
  for (int k = 0; k < l.shape.num_leaves() && fits; ++k) {
    const int64_t s = l.shape.leaf_at(k).value, d = l.stride.leaf_at(k).value;
    const int64_t ad = d == INT64_MIN ? -1 : d < 0 ? -d : d;
    fits = ad >= 0 && detail::mul_fits(size, s) && (s <= 1 || detail::mul_fits(s - 1, ad));
    const int64_t step = fits && s > 1 ? (s - 1) * ad : 0;
    fits = fits && reach <= INT64_MAX - step;
    if (fits) size *= s, reach += step;
  }
  if (!fits)
    throw Error(name, "the result's size or offsets do not fit in 64 bits",
                name + ": the result's size or offsets do not fit in 64 bits\n  result = " + to_string(l) +
                    "\n  fix: give extents and strides whose products fit in 64 bits");
}

Value call(const std::string& name, const std::vector<Value>& args, const CalcOptions& opt) {
  const auto& reg = registry();
  auto it = reg.find(name);
  if (it == reg.end()) {
    const std::string rule = "unknown function '" + name + "'";
    throw Error(name, rule, rule + " (cotile calc --list shows the functions)");
  }
  const Op& op = it->second;
  if (int(args.size()) < op.min_args || int(args.size()) > op.max_args) {
    const std::string rule =
        "expects " +
        (op.min_args == op.max_args ? std::to_string(op.min_args)
                                    : std::to_string(op.min_args) + " to " + std::to_string(op.max_args)) +
        " argument" + (op.max_args == 1 ? "" : "s") + ", got " + std::to_string(args.size());
    throw Error(name, rule, name + ": " + rule + "\n  usage: " + op.signature);
  }
  try {
    const Value v = op.fn(args, opt);
    if (v.kind == Value::kLayout) representable(name, v.layout);
    return v;
  } catch (const LawError& e) {
    if (e.op() == name) throw;
    // A step inside this operation refused a result that violates its law: say what CuTe returns
    // for the whole call too.
    std::string m = name + ": " + e.what();
    CalcOptions cute = opt;
    cute.as_cute = true;
    cute.log = nullptr;
    try {
      m += "\n  CuTe 4.7 returns " + text::to_string(op.fn(args, cute)) + " for " + name + " here";
    } catch (const Error&) {
    }
    throw LawError(name, e.rule(), m);
  } catch (const Error& e) {
    if (e.op() == name) throw;
    // An error raised below this operation (arithmetic, a nested algebra step): say where.
    throw Error(name, e.rule(), name + ": " + e.what());
  }
}

Value evaluate(const std::string& expr, const CalcOptions& opt) {
  text::CallHandler h = [&opt](const std::string& fn, std::vector<Value>& args) { return call(fn, args, opt); };
  return text::Parser(expr, &h).parse_all();
}

}  // namespace cotile::cli
