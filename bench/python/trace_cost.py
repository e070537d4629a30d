"""What redist.jax.reshard costs while tracing: the plan, its Z3 proof (verify=True)
and the lowering happen once per (mesh, specs, shape, dtype) and are cached; later
traces only look the program up. Medians over --rounds, the cache cleared before each
uncached call.

    .venv/bin/python bench/python/trace_cost.py [--rounds 7]
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh as JaxMesh, NamedSharding, PartitionSpec as P  # noqa: E402

import redist.jax as rjax  # noqa: E402

CASES = [
    ("swap_diff_size_axes", (4, 2), ("x", "y"), (16, 8), P("x", "y"), P("y", "x")),
    ("jax21562_full_remat", (4, 2), ("x", "y"), (16, 16, 16), P("y", None, "x"), P(None, ("x", "y"), None)),
    ("replace_axis_2x3", (2, 3), ("x", "y"), (12, 12), P("x"), P("y")),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print("| case | first trace, verify=True (ms) | first trace, verify=False (ms) | cached (us) |")
    print("|---|---:|---:|---:|")
    for name, mesh_shape, axes, shape, src, dst in CASES:
        n = int(np.prod(mesh_shape))
        mesh = JaxMesh(np.array(jax.devices()[:n]).reshape(mesh_shape), axes)
        x = jax.ShapeDtypeStruct(shape, np.float32)
        target = NamedSharding(mesh, dst)
        times: dict[str, list[float]] = {"verify": [], "plain": [], "cached": []}
        for _ in range(args.rounds):
            for key, verify in (("verify", True), ("plain", False)):
                rjax._program.cache_clear()
                start = time.perf_counter()
                rjax.plan_for(x, target, src=src, verify=verify)
                times[key].append(time.perf_counter() - start)
            start = time.perf_counter()
            rjax.plan_for(x, target, src=src, verify=False)
            times["cached"].append(time.perf_counter() - start)
        m = {k: statistics.median(v) for k, v in times.items()}
        print(f"| {name} | {m['verify'] * 1e3:.1f} | {m['plain'] * 1e3:.2f} | {m['cached'] * 1e6:.0f} |")


if __name__ == "__main__":
    main()
