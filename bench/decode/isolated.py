"""bench/decode/isolated.py: what makes an isolated call slow (the sweep's timing (a)).

The sweep times a call after a 512 MiB read; there cotile loses 5-15 us more than cuDNN or a plain
read of the same bytes. This times each kernel after each of these, CUDA events around the call:

  idle      nothing ran since the last synchronization
  small     a 4 MiB reduction (what a small projection is)
  big       a 512 MiB reduction (the sweep's (a): L2 holds clean, unrelated lines)
  big+wait  the 512 MiB reduction, then a ~20 us GPU sleep (the memory's state settles)
  big+warm  the 512 MiB reduction, then the same kernel on a 1-sequence, 1K-token problem (its code
            and constants back in the caches, its data not)

    COTILE_ATTENTION_LIB=build-release/lib/libcotile_attention.so python3 bench/decode/isolated.py
"""
import os
import statistics
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import cotile_decode  # noqa: E402

CASES = [(1, 24, 2, 65536), (128, 32, 8, 1024), (1, 32, 8, 65536)]  # (B, Hq, Hkv, N), D = 128, bf16
MODES = ["idle", "small", "big", "big+wait", "big+warm"]
REPS = 15


def main():
    dev, bf16, D = "cuda", torch.bfloat16, 128
    big = torch.zeros(512 << 20, dtype=torch.uint8, device=dev).view(torch.int32)
    small = torch.zeros(4 << 20, dtype=torch.uint8, device=dev).view(torch.int32)
    print(f"{'case':24s} {'kernel':7s} " + " ".join(f"{m:>9s}" for m in MODES) + "   (median us of 15 calls)")
    for B, Hq, Hkv, N in CASES:
        q = torch.randn(B, Hq, D, device=dev, dtype=bf16)
        k = torch.randn(B, Hkv, N, D, device=dev, dtype=bf16)
        v = torch.randn(B, Hkv, N, D, device=dev, dtype=bf16)
        out = torch.empty(B, Hq, D, device=dev, dtype=bf16)
        seqlen = torch.full((B,), N, dtype=torch.int32, device=dev)
        plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=bf16, kv_dtype=bf16, o_dtype=bf16)
        # the warm-up problem: the same kernel (same D and cache type), 1 sequence of 1K tokens
        wq, wk, wv = (torch.randn(1, Hq, D, device=dev, dtype=bf16), torch.randn(1, Hkv, 1024, D, device=dev, dtype=bf16),
                      torch.randn(1, Hkv, 1024, D, device=dev, dtype=bf16))
        wlen = torch.full((1,), 1024, dtype=torch.int32, device=dev)
        wplan = cotile_decode.DecodePlan(1, Hq, Hkv, D, 1024, q_dtype=bf16, kv_dtype=bf16, o_dtype=bf16)
        read_buf = torch.empty(k.numel() * 4, dtype=torch.uint8, device=dev)
        q4 = q.unsqueeze(2)
        kernels = {
            "cotile": lambda: plan.run(q, k, v, seqlen, out=out, kv_layout="HND"),
            "read": lambda: cotile_decode.stream_read(read_buf),
        }
        try:
            from torch.nn.attention import SDPBackend, sdpa_kernel
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                F.scaled_dot_product_attention(q4, k, v, enable_gqa=True)

            def cudnn():
                with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                    F.scaled_dot_product_attention(q4, k, v, enable_gqa=True)
            kernels["cudnn"] = cudnn
        except Exception as e:  # noqa: BLE001
            print(f"cudnn unavailable: {e}")
        for name, call in kernels.items():
            call()
            torch.cuda.synchronize()
            row = []
            for mode in MODES:
                ts = []
                for _ in range(REPS):
                    torch.cuda.synchronize()
                    if mode == "small":
                        torch.sum(small)
                    elif mode.startswith("big"):
                        torch.sum(big)
                    if mode == "big+wait":
                        torch.cuda._sleep(40000)  # ~20 us at 1.98 GHz
                    if mode == "big+warm":
                        if name == "cotile":
                            wplan.run(wq, wk, wv, wlen, kv_layout="HND")
                        else:
                            call()  # the others: the same call (code warm, data warm too)
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record()
                    call()
                    e.record()
                    e.synchronize()
                    ts.append(s.elapsed_time(e) * 1e3)
                row.append(statistics.median(ts))
            print(f"({B},{Hq},{Hkv},{N})".ljust(24) + f" {name:7s} " + " ".join(f"{t:9.2f}" for t in row), flush=True)
        del q, k, v, out, read_buf
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
