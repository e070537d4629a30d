#!/usr/bin/env bash
# `redist check` on long plans (docs/results.md, "Long plans"): wall time and verdicts
# of the plans of bench/long_plan.py with 16 to 128 steps, right and with one wrong
# step in the middle. Median of 3 runs.
#   bench/long_plans.sh [redist-binary]
set -euo pipefail
redist=${1:-build/tools/redist}
here=$(dirname "$0")
echo "| steps | plan | time | correct | memory | no_peak | transfers |"
echo "|---|---|---|---|---|---|---|"
for n in 16 32 64 128; do
  for kind in right wrong; do
    wrong=0; [ $kind = wrong ] && wrong=$((n / 2 + 1))
    plan=$(mktemp); "$here/long_plan.py" "$n" "$wrong" > "$plan"
    times=()
    for _ in 1 2 3; do
      start=$(date +%s.%N)
      out=$("$redist" check --plan "$plan" --json || true)
      times+=("$(echo "$(date +%s.%N) - $start" | bc)")
    done
    t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
    v=$(echo "$out" | python3 -c 'import json,sys; v=json.load(sys.stdin)["verdict"]; print(" | ".join(v[k] for k in ("correct","memory","no_peak","transfers")))')
    printf '| %s | %s | %.2f s | %s |\n' "$n" "$kind" "$t" "$v"
    rm -f "$plan"
  done
done
