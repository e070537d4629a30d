"""XLA's own reshard of a case as compiled HLO text: the program `redist check
--from-hlo` imports. jax.jit(identity, in_shardings=SRC, out_shardings=DST) on the
case's mesh (a reduction over the summand dim for pending sources), lowered and
compiled for XLA:CPU with 8 devices; sub-axes become JAX mesh axes (jax_sharding.py)."""

from __future__ import annotations

import math

from . import xla  # noqa: F401  (sets XLA_FLAGS before jax loads)
import jax
import jax.numpy as jnp

from .check import Case
from .jax_sharding import Factored
from .notation import parse_mesh, parse_type
from .semantics import NUMPY_DTYPES


def unsupported(case: Case) -> str | None:
    """Why jax.jit cannot express the case, or None."""
    mesh = parse_mesh(case.mesh)
    dst_mesh = parse_mesh(case.target_mesh) if case.target_mesh else mesh
    if dst_mesh.devices != mesh.devices:
        return "jax.jit needs one device order for input and output"
    src, dst = parse_type(case.src, mesh), parse_type(case.dst, dst_mesh)
    if any(d.size % math.prod(a.size for a in d.axes) for d in src.dims + dst.dims):
        return "non-divisible dims (JAX shardings need divisible ones)"
    if mesh.num_devices > xla.NUM_CPU_DEVICES:
        return f"more than {xla.NUM_CPU_DEVICES} devices"
    return None


def compiled_reshard(case: Case):
    """XLA's compiled reshard of `case` (a jax Compiled); see unsupported() first."""
    mesh = parse_mesh(case.mesh)
    src, dst = parse_type(case.src, mesh), parse_type(case.dst, mesh)
    in_sharding = Factored(mesh, [src]).sharding(mesh, src)
    out_sharding = Factored(mesh, [dst]).sharding(mesh, dst)
    if src.reduce_axes:
        reduce = {"sum": jnp.sum, "max": jnp.max, "min": jnp.min}[src.reduce_op]
        fn = lambda a: reduce(a, axis=0)  # noqa: E731
    else:
        fn = lambda a: a  # noqa: E731
    shape = ((math.prod(a.size for a in src.reduce_axes),) if src.reduce_axes else ()) + \
        tuple(d.size for d in src.dims)
    arg = jax.ShapeDtypeStruct(shape, NUMPY_DTYPES[src.elem], sharding=in_sharding)
    return jax.jit(fn, in_shardings=in_sharding, out_shardings=out_sharding).lower(arg).compile()


def with_root_sharding(text: str, sharding: str) -> str:
    """`text` with `sharding={...}` on the ENTRY computation's ROOT instruction (the
    compiled module prints the parameter's sharding but drops the result's)."""
    lines = text.split("\n")
    in_entry = False
    for i, line in enumerate(lines):
        if line.startswith("ENTRY "):
            in_entry = True
        elif in_entry and line.lstrip().startswith("ROOT "):
            if "sharding=" not in line:
                lines[i] = line + ", sharding=" + sharding
            break
    return "\n".join(lines)


def compiled_hlo(case: Case) -> str:
    """The compiled HLO text of XLA's reshard of `case`, its ROOT annotated with the
    output sharding XLA compiled for."""
    compiled = compiled_reshard(case)
    out = compiled.output_shardings
    out = out[0] if isinstance(out, (list, tuple)) else out
    mesh = parse_mesh(case.mesh)
    ndim = len(parse_type(case.dst, mesh).dims)
    return with_root_sharding(compiled.as_text(), str(out._to_xla_hlo_sharding(ndim)))
