// cotile GQA decode attention, C++ interface: the C ABI's structs (decode.h, the one definition)
// under cotile::attention names, and decode_plan / decode_run returning a Status with a message.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "decode.h"

namespace cotile::attention {

using DecodeShape = cotile_decode_shape_t;
using DecodePlan = cotile_decode_plan_t;
using DecodeArgs = cotile_decode_args_t;

enum class DType : int32_t { kF16 = COTILE_F16, kBF16 = COTILE_BF16, kE4M3 = COTILE_E4M3, kE5M2 = COTILE_E5M2 };

struct Status {
  cotile_status code = COTILE_OK;
  std::string message;
  bool ok() const { return code == COTILE_OK; }
};

// Plan on the host, once per batch shape.
inline Status decode_plan(const DecodeShape& shape, DecodePlan* plan) {
  const cotile_status c = cotile_decode_plan(&shape, plan);
  return {c, c == COTILE_OK ? std::string() : std::string(cotile_decode_last_error())};
}

// Launch on `stream`; the workspace (plan.workspace_bytes, zeroed once) is reused across runs.
inline Status decode_run(const DecodePlan& plan, const DecodeArgs& args, void* workspace, uint64_t workspace_bytes,
                         cudaStream_t stream = nullptr) {
  const cotile_status c = cotile_decode_run(&plan, &args, workspace, workspace_bytes, stream);
  return {c, c == COTILE_OK ? std::string() : std::string(cotile_decode_last_error())};
}

}  // namespace cotile::attention
