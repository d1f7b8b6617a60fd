// memcpy as one WebAssembly memory.copy instruction (bulk memory, in every current browser).
// emscripten 3.1.6's libc memcpy hands copies of 512 bytes or more to JavaScript
// (HEAPU8.copyWithin), and the engine copies its fixed-capacity IntTuples (a few KiB each) all
// the time: drawing the Q-load chain's 128x128 copy spent a quarter of its time there. libc's memcpy is a
// weak symbol; this one replaces it. Compiled with -mbulk-memory, the copy below is lowered to
// memory.copy, not to a call.
#include <cstddef>

extern "C" void* memcpy(void* dest, const void* src, size_t n) {
  __builtin_memmove(dest, src, n);  // memory.copy has memmove's semantics
  return dest;
}
