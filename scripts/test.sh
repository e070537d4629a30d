#!/usr/bin/env bash
# Quick start 2: install, build, and run every test through ctest, then install the
# Python package into .venv (`pip install .`) and run its pytest suite.
#   REDIST_SANITIZE=1 scripts/test.sh   runs the ctest suite under ASan+UBSan (clang-14,
#                                       build-asan/), less the solver soak tests, whose
#                                       timing limits are meant for optimized builds (the
#                                       Python package is tested in the plain run).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(bash scripts/build.sh | tail -n 1)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
if [ "${REDIST_SANITIZE:-0}" = 1 ]; then
  (cd "$build_dir" && ctest -j "$(nproc)" --output-on-failure -LE soak)
else
  (cd "$build_dir" && ctest -j "$(nproc)" --output-on-failure)
  # The build tools are pinned in .venv by scripts/setup-python.sh, hence no isolation;
  # scikit-build-core keeps its build in build-python/ (incremental), and the compiler
  # and CCACHE_BASEDIR match scripts/build.sh, so ccache serves the libraries' objects.
  CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CXX=${CXX:-g++} \
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
    .venv/bin/python -m pip install --quiet --no-build-isolation .
  .venv/bin/python -m pytest -q tests/python
fi
