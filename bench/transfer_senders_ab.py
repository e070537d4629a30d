#!/usr/bin/env python3
"""A/B of two redist builds on the senders of transfers between device sets under a cost
model with nodes (docs/results.md "Senders of a transfer").

Random pairs: a source `{r:R, x:X}` (replicated over r) on R*X of the ids 0-15 to a
target `{y:Y}` on Y other or overlapping ids, nodes of 2 or 4 ids, the inter class at
25, 100, 250 or 300 GB/s and 1 or 5 us. Each build plans each pair (`redist plan
--cost-model`), and the modeled times are compared.

    python3 bench/transfer_senders_ab.py --old OLD/redist --new build/tools/redist --count 400
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import tempfile


def modeled(redist: str, args: list[str]) -> float:
    out = subprocess.run([redist, "plan", *args], capture_output=True, text=True, check=True)
    return float(re.search(r"modeled time: ([0-9.e+-]+) us", out.stdout).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    faster, slower, ratios, compared = 0, 0, [], 0
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "model.cost")
        for _ in range(args.count):
            node_size = rng.choice([2, 4])
            with open(model, "w") as f:
                f.write(f"transfer.node_size = {node_size}\ninter.bandwidth_gbps = {rng.choice([25, 100, 250, 300])}\n"
                        f"inter.latency_us = {rng.choice([1, 5])}\n")
            r, x, y = rng.choice([2, 3, 4]), rng.choice([1, 2, 4]), rng.choice([2, 4, 8])
            ids = list(range(16))
            rng.shuffle(ids)
            src_ids = sorted(ids[: r * x]) if rng.random() < 0.5 else ids[: r * x]
            pool = ids[:] if rng.random() < 0.5 else [i for i in range(16) if i not in src_ids]
            if len(pool) < y:
                continue
            dst_ids = rng.sample(pool, y)
            if sorted(dst_ids) == sorted(src_ids):
                continue
            rows, cols = 8 * r * x * y, 8 * y
            src = f"f32[{{x}}{rows}, {cols}]" if x > 1 else f"f32[{rows}, {cols}]"
            dst = rng.choice([f"f32[{{y}}{rows}, {cols}]", f"f32[{rows}, {{y}}{cols}]"])
            pair = ["--cost-model", model, "--mesh", f"{{r:{r}, x:{x}}} devices=[{','.join(map(str, src_ids))}]",
                    "--target-mesh", f"{{y:{y}}} devices=[{','.join(map(str, dst_ids))}]", src, dst]
            old, new = modeled(args.old, pair), modeled(args.new, pair)
            compared += 1
            if new < old * (1 - 1e-9):
                faster += 1
                ratios.append(old / new)
            elif new > old * (1 + 1e-9):
                slower += 1
                print("slower:", " ".join(pair), old, new)
    print(f"{compared} pairs: new faster on {faster}, slower on {slower}")
    if ratios:
        print(f"old/new modeled time where faster: median {statistics.median(ratios):.3f}, max {max(ratios):.3f}")


if __name__ == "__main__":
    main()
