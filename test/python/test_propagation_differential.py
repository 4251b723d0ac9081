"""Differential test of `sharding-propagation` against upstream MLIR's C++
pass: every program of test/Transforms/Inputs/propagation-corpus, under
every traversal, through both passes (`mesh_dialect.interop.differential`).

EXPECTED lists every place where the two may differ; a divergence that is
not listed, or a listed one that went away, fails.  The reason of each is in
docs/propagation.md (the tags in brackets name its rows).  KNOWN_BUGS are
cases where our pass is wrong; they are expected to fail until fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.interop import (
    Difference,
    NotExpressible,
    OpShardings,
    compare,
    differential,
    run_ours,
    to_upstream,
    value_shardings,
)
from mesh_dialect.interop.upstream import TRAVERSALS

CORPUS = Path(__file__).resolve().parents[1] / "Transforms" / "Inputs" / "propagation-corpus"
FILES = sorted(p.name for p in CORPUS.glob("*.mlir"))

# Upstream aborts the process on these (see docs/propagation.md), so its
# side runs in a child process.
ISOLATE = {"tosa-mul-2d.mlir", "fan-out-1d.mlir"}

Diff = tuple[int, str, str, str]  # (op index, slot, ours, upstream), as Difference.key()

# Upstream's pass-level outcomes.
ABORT_MIXED_USERS = (
    "failed: aborted (SIGABRT): Assertion `shardForDef == shardOps[i].getSharding() && "
    '"only support all shard ops have the same grid sharding attr"\' failed'
)
ABORT_RANK = "failed: aborted (SIGABRT): Assertion `idx < size()' failed"

EXPECTED: dict[tuple[str, str], list[Diff]] = {
    # one forward sweep passes the matmul before the annotation below it is seen [sweep]
    ("bias-add-middle-2d.mlir", "forward"): [
        (1, "result 0", "@mesh [[0], [1]]", "none"),
        (2, "operand 1", "@mesh [[0], [1]]", "none"),
        (2, "result 0", "@mesh [[0], [1]]", "none"),
        (3, "operand 0", "@mesh [[0]]", "none"),
        (3, "operand 1", "@mesh [[], [1]]", "none"),
        (3, "operand 2", "@mesh [[0], [1]]", "none"),
        (3, "result 0", "@mesh [[0], [1]]", "none"),
        (4, "result 0", "@mesh [[0], [1]]", "none"),
        (6, "result 0", "@mesh [[0], [1]]", "none"),
    ],
    # upstream leaves the generic alone: its two annotations conflict [conflict]
    ("conflict-in-out.mlir", "forward"): [
        (0, "result 0", "@mesh [[], [0]]", "none"),
        (1, "operand 0", "@mesh [[], [0]]", "@mesh [[0]]"),
        (1, "operand 1", "@mesh [[], [0]]", "none"),
    ],
    ("conflict-in-out.mlir", "backward"): [
        (0, "result 0", "@mesh [[], [0]]", "none"),
        (1, "operand 0", "@mesh [[], [0]]", "@mesh [[0]]"),
        (1, "operand 1", "@mesh [[], [0]]", "none"),
    ],
    ("conflict-in-out.mlir", "forward-backward"): [
        (0, "result 0", "@mesh [[], [0]]", "none"),
        (1, "operand 0", "@mesh [[], [0]]", "@mesh [[0]]"),
        (1, "operand 1", "@mesh [[], [0]]", "none"),
    ],
    ("conflict-in-out.mlir", "backward-forward"): [
        (0, "result 0", "@mesh [[], [0]]", "none"),
        (1, "operand 0", "@mesh [[], [0]]", "@mesh [[0]]"),
        (1, "operand 1", "@mesh [[], [0]]", "none"),
    ],
    # upstream leaves the matmul alone: its operands conflict [conflict]; the product is partial [partial]
    ("conflict-matmul-operands.mlir", "forward"): [
        (0, "result 0", "@mesh []", "none"),
        (2, "operand 1", "@mesh []", "none"),
        (2, "result 0", "@mesh []", "none"),
        (3, "operand 1", "@mesh [[0]]", "@mesh [[1]]"),
        (3, "operand 2", "@mesh []", "none"),
        (3, "result 0", "@mesh [] partial = sum [0]", "none"),
        (4, "operand 0", "@mesh [] partial = sum [0]", "none"),
    ],
    ("conflict-matmul-operands.mlir", "backward"): [
        (0, "result 0", "@mesh []", "none"),
        (2, "operand 1", "@mesh []", "none"),
        (2, "result 0", "@mesh []", "none"),
        (3, "operand 1", "@mesh [[0]]", "@mesh [[1]]"),
        (3, "operand 2", "@mesh []", "none"),
        (3, "result 0", "@mesh [] partial = sum [0]", "none"),
        (4, "operand 0", "@mesh [] partial = sum [0]", "none"),
    ],
    ("conflict-matmul-operands.mlir", "forward-backward"): [
        (0, "result 0", "@mesh []", "none"),
        (2, "operand 1", "@mesh []", "none"),
        (2, "result 0", "@mesh []", "none"),
        (3, "operand 1", "@mesh [[0]]", "@mesh [[1]]"),
        (3, "operand 2", "@mesh []", "none"),
        (3, "result 0", "@mesh [] partial = sum [0]", "none"),
        (4, "operand 0", "@mesh [] partial = sum [0]", "none"),
    ],
    ("conflict-matmul-operands.mlir", "backward-forward"): [
        (0, "result 0", "@mesh []", "none"),
        (2, "operand 1", "@mesh []", "none"),
        (2, "result 0", "@mesh []", "none"),
        (3, "operand 1", "@mesh [[0]]", "@mesh [[1]]"),
        (3, "operand 2", "@mesh []", "none"),
        (3, "result 0", "@mesh [] partial = sum [0]", "none"),
        (4, "operand 0", "@mesh [] partial = sum [0]", "none"),
    ],
    # one forward sweep passes tensor.empty before the add is annotated [sweep]
    ("conflict-optional.mlir", "forward"): [
        (0, "result 0", "@mesh [[0]]", "none"),
    ],
    # single sweeps miss the inits and, backwards, the later ops [sweep]
    ("elementwise-chain-input.mlir", "forward"): [
        (0, "result 0", "@mesh [[0], [1]]", "none"),
        (2, "result 0", "@mesh [[0], [1]]", "none"),
        (4, "result 0", "@mesh [[0], [1]]", "none"),
    ],
    ("elementwise-chain-input.mlir", "backward"): [
        (2, "result 0", "@mesh [[0], [1]]", "none"),
        (3, "operand 1", "@mesh [[0], [1]]", "none"),
        (3, "operand 2", "@mesh [[0], [1]]", "none"),
        (3, "result 0", "@mesh [[0], [1]]", "none"),
        (4, "result 0", "@mesh [[0], [1]]", "none"),
        (5, "operand 0", "@mesh [[0], [1]]", "none"),
        (5, "operand 1", "@mesh [[0], [1]]", "none"),
        (5, "result 0", "@mesh [[0], [1]]", "none"),
        (6, "operand 0", "@mesh [[0], [1]]", "none"),
    ],
    ("elementwise-chain-input.mlir", "backward-forward"): [
        (2, "result 0", "@mesh [[0], [1]]", "none"),
        (4, "result 0", "@mesh [[0], [1]]", "none"),
    ],
    # one forward sweep reaches only the last op [sweep]
    ("elementwise-chain-output.mlir", "forward"): [
        (0, "result 0", "@mesh [[1], [0]]", "none"),
        (1, "operand 0", "@mesh [[1], [0]]", "none"),
        (1, "operand 1", "@mesh [[1], [0]]", "none"),
        (1, "operand 2", "@mesh [[1], [0]]", "none"),
        (1, "result 0", "@mesh [[1], [0]]", "none"),
        (2, "result 0", "@mesh [[1], [0]]", "none"),
        (3, "operand 0", "@mesh [[1], [0]]", "none"),
        (3, "operand 1", "@mesh [[1], [0]]", "none"),
        (3, "result 0", "@mesh [[1], [0]]", "none"),
        (4, "result 0", "@mesh [[1], [0]]", "none"),
    ],
    # one forward sweep misses the inits [sweep]; backwards, upstream aborts on a value annotated differently
    # for two users [abort]
    ("fan-out-1d.mlir", "forward"): [
        (0, "result 0", "@mesh [[0]]", "none"),
        (3, "result 0", "@mesh [[], [0]]", "none"),
        (4, "operand 1", "@mesh [[], [0]]", "none"),
        (4, "result 0", "@mesh [[], [0]]", "none"),
        (6, "result 0", "@mesh [[0]]", "none"),
    ],
    ("fan-out-1d.mlir", "backward"): [
        (-1, "pass", "ok", ABORT_MIXED_USERS),
    ],
    ("fan-out-1d.mlir", "backward-forward"): [
        (-1, "pass", "ok", ABORT_MIXED_USERS),
    ],
    # the product stays partial [partial]; one forward sweep misses the init [sweep]
    ("matmul-contract-2d.mlir", "forward"): [
        (0, "result 0", "@mesh [[0]]", "none"),
        (2, "operand 1", "@mesh [[0]]", "none"),
        (2, "result 0", "@mesh [[0]]", "none"),
        (3, "result 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
        (4, "operand 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
    ],
    ("matmul-contract-2d.mlir", "backward"): [
        (3, "result 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
        (4, "operand 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
    ],
    ("matmul-contract-2d.mlir", "forward-backward"): [
        (3, "result 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
        (4, "operand 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
    ],
    ("matmul-contract-2d.mlir", "backward-forward"): [
        (3, "result 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
        (4, "operand 0", "@mesh [[0]] partial = sum [1]", "@mesh [[0]]"),
    ],
    # one forward sweep misses the init [sweep]
    ("matmul-rows-1d.mlir", "forward"): [
        (0, "result 0", "@mesh [[0]]", "none"),
        (2, "operand 1", "@mesh [[0]]", "none"),
        (2, "result 0", "@mesh [[0]]", "none"),
    ],
    # the output stays partial [partial]; one forward sweep misses the inits [sweep]
    ("mlp-weights-1d.mlir", "forward"): [
        (1, "result 0", "@mesh [[], [0]]", "none"),
        (2, "operand 1", "@mesh [[], [0]]", "none"),
        (2, "result 0", "@mesh [[], [0]]", "none"),
        (4, "result 0", "@mesh [[], [0]]", "none"),
        (6, "result 0", "@mesh []", "none"),
        (7, "operand 1", "@mesh []", "none"),
        (7, "result 0", "@mesh []", "none"),
        (8, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (9, "operand 0", "@mesh [] partial = sum [0]", "@mesh []"),
    ],
    ("mlp-weights-1d.mlir", "backward"): [
        (8, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (9, "operand 0", "@mesh [] partial = sum [0]", "@mesh []"),
    ],
    ("mlp-weights-1d.mlir", "forward-backward"): [
        (8, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (9, "operand 0", "@mesh [] partial = sum [0]", "@mesh []"),
    ],
    ("mlp-weights-1d.mlir", "backward-forward"): [
        (8, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (9, "operand 0", "@mesh [] partial = sum [0]", "@mesh []"),
    ],
    # one forward sweep misses the init [sweep]
    ("reduce-max-kept-2d.mlir", "forward"): [
        (1, "result 0", "@mesh [[0, 1]]", "none"),
        (2, "operand 1", "@mesh [[0, 1]]", "none"),
        (2, "result 0", "@mesh [[0, 1]]", "none"),
    ],
    # the row sum stays partial [partial]; single sweeps miss inits and the scaling [sweep]
    ("reduce-sum-split-reduced.mlir", "forward"): [
        (1, "result 0", "@mesh []", "none"),
        (2, "operand 1", "@mesh []", "none"),
        (2, "result 0", "@mesh []", "none"),
        (3, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (4, "result 0", "@mesh []", "none"),
    ],
    ("reduce-sum-split-reduced.mlir", "backward"): [
        (3, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (4, "result 0", "@mesh []", "none"),
        (5, "operand 1", "@mesh []", "none"),
        (5, "operand 2", "@mesh []", "none"),
        (5, "result 0", "@mesh []", "none"),
        (6, "operand 0", "@mesh []", "none"),
    ],
    ("reduce-sum-split-reduced.mlir", "forward-backward"): [
        (3, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
    ],
    ("reduce-sum-split-reduced.mlir", "backward-forward"): [
        (3, "result 0", "@mesh [] partial = sum [0]", "@mesh []"),
        (4, "result 0", "@mesh []", "none"),
    ],
    # the lost annotation now applies to the consumer, which runs split both ways [lost-result]
    ("result-annotation-loses.mlir", "forward"): [
        (1, "operand 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
        (1, "result 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
    ],
    # ('result-annotation-loses.mlir', 'backward') and 'backward-forward' agree with upstream exactly
    ("result-annotation-loses.mlir", "forward-backward"): [
        (1, "operand 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
        (1, "result 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
    ],
    # upstream gives both uses of %a the right operand's layout [same-value]; one forward sweep misses the init
    # [sweep]
    ("same-value-twice.mlir", "forward"): [
        (1, "result 0", "@mesh [[], [1]]", "none"),
        (2, "operand 1", "@mesh [[], [1]]", "none"),
        (2, "result 0", "@mesh [[], [1]]", "none"),
        (3, "operand 0", "@mesh []", "@mesh [[], [1]]"),
    ],
    ("same-value-twice.mlir", "backward"): [
        (3, "operand 0", "@mesh []", "@mesh [[], [1]]"),
    ],
    ("same-value-twice.mlir", "forward-backward"): [
        (3, "operand 0", "@mesh []", "@mesh [[], [1]]"),
    ],
    ("same-value-twice.mlir", "backward-forward"): [
        (3, "operand 0", "@mesh []", "@mesh [[], [1]]"),
    ],
    # single sweeps miss the inits and, backwards, everything after the matmul [sweep]
    ("softmax-rows-2d.mlir", "forward"): [
        (2, "result 0", "@mesh [[0, 1]]", "none"),
        (3, "operand 1", "@mesh [[0, 1]]", "none"),
        (3, "result 0", "@mesh [[0, 1]]", "none"),
        (5, "result 0", "@mesh [[0, 1]]", "none"),
        (6, "operand 1", "@mesh [[0, 1]]", "none"),
        (6, "result 0", "@mesh [[0, 1]]", "none"),
        (8, "result 0", "@mesh [[0, 1]]", "none"),
        (10, "result 0", "@mesh [[0, 1]]", "none"),
        (11, "operand 1", "@mesh [[0, 1]]", "none"),
        (11, "result 0", "@mesh [[0, 1]]", "none"),
        (13, "result 0", "@mesh [[0, 1]]", "none"),
    ],
    ("softmax-rows-2d.mlir", "backward"): [
        (5, "result 0", "@mesh [[0, 1]]", "none"),
        (6, "operand 1", "@mesh [[0, 1]]", "none"),
        (6, "result 0", "@mesh [[0, 1]]", "none"),
        (7, "operand 1", "@mesh [[0, 1]]", "none"),
        (7, "result 0", "@mesh [[0, 1]]", "none"),
        (8, "result 0", "@mesh [[0, 1]]", "none"),
        (9, "operand 1", "@mesh [[0, 1]]", "none"),
        (9, "operand 2", "@mesh [[0, 1]]", "none"),
        (9, "result 0", "@mesh [[0, 1]]", "none"),
        (10, "result 0", "@mesh [[0, 1]]", "none"),
        (11, "operand 1", "@mesh [[0, 1]]", "none"),
        (11, "result 0", "@mesh [[0, 1]]", "none"),
        (12, "operand 0", "@mesh [[0, 1]]", "none"),
        (12, "operand 1", "@mesh [[0, 1]]", "none"),
        (12, "result 0", "@mesh [[0, 1]]", "none"),
        (13, "result 0", "@mesh [[0, 1]]", "none"),
        (14, "operand 0", "@mesh [[0, 1]]", "none"),
        (14, "operand 1", "@mesh [[0, 1]]", "none"),
        (14, "operand 2", "@mesh [[0, 1]]", "none"),
        (14, "result 0", "@mesh [[0, 1]]", "none"),
        (15, "operand 0", "@mesh [[0, 1]]", "none"),
    ],
    ("softmax-rows-2d.mlir", "backward-forward"): [
        (5, "result 0", "@mesh [[0, 1]]", "none"),
        (6, "operand 1", "@mesh [[0, 1]]", "none"),
        (6, "result 0", "@mesh [[0, 1]]", "none"),
        (8, "result 0", "@mesh [[0, 1]]", "none"),
        (10, "result 0", "@mesh [[0, 1]]", "none"),
        (11, "operand 1", "@mesh [[0, 1]]", "none"),
        (11, "result 0", "@mesh [[0, 1]]", "none"),
        (13, "result 0", "@mesh [[0, 1]]", "none"),
    ],
    # one backward sweep reaches only the first add [sweep]
    ("tosa-elementwise.mlir", "backward"): [
        (1, "result 0", "@mesh [[1], [0]]", "none"),
        (2, "operand 0", "@mesh [[1], [0]]", "none"),
        (2, "result 0", "@mesh [[1], [0]]", "none"),
        (3, "operand 0", "@mesh [[1], [0]]", "none"),
    ],
    # tosa.const has a rule here, none upstream [const]
    ("tosa-matmul.mlir", "forward"): [
        (0, "result 0", "@mesh []", "none"),
    ],
    ("tosa-matmul.mlir", "backward"): [
        (0, "result 0", "@mesh []", "none"),
    ],
    ("tosa-matmul.mlir", "forward-backward"): [
        (0, "result 0", "@mesh []", "none"),
    ],
    ("tosa-matmul.mlir", "backward-forward"): [
        (0, "result 0", "@mesh []", "none"),
    ],
    # upstream aborts: the rank-1 shift operand [abort]
    ("tosa-mul-2d.mlir", "forward"): [
        (-1, "pass", "ok", ABORT_RANK),
    ],
    ("tosa-mul-2d.mlir", "backward"): [
        (-1, "pass", "ok", ABORT_RANK),
    ],
    ("tosa-mul-2d.mlir", "forward-backward"): [
        (-1, "pass", "ok", ABORT_RANK),
    ],
    ("tosa-mul-2d.mlir", "backward-forward"): [
        (-1, "pass", "ok", ABORT_RANK),
    ],
    # upstream splits the one-element shift operand [shift]; tosa.const has a rule here [const]; one backward
    # sweep misses the sigmoid [sweep]
    ("tosa-mul.mlir", "forward"): [
        (0, "result 0", "@mesh []", "none"),
        (1, "operand 2", "@mesh []", "@mesh [[0]]"),
    ],
    ("tosa-mul.mlir", "backward"): [
        (0, "result 0", "@mesh []", "none"),
        (1, "operand 2", "@mesh []", "@mesh [[0]]"),
        (2, "result 0", "@mesh [[0]]", "none"),
        (3, "operand 0", "@mesh [[0]]", "none"),
    ],
    ("tosa-mul.mlir", "forward-backward"): [
        (0, "result 0", "@mesh []", "none"),
        (1, "operand 2", "@mesh []", "@mesh [[0]]"),
    ],
    ("tosa-mul.mlir", "backward-forward"): [
        (0, "result 0", "@mesh []", "none"),
        (1, "operand 2", "@mesh []", "@mesh [[0]]"),
    ],
    # no upstream sharding interface for tosa.reduce_sum [no-rule]
    ("tosa-reduce-sum.mlir", "forward"): [
        (-1, "pass", "ok", "failed: 'tosa.reduce_sum' op sharding interface is not implemented."),
    ],
    ("tosa-reduce-sum.mlir", "backward"): [
        (-1, "pass", "ok", "failed: 'tosa.reduce_sum' op sharding interface is not implemented."),
    ],
    ("tosa-reduce-sum.mlir", "forward-backward"): [
        (-1, "pass", "ok", "failed: 'tosa.reduce_sum' op sharding interface is not implemented."),
    ],
    ("tosa-reduce-sum.mlir", "backward-forward"): [
        (-1, "pass", "ok", "failed: 'tosa.reduce_sum' op sharding interface is not implemented."),
    ],
    # no upstream sharding interface for tosa.transpose [no-rule]
    ("tosa-transpose.mlir", "forward"): [
        (-1, "pass", "ok", "failed: 'tosa.transpose' op sharding interface is not implemented."),
    ],
    ("tosa-transpose.mlir", "backward"): [
        (-1, "pass", "ok", "failed: 'tosa.transpose' op sharding interface is not implemented."),
    ],
    ("tosa-transpose.mlir", "forward-backward"): [
        (-1, "pass", "ok", "failed: 'tosa.transpose' op sharding interface is not implemented."),
    ],
    ("tosa-transpose.mlir", "backward-forward"): [
        (-1, "pass", "ok", "failed: 'tosa.transpose' op sharding interface is not implemented."),
    ],
    # one forward sweep misses the inits [sweep]
    ("transpose-both-2d.mlir", "forward"): [
        (0, "result 0", "@mesh [[1], [0]]", "none"),
        (2, "result 0", "@mesh [[1], [0]]", "none"),
    ],
    # upstream reads an unsplit dimension as forbidding the split and gives up [unsplit]
    ("unsplit-dim-2d.mlir", "forward"): [
        (0, "result 0", "@mesh [[0], [1]]", "none"),
        (1, "operand 0", "@mesh [[0], [1]]", "@mesh [[], [1]]"),
        (1, "operand 1", "@mesh [[0], [1]]", "none"),
        (1, "result 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
    ],
    ("unsplit-dim-2d.mlir", "backward"): [
        (0, "result 0", "@mesh [[0], [1]]", "none"),
        (1, "operand 0", "@mesh [[0], [1]]", "@mesh [[], [1]]"),
        (1, "operand 1", "@mesh [[0], [1]]", "none"),
        (1, "result 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
    ],
    ("unsplit-dim-2d.mlir", "forward-backward"): [
        (0, "result 0", "@mesh [[0], [1]]", "none"),
        (1, "operand 0", "@mesh [[0], [1]]", "@mesh [[], [1]]"),
        (1, "operand 1", "@mesh [[0], [1]]", "none"),
        (1, "result 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
    ],
    ("unsplit-dim-2d.mlir", "backward-forward"): [
        (0, "result 0", "@mesh [[0], [1]]", "none"),
        (1, "operand 0", "@mesh [[0], [1]]", "@mesh [[], [1]]"),
        (1, "operand 1", "@mesh [[0], [1]]", "none"),
        (1, "result 0", "@mesh [[0], [1]]", "@mesh [[0]]"),
    ],
}

KNOWN_BUGS: dict[tuple[str, str], str] = {}


def _cases():
    for name in FILES:
        for traversal in TRAVERSALS:
            bug = KNOWN_BUGS.get((name, traversal))
            marks = [pytest.mark.xfail(strict=True, reason=f"BUG: {bug}")] if bug else []
            yield pytest.param(name, traversal, marks=marks, id=f"{name[:-5]}-{traversal}")


@pytest.mark.parametrize(("name", "traversal"), list(_cases()))
def test_differences_are_exactly_the_expected_ones(name: str, traversal: str) -> None:
    text = (CORPUS / name).read_text()
    found = [d.key() for d in differential(text, traversal, isolate=name in ISOLATE)]
    assert found == EXPECTED.get((name, traversal), [])


def test_the_corpus_and_the_tables_agree() -> None:
    assert len(FILES) >= 12
    for name, traversal in list(EXPECTED) + list(KNOWN_BUGS):
        assert name in FILES and traversal in TRAVERSALS, (name, traversal)
    assert not set(EXPECTED) & set(KNOWN_BUGS)


@pytest.mark.parametrize("name", FILES)
def test_every_program_reads_in_both_spellings(name: str) -> None:
    text = (CORPUS / name).read_text()
    ours = mesh_dialect.parse(text, context=mesh_dialect.context())
    theirs = ir.Module.parse(to_upstream(text), ir.Context())
    # one function each, and before any pass the two read the same layouts
    assert len(value_shardings(ours, "mesh")) == 1
    assert compare(value_shardings(ours, "mesh"), value_shardings(theirs, "shard")) == []


# -- the helpers -------------------------------------------------------------


def test_to_upstream_renames_the_dialect_and_keeps_names_comments_and_strings() -> None:
    text = """\
mesh.mesh @mesh(shape = 2x4)  // mesh.mesh in a comment stays
func.func @f(%mesh.shard: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {note = "mesh.shard"} {
  %s = mesh.sharding @mesh split_axes = [[0], [1]]
  %a = mesh.shard %mesh.shard to %s annotate_for_users : tensor<8x8xf32>
  %b = mesh.all_reduce %a on @mesh mesh_axes = [1] reduction = <max> : tensor<8x8xf32> -> tensor<8x8xf32>
  %c = tensor.empty() {mesh.sharding_option = #mesh.sharding<@mesh, [[0], [1]]>} : tensor<8x8xf32>
  %d = tensor.empty() {keep, mesh.sharding_option = #mesh.sharding<@mesh, [[0]]>} : tensor<8x8xf32>
  %i:2 = mesh.mesh_shape @mesh axes = [0, 1] : index, index
  return %b : tensor<8x8xf32>
}
"""
    out = to_upstream(text)
    assert "shard.grid @mesh(shape = 2x4)  // mesh.mesh in a comment stays" in out
    assert "%mesh.shard: tensor<8x8xf32>" in out and 'note = "mesh.shard"' in out
    assert "%s = shard.sharding @mesh split_axes = [[0], [1]] : !shard.sharding" in out
    assert "shard.shard %mesh.shard to %s annotate_for_users" in out
    assert "shard.all_reduce %a on @mesh grid_axes = [1] reduction = max" in out
    assert "%c = tensor.empty() : tensor<8x8xf32>" in out
    assert "%d = tensor.empty() {keep} : tensor<8x8xf32>" in out
    assert "shard.grid_shape @mesh axes = [0, 1]" in out
    assert "mesh_axes" not in out and "sharding_option" not in out
    ir.Module.parse(out, ir.Context())


def test_to_upstream_keeps_other_ops_attributes_and_types_shardings_before_strings_and_locations() -> None:
    """Mesh keywords are renamed on mesh ops only: an attribute a user named
    `mesh_axes` or `partial` on another op stays as it is.  A sharding
    without its type gets it before a trailing location or comment, not in
    a string holding `//`."""
    text = """\
mesh.mesh @mesh(shape = 2x4)
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %z = arith.constant {mesh_axes = array<i16: 1>, partial = true} 0 : index
  %s = mesh.sharding @mesh split_axes = [[0]] {note = "http://x"} // rows
  %t = mesh.sharding @mesh split_axes = [[1]] loc("x.mlir":1:2)
  %b = mesh.shard %a to %s : tensor<8x8xf32>
  %c = mesh.shard %b to %t annotate_for_users : tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
"""
    out = to_upstream(text)
    assert "%z = arith.constant {mesh_axes = array<i16: 1>, partial = true} 0 : index" in out
    assert '%s = shard.sharding @mesh split_axes = [[0]] {note = "http://x"} : !shard.sharding // rows' in out
    assert '%t = shard.sharding @mesh split_axes = [[1]] : !shard.sharding loc("x.mlir":1:2)' in out
    ir.Module.parse(out, ir.Context())


def test_to_upstream_takes_what_our_printer_prints() -> None:
    text = (CORPUS / "softmax-rows-2d.mlir").read_text()  # no partial results
    printed = mesh_dialect.print_ir(run_ours(text, "backward-forward"))
    assert "mesh.sharding_option" in printed
    theirs = ir.Module.parse(to_upstream(printed), ir.Context())
    assert value_shardings(theirs, "shard") == value_shardings(
        mesh_dialect.parse(printed, context=mesh_dialect.context()), "mesh"
    )


@pytest.mark.parametrize(
    "text",
    [
        "%s = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding",
        '%s = "mesh.sharding"() {mesh = @mesh} : () -> !mesh.sharding',
        "%x = foo.bar {k = #mesh.partial<sum>}",
        "%z:2 = mesh.shard_shape 8x16 %s %d : index, index",
    ],
    ids=["partial", "generic", "attribute", "shard_shape"],
)
def test_to_upstream_refuses_what_upstream_cannot_spell(text: str) -> None:
    with pytest.raises(NotExpressible):
        to_upstream(text)


def test_compare_names_the_op_and_the_slot() -> None:
    row = ("mesh", ((0,),), (), None)
    ours = {"f": [OpShardings("a.b", (row, None), (row,)), OpShardings("c.d", (), ())]}
    theirs = {"f": [OpShardings("a.b", (row, row), (None,)), OpShardings("e.f", (), ())]}
    assert compare(ours, theirs) == [
        Difference("f", 0, "a.b", "operand 1", "none", "@mesh [[0]]"),
        Difference("f", 0, "a.b", "result 0", "@mesh [[0]]", "none"),
        Difference("f", 1, "c.d", "op", "c.d", "e.f"),
    ]
    assert compare(ours, ours) == []
