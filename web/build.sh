#!/usr/bin/env bash
# Build the layout playground: a static site in web/dist/ (index.html, its script and style, and
# cotile.js + cotile.wasm: the engine compiled by emscripten). Offline; serve web/dist/ from any
# static host, e.g. `python3 -m http.server -d web/dist`.
#   JOBS=N  parallel compile jobs (default 1)   BUILD=DIR  build directory (default build-wasm)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v emcmake >/dev/null || ! command -v em++ >/dev/null; then
  echo "web/build.sh: emscripten is not installed (Debian: apt-get install -y emscripten)" >&2
  exit 2
fi
# emscripten runs Debian's node-acorn; a node from elsewhere (NodeSource) does not search Debian's folder.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
build=${BUILD:-build-wasm}
start=$(date +%s)
emcmake cmake -S web -B "$build" -DCMAKE_BUILD_TYPE=MinSizeRel >/dev/null
cmake --build "$build" -j"${JOBS:-1}"
rm -rf web/dist
mkdir -p web/dist
cp "$build"/cotile.js "$build"/cotile.wasm web/dist/
cp web/site/* web/dist/
echo "web/dist: $(ls web/dist | tr '\n' ' ')($(du -sk web/dist | cut -f1) KiB) built in $(( $(date +%s) - start )) s"
