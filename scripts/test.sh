#!/usr/bin/env bash
# Build and run every test: the regular build, then an AddressSanitizer/UBSan build.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
# The Python package (pip install . in a virtual environment) and its tests.
bash scripts/test_python.sh
# The sanitized build is host code only: the CUDA targets are compiled (and skipped) above.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCOTILE_SANITIZE=ON -DCOTILE_CUDA=OFF
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan --output-on-failure -j"$jobs"
# The fuzz targets, built with clang and run briefly from a fixed seed (scripts/fuzz_smoke.sh).
bash scripts/fuzz_smoke.sh
