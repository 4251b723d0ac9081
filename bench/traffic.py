"""Bytes a device receives in a partitioned program, read from its text in
either spelling (ours: `mesh.`/`mesh_axes`, upstream's: `shard.`/`grid_axes`),
with the resharding planner's cost model (see `sharding/resharding.py`):
all_gather (g-1)*S, all_reduce 2(g-1)*ceil(E/g) elements, reduce_scatter and
all_to_all (g-1)/g*S, send and all_slice 0, any other communicating op S
(S = the op's input, g = its device group).  Shared by the benchmarks that
compare our output with upstream's."""

from __future__ import annotations

import math
import re

OP = re.compile(r"\b(?:mesh|shard)\.(\w+) .*?: \(?(tensor<[^>]*>)\)?(?: -> (tensor<[^>]*>))?")
AXES = re.compile(r"(?:mesh|grid)_axes = \[([\d, ]*)\]")
MODELLED = {"all_gather", "all_reduce", "reduce_scatter", "all_to_all"}
COMMUNICATING = MODELLED | {"send", "recv", "shift", "broadcast", "gather", "scatter", "reduce", "update_halo"}


def elements(tensor_type: str) -> int:
    dims = tensor_type[len("tensor<") : -1].split("x")[:-1]
    return math.prod(int(d) for d in dims)


def traffic(
    ir_text: str, mesh: tuple[int, ...], element_bytes: int, *, modelled_only: bool = False
) -> tuple[int, int, dict[str, int]] | None:
    """(collectives, bytes a device receives, {kind: count}); with
    `modelled_only`, None when an op outside the four collectives the
    planner's model prices exactly appears.  Ops are counted as written: a
    send/recv in both branches of an `scf.if` counts twice."""
    count = total = 0
    kinds: dict[str, int] = {}
    for line in ir_text.splitlines():
        m = OP.search(line)
        if not m or m.group(1) not in COMMUNICATING:
            continue
        kind, e = m.group(1), elements(m.group(2))
        if modelled_only and kind not in MODELLED:
            return None
        axes_m = AXES.search(line)
        axes = [int(a) for a in axes_m.group(1).split(",") if a.strip()] if axes_m else []
        g = math.prod(mesh[a] for a in axes)
        count += 1
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind == "all_gather":
            total += (g - 1) * e
        elif kind in ("all_to_all", "reduce_scatter"):
            total += (g - 1) * e // g
        elif kind == "all_reduce":
            total += 2 * (g - 1) * -(-e // g)
        elif kind != "send":
            total += e
    return count, total * element_bytes, kinds
