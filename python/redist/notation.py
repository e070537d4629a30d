"""Other systems' shardings in and out of redist types (docs/interop.md): XLA
HloSharding text, Shardy `sdy.mesh`/`#sdy.sharding`, JAX Mesh + PartitionSpec and
PyTorch DTensor placements. The converters are the C++ ones the CLI's --from/--to
use; shapes are written `f32[16,8]`. Malformed text raises ValueError with the column
and the reason; what a notation cannot express is refused with the reason.

    >>> import redist
    >>> from redist import notation
    >>> mesh, t = notation.read_type("jax", "f32[16,8] P('x')", redist.parse_mesh("{x:4, y:2}"))
    >>> notation.write_type("hlo", t, mesh)
    'f32[16,8] {devices=[4,1,2]<=[8] last_tile_dim_replicate}'
"""

from ._redist.notation import (
    from_hlo_sharding,
    from_partition_spec,
    from_placements,
    from_sdy_sharding,
    parse_array_shape,
    parse_device_mesh,
    parse_jax_mesh,
    parse_sdy_mesh,
    read_mesh,
    read_type,
    split_sub_axes,
    to_device_mesh,
    to_hlo_sharding,
    to_jax_mesh,
    to_partition_spec,
    to_placements,
    to_sdy_mesh,
    to_sdy_sharding,
    write_mesh,
    write_type,
)

__all__ = [
    "from_hlo_sharding", "from_partition_spec", "from_placements", "from_sdy_sharding", "parse_array_shape",
    "parse_device_mesh", "parse_jax_mesh", "parse_sdy_mesh", "read_mesh", "read_type", "split_sub_axes",
    "to_device_mesh", "to_hlo_sharding", "to_jax_mesh", "to_partition_spec", "to_placements", "to_sdy_mesh",
    "to_sdy_sharding", "write_mesh", "write_type",
]
