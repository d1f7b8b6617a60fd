"""bench/decode: the cotile decode kernel against the memory's limit and PyTorch, in one process.

1. A streaming-read probe (16-byte loads over 4 GiB): the achievable bandwidth.
2. For each shape and KV dtype: the kernel's time, its KV bandwidth (K + V bytes / time) and % of
   the probe; the probe's read of exactly the KV bytes, timed like the kernel (one launch a call, a
   dependent launch as the kernel's): what a pure read of this size reaches (`read %pr`), and the
   kernel's rate as a % of it (`%read`); the same for every PyTorch SDPA backend that accepts the problem with enable_gqa=True,
   and FlexAttention; the best PyTorch time over the kernel's.

Timing: each method's calls are captured in one CUDA graph (20+ calls, rotating over enough copies
of the inputs that they never fit in the 60 MB L2), replayed 7 times; the median time per call.
So host overheads (Python, argument checks, launches) are out of every figure alike. A method
that cannot be captured is timed eagerly with do_bench (marked * in the table).

Output: a table on stdout and a CSV (argument --csv, default bench/decode/results.csv), then the
issue's targets, met or not (targets.py; also runs on a stored CSV).
Run: bash bench/decode/run.sh   (builds the library, then this script)
"""
import argparse
import csv
import math
import os
import sys
import time

import torch
import torch.nn.functional as F
import warnings

warnings.filterwarnings("ignore")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import cotile_decode  # noqa: E402
import models  # noqa: E402  (beside this file)
import targets  # noqa: E402

try:
    from triton.testing import do_bench
except ImportError:
    do_bench = None


def time_per_call(calls):
    """Median seconds per call of `calls` (one per input copy) replayed from a CUDA graph, and
    whether a graph was used (else eager timing)."""
    for c in calls:
        c()
    torch.cuda.synchronize()
    reps = max(20, len(calls))
    try:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for r in range(reps):
                calls[r % len(calls)]()
        g.replay()
        torch.cuda.synchronize()
        times = []
        for _ in range(7):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            g.replay()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e) * 1e-3 / reps)
        times.sort()
        return times[len(times) // 2], True
    except Exception:  # noqa: BLE001 (not capturable): eager, after an L2 flush each call
        torch.cuda.synchronize()
        i = [0]

        def one():
            calls[i[0] % len(calls)]()
            i[0] += 1
        if do_bench is not None:
            return do_bench(one, warmup=10, rep=50, return_mode="median") * 1e-3, False
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(reps):
            one()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) * 1e-3 / reps, False


SHAPES = models.TABLE_SHAPES  # (B, Hq, Hkv, N) at head_dim 128; the model sweep times them too
KV_DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp8-e4m3": torch.float8_e4m3fn}
OTHER_KV_DTYPES = {"fp8-e5m2": torch.float8_e5m2}  # measured on request (--kv), not in the default table
ALL_KV_DTYPES = {**KV_DTYPES, **OTHER_KV_DTYPES}
EXTRA = [(*s, "fp16") for s in models.TABLE_EXTRA]  # (B, Hq, Hkv, N, D, kv dtype): D = 64, D = 256, G = 5


NO_TORCH, SPLITS, READ = False, 0, True


def sdpa_backends():
    from torch.nn.attention import SDPBackend
    names = [("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION"), ("math", "MATH")]
    return [(n, getattr(SDPBackend, a)) for n, a in names if hasattr(SDPBackend, a)]


def bench_case(B, Hq, Hkv, N, D, kv_name, probe, flex, rows):
    kv_dtype = ALL_KV_DTYPES[kv_name]
    q_dtype = torch.bfloat16 if kv_name == "bf16" else torch.float16
    fp8 = kv_name.startswith("fp8")
    dev = "cuda"
    kv_bytes = 2 * B * Hkv * N * D * (1 if fp8 else 2)
    copies = max(1, min(64, math.ceil((256 << 20) / kv_bytes)))
    # [B, Hkv, N, D] (the layout SDPA takes), random data; fp8 from scaled normals.
    qs = [torch.randn(B, Hq, D, device=dev, dtype=q_dtype) for _ in range(copies)]
    ks = [(torch.randn(B, Hkv, N, D, device=dev, dtype=torch.float16) * (4 if fp8 else 1)).to(kv_dtype) for _ in range(copies)]
    vs = [(torch.randn(B, Hkv, N, D, device=dev, dtype=torch.float16) * (4 if fp8 else 1)).to(kv_dtype) for _ in range(copies)]
    outs = [torch.empty(B, Hq, D, device=dev, dtype=q_dtype) for _ in range(copies)]
    seqlen = torch.full((B,), N, dtype=torch.int32, device=dev)
    plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=q_dtype, kv_dtype=kv_dtype, o_dtype=q_dtype, splits=SPLITS)
    scale = 0.25 if fp8 else 1.0
    ours = [lambda i=i: plan.run(qs[i], ks[i], vs[i], seqlen, out=outs[i], kv_layout="HND", k_scale=scale, v_scale=scale)
            for i in range(copies)]
    t_ours, _ = time_per_call(ours)
    t_read = same_size_read(kv_bytes, copies) if READ else None
    # Correctness of what was timed, against fp32 on the dequantized inputs.
    G = Hq // Hkv
    ours[0]()
    sc = torch.einsum("bhgd,bhnd->bhgn", qs[0].view(B, Hkv, G, D).float(), ks[0].float() * scale) / math.sqrt(D)
    ref = torch.einsum("bhgn,bhnd->bhgd", sc.softmax(-1), vs[0].float() * scale).reshape(B, Hq, D)
    err = ((outs[0].float() - ref).norm() / ref.norm()).item()
    del sc, ref
    row = dict(B=B, Hq=Hq, Hkv=Hkv, N=N, D=D, kv=kv_name, kv_MiB=kv_bytes / 2**20, splits=plan.splits, cluster=plan.cluster,
               cotile_us=t_ours * 1e6, cotile_TBps=kv_bytes / t_ours / 1e12, cotile_pct_probe=100 * kv_bytes / t_ours / probe,
               rel_err=err)
    if t_read is not None:
        row.update(read_us=t_read * 1e6, read_pct_probe=100 * kv_bytes / t_read / probe, cotile_pct_read=100 * t_read / t_ours)
    best_torch = None
    if not fp8 and not NO_TORCH:  # no PyTorch attention takes fp8 K/V
        from torch.nn.attention import sdpa_kernel
        q4s = [q.unsqueeze(2) for q in qs]
        methods = [(name, backend) for name, backend in sdpa_backends() if not (name == "math" and kv_bytes > (1 << 30))]
        if flex is not None:
            methods.append(("flex", None))
        for name, backend in methods:
            try:
                if backend is None:
                    calls = [lambda i=i: flex(q4s[i], ks[i], vs[i], enable_gqa=True) for i in range(copies)]
                    t, graphed = time_per_call(calls)
                else:
                    with sdpa_kernel([backend]):
                        calls = [lambda i=i: F.scaled_dot_product_attention(q4s[i], ks[i], vs[i], enable_gqa=True)
                                 for i in range(copies)]
                        t, graphed = time_per_call(calls)
                row[name + "_us"] = t * 1e6
                row[name + "_graph"] = graphed
                best_torch = t if best_torch is None else min(best_torch, t)
            except Exception:  # noqa: BLE001 (the backend does not take this problem)
                row[name + "_us"] = None
    row["best_torch_us"] = best_torch * 1e6 if best_torch else None
    row["speedup_vs_best_torch"] = best_torch / t_ours if best_torch else None
    rows.append(row)
    del qs, ks, vs, outs
    torch.cuda.empty_cache()
    return row


READ_TIMES = {}  # KV bytes -> seconds a read of them takes (the 16-bit dtypes share it)


def same_size_read(nbytes, copies):
    """Seconds a call of the probe's read over nbytes takes, timed as the kernel is (rotating copies)."""
    if nbytes not in READ_TIMES:
        bufs = [torch.empty(nbytes, dtype=torch.uint8, device="cuda").fill_(i) for i in range(copies)]
        READ_TIMES[nbytes], _ = time_per_call([lambda b=b: cotile_decode.stream_read(b) for b in bufs])
        del bufs
        torch.cuda.empty_cache()
    return READ_TIMES[nbytes]


def fmt(x, spec, star=False):
    return "-".rjust(len(format(0.0, spec))) if x is None else format(x, spec) + ("*" if star else "")


def print_cluster_capacity():
    for kv, dt in (("f16", torch.float16), ("fp8", torch.float8_e4m3fn)):
        for d in (64, 128, 256):
            p = cotile_decode.DecodePlan(1, 8, 1, d, 1, kv_dtype=dt)
            print(f"resident clusters of 2..8 CTAs, D={d} {kv} ({p.ctas_per_sm} CTAs/SM): "
                  + " ".join(str(p.resident_clusters(s)) for s in range(2, 9)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.csv"))
    ap.add_argument("--no-flex", action="store_true")
    ap.add_argument("--quick", action="store_true", help="fp16 only, no extras")
    ap.add_argument("--kv", choices=list(ALL_KV_DTYPES), help="only this KV dtype (fp8-e5m2: not in the default table)")
    ap.add_argument("--shape", help="only B,Hq,Hkv,N,D")
    ap.add_argument("--no-torch", action="store_true", help="the kernel only (no PyTorch baselines)")
    ap.add_argument("--no-read", action="store_true", help="skip the same-size read (columns read %%pr, %%read)")
    ap.add_argument("--splits", type=int, default=0, help="KV splits for every case (default 0: the plan's choice)")
    args = ap.parse_args()
    t0 = time.time()
    probe = cotile_decode.bandwidth_probe(4 << 30, repeats=10)
    if args.no_torch:
        args.no_flex = True
    print(f"streaming-read probe: {probe / 1e12:.3f} TB/s (16-byte loads over 4 GiB)")
    print_cluster_capacity()
    flex = None
    if not args.no_flex:
        try:
            from torch.nn.attention.flex_attention import flex_attention
            import torch._dynamo
            for knob in ("recompile_limit", "cache_size_limit"):  # one compilation per shape
                if hasattr(torch._dynamo.config, knob):
                    setattr(torch._dynamo.config, knob, 256)
            flex = torch.compile(flex_attention, dynamic=False)
        except Exception as e:  # noqa: BLE001
            print(f"FlexAttention unavailable: {e}", file=sys.stderr)
    rows = []
    cases = [(B, Hq, Hkv, N, 128, kv) for kv in (["fp16"] if args.quick else KV_DTYPES) for (B, Hq, Hkv, N) in SHAPES]
    if not args.quick:
        cases += EXTRA
    if args.kv in OTHER_KV_DTYPES:
        cases = [(B, Hq, Hkv, N, 128, args.kv) for (B, Hq, Hkv, N) in SHAPES]
    elif args.kv:
        cases = [c for c in cases if c[5] == args.kv]
    if args.shape:
        B, Hq, Hkv, N, D = map(int, args.shape.split(","))
        cases = [(B, Hq, Hkv, N, D, kv) for kv in ([args.kv] if args.kv else KV_DTYPES)]
    global NO_TORCH, SPLITS, READ
    NO_TORCH, SPLITS, READ = args.no_torch, args.splits, not args.no_read
    hdr = (f"{'B':>4} {'Hq':>4} {'Hkv':>4} {'N':>7} {'D':>4} {'kv':>9} {'MiB':>7} {'spl':>4} {'cotile us':>10} {'TB/s':>6} "
           f"{'%probe':>7} {'read%pr':>7} {'%read':>6} {'cudnn':>8} {'flash':>8} {'effic':>8} {'math':>8} {'flex':>8} {'x best':>7} {'err':>8}")
    print(hdr)
    for c in cases:
        r = bench_case(*c, probe, flex, rows)
        print(f"{r['B']:>4} {r['Hq']:>4} {r['Hkv']:>4} {r['N']:>7} {r['D']:>4} {r['kv']:>9} {r['kv_MiB']:>7.1f} {str(r['splits']) + ('c' if r['cluster'] > 1 else ''):>4} "
              f"{r['cotile_us']:>10.2f} {r['cotile_TBps']:>6.2f} {r['cotile_pct_probe']:>6.1f}% "
              f"{fmt(r.get('read_pct_probe'), '6.1f')}% {fmt(r.get('cotile_pct_read'), '5.1f')}% "
              + " ".join(fmt(r.get(m + "_us"), "8.2f", r.get(m + "_graph") is False) for m in ("cudnn", "flash", "efficient", "math", "flex"))
              + f" {fmt(r['speedup_vs_best_torch'], '7.2f')} "
              f"{r['rel_err']:>8.1e}", flush=True)
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    print(f"probe {probe / 1e12:.3f} TB/s; {len(rows)} cases in {time.time() - t0:.0f} s; CSV: {args.csv}")
    print("* = not capturable in a CUDA graph: timed eagerly (host overhead included); spl: KV splits, c = merged in a cluster")
    print("read %pr: the probe's read of the same KV bytes, one launch a call, as % of the probe; %read: the kernel's rate as % of it")
    print("\n".join(targets.report(rows)))


if __name__ == "__main__":
    main()
