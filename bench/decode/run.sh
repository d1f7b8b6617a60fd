#!/usr/bin/env bash
# Build the decode library (Release, sm_90a) and run the benchmark; arguments go to bench.py
# (--quick: fp16 only; --no-flex; --csv PATH). Needs a GPU, PyTorch and (optionally) Triton.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${COTILE_BUILD_DIR:-build-release}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j"$(nproc)" --target cotile_attention > /dev/null
COTILE_ATTENTION_LIB="$PWD/$build/lib/libcotile_attention.so" PYTHONUNBUFFERED=1 python3 bench/decode/bench.py "$@"
