"""`mesh-canonicalize`: the simplifications MLIR's `canonicalize` and `cse`
cannot make on IRDL ops, which MLIR must treat as having unknown effects.

One walk collects the ops; a second, in reverse, rewrites them directly
(the guide's cost model: a walk is cheap, the greedy driver is not).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from mlir import ir
from mlir.dialects import arith, tensor

from ...ir.schema import COLLECTIVES, DYNAMIC
from ..base import Pass

# Collectives that compute a value from their group and have no other
# effect: all of them but the point-to-point send and recv.
PURE_COLLECTIVES = COLLECTIVES - {"mesh.send", "mesh.recv"}
ONE_DEVICE, NO_ELEMENT, ROUND_TRIP = "one device", "no element", "round trip"
"""What `MeshCanonicalize.fold_collective` folded: a collective over one
device, one whose result has no element, an all_slice undoing an all_gather."""
_FOLDABLE_QUERIES = frozenset(("mesh.mesh_shape", "mesh.process_multi_index", "mesh.process_linear_index"))
# Mesh shapes by (the op holding the mesh.mesh, its name); None is a `?` size.
Meshes = dict[tuple[ir.Operation, str], list[int | None]]
_PURE_QUERIES = frozenset(
    ("mesh.sharding", "mesh.mesh_shape", "mesh.process_multi_index", "mesh.process_linear_index", "mesh.shard_shape")
)


@dataclasses.dataclass
class MeshCanonicalize(Pass):
    ARGUMENT: ClassVar[str] = "mesh-canonicalize"
    SUMMARY: ClassVar[str] = "Fold single-device collectives and static mesh queries; CSE and DCE pure mesh ops"
    DESCRIPTION: ClassVar[str] = (
        "A collective whose device group has one device and whose result type equals its input type "
        "becomes its input, and so does an all_slice of an all_gather along the same dimension over the "
        "same mesh axes; one whose result has no element becomes a tensor.empty. mesh.mesh_shape and "
        "process indices on static size-1 axes become constants. "
        "Identical mesh.sharding and query ops in one block are merged, and unused pure mesh ops erased."
    )

    fold_collectives: bool = dataclasses.field(
        default=True,
        metadata={"help": "fold single-device and empty collectives, and all_gather-all_slice round trips"},
    )
    fold_queries: bool = dataclasses.field(default=True, metadata={"help": "fold mesh_shape/process index queries"})
    cse: bool = dataclasses.field(default=True, metadata={"help": "merge identical pure mesh ops in a block"})
    dce: bool = dataclasses.field(default=True, metadata={"help": "erase unused pure mesh ops"})

    def run(self, module: ir.Operation) -> None:
        meshes: Meshes = {}
        ops: list[ir.Operation] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            if name == "mesh.mesh":
                shape = list(op.attributes["shape"])
                key = (op.parent, op.attributes["sym_name"].value)
                meshes.setdefault(key, [None if d == DYNAMIC else d for d in shape])
            elif name in PURE_COLLECTIVES or name in _PURE_QUERIES:
                ops.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.PRE_ORDER)
        if self.cse:
            ops = self._cse(ops)
        # Users before producers: an op whose users died is dead too, and a
        # dead op is erased rather than folded.
        for op in reversed(ops):
            if self.dce and all(_unused(r) for r in op.results):
                op.erase()
            elif self.fold_collectives and op.name in PURE_COLLECTIVES:
                self.fold_collective(op, meshes)
            elif self.fold_queries and op.name in _FOLDABLE_QUERIES:
                self._fold_query(op, meshes)

    @staticmethod
    def _cse(ops: list[ir.Operation]) -> list[ir.Operation]:
        """Merge ops with the same name, attributes and operands in one block;
        the first one (in walk order) dominates the rest."""
        seen: dict[tuple, ir.Operation] = {}
        kept = []
        for op in ops:
            if op.name not in _PURE_QUERIES:
                kept.append(op)
                continue
            key = identity_key(op)
            first = seen.get(key)
            if first is None:
                seen[key] = op
                kept.append(op)
                continue
            for old, new in zip(op.results, first.results):
                old.replace_all_uses_with(new)
            op.erase()
        return kept

    @staticmethod
    def _group_size(op: ir.Operation, meshes: Meshes) -> int | None:
        """Devices in the op's group, by arithmetic; None when unknown
        (a dynamic size, or a mesh or axis the verifier will report)."""
        shape = mesh_shape_of(op, meshes)
        if shape is None:
            return None
        size = 1
        for a in op.attributes["mesh_axes"]:
            if a < 0 or a >= len(shape) or shape[a] is None:
                return None
            size *= shape[a]
        return size

    def fold_collective(self, op: ir.Operation, meshes: Meshes) -> str | None:
        """Fold `op` if it can be; which fold it took (`ONE_DEVICE`,
        `NO_ELEMENT`, `ROUND_TRIP`), else None."""
        source, result = op.operands[0], op.results[0]
        gathered = _gathered_input(op)
        if gathered is not None:
            source, folded = gathered, ROUND_TRIP
        elif _no_elements(result.type):
            return NO_ELEMENT if self._fold_empty(op) else None
        elif source.type != result.type or self._group_size(op, meshes) != 1:
            return None
        else:
            folded = ONE_DEVICE
        if op.name == "mesh.shift" and "rotate" not in op.attributes and op.attributes["offset"].value != 0:
            return None  # a non-rotating shift by a non-zero offset leaves an undefined result
        if _annotated(result) and (_is_annotation(source) or _annotated(source)):
            # The result's annotations would annotate an annotation, or a
            # value a second time: a layout change where there was none.
            return None
        result.replace_all_uses_with(source)
        op.erase()
        return folded

    @staticmethod
    def _fold_empty(op: ir.Operation) -> bool:
        """A collective whose result has no element receives nothing: an
        empty tensor of its type, made where it was."""
        result = op.results[0]
        if _annotated(result):
            return False
        with ir.InsertionPoint(op), op.location:
            t = ir.RankedTensorType(result.type)
            empty = tensor.EmptyOp(list(t.shape), t.element_type).result
        result.replace_all_uses_with(empty)
        op.erase()
        return True

    @staticmethod
    def _fold_query(op: ir.Operation, meshes: Meshes) -> bool:
        shape = mesh_shape_of(op, meshes)
        if shape is None:
            return False
        if op.name == "mesh.process_linear_index":
            values = [0] if all(s == 1 for s in shape) else None
        else:
            axes = list(op.attributes["axes"]) or list(range(len(shape)))
            if any(a < 0 or a >= len(shape) for a in axes):
                return False
            sizes = [shape[a] for a in axes]
            if op.name == "mesh.mesh_shape":
                values = sizes if all(s is not None for s in sizes) else None
            else:
                values = [0] * len(sizes) if all(s == 1 for s in sizes) else None
        if values is None:
            return False
        with ir.InsertionPoint(op), op.location:
            index = ir.IndexType.get()
            for result, value in zip(op.results, values):
                result.replace_all_uses_with(arith.ConstantOp(index, value).result)
        op.erase()
        return True


def identity_key(op: ir.Operation) -> tuple:
    """Two pure ops of one block with the same key compute the same values:
    the later one can use the earlier one's results."""
    return (
        op.name,
        op.block,
        tuple(sorted((k, str(op.attributes[k])) for k in op.attributes)),
        tuple(op.operands),
        tuple(str(r.type) for r in op.results),
    )


def mesh_shape_of(op: ir.Operation, meshes: Meshes) -> list[int | None] | None:
    """The shape of the mesh `op` names, resolved from the nearest enclosing
    symbol table outward as MLIR resolves symbols (nested modules may reuse
    a name)."""
    name = op.attributes["mesh"].value
    scope = op.parent
    while scope is not None:
        shape = meshes.get((scope, name))
        if shape is not None:
            return shape
        scope = scope.parent
    return None


def _gathered_input(op: ir.Operation) -> ir.Value | None:
    """For an all_slice of an all_gather along the same dimension over the
    same mesh axes (in the same order), the gather's input: each device
    slices out of the gathered tensor the very piece it put in, when the
    slice's type is the input's (an uneven gather's pieces were padded
    alike on every device: the slice is the padded piece)."""
    if op.name != "mesh.all_slice":
        return None
    owner = op.operands[0].owner
    if not isinstance(owner, ir.OpView) or owner.operation.name != "mesh.all_gather":
        return None
    gather = owner.operation
    source = gather.operands[0]
    a, b = gather.attributes, op.attributes
    if source.type != op.results[0].type or str(a["mesh"]) != str(b["mesh"]):
        return None
    if list(a["mesh_axes"]) != list(b["mesh_axes"]) or a["gather_axis"] != b["slice_axis"]:
        return None
    return source


def _no_elements(t: ir.Type) -> bool:
    """A static tensor type with a dimension of size 0 (and no encoding,
    which a `tensor.empty` made in its place would not carry)."""
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and 0 in t.shape and t.encoding is None


def _is_annotation(value: ir.Value) -> bool:
    owner = value.owner
    return isinstance(owner, ir.OpView) and owner.operation.name == "mesh.shard"


def _annotated(value: ir.Value) -> bool:
    """True when a `mesh.shard` uses `value`."""
    return any(use.owner.name == "mesh.shard" for use in value.uses)


def _unused(value: ir.Value) -> bool:
    for _ in value.uses:
        return False
    return True
