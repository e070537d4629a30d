#!/usr/bin/env bash
# The long soak of the checker's time bound (docs/z3.md), for docs/results.md: the
# suite's soak test (tests/verify/solver_soak_test.cpp) run for up to SOAK_SECONDS
# (default 300) or SOAK_QUERIES solver queries (default 100,000), whichever comes first.
# Every query must return within its 1-50 ms timeout plus one second.
#   bench/soak.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j 2 --target verify_soak_tests > /dev/null
REDIST_SOAK_SECONDS=${SOAK_SECONDS:-300} REDIST_SOAK_QUERIES=${SOAK_QUERIES:-100000} \
  "$build"/tests/verify/verify_soak_tests | grep -E '^soak:|OK|FAILED|Failure'
