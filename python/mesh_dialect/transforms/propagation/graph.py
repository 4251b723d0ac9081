"""A function's use-def graph in plain Python, for the cost-driven solver.

`extract` turns what propagation collected of one function (its ops in
program order, its annotations, its explicit options) into a
`solver.Graph`, and returns beside it, per node, what the node stands for in
the IR so the chosen states can be written back.  Every IR query happens
here, once per op; the solver then works on tuples and dicts only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlir import ir

from ...interfaces.captures import MaskedRead, aligned_reads, masked_read
from ...interfaces.choice import same_placement
from ...interfaces.linear import SUM_LINEAR_OPS, term_operands, ways_off_pads
from ...interfaces.registry import INDEX_OFFSET_OPS, is_pointwise, signless_index, walk_inside
from ...interfaces.rules import (
    Conflict,
    Iterator,
    ShardingRule,
    TensorMap,
    option_from_requests,
    shardings_from_option,
)
from ...ir.control import carried, layout_holder, selector, trip_count
from ...ir.schema import DYNAMIC
from ...ir.uniform import CONSTANTS, fill_init, splat_of
from ...sharding.spec import Mesh, Sharding
from ..base import element_bytes
from .solver import CAPTURED, REPLICATED, Graph, Node, State, Value

DYNAMIC_SIZE = 128
"""The size a dynamic tensor dimension is costed as."""

ANY_MESH = ""
"""The mesh of a value every device holds whole: it is every mesh's replicated layout."""

_WHOLE = (ANY_MESH, REPLICATED)
_CAPTURED = (CAPTURED, REPLICATED)
"""What reads a value as produced, whole (a collective's operand): nothing
may reshard it."""
_SOURCES = frozenset((*CONSTANTS, "tensor.empty", "tensor.splat"))
_REMADE = frozenset((*CONSTANTS, "tensor.empty", "linalg.fill", "linalg.generic"))
"""Ops whose result partition may make again in any layout (`rebuilt_op`;
a `linalg.generic` when it is a fill)."""
_NOT_COLLECTIVES = ("mesh.mesh", "mesh.sharding", "mesh.shard")
"""The mesh ops that are no collective (nor a query of one device's data),
as partition tells them apart (`check_collective`)."""
_UNEVEN_OPS = (
    "linalg.",
    "arith.",
    "math.",
    "tensor.empty",
    "tensor.extract_slice",
    "tensor.insert_slice",
    "tensor.concat",
    "tensor.expand_shape",
    "tensor.collapse_shape",
)
"""Ops the solver may run on pieces of unequal sizes: partition gives each
device its own sizes (a slice's or an insert's, read from its piece, along
the dimensions it takes whole: `_Partition.localize_dynamic`; a
concatenation's along the others than the one it joins along; a
reshape's along a dimension alone in its group but for unit dimensions).
A loop that indexes dimensions of different sizes (a strided slice's, a
reshape's group of other sizes, whose cut on one side is not the default
cut on the other) is cut only evenly (`_Candidates.lines_up`).  Pads and
tosa ops keep to even pieces; hlo ops, see `_UNEVEN_HLO`."""
_HLO_DIALECTS = ("stablehlo.", "mhlo.", "chlo.")
_UNEVEN_HLO = frozenset(
    (
        "broadcast_in_dim",
        "concatenate",
        "transpose",
        "dot_general",
        "dot",
        "reduce",
        "gather",
        "reshape",
        "dynamic_slice",
        "dynamic_update_slice",
        "scatter",
    )
)
"""The hlo ops besides the elementwise ones that partition runs on pieces of
unequal sizes.  An hlo op writes its result types out, so such a piece
types as dynamic along its cut: each of these (and each elementwise op)
takes that size from an operand, where the solver cuts a loop its operands
index (`Node.sized_by_operands`).  An argmax or argmin reduce split along the
dimension it picks along gathers its picks, and keeps to even pieces
(`_Candidates.divides`); a concatenate's loops are the dimensions it does
not join, each piece joined on its own device; a gather and a scatter cut
unevenly only some of their loops, and a dynamic_slice and a
dynamic_update_slice only into pieces of a row or more (`uneven_loops_of`);
a reshape only a dimension alone in its group but for unit dimensions
(partition writes it as tensor reshapes, `hlo._reshape`)."""


def gather_uneven_loops(rule: ShardingRule, operands: list[ir.Value]) -> frozenset[int]:
    """The loops of a gather's rule that may cut unevenly: its sum loop (the
    rows its ids pick) and the loops its ids (operand 1) index, its batch,
    whose sizes come from the ids' piece; a dimension the slice takes whole
    (an offset loop) has its size written in `slice_sizes`, one for all.
    (Partition's `_gather_held_rows` masks the ids a device does not hold.)"""
    loops = {k for k, it in enumerate(rule.iterators) if it.is_reduction}
    if len(rule.operand_maps) > 1 and rule.operand_maps[1] is not None:
        loops.update(loop for loop in rule.operand_maps[1] if loop is not None)
    return frozenset(loops)


def every_loop(rule: ShardingRule, operands: list[ir.Value]) -> frozenset[int]:
    """The loops of a dynamic_update_slice's rule that may cut unevenly: all
    of them, the dimension it writes one position of (each device finds the
    position in its piece, whatever that piece's size) and the ones its
    update fills whole (each device writes its own piece:
    `hlo._dynamic_update_slice`).  Listed, not None, so that `apply` cuts
    them only where every device gets a row (a position is not found in an
    empty piece)."""
    return frozenset(range(len(rule.iterators)))


def window_read_loops(rule: ShardingRule, operands: list[ir.Value]) -> frozenset[int]:
    """The loops of a dynamic_slice's rule that may cut unevenly: the
    dimension it reads one element of (the device holding it cuts it from
    its piece, whatever that piece's size: `hlo._held_element`) and, where
    every start is a signless integer, the ones it takes whole too (each
    device reads its own piece by a tensor slice whose start it clamps in
    index arithmetic, which reads no unsigned start: `hlo._sliced_by_tensor`).
    Listed, as `every_loop`'s are."""
    if all(map(signless_index, operands[1:])):
        return every_loop(rule, operands)
    return frozenset(k for k, it in enumerate(rule.iterators) if it.is_reduction)


def written_position_loops(rule: ShardingRule, operands: list[ir.Value]) -> frozenset[int]:
    """The loops of a scatter's rule that may cut unevenly: the dimensions
    it writes one position of, which its inputs index and no other operand
    follows (not the updates, nor the indices).  Each device moves the
    indices into its own piece whatever that piece's size, and writes
    nothing that lands outside it (`hlo._scatter`); the loops the updates
    follow keep even pieces, whose static sizes they write out."""
    n = len(rule.result_maps)
    first = rule.operand_maps[0] if rule.operand_maps else None
    if first is None:
        return frozenset()
    followed = {loop for m in rule.operand_maps[n:] if m is not None for loop in m if loop is not None}
    return frozenset(loop for loop in first if loop is not None and loop not in followed)


_UNEVEN_SOME_LOOPS = {
    "gather": gather_uneven_loops,
    "dynamic_slice": window_read_loops,
    "dynamic_update_slice": every_loop,
    "scatter": written_position_loops,
}
"""The hlo ops of `_UNEVEN_HLO` that cut unevenly only along some loops, and
the function that names those loops from the op's rule and operands."""


def uneven_loops_of(name: str, rule: ShardingRule, operands: list[ir.Value]) -> frozenset[int] | None:
    """The only loops of op `name` (of rule `rule`, reading `operands`) that
    may cut its values unevenly (None: any loop may): the solver keeps the
    others even (`Node.uneven_loops`) and `apply` gives a cut along those
    alone."""
    if not name.startswith(_HLO_DIALECTS):
        return None
    fn = _UNEVEN_SOME_LOOPS.get(name.partition(".")[2])
    return None if fn is None else fn(rule, operands)


def empty_loops_of(name: str, rule: ShardingRule) -> frozenset[int]:
    """The loops of op `name` (of rule `rule`) among its `uneven_loops_of`
    that may also cut a piece of no rows: a gather's sum loops (partition
    gives such a piece one row of zeros its mask never lets through,
    `hlo._gather_held_rows`); the others need a row on every device."""
    if name.startswith(_HLO_DIALECTS) and name.partition(".")[2] == "gather":
        return frozenset(k for k, it in enumerate(rule.iterators) if it.is_reduction)
    return frozenset()


def uneven_kind(name: str) -> tuple[bool, bool]:
    """(whether ops named `name` may run on pieces of unequal sizes, whether
    they are hlo ops: their pieces' sizes must then come from their operands)."""
    if name.startswith(_UNEVEN_OPS):
        return True, False
    if name.startswith(_HLO_DIALECTS):
        return is_pointwise(name) or name.partition(".")[2] in _UNEVEN_HLO, True
    return False, False


Ref = tuple[str, int, int]
"""What a node stands for, as (kind, index, k): kind "op" (an op with a rule:
`index` into the pass's ops), "carry" (value `k` carried by region op
`index`), or "fixed" (an annotation, an op without a rule, a whole source).
A plain tuple: one per op node, so no class to construct."""

_FIXED: Ref = ("fixed", -1, -1)

LATER = ShardingRule((), (), ())
"""The rule of an op not looked up yet (`_Function.rule`): the cost solver
needs none for a value every device holds whole, which is what an
unannotated `tensor.empty` makes, and a fill of one."""


class _Builder:
    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.graph = Graph({name: costed_mesh(shape) for name, shape in fn.mesh_shapes.items()})
        self.graph.dynamic_axes = {
            name: frozenset(a for a, d in enumerate(shape) if d == DYNAMIC or d < 1)
            for name, shape in fn.mesh_shapes.items()
        }
        self.ids: dict[ir.Value, int] = {}
        self.refs: list[Ref] = []
        self.carries: dict[ir.Operation, list[tuple[int, list[tuple[ir.Operation, int]]]]] = {}
        # per branch op until its last branch's terminator: (its index, its
        # carried values, its terminators, those met so far)
        self.joins: dict[ir.Operation, tuple[int, list, list[ir.Operation], list[ir.Operation]]] = {}
        self.weights: dict[ir.Operation, int] = {}
        self.uneven_kinds: dict[str, tuple[bool, bool]] = {}  # `uneven_kind` per op name
        self.rules: dict = {}
        # the same, by identity first: a rule object seen before (every op of
        # a cached signature shares one) is not hashed again (its generated
        # hash reads every field, maps and iterators included)
        self.rule_ids: dict[int, Any] = {}
        self.wider_rules: dict[tuple, ShardingRule] = {}  # a rule with aligned reads (`aligned`)
        self.whole: set[int] = set()  # values every device holds whole (free to slice)
        # values partition makes again in any layout (`Value.rebuilt`): True
        # for an empty, False for a fill or a splat constant (`made_again`)
        self.remade: dict[int, bool] = {}
        self.annotations: list[tuple[ir.Value, int]] = []  # (value, node) per annotation
        # per annotation's value, how many of its uses read its source instead
        # (`annotation`, `handed_back`)
        self.redirected: dict[ir.Value, int] = {}
        self.types: dict[ir.Type, Value | None] = {}  # costed once per type; None: not a ranked tensor
        self.whole_ids: dict[ir.Type, int] = {}  # per type, the one value standing for its whole values
        self.standing: set[int] = set()  # the values of `whole_ids` that are tensors
        # per tuple of result types (`_Function.types`, one per signature; kept
        # so that its id is not reused), the costed value of each result
        self.costed: dict[int, tuple[tuple, list[Value | None]]] = {}
        # one object per distinct given state: the solver memoizes by identity,
        # so annotations alike share their layout ids and reshard tables; and
        # one list of it, shared by the fixed nodes given it (`given`)
        self.states: dict[tuple, list[State]] = {}

    def given(self, needs: tuple, produces: tuple) -> list[State]:
        """The states of a fixed node that needs `needs` and produces
        `produces`: a list no one changes (the solver adds states to the
        nodes that choose only), so nodes alike share it."""
        key = (needs, produces)
        found = self.states.get(key)
        if found is None:
            found = self.states[key] = [State(needs, produces)]
        return found

    def vid(self, v: ir.Value) -> int:
        found = self.ids.get(v)
        if found is not None:
            return found
        return self.new_vid(v, v.type)

    def new_vid(self, v: ir.Value, t: ir.Type) -> int:
        """The id of `v`, of type `t`, not in the graph yet (-1: not a ranked tensor)."""
        value = self.cost(t)
        if value is None:
            self.ids[v] = -1
            return -1
        found = self.ids[v] = self.graph.add_value(value.shape, value.element_bytes, value.dynamic)
        return found

    def cost(self, t: ir.Type) -> Value | None:
        """`t` as the solver costs it, once per type; None: not a ranked tensor."""
        value = self.types.get(t, False)
        if value is False:
            value = self.types[t] = costed_value(t) if isinstance(t, ir.RankedTensorType) else None
        return value

    def result_ids(self, results: list[ir.Value], types: tuple) -> list[int]:
        """`vid` of each of an op's results, whose types are `types` (an op
        signature's, shared by its ops): costed once per signature."""
        found = self.costed.get(id(types))
        if found is None:
            found = self.costed[id(types)] = (types, [self.cost(t) for t in types])
        ids, values, add_value = self.ids, self.graph.values, self.graph.add_value
        out = []
        for v, value in zip(results, found[1]):
            # (one hash of `v`, a binding call: a value not in the graph
            # takes the next id, and is added when it took it)
            if value is None:
                k = ids.setdefault(v, -1)
            else:
                n = len(values)
                k = ids.setdefault(v, n)
                if k == n:
                    add_value(value.shape, value.element_bytes, value.dynamic)
            out.append(k)
        return out

    def whole_vid(self, v: ir.Value, like: int = -1) -> int:
        """The id of a value every device holds whole.  Such values have no
        producer in the graph, so the solver reads nothing of them but their
        shape: one value per type stands for all of them, which spares a
        value per `tensor.empty` and fill.  `like`: the id of a whole value
        of `v`'s type (a fill's init), which spares asking `v` its type when
        that id stands for the type.  (`v` is hashed once when its type has
        a value already: `setdefault` keeps an id `v` has.)"""
        ids = self.ids
        if like >= 0 and like in self.standing:
            return ids.setdefault(v, like)
        t = v.type
        found = self.whole_ids.get(t)
        if found is not None:
            return ids.setdefault(v, found)
        found = ids.get(v)
        if found is not None:
            return found
        found = self.whole_ids[t] = self.new_vid(v, t)
        if found >= 0:
            self.standing.add(found)
        return found

    def vid_like(self, v: ir.Value, k: int) -> int:
        """`vid(v)` for a value of the type of value id `k` (a `mesh.shard`'s
        result, of its source's type, as the verifier has it): costed as
        `k` is, without asking `v` its type."""
        if k < 0:
            return self.vid(v)
        values = self.graph.values
        n = len(values)
        found = self.ids.setdefault(v, n)  # (one hash, as in `result_ids`)
        if found == n:
            value = values[k]
            self.graph.add_value(value.shape, value.element_bytes, value.dynamic)
        return found

    def add(self, node: Node, ref: Ref) -> int:
        self.refs.append(ref)
        return self.graph.add_node(node)

    def fixed(self, op: ir.Operation, needs, produces, operands=None, results=None) -> None:
        ops = [self.vid(v) for v in (op.operands if operands is None else operands)]
        res = [self.vid(v) for v in (op.results if results is None else results)]
        states = self.given(tuple([needs(v) for v in ops]), tuple([produces(v) for v in res]))
        weight = self.weight(op)
        node = Node(ops, res, states, weight=weight)
        node.operand_weights = self.use_weights(op.operands if operands is None else operands, weight)
        self.add(node, _FIXED)

    def annotation(self, ann: Any) -> None:
        """An annotation's node: its layout in and out (`fixed`, unrolled:
        a function has one per value).  Priced as partition runs it: an
        annotation for users stacked on a result annotation reads the value
        as produced where partition does (`read_through`), and one that
        nothing reads moves nothing (`unread`)."""
        vid = self.vid
        src, fn = ann.src, self.fn
        lay = (ann.mesh, fn.priced_layout(ann) if fn.cuts else ann.sharding)
        if ann.for_users:
            below = fn.anns.get(src)
            if below is not None and not below.for_users and self.read_through(below) is not None:
                src = below.src
                self.redirected[below.value] = self.redirected.get(below.value, 0) + 1
        weight = self.weight(ann.op) if fn.has_loops else 1
        k = vid(src)
        v = self.vid_like(ann.value, k)
        node = Node([k], [v], self.given((lay,), (lay,)), weight=weight)
        if weight != 1:
            node.operand_weights = self.use_weights([src], weight)
        self.annotations.append((ann.value, self.add(node, _FIXED)))
        # partition makes the value again in this layout, and can again (a
        # source noted so where it was made, or whole: then its op tells)
        made = self.remade.get(k)
        if made is None and k in self.whole:
            made = self.made_again(src, k)
        if made is not None and not ann.sharding.partial_axes and self.remakes(k):
            self.mark(v, made)

    def read_through(self, ann: Any) -> int | None:
        """The node producing `ann`'s source when the annotations for users
        made on result annotation `ann` before that node is applied read the
        value as produced, else None.  Where the solver produces another
        layout, propagation writes it beside `ann` and turns `ann` into an
        annotation for users (`ensure_value`): `ann` then reshards for its
        own readers only, and the annotations stacked on it (the user's,
        and a loop head's for a value handed back to it, made first) read
        the value as produced (README, "Reading through an annotation"), so
        leaving `ann` costs no reshard to it for them.  But a partial result
        annotation the op can produce says how the op runs (its reduction
        split, then reduced where the user says): reading through it keeps
        the price of reducing the partial sums, so the op runs as annotated
        unless another way is cheaper even then."""
        if self.fn.def_ann.get(ann.src) is not ann or isinstance(ann.src, ir.BlockArgument):
            return None
        v = self.ids.get(ann.src)
        producer = None if v is None or v < 0 else self.graph.values[v].producer
        if producer is None or self.refs[producer[0]][0] == "fixed":
            return None  # (no choice: nothing is written beside it)
        if ann.sharding.partial_axes and self.refs[producer[0]][0] == "op":
            if _can_produce(self.graph.nodes[producer[0]], producer[1], (ann.mesh, ann.sharding)):
                return None
        return producer[0]

    def made_again(self, v: ir.Value, k: int) -> bool | None:
        """What partition makes `v` (value id `k`) again as when it reshards
        it to a layout that is not partial, from pieces of one static size
        (`rebuilds_from`, `_rebuilt_in`): True an empty, False a fill of one
        or a splat constant; None when it moves it."""
        if k < 0:
            return None
        if self.graph.values[k].producer is not None:
            return self.remade.get(k)  # (set where its producer was added)
        # a value every device holds whole: its id may stand for all those of
        # its type (`whole_vid`), so its op tells
        owner = v.owner
        if isinstance(owner, ir.Block):
            return None
        op = owner.operation
        return _remade_as(op, op.name, lambda init: self.made_again(init, self.ids.get(init, -1)) is True)

    def remakes(self, k: int) -> bool:
        """Whether value `k` is produced in a layout partition makes it again
        from (`rebuilds_from`): whole, or given so; or chosen by the solver,
        which never needs to produce one it is not (anything it could give
        from there, the whole value gives for free).  Not an op's layout
        where annotations are cut by offsets: `apply` may give the op their
        cut, which the solver does not see."""
        made = self.graph.values[k].producer
        if made is None:
            return True
        node = self.graph.nodes[made[0]]
        if node.rule is not None or node.carry or len(node.states) != 1:
            return not self.fn.any_offsets
        produces = node.states[0].produces
        lay = produces[made[1]] if produces else None
        if lay is None or not lay[0]:
            return True
        if self.fn.any_offsets and self.refs[made[0]][0] == "op":
            return False  # an explicit option
        return rebuilds_from(self.graph.values[k], self.fn.mesh_shapes[lay[0]], lay[1])

    def rebuilt_op(self, op: ir.Operation, name: str, ops: list[int], res: list[int]) -> None:
        """Note the result of an op (value ids `res`) partition makes again in
        any layout: an empty, a splat constant, a fill of an empty that it
        makes again itself (or that is whole).  Not where annotations are
        cut by offsets (`remakes`)."""
        if len(res) != 1 or res[0] < 0 or self.fn.any_offsets:
            return
        if name == "linalg.generic" and not _scalar_ins(ops):
            return
        # (a fill's init is its last operand: value id ops[-1])
        made = _remade_as(op, name, lambda init: self.made_again(init, ops[-1]) is True and self.remakes(ops[-1]))
        if made is not None:
            self.mark(res[0], made)

    def mark(self, k: int, made: bool) -> None:
        """Note that partition makes value `k` again (`made`: as an empty)."""
        self.remade[k] = made
        self.graph.values[k].rebuilt = True
        self.graph.rebuilt += 1

    def handed_back(self, v: ir.Value, node: int) -> int:
        """The value a terminator hands on to carried value `node` reads:
        `v`'s source when `v` is a result annotation read through
        (`read_through`) whose producer comes after the loop head (whose
        reshard of it is made first)."""
        ann = self.fn.anns.get(v)
        if ann is not None and not ann.for_users:
            producer = self.read_through(ann)
            if producer is not None and node < producer:
                self.redirected[v] = self.redirected.get(v, 0) + 1
                return self.vid(ann.src)
        return self.vid(v)

    def unread(self) -> None:
        """An annotation that nothing reads (but the uses reading its source
        instead, `redirected`) moves nothing: partition erases it.  Its node
        keeps its layout, for propagation to follow where that costs
        nothing, and runs its reshard zero times."""
        redirected, nodes, values = self.redirected, self.graph.nodes, self.graph.values
        for value, n in self.annotations:
            skipped = redirected.get(value, 0)
            if skipped == 0:
                # (the common case: a node reads it, which is a use of it;
                # else one use, without counting them)
                v = nodes[n].results[0]
                if (v >= 0 and values[v].consumers) or next(iter(value.uses), None) is not None:
                    continue
            elif sum(1 for _ in value.uses) > skipped:
                continue
            node = nodes[n]
            node.weight, node.operand_weights = 0, None

    def use_weights(self, values, weight: int) -> list[int] | None:
        """Per operand, how many times its reshard runs, when some differ
        from the op's `weight`: partition reshards a value defined outside
        a loop in front of the loop, once per run of the code around its
        definition (`def_weight`)."""
        if weight == 1:
            return None
        weights = [min(weight, self.def_weight(v)) for v in values]
        return weights if any(w != weight for w in weights) else None

    def def_weight(self, v: ir.Value) -> int:
        """The trip counts of the static loops around `v`'s definition; an
        annotation's value counts where its source is defined (partition
        erases the annotation and reshards the source)."""
        ann = self.fn.anns.get(v)
        if ann is not None:
            return self.def_weight(ann.src)
        owner = v.owner
        if isinstance(owner, ir.Block):
            holder = owner.owner
            if holder is None or holder.operation == self.fn.func:
                return 1
            return self.weight(holder.operation) * _trip_count(holder.operation)
        return self.weight(owner.operation)

    def weight(self, op: ir.Operation) -> int:
        """The trip counts of the loops around `op` whose IR gives them."""
        if not self.fn.has_loops:
            return 1
        parent = op.parent
        if parent is None or parent == self.fn.func:
            return 1
        found = self.weights.get(parent)
        if found is None:
            found = self.weights[parent] = self.weight(parent) * _trip_count(parent)
        return found

    def run(self) -> tuple[Graph, list[Ref]]:
        fn = self.fn
        arrivals = fn.entry_arrivals = []  # the pass reads them again after solving (nothing changes them)
        for arg in fn.entry.arguments:
            lay = fn.arrival(arg)
            arrivals.append((arg, lay))
            v = self.vid(arg)
            if v >= 0:
                self.add(Node([], [v], self.given((), (lay or _WHOLE,))), _FIXED)
        for kind, item in fn.sequence:
            if kind == "shard":
                ann = fn.anns.get(item.result)
                if ann is None:  # an opaque sharding: whatever it is, it is not ours to choose
                    self.fixed(item, lambda v: None, lambda v: None, [item.operands[0]])
                    continue
                self.annotation(ann)
            elif kind == "rule":
                self.op(item)
            elif kind == "region":
                self.region(item)
            elif kind == "yield" and item.parent in self.joins:
                self.join(item)
            elif kind == "yield" and item.parent in self.carries:
                if not self.hand_on(item):
                    self.whole_values(item)  # a while condition's flag
            elif item.name.startswith("mesh.") and item.name not in _NOT_COLLECTIVES:
                # a collective speaks of one device's data: partition takes its
                # operands as they are produced (whole), it reshards none
                self.fixed(item, _captured_if_tensor, _whole)
            else:  # ops without a rule, calls, branches: whole values
                self.whole_values(item)
        self.unread()
        return self.graph, self.refs

    def hand_on(self, terminator: ir.Operation) -> bool:
        """Add what `terminator` hands on to its carried values' nodes (once
        per iteration of the loops around it); False when it hands on none
        (a `stablehlo.while` condition's flag)."""
        inner = self.weight(terminator)
        found = False
        for node, yields in self.carries[terminator.parent]:
            for y, i in yields:
                if y == terminator:
                    self.graph.add_operand(node, self.handed_back(terminator.operands[i], node), inner)
                    found = True
        return found

    def whole_values(self, op: ir.Operation, operands=None, results=None) -> None:
        """An op that reads its tensors whole and produces them whole."""
        self.fixed(op, _whole_if_tensor, _whole, operands, results)

    def op(self, index: int) -> None:
        fn = self.fn
        name = fn.names[index]
        if name == "func.return":
            return  # a returned value keeps its layout: no constraint
        operands, results = fn.io[index]
        if fn.per_device and _touches(fn.per_device, operands, results):
            # one device's data, which partition must not cut or gather
            self.whole_values(fn.ops[index], operands, results)
            return
        if index in fn.fused_pads:  # the op reads those pads' sources
            operands = fn.through_pads(index, list(operands))
        ids = self.ids
        # (a fill's result has its init's type: `like`)
        like = ids.get(operands[1], -1) if name == "linalg.fill" else -1
        if name in _SOURCES or (name == "linalg.fill" and like in self.whole):
            # Every device holds it whole, and it reads no tensor that is
            # not (unless annotated or given an option: an op like any
            # other): its results are values without a producer, which the
            # solver treats as whole (free to slice), so it needs no node.
            if index not in fn.explicit_options and fn.def_ann.keys().isdisjoint(results):
                for r in results:
                    self.whole.add(self.whole_vid(r, like))
                return
        op = fn.ops[index]
        if name == "func.call":  # a callee takes and gives whole values
            self.whole_values(op, operands, results)
            return
        rule = fn.rules[index]
        if rule is LATER:
            rule = fn.rule(index)
        if rule is None:  # looked up late (`LATER`), and there is none: as collecting does
            fn.unknown.append(op)
            self.whole_values(op, operands, results)
            return
        # (a value is usually seen first as its producer's result)
        get, vid = ids.get, self.vid
        ops = [k if (k := get(v)) is not None else vid(v) for v in operands]
        typed = fn.types[index]
        res = [vid(v) for v in results] if typed is None else self.result_ids(results, typed[1])
        # one object per distinct rule: the solver memoizes by identity
        same = self.rule_ids.get(id(rule))
        if same is None:
            same = self.rule_ids[id(rule)] = self.rules.setdefault(rule, rule)
        rule = same
        choice = fn.explicit_options.get(index)
        aligned: dict[int, ir.Value] = {}
        own = ops
        # (where annotations are cut at offsets, partition reads such a tensor
        # whole unless the loop's cut is the default one: priced whole)
        if index in fn.reads_outside and name in INDEX_OFFSET_OPS and choice is None and not fn.any_offsets:
            rule, aligned = self.aligned(op, rule)
            ops = own + list(aligned)
        weight = self.weight(op) if fn.has_loops else 1
        # (where annotations cut a size by offsets, the solver prices that cut
        # (`_Function.explicit_cuts`) and `apply` gives it; where they cut it
        # differently, only hlo ops run on unequal pieces: `cuts_agree`)
        kind = self.uneven_kinds.get(name)
        if kind is None:
            kind = self.uneven_kinds[name] = uneven_kind(name)
        uneven = kind[0] and (not fn.any_offsets or kind[1] or fn.cuts_agree)
        if rule.crops and (not fn.any_offsets or fn.cuts_agree):
            # a slice or a pad reading a dimension through a `Crop`:
            # partition gives each device its own offsets and sizes (crop.py)
            uneven = True
        uneven_loops = None
        if uneven and kind[1]:
            # a gather's rows and batch, the one position a scatter writes:
            # its only loops that may cut unevenly (a dynamic slice's or
            # update's, all its loops, into pieces of a row or more)
            uneven_loops = uneven_loops_of(name, rule, operands)
            if uneven_loops is not None:
                uneven = bool(uneven_loops)
        # (only the ops `SUM_LINEAR_OPS` lists, and generics whose body may
        # be linear, may run on partial sums)
        linear: tuple[tuple[int, ...], ...] = ()
        if name in SUM_LINEAR_OPS:
            linear = term_operands(op)
        elif name == "linalg.generic" and typed is not None:
            # (per signature; None: this op's own reads decide)
            found = fn.rule_cache.linear_bodies.get(id(typed), ())
            linear = term_operands(op) if found is None else found
        if linear and rule.fused:
            linear = ways_off_pads(linear, rule)  # (as partition's `on_terms` reads them)
        node = Node(ops, res, [], rule, False, weight, None, uneven, linear, kind[1], uneven_loops)
        if name.startswith("linalg.") and len(res) == 1 and res[0] >= 0 and index not in fn.reads_outside:
            node.init = len(own) - 1  # (a linalg op's init is its last operand)
        if weight != 1:
            node.operand_weights = self.use_weights([*operands, *aligned.values()], weight)
        if choice is not None:
            node.rule = None
            # the choice's layouts, halos included
            node.states = [_state(choice.mesh, choice.operands, choice.results, choice.option)]
        self.refs.append(("op", index, -1))
        k = self.graph.add_node(node)
        if linear and name == "linalg.generic":
            self.graph.linear_generics[k] = linear
        if name in _REMADE and (name != "linalg.generic" or len(own) == 1 or own[0] < 0):
            self.rebuilt_op(op, name, own, res)  # (a generic reading a tensor is no fill)
        if index in fn.reads_outside:
            self.captures(op, weight, aligned)

    def aligned(self, op: ir.Operation, rule: ShardingRule) -> tuple[ShardingRule, dict[int, ir.Value]]:
        """The rule of a generic whose body reads tensors from outside at
        its own loop indices (`aligned_reads`), each such tensor one more
        operand with the map those reads give, as partition reads it
        (`align_captures`); and those tensors, by id.  A tensor read at one
        data-dependent index in a dimension (`masked_read`) adds a sum
        reduction loop indexing that dimension: split, partition masks the
        read and the results are partial sums (`mask_capture`)."""
        found: dict[int, tuple[ir.Value, TensorMap]] = {}
        reads = aligned_reads(op)
        for v, read in reads.items():
            k = self.ids.get(v)
            # (values every device holds whole may share one id, `whole_vid`: one operand each)
            if k is not None and k >= 0 and k not in found:
                found[k] = (v, read.map)
        masked = masked_read(op, reads)
        if masked is not None and self.shares_source(masked):
            masked = None
        iterators = rule.iterators
        whole: dict[int, TensorMap] = {}  # the masked tensor's map with its masked dimension read whole
        if masked is not None:
            k = self.ids.get(masked.value)
            if k is not None and k >= 0:
                whole = {k: masked.map_with(None)}
                found[k] = (masked.value, masked.map_with(rule.num_loops))
                iterators = (*iterators, SUM_LOOP)
        if not found:
            return rule, {}
        maps = tuple(m for _, m in found.values())
        key = (id(rule), maps)
        wider = self.wider_rules.get(key)
        if wider is None:
            windows = rule.windows + (None,) * len(maps) if rule.windows else ()
            wider = ShardingRule(iterators, rule.operand_maps + maps, rule.result_maps, windows, rule.fused)
            wider = self.wider_rules[key] = self.rules.setdefault(wider, wider)
            if whole:
                # (the moves the solver offers off that dimension: `Graph.unmasked`)
                unmasked = tuple(whole.get(k, m) for k, (_, m) in found.items())
                self.graph.unmasked[id(wider)] = ShardingRule(
                    iterators, rule.operand_maps + unmasked, rule.result_maps, windows, rule.fused
                )
        return wider, {k: v for k, (v, _) in found.items()}

    def shares_source(self, masked: MaskedRead) -> bool:
        """Whether another tensor the body reads is, before its annotations,
        the masked one (two annotations of one table): partition erases
        annotations, the reads then are of one value, read another way than
        masked, and partition does not mask (`mesh_partition.masking`)."""
        anns = self.fn.anns

        def source(v: ir.Value) -> ir.Value:
            for _ in range(64):  # (a chain of annotations)
                ann = anns.get(v)
                if ann is None:
                    break
                v = ann.src
            return v

        own = source(masked.value)
        return any(source(w) == own for w in masked.others)

    def captures(self, op: ir.Operation, weight: int, aligned: dict[int, ir.Value]) -> None:
        """A body that reads tensors from outside its op (a `tensor.extract`
        of a table) reads them whole on every device: partition makes a
        split one whole in front of the op (`check_captures`), so a node
        needs each whole, as an operand read whole would.  Those read at
        the op's loop indices (`aligned`) are the op's node's."""
        found: dict[int, None] = {}

        def visit(inner: ir.Operation) -> ir.WalkResult:
            for v in inner.operands:
                k = self.ids.get(v)  # a body's own values are never in the graph
                if k is not None and k >= 0 and k not in aligned:
                    found.setdefault(k)
            return ir.WalkResult.ADVANCE

        walk_inside(op, visit)  # the op's own operands are its rule's
        if found:
            self.add(Node(list(found), [], self.given((_WHOLE,) * len(found), ()), weight=weight), _FIXED)

    def region(self, index: int) -> None:
        op = self.fn.ops[index]
        if self.fn.per_device and _touches(self.fn.per_device, list(op.operands), list(op.results)):
            self.whole_values(op)  # one device's data (as `op` says): carried whole
            return
        chooser = selector(op)
        if chooser is not None:  # the branch every device takes: read whole
            self.whole_values(op, [op.operands[chooser]], [])
        values = [(k, v) for k, v in enumerate(carried(op)) if isinstance(layout_holder(v).type, ir.RankedTensorType)]
        if values and all(v.init is None and not v.args for _, v in values):
            # A branch op (an if, a case) joins what its branches yield, and
            # nothing flows back: its nodes come after the branches, so that
            # the starting passes, which follow edges in program order, read
            # the yields as inputs rather than as a loop's back edges.
            ends = {end: None for _, v in values for end, _ in v.yields}
            self.joins[op] = (index, values, list(ends), [])
            return
        self.carried_nodes(index, values)

    def join(self, terminator: ir.Operation) -> None:
        """Note a branch's terminator; after the last, add the branch op's
        nodes and hand them every branch's yields."""
        index, values, ends, seen = self.joins[terminator.parent]
        seen.append(terminator)
        if len(seen) < len(ends):
            return
        self.carried_nodes(index, values)
        for end in seen:
            self.hand_on(end)

    def carried_nodes(self, index: int, values: list[tuple[int, Any]]) -> None:
        op = self.fn.ops[index]
        carries = []
        weight = self.weight(op)
        for k, value in values:
            ops = [self.vid(op.operands[value.init])] if value.init is not None else []
            res = ([] if value.result is None else [self.vid(value.result)]) + [self.vid(a) for a in value.args]
            # the init is read once, in front of the loop; the yields once per
            # iteration (their weights come with them)
            loop = value.init is not None and value.result is not None and bool(value.yields)
            uneven = not self.fn.any_offsets or self.fn.cuts_agree
            node = Node(ops, res, carry=True, weight=weight, uneven=uneven, loop=loop)
            carries.append((self.add(node, ("carry", index, k)), value.yields))
        self.carries[op] = carries


SUM_LOOP = Iterator.reduction("sum")
"""The loop a masked read adds to its op's rule (`_Builder.aligned`)."""


def _can_produce(node: Node, j: int, lay: tuple) -> bool:
    """Whether some loop sharding of `node`'s rule (or its given state)
    produces result `j` in layout `lay`, as far as the rule says before the
    solver lists candidates (a partial layout the op may produce on terms,
    `linear`, or a request the rule rejects as malformed, counts)."""
    if node.rule is None:
        return any(st.produces and st.produces[j] == lay for st in node.states)
    mesh, s = lay
    try:
        found = option_from_requests(node.rule, [("result", j, s)])
    except ValueError:
        return True
    if isinstance(found, Conflict):
        return bool(s.partial_axes and node.linear)
    made = shardings_from_option(node.rule, found)[1][j]
    return made is not None and same_placement(made, s)


def _remade_as(op: ir.Operation, name: str, init_is_empty: Callable[[ir.Value], bool]) -> bool | None:
    """What partition makes `op`'s result again as in another layout: True
    an empty, False a splat constant or a fill of an init `init_is_empty`
    accepts; None when it moves the result instead."""
    if name == "tensor.empty":
        return True
    if name in CONSTANTS:
        return False if splat_of(op) is not None else None
    init = fill_init(op, name)
    return False if init is not None and init_is_empty(init) else None


def _scalar_ins(ops: list[int]) -> bool:
    """Whether only an op's last operand is a tensor (a generic may be a fill)."""
    n = len(ops)
    if n == 0 or ops[n - 1] < 0:
        return False
    for i in range(n - 1):
        if ops[i] >= 0:
            return False
    return True


def rebuilds_from(value: Value, mesh_shape: tuple[int, ...], s: Sharding) -> bool:
    """Whether partition makes a value it rebuilds (`Value.rebuilt`) again
    from its pieces in layout `s`: not partial sums, and each of one static
    size.  A piece of another size is made with its own sizes, which do not
    say the whole's: partition moves it instead (`_rebuilt_in`)."""
    if s.partial_axes:
        return False
    mesh = None
    for d in s.sharded_dims():
        if d >= len(value.shape) or d in value.dynamic:
            return False
        for a in s.split_axes[d]:
            if a >= len(mesh_shape) or mesh_shape[a] == DYNAMIC or mesh_shape[a] < 1:
                return False
        if mesh is None:
            mesh = Mesh(costed_mesh(mesh_shape))
        if not s.is_even_dim(d, value.shape[d], mesh):
            return False
    return True


def _whole_if_tensor(v: int) -> tuple | None:
    return _WHOLE if v >= 0 else None


def _captured_if_tensor(v: int) -> tuple | None:
    return _CAPTURED if v >= 0 else None


def _whole(v: int) -> tuple:
    return _WHOLE


def _state(mesh: str, operands, results, option) -> State:
    return State(
        tuple(None if s is None else (mesh, s) for s in operands),
        tuple(None if s is None else (mesh, s) for s in results),
        option,
        mesh,
    )


def costed_mesh(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A mesh with dynamic sizes is costed as if each were 2."""
    return tuple(2 if d == DYNAMIC or d < 1 else d for d in shape)


def costed_value(t: ir.RankedTensorType) -> Value:
    """A tensor type as the solver costs it: dynamic sizes at `DYNAMIC_SIZE`."""
    dynamic_size = ir.ShapedType.get_dynamic_size()
    dims = list(t.shape)
    shape = tuple(DYNAMIC_SIZE if d == dynamic_size else d for d in dims)
    dynamic = tuple(k for k, d in enumerate(dims) if d == dynamic_size)
    return Value(shape, element_bytes(t), dynamic=dynamic)


def _touches(per_device: dict, operands: list[ir.Value], results: list[ir.Value]) -> bool:
    """Whether an op reads or makes a value `per_device` lists."""
    keys = per_device.keys()
    return not (keys.isdisjoint(operands) and keys.isdisjoint(results))


def _trip_count(op: ir.Operation) -> int:
    """Iterations of a loop whose IR gives them, at least 1 (1 for anything
    else: an unknown count is costed as one trip)."""
    return max(1, trip_count(op) or 1)


def extract(fn: Any) -> tuple[Graph, list[Ref]]:
    """The graph of the function propagation collected in `fn`, and per node
    what it stands for; `fn.value_ids` gets each IR value's id in it."""
    builder = _Builder(fn)
    fn.value_ids = builder.ids
    return builder.run()


__all__ = ["ANY_MESH", "DYNAMIC_SIZE", "Ref", "costed_mesh", "costed_value", "extract", "rebuilds_from"]
