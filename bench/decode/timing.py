"""How the model sweep (sweep.py) times a kernel's calls: (a) isolated, after an unrelated 512 MiB
read pass, CUDA events around the one call; (b) in sequence, a CUDA graph of (projection GEMM,
call) pairs less a graph of the GEMMs alone; (c) back to back, a CUDA graph of the calls; and the
host time of one call with the GPU otherwise idle. Imported once PyTorch is (sweep.py's
gpu_imports), so that `sweep.py --list` needs none.
"""
import statistics
import time

import torch

import models as M


def median(xs):
    return statistics.median(xs)


class Timer:
    """The three ways of timing a list of calls (one per input copy): isolated, in_sequence, chain."""

    def __init__(self):
        self.flush_buf = torch.zeros(M.FLUSH_BYTES, dtype=torch.uint8, device="cuda")
        self.flush_words = self.flush_buf.view(torch.int32)
        self.x = torch.randn(64, 4096, device="cuda", dtype=torch.bfloat16)
        self.w = torch.randn(4096, 512, device="cuda", dtype=torch.bfloat16)
        self.y = torch.empty(64, 512, device="cuda", dtype=torch.bfloat16)
        self.stream = torch.cuda.Stream()  # graphs are captured on it
        self.between()
        torch.cuda.synchronize()
        with torch.cuda.stream(self.stream):
            self.between()  # cuBLAS's workspace for the capture stream, before any capture
        torch.cuda.synchronize()

    def between(self):  # the unrelated kernel of (b): a decode step's small projection GEMM
        torch.mm(self.x, self.w, out=self.y)

    def flush(self):
        """The unrelated read pass of (a): a PyTorch reduction over 512 MiB, an ordinary launch (not a
        programmatic dependent one like stream_read, which a kernel's early trigger would let start
        during the timed call's tail)."""
        torch.sum(self.flush_words)

    def head_start(self):
        """Keeps the GPU busy ~2.5 ms, so that the host enqueues (a)'s calls ahead of it."""
        if hasattr(torch.cuda, "_sleep"):
            torch.cuda._sleep(M.HEAD_START_CYCLES)
        else:
            for _ in range(24):
                self.flush()

    @staticmethod
    def events(n):
        return [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]

    def isolated(self, calls, reps):
        """(median, worst) us of one call after an unrelated 512 MiB read pass, CUDA events around it."""
        torch.cuda.synchronize()
        ev = self.events(reps)
        self.head_start()
        for r, (s, e) in enumerate(ev):
            self.flush()
            s.record()
            calls[r % len(calls)]()
            e.record()
        torch.cuda.synchronize()
        ts = sorted(s.elapsed_time(e) * 1e3 for s, e in ev)
        return median(ts), ts[-1]

    def capture(self, body):
        """A CUDA graph of body(), or None when it cannot be captured. (capture_begin/end on a side
        stream rather than torch.cuda.graph, which collects garbage and empties the cache each time.)"""
        try:
            g = torch.cuda.CUDAGraph()
            self.stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(self.stream):
                g.capture_begin()
                try:
                    body()
                finally:
                    g.capture_end()
            torch.cuda.current_stream().wait_stream(self.stream)
            g.replay()
            torch.cuda.synchronize()
            return g
        except Exception:  # noqa: BLE001 (not capturable: timed eagerly)
            torch.cuda.synchronize()
            return None

    @staticmethod
    def run_us(g, body):
        (s, e), = Timer.events(1)
        s.record()
        g.replay() if g is not None else body()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) * 1e3

    def in_sequence(self, calls, n, replays):
        """(us a call, graphed): a graph of n (GEMM, call) pairs less a graph of the n GEMMs, over n."""
        def body():
            for i in range(n):
                self.between()
                calls[i % len(calls)]()

        def base():
            for _ in range(n):
                self.between()
        g1, g0 = self.capture(body), self.capture(base)
        t1, t0 = [], []
        for _ in range(replays):
            t1.append(self.run_us(g1, body))
            t0.append(self.run_us(g0, base))
        graphed = g1 is not None and g0 is not None
        del g1, g0
        return (median(t1) - median(t0)) / n, graphed

    def chain(self, calls, n, replays):
        """(us a call, graphed): a graph of n calls back to back, over n."""
        def body():
            for i in range(n):
                calls[i % len(calls)]()
        g = self.capture(body)
        ts = [self.run_us(g, body) for _ in range(replays)]
        return median(ts) / n, g is not None

    def all_modes(self, calls, copies, reps_a=M.REPS_ISOLATED, replays_cap=M.REPLAYS, chain=True):
        """{a_us, a_worst_us, b_us, c_us, graphed, calls_per_graph} of a kernel's calls."""
        calls[0]()
        torch.cuda.synchronize()
        est = self.run_us(None, calls[-1]) * 1e-6  # one eager call: only to size the graphs
        n, replays = M.graph_plan(copies, est)
        replays = min(replays, replays_cap)
        out = dict(calls_per_graph=n)
        out["a_us"], out["a_worst_us"] = self.isolated(calls, reps_a)
        out["b_us"], gb = self.in_sequence(calls, n, replays)
        gc = True
        if chain:
            out["c_us"], gc = self.chain(calls, n, replays)
        out["graphed"] = gb and gc
        return out


def per_call_us(call):
    """Median host time of one call over 30 batches of 50 (after 20 warm-up calls), GPU otherwise idle."""
    for _ in range(20):
        call()
    per = []
    for _ in range(30):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(50):
            call()
        per.append((time.perf_counter() - t0) / 50 * 1e6)
    torch.cuda.synchronize()
    return median(per), min(per)
