#!/usr/bin/env bash
# Issue 28's q_len figures in one command: build the decode library once (as sweep.sh does), run the
# model sweep (cotile and the read, no oracle) at q_len 1, 2 and 4 with the plan's choices and, with
# --forced, at q_len 2 and 4 with 1, 2 and 4 m-tiles a CTA forced; then judge them with
# qlen_targets.py: q_len 2 and 4 against q_len 1 (the 1.15x target) and, with --forced, the plan's
# m-tiles against the best forced choice. Output in DIR: q1/, q2/, q4/ (and q2_m1/ ... q4_m4/) each
# with its sweep.csv, and cost_q2.txt, cost_q4.txt (and m_tiles_q2.txt, m_tiles_q4.txt).
# With --peers the q_len 2 and 4 runs time PyTorch too (SDPA with a lower-right causal bias,
# FlexAttention with its mask), and cost_qT.txt judges cotile against them (issue 28's other half).
# ~2 min for the build, ~25 s a run on the H200 without PyTorch: under 10 minutes with --forced;
# with --peers 350 s in all on the H200 (build included); leave --forced out with it.
#   bash bench/decode/qlen_sweep.sh [--forced] [--peers] [--out DIR] [sweep.py's --filter/--models/--quick ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:+$OUT/qlen}
out=${out:-qlen-results}
forced=0
peers=0
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --forced) forced=1 ;;
    --peers) peers=1 ;;
    --out) out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    *) args+=("$1") ;;
  esac
  shift
done
build=${COTILE_BUILD_DIR:-build-release}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j"$(nproc)" --target cotile_attention > /dev/null
lib="$PWD/$build/lib/libcotile_attention.so"
mkdir -p "$out"
out=$(cd "$out" && pwd)
sweep() {  # sweep NAME ARGS...: one run into $out/NAME
  local name=$1
  shift
  echo "== $name"
  COTILE_ATTENTION_LIB=$lib PYTHONUNBUFFERED=1 python3 bench/decode/sweep.py --no-oracle \
    ${args[@]+"${args[@]}"} "$@" --out "$out/$name" > "$out/$name.log" 2>&1 || { tail -20 "$out/$name.log"; exit 1; }
}
for t in 1 2 4; do
  if [ "$peers" = 1 ] && [ "$t" != 1 ]; then sweep "q$t" --q-len "$t"; else sweep "q$t" --q-len "$t" --no-torch; fi
done
if [ "$forced" = 1 ]; then
  for t in 2 4; do for m in 1 2 4; do sweep "q${t}_m$m" --q-len "$t" --m-tiles-per-cta "$m" --no-torch; done; done
fi
cd bench/decode
for t in 2 4; do
  python3 qlen_targets.py "$out/q1/sweep.csv" "$out/q$t/sweep.csv" | tee "$out/cost_q$t.txt"
  if [ "$forced" = 1 ]; then
    python3 qlen_targets.py --m-tiles "$out/q$t/sweep.csv" "$out/q${t}_m1/sweep.csv" "$out/q${t}_m2/sweep.csv" \
      "$out/q${t}_m4/sweep.csv" | tee "$out/m_tiles_q$t.txt"
  fi
done
