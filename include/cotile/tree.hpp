// Tree<Leaf>: a hierarchical tuple stored in fixed-size arrays.
//
// A value is either a leaf or a tuple of values. The tree is kept in preorder:
//   code[k] = -1      the k-th node is a leaf; its payload is the next entry of leaf[]
//   code[k] = n >= 0  the k-th node is a tuple with n children, which follow it in preorder
// e.g. (a,(b,c)) is code = {2,-1,2,-1,-1}, leaf = {a,b,c}.
// Operations copy; capacities are fixed (exceeding one is an error, never UB), so a Tree is a
// literal type usable at compile time, on the host and on the device.
#pragma once

#include "config.hpp"
#include "error.hpp"

namespace cotile {

template <class Leaf, int MaxLeaves, int MaxNodes>
class Tree {
 public:
  constexpr Tree() = default;  // the empty tuple ()

  COTILE_HD static constexpr Tree leaf(const Leaf& x) {
    Tree t;
    t.code_[0] = -1;
    t.leaf_[0] = x;
    t.nodes_ = 1;
    t.leaves_ = 1;
    return t;
  }
  COTILE_HD static constexpr Tree tuple() { return Tree{}; }

  COTILE_HD constexpr bool is_leaf() const { return code_[0] < 0; }
  COTILE_HD constexpr bool is_tuple() const { return code_[0] >= 0; }
  // Number of top-level modes; a leaf has rank 1 (as in CuTe).
  COTILE_HD constexpr int rank() const { return is_leaf() ? 1 : code_[0]; }
  COTILE_HD constexpr int num_leaves() const { return leaves_; }
  COTILE_HD constexpr int num_nodes() const { return nodes_; }
  COTILE_HD constexpr const Leaf& value() const { return leaf_[0]; }  // requires is_leaf()
  COTILE_HD constexpr const Leaf& leaf_at(int i) const { return leaf_[i]; }
  COTILE_HD constexpr Leaf& leaf_at(int i) { return leaf_[i]; }
  COTILE_HD constexpr int8_t code_at(int i) const { return code_[i]; }

  // Mode i. For a leaf, get(0) is the leaf itself (CuTe: get<0>(int) == int).
  COTILE_HD constexpr Tree get(int i) const {
    if (is_leaf()) {
      if (i != 0) fail("get", "mode index out of range for an integer (rank 1)", nullptr, arg("index", i));
      return *this;
    }
    return sub(mode_span(i));
  }

  // The integer that mode i is (get(i).value() without building the mode); mode i must be a leaf.
  COTILE_HD constexpr const Leaf& mode_value(int i) const {
    if (is_leaf()) {
      if (i != 0) fail("get", "mode index out of range for an integer (rank 1)", nullptr, arg("index", i));
      return leaf_[0];
    }
    const Span s = mode_span(i);
    if (code_[s.node_begin] >= 0) fail("get", "the mode is a tuple, not an integer", nullptr, arg("index", i));
    return leaf_[s.leaf_begin];
  }

  // Append x as a new last mode of this tuple.
  COTILE_HD constexpr void push_back(const Tree& x) { insert_mode(is_leaf() ? 0 : rank(), x); }

  // Mode i replaced by x, in place: the later modes' codes and leaves move, nothing else is built.
  COTILE_HD constexpr void replace_mode(int i, const Tree& x) {
    if (is_leaf() || i < 0 || i >= rank()) fail("replace", "mode index out of range", nullptr, arg("index", i));
    const Span s = child_span(i);
    splice(s, x);
  }
  // x inserted as mode i (0 <= i <= rank), in place.
  COTILE_HD constexpr void insert_mode(int i, const Tree& x) {
    if (is_leaf()) fail("append", "cannot append a mode to an integer; wrap it in a tuple first", nullptr);
    if (i < 0 || i > rank()) fail("insert", "mode index out of range", nullptr, arg("index", i));
    if (code_[0] == 127) capacity_exceeded();
    const Span s = i == rank() ? Span{nodes_, nodes_, leaves_, leaves_} : child_span(i);
    splice(Span{s.node_begin, s.node_begin, s.leaf_begin, s.leaf_begin}, x);
    code_[0] = int8_t(code_[0] + 1);
  }

  // Same structure (profile), ignoring leaf values.
  COTILE_HD constexpr bool same_profile(const Tree& o) const {
    if (nodes_ != o.nodes_) return false;
    for (int k = 0; k < nodes_; ++k)
      if (code_[k] != o.code_[k]) return false;
    return true;
  }

  // The same structure with every leaf replaced by f(leaf).
  template <class F>
  COTILE_HD constexpr auto map(F f) const {
    using R = decltype(f(leaf_[0]));
    Tree<R, MaxLeaves, MaxNodes> r;
    r.set_structure_from(*this);
    for (int k = 0; k < leaves_; ++k) r.leaf_at(k) = f(leaf_[k]);
    return r;
  }

  // Copy the structure (codes and counts) of another tree with the same capacities.
  template <class L2>
  COTILE_HD constexpr void set_structure_from(const Tree<L2, MaxLeaves, MaxNodes>& o) {
    nodes_ = uint8_t(o.num_nodes());
    leaves_ = uint8_t(o.num_leaves());
    for (int k = 0; k < nodes_; ++k) code_[k] = o.code_at(k);
  }

  COTILE_HD friend constexpr bool operator==(const Tree& a, const Tree& b) {
    if (!a.same_profile(b) || a.leaves_ != b.leaves_) return false;
    for (int k = 0; k < a.leaves_; ++k)
      if (!(a.leaf_[k] == b.leaf_[k])) return false;
    return true;
  }

 private:
  struct Span {
    int node_begin, node_end, leaf_begin, leaf_end;
  };

  // The subtree starting at node n (and leaf l).
  COTILE_HD constexpr Span span_at(int n, int l) const {
    int need = 1, k = n, leaves = l;
    while (need > 0) {
      const int c = code_[k++];
      if (c < 0) {
        ++leaves;
        --need;
      } else {
        need += c - 1;
      }
    }
    return Span{n, k, l, leaves};
  }
  // The span of mode i of a tuple (i in range, checked).
  COTILE_HD constexpr Span mode_span(int i) const {
    if (i < 0 || i >= rank()) fail("get", "mode index out of range", nullptr, arg("index", i), arg("rank", rank()));
    return child_span(i);
  }
  COTILE_HD constexpr Span child_span(int i) const {
    Span s{1, 1, 0, 0};
    for (int c = 0; c <= i; ++c) s = span_at(s.node_end, s.leaf_end);
    return s;
  }
  // A shape or stride holds 64 integers; a tile or slicing coordinate 8 entries (each may be a layout).
  [[noreturn]] COTILE_HD static constexpr void capacity_exceeded() {
    if constexpr (MaxLeaves == kMaxLeaves)
      fail("capacity", "too many integers in one tuple", "cotile values hold at most 64 leaves per tuple");
    else if constexpr (MaxLeaves == kMaxTileLeaves)
      fail("capacity", "too many entries in one tile or coordinate",
           "a tile or a slicing coordinate holds at most 8 entries (layouts, integers, '_'): group the layout's "
           "modes and give a group one entry (an integer is its 1-D index), or tile mode by mode");
    else fail("capacity", "too many leaves in one tree", nullptr);
  }
  // The nodes and leaves of span s replaced by x's (the tail moves by the difference).
  COTILE_HD constexpr void splice(const Span& s, const Tree& x) {
    const int dn = x.nodes_ - (s.node_end - s.node_begin), dl = x.leaves_ - (s.leaf_end - s.leaf_begin);
    if (nodes_ + dn > MaxNodes || leaves_ + dl > MaxLeaves) capacity_exceeded();
    if (dn > 0)
      for (int k = nodes_ - 1; k >= s.node_end; --k) code_[k + dn] = code_[k];
    else if (dn < 0)
      for (int k = s.node_end; k < nodes_; ++k) code_[k + dn] = code_[k];
    if (dl > 0)
      for (int k = leaves_ - 1; k >= s.leaf_end; --k) leaf_[k + dl] = leaf_[k];
    else if (dl < 0)
      for (int k = s.leaf_end; k < leaves_; ++k) leaf_[k + dl] = leaf_[k];
    for (int k = 0; k < x.nodes_; ++k) code_[s.node_begin + k] = x.code_[k];
    for (int k = 0; k < x.leaves_; ++k) leaf_[s.leaf_begin + k] = x.leaf_[k];
    // Slots the tail left are cleared: unused slots stay zero (a constant-evaluated value may not
    // keep, there, a symbolic leaf's pointer to its tape).
    for (int k = nodes_ + dn; k < nodes_; ++k) code_[k] = 0;
    for (int k = leaves_ + dl; k < leaves_; ++k) leaf_[k] = Leaf{};
    nodes_ = uint8_t(nodes_ + dn);
    leaves_ = uint8_t(leaves_ + dl);
  }
  COTILE_HD constexpr Tree sub(const Span& s) const {
    Tree t;
    for (int k = s.node_begin; k < s.node_end; ++k) t.code_[k - s.node_begin] = code_[k];
    for (int k = s.leaf_begin; k < s.leaf_end; ++k) t.leaf_[k - s.leaf_begin] = leaf_[k];
    t.nodes_ = uint8_t(s.node_end - s.node_begin);
    t.leaves_ = uint8_t(s.leaf_end - s.leaf_begin);
    return t;
  }

 public:
  // Public only so that a Tree is a structural type (usable as a template argument); use the
  // accessors above.
  int8_t code_[MaxNodes] = {0};
  Leaf leaf_[MaxLeaves] = {};
  uint8_t nodes_ = 1;  // the empty tuple is one node with zero children
  uint8_t leaves_ = 0;
};

}  // namespace cotile
