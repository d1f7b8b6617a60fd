"""Per-CTA phase times of one decode launch (a library built with -DCOTILE_DECODE_TRACE=1):
where a CTA's time goes (start -> Q ready -> main loop done -> the warps' results in shared
memory -> partial published -> split counter read -> merged), warp 0's progress through its
tiles (each eighth), and the epilogue's steps per CTA; for grids of several waves, the phases of
the first wave's CTAs against the later ones' (which start on SMs that ran the same code), where
the first wave's CTAs were placed and how long each SM had no CTA in its main loop.

    COTILE_ATTENTION_LIB=.../libcotile_attention.so python3 bench/decode/trace.py B Hq Hkv N D [fp16|bf16|fp8-e4m3 [splits]]

The traced launch follows three untraced ones and, by default, an L2 flush (zeroing 256 MiB);
TRACE_WARM=1 skips the flush: the flush leaves dirty lines in L2 whose write-back slows the
launch's first tens of microseconds, which the benchmark (no writes between launches) never sees.
TRACE_BEFORE=read: a 512 MiB reduction instead (the sweep's isolated timing (a): L2 left holding
clean, unrelated lines); TRACE_BEFORE=read+ws: the same, then the plan's workspace read (is its
state what the isolated call pays?); TRACE_BEFORE=read+code: the same, then the same plan on one
tile a sequence (the kernel's code back in L2, its data not); TRACE_BEFORE=chain: the traced launch is the fourth of a back-to-back
chain, no synchronization between them (the sweep's (c)). CUDA events around the traced launch
give its time as a caller sees it, beside the span from its first CTA's start to its last CTA's end.
TRACE_STAGGER=cycles overrides the plan's stagger of the first wave's later slots (0: none).
"""
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import cotile_decode  # noqa: E402

B, Hq, Hkv, N, D = map(int, sys.argv[1:6])
kv = sys.argv[6] if len(sys.argv) > 6 else "fp16"
splits = int(sys.argv[7]) if len(sys.argv) > 7 else 0  # 0: the plan's choice
kv_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp8-e4m3": torch.float8_e4m3fn}[kv]
q_dtype = torch.bfloat16 if kv == "bf16" else torch.float16
q = torch.randn(B, Hq, D, device="cuda", dtype=q_dtype)
k = torch.randn(B, Hkv, N, D, device="cuda", dtype=torch.float16).to(kv_dtype)
v = torch.randn(B, Hkv, N, D, device="cuda", dtype=torch.float16).to(kv_dtype)
seqlen = torch.full((B,), N, dtype=torch.int32, device="cuda")
plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=q_dtype, kv_dtype=kv_dtype, o_dtype=q_dtype, splits=splits)
if "TRACE_STAGGER" in os.environ:  # override the plan's stagger of the first wave (cycles; 0: none)
    plan._plan.stagger_cycles = plan.stagger_cycles = int(os.environ["TRACE_STAGGER"])
lib = cotile_decode._library()
buf = torch.zeros(plan.grid * 16, dtype=torch.int64, device="cuda")
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for _ in range(3):
    plan.run(q, k, v, seqlen, kv_layout="HND")
before = os.environ.get("TRACE_BEFORE", "warm" if os.environ.get("TRACE_WARM") else "flush")
big = torch.zeros(512 << 20, dtype=torch.uint8, device="cuda").view(torch.int32) if before.startswith("read") else None
events = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
torch.cuda.synchronize()
if before == "flush":  # cold L2 (and TLB) by default
    flush.zero_()
elif before.startswith("read"):
    torch.sum(big)
    if before == "read+ws":  # the workspace read back into L2 (and the TLB) after the big read
        torch.sum(plan.workspace)
    if before == "read+code":  # the same plan on one tile a sequence: its code warm, its data cold
        plan.run(q, k, v, torch.full_like(seqlen, 16), kv_layout="HND")
elif before == "chain":
    for _ in range(3):
        plan.run(q, k, v, seqlen, kv_layout="HND")
lib.cotile_decode_set_trace(ctypes.c_void_p(buf.data_ptr()))
events[0].record()
plan.run(q, k, v, seqlen, kv_layout="HND")
events[1].record()
lib.cotile_decode_set_trace(ctypes.c_void_p(0))
torch.cuda.synchronize()
t = buf.view(plan.grid, 16).cpu().tolist()
t0 = min(r[0] for r in t)
end = max(max(r[:5]) for r in t)
print(f"{B},{Hq},{Hkv},{N},{D} {kv} after {before}: grid {plan.grid} splits {plan.splits}; launch span "
      f"{(end - t0) / 1e3:.2f} us, CUDA events {events[0].elapsed_time(events[1]) * 1e3:.2f} us")
# The kernel's trace slots (tiles.cuh, TraceSlot) in the order a CTA passes them; 6 + k: warp 0's
# tile k/8 of its tiles arrived.
phases = [(0, "start"), (1, "q ready"), (2, "loop done"), (14, "warps in"), (3, "published"), (15, "counted"), (4, "merged")]
for slot, name in phases + [(6 + k, f"tile {k}/8 in") for k in range(8)]:
    xs = sorted((r[slot] - t0) / 1e3 for r in t if r[slot])
    if xs:
        print(f"  {name:>10}: n={len(xs):5d} min {xs[0]:8.2f} median {xs[len(xs) // 2]:8.2f} max {xs[-1]:8.2f} us")
marks = [r[6:14] + [r[2]] for r in t if all(r[6:14])]
if marks:  # each interval is 1/8 of every CTA's tiles (warp 0's share)
    print("  interval durations (median over CTAs, us): " + " ".join(
        f"{sorted((m[k + 1] - m[k]) / 1e3 for m in marks)[len(marks) // 2]:.2f}" for k in range(8)))
for a, b, what in ((2, 14, "warps' results to shared"), (14, 3, "partial/output written"), (3, 15, "counter"), (15, 4, "merge")):
    xs = sorted((r[b] - r[a]) / 1e3 for r in t if r[a] and r[b])
    if xs:
        print(f"  {what:>24} per CTA: median {xs[len(xs) // 2]:.2f} max {xs[-1]:.2f} us")
loop = sorted((r[2] - r[1]) / 1e3 for r in t)
print(f"  main loop per CTA: median {loop[len(loop) // 2]:.2f} us, max {loop[-1]:.2f} us")
if plan.grid > plan.sms * plan.ctas_per_sm:  # several waves: a later CTA starts where one ran the same code
    first = sorted(r[0] for r in t)[plan.sms * plan.ctas_per_sm - 1]

    def med(xs):
        xs = sorted(xs)
        return f"{xs[len(xs) // 2] / 1e3:.2f}" if xs else "-"

    for name, rs in (("first wave", [r for r in t if r[0] <= first]), ("later waves", [r for r in t if r[0] > first])):
        print(f"  {name:>11} (n={len(rs)}), median us: start->Q ready {med([r[1] - r[0] for r in rs])}, "
              f"Q ready->tile 0 {med([r[6] - r[1] for r in rs if r[6]])}, loop {med([r[2] - r[1] for r in rs])}, "
              f"loop->warps in {med([r[14] - r[2] for r in rs if r[14]])}, "
              f"warps in->written {med([r[3] - r[14] for r in rs if r[3] and r[14]])}")
if plan.grid > plan.sms:  # several CTAs an SM: placement, and the SMs' gaps between main loops
    warpid = [r[5] >> 32 for r in t]
    for r in t:
        r[5] &= 0xFFFFFFFF
    first = {}
    for c in range(min(plan.grid, plan.sms * plan.ctas_per_sm)):
        first.setdefault(t[c][5], []).append(c)
    apart = sum(1 for cs in first.values() if len(cs) > 1 and max(t[c][0] for c in cs) - min(t[c][0] for c in cs) > 1000)
    print(f"  first wave per SM (stagger {plan.stagger_cycles} cycles): {apart} of {len(first)} SMs' CTAs start >= 1 us "
          "apart; warp 0's %warpid on SMs 0-3: " +
          "; ".join(f"{sm}: " + ",".join(f"cta {c} w{warpid[c]}" for c in first[sm]) for sm in sorted(first)[:4]))
    by_sm = {}
    for r in t:
        by_sm.setdefault(r[5], []).append((r[1], r[2]))  # Q ready -> main loop done
    gaps = []
    for loops in by_sm.values():  # time in [launch start, the SM's last loop end] with no main loop running
        loops.sort()
        idle, reach = loops[0][0] - t0, loops[0][0]
        for a, b in loops:
            idle += max(0, a - reach)
            reach = max(reach, b)
        gaps.append(idle / 1e3)
    gaps.sort()
    print(f"  per SM, time with no CTA in its main loop: median {gaps[len(gaps) // 2]:.2f} us, max {gaps[-1]:.2f} us "
          f"({len(by_sm)} SMs)")
