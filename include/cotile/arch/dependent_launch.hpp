// Programmatic dependent launch (sm_90): a kernel launched with the attribute
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the kernel before it in the
// stream is still running. One thin wrapper per PTX instruction; device-only, with host stubs
// that report the misuse.
#pragma once

#include "copy.hpp"

namespace cotile::arch {

// Wait until the grids this one depends on have completed and their memory operations are
// visible. A no-op in a grid launched without the attribute. Every read of what an earlier kernel
// wrote (and every write an earlier kernel might read) goes after it.
COTILE_HD inline void grid_dependency_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#else
  COTILE_DEVICE_ONLY(grid_dependency_wait)
#endif
}

// Let the next grid in the stream (launched with the attribute) start once every CTA of this one
// has called this or exited; its CTAs still wait in grid_dependency_wait for this grid to finish.
COTILE_HD inline void launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#else
  COTILE_DEVICE_ONLY(launch_dependents)
#endif
}

}  // namespace cotile::arch
