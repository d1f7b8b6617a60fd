"""cotile GQA decode attention from PyTorch, through the C ABI (kernels/attention/decode.h) and ctypes.

    plan = DecodePlan(batch, heads_q, heads_kv, head_dim, max_kv_len,
                      q_dtype=torch.float16, kv_dtype=torch.float16, o_dtype=torch.float16, kv_layout="NHD")
    out, lse = plan.run(q, k_cache, v_cache, seqlen_kv)          # no host synchronization

Caches: contiguous [Bc, N, Hkv, D] (kv_layout="NHD") or [Bc, Hkv, N, D] ("HND"), any strides with the
last one 1; or paged [pages, page_size, Hkv, D] with page_table [B, pages_per_seq] (int32). A plan told
the layout (kv_layout="NHD", paged caches too, or "HND") checks that every run passes it, and for "NHD" may
run fp8 caches of head_dim 64 two KV heads a CTA (plan.kv_heads_per_cta; kernels/attention/plan.hpp).
Every argument is checked before the launch; a wrong one raises ValueError/TypeError naming it.
The library is build/lib/libcotile_attention.so, or the path in COTILE_ATTENTION_LIB. Beside it,
_cotile_decode_ext (python/decode_ext, built where PyTorch is installed) launches calls whose
arguments were checked before from C++; COTILE_DECODE_EXT=0 turns it off (ctypes alone).
"""
import ctypes
import glob
import importlib.machinery
import importlib.util
import math
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))
_LIB_PATH = os.environ.get("COTILE_ATTENTION_LIB", os.path.join(_HERE, "..", "build", "lib", "libcotile_attention.so"))

_DTYPES = {torch.float16: 0, torch.bfloat16: 1}
for _name, _code in (("float8_e4m3fn", 2), ("float8_e5m2", 3)):
    if hasattr(torch, _name):
        _DTYPES[getattr(torch, _name)] = _code

c_i32, c_i64, c_u64, c_f32, c_p = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64, ctypes.c_float, ctypes.c_void_p


class _Shape(ctypes.Structure):
    _fields_ = [("batch", c_i64), ("heads_q", c_i64), ("heads_kv", c_i64), ("head_dim", c_i64), ("max_kv_len", c_i64),
                ("q_type", c_i32), ("kv_type", c_i32), ("o_type", c_i32), ("device", c_i32), ("splits", c_i32),
                ("kv_heads_per_cta", c_i32), ("kv_layout", c_i32), ("q_len", c_i32), ("m_tiles_per_cta", c_i32)]


class _Plan(ctypes.Structure):
    _fields_ = [("shape", _Shape), ("group", c_i32), ("m_tiles", c_i32), ("splits", c_i32), ("grid", c_i32),
                ("ctas_per_sm", c_i32), ("sms", c_i32), ("cluster", c_i32), ("stagger_cycles", c_i32), ("smem_bytes", c_i32),
                ("kv_heads_per_cta", c_i32), ("m_tiles_per_cta", c_i32),
                ("workspace_bytes", c_u64)]


class _Args(ctypes.Structure):
    _fields_ = [("q", c_p), ("q_stride_b", c_i64), ("q_stride_h", c_i64),
                ("k", c_p), ("k_stride_b", c_i64), ("k_stride_n", c_i64), ("k_stride_h", c_i64),
                ("v", c_p), ("v_stride_b", c_i64), ("v_stride_n", c_i64), ("v_stride_h", c_i64),
                ("page_table", c_p), ("page_table_stride", c_i64), ("page_size", c_i32),
                ("seqlen_kv", c_p), ("cache_batch_idx", c_p),
                ("k_new", c_p), ("k_new_stride_b", c_i64), ("k_new_stride_h", c_i64),
                ("v_new", c_p), ("v_new_stride_b", c_i64), ("v_new_stride_h", c_i64),
                ("softmax_scale", c_f32), ("softcap", c_f32), ("window", c_i32),
                ("k_scale", c_f32), ("v_scale", c_f32), ("k_scale_per_head", c_p), ("v_scale_per_head", c_p),
                ("o", c_p), ("o_stride_b", c_i64), ("o_stride_h", c_i64), ("lse", c_p),
                ("q_stride_t", c_i64), ("o_stride_t", c_i64), ("k_new_stride_t", c_i64), ("v_new_stride_t", c_i64),
                ("page_table_len", c_i64)]


_lib = None


def _library():
    global _lib
    if _lib is None:
        if not os.path.exists(_LIB_PATH):
            raise RuntimeError(f"cotile_decode: {_LIB_PATH} not found; build it with "
                               "`cmake -S . -B build && cmake --build build -j2 --target cotile_attention` "
                               "or set COTILE_ATTENTION_LIB")
        lib = ctypes.CDLL(_LIB_PATH)
        lib.cotile_decode_plan.argtypes = [ctypes.POINTER(_Shape), ctypes.POINTER(_Plan)]
        lib.cotile_decode_run.argtypes = [ctypes.POINTER(_Plan), ctypes.POINTER(_Args), c_p, c_u64, c_p]
        lib.cotile_decode_last_error.restype = ctypes.c_char_p
        lib.cotile_decode_abi_size.restype = c_u64
        lib.cotile_bandwidth_probe.argtypes = [c_p, c_u64, c_i32, ctypes.POINTER(c_f32), c_p]
        lib.cotile_stream_read.argtypes = [c_p, c_u64, c_p]
        lib.cotile_decode_resident_clusters.argtypes = [ctypes.POINTER(_Plan), c_i32]
        lib.cotile_decode_resident_clusters.restype = c_i32
        for which, mirror in ((0, _Args), (1, _Plan), (2, _Shape)):
            if lib.cotile_decode_abi_size(which) != ctypes.sizeof(mirror):
                raise RuntimeError(f"cotile_decode: {mirror.__name__} does not match decode.h (rebuild the library)")
        _lib = lib
    return _lib


_ext_module = False  # not looked for yet


def _ext():
    """The call cache module beside the library, or None (not built, or COTILE_DECODE_EXT=0)."""
    global _ext_module
    if _ext_module is False:
        _ext_module = None
        found = glob.glob(os.path.join(os.path.dirname(_LIB_PATH), "_cotile_decode_ext.*.so"))
        if found and os.environ.get("COTILE_DECODE_EXT", "1") != "0":
            loader = importlib.machinery.ExtensionFileLoader("_cotile_decode_ext", found[0])
            spec = importlib.util.spec_from_file_location("_cotile_decode_ext", found[0], loader=loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            _ext_module = module
    return _ext_module


def _check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: {_library().cotile_decode_last_error().decode()}")


def _dtype_code(name, t):
    if t not in _DTYPES:
        raise TypeError(f"{name}: dtype {t} is not supported (float16, bfloat16, float8_e4m3fn, float8_e5m2)")
    return _DTYPES[t]


def _tensor(name, t, device, dtype=None, dims=None, shape=None):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    if t.device != device:
        raise ValueError(f"{name}: on {t.device}, expected {device}")
    if dtype is not None and t.dtype != dtype:
        raise TypeError(f"{name}: dtype {t.dtype}, expected {dtype}")
    if dims is not None and t.dim() != dims:
        raise ValueError(f"{name}: {t.dim()} dimensions {tuple(t.shape)}, expected {dims}")
    if shape is not None:
        for i, (got, want) in enumerate(zip(t.shape, shape)):
            if want is not None and got != want:
                raise ValueError(f"{name}: shape {tuple(t.shape)}, dimension {i} must be {want}")
    return t


def _rows(name, t):
    """The last dimension contiguous and rows 16-byte aligned (the kernel's 16-byte copies)."""
    if t.stride(-1) != 1:
        raise ValueError(f"{name}: the last dimension must have stride 1, strides are {t.stride()}")
    es = t.element_size()
    if t.data_ptr() % 16 or any(s * es % 16 for s in t.stride()[:-1]):
        raise ValueError(f"{name}: data pointer and strides {t.stride()} x {es} bytes must be multiples of 16 bytes")
    return t


class DecodePlan:
    """A plan for one batch shape: the split-KV count, the grid and a zeroed workspace."""

    def __init__(self, batch, heads_q, heads_kv, head_dim, max_kv_len, q_dtype=torch.float16, kv_dtype=torch.float16,
                 o_dtype=torch.float16, device=None, splits=0, kv_layout=None, kv_heads_per_cta=0, q_len=1,
                 m_tiles_per_cta=0):
        self.device = torch.device(device) if device is not None else torch.device("cuda", torch.cuda.current_device())
        if self.device.type != "cuda":
            raise ValueError(f"device: {self.device} is not a CUDA device")
        if self.device.index is None:
            self.device = torch.device("cuda", torch.cuda.current_device())
        if o_dtype not in (torch.float16, torch.bfloat16):
            raise TypeError(f"o_dtype: {o_dtype}; the output is float16 or bfloat16")
        self.q_dtype, self.kv_dtype, self.o_dtype = q_dtype, kv_dtype, o_dtype
        layouts = {None: 0, "NHD": 1, "HND": 2}
        if kv_layout not in layouts:
            raise ValueError(f"kv_layout: {kv_layout!r}, expected None (any), 'NHD' (paged caches too) or 'HND'")
        shape = _Shape(batch, heads_q, heads_kv, head_dim, max_kv_len, _dtype_code("q_dtype", q_dtype),
                       _dtype_code("kv_dtype", kv_dtype), _DTYPES[o_dtype], self.device.index, splits,
                       kv_heads_per_cta, layouts[kv_layout], q_len, m_tiles_per_cta)
        self._plan = _Plan()
        _check(_library().cotile_decode_plan(ctypes.byref(shape), ctypes.byref(self._plan)), "cotile_decode_plan")
        self.batch, self.heads_q, self.heads_kv, self.head_dim = batch, heads_q, heads_kv, head_dim
        self.q_len = self._plan.shape.q_len  # query tokens a sequence: q, out [B, q_len, Hq, D] when > 1
        self.splits, self.grid, self.cluster = self._plan.splits, self._plan.grid, self._plan.cluster
        self.kv_heads_per_cta = self._plan.kv_heads_per_cta  # 2: pairs of KV heads a CTA
        self.m_tiles_per_cta = self._plan.m_tiles_per_cta  # 2, 4: 32, 64 query rows a CTA (several tokens)
        self.ctas_per_sm, self.sms, self.stagger_cycles = self._plan.ctas_per_sm, self._plan.sms, self._plan.stagger_cycles
        self.smem_bytes = self._plan.smem_bytes  # > the kernel's need: a solo launch (one CTA an SM, plan.hpp)
        self.workspace = torch.zeros(max(1, self._plan.workspace_bytes) + 256, dtype=torch.uint8, device=self.device)
        self._ws = (self.workspace.data_ptr() + 255) // 256 * 256  # 256-byte aligned
        self._lib, self._plan_ref, self._device_index = _library(), ctypes.byref(self._plan), self.device.index
        self._run, self._ws_bytes = self._lib.cotile_decode_run, self._plan.workspace_bytes
        self._checked = {}  # run()'s checked launch arguments, by the key of their inputs
        ext = _ext()
        self._cache = None if ext is None else ext.new_cache(
            self._plan, self.workspace, self._ws, self._ws_bytes, ctypes.cast(self._run, c_p).value,
            ctypes.cast(self._lib.cotile_decode_last_error, c_p).value, self._lib.cotile_decode_abi_size(0),
            self.device.index, batch, self.q_len, heads_q, head_dim, o_dtype == torch.bfloat16)
        self._fast_run = None if ext is None else ext.run

    def cache_stats(self):
        """(hits, misses, entries) of the C++ call cache, or None when run() uses ctypes alone."""
        return None if self._cache is None else _ext().stats(self._cache)

    def resident_clusters(self, size):
        """Clusters of `size` CTAs of this plan's kernel resident at once (diagnostics; 0: not possible)."""
        return _library().cotile_decode_resident_clusters(ctypes.byref(self._plan), size)

    def run(self, q, k_cache, v_cache, seqlen_kv, *, out=None, lse=None, return_lse=False, kv_layout="NHD",
            page_table=None, cache_batch_idx=None, k_new=None, v_new=None, softmax_scale=None, softcap=0.0, window=0,
            k_scale=1.0, v_scale=1.0):
        """O [B, Hq, D] (and LSE [B, Hq] fp32 when return_lse or lse is given) for one query token per sequence;
        with q_len > 1 (the plan's), q and O are [B, q_len, Hq, D], the LSE [B, q_len, Hq] and k_new,
        v_new [B, q_len, Hkv, D]: token j attends to the rows before it and to its own (the cache's
        last q_len rows, or the appended ones).

        The arguments are checked once per distinct set: a call whose tensors have the same data
        pointers, shapes, strides and dtypes and whose other arguments are equal to an earlier call's
        reuses that call's checked launch arguments (a decode step's usual case: the same buffers
        every step), so that the host cost is the few attribute reads that make the key. With
        _cotile_decode_ext, such a call is matched and launched in C++."""
        return self._run_args(q, k_cache, v_cache, seqlen_kv, out, lse, return_lse, kv_layout, page_table,
                              cache_batch_idx, k_new, v_new, softmax_scale, softcap, window, k_scale, v_scale)

    def _run_args(self, q, k_cache, v_cache, seqlen_kv, out, lse, return_lse, kv_layout, page_table, cache_batch_idx,
                  k_new, v_new, softmax_scale, softcap, window, k_scale, v_scale):
        """run() with every argument in order (python/cotile_ops.py calls it so)."""
        if self._cache is not None:
            hit = self._fast_run(self._cache, q, k_cache, v_cache, seqlen_kv, out, lse, return_lse, kv_layout,
                                 page_table, cache_batch_idx, k_new, v_new, softmax_scale, softcap, window, k_scale,
                                 v_scale)
            if hit is not NotImplemented:
                return hit
        key = (_sig(q), _sig(k_cache), _sig(v_cache), _sig(seqlen_kv), _sig(out), _sig(lse), return_lse, kv_layout,
               _sig(page_table), _sig(cache_batch_idx), _sig(k_new), _sig(v_new), softmax_scale, softcap, window,
               _sig(k_scale) if isinstance(k_scale, torch.Tensor) else k_scale,
               _sig(v_scale) if isinstance(v_scale, torch.Tensor) else v_scale)
        try:
            hit = self._checked.get(key)
        except TypeError:  # an unhashable argument: checked (and refused or used) without the cache
            hit, key = None, None
        if hit is None:
            a, o_shape, lse_shape = self._check(q, k_cache, v_cache, seqlen_kv, out, lse, return_lse, kv_layout, page_table,
                                                cache_batch_idx, k_new, v_new, softmax_scale, softcap, window, k_scale,
                                                v_scale)
            # the launch's arguments as ctypes will pass them, built once per checked set
            hit = (a, ctypes.byref(a), o_shape, lse_shape)
            if key is not None:
                if len(self._checked) >= 64:
                    self._checked.pop(next(iter(self._checked)))
                self._checked[key] = hit
        a, a_ref, o_shape, lse_shape = hit
        if self._cache is not None:  # checked now or before: the next such call launches from C++
            _ext().insert(self._cache, bytes(a), o_shape is not None, lse_shape is not None,
                          bool(return_lse or lse is not None), q, k_cache, v_cache, seqlen_kv, out, lse, return_lse,
                          kv_layout, page_table, cache_batch_idx, k_new, v_new, softmax_scale, softcap, window,
                          k_scale, v_scale)
        if o_shape is not None:  # a fresh output each call; its pointer goes into the checked arguments
            out = torch.empty(o_shape, dtype=self.o_dtype, device=self.device)
            a.o = out.data_ptr()
        if lse_shape is not None:
            lse = torch.empty(lse_shape, dtype=torch.float32, device=self.device)
            a.lse = lse.data_ptr()
        status = self._run(self._plan_ref, a_ref, self._ws, self._ws_bytes, _raw_stream(self._device_index))
        if status:
            _check(status, "cotile_decode_run")
        return (out, lse) if (return_lse or lse is not None) else out

    def _check(self, q, k_cache, v_cache, seqlen_kv, out, lse, return_lse, kv_layout, page_table, cache_batch_idx, k_new,
               v_new, softmax_scale, softcap, window, k_scale, v_scale):
        """Every argument checked; the launch arguments, the output's shape when `out` is None, and
        the LSE's shape when one is allocated per call."""
        B, Hq, Hkv, D, T, dev = self.batch, self.heads_q, self.heads_kv, self.head_dim, self.q_len, self.device
        # Several tokens: [B, T, ...], the token dimension second (tok: its size; ts: a tensor's stride there)
        tok = (T,) if T > 1 else ()

        def ts(x):
            return x.stride(1) if T > 1 else 0

        _rows("q", _tensor("q", q, dev, self.q_dtype, 3 + len(tok), (B, *tok, Hq, D)))
        a = _Args()
        a.q, a.q_stride_b, a.q_stride_h, a.q_stride_t = q.data_ptr(), q.stride(0), q.stride(-2), ts(q)
        for name, c in (("k_cache", k_cache), ("v_cache", v_cache)):
            _rows(name, _tensor(name, c, dev, self.kv_dtype, 4))
            if c.shape[-1] != D:
                raise ValueError(f"{name}: shape {tuple(c.shape)}, the last dimension must be head_dim = {D}")
        if k_cache.shape != v_cache.shape:
            raise ValueError(f"v_cache: shape {tuple(v_cache.shape)} differs from k_cache {tuple(k_cache.shape)}")
        if page_table is not None:
            pages, page_size = k_cache.shape[0], k_cache.shape[1]
            _tensor("k_cache", k_cache, dev, shape=(None, None, Hkv, D))
            _tensor("page_table", page_table, dev, torch.int32, 2, (B, None))
            if page_table.stride(1) != 1:
                raise ValueError(f"page_table: rows must be contiguous, strides are {page_table.stride()}")
            if page_size & (page_size - 1):
                raise ValueError(f"k_cache: page size {page_size} (dimension 1) must be a power of two")
            n_axis, h_axis = 1, 2
            a.page_table, a.page_table_stride, a.page_size = page_table.data_ptr(), page_table.stride(0), page_size
            a.page_table_len = page_table.shape[1]  # its rows' entries: the kernel may read them before its wait
        else:
            if kv_layout not in ("NHD", "HND"):
                raise ValueError(f"kv_layout: {kv_layout!r}, expected 'NHD' ([B, N, Hkv, D]) or 'HND' ([B, Hkv, N, D])")
            n_axis, h_axis = (1, 2) if kv_layout == "NHD" else (2, 1)
            if k_cache.shape[h_axis] != Hkv:
                raise ValueError(f"k_cache: shape {tuple(k_cache.shape)}, dimension {h_axis} ({kv_layout}) must be heads_kv = {Hkv}")
            if cache_batch_idx is None and k_cache.shape[0] < B:
                raise ValueError(f"k_cache: {k_cache.shape[0]} sequences, fewer than batch = {B}")
        a.k, a.k_stride_b, a.k_stride_n, a.k_stride_h = k_cache.data_ptr(), k_cache.stride(0), k_cache.stride(n_axis), k_cache.stride(h_axis)
        a.v, a.v_stride_b, a.v_stride_n, a.v_stride_h = v_cache.data_ptr(), v_cache.stride(0), v_cache.stride(n_axis), v_cache.stride(h_axis)
        _tensor("seqlen_kv", seqlen_kv, dev, torch.int32, 1, (B,))
        if not seqlen_kv.is_contiguous():
            raise ValueError("seqlen_kv: must be contiguous")
        a.seqlen_kv = seqlen_kv.data_ptr()
        if cache_batch_idx is not None:
            _tensor("cache_batch_idx", cache_batch_idx, dev, torch.int32, 1, (B,))
            if not cache_batch_idx.is_contiguous():
                raise ValueError("cache_batch_idx: must be contiguous")
            a.cache_batch_idx = cache_batch_idx.data_ptr()
        if (k_new is None) != (v_new is None):
            raise ValueError("k_new, v_new: give both (append) or neither")
        if k_new is not None:
            for name, x in (("k_new", k_new), ("v_new", v_new)):
                _rows(name, _tensor(name, x, dev, self.kv_dtype, 3 + len(tok), (B, *tok, Hkv, D)))
            a.k_new, a.k_new_stride_b, a.k_new_stride_h = k_new.data_ptr(), k_new.stride(0), k_new.stride(-2)
            a.v_new, a.v_new_stride_b, a.v_new_stride_h = v_new.data_ptr(), v_new.stride(0), v_new.stride(-2)
            a.k_new_stride_t, a.v_new_stride_t = ts(k_new), ts(v_new)
        a.softmax_scale = 1.0 / math.sqrt(D) if softmax_scale is None else float(softmax_scale)
        a.softcap, a.window = float(softcap), int(window)
        for name, s in (("k_scale", k_scale), ("v_scale", v_scale)):
            if isinstance(s, torch.Tensor):
                _tensor(name, s, dev, torch.float32, 1, (Hkv,))
                if not s.is_contiguous():
                    raise ValueError(f"{name}: must be contiguous")
                setattr(a, name, 1.0)
                setattr(a, name + "_per_head", s.data_ptr())
            else:
                setattr(a, name, float(s))
        o_shape = None
        if out is None:  # allocated per call (contiguous): run() fills in its pointer
            o_shape = (B, *tok, Hq, D)
            a.o_stride_b, a.o_stride_h, a.o_stride_t = T * Hq * D, D, Hq * D
        else:
            _rows("out", _tensor("out", out, dev, self.o_dtype, 3 + len(tok), (B, *tok, Hq, D)))
            a.o, a.o_stride_b, a.o_stride_h, a.o_stride_t = out.data_ptr(), out.stride(0), out.stride(-2), ts(out)
        lse_shape = None
        if lse is None and return_lse:
            lse_shape = (B, *tok, Hq)
        if lse is not None:
            _tensor("lse", lse, dev, torch.float32, 2 + len(tok), (B, *tok, Hq))
            if not lse.is_contiguous():
                raise ValueError("lse: must be contiguous")
            a.lse = lse.data_ptr()
        return a, o_shape, lse_shape


def _sig(t):
    """What a tensor argument's checks depend on (None for None): its data pointer (unique across
    devices: unified addressing), shape, strides and dtype."""
    return None if t is None else (t.data_ptr(), t.shape, t.stride(), t.dtype)


try:  # the current stream's handle without building a torch.cuda.Stream object (~1 us less a call)
    _raw_stream = torch._C._cuda_getCurrentRawStream
except AttributeError:  # pragma: no cover
    def _raw_stream(index):
        return torch.cuda.current_stream(index).cuda_stream


def bandwidth_probe(nbytes=4 << 30, repeats=10, device=None):
    """Streaming-read bandwidth (bytes/s) of 16-byte loads over nbytes of device memory."""
    buf = torch.randint(0, 256, (nbytes,), dtype=torch.uint8, device=device or "cuda")
    ms = c_f32()
    _check(_library().cotile_bandwidth_probe(buf.data_ptr(), nbytes, repeats, ctypes.byref(ms),
                                             torch.cuda.current_stream().cuda_stream), "cotile_bandwidth_probe")
    return nbytes / (ms.value * 1e-3)


def stream_read(buf):
    """Launches one pass of the probe's read over the CUDA tensor `buf` (its bytes, a multiple of 16)
    on the current stream, without waiting: capturable, for timing a read of a problem's size."""
    if not isinstance(buf, torch.Tensor) or not buf.is_cuda or not buf.is_contiguous():
        raise ValueError("buf: must be a contiguous CUDA tensor")
    nbytes = buf.numel() * buf.element_size()
    if nbytes == 0 or nbytes % 16:
        raise ValueError(f"buf: {nbytes} bytes, must be a positive multiple of 16")
    _check(_library().cotile_stream_read(buf.data_ptr(), nbytes, torch.cuda.current_stream(buf.device).cuda_stream),
           "cotile_stream_read")
