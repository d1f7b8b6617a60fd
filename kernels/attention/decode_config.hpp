// The decode kernel's build-time knobs, all in one place. Each is a measured choice (the default)
// that an A/B run (bench/decode/ab.sh NAME=-DCOTILE_DECODE_...=VALUE) can move; nothing else in the
// kernel's sources reads a -D option. Host and device code both include this header.
#pragma once

// Shared memory per warp for its K/V stages (stages = this / one K+V tile, clamped to 2..8):
// tiles.cuh, Config::kStages.
#ifndef COTILE_DECODE_WARP_SMEM
#define COTILE_DECODE_WARP_SMEM 24576
#endif

// The fewest K/V stages a warp keeps, whatever their size (tiles.cuh, Config::kStages).
#ifndef COTILE_DECODE_MIN_STAGES
#define COTILE_DECODE_MIN_STAGES 2
#endif

// The most K/V stages a warp keeps, however small its tiles (tiles.cuh, Config::kStages).
#ifndef COTILE_DECODE_MAX_STAGES
#define COTILE_DECODE_MAX_STAGES 8
#endif

// Q's MMA fragments held in registers (D <= 128) or re-read from shared memory per tile:
// tiles.cuh, Config::kQInRegisters.
#ifndef COTILE_DECODE_Q_IN_REGISTERS
#define COTILE_DECODE_Q_IN_REGISTERS 1
#endif

// The CTAs per multiprocessor the register allocation must allow (__launch_bounds__).
#ifndef COTILE_DECODE_MIN_CTAS
#define COTILE_DECODE_MIN_CTAS 2
#endif

// 16-byte partial loads a thread keeps in flight in the last-CTA workspace merge (merge.cuh).
#ifndef COTILE_DECODE_MERGE_BATCH
#define COTILE_DECODE_MERGE_BATCH 16
#endif

// 1: fp8 caches of head_dim 64 run a pair of KV heads a CTA where the plan's rule says so (plan.hpp,
// pair_heads); 0: never.
#ifndef COTILE_DECODE_PAIR_HEADS
#define COTILE_DECODE_PAIR_HEADS 1
#endif

// Launches as programmatic dependent launches (launch.hpp, decode_api.cu): a CTA may start during
// the previous kernel's tail.
#ifndef COTILE_DECODE_PDL
#define COTILE_DECODE_PDL 1
#endif

// How late the first wave's CTA in an SM's second slot starts, in ns (plan.hpp, stagger_cycles).
#ifndef COTILE_DECODE_STAGGER_NS
#define COTILE_DECODE_STAGGER_NS 3000
#endif

// 1 (diagnostics builds only): per-CTA phase times in Params::trace (tiles.cuh, TraceSlot;
// bench/decode/trace.py reads them).
#ifndef COTILE_DECODE_TRACE
#define COTILE_DECODE_TRACE 0
#endif
