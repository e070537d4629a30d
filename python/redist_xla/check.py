"""Checks one redistribution on XLA: `redist emit` -> compile on XLA:CPU -> run on the
source array sharded per the source type -> compare every element of every output
shard with the target type's reference semantics.

    python -m redist_xla.check --redist build/tools/redist --mesh '{x:4, y:2}' \
        'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]' [--target-mesh M] [--target hlo]
    python -m redist_xla.check --redist build/tools/redist --plan FILE
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass

from . import xla
from .notation import Mesh, parse_mesh, parse_type
from .semantics import first_mismatch, global_array, input_buffers

EXIT_NO_PLAN = 3


@dataclass
class Case:
    """A (mesh, source, target) to synthesize, or a plan file to emit as is."""
    mesh: str
    src: str
    dst: str
    target_mesh: str | None = None
    plan_file: str | None = None
    cost_model: str | None = None  # a cost model file to synthesize under

    def label(self) -> str:
        if self.plan_file:
            return f"plan {self.plan_file}"
        to_mesh = f" on {self.target_mesh}" if self.target_mesh else ""
        return f"{self.mesh} {self.src} -> {self.dst}{to_mesh}"


@dataclass
class Outcome:
    status: str  # "ok", "no plan" (the synthesizer declined) or "failed"
    detail: str = ""


def emit(redist: str, case: Case, target: str) -> subprocess.CompletedProcess:
    """Runs `redist emit` for the case."""
    cmd = [redist, "emit", "--target", target]
    if case.plan_file:
        cmd += ["--plan", case.plan_file]
    else:
        cmd += ["--mesh", case.mesh, case.src, case.dst]
        if case.target_mesh:
            cmd += ["--target-mesh", case.target_mesh]
        if case.cost_model:
            cmd += ["--cost-model", case.cost_model]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def plan_case(path: str) -> Case:
    """The mesh, source and target a plan file states (`mesh`, `source`, `target`
    lines; the target mesh is the source mesh)."""
    fields = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^\s*(mesh|source|target)\s+(.*?)\s*$", line)
            if m:
                fields[m.group(1)] = m.group(2)
    return Case(fields["mesh"], fields["source"], fields["target"], plan_file=path)


def run_module(module: str | bytes, mesh: Mesh, src_text: str, dst_mesh: Mesh, dst_text: str) -> str | None:
    """Compiles and runs `module`; None when every output element is right, else the
    first mismatch."""
    src = parse_type(src_text, mesh)
    dst = parse_type(dst_text, dst_mesh)
    logical = global_array(src)
    # Over other device sets the program runs on every device up to the largest id.
    other_sets = set(mesh.devices) != set(dst_mesh.devices)
    partitions = max(mesh.slots, dst_mesh.slots) if other_sets else mesh.num_devices
    executable = xla.compile_module(module, partitions)
    buffers = input_buffers(mesh, src, logical, partitions if other_sets else None)
    outputs = xla.execute(executable, xla.place(buffers))
    return first_mismatch(dst_mesh, dst, logical, outputs, union=other_sets)


def check(redist: str, case: Case, target: str = "stablehlo") -> Outcome:
    """Emits, compiles, runs and compares one case on XLA:CPU."""
    emitted = emit(redist, case, target)
    if emitted.returncode == EXIT_NO_PLAN:
        return Outcome("no plan", emitted.stderr.strip())
    if emitted.returncode != 0:
        return Outcome("failed", f"redist emit exited {emitted.returncode}: {emitted.stderr.strip()}")
    mesh = parse_mesh(case.mesh)
    dst_mesh = parse_mesh(case.target_mesh) if case.target_mesh else mesh
    module: str | bytes = emitted.stdout
    try:
        if target == "hlo":
            module = xla.hlo_text_to_stablehlo(emitted.stdout)
        mismatch = run_module(module, mesh, case.src, dst_mesh, case.dst)
    except Exception as e:  # XLA reports bad modules as exceptions: a failed case.
        return Outcome("failed", f"XLA: {type(e).__name__}: {e}")
    return Outcome("failed", mismatch) if mismatch else Outcome("ok")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redist", required=True, help="path of the redist command")
    parser.add_argument("--target", default="stablehlo", choices=["stablehlo", "hlo"])
    parser.add_argument("--mesh")
    parser.add_argument("--target-mesh")
    parser.add_argument("--plan", help="a plan file with mesh, source and target lines")
    parser.add_argument("types", nargs="*", metavar="SRC DST")
    args = parser.parse_args(argv)
    if args.plan:
        case = plan_case(args.plan)
    elif args.mesh and len(args.types) == 2:
        case = Case(args.mesh, args.types[0], args.types[1], args.target_mesh)
    else:
        parser.error("give --mesh SRC DST or --plan FILE")
    if parse_mesh(case.target_mesh or case.mesh).num_devices > xla.NUM_CPU_DEVICES:
        parser.error(f"meshes of at most {xla.NUM_CPU_DEVICES} devices")
    outcome = check(args.redist, case, args.target)
    print(f"{outcome.status}: {case.label()}" + (f"\n  {outcome.detail}" if outcome.detail else ""))
    return {"ok": 0, "no plan": EXIT_NO_PLAN}.get(outcome.status, 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
