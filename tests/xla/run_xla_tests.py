"""The XLA checks of the HLO/StableHLO backend (ctest label `xla`): every hand-written
plan in tests/xla/plans, every anchor that fits in 8 devices, and a seeded set of random
cases, each emitted as StableHLO and as HLO, compiled and run on XLA:CPU with 8 devices
and compared element by element with the target type. Cases the synthesizer declines
(exit 3) are listed as skipped; a case that emits but mismatches or fails to compile
fails the run, and so does a run in which too few random cases got a plan."""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

from redist_xla import xla
from redist_xla.anchors import read_anchors
from redist_xla.check import Case, check, plan_case
from redist_xla.random_cases import random_cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--redist", required=True)
    parser.add_argument("--anchors", required=True)
    parser.add_argument("--plans", default="", help="folder of *.plan files (none when empty)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40, help="random cases")
    parser.add_argument("--min-planned", type=float, default=0.5,
                        help="fraction of random cases that must get a plan")
    parser.add_argument("--targets", default="stablehlo,hlo")
    parser.add_argument("--exclude", default="", help="comma-separated anchor names not to run")
    args = parser.parse_args()

    cases: list[tuple[str, str, Case]] = []
    for path in sorted(glob.glob(os.path.join(args.plans, "*.plan"))) if args.plans else []:
        cases.append(("plan", os.path.basename(path), plan_case(path)))
    excluded = set(filter(None, args.exclude.split(",")))
    for name, case in read_anchors(args.anchors, xla.NUM_CPU_DEVICES):
        if name not in excluded:
            cases.append(("anchor", name, case))
    for i, case in enumerate(random_cases(args.seed, args.count)):
        cases.append(("random", f"seed {args.seed} #{i}", case))

    counts = {"ok": 0, "failed": 0, "no plan": 0}
    random_planned = 0
    for target in args.targets.split(","):
        for kind, name, case in cases:
            start = time.perf_counter()
            outcome = check(args.redist, case, target)
            counts[outcome.status] += 1
            random_planned += kind == "random" and outcome.status != "no plan"
            status = {"ok": "PASS", "failed": "FAIL", "no plan": "SKIP"}[outcome.status]
            print(f"{status} [{target}] {kind} {name}: {case.label()} ({time.perf_counter() - start:.2f}s)")
            if outcome.detail:
                print("    " + outcome.detail.replace("\n", "\n    "))
            sys.stdout.flush()

    random_total = args.count * len(args.targets.split(","))
    print(f"random cases with a plan: {random_planned} of {random_total}")
    too_few = random_total and random_planned < args.min_planned * random_total
    if too_few:
        print(f"FAIL: fewer than {args.min_planned:.0%} of the random cases got a plan")
    print(f"{counts['ok']} passed, {counts['failed'] + bool(too_few)} failed, {counts['no plan']} skipped")
    return 1 if counts["failed"] or too_few else 0


if __name__ == "__main__":
    sys.exit(main())
