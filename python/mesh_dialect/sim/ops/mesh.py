"""The mesh dialect in the simulator.

`mesh.sharding` evaluates to a `Sharding`; `mesh.shard` is an identity (an
annotation, in the global and the SPMD program alike). Collectives stop the
device with a `Request`; the scheduler completes a group at once with the
semantics of `sim.collectives`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir

from ...ir.schema import DYNAMIC
from ...ir.syntax import decode_axes_array, decode_reduction
from ...sharding.spec import Sharding
from .. import collectives as coll
from ..interpreter import PointToPoint, Request
from ..program import Compiler, Step, dtype_of, fail, is_bf16, register

# ---------------------------------------------------------------------------
# Attributes, decoded once.


def _dynamic_list(static: list[int], values: list) -> list[int]:
    """Fill the `?` entries of a static list with the dynamic operand values."""
    it = iter(values)
    return [int(next(it)) if v == DYNAMIC else v for v in static]


def _mesh_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    name = op.attributes["mesh"].value
    c.check_unambiguous(name, "mesh")
    # bf16 is held in f32 (`floats`): what moves is half the arrays' bytes
    held = 0.5 if len(op.operands) and is_bf16(op.operands[0].type) else 1.0
    return {"mesh_name": name, "mesh_shape": c.meshes.get(name), "held_ratio": held}


def _collective_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    attrs = _mesh_attrs(c, op)
    attrs["mesh_axes"] = tuple(op.attributes["mesh_axes"])
    for name in ("gather_axis", "slice_axis", "split_axis", "concat_axis", "scatter_axis", "shift_axis", "offset"):
        if name in op.attributes:
            attrs[name] = ir.IntegerAttr(op.attributes[name]).value
    if "reduction" in op.attributes:
        attrs["kind"] = decode_reduction(str(op.attributes["reduction"]))
    for name in ("root", "source", "destination"):
        if name in op.attributes:
            attrs[name] = list(op.attributes[name])
    attrs["rotate"] = "rotate" in op.attributes
    attrs["result_dtype"] = dtype_of(op.results[0].type)
    attrs["collective"] = _COLLECTIVES[op.name]
    return attrs


def _the_mesh(frame, step: Step):
    """The runner's mesh, after checking the op uses one of the same shape."""
    runner = frame.runner
    if runner.mesh is None:
        raise fail(step, "needs a device: run the function on a mesh (SPMD mode)")
    if step.attrs["mesh_name"] != runner.mesh.name and step.attrs["mesh_shape"] != runner.mesh.shape:
        raise fail(
            step,
            f"runs on mesh @{step.attrs['mesh_name']} but the simulation runs on mesh @{runner.mesh.name} "
            "of another shape",
        )
    return runner.mesh


# ---------------------------------------------------------------------------
# Shardings and queries.


def _sharding_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    attrs = _mesh_attrs(c, op)
    attrs["split_axes"] = tuple(tuple(a) for a in decode_axes_array(str(op.attributes["split_axes"])))
    attrs["partial_axes"] = tuple(op.attributes["partial_axes"]) if "partial_axes" in op.attributes else ()
    attrs["partial_type"] = (
        decode_reduction(str(op.attributes["partial_type"])) if "partial_type" in op.attributes else "sum"
    )
    attrs["halos"] = list(op.attributes["static_halo_sizes"])
    attrs["offsets"] = list(op.attributes["static_sharded_dims_offsets"])
    attrs["segments"] = list(op.attributes["operandSegmentSizes"])
    return attrs


@register("mesh.sharding", prepare=_sharding_attrs)
def _sharding(frame, step, *dynamic):
    a = step.attrs
    n_offsets = a["segments"][0]
    offsets = _dynamic_list(a["offsets"], list(dynamic[:n_offsets]))
    halos = _dynamic_list(a["halos"], list(dynamic[n_offsets:]))
    return [Sharding(a["split_axes"], a["partial_axes"], a["partial_type"], tuple(halos), tuple(offsets))]


@register("mesh.shard")
def _shard(frame, step, src, sharding):
    return [src]


@register("mesh.mesh_shape", prepare=lambda c, op: {**_mesh_attrs(c, op), "axes": list(op.attributes["axes"])})
def _mesh_shape(frame, step):
    shape = step.attrs["mesh_shape"]
    axes = step.attrs["axes"] or range(len(shape))
    sizes = [shape[a] for a in axes]
    if any(s is None for s in sizes):
        raise fail(step, "asks for a dynamic mesh size; the simulator needs static ones")
    return [np.int64(s) for s in sizes]


@register("mesh.process_multi_index", prepare=lambda c, op: {**_mesh_attrs(c, op), "axes": list(op.attributes["axes"])})
def _multi_index(frame, step):
    _the_mesh(frame, step)
    axes = step.attrs["axes"] or range(len(frame.device))
    return [np.int64(frame.device[a]) for a in axes]


@register("mesh.process_linear_index", prepare=_mesh_attrs)
def _linear_index(frame, step):
    mesh = _the_mesh(frame, step)
    return [np.int64(mesh.linear_index(frame.device))]


@register("mesh.shard_shape", prepare=lambda c, op: {"shape": list(op.attributes["shape"])})
def _shard_shape(frame, step, sharding, device):
    runner = frame.runner
    if runner.mesh is None:
        raise fail(step, "needs the mesh: run the function on a mesh (SPMD mode)")
    shape = step.attrs["shape"]
    if any(d == DYNAMIC for d in shape):
        raise fail(step, "has a dynamic dimension in its shape; the simulator needs a static one")
    local = sharding.local_shape(tuple(shape), runner.mesh, runner.mesh.multi_index(int(device)))
    return [np.int64(d) for d in local]


# ---------------------------------------------------------------------------
# Collectives.


def _wait(frame, step, value, **extra):
    """Stop this device at a collective; resume with its result."""
    _the_mesh(frame, step)
    return (yield Request(step, frame.device, value, extra))


def _root_of(step, name: str, dynamic) -> list[int]:
    return _dynamic_list(step.attrs[name], list(dynamic))


def _collective_run(frame, step, value, *dynamic):
    extra = {}
    for name in ("root", "source", "destination"):
        if name in step.attrs:
            extra["root"] = _root_of(step, name, dynamic)
    result = yield from _wait(frame, step, value, **extra)
    expected = step.attrs["result_types"][0]
    shape = tuple(ir.ShapedType(expected).shape)
    if any(d < 0 for d in shape):
        shape = None
    if shape is not None and result.shape != shape:
        raise fail(
            step, f"produced a {list(result.shape)} result on device {frame.device} but its type says {list(shape)}"
        )
    return [result]


def _filled(requests: dict[tuple, Request], mesh) -> dict[tuple, np.ndarray]:
    """Every device's input; devices of groups not running now get a copy of
    a present input (their results are dropped)."""
    any_value = next(iter(requests.values())).value
    return {d: (requests[d].value if d in requests else any_value) for d in mesh.devices()}


def _roots(requests: dict[tuple, Request]):
    first = next(iter(requests.values())).extra["root"]
    return lambda d: requests[d].extra["root"] if d in requests else first


def _run(fn):
    """Adapt a `sim.collectives` function to the scheduler's call."""

    def call(runner, step: Step, requests: dict[tuple, Request]) -> dict[tuple, np.ndarray]:
        mesh = runner.mesh
        try:
            with coll.traffic_of(requests), coll.counted_per_byte(step.attrs.get("held_ratio", 1.0)):
                out = fn(step.attrs, _filled(requests, mesh), mesh, requests)
        except coll.CollectiveError as e:
            raise fail(step, str(e)) from None
        return {d: out[d] for d in requests}

    return call


_COLLECTIVES = {
    "mesh.all_gather": _run(lambda a, x, m, r: coll.all_gather(x, m, a["mesh_axes"], a["gather_axis"])),
    "mesh.all_slice": _run(lambda a, x, m, r: coll.all_slice(x, m, a["mesh_axes"], a["slice_axis"])),
    "mesh.all_to_all": _run(
        lambda a, x, m, r: coll.all_to_all(x, m, a["mesh_axes"], a["split_axis"], a["concat_axis"])
    ),
    "mesh.all_reduce": _run(lambda a, x, m, r: coll.all_reduce(x, m, a["mesh_axes"], a["kind"], a["result_dtype"])),
    "mesh.reduce": _run(lambda a, x, m, r: coll.reduce(x, m, a["mesh_axes"], a["kind"], _roots(r), a["result_dtype"])),
    "mesh.reduce_scatter": _run(
        lambda a, x, m, r: coll.reduce_scatter(x, m, a["mesh_axes"], a["kind"], a["scatter_axis"], a["result_dtype"])
    ),
    "mesh.broadcast": _run(lambda a, x, m, r: coll.broadcast(x, m, a["mesh_axes"], _roots(r))),
    "mesh.gather": _run(lambda a, x, m, r: coll.gather(x, m, a["mesh_axes"], a["gather_axis"], _roots(r))),
    "mesh.scatter": _run(lambda a, x, m, r: coll.scatter(x, m, a["mesh_axes"], a["scatter_axis"], _roots(r))),
    "mesh.shift": _run(lambda a, x, m, r: coll.shift(x, m, a["mesh_axes"], a["shift_axis"], a["offset"], a["rotate"])),
}

for _name in _COLLECTIVES:
    register(_name, prepare=_collective_attrs, generator=True)(_collective_run)


# ---------------------------------------------------------------------------
# Point to point.


def _p2p_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    attrs = _mesh_attrs(c, op)
    attrs["mesh_axes"] = tuple(op.attributes["mesh_axes"])
    for name in ("source", "destination"):
        if name in op.attributes:
            attrs[name] = list(op.attributes[name])
    return attrs


@register("mesh.send", prepare=_p2p_attrs, generator=True)
def _send(frame, step, value, *dynamic):
    mesh = _the_mesh(frame, step)
    peer = mesh.device_at(frame.device, step.attrs["mesh_axes"], _root_of(step, "destination", dynamic))
    yield PointToPoint(step, frame.device, True, peer, value)
    return [value]


@register("mesh.recv", prepare=_p2p_attrs, generator=True)
def _recv(frame, step, buffer, *dynamic):
    mesh = _the_mesh(frame, step)
    peer = None
    if "source" in step.attrs:
        peer = mesh.device_at(frame.device, step.attrs["mesh_axes"], _root_of(step, "source", dynamic))
    received = yield PointToPoint(step, frame.device, False, peer, buffer)
    coll.received(frame.device, np.asarray(received).nbytes * step.attrs.get("held_ratio", 1.0))
    return [received.astype(buffer.dtype, copy=False)]


# ---------------------------------------------------------------------------
# Halos.


def _halo_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    attrs = _mesh_attrs(c, op)
    split = decode_axes_array(str(op.attributes["split_axes"]))
    attrs["split_axes"] = split
    attrs["source_halos"] = list(op.attributes["static_source_halo_sizes"])
    attrs["destination_halos"] = list(op.attributes["static_destination_halo_sizes"])
    # The group is the axes of the dimensions whose halos move (when the
    # sizes are static): devices along the others may hold pieces of other
    # sizes (a dynamic batch), and exchange nothing.
    halos = (attrs["source_halos"], attrs["destination_halos"])
    sharded = [axes for axes in split if axes]
    if DYNAMIC in (*halos[0], *halos[1]):
        moved = sharded
    else:
        moved = [axes for i, axes in enumerate(sharded) if any(any(h[2 * i : 2 * i + 2]) for h in halos)]
    attrs["mesh_axes"] = tuple(sorted({a for axes in moved for a in axes}))
    attrs["segments"] = list(op.attributes["operandSegmentSizes"])
    if not isinstance(op.results[0].type, ir.RankedTensorType):
        raise fail(op, "on memrefs is not supported by the simulator")
    attrs["collective"] = _run(
        lambda a, x, m, r: coll.update_halo(
            x, m, a["split_axes"], next(iter(r.values())).extra["src"], next(iter(r.values())).extra["dst"]
        )
    )
    return attrs


@register("mesh.update_halo", prepare=_halo_attrs, generator=True)
def _update_halo(frame, step, source, destination, *dynamic):
    a = step.attrs
    n_src = a["segments"][2]
    src = _dynamic_list(a["source_halos"], list(dynamic[:n_src]))
    dst = _dynamic_list(a["destination_halos"], list(dynamic[n_src:]))
    result = yield from _wait(frame, step, source, src=src, dst=dst)
    return [result.astype(destination.dtype, copy=False)]
