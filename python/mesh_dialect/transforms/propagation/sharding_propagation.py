"""`sharding-propagation`: complete the sharding annotations of functions.

Users annotate a few values with `mesh.shard`; this pass chooses, for every
op that has a sharding rule (`mesh_dialect.interfaces`), how its loops are
split over the mesh, records that choice on the op as
`mesh.sharding_option`, and materializes it:

- each tensor result gets one `mesh.shard` (its layout as produced), and all
  its uses go through it;
- each operand whose layout differs from what the op needs gets a
  `mesh.shard ... annotate_for_users` in front of the op (a reshard point).

Two solvers choose.  `cost` (the default) extracts the function into a
plain graph (`graph.py`) and picks the choices that move the fewest bytes
over the whole function (`solver.py`).  `sweep` is upstream's search
(`interfaces.choice.choose`): ops visited in program order (`forward`), in
reverse (`backward`) or both, as upstream's `traversal` option says; with
`fixed-point` (default) the sweeps repeat until one changes nothing.
Annotations only ever get added, so a second run changes nothing.

Values carried through `scf.for`, `scf.if`, `scf.execute_region`,
`scf.while` and an hlo `while` share one layout across the init, the block
arguments, the yielded values and the result (`ir.control.carried`).

An annotation present before the pass is explicit: it is never replaced;
where the chosen layouts differ from it, the difference is resharded.  With
`explain`, each reshard point gets a remark: its bytes and the op's choice
(cost), or the annotations that forced it (sweep).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mlir import ir

from ...interfaces.choice import Choice, Request, choice_from_option, choose, same_placement
from ...interfaces.registry import RuleCache, RuleError, knows, rule_always_exists
from ...interfaces.rules import (
    Crop,
    ShardingRule,
    cheapest_crop_cut,
    option_from_lists,
    option_to_lists,
    validate_option,
)
from ...ir import ops as mesh_ops
from ...ir.asm import remap_location
from ...ir.control import (
    CARRIED_OPS,
    HLO_BARRIERS,
    HLO_REGION_OPS,
    LOOP_OPS,
    ancestors,
    carried,
    layout_holder,
    malformed,
)
from ...ir.per_device import Callees, is_collective, may_vary, per_device_values, read_by_collective
from ...ir.schema import DYNAMIC
from ...ir.signature import op_address
from ...ir.syntax import Unprintable, decode_sharding_attr, encode_sharding_attr
from ...sharding.spec import Mesh, Sharding
from ..base import LOCAL_MESH, Pass, PassFailed, element_bytes, mesh_scopes, redefined_mesh, sharding_of
from .graph import (
    ANY_MESH,
    LATER,
    costed_mesh,
    costed_value,
    empty_loops_of,
    extract,
    rebuilds_from,
    uneven_kind,
    uneven_loops_of,
)
from .solver import CAPTURED, IMPOSSIBLE, REPLICATED, Graph, Layout, Solver, bytes_moved
from .solver import Value as GraphValue

OPTION_ATTR = "mesh.sharding_option"
"""The attribute an op's loop sharding is recorded in:
`#mesh.sharding<@mesh, [[axes of loop 0], [axes of loop 1], ...]>`."""

SOLVERS = ("cost", "sweep")
TRAVERSALS = ("forward", "backward", "forward-backward", "backward-forward")
_SWEEPS = {
    "forward": (False,),
    "backward": (True,),
    "forward-backward": (False, True),
    "backward-forward": (True, False),
}
_MAX_ROUNDS = 64
_LATER_NAMES = ("tensor.empty", "linalg.fill")
_BRANCHES = ("cf.br", "cf.cond_br")
_SKIPPED_TERMINATORS = ("scf.yield", "scf.condition", *_BRANCHES)
_HLO_RETURNS = ("stablehlo.return", "mhlo.return")
_ANY_LAYOUT = frozenset({"tensor.dim", "tensor.extract"})
"""Ops without a rule that partition handles whatever their operand's layout
(a `tensor.dim` of a split value becomes the whole tensor's size; a
`tensor.extract` reads its tensor gathered whole, a cost the solver
prices): no error when that operand is sharded."""


@dataclass(eq=False, slots=True)
class Ann:
    """A `mesh.shard` op as propagation sees it."""

    op: ir.Operation
    src: ir.Value
    value: ir.Value
    mesh: str
    sharding: Sharding
    for_users: bool
    explicit: bool
    origin: tuple[ir.Location, ...]  # the explicit annotations behind it (kept with `explain`)
    pending: str = ""  # with `explain`: the remark to give if this turns out to reshard
    bypasses: Ann | None = None  # a losing annotation for users this one replaces


@dataclasses.dataclass
class ShardingPropagation(Pass):
    ARGUMENT: ClassVar[str] = "sharding-propagation"
    SUMMARY: ClassVar[str] = "Complete sharding annotations from the ops' sharding rules"
    DESCRIPTION: ClassVar[str] = (
        "Every op with a sharding rule gets a loop sharding (recorded as mesh.sharding_option), its tensor results "
        "a mesh.shard, and each operand that must change layout a mesh.shard annotate_for_users. Explicit "
        "annotations are never replaced. solver=cost chooses the loop shardings that move the fewest bytes over "
        "the function; solver=sweep is upstream's search, whose sweep order traversal picks and fixed-point "
        "repeats until nothing changes."
    )

    solver: str = field(
        default="cost",
        metadata={
            "help": "how loop shardings are chosen: cost (fewest bytes moved over the whole function) or sweep "
            "(upstream's op-by-op search, for parity)",
            "choices": SOLVERS,
        },
    )
    traversal: str = field(
        default="backward-forward",
        metadata={"help": "order of the sweeps over each function (solver=sweep)", "choices": TRAVERSALS},
    )
    fixed_point: bool = field(default=True, metadata={"help": "repeat the sweeps until nothing changes (solver=sweep)"})
    explain: bool = field(default=False, metadata={"help": "emit a remark at each reshard point naming its causes"})
    skip_unknown: bool = field(
        default=False, metadata={"help": "treat ops with no sharding rule as barriers instead of failing"}
    )

    def run(self, module: ir.Operation) -> None:
        failed = False
        rules = RuleCache.shared(module.context)
        self.callees = Callees()  # (this run's: which functions may compute per-device values)
        for shapes, functions in mesh_scopes(module):
            for f in functions:
                try:
                    _Function(self, f, shapes, rules).run()
                except PassFailed:
                    failed = True
        if failed:
            raise PassFailed("sharding propagation failed")


def _same_arrival(a: Sharding, b: Sharding) -> bool:
    """Whether a value in layout `a` needs no annotation to be read in `b`:
    the same local array (split, partial, halos) cut at the same places.
    Choosing an option reads no offsets, but partition lines pieces up by
    them: an operand cut by offsets where the op runs evenly needs its
    reshard annotated (else partition refuses the pieces)."""
    if a is b:  # (layouts the solver chose and the annotations it made share objects)
        return True
    return same_placement(a, b) and a.sharded_dims_offsets == b.sharded_dims_offsets


def _with_cut(need: Sharding, v: ir.Value, cut: dict, mesh: Mesh) -> Sharding:
    """`need` cut where `offsets_cut` says: each split dimension of `v` as
    the op's other values of its size and mesh axes are cut (by default
    where none is), unchanged when no dimension has such a cut, or when
    `need` has halos (a layout holds halos or offsets, never both: partition
    names the pieces that cannot line up)."""
    if need.sharded_dims_offsets or need.halo_sizes:
        return need
    t = v.type
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return need  # partition takes offsets on static tensors only
    return _cut_along(need, t.shape, cut, mesh)


def _cut_along(need: Sharding, shape: Sequence[int], cut: dict, mesh: Mesh) -> Sharding:
    """`_with_cut` for a value of static shape `shape`."""
    offsets: list[int] = []
    found = False
    for d in need.sharded_dims():
        if d >= len(shape):
            return need
        given = cut.get((shape[d], need.split_axes[d]))
        found = found or given is not None
        offsets += given if given is not None else need.cut(d, shape[d], mesh)
    return dataclasses.replace(need, sharded_dims_offsets=tuple(offsets)) if found else need


def _note_cuts(found: dict, s: Sharding, shape: Sequence[int], dims: list[int], mesh: Mesh) -> None:
    """Record in `found` the offsets `s` cuts each of `dims` of a value of
    `shape` into, per (size, split axes); a key two annotations cut
    differently maps to None (`_agreed` leaves it out)."""
    for d in dims:
        key, offsets = (shape[d], s.split_axes[d]), s.cut(d, shape[d], mesh)
        found[key] = offsets if found.get(key, offsets) == offsets else None


def _agreed(found: dict) -> dict:
    """The cuts of `found` (`_note_cuts`) every annotation agreed on."""
    return {k: o for k, o in found.items() if o is not None}


def _fed_cuts(operands: list[ir.Value], needs: tuple[Sharding | None, ...], cut: dict, cropped: set) -> dict:
    """The part of `cut` an hlo op's operands carry: its result types are
    written out, so a piece's size must come from an operand cut alike (a
    broadcast's new dimension keeps its default cut), or from a crop
    (`cropped`: partition makes an hlo slice or pad again as its `tensor`
    twin, each device's sizes read from tables)."""
    fed = set(cropped)
    for v, need in zip(operands, needs):
        t = v.type
        if need is not None and isinstance(t, ir.RankedTensorType):
            fed.update((t.shape[d], need.split_axes[d]) for d in need.sharded_dims() if d < t.rank)
    return {k: o for k, o in cut.items() if k in fed}


def _cropped_sizes(rule: ShardingRule, results: list[ir.Value], option) -> set:
    """(size, mesh axes) of each result dimension a split crop loop indexes."""
    found = set()
    m = rule.result_maps[0] if rule.result_maps else None
    if not rule.crops or m is None or not results or not isinstance(results[0].type, ir.RankedTensorType):
        return found
    shape = results[0].type.shape
    for c in rule.crops:
        axes = option[c.loop] if c.loop < len(option) else ()
        if axes and c.loop in m:
            found.add((shape[m.index(c.loop)], tuple(axes)))
    return found


def _lined_up(cut: dict, rule: ShardingRule, operands: list[ir.Value], results: list[ir.Value], option) -> dict:
    """`cut` (`offsets_cut`) made to line up along each split loop whose
    dimensions differ in size (a strided slice's operand and result): a
    size without a cut takes the one the cut of another scales to, as
    partition lines them up (`rederive.scaled_cut`); where none does (24
    cut 7, 17 and its every other element, 12), the loop's sizes keep no
    cut: the op runs on its default pieces, and the operand cut by offsets
    is resharded to them, instead of pieces partition cannot line up."""
    from ..partition.rederive import scaled_cut

    out = dict(cut)
    sides = ((operands, rule.operand_maps, True), (results, rule.result_maps, False))
    for loop, axes in enumerate(option):
        if not axes:
            continue
        sizes: set[int] = set()
        for values, maps, operand in sides:
            for k, (v, m) in enumerate(zip(values, maps)):
                t = v.type
                if m is None or not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
                    continue
                for d, indexed in enumerate(m):
                    if indexed == loop and not (operand and (rule.window(k, d) or rule.crop(k, d))):
                        sizes.add(t.shape[d])
        given = [n for n in sorted(sizes) if (n, axes) in out]
        if len(sizes) < 2 or not given:
            continue
        ref = given[0]
        bounds = list(zip(out[(ref, axes)], out[(ref, axes)][1:]))
        wanted = {n: scaled_cut(ref, bounds, n) for n in sizes}
        lined = {n: None if w is None else (*(a for a, _ in w), w[-1][1]) for n, w in wanted.items()}
        if any(w is None or ((n, axes) in out and out[(n, axes)] != w) for n, w in lined.items()):
            for n in sizes:
                out.pop((n, axes), None)
        else:
            out.update(((n, axes), w) for n, w in lined.items())
    return out


def _cut_of_loops(
    cut: dict, rule: ShardingRule, operands: list[ir.Value], option, uneven: frozenset[int], empty_ok: frozenset[int]
) -> dict:
    """The part of `cut` along the dimensions the op's `uneven` loops index
    (`uneven_loops_of`: a gather's rows and batch, the position a scatter
    writes, a dynamic_slice's or dynamic_update_slice's loops, the only
    ones it runs on unequal pieces of) that gives every device a row
    (a slice of one row does not fit in none), but along the `empty_ok`
    loops (`empty_loops_of`): its other dimensions keep the default cut."""
    kept, empty = set(), set()
    for v, m in zip(operands, rule.operand_maps):
        t = v.type
        if m is None or not isinstance(t, ir.RankedTensorType):
            continue
        for d, loop in enumerate(m):
            if loop is not None and option[loop] and loop in uneven and d < t.rank:
                kept.add((t.shape[d], tuple(option[loop])))
                if loop in empty_ok:
                    empty.add((t.shape[d], tuple(option[loop])))
    return {k: o for k, o in cut.items() if k in empty or (k in kept and all(a < b for a, b in zip(o, o[1:])))}


def _static_mesh(shape: tuple[int, ...] | None) -> Mesh | None:
    """The mesh of `shape`, None when a size is dynamic (offsets need static ones)."""
    return Mesh(shape) if shape and all(n >= 1 for n in shape) else None


def _where(loc: ir.Location) -> str:
    name, line, col = remap_location(loc)
    return f"{name}:{line}:{col}" if name else "an unknown location"


def _fmt_layout(mesh: str, s: Sharding) -> str:
    return f"@{mesh} {s}"


class _Function:
    """Propagation state of one function."""

    def __init__(
        self,
        pass_: ShardingPropagation,
        func: ir.Operation,
        mesh_shapes: dict[str, tuple[int, ...]],
        rules: RuleCache,
    ) -> None:
        self.pass_ = pass_
        self.rule_cache = rules
        self.func = func
        self.mesh_shapes = mesh_shapes
        self.meshes = {name: len(shape) for name, shape in mesh_shapes.items()}
        # Every op the walk met, in program order, as ("shard" | "yield" |
        # "other", op) or ("rule" | "region", index into `ops`).
        self.sequence: list[tuple[str, Any]] = []
        # Ops are kept by position in `ops`: an ir.Operation's hash is not
        # stable under attribute changes, so it cannot key a dict.
        self.ops: list[ir.Operation] = []
        self.rules: list[ShardingRule | None] = []  # None: a region op
        self.names: list[str] = []  # per op in `ops`, its name
        # per op in `ops`, its (operands, results) as collected (None: a
        # region op); results stay, operands change as annotations go in
        self.io: list[tuple[list[ir.Value], list[ir.Value]] | None] = []
        # per op in `ops`, its (operand types, result types) as its rule's
        # key holds them (`RuleCache.lookup_typed`; None: not looked up, or
        # a registered rule): shared by the ops of one signature
        self.types: list[tuple[tuple, tuple] | None] = []
        self.has_loops = False  # a loop: uses inside it weigh its trip count
        self.unknown: list[ir.Operation] = []
        # values a program written partly per device computes differently on
        # each device (`ir.per_device`): an op reading or making one runs whole
        self.per_device: dict[ir.Value, tuple[frozenset, ir.Operation]] = {}
        self.collectives = False  # the function holds a collective (`collect`)
        self.reads_outside: set[int] = set()  # ops whose body may read a tensor from outside them
        self.unrecorded: set[int] = set()  # ops whose option says no loop the solver split (a masked read's)
        self.explicit_options: dict[int, Choice] = {}
        # per op reading `tensor.pad`s through windows (its rule's `fused`),
        # each such operand's pad: the op reads the pad's source, the pad
        # gets no node, and what the op needs there goes on the pad's operand
        self.fused_pads: dict[int, dict[int, ir.Operation]] = {}
        self.recorded: dict[int, tuple[str, tuple]] = {}
        self.anns: dict[ir.Value, Ann] = {}  # by the mesh.shard result
        self.def_ann: dict[ir.Value, Ann] = {}  # by the annotated value
        self.user_anns: dict[ir.Value, list[Ann]] = {}  # by the annotated value
        self.sharding_values: dict[tuple, ir.Value] = {}
        self.read: dict[ir.Value, tuple | None] = {}  # sharding value -> what `sharding_of` says of it
        self.valid: set[int] = set()  # ids of the answers in `read` whose mesh and axes are known good
        self.option_attrs: dict[tuple, ir.Attribute] = {}
        # (source, mesh, layout, block): an annotation for users to share, in
        # a list so that a miss hashes the key once (`ensure_use`)
        self.shared: dict[tuple, list[Ann]] = {}
        # Values whose uses the pass handed to an annotation (that annotation),
        # so that `apply` reads an op's operands, and their annotations, from
        # `io` instead of listing and looking them up again; None: handed on
        # twice (which uses read which is not known).
        self.renamed: dict[ir.Value, Ann | None] = {}
        self.applied: set[int] = set()  # ops `apply` has set operands of (a sweep revisits them)
        # whether some collected op lies in a block other than the entry (a
        # region's): else every op shares the entry block, and `shared` need
        # not ask an op for its block
        self.nested = len(func.regions[0].blocks) > 1
        self.plans: dict[tuple, tuple[int, int]] = {}  # `reshard_plan`, per value shape and layouts
        self.allowance: Any = None  # the planner's `SearchAllowance` for this function's plans
        # the cost solver's graph: each IR value's id, and the values (`costed`)
        self.value_ids: dict[ir.Value, int] = {}
        self.graph_values: list[GraphValue] = []
        self.arrivals: dict[ir.Value, Layout] = {}  # arguments whose layout their annotations for users give
        self.entry_arrivals: list[tuple[ir.Value, Layout | None]] = []  # per entry argument, `arrival` (`extract`)
        self.failed = False
        self.changed = False
        self.any_offsets = False  # an annotation cut by sharded_dims_offsets was seen
        # per mesh, the cut every annotation cut by offsets gives a dimension of
        # a size and split (`explicit_cuts`): the cost solver prices layouts so
        self.cuts: dict[str, dict[tuple, tuple[int, ...]]] = {}
        # whether the annotations cut by offsets cut each size the mesh does
        # not divide alike, and each it divides evenly: only then do ops other
        # than hlo ones, and slices, run on unequal pieces beside them (else
        # `apply` may take a neighbour's cut, which the solver, pricing the
        # default one, does not see)
        self.cuts_agree = False
        self.entry = func.regions[0].blocks[0]
        self.entry_ip = ir.InsertionPoint.at_block_begin(self.entry)
        # `front`: the op it last answered for, and its answer
        self.front_op: ir.Operation | None = None
        self.front_at: tuple[ir.Location, ir.InsertionPoint] | None = None
        self.for_users_attrs = {"annotate_for_users": ir.UnitAttr.get(func.context)}

    # -- collecting --------------------------------------------------------

    def collect(self) -> None:
        shard_ops: list[ir.Operation] = []
        raised: list[RuleError] = []
        sequence, ops, rules, ios, names, types = self.sequence, self.ops, self.rules, self.io, self.names, self.types
        lookup = self.rule_cache.lookup_typed
        advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP
        started = False
        # the cost solver asks for the rule of an op making a whole value
        # (an empty, a fill) only if the value turns out not to be whole
        # (read per run: a rule registered since replaces the built-in one)
        later = [n for n in _LATER_NAMES if rule_always_exists(n)] if self.pass_.solver == "cost" else []
        kinds: dict[str, str] = {}  # per op name, which of the paths below it takes (`_name_kind`)
        several: set[str] = set()  # names of ops met with other than one result

        def visit(op: ir.Operation) -> ir.WalkResult:
            nonlocal started
            if not started:  # the walk starts at the function itself
                started = True
                return advance
            name = op.name
            kind = kinds.get(name)
            if kind is None:
                kind = kinds[name] = _name_kind(name, later)
            if kind is not _SPECIAL:
                if name in several:
                    io = (list(op.operands), list(op.results))
                else:
                    try:  # (half the cost of listing the results, for the usual op of one)
                        io = (list(op.operands), [op.result])
                    except ValueError:
                        several.add(name)
                        io = (list(op.operands), list(op.results))
                if kind is _WHOLE_LATER and OPTION_ATTR not in op.attributes:
                    sequence.append(("rule", len(ops)))
                    ops.append(op)
                    names.append(name)
                    rules.append(LATER)
                    ios.append(io)
                    types.append(None)
                    return skip
            else:
                if name.startswith("mesh."):
                    if name == "mesh.shard":
                        shard_ops.append(op)
                        sequence.append(("shard", op))
                    elif name == "mesh.mesh":
                        self.body_mesh(op)
                    elif name != "mesh.sharding":
                        sequence.append(("other", op))
                        self.nested = self.nested or len(op.regions) > 0
                    return advance
                if name in _SKIPPED_TERMINATORS or (name in _HLO_RETURNS and op.parent.name in HLO_REGION_OPS):
                    # which carried values it hands on, if any, `carried` says (graph.py)
                    hands_on = name not in _BRANCHES and op.parent.name in CARRIED_OPS
                    sequence.append(("yield" if hands_on else "other", op))
                    return advance
                if (name in HLO_REGION_OPS or name in HLO_BARRIERS) and (why := malformed(op)) is not None:
                    raised.append(RuleError(op.location, f"'{name}' {why}"))
                    return ir.WalkResult.INTERRUPT
                if name in CARRIED_OPS and _single_blocks(op):
                    sequence.append(("region", len(ops)))
                    ops.append(op)
                    names.append(name)
                    rules.append(None)
                    ios.append(None)
                    types.append(None)
                    self.has_loops = self.has_loops or name in LOOP_OPS
                    self.nested = True
                    return advance
                # listed once: the rule's signature, the graph and `apply` read them
                io = (list(op.operands), list(op.results))
            if name == "tensor.pad" and self.rule_cache.read_through(io[1][0]):
                return skip  # read through by its user, whose rule describes its source
            try:
                rule, option, reads_outside, typed = lookup(op, name, io)
            except RuleError as e:  # raised again after the walk (the bindings would wrap it)
                raised.append(e)
                return ir.WalkResult.INTERRUPT
            if rule is None:
                self.unknown.append(op)
                sequence.append(("other", op))
                self.nested = self.nested or len(op.regions) > 0
                return advance
            if reads_outside:
                self.reads_outside.add(len(ops))
            if rule.fused:
                self.fused_pads[len(ops)] = {k: io[0][k].owner.operation for k in rule.fused}
            sequence.append(("rule", len(ops)))
            ops.append(op)
            names.append(name)
            rules.append(rule)
            ios.append(io)
            types.append(typed)
            if option is not None:
                self.read_option(len(ops) - 1, op, rule, option)
            # A ruled op's body (linalg, hlo) computes on scalars, not
            # tensors: never entered (skipping an op without one changes
            # nothing, and costs less than asking whether it has one).
            return skip

        self.rule_cache.varied = False
        self.func.walk(visit, ir.WalkOrder.PRE_ORDER)
        if raised:
            raise raised[0]
        # (`kinds` has the name of every op met; the rule lookups, whether a body they read may vary)
        self.collectives = any(map(is_collective, kinds))  # (a collective may read an argument: `arrival`)
        if self.rule_cache.varied or may_vary(self.func, kinds, callees=self.pass_.callees):
            self.per_device = per_device_values(self.func, self.pass_.callees).values
        for op in shard_ops:
            self.read_shard(op)
        if self.failed:
            raise PassFailed("invalid input")

    def through_pads(self, index: int, operands: list[ir.Value]) -> list[ir.Value]:
        """`operands` of op `index` as listed from the op, each pad it reads
        through (`fused_pads`) replaced by the pad's operand."""
        pads = self.fused_pads.get(index)
        if pads:
            for k, pad in pads.items():
                operands[k] = pad.operands[0]
        return operands

    def rule(self, index: int) -> ShardingRule | None:
        """The rule of op `index`, looked up now if collecting left it for later."""
        rule = self.rules[index]
        if rule is LATER:
            op = self.ops[index]
            io = self.io[index]
            assert io is not None
            rule, _, _, self.types[index] = self.rule_cache.lookup_typed(op, op.name, io)
            self.rules[index] = rule
        return rule

    def read_shard(self, op: ir.Operation) -> None:
        sharding = op.operands[1]
        found = self.read.get(sharding, False)
        if found is False:  # annotations share a few sharding values: each is read once
            found = self.read[sharding] = sharding_of(sharding)
        if found is None:
            return  # a sharding computed elsewhere: opaque to propagation
        mesh, sharding, _ = found
        if id(found) not in self.valid:  # (annotations share a few: each is checked once)
            if mesh not in self.mesh_shapes:
                op.location.emit_error(f"mesh @{mesh} is not defined in the module: {LOCAL_MESH}")
                self.failed = True
                return
            rank = self.meshes[mesh]
            axes = (a for group in (*sharding.split_axes, sharding.partial_axes) for a in group)
            bad = next((a for a in axes if not 0 <= a < rank), None)
            if bad is not None:  # a module the verifier has not seen (mesh-opt verifies first)
                op.location.emit_error(f"mesh axis {bad} is out of range for mesh @{mesh} of rank {rank}")
                self.failed = True
                return
            for field_name in ("halo_sizes", "sharded_dims_offsets"):
                values = getattr(sharding, field_name)
                if DYNAMIC in values:  # (partition refuses them too: the layouts it makes are static)
                    shown = ", ".join("?" if v == DYNAMIC else str(v) for v in values)
                    op.location.emit_error(
                        f"sharding propagation needs static {field_name}, got [{shown}] (a size computed at run time)"
                    )
                    self.failed = True
                    return
            self.valid.add(id(found))
        ann = Ann(
            op, op.operands[0], op.result, mesh, sharding, "annotate_for_users" in op.attributes, True, (op.location,)
        )
        self.register(ann)

    def body_mesh(self, op: ir.Operation) -> None:
        """A mesh defined in the function's body (`redefined_mesh`)."""
        why = redefined_mesh(op, self.mesh_shapes)
        if why is not None:
            op.location.emit_error(why)
            self.failed = True

    def read_option(self, index: int, op: ir.Operation, rule: ShardingRule, attr: ir.Attribute) -> None:
        raw = str(attr)
        try:
            mesh, split, partial, _kind, halos, offsets = decode_sharding_attr(raw)
            if partial or halos or offsets:
                raise ValueError("a sharding option lists split axes per loop only")
            if mesh[1:] not in self.meshes:
                raise ValueError(f"mesh {mesh} does not exist")
            option = option_from_lists(split, rule.num_loops)
            rank = self.meshes[mesh[1:]]
            for axes in option:
                for a in axes:
                    if not 0 <= a < rank:
                        raise ValueError(f"mesh axis {a} is out of range for mesh {mesh} of rank {rank}")
            validate_option(rule, option)
        except (Unprintable, ValueError) as e:
            detail = str(e) if isinstance(e, ValueError) else f"expected a #mesh.sharding, got {raw}"
            op.location.emit_error(f"invalid {OPTION_ATTR} on '{op.name}': {detail}")
            self.failed = True
            return
        self.explicit_options[index] = choice_from_option(rule, mesh[1:], option, mesh_shapes=self.mesh_shapes)
        self.recorded[index] = (mesh[1:], option)

    def register(self, ann: Ann) -> None:
        self.anns[ann.value] = ann
        if ann.explicit and ann.sharding.sharded_dims_offsets:
            # `apply` looks for an explicit cut to follow (a crop's cut, made
            # here, is its operand's alone: `rules.crop_layout`)
            self.any_offsets = True
        if ann.for_users:
            self.user_anns.setdefault(ann.src, []).append(ann)
        else:  # (the first one of a value stays its own)
            self.def_ann.setdefault(ann.src, ann)

    # -- running -----------------------------------------------------------

    def run(self) -> None:
        self.collect()
        if self.pass_.solver == "cost":
            self.solve_by_cost()
        else:
            self.sweep()
        self.tidy()
        self.check_unknown()
        if self.failed:
            raise PassFailed("sharding propagation failed")

    def sweep(self) -> None:
        """Upstream's way: each op in sweep order takes the first option its
        annotations agree on."""
        sweeps = _SWEEPS[self.pass_.traversal]
        for _ in range(_MAX_ROUNDS):
            self.changed = False
            order = range(len(self.ops))
            for backward in sweeps:
                for index in reversed(order) if backward else order:
                    if self.rules[index] is None:
                        self.visit_region_op(self.ops[index])
                    else:
                        self.visit(index)
            if not (self.pass_.fixed_point and self.changed):
                break
        # Whatever the sweeps left, every value carried through a region gets
        # one layout (a single sweep may have visited the region op before
        # its body was annotated); under a fixed point this changes nothing.
        for index in range(len(self.ops)):
            if self.rules[index] is None:
                self.visit_region_op(self.ops[index])

    # -- the cost-driven solver ------------------------------------------------

    def solve_by_cost(self) -> None:
        """Choose every op's loop sharding at once, for the fewest bytes
        moved (`solver.py`), then write the choices as `visit` would."""
        if self.any_offsets:
            self.cuts = self.explicit_cuts()
        plain, unknown = (self.cuts, self.any_offsets, self.cuts_agree), len(self.unknown)
        graph, refs, chosen = self.extract_and_solve()
        if self.adopt_crop_cuts():
            # The cuts slices keep in place save their own rows but may cost
            # elsewhere (a loop carrying such a value keeps to even pieces, a
            # user's annotation of the default cut is resharded): the plan
            # that moves fewer bytes wins, the default cuts' on a tie.
            moved = bytes_moved(graph, self.reshard_bytes, chosen)
            del self.unknown[unknown:]
            trial = self.extract_and_solve()
            if bytes_moved(trial[0], self.reshard_bytes, trial[2]) < moved:
                graph, refs, chosen = trial
            else:
                self.cuts, self.any_offsets, self.cuts_agree = plain
                del self.unknown[unknown:]
                graph, refs, chosen = self.extract_and_solve()
        self.graph_values = graph.values
        for arg, lay in self.entry_arrivals:  # as `extract` read them
            if lay is not None and arg not in self.def_ann:
                self.arrivals[arg] = lay
        choices: dict[int, Choice] = {}  # per state: states are memoized, so repeated layers share one
        masks = bool(graph.unmasked)  # (only then may a state split a masked read's loop)
        for n, (node, (kind, index, k)) in enumerate(zip(graph.nodes, refs)):
            if kind == "fixed":
                continue
            state = node.states[chosen[n]]
            if not state.needs and not state.produces:
                continue  # nothing around it has a layout: left alone
            if kind == "op":
                assert state.option is not None
                choice = choices.get(id(state))
                base = self.rules[index] if masks else None
                if isinstance(base, ShardingRule) and len(state.option) > base.num_loops:
                    # A masked read's loop (`graph.SUM_LOOP`) is no loop of the op,
                    # and an option cannot say it: none is recorded (partition
                    # finds the masking from the layouts around the op, and
                    # propagation run again solves the op again).
                    self.unrecorded.add(index)
                if choice is None:
                    choice = choices[id(state)] = Choice(
                        state.mesh,
                        state.option[: base.num_loops] if index in self.unrecorded else state.option,
                        tuple(None if lay is None else lay[1] for lay in state.needs),
                        tuple(None if lay is None else lay[1] for lay in state.produces),
                    )
                self.apply(index, choice, index in self.explicit_options)
            else:
                mesh, layout = state.produces[0]
                self.apply_carried(self.ops[index], k, mesh, layout, ())
        self.keep_whole_arguments()

    def extract_and_solve(self) -> tuple[Graph, list, list[int]]:
        """The function's graph (`extract`), what each node stands for, and
        the solver's choice of a state per node."""
        graph, refs = extract(self)
        graph.cuts = self.cuts
        return graph, refs, self.solve(graph)

    def solve(self, graph: Graph) -> list[int]:
        """The solver's choice of a state per node.  Masked reads
        (`graph.SUM_LOOP`) widen the search, where the solver's local
        search may settle on a plan worse than the best without them: the
        graph is then solved both ways, and the plan moving fewer bytes
        kept (the one without masks on a tie).  Generics running on partial
        sums (`Graph.linear_generics`) widen it too: where masks are tried,
        each way is tried with and without those, and the first plan of the
        fewest bytes is kept."""
        if not graph.unmasked:
            return Solver(graph, self.reshard_bytes, self.reshard_collectives).solve()
        given = [list(node.states) for node in graph.nodes]  # (the solver adds states to the nodes)
        ways = [(False, True), (True, True)]
        if graph.linear_generics:
            ways = [(False, False), (False, True), (True, False), (True, True)]
        best: tuple[int, list[int], list] | None = None
        for masks, linear in ways:
            graph.masks = masks
            for k, terms in graph.linear_generics.items():
                graph.nodes[k].linear = terms if linear else ()
            for node, states in zip(graph.nodes, given):
                node.states = list(states)
            chosen = Solver(graph, self.reshard_bytes, self.reshard_collectives).solve()
            moved = bytes_moved(graph, self.reshard_bytes, chosen)
            if best is None or moved < best[0]:
                best = (moved, chosen, [node.states for node in graph.nodes])
        assert best is not None
        graph.masks = True
        for k, terms in graph.linear_generics.items():
            graph.nodes[k].linear = terms
        for node, states in zip(graph.nodes, best[2]):
            node.states = states
        return best[1]

    def explicit_cuts(self) -> dict[str, dict[tuple, tuple[int, ...]]]:
        """Per mesh, the offsets of each (dimension size, split axes) the mesh
        does not divide that the annotations cut by offsets agree on.  Only an
        op that may run on pieces of unequal sizes splits such a dimension,
        and `apply` gives it that cut (or its neighbours' where they differ,
        `offsets_cut`): the solver prices a layout without offsets as cut
        so, and reading such an annotation in it as free (a JAX program's
        cut is XLA's, on every value).  A user's annotation of the default
        cut of such a size is priced in its own cut (`priced_layout`).  Sets
        `cuts_agree`."""
        found: dict[str, dict[tuple, tuple[int, ...] | None]] = {}
        even_elsewhere = False  # a size the mesh divides, cut otherwise than evenly
        for ann in self.anns.values():
            s = ann.sharding
            mesh = _static_mesh(self.mesh_shapes.get(ann.mesh)) if s.sharded_dims_offsets else None
            t = ann.value.type if mesh is not None else None
            if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
                continue
            # (a dimension split evenly is split by ops that keep to even pieces: their cut is the default one)
            uneven = [d for d in s.sharded_dims() if t.shape[d] % s.shard_count(d, mesh)]
            _note_cuts(found.setdefault(ann.mesh, {}), s, t.shape, uneven, mesh)
            even_elsewhere = even_elsewhere or any(
                s.cut(d, t.shape[d], mesh) != Sharding(s.split_axes).cut(d, t.shape[d], mesh)
                for d in s.sharded_dims()
                if d not in uneven
            )
        self.cuts_agree = not even_elsewhere and all(None not in cuts.values() for cuts in found.values())
        return {m: _agreed(cuts) for m, cuts in found.items()}

    def adopt_crop_cuts(self) -> bool:
        """Cut each size slices give (along a dimension of a size a mesh axis
        group does not divide) where the slices keep the most rows where they
        are (`rules.cheapest_crop_cut`, the crops reading such a dimension
        priced too; larger sizes first, so a slice of a slice reads its
        operand's new cut), when no annotation cuts it already: as if an
        annotation cut it so (`explicit_cuts`).  One mesh only.  Whether any
        cut was adopted."""
        if len(self.mesh_shapes) != 1:
            return False
        ((name, shape),) = self.mesh_shapes.items()
        mesh = _static_mesh(shape)
        if mesh is None:
            return False
        given = self.cuts.get(name, {})
        crops: list[tuple[Crop, int]] = []
        for index, rule in enumerate(self.rules):
            if rule is not None and rule.crops:
                for c in rule.crops:
                    t = self.ops[index].operands[c.operand].type
                    crops.append((c, math.prod(n for d, n in enumerate(c.shape) if d != c.dim) * element_bytes(t)))
        if not crops:
            return False
        groups = [
            (axes, math.prod(shape[a] for a in axes))
            for r in range(1, len(shape) + 1)
            for axes in itertools.permutations(range(len(shape)), r)
        ]

        chosen: dict[tuple, tuple[int, ...]] = {}

        def cut(size: int, axes: tuple[int, ...]) -> tuple[int, ...]:
            key = (size, axes)
            return chosen.get(key) or given.get(key) or Sharding((axes,)).cut(0, size, mesh)

        for axes, count in groups:
            sizes = {
                c.out
                for c, _ in crops
                if c.stride == 1 and not (c.pads or c.inserts) and count <= c.out and c.out % count
            }
            for size in sorted(sizes - {n for n, a in given if a == axes}, reverse=True):
                made = [(c, row, cut(c.extent, axes)) for c, row in crops if c.out == size and not c.inserts]
                read = [(c, row, cut(c.out, axes)) for c, row in crops if c.extent == size and not c.inserts]
                found = cheapest_crop_cut(made, read, size, count)
                if found is not None:
                    chosen[(size, axes)] = found
        if not chosen:
            return False
        if not self.any_offsets:
            self.cuts_agree = True
        self.any_offsets = True
        self.cuts = {**self.cuts, name: {**given, **chosen}}
        return True

    def priced_layout(self, ann: Ann) -> Sharding:
        """`ann`'s layout as the solver prices it: an annotation of the
        default cut of a size the function's offsets cut otherwise
        (`explicit_cuts`) with that default cut written as offsets, since the
        solver prices a layout without offsets as the offsets' cut."""
        s = ann.sharding
        cuts = self.cuts.get(ann.mesh)
        if not cuts or s.sharded_dims_offsets or s.halo_sizes or not s.split_axes:
            return s
        t = ann.value.type
        mesh = _static_mesh(self.mesh_shapes.get(ann.mesh))
        if mesh is None or not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
            return s
        dims = s.sharded_dims()
        default = [s.cut(d, t.shape[d], mesh) for d in dims]
        if all(cuts.get((t.shape[d], s.split_axes[d]), c) == c for d, c in zip(dims, default)):
            return s
        return dataclasses.replace(s, sharded_dims_offsets=tuple(n for c in default for n in c))

    def keep_whole_arguments(self) -> None:
        """The solver priced an argument without a layout of its own as
        arriving whole (`arrival`); partition makes it arrive in the layout
        all its annotations for users agree on, the ones made here
        included.  That is free for those annotations, but an op that reads
        the argument itself (one without a rule, one the solver left alone)
        would then read that layout, and gather it: such an argument keeps
        arriving whole (`pin_argument`)."""
        for arg, lay in self.entry_arrivals:
            if lay is not None or arg in self.def_ann:
                continue
            anns = self.user_anns.get(arg)
            if not anns:
                continue
            first = anns[0]
            if first.sharding.is_partial or first.sharding.is_replicated:
                continue
            if any(a.mesh != first.mesh or a.sharding != first.sharding for a in anns[1:]):
                continue
            annotations = {a.op for a in anns}
            if all(use.owner in annotations or use.owner.name == "func.return" for use in arg.uses):
                continue
            pinned = self.pin_argument(arg, first.mesh, REPLICATED).owner
            # in front of every use: annotations made for the entry's first
            # op went where the pin would (at the entry's first op as it was)
            layout = pinned.operands[1].owner
            top = self.entry.operations[0]
            if top.operation != layout.operation:
                layout.move_before(top)
            pinned.move_after(layout)

    def is_argument(self, v: ir.Value) -> bool:
        return isinstance(v, ir.BlockArgument) and v.owner == self.entry

    def arrival(self, arg: ir.Value) -> Layout | None:
        """The layout a function argument arrives in, as partition decides it:
        its own annotation, else the one its explicit annotations for users
        agree on; None: whole."""
        own = self.def_ann.get(arg)
        if own is not None:
            return own.mesh, own.sharding
        wanted = {(a.mesh, a.sharding) for a in self.user_anns.get(arg, ()) if a.explicit}
        if len(wanted) == 1:
            lay = next(iter(wanted))
            if not lay[1].is_partial and not (self.collectives and read_by_collective(arg)):
                return lay
        return None

    def pin_argument(self, arg: ir.Value, mesh: str, layout: Sharding) -> ir.Value:
        """Give an argument the layout its annotations for users agree on as
        its own annotation, so that the reshards this pass adds in front of
        users start from it instead of changing the signature."""
        # in front of the entry's first op, after the sharding ops made so far
        ann = self.new_ann(arg, mesh, layout, False, (), self.func.location, self.entry_ip)
        self.hand_uses(arg, ann)
        moved = self.user_anns.pop(arg, [])
        for a in moved:
            a.src = ann.value
        self.user_anns[ann.value] = moved
        return ann.value

    def costed(self, v: ir.Value) -> GraphValue:
        """`v` as the solver costed it, for a remark: a value partition makes
        again (`GraphValue.rebuilt`), or one the pass annotated with the
        layout its op produces it in, costs nothing to reshard."""
        value = costed_value(ir.RankedTensorType(v.type))
        while True:
            k = self.value_ids.get(v)
            if k is not None and k >= 0 and self.graph_values[k].rebuilt:
                value.rebuilt = True
                return value
            ann = self.anns.get(v)
            if ann is None or ann.explicit or ann.for_users:
                return value
            v = ann.src

    def reshard_bytes(self, value: GraphValue, have: Layout | None, need: Layout | None) -> int:
        """The planner's bytes per device for turning `value` from `have`
        into `need`: the solver's cost (which the solver memoizes) and the
        bytes `explain` gives."""
        return self.reshard_plan(value, have, need)[0]

    def reshard_collectives(self, value: GraphValue, have: Layout | None, need: Layout | None) -> int:
        """How many collectives the planner's plan takes (the solver's
        tie-breaker among plans of equal bytes)."""
        return self.reshard_plan(value, have, need)[1]

    def reshard_plan(self, value: GraphValue, have: Layout | None, need: Layout | None) -> tuple[int, int]:
        """(bytes per device, collectives) of the planner's plan."""
        key = (value.shape, value.element_bytes, have, need, value.dynamic if value.rebuilt else None)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = self._reshard_plan(value, have, need)
        return found

    def _reshard_plan(self, value: GraphValue, have: Layout | None, need: Layout | None) -> tuple[int, int]:
        if need is None:
            return 0, 0
        hmesh, hs = have if have is not None else (ANY_MESH, Sharding(()))
        nmesh, ns = need
        if not hs.split_axes and not hs.partial_axes:
            return 0, 0  # a whole value slices for free
        if nmesh == CAPTURED:
            return IMPOSSIBLE, 0  # read from inside another op's body: no reshard reaches it
        if nmesh == ANY_MESH:
            nmesh, ns = hmesh, Sharding(())
        if hmesh != nmesh:
            return IMPOSSIBLE, 0
        if value.rebuilt and not ns.partial_axes and rebuilds_from(value, self.mesh_shapes[hmesh], hs):
            return 0, 0  # partition makes it again in the layout needed (`graph.py`)
        cuts = self.cuts.get(hmesh)
        mesh = _static_mesh(self.mesh_shapes[hmesh]) if cuts and not value.dynamic else None
        if mesh is not None:  # as `apply` cuts the op's values (`explicit_cuts`)
            hs, ns = (
                s if s.sharded_dims_offsets or s.halo_sizes else _cut_along(s, value.shape, cuts, mesh)
                for s in (hs, ns)
            )
        from ...sharding import resharding as rs  # the planner loads numpy: on first use

        try:
            # (partition exchanges only values and meshes of static sizes)
            static = not value.dynamic and _static_mesh(self.mesh_shapes[hmesh]) is not None
            if self.allowance is None:
                self.allowance = rs.SearchAllowance()
            plan = rs.plan_resharding(
                value.shape,
                costed_mesh(self.mesh_shapes[hmesh]),
                hs,
                ns,
                element_bytes=value.element_bytes,
                exchange=static,
                allowance=self.allowance,
            )
        except ValueError:
            return IMPOSSIBLE, 0
        local = (rs.AllSlice, rs.Partialize)  # each device on its own data
        return plan.bytes_received, sum(
            step.rounds if isinstance(step, rs.Exchange | rs.Recut) else 1
            for step in plan.steps
            if not isinstance(step, local)
        )

    # -- one op ------------------------------------------------------------

    def request(self, ann: Ann | None, targets_op: bool) -> Request | None:
        if ann is None:
            return None
        return Request(ann.mesh, ann.sharding, targets_op, ann.explicit, (ann,))

    def visit(self, index: int) -> None:
        op, rule = self.ops[index], self.rules[index]
        assert rule is not None
        operands = self.through_pads(index, list(op.operands))
        results = self.io[index][1]
        explicit = index in self.explicit_options
        choice = self.explicit_options.get(index)
        if choice is None:
            operand_requests = []
            for v in operands:
                ann = self.anns.get(v)
                operand_requests.append(self.request(ann, ann.for_users) if ann is not None else None)
            result_requests = []
            for r in results:
                reqs = []
                own = self.def_ann.get(r)
                if own is not None:
                    reqs.append(self.request(own, True))
                reqs.extend(self.request(a, False) for a in self.user_anns.get(r, ()))
                result_requests.append(reqs)
            choice = choose(rule, operand_requests, result_requests, self.mesh_shapes)
            if choice is None:
                return
        self.apply(index, choice, explicit)

    def apply(self, index: int, choice: Choice, explicit: bool) -> None:
        """Record the op's option and give its values the layouts it implies."""
        op = self.ops[index]
        operands, known = self.operands_now(index)
        pads = self.fused_pads.get(index, {})
        if pads:
            # the op reads each pad's source (`through_pads`), annotated there
            operands = self.through_pads(index, list(operands))
            if known:
                known = [None if i in pads else a for i, a in enumerate(known)]
        results = self.io[index][1]
        typed = self.types[index]
        self.record_option(index, choice)
        if not self.pass_.explain:
            origin: tuple[ir.Location, ...] = ()  # only remarks read origins (and causes, their words)
            cause = ""
        else:
            origin = (op.location,) if explicit else self.origin_of(choice)
            cause = self.cause(op, choice, explicit, origin)
            if index in self.unrecorded:
                cause += (
                    ", reading its outside table masked along the dimension an id picks "
                    "(each device only the rows its piece holds: its results are partial sums)"
                )
        anchor = op
        # most hlo ops run on even pieces only (their static types give their
        # sizes): values there keep the default cut, and an explicit one is
        # resharded; an hlo slice or pad is made again as its `tensor` twin
        rule = self.rules[index]
        assert isinstance(rule, ShardingRule)
        uneven, hlo = uneven_kind(op.name) if self.any_offsets else (False, False)
        runs_uneven = self.any_offsets and (uneven or not hlo or bool(rule.crops))
        mesh = _static_mesh(self.mesh_shapes.get(choice.mesh)) if runs_uneven else None
        cut = self.offsets_cut(operands, results, choice, mesh) if mesh is not None else None
        if cut is not None and self.cuts.get(choice.mesh):
            # a size the mesh does not divide takes the function's cut, which the solver priced
            cut = {**self.cuts[choice.mesh], **cut}
        if cut and hlo:
            cut = _fed_cuts(operands, choice.operands, cut, _cropped_sizes(rule, results, choice.option))
        if cut:
            cut = _lined_up(cut, rule, operands, results, choice.option)
            loops = uneven_loops_of(op.name, rule, operands) if hlo else None
            if loops is not None:
                empty = empty_loops_of(op.name, rule)
                cut = _cut_of_loops(cut, rule, operands, choice.option, loops, empty)
        for i, r in enumerate(results):
            need = choice.results[i]
            if need is not None:
                if cut:
                    need = _with_cut(need, r, cut, mesh)
                what = f"result {i} of '{op.name}'" if cause else ""
                t = None if typed is None else typed[1][i]
                anchor = self.ensure_value(r, choice.mesh, need, origin, op, anchor=anchor, cause=cause, what=what, t=t)
        by_cost = self.pass_.solver == "cost"
        anns = self.anns
        for i, v in enumerate(operands):
            need = choice.operands[i]
            if need is None:
                continue
            if cut:
                need = _with_cut(need, v, cut, mesh)
            have = known[i] if known else None
            if have is None:
                have = anns.get(v)
            if have is None:
                if by_cost and need.is_replicated and not self.is_argument(v):
                    # produced whole (or by an op without a rule): nothing to say.  An
                    # argument is annotated anyway: partition makes it arrive in the
                    # layout its annotations for users agree on, and this use wants it whole.
                    continue
            elif have.mesh == choice.mesh and _same_arrival(have.sharding, need):
                continue  # it arrives so already (`ensure_use`'s first test: half the operands)
            pad = pads.get(i)
            if pad is not None:
                # the op reads the pad's source: its layout goes on the pad's operand
                self.ensure_use(pad, 0, v, choice.mesh, need, origin, cause, by_cost, have, None)
                continue
            t = None if typed is None else typed[0][i]
            self.ensure_use(op, i, v, choice.mesh, need, origin, cause, by_cost, have, t)
        self.applied.add(index)

    def operands_now(self, index: int) -> tuple[list[ir.Value], list[Ann | None] | None]:
        """The operands of op `index` as they are now: as collected, each
        handed on to the annotation that took its uses (`hand_uses`); listed
        again when that is not known.  With them, per operand, the
        annotation it was handed on to (None: none, or not known; no list:
        none known), which is its annotation (`anns`)."""
        op = self.ops[index]
        if index in self.applied:
            return list(op.operands), None
        operands = self.io[index][0]
        renamed = self.renamed
        if not renamed:
            return operands, None
        now: list[ir.Value] = []
        known: list[Ann | None] = []
        for v in operands:
            ann = renamed.get(v, False)
            if ann is None:
                return list(op.operands), None
            if ann is False:
                now.append(v)
                known.append(None)
            else:
                now.append(ann.value)
                known.append(ann)
        return now, known

    def hand_uses(self, v: ir.Value, ann: Ann) -> None:
        """Every use of `v` but `ann`'s reads `ann` instead.  (Only results
        and block arguments are handed on, never an annotation's value: a
        value renamed once is not renamed again by renaming its new name.)"""
        v.replace_all_uses_except(ann.value, ann.op)
        if self.renamed.setdefault(v, ann) is not ann:  # (one lookup: a value's hash is a binding call)
            self.renamed[v] = None

    def offsets_cut(self, operands: list[ir.Value], results: list[ir.Value], choice: Choice, mesh: Mesh) -> dict:
        """The explicit cut (`sharded_dims_offsets`) the op runs on, per
        dimension size and mesh axes: an option says nothing of offsets, so
        where an operand or result is annotated with the split the op needs
        but cut by offsets, the op's other values take the same cut along
        dimensions of that size split over those axes (the same loop: a
        mesh axis splits one loop of an op), whatever their types (a pad, a
        transpose), as partition runs the op on those pieces.  Empty when
        no annotation has offsets; a dimension whose annotations disagree
        is left out (partition then names the pieces that do not line up)."""
        found: dict[tuple, tuple | None] = {}
        sides = (
            (operands, [self.anns.get(v) for v in operands], choice.operands),
            (results, [self.def_ann.get(r) for r in results], choice.results),
        )
        for values, anns, needs in sides:
            for v, ann, need in zip(values, anns, needs):
                if ann is None or need is None or not ann.sharding.sharded_dims_offsets:
                    continue
                if ann.mesh != choice.mesh or not same_placement(ann.sharding, need):
                    continue
                shape = ir.RankedTensorType(v.type).shape
                _note_cuts(found, ann.sharding, shape, ann.sharding.sharded_dims(), mesh)
        return _agreed(found)

    def origin_of(self, choice: Choice) -> tuple[ir.Location, ...]:
        """The explicit annotations an inferred layout goes back to."""
        seen: dict[str, ir.Location] = {}
        for req in choice.followed:
            for ann in req.origin:
                for loc in ann.origin:
                    seen.setdefault(_where(loc), loc)
        return tuple(seen.values())[:4]

    def cause(self, op: ir.Operation, choice: Choice, explicit: bool, origin) -> str:
        if not self.pass_.explain:
            return ""
        if explicit:
            return f"the {OPTION_ATTR} of '{op.name}' at {_where(op.location)}"
        if self.pass_.solver == "cost":
            loops = ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in choice.option)
            return (
                f"'{op.name}' runs with its loops split as [{loops}] on @{choice.mesh}, "
                "the cost solver's choice for the fewest bytes over the function"
            )
        places = sorted({_where(loc) for loc in origin})
        text = f"'{op.name}' follows the annotation{'s' if len(places) != 1 else ''} at " + ", ".join(places)
        if not places:
            text = f"'{op.name}' has no annotation to follow"
        if choice.conflict is not None:
            text += f"; conflict: {choice.conflict}"
        return text

    def record_option(self, index: int, choice: Choice) -> None:
        if index in self.unrecorded:
            return
        key = (choice.mesh, choice.option)
        if self.recorded.get(index) == key:
            return
        self.recorded[index] = key
        op = self.ops[index]
        attr = self.option_attrs.get(key)
        if attr is None:
            text = encode_sharding_attr("@" + choice.mesh, option_to_lists(choice.option))
            attr = self.option_attrs[key] = ir.Attribute.parse(text)
        op.attributes[OPTION_ATTR] = attr
        self.changed = True

    # -- materializing -----------------------------------------------------

    def sharding_value(self, mesh: str, s: Sharding, loc: ir.Location) -> ir.Value:
        key = (mesh, s)
        value = self.sharding_values.get(key)
        if value is None:
            view = mesh_ops.ShardingOp(
                mesh,
                s.split_axes or ((),),
                partial_axes=s.partial_axes,
                partial_type=s.partial_type if s.partial_axes else None,
                halo_sizes=s.halo_sizes,
                sharded_dims_offsets=s.sharded_dims_offsets,
                loc=loc,
                ip=self.entry_ip,
            )
            value = self.sharding_values[key] = view.result
        return value

    def front(self, op: ir.Operation) -> tuple[ir.Location, ir.InsertionPoint]:
        """`op`'s location and the insertion point in front of it, where the
        annotations of its values are made: both made once per op (the
        bindings make each at some cost), not once per annotation."""
        if self.front_op is not op or self.front_at is None:  # (`front_op` holds `op`: no other object takes its id)
            self.front_op = op
            self.front_at = (op.location, ir.InsertionPoint(op))
        return self.front_at

    def new_ann(
        self,
        src: ir.Value,
        mesh: str,
        s: Sharding,
        for_users: bool,
        origin: tuple[ir.Location, ...],
        loc: ir.Location,
        ip: ir.InsertionPoint,
        t: ir.Type | None = None,
    ) -> Ann:
        """An annotation of `src` (whose type is `t` when the caller knows it)."""
        # the generic builder with prebuilt attributes: a third of the typed
        # builder's cost, and a function gets one annotation per value
        shard = ir.Operation.create(
            "mesh.shard",
            results=[src.type if t is None else t],
            operands=[src, self.sharding_value(mesh, s, loc)],
            attributes=self.for_users_attrs if for_users else None,
            loc=loc,
            ip=ip,
        )
        ann = Ann(shard, src, shard.result, mesh, s, for_users, False, origin)
        self.register(ann)
        self.changed = True
        return ann

    def ensure_value(
        self,
        r: ir.Value,
        mesh: str,
        need: Sharding,
        origin,
        op: ir.Operation,
        anchor: ir.Operation,
        cause: str,
        what: str,
        t: ir.Type | None = None,
    ) -> ir.Operation:
        """Give `r` (a result of `op`; of type `t` when the caller knows it)
        the layout it is produced in, by an annotation right after `anchor`
        (`op`, or the annotation of a result before `r`); returns the op
        after which the next one goes."""
        own = self.def_ann.get(r)
        if own is not None and own.mesh == mesh and _same_arrival(own.sharding, need):
            return anchor
        if own is not None:
            del self.def_ann[r]
        # made where `op`'s operands get theirs, then moved behind `anchor`
        # (`InsertionPoint.after` costs more: it wraps the next op)
        loc, ip = self.front(op)
        ann = self.new_ann(r, mesh, need, False, origin, loc, ip, t)
        ann.op.move_after(anchor)
        self.hand_uses(r, ann)
        moved = self.user_anns.pop(r, None)
        if moved:
            for a in moved:
                a.src = ann.value
            self.user_anns.setdefault(ann.value, []).extend(moved)
        if own is not None:
            # The op cannot produce the annotated layout, and one value cannot
            # carry two result annotations: the user's annotation now applies
            # to the value's users, which is where the reshard happens.
            own.src = ann.value
            own.for_users = True
            own.op.attributes["annotate_for_users"] = ir.UnitAttr.get()
            self.user_anns.setdefault(ann.value, []).append(own)
            # Annotations for users stacked on it would now annotate an
            # annotation for users (undefined): they read the new one instead.
            for stacked in self.user_anns.pop(own.value, []):
                stacked.op.operands[0] = ann.value
                stacked.src = ann.value
                self.user_anns[ann.value].append(stacked)
            if cause:
                if self.pass_.solver == "cost":
                    moved = self.reshard_bytes(self.costed(r), (mesh, need), (own.mesh, own.sharding))
                    cause = f"{moved} bytes received per device each time; {cause}"
                self.pass_.remark(
                    own.op.location,
                    f"{what} is produced as {_fmt_layout(mesh, need)} and resharded to "
                    f"{_fmt_layout(own.mesh, own.sharding)} for this annotation: {cause}",
                )
        return ann.op

    def ensure_use(
        self,
        op: ir.Operation,
        i: int,
        v: ir.Value,
        mesh: str,
        need: Sharding,
        origin,
        cause: str,
        share=False,
        have: Ann | None | bool = False,
        t: ir.Type | None = None,
    ) -> None:
        """Make operand `i` of `op` arrive in layout `need`.  With `share`
        (ops materialized in program order), an annotation made for an
        earlier op of the same block serves this one too: one reshard per
        value and layout.  `have`: `v`'s annotation when the caller has
        looked it up (None: it has none); `t`: `v`'s type when known."""
        if have is False:
            have = self.anns.get(v)
        if have is not None and have.mesh == mesh and _same_arrival(have.sharding, need):
            return
        # A losing annotation for users that the pass made is bypassed: the
        # reshard starts from its source.  One the user wrote is a layout the
        # cost solver counted on: the reshard starts from it (partition
        # reshards a chain of annotations link by link).
        bypass = have is not None and have.for_users and not (have.explicit and self.pass_.solver == "cost")
        src = have.src if bypass else v
        # (only an argument has an arrival, and an annotation's value is
        # none; the type test costs less than the lookup's hash)
        arrival = self.arrivals.get(src) if (have is None or bypass) and isinstance(src, ir.BlockArgument) else None
        if arrival is not None and arrival != (mesh, need):
            # a differing annotation for users would change the layout the
            # argument arrives in: the one its annotations agree on becomes
            # its own annotation first
            del self.arrivals[src]
            src = self.pin_argument(src, *arrival)
        # (the key's hash takes a binding call: a miss reserves the slot
        # the new annotation goes in instead of hashing the key again)
        slot = self.shared.setdefault((src, mesh, need, op.block if self.nested else None), []) if share else None
        if slot:
            op.operands[i] = slot[0].value
            return
        loc, ip = self.front(op)
        ann = self.new_ann(src, mesh, need, True, origin, loc, ip, t if src is v else None)
        if slot is not None:
            slot.append(ann)
        op.operands[i] = ann.value
        if bypass:
            ann.bypasses = have
        if cause:
            # Whether this reshards is known once the operand's own layout is:
            # the remark is given at the end (`tidy`).
            ann.pending = f"operand {i} of '{op.name}'|{cause}"

    # -- regions -----------------------------------------------------------

    def visit_region_op(self, op: ir.Operation) -> None:
        """One layout per carried value (`ir.control.carried`)."""
        for k, value in enumerate(carried(op)):
            if not isinstance(layout_holder(value).type, ir.RankedTensorType):
                continue
            found: Ann | None = None if value.result is None else self.def_ann.get(value.result)
            if found is None and value.init is not None:
                found = self.anns.get(op.operands[value.init])
            for arg in value.args:
                found = found or self.def_ann.get(arg)
            for y, i in value.yields:
                found = found or self.anns.get(y.operands[i])
            if found is None:
                continue
            need = Sharding(found.sharding.split_axes, found.sharding.partial_axes, found.sharding.partial_type)
            self.apply_carried(op, k, found.mesh, need, found.origin)

    def apply_carried(self, op: ir.Operation, k: int, mesh: str, need: Sharding, origin) -> None:
        """Carried value `k` of `op` gets layout `need` at its result, its
        init, its block arguments and every terminator handing it on."""
        value = carried(op)[k]
        cut = self.cuts.get(mesh) if self.any_offsets else None
        if cut and (static := _static_mesh(self.mesh_shapes.get(mesh))) is not None:
            # a size the mesh does not divide is carried in the function's
            # cut, which the ops around the loop run on (and the solver priced)
            some = value.result if value.result is not None else (value.args or [op.operands[value.init]])[0]
            need = _with_cut(need, some, cut, static)
        if value.result is not None:
            number = ir.OpResult(value.result).result_number
            what = f"result {number} of '{op.name}'"
            self.ensure_value(value.result, mesh, need, origin, op, anchor=op, cause="", what=what)
        if value.init is not None:
            self.ensure_use(op, value.init, op.operands[value.init], mesh, need, origin, "")
        for arg in value.args:
            self.ensure_block_arg(arg, mesh, need, origin)
        for y, i in value.yields:
            self.ensure_use(y, i, y.operands[i], mesh, need, origin, "")

    def ensure_block_arg(self, arg: ir.Value, mesh: str, need: Sharding, origin) -> None:
        own = self.def_ann.get(arg)
        if own is not None:
            return
        block = arg.owner
        ann = self.new_ann(arg, mesh, need, False, origin, self.func.location, ir.InsertionPoint.at_block_begin(block))
        self.hand_uses(arg, ann)

    # -- finishing -----------------------------------------------------------

    def tidy(self) -> None:
        """Drop inferred annotations for users that repeat their value's layout."""
        for ann in list(self.anns.values()):
            if ann.explicit or not ann.for_users:
                continue
            below = self.anns.get(ann.src)
            if below is not None and below.mesh == ann.mesh and _same_arrival(below.sharding, ann.sharding):
                ann.value.replace_all_uses_with(ann.src)
                ann.op.erase()
                del self.anns[ann.value]
            elif ann.pending and (below is not None or ann.bypasses is not None):
                source = below
                below = ann.bypasses or below
                what, cause = ann.pending.split("|", 1)
                where = _where(below.origin[0] if below.origin else below.op.location)
                if self.pass_.solver == "cost":
                    moved = self.reshard_bytes(
                        self.costed(ann.src),
                        None if source is None else (source.mesh, source.sharding),
                        (ann.mesh, ann.sharding),
                    )
                    cause = f"{moved} bytes received per device each time; {cause}"
                self.pass_.remark(
                    ann.op.location,
                    f"{what} is resharded from {_fmt_layout(below.mesh, below.sharding)} (annotated at {where}) "
                    f"to {_fmt_layout(ann.mesh, ann.sharding)}: {cause}",
                )

    def check_unknown(self) -> None:
        if self.pass_.skip_unknown:
            return
        reported: set[int] = set()  # by address: an op inside a reported one is not reported again
        for op in self.unknown:
            if op.name in _ANY_LAYOUT:
                continue
            if reported and _inside(op, reported, self.func):
                continue  # (a stablehlo.return in a stablehlo.case already named)
            culprit = self.sharded_neighbour(op)
            if culprit is not None and knows(op.name):
                op.location.emit_error(
                    f"no sharding rule covers this '{op.name}' (the rule of its kind does not take its sizes, "
                    f"attributes or types) but its {culprit}; annotate that value whole next to it, or use "
                    "skip-unknown to treat it as a barrier"
                )
            elif culprit is not None:
                op.location.emit_error(
                    f"no sharding rule for '{op.name}' but its {culprit}; register a rule "
                    "(mesh_dialect.interfaces.register_rule) or use skip-unknown to treat it as a barrier"
                )
            if culprit is not None:
                self.failed = True
                reported.add(op_address(op))

    def sharded_neighbour(self, op: ir.Operation) -> str | None:
        for i, v in enumerate(op.operands):
            ann = self.anns.get(v)
            if ann is not None and not ann.sharding.is_replicated:
                return f"operand {i} is sharded ({_fmt_layout(ann.mesh, ann.sharding)})"
        for i, r in enumerate(op.results):
            ann = self.def_ann.get(r)
            if ann is None:
                ann = next(iter(self.user_anns.get(r, ())), None)
            if ann is not None and not ann.sharding.is_replicated:
                return f"result {i} is sharded ({_fmt_layout(ann.mesh, ann.sharding)})"
        return None


_PLAIN, _WHOLE_LATER, _SPECIAL = "plain", "whole later", "special"
"""What collecting does with an op of a given name (`_name_kind`)."""


def _name_kind(name: str, later: list[str]) -> str:
    """`_SPECIAL` for a name the walk looks at more closely (mesh ops,
    terminators, region ops, hlo ops with regions), else `_WHOLE_LATER`
    for one whose rule waits (`LATER`), else `_PLAIN`: an op whose rule
    is looked up."""
    if (
        name.startswith("mesh.")
        or name in _SKIPPED_TERMINATORS
        or name in _HLO_RETURNS
        or name in HLO_REGION_OPS
        or name in HLO_BARRIERS
        or name in CARRIED_OPS
    ):
        return _SPECIAL
    return _WHOLE_LATER if name in later else _PLAIN


def _inside(op: ir.Operation, ops: set[int], func: ir.Operation) -> bool:
    """Whether an op around `op` (below `func`) has its address in `ops`."""
    return any(op_address(p) in ops for p in ancestors(op, func))


def _single_blocks(op: ir.Operation) -> bool:
    """Whether each region of `op` has at most one block: a carried value
    is then yielded by that block's terminator.  A region op with a branchy
    region (`scf.execute_region` with `cf.br`) is an op without a rule."""
    regions = op.regions
    return all(len(regions[k].blocks) <= 1 for k in range(len(regions)))


__all__ = ["OPTION_ATTR", "TRAVERSALS", "ShardingPropagation"]
