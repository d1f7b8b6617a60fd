#!/usr/bin/env bash
# CuTe's core unit tests (CUTLASS's test/unit/cute/core/*.cpp), each compiled unchanged against
# cotile's typed layer through the rename-only shim (cute_shim.hpp, include/), then run. Prints,
# per file, whether it compiled (else its first error) and its TESTs' results, then the totals.
# Fails while any file does not compile or any TEST fails. A file one of whose cases breaks a
# law cotile checks is reported as refused (a compile error by design: never silently wrong).
#   run.sh CUTLASS_DIR [CXX]     (ctest cute_core_tests: cmake -DCOTILE_CUTE_TESTS=CUTLASS_DIR)
set -uo pipefail
cutlass=${1:?usage: run.sh CUTLASS_DIR [CXX]}
cxx=${2:-g++}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
core=$cutlass/test/unit/cute/core
[[ -d $core ]] || { echo "FAIL no $core"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=0 compiled=0 tests=0 passed=0 refused=0
for src in "$core"/*.cpp; do
  name=$(basename "$src" .cpp)
  [[ $name == core_unit ]] && continue  # main() only: GoogleTest's gtest_main stands in
  n=$(grep -c "^TEST(" "$src")
  files=$((files + 1)) tests=$((tests + n))
  if ! "$cxx" -std=c++20 -DNDEBUG -I"$here/include" -I"$root/include" "$src" -lgtest -lgtest_main -pthread \
      -o "$tmp/$name" 2> "$tmp/$name.log"; then
    # A case whose result breaks its operation's law is a compile error by design ("never
    # silently wrong"): name the law, the file stays counted as not compiling.
    law=$(grep -m1 -oE 'Message<[0-9]+>\{"[^;]*' "$tmp/$name.log" | sed 's/^[^"]*"//')
    if [[ -n $law ]]; then
      printf "%-20s %2d TESTs  refused: a case breaks a law cotile checks: %s\n" "$name" "$n" "$(cut -c1-150 <<< "$law")"
      refused=$((refused + 1))
      continue
    fi
    printf "%-20s %2d TESTs  does not compile: %s\n" "$name" "$n" \
      "$(grep -m1 -E "error" "$tmp/$name.log" | sed "s|$core/||; s|$root/||" | cut -c1-150)"
    # The names it lacks (the compiler's own words; later errors may follow from earlier ones).
    missing=$(grep -oE "‘[A-Za-z_0-9:]+’ (was not declared|is not a member of ‘cute’|does not name a type|has not been declared)" \
      "$tmp/$name.log" | grep -oE "^‘[^’]+" | tr -d '‘' | sort -u | tr '\n' ' ')
    grep -q "wrong number of template arguments" "$tmp/$name.log" && missing+="(Layout<Shape, Stride>) "
    [[ -n $missing ]] && printf "%-20s           missing: %s\n" "" "$missing"
    continue
  fi
  compiled=$((compiled + 1))
  "$tmp/$name" --gtest_brief=1 > "$tmp/$name.out" 2>&1
  if grep -q "^\[  PASSED  \] $n test" "$tmp/$name.out"; then
    ok=$n
  else  # a crash leaves neither line: nothing counts as passed
    ok=$(grep -q "^\[==========\]" "$tmp/$name.out" && echo $(( n - $(grep -oE "^\[  FAILED  \] [A-Za-z_0-9]+\.[A-Za-z_0-9]+" "$tmp/$name.out" | sort -u | wc -l) )) || echo 0)
  fi
  passed=$((passed + ok))
  printf "%-20s %2d TESTs  compiles, %d pass\n" "$name" "$n" "$ok"
  grep -oE "^\[  FAILED  \] [A-Za-z_0-9]+\.[A-Za-z_0-9]+" "$tmp/$name.out" | sort -u | sed 's/^/                     /'
done
echo "$compiled of $files files compile ($refused refused by a law); $passed of $tests TESTs pass"
[[ $compiled == "$files" && $passed == "$tests" ]]
