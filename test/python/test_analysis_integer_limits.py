"""The analysis' integer evaluator follows `arith` at each value's width:
an i1 true is -1 read as signed and 1 read as unsigned (as MLIR's own
`arith.constant true` gives it), unsigned ops read their operands' bits at
the operands' width, and every result wraps to its type.  Each program
decides, per device, how many all_reduce ops run (a branch or a loop's trip
count), so a wrong integer shows as a wrong collective count."""

from __future__ import annotations

import pytest

import mesh_dialect
from mesh_dialect.analysis import analyze
from mesh_dialect.analysis.cost import _INT_OPS, _cmp, _signed, _unsigned

HEAD = """mesh.mesh @m(shape = 4)
func.func @f(%x: tensor<8xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>})
    -> (tensor<8xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %i = mesh.process_linear_index on @m : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %first = arith.cmpi eq, %i, %c0 : index
"""


def _reductions(text: str) -> list[int]:
    """all_reduce ops each device of @m runs."""
    module = mesh_dialect.parse(text, context=mesh_dialect.context(), filename="t.mlir")
    (f,) = analyze(module).functions
    return [d.collectives.get("all_reduce", 0) for d in f.devices]


def _branch(condition: str) -> str:
    """One all_reduce on the devices where `condition` (an i1) holds."""
    return (
        HEAD
        + condition
        + """
  %r = scf.if %cond -> (tensor<8xf32>) {
    %g = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
    scf.yield %g : tensor<8xf32>
  } else {
    scf.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
"""
    )


def _loop(bounds: str) -> str:
    """An all_reduce per trip of `scf.for %lb to %ub`."""
    return (
        HEAD
        + bounds
        + """
  %r = scf.for %k = %lb to %ub step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %g = mesh.all_reduce %acc on @m mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
    scf.yield %g : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
"""
    )


def test_cmpi_gives_true_as_constants_do():
    # Negating a comparison with `true` (what canonicalizers write): device
    # 0's comparison is true, so its negation is false.
    assert _reductions(_branch("  %cond = arith.xori %first, %true : i1")) == [0, 1, 1, 1]
    # A comparison's true equals the constant true.
    assert _reductions(_branch("  %cond = arith.cmpi eq, %first, %true : i1")) == [1, 0, 0, 0]
    # ... and is the largest i1 unsigned, the smallest signed.
    ordered = "  %f = arith.constant false\n  %cond = arith.cmpi ugt, %first, %f : i1"
    assert _reductions(_branch(ordered)) == [1, 0, 0, 0]
    ordered = "  %f = arith.constant false\n  %cond = arith.cmpi slt, %first, %f : i1"
    assert _reductions(_branch(ordered)) == [1, 0, 0, 0]


def test_i1_extends_signed_and_unsigned():
    # extui: true is 1, one trip from 0; extsi: true is -1, one trip up to 0.
    unsigned = (
        "  %w = arith.extui %first : i1 to i64\n  %lb = arith.constant 0 : index\n"
        "  %ub = arith.index_cast %w : i64 to index"
    )
    assert _reductions(_loop(unsigned)) == [1, 0, 0, 0]
    signed = (
        "  %w = arith.extsi %first : i1 to i64\n  %lb = arith.index_cast %w : i64 to index\n"
        "  %ub = arith.constant 0 : index"
    )
    assert _reductions(_loop(signed)) == [1, 0, 0, 0]
    cast = "  %lb = arith.constant 0 : index\n  %ub = arith.index_castui %first : i1 to index"
    assert _reductions(_loop(cast)) == [1, 0, 0, 0]


@pytest.mark.parametrize(
    ("op", "trips"),
    [
        ("arith.maxui", 255),  # -1 : i8 is 255 unsigned, more than 3
        ("arith.minui", 3),
        ("arith.maxsi", 3),
        ("arith.minsi", -1),  # no trip
        ("arith.divui", 85),  # 255 / 3
        ("arith.remui", 0),
    ],
)
def test_unsigned_ops_read_the_operands_width(op: str, trips: int):
    bounds = (
        "  %a = arith.constant -1 : i8\n"
        "  %b = arith.constant 3 : i8\n"
        f"  %v = {op} %a, %b : i8\n"
        "  %lb = arith.constant 0 : index\n"
        "  %ub = arith.index_castui %v : i8 to index\n"
    )
    if op.endswith("si"):
        bounds = bounds.replace("arith.index_castui %v", "arith.index_cast %v")
    assert _reductions(_loop(bounds)) == [max(trips, 0)] * 4


def test_results_wrap_to_their_width():
    # 127 + 1 wraps to -128 in i8: read unsigned, 128 trips.
    bounds = (
        "  %a = arith.constant 127 : i8\n"
        "  %one = arith.constant 1 : i8\n"
        "  %v = arith.addi %a, %one : i8\n"
        "  %lb = arith.constant 0 : index\n"
        "  %ub = arith.index_castui %v : i8 to index\n"
    )
    assert _reductions(_loop(bounds)) == [128] * 4
    # shrui shifts the unsigned bits: 255 >> 4 is 15 (an arithmetic shift gives -1).
    shifted = bounds.replace("127", "-1").replace("%one = arith.constant 1", "%one = arith.constant 4")
    shifted = shifted.replace("arith.addi", "arith.shrui")
    assert _reductions(_loop(shifted)) == [15] * 4


def test_evaluator_helpers():
    assert _cmp(0, -1, -1, 1) == -1 and _cmp(1, -1, -1, 1) == 0
    assert _cmp(8, -1, 0, 1) == -1  # ugt: 1 > 0
    assert _cmp(4, -1, 0, 1) == 0  # sgt: -1 > 0 is false
    assert _cmp(6, -1, 3, 64) == 0  # ult at 64 bits: 2**64 - 1 < 3 is false
    assert _signed(1, 1) == -1 and _signed(2, 1) == 0 and _signed(128, 8) == -128 and _signed(255, 64) == 255
    assert _unsigned(-1, 1) == 1 and _unsigned(-1, 8) == 255
    assert _signed(_INT_OPS["arith.maxui"](-1, 3, 8), 8) == -1
    assert _INT_OPS["arith.minui"](-1, 3, 8) == 3
    assert _INT_OPS["arith.maxui"](-1, 0, 1) == 1
    with pytest.raises(ValueError):
        _INT_OPS["arith.shli"](1, 8, 8)  # a shift by the width is poison: not evaluated
