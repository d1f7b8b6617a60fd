// The playground's presets: a verb and the command's arguments (an expression for calc). The
// first is the FMHA generation kernel's Q load, whose parameters are the page's controls.
window.COTILE_PRESETS = (function () {
  'use strict';
  const specAtomTv = '((_2,_32),_16):((_16,_32),_1)';
  const specData = '((_128,_32),_1,_4):((_128,_1),_0,_32)';
  return {
    // The FMHA Q-load chain (qload.md §5-§9) for an element type, head dim and M tile.
    fmha: {
      elems: [['float_e5m2_t', 'FP8 e5m2 (float_e5m2_t)'], ['float_e4m3_t', 'FP8 e4m3 (float_e4m3_t)'],
        ['half_t', 'FP16 (half_t)'], ['bfloat16_t', 'BF16 (bfloat16_t)']],
      headDims: [64, 128, 256],
      mTiles: [64, 128],
      explain: (elem, d, m) => `--preset fmha-gen-q --elem ${elem} --head-dim ${d} --m-tile ${m}`,
    },
    list: [
      { title: 'the FP8 Q-load copy: source and destination partitions (128×128)', verb: 'draw',
        args: `copy --atom cp.async.16B --elem float_e5m2_t --atom-tv "${specAtomTv}" --data "${specData}"` },
      { title: 'left_inverse of the Q-load data layout', verb: 'calc', args: `left_inverse(${specData})` },
      { title: 'complement', verb: 'calc', args: 'complement((_4,_8):(_1,_16), _256)' },
      { title: 'nested calls: logical_divide by a composition', verb: 'calc',
        args: 'logical_divide((_16,_32):(_32,_1), composition((_4,_2):(_2,_1), _8))' },
      { title: 'strict: CuTe refuses a dynamic stride here', verb: 'calc', args: 'left_inverse((_4,_8):(8,_1))', strict: true },
      { title: 'make_cotiled_copy of the Q load, step by step', verb: 'explain',
        args: `cotiled-copy --atom cp.async.16B --elem float_e5m2_t --atom-tv "${specAtomTv}" --data "${specData}"` },
      { title: 'a thread\'s partition of a tiled copy', verb: 'explain',
        args: 'partition --atom copy.u32 --elem half_t --thr "(_8,_16):(_16,_1)" --val "(_1,_2):(_0,_1)" --tensor "(_64,_64):(_1,_64)" --thread 5' },
      { title: 'an MMA partition (SM100, FP8)', verb: 'explain',
        args: 'mma-partition --atom "SM100_MMA_F8F6F4_SS<float_e5m2_t,float_e5m2_t,float,128,64,K,K>" --tensor "(_128,_128):(128,_1)"' },
      { title: 'composition, explained', verb: 'explain', args: 'composition "(_4,_8):(_2,_16)" "(_2,_4):(_1,_4)"' },
      { title: 'verify the Q-load copy', verb: 'verify',
        args: `copy --atom cp.async.16B --elem float_e5m2_t --atom-tv "${specAtomTv}" --data "${specData}"` },
      { title: 'verify: a layout that is not injective', verb: 'verify', args: 'injective "(_4,_8):(_1,_2)"' },
      { title: 'TV layout over its tile', verb: 'draw', args: 'tv "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)" --tile "((_2,_8,_16),_1,_4)"' },
      { title: 'tiled copy, copy.u32 of half_t', verb: 'draw',
        args: 'copy --atom copy.u32 --elem half_t --thr "(_8,_16):(_16,_1)" --val "(_1,_2):(_0,_1)"' },
      { title: 'swizzled shared memory: banks and conflicts', verb: 'draw', args: 'swizzle "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"' },
      { title: 'a hierarchical layout', verb: 'draw', args: 'layout "((_2,_4),(_2,_8)):((_1,_4),(_2,_16))"' },
    ],
  };
})();
