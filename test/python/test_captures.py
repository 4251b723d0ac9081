"""`aligned_reads`: which dimensions of a tensor a `linalg.generic` body reads
from outside its op at the op's own loop indices, and which it must read
whole (any other index, another kind of read, another op's loop, a size
other than the loop's)."""

from __future__ import annotations

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.interfaces.captures import aligned_reads, masked_read

_PROGRAM = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%t: tensor<{table}xf32>, %x: tensor<8x6xf32>) -> tensor<8x6xf32> {{
  %g = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<8x6xf32>) outs(%x : tensor<8x6xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %k = arith.addi %i, %c1 : index
{body}
    linalg.yield %v : f32
  }} -> tensor<8x6xf32>
  return %g : tensor<8x6xf32>
}}
"""


def _maps(table: str, body: str) -> list[tuple]:
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(_PROGRAM.format(table=table, body=body), context=ctx)
    found: list[tuple] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "linalg.generic":
            found.extend(read.map for read in aligned_reads(op).values())
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


@pytest.mark.parametrize(
    ("table", "body", "expected"),
    [
        # rows and columns at the op's own indices
        ("8x6", "    %v = tensor.extract %t[%i, %j] : tensor<8x6xf32>", [(0, 1)]),
        # transposed: the table's rows follow loop 1
        ("6x8", "    %v = tensor.extract %t[%j, %i] : tensor<6x8xf32>", [(1, 0)]),
        # a computed row index: only the columns follow a loop
        ("8x6", "    %v = tensor.extract %t[%k, %j] : tensor<8x6xf32>", [(None, 1)]),
        # a dimension of another size than its loop's is read whole
        ("9x6", "    %v = tensor.extract %t[%i, %j] : tensor<9x6xf32>", [(None, 1)]),
        # a dynamic dimension too
        ("?x6", "    %v = tensor.extract %t[%i, %j] : tensor<?x6xf32>", [(None, 1)]),
        # one loop for two dimensions: the first takes it
        ("6x6", "    %v = tensor.extract %t[%j, %j] : tensor<6x6xf32>", [(1, None)]),
        # nothing follows a loop: read whole, not listed
        ("8x6", "    %v = tensor.extract %t[%k, %c1] : tensor<8x6xf32>", []),
        # two reads that disagree on the rows
        (
            "8x6",
            "    %p = tensor.extract %t[%i, %j] : tensor<8x6xf32>\n"
            "    %q = tensor.extract %t[%k, %j] : tensor<8x6xf32>\n"
            "    %v = arith.addf %p, %q : f32",
            [(None, 1)],
        ),
        # read by another op as well: whole
        (
            "8x6",
            "    %p = tensor.extract %t[%i, %j] : tensor<8x6xf32>\n"
            "    %d = tensor.dim %t, %c1 : tensor<8x6xf32>\n"
            "    %n = arith.index_cast %d : index to i32\n"
            "    %f = arith.sitofp %n : i32 to f32\n"
            "    %v = arith.addf %p, %f : f32",
            [],
        ),
        # inside a region nested in the body, still this op's loops
        (
            "8x6",
            "    %b = arith.cmpi slt, %i, %j : index\n"
            "    %v = scf.if %b -> f32 {\n"
            "      %p = tensor.extract %t[%i, %j] : tensor<8x6xf32>\n"
            "      scf.yield %p : f32\n"
            "    } else {\n"
            "      scf.yield %a : f32\n"
            "    }",
            [(0, 1)],
        ),
    ],
)
def test_aligned_dimensions(table: str, body: str, expected: list[tuple]) -> None:
    assert _maps(table, body) == expected


def test_an_index_of_a_nested_linalg_op_is_not_this_ops_loop() -> None:
    body = (
        "    %e = tensor.empty() : tensor<8xf32>\n"
        '    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}\n'
        "        outs(%e : tensor<8xf32>) {\n"
        "    ^bb0(%o2: f32):\n"
        "      %r = linalg.index 0 : index\n"
        "      %p = tensor.extract %t[%r, %j] : tensor<8x6xf32>\n"
        "      linalg.yield %p : f32\n"
        "    } -> tensor<8xf32>\n"
        "    %v = tensor.extract %n[%i] : tensor<8xf32>"
    )
    # for the outer op, the rows are read at the nested op's index and the
    # columns at its own loop 1; for the nested op, the rows follow its loop
    # 0 and the columns an index that is not its own
    assert _maps("8x6", body) == [(None, 1), (0, None)]


# -- masked reads ----------------------------------------------------------

_LOOKUP = """
#rows = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%t: tensor<{table}x{element}>, %ids: tensor<8xi64>) -> tensor<8x6x{element}> {{
  %e = tensor.empty() : tensor<8x6x{element}>
  %g = linalg.generic {{indexing_maps = [#rows, #id], iterator_types = [{iterators}]}}
      ins(%ids : tensor<8xi64>) outs(%e : tensor<8x6x{element}>) {{
  ^bb0(%id: i64, %o: {element}):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
{body}
    linalg.yield %v : {element}
  }} -> tensor<8x6x{element}>
  return %g : tensor<8x6x{element}>
}}
"""


def _masked_in(text: str):
    """`masked_read` of the one generic of `text`, and the module (the read
    holds its ops: keep it alive)."""
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    found: list = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "linalg.generic":
            found.append(masked_read(op))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    (read,) = found
    return read, module


def _masked(body: str, table: str = "50x6", element: str = "f32", iterators: str = '"parallel", "parallel"'):
    return _masked_in(_LOOKUP.format(table=table, element=element, body=body, iterators=iterators))


def test_a_lookup_at_a_token_id_is_masked_in_its_rows() -> None:
    read, _module = _masked("    %v = tensor.extract %t[%n, %j] : tensor<50x6xf32>")
    assert read is not None
    assert (read.dim, read.shape, len(read.extracts)) == (0, (50, 6), 1)
    assert read.aligned is not None and read.aligned.map == (None, 1)
    assert read.map_with(2) == (2, 1)  # the solver's extra loop indexes the rows
    assert read.index == read.extracts[0].operands[1]


def test_two_reads_at_one_id_share_the_mask() -> None:
    body = """    %c1 = arith.constant 1 : index
    %a = tensor.extract %t[%n, %j] : tensor<50x6xf32>
    %b = tensor.extract %t[%n, %c1] : tensor<50x6xf32>
    %v = arith.addf %a, %b : f32"""
    read, _module = _masked(body)
    assert read is not None and (read.dim, len(read.extracts)) == (0, 2)
    assert read.aligned is None  # the columns are read at a constant too: whole


@pytest.mark.parametrize(
    ("body", "table", "element", "iterators"),
    [
        # an index computed from the op's own loop: aligned or moved, never masked
        ("    %v = tensor.extract %t[%i, %j] : tensor<50x6xf32>", "50x6", "f32", '"parallel", "parallel"'),
        # two reads at different ids: no device holds both
        (
            """    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    %a = tensor.extract %t[%n, %j] : tensor<50x6xf32>
    %b = tensor.extract %t[%m, %j] : tensor<50x6xf32>
    %v = arith.addf %a, %b : f32""",
            "50x6",
            "f32",
            '"parallel", "parallel"',
        ),
        # the read value divides: arbitrary where the piece lacks the id
        (
            """    %a = tensor.extract %t[%n, %j] : tensor<50x6xi32>
    %c7 = arith.constant 7 : i32
    %v = arith.divsi %c7, %a : i32""",
            "50x6",
            "i32",
            '"parallel", "parallel"',
        ),
        # the read value indexes another read
        (
            """    %a = tensor.extract %t[%n, %j] : tensor<50x6xi32>
    %k = arith.index_cast %a : i32 to index
    %v = tensor.extract %t[%k, %j] : tensor<50x6xi32>""",
            "50x6",
            "i32",
            '"parallel", "parallel"',
        ),
        # booleans have no partial sum
        ("    %v = tensor.extract %t[%n, %j] : tensor<50x6xi1>", "50x6", "i1", '"parallel", "parallel"'),
        # nor a zero arith can make for a signed integer
        ("    %v = tensor.extract %t[%n, %j] : tensor<50x6xsi32>", "50x6", "si32", '"parallel", "parallel"'),
        # a dynamic vocabulary: its pieces are not known
        ("    %v = tensor.extract %t[%n, %j] : tensor<?x6xf32>", "?x6", "f32", '"parallel", "parallel"'),
        # the table is also read whole by another op of the body
        (
            """    %c0 = arith.constant 0 : index
    %d = tensor.dim %t, %c0 : tensor<50x6xf32>
    %a = tensor.extract %t[%n, %j] : tensor<50x6xf32>
    %df = arith.index_cast %d : index to i64
    %dv = arith.sitofp %df : i64 to f32
    %v = arith.addf %a, %dv : f32""",
            "50x6",
            "f32",
            '"parallel", "parallel"',
        ),
    ],
)
def test_reads_that_are_not_masked(body: str, table: str, element: str, iterators: str) -> None:
    assert _masked(body, table, element, iterators)[0] is None


def test_a_reduction_op_is_not_masked() -> None:
    text = """
#id = affine_map<(d0) -> (d0)>
#to0 = affine_map<(d0) -> ()>
func.func @f(%t: tensor<50xf32>, %ids: tensor<8xi64>, %acc: tensor<f32>) -> tensor<f32> {
  %g = linalg.generic {indexing_maps = [#id, #to0], iterator_types = ["reduction"]}
      ins(%ids : tensor<8xi64>) outs(%acc : tensor<f32>) {
  ^bb0(%id: i64, %o: f32):
    %n = arith.index_cast %id : i64 to index
    %v = tensor.extract %t[%n] : tensor<50xf32>
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %g : tensor<f32>
}
"""
    assert _masked_in(text)[0] is None
