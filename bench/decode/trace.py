"""Per-CTA phase times of one decode launch (a library built with -DCOTILE_DECODE_TRACE=1):
where a CTA's time goes (start -> Q ready -> main loop done -> partial published -> merged).

    COTILE_ATTENTION_LIB=.../libcotile_attention.so python3 bench/decode/trace.py B Hq Hkv N D [fp16|bf16|fp8-e4m3]
"""
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import cotile_decode  # noqa: E402

B, Hq, Hkv, N, D = map(int, sys.argv[1:6])
kv = sys.argv[6] if len(sys.argv) > 6 else "fp16"
kv_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp8-e4m3": torch.float8_e4m3fn}[kv]
q_dtype = torch.bfloat16 if kv == "bf16" else torch.float16
q = torch.randn(B, Hq, D, device="cuda", dtype=q_dtype)
k = torch.randn(B, Hkv, N, D, device="cuda", dtype=torch.float16).to(kv_dtype)
v = torch.randn(B, Hkv, N, D, device="cuda", dtype=torch.float16).to(kv_dtype)
seqlen = torch.full((B,), N, dtype=torch.int32, device="cuda")
plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=q_dtype, kv_dtype=kv_dtype, o_dtype=q_dtype)
lib = cotile_decode._library()
buf = torch.zeros(plan.grid * 6, dtype=torch.int64, device="cuda")
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for _ in range(3):
    plan.run(q, k, v, seqlen, kv_layout="HND")
lib.cotile_decode_set_trace(ctypes.c_void_p(buf.data_ptr()))
flush.zero_()
torch.cuda.synchronize()
plan.run(q, k, v, seqlen, kv_layout="HND")
torch.cuda.synchronize()
lib.cotile_decode_set_trace(ctypes.c_void_p(0))
t = buf.view(plan.grid, 6).cpu().tolist()
t0 = min(r[0] for r in t)
end = max(max(r[:5]) for r in t)
print(f"{B},{Hq},{Hkv},{N},{D} {kv}: grid {plan.grid} splits {plan.splits}; launch span {(end - t0) / 1e3:.2f} us")
names = ["start", "q ready", "loop done", "published", "merged"]
for ph in range(5):
    xs = sorted((r[ph] - t0) / 1e3 for r in t if r[ph])
    if xs:
        print(f"  {names[ph]:>10}: n={len(xs):5d} min {xs[0]:8.2f} median {xs[len(xs) // 2]:8.2f} max {xs[-1]:8.2f} us")
loop = sorted((r[2] - r[1]) / 1e3 for r in t)
print(f"  main loop per CTA: median {loop[len(loop) // 2]:.2f} us, max {loop[-1]:.2f} us")
