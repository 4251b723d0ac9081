"""Bytes a device receives in a partitioned program, read from its text in
either spelling (ours: `mesh.`/`mesh_axes`, upstream's: `shard.`/`grid_axes`),
with the resharding planner's cost model (see `sharding/resharding.py`), as
the simulator's `count_traffic` counts a run: for each op the most any one
device receives, summed over the ops.  S is the op's input, E its elements,
g its device group: all_gather (g-1)*S, all_reduce 2(E-floor(E/g))
elements (`sharding/costs.py`), reduce_scatter and all_to_all (g-1)*floor(E/g) elements, gather
and reduce (the root) (g-1)*S, scatter (off the root) its result, broadcast
and recv S, shift S when some device has a source other than itself,
update_halo the destination halo cells inside the tensor that other devices
own (the middle piece's), send and all_slice 0; a one-device group moves
nothing.  An element weighs what its type does (bf16 2 bytes, f64 8, i1 1),
as in the simulator.  Shared by the benchmarks that compare our output with
upstream's."""

from __future__ import annotations

import math
import re

OP = re.compile(r"\b(?:mesh|shard)\.(\w+) .*?: \(?(tensor<[^>]*>)\)?(?: -> (tensor<[^>]*>))?")
AXES = re.compile(r"(?:mesh|grid)_axes = \[([\d, ]*)\]")
SPLIT = re.compile(r"split_axes = \[((?:\[[\d, ]*\],? ?)*)\]")
HALOS = re.compile(r"\b(source_|destination_)?halo_sizes = \[([^\]]*)\]")
SHIFT = re.compile(r"shift_axis = (\d+) offset = (-?\d+)( rotate)?")
MODELLED = {"all_gather", "all_reduce", "reduce_scatter", "all_to_all"}
DIMS = re.compile(r"^(?:(?:\d+|\?)x)*")
WIDTH = re.compile(r"^(?:[a-z]*?)(\d+)")
COMMUNICATING = MODELLED | {"send", "recv", "shift", "broadcast", "gather", "scatter", "reduce", "update_halo"}


class DynamicSize(ValueError):
    """A collective on a tensor whose type has a `?` size: its bytes differ
    from device to device, which only a run (or `mesh-analysis`, which
    follows each device) can tell."""


def elements(tensor_type: str) -> int:
    dims = DIMS.match(tensor_type[len("tensor<") : -1]).group(0).split("x")[:-1]
    if "?" in dims:
        raise DynamicSize(f"a collective on {tensor_type}, whose size is known only at run time")
    return math.prod(int(d) for d in dims)


def element_bytes(tensor_type: str) -> int:
    """Bytes of one element of `tensor<...xT>`: T's bit width rounded up to
    whole bytes (index 8, complex both parts, a type without a width 4)."""
    element = DIMS.sub("", tensor_type[len("tensor<") : -1]).strip()
    if element == "index":
        return 8
    parts = 2 if element.startswith("complex<") else 1
    m = WIDTH.match(element.removeprefix("complex<"))
    return parts * (max(1, (int(m.group(1)) + 7) // 8) if m else 4)


def traffic(
    ir_text: str, mesh: tuple[int, ...], *, modelled_only: bool = False
) -> tuple[int, int, dict[str, int]] | None:
    """(collectives, bytes a device receives, {kind: count}); with
    `modelled_only`, None when an op outside the four collectives the
    planner's model prices exactly appears.  Collectives are counted as
    written; bytes count the costlier branch of an `scf.if` (a device runs
    one: a point-to-point exchange writes the send/recv pair in both
    branches, in opposite orders), as mesh-analysis does."""
    count = 0
    kinds: dict[str, int] = {}
    # Per open region, its kind and the bytes of each of its branches so far
    # (an scf.if's two; one for any other region, added to its parent's).
    regions: list[tuple[bool, list[int]]] = [(False, [0])]
    for line in ir_text.splitlines():
        opens, closes = _braces(line)
        if closes and opens and regions[-1][0] and line.lstrip().startswith("} else {"):
            regions[-1][1].append(0)  # the if's second branch
            continue
        if closes and len(regions) > 1:
            _, totals = regions.pop()
            regions[-1][1][-1] += max(totals)
        if opens:
            regions.append((SCF_IF.search(line) is not None, [0]))
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
        regions[-1][1][-1] += _received(kind, line, m, e, g, mesh) * element_bytes(m.group(2))
    while len(regions) > 1:  # (text cut short: close what is open)
        _, totals = regions.pop()
        regions[-1][1][-1] += max(totals)
    return count, regions[0][1][0], kinds


SCF_IF = re.compile(r"= scf\.if |^\s*scf\.if ")


def _braces(line: str) -> tuple[int, int]:
    """(regions the line opens, regions it closes): a line ending in `{` opens
    one, a line starting with `}` closes one (`} else {` both)."""
    text = line.strip()
    return int(text.endswith("{")), int(text.startswith("}"))


def _received(kind: str, line: str, m: re.Match[str], e: int, g: int, mesh: tuple[int, ...]) -> int:
    """Elements a device receives in one communicating op (the module docstring)."""
    if kind == "update_halo":
        return _halo_elements(line, m.group(2), mesh, e)
    if g == 1:
        return 0  # a group of one device: every device keeps its own data
    if kind in ("all_gather", "gather", "reduce"):
        return (g - 1) * e
    if kind in ("all_to_all", "reduce_scatter"):
        return (g - 1) * (e // g)
    if kind == "all_reduce":
        return 2 * (e - e // g)  # (`all_reduce_elements`)
    if kind == "scatter":
        return elements(m.group(3)) if m.group(3) else e // g
    if kind == "shift":
        return e if _shift_moves(line, mesh) else 0
    return 0 if kind == "send" else e


def _shift_moves(line: str, mesh: tuple[int, ...]) -> bool:
    """Whether some device of a shift gets its data from another device."""
    m = SHIFT.search(line)
    if not m:
        return True
    n, offset = mesh[int(m.group(1))], int(m.group(2))
    return offset % n != 0 if m.group(3) else 0 < abs(offset) < n


def _halo_elements(line: str, source_type: str, mesh: tuple[int, ...], whole: int) -> int:
    """The most destination halo cells inside the tensor that a device of an
    `update_halo` takes from other devices: per split dimension, the widest
    in-range window of any piece (the pieces' windows are independent across
    dimensions), times the other dimensions, less the device's own core.
    Ours gives source and destination halos, upstream's one `halo_sizes`
    for both; halos only known at run time count as the whole input."""
    split_m = SPLIT.search(line)
    split = (
        [[int(a) for a in g.split(",") if a.strip()] for g in re.findall(r"\[([\d, ]*)\]", split_m.group(1))]
        if split_m
        else []
    )
    halos: dict[str, list[int]] = {}
    for prefix, values in HALOS.findall(line):
        try:
            halos[prefix] = [int(v) for v in values.split(",") if v.strip()]
        except ValueError:
            return whole  # a dynamic halo size
    src = halos.get("source_", halos.get("", []))
    dst = halos.get("destination_", halos.get("", []))
    sharded = [d for d, axes in enumerate(split) if axes]
    src = src or [0] * (2 * len(sharded))
    dst = dst or [0] * (2 * len(sharded))
    shape = [int(d) for d in source_type[len("tensor<") : -1].split("x")[:-1]]
    inside = own = 1
    for d, extent in enumerate(shape):
        if d not in sharded:
            inside *= extent
            own *= extent
            continue
        i = sharded.index(d)
        core = extent - src[2 * i] - src[2 * i + 1]
        n = math.prod(mesh[a] for a in split[d])
        low, high = dst[2 * i], dst[2 * i + 1]
        inside *= max(_window(p, n, core, low, high) for p in _window_candidates(n, core, low, high))
        own *= core
    return inside - own


def _window(p: int, n: int, core: int, low: int, high: int) -> int:
    """Cells of piece `p`'s halo window inside a dimension of `n` pieces."""
    return min((p + 1) * core + high, n * core) - max(p * core - low, 0)


def _window_candidates(n: int, core: int, low: int, high: int) -> set[int]:
    """Pieces among which the widest window is: `_window` is concave in `p`
    (a clipped rise less a clipped rise), so its maximum is at an end or
    next to where a clip starts."""
    found = {0, n - 1}
    if core > 0:
        for edge in (low // core, (n * core - high) // core - 1):
            found.update(p for p in (edge - 1, edge, edge + 1) if 0 <= p < n)
    return found
