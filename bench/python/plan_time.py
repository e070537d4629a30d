"""Plan time from Python: the in-process module (redist.plan) against the CLI as a
subprocess (`redist plan`), the way a JAX user called redist before the package. The
CLI also computes the plan's figures (it prints them), so the in-process plan is timed
alone and with .figures().
Alternating rounds, medians; one line per case and the ratio CLI / in-process.

    .venv/bin/python bench/python/plan_time.py --redist build/tools/redist [--rounds 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

import redist

CASES = [
    ("swap_diff_size_axes", "{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{y}16, {x}8]"),
    ("jax21562_full_remat", "{x:4, y:2}", "f32[{y}16, 16, {x}16]", "f32[16, {x,y}16, 16]"),
    ("four_axes_transpose", "{x1:2, x2:2, y1:3, y2:2}", "f32[{x2,x1}12, {y2,y1}12]", "f32[{y2,y1}12, {x2,x1}12]"),
    ("pod_scale_transpose", "{a:16, b:16, c:16, d:16}", "bf16[{a,b}65536, {c}65536, {d}1024]",
     "bf16[{d}65536, {a,b,c}65536, 1024]"),
]


def timed(fn, repeat: int) -> float:
    """Microseconds per call over `repeat` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--redist", required=True, help="the redist CLI")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--inner", type=int, default=20, help="in-process calls per round (each column)")
    args = parser.parse_args()
    print("| case | in-process, parsed objects (us) | in-process, from strings (us) "
          "| in-process, strings + figures (us) | CLI subprocess (us) | CLI / in-process (strings) "
          "| CLI / in-process (strings + figures) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, mesh_text, src_text, dst_text in CASES:
        mesh = redist.parse_mesh(mesh_text)
        src, dst = redist.parse_type(src_text, mesh), redist.parse_type(dst_text, mesh)
        cli = [args.redist, "plan", "--mesh", mesh_text, src_text, dst_text]
        expected = str(redist.plan(mesh, src, dst))
        out = subprocess.run(cli, check=True, capture_output=True, text=True).stdout
        # The CLI prints the same plan (its text lines, without the # comments).
        assert [l for l in out.splitlines() if l and not l.startswith("#")] == expected.splitlines(), out
        objects, strings, figures, subprocs = [], [], [], []
        for _ in range(args.rounds):  # alternate the three in every round
            objects.append(timed(lambda: redist.plan(mesh, src, dst), args.inner))
            strings.append(timed(lambda: redist.plan(mesh_text, src_text, dst_text), args.inner))
            figures.append(timed(lambda: redist.plan(mesh_text, src_text, dst_text).figures(), args.inner))
            subprocs.append(timed(lambda: subprocess.run(cli, check=True, capture_output=True), 1))
        o, s, c = statistics.median(objects), statistics.median(strings), statistics.median(subprocs)
        f = statistics.median(figures)
        print(f"| {name} | {o:.1f} | {s:.1f} | {f:.1f} | {c:.0f} | {c / s:.0f}x | {c / f:.0f}x |")


if __name__ == "__main__":
    main()
