"""Values a program written partly per device computes differently on each
device.

A collective's result is one device's data: `mesh.all_slice` gives each
device its own rows, `mesh.process_linear_index` its own number.  Partition
takes every value without a layout for one tensor that every device holds
whole, and cuts or gathers it as such; a value that differs between devices
is no such tensor, and cutting it mixes the devices' data.  Propagation and
partition ask this analysis which values they must leave as they are.

A value varies along a set of mesh axes (`(mesh, axis)` pairs; `ANY` when it
may vary along any): an op's results vary along the union of its operands'
sets (values its regions read from outside included), a collective adds the
axes it spreads data over and `all_gather`, `all_reduce` and `broadcast`
remove those they make every member of a group agree on.  Whatever a region
hands on (its terminators' operands) flows into the op's results and into
its blocks' arguments (loops carry it round), until nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from mlir import ir

ANY = ("*", -1)
"""The member of a set of axes that says "along any axis"."""

_AGREE = frozenset({"mesh.all_gather", "mesh.all_reduce", "mesh.broadcast"})
"""Collectives after which every member of a group holds the same data."""
_SPREAD = frozenset({"mesh.all_slice", "mesh.reduce_scatter", "mesh.all_to_all"})
"""Collectives that give each member of a group its own part."""
_ANYWHERE = frozenset(
    {
        "mesh.process_linear_index",
        "mesh.gather",
        "mesh.scatter",
        "mesh.reduce",
        "mesh.recv",
        "mesh.send",
        "mesh.update_halo",
        # a JAX program's own (shard_map's collectives and device ids)
        *(
            f"{dialect}.{name}"
            for dialect in ("stablehlo", "mhlo")
            for name in (
                "partition_id",
                "replica_id",
                "all_reduce",
                "all_gather",
                "reduce_scatter",
                "all_to_all",
                "collective_permute",
                "collective_broadcast",
                "send",
                "recv",
            )
        ),
    }
)
"""Ops whose results may differ between any two devices."""
SOURCES = _SPREAD | _ANYWHERE | {"mesh.process_multi_index", "mesh.shift"}
"""The ops that make a value differ between devices: without one in a
function, none does (the passes skip the analysis)."""

_EMPTY: frozenset = frozenset()


def _axes(op: ir.Operation, name: str) -> frozenset:
    """The (mesh, axis) pairs an op names in attribute `name` (empty: none)."""
    attributes = op.attributes
    if "mesh" not in attributes:
        return frozenset({ANY})
    mesh = ir.FlatSymbolRefAttr(attributes["mesh"]).value
    if name not in attributes:
        return _EMPTY
    return frozenset((mesh, int(a)) for a in ir.DenseI16ArrayAttr(attributes[name]))


def _made(op: ir.Operation, name: str, read: frozenset) -> frozenset:
    """The axes `op`'s results vary along, its operands' being `read`."""
    if name in _ANYWHERE:
        return frozenset({ANY})
    if name in _SPREAD:
        return read | _axes(op, "mesh_axes")
    if name in _AGREE:
        return read - _axes(op, "mesh_axes") if ANY not in read else read
    if name == "mesh.shift":
        attributes = op.attributes
        if "mesh" not in attributes or "shift_axis" not in attributes:
            return frozenset({ANY})
        mesh = ir.FlatSymbolRefAttr(attributes["mesh"]).value
        return read | {(mesh, ir.IntegerAttr(attributes["shift_axis"]).value)}
    if name == "mesh.process_multi_index":
        given = _axes(op, "axes")
        return given if given else frozenset({ANY})
    return read


def may_vary(func: ir.Operation, names: Iterable[str]) -> bool:
    """Whether `func`, whose ops have the `names`, may compute a value that
    differs between devices: it has an op of `SOURCES`, or calls a function
    that has one (or calls one that does, and so on)."""
    names = set(names)
    if not SOURCES.isdisjoint(names):
        return True
    return "func.call" in names and any(_callee_varies(call, {}) for call in _calls(func))


def _calls(op: ir.Operation) -> list[ir.Operation]:
    found: list[ir.Operation] = []

    def visit(inner: ir.Operation) -> ir.WalkResult:
        if inner.name == "func.call":
            found.append(inner)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return found


def _callee_varies(call: ir.Operation, memo: dict[str, bool]) -> bool:
    """Whether the function `call` calls may return a value that differs
    between devices (`may_vary` of it; a callee not found: it may)."""
    if "callee" not in call.attributes:
        return True
    name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
    if name in memo:
        return memo[name]
    memo[name] = False  # (a recursive call adds nothing the rest of its callee does not)
    scope = call.parent
    while scope is not None and scope.operation.name != "builtin.module":
        scope = scope.parent
    callee = None
    if scope is not None:
        try:
            callee = ir.SymbolTable(scope.operation)[name]
        except KeyError:
            callee = None
    if callee is None:
        memo[name] = True
        return True
    callee = callee.operation
    names: set[str] = set()
    calls: list[ir.Operation] = []

    def visit(inner: ir.Operation) -> ir.WalkResult:
        names.add(inner.name)
        if inner.name == "func.call":
            calls.append(inner)
        return ir.WalkResult.ADVANCE

    callee.walk(visit)
    memo[name] = not SOURCES.isdisjoint(names) or any(_callee_varies(c, memo) for c in calls)
    return memo[name]


def per_device_values(func: ir.Operation) -> dict[ir.Value, tuple[frozenset, ir.Operation]]:
    """The values of `func` that may differ between devices, each with the
    axes it varies along and the op that first made it so (for diagnostics).
    Values not listed are the same on every device."""
    found: dict[ir.Value, tuple[frozenset, ir.Operation]] = {}
    callees: dict[str, bool] = {}

    def mark(v: ir.Value, axes: frozenset, origin: ir.Operation) -> bool:
        old = found.get(v)
        if old is None:
            found[v] = (axes, origin)
            return True
        if axes <= old[0]:
            return False
        found[v] = (old[0] | axes, old[1])
        return True

    changed = True
    first = True

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal changed, first
        if first:  # the walk starts at the function itself
            first = False
            return ir.WalkResult.ADVANCE
        name = op.name
        read: frozenset = _EMPTY
        origin: ir.Operation | None = None
        for v in op.operands:
            got = found.get(v)
            if got is not None:
                read = read | got[0]
                origin = origin or got[1]
        made = _made(op, name, read)
        if name == "func.call" and _callee_varies(op, callees):
            made = made | {ANY}  # what the callee computes per device comes back
        if made and origin is None:
            origin = op
        if made:
            assert origin is not None
            for r in op.results:
                changed = mark(r, made, origin) or changed
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        changed = mark(arg, made, origin) or changed
        if read and len(op.successors):
            # a branch hands its operands on to its successors' arguments
            for block in op.successors:
                for arg in block.arguments:
                    changed = mark(arg, read, origin) or changed
        elif read and not len(op.results) and not name.startswith("mesh."):
            # a terminator: what it hands on reaches its op's results and,
            # round a loop, its blocks' arguments (a function's return, none)
            parent = op.parent
            if parent is not None and parent.operation != func:
                parent = parent.operation
                for r in parent.results:
                    changed = mark(r, read, origin) or changed
                for region in parent.regions:
                    for block in region.blocks:
                        for arg in block.arguments:
                            changed = mark(arg, read, origin) or changed
        return ir.WalkResult.ADVANCE

    while changed:
        changed, first = False, True
        func.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


__all__ = ["ANY", "SOURCES", "may_vary", "per_device_values"]
