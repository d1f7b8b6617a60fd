// Every returned result satisfies its operation's law, on generated inputs with static and
// dynamic leaves (seeded; COTILE_LAW_CASES cases per operation, 100000 by default).
//
// Each case runs the operation in cotile's default mode and checks what it returns with the
// independent evaluator (law_oracle.hpp). A refusal is checked too: when the operation refuses
// for a violated law, the result CuTe computes for the same inputs (--as-cute) must violate the
// law by the same evaluator, so that no refusal is spurious. The table printed at the end gives,
// per operation, the cases, the results, the refusals for a violated law, and the other
// refusals (CuTe's own static checks, non-positive shapes, ...).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <type_traits>

#include "law_oracle.hpp"
#include "tile_laws.hpp"

using namespace cotile;

namespace {

int64_t cases_per_op() {
  const char* e = std::getenv("COTILE_LAW_CASES");
  return e ? std::atoll(e) : 100000;
}

// --- generated inputs -------------------------------------------------------------------------

struct Gen {
  std::mt19937_64 g;
  explicit Gen(uint64_t seed) : g(seed) {}
  int64_t pick(std::initializer_list<int64_t> xs) { return xs.begin()[g() % xs.size()]; }
  bool coin(int percent) { return int(g() % 100) < percent; }
  Int leaf(int64_t v) { return Int{v, coin(50)}; }

  // A layout of rank 1..max_rank, modes nested one level with probability 1/4.
  Layout layout(int max_rank, bool negative = true) {
    IntTuple s = IntTuple::tuple(), d = IntTuple::tuple();
    const int r = 1 + int(g() % max_rank);
    auto one = [&](IntTuple& ss, IntTuple& dd) {
      ss.push_back(int_tuple(leaf(pick({1, 2, 2, 3, 4, 4, 5, 6, 8, 8}))));
      int64_t stride = pick({0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 8, 12, 16, 24, 32});
      if (negative && coin(4)) stride = -stride;
      dd.push_back(int_tuple(leaf(stride)));
    };
    for (int i = 0; i < r; ++i) {
      if (coin(25)) {
        IntTuple ss = IntTuple::tuple(), dd = IntTuple::tuple();
        one(ss, dd);
        one(ss, dd);
        s.push_back(ss);
        d.push_back(dd);
      } else {
        one(s, d);
      }
    }
    return coin(15) && r == 1 ? Layout{s.get(0), d.get(0)} : Layout{s, d};
  }

  // A compact layout (an ordered permutation of a random shape) with random staticness, its
  // strides scaled by 1 or 2: the layouts tiles and tensors usually are.
  Layout compact(int max_rank) {
    IntTuple s = IntTuple::tuple(), o = IntTuple::tuple();
    const int r = 1 + int(g() % max_rank);
    for (int i = 0; i < r; ++i) {
      s.push_back(int_tuple(Int{pick({1, 2, 2, 3, 4, 4, 6, 8}), true}));
      o.push_back(int_tuple(static_int(int64_t(g() % 8))));
    }
    Layout l = make_ordered_layout(s, o);
    const int64_t k = pick({1, 1, 2});
    for (int i = 0; i < l.stride.num_leaves(); ++i) {
      l.stride.leaf_at(i) = Int{l.stride.leaf_at(i).value * k, coin(50)};
      l.shape.leaf_at(i).is_static = coin(50);
    }
    return l;
  }
  Layout any(int max_rank) { return coin(50) ? layout(max_rank) : compact(max_rank); }
};

// --- running an operation ---------------------------------------------------------------------

struct Stats {
  int64_t cases = 0, results = 0, law_refusals = 0, other_refusals = 0, violations = 0, spurious = 0;
  std::string first_violation, first_spurious;
};
std::map<std::string, Stats>& table() {
  static std::map<std::string, Stats> t;
  return t;
}

// run(opt) computes the result; law(result) is the oracle ("" when it holds).
template <class R>
void check(const std::string& op, const std::string& inputs, const std::function<R(Options)>& run,
           const std::function<std::string(const R&)>& law) {
  Stats& st = table()[op];
  ++st.cases;
  // A layout with a negative extent breaks every operation's law.
  const auto verdict = [&](const R& r) {
    if constexpr (std::is_same_v<R, Layout>) {
      const std::string w = oracle::extents(r);
      if (!w.empty()) return w;
    }
    return law(r);
  };
  try {
    const R r = run(kByValue);  // the calculator's default mode
    ++st.results;
    const std::string w = verdict(r);
    if (!w.empty()) {
      ++st.violations;
      if (st.first_violation.empty()) st.first_violation = inputs + ": " + w;
    }
  } catch (const LawError& e) {
    ++st.law_refusals;
    if (std::getenv("COTILE_LAW_SHOW_REFUSALS") && st.law_refusals <= 3)
      std::printf("%s refused by its law %s:\n  %s\n", op.c_str(), inputs.c_str(), e.what());
    // CuTe's result for the same inputs must violate the law.
    try {
      LawLog log;
      const R cute = run(Options{false, true, &log});
      if (verdict(cute).empty() && std::string(e.what()).find("could not be verified") == std::string::npos) {
        ++st.spurious;
        if (st.first_spurious.empty()) st.first_spurious = inputs + ": " + e.what();
      }
    } catch (const Error&) {
    }
  } catch (const Error& e) {
    ++st.other_refusals;
    if (std::getenv("COTILE_LAW_SHOW_REFUSALS") && st.other_refusals <= 3)
      std::printf("%s refused %s:\n  %s\n", op.c_str(), inputs.c_str(), e.what());
  }
}

std::string str(const Layout& l) { return to_string(l); }

using tile_laws::divide_law;
using tile_laws::product_law;

// blocked_product and raked_product (of a and b of one rank) regroup the modes of a lawful
// logical_product(a, b): r against that (the default mode's, itself checked by the law).
std::string modes_of_product(const Layout& a, const Layout& b, const Layout& r) {
  const Layout p = logical_product(a, b, kByValue);
  const std::string w = product_law(a, b, p);
  if (!w.empty()) return w;
  return oracle::leaves(r) == oracle::leaves(p) ? "" : "not the modes of logical_product";
}

// A tile for a: rank 1..rank(a), each element '_' (unless `no_underscore`), an integer n (n:_1 where
// a layout is needed), or a small layout.
Tile tile_for(Gen& g, const Layout& a, bool no_underscore) {
  Tile t = Tile::tuple();
  const int r = 1 + int(g.g() % a.rank());
  for (int i = 0; i < r; ++i) {
    const int kind = int(g.g() % 10);
    if (kind < 2 && !no_underscore) t.push_back(tile_underscore());
    else if (kind < 5) t.push_back(tile_int(g.leaf(g.pick({1, 2, 2, 3, 4, 8}))));
    else t.push_back(tile_layout(g.coin(50) ? g.compact(1) : g.layout(1, false)));
  }
  return t;
}

}  // namespace

TEST(LawSweep, Composition) {
  Gen g(101);
  for (int64_t n = 0; n < cases_per_op();) {
    const Layout a = g.any(3), b = g.coin(50) ? g.layout(3) : g.compact(3);
    if (oracle::Fn(b).size() > 512) continue;  // keep the oracle's enumeration short
    ++n;
    check<Layout>(
        "composition", str(a) + " o " + str(b), [&](Options o) { return composition(a, b, o); },
        [&](const Layout& r) { return oracle::composition(a, b, r); });
  }
}

TEST(LawSweep, Complement) {
  Gen g(102);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    const Layout l = g.any(3);
    const int kind = int(g.g() % 3);
    IntTuple t = int_tuple(dynamic_int(0));
    if (kind == 1) t = int_tuple(g.leaf(int64_t(g.g() % 64) + 1));
    if (kind == 2) t = make_tuple(g.leaf(g.pick({2, 3, 4, 8})), g.leaf(g.pick({1, 2, 4, 6})));
    int64_t target = 0;
    check<Layout>(
        "complement", str(l) + " T=" + to_string(t),
        [&](Options o) {
          const Layout c = kind == 0 ? complement(l, o) : complement(l, t, o);
          target = kind == 0 ? cosize(filter(l)).value : size(t).value;
          return c;
        },
        [&](const Layout& c) { return oracle::complement(l, target, c); });
  }
}

TEST(LawSweep, LeftInverse) {
  Gen g(103);
  for (int64_t n = 0; n < cases_per_op();) {
    const Layout l = g.any(3);
    if (oracle::Fn(l).size() > 512) continue;
    ++n;
    check<Layout>(
        "left_inverse", str(l), [&](Options o) { return left_inverse(l, o); },
        [&](const Layout& r) { return oracle::left_inverse(l, r); });
  }
}

TEST(LawSweep, RightInverse) {
  Gen g(104);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    const Layout l = g.any(3);
    check<Layout>(
        "right_inverse", str(l), [&](Options o) { return right_inverse(l, o); },
        [&](const Layout& r) { return oracle::right_inverse(l, r); });
  }
}

TEST(LawSweep, CoalesceAndFilter) {
  Gen g(105);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    const Layout l = g.any(4);
    check<Layout>(
        "coalesce", str(l), [&](Options) { return coalesce(l); },
        [&](const Layout& r) { return oracle::coalesce(l, r); });
    check<Layout>(
        "filter", str(l), [&](Options) { return filter(l); }, [&](const Layout& r) { return oracle::filter(l, r); });
  }
}

// Empty layouts (one extent 0, static or run-time): a law over L's indices holds on none, and
// filter's "the same offsets" means none at all (CuTe's filter makes (4,0):(_1,_0) the 4:_1); an
// empty L has no index for right_inverse's R(i), nor max_common_layout's, to be.
TEST(LawSweep, EmptyLayouts) {
  Gen g(113);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    Layout l = g.any(4);
    l.shape.leaf_at(int(g.g() % uint64_t(l.shape.num_leaves()))) = g.leaf(0);
    check<Layout>(
        "coalesce (empty)", str(l), [&](Options) { return coalesce(l); },
        [&](const Layout& r) { return oracle::coalesce(l, r); });
    check<Layout>(
        "filter (empty)", str(l), [&](Options) { return filter(l); },
        [&](const Layout& r) { return oracle::filter(l, r); });
    check<Layout>(
        "left_inverse (empty)", str(l), [&](Options o) { return left_inverse(l, o); },
        [&](const Layout& r) { return oracle::left_inverse(l, r); });
    check<Layout>(
        "right_inverse (empty)", str(l), [&](Options o) { return right_inverse(l, o); },
        [&](const Layout& r) { return oracle::right_inverse(l, r); });
    check<Layout>(
        "nullspace (empty)", str(l), [&](Options o) { return nullspace(l, o); },
        [&](const Layout& r) { return oracle::nullspace(l, r); });
    // The empty layout as A or as B, against any layout.
    const Layout other = g.any(4), a = g.coin(50) ? l : other, b = a == l ? other : l;
    check<Layout>(
        "max_common_layout (empty)", str(a) + " " + str(b), [&](Options o) { return max_common_layout(a, b, o); },
        [&](const Layout& r) { return oracle::max_common_layout(a, b, r); });
  }
}

TEST(LawSweep, LogicalDivide) {
  Gen g(106);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    const Layout a = g.any(3), b = g.coin(50) ? g.compact(2) : g.layout(2, false);
    check<Layout>(
        "logical_divide", str(a) + " / " + str(b), [&](Options o) { return logical_divide(a, b, o); },
        [&](const Layout& r) { return divide_law(a, b, r); });
  }
}

TEST(LawSweep, Products) {
  Gen g(107);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    const Layout a = g.coin(50) ? g.compact(2) : g.layout(2, false), b = g.coin(50) ? g.compact(2) : g.layout(2, false);
    check<Layout>(
        "logical_product", str(a) + " * " + str(b), [&](Options o) { return logical_product(a, b, o); },
        [&](const Layout& r) { return product_law(a, b, r); });
    const int rk = a.rank() > b.rank() ? a.rank() : b.rank();
    const Layout pa = append_to_rank(a, rk), pb = append_to_rank(b, rk);
    for (const bool raked : {false, true}) {
      check<Layout>(
          raked ? "raked_product" : "blocked_product", str(a) + " * " + str(b),
          [&](Options o) { return raked ? raked_product(a, b, o) : blocked_product(a, b, o); },
          [&](const Layout& r) { return modes_of_product(pa, pb, r); });
    }
  }
}

TEST(LawSweep, UpcastAndMaxCommon) {
  Gen g(108);
  for (int64_t n = 0; n < cases_per_op(); ++n) {
    // Strides mostly multiples of N (what upcast is for), some below it.
    Layout l = g.any(3);
    const int64_t k = g.pick({2, 4, 8});
    for (int i = 0; i < l.stride.num_leaves(); ++i)
      if (g.coin(80)) l.stride.leaf_at(i).value *= k;
    check<Layout>(
        "upcast", str(l) + " N=" + std::to_string(k), [&](Options o) { return upcast(l, k, o); },
        [&](const Layout& r) { return oracle::upcast(l, k, r); });
    // Two layouts of the same shape: compact, the modes in different orders.
    const IntTuple shape = g.compact(3).shape;
    auto ordered = [&] {
      IntTuple o = repeat_like(shape, static_int(0));
      for (int i = 0; i < o.num_leaves(); ++i) o.leaf_at(i) = static_int(int64_t(g.g() % 4));
      Layout x = make_ordered_layout(shape, o);
      for (int i = 0; i < x.stride.num_leaves(); ++i) x.stride.leaf_at(i).is_static = g.coin(50);
      return x;
    };
    const Layout a = ordered(), b = ordered();
    check<Layout>(
        "max_common_layout", str(a) + " " + str(b), [&](Options o) { return max_common_layout(a, b, o); },
        [&](const Layout& r) { return oracle::max_common_layout(a, b, r); });
    // A beside itself continued by a last mode _2 (twice its size): where A's contiguous run is all
    // of A, CuTe's steps run past A and the calculator answers the common prefix (algebra/cast.hpp,
    // common_prefix).
    const Layout wide{make_tuple(a.shape, int_tuple(static_int(2))),
                      make_tuple(a.stride, int_tuple(static_int(size(a).value)))};
    const bool wide_first = g.coin(50);
    const Layout x = wide_first ? wide : a, y = wide_first ? a : wide;
    check<Layout>(
        "max_common_layout (sizes differ)", str(x) + " " + str(y),
        [&](Options o) { return max_common_layout(x, y, o); },
        [&](const Layout& r) { return oracle::max_common_layout(x, y, r); });
    // A column-major from offset 0 (static) and B = A continued by a last mode: every element of A
    // is common to both, and CuTe's steps name all of B's (refused before the common prefix); the
    // answer must be all of A.
    IntTuple head_shape = shape;
    for (int i = 0; i < head_shape.num_leaves(); ++i) head_shape.leaf_at(i).is_static = true;
    const Layout head{head_shape, compact_col_major(head_shape, static_int(1))};
    const Layout longer{make_tuple(head.shape, int_tuple(static_int(g.pick({2, 3, 4})))),
                        make_tuple(head.stride, int_tuple(size(head)))};
    check<Layout>(
        "max_common_layout (A starts B)", str(head) + " " + str(longer),
        [&](Options o) { return max_common_layout(head, longer, o); },
        [&](const Layout& r) {
          const std::string w = oracle::max_common_layout(head, longer, r);
          if (!w.empty()) return w;
          return size(r).value == size(head).value ? std::string()
                                                   : "size(R) = " + to_string(size(r)) + ", not size(A)";
        });
  }
}

// Tiles (tuples of '_', integers and layouts): composition, logical_divide and logical_product by
// mode, each mode against its operation's law; the zipped, tiled and flat forms are the by-mode
// result's modes regrouped (tile_laws.hpp).
TEST(LawSweep, TileOps) {
  Gen g(109);
  for (int64_t n = 0; n < cases_per_op();) {
    const Layout a = g.any(3);
    const Tile t = tile_for(g, a, false), z = tile_for(g, a, true);
    bool small = oracle::Fn(a).size() <= 512;
    for (int i = 0; i < t.rank(); ++i) {
      Layout b;
      if (tile_laws::element(t, i, b)) small = small && oracle::Fn(b).size() <= 512;
    }
    if (!small) continue;
    ++n;
    const std::string in = str(a) + " by " + to_string(t), zin = str(a) + " by " + to_string(z);
    check<Layout>(
        "composition (tile)", in, [&](Options o) { return composition(a, t, o); },
        [&](const Layout& r) { return tile_laws::verdict("composition", a, t, r); });
    check<Layout>(
        "logical_divide (tile)", in, [&](Options o) { return logical_divide(a, t, o); },
        [&](const Layout& r) { return tile_laws::verdict("logical_divide", a, t, r); });
    check<Layout>(
        "logical_product (tile)", in, [&](Options o) { return logical_product(a, t, o); },
        [&](const Layout& r) { return tile_laws::verdict("logical_product", a, t, r); });
    // The regrouped forms, on a tile without '_' (whose modes have no (tile, rest) to regroup).
    for (const char* form : {"zipped_divide", "tiled_divide", "flat_divide", "zipped_product", "tiled_product"}) {
      check<Layout>(
          form, zin,
          [&](Options o) {
            const std::string f = form;
            return f == "zipped_divide"    ? zipped_divide(a, z, o)
                   : f == "tiled_divide"   ? tiled_divide(a, z, o)
                   : f == "flat_divide"    ? flat_divide(a, z, o)
                   : f == "zipped_product" ? zipped_product(a, z, o)
                                           : tiled_product(a, z, o);
          },
          [&](const Layout& r) { return tile_laws::verdict(form, a, z, r); });
    }
  }
}

// make_tiled_copy(atom, thr, val) on pairs of small layouts, mostly compact (thread and value
// layouts are), with static and run-time leaves: layout_mn = raked_product(thr, val) checked as the
// Products row checks it (the modes of a lawful logical_product); then every thread t and value v
// goes to a tile coordinate c = layout_tv(t, v), an index of layout_mn, with layout_mn(c) =
// t + size(thr) v; and the tiler is layout_mn's shape, mode by mode.
std::string tiled_copy_law(const Layout& thr, const Layout& val, const TiledCopy& tc) {
  const int rk = thr.rank() > val.rank() ? thr.rank() : val.rank();
  const Layout mn = raked_product(thr, val, kByValue);
  const std::string w = modes_of_product(append_to_rank(thr, rk), append_to_rank(val, rk), mn);
  if (!w.empty()) return "raked_product: " + w;
  const oracle::Fn fm(mn), ftv(tc.layout_tv), ft(thr), fv(val);
  const int64_t n = ft.size() * fv.size();
  if (ftv.size() != n) return "size(layout_tv) = " + std::to_string(ftv.size()) + ", not " + std::to_string(n);
  if (tc.layout_tv.rank() != 2 || oracle::Fn(tc.layout_tv.get(0)).size() != ft.size())
    return "layout_tv is not (size(thr), size(val))";
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = ftv(i);
    if (c < 0 || c >= fm.size() || fm(c) != i)
      return "layout_tv(" + std::to_string(i) + ") = " + std::to_string(c) + ", where layout_mn is " +
             (c < 0 || c >= fm.size() ? "not defined" : std::to_string(fm(c)));
  }
  if (tc.tiler.rank() != mn.rank()) return "the tiler's rank is not layout_mn's";
  for (int i = 0; i < mn.rank(); ++i) {
    Layout e;
    if (!tile_laws::element(tc.tiler, i, e) || oracle::Fn(e).size() != oracle::Fn(mn.get(i)).size())
      return "tiler mode " + std::to_string(i) + " is not layout_mn's extent";
  }
  return "";
}

TEST(LawSweep, Nullspace) {
  Gen g(116);
  for (int64_t n = 0; n < cases_per_op();) {
    Layout l = g.any(4);
    for (int k = 0; k < l.stride.num_leaves(); ++k)
      if (g.coin(30)) l.stride.leaf_at(k) = static_int(0);
    if (oracle::Fn(l).size() > 4096) continue;  // keep the enumeration short
    ++n;
    check<Layout>(
        "nullspace", str(l), [&](Options o) { return nullspace(l, o); },
        [&](const Layout& r) { return oracle::nullspace(l, r); });
  }
}

TEST(LawSweep, Downcast) {
  Gen g(115);
  for (int64_t n = 0; n < cases_per_op();) {
    // A leaf of static stride _1 (what downcast requires): one, sometimes two, sometimes beside a _-1.
    Layout m = g.any(3);
    const int leaves = m.stride.num_leaves();
    for (int t = 0; t < (g.coin(25) ? 2 : 1); ++t) m.stride.leaf_at(int(g.g() % leaves)) = static_int(1);
    if (g.coin(10)) m.stride.leaf_at(int(g.g() % leaves)) = static_int(-1);
    const int64_t k = g.pick({2, 4, 8});
    if (oracle::Fn(m).size() > 512) continue;  // keep the oracle's sort short
    ++n;
    check<Layout>(
        "downcast", str(m) + " N=" + std::to_string(k), [&](Options o) { return downcast(m, k, o); },
        [&](const Layout& r) { return oracle::downcast(m, k, r); });
  }
}

TEST(LawSweep, MakeTiledCopy) {
  Gen g(114);
  const CopyAtom atom = make_copy_atom(CopyOp::kU32, Elem::kFloat);  // one element a thread
  for (int64_t n = 0; n < cases_per_op();) {
    // Mostly one to one onto 0, 1, 2, ... (an ordered permutation of a shape, as thread and value
    // layouts are), leaves static or run-time; otherwise any layout (mostly refused).
    auto tv = [&] {
      if (g.coin(20)) return g.coin(50) ? g.compact(2) : g.layout(2, false);
      IntTuple s = IntTuple::tuple(), o = IntTuple::tuple();
      const int r = 1 + int(g.g() % 2);
      for (int i = 0; i < r; ++i) {
        s.push_back(int_tuple(g.leaf(g.pick({1, 2, 2, 3, 4, 4, 8, 8}))));
        o.push_back(int_tuple(static_int(int64_t(g.g() % 4) * 2 + i)));  // distinct: ties give equal strides
      }
      Layout l = make_ordered_layout(s, o);
      for (int i = 0; i < l.stride.num_leaves(); ++i) l.stride.leaf_at(i).is_static = g.coin(50);
      return l;
    };
    const Layout thr = tv(), val = tv();
    if (oracle::Fn(thr).size() * oracle::Fn(val).size() > 4096) continue;
    ++n;
    check<TiledCopy>(
        "make_tiled_copy", str(thr) + " x " + str(val), [&](Options o) { return make_tiled_copy(atom, thr, val, o); },
        [&](const TiledCopy& tc) { return tiled_copy_law(thr, val, tc); });
  }
}

// Runs last (gtest runs tests in declaration order): the table, and the totals.
TEST(LawSweep, Summary) {
  std::printf("%-22s %8s %8s %13s %14s %10s %8s\n", "operation", "cases", "results", "law refusals", "other refusals",
              "violations", "spurious");
  for (const auto& [op, s] : table()) {
    std::printf("%-22s %8lld %8lld %13lld %14lld %10lld %8lld\n", op.c_str(), (long long)s.cases, (long long)s.results,
                (long long)s.law_refusals, (long long)s.other_refusals, (long long)s.violations, (long long)s.spurious);
    EXPECT_EQ(s.violations, 0) << op << ": " << s.first_violation;
    EXPECT_EQ(s.spurious, 0) << op << ": " << s.first_spurious;
    // The sweep means something only when most cases get a result; of an empty layout, CuTe's
    // results mostly name indices it does not have, so there most cases reach the oracle as a
    // result or as a refusal checked against CuTe's result.
    if (op.find("(empty)") == std::string::npos) EXPECT_GT(s.results * 2, s.cases) << op;
    else EXPECT_GT((s.results + s.law_refusals) * 2, s.cases) << op;
  }
}
