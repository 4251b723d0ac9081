"""The cost-driven choice of every op's loop sharding: plain Python, no IR.

Propagation extracts each function into a `Graph` (`graph.py`): one node
per op, per explicit annotation, per function argument and per value
carried through a region, joined by the tensor values between them.  A
node has candidate *states*: an op's states are loop shardings, a carried
value's states are layouts, and a node whose layout is given (an explicit
annotation, an explicit `mesh.sharding_option`, an op without a rule, a
value every device holds whole) has exactly one.  A state says which layout
the node needs of each operand and which layout it produces for each result.

Cost.  A value produced in one layout and needed by its consumers in others
is resharded once per other layout (propagation and partition share one
reshard among the users that want the same layout); each costs the
resharding planner's bytes received per device (`sharding.resharding`, on
the value's real shape and element type), times the trip counts of the
static loops around the use.  A solution picks one state per node; its
cost is the sum over all values.  A whole value slices for free, so values
every device holds (constants, `tensor.empty`, fills of them, unannotated
arguments) cost nothing wherever they go: sharing an init never forces a
layout, and such values suggest no layouts to their users either.  A value
partition makes again in each layout its users need (a fill of an empty,
annotated split: `Value.rebuilt`) costs nothing to reshard either, from
any layout it can be made again from; the cost function says which.

Ties (equal bytes) go to the state that splits the op's loops over more
devices (less work and memory per device), then to the earlier candidate.

Algorithm, for N nodes, E uses of values and at most K states per node:

1. Candidates.  Fixed nodes start with their state.  Each value keeps the
   layouts its producer and consumers can give or want (at most
   `MAX_LAYOUTS`).  An op turns the layouts on its values (each, each pair
   on different values, and all at once) into loop shardings with its
   rule's `option_from_requests` (a pair that wants one mesh axis on two
   loops gives both ways of settling it, the loser keeping its other
   axes, and the axis moved to a parallel loop both index: `clash_moves`,
   attention's q and k split along their sequences run split by heads),
   and a layout splitting a dimension the
   op needs whole also into the options moving those axes to another loop
   (`moved_options`: a sort along a split dimension sorts rows split by the
   same axes, one all_to_all away); the replicated sharding is always a
   candidate, and so is every layout for a carried value.  New states add
   layouts to their values, whose nodes are revisited until nothing new
   appears: each value's list grows at most `MAX_LAYOUTS` times, so this is
   O(E K^2) rule evaluations, memoized per rule and requests.
2. Starting points, each O(E K^2) with per-use K x K tables (memoized
   per shape, element type and state lists, so repeated layers share them).
   Nodes are in program order, topological but for the values loops carry
   back to their head (left to step 3).  (a) A backward pass computes per
   state the cheapest cost downstream (a value handed back to a loop head
   counted with the head in the state its fixed neighbours favour), then a
   forward pass fixes each node given its decided producers (and the loop
   heads its yields go back to) plus that cost: the exact optimum on chains
   (a value read twice is priced per use here; step 3 shares its
   reshards).  (b) A forward pass computes per state the cheapest cost
   upstream, then a backward pass fixes each node given its decided
   consumers: the exact optimum on in-trees (an op combining independent
   branches).  (c) When some value has several uses, (a) again with each
   use priced at its reshard over the number of uses: exact when the uses
   agree on a layout, as their shared reshard is (priced per use, a value
   four ops read whole costs four reductions, and can lose to gathering
   what it was computed from, a plan moving one node cannot leave).
3. From each start, rounds of local improvement with the exact shared cost
   (each node takes the state cheapest given all its neighbours, back
   edges included) until a round changes nothing, then a loop head and a
   node handing a value back to it moved together (neither pays alone when
   the body yields what the head carries), then rounds again: at most
   `MAX_ROUNDS` rounds after each move, and `MAX_ROUNDS` moves plus two
   per pair of a loop head and a node yielding to it (a function of many
   loops may need a move for each); a node's evaluation costs
   O(K * layouts on its values).  The cheapest
   result wins.
4. Where values go back to loop heads, start (d): start (a)'s forward pass
   again, each loop head kept in the state the cheapest plan of step 3
   gave it, then local improvement; kept if cheaper still.  Start (a)
   fixes a head before its body, by what its fixed neighbours favour, and
   the ops after the loop follow; moving the head later does not carry a
   chain of them along when each alone would move more (a broadcast
   before a reduction that could run on partial sums).

Repeated layers ask every step the same questions, so each step is
memoized by all it reads and a layer after the first few costs a lookup
per node: an expansion by the rule, the node's list of states (an id per
list), its values' shapes and the layouts on them, answered with the new
states and the layouts they add (a node whose last expansion is known to
add nothing on a second one, and around which nothing changed since, is
not asked again); a starting pass's step by the interned cost vectors it
adds (less their minimum: a constant changes no choice, the first index of
the smallest stays) and the tables and states it reads (start (a)'s vector
of a node handing values back to loop heads, as the nodes before it read
it, by its own vector, the tables of those values and the heads' vectors);
a node's local costs by its signature (its states, tables and, for a value
read several times, the state lists, indices and weights of its other
users) and the states of the nodes they read (moving a loop head with the
node handing back to it reads the same costs).

Nothing depends on the order in which a user wrote annotations for users,
on sweeps, or on duplicate ops that `cse` would merge: the costs are the
same either way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, combinations
from operator import add
from typing import Any

from ...interfaces.linear import on_terms
from ...interfaces.rules import (
    Conflict,
    ShardingOption,
    ShardingRule,
    clash_moves,
    moved_options,
    option_from_requests,
    select_axes,
    shardings_from_option,
)
from ...sharding.spec import Sharding

Layout = tuple[str, Sharding]
"""A value's layout on a mesh."""

MAX_LAYOUTS = 12
"""Candidate layouts kept per value (the first found).  Settled clashes
add layouts a value's earlier neighbours would otherwise have offered:
with 8, they crowded out the layouts of the cheapest plan on 2 of 400
generated 2-D and 3-D mesh MLPs."""
MAX_STATES = 16
"""Candidate states kept per node (the first found)."""
LOOP_MOVE_STEPS = 8
"""How many rounds of moves around a loop head and its yield `loop_move`
tries before it prices the move (a body of a few ops in a chain)."""

MAX_LINKED = 8
"""The most loop heads `_Local.loop_move` moves together through loop
results that are other loops' inits: a scan's gradient links a forward and
a backward loop; a chain of hundreds of loops (each trial moving them all)
is left to the moves of one loop at a time."""
MAX_ROUNDS = 8
"""Rounds of local improvement after the forward pass, and after each
loop move (`_Local.improve`)."""
IMPOSSIBLE = 1 << 40
"""The bytes a cost function returns for a change no plan realizes (a value
moving between meshes, an uneven split)."""
TIE_RANGE = 1 << 10
"""A state's tie-breaker lies in [0, TIE_RANGE]: less work per device, less
(a state on partial sums is one above the state splitting alike)."""
COLLECTIVE = 1 << 40
"""One collective more outweighs the tie-breakers of any program of fewer
than 2**30 nodes: among plans moving as many bytes, fewer collectives win
(latency), then more pieces."""
BYTE = 1 << 64
"""One byte of traffic outweighs the collectives of any program of fewer
than 2**24 reshards (and the tie-breakers)."""

REPLICATED = Sharding(())

CAPTURED = "\x00captured"
"""The mesh of a layout no reshard gives: a value a body reads from outside
its op (not an operand, so nothing can reshard it for the read) needs it;
only a value produced whole has it for free (the cost function's part)."""


@dataclass(frozen=True, slots=True)
class State:
    """One way a node can run: the layouts it needs of its operands (None:
    any), the layouts it produces, and its loop sharding (ops only)."""

    needs: tuple[Layout | None, ...]
    produces: tuple[Layout | None, ...]
    option: ShardingOption | None = None
    mesh: str = ""
    tie: int = 0


@dataclass(slots=True)
class Node:
    """A node of the graph.  `operands`/`results` hold value ids (-1: not a
    tensor).  A node with a `rule` chooses a loop sharding; a node with
    `layouts` chooses one layout for all its values (a carried value);
    otherwise its one state is given.  Nodes with equal rules should share
    one rule object: candidates are memoized by the rule's identity."""

    operands: list[int]
    results: list[int]
    states: list[State] = field(default_factory=list)
    rule: ShardingRule | None = None
    carry: bool = False
    weight: int = 1
    operand_weights: list[int] | None = None  # per operand, when they differ (a loop's init and yields)
    uneven: bool = False  # may run on pieces of unequal sizes (see `_Candidates.divides`)
    # the ways it may run on partial sums, each the operands read as terms (`_Candidates.linear`)
    linear: tuple[tuple[int, ...], ...] = ()
    # its results' pieces take their sizes from its operands' (an hlo op, whose
    # types are written out): on unequal pieces, only loops an operand indexes are cut
    sized_by_operands: bool = False
    # with `uneven`: the only loops that may cut a value unevenly (None: any)
    uneven_loops: frozenset[int] | None = None
    # the operand that is the init of its one result, a linalg op's (-1:
    # none): split as a sum reduction, it may read it as terms (`partial_init`)
    init: int = -1
    # with `carry`: a loop's carried value, operand 0 its init and result 0
    # the loop's result (False: half of an scf.while's, a branch op's or a
    # barrier's value, which `_linked_heads` does not join to loops)
    loop: bool = True

    def weight_of(self, i: int) -> int:
        """How many times operand `i` is read: the trip counts around the use."""
        return self.operand_weights[i] if self.operand_weights is not None else self.weight


@dataclass(slots=True)
class Value:
    shape: tuple[int, ...]
    element_bytes: int
    producer: tuple[int, int] | None = None  # (node, result index); None: whole on every device
    consumers: list[tuple[int, int]] = field(default_factory=list)
    dynamic: tuple[int, ...] = ()  # dimensions of dynamic size (costed at a nominal size)
    # partition makes it again in the layout a user needs instead of moving
    # it, from pieces of one static size (`graph.rebuilds_from`): a fill of an
    # empty, an empty, a splat constant, or a change of layout of one
    rebuilt: bool = False


@dataclass
class Graph:
    meshes: dict[str, tuple[int, ...]]
    nodes: list[Node] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)
    dynamic_axes: dict[str, frozenset[int]] = field(default_factory=dict)  # mesh axes of dynamic size
    rebuilt: int = 0  # how many values are `Value.rebuilt`
    # per rule with a masked read's loop (`graph.SUM_LOOP`), by id, the same
    # rule with that dimension read whole: its moved options (a split moved
    # off the table's masked dimension) stay candidates
    unmasked: dict[int, ShardingRule] = field(default_factory=dict)
    masks: bool = True  # False: no state splits a masked read's loop
    # per mesh, the function's explicit cut of each (size, split axes) the
    # mesh does not divide (`_Function.explicit_cuts`): a crop's operand is
    # laid out for its outputs so cut
    cuts: dict[str, dict[tuple, tuple[int, ...]]] = field(default_factory=dict)
    # nodes whose ways to run on partial sums a generic's body gives
    # (`interfaces.linear.generic_terms`), with those ways
    linear_generics: dict[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)

    def add_value(self, shape: tuple[int, ...], element_bytes: int, dynamic: tuple[int, ...] = ()) -> int:
        # (positional: shape, element_bytes, producer, consumers, dynamic)
        self.values.append(Value(shape, element_bytes, None, [], dynamic))
        return len(self.values) - 1

    def add_node(self, node: Node) -> int:
        index = len(self.nodes)
        self.nodes.append(node)
        for i, v in enumerate(node.operands):
            if v >= 0:
                self.values[v].consumers.append((index, i))
        for j, v in enumerate(node.results):
            if v >= 0:
                self.values[v].producer = (index, j)
        return index

    def add_operand(self, node: int, value: int, weight: int | None = None) -> None:
        """A late operand (a value a loop yields back to its carried value),
        read `weight` times (default: the node's weight)."""
        n = self.nodes[node]
        if weight is not None and n.operand_weights is None:
            n.operand_weights = [n.weight] * len(n.operands)
        n.operands.append(value)
        if n.operand_weights is not None:
            n.operand_weights.append(n.weight if weight is None else weight)
        if value >= 0:
            self.values[value].consumers.append((node, len(n.operands) - 1))


Cost = Callable[[Value, Layout | None, Layout | None], int]
"""Bytes a device receives to turn a value from one layout into another
(None: produced whole / needed in any layout)."""


def _outer_axes(req: tuple[str, int, Sharding]) -> list[tuple[str, int, Sharding]]:
    """`req` with each dimension split over several mesh axes cut back to
    its outer axes, one request per prefix (none for a layout with halos or
    offsets, whose pieces the prefix would not keep)."""
    side, i, s = req
    if s.halo_sizes or s.sharded_dims_offsets:
        return []
    out = []
    for d, axes in enumerate(s.split_axes):
        for k in range(1, len(axes)):
            split = (*s.split_axes[:d], tuple(axes[:k]), *s.split_axes[d + 1 :])
            out.append((side, i, Sharding(split, s.partial_axes, s.partial_type)))
    return out


_EVEN, _UNEVEN, _EMPTY, _REFUSED = "even", "uneven", "empty", "refused"
"""How a value splits in a layout (`_Candidates.cut_of`)."""


def _group(mesh_shape: tuple[int, ...], axes: Sequence[int]) -> int:
    n = 1
    for a in axes:
        n *= max(1, mesh_shape[a]) if a < len(mesh_shape) else 1
    return n


# -- 1. candidates ---------------------------------------------------------------


@dataclass(slots=True)
class _Facts:
    """What the solver reads of each value but its layouts, gathered in one
    pass (at scale a pass over the values costs its memory reads)."""

    whole: list[bool]  # every device holds it whole (see `_facts`)
    form: list[int]  # an id for its shape, dynamic dimensions and wholeness; -1 at the end (not a tensor)
    # an id for its shape and element type (and, for a value partition
    # rebuilds, its dynamic dimensions and that), all a reshard's cost
    # reads: its first such value
    kind: list[int]


def _facts(graph: Graph) -> _Facts:
    """Per value: whether every device holds it whole (an argument or value
    with no producer in the graph, or one produced by a fixed node naming
    no mesh), its form and its kind (each id the index of the first value
    alike: no counter to keep)."""
    nodes = graph.nodes
    whole: list[bool] = []
    form: list[int] = []
    kind: list[int] = []
    forms: dict[tuple, int] = {}
    kind_ids: dict[tuple, int] = {}
    for v, value in enumerate(graph.values):
        made = value.producer
        if made is None:
            w = True
        else:
            node = nodes[made[0]]
            if node.rule is not None or node.carry or len(node.states) != 1:
                w = False
            else:
                produces = node.states[0].produces
                lay = produces[made[1]] if produces else None
                w = lay is None or not lay[0]
        whole.append(w)
        shape = value.shape
        form.append(forms.setdefault((shape, value.dynamic, w), v))
        kind.append(kind_ids.setdefault((shape, value.element_bytes), v))
    form.append(-1)
    if graph.rebuilt:
        # a value partition rebuilds is a kind of its own (pricing reads its
        # dynamic dimensions too), and no other value's (a kind is its first value)
        kind_ids = {}
        kind = []
        for v, value in enumerate(graph.values):
            key = (value.shape, value.element_bytes)
            kind.append(kind_ids.setdefault((*key, value.dynamic) if value.rebuilt else key, v))
    return _Facts(whole, form, kind)


_Cand = tuple[State, tuple[int, ...], tuple[int, ...]]
"""A candidate state with its needed and produced layouts as layout ids
(-1: None)."""

_Expansion = tuple[
    tuple[State, ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    int,
    tuple[tuple[int, tuple[int, ...]], ...],
    tuple[int, ...],
    list[bool],
]
"""What `_Candidates.expand` adds to a node: its new states, their needed
and produced layout ids, the id of its list of states after them, what
they add to the layouts of its values: per value whose list changed, its
index in the node's values (results, then operands) and its new list; and
the indices of the values whose lists grew, each once, in
the order they first grew; and whether expanding the node again adds nothing unless
another node changes the layouts around it (one cell per question asked
next, set once that question is answered)."""


class _Candidates:
    """Step 1.  Layouts are interned to small ints (`lid`): the seen lists,
    memo keys and every later table compare and hash ints, where a layout
    tuple would call `Sharding.__hash__` (Python) each time it is hashed."""

    def __init__(self, graph: Graph) -> None:
        self.g = graph
        self.memo: dict[tuple, list[tuple[str, ShardingOption]]] = {}
        # the rule's answers by rule and request(s): the expansions of one
        # op ask about the same pairs of layouts again as its values grow
        self.rule_memo: dict[tuple, object] = {}
        self.state_memo: dict[tuple, _Cand] = {}
        self.linear_memo: dict[tuple, _Cand | None] = {}  # None: the op cannot give that layout on terms
        self.divisible: dict[tuple, str] = {}
        self.expand_memo: dict[tuple, _Expansion] = {}
        self.unreduced_memo: dict[int, Layout] = {}
        self.facts = _facts(graph)
        self.whole = self.facts.whole
        # the layout ids each value can give or want, in the order found
        self.seen: list[tuple[int, ...]] = [()] * (len(graph.values) + 1)  # (and () at the end: not a tensor)
        # one id per distinct layout, and its one object (equal layouts
        # from different rules and annotations share it)
        self.ids: dict[Layout, int] = {}
        self.layouts: list[Layout] = []
        self.named: list[bool] = []  # the layout names a mesh (else: whole, suggests nothing)
        # per node, an id for its list of states: equal ids, equal lists
        # (`extended`; the solver keys tables and costs by them)
        self.list_id: list[int] = [0] * len(graph.nodes)
        self.lists: dict[tuple[int, int], int] = {}
        self.lengths = [0]  # per list id, its length
        # per list id, parallel to its states: their layout ids (a node's
        # are its list's: nodes alike share them, none holds a copy)
        self.list_needs: list[tuple[tuple[int, ...], ...]] = [()]
        self.list_produces: list[tuple[tuple[int, ...], ...]] = [()]
        self.list_ties: list[list[int]] = [[]]  # per list id, its states' tie-breakers
        self.weights: list[int] = []  # per node, its weight (-1: per operand; `start`)
        self.selecting: list[int] = []  # the op nodes whose rule has a `select` or `scan` loop, in order
        # per node, its last expansion's `_Expansion` settled cell (None: it
        # may add something), and those cells per question asked next
        self.settled: list[list[bool] | None] = [None] * len(graph.nodes)
        self.settling: dict[tuple, list[bool]] = {}

    def lid(self, lay: Layout | None) -> int:
        """The id of a layout (-1 for None)."""
        if lay is None:
            return -1
        found = self.ids.get(lay)
        if found is None:
            found = self.ids[lay] = len(self.layouts)
            self.layouts.append(lay)
            self.named.append(bool(lay[0]) and lay[0] != CAPTURED)
        return found

    def lids(self, lays: tuple[Layout | None, ...]) -> tuple[int, ...]:
        return tuple(self.lid(lay) for lay in lays)

    def canonical(self, lids: tuple[int, ...]) -> tuple[Layout | None, ...]:
        layouts = self.layouts
        return tuple(None if k < 0 else layouts[k] for k in lids)

    def note(self, node: Node, needs: tuple[int, ...], produces: tuple[int, ...], grew: list[int]) -> None:
        """Record the layouts a new state gives the node's values; the values
        whose lists grew go to `grew`."""
        seen, whole, named = self.seen, self.whole, self.named
        operands = node.operands
        if len(operands) != len(needs):  # (a late operand: none of the state's layouts)
            n = min(len(operands), len(needs))
            operands, needs = operands[:n], needs[:n]
        for v, lay in zip(operands + node.results, needs + produces):
            if v >= 0 and lay >= 0 and named[lay] and not whole[v]:
                have = seen[v]
                if lay not in have and len(have) < MAX_LAYOUTS:
                    seen[v] = (*have, lay)
                    grew.append(v)

    def options(self, rule: ShardingRule, requests: tuple[tuple[str, int, Layout], ...]) -> list[tuple[str, tuple]]:
        key = (id(rule), requests)
        found = self.memo.get(key)
        if found is not None:
            return found
        out: dict[tuple[str, tuple], None] = {}
        by_mesh: dict[str, list[tuple[str, int, Sharding]]] = {}
        for side, i, (mesh, s) in requests:
            by_mesh.setdefault(mesh, []).append((side, i, s))
        asked = self.rule_memo

        def once(key: tuple, answer: Callable, *args: object) -> Any:
            found = asked.get(key)
            if found is None:
                found = asked[key] = answer(*args)
            return found

        rid = id(rule)

        def ask(reqs: tuple) -> ShardingOption | Conflict:
            return once((rid, reqs), option_from_requests, rule, reqs)

        for mesh, reqs in by_mesh.items():
            out.setdefault((mesh, tuple(() for _ in rule.iterators)))
            # a dimension split over several axes also offers its outer axes
            # alone, which leave the inner ones to another request (rows over
            # [0, 1] read by a matmul whose weight is split over 1 run on
            # rows over [0]: Megatron's sequence parallelism)
            reqs = reqs + [r for req in reqs for r in _outer_axes(req)]
            for r in reqs:
                opt = ask((r,))
                if not isinstance(opt, Conflict):
                    out.setdefault((mesh, opt))
            clashing: list[tuple[ShardingOption, tuple, tuple]] = []
            for a, b in combinations(reqs, 2):
                if a[:2] == b[:2]:
                    continue
                opt = ask((a, b))
                if not isinstance(opt, Conflict):
                    out.setdefault((mesh, opt))
                else:
                    clashing.append((opt.resolved, a, b))
            for ordered in (reqs, sorted(reqs, key=lambda r: r[0] != "operand")):
                opt = ask(tuple(ordered))
                out.setdefault((mesh, opt.resolved if isinstance(opt, Conflict) else opt))
            # a pair that clashes (both want one mesh axis, on different
            # loops) settles it both ways: the winner keeps all its axes, the
            # loser the others (a matmul reading activations with the batch
            # over [0] and the sequence over [1], and a weight with its
            # columns over [1]: batch over [0], columns over [1], the
            # sequence gathered)
            for resolved, a, b in clashing:
                out.setdefault((mesh, resolved))
                opt = ask((b, a))
                out.setdefault((mesh, opt.resolved if isinstance(opt, Conflict) else opt))
            # or the clash moves to a loop both index (`clash_moves`: q and
            # k split along their sequences run split by heads), last so
            # they crowd out no earlier candidate
            for _, a, b in clashing:
                for opt in once((rid, "clash", a, b), clash_moves, rule, a, b):
                    out.setdefault((mesh, opt))
            # axes on a dimension the op needs whole may move to another
            # (`moved_options`), last so they crowd out no earlier candidate
            whole = self.g.unmasked.get(id(rule))
            for r in reqs:
                for of in (rule,) if whole is None else (rule, whole):
                    for opt in once((id(of), "moved", r, mesh), moved_options, of, r, self.g.meshes.get(mesh)):
                        out.setdefault((mesh, opt))
        result = self.memo[key] = list(out)
        return result

    def state(self, rule: ShardingRule, mesh: str, option: ShardingOption) -> _Cand:
        key = (id(rule), mesh, option)
        found = self.state_memo.get(key)
        if found is None:
            cuts = self.g.cuts.get(mesh) if rule.crops else None
            operands, results = shardings_from_option(rule, option, self.g.meshes.get(mesh), cuts)
            needs = self.lids(tuple(None if s is None else (mesh, s) for s in operands))
            produces = self.lids(tuple(None if s is None else (mesh, s) for s in results))
            st = State(self.canonical(needs), self.canonical(produces), option, mesh, self.tie(mesh, option))
            found = self.state_memo[key] = (st, needs, produces)
        return found

    def carried_state(self, n_operands: int, n_results: int, lid: int) -> _Cand:
        key = (n_operands, n_results, lid)
        found = self.state_memo.get(key)
        if found is None:
            lay = self.layouts[lid]
            tie = self.tie(lay[0], lay[1].split_axes)
            st = State((lay,) * n_operands, (lay,) * n_results, None, lay[0], tie)
            found = self.state_memo[key] = (st, (lid,) * n_operands, (lid,) * n_results)
        return found

    def tie(self, mesh: str, split: Sequence[Sequence[int]]) -> int:
        """Smaller the more pieces the work is cut into."""
        shape = self.g.meshes.get(mesh, ())
        pieces = 1
        for axes in split:
            pieces *= _group(shape, axes)
        return TIE_RANGE // pieces - 1 if pieces < TIE_RANGE else 0

    def divides(self, node: Node, st: State) -> bool:
        """Whether the node can run in the state's layouts.  A dimension of
        dynamic size is cut at run time by the default rule, as partition
        cuts it; a static one the mesh does not divide is cut unevenly (the
        default rule's pieces, as XLA pads and splits a size its devices do
        not divide) only by a node marked `uneven` (ops partition runs on
        any pieces) when every piece is non-empty and the pieces line up
        across the node (`lines_up`).  No loop read through a window is
        split over a mesh axis or a dimension of dynamic size (halos need
        static pieces), nor any loop over a mesh axis of dynamic size across
        dimensions of different static sizes (`lines_up_at_run_time`)."""
        shape = self.g.meshes.get(st.mesh)
        if shape is None:
            return True
        rule = node.rule
        if not self.g.masks and st.option and id(rule) in self.g.unmasked and st.option[-1]:
            return False  # (the masked read's loop is the last)
        if rule is not None and rule.selects and st.option is not None:
            if self.g.dynamic_axes.get(st.mesh, frozenset()).intersection(select_axes(rule, st.option)):
                return False  # the picks are gathered along a dimension of static size
        if rule is not None and rule.scans and st.option is not None:
            dynamic_axes = self.g.dynamic_axes.get(st.mesh, frozenset())
            if any(dynamic_axes.intersection(st.option[scan.loop]) for scan in rule.scans):
                return False  # the pieces' totals are gathered along a dimension of static size
        if rule is not None and rule.windows and st.option is not None:
            dynamic_axes = self.g.dynamic_axes.get(st.mesh, frozenset())
            for k, dims in enumerate(rule.windows):
                v = node.operands[k] if dims and k < len(node.operands) else -1
                dynamic_dims = self.g.values[v].dynamic if v >= 0 else ()
                for d, w in enumerate(dims or ()):
                    if w is None or not st.option[w.loop]:
                        continue
                    if d in dynamic_dims or dynamic_axes.intersection(st.option[w.loop]):
                        return False  # halos need static pieces
                    if w.base != 1 and not w.even(_group(shape, st.option[w.loop])):
                        return False  # a dilated input's pieces must each read as many rows alike
        if rule is not None and rule.crops and st.option is not None:
            if self.g.dynamic_axes.get(st.mesh) and any(st.option[c.loop] for c in rule.crops):
                return False  # a crop's cut needs static pieces (partition splits none on such a mesh)
        if rule is not None and st.option is not None and not self.lines_up_at_run_time(node, st):
            return False
        uneven = empty = False
        # A crop's operand cut by `crop_layout`'s offsets, where each device's
        # run starts: an inserted piece's pieces are those parts, whatever the
        # mesh divides; a sliced operand's too where the mesh divides the
        # dimensions it crops (another dimension cut unevenly keeps its cut,
        # and partition moves the rows across each boundary: `Recut`).  A
        # cropped dimension the mesh does not divide is not cut so: its
        # outputs' cut is the default one, which here costs more than
        # gathering it (whose halo exchange the optimizer finds).
        cropped: dict[int, bool] = {}
        if rule is not None and st.option is not None:
            for c in rule.crops:
                if not c.inserts and st.option[c.loop]:
                    even = c.extent % _group(self.g.meshes[st.mesh], st.option[c.loop]) == 0
                    cropped[c.operand] = cropped.get(c.operand, True) and even
            for c in rule.crops:  # (after the others: an inserted piece takes its cut whatever they say)
                if c.inserts:
                    cropped[c.operand] = True
        for values, lays in ((node.operands, st.needs), (node.results, st.produces)):
            for k, (v, lay) in enumerate(zip(values, lays)):
                if v < 0 or lay is None:
                    continue
                if cropped.get(k) and lay[1].sharded_dims_offsets and values is node.operands:
                    continue
                value = self.g.values[v]
                key = (value.shape, value.dynamic, st.mesh, lay[1])
                cut = self.divisible.get(key)
                if cut is None:
                    cut = self.divisible[key] = self.cut_of(value, st.mesh, lay[1])
                if cut is _REFUSED:
                    return False
                if cut is _EMPTY:
                    empty = True
                uneven = uneven or cut is not _EVEN
        if not uneven:
            return True
        if not node.uneven:
            return False
        if empty and node.uneven_loops is not None:
            return False  # a dynamic_slice's, a gather's ... pieces need a row each (`apply`'s `_cut_of_loops`)
        if rule is None:
            return True
        if rule.selects and select_axes(rule, st.option):
            return False  # the picks are gathered: from even pieces
        if node.uneven_loops is not None and not self.even_elsewhere(node, st, node.uneven_loops):
            return False
        return self.lines_up(node, st) and (not node.sized_by_operands or self.sized(node, st))

    def even_elsewhere(self, node: Node, st: State, loops: frozenset[int]) -> bool:
        """Whether every split loop but `loops` cuts each dimension it
        indexes into pieces of one size."""
        rule = node.rule
        assert rule is not None and st.option is not None
        shape = self.g.meshes[st.mesh]
        for loop, axes in enumerate(st.option):
            if not axes or loop in loops:
                continue
            pieces = _group(shape, axes)
            for value, d in self.indexed_dims(node, rule, loop):
                if d not in value.dynamic and value.shape[d] % pieces:
                    return False
        return True

    def sized(self, node: Node, st: State) -> bool:
        """Whether every loop that cuts a result unevenly also indexes an
        operand dimension, which gives the piece its size (a broadcast's new
        dimension does not)."""
        rule = node.rule
        assert rule is not None and st.option is not None
        shape, values, operand_maps = self.g.meshes[st.mesh], self.g.values, rule.operand_maps
        for loop, axes in enumerate(st.option):
            if not axes or any(v >= 0 and m is not None and loop in m for v, m in zip(node.operands, operand_maps)):
                continue
            pieces = _group(shape, axes)
            for v, m in zip(node.results, rule.result_maps):
                if v < 0 or m is None or loop not in m:
                    continue
                value, d = values[v], m.index(loop)
                if d < len(value.shape) and d not in value.dynamic and value.shape[d] % pieces:
                    return False
        return True

    def cut_of(self, value: Value, mesh: str, s: Sharding) -> str:
        """How `value` splits in layout `s`: `_EVEN`, `_UNEVEN` (a static size
        the mesh does not divide, cut by the default rule into non-empty
        pieces over mesh axes of static size), `_EMPTY` (a size smaller than
        the pieces, which only the function's explicit cut of that size and
        axes cuts, `Graph.cuts`: XLA's cut of 4 rows over 8 devices leaves
        four pieces empty) or `_REFUSED`."""
        shape = self.g.meshes[mesh]
        dynamic_axes = self.g.dynamic_axes.get(mesh, frozenset())
        cut = _EVEN
        for d, axes in enumerate(s.split_axes):
            if not axes:
                continue
            if d >= len(value.shape):
                return _REFUSED
            if d in value.dynamic:
                continue
            pieces = _group(shape, axes)
            if value.shape[d] % pieces == 0:
                continue
            if s.halo_sizes or s.sharded_dims_offsets or dynamic_axes.intersection(axes):
                return _REFUSED
            if value.shape[d] < pieces:
                if (value.shape[d], axes) not in self.g.cuts.get(mesh, {}):
                    return _REFUSED
                cut = _EMPTY
            elif cut is _EVEN:
                cut = _UNEVEN
        return cut

    def lines_up_at_run_time(self, node: Node, st: State) -> bool:
        """Whether every loop split over a mesh axis of dynamic size indexes
        dimensions of one static size: pieces of different sizes (an
        interior pad's operand and result, a reshape's merged dimension)
        cut at run time do not line up."""
        dynamic_axes = self.g.dynamic_axes.get(st.mesh)
        rule = node.rule
        if not dynamic_axes or rule is None or st.option is None:
            return True
        for loop, axes in enumerate(st.option):
            if not dynamic_axes.intersection(axes):
                continue
            sizes = {value.shape[d] for value, d in self.indexed_dims(node, rule, loop) if d not in value.dynamic}
            if len(sizes) > 1:
                return False
        return True

    def indexed_dims(self, node: Node, rule: ShardingRule, loop: int) -> Iterator[tuple[Value, int]]:
        """(value, dimension) of each dimension of the node's tensors that
        `loop` indexes (but a crop's, which is cut where the outputs start)."""
        values = self.g.values
        crops = {(c.operand, c.dim) for c in rule.crops}
        for side, (ids, maps) in enumerate(((node.operands, rule.operand_maps), (node.results, rule.result_maps))):
            for k, (v, m) in enumerate(zip(ids, maps)):
                if v < 0 or m is None:
                    continue
                value = values[v]
                for d, indexed in enumerate(m):
                    if indexed == loop and d < len(value.shape) and (side or (k, d) not in crops):
                        yield value, d

    def lines_up(self, node: Node, st: State) -> bool:
        """Whether the default rule cuts every dimension a split loop indexes
        alike: they are all of one size (or all divisible), and no loop is
        read through a window (halos need equal pieces)."""
        rule = node.rule
        assert rule is not None and st.option is not None
        if rule.windows:
            return False
        shape = self.g.meshes[st.mesh]
        for loop, axes in enumerate(st.option):
            if not axes:
                continue
            sizes = {-1 if d in value.dynamic else value.shape[d] for value, d in self.indexed_dims(node, rule, loop)}
            pieces = _group(shape, axes)
            if len(sizes) > 1 and any(n < 0 or n % pieces for n in sizes):
                return False
        return True

    def expand(self, index: int) -> Sequence[int]:
        """Add the states the node's neighbourhood suggests; the values
        whose layout lists grew, each once.  (The node's list id gives its
        number of states: a node whose question is known is not read.)"""
        list_id = self.list_id[index]
        if self.lengths[list_id] >= MAX_STATES:
            return ()
        node = self.g.nodes[index]
        if node.rule is None:  # a carried value
            return self.add(index, self.new_states(node, self.suggested(node)))
        # Repeated layers ask the same question: which states does this
        # rule add, given the states it has (their list's id), its values'
        # forms (shape, dynamic dimensions, wholeness; and which are one
        # value: `note` reads a value once per use) and the layouts on them.
        # The key holds the layouts of every value `note` may write, so the
        # answer also says how they change (no separate pass per op).
        ids = node.results + node.operands
        seen, form = self.seen, self.facts.form
        aliases = None if len(set(ids)) == len(ids) else tuple([ids.index(v) for v in ids])
        around = tuple([(form[v], seen[v]) for v in ids])
        # (with whether it may run on pieces of unequal sizes: nodes of equal rules may differ there)
        uneven = (node.uneven, node.sized_by_operands, node.uneven_loops)
        key = (id(node.rule), node.linear, uneven, aliases, len(node.results), node.init, list_id, around)
        found = self.expand_memo.get(key)
        if found is None:
            return self.expanded(index, key, ids)
        states, needs, produces, list_id, changed, grown, self.settled[index] = found
        if not states:
            return ()
        node.states += states
        self.list_id[index] = list_id
        for k, lays in changed:
            seen[ids[k]] = lays
        return [ids[k] for k in grown]

    def expanded(self, index: int, key: tuple, ids: list[int]) -> list[int]:
        """`expand` asking the rule (the question is new), memoized with
        what the new states add to the layouts of the node's values `ids`
        (the results, then the operands; -1: not a tensor)."""
        node = self.g.nodes[index]
        rule = node.rule
        assert rule is not None
        requests = self.requests(node)
        suggested = (self.state(rule, mesh, option) for mesh, option in self.options(rule, requests))
        if node.linear:
            suggested = chain(suggested, self.linear(node))
        if node.init >= 0:
            suggested = self.partial_init(node, suggested)
        new = self.new_states(node, suggested)
        grew = self.add(index, new)
        seen, before = self.seen, key[-1]
        changed = tuple([(k, seen[v]) for k, v in enumerate(ids) if seen[v] != before[k][1]])
        grown = tuple([ids.index(v) for v in grew])
        states, needs, produces = (tuple(column) for column in zip(*new)) if new else ((), (), ())
        # Whether asking again adds nothing, as long as nothing else changes
        # the layouts around the node: known when that question is answered.
        form = self.facts.form
        after = (*key[:6], self.list_id[index], tuple([(form[v], seen[v]) for v in ids]))
        answer = self.expand_memo.get(after)
        settled = self.settling.setdefault(after, [answer is not None and not answer[0]])
        if not states:
            settled[0] = True  # (`after` is `key`)
        self.settled[index] = settled
        self.expand_memo[key] = (states, needs, produces, self.list_id[index], changed, grown, settled)
        return grew

    def add(self, index: int, new: Sequence[_Cand]) -> list[int]:
        """Give node `index` the `new` states; the values whose layout lists
        grew (`note`), each once (a value may gain several layouts: its
        neighbours are woken once)."""
        node = self.g.nodes[index]
        grew: list[int] = []
        list_id = self.list_id[index]
        for st, needs, produces in new:
            node.states.append(st)
            list_id = self.extended(list_id, st, needs, produces)
            self.note(node, needs, produces, grew)
        self.list_id[index] = list_id
        return list(dict.fromkeys(grew)) if len(grew) > 1 else grew

    def extended(self, list_id: int, st: State, needs: tuple[int, ...], produces: tuple[int, ...]) -> int:
        """The id of the list of states `list_id` (0: empty) with `st`
        appended, whose layout ids are `needs` and `produces` (states are
        memoized: one object each, whose layout ids never change)."""
        key = (list_id, id(st))
        found = self.lists.get(key)
        if found is None:
            found = self.lists[key] = len(self.lengths)
            self.lengths.append(self.lengths[list_id] + 1)
            self.list_needs.append((*self.list_needs[list_id], needs))
            self.list_produces.append((*self.list_produces[list_id], produces))
            self.list_ties.append([*self.list_ties[list_id], st.tie])
        return found

    def new_states(self, node: Node, suggested: Iterator[_Cand]) -> list[_Cand]:
        """The suggested states the node does not have and can run in, up to
        `MAX_STATES` in all."""
        have = {id(s) for s in node.states}  # states are memoized: one object each
        room = MAX_STATES - len(node.states)
        out: list[_Cand] = []
        refused: list[State] = []
        for cand in suggested:
            st = cand[0]
            if id(st) in have:
                continue
            if self.divides(node, st):
                out.append(cand)
                have.add(id(st))
                if len(out) >= room:
                    return out
            elif node.rule is not None and st.option is not None:
                refused.append(st)
        # A suggestion the node cannot run in (one loop's dimension the mesh
        # does not divide, where the op needs even pieces) is tried with only
        # the loops it can split, and with the others' axes moved (`narrowed`):
        # images with the batch over one axis and rows over another keep
        # their batch split under a window whose outputs the other axis does
        # not divide, and may take that axis on their channels.
        for st in refused:
            for cand in self.narrowed(node, st):
                if id(cand[0]) not in have and self.divides(node, cand[0]):
                    out.append(cand)
                    have.add(id(cand[0]))
                    if len(out) >= room:
                        return out
        return out

    def narrowed(self, node: Node, st: State) -> list[_Cand]:
        """States to try for a state `st` of a ruled node that the node
        cannot run in: `st` with each split loop kept only where the node
        can run with that loop alone split so, then with the axes of the
        loops dropped moved to each other parallel loop that indexes a
        dimension of a tensor a dropped loop indexes, and only dimensions of
        static size (innermost, as `moved_options` moves them: one
        all_to_all instead of a gather).
        Nothing for a state whose every loop splits alone (it is refused for
        another reason), or that is not a plain state of the rule's options
        (a linear or a partial init's)."""
        rule = node.rule
        option = st.option
        assert rule is not None and option is not None
        if len(option) != len(rule.iterators) or self.state(rule, st.mesh, option)[0] is not st:
            return []
        split = [loop for loop, axes in enumerate(option) if axes]
        nothing = tuple(() for _ in option)
        kept = [
            loop
            for loop in split
            if len(split) > 1
            and self.divides(node, self.state(rule, st.mesh, (*nothing[:loop], option[loop], *nothing[loop + 1 :]))[0])
        ]
        if len(kept) == len(split):
            return []
        base = tuple(option[loop] if loop in kept else () for loop in range(len(option)))
        out = [self.state(rule, st.mesh, base)] if kept else []
        dropped = [loop for loop in split if loop not in kept]
        lost = tuple(a for loop in dropped for a in option[loop])
        beside: dict[int, None] = {}
        for m in (*rule.operand_maps, *rule.result_maps):
            if m is not None and any(loop in m for loop in dropped):
                beside.update(dict.fromkeys(loop for loop in m if loop is not None and loop not in dropped))
        for loop in beside:
            # (not onto a dimension of dynamic size: its pieces' sizes, and
            # so the move's cost, are a guess; a batch of 1 would leave
            # most devices nothing)
            if rule.iterators[loop].is_parallel and not any(
                d in value.dynamic for value, d in self.indexed_dims(node, rule, loop)
            ):
                moved = tuple(axes + lost if k == loop else axes for k, axes in enumerate(base))
                out.append(self.state(rule, st.mesh, moved))
        return out

    def requests(self, node: Node) -> tuple[tuple[str, int, Layout], ...]:
        """The layouts on an op's values, as requests to its rule."""
        rule = node.rule
        assert rule is not None
        seen, layouts = self.seen, self.layouts
        requests: list[tuple[str, int, Layout]] = []
        for j, v in enumerate(node.results):
            if v >= 0 and rule.result_maps[j] is not None:
                requests += [("result", j, layouts[lay]) for lay in seen[v]]
        for i, v in enumerate(node.operands):
            if v >= 0 and rule.operand_maps[i] is not None:
                # an operand is never partial: a partial layout asks for its split only
                requests += [("operand", i, self.unreduced(lay)) for lay in seen[v]]
        return tuple(requests)

    def linear(self, node: Node) -> Iterator[_Cand]:
        """An op linear in the sum (`interfaces/linear.py`: an add, a transpose, a
        product by a whole factor...) of partial sums gives the partial sum
        of what each device computes on its terms: per partial-sum layout
        on its values, a state producing it from operands partial alike (a
        whole one is kept on one device of each group, for free).  A loop's
        accumulator so stays partial through the loop and is reduced once,
        after it."""
        rule = node.rule
        assert rule is not None
        sides = [("result", j, v) for j, v in enumerate(node.results)]
        sides += [("operand", i, v) for i, v in enumerate(node.operands)]
        for side, i, v in sides:
            if v < 0:
                continue
            for lid in self.seen[v]:
                mesh, s = self.layouts[lid]
                if s.partial_type != "sum" or not s.partial_axes:
                    continue
                for terms in node.linear:
                    if side == "operand" and i not in terms:
                        continue
                    key = ("linear", id(rule), lid, side, i, terms)
                    if key not in self.linear_memo:
                        self.linear_memo[key] = self.linear_state(rule, mesh, s, side, i, terms)
                    found = self.linear_memo[key]
                    if found is not None:
                        yield found

    def partial_init(self, node: Node, suggested: Iterator[_Cand]) -> Iterator[_Cand]:
        """The suggested states, each split as a sum reduction followed by
        the same state reading the op's init as terms, in the partial-sum
        layout of its result, when that layout is seen on the init: every
        device adds its own terms of the reduction to its own terms of the
        init.  A loop's accumulator so stays partial through a matmul, and
        is reduced once, after the loop."""
        v = node.operands[node.init]
        layouts = self.layouts
        wanted = {lid for lid in self.seen[v] if layouts[lid][1].partial_type == "sum" and layouts[lid][1].partial_axes}
        if not wanted:
            yield from suggested
            return
        # (the states the node has are offered again: `new_states` drops them)
        have = [(st, self.lids(st.needs), self.lids(st.produces)) for st in node.states if st.option is not None]
        for cand in chain(have, suggested):
            yield cand
            found = self.on_partial_init(node.init, cand, wanted)
            if found is not None:
                yield found

    def on_partial_init(self, init: int, cand: _Cand, wanted: set[int]) -> _Cand | None:
        """`cand` reading operand `init` in its result's layout, when that is
        a partial sum in `wanted` and `cand` reads the init in its split."""
        st, needs, produces = cand
        if len(produces) != 1 or produces[0] not in wanted or init >= len(needs):
            return None
        key = ("init", id(st), init)
        found = self.state_memo.get(key)
        if found is None:
            out = self.layouts[produces[0]]
            if needs[init] != self.lid((out[0], Sharding(out[1].split_axes))):
                return None
            needs = (*needs[:init], produces[0], *needs[init + 1 :])
            # one above the state reading the init whole: on a tie the init is reduced
            variant = State(self.canonical(needs), st.produces, st.option, st.mesh, st.tie + 1)
            found = self.state_memo[key] = (variant, needs, produces)
        return found

    def linear_state(
        self, rule: ShardingRule, mesh: str, s: Sharding, side: str, i: int, terms: tuple[int, ...]
    ) -> _Cand | None:
        """The `linear` state giving layout `s` to the op's `side` `i`,
        reading operands `terms` as terms."""
        if side == "operand":
            # the result's split for an operand split as `s`: a transpose permutes it
            option = option_from_requests(rule, [("operand", i, Sharding(s.split_axes))])
            if isinstance(option, Conflict):
                return None
            _, results = shardings_from_option(rule, option, self.g.meshes.get(mesh))
            if results[0] is None:
                return None
            s = Sharding(results[0].split_axes, s.partial_axes, "sum")
        found = on_terms(rule, s, terms, self.g.meshes.get(mesh))
        if found is None:
            return None
        option, operands = found
        needs = self.lids(tuple((mesh, o) for o in operands))
        produces = (self.lid((mesh, s)),)
        # one above the state splitting alike: on a tie the sum is reduced first
        st = State(self.canonical(needs), self.canonical(produces), option, mesh, self.tie(mesh, option) + 1)
        return st, needs, produces

    def unreduced(self, lid: int) -> Layout:
        found = self.unreduced_memo.get(lid)
        if found is None:
            found = self.unreduced_memo[lid] = self.layouts[self.lid(_unreduced(self.layouts[lid]))]
        return found

    def suggested(self, node: Node) -> Iterator[_Cand]:
        """A carried value's states: the layouts on its values, then each
        mesh's replicated layout."""
        if node.carry:
            lids: dict[int, None] = {}
            for v in (*node.operands, *node.results):
                if v >= 0:
                    for lay in self.seen[v]:
                        lids.setdefault(lay)
                        mesh, s = self.layouts[lay]
                        if node.uneven and s.sharded_dims_offsets and not s.halo_sizes:
                            # an annotation's cut by offsets: the same split
                            # without them, which the solver prices as the
                            # function's cut (`Graph.cuts`), as an op's options are
                            lids.setdefault(self.lid((mesh, replace(s, sharded_dims_offsets=()))))
            for mesh in dict.fromkeys(self.layouts[k][0] for k in lids):
                lids.setdefault(self.lid((mesh, REPLICATED)))
            for lid in lids:
                yield self.carried_state(len(node.operands), len(node.results), lid)

    def run(self) -> list[int]:
        """Step 1; the nodes that choose (ops with a rule, carried values)."""
        choosing = self.start()
        self.settle(choosing)
        return choosing

    def start(self) -> list[int]:
        """One pass over the nodes: the layout ids of the given states
        (fixed nodes, explicit options) and what fixed nodes give their
        values (noted, not queued); the ops whose rule has a `select`
        loop; the nodes that choose."""
        # per given state object: its layout ids, whether it names a mesh,
        # and the id of a list of it alone (shared by the fixed nodes given it)
        given: dict[int, tuple[tuple[int, ...], tuple[int, ...], bool, int]] = {}
        grew: list[int] = []
        choosing: list[int] = []
        weights, list_ids = self.weights, self.list_id
        for index, node in enumerate(self.g.nodes):
            weights.append(node.weight if node.operand_weights is None else -1)
            fixed = node.rule is None and not node.carry
            if not fixed:
                choosing.append(index)
                if node.rule is not None and (node.rule.selects or node.rule.scans):
                    self.selecting.append(index)
            states = node.states
            if not states:
                continue
            if fixed and len(states) == 1:  # (most nodes: an argument, an annotation)
                found = given.get(id(states[0])) or self.given(states[0], given)
                list_ids[index] = found[3]
                if found[2]:
                    self.note(node, found[0], found[1], grew)
                continue
            list_id = 0
            for st in states:
                found = given.get(id(st)) or self.given(st, given)
                list_id = found[3] if not list_id else self.extended(list_id, st, found[0], found[1])
                if fixed and found[2]:
                    self.note(node, found[0], found[1], grew)
            list_ids[index] = list_id
        return choosing

    def given(self, st: State, given: dict[int, tuple]) -> tuple:
        """`start`'s entry for a given state (memoized by identity in `given`)."""
        needs, produces = self.lids(st.needs), self.lids(st.produces)
        naming = any(k >= 0 and self.named[k] for k in chain(needs, produces))
        found = given[id(st)] = (needs, produces, naming, self.extended(0, st, needs, produces))
        return found

    def settle(self, choosing: list[int]) -> None:
        """Expand the choosing nodes until nothing new appears: a FIFO of
        distinct nodes, each queued again when a value of it grows.
        (Popping a dict's first key is not O(1): CPython skips the deleted
        slots at its front on every call.)"""
        values, settled = self.g.values, self.settled
        is_choosing = [False] * len(self.g.nodes)
        for index in choosing:
            is_choosing[index] = True
        queue = deque(choosing)
        queued = list(is_choosing)
        # per node, whether another node's expansion grew a value of it
        # since its last expansion (then asking again is a new question)
        moved = [False] * len(self.g.nodes)
        while queue:
            index = queue.popleft()
            queued[index] = False
            cell = settled[index]
            if cell is not None and cell[0] and not moved[index]:
                continue  # asking again would add nothing
            moved[index] = False
            for v in self.expand(index):
                value = values[v]
                around = value.consumers if value.producer is None else [value.producer, *value.consumers]
                for m, _ in around:
                    if is_choosing[m]:
                        if m != index:
                            moved[m] = True
                        if not queued[m]:
                            queued[m] = True
                            queue.append(m)


def _unreduced(lay: Layout) -> Layout:
    s = lay[1]
    return lay if not s.is_partial else (lay[0], Sharding(s.split_axes))


# -- 2 and 3. costs and solving ------------------------------------------------------

_Edge = tuple[int, list[list[int]], list[list[int]], int, int, int, int]
"""A use of a value between two choosing nodes, seen from one of them: the
other node, the table [producer state][consumer state], the table over
the value's number of uses (`Solver.share`), and how memo keys name the
two tables read by rows and by columns (`_ref`: the starting passes read
an edge several times, so they are named once)."""


def _ref(pick: int, flip: bool) -> int:
    """The index in an `_Edge` of the key naming its table `pick` (1: per
    use, 2: shared) read by rows or (`flip`) columns: `id(table)` stands for
    its rows, `~id(table)` for its columns."""
    return 2 + pick + 2 * flip


_Part = tuple[list[tuple[_Edge, ...]], int, bool]
"""Edges per node, which table (1: per use, 2: shared), and whether read by
columns (`Solver.fixed`)."""


class Solver:
    """Chooses one state per node (see the module docstring).  Works on the
    layout ids step 1 gives (`_Candidates`), and on value kinds: one id per
    distinct (shape, element type), all a reshard's cost reads of a value.

    Repeated layers ask the starting passes the same questions: the passes
    work on cost vectors interned less their minimum (`normalized`), and
    memoize each step by the ids of all it reads (`message_memo`,
    `argmin_memo`).  Tables are memoized objects, so their identities name
    them in keys: `id(table)` stands for its rows, `~id(table)` for its
    columns."""

    def __init__(self, graph: Graph, cost: Cost, collectives: Cost | None = None) -> None:
        self.g = graph
        self.cost = cost
        self.collectives = collectives  # per reshard, how many collectives: fewer wins among equal bytes
        self.table_memo: dict[tuple, list[list[int]]] = {}
        self.shared_memo: dict[tuple[int, int], list[list[int]]] = {}
        self.around: _Around | None = None
        self.cost_memo: dict[tuple[int, int, int], int] = {}
        self.layouts: list[Layout] = []
        # per list id (`list_id`), its states' layout ids (`_Candidates`)
        self.list_needs: list[tuple[tuple[int, ...], ...]] = []
        self.list_produces: list[tuple[tuple[int, ...], ...]] = []
        self.kind: list[int] = []  # per value
        self.transposed: dict[int, list[tuple[int, ...]]] = {}
        self.list_id: list[int] = []  # per node, an id for its list of states (`_Candidates.extended`)
        # `_Local.shared_costs`'s answers (the part after `wanted`), by all they read
        self.shared_costs_memo: dict[tuple, list[int]] = {}
        # cost vectors less their minimum, interned (`normalized`)
        self.vectors: list[tuple[int, ...]] = []
        self.vector_ids: dict[tuple[int, ...], int] = {}
        self.raw_ids: dict[tuple[int, ...], int] = {}
        self.sums: dict[tuple[int, int], int] = {}  # `plus`
        # the starting passes' steps (`messages`, `fixed`) by all they read
        self.message_memo: dict[tuple[int, ...], int] = {}
        self.argmin_memo: dict[tuple[int, ...], int] = {}
        self.downstream_vectors: dict[bool, list[int]] = {}  # start (a)'s, and (c)'s: start (d) reads (a)'s again
        # start (a)'s vectors plus a node's yields back to loop heads (`messages`)
        self.back_memo: dict[tuple[int, ...], int] = {}
        # local improvement's costs of a node without shared values (`_Local.better`)
        self.local_memo: dict[tuple[int, ...], tuple[int, list[int]]] = {}
        self.back_pairs: list[tuple[int, int]] | None = None  # (loop head, node handing back to it)
        self.linked_heads: dict[int, list[int]] | None = None  # (`_Local.linked`)

    def reshard(self, kind: int, have: int, need: int) -> int:
        """Bytes (scaled by BYTE) to turn a value of `kind` from layout id
        `have` into `need` (-1: None)."""
        if need < 0 or have == need:
            return 0
        key = (kind, have, need)
        found = self.cost_memo.get(key)
        if found is None:
            layouts = self.layouts
            value, source, target = self.g.values[kind], None if have < 0 else layouts[have], layouts[need]
            found = self.cost(value, source, target) * BYTE
            if self.collectives is not None:
                found += self.collectives(value, source, target) * COLLECTIVE
            self.cost_memo[key] = found
        return found

    def solve(self) -> list[int]:
        g = self.g
        cands = _Candidates(g)
        choosing = cands.run()
        self.layouts, self.list_needs, self.list_produces = cands.layouts, cands.list_needs, cands.list_produces
        self.list_id = cands.list_id
        nothing = State((), ())
        lengths = cands.lengths
        for i in choosing:
            if not lengths[self.list_id[i]]:  # nothing around it has a layout
                cands.add(i, [(nothing, (), ())])
        self.kind, self.weights = cands.facts.kind, cands.weights
        self.list_ties, self.selecting = cands.list_ties, cands.selecting
        self.choosing = choosing
        self.is_choosing = [lengths[k] > 1 for k in self.list_id]
        self.choosers = [c for c, flag in enumerate(self.is_choosing) if flag]  # in program order
        self.build_tables()
        if self.out_forest:
            # Start (a) is then the exact optimum: local improvement would move
            # no node, and start (b) could at best tie with it.
            return self.downstream_first()
        starts = [self.downstream_first()]
        others = [self.upstream_first()]
        if self.any_shared:
            others.append(self.downstream_first(shared=True))
        for other in others:
            if other not in starts:  # on chains of layers they agree: improve once
                starts.append(other)
        best: tuple[int, list[int]] | None = None
        for start in starts:
            local = _Local(self, start)
            local.improve()
            if len(starts) == 1 and not self.any_back:
                return local.choice  # nothing to compare its total with
            total = local.total()
            if best is None or total < best[0]:
                best = (total, local.choice)
        assert best is not None
        if self.any_back:
            # Start (d): start (a) again with the loop heads as the best plan
            # left them.  Start (a) prices a head by the layout its fixed
            # neighbours favour, so the ops after a loop follow that layout;
            # local improvement then moves the head with its yields, but not
            # a whole chain of ops after the loop at once (a reduction that
            # could run split keeps reading a gathered result).
            heads = {c: best[1][c] for c in self.choosers if self.ahead[c]}
            again = self.downstream_first(given=heads)
            if again not in starts:
                local = _Local(self, again)
                local.improve()
                total = local.total()
                if total < best[0]:
                    best = (total, local.choice)
        return best[1]

    # -- pairwise tables ------------------------------------------------------

    def build_tables(self) -> None:
        g = self.g
        nodes = g.nodes
        is_choosing, list_needs, list_produces, kind = self.is_choosing, self.list_needs, self.list_produces, self.kind
        reshard, table_memo, normalized, plus = self.reshard, self.table_memo, self.normalized, self.plus
        # Nodes of one layer repeated share their state lists: a table is
        # first looked up by the two lists' ids, then by the layouts in them.
        list_id = self.list_id
        # the lists of states in use (in the order their last nodes come from
        # the end), and each node's tie-breakers: its list's (one object per
        # list: `_Around` names them by identity)
        in_use = dict.fromkeys(reversed(list_id))
        list_ties = self.list_ties
        self.ties = [list_ties[k] for k in list_id]
        # per choosing node, its own costs plus those to fixed neighbours, as
        # a vector id (`normalized`: the starting passes drop minima)
        unary_of = {k: normalized(list_ties[k]) for k in in_use}
        unary = self.unary_ids = [unary_of[k] for k in list_id]
        selecting: dict[tuple[int, ...], list[int]] = {}
        for c in self.selecting:  # (op nodes whose rule has a `select` or `scan` loop)
            node = nodes[c]
            ties = [t + own_cost(g, node, st, True) for t, st in zip(self.ties[c], node.states)]
            self.ties[c] = selecting.setdefault(tuple(ties), ties)
            unary[c] = normalized(ties)
        # per use of a value read several times, with a fixed neighbour:
        # (node, its row shared among the uses, its full row); start (c) only
        shared_rows: list[tuple[int, Sequence[int], Sequence[int]]] = []
        any_shared = False  # some costed value has several uses
        any_back = False  # some value goes back to a loop head between choosing nodes
        # per value read once with a choosing node at either end: its table
        only_use: list[list[list[int]] | None] = [None] * len(g.values)
        # per choosing node, its uses of values between choosing nodes: to
        # later nodes in program order, from earlier ones, and back to
        # earlier ones (a value a loop carries back to its head); tuples, as
        # a node has few (growing one costs less than keeping a list)
        later: list[tuple[_Edge, ...]] = [()] * len(nodes)
        earlier: list[tuple[_Edge, ...]] = [()] * len(nodes)
        back: list[tuple[_Edge, ...]] = [()] * len(nodes)
        self.later, self.earlier, self.back = later, earlier, back
        # (for `_Around`: a loop head's reads of what its body carries back,
        # the tables of values read once between a choosing node and a fixed
        # one or itself, and the values costed by counting their needs)
        ahead: list[tuple[_Edge, ...]] = [()] * len(nodes)
        self.ahead = ahead
        own_parts: list[tuple[int, ...]] = [()] * len(nodes)
        self.own_parts = own_parts
        counted: list[int] = []
        # per (kind, weight, producer's list, result, consumer's list,
        # operand, uses): the table and its share per use
        by_lists: dict[tuple[int, ...], tuple[list[list[int]], list[list[int]]]] = {}
        # Whether start (a) is exact: every costed value has one use (its
        # pairwise table is its exact cost), and every choosing node hangs
        # below at most one choosing producer, earlier in program order (the
        # choosing nodes form an out-forest, whose subtrees the backward pass
        # prices independently).
        out_forest = True
        # per list of states: whether its states produce layouts, and need them
        gives = {k: bool(list_produces[k]) and bool(list_produces[k][0]) for k in in_use}
        takes = {k: bool(list_needs[k]) and bool(list_needs[k][0]) for k in in_use}
        weights = self.weights
        for v, value in enumerate(g.values):
            made = value.producer
            if made is None:
                continue  # whole on every device: slicing is free
            p, j = made
            consumers = value.consumers
            if not is_choosing[p] and len(consumers) == 1 and not is_choosing[consumers[0][0]]:
                continue  # read once between fixed nodes: the same in every plan (`_Around` drops it)
            lp = list_id[p]
            if not gives[lp]:
                if lp:  # states producing nothing
                    counted.append(v)
                continue
            uses = len(consumers)
            if uses != 1:
                counted.append(v)
            if uses > 1:
                out_forest = False
            kv, choosing_p = kind[v], is_choosing[p]
            for c, i in consumers:
                lc = list_id[c]
                if not takes[lc]:
                    if uses == 1:
                        counted.append(v)
                    continue
                if uses > 1:
                    any_shared = True
                choosing_c = is_choosing[c]
                if not choosing_p and not choosing_c:
                    continue  # between fixed nodes: the same in every plan
                weight = weights[c]
                if weight < 0:  # per operand
                    weight = nodes[c].weight_of(i)
                short = (kv, weight, lp, j, lc, i, uses)
                found = by_lists.get(short)
                if found is None:
                    have = tuple(ps[j] for ps in list_produces[lp])
                    need = tuple(ns[i] for ns in list_needs[lc])
                    key = (kv, weight, have, need)
                    table = table_memo.get(key)
                    if table is None:
                        table = table_memo[key] = [[reshard(kv, h, n) * weight for n in need] for h in have]
                    shared = table if uses == 1 else self.share(table, uses)
                    found = by_lists[short] = (table, shared, id(table), id(shared), ~id(table), ~id(shared))
                table, shared = found[0], found[1]
                if uses == 1:
                    only_use[v] = table
                if choosing_p and choosing_c:
                    if c < p:
                        out_forest = False
                        back[p] += ((c, *found),)
                        any_back = True
                        ahead[c] += ((p, *found),)
                    elif c > p:
                        if earlier[c]:
                            out_forest = False
                        later[p] += ((c, *found),)
                        earlier[c] += ((p, *found),)
                    else:  # a node reading its own result (a loop's carried value): no choice to weigh
                        out_forest = False
                        if uses == 1:
                            own_parts[c] += (_OWN, id(table))
                elif choosing_c:
                    unary[c] = plus(unary[c], id(table), table)
                    if shared is not table:
                        shared_rows.append((c, shared[0], table[0]))
                    else:
                        own_parts[c] += (_FIXED_ROWS, id(table))
                else:
                    unary[p] = plus(unary[p], ~id(table), table)
                    if shared is not table:
                        shared_rows.append((p, self.columns(shared)[0], self.columns(table)[0]))
                    else:
                        own_parts[p] += (_FIXED_COLUMNS, id(table))
        self.shared_rows, self.any_shared, self.any_back = shared_rows, any_shared, any_back
        self.only_use, self.counted, self.out_forest = only_use, counted, out_forest

    def share(self, table: list[list[int]], uses: int) -> list[list[int]]:
        """`table` with each entry over `uses`: summed over a value's uses,
        one reshard when they all want one layout, as the exact cost has
        it (memoized per table)."""
        key = (id(table), uses)
        found = self.shared_memo.get(key)
        if found is None:
            found = self.shared_memo[key] = [[x // uses for x in row] for row in table]
        return found

    def shared_unary_ids(self) -> list[int]:
        """`unary_ids` with each fixed neighbour's reshard of a value read
        several times shared among its uses (start (c)), from the rows
        `shared_rows` kept: built only when that start runs."""
        changed: dict[int, list[int]] = {}
        for node, shared, full in self.shared_rows:
            row = changed.get(node)
            if row is None:
                row = self.vectors[self.unary_ids[node]]
            changed[node] = [u + s - f for u, s, f in zip(row, shared, full)]
        ids = list(self.unary_ids)
        for node, row in changed.items():
            ids[node] = self.normalized(row)
        return ids

    def plus(self, vector: int, ref: int, table: list[list[int]]) -> int:
        """Vector `vector` plus a fixed neighbour's reshards: the first row
        of `table` (`ref` its id) or (`~id`) its first column; memoized."""
        key = (vector, ref)
        found = self.sums.get(key)
        if found is None:
            row = table[0] if ref >= 0 else self.columns(table)[0]
            found = self.sums[key] = self.normalized(list(map(add, self.vectors[vector], row)))
        return found

    def columns(self, table: list[list[int]]) -> list[tuple[int, ...]]:
        """A table's columns (tables are memoized: each is transposed once)."""
        found = self.transposed.get(id(table))
        if found is None:
            found = self.transposed[id(table)] = list(zip(*table))
        return found

    def normalized(self, vector: Sequence[int]) -> int:
        """The id of `vector` less its minimum.  Adding a constant to a
        node's costs changes none of the starting passes' choices (the
        first index of the smallest stays, and the cheapest over a vector
        plus a row moves by as much), so they drop minima and repeated
        layers meet the same vectors."""
        raw = tuple(vector)
        found = self.raw_ids.get(raw)
        if found is None:
            low = min(raw)
            less = tuple([x - low for x in raw]) if low else raw
            found = self.vector_ids.get(less)
            if found is None:
                found = self.vector_ids[less] = len(self.vectors)
                self.vectors.append(less)
            self.raw_ids[raw] = found
        return found

    def messages(
        self,
        order: Iterable[int],
        units: list[int],
        edges: list[tuple[_Edge, ...]],
        pick: int,
        flip: bool,
        back: list[tuple[_Edge, ...]] | None = None,
    ) -> list[int]:
        """Per node in `order` (choosing ones), its cost vector (an id from
        `normalized`): its own (`units`) plus, for each of its `edges`, per
        state the cheapest of the other node's vector (computed before)
        plus the edge's table (`pick` 1: per use, 2: shared) read by rows,
        or by columns (`flip`).  With `back` (start (a)), the vector the
        nodes before a node read of it adds, per edge of `back` (a value
        handed back to a loop head, fixed before the node, so not among its
        `edges`), the cheapest of the head's own vector plus the table:
        memoized apart (`back_memo`), so the messages' keys name the sum."""
        vid = [-1] * len(self.g.nodes)
        # what the nodes before each node read of it: `vid` plus its yields back
        out = vid if back is None else [-1] * len(self.g.nodes)
        memo, back_memo, vectors = self.message_memo, self.back_memo, self.vectors
        ref, back_ref = _ref(pick, flip), _ref(pick, False)  # (yields back are read by rows)
        for c in order:
            key = [units[c]]
            for e in edges[c]:
                key += (e[ref], out[e[0]])
            found = memo.get(tuple(key))
            if found is None:
                vector = list(vectors[units[c]])
                for e in edges[c]:
                    rows, other = self.columns(e[pick]) if flip else e[pick], vectors[out[e[0]]]
                    for s, row in enumerate(rows):
                        vector[s] += min(map(add, row, other))
                found = memo[tuple(key)] = self.normalized(vector)
            vid[c] = found
            if back is None:
                continue
            if not back[c]:
                out[c] = found
                continue
            key = [found]
            for e in back[c]:
                key += (e[back_ref], units[e[0]])
            total = back_memo.get(tuple(key))
            if total is None:
                vector = list(vectors[found])
                for e in back[c]:
                    head = vectors[units[e[0]]]
                    for s, row in enumerate(e[pick]):
                        vector[s] += min(map(add, row, head))
                total = back_memo[tuple(key)] = self.normalized(vector)
            out[c] = total
        return vid

    def fixed(
        self, order: Iterable[int], vid: list[int], parts: list[_Part], given: dict[int, int] | None = None
    ) -> list[int]:
        """Per node in `order` (choosing ones), the first state of the smallest
        cost: its vector plus, for each edge of `parts` (edges, pick, flip as
        in `messages`), the edge's row (or column) for the state the other
        node took before; a node in `given` takes the state it names."""
        choice = [0] * len(self.g.nodes)
        memo, vectors = self.argmin_memo, self.vectors
        refs = [(edges, _ref(pick, flip)) for edges, pick, flip in parts]
        for c in order:
            if given and c in given:
                choice[c] = given[c]
                continue
            key = [vid[c]]
            for edges, ref in refs:
                for e in edges[c]:
                    key += (e[ref], choice[e[0]])
            found = memo.get(tuple(key))
            if found is None:
                total: Sequence[int] = vectors[vid[c]]
                for edges, pick, flip in parts:
                    for e in edges[c]:
                        rows = self.columns(e[pick]) if flip else e[pick]
                        total = list(map(add, total, rows[choice[e[0]]]))
                found = memo[tuple(key)] = _argmin(list(total))
            choice[c] = found
        return choice

    def downstream_first(self, shared: bool = False, given: dict[int, int] | None = None) -> list[int]:
        """Start (a): cheapest cost downstream per state, then states fixed in
        program order; (`shared`, start (c)) with a value's reshard shared
        among its uses; (`given`, start (d)) with those nodes' states kept."""
        pick = 2 if shared else 1
        vid = self.downstream_vectors.get(shared)
        if vid is None:
            units = self.shared_unary_ids() if shared else self.unary_ids
            # (the nodes upstream weigh a node's yields back to loop heads: `back`)
            back = self.back if self.any_back else None
            vid = self.downstream_vectors[shared] = self.messages(
                reversed(self.choosers), units, self.later, pick, False, back
            )
        # given its decided producers, and the loop heads its yields go back to
        parts = [(self.earlier, pick, False)]
        if self.any_back:  # (else every node's `back` is empty)
            parts.append((self.back, pick, True))
        return self.fixed(self.choosers, vid, parts, given)

    def upstream_first(self) -> list[int]:
        """Start (b): cheapest cost upstream per state, then states fixed in
        reverse program order."""
        vid = self.messages(self.choosers, self.unary_ids, self.earlier, 1, True)
        return self.fixed(reversed(self.choosers), vid, [(self.later, 1, True)])


class _Around:
    """What local improvement reads of the graph's shape, whatever the
    states chosen: built once, shared by all starting points.

    Repeated layers ask local improvement the same questions: per choosing
    node, `signature` is an id for everything its costs read but other
    nodes' states (its states and tie-breakers; per value around it, its
    table and which side the node is on, or for a value read several times
    the state lists, indices and weights of its producer and readers and
    which of them the node is), and `others` lists the nodes whose states
    they read, so `_Local.better` memoizes a node's costs by both.  A node
    next to a value with more than `MAX_MEMO_USES` readers gets none (-1):
    its key would grow with them."""

    def __init__(self, s: Solver) -> None:
        g = s.g
        nodes, values, is_choosing = g.nodes, g.values, s.is_choosing
        list_id, kind = s.list_id, s.kind
        # the values read once: from build_tables' lists
        parts = list(s.own_parts)
        others: list[tuple[int, ...]] = [()] * len(nodes)
        table_key = _ref(1, False)  # (a part names the per-use table itself)
        sides = ((s.earlier, _ROWS), (s.later, _COLUMNS))
        if s.any_back:  # (else every node's `ahead` and `back` are empty)
            sides += ((s.ahead, _ROWS), (s.back, _COLUMNS))
        for c in s.choosers:
            mine, near = parts[c], others[c]
            for edges, side in sides:
                for e in edges[c]:
                    if e[1] is e[2]:  # (else read several times: below)
                        mine += (side, e[table_key])
                        near += (e[0],)
            parts[c], others[c] = mine, near
        # the values priced by counting their needs, but for those between
        # fixed nodes (the same in every plan)
        self.tracked: list[int] = []
        unmemoized: set[int] = set()
        descriptions: dict[tuple[int, ...], int] = {}
        weights = s.weights
        for v in s.counted:
            value = values[v]
            made = value.producer
            assert made is not None
            p, consumers = made[0], value.consumers
            around = (p, *[m for m, _ in consumers])
            if not is_choosing[p] and not any(is_choosing[x] for x in around):
                continue
            self.tracked.append(v)
            if len(around) > MAX_MEMO_USES + 1:
                unmemoized.update(around)
                continue
            described = (kind[v], list_id[p], made[1])
            for m, i in consumers:
                w = weights[m]
                described += (list_id[m], i, w if w >= 0 else nodes[m].weight_of(i))
            k = descriptions.setdefault(described, len(descriptions))
            if len(set(around)) == len(around):
                for at, x in enumerate(around):
                    if is_choosing[x]:
                        parts[x] += (_SHARED, k, 1, at)
                        others[x] += around[:at] + around[at + 1 :]
                continue
            for x in dict.fromkeys(around):
                if is_choosing[x]:
                    mine = tuple([at for at, y in enumerate(around) if y == x])
                    parts[x] += (_SHARED, k, len(mine), *mine)
                    others[x] += tuple([y for y in around if y != x])
        signatures: dict[tuple[int, ...], int] = {}
        ties = s.ties
        self.signature = [-1] * len(nodes)
        for c in s.choosers:
            if c not in unmemoized:
                self.signature[c] = signatures.setdefault((list_id[c], id(ties[c]), *parts[c]), len(signatures))
        self.others = others


_OWN, _ROWS, _COLUMNS, _FIXED_ROWS, _FIXED_COLUMNS, _SHARED = range(6)
"""What a node's signature (`_Around`) says of a value around it: read and
produced by the node itself, read from another choosing node (the table's
rows) or produced for one (its columns), the same with a fixed node, or
read several times."""

MAX_MEMO_USES = 8
"""Readers of a value beyond which its nodes' costs are not memoized."""


class _Local:
    """Local improvement under the exact shared cost: per value, one reshard
    per layout its consumers need other than the one it is produced in,
    weighted by the most-repeated use wanting it.  Layouts are the
    solver's layout ids (-1: None)."""

    def __init__(self, solver: Solver, choice: list[int]) -> None:
        self.s = solver
        self.g = solver.g
        self.choice = list(choice)
        self.next_pair = 0  # where `loop_move` looks first
        if solver.around is None:
            solver.around = _Around(solver)
        self.around = solver.around
        self.list_id, self.list_needs, self.list_produces = solver.list_id, solver.list_needs, solver.list_produces
        # per value priced by its needs: {needed layout: {weight: count}}
        # over its consumers' current states (counted when first read)
        self.needs: list[dict[int, dict[int, int]] | None] = [None] * len(self.g.values)

    def needs_table(self, v: int) -> dict[int, dict[int, int]]:
        """Value `v`'s needs over its consumers' current states."""
        table = self.needs[v]
        if table is None:
            table = self.needs[v] = {}
            nodes, chosen, list_id, list_needs = self.g.nodes, self.choice, self.list_id, self.list_needs
            for c, i in self.g.values[v].consumers:
                states = list_needs[list_id[c]]
                if not states:
                    continue
                st_needs = states[chosen[c]]
                if i < len(st_needs) and st_needs[i] >= 0:
                    _count(table, st_needs[i], nodes[c].weight_of(i), 1)
        return table

    def need_of(self, c: int, i: int, state: int) -> int:
        states = self.list_needs[self.list_id[c]]
        if not states:
            return -1
        st_needs = states[state]
        return st_needs[i] if i < len(st_needs) else -1

    def add_need(self, v: int, c: int, i: int, state: int, delta: int) -> None:
        table = self.needs[v]
        need = self.need_of(c, i, state)
        if table is not None and need >= 0:  # (one not counted yet is counted when read)
            _count(table, need, self.g.nodes[c].weight_of(i), delta)

    def have(self, v: int) -> int:
        p, j = self.g.values[v].producer
        produces = self.list_produces[self.list_id[p]][self.choice[p]]
        return produces[j] if produces else -1

    def value_cost(self, v: int, have: int) -> int:
        """One reshard per layout needed of `v` other than `have`, weighted by
        the most-repeated use wanting it."""
        kind, reshard = self.s.kind[v], self.s.reshard
        total = 0
        for need, counts in self.needs_table(v).items():
            if need != have:
                total += reshard(kind, have, need) * max(counts)
        return total

    def touched(self, c: int) -> list[int]:
        """The values whose cost node `c`'s state changes."""
        nodes, values = self.g.nodes, self.g.values
        node = nodes[c]
        return [
            v
            for v in dict.fromkeys((*node.operands, *node.results))
            if v >= 0 and values[v].producer is not None and nodes[values[v].producer[0]].states
        ]

    def node_costs(self, c: int) -> list[int]:
        """The cost of everything around node `c`, per state of it."""
        s, choice, values = self.s, self.choice, self.g.values
        node = self.g.nodes[c]
        costs = s.ties[c]
        for v in self.touched(c):
            table = s.only_use[v]
            if table is None:  # read several times: priced by counting its needs
                uses = tuple((i, node.weight_of(i)) for i, u in enumerate(node.operands) if u == v)
                costs = list(map(add, costs, self.shared_costs(c, v, uses)))
                continue
            p, m = values[v].producer[0], values[v].consumers[0][0]
            if p != c:  # c reads the value
                costs = list(map(add, costs, table[choice[p]]))
            elif m != c:  # c produces it
                costs = list(map(add, costs, s.columns(table)[choice[m]]))
            else:  # c reads its own result
                costs = [t + table[k][k] for k, t in enumerate(costs)]
        return costs

    def better(self, c: int) -> int:
        """The state node `c` moves to: the first of the smallest cost, if
        smaller than its current state's; else its current state."""
        best, costs = self.costs(c)
        current = self.choice[c]
        return best if costs[best] < costs[current] else current

    def costs(self, c: int) -> tuple[int, list[int]]:
        """The first state of the smallest cost, and `node_costs(c)`:
        memoized by the node's signature and its neighbours' states."""
        signature = self.around.signature[c]
        if signature < 0:
            costs = self.node_costs(c)
            return _argmin(costs), costs
        choice = self.choice
        key = (signature, *[choice[o] for o in self.around.others[c]])
        found = self.s.local_memo.get(key)
        if found is None:
            costs = self.node_costs(c)
            found = self.s.local_memo[key] = (_argmin(costs), costs)
        return found

    def shared_costs(self, c: int, v: int, uses: tuple[tuple[int, int], ...]) -> list[int]:
        """The cost of value `v` per state of node `c` (`value_cost` with
        the node's `uses` of it switched to each state)."""
        kind, reshard = self.s.kind[v], self.s.reshard
        p, j = self.g.values[v].producer
        produces = self.list_produces[self.list_id[p]]
        states_needs = self.list_needs[self.list_id[c]]
        if p != c:
            have = self.have(v)
        # the most-repeated use wanting each layout, but for the node's uses
        wanted: dict[int, int] = {}
        if uses:
            current = states_needs[self.choice[c]]
            mine: dict[int, dict[int, int]] = {}
            for i, w in uses:
                if i < len(current) and current[i] >= 0:
                    _count(mine, current[i], w, 1)
            for lay, counts in self.needs_table(v).items():
                gone = mine.get(lay)
                weights = [w for w, n in counts.items() if n != gone.get(w, 0)] if gone else counts
                if weights:
                    wanted[lay] = max(weights)
        else:
            for lay, counts in self.needs_table(v).items():
                wanted[lay] = max(counts)
        # Repeated layers ask the same: the answer depends on the value's
        # kind, where it is produced (the state read when `c` produces it),
        # the node's states (its list id), its uses and `wanted`.
        key = (kind, have if p != c else -2 - j, self.s.list_id[c], uses, tuple(wanted.items()))
        found = self.s.shared_costs_memo.get(key)
        if found is not None:
            return found
        out = self.s.shared_costs_memo[key] = []
        for k, st_needs in enumerate(states_needs):
            if p == c:
                have = produces[k][j] if produces[k] else -1
            lays = wanted
            if uses:
                lays = dict(wanted)
                for i, w in uses:
                    if i < len(st_needs):
                        lay = st_needs[i]
                        if lay >= 0 and lays.get(lay, -1) < w:
                            lays[lay] = w
            total = 0
            for lay, w in lays.items():
                if lay != have:
                    total += reshard(kind, have, lay) * w
            out.append(total)
        return out

    def improve(self) -> None:
        """Rounds over the nodes whose neighbourhood changed since they were
        last evaluated (all of them at first); when a round changes nothing,
        a loop move, then rounds again.  Every step lowers the total, so the
        budgets only bound the time: `MAX_ROUNDS` rounds after each move,
        and `MAX_ROUNDS` moves plus two per pair of a loop head and a node
        yielding to it (a function of many loops may need one move each;
        each move scans the pairs once at most, so a function of P pairs
        costs O(P^2) pair trials at worst)."""
        choice = self.choice
        pending = self.s.choosers
        rounds = moves = 0
        while True:
            if not pending:
                if moves == MAX_ROUNDS + 2 * len(self.pairs()):
                    break
                pending = self.loop_move()
                if not pending:
                    break
                moves += 1
                rounds = 0
                continue
            if rounds == MAX_ROUNDS:
                break
            rounds += 1
            moved = []
            for c in pending:
                best = self.better(c)
                if best != choice[c]:
                    self.move(c, best)
                    moved.append(c)
            pending = self.woken_by(moved)

    def pairs(self) -> list[tuple[int, int]]:
        """Each loop head with a node handing a value back to it, per node
        in program order, its yields in value order."""
        s = self.s
        if s.back_pairs is None:
            s.back_pairs = [(head, p) for p, edges in enumerate(s.back) for head, *_ in edges]
        return s.back_pairs

    def loop_move(self) -> list[int]:
        """A loop head and a node handing a value back to it, moved together
        where moving either alone does not pay (the head taking the layout
        the body yields, say), the nodes around them then improved as
        `improve` would (a body of several ops follows the head's new
        layout only once both ends moved): the first such move lowering the
        total is kept, any other undone; the nodes to revisit then.  The
        pairs are tried from the one after the last pair moved, round the
        list, so a function of many loops is not scanned from its first
        loop again after each move.  Each step is priced by `costs`, whose
        keys hold the neighbours' states, so the steps' sum is the change of
        the total."""
        s, choice = self.s, self.choice
        if not s.any_back:
            return []
        pairs = self.pairs()
        tried: set[tuple[int, int]] = set()  # (head, state) linked trials: a head's pairs share them
        for turn in range(len(pairs)):
            at = (self.next_pair + turn) % len(pairs)
            head, p = pairs[at]
            costs = self.costs(head)[1]
            at_head = choice[head]
            for state in range(len(costs)):
                if state == at_head:
                    continue
                trail: list[tuple[int, int]] = []
                delta = self.step(head, state, trail, costs)
                delta += self.to_cheapest(p, trail)
                delta += self.descend(trail, {head, p})
                if delta < 0:
                    self.next_pair = at + 1
                    return self.woken_by([c for c, _ in trail])
                for c, old in reversed(trail):
                    self.move(c, old)
                linked = self.linked(head)
                if not linked or (head, state) in tried:
                    continue
                tried.add((head, state))
                # The loops this head's value runs through before or after
                # it (a scan's residuals, stacked by the forward loop and
                # read back by the backward one) take the same layout, each
                # with what its body yields back to it.
                lay = self.list_produces[self.list_id[head]][state][0]
                trail = []
                delta = self.step(head, state, trail, costs)
                fixed = {head}
                for h in [head, *linked]:
                    if h != head:
                        gives = self.list_produces[self.list_id[h]]
                        k = next((k for k, ps in enumerate(gives) if ps and ps[0] == lay), -1)
                        if k < 0:
                            continue
                        if k != choice[h]:
                            delta += self.step(h, k, trail)
                        fixed.add(h)
                    for q in self.yielders(h):
                        delta += self.to_cheapest(q, trail)
                        fixed.add(q)
                delta += self.descend(trail, fixed)
                if delta < 0:
                    self.next_pair = at + 1
                    return self.woken_by([c for c, _ in trail])
                for c, old in reversed(trail):
                    self.move(c, old)
        return []

    def step(self, c: int, state: int, trail: list[tuple[int, int]], there: list[int] | None = None) -> int:
        """Move node `c` to `state`, noted in `trail`; the change of the total
        (`there`: its costs, when the caller has them)."""
        if there is None:
            there = self.costs(c)[1]
        delta = there[state] - there[self.choice[c]]
        trail.append((c, self.choice[c]))
        self.move(c, state)
        return delta

    def to_cheapest(self, c: int, trail: list[tuple[int, int]]) -> int:
        """`step` node `c` to its cheapest state, if it is not there."""
        best, there = self.costs(c)
        return self.step(c, best, trail, there) if best != self.choice[c] else 0

    def yielders(self, head: int) -> list[int]:
        """The nodes handing values back to loop head `head`."""
        return [p for h, p in self.pairs() if h == head]

    def linked(self, head: int) -> list[int]:
        """The other loop heads whose carried value `head`'s becomes or comes
        from: a loop's result that is another loop's init, either way, and
        so on, in program order."""
        s = self.s
        if s.linked_heads is None:
            s.linked_heads = _linked_heads(self.g)
        return s.linked_heads.get(head, [])

    def descend(self, trail: list[tuple[int, int]], fixed: set[int]) -> int:
        """Move the choosing nodes around those in `trail` (not `fixed`) to
        their best states while that pays, up to `LOOP_MOVE_STEPS` moves,
        each appended to `trail` with the state it left; the change of the
        total."""
        choice = self.choice
        delta = 0
        frontier = [c for c, _ in trail]
        for _ in range(LOOP_MOVE_STEPS):
            woken = self.woken_by(frontier)
            frontier = []
            for c in woken:
                if c in fixed:
                    continue
                best, costs = self.costs(c)
                if costs[best] < costs[choice[c]]:
                    delta += costs[best] - costs[choice[c]]
                    trail.append((c, choice[c]))
                    self.move(c, best)
                    frontier.append(c)
            if not frontier:
                break
        return delta

    def woken_by(self, moved: list[int]) -> list[int]:
        """The choosing nodes sharing a value with a node of `moved`, in
        program order: those whose costs the moves changed."""
        values = self.g.values
        woken: dict[int, None] = {}
        for c in moved:
            for v in self.touched(c):
                value = values[v]
                woken.setdefault(value.producer[0])
                for m, _ in value.consumers:
                    woken.setdefault(m)
        is_choosing = self.s.is_choosing
        return [c for c in sorted(woken) if is_choosing[c]]

    def move(self, c: int, state: int) -> None:
        node = self.g.nodes[c]
        for i, v in enumerate(node.operands):
            if v >= 0 and self.needs[v] is not None:
                self.add_need(v, c, i, self.choice[c], -1)
                self.add_need(v, c, i, state, 1)
        self.choice[c] = state

    def total(self) -> int:
        """The cost of the current states, up to a constant (values between
        fixed nodes and the tie-breakers of nodes with one state are left
        out: the same in every plan), to compare starts."""
        choice, values = self.choice, self.g.values
        ties = self.s.ties
        total = sum(ties[c][choice[c]] for c in self.s.choosers)
        for v, table in enumerate(self.s.only_use):
            if table is not None:
                total += table[choice[values[v].producer[0]]][choice[values[v].consumers[0][0]]]
        for v in self.around.tracked:
            total += self.value_cost(v, self.have(v))
        return total


def _linked_heads(g: Graph) -> dict[int, list[int]]:
    """Per loop head joined to others by a loop result that is another
    loop's init (either way, transitively), the others, in program order;
    none for a group of more than `MAX_LINKED` heads."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    heads = [c for c, node in enumerate(g.nodes) if node.carry and node.loop]
    for c in heads:
        node = g.nodes[c]
        if not node.results or node.results[0] < 0:
            continue
        for m, i in g.values[node.results[0]].consumers:
            if i == 0 and g.nodes[m].carry and g.nodes[m].loop:
                parent[find(m)] = find(c)
    groups: dict[int, list[int]] = {}
    for c in heads:
        groups.setdefault(find(c), []).append(c)
    return {c: [d for d in group if d != c] for group in groups.values() if 1 < len(group) <= MAX_LINKED for c in group}


def _count(table: dict[int, dict[int, int]], lay: int, weight: int, delta: int) -> None:
    """Add `delta` uses of weight `weight` wanting layout id `lay`; entries
    at zero go."""
    counts = table.setdefault(lay, {})
    counts[weight] = counts.get(weight, 0) + delta
    if not counts[weight]:
        del counts[weight]
        if not counts:
            del table[lay]


def own_cost(graph: Graph, node: Node, st: State, scaled: bool = False) -> int:
    """What an op moves inside itself in state `st`: a split `select` loop
    (an argmax) gathers each device's pick of every result over the loop's
    mesh axes, one all_gather per result, each device receiving the other
    members' pieces; a split `scan` loop gathers one row of each piece
    along its dimension (the pieces' totals); times the node's trip count.
    In bytes, or (`scaled`) in the solver's units, where each collective
    counts too."""
    if st.option is None or node.rule is None:
        return 0
    shape = graph.meshes.get(st.mesh)
    if shape is None:
        return 0
    total = 0
    axes = select_axes(node.rule, st.option)
    for scan in node.rule.scans:
        if st.option[scan.loop]:
            total += _gathered(graph, node, st, shape, st.option[scan.loop], scan.loop, scaled)
    if axes:
        total += _gathered(graph, node, st, shape, axes, None, scaled)
    return total * node.weight


def _gathered(
    graph: Graph, node: Node, st: State, shape: tuple[int, ...], axes: tuple[int, ...], row: int | None, scaled: bool
) -> int:
    """What one all_gather per result over `axes` moves: every device
    receives the other members' pieces (along the dimension loop `row`
    indexes, one row of each: a scan's totals)."""
    others = _group(shape, axes) - 1
    total = 0
    for v, lay, m in zip(node.results, st.produces, node.rule.result_maps if node.rule else ()):
        if v < 0 or lay is None:
            continue
        value = graph.values[v]
        elements = 1
        for d, n in enumerate(value.shape):
            if row is not None and m is not None and d < len(m) and m[d] == row:
                continue
            pieces = _group(shape, lay[1].axes_of(d))
            elements *= -(-n // pieces)
        piece = others * elements * value.element_bytes
        total += piece * BYTE + COLLECTIVE if scaled else piece
    return total


def bytes_moved(graph: Graph, cost: Cost, choice: Sequence[int]) -> int:
    """The bytes a solution moves (its objective without tie-breakers): per
    value, one reshard per other layout its consumers need, weighted by
    the most-repeated use wanting it, plus what ops move inside themselves
    (`own_cost`)."""
    total = sum(own_cost(graph, node, node.states[choice[c]]) for c, node in enumerate(graph.nodes) if node.states)
    for value in graph.values:
        if value.producer is None:
            continue
        p, j = value.producer
        pstates = graph.nodes[p].states
        if not pstates or not pstates[choice[p]].produces:
            continue
        have = pstates[choice[p]].produces[j]
        wanted: dict[Layout, int] = {}
        for c, i in value.consumers:
            node = graph.nodes[c]
            if not node.states or not node.states[choice[c]].needs:
                continue
            need = node.states[choice[c]].needs[i]
            if need is not None and need != have:
                wanted[need] = max(wanted.get(need, 0), node.weight_of(i))
        total += sum(cost(value, have, need) * w for need, w in wanted.items())
    return total


def _argmin(values: list[int]) -> int:
    """The first index of the smallest value."""
    return values.index(min(values)) if values else 0


__all__ = [
    "BYTE",
    "CAPTURED",
    "IMPOSSIBLE",
    "REPLICATED",
    "Graph",
    "Layout",
    "Node",
    "Solver",
    "State",
    "Value",
    "bytes_moved",
]
