"""`aligned_reads`: which dimensions of a tensor a `linalg.generic` body reads
from outside its op at the op's own loop indices, and which it must read
whole (any other index, another kind of read, another op's loop, a size
other than the loop's)."""

from __future__ import annotations

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.interfaces.captures import aligned_reads

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
