"""Index arithmetic between a loop index and a read from outside the op
(`index_chains`): which chains `aligned_reads` takes as `i floordiv s`
(nearest up-sampling as torch-mlir writes it, and plainer spellings), and
which it must read whole."""

from __future__ import annotations

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.interfaces.captures import aligned_reads
from mesh_dialect.interfaces.index_chains import divides_by

_PROGRAM = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%t: tensor<{table}xf32>, %x: tensor<{loops}xf32>) -> tensor<{loops}xf32> {{
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %third = arith.constant 0.333333343 : f32
  %three = arith.constant 3.0 : f32
  %top = arith.constant {top} : f32
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %g = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<{loops}xf32>) outs(%x : tensor<{loops}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
{body}
    %v = tensor.extract %t[%r, %j] : tensor<{table}xf32>
    linalg.yield %v : f32
  }} -> tensor<{loops}xf32>
  return %g : tensor<{loops}xf32>
}}
"""

# torch-mlir's nearest up-sampling: clamp(floor(float(i) / s), 0, top)
_TORCH = """    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    %q = arith.divf %f, {div}{flags} : f32
    %fl = math.floor %q : f32
    %lo = arith.maximumf %fl, %zero : f32
    %hi = arith.minimumf %lo, %top : f32
    %n = arith.fptosi %hi : f32 to i64
    %r = arith.index_cast %n : i64 to index"""

_MUL = """    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %q = arith.mulf %f, {factor} : f32
    %fl = math.floor %q : f32
    %n = arith.fptosi %fl : f32 to i32
    %r = arith.index_cast %n : i32 to index"""


# floor(%q) clamped to [0, top], through i32
_CLAMP_I32 = """    %fl = math.floor %q : f32
    %lo = arith.maximumf %fl, %zero : f32
    %hi = arith.minimumf %lo, %top : f32
    %k = arith.fptosi %hi : f32 to i32
    %r = arith.index_cast %k : i32 to index"""


def _reads(table: str, loops: str, body: str, top: float = 1e6) -> list[tuple]:
    ctx = mesh_dialect.context()
    text = _PROGRAM.format(table=table, loops=loops, body=body, top=top)
    module = mesh_dialect.parse(text, context=ctx)
    found: list[tuple] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "linalg.generic":
            found.extend((read.map, read.scales) for read in aligned_reads(op).values())
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


@pytest.mark.parametrize(
    ("table", "loops", "body", "top", "expected"),
    [
        # torch-mlir's spelling, its clamp at the last row never reached
        ("8x6", "16x6", _TORCH.format(div="%two", flags=""), 7.0, [((0, 1), (2, 1))]),
        # the clamp bites at the last two rows: not i floordiv 2, rows whole
        ("8x6", "16x6", _TORCH.format(div="%two", flags=""), 6.0, [((None, 1), (1, 1))]),
        # a scale of three, and a multiplication by the reciprocal
        ("4x6", "12x6", _TORCH.format(div="%three", flags=""), 3.0, [((0, 1), (3, 1))]),
        ("8x6", "16x6", _MUL.format(factor="%half"), 1e6, [((0, 1), (2, 1))]),
        ("4x6", "12x6", _MUL.format(factor="%third"), 1e6, [((0, 1), (3, 1))]),
        # integer division
        ("8x6", "16x6", "    %r = arith.floordivsi %i, %c2 : index", 1e6, [((0, 1), (2, 1))]),
        ("8x6", "16x6", "    %r = arith.divui %i, %c2 : index", 1e6, [((0, 1), (2, 1))]),
        # the loop is not the table's size times the scale the chain divides by
        ("6x6", "16x6", "    %r = arith.floordivsi %i, %c2 : index", 1e6, [((None, 1), (1, 1))]),
        ("8x6", "16x6", "    %r = arith.floordivsi %i, %c3 : index", 1e6, [((None, 1), (1, 1))]),
        # an index cast back and forth reads at i itself
        (
            "16x6",
            "16x6",
            "    %n = arith.index_cast %i : index to i32\n    %r = arith.index_cast %n : i32 to index",
            1e6,
            [((0, 1), (1, 1))],
        ),
        # a cast that wraps (i8 holds up to 127): not i floordiv 2
        (
            "150x6",
            "300x6",
            "    %n = arith.index_cast %i : index to i8\n"
            "    %q = arith.floordivsi %n, %c2i8 : i8\n"
            "    %r = arith.index_cast %q : i8 to index",
            1e6,
            [((None, 1), (1, 1))],
        ),
        # an unsigned reading of a negative value: MLIR's uitofp reads -i as
        # 256 - i, not as the clamp to row 0 that numpy's signed cast would give
        (
            "8x6",
            "16x6",
            "    %n = arith.index_cast %i : index to i8\n"
            "    %c0i8 = arith.constant 0 : i8\n"
            "    %m = arith.subi %c0i8, %n : i8\n"
            "    %f = arith.uitofp %m : i8 to f32\n"
            "    %mh = arith.constant -5.000000e-01 : f32\n"
            "    %q = arith.mulf %f, %mh : f32\n" + _CLAMP_I32,
            7.0,
            [((None, 1), (1, 1))],
        ),
        # fptoui into the upper half of i8, read back signed: MLIR wraps to -126
        (
            "8x6",
            "16x6",
            "    %n = arith.index_cast %i : index to i32\n"
            "    %f = arith.sitofp %n : i32 to f32\n"
            "    %c128 = arith.constant 1.280000e+02 : f32\n"
            "    %u = arith.addf %f, %c128 : f32\n"
            "    %b = arith.fptoui %u : f32 to i8\n"
            "    %g = arith.sitofp %b : i8 to f32\n"
            "    %v0 = arith.subf %g, %c128 : f32\n"
            "    %q = arith.divf %v0, %two : f32\n" + _CLAMP_I32,
            7.0,
            [((None, 1), (1, 1))],
        ),
        # fast-math may divide by multiplying with the reciprocal: not trusted
        ("8x6", "16x6", _TORCH.format(div="%two", flags=" fastmath<fast>"), 7.0, [((None, 1), (1, 1))]),
        # a chain value read twice: the chain is not the extract's alone
        (
            "8x6",
            "16x6",
            "    %r = arith.floordivsi %i, %c2 : index\n"
            "    %s = arith.addi %r, %r : index\n"
            "    %u = arith.index_cast %s : index to i32",
            1e6,
            [((None, 1), (1, 1))],
        ),
    ],
)
def test_scaled_reads(table: str, loops: str, body: str, top: float, expected: list[tuple]) -> None:
    if "%c2i8" in body:
        body = "    %c2i8 = arith.constant 2 : i8\n" + body
    assert _reads(table, loops, body, top) == expected


def test_a_loop_too_long_to_run_the_chain_on_is_not_aligned() -> None:
    ctx = mesh_dialect.context()
    body = "    %r = arith.floordivsi %i, %c2 : index"
    module = mesh_dialect.parse(_PROGRAM.format(table="8x6", loops="16x6", body=body, top=1e6), context=ctx)
    index: list[ir.Operation] = []
    module.operation.walk(
        lambda op: (index.append(op) if op.name == "linalg.index" else None, ir.WalkResult.ADVANCE)[1]
    )
    assert divides_by(index[0], [], 16, 1)
    assert not divides_by(index[0], [], (1 << 24) + 1, 1)
