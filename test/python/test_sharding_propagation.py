"""sharding-propagation from Python: the option search, the pass in a
caller's PassManager, and properties on random programs (consistent
annotations, idempotence, unchanged global results)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect import ShardingPropagation
from mesh_dialect.interfaces import ShardingRule, register_rule, rule_for
from mesh_dialect.interfaces.choice import Request, choose
from mesh_dialect.interfaces.rules import option_from_lists, shardings_from_option
from mesh_dialect.ir.syntax import decode_sharding_attr
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import OptionError

S = Sharding
ADD = ShardingRule.elementwise(2, num_operands=2)
MATMUL = ShardingRule.matmul()


def req(split, targets_op=False, explicit=True, partial=(), mesh="m"):
    return Request(mesh, S(split, partial), targets_op, explicit)


# -- the option search -------------------------------------------------------


def test_no_annotation_gives_no_choice():
    assert choose(ADD, [None, None], [[]]) is None


def test_a_choice_that_needs_no_resharding_wins():
    # operand 0 asks rows, operand 1 columns: they conflict together; the
    # first combination that keeps operand 0 reshards operand 1 only
    c = choose(ADD, [req([[0]]), req([[], [0]])], [[]])
    assert c.option == ((0,), ())
    assert c.operands == (S([[0]]), S([[0]])) and c.conflict is None


def test_an_annotation_targeting_the_op_beats_one_that_does_not():
    # dropping the producer's annotation (cost 1) beats resharding the
    # operand annotated for this op (cost 2)
    c = choose(ADD, [req([[0]]), req([[], [0]], targets_op=True)], [[]])
    assert c.option == ((), (0,))


def test_musts_that_conflict_are_ranked_results_first():
    c = choose(ADD, [req([[1]], targets_op=True), None], [[req([[0]], targets_op=True)]])
    assert c.option == ((0,), ())
    assert c.conflict is not None and (c.conflict.side, c.conflict.index) == ("operand", 0)


def test_explicit_annotations_outrank_inferred_ones_on_conflict():
    c = choose(ADD, [req([[1]], targets_op=True), None], [[req([[0]], targets_op=True, explicit=False)]])
    assert c.option == ((1,), ())


def test_a_result_partial_selects_the_reduction_loop():
    c = choose(MATMUL, [None, None], [[req([[0]], targets_op=True, partial=(1,))]])
    assert c.option == ((0,), (), (1,))
    assert c.operands == (S([[0], [1]]), S([[1]]))


def test_requests_on_another_mesh_lose():
    c = choose(ADD, [req([[0]], targets_op=True), req([[0]], targets_op=True, mesh="other")], [[]])
    assert c.mesh == "m" and c.conflict is not None and c.conflict.index == 1


# -- the pass from Python ----------------------------------------------------------

SOURCE = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %0 = "my.op"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""


def _run(text: str, **options) -> str:
    ctx = mesh_dialect.context()
    ctx.allow_unregistered_dialects = True
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        pm = PassManager("builtin.module")
        ShardingPropagation(**options).add_to(pm)
        pm.run(module)
    return mesh_dialect.print_ir(module)


def test_an_op_without_a_rule_fails_in_a_callers_pass_manager():
    with pytest.raises(ir.MLIRError) as info:
        _run(SOURCE)
    assert "no sharding rule for 'my.op' but its operand 0 is sharded" in str(info.value)


def test_a_registered_rule_lets_propagation_through():
    previous = register_rule("my.op", lambda op: ShardingRule.elementwise(2))
    try:
        text = _run(SOURCE)
    finally:
        register_rule("my.op", previous)
    assert '"my.op"(%2) {mesh.sharding_option = #mesh.sharding<@mesh, [[0]]>}' in text
    assert "tosa.tanh %4 {mesh.sharding_option = #mesh.sharding<@mesh, [[0]]>}" in text


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (lambda op: 1 // 0, "raised ZeroDivisionError: integer division or modulo by zero"),
        (lambda op: "rule", "returned a str, not a ShardingRule or None"),
        (lambda op: ShardingRule.elementwise(2, num_operands=2), "maps 2 operands, the op has 1"),
        (lambda op: ShardingRule(("parallel",), ((0,),), ((0,),)), "maps 1 dimensions of operand 0, which has rank 2"),
    ],
    ids=["raises", "not-a-rule", "operands", "rank"],
)
def test_a_registered_rule_that_fails_or_does_not_fit_its_op_is_an_error_at_the_op(rule, message):
    previous = register_rule("my.op", rule)
    try:
        with pytest.raises(ir.MLIRError) as info:
            _run(SOURCE)
    finally:
        register_rule("my.op", previous)
    (d,) = info.value.error_diagnostics
    assert d.message == f"the sharding rule registered for 'my.op' {message}"
    assert str(d.location) == 'loc("<string>":6:8)'


def test_skip_unknown_makes_the_op_a_barrier():
    text = _run(SOURCE, skip_unknown=True)
    assert '"my.op"(%1) : ' in text and "tosa.tanh %2 :" in text and "sharding_option" not in text


def test_options_are_checked():
    with pytest.raises(OptionError, match="must be one of forward, backward"):
        ShardingPropagation(traversal="sideways")
    with pytest.raises(OptionError, match="must be a bool"):
        ShardingPropagation(explain="yes")


def test_func_return_and_call_constrain_nothing():
    ctx = mesh_dialect.context()
    text = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { return %a : tensor<4xf32> }"
    module = mesh_dialect.parse(text, context=ctx)
    ret = module.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations[0]
    rule = rule_for(ret)
    assert rule.num_loops == 0 and rule.operand_maps == (None,)


# -- random programs ---------------------------------------------------------------

MESHES = [(2,), (4,), (2, 2), (2, 1, 2)]


def draw_sharding(draw, mesh_rank: int, tensor_rank: int = 2, partial: bool = False) -> str:
    """The split axes (and maybe a sum partial) of a random layout, as text."""
    axes = list(range(mesh_rank))
    split = []
    for _ in range(tensor_rank):
        pick = draw(st.lists(st.sampled_from(axes), max_size=2, unique=True)) if axes else []
        axes = [a for a in axes if a not in pick]
        split.append(pick)
    text = "[" + ", ".join(str(s) for s in split) + "]"
    if partial and axes and draw(st.booleans()):
        text += f" partial = sum [{draw(st.sampled_from(axes))}]"
    return text


@st.composite
def programs(draw):
    """A chain of matmuls and elementwise ops on 4x4 tensors with random
    annotations on arguments and results."""
    mesh = draw(st.sampled_from(MESHES))
    rank = len(mesh)

    def sharding(tensor_rank: int = 2, partial: bool = False) -> str:
        return draw_sharding(draw, rank, tensor_rank, partial)

    n = draw(st.integers(1, 5))
    lines = []
    args = ["%x: tensor<4x4xf32>"]
    cur = "%x"
    if draw(st.booleans()):
        lines.append(f"  %sx = mesh.sharding @mesh split_axes = {sharding()} : !mesh.sharding")
        lines.append("  %xa = mesh.shard %x to %sx : tensor<4x4xf32>")
        cur = "%xa"
    for i in range(n):
        kind = draw(st.sampled_from(["matmul", "add", "mul", "tanh"]))
        if kind != "tanh":
            args.append(f"%w{i}: tensor<4x4xf32>")
        if kind == "matmul":
            lines.append(f"  %e{i} = tensor.empty() : tensor<4x4xf32>")
            lines.append(f"  %c{i} = arith.constant 0.0 : f32")
            lines.append(f"  %z{i} = linalg.fill ins(%c{i} : f32) outs(%e{i} : tensor<4x4xf32>) -> tensor<4x4xf32>")
            lines.append(
                f"  %v{i} = linalg.matmul ins({cur}, %w{i} : tensor<4x4xf32>, tensor<4x4xf32>) "
                f"outs(%z{i} : tensor<4x4xf32>) -> tensor<4x4xf32>"
            )
        elif kind == "tanh":
            lines.append(f"  %v{i} = tosa.tanh {cur} : (tensor<4x4xf32>) -> tensor<4x4xf32>")
        else:
            shift = ", %shift" if kind == "mul" else ""
            types = ", tensor<1xi8>" if kind == "mul" else ""
            signature = f"(tensor<4x4xf32>, tensor<4x4xf32>{types}) -> tensor<4x4xf32>"
            lines.append(f"  %v{i} = tosa.{kind} {cur}, %w{i}{shift} : {signature}")
        cur = f"%v{i}"
        if draw(st.integers(0, 2)) == 0:
            lines.append(
                f"  %s{i} = mesh.sharding @mesh split_axes = {sharding(partial=kind == 'matmul')} : !mesh.sharding"
            )
            lines.append(f"  %a{i} = mesh.shard {cur} to %s{i} : tensor<4x4xf32>")
            cur = f"%a{i}"
    head = [f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})"]
    body = ['  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>', *lines]
    body.append(f"  return {cur} : tensor<4x4xf32>")
    return "\n".join([*head, f"func.func @f({', '.join(args)}) -> tensor<4x4xf32> {{", *body, "}"]) + "\n"


@functools.cache
def _context():
    ctx = mesh_dialect.context()
    return ctx


def _propagate(text: str) -> tuple[ir.Operation, str]:
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
        ShardingPropagation().add_to(pm)
        pm.run(module)
    mesh_dialect.verify(module)
    return module, mesh_dialect.print_ir(module)


def _seen(value: ir.Value) -> Sharding | None:
    owner = value.owner
    if not isinstance(owner, ir.OpView) or owner.operation.name != "mesh.shard":
        return None
    view = owner.operation.operands[1].owner
    return S(view.split_axes, view.partial_axes, view.partial_type or "sum")


def _check_consistent(module: ir.Operation) -> int:
    """Every op with a recorded option sees and produces exactly the layouts
    its option implies; returns how many ops were checked."""
    checked = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal checked
        if "mesh.sharding_option" not in op.attributes:
            return ir.WalkResult.ADVANCE
        rule = rule_for(op)
        _, split, *_ = decode_sharding_attr(str(op.attributes["mesh.sharding_option"]))
        operands, results = shardings_from_option(rule, option_from_lists(split, rule.num_loops))
        for v, need in zip(op.operands, operands):
            if need is not None:
                # an operand with no annotation is whole (partition's reading)
                seen = _seen(v) or S(())
                assert seen == need, f"{op.name} operand sees {seen}, needs {need}"
        for r, need in zip(op.results, results):
            users = [u.owner for u in r.uses]
            assert len(users) == 1 and users[0].name == "mesh.shard", f"{op.name} result is not annotated once"
            assert _seen(users[0].result) == need
        checked += 1
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return checked


@settings(max_examples=60, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_programs_propagate_consistently_idempotently_and_keep_their_meaning(text, seed):
    module, once = _propagate(text)
    if "mesh.shard" in text:
        assert _check_consistent(module) > 0
    _, twice = _propagate(once)
    assert twice == once
    rng = np.random.default_rng(seed)
    args = [rng.integers(-3, 4, size=(4, 4)).astype(np.float32) for _ in range(text.count("tensor<4x4xf32>,") + 1)]
    sig = Simulation(mesh_dialect.parse(text, context=_context())).signature("f")
    args = args[: len(sig.arg_types)]
    before = Simulation(mesh_dialect.parse(text, context=_context())).run("f", args)
    after = Simulation(module).run("f", args)
    np.testing.assert_array_equal(before[0], after[0])


def test_an_annotation_naming_an_axis_the_mesh_lacks_is_an_error_even_unverified():
    """A module parsed without verification reaches the pass as it is: an
    axis out of the mesh's range is reported at the annotation instead of
    spreading to every value."""
    text = SOURCE.replace('  %0 = "my.op"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32>\n', "").replace(
        "tosa.tanh %0", "tosa.tanh %a0"
    )
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text.replace("[[0]]", "[[3]]"), context=ctx, verify=False)
    with ctx, pytest.raises(ir.MLIRError) as info:
        pm = PassManager("builtin.module")
        ShardingPropagation().add_to(pm)
        pm.run(module)
    (d,) = info.value.error_diagnostics
    assert d.message == "mesh axis 3 is out of range for mesh @mesh of rank 1"
    assert str(d.location) == 'loc("<string>":5:9)'


# -- many hard plans ---------------------------------------------------------

# The fuzzer's hang (seed 28600): a mesh of seven axes, on which each of the
# 422 reshards the solver prices spent the planner's whole exact budget.
MANY_AXES = """
mesh.mesh @mesh(shape = 4x2x4x3x2x3x2)
func.func @f(%arg0: tensor<6x12xf16>, %arg1: tensor<12x8xf16>,
    %arg2: tensor<12x4xf16>, %arg3: tensor<6x8xf16>, %arg4: tensor<8x12xf16>)
    -> (tensor<6x8xf16>) {
  %e1 = tensor.empty() : tensor<6x8xf16>
  %c2 = arith.constant 0.0 : f16
  %f3 = linalg.fill ins(%c2 : f16) outs(%e1 : tensor<6x8xf16>) -> tensor<6x8xf16>
  %v4 = linalg.matmul ins(%arg0, %arg1 : tensor<6x12xf16>, tensor<12x8xf16>)
      outs(%f3 : tensor<6x8xf16>) -> tensor<6x8xf16>
  %s5 = mesh.sharding @mesh split_axes = [[], [0]] partial = sum [1] : !mesh.sharding
  %a6 = mesh.shard %v4 to %s5 : tensor<6x8xf16>
  %i7 = arith.constant 0 : index
  %i8 = arith.constant 1 : index
  %r9 = scf.for %iv10 = %i7 to %i8 step %i8 iter_args(%acc11 = %arg0) -> (tensor<6x12xf16>) {
    %r12 = scf.for %iv13 = %i7 to %i8 step %i8 iter_args(%acc14 = %arg1) -> (tensor<12x8xf16>) {
      %s15 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
      %a16 = mesh.shard %arg0 to %s15 annotate_for_users : tensor<6x12xf16>
      %e17 = tensor.empty() : tensor<6x4xf16>
      %f18 = linalg.fill ins(%c2 : f16) outs(%e17 : tensor<6x4xf16>) -> tensor<6x4xf16>
      %s19 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
      %a20 = mesh.shard %f18 to %s19 : tensor<6x4xf16>
      %v21 = linalg.matmul ins(%a16, %arg2 : tensor<6x12xf16>, tensor<12x4xf16>)
          outs(%a20 : tensor<6x4xf16>) -> tensor<6x4xf16>
      %a22 = mesh.shard %v21 to %s19 : tensor<6x4xf16>
      %v23 = arith.addf %a6, %arg3 : tensor<6x8xf16>
      %s24 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
      %a25 = mesh.shard %v23 to %s24 : tensor<6x8xf16>
      %v26 = arith.addf %arg1, %acc14 : tensor<12x8xf16>
      scf.yield %v26 : tensor<12x8xf16>
    }
    %s27 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %a28 = mesh.shard %r12 to %s27 : tensor<12x8xf16>
    %s29 = mesh.sharding @mesh split_axes = [[], [1]] partial = average [0] : !mesh.sharding
    %a30 = mesh.shard %a28 to %s29 : tensor<12x8xf16>
    %i31 = arith.constant 3 : index
    %r32 = scf.for %iv33 = %i7 to %i31 step %i8 iter_args(%acc34 = %a30) -> (tensor<12x8xf16>) {
      %s35 = mesh.sharding @mesh split_axes = [[2]] : !mesh.sharding
      %a36 = mesh.shard %a6 to %s35 annotate_for_users : tensor<6x8xf16>
      %e38 = tensor.empty() : tensor<6x8xf16>
      %v37 = linalg.mul ins(%a6, %a36 : tensor<6x8xf16>, tensor<6x8xf16>)
          outs(%e38 : tensor<6x8xf16>) -> tensor<6x8xf16>
      %s39 = mesh.sharding @mesh split_axes = [[], [1]] partial = sum [0] : !mesh.sharding
      %a40 = mesh.shard %v37 to %s39 : tensor<6x8xf16>
      %s41 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
      %a42 = mesh.shard %v37 to %s41 annotate_for_users : tensor<6x8xf16>
      %e43 = tensor.empty() : tensor<6x12xf16>
      %f44 = linalg.fill ins(%c2 : f16) outs(%e43 : tensor<6x12xf16>) -> tensor<6x12xf16>
      %s45 = mesh.sharding @mesh split_axes = [[1]] partial = sum [0] : !mesh.sharding
      %a46 = mesh.shard %f44 to %s45 : tensor<6x12xf16>
      %v47 = linalg.matmul ins(%a42, %arg4 : tensor<6x8xf16>, tensor<8x12xf16>)
          outs(%a46 : tensor<6x12xf16>) -> tensor<6x12xf16>
      %v48 = arith.addf %r12, %acc34 : tensor<12x8xf16>
      scf.yield %v48 : tensor<12x8xf16>
    }
    %s49 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
    %a50 = mesh.shard %r32 to %s49 : tensor<12x8xf16>
    %v51 = arith.addf %acc11, %acc11 : tensor<6x12xf16>
    %s52 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
    %a53 = mesh.shard %v51 to %s52 : tensor<6x12xf16>
    %s54 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %a55 = mesh.shard %a53 to %s54 annotate_for_users : tensor<6x12xf16>
    scf.yield %a55 : tensor<6x12xf16>
  }
  %e57 = tensor.empty() : tensor<6x8xf16>
  %v56 = linalg.max ins(%v4, %a6 : tensor<6x8xf16>, tensor<6x8xf16>) outs(%e57 : tensor<6x8xf16>) -> tensor<6x8xf16>
  %s58 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %a59 = mesh.shard %v56 to %s58 : tensor<6x8xf16>
  %a60 = mesh.shard %a59 to %s58 annotate_for_users : tensor<6x8xf16>
  return %a60 : tensor<6x8xf16>
}
"""


def test_the_plans_of_one_pass_share_a_search_allowance(monkeypatch):
    from mesh_dialect.sharding import resharding as rs

    plan, seen = rs.plan_resharding, []

    def counted(*args, **kwargs):
        allowance = kwargs["allowance"]
        seen.append((allowance, allowance.left))
        return plan(*args, **kwargs)

    monkeypatch.setattr(rs, "plan_resharding", counted)
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(MANY_AXES, context=ctx)
    mesh_dialect.pass_manager("builtin.module(sharding-propagation)", context=ctx).run(module.operation)
    module.operation.verify()
    allowances = {id(a): a for a, _ in seen}
    assert len(allowances) == 1 and len(seen) > 400
    (allowance,) = allowances.values()
    first = rs.SearchAllowance()
    # the whole allowance, then at most `after` (and one batch of moves) a plan
    assert first.left - allowance.left < first.left + len(seen) * (first.after + 5_000)
    assert allowance.left < 0  # (spent: the program is as hard as it looks)
