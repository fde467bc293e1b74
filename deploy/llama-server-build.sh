#!/usr/bin/env bash
# Builds llama.cpp's own OpenAI-compatible server (llama-server) once, into a cache folder outside the clone, and
# reuses it after; prints the binary's path on stdout. The tests against a real model server use it (see docs/LLM.md).
# llama.cpp's source comes from the npm package node-llama-cpp (llama/gitRelease.bundle, a git bundle of the
# llama.cpp tree it was released with); Debian's cmake and g++ build it. First run: an npm download of ~40 MB and a
# compile of ~5 minutes on 2 cores; later runs print the cached path at once.
#   deploy/llama-server-build.sh            # build if missing, print the path
# Env: FLOWSQL_CACHE (~/.cache/flowsql), LLAMA_NODE_PACKAGE (node-llama-cpp@3.22.1), LLAMA_BUILD_JOBS (nproc),
#      FLOWSQL_INSTALL_TOOLS=1 (install cmake, g++, git and npm with apt-get when missing; .ci/run sets it).
set -euo pipefail

PACKAGE="${LLAMA_NODE_PACKAGE:-node-llama-cpp@3.22.1}"
CACHE_DIR="${FLOWSQL_CACHE:-$HOME/.cache/flowsql}/llama.cpp"
JOBS="${LLAMA_BUILD_JOBS:-$(nproc)}"
# One folder per package version, so changing the pin builds afresh and never mixes two trees.
TARGET_DIR="$CACHE_DIR/${PACKAGE//[^A-Za-z0-9._-]/_}"
BINARY="$TARGET_DIR/bin/llama-server"

say() { printf '[llama-server-build] %s\n' "$*" >&2; }

if [[ -x "$BINARY" ]]; then
  echo "$BINARY"
  exit 0
fi

install_tools() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v g++ >/dev/null || missing+=(g++)
  command -v git >/dev/null || missing+=(git)
  command -v npm >/dev/null || missing+=(npm)
  command -v make >/dev/null || missing+=(make)
  [[ ${#missing[@]} == 0 ]] && return 0
  if [[ "${FLOWSQL_INSTALL_TOOLS:-0}" != 1 ]]; then
    say "missing build tools: ${missing[*]} (install them, or rerun with FLOWSQL_INSTALL_TOOLS=1 to use apt-get)"
    exit 1
  fi
  local sudo=()
  [[ $(id -u) != 0 ]] && sudo=(sudo)
  say "installing ${missing[*]} with apt-get ..."
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

mkdir -p "$CACHE_DIR"
# Two builds at once (two worktrees, two CI jobs) wait for each other instead of compiling twice.
exec 9>"$CACHE_DIR/.build.lock"
flock 9
if [[ -x "$BINARY" ]]; then
  echo "$BINARY"
  exit 0
fi
install_tools

WORK="$(mktemp -d "$CACHE_DIR/.build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
started=$(date +%s)
say "fetching $PACKAGE from npm ..."
(cd "$WORK" && npm pack --silent "$PACKAGE" >/dev/null)
tar -xzf "$WORK"/*.tgz -C "$WORK" package/llama/gitRelease.bundle
git -c advice.detachedHead=false clone --quiet "$WORK/package/llama/gitRelease.bundle" "$WORK/src" >&2
[[ -f "$WORK/src/CMakeLists.txt" ]] || { say "the bundle held no llama.cpp tree"; exit 1; }
commit="$(git -C "$WORK/src" rev-parse --short HEAD)"
say "building llama-server (llama.cpp $commit) with $JOBS jobs; this takes ~5 minutes on 2 cores ..."
cmake -S "$WORK/src" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_CURL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
  > "$WORK/cmake.log" 2>&1 || { tail -30 "$WORK/cmake.log" >&2; exit 1; }
cmake --build "$WORK/build" --target llama-server -j "$JOBS" > "$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log" >&2; exit 1; }
mkdir -p "$WORK/out/bin"
cp "$WORK/build/bin/llama-server" "$WORK/out/bin/"
echo "$PACKAGE llama.cpp $commit" > "$WORK/out/VERSION"
rm -rf "$TARGET_DIR"
mv "$WORK/out" "$TARGET_DIR"
say "built in $(( $(date +%s) - started )) s: $BINARY"
echo "$BINARY"
