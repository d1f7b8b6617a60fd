#!/usr/bin/env bash
# The fuzz targets (fuzz/, README "Fuzzing") built with clang and run for a fixed number of inputs
# from a fixed seed: the README's fuzz commands keep working, and the corpus, the regressions and
# the first inputs libFuzzer derives from them pass the laws' oracle. A finding fails the run
# (libFuzzer's exit status) and leaves the input as build-fuzz/finding-*.
# Without clang's libFuzzer the step reports itself skipped, unless COTILE_REQUIRE_FUZZ=1 (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
if ! command -v clang++ >/dev/null ||
   ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     clang++ -x c++ -fsanitize=fuzzer - -o "$probe/a.out" 2>/dev/null; then
  if [ "${COTILE_REQUIRE_FUZZ:-0}" = 1 ]; then
    echo "fuzz_smoke: clang++ with libFuzzer is required (apt-get install clang libclang-rt-14-dev)" >&2
    exit 1
  fi
  echo "fuzz_smoke: SKIPPED (no clang++ with libFuzzer)"
  exit 0
fi
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCOTILE_FUZZ=ON -DCOTILE_BUILD_TESTS=OFF \
      -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-fuzz -j"$jobs" --target calc_fuzz law_fuzz cli_fuzz
mkdir -p "$probe/calc" "$probe/law" "$probe/cli"
cp fuzz/corpus/* fuzz/regressions/* "$probe/calc/"
cp fuzz/corpus_cli/* "$probe/cli/"
run() {  # run NAME ARGS...: the last line, or the log's end on a finding
  local name=$1 log="$probe/$1.log"
  shift
  if ! ./build-fuzz/fuzz/"$name" -seed=1 -artifact_prefix=build-fuzz/finding- "$@" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz_smoke: $name found an input that fails (build-fuzz/finding-*)" >&2
    exit 1
  fi
  echo "$name: $(tail -1 "$log")"
}
run calc_fuzz -dict=fuzz/calc.dict -runs=50000 -max_len=512 -timeout=10 "$probe/calc"
run law_fuzz -runs=20000 -max_len=256 -timeout=30 "$probe/law"
run cli_fuzz -dict=fuzz/cli.dict -runs=5000 -max_len=512 -timeout=30 "$probe/cli"
echo "fuzz_smoke: passed"
