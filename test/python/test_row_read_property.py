"""Random `tensor.extract_slice`s reading one row of dimensions (kept as a
unit dimension or dropped) at static positions or at positions given as
arguments, of a tensor split at random, its pieces even or not, the result
annotated at random (partial sums included) or not: propagation may keep
the operand split there (a sum loop of the slice's rule,
`interfaces/registry.py`) and partition then has each device read the row
where its piece holds it and zeros elsewhere (`crop.mask_rows`); an
operand arriving as partial sums may be sliced on its terms
(`interfaces/linear.py`). Every
result must equal the original's exactly (small integers, in f32 and i32)."""

from __future__ import annotations

import numpy as np
from hlo_programs import partitioned_results
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import split_axes, split_text


def _t(shape: list[int], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


@st.composite
def programs(draw) -> tuple[str, list[int], str]:
    """(`@f`, the positions its index arguments take, its element type)."""
    mesh = draw(st.sampled_from([(2,), (3,), (4,), (2, 2), (2, 3)]))
    element = draw(st.sampled_from(["f32", "i32"]))
    rank = draw(st.integers(1, 3))
    shape = [draw(st.one_of(st.sampled_from([4, 6, 12]), st.integers(2, 13))) for _ in range(rank)]
    split = draw(split_axes(rank, len(mesh)))
    free = [a for a in range(len(mesh)) if not any(a in axes for axes in split)]
    # an operand arriving as partial sums (a row-parallel layer's output) is sliced on its terms
    partial = f" partial = sum [{free[0]}]" if free and draw(st.integers(0, 3)) == 0 else ""
    args = [f"%x: {_t(shape, element)}"]
    offsets, sizes, positions = [], [], []
    for d, n in enumerate(shape):
        if draw(st.integers(0, 2)) == 0:
            offsets.append("0")
            sizes.append(n)
            continue
        at = draw(st.integers(0, n - 1))
        if draw(st.booleans()):
            args.append(f"%pos{d}: index")
            positions.append(at)
            offsets.append(f"%pos{d}")
        else:
            offsets.append(str(at))
        sizes.append(1)
    piece = list(sizes)
    if 1 in sizes and draw(st.booleans()):
        piece = [n for n in sizes if n != 1]  # rank-reduced: the unit dimensions dropped
    ints = ", ".join
    lines = [
        f"%s = mesh.sharding @m split_axes = {split_text(split)}{partial} : !mesh.sharding",
        f"%a = mesh.shard %x to %s annotate_for_users : {_t(shape, element)}",
        f"%y = tensor.extract_slice %a[{ints(offsets)}] [{ints(map(str, sizes))}] [{ints(['1'] * rank)}]"
        f" : {_t(shape, element)} to {_t(piece, element)}",
    ]
    value = "%y"
    if draw(st.booleans()):
        add = "arith.addf" if element == "f32" else "arith.addi"
        lines.append(f"%z = {add} %y, %y : {_t(piece, element)}")
        value = "%z"
    out = draw(st.sampled_from(["none", "split", "partial"]))
    if out != "none":
        result_split = draw(split_axes(len(piece), len(mesh)))
        used = {a for axes in result_split for a in axes}
        partial = " partial = sum [0]" if out == "partial" and 0 not in used else ""
        lines.append(f"%o = mesh.sharding @m split_axes = {split_text(result_split)}{partial} : !mesh.sharding")
        lines.append(f"%r = mesh.shard {value} to %o : {_t(piece, element)}")
        value = "%r"
    body = "\n  ".join(lines)
    text = f"""mesh.mesh @m(shape = {"x".join(map(str, mesh))})
func.func @f({", ".join(args)}) -> {_t(piece, element)} {{
  {body}
  return {value} : {_t(piece, element)}
}}
"""
    return text, positions, element


@settings(max_examples=150, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_row_reads_partition_to_the_same_results(program, seed):
    text, positions, element = program
    rng = np.random.default_rng(seed)
    dtype = np.float32 if element == "f32" else np.int32

    def args_of(signature) -> list[np.ndarray]:
        given = iter(positions)
        return [
            np.array(next(given), dtype=np.int64)
            if not hasattr(t, "shape")
            else rng.integers(-3, 4, size=tuple(t.shape)).astype(dtype)
            for t in signature.arg_types
        ]

    printed, expected, got = partitioned_results(text, args_of)
    event("read where it lies" if "arith.select" in printed else "moved or gathered")
    if "partial = sum" in text.split("tensor.extract_slice")[0]:
        event("the operand arrives as partial sums")
    np.testing.assert_array_equal(got[0], expected[0])
