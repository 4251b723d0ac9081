"""The cost-driven propagation solver on plain graphs (no IR): on chains and
trees its plan must move exactly as few bytes as the best of all the
candidate assignments, found here by trying every one."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from mesh_dialect.interfaces.rules import Iterator, ShardingRule
from mesh_dialect.sharding.resharding import plan_resharding
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.transforms.propagation.solver import (
    Graph,
    Node,
    Solver,
    State,
    Value,
    _Candidates,
    _linked_heads,
    bytes_moved,
)

MESH = (2, 2)
LAYOUTS = [
    Sharding(()),
    Sharding(((0,),)),
    Sharding(((), (1,))),
    Sharding(((0,), (1,))),
    Sharding(((1,), (0,))),
    Sharding(((0, 1),)),
    Sharding((), (0,), "sum"),
]


@functools.cache
def _plan_bytes(shape, eb, have, need) -> int:
    return plan_resharding(shape, MESH, have, need, element_bytes=eb).bytes_received


def cost(value: Value, have, need) -> int:
    if need is None or have is None:
        return 0
    return _plan_bytes(value.shape, value.element_bytes, have[1], need[1])


def _fixed(graph: Graph, layout: Sharding, shape=(8, 8)) -> int:
    """A value in a given layout (a function argument)."""
    v = graph.add_value(shape, 4)
    graph.add_node(Node([], [v], [State((), (("m", layout),))]))
    return v


def _chain(seed: int) -> Graph:
    """An argument, three ops (elementwise, transpose, matmul against another
    argument, elementwise sum), then an annotated result."""
    rng = np.random.default_rng(seed)
    g = Graph({"m": MESH})
    v = _fixed(g, LAYOUTS[rng.integers(len(LAYOUTS) - 1)])
    for _ in range(3):
        kind = rng.choice(["ew", "transpose", "matmul", "add"])
        out = g.add_value((8, 8), 4)
        if kind == "ew":
            g.add_node(Node([v], [out], rule=ShardingRule.elementwise(2)))
        elif kind == "transpose":
            g.add_node(Node([v], [out], rule=ShardingRule.transpose((1, 0))))
        elif kind == "matmul":
            w = _fixed(g, LAYOUTS[rng.integers(len(LAYOUTS) - 1)])
            g.add_node(Node([v, w], [out], rule=ShardingRule.matmul()))
        else:
            b = _fixed(g, LAYOUTS[rng.integers(len(LAYOUTS) - 1)])
            g.add_node(Node([v, b], [out], rule=ShardingRule.elementwise(2, 2)))
        v = out
    target = ("m", LAYOUTS[rng.integers(len(LAYOUTS))])
    g.add_node(Node([v], [], [State((target,), ())]))
    return g


def _brute_force(g: Graph, chosen: list[int]) -> int:
    choosing = [i for i, n in enumerate(g.nodes) if len(n.states) > 1]
    best = None
    for combo in itertools.product(*(range(len(g.nodes[i].states)) for i in choosing)):
        trial = list(chosen)
        for i, s in zip(choosing, combo):
            trial[i] = s
        b = bytes_moved(g, cost, trial)
        best = b if best is None else min(best, b)
    assert best is not None
    return best


@pytest.mark.parametrize("seed", range(40))
def test_chains_get_the_fewest_bytes_of_all_assignments(seed: int) -> None:
    g = _chain(seed)
    chosen = Solver(g, cost).solve()
    assert bytes_moved(g, cost, chosen) == _brute_force(g, chosen)


@pytest.mark.parametrize("seed", range(40))
def test_chains_take_the_backward_pass_plan_that_local_improvement_keeps(seed: int, monkeypatch) -> None:
    """On a chain the backward pass is exact, so the solver skips local
    improvement: the full search must pick the very same states."""
    g = _chain(seed)
    quick = Solver(g, cost)
    chosen = quick.solve()
    assert quick.out_forest
    build = Solver.build_tables

    def without_shortcut(self: Solver) -> None:
        build(self)
        self.out_forest = False

    monkeypatch.setattr(Solver, "build_tables", without_shortcut)
    assert Solver(_chain(seed), cost).solve() == chosen


def test_megatron_pair_all_reduces_once_instead_of_gathering_the_weight() -> None:
    """x whole, W1 split on columns, W2 on rows, result whole: the second
    matmul splits its contraction and only its 8x64 output is reduced."""
    g = Graph({"m": (4,)})
    x = _fixed(g, Sharding(()), (8, 64))
    w1 = _fixed(g, Sharding(((), (0,))), (64, 128))
    w2 = _fixed(g, Sharding(((0,),)), (128, 64))
    h = g.add_value((8, 128), 4)
    mm1 = g.add_node(Node([x, w1], [h], rule=ShardingRule.matmul()))
    r = g.add_value((8, 128), 4)
    relu = g.add_node(Node([h], [r], rule=ShardingRule.elementwise(2)))
    y = g.add_value((8, 64), 4)
    mm2 = g.add_node(Node([r, w2], [y], rule=ShardingRule.matmul()))
    g.add_node(Node([y], [], [State((("m", Sharding(())),), ())]))

    def cost4(value, have, need):
        if need is None or have is None:
            return 0
        return plan_resharding(value.shape, (4,), have[1], need[1], element_bytes=4).bytes_received

    chosen = Solver(g, cost4).solve()
    assert g.nodes[mm1].states[chosen[mm1]].option == ((), (0,), ())
    assert g.nodes[relu].states[chosen[relu]].option == ((), (0,))
    assert g.nodes[mm2].states[chosen[mm2]].option == ((), (), (0,))
    # the all_reduce of the 8x64 partial sum: 2 (512 - 512 / g) floats
    assert bytes_moved(g, cost4, chosen) == 2 * 3 * 128 * 4


def _megatron_pair(hidden: int, uneven: bool) -> tuple[Graph, list[int], list[int]]:
    """The Megatron pair above with a hidden size of `hidden`; the ops'
    nodes marked `uneven` or not.  Returns the graph, the chosen states and
    the ops' node ids."""
    g = Graph({"m": (4,)})
    x = _fixed(g, Sharding(()), (8, 64))
    w1 = _fixed(g, Sharding(((), (0,))), (64, hidden))
    w2 = _fixed(g, Sharding(((0,),)), (hidden, 64))
    h = g.add_value((8, hidden), 4)
    mm1 = g.add_node(Node([x, w1], [h], rule=ShardingRule.matmul(), uneven=uneven))
    r = g.add_value((8, hidden), 4)
    relu = g.add_node(Node([h], [r], rule=ShardingRule.elementwise(2), uneven=uneven))
    y = g.add_value((8, 64), 4)
    mm2 = g.add_node(Node([r, w2], [y], rule=ShardingRule.matmul(), uneven=uneven))
    g.add_node(Node([y], [], [State((("m", Sharding(())),), ())]))

    def cost4(value, have, need):
        if need is None or have is None:
            return 0
        return plan_resharding(value.shape, (4,), have[1], need[1], element_bytes=4).bytes_received

    return g, Solver(g, cost4).solve(), [mm1, relu, mm2]


def test_a_hidden_size_the_mesh_does_not_divide_is_split_unevenly_by_ops_that_can_run_so() -> None:
    """130 over 4 devices: ops marked `uneven` run on the weights' pieces
    (33, 33, 32, 32 in the default cut); unmarked ones keep the hidden
    dimension whole, which gathers the weights."""
    g, chosen, (mm1, relu, mm2) = _megatron_pair(130, uneven=True)
    assert g.nodes[mm1].states[chosen[mm1]].option == ((), (0,), ())
    assert g.nodes[relu].states[chosen[relu]].option == ((), (0,))
    assert g.nodes[mm2].states[chosen[mm2]].option == ((), (), (0,))
    g, chosen, (mm1, relu, mm2) = _megatron_pair(130, uneven=False)
    # the hidden loop: columns of the first matmul and the relu, the second's contraction
    assert g.nodes[mm1].states[chosen[mm1]].option[1] == ()
    assert g.nodes[relu].states[chosen[relu]].option[1] == ()
    assert g.nodes[mm2].states[chosen[mm2]].option[2] == ()


def test_uneven_pieces_must_be_non_empty_and_line_up_across_the_op() -> None:
    """A loop indexing dimensions of different sizes the mesh does not
    divide (a reshape-like rule) is not split unevenly, nor is a size
    smaller than the number of pieces; an even split of either stays."""
    g = Graph({"m": (4,)})
    a, b = g.add_value((6,), 4), g.add_value((10,), 4)
    node = Node([a], [b], rule=ShardingRule(("parallel",), ((0,),), ((0,),)), uneven=True)
    g.add_node(node)
    cands = _Candidates(g)
    split = Sharding(((0,),))
    state = State((("m", split),), (("m", split),), ((0,),), "m")
    assert not cands.divides(node, state)
    short = Node([g.add_value((3,), 4)], [g.add_value((3,), 4)], rule=ShardingRule.elementwise(1), uneven=True)
    g.add_node(short)
    assert not cands.divides(short, state)
    fits = Node([g.add_value((7,), 4)], [g.add_value((7,), 4)], rule=ShardingRule.elementwise(1), uneven=True)
    g.add_node(fits)
    assert cands.divides(fits, state)
    even = Node([g.add_value((8,), 4)], [g.add_value((12,), 4)], rule=ShardingRule(("parallel",), ((0,),), ((0,),)))
    g.add_node(even)
    assert cands.divides(even, state)


def test_an_expansion_names_each_value_it_grew_once() -> None:
    """An op whose first expansion gives its result two layouts (whole, and
    split as its operand) names the result once among the values that grew
    (their neighbours are woken once per expansion, not once per layout
    gained)."""
    g = Graph({"m": MESH})
    split = Sharding(((0,), (1,)))
    v = _fixed(g, split)
    out = g.add_value((8, 8), 4)
    op = g.add_node(Node([v], [out], rule=ShardingRule.elementwise(2)))
    cands = _Candidates(g)
    assert cands.start() == [op]
    assert list(cands.expand(op)) == [v, out]
    assert [cands.layouts[k] for k in cands.seen[v]] == [("m", split), ("m", Sharding(()))]
    assert [cands.layouts[k] for k in cands.seen[out]] == [("m", Sharding(())), ("m", split)]


def test_loops_weigh_what_they_move_by_their_trip_count() -> None:
    """The same change of layout costs more inside a loop than outside: with
    a weight of 10 on the consumer, the producer moves the data once instead."""
    g = Graph({"m": (2,)})
    x = _fixed(g, Sharding(((0,),)))
    y = g.add_value((8, 8), 4)
    g.add_node(Node([x], [y], rule=ShardingRule.elementwise(2)))
    g.add_node(Node([y], [], [State((("m", Sharding(())),), ())], weight=10))
    chosen = Solver(g, cost).solve()
    assert bytes_moved(g, cost, chosen) == _plan_bytes((8, 8), 4, Sharding(((0,),)), Sharding(()))


def _in_tree(seed: int) -> Graph:
    """A binary in-tree: arguments in random layouts at the leaves, ops that
    combine two branches (an add) or change one (a transpose), an annotated
    root."""
    rng = np.random.default_rng(seed)
    g = Graph({"m": MESH})

    def branch(depth: int) -> int:
        if depth == 0 or rng.random() < 0.2:
            return _fixed(g, LAYOUTS[rng.integers(len(LAYOUTS) - 1)])
        out = g.add_value((8, 8), 4)
        if rng.random() < 0.6:
            a, b = branch(depth - 1), branch(depth - 1)
            g.add_node(Node([a, b], [out], rule=ShardingRule.elementwise(2, 2)))
        else:
            g.add_node(Node([branch(depth - 1)], [out], rule=ShardingRule.transpose((1, 0))))
        return out

    root = branch(3)
    g.add_node(Node([root], [], [State((("m", LAYOUTS[rng.integers(len(LAYOUTS))]),), ())]))
    return g


@pytest.mark.parametrize("seed", range(40))
def test_in_trees_get_the_fewest_bytes_of_all_assignments(seed: int) -> None:
    g = _in_tree(seed)
    if sum(1 for n in g.nodes if n.rule is not None) > 5:
        pytest.skip("too many ops to try every assignment")
    chosen = Solver(g, cost).solve()
    assert bytes_moved(g, cost, chosen) == _brute_force(g, chosen)


def test_a_value_two_users_want_in_one_layout_is_resharded_once() -> None:
    """x split on columns times W split on rows gives a partial sum; two
    matmuls read it whole.  Reducing it once (768 bytes) beats gathering
    x and W (1,152 bytes), though a per-use count would price it twice."""
    g = Graph({"m": (4,)})
    x = _fixed(g, Sharding(((), (0,))), (8, 16))
    w = _fixed(g, Sharding(((0,),)), (16, 16))
    m = g.add_value((8, 16), 4)
    mm = g.add_node(Node([x, w], [m], rule=ShardingRule.matmul()))
    for _ in range(2):
        w2 = _fixed(g, Sharding(((), (0,))), (16, 16))
        out = g.add_value((8, 16), 4)
        g.add_node(Node([m, w2], [out], rule=ShardingRule.matmul()))
        g.add_node(Node([out], [], [State((("m", Sharding(((), (0,)))),), ())]))

    def cost4(value, have, need):
        if need is None or have is None:
            return 0
        return plan_resharding(value.shape, (4,), have[1], need[1], element_bytes=4).bytes_received

    chosen = Solver(g, cost4).solve()
    assert g.nodes[mm].states[chosen[mm]].option == ((), (), (0,))
    assert bytes_moved(g, cost4, chosen) == 2 * 3 * 32 * 4


@pytest.mark.parametrize("seed", range(40))
def test_a_value_one_op_reads_twice_and_another_in_a_loop_gets_the_fewest_bytes(seed: int) -> None:
    """A value read by several uses is priced by its shared reshards, with
    one node's two uses of it switched together when that node changes."""
    rng = np.random.default_rng(seed)
    g = Graph({"m": MESH})
    x = _fixed(g, LAYOUTS[rng.integers(len(LAYOUTS) - 1)])
    y = g.add_value((8, 8), 4)
    g.add_node(Node([x], [y], rule=ShardingRule.elementwise(2)))
    s = g.add_value((8, 8), 4)
    g.add_node(Node([y, y], [s], rule=ShardingRule.elementwise(2, 2)))
    t = g.add_value((8, 8), 4)
    g.add_node(Node([y], [t], rule=ShardingRule.transpose((1, 0)), weight=3))
    for v in (s, t):
        g.add_node(Node([v], [], [State((("m", LAYOUTS[rng.integers(len(LAYOUTS))]),), ())]))
    chosen = Solver(g, cost).solve()
    assert bytes_moved(g, cost, chosen) == _brute_force(g, chosen)


def test_a_loop_body_priced_with_the_value_it_carries_back_keeps_one_collective() -> None:
    """A row split carried through a loop whose body writes a slice of some
    rows (the rows whole, the columns free): gathering the rows once in front
    of the loop (1 collective) moves as many bytes as moving their split to
    the columns and back (2).  The first pass must price the body's yield
    into the loop head it has fixed already, or the body takes the columns
    (free from a whole head, and more pieces) and local improvement, moving
    one node at a time, can only follow it to the 2-collective plan."""
    g = Graph({"m": (2,)})
    x = _fixed(g, Sharding(((0,),)), (8, 4))
    out, arg = g.add_value((8, 4), 4), g.add_value((8, 4), 4)
    head = g.add_node(Node([x], [out, arg], carry=True))
    y = g.add_value((8, 4), 4)
    body = g.add_node(Node([arg], [y], rule=ShardingRule(("parallel",), ((None, 0),), ((None, 0),)), weight=3))
    g.add_operand(head, y, 3)
    g.add_node(Node([out], [], [State((("m", Sharding(((0,),))),), ())]))

    def plan(value: Value, have, need):
        if need is None or have is None or not (have[1].split_axes or have[1].partial_axes):
            return None
        return plan_resharding(value.shape, (2,), have[1], need[1], element_bytes=4)

    def cost2(value: Value, have, need) -> int:
        p = plan(value, have, need)
        return 0 if p is None else p.bytes_received

    def steps(value: Value, have, need) -> int:
        p = plan(value, have, need)
        return 0 if p is None else sum(1 for step in p.steps if step.__class__.__name__ != "AllSlice")

    chosen = Solver(g, cost2, steps).solve()
    assert g.nodes[body].states[chosen[body]].option == ((),)
    assert g.nodes[head].states[chosen[head]].produces[0][1] == Sharding(())
    assert bytes_moved(g, cost2, chosen) == 8 * 4 * 4 // 2


def _whole_cost(mesh: tuple[int, ...]):
    """The planner's bytes on `mesh`; a value produced whole slices for free."""

    def cost_on(value: Value, have, need) -> int:
        if need is None or have is None or not (have[1].split_axes or have[1].partial_axes):
            return 0
        return plan_resharding(value.shape, mesh, have[1], need[1], element_bytes=4).bytes_received

    return cost_on


def test_a_loop_head_and_the_body_yielding_to_it_move_together() -> None:
    """x (rows) carried through 3 trips of x @ w, w arriving by rows: the
    rows plan gathers w once (768 bytes a device).  Split the contraction
    instead and each trip's partial sums are reduced back to the carried
    layout (1,152 bytes with the columns carried).  No start finds the rows
    plan, and from the contraction plan neither the head alone (its body
    then yields partial sums to reduce) nor the body alone (its operand then
    changes layout every trip) moves to it: the two move together."""
    cost4 = _whole_cost((4,))
    g = Graph({"m": (4,)})
    x = _fixed(g, Sharding(((0,),)), (8, 16))
    w = _fixed(g, Sharding(((0,),)), (16, 16))
    out, arg = g.add_value((8, 16), 4), g.add_value((8, 16), 4)
    head = g.add_node(Node([x], [out, arg], carry=True))
    y = g.add_value((8, 16), 4)
    body = g.add_node(Node([arg, w], [y], rule=ShardingRule.matmul(), weight=3, operand_weights=[3, 1]))
    g.add_operand(head, y, 3)
    chosen = Solver(g, cost4).solve()
    assert g.nodes[body].states[chosen[body]].option == ((0,), (), ())
    assert g.nodes[head].states[chosen[head]].produces[0][1] == Sharding(((0,),))
    assert bytes_moved(g, cost4, chosen) == 16 * 16 * 4 * 3 // 4


def test_every_loop_gets_its_move_however_many_loops_need_one() -> None:
    """Twenty-four loops like the one above side by side, each needing its
    head and body moved together.  Each such move is followed by a round
    over the nodes around it; a budget of eight shared by the rounds and
    the moves ran out after a few loops in each start, leaving the rest to
    reduce partial sums every trip, and so would a budget of eight moves
    (two starts move sixteen loops).  The moves' budget grows with the
    loops, and the count of rounds starts again after each move."""
    cost4 = _whole_cost((4,))
    g = Graph({"m": (4,)})
    bodies = []
    for _ in range(24):
        x = _fixed(g, Sharding(((0,),)), (8, 16))
        w = _fixed(g, Sharding(((0,),)), (16, 16))
        out, arg = g.add_value((8, 16), 4), g.add_value((8, 16), 4)
        head = g.add_node(Node([x], [out, arg], carry=True))
        y = g.add_value((8, 16), 4)
        bodies.append(g.add_node(Node([arg, w], [y], rule=ShardingRule.matmul(), weight=3, operand_weights=[3, 1])))
        g.add_operand(head, y, 3)
    chosen = Solver(g, cost4).solve()
    assert [g.nodes[b].states[chosen[b]].option for b in bodies] == [((0,), (), ())] * 24
    assert bytes_moved(g, cost4, chosen) == 24 * (16 * 16 * 4 * 3 // 4)


def test_only_loops_link_through_a_result_that_is_an_init() -> None:
    """A loop whose result is another loop's init links the two heads (and
    a third loop after, transitively); the same result read by a carried
    value that is not a loop's (a branch op's, half of an `scf.while`'s,
    `Node.loop` False) links nothing, though its node reads it first."""
    g = Graph({"m": (4,)})
    x = _fixed(g, Sharding(((0,),)), (8, 16))
    heads = []
    for loop in (True, True, False, True):
        out, arg = g.add_value((8, 16), 4), g.add_value((8, 16), 4)
        heads.append(g.add_node(Node([x], [out, arg], carry=True, loop=loop)))
        if loop:
            x = out
    a, b, branch, c = heads
    assert g.nodes[branch].operands == g.nodes[c].operands  # (both read b's result first)
    assert _linked_heads(g) == {a: [b, c], b: [a, c], c: [a, b]}


def test_the_first_start_weighs_a_value_handed_back_to_a_loop_head() -> None:
    """A loop head every trip reads whole (a fixed reader), and a body of
    three elementwise ops handing back to it, free to split from a whole
    head and preferring more pieces on ties: the first start must see that
    the split body yields a layout the whole head then gathers every trip
    (it fixes the head before the body), or no single move leaves the split
    body (each body op alone would gather its neighbour's split)."""
    cost2 = _whole_cost((2,))
    g = Graph({"m": (2,)})
    x = _fixed(g, Sharding(()), (8, 12))
    out, arg = g.add_value((8, 12), 4), g.add_value((8, 12), 4)
    head = g.add_node(Node([x], [out, arg], carry=True))
    g.add_node(Node([arg], [], [State((("m", Sharding(())),), ())], weight=3))
    v = arg
    body = []
    for _ in range(3):
        nxt = g.add_value((8, 12), 4)
        body.append(g.add_node(Node([v], [nxt], rule=ShardingRule.elementwise(2), weight=3)))
        v = nxt
    g.add_operand(head, v, 3)
    g.add_node(Node([out], [], [State((("m", Sharding(((), (0,)))),), ())]))
    chosen = Solver(g, cost2).solve()
    assert all(g.nodes[b].states[chosen[b]].option == ((), ()) for b in body)
    assert bytes_moved(g, cost2, chosen) == 0


def test_a_late_operand_takes_no_layout_of_its_readers_state() -> None:
    """A node reading a value late (`add_operand`: a loop's yield handed
    back) has no layout for it in its given state: the state's layouts go
    to the operands and results it names, the late operand gets none (its
    layouts are its producer's)."""
    g = Graph({"m": MESH})
    rows, cols, both = Sharding(((0,),)), Sharding(((), (1,))), Sharding(((0,), (1,)))
    a, late = _fixed(g, rows), _fixed(g, both)
    out = g.add_value((8, 8), 4)
    reader = g.add_node(Node([a], [out], [State((("m", rows),), (("m", cols),))]))
    g.add_operand(reader, late)
    cands = _Candidates(g)
    cands.start()
    assert [cands.layouts[k] for k in cands.seen[late]] == [("m", both)]
    assert [cands.layouts[k] for k in cands.seen[out]] == [("m", cols)]


def test_ops_after_a_loop_follow_the_layout_its_head_settled_on() -> None:
    """A loop carrying a value that starts whole (free to slice) while its
    body combines it with rows split across the mesh; after the loop, an
    elementwise op, a broadcast to ten times the size and a sum over all
    but the new dimension (a one-hot histogram): the plan keeps the rows
    split to the end and reduces the partial sums once.  The first start
    fixes the head whole (nothing around it favours a layout), so the ops
    after the loop follow it; local improvement moves the head with its
    body, but moving the broadcast alone makes its reader gather ten times
    the bytes: only starting again from the head as improved finds it."""
    cost4 = _whole_cost((4,))
    g = Graph({"m": (4,)})
    x = _fixed(g, Sharding(((0,),)), (8, 16))
    z = g.add_value((8, 16), 4)  # (no producer: whole on every device)
    out, arg = g.add_value((8, 16), 4), g.add_value((8, 16), 4)
    head = g.add_node(Node([z], [out, arg], carry=True))
    y = g.add_value((8, 16), 4)
    g.add_node(Node([arg, x], [y], rule=ShardingRule.elementwise(2, 2), weight=3))
    g.add_operand(head, y, 3)
    clipped, wide, counts = g.add_value((8, 16), 4), g.add_value((8, 16, 10), 4), g.add_value((10,), 4)
    par, add = Iterator.parallel(), Iterator.reduction("sum")
    after = [
        g.add_node(Node([out], [clipped], rule=ShardingRule.elementwise(2))),
        g.add_node(Node([clipped], [wide], rule=ShardingRule((par, par, par), ((0, 1),), ((0, 1, 2),)))),
        g.add_node(Node([wide], [counts], rule=ShardingRule((add, add, par), ((0, 1, 2),), ((2,),)))),
    ]
    g.add_node(Node([counts], [], [State((("m", Sharding(())),), ())]))
    chosen = Solver(g, cost4).solve()
    assert [g.nodes[a].states[chosen[a]].option for a in after] == [((0,), ()), ((0,), (), ()), ((0,), (), ())]
    reduce_once = plan_resharding((10,), (4,), Sharding((), (0,), "sum"), Sharding(()), element_bytes=4)
    assert bytes_moved(g, cost4, chosen) == reduce_once.bytes_received == 64
