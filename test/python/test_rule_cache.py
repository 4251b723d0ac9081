"""RuleCache gives exactly `rule_for`'s rule for every op, while building
each distinct op signature's rule once; rules registered by users are
always called."""

from __future__ import annotations

from pathlib import Path

from mlir import ir

import mesh_dialect
from mesh_dialect.interfaces import RuleCache, ShardingRule, register_rule, registry, rule_for

ROOT = Path(__file__).resolve().parents[2]
INPUTS = [
    *sorted((ROOT / "test" / "Sim" / "partition").glob("*.mlir")),
    ROOT / "test" / "Transforms" / "sharding-propagation.mlir",
    ROOT / "test" / "Transforms" / "sharding-propagation-mlp.mlir",
]


_KEEP: list = []  # the modules whose ops a test holds: freeing them would free the ops


def _ops(text: str, ctx: ir.Context) -> list[ir.Operation]:
    chunks = [c for c in text.split("// -----") if "func.func" in c]
    ops: list[ir.Operation] = []
    modules = _KEEP
    for chunk in chunks:
        module = mesh_dialect.parse(chunk, context=ctx, verify=False)
        modules.append(module)

        def visit(op: ir.Operation) -> ir.WalkResult:
            ops.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return ops


def test_cached_rules_equal_fresh_ones_on_every_op_of_the_tests() -> None:
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    checked = 0
    for path in INPUTS:
        cache = RuleCache()
        ops = _ops(path.read_text(), ctx)
        for op in ops:
            assert cache.rule_for(op) == rule_for(op), f"{path.name}: {op.name}"
            checked += 1
    assert checked > 400


def test_a_repeated_signature_is_built_once_and_a_different_body_is_not_confused() -> None:
    body = """
  %r{i} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y = {combiner} %x, %o : f32
    linalg.yield %y : f32
  }} -> tensor<4x4xf32>"""
    ops = [body.format(i=i, combiner="arith.addf") for i in range(5)]
    ops.append(body.format(i=5, combiner="arith.mulf"))
    text = (
        "#map = affine_map<(d0, d1) -> (d0, d1)>\n"
        "func.func @f(%a: tensor<4x4xf32>) {" + "".join(ops) + "\n  return\n}\n"
    )
    ctx = mesh_dialect.context()
    generics = [op for op in _ops(text, ctx) if op.name == "linalg.generic"]
    cache = RuleCache()
    rules = [cache.rule_for(op) for op in generics]
    assert cache.misses == 2
    assert all(r is rules[0] for r in rules[:5])
    assert rules[5] is not rules[0]


def test_hlo_ops_share_a_rule_by_their_properties_wherever_they_are() -> None:
    """stablehlo ops keep their properties out of `op.attributes`: equal
    reduces in different places (other operands, other SSA names) share one
    rule, a transpose with another permutation does not."""
    reduce = """
  %r{i} = "stablehlo.reduce"(%{src}, %z) <{{dimensions = array<i64: 1>}}> ({{
  ^bb0(%x{i}: tensor<f32>, %y{i}: tensor<f32>):
    %s{i} = "stablehlo.add"(%x{i}, %y{i}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s{i}) : (tensor<f32>) -> ()
  }}) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>"""
    transpose = """
  %t{i} = "stablehlo.transpose"(%a) <{{permutation = array<i64: {perm}>}}> : (tensor<4x4xf32>) -> tensor<4x4xf32>"""
    text = (
        "func.func @f(%a: tensor<4x4xf32>, %z: tensor<f32>) {"
        + reduce.format(i=0, src="a")
        + transpose.format(i=0, perm="0, 1")
        + reduce.format(i=1, src="t0")
        + transpose.format(i=1, perm="1, 0")
        + "\n  return\n}\n"
    )
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    ops = {op.name: [] for op in _ops(text, ctx)}
    for op in _ops(text, ctx):
        ops[op.name].append(op)
    cache = RuleCache()
    reduces = [cache.rule_for(op) for op in ops["stablehlo.reduce"]]
    assert cache.misses == 1 and reduces[0] is reduces[1]
    transposes = [cache.rule_for(op) for op in ops["stablehlo.transpose"]]
    assert cache.misses == 3 and transposes[0] != transposes[1]


def test_a_users_rule_is_called_every_time() -> None:
    calls = []

    def mine(op):
        calls.append(op.name)
        return ShardingRule.elementwise(1)

    previous = register_rule("tosa.tanh", mine)
    try:
        text = (
            "func.func @f(%a: tensor<4xf32>) {\n"
            + "".join(f"  %t{i} = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>\n" for i in range(3))
            + "  return\n}\n"
        )
        ctx = mesh_dialect.context()
        cache = RuleCache()
        for op in _ops(text, ctx):
            cache.rule_for(op)
        assert calls == ["tosa.tanh"] * 3
    finally:
        register_rule("tosa.tanh", previous)


def test_the_sharding_option_propagation_writes_does_not_change_the_signature() -> None:
    """Partition looks up the rules of ops propagation annotated: they must
    hit the entries propagation made."""
    text = """
mesh.mesh @m(shape = 2)
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<4x6xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  %1 = linalg.matmul {mesh.sharding_option = #mesh.sharding<@m, [[0]]>}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}
"""
    ctx = mesh_dialect.context()
    plain, annotated = [op for op in _ops(text, ctx) if op.name == "linalg.matmul"]
    cache = RuleCache()
    assert cache.rule_for(plain) is cache.rule_for(annotated)
    assert cache.misses == 1


def test_the_shared_cache_belongs_to_one_context() -> None:
    first, second = mesh_dialect.context(), mesh_dialect.context()
    cache = RuleCache.shared(first)
    assert RuleCache.shared(first) is cache
    assert RuleCache.shared(second) is not cache
    assert RuleCache.shared(first) is not cache  # a context asked for again starts afresh


_INDEXED = """
  %r{i} = linalg.generic {{indexing_maps = [#shift, #map], iterator_types = ["parallel", "parallel"]}}
      ins(%b : tensor<4x5xf32>) outs(%a : tensor<4x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %k = linalg.index {dim} : index
    %n = arith.index_cast %k : index to i32
    %f = arith.sitofp %n : i32 to f32
    %y = arith.addf %x, %f : f32
    linalg.yield %y : f32
  }} -> tensor<4x4xf32>"""


def test_a_parallel_body_is_keyed_by_the_loops_it_indexes() -> None:
    """Without reduction loops, the rule reads of the body only which loops
    `linalg.index` reads: bodies that index different loops get different
    rules, each the one `rule_for` builds (a loop whose index the body reads
    stays whole when a map is not plain loops: here a shifted input)."""
    text = (
        "#map = affine_map<(d0, d1) -> (d0, d1)>\n"
        "#shift = affine_map<(d0, d1) -> (d0, d1 + 1)>\n"
        "func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x5xf32>) {"
        + "".join(_INDEXED.format(i=i, dim=dim) for i, dim in enumerate((0, 1, 0)))
        + "\n  return\n}\n"
    )
    ctx = mesh_dialect.context()
    generics = [op for op in _ops(text, ctx) if op.name == "linalg.generic"]
    cache = RuleCache()
    rules = [cache.rule_for(op) for op in generics]
    assert cache.misses == 2
    assert rules[2] is rules[0] and rules[1] is not rules[0]
    assert [r == rule_for(op) for r, op in zip(rules, generics)] == [True] * 3
    assert [str(it) for it in rules[0].iterators] != [str(it) for it in rules[1].iterators]


_GENERICS = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
mesh.mesh @m(shape = 2)
func.func @f(%a: tensor<4x4xf32>, %t: tensor<4xf32>, %z: f32) {
  %0 = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %z : f32
    %y = arith.addf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x4xf32>) outs(%t : tensor<4xf32>) attrs = {mesh.sharding_option = #mesh.sharding<@m, [[0]]>} {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0 : index
    %e = tensor.extract %t[%c] : tensor<4xf32>
    %s = arith.addf %x, %e : f32
    %y = arith.addf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %e = tensor.extract %t[%i] : tensor<4xf32>
    %y = arith.maximumf %x, %e : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  return
}
"""
"""Reductions and parallel generics reading a scalar or a tensor from outside."""


def test_lookup_reports_the_option_and_whether_a_body_may_read_an_outside_tensor() -> None:
    ctx = mesh_dialect.context()
    generics = [op for op in _ops(_GENERICS, ctx) if op.name == "linalg.generic"]
    cache = RuleCache()
    found = [cache.lookup(op, op.name) for op in generics]
    assert [rule == rule_for(op) for (rule, _, _), op in zip(found, generics)] == [True] * 4
    assert found[0][1] is None and found[2][1] is None
    assert found[1][1] == generics[1].attributes["mesh.sharding_option"]
    # a scalar from outside is fine; a tensor may be split; a parallel body is
    # keyed by its op names: arith and math alone bring in no outside tensor,
    # a tensor.extract may
    assert [captures for _, _, captures in found] == [False, True, False, True]


def test_a_scatter_add_into_zeros_is_not_confused_with_one_into_a_value() -> None:
    """The rule of a scatter-add reads its input's defining op (a splat of
    0 lets each device add a part of the updates): the key must too."""
    scatter = """
  %r{i} = "stablehlo.scatter"({x}, %ids, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims
      = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }}) : (tensor<4x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<4x8xf32>"""
    text = (
        "func.func @f(%t: tensor<4x8xf32>, %ids: tensor<6x1xi32>, %u: tensor<6x8xf32>) {\n"
        '  %c = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>\n'
        '  %zeros = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}>'
        " : (tensor<f32>) -> tensor<4x8xf32>"
        + scatter.format(i=0, x="%zeros")
        + scatter.format(i=1, x="%t")
        + scatter.format(i=2, x="%zeros")
        + "\n  return\n}\n"
    )
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    scatters = [op for op in _ops(text, ctx) if op.name == "stablehlo.scatter"]
    cache = RuleCache()
    into_zeros, into_t, again = (cache.rule_for(op) for op in scatters)
    assert [rule_for(op) for op in scatters] == [into_zeros, into_t, again]
    assert cache.misses == 2 and again is into_zeros
    # the ids' and updates' tokens are a sum loop only into zeros
    assert into_zeros.num_loops == 3 and into_zeros.operand_maps[1] == (2, None)
    assert into_t.num_loops == 2 and into_t.operand_maps[1] == (None, None)


def test_a_rule_registered_after_lookups_takes_over_and_removing_it_restores_the_family() -> None:
    """The rule function is remembered per op name: registering or removing
    one must be seen by the next lookup, in the same cache too."""
    calls = []

    def mine(op):
        calls.append(op.name)
        return ShardingRule.elementwise(1)

    text = "func.func @f(%a: tensor<4xf32>) {\n  %t = arith.negf %a : tensor<4xf32>\n  return\n}\n"
    ctx = mesh_dialect.context()
    neg = next(op for op in _ops(text, ctx) if op.name == "arith.negf")
    cache = RuleCache()
    built_in = cache.rule_for(neg)
    assert built_in == rule_for(neg) and calls == []
    previous = register_rule("arith.negf", mine)
    try:
        assert previous is None
        assert cache.rule_for(neg) == ShardingRule.elementwise(1) and calls == ["arith.negf"]
    finally:
        register_rule("arith.negf", None)
    assert cache.rule_for(neg) == built_in and calls == ["arith.negf"]


def test_a_generic_or_matmul_key_names_only_what_the_linalg_rule_reads() -> None:
    """A linalg.generic's or linalg.matmul's key holds the attributes the
    built-in rule reads (maps, iterator types, operand segments), a matmul's
    `cast` (its generated body follows it) and a discardable `iterator_types`
    (the rule asks for one): other attributes (a `doc`, a discardable one)
    leave the rule alone and share its entry."""
    generic = """
  %g{i} = linalg.generic {{{extra}indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y{i} = arith.negf %x : f32
    linalg.yield %y{i} : f32
  }} -> tensor<4x4xf32>"""
    matmul = """
  %m{i} = linalg.matmul {extra} ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>)
      -> tensor<4x4xf32>"""
    generics = ["", 'doc = "negate", ', "my.tag = 1 : i64, "]
    matmuls = ["", "{my.tag = 1 : i64}", "{cast = #linalg.type_fn<cast_unsigned>}", '{iterator_types = ["x"]}']
    text = (
        "#map = affine_map<(d0, d1) -> (d0, d1)>\n"
        "func.func @f(%a: tensor<4x4xf32>) {"
        + "".join(generic.format(i=i, extra=extra) for i, extra in enumerate(generics))
        + "".join(matmul.format(i=i, extra=extra) for i, extra in enumerate(matmuls))
        + "\n  return\n}\n"
    )
    ctx = mesh_dialect.context()
    ops = [op for op in _ops(text, ctx) if op.name in ("linalg.generic", "linalg.matmul")]
    cache = RuleCache()
    rules = [cache.rule_for(op) for op in ops]
    assert [r == rule_for(op) for r, op in zip(rules, ops)] == [True] * 7
    assert rules[1] is rules[0] and rules[2] is rules[0]
    assert rules[4] is rules[3] and rules[5] is not rules[3] and rules[6] is not rules[3]
    assert cache.misses == 4


def test_lookup_typed_gives_one_pair_of_type_tuples_per_signature() -> None:
    """Propagation keeps each op's types as its key holds them: ops of one
    signature share the tuples; a registered rule's op has none."""
    text = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<4x6xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}
"""
    ctx = mesh_dialect.context()
    first, second = [op for op in _ops(text, ctx) if op.name == "linalg.matmul"]
    cache = RuleCache()
    *_, types = cache.lookup_typed(first, first.name)
    assert cache.lookup_typed(second, second.name)[3] is types
    assert [str(t) for t in types[0]] == ["tensor<4x8xf32>", "tensor<8x6xf32>", "tensor<4x6xf32>"]
    assert [str(t) for t in types[1]] == ["tensor<4x6xf32>"]
    previous = register_rule("linalg.matmul", lambda op: None)
    try:
        assert cache.lookup_typed(first, first.name)[3] is None
    finally:
        register_rule("linalg.matmul", previous)


def test_a_body_reading_starts_after_the_op_itself() -> None:
    """The body readings walk from the op itself and leave it out: each
    reads the body's ops in order, a parallel one by name (and the loop a
    `linalg.index` reads), the general one numbering the block's arguments
    and results, an outside value by its type. Propagation and partition
    share these keys, so their exact form is pinned here."""
    ctx = mesh_dialect.context()
    generics = [op for op in _ops(_GENERICS, ctx) if op.name == "linalg.generic"]
    reduction, parallel = generics[0], generics[3]
    assert registry._parallel_body(parallel) == (
        "parallel body",
        "linalg.index",
        0,
        "tensor.extract",
        "arith.maximumf",
        "linalg.yield",
    )
    body = registry._body(reduction, {})
    assert [item[0] for item in body] == ["^", "arith.addf", "arith.addf", "linalg.yield"]
    assert body[0] == ("^", 2)
    assert [item[2] for item in body[1:]] == [(0, ir.F32Type.get(ctx)), (2, 1), (3,)]
    assert [item[3] for item in body[1:]] == [1, 1, 0]


_REDUCTION = """
  %r{i}{multi} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "reduction"]}}
      ins({ins}) outs({outs}) {{
  ^bb0(%x: f32, {args}):
{body}
  }} -> {results}"""

_ONE = {
    "multi": "",
    "maps": "#map, #row",
    "ins": "%a : tensor<4x4xf32>",
    "outs": "%t : tensor<4xf32>",
    "args": "%o: f32",
    "results": "tensor<4xf32>",
}
_TWO = {
    **_ONE,
    "multi": ":2",
    "maps": "#map, #row, #row",
    "outs": "%t, %t : tensor<4xf32>, tensor<4xf32>",
    "args": "%o: f32, %p: f32",
    "results": "(tensor<4xf32>, tensor<4xf32>)",
}
_SHIFTED = {
    **_ONE,
    "maps": "#shift, #map, #row",
    "ins": "%b, %a : tensor<4x5xf32>, tensor<4x4xf32>",
    "args": "%w: f32, %o: f32",
}
_INDEX = (
    "%k = linalg.index {dim} : index; %n = arith.index_cast %k : index to i32; %f = arith.sitofp %n : i32 to f32;"
    " %s = arith.addf %x, %f : f32; %y = arith.addf %s, %o : f32; linalg.yield %y : f32"
)

_SELECT = "%c = arith.cmpf {predicate}, %x, %o : f32; %y = arith.select %c, %x, %o : f32; linalg.yield %y : f32"
_EXTRACT = (
    "%c = arith.constant 0 : index; %e = tensor.extract %t[%c] : tensor<4xf32>;"
    " %s = arith.addf %x, %e : f32; %y = arith.addf %s, %o : f32; linalg.yield %y : f32"
)
_NESTED = "%s = scf.execute_region -> f32 { %q = arith.addf %x, %o : f32; scf.yield %q : f32 }; linalg.yield %s : f32"
_UNREGISTERED_READ = '%y = arith.addf %x, %o : f32; "test.read"(%t) : (tensor<4xf32>) -> (); linalg.yield %y : f32'
_TWO_SUMS = "%y = arith.addf %x, %o : f32; %w = {second} : f32; linalg.yield {yielded} : f32, f32"

# (a reduction body, its lines joined by "; ", its form, its iterators as the
# rule gives them, whether it may read an outside tensor): neighbours differ
# in one thing the rule or the outside reading could follow
_REDUCTION_BODIES = [
    ("%y = arith.addf %x, %o : f32; linalg.yield %y : f32", _ONE, "parallel sum", False),
    ("%y = arith.addf %o, %x : f32; linalg.yield %y : f32", _ONE, "parallel sum", False),
    ("%y = arith.subf %x, %o : f32; linalg.yield %y : f32", _ONE, "parallel invalid", False),
    ("%y = arith.mulf %x, %o : f32; linalg.yield %y : f32", _ONE, "parallel product", False),
    ("%y = arith.maximumf %x, %o : f32; linalg.yield %y : f32", _ONE, "parallel max", False),
    ("%y = arith.maxnumf %x, %o : f32; linalg.yield %y : f32", _ONE, "parallel invalid", False),
    (_SELECT.format(predicate="ogt"), _ONE, "parallel invalid", False),
    (_SELECT.format(predicate="olt"), _ONE, "parallel invalid", False),
    ("%s = arith.mulf %x, %x : f32; %y = arith.addf %s, %o : f32; linalg.yield %y : f32", _ONE, "parallel sum", False),
    (
        "%s = arith.mulf %x, %o : f32; %y = arith.addf %s, %o : f32; linalg.yield %y : f32",
        _ONE,
        "parallel invalid",
        False,
    ),
    ("%s = arith.addf %x, %z : f32; %y = arith.addf %s, %o : f32; linalg.yield %y : f32", _ONE, "parallel sum", False),
    (
        "%s = arith.addf %x, %o : f32; %y = arith.addf %s, %z : f32; linalg.yield %y : f32",
        _ONE,
        "parallel invalid",
        False,
    ),
    (
        "%u = arith.negf %t : tensor<4xf32>; %y = arith.addf %x, %o : f32; linalg.yield %y : f32",
        _ONE,
        "parallel sum",
        True,
    ),
    ("%u = arith.negf %z : f32; %y = arith.addf %x, %o : f32; linalg.yield %y : f32", _ONE, "parallel sum", False),
    (_EXTRACT, _ONE, "parallel sum", True),
    ("%y = arith.addf %x, %o : f32; linalg.yield %z : f32", _ONE, "parallel invalid", False),
    ("%y = arith.addf %x, %o : f32; linalg.yield %x : f32", _ONE, "parallel invalid", False),
    (_NESTED, _ONE, "parallel invalid", False),
    ('%y = "test.combine"(%x, %o) : (f32, f32) -> f32; linalg.yield %y : f32', _ONE, "parallel invalid", False),
    ('%y = "test.combine"(%x, %o) {k = 1} : (f32, f32) -> f32; linalg.yield %y : f32', _ONE, "parallel invalid", False),
    (_UNREGISTERED_READ, _ONE, "parallel sum", True),
    (_TWO_SUMS.format(second="arith.addf %x, %p", yielded="%y, %w"), _TWO, "parallel sum", False),
    (_TWO_SUMS.format(second="arith.maximumf %x, %p", yielded="%y, %w"), _TWO, "parallel invalid", False),
    (_TWO_SUMS.format(second="arith.addf %y, %p", yielded="%y, %w"), _TWO, "parallel invalid", False),
    (_TWO_SUMS.format(second="arith.addf %x, %p", yielded="%w, %y"), _TWO, "parallel invalid", False),
    (_INDEX.format(dim=0), _SHIFTED, "invalid invalid", False),
    (_INDEX.format(dim=1), _SHIFTED, "parallel invalid", False),
    ("%y = arith.addf %x, %o : f32; linalg.yield %y : f32", _SHIFTED, "parallel invalid", False),
]


def _reduction_module() -> str:
    generics = [
        _REDUCTION.format(i=i, body="    " + body.replace("; ", "\n    "), **form)
        for i, (body, form, _, _) in enumerate(_REDUCTION_BODIES)
    ]
    return (
        "#map = affine_map<(d0, d1) -> (d0, d1)>\n"
        "#row = affine_map<(d0, d1) -> (d0)>\n"
        "#shift = affine_map<(d0, d1) -> (d0, d1 + 1)>\n"
        "func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x5xf32>, %t: tensor<4xf32>, %z: f32) {"
        + "".join(generics)
        + "\n  return\n}\n"
    )


def test_a_reduction_body_shares_an_entry_only_with_bodies_of_its_rule() -> None:
    """Reduction bodies that differ in one thing (an operand's order or
    origin, a combiner, a predicate, a loop a `linalg.index` reads, an op
    nested in another, an op of an unregistered dialect, an output read by
    another's combiner, an outside tensor read) get from one cache, in
    either order, exactly the rule `rule_for` builds and whether they may
    read an outside tensor."""
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    generics = [op for op in _ops(_reduction_module(), ctx) if op.name == "linalg.generic"]
    assert len(generics) == len(_REDUCTION_BODIES)
    for order in (generics, generics[::-1]):
        cache = RuleCache()
        for op in order:
            cache.lookup(op, op.name)
        found = [cache.lookup(op, op.name) for op in generics]
        assert [rule == rule_for(op) for (rule, _, _), op in zip(found, generics)] == [True] * len(generics)
        kinds = [" ".join(it.kind for it in rule.iterators) for rule, _, _ in found]
        assert kinds == [kind for _, _, kind, _ in _REDUCTION_BODIES]
        assert [outside for _, _, outside in found] == [outside for *_, outside in _REDUCTION_BODIES]
