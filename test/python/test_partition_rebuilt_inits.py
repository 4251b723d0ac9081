"""mesh-partition's memo tables for reshards (the types of one change of
layout, what a local type says of itself) and the inits it records as
rebuilt change nothing: outputs are the same text with the tables
forgetting everything, and whole inits rebuilt in two layouts are erased
once."""

from __future__ import annotations

import contextlib

import pytest
from test_partition_fast_paths import INPUTS, _chunks, _Forgetful, _partitioned

from mesh_dialect.transforms.partition import mesh_partition as mp


@contextlib.contextmanager
def _forgetful():
    """Partition with the reshard memo tables forgetting everything."""
    init = mp._Partition.__init__

    def plain_init(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self.reshard_types = _Forgetful()
        self.empty_facts = _Forgetful()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mp._Partition, "__init__", plain_init)
        yield


def _same_both_ways(text: str, propagate: bool, **options) -> str:
    fast = _partitioned(text, propagate, **options)
    with _forgetful():
        slow = _partitioned(text, propagate, **options)
    assert fast == slow
    return fast


TWO_LAYOUTS = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %f_row = mesh.shard %f to %row annotate_for_users : tensor<4x4xf32>
  %f_col = mesh.shard %f to %col annotate_for_users : tensor<4x4xf32>
  %a_row = mesh.shard %a to %row annotate_for_users : tensor<4x4xf32>
  %b_col = mesh.shard %b to %col annotate_for_users : tensor<4x4xf32>
  %x = arith.addf %a_row, %f_row : tensor<4x4xf32>
  %x0 = mesh.shard %x to %row : tensor<4x4xf32>
  %x2 = arith.addf %x0, %f_row : tensor<4x4xf32>
  %x3 = mesh.shard %x2 to %row : tensor<4x4xf32>
  %y = arith.addf %b_col, %f_col : tensor<4x4xf32>
  %y0 = mesh.shard %y to %col : tensor<4x4xf32>
  return %x3, %y0 : tensor<4x4xf32>, tensor<4x4xf32>
}
"""


def test_an_init_rebuilt_in_two_layouts_is_erased_once() -> None:
    out = _same_both_ways(TWO_LAYOUTS, False)
    body = out.split("{\n", 2)[2]  # after the signature, which spells the whole types
    assert body.count("linalg.fill") == 2 and body.count("tensor.empty") == 2
    assert "tensor<2x4xf32>" in body and "tensor<4x2xf32>" in body and "tensor<4x4xf32>" not in body


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_lit_inputs_partition_the_same(path) -> None:
    for chunk in _chunks(path):
        _same_both_ways(chunk, True)
        _same_both_ways(chunk, False, full_arguments=True)
