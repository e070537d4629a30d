"""XLA's own plans, imported and proved (ctest `xla_foreign_plans`, label `xla`).

For every anchor the XLA harness runs (those that fit in 8 devices) and the same seeded
random cases, XLA's reshard is compiled with jax.jit (python/redist_xla/xla_plans.py),
its compiled HLO is fed to `redist check --from-hlo`, and the verdict is asserted:
correct must be proved, or refuted with a counterexample that the replay on the module
confirms. Every other verdict and the G3 figures are printed. Cases jax.jit cannot
express (another device order, non-divisible dims) are listed as skipped; cases the
importer refuses fail the run. A plan whose G1 the checker leaves unknown because it does
not encode a step kind (reductions, docs/checker.md) is listed as a limit, not a pass.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from redist_xla import xla  # noqa: F401  (sets XLA_FLAGS before jax loads)
from redist_xla.anchors import read_anchors
from redist_xla.random_cases import random_cases
from redist_xla.xla_plans import compiled_hlo, unsupported

KNOWN_LIMITS = ()  # importer refusals that do not fail the run (none)


def check_one(redist: str, hlo: str) -> tuple[int, dict | None, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".hlo", delete=False) as f:
        f.write(hlo)
        path = f.name
    try:
        run = subprocess.run([redist, "check", "--from-hlo", path, "--json"], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(path)
    report = json.loads(run.stdout) if run.returncode in (0, 1) and run.stdout.strip() else None
    return run.returncode, report, run.stderr.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--redist", required=True)
    parser.add_argument("--anchors", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()

    cases = [("anchor " + name, case) for name, case in read_anchors(args.anchors, xla.NUM_CPU_DEVICES)]
    cases += [(f"random seed {args.seed} #{i}", c) for i, c in enumerate(random_cases(args.seed, args.count))]
    failed = proved = refuted = skipped = limits = 0
    for name, case in cases:
        why = unsupported(case)
        if why:
            skipped += 1
            print(f"SKIP {name}: {case.label()}: {why}")
            continue
        code, report, err = check_one(args.redist, compiled_hlo(case))
        if report is None:
            known = code == 2 and any(k in err for k in KNOWN_LIMITS)
            limits += known
            failed += not known
            print(f"{'LIMIT' if known else 'FAIL'} {name}: {case.label()}: exit {code}: {err}")
            continue
        v = report["verdict"]
        if v["correct"] == "unknown" and "does not encode" in v.get("correct_detail", ""):
            limits += 1
            print(f"LIMIT {name}: {case.label()}: imported; the checker: {v['correct_detail']}")
            continue
        ok = v["correct"] == "proved" or (v["correct"] == "refuted" and v.get("counterexample_confirmed") is True)
        proved += v["correct"] == "proved"
        refuted += v["correct"] == "refuted"
        failed += not ok
        steps = " ".join(s["op"] for s in report["steps"]) or "(nothing)"
        print(f"{'PASS' if ok else 'FAIL'} {name}: {case.label()}\n"
              f"    XLA: {steps}; correct {v['correct']}, memory {v['memory']}, no_peak {v['no_peak']}, "
              f"transfers {v['transfers']}; received {v['recv_bytes_max']} B vs lower bound "
              f"{v['lower_bound_bytes_max']} B ({v['received_over_lower_bound']}x)")
        sys.stdout.flush()
    print(f"{proved} proved, {refuted} refuted (confirmed), {limits} at a known import limit, {skipped} skipped, "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
