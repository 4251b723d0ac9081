"""The generated builders in mesh_dialect.ir.ops: they build IR that
verifies, prints the expected generic form and reads back what was given."""

from __future__ import annotations

import inspect
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from mlir import ir
from mlir.dialects import arith, tensor

from mesh_dialect.ir import gen_ops, ops
from mesh_dialect.ir.dialect import load_dialect
from mesh_dialect.ir.schema import DYNAMIC, OPS

ROOT = Path(__file__).resolve().parents[2]
PREFIX = (
    '"builtin.module"() ({\n'
    '  %0 = "arith.constant"() <{value = 1 : index}> : () -> index\n'
    '  %1 = "arith.constant"() <{value = 2 : i64}> : () -> i64\n'
    '  %2 = "tensor.empty"() : () -> tensor<4x8xf32>\n'
)
SUFFIX = "}) : () -> ()\n"


@dataclass
class Env:
    """A module holding an index, an i64 and a tensor value to build on."""

    ctx: ir.Context
    module: ir.Module
    index: ir.Value
    i64: ir.Value
    tensor: ir.Value

    def generic(self) -> str:
        self.module.operation.verify()
        return self.module.operation.get_asm(print_generic_op_form=True)


@pytest.fixture
def env() -> Iterator[Env]:
    ctx = ir.Context()
    load_dialect(ctx)
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            index = arith.constant(ir.IndexType.get(), 1)
            i64 = arith.constant(ir.IntegerType.get_signless(64), 2)
            t = tensor.empty([4, 8], ir.F32Type.get())
            yield Env(ctx, module, index, i64, t)


def tensor_type(*shape: int) -> ir.Type:
    return ir.RankedTensorType.get(list(shape), ir.F32Type.get())


def build_all(env: Env) -> list[ir.OpView]:
    """One op of every kind, in schema order."""
    t, idx, i64 = env.tensor, env.index, env.i64
    built = [
        ops.mesh("mesh0", [2, None, 4]),
        ops.mesh_shape("mesh0", num_results=3)[0].owner,
        ops.process_multi_index("mesh0", axes=[0, 2])[0].owner,
        ops.process_linear_index("mesh0").owner,
    ]
    sh = ops.sharding("mesh0", [[0], []], halo_sizes=[1, i64])
    built += [
        sh.owner,
        ops.shard(t, sh).owner,
        ops.shard_shape(sh, idx, [4, None])[0].owner,
        ops.all_gather(tensor_type(8, 8), t, "mesh0", 0, mesh_axes=[0]).owner,
        ops.all_reduce(t.type, t, "mesh0").owner,
        ops.all_slice(tensor_type(4, 4), t, "mesh0", 1, mesh_axes=[0]).owner,
        ops.all_to_all(t.type, t, "mesh0", 0, 1).owner,
        ops.broadcast(t.type, t, "mesh0", mesh_axes=[0], root=[idx]).owner,
        ops.gather(tensor_type(8, 8), t, "mesh0", 0, mesh_axes=[0], root=[0]).owner,
        ops.recv(t.type, t, "mesh0", mesh_axes=[0], source=[1]).owner,
        ops.reduce(t.type, t, "mesh0", mesh_axes=[0], root=[0]).owner,
        ops.reduce_scatter(tensor_type(2, 8), t, "mesh0", 0, mesh_axes=[0]).owner,
        ops.scatter(tensor_type(2, 8), t, "mesh0", 0, mesh_axes=[0], root=[0]).owner,
        ops.send(t.type, t, "mesh0", mesh_axes=[0], destination=[1]).owner,
        ops.shift(t.type, t, "mesh0", 0, 1, mesh_axes=[0]).owner,
        ops.update_halo(t, t, "mesh0", [[0]], source_halo_sizes=[1, 1]).owner,
    ]
    return [op if isinstance(op, ir.OpView) else op.opview for op in built]


def test_every_op_builds_verifies_and_has_its_class(env: Env) -> None:
    built = build_all(env)
    env.module.operation.verify()
    mesh_ops = list(env.module.body.operations)[3:]
    assert [op.operation.name for op in mesh_ops] == [op.full_name for op in OPS]
    expected = [gen_ops._camel(op.name) + "Op" for op in OPS]
    assert [type(op).__name__ for op in mesh_ops] == expected
    assert [type(op.operation.opview) for op in mesh_ops] == [getattr(ops, n) for n in expected]
    assert [type(op) for op in built] == [getattr(ops, n) for n in expected]
    assert sorted(ops.__all__) == sorted(expected + [op.name for op in OPS])


def test_all_reduce_generic_text_and_defaults(env: Env) -> None:
    op = ops.AllReduceOp(env.tensor.type, env.tensor, "mesh0")
    assert (
        env.generic()
        == PREFIX
        + (
            '  %3 = "mesh.all_reduce"(%2) {mesh = @mesh0, mesh_axes = array<i16>,'
            ' reduction = #mesh.partial<"sum">} : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
        )
        + SUFFIX
    )
    assert op.mesh == "mesh0"
    assert op.mesh_axes == ()
    assert op.reduction == "sum"
    assert op.input == env.tensor
    assert op.result.type == env.tensor.type


def test_broadcast_dynamic_root_mixes_int_and_value(env: Env) -> None:
    value = ops.broadcast(env.tensor.type, env.tensor, "mesh0", mesh_axes=[0, 2], root=[1, env.index])
    assert (
        env.generic()
        == PREFIX
        + (
            '  %3 = "mesh.broadcast"(%2, %0) {mesh = @mesh0, mesh_axes = array<i16: 0, 2>,'
            " root = array<i64: 1, -9223372036854775808>} : (tensor<4x8xf32>, index) -> tensor<4x8xf32>\n"
        )
        + SUFFIX
    )
    op = value.owner.opview
    assert type(op) is ops.BroadcastOp
    assert op.root == [1, env.index]
    assert op.static_root == (1, DYNAMIC)
    assert op.dynamic_root == [env.index]
    assert op.mesh_axes == (0, 2)


def test_sharding_generic_text_and_properties(env: Env) -> None:
    value = ops.sharding(
        "mesh0",
        [[0], [], [1, 2]],
        partial_axes=[3],
        partial_type="max",
        halo_sizes=[1, env.i64],
    )
    assert (
        env.generic()
        == PREFIX
        + (
            '  %3 = "mesh.sharding"(%1) {mesh = @mesh0, operandSegmentSizes = array<i32: 0, 1>,'
            ' partial_axes = array<i16: 3>, partial_type = #mesh.partial<"max">,'
            " split_axes = #mesh.axisarray<[array<i16: 0>, array<i16>, array<i16: 1, 2>]>,"
            " static_halo_sizes = array<i64: 1, -9223372036854775808>,"
            " static_sharded_dims_offsets = array<i64>} : (i64) -> !mesh.sharding\n"
        )
        + SUFFIX
    )
    op = value.owner.opview
    assert type(op) is ops.ShardingOp
    assert op.split_axes == ((0,), (), (1, 2))
    assert op.partial_axes == (3,)
    assert op.partial_type == "max"
    assert op.halo_sizes == [1, env.i64]
    assert op.dynamic_halo_sizes == [env.i64]
    assert op.sharded_dims_offsets == []
    assert op.dynamic_sharded_dims_offsets == []
    assert str(op.result.type) == "!mesh.sharding"


def test_sharding_defaults_leave_optional_attributes_out(env: Env) -> None:
    op = ops.sharding("mesh0", [[0]], sharded_dims_offsets=[0, env.i64, 8]).owner.opview
    assert "partial_axes" not in op.operation.attributes
    assert "partial_type" not in op.operation.attributes
    assert op.partial_axes == ()
    assert op.partial_type is None
    assert op.halo_sizes == []
    assert op.sharded_dims_offsets == [0, env.i64, 8]
    env.module.operation.verify()


def test_mesh_and_index_ops_generic_text(env: Env) -> None:
    mesh_op = ops.mesh("mesh0", [2, None, 4])
    sizes = ops.mesh_shape("mesh0", num_results=3)
    indices = ops.process_multi_index("mesh0", axes=[2, 0])
    linear = ops.process_linear_index("mesh0")
    assert (
        env.generic()
        == PREFIX
        + (
            '  "mesh.mesh"() {shape = array<i64: 2, -9223372036854775808, 4>, sym_name = "mesh0"} : () -> ()\n'
            '  %3:3 = "mesh.mesh_shape"() {axes = array<i16>, mesh = @mesh0} : () -> (index, index, index)\n'
            '  %4:2 = "mesh.process_multi_index"() {axes = array<i16: 2, 0>, mesh = @mesh0}'
            " : () -> (index, index)\n"
            '  %5 = "mesh.process_linear_index"() {mesh = @mesh0} : () -> index\n'
        )
        + SUFFIX
    )
    assert type(mesh_op) is ops.MeshOp
    assert mesh_op.sym_name == "mesh0"
    assert mesh_op.shape == (2, None, 4)
    assert len(sizes) == 3
    assert sizes[0].owner.opview.result == sizes
    assert sizes[0].owner.opview.axes == ()
    assert indices[0].owner.opview.axes == (2, 0)
    assert linear.owner.opview.mesh == "mesh0"
    assert str(linear.type) == "index"


def test_shard_and_shard_shape(env: Env) -> None:
    sh = ops.sharding("mesh0", [[0]])
    shard = ops.shard(env.tensor, sh, annotate_for_users=True).owner.opview
    dims = ops.shard_shape(sh, env.index, [4, None])
    assert shard.src == env.tensor
    assert shard.sharding == sh
    assert shard.annotate_for_users is True
    assert shard.result.type == env.tensor.type
    assert ops.shard(env.tensor, sh).owner.opview.annotate_for_users is False
    op = dims[0].owner.opview
    assert type(op) is ops.ShardShapeOp
    assert len(dims) == 2
    assert op.shape == (4, None)
    assert op.sharding == sh
    assert op.device == env.index
    env.module.operation.verify()


def test_collective_properties_read_back(env: Env) -> None:
    t = env.tensor
    gather = ops.AllGatherOp(tensor_type(8, 8), t, "mesh0", 0, mesh_axes=[1])
    assert (gather.mesh, gather.mesh_axes, gather.gather_axis) == ("mesh0", (1,), 0)
    slice_ = ops.AllSliceOp(t.type, t, "mesh0", 1)
    assert slice_.slice_axis == 1
    a2a = ops.AllToAllOp(t.type, t, "mesh0", 1, 0)
    assert (a2a.split_axis, a2a.concat_axis) == (1, 0)
    g = ops.GatherOp(tensor_type(8, 8), t, "mesh0", 1, mesh_axes=[0], root=[env.index])
    assert (g.gather_axis, g.root, g.static_root) == (1, [env.index], (DYNAMIC,))
    recv = ops.RecvOp(t.type, t, "mesh0")
    assert "source" not in recv.operation.attributes
    assert (recv.source, recv.dynamic_source) == ([], [])
    recv2 = ops.RecvOp(t.type, t, "mesh0", mesh_axes=[0], source=[env.index])
    assert recv2.source == [env.index]
    reduce = ops.ReduceOp(t.type, t, "mesh0", reduction="bitwise_xor", mesh_axes=[0], root=[3])
    assert (reduce.reduction, reduce.root) == ("bitwise_xor", [3])
    rs = ops.ReduceScatterOp(t.type, t, "mesh0", 1, reduction="min")
    assert (rs.reduction, rs.scatter_axis) == ("min", 1)
    sc = ops.ScatterOp(t.type, t, "mesh0", 0, mesh_axes=[0], root=[0])
    assert (sc.scatter_axis, sc.root) == (0, [0])
    send = ops.SendOp(t.type, t, "mesh0", mesh_axes=[0], destination=[env.index])
    assert send.destination == [env.index]
    shift = ops.ShiftOp(t.type, t, "mesh0", 0, -1, mesh_axes=[0], rotate=True)
    assert (shift.shift_axis, shift.offset, shift.rotate) == (0, -1, True)
    assert ops.ShiftOp(t.type, t, "mesh0", 0, 2).rotate is False
    env.module.operation.verify()


def test_update_halo_generic_text(env: Env) -> None:
    op = ops.UpdateHaloOp(
        env.tensor, env.tensor, "mesh0", [[0]], source_halo_sizes=[env.i64, 1], destination_halo_sizes=[2, 3]
    )
    assert (
        env.generic()
        == PREFIX
        + (
            '  %3 = "mesh.update_halo"(%2, %2, %1) {mesh = @mesh0, operandSegmentSizes = array<i32: 1, 1, 1, 0>,'
            " split_axes = #mesh.axisarray<[array<i16: 0>]>,"
            " static_destination_halo_sizes = array<i64: 2, 3>,"
            " static_source_halo_sizes = array<i64: -9223372036854775808, 1>}"
            " : (tensor<4x8xf32>, tensor<4x8xf32>, i64) -> tensor<4x8xf32>\n"
        )
        + SUFFIX
    )
    assert op.source == env.tensor
    assert op.destination == env.tensor
    assert op.split_axes == ((0,),)
    assert op.source_halo_sizes == [env.i64, 1]
    assert op.dynamic_source_halo_sizes == [env.i64]
    assert op.destination_halo_sizes == [2, 3]
    assert op.dynamic_destination_halo_sizes == []
    assert op.result.type == env.tensor.type


def test_explicit_loc_and_ip_without_entering_the_context() -> None:
    ctx = ir.Context()
    load_dialect(ctx)
    module = ir.Module.create(ir.Location.unknown(ctx))
    op = ops.MeshOp("m", [4], ip=ir.InsertionPoint(module.body))
    assert str(op.location) == "loc(unknown)"
    here = ir.Location.name("here", context=ctx)
    value = ops.process_linear_index("m", loc=here, ip=ir.InsertionPoint(module.body))
    assert str(value.owner.location) == 'loc("here")'
    assert [o.operation.name for o in module.body.operations] == ["mesh.mesh", "mesh.process_linear_index"]
    module.operation.verify()


def test_location_and_block_in_different_contexts_raise() -> None:
    a, b = ir.Context(), ir.Context()
    load_dialect(a)
    load_dialect(b)
    module = ir.Module.create(ir.Location.unknown(b))
    with pytest.raises(ValueError) as info:
        ops.mesh("m", [2], loc=ir.Location.unknown(a), ip=ir.InsertionPoint(module.body))
    assert str(info.value) == "mesh.mesh: the location and the insertion point are in different contexts"
    with a, ir.Location.unknown():
        op = ops.mesh("m", [2], ip=ir.InsertionPoint(module.body))
    assert op.context is b
    assert str(op.location) == "loc(unknown)"
    module.operation.verify()


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (
            lambda e: ops.all_reduce(e.tensor.type, e.tensor, "mesh0", reduction="median"),
            ValueError,
            "mesh.all_reduce: reduction: unknown reduction kind 'median'; expected one of sum, max, min,"
            " product, average, bitwise_and, bitwise_or, bitwise_xor, generic",
        ),
        (
            lambda e: ops.sharding("mesh0", [[0]], partial_type="sum"),
            ValueError,
            "mesh.sharding: partial_axes, partial_type must be given together",
        ),
        (
            lambda e: ops.process_linear_index(""),
            ValueError,
            "mesh.process_linear_index: mesh must be a non-empty symbol name, got ''",
        ),
        (
            lambda e: ops.mesh_shape("mesh0"),
            ValueError,
            "mesh.mesh_shape: pass num_results (the mesh rank) when axes is empty",
        ),
        (
            lambda e: ops.mesh_shape("mesh0", axes=[0], num_results=2),
            ValueError,
            "mesh.mesh_shape: num_results must be len(axes) when axes is given",
        ),
        (
            lambda e: ops.mesh_shape("mesh0", num_results=10**9),
            ValueError,
            "mesh.mesh_shape: num_results must be at most 32768 (one per mesh axis), got 1000000000",
        ),
        (
            lambda e: ops.process_linear_index("a\udcffb"),
            ValueError,
            "mesh.process_linear_index: mesh must be valid Unicode, got 'a\\udcffb'",
        ),
        (
            lambda e: ops.broadcast(e.tensor.type, e.tensor, "mesh0", root=[DYNAMIC]),
            ValueError,
            "mesh.broadcast: root[0] is the dynamic marker: pass the ir.Value instead",
        ),
        (
            lambda e: ops.all_gather(e.tensor.type, e.tensor, "mesh0", 0, mesh_axes=[1 << 15]),
            ValueError,
            "mesh.all_gather: mesh_axes[0] is out of range: 32768",
        ),
        (
            lambda e: ops.all_gather(e.tensor.type, e.tensor, "mesh0", True),
            TypeError,
            "mesh.all_gather: gather_axis must be an int, got bool",
        ),
        (
            lambda e: ops.shard(e.tensor, "sharding"),
            TypeError,
            "mesh.shard: sharding must be an ir.Value, got str",
        ),
        (
            lambda e: ops.sharding("mesh0", "01"),
            TypeError,
            "mesh.sharding: split_axes must be a sequence, got str",
        ),
        (
            lambda e: ops.all_to_all(None, e.tensor, "mesh0", 0, 1),
            TypeError,
            "mesh.all_to_all: result_type must be an ir.Type, got NoneType",
        ),
    ],
)
def test_invalid_arguments_raise_before_reaching_cpp(
    env: Env, build: Callable[[Env], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        build(env)
    assert str(info.value) == message
    assert len(env.module.body.operations) == 3


def test_name_beginning_with_at_sign_is_the_symbols_own(env: Env) -> None:
    """A leading '@' is part of the name, as for `ir.FlatSymbolRefAttr`:
    MLIR quotes the symbol (the passes build ops on a mesh named so)."""
    with ir.InsertionPoint(env.module.body):
        ops.mesh("@m", [2])
        ops.process_linear_index("@m")
    text = env.generic()
    assert 'sym_name = "@m"' in text
    assert '"mesh.process_linear_index"() {mesh = @"@m"} : () -> index' in text


def test_unloaded_dialect_raises_instead_of_aborting() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body), pytest.raises(ValueError) as info:
            ops.mesh("m", [2])
    assert str(info.value) == ("mesh.mesh: the mesh dialect is not loaded in this context: call load_dialect(ctx)")


def test_loc_and_ip_are_keyword_only() -> None:
    for op in OPS:
        cls = getattr(ops, gen_ops._camel(op.name) + "Op")
        for fn in (cls.__init__, getattr(ops, op.name)):
            params = inspect.signature(fn).parameters
            assert params["loc"].kind is inspect.Parameter.KEYWORD_ONLY
            assert params["ip"].kind is inspect.Parameter.KEYWORD_ONLY
            assert params["loc"].default is None
            assert params["ip"].default is None
        assert cls.__doc__ == op.summary
        assert cls.OPERATION_NAME == op.full_name


def test_import_needs_no_context() -> None:
    code = "import mesh_dialect.ir.ops as o; print(o.AllGatherOp.OPERATION_NAME)"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "python")},
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "mesh.all_gather\n", "")


def test_generated_file_is_up_to_date() -> None:
    text = gen_ops.OUTPUT.read_text()
    assert text.startswith("# Generated by `python -m mesh_dialect.ir.gen_ops` from")
    assert text == gen_ops.generate()
    proc = subprocess.run(
        [sys.executable, "-m", "mesh_dialect.ir.gen_ops", "--check"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "python")},
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, "")


def test_check_fails_on_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = tmp_path / "ops.py"
    stale.write_text(gen_ops.generate() + "# edited by hand\n")
    monkeypatch.setattr(gen_ops, "OUTPUT", stale)
    assert gen_ops.main(["--check"]) == 1
    assert gen_ops.main([]) == 0
    assert gen_ops.main(["--check"]) == 0
    assert stale.read_text() == gen_ops.generate()


def test_operands_and_result_types_of_another_context_raise() -> None:
    """An operand or result type from another context than the op's is
    refused before anything is built: the op would use a value across
    contexts, which aborts the process once the value's module goes."""
    a, b = ir.Context(), ir.Context()
    load_dialect(a)
    load_dialect(b)
    with b, ir.Location.unknown():
        other = ir.Module.create()
        with ir.InsertionPoint(other.body):
            x = tensor.EmptyOp([4, 8], ir.F32Type.get()).result
        foreign_type = ir.RankedTensorType.get([8, 8], ir.F32Type.get())
    with a, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            ops.mesh("m", [2])
            s = ops.sharding("m", [[0]])
            with pytest.raises(ValueError) as info:
                ops.shard(x, s)
            assert str(info.value) == "mesh.shard: src is a value of another context than the op's"
            y = tensor.EmptyOp([4, 8], ir.F32Type.get()).result
            with pytest.raises(ValueError) as info:
                ops.all_gather(foreign_type, y, "m", 0, mesh_axes=[0])
            assert str(info.value) == "mesh.all_gather: result_type is a type of another context than the op's"
            with pytest.raises(ValueError) as info:
                ops.broadcast(y.type, y, "m", root=[x], mesh_axes=[0])
            assert str(info.value) == "mesh.broadcast: root[0] is a value of another context than the op's"
    assert [o.operation.name for o in module.body.operations] == ["mesh.mesh", "mesh.sharding", "tensor.empty"]
    module.operation.verify()
    del other, x
