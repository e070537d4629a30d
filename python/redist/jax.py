"""Verified reshards inside jax.jit (docs/python.md).

`reshard(x, sharding)` converts x's NamedSharding and the requested one to redist types
(the mesh axes in order, one type entry per PartitionSpec entry), asks redist for the
plan, proves it with Z3 (once per case; cached), and runs its lowered form
(docs/design.md §2) as jax collectives under shard_map:

    all_slice           dynamic slice at (member index in its group) * chunk
    all_gather          lax.all_gather(tiled=True) over the group's axes (fused: one
                        lax.all_gather on a new major dim, reshaped into place)
    all_to_all          lax.all_to_all(tiled=True), split and concat dims from the lowering
    collective_permute  lax.ppermute with the lowered (source, target) pairs
    reduce_scatter      lax.psum_scatter(tiled=True) over the group's axes
    all_reduce          lax.psum / pmax / pmin over the group's axes

A source with `unreduced` axes (explicit mesh axes; a pending sum in redist's terms) is
planned by the optimal search, as synthesis does not plan pending reductions.

With verify=True a plan runs only when the checker proves G1 (correct), G2 (memory) and
G3a (nothing received is dropped); G3b's transfer figure may be unknown (it is for
pending sums).

Plans may use sub-axes (x:(m)k, a factor of axis x); jax collectives name whole axes, so
the program runs on a view of the same device grid in which each mesh axis is split
into the factors the plan uses (x:4 with x:(2)2 used becomes x#0:2, x#1:2). That view
tiles every array exactly as the original mesh does, so entering and leaving it moves
no data. The result is constrained to the requested sharding.

Scope: both shardings on one jax Mesh, dims divisible by their tile counts, no
`reduced` axes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh as JaxMesh
from jax.sharding import AxisType, NamedSharding, PartitionSpec

from . import _redist
from ._redist import notation as _notation
from ._redist import CheckReport, DistType, LoweredStep, Mesh, Plan

__all__ = ["reshard", "plan_for", "to_redist", "to_partition_spec", "mesh_of"]

_ELEM_NAMES = {
    "bool": "pred", "int8": "s8", "uint8": "u8", "int16": "s16", "uint16": "u16",
    "float16": "f16", "bfloat16": "bf16", "int32": "s32", "uint32": "u32",
    "float32": "f32", "int64": "s64", "uint64": "u64", "float64": "f64",
}
# Other dtypes are planned as unsigned integers of their width: only byte counts matter.
_BY_WIDTH = {1: "u8", 2: "u16", 4: "u32", 8: "u64"}


def _elem(dtype) -> str:
    dt = np.dtype(dtype)
    name = _ELEM_NAMES.get(dt.name) or _BY_WIDTH.get(dt.itemsize)
    if name is None:
        raise _redist.UnsupportedError(f"dtype {dt.name}: elements of {dt.itemsize} bytes have no redist type")
    return name


def mesh_of(mesh: JaxMesh) -> Mesh:
    """The redist mesh of a jax Mesh: its axes in order, mesh position p being
    mesh.devices.flat[p] (so redist device ids are positions in the jax grid)."""
    for name in mesh.axis_names:
        if not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"mesh axis {name!r}: redist axis names are identifiers")
    return Mesh([(name, int(size)) for name, size in mesh.shape.items()])


def _entries(spec: PartitionSpec, rank: int) -> list[tuple[str, ...]]:
    """The mesh axes of each dim, major first."""
    if getattr(spec, "reduced", None):
        raise _redist.UnsupportedError(f"{spec}: reduced axes are not supported by redist.jax")
    entries = list(spec.partitions)
    if len(entries) > rank:
        raise ValueError(f"{spec} has {len(entries)} entries for an array of rank {rank}")
    out = []
    for i, e in enumerate(entries + [None] * (rank - len(entries))):
        if e is PartitionSpec.UNCONSTRAINED:
            raise ValueError(f"{spec}: dim {i} is unconstrained; redist needs a concrete sharding")
        out.append(() if e is None else (e,) if isinstance(e, str) else tuple(e))
    return out


def to_redist(sharding: NamedSharding, shape: Sequence[int], dtype) -> tuple[Mesh, DistType]:
    """The redist mesh and type of an array of `shape` and `dtype` sharded by `sharding`,
    read by the C++ PartitionSpec converter (redist.notation.from_partition_spec, the
    one the CLI's `--from jax` uses). ValueError with the column and the reason when the
    spec is not a valid type (an unknown axis, more entries than dims, ...)."""
    mesh = mesh_of(sharding.mesh)
    _entries(sharding.spec, len(shape))  # the refusals jax's repr would not show
    shape_text = f"{_elem(dtype)}[{','.join(str(int(n)) for n in shape)}]"
    try:
        return mesh, _notation.from_partition_spec(repr(sharding.spec), shape_text, mesh)
    except ValueError as e:
        raise type(e)(f"{sharding.spec!r} of {shape_text}: {e}") from None


def to_partition_spec(t: DistType) -> PartitionSpec:
    """The PartitionSpec of `t` (the object; redist.notation.to_partition_spec gives
    the same as text); ValueError when t uses sub-axes or pending reductions, which a
    PartitionSpec over the same mesh cannot express."""
    if t.reduce_axes:
        raise ValueError(f"{t}: pending reductions have no PartitionSpec")
    entries: list[str | tuple[str, ...] | None] = []
    for d in t.dims:
        if any(a.sub for a in d.axes):
            raise ValueError(f"{t}: sub-axes have no PartitionSpec over the same mesh")
        names = tuple(a.name for a in d.axes)
        entries.append(None if not names else names[0] if len(names) == 1 else names)
    while entries and entries[-1] is None:
        entries.pop()
    return PartitionSpec(*entries)


@dataclass(frozen=True)
class _Factors:
    """Each mesh axis split at the boundaries the plan's sub-axes need."""

    cuts: dict[str, list[int]]  # per axis, sorted factor boundaries 1 .. size
    names: tuple[str, ...]      # factor axis names in mesh order, major first
    shape: tuple[int, ...]

    @staticmethod
    def of(mesh: Mesh, refs: Sequence[_redist.AxisRef]) -> _Factors:
        cuts = {name: {1, size} for name, size in mesh.axes}
        for r in refs:
            cuts[r.name] |= {r.pre, r.pre * r.size}
        sorted_cuts = {n: sorted(c) for n, c in cuts.items()}
        names, shape = [], []
        for name, _ in mesh.axes:
            b = sorted_cuts[name]
            for i in range(len(b) - 1):
                names.append(_factor_name(name, i, b))
                shape.append(b[i + 1] // b[i])
        return _Factors(sorted_cuts, tuple(names), tuple(shape))

    def of_ref(self, r: _redist.AxisRef) -> tuple[str, ...]:
        """Factor names of a (sub-)axis, major first."""
        b = self.cuts[r.name]
        return tuple(_factor_name(r.name, i, b) for i in range(len(b) - 1)
                     if r.pre <= b[i] and b[i + 1] <= r.pre * r.size)

    def of_refs(self, refs: Sequence[_redist.AxisRef]) -> tuple[str, ...]:
        return tuple(n for r in refs for n in self.of_ref(r))

    def spec(self, t: DistType) -> PartitionSpec:
        entries = [self.of_refs(d.axes) or None for d in t.dims]
        if t.reduce_axes:
            return PartitionSpec(*entries, unreduced=set(self.of_refs(t.reduce_axes)))
        return PartitionSpec(*entries)

    def mesh(self, mesh: JaxMesh) -> JaxMesh:
        if self.names == tuple(mesh.axis_names):
            return mesh
        types = dict(zip(mesh.axis_names, mesh.axis_types))
        return JaxMesh(mesh.devices.reshape(self.shape), self.names,
                       axis_types=tuple(types[n.split("#")[0]] for n in self.names))


def _factor_name(axis: str, i: int, cuts: list[int]) -> str:
    return axis if len(cuts) == 2 else f"{axis}#{i}"


def _all_refs(lowered: _redist.LoweredPlan) -> list[_redist.AxisRef]:
    refs = []
    for state in [lowered.source] + [s.after for s in lowered.steps]:
        refs += [a for d in state.type.dims for a in d.axes] + list(state.type.reduce_axes)
    for s in lowered.steps:
        refs += s.group_axes or []
    return refs


def _member_index(names: tuple[str, ...], sizes: dict[str, int]):
    """This device's member index in its group over `names` (names[0] most significant)."""
    index = jnp.int32(0)
    for n in names:
        index = index * sizes[n] + lax.axis_index(n)
    return index


def _fused_all_to_all(x, parts: Sequence[tuple[int, int, int]], names: tuple[str, ...]):
    """A fused all_to_all (parts (split dim, concat dim, members), part 0 the most
    significant digit of the member index over `names`) as ONE lax.all_to_all, as the
    HLO backend emits it (docs/hlo.md): each split dim reshaped into its parts' chunk
    digits, the digits moved to the front and merged into one dim of chunks, exchanged,
    and each sender digit moved to the major end of its concat dim (last part most
    significant)."""
    shape, rank = x.shape, x.ndim
    expanded, digit_at, rest_at = [], [0] * len(parts), []
    for d in range(rank):
        rest = shape[d]
        for k, (split, _, size) in enumerate(parts):
            if split == d:
                digit_at[k] = len(expanded)
                expanded.append(size)
                rest //= size
        rest_at.append(len(expanded))
        expanded.append(rest)
    y = jnp.transpose(x.reshape(expanded), digit_at + rest_at)
    rests = [expanded[i] for i in rest_at]
    y = lax.all_to_all(y.reshape([int(np.prod([p[2] for p in parts]))] + rests), names, 0, 0, tiled=True)
    y = y.reshape([p[2] for p in parts] + rests)
    back, after = [], list(rests)
    for d in range(rank):
        back += [k for k in reversed(range(len(parts))) if parts[k][1] == d]
        back.append(len(parts) + d)
        after[d] *= int(np.prod([p[2] for p in parts if p[1] == d]))
    return jnp.transpose(y, back).reshape(after)


def _fused_all_gather(x, parts: Sequence[tuple[int, int]], names: tuple[str, ...]):
    """A fused all_gather (parts (dim, members), part 0 the most significant digit of
    the member index over `names`) as ONE lax.all_gather, as the HLO backend emits it
    (docs/hlo.md): gathered along a new major dim in member order, that dim split into
    the members' digits, and each digit moved to the major end of its part's dim."""
    sizes = [size for _, size in parts]
    y = lax.all_gather(x, names, axis=0, tiled=False).reshape(sizes + list(x.shape))
    back, after = [], list(x.shape)
    for d in range(x.ndim):
        back += [k for k, (dim, _) in enumerate(parts) if dim == d]
        back.append(len(parts) + d)
        after[d] *= int(np.prod([size for dim, size in parts if dim == d]))
    return jnp.transpose(y, back).reshape(after)


def _step_fn(step: LoweredStep, factors: _Factors) -> Callable:
    """The step as a function of the local block inside shard_map."""
    sizes = dict(zip(factors.names, factors.shape))
    if step.explicit_table:
        raise _redist.UnsupportedError(f"{step.kind}: explicit group tables are not run by redist.jax")
    kind = step.kind
    if kind == "collective_permute":
        if step.before.mesh != step.after.mesh:
            raise _redist.UnsupportedError("a permute that changes the device order is not run by redist.jax")
        pairs = [(s, t) for s, t in step.pairs]
        if all(s == t for s, t in pairs):
            return lambda x: x
        # Physical ids are positions in the jax grid, the linear index over all factors.
        return lambda x: lax.ppermute(x, factors.names, perm=pairs)
    names = factors.of_refs(step.group_axes)
    if kind == "all_slice":
        dim, chunk = step.dim, step.chunk
        return lambda x: lax.dynamic_slice_in_dim(x, _member_index(names, sizes) * chunk, chunk, axis=dim)
    if kind == "all_gather" and len(step.gather_parts) > 1:
        return lambda x: _fused_all_gather(x, step.gather_parts, names)
    if kind == "all_gather":
        return lambda x: lax.all_gather(x, names, axis=step.dim, tiled=True)
    if kind == "all_to_all" and len(step.parts) > 1:
        return lambda x: _fused_all_to_all(x, step.parts, names)
    if kind == "all_to_all":
        split, concat = step.split_dim, step.concat_dim
        return lambda x: lax.all_to_all(x, names, split, concat, tiled=True)
    if kind == "reduce_scatter" and step.reduce_op == "sum":
        return lambda x: lax.psum_scatter(x, names, scatter_dimension=step.dim, tiled=True)
    if kind == "all_reduce":
        reduce = {"sum": lax.psum, "max": lax.pmax, "min": lax.pmin}[step.reduce_op]
        return lambda x: reduce(x, names)
    raise _redist.UnsupportedError(f"{kind} of {step.reduce_op}: jax has no such collective")


@dataclass(frozen=True, eq=False)
class _Program:
    plan: Plan
    report: CheckReport | None
    factors: _Factors
    steps: tuple[Callable, ...]
    in_spec: PartitionSpec
    out_spec: PartitionSpec


def _key_spec(spec: PartitionSpec, rank: int) -> tuple:
    """(dims' axes, unreduced axes): the spec as a cache key."""
    return tuple(_entries(spec, rank)), tuple(sorted(getattr(spec, "unreduced", None) or ()))


def _spec_of_key(key: tuple) -> PartitionSpec:
    entries, unreduced = key
    return PartitionSpec(*entries, unreduced=set(unreduced)) if unreduced else PartitionSpec(*entries)


def _check_divisible(jmesh: JaxMesh, key: tuple, shape: tuple[int, ...]) -> None:
    """Raises UnsupportedError when a dim of `shape` is not a multiple of its tile count
    under the spec `key`: jax shardings need divisible dims (redist itself plans padded
    ones: redist.synthesize, `redist emit`)."""
    for dim, axes in enumerate(key[0]):
        tiles = int(np.prod([jmesh.shape[a] for a in axes])) if axes else 1
        if shape[dim] % tiles:
            raise _redist.UnsupportedError(
                f"redist.jax: dim {dim} of size {shape[dim]} over {tiles} tiles is non-divisible; "
                "jax shardings need divisible dims")


@functools.lru_cache(maxsize=1024)
def _program(jmesh: JaxMesh, src_key: tuple, dst_key: tuple, shape: tuple[int, ...], dtype: str,
             verify: bool, budget: int | None) -> _Program:
    _check_divisible(jmesh, src_key, shape)
    _check_divisible(jmesh, dst_key, shape)
    src = NamedSharding(jmesh, _spec_of_key(src_key))
    dst = NamedSharding(jmesh, _spec_of_key(dst_key))
    mesh, s = to_redist(src, shape, dtype)
    _, d = to_redist(dst, shape, dtype)
    if s.reduce_axes or d.reduce_axes:  # synthesis does not plan pending reductions
        plan = _redist.optimal_plan(mesh, s, mesh, d, budget).plan
    else:
        plan = _redist.synthesize(mesh, s, mesh, d, budget)
    report = None
    if verify:
        report = _redist.check(plan, budget)
        if not _safe(report):
            raise RuntimeError(f"redist: the plan from {s} to {d} did not verify: {report!r}")
    lowered = _redist.lower(plan)
    factors = _Factors.of(mesh, _all_refs(lowered))
    steps = tuple(_step_fn(step, factors) for step in lowered.steps)
    return _Program(plan, report, factors, steps, factors.spec(s), factors.spec(d))


def _safe(report: CheckReport) -> bool:
    """G1 (correct), G2 (memory) and G3a (nothing received is dropped) proved. G3b, the
    received bytes against the lower bound, is a figure; the checker leaves it unknown
    for pending sums (no lower bound for them yet), which does not make a plan unsafe."""
    return all(p.verdict == "proved" for p in (report.correct, report.memory, report.no_peak))


def _source_sharding(x, src: NamedSharding | PartitionSpec | None, mesh: JaxMesh) -> NamedSharding:
    if isinstance(src, NamedSharding):
        return src
    if isinstance(src, PartitionSpec):
        return NamedSharding(mesh, src)
    if not _tracing(x) and isinstance(getattr(x, "sharding", None), NamedSharding):
        return x.sharding  # a concrete jax.Array
    aval = getattr(jax.typeof(x), "sharding", None)
    if (isinstance(aval, NamedSharding) and aval.mesh.axis_names
            and all(t == AxisType.Explicit for t in aval.mesh.axis_types)):
        # A tracer under explicit axes: the aval carries the spec; the devices are the target's.
        return NamedSharding(mesh, aval.spec)
    raise ValueError("redist.jax.reshard: x's source sharding is not a known NamedSharding (inside jax.jit "
                     "with automatic axes jax does not know it while tracing); pass src=NamedSharding(...) "
                     "or src=PartitionSpec(...)")


def _program_for(x, sharding: NamedSharding, src, verify: bool, budget: int | None) -> _Program:
    if not isinstance(sharding, NamedSharding):
        raise TypeError(f"redist.jax.reshard: expected a NamedSharding target, got {type(sharding).__name__}")
    source = _source_sharding(x, src, sharding.mesh)
    if source.mesh != sharding.mesh:
        raise _redist.UnsupportedError("redist.jax.reshard: the source and target shardings must share one Mesh")
    rank = len(x.shape)
    return _program(sharding.mesh, _key_spec(source.spec, rank), _key_spec(sharding.spec, rank),
                    tuple(int(n) for n in x.shape), np.dtype(x.dtype).name, verify, budget)


def plan_for(x, sharding: NamedSharding, *, src: NamedSharding | PartitionSpec | None = None,
             verify: bool = True, budget: int | None = None) -> tuple[Plan, CheckReport | None]:
    """The plan reshard() runs for `x` (an array or anything with .shape and .dtype)
    and its checker report (None when verify=False)."""
    p = _program_for(x, sharding, src, verify, budget)
    return p.plan, p.report


def reshard(x: jax.Array, sharding: NamedSharding, *, src: NamedSharding | PartitionSpec | None = None,
            verify: bool = True, budget: int | None = None) -> jax.Array:
    """`x` resharded to `sharding` by redist's verified plan, run as jax collectives.

    Works inside jax.jit and outside it. The source sharding is x.sharding for a
    concrete array, the aval's sharding under explicit mesh axes, or `src` (required
    inside jit with automatic axes, where x's sharding is not known while tracing;
    x is constrained to it). With verify=True (the default) the plan is proved with Z3
    before it is used, once per (mesh, shardings, shape, dtype). `budget` bounds the
    bytes per device. Raises ValueError on bad shardings and redist.UnsupportedError
    outside the scope (different meshes, non-divisible dims, reduced axes).
    """
    prog = _program_for(x, sharding, src, verify, budget)
    if not prog.steps:
        return jax.lax.with_sharding_constraint(x, sharding) if _tracing(x) else jax.device_put(x, sharding)
    if not _tracing(x):
        return _jitted(prog, sharding)(x)
    return _run(prog, sharding, x)


def _run(prog: _Program, sharding: NamedSharding, x):
    def body(block):
        for step in prog.steps:
            block = step(block)
        return block

    fmesh = prog.factors.mesh(sharding.mesh)
    # Under explicit axes jax tracks each value's mesh: move onto the factored view and
    # back with jax.sharding.reshard, which tiles identically and so moves no data.
    explicit = all(t == AxisType.Explicit for t in sharding.mesh.axis_types)
    if explicit and fmesh is not sharding.mesh:
        x = jax.sharding.reshard(x, NamedSharding(fmesh, prog.in_spec))
    out = jax.shard_map(body, mesh=fmesh, in_specs=prog.in_spec, out_specs=prog.out_spec, check_vma=False)(x)
    if explicit:
        return jax.sharding.reshard(out, sharding)
    return jax.lax.with_sharding_constraint(out, sharding)


@functools.lru_cache(maxsize=256)
def _jitted(prog: _Program, sharding: NamedSharding) -> Callable:
    return jax.jit(functools.partial(_run, prog, sharding))


def _tracing(x) -> bool:
    return isinstance(x, jax.core.Tracer)
