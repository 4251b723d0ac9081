"""`mesh-analysis` and `mesh_dialect.analysis.analyze`: flops and memory on
small programs counted by hand, the bytes received against what the
simulator counts when it runs the program (`sim.collectives.count_traffic`:
the lit programs under test/Sim, random reshards of pieces of any size and
the fuzzer's random programs) and against the resharding planner, and the
pass itself (formats, file output, IR unchanged, errors)."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir.passmanager import PassManager
from reshard_programs import reshard_program
from strategies import draw_layout, draw_mesh

import mesh_dialect
from mesh_dialect.analysis import AnalysisError, AnalysisReport, FunctionReport, analyze, partitioned_copy
from mesh_dialect.interfaces import register_rule
from mesh_dialect.ir.diagnostics import DiagnosticError
from mesh_dialect.sharding.resharding import plan_resharding
from mesh_dialect.sim.api import Simulation, random_inputs
from mesh_dialect.sim.collectives import count_traffic
from mesh_dialect.transforms import MeshAnalysis, MeshPartition

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "test" / "fuzz"))

import generate  # noqa: E402


def _parse(text: str):
    return mesh_dialect.parse(text, context=mesh_dialect.context(), filename="t.mlir")


def _report(text: str) -> AnalysisReport:
    return analyze(_parse(text))


def _only(text: str) -> FunctionReport:
    (f,) = _report(text).functions
    return f


# ---------------------------------------------------------------------------
# Flops and memory, by hand


def test_matmul_flops_memory_and_zero_flop_ops():
    # linalg.matmul 4x8 by 8x2: 2*4*2*8 = 128; the fill and the transpose
    # compute nothing; the elementwise add 4*2 = 8.
    f = _only("""
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  %s = arith.addf %m, %m : tensor<4x2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %t = linalg.transpose ins(%s : tensor<4x2xf32>) outs(%e2 : tensor<2x4xf32>) permutation = [1, 0]
  return %t : tensor<2x4xf32>
}""")
    assert f.mesh is None and f.mesh_shape == ()
    (d,) = f.devices
    assert d.device == ()
    assert d.flops == 128 + 8
    assert d.redundant_flops == 0
    assert d.bytes_received == 0 and d.collectives == {}
    # At the matmul: a (128), b (64), the fill (32) and the result (32); the
    # empties hold nothing.
    assert d.peak_memory == 128 + 64 + 32 + 32


def test_every_block_of_a_function_with_branches_is_counted():
    """The blocks after the entry count too (they were left out): a straight
    chain of blocks once each, exactly; a loop of branches once, said so."""
    straight = _only("""
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> tensor<8xf32> {
  cf.br ^bb2
^bb1(%g: tensor<8xf32>):
  %s = arith.addf %g, %g : tensor<8xf32>
  return %s : tensor<8xf32>
^bb2:
  %h = mesh.all_gather %x on @m mesh_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  cf.br ^bb1(%h : tensor<8xf32>)
}""")
    for d in straight.devices:
        assert (d.collectives, d.bytes_received, d.flops) == ({"all_gather": 1}, 16, 8)
    assert straight.notes == ["t.mlir:3:1: @f has 3 blocks joined by branches: each block is counted once"]
    looped = _only("""
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %x : index, tensor<4xf32>)
^bb1(%i: index, %v: tensor<4xf32>):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  %w = mesh.all_reduce %v on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %j = arith.addi %i, %c1 : index
  cf.br ^bb1(%j, %w : index, tensor<4xf32>)
^bb3:
  return %v : tensor<4xf32>
}""")
    for d in looped.devices:
        assert (d.collectives, d.bytes_received) == ({"all_reduce": 1}, 16)
    assert looped.notes == ["t.mlir:3:1: @f has 4 blocks joined by a loop of branches: each block is counted once"]


def test_memory_frees_values_after_their_last_use():
    # x (64 bytes) dies at %1; each step holds its operand and its result:
    # x + %0 = 128, then %0 + %1 = 128 as %0 dies, then %1 + %2 ... never more.
    f = _only("""
func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = arith.addf %x, %x : tensor<16xf32>
  %1 = arith.mulf %0, %0 : tensor<16xf32>
  %2 = arith.subf %1, %1 : tensor<16xf32>
  return %2 : tensor<16xf32>
}""")
    assert f.devices[0].peak_memory == 128
    assert f.devices[0].flops == 48
    # A value used inside a loop lives until the loop ends.
    g = _only("""
func.func @f(%x: tensor<16xf32>, %y: tensor<4xf64>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%a = %x) -> (tensor<16xf32>) {
    %b = arith.addf %a, %x : tensor<16xf32>
    scf.yield %b : tensor<16xf32>
  }
  %d = arith.addf %y, %y : tensor<4xf64>
  return %r : tensor<16xf32>
}""")
    # x, y and %b inside the loop (64 + 32 + 64); the loop's 5 adds of 16
    # and the add of 4.
    assert g.devices[0].peak_memory == 64 + 32 + 64
    assert g.devices[0].flops == 5 * 16 + 4


def test_tosa_and_hlo_flops():
    f = _only("""
func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>, %x: tensor<1x6x6x2xf32>, %w: tensor<5x3x3x2xf32>,
             %bias: tensor<5xf32>, %w2: tensor<8x16xf32>) -> tensor<2x4x3xf32> {
  %az = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %az, %az : (tensor<2x4x8xf32>, tensor<2x8x3xf32>, tensor<1xf32>, tensor<1xf32>)
         -> tensor<2x4x3xf32>
  %c = tosa.conv2d %x, %w, %bias, %az, %az {acc_type = f32, dilation = array<i64: 1, 1>,
         pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
         : (tensor<1x6x6x2xf32>, tensor<5x3x3x2xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>)
         -> tensor<1x4x4x5xf32>
  %p = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
         : (tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32>
  %r = tosa.reduce_sum %a {axis = 2 : i32} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %e = tosa.exp %a : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %h = "stablehlo.dot_general"(%a, %w2) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2],
         rhs_contracting_dimensions = [0]>} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %t = "stablehlo.tanh"(%h) : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %m : tensor<2x4x3xf32>
}""")
    matmul = 2 * (2 * 4 * 3) * 8
    conv = 2 * (4 * 4 * 5) * (3 * 3 * 2)
    pool = (3 * 3 * 2) * (2 * 2)
    reduce = 2 * 4 * 8
    exp = 2 * 4 * 8
    dot = 2 * (2 * 4 * 16) * 8
    tanh = 2 * 4 * 16
    assert f.devices[0].flops == matmul + conv + pool + reduce + exp + dot + tanh


SPMD_REPLICATED = """
mesh.mesh @mesh(shape = 2x3)
func.func @f(%x: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
             %w: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>})
    -> (tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], partial = sum [1]>}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %i = mesh.process_multi_index on @mesh axes = [1] : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %first -> (tensor<4x8xf32>) {
    scf.yield %y : tensor<4x8xf32>
  } else {
    %z = arith.subf %y, %y : tensor<4x8xf32>
    scf.yield %z : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}"""


def test_redundant_flops_are_the_work_repeated_along_replica_axes():
    # The matmul (2*4*8*8 = 512) is the same on the 3 devices along axis 1:
    # 2 of them repeat it, in each of the 2 rows. Devices off coordinate 0
    # of axis 1 take the else branch (32 flops), where the result differs
    # from axis-1 coordinate to coordinate: still the same work on [.., 1]
    # and [.., 2], which compute the same value.
    f = _only(SPMD_REPLICATED)
    by = {d.device: d for d in f.devices}
    assert by[(0, 0)].flops == 512 and by[(0, 0)].redundant_flops == 0
    assert by[(1, 0)].flops == 512 and by[(1, 0)].redundant_flops == 0
    for d in ((0, 1), (0, 2), (1, 1), (1, 2)):
        assert by[d].flops == 512 + 32
        # The subtraction reads a value that does not vary along axis 1
        # either (the branch condition does, but the value does not).
        assert by[d].redundant_flops == 512 + 32
    assert f.redundant_flops == 4 * (512 + 32)
    assert not f.notes


# ---------------------------------------------------------------------------
# Bytes against the simulator


def _simulated(program, name: str, seed: int = 1) -> dict[tuple[int, ...], int] | None:
    """Bytes each device receives when the simulator runs @name on random
    inputs; None when it cannot run it (dynamic sizes, a dynamic mesh)."""
    try:
        sim = Simulation(program)
        sig = sim.signature(name)
        if not sig.spmd:
            return None
        mesh = sim.runner(sig.mesh).mesh
        inputs = random_inputs(sig, mesh, seed)
        with count_traffic() as counted:
            sim.run(name, inputs, seed=seed)
    except Exception:  # noqa: BLE001 - what the simulator refuses is not compared
        return None
    return counted


def _check_against_simulator(text: str) -> int:
    """Compare every function the simulator runs; the number compared."""
    module = _parse(text)
    before = str(module)
    report = analyze(module)
    assert str(module) == before
    program, _ = partitioned_copy(module.operation)
    compared = 0
    for f in report.functions:
        counted = _simulated(program, f.name)
        if counted is None:
            continue
        got = {d.device: d.bytes_received for d in f.devices}
        want = {d.device: counted.get(d.device, 0) for d in f.devices}
        if any("counted once" in note and ("while" in note or "loop of branches" in note) for note in f.notes):
            continue  # a loop's trips depend on the inputs: counted once, neither a bound nor a run
        if any("calls are not followed" in note for note in f.notes):
            continue  # a callee's collectives are not counted (README: mesh-analysis does not follow calls)
        if f.notes:  # counted conservatively: never less than a run
            assert all(got[d] >= want[d] for d in got), (f.name, got, want, f.notes)
        else:
            assert got == want, (f.name, got, want)
        compared += 1
    return compared


SIM_FILES = sorted(p for p in (ROOT / "test" / "Sim").rglob("*.mlir") if "Inputs" not in p.parts)


@pytest.mark.parametrize("path", SIM_FILES, ids=lambda p: str(p.relative_to(ROOT / "test" / "Sim")))
def test_bytes_agree_with_the_simulator_on_the_sim_suite(path: Path):
    try:
        compared = _check_against_simulator(path.read_text())
    except mesh_dialect.DiagnosticError:
        pytest.skip("it does not parse without flags (its RUN lines give them)")
    except AnalysisError:
        pytest.skip("partition refuses it")
    if not compared:
        pytest.skip("the simulator runs none of its functions on random inputs")


def test_bytes_agree_with_the_simulator_on_hand_written_spmd():
    assert _check_against_simulator(SPMD_REPLICATED) == 1
    text = (ROOT / "test" / "Transforms" / "mesh-analysis.mlir").read_text()
    assert sum(_check_against_simulator(chunk) for chunk in text.split("// -----")) == 3


@pytest.mark.parametrize("seed", range(40))
def test_bytes_agree_with_the_simulator_on_random_programs(seed: int):
    text = generate.structured(random.Random(seed))
    try:
        _parse(text)
    except DiagnosticError:
        pytest.skip("the generator made an invalid program (a few are, for the fuzzer's rejections)")
    try:
        compared = _check_against_simulator(text)
    except AnalysisError:
        pytest.skip("partition refuses it")
    if not compared:
        pytest.skip("the simulator cannot run it on random inputs")


@st.composite
def reshards(draw, max_devices: int = 8):
    """(shape, mesh, source, target): sizes the mesh may not divide, offsets
    on some layouts, partial sources."""
    mesh = draw_mesh(draw, (1, 3), (1, 4), max_devices)
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(rank))
    return (
        shape,
        mesh,
        draw_layout(draw, mesh, rank, True, ("sum",), shape),
        draw_layout(draw, mesh, rank, False, ("sum",), shape),
    )


@settings(max_examples=40, deadline=None)
@given(reshards())
def test_reshard_bytes_agree_with_the_planner_and_the_simulator(problem):
    shape, mesh, source, target = problem
    text = reshard_program(shape, mesh, source, target)  # (the target is never partial)
    # Partitioned as written (propagation could pick another plan).
    module = _parse(text)
    with module.context:
        pm = PassManager("builtin.module")
        MeshPartition().add_to(pm)
        pm.run(module)
    (f,) = analyze(module).functions
    assert not f.notes
    plan = plan_resharding(shape, mesh, source, target)
    assert f.bytes_received == plan.bytes_received, str(plan)
    assert _check_against_simulator(mesh_dialect.print_ir(module)) == 1


# ---------------------------------------------------------------------------
# The report and the pass


def test_annotated_programs_are_partitioned_on_a_copy():
    text = (ROOT / "test" / "Sim" / "partition-mlp.mlir").read_text()
    module = _parse(text)
    before = str(module)
    report = analyze(module)
    assert str(module) == before
    assert report.pipeline == ("sharding-propagation", "mesh-partition")
    (f,) = report.functions
    assert f.mesh == "mesh0" and f.mesh_shape == (2,)
    assert f.max["collectives"] == {"all_gather": 1, "reduce_scatter": 1}
    assert f.bytes_received == 128 + 128
    # Already partitioned: analyzed as it is.
    spmd = mesh_dialect.parse((ROOT / "test" / "Sim" / "mlp-spmd.mlir").read_text(), context=mesh_dialect.context())
    assert analyze(spmd).pipeline == ()


def test_json_is_stable_and_complete():
    report = _report(SPMD_REPLICATED)
    text = report.to_json()
    assert text == _report(SPMD_REPLICATED).to_json()
    data = json.loads(text)
    assert data["version"] == 1 and data["pipeline"] == []
    (f,) = data["functions"]
    assert f["mesh"] == "mesh" and f["mesh_shape"] == [2, 3]
    assert [d["device"] for d in f["devices"]] == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert set(f["devices"][0]) == {
        "device",
        "collectives",
        "bytes_received",
        "peak_memory",
        "flops",
        "redundant_flops",
    }
    assert f["total"]["flops"] == 2 * 512 + 4 * (512 + 32)
    assert f["max"]["redundant_flops"] == 512 + 32


def test_the_pass_writes_the_report_and_leaves_the_ir(tmp_path):
    module = _parse(SPMD_REPLICATED)
    before = str(module)
    out = tmp_path / "report.json"
    with module.context:
        pm = PassManager("builtin.module")
        MeshAnalysis(format="json", output=str(out)).add_to(pm)
        pm.run(module)
    assert str(module) == before
    assert json.loads(out.read_text())["functions"][0]["name"] == "f"
    table = tmp_path / "report.txt"
    with module.context:
        pm = PassManager("builtin.module")
        MeshAnalysis(output=str(table)).add_to(pm)
        pm.run(module)
    lines = table.read_text().splitlines()
    assert lines[0] == "mesh-analysis: the per-device program as written"
    assert lines[1] == "@f on @mesh (shape 2x3, 6 devices)"
    # x, w, the init and the product at the matmul: 128 + 256 + 128 + 128
    assert lines[3].split() == ["[0,", "0]", "-", "0", "640", "512", "0"]


def test_many_devices_share_rows():
    text = SPMD_REPLICATED.replace("shape = 2x3", "shape = 4x8")
    f = _only(text)
    assert len(f.devices) == 32
    table = analyze(_parse(text)).to_table().splitlines()
    # Equal devices share a row: [0, 0] and [1, 0] ... (no redundancy), the rest.
    assert table[2].startswith("  [0, 0] and 3 more")
    assert table[3].startswith("  [0, 1] and 27 more")


def test_errors():
    with pytest.raises(AnalysisError, match="more than the limit of 5"):
        analyze(_parse(SPMD_REPLICATED), max_devices=5)
    bad = """
mesh.mesh @m(shape = 4)
func.func @f(%x: tensor<8xi8>) -> tensor<8xi8> {
  %sp = mesh.sharding @m split_axes = [[]] partial = average [0] : !mesh.sharding
  %sr = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %v = arith.addi %x, %x : tensor<8xi8>
  %p = mesh.shard %v to %sp annotate_for_users : tensor<8xi8>
  %w = mesh.shard %p to %sr annotate_for_users : tensor<8xi8>
  return %w : tensor<8xi8>
}"""
    module = _parse(bad)
    before = str(module)
    failed = "'mesh-partition' failed on the annotated program: an average partial"
    with pytest.raises(AnalysisError, match=failed) as e:
        analyze(module)
    assert str(module) == before
    # The error is the partition's, at its position.
    assert "t.mlir" in str(e.value.location) and ":7:" in str(e.value.location)


def test_a_terminal_gets_the_rich_table():
    pytest.importorskip("rich")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    _report(SPMD_REPLICATED).write(out)
    text = out.getvalue()
    assert "┏" in text and "@f on @mesh (shape 2x3, 6 devices)" in text
    plain = io.StringIO()
    _report(SPMD_REPLICATED).write(plain)
    assert "┏" not in plain.getvalue()


@pytest.mark.parametrize("value", [0, -1])
def test_max_devices_must_be_positive(value: int) -> None:
    """A mesh can never have fewer than one device: such a bound is a typo,
    refused from the CLI's option text and from Python alike."""
    from mesh_dialect.transforms.base import OptionError

    with pytest.raises(
        OptionError, match=rf"option 'max-devices' of pass 'mesh-analysis' must be at least 1, got {value}"
    ):
        MeshAnalysis.from_options(f"max-devices={value}")
    with pytest.raises(OptionError, match="must be at least 1"):
        MeshAnalysis(max_devices=value)


def test_a_mesh_of_dynamic_size_reads_as_a_question_mark():
    # the size's sentinel (-2**63) is no size: the table prints ?, the JSON null
    report = _report(
        """
mesh.mesh @m(shape = 2x?)
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""
    )
    assert "@main on @m (shape 2x?, 0 devices)" in report.to_table()
    assert json.loads(report.to_json())["functions"][0]["mesh_shape"] == [2, None]


def test_a_registered_rule_that_raises_is_an_analysis_error_at_its_op() -> None:
    """A user's rule that raises inside a pass the analysis runs is an
    AnalysisError at the op, naming the rule, not the exception itself."""
    previous = register_rule("arith.addf", lambda op: 1 // 0)
    try:
        module = mesh_dialect.parse(
            "mesh.mesh @m(shape = 2)\n"
            "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
            "  %b = mesh.shard %a to %s : tensor<8xf32>\n"
            "  %c = arith.addf %b, %b : tensor<8xf32>\n"
            "  return %c : tensor<8xf32>\n}\n",
            context=mesh_dialect.context(),
        )
        with pytest.raises(AnalysisError) as info:
            analyze(module)
        assert str(info.value) == (
            "the sharding rule registered for 'arith.addf' raised ZeroDivisionError: integer division or modulo by zero"
        )
        assert str(info.value.location) == 'loc("<string>":5:8)'
    finally:
        register_rule("arith.addf", previous)


def test_regions_nested_as_deep_as_the_parser_takes():
    """450 nested scf.if (the parser takes about 500): the cost model, which
    follows regions recursively, ran out of Python's recursion limit."""
    depth = 450
    lines = ["mesh.mesh @mesh(shape = 2)", "func.func @deep(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {"]
    lines += [f"%r{i} = scf.if %c -> tensor<4xf32> {{" for i in range(depth)]
    lines.append("scf.yield %x : tensor<4xf32>")
    for i in reversed(range(depth)):
        lines += ["} else {", "scf.yield %x : tensor<4xf32>", "}"]
        if i:
            lines.append(f"scf.yield %r{i} : tensor<4xf32>")
    lines += ["return %r0 : tensor<4xf32>", "}"]
    report = analyze(_parse("\n".join(lines)))
    (function,) = report.functions
    assert function.name == "deep"
    assert len(function.notes) == depth  # one per scf.if on a value known only at run time
