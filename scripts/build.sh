#!/usr/bin/env bash
# Installs what is missing, then configures and builds redist.
#   scripts/build.sh                 Release build in build/
#   REDIST_SANITIZE=1 scripts/build.sh   ASan+UBSan build in build-asan/
#   Progress goes to stderr; the last line on stdout is the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh >&2

if [ "${REDIST_SANITIZE:-0}" = 1 ]; then
  build_dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_SANITIZE=ON)
else
  build_dir=build
  flags=(-DCMAKE_BUILD_TYPE=Release)
fi
cmake -S . -B "$build_dir" -G Ninja "${flags[@]}" >&2
cmake --build "$build_dir" -j "$(nproc)" >&2
echo "$build_dir"
