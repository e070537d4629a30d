#!/usr/bin/env python3
"""Plots the weight-sync benchmark (docs/results.md "Weight sync between device sets").

Reads the Markdown tables that `mpi_bench --weight-sync [--replicas 2]` prints (one or
more runs, each a file holding the tables of both inference layouts) and draws, per
inference layout and method, the median time of every run and the bytes that cross
from the trainer's ranks to the inference ranks.

    python3 bench/plot_weight_sync.py run1.txt run2.txt -o docs/img/weight_sync.png

Needs matplotlib (Debian: python3-matplotlib, installed by scripts/setup.sh).
"""

from __future__ import annotations

import argparse
import re
import sys

try:
    import matplotlib
except ImportError:
    sys.exit("plot_weight_sync.py needs matplotlib: apt-get install python3-matplotlib (scripts/setup.sh)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_tables(path: str) -> dict[str, dict[str, tuple[float, float]]]:
    """{inference layout: {method: (MiB crossing, median ms)}} of one run's file."""
    tables: dict[str, dict[str, tuple[float, float]]] = {}
    layout = None
    with open(path) as f:
        for line in f:
            m = re.search(r" to (\{.*?\} devices=\[[0-9,]+\])", line)
            if line.startswith("weight sync:") and m:
                layout = m.group(1)
                tables[layout] = {}
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if layout and len(cells) == 5 and re.match(r"^[0-9.]+$", cells[3]):
                tables[layout][cells[0]] = (float(cells[2]), float(cells[3]))
    if not tables:
        sys.exit(f"{path}: no weight-sync table")
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="files with mpi_bench --weight-sync output")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    runs = [read_tables(p) for p in args.runs]
    layouts = list(runs[0])
    fig, axes = plt.subplots(2, len(layouts), figsize=(5.5 * len(layouts), 7), squeeze=False)
    for col, layout in enumerate(layouts):
        methods = list(runs[0][layout])
        x = range(len(methods))
        ax = axes[0][col]
        for r, run in enumerate(runs):
            ax.scatter(x, [run[layout][m][1] for m in methods], label=f"run {r + 1}", marker="o^sd"[r % 4])
        ax.set_title(f"to {layout}", fontsize=9)
        ax.set_ylabel("median ms (slowest rank)")
        ax.set_ylim(bottom=0)
        ax.set_xticks(list(x), [])
        ax.legend(fontsize=8)
        ax = axes[1][col]
        ax.bar(list(x), [runs[0][layout][m][0] for m in methods], color="tab:gray")
        ax.set_ylabel("MiB trainer -> inference (all ranks)")
        ax.set_xticks(list(x), [m.replace(" (", "\n(").replace(" + ", "\n+ ") for m in methods], fontsize=7)
    fig.suptitle("256 MiB weight sync, {fsdp:4} on ranks 0-3 to ranks 4-7 (8-rank MPI job, shared memory)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
