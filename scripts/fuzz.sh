#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan + UBSan) in build-fuzz/ and runs
# each for a bounded time from its seed corpus (fuzz/seeds/<parser>/).
#   scripts/fuzz.sh                  every target for 60 s (CI: FUZZ_SECONDS=30, 6 targets)
#   FUZZ_SECONDS=600 scripts/fuzz.sh a longer run (docs/results.md records one)
#   FUZZ_RUNS=1000000 scripts/fuzz.sh  a fixed number of executions per target instead
# Any crash, leak, UB report or input taking over 1 s fails the run (exit 1); the
# reproducer is left in build-fuzz/findings/. Needs clang-14 and libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:--1}
jobs=${FUZZ_BUILD_JOBS:-2}
export CC=${CC:-clang-14} CXX=${CXX:-clang++-14}
if ! command -v "$CXX" > /dev/null; then
  echo "fuzz.sh: $CXX not found: apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 2
fi

targets=(mesh type plan cost_model notation hlo_import)
mkdir -p build-fuzz
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_FUZZ=ON \
  -DREDIST_TESTS=OFF -DREDIST_BENCH=OFF > build-fuzz/build.log 2>&1 || { cat build-fuzz/build.log >&2; exit 2; }
cmake --build build-fuzz -j "$jobs" --target "${targets[@]/#/fuzz_}" >> build-fuzz/build.log 2>&1 ||
  { tail -50 build-fuzz/build.log >&2; exit 2; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p build-fuzz/findings
status=0
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  log=build-fuzz/fuzz_$t.log
  # New inputs go to the scratch corpus; the checked-in seeds are only read.
  if ! build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -runs="$runs" -timeout=1 -rss_limit_mb=2048 \
      -max_len=4096 -print_final_stats=1 -artifact_prefix=build-fuzz/findings/"$t"- \
      "$corpus" fuzz/seeds/"$t" > "$log" 2>&1; then
    echo "fuzz_$t: FAILED (see $log and build-fuzz/findings/)" >&2
    tail -40 "$log" >&2
    status=1
    continue
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz_$t: ${execs:-?} executions, no crash, leak, UB or slow input"
done
exit $status
