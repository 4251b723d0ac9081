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
        ('"stablehlo.add"(%a, %b)', "f16", "2.0", ()),  # a device's own sums overflow f16 at real sizes
        ('"stablehlo.add"(%a, %a)', "f32", "2.0", ()),  # doubles a term, as a product by 2 would
        ('"stablehlo.add"(%a, %a)', "i32", "2", ((0, 1),)),  # wrapping: any multiple
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


_GENERIC = """
#id = affine_map<(i) -> (i)>
func.func @f(%a: tensor<4x{t}>, %b: tensor<4x{t}>, %o: tensor<4x{t}>, %q: {t}) -> tensor<4x{t}> {{
  %k = arith.constant {k} : {t}
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%a, %b : tensor<4x{t}>, tensor<4x{t}>) outs(%o : tensor<4x{t}>) {{
  ^bb0(%x: {t}, %y: {t}, %z: {t}):
    {body}
    linalg.yield %v : {t}
  }} -> tensor<4x{t}>
  return %r : tensor<4x{t}>
}}
"""


def _generic_ways(body: str, t: str, k: str) -> tuple[tuple[int, ...], ...]:
    module = mesh_dialect.parse(_GENERIC.format(body=body, t=t, k=k), context=mesh_dialect.context(), verify=True)
    found = []
    module.operation.walk(lambda o: found.append(o) or ir.WalkResult.ADVANCE)
    (r,) = [o for o in found if o.name == "linalg.generic"]
    return term_operands(r)


@pytest.mark.parametrize(
    ("body", "t", "k", "ways"),
    [
        ("%v = arith.addf %x, %y : f32", "f32", "2.0", ((0, 1),)),
        ("%v = arith.addf %x, %z : f32", "f32", "2.0", ((0, 2),)),  # the init read: a term too
        ("%v = arith.addf %x, %x : f32", "f32", "2.0", ()),  # doubles a term, as a product by 2 would
        ("%h = arith.mulf %x, %k : f32\n    %v = arith.addf %h, %h : f32", "f32", "0.5", ((0,),)),
        ("%v = arith.addf %x, %y : f16", "f16", "2.0", ()),  # a device's own sums overflow f16 at real sizes
        ("%v = arith.addi %x, %x : i32", "i32", "2", ((0,),)),  # wrapping: any multiple
        ("%v = arith.addf %x, %k : f32", "f32", "2.0", ()),  # the constant would be added once per device
        ("%s = arith.addf %x, %y : f32\n    %v = arith.mulf %s, %k : f32", "f32", "0.5", ((0, 1),)),
        ("%s = arith.addf %x, %y : f32\n    %v = arith.mulf %k, %s : f32", "f32", "2.0", ()),  # grows a term
        ("%v = arith.mulf %x, %k : f32", "f32", "-0.5", ()),  # -0.0 * -0.5 is +0.0
        ("%v = arith.mulf %x, %y : f32", "f32", "0.5", ()),  # a product of terms
        ("%v = arith.divf %x, %k : f32", "f32", "4.0", ((0,),)),
        ("%v = arith.divf %x, %k : f32", "f32", "0.5", ()),
        ("%v = arith.divf %k, %x : f32", "f32", "4.0", ()),
        ("%v = arith.subf %x, %y : f32", "f32", "2.0", ()),  # -0.0 terms would negate to +0.0
        ("%v = arith.maximumf %x, %y : f32", "f32", "2.0", ()),
        ("%c = arith.constant 0.25 : f32\n    %v = arith.mulf %x, %c : f32", "f32", "2.0", ((0,),)),
        ("%v = arith.subi %x, %y : i32", "i32", "2", ((0, 1),)),
        ("%v = arith.muli %x, %k : i32", "i32", "-3", ((0,),)),  # wrapping: any factor
        ("%v = arith.muli %x, %y : i32", "i32", "3", ()),
        ("%v = arith.addi %x, %y : i1", "i1", "1", ()),  # an or
        ("%v = arith.addf %y, %z : f32", "f32", "2.0", ((1, 2),)),
        ("%v = arith.addf %x, %q : f32", "f32", "2.0", ()),  # an outside scalar, added on every device
        ("%v = arith.mulf %x, %q : f32", "f32", "2.0", ()),  # an outside factor of unknown size
    ],
)
def test_generic_terms(body: str, t: str, k: str, ways: tuple) -> None:
    assert _generic_ways(body, t, k) == ways
