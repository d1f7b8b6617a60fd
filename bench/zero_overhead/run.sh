#!/usr/bin/env bash
# Compile zero_overhead.cu for sm_90a and compare the SASS (cuobjdump) of the cotile kernel with
# the hand-written one; without cuobjdump, compare the PTX. Prints both and the verdict.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
out=$(mktemp -d)
"$nvcc" -std=c++20 --expt-relaxed-constexpr -O3 -arch=sm_90a -I "$root/include" -cubin -o "$out/k.cubin" "$here/zero_overhead.cu"
dump() {  # $1: kernel name; prints its instructions without addresses and encodings
  if command -v cuobjdump >/dev/null 2>&1 || [ -x "$(dirname "$nvcc")/cuobjdump" ]; then
    local cu; cu=$(command -v cuobjdump || echo "$(dirname "$nvcc")/cuobjdump")
    "$cu" -sass -fun "$1" "$out/k.cubin" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@/\*[0-9a-f]{4}\*/@@; s@;.*@@; s/^\s+//'
  else
    "$nvcc" -std=c++20 --expt-relaxed-constexpr -O3 -arch=sm_90a -I "$root/include" -ptx -o "$out/k.ptx" "$here/zero_overhead.cu"
    awk -v f="$1" '$0 ~ "\\.entry .*" f {on=1} on && /^}/ {on=0} on' "$out/k.ptx" | grep -vE '^\s*(//|\.|$)|\.entry|\{|\}|param' | sed -E 's/\s+/ /g; s/_Z[0-9A-Za-z_]+/KERNEL/g'
  fi
}
tool=$(command -v cuobjdump >/dev/null 2>&1 || [ -x "$(dirname "$nvcc")/cuobjdump" ] && echo SASS || echo PTX)
dump _Z12cotile_indexPKfPf > "$out/cotile.txt"
dump _Z10hand_indexPKfPf > "$out/hand.txt"
echo "== $tool of cotile_index ($(wc -l < "$out/cotile.txt") instructions)"; cat "$out/cotile.txt"
echo "== $tool of hand_index ($(wc -l < "$out/hand.txt") instructions)"; cat "$out/hand.txt"
# Compare the opcodes: in order for SASS (the final schedule); as a multiset for PTX, whose
# order and register numbers ptxas rewrites anyway.
ops() { awk '{print $1}' "$1" | grep -vE '^(\)|NOP|BRA)$' | { [ "$tool" = PTX ] && sort || cat; }; }
ops "$out/cotile.txt" > "$out/cotile.ops"
ops "$out/hand.txt" > "$out/hand.ops"
if diff -q "$out/cotile.ops" "$out/hand.ops" >/dev/null; then
  echo "same $tool instructions ($(wc -l < "$out/cotile.ops")): zero overhead"
else
  echo "different $tool instructions:"; diff "$out/cotile.ops" "$out/hand.ops" || true
  exit 1
fi
