"""Compiling and running emitted modules on XLA:CPU with up to 8 devices.

Import this module before anything imports jax: it sets XLA_FLAGS so the CPU client
has 8 devices, and enables 64-bit types.
"""

from __future__ import annotations

import os

NUM_CPU_DEVICES = 8
if "--xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                               f" --xla_force_host_platform_device_count={NUM_CPU_DEVICES}").strip()

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax._src import xla_bridge  # noqa: E402
from jax._src.lib import xla_client  # noqa: E402
from jax.sharding import Mesh as JaxMesh, NamedSharding, PartitionSpec  # noqa: E402
from jaxlib import _hlo  # noqa: E402

jax.config.update("jax_enable_x64", True)


def hlo_text_to_stablehlo(text: str) -> bytes:
    """Parses classic HLO text with the HLO parser jaxlib ships and converts it to a
    StableHLO module (MLIR bytecode) the CPU client compiles."""
    module = _hlo.hlo_module_from_text(text)
    return xla_client._xla.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())


def compile_module(module: str | bytes, num_partitions: int):
    """A loaded executable of `module` (StableHLO text or bytecode) on the first
    `num_partitions` CPU devices, SPMD-partitioned, partition i on device i."""
    options = xla_client.CompileOptions()
    options.num_replicas = 1
    options.num_partitions = num_partitions
    options.device_assignment = xla_client.DeviceAssignment.create(np.arange(num_partitions).reshape(1, -1))
    options.executable_build_options.use_spmd_partitioning = True
    devices = jax.devices("cpu")[:num_partitions]
    client = xla_bridge.get_backend("cpu")
    return client.compile_and_load(module, xla_client.DeviceList(tuple(devices)), options)


def place(buffers: list[np.ndarray]) -> jax.Array:
    """One global array whose shard on CPU device i is buffers[i] (the per-device input
    of a partitioned executable)."""
    devices = jax.devices("cpu")[:len(buffers)]
    shards = [jax.device_put(b, d) for b, d in zip(buffers, devices)]
    sharding = NamedSharding(JaxMesh(np.array(devices), ("d",)), PartitionSpec("d"))
    shape = (len(buffers) * buffers[0].shape[0],) + buffers[0].shape[1:]
    return jax.make_array_from_single_device_arrays(shape, sharding, shards)


def execute(executable, arg: jax.Array) -> list[np.ndarray]:
    """Runs a one-parameter, one-result executable; the result buffer of each device."""
    results = executable.execute_sharded([arg]).disassemble_into_single_device_arrays()
    return [np.asarray(a) for a in results[0]]
