"""Reading the anchor corpus: `name | mesh | source | target [| target mesh]` per line,
`#` starts a comment (its tags). A case tagged `staged` is synthesized under the cost
model `device_sets.cost` beside the corpus file (tests/data/device_sets.txt)."""

from __future__ import annotations

import os

from .check import Case
from .notation import parse_mesh


def read_anchors(path: str, max_devices: int) -> list[tuple[str, Case]]:
    """(name, case) of every anchor whose meshes name devices below `max_devices`."""
    out = []
    with open(path) as f:
        for line in f:
            body, _, tags = line.partition("#")
            fields = [s.strip() for s in body.split("|")]
            if len(fields) < 4 or not fields[0]:
                continue
            case = Case(fields[1], fields[2], fields[3], fields[4] if len(fields) > 4 else None)
            if "staged" in tags.split():
                case.cost_model = os.path.join(os.path.dirname(os.path.abspath(path)), "device_sets.cost")
            meshes = [parse_mesh(case.mesh)] + ([parse_mesh(case.target_mesh)] if case.target_mesh else [])
            if max(m.slots for m in meshes) <= max_devices:  # every device id below max_devices
                out.append((fields[0], case))
    return out
