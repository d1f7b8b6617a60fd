"""torch.ops.cotile.decode: the decode kernel as a PyTorch operator (torch.library), so that
torch.compile(fullgraph=True) traces a function that calls it without a graph break and CUDA graphs
capture it.

    plan = cotile_decode.DecodePlan(batch, heads_q, heads_kv, head_dim, max_kv_len, ...)  # outside
    handle = cotile_ops.register(plan)       # an int that names the plan in the operator's calls
    out = torch.ops.cotile.decode(q, k_cache, v_cache, seqlen_kv, handle, "NHD")
    out, lse = torch.ops.cotile.decode_lse(q, k_cache, v_cache, seqlen_kv, handle, "HND")

The plan is made outside the traced code and run inside: the operator's argument `plan` is the
handle, a constant of the traced graph. The workspace belongs to the plan; the kernel leaves it as
it found it (its counters back at 0), so the operator declares no mutation, and calls on one plan
must run in one stream's order (as every call of DecodePlan.run). The caches are only read: the
operator has no k_new / v_new (appending writes the caches; DecodePlan.run does it).

Arguments after `plan` are those of DecodePlan.run: kv_layout, page_table, cache_batch_idx,
softmax_scale, softcap, window, k_scale and v_scale (floats), k_scale_h and v_scale_h (per-head fp32
scales; give a float or a tensor, not both). Every argument is checked as DecodePlan.run checks it.
"""
import itertools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cotile_decode  # noqa: E402

_plans = {}  # handle -> DecodePlan
_handles = itertools.count(1)
_ext = cotile_decode._ext()  # python/decode_ext where built: the operator's kernel in C++ (below)


def register(plan):
    """The handle that names `plan` in torch.ops.cotile calls; the plan lives until release()."""
    if not isinstance(plan, cotile_decode.DecodePlan):
        raise TypeError(f"plan: {type(plan).__name__}, expected cotile_decode.DecodePlan")
    handle = next(_handles)
    _plans[handle] = plan
    if _cpp_kernel and plan._cache is not None:
        _ext.set_op_handle(handle, plan._cache)
    return handle


def release(handle):
    """Forget the plan of `handle` (later calls naming it raise)."""
    if _cpp_kernel:
        _ext.set_op_handle(handle, None)
    _plans.pop(handle, None)


def _plan(handle):
    plan = _plans.get(handle)
    if plan is None:
        raise ValueError(f"plan: handle {handle} names no registered plan (cotile_ops.register)")
    return plan


_ARGS = ("Tensor q, Tensor k_cache, Tensor v_cache, Tensor seqlen_kv, int plan, str kv_layout=\"NHD\", "
         "Tensor? page_table=None, Tensor? cache_batch_idx=None, float? softmax_scale=None, float softcap=0.0, "
         "int window=0, float k_scale=1.0, float v_scale=1.0, Tensor? k_scale_h=None, Tensor? v_scale_h=None")

_lib = torch.library.Library("cotile", "DEF")
_lib.define("decode(" + _ARGS + ") -> Tensor")
_lib.define("decode_lse(" + _ARGS + ") -> (Tensor, Tensor)")


def _scale(name, value, per_head):
    if per_head is None:
        return value
    if value != 1.0:
        raise ValueError(f"{name}: give {name} (a float) or {name}_h (per head), not both")
    return per_head


def _decode(q, k_cache, v_cache, seqlen_kv, plan, kv_layout="NHD", page_table=None, cache_batch_idx=None,
            softmax_scale=None, softcap=0.0, window=0, k_scale=1.0, v_scale=1.0, k_scale_h=None, v_scale_h=None,
            return_lse=False):
    p = _plan(plan)
    k_scale, v_scale = _scale("k_scale", k_scale, k_scale_h), _scale("v_scale", v_scale, v_scale_h)
    return p._run_args(q, k_cache, v_cache, seqlen_kv, None, None, return_lse, kv_layout, page_table, cache_batch_idx,
                       None, None, softmax_scale, softcap, window, k_scale, v_scale)


def _decode_lse(*args, **kwargs):
    return _decode(*args, **kwargs, return_lse=True)


def _python_path(return_lse, *args):
    """The C++ kernel's path for a call its cache has not seen: checked, run and cached here."""
    return _decode(*args, return_lse=return_lse)


# The CUDA kernel: python/decode_ext's where built (a call checked before is matched and launched
# without Python: ~3x less host time than a Python kernel), _decode otherwise.
_cpp_kernel = _ext is not None and hasattr(_ext, "register_op_kernels")
if _cpp_kernel:
    _ext.register_op_kernels(_python_path)
else:
    _lib.impl("decode", _decode, "CUDA")
    _lib.impl("decode_lse", _decode_lse, "CUDA")


def _out_meta(q, plan):
    """O's and the LSE's empty tensors, as the plan makes them."""
    p = _plan(plan)
    tokens = (p.q_len,) if p.q_len > 1 else ()
    if q.dim() != 3 + len(tokens):
        raise ValueError(f"q: {q.dim()} dimensions, expected [batch, {'q_len, ' if tokens else ''}heads_q, head_dim]")
    return (q.new_empty((q.shape[0], *tokens, p.heads_q, p.head_dim), dtype=p.o_dtype),
            q.new_empty((q.shape[0], *tokens, p.heads_q), dtype=torch.float32))


@torch.library.register_fake("cotile::decode", lib=_lib)
def _decode_fake(q, k_cache, v_cache, seqlen_kv, plan, *args, **kwargs):
    return _out_meta(q, plan)[0]


@torch.library.register_fake("cotile::decode_lse", lib=_lib)
def _decode_lse_fake(q, k_cache, v_cache, seqlen_kv, plan, *args, **kwargs):
    return _out_meta(q, plan)
