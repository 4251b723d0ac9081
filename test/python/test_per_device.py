"""Which values of a program written partly per device differ between
devices (`ir.per_device`), by the mesh axes they vary along."""

from __future__ import annotations

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.ir.per_device import ANY, may_vary, per_device_values
from mesh_dialect.transforms import MeshPartition
from mesh_dialect.transforms.base import PassFailed

MESH = "mesh.mesh @m(shape = 2x2)\n"


def varying(body: str, args: str = "%x: tensor<4x4xf32>") -> dict[str, list]:
    """Per SSA name of the function @f around `body`, the axes its value
    varies along (sorted), for the values that vary."""
    text = f"{MESH}func.func @f({args}) {{\n{body}\n  return\n}}\n"
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    func = next(op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func")
    with ctx:
        names = {}
        for v, (axes, _) in per_device_values(func).values.items():
            names[v.get_name()] = sorted(axes)
    return names


def test_nothing_varies_without_a_collective():
    assert varying("  %y = math.exp %x : tensor<4x4xf32>") == {}


def test_a_slice_varies_along_its_axes_and_its_users_too():
    found = varying(
        "  %y = mesh.all_slice %x on @m mesh_axes = [1] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>\n"
        "  %z = math.exp %y : tensor<2x4xf32>"
    )
    assert found == {"%0": [("m", 1)], "%1": [("m", 1)]}


def test_a_gather_over_the_axes_a_value_varies_along_makes_it_agree():
    found = varying(
        "  %y = mesh.all_slice %x on @m mesh_axes = [0, 1] slice_axis = 0 : tensor<4x4xf32> -> tensor<1x4xf32>\n"
        "  %z = mesh.all_gather %y on @m mesh_axes = [1] gather_axis = 0 : tensor<1x4xf32> -> tensor<2x4xf32>\n"
        "  %w = mesh.all_reduce %z on @m mesh_axes = [0] : tensor<2x4xf32> -> tensor<2x4xf32>"
    )
    assert found == {"%0": [("m", 0), ("m", 1)], "%1": [("m", 0)]}


def test_indices_vary_along_the_axes_they_name_or_all():
    found = varying(
        "  %i = mesh.process_multi_index on @m axes = [1] : index\n"
        "  %j:2 = mesh.process_multi_index on @m : index, index\n"
        "  %k = mesh.process_linear_index on @m : index"
    )
    every = [("m", 0), ("m", 1)]
    assert found == {"%0": [("m", 1)], "%1#0": every, "%1#1": every, "%2": every}


def test_a_device_index_reduced_over_every_axis_agrees():
    found = varying(
        "  %i = mesh.process_linear_index on @m : index\n"
        "  %t = tensor.from_elements %i : tensor<1xindex>\n"
        "  %s = mesh.all_reduce %t on @m mesh_axes = [0, 1] : tensor<1xindex> -> tensor<1xindex>"
    )
    assert found == {"%0": [("m", 0), ("m", 1)], "%from_elements": [("m", 0), ("m", 1)]}


def test_a_value_that_may_vary_anyhow_agrees_after_a_collective_over_every_axis():
    """What a receive brings may differ along any axis; gathered or reduced
    over every axis of the mesh, every device holds the same, and over one
    axis only it still may differ anyhow."""
    found = varying(
        "  %r = mesh.recv %x on @m mesh_axes = [0, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
        "  %g = mesh.all_gather %r on @m mesh_axes = [0, 1] gather_axis = 0 : tensor<4x4xf32> -> tensor<16x4xf32>\n"
        "  %s = mesh.all_reduce %r on @m mesh_axes = [1] : tensor<4x4xf32> -> tensor<4x4xf32>"
    )
    assert found == {"%0": [ANY], "%2": [ANY]}


def test_a_loop_carries_what_its_body_yields_round_to_its_arguments():
    found = varying(
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> tensor<4x4xf32> {\n"
        "    %s = mesh.shift %a on @m mesh_axes = [0] shift_axis = 0 offset = 1 rotate"
        " : tensor<4x4xf32> -> tensor<4x4xf32>\n"
        "    %e = math.exp %a : tensor<4x4xf32>\n"
        "    %t = arith.addf %s, %e : tensor<4x4xf32>\n"
        "    scf.yield %t : tensor<4x4xf32>\n"
        "  }"
    )
    # the loop's result, its block's arguments (the induction variable too:
    # the analysis does not tell carried arguments apart), the shift, the
    # exp of the carried value (found on the second round) and the sum
    assert found == {name: [("m", 0)] for name in ("%0", "%arg1", "%arg2", "%1", "%2", "%3")}


def test_a_branch_hands_on_to_its_successors_arguments():
    found = varying(
        "  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>\n"
        "  cf.br ^next(%y : tensor<2x4xf32>)\n"
        "^next(%b: tensor<2x4xf32>):",
    )
    assert sorted(found.values()) == [[("m", 0)], [("m", 0)]]
    assert len(found) == 2


def test_a_call_varies_when_its_callee_may():
    text = (
        f"{MESH}func.func private @g(%x: tensor<4xf32>) -> tensor<2xf32> {{\n"
        "  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<2xf32>\n"
        "  return %y : tensor<2xf32>\n}\n"
        "func.func private @h(%x: tensor<4xf32>) -> tensor<2xf32> {\n"
        "  %y = func.call @g(%x) : (tensor<4xf32>) -> tensor<2xf32>\n"
        "  return %y : tensor<2xf32>\n}\n"
        "func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  return %x : tensor<4xf32>\n}\n"
        "func.func @f(%x: tensor<4xf32>) {\n"
        "  %a = func.call @h(%x) : (tensor<4xf32>) -> tensor<2xf32>\n"
        "  %b = func.call @k(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  return\n}\n"
    )
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    funcs = {
        ir.StringAttr(op.operation.attributes["sym_name"]).value: op.operation
        for op in module.regions[0].blocks[0].operations
        if op.operation.name == "func.func"
    }
    with ctx:
        found = {v.get_name(): sorted(axes) for v, (axes, _) in per_device_values(funcs["f"]).values.items()}
        assert may_vary(funcs["f"], ["func.call", "func.return"])
        assert not may_vary(funcs["k"], ["func.return"])
    assert found == {"%0": [ANY]}


def test_a_jax_device_id_varies_anywhere():
    text = (
        "func.func @f() {\n"
        '  %i = "stablehlo.partition_id"() : () -> tensor<ui32>\n'
        '  %j = "stablehlo.add"(%i, %i) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>\n'
        "  return\n}\n"
    )
    ctx = mesh_dialect.context()
    ctx.allow_unregistered_dialects = True
    module = mesh_dialect.parse(text, context=ctx)
    func = next(op.operation for op in module.regions[0].blocks[0].operations)
    with ctx:
        found = {v.get_name(): sorted(axes) for v, (axes, _) in per_device_values(func).values.items()}
    assert found == {"%0": [ANY], "%1": [ANY]}


def test_partition_refuses_to_cut_it():
    ctx = mesh_dialect.context()
    text = (
        "mesh.mesh @m(shape = 2)\n"
        "func.func @f(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {\n"
        "  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>\n"
        "  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
        "  %ys = mesh.shard %y to %s annotate_for_users : tensor<2x4xf32>\n"
        "  %z = math.exp %ys : tensor<2x4xf32>\n"
        "  return %z : tensor<2x4xf32>\n"
        "}\n"
    )
    module = mesh_dialect.parse(text, context=ctx)
    messages: list[str] = []
    ctx.attach_diagnostic_handler(lambda d: messages.append(d.message) or True)
    with ctx, ir.Location.unknown(), pytest.raises(PassFailed):
        MeshPartition().run(module)
    assert messages == [
        "a value that differs between devices cannot be resharded, as partition would cut or gather it as one "
        "tensor: it is computed per device from 'mesh.all_slice' at <string>:3:8, and is wanted as split_axes = [[0]]"
    ]


def test_a_pass_run_reads_its_module_s_callees_once(monkeypatch):
    """Which functions may vary is found once per pass run, not once per
    function that calls (a module of n such functions was walked n times)."""
    import mesh_dialect.ir.per_device as per_device

    calls = []
    real = per_device.varying_functions
    monkeypatch.setattr(per_device, "varying_functions", lambda module: calls.append(1) or real(module))
    text = MESH + "func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n"
    for k in range(20):
        text += (
            f"func.func @f{k}(%x: tensor<4xf32>) -> tensor<4xf32> {{\n"
            "  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
            "  %xs = mesh.shard %x to %s annotate_for_users : tensor<4xf32>\n"
            "  %e = math.exp %xs : tensor<4xf32>\n"
            "  %y = func.call @g(%e) : (tensor<4xf32>) -> tensor<4xf32>\n"
            "  return %y : tensor<4xf32>\n}\n"
        )
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx, ir.Location.unknown():
        mesh_dialect.ShardingPropagation().run(module)
        assert len(calls) == 1
        MeshPartition().run(module)
    assert len(calls) == 2
