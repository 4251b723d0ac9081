"""`interfaces.linear.term_operands`: which ops run on each device's terms of a
partial sum, and reading which operands as terms.  An op taken here that is
not exactly linear (a float negation, a product by an infinite or negative
factor) would make partition compute a wrong sum, so every refusal is
checked too."""

from __future__ import annotations

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.interfaces.linear import term_operands

_FUNC = """
func.func @f(%a: tensor<4x{t}>, %b: tensor<4x{t}>) -> tensor<4x{t}> {{
  %k = "stablehlo.constant"() <{{value = dense<{k}> : tensor<{t}>}}> : () -> tensor<{t}>
  %c = "stablehlo.broadcast_in_dim"(%k) <{{broadcast_dimensions = array<i64>}}> : (tensor<{t}>) -> tensor<4x{t}>
  %r = {op} : (tensor<4x{t}>, tensor<4x{t}>) -> tensor<4x{t}>
  return %r : tensor<4x{t}>
}}
"""


def _ways(op: str, t: str = "f32", k: str = "2.0") -> tuple[tuple[int, ...], ...]:
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(_FUNC.format(op=op, t=t, k=k), context=ctx, verify=False)
    found = []
    module.operation.walk(lambda o: found.append(o) or ir.WalkResult.ADVANCE)
    (r,) = [o for o in found if o.name == op.split('"')[1]]
    return term_operands(r)


@pytest.mark.parametrize(
    ("op", "t", "k", "ways"),
    [
        ('"stablehlo.add"(%a, %b)', "f32", "2.0", ((0, 1),)),
        ('"stablehlo.add"(%a, %b)', "i32", "2", ((0, 1),)),
        ('"stablehlo.add"(%a, %b)', "i1", "true", ()),  # an or
        ('"stablehlo.subtract"(%a, %b)', "i32", "2", ((0, 1),)),
        ('"stablehlo.subtract"(%a, %b)', "f32", "2.0", ()),  # -0.0 terms would negate to +0.0
        ('"stablehlo.multiply"(%a, %b)', "i32", "2", ((0,), (1,))),  # wrapping: any factor
        ('"stablehlo.multiply"(%a, %b)', "f32", "2.0", ()),  # no constant factor
        ('"stablehlo.multiply"(%a, %c)', "f32", "0.25", ((0,),)),
        ('"stablehlo.multiply"(%c, %b)', "f32", "0.25", ((1,),)),
        ('"stablehlo.multiply"(%a, %c)', "f32", "-2.0", ()),  # -0.0 * -2 is +0.0
        ('"stablehlo.multiply"(%a, %c)', "f32", "0.0", ()),
        ('"stablehlo.multiply"(%a, %c)', "f32", "0x7F800000", ()),  # inf: terms of both signs give NaN
        ('"stablehlo.multiply"(%a, %c)', "f32", "1.0", ((0,),)),
        ('"stablehlo.multiply"(%a, %c)', "f16", "2048.0", ()),  # a term may overflow where its total does not
        ('"stablehlo.divide"(%a, %c)', "f32", "3.0", ((0,),)),
        ('"stablehlo.divide"(%a, %c)', "f32", "1.0", ((0,),)),
        ('"stablehlo.divide"(%a, %c)', "f32", "0.5", ()),  # grows the terms as a product by 2
        ('"stablehlo.divide"(%c, %a)', "f32", "3.0", ()),
        ('"stablehlo.divide"(%a, %c)', "i32", "3", ()),  # each term would round
        ('"stablehlo.maximum"(%a, %b)', "f32", "2.0", ()),
    ],
)
def test_term_operands(op: str, t: str, k: str, ways: tuple) -> None:
    assert _ways(op, t, k) == ways
