"""redist.jax.reshard against XLA's own reshard on XLA:CPU with 8 host devices.

For each case (the anchors jax can express and a few more), XLA's reshard is
jax.jit(identity, out_shardings=DST) on an array placed with SRC (what jax.device_put
and with_sharding_constraint lower to inside jit); ours is
jax.jit(lambda a: redist.jax.reshard(a, DST, src=SRC)). Both results are compared
bit for bit with the data; then the collectives of the compiled programs, the bytes a
device receives (averaged over devices), and wall time: median over alternating rounds
of `--inner` calls each. Ratios are XLA / redist (above 1: redist is faster).

    .venv/bin/python bench/python/jax_reshard.py [--rounds 15 --inner 50]
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh as JaxMesh, NamedSharding, PartitionSpec as P  # noqa: E402

import redist.jax as rjax  # noqa: E402

# redist_xla (the XLA test harness) reads collectives from compiled HLO text; appended
# to the path so that the installed redist package is the one imported.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from redist_xla.hlo_stats import collectives, summary  # noqa: E402

# name, mesh shape and axes, global shape, source spec, target spec
CASES = [
    ("jax21562_full_remat", (4, 2), ("x", "y"), (1024, 16, 1024), P("y", None, "x"), P(None, ("x", "y"), None)),
    ("swap_diff_size_axes", (4, 2), ("x", "y"), (2048, 1024), P("x", "y"), P("y", "x")),
    ("tiled_to_tiled_even", (8,), ("x",), (2048, 1024), P("x"), P(None, "x")),
    ("dtensor_s0s1_to_s1s0", (2, 2, 2), ("a", "b", "c"), (1024, 1024), P("a", "b"), P("b", "a")),
    ("gather_to_replicated_dim", (2, 4), ("x", "y"), (2048, 1024), P(("x", "y")), P("y", "x")),
    ("replace_axis_2x3", (2, 3), ("x", "y"), (1200, 1200), P("x"), P("y")),
]


def timed(fn, x, inner: int) -> float:
    jax.block_until_ready(fn(x))
    start = time.perf_counter()
    for _ in range(inner):
        out = fn(x)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / inner * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--inner", type=int, default=50)
    args = parser.parse_args()
    print("| case | redist plan | redist collectives | XLA collectives | recv bytes/device redist | XLA "
          "| time redist (us) | XLA (us) | XLA / redist |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|")
    for name, mesh_shape, axes, shape, src_spec, dst_spec in CASES:
        n = int(np.prod(mesh_shape))
        mesh = JaxMesh(np.array(jax.devices()[:n]).reshape(mesh_shape), axes)
        src, dst = NamedSharding(mesh, src_spec), NamedSharding(mesh, dst_spec)
        data = np.random.default_rng(0).integers(0, 2**32, size=shape, dtype=np.uint32).view(np.float32)
        x = jax.device_put(data, src)
        ours = jax.jit(lambda a: rjax.reshard(a, dst, src=src))
        xla = jax.jit(lambda a: a, out_shardings=dst)
        for fn in (ours, xla):
            assert np.array_equal(np.asarray(fn(x)).view(np.uint32), data.view(np.uint32)), name
        plan, _ = rjax.plan_for(x, dst)
        found = {k: collectives(f.lower(x).compile().as_text(), n) for k, f in (("ours", ours), ("xla", xla))}
        t = {"ours": [], "xla": []}
        for _ in range(args.rounds):
            for k, f in (("ours", ours), ("xla", xla)):
                t[k].append(timed(f, x, args.inner))
        mo, mx = statistics.median(t["ours"]), statistics.median(t["xla"])
        recv = {k: sum(c.bytes_moved for c in v) for k, v in found.items()}
        steps = " ".join(s.kind for s in plan.steps) or "-"
        print(f"| {name} | {steps} | {summary(found['ours'])} | {summary(found['xla'])} | {recv['ours']:.0f} "
              f"| {recv['xla']:.0f} | {mo:.0f} | {mx:.0f} | {mx / mo:.2f} |")


if __name__ == "__main__":
    main()
