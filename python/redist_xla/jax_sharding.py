"""redist types as JAX shardings, for running XLA's own reshard of the same case.

Sub-axes become JAX mesh axes: each mesh axis is split into the factors that the
types' sub-axes need (x:4 with x:(1)2 used becomes x_0:2, x_1:2), so every type is a
PartitionSpec over whole JAX axes. Mesh position p is physical device devices[p].
"""

from __future__ import annotations

import jax
import numpy as np
from jax.sharding import Mesh as JaxMesh, NamedSharding, PartitionSpec

from .notation import AxisRef, DistType, Mesh


def _boundaries(mesh: Mesh, types: list[DistType]) -> dict[str, list[int]]:
    """Per axis, the sorted factor boundaries (1 .. size) the types' axes need."""
    cuts = {name: {1, size} for name, size in mesh.axes}
    for t in types:
        for ref in [a for d in t.dims for a in d.axes] + list(t.reduce_axes):
            cuts[ref.name] |= {ref.pre, ref.pre * ref.size}
    return {name: sorted(c) for name, c in cuts.items()}


class Factored:
    """The factor axes of a mesh for a set of types."""

    def __init__(self, mesh: Mesh, types: list[DistType]):
        self.mesh = mesh
        self.cuts = _boundaries(mesh, types)
        self.names: list[str] = []
        self.shape: list[int] = []
        for name, _ in mesh.axes:
            b = self.cuts[name]
            for i in range(len(b) - 1):
                self.names.append(f"{name}_{i}" if len(b) > 2 else name)
                self.shape.append(b[i + 1] // b[i])

    def factors(self, ref: AxisRef) -> list[str]:
        """JAX axis names of a (sub-)axis, major first."""
        b = self.cuts[ref.name]
        names = [f"{ref.name}_{i}" if len(b) > 2 else ref.name for i in range(len(b) - 1)]
        return [n for i, n in enumerate(names) if ref.pre <= b[i] and b[i + 1] <= ref.pre * ref.size]

    def jax_mesh(self, mesh: Mesh) -> JaxMesh:
        """`mesh`'s device order over these factor axes."""
        devices = jax.devices("cpu")
        grid = np.array([devices[d] for d in mesh.devices], dtype=object).reshape(self.shape or [1])
        return JaxMesh(grid, tuple(self.names) or ("_",))

    def spec(self, t: DistType) -> PartitionSpec:
        """The PartitionSpec of `t` over its boundary shape (a leading summand dim when
        the type has pending reduction axes)."""
        def entry(refs) -> tuple[str, ...] | None:
            names = [n for r in refs for n in self.factors(r)]
            return tuple(names) if names else None

        entries = [entry(d.axes) for d in t.dims]
        if t.reduce_axes:
            entries.insert(0, entry(t.reduce_axes))
        return PartitionSpec(*entries)

    def sharding(self, mesh: Mesh, t: DistType) -> NamedSharding:
        return NamedSharding(self.jax_mesh(mesh), self.spec(t))
