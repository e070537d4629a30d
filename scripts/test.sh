#!/usr/bin/env bash
# Quick start 2: install, build, and run every test through ctest.
#   REDIST_SANITIZE=1 scripts/test.sh   runs the suite under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(bash scripts/build.sh | tail -n 1)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
cd "$build_dir"
ctest -j "$(nproc)" --output-on-failure
