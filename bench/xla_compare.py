"""redist's plans against XLA's own resharding, on XLA:CPU with 8 devices.

For each case (the anchors that fit in 8 devices and a seeded random set), XLA's
reshard is jax.jit(identity, in_shardings=SRC, out_shardings=DST) on the same mesh
(a sum over the summand dim for pending reductions); ours is `redist emit --target
stablehlo` compiled the same way. Both executables are checked element by element, then
compared on: the collectives in their compiled HLO and the bytes each device receives,
whether XLA hit "involuntary full rematerialization", memory_analysis() peak and temp
bytes, and wall time (median of interleaved repetitions). Ratios are XLA / redist.

    .venv/bin/python bench/xla_compare.py --redist build/tools/redist [--seed 7 --count 20]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from redist_xla import xla  # noqa: E402  (sets XLA_FLAGS before jax loads)
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from redist_xla.anchors import read_anchors  # noqa: E402
from redist_xla.check import Case, emit, plan_case  # noqa: E402
from redist_xla.hlo_stats import collectives, summary  # noqa: E402
from redist_xla.jax_sharding import Factored  # noqa: E402
from redist_xla.notation import Dim, DistType, Mesh, parse_mesh, parse_type  # noqa: E402
from redist_xla.random_cases import random_case  # noqa: E402
from redist_xla.semantics import NUMPY_DTYPES, first_mismatch, global_array, input_buffers  # noqa: E402


class CapturedStderr:
    """Collects what native code writes to file descriptor 2 inside the block."""

    def __enter__(self):
        self.file = tempfile.TemporaryFile(mode="w+")
        sys.stderr.flush()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read()
        self.file.close()


def scaled(t: DistType, factor: int) -> DistType:
    """`t` with its largest dim `factor` times larger (tilings unchanged)."""
    i = max(range(len(t.dims)), key=lambda k: t.dims[k].size)
    dims = list(t.dims)
    dims[i] = Dim(dims[i].size * factor, dims[i].axes)
    return dataclasses.replace(t, dims=tuple(dims))


@dataclasses.dataclass
class Side:
    """One executable's figures."""
    collectives: str
    bytes_moved: float
    peak: int
    temp: int
    seconds: float = 0.0
    remat: bool = False


def memory(stats) -> tuple[int, int]:
    """(peak, temp) bytes per device. XLA:CPU's peak_memory_in_bytes counts only
    arguments and outputs (jaxlib 0.10.2), so the peak is arguments + outputs + temps:
    every buffer XLA assigned, live at once."""
    temp = stats.temp_size_in_bytes
    return stats.argument_size_in_bytes + stats.output_size_in_bytes + temp, temp


def seconds(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def side_by_side_seconds(run_a, run_b, reps: int) -> tuple[float, float]:
    """Median wall time of each, the two run alternately after one warm-up run each."""
    run_a()
    run_b()
    a, b = [], []
    for _ in range(reps):
        a.append(seconds(run_a))
        b.append(seconds(run_b))
    return statistics.median(a), statistics.median(b)


def scaled_case(case: Case, target_bytes: int) -> tuple[Case, DistType, DistType] | str:
    """The case with its largest dim grown so the array has about `target_bytes` (plan
    files keep their sizes), its two types, or why JAX cannot express it."""
    mesh = parse_mesh(case.mesh)
    dst_mesh = parse_mesh(case.target_mesh) if case.target_mesh else mesh
    src, dst = parse_type(case.src, mesh), parse_type(case.dst, dst_mesh)
    if dst_mesh.devices != mesh.devices:
        return "jax.jit needs one device order for input and output"
    if any(d.size % math.prod(a.size for a in d.axes) for d in src.dims + dst.dims):
        return "non-divisible dims (JAX shardings need divisible ones)"
    if case.plan_file:
        return case, src, dst
    elems = math.prod(d.size for d in src.dims) * math.prod(a.size for a in src.reduce_axes)
    factor = max(1, target_bytes // (elems * np.dtype(NUMPY_DTYPES[src.elem]).itemsize))
    src, dst = scaled(src, factor), scaled(dst, factor)
    return dataclasses.replace(case, src=src.text(mesh), dst=dst.text(dst_mesh)), src, dst


def xla_reshard(mesh: Mesh, src: DistType, dst_mesh: Mesh, dst: DistType, buffers: list[np.ndarray]):
    """XLA's own reshard compiled with jax.jit, its input (the same per-device buffers on
    the source sharding) and whether XLA logged a full rematerialization."""
    # One JAX mesh per side: two sub-axes of one axis need not share a factorization.
    in_sharding = Factored(mesh, [src]).sharding(mesh, src)
    out_sharding = Factored(dst_mesh, [dst]).sharding(dst_mesh, dst)
    if src.reduce_axes:
        reduce = {"sum": jnp.sum, "max": jnp.max, "min": jnp.min}[src.reduce_op]
        fn = lambda a: reduce(a, axis=0)  # noqa: E731
    else:
        fn = lambda a: a  # noqa: E731
    global_shape = ((math.prod(a.size for a in src.reduce_axes),) if src.reduce_axes else ()) + \
        tuple(d.size for d in src.dims)
    devices = jax.devices("cpu")
    arg = jax.make_array_from_single_device_arrays(
        global_shape, in_sharding, [jax.device_put(b, devices[d]) for d, b in enumerate(buffers)])
    with CapturedStderr() as log:
        compiled = jax.jit(fn, in_shardings=in_sharding, out_shardings=out_sharding).lower(arg).compile()
    return compiled, arg, "Involuntary full rematerialization" in log.text


def figures(hlo_text: str, stats, num_devices: int) -> Side:
    found = collectives(hlo_text, num_devices)
    peak, temp = memory(stats)
    return Side(summary(found), sum(c.bytes_moved for c in found), peak, temp)


def compare(redist: str, case: Case, target_bytes: int, reps: int) -> tuple[Side, Side] | str:
    """(XLA, redist) figures for one case, or why it was left out."""
    prepared = scaled_case(case, target_bytes)
    if isinstance(prepared, str):
        return prepared
    case, src, dst = prepared
    emitted = emit(redist, case, "stablehlo")
    if emitted.returncode != 0:
        return "no plan: " + emitted.stderr.strip().splitlines()[-1]
    mesh = parse_mesh(case.mesh)
    dst_mesh = parse_mesh(case.target_mesh) if case.target_mesh else mesh
    n = mesh.num_devices
    logical = global_array(src)
    buffers = input_buffers(mesh, src, logical)
    ours_exe = xla.compile_module(emitted.stdout, n)
    ours_arg = xla.place(buffers)
    compiled, xla_arg, remat = xla_reshard(mesh, src, dst_mesh, dst, buffers)
    xla_exe = compiled.runtime_executable()

    if (bad := first_mismatch(dst_mesh, dst, logical, xla.execute(ours_exe, ours_arg))):
        return "redist's program is WRONG: " + bad
    by_device = {s.device.id: np.asarray(s.data) for s in compiled(xla_arg).addressable_shards}
    outputs = [by_device[d][np.newaxis] if dst.reduce_axes else by_device[d] for d in range(n)]
    if (bad := first_mismatch(dst_mesh, dst, logical, outputs)):
        return "XLA's reshard disagrees: " + bad

    ours = figures(ours_exe.hlo_modules()[0].to_string(), ours_exe.get_compiled_memory_stats(), n)
    theirs = figures(compiled.as_text(), compiled.memory_analysis(), n)
    theirs.remat = remat
    ours.seconds, theirs.seconds = side_by_side_seconds(
        lambda: jax.block_until_ready(ours_exe.execute_sharded([ours_arg]).disassemble_into_single_device_arrays()),
        lambda: jax.block_until_ready(xla_exe.execute_sharded([xla_arg]).disassemble_into_single_device_arrays()),
        reps)
    return theirs, ours


def ratio(a: float, b: float) -> float:
    """a / b, with 0 / 0 = 1."""
    if b == 0:
        return 1.0 if a == 0 else math.inf
    return a / b


def fmt_bytes(v: float) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if v >= size:
            return f"{v / size:.1f}{unit}"
    return f"{v:.0f}B"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redist", required=True)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    default_anchors = os.path.join(root, "tests", "data", "anchors.txt")
    if not os.path.exists(default_anchors):
        default_anchors = os.path.join(root, "..", "shared", "corpus", "anchors.txt")
    parser.add_argument("--anchors", default=default_anchors)
    parser.add_argument("--realistic", default=os.path.join(root, "bench", "corpus", "realistic.txt"),
                        help="more cases in the anchors' format (empty: none)")
    parser.add_argument("--plans", nargs="*", default=[os.path.join(root, "tests", "xla", "plans",
                                                                    "anchor_partial_to_reduce_scatter.plan")],
                        help="plan files to compare as well (their sizes are kept)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=20,
                        help="random cases (redrawn when source = target or the device order changes)")
    parser.add_argument("--bytes", type=int, default=4 << 20, help="global array size to scale cases to")
    parser.add_argument("--reps", type=int, default=15)
    args = parser.parse_args()

    cases = read_anchors(args.anchors, xla.NUM_CPU_DEVICES)
    if args.realistic:
        cases += read_anchors(args.realistic, xla.NUM_CPU_DEVICES)
    cases += [(os.path.basename(p).removesuffix(".plan"), plan_case(p)) for p in args.plans]
    rng = random.Random(args.seed)
    drawn = 0
    while drawn < args.count:
        case = random_case(rng)
        if case.src != case.dst and not case.target_mesh:  # jit takes one device order
            cases.append((f"random{drawn}", case))
            drawn += 1

    header = (f"{'case':26} {'XLA collectives':22} {'redist collectives':22} {'bytes XLA':>10} {'redist':>9} "
              f"{'ratio':>6} {'remat':>5} {'peak XLA':>9} {'redist':>9} {'ratio':>6} {'temp XLA':>9} {'redist':>9} "
              f"{'time XLA':>9} {'redist':>9} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    ratios = {"bytes": [], "peak": [], "time": []}
    left_out = []
    for name, case in cases:
        result = compare(args.redist, case, args.bytes, args.reps)
        if isinstance(result, str):
            left_out.append((name, result))
            continue
        theirs, ours = result
        r = {"bytes": ratio(theirs.bytes_moved, ours.bytes_moved), "peak": ratio(theirs.peak, ours.peak),
             "time": ratio(theirs.seconds, ours.seconds)}
        for k, v in r.items():
            ratios[k].append(v)
        print(f"{name[:26]:26} {theirs.collectives[:22]:22} {ours.collectives[:22]:22} "
              f"{fmt_bytes(theirs.bytes_moved):>10} {fmt_bytes(ours.bytes_moved):>9} {r['bytes']:6.2f} "
              f"{'yes' if theirs.remat else 'no':>5} {fmt_bytes(theirs.peak):>9} {fmt_bytes(ours.peak):>9} "
              f"{r['peak']:6.2f} {fmt_bytes(theirs.temp):>9} {fmt_bytes(ours.temp):>9} {theirs.seconds * 1e3:7.2f}ms {ours.seconds * 1e3:7.2f}ms {r['time']:6.2f}")
        sys.stdout.flush()
    print()
    for k, values in ratios.items():
        finite = [v for v in values if math.isfinite(v) and v > 0]
        if finite:
            geomean = math.exp(sum(math.log(v) for v in finite) / len(finite))
            print(f"{k:6} XLA/redist: geomean {geomean:.2f}x, max {max(finite):.2f}x, min {min(finite):.2f}x "
                  f"over {len(finite)} cases" + (f" ({len(values) - len(finite)} with redist at 0)"
                                                  if len(finite) < len(values) else ""))
    for name, why in left_out:
        print(f"left out {name}: {why}")
    return 1 if any("WRONG" in why for _, why in left_out) else 0


if __name__ == "__main__":
    sys.exit(main())
