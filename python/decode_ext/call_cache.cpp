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
#include "call_cache.hpp"

#include <ATen/cuda/EmptyTensor.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/python_variable.h>

#include <cstring>

namespace cotile_ext {

bool tensor_slot(const at::Tensor& t, Slot& s) {
  s = Slot{};
  if (t.dim() > kMaxDims) return false;
  s.tag = 1;
  s.value = int64_t(reinterpret_cast<intptr_t>(t.data_ptr()));
  s.dtype = int64_t(t.scalar_type());
  s.dims = t.dim();
  for (int64_t i = 0; i < s.dims; ++i) s.sizes[size_t(i)] = t.size(i), s.strides[size_t(i)] = t.stride(i);
  s.device = int64_t(t.device().type()) << 16 | int64_t(uint8_t(t.device().index()));
  return true;
}

Slot bool_slot(bool b) {
  Slot s{};
  s.tag = 2, s.value = b;
  return s;
}

Slot int_slot(int64_t v) {
  Slot s{};
  s.tag = 3, s.value = v;
  return s;
}

Slot float_slot(double d) {
  Slot s{};
  s.tag = 4;
  std::memcpy(&s.value, &d, sizeof d);
  return s;
}

bool str_slot(std::string_view u, Slot& s) {
  s = Slot{};
  if (u.size() > 8) return false;
  s.tag = 5, s.value = int64_t(u.size());
  std::memcpy(&s.sizes[0], u.data(), u.size());
  return true;
}

bool find(Cache& c, const Key& key, Launch& hit) {
  const std::lock_guard<std::mutex> lock(c.mutex);
  for (const auto& [k, l] : c.entries)
    if (std::memcmp(&k, &key, sizeof key) == 0) return ++c.hits, hit = l, true;
  return ++c.misses, false;
}

std::string launch(Cache& c, Launch& hit, at::Tensor& out, at::Tensor& lse) {
  // at::detail::empty_cuda: the caching allocator without a second pass through the dispatcher
  const at::Device device(at::kCUDA, c10::DeviceIndex(c.device));
  const bool tokens = c.q_len > 1;
  const std::array<int64_t, 4> o_shape{c.batch, tokens ? c.q_len : c.heads_q, tokens ? c.heads_q : c.head_dim,
                                       c.head_dim};
  if (hit.alloc_out) {
    out = at::Tensor(
        at::detail::empty_cuda(at::IntArrayRef(o_shape.data(), tokens ? 4 : 3), c.o_dtype, device, std::nullopt));
    hit.args.o = out.data_ptr();
  }
  if (hit.alloc_lse) {
    lse = at::Tensor(
        at::detail::empty_cuda(at::IntArrayRef(o_shape.data(), tokens ? 3 : 2), at::kFloat, device, std::nullopt));
    hit.args.lse = lse.data_ptr<float>();
  }
  void* stream = c10::cuda::getCurrentCUDAStream(c10::DeviceIndex(c.device)).stream();
  const auto* plan = static_cast<const cotile_decode_plan_t*>(c.plan_view.buf);
  if (c.run(plan, &hit.args, c.ws, c.ws_bytes, stream) != COTILE_OK)
    return std::string("cotile_decode_run: ") + c.last_error();
  return {};
}

namespace {

constexpr const char* kCapsule = "cotile_decode_call_cache";

// The key slot of one argument given as a Python object; false: not cacheable.
bool slot_of(PyObject* o, Slot& s) {
  s = Slot{};
  if (o == Py_None) return true;
  if (THPVariable_Check(o)) return tensor_slot(THPVariable_Unpack(o), s);
  if (PyBool_Check(o)) return s = bool_slot(o == Py_True), true;
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) return PyErr_Clear(), false;
    return s = int_slot(v), true;
  }
  if (PyFloat_CheckExact(o)) return s = float_slot(PyFloat_AS_DOUBLE(o)), true;
  if (PyUnicode_CheckExact(o)) {
    Py_ssize_t n = 0;
    const char* u = PyUnicode_AsUTF8AndSize(o, &n);
    if (!u) return PyErr_Clear(), false;
    return str_slot(std::string_view(u, size_t(n)), s);
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

void destroy(PyObject* capsule) {
  Cache* c = cache_of(capsule);
  if (!c) return;
  PyBuffer_Release(&c->plan_view);
  Py_XDECREF(c->workspace);
  delete c;
}

// new_cache(plan, workspace, ws_address, ws_bytes, run_fn, last_error_fn, args_size, device, batch,
//           q_len, heads_q, head_dim, o_is_bf16) -> capsule
PyObject* new_cache(PyObject*, PyObject* a) {
  PyObject *plan, *workspace;
  unsigned long long ws, ws_bytes, run, err, args_size;
  int device, o_bf16;
  long long batch, q_len, heads_q, head_dim;
  if (!PyArg_ParseTuple(a, "OOKKKKKiLLLLp", &plan, &workspace, &ws, &ws_bytes, &run, &err, &args_size, &device, &batch,
                        &q_len, &heads_q, &head_dim, &o_bf16))
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
  c->batch = batch, c->q_len = q_len, c->heads_q = heads_q, c->head_dim = head_dim;
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
  Launch hit;
  if (!key_of(args + 1, key) || !find(*c, key, hit)) return Py_NewRef(Py_NotImplemented);
  at::Tensor o, l;
  std::string failed;
  try {
    failed = launch(*c, hit, o, l);
  } catch (const std::exception& e) {
    failed = std::string("cotile_decode: output allocation failed: ") + e.what();
  }
  if (!failed.empty()) return PyErr_SetString(PyExc_RuntimeError, failed.c_str()), nullptr;
  PyObject* out = hit.alloc_out ? THPVariable_Wrap(std::move(o)) : Py_NewRef(args[1 + 4]);
  PyObject* lse = hit.alloc_lse ? THPVariable_Wrap(std::move(l)) : Py_NewRef(args[1 + 5]);
  if (!out || !lse) return Py_XDECREF(out), Py_XDECREF(lse), nullptr;
  if (!hit.pair) return Py_DECREF(lse), out;
  PyObject* pair = PyTuple_Pack(2, out, lse);
  Py_DECREF(out);
  Py_DECREF(lse);
  return pair;
}

// insert(cache, args_bytes, alloc_out, alloc_lse, pair, *17 arguments): the checked launch
// arguments of a call Python has just checked (a no-op when the call is not cacheable).
PyObject* insert(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != kArgs + 5) return PyErr_Format(PyExc_TypeError, "insert: %d arguments expected", kArgs + 5), nullptr;
  Cache* c = cache_of(args[0]);
  if (!c) return nullptr;
  std::pair<Key, Launch> e{};
  if (!key_of(args + 5, e.first)) Py_RETURN_NONE;
  Py_buffer view;
  if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) != 0) return nullptr;
  const bool sized = size_t(view.len) == sizeof e.second.args;
  if (sized) std::memcpy(&e.second.args, view.buf, sizeof e.second.args);
  PyBuffer_Release(&view);
  if (!sized) return PyErr_SetString(PyExc_RuntimeError, "insert: not a cotile_decode_args_t"), nullptr;
  e.second.alloc_out = PyObject_IsTrue(args[2]) == 1;
  e.second.alloc_lse = PyObject_IsTrue(args[3]) == 1;
  e.second.pair = PyObject_IsTrue(args[4]) == 1;
  const std::lock_guard<std::mutex> lock(c->mutex);
  if (c->entries.size() >= kMaxEntries) c->entries.pop_front();
  c->entries.push_back(e);
  Py_RETURN_NONE;
}

// stats(cache) -> (hits, misses, entries)
PyObject* stats(PyObject*, PyObject* capsule) {
  Cache* c = cache_of(capsule);
  if (!c) return nullptr;
  const std::lock_guard<std::mutex> lock(c->mutex);
  return Py_BuildValue("KKn", (unsigned long long)c->hits, (unsigned long long)c->misses,
                       Py_ssize_t(c->entries.size()));
}

template <auto F>
PyCFunction fastcall() {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(F));
}

PyMethodDef kMethods[] = {
    {"new_cache", new_cache, METH_VARARGS, "the call cache of one DecodePlan"},
    {"run", fastcall<run>(), METH_FASTCALL, "launch a call checked before; NotImplemented otherwise"},
    {"insert", fastcall<insert>(), METH_FASTCALL, "remember a checked call's launch arguments"},
    {"stats", stats, METH_O, "(hits, misses, entries)"},
    {"register_op_kernels", register_op_kernels, METH_O,
     "register torch.ops.cotile's C++ kernels; the argument: the Python path of a call not cached"},
    {"set_op_handle", fastcall<set_op_handle>(), METH_FASTCALL,
     "set_op_handle(handle, cache, options) or (handle, None, None): the plan and options of `handle`"},
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

Cache* cache_of(PyObject* capsule) { return static_cast<Cache*>(PyCapsule_GetPointer(capsule, kCapsule)); }

}  // namespace cotile_ext

PyMODINIT_FUNC PyInit__cotile_decode_ext() { return PyModule_Create(&cotile_ext::kModule); }
