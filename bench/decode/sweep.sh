#!/usr/bin/env bash
# Build the decode library (Release, sm_90a) as run.sh does, then run the model sweep (sweep.py;
# arguments go to it: --quick, --models, --filter, --flex, --no-oracle, --deadline, --list, ...).
# Output in --out DIR (default: $OUT/sweep when $OUT is set, else sweep-results). Unless --deadline
# is given, the build's time is taken off the sweep's 530 s, so that build and sweep end within
# 10 minutes. Needs a GPU, PyTorch and (for the plot) matplotlib.
#   bash bench/decode/sweep.sh [--quick] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${COTILE_BUILD_DIR:-build-release}
start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
targets="cotile_attention decode_host_cost"  # and the Python module's call cache where PyTorch is (python/decode_ext)
grep -q cotile_decode_ext "$build/CMakeFiles/TargetDirectories.txt" 2>/dev/null && targets+=" cotile_decode_ext"
cmake --build "$build" -j"$(nproc)" --target $targets > /dev/null
built=$(( $(date +%s) - start ))
echo "library built in ${built} s: $build/lib/libcotile_attention.so"
args=("$@")
has() { local a; for a in "${args[@]}"; do [[ $a == "$1" || $a == "$1="* ]] && return 0; done; return 1; }
has --out || has --list || args+=(--out "${OUT:+$OUT/sweep}")
[[ ${args[-1]} == "" ]] && args[-1]=sweep-results
has --deadline || args+=(--deadline "$(( built < 470 ? 530 - built : 60 ))")
COTILE_ATTENTION_LIB="$PWD/$build/lib/libcotile_attention.so" COTILE_HOST_COST_BIN="$PWD/$build/bench/decode_host_cost" \
  PYTHONUNBUFFERED=1 python3 bench/decode/sweep.py "${args[@]}"
