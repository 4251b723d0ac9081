"""mesh-partition's fast paths change nothing: ops left as they are when all
their values are whole, `Value.owner` read from the ops it visited, the
memoized piece check, the collectives made from remembered attributes, the
C API asked whether a value is used, and the body walk for `linalg.index`
done once per rule.  Every input partition's lit tests and random programs are
partitioned with and without them, and the outputs (or the errors) must be
the same text."""

from __future__ import annotations

import contextlib
import pathlib

import pytest
from hypothesis import given, settings
from mlir import ir
from mlir.passmanager import PassManager
from test_sharding_propagation import programs

import mesh_dialect
from mesh_dialect.transforms import MeshPartition
from mesh_dialect.transforms.partition import mesh_partition as mp

ROOT = pathlib.Path(__file__).resolve().parents[1]
INPUTS = sorted(
    [
        *ROOT.glob("Transforms/mesh-partition*.mlir"),
        *ROOT.glob("Sim/partition/*.mlir"),
        *ROOT.glob("Sim/uneven/*.mlir"),
        *ROOT.glob("Sim/halo/*.mlir"),
        *ROOT.glob("Sim/stablehlo/*.mlir"),
    ]
)


class _Forgetful(dict):
    """A memo table that never remembers."""

    def get(self, key, default=None):
        return default

    def __contains__(self, key) -> bool:
        return False

    def __setitem__(self, key, value) -> None:
        pass

    def add(self, key) -> None:
        pass


@contextlib.contextmanager
def _slow():
    """Partition without its fast paths."""
    init = mp._Partition.__init__

    def plain_init(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self.pieces_fit = _Forgetful()
        self.collectives = _Forgetful()
        self.plan_steps = _Forgetful()
        self.outer_blocks = _Forgetful()
        self.totals_of = _Forgetful()
        self.index_free = _Forgetful()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mp, "_skippable_name", lambda name: False)
        patch.setattr(mp, "_first_use", False)  # the bindings' use iterator
        patch.setattr(mp._Partition, "owner", lambda self, value: value.owner)
        patch.setattr(mp._Partition, "__init__", plain_init)
        yield


def _partitioned(text: str, propagate: bool, **options) -> str:
    ctx = mesh_dialect.context()
    ctx.allow_unregistered_dialects = True
    try:
        module = mesh_dialect.parse(text, context=ctx)
    except Exception:  # noqa: BLE001 - inputs of diagnostics tests
        return "unparsed"
    pm = PassManager("builtin.module", context=ctx)
    if propagate:
        mesh_dialect.ShardingPropagation().add_to(pm)
    MeshPartition(**options).add_to(pm)
    try:
        with ctx:
            pm.run(module)
    except ir.MLIRError as e:
        return "error: " + "\n".join(d.message for d in e.error_diagnostics)
    return mesh_dialect.print_ir(module)


def _same_both_ways(text: str, propagate: bool, **options) -> str:
    fast = _partitioned(text, propagate, **options)
    with _slow():
        slow = _partitioned(text, propagate, **options)
    assert fast == slow
    return fast


def _chunks(path: pathlib.Path) -> list[str]:
    return [c for c in path.read_text().split("// -----") if "mesh." in c]


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_lit_inputs_partition_the_same(path: pathlib.Path) -> None:
    for chunk in _chunks(path):
        for propagate in (False, True):
            _same_both_ways(chunk, propagate)
        _same_both_ways(chunk, False, full_arguments=True)


MLP = """
#map = affine_map<(d0, d1) -> (d0, d1)>
mesh.mesh @mesh(shape = 4)
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>,
               %w3: tensor<64x128xf32>, %w4: tensor<128x64xf32>) -> tensor<8x64xf32> {
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %a0 = mesh.shard %x to IN : tensor<8x64xf32>
  %v1 = mesh.shard %w1 to %col annotate_for_users : tensor<64x128xf32>
  %e1 = tensor.empty() : tensor<8x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %m1 = linalg.matmul ins(%a0, %v1 : tensor<8x64xf32>, tensor<64x128xf32>)
                      outs(%f1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x128xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<8x128xf32>) outs(%e2 : tensor<8x128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %relu = arith.maximumf %in, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<8x128xf32>
  %v2 = mesh.shard %w2 to %row annotate_for_users : tensor<128x64xf32>
  %e3 = tensor.empty() : tensor<8x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %a1 = linalg.matmul ins(%r, %v2 : tensor<8x128xf32>, tensor<128x64xf32>)
                      outs(%f3 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %v3 = mesh.shard %w3 to %col annotate_for_users : tensor<64x128xf32>
  %e4 = tensor.empty() : tensor<8x128xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %m2 = linalg.matmul ins(%a1, %v3 : tensor<8x64xf32>, tensor<64x128xf32>)
                      outs(%f4 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %v4 = mesh.shard %w4 to %row annotate_for_users : tensor<128x64xf32>
  %e5 = tensor.empty() : tensor<8x64xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %a2 = linalg.matmul ins(%m2, %v4 : tensor<8x128xf32>, tensor<128x64xf32>)
                      outs(%f5 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %out = mesh.shard %a2 to %rep annotate_for_users : tensor<8x64xf32>
  return %out : tensor<8x64xf32>
}
"""


@pytest.mark.parametrize("layout", ["%rep", "%col"])
def test_mlp_partitions_the_same(layout: str) -> None:
    out = _same_both_ways(MLP.replace("IN", layout), True)
    assert "mesh.all_reduce" in out and "mesh.sharding_option" not in out


WHOLE_OPS = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill {mesh.sharding_option = #mesh.sharding<@mesh, [[]]>} ins(%zero : f32)
       outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = arith.constant dense<1.0> : tensor<4x4xf32>
  %g = arith.addf %f, %c : tensor<4x4xf32>
  %h = mesh.shard %g to %s annotate_for_users : tensor<4x4xf32>
  %r = arith.addf %a, %h : tensor<4x4xf32>
  %r0 = mesh.shard %r to %s : tensor<4x4xf32>
  return %r0 : tensor<4x4xf32>
}
"""


def test_ops_on_whole_values_lose_only_their_option() -> None:
    out = _same_both_ways(WHOLE_OPS, False)
    assert "mesh.sharding_option" not in out
    assert "linalg.fill ins(%cst : f32) outs(%0 : tensor<4x4xf32>)" in out  # whole, left as it is
    assert "mesh.all_slice" in out


@settings(max_examples=40, deadline=None)
@given(programs())
def test_random_programs_partition_the_same(text: str) -> None:
    _same_both_ways(text, True)


USES = """
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %x = arith.addf %a, %a : tensor<4xf32>
  %y = arith.addf %x, %a : tensor<4xf32>
  %unused = arith.mulf %y, %y : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


def test_uses_from_the_c_api_are_the_iterators() -> None:
    """`_has_uses` answers as the bindings' use iterator does (which ends
    in a C++ exception): for none, one and several uses, block arguments
    too, and for a value whose last use is dropped."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(USES, context=ctx)
    block = module.regions[0].blocks[0].operations[0].regions[0].blocks[0]
    ops = list(block.operations)
    values = [*block.arguments, *(r for op in ops for r in op.results)]
    # %a (twice by %x, once by %y), %b, %x, %y (twice by %unused, once by the return), %unused
    assert [mp._has_uses(v) for v in values] == [True, False, True, True, False]
    assert [mp._has_uses(v) for v in values] == [next(iter(v.uses), None) is not None for v in values]
    ops[2].erase()  # %unused: %y keeps the return's use
    ops[1].operation.operands[1] = block.arguments[1]  # %y no longer reads %a: %x still does
    assert [mp._has_uses(v) for v in block.arguments] == [True, True]
    ops[1].operation.operands[0] = block.arguments[1]  # nor %x
    assert [mp._has_uses(v) for v in (*block.arguments, ops[0].result)] == [True, True, False]


INDEXED = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %plain = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                           iterator_types = ["parallel"]} ins(%x0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %a : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %p0 = mesh.shard %plain to %s : tensor<8xf32>
  %iota = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                          iterator_types = ["parallel"]} ins(%x0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %y = arith.addf %a, %f : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %i0 = mesh.shard %iota to %s : tensor<8xf32>
  return %p0, %i0 : tensor<8xf32>, tensor<8xf32>
}
"""


def test_a_rule_shared_by_bodies_with_and_without_an_index() -> None:
    """The body walk for `linalg.index` is done once per built-in rule (its
    signature names the body's ops), never per registered rule, which may
    be one object for any body: the second generic below reads its index
    after the first, which does not, fixed the memo."""
    from mesh_dialect.interfaces import registry

    assert _same_both_ways(INDEXED, False).count("arith.addi") == 1
    module = mesh_dialect.parse(INDEXED, context=mesh_dialect.context())
    func = module.regions[0].blocks[0].operations[1]
    shared = registry.rule_for(func.regions[0].blocks[0].operations[3])  # the generic without an index
    assert shared is not None
    previous = registry.register_rule("linalg.generic", lambda op: shared)
    try:
        out = _same_both_ways(INDEXED, False)
    finally:
        registry.register_rule("linalg.generic", previous)
    assert out.count("arith.addi") == 1
    assert out.index("linalg.index") < out.index("arith.addi")
