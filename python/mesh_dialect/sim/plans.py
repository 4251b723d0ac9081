"""Run a resharding plan (`sharding.resharding`) on per-device arrays with
the simulator's collectives, so plans are proven by execution rather than
by reading.  It lives here, not beside the planner: the planner is pure
layout algebra and imports nothing of the simulator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..sharding.exchange import schedule
from ..sharding.recut import recut_plan
from ..sharding.resharding import (
    IDENTITY_KINDS,
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    Exchange,
    Partialize,
    Permute,
    Plan,
    Recut,
    ReduceScatter,
    Step,
    UpdateHalo,
    fmt_shape,
    largest_piece,
)
from ..sharding.spec import Device, Mesh, Sharding
from . import collectives as coll
from .layout import poison


def execute(
    plan: Plan, local_arrays: Mapping[Device, np.ndarray], mesh: Mesh | Sequence[int] | None = None
) -> dict[Device, np.ndarray]:
    """Run `plan` on per-device arrays with the `sim.collectives` functions
    (Permute through point-to-point `exchange`), so plans are proven by
    execution rather than by reading."""
    if mesh is None:
        mesh = Mesh(plan.mesh_shape)
    elif not isinstance(mesh, Mesh):
        mesh = Mesh(tuple(mesh))
    if mesh.shape != plan.mesh_shape:
        raise ValueError(f"the plan is for mesh {fmt_shape(plan.mesh_shape)}, not {fmt_shape(mesh.shape)}")
    arrays = {d: np.asarray(local_arrays[d]) for d in mesh.devices()}
    before = plan.source
    for step, after in zip(plan.steps, plan.intermediate):
        arrays = _execute_step(step, arrays, mesh, before, after, plan.shape)
        before = after
    return arrays


def _exchange(
    arrays: dict[Device, np.ndarray], mesh: Mesh, before: Sharding, after: Sharding, shape: tuple[int, ...]
) -> dict[Device, np.ndarray]:
    """An Exchange step as partition writes it (`ir.exchange.exchanged`):
    the blocks a device holds copied, then one point-to-point transfer of a
    block per round."""
    sched = schedule(shape, mesh, before.split_axes, after.split_axes)
    if sched is None:
        raise ValueError(f"no exchange schedule from {before} to {after} for {fmt_shape(shape)}")
    devices = mesh.devices()
    # (the schedule's tables are indexed by a device's place in its group over the axes)
    linear = {d: mesh.in_group_index(d, sched.axes) for d in devices}
    groups = {d: mesh.group_of(d, sched.axes) for d in devices}

    def block(a: np.ndarray, at: Sequence[int]) -> np.ndarray:
        return a[tuple(slice(o, o + b) for o, b in zip(at, sched.block))]

    out = {}
    for d in devices:
        out[d] = np.zeros(sched.piece, dtype=arrays[d].dtype)
        for slot, own in zip(sched.slots, sched.own):
            at = own[linear[d]]
            if at is not None:
                out[d][tuple(slice(o, o + b) for o, b in zip(slot, sched.block))] = block(arrays[d], at)
    for r in sched.rounds:
        sends: dict[Device, tuple[Device, np.ndarray]] = {}
        recvs: dict[Device, Device] = {}
        for d in devices:
            j = linear[d]
            if r.dest[j] != j:
                sends[d] = (groups[d][r.dest[j]], block(arrays[d], r.send_at[j]))
            if r.source[j] != j:
                recvs[d] = groups[d][r.source[j]]
        got = coll.exchange(sends, recvs, mesh=mesh)
        for d, a in got.items():
            at = r.recv_at[linear[d]]
            out[d][tuple(slice(o, o + b) for o, b in zip(at, sched.block))] = a
    return out


def _recut(
    arrays: dict[Device, np.ndarray], mesh: Mesh, step: Recut, before: Sharding, shape: tuple[int, ...]
) -> dict[Device, np.ndarray]:
    """A Recut step as partition writes it (`ir.exchange.recut`): the rows a
    device keeps copied, then per round one padded block sent to the
    device `distance` places before along the group, of which the receiver
    keeps its run's rows."""
    plan = recut_plan(before.cut(step.dim, shape[step.dim], mesh), step.cut)
    if plan is None:
        raise ValueError(f"no recut from {before} to {step}")
    d = step.dim
    devices = mesh.devices()
    at = {dev: mesh.in_group_index(dev, step.axes) for dev in devices}
    groups = {dev: mesh.group_of(dev, step.axes) for dev in devices}

    def rows(a: np.ndarray, start: int, count: int) -> np.ndarray:
        return a[(slice(None),) * d + (slice(start, start + count),)]

    pad = plan.padding()
    out = {}
    held = {}  # each old piece padded as partition pads it (blocks may reach past its end)
    for dev in devices:
        a, p = arrays[dev], at[dev]
        new_shape = list(a.shape)
        new_shape[d] = plan.after[p + 1] - plan.after[p]
        out[dev] = poison(tuple(new_shape), a.dtype)
        rows(out[dev], plan.keep_at[p], plan.keep_count[p])[...] = rows(a, plan.keep_from[p], plan.keep_count[p])
        widths = [(0, 0)] * a.ndim
        widths[d] = (0, pad)
        held[dev] = np.pad(a, widths) if pad else a
    for r in plan.rounds:
        sends: dict[Device, tuple[Device, np.ndarray]] = {}
        recvs: dict[Device, Device] = {}
        for dev in devices:
            q = at[dev]
            block = rows(held[dev], r.send_at[q], r.block)  # (cut on every device, as partition does)
            assert block.shape[d] == r.block
            if r.sends(q):
                sends[dev] = (groups[dev][q - r.distance], block)
            if r.receives(q):
                recvs[dev] = groups[dev][q + r.distance]
        got = coll.exchange(sends, recvs, mesh=mesh)
        for dev, block in got.items():
            p = at[dev]
            rows(out[dev], r.recv_at[p], r.recv_count[p])[...] = rows(block, 0, r.recv_count[p])
    return out


def _execute_step(
    step: Step,
    arrays: dict[Device, np.ndarray],
    mesh: Mesh,
    before: Sharding,
    after: Sharding,
    shape: tuple[int, ...],
) -> dict[Device, np.ndarray]:
    """One step as mesh-partition emits it: its `sim.collectives` op, on
    pieces padded to the largest one with the valid parts taken after it
    when the pieces it joins or cuts differ in size (module docstring)."""
    if isinstance(step, UpdateHalo):
        return coll.update_halo(arrays, mesh, step.split_axes, step.source_halos, step.destination_halos)
    if isinstance(step, AllReduce):
        return coll.all_reduce(arrays, mesh, step.axes, step.kind)
    if isinstance(step, Permute):
        sends: dict[Device, tuple[Device, np.ndarray]] = {}
        recvs: dict[Device, Device] = {}
        for group in mesh.groups(step.axes):
            for i, dev in enumerate(group):
                dest = group[step.perm[i]]
                sends[dev] = (dest, arrays[dev])
                recvs[dest] = dev
        return coll.exchange(sends, recvs, mesh=mesh)
    if isinstance(step, Exchange):
        return _exchange(arrays, mesh, before, after, shape)
    if isinstance(step, Recut):
        return _recut(arrays, mesh, step, before, shape)
    if isinstance(step, Partialize):
        out = {}
        for d, a in arrays.items():
            if step.kind in IDENTITY_KINDS and mesh.in_group_index(d, step.axes) != 0:
                fill = 1 if step.kind == "product" else 0
                out[d] = np.full(a.shape, fill, dtype=a.dtype)
            else:
                out[d] = a.copy()
        return out
    if not isinstance(step, AllGather | AllSlice | AllToAll | ReduceScatter):
        raise TypeError(f"not a resharding step: {step!r}")
    if before.is_even(shape, mesh) and after.is_even(shape, mesh):  # nothing to pad
        if isinstance(step, AllGather):
            return coll.all_gather(arrays, mesh, step.axes, step.dim)
        if isinstance(step, AllSlice):
            return coll.all_slice(arrays, mesh, step.axes, step.dim)
        if isinstance(step, AllToAll):
            return coll.all_to_all(arrays, mesh, step.axes, step.split_dim, step.concat_dim)
        return coll.reduce_scatter(arrays, mesh, step.axes, step.kind, step.dim)
    devices = mesh.devices()
    old = {d: before.slice_of(shape, mesh, d) for d in devices}
    new = {d: after.slice_of(shape, mesh, d) for d in devices}
    if isinstance(step, AllSlice):
        out = {}
        for d in devices:
            a, b = new[d][step.dim], old[d][step.dim]
            out[d] = _cut(arrays[d], step.dim, a.start - b.start, a.stop - b.start).copy()
        return out
    axes = step.axes
    g = mesh.group_size(axes)
    if isinstance(step, AllGather):
        dim = step.dim
        m = largest_piece(before, dim, shape, mesh)
        gathered = coll.all_gather({d: _padded(arrays[d], dim, m) for d in devices}, mesh, axes, dim)
        out = {}
        for d in devices:
            parts = []
            for j, member in enumerate(mesh.group_of(d, axes)):
                size = old[member][dim].stop - old[member][dim].start
                parts.append(_cut(gathered[d], dim, j * m, j * m + size))
            out[d] = np.concatenate(parts, axis=dim)
        return out
    # all_to_all and reduce_scatter: chunk j (the part of the piece member j
    # gets) at j times the largest new piece
    dim = step.split_dim if isinstance(step, AllToAll) else step.dim
    m = largest_piece(after, dim, shape, mesh)
    buffers = {}
    for d in devices:
        a = arrays[d]
        full = list(a.shape)
        full[dim] = g * m
        if isinstance(step, AllToAll):
            full[step.concat_dim] = largest_piece(before, step.concat_dim, shape, mesh)
        buf = poison(full, a.dtype)
        start = old[d][dim].start
        for j, member in enumerate(mesh.group_of(d, axes)):
            piece = new[member][dim]
            chunk = _cut(a, dim, piece.start - start, piece.stop - start)
            index = [slice(0, n) for n in chunk.shape]
            index[dim] = slice(j * m, j * m + chunk.shape[dim])
            buf[tuple(index)] = chunk
        buffers[d] = buf
    if isinstance(step, ReduceScatter):
        done = coll.reduce_scatter(buffers, mesh, axes, step.kind, dim)
        return {d: _cut(done[d], dim, 0, new[d][dim].stop - new[d][dim].start).copy() for d in devices}
    c = step.concat_dim
    mc = largest_piece(before, c, shape, mesh)
    moved = coll.all_to_all(buffers, mesh, axes, dim, c)
    out = {}
    for d in devices:
        parts = []
        for i, member in enumerate(mesh.group_of(d, axes)):
            size = old[member][c].stop - old[member][c].start
            part = _cut(moved[d], c, i * mc, i * mc + size)
            parts.append(_cut(part, dim, 0, new[d][dim].stop - new[d][dim].start))
        out[d] = np.concatenate(parts, axis=c)
    return out


def _padded(array: np.ndarray, dim: int, size: int) -> np.ndarray:
    """`array` grown to `size` along `dim` with poison (what the IR's padding
    holds: it is never read)."""
    shape = list(array.shape)
    shape[dim] = size
    out = poison(shape, array.dtype)
    out[tuple(slice(0, n) for n in array.shape)] = array
    return out


def _cut(array: np.ndarray, dim: int, start: int, stop: int) -> np.ndarray:
    index = [slice(None)] * array.ndim
    index[dim] = slice(start, stop)
    return array[tuple(index)]


__all__ = ["execute"]
