"""The graph `extract` gives the cost solver: every value an op reads or
makes is costed as its IR type says (shape, dynamic dimensions, element
bytes), however `extract` avoids asking the IR for it (an annotation's
value costed as its source, a fill's result as its init)."""

from __future__ import annotations

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
import mesh_dialect.transforms.propagation.sharding_propagation as sp
from mesh_dialect import ShardingPropagation
from mesh_dialect.transforms.propagation.graph import costed_value

# A scalar constant comes first: the non-tensor values `extract` meets must
# not stand for the tensors after them.
PROGRAM = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<?x4xf32>, %b: tensor<4x6xf16>, %n: index) -> tensor<?x6xf32> {
  %z = arith.constant 0.0 : f32
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<?x4xf32>
  %b1 = mesh.shard %b to %s annotate_for_users : tensor<4x6xf16>
  %e = tensor.empty(%n) : tensor<?x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x6xf32>) -> tensor<?x6xf32>
  %e2 = tensor.empty() : tensor<4x6xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = arith.extf %b1 : tensor<4x6xf16> to tensor<4x6xf32>
  %w = arith.addf %c, %f2 : tensor<4x6xf32>
  %m = linalg.matmul ins(%a1, %w : tensor<?x4xf32>, tensor<4x6xf32>) outs(%f : tensor<?x6xf32>) -> tensor<?x6xf32>
  return %m : tensor<?x6xf32>
}
"""


@pytest.fixture()
def extracted(monkeypatch):
    """The pass's function, graph and node references, as `solve_by_cost`
    got them (the module kept alive: the function's values point into it)."""
    seen = []

    def spy(fn):
        graph, refs = extract(fn)
        seen.append((fn, graph, refs))
        return graph, refs

    extract = sp.extract
    monkeypatch.setattr(sp, "extract", spy)
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(PROGRAM, context=ctx)
    pm = PassManager("builtin.module", context=ctx)
    ShardingPropagation().add_to(pm)
    with ctx, ir.Location.unknown():
        pm.run(module.operation)
    assert len(seen) == 1
    yield seen[0]
    del module


def test_every_value_an_op_reads_or_makes_is_costed_as_its_type(extracted):
    fn, graph, refs = extracted
    checked = []
    for node, (kind, index, _) in zip(graph.nodes, refs):
        if kind != "op":
            continue
        operands, results = fn.io[index]
        for values, ids in ((operands, node.operands), (results, node.results)):
            for v, k in zip(values, ids, strict=True):
                if not isinstance(v.type, ir.RankedTensorType):
                    assert k == -1
                    continue
                assert k >= 0
                want, got = costed_value(v.type), graph.values[k]
                assert (got.shape, got.element_bytes, got.dynamic) == (want.shape, want.element_bytes, want.dynamic)
                checked.append(fn.names[index])
    # the matmul (its annotated operand, its operand made from an annotated
    # f16 value, its filled init), the add (a fill of a static empty) and the extf
    assert checked.count("linalg.matmul") == 4
    assert checked.count("arith.addf") == 3 and checked.count("arith.extf") == 2


def test_fills_of_whole_empties_are_one_whole_value_per_type(extracted):
    fn, graph, refs = extracted
    by_name = {fn.names[index]: node for node, (kind, index, _) in zip(graph.nodes, refs) if kind == "op"}
    init = graph.values[by_name["linalg.matmul"].operands[2]]
    added = graph.values[by_name["arith.addf"].operands[1]]
    assert init.producer is None and init.shape == (128, 6) and init.dynamic == (0,)
    assert added.producer is None and added.shape == (4, 6) and added.dynamic == ()
    assert "linalg.fill" not in by_name and "tensor.empty" not in by_name
