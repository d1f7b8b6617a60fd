// _cotile_decode_ext: the hot path of cotile_decode.DecodePlan.run in C++, so that a decode step's
// call costs a few microseconds of host time instead of the ctypes path's ~15.
//
// The checks stay in Python (python/cotile_decode.py, one source of truth). This module keeps, per
// plan, the launch arguments Python checked, by the key of the call that produced them; a call whose
// key matches one of them is launched from here: the tensors read through ATen (pointer, sizes,
// strides, dtype: what the checks depend on), the outputs allocated by the caching allocator, the C
// ABI's cotile_decode_run called through the pointer the Python module's ctypes library gives (the
// same library the plan came from). Any other call returns NotImplemented, and Python checks it and
// inserts its arguments.
//
// A key is exact or absent: tensors by data pointer, dtype, sizes and strides; None, bool, int,
// float (by bits) and short str by value. An argument of any other type, or a tensor of more than
// kMaxDims dimensions, makes the call uncacheable (Python checks it every time).
#include <Python.h>

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/python_variable.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>

#include "decode.h"

namespace {

constexpr int kArgs = 17;  // run()'s arguments, in cotile_decode.py's order (see kSlotNames)
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

struct Entry {
  Key key;
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
  int64_t batch, heads_q, head_dim;
  at::ScalarType o_dtype;
  std::deque<Entry> entries;  // oldest first
  uint64_t hits = 0, misses = 0;
};

constexpr const char* kCapsule = "cotile_decode_call_cache";

// The key slot of one argument; false: not cacheable.
bool slot_of(PyObject* o, Slot& s) {
  std::memset(&s, 0, sizeof s);
  if (o == Py_None) return true;
  if (THPVariable_Check(o)) {
    const at::Tensor& t = THPVariable_Unpack(o);
    if (t.dim() > kMaxDims) return false;
    s.tag = 1;
    s.value = int64_t(reinterpret_cast<intptr_t>(t.data_ptr()));
    s.dtype = int64_t(t.scalar_type());
    s.dims = t.dim();
    for (int64_t i = 0; i < s.dims; ++i) s.sizes[size_t(i)] = t.size(i), s.strides[size_t(i)] = t.stride(i);
    s.device = int64_t(t.device().type()) << 16 | int64_t(uint8_t(t.device().index()));
    return true;
  }
  if (PyBool_Check(o)) return s.tag = 2, s.value = (o == Py_True), true;
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) return PyErr_Clear(), false;
    return s.tag = 3, s.value = v, true;
  }
  if (PyFloat_CheckExact(o)) {
    const double d = PyFloat_AS_DOUBLE(o);
    s.tag = 4;
    std::memcpy(&s.value, &d, sizeof d);
    return true;
  }
  if (PyUnicode_CheckExact(o)) {
    Py_ssize_t n = 0;
    const char* u = PyUnicode_AsUTF8AndSize(o, &n);
    if (!u || n > 8) return PyErr_Clear(), false;
    s.tag = 5, s.value = n;
    std::memcpy(&s.sizes[0], u, size_t(n));
    return true;
  }
  return false;
}

bool key_of(PyObject* const* args, Key& key) {
  try {
    for (int i = 0; i < kArgs; ++i)
      if (!slot_of(args[i], key[size_t(i)])) return false;
    return true;
  } catch (const std::exception&) {  // e.g. a tensor without storage: Python's checks say what is wrong
    return false;
  }
}

Cache* cache_of(PyObject* capsule) { return static_cast<Cache*>(PyCapsule_GetPointer(capsule, kCapsule)); }

void destroy(PyObject* capsule) {
  Cache* c = cache_of(capsule);
  if (!c) return;
  PyBuffer_Release(&c->plan_view);
  Py_XDECREF(c->workspace);
  delete c;
}

// new_cache(plan, workspace, ws_address, ws_bytes, run_fn, last_error_fn, args_size, device, batch,
//           heads_q, head_dim, o_is_bf16) -> capsule
PyObject* new_cache(PyObject*, PyObject* a) {
  PyObject *plan, *workspace;
  unsigned long long ws, ws_bytes, run, err, args_size;
  int device, o_bf16;
  long long batch, heads_q, head_dim;
  if (!PyArg_ParseTuple(a, "OOKKKKKiLLLp", &plan, &workspace, &ws, &ws_bytes, &run, &err, &args_size, &device, &batch,
                        &heads_q, &head_dim, &o_bf16))
    return nullptr;
  if (args_size != sizeof(cotile_decode_args_t)) {
    PyErr_Format(PyExc_RuntimeError,
                 "_cotile_decode_ext: the library's arguments are %llu bytes, this module's %zu "
                 "(rebuild both)",
                 args_size, sizeof(cotile_decode_args_t));
    return nullptr;
  }
  auto* c = new Cache{};
  if (PyObject_GetBuffer(plan, &c->plan_view, PyBUF_SIMPLE) != 0) return delete c, nullptr;
  if (size_t(c->plan_view.len) != sizeof(cotile_decode_plan_t)) {
    PyBuffer_Release(&c->plan_view);
    delete c;
    PyErr_SetString(PyExc_RuntimeError, "_cotile_decode_ext: the plan is not a cotile_decode_plan_t");
    return nullptr;
  }
  Py_INCREF(workspace);
  c->workspace = workspace;
  c->ws = reinterpret_cast<void*>(uintptr_t(ws));
  c->ws_bytes = ws_bytes;
  c->run = reinterpret_cast<RunFn>(uintptr_t(run));
  c->last_error = reinterpret_cast<ErrorFn>(uintptr_t(err));
  c->device = device;
  c->batch = batch, c->heads_q = heads_q, c->head_dim = head_dim;
  c->o_dtype = o_bf16 ? at::kBFloat16 : at::kHalf;
  PyObject* capsule = PyCapsule_New(c, kCapsule, destroy);
  if (!capsule) {
    PyBuffer_Release(&c->plan_view);
    Py_DECREF(workspace);
    delete c;
  }
  return capsule;
}

// run(cache, *17 arguments) -> out | (out, lse) | NotImplemented (not checked yet)
PyObject* run(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != kArgs + 1) return PyErr_Format(PyExc_TypeError, "run: %d arguments expected", kArgs + 1), nullptr;
  Cache* c = cache_of(args[0]);
  if (!c) return nullptr;
  Key key;
  const Entry* hit = nullptr;
  if (key_of(args + 1, key))
    for (const Entry& e : c->entries)
      if (std::memcmp(&e.key, &key, sizeof key) == 0) {
        hit = &e;
        break;
      }
  if (!hit) return ++c->misses, Py_NewRef(Py_NotImplemented);
  ++c->hits;
  cotile_decode_args_t a = hit->args;
  PyObject* out = args[1 + 4];
  PyObject* lse = args[1 + 5];
  PyObject *new_out = nullptr, *new_lse = nullptr;
  try {
    const auto on = at::TensorOptions().device(at::kCUDA, c->device);
    if (hit->alloc_out) {
      at::Tensor o = at::empty({c->batch, c->heads_q, c->head_dim}, on.dtype(c->o_dtype));
      a.o = o.data_ptr();
      new_out = THPVariable_Wrap(std::move(o));
    }
    if (hit->alloc_lse) {
      at::Tensor l = at::empty({c->batch, c->heads_q}, on.dtype(at::kFloat));
      a.lse = l.data_ptr<float>();
      new_lse = THPVariable_Wrap(std::move(l));
    }
  } catch (const std::exception& e) {
    Py_XDECREF(new_out);
    Py_XDECREF(new_lse);
    return PyErr_Format(PyExc_RuntimeError, "cotile_decode: output allocation failed: %s", e.what()), nullptr;
  }
  if ((hit->alloc_out && !new_out) || (hit->alloc_lse && !new_lse))
    return Py_XDECREF(new_out), Py_XDECREF(new_lse), nullptr;
  void* stream = c10::cuda::getCurrentCUDAStream(c10::DeviceIndex(c->device)).stream();
  const auto* plan = static_cast<const cotile_decode_plan_t*>(c->plan_view.buf);
  if (const cotile_status st = c->run(plan, &a, c->ws, c->ws_bytes, stream); st != COTILE_OK) {
    Py_XDECREF(new_out);
    Py_XDECREF(new_lse);
    return PyErr_Format(PyExc_RuntimeError, "cotile_decode_run: %s", c->last_error()), nullptr;
  }
  if (!new_out) new_out = Py_NewRef(out);
  if (!hit->pair) return Py_XDECREF(new_lse), new_out;
  if (!new_lse) new_lse = Py_NewRef(lse);
  PyObject* pair = PyTuple_Pack(2, new_out, new_lse);
  Py_DECREF(new_out);
  Py_DECREF(new_lse);
  return pair;
}

// insert(cache, args_bytes, alloc_out, alloc_lse, pair, *17 arguments): the checked launch
// arguments of a call Python has just checked (a no-op when the call is not cacheable).
PyObject* insert(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != kArgs + 5) return PyErr_Format(PyExc_TypeError, "insert: %d arguments expected", kArgs + 5), nullptr;
  Cache* c = cache_of(args[0]);
  if (!c) return nullptr;
  Entry e{};
  if (!key_of(args + 5, e.key)) Py_RETURN_NONE;
  Py_buffer view;
  if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) != 0) return nullptr;
  const bool sized = size_t(view.len) == sizeof e.args;
  if (sized) std::memcpy(&e.args, view.buf, sizeof e.args);
  PyBuffer_Release(&view);
  if (!sized) return PyErr_SetString(PyExc_RuntimeError, "insert: not a cotile_decode_args_t"), nullptr;
  e.alloc_out = PyObject_IsTrue(args[2]) == 1;
  e.alloc_lse = PyObject_IsTrue(args[3]) == 1;
  e.pair = PyObject_IsTrue(args[4]) == 1;
  if (c->entries.size() >= kMaxEntries) c->entries.pop_front();
  c->entries.push_back(e);
  Py_RETURN_NONE;
}

// stats(cache) -> (hits, misses, entries)
PyObject* stats(PyObject*, PyObject* capsule) {
  Cache* c = cache_of(capsule);
  if (!c) return nullptr;
  return Py_BuildValue("KKn", (unsigned long long)c->hits, (unsigned long long)c->misses,
                       Py_ssize_t(c->entries.size()));
}

PyMethodDef kMethods[] = {{"new_cache", new_cache, METH_VARARGS, "the call cache of one DecodePlan"},
                          {"run", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(run)), METH_FASTCALL,
                           "launch a call checked before; NotImplemented otherwise"},
                          {"insert", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(insert)), METH_FASTCALL,
                           "remember a checked call's launch arguments"},
                          {"stats", stats, METH_O, "(hits, misses, entries)"},
                          {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT,
                       "_cotile_decode_ext",
                       "cotile_decode's call cache",
                       -1,
                       kMethods,
                       nullptr,
                       nullptr,
                       nullptr,
                       nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__cotile_decode_ext() { return PyModule_Create(&kModule); }
