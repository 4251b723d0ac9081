"""Annotations survive upstream passes: partition re-derives an op's loop
sharding from the `mesh.shard` annotations around it when its
`mesh.sharding_option` is missing or stale (`transforms/partition/rederive.py`).

The rules alone first; then seeded random programs (the fuzzer's generator)
through sharding-propagation, a random loss of what upstream passes may
lose (options dropped or made stale, annotations bypassed), upstream's
`linalg-generalize-named-ops`, `linalg-fuse-elementwise-ops`, `canonicalize`
and `cse`, then mesh-partition: whatever partition accepts must compute the
original's results exactly (small integers, so float sums are exact), and it
must never ask for sharding-propagation again."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager
from test_sharding_propagation import _context

import mesh_dialect
from mesh_dialect.interfaces.rules import ShardingRule
from mesh_dialect.ir.syntax import encode_sharding_attr
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import MeshPartition, ShardingPropagation
from mesh_dialect.transforms.base import sharding_of
from mesh_dialect.transforms.partition.rederive import derive, recorded_option

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
import generate  # noqa: E402

S = Sharding
WHOLE = S(())

# -- the rules -----------------------------------------------------------------


def test_a_valid_recorded_option_is_used():
    rule = ShardingRule.matmul()
    option, why = recorded_option(encode_sharding_attr("@m", [[], [], [0]]), rule, "m", (2,))
    assert option == ((), (), (0,)) and why == ""
    # the result is unannotated: it takes the option's layout (its annotation was lost)
    d = derive(rule, "m", [None, None, None], [None], option, (2,))
    assert d.source == "option" and d.results == (S((), (0,), "sum"),)
    assert d.operands[0] == S(((), (0,))) and d.operands[1] == S(((0,),))


@pytest.mark.parametrize(
    "mesh, split, partial, reason",
    [
        ("@m", [[], [], [], [0]], [], "names 4 loops but the op has 3"),
        ("@other", [[0]], [], "on mesh @other"),
        ("@m", [[3]], [], "mesh axis 3 is out of range"),
        ("@m", [[0], [0]], [], "mesh axis 0 is used in loops 0 and 1"),
        ("@m", [[0]], [1], "split axes per loop only"),
    ],
)
def test_a_stale_recorded_option_says_why(mesh, split, partial, reason):
    text = encode_sharding_attr(mesh, split, partial)
    option, why = recorded_option(text, ShardingRule.matmul(), "m", (2, 2))
    assert option is None and reason in why, why
    assert recorded_option("#mesh.sharding<@m, [[0]]>", ShardingRule.matmul(), "m", (2,))[0] is None


def test_an_option_that_contradicts_an_annotated_result_is_stale():
    rule = ShardingRule.elementwise(2, 2)
    d = derive(rule, "m", [S(((0,),)), None], [S(((), (0,)))], ((0,), ()), (2,))
    assert d.source == "annotations" and "result 0" in d.stale
    assert d.option == ((), (0,))  # the annotated result wins; the operand is resharded


def test_operands_pick_the_reduction_loop_results_leave_open():
    # two sum loops: the partial result says one of them is split, the operand says which
    rule = ShardingRule(("parallel", "sum", "sum"), ((0, 1, 2),), ((0,),))
    d = derive(rule, "m", [S(((), (), (0,)))], [S((), (0,), "sum")], None, (2,))
    assert d.option == ((), (), (0,)) and d.operands[0] == S(((), (), (0,)))


def test_results_that_no_loop_sharding_gives_together_are_resharded_after():
    rule = ShardingRule.elementwise(1, 1, 2)
    d = derive(rule, "m", [None], [S(((0,),)), S(((1,),))], None, (2, 2))
    assert d.results[0] == S(((0,),)) and d.results[1] != S(((1,),))  # the first result wins


def test_unannotated_results_stay_whole_without_an_option():
    d = derive(ShardingRule.elementwise(1, 2), "m", [S(((0,),)), S(((0,),))], [None], None, (2,))
    assert d.option == ((),) and d.results == (WHOLE,)


# -- random programs through upstream passes ----------------------------------------

UPSTREAM = "func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops),canonicalize,cse"
SEEDS = range(20261124, 20261124 + 48)


def _program(seed: int) -> tuple[str, tuple[int, ...]] | None:
    """A generated program and its mesh's shape."""
    p = generate.Program(random.Random(seed))
    p.extended = False  # linalg, scf.for and scf.if: what the simulator runs
    text = p.build()
    # (upstream's passes run no program written partly per device)
    per_device = {"collective", "device index", "device branch"} & p.features
    return None if per_device else (text, tuple(p.mesh))


def _even(s: Sharding, shape: tuple[int, ...], mesh: tuple[int, ...]) -> bool:
    """Every split dimension cut into pieces of one size (the simulator
    cannot reduce over the empty pieces of a finer cut)."""
    return len(s.split_axes) <= len(shape) and all(
        shape[d] % math.prod(mesh[a] for a in axes) == 0 for d, axes in enumerate(s.split_axes)
    )


def _lose(module: ir.Operation, rng: random.Random, mesh: tuple[int, ...]) -> None:
    """What upstream passes may lose, none of which changes what the program
    computes: options dropped or replaced by stale ones, annotations for
    users bypassed (their users read the value they annotate), and, beyond
    what passes do, annotations given another layout of the function (so
    that results an op cannot produce together are resharded after it)."""
    shards: list[tuple[ir.Operation, list[ir.Value]]] = []  # with the layouts defined before it
    ruled: list[ir.Operation] = []
    layouts: list[ir.Value] = []  # mesh.sharding values of entry blocks: they dominate what follows

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.shard":
            shards.append((op, list(layouts)))
        elif op.name == "mesh.sharding" and op.parent.name == "func.func":
            layouts.append(op.result)
        elif "mesh.sharding_option" in op.attributes:
            ruled.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    with module.context:
        for op in ruled:
            r = rng.random()
            if r < 0.4:
                del op.attributes["mesh.sharding_option"]
            elif r < 0.7:
                loops = [[a] if rng.random() < 0.4 else [] for a in range(rng.randrange(1, 4))]
                rng.shuffle(loops)
                op.attributes["mesh.sharding_option"] = ir.Attribute.parse(encode_sharding_attr("@mesh", loops))
        for op, before in shards:
            r = rng.random()
            if r < 0.2 and "annotate_for_users" in op.attributes:
                op.result.replace_all_uses_with(op.operands[0])
                op.erase()
            elif r < 0.3:
                # another layout: what an annotation says never changes the results
                shape = tuple(ir.RankedTensorType(op.operands[0].type).shape)
                fitting = [v for v in before if _even(sharding_of(v)[1], shape, mesh)]
                if fitting:
                    op.operands[1] = rng.choice(fitting)


def _partitioned(text: str, mesh: tuple[int, ...], seed: int) -> tuple[ir.Operation | None, str]:
    rng = random.Random(seed)
    module = mesh_dialect.parse(text, context=_context())
    solver = rng.choice(["cost", "cost", "sweep"])
    with _context():
        pm = PassManager("builtin.module")
        ShardingPropagation(solver=solver).add_to(pm)
        try:
            pm.run(module)
        except ir.MLIRError as e:
            return None, str(e)
        _lose(module, rng, mesh)
        pm = PassManager.parse(f"builtin.module({UPSTREAM})")
        pm.run(module)
        pm = PassManager("builtin.module")
        MeshPartition().add_to(pm)
        try:
            pm.run(module)
        except ir.MLIRError as e:
            return None, str(e)
    mesh_dialect.verify(module)
    return module, ""


def _inputs(sim: Simulation, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    sig = sim.signature("f")
    out = []
    for t in sig.arg_types:
        st = ir.ShapedType(t)
        dtype = np.float32 if str(st.element_type) == "f32" else np.float64
        if str(st.element_type).startswith("i"):
            dtype = np.int32 if str(st.element_type) == "i32" else np.int64
        out.append(rng.integers(-3, 4, size=tuple(st.shape)).astype(dtype))
    return out


def test_random_programs_through_upstream_passes_compute_the_same():
    accepted = 0
    for seed in SEEDS:
        program = _program(seed)
        if program is None:
            continue
        text, mesh = program
        module, error = _partitioned(text, mesh, seed)
        assert "internal error" not in error, f"seed {seed}: {error}\n{text}"
        assert "sharding-propagation first" not in error, f"seed {seed}: {error}\n{text}"
        if module is None:
            continue
        original = Simulation(mesh_dialect.parse(text, context=_context()))
        args = _inputs(original, seed)
        expected = original.run("f", args)
        got = Simulation(module).run("f", args)
        accepted += 1
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e, err_msg=f"seed {seed}\n{text}")
    assert accepted >= len(SEEDS) * 3 // 4


def test_an_annotation_wider_than_its_tensor_is_a_located_error():
    """The verifier refuses such an annotation; a module built by hand and
    not verified still gets a diagnostic at the op, not a traceback."""
    text = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %y = math.exp %x : tensor<8xf32>
  %y0 = mesh.shard %y to %s : tensor<8xf32>
  return %y0 : tensor<8xf32>
}
"""
    module = mesh_dialect.parse(text, context=_context(), verify=False)
    with _context():
        pm = PassManager("builtin.module")
        MeshPartition().add_to(pm)
        with pytest.raises(ir.MLIRError) as e:
            pm.run(module)
    message = str(e.value)
    assert "internal error" not in message
    assert ":5:8: the layouts around 'math.exp' do not fit its sharding rule" in message
