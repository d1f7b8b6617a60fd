"""The model sweep's cases (bench/decode/sweep.py, issue 24) in plain Python: no PyTorch, no GPU.

MODELS names public models with their attention heads as their configs state them (Hugging Face
`config.json`: num_attention_heads, num_key_value_heads, head_dim or hidden_size / heads) and the
tensor-parallel degree `tp` a deployment shards them over: one GPU then holds Hq / tp query heads
and Hkv / tp KV heads. Models with the same per-GPU (Hq, Hkv, D) share one set of cases.

For each per-GPU head configuration, points() picks (batch, context) pairs by the 16-bit KV bytes
they make (K + V, 4 * Hkv * D bytes a token of a sequence): a single 1K-token sequence (latency),
~16 MiB at batch 8, ~128 MiB at batch 16, ~512 MiB at batch 128 (a smaller batch where 1K tokens
of 128 sequences pass 1 GiB) and one 64K-token sequence; contexts are multiples of 1024, and no
case has more than 1 GiB. Every point is run with a contiguous [B, Hkv, N, D] cache in bf16 and
fp8-e4m3 (q and o bf16); the batch-16 and 64K-token points also with paged caches of 16- and
64-token pages. The heads were taken from the models' published configs (source column).

Which kernels run on which case (kernels_for), how many calls each timing takes (graph_plan) and
the run-time estimate (estimate) live here too, so that `sweep.py --list` needs no PyTorch.

    python3 bench/decode/models.py      # the model table and the per-GPU configurations
"""
import math
import sys
from collections import namedtuple

MiB = 1 << 20
GiB = 1 << 30

# name, total query heads, total KV heads, head dim, tensor-parallel degree, in the default sweep,
# in --quick, source (the config the heads come from).
Model = namedtuple("Model", "name heads_q heads_kv head_dim tp default quick source")
MODELS = [
    Model("Llama-3-8B", 32, 8, 128, 1, True, True, "meta-llama/Meta-Llama-3-8B: 32 heads, 8 KV heads, hidden 4096"),
    Model("Mistral-7B", 32, 8, 128, 1, True, False, "mistralai/Mistral-7B-v0.3: 32 heads, 8 KV heads, head_dim 128"),
    Model("Mixtral-8x7B", 32, 8, 128, 1, True, False, "mistralai/Mixtral-8x7B-v0.1: 32 heads, 8 KV heads, hidden 4096"),
    Model("Llama-3-70B TP4", 64, 8, 128, 4, True, False, "meta-llama/Meta-Llama-3-70B: 64 heads, 8 KV heads, hidden 8192"),
    Model("Qwen2.5-72B TP4", 64, 8, 128, 4, True, False, "Qwen/Qwen2.5-72B: 64 heads, 8 KV heads, hidden 8192"),
    Model("Llama-3-70B TP8", 64, 8, 128, 8, True, True, "meta-llama/Meta-Llama-3-70B on 8 GPUs"),
    Model("Qwen2.5-72B TP8", 64, 8, 128, 8, True, False, "Qwen/Qwen2.5-72B on 8 GPUs"),
    Model("Llama-3.1-405B TP8", 128, 8, 128, 8, True, True, "meta-llama/Llama-3.1-405B: 128 heads, 8 KV heads, hidden 16384"),
    Model("Qwen2.5-7B", 28, 4, 128, 1, True, True, "Qwen/Qwen2.5-7B: 28 heads, 4 KV heads, hidden 3584"),
    Model("Qwen2.5-32B", 40, 8, 128, 1, True, False, "Qwen/Qwen2.5-32B: 40 heads, 8 KV heads, hidden 5120"),
    Model("Gemma-2-27B", 32, 16, 128, 1, True, False, "google/gemma-2-27b: 32 heads, 16 KV heads, head_dim 128"),
    Model("Gemma-2-9B", 16, 8, 256, 1, True, True, "google/gemma-2-9b: 16 heads, 8 KV heads, head_dim 256"),
    Model("Phi-3-medium", 40, 10, 128, 1, True, False, "microsoft/Phi-3-medium-4k-instruct: 40 heads, 10 KV heads, hidden 5120"),
    Model("Yi-34B", 56, 8, 128, 1, True, False, "01-ai/Yi-34B: 56 heads, 8 KV heads, hidden 7168"),
    Model("Qwen1.5-0.5B", 16, 16, 64, 1, True, False, "Qwen/Qwen1.5-0.5B: 16 heads, 16 KV heads, hidden 1024"),
    Model("Llama-3.2-1B", 32, 8, 64, 1, True, True, "meta-llama/Llama-3.2-1B: 32 heads, 8 KV heads, head_dim 64"),
    Model("StarCoder2-3B", 24, 2, 128, 1, True, False, "bigcode/starcoder2-3b: 24 heads, 2 KV heads, hidden 3072"),
    # In the table, not in the default sweep (--models all, or by name):
    Model("Llama-2-7B", 32, 32, 128, 1, False, False, "meta-llama/Llama-2-7b-hf: 32 heads, 32 KV heads, hidden 4096"),
    Model("Gemma-2B", 8, 1, 256, 1, False, False, "google/gemma-2b: 8 heads, 1 KV head, head_dim 256"),
    Model("Qwen2.5-0.5B", 14, 2, 64, 1, False, False, "Qwen/Qwen2.5-0.5B: 14 heads, 2 KV heads, hidden 896"),
    Model("Llama-3.1-405B TP4", 128, 8, 128, 4, False, False, "meta-llama/Llama-3.1-405B on 4 GPUs"),
    Model("Mixtral-8x22B TP4", 48, 8, 128, 4, False, False, "mistralai/Mixtral-8x22B-v0.1: 48 heads, 8 KV heads, hidden 6144"),
    Model("Mistral-Large-2 TP8", 96, 8, 128, 8, False, False, "mistralai/Mistral-Large-Instruct-2407: 96 heads, 8 KV heads, head_dim 128"),
]
# Not in the table: MLA models (DeepSeek-V2/V3: one latent KV head of 512 + 64), which this GQA
# kernel does not compute; Falcon-7B (71 heads on one KV head: G = 71 > 32); Phi-3-mini (D = 96).

KERNEL_GROUPS = range(1, 33)      # G the kernel supports (decode_plan.cu: 1 to 32)
KERNEL_HEAD_DIMS = (64, 128, 256)
KV_DTYPES = ("bf16", "fp8-e4m3")  # q and o are bf16 for both
PAGE_SIZES = (16, 64)
TORCH_KERNELS = ("cudnn", "flash", "efficient", "math", "flex")
MATH_MAX_BYTES = 16 * MiB         # the math backend (fp32, 20-200x slower) only on caches this small
CASE_CAP_BYTES = GiB              # 16-bit KV bytes of one case at most


def per_gpu(m):
    """(Hq, Hkv, D) on one GPU of model m's tensor-parallel deployment."""
    return m.heads_q // m.tp, m.heads_kv // m.tp, m.head_dim


def check_models(models=MODELS):
    """[problems]: heads that do not divide by tp, or a per-GPU group or head dim the kernel lacks."""
    bad = []
    for m in models:
        hq, hkv, d = per_gpu(m)
        if m.heads_q % m.tp or m.heads_kv % m.tp or hq % hkv:
            bad.append(f"{m.name}: {m.heads_q}/{m.heads_kv} heads do not shard evenly over {m.tp} GPUs")
        elif hq // hkv not in KERNEL_GROUPS or d not in KERNEL_HEAD_DIMS:
            bad.append(f"{m.name}: G = {hq // hkv}, D = {d} is not supported by the kernel")
    return bad


Config = namedtuple("Config", "label models Hq Hkv D")  # label: the first model's name


def configs(models):
    """The distinct per-GPU head configurations of `models`, in table order."""
    out = {}
    for m in models:
        key = per_gpu(m)
        if key in out:
            out[key] = out[key]._replace(models=out[key].models + (m.name,))
        else:
            out[key] = Config(m.name, (m.name,), *key)
    return list(out.values())


def _context_for(target_bytes, batch, token_bytes):
    """Context (a multiple of 1024, 1K to 128K) nearest to target_bytes of 16-bit KV at `batch`."""
    n = round(target_bytes / (batch * token_bytes) / 1024) * 1024
    return min(max(n, 1024), 131072)


def points(cfg):
    """[(B, N, paged)]: the (batch, context) pairs of a head configuration, smallest KV first."""
    tok = 4 * cfg.Hkv * cfg.D  # 16-bit K + V bytes of one token of one sequence
    big_b = next((b for b in (128, 64, 32, 16, 8, 4, 2, 1) if b * 1024 * tok <= CASE_CAP_BYTES), 1)
    cand = [(1, 1024, False), (8, _context_for(16 * MiB, 8, tok), False), (16, _context_for(128 * MiB, 16, tok), True),
            (big_b, _context_for(512 * MiB, big_b, tok), False), (1, 65536, True)]
    out = {}
    for b, n, paged in cand:
        while b * n * tok > CASE_CAP_BYTES and n > 1024:
            n //= 2
        if b * n * tok <= CASE_CAP_BYTES:
            out[(b, n)] = out.get((b, n), False) or paged
    return sorted(((b, n, p) for (b, n), p in out.items()), key=lambda x: (x[0] * x[1], x[0]))


class Case(namedtuple("Case", "label models Hq Hkv D B N kv layout page_size")):
    """One timed problem. layout: 'HND' (contiguous [B, Hkv, N, D]) or 'paged16' / 'paged64'."""

    @property
    def G(self):
        return self.Hq // self.Hkv

    @property
    def kv16_bytes(self):  # K + V bytes of the same case in 16 bits
        return 4 * self.B * self.N * self.Hkv * self.D

    @property
    def kv_bytes(self):
        return self.kv16_bytes // (1 if self.kv in ("bf16", "fp16") else 2)

    @property
    def paged(self):
        return self.page_size > 0

    def name(self):
        return f"{self.label} ({self.Hq},{self.Hkv},{self.D}) B={self.B} N={self.N} {self.kv} {self.layout}"


def cases_for(cfgs, quick=False):
    """Every case of the configurations: each point contiguous in both dtypes, and paged where marked;
    all contiguous cases first (so that a run cut short by its deadline loses paged cases first)."""
    out, paged_cases = [], []
    for c in cfgs:
        pts = points(c)
        if quick:  # the smallest, the batch-16 (~128 MiB) and the longest-context points; pages of 64 only
            keep = {pts[0][:2], next((p[:2] for p in pts if p[0] == 16), pts[-1][:2]), max(pts, key=lambda p: p[1])[:2]}
            pts = [p for p in pts if p[:2] in keep]
        for b, n, paged in pts:
            for kv in KV_DTYPES:
                out.append(Case(c.label, c.models, c.Hq, c.Hkv, c.D, b, n, kv, "HND", 0))
            if paged:
                for ps in ((64,) if quick else PAGE_SIZES):
                    for kv in KV_DTYPES:
                        paged_cases.append(Case(c.label, c.models, c.Hq, c.Hkv, c.D, b, n, kv, f"paged{ps}", ps))
    return out + paged_cases


# The back-to-back table's shapes (bench.py; issue 6's targets, bench/decode/targets.py): (B, Hq, Hkv, N)
# at head_dim 128, and (B, Hq, Hkv, N, D) beyond it. bench.py times them in f16, bf16 and fp8-e4m3
# (TABLE_EXTRA in f16 only); the full sweep adds them in its two dtypes, contiguous, so that one run
# judges the table's targets under (c) beside the models' (sweep_targets.py, table_report).
TABLE_SHAPES = [(1, 32, 8, 32768), (8, 32, 8, 8192), (32, 32, 8, 4096), (64, 64, 8, 2048), (128, 32, 8, 1024),
                (16, 64, 4, 16384), (4, 32, 32, 8192), (1, 128, 8, 131072), (1, 32, 8, 1024)]
TABLE_EXTRA = [(8, 32, 8, 8192, 64), (8, 32, 8, 8192, 256), (8, 40, 8, 8192, 128)]  # D = 64, D = 256, G = 5
TABLE_LABEL = "bench table"


def table_shapes():
    """{(B, Hq, Hkv, N, D)} of the table."""
    return {(b, hq, hkv, n, 128) for b, hq, hkv, n in TABLE_SHAPES} | set(TABLE_EXTRA)


def table_cases(cases=()):
    """The table's shapes as contiguous cases in KV_DTYPES, but those `cases` already has (a model's point
    of the same heads, batch and context: it keeps its model's label)."""
    have = {(c.Hq, c.Hkv, c.D, c.B, c.N, c.kv, c.layout) for c in cases}
    out = []
    for b, hq, hkv, n, d in sorted(table_shapes(), key=lambda s: (s[0] * s[3] * s[2] * s[4], s)):  # smallest KV first
        for kv in KV_DTYPES:
            if (hq, hkv, d, b, n, kv, "HND") not in have:
                out.append(Case("table", (TABLE_LABEL,), hq, hkv, d, b, n, kv, "HND", 0))
    return out


def sweep_cases(models_spec=None, quick=False, table=True):
    """The sweep's cases: the models' (cases_for), then, in a full run of the default models, the table's
    (table_cases) before the paged ones."""
    cases = cases_for(configs(select_models(models_spec, quick)), quick)
    if not table or quick or models_spec is not None:
        return cases
    contiguous = [c for c in cases if not c.paged]
    return contiguous + table_cases(cases) + [c for c in cases if c.paged]


def select_models(spec, quick=False):
    """Models by --models: None (the default set, or the quick set), 'all', or comma-separated
    case-insensitive substrings of names."""
    if spec is None:
        return [m for m in MODELS if (m.quick if quick else m.default)]
    if spec.strip().lower() == "all":
        return list(MODELS)
    words = [w.strip().lower() for w in spec.split(",") if w.strip()]
    return [m for m in MODELS if any(w in m.name.lower() for w in words)]


_OPS = ("<=", ">=", "!=", "=", "<", ">")


def parse_filter(text):
    """--filter 'kv=fp8-e4m3,layout=HND|paged16,B<=8,MiB>=64,model=llama': [(key, op, value)].
    Keys: model (substring of a model's name), B, N, D, G, Hq, Hkv, kv, layout, MiB (the case's KV
    MiB); '|' separates alternatives of '='; numbers compare as numbers."""
    terms = []
    for part in (p.strip() for p in (text or "").split(",") if p.strip()):
        op = next((o for o in _OPS if o in part), None)
        if op is None:
            raise ValueError(f"--filter term {part!r}: expected KEY=VALUE, KEY<VALUE, ...")
        key, value = (s.strip() for s in part.split(op, 1))
        if key not in ("model", "B", "N", "D", "G", "Hq", "Hkv", "kv", "layout", "MiB"):
            raise ValueError(f"--filter key {key!r}: one of model, B, N, D, G, Hq, Hkv, kv, layout, MiB")
        terms.append((key, op, value))
    return terms


def matches(case, terms):
    for key, op, value in terms:
        if key == "model":
            ok = any(value.lower() in m.lower() for m in case.models)
            ok = ok if op == "=" else not ok
        else:
            have = case.kv_bytes / MiB if key == "MiB" else getattr(case, key)
            if isinstance(have, str):
                ok = (have in value.split("|")) == (op == "=")
            else:
                want = [float(v) for v in value.split("|")]
                ok = {"=": have in want, "!=": have not in want, "<": have < want[0], ">": have > want[0],
                      "<=": have <= want[0], ">=": have >= want[0]}[op]
        if not ok:
            return False
    return True


# ---- What is timed, and how many calls it takes (sweep.py uses these; estimate counts them) ----

REPS_ISOLATED = 15          # (a): calls, each after a flush, timed alone
ORACLE_REPS_ISOLATED = 5    # (a) for each forced split count
REPLAYS = 7                 # (b) and (c): graph replays (median)
ORACLE_REPLAYS = 3
FLUSH_BYTES = 512 * MiB     # (a): the unrelated read pass before each call
HEAD_START_CYCLES = 5_000_000  # (a): a GPU sleep (~2.5 ms) before the calls, so that the host stays ahead
ROTATE_BYTES = 256 * MiB    # (b), (c): input copies rotate over at least this many bytes (L2: 60 MB)
MAX_COPIES = 256
MIN_CALLS = 20              # calls per graph, at least
SLOW_CALL_S = 1e-3          # a kernel this slow gets graphs of just its copies, replayed 3 times
ORACLE_SPLITS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128)
ORACLE_MAX_CTAS_PER_SM = 16  # forced split counts whose grid exceeds this many CTAs an SM are not tried
H200_SMS = 132


def copies_for(kv_bytes):
    """Input copies the calls rotate over: >= ROTATE_BYTES in all (two at least below 512 MiB)."""
    return max(1 if kv_bytes >= 512 * MiB else 2, min(MAX_COPIES, math.ceil(ROTATE_BYTES / kv_bytes)))


def graph_plan(copies, call_s):
    """(calls per graph, replays) for a kernel of about call_s seconds a call."""
    if call_s > SLOW_CALL_S:
        return max(copies, 2), 3
    return max(copies, MIN_CALLS), REPLAYS


def can_pair(case, q_len=1):
    """Whether the kernel can run the case two KV heads a CTA (plan.hpp can_pair_heads: an fp8 cache of
    head_dim 64, G x q_len <= 8, an even Hkv)."""
    return case.kv != "bf16" and case.D == 64 and case.G * q_len <= 8 and case.Hkv % 2 == 0


def oracle_variants(case, q_len=1):
    """The KV heads a CTA the oracle forces, with the units (b, KV head or pair, m-tile) of each:
    both 1 and 2 where the case can pair (the plan's choice between them is checked too), else the
    plan's own. (Several tokens: the unit's m-tiles of G x q_len rows.)"""
    m_tiles = -(-case.G * q_len // 16)
    if can_pair(case, q_len):
        return [(1, case.B * case.Hkv * m_tiles), (2, case.B * case.Hkv // 2)]
    return [(0, case.B * case.Hkv * m_tiles)]


def oracle_candidates(N, units, plan_splits, sms=H200_SMS):
    """Forced split counts for the oracle: ORACLE_SPLITS up to the plan's cap, min(128, ceil(N / 64))
    (plan.hpp choose_splits: kWarps * kRows = 64 rows a split at least), with at most
    ORACLE_MAX_CTAS_PER_SM CTAs an SM, and the plan's own choice."""
    cap = min(128, -(-N // 64))
    out = {s for s in ORACLE_SPLITS if s <= cap and units * s <= ORACLE_MAX_CTAS_PER_SM * sms}
    return sorted(out | {1, plan_splits})


def flex_case(case, policy):
    """Whether FlexAttention is timed on a contiguous bf16 case: policy 'all', 'none', or 'some' (the
    default: each configuration's latency point, B = 1 N = 1024, and its batch-16 point, ~128 MiB):
    it compiles once per shape (~5 s), too long for every case in 10 minutes, and is never the best
    PyTorch kernel on these caches (bench/decode/results: 1.1-30x slower than cuDNN)."""
    return policy == "all" or (policy == "some" and ((case.B, case.N) == (1, 1024) or case.B == 16))


def kernels_for(case, torch=True, flex="some"):
    """The kernels timed on a case: cotile and the plain read always; PyTorch (SDPA backends and
    FlexAttention) on contiguous bf16 caches only: no PyTorch attention takes fp8 K/V, and SDPA takes
    no page table (paged and fp8 cases are compared with the same case's contiguous bf16 PyTorch)."""
    ks = ["cotile", "read"]
    if torch and case.kv == "bf16" and not case.paged:
        ks += ["cudnn", "flash", "efficient"]
        if case.kv16_bytes <= MATH_MAX_BYTES:
            ks.append("math")
        if flex_case(case, flex):
            ks.append("flex")
    return ks


def est_call_s(kernel, case):
    """A rough time of one call (H200, from bench/decode/results): the estimate's unit of work."""
    b = case.kv_bytes
    if kernel == "flex":  # FlexAttention's decode parallelizes over B * Hkv only (1.1-30x slower)
        return 30e-6 + b / (4.0e12 * min(1.0, case.B * case.Hkv / 280))
    if kernel == "math":
        return 20e-6 + b / 20e9
    if kernel in ("flash", "efficient"):
        return 8e-6 + b / 2.8e12
    return 5e-6 + b / 4.0e12


# Host seconds (fitted loosely to a full default run on the H200: 143 s, 43 of them compiling
# FlexAttention for 26 shapes; the estimate is rough by design).
HOST_START_S = 20.0         # import torch, CUDA context, probe, host-cost measurement, outputs
HOST_CASE_S = 0.1           # inputs, correctness check, memory release
HOST_KERNEL_S = 0.04        # per kernel and case: warm-up, three graph captures, synchronizations
HOST_CALL_S = {"cotile": 30e-6, "read": 10e-6, "flex": 80e-6}  # per Python call issued; others 25 us
FLEX_COMPILE_S = 1.7        # torch.compile of flex_attention for a new shape (dynamic=False)
HOST_PLAN_S = 0.02          # per forced-split plan of the oracle, besides its calls


def _timing_cost(kernel, case, reps_a, replays_cap):
    """(GPU s, host s, timed calls) of timing one kernel on one case in the three ways."""
    t = est_call_s(kernel, case)
    n, replays = graph_plan(copies_for(case.kv_bytes), t)
    replays = min(replays, replays_cap)
    gemm = 4e-6
    flush = FLUSH_BYTES / 4.2e12
    calls = reps_a + 2 * n * (replays + 1) + 2  # (a), (b) and (c) with a replay to warm up, eager warm-up
    gpu = HEAD_START_CYCLES / 1.98e9 + reps_a * (t + flush) + n * (replays + 1) * (2 * t + 2 * gemm) + 2 * t
    host = (reps_a + 2 * n + 2) * HOST_CALL_S.get(kernel, 25e-6)  # Python calls issued: (a), two captures, warm-up
    return gpu, host, calls


def estimate(cases, torch=True, flex="some", oracle=True, flex_budget_s=1e9):
    """Counts and seconds of a sweep: {'cases', 'timed_calls', 'gpu_s', 'host_s', 'total_s', ...}."""
    gpu = host = 0.0
    calls = flex_shapes = oracle_plans = 0
    reads, seen = set(), set()
    for c in cases:
        host += HOST_CASE_S
        for k in kernels_for(c, torch, flex):
            if k == "read":
                if c.kv_bytes in reads:
                    continue
                reads.add(c.kv_bytes)
            if k == "flex":
                shape = (c.B, c.Hq, c.Hkv, c.N, c.D)
                if shape not in seen:
                    seen.add(shape)
                    flex_shapes += 1
            g, h, n = _timing_cost(k, c, REPS_ISOLATED, REPLAYS)
            gpu, host, calls = gpu + g, host + h + HOST_KERNEL_S, calls + n
        if oracle:
            forced = [s for _, units in oracle_variants(c) for s in oracle_candidates(c.N, units, 1)]
            for _ in forced:
                g, h, n = _timing_cost("cotile", c, ORACLE_REPS_ISOLATED, ORACLE_REPLAYS)
                # (b) only for the oracle: no (c) graph; roughly two thirds of the three ways
                gpu, host, calls = gpu + g * 0.6, host + h * 0.6 + HOST_PLAN_S, calls + int(n * 0.6)
                oracle_plans += 1
    compile_s = min(flex_budget_s, flex_shapes * FLEX_COMPILE_S)
    total = HOST_START_S + gpu + host + compile_s
    return dict(cases=len(cases), timed_calls=calls, gpu_s=gpu, host_s=host, flex_shapes=flex_shapes,
                flex_compile_s=compile_s, oracle_plans=oracle_plans, total_s=total)


def main():
    bad = check_models()
    print(f"{'model':<22} {'heads':>9} {'tp':>3} {'per GPU (Hq,Hkv,D)':>19} {'G':>3}  source")
    for m in MODELS:
        hq, hkv, d = per_gpu(m)
        print(f"{m.name:<22} {m.heads_q:>4}/{m.heads_kv:<4} {m.tp:>3} {f'({hq},{hkv},{d})':>19} {hq // hkv:>3}  "
              f"{'' if m.default else '[not default] '}{m.source}")
    for c in configs(MODELS):
        pts = ", ".join(f"B={b} N={n} {4 * b * n * c.Hkv * c.D / MiB:.1f} MiB{' +paged' if p else ''}" for b, n, p in points(c))
        print(f"({c.Hq},{c.Hkv},{c.D}) {' / '.join(c.models)}: {pts}")
    print("\n".join(bad) if bad else "every per-GPU configuration is supported by the kernel (G 1-32, D 64/128/256)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
