"""Sharding rules: the loop nest each op family is given (on real parsed
ops), the two algorithms between tensor shardings and loop shardings (the
MLP walkthrough's matmuls, conflicts, broadcasting, partial reductions,
transposes), and their round trip as a property."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir

import mesh_dialect
from mesh_dialect.interfaces import (
    INVALID,
    LOOP_REDUCTION_KINDS,
    Conflict,
    Iterator,
    ShardingRule,
    option_from_lists,
    option_from_shardings,
    option_to_lists,
    register_rule,
    registry,
    rule_for,
    shardings_from_option,
    validate_option,
)
from mesh_dialect.interfaces.rules import (
    Crop,
    Scan,
    Window,
    cheapest_crop_cut,
    clash_moves,
    crop_layout,
    moved_options,
    option_from_requests,
    uncropped,
)
from mesh_dialect.sharding import Sharding

P = Iterator.parallel()
SUM = Iterator.reduction("sum")
MAX = Iterator.reduction("max")
BAD = Iterator.invalid()


def S(split=(), partial=(), kind="sum") -> Sharding:  # noqa: N802 - reads like the IR's sharding
    return Sharding(tuple(tuple(a) for a in split), tuple(partial), kind)


def R(iterators, operands, results) -> ShardingRule:  # noqa: N802
    return ShardingRule(tuple(iterators), tuple(operands), tuple(results))


@functools.cache
def _context() -> ir.Context:
    return mesh_dialect.context(allow_unregistered_dialects=True)


def rules_of(body: str, args: str) -> dict[str, list[ShardingRule | None]]:
    """Parse `body` inside a function and return the rules of its ops by name."""
    text = f"func.func @f({args}) {{\n{body}\n  return\n}}"
    module = mesh_dialect.parse(text, context=_context())
    found: dict[str, list[ShardingRule | None]] = {}

    def visit(op: ir.Operation) -> ir.WalkResult:
        found.setdefault(op.name, []).append(rule_for(op))
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


# ---------------------------------------------------------------------------
# Rules of real ops: linalg


def test_linalg_matmul_has_the_init_operand_mapped_like_the_result():
    rules = rules_of(
        "%0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>)"
        " -> tensor<4x16xf32>",
        "%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>",
    )
    assert rules["linalg.matmul"] == [R([P, P, SUM], [(0, 2), (2, 1), (0, 1)], [(0, 1)])]
    assert rules["arith.mulf"] == rules["arith.addf"] == rules["linalg.yield"] == [None]  # scalars in the body
    assert str(rules["linalg.matmul"][0]) == (
        "(d0, d1, d2) [parallel, parallel, reduction<sum>] operands [(d0, d2), (d2, d1), (d0, d1)] results [(d0, d1)]"
    )


GENERIC_ARGS = "%a: tensor<4x8xf32>, %i: tensor<4xf32>, %d: tensor<4x4xf32>"
GENERIC = """
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.mulf %acc, %acc : f32
    %t = arith.addf %s, %x : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%d : tensor<4x4xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  %3 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %p = arith.mulf %x, %acc : f32
      linalg.yield %p : f32
    }
  %e = tensor.empty() : tensor<8x4xf32>
  %4 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
"""


def test_linalg_generic_iterator_types_and_reduction_kind_from_the_body():
    rules = rules_of(GENERIC, GENERIC_ARGS)
    max_rule, not_a_fold, diagonal = rules["linalg.generic"]
    assert max_rule == R([P, MAX], [(0, 1), (0,)], [(0,)])
    # `acc * acc + x` is no fold of the output: the loop cannot be split
    assert not_a_fold == R([P, BAD], [(0, 1), (0,)], [(0,)])
    # a loop indexing two dimensions of one operand (a diagonal) cannot be
    # split: a device's rows would need other devices' columns
    assert diagonal == R([BAD], [(None, None), (0,)], [(0,)])
    # named ops without iterator_types: a loop no output names is reduced
    assert rules["linalg.reduce"] == [R([P, Iterator.reduction("product")], [(0, 1), (0,)], [(0,)])]
    assert rules["linalg.transpose"] == [R([P, P], [(1, 0), (0, 1)], [(0, 1)])]


def test_linalg_convolution_input_dims_are_sums_of_loops():
    rules = rules_of(
        "%0 = linalg.conv_1d ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>",
        "%x: tensor<10xf32>, %w: tensor<3xf32>, %o: tensor<8xf32>",
    )
    # the input's d0 + d1 is read through a window: d0 splits with halos
    # (test_halo_property.py), the window loop d1 never splits
    (rule,) = rules["linalg.conv_1d"]
    assert rule.iterators == (P, BAD) and rule.operand_maps == ((0,), (1,), (0,))
    assert rule.window(0, 0) == Window(loop=0, stride=1, dilation=1, size=3, offset=0, extent=10, out=8, window_loop=1)


def test_fill_empty_splat_constants_and_arith_math_elementwise():
    rules = rules_of(
        """
  %e = tensor.empty(%n) : tensor<4x?xf32>
  %s = tensor.splat %v : tensor<4x8xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x?xf32>) -> tensor<4x?xf32>
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %d = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %k = arith.constant 1.0 : f32
  %a = arith.addf %s, %c : tensor<4x8xf32>
  %x = math.exp %a : tensor<4x8xf32>
  %q = arith.cmpf olt, %a, %x : tensor<4x8xf32>
  %w = arith.select %b, %a, %x : tensor<4x8xf32>
  %y = arith.addf %v, %k : f32
""",
        "%n: index, %v: f32, %b: i1",
    )
    two = R([P, P], [], [(0, 1)])
    assert rules["tensor.empty"] == [R([P, P], [None], [(0, 1)])]
    assert rules["tensor.splat"] == [R([P, P], [None], [(0, 1)])]
    assert rules["linalg.fill"] == [R([P, P], [None, (0, 1)], [(0, 1)])]
    assert rules["arith.constant"] == [two, two, None]
    assert rules["arith.addf"] == [R([P, P], [(0, 1), (0, 1)], [(0, 1)]), None]
    assert rules["math.exp"] == [R([P, P], [(0, 1)], [(0, 1)])]
    assert rules["arith.cmpf"] == [R([P, P], [(0, 1), (0, 1)], [(0, 1)])]
    assert rules["arith.select"] == [R([P, P], [None, (0, 1), (0, 1)], [(0, 1)])]


def test_softmax_keeps_the_dimension_it_normalizes_whole_and_bitcast_is_elementwise():
    rules = rules_of(
        """
  %e = tensor.empty() : tensor<2x6x8xf32>
  %a = linalg.softmax dimension(1) ins(%x : tensor<2x6x8xf32>) outs(%e : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %b = linalg.softmax dimension(0) ins(%x : tensor<2x6x8xf32>) outs(%e : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %c = linalg.softmax dimension(2) ins(%x : tensor<2x6x8xf32>) outs(%e : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %i = tensor.bitcast %x : tensor<2x6x8xf32> to tensor<2x6x8xi32>
  %u = tensor.bitcast %y : tensor<?x4xf16> to tensor<?x4xi16>
""",
        "%x: tensor<2x6x8xf32>, %y: tensor<?x4xf16>",
    )
    first, last = (None, 0, 1), (0, 1, None)
    assert rules["linalg.softmax"] == [
        R([P, P], [(0, None, 1), (0, None, 1)], [(0, None, 1)]),
        R([P, P], [first, first], [first]),
        R([P, P], [last, last], [last]),
    ]
    assert rules["tensor.bitcast"] == [R([P, P, P], [(0, 1, 2)], [(0, 1, 2)]), R([P, P], [(0, 1)], [(0, 1)])]
    assert registry.is_pointwise("tensor.bitcast") and not registry.is_pointwise("linalg.softmax")


def test_tensor_reshape_groups_dimensions_as_the_other_reshapes():
    rules = rules_of(
        """
  %a = tensor.reshape %x(%s) : (tensor<8x6xf32>, tensor<2xi64>) -> tensor<16x3xf32>
  %b = tensor.reshape %x(%t) : (tensor<8x6xf32>, tensor<3xindex>) -> tensor<8x2x3xf32>
  %c = tensor.reshape %y(%s) : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<16x3xf32>
""",
        "%x: tensor<8x6xf32>, %y: tensor<?x6xf32>, %s: tensor<2xi64>, %t: tensor<3xindex>",
    )
    assert rules["tensor.reshape"] == [
        R([P], [(0, None), None], [(0, None)]),  # one group, split along its first dimension
        R([P, P], [(0, 1), None], [(0, 1, None)]),
        None,  # a dynamic size: no groups
    ]


# ---------------------------------------------------------------------------
# Rules of real ops: tosa


def test_tosa_rules():
    rules = rules_of(
        """
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>)
         -> tensor<2x4x16xf32>
  %1 = tosa.add %a, %c : (tensor<2x4x8xf32>, tensor<1x4x1xf32>) -> tensor<2x4x8xf32>
  %2 = tosa.mul %a, %c, %sh : (tensor<2x4x8xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<2x4x8xf32>
  %3 = tosa.clamp %a {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %4 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x4x8xf32>) -> tensor<2x1x8xf32>
  %5 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %6 = tosa.reduce_min %a {axis = 0 : i32} : (tensor<2x4x8xf32>) -> tensor<1x4x8xf32>
  %7 = tosa.reduce_product %a {axis = 0 : i32} : (tensor<2x4x8xf32>) -> tensor<1x4x8xf32>
  %8 = tosa.transpose %a {perms = array<i32: 2, 0, 1>} : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  %9 = tosa.exp %a : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
""",
        "%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<1x4x1xf32>",
    )
    ident = (0, 1, 2)
    assert rules["tosa.const"] == [R([P], [], [(0,)])] * 2
    assert rules["tosa.matmul"] == [R([P, P, P, SUM], [(0, 1, 3), (0, 3, 2), (None,), (None,)], [ident])]
    # size-1 dimensions broadcast to larger ones follow no loop
    assert rules["tosa.add"] == [R([P, P, P], [ident, (None, 1, None)], [ident])]
    assert rules["tosa.mul"] == [R([P, P, P], [ident, (None, 1, None), (None,)], [ident])]
    assert rules["tosa.clamp"] == rules["tosa.exp"] == [R([P, P, P], [ident], [ident])]
    assert rules["tosa.reduce_sum"] == [R([P, SUM, P], [ident], [(0, None, 2)])]
    assert rules["tosa.reduce_max"] == [R([P, P, MAX], [ident], [(0, 1, None)])]
    assert rules["tosa.reduce_min"] == [R([Iterator.reduction("min"), P, P], [ident], [(None, 1, 2)])]
    assert rules["tosa.reduce_product"] == [R([Iterator.reduction("product"), P, P], [ident], [(None, 1, 2)])]
    assert rules["tosa.transpose"] == [R([P, P, P], [(1, 2, 0)], [ident])]


# ---------------------------------------------------------------------------
# Rules of real ops: mhlo / stablehlo in generic form


HLO_ARGS = "%a: tensor<2x4x8xf32>, %w: tensor<8x32xf32>, %v: tensor<4x1xf32>, %bb: tensor<2x8x16xf32>"
HLO = """
  %0 = "mhlo.dot_general"(%a, %w) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2],
         rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]}
         : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %1 = "stablehlo.dot_general"(%a, %bb) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0],
         rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}
         : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  %2 = "mhlo.constant"() {value = dense<0.0> : tensor<2x4x32xf32>} : () -> tensor<2x4x32xf32>
  %3 = "mhlo.maximum"(%0, %2) : (tensor<2x4x32xf32>, tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %4 = "stablehlo.tanh"(%a) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %5 = "stablehlo.broadcast_in_dim"(%v) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<4x1xf32>)
         -> tensor<2x4x8xf32>
  %6 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 2, 0>} : (tensor<2x4x8xf32>) -> tensor<4x8x2xf32>
  %z = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %7 = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 2>} : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %8 = "mhlo.reduce"(%a, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "mhlo.maximum"(%q, %p) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = dense<[1]> : tensor<1xi64>} : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %9 = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.subtract"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %10 = "stablehlo.sort"(%a) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
"""


def test_hlo_rules():
    rules = rules_of(HLO, HLO_ARGS)
    ident = (0, 1, 2)
    # the walkthrough's maps: (d0, d1, d3), (d3, d2) -> (d0, d1, d2)
    assert rules["mhlo.dot_general"] == [R([P, P, P, SUM], [(0, 1, 3), (3, 2)], [ident])]
    assert rules["stablehlo.dot_general"] == [R([P, P, P, SUM], [(0, 1, 3), (0, 3, 2)], [ident])]
    assert rules["mhlo.constant"] == [R([P, P, P], [], [ident])]
    assert rules["stablehlo.constant"] == [R([], [], [()])]
    assert rules["mhlo.maximum"][0] == R([P, P, P], [ident, ident], [ident])
    assert rules["stablehlo.tanh"] == [R([P, P, P], [ident], [ident])]
    assert rules["stablehlo.broadcast_in_dim"] == [R([P, P, P], [(1, None)], [ident])]
    assert rules["stablehlo.transpose"] == [R([P, P, P], [(2, 0, 1)], [ident])]
    sum_rule, not_a_fold = rules["stablehlo.reduce"]
    assert sum_rule == R([SUM, P, SUM], [ident, ()], [(1,)])
    assert not_a_fold == R([P, BAD, P], [ident, ()], [(0, 2)])
    assert rules["mhlo.reduce"] == [R([P, MAX, P], [ident, ()], [(0, 2)])]
    # ops of the reduce bodies work on rank-0 tensors: rules with no loops
    assert rules["stablehlo.add"] == [R([], [(), ()], [()])]
    assert rules["stablehlo.sort"] == [None]
    assert rules["stablehlo.return"] == [None] * 2


def test_hlo_bitcast_convert_is_elementwise_only_between_equal_widths():
    body = """
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<4x8xui32>) -> tensor<4x8xf32>
  %1 = "stablehlo.bitcast_convert"(%b) : (tensor<4x8xi64>) -> tensor<4x8x2xi32>
  %2 = "stablehlo.bitcast_convert"(%c) : (tensor<4x8xf16>) -> tensor<4x8xbf16>"""
    rules = rules_of(body, "%a: tensor<4x8xui32>, %b: tensor<4x8xi64>, %c: tensor<4x8xf16>")
    same, wider, halves = rules["stablehlo.bitcast_convert"]
    assert same == R([P, P], [(0, 1)], [(0, 1)]) and halves == same
    assert wider is None  # a dimension appears: no rule says how it splits


def test_unknown_ops_and_user_rules():
    text = '%0 = "my.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>'
    assert rules_of(text, "%a: tensor<4xf32>")["my.op"] == [None]
    previous = register_rule("my.op", lambda op: ShardingRule.elementwise(1))
    try:
        assert previous is None
        assert rules_of(text, "%a: tensor<4xf32>")["my.op"] == [ShardingRule.elementwise(1)]
        # an exact name wins over the linalg/arith/math families
        old = register_rule("math.exp", lambda op: None)
        assert rules_of("%0 = math.exp %a : tensor<4xf32>", "%a: tensor<4xf32>")["math.exp"] == [None]
        register_rule("math.exp", old)
    finally:
        register_rule("my.op", None)
    assert rules_of(text, "%a: tensor<4xf32>")["my.op"] == [None]
    assert rules_of("%0 = math.exp %a : tensor<4xf32>", "%a: tensor<4xf32>")["math.exp"] == [
        ShardingRule.elementwise(1)
    ]


# ---------------------------------------------------------------------------
# option_from_shardings / shardings_from_option


MATMUL = ShardingRule.matmul()  # loops m, n, k


def test_rows_of_the_input_and_columns_of_the_weight():
    option = option_from_shardings(MATMUL, [S([[0]]), S([[], [1]])], [None])
    assert option == ((0,), (1,), ())
    assert option_to_lists(option) == [[0], [1]]
    assert option_to_lists(option, trim=False) == [[0], [1], []]
    assert shardings_from_option(MATMUL, option) == ((S([[0]]), S([[], [1]])), (S([[0], [1]]),))


def test_a_split_contracting_dim_makes_the_result_partial():
    option = option_from_shardings(MATMUL, [S([[], [0]]), None], [None])
    assert option == ((), (), (0,))
    assert shardings_from_option(MATMUL, option) == ((S([[], [0]]), S([[0]])), (S([], [0], "sum"),))


def test_mlp_1d_weight_stationary():
    """The walkthrough's MLP on a mesh of one axis: first matmul's output
    columns and second matmul's contracting dim split over axis 0."""
    dot = ShardingRule.matmul(batch_dims=1)  # [b, m, k] x [k, n]: loops b, m, n, k ...
    dot = R(dot.iterators, [(0, 1, 3), (3, 2)], dot.result_maps)  # ... with an unbatched weight
    x, w1, h = S([[], [], [0]]), S([[], [0]]), S([[], [], [0]])
    # backward propagation has given the first result's layout: it wins, the
    # input split on the contracting dim loses and gets gathered
    first = option_from_shardings(dot, [x, w1], [h])
    assert isinstance(first, Conflict)
    assert (first.side, first.index, first.dim, first.loop, first.axes) == ("operand", 0, 2, 3, (0,))
    assert first.reason == "mesh axis 0 already splits loop 2"
    assert str(first) == "operand 0 dimension 2 (loop 3): mesh axis 0 already splits loop 2"
    assert first.resolved == ((), (), (0,), ())
    assert option_to_lists(first.resolved) == [[], [], [0]]
    assert shardings_from_option(dot, first.resolved) == ((S(), w1), (h,))
    # second matmul: its input comes split on the contracting dim
    second = option_from_shardings(dot, [h, None], [None])
    assert second == ((), (), (), (0,))
    assert shardings_from_option(dot, second) == ((h, S([[0]])), (S([], [0], "sum"),))


def test_mlp_2d_weight_stationary():
    """Mesh of two axes: the weight is split over both, the activation's
    features over the first; the result is partial over the first."""
    option = option_from_shardings(MATMUL, [S([[], [0]]), S([[0], [1]])], [None])
    assert option == ((), (1,), (0,))
    operands, results = shardings_from_option(MATMUL, option)
    assert operands == (S([[], [0]]), S([[0], [1]]))
    assert results == (S([[], [1]], [0], "sum"),)
    # ... and back from the partial result alone
    assert option_from_shardings(MATMUL, [None, None], results) == ((), (1,), (0,))


def test_one_loop_asked_for_two_different_axes():
    rule = ShardingRule.elementwise(2, num_operands=2)
    c = option_from_shardings(rule, [S([[0]]), S([[1], [0]])], [None])
    assert isinstance(c, Conflict)
    assert (c.side, c.index, c.dim, c.loop, c.axes) == ("operand", 1, 0, 0, (1,))
    assert c.reason == "loop 0 is already split over [0]"
    # the loser's other dimension still asks for axis 0, used by loop 0
    assert c.resolved == ((0,), ())
    # order within a loop matters
    c = option_from_shardings(rule, [S([[0, 1]]), S([[1, 0]])], [None])
    assert isinstance(c, Conflict) and c.resolved == ((0, 1), ())


def test_one_mesh_axis_on_two_loops():
    c = option_from_shardings(MATMUL, [S([[0]]), S([[], [0]])], [None])
    assert isinstance(c, Conflict)
    assert (c.side, c.index, c.dim, c.loop, c.axes) == ("operand", 1, 1, 1, (0,))
    assert c.reason == "mesh axis 0 already splits loop 0"
    assert c.resolved == ((0,), (), ())
    c = option_from_shardings(ShardingRule.elementwise(2), [S([[0], [0]])], [None])
    assert isinstance(c, Conflict) and (c.dim, c.resolved) == (1, ((0,), ()))
    c = option_from_shardings(ShardingRule.elementwise(1), [S([[0, 0]])], [None])
    assert isinstance(c, Conflict) and c.reason == "mesh axis 0 is listed twice"


def test_results_win_over_operands_and_earlier_operands_over_later_ones():
    rule = ShardingRule.elementwise(1, num_operands=2)
    c = option_from_shardings(rule, [S([[0]]), None], [S([[1]])])
    assert isinstance(c, Conflict) and (c.side, c.index, c.resolved) == ("operand", 0, ((1,),))
    c = option_from_shardings(rule, [S([[0]]), S([[1]])], [None])
    assert isinstance(c, Conflict) and (c.side, c.index, c.resolved) == ("operand", 1, ((0,),))
    # unsplit dimensions, missing shardings and operand partials constrain nothing
    assert option_from_shardings(rule, [S(), S([[2]], [0])], [S()]) == ((2,),)


def test_invalid_loops_cannot_be_split():
    rule = R([P, BAD], [(0, 1)], [(0, 1)])
    c = option_from_shardings(rule, [S([[0], [1]])], [None])
    assert isinstance(c, Conflict)
    assert (c.dim, c.loop, c.reason, c.resolved) == (1, 1, "loop 1 cannot be sharded", ((0,), ()))
    with pytest.raises(ValueError, match="loop 1 cannot be sharded but is split over"):
        shardings_from_option(rule, ((), (1,)))
    # an invalid reduction puts nothing on the result
    rule = R([P, BAD], [(0, 1)], [(0,)])
    assert shardings_from_option(rule, ((0,), ())) == ((S([[0]]),), (S([[0]]),))


def test_partial_results_map_to_reduction_loops():
    # the operand agrees with the result's partial axis
    assert option_from_shardings(MATMUL, [S([[], [0]]), None], [S([], [0])]) == ((), (), (0,))
    # a partial axis an operand does not place goes to the reduction loop; the
    # operand asked for that loop on [1] alone, so it loses and is resharded
    c = option_from_shardings(MATMUL, [S([[], [1]]), None], [S([], [0, 1])])
    assert isinstance(c, Conflict) and (c.side, c.index, c.dim, c.loop) == ("operand", 0, 1, 2)
    assert c.resolved == ((), (), (1, 0))
    # with no operand on the reduction loop the partial axes simply fill it
    assert option_from_shardings(MATMUL, [S([[1]]), None], [S([[1]], [0])]) == ((1,), (), (0,))
    # partial over an axis an operand wants for a parallel loop: the result wins
    c = option_from_shardings(MATMUL, [S([[0]]), None], [S([], [0])])
    assert isinstance(c, Conflict)
    assert (c.side, c.index, c.dim, c.loop) == ("operand", 0, 0, 0)
    assert c.reason == "mesh axis 0 is a partial sum axis of result 0"
    assert c.resolved == ((), (), (0,))
    # no reduction loop of that kind
    c = option_from_shardings(MATMUL, [None, None], [S([], [0], "max")])
    assert isinstance(c, Conflict)
    assert (c.side, c.index, c.dim, c.loop, c.axes) == ("result", 0, None, None, (0,))
    assert str(c) == "result 0 partial axes [0]: the op has no max reduction loop"
    assert c.resolved == ((), (), ())
    # partial over an axis that another result already splits
    rule = R([P, SUM], [(0, 1)], [(0,), (0,)])
    c = option_from_shardings(rule, [None], [S([[0]]), S([], [0])])
    assert isinstance(c, Conflict) and (c.index, c.loop, c.resolved) == (1, 0, ((0,), ()))


def test_two_results_partial_over_different_axes_of_one_reduction_loop():
    # a variadic reduce: both results come out of the one reduction loop, so
    # result 1's partial [0, 1] cannot grow the loop result 0's partial [0]
    # placed (it raised KeyError: a loop split by a partial has no setter)
    rule = R([SUM, P], [(0, 1), (0, 1)], [(1,), (1,)])
    c = option_from_shardings(rule, [None, None], [S([], [0]), S([], [0, 1])])
    assert isinstance(c, Conflict)
    assert (c.side, c.index, c.dim, c.loop, c.axes) == ("result", 1, None, 0, (0, 1))
    assert c.resolved == ((0,), ())
    # the same axes agree
    assert option_from_shardings(rule, [None, None], [S([], [0]), S([], [0])]) == ((0,), ())


def test_reduce_with_a_partial_result():
    rule = R([P, SUM, P], [(0, 1, 2)], [(0, None, 2)])  # tosa.reduce_sum over axis 1
    option = option_from_shardings(rule, [S([[1], [0]])], [None])
    assert option == ((1,), (0,), ())
    assert shardings_from_option(rule, option) == ((S([[1], [0]]),), (S([[1]], [0], "sum"),))
    assert option_from_shardings(rule, [None], [S([[1]], [0])]) == option
    # a split of the kept size-1 dimension follows no loop: nothing is asked
    assert option_from_shardings(rule, [None], [S([[], [0]])]) == ((), (), ())
    # two reduction loops of the kind: the first takes the partial axes
    both = R([SUM, P, SUM], [(0, 1, 2), ()], [(1,)])  # stablehlo.reduce over 0 and 2
    assert option_from_shardings(both, [None, None], [S([[1]], [0])]) == ((0,), (1,), ())
    assert option_from_shardings(both, [S([[], [], [0]]), None], [S([], [0])]) == ((), (), (0,))
    # reductions of different kinds cannot be split together
    mixed = R([P, SUM, MAX], [(0, 1, 2)], [(0,)])
    c = option_from_shardings(mixed, [S([[], [0], [1]])], [None])
    assert isinstance(c, Conflict) and (c.dim, c.loop, c.resolved) == (2, 2, ((), (0,), ()))
    with pytest.raises(ValueError, match="reduction loops of different kinds"):
        shardings_from_option(mixed, ((), (0,), (1,)))


def test_elementwise_with_broadcast():
    rule = R([P, P, P], [(0, 1, 2), (None, 1, None)], [(0, 1, 2)])  # tosa.add with a 1x4x1 operand
    option = option_from_shardings(rule, [None, S([[0], [1]])], [None])
    assert option == ((), (1,), ())  # the size-1 dimension's split asks nothing
    option = option_from_shardings(rule, [S([[0]]), S([[], [1]])], [None])
    assert option == ((0,), (1,), ())
    assert shardings_from_option(rule, option) == ((S([[0], [1]]), S([[], [1]])), (S([[0], [1]]),))


def test_transpose():
    rule = ShardingRule.transpose([2, 0, 1])  # result[i] = operand[perm[i]]
    assert rule == R([P, P, P], [(1, 2, 0)], [(0, 1, 2)])
    option = option_from_shardings(rule, [S([[0], [], [1]])], [None])
    assert option == ((1,), (0,), ())
    assert shardings_from_option(rule, option) == ((S([[0], [], [1]]),), (S([[1], [0]]),))


def test_non_tensors_have_no_sharding():
    rule = R([P], [None, (0,)], [(0,)])  # linalg.fill
    assert shardings_from_option(rule, ((3,),)) == ((None, S([[3]])), (S([[3]]),))
    assert option_from_shardings(rule, [S([[1]]), None], [None]) == ((),)


def test_malformed_input_raises():
    with pytest.raises(ValueError, match="1 operand shardings for 2 operands"):
        option_from_shardings(MATMUL, [None], [None])
    with pytest.raises(ValueError, match="0 result shardings for 1 results"):
        option_from_shardings(MATMUL, [None, None], [])
    with pytest.raises(ValueError, match="operand 0 has rank 2 but its sharding splits 3 dimensions"):
        option_from_shardings(MATMUL, [S([[], [], [0]]), None], [None])
    with pytest.raises(ValueError, match="3 entries for 2 loops"):
        validate_option(ShardingRule.elementwise(2), ((), (), ()))
    with pytest.raises(ValueError, match="mesh axis 0 is used in loops 0 and 1"):
        validate_option(ShardingRule.elementwise(2), ((0,), (0,)))
    with pytest.raises(ValueError, match="mesh axis 1 is used twice in loop 0"):
        validate_option(ShardingRule.elementwise(1), ((1, 1),))


def test_option_lists():
    assert option_from_lists([[], [0]], 4) == ((), (0,), (), ())
    assert option_to_lists(((), (0,), (), ())) == [[], [0]]
    assert option_to_lists(((), (), ())) == []
    with pytest.raises(ValueError, match="names 3 loops but the op has 2"):
        option_from_lists([[], [], [0]], 2)


def test_rule_invariants():
    with pytest.raises(ValueError, match="result 0 is indexed by reduction loop 1"):
        R([P, SUM], [(0, 1)], [(0, 1)])
    with pytest.raises(ValueError, match="parallel loop 1 indexes no dimension of result 0"):
        R([P, P], [(0, 1)], [(0,)])
    with pytest.raises(ValueError, match="operand 0 is indexed twice by one loop"):
        R([P], [(0, 0)], [(0,)])
    with pytest.raises(ValueError, match="names loop 2 but the op has 2 loops"):
        R([P, P], [(0, 2)], [(0, 1)])
    with pytest.raises(ValueError, match="unknown iterator kind 'generic'"):
        Iterator("generic")
    assert R(["parallel", "max"], [(0, 1)], [(0,)]) == R([P, MAX], [(0, 1)], [(0,)])
    # from_exprs makes any index expressions safe: a loop in d0 + d1 or
    # repeated in one map (operand or result), a parallel loop a result lacks
    rule = ShardingRule.from_exprs(
        [P, P, P, SUM], [[0, frozenset({1, 3}), 1, 1], [frozenset()]], [[0, frozenset({1, 2})]]
    )
    assert rule == R([P, BAD, BAD, BAD], [(0, None, None, None), (None,)], [(0, None)])
    assert ShardingRule.from_exprs([P, SUM], [[0, 1]], [[0, 1]]) == R([P, BAD], [(0, 1)], [(0, 1)])
    assert ShardingRule.from_exprs([P], [[0]], [[0, 0]]).iterators == (BAD,)
    assert Iterator(INVALID).is_invalid and str(MAX) == "reduction<max>"


# ---------------------------------------------------------------------------
# Properties


@st.composite
def rules(draw) -> ShardingRule:
    family = draw(st.sampled_from(["matmul", "elementwise", "transpose"]))
    if family == "matmul":
        return ShardingRule.matmul(draw(st.integers(0, 2)), draw(st.sampled_from(LOOP_REDUCTION_KINDS)))
    rank = draw(st.integers(0, 4))
    if family == "elementwise":
        return ShardingRule.elementwise(rank, draw(st.integers(1, 3)), draw(st.integers(1, 2)))
    return ShardingRule.transpose(draw(st.permutations(range(rank))))


@st.composite
def rules_and_options(draw):
    rule = draw(rules())
    pool = draw(st.permutations(range(6)))
    option = []
    for it in rule.iterators:
        n = 0 if it.is_invalid else draw(st.integers(0, min(2, len(pool))))
        option.append(tuple(pool[:n]))
        pool = pool[n:]
    return rule, tuple(option)


@settings(max_examples=300, deadline=None)
@given(rules_and_options())
def test_round_trip(rule_and_option):
    rule, option = rule_and_option
    operands, results = shardings_from_option(rule, option)
    assert option_from_shardings(rule, operands, results) == option
    # either side alone fixes the option too when it indexes every loop
    if rule.operand_maps and all(any(loop in m for m in rule.operand_maps) for loop in range(rule.num_loops)):
        assert option_from_shardings(rule, operands, [None] * len(results)) == option


def _shardings(draw, maps, with_partial: bool) -> list[Sharding | None]:
    out = []
    for m in maps:
        if draw(st.booleans()):
            out.append(None)
            continue
        split = [draw(st.lists(st.integers(0, 3), max_size=2)) for _ in m]
        partial = draw(st.lists(st.integers(0, 3), max_size=2, unique=True)) if with_partial else []
        kind = draw(st.sampled_from(["sum", "max"]))
        out.append(S(split, partial, kind))
    return out


@settings(max_examples=300, deadline=None)
@given(rules(), st.data())
def test_any_annotations_give_a_valid_option_or_a_conflict(rule, data):
    operands = _shardings(data.draw, rule.operand_maps, with_partial=True)
    results = _shardings(data.draw, rule.result_maps, with_partial=True)
    got = option_from_shardings(rule, operands, results)
    if isinstance(got, Conflict):
        validate_option(rule, got.resolved)
        return
    validate_option(rule, got)
    implied_operands, implied_results = shardings_from_option(rule, got)
    # with no conflict every request is honoured
    sides = ((operands, implied_operands, rule.operand_maps), (results, implied_results, rule.result_maps))
    for given_, implied, maps in sides:
        for s, t, m in zip(given_, implied, maps):
            if s is None:
                continue
            for dim, loop in enumerate(m):
                if s.axes_of(dim) and loop is not None:
                    assert t.axes_of(dim) == s.axes_of(dim)
    for s, t in zip(results, implied_results):
        if s is not None and s.partial_axes:
            assert set(s.partial_axes) <= set(t.partial_axes) and t.partial_type == s.partial_type


def test_moved_options_put_the_axes_of_a_whole_dimension_on_another_loop():
    """A sort along its columns (one loop, the rows): the columns' axes move
    to the rows, after any the rows already have (all of them, or the
    inner ones of a tuple alone); a reduction loop the
    accumulators make invalid gives its axes to the parallel rows; nothing
    moves when every axis is placed, nor onto a reduction loop."""
    sort = R(["parallel"], [(0, None)], [(0, None)])
    assert moved_options(sort, ("operand", 0, S([[], [1]]))) == [((1,),)]
    assert moved_options(sort, ("result", 0, S([[0], [1]]))) == [((0, 1),)]
    assert moved_options(sort, ("operand", 0, S([[0]]))) == []
    sort_3d = R(["parallel", "parallel"], [(0, 1, None)], [(0, 1, None)])
    # all the lost axes, or the inner ones alone (one all_to_all moves those; the outer one is gathered)
    assert moved_options(sort_3d, ("operand", 0, S([[], [2], [0, 1]]))) == [
        ((0, 1), (2,)),
        ((1,), (2,)),
        ((), (2, 0, 1)),
        ((), (2, 1)),
    ]
    scan = R(["parallel", INVALID], [(0, 1)], [(0,)])
    assert moved_options(scan, ("operand", 0, S([[], [0]]))) == [((0,), ())]
    matmul = ShardingRule.matmul()
    assert moved_options(matmul, ("operand", 0, S([[], [0]]))) == []
    reduce_rows = R(["sum", "parallel"], [(0, 1)], [(1,)])
    transposed = R(["parallel", INVALID], [(None, 0)], [(0,)])
    assert moved_options(reduce_rows, ("operand", 0, S([[0], [1]]))) == []
    assert moved_options(transposed, ("operand", 0, S([[1], [0]]))) == [((0, 1), ())]


def test_clash_moves_put_a_contested_axis_on_a_loop_both_operands_index():
    """Attention's scores `hqd,khd->hqk` (loops h, q, k, d): q and k both
    split along their sequence over axis 0 clash; the axis may go to the
    heads, the one parallel loop both index (d is a reduction), after the
    axes the heads already have.  A matmul's operands share only their
    contraction: nothing moves.  Requests that do not clash move nothing."""
    scores = R(["parallel", "parallel", "parallel", "sum"], [(1, 0, 3), (2, 0, 3)], [(0, 1, 2)])
    q, k = ("operand", 0, S([[0]])), ("operand", 1, S([[0]]))
    assert clash_moves(scores, q, k) == [((0,), (), (), ())]
    assert clash_moves(scores, k, q) == [((0,), (), (), ())]
    # the batch's axis 1 stays where both put it
    q3, k3 = ("operand", 0, S([[0], [1]])), ("operand", 1, S([[0], [1]]))
    assert clash_moves(scores, q3, k3) == [((1, 0), (), (), ())]
    # no clash (different axes), or nothing both index that is parallel
    assert clash_moves(scores, q, ("operand", 1, S([[1]]))) == []
    matmul = ShardingRule.matmul()
    assert clash_moves(matmul, ("operand", 0, S([[0]])), ("operand", 1, S([[], [0]]))) == []


def test_strided_slices_read_through_windows_one_element_wide():
    """A strided slice's dimension is a parallel loop whose operand reads a
    window one element wide at `stride * i + start`; stride 1 (a `Crop`,
    as `tensor.extract_slice`'s) and one element (a sum loop) keep their
    rules.  A pad of `i` cells between
    elements, `low <= i` before and `i - low` after splits (the gradient of
    `x[:, low::i + 1]`); another pad does not."""

    def slice_(k: int, start: int, limit: int, stride: int, out: int) -> str:
        attrs = f"start_indices = array<i64: 0, {start}>, limit_indices = array<i64: 4, {limit}>"
        attrs += f", strides = array<i64: 1, {stride}>"
        return f'%{k} = "stablehlo.slice"(%x) <{{{attrs}}}> : (tensor<4x16xf32>) -> tensor<4x{out}xf32>'

    def pad(k: int, low: int, high: int, interior: int, out: int) -> str:
        attrs = f"edge_padding_low = array<i64: 0, {low}>, edge_padding_high = array<i64: 0, {high}>"
        attrs += f", interior_padding = array<i64: 0, {interior}>"
        return f'%{k} = "stablehlo.pad"(%x, %z) <{{{attrs}}}> : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x{out}xf32>'

    ops = [slice_(0, 1, 16, 2, 8), slice_(1, 3, 13, 3, 4), slice_(2, 2, 10, 1, 8), slice_(3, 3, 5, 4, 1)]
    ops += [pad(4, 1, 1, 2, 48), pad(5, 2, 0, 1, 33)]
    body = "\n".join(ops)
    rules = rules_of(body, "%x: tensor<4x16xf32>, %z: tensor<f32>")
    odd, moving, crop, one = rules["stablehlo.slice"]
    assert odd == ShardingRule((P, P), ((0, 1),), ((0, 1),), ((None, Window(1, 2, 1, 1, offset=1, extent=16, out=8)),))
    assert moving.window(0, 1) == Window(1, 3, 1, 1, offset=3, extent=16, out=4)
    assert moving.window(0, 1).halo(4) == (0, 0)
    assert Window(1, 2, 1, 1, offset=0, extent=16, out=4).halo(4) == (6, 0)  # x[:, 0:8:2]
    assert crop == ShardingRule((P, P), ((0, 1),), ((0, 1),), crops=(Crop(0, 1, 1, 2, 1, (4, 16), 8),))
    assert one == R([P, SUM], [(0, 1)], [(0, None)])
    spread, shifted = rules["stablehlo.pad"]
    assert spread == R([P, P], [(0, 1), ()], [(0, 1)])
    assert shifted == R([P], [(0, None), ()], [(0, None)])


def test_hlo_prefix_scans_split_the_dimension_they_scan():
    """A `reduce_window` as long as a dimension, padded in front by all but
    one cell (`jnp.cumsum`; behind: `reverse=True`), whose init is its
    combiner's identity, is a `Scan` of a parallel loop: split, each device
    scans its piece and adds the totals of the pieces before it.  A
    shorter or doubly scanned window keeps the window (whose halos would be
    the whole dimension); another init splits nothing."""

    def window(k: int, size: list[int], padding: str, init: str, op: str = "add") -> str:
        dims = ", ".join(map(str, size))
        return f"""
      %c{k} = "stablehlo.constant"() <{{value = dense<{init}> : tensor<f32>}}> : () -> tensor<f32>
      %{k} = "stablehlo.reduce_window"(%x, %c{k}) <{{window_dimensions = array<i64: {dims}>,
          padding = dense<{padding}> : tensor<2x2xi64>}}> ({{
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = "stablehlo.{op}"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%r) : (tensor<f32>) -> ()
      }}) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>"""

    body = "".join(
        [
            window(0, [1, 16], "[[0, 0], [15, 0]]", "0.0"),
            window(1, [1, 16], "[[0, 0], [0, 15]]", "0.0"),
            window(2, [1, 16], "[[0, 0], [15, 0]]", "0xFF800000", "maximum"),
            window(3, [4, 16], "[[3, 0], [15, 0]]", "0.0"),
            window(4, [1, 16], "[[0, 0], [15, 0]]", "1.0"),
            window(5, [1, 15], "[[0, 0], [14, 0]]", "0.0"),
        ]
    )
    rules = rules_of(body, "%x: tensor<4x16xf32>")["stablehlo.reduce_window"]
    cumsum, reverse, cummax, both, shifted, shorter = rules
    assert cumsum == ShardingRule((P, P), ((0, 1), ()), ((0, 1),), scans=(Scan(1, "sum"),))
    assert reverse.scans == (Scan(1, "sum", reverse=True),)
    assert cummax.scans == (Scan(1, "max"),)
    for kept in (both, shorter):
        assert not kept.scans and kept.windows
    assert not shifted.scans and shifted.iterators[1] == BAD  # padded, the init folded in: whole


def test_moved_options_for_a_subsample_that_is_not_local():
    """Given the mesh, axes on a loop read through a window one element
    wide move like the axes of a whole dimension where the window needs
    halos or uneven pieces; a local one keeps them, and so does a wider
    window (a convolution's halos)."""

    def sliced(window: Window) -> ShardingRule:
        return ShardingRule((P, P), ((0, 1),), ((0, 1),), ((None, window),))

    local = sliced(Window(1, 2, 1, 1, offset=1, extent=16, out=8))
    halo = sliced(Window(1, 2, 1, 1, offset=0, extent=16, out=4))
    uneven = sliced(Window(1, 3, 1, 1, offset=0, extent=16, out=6))
    wide = sliced(Window(1, 1, 1, 3, offset=0, extent=16, out=14))
    request = ("operand", 0, S([[], [0]]))
    assert moved_options(local, request, (4,)) == []
    assert moved_options(halo, request, (4,)) == [((0,), ())]
    assert moved_options(uneven, request, (4,)) == [((0,), ())]
    assert moved_options(halo, request) == []
    assert moved_options(wide, request, (2,)) == []


@st.composite
def rules_with_whole_dims(draw) -> ShardingRule:
    """A sort-like op: some dimensions of its operand and result are whole
    (no loop), the others parallel or invalid loops."""
    rank = draw(st.integers(1, 4))
    whole = draw(st.lists(st.booleans(), min_size=rank, max_size=rank))
    its, m = [], []
    for w in whole:
        m.append(None if w else len(its))
        if not w:
            its.append(draw(st.sampled_from(["parallel", "parallel", INVALID])))
    return R(its, [tuple(m)], [tuple(m)])


@settings(max_examples=200, deadline=None)
@given(st.one_of(rules(), rules_with_whole_dims()), st.data())
def test_moved_options_are_valid_and_place_every_axis_of_the_request(rule, data):
    side = data.draw(st.sampled_from(["operand", "result"]))
    maps = rule.operand_maps if side == "operand" else rule.result_maps
    i = data.draw(st.integers(0, len(maps) - 1))
    (s,) = _shardings(data.draw, [maps[i]], with_partial=False)
    if s is None or len({a for axes in s.split_axes for a in axes}) != sum(map(len, s.split_axes)):
        return
    moved = moved_options(rule, (side, i, s))
    alone = option_from_requests(rule, [(side, i, s)])
    alone = alone.resolved if isinstance(alone, Conflict) else alone
    lost = set(s.used_axes()) - {a for axes in alone for a in axes}
    free = any(it.is_parallel and loop in maps[i] for loop, it in enumerate(rule.iterators))
    assert bool(moved) == bool(lost and free)
    lost_dims = [d for d in range(len(s.split_axes)) if set(s.axes_of(d)) & lost]
    for option in moved:
        validate_option(rule, option)
        placed = {a for axes in option for a in axes}
        if set(s.used_axes()) <= placed:
            continue
        # else the inner axes alone of the one dimension that lost a tuple: the outer ones go
        assert len(lost_dims) == 1
        inner = [a for a in s.axes_of(lost_dims[0]) if a in lost]
        assert any(set(s.used_axes()) - set(inner[:k]) == placed for k in range(1, len(inner))), (option, s)


def test_rank_reducing_slices_keep_their_dimensions_of_other_sizes():
    """A rank-reducing slice drops unit dimensions: its piece's dimensions
    are the slice's others, in order, which partition reads again
    (`crop.kept_of`).  Where only some unit dimensions are dropped, which
    ones is not said by the sizes: the slice has no rule, never split."""
    assert registry.kept_dims([4, 1, 8, 1], 2) == [0, 2]
    assert registry.kept_dims([4, 1, 8], 3) == [0, 1, 2]
    assert registry.kept_dims([1, 1, 4], 2) is None
    ops = [
        "%0 = tensor.extract_slice %x[0, 3, 0] [2, 1, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<2x8xf32>",
        "%1 = tensor.extract_slice %x[0, 3, 0] [1, 1, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<1x8xf32>",
    ]
    reduced, ambiguous = rules_of("\n".join(ops), "%x: tensor<2x4x8xf32>")["tensor.extract_slice"]
    # (the row it reads of the dimension it drops: a sum loop, `crop.mask_rows`)
    assert reduced == R([P, P, SUM], [(0, 2, 1)], [(0, 1)])
    assert ambiguous is None


def test_slices_taking_part_of_a_dimension_read_through_crops():
    """`tensor.extract_slice` taking a run of a dimension of static size
    (`x[:, :-1]`, `x[:, 1:]`, `x[:, 1:63:2]`) splits it: the loop reads the
    operand through a `Crop`.  Given the mesh, the operand arrives split
    evenly with the halos each device's run needs beyond its piece, or,
    where a halo would be wider than a piece or the pieces are uneven, cut
    where each device's run starts; a run every piece holds takes neither."""
    ops = [
        "%0 = tensor.extract_slice %x[0, 0] [8, 63] [1, 1] : tensor<8x64xf32> to tensor<8x63xf32>",
        "%1 = tensor.extract_slice %x[0, 1] [8, 63] [1, 1] : tensor<8x64xf32> to tensor<8x63xf32>",
        "%2 = tensor.extract_slice %x[2, 1] [4, 31] [1, 2] : tensor<8x64xf32> to tensor<4x31xf32>",
        "%3 = tensor.extract_slice %x[0, 0] [8, 8] [1, 1] : tensor<8x64xf32> to tensor<8x8xf32>",
        "%4 = tensor.extract_slice %x[3, 5] [1, 1] [1, 1] : tensor<8x64xf32> to tensor<1x1xf32>",
        "%5 = tensor.extract_slice %y[1] [62] [1] : tensor<63xf32> to tensor<62xf32>",
    ]
    rules = rules_of("\n".join(ops), "%x: tensor<8x64xf32>, %y: tensor<63xf32>")
    head, tail, strided, far, single = rules["tensor.extract_slice"][:5]
    (odd,) = rules["tensor.extract_slice"][5:]
    assert head == ShardingRule((P, P), ((0, 1),), ((0, 1),), crops=(Crop(0, 1, 1, 0, 1, (8, 64), 63),))
    assert tail.crops == (Crop(0, 1, 1, 1, 1, (8, 64), 63),)
    assert strided == ShardingRule(
        (P, P), ((0, 1),), ((0, 1),), crops=(Crop(0, 0, 0, 2, 1, (8, 64), 4), Crop(0, 1, 1, 1, 2, (8, 64), 31))
    )
    # one element: a sum loop per dimension, read where it lies (`crop.mask_rows`)
    assert single == R([SUM, SUM], [(0, 1)], [(None, None)])
    cols = ((), (0,))
    # 63 outputs over 4 are cut 15, 16, 16, 16: x[:, :-1]'s devices 1-3 start a row early
    assert shardings_from_option(head, cols, (4,))[0] == (Sharding(((), (0,)), halo_sizes=(1, 0)),)
    assert shardings_from_option(tail, cols, (4,))[0] == (S([[], [0]]),)  # x[:, 1:]: every run is local
    assert shardings_from_option(head, cols)[0] == (S([[], [0]]),)  # no mesh: no halos
    # 8 outputs over 4: device 3 reads rows 6-7, 42 rows before its piece: cut where the runs start
    assert shardings_from_option(far, cols, (4,))[0] == (Sharding(((), (0,)), sharded_dims_offsets=(0, 2, 4, 6, 64)),)
    assert shardings_from_option(odd, ((0,),), (4,))[0] == (
        Sharding(((0,),), sharded_dims_offsets=(0, 16, 31, 47, 63)),
    )
    # both dimensions of the strided slice over 2x2: rows 2-3 and 4-5 are
    # local; every other column from 1, 15 and 16 of them, starts at 31 on
    # the second device (its piece at 32)
    rows_cols = ((0,), (1,))
    assert shardings_from_option(strided, rows_cols, (2, 2))[0] == (Sharding(((0,), (1,)), halo_sizes=(0, 0, 1, 0)),)


@settings(max_examples=300, deadline=None)
@given(
    extent=st.integers(2, 40),
    pieces=st.integers(1, 6),
    data=st.data(),
)
def test_crop_layouts_give_every_device_its_run(extent, pieces, data):
    """Whatever the crop and however the outputs are cut, `crop_layout`'s
    layout holds every device's run: even pieces with halos no wider than a
    piece, or pieces cut where the runs start."""
    stride = data.draw(st.integers(1, 4))
    offset = data.draw(st.integers(0, extent - 2))
    out = data.draw(st.integers(2, max(2, (extent - 1 - offset) // stride + 1)))
    if offset + stride * (out - 1) >= extent:
        return
    c = Crop(0, 0, 0, offset, stride, (extent,), out)
    inner = sorted(data.draw(st.lists(st.integers(0, out), min_size=pieces - 1, max_size=pieces - 1)))
    out_cut = (0, *inner, out)
    even = extent % pieces == 0
    source = tuple(extent * p // pieces for p in range(pieces + 1)) if even else (0, *inner, extent)
    s = crop_layout(Sharding(((0,),)), {0: (c, out_cut)}, {0: source})
    cut = s.sharded_dims_offsets or source
    halo = tuple(s.halo_sizes) or (0, 0)
    if s.halo_sizes:
        assert max(halo) <= extent // pieces and not s.sharded_dims_offsets
    assert all(c.local(out_cut, cut, halo, p) is not None for p in range(pieces))
    assert list(cut) == sorted(cut) and cut[0] == 0 and cut[-1] == extent


def test_pads_of_split_dimensions_read_through_crops():
    """`tensor.pad` at static sizes splits the dimensions it pads: the
    source is read shifted back by the low padding, the rows beyond it
    padding.  Each device pads the run of rows it holds by its own share:
    RWKV's token shift (63 columns padded low by one to 64) pads the first
    device's 15 by one and nothing else; 64 rows padded 2 and 3 over 4
    devices (17, 17, 17, 18 rows) take a row of halo each way."""
    body = """
      %c = arith.constant 0.0 : f32
      %0 = tensor.pad %x low[0, 1] high[0, 0] {
      ^bb0(%i: index, %j: index):
        tensor.yield %c : f32
      } : tensor<8x63xf32> to tensor<8x64xf32>
      %1 = tensor.pad %y low[2] high[3] {
      ^bb0(%i: index):
        tensor.yield %c : f32
      } : tensor<64xf32> to tensor<69xf32>
      %2 = tensor.pad %y low[%n] high[0] {
      ^bb0(%i: index):
        tensor.yield %c : f32
      } : tensor<64xf32> to tensor<?xf32>"""
    rules = rules_of(body, "%x: tensor<8x63xf32>, %y: tensor<64xf32>, %n: index")
    shift, both, dynamic = rules["tensor.pad"]
    crop = Crop(0, 1, 1, -1, 1, (8, 63), 64, pads=True)
    assert shift == ShardingRule((P, P), ((0, 1),), ((0, 1),), crops=(crop,))
    assert dynamic == R([], [(None,), None], [(None,)])  # a dynamic padding: padded whole
    # on a mesh axis of dynamic size partition never splits a crop
    assert uncropped(shift) == R([P, BAD], [(0, None)], [(0, None)])
    out_cut = (0, 16, 32, 48, 64)
    assert [crop.run(out_cut, p) for p in range(4)] == [(0, 15), (15, 31), (31, 47), (47, 63)]
    assert [crop.padding(out_cut, p) for p in range(4)] == [(1, 0), (0, 0), (0, 0), (0, 0)]
    # the source's default cut (15, 16, 16, 16) holds every run: no halo, no offsets
    assert shardings_from_option(shift, ((), (0,)), (4,))[0] == (S([[], [0]]),)
    (c,) = both.crops
    out_cut = (0, 17, 34, 51, 69)
    assert [c.padding(out_cut, p) for p in range(4)] == [(2, 0), (0, 0), (0, 0), (0, 3)]
    assert shardings_from_option(both, ((0,),), (4,))[0] == (Sharding(((0,),), halo_sizes=(1, 1)),)


def test_hlo_slices_and_pads_of_split_dimensions_read_through_crops():
    """stablehlo and mhlo slices of stride 1 and pads without interior
    padding read a run of a dimension through a `Crop`, as their `tensor`
    twins do: JAX's `x[:, :-1]`, `x[:, 1:]` and `jnp.pad`, and a negative
    pad (which cuts rows off).  A slice also taking one element or every
    t-th element of a dimension, and a pad with interior padding, keep
    their rules."""
    head = '%0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 47>}>'
    tail = '%1 = "stablehlo.slice"(%x) <{start_indices = array<i64: 1, 1>, limit_indices = array<i64: 3, 48>}>'
    mixed = '%2 = "stablehlo.slice"(%x) <{start_indices = array<i64: 2, 1>, limit_indices = array<i64: 3, 48>}>'
    pads = "edge_padding_low = array<i64: 0, {}>, edge_padding_high = array<i64: 0, {}>, interior_padding = {}"
    ops = [
        head + " : (tensor<4x48xf32>) -> tensor<4x47xf32>",
        tail + " : (tensor<4x48xf32>) -> tensor<2x47xf32>",
        mixed + " : (tensor<4x48xf32>) -> tensor<1x47xf32>",
        '%3 = "stablehlo.pad"(%x, %z) <{'
        + pads.format(1, 0, "array<i64: 0, 0>")
        + "}> : (tensor<4x48xf32>, tensor<f32>) -> tensor<4x49xf32>",
        '%4 = "stablehlo.pad"(%x, %z) <{'
        + pads.format(-1, 1, "array<i64: 0, 0>")
        + "}> : (tensor<4x48xf32>, tensor<f32>) -> tensor<4x48xf32>",
        '%5 = "stablehlo.pad"(%x, %z) <{'
        + pads.format(1, 1, "array<i64: 0, 1>")
        + "}> : (tensor<4x48xf32>, tensor<f32>) -> tensor<4x97xf32>",
        '%6 = "mhlo.pad"(%x, %z) {edge_padding_low = dense<[0, 8]> : tensor<2xi64>, edge_padding_high = dense<0> : '
        "tensor<2xi64>, interior_padding = dense<0> : tensor<2xi64>} : (tensor<4x48xf32>, tensor<f32>) -> "
        "tensor<4x56xf32>",
    ]
    rules = rules_of("\n".join(ops), "%x: tensor<4x48xf32>, %z: tensor<f32>")
    cut_head, cut_tail, one_element = rules["stablehlo.slice"]
    assert cut_head == ShardingRule((P, P), ((0, 1),), ((0, 1),), crops=(Crop(0, 1, 1, 0, 1, (4, 48), 47),))
    assert cut_tail.crops == (Crop(0, 0, 0, 1, 1, (4, 48), 2), Crop(0, 1, 1, 1, 1, (4, 48), 47))
    assert not one_element.crops and one_element.iterators[0] == SUM  # x[2:3, 1:]: as before
    padded, shifted, interior = rules["stablehlo.pad"]
    assert padded == ShardingRule(
        (P, P), ((0, 1), ()), ((0, 1),), crops=(Crop(0, 1, 1, -1, 1, (4, 48), 49, pads=True),)
    )
    assert shifted.crops == (Crop(0, 1, 1, 1, 1, (4, 48), 48, pads=True),)
    assert not interior.crops
    (mhlo,) = rules["mhlo.pad"]
    assert mhlo.crops == (Crop(0, 1, 1, -8, 1, (4, 48), 56, pads=True),)
    # x[:, :-1] over 4: the 47 outputs are cut 11, 12, 12, 12, so devices 1-3
    # read a row of the previous piece
    assert shardings_from_option(cut_head, ((), (0,)), (4,))[0] == (Sharding(((), (0,)), halo_sizes=(1, 0)),)


@settings(max_examples=300, deadline=None)
@given(extent=st.integers(1, 30), pieces=st.integers(1, 6), data=st.data())
def test_pad_crops_give_every_device_its_rows_and_padding(extent, pieces, data):
    """A pad's crop, however its outputs are cut: each device's padding
    before its run, its run and its padding after make exactly its piece
    of the padded dimension, and `crop_layout` holds every run."""
    low = data.draw(st.integers(0, 12))
    high = data.draw(st.integers(0, 12))
    out = low + extent + high
    if out < 2:
        return
    c = Crop(0, 0, 0, -low, 1, (extent,), out, pads=True)
    inner = sorted(data.draw(st.lists(st.integers(0, out), min_size=pieces - 1, max_size=pieces - 1)))
    out_cut = (0, *inner, out)
    padded = [j - low if 0 <= j - low < extent else None for j in range(out)]
    for p in range(pieces):
        before, after = c.padding(out_cut, p)
        run = c.run(out_cut, p)
        rows = list(range(*run)) if run else []
        assert [None] * before + rows + [None] * after == padded[out_cut[p] : out_cut[p + 1]]
    even = extent % pieces == 0
    source = (
        tuple(extent * p // pieces for p in range(pieces + 1))
        if even
        else (0, *sorted(data.draw(st.lists(st.integers(0, extent), min_size=pieces - 1, max_size=pieces - 1))), extent)
    )
    s = crop_layout(Sharding(((0,),)), {0: (c, out_cut)}, {0: source})
    cut = s.sharded_dims_offsets or source
    halo = tuple(s.halo_sizes) or (0, 0)
    assert all(c.local(out_cut, cut, halo, p) is not None for p in range(pieces))


def test_slices_keep_their_rows_in_place_where_that_moves_fewer_bytes():
    """`cheapest_crop_cut`: `x[:, :-1]` of 32 rows over 4 keeps each device's
    rows where they are (8, 8, 8, 7), where the default cut of 31 (7, 8, 8,
    8) brings a row to three devices; `x[:, 1:]`'s own cut is the default
    one.  Two slices wanting different cuts (a next-token loss's logits and
    targets) take the one that moves the cheaper rows; a crop reading such a
    value (a pad back to 32) is priced too, and a tie keeps the default."""
    even = (0, 8, 16, 24, 32)
    head, tail = Crop(0, 1, 1, 0, 1, (4, 32, 16), 31), Crop(0, 1, 1, 1, 1, (4, 32), 31)
    assert cheapest_crop_cut([(head, 256, even)], [], 31, 4) == (0, 8, 16, 24, 31)
    assert cheapest_crop_cut([(tail, 16, even)], [], 31, 4) is None
    assert cheapest_crop_cut([(head, 256, even), (tail, 16, even)], [], 31, 4) == (0, 8, 16, 24, 31)
    assert cheapest_crop_cut([(head, 16, even), (tail, 256, even)], [], 31, 4) is None
    # pad(x[:, :-1], low 1) back to 32 rows: either cut moves one row
    shift = Crop(0, 1, 1, -1, 1, (4, 31, 16), 32, pads=True)
    assert cheapest_crop_cut([(head, 256, even)], [(shift, 256, even)], 31, 4) is None
