#!/usr/bin/env bash
# A/B of decode builds on one GPU machine, alternated: builds each variant's library (Release,
# in parallel), then runs `bench.py --no-torch` for the variants in order and back (a b c c b a by
# default, so that drift over the run cancels), one CSV per run in $OUT (or ./ab-results).
#
#   bash bench/decode/ab.sh NAME[:SRC]=CUDA_FLAGS ...
#     NAME        the variant's name (CSV files NAME_runK.csv, build dir ab-build-NAME)
#     SRC         its source tree (default: this working tree), whose bench.py and Python module
#                 run it (they match its library's C ABI). The device machine has no .git, so
#                 prepare the baseline before the call: mkdir ab-old && git archive HEAD | tar -x -C ab-old
#                 (untracked, not ignored: the device copy carries it; delete it before committing)
#     CUDA_FLAGS  CMAKE_CUDA_FLAGS for it, e.g. -DCOTILE_DECODE_MERGE_BATCH=8 (may be empty)
#   env ORDER="a b b a" overrides the run order; BENCH_ARGS are passed to bench.py (--kv fp8-e4m3).
#   env AB_BENCH=sweep runs the model sweep instead, cotile and the read only (`sweep.py --no-torch
#   --no-oracle $SWEEP_ARGS`, e.g. SWEEP_ARGS="--filter kv=fp8-e4m3"; ~20 s a run for its 234 cases):
#   one folder NAME_runK per run, and a comparison of (a), (b) and (c) by case and group.
# At the end the table of ab_compare.py (baseline: the first variant) is printed and kept as
# compare.txt beside the CSVs (it comes back even when a device's file limit drops CSVs).
# Compare again: python3 bench/decode/ab_compare.py DIR BASELINE_NAME
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-ab-results}
mkdir -p "$out"
names=()
declare -A srcs
for spec in "$@"; do
  head=${spec%%=*} flags=${spec#*=}
  name=${head%%:*} src=.
  [[ $head == *:* ]] && src=${head#*:}
  names+=("$name")
  srcs[$name]=$src
  (cmake -S "$src" -B "ab-build-$name" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS="$flags" > /dev/null &&
     cmake --build "ab-build-$name" -j$(( $(nproc) / $# + 1 )) --target cotile_attention 2>&1 | grep -iE "error" ) &
done
wait
order=${ORDER:-"${names[*]} $(printf '%s\n' "${names[@]}" | tac | tr '\n' ' ')"}
run=0
for name in $order; do
  run=$((run + 1))
  # each variant's own bench.py and Python module: they match its library's C ABI
  lib="$PWD/ab-build-$name/lib/libcotile_attention.so"
  if [[ ${AB_BENCH:-table} == sweep ]]; then
    COTILE_ATTENTION_LIB=$lib python3 "${srcs[$name]}/bench/decode/sweep.py" --no-torch --no-oracle ${SWEEP_ARGS:-} \
      --out "$out/${name}_run$run" > "$out/${name}_run$run.log" 2>&1
    echo "$name run $run: $(tail -1 "$out/${name}_run$run.log")"
  else
    COTILE_ATTENTION_LIB=$lib python3 "${srcs[$name]}/bench/decode/bench.py" --no-torch \
      ${BENCH_ARGS:-} --csv "$out/${name}_run$run.csv" 2>&1 | grep -E "^probe"
  fi
done
python3 bench/decode/ab_compare.py "$out" "${names[0]}" | tee "$out/compare.txt"
