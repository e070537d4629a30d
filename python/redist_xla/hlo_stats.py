"""What a compiled (SPMD-partitioned) HLO module communicates: its collectives, each
with the bytes it moves per device, read from the module text's shapes and groups.

Bytes moved per device are the bytes a device receives under the usual ring/direct
algorithms, averaged over the devices: all-gather (g-1)/g of its output, all-to-all
(g-1)/g of its buffer, reduce-scatter (g-1)/g of its input, all-reduce 2(g-1)/g of its
buffer, collective-permute its buffer for each pair whose source is not its target.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

ELEM_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4,
              "f32": 4, "s64": 8, "u64": 8, "f64": 8}
COLLECTIVES = ("all-gather", "all-to-all", "collective-permute", "reduce-scatter", "all-reduce")
SHORT = {"all-gather": "AG", "all-to-all": "A2A", "collective-permute": "CP", "reduce-scatter": "RS",
         "all-reduce": "AR"}

_INSTR_RE = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(?P<shape>\(.*?\)|[a-z0-9]+\[[^\]]*\](?:\{[^}]*\})?)\s+"
                       r"(?P<op>[a-z\-]+)\((?P<rest>.*)$")
_ARRAY_RE = re.compile(r"([a-z0-9]+)\[([^\]]*)\]")


def shape_bytes(shape: str) -> int:
    """Bytes of an HLO shape, summed over the elements of a tuple."""
    total = 0
    for elem, dims in _ARRAY_RE.findall(shape):
        if elem in ELEM_BYTES:
            total += ELEM_BYTES[elem] * math.prod(int(d) for d in dims.split(",") if d)
    return total


def group_size(attrs: str, num_devices: int) -> int:
    """Members per replica group, from any of XLA's spellings of replica_groups."""
    m = re.search(r"replica_groups=\{(\{[^}]*\})", attrs)
    if m:
        return len(m.group(1).strip("{}").split(","))
    m = re.search(r"replica_groups=\[(\d+),(\d+)\]<=", attrs)
    if m:
        return int(m.group(2))
    m = re.search(r"replica_groups=mesh\[([^\]]*)\].*?\{([^}]*)\}", attrs)
    if m:
        # Group axes are whole axes ('y') or sub-axes ('y':(2)2, pre-size then size).
        sizes = dict(re.findall(r"'(\w+)'=(\d+)", m.group(1)))
        return math.prod(int(sub) if sub else int(sizes[a])
                         for a, sub in re.findall(r"'(\w+)'(?::\(\d+\)(\d+))?", m.group(2)))
    return num_devices  # replica_groups={}: all devices


@dataclass
class Collective:
    op: str
    group: int
    bytes_moved: float  # per device, averaged over devices


def collectives(hlo_text: str, num_devices: int) -> list[Collective]:
    """The collectives of a compiled module's text (async -start ops counted once)."""
    out = []
    for line in hlo_text.splitlines():
        m = _INSTR_RE.match(line)
        if not m:
            continue
        op = m.group("op").removesuffix("-start")
        if op not in COLLECTIVES:
            continue
        rest = m.group("rest")
        shape = m.group("shape")
        if m.group("op").endswith("-start"):  # an (operand, result) tuple: the result
            shape = _ARRAY_RE.findall(shape)[-1]
            shape = f"{shape[0]}[{shape[1]}]"
        size = shape_bytes(shape)
        if op == "collective-permute":
            pairs = re.findall(r"\{(\d+),(\d+)\}", rest.split("source_target_pairs=", 1)[1])
            moving = sum(1 for s, t in pairs if s != t)
            out.append(Collective(op, 2, size * moving / num_devices))
            continue
        g = group_size(rest, num_devices)
        factor = {"all-gather": (g - 1) / g, "all-to-all": (g - 1) / g, "reduce-scatter": g - 1,
                  "all-reduce": 2 * (g - 1) / g}[op]
        out.append(Collective(op, g, size * factor))
    return out


def summary(found: list[Collective]) -> str:
    """e.g. "AG(4)x2 A2A(2)": kind, group size and count."""
    counts: dict[str, int] = {}
    for c in found:
        key = f"{SHORT[c.op]}({c.group})"
        counts[key] = counts.get(key, 0) + 1
    return " ".join(k + (f"x{n}" if n > 1 else "") for k, n in counts.items()) or "-"
