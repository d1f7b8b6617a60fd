"""bench/decode/isolated.py: what makes an isolated call slow (the sweep's timing (a)).

The sweep times a call after a 512 MiB read; there cotile loses more than cuDNN or a plain read of
the same bytes. This times each kernel after each of these, CUDA events around the call:

  idle       nothing ran since the last synchronization
  small      a 4 MiB reduction (what a small projection is)
  big        a 512 MiB reduction (the sweep's (a): L2 holds clean, unrelated lines)
  big+wait   the 512 MiB reduction, then a ~20 us GPU sleep (the memory's state settles)
  big+data   the 512 MiB reduction, then the call's small operands read back into L2 (Q, the
             sequence lengths, the output and cotile's workspace): its code cold, its data not
  big+code   the 512 MiB reduction, then the same kernel, plan and split count on other small
             operands with one tile a sequence: its code back in L2 and the SMs' caches, its data
             cold (but the first tile of each sequence's first split, a few KiB)
  big+both   both of the last two
  big+smem   the 512 MiB reduction, then an empty kernel of 2 CTAs an SM with the call's dynamic
             shared memory (cotile's plan.smem_bytes; 100 KiB for the others): the SMs' shared
             memory carve-out set as the call needs it, its code and data cold (needs CuPy)

    COTILE_ATTENTION_LIB=build-release/lib/libcotile_attention.so python3 bench/decode/isolated.py \
        [--csv FILE] [--modes big,big+code] [--kernels cotile,cudnn]
"""
import os
import statistics
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import cotile_decode  # noqa: E402

# (B, Hq, Hkv, N, D, kv): a long split sequence, a cluster-merged batch, a several-wave grid, a
# small cache, fp8
CASES = [(1, 24, 2, 65536, 128, "bf16"), (16, 32, 8, 2048, 128, "bf16"), (128, 32, 8, 1024, 128, "bf16"),
         (1, 28, 4, 1024, 128, "bf16"), (1, 56, 8, 1024, 128, "bf16"), (1, 32, 8, 65536, 128, "fp8-e4m3"),
         (8, 16, 8, 1024, 256, "bf16")]
MODES = ["idle", "small", "big", "big+wait", "big+data", "big+code", "big+both", "big+smem"]
REPS = 15


def smem_launcher():
    """launch(smem_bytes, ctas): an empty kernel on the current stream that allocates smem_bytes of
    dynamic shared memory a CTA (CuPy's runtime compiler), or None without CuPy."""
    try:
        import cupy
    except ImportError:
        return None
    src = r'''extern "C" __global__ void touch(int* flag) {
      extern __shared__ int s[];
      s[threadIdx.x] = threadIdx.x;
      __syncthreads();
      if (s[(threadIdx.x + 1) % blockDim.x] < 0) flag[0] = 1;
    }'''
    kernel = cupy.RawKernel(src, "touch")
    flag = cupy.zeros(1, dtype=cupy.int32)

    def launch(smem, ctas):
        kernel.max_dynamic_shared_size_bytes = smem
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):  # (deprecated name, still works)
            kernel((ctas,), (128,), (flag,), shared_mem=smem)
    return launch


def main():
    dev = "cuda"
    def option(name, default):
        return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
    csv = option("--csv", None)
    modes = option("--modes", ",".join(MODES)).split(",")
    only = option("--kernels", "cotile,read,cudnn").split(",")
    smem_kernel = smem_launcher()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    big = torch.zeros(512 << 20, dtype=torch.uint8, device=dev).view(torch.int32)
    small = torch.zeros(4 << 20, dtype=torch.uint8, device=dev).view(torch.int32)
    print(f"{'case':32s} {'kernel':7s} " + " ".join(f"{m:>9s}" for m in modes) + "   (median us of 15 calls)")
    lines = ["case,kernel,splits,cluster," + ",".join(modes)]
    for B, Hq, Hkv, N, D, kv in CASES:
        kv_dtype = torch.float8_e4m3fn if kv == "fp8-e4m3" else torch.bfloat16
        bf16 = torch.bfloat16
        q = torch.randn(B, Hq, D, device=dev, dtype=bf16)
        k = torch.randn(B, Hkv, N, D, device=dev, dtype=bf16).to(kv_dtype)
        v = torch.randn(B, Hkv, N, D, device=dev, dtype=bf16).to(kv_dtype)
        out = torch.empty(B, Hq, D, device=dev, dtype=bf16)
        seqlen = torch.full((B,), N, dtype=torch.int32, device=dev)
        plan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=bf16, kv_dtype=kv_dtype, o_dtype=bf16)
        # the code warm-up: the same kernel and split count, its own operands, one tile a sequence
        wplan = cotile_decode.DecodePlan(B, Hq, Hkv, D, N, q_dtype=bf16, kv_dtype=kv_dtype, o_dtype=bf16,
                                         splits=plan.splits)
        wq, wout = torch.randn_like(q), torch.empty_like(out)
        wlen = torch.full((B,), 16, dtype=torch.int32, device=dev)
        read_buf = torch.empty(k.numel() * k.element_size() * 2, dtype=torch.uint8, device=dev)
        q4 = q.unsqueeze(2)
        small_operands = [q, seqlen, out, plan.workspace]

        def warm_data():
            for t in small_operands:
                if t is not None and t.numel():
                    torch.sum(t.view(torch.uint8) if t.dtype != torch.uint8 else t)

        def warm_code():
            wplan.run(wq, k, v, wlen, out=wout, kv_layout="HND")

        kernels = {
            "cotile": lambda: plan.run(q, k, v, seqlen, out=out, kv_layout="HND"),
            "read": lambda: cotile_decode.stream_read(read_buf),
        }
        if kv == "bf16":
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
        label = f"({B},{Hq},{Hkv},{N},{D}) {kv}"
        for name, call in kernels.items():
            if name not in only:
                continue
            call()
            warm_code()
            torch.cuda.synchronize()
            row = []
            for mode in modes:
                ts = []
                for _ in range(REPS):
                    torch.cuda.synchronize()
                    if mode == "small":
                        torch.sum(small)
                    elif mode.startswith("big"):
                        torch.sum(big)
                    if mode == "big+wait":
                        torch.cuda._sleep(40000)  # ~20 us at 1.98 GHz
                    if mode in ("big+data", "big+both"):
                        warm_data()
                    if mode == "big+smem" and smem_kernel:
                        smem_kernel(plan.smem_bytes if name == "cotile" else 100 << 10, 2 * sms)
                    if mode in ("big+code", "big+both"):
                        warm_code() if name == "cotile" else call()  # the others: their code and data warm
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record()
                    call()
                    e.record()
                    e.synchronize()
                    ts.append(s.elapsed_time(e) * 1e3)
                row.append(statistics.median(ts))
            print(f"{label:32s} {name:7s} " + " ".join(f"{t:9.2f}" for t in row) +
                  (f"   splits {plan.splits} cluster {plan.cluster} / warm-up {wplan.splits}, {wplan.cluster}"
                   if name == "cotile" else ""), flush=True)
            lines.append(f"{label},{name},{plan.splits},{plan.cluster}," + ",".join(f"{t:.2f}" for t in row))
        del q, k, v, out, read_buf
        torch.cuda.empty_cache()
    if csv:
        with open(csv, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
