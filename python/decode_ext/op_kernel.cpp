// torch.ops.cotile.decode's CUDA kernels in C++ (python/cotile_ops.py registers them where this
// module is built), so that a call costs the dispatcher's argument parsing and the launch, not a
// Python kernel's boxing (~8 us of host time).
//
// The operators name their plan by an integer handle; set_op_handle ties the handle to the plan's
// call cache and to the scalar options registered with it (cotile_ops.register). A call's key is made
// from the ATen arguments and those options exactly as call_cache.cpp makes it from the Python objects
// of DecodePlan.run's arguments, so a call Python checked before (through an operator or through
// run()) is launched here without the GIL. Any other call (a handle not tied, a key not cached, a
// scale given as a float and per head) is handed to the Python path (cotile_ops._run), which checks
// it, raises what run() raises or caches it; its exception is raised here after the GIL is released,
// as c10's ValueError, TypeError or Error (Python sees the same type and message).
#include "call_cache.hpp"  // first: Python.h with PY_SSIZE_T_CLEAN

#include <torch/csrc/autograd/python_variable.h>
#include <torch/library.h>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

namespace cotile_ext {
namespace {

using OptTensor = std::optional<at::Tensor>;

// A handle's scalar options (cotile_ops.register, normalized there: floats as float, the window as int).
struct Options {
  std::string kv_layout;
  std::optional<double> softmax_scale;
  double softcap;
  int64_t window;
  double k_scale, v_scale;
};

struct Tied {
  PyObject* capsule;  // a reference: the cache lives while the handle is tied
  Cache* cache;
  Options options;
};

std::mutex g_mutex;  // the handles: tied under the GIL, read by calls without it
std::unordered_map<int64_t, Tied> g_handles;
PyObject* g_fallback = nullptr;         // the Python path: cotile_ops._run(out, lse, return_lse, *the arguments)
std::unique_ptr<torch::Library> g_lib;  // the kernels' registration, for the process's life

// An operator's arguments (cotile_ops.py's schemas); out and lse decode_into's, else null.
struct Args {
  const at::Tensor* out;
  const OptTensor* lse;
  bool return_lse;
  const at::Tensor &q, &k, &v, &seqlen;
  int64_t plan;
  const OptTensor &page_table, &cache_batch_idx, &k_scale_h, &v_scale_h;
};

bool opt_slot(const OptTensor& t, Slot& s) { return t.has_value() ? tensor_slot(*t, s) : (s = none_slot(), true); }

// run()'s scale argument: the per-head tensor, or the float (both given: the Python path refuses it).
bool scale_slot(double value, const OptTensor& per_head, Slot& s) {
  if (!per_head.has_value()) return s = float_slot(value), true;
  return value == 1.0 && tensor_slot(*per_head, s);
}

// The key DecodePlan.run's arguments make in call_cache.cpp, in its order (call_cache.hpp).
bool op_key(const Args& a, const Options& o, Key& key) {
  key[4] = key[5] = key[10] = key[11] = none_slot();  // out, lse (unless decode_into's), k_new, v_new
  key[6] = bool_slot(a.return_lse);
  key[12] = o.softmax_scale.has_value() ? float_slot(*o.softmax_scale) : none_slot();
  key[13] = float_slot(o.softcap);
  key[14] = int_slot(o.window);
  return tensor_slot(a.q, key[0]) && tensor_slot(a.k, key[1]) && tensor_slot(a.v, key[2]) &&
         tensor_slot(a.seqlen, key[3]) && (!a.out || tensor_slot(*a.out, key[4])) &&
         (!a.lse || opt_slot(*a.lse, key[5])) && str_slot(o.kv_layout, key[7]) && opt_slot(a.page_table, key[8]) &&
         opt_slot(a.cache_batch_idx, key[9]) && scale_slot(o.k_scale, a.k_scale_h, key[15]) &&
         scale_slot(o.v_scale, a.v_scale_h, key[16]);
}

PyObject* wrap(const OptTensor& t) { return t.has_value() ? THPVariable_Wrap(*t) : Py_NewRef(Py_None); }

// The Python path's exception as text and kind, the error indicator cleared (under the GIL).
void take_error(std::string& message, int& kind) {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* value = PyErr_GetRaisedException();
#else
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  PyErr_NormalizeException(&type, &value, &trace);
  Py_XDECREF(type);
  Py_XDECREF(trace);
#endif
  kind = PyErr_GivenExceptionMatches(value, PyExc_ValueError)  ? 1
         : PyErr_GivenExceptionMatches(value, PyExc_TypeError) ? 2
                                                               : 3;
  PyObject* text = value ? PyObject_Str(value) : nullptr;
  const char* u = text ? PyUnicode_AsUTF8(text) : nullptr;
  message = u ? u : "cotile.decode: the Python path failed without a message";
  if (!u) PyErr_Clear();
  Py_XDECREF(text);
  Py_XDECREF(value);
}

// A call the cache has not seen: the Python path checks and runs it (and caches it). decode_into's
// result is not read (the path wrote its out and lse).
std::tuple<at::Tensor, at::Tensor> python_path(const Args& a) {
  std::string message;
  int kind = 0;  // 0 none, 1 ValueError, 2 TypeError, 3 another
  at::Tensor out, lse;
  const PyGILState_STATE gil = PyGILState_Ensure();
  PyObject* args =
      Py_BuildValue("(NNNNNNNLNNNN)", a.out ? THPVariable_Wrap(*a.out) : Py_NewRef(Py_None),
                    a.lse ? wrap(*a.lse) : Py_NewRef(Py_None), PyBool_FromLong(a.return_lse), THPVariable_Wrap(a.q),
                    THPVariable_Wrap(a.k), THPVariable_Wrap(a.v), THPVariable_Wrap(a.seqlen), (long long)a.plan,
                    wrap(a.page_table), wrap(a.cache_batch_idx), wrap(a.k_scale_h), wrap(a.v_scale_h));
  PyObject* result = args && g_fallback ? PyObject_Call(g_fallback, args, nullptr) : nullptr;
  if (result && !a.out) {
    const bool pair = a.return_lse;
    PyObject* o = pair && PyTuple_Check(result) && PyTuple_GET_SIZE(result) == 2 ? PyTuple_GET_ITEM(result, 0) : result;
    PyObject* l = pair && o != result ? PyTuple_GET_ITEM(result, 1) : nullptr;
    if (THPVariable_Check(o) && (!pair || (l && THPVariable_Check(l)))) {
      out = THPVariable_Unpack(o);
      if (l) lse = THPVariable_Unpack(l);
    } else {
      kind = 3, message = "cotile.decode: the Python path returned neither a tensor nor a pair of them";
    }
  } else if (!result) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "cotile.decode: no Python path registered");
    take_error(message, kind);
  }
  Py_XDECREF(result);
  Py_XDECREF(args);
  PyGILState_Release(gil);  // before any throw: the dispatcher's caller re-takes the GIL as it unwinds
  TORCH_CHECK_VALUE(kind != 1, message);
  TORCH_CHECK_TYPE(kind != 2, message);
  TORCH_CHECK(kind != 3, message);
  return {out, lse};
}

std::tuple<at::Tensor, at::Tensor> call(const Args& a) {
  Cache* cache = nullptr;
  Key key;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (auto it = g_handles.find(a.plan); it != g_handles.end() && op_key(a, it->second.options, key))
      cache = it->second.cache;
  }
  Launch hit;
  // (Unless decode_into's, the key's out and lse are None: the launch allocates what it returns.)
  if (!cache || !find(*cache, key, hit)) return python_path(a);
  at::Tensor out, lse;
  const std::string failed = launch(*cache, hit, out, lse);
  TORCH_CHECK(failed.empty(), failed);
  return {out, lse};
}

at::Tensor decode(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const at::Tensor& seqlen, int64_t plan,
                  const OptTensor& page_table, const OptTensor& cache_batch_idx, const OptTensor& k_scale_h,
                  const OptTensor& v_scale_h) {
  return std::get<0>(
      call({nullptr, nullptr, false, q, k, v, seqlen, plan, page_table, cache_batch_idx, k_scale_h, v_scale_h}));
}

std::tuple<at::Tensor, at::Tensor> decode_lse(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                              const at::Tensor& seqlen, int64_t plan, const OptTensor& page_table,
                                              const OptTensor& cache_batch_idx, const OptTensor& k_scale_h,
                                              const OptTensor& v_scale_h) {
  return call({nullptr, nullptr, true, q, k, v, seqlen, plan, page_table, cache_batch_idx, k_scale_h, v_scale_h});
}

void decode_into(at::Tensor& out, const OptTensor& lse, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                 const at::Tensor& seqlen, int64_t plan, const OptTensor& page_table, const OptTensor& cache_batch_idx,
                 const OptTensor& k_scale_h, const OptTensor& v_scale_h) {
  call({&out, &lse, false, q, k, v, seqlen, plan, page_table, cache_batch_idx, k_scale_h, v_scale_h});
}

}  // namespace

// register_op_kernels(fallback): the C++ kernels of cotile::decode, decode_lse and decode_into (the
// schemas defined by cotile_ops.py before), `fallback` the Python path of calls not cached.
PyObject* register_op_kernels(PyObject*, PyObject* fallback) {
  if (g_lib) return PyErr_SetString(PyExc_RuntimeError, "register_op_kernels: registered already"), nullptr;
  if (!PyCallable_Check(fallback))
    return PyErr_SetString(PyExc_TypeError, "register_op_kernels: not callable"), nullptr;
  try {
    auto lib = std::make_unique<torch::Library>(torch::Library::IMPL, "cotile", c10::DispatchKey::CUDA, __FILE__,
                                                uint32_t(__LINE__));
    lib->impl("decode", TORCH_FN(decode));
    lib->impl("decode_lse", TORCH_FN(decode_lse));
    lib->impl("decode_into", TORCH_FN(decode_into));
    g_lib = std::move(lib);
  } catch (const std::exception& e) {
    return PyErr_Format(PyExc_RuntimeError, "register_op_kernels: %s", e.what()), nullptr;
  }
  g_fallback = Py_NewRef(fallback);
  Py_RETURN_NONE;
}

// set_op_handle(handle, cache capsule, options) ties a handle to a plan's call cache and its scalar
// options, the tuple (kv_layout, softmax_scale or None, softcap, window, k_scale, v_scale) of
// cotile_ops._Options; set_op_handle(handle, None, None) unties it.
PyObject* set_op_handle(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 3) return PyErr_SetString(PyExc_TypeError, "set_op_handle: 3 arguments expected"), nullptr;
  const long long handle = PyLong_AsLongLong(args[0]);
  if (handle == -1 && PyErr_Occurred()) return nullptr;
  Cache* cache = nullptr;
  if (args[1] != Py_None && !(cache = cache_of(args[1]))) return nullptr;
  Options o{};
  if (cache) {
    const char* layout = nullptr;
    PyObject* scale = nullptr;
    long long window = 0;
    if (!PyArg_ParseTuple(args[2], "sOdLdd", &layout, &scale, &o.softcap, &window, &o.k_scale, &o.v_scale))
      return nullptr;
    if (scale != Py_None && !PyFloat_CheckExact(scale))
      return PyErr_SetString(PyExc_TypeError, "set_op_handle: softmax_scale must be a float or None"), nullptr;
    o.kv_layout = layout;
    if (scale != Py_None) o.softmax_scale = PyFloat_AS_DOUBLE(scale);
    o.window = window;
  }
  PyObject* old = nullptr;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (auto it = g_handles.find(handle); it != g_handles.end()) old = it->second.capsule, g_handles.erase(it);
    if (cache) g_handles.emplace(handle, Tied{Py_NewRef(args[1]), cache, std::move(o)});
  }
  Py_XDECREF(old);
  Py_RETURN_NONE;
}

}  // namespace cotile_ext
