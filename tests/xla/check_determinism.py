"""Determinism of reductions on XLA:CPU (ctest `xla_determinism`): the synthesized plan
of f32[256] sum{dp,tp} -> f32[256] on {dp:2, tp:4} (one all-reduce over the flattened
group), emitted as StableHLO and as HLO, run on f32 summands of magnitudes 1e-3 to 1e7
whose sum depends on the order of the additions (checked); every device's result must
be bitwise identical to device 0's and within f32 rounding of the exact sum (8 terms:
7 roundings of at most 2^-24 times the sum of magnitudes)."""

from __future__ import annotations

import argparse
import subprocess
import sys

import numpy as np

from redist_xla import xla

MESH, SRC, DST = "{dp:2, tp:4}", "f32[256] sum{dp,tp}", "f32[256]"


def summands() -> np.ndarray:
    r = np.arange(8)[:, None]
    i = np.arange(256)[None, :]
    scale = np.power(10.0, (r * 3 + i) % 11 - 3)
    return (scale * (((r * 7 + i * 13) % 17) - 8.0 + 0.37 * r)).astype(np.float32)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--redist", required=True)
    args = parser.parse_args()
    data = summands()
    up = np.zeros(256, np.float32)
    down = np.zeros(256, np.float32)
    for r in range(8):
        up += data[r]
        down += data[7 - r]
    order_dependent = int(np.count_nonzero(up != down))
    print(f"elements whose f32 sum depends on the order: {order_dependent} of 256")
    if order_dependent < 32:
        print("FAIL: the data sums nearly associatively")
        return 1
    exact = data.astype(np.float64).sum(axis=0)
    tolerance = 7 * 2.0**-24 * np.abs(data.astype(np.float64)).sum(axis=0)
    failed = False
    for target in ("stablehlo", "hlo"):
        plan = subprocess.run([args.redist, "plan", "--mesh", MESH, SRC, DST], capture_output=True, text=True)
        if "all_reduce(axes={dp,tp})" not in plan.stdout:
            print(f"FAIL: the plan is not one all-reduce over (dp, tp):\n{plan.stdout}{plan.stderr}")
            return 1
        emitted = subprocess.run([args.redist, "emit", "--target", target, "--mesh", MESH, SRC, DST],
                                 capture_output=True, text=True, check=True)
        module = emitted.stdout if target == "stablehlo" else xla.hlo_text_to_stablehlo(emitted.stdout)
        executable = xla.compile_module(module, 8)
        outputs = xla.execute(executable, xla.place([data[d][np.newaxis] for d in range(8)]))
        first = np.asarray(outputs[0]).reshape(-1)
        same = all(np.asarray(o).reshape(-1).tobytes() == first.tobytes() for o in outputs)
        close = bool(np.all(np.abs(first.astype(np.float64) - exact) <= tolerance))
        print(f"[{target}] replicas bitwise identical: {same}; within rounding of the exact sum: {close}")
        failed |= not (same and close)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
