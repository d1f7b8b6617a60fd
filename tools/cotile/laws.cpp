#include "laws.hpp"

#include <algorithm>
#include <set>

namespace cotile::cli {

namespace {

using laws::Flat;

std::string holds_text(const LawReport& r, const std::string& domain) {
  if (r.points > 0) return "holds on all " + std::to_string(r.points) + " points (" + domain + ")";
  return "holds: proven from the values by the law's condition (docs/algebra.md)";
}

LawCheck from_report(const std::string& name, const LawReport& r, const std::string& domain) {
  return LawCheck{name, r.holds, r.holds ? holds_text(r, domain) : std::string(r.message.c_str())};
}

LawCheck pointwise(const std::string& name, int64_t n, const std::string& domain,
                   const std::function<std::string(int64_t)>& at) {
  if (n > laws::kLawPoints)
    return LawCheck{name, false,
                    "not checked: " + std::to_string(n) + " points, more than " + std::to_string(laws::kLawPoints)};
  for (int64_t i = 0; i < n; ++i) {
    const std::string w = at(i);
    if (!w.empty()) return LawCheck{name, false, "fails at " + w};
  }
  return LawCheck{name, true, "holds on all " + std::to_string(n) + " points (" + domain + ")"};
}

// The leaves as a sorted list: equal for results that are the same modes rearranged.
std::vector<std::pair<int64_t, int64_t>> leaves(const Layout& l) {
  std::vector<std::pair<int64_t, int64_t>> v;
  for (int k = 0; k < l.shape.num_leaves(); ++k) v.emplace_back(l.shape.leaf_at(k).value, l.stride.leaf_at(k).value);
  std::sort(v.begin(), v.end());
  return v;
}

LawCheck same_modes(const std::string& name, const Layout& r, const Layout& def, const std::string& what) {
  if (leaves(r) == leaves(def)) return LawCheck{name, true, "holds: the modes of " + what + " " + to_string(def)};
  return LawCheck{name, false, to_string(r) + " is not a rearrangement of " + what + " " + to_string(def)};
}

struct Checker {
  const CalcOptions& opt;
  LawLog log;
  std::vector<LawCheck> out;
  // CuTe's algorithm, unchecked (the law is what is being checked).
  Options cute() { return Options{opt.strict, true, &log}; }

  Layout composition_checked(const Layout& a, const Layout& b, const std::string& name) {
    const Layout r = ::cotile::composition(a, b, cute());
    out.push_back(
        from_report(name + ": R(c) = A(B(c))", laws::composition(a, coalesce_x(a), b, r, true), "c < size(B)"));
    return r;
  }
  Layout complement_checked(const Layout& l, const IntTuple& t, const std::string& name) {
    const Layout c = ::cotile::complement(l, t, cute());
    const Layout f = filter(l);
    const char* refusal = f.rank() > 1 && !is_static(wrap(f.stride))
                              ? "CuTe computes the complement of a rank > 1 layout only with static strides"
                              : nullptr;
    out.push_back(from_report(name + ": " + laws::kComplementLaw, laws::complement(l, f, t, c, refusal, true),
                              "(F, C) over its domain"));
    return c;
  }
  // logical_divide(A, B) = A o (B, complement(B, shape(coalesce(A)))).
  Layout divide(const Layout& a, const Layout& b) {
    const Layout c = complement_checked(b, coalesce(a).shape, "complement(B, shape(coalesce(A)))");
    return composition_checked(a, make_layout_concat(b, c), "A o (B, complement)");
  }
  // logical_product(A, B) = (A, complement(A, size(A) cosize(B)) o B).
  Layout product(const Layout& a, const Layout& b) {
    const Layout c = complement_checked(a, int_tuple(size(a) * cosize(b)), "complement(A, size(A)*cosize(B))");
    return make_layout_concat(a, composition_checked(c, b, "complement o B"));
  }
  // A tiler applied mode by mode ('_' keeps a mode); an integer n is n:_1.
  Layout by_mode(const Layout& a, const Tile& t, bool is_divide) {
    if (t.is_leaf()) {
      const TileLeaf& x = t.value();
      if (x.kind == TileLeaf::kUnderscore) return a;
      const Layout b = x.kind == TileLeaf::kInt ? make_layout(int_tuple(x.integer())) : x.layout;
      return is_divide ? divide(a, b) : product(a, b);
    }
    LayoutList r;
    for (int i = 0; i < a.rank(); ++i) r.push_back(i < t.rank() ? by_mode(a.get(i), t.get(i), is_divide) : a.get(i));
    return r.layout();
  }
};

const std::set<std::string>& ops_with_laws() {
  static const std::set<std::string> s = {
      "composition",    "complement",      "left_inverse",  "right_inverse", "coalesce",          "filter",
      "logical_divide", "zipped_divide",   "tiled_divide",  "flat_divide",   "logical_product",   "zipped_product",
      "tiled_product",  "blocked_product", "raked_product", "upcast",        "max_common_layout", "max_common_vector"};
  return s;
}

}  // namespace

bool has_law(const std::string& op) { return ops_with_laws().count(op) != 0; }

std::vector<LawCheck> law_checks(const std::string& op, const std::vector<Value>& args, const CalcOptions& opt) {
  if (!has_law(op)) {
    std::string known;
    for (const std::string& o : ops_with_laws()) known += (known.empty() ? "" : " ") + o;
    throw Error("verify", "no law for '" + op + "'",
                "verify law: '" + op + "' has no law to check (those with one: " + known + ")");
  }
  // The operation's arity and argument kinds are the calculator's: evaluate it once as CuTe does.
  CalcOptions cute_calc = opt;
  cute_calc.unchecked = true;
  LawLog ignored;
  cute_calc.log = &ignored;
  const Value result = call(op, args, cute_calc);
  Checker k{opt, {}, {}};
  auto layout = [&](size_t i) { return text::to_layout(args[i], op, int(i) + 1); };
  auto tile = [&](size_t i) { return text::to_tile(args[i], op, int(i) + 1); };
  const Layout r = result.kind == Value::kLayout ? result.layout : Layout{};
  if (op == "composition") {
    if (args[1].kind == Value::kLayout) {
      k.composition_checked(layout(0), layout(1), "composition");
    } else {
      const Tile t = tile(1);
      const Layout a = layout(0);
      if (t.is_leaf()) {
        k.composition_checked(a,
                              t.value().kind == TileLeaf::kInt
                                  ? Layout{int_tuple(t.value().integer()), int_tuple(static_int(1))}
                                  : t.value().layout,
                              "composition");
      } else {
        for (int i = 0; i < t.rank(); ++i) {
          if (t.get(i).is_tuple()) throw Error("verify", "nested tile", "verify law: nested tiles are not supported");
          const TileLeaf x = t.get(i).value();
          if (x.kind == TileLeaf::kUnderscore) continue;
          k.composition_checked(
              a.get(i), x.kind == TileLeaf::kInt ? Layout{int_tuple(x.integer()), int_tuple(static_int(1))} : x.layout,
              "composition (mode " + std::to_string(i) + ")");
        }
      }
    }
  } else if (op == "complement") {
    const Layout l = layout(0);
    k.complement_checked(l, args.size() > 1 ? text::to_int_tuple(args[1], op, 2) : int_tuple(cosize(filter(l))),
                         "complement");
  } else if (op == "left_inverse") {
    const Layout l = layout(0);
    const char* refusal = is_static(coalesce(l).stride) ? nullptr : "left_inverse needs static strides";
    k.out.push_back(from_report(std::string("left_inverse: ") + laws::kLeftInverseLaw,
                                laws::left_inverse(l, coalesce(l), r, refusal, true), "i < size(L)"));
  } else if (op == "right_inverse") {
    k.out.push_back(from_report(std::string("right_inverse: ") + laws::kRightInverseLaw,
                                laws::right_inverse(layout(0), coalesce(layout(0)), r, true), "i < size(R)"));
  } else if (op == "coalesce" || op == "filter") {
    const Layout l = layout(0);
    const Flat fl = laws::flat(l), fr = laws::flat(r);
    if (op == "coalesce") {
      k.out.push_back(pointwise("coalesce: R(i) = L(i)", fl.size(), "i < size(L)", [&](int64_t i) -> std::string {
        if (fl(i) == fr(i)) return "";
        return "i = " + std::to_string(i) + " (R(i) = " + std::to_string(fr(i)) + ", L(i) = " + std::to_string(fl(i)) +
               ")";
      }));
    } else {
      std::set<int64_t> a, b;
      for (int64_t i = 0; i < fl.size() && i <= laws::kLawPoints; ++i) a.insert(fl(i));
      for (int64_t i = 0; i < fr.size() && i <= laws::kLawPoints; ++i) b.insert(fr(i));
      k.out.push_back(LawCheck{"filter: R and L have the same image", a == b,
                               a == b ? "holds: both reach the same " + std::to_string(a.size()) + " offsets"
                                      : "the images differ (" + std::to_string(a.size()) + " and " +
                                            std::to_string(b.size()) + " offsets)"});
    }
  } else if (op == "logical_divide" || op == "zipped_divide" || op == "tiled_divide" || op == "flat_divide" ||
             op == "logical_product" || op == "zipped_product" || op == "tiled_product") {
    const bool divide = op.find("divide") != std::string::npos;
    const Layout def = k.by_mode(layout(0), tile(1), divide);
    const std::string base = divide ? "logical_divide" : "logical_product";
    if (op == base)
      k.out.push_back(LawCheck{op + ": R is its definition", r == def,
                               r == def ? "holds" : to_string(r) + " != " + to_string(def)});
    else k.out.push_back(same_modes(op + ": R rearranges " + base, r, def, base));
  } else if (op == "blocked_product" || op == "raked_product") {
    const Layout a = layout(0), b = layout(1);
    const int rk = std::max(a.rank(), b.rank());
    k.out.push_back(same_modes(op + ": R rearranges logical_product", r,
                               k.product(append_to_rank(a, rk), append_to_rank(b, rk)), "logical_product"));
  } else if (op == "upcast") {
    const LawReport rep = laws::upcast(layout(0), text::to_int(args[1], op, 2).value, r);
    k.out.push_back(LawCheck{std::string("upcast: ") + laws::kUpcastLaw, rep.holds,
                             rep.holds ? "holds: every run-time stride is a multiple of N" : rep.message.c_str()});
  } else {  // max_common_layout, max_common_vector
    const Layout a = layout(0), b = layout(1);
    const Layout inv = right_inverse(b, k.cute());
    const Layout c = coalesce(composition(a, inv, k.cute()));
    const bool unit = c.shape.get(0).value().is_static && is_constant(c.stride.get(0).value(), 1);
    const Layout common = unit ? composition(inv, c.get(0), k.cute()) : Layout{};
    const Flat fa = laws::flat(a), fb = laws::flat(b), fc = laws::flat(common);
    k.out.push_back(pointwise(op + ": " + laws::kMaxCommonLaw, fc.size(), "i < size(R)", [&](int64_t i) -> std::string {
      const int64_t j = fc(i);
      if (j >= 0 && j < fa.size() && j < fb.size() && fa(j) == i && fb(j) == i) return "";
      return "i = " + std::to_string(i) + " (R(i) = " + std::to_string(j) + ")";
    }));
  }
  return k.out;
}

}  // namespace cotile::cli
