"""Seeded random (mesh, source, target) cases of up to 8 devices, in redist notation:
whole axes and sub-axes spread over the dims of 1- to 3-D arrays in random order,
sometimes replicated, sometimes with a different target device order. Dim sizes are
multiples of both tilings (no padding)."""

from __future__ import annotations

import math
import random

from .check import Case

MESHES = [
    [("x", 8)], [("x", 4)], [("x", 2), ("y", 2)], [("x", 4), ("y", 2)], [("x", 2), ("y", 4)],
    [("x", 2), ("y", 2), ("z", 2)], [("x", 2), ("y", 3)],
]
ELEMS = ["f32"] * 6 + ["bf16", "s32", "f64"]


def _mesh_text(axes: list[tuple[str, int]], devices: list[int] | None) -> str:
    text = "{" + ", ".join(f"{n}:{s}" for n, s in axes) + "}"
    return text + (" devices=[" + ",".join(map(str, devices)) + "]" if devices else "")


def _factors(rng: random.Random, axes: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """(text, size) of the axes to place: whole axes, or an axis of size 4 as its two
    factors x:(1)2 and x:(2)2 now and then."""
    out = []
    for name, size in axes:
        if size == 4 and rng.random() < 0.25:
            out += [(f"{name}:(1)2", 2), (f"{name}:(2)2", 2)]
        else:
            out.append((name, size))
    return out


def _tiling(rng: random.Random, factors: list[tuple[str, int]], rank: int) -> list[list[tuple[str, int]]]:
    """Each factor in a random dim (or replicated), dims' axis lists in random order."""
    dims: list[list[tuple[str, int]]] = [[] for _ in range(rank)]
    for factor in factors:
        where = rng.randrange(rank + 1)
        if where < rank:
            dims[where].append(factor)
    for d in dims:
        rng.shuffle(d)
    return dims


def _type_text(elem: str, sizes: list[int], tiling: list[list[tuple[str, int]]]) -> str:
    dims = [("{" + ",".join(t for t, _ in axes) + "}" if axes else "") + str(size)
            for size, axes in zip(sizes, tiling)]
    return elem + "[" + ", ".join(dims) + "]"


def random_case(rng: random.Random) -> Case:
    axes = rng.choice(MESHES)
    n = math.prod(s for _, s in axes)
    devices = None
    if rng.random() < 0.2:
        devices = list(range(n))
        rng.shuffle(devices)
    target_devices = None
    if rng.random() < 0.15:
        target_devices = list(range(n))
        rng.shuffle(target_devices)
    rank = rng.randint(1, 3)
    src = _tiling(rng, _factors(rng, axes), rank)
    dst = _tiling(rng, _factors(rng, axes), rank)
    sizes = []
    for s, t in zip(src, dst):
        tiles = math.lcm(math.prod(z for _, z in s), math.prod(z for _, z in t))
        sizes.append(tiles * rng.choice([1, 2, 3]))
    elem = rng.choice(ELEMS)
    mesh = _mesh_text(axes, devices)
    target_mesh = _mesh_text(axes, target_devices) if target_devices else None
    return Case(mesh, _type_text(elem, sizes, src), _type_text(elem, sizes, dst), target_mesh)


def random_cases(seed: int, count: int) -> list[Case]:
    rng = random.Random(seed)
    return [random_case(rng) for _ in range(count)]
