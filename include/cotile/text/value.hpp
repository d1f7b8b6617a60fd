// Values read from text: everything CuTe prints (integers, tuples, layouts, tiles, swizzles,
// swizzled layouts), plus names and named records. Host only.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "../cotile.hpp"

namespace cotile::text {

struct Value {
  enum Kind { kInt, kTuple, kLayout, kUnderscore, kSwizzle, kComposed, kName, kRecord };
  Kind kind = kInt;
  Int integer;
  std::vector<Value> elems;        // kTuple
  Layout layout;                   // kLayout
  ComposedLayout composed;         // kSwizzle (swizzle only), kComposed
  std::string name;                // kName
  std::vector<std::string> names;  // kRecord: field names; values in elems

  static Value of(const Int& x) {
    Value v;
    v.kind = kInt;
    v.integer = x;
    return v;
  }
  static Value of(const Layout& l) {
    Value v;
    v.kind = kLayout;
    v.layout = l;
    return v;
  }
  static Value of(const IntTuple& t) {
    if (t.is_leaf()) return of(t.value());
    Value v;
    v.kind = kTuple;
    for (int i = 0; i < t.rank(); ++i) v.elems.push_back(of(t.get(i)));
    return v;
  }
  static Value of(const Swizzle& s) {
    Value v;
    v.kind = kSwizzle;
    v.composed.swizzle = s;
    return v;
  }
  static Value of(const ComposedLayout& c) {
    if (c.is_plain()) return of(c.layout);
    Value v;
    v.kind = kComposed;
    v.composed = c;
    return v;
  }
  static Value underscore() {
    Value v;
    v.kind = kUnderscore;
    return v;
  }
  static Value named(std::string n) {
    Value v;
    v.kind = kName;
    v.name = std::move(n);
    return v;
  }
  // A record of named results: record({"layout", "offsets"}, {l, o}).
  static Value record(std::vector<std::string> names, std::vector<Value> values) {
    Value v;
    v.kind = kRecord;
    v.names = std::move(names);
    v.elems = std::move(values);
    return v;
  }
  const Value* field(const std::string& n) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return &elems[i];
    return nullptr;
  }

  // True for an integer or a tuple whose leaves are all integers.
  bool is_int_tuple() const {
    if (kind == kInt) return true;
    if (kind != kTuple) return false;
    for (const Value& e : elems)
      if (!e.is_int_tuple()) return false;
    return true;
  }
};

// CuTe print format.
inline std::string to_string(const Value& v) {
  switch (v.kind) {
    case Value::kInt: return cotile::to_string(v.integer);
    case Value::kLayout: return cotile::to_string(v.layout);
    case Value::kUnderscore: return "_";
    case Value::kSwizzle: return cotile::to_string(v.composed.swizzle);
    case Value::kComposed: return cotile::to_string(v.composed);
    case Value::kName: return v.name;
    case Value::kTuple: {
      std::string s = "(";
      for (size_t i = 0; i < v.elems.size(); ++i) s += (i ? "," : "") + to_string(v.elems[i]);
      return s + ")";
    }
    case Value::kRecord: {
      std::string s;
      for (size_t i = 0; i < v.names.size(); ++i) s += (i ? "\t" : "") + v.names[i] + "=" + to_string(v.elems[i]);
      return s;
    }
  }
  return "?";
}

inline const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::kInt: return "integer";
    case Value::kTuple: return "tuple";
    case Value::kLayout: return "layout";
    case Value::kUnderscore: return "'_'";
    case Value::kSwizzle: return "swizzle";
    case Value::kComposed: return "swizzled layout";
    case Value::kName: return "name";
    case Value::kRecord: return "record";
  }
  return "?";
}

// --- conversions to engine types (errors name the operation and the argument) -----------------

[[noreturn]] inline void wrong_kind(const std::string& op, int argno, const char* expected, const Value& got) {
  const std::string rule = "argument " + std::to_string(argno) + " must be " + expected + ", got the " +
                           kind_name(got.kind) + " " + to_string(got);
  throw Error(op, rule, op + ": " + rule);
}

inline IntTuple to_int_tuple(const Value& v, const std::string& op, int argno) {
  if (v.kind == Value::kInt) return int_tuple(v.integer);
  if (v.kind != Value::kTuple || !v.is_int_tuple()) wrong_kind(op, argno, "an integer or an integer tuple", v);
  IntTuple t = IntTuple::tuple();
  for (const Value& e : v.elems) t.push_back(to_int_tuple(e, op, argno));
  return t;
}

inline Int to_int(const Value& v, const std::string& op, int argno) {
  if (v.kind != Value::kInt) wrong_kind(op, argno, "an integer", v);
  return v.integer;
}

inline Layout to_layout(const Value& v, const std::string& op, int argno) {
  if (v.kind == Value::kLayout) return v.layout;
  if (v.kind == Value::kComposed && v.composed.is_plain()) return v.composed.layout;
  wrong_kind(op, argno, "a layout", v);
}

// A tiler: a layout, an integer, '_', or a tuple of tilers. A plain shape is a tile of integers.
inline Tile to_tile(const Value& v, const std::string& op, int argno) {
  switch (v.kind) {
    case Value::kInt: return tile_int(v.integer);
    case Value::kUnderscore: return tile_underscore();
    case Value::kLayout: return tile_layout(v.layout);
    case Value::kTuple: {
      Tile t = Tile::tuple();
      for (const Value& e : v.elems) t.push_back(to_tile(e, op, argno));
      return t;
    }
    default: wrong_kind(op, argno, "a tile (a layout, an integer, '_' or a tuple of them)", v);
  }
}

inline Value of_tile(const Tile& t) {
  if (t.is_leaf()) {
    const TileLeaf& x = t.value();
    if (x.kind == TileLeaf::kUnderscore) return Value::underscore();
    if (x.kind == TileLeaf::kInt) return Value::of(x.integer());
    return Value::of(x.layout);
  }
  Value v;
  v.kind = Value::kTuple;
  for (int i = 0; i < t.rank(); ++i) v.elems.push_back(of_tile(t.get(i)));
  return v;
}

}  // namespace cotile::text
