"""Random prefix and suffix scans (`jnp.cumsum`, `cumprod`, `cummax`,
`cummin` and their `reverse=True` forms: an hlo `reduce_window` as long as
the dimension) of split dimensions, on meshes of rank 1-2 with the scanned
dimension split over one or two mesh axes and the others split or not,
annotated only at the argument and the result as JAX does: propagation
keeps the scanned dimension split, partition corrects each device's scan
with the totals of the pieces before (or after) it, and every device's
piece of the result must equal the original's exactly (i32, and f32 small
integers whose sums stay exact)."""

from __future__ import annotations

import numpy as np
from hlo_programs import partitioned_results
from hypothesis import event, given, settings
from hypothesis import strategies as st

_COMBINERS = {
    "sum": ("add", {"i32": "0", "f32": "0.0"}),
    "product": ("multiply", {"i32": "1", "f32": "1.0"}),
    "max": ("maximum", {"i32": "-2147483648", "f32": "0xFF800000"}),
    "min": ("minimum", {"i32": "2147483647", "f32": "0x7F800000"}),
}


def _t(shape: list[int], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


def _ints(values: list[int]) -> str:
    return f"array<i64: {', '.join(map(str, values))}>"


@st.composite
def programs(draw) -> str:
    mesh = draw(st.sampled_from([(2,), (3,), (4,), (2, 2), (2, 3), (3, 2)]))
    rank = draw(st.integers(1, 3))
    d = draw(st.integers(0, rank - 1))
    split: list[list[int]] = [[] for _ in range(rank)]
    for a in draw(st.permutations(list(range(len(mesh))))):
        e = draw(st.sampled_from([d, d, -1, *range(rank)]))
        if e >= 0:
            split[e].append(a)
    shape = []
    for e in range(rank):
        pieces = int(np.prod([mesh[a] for a in split[e]])) if split[e] else 1
        shape.append(pieces * draw(st.integers(1, 3)))
    if shape[d] < 2:
        shape[d] *= 2
    kind = draw(st.sampled_from(sorted(_COMBINERS)))
    element = "f32" if kind == "product" else draw(st.sampled_from(["i32", "f32"]))
    reverse = draw(st.booleans())
    op, identities = _COMBINERS[kind]
    n = shape[d]
    padding = ", ".join(
        f"[{(0 if reverse else n - 1) if e == d else 0}, {(n - 1 if reverse else 0) if e == d else 0}]"
        for e in range(rank)
    )
    window = [n if e == d else 1 for e in range(rank)]
    sharding = f"[{', '.join('[' + ', '.join(map(str, s)) + ']' for s in split)}]"
    scalar = _t([], element)
    t = _t(shape, element)
    attrs = (
        f"window_dimensions = {_ints(window)}, window_strides = {_ints([1] * rank)}, "
        f"padding = dense<[{padding}]> : tensor<{rank}x2xi64>"
    )
    return f"""mesh.mesh @m(shape = {"x".join(map(str, mesh))})
func.func @f(%x: {t}) -> {t} {{
  %s = mesh.sharding @m split_axes = {sharding} : !mesh.sharding
  %xs = mesh.shard %x to %s : {t}
  %init = "stablehlo.constant"() <{{value = dense<{identities[element]}> : {scalar}}}> : () -> {scalar}
  %y = "stablehlo.reduce_window"(%xs, %init) <{{{attrs}}}> ({{
  ^bb0(%a: {scalar}, %b: {scalar}):
    %c = "stablehlo.{op}"(%a, %b) : ({scalar}, {scalar}) -> {scalar}
    "stablehlo.return"(%c) : ({scalar}) -> ()
  }}) : ({t}, {scalar}) -> {t}
  %ys = mesh.shard %y to %s : {t}
  return %ys : {t}
}}
"""


@settings(max_examples=150, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_scans_of_split_dimensions_partition_to_the_same_results(text, seed):
    rng = np.random.default_rng(seed)
    low, high = (1, 3) if "multiply" in text else (-3, 4)

    def args_of(signature) -> list[np.ndarray]:
        (arg,) = signature.arg_types
        element = np.int32 if "i32" in str(arg.element_type) else np.float32
        return [rng.integers(low, high, size=tuple(arg.shape)).astype(element)]

    printed, expected, got = partitioned_results(text, args_of)
    event("totals gathered" if "mesh.all_gather" in printed else "no gather")
    np.testing.assert_array_equal(got[0], expected[0])
