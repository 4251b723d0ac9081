"""Random `tensor.insert_slice`s of runs into split dimensions (a KV
cache's new rows), at static offsets and sizes (or at offsets given as
arguments: `insert_at_offsets`, the source then whole), rank-reduced now and then,
one after another and added to, with the destination and the result
annotated split and the inserted piece annotated or not: propagation
keeps the destination split through the insert (a `Crop` that `inserts`,
`interfaces/registry.py`), partition has each device write the part of
the run its piece holds (`transforms/partition/crop.py`), and every
device's piece of the result must equal the original's, exactly (small
integers in f32)."""

from __future__ import annotations

import numpy as np
from hlo_programs import partitioned_results
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import split_axes, split_text


def _t(shape: list[int]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}f32>"


def _insert(lines: list[str], k: int, new: str, value: str, offsets, sizes, piece, shape, add: bool) -> str:
    """Append insert `k` of `new` into `value` (and, with `add`, the
    result added to itself); the value it makes."""
    ints = ", ".join
    lines.append(
        f"%v{k} = tensor.insert_slice {new} into {value}[{ints(offsets)}] [{ints(map(str, sizes))}]"
        f" [{ints(['1'] * len(shape))}] : {_t(piece)} into {_t(shape)}"
    )
    if not add:
        return f"%v{k}"
    lines.append(f"%a{k} = arith.addf %v{k}, %v{k} : {_t(shape)}")
    return f"%a{k}"


def _function(mesh: tuple[int, ...], shape: list[int], split: list[list[int]], args: list[str], lines, value) -> str:
    """`@f` over mesh `@m`: the cache argument split as `split`, then
    `lines`, `value` returned with the cache's layout for its users."""
    body = "\n  ".join(lines)
    return f"""mesh.mesh @m(shape = {"x".join(map(str, mesh))})
func.func @f({", ".join(args)}) -> {_t(shape)} {{
  %s = mesh.sharding @m split_axes = {split_text(split)} : !mesh.sharding
  %cs = mesh.shard %cache to %s : {_t(shape)}
  {body}
  %out = mesh.shard {value} to %s annotate_for_users : {_t(shape)}
  return %out : {_t(shape)}
}}
"""


@st.composite
def programs(draw) -> str:
    mesh = draw(st.sampled_from([(2,), (3,), (4,), (2, 2), (2, 3)]))
    rank = draw(st.integers(1, 3))
    shape = [draw(st.integers(2, 13)) for _ in range(rank)]
    split = draw(split_axes(rank, len(mesh)))
    lines, value = [], "%cs"
    args = [f"%cache: {_t(shape)}"]
    for k in range(draw(st.integers(1, 2))):
        offsets, sizes = [], []
        for n in shape:
            whole = draw(st.integers(0, 2)) == 0
            size = n if whole else draw(st.integers(1, n))
            offsets.append(0 if whole else draw(st.integers(0, n - size)))
            sizes.append(size)
        piece = list(sizes)
        if 1 in sizes and draw(st.booleans()):
            piece = [n for n in sizes if n != 1]  # rank-reduced: the unit dimensions dropped
        args.append(f"%new{k}: {_t(piece)}")
        new = f"%new{k}"
        if draw(st.booleans()):
            lines.append(f"%p{k} = mesh.sharding @m split_axes = {split_text(draw(split_axes(len(piece), len(mesh))))}")
            lines[-1] += " : !mesh.sharding"
            lines.append(f"%n{k} = mesh.shard {new} to %p{k} annotate_for_users : {_t(piece)}")
            new = f"%n{k}"
        value = _insert(lines, k, new, value, [str(o) for o in offsets], sizes, piece, shape, draw(st.booleans()))
    return _function(mesh, shape, split, args, lines, value)


@settings(max_examples=150, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_inserts_partition_to_the_same_results(text, seed):
    rng = np.random.default_rng(seed)

    def args_of(signature) -> list[np.ndarray]:
        return [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in signature.arg_types]

    printed, expected, got = partitioned_results(text, args_of)
    kept = "tensor.insert_slice" in printed and "all_to_all" not in printed and "all_gather" not in printed
    event("kept split through the inserts" if kept else "moved")
    np.testing.assert_array_equal(got[0], expected[0])


@st.composite
def programs_at_dynamic_offsets(draw) -> tuple[str, list[int]]:
    """Inserts some of whose offsets are function arguments (a decoder's
    cache write at position `pos`), with the positions to run them at: the
    destination may stay split along such a dimension while the source
    arrives whole (`insert_at_offsets`)."""
    mesh = draw(st.sampled_from([(2,), (3,), (4,), (2, 2), (2, 3)]))
    rank = draw(st.integers(1, 3))
    # (sizes the meshes divide too: an insert keeps to even pieces)
    shape = [draw(st.one_of(st.sampled_from([4, 6, 12]), st.integers(2, 13))) for _ in range(rank)]
    split = draw(split_axes(rank, len(mesh)))
    lines, value, positions = [], "%cs", []
    args = [f"%cache: {_t(shape)}"]
    for k in range(draw(st.integers(1, 2))):
        offsets, sizes = [], []
        for d, n in enumerate(shape):
            whole = draw(st.integers(0, 3)) == 0
            size = n if whole else draw(st.integers(1, n))
            at = 0 if whole else draw(st.integers(0, n - size))
            if not whole and draw(st.integers(0, 2)) > 0:
                args.append(f"%pos{k}_{d}: index")
                positions.append(at)
                offsets.append(f"%pos{k}_{d}")
            else:
                offsets.append(str(at))
            sizes.append(size)
        piece = list(sizes)
        if 1 in sizes and draw(st.booleans()):
            piece = [n for n in sizes if n != 1]  # rank-reduced: the unit dimensions dropped
        args.append(f"%new{k}: {_t(piece)}")
        value = _insert(lines, k, f"%new{k}", value, offsets, sizes, piece, shape, draw(st.booleans()))
    return _function(mesh, shape, split, args, lines, value), positions


@settings(max_examples=150, deadline=None)
@given(programs_at_dynamic_offsets(), st.integers(0, 2**31 - 1))
def test_random_inserts_at_dynamic_offsets_partition_to_the_same_results(program, seed):
    text, positions = program
    rng = np.random.default_rng(seed)

    def args_of(signature) -> list[np.ndarray]:
        given = iter(positions)
        return [
            np.array(next(given), dtype=np.int64)
            if not hasattr(t, "shape")
            else rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32)
            for t in signature.arg_types
        ]

    printed, expected, got = partitioned_results(text, args_of)
    # (each device clamps the run into its rows: a max of a signed min)
    at_offsets = "arith.maxsi" in printed
    event("kept split at a dynamic offset" if at_offsets else "no split at a dynamic offset")
    np.testing.assert_array_equal(got[0], expected[0])
