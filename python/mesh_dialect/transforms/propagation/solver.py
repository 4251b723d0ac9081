"""The cost-driven choice of every op's loop sharding: plain Python, no IR.

Propagation extracts each function into a `Graph` (`graph.py`): one node
per op, per explicit annotation and per value carried through a region,
joined by the tensor values between them.  A node has candidate *states*:
an op's states are loop shardings, a carried value's states are layouts,
and a node whose layout is given (an explicit annotation, an explicit
`mesh.sharding_option`, an op without a rule, a value every device holds
whole) has exactly one.  A state says which layout the node needs of each
operand and which layout it produces for each result.

Cost.  Wherever a value reaches a consumer, the producer's layout becomes
the consumer's by the resharding planner's cheapest plan; the cost of that
edge is the plan's bytes received per device (`sharding.resharding`, on the
value's real shape and element type), times the trip counts of the loops
around the consumer.  A solution picks one state per node; its cost is the
sum over all edges.  A whole value slices for free, so values every device
holds (constants, `tensor.empty`, fills of them, unannotated arguments)
cost nothing wherever they go: sharing an init never forces a layout.

Ties (equal bytes) go to the state that splits the op's loops over more
devices (less work and memory per device), then to the earlier candidate.

Algorithm, for N nodes, E edges and at most K states per node:

1. Candidates.  Fixed nodes start with their state.  An op collects the
   layouts its neighbours can give or want on each of its values (at most
   `MAX_LAYOUTS` per value) and turns each, each pair on different values,
   and all of them at once, into a loop sharding with the rule's own
   `option_from_requests`; the replicated sharding is always a candidate.
   New states bring new layouts to the neighbours, which are revisited
   until nothing new appears (at most `MAX_STATES` per node, so this is
   O(N K^2) rule evaluations, memoized per rule and requests).
2. Costs.  An edge to a fixed node becomes a per-state cost of the other
   end; an edge between two choosing nodes a K x K table (memoized per
   shape, element type and the two state lists, so repeated layers share
   them).
3. Solve.  Nodes are in program order, which is topological except for the
   values a loop carries back to its head.  A backward pass computes, per
   state, the cheapest cost of everything downstream (exact on chains and
   trees; a value used twice counts both subtrees); a forward pass then
   fixes each node's state given its decided producers plus that
   downstream cost, which is the exact optimum on a chain of layers.
   Finally, rounds of local improvement (each node takes the state cheapest
   given all its neighbours, back edges included) until a round changes
   nothing, at most `MAX_ROUNDS`.  Each pass is O(E K^2).

Nothing depends on the order in which a user wrote annotations for users,
on sweeps, or on duplicate ops that `cse` would merge: the costs are the
same either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ...interfaces.rules import Conflict, ShardingOption, ShardingRule, option_from_requests, shardings_from_option
from ...sharding.spec import Sharding

Layout = tuple[str, Sharding]
"""A value's layout on a mesh."""

MAX_LAYOUTS = 8
"""Candidate layouts kept per value (the first found)."""
MAX_STATES = 16
"""Candidate states kept per node (the first found)."""
MAX_ROUNDS = 8
"""Rounds of local improvement after the forward pass."""
IMPOSSIBLE = 1 << 40
"""The bytes a cost function returns for a change no plan realizes (a value
moving between meshes, an uneven split)."""
TIE_RANGE = 1 << 10
"""A state's tie-breaker lies in [0, TIE_RANGE): less work per device, less."""
BYTE = 1 << 40
"""One byte of traffic outweighs the tie-breakers of any program of fewer
than 2**30 nodes."""

REPLICATED = Sharding(())


@dataclass(frozen=True)
class State:
    """One way a node can run: the layouts it needs of its operands (None:
    any), the layouts it produces, and its loop sharding (ops only)."""

    needs: tuple[Layout | None, ...]
    produces: tuple[Layout | None, ...]
    option: ShardingOption | None = None
    mesh: str = ""
    tie: int = 0


@dataclass
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


@dataclass
class Value:
    shape: tuple[int, ...]
    element_bytes: int
    producer: tuple[int, int] | None = None  # (node, result index); None: whole on every device
    consumers: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Graph:
    meshes: dict[str, tuple[int, ...]]
    nodes: list[Node] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)

    def add_value(self, shape: tuple[int, ...], element_bytes: int) -> int:
        self.values.append(Value(shape, element_bytes))
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

    def add_operand(self, node: int, value: int) -> None:
        """A late operand (a value a loop yields back to its carried value)."""
        n = self.nodes[node]
        n.operands.append(value)
        if value >= 0:
            self.values[value].consumers.append((node, len(n.operands) - 1))


Cost = Callable[[Value, Layout | None, Layout | None], int]
"""Bytes a device receives to turn a value from one layout into another
(None: produced whole / needed in any layout)."""


def _group(mesh_shape: tuple[int, ...], axes: Sequence[int]) -> int:
    n = 1
    for a in axes:
        n *= max(1, mesh_shape[a]) if a < len(mesh_shape) else 1
    return n


# -- 1. candidates ---------------------------------------------------------------


class _Candidates:
    def __init__(self, graph: Graph) -> None:
        self.g = graph
        self.memo: dict[tuple, list[tuple[str, ShardingOption]]] = {}
        self.state_memo: dict[tuple, State] = {}
        self.divisible: dict[tuple, bool] = {}

    def layouts(self, v: int, skip: int) -> list[Layout]:
        """Layouts value `v` is produced in or wanted in by nodes other than `skip`."""
        value = self.g.values[v]
        seen: dict[Layout, None] = {}
        if value.producer is not None and value.producer[0] != skip:
            p, j = value.producer
            for s in self.g.nodes[p].states:
                lay = s.produces[j]
                if lay is not None and lay[0]:
                    seen.setdefault(lay)
        for c, i in value.consumers:
            if c == skip:
                continue
            for s in self.g.nodes[c].states:
                lay = s.needs[i] if i < len(s.needs) else None
                if lay is not None and lay[0]:  # a whole value's layout names no mesh
                    seen.setdefault(lay)
            if len(seen) >= MAX_LAYOUTS:
                break
        return list(seen)[:MAX_LAYOUTS]

    def options(self, rule: ShardingRule, requests: tuple[tuple[str, int, Layout], ...]) -> list[tuple[str, tuple]]:
        key = (id(rule), requests)
        found = self.memo.get(key)
        if found is not None:
            return found
        out: dict[tuple[str, tuple], None] = {}
        by_mesh: dict[str, list[tuple[str, int, Sharding]]] = {}
        for side, i, (mesh, s) in requests:
            by_mesh.setdefault(mesh, []).append((side, i, s))
        for mesh, reqs in by_mesh.items():
            out.setdefault((mesh, tuple(() for _ in rule.iterators)))
            for r in reqs:
                opt = option_from_requests(rule, [r])
                if not isinstance(opt, Conflict):
                    out.setdefault((mesh, opt))
            for a, b in combinations(reqs, 2):
                if a[:2] == b[:2]:
                    continue
                opt = option_from_requests(rule, [a, b])
                if not isinstance(opt, Conflict):
                    out.setdefault((mesh, opt))
            for ordered in (reqs, sorted(reqs, key=lambda r: r[0] != "operand")):
                opt = option_from_requests(rule, ordered)
                out.setdefault((mesh, opt.resolved if isinstance(opt, Conflict) else opt))
        result = self.memo[key] = list(out)
        return result

    def state(self, rule: ShardingRule, mesh: str, option: ShardingOption) -> State:
        key = (id(rule), mesh, option)
        found = self.state_memo.get(key)
        if found is None:
            operands, results = shardings_from_option(rule, option)
            shape = self.g.meshes.get(mesh, ())
            pieces = 1
            for axes in option:
                pieces *= _group(shape, axes)
            found = self.state_memo[key] = State(
                tuple(None if s is None else (mesh, s) for s in operands),
                tuple(None if s is None else (mesh, s) for s in results),
                option,
                mesh,
                TIE_RANGE // pieces - 1 if pieces < TIE_RANGE else 0,
            )
        return found

    def carried_state(self, n_operands: int, n_results: int, lay: Layout) -> State:
        key = (n_operands, n_results, lay)
        found = self.state_memo.get(key)
        if found is None:
            pieces = 1
            for axes in lay[1].split_axes:
                pieces *= _group(self.g.meshes.get(lay[0], ()), axes)
            tie = TIE_RANGE // pieces - 1 if pieces < TIE_RANGE else 0
            found = self.state_memo[key] = State((lay,) * n_operands, (lay,) * n_results, None, lay[0], tie)
        return found

    def divides(self, node: Node, st: State) -> bool:
        """Whether every value of the node splits evenly in the state's
        layouts (uneven pieces are not partitioned yet)."""
        shape = self.g.meshes.get(st.mesh)
        if shape is None:
            return True
        for values, lays in ((node.operands, st.needs), (node.results, st.produces)):
            for v, lay in zip(values, lays):
                if v < 0 or lay is None:
                    continue
                dims = self.g.values[v].shape
                key = (dims, shape, lay[1].split_axes)
                ok = self.divisible.get(key)
                if ok is None:
                    ok = self.divisible[key] = all(
                        d < len(dims) and dims[d] % _group(shape, axes) == 0
                        for d, axes in enumerate(lay[1].split_axes)
                        if axes
                    )
                if not ok:
                    return False
        return True

    def expand(self, index: int) -> bool:
        """Add the states the node's neighbourhood suggests; True if any."""
        node = self.g.nodes[index]
        if len(node.states) >= MAX_STATES:
            return False
        have = {id(s) for s in node.states}  # states are memoized: one object each
        added = False
        for st in self.suggested(index, node):
            if id(st) not in have and self.divides(node, st):
                node.states.append(st)
                have.add(id(st))
                added = True
                if len(node.states) >= MAX_STATES:
                    break
        return added

    def suggested(self, index: int, node: Node) -> Iterator[State]:
        """States built from the layouts around the node, best guesses first."""
        if node.rule is not None:
            rule = node.rule
            requests: list[tuple[str, int, Layout]] = []
            for j, v in enumerate(node.results):
                if v >= 0 and rule.result_maps[j] is not None:
                    requests += [("result", j, lay) for lay in self.layouts(v, index)]
            for i, v in enumerate(node.operands):
                if v >= 0 and rule.operand_maps[i] is not None:
                    # an operand is never partial: a partial layout asks for its split only
                    requests += [("operand", i, _unreduced(lay)) for lay in self.layouts(v, index)]
            for mesh, option in self.options(rule, tuple(requests)):
                yield self.state(rule, mesh, option)
        elif node.carry:
            lays: dict[Layout, None] = {}
            for v in (*node.operands, *node.results):
                if v >= 0:
                    for lay in self.layouts(v, index):
                        lays.setdefault(lay)
            for mesh in dict.fromkeys(m for m, _ in lays):
                lays.setdefault((mesh, REPLICATED))
            for lay in lays:
                yield self.carried_state(len(node.operands), len(node.results), lay)

    def run(self, choosing: list[int]) -> None:
        pending = dict.fromkeys(choosing)
        is_choosing = set(choosing)
        while pending:
            index = next(iter(pending))
            del pending[index]
            if not self.expand(index):
                continue
            node = self.g.nodes[index]
            for v in (*node.operands, *node.results):
                if v < 0:
                    continue
                value = self.g.values[v]
                if value.producer is not None and value.producer[0] in is_choosing:
                    pending.setdefault(value.producer[0])
                for c, _ in value.consumers:
                    if c in is_choosing:
                        pending.setdefault(c)


def _unreduced(lay: Layout) -> Layout:
    s = lay[1]
    return lay if not s.is_partial else (lay[0], Sharding(s.split_axes))


# -- 2 and 3. costs and solving ------------------------------------------------------


@dataclass
class _Edge:
    producer: int
    consumer: int
    table: list[list[int]]  # [producer state][consumer state]


class Solver:
    """Chooses one state per node (see the module docstring)."""

    def __init__(self, graph: Graph, cost: Cost) -> None:
        self.g = graph
        self.cost = cost
        self.table_memo: dict[tuple, list[list[int]]] = {}

    def edge_cost(self, value: Value, have: Layout | None, need: Layout | None, weight: int) -> int:
        if need is None or have == need:
            return 0
        return self.cost(value, have, need) * weight * BYTE

    def solve(self) -> list[int]:
        g = self.g
        choosing = [i for i, n in enumerate(g.nodes) if n.rule is not None or n.carry]
        _Candidates(g).run(choosing)
        for i in choosing:
            if not g.nodes[i].states:  # nothing around it has a layout
                g.nodes[i].states.append(State((), ()))
        is_choosing = [len(n.states) > 1 for n in g.nodes]
        unary = [[s.tie for s in n.states] for n in g.nodes]
        edges: list[_Edge] = []
        ins: list[list[_Edge]] = [[] for _ in g.nodes]
        outs: list[list[_Edge]] = [[] for _ in g.nodes]
        for value in g.values:
            for c, i in value.consumers:
                cnode = g.nodes[c]
                if not cnode.states or not cnode.states[0].needs:
                    continue
                if value.producer is None:
                    # whole on every device: slicing is free, only a partial need costs (nothing either)
                    continue
                p, j = value.producer
                pnode = g.nodes[p]
                if not pnode.states or not pnode.states[0].produces:
                    continue
                key = (
                    value.shape,
                    value.element_bytes,
                    cnode.weight,
                    tuple(s.produces[j] for s in pnode.states),
                    tuple(s.needs[i] for s in cnode.states),
                )
                table = self.table_memo.get(key)
                if table is None:
                    table = self.table_memo[key] = [
                        [self.edge_cost(value, sp.produces[j], sc.needs[i], cnode.weight) for sc in cnode.states]
                        for sp in pnode.states
                    ]
                if is_choosing[p] and is_choosing[c]:
                    e = _Edge(p, c, table)
                    edges.append(e)
                    outs[p].append(e)
                    ins[c].append(e)
                elif is_choosing[c]:
                    row = table[0]
                    unary[c] = [u + t for u, t in zip(unary[c], row)]
                elif is_choosing[p]:
                    unary[p] = [u + t[0] for u, t in zip(unary[p], table)]
        n = len(g.nodes)
        # downstream cost per state (forward edges only)
        down = [[0] * len(node.states) for node in g.nodes]
        for c in range(n - 1, -1, -1):
            if not is_choosing[c]:
                continue
            dc = down[c]
            for e in outs[c]:
                if e.consumer <= c:
                    continue
                m = e.consumer
                best_m = [u + d for u, d in zip(unary[m], down[m])]
                for sp, row in enumerate(e.table):
                    dc[sp] += min(t + b for t, b in zip(row, best_m))
        choice = [0] * n
        for c in range(n):
            if not is_choosing[c]:
                continue
            total = [u + d for u, d in zip(unary[c], down[c])]
            for e in ins[c]:
                if e.producer < c:
                    row = e.table[choice[e.producer]]
                    total = [t + r for t, r in zip(total, row)]
            choice[c] = _argmin(total)
        for _ in range(MAX_ROUNDS):
            changed = False
            for c in range(n):
                if not is_choosing[c]:
                    continue
                total = list(unary[c])
                for e in ins[c]:
                    row = e.table[choice[e.producer]]
                    total = [t + r for t, r in zip(total, row)]
                for e in outs[c]:
                    sc = choice[e.consumer]
                    total = [t + row[sc] for t, row in zip(total, e.table)]
                best = _argmin(total)
                if total[best] < total[choice[c]]:
                    choice[c] = best
                    changed = True
            if not changed:
                break
        return choice


def bytes_moved(graph: Graph, cost: Cost, choice: Sequence[int]) -> int:
    """The bytes a solution moves: its objective without tie-breakers."""
    total = 0
    for value in graph.values:
        if value.producer is None:
            continue
        p, j = value.producer
        pstates = graph.nodes[p].states
        if not pstates:
            continue
        have = pstates[choice[p]].produces[j] if pstates[choice[p]].produces else None
        for c, i in value.consumers:
            node = graph.nodes[c]
            if not node.states or not node.states[choice[c]].needs:
                continue
            need = node.states[choice[c]].needs[i]
            if need is not None and have != need:
                total += cost(value, have, need) * node.weight
    return total


def _argmin(values: list[int]) -> int:
    best = 0
    for k in range(1, len(values)):
        if values[k] < values[best]:
            best = k
    return best


__all__ = ["BYTE", "IMPOSSIBLE", "REPLICATED", "Graph", "Layout", "Node", "Solver", "State", "Value", "bytes_moved"]
