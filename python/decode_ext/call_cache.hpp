// The call cache of one DecodePlan (python/decode_ext): the launch arguments of calls Python has
// checked, by the exact key of the call that produced them. Shared by the Python module's run()
// (call_cache.cpp, arguments as Python objects) and torch.ops.cotile.decode's C++ kernel
// (op_kernel.cpp, arguments as ATen values): both make the same key from the same values.
#pragma once

#define PY_SSIZE_T_CLEAN  // Py_ssize_t lengths in Py_BuildValue's "s#"
#include <Python.h>

#include <ATen/ATen.h>

#include <array>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

#include "decode.h"

namespace cotile_ext {

// run()'s arguments, in cotile_decode.py's order: q, k_cache, v_cache, seqlen_kv, out, lse,
// return_lse, kv_layout, page_table, cache_batch_idx, k_new, v_new, softmax_scale, softcap, window,
// k_scale, v_scale.
constexpr int kArgs = 17;
constexpr int kMaxDims = 6;
constexpr size_t kMaxEntries = 64;

// One argument of a call, as the key compares it (memcmp: every byte is set).
struct Slot {
  int64_t tag;    // 0 None, 1 tensor, 2 bool, 3 int, 4 float, 5 str
  int64_t value;  // tensor: data pointer; bool/int: value; float: bits; str: length
  int64_t dtype, dims, device;
  std::array<int64_t, kMaxDims> sizes, strides;  // str: up to 8 bytes of UTF-8 in sizes[0]
};
using Key = std::array<Slot, kArgs>;

// The slots of each kind of value; false: not cacheable (the call is checked in Python).
inline Slot none_slot() { return Slot{}; }
bool tensor_slot(const at::Tensor& t, Slot& s);
Slot bool_slot(bool b);
Slot int_slot(int64_t v);
Slot float_slot(double d);
bool str_slot(std::string_view u, Slot& s);

// A checked call's launch: the C ABI's arguments and what to allocate per call.
struct Launch {
  cotile_decode_args_t args;
  bool alloc_out, alloc_lse, pair;  // allocate O / the LSE per call; return (out, lse)
};

using RunFn = cotile_status (*)(const cotile_decode_plan_t*, const cotile_decode_args_t*, void*, uint64_t, void*);
using ErrorFn = const char* (*)();

struct Cache {
  Py_buffer plan_view;  // the ctypes plan structure (the view keeps it alive)
  PyObject* workspace;  // the workspace tensor, kept alive
  void* ws;
  uint64_t ws_bytes;
  RunFn run;
  ErrorFn last_error;
  int device;
  int64_t batch, q_len, heads_q, head_dim;  // O [B, Hq, D] (q_len 1) or [B, q_len, Hq, D]
  at::ScalarType o_dtype;
  std::mutex mutex;                            // entries and counts: the operator's kernel runs without the GIL
  std::deque<std::pair<Key, Launch>> entries;  // oldest first
  uint64_t hits = 0, misses = 0;
};

// The launch of the call of `key` into `hit`, counted as a hit or a miss.
bool find(Cache& c, const Key& key, Launch& hit);

// Runs a found launch on the current stream: O and the LSE allocated where the launch says
// (returned in out / lse; left undefined otherwise). An empty string, or what failed.
std::string launch(Cache& c, Launch& hit, at::Tensor& out, at::Tensor& lse);

// torch.ops.cotile's C++ kernels (op_kernel.cpp), as module functions: register_op_kernels(fallback)
// and set_op_handle(handle, cache capsule, options) or (handle, None, None).
PyObject* register_op_kernels(PyObject*, PyObject* fallback);
PyObject* set_op_handle(PyObject*, PyObject* const* args, Py_ssize_t nargs);

Cache* cache_of(PyObject* capsule);

}  // namespace cotile_ext
