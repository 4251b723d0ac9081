"""`mesh-partition` (alias `mesh-spmdization`): the global program with
complete annotations becomes the program every device runs.

Every tensor gets the type of one device's piece, and the signature with it;
each argument and result records its layout in `mesh.sharding`, the
attribute the simulator reads.  Ops with a sharding rule stay the same op on
local pieces: an op whose reduction loops are split leaves a partial result,
which stays partial as long as its annotation says so.  Every change of
layout (a `mesh.shard ... annotate_for_users` whose layout differs from its
value's) becomes the collectives the resharding planner
(`sharding.resharding`) returns; the `mesh.shard` and `mesh.sharding` ops
then disappear.

Arguments arrive partitioned by default; with `full-arguments` every device
receives whole arguments and slices its piece on entry (no communication).

A split reduction accumulates into its init on every device of the group,
so the init is kept on the group's first device only and replaced by the
reduction's neutral value elsewhere (unless it already is that value).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import field
from typing import ClassVar

import numpy as np
from mlir import ir
from mlir.dialects import arith, linalg, scf, tensor

from ...interfaces.choice import same_layout
from ...interfaces.registry import RuleCache
from ...interfaces.rules import Conflict, ShardingRule, option_from_shardings, shardings_from_option
from ...ir import ops as mesh_ops
from ...ir.syntax import encode_sharding_attr
from ...sharding.spec import IDEMPOTENT_KINDS, Mesh, Sharding
from ..base import Pass, element_bytes, meshes_and_functions, sharding_of
from ..propagation.sharding_propagation import OPTION_ATTR

_CARRIED = ("scf.for", "scf.if", "scf.execute_region")
"""Region ops whose results are carried through their regions: each carried
value has one layout across init, block argument, yielded values and result,
and partition reshards the init and every yielded value to it."""
_NOT_RULED = ("mesh.mesh", "mesh.sharding")
"""Mesh ops partition leaves alone (`mesh.shard` has its own rewrite); every
other mesh op is a collective or a query that already speaks of one device's
data."""
_CONSTANTS = ("arith.constant", "tosa.const", "mhlo.constant", "stablehlo.constant")


class _Unsupported(Exception):
    """Input partition cannot handle: reported at `loc` as an error."""

    def __init__(self, loc: ir.Location, message: str) -> None:
        super().__init__(message)
        self.loc = loc


@dataclasses.dataclass
class MeshPartition(Pass):
    ARGUMENT: ClassVar[str] = "mesh-partition"
    SUMMARY: ClassVar[str] = "Turn annotated functions into the program each device runs (SPMD)"
    DESCRIPTION: ClassVar[str] = (
        "Tensors get their per-device types, ops with a sharding rule run on local pieces, and every change of "
        "layout becomes the collectives of the resharding planner. mesh.shard and mesh.sharding ops disappear; "
        "arguments and results record their layout in mesh.sharding attributes. Alias: mesh-spmdization."
    )

    full_arguments: bool = field(
        default=False, metadata={"help": "arguments arrive whole and each device slices its piece on entry"}
    )

    def run(self, module: ir.Operation) -> None:
        meshes, functions = meshes_and_functions(module)
        annotated = {f.attributes["sym_name"].value for f in functions if _has_annotation(f)}
        for f in functions:
            try:
                _Partition(self, f, meshes, annotated).run()
            except _Unsupported as e:
                raise self.error(e.loc, str(e)) from None


def _has_annotation(func: ir.Operation) -> bool:
    found = False

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal found
        if op.name == "mesh.shard":
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    func.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


@dataclasses.dataclass
class MeshSpmdization(MeshPartition):
    """The pass under its former upstream name."""

    ARGUMENT: ClassVar[str] = "mesh-spmdization"


def _fmt(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


_WHOLE = Sharding(())
"""The layout of a value every device holds whole (built once: a hot default)."""


def _planner():
    """The resharding planner, imported on first use: it pulls in the
    simulator's collectives, which mesh-opt's start-up does not need."""
    from ...sharding import resharding

    return resharding


def _read_sharding(value: ir.Value) -> tuple[str, Sharding] | None:
    """(mesh, layout) of a `mesh.sharding` with static sizes, or None."""
    found = sharding_of(value)
    return None if found is None or found[2] else found[:2]


def sharding_attr(mesh: str, s: Sharding) -> ir.Attribute:
    text = encode_sharding_attr(
        "@" + mesh, s.split_axes or ((),), s.partial_axes, s.partial_type, s.halo_sizes, s.sharded_dims_offsets
    )
    return ir.Attribute.parse(text)


def _neutral(kind: str, element: ir.Type) -> float | int | None:
    """The value that leaves a reduction of `kind` unchanged, or None."""
    is_float = isinstance(element, ir.FloatType)
    if kind in ("sum", "bitwise_xor", "bitwise_or"):
        return 0.0 if is_float else 0
    if kind == "product":
        return 1.0 if is_float else 1
    if kind == "bitwise_and":
        return None if is_float else -1
    if kind == "max":
        return -math.inf if is_float else -(2 ** (ir.IntegerType(element).width - 1))
    if kind == "min":
        return math.inf if is_float else 2 ** (ir.IntegerType(element).width - 1) - 1
    return None


class _Partition:
    def __init__(
        self,
        pass_: MeshPartition,
        func: ir.Operation,
        meshes: dict[str, tuple[int, ...]],
        annotated: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        self.pass_ = pass_
        self.annotated = annotated  # functions this run partitions: their signatures change
        self.func = func
        self.meshes = meshes
        self.mesh_name: str | None = None
        self.mesh: Mesh | None = None
        self.layout: dict[ir.Value, Sharding] = {}  # global value -> its layout
        self.global_type: dict[ir.Value, ir.RankedTensorType] = {}
        self.whole: dict[ir.Value, ir.Value] = {}  # a sliced full argument -> the argument
        self.shardings: dict[ir.Value, tuple[str, Sharding] | None] = {}  # per run: values die with the IR
        self.returned: list[Sharding | None] | None = None  # result layouts, from the first func.return
        self.reshards: dict[tuple[ir.Value, Sharding, ir.Block], ir.Value] = {}  # one reshard per block
        self.rebuilt: list[ir.Value] = []  # values rebuilt in a layout instead of resharded
        # Real programs repeat a few signatures: local types, plans and fit
        # checks are memoized for the run (types are uniqued by the context).
        self.local_types: dict[tuple[ir.Type, Sharding], ir.Type] = {}
        self.plans: dict[tuple, object] = {}
        self.fitting: dict[tuple, bool] = {}

    # -- layouts ---------------------------------------------------------------

    def use_mesh(self, name: str, loc: ir.Location) -> None:
        if self.mesh_name is None:
            if name not in self.meshes:
                raise _Unsupported(loc, f"mesh @{name} does not exist")
            shape = self.meshes[name]
            if any(d < 0 for d in shape):
                raise _Unsupported(loc, f"mesh @{name} has dynamic sizes, which partition does not support")
            self.mesh_name, self.mesh = name, Mesh(shape)
        elif name != self.mesh_name:
            raise _Unsupported(loc, f"function uses meshes @{self.mesh_name} and @{name}; partition needs one mesh")

    def local_type(self, t: ir.Type, s: Sharding | None, loc: ir.Location) -> ir.Type:
        if s is None or not isinstance(t, ir.RankedTensorType):
            return t
        found = self.local_types.get((t, s))
        if found is None:
            found = self.local_types[(t, s)] = self.piece_type(t, s, loc)
        return found

    def piece_type(self, t: ir.RankedTensorType, s: Sharding, loc: ir.Location) -> ir.Type:
        assert self.mesh is not None
        if not t.has_static_shape:
            raise _Unsupported(loc, f"a tensor of dynamic size {t} cannot be partitioned yet (its layout is {s})")
        shape = list(t.shape)
        for d, axes in enumerate(s.split_axes):
            if not axes:
                continue
            n = math.prod(self.mesh.shape[a] for a in axes)
            if d >= len(shape):
                raise _Unsupported(loc, f"sharding {s} splits dimension {d} of a tensor of rank {len(shape)}")
            if shape[d] % n != 0 or s.sharded_dims_offsets:
                raise _Unsupported(
                    loc,
                    f"dimension {d} of size {shape[d]} does not split evenly over mesh axes {_fmt(axes)} "
                    f"({n} pieces); uneven pieces are not supported yet",
                )
        if s.halo_sizes:
            raise _Unsupported(loc, "halo sizes are not supported by partition yet")
        local = s.local_shape(tuple(shape), self.mesh, (0,) * self.mesh.rank)
        return ir.RankedTensorType.get(list(local), t.element_type, t.encoding, loc=loc)

    def read_sharding(self, value: ir.Value) -> tuple[str, Sharding] | None:
        if value not in self.shardings:
            self.shardings[value] = _read_sharding(value)
        return self.shardings[value]

    # -- running ---------------------------------------------------------------

    def run(self) -> None:
        ops: list[ir.Operation] = []
        names: list[str] = []
        func = self.func

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op == func:
                return ir.WalkResult.ADVANCE
            ops.append(op)
            name = op.name
            names.append(name)
            if name.startswith(("linalg.", "mhlo.", "stablehlo.")) and len(op.regions):
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        func.walk(visit, ir.WalkOrder.PRE_ORDER)
        # Layouts: each mesh.shard that annotates a value as produced.
        for op, name in zip(ops, names):
            if name != "mesh.shard":
                continue
            found = self.read_sharding(op.operands[1])
            if found is None:
                raise _Unsupported(op.location, "mesh.shard with a sharding that is not a static mesh.sharding")
            self.use_mesh(found[0], op.location)
            if "annotate_for_users" not in op.attributes:
                self.layout.setdefault(op.operands[0], found[1])
        if self.mesh is None:
            # Nothing annotated: every device runs the program as it is, but
            # it must not call a function whose signature partition changes.
            for op, name in zip(ops, names):
                if name == "func.call":
                    self.check_callee(op)
            return
        entry = func.regions[0].blocks[0]
        for block in list(func.regions[0].blocks)[1:]:
            # Values reach other blocks through branches, which pass them
            # whole; an annotation on such an argument becomes a reshard.
            for arg in block.arguments:
                self.layout.pop(arg, None)
        shardings = [op for op, name in zip(ops, names) if name == "mesh.sharding"]
        returns = [op for op, name in zip(ops, names) if name == "func.return"]
        # Rules read operand shapes, so they are taken before anything is retyped.
        cache = RuleCache.shared(func.context)
        rules = [None if name.startswith("mesh.") else cache.rule_for(op, name) for op, name in zip(ops, names)]
        self.arguments(entry)
        for op, name, rule in zip(ops, names, rules):
            self.rewrite(op, name, rule)
        for local, arg in self.whole.items():  # slices of full arguments nobody read
            while local != arg and not len(list(local.uses)):
                owner = local.owner
                local = owner.operands[0]
                owner.erase()
        self.erase_unused_inits()
        for op in reversed(shardings):
            if all(len(list(r.uses)) == 0 for r in op.results):
                op.erase()
        self.signature(entry, returns[0] if returns else None)

    def erase_unused_inits(self) -> None:
        """Whole inits that every user rebuilt in its own layout are dead.
        The candidates (each fill, then the empty it fills) are listed
        before anything is erased, and each op is erased at most once: an
        erased op must never be touched again."""
        values: dict[ir.Value, None] = {}  # by value: ops are compared only while alive
        for value in self.rebuilt:
            values[value] = None
            owner = value.owner
            if owner.name == "linalg.fill":
                values[owner.operands[1]] = None
        ops = [v.owner.operation for v in values]
        ops.sort(key=lambda op: op.name != "linalg.fill")  # users before what they use
        for op in ops:
            if not any(len(list(r.uses)) for r in op.results):
                op.erase()

    def arguments(self, entry: ir.Block) -> None:
        """An argument's layout: its own annotation, else the one its
        annotations for users agree on, else replicated."""
        for arg in entry.arguments:
            if not isinstance(arg.type, ir.RankedTensorType):
                continue
            if arg not in self.layout:
                wanted = []
                for use in arg.uses:
                    user = use.owner
                    if user.name == "mesh.shard" and "annotate_for_users" in user.attributes:
                        wanted.append(self.read_sharding(user.operands[1])[1])
                if wanted and all(w == wanted[0] for w in wanted) and not wanted[0].partial_axes:
                    self.layout[arg] = wanted[0]
            s = self.layout.get(arg)
            if s is None or s.is_replicated:
                continue
            if self.pass_.full_arguments:
                if s.partial_axes:
                    raise _Unsupported(self.func.location, "a whole argument cannot arrive as a partial value")
                if self.local_type(arg.type, s, arg.location) == arg.type:
                    continue  # split only over axes of size 1: the piece is the whole
                uses = [u for u in arg.uses]
                first = entry.operations[0]
                local = self.reshard(arg, arg.type, _WHOLE, s, ir.InsertionPoint(first), arg.location)
                self.layout[local] = s
                self.global_type[local] = arg.type
                self.whole[local] = arg
                self.layout[arg] = _WHOLE  # the argument itself is whole on every device
                for use in uses:
                    use.owner.operands[use.operand_number] = local
            else:
                self.global_type[arg] = arg.type
                arg.set_type(self.local_type(arg.type, s, self.annotation_location(arg)))

    def annotation_location(self, arg: ir.Value) -> ir.Location:
        """Where an argument's layout was written, for diagnostics."""
        for use in arg.uses:
            if use.owner.name == "mesh.shard":
                return use.owner.location
        return self.func.location

    def signature(self, entry: ir.Block, terminator: ir.Operation | None) -> None:
        ftype = ir.FunctionType(ir.TypeAttr(self.func.attributes["function_type"]).value)
        inputs = [a.type for a in entry.arguments]
        results = [v.type for v in terminator.operands] if terminator is not None else list(ftype.results)
        self.func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))
        assert self.mesh_name is not None
        # Every tensor of a partitioned signature says its layout, replicated
        # ones too, so a function whose values all end up whole still reads
        # as a per-device program (the simulator runs it on every device).
        # With full-arguments, arguments arrive whole and carry nothing.
        replicated = sharding_attr(self.mesh_name, _WHOLE)
        arg_attrs = []
        for arg in entry.arguments:
            s = self.layout.get(arg)
            entries = {}
            if not self.pass_.full_arguments and isinstance(arg.type, ir.RankedTensorType):
                entries["mesh.sharding"] = replicated if s is None else sharding_attr(self.mesh_name, s)
            arg_attrs.append(ir.DictAttr.get(entries))
        res_attrs = []
        for v in terminator.operands if terminator is not None else []:
            s = self.layout.get(v)
            entries = {}
            if isinstance(v.type, ir.RankedTensorType):
                entries["mesh.sharding"] = replicated if s is None else sharding_attr(self.mesh_name, s)
            res_attrs.append(ir.DictAttr.get(entries))
        self.func.attributes["arg_attrs"] = ir.ArrayAttr.get(arg_attrs)
        self.func.attributes["res_attrs"] = ir.ArrayAttr.get(res_attrs)

    # -- one op ------------------------------------------------------------------

    def rewrite(self, op: ir.Operation, name: str, rule: ShardingRule | None) -> None:
        if name == "mesh.shard":
            self.shard(op)
            return
        if name.startswith("mesh."):
            if name not in _NOT_RULED:
                self.check_collective(op)
            return
        if name == "func.return":
            self.func_return(op)
            return
        if OPTION_ATTR in op.attributes:
            del op.attributes[OPTION_ATTR]
        if name in _CONSTANTS:
            self.constant(op)
            return
        if name == "func.call":
            self.call(op)
            return
        if name in _CARRIED:
            self.carried(op)
            return
        if name == "scf.yield" and op.parent.name in _CARRIED:
            self.carried_yield(op)
            return
        if rule is None:
            self.without_rule(op)
            return
        self.check_fits(op, rule)
        self.fix_init(op, rule)
        for r in op.results:
            s = self.layout.get(r)
            if s is not None:
                self.global_type[r] = r.type
                r.set_type(self.local_type(r.type, s, op.location))
        _localize(op)

    # -- values carried through regions --------------------------------------

    def carried(self, op: ir.Operation) -> None:
        """One layout per carried value: the result's annotation, else the
        block argument's, else whole.  The init is resharded to it here, the
        yielded values at their `scf.yield` (`carried_yield`)."""
        results = list(op.results)
        block_args: list[ir.Value | None] = [None] * len(results)
        if op.name == "scf.for":
            block_args = list(op.regions[0].blocks[0].arguments)[1:]
        for region in op.regions:
            if len(region.blocks) > 1:
                raise _Unsupported(
                    op.location,
                    f"partition needs single-block regions: '{op.name}' has a region of {len(region.blocks)} blocks",
                )
        for k, r in enumerate(results):
            arg = block_args[k]
            s = self.layout.get(r)
            if s is None and arg is not None:
                s = self.layout.get(arg)
            for v in (r, arg):
                if v is None:
                    continue
                if s is None:
                    self.layout.pop(v, None)
                else:
                    self.layout[v] = s
                    self.global_type[v] = v.type
                    v.set_type(self.local_type(v.type, s, op.location))
            if op.name == "scf.for":
                self.reshard_operand(op, 3 + k, s, ir.InsertionPoint(op), op.location)

    def carried_yield(self, op: ir.Operation) -> None:
        parent = op.parent
        for k, r in enumerate(parent.results):
            self.reshard_operand(op, k, self.layout.get(r), ir.InsertionPoint(op), op.location)

    def reshard_operand(
        self, op: ir.Operation, i: int, target: Sharding | None, ip: ir.InsertionPoint, loc: ir.Location
    ) -> bool:
        """Make operand `i` of `op` arrive in layout `target` (None: whole);
        True if that took a reshard."""
        v = op.operands[i]
        if not isinstance(v.type, ir.RankedTensorType):
            return False
        new = self.in_layout(v, target or _WHOLE, op, ip, loc)
        if new == v:
            return False
        op.operands[i] = new
        return True

    def in_layout(self, v: ir.Value, target: Sharding, user: ir.Operation, ip, loc: ir.Location) -> ir.Value:
        """`v` in layout `target` for `user`: itself when it already is, the
        whole of a sliced full argument when that is what `target` asks,
        else a reshard (from the whole for a sliced full argument)."""
        source = self.layout.get(v, _WHOLE)
        if source == target:
            return v
        if v in self.whole:
            v, source = self.whole[v], _WHOLE
            if source == target:
                return v
        return self.resharded(v, source, target, user, ip, loc)

    def resharded(
        self, v: ir.Value, source: Sharding, target: Sharding, user: ir.Operation, ip, loc: ir.Location
    ) -> ir.Value:
        """`v` in layout `target`: resharded once per block, where the first
        reshard (in front of an earlier op of the block) serves every later
        user in that block."""
        block = user.block
        key = (v, target, block)
        new = self.reshards.get(key)
        while new is None:
            # A reshard made in an enclosing block sits before the region op
            # holding this user (ops are visited in order), so it dominates.
            parent = block.owner
            if parent is None or parent.operation == self.func:
                break
            block = parent.operation.block
            new = self.reshards.get((v, target, block))
        if new is None:
            global_type = self.global_type.get(v, v.type)
            if ip is None:  # made here, only when a reshard is needed
                ip, loc = ir.InsertionPoint(user), user.location
            new = self.reshards[key] = self.reshard(v, global_type, source, target, ip, loc)
            if not target.is_replicated:
                self.layout[new] = target
                self.global_type[new] = global_type
        return new

    def func_return(self, op: ir.Operation) -> None:
        """The first `func.return` sets the layouts of the results; any other
        one (in another block) is resharded to them."""
        if self.returned is None:
            self.returned = [self.layout.get(v) for v in op.operands]
            return
        for i, s in enumerate(self.returned):
            self.reshard_operand(op, i, s, ir.InsertionPoint(op), op.location)

    # -- ops without a rule ---------------------------------------------------

    def without_rule(self, op: ir.Operation) -> None:
        """An op with no sharding rule runs on whole values: sharded operands
        are gathered in front of it, and its results, block arguments and
        terminator operands are whole (an annotation on them reshards)."""
        gathered = []
        for i, v in enumerate(op.operands):
            s = self.layout.get(v)
            if self.reshard_operand(op, i, None, ir.InsertionPoint(op), op.location):
                gathered.append(f"operand {i} ({s})")
        if gathered:
            self.pass_.remark(
                op.location,
                f"no sharding rule for '{op.name}': {', '.join(gathered)} gathered whole on every device",
            )
        for r in op.results:
            self.layout.pop(r, None)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    self.layout.pop(arg, None)

    def check_collective(self, op: ir.Operation) -> None:
        """A collective already speaks of one device's data: its operands and
        results must not be values partition would split."""
        for what, values in (("operand", op.operands), ("result", op.results)):
            for i, v in enumerate(values):
                s = self.layout.get(v)
                if s is not None and not s.is_replicated:
                    raise _Unsupported(
                        op.location,
                        "a collective already works on one device's data, so its values cannot be partitioned: "
                        f"'{op.name}' {what} {i} is annotated {s}",
                    )

    def check_fits(self, op: ir.Operation, rule: ShardingRule) -> None:
        """The layouts around an op must be the ones one loop sharding of it
        implies, or running it on local pieces computes garbage.  When the
        operands do not fit (propagation never reached the op, or an upstream
        pass rebuilt it), the loop sharding comes from the results alone and
        the operands are resharded to it; results that conflict are refused."""
        replicated = _WHOLE
        operands = [
            None if m is None else self.layout.get(v, replicated) for v, m in zip(op.operands, rule.operand_maps)
        ]
        results = [None if m is None else self.layout.get(r, replicated) for r, m in zip(op.results, rule.result_maps)]
        if self.fits(rule, operands, results):
            return
        option = option_from_shardings(rule, [None] * len(operands), results)
        if isinstance(option, Conflict):
            detail = str(option)
        else:
            need_operands, need_results = shardings_from_option(rule, option)
            bad = [
                (i, have, need)
                for i, (have, need) in enumerate(zip(results, need_results))
                if have is not None and not same_layout(have, need)
            ]
            if not bad:
                moved = []
                for i, (have, need) in enumerate(zip(operands, need_operands)):
                    if have is not None and not same_layout(have, need):
                        self.reshard_operand(op, i, need, ir.InsertionPoint(op), op.location)
                        moved.append(f"operand {i} from {have} to {need}")
                self.pass_.remark(
                    op.location,
                    f"the operands of '{op.name}' do not fit the layouts of its results: {', '.join(moved)} resharded",
                )
                return
            i, have, need = bad[0]
            detail = f"result {i} is {have} but the op's loop sharding needs {need}"
        raise _Unsupported(
            op.location,
            f"the layouts around '{op.name}' do not fit its sharding rule: {detail}; "
            "run sharding-propagation first to complete the annotations",
        )

    def fits(self, rule: ShardingRule, operands: list[Sharding | None], results: list[Sharding | None]) -> bool:
        """Whether one loop sharding gives exactly these layouts."""
        key = (id(rule), tuple(operands), tuple(results))  # rules come from one RuleCache: one object each
        found = self.fitting.get(key)
        if found is None:
            found = self.fitting[key] = _fits(rule, operands, results)
        return found

    def check_callee(self, op: ir.Operation) -> None:
        callee = op.attributes["callee"].value if "callee" in op.attributes else None
        if callee in self.annotated:
            raise _Unsupported(
                op.location,
                f"calls into a function that is partitioned too are not supported yet: @{callee} is annotated, "
                "so its signature becomes per-device",
            )

    def call(self, op: ir.Operation) -> None:
        """A callee is its own function, with whole values: sharded arguments
        are gathered before the call, and its results are whole.  A callee
        this run partitions takes pieces instead, which calls do not yet
        pass: refused rather than emitted with mismatched types."""
        self.check_callee(op)
        for i in range(len(op.operands)):
            self.reshard_operand(op, i, None, ir.InsertionPoint(op), op.location)
        for r in op.results:
            self.layout.pop(r, None)  # whole: an annotation on it reshards

    def shard(self, op: ir.Operation) -> None:
        """An annotation becomes the collectives from its value's layout to
        the one it names: for users, or a second result annotation that
        disagrees with the first (as `cse` makes by merging two annotated
        values), or a result annotation on a value produced whole."""
        operands = op.operands
        src, result = operands[0], op.result
        if next(iter(result.uses), None) is None:
            self.forget(result)
            op.erase()  # nobody reads this layout: nothing to move
            return
        found = self.read_sharding(operands[1])
        assert found is not None
        result.replace_all_uses_with(self.in_layout(src, found[1], op, None, None))
        self.forget(result)
        op.erase()

    def forget(self, value: ir.Value) -> None:
        """Drop what is known of a value about to be erased: MLIR may give its
        address to a value created later."""
        self.layout.pop(value, None)
        self.global_type.pop(value, None)

    def reshard(
        self, value: ir.Value, global_type: ir.Type, source: Sharding, target: Sharding, ip, loc: ir.Location
    ) -> ir.Value:
        rs = _planner()
        assert self.mesh is not None and self.mesh_name is not None
        t = ir.RankedTensorType(global_type)
        self.local_type(t, source, loc)  # divisibility
        local = self.local_type(t, target, loc)
        if not target.partial_axes:
            rebuilt = _rebuilt_in(value, local, ip, loc)
            if rebuilt is not None:
                self.rebuilt.append(value)
                return rebuilt
        key = (t, source, target)
        plan = self.plans.get(key)
        if plan is None:
            try:
                plan = rs.plan_resharding(
                    tuple(t.shape), self.mesh.shape, source, target, element_bytes=element_bytes(t)
                )
            except ValueError as e:
                raise _Unsupported(loc, f"cannot reshard from {source} to {target}: {e}") from None
            self.plans[key] = plan
        self.warn_whole_argument(value, t, source, target, plan.bytes_received, loc)
        current = value
        with loc:
            for step, after in zip(plan.steps, plan.intermediate):
                out = self.local_type(t, after, loc)
                current = self.emit(step, current, out, ip, loc)
            if current == value:
                # The layouts differ only in name (size-1 axes, an idempotent
                # partial): the data is the same, but the value under its
                # other name needs its own SSA value to carry that layout.
                current = tensor.CastOp(current.type, current, ip=ip).result
        return current

    def warn_whole_argument(
        self, value: ir.Value, t: ir.RankedTensorType, source: Sharding, target: Sharding, moved: int, loc
    ) -> None:
        """A function argument that arrives split but is gathered whole is
        usually a weight every device then holds: say so at the annotation
        (or op) that asks for it, with what it costs."""
        if not isinstance(value, ir.BlockArgument) or moved == 0:
            return
        if not any(source.split_axes) or any(target.split_axes):
            return
        if value.owner != self.func.regions[0].blocks[0]:
            return
        self.pass_.warning(
            loc,
            f"function argument {value.arg_number} ({t}, {source}) is gathered whole on every device here: "
            f"{moved} bytes received per device",
        )

    def emit(self, step, value: ir.Value, out: ir.Type, ip, loc: ir.Location) -> ir.Value:
        rs = _planner()
        m = self.mesh_name
        axes = list(step.axes)
        assert self.mesh is not None
        if math.prod(self.mesh.shape[a] for a in axes) == 1 and value.type == out:
            return value  # a group of one device: nothing to do
        if isinstance(step, rs.AllReduce):
            return mesh_ops.AllReduceOp(out, value, m, mesh_axes=axes, reduction=step.kind, loc=loc, ip=ip).result
        if isinstance(step, rs.ReduceScatter):
            return mesh_ops.ReduceScatterOp(
                out, value, m, step.dim, mesh_axes=axes, reduction=step.kind, loc=loc, ip=ip
            ).result
        if isinstance(step, rs.AllGather):
            return mesh_ops.AllGatherOp(out, value, m, step.dim, mesh_axes=axes, loc=loc, ip=ip).result
        if isinstance(step, rs.AllSlice):
            return mesh_ops.AllSliceOp(out, value, m, step.dim, mesh_axes=axes, loc=loc, ip=ip).result
        if isinstance(step, rs.AllToAll):
            return mesh_ops.AllToAllOp(
                out, value, m, step.split_dim, step.concat_dim, mesh_axes=axes, loc=loc, ip=ip
            ).result
        if isinstance(step, rs.Permute):
            return self.permute(step, value, ip, loc)
        if isinstance(step, rs.Partialize):
            element = ir.RankedTensorType(value.type).element_type
            if step.kind in IDEMPOTENT_KINDS or (step.kind == "average" and isinstance(element, ir.FloatType)):
                # Every device may hold the value itself: the average of n
                # float copies is the value.
                return value
            if step.kind == "average":
                # Integer terms are summed in their own type: n copies of a
                # large value wrap, and no other terms can average to it.
                raise _Unsupported(
                    loc,
                    f"an average partial of {element} cannot be made from a whole value: its terms are summed "
                    f"in {element}, where n copies of a large value overflow",
                )
            neutral = _neutral(step.kind, element)
            if neutral is None:
                raise _Unsupported(loc, f"a {step.kind} partial value cannot be made from a whole one")
            return self.first_only(value, list(step.axes), neutral, ip, loc)
        raise _Unsupported(loc, f"the planner returned a step mesh-partition cannot emit: {step}")

    def permute(self, step, value: ir.Value, ip, loc: ir.Location) -> ir.Value:
        """Device i of each group sends its piece to perm[i] and receives from
        perm^-1[i].  Send and receive meet, so along each cycle of the
        permutation devices at even positions send first and those at odd
        positions receive first; devices that keep their piece do nothing."""
        assert self.mesh is not None and self.mesh_name is not None
        perm = list(step.perm)
        n = len(perm)
        inverse = [0] * n
        for i, p in enumerate(perm):
            inverse[p] = i
        position = [0] * n
        seen = [False] * n
        for start in range(n):
            if seen[start]:
                continue
            k, i = 0, start
            while not seen[i]:
                seen[i] = True
                position[i] = k
                k += 1
                i = perm[i]
        sizes = [self.mesh.shape[a] for a in step.axes]
        idx_type = ir.IndexType.get()
        t = value.type
        with ip, loc:
            index = mesh_ops.ProcessMultiIndexOp(self.mesh_name, axes=list(step.axes)).operation.results
            linear = None
            for i, size in enumerate(sizes):
                term = index[i]
                if linear is None:
                    linear = term
                else:
                    c = arith.ConstantOp(idx_type, size).result
                    linear = arith.AddIOp(arith.MulIOp(linear, c).result, term).result

            def table(values: list[int]) -> ir.Value:
                attr = ir.DenseElementsAttr.get(
                    np.array(values, dtype=np.int64), type=ir.RankedTensorType.get([n], idx_type, loc=loc)
                )
                return tensor.ExtractOp(arith.ConstantOp(attr.type, attr).result, [linear]).result

            def multi(lin: ir.Value) -> list[ir.Value]:
                out = []
                rest = lin
                for size in reversed(sizes):
                    c = arith.ConstantOp(idx_type, size).result
                    out.append(arith.RemUIOp(rest, c).result)
                    rest = arith.DivUIOp(rest, c).result
                return list(reversed(out))

            target = table(perm)
            dest = multi(target)
            source = multi(table(inverse))
            moves = arith.CmpIOp(arith.CmpIPredicate.ne, target, linear).result
            even = arith.CmpIOp(
                arith.CmpIPredicate.eq,
                arith.RemUIOp(table(position), arith.ConstantOp(idx_type, 2).result).result,
                arith.ConstantOp(idx_type, 0).result,
            ).result
            outer = scf.IfOp(moves, [t], has_else=True)
            with ir.InsertionPoint(outer.then_block):
                inner = scf.IfOp(even, [t], has_else=True)
                with ir.InsertionPoint(inner.then_block):
                    mesh_ops.SendOp(t, value, self.mesh_name, mesh_axes=list(step.axes), destination=dest)
                    got = mesh_ops.RecvOp(t, value, self.mesh_name, mesh_axes=list(step.axes), source=source).result
                    scf.YieldOp([got])
                with ir.InsertionPoint(inner.else_block):
                    got = mesh_ops.RecvOp(t, value, self.mesh_name, mesh_axes=list(step.axes), source=source).result
                    mesh_ops.SendOp(t, value, self.mesh_name, mesh_axes=list(step.axes), destination=dest)
                    scf.YieldOp([got])
                scf.YieldOp([inner.results[0]])
            with ir.InsertionPoint(outer.else_block):
                scf.YieldOp([value])
        return outer.results[0]

    def constant(self, op: ir.Operation) -> None:
        r = op.results[0]
        s = self.layout.get(r)
        if s is None or s.is_replicated or not isinstance(r.type, ir.RankedTensorType):
            return
        attr_name = "value" if "value" in op.attributes else "values"
        attr = op.attributes[attr_name] if attr_name in op.attributes else None
        if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat and not s.partial_axes:
            local = self.local_type(r.type, s, op.location)
            op.attributes[attr_name] = ir.DenseElementsAttr.get_splat(local, attr.get_splat_value())
            self.global_type[r] = r.type
            r.set_type(local)
            return
        # A non-splat constant is built whole on every device and sliced.
        uses = [(u.owner, u.operand_number) for u in r.uses]
        new = self.reshard(r, r.type, _WHOLE, s, ir.InsertionPoint.after(op), op.location)
        for owner, i in uses:
            owner.operands[i] = new
        self.layout[new] = s
        self.layout.pop(r, None)
        self.global_type[new] = r.type

    def first_only(self, value: ir.Value, axes: list[int], neutral, ip, loc: ir.Location) -> ir.Value:
        """`value` on the first device of each group along `axes`, the
        neutral value `neutral` on the others: the terms of a partial value
        whose total is `value`."""
        t = ir.RankedTensorType(value.type)
        with ip, loc:
            index = mesh_ops.ProcessMultiIndexOp(self.mesh_name, axes=axes).operation.results
            zero = arith.ConstantOp(ir.IndexType.get(), 0).result
            first = None
            for v in index:
                eq = arith.CmpIOp(arith.CmpIPredicate.eq, v, zero).result
                first = eq if first is None else arith.AndIOp(first, eq).result
            choice = scf.IfOp(first, [t], has_else=True)
            with ir.InsertionPoint(choice.then_block):
                scf.YieldOp([value])
            with ir.InsertionPoint(choice.else_block):
                scalar = arith.ConstantOp(t.element_type, neutral).result
                empty = tensor.EmptyOp(list(t.shape), t.element_type).result
                scf.YieldOp([linalg.fill(scalar, outs=[empty])])
        return choice.results[0]

    def fix_init(self, op: ir.Operation, rule: ShardingRule) -> None:
        """Keep a split reduction's init on the group's first device only."""
        if not op.name.startswith("linalg.") or not len(op.results):
            return
        out = self.layout.get(op.results[0])
        if out is None or not out.partial_axes or out.partial_type in IDEMPOTENT_KINDS:
            return  # the init may be folded in on every device
        n_inits = len(op.results)
        operands = list(op.operands)
        for k in range(n_inits):
            i = len(operands) - n_inits + k
            init = operands[i]
            neutral = _neutral(out.partial_type, ir.RankedTensorType(init.type).element_type)
            if neutral is None:
                raise _Unsupported(op.location, f"a split {out.partial_type} reduction has no neutral value")
            if _is_fill_of(init, neutral):
                continue
            kept = self.first_only(init, list(out.partial_axes), neutral, ir.InsertionPoint(op), op.location)
            op.operands[i] = kept
            self.layout[kept] = self.layout.get(init, _WHOLE)


def _dense_i64(values) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _localize(op: ir.Operation) -> None:
    """Attributes and operands that spell out the global sizes of an op whose
    types partition made local: slices' sizes, reshapes' target shapes."""
    name = op.name
    if name in ("tensor.extract_slice", "tensor.insert_slice"):
        # The rule splits only dimensions the slice covers whole: a size
        # larger than the (now local) full tensor's is one of those.
        full = ir.RankedTensorType(op.operands[0].type if name == "tensor.extract_slice" else op.operands[1].type)
        sizes = list(op.attributes["static_sizes"])
        for d, size in enumerate(sizes):
            if size >= 0 and d < full.rank and full.shape[d] < size:
                sizes[d] = full.shape[d]
        op.attributes["static_sizes"] = _dense_i64(sizes)
    elif name == "tensor.expand_shape":
        op.attributes["static_output_shape"] = _dense_i64(ir.RankedTensorType(op.results[0].type).shape)
    elif name == "tosa.reshape":
        shape = ir.RankedTensorType(op.results[0].type).shape
        with op.location, ir.InsertionPoint(op):
            attr = ir.DenseElementsAttr.get(
                np.array(shape, dtype=np.int64), type=ir.RankedTensorType.get([len(shape)], ir.IndexType.get())
            )
            const = ir.Operation.create("tosa.const_shape", results=[op.operands[1].type], attributes={"values": attr})
        old = op.operands[1]
        op.operands[1] = const.results[0]
        if not len(list(old.uses)) and isinstance(old.owner, ir.Operation | ir.OpView):
            old.owner.erase()  # visited already: it comes before its use


def _fits(rule: ShardingRule, operands: list[Sharding | None], results: list[Sharding | None]) -> bool:
    option = option_from_shardings(rule, operands, results)
    if isinstance(option, Conflict):
        return False
    need_operands, need_results = shardings_from_option(rule, option)
    return all(
        have is None or same_layout(have, need)
        for have, need in zip([*operands, *results], [*need_operands, *need_results])
    )


def _rebuilt_in(value: ir.Value, local: ir.Type, ip, loc: ir.Location) -> ir.Value | None:
    """`value` made again in the local type `local`, when every piece of it
    is the same thing as the whole: a splat constant, a `tensor.empty`, or a
    `linalg.fill` of one with a scalar.  Such a value (typically an init)
    then costs neither communication nor a whole copy on every device."""
    splat = _splat_constant(value)
    owner = value.owner
    with ip, loc:
        if splat is not None:
            name, attr_name, scalar = splat
            attr = ir.DenseElementsAttr.get_splat(local, scalar)
            return ir.Operation.create(name, results=[local], attributes={attr_name: attr}).result
        if not isinstance(owner, ir.OpView | ir.Operation) or not ir.RankedTensorType(local).has_static_shape:
            return None
        t = ir.RankedTensorType(local)
        if owner.name == "tensor.empty" and not len(owner.operands):
            return tensor.EmptyOp(list(t.shape), t.element_type).result
        if owner.name == "linalg.fill" and len(owner.operands) == 2 and len(owner.results) == 1:
            init = owner.operands[1].owner
            if isinstance(init, ir.OpView | ir.Operation) and init.name == "tensor.empty" and not len(init.operands):
                empty = tensor.EmptyOp(list(t.shape), t.element_type).result
                # a clone keeps the fill's body; only its init and type change
                fill = owner.operation.clone(ip)
                fill.operands[1] = empty
                fill.results[0].set_type(local)
                return fill.results[0]
    return None


def _splat_constant(value: ir.Value) -> tuple[str, str, ir.Attribute] | None:
    """(op name, attribute name, element) of a splat tensor constant."""
    owner = value.owner
    if not isinstance(owner, ir.OpView | ir.Operation) or owner.name not in _CONSTANTS:
        return None
    for attr_name in ("value", "values"):
        if attr_name in owner.attributes:
            attr = owner.attributes[attr_name]
            if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
                return owner.name, attr_name, attr.get_splat_value()
    return None


def _is_fill_of(value: ir.Value, neutral) -> bool:
    owner = value.owner
    if not isinstance(owner, ir.OpView | ir.Operation) or owner.name != "linalg.fill":
        return False
    scalar = owner.operands[0].owner
    if not isinstance(scalar, ir.OpView | ir.Operation) or scalar.name != "arith.constant":
        return False
    attr = scalar.attributes["value"]
    try:
        return float(attr.value) == float(neutral)
    except (AttributeError, TypeError, ValueError):
        return False


__all__ = ["MeshPartition", "MeshSpmdization", "sharding_attr"]
