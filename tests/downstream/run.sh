#!/usr/bin/env bash
# A downstream project builds against cotile with no flags of its own and no warnings: by
# add_subdirectory and by find_package after `cmake --install`, a host program (built and run)
# and, where nvcc is found, a .cu file (built). Usage: run.sh COTILE_SOURCE_DIR [NVCC]
set -uo pipefail
src=$(cd "$1" && pwd)
nvcc=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect_output="(_4,_8):(_8,_1) ((_4,_2),_4):((_8,_1),_2) 10"  # (4,8):(8,1) o (8,4):(1,8), checked by hand

build() {  # name, build dir, cmake args...
  local name=$1 dir=$2
  shift 2
  local log="$dir.log"
  if ! cmake -S "$here/consumer" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" > "$log" 2>&1 ||
     ! cmake --build "$dir" -j2 >> "$log" 2>&1; then
    echo "FAIL $name: the build failed"; tail -30 "$log"; failures=$((failures + 1)); return 1
  fi
  if grep -qi "warning" "$log"; then
    echo "FAIL $name: the build printed warnings"; grep -i -A3 "warning" "$log" | head -20; failures=$((failures + 1)); return 1
  fi
  local out
  out=$("$dir/consumer")
  if [[ $out != "$expect_output" ]]; then
    echo "FAIL $name: consumer printed '$out', expected '$expect_output'"; failures=$((failures + 1)); return 1
  fi
  echo "ok   $name"
}

build "add_subdirectory, host" "$tmp/sub"  -DCOTILE_SOURCE="$src"
cmake -S "$src" -B "$tmp/cotile-build" -DCOTILE_BUILD_TOOLS=OFF -DCOTILE_BUILD_TESTS=OFF -DCOTILE_CUDA=OFF > "$tmp/install.log" 2>&1 &&
  cmake --install "$tmp/cotile-build" --prefix "$tmp/prefix" >> "$tmp/install.log" 2>&1 ||
  { echo "FAIL install"; tail -20 "$tmp/install.log"; failures=$((failures + 1)); }
build "find_package, host" "$tmp/pkg" -DCMAKE_PREFIX_PATH="$tmp/prefix"
if [[ -n $nvcc && -x $nvcc ]]; then
  build "add_subdirectory, CUDA" "$tmp/sub-cu" -DCOTILE_SOURCE="$src" -DCONSUMER_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc"
  build "find_package, CUDA" "$tmp/pkg-cu" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCONSUMER_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc"
else
  echo "skip the CUDA consumers: no nvcc"
fi
echo "$failures failure(s)"
exit $((failures > 0))
