"""Checks the reading of XLA's collectives that bench/xla_compare.py reports (label `xla`).

Each spelling of replica_groups that XLA prints, as printed, must give its group size;
and XLA's own reshard of an MoE dispatch on {dp:2, ep:4}, whose all-to-all XLA prints
over the sub-axis 'axis_1':(2)2 of a mesh spelling, must read as a 2-way all-to-all and
a permute, with the bytes its shapes and pairs give (a reading of the whole axis made
it a 4-way one and overstated XLA's bytes by a quarter). Exit status 0 when all agree.
"""

import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

from redist_xla.hlo_stats import collectives, group_size, summary  # noqa: E402

SPELLINGS = [
    ("replica_groups={{0,1,2,3},{4,5,6,7}}, dimensions={0}", 4),
    ("replica_groups={}, dimensions={0}", 8),
    ("replica_groups=[4,2]<=[8], dimensions={0}", 2),
    ("replica_groups=[2,4]<=[4,2]T(1,0), dimensions={0}", 4),
    ("replica_groups=mesh['axis_0'=2,'axis_1'=4] {'axis_1'}, dimensions={0}", 4),
    ("replica_groups=mesh['axis_0'=2,'axis_1'=4], device_ids=([2,2,2]T(1,0,2)) {'axis_1':(2)2}, dimensions={1}", 2),
    ("replica_groups=mesh['a'=2,'b'=4] {'a','b':(1)2}, dimensions={1}", 4),
]


def main() -> int:
    failures = []
    for attrs, want in SPELLINGS:
        if (got := group_size(attrs, 8)) != want:
            failures.append(f"{attrs}: group size {got}, want {want}")

    mesh = Mesh(np.array(jax.devices("cpu")).reshape(2, 4), ("dp", "ep"))
    src, dst = NamedSharding(mesh, P("ep", None)), NamedSharding(mesh, P("dp", "ep"))
    x = jax.device_put(np.arange(16384 * 64, dtype=np.float32).reshape(16384, 64), src)
    text = jax.jit(lambda a: a, in_shardings=src, out_shardings=dst).lower(x).compile().as_text()
    found = collectives(text, 8)
    # 1 MiB per device, sliced to 512 KiB: the 2-way all-to-all receives half of it, the
    # permute moves 512 KiB on the 4 devices whose pair is not to themselves.
    if summary(found) != "A2A(2) CP(2)":
        failures.append(f"MoE dispatch: {summary(found)}, want A2A(2) CP(2)")
    if (total := sum(c.bytes_moved for c in found)) != 512 * 1024:
        failures.append(f"MoE dispatch: {total} bytes per device, want {512 * 1024}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(SPELLINGS)} spellings and one compiled module read; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
