"""`mesh-optimize-collectives`: fewer and cheaper collectives in partitioned
(per-device) programs, such as `mesh-partition` emits.

Every rewrite is exact: each device computes the same values as before
(bit for bit on integers; floats may round differently where a reduction
is regrouped, and a regrouped subtraction may give a zero the other sign:
sum(a) - sum(b) is -0.0 where sum(a - b) is +0.0).  Rewrites only combine
ops of one block, so every device that ran a collective before still runs
the one that replaces it, and no collective moves into or out of a branch.

The pass runs its rewrites in rounds until one changes nothing.  Each
rewrite collects its candidate ops in one walk, then visits them in program
order and only ever erases the op it visits or ops before it (their
producers), so no visited op has been erased.  Costs are the bytes a device
receives, by the resharding planner's model (`sharding/resharding.py`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from mlir import ir
from mlir.dialects import arith, tensor

from ...interfaces.linear import float_terms_overflow
from ...interfaces.registry import (
    hlo_combiner_kind,
    ignores_nan,
    is_pointwise,
    padding_value,
    reduce_identity_kind,
    rule_for,
)
from ...ir import linalg_ops
from ...ir import ops as mesh_ops
from ...ir.exchange import device_table, permuted
from ...ir.flags import drop_totals_only_flags
from ...ir.hlo import ints_like, ints_of
from ...ir.schema import DYNAMIC
from ...ir.signature import attribute_items, op_address
from ...ir.syntax import Unprintable, decode_sharding_attr
from ...ir.types import is_boolean, sum_zero_attr
from ...ir.uniform import readable_attr
from ...sharding.resharding import AllGather, AllReduce, AllToAll, ReduceScatter, Step, uniform_cost
from ...sharding.spec import IDEMPOTENT_KINDS, Mesh
from ..base import Pass, element_bytes
from ..cleanup.mesh_canonicalize import (
    NO_ELEMENT,
    PURE_COLLECTIVES,
    ROUND_TRIP,
    MeshCanonicalize,
    Meshes,
    identity_key,
    mesh_shape_of,
)

# Kinds whose reduction of n equal values is the value.

# Kinds whose reduction over a group may be split into reductions over
# disjoint parts of it (associative and commutative, exactly, on integers);
# `average` truncates on integers at each step, so it is not one of them.
_REGROUPABLE = frozenset(("sum", "product", "max", "min", "bitwise_and", "bitwise_or", "bitwise_xor"))
# Binary elementwise ops that are the combiner of a reduction kind:
# op(reduce(a), reduce(b)) == reduce(op(a, b)) over one group.  Integer
# max/min are the signed ones, as the simulator's reductions are.
_COMBINERS = {
    "arith.addi": "sum",
    "arith.addf": "sum",
    "arith.muli": "product",
    "arith.mulf": "product",
    "arith.maxsi": "max",
    "arith.maximumf": "max",
    "arith.minsi": "min",
    "arith.minimumf": "min",
    "arith.andi": "bitwise_and",
    "arith.ori": "bitwise_or",
    "arith.xori": "bitwise_xor",
    "tosa.add": "sum",
    "tosa.maximum": "max",
    "tosa.minimum": "min",
    "mhlo.add": "sum",
    "stablehlo.add": "sum",
    "linalg.add": "sum",
    "linalg.mul": "product",
    "linalg.max": "max",
    "linalg.min": "min",
}


_SUBTRACTIONS = frozenset(("arith.subf", "arith.subi", "linalg.sub", "tosa.sub", "stablehlo.subtract", "mhlo.subtract"))
"""Binary elementwise ops that reassociate with a sum: reduce(a) - reduce(b)
== reduce(a - b) (integers wrap alike; floats regroup, as any sum does)."""
_SUM_BODY = frozenset(("arith.addf", "arith.addi", "arith.subf", "arith.subi", "arith.negf"))
"""Scalar ops of a `linalg.generic` body that keep it a sum's combination."""


def _parallel_loops(op: ir.Operation) -> bool:
    """Whether every loop of the linalg op `op` is parallel."""
    return all("parallel" in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"]))


def _generic_combination(op: ir.Operation) -> tuple[str, int] | None:
    """(kind, inputs) when `op` is an elementwise `linalg.generic` whose
    result combines its inputs with the combiner of `kind` alone (a sum's
    also with subtraction and negation), so that the combination of their
    reductions is the reduction of their combination; else None."""
    n = len(op.operands) - 1
    if n < 2 or len(op.results) != 1 or len(op.regions) != 1:
        return None
    attrs = op.attributes
    maps = list(ir.ArrayAttr(attrs["indexing_maps"]))
    if len(maps) != n + 1 or any(m != maps[0] for m in maps):
        return None
    if not _parallel_loops(op):
        return None
    blocks = op.regions[0].blocks
    if len(blocks) != 1:
        return None
    block = blocks[0]
    args = list(block.arguments)
    if len(args) != n + 1 or next(iter(args[n].uses), None) is not None:
        return None  # the body reads the init
    known = set(args[:n])
    kinds = set()
    body = list(block.operations)
    for inner in body[:-1]:
        name = inner.name
        if name in _SUM_BODY:
            kinds.add("sum")
        elif name.startswith("arith.") and name in _COMBINERS:
            kinds.add(_COMBINERS[name])
        else:
            return None
        if len(inner.results) != 1 or any(v not in known for v in inner.operands):
            return None
        known.add(inner.results[0])
    yielded = body[-1]
    if len(kinds) != 1 or len(yielded.operands) != 1 or yielded.operands[0] not in known - set(args):
        return None
    return kinds.pop(), n


def _reads_a_float_input_twice(op: ir.Operation, n_inputs: int) -> bool:
    """Whether a generic's body reads one of its first `n_inputs` float
    inputs more than once (`p + p + q`): run on each device's terms, it
    doubles them, which may overflow where the totals do not."""
    if not isinstance(_element(op.operands[0].type), ir.FloatType | ir.ComplexType):
        return False
    args = op.regions[0].blocks[0].arguments
    return any(sum(1 for _ in args[i].uses) > 1 for i in range(n_inputs))


def _element(t: ir.Type) -> ir.Type | None:
    return ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else None


def _drop_flags(op: ir.Operation) -> None:
    """`drop_totals_only_flags` on `op`, or on a linalg.generic's body ops."""
    if op.name == "linalg.generic":
        for inner in op.regions[0].blocks[0].operations:
            drop_totals_only_flags(inner.operation)
    else:
        drop_totals_only_flags(op)


def _some_reduced_terms(op: ir.Operation, n: int) -> tuple[list[int], list[ir.Operation]] | None:
    """(input indices, their reductions) for `_reassociate_some_terms`: at
    least two but not all of `op`'s `n` inputs (all of them are
    `_reassociate`'s) made by sum all_reduces over one set of axes, or by sum
    reduce_scatters along one axis over the same axes, of terms of one
    static type and the op's element type, each read only there once."""
    t = op.results[0].type
    for name in ("mesh.all_reduce", "mesh.reduce_scatter"):
        found = {i: _producer(op.operands[i], name) for i in range(n)}
        candidates = [i for i, r in found.items() if r is not None and r.block == op.block]
        if len(candidates) < 2 or len(candidates) == n:
            continue
        terms = found[candidates[0]].operands[0].type

        picked = [
            i
            for i in candidates
            if _alike(found[i], found[candidates[0]], t) and _uses_only_as(op.operands[i], op, (i,))
        ]
        if len(picked) < 2 or len(_distinct([found[i] for i in picked])) != len(picked):
            continue
        if not isinstance(terms, ir.RankedTensorType) or not terms.has_static_shape or _element(terms) != _element(t):
            continue
        return picked, [found[i] for i in picked]
    return None


def _alike(r: ir.Operation, first: ir.Operation, t: ir.Type) -> bool:
    """Whether reduction `r` sums as `first` does, over terms of its type
    (an all_reduce's of `t`, the type of the op that reads it)."""
    if _collective(r).reduction != "sum" or not _same_group(r, first):
        return False
    if r.operands[0].type != first.operands[0].type:
        return False
    return r.name != "mesh.all_reduce" or r.operands[0].type == t


def _same_group(a: ir.Operation, b: ir.Operation) -> bool:
    """Whether two reductions reduce over one group alike: all_reduces over
    one set of mesh axes, reduce_scatters over the same axes in order and
    along one tensor axis, on one mesh (whatever their kinds)."""
    va, vb = _collective(a), _collective(b)
    if a.name != b.name or va.mesh != vb.mesh:
        return False
    if a.name == "mesh.all_reduce":
        return set(va.mesh_axes) == set(vb.mesh_axes)
    return tuple(va.mesh_axes) == tuple(vb.mesh_axes) and va.scatter_axis == vb.scatter_axis


def _reduction_like(template: ir.Operation, result_type: ir.Type, value: ir.Value, loc: ir.Location) -> ir.Operation:
    """A reduction of `value` as `template` (an all_reduce or a
    reduce_scatter) reduces its own, at the insertion point."""
    view = _collective(template)
    if template.name == "mesh.all_reduce":
        return mesh_ops.AllReduceOp(
            result_type, value, view.mesh, mesh_axes=list(view.mesh_axes), reduction=view.reduction, loc=loc
        ).operation
    return mesh_ops.ReduceScatterOp(
        result_type,
        value,
        view.mesh,
        view.scatter_axis,
        mesh_axes=list(view.mesh_axes),
        reduction=view.reduction,
        loc=loc,
    ).operation


def _sum_of_inputs(op: ir.Operation) -> int | None:
    """How many inputs an elementwise linalg.generic has when its body only
    adds them, each once (no subtraction: a zero in place of a term must
    leave the others' signs), and never reads its init; else None."""
    found = _generic_combination(op)
    if found is None or found[0] != "sum":
        return None
    block = op.regions[0].blocks[0]
    body = list(block.operations)
    if any(inner.name not in ("arith.addf", "arith.addi") for inner in body[:-1]):
        return None
    args = list(block.arguments)[: found[1]]
    if any(len(list(a.uses)) != 1 for a in args):
        return None
    if any(len(list(inner.results[0].uses)) != 1 for inner in body[:-1]):
        return None
    return found[1]


def _chain_kind(op: ir.Operation) -> str | None:
    """The reduction a binary `op` computes, for `_chain`: a combiner's, or
    an elementwise linalg.generic's whose body is one combiner of its two
    inputs (commutative and associative, unlike a sum's subtraction)."""
    if op.name != "linalg.generic":
        return _combiner_kind(op)
    found = _generic_combination(op)
    if found is None or found[1] != 2:
        return None
    block = op.regions[0].blocks[0]
    body = list(block.operations)
    if len(body) != 2 or body[0].name not in _COMBINERS or body[0].name.endswith(("subf", "subi")):
        return None
    args = list(block.arguments)
    if set(body[0].operands) != {args[0], args[1]} or len(body[0].operands) != 2:
        return None  # `addi %q, %q` reads one input twice
    return found[0]


def _combiner_kind(op: ir.Operation) -> str | None:
    """The reduction `op` computes (HLO's and linalg's add of booleans is an
    or, where the mesh sum of i1 wraps: an exclusive or), or None: a tosa
    max or min that skips NaNs is no combiner of the mesh max or min, which
    propagate them."""
    kind = _COMBINERS[op.name]
    if op.name == "linalg.add" and len(op.results) == 1 and is_boolean(op.results[0].type):
        return "bitwise_or"  # its body is arith.ori on i1
    if op.name.startswith("tosa.") and kind in ("max", "min") and ignores_nan(op):
        return None
    if op.name.startswith(("stablehlo.", "mhlo.")) and len(op.results) == 1:
        return hlo_combiner_kind(kind, op.results[0].type)
    return kind


_REASSOCIATED = frozenset((*_COMBINERS, *_SUBTRACTIONS, "linalg.generic"))

# How many rounds of every rewrite at most; each round that changes
# something removes or shrinks a collective, so real programs settle in two.
_MAX_ROUNDS = 16


@dataclasses.dataclass
class MeshOptimizeCollectives(Pass):
    ARGUMENT: ClassVar[str] = "mesh-optimize-collectives"
    SUMMARY: ClassVar[str] = "Merge, fold, reassociate and move collectives of per-device programs"
    DESCRIPTION: ClassVar[str] = (
        "On partitioned programs: erases collectives over one-device groups; merges identical collectives "
        "of one value; folds an all_reduce of an all_reduce over disjoint axes, and drops an idempotent "
        "all_reduce over axes its operand is already replicated on; turns op(all_reduce(a), all_reduce(b)) "
        "into all_reduce(op(a, b)) when op combines the reduction; turns all_reduce then all_slice into "
        "reduce_scatter; moves all_gathers below elementwise ops when no more bytes move; and splits an "
        "all_reduce followed by elementwise work into reduce_scatter, the work on 1/g of the data, and "
        "all_gather; and turns a rotation of a split dimension between the collectives that gather it and split it "
        "again (two all_to_alls, or an all_gather and an all_slice; the rotation two slices concatenated the other "
        "way round, as jnp.roll writes it) into a rotating mesh.shift of the cells that wrap around (sends and "
        "receives over an axis tuple); and turns a pad "
        "of a split dimension between such collectives into non-rotating mesh.shifts of the neighbouring pieces "
        "each device's window reads, cut at an offset of its own; and turns a reversal of such a dimension (jnp.flip) "
        "into a local reversal and an exchange with the mirror device; and turns slices, pads and elementwise ops of "
        "such a dimension that keep its size (x[1:] - x[:-1] padded back), or that an hlo reduce sums up, into "
        "mesh.update_halos of the rows each device's piece reads from its neighbours; and merges update_halos of "
        "one tensor into one with the widest halos. Every rewrite computes the same values on every device."
    )

    fold_one_device: bool = dataclasses.field(
        default=True,
        metadata={
            "help": "erase collectives over one-device groups or of no element; fold all_slices undoing all_gathers"
        },
    )
    merge_identical: bool = dataclasses.field(
        default=True, metadata={"help": "merge identical collectives of one value in a block"}
    )
    fold_all_reduce: bool = dataclasses.field(
        default=True, metadata={"help": "fold all_reduce of all_reduce; drop idempotent re-reductions"}
    )
    reassociate: bool = dataclasses.field(
        default=True, metadata={"help": "op(all_reduce(a), all_reduce(b)) -> all_reduce(op(a, b))"}
    )
    reduce_scatter: bool = dataclasses.field(
        default=True, metadata={"help": "all_reduce then all_slice -> reduce_scatter"}
    )
    move_gather_down: bool = dataclasses.field(
        default=True, metadata={"help": "move all_gathers below elementwise ops when bytes do not grow"}
    )
    decompose_all_reduce: bool = dataclasses.field(
        default=True,
        metadata={"help": "all_reduce then elementwise work -> reduce_scatter, work, all_gather"},
    )
    roll_by_shift: bool = dataclasses.field(
        default=True,
        metadata={"help": "a rotation between the collectives that gather and split its dimension -> mesh.shift"},
    )
    pad_by_shift: bool = dataclasses.field(
        default=True,
        metadata={"help": "a pad between the collectives that gather and split its dimension -> mesh.shift"},
    )
    flip_by_exchange: bool = dataclasses.field(
        default=True,
        metadata={"help": "a reversal between the collectives that gather and split its dimension -> mirror exchange"},
    )
    stencil_by_halo: bool = dataclasses.field(
        default=True,
        metadata={
            "help": "slices, pads and elementwise ops between the collectives that gather and split their "
            "dimension -> mesh.update_halo"
        },
    )
    merge_halos: bool = dataclasses.field(
        default=True,
        metadata={"help": "update_halos of one tensor with different halo sizes -> one with the widest halos, sliced"},
    )
    explain: bool = dataclasses.field(
        default=False, metadata={"help": "a remark per rewrite with the bytes received before and after"}
    )

    def run(self, module: ir.Operation) -> None:
        meshes = _collect_meshes(module)
        rewrites: list[Callable[[ir.Operation, Meshes], bool]] = []
        if self.fold_one_device:
            rewrites.append(self._fold_one_device)
        if self.merge_identical:
            rewrites.append(self._merge_identical)
        if self.fold_all_reduce:
            rewrites.append(self._fold_all_reduce)
        if self.reassociate:
            rewrites.append(self._reassociate)
            rewrites.append(self._reassociate_chain)
            rewrites.append(self._reassociate_some_terms)
        if self.reduce_scatter:
            rewrites.append(self._reduce_scatter)
        if self.move_gather_down:
            rewrites.append(self._move_gather_down)
        if self.decompose_all_reduce:
            rewrites.append(self._decompose_all_reduce)
        if self.roll_by_shift:
            rewrites.append(self._roll_by_shift)
        if self.pad_by_shift:
            rewrites.append(self._pad_by_shift)
        if self.flip_by_exchange:
            rewrites.append(self._flip_by_exchange)
        if self.stencil_by_halo:
            rewrites.append(self._stencil_by_halo)
        if self.merge_halos:
            rewrites.append(self._merge_halos)
        for _ in range(_MAX_ROUNDS):
            changed = False
            for rewrite in rewrites:
                changed |= rewrite(module, meshes)
            if not changed:
                break

    # -- 7. one-device groups ------------------------------------------------

    def _fold_one_device(self, module: ir.Operation, meshes: Meshes) -> bool:
        """mesh-canonicalize's fold, on collectives only: one-device groups,
        results of no element, and an all_slice undoing an all_gather (the
        gather is erased once nothing else reads it)."""
        folder = MeshCanonicalize()
        changed = False
        emptied: dict[int, ir.Operation] = {}  # gathers a fold stopped reading, by address
        for op in _ops(module, PURE_COLLECTIVES):
            loc = op.location
            name = op.name
            # (the gather, for a round trip, which only an all_slice makes; read before `op` goes)
            source = op.operands[0].owner if name == "mesh.all_slice" else None
            folded = folder.fold_collective(op, meshes)
            if folded is None:
                continue
            changed = True
            if folded == ROUND_TRIP:
                assert source is not None
                gather = source.operation
                emptied[op_address(gather)] = gather
                before = _op_cost(gather, meshes) if self.explain else None
                self._explain(loc, "all_slice of an all_gather over the same axes: the gather's input", before, 0)
            elif folded == NO_ELEMENT:
                self._explain(loc, f"{name} of no element made an empty tensor", 0, 0)
            else:
                self._explain(loc, f"{name} over a one-device group erased", 0, 0)
        for gather in emptied.values():
            if next(iter(gather.results[0].uses), None) is None:
                gather.erase()
        return changed

    # -- 2. identical collectives ---------------------------------------------

    def _merge_identical(self, module: ir.Operation, meshes: Meshes) -> bool:
        """The first of identical collectives in a block dominates the rest;
        visiting in program order merges chains of them in one sweep."""
        seen: dict[tuple, ir.Operation] = {}
        changed = False
        for op in _ops(module, PURE_COLLECTIVES):
            key = identity_key(op)
            first = seen.get(key)
            if first is None:
                seen[key] = op
                continue
            self._explain(op.location, f"identical {op.name} merged", _op_cost(op, meshes), 0)
            for old, new in zip(op.results, first.results):
                old.replace_all_uses_with(new)
            op.erase()
            changed = True
        return changed

    def _merge_halos(self, module: ir.Operation, meshes: Meshes) -> bool:
        """`mesh.update_halo`s of one tensor in one block, alike but for their
        static destination halos (partition reads `x[:, 1:]` and `x[:, :-2]`
        through two): one update_halo with the widest halo on each side, in
        front of the first, and each read its window by a slice.  A halo
        cell is its owner's core cell whichever update brings it, and cells
        beyond the tensor's edge are undefined in both, so every device
        reads what it read.  Kept only where the one update receives no
        more cells than they did (two halos along different dimensions
        would add their corner)."""
        groups: dict[tuple, list[ir.Operation]] = {}
        for op in _ops(module, ("mesh.update_halo",)):
            if len(op.operands) != 2 or not all(_static_shape(v.type) for v in (*op.operands, op.results[0])):
                continue  # halo sizes computed at run time, or a dynamic shape
            attrs = op.attributes
            key = (
                op.operands[0],
                op_address(op.parent),
                *(attrs[k] for k in ("mesh", "split_axes", "static_source_halo_sizes")),
                _element(op.results[0].type),
            )
            groups.setdefault(key, []).append(op)
        changed = False
        for group in groups.values():
            if len(group) < 2 or any(op.block != group[0].block for op in group):
                continue
            changed |= self._merge_halo_group(group)
        return changed

    def _merge_halo_group(self, group: list[ir.Operation]) -> bool:
        first = group[0]
        view = _collective(first)
        split = [list(axes) for axes in view.split_axes]
        sharded = [d for d, axes in enumerate(split) if axes]
        halos = [list(_collective(op).static_destination_halo_sizes) for op in group]
        if any(len(h) != 2 * len(sharded) for h in halos) or len({tuple(h) for h in halos}) < 2:
            return False
        widest = [max(h[k] for h in halos) for k in range(2 * len(sharded))]
        shape = list(_static_shape(first.results[0].type) or ())
        core = list(shape)
        for i, d in enumerate(sharded):
            core[d] -= halos[0][2 * i] + halos[0][2 * i + 1]
        wide = list(core)
        for i, d in enumerate(sharded):
            wide[d] += widest[2 * i] + widest[2 * i + 1]

        size = element_bytes(first.results[0].type)

        def received(dims: list[int]) -> int:  # bytes of the halo cells of a device inside the mesh
            return (math.prod(dims) - math.prod(core)) * size

        before = sum(received(list(_static_shape(op.results[0].type) or ())) for op in group)
        after = received(wide)
        if after > before:
            return False
        where = first.location  # (the walk lists them in program order: the first dominates the others)
        with ir.InsertionPoint(first), where:
            into = tensor.EmptyOp(wide, _element(first.results[0].type)).result
            merged = mesh_ops.UpdateHaloOp(
                first.operands[0],
                into,
                view.mesh,
                split,
                source_halo_sizes=list(view.static_source_halo_sizes),
                destination_halo_sizes=widest,
            ).result
        n = len(core)
        for op, h in zip(group, halos):
            out = op.results[0]
            if h == widest:
                value = merged
            else:
                offsets = [0] * n
                for i, d in enumerate(sharded):
                    offsets[d] = widest[2 * i] - h[2 * i]
                sizes = list(_static_shape(out.type) or ())
                with ir.InsertionPoint(op), op.location:
                    value = tensor.ExtractSliceOp(
                        _with_shape(out.type, sizes, op.location), merged, [], [], [], offsets, sizes, [1] * n
                    ).result
            dest = op.operands[1]
            out.replace_all_uses_with(value)
            op.erase()
            owner = dest.owner
            if not isinstance(owner, ir.Block) and owner.name == "tensor.empty" and next(iter(dest.uses), None) is None:
                owner.operation.erase()
        self._explain(where, f"{len(group)} update_halos of one tensor merged", before, after)
        return True

    # -- 3. all_reduce of all_reduce ---------------------------------------------

    def _fold_all_reduce(self, module: ir.Operation, meshes: Meshes) -> bool:
        changed = False
        for op in _ops(module, ("mesh.all_reduce",)):
            outer = _collective(op)
            kind, mesh_name, axes = outer.reduction, outer.mesh, list(outer.mesh_axes)
            source = op.operands[0]
            if source.type != op.results[0].type:
                continue
            if kind in IDEMPOTENT_KINDS:
                # Reducing n equal values with an idempotent kind gives the
                # value: the axes the operand is replicated on reduce nothing.
                replicated = _replicated_axes(source, mesh_name)
                kept = [a for a in axes if a not in replicated]
                if len(kept) != len(axes):
                    before = _op_cost(op, meshes)
                    if not kept:
                        self._explain(op.location, "all_reduce of a replicated value dropped", before, 0)
                        op.results[0].replace_all_uses_with(source)
                        op.erase()
                        changed = True
                        continue
                    new = _rebuild_all_reduce(op, source, kept)
                    self._explain(
                        new.location, "all_reduce over replicated axes narrowed", before, _op_cost(new, meshes)
                    )
                    op, axes, changed = new, kept, True
            inner_op = _producer(source, "mesh.all_reduce")
            if inner_op is None or inner_op.block != op.block or not _only_user(source, op):
                continue
            inner = _collective(inner_op)
            if (
                inner.mesh != mesh_name
                or inner.reduction != kind
                or kind not in _REGROUPABLE
                or set(inner.mesh_axes) & set(axes)
                or inner_op.operands[0].type != source.type
                # (folding regroups the terms: as every other regrouping, not of
                # float products nor of floats narrower than 32 bits)
                or not _terms_combine(kind, [inner_op])
            ):
                continue
            before = _total(_op_cost(inner_op, meshes), _op_cost(op, meshes))
            folded = sorted(set(axes) | set(inner.mesh_axes))
            after = _bytes_of(AllReduce(tuple(folded), kind), op.operands[0], meshes, op)
            if before is not None and after is not None and after > before:
                continue  # (a guard: by the ring's model, `all_reduce_elements`, one group never receives more)
            new = _rebuild_all_reduce(op, inner_op.operands[0], folded)
            inner_op.erase()
            self._explain(new.location, "all_reduce of an all_reduce folded", before, _op_cost(new, meshes))
            changed = True
        return changed

    # -- 5. op(all_reduce(a), all_reduce(b)) ----------------------------------------

    def _reassociate(self, module: ir.Operation, meshes: Meshes) -> bool:
        changed = False
        for op in _ops(module, _REASSOCIATED):
            n_inputs = 2
            if op.name == "linalg.generic":
                found = _generic_combination(op)
                if found is None:
                    continue
                kind, n_inputs = found
            elif op.name in _SUBTRACTIONS:
                boolean = len(op.results) == 1 and is_boolean(op.results[0].type)
                kind = None if boolean else "sum"
            else:
                kind = _combiner_kind(op)
            if kind is None or len(op.results) != 1 or len(op.operands) < n_inputs:
                continue
            if op.name.startswith("linalg.") and len(op.operands) != n_inputs + 1:
                continue
            if not op.name.startswith("linalg.") and len(op.operands) != n_inputs:
                continue
            inputs = [op.operands[i] for i in range(n_inputs)]
            reduces = _reductions(op, inputs, kind)
            if reduces is None or not _terms_combine(kind, reduces):
                continue
            if op.name == "linalg.generic" and kind == "sum" and _reads_a_float_input_twice(op, n_inputs):
                continue  # each device would double its own term (`float_terms_overflow`)
            # Every use of the reductions is an input of this op, so they
            # die with the rewrite.
            if not all(_uses_only_as(v, op, range(n_inputs)) for v in inputs):
                continue
            distinct = _distinct(reduces)
            before = _total(*(_op_cost(r, meshes) for r in distinct))
            result = op.results[0]
            total_type = result.type
            for i, r in enumerate(reduces):
                op.operands[i] = r.operands[0]
            old_init = None
            if reduces[0].name == "mesh.reduce_scatter":
                # It now runs on the whole terms: a result (and init) of their type.
                terms = ir.RankedTensorType(reduces[0].operands[0].type)
                if op.name.startswith("linalg."):
                    old_init = op.operands[n_inputs]
                    with ir.InsertionPoint(op), op.location:
                        op.operands[n_inputs] = tensor.EmptyOp(terms.shape, terms.element_type).result
                result.set_type(terms)
            _drop_flags(op)
            with ir.InsertionPoint.after(op):
                new = _reduction_like(reduces[0], total_type, result, op.location)
            result.replace_all_uses_except(new.results[0], new)
            for r in distinct:
                r.erase()
            if old_init is not None and _producer(old_init, "tensor.empty") and next(iter(old_init.uses), None) is None:
                old_init.owner.operation.erase()
            what = f"{op.name} of {new.name[5:]}s reassociated"
            self._explain(new.location, what, before, _op_cost(new, meshes))
            changed = True
        return changed

    def _reassociate_chain(self, module: ir.Operation, meshes: Meshes) -> bool:
        """f(f(x, R(a)), R(b)) -> f(x, R(f(a, b))) for a combiner f of the
        kind of the reductions R (two all_reduces, or two reduce_scatters
        along one axis): one reduction instead of two, the other term
        joining after it (a parallel block's `x + y1 + y2`, as JAX writes
        it).  The inner op moves to just in front of the outer one, where
        both terms are defined, and runs on the terms' type."""
        changed = False
        for op in _ops(module, (*_COMBINERS, "linalg.generic")):
            found = self._chain(op)
            if found is None:
                continue
            inner, j, k, r1, r2 = found
            x = inner.operands[1 - j]
            before = _total(_op_cost(r1, meshes), _op_cost(r2, meshes))
            inner.operands[j] = r1.operands[0]
            inner.operands[1 - j] = r2.operands[0]
            inner.move_before(op)
            inner.results[0].set_type(r1.operands[0].type)
            _drop_flags(inner)  # it runs on each device's terms now
            _drop_flags(op)  # and this one on a total that differs from what it was given
            with ir.InsertionPoint(op):
                new = _reduction_like(r1, x.type, inner.results[0], op.location)
            op.operands[k] = x
            op.operands[1 - k] = new.results[0]
            r1.erase()
            r2.erase()
            what = f"{op.name} of two {new.name[5:]}s reassociated"
            self._explain(new.location, what, before, _op_cost(new, meshes))
            changed = True
        return changed

    def _reassociate_some_terms(self, module: ir.Operation, meshes: Meshes) -> bool:
        """An elementwise linalg.generic that only adds its inputs, some of
        them sums reduced alike: g(x, R(a), R(b)) -> g(x, R(g(0, a, b)), 0)
        for all_reduces, or reduce_scatters along one axis (the inner g then
        runs at the terms' size).  One reduction for all of them, the other
        inputs joining after it (a parallel block's fused `x + y1 + y2`).
        The zeros are fills of static types."""
        changed = False
        for op in _ops(module, ("linalg.generic",)):
            n = _sum_of_inputs(op)
            t = op.results[0].type if n is not None else None
            if n is None or not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
                continue
            if any(op.operands[i].type != t for i in range(n)):
                continue
            found = _some_reduced_terms(op, n)
            if found is None:
                continue
            picked, reduces = found
            if not _terms_combine("sum", reduces):
                continue
            before = _total(*(_op_cost(r, meshes) for r in reduces))
            t = ir.RankedTensorType(t)
            terms_type = ir.RankedTensorType(reduces[0].operands[0].type)
            with ir.InsertionPoint(op), op.location:
                # (a format without a zero is narrower than 32 bits: `_terms_combine` refused it)
                zero = arith.ConstantOp(t.element_type, sum_zero_attr(t.element_type)).result
                zeros = linalg_ops.fill(zero, tensor.EmptyOp(t.shape, t.element_type).result)
                whole_zeros, init = zeros, None
                if terms_type != t:  # reduce_scatters: the terms are whole
                    whole_zeros = linalg_ops.fill(zero, tensor.EmptyOp(terms_type.shape, t.element_type).result)
                    init = tensor.EmptyOp(terms_type.shape, t.element_type).result
                terms = op.clone(ip=ir.InsertionPoint(op))  # after what it reads
                if init is not None:
                    terms.operands[n] = init
                    terms.results[0].set_type(terms_type)
                for i in range(n):
                    terms.operands[i] = reduces[picked.index(i)].operands[0] if i in picked else whole_zeros
                _drop_flags(terms)  # it runs on each device's terms
                new = _reduction_like(reduces[0], t, terms.results[0], op.location)
            for k, i in enumerate(picked):
                op.operands[i] = new.results[0] if k == 0 else zeros
            _drop_flags(op)  # its sums are grouped otherwise
            for r in reduces:
                r.erase()
            what = f"{len(picked)} {new.name[5:]}s added by {op.name} reassociated"
            self._explain(new.location, what, before, _op_cost(new, meshes))
            changed = True
        return changed

    @staticmethod
    def _chain(op: ir.Operation) -> tuple[ir.Operation, int, int, ir.Operation, ir.Operation] | None:
        """(inner op, its reduction operand's index, op's reduction
        operand's index, the two reductions) when `op` is f(f(x, r1), r2)
        (in any operand order) for all_reduces, or reduce_scatters along
        one axis, of f's kind over the same mesh axes, each read only
        there; the inner op's other operand, its result and the reductions'
        results are of op's type, and the terms of one type."""
        kind = _chain_kind(op)
        linalg = op.name.startswith("linalg.")
        if kind is None or len(op.results) != 1 or len(op.operands) != 2 + (1 if linalg else 0):
            return None
        t = op.results[0].type
        for k in (0, 1):
            inner = _producer(op.operands[1 - k], op.name)
            if inner is None or inner.block != op.block or len(inner.operands) != len(op.operands):
                continue
            if _chain_kind(inner) != kind or not _uses_only_as(op.operands[1 - k], op, (1 - k,)):
                continue
            for name in ("mesh.all_reduce", "mesh.reduce_scatter"):
                if linalg and name == "mesh.reduce_scatter":
                    continue  # its init is of the scattered type
                r2 = _producer(op.operands[k], name)
                if r2 is None or r2.block != op.block or not _uses_only_as(op.operands[k], op, (k,)):
                    continue
                for j in (0, 1):
                    r1 = _producer(inner.operands[j], name)
                    if r1 is None or r1.block != op.block or r1 == r2:
                        continue
                    if not _uses_only_as(inner.operands[j], inner, (j,)):
                        continue
                    if _collective(r1).reduction != kind or _collective(r2).reduction != kind:
                        continue
                    if not _same_group(r1, r2):
                        continue
                    if any(v.type != t for v in (inner.operands[1 - j], inner.results[0], r1.results[0])):
                        continue  # no broadcast: the inner op reads the terms as it read the totals
                    if r2.results[0].type != t or r1.operands[0].type != r2.operands[0].type:
                        continue
                    if _element(r1.operands[0].type) != _element(t):
                        continue  # a reduction that converts: the inner op would run in the terms' type
                    if not _terms_combine(kind, (r1, r2)):
                        continue
                    return inner, j, k, r1, r2
        return None

    # -- 1. all_reduce then all_slice --------------------------------------------

    def _reduce_scatter(self, module: ir.Operation, meshes: Meshes) -> bool:
        changed = False
        for op in _ops(module, ("mesh.all_slice",)):
            source = op.operands[0]
            reduce_op = _producer(source, "mesh.all_reduce")
            if reduce_op is None or reduce_op.block != op.block or not _only_user(source, op):
                continue
            sliced, reduced = _collective(op), _collective(reduce_op)
            if sliced.mesh != reduced.mesh or reduce_op.operands[0].type != source.type:
                continue
            axes, cut = list(reduced.mesh_axes), list(sliced.mesh_axes)
            rest = [a for a in axes if a not in cut]
            if axes == cut:
                rest = []
            elif not cut or not set(cut) < set(axes) or reduced.reduction not in _REGROUPABLE:
                continue
            elif not _terms_combine(reduced.reduction, [reduce_op]):
                continue  # (partial sums of a float narrower than 32 bits may overflow where the totals do not)
            before = _op_cost(reduce_op, meshes)
            after = None
            if rest:
                # the slice takes a piece along some of the reduced axes: reduce
                # scatter over those, and all_reduce the piece over the others
                after = _total(
                    _bytes_of(ReduceScatter(tuple(cut), reduced.reduction, sliced.slice_axis), source, meshes, op),
                    _bytes_of(AllReduce(tuple(rest), reduced.reduction), op.results[0], meshes, op),
                )
                if before is None or after is None or after >= before:
                    continue
            with ir.InsertionPoint(op):
                new = mesh_ops.ReduceScatterOp(
                    op.results[0].type,
                    reduce_op.operands[0],
                    reduced.mesh,
                    sliced.slice_axis,
                    mesh_axes=cut,
                    reduction=reduced.reduction,
                    loc=reduce_op.location,
                ).operation
                if rest:
                    new = mesh_ops.AllReduceOp(
                        op.results[0].type,
                        new.results[0],
                        reduced.mesh,
                        mesh_axes=rest,
                        reduction=reduced.reduction,
                        loc=reduce_op.location,
                    ).operation
            op.results[0].replace_all_uses_with(new.results[0])
            op.erase()
            reduce_op.erase()
            what = "reduce_scatter and all_reduce" if rest else "reduce_scatter"
            self._explain(
                new.location,
                f"all_reduce then all_slice became {what}",
                before,
                after if rest else _op_cost(new, meshes),
            )
            changed = True
        return changed

    # -- 4. all_gather below elementwise ops ------------------------------------------

    def _move_gather_down(self, module: ir.Operation, meshes: Meshes) -> bool:
        changed = False
        for op in _ops(module, None):
            if not _elementwise(op):
                continue
            gathers = [_producer(v, "mesh.all_gather") for v in op.operands]
            if any(g is None or g.block != op.block for g in gathers):
                continue
            views = [_collective(g) for g in gathers]
            first = views[0]
            local = gathers[0].operands[0].type
            if any(
                v.mesh != first.mesh
                or tuple(v.mesh_axes) != tuple(first.mesh_axes)
                or v.gather_axis != first.gather_axis
                or _static_shape(g.operands[0].type) != _static_shape(local)
                for v, g in zip(views, gathers)
            ):
                continue
            if not all(_uses_only_as(v, op, range(len(op.operands))) for v in op.operands):
                continue
            shape = _static_shape(local)
            mesh = _static_mesh(gathers[0], meshes)
            if shape is None or mesh is None:
                continue
            distinct = _distinct(gathers)
            result = op.results[0]
            elems = math.prod(shape)
            step = AllGather(tuple(first.mesh_axes), first.gather_axis)
            before = sum(_bytes(step, elems, g.operands[0].type, mesh) for g in distinct)
            after = _bytes(step, elems, result.type, mesh)
            if after > before:
                continue
            local_op = op.clone(ip=ir.InsertionPoint(op))
            for i, g in enumerate(gathers):
                local_op.operands[i] = g.operands[0]
            local_op.results[0].set_type(_with_shape(result.type, shape, op.location))
            with ir.InsertionPoint(op):
                new = mesh_ops.AllGatherOp(
                    result.type,
                    local_op.results[0],
                    first.mesh,
                    first.gather_axis,
                    mesh_axes=list(first.mesh_axes),
                    loc=gathers[0].location,
                ).operation
            result.replace_all_uses_with(new.results[0])
            op.erase()
            for g in distinct:
                g.erase()
            self._explain(new.location, f"all_gather moved below {local_op.name}", before, after)
            changed = True
        return changed

    # -- 6. all_reduce around elementwise work -----------------------------------------

    def _decompose_all_reduce(self, module: ir.Operation, meshes: Meshes) -> bool:
        changed = False
        for op in _ops(module, ("mesh.all_reduce",)):
            reduced = _collective(op)
            source, result = op.operands[0], op.results[0]
            shape = _static_shape(result.type)
            mesh = _static_mesh(op, meshes)
            if shape is None or mesh is None or source.type != result.type or reduced.reduction == "generic":
                continue
            g = math.prod(mesh.shape[a] for a in reduced.mesh_axes)
            dim = next((d for d, n in enumerate(shape) if n % g == 0 and n > 0), None)
            if g == 1 or dim is None:
                continue
            chain = _unary_chain(result, op.block)
            if not chain:
                continue
            elems = math.prod(shape)
            axes = tuple(reduced.mesh_axes)
            before = _bytes(AllReduce(axes, reduced.reduction), elems, result.type, mesh)
            scatter = _bytes(ReduceScatter(axes, reduced.reduction, dim), elems, result.type, mesh)
            # The prefix of the chain whose result is cheapest to gather
            # (the longest among equals: more work on 1/g of the data).
            best = None
            for k, f in enumerate(chain):
                cost = scatter + _bytes(AllGather(axes, dim), elems // g, f.results[0].type, mesh)
                if best is None or cost <= best[0]:
                    best = (cost, k + 1)
            assert best is not None
            after, length = best
            if after > before:
                continue
            chain = chain[:length]
            local_shape = list(shape)
            local_shape[dim] //= g
            with ir.InsertionPoint(op):
                value = mesh_ops.ReduceScatterOp(
                    _with_shape(result.type, local_shape, op.location),
                    source,
                    reduced.mesh,
                    dim,
                    mesh_axes=list(axes),
                    reduction=reduced.reduction,
                    loc=op.location,
                ).result
            for f in chain:
                local_f = f.clone(ip=ir.InsertionPoint(f))
                local_f.operands[0] = value
                local_f.results[0].set_type(_with_shape(f.results[0].type, local_shape, f.location))
                value = local_f.results[0]
            last = chain[-1]
            with ir.InsertionPoint(last):
                new = mesh_ops.AllGatherOp(
                    last.results[0].type, value, reduced.mesh, dim, mesh_axes=list(axes), loc=op.location
                ).operation
            last.results[0].replace_all_uses_with(new.results[0])
            names = ", ".join(f.name for f in chain)
            for f in reversed(chain):
                f.erase()
            location = op.location
            op.erase()
            self._explain(
                location, f"all_reduce split into reduce_scatter and all_gather around {names}", before, after
            )
            changed = True
        return changed

    # -- 8. a rotation between the collectives that gather and split it ----------------

    def _roll_by_shift(self, module: ir.Operation, meshes: Meshes) -> bool:
        """An `all_to_all` (or `all_gather`) that gathers a dimension split
        over one mesh axis, a rotation of that dimension (its cells [a, n)
        then [0, a), each a slice of the gathered value), and the
        `all_to_all` (or `all_slice`) that splits it again: each device's
        piece of the rotated tensor is the end of a piece some devices
        before it and the start of one after that, so `mesh.shift ...
        rotate` moves whole pieces by the rotation's multiple of the piece
        size and then the cells that wrap around.  Over several mesh axes
        (a dimension split over an axis tuple) each such move is one
        exchange of every device with the one as many places along in the
        group's row-major order, the order the axes cut the dimension in.
        Partition gathers such a dimension one axis at a time, minor axis
        first, and splits it again major first: the pairs of collectives
        around the innermost pair (`_wrapping`) join the rotation, their
        axes minor to its own."""
        changed = False
        for visited in _ops(module, _GATHERING):
            chain = _pairs_around(visited, meshes, _rotation_between, lambda found: found[2])
            if chain is None:
                continue
            # (a pair further out saves more than the cells it adds to the piece: at most
            # two pieces' worth, less than the two collectives it takes)
            changed |= self._rotate_chain(chain, meshes)
        return changed

    def _rotate_chain(self, chain: _Chain, meshes: Meshes) -> bool:
        """`_roll_by_shift`'s rewrite of the rotation `chain.found` between
        its pairs of collectives, when it pays."""
        _, concat, (first, second), mesh, amount, d = chain.found
        axes, x, backs = chain.axes, chain.piece, chain.backs
        sizes = [mesh.shape[a] for a in axes]
        shape = list(_static_shape(x.type) or ())
        piece, n = shape[d], shape[d] * math.prod(sizes)
        # Cells move `amount` places up, or equally n - amount down: the
        # direction whose cells moving are fewer.
        ways = []
        for step in (amount, amount - n):
            whole, part = divmod(abs(step), piece)
            cells = (piece if whole else 0) + part
            ways.append((cells, whole, step < 0, part))
        cells, whole, down, part = min(ways)  # (on a tie: fewer whole pieces, then up)
        sign = -1 if down else 1
        before = chain.before(meshes)
        after = math.prod(shape) // piece * cells * element_bytes(x.type)
        if before is None or after >= before:
            return False
        back = backs[-1]
        loc, on = back.location, _collective(back).mesh
        with ir.InsertionPoint(back):
            value = x
            if whole:
                value = _rotated(value, on, axes, sizes, sign * whole, loc)
            if part:
                # up: the last `part` cells of the piece before join the
                # start; down: the first of the piece after join the end
                cut = piece - part if sign > 0 else part
                low = _sliced(first, value, d, 0, cut, shape)
                high = _sliced(second, value, d, cut, piece, shape)
                if sign > 0:
                    high = _rotated(high, on, axes, sizes, 1, loc)
                else:
                    low = _rotated(low, on, axes, sizes, -1, loc)
                joined = concat.clone(ip=ir.InsertionPoint(back))
                joined.operands[0], joined.operands[1] = high, low
                joined.results[0].set_type(x.type)
                value = joined.results[0]
        moved = f"a rotation by {sign * (whole * piece + part):+d}"
        between = (*backs[-2::-1], concat, first, second)
        how = "mesh.shift" if len(axes) == 1 else "exchanges along the group's order"
        self._replace_around(back, chain.gone, between, value, _became(backs, moved, how), before, after)
        return True

    def _pad_by_shift(self, module: ir.Operation, meshes: Meshes) -> bool:
        """An `all_to_all` (or `all_gather`) that gathers a dimension split
        over one mesh axis, a `tensor.pad` of that dimension, and the
        `all_to_all` (or `all_slice`) that splits it again: each device's
        piece of the padded tensor is a window over its own piece and its
        neighbours' (`_PadPlan`), so non-rotating shifts of whole pieces
        bring those neighbours in, the pieces no device holds become the
        padding value, and each device cuts its window at an offset of its
        own."""
        changed = False
        for back in _ops(module, _GATHERING):
            found = _pad_between(back, meshes)
            if found is None:
                continue
            forward, pad, fill, plan = found
            view = _collective(back)
            axis = view.mesh_axes[0]
            x = forward.operands[0]
            alone = _only_user(forward.results[0], pad)
            before = _total(_op_cost(forward, meshes) if alone else 0, _op_cost(back, meshes))
            piece_bytes = math.prod(_static_shape(x.type) or ()) * element_bytes(x.type)
            after = sum(1 for k in plan.neighbours if k) * piece_bytes
            if before is None or after >= before:
                continue
            with ir.InsertionPoint(back), back.location:
                value = _windowed(x, fill, plan, view.mesh, axis, back.results[0].type)
            what = _became(back, "a pad", "mesh.shift")
            self._replace_around(back, [forward] if alone else [], (pad,), value, what, before, after)
            changed = True
        return changed

    def _flip_by_exchange(self, module: ir.Operation, meshes: Meshes) -> bool:
        """An `all_to_all` (or `all_gather`) that gathers a dimension split
        over one mesh axis, a reversal of that dimension (a copying
        `linalg.generic` reading it backwards, or an hlo `reverse`), and the
        `all_to_all` (or `all_slice`) that splits it again: device i's piece
        of the reversed tensor is the piece of device n - 1 - i, reversed.
        Each device reverses its own piece and trades it with its mirror
        device (a rotating `mesh.shift` when the axis has two devices,
        point-to-point sends and receives otherwise; the middle device of
        an odd axis keeps its own).  A dimension split over an axis tuple
        is gathered one axis at a time, and the innermost pair alone would
        leave the others' collectives: all_gathers and all_slices of one or
        several dimensions are taken whole first (`_flip_dims_by_exchange`),
        but for those within further pairs (all_to_alls), which the pairs
        around the reversal (`_pairs_around`) take with them."""
        changed = self._flip_dims_by_exchange(module, meshes)
        for visited in _ops(module, _GATHERING):
            chain = _reversal_pairs(visited, meshes)
            if chain is None:
                continue
            # (a pair further out leaves a piece no larger, and saves its two collectives)
            changed |= self._flip_chain(chain, meshes)
        return changed

    def _flip_chain(self, chain: _Chain, meshes: Meshes) -> bool:
        """`_flip_by_exchange`'s rewrite of the reversal `chain.found`
        between its pairs of collectives, when it pays."""
        _, reverse, mesh, d = chain.found
        axes, x, backs = chain.axes, chain.piece, chain.backs
        sizes = [mesh.shape[a] for a in axes]
        n = math.prod(sizes)
        before = chain.before(meshes)
        after = math.prod(_static_shape(x.type) or ()) * element_bytes(x.type)
        # (two devices: a rotation, even at equal bytes, instead of the gathered copy and its collectives)
        if before is None or after > before or (after == before and n != 2):
            return False
        back = backs[-1]
        on = _collective(back).mesh
        with ir.InsertionPoint(back), back.location:
            local = _reversed_piece(reverse, x, d)
            if n == 2 and len(axes) == 1:
                value = mesh_ops.ShiftOp(x.type, local, on, axes[0], 1, mesh_axes=axes, rotate=True).result
            else:  # (over several axes: the mirror in the group's row-major order, as they cut the dimension)
                value = permuted(local, on, sizes, axes, [n - 1 - i for i in range(n)])
        init = _producer(reverse.operands[1], "tensor.empty") if len(reverse.operands) > 1 else None
        how = "mesh.shift" if n == 2 and len(axes) == 1 else "an exchange with the mirror device"
        what = _became(backs, "a reversal", how)
        self._replace_around(back, chain.gone, (*backs[-2::-1], reverse), value, what, before, after)
        if init is not None and next(iter(init.results[0].uses), None) is None:
            init.erase()  # the reversal's own init, read by nothing else
        return True

    def _flip_dims_by_exchange(self, module: ir.Operation, meshes: Meshes) -> bool:
        """All_gathers that gather dimensions, each split over its own mesh
        axes (one or several gathers each), an hlo `reverse` of those
        dimensions and maybe others (`jnp.flip` of an image split along rows
        and columns, or along rows alone: the columns reverse in place), and
        the all_slices that split them again: device i's piece is its mirror's
        along every group, reversed, and mirroring each group's index
        mirrors the row-major index over all their axes, so each device
        reverses its own piece and trades it with the device at n - 1 - i
        in that order."""
        changed = False
        for reverse in _ops(module, _REVERSES):
            found = _reversal_of_gathered_dims(reverse, meshes)
            if found is None:
                continue
            gathers, slices, mesh_name, axes, sizes = found
            if _taken_with_pairs_around(reverse, gathers, slices, meshes):
                continue
            x = gathers[-1].operands[0]
            before = _total(*(_op_cost(g, meshes) for g in gathers))
            after = math.prod(_static_shape(x.type) or ()) * element_bytes(x.type)
            if before is None or after >= before:
                continue
            back = slices[-1]
            n = math.prod(sizes)
            with ir.InsertionPoint(back), back.location:
                local = reverse.clone(ip=ir.InsertionPoint.current)
                local.operands[0] = x
                local.results[0].set_type(x.type)
                value = permuted(local.results[0], mesh_name, sizes, axes, [n - 1 - i for i in range(n)])
            gathered = sorted({_collective(g).gather_axis for g in gathers})
            dims = ", ".join(map(str, gathered))
            around = "all_gathers and all_slices" if len(gathers) > 1 else "an all_gather and an all_slice"
            what = (
                f"a reversal of dimension{'s' if len(gathered) > 1 else ''} {dims} between {around} became an "
                "exchange with the mirror device"
            )
            self._replace_around(back, gathers, (*slices[-2::-1], reverse), value, what, before, after)
            changed = True
        return changed

    def _stencil_by_halo(self, module: ir.Operation, meshes: Meshes) -> bool:
        """All_to_alls (or all_gathers) that gather a dimension split over
        one mesh axis, slices, pads and elementwise ops of it that give
        back a tensor of the gathered ones' shape (`x[1:] - x[:-1]` padded
        back to size, a token shift `pad(x[:-1], low 1)`), and the
        `all_to_all` (or `all_slice`) that splits it again, or an hlo
        `reduce` of it whose partial results an `all_reduce` combines over
        that axis (`jnp.sum(jnp.abs(x[1:] - x[:-1]))`): row i of every value
        in between is read from a few rows of the gathered tensors a fixed
        distance from i (`_Stencil`), so each device computes its own rows
        from its pieces and a halo of its neighbours' rows (one
        `mesh.update_halo` per gathered tensor), pads put their padding
        value on the rows that lie outside their operand, and no rows move
        otherwise."""
        changed = False
        for end in _ops(module, (*_GATHERING, "stablehlo.reduce", "mhlo.reduce")):
            if end.name in _GATHERING:
                found, kind = _stencil_between(end, meshes), None
            else:
                reduced = _stencil_reduced(end, meshes)
                found, kind = (None, None) if reduced is None else reduced
            if found is None:
                continue
            view = _collective(found.forwards[0])
            alone = [_used_only_by(f.results[0], found.ops) for f in found.forwards]
            costs = [_op_cost(f, meshes) if a else 0 for f, a in zip(found.forwards, alone)]
            before = _total(*costs, _op_cost(end, meshes) if kind is None else 0)
            after = found.received()
            if before is None or after >= before:
                continue
            with ir.InsertionPoint(end), end.location:
                builder = _StencilBuilder(found, view.mesh, view.mesh_axes[0])
                value = builder.piece()
                if kind is not None:
                    # rows past the reduced tensor's end read as the init
                    extent = (_static_shape(end.operands[0].type) or ())[found.dim]
                    value = builder.masked(value, 0, extent, 0, end.operands[1])
                    local = end.clone(ip=ir.InsertionPoint.current)
                    local.operands[0] = value
                    value = local.results[0]
            how = "mesh.update_halo" if after else "local rows"
            if kind is not None:
                what = f"slices and pads before an hlo reduce ({kind}) became {how}"
            else:
                what = _became(end, "slices and pads", how)
            gone = [f for f, a in zip(found.forwards, alone) if a]
            self._replace_around(end, gone, found.ops[::-1], value, what, before, after)
            builder.sweep()
            erased: set[int] = set()  # (a leaf may be read by another leaf only, and go with it)
            for leaf in _distinct(list(found.leaves.values())):
                if op_address(leaf) not in erased and next(iter(leaf.results[0].uses), None) is None:
                    source = leaf.operands[0] if len(leaf.operands) else None
                    erased.add(op_address(leaf))
                    leaf.erase()  # read only by the ops rewritten
                    _erase_unread_chain(source, erased)
            changed = True
        return changed

    def _replace_around(
        self,
        back: ir.Operation,
        forwards: Sequence[ir.Operation],
        between: Sequence[ir.Operation],
        value: ir.Value,
        what: str,
        before: int | None,
        after: int | None,
    ) -> None:
        """`back`'s users read `value` instead, and the ops it replaces go:
        the local ops `between` the collectives (readers first), and the
        first collectives `forwards` (those the ops between were the only
        readers of); then the remark `what`."""
        loc = back.location
        back.results[0].replace_all_uses_with(value)
        for op in (back, *between, *forwards):
            op.erase()
        self._explain(loc, what, before, after)

    # -- reporting ------------------------------------------------------------

    def _explain(self, location: ir.Location, what: str, before: int | None, after: int | None) -> None:
        if self.explain:
            self.remark(location, f"{what}: {_show(before)} -> {_show(after)} bytes received per device")


# -- helpers ---------------------------------------------------------------------

_SLICES = ("tensor.extract_slice", "stablehlo.slice", "mhlo.slice")
_CONCATS = {"tensor.concat": "dim", "stablehlo.concatenate": "dimension", "mhlo.concatenate": "dimension"}


_GATHERING = {"mesh.all_to_all": "mesh.all_to_all", "mesh.all_slice": "mesh.all_gather"}
"""The collective that splits a dimension again (`_rotation_between`'s
`back`), and the one that gathered it before the rotation."""


def _became(backs: ir.Operation | list[ir.Operation], moved: str, how: str) -> str:
    """A rewrite's remark: what `moved` between the collectives `backs` end
    (one pair, or pairs around each other) became (`how`)."""
    if isinstance(backs, list) and len(backs) > 1:
        return f"{moved} between {len(backs)} pairs of collectives gathering and splitting its dimension became {how}"
    back = backs[0] if isinstance(backs, list) else backs
    pair = "two all_to_alls" if back.name == "mesh.all_to_all" else "an all_gather and an all_slice"
    return f"{moved} between {pair} became {how}"


def _splits_again(back: ir.Operation, meshes: Meshes, *, axes: int = 1) -> tuple[Mesh, int] | None:
    """(the mesh, the dimension) when `back`, an all_to_all or an all_slice,
    splits a dimension over one mesh axis (up to `axes` of them) of a static
    mesh; else None."""
    view = _collective(back)
    mesh = _static_mesh(back, meshes)
    if mesh is None or not 1 <= len(view.mesh_axes) <= axes:
        return None
    return mesh, view.split_axis if back.name == "mesh.all_to_all" else view.slice_axis


def _gathering(back: ir.Operation, gathered: ir.Value, d: int, between: Sequence[ir.Operation]) -> ir.Operation | None:
    """The collective that made `gathered` when it gathered the dimension `d`
    that `back` splits again, over the same axes (an all_to_all back
    exchanging the same two dimensions, or an all_gather for an
    all_slice), in `back`'s block as are the ops `between` (the pass
    combines ops of one block only); else None."""
    forward = gathered.owner
    if isinstance(forward, ir.Block) or forward.name != _GATHERING[back.name]:
        return None
    forward = forward.operation
    if any(op.block != back.block for op in (forward, *between)):
        return None
    first, view = _collective(forward), _collective(back)
    if first.mesh != view.mesh or list(first.mesh_axes) != list(view.mesh_axes):
        return None
    if back.name == "mesh.all_to_all" and (first.concat_axis != d or first.split_axis != view.concat_axis):
        return None
    if back.name == "mesh.all_to_all" and first.split_axis == first.concat_axis:
        return None  # it deals out chunks of each piece: no device's rows lie side by side
    if back.name == "mesh.all_slice" and first.gather_axis != d:
        return None
    return forward


def _rotated(value: ir.Value, mesh: str, axes: list[int], sizes: list[int], k: int, loc: ir.Location) -> ir.Value:
    """Device i's `value` on device i + k (modulo the group's size) of its
    group over `axes`: a rotating `mesh.shift` along one axis, an exchange
    in the group's row-major order over several."""
    if len(axes) == 1:
        return mesh_ops.ShiftOp(value.type, value, mesh, axes[0], k, mesh_axes=axes, rotate=True, loc=loc).result
    devices = math.prod(sizes)
    with loc:
        return permuted(value, mesh, sizes, axes, [(i + k) % devices for i in range(devices)])


def _wrapping(
    forward: ir.Operation, back: ir.Operation, d: int, axes: list[int], meshes: Meshes
) -> tuple[ir.Operation, ir.Operation] | None:
    """The collectives right around `forward` and `back`, which gathered
    dimension `d` and split it again: the one that made `forward`'s operand
    gathering `d` over further mesh axes (none of `axes`), read by
    `forward` alone, and the one that splits `d` again over them as
    `back`'s only reader; else None.  Gathering concatenates pieces in the
    group's order, so their axes are minor to `axes`."""
    users = list(back.results[0].uses)
    if len(users) != 1:
        return None
    outer_back = users[0].owner.operation
    if outer_back.name not in _GATHERING or not _only_user(forward.operands[0], forward):
        return None
    view = _collective(outer_back)
    if view.mesh != _collective(back).mesh or set(view.mesh_axes) & set(axes):
        return None  # (the order of the pieces is over one group of one mesh)
    split = _splits_again(outer_back, meshes, axes=len(view.mesh_axes))
    if split is None or split[1] != d:
        return None
    outer_forward = _gathering(outer_back, forward.operands[0], d, (forward, back))
    if outer_forward is None or outer_forward.operands[0].type != outer_back.results[0].type:
        return None
    return outer_forward, outer_back


@dataclasses.dataclass(frozen=True)
class _Chain:
    """Pairs of collectives around a local op (`_pairs_around`): what the
    matcher `found` of the op and its innermost pair, the collectives that
    gathered the dimension (`forwards`) and those that split it again
    (`backs`), innermost first, and whether the op is all that reads the
    innermost gathered value (`alone`: the gathering collectives go)."""

    found: tuple
    forwards: list[ir.Operation]
    backs: list[ir.Operation]
    alone: bool

    @property
    def gone(self) -> list[ir.Operation]:
        return self.forwards if self.alone else []

    @property
    def axes(self) -> list[int]:
        """The mesh axes of the group, in the order that cuts the dimension."""
        return [a for b in self.backs for a in _collective(b).mesh_axes]

    @property
    def piece(self) -> ir.Value:
        """Each device's piece, before any collective gathered it."""
        return self.forwards[-1].operands[0]

    def before(self, meshes: Meshes) -> int | None:
        """The bytes a device receives in the collectives a rewrite replaces."""
        return _total(*(_op_cost(op, meshes) for op in (*self.gone, *self.backs)))


def _pairs_around(
    visited: ir.Operation,
    meshes: Meshes,
    match: Callable[[ir.Operation, Meshes], tuple | None],
    readers: Callable[[tuple], Sequence[ir.Operation]],
    refused: Callable[[tuple, ir.Operation], bool] = lambda found, forward: False,
) -> _Chain | None:
    """The pairs of collectives around a local op (`_Chain`) when `visited`
    is the outermost of them, `match` recognizing the op from the collective
    right after it (its first element the collective right before) and
    `readers(found)` naming the op's ops; else None.  Pairs further
    out join while `_wrapping` finds them and `refused` (given a wrapping
    gathering collective) does not say no; a chain is taken whole when its
    outermost collective is visited, so that a rewrite erases no op after
    the one visited."""
    inner = visited
    while (found := match(inner, meshes)) is None:
        further_in = inner.operands[0].owner  # (the splitting collective of the pair inside)
        if (
            isinstance(further_in, ir.Block)
            or further_in.name not in _GATHERING
            or not _only_user(inner.operands[0], inner)
        ):
            return None
        inner = further_in.operation
    forward = found[0]
    d = _splits_again(inner, meshes, axes=len(_collective(inner).mesh_axes))[1]
    axes = list(_collective(inner).mesh_axes)
    # (the first collective stays where the local ops are not its only readers)
    alone = _used_only_by(forward.results[0], readers(found))
    forwards, backs = [forward], [inner]
    while alone and (outer := _wrapping(forwards[-1], backs[-1], d, axes, meshes)) is not None:
        if refused(found, outer[0]):
            break
        forwards.append(outer[0])
        backs.append(outer[1])
        axes += list(_collective(outer[1]).mesh_axes)
    if backs[-1] != visited:
        return None
    return _Chain(found, forwards, backs, alone)


def _rotation_between(
    back: ir.Operation, meshes: Meshes
) -> tuple[ir.Operation, ir.Operation, tuple[ir.Operation, ir.Operation], Mesh, int, int] | None:
    """(the first collective, the concatenation, its two slices, the mesh,
    how far the rotation moves cells, the dimension) when `back` (an
    all_to_all or an all_slice) splits again, over mesh axes, the
    dimension a rotation rotated right after an all_to_all or an all_gather
    gathered it; else None."""
    axes = _collective(back).mesh_axes
    split = _splits_again(back, meshes, axes=len(axes))
    if split is None:
        return None
    mesh, d = split
    rotated = back.operands[0]
    concat = rotated.owner
    if isinstance(concat, ir.Block) or concat.name not in _CONCATS or len(concat.operands) != 2:
        return None
    concat = concat.operation
    attr = concat.attributes[_CONCATS[concat.name]] if _CONCATS[concat.name] in concat.attributes else None
    if not isinstance(attr, ir.IntegerAttr) or attr.value != d or not _only_user(rotated, back):
        return None
    slices = []
    for v in concat.operands:
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.name not in _SLICES or not _only_user(v, concat):
            return None
        slices.append(owner.operation)
    gathered = slices[0].operands[0]
    forward = _gathering(back, gathered, d, (concat, *slices))
    if gathered != slices[1].operands[0] or forward is None:
        return None
    if forward.operands[0].type != back.results[0].type:
        return None
    shape, local = _static_shape(gathered.type), _static_shape(back.results[0].type)
    if shape is None or local is None or local[d] * math.prod(mesh.shape[a] for a in axes) != shape[d]:
        return None
    ranges = [_slice_range(op, shape, d) for op in slices]
    if ranges[0] is None or ranges[1] is None:
        return None
    n, a = shape[d], ranges[1][1]
    if ranges[1][0] != 0 or ranges[0] != (a, n) or not 0 < a < n:
        return None
    return forward, concat, (slices[0], slices[1]), mesh, n - a, d


@dataclasses.dataclass(frozen=True)
class _PadPlan:
    """How each device makes its piece of a padded dimension from whole
    pieces of the unpadded one.  Device i's window is the pieces of the
    devices `neighbours` places along from it, in order, between `before`
    and `after` cells of padding; its piece starts at cell
    `step * i + start` of the window."""

    dim: int
    devices: int
    neighbours: tuple[int, ...]
    before: int
    after: int
    step: int
    start: int


def pad_plan(dim: int, devices: int, piece: int, low: int, high: int) -> _PadPlan | None:
    """The window plan (`_PadPlan`) for padding dimension `dim`, split over
    `devices` in pieces of `piece` cells, by `low` and `high` cells, split
    again evenly; None when the padded size does not split evenly or no
    device reads any cell of the input."""
    total = devices * piece
    out, rest = divmod(low + total + high, devices)
    if rest or out <= 0:
        return None
    reach: list[int] = []
    for i in range(devices):
        first, stop = max(out * i - low, 0), min(out * i + out - low, total)
        if first < stop:
            reach += [first // piece - i, (stop - 1) // piece - i]
    if not reach:
        return None
    lo, hi = min(reach), max(reach)
    # cell j of device i's piece is cell out*i + j - low of the input, which
    # is cell (out - piece)*i - low - piece*lo + j of the window of pieces
    starts = [(out - piece) * i - low - piece * lo for i in range(devices)]
    before = max(0, -min(starts))
    after = max(0, max(starts) + out - (hi - lo + 1) * piece)
    return _PadPlan(dim, devices, tuple(range(lo, hi + 1)), before, after, out - piece, before - low - piece * lo)


def _pad_between(
    back: ir.Operation, meshes: Meshes
) -> tuple[ir.Operation, ir.Operation, ir.Value | ir.Operation, _PadPlan] | None:
    """(the first collective, the pad, its padding value (or the constant
    of its body that makes it), the plan) when `back` (an all_to_all or an
    all_slice) splits again, over one mesh axis, the dimension a
    `tensor.pad` padded, of static sizes and of that dimension only, right
    after an all_to_all or an all_gather gathered it; else None."""
    split = _splits_again(back, meshes)
    if split is None:
        return None
    mesh, d = split
    padded = back.operands[0]
    pad = padded.owner
    if isinstance(pad, ir.Block) or pad.name not in _PADS or len(pad.operands) != _PADS[pad.name]:
        return None
    pad = pad.operation
    if not _only_user(padded, back):
        return None
    forward = _gathering(back, pad.operands[0], d, (pad,))
    if forward is None:
        return None
    x, y = _static_shape(forward.operands[0].type), _static_shape(back.results[0].type)
    if x is None or y is None or len(x) != len(y) or any(a != b for k, (a, b) in enumerate(zip(x, y)) if k != d):
        return None
    if _element(forward.operands[0].type) != _element(back.results[0].type):
        return None
    found = _pad_sizes(pad, len(x), d)
    if found is None or found[0] < 0 or found[1] < 0:
        return None
    low, high, fill = found
    view = _collective(back)
    axis = view.mesh_axes[0]
    if back.name == "mesh.all_to_all" and not isinstance(fill, ir.Operation):
        # Each device pads its slice of the other dimension, and the second
        # all_to_all hands those cells around: a device's piece holds the
        # padding values of others, which the window can only equal when
        # every device pads with the same value.
        if not _same_on_every_device(fill, view.mesh, axis):
            return None
    devices = mesh.shape[axis]
    plan = pad_plan(d, devices, x[d], low, high)
    if plan is None or plan.step + x[d] != y[d]:
        return None
    return forward, pad, fill, plan


def _windowed(
    x: ir.Value, fill: ir.Value | ir.Operation, plan: _PadPlan, mesh: str, axis: int, out: ir.Type
) -> ir.Value:
    """Each device's piece (of type `out`) of `x` padded with `fill` by
    `plan`, built at the current insertion point and location."""
    d, loc = plan.dim, ir.Location.current
    shape = list(_static_shape(x.type) or ())
    if isinstance(fill, ir.Operation):  # a constant of the pad's body
        fill = fill.clone(ip=ir.InsertionPoint.current).results[0]
    elif isinstance(fill.type, ir.RankedTensorType):  # an hlo pad's 0-d tensor
        fill = tensor.ExtractOp(fill, []).result
    index = ir.IndexType.get()
    me = mesh_ops.process_multi_index(mesh, axes=[axis])[0]
    splats: dict[int, ir.Value] = {}  # one splat of the padding value per size

    def padding(cells: int) -> ir.Value:
        if cells not in splats:
            t = _with_shape(x.type, [*shape[:d], cells, *shape[d + 1 :]], loc)
            splats[cells] = tensor.SplatOp(t, fill, []).result
        return splats[cells]

    parts = [padding(plan.before)] if plan.before else []
    for k in plan.neighbours:
        if k == 0:
            parts.append(x)
            continue
        # the piece of the device k places along, received whole, and the
        # padding value where there is no such device
        moved = mesh_ops.ShiftOp(x.type, x, mesh, axis, -k, mesh_axes=[axis]).result
        if k > 0:
            held = arith.CmpIOp(arith.CmpIPredicate.ult, me, arith.ConstantOp(index, plan.devices - k).result)
        else:
            held = arith.CmpIOp(arith.CmpIPredicate.uge, me, arith.ConstantOp(index, -k).result)
        parts.append(arith.SelectOp(held.result, moved, padding(shape[d])).result)
    if plan.after:
        parts.append(padding(plan.after))
    window = parts[0]
    if len(parts) > 1:
        cells = sum(ir.RankedTensorType(v.type).shape[d] for v in parts)
        window = tensor.ConcatOp(_with_shape(x.type, [*shape[:d], cells, *shape[d + 1 :]], loc), d, parts).result
    if not plan.step:
        start = arith.ConstantOp(index, plan.start).result
    else:
        start = me if plan.step == 1 else arith.MulIOp(me, arith.ConstantOp(index, plan.step).result).result
        if plan.start:
            start = arith.AddIOp(start, arith.ConstantOp(index, plan.start).result).result
    sizes = list(_static_shape(out) or ())
    offsets = [DYNAMIC if k == d else 0 for k in range(len(sizes))]
    return tensor.ExtractSliceOp(out, window, [start], [], [], offsets, sizes, [1] * len(sizes)).result


def _pad_sizes(pad: ir.Operation, rank: int, d: int) -> tuple[int, int, ir.Value | ir.Operation] | None:
    """(low, high, padding value) of a pad (`_PADS`) of static sizes that
    pads dimension `d` only, without interior padding, with one padding
    value (a value, or the constant of a `tensor.pad`'s body that makes it);
    else None.  An hlo pad's low or high may be negative (it then crops)."""
    if pad.name == "tensor.pad":
        if len(pad.operands) != 1:
            return None  # sizes given by values
        low, high = (list(pad.attributes[k]) for k in ("static_low", "static_high"))
        fill = padding_value(pad)
    else:  # stablehlo, mhlo: the padding value is a 0-d tensor operand
        names = ("edge_padding_low", "edge_padding_high", "interior_padding")
        if any(k not in pad.attributes for k in names) or len(pad.operands) != 2:
            return None
        low, high, interior = (ints_of(pad.attributes[k]) for k in names)
        if any(interior):
            return None
        fill = pad.operands[1]
    if len(low) != rank or len(high) != rank or any(low[k] or high[k] for k in range(rank) if k != d):
        return None
    return None if fill is None else (low[d], high[d], fill)


@dataclasses.dataclass
class _Stencil:
    """Slices, pads and elementwise ops reading tensors that collectives
    (`forwards`) gathered along dimension `dim`, split over `devices`, and
    ending in a tensor split again into pieces of the gathered ones' size
    (or reduced along that dimension, `_stencil_reduced`).  Row i of the
    end is computed from rows a fixed distance from i of the values in
    between: a step (op, s) computes row i + s of the op's result; a slice
    from `start` on reads its operand `start` rows further on, a pad of
    `low` rows `low` rows back, an elementwise op its operands' rows at its
    own (a value read at two distances is computed twice).  `steps` lists
    them each after the ones it reads, with the distance of each operand
    (None: not along `dim`, an hlo pad's padding value); step i reads
    gathered tensor g as its operand k at distance s where `reads[i, k]`
    is (g, s), and the same value on every row (`leaves[i, k]`: a splat
    constant, an empty tensor, a broadcast scalar) there.  A device
    computes its rows from its own piece of each gathered tensor and
    `halos[g]` = (low, high) rows of its previous and next neighbours'; a
    pad puts its padding value on the rows outside its operand, and no
    other row a device computes reads beyond the tensor's edge."""

    forwards: list[ir.Operation]
    dim: int
    devices: int
    steps: list[tuple[ir.Operation, int, list[int | None]]]
    reads: dict[tuple[int, int], tuple[int, int]]
    leaves: dict[tuple[int, int], ir.Operation]
    ops: list[ir.Operation]  # the ops of the steps, each after the ones it reads
    halos: list[tuple[int, int]]
    # per leaf (by address) holding its piece of the dimension the
    # collectives trade, its operand's dimension gathered whole (`_leaf_gather`)
    gathers: dict[int, int] = dataclasses.field(default_factory=dict)

    def received(self) -> int:
        """The bytes a device receives in the halos and the leaves' gathers."""
        total = 0
        for forward, (low, high) in zip(self.forwards, self.halos):
            t = forward.operands[0].type
            shape = _static_shape(t) or ()
            rows = math.prod(shape) // shape[self.dim] if shape[self.dim] else 0
            total += (low + high) * rows * element_bytes(t)
        view = _collective(self.forwards[0])
        for leaf in _distinct([leaf for leaf in self.leaves.values() if op_address(leaf) in self.gathers]):
            source, at = leaf.operands[0], self.gathers[op_address(leaf)]
            if _sliced_from(source, at, view.mesh, view.mesh_axes[0], self.devices) is not None:
                continue  # rebuilt from the whole tensor partition sliced it from: nothing moves
            t = source.type
            total += (self.devices - 1) * math.prod(_static_shape(t) or ()) * element_bytes(t)
        return total


_STENCIL_STEPS = 64
"""The most steps `_stencil_between` follows between the two collectives."""
_TRAPS = re.compile(r"\.\w*(?:div|rem|ipowi)")
"""Elementwise ops that may trap on integers (a division by zero): a device
runs the ops on all its rows, rows the ops did not read before among them
(beyond a slice's end) and rows beyond the tensor's edge, which hold
anything."""
_SAFE_DIALECTS = ("arith.", "math.", "stablehlo.", "mhlo.")
"""The dialects whose elementwise ops compute on any value without failing
(but `_TRAPS`'): a tosa shift by an amount outside the width, or a tosa
cast of a NaN to an integer, fails."""
_BROADCASTS = ("stablehlo.broadcast_in_dim", "mhlo.broadcast_in_dim")


def _operand_shifts(op: ir.Operation, s: int, d: int) -> list[int | None] | None:
    """At which shift each operand of `op` is read when its result is read at
    `s` (None: not along `d`, an hlo pad's padding value); None when `op`
    is not a slice, a pad or an elementwise op of `d` (`_Stencil`)."""
    shape = _static_shape(op.operands[0].type) if len(op.operands) else None
    if op.name in _SLICES:
        taken = None if shape is None else _slice_range(op, shape, d)
        return None if taken is None else [s + taken[0]]
    if op.name in _PADS:
        sizes = None if shape is None else _pad_sizes(op, len(shape), d)
        return None if sizes is None else [s - sizes[0], *[None] * (len(op.operands) - 1)]
    if _elementwise(op):
        if not op.name.startswith(_SAFE_DIALECTS) or (
            _TRAPS.search(op.name) and not isinstance(_element(op.results[0].type), ir.FloatType)
        ):
            return None
    elif not _linalg_elementwise(op):
        return None
    return [s] * len(op.operands)


def _linalg_elementwise(op: ir.Operation) -> bool:
    """Whether `op` is a linalg op of one result whose loops are all
    parallel and read and write every tensor alike (identity maps, no
    window), and whose body reads nothing from outside it, asks no loop
    index and divides no integers: run on any rows, it gives those rows."""
    if not op.name.startswith("linalg.") or len(op.results) != 1 or len(op.regions) != 1:
        return False
    shape = _static_shape(op.results[0].type)
    if shape is None or any(_static_shape(v.type) != shape for v in op.operands):
        return False
    rule = rule_for(op)
    if rule is None or rule.windows or rule.crops or len(rule.iterators) != len(shape):
        return False
    identity = tuple(range(len(shape)))
    if not all(it.is_parallel for it in rule.iterators):
        return False
    if any(m != identity for m in (*rule.operand_maps, *rule.result_maps)):
        return False
    body = op.regions[0].blocks[0]
    defined = set(body.arguments)
    for inner in body.operations:
        name = inner.name
        if name == "linalg.index" or len(inner.regions) or not name.startswith(("arith.", "math.", "linalg.yield")):
            return False
        if _TRAPS.search(name) and any(
            not isinstance(_element(v.type) or v.type, ir.FloatType) for v in inner.operands
        ):
            return False
        if any(v not in defined for v in inner.operands):
            return False  # a value from outside the op
        defined.update(inner.results)
    return True


def _leaf(value: ir.Value, mesh: str, axis: int, traded: bool, d: int, e: int | None) -> ir.Operation | None:
    """The op making `value` when every row of it (along `d`) is the same,
    made again at any number of rows: a constant tensor of one repeated
    value, a `tensor.empty` (a linalg init), or an hlo broadcast of a
    tensor that does not vary along `d` (a 0-d one, as JAX writes `2.0 *
    x`, or a weight vector, as it writes `x * w[i]`).  When the collectives
    trade `d` for dimension `e`, each device then computes rows the others
    did, all of `e`: the broadcast tensor must hold its piece of `e`
    (gathered whole, `_leaf_gather`) or be the same on every device along
    `axis` of `mesh`."""
    owner = value.owner
    if isinstance(owner, ir.Block) or _static_shape(value.type) is None:
        return None
    name = owner.name
    if name == "tensor.empty":
        return owner.operation if len(owner.operands) == 0 else None
    if name in _BROADCASTS:
        source = owner.operands[0]
        shape = _static_shape(source.type)
        dims = _broadcast_dims(owner.operation)
        if shape is None or dims is None or len(dims) != len(shape):
            return None
        if any(r == d and shape[i] != 1 for i, r in enumerate(dims)):
            return None  # it varies along the rows
        if not traded or _leaf_gather(owner.operation, e) is not None:
            return owner.operation
        return owner.operation if _same_on_every_device(source, mesh, axis) else None
    if name not in _CONSTANTS:
        return None
    attr = readable_attr(owner, "value")
    return owner.operation if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat else None


_HLO_SLICES = ("stablehlo.slice", "mhlo.slice")
_HLO_RESHAPES = ("stablehlo.reshape", "mhlo.reshape")


def _sliced_from(
    value: ir.Value, d: int, mesh: str, axis: int, devices: int
) -> tuple[ir.Value, list[tuple[ir.Operation, int]]] | None:
    """(the whole tensor, the ops) when `value`, a device's piece along
    dimension `d`, is an `all_slice` over `axis` of `mesh` of a tensor the
    same on every device along it (a whole argument), split evenly, through
    hlo slices that keep that dimension whole, broadcasts that carry it and
    reshapes that only add or drop unit dimensions: each op listed with the
    dimension of its result that carries the piece, from the slice on.
    The ops made again from the whole tensor give what gathering `value`
    over the axis gives (partition slices a whole weight per device this
    way); None otherwise."""
    steps: list[tuple[ir.Operation, int]] = []
    for _ in range(8):
        owner = value.owner
        if isinstance(owner, ir.Block):
            return None
        op = owner.operation
        shape = _static_shape(value.type)
        if shape is None or len(op.operands) != 1:
            return None
        source = op.operands[0]
        below = _static_shape(source.type)
        if below is None:
            return None
        if op.name == "mesh.all_slice":
            view = _collective(op)
            if view.mesh != mesh or list(view.mesh_axes) != [axis] or view.slice_axis != d:
                return None
            if below[d] != shape[d] * devices:
                return None  # not cut in equal pieces
            if not _same_on_every_device(source, mesh, axis):
                return None  # each device's piece of its own tensor: only a gather brings the others'
            return source, steps[::-1]
        if op.name in _HLO_SLICES:
            starts, limits = (ints_of(op.attributes[k]) for k in ("start_indices", "limit_indices"))
            strides = ints_of(op.attributes["strides"]) if "strides" in op.attributes else [1] * len(shape)
            if starts[d] != 0 or limits[d] != below[d] or strides[d] != 1:
                return None  # it cuts the piece's dimension
            steps.append((op, d))
        elif op.name in _BROADCASTS:
            dims = _broadcast_dims(op)
            k = None if dims is None or d not in dims else dims.index(d)
            if k is None or below[k] != shape[d]:
                return None  # the piece's dimension is made by the broadcast, not carried
            steps.append((op, d))
            d = k
        elif op.name in _HLO_RESHAPES:
            kept = [k for k, n in enumerate(shape) if n != 1]
            kept_below = [k for k, n in enumerate(below) if n != 1]
            if shape[d] == 1 or [shape[k] for k in kept] != [below[k] for k in kept_below]:
                return None  # it regroups elements, or the piece's dimension is one wide
            steps.append((op, d))
            d = kept_below[kept.index(d)]
        else:
            return None
        value = source
    return None


def _erase_unread_chain(value: ir.Value | None, erased: set[int]) -> None:
    """Erase the op making `value`, and so on up, while nothing reads it and
    it only slices, reshapes or broadcasts (what a rewritten leaf read);
    each erased op's address goes in `erased`."""
    erasable = ("mesh.all_slice", *_HLO_SLICES, *_HLO_RESHAPES, *_BROADCASTS)
    while value is not None and next(iter(value.uses), None) is None:
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.name not in erasable or len(owner.results) != 1:
            return
        op = owner.operation
        value = op.operands[0] if len(op.operands) else None
        erased.add(op_address(op))
        op.erase()


def _broadcast_dims(op: ir.Operation) -> list[int] | None:
    """An hlo `broadcast_in_dim`'s result dimension per operand dimension."""
    return ints_of(op.attributes["broadcast_dimensions"]) if "broadcast_dimensions" in op.attributes else None


def _leaf_gather(leaf: ir.Operation, e: int | None) -> int | None:
    """The dimension of an hlo broadcast's operand that holds its piece of
    the result's dimension `e` (the one two all_to_alls trade for the
    rows): gathered over the axis, each device's piece of `e` in device
    order, it gives the whole dimension; None when no operand dimension
    maps to `e` at its size (the operand is then the same along it)."""
    if e is None or leaf.name not in _BROADCASTS:
        return None
    shape, out = _static_shape(leaf.operands[0].type), _static_shape(leaf.results[0].type)
    dims = _broadcast_dims(leaf)
    if shape is None or out is None or dims is None:
        return None
    return next((i for i, r in enumerate(dims) if r == e and shape[i] == out[e]), None)


def _stencil_between(back: ir.Operation, meshes: Meshes) -> _Stencil | None:
    """The `_Stencil` between `back` (an all_to_all or an all_slice) and the
    collectives that gathered the dimension it splits again; else None."""
    split = _splits_again(back, meshes)
    if split is None:
        return None
    mesh, d = split
    y = back.operands[0]
    if not _only_user(y, back):
        return None
    view = _collective(back)
    axis, traded = view.mesh_axes[0], back.name == "mesh.all_to_all"
    e = view.concat_axis if traded else None
    walked = _stencil_walk(y, back.block, d, e, view.mesh, axis, traded, _GATHERING[back.name])
    if walked is None:
        return None
    steps, gathered, ops = walked
    forwards = [_gathering(back, g, d, ops) for g in gathered]
    out = _static_shape(back.results[0].type)
    for forward in forwards:
        if forward is None:
            return None
        x = _static_shape(forward.operands[0].type)
        if x is None or x != out or _element(forward.operands[0].type) != _element(back.results[0].type):
            return None
    return _stencil(steps, gathered, [f for f in forwards if f is not None], ops, d, mesh.shape[axis], traded)


def _stencil_reduced(reduce: ir.Operation, meshes: Meshes) -> tuple[_Stencil, str] | None:
    """(the `_Stencil`, the combiner's kind) of the input of an hlo `reduce`
    along the dimension `dim` all_to_alls gathered (and the one they split),
    with its combiner's identity as its init (sum, max or min), whose only
    reader is an `all_reduce` of that kind over the all_to_alls' mesh axis:
    each device reduces its own rows instead of its piece of the split one,
    the all_reduce adds them up alike (of the reduce's own type, terms
    `_terms_combine` lets regroup), and rows past the input's end read as
    the init; else None."""
    if len(reduce.operands) != 2 or len(reduce.results) != 1:
        return None
    kind = reduce_identity_kind(reduce)
    if kind not in ("sum", "max", "min"):
        return None
    uses = list(reduce.results[0].uses)
    if len(uses) != 1 or uses[0].owner.name != "mesh.all_reduce" or not _only_user(reduce.operands[0], reduce):
        return None
    combined = _collective(uses[0].owner.operation)
    if combined.reduction != kind:
        return None
    if uses[0].owner.results[0].type != reduce.results[0].type or not _terms_combine(kind, [reduce]):
        # each device's own rows are terms regrouped: not where the all_reduce
        # converts them (i32 rows wrap where the terms widened to i64 do not),
        # nor where the partition's rule for partial sums would not regroup them
        return None
    y = reduce.operands[0]
    first = _first_gathering(y, reduce.block)
    if first is None:
        return None
    view = _collective(first)
    mesh = _static_mesh(first, meshes)
    if mesh is None or len(view.mesh_axes) != 1 or view.mesh != combined.mesh:
        return None
    axis, d, e = view.mesh_axes[0], view.concat_axis, view.split_axis
    if axis not in list(combined.mesh_axes) or d == e:
        return None  # (one dimension split and concatenated: chunks of each piece dealt out)
    dims = set(ints_of(reduce.attributes["dimensions"])) if "dimensions" in reduce.attributes else set()
    if d not in dims or e not in dims:
        return None  # the reduce keeps a dimension whose pieces change
    walked = _stencil_walk(y, reduce.block, d, e, view.mesh, axis, True, "mesh.all_to_all")
    if walked is None:
        return None
    steps, gathered, ops = walked
    forwards: list[ir.Operation] = []
    for g in gathered:
        forward = g.owner.operation
        other = _collective(forward)
        if forward.block != reduce.block or other.mesh != view.mesh or list(other.mesh_axes) != [axis]:
            return None
        if (other.concat_axis, other.split_axis) != (d, e):
            return None
        if _static_shape(forward.operands[0].type) != _static_shape(first.operands[0].type):
            return None
        forwards.append(forward)
    whole = _static_shape(first.results[0].type)
    sized = _static_shape(y.type)
    if whole is None or sized is None or sized[d] > whole[d]:
        return None  # rows no device computes
    found = _stencil(steps, gathered, forwards, ops, d, mesh.shape[axis], True)
    return None if found is None else (found, kind)


def _first_gathering(y: ir.Value, block: ir.Block) -> ir.Operation | None:
    """The first all_to_all the values `y` is computed from in `block`
    reach, a few ops up."""
    seen: set[ir.Value] = set()
    todo = [y]
    while todo and len(seen) < _STENCIL_STEPS:
        v = todo.pop()
        owner = v.owner
        if v in seen or isinstance(owner, ir.Block) or owner.operation.block != block:
            continue
        seen.add(v)
        if owner.name == "mesh.all_to_all":
            return owner.operation
        todo += list(owner.operands)
    return None


def _stencil_walk(
    y: ir.Value, block: ir.Block, d: int, e: int | None, mesh: str, axis: int, traded: bool, gathering: str
) -> tuple[list[tuple[ir.Operation, int, list[int | None]]], list[ir.Value], list[ir.Operation]] | None:
    """The steps computing `y` at distance 0 (`_Stencil`), in a post-order
    walk of (value, distance), the values collectives named `gathering`
    made that they read, and their ops in program order; None when one is
    not a slice, a pad or an elementwise op of `d` in `block`, or when a
    value they make is read elsewhere."""
    gathered: dict[ir.Value, None] = {}
    steps: list[tuple[ir.Operation, int, list[int | None]]] = []
    done: set[tuple[ir.Value, int]] = set()
    stack: list[tuple[ir.Value, int, list[int | None] | None]] = [(y, 0, None)]
    while stack:
        v, s, shifts = stack.pop()
        if (v, s) in done:
            continue
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.operation.block != block:
            return None
        op = owner.operation
        if shifts is not None:  # its operands' steps are done
            done.add((v, s))
            steps.append((op, s, shifts))
            continue
        if len(done) + len(stack) >= _STENCIL_STEPS:
            return None
        found = _operand_shifts(op, s, d)
        if found is None or len(op.results) != 1 or not _keeps_rank(op, found):
            return None
        stack.append((v, s, found))
        for u, t in zip(op.operands, found):
            if t is None or _leaf(u, mesh, axis, traded, d, e) is not None:
                continue
            source = u.owner
            if not isinstance(source, ir.Block) and source.name == gathering:
                gathered[u] = None
            elif (u, t) not in done:
                stack.append((u, t, None))
    if not gathered:
        return None
    # (each op after the ones it reads: a step comes after the steps it reads)
    ops = _distinct([op for op, _, _ in steps])
    inside = {op_address(op) for op in ops}
    for op in ops:
        v = op.results[0]
        if v != y and any(op_address(use.owner.operation) not in inside for use in v.uses):
            return None  # a value also read by an op that stays
    return steps, list(gathered), ops


def _keeps_rank(op: ir.Operation, shifts: list[int | None]) -> bool:
    """Whether the operands read at a shift have the rank of the op's result
    (an hlo op is not verified: a slice may claim to drop a dimension)."""
    rank = _rank(op.results[0].type)
    return rank is not None and all(t is None or _rank(u.type) == rank for u, t in zip(op.operands, shifts))


def _rank(t: ir.Type) -> int | None:
    return ir.RankedTensorType(t).rank if isinstance(t, ir.RankedTensorType) else None


def _stencil(
    steps: list[tuple[ir.Operation, int, list[int | None]]],
    gathered: list[ir.Value],
    forwards: list[ir.Operation],
    ops: list[ir.Operation],
    d: int,
    devices: int,
    traded: bool,
) -> _Stencil | None:
    """The `_Stencil` of walked steps (`_stencil_walk`) and the collectives
    that gathered what they read; None when a pad's value may differ
    between devices or a halo would be wider than a piece."""
    view = _collective(forwards[0])
    axis = view.mesh_axes[0]
    e = view.split_axis if traded else None  # (the forward all_to_all splits what the back one gathers)
    index = {g: n for n, g in enumerate(gathered)}
    reads: dict[tuple[int, int], tuple[int, int]] = {}
    leaves: dict[tuple[int, int], ir.Operation] = {}
    gathers: dict[int, int] = {}
    for i, (op, _, shifts) in enumerate(steps):
        for k, (u, t) in enumerate(zip(op.operands, shifts)):
            leaf = _leaf(u, view.mesh, axis, traded, d, e) if t is not None else None
            if leaf is not None:
                leaves[(i, k)] = leaf
                at = _leaf_gather(leaf, e)
                if at is not None:
                    gathers[op_address(leaf)] = at
            elif t is not None and u in index:
                reads[(i, k)] = (index[u], t)
        if op.name in _PADS and traded:
            # Each device pads its slice of the other dimension, and the
            # second all_to_all hands those cells around: a device now pads
            # whole rows itself, which equals that only when every device
            # pads with the same value.
            sizes = _pad_sizes(op, len(_static_shape(op.results[0].type) or ()), d)
            assert sizes is not None
            fill = sizes[2]
            if not isinstance(fill, ir.Operation) and not _same_on_every_device(fill, view.mesh, axis):
                return None
    halos = []
    for g, forward in enumerate(forwards):
        shifts = [t for gt, t in reads.values() if gt == g]
        piece = (_static_shape(forward.operands[0].type) or ())[d]
        low, high = max(0, -min(shifts)), max(0, max(shifts))
        if low > piece or high > piece:
            return None
        halos.append((low, high))
    return _Stencil(forwards, d, devices, steps, reads, leaves, ops, halos, gathers)


class _StencilBuilder:
    """Builds each device's rows of a `_Stencil`'s end at the current
    insertion point and location (`piece`)."""

    def __init__(self, found: _Stencil, mesh: str, axis: int) -> None:
        self.found, self.mesh, self.axis = found, mesh, axis
        self.pieces = [forward.operands[0] for forward in found.forwards]
        self.shape = list(_static_shape(self.pieces[0].type) or ())
        self.windows: list[ir.Value] = []
        self.held: dict[tuple[int, int], ir.Value] = {}
        self.remade: dict[tuple[int, ir.Type], ir.Value] = {}
        self.tables: dict[tuple, ir.Value] = {}
        self.me: ir.Value | None = None
        self.local: dict[tuple[ir.Value, int], ir.Value] = {}  # per (value, distance), its rows here
        self.made: list[ir.Operation] = []  # every op made, in order (`sweep`)

    def made_by(self, value: ir.Value) -> ir.Value:
        """`value`, whose op this builder made (noted for `sweep`)."""
        self.made.append(value.owner.operation)
        return value

    def sweep(self) -> None:
        """Erase the ops made whose results nothing reads (a pad's operand
        where every row is padding), readers first."""
        for op in reversed(self.made):
            if all(next(iter(r.uses), None) is None for r in op.results):
                op.erase()

    def piece(self) -> ir.Value:
        found, d = self.found, self.found.dim
        for x, (low, high) in zip(self.pieces, found.halos):
            if not low and not high:
                self.windows.append(x)
                continue
            wide = [*self.shape]
            wide[d] += low + high
            into = self.made_by(tensor.EmptyOp(wide, _element(x.type)).result)
            split = [[] for _ in range(d)] + [[self.axis]]
            halo = mesh_ops.UpdateHaloOp(x, into, self.mesh, split, destination_halo_sizes=[low, high])
            self.windows.append(self.made_by(halo.result))
        result = self.pieces[0]
        for i, (op, s, _) in enumerate(found.steps):
            if op.name in _SLICES:
                result = self.operand(i, 0)
            elif op.name in _PADS:
                source = self.operand(i, 0)
                extent = (_static_shape(op.operands[0].type) or ())[d]
                sizes = _pad_sizes(op, len(self.shape), d)
                assert sizes is not None
                result = self.masked(source, sizes[0], extent, s, sizes[2])
            else:
                operands = [self.operand(i, k) for k in range(len(op.operands))]  # (made before the op)
                copy = op.clone(ip=ir.InsertionPoint.current)
                for k, v in enumerate(operands):
                    copy.operands[k] = v
                copy.results[0].set_type(self.typed(op.results[0].type))
                result = self.made_by(copy.results[0])
            self.local[(op.results[0], s)] = result
        return result

    def typed(self, t: ir.Type) -> ir.Type:
        """A type of `t`'s element type and the pieces' shape."""
        return _with_shape(t, self.shape, ir.Location.current)

    def operand(self, i: int, k: int) -> ir.Value:
        """Operand `k` of step `i` on this device's rows."""
        found = self.found
        op, _, shifts = found.steps[i]
        if (i, k) in found.reads:
            return self.read(*found.reads[(i, k)])
        leaf = found.leaves.get((i, k))
        if leaf is None:
            t = shifts[k]
            return op.operands[k] if t is None else self.local[(op.operands[k], t)]  # (an hlo pad's value stays)
        t = self.typed(leaf.results[0].type)
        key = (op_address(leaf), t)
        if key not in self.remade:
            at = found.gathers.get(op_address(leaf))
            whole = None
            if at is not None:  # each device's piece of the traded dimension, in device order
                source = leaf.operands[0]
                chain = _sliced_from(source, at, self.mesh, self.axis, found.devices)
                if chain is not None:
                    whole = self.unsliced(*chain)
                else:
                    shape = list(_static_shape(source.type) or ())
                    shape[at] *= found.devices
                    gathered = _with_shape(source.type, shape, ir.Location.current)
                    whole = self.made_by(mesh_ops.all_gather(gathered, source, self.mesh, at, mesh_axes=[self.axis]))
            copy = leaf.clone(ip=ir.InsertionPoint.current)
            if whole is not None:
                copy.operands[0] = whole
            if leaf.name in _CONSTANTS:
                value = ir.DenseElementsAttr(leaf.attributes["value"]).get_splat_value()
                copy.attributes["value"] = ir.DenseElementsAttr.get_splat(t, value)
            copy.results[0].set_type(t)
            self.remade[key] = self.made_by(copy.results[0])
        return self.remade[key]

    def unsliced(self, base: ir.Value, steps: list[tuple[ir.Operation, int]]) -> ir.Value:
        """The ops `steps` (`_sliced_from`) made again from the whole tensor
        `base`, each at the whole size of the dimension it carries."""
        value = base
        for op, d in steps:
            copy = op.clone(ip=ir.InsertionPoint.current)
            copy.operands[0] = value
            shape = list(_static_shape(op.results[0].type) or ())
            if op.name in _SLICES:
                limits = ints_of(op.attributes["limit_indices"])
                limits[d] = _static_shape(value.type)[d]
                copy.attributes["limit_indices"] = ir.DenseI64ArrayAttr.get(limits)
            shape[d] *= self.found.devices
            copy.results[0].set_type(_with_shape(op.results[0].type, shape, ir.Location.current))
            value = self.made_by(copy.results[0])
        return value

    def read(self, g: int, shift: int) -> ir.Value:
        """Gathered tensor g's rows from this device's first one plus `shift` on."""
        window, x = self.windows[g], self.pieces[g]
        if window is x:
            return x  # (no halo: every read is at distance 0)
        if (g, shift) not in self.held:
            n = len(self.shape)
            start = self.found.halos[g][0] + shift
            offsets = [start if k == self.found.dim else 0 for k in range(n)]
            held = tensor.ExtractSliceOp(x.type, window, [], [], [], offsets, self.shape, [1] * n)
            self.held[(g, shift)] = self.made_by(held.result)
        return self.held[(g, shift)]

    def masked(self, source: ir.Value, low: int, extent: int, s: int, fill: ir.Value | ir.Operation) -> ir.Value:
        """`source` (a pad's operand on this device's rows) with `fill` on the
        rows that lie outside the operand: device p's row j is row
        p*piece + j + s of the pad's result, which holds the operand at rows
        [low, low + extent)."""
        found, d, shape = self.found, self.found.dim, self.shape
        piece, n = shape[d], len(shape)
        firsts = [min(piece, max(0, low - p * piece - s)) for p in range(found.devices)]
        stops = [max(a, min(piece, low + extent - p * piece - s)) for p, a in enumerate(firsts)]
        if not any(firsts) and all(b == piece for b in stops):
            return source  # no row of this pad is padding on any device
        counts = [b - a for a, b in zip(firsts, stops)]
        firsts = [a if kept else 0 for a, kept in zip(firsts, counts)]  # (a device keeping no row slices none from 0)
        if isinstance(fill, ir.Operation):  # a constant of the pad's body
            fill = self.made_by(fill.clone(ip=ir.InsertionPoint.current).results[0])
        elif isinstance(fill.type, ir.RankedTensorType):  # an hlo pad's 0-d tensor
            fill = self.made_by(tensor.ExtractOp(fill, []).result)
        padding = self.made_by(tensor.SplatOp(source.type, fill, []).result)
        if not any(counts):
            return padding  # every row is padding on every device
        if self.me is None:
            self.me = self.made_by(mesh_ops.process_multi_index(self.mesh, axes=[self.axis])[0])
        first, count = (self.table(values) for values in (firsts, counts))
        offsets = [(first if isinstance(first, int) else DYNAMIC) if k == d else 0 for k in range(n)]
        sizes = [(count if isinstance(count, int) else DYNAMIC) if k == d else shape[k] for k in range(n)]
        dynamic_offsets = [] if isinstance(first, int) else [first]
        dynamic_counts = [] if isinstance(count, int) else [count]
        rows = tensor.ExtractSliceOp(
            _with_shape(source.type, sizes, ir.Location.current),
            source,
            dynamic_offsets,
            dynamic_counts,
            [],
            offsets,
            sizes,
            [1] * n,
        ).result
        self.made_by(rows)
        inserted = tensor.InsertSliceOp(rows, padding, dynamic_offsets, dynamic_counts, [], offsets, sizes, [1] * n)
        return self.made_by(inserted.result)

    def table(self, values: list[int]) -> int | ir.Value:
        """`device_table` of `values`, its ops noted for `sweep`."""
        known = len(self.tables)
        found = device_table(values, self.me, self.tables)
        if len(self.tables) > known and isinstance(found, ir.Value):
            self.made.append(found.owner.operands[0].owner.operation)  # the table
            self.made_by(found)
        return found


_REVERSES = ("stablehlo.reverse", "mhlo.reverse")


def _reversal_of_gathered_dims(
    reverse: ir.Operation, meshes: Meshes
) -> tuple[list[ir.Operation], list[ir.Operation], str, list[int], list[int]] | None:
    """(the all_gathers before `reverse`, last first; the all_slices after
    it, in order; the mesh; every gathered dimension's mesh axes, in
    dimension order; their sizes) when all_gathers, each of a dimension
    over its own axes, made `reverse`'s operand, it reverses those
    dimensions (and maybe others: one gathered dimension and others too is
    `jnp.flip(x)` of all of a tensor split along one), and all_slices split
    each again over the same axes into pieces of the gathered ones' size,
    every value between read only by the next op of the chain; else None."""
    if len(reverse.operands) != 1 or "dimensions" not in reverse.attributes:
        return None
    gathers: list[ir.Operation] = []
    value = reverse.operands[0]
    reader = reverse
    while not isinstance(value.owner, ir.Block) and value.owner.name == "mesh.all_gather":
        if not _only_user(value, reader):
            return None
        reader = value.owner.operation
        gathers.append(reader)
        value = reader.operands[0]
    slices: list[ir.Operation] = []
    value = reverse.results[0]
    while len(slices) < len(gathers):
        uses = list(value.uses)
        if len(uses) != 1 or uses[0].owner.name != "mesh.all_slice":
            return None
        slices.append(uses[0].owner.operation)
        value = slices[-1].results[0]
    if not gathers or any(op.block != reverse.block for op in (*gathers, *slices)):
        return None
    views = [_collective(op) for op in (*gathers, *slices)]
    mesh = _static_mesh(gathers[0], meshes)
    if mesh is None or any(v.mesh != views[0].mesh for v in views):
        return None
    # per dimension, its axes major first: a dimension split over an axis
    # tuple is gathered minor axis first, so the gather nearest the reversal
    # holds its major axes, and the slice nearest it splits them again
    gathered: dict[int, tuple[int, ...]] = {}
    split: dict[int, tuple[int, ...]] = {}
    for v in views[: len(gathers)]:
        gathered[v.gather_axis] = gathered.get(v.gather_axis, ()) + tuple(v.mesh_axes)
    for v in views[len(gathers) :]:
        split[v.slice_axis] = split.get(v.slice_axis, ()) + tuple(v.mesh_axes)
    dims = sorted(gathered)
    # (a reversed dimension no collective gathers is each device's own: reversed where it is)
    if gathered != split or not set(dims) <= set(ints_of(reverse.attributes["dimensions"])):
        return None
    axes = [a for d in dims for a in gathered[d]]
    if len(set(axes)) != len(axes):
        return None
    x, y = gathers[-1].operands[0], slices[-1].results[0]
    if x.type != y.type or _static_shape(x.type) is None:
        return None
    return gathers, slices, views[0].mesh, axes, [mesh.shape[a] for a in axes]


def _reversal_between(back: ir.Operation, meshes: Meshes) -> tuple[ir.Operation, ir.Operation, Mesh, int] | None:
    """(the first collective, the reversal, the mesh, the dimension) when
    `back` (an all_to_all or an all_slice) splits again, over mesh axes, the
    dimension a reversal of that dimension only reversed right after an
    all_to_all or an all_gather gathered it; else None."""
    split = _splits_again(back, meshes, axes=len(_collective(back).mesh_axes))
    if split is None:
        return None
    mesh, d = split
    reversed_value = back.operands[0]
    reverse = reversed_value.owner
    if isinstance(reverse, ir.Block) or not _only_user(reversed_value, back):
        return None
    reverse = reverse.operation
    gathered = reverse.operands[0] if len(reverse.operands) else None
    if gathered is None or gathered.type != reversed_value.type:
        return None
    shape = _static_shape(gathered.type)
    others = None if shape is None else _also_reversed(reverse, d, shape)
    if others is None:
        return None
    forward = _gathering(back, gathered, d, (reverse,))
    if forward is None or forward.operands[0].type != back.results[0].type:
        return None
    if forward.name == "mesh.all_to_all" and _collective(forward).split_axis in others:
        # (split between the collectives: each device would reverse its own part of it alone)
        return None
    local = _static_shape(back.results[0].type)
    if local is None or local[d] * math.prod(mesh.shape[a] for a in _collective(back).mesh_axes) != shape[d]:
        return None
    return forward, reverse, mesh, d


def _taken_with_pairs_around(
    reverse: ir.Operation, gathers: list[ir.Operation], slices: list[ir.Operation], meshes: Meshes
) -> bool:
    """Whether the all_gathers and all_slices around `reverse`, of one
    dimension, lie within further pairs of collectives (an all_to_all
    gathering that dimension outside them, as partition reshards an axis
    tuple) that `_flip_by_exchange` takes whole with them."""
    dims = {_collective(g).gather_axis for g in gathers}
    if len(dims) != 1:
        return False
    d = dims.pop()
    axes = [a for g in gathers for a in _collective(g).mesh_axes]
    forward, back = gathers[-1], slices[-1]
    while (outer := _wrapping(forward, back, d, axes, meshes)) is not None:
        forward, back = outer
        axes += list(_collective(back).mesh_axes)
    if back == slices[-1]:
        return False
    chain = _reversal_pairs(back, meshes)
    return chain is not None and chain.found[1] == reverse and all(s in chain.backs for s in slices)


def _reversal_pairs(visited: ir.Operation, meshes: Meshes) -> _Chain | None:
    """The pairs of collectives around a reversal that `visited` ends
    (`_pairs_around`), for `flip-by-exchange`."""
    return _pairs_around(visited, meshes, _reversal_between, lambda found: (found[1],), _flip_refuses)


def _flip_refuses(found: tuple[ir.Operation, ir.Operation, Mesh, int], forward: ir.Operation) -> bool:
    """Whether the gathering collective `forward` around the reversal
    `found` splits a dimension the reversal also reverses (each device
    would reverse its own part of it alone)."""
    _, reverse, _, d = found
    if forward.name != "mesh.all_to_all":
        return False
    shape = _static_shape(reverse.operands[0].type)
    others = None if shape is None else _also_reversed(reverse, d, shape)
    return others is None or _collective(forward).split_axis in others


def _also_reversed(op: ir.Operation, d: int, shape: tuple[int, ...]) -> set[int] | None:
    """The other dimensions `op` (of one operand of `shape`) reverses when it
    reverses dimension `d`: an hlo `reverse` of `d` and maybe others (each
    device reverses those in its own piece as they are), or a
    `linalg.generic` of all parallel loops that copies its input read
    backwards along `d` alone into an init it does not read (none); None
    when it is no such reversal."""
    if op.name in _REVERSES:
        if "dimensions" not in op.attributes:
            return None
        dims = ints_of(op.attributes["dimensions"])
        return set(dims) - {d} if d in dims and len(set(dims)) == len(dims) else None
    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1:
        return None
    if "indexing_maps" not in op.attributes or "iterator_types" not in op.attributes:
        return None
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
    rank = len(shape)
    if maps != [_reversal_map(rank, d, shape[d]), ir.AffineMap.get_identity(rank)]:
        return None
    if not _parallel_loops(op):
        return None
    block = op.regions[0].blocks[0]
    body = list(block.operations)
    copies = len(body) == 1 and body[0].name == "linalg.yield" and body[0].operands[0] == block.arguments[0]
    return set() if copies else None


def _reversal_map(rank: int, d: int, size: int) -> ir.AffineMap:
    """(d0, ..., d_rank-1) -> (d0, ..., size - 1 - d_d, ...)."""
    exprs = [ir.AffineDimExpr.get(k) for k in range(rank)]
    backwards = ir.AffineMulExpr.get(ir.AffineConstantExpr.get(-1), ir.AffineDimExpr.get(d))
    exprs[d] = ir.AffineAddExpr.get(backwards, ir.AffineConstantExpr.get(size - 1))
    return ir.AffineMap.get(rank, 0, exprs)


def _reversed_piece(template: ir.Operation, x: ir.Value, d: int) -> ir.Value:
    """`x` reversed along dimension `d` by a copy of the reversal `template`,
    built at the current insertion point."""
    shape = list(_static_shape(x.type) or ())
    # (a generic's init first: the copy must come after what it reads)
    init = tensor.EmptyOp(shape, ir.RankedTensorType(x.type).element_type).result
    op = template.clone(ip=ir.InsertionPoint.current)
    op.operands[0] = x
    if op.name == "linalg.generic":
        op.operands[1] = init
        rank = len(shape)
        maps = [_reversal_map(rank, d, shape[d]), ir.AffineMap.get_identity(rank)]
        op.attributes["indexing_maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])
    else:
        init.owner.erase()
    op.results[0].set_type(x.type)
    return op.results[0]


_PADS = {"tensor.pad": 1, "stablehlo.pad": 2, "mhlo.pad": 2}
"""The pads `pad-by-shift` reads, and their number of operands (a tensor.pad
with sizes given by values has more)."""


_CONSTANTS = frozenset(("arith.constant", "stablehlo.constant", "mhlo.constant"))
_HLO = ("stablehlo.", "mhlo.")


def _same_on_every_device(value: ir.Value, mesh: str, axis: int, depth: int = 8) -> bool:
    """Whether `value` is known equal on the devices along `axis` of `mesh`:
    a constant, a collective's result over that axis (`_replicated_axes`),
    a function argument its layout says every device holds whole, or what
    an element read or an elementwise op (arith, math, hlo) makes of such
    values (a JAX padding value is a converted constant), `depth` ops deep."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        parent = owner.owner
        if parent is None or parent.operation.name != "func.func" or "arg_attrs" not in parent.attributes:
            return False  # (an OpView's `name` may be a function's symbol: the op's is its operation's)
        if owner != parent.regions[0].blocks[0]:
            return False  # a later block's argument: whatever its branches hand it
        if _referenced(parent.operation):
            return False  # a call in the module may hand it anything: its layout binds only callers outside
        attrs = ir.DictAttr(ir.ArrayAttr(parent.attributes["arg_attrs"])[ir.BlockArgument(value).arg_number])
        if "mesh.sharding" not in attrs:
            return False
        try:
            found, split, partial, *_ = decode_sharding_attr(str(attrs["mesh.sharding"]))
        except (Unprintable, ValueError):
            return False
        return found == "@" + mesh and not partial and not any(split)
    op = owner.operation
    if op.name in _CONSTANTS:
        return True
    if axis in _replicated_axes(value, mesh):
        return True
    name = op.name
    computed = name.startswith(("arith.", "math.")) or (name.startswith(_HLO) and is_pointwise(name))
    if depth and (name == "tensor.extract" or computed) and len(op.regions) == 0:
        return all(_same_on_every_device(v, mesh, axis, depth - 1) for v in op.operands)
    return False


def _referenced(func: ir.Operation) -> bool:
    """Whether an op of `func`'s module names it by symbol (a `func.call`, a
    `func.constant` for an indirect call): its arguments are then whatever
    those hand it, not what its signature's layouts promise."""
    if "sym_name" not in func.attributes:
        return True
    name = ir.StringAttr(func.attributes["sym_name"]).value
    top = func
    while top.parent is not None:
        top = top.parent.operation
    found = False
    mention = re.compile(r"@" + re.escape(name) + r"(?![\w$.-])|@\"" + re.escape(name) + r"\"")

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal found
        for key, attr in attribute_items(op):
            if key != "sym_name" and mention.search(str(attr)):
                found = True
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    top.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _slice_range(op: ir.Operation, shape: tuple[int, ...], d: int) -> tuple[int, int] | None:
    """The cells [start, stop) a slice takes of dimension `d` of a value of
    `shape`, when it takes every cell of the others, one by one; else None."""
    if op.name == "tensor.extract_slice":
        result = _static_shape(op.results[0].type)
        if len(op.operands) != 1 or result is None:
            return None
        starts, sizes, strides = (list(op.attributes[k]) for k in ("static_offsets", "static_sizes", "static_strides"))
        stops = [b + n for b, n in zip(starts, sizes)]
        if len(sizes) != len(shape) or list(result) != sizes:
            return None  # rank-reducing
    else:
        starts, stops = (ints_of(op.attributes[k]) for k in ("start_indices", "limit_indices"))
        strides = ints_of(op.attributes["strides"]) if "strides" in op.attributes else [1] * len(shape)
    if len(starts) != len(shape) or any(s != 1 for s in strides):
        return None
    if any((starts[k], stops[k]) != (0, shape[k]) for k in range(len(shape)) if k != d):
        return None
    return starts[d], stops[d]


def _sliced(template: ir.Operation, value: ir.Value, d: int, start: int, stop: int, shape: list[int]) -> ir.Value:
    """A copy of the slice `template` that takes cells [start, stop) of
    dimension `d` of `value` (of `shape`) and every cell of the others."""
    op = template.clone(ip=ir.InsertionPoint.current)
    op.operands[0] = value
    starts = [start if k == d else 0 for k in range(len(shape))]
    stops = [stop if k == d else n for k, n in enumerate(shape)]
    if op.name == "tensor.extract_slice":
        sizes = [b - a for a, b in zip(starts, stops)]
        op.attributes["static_offsets"] = ir.DenseI64ArrayAttr.get(starts)
        op.attributes["static_sizes"] = ir.DenseI64ArrayAttr.get(sizes)
    else:
        op.attributes["start_indices"] = ints_like(op.attributes["start_indices"], starts)
        op.attributes["limit_indices"] = ints_like(op.attributes["limit_indices"], stops)
    out = [*shape]
    out[d] = stop - start
    op.results[0].set_type(_with_shape(value.type, out, op.location))
    return op.results[0]


def _collect_meshes(module: ir.Operation) -> Meshes:
    """Mesh shapes keyed as mesh-canonicalize keys them, for its helpers."""
    meshes: Meshes = {}

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.mesh":
            shape = list(op.attributes["shape"])
            meshes.setdefault(
                (op.parent, op.attributes["sym_name"].value), [None if d == DYNAMIC else d for d in shape]
            )
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return meshes


def _ops(module: ir.Operation, names: Iterable[str] | None) -> list[ir.Operation]:
    """The ops named `names` (every op for None), in program order."""
    wanted = None if names is None else frozenset(names)
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if wanted is None or op.name in wanted:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _collective(op: ir.Operation) -> ir.OpView:
    return op.opview


def _reductions(op: ir.Operation, inputs: list[ir.Value], kind: str) -> list[ir.Operation] | None:
    """The reductions of `kind` that make `inputs`, in `op`'s block: all
    all_reduces over one set of mesh axes, or all reduce_scatters along one
    axis over the same axes whose terms have one static type (the op is
    then rebuilt at that size); None otherwise."""
    for name in ("mesh.all_reduce", "mesh.reduce_scatter"):
        reduces = [_producer(v, name) for v in inputs]
        if any(r is None or r.block != op.block for r in reduces):
            continue
        if any(_collective(r).reduction != kind or not _same_group(r, reduces[0]) for r in reduces):
            return None
        if name == "mesh.all_reduce":
            if any(r.operands[0].type != r.results[0].type for r in reduces):
                return None
            return reduces
        terms = reduces[0].operands[0].type
        if not isinstance(terms, ir.RankedTensorType) or not terms.has_static_shape:
            return None
        result = op.results[0].type
        if any(r.operands[0].type != terms or r.results[0].type != result for r in reduces):
            return None
        if _element(terms) != _element(result):
            return None  # a reduction that converts: the op would run in the terms' type
        if op.name.startswith("linalg.") and op.operands[len(inputs)].type != result:
            return None
        return reduces
    return None


def _producer(value: ir.Value, name: str) -> ir.Operation | None:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    op = owner.operation if isinstance(owner, ir.OpView) else owner
    return op if op.name == name else None


def _distinct(ops: list[ir.Operation]) -> list[ir.Operation]:
    """`ops` without repeats (an op feeding two operands)."""
    out: list[ir.Operation] = []
    for op in ops:
        if not any(op == o for o in out):
            out.append(op)
    return out


def _terms_combine(kind: str, reduces: Sequence[ir.Operation]) -> bool:
    """Whether the terms `reduces` reduce may be combined on each device
    before one reduction: by partition's rule for partial sums
    (`float_terms_overflow`), which max and min never break.  Never a
    product of floats: regrouped, its partial products reach infinity and
    zero (1e30 * 1e30 and 1e-30 * 1e-30 in f32) whose product is NaN, where
    the terms in device order multiply to 1."""
    if kind in ("max", "min"):
        return True
    terms = [r.operands[0] for r in reduces]
    element = _element(terms[0].type)
    if kind == "product" and isinstance(element, ir.FloatType | ir.ComplexType):
        return False
    return not float_terms_overflow(element, terms)


def _only_user(value: ir.Value, user: ir.Operation) -> bool:
    uses = list(value.uses)
    return len(uses) == 1 and uses[0].owner.operation == user


def _used_only_by(value: ir.Value, users: Sequence[ir.Operation]) -> bool:
    """Every use of `value` is by one of `users`."""
    return all(any(u.owner.operation == user for user in users) for u in value.uses)


def _uses_only_as(value: ir.Value, user: ir.Operation, operands: Iterable[int]) -> bool:
    """Every use of `value` is one of `user`'s operands at `operands`."""
    allowed = set(operands)
    return all(u.owner.operation == user and u.operand_number in allowed for u in value.uses)


def _replicated_axes(value: ir.Value, mesh: str) -> frozenset[int]:
    """Axes of `mesh` along which `value` is known equal on every device: a
    collective's result is equal across its group, and stays equal along
    the axes its input was equal along."""
    axes: set[int] = set()
    while True:
        op = _producer(value, "mesh.all_reduce") or _producer(value, "mesh.all_gather")
        if op is None or _collective(op).mesh != mesh:
            return frozenset(axes)
        axes.update(_collective(op).mesh_axes)
        value = op.operands[0]


def _rebuild_all_reduce(op: ir.Operation, source: ir.Value, axes: list[int]) -> ir.Operation:
    """`op` again on `source` over `axes`; `op` is erased."""
    view = _collective(op)
    with ir.InsertionPoint(op):
        new = mesh_ops.AllReduceOp(
            op.results[0].type, source, view.mesh, mesh_axes=axes, reduction=view.reduction, loc=op.location
        ).operation
    op.results[0].replace_all_uses_with(new.results[0])
    op.erase()
    return new


def _elementwise(op: ir.Operation) -> bool:
    """One result and no region, every operand a static tensor of the
    result's shape that the op's sharding rule maps dimension by dimension
    onto parallel loops: the op on pieces gives the pieces of its result,
    whichever way the tensors are cut.  Only ops whose rule is a built-in
    elementwise one: a full slice or an identity reshape is elementwise too,
    but its attributes hold the whole shape, which a clone onto pieces keeps."""
    if len(op.regions) or len(op.results) != 1 or not len(op.operands) or not is_pointwise(op.name):
        return False
    shape = _static_shape(op.results[0].type)
    if shape is None or not shape or any(_static_shape(v.type) != shape for v in op.operands):
        return False
    rule = rule_for(op)
    if rule is None or len(rule.iterators) != len(shape) or not all(it.is_parallel for it in rule.iterators):
        return False
    identity = tuple(range(len(shape)))
    return all(m == identity for m in rule.operand_maps) and all(m == identity for m in rule.result_maps)


def _unary_chain(value: ir.Value, block: ir.Block) -> list[ir.Operation]:
    """The elementwise ops of one operand that `value` alone feeds, one
    after the other, in `block`."""
    chain: list[ir.Operation] = []
    while True:
        uses = list(value.uses)
        if len(uses) != 1:
            return chain
        user = uses[0].owner.operation
        if user.block != block or len(user.operands) != 1 or not _elementwise(user):
            return chain
        chain.append(user)
        value = user.results[0]


def _static_shape(t: ir.Type) -> tuple[int, ...] | None:
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return None
    return tuple(t.shape)


def _with_shape(t: ir.Type, shape: Iterable[int], loc: ir.Location) -> ir.Type:
    rt = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(list(shape), rt.element_type, rt.encoding, loc=loc)


def _static_mesh(op: ir.Operation, meshes: Meshes) -> Mesh | None:
    shape = mesh_shape_of(op, meshes)
    if shape is None or any(s is None for s in shape) or any(a >= len(shape) for a in _collective(op).mesh_axes):
        return None
    return Mesh(tuple(shape))


def _bytes(step: Step, elems: int, t: ir.Type, mesh: Mesh) -> int:
    """Bytes a device receives in `step` on `elems` local elements of `t`'s
    element type (the planner's cost model)."""
    return uniform_cost(step, elems, mesh) * element_bytes(t)


def _op_cost(op: ir.Operation, meshes: Meshes) -> int | None:
    """The bytes a device receives in the collective `op`, when the model
    has it (None otherwise)."""
    mesh = _static_mesh(op, meshes)
    shape = _static_shape(op.operands[0].type) if len(op.operands) else None
    if mesh is None or shape is None:
        return None
    view = _collective(op)
    axes = tuple(view.mesh_axes)
    elems = math.prod(shape)
    if op.name == "mesh.all_reduce":
        step: Step = AllReduce(axes, view.reduction)
    elif op.name == "mesh.reduce_scatter":
        step = ReduceScatter(axes, view.reduction, view.scatter_axis)
    elif op.name == "mesh.all_gather":
        step = AllGather(axes, view.gather_axis)
    elif op.name == "mesh.all_to_all":
        step = AllToAll(axes, view.split_axis, view.concat_axis)
    elif op.name == "mesh.all_slice":
        return 0
    else:
        return None
    return _bytes(step, elems, op.operands[0].type, mesh)


def _bytes_of(step: Step, value: ir.Value, meshes: Meshes, op: ir.Operation) -> int | None:
    """What `_op_cost` would say of `step` on `value` on `op`'s mesh."""
    mesh = _static_mesh(op, meshes)
    shape = _static_shape(value.type)
    if mesh is None or shape is None:
        return None
    return _bytes(step, math.prod(shape), value.type, mesh)


def _total(*costs: int | None) -> int | None:
    """The sum of costs, unknown when one is."""
    return None if any(c is None for c in costs) else sum(c for c in costs if c is not None)


def _show(value: int | None) -> str:
    return "?" if value is None else str(value)
