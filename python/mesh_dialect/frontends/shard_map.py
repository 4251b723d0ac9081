"""shard_map's collectives read as collectives of this dialect.

Inside a shard_map (Shardy's `sdy.manual_computation`) JAX writes XLA's
collectives, which name devices by their number in the mesh (row-major,
`use_global_device_ids`): an all-reduce lists the groups of devices that
reduce together, a collective permute the (source, target) pairs.  This
dialect names mesh axes instead.  The helpers here find the axes a grouping
runs along, and the shift a permutation is, or say why there is none.  Pure
Python, no MLIR: the pass (`import-shardings`) only walks the IR.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from . import FrontendError


def coordinates(device: int, shape: Sequence[int]) -> tuple[int, ...]:
    """Device `device`'s position in a mesh of `shape` (row-major)."""
    out = []
    for size in reversed(shape):
        device, c = divmod(device, size)
        out.append(c)
    return tuple(reversed(out))


def _shown(groups: Sequence[Sequence[int]]) -> str:
    text = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups[:4]) + "]"
    return text if len(groups) <= 4 else text[:-1] + ", ...]"


def group_axes(groups: Sequence[Sequence[int]], shape: Sequence[int]) -> tuple[int, ...]:
    """The mesh axes, major first, whose devices `groups` gathers: every
    group holds the devices that differ only along those axes, listed in
    the order a collective over them numbers its members.  No groups is one
    group of every device (XLA's spelling).  Axes of size 1 are left out."""
    count = math.prod(shape)
    if not groups:
        return tuple(a for a, n in enumerate(shape) if n > 1)
    flat = [d for g in groups for d in g]
    if sorted(flat) != list(range(count)):
        raise FrontendError(f"replica groups must hold each of the mesh's {count} devices once, got {_shown(groups)}")
    first = [coordinates(d, shape) for d in groups[0]]
    varying = [a for a in range(len(shape)) if len({c[a] for c in first}) > 1]
    for order in itertools.permutations(varying):
        if all(_enumerates(g, order, shape) for g in groups):
            return order
    mesh = "x".join(map(str, shape))
    raise FrontendError(f"replica groups must be the groups of some axes of the {mesh} mesh, got {_shown(groups)}")


def _enumerates(group: Sequence[int], order: Sequence[int], shape: Sequence[int]) -> bool:
    """Whether `group` lists the devices that differ from its first one
    along `order` only, each once, in the row-major order of those axes."""
    if len(group) != math.prod(shape[a] for a in order):
        return False
    base = list(coordinates(group[0], shape))
    for a in order:
        if base[a] != 0:
            return False
    for k, device in enumerate(group):
        want = list(base)
        rest = k
        for a in reversed(order):
            rest, want[a] = divmod(rest, shape[a])
        if coordinates(device, shape) != tuple(want):
            return False
    return True


@dataclass(frozen=True)
class Shift:
    """A permutation of devices as `mesh.shift`: the device at coordinate c
    of `axis` receives from c - `offset`; with `rotate` coordinates wrap,
    without it the devices with no source receive nothing (XLA: zeros)."""

    axis: int
    offset: int
    rotate: bool


@dataclass(frozen=True)
class Ring:
    """A rotation of the devices' index over two mesh axes (`major`, then
    `minor`: JAX's `ppermute` over an axis tuple, or over an axis the mesh
    cuts into two): the device at index i receives from i - `offset`."""

    major: int
    minor: int
    offset: int


def permutation_shift(pairs: Sequence[tuple[int, int]], shape: Sequence[int]) -> Shift | Ring | None:
    """The shift the (source, target) pairs of a collective permute make,
    None when every device keeps its own data (each its own source)."""
    count = math.prod(shape)
    shown = "[" + ", ".join(f"[{s}, {t}]" for s, t in list(pairs)[:6]) + (", ...]" if len(pairs) > 6 else "]")
    if any(not (0 <= d < count) for pair in pairs for d in pair):
        raise FrontendError(f"source_target_pairs must name devices of the mesh's {count}, got {shown}")
    sources = [s for s, _ in pairs]
    targets = [t for _, t in pairs]
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets):
        raise FrontendError(f"source_target_pairs must name each device at most once per side, got {shown}")
    moved = [(coordinates(s, shape), coordinates(t, shape)) for s, t in pairs if s != t]
    if not moved:
        if len(pairs) == count:
            return None
        raise FrontendError(f"a collective permute that moves nothing must keep every device's data, got {shown}")
    axes = {a for s, t in moved for a in range(len(shape)) if s[a] != t[a]}
    mesh = "x".join(map(str, shape))
    not_shift = (
        f"source_target_pairs must shift the devices along one axis of the {mesh} mesh, or rotate them over two, "
        f"got {shown}"
    )
    if len(axes) == 2 and len(moved) == len(pairs) == count:
        for major, minor in itertools.permutations(sorted(axes)):
            size, minors = shape[major] * shape[minor], shape[minor]
            steps = {(t[major] * minors + t[minor] - s[major] * minors - s[minor]) % size for s, t in moved}
            if len(steps) == 1:
                return Ring(major, minor, steps.pop())
    if len(axes) != 1 or len(moved) != len(pairs):
        raise FrontendError(not_shift)
    axis = axes.pop()
    n = shape[axis]
    steps = {t[axis] - s[axis] for s, t in moved}
    if len(pairs) == count and len({k % n for k in steps}) == 1:
        return Shift(axis, next(iter(steps)) % n, True)
    if len(steps) == 1:
        k = steps.pop()
        expected = sum(1 for d in range(count) if 0 <= coordinates(d, shape)[axis] + k < n)
        if len(pairs) == expected:
            return Shift(axis, k, False)
    raise FrontendError(not_shift)
