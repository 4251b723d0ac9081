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

Control flow that depends on such a value (an `scf.if` on a device's index,
a loop whose trip count differs, a `cf.cond_br` on a per-device flag) runs
its regions or blocks on some devices only: everything defined there may
differ, and a collective placed there would wait for devices that never
come (`PerDevice.blocks`).  A call's results may differ when its callee
(or one it calls) computes such a value; a function declared without a
body is taken to compute the same on every device.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from mlir import ir

ANY = ("*", -1)
"""The member of a set of axes that says "along any axis"."""

_AGREE = frozenset({"mesh.all_gather", "mesh.all_reduce", "mesh.broadcast"})
"""Collectives after which every member of a group holds the same data."""
_SPREAD = frozenset({"mesh.all_slice", "mesh.reduce_scatter", "mesh.all_to_all"})
"""Collectives that give each member of a group its own part."""
_ANYWHERE = frozenset(
    {
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
_INDICES = frozenset({"mesh.process_multi_index", "mesh.process_linear_index"})
"""A device's index: it varies along the axes it names (all by default)."""
SOURCES = _SPREAD | _ANYWHERE | _INDICES | {"mesh.shift", "func.call_indirect"}
"""The ops that make a value differ between devices: without one in a
function, none does (the passes skip the analysis)."""

_EMPTY: frozenset = frozenset()
_ANY = frozenset({ANY})

_SELECTED = frozenset({"scf.if", "scf.index_switch", "stablehlo.if", "stablehlo.case", "mhlo.if", "mhlo.case"})
"""Ops whose operand 0 chooses the region that runs."""
_BRANCHES = frozenset({"cf.cond_br", "cf.switch"})
"""Branches whose operand 0 chooses the successor."""
_HLO_WHILE = frozenset({"stablehlo.while", "mhlo.while"})


@dataclass
class PerDevice:
    """What `per_device_values` found: per value that may differ between
    devices, the axes it varies along and the op that first made it so;
    per block only some devices may run, the op whose per-device value
    decides (for diagnostics)."""

    values: dict[ir.Value, tuple[frozenset, ir.Operation]] = field(default_factory=dict)
    blocks: dict[ir.Block, ir.Operation] = field(default_factory=dict)


class _Meshes:
    """The axes of the meshes a function's ops name, looked up once each."""

    def __init__(self, func: ir.Operation) -> None:
        self.module = _module_of(func)
        self.found: dict[str, frozenset] = {}

    def axes(self, mesh: str) -> frozenset:
        """Every (mesh, axis) of `mesh`; `ANY` when it cannot be found."""
        found = self.found.get(mesh)
        if found is None:
            found = _ANY
            if self.module is not None:
                try:
                    op = ir.SymbolTable(self.module)[mesh]
                except KeyError:
                    op = None
                if op is not None and op.operation.name == "mesh.mesh" and "shape" in op.operation.attributes:
                    rank = len(ir.DenseI64ArrayAttr(op.operation.attributes["shape"]))
                    found = frozenset((mesh, a) for a in range(rank))
            self.found[mesh] = found
        return found


def _module_of(op: ir.Operation) -> ir.Operation | None:
    scope = op.parent
    while scope is not None and scope.operation.name != "builtin.module":
        scope = scope.parent
    return None if scope is None else scope.operation


def _axes(op: ir.Operation, name: str) -> frozenset:
    """The (mesh, axis) pairs an op names in attribute `name` (empty: none)."""
    attributes = op.attributes
    if "mesh" not in attributes:
        return _ANY
    mesh = ir.FlatSymbolRefAttr(attributes["mesh"]).value
    if name not in attributes:
        return _EMPTY
    return frozenset((mesh, int(a)) for a in ir.DenseI16ArrayAttr(attributes[name]))


def _made(op: ir.Operation, name: str, read: frozenset, meshes: _Meshes) -> frozenset:
    """The axes `op`'s results vary along, its operands' being `read`."""
    if name in _ANYWHERE or name == "func.call_indirect":
        return _ANY
    if name in _SPREAD:
        return read | _axes(op, "mesh_axes")
    if name in _AGREE:
        over = _axes(op, "mesh_axes")
        if ANY not in read:
            return read - over
        # (over every axis of its mesh: every device ends with the same data,
        # whatever it held before)
        whole = meshes.axes(ir.FlatSymbolRefAttr(op.attributes["mesh"]).value) if "mesh" in op.attributes else _ANY
        return _EMPTY if ANY not in whole and whole <= over else read
    if name == "mesh.shift":
        attributes = op.attributes
        if "mesh" not in attributes or "shift_axis" not in attributes:
            return _ANY
        mesh = ir.FlatSymbolRefAttr(attributes["mesh"]).value
        return read | {(mesh, ir.IntegerAttr(attributes["shift_axis"]).value)}
    if name in _INDICES:
        given = _axes(op, "axes")
        if given:
            return read | given
        if "mesh" not in op.attributes:
            return _ANY
        return read | meshes.axes(ir.FlatSymbolRefAttr(op.attributes["mesh"]).value)
    return read


def varying_functions(module: ir.Operation | None) -> set[str]:
    """The functions of `module` (its top level) that may compute a value
    differing between devices: one holding an op of `SOURCES`, or calling
    one that does (through any chain of calls, recursion included)."""
    if module is None:
        return set()
    calls: dict[str, set[str]] = {}
    found: set[str] = set()
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name != "func.func":
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        names: set[str] = set()
        calls[name] = {_callee(call) for call in _read(op, names)}
        if not SOURCES.isdisjoint(names):
            found.add(name)
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name not in found and not found.isdisjoint(callees):
                found.add(name)
                changed = True
    return found


class Callees:
    """`varying_functions` of the module a pass run works on, found once per
    run (a module of many functions would otherwise be walked once per
    function that calls): a pass makes one per run."""

    def __init__(self) -> None:
        self.module: ir.Operation | None = None
        self.found: set[str] | None = None

    def varying(self, func: ir.Operation) -> set[str]:
        """The functions of `func`'s module that may vary."""
        module = _module_of(func)
        if self.found is None or module != self.module:
            self.module, self.found = module, varying_functions(module)
        return self.found


def may_vary(
    func: ir.Operation, names: Iterable[str], bodies: Iterable[ir.Operation] = (), callees: Callees | None = None
) -> bool:
    """Whether `func`, whose ops have the `names` (the ops in `bodies`
    aside, whose regions the caller did not enter), may compute a value that
    differs between devices: it has an op of `SOURCES`, or calls a function
    that may (`callees`: the pass run's)."""
    names = set(names)
    for op in bodies:
        _read(op, names)
    if not SOURCES.isdisjoint(names):
        return True
    if "func.call" not in names:
        return False
    varying = (callees or Callees()).varying(func)
    return any(_callee(call) in varying for call in _read(func, set()))


def _read(op: ir.Operation, names: set[str]) -> list[ir.Operation]:
    """The `func.call`s within `op` (itself included); adds the names of
    every op within it to `names`."""
    calls: list[ir.Operation] = []

    def visit(inner: ir.Operation) -> ir.WalkResult:
        name = inner.name
        names.add(name)
        if name == "func.call":
            calls.append(inner)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return calls


def _callee(call: ir.Operation) -> str | None:
    if "callee" not in call.attributes:
        return None
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


_NOT_COLLECTIVES = frozenset({"mesh.shard", "mesh.shard_shape", "mesh.sharding", "mesh.mesh"})


def is_collective(name: str) -> bool:
    """Whether ops named `name` are mesh collectives (or other mesh ops that
    work on one device's data): they read their operands as they are."""
    return name.startswith("mesh.") and name not in _NOT_COLLECTIVES


def read_by_collective(value: ir.Value) -> bool:
    """Whether a collective (`is_collective`) reads `value` directly: a
    function argument it reads arrives whole.  (A use list's iterator ends
    in a C++ exception: callers ask only where a collective may be.)"""
    return any(is_collective(use.owner.operation.name) for use in value.uses)


def per_device_values(func: ir.Operation, callees: Callees | None = None) -> PerDevice:
    """The values of `func` that may differ between devices and the blocks
    only some devices may run (`PerDevice`).  Values not listed are the same
    on every device.  `callees`: the pass run's (`Callees`)."""
    result = PerDevice()
    found, blocks = result.values, result.blocks
    axes_of: dict[ir.Block, frozenset] = {}  # per block in `blocks`, the axes its decider varies along
    meshes = _Meshes(func)
    callees = callees or Callees()
    varying: set[str] | None = None  # `callees.varying`, once a call is met

    def mark(v: ir.Value, axes: frozenset, origin: ir.Operation) -> bool:
        old = found.get(v)
        if old is None:
            found[v] = (axes, origin)
            return True
        if axes <= old[0]:
            return False
        found[v] = (old[0] | axes, old[1])
        return True

    def diverge(block: ir.Block, decider: tuple[frozenset, ir.Operation]) -> bool:
        """Mark `block` as run by some devices only, as a value varying along
        `decider`'s axes decides: what it defines varies along them."""
        axes, origin = decider
        old = axes_of.get(block)
        if old is not None and axes <= old:
            return False
        axes_of[block] = axes if old is None else old | axes
        blocks.setdefault(block, origin)
        for arg in block.arguments:
            mark(arg, axes, origin)
        return True

    def decided_by(v: ir.Value) -> tuple[frozenset, ir.Operation] | None:
        return found.get(v)

    changed = True
    first = True

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal changed, first, varying
        if first:  # the walk starts at the function itself
            first = False
            return ir.WalkResult.ADVANCE
        name = op.name
        read: frozenset = _EMPTY
        origin: ir.Operation | None = None
        operands = op.operands
        for v in operands:
            got = found.get(v)
            if got is not None:
                read = read | got[0]
                origin = origin or got[1]
        made = _made(op, name, read, meshes)
        if name == "func.call":
            if varying is None:
                varying = callees.varying(func)
            if _callee(op) in varying:
                made = made | _ANY  # what the callee computes per device comes back
        block = op.block
        seen.add(block)
        within_axes = axes_of.get(block)
        within = None if within_axes is None else (within_axes, blocks[block])
        if within is not None:
            made = made | within[0]  # defined on some devices only
            origin = origin or within[1]
        if made and origin is None:
            origin = op
        # (marks of what the walk has yet to visit need no second round;
        # a mark behind it, round a loop or back along a branch, does)
        if made:
            assert origin is not None
            for r in op.results:
                mark(r, made, origin)
            for region in op.regions:
                for b in region.blocks:
                    for arg in b.arguments:
                        mark(arg, made, origin)
        # regions only some devices run: chosen or bounded by a per-device value
        decider = within
        if decider is None and len(op.regions):
            if name in _SELECTED and len(operands):
                decider = decided_by(operands[0])
            elif name == "scf.for" and len(operands) >= 3:
                bounds = [got for k in range(3) if (got := decided_by(operands[k])) is not None]
                if bounds:
                    decider = (frozenset().union(*(b[0] for b in bounds)), bounds[0][1])
        if decider is not None:
            for region in op.regions:
                for b in region.blocks:
                    diverge(b, decider)
        if len(op.successors):
            if read:  # a branch hands its operands on to its successors' arguments
                for b in op.successors:
                    for arg in b.arguments:
                        changed = (mark(arg, read, origin) and b in seen) or changed
            if name in _BRANCHES and len(operands) and (decider := decided_by(operands[0])) is not None:
                # the blocks after it run on some devices only (all but the entry, conservatively)
                region_blocks = block.region.blocks
                for k in range(1, len(region_blocks)):
                    b = region_blocks[k]
                    changed = (diverge(b, decider) and b in seen) or changed
        elif read and not len(op.results) and not name.startswith("mesh."):
            # a terminator: what it hands on reaches its op's results and,
            # round a loop, its blocks' arguments (a function's return, none)
            parent = op.parent
            if parent is not None and parent.operation != func:
                parent = parent.operation
                for r in parent.results:
                    mark(r, read, origin)
                for region in parent.regions:
                    for b in region.blocks:
                        for arg in b.arguments:
                            changed = mark(arg, read, origin) or changed
                # a loop whose condition differs runs a different number of times
                flag = decided_by(operands[0]) if len(operands) else None
                if flag is not None and (
                    name == "scf.condition" or (parent.name in _HLO_WHILE and block == parent.regions[0].blocks[0])
                ):
                    for region in parent.regions:
                        for b in region.blocks:
                            changed = diverge(b, flag) or changed
        return ir.WalkResult.ADVANCE

    seen: set[ir.Block] = set()
    while changed:
        changed, first = False, True
        func.walk(visit, ir.WalkOrder.PRE_ORDER)
    return result


__all__ = [
    "ANY",
    "SOURCES",
    "PerDevice",
    "is_collective",
    "may_vary",
    "per_device_values",
    "read_by_collective",
    "varying_functions",
]
