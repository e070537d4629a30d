"""What XLA's own reshard plans cost, proved: the table of docs/results.md "XLA's own
plans, checked".

For every case the XLA harness runs (the anchors that fit in 8 devices and the seeded
random set of tests/xla, seed 1, 40 cases), XLA's reshard is compiled with jax.jit
(python/redist_xla/xla_plans.py) and its compiled HLO goes through `redist check
--from-hlo --json`: verdicts (G1 correct, G2 memory within max(source, target), G3a
no_peak, G3b transfers) and the bytes one device receives against the lower bound
LB. Next to it, redist's own plan of the same case (`redist prove --json`). A plan is a
*full rematerialization* when some state of it holds the whole array on every device
although neither the source nor the target is replicated; the bytes it wastes are
received - LB on the device that receives most. Prints a Markdown table and a summary.

    .venv/bin/python bench/xla_plans_report.py --redist build/tools/redist [--seed 1 --count 40]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from redist_xla import xla  # noqa: E402  (sets XLA_FLAGS before jax loads)
from redist_xla.anchors import read_anchors  # noqa: E402
from redist_xla.notation import parse_mesh, parse_type  # noqa: E402
from redist_xla.random_cases import random_cases  # noqa: E402
from redist_xla.semantics import NUMPY_DTYPES  # noqa: E402
from redist_xla.xla_plans import compiled_hlo, unsupported  # noqa: E402

import numpy as np  # noqa: E402


def run_json(cmd: list[str]) -> tuple[int, dict | None, str]:
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    try:
        return run.returncode, json.loads(run.stdout), run.stderr.strip()
    except json.JSONDecodeError:
        return run.returncode, None, run.stderr.strip() or run.stdout.strip()


def ratio(recv: str, lb: str) -> str:
    r, b = int(recv), int(lb)
    return "1.00" if r == b == 0 else ("inf" if b == 0 else f"{r / b:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redist", required=True)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    parser.add_argument("--anchors", default=os.path.join(root, "tests", "data", "anchors.txt"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()

    cases = [(name, c) for name, c in read_anchors(args.anchors, xla.NUM_CPU_DEVICES)]
    cases += [(f"random{i}", c) for i, c in enumerate(random_cases(args.seed, args.count))]
    print("| case | XLA's plan | G1 | G2 | G3a | G3b | XLA recv B | LB B | XLA/LB | full remat (wasted B) "
          "| redist's plan | redist recv B | redist/LB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    left_out, counts = [], {"cases": 0, "correct": 0, "memory": 0, "no_peak": 0, "tight": 0, "remat": 0,
                            "at_lb": 0, "redist_at_lb": 0, "worse": 0, "better": 0}
    wasted_total = 0
    for name, case in cases:
        why = unsupported(case)
        if why:
            left_out.append(f"{name} ({case.label()}): {why}")
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".hlo", delete=False) as f:
            f.write(compiled_hlo(case))
            path = f.name
        code, xr, err = run_json([args.redist, "check", "--from-hlo", path, "--json"])
        os.unlink(path)
        if xr is None:
            why = (err.splitlines()[-1] if err else str(code)).replace(path, "FILE")
            left_out.append(f"{name} ({case.label()}): not imported: {why}")
            continue
        cmd = [args.redist, "prove", "--mesh", case.mesh, case.src, case.dst, "--json"]
        code, rr, err = run_json(cmd)
        v = xr["verdict"]
        mesh = parse_mesh(case.mesh)
        src, dst = parse_type(case.src, mesh), parse_type(case.dst, mesh)
        itemsize = np.dtype(NUMPY_DTYPES[src.elem]).itemsize
        whole = itemsize * int(np.prod([d.size for d in src.dims]))
        replicated = all(not d.axes for d in src.dims) or all(not d.axes for d in dst.dims)
        remat = not replicated and int(v["peak_local_bytes"]) >= whole
        wasted = int(v["recv_bytes_max"]) - int(v["lower_bound_bytes_max"])
        counts["cases"] += 1
        for k in ("correct", "memory", "no_peak"):
            counts[k] += v[k] == "proved"
        counts["tight"] += v["transfers"] == "tight"
        counts["remat"] += remat
        counts["at_lb"] += wasted == 0
        xla_steps = " ".join(s["op"] for s in xr["steps"]) or "-"
        if rr is not None:
            red_steps = " ".join(s["op"] if isinstance(s, dict) and "op" in s else str(s).split("(")[0]
                                 for s in rr["steps"]) or "-"
            red_recv = rr["recv_bytes_max"]
            red_ratio = ratio(red_recv, rr["lower_bound_bytes_max"])
            counts["redist_at_lb"] += int(red_recv) == int(rr["lower_bound_bytes_max"])
            counts["worse"] += int(v["recv_bytes_max"]) > int(red_recv)
            counts["better"] += int(v["recv_bytes_max"]) < int(red_recv)
        else:
            red_steps, red_recv, red_ratio = f"no plan (exit {code})", "-", "-"
        if remat:
            wasted_total += wasted
        print(f"| {name} `{case.mesh} {case.src} -> {case.dst}` | {xla_steps} | {v['correct']} | {v['memory']} | "
              f"{v['no_peak']} | {v['transfers']} | {v['recv_bytes_max']} | {v['lower_bound_bytes_max']} | "
              f"{ratio(v['recv_bytes_max'], v['lower_bound_bytes_max'])} | {f'yes ({wasted})' if remat else 'no'} | "
              f"{red_steps} | {red_recv} | {red_ratio} |")
        sys.stdout.flush()
    c = counts
    print()
    print(f"{c['cases']} XLA plans checked: correct proved on {c['correct']}, memory within max(src, dst) on "
          f"{c['memory']}, no_peak on {c['no_peak']}, transfers tight on {c['tight']}; received == LB on "
          f"{c['at_lb']} (redist: {c['redist_at_lb']}); XLA receives more than redist on {c['worse']}, less on "
          f"{c['better']}; "
          f"{c['remat']} full rematerializations wasting {wasted_total} bytes on the busiest device in all.")
    for line in left_out:
        print(f"- left out {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
