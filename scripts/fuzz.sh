#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan + UBSan) in build-asan/ and runs
# each for a bounded time from its seed corpus (fuzz/seeds/<parser>/).
#   scripts/fuzz.sh                  every target for 60 s (CI: FUZZ_SECONDS=30, 6 targets)
#   FUZZ_SECONDS=600 scripts/fuzz.sh a longer run (docs/results.md records one)
#   FUZZ_RUNS=1000000 scripts/fuzz.sh  a fixed number of executions per target instead
# Any crash, leak, UB report or input taking over 1 s fails the run (exit 1); the
# reproducer is left in build-asan/findings/. Needs clang-14 and libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:--1}
targets=(mesh type plan cost_model notation hlo_import)
# The sanitized tree of scripts/build.sh (clang-14) holds the fuzz targets beside the
# tests: after `REDIST_SANITIZE=1 scripts/test.sh` (CI) there is nothing left to build.
build_log=$(mktemp)
build_dir=$(REDIST_SANITIZE=1 bash scripts/build.sh "${targets[@]/#/fuzz_}" 2> "$build_log" | tail -n 1) ||
  { tail -50 "$build_log" >&2; exit 2; }
rm -f "$build_log"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p "$build_dir"/findings
status=0
for t in "${targets[@]}"; do
  corpus="$build_dir"/corpus/$t
  mkdir -p "$corpus"
  log="$build_dir"/fuzz_$t.log
  # New inputs go to the scratch corpus; the checked-in seeds are only read.
  if ! "$build_dir"/fuzz/fuzz_"$t" -max_total_time="$seconds" -runs="$runs" -timeout=1 -rss_limit_mb=2048 \
      -max_len=4096 -print_final_stats=1 -artifact_prefix="$build_dir"/findings/"$t"- \
      "$corpus" fuzz/seeds/"$t" > "$log" 2>&1; then
    echo "fuzz_$t: FAILED (see $log and $build_dir/findings/)" >&2
    tail -40 "$log" >&2
    status=1
    continue
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz_$t: ${execs:-?} executions, no crash, leak, UB or slow input"
done
exit $status
