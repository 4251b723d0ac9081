"""A shard_map (`sdy.manual_computation`) as code every device runs on its
own piece, for `import-shardings`.

Its body is written per device: the block arguments are each device's
pieces of the operands, cut as `in_shardings` says, and what `sdy.return`
hands back are pieces the results are made of, as `out_shardings` says.
Inlined, each operand is cut by `mesh.all_slice` (one per split dimension),
the body's XLA collectives become this dialect's (`frontends.shard_map`
finds their mesh axes), and each result is put together by
`mesh.all_gather`.  Every device then runs the whole program: the code
around the shard_map on whole values, the body on its own pieces, which
is how `mesh-run` runs a program with collectives and no layouts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from mlir import ir
from mlir.dialects import arith

from ...frontends import FrontendError, sdy
from ...frontends.shard_map import Ring, group_axes, permutation_shift
from ...interfaces.registry import hlo_reduce_kind
from ...interfaces.rules import INVALID
from ...ir import ops as mesh_ops
from ...ir.exchange import permuted
from ...ir.per_device import per_device_values
from ...ir.uniform import readable_attr
from ...sharding.spec import Sharding

MANUAL = "sdy.manual_computation"

_CONSTRAINTS = ("sdy.sharding_constraint", "sdy.reshard")
_CONVERTED = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute", "partition_id")
_REFUSED = ("collective_broadcast", "send", "recv", "replica_id", "infeed", "outfeed")


def manual_computations(func: ir.Operation) -> list[ir.Operation]:
    """The shard_maps of `func`, outermost first (listed before any is
    expanded: expanding one erases it and moves its body)."""
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == MANUAL:
            found.append(op)
        return ir.WalkResult.ADVANCE

    func.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _dense(attr: ir.Attribute, what: str) -> list[list[int]]:
    """A 2-d integer attribute (replica groups, pairs) as rows."""
    try:
        array = np.array(ir.DenseIntElementsAttr(attr))
    except (TypeError, ValueError):
        raise FrontendError(f"{what} must be a 2-d integer array, got {attr}") from None
    if array.size == 0:
        return []
    if array.ndim != 2:
        raise FrontendError(f"{what} must be a 2-d integer array, got {attr}")
    return [[int(x) for x in row] for row in array]


@dataclass
class Boundary:
    """Where per-device code begins or ends: `value`, a whole tensor, in
    `layout` on `mesh` (a shard_map operand's cut, read by `reader`, the
    first slice; or a result put together, `reader` None)."""

    value: ir.Value
    layout: Sharding
    mesh: str
    location: ir.Location
    reader: ir.Operation | None


def annotate_boundaries(func: ir.Operation, boundaries: list[Boundary]) -> None:
    """The layouts the shard_maps of `func` cut and put together, as
    annotations: an operand for its first slice, a result as produced.
    Propagation then lays out the code around them alike (what feeds a
    shard_map arrives cut as it reads it; what reads its result reads it in
    its pieces), and partition finds the slices and gathers free.  A value
    that differs between devices is left alone: no layout describes it."""
    if not boundaries:
        return
    varying = per_device_values(func).values
    top = ir.InsertionPoint.at_block_begin(func.regions[0].blocks[0])
    made: dict[tuple[str, Sharding], ir.Value] = {}
    for b in boundaries:
        if b.value in varying or b.layout.is_replicated:
            continue
        s = made.get((b.mesh, b.layout))
        if s is None:  # (at the top, where it dominates every shard_map's)
            split = [list(axes) for axes in b.layout.split_axes] or [[]]
            s = made[(b.mesh, b.layout)] = mesh_ops.sharding(b.mesh, split, loc=b.location, ip=top)
        if b.reader is not None:
            b.reader.operands[0] = mesh_ops.shard(
                b.value, s, annotate_for_users=True, loc=b.location, ip=ir.InsertionPoint(b.reader)
            )
            continue
        produced = mesh_ops.shard(b.value, s, loc=b.location, ip=ir.InsertionPoint.after(b.value.owner))
        b.value.replace_all_uses_except(produced, produced.owner.operation)


class Expander:
    """Inlines the shard_maps of one module onto meshes already made.

    `mesh_of(name)` gives (mesh symbol, MeshMapping) for an sdy mesh name;
    `located(loc, message)` makes the FrontendError to raise; `functions`
    are the module's, by name (a body's calls are followed into them, and
    their collectives made this dialect's in place)."""

    def __init__(
        self,
        mesh_of: Callable[[str], tuple[str, sdy.MeshMapping] | None],
        located: Callable[[ir.Location, str], FrontendError],
        functions: dict[str, ir.Operation] | None = None,
    ) -> None:
        self.mesh_of = mesh_of
        self.located = located
        self.functions = functions or {}  # the module's functions, by name
        self.manual: set[int] = set()  # the mesh axes the shard_map being expanded is manual over

    def expand(self, op: ir.Operation) -> list[Boundary]:
        """Inline `op`; return where its per-device code begins and ends."""
        loc = op.location
        boundaries: list[Boundary] = []
        try:
            ins = self.shardings(op, "in_shardings", len(op.operands))
            outs = self.shardings(op, "out_shardings", len(op.results))
        except FrontendError as e:
            raise self.located(loc, str(e)) from None
        names = {ts.mesh for ts in ins + outs}
        if len(names) != 1 or not all(isinstance(n, str) for n in names):
            raise self.located(loc, f"a shard_map's shardings must all name one sdy.mesh, got {len(names)} meshes")
        found = self.mesh_of(next(iter(names)))
        if found is None:
            raise self.located(loc, f"a shard_map needs a mesh of more than one device, got @{next(iter(names))}")
        mesh, mapping = found
        shape = mapping.shape
        manual = sdy.parse_manual_axes(str(op.attributes["manual_axes"])) if "manual_axes" in op.attributes else []
        covered: set[int] = set()
        for name in manual:
            if name not in mapping.pieces:
                raise self.located(loc, f'manual axis is not in mesh @{mesh}: "{name}"')
            covered.update(a for _, _, a in mapping.pieces[name])
        # Over some axes only, the body speaks of whole values along the
        # others: it is cut and put together along the manual ones, and runs
        # whole along the rest (partition cuts no per-device value).
        self.manual = covered
        if mapping.device_ids and list(mapping.device_ids) != list(range(len(mapping.device_ids))):
            raise self.located(
                loc, f"a shard_map's collectives name devices in mesh order: mesh @{mesh} has device_ids"
            )
        block = op.regions[0].blocks[0]
        if len(block.arguments) != len(op.operands):
            raise self.located(loc, f"a shard_map's body must take one argument per operand ({len(op.operands)})")
        collectives: list[ir.Operation] = []
        nested: list[ir.Operation] = []
        called: list[ir.Operation] = []

        def visit(inner: ir.Operation) -> ir.WalkResult:
            dialect, _, name = inner.name.partition(".")
            if dialect in ("stablehlo", "mhlo") and (name in _CONVERTED or name in _REFUSED):
                collectives.append(inner)
            elif inner.name == MANUAL and inner != op:
                nested.append(inner)
            elif inner.name == "func.call" and "callee" in inner.attributes:
                callee = self.functions.get(ir.FlatSymbolRefAttr(inner.attributes["callee"]).value)
                if callee is not None and callee not in called:
                    called.append(callee)
            return ir.WalkResult.ADVANCE

        op.walk(visit, ir.WalkOrder.PRE_ORDER)
        # the functions the body calls (JAX's jitted helpers, which may hold
        # collectives and device indices too), and those they call
        for callee in called:
            callee.walk(visit, ir.WalkOrder.PRE_ORDER)
        if nested:
            raise self.located(nested[0].location, "a shard_map inside a shard_map cannot be imported")
        for inner in collectives:
            self.convert(inner, mesh, shape)
        # operands cut into each device's piece
        for i, (value, ts) in enumerate(zip(op.operands, ins)):
            arg = block.arguments[i]
            piece = self.cut(value, ts, mapping, mesh, op, f"operand {i}", boundaries)
            if piece.type != arg.type:
                raise self.located(
                    loc, f"shard_map operand {i} cut as {ts.text()} is {piece.type}, its body reads {arg.type}"
                )
            arg.replace_all_uses_with(piece)
        terminator = block.operations[len(block.operations) - 1]
        for inner in list(block.operations)[:-1]:
            inner.operation.move_before(op)
        pieces = list(terminator.operands)
        for j, (result, ts) in enumerate(zip(op.results, outs)):
            whole = self.join(pieces[j], ts, mapping, mesh, op, f"result {j}", boundaries)
            if whole.type != result.type:
                raise self.located(
                    loc, f"shard_map result {j} put together as {ts.text()} is {whole.type}, not {result.type}"
                )
            result.replace_all_uses_with(whole)
        op.erase()
        return boundaries

    @staticmethod
    def shardings(op: ir.Operation, key: str, count: int) -> list[sdy.TensorSharding]:
        if key not in op.attributes:
            if count:
                raise FrontendError(f"a shard_map needs {key}")
            return []
        found = sdy.parse_sharding_per_value(str(op.attributes[key]))
        if len(found) != count:
            raise FrontendError(f"{key} must have one sharding per value ({count}), got {len(found)}")
        return found

    def layout_axes(self, ts: sdy.TensorSharding, mapping: sdy.MeshMapping, value: ir.Value, op, what: str):
        if not isinstance(value.type, ir.RankedTensorType):
            raise self.located(op.location, f"shard_map {what} must be a ranked tensor, got {value.type}")
        try:
            layout = sdy.to_layout(ts, mapping, ir.RankedTensorType(value.type).rank)
        except FrontendError as e:
            raise self.located(op.location, f"{e} (shard_map {what})") from None
        if layout.partial_axes:
            raise self.located(op.location, f"a shard_map {what} cannot be unreduced: {ts.text()}")
        return tuple(tuple(a for a in axes if a in self.manual) for axes in layout.split_axes)

    def cut(self, value: ir.Value, ts, mapping, mesh: str, op: ir.Operation, what: str, boundaries) -> ir.Value:
        """`value`'s piece on each device, as `ts` cuts it."""
        whole, split = value, self.layout_axes(ts, mapping, value, op, what)
        for dim, axes, count in _split_dims(split, mapping):
            size = ir.RankedTensorType(value.type).shape[dim]
            if ir.ShapedType.is_dynamic_size(size) or size % count:
                shown = "?" if ir.ShapedType.is_dynamic_size(size) else size
                raise self.located(
                    op.location, f"shard_map {what} dimension {dim} of size {shown} must divide into {count} pieces"
                )
            value = _step(mesh_ops.all_slice, value, dim, size // count, mesh, axes, op)
            if value.owner.operands[0] == whole:
                boundaries.append(Boundary(whole, _kept(split, mapping), mesh, op.location, value.owner.operation))
        return value

    def join(self, value: ir.Value, ts, mapping, mesh: str, op: ir.Operation, what: str, boundaries) -> ir.Value:
        """The whole tensor the pieces `value` make, as `ts` cuts it."""
        piece, split = value, self.layout_axes(ts, mapping, value, op, what)
        for dim, axes, count in _split_dims(split, mapping):
            size = ir.RankedTensorType(value.type).shape[dim]
            whole = size if ir.ShapedType.is_dynamic_size(size) else size * count
            value = _step(mesh_ops.all_gather, value, dim, whole, mesh, axes, op)
        if value != piece:
            boundaries.append(Boundary(value, _kept(split, mapping), mesh, op.location, None))
        return value

    # -- collectives ----------------------------------------------------------

    def convert(self, op: ir.Operation, mesh: str, shape: tuple[int, ...]) -> None:
        """One XLA collective (or device number) of a shard_map's body as
        this dialect's ops, in its place."""
        name = op.name.partition(".")[2]
        loc = op.location
        if name in _REFUSED:
            raise self.located(loc, f"'{op.name}' inside a shard_map cannot be imported")
        try:
            if name == "partition_id" and self.axis_index(op, mesh, shape):
                return
            if name == "partition_id":
                made = [self.partition_id(op, mesh)]
            elif name == "collective_permute":
                made = [self.permute(op, mesh, shape)]
            else:
                made = self.grouped(op, name, mesh, shape)
        except FrontendError as e:
            raise self.located(loc, str(e)) from None
        for old, new in zip(op.results, made):
            old.replace_all_uses_with(new)
        op.erase()

    def grouped(self, op: ir.Operation, name: str, mesh: str, shape: tuple[int, ...]) -> list[ir.Value]:
        groups = _dense(op.attributes["replica_groups"], "replica_groups") if "replica_groups" in op.attributes else []
        axes = group_axes(groups, shape)
        if len(op.operands) != len(op.results):
            raise FrontendError(f"'{op.name}' must have one result per operand")
        kind = self.reduction(op) if name in ("all_reduce", "reduce_scatter") else None
        where = {"mesh_axes": axes, "loc": op.location, "ip": ir.InsertionPoint(op)}
        made = []
        for value, result in zip(op.operands, op.results):
            t = result.type
            if not axes:
                made.append(value)  # a group of one device: its own data
                continue
            if name == "all_reduce":
                made.append(mesh_ops.all_reduce(t, value, mesh, reduction=kind, **where))
            elif name == "reduce_scatter":
                dim = _int(op, "scatter_dimension")
                made.append(mesh_ops.reduce_scatter(t, value, mesh, dim, reduction=kind, **where))
            elif name == "all_gather":
                made.append(mesh_ops.all_gather(t, value, mesh, _int(op, "all_gather_dim"), **where))
            else:
                count = _int(op, "split_count")
                members = math.prod(shape[a] for a in axes)
                if count != members:
                    raise FrontendError(f"split_count must be the group's size ({members}), got {count}")
                split, concat = _int(op, "split_dimension"), _int(op, "concat_dimension")
                made.append(mesh_ops.all_to_all(t, value, mesh, split, concat, **where))
        return made

    @staticmethod
    def reduction(op: ir.Operation) -> str:
        """The kind the op's one-op body reduces by, as XLA reads it (on
        `i1`, add and maximum are a logical or, multiply and minimum a
        logical and)."""
        for inner in list(op.regions[0].blocks[0].operations) if len(op.regions) and len(op.regions[0].blocks) else []:
            if inner.operation.name in _CONSTRAINTS:  # (JAX constrains the reducer's scalars: no layout there)
                inner.operation.results[0].replace_all_uses_with(inner.operation.operands[0])
                inner.operation.erase()
        kind = hlo_reduce_kind(op, 1)
        if kind == INVALID:
            raise FrontendError(
                f"'{op.name}' must reduce by one add, multiply, maximum, minimum, and, or or xor of its two arguments"
            )
        return kind

    def permute(self, op: ir.Operation, mesh: str, shape: tuple[int, ...]) -> ir.Value:
        pairs = [(s, t) for s, t in _dense(op.attributes["source_target_pairs"], "source_target_pairs")]
        if len(op.operands) != 1:
            raise FrontendError(f"'{op.name}' must have one operand, got {len(op.operands)}")
        value, t = op.operands[0], op.results[0].type
        shift = permutation_shift(pairs, shape)
        if shift is None:
            return value
        if isinstance(shift, Ring):
            return self.ring(op, value, t, mesh, shift, shape)
        at = {"loc": op.location, "ip": ir.InsertionPoint(op)}
        moved = mesh_ops.shift(
            t, value, mesh, shift.axis, shift.offset, mesh_axes=[shift.axis], rotate=shift.rotate, **at
        )
        if shift.rotate:
            return moved
        # XLA gives a device no pair names zeros: those whose coordinate
        # minus the offset leaves the axis
        element = ir.RankedTensorType(t).element_type
        if isinstance(element, ir.FloatType):
            zero = ir.FloatAttr.get(element, 0.0)
        elif isinstance(element, ir.IntegerType):
            zero = ir.IntegerAttr.get(element, 0)
        else:
            raise FrontendError(
                f"a collective permute leaving devices without data needs floats or integers, got {element}"
            )
        with op.location, ir.InsertionPoint(op):
            # (an hlo constant: arith's takes signless integers only)
            zeros = ir.Operation.create(
                "stablehlo.constant", results=[t], attributes={"value": ir.DenseElementsAttr.get_splat(t, zero)}
            ).result
            if shift.offset > 0:  # fed from the offset on
                return _by_index(mesh, shift.axis, arith.CmpIPredicate.sge, shift.offset, moved, zeros)
            # fed below the axis's size plus the (negative) offset
            return _by_index(mesh, shift.axis, arith.CmpIPredicate.slt, shape[shift.axis] + shift.offset, moved, zeros)

    @staticmethod
    def ring(op: ir.Operation, value: ir.Value, t: ir.Type, mesh: str, ring: Ring, shape) -> ir.Value:
        """A rotation by k over two axes.  By whole rows of the minor axis
        (k a multiple of its n devices): a rotation by k / n along the major
        axis.  Otherwise each device sends its block straight to the device
        k places on (`ir.exchange.permuted`), as XLA's collective permute
        does: each block moves once, where a rotation along the minor axis
        and then the major one moves the wrapped blocks twice."""
        sizes = [shape[ring.major], shape[ring.minor]]
        q, r = divmod(ring.offset, sizes[1])
        with op.location, ir.InsertionPoint(op):
            if r == 0:
                return mesh_ops.shift(t, value, mesh, ring.major, q, mesh_axes=[ring.major], rotate=True)
            count = sizes[0] * sizes[1]
            perm = [(i + ring.offset) % count for i in range(count)]
            return permuted(value, mesh, sizes, [ring.major, ring.minor], perm)

    @staticmethod
    def partition_id(op: ir.Operation, mesh: str) -> ir.Value:
        """The device's number (`tensor<ui32>`): the mesh's linear index."""
        t = op.results[0].type
        if not isinstance(t, ir.RankedTensorType) or ir.RankedTensorType(t).rank != 0:
            raise FrontendError(f"'{op.name}' must make a 0-d tensor, got {t}")
        with op.location, ir.InsertionPoint(op):
            return _as_tensor(mesh_ops.process_linear_index(mesh), t)

    @staticmethod
    def axis_index(op: ir.Operation, mesh: str, shape: tuple[int, ...]) -> bool:
        """JAX's `axis_index` of one mesh axis, `(partition_id / stride) %
        size` (the division left out for the last axis): made the device's
        index along that axis, which varies along it alone (the linear index
        varies along every axis, and what reads it could not be laid out
        along the others).  False when the number is read otherwise."""
        uses = list(op.results[0].uses)
        if len(uses) != 1 or uses[0].operand_number != 0:
            return False
        dialect = op.name.partition(".")[0]
        reader, chain, stride = uses[0].owner.operation, [op], 1
        if reader.name == f"{dialect}.divide":
            stride = _scalar(reader.operands[1])
            after = list(reader.results[0].uses)
            if stride is None or len(after) != 1 or after[0].operand_number != 0:
                return False
            chain.append(reader)
            reader = after[0].owner.operation
        if reader.name != f"{dialect}.remainder":
            return False
        size = _scalar(reader.operands[1])
        axes = [a for a in range(len(shape)) if shape[a] == size > 1 and math.prod(shape[a + 1 :]) == stride]
        if len(axes) != 1:
            return False
        with reader.location, ir.InsertionPoint(reader):
            (index,) = mesh_ops.process_multi_index(mesh, axes=axes)
            made = _as_tensor(index, reader.results[0].type)
        reader.results[0].replace_all_uses_with(made)
        for dead in [reader, *reversed(chain)]:
            dead.erase()
        return True


def _as_tensor(index: ir.Value, t: ir.Type) -> ir.Value:
    """An index as the 0-d tensor `t` (JAX's `tensor<ui32>`), at the
    current insertion point."""
    i32 = ir.IntegerType.get_signless(32)
    number = ir.Operation.create("arith.index_cast", results=[i32], operands=[index]).result
    held = ir.Operation.create("tensor.from_elements", results=[ir.RankedTensorType.get([], i32)], operands=[number])
    return ir.Operation.create("stablehlo.convert", results=[t], operands=[held.result]).result


def _scalar(value: ir.Value) -> int | None:
    """The integer a 0-d hlo constant holds, else None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name.partition(".")[2] != "constant":
        return None
    attr = readable_attr(owner.operation, "value")
    if not isinstance(attr, ir.DenseIntElementsAttr) or ir.ShapedType(attr.type).rank != 0:
        return None
    return int(np.array(ir.DenseIntElementsAttr(attr)).item())


def _split_dims(split, mapping: sdy.MeshMapping):
    """(dimension, its mesh axes of more than one device, their devices)
    for each dimension of `split` those axes cut."""
    for dim, axes in enumerate(split):
        axes = tuple(a for a in axes if mapping.shape[a] > 1)
        if axes:
            yield dim, axes, math.prod(mapping.shape[a] for a in axes)


def _step(build, value: ir.Value, dim: int, size: int, mesh: str, axes, op: ir.Operation) -> ir.Value:
    """`build` (all_slice or all_gather) of `value` along `dim` to `size`, before `op`."""
    t = ir.RankedTensorType(value.type)
    shape = list(t.shape)
    shape[dim] = size
    result = ir.RankedTensorType.get(shape, t.element_type)
    return build(result, value, mesh, dim, mesh_axes=axes, loc=op.location, ip=ir.InsertionPoint(op))


def _kept(split, mapping: sdy.MeshMapping) -> Sharding:
    """A layout's split without the axes of size 1 (the ones no slice cuts)."""
    return Sharding(tuple(tuple(a for a in axes if mapping.shape[a] > 1) for axes in split))


def _by_index(mesh: str, axis: int, predicate, bound: int, chosen: ir.Value, other: ir.Value) -> ir.Value:
    """`chosen` on the devices whose index along `axis` compares to `bound`
    by `predicate`, `other` elsewhere (at the current insertion point)."""
    (index,) = mesh_ops.process_multi_index(mesh, axes=[axis])
    limit = arith.ConstantOp(ir.IndexType.get(), bound).result
    return arith.SelectOp(arith.CmpIOp(predicate, index, limit).result, chosen, other).result


def _int(op: ir.Operation, key: str) -> int:
    if key not in op.attributes or not isinstance(op.attributes[key], ir.IntegerAttr):
        raise FrontendError(f"'{op.name}' needs an integer {key}")
    return ir.IntegerAttr(op.attributes[key]).value
