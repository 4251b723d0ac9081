"""What each mesh collective computes, as functions from every device's input
array to every device's result array.

These are the executable reading of the dialect's reference page, used to
interpret IR, to check the MPI backend and to test resharding plans.  Every
function takes `inputs` holding one array for each device of `mesh` (keyed
by multi-index), checks its arguments (raising CollectiveError with a
lowercase message), and returns fresh arrays that never alias the inputs.

Groups and in-group order follow `mesh_dialect.sharding.spec`: devices that
agree outside `mesh_axes` form a group, ordered by their coordinates along
`mesh_axes` as listed (first outermost).  Empty `mesh_axes` make every
device its own group.

Roots.  `broadcast`, `gather`, `reduce` and `scatter` take `root` as the
in-group multi-index over `mesh_axes`, in one of three forms:

- a sequence of ints: the same root for every group (a static `root`);
- a mapping from device to sequence, or
- a callable taking a device and returning a sequence: each device's own
  evaluation of a dynamic `root` (SSA operands may differ between groups).
  All devices of a group must agree, otherwise CollectiveError.

Results that the reference leaves undefined (off-root results of `gather`
and `reduce`, sourceless devices of a non-rotating `shift`, halo cells beyond
the tensor's edge in `update_halo`) are poison, see `sim.layout.poison`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

import numpy as np

from ..sharding.costs import all_reduce_elements
from ..sharding.spec import Device, Mesh, MeshError
from .layout import combine, poison, reduction_problem

Inputs = Mapping[Device, np.ndarray]
Root = Sequence[int] | Mapping[Device, Sequence[int]] | Callable[[Device], Sequence[int]]


class CollectiveError(ValueError):
    """Arguments a collective cannot run with."""


class CollectiveMismatch(CollectiveError):
    """Sends and receives that do not pair up."""


# -- argument checks -------------------------------------------------------------


def _fmt(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _axes(mesh: Mesh, mesh_axes: Sequence[int], what: str = "mesh_axes") -> tuple[int, ...]:
    try:
        return mesh.check_axes(mesh_axes, what)
    except MeshError as e:
        raise CollectiveError(str(e)) from None


def _prepare(
    inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], *, one_shape: bool = False
) -> tuple[dict[Device, np.ndarray], tuple[int, ...]]:
    """Every device's array and the checked axes.  Arrays share one dtype and
    rank; the members of a group share one shape, while groups may differ (a
    tensor of dynamic size cut unevenly gives each group its own), unless
    `one_shape` asks for one shape on every device."""
    axes = _axes(mesh, mesh_axes)
    devices = mesh.devices()
    missing = [d for d in devices if d not in inputs]
    if missing:
        raise CollectiveError(
            f"inputs need an array for every device; device {_fmt(missing[0])} has none "
            f"({len(missing)} of {len(devices)} missing)"
        )
    known = set(devices)
    for d in inputs:
        if d not in known:
            raise CollectiveError(f"{d} is not a device of a mesh of shape {_fmt(mesh.shape)}")
    arrays = {d: np.asarray(inputs[d]) for d in devices}
    first = arrays[devices[0]]
    for group in [devices] if one_shape else mesh.iter_groups(axes):
        lead = arrays[group[0]]
        for d in group:
            a = arrays[d]
            if a.dtype != first.dtype or a.ndim != first.ndim:
                _different(d, a, devices[0], first)
            if a.shape != lead.shape:
                _different(d, a, group[0], lead)
    return arrays, axes


def _different(d: Device, a: np.ndarray, other: Device, b: np.ndarray) -> None:
    raise CollectiveError(
        f"every device must hold the same type: device {_fmt(d)} holds {_fmt(a.shape)} {a.dtype} "
        f"but device {_fmt(other)} holds {_fmt(b.shape)} {b.dtype}"
    )


# -- traffic -----------------------------------------------------------------------

_COUNTERS: list[dict[Device, int]] = []


@contextmanager
def count_traffic() -> Iterator[dict[Device, int]]:
    """Bytes each device receives in the collectives run inside the block,
    counted as the resharding planner's cost model does (all_gather: the
    others' pieces; all_to_all and reduce_scatter: (g - 1) / g of the input;
    all_reduce: a ring's 2 (E - floor(E / g)) elements; a point-to-point
    message: its array; update_halo: the halo cells taken from other pieces;
    broadcast, scatter, gather, reduce and shift: what a device gets from
    another), so plans can be checked against what their execution moves."""
    counts: dict[Device, int] = {}
    _COUNTERS.append(counts)
    try:
        yield counts
    finally:
        _COUNTERS.remove(counts)


_ONLY: list[frozenset] = []


@contextmanager
def traffic_of(devices) -> Iterator[None]:
    """Count only `devices` inside the block: the simulator runs a
    collective on stand-in arrays for devices of groups not taking part."""
    _ONLY.append(frozenset(devices))
    try:
        yield
    finally:
        _ONLY.pop()


_PER_BYTE: list[float] = []


@contextmanager
def counted_per_byte(ratio: float) -> Iterator[None]:
    """Count `ratio` bytes per byte of the arrays inside the block: a type
    held in a wider dtype (bf16 in f32 moves half its arrays' bytes)."""
    _PER_BYTE.append(ratio)
    try:
        yield
    finally:
        _PER_BYTE.pop()


def received(device: Device, nbytes: float) -> None:
    """Record that `device` received `nbytes` (for `count_traffic`)."""
    if _ONLY and device not in _ONLY[-1]:
        return
    if _PER_BYTE:
        nbytes *= _PER_BYTE[-1]
    for counts in _COUNTERS:
        counts[device] = counts.get(device, 0) + int(nbytes)


_received = received


def _tensor_axis(axis: int, rank: int, what: str) -> int:
    if isinstance(axis, bool) or not isinstance(axis, int | np.integer) or not 0 <= axis < rank:
        raise CollectiveError(f"{what} {axis} is out of range for a tensor of rank {rank}")
    return int(axis)


def _divisible(shape: tuple[int, ...], axis: int, n: int, what: str) -> int:
    if shape[axis] % n:
        raise CollectiveError(
            f"{what} {axis} has size {shape[axis]}, which does not split evenly over a group of {n} devices"
        )
    return shape[axis] // n


def _reduction(kind: str, dtype: np.dtype) -> None:
    problem = reduction_problem(kind, dtype)
    if problem:
        raise CollectiveError(problem)


def _result_dtype(first: np.ndarray, result_dtype: object) -> np.dtype:
    if result_dtype is None:
        return first.dtype
    try:
        return np.dtype(result_dtype)
    except TypeError:
        raise CollectiveError(f"{result_dtype!r} is not an element type") from None


def _piece(array: np.ndarray, axis: int, n: int, i: int) -> np.ndarray:
    """Piece `i` of `n` equal pieces of `array` along `axis`."""
    step = array.shape[axis] // n
    index = [slice(None)] * array.ndim
    index[axis] = slice(i * step, (i + 1) * step)
    return array[tuple(index)].copy()


def _root_device(root: Root, mesh: Mesh, axes: tuple[int, ...], group: list[Device]) -> Device:
    """The device of `group` that `root` names, after checking every member
    of the group names the same one."""
    if callable(root):
        ask = root
    elif isinstance(root, Mapping):

        def ask(d: Device) -> Sequence[int]:
            if d not in root:
                raise CollectiveError(f"root has no entry for device {_fmt(d)}")
            return root[d]

    else:
        static = root

        def ask(d: Device) -> Sequence[int]:
            return static

    chosen: tuple[int, ...] | None = None
    first: Device = group[0]
    for d in group:
        try:
            r = tuple(operator.index(c) for c in ask(d))
        except TypeError:
            raise CollectiveError(f"root must be a sequence of integers, got {ask(d)!r}") from None
        if chosen is None:
            chosen, first = r, d
        elif r != chosen:
            raise CollectiveError(
                f"devices {_fmt(first)} and {_fmt(d)} of one group disagree on the root: {_fmt(chosen)} and {_fmt(r)}"
            )
    assert chosen is not None
    if len(chosen) != len(axes):
        raise CollectiveError(f"root {_fmt(chosen)} needs {len(axes)} coordinates, one per mesh axis in {_fmt(axes)}")
    for a, c in zip(axes, chosen):
        if not 0 <= c < mesh.shape[a]:
            raise CollectiveError(f"root coordinate {c} is out of range for mesh axis {a} of size {mesh.shape[a]}")
    return mesh.device_at(group[0], axes, chosen)


# -- collectives -----------------------------------------------------------------


def all_gather(inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], gather_axis: int) -> dict[Device, np.ndarray]:
    """Every device gets its group's inputs concatenated along `gather_axis`, in in-group order."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    rank = arrays[mesh.devices()[0]].ndim
    gather_axis = _tensor_axis(gather_axis, rank, "gather_axis")
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        joined = np.concatenate([arrays[d] for d in group], axis=gather_axis)
        for d in group:
            out[d] = joined.copy()
            if _COUNTERS:
                _received(d, (len(group) - 1) * arrays[d].nbytes)
    return out


def all_slice(inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], slice_axis: int) -> dict[Device, np.ndarray]:
    """Each device keeps the piece of its own input, cut evenly along
    `slice_axis`, at its in-group position; no data moves."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    first = arrays[mesh.devices()[0]]
    slice_axis = _tensor_axis(slice_axis, first.ndim, "slice_axis")
    n = mesh.group_size(axes)
    for a in arrays.values():
        _divisible(a.shape, slice_axis, n, "slice_axis")
    return {d: _piece(a, slice_axis, n, mesh.in_group_index(d, axes)) for d, a in arrays.items()}


def all_to_all(
    inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], split_axis: int, concat_axis: int
) -> dict[Device, np.ndarray]:
    """Each device cuts its input into one piece per group member along
    `split_axis`; member i receives piece i of every member and concatenates
    them along `concat_axis` in in-group order."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    first = arrays[mesh.devices()[0]]
    split_axis = _tensor_axis(split_axis, first.ndim, "split_axis")
    concat_axis = _tensor_axis(concat_axis, first.ndim, "concat_axis")
    n = mesh.group_size(axes)
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        _divisible(arrays[group[0]].shape, split_axis, n, "split_axis")
        for i, d in enumerate(group):
            out[d] = np.concatenate([_piece(arrays[s], split_axis, n, i) for s in group], axis=concat_axis)
            if _COUNTERS:
                _received(d, (n - 1) * (arrays[d].nbytes // n))
    return out


def all_reduce(
    inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], kind: str = "sum", result_dtype: object = None
) -> dict[Device, np.ndarray]:
    """Every device gets the reduction of its group's inputs, converted to
    `result_dtype` (default: the input's) first and accumulated in it; see
    `sim.layout.combine` for overflow and `average`."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    dt = _result_dtype(arrays[mesh.devices()[0]], result_dtype)
    _reduction(kind, dt)
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        total = combine([arrays[d] for d in group], kind, dt)
        g = len(group)
        for d in group:
            out[d] = total.copy()
            if _COUNTERS:
                _received(d, all_reduce_elements(total.size, g) * total.itemsize)
    return out


def reduce(
    inputs: Inputs,
    mesh: Mesh,
    mesh_axes: Sequence[int],
    kind: str,
    root: Root,
    result_dtype: object = None,
) -> dict[Device, np.ndarray]:
    """The root of each group gets the reduction (as in all_reduce); the other devices get poison."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    first = arrays[mesh.devices()[0]]
    dt = _result_dtype(first, result_dtype)
    _reduction(kind, dt)
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        r = _root_device(root, mesh, axes, group)
        for d in group:
            out[d] = combine([arrays[m] for m in group], kind, dt) if d == r else poison(arrays[d].shape, dt)
        if _COUNTERS:
            _received(r, (len(group) - 1) * out[r].nbytes)
    return out


def reduce_scatter(
    inputs: Inputs,
    mesh: Mesh,
    mesh_axes: Sequence[int],
    kind: str,
    scatter_axis: int,
    result_dtype: object = None,
) -> dict[Device, np.ndarray]:
    """The group's reduction (as in all_reduce) cut evenly along
    `scatter_axis`; each device keeps the piece at its in-group position."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    first = arrays[mesh.devices()[0]]
    dt = _result_dtype(first, result_dtype)
    _reduction(kind, dt)
    scatter_axis = _tensor_axis(scatter_axis, first.ndim, "scatter_axis")
    n = mesh.group_size(axes)
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        _divisible(arrays[group[0]].shape, scatter_axis, n, "scatter_axis")
        total = combine([arrays[d] for d in group], kind, dt)
        for i, d in enumerate(group):
            out[d] = _piece(total, scatter_axis, n, i)
            if _COUNTERS:
                _received(d, (n - 1) * (arrays[d].size // n) * total.itemsize)
    return out


def broadcast(inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], root: Root) -> dict[Device, np.ndarray]:
    """Every device gets its group root's input."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        r = _root_device(root, mesh, axes, group)
        for d in group:
            out[d] = arrays[r].copy()
            if _COUNTERS and d != r:
                _received(d, arrays[r].nbytes)
    return out


def gather(
    inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], gather_axis: int, root: Root
) -> dict[Device, np.ndarray]:
    """The root of each group gets the concatenation (as in all_gather); the others get poison of that shape."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    first = arrays[mesh.devices()[0]]
    gather_axis = _tensor_axis(gather_axis, first.ndim, "gather_axis")
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        r = _root_device(root, mesh, axes, group)
        joined = np.concatenate([arrays[d] for d in group], axis=gather_axis)
        for d in group:
            out[d] = joined if d == r else poison(joined.shape, joined.dtype)
        if _COUNTERS:
            _received(r, joined.nbytes - arrays[r].nbytes)
    return out


def scatter(
    inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], scatter_axis: int, root: Root
) -> dict[Device, np.ndarray]:
    """The root's input cut evenly along `scatter_axis`; piece i goes to the
    group member at position i.  Other devices' inputs are ignored."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    first = arrays[mesh.devices()[0]]
    scatter_axis = _tensor_axis(scatter_axis, first.ndim, "scatter_axis")
    n = mesh.group_size(axes)
    out: dict[Device, np.ndarray] = {}
    for group in mesh.groups(axes):
        r = _root_device(root, mesh, axes, group)
        _divisible(arrays[r].shape, scatter_axis, n, "scatter_axis")
        for i, d in enumerate(group):
            out[d] = _piece(arrays[r], scatter_axis, n, i)
            if _COUNTERS and d != r:
                _received(d, out[d].nbytes)
    return out


def shift(
    inputs: Inputs, mesh: Mesh, mesh_axes: Sequence[int], shift_axis: int, offset: int, rotate: bool = False
) -> dict[Device, np.ndarray]:
    """Move data `offset` steps along mesh axis `shift_axis`, like numpy.roll:
    the device at coordinate c gets the input of the device at c - offset
    (same coordinates elsewhere).  With `rotate` coordinates wrap modulo the
    axis size; without it a device with no source gets poison."""
    arrays, axes = _prepare(inputs, mesh, mesh_axes)
    if isinstance(shift_axis, bool) or not isinstance(shift_axis, int | np.integer) or shift_axis not in axes:
        raise CollectiveError(f"shift_axis {shift_axis} must be one of mesh_axes {_fmt(axes)}")
    if isinstance(offset, bool) or not isinstance(offset, int | np.integer):
        raise CollectiveError(f"offset must be an integer, got {offset!r}")
    n = mesh.shape[shift_axis]
    out: dict[Device, np.ndarray] = {}
    for d, a in arrays.items():
        c = d[shift_axis] - int(offset)
        if rotate:
            c %= n
        if 0 <= c < n:
            src = d[:shift_axis] + (c,) + d[shift_axis + 1 :]
            out[d] = arrays[src].copy()
            if _COUNTERS and src != d:
                _received(d, out[d].nbytes)
        else:
            out[d] = poison(a.shape, a.dtype)
    return out


def exchange(
    sends: Mapping[Device, tuple[Device, np.ndarray]],
    recvs: Mapping[Device, Device | None],
    *,
    mesh: Mesh | None = None,
) -> dict[Device, np.ndarray]:
    """Pair point-to-point `send`s with `recv`s and deliver: the result maps
    each receiving device to (a copy of) the array sent to it.

    `sends[d] = (dest, array)`: device d sends `array` to `dest`.
    `recvs[d] = source`: device d receives from `source`, or from whichever
    single device sends to it when `source` is None (a `recv` without
    `source`).  A device may send to itself.  Every receive must match
    exactly one send and every send must be received, otherwise
    CollectiveMismatch.  With `mesh`, every device named must be on it.
    """
    norm_sends = {_dev(s): (_dev(t), np.asarray(a)) for s, (t, a) in sends.items()}
    norm_recvs = {_dev(r): (None if s is None else _dev(s)) for r, s in recvs.items()}
    if mesh is not None:
        named = list(norm_sends) + [t for t, _ in norm_sends.values()] + list(norm_recvs)
        named += [s for s in norm_recvs.values() if s is not None]
        for d in named:
            try:
                mesh.check_device(d)
            except MeshError as e:
                raise CollectiveError(f"device {_fmt(d)} is not on the mesh: {e}") from None
    incoming: dict[Device, list[Device]] = {}
    for s, (t, _) in sorted(norm_sends.items()):
        incoming.setdefault(t, []).append(s)
    out: dict[Device, np.ndarray] = {}
    for r, s in sorted(norm_recvs.items(), key=lambda item: item[0]):
        if s is None:
            senders = incoming.get(r, [])
            if not senders:
                raise CollectiveMismatch(f"device {_fmt(r)} receives from any device but no device sends to it")
            if len(senders) > 1:
                raise CollectiveMismatch(
                    f"device {_fmt(r)} receives from any device but devices {_fmt(senders[0])} and "
                    f"{_fmt(senders[1])} both send to it"
                )
            s = senders[0]
        elif s not in norm_sends:
            raise CollectiveMismatch(f"device {_fmt(r)} receives from device {_fmt(s)}, which sends nothing")
        elif norm_sends[s][0] != r:
            raise CollectiveMismatch(
                f"device {_fmt(r)} receives from device {_fmt(s)}, which sends to device {_fmt(norm_sends[s][0])}"
            )
        out[r] = norm_sends[s][1].copy()
        if _COUNTERS and s != r:
            _received(r, out[r].nbytes)
    for s, (t, _) in sorted(norm_sends.items()):
        if t not in norm_recvs:
            raise CollectiveMismatch(f"device {_fmt(s)} sends to device {_fmt(t)}, which receives nothing")
        source = norm_recvs[t]
        if source is not None and source != s:
            raise CollectiveMismatch(
                f"device {_fmt(s)} sends to device {_fmt(t)}, which receives from device {_fmt(source)} instead"
            )
    return out


def _dev(d: Sequence[int]) -> Device:
    try:
        return tuple(int(c) for c in d)
    except TypeError:
        raise CollectiveError(f"a device must be a multi-index, got {d!r}") from None


def update_halo(
    inputs: Inputs,
    mesh: Mesh,
    split_axes: Sequence[Sequence[int]],
    source_halos: Sequence[int] = (),
    destination_halos: Sequence[int] = (),
) -> dict[Device, np.ndarray]:
    """Re-read halos from the neighbours: each input is a core plus
    `source_halos`; each result is the same core plus `destination_halos`,
    the halo cells copied from the cores of the devices owning them
    (corners and halos wider than a neighbour's core included).  Cells
    beyond the global tensor's edge are poison.

    `split_axes` is laid out as in a sharding; halos list (low, high) for
    each tensor dimension with split axes, in order (empty means none).
    Every device holds the same core size along the halo dimensions, as the
    op requires; the devices of a group along the split axes hold one shape,
    while groups may differ in the other dimensions.
    """
    split = [_axes(mesh, axes, "split_axes") for axes in split_axes]
    seen: set[int] = set()
    for axes in split:
        for a in axes:
            if a in seen:
                raise CollectiveError(f"mesh axis {a} appears more than once in split_axes")
            seen.add(a)
    sharded = [dim for dim, axes in enumerate(split) if axes]
    src_h = _halo_pairs(source_halos, sharded, "source_halos")
    dst_h = _halo_pairs(destination_halos, sharded, "destination_halos")
    # A split dimension without halos on either side keeps each device's own
    # piece.  Devices that exchange halos differ only along the other split
    # dimensions' axes: they hold one shape, while the pieces of a dimension
    # without halos may differ between such groups (a dynamic size cut).
    for dim in sharded:
        if not any(src_h[dim]) and not any(dst_h[dim]):
            del src_h[dim], dst_h[dim]
    arrays, _ = _prepare(inputs, mesh, sorted(a for dim in src_h for a in split[dim]))
    devices = mesh.devices()
    first = arrays[devices[0]]
    if len(split) > first.ndim:
        raise CollectiveError(f"split_axes has {len(split)} tensor dimensions but the source has rank {first.ndim}")
    for dim in src_h:  # the halo dimensions' pieces are one size everywhere
        for d in devices:
            if arrays[d].shape[dim] != first.shape[dim]:
                _different(d, arrays[d], devices[0], first)
        if first.shape[dim] < sum(src_h[dim]):
            raise CollectiveError(
                f"dimension {dim} of the source has {first.shape[dim]} elements, fewer than its halos "
                f"{_fmt(src_h[dim])}"
            )
    out: dict[Device, np.ndarray] = {}
    for d in devices:
        mine = arrays[d]
        core = [n - sum(src_h.get(dim, (0, 0))) for dim, n in enumerate(mine.shape)]
        dst_shape = tuple(core[dim] + sum(dst_h.get(dim, (0, 0))) for dim in range(mine.ndim))
        result = poison(dst_shape, mine.dtype)
        per_dim = []
        for dim in range(mine.ndim):
            if dim not in src_h:
                per_dim.append([(None, slice(0, core[dim]), slice(0, core[dim]))])
                continue
            axes = split[dim]
            n = mesh.group_size(axes)
            start = mesh.in_group_index(d, axes) * core[dim] - dst_h[dim][0]
            per_dim.append(_segments(start, dst_shape[dim], core[dim], n, src_h[dim][0]))
        for combo in _product(per_dim):
            if any(q == -1 for q, _, _ in combo):
                continue  # beyond the tensor's edge: stays poison
            src_dev = d
            for dim, (q, _, _) in enumerate(combo):
                if q is not None:
                    axes = split[dim]
                    src_dev = mesh.member(src_dev, axes, q)
            cells = arrays[src_dev][tuple(src for _, _, src in combo)]
            result[tuple(dst for _, dst, _ in combo)] = cells
            if _COUNTERS and src_dev != d:
                _received(d, cells.nbytes)
        out[d] = result
    return out


def _halo_pairs(halos: Sequence[int], sharded: list[int], what: str) -> dict[int, tuple[int, int]]:
    values = [int(h) for h in halos]
    if not values:
        values = [0] * (2 * len(sharded))
    if len(values) != 2 * len(sharded):
        raise CollectiveError(
            f"{what} needs 2 entries per sharded tensor dimension ({2 * len(sharded)}), got {len(values)}"
        )
    for h in values:
        if h < 0:
            raise CollectiveError(f"halo sizes must be non-negative, got {h}")
    return {dim: (values[2 * i], values[2 * i + 1]) for i, dim in enumerate(sharded)}


def _segments(start: int, length: int, core: int, n: int, src_low: int) -> list[tuple[int, slice, slice]]:
    """Cut destination cells [0, length), which stand for global indices
    start + k, into runs owned by one piece: (piece, destination slice, slice
    of that piece's local array); piece -1 marks cells beyond the tensor."""
    total = core * n
    out = []
    k = 0
    while k < length:
        g = start + k
        if g < 0:
            run = min(length - k, -g)
            out.append((-1, slice(k, k + run), slice(0, 0)))
        elif g >= total:
            run = length - k
            out.append((-1, slice(k, k + run), slice(0, 0)))
        else:
            q, offset = divmod(g, core)
            run = min(length - k, core - offset)
            out.append((q, slice(k, k + run), slice(src_low + offset, src_low + offset + run)))
        k += run
    return out


def _product(per_dim: list[list[tuple]]) -> list[tuple]:
    combos: list[tuple] = [()]
    for options in per_dim:
        combos = [c + (o,) for c in combos for o in options]
    return combos


__all__ = [
    "CollectiveError",
    "CollectiveMismatch",
    "Inputs",
    "Root",
    "all_gather",
    "all_reduce",
    "all_slice",
    "all_to_all",
    "broadcast",
    "count_traffic",
    "exchange",
    "received",
    "gather",
    "reduce",
    "reduce_scatter",
    "scatter",
    "shift",
    "traffic_of",
    "update_halo",
]
