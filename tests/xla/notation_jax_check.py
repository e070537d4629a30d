"""Checks redist's JAX and HloSharding converters against jax itself (label `xla`).

For random meshes over 8 host devices and random PartitionSpecs (tuples, None, ranks
1-3), `redist plan --from jax --to hlo` must print the HloSharding that jax compiles
the NamedSharding to, and `redist plan --from hlo --to jax` must print a PartitionSpec
that jax finds equivalent. Exit status 0 when every case agrees.
"""

import argparse
import os
import random
import subprocess
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

SHAPES = [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8), (2, 1, 4)]
NAMES = ["x", "y", "z", "w"]


def random_case(rng, devices):
    shape = rng.choice(SHAPES)
    names = tuple(NAMES[: len(shape)])
    mesh = Mesh(devices.reshape(shape), names)
    ndim = rng.randint(1, 3)
    entries = [[] for _ in range(ndim)]
    axes = list(names)
    rng.shuffle(axes)
    for a in axes:
        k = rng.randint(-1, ndim - 1)
        if k >= 0:
            entries[k].append(a)
    spec = P(*[None if not e else (e[0] if len(e) == 1 and rng.random() < 0.5 else tuple(e)) for e in entries])
    return mesh, spec, ndim


def redist_line(redist, args, tag):
    out = subprocess.run([redist, "plan", *args], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stdout + out.stderr
    for line in out.stdout.splitlines():
        if line.startswith(tag):
            return line[len(tag):], out.stdout
    return None, out.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--redist", required=True)
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    devices = np.array(jax.devices())
    failures = 0
    for _ in range(args.count):
        mesh, spec, ndim = random_case(rng, devices)
        shape = "f32[" + ",".join(["16"] * ndim) + "]"
        want = str(NamedSharding(mesh, spec)._to_xla_hlo_sharding(ndim))
        jax_mesh = f"Mesh(axis_sizes={tuple(mesh.axis_sizes)}, axis_names={tuple(mesh.axis_names)})"
        got, log = redist_line(args.redist, ["--from", "jax", "--to", "hlo", "--mesh", jax_mesh,
                                             f"{shape} {spec!r}", f"{shape} {spec!r}"], "# hlo: source ")
        if got != f"{shape} {want}":
            failures += 1
            print(f"jax -> hlo: {jax_mesh} {spec!r}: jax {want}, redist {got}\n{log}")
            continue
        redist_mesh = "{" + ", ".join(f"{n}:{s}" for n, s in zip(mesh.axis_names, mesh.axis_sizes)) + "}"
        back, log = redist_line(args.redist, ["--from", "hlo", "--to", "jax", "--mesh", redist_mesh,
                                              f"{shape} {want}", f"{shape} {want}"], "# jax: source ")
        if back is None or not back.startswith(shape + " "):
            failures += 1
            print(f"hlo -> jax: {redist_mesh} {want}: {log}")
            continue
        read = eval(back[len(shape) + 1:], {"P": P})  # a PartitionSpec repr printed by redist
        if not NamedSharding(mesh, read).is_equivalent_to(NamedSharding(mesh, spec), ndim):
            failures += 1
            print(f"hlo -> jax: {redist_mesh} {want}: redist {read!r} is not jax's {spec!r}")
    print(f"{args.count - failures} of {args.count} cases agree with jax {jax.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
