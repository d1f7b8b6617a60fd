#!/usr/bin/env bash
# On a GPU machine: build (Release, sm_90a), run every GPU test, compute-sanitizer memcheck and
# racecheck on the decode kernel's quick subset, then the decode benchmark. Logs go to $OUT (or
# ./gpu-logs). Usage: bash scripts/gpu_check.sh [--no-bench]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-logs}
mkdir -p "$out"
build=${COTILE_BUILD_DIR:-build-release}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null || exit 1
targets="device_test device_gemm_test device_mma_test device_law_test device_decision_test arch_test decode_test cotile_attention"
if grep -q cotile_decode_ext "$build/CMakeFiles/TargetDirectories.txt" 2>/dev/null; then
  targets+=" cotile_decode_ext"  # the Python module's call cache (where PyTorch is installed): required then
  export COTILE_DECODE_EXT_REQUIRED=1
fi
cmake --build "$build" -j"$(nproc)" --target $targets 2>&1 | grep -iE "error|warning"
status=0
run() {  # name, command...
  local name=$1; shift
  if "$@" > "$out/$name.log" 2>&1; then echo "PASS $name: $(tail -1 "$out/$name.log")"; else echo "FAIL $name (log: $out/$name.log)"; tail -5 "$out/$name.log"; status=1; fi
}
run device_test "$build/tests/device_test"
run device_gemm_test "$build/tests/device_gemm_test"
run device_mma_test "$build/tests/device_mma_test"
run device_law_test "$build/tests/device_law_test"
run device_decision_test "$build/tests/device_decision_test"
run arch_test "$build/tests/arch_test"
run decode_test "$build/tests/decode_test"
run decode_python_test python3 tests/attention/python_test.py "$PWD/$build/lib/libcotile_attention.so"
run decode_ops_test python3 tests/attention/ops_test.py "$PWD/$build/lib/libcotile_attention.so"
sanitize() {  # tool
  compute-sanitizer --tool "$1" --error-exitcode 1 "$build/tests/decode_test" --quick
}
run memcheck sanitize memcheck
run racecheck sanitize racecheck
if [[ "${1:-}" != "--no-bench" ]]; then
  COTILE_BUILD_DIR=$build bash bench/decode/run.sh --csv "$out/decode_bench.csv" 2>&1 | grep -v "Warning\|warn(" | tee "$out/decode_bench.txt" | tail -34
fi
exit $status
