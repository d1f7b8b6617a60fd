// cotile verify: check a layout or a copy by enumeration and report a counterexample.
#include <cstdio>
#include <map>
#include <unordered_map>

#include "explain.hpp"
#include "laws.hpp"
#include "json.hpp"

namespace cotile::cli {

namespace {

using Check = VerifyCheck;

constexpr int64_t kMaxEnumerate = int64_t(1) << 26;

int64_t at(const Layout& l, int64_t i) { return eval(l, int_tuple(dynamic_int(i))).value; }
std::string crd(const Layout& l, int64_t i) { return to_string(idx2crd(int_tuple(dynamic_int(i)), l.shape)).c_str(); }

void require_enumerable(const Layout& l, const std::string& what) {
  const int64_t n = size(l).value;
  if (n > kMaxEnumerate)
    throw Error("verify", what + " has " + std::to_string(n) + " elements, more than verify enumerates (2^26)",
                "verify: " + what + " is too large to enumerate (" + std::to_string(n) + " elements)");
}

Check injective(const Layout& l) {
  require_enumerable(l, "the layout");
  Check c{"injective", to_string(l), "", true, ""};
  std::unordered_map<int64_t, int64_t> first;
  for (int64_t i = 0; i < size(l).value; ++i) {
    const int64_t a = at(l, i);
    auto [it, fresh] = first.emplace(a, i);
    if (!fresh) {
      c.holds = false;
      c.counterexample = "L" + crd(l, it->second) + " = L" + crd(l, i) + " = " + std::to_string(a) + " (indices " +
                         std::to_string(it->second) + " and " + std::to_string(i) + ")";
      c.message = "not injective: two coordinates map to offset " + std::to_string(a);
      return c;
    }
  }
  c.message = "its " + std::to_string(size(l).value) + " coordinates map to distinct offsets";
  return c;
}

Check surjective(const Layout& l, int64_t codomain) {
  require_enumerable(l, "the layout");
  Check c{"surjective", to_string(l), "", true, ""};
  // Onto [0, N): every offset reached, and no offset outside (a map into a larger range is not
  // one onto [0, N), and bijective would otherwise pass an injective L of more elements than N).
  std::vector<char> hit(size_t(codomain), 0);
  for (int64_t i = 0; i < size(l).value; ++i) {
    const int64_t a = at(l, i);
    if (a < 0 || a >= codomain) {
      c.holds = false;
      c.counterexample = "L" + crd(l, i) + " = " + std::to_string(a) + " (index " + std::to_string(i) + ")";
      c.message = "not a map onto [0," + std::to_string(codomain) + "): an offset lies outside it";
      return c;
    }
    hit[size_t(a)] = 1;
  }
  for (int64_t a = 0; a < codomain; ++a)
    if (!hit[size_t(a)]) {
      c.holds = false;
      c.counterexample = "offset " + std::to_string(a) + " is not reached";
      c.message = "not surjective onto [0," + std::to_string(codomain) + ")";
      return c;
    }
  c.message = "every offset in [0," + std::to_string(codomain) + ") is reached";
  return c;
}

// Each element of the tile exactly once: TV(t,v) is a coordinate index of the tile.
Check tv_exactly_once(const Layout& tv, const IntTuple& tile, const std::string& what) {
  const int64_t n = size(tile).value;
  Check c{what, to_string(tv) + " over " + to_string(tile), "", true, ""};
  if (n > kMaxEnumerate) throw Error("verify", "tile too large", "verify: the tile is too large to enumerate");
  std::vector<int64_t> owner(size_t(n), -1);
  const int64_t threads = size(tv.get(0)).value;
  for (int64_t i = 0; i < size(tv).value; ++i) {
    const int64_t z = at(tv, i);
    const int64_t t = i % threads, v = i / threads;
    if (z < 0 || z >= n) {
      c.holds = false;
      c.counterexample =
          "T" + std::to_string(t) + "V" + std::to_string(v) + " -> " + std::to_string(z) + " is outside the tile";
      c.message = "a (thread, value) points outside the tile";
      return c;
    }
    if (owner[size_t(z)] >= 0) {
      const int64_t o = owner[size_t(z)];
      c.holds = false;
      c.counterexample = "element " + std::to_string(z) + " = " + to_string(idx2crd(int_tuple(dynamic_int(z)), tile)) +
                         " is owned by T" + std::to_string(o % threads) + "V" + std::to_string(o / threads) + " and T" +
                         std::to_string(t) + "V" + std::to_string(v);
      c.message = "an element is owned twice";
      return c;
    }
    owner[size_t(z)] = i;
  }
  for (int64_t z = 0; z < n; ++z)
    if (owner[size_t(z)] < 0) {
      c.holds = false;
      c.counterexample = "element " + std::to_string(z) + " = " + to_string(idx2crd(int_tuple(dynamic_int(z)), tile)) +
                         " is owned by no thread";
      c.message = "an element is not covered";
      return c;
    }
  c.message = std::to_string(threads) + " threads x " + std::to_string(size(tv.get(1)).value) +
              " values cover the tile's " + std::to_string(n) + " elements exactly once";
  return c;
}

// Partitions of every thread cover the tensor exactly once (on coordinates).
Check partitions_exactly_once(const TiledCopy& tc, const IntTuple& shape, bool src) {
  const Layout coords = make_layout(shape);
  const int64_t n = size(shape).value;
  Check c{src ? "partition_S covers each element once" : "partition_D covers each element once", to_string(shape), "",
          true, ""};
  std::vector<int64_t> owner(size_t(n), -1);
  for (int64_t t = 0; t < size(tc).value; ++t) {
    const SlicedLayout p = partition(tc, coords, dynamic_int(t), src);
    for (int64_t i = 0; i < size(p.layout).value; ++i) {
      const int64_t q = p.offset.value + at(p.layout, i);
      if (owner[size_t(q)] >= 0) {
        c.holds = false;
        c.counterexample = "coordinate " + to_string(idx2crd(int_tuple(dynamic_int(q)), shape)) +
                           " is in the partitions of threads " + std::to_string(owner[size_t(q)]) + " and " +
                           std::to_string(t);
        c.message = "an element is copied twice";
        return c;
      }
      owner[size_t(q)] = t;
    }
  }
  for (int64_t q = 0; q < n; ++q)
    if (owner[size_t(q)] < 0) {
      c.holds = false;
      c.counterexample =
          "coordinate " + to_string(idx2crd(int_tuple(dynamic_int(q)), shape)) + " is in no thread's partition";
      c.message = "an element is not copied";
      return c;
    }
  c.message =
      std::to_string(size(tc).value) + " threads' partitions cover all " + std::to_string(n) + " elements exactly once";
  return c;
}

// Source and destination partitions agree on logical coordinates. With Src == Dst atoms this
// is per (thread, value); otherwise the atom moves values between threads and the two sides
// must cover the same coordinates.
Check src_dst_agree(const TiledCopy& tc, const IntTuple& shape) {
  const Layout coords = make_layout(shape);
  Check c{"source and destination agree on coordinates", to_string(shape), "", true, ""};
  const bool same_atom = tc.atom.val_src == tc.atom.val_dst;
  std::map<int64_t, int64_t> count;
  for (int64_t t = 0; t < size(tc).value; ++t) {
    const SlicedLayout s = partition_S(tc, coords, dynamic_int(t)), d = partition_D(tc, coords, dynamic_int(t));
    for (int64_t i = 0; i < size(s.layout).value; ++i) {
      const int64_t qs = s.offset.value + at(s.layout, i);
      ++count[qs];
      if (same_atom) {
        const int64_t qd = d.offset.value + at(d.layout, i);
        if (qs != qd) {
          c.holds = false;
          c.counterexample = "thread " + std::to_string(t) + " value " + std::to_string(i) + ": source " +
                             to_string(idx2crd(int_tuple(dynamic_int(qs)), shape)) + ", destination " +
                             to_string(idx2crd(int_tuple(dynamic_int(qd)), shape));
          c.message = "a (thread, value) reads one coordinate and writes another";
          return c;
        }
      }
    }
    for (int64_t i = 0; i < size(d.layout).value; ++i) --count[d.offset.value + at(d.layout, i)];
  }
  for (const auto& [q, k] : count)
    if (k != 0) {
      c.holds = false;
      c.counterexample = "coordinate " + to_string(idx2crd(int_tuple(dynamic_int(q)), shape)) + " is read " +
                         (k > 0 ? "more" : "less") + " often than written";
      c.message = "source and destination cover different coordinates";
      return c;
    }
  c.message = same_atom ? "every (thread, value) reads and writes the same coordinate"
                        : "the atom moves values between threads; source and destination cover the same coordinates";
  return c;
}

// left:  R = left_inverse(L),  R(L(i)) == i for i < size(L);
// right: R = right_inverse(L), L(R(i)) == i for i < size(R).
Check inverse_check(const Layout& l, bool left) {
  Check c{left ? "left_inverse" : "right_inverse", to_string(l), "", true, ""};
  const Layout r = left ? left_inverse(l) : right_inverse(l);
  const Layout& inner = left ? l : r;
  const Layout& outer = left ? r : l;
  const std::string law = left ? "R(L(" : "L(R(";
  for (int64_t i = 0; i < size(inner).value; ++i)
    if (at(outer, at(inner, i)) != i) {
      c.holds = false;
      c.counterexample =
          law + std::to_string(i) + ")) = " + std::to_string(at(outer, at(inner, i))) + " with R = " + to_string(r);
      c.message = left ? "left_inverse(L) o L is not the identity (is L injective?)"
                       : "L o right_inverse(L) is not the identity";
      return c;
    }
  c.message = "R = " + to_string(r) + " and " + law + "i)) == i for all i < " + std::to_string(size(inner).value);
  return c;
}

Layout layout_arg(const Flags& f, size_t i, const std::string& what) {
  if (f.positional.size() <= i) throw Error("verify", "missing " + what, "verify: missing " + what);
  return text::to_layout(text::parse(f.positional[i]), "verify", int(i));
}

}  // namespace

bool VerifyReport::holds() const {
  for (const Check& c : checks)
    if (!c.holds) return false;
  return true;
}

Flags verify_flags(const std::vector<std::string>& args) {
  return parse_flags(args, {"codomain", "tile", "atom", "elem", "atom-tv", "data", "thr", "val", "tensor"}, "verify");
}

VerifyReport verify_from(const Flags& f) {
  if (f.positional.empty())
    throw Error(
        "verify", "missing what to verify",
        "verify: usage: verify bijective|injective|surjective LAYOUT [--codomain N] | verify tv TV --tile SHAPE | "
        "verify copy ... | verify inverse left|right LAYOUT | verify law OP ARG...");
  const std::string what = f.positional[0];
  std::vector<Check> checks;
  if (what == "injective" || what == "surjective" || what == "bijective") {
    const Layout l = layout_arg(f, 1, "LAYOUT");
    const int64_t n = f.has("codomain") ? f.integer("codomain", 0, "verify")
                                        : (what == "bijective" ? size(l).value : cosize(l).value);
    if (what != "surjective") checks.push_back(injective(l));
    if (what != "injective") checks.push_back(surjective(l, n));
  } else if (what == "tv") {
    const Layout tv = layout_arg(f, 1, "TV_LAYOUT");
    if (!f.has("tile")) throw Error("verify", "missing --tile", "verify tv: missing --tile SHAPE");
    checks.push_back(tv_exactly_once(tv, text::to_int_tuple(text::parse(f.get("tile")), "verify --tile", 1),
                                     "each element exactly once"));
  } else if (what == "copy") {
    const TiledCopy tc = copy_from_flags(f, "verify copy");
    // The tensor: --tensor, else the data layout of a cotiled copy, else the tiled copy's tile.
    const IntTuple shape = f.has("tensor") ? text::to_layout(text::parse(f.get("tensor")), "verify --tensor", 1).shape
                           : f.has("data") ? text::to_layout(text::parse(f.get("data")), "verify --data", 1).shape
                                           : tiler_shape(tc.tiler);
    checks.push_back(tv_exactly_once(get_layoutS_TV(tc), tiler_shape(tc.tiler), "layoutS_TV covers the tile once"));
    checks.push_back(tv_exactly_once(get_layoutD_TV(tc), tiler_shape(tc.tiler), "layoutD_TV covers the tile once"));
    checks.push_back(partitions_exactly_once(tc, shape, true));
    checks.push_back(partitions_exactly_once(tc, shape, false));
    checks.push_back(src_dst_agree(tc, shape));
  } else if (what == "law") {
    if (f.positional.size() < 2)
      throw Error("verify", "usage",
                  "verify: usage: verify law OP ARG... (e.g. verify law composition \"(_4,_6):(_1,_5)\" _6:_3)");
    const std::string op = f.positional[1];
    CalcOptions opt;
    opt.strict = f.strict;
    std::vector<Value> vals;
    std::string subject = op + "(";
    for (size_t i = 2; i < f.positional.size(); ++i) {
      vals.push_back(evaluate(f.positional[i], opt));
      subject += (i > 2 ? ", " : "") + text::to_string(vals.back());
    }
    subject += ")";
    for (const LawCheck& c : law_checks(op, vals, opt)) {
      // A failure: its message's first line from "fails", then the message's other lines.
      const size_t nl = c.detail.find('\n'), at = c.detail.find(" fails");
      const std::string first = c.detail.substr(0, nl);
      checks.push_back(Check{c.name, subject,
                             c.holds   ? c.detail
                             : at < nl ? first.substr(at + 1)
                                       : first,
                             c.holds, c.holds || nl == std::string::npos ? "" : c.detail.substr(nl + 1)});
    }
  } else if (what == "inverse") {
    if (f.positional.size() < 3 || (f.positional[1] != "left" && f.positional[1] != "right"))
      throw Error("verify", "usage", "verify: usage: verify inverse left|right LAYOUT");
    checks.push_back(inverse_check(layout_arg(f, 2, "LAYOUT"), f.positional[1] == "left"));
  } else {
    throw Error("verify", "unknown check '" + what + "'",
                "verify: unknown check '" + what + "' (bijective injective surjective tv copy inverse law)");
  }
  return VerifyReport{checks};
}

std::string render_json(const VerifyReport& r) {
  std::string j = "{\"holds\":" + std::string(r.holds() ? "true" : "false") + ",\"checks\":[";
  for (size_t i = 0; i < r.checks.size(); ++i) {
    const Check& c = r.checks[i];
    j += (i ? "," : "") + std::string("{\"check\":") + json_str(c.name) + ",\"subject\":" + json_str(c.subject) +
         ",\"holds\":" + (c.holds ? "true" : "false") + ",\"message\":" + json_str(c.message) +
         ",\"counterexample\":" + (c.counterexample.empty() ? "null" : json_str(c.counterexample)) + "}";
  }
  return j + "]}";
}

std::string render_text(const VerifyReport& r) {
  std::string t;
  for (const Check& c : r.checks) {
    t += std::string(c.holds ? "PASS " : "FAIL ") + c.name + ": " + c.message + "\n";
    // (a law's failure continues with its message's indented lines)
    if (!c.holds && c.counterexample.rfind("  ", 0) == 0) t += c.counterexample + "\n";
    else if (!c.holds) t += "  counterexample: " + c.counterexample + "\n";
  }
  return t;
}

int cmd_verify(const std::vector<std::string>& args) {
  const Flags f = verify_flags(args);
  const VerifyReport r = verify_from(f);
  std::fputs((f.json ? render_json(r) + "\n" : render_text(r)).c_str(), stdout);
  return r.holds() ? 0 : 1;
}

}  // namespace cotile::cli
