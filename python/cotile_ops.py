"""torch.ops.cotile.decode: the decode kernel as a PyTorch operator (torch.library), so that
torch.compile(fullgraph=True) traces a function that calls it without a graph break and CUDA graphs
capture it.

    plan = cotile_decode.DecodePlan(batch, heads_q, heads_kv, head_dim, max_kv_len, ...)  # outside
    handle = cotile_ops.register(plan, kv_layout="HND")  # an int naming the plan and its options
    out = torch.ops.cotile.decode(q, k_cache, v_cache, seqlen_kv, handle)
    out, lse = torch.ops.cotile.decode_lse(q, k_cache, v_cache, seqlen_kv, handle, page_table)
    torch.ops.cotile.decode_into(out, lse, q, k_cache, v_cache, seqlen_kv, handle)  # lse may be None

The plan is made outside the traced code and run inside: the operator's argument `plan` is the
handle, a constant of the traced graph. The call's scalar options (kv_layout, softmax_scale,
softcap, window, k_scale, v_scale: those of DecodePlan.run) are the handle's, given to register();
a model whose layers differ in them registers one handle for each kind of layer. The tensors a call
reads are its arguments, so that a traced graph sees them: page_table, cache_batch_idx, and the
per-head fp32 scales k_scale_h and v_scale_h (a handle's float scale or a per-head one, not both).
PyTorch parses each argument on every call (0.15 us on a device machine's host given positionally
or left to its default, ~0.5 us by keyword, a string more), so the schema holds only these.

The workspace belongs to the plan; the kernel leaves it as it found it (its counters back at 0), so
the operator declares no mutation of it, and calls on one plan must run in one stream's order (as
every call of DecodePlan.run). The caches are only read: the operator has no k_new / v_new
(appending writes the caches; DecodePlan.run does it). decode_into writes O (and the LSE) into
tensors the caller keeps, as DecodePlan.run's out= and lse=: no allocation a call (about 2 us of
host time). Every argument is checked as DecodePlan.run checks it.
"""
import collections
import itertools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cotile_decode  # noqa: E402

_plans = {}  # handle -> (DecodePlan, _Options)
_handles = itertools.count(1)
_ext = cotile_decode._ext()  # python/decode_ext where built: the operator's kernel in C++ (below)


# A handle's scalar options, normalized as the call cache keys them (floats as float, the window as
# int), in the order set_op_handle parses them.
_Options = collections.namedtuple("_Options", "kv_layout softmax_scale softcap window k_scale v_scale")


def _number(name, value, kind):
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
        raise TypeError(f"{name}: {type(value).__name__}, expected {'a float' if kind is float else 'an int'}"
                        + (f" (a per-head tensor is the call's {name}_h)" if name in ("k_scale", "v_scale") else ""))
    return kind(value)


def register(plan, *, kv_layout="NHD", softmax_scale=None, softcap=0.0, window=0, k_scale=1.0, v_scale=1.0):
    """The handle that names `plan` and these options (DecodePlan.run's) in torch.ops.cotile calls;
    the plan lives until release()."""
    if not isinstance(plan, cotile_decode.DecodePlan):
        raise TypeError(f"plan: {type(plan).__name__}, expected cotile_decode.DecodePlan")
    if kv_layout not in ("NHD", "HND"):
        raise ValueError(f"kv_layout: {kv_layout!r}, expected 'NHD' ([B, N, Hkv, D], paged caches too) or 'HND'")
    opts = _Options(kv_layout, None if softmax_scale is None else _number("softmax_scale", softmax_scale, float),
                    _number("softcap", softcap, float), _number("window", window, int),
                    _number("k_scale", k_scale, float), _number("v_scale", v_scale, float))
    handle = next(_handles)
    _plans[handle] = (plan, opts)
    if _cpp_kernel and plan._cache is not None:
        _ext.set_op_handle(handle, plan._cache, opts)
    return handle


def release(handle):
    """Forget the plan of `handle` (later calls naming it raise)."""
    if _cpp_kernel:
        _ext.set_op_handle(handle, None, None)
    _plans.pop(handle, None)


def _plan(handle):
    entry = _plans.get(handle)
    if entry is None:
        raise ValueError(f"plan: handle {handle} names no registered plan (cotile_ops.register)")
    return entry


_ARGS = ("Tensor q, Tensor k_cache, Tensor v_cache, Tensor seqlen_kv, int plan, Tensor? page_table=None, "
         "Tensor? cache_batch_idx=None, Tensor? k_scale_h=None, Tensor? v_scale_h=None")

_lib = torch.library.Library("cotile", "DEF")
_lib.define("decode(" + _ARGS + ") -> Tensor")
_lib.define("decode_lse(" + _ARGS + ") -> (Tensor, Tensor)")
_lib.define("decode_into(Tensor(a!) out, Tensor(b!)? lse, " + _ARGS + ") -> ()")


def _scale(name, value, per_head):
    if per_head is None:
        return value
    if value != 1.0:
        raise ValueError(f"{name}_h: the handle's {name} is {value}; give a per-head scale or a float one "
                         "(register), not both")
    return per_head


def _run(out, lse, return_lse, q, k_cache, v_cache, seqlen_kv, plan, page_table=None, cache_batch_idx=None,
         k_scale_h=None, v_scale_h=None):
    """DecodePlan.run of the handle's plan with the handle's options: what every call does (the C++
    kernel calls it for a call its cache has not seen)."""
    p, o = _plan(plan)
    k_scale, v_scale = _scale("k_scale", o.k_scale, k_scale_h), _scale("v_scale", o.v_scale, v_scale_h)
    return p._run_args(q, k_cache, v_cache, seqlen_kv, out, lse, return_lse, o.kv_layout, page_table, cache_batch_idx,
                       None, None, o.softmax_scale, o.softcap, o.window, k_scale, v_scale)


def _decode(*args):
    return _run(None, None, False, *args)


def _decode_lse(*args):
    return _run(None, None, True, *args)


def _decode_into(out, lse, *args):
    _run(out, lse, False, *args)


# The CUDA kernel: python/decode_ext's where built (a call checked before is matched and launched
# without Python: ~3x less host time than a Python kernel), _run's otherwise.
def _python_path(*args):
    """The C++ kernels' path for a call their cache has not seen: _run (looked up per call)."""
    return _run(*args)


_cpp_kernel = _ext is not None and hasattr(_ext, "register_op_kernels")
if _cpp_kernel:
    _ext.register_op_kernels(_python_path)
else:
    _lib.impl("decode", _decode, "CUDA")
    _lib.impl("decode_lse", _decode_lse, "CUDA")
    _lib.impl("decode_into", _decode_into, "CUDA")


def _out_meta(q, plan):
    """O's and the LSE's empty tensors, as the plan makes them."""
    p = _plan(plan)[0]
    tokens = (p.q_len,) if p.q_len > 1 else ()
    if q.dim() != 3 + len(tokens):
        raise ValueError(f"q: {q.dim()} dimensions, expected [batch, {'q_len, ' if tokens else ''}heads_q, head_dim]")
    return (q.new_empty((q.shape[0], *tokens, p.heads_q, p.head_dim), dtype=p.o_dtype),
            q.new_empty((q.shape[0], *tokens, p.heads_q), dtype=torch.float32))


@torch.library.register_fake("cotile::decode", lib=_lib)
def _decode_fake(q, k_cache, v_cache, seqlen_kv, plan, *args):
    return _out_meta(q, plan)[0]


@torch.library.register_fake("cotile::decode_lse", lib=_lib)
def _decode_lse_fake(q, k_cache, v_cache, seqlen_kv, plan, *args):
    return _out_meta(q, plan)


@torch.library.register_fake("cotile::decode_into", lib=_lib)
def _decode_into_fake(out, lse, q, k_cache, v_cache, seqlen_kv, plan, *args):
    want_o, want_lse = _out_meta(q, plan)
    for name, t, want in (("out", out, want_o), ("lse", lse, want_lse)):
        if t is not None and (t.shape != want.shape or t.dtype != want.dtype):
            raise ValueError(f"{name}: {tuple(t.shape)} {t.dtype}, expected {tuple(want.shape)} {want.dtype}")
