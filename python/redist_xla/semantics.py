"""Reference semantics of distributed array types (docs/design.md §1), in NumPy.

Device at mesh coordinates c holds, in dim i with axes a1..ak, block
b_i(c) = mixed-radix(c[a1], ..., c[ak]) (a1 most significant); local index l maps to
global index b_i(c) * local_i + l, padding where that is >= the global size. With
reduction axes R the logical element is the reduction over the R-coordinates.

Module boundary convention of the emitter (docs/hlo.md): a type with reduction axes
has an extra leading dim of size 1 per device (the device's own summand).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from .notation import AxisRef, Dim, DistType, Mesh

NUMPY_DTYPES = {
    "pred": np.bool_, "s8": np.int8, "u8": np.uint8, "s16": np.int16, "u16": np.uint16,
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "s32": np.int32, "u32": np.uint32,
    "f32": np.float32, "s64": np.int64, "u64": np.uint64, "f64": np.float64,
}
# Element values are the row-major index modulo this, so every value is exact.
_VALUE_MODULUS = {"pred": 2, "s8": 64, "u8": 256, "s16": 1 << 14, "u16": 1 << 14, "f16": 1024,
                  "bf16": 128, "f32": 1 << 24}
PADDING = 0


def axis_coordinate(mesh: Mesh, coords: dict[str, int], ref: AxisRef) -> int:
    n = mesh.axis_size(ref.name)
    return (coords[ref.name] // (n // (ref.pre * ref.size))) % ref.size


def mixed_radix(mesh: Mesh, coords: dict[str, int], refs: tuple[AxisRef, ...]) -> int:
    index = 0
    for ref in refs:
        index = index * ref.size + axis_coordinate(mesh, coords, ref)
    return index


def tiles(dim: Dim) -> int:
    return math.prod(a.size for a in dim.axes)


def local_shape(t: DistType) -> tuple[int, ...]:
    return tuple(-(-d.size // tiles(d)) for d in t.dims)


def global_array(t: DistType) -> np.ndarray:
    """The logical array: each element is its row-major index (mod the type's range)."""
    shape = tuple(d.size for d in t.dims)
    values = np.arange(math.prod(shape), dtype=np.int64) % _VALUE_MODULUS.get(t.elem, 1 << 30)
    return values.reshape(shape).astype(NUMPY_DTYPES[t.elem])


def _shard(mesh: Mesh, t: DistType, logical: np.ndarray, coords: dict[str, int]) -> np.ndarray:
    """The device's local buffer of the logical array, padding filled with PADDING."""
    shape = local_shape(t)
    out = np.full(shape, PADDING, dtype=logical.dtype)
    src, dst = [], []
    for dim, local in zip(t.dims, shape):
        start = mixed_radix(mesh, coords, dim.axes) * local
        valid = max(0, min(local, dim.size - start))
        src.append(slice(start, start + valid))
        dst.append(slice(0, valid))
    out[tuple(dst)] = logical[tuple(src)]
    return out


def _summand(t: DistType, value: np.ndarray, r: int) -> np.ndarray:
    """Summand r of `value` over the reduction: reducing all summands gives `value`, and
    dropping or doubling one changes the result."""
    if t.elem == "pred":
        identity = t.reduce_op == "min"
        return value if r == 0 else np.full_like(value, identity)
    if t.reduce_op in ("max", "min"):
        info = np.iinfo(value.dtype) if np.issubdtype(value.dtype, np.integer) else ml_dtypes.finfo(value.dtype)
        return value if r == 0 else np.full_like(value, info.min if t.reduce_op == "max" else info.max)
    if r > 0:
        return np.full_like(value, r)
    size = math.prod(a.size for a in t.reduce_axes)
    return value - value.dtype.type(size * (size - 1) // 2)


def input_buffers(mesh: Mesh, t: DistType, logical: np.ndarray, slots: int | None = None) -> list[np.ndarray]:
    """The source buffer of every physical device, as the emitted module takes it: `slots`
    devices when the program runs over more than the mesh (a transfer between device
    sets), those outside the mesh holding zeros. A summand of a pending reduction has a
    leading dim of 1 in a module over one mesh; a module over the union of two device
    sets stacks the local buffers themselves."""
    count = slots if slots is not None else mesh.num_devices
    zeros = np.zeros(local_shape(t), dtype=logical.dtype)
    buffers: list[np.ndarray | None] = [zeros] * count
    for position, device in enumerate(mesh.devices):
        coords = mesh.coords_of_position(position)
        shard = _shard(mesh, t, logical, coords)
        if t.reduce_axes:
            shard = _summand(t, shard, mixed_radix(mesh, coords, t.reduce_axes))
            if slots is None:
                shard = shard[np.newaxis]
        buffers[device] = shard
    return buffers


def _combine(op: str, values: list[np.ndarray]) -> np.ndarray:
    if values[0].dtype == np.bool_:
        return np.logical_and.reduce(values) if op == "min" else np.logical_or.reduce(values)
    reducer = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op]
    return reducer.reduce(values)


def _off_reduction(mesh: Mesh, t: DistType, coords: dict[str, int]) -> tuple[int, ...]:
    """The coordinates with every reduction factor set to 0: equal for exactly the
    devices of one reduction group."""
    out = dict(coords)
    for ref in t.reduce_axes:
        out[ref.name] -= axis_coordinate(mesh, coords, ref) * (mesh.axis_size(ref.name) // (ref.pre * ref.size))
    return tuple(out[name] for name, _ in mesh.axes)


def first_mismatch(mesh: Mesh, t: DistType, logical: np.ndarray, outputs: list[np.ndarray],
                   union: bool = False) -> str | None:
    """Compares every non-padding element of every device's output with `t`'s reference
    semantics (reduced over the reduction group when pending; a summand has a leading
    dim of 1 unless the module runs over the `union` of two device sets); a description
    of the first difference, or None."""
    shape = local_shape(t)
    holders: dict[tuple, list[int]] = {}
    for position, device in enumerate(mesh.devices):
        holders.setdefault(_off_reduction(mesh, t, mesh.coords_of_position(position)), []).append(device)
    for position, device in enumerate(mesh.devices):
        coords = mesh.coords_of_position(position)
        got = outputs[device]
        lead = t.reduce_axes and not union
        expected_shape = ((1,) if lead else ()) + shape
        if got.shape != expected_shape:
            return f"device {device}: shape {got.shape}, expected {expected_shape}"
        if t.reduce_axes:
            got = _combine(t.reduce_op, [outputs[d][0] if lead else outputs[d]
                                         for d in holders[_off_reduction(mesh, t, coords)]])
        want = _shard(mesh, t, logical, coords)
        valid = tuple(slice(0, max(0, min(local, dim.size - mixed_radix(mesh, coords, dim.axes) * local)))
                      for dim, local in zip(t.dims, shape))
        diff = np.argwhere(got[valid] != want[valid])
        if diff.size:
            index = tuple(int(i) for i in diff[0])
            return (f"device {device} local index {list(index)}: got {got[index]}, "
                    f"expected {want[index]}")
    return None
