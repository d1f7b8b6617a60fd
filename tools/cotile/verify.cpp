// cotile verify: check a layout or a copy by enumeration and report a counterexample.
#include <algorithm>
#include <cstdio>

#include "explain.hpp"
#include "cotile/laws/flat.hpp"
#include "json.hpp"
#include "laws.hpp"

namespace cotile::cli {

namespace {

using Check = VerifyCheck;

// At most 2^24 elements: verify's arrays of them take up to 256 MB (injective's pairs). Layouts
// are evaluated as laws::flat (no coordinate trees): verify's values are all known.
constexpr int64_t kMaxEnumerate = int64_t(1) << 24;

std::string crd(const Layout& l, int64_t i) { return to_string(idx2crd(int_tuple(dynamic_int(i)), l.shape)).c_str(); }

// n elements of `what`, which verify enumerates (an array of n entries for a tile or tensor).
void require_enumerable(int64_t n, const std::string& what) {
  if (n > kMaxEnumerate)
    throw Error("verify", what + " has " + std::to_string(n) + " elements, more than verify enumerates (2^24)",
                "verify: " + what + " is too large to enumerate (" + std::to_string(n) + " elements)");
}
void require_enumerable(const Layout& l, const std::string& what) { require_enumerable(size(l).value, what); }
// A tile's or tensor's shape: extents >= 0 (the engine's check, in the verb's name), enumerable.
void require_shape(const IntTuple& s, const std::string& what) {
  check_extents("verify", s);
  require_enumerable(size(s).value, what);
}
// A TV layout (two modes, threads and values) that verify enumerates.
void require_tv(const Layout& tv) {
  require_tv_layout(tv, "verify");
  require_enumerable(tv, "the TV layout");
}

Check injective(const Layout& l) {
  require_enumerable(l, "the layout");
  Check c{"injective", to_string(l), "", true, ""};
  // (offset, index) sorted: the first index whose offset an earlier index has is the smallest
  // second index of a run of equal offsets; the run's first index is that earlier one.
  const laws::Flat f = laws::flat(l);
  const int64_t n = size(l).value;
  std::vector<std::pair<int64_t, int64_t>> by_offset(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) by_offset[size_t(i)] = {f(i), i};
  std::sort(by_offset.begin(), by_offset.end());
  size_t repeat = 0;  // the entry of that index (0: none, entry 0 starts a run)
  for (size_t k = 1; k < by_offset.size(); ++k) {
    const int64_t a = by_offset[k].first;
    const bool second_of_run = by_offset[k - 1].first == a && (k == 1 || by_offset[k - 2].first != a);
    if (second_of_run && (repeat == 0 || by_offset[k].second < by_offset[repeat].second)) repeat = k;
  }
  if (repeat != 0) {
    const auto [a, i] = by_offset[repeat];
    const int64_t j = by_offset[repeat - 1].second;
    c.holds = false;
    c.counterexample = "L" + crd(l, j) + " = L" + crd(l, i) + " = " + std::to_string(a) + " (indices " +
                       std::to_string(j) + " and " + std::to_string(i) + ")";
    c.message = "not injective: two coordinates map to offset " + std::to_string(a);
    return c;
  }
  c.message = "its " + std::to_string(size(l).value) + " coordinates map to distinct offsets";
  return c;
}

Check surjective(const Layout& l, int64_t codomain) {
  require_enumerable(l, "the layout");
  if (codomain < 0)
    throw Error("verify", "--codomain must be >= 0",
                "verify: --codomain N must be >= 0 (the offsets [0, N)), got " + std::to_string(codomain));
  Check c{"surjective", to_string(l), "", true, ""};
  // Onto [0, N): every offset reached, and no offset outside (a map into a larger range is not
  // one onto [0, N), and bijective would otherwise pass an injective L of more elements than N).
  // The offsets reached, sorted: the first missing one is the first gap (N may exceed size(L)).
  const int64_t n = size(l).value;
  std::vector<int64_t> reached;
  reached.reserve(size_t(n));
  const laws::Flat f = laws::flat(l);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = f(i);
    if (a < 0 || a >= codomain) {
      c.holds = false;
      c.counterexample = "L" + crd(l, i) + " = " + std::to_string(a) + " (index " + std::to_string(i) + ")";
      c.message = "not a map onto [0," + std::to_string(codomain) + "): an offset lies outside it";
      return c;
    }
    reached.push_back(a);
  }
  std::sort(reached.begin(), reached.end());
  reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
  int64_t missing = 0;  // reached holds 0, 1, ..., k - 1 as its first k entries: k is missing
  while (missing < int64_t(reached.size()) && reached[size_t(missing)] == missing) ++missing;
  if (missing < codomain) {
    c.holds = false;
    c.counterexample = "offset " + std::to_string(missing) + " is not reached";
    c.message = "not surjective onto [0," + std::to_string(codomain) + ")";
    return c;
  }
  c.message = "every offset in [0," + std::to_string(codomain) + ") is reached";
  return c;
}

// Each element of the tile exactly once: TV(t,v) is a coordinate index of the tile.
Check tv_exactly_once(const Layout& tv, const IntTuple& tile, const std::string& what) {
  require_tv(tv);
  require_shape(tile, "the tile");
  const int64_t n = size(tile).value;
  Check c{what, to_string(tv) + " over " + to_string(tile), "", true, ""};
  std::vector<int64_t> owner(size_t(n), -1);
  const int64_t threads = size(tv.get(0)).value;
  const laws::Flat f = laws::flat(tv);
  const int64_t items = size(tv).value;
  for (int64_t i = 0; i < items; ++i) {
    const int64_t z = f(i);
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
  require_shape(shape, "the tensor");
  const Layout coords = make_layout(shape);
  const int64_t n = size(shape).value;
  Check c{src ? "partition_S covers each element once" : "partition_D covers each element once", to_string(shape), "",
          true, ""};
  std::vector<int64_t> owner(size_t(n), -1);
  for (int64_t t = 0; t < size(tc).value; ++t) {
    const SlicedLayout p = partition(tc, coords, dynamic_int(t), src);
    require_enumerable(p.layout, "a thread's partition");
    const laws::Flat f = laws::flat(p.layout);
    const int64_t values = size(p.layout).value;
    for (int64_t i = 0; i < values; ++i) {
      const int64_t q = p.offset.value + f(i);
      if (q < 0 || q >= n) {
        c.holds = false;
        c.counterexample = "thread " + std::to_string(t) + " value " + std::to_string(i) + " -> index " +
                           std::to_string(q) + ", outside the tensor's " + std::to_string(n) + " elements";
        c.message = "a partition reaches outside the tensor";
        return c;
      }
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
  require_shape(shape, "the tensor");
  const Layout coords = make_layout(shape);
  const int64_t n = size(shape).value;
  Check c{"source and destination agree on coordinates", to_string(shape), "", true, ""};
  const bool same_atom = tc.atom.val_src == tc.atom.val_dst;
  // Every thread's partition is enumerated (each of one size): at most 2^24 elements in all.
  const int64_t each = size(partition_S(tc, coords, dynamic_int(0)).layout).value;
  if (each > 0 && size(tc).value > kMaxEnumerate / each)
    throw Error("verify", "the partitions are too large to enumerate",
                "verify: the threads' partitions together are too large to enumerate (" +
                    std::to_string(size(tc).value) + " threads of " + std::to_string(each) + " elements)");
  std::vector<int64_t> count(size_t(n), 0);  // reads minus writes of each coordinate
  // q, an index the partitions reach, lies in the tensor; otherwise c fails naming it.
  auto inside = [&](int64_t q, int64_t t, int64_t i, const char* side) {
    if (q >= 0 && q < n) return true;
    c.holds = false;
    c.counterexample = "thread " + std::to_string(t) + " value " + std::to_string(i) + ": " + side + " index " +
                       std::to_string(q) + ", outside the tensor's " + std::to_string(n) + " elements";
    c.message = "a partition reaches outside the tensor";
    return false;
  };
  for (int64_t t = 0; t < size(tc).value; ++t) {
    const SlicedLayout s = partition_S(tc, coords, dynamic_int(t)), d = partition_D(tc, coords, dynamic_int(t));
    const laws::Flat fs = laws::flat(s.layout), fd = laws::flat(d.layout);
    const int64_t s_values = size(s.layout).value, d_values = size(d.layout).value;
    for (int64_t i = 0; i < s_values; ++i) {
      const int64_t qs = s.offset.value + fs(i);
      if (!inside(qs, t, i, "source")) return c;
      ++count[size_t(qs)];
      if (same_atom) {
        const int64_t qd = d.offset.value + fd(i);
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
    for (int64_t i = 0; i < d_values; ++i) {
      const int64_t qd = d.offset.value + fd(i);
      if (!inside(qd, t, i, "destination")) return c;
      --count[size_t(qd)];
    }
  }
  for (int64_t q = 0; q < n; ++q)
    if (const int64_t k = count[size_t(q)]; k != 0) {
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
// (left_inverse of a non-injective L satisfies its own law, L(R(L(i))) = L(i), which `verify law
// left_inverse` checks; no R makes R o L the identity there, and the failure names the two indices.)
Check inverse_check(const Layout& l, bool left) {
  Check c{left ? "left_inverse" : "right_inverse", to_string(l), "", true, ""};
  const Layout r = left ? left_inverse(l) : right_inverse(l);
  const Layout& inner = left ? l : r;
  const Layout& outer = left ? r : l;
  require_enumerable(inner, left ? "the layout" : "the right inverse");
  const std::string law = left ? "R(L(" : "L(R(";
  const laws::Flat fi = laws::flat(inner), fo = laws::flat(outer);
  const int64_t n = size(inner).value;
  for (int64_t i = 0; i < n; ++i)
    if (fo(fi(i)) != i) {
      c.holds = false;
      c.counterexample = law + std::to_string(i) + ")) = " + std::to_string(fo(fi(i))) + " with R = " + to_string(r);
      c.message = left ? "left_inverse(L) o L is not the identity" : "L o right_inverse(L) is not the identity";
      if (const Check inj = injective(l); left && !inj.holds)
        c.message += ": L is not injective, " + inj.counterexample +
                     ", so no R has R(L(i)) = i (left_inverse's law for such L: verify law left_inverse)";
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
