#!/usr/bin/env bash
# The long soak of the checker's time bound (docs/z3.md), for docs/results.md: the
# suite's soak test (tests/verify/solver_soak_test.cpp) run in SOAK_JOBS processes
# (default 2), each with its own seed, until SOAK_QUERIES solver queries in all (default
# 100,000) or SOAK_SECONDS (default 300), whichever comes first. Every query must return
# within its 1-50 ms timeout plus one second; a process that sees one that does not fails.
#   bench/soak.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${SOAK_JOBS:-2}
queries=${SOAK_QUERIES:-100000}
cmake --build "$build" -j 2 --target verify_soak_tests > /dev/null
logs=()
pids=()
for j in $(seq 1 "$jobs"); do
  log=$(mktemp)
  logs+=("$log")
  REDIST_SOAK_SEED=$((14 + j)) REDIST_SOAK_SECONDS=${SOAK_SECONDS:-300} \
    REDIST_SOAK_QUERIES=$(((queries + jobs - 1) / jobs)) \
    "$build"/tests/verify/verify_soak_tests --gtest_filter=SolverSoak.EveryCheckReturnsWithinItsTimeout > "$log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for log in "${logs[@]}"; do grep -E '^soak:|FAILED|Failure|took' "$log" || true; done
awk '/^soak:/ {c += $2; q += $4; u += substr($7, 2); a += $9; if ($12 > w) w = $12}
     END {printf "total: %d checks, %d solver queries (%d unknown, %d answered), worst %.1f ms past the timeout\n", c, q, u, a, w}' "${logs[@]}"
rm -f "${logs[@]}"
exit $status
