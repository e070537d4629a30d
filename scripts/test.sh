#!/usr/bin/env bash
# Quick start 2: install, build, and run every test through ctest, then install the
# Python package into .venv (`pip install .`) and run its pytest suite.
#   REDIST_SANITIZE=1 scripts/test.sh   runs the ctest suite under ASan+UBSan (the
#                                       Python package is tested in the plain run).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(bash scripts/build.sh | tail -n 1)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
(cd "$build_dir" && ctest -j "$(nproc)" --output-on-failure)

if [ "${REDIST_SANITIZE:-0}" != 1 ]; then
  # The build tools are pinned in .venv by scripts/setup-python.sh, hence no isolation;
  # scikit-build-core keeps its build in build-python/ (incremental).
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
    .venv/bin/python -m pip install --quiet --no-build-isolation .
  .venv/bin/python -m pytest -q tests/python
fi
