"""`ir.control.trip_count` reads a loop's trip count from its counter only
when the IR says it, and says None otherwise: the solver and mesh-analysis
weigh a loop's body by it."""

from __future__ import annotations

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.ir.control import carried, trip_count

_WHILE = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %c0 = "stablehlo.constant"() <{{value = dense<{start}> : tensor<{ity}>}}> : () -> tensor<{ity}>
  %r:2 = "stablehlo.while"(%c0, %x) ({{
  ^bb0(%i: tensor<{ity}>, %a: tensor<4xf32>):
    %n = "stablehlo.constant"() <{{value = dense<{bound}> : tensor<{ity}>}}> : () -> tensor<{ity}>
    %t = "stablehlo.compare"({lhs}, {rhs})
      <{{{compare_type}comparison_direction = #stablehlo<comparison_direction {direction}>}}>
      : (tensor<{ity}>, tensor<{ity}>) -> tensor<i1>
    "stablehlo.return"(%t) : (tensor<i1>) -> ()
  }}, {{
  ^bb0(%i: tensor<{ity}>, %a: tensor<4xf32>):
    %s = "stablehlo.constant"() <{{value = dense<{step}> : tensor<{ity}>}}> : () -> tensor<{ity}>
    %j = "stablehlo.{op}"(%i, %s) : (tensor<{ity}>, tensor<{ity}>) -> tensor<{ity}>
    "stablehlo.return"(%j, %a) : (tensor<{ity}>, tensor<4xf32>) -> ()
  }}) : (tensor<{ity}>, tensor<4xf32>) -> (tensor<{ity}>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}}
"""


def _loop(**fields) -> tuple[ir.Operation, object]:
    values = {"start": 0, "bound": 3, "step": 1, "op": "add", "direction": "LT", "lhs": "%i", "rhs": "%n"}
    values |= {"ity": "i32", "compare_type": ""}
    values.update(fields)
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(_WHILE.format(**values), context=ctx, verify=False)
    found = []
    module.operation.walk(lambda op: found.append(op) or ir.WalkResult.ADVANCE)
    (loop,) = [op for op in found if op.name == "stablehlo.while"]
    return loop, module  # the module owns the op: keep it alive


@pytest.mark.parametrize(
    ("fields", "trips"),
    [
        ({}, 3),
        ({"start": 1, "bound": 10, "step": 4}, 3),
        ({"direction": "LE"}, 4),
        ({"direction": "NE", "bound": 6, "step": 2}, 3),
        ({"direction": "NE", "bound": 5, "step": 2}, None),  # never equal: runs until it wraps
        ({"start": 7, "bound": 1, "step": 2, "op": "subtract", "direction": "GT"}, 3),
        ({"start": 7, "bound": 1, "step": 2, "op": "subtract", "direction": "GE"}, 4),
        ({"start": 5, "bound": 3}, 0),
        ({"lhs": "%n", "rhs": "%i", "direction": "GT"}, 3),  # bound > counter
        ({"direction": "GT"}, 0),  # counting up while above a bound it starts below: no trip
        ({"direction": "GT", "start": 5}, None),  # ... or one it starts above: it never ends
        # what a counter of a narrow or unsigned type does is not read:
        ({"ity": "i8", "start": 5, "bound": 3, "direction": "NE"}, None),  # wraps round to 3
        ({"ity": "i8", "start": 120, "bound": 127, "step": 3}, None),  # 129 wraps below 127
        ({"ity": "i8", "start": 120, "bound": 127, "direction": "LE"}, None),  # never above 127
        ({"ity": "i8", "start": 120, "bound": 126, "step": 3}, 2),
        ({"start": -1, "compare_type": "compare_type = #stablehlo<comparison_type UNSIGNED>, "}, None),
        ({"step": 0}, None),
        ({"op": "multiply"}, None),
        ({"lhs": "%n", "rhs": "%n"}, None),
    ],
)
def test_trip_count(fields: dict, trips: int | None) -> None:
    loop, _module = _loop(**fields)
    assert trip_count(loop) == trips


def test_carried_values_of_a_while() -> None:
    loop, _module = _loop()
    cond, body = (loop.regions[i].blocks[0] for i in range(2))
    (returned,) = {y for value in carried(loop) for y, _ in value.yields}
    assert returned.block == body
    assert [(v.result, v.init, v.args, [i for _, i in v.yields]) for v in carried(loop)] == [
        (loop.results[k], k, [cond.arguments[k], body.arguments[k]], [k]) for k in range(2)
    ]


_SCF_WHILE = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%a = %x, %i = %c0) : (tensor<4xf32>, index) -> (index, tensor<4xf32>) {
    %t = arith.cmpi slt, %i, %i : index
    scf.condition(%t) %i, %a : index, tensor<4xf32>
  } do {
  ^bb0(%j: index, %b: tensor<4xf32>):
    scf.yield %b, %j : tensor<4xf32>, index
  }
  return %r#1 : tensor<4xf32>
}
"""


def test_an_scf_while_carries_into_its_condition_and_out_of_it() -> None:
    """Its inits go round through the condition's arguments and the body's
    yield; what scf.condition hands on goes to the body's arguments and the
    results, in the order it hands them (here swapped)."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(_SCF_WHILE, context=ctx)
    found = []
    module.operation.walk(lambda op: found.append(op) or ir.WalkResult.ADVANCE)
    (loop,) = [op for op in found if op.name == "scf.while"]
    before, after = (loop.regions[i].blocks[0] for i in range(2))
    values = carried(loop)
    assert [(v.result, v.init, v.args, [i for _, i in v.yields]) for v in values] == [
        (None, 0, [before.arguments[0]], [0]),
        (None, 1, [before.arguments[1]], [1]),
        (loop.results[0], None, [after.arguments[0]], [1]),
        (loop.results[1], None, [after.arguments[1]], [2]),
    ]
    assert [y.name for v in values for y, _ in v.yields] == ["scf.yield"] * 2 + ["scf.condition"] * 2
