// Calculator operations for copy and MMA atoms (golden families copy, mma, fmha_gen_q).
#include "atoms.hpp"
#include "ops.hpp"

namespace cotile::cli {

std::map<std::string, Op>& mutable_registry();

namespace {

using text::Value;

struct Args {
  const std::string& op;
  const std::vector<Value>& v;
  const CalcOptions& opt;
  Layout layout(size_t i) const { return text::to_layout(v[i], op, int(i) + 1); }
  Int integer(size_t i) const { return text::to_int(v[i], op, int(i) + 1); }
  const std::string& name(size_t i) const {
    if (v[i].kind != Value::kName) text::wrong_kind(op, int(i) + 1, "a name", v[i]);
    return v[i].name;
  }
  Options options() const { return opt.engine(); }
};

void add(const std::string& name, int n, const std::string& sig, const std::string& summary,
         std::function<Value(const Args&)> fn) {
  mutable_registry()[name] =
      Op{name, n,       n,
         sig,  summary, [name, fn](const std::vector<Value>& v, const CalcOptions& o) {
                                  return fn(Args{name, v, o}); }};
}

Value V(const Layout& l) { return Value::of(l); }

// A partition's offset is reported as the distance of its first element from the tensor's
// start: a run-time integer (a pointer difference), whatever the staticness of the layout.
Value offset_value(const Int& off) { return Value::of(dynamic_int(off.value)); }

Value tiled_copy_record(const TiledCopy& tc) {
  return Value::record({"tiler", "layout_tv", "layoutS_TV", "layoutD_TV"},
                       {text::of_tile(tc.tiler), V(tc.layout_tv), V(get_layoutS_TV(tc)), V(get_layoutD_TV(tc))});
}

Value partitions_record(const TiledCopy& tc, const Layout& tensor, const Int& thr) {
  const SlicedLayout s = partition_S(tc, tensor, thr), d = partition_D(tc, tensor, thr);
  return Value::record({"S", "S_offset", "D", "D_offset"},
                       {V(s.layout), offset_value(s.offset), V(d.layout), offset_value(d.offset)});
}

Value mma_partition_record(const TiledMMA& t, const Layout& tensor, const Int& thr, Operand op, const char* x) {
  const SlicedLayout p = partition(t, tensor, thr, op);
  return Value::record({std::string("thrfrg_") + x, std::string("partition_") + x, "offset"},
                       {V(thrfrg(t, tensor, op)), V(p.layout), offset_value(p.offset)});
}

}  // namespace

void register_atom_ops() {
  add("copy_atom", 2, "copy_atom(atom, elem)", "a copy instruction's layouts for an element type", [](const Args& a) {
    const CopyAtom c = make_copy_atom(parse_copy_op(a.name(0), a.op), parse_elem(a.name(1), a.op));
    return Value::record(
        {"ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "SrcLayout_bits", "DstLayout_bits", "RefLayout_bits"},
        {V(c.traits.thr_id), V(c.val_src), V(c.val_dst), V(c.val_ref), V(c.traits.src_bits), V(c.traits.dst_bits),
         V(c.traits.ref_bits)});
  });
  add("make_tiled_copy", 4, "make_tiled_copy(atom, elem, thr_layout, val_layout)",
      "a tiled copy from thread and value layouts", [](const Args& a) {
        const CopyAtom c = make_copy_atom(parse_copy_op(a.name(0), a.op), parse_elem(a.name(1), a.op));
        return tiled_copy_record(make_tiled_copy(c, a.layout(2), a.layout(3), a.options()));
      });
  add("tiled_copy_partition", 6, "tiled_copy_partition(atom, elem, thr_layout, val_layout, tensor, thread)",
      "partition_S/D of a tensor for one thread", [](const Args& a) {
        const CopyAtom c = make_copy_atom(parse_copy_op(a.name(0), a.op), parse_elem(a.name(1), a.op));
        return partitions_record(make_tiled_copy(c, a.layout(2), a.layout(3), a.options()), a.layout(4), a.integer(5));
      });
  add("make_cotiled_copy", 4, "make_cotiled_copy(atom, elem, atom_tv_layout, data_layout)",
      "a tiled copy from (thread, value) -> offset and offset <- coordinate", [](const Args& a) {
        const CopyAtom c = make_copy_atom(parse_copy_op(a.name(0), a.op), parse_elem(a.name(1), a.op));
        return tiled_copy_record(make_cotiled_copy(c, a.layout(2), a.layout(3), a.options()));
      });
  add("cotiled_copy_partition", 6, "cotiled_copy_partition(atom, elem, atom_tv_layout, data_layout, tensor, thread)",
      "partition_S/D of a tensor for one thread", [](const Args& a) {
        const CopyAtom c = make_copy_atom(parse_copy_op(a.name(0), a.op), parse_elem(a.name(1), a.op));
        return partitions_record(make_cotiled_copy(c, a.layout(2), a.layout(3), a.options()), a.layout(4),
                                 a.integer(5));
      });
  add("mma_atom", 1, "mma_atom(atom)", "an MMA instruction's layouts", [](const Args& a) {
    const MmaTraits t = parse_mma(a.name(0), a.op);
    return Value::record({"Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout"},
                         {Value::of(t.shape_mnk), V(t.thr_id), V(t.a), V(t.b), V(t.c)});
  });
  add("make_tiled_mma", 2, "make_tiled_mma(atom, atom_layout)", "an MMA atom tiled over threads", [](const Args& a) {
    const TiledMMA t = make_tiled_mma(parse_mma(a.name(0), a.op), a.layout(1));
    return Value::record(
        {"tile_mnk", "thr_layout_vmnk", "layoutA_TV", "layoutB_TV", "layoutC_TV"},
        {Value::of(make_tuple(tile_size_mnk(t, 0), tile_size_mnk(t, 1), tile_size_mnk(t, 2))), V(t.thr_layout_vmnk),
         V(get_layout_tv(t, Operand::kA)), V(get_layout_tv(t, Operand::kB)), V(get_layout_tv(t, Operand::kC))});
  });
  const std::pair<const char*, Operand> operands[] = {{"A", Operand::kA}, {"B", Operand::kB}, {"C", Operand::kC}};
  for (const auto& [x, op] : operands) {
    add(std::string("mma_partition_") + x, 4, std::string("mma_partition_") + x + "(atom, atom_layout, tensor, thread)",
        "thrfrg and partition of a tensor for one thread", [x = x, op = op](const Args& a) {
          const TiledMMA t = make_tiled_mma(parse_mma(a.name(0), a.op), a.layout(1));
          return mma_partition_record(t, a.layout(2), a.integer(3), op, x);
        });
  }
  add("fmha_gen_q", 4, "fmha_gen_q(elem, D, M, atom_q_tv)", "the Q-load chain of the FMHA generation kernel",
      [](const Args& a) {
        const FmhaGenQ q =
            fmha_gen_q(parse_elem(a.name(0), a.op), a.integer(1), a.integer(2), a.layout(3), a.options());
        return Value::record(
            {"tSgQ", "data_layout", "coalesce_data_layout", "left_inverse_data_layout", "inv_data_layout",
             "layout_tv_data", "tiler", "tile2data", "layout_tv", "partition_S_thr0"},
            {V(q.tSgQ), V(q.trace.data_layout), V(q.trace.coalesced), V(q.trace.left_inverse),
             V(q.trace.inv_data_layout), V(q.trace.layout_tv_data), text::of_tile(q.trace.tiler), V(q.trace.tile2data),
             V(q.trace.layout_tv), V(q.partition_S_thr0.layout)});
      });
}

}  // namespace cotile::cli
