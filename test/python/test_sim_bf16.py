"""bf16 in the simulator: held in f32, each value rounded to a bf16 as
MLIR's own parser rounds a literal, constants read back exactly (decimal
and hex text), inputs and partial terms that are bf16s, and results
rounded op by op."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir

import mesh_dialect
from mesh_dialect.sim import layout
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.floats import to_bf16
from mesh_dialect.sim.ops.core import tensor_constant


def _values(rng: np.random.Generator, n: int) -> np.ndarray:
    """f32 values over the whole range, exact ties between two bf16s (low
    half 0x8000, with either last kept bit), subnormals, infinities, NaN."""
    wide = (rng.standard_normal(n) * 10.0 ** rng.integers(-44, 38, n)).astype(np.float32)
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ties = ((bits & np.uint32(0x7F7F0000)) | np.uint32(0x8000)).view(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.4e38, -3.39e38, 1e-45, 1.00390625], np.float32)
    return np.concatenate([wide, ties, special])


def _literal(v: np.float32) -> str:
    """An f32's exact value as an MLIR literal (NaN and infinities by their bf16 bits)."""
    if np.isnan(v):
        return "0x7FC0"
    if np.isinf(v):
        return "0x7F80" if v > 0 else "0xFF80"
    return repr(float(v))


@pytest.mark.parametrize("count", [40, 3000])
def test_rounding_and_reading_agree_with_mlirs_parser(count):
    # MLIR rounds a decimal literal of an f32's exact value to bf16 itself
    # (APFloat, ties to even): the constant the simulator reads from its
    # text (a decimal list when short, hex bits when long) equals `to_bf16`
    # of the f32, bit for bit.
    values = _values(np.random.default_rng(count), count)
    literals = ", ".join(_literal(v) for v in values)
    with mesh_dialect.context():
        attr = ir.Attribute.parse(f"dense<[{literals}]> : tensor<{len(values)}xbf16>")
        assert str(attr).startswith('dense<"0x') == (count > 100)
        got = tensor_constant(attr, attr.type)
    want = to_bf16(values)
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_rounding_keeps_scalars_scalars_and_shapes():
    assert to_bf16(np.float32(3.14159)) == np.float32(3.140625)
    assert isinstance(to_bf16(np.float32(1.0)), np.float32)
    assert to_bf16(np.zeros((2, 0, 3), np.float32)).shape == (2, 0, 3)
    assert to_bf16(np.array(1.00390625, np.float32)).shape == ()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([2, 3, 4, 8]))
def test_property_partial_sum_terms_of_bf16_are_bf16s_that_add_up_exactly(seed, n):
    # Each device's term of a partial bf16 argument is a bf16, and every
    # sum of the first terms in group order is one too: the all_reduce
    # gives the value exactly, rounding after each addition or not.
    rng = np.random.default_rng(seed)
    x = to_bf16((rng.standard_normal((3, 5)) * 10.0 ** rng.integers(-3, 4, (3, 5))).astype(np.float32))
    terms = layout.partial_terms(x, "sum", n, rng, bf16=True)
    assert np.array_equal(to_bf16(terms), terms)
    assert np.array_equal(layout.combine(list(terms), "sum", np.float32), x)
    prefix = np.cumsum(terms, axis=0, dtype=np.float32)
    assert np.array_equal(to_bf16(prefix), prefix)
    # and the random terms are not the fixed ones (the value on one device)
    assert (np.count_nonzero(terms, axis=0) > 1).any()


_PROGRAM = """
mesh.mesh @mesh(shape = 2)
func.func @scale(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %c = arith.constant dense<1.0078125> : tensor<4xbf16>
  %y = arith.mulf %x, %c : tensor<4xbf16>
  return %y : tensor<4xbf16>
}
func.func @sum(%x: tensor<4xbf16> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<4xbf16> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %y = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xbf16> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}
"""


def test_inputs_and_every_result_are_rounded():
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    sim = Simulation(module.operation)
    x = np.array([1.0, 3.14159, 1.00390625, 255.9], np.float32)
    (got,) = sim.run("scale", [x])
    # the input is read as bf16s, and the product is rounded again
    rounded = to_bf16(x)
    assert rounded.tolist() == [1.0, 3.140625, 1.0, 256.0]  # (1 + 2**-8 is a tie: to even)
    assert got.tolist() == [1.0078125, 3.171875, 1.0078125, 258.0]


def test_partial_bf16_argument_reduces_to_its_value():
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    sim = Simulation(module.operation)
    x = np.array([1.0, -3.140625, 1e-3, 300.0], np.float32)
    for seed in range(5):
        (got,) = sim.run("sum", [x], seed=seed)
        assert got.tolist() == to_bf16(x).tolist()


def test_a_bitcast_of_bf16_is_refused_at_its_op():
    text = """
    func.func @f(%x: tensor<4xbf16>) -> tensor<4xi16> {
      %y = arith.bitcast %x : tensor<4xbf16> to tensor<4xi16>
      return %y : tensor<4xi16>
    }"""
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    with pytest.raises(Exception, match="'arith.bitcast' reinterprets the bits of a bf16"):
        Simulation(module.operation).run("f", [np.zeros(4, np.float32)])


def test_an_input_past_bf16s_range_is_refused():
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    with pytest.raises(Exception, match=r"input 0 of @scale holds 3\.4e\+38, which tensor<4xbf16> cannot hold"):
        Simulation(module.operation).run("scale", [np.array([1.0, 2.0, 3.0, 3.4e38])])
