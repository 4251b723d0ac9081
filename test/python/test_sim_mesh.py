"""The simulator running mesh IR: the reference page's drawings executed as
programs, process queries, divergent control flow, deadlocks, and errors."""

import numpy as np
import pytest

import mesh_dialect
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.interpreter import Runner
from mesh_dialect.sim.program import SimError


def spmd(text: str, function: str, args: dict, mesh: str = "mesh0") -> dict:
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        return Runner(module, mesh=mesh).run_spmd(function, args)


def blocks_2x2() -> dict:
    """The per-device 2x2 blocks of the page's 2x2-mesh drawings (1..16)."""
    return {
        (0, 0): np.array([[1, 2], [3, 4]], np.int8),
        (0, 1): np.array([[5, 6], [7, 8]], np.int8),
        (1, 0): np.array([[9, 10], [11, 12]], np.int8),
        (1, 1): np.array([[13, 14], [15, 16]], np.int8),
    }


def test_all_gather_drawing():
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x2)
        func.func @f(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
          %1 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
          return %1 : tensor<2x4xi8>
        }""",
        "f",
        {d: [v] for d, v in blocks_2x2().items()},
    )
    top = [[1, 2, 5, 6], [3, 4, 7, 8]]
    bottom = [[9, 10, 13, 14], [11, 12, 15, 16]]
    assert {d: r[0].tolist() for d, r in out.items()} == {(0, 0): top, (0, 1): top, (1, 0): bottom, (1, 1): bottom}


def test_all_slice_drawing():
    full_top = np.array([[1, 2, 5, 6], [3, 4, 7, 8]], np.int8)
    full_bottom = np.array([[9, 10, 13, 14], [11, 12, 15, 16]], np.int8)
    args = {(0, 0): [full_top], (0, 1): [full_top], (1, 0): [full_bottom], (1, 1): [full_bottom]}
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x2)
        func.func @f(%x: tensor<2x4xi8>) -> tensor<2x2xi8> {
          %1 = mesh.all_slice %x on @mesh0 mesh_axes = [1] slice_axis = 1 : tensor<2x4xi8> -> tensor<2x2xi8>
          return %1 : tensor<2x2xi8>
        }""",
        "f",
        args,
    )
    assert {d: r[0].tolist() for d, r in out.items()} == {d: v.tolist() for d, v in blocks_2x2().items()}


def test_all_to_all_drawing():
    columns = {
        (0,): [[11, 12], [13, 14], [15, 16]],
        (1,): [[21, 22], [23, 24], [25, 26]],
        (2,): [[31, 32], [33, 34], [35, 36]],
    }
    out = spmd(
        """mesh.mesh @mesh0(shape = 3)
        func.func @f(%x: tensor<3x2xi8>) -> tensor<3x2xi8> {
          %1 = mesh.all_to_all %x on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 0
            : tensor<3x2xi8> -> tensor<3x2xi8>
          return %1 : tensor<3x2xi8>
        }""",
        "f",
        {d: [np.array(v, np.int8)] for d, v in columns.items()},
    )
    assert {d: r[0].tolist() for d, r in out.items()} == {
        (0,): [[11, 12], [21, 22], [31, 32]],
        (1,): [[13, 14], [23, 24], [33, 34]],
        (2,): [[15, 16], [25, 26], [35, 36]],
    }


def test_broadcast_drawing_with_a_dynamic_root():
    rows = {(0, 0): [1, 2], (0, 1): [3, 4], (1, 0): [0, 0], (1, 1): [0, 0]}
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x2)
        func.func @f(%x: tensor<2xi8>) -> tensor<2xi8> {
          %r = arith.constant 0 : index
          %1 = mesh.broadcast %x on @mesh0 mesh_axes = [0] root = [%r] : (tensor<2xi8>, index) -> tensor<2xi8>
          return %1 : tensor<2xi8>
        }""",
        "f",
        {d: [np.array(v, np.int8)] for d, v in rows.items()},
    )
    assert {d: r[0].tolist() for d, r in out.items()} == {
        (0, 0): [1, 2],
        (0, 1): [3, 4],
        (1, 0): [1, 2],
        (1, 1): [3, 4],
    }


def test_gather_drawing_poisons_the_non_root_devices():
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x2)
        func.func @f(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
          %1 = mesh.gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
          return %1 : tensor<2x4xi8>
        }""",
        "f",
        {d: [v] for d, v in blocks_2x2().items()},
    )
    assert out[(0, 1)][0].tolist() == [[1, 2, 5, 6], [3, 4, 7, 8]]
    assert out[(1, 1)][0].tolist() == [[9, 10, 13, 14], [11, 12, 15, 16]]
    poison = np.iinfo(np.int8).min
    assert (out[(0, 0)][0] == poison).all() and (out[(1, 0)][0] == poison).all()


def test_reduce_scatter_drawing():
    # The drawing: every device holds a 2x2 block, summed over mesh axis 1 and
    # scattered along tensor axis 0.
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x2)
        func.func @f(%x: tensor<2x2xi8>) -> tensor<1x2xi16> {
          %1 = mesh.reduce_scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 0 : tensor<2x2xi8> -> tensor<1x2xi16>
          return %1 : tensor<1x2xi16>
        }""",
        "f",
        {d: [v] for d, v in blocks_2x2().items()},
    )
    assert {d: r[0].tolist() for d, r in out.items()} == {
        (0, 0): [[6, 8]],
        (0, 1): [[10, 12]],
        (1, 0): [[22, 24]],
        (1, 1): [[26, 28]],
    }
    assert out[(0, 0)][0].dtype == np.int16  # accumulated in the result element type


def test_scatter_drawing():
    data = {
        (0, 0): np.zeros((2, 2), np.int8),
        (0, 1): np.zeros((2, 2), np.int8),
        (1, 0): np.array([[1, 2], [3, 4]], np.int8),
        (1, 1): np.array([[5, 6], [7, 8]], np.int8),
    }
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x2)
        func.func @f(%x: tensor<2x2xi8>) -> tensor<1x2xi8> {
          %1 = mesh.scatter %x on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [1]
            : (tensor<2x2xi8>) -> tensor<1x2xi8>
          return %1 : tensor<1x2xi8>
        }""",
        "f",
        {d: [v] for d, v in data.items()},
    )
    assert {d: r[0].tolist() for d, r in out.items()} == {
        (0, 0): [[1, 2]],
        (0, 1): [[5, 6]],
        (1, 0): [[3, 4]],
        (1, 1): [[7, 8]],
    }


def test_shift_rotate_drawing():
    out = spmd(
        """mesh.mesh @mesh0(shape = 2x4)
        func.func @f(%x: tensor<1xi8>) -> tensor<1xi8> {
          %1 = mesh.shift %x on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 2 rotate : tensor<1xi8> -> tensor<1xi8>
          return %1 : tensor<1xi8>
        }""",
        "f",
        {(i, j): [np.array([4 * i + j + 1], np.int8)] for i in range(2) for j in range(4)},
    )
    assert [[int(out[(i, j)][0][0]) for j in range(4)] for i in range(2)] == [[3, 4, 1, 2], [7, 8, 5, 6]]


def test_all_reduce_kinds_and_accumulation_type():
    text = """mesh.mesh @mesh0(shape = 4)
    func.func @f(%x: tensor<2xi8>) -> (tensor<2xi32>, tensor<2xi8>, tensor<2xi32>) {
      %s = mesh.all_reduce %x on @mesh0 mesh_axes = [0] : tensor<2xi8> -> tensor<2xi32>
      %m = mesh.all_reduce %x on @mesh0 mesh_axes = [0] reduction = <min> : tensor<2xi8> -> tensor<2xi8>
      %a = mesh.all_reduce %x on @mesh0 mesh_axes = [0] reduction = <average> : tensor<2xi8> -> tensor<2xi32>
      return %s, %m, %a : tensor<2xi32>, tensor<2xi8>, tensor<2xi32>
    }"""
    values = {(0,): [100, -7], (1,): [100, 3], (2,): [100, 0], (3,): [100, -2]}
    out = spmd(text, "f", {d: [np.array(v, np.int8)] for d, v in values.items()})
    # 400 does not fit in i8: summing in the result type (i32) keeps it.
    assert [r.tolist() for r in out[(2,)]] == [[400, -6], [100, -7], [100, -1]]


def test_process_queries_and_shard_shape():
    text = """mesh.mesh @mesh0(shape = 2x3)
    func.func @f() -> (index, index, index, index, index) {
      %l = mesh.process_linear_index on @mesh0 : index
      %m:2 = mesh.process_multi_index on @mesh0 : index, index
      %s = mesh.sharding @mesh0 split_axes = [[1]] sharded_dims_offsets = [0, 1, 5, 9] : !mesh.sharding
      %d:2 = mesh.shard_shape 9x4 %s %l : index, index
      return %l, %m#0, %m#1, %d#0, %d#1 : index, index, index, index, index
    }"""
    out = spmd(text, "f", {(i, j): [] for i in range(2) for j in range(3)})
    assert [int(v) for v in out[(1, 2)]] == [5, 1, 2, 4, 4]
    assert [int(v) for v in out[(0, 1)]] == [1, 0, 1, 4, 4]
    assert [int(v) for v in out[(0, 0)]] == [0, 0, 0, 1, 4]


def test_devices_on_different_paths_meet_at_their_collectives():
    # Only the devices of row 0 reduce, over mesh axis 1; row 1 skips it.
    text = """mesh.mesh @mesh0(shape = 2x2)
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %row = mesh.process_multi_index on @mesh0 axes = [0] : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %row, %c0 : index
      %r = scf.if %first -> tensor<2xf32> {
        %s = mesh.all_reduce %x on @mesh0 mesh_axes = [1] : tensor<2xf32> -> tensor<2xf32>
        scf.yield %s : tensor<2xf32>
      } else {
        scf.yield %x : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    }"""
    args = {(i, j): [np.array([i * 2 + j, 1], np.float32)] for i in range(2) for j in range(2)}
    out = spmd(text, "f", args)
    assert {d: r[0].tolist() for d, r in out.items()} == {
        (0, 0): [1, 2],
        (0, 1): [1, 2],
        (1, 0): [2, 1],
        (1, 1): [3, 1],
    }


def test_deadlock_names_each_device_and_its_collective():
    text = """mesh.mesh @mesh0(shape = 2)
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %i = mesh.process_linear_index on @mesh0 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %i, %c0 : index
      %r = scf.if %first -> tensor<2xf32> {
        %s = mesh.all_reduce %x on @mesh0 mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
        scf.yield %s : tensor<2xf32>
      } else {
        %g = mesh.all_gather %x on @mesh0 mesh_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>
        %h = tensor.extract_slice %g[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
        scf.yield %h : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    }"""
    with pytest.raises(SimError) as info:
        spmd(text, "f", {(0,): [np.zeros(2, np.float32)], (1,): [np.zeros(2, np.float32)]})
    assert str(info.value) == (
        "deadlock: no device group can complete its collective\n"
        "  device (0) waits at 'mesh.all_reduce' at <string>:7:14\n"
        "  device (1) waits at 'mesh.all_gather' at <string>:10:14"
    )


def test_send_and_recv_pair_up():
    text = """mesh.mesh @mesh0(shape = 2)
    func.func @f(%x: tensor<2xi32>) -> tensor<2xi32> {
      %i = mesh.process_linear_index on @mesh0 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %i, %c0 : index
      %r = scf.if %first -> tensor<2xi32> {
        %s = mesh.send %x on @mesh0 mesh_axes = [0] destination = [1] : (tensor<2xi32>) -> tensor<2xi32>
        scf.yield %s : tensor<2xi32>
      } else {
        %v = mesh.recv %x on @mesh0 mesh_axes = [0] source = [0] : (tensor<2xi32>) -> tensor<2xi32>
        scf.yield %v : tensor<2xi32>
      }
      return %r : tensor<2xi32>
    }"""
    out = spmd(text, "f", {(0,): [np.array([7, 8], np.int32)], (1,): [np.array([0, 0], np.int32)]})
    assert out[(0,)][0].tolist() == [7, 8] and out[(1,)][0].tolist() == [7, 8]


def test_unsupported_op_is_named_with_its_location():
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(
        'func.func @f() -> i32 {\n  %0 = "my.op"() : () -> i32\n  return %0 : i32\n}', filename="u.mlir", context=ctx
    )
    with ctx, pytest.raises(SimError) as info:
        Runner(module).run_global("f", [])
    assert str(info.value) == "u.mlir:2:8: 'my.op' is not supported by the simulator (no handler registered for it)"


def test_collective_in_the_global_program_is_an_error():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(
        "mesh.mesh @m(shape = 2)\nfunc.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>\n"
        "  return %0 : tensor<2xf32>\n}",
        filename="g.mlir",
        context=ctx,
    )
    with ctx, pytest.raises(SimError) as info:
        Runner(module).run_global("f", [np.zeros(2, np.float32)])
    assert str(info.value) == "g.mlir:3:8: 'mesh.all_reduce' needs a device: run the function on a mesh (SPMD mode)"


def test_layouts_split_inputs_and_assemble_outputs():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(
        """mesh.mesh @m(shape = 2x2)
        func.func @double(%x: tensor<2x2xi32> {mesh.sharding = #mesh.sharding<@m, [[0], [1]]>})
            -> (tensor<2x4xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
          %0 = arith.addi %x, %x : tensor<2x2xi32>
          %1 = mesh.all_gather %0 on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2xi32> -> tensor<2x4xi32>
          return %1 : tensor<2x4xi32>
        }""",
        context=ctx,
    )
    x = np.arange(16, dtype=np.int32).reshape(4, 4)
    with ctx:
        (y,) = Simulation(module).run("double", [x])
    np.testing.assert_array_equal(y, 2 * x)


def test_integer_average_over_two_axes_in_the_ir():
    # Terms 1, 0, 1, 2: trunc(4 / 4) = 1 on every device, whichever axis is listed first.
    text = """
    mesh.mesh @mesh0(shape = 2x2)
    func.func @f(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<1xi32>) {
      %a = mesh.all_reduce %x on @mesh0 mesh_axes = [0, 1] reduction = <average> : tensor<2xi32> -> tensor<2xi32>
      %b = mesh.all_reduce %x on @mesh0 mesh_axes = [1, 0] reduction = <average> : tensor<2xi32> -> tensor<2xi32>
      %c = mesh.reduce_scatter %x on @mesh0 mesh_axes = [0] reduction = <average> scatter_axis = 0
          : tensor<2xi32> -> tensor<1xi32>
      return %a, %b, %c : tensor<2xi32>, tensor<2xi32>, tensor<1xi32>
    }
    """
    terms = {(0, 0): 1, (0, 1): 0, (1, 0): 1, (1, 1): 2}
    out = spmd(text, "f", {d: [np.full(2, v, np.int32)] for d, v in terms.items()})
    for d in terms:
        assert out[d][0].tolist() == [1, 1] and out[d][1].tolist() == [1, 1]
    # Over axis 0 alone: trunc((1 + 1) / 2) = 1 in column 0, trunc((0 + 2) / 2) = 1 in column 1.
    assert {d: out[d][2].tolist() for d in terms} == {(0, 0): [1], (1, 0): [1], (0, 1): [1], (1, 1): [1]}


_SCATTER = """mesh.mesh @m(shape = 2x2)
func.func @f(%x: tensor<4x3xi32>) -> (tensor<2x3xi32>, tensor<4x3xi32>) {
  %r = mesh.reduce_scatter %x on @m mesh_axes = [1] scatter_axis = 0 : tensor<4x3xi32> -> tensor<2x3xi32>
  %s = mesh.all_reduce %x on @m mesh_axes = [0, 1] : tensor<4x3xi32> -> tensor<4x3xi32>
  return %r, %s : tensor<2x3xi32>, tensor<4x3xi32>
}"""


def test_results_differing_between_devices_are_stacked_when_asked():
    """A program written per device may return a value each device holds
    differently: `per_device` stacks every device's array (device first)
    and names the result; the value every device holds alike stays whole."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(_SCATTER, context=ctx)
    x = np.arange(12, dtype=np.int32).reshape(4, 3)
    with ctx:
        sim = Simulation(module, mesh="m")
        stacked: set[int] = set()
        pieces, total = sim.run("f", [x], spmd=True, per_device=stacked)
        assert stacked == {0}
        assert pieces.shape == (2, 2, 2, 3)
        for i in range(2):
            for j in range(2):
                # two devices along axis 1 each add their copy of x: device j keeps rows 2j, 2j + 1
                np.testing.assert_array_equal(pieces[i, j], 2 * x[2 * j : 2 * j + 2])
        np.testing.assert_array_equal(total, 4 * x)
        with pytest.raises(SimError, match=r"result 0 of @f: replicas \[0, 0\] and \[0, 1\] differ"):
            sim.run("f", [x], spmd=True)
