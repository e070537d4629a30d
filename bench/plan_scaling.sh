#!/usr/bin/env bash
# `redist plan` wall time and peak memory against the device count (docs/results.md,
# "Plan figures against device count"): a swap of two tiled dims (all_to_all +
# collective_permute, whose receipts and LB(d) differ per device) and a gather, on
# meshes {x:a, y:b} of 2^10 to 2^30 devices. Median of 3 runs.
#   bench/plan_scaling.sh [redist-binary]
set -euo pipefail
redist=${1:-build/tools/redist}
echo "| devices | swap: time | swap: peak RSS | gather: time | gather: peak RSS |"
echo "|---|---|---|---|---|"
for e in 10 16 20 21 22 23 24 30; do
  h=$((e / 2)); a=$((1 << h)); b=$((1 << (e - h)))
  row="| 2^$e |"
  for kind in swap gather; do
    if [ $kind = swap ]; then dst="f32[{y}$((a * 4)), {x}$((b * 4))]"; else dst="f32[$((a * 4)), {y}$((b * 4))]"; fi
    samples=()
    for _ in 1 2 3; do
      samples+=("$( { /usr/bin/time -f '%e %M' "$redist" plan --mesh "{x:$a, y:$b}" \
        "f32[{x}$((a * 4)), {y}$((b * 4))]" "$dst" > /dev/null; } 2>&1 | tail -1)")
    done
    median=$(printf '%s\n' "${samples[@]}" | sort -n | sed -n 2p)
    row="$row $(echo "$median" | awk '{printf "%.2f s | %.0f MB |", $1, $2 / 1024}')"
  done
  echo "$row"
done
