"""torch.ops.cotile.decode, decode_lse and decode_into (python/cotile_ops.py): the operators' results
are DecodePlan.run's with the handle's options, bit for bit, called eagerly, inside
torch.compile(fullgraph=True) and replayed from a CUDA graph; their fake implementations give the
outputs' shapes and dtypes; torch.library.opcheck passes; bad handles, bad options and doubled
scales raise naming the argument.

    python3 tests/attention/ops_test.py [path/to/libcotile_attention.so]
Exit 77 (skipped) without PyTorch (with torch.library.register_fake) or a GPU.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_checks import check, finish, raises, torch_or_skip, use_library  # noqa: E402

torch = torch_or_skip(needs=("library.register_fake",))
use_library(sys.argv)
import cotile_decode  # noqa: E402
import cotile_ops  # noqa: E402

torch.manual_seed(0)
dev = "cuda"
B, Hq, Hkv, D, N = 3, 16, 2, 128, 700
seqlen = torch.tensor([700, 1, 333], dtype=torch.int32, device=dev)
q = torch.randn(B, Hq, D, device=dev, dtype=torch.bfloat16)
k = torch.randn(B, Hkv, N, D, device=dev, dtype=torch.bfloat16)  # HND
v = torch.randn(B, Hkv, N, D, device=dev, dtype=torch.bfloat16)
plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=torch.bfloat16, kv_dtype=torch.bfloat16,
                                o_dtype=torch.bfloat16, kv_layout="HND")
h = cotile_ops.register(plan, kv_layout="HND")
hc = cotile_ops.register(plan, kv_layout="HND", softcap=30.0)  # the same plan, other options

# Eager: the operator is the plan's run.
want = plan.run(q, k, v, seqlen, kv_layout="HND")
got = torch.ops.cotile.decode(q, k, v, seqlen, h)
check("eager decode equals DecodePlan.run", torch.equal(got, want))
want_o, want_lse = plan.run(q, k, v, seqlen, kv_layout="HND", return_lse=True, softcap=30.0)
got_o, got_lse = torch.ops.cotile.decode_lse(q, k, v, seqlen, hc)
check("eager decode_lse equals DecodePlan.run (soft-cap)", torch.equal(got_o, want_o) and torch.equal(got_lse, want_lse))

# A call checked once is launched from the call cache after (where python/decode_ext is built).
before = plan.cache_stats()
for _ in range(3):
    torch.ops.cotile.decode(q, k, v, seqlen, h)
if before is not None:
    after = plan.cache_stats()
    check("operator calls hit the call cache", after[0] >= before[0] + 3, f"{before} -> {after}")

# Into tensors the caller keeps: O alone, and O with the LSE.
o_into, lse_into = torch.full_like(want, float("nan")), torch.full_like(want_lse, float("nan"))
check("decode_into returns nothing", torch.ops.cotile.decode_into(o_into, None, q, k, v, seqlen, h) is None)
check("eager decode_into equals DecodePlan.run", torch.equal(o_into, want))
for _ in range(2):  # checked, then cached
    o_into.fill_(float("nan"))
    torch.ops.cotile.decode_into(o_into, lse_into, q, k, v, seqlen, hc)
    check("eager decode_into with the LSE equals DecodePlan.run", torch.equal(o_into, want_o)
          and torch.equal(lse_into, want_lse))

# With python/decode_ext the kernels are C++: a cached call runs no Python, a new one goes through _run.
print(f"the operator's CUDA kernel: {'C++ (python/decode_ext)' if cotile_ops._cpp_kernel else 'Python'}")
if cotile_ops._cpp_kernel:
    python_calls, python_run = [], cotile_ops._run
    cotile_ops._run = lambda *a: python_calls.append(1) or python_run(*a)
    for _ in range(3):
        torch.ops.cotile.decode(q, k, v, seqlen, h)
        torch.ops.cotile.decode_into(o_into, lse_into, q, k, v, seqlen, hc)
    q2 = q.clone()
    got2 = torch.ops.cotile.decode(q2, k, v, seqlen, h)
    cotile_ops._run = python_run
    check("C++ kernel: 6 cached calls without Python, a new one through it", len(python_calls) == 1,
          f"{len(python_calls)} Python calls")
    check("C++ kernel: the new call's result", torch.equal(got2, want))

# Paged fp8 with per-head scales, keyword arguments; the handle's options by default (NHD).
P = 16
pages = (N + P - 1) // P
table = torch.randperm(B * pages, device=dev, dtype=torch.int32).view(B, pages)
kp = torch.randn(B * pages, P, Hkv, D, device=dev).to(torch.float8_e4m3fn)
vp = torch.randn(B * pages, P, Hkv, D, device=dev).to(torch.float8_e4m3fn)
ks = torch.rand(Hkv, device=dev) + 0.5
vs = torch.rand(Hkv, device=dev) + 0.5
plan8 = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=torch.bfloat16, kv_dtype=torch.float8_e4m3fn,
                                 o_dtype=torch.bfloat16, kv_layout="NHD")
h8 = cotile_ops.register(plan8)
want8 = plan8.run(q, kp, vp, seqlen, page_table=table, k_scale=ks, v_scale=vs)
got8 = torch.ops.cotile.decode(q, kp, vp, seqlen, h8, page_table=table, k_scale_h=ks, v_scale_h=vs)
check("eager paged fp8 with per-head scales equals DecodePlan.run", torch.equal(got8, want8))
h8s = cotile_ops.register(plan8, softmax_scale=0.05, window=300, k_scale=0.5, v_scale=2)
want8s = plan8.run(q, kp, vp, seqlen, page_table=table, softmax_scale=0.05, window=300, k_scale=0.5, v_scale=2.0)
got8s = [torch.ops.cotile.decode(q, kp, vp, seqlen, h8s, table) for _ in range(2)]
check("eager paged fp8, the handle's scale, window and float scales", all(torch.equal(g, want8s) for g in got8s))

# Several query tokens a sequence: the operator's O [B, q_len, Hq, D], eager and fake.
plan_t = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=torch.bfloat16, kv_dtype=torch.bfloat16,
                                  o_dtype=torch.bfloat16, kv_layout="HND", q_len=4)
ht = cotile_ops.register(plan_t, kv_layout="HND")
qt = torch.randn(B, 4, Hq, D, device=dev, dtype=torch.bfloat16)
want_t = plan_t.run(qt, k, v, seqlen, kv_layout="HND", return_lse=True)
got_t = [torch.ops.cotile.decode_lse(qt, k, v, seqlen, ht) for _ in range(2)]  # checked, then cached
check("eager q_len 4 equals DecodePlan.run", all(torch.equal(g[0], want_t[0]) and torch.equal(g[1], want_t[1])
                                                 for g in got_t), f"{tuple(got_t[1][0].shape)}")

# Fake tensors: shape and dtype without a launch.
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402

with FakeTensorMode(allow_non_fake_inputs=False) as mode:
    fq, fk, fv, fs = (mode.from_tensor(t) for t in (q, k, v, seqlen))
    fo, fl = torch.ops.cotile.decode_lse(fq, fk, fv, fs, h)
    fto, ftl = torch.ops.cotile.decode_lse(mode.from_tensor(qt), fk, fv, fs, ht)
    f_into = torch.ops.cotile.decode_into(mode.from_tensor(o_into), mode.from_tensor(lse_into), fq, fk, fv, fs, h)
    raises("fake decode_into: an out of the wrong shape", lambda: torch.ops.cotile.decode_into(
        mode.from_tensor(want_t[0]), None, fq, fk, fv, fs, h), "out: (3, 4, 16, 128)", ValueError)
check("fake decode_lse: shapes and dtypes", tuple(fo.shape) == (B, Hq, D) and fo.dtype == torch.bfloat16
      and tuple(fl.shape) == (B, Hq) and fl.dtype == torch.float32, f"{fo.shape} {fo.dtype} {fl.shape} {fl.dtype}")
check("fake decode_lse, q_len 4: shapes", tuple(fto.shape) == (B, 4, Hq, D) and tuple(ftl.shape) == (B, 4, Hq),
      f"{fto.shape} {ftl.shape}")
check("fake decode_into: nothing returned", f_into is None)

# opcheck: schema (no undeclared mutation), fake against real, and AOT dispatch.
try:
    torch.library.opcheck(torch.ops.cotile.decode.default, (q, k, v, seqlen, h))
    torch.library.opcheck(torch.ops.cotile.decode_lse.default, (q, k, v, seqlen, hc))
    torch.library.opcheck(torch.ops.cotile.decode_into.default, (o_into, lse_into, q, k, v, seqlen, hc))
    ok, why = True, ""
except Exception as e:  # opcheck raises OpCheckError (or the failing check's error)
    ok, why = False, f"{type(e).__name__}: {e}"
check("torch.library.opcheck", ok, why)


# torch.compile(fullgraph=True): no graph break, the same bits as eager around it.
def step(q, k, v, seqlen):
    o = torch.ops.cotile.decode(q * 2, k, v, seqlen, h)
    into = torch.empty_like(o)
    torch.ops.cotile.decode_into(into, None, q + 1, k, v, seqlen, h)
    return o.float().sum(-1) + into.float().sum(-1)


torch._dynamo.reset()
try:
    compiled = torch.compile(step, fullgraph=True)
    got_c = compiled(q, k, v, seqlen)
    got_c2 = compiled(q + 1, k, v, seqlen)  # a second call: the compiled graph, new inputs
    ok, why = True, ""
except Exception as e:
    ok, why, got_c, got_c2 = False, f"{type(e).__name__}: {e}", None, None
check("torch.compile(fullgraph=True) traces the operator", ok, why)
if ok:
    check("compiled equals eager", torch.equal(got_c, step(q, k, v, seqlen)))
    check("compiled equals eager, second call", torch.equal(got_c2, step(q + 1, k, v, seqlen)))

# A CUDA graph: captured, replayed on new contents of the same buffers.
qg, sg = q.clone(), seqlen.clone()
og_into, lg_into = torch.empty_like(want), torch.empty_like(want_lse)
torch.ops.cotile.decode(qg, k, v, sg, h)  # warm the call cache outside the capture
torch.ops.cotile.decode_into(og_into, lg_into, qg, k, v, sg, hc)
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        og = torch.ops.cotile.decode(qg, k, v, sg, h)
        torch.ops.cotile.decode_into(og_into, lg_into, qg, k, v, sg, hc)
    qg.copy_(torch.randn_like(q))
    sg.copy_(torch.tensor([5, 700, 64], dtype=torch.int32, device=dev))
    g.replay()
    torch.cuda.synchronize()
    check("graph replay equals eager", torch.equal(og, torch.ops.cotile.decode(qg, k, v, sg, h)))
    want_g = torch.ops.cotile.decode_lse(qg, k, v, sg, hc)
    check("graph replay of decode_into equals eager", torch.equal(og_into, want_g[0]) and torch.equal(lg_into, want_g[1]))
except RuntimeError as e:
    check("graph capture", False, str(e))

# Errors name the argument.
raises("unknown handle", lambda: torch.ops.cotile.decode(q, k, v, seqlen, 10**6), "plan: handle 1000000", ValueError)
raises("scale twice", lambda: torch.ops.cotile.decode(q, kp, vp, seqlen, h8s, page_table=table, k_scale_h=ks),
       "k_scale_h: the handle's k_scale is 0.5; give a per-head scale or a float one (register), not both", ValueError)
raises("register a non-plan", lambda: cotile_ops.register(object()), "plan: object", TypeError)
raises("register a tensor scale", lambda: cotile_ops.register(plan8, k_scale=ks),
       "k_scale: Tensor, expected a float (a per-head tensor is the call's k_scale_h)", TypeError)
raises("register a string soft-cap", lambda: cotile_ops.register(plan, softcap="30"), "softcap: str, expected a float",
       TypeError)
raises("register a float window", lambda: cotile_ops.register(plan, window=2.5), "window: float, expected an int", TypeError)
raises("register an unknown layout", lambda: cotile_ops.register(plan, kv_layout="XYZ"),
       "kv_layout: 'XYZ', expected 'NHD' ([B, N, Hkv, D], paged caches too) or 'HND'", ValueError)
raises("argument check as run()", lambda: torch.ops.cotile.decode(q, k, v, seqlen.long(), h), "seqlen_kv", TypeError)
raises("decode_into: out checked as run()", lambda: torch.ops.cotile.decode_into(
    torch.empty(B, Hq, D, device=dev), None, q, k, v, seqlen, h), "out", TypeError)
cotile_ops.release(h8)
raises("released handle", lambda: torch.ops.cotile.decode(q, kp, vp, seqlen, h8, page_table=table), "plan: handle", ValueError)

finish()
