"""An independent reader of redist's mesh and type notation (docs/notation.md).

The XLA harness checks emitted programs against these definitions, not against
anything the C++ emitter computes, so a wrong sharding or offset in the emitter shows
up as a mismatch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ELEM_TYPES = ("pred", "s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32", "s64", "u64", "f64")


@dataclass(frozen=True)
class Mesh:
    axes: tuple[tuple[str, int], ...]
    devices: tuple[int, ...]  # physical device at each mesh position

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    @property
    def slots(self) -> int:
        """1 + the largest physical id: the partitions a program over it needs."""
        return max(self.devices) + 1

    def axis_size(self, name: str) -> int:
        return dict(self.axes)[name]

    def coords_of_position(self, position: int) -> dict[str, int]:
        """Mesh coordinates of a position, row-major over the declared axes."""
        coords = {}
        for name, size in reversed(self.axes):
            coords[name] = position % size
            position //= size
        return coords

    def text(self) -> str:
        axes = "{" + ", ".join(f"{n}:{s}" for n, s in self.axes) + "}"
        if self.devices == tuple(range(len(self.devices))):
            return axes
        return axes + " devices=[" + ",".join(map(str, self.devices)) + "]"


@dataclass(frozen=True)
class AxisRef:
    name: str
    pre: int = 1
    size: int = 0  # resolved against the mesh

    def text(self, mesh: Mesh) -> str:
        if self.pre == 1 and self.size == mesh.axis_size(self.name):
            return self.name
        return f"{self.name}:({self.pre}){self.size}"


@dataclass(frozen=True)
class Dim:
    size: int
    axes: tuple[AxisRef, ...] = ()


@dataclass(frozen=True)
class DistType:
    elem: str
    dims: tuple[Dim, ...]
    reduce_axes: tuple[AxisRef, ...] = ()
    reduce_op: str = "sum"

    def text(self, mesh: Mesh) -> str:
        def dim_text(d: Dim) -> str:
            if not d.axes:
                return str(d.size)
            return "{" + ",".join(a.text(mesh) for a in d.axes) + "}" + str(d.size)

        out = self.elem + "[" + ", ".join(dim_text(d) for d in self.dims) + "]"
        if self.reduce_axes:
            out += f" {self.reduce_op}{{" + ",".join(a.text(mesh) for a in self.reduce_axes) + "}"
        return out


class NotationError(ValueError):
    pass


_MESH_RE = re.compile(r"^\s*\{(?P<axes>[^}]*)\}\s*(?:devices\s*=\s*\[(?P<devices>[^\]]*)\])?\s*$")


def parse_mesh(text: str) -> Mesh:
    m = _MESH_RE.match(text)
    if not m:
        raise NotationError(f"not a mesh: {text!r}")
    axes = []
    for item in filter(None, (s.strip() for s in m.group("axes").split(","))):
        name, size = (s.strip() for s in item.split(":"))
        axes.append((name, int(size)))
    n = 1
    for _, size in axes:
        n *= size
    devices = tuple(range(n))
    if m.group("devices"):
        devices = tuple(int(s) for s in m.group("devices").split(","))
        # Other ids than 0..n-1 name another device set (docs/meshes.md).
        if len(devices) != n or len(set(devices)) != n or min(devices) < 0:
            raise NotationError(f"devices are not {n} distinct non-negative ids")
    return Mesh(tuple(axes), devices)


_AXIS_RE = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?::\((?P<pre>\d+)\)(?P<size>\d+))?$")


def _parse_axes(text: str, mesh: Mesh) -> tuple[AxisRef, ...]:
    refs = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        m = _AXIS_RE.match(item)
        if not m:
            raise NotationError(f"not an axis: {item!r}")
        name = m.group("name")
        if m.group("pre"):
            refs.append(AxisRef(name, int(m.group("pre")), int(m.group("size"))))
        else:
            refs.append(AxisRef(name, 1, mesh.axis_size(name)))
    return tuple(refs)


_TYPE_RE = re.compile(
    r"^\s*(?P<elem>[a-z0-9]+)?\[(?P<dims>[^\]]*)\]\s*(?:(?P<op>sum|max|min)\{(?P<red>[^}]*)\})?\s*$")
_DIM_RE = re.compile(r"^(?:\d*\{(?P<axes>[^}]*)\})?(?P<size>\d+)$")


def parse_type(text: str, mesh: Mesh) -> DistType:
    m = _TYPE_RE.match(text)
    if not m:
        raise NotationError(f"not a type: {text!r}")
    elem = m.group("elem") or "f32"
    if elem not in ELEM_TYPES:
        raise NotationError(f"unknown element type {elem!r}")
    # Split dims on commas outside braces.
    dims, depth, current = [], 0, ""
    for ch in m.group("dims"):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            dims.append(current.strip())
            current = ""
        else:
            current += ch
    dims.append(current.strip())
    parsed = []
    for d in dims:
        dm = _DIM_RE.match(d.replace(" ", ""))
        if not dm:
            raise NotationError(f"not a dim: {d!r}")
        parsed.append(Dim(int(dm.group("size")), _parse_axes(dm.group("axes") or "", mesh)))
    reduce_axes = _parse_axes(m.group("red") or "", mesh)
    return DistType(elem, tuple(parsed), reduce_axes, m.group("op") or "sum")
