#!/usr/bin/env bash
# Installs what is missing, then configures and builds redist.
#   scripts/build.sh                     Release build in build/ (g++)
#   REDIST_SANITIZE=1 scripts/build.sh   ASan+UBSan build in build-asan/ (clang-14): the
#                                        tests and the libFuzzer targets in one tree
#   scripts/build.sh TARGET...           only these targets (scripts/fuzz.sh)
#   Progress goes to stderr; the last line on stdout is the build directory.
# Both builds share ccache's cache with the Python package's build (build-python/):
# CCACHE_BASEDIR makes paths relative, and build/ and build-python/ sit at the same depth,
# so `pip install .` after a Release build recompiles only the extension module.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh >&2

export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ "${REDIST_SANITIZE:-0}" = 1 ]; then
  build_dir=build-asan
  # clang compiles the sanitized tree in well under half of g++'s time, and libFuzzer
  # needs it anyway; -O1 with line tables is what ASan's reports need.
  export CC=${CC:-clang-14} CXX=${CXX:-clang++-14}
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
         -DREDIST_SANITIZE=ON -DREDIST_FUZZ=ON -DREDIST_BENCH=OFF)
else
  build_dir=build
  export CXX=${CXX:-g++}
  flags=(-DCMAKE_BUILD_TYPE=Release)
fi
cmake -S . -B "$build_dir" -G Ninja "${flags[@]}" >&2
cmake --build "$build_dir" -j "$(nproc)" ${1:+--target "$@"} >&2
echo "$build_dir"
