"""Passes in a caller's own PassManager, with or without `with ctx:`, and
`mesh_dialect.pass_manager`: pipelines that mix our passes and upstream's,
in upstream's spelling too."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.driver.pipeline import PIPELINES, MeshPassManager, PipelineError, expand, parse_pipeline
from mesh_dialect.transforms import PASSES, Pass

ANNOTATED = """\
mesh.mesh @m(shape = 2)
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8xf32>
  %c = arith.addf %a1, %b : tensor<8xf32>
  %d = arith.mulf %c, %c : tensor<8xf32>
  return %d : tensor<8xf32>
}
"""

# The passes of this project that must run on ANNOTATED (partition after propagation).
CORE = (
    "mesh-canonicalize",
    "sharding-propagation",
    "mesh-partition",
    "mesh-spmdization",
    "mesh-optimize-collectives",
    "mesh-lower-process-multi-index",
    "mesh-lower-all-slice",
    "test-mesh-resharding",
    "mesh-verify",
)


def _run(names: list[str], *, inside: bool) -> str:
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(ANNOTATED, context=ctx)
    pm = PassManager("builtin.module", context=ctx)
    for name in names:
        PASSES[name]().add_to(pm)
    if inside:
        with ctx:
            pm.run(module)
    else:
        pm.run(module)
    return mesh_dialect.print_ir(module)


def _pipeline_for(name: str) -> list[str]:
    return ["sharding-propagation", name] if name in ("mesh-partition", "mesh-spmdization") else [name]


@pytest.mark.parametrize("name", CORE)
def test_every_pass_runs_in_a_callers_pass_manager_without_with_ctx(name):
    outside = _run(_pipeline_for(name), inside=False)
    assert outside == _run(_pipeline_for(name), inside=True)
    assert ir.Context.current is None and ir.Location.current is None  # nothing left entered


def test_no_registered_pass_needs_the_callers_context():
    """Passes added later too: none fails for want of a context (it may
    refuse this input for its own reasons)."""
    for name in sorted(PASSES):
        try:
            _run(_pipeline_for(name), inside=False)
        except ir.MLIRError as e:
            assert "requires a Context" not in str(e) and "internal error" not in str(e), (name, str(e))


def test_a_pass_run_under_another_current_context_uses_the_modules():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(ANNOTATED, context=ctx)
    pm = PassManager("builtin.module", context=ctx)
    for name in ("sharding-propagation", "mesh-partition"):
        PASSES[name]().add_to(pm)
    with ir.Context(), ir.Location.unknown():
        pm.run(module)
    assert "tensor<4xf32>" in mesh_dialect.print_ir(module)


def test_pass_manager_accepts_upstreams_nesting_and_means_our_pass():
    ctx = mesh_dialect.context()
    printed = []
    for text in (
        "builtin.module(sharding-propagation{traversal=forward}, mesh-partition)",
        "builtin.module(func.func(sharding-propagation{traversal=forward}), func.func(mesh-partition))",
        "builtin.module(func.func(cse, sharding-propagation{traversal=forward}, canonicalize), mesh-spmdization)",
    ):
        module = mesh_dialect.parse(ANNOTATED, context=ctx)
        pm = mesh_dialect.pass_manager(text, context=ctx)
        assert isinstance(pm, MeshPassManager) and isinstance(pm, PassManager)
        pm.run(module)  # no `with ctx:`
        printed.append(mesh_dialect.print_ir(module))
    assert printed[0] == printed[1] == printed[2]
    assert "%arg0: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}" in printed[0]


def test_a_named_pipeline_is_its_passes_with_its_options_routed():
    """`mesh-spmd-pipeline{...}` runs as its passes spelled out, each option
    given to the first of them that has it; `pass_manager` lists them."""
    ctx = mesh_dialect.context()
    printed = []
    for text in (
        "builtin.module(mesh-spmd-pipeline{traversal=forward solver=sweep narrow-slices=false})",
        "builtin.module(prepare-windows{narrow-slices=false}, decompose-softmax, "
        "sharding-propagation{solver=sweep traversal=forward}, mesh-partition, mesh-optimize-collectives, "
        "mesh-canonicalize)",
    ):
        module = mesh_dialect.parse(ANNOTATED, context=ctx)
        pm = mesh_dialect.pass_manager(text, context=ctx)
        assert [p.ARGUMENT for p in pm.passes][:6] == list(PIPELINES["mesh-spmd-pipeline"].passes)
        pm.run(module)
        printed.append(mesh_dialect.print_ir(module))
    assert printed[0] == printed[1]
    assert "mesh.sharding = #mesh.sharding<@m, [[0]]>" in printed[0]
    with pytest.raises(PipelineError, match="pipeline 'mesh-spmd-pipeline' has no option 'colour'"):
        mesh_dialect.pass_manager("mesh-spmd-pipeline{colour=red}", context=ctx)
    assert [el.name for el in expand(parse_pipeline("cse, mesh-spmd-pipeline"))][:3] == [
        "cse",
        "prepare-windows",
        "decompose-softmax",
    ]


def test_our_names_win_over_upstreams():
    """Upstream's sharding-propagation knows the `shard` dialect, not ours:
    PassManager.parse picks it, and it fails on mesh ops."""
    ctx = mesh_dialect.context()
    ours = mesh_dialect.parse(ANNOTATED, context=ctx)
    mesh_dialect.pass_manager("builtin.module(func.func(sharding-propagation))", context=ctx).run(ours)
    assert "mesh.sharding_option" in mesh_dialect.print_ir(ours)
    theirs = mesh_dialect.parse(ANNOTATED, context=ctx)
    with pytest.raises(ir.MLIRError, match="sharding interface is not implemented"):
        PassManager.parse("builtin.module(func.func(sharding-propagation))", context=ctx).run(theirs)


def test_pass_manager_keeps_upstream_passes_and_nesting():
    ctx = mesh_dialect.context()
    pm = mesh_dialect.pass_manager(
        "builtin.module(canonicalize, func.func(cse), mesh-canonicalize{dce=false})", context=ctx, verify_each=False
    )
    text = str(pm)
    # The guard before a folding upstream pass shows; cse folds nothing and has none.
    assert text.startswith("builtin.module(fold-guard,canonicalize{") and ",func.func(cse)," in text
    assert text.endswith("mesh-canonicalize)")
    assert [type(p).__name__ for p in pm.passes] == ["MeshCanonicalize"] and pm.passes[0].dce is False


def test_pass_manager_stops_before_an_upstream_fold_that_would_abort():
    """Upstream's folder asserts on `xori %a, %a` of a dynamic shape; the
    pipeline raises at that op instead, and the module is left as it was."""
    ctx = mesh_dialect.context()
    text = (
        "func.func @f(%a: tensor<?xi1>) -> tensor<?xi1> {\n"
        "  %0 = arith.xori %a, %a : tensor<?xi1>\n"
        "  return %0 : tensor<?xi1>\n}\n"
    )
    module = mesh_dialect.parse(text, context=ctx)
    before = mesh_dialect.print_ir(module)
    with pytest.raises(ir.MLIRError, match="upstream pass 'canonicalize' cannot run on 'arith.xori' of one value") as e:
        mesh_dialect.pass_manager("builtin.module(mesh-canonicalize, canonicalize)", context=ctx).run(module)
    assert [str(d.location) for d in e.value.error_diagnostics] == ['loc("<string>":2:8)']
    assert mesh_dialect.print_ir(module) == before


def test_pass_manager_uses_the_current_context():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(ANNOTATED, context=ctx)
    with ctx:
        pm = mesh_dialect.pass_manager("sharding-propagation")
    pm.run(module)
    assert "mesh.sharding_option" in mesh_dialect.print_ir(module)
    with pytest.raises(ValueError, match="pass_manager needs a context"):
        mesh_dialect.pass_manager("cse")


def test_pass_manager_verifies_after_each_pass_and_can_add_more():
    ctx = mesh_dialect.context()
    pm = mesh_dialect.pass_manager("builtin.module(mesh-canonicalize)", context=ctx)
    assert "mesh-verify" in str(pm)
    pm.add("cse")  # still an ordinary PassManager
    module = mesh_dialect.parse(ANNOTATED, context=ctx)
    pm.run(module)


POOL = """\
mesh.mesh @m(shape = 4)
func.func @aligned_pool(%x: tensor<1x8x4x2xf32>) -> tensor<1x8x4x2xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x4x2xf32>
  %p = tosa.max_pool2d %xs {kernel = array<i64: 3, 1>, pad = array<i64: 0, 2, 0, 0>, stride = array<i64: 1, 1>}
      : (tensor<1x8x4x2xf32>) -> tensor<1x8x4x2xf32>
  %ps = mesh.shard %p to %s : tensor<1x8x4x2xf32>
  return %ps : tensor<1x8x4x2xf32>
}
"""


def test_pass_manager_collects_the_remarks_of_python_passes():
    ctx = mesh_dialect.context()
    pm = mesh_dialect.pass_manager("builtin.module(sharding-propagation{explain=true})", context=ctx)
    pm.run(mesh_dialect.parse(POOL, filename="pool.mlir", context=ctx))
    [remark] = pm.diagnostics
    assert (remark.severity, remark.filename, remark.line) == ("remark", "pool.mlir", 5)
    assert "operand 0 of 'tosa.max_pool2d' is resharded" in remark.message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "builtin.module(gpu.module(sharding-propagation))",
            "pass 'sharding-propagation' runs on the whole module, not in 'gpu.module(...)'",
        ),
        (
            "builtin.module(func.func(any(mesh-partition)))",
            "pass 'mesh-partition' runs on the whole module, not in 'func.func(any(...))'",
        ),
        ("builtin.module(func.func(mesh-canonicalize))", "pass 'mesh-canonicalize' runs on builtin.module only"),
        ("builtin.module(func.func(bogus))", "'bogus' is not a pass of mesh-opt or of upstream MLIR"),
        (
            "func.func(sharding-propagation{traversal=sideways})",
            "option 'traversal' of pass 'sharding-propagation' must be one of",
        ),
    ],
)
def test_pass_manager_refuses_what_would_not_run_the_same(text, message):
    with pytest.raises(PipelineError, match=message.replace("(", r"\(").replace(")", r"\)")):
        mesh_dialect.pass_manager(text, context=mesh_dialect.context())


def test_expand_splits_a_nested_pipeline_around_our_passes():
    elements = expand(
        parse_pipeline("builtin.module(func.func(cse, sharding-propagation{traversal=forward}, canonicalize))")
    )
    assert [e.text for e in elements] == [
        "func.func(cse)",
        "sharding-propagation{traversal=forward}",
        "func.func(canonicalize)",
    ]
    assert expand(elements) == elements


@dataclasses.dataclass
class Counting(Pass):
    ARGUMENT: ClassVar[str] = "test-counting"
    SUMMARY: ClassVar[str] = "counts the functions"
    STATISTICS: ClassVar[dict[str, str]] = {"functions": "Number of functions seen", "ops": "Number of ops seen"}

    def run(self, module: ir.Operation) -> None:
        for op in module.regions[0].blocks[0].operations:
            self.count("ops")
            if op.operation.name == "func.func":
                self.count("functions")


def test_a_pass_keeps_counters_that_add_up_over_runs():
    ctx = mesh_dialect.context()
    p = Counting()
    pm = PassManager("builtin.module", context=ctx)
    p.add_to(pm)
    for _ in range(2):
        pm.run(mesh_dialect.parse(ANNOTATED, context=ctx))
    assert p.statistics == {"functions": 2, "ops": 4}
    assert p.statistics_lines("  ") == [
        "  (S) 2 functions - Number of functions seen",
        "  (S) 4 ops - Number of ops seen",
    ]
    p.count("ops", 8)  # values align on the right, as MLIR prints them
    assert p.statistics_lines("") == ["(S)  2 functions - Number of functions seen", "(S) 12 ops - Number of ops seen"]
    with pytest.raises(KeyError, match="has no statistic 'nope'"):
        p.count("nope")
