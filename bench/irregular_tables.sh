#!/usr/bin/env bash
# `redist check` on irregular explicit tables (docs/results.md, "Irregular tables"):
# wall time and the correct verdict of the plans of bench/irregular_plan.py, right and
# wrong, from 1,024 to 65,536 devices, at the default timeout (10 s per property).
# One run each.
#   bench/irregular_tables.sh [redist-binary]
set -euo pipefail
redist=${1:-build/tools/redist}
here=$(dirname "$0")
echo "| table | devices | right: time | right: correct | wrong: time | wrong: correct |"
echo "|---|---|---|---|---|---|"
for kind in gather permute; do
  for n in 1024 4096 16384 65536; do
    row="| $kind | $n |"
    for w in right wrong; do
      plan=$(mktemp); "$here/irregular_plan.py" $kind $n $w > "$plan"
      start=$(date +%s.%N)
      out=$("$redist" check --plan "$plan" --json || true)
      t=$(echo "$(date +%s.%N) - $start" | bc)
      v=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"]["correct"])')
      row="$row $(printf '%.2f s' "$t") | $v |"
      rm -f "$plan"
    done
    echo "$row"
  done
done
