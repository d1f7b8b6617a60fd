"""The Python module (python/cotile_decode.py) on PyTorch tensors: results against an fp32
PyTorch reference (contiguous both layouts, paged, remap, append, fp8 with per-head scales, LSE,
several query tokens a sequence),
capture in a CUDA graph, and argument checks that raise naming the argument.

    python3 tests/attention/python_test.py [path/to/libcotile_attention.so]
Exit 77 (skipped) without PyTorch or a GPU.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_checks import check, finish, raises, torch_or_skip, use_library  # noqa: E402

torch = torch_or_skip()
use_library(sys.argv)
import cotile_decode  # noqa: E402


def reference(q, k_rows, v_rows, lens, scale, k_scale, v_scale):
    """q [B, Hq, D]; k_rows/v_rows: per sequence [L_b, Hkv, D] float; returns O fp32, LSE."""
    B, Hq, D = q.shape
    Hkv = k_rows[0].shape[1] if lens[0] else 1
    out = torch.zeros(B, Hq, D, device=q.device)
    lse = torch.full((B, Hq), -math.inf, device=q.device)
    for b in range(B):
        if lens[b] == 0:
            continue
        K = k_rows[b].float() * k_scale.view(1, -1, 1)
        V = v_rows[b].float() * v_scale.view(1, -1, 1)
        G = Hq // K.shape[1]
        Kh = K.repeat_interleave(G, dim=1)  # [L, Hq, D]
        Vh = V.repeat_interleave(G, dim=1)
        s = torch.einsum("hd,lhd->hl", q[b].float(), Kh) * scale
        lse[b] = torch.logsumexp(s, dim=-1)
        out[b] = torch.einsum("hl,lhd->hd", s.softmax(-1), Vh)
    return out, lse


def rel(a, b):
    return ((a.float() - b).norm() / b.norm().clamp_min(1e-12)).item()


dev = "cuda"
torch.manual_seed(0)

# Contiguous caches in both orders, f16, with LSE.
B, Hq, Hkv, D, N = 3, 16, 4, 128, 300
q = torch.randn(B, Hq, D, device=dev, dtype=torch.float16)
k = torch.randn(B, N, Hkv, D, device=dev, dtype=torch.float16)
v = torch.randn(B, N, Hkv, D, device=dev, dtype=torch.float16)
lens = [300, 0, 123]
seqlen = torch.tensor(lens, dtype=torch.int32, device=dev)
plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, torch.float16, torch.float16, torch.float16)
ones = torch.ones(Hkv, device=dev)
ref, ref_lse = reference(q, [k[b, :lens[b]] for b in range(B)], [v[b, :lens[b]] for b in range(B)], lens, 1 / math.sqrt(D), ones, ones)
out, lse = plan.run(q, k, v, seqlen, return_lse=True)
check("NHD f16", rel(out, ref) < 4e-3, f"rel {rel(out, ref):.2e}")
check("LSE (empty sequence -inf)", torch.allclose(lse, ref_lse, atol=1e-2) and lse[1].eq(-math.inf).all().item(), str(lse[:, 0]))
check("empty sequence O = 0", out[1].eq(0).all().item())
kh, vh = k.transpose(1, 2).contiguous(), v.transpose(1, 2).contiguous()
out2 = plan.run(q, kh, vh, seqlen, kv_layout="HND")
check("HND f16", rel(out2, ref) < 4e-3, f"rel {rel(out2, ref):.2e}")
for splits in (1, 6, 40):  # forced: no split, merged in a cluster, merged through the workspace
    plan_s = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, torch.float16, torch.float16, torch.float16, splits=splits)
    out_s, lse_s = plan_s.run(q, k, v, seqlen, return_lse=True)
    check(f"{splits} splits (cluster {plan_s.cluster})", rel(out_s, ref) < 4e-3 and torch.allclose(lse_s, ref_lse, atol=1e-2),
          f"rel {rel(out_s, ref):.2e}")

# Several query tokens a sequence (q_len 3): q and O [B, 3, Hq, D], LSE [B, 3, Hq]; token j attends to
# the rows up to its own, the cache's last 3 (sequence 1 holds 2 rows: its token 0 attends to none).
T, lens_t = 3, [300, 2, 123]
qt = torch.randn(B, T, Hq, D, device=dev, dtype=torch.float16)
plan_t = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, torch.float16, torch.float16, torch.float16, q_len=T)
out_t, lse_t = plan_t.run(qt, k, v, torch.tensor(lens_t, dtype=torch.int32, device=dev), return_lse=True)
check("q_len 3: shapes", tuple(out_t.shape) == (B, T, Hq, D) and tuple(lse_t.shape) == (B, T, Hq),
      f"{tuple(out_t.shape)} {tuple(lse_t.shape)}")
for j in range(T):
    ends = [max(0, L - T + 1 + j) for L in lens_t]
    ref_j, lse_j = reference(qt[:, j], [k[b, :ends[b]] for b in range(B)], [v[b, :ends[b]] for b in range(B)], ends,
                             1 / math.sqrt(D), ones, ones)
    check(f"q_len 3, token {j}: O and LSE", rel(out_t[:, j], ref_j) < 4e-3 and torch.allclose(lse_t[:, j], lse_j, atol=1e-2),
          f"rel {rel(out_t[:, j], ref_j):.2e}")
# The tokens appended by the kernel (k_new, v_new [B, 3, Hkv, D]) into a cache with room for them.
kt = torch.randn(B, N + T, Hkv, D, device=dev, dtype=torch.float16)
vt = torch.randn_like(kt)
knt, vnt = torch.randn(B, T, Hkv, D, device=dev, dtype=torch.float16), torch.randn(B, T, Hkv, D, device=dev, dtype=torch.float16)
plan_ta = cotile_decode.DecodePlan(B, Hq, Hkv, D, N + T, torch.float16, torch.float16, torch.float16, q_len=T)
out_ta = plan_ta.run(qt, kt, vt, seqlen, k_new=knt, v_new=vnt)
check("q_len 3: appended K/V in the cache", all(torch.equal(kt[b, lens[b]:lens[b] + T], knt[b])
                                                and torch.equal(vt[b, lens[b]:lens[b] + T], vnt[b]) for b in range(B)))
for j in range(T):
    ends = [L + 1 + j for L in lens]
    ref_j, _ = reference(qt[:, j], [kt[b, :ends[b]] for b in range(B)], [vt[b, :ends[b]] for b in range(B)], ends,
                         1 / math.sqrt(D), ones, ones)
    check(f"q_len 3 appended, token {j}", rel(out_ta[:, j], ref_j) < 4e-3, f"rel {rel(out_ta[:, j], ref_j):.2e}")
# Two m-tiles a CTA (G x q_len = 8 x 3 = 24 query rows, 32 a CTA), forced, one a CTA, and the warpgroup
# kernel's 64 rows a CTA (the plan's choice here).
Hkv2, ones2 = 2, torch.ones(2, device=dev)
k2, v2 = torch.randn(B, N, Hkv2, D, device=dev, dtype=torch.float16), torch.randn(B, N, Hkv2, D, device=dev, dtype=torch.float16)
for mt in (1, 2, 4):
    plan_m = cotile_decode.DecodePlan(B, Hq, Hkv2, D, N, torch.float16, torch.float16, torch.float16, q_len=T,
                                      m_tiles_per_cta=mt)
    out_m = plan_m.run(qt, k2, v2, torch.tensor(lens_t, dtype=torch.int32, device=dev))
    check(f"m_tiles_per_cta {mt}: the plan's", plan_m.m_tiles_per_cta == mt, str(plan_m.m_tiles_per_cta))
    for j in range(T):
        ends = [max(0, L - T + 1 + j) for L in lens_t]
        ref_j, _ = reference(qt[:, j], [k2[b, :ends[b]] for b in range(B)], [v2[b, :ends[b]] for b in range(B)], ends,
                             1 / math.sqrt(D), ones2, ones2)
        check(f"m_tiles_per_cta {mt}, token {j}", rel(out_m[:, j], ref_j) < 4e-3, f"rel {rel(out_m[:, j], ref_j):.2e}")
raises("two m-tiles of an fp8 cache", lambda: cotile_decode.DecodePlan(1, 16, 1, 128, 10, kv_dtype=torch.float8_e4m3fn,
                                                                       q_len=2, m_tiles_per_cta=2),
       "m_tiles_per_cta = 2 with q_len = 2, head_dim = 128, kv_type = e4m3; two m-tiles a CTA need several query tokens, "
       "head_dim 64 or 128 and a 16-bit cache")
raises("q_len 3: q of one token", lambda: plan_t.run(q, k, v, seqlen), "q:")
raises("q_len in plan", lambda: cotile_decode.DecodePlan(1, 8, 2, 128, 10, q_len=9), "q_len = 9")

# Paged bf16 with append: the new token lands in the cache and is attended.
page = 16
pages_per_seq = math.ceil((N + 1) / page)
kp = torch.randn(B * pages_per_seq + 2, page, Hkv, D, device=dev, dtype=torch.bfloat16)
vp = torch.randn_like(kp)
table = torch.randperm(B * pages_per_seq + 2, device=dev)[: B * pages_per_seq].view(B, pages_per_seq).int()
kn = torch.randn(B, Hkv, D, device=dev, dtype=torch.bfloat16)
vn = torch.randn_like(kn)
qb = q.to(torch.bfloat16)
plan_b = cotile_decode.DecodePlan(B, Hq, Hkv, D, N + 1, torch.bfloat16, torch.bfloat16, torch.bfloat16)
out = plan_b.run(qb, kp, vp, seqlen, page_table=table, k_new=kn, v_new=vn)


def rows_of(cache, b, L):
    idx = torch.arange(L, device=dev)
    return cache[table[b, idx // page].long(), idx % page]


kr = [rows_of(kp, b, lens[b] + 1) for b in range(B)]  # the append is in the cache now
vr = [rows_of(vp, b, lens[b] + 1) for b in range(B)]
check("appended K/V in the paged cache", all(torch.equal(kr[b][lens[b]], kn[b]) and torch.equal(vr[b][lens[b]], vn[b]) for b in range(B)))
ref, _ = reference(qb, kr, vr, [L + 1 for L in lens], 1 / math.sqrt(D), ones, ones)
check("paged bf16 + append", rel(out, ref) < 2e-2, f"rel {rel(out, ref):.2e}")

# fp8 e4m3 cache with per-head scales, remapped batches, captured in a CUDA graph.
if hasattr(torch, "float8_e4m3fn"):
    k8 = (torch.randn(B + 2, N, Hkv, D, device=dev) * 4).to(torch.float8_e4m3fn)
    v8 = (torch.randn(B + 2, N, Hkv, D, device=dev) * 4).to(torch.float8_e4m3fn)
    remap = torch.tensor([4, 0, 2], dtype=torch.int32, device=dev)
    ks = torch.rand(Hkv, device=dev) + 0.5
    vs = torch.rand(Hkv, device=dev) + 0.5
    plan8 = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, torch.float16, torch.float8_e4m3fn, torch.float16)
    out8 = torch.empty(B, Hq, D, device=dev, dtype=torch.float16)
    plan8.run(q, k8, v8, seqlen, out=out8, cache_batch_idx=remap, k_scale=ks, v_scale=vs)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        plan8.run(q, k8, v8, seqlen, out=out8, cache_batch_idx=remap, k_scale=ks, v_scale=vs)
    out8.zero_()
    g.replay()
    torch.cuda.synchronize()
    rk = [k8[remap[b]][: lens[b]] for b in range(B)]
    rv = [v8[remap[b]][: lens[b]] for b in range(B)]
    ref, _ = reference(q, rk, rv, lens, 1 / math.sqrt(D), ks, vs)
    check("fp8 e4m3 per-head scales, remap, CUDA graph replay", rel(out8, ref) < 4e-3, f"rel {rel(out8, ref):.2e}")

    # head_dim 64 fp8, paged, a plan told the layout (NHD) and forced to pair KV heads, per-head scales.
    D64, Hkv64, P64 = 64, 4, 16
    pages64 = B * (N // P64 + 1)
    kp = (torch.randn(pages64, P64, Hkv64, D64, device=dev) * 4).to(torch.float8_e4m3fn)
    vp = (torch.randn(pages64, P64, Hkv64, D64, device=dev) * 4).to(torch.float8_e4m3fn)
    table64 = torch.randperm(pages64, device=dev, dtype=torch.int32)[: B * (N // P64 + 1)].view(B, -1).contiguous()
    q64 = torch.randn(B, 8, D64, device=dev, dtype=torch.bfloat16)
    ks64, vs64 = torch.rand(Hkv64, device=dev) + 0.5, torch.rand(Hkv64, device=dev) + 0.5
    plan64 = cotile_decode.DecodePlan(B, 8, Hkv64, D64, N, torch.bfloat16, torch.float8_e4m3fn, torch.bfloat16,
                                      kv_layout="NHD", kv_heads_per_cta=2)
    out64 = plan64.run(q64, kp, vp, seqlen, page_table=table64, k_scale=ks64, v_scale=vs64)
    rows = [kp[table64[b].long()].flatten(0, 1)[: lens[b]] for b in range(B)]
    vrows = [vp[table64[b].long()].flatten(0, 1)[: lens[b]] for b in range(B)]
    ref, _ = reference(q64, rows, vrows, lens, 1 / math.sqrt(D64), ks64, vs64)
    check("fp8 head_dim 64 paged, pairs of KV heads a CTA", plan64.kv_heads_per_cta == 2 and rel(out64, ref) < 2e-2,
          f"kv_heads_per_cta {plan64.kv_heads_per_cta}, rel {rel(out64, ref):.2e}")
    # The same pairs with two query tokens (each token's 2G = 4 rows of a pair: 8 in all).
    q64t = torch.randn(B, 2, 8, D64, device=dev, dtype=torch.bfloat16)
    plan64t = cotile_decode.DecodePlan(B, 8, Hkv64, D64, N, torch.bfloat16, torch.float8_e4m3fn, torch.bfloat16,
                                       kv_layout="NHD", kv_heads_per_cta=2, q_len=2)
    out64t = plan64t.run(q64t, kp, vp, seqlen, page_table=table64, k_scale=ks64, v_scale=vs64)
    for j in range(2):
        ends = [max(0, L - 1 + j) for L in lens]
        ref_j, _ = reference(q64t[:, j], [r[:e] for r, e in zip(rows, ends)], [r[:e] for r, e in zip(vrows, ends)], ends,
                             1 / math.sqrt(D64), ks64, vs64)
        check(f"fp8 head_dim 64 paged, pairs of KV heads, q_len 2, token {j}",
              plan64t.kv_heads_per_cta == 2 and rel(out64t[:, j], ref_j) < 2e-2,
              f"kv_heads_per_cta {plan64t.kv_heads_per_cta}, rel {rel(out64t[:, j], ref_j):.2e}")
    plan_hnd = cotile_decode.DecodePlan(B, 8, Hkv64, D64, N, torch.bfloat16, torch.float8_e4m3fn, torch.bfloat16,
                                        kv_layout="HND")
    try:
        plan_hnd.run(q64, kp, vp, seqlen, page_table=table64)
        check("a paged (NHD) cache refused by a plan told HND", False, "no exception")
    except RuntimeError as e:
        check("a paged (NHD) cache refused by a plan told HND", "kv_layout is HND" in str(e), str(e))


# The C++ call cache (python/decode_ext, built beside the library where PyTorch is): a call checked
# before launches from C++ with the same result; any changed argument is checked again in Python.
if plan.cache_stats() is None:
    check("call cache built (python/decode_ext)", os.environ.get("COTILE_DECODE_EXT_REQUIRED") != "1",
          "COTILE_DECODE_EXT_REQUIRED=1 but the module is absent")
else:
    plan_c = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, torch.float16, torch.float16, torch.float16)
    first, first_lse = plan_c.run(q, k, v, seqlen, return_lse=True)  # checked in Python
    again, again_lse = plan_c.run(q, k, v, seqlen, return_lse=True)  # launched from C++
    hits = plan_c.cache_stats()[0]
    check("call cache: second call launched from C++", hits == 1, str(plan_c.cache_stats()))
    check("call cache: same O and LSE", torch.equal(first, again) and torch.equal(first_lse, again_lse)
          and again.data_ptr() != first.data_ptr())
    given, given_lse = torch.empty_like(first), torch.empty(B, Hq, device=dev)
    for _ in range(2):
        got = plan_c.run(q, k, v, seqlen, out=given, lse=given_lse)
    check("call cache: given out and lse returned as given", got[0] is given and got[1] is given_lse
          and torch.equal(given, first) and torch.equal(given_lse, first_lse) and plan_c.cache_stats()[0] == 2,
          str(plan_c.cache_stats()))
    plan_c.run(q, k, v, seqlen)
    check("call cache: O alone", torch.equal(plan_c.run(q, k, v, seqlen), first) and plan_c.cache_stats()[0] == 3)
    raises("q reinterpreted after a cached call", lambda: plan_c.run(q.view(torch.bfloat16), k, v, seqlen), "q:")
    raises("v narrowed after a cached call", lambda: plan_c.run(q, k, v[:, :, :2], seqlen), "v_cache")
    from fractions import Fraction  # not a key type: checked in Python every call, same result
    frac = [plan_c.run(q, k, v, seqlen, softmax_scale=Fraction(1, int(math.sqrt(D) * 8) + 1)) for _ in range(2)]
    check("call cache: uncacheable argument", torch.equal(frac[0], frac[1]) and plan_c.cache_stats()[0] == 3,
          str(plan_c.cache_stats()))


# Argument checks: each raises, naming the argument.
raises("q dtype", lambda: plan.run(q.float(), k, v, seqlen), "q:")
raises("q shape", lambda: plan.run(q[:, :8], k, v, seqlen), "q:")
raises("q device", lambda: plan.run(q.cpu(), k, v, seqlen), "q:")
raises("k last stride", lambda: plan.run(q, k.transpose(2, 3), v, seqlen), "k_cache")
raises("v shape", lambda: plan.run(q, k, v[:, :, :2], seqlen), "v_cache")
raises("seqlen dtype", lambda: plan.run(q, k, v, seqlen.long()), "seqlen_kv")
raises("kv_layout", lambda: plan.run(q, k, v, seqlen, kv_layout="NDH"), "kv_layout")
raises("k_new alone", lambda: plan.run(q, k, v, seqlen, k_new=k[:, 0].transpose(0, 0)), "k_new")
raises("page size", lambda: plan.run(q, k[:, :12].contiguous(), v[:, :12].contiguous(), seqlen,
                                     page_table=torch.zeros(B, 30, dtype=torch.int32, device=dev)), "page size")
raises("splits in plan", lambda: cotile_decode.DecodePlan(1, 8, 2, 128, 10, splits=200), "splits = 200")
raises("head_dim in plan", lambda: cotile_decode.DecodePlan(1, 8, 2, 96, 10), "head_dim")
raises("group in plan", lambda: cotile_decode.DecodePlan(1, 9, 2, 128, 10), "heads_q")
raises("o dtype", lambda: cotile_decode.DecodePlan(1, 8, 2, 128, 10, o_dtype=torch.float32), "o_dtype")
raises("misaligned stride", lambda: plan.run(q, torch.randn(B, N, Hkv, D + 4, device=dev, dtype=torch.float16)[..., :D], v, seqlen),
       "k_cache")
raises("stream_read device", lambda: cotile_decode.stream_read(torch.zeros(64, dtype=torch.uint8)), "buf:")
raises("stream_read size", lambda: cotile_decode.stream_read(torch.zeros(24, dtype=torch.uint8, device=dev)), "buf:")
check("C stream_read refuses NULL", cotile_decode._library().cotile_stream_read(None, 16, None) != 0
      and b"cotile_stream_read" in cotile_decode._library().cotile_decode_last_error())

# The same-size read the benchmark times: one launch each, capturable in a CUDA graph.
try:
    buf = torch.ones(1 << 20, dtype=torch.uint8, device=dev)
    cotile_decode.stream_read(buf)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(3):
            cotile_decode.stream_read(buf)
    g.replay()
    torch.cuda.synchronize()
    captured, why = True, ""
except RuntimeError as e:  # a launch error, or a capture that the launch broke
    captured, why = False, str(e)
check("stream_read captured in a CUDA graph and replayed", captured, why)

finish()
