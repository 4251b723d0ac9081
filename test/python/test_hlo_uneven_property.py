"""Hlo ops on pieces of unequal sizes, by execution: random stablehlo
programs (chains and DAGs of elementwise ops, select and compare, convert,
clamp, reduce with add/max/min/multiply bodies and JAX's argmax body,
transpose, dot and dot_general, broadcast_in_dim, embedding gathers, reads
and writes of one position at clamped starts (dynamic_slice and
dynamic_update_slice) or at an index (scatter, setting or adding),
concatenations, constants) over sizes the mesh mostly does not divide, with random
`mesh.shard` annotations, go
through sharding-propagation and mesh-partition (then
mesh-optimize-collectives).  Each either partitions to a program that
verifies and computes the original's results on random inputs (bit for bit
for integers, to a few ulps of the largest value for floats), or is refused
with a diagnostic; a program whose annotations all divide evenly is never
refused.  A good share of the partitioned programs must type hlo ops
dynamic along a cut, so the test keeps covering unequal pieces.  Longer
runs, by hand: `python test/python/hlo_programs.py --count 5000`."""

from __future__ import annotations

from collections import Counter

import pytest
from hlo_programs import KNOBS, check, dynamic_hlo_ops, generate

# Fixed seeds: the same programs on every machine (about 20 s on one core).
SEEDS = range(20261130, 20261130 + 240)
# The ops the solver may run unevenly besides the elementwise ones: each
# must show up typed dynamic in the run above.
UNEVEN_KINDS = (
    "reduce",
    "transpose",
    "dot_general",
    "broadcast_in_dim",
    "gather",
    "dynamic_slice",
    "dynamic_update_slice",
    "scatter",
    "concatenate",
)


@pytest.fixture(scope="module")
def outcomes():
    programs = [(seed, generate(seed)) for seed in SEEDS]
    return [(seed, prog, check(prog)) for seed, prog in programs]


def test_generated_programs_are_deterministic():
    assert [generate(s).text for s in SEEDS[:20]] == [generate(s).text for s in SEEDS[:20]]


def test_every_program_partitions_correctly_or_is_refused_cleanly(outcomes):
    failed = [f"seed {seed}: {out.message}\n{prog.text}" for seed, prog, out in outcomes if out.kind == "failed"]
    assert not failed, f"{len(failed)} of {len(outcomes)} failed; the first:\n{failed[0]}"
    refused = [(seed, prog, out) for seed, prog, out in outcomes if out.kind == "refused"]
    even = [f"seed {seed}: {out.message}\n{prog.text}" for seed, prog, out in refused if prog.all_even]
    assert not even, even[0]
    # The generator writes only ops and layouts partition supports (pieces
    # of unequal sizes fall back to even ones and reshards): no refusal at all.
    assert not refused, Counter(out.message for _, _, out in refused)


# Programs as JAX sends them: most annotations cut as XLA cuts (ceil-sized
# pieces written as offsets), which the hlo ops then run on.
XLA_SEEDS = range(20261201, 20261201 + 120)


def test_programs_cut_as_xla_cuts_partition_correctly(monkeypatch):
    monkeypatch.setitem(KNOBS, "xla_cuts", 0.7)
    monkeypatch.setitem(KNOBS, "annotate", 0.5)
    outcomes = [(seed, generate(seed)) for seed in XLA_SEEDS]
    results = [(seed, prog, check(prog)) for seed, prog in outcomes]
    bad = [f"seed {seed}: {out.message}\n{prog.text}" for seed, prog, out in results if out.kind != "ok"]
    assert not bad, f"{len(bad)} of {len(results)} not partitioned; the first:\n{bad[0]}"
    offsets = sum("sharded_dims_offsets" in prog.text for _, prog, _ in results)
    uneven = sum(bool(out.dynamic) for _, _, out in results)
    assert offsets >= len(results) // 2 and uneven >= len(results) // 2, (offsets, uneven)


def test_the_run_covers_hlo_ops_on_unequal_pieces(outcomes):
    uneven = sum(bool(out.dynamic) for _, _, out in outcomes)
    assert uneven >= len(outcomes) // 4, (uneven, len(outcomes))
    kinds = Counter(name.split(".")[1] for _, _, out in outcomes for name in out.dynamic)
    for kind in UNEVEN_KINDS:
        assert kinds[kind] >= 3, (kind, dict(kinds))
    assert sum(n for k, n in kinds.items() if k not in UNEVEN_KINDS and k != "dot") >= 20, dict(kinds)


def test_dynamic_hlo_ops_reads_region_ops_on_their_closing_line():
    printed = """
    %0 = "stablehlo.exponential"(%arg0) : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %1 = "stablehlo.reduce"(%0, %c) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %2 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<?x6xf32>, tensor<f32>) -> tensor<?xf32>
    %3 = "stablehlo.transpose"(%x) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>) -> tensor<6x4xf32>
    """
    assert dynamic_hlo_ops(printed) == {"stablehlo.exponential", "stablehlo.reduce"}
