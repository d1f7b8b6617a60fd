"""bench/decode/sweep.py: the decode kernel on the per-GPU heads of public models (issue 24), every
kernel timed the same three ways, against PyTorch and a plain read of the same bytes.

    COTILE_ATTENTION_LIB=build-release/lib/libcotile_attention.so python3 bench/decode/sweep.py --out DIR
    bash bench/decode/sweep.sh --out DIR        # builds the library first
    python3 bench/decode/sweep.py --list         # the cases and the run-time estimate (no PyTorch needed)

Cases (models.py): the distinct per-GPU (Hq, Hkv, D) of the model table (tensor-parallel shards
included), each at ~5 (batch, context) points from 0.5 MiB to 1 GiB of 16-bit KV, with bf16 and
fp8-e4m3 caches (q and o bf16), contiguous [B, Hkv, N, D] and, on two points, paged with 16- and
64-token pages ([pages, page_size, Hkv, D], a shuffled int32 page table [B, N / page_size]).
A full run of the default models adds the back-to-back table's shapes (bench.py's; models.table_cases),
contiguous, whose issue-6 targets are judged under (c) (sweep_targets.table_report); --no-table
leaves them out. All contiguous cases run first, then the paged ones (a run cut short by --deadline
loses paged cases first). --quick, --models and --filter choose fewer; the estimate
(models.estimate) is printed first.

Kernels: `cotile` (python/cotile_decode.py, DecodePlan.run with the plan's split count); the PyTorch
SDPA backends cudnn, flash, efficient (and math on caches <= 16 MiB) through
scaled_dot_product_attention(enable_gqa=True) under sdpa_kernel; `flex` (torch.compile(flex_attention,
dynamic=False), contiguous caches only: a page table is not simple to express for it; by default on
two points per configuration, models.flex_case); `read`: cotile_decode.stream_read over buffers of
exactly the case's KV bytes. PyTorch runs on bf16 contiguous caches only: no PyTorch attention
takes fp8 K/V or a page table; fp8 and paged cases are judged against that (sweep_targets.py).

Timing, the same three ways for every kernel (microseconds a call; timing.py):
  (a) isolated: before each call one read pass over an unrelated 512 MiB buffer (a PyTorch sum, an
      ordinary launch; L2 is left holding clean, unrelated lines), then CUDA events around the call alone; 15 calls over the rotating
      input copies; the median, and the worst (a_worst_us). A GPU sleep first keeps the host ahead.
  (b) in sequence: a CUDA graph of n calls over input copies of >= 256 MiB in all (L2 holds 60 MB),
      each call after an unrelated GEMM ([64, 4096] x [4096, 512] bf16: 4 MiB of weights, a few us,
      what a decode step's projection is); a graph of the n GEMMs alone is timed alike and
      subtracted: (graph - GEMM graph) / n, medians of 7 replays each.
  (c) back to back: a graph of the n calls alone (bench.py's time_per_call), median of 7 replays.
  A kernel that cannot be captured is timed eagerly (graphed = False: host time included).
pct_read_{a,b,c}: the plain read's time of the same bytes over the kernel's, in %, per mode.
Oracle (cotile rows): every forced split count (models.oracle_candidates: 1, 2, 3, 4, 6, 8, 12, 16,
24, 32, 48, 64, 96, 128 up to the plan's cap min(128, ceil(N / 64)), grids of at most 16 CTAs an
SM, and the plan's own) timed under (a) (5 calls) and (b) (3 replays); the best of each mode, and
the plan's time (its row's a_us, b_us) over it (plan_vs_oracle_{a,b}; target <= 1.05); column
`oracle` lists every count's a/b times (`c`: merged in a cluster, `p`: two KV heads a CTA). Plans
are told the cache's layout (paged: NHD, contiguous: HND), so they may pair KV heads (`p` in the
table's split column); where a case can pair (fp8, D = 64, G x q_len <= 8, even Hkv) the oracle forces
each count with one and with two heads a CTA, so that the plan's choice of pairs is judged too.
Several query tokens (--q-len T, issue 28): q and out [B, T, Hq, D], the tokens the cache's last T
rows, token j attending to the rows up to N - T + j. PyTorch takes that causal offset as a
lower-right causal bias (torch.nn.attention.bias.causal_lower_right: flash's own causal mask, the
efficient kernel's lower-right mask, or the bias materialized for the others, each under
sdpa_kernel, so a backend that takes none of these is n/a) and FlexAttention as a mask_mod of the
offset (a block mask made once a shape); q is given as [B, Hq, T, D] (a transposed view). The CSV's
q_len column says which, and qlen_targets.py judges a run against a one-token run and against the
PyTorch rows of its own cases;
--m-tiles-per-cta 1, 2 or 4 forces the m-tiles (16 query rows) a CTA where a case can take them (the
m_tiles_per_cta column: what ran), and `qlen_targets.py --m-tiles` judges the plan's choice against
the better forced one.
Host cost: DecodePlan.run's host time and torch.ops.cotile.decode's and decode_into's
(python/cotile_ops.py; time.perf_counter over batches of 50 calls with the GPU otherwise idle,
synchronized between batches), contiguous and paged, B = 1 (targets <= 10 us each), with torch.add's
as this host's reference; and, where COTILE_HOST_COST_BIN names
bench/decode/host_cost.cu's binary (sweep.sh builds it), the C++ decode_run's on its five
configurations (target <= 3 us).
Correctness: each cotile case once against an fp32 reference on its first two sequences (relative
error; > 2e-2 is reported as a failure and the script exits 1 after writing its results); each
PyTorch kernel too, before it is timed (over the bound: n/a, not timed).

Output in DIR: sweep.csv (one row per case and kernel, written after every case), sweep.txt (what
is printed), sweep.png (each kernel's % of the plain read against KV bytes, a panel per mode), and
the targets at the end (sweep_targets.py; it also judges a stored CSV). --deadline (default 530 s)
stops starting new cases, so the run ends within 10 minutes even if the estimate is low.
"""
import argparse
import contextlib
import math
import os
import re
import subprocess
import sys
import time
import types
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import models as M  # noqa: E402
import sweep_targets  # noqa: E402
from sweep_output import HEADER, case_line, plot, write_csv, write_txt  # noqa: E402

torch = F = cotile_decode = timing = None  # imported by gpu_imports(), so that --list needs no PyTorch
Q_LEN = 1  # query tokens a sequence (--q-len): q and out [B, Q_LEN, Hq, D] when > 1
M_TILES = 0  # m-tiles a CTA (--m-tiles-per-cta): 0 the plan's choice, 1, 2 or 4 forced where a case can take it

SDPA = (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION"), ("math", "MATH"))
MAX_REL_ERR = 2e-2


def gpu_imports():
    global torch, F, cotile_decode, timing
    import torch as _torch
    import torch.nn.functional as _F
    torch, F = _torch, _F
    import cotile_decode as _cd
    cotile_decode = _cd
    import timing as _timing
    timing = _timing
    warnings.filterwarnings("ignore")


class Log:
    """print, and keep every line for sweep.txt."""

    def __init__(self):
        self.lines = []

    def __call__(self, *parts, err=False):
        line = " ".join(str(p) for p in parts)
        self.lines.append(line)
        print(line, file=sys.stderr if err else sys.stdout, flush=True)


def make_inputs(case, copies):
    """Copies of q, K, V and out for a case (each its own tensor, as a model's layers are: no storage
    offsets for torch.compile to specialize on), seqlen, and the page table (one for all copies)."""
    dev, bf16 = "cuda", torch.bfloat16
    B, Hq, Hkv, D, N = case.B, case.Hq, case.Hkv, case.D, case.N
    fp8 = case.kv != "bf16"
    pages = B * N // case.page_size if case.paged else 0
    shape = (pages, case.page_size, Hkv, D) if case.paged else (B, Hkv, N, D)

    def cache():  # normal values; fp8 from 4x scaled normals, dequantized with scale 0.25
        t = torch.empty(shape, device=dev, dtype=bf16).normal_()
        return t.mul_(4).to(torch.float8_e4m3fn) if fp8 else t
    table = torch.randperm(pages, device=dev).to(torch.int32).view(B, N // case.page_size) if case.paged else None
    tok = (Q_LEN,) if Q_LEN > 1 else ()
    return types.SimpleNamespace(qs=[torch.randn(B, *tok, Hq, D, device=dev, dtype=bf16) for _ in range(copies)],
                                 ks=[cache() for _ in range(copies)], vs=[cache() for _ in range(copies)],
                                 outs=[torch.empty(B, *tok, Hq, D, device=dev, dtype=bf16) for _ in range(copies)],
                                 page_table=table, scale=0.25 if fp8 else 1.0,
                                 seqlen=torch.full((B,), N, dtype=torch.int32, device=dev), copies=copies)


def m_tiles_for(case):
    """The m_tiles_per_cta a plan of the case is given: --m-tiles-per-cta, where the case can take it
    (two: several tokens, a 16-bit cache of head_dim <= 128, plan.hpp, can_two_m_tiles; four, the
    warpgroup kernel: head_dim 128 and a cache of Q's type, bf16 here, or an fp8 cache, can_group_rows),
    else 0."""
    if M_TILES == 2 and not (Q_LEN > 1 and case.kv == "bf16" and case.D <= 128):
        return 0
    if M_TILES == 4 and not (Q_LEN > 1 and case.D == 128):
        return 0
    return M_TILES


def cotile_calls(case, inp, splits=0, kv_heads_per_cta=0):
    kv_dtype = torch.bfloat16 if case.kv == "bf16" else torch.float8_e4m3fn
    plan = cotile_decode.DecodePlan(case.B, case.Hq, case.Hkv, case.D, case.N, q_dtype=torch.bfloat16, kv_dtype=kv_dtype,
                                    o_dtype=torch.bfloat16, splits=splits, kv_layout="NHD" if case.paged else "HND",
                                    kv_heads_per_cta=kv_heads_per_cta, q_len=Q_LEN, m_tiles_per_cta=m_tiles_for(case))
    kw = dict(page_table=inp.page_table) if case.paged else dict(kv_layout="HND")
    return plan, [lambda i=i: plan.run(inp.qs[i], inp.ks[i], inp.vs[i], inp.seqlen, out=inp.outs[i], k_scale=inp.scale,
                                       v_scale=inp.scale, **kw) for i in range(inp.copies)]


def sequence_rows(case, inp, cache, b):
    """Sequence b's K or V rows [Hkv, N, D] of copy 0 (paged: gathered through the page table, as
    raw bytes of the same size, which every dtype can be indexed as)."""
    if not case.paged:
        return cache[b]
    raw = cache.view(torch.int16 if cache.element_size() == 2 else torch.uint8)
    pages = raw[inp.page_table[b].long()].view(cache.dtype)  # [N / page_size, page_size, Hkv, D]
    return pages.reshape(case.N, case.Hkv, case.D).permute(1, 0, 2)


def reference(case, inp):
    """{(b, j): [Hq, D]} in fp32 for token j of the first two sequences of copy 0 (what every
    kernel's output is checked against, rel_error)."""
    refs, G = {}, case.G
    for b in range(min(case.B, 2)):
        K = sequence_rows(case, inp, inp.ks[0], b).float() * inp.scale
        V = sequence_rows(case, inp, inp.vs[0], b).float() * inp.scale
        for j in range(Q_LEN):  # token j attends to the rows up to its own, the last Q_LEN rows' j-th
            end = case.N - Q_LEN + 1 + j
            q = (inp.qs[0][b, j] if Q_LEN > 1 else inp.qs[0][b]).float().view(case.Hkv, G, case.D)
            p = (torch.einsum("hgd,hnd->hgn", q, K[:, :end]) / math.sqrt(case.D)).softmax(-1)
            refs[(b, j)] = torch.einsum("hgn,hnd->hgd", p, V[:, :end]).reshape(case.Hq, case.D)
            del p
        del K, V
    return refs


def rel_error(refs, call, out):
    """Largest relative error of a kernel's output of copy 0 against the reference (reference's
    refs): call() runs it, out(its result) is that output as [B, T, Hq, D] ([B, Hq, D] for one
    token): cotile's is the out= tensor it wrote, PyTorch's its result (torch_output)."""
    o = out(call())
    torch.cuda.synchronize()
    worst = 0.0
    for (b, j), ref in refs.items():
        got = o[b, j] if Q_LEN > 1 else o[b]
        worst = max(worst, ((got.float() - ref).norm() / ref.norm()).item())
    return worst


def torch_output(res):
    """A PyTorch attention's result [B, Hq, T, D] as [B, T, Hq, D] ([B, Hq, D] for one token)."""
    return res.transpose(1, 2) if Q_LEN > 1 else res.squeeze(2)


def oracle(case, inp, tm, plan, n_calls):
    """The oracle's columns: each forced split count (and, where the case can pair KV heads, each
    with one and with two heads a CTA) under (a) and (b), the best of each."""
    times = {}
    for per_cta, units in M.oracle_variants(case, Q_LEN):
        own = plan.splits if per_cta in (0, plan.kv_heads_per_cta) else 1
        for s in M.oracle_candidates(case.N, units, own, plan.sms):
            try:
                p, calls = cotile_calls(case, inp, splits=s, kv_heads_per_cta=per_cta)
                calls[0]()
                ta, _ = tm.isolated(calls, M.ORACLE_REPS_ISOLATED)
                tb, _ = tm.in_sequence(calls, max(n_calls, inp.copies), M.ORACLE_REPLAYS)
                times[sweep_targets.plan_key(s, p.cluster, p.kv_heads_per_cta)] = (ta, tb)
            except Exception as e:  # noqa: BLE001
                times[sweep_targets.plan_key(s, 1, per_cta)] = None
                print(f"  oracle: {s} splits ({per_cta or 'plan'} heads a CTA) failed: {type(e).__name__}: "
                      f"{str(e)[:100]}", file=sys.stderr)
    ok = {k: v for k, v in times.items() if v is not None}
    out = dict(oracle=" ".join(f"{k}:{v[0]:.2f}/{v[1]:.2f}" if v else f"{k}:n/a" for k, v in times.items()))
    for i, m in enumerate("ab"):
        if ok:
            best = min(ok, key=lambda k: ok[k][i])
            out[f"oracle_{m}_splits"], out[f"oracle_{m}_us"] = best, ok[best][i]
    return out


def torch_queries(inp):
    """q of each copy as PyTorch attention takes it, [B, Hq, T, D] (T = 1: [B, Hq, 1, D])."""
    return [q.transpose(1, 2) if Q_LEN > 1 else q.unsqueeze(2) for q in inp.qs]


def sdpa_calls(case, inp, q4s):
    """SDPA on each copy; several tokens: the lower-right causal bias (token j sees rows <= N - T + j)."""
    mask = None
    if Q_LEN > 1:
        from torch.nn.attention.bias import causal_lower_right
        mask = causal_lower_right(Q_LEN, case.N)
    return [lambda i=i: F.scaled_dot_product_attention(q4s[i], inp.ks[i], inp.vs[i], attn_mask=mask, enable_gqa=True)
            for i in range(inp.copies)]


class Flex:
    """torch.compile'd flex_attention with a budget of compile seconds (a new shape compiles)."""

    def __init__(self, budget_s, log):
        self.fn, self.spent, self.budget, self.shapes = None, 0.0, budget_s, set()
        self.block_mask = None
        try:
            from torch.nn.attention.flex_attention import create_block_mask, flex_attention
            self.block_mask = create_block_mask
            import torch._dynamo
            for knob in ("recompile_limit", "cache_size_limit"):  # one compilation per shape
                if hasattr(torch._dynamo.config, knob):
                    setattr(torch._dynamo.config, knob, 1024)
            self.fn = torch.compile(flex_attention, dynamic=False)
        except Exception as e:  # noqa: BLE001
            log(f"FlexAttention unavailable: {type(e).__name__}: {e}")

    def calls(self, case, inp, q4s):
        if self.fn is None:
            raise RuntimeError("FlexAttention unavailable")
        shape = (case.B, case.Hq, case.Hkv, case.N, case.D, Q_LEN)
        if shape not in self.shapes and self.spent >= self.budget:
            raise RuntimeError(f"not run: the flex compile budget ({self.budget:.0f} s) is spent")
        kw = {}
        if Q_LEN > 1:  # token j sees rows <= N - T + j: the lower-right causal mask, made once
            offset = case.N - Q_LEN
            kw["block_mask"] = self.block_mask(lambda b, h, q, kv: kv <= q + offset, None, None, Q_LEN, case.N,
                                               device="cuda")
        calls = [lambda i=i: self.fn(q4s[i], inp.ks[i], inp.vs[i], enable_gqa=True, **kw) for i in range(inp.copies)]
        if shape not in self.shapes:
            t0 = time.perf_counter()
            try:
                calls[0]()
                torch.cuda.synchronize()
            finally:
                self.shapes.add(shape)
                self.spent += time.perf_counter() - t0
        return calls


READS = {}  # KV bytes -> the plain read's timing (the same for every case of that size)


def read_times(tm, nbytes, copies):
    if nbytes not in READS:
        bufs = [torch.empty(nbytes, dtype=torch.uint8, device="cuda") for _ in range(copies)]
        READS[nbytes] = tm.all_modes([lambda b=b: cotile_decode.stream_read(b) for b in bufs], copies)
        del bufs
    return READS[nbytes]


def run_case(case, args, tm, flex, probe, log):
    """The rows of one case: the read, cotile (with its check and oracle), the PyTorch kernels."""
    copies = M.copies_for(case.kv_bytes)
    base = dict(label=case.label, models=";".join(case.models), Hq=case.Hq, Hkv=case.Hkv, D=case.D, G=case.G, B=case.B,
                N=case.N, kv=case.kv, layout=case.layout, page_size=case.page_size, kv_MiB=case.kv_bytes / M.MiB,
                kv16_MiB=case.kv16_bytes / M.MiB, copies=copies, probe_TBps=round(probe / 1e12, 4), q_len=Q_LEN)
    rows = {k: dict(base, kernel=k, status="ok") for k in M.kernels_for(case, not args.no_torch, args.flex)}
    read = read_times(tm, case.kv_bytes, copies)
    rows["read"].update(read)
    inp = make_inputs(case, copies)
    q4s = torch_queries(inp)  # (views) q as the PyTorch kernels take it
    ref_cache = {}

    def refs():  # the fp32 reference, made once a case, when a kernel is first checked
        if not ref_cache:
            ref_cache.update(reference(case, inp))
        return ref_cache
    for kern, row in rows.items():
        if kern == "read":
            continue
        try:
            if kern == "cotile":
                plan, calls = cotile_calls(case, inp)
                row.update(splits=plan.splits, cluster=plan.cluster, kv_heads_per_cta=plan.kv_heads_per_cta,
                           m_tiles_per_cta=plan.m_tiles_per_cta, grid=plan.grid,
                           rel_err=rel_error(refs(), calls[0], lambda _: inp.outs[0]))
                row.update(tm.all_modes(calls, copies, args.reps))
                if not args.no_oracle:
                    row.update(oracle(case, inp, tm, plan, row["calls_per_graph"]))
                    for m in "ab":
                        row[f"plan_vs_oracle_{m}"] = sweep_targets.plan_vs_oracle(row, m)
                del plan, calls
            else:
                within = contextlib.nullcontext()
                if kern == "flex":
                    calls = flex.calls(case, inp, q4s)
                else:
                    from torch.nn.attention import SDPBackend, sdpa_kernel
                    within = sdpa_kernel([getattr(SDPBackend, dict(SDPA)[kern])])
                    calls = sdpa_calls(case, inp, q4s)
                with within:
                    # checked as cotile is: a kernel that computes something else (a mask aligned
                    # elsewhere, with several tokens) would be timed doing less
                    err = rel_error(refs(), calls[0], torch_output)
                    if not err <= MAX_REL_ERR:
                        raise RuntimeError(f"wrong result: relative error {err:.1e} > {MAX_REL_ERR}")
                    row["rel_err"] = err
                    row.update(tm.all_modes(calls, copies, args.reps))
                del calls
        except Exception as e:  # noqa: BLE001 (a kernel that does not take the case: n/a)
            msg = str(e).strip().splitlines()[0][:120] if str(e).strip() else ""
            row["status"] = msg if msg.startswith("not run") else f"n/a: {type(e).__name__}: {msg}"
            torch.cuda.synchronize()
    for row in rows.values():
        for m in "abc":
            p = sweep_targets.ratio(read.get(f"{m}_us"), row.get(f"{m}_us"))
            if row["status"] == "ok" and p is not None:
                row[f"pct_read_{m}"] = 100.0 * p
    inp = None  # (the closures above hold it) its memory, freed before the cache is emptied
    ref_cache.clear()
    torch.cuda.empty_cache()
    return list(rows.values())


def host_cost(log):
    """({layout: us} host time of one DecodePlan.run call (out= given), {call: us} of one torch.ops.cotile
    call (python/cotile_ops.py): decode, its output allocated per call, and decode_into, into the
    caller's): medians, GPU otherwise idle (B = 1, N = 1024). torch.add of two 4-element tensors is
    timed alike, as this host's cost of one small PyTorch call (reported, not judged)."""
    try:
        import cotile_ops
    except (ImportError, AttributeError) as e:  # a PyTorch without torch.library.register_fake
        cotile_ops = None
        log(f"torch.ops.cotile.decode not timed: {type(e).__name__}: {e}")
    x = torch.ones(4, device="cuda")
    med, best = timing.per_call_us(lambda: torch.add(x, x))
    log(f"host time of one torch.add of two 4-element tensors (this host's reference): median {med:.2f} us, "
        f"best batch {best:.2f} us")
    out, op = {}, {}
    for layout, ps in (("HND", 0), ("paged16", 16)):
        case = M.Case("Llama-3-8B", ("Llama-3-8B",), 32, 8, 128, 1, 1024, "bf16", layout, ps)
        inp = make_inputs(case, 1)
        plan, calls = cotile_calls(case, inp)
        name = "contiguous" if ps == 0 else "paged"
        med, best = timing.per_call_us(calls[0])
        out[name] = med
        via = "ctypes" if plan.cache_stats() is None else "the C++ call cache"
        log(f"host time of one DecodePlan.run ({layout}, B=1 N=1024, {via}): median {med:.2f} us, "
            f"best batch {best:.2f} us (30 batches of 50 calls)")
        if cotile_ops is None:
            continue
        handle = cotile_ops.register(plan, kv_layout="NHD" if case.paged else "HND", k_scale=inp.scale,
                                     v_scale=inp.scale)
        args = (inp.qs[0], inp.ks[0], inp.vs[0], inp.seqlen, handle) + ((inp.page_table,) if case.paged else ())
        for what, call in (("decode", lambda: torch.ops.cotile.decode(*args)),
                           ("decode_into", lambda: torch.ops.cotile.decode_into(inp.outs[0], None, *args))):
            med, best = timing.per_call_us(call)
            op[f"{name} {what}"] = med
            log(f"host time of one torch.ops.cotile.{what} ({layout}, B=1 N=1024): median {med:.2f} us, "
                f"best batch {best:.2f} us")
        cotile_ops.release(handle)
    return out, op


def cpp_host_cost(log):
    """{configuration: median us} of one C++ decode_run from bench/decode/host_cost.cu's binary
    (COTILE_HOST_COST_BIN, which sweep.sh builds), or None where it is not given or did not run."""
    binary = os.environ.get("COTILE_HOST_COST_BIN")
    if not binary:
        return None
    try:
        res = subprocess.run([binary], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        log(f"decode_run host time not measured: {type(e).__name__}: {e}")
        return None
    out = {}
    for line in res.stdout.splitlines():
        log(f"host time of one decode_run: {line.strip()}")
        m = re.match(r"^(.*?)\s+splits\s.*\bmedian ([0-9.]+)", line)
        if m:
            out[m.group(1).strip()] = float(m.group(2))
    if res.returncode != 0:
        log(f"decode_run host time: {binary} exited with {res.returncode}")
        return None
    return out or None


def parse_args(argv):
    ap = argparse.ArgumentParser(description="The decode kernel on the per-GPU heads of public models, timed three ways "
                                 "(issue 24; the module docstring says what and how).")
    ap.add_argument("--out", help="output folder (sweep.csv, sweep.txt, sweep.png)")
    ap.add_argument("--list", action="store_true", help="print the cases and the estimate, run nothing")
    ap.add_argument("--quick", action="store_true", help="a few models and points, pages of 64 only")
    ap.add_argument("--models", help="'all', or comma-separated substrings of model names (default: the default set)")
    ap.add_argument("--filter", help="e.g. 'kv=fp8-e4m3,layout=HND,B<=8,MiB>=64' (models.parse_filter)")
    ap.add_argument("--no-torch", action="store_true", help="cotile and the read only")
    ap.add_argument("--no-table", action="store_true",
                    help="leave out the back-to-back table's shapes (bench.py), which a full run of the default models adds")
    ap.add_argument("--flex", choices=("all", "some", "none"), default="some", help="cases with FlexAttention (default: some)")
    ap.add_argument("--flex-budget", type=float, default=150.0, help="seconds of flex compilation at most")
    ap.add_argument("--no-oracle", action="store_true", help="skip the forced-split oracle")
    ap.add_argument("--reps", type=int, default=M.REPS_ISOLATED, help="calls timed under (a)")
    ap.add_argument("--host-only", action="store_true",
                    help="only the host times of one call (DecodePlan.run, the operator, decode_run)")
    ap.add_argument("--deadline", type=float, default=530.0, help="seconds after which no new case starts")
    ap.add_argument("--q-len", type=int, default=1, help="query tokens a sequence (the last rows of the cache)")
    ap.add_argument("--m-tiles-per-cta", type=int, default=0, choices=(0, 1, 2, 4),
                    help="several tokens: 1 or 2 m-tiles (16 query rows) a CTA, forced where a case can take it")
    args = ap.parse_args(argv)
    if not args.list and not args.out and not args.host_only:
        ap.error("--out DIR is required (or --list)")
    return args


def main(argv):
    t_start = time.time()
    args = parse_args(argv)
    bad = M.check_models()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 2
    cases = [c for c in M.sweep_cases(args.models, args.quick, not args.no_table) if M.matches(c, M.parse_filter(args.filter))]
    est = M.estimate(cases, not args.no_torch, args.flex, not args.no_oracle, args.flex_budget)
    log = Log()
    log(f"sweep: {len(cases)} cases ({sum(not c.paged for c in cases)} contiguous, {sum(c.paged for c in cases)} paged) of "
        f"{len({(c.Hq, c.Hkv, c.D) for c in cases})} head configurations; ~{est['timed_calls']} timed calls, "
        f"{est['oracle_plans']} oracle plans, {est['flex_shapes']} flex shapes")
    log(f"estimated run time: ~{est['total_s'] / 60:.1f} min (GPU ~{est['gpu_s']:.0f} s, host ~{est['host_s']:.0f} s, "
        f"flex compilation ~{est['flex_compile_s']:.0f} s, start and end ~{M.HOST_START_S:.0f} s); no case starts after "
        f"{args.deadline:.0f} s")
    if args.list:
        for c in cases:
            log(f"  {c.name():<56} {c.kv_bytes / M.MiB:>8.1f} MiB  {' '.join(M.kernels_for(c, not args.no_torch, args.flex))}")
        return 0
    if args.host_only:
        gpu_imports()
        host_cost(log)
        cpp_host_cost(log)
        return 0
    os.makedirs(args.out, exist_ok=True)
    csv_path, txt_path, png_path = (os.path.join(args.out, f"sweep.{x}") for x in ("csv", "txt", "png"))
    gpu_imports()
    global Q_LEN
    Q_LEN = args.q_len
    global M_TILES
    M_TILES = args.m_tiles_per_cta
    if Q_LEN > 1:
        log(f"q_len = {Q_LEN} query tokens a sequence (causal over the cache's last {Q_LEN} rows; PyTorch with a "
            "lower-right causal bias, FlexAttention with its mask)")
    torch.manual_seed(0)
    probe = cotile_decode.bandwidth_probe(4 << 30, repeats=10)
    torch.cuda.empty_cache()
    log(f"streaming-read probe: {probe / 1e12:.3f} TB/s; {torch.cuda.get_device_name()}; torch {torch.__version__}")
    tm = timing.Timer()
    flex = Flex(args.flex_budget, log) if not args.no_torch and args.flex != "none" else None
    rows, failures, skipped = [], [], []
    log(HEADER)
    for i, case in enumerate(cases):
        if time.time() - t_start > args.deadline:
            skipped = cases[i:]
            log(f"deadline ({args.deadline:.0f} s) passed: {len(skipped)} cases not run, from {case.name()}")
            break
        try:
            case_rows = run_case(case, args, tm, flex, probe, log)
        except Exception as e:  # noqa: BLE001 (e.g. out of memory making the inputs)
            case_rows = [dict(label=case.label, Hq=case.Hq, Hkv=case.Hkv, D=case.D, B=case.B, N=case.N, kv=case.kv,
                              layout=case.layout, kv_MiB=case.kv_bytes / M.MiB, kv16_MiB=case.kv16_bytes / M.MiB,
                              kernel="cotile", status=f"n/a: {type(e).__name__}: {str(e)[:120]}")]
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
        rows += case_rows
        cot = next(r for r in case_rows if r["kernel"] == "cotile")
        if cot.get("rel_err") is not None and not cot["rel_err"] <= MAX_REL_ERR:
            failures.append(f"{case.name()}: relative error {cot['rel_err']:.2e} > {MAX_REL_ERR}")
            log(f"CORRECTNESS FAILURE: {failures[-1]}", err=True)
        log(case_line(case_rows, sweep_targets.Index(rows)))
        write_csv(csv_path, rows)
        write_txt(txt_path, log)
    log(f"{len(rows)} rows, {len(cases) - len(skipped)} of {len(cases)} cases in {time.time() - t_start:.0f} s; CSV: {csv_path}")
    log("columns: a isolated (after a 512 MiB read), b in sequence (after a small GEMM, its time subtracted), c back to back; "
        "%rd: the plain read's time / the kernel's; torch: the best PyTorch kernel (on the contiguous bf16 cache); "
        "x: that / cotile; x16: cotile bf16 / fp8; orc: plan / best forced split count; * not in a graph")
    try:
        host, op = host_cost(log)
    except Exception as e:  # noqa: BLE001
        host = op = None
        log(f"host cost not measured: {type(e).__name__}: {e}")
    cpp = cpp_host_cost(log)
    if flex is not None:
        log(f"flex: {len(flex.shapes)} shapes compiled in {flex.spent:.0f} s")
    plot(rows, png_path, log)
    for line in sweep_targets.report(rows, host, op, cpp) + sweep_targets.table_report(rows):
        log(line)
    if failures:
        log(f"CORRECTNESS: {len(failures)} cotile case(s) over {MAX_REL_ERR}:\n  " + "\n  ".join(failures), err=True)
    log(f"total {time.time() - t_start:.0f} s")
    write_txt(txt_path, log)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
