"""torch.ops.cotile.decode (python/cotile_ops.py): the operator's results are DecodePlan.run's, bit
for bit, called eagerly, inside torch.compile(fullgraph=True) and replayed from a CUDA graph; its
fake implementation gives the output's shape and dtype; torch.library.opcheck passes; bad handles
and doubled scales raise naming the argument.

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
h = cotile_ops.register(plan)

# Eager: the operator is the plan's run.
want = plan.run(q, k, v, seqlen, kv_layout="HND")
got = torch.ops.cotile.decode(q, k, v, seqlen, h, "HND")
check("eager decode equals DecodePlan.run", torch.equal(got, want))
want_o, want_lse = plan.run(q, k, v, seqlen, kv_layout="HND", return_lse=True, softcap=30.0)
got_o, got_lse = torch.ops.cotile.decode_lse(q, k, v, seqlen, h, "HND", softcap=30.0)
check("eager decode_lse equals DecodePlan.run (soft-cap)", torch.equal(got_o, want_o) and torch.equal(got_lse, want_lse))

# A call checked once is launched from the call cache after (where python/decode_ext is built).
before = plan.cache_stats()
for _ in range(3):
    torch.ops.cotile.decode(q, k, v, seqlen, h, "HND")
if before is not None:
    after = plan.cache_stats()
    check("operator calls hit the call cache", after[0] >= before[0] + 3, f"{before} -> {after}")

# With python/decode_ext the kernel is C++: a cached call runs no Python, a new one goes through _decode.
print(f"the operator's CUDA kernel: {'C++ (python/decode_ext)' if cotile_ops._cpp_kernel else 'Python'}")
if cotile_ops._cpp_kernel:
    python_calls, python_decode = [], cotile_ops._decode
    cotile_ops._decode = lambda *a, **kw: python_calls.append(1) or python_decode(*a, **kw)
    for _ in range(3):
        torch.ops.cotile.decode(q, k, v, seqlen, h, "HND")
    q2 = q.clone()
    got2 = torch.ops.cotile.decode(q2, k, v, seqlen, h, "HND")
    cotile_ops._decode = python_decode
    check("C++ kernel: 3 cached calls without Python, a new one through it", len(python_calls) == 1,
          f"{len(python_calls)} Python calls")
    check("C++ kernel: the new call's result", torch.equal(got2, want))

# Paged fp8 with per-head scales, keyword arguments.
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

# Several query tokens a sequence: the operator's O [B, q_len, Hq, D], eager and fake.
plan_t = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=torch.bfloat16, kv_dtype=torch.bfloat16,
                                  o_dtype=torch.bfloat16, kv_layout="HND", q_len=4)
ht = cotile_ops.register(plan_t)
qt = torch.randn(B, 4, Hq, D, device=dev, dtype=torch.bfloat16)
want_t = plan_t.run(qt, k, v, seqlen, kv_layout="HND", return_lse=True)
got_t = [torch.ops.cotile.decode_lse(qt, k, v, seqlen, ht, "HND") for _ in range(2)]  # checked, then cached
check("eager q_len 4 equals DecodePlan.run", all(torch.equal(g[0], want_t[0]) and torch.equal(g[1], want_t[1])
                                                 for g in got_t), f"{tuple(got_t[1][0].shape)}")

# Fake tensors: shape and dtype without a launch.
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402

with FakeTensorMode(allow_non_fake_inputs=False) as mode:
    fq, fk, fv, fs = (mode.from_tensor(t) for t in (q, k, v, seqlen))
    fo, fl = torch.ops.cotile.decode_lse(fq, fk, fv, fs, h, "HND")
    fto, ftl = torch.ops.cotile.decode_lse(mode.from_tensor(qt), fk, fv, fs, ht, "HND")
check("fake decode_lse: shapes and dtypes", tuple(fo.shape) == (B, Hq, D) and fo.dtype == torch.bfloat16
      and tuple(fl.shape) == (B, Hq) and fl.dtype == torch.float32, f"{fo.shape} {fo.dtype} {fl.shape} {fl.dtype}")
check("fake decode_lse, q_len 4: shapes", tuple(fto.shape) == (B, 4, Hq, D) and tuple(ftl.shape) == (B, 4, Hq),
      f"{fto.shape} {ftl.shape}")

# opcheck: schema (no undeclared mutation), fake against real, and AOT dispatch.
try:
    torch.library.opcheck(torch.ops.cotile.decode.default, (q, k, v, seqlen, h, "HND"))
    torch.library.opcheck(torch.ops.cotile.decode_lse.default, (q, k, v, seqlen, h, "HND"))
    ok, why = True, ""
except Exception as e:  # opcheck raises OpCheckError (or the failing check's error)
    ok, why = False, f"{type(e).__name__}: {e}"
check("torch.library.opcheck", ok, why)


# torch.compile(fullgraph=True): no graph break, the same bits as eager around it.
def step(q, k, v, seqlen):
    o = torch.ops.cotile.decode(q * 2, k, v, seqlen, h, "HND")
    return o.float().sum(-1)


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
torch.ops.cotile.decode(qg, k, v, sg, h, "HND")  # warm the call cache outside the capture
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        og = torch.ops.cotile.decode(qg, k, v, sg, h, "HND")
    qg.copy_(torch.randn_like(q))
    sg.copy_(torch.tensor([5, 700, 64], dtype=torch.int32, device=dev))
    g.replay()
    torch.cuda.synchronize()
    check("graph replay equals eager", torch.equal(og, torch.ops.cotile.decode(qg, k, v, sg, h, "HND")))
except RuntimeError as e:
    check("graph capture", False, str(e))

# Errors name the argument.
raises("unknown handle", lambda: torch.ops.cotile.decode(q, k, v, seqlen, 10**6, "HND"), "plan: handle 1000000", ValueError)
raises("scale twice", lambda: torch.ops.cotile.decode(q, kp, vp, seqlen, h8, page_table=table, k_scale=2.0,
                                                      k_scale_h=ks), "k_scale", ValueError)
raises("register a non-plan", lambda: cotile_ops.register(object()), "plan: object", TypeError)
raises("argument check as run()", lambda: torch.ops.cotile.decode(q, k, v, seqlen.long(), h, "HND"), "seqlen_kv", TypeError)
cotile_ops.release(h8)
raises("released handle", lambda: torch.ops.cotile.decode(q, kp, vp, seqlen, h8, page_table=table), "plan: handle", ValueError)

finish()
