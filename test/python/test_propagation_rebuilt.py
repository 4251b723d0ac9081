"""The cost solver prices a chain of annotations on a fill, an empty or a
splat constant as mesh-partition runs it: a change of layout that partition
makes by building the value again (`_rebuilt_in`) costs nothing, any other
what the planner says.  Each program below is propagated and partitioned,
its partitioned run is checked against the original, and the bytes the
solver priced for its plan are the bytes the run moved (`count_traffic`)."""

from __future__ import annotations

import io
import os
import tempfile

import pytest
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.driver.run import RunDriver, RunOptions
from mesh_dialect.sim.collectives import count_traffic
from mesh_dialect.transforms import MeshPartition, ShardingPropagation
from mesh_dialect.transforms.propagation import solver

ROWS, COLS, WHOLE = "[[0]]", "[[], [0]]", "[[]]"
PARTIAL = "[[]] partial = sum [0]"
HALO = "[[0]] halo_sizes = [1, 1]"
GENERIC = (
    "linalg.generic {{indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], "
    'iterator_types = ["parallel", "parallel"]}} ins(%c : f32) outs({init} : {t}){attrs} {{\n'
    "  ^bb0(%q: f32, %o: f32):\n    linalg.yield %q : f32\n  }} -> {t}"
)


def _program(mesh: str, shape: tuple[int, int], root: str, chain: list[tuple[str, bool]], init=()) -> str:
    """`root` (a fill of an empty, of a splat or of an argument, a generic
    fill or a splat) annotated link by link (layout, for users); the fill's
    init annotated by `init` first.  The last link's value is returned.  A
    fill whose first link is its own annotation runs as that layout says
    (an explicit option; a splat alike): otherwise the solver may make it
    whole, and the links after read it so (nothing moves, whatever they are)."""
    t = f"tensor<{shape[0]}x{shape[1]}xf32>"
    lines = [f"mesh.mesh @m(shape = {mesh})", f"func.func @f(%y: {t}) -> {t} {{", "  %c = arith.constant 1.0 : f32"]
    n = 0

    def annotate(v: str, layout: str, for_users: bool) -> str:
        nonlocal n
        n += 1
        lines.append(f"  %s{n} = mesh.sharding @m split_axes = {layout} : !mesh.sharding")
        lines.append(f"  %a{n} = mesh.shard {v} to %s{n}{' annotate_for_users' if for_users else ''} : {t}")
        return f"%a{n}"

    first, for_users = chain[0]
    loops = first[: first.index("]]") + 2]  # the split axes: the loops of a fill are its dimensions
    option = "" if for_users else f"{{mesh.sharding_option = #mesh.sharding<@m, {loops}>}}"
    if root == "splat":
        lines.append(f"  %v = arith.constant {option} dense<0.5> : {t}")
    else:
        made = {"fill_of_splat": f"arith.constant dense<3.0> : {t}", "fill_of_argument": None}
        lines.append(f"  %e = {made.get(root) or f'tensor.empty() : {t}'}")
        v = "%y" if root == "fill_of_argument" else "%e"
        for layout, for_users in init:
            v = annotate(v, layout, for_users)
        if root == "generic":
            lines.append(f"  %v = {GENERIC.format(init=v, t=t, attrs=f' attrs = {option}' if option else '')}")
        else:
            lines.append(f"  %v = linalg.fill {option} ins(%c : f32) outs({v} : {t}) -> {t}")
    v = "%v"
    for layout, for_users in chain:
        v = annotate(v, layout, for_users)
    lines += [f"  return {v} : {t}", "}"]
    return "\n".join(lines)


# (name, mesh, shape, root, chain, init, whether partition moves nothing)
CASES = [
    ("split_to_whole", "4", (16, 16), "fill", [(ROWS, False), (WHOLE, True)], (), True),
    ("for_users_chain", "4", (16, 16), "fill", [(ROWS, True), (COLS, True), (WHOLE, True)], (), True),
    ("result_then_chain", "4", (16, 16), "fill", [(COLS, False), (ROWS, True), (WHOLE, True)], (), True),
    ("halo", "4", (16, 16), "fill", [(HALO, False), (COLS, True)], (), True),
    ("uneven", "4", (10, 16), "fill", [(ROWS, False), (WHOLE, True)], (), False),
    ("uneven_then_even", "4", (10, 16), "fill", [(ROWS, False), (COLS, True), (WHOLE, True)], (), False),
    ("whole_then_uneven", "4", (10, 16), "fill", [(ROWS, True), (WHOLE, True)], (), False),
    ("to_partial", "4", (16, 16), "fill", [(ROWS, False), (PARTIAL, True), (WHOLE, True)], (), False),
    ("split_2d", "2x2", (16, 16), "fill", [("[[0, 1]]", False), ("[[1], [0]]", True), (WHOLE, True)], (), True),
    ("generic", "4", (16, 16), "generic", [(ROWS, False), (WHOLE, True)], (), True),
    ("splat", "4", (16, 16), "splat", [(ROWS, False), (COLS, True), (WHOLE, True)], (), True),
    ("uneven_splat", "4", (10, 16), "splat", [(ROWS, False), (WHOLE, True)], (), False),
    ("fill_of_splat", "4", (16, 16), "fill_of_splat", [(ROWS, False), (WHOLE, True)], (), False),
    ("fill_of_argument", "4", (16, 16), "fill_of_argument", [(ROWS, False), (WHOLE, True)], (), False),
    ("init_split", "4", (16, 16), "fill", [(COLS, False), (WHOLE, True)], [(ROWS, True)], True),
    ("init_uneven", "4", (10, 16), "fill", [(COLS, False), (WHOLE, True)], [(ROWS, True)], False),
    ("init_partial", "4", (16, 16), "fill", [(ROWS, False), (WHOLE, True)], [(PARTIAL, True)], False),
]


def _run(text: str) -> tuple[int, int, str]:
    """(bytes the solver priced for its plan, bytes the partitioned run
    moved per device at most, the simulator's verdict)."""
    priced: list[int] = []
    solve = solver.Solver.solve

    def spy(self):
        choice = solve(self)
        priced.append(solver.bytes_moved(self.g, self.cost, choice))
        return choice

    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    pm = PassManager("builtin.module", context=ctx)
    ShardingPropagation().add_to(pm)
    MeshPartition().add_to(pm)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver.Solver, "solve", spy)
        with ctx:
            pm.run(module.operation)
    with tempfile.TemporaryDirectory() as tmp:
        ref, got = os.path.join(tmp, "ref.mlir"), os.path.join(tmp, "got.mlir")
        for path, body in ((ref, text), (got, mesh_dialect.print_ir(module))):
            with open(path, "w") as f:
                f.write(body)
        out, err = io.StringIO(), io.StringIO()
        with count_traffic() as counted:
            code = RunDriver(RunOptions(input=got, compare_with=ref, quiet=True, seed=1), out, err).run()
    return sum(priced), max(counted.values(), default=0), "match" if code == 0 else out.getvalue() + err.getvalue()


@pytest.mark.parametrize(
    ("mesh", "shape", "root", "chain", "init", "free"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_chain_is_priced_as_partition_moves_it(mesh, shape, root, chain, init, free) -> None:
    priced, moved, verdict = _run(_program(mesh, shape, root, chain, init))
    assert verdict == "match"
    assert priced == moved
    assert (moved == 0) == free
