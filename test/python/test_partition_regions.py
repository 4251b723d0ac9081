"""Values carried through regions, proven by execution: random scf.for and
scf.if programs with random annotations (partial ones included) on the
init, the block argument, the body, the yielded value and the result are
partitioned (alone, or after propagation in a random traversal, with or
without a fixed point).  Partition may refuse with a diagnostic (never an internal
error); whatever it accepts must verify and compute the original's results exactly (small
integers, so sums are exact)."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager
from test_sharding_propagation import _context, draw_sharding

import mesh_dialect
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import MeshPartition, ShardingPropagation

MESHES = [(2,), (4,), (2, 2)]
T = "tensor<4x4xf32>"


@st.composite
def region_programs(draw) -> str:
    mesh = draw(st.sampled_from(MESHES))
    rank = len(mesh)
    shardings: list[str] = []

    def annotate(value: str, name: str, *, for_users: bool = False, partial: bool = False) -> str:
        """Maybe annotate `value`; returns the name to use from then on."""
        if not draw(st.booleans()):
            return value
        text = draw_sharding(draw, rank, 2, partial)
        k = len(shardings)
        shardings.append(f"  %s{k} = mesh.sharding @mesh split_axes = {text} : !mesh.sharding")
        suffix = " annotate_for_users" if for_users else ""
        body.append(f"  %{name} = mesh.shard {value} to %s{k}{suffix} : {T}")
        return f"%{name}"

    body: list[str] = []
    a = annotate("%a", "a1")
    b = annotate("%b", "b1")
    init = annotate("%init", "init1", for_users=draw(st.booleans()))
    if draw(st.booleans()):
        head = f"  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = {init}) -> ({T}) {{"
        body.append(head)
        acc = annotate("%acc", "acc1")
        body.append(f"  %m = linalg.matmul ins({a}, {b} : {T}, {T}) outs({acc} : {T}) -> {T}")
        m = annotate("%m", "m1", partial=True)
        if draw(st.booleans()):
            body.append(f"  %e = arith.addf {m}, {m} : {T}")
            m = annotate("%e", "e1", partial=False)
        y = annotate(m, "y1", for_users=True)
        body.append(f"  scf.yield {y} : {T}")
        body.append("  }")
    else:
        body.append(f"  %r = scf.if %p -> ({T}) {{")
        body.append(f"  %z = tensor.empty() : {T}")
        body.append(f"  %f = linalg.fill ins(%zero : f32) outs(%z : {T}) -> {T}")
        body.append(f"  %m = linalg.matmul ins({a}, {b} : {T}, {T}) outs(%f : {T}) -> {T}")
        m = annotate("%m", "m1", partial=True)
        y = annotate(m, "y1", for_users=True)
        body.append(f"  scf.yield {y} : {T}")
        body.append("  } else {")
        other = annotate(init, "o1", for_users=True)
        body.append(f"  scf.yield {other} : {T}")
        body.append("  }")
    r = annotate("%r", "r1", partial=True)
    body.append(f"  %q = arith.mulf {r}, {r} : {T}")
    q = annotate("%q", "q1", for_users=draw(st.booleans()))
    body.append(f"  return {q} : {T}")
    p = "true" if draw(st.booleans()) else "false"
    consts = [
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c2 = arith.constant 2 : index",
        f"  %p = arith.constant {p}",
        "  %zero = arith.constant 0.0 : f32",
    ]
    lines = [
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})",
        f"func.func @f(%a: {T}, %b: {T}, %init: {T}) -> {T} {{",
        *consts,
        *shardings,
        *body,
        "}",
    ]
    return "\n".join(lines) + "\n"


def _run_passes(text: str, passes) -> ir.Operation | None:
    """The module after `passes`, or None when a pass refused it with a
    diagnostic (never an internal error)."""
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
        for p in passes:
            p.add_to(pm)
        try:
            pm.run(module)
        except ir.MLIRError as e:
            assert "internal error" not in str(e), str(e)
            return None
    mesh_dialect.verify(module)
    return module


@settings(max_examples=150, deadline=None)
@given(
    region_programs(),
    st.integers(0, 2**31 - 1),
    st.sampled_from(["none", "cost", "forward", "backward", "forward-backward", "backward-forward"]),
    st.booleans(),
)
def test_region_carried_values_partition_to_the_same_results(text, seed, traversal, fixed_point):
    if traversal == "none":
        passes = []
    elif traversal == "cost":
        passes = [ShardingPropagation()]
    else:
        passes = [ShardingPropagation(solver="sweep", traversal=traversal, fixed_point=fixed_point)]
    module = _run_passes(text, [*passes, MeshPartition()])
    # A refusal is fine, but a generator whose programs are mostly refused
    # would make this vacuous: hypothesis fails its health check then.
    assume(module is not None)
    rng = np.random.default_rng(seed)
    args = [rng.integers(-3, 4, size=(4, 4)).astype(np.float32) for _ in range(3)]
    expected = Simulation(mesh_dialect.parse(text, context=_context())).run("f", args)
    got = Simulation(module).run("f", args)
    np.testing.assert_array_equal(got[0], expected[0])
