"""decompose-softmax computes what linalg.softmax computes, bit for bit but
for a NaN's sign: the simulator runs the op as upstream decomposes it (max
by maxnumf from a NaN), the pass writes a max by maximumf from -inf, and
rows with NaNs, infinities, equal values and signed zeros must come out
the same (a NaN where the op gives one)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simhelpers import parse, passes, run

import mesh_dialect.sim.ops  # noqa: F401  (registers the handlers)
from mesh_dialect.sim.floats import to_bf16

_SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30, -1e30, 65000.0]


def softmax_text(shape: tuple[int, ...], element: str, dim: int) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    return f"""func.func @f(%x: {t}) -> {t} {{
      %e = tensor.empty() : {t}
      %r = linalg.softmax dimension({dim}) ins(%x : {t}) outs(%e : {t}) -> {t}
      return %r : {t}
    }}"""


def as_element(x: np.ndarray, element: str) -> np.ndarray:
    if element == "f16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16)
    if element == "bf16":
        return to_bf16(x.astype(np.float32))
    return x.astype(np.float32 if element == "f32" else np.float64)


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple),
    element=st.sampled_from(["f16", "bf16", "f32", "f64"]),
    data=st.data(),
)
def test_decomposed_softmax_gives_the_same_bits(shape, element, data):
    dim = data.draw(st.integers(0, len(shape) - 1))
    seed = data.draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * data.draw(st.sampled_from([1.0, 30.0]))
    # some elements special, some rows of equal values
    mask = rng.random(shape) < data.draw(st.sampled_from([0.0, 0.1, 0.3]))
    x = np.where(mask, rng.choice(_SPECIAL, size=shape), x)
    if data.draw(st.booleans()):
        x = np.round(x)
    x = as_element(x, element)
    text = softmax_text(shape, element, dim)
    decomposed = passes(text, "decompose-softmax")
    assert "linalg.softmax" not in str(decomposed) and "arith.maximumf" in str(decomposed)
    (want,) = run(text, x)
    (got,) = run(str(decomposed), x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    # the zeros' signs too (NaN payloads aside)
    same = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[same]), np.signbit(want[same]))


def test_softmax_of_an_element_type_without_an_infinity_is_left_alone():
    text = softmax_text((2, 3), "f8E4M3FN", 1)
    module = passes(text, "decompose-softmax")
    assert "linalg.softmax" in str(module)


@pytest.mark.parametrize(
    ("source", "init"),
    [
        ("tensor<?x4xf32>", "tensor<8x4xf32>"),
        ("tensor<8x4xf32>", "tensor<?x4xf32>"),
        ("memref<8x4xf32>", "tensor<8x4xf32>"),
    ],
)
def test_softmax_of_types_that_differ_is_left_alone(source, init):
    """The generics index input, init and result alike: a softmax whose
    types differ (as the verifier allows) keeps its op."""
    text = f"""func.func @f(%x: {source}, %e: {init}) -> {init} {{
      %r = linalg.softmax dimension(1) ins(%x : {source}) outs(%e : {init}) -> {init}
      return %r : {init}
    }}"""
    assert "linalg.softmax" in str(passes(text, "decompose-softmax"))


def test_softmax_on_buffers_is_left_alone():
    text = """func.func @f(%x: memref<2x3xf32>, %y: memref<2x3xf32>) {
      linalg.softmax dimension(1) ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
      return
    }"""
    try:
        parse(text)
    except Exception:  # noqa: BLE001 - the op may not take buffers at all
        pytest.skip("linalg.softmax takes no buffers in this MLIR")
    assert "linalg.softmax" in str(passes(text, "decompose-softmax"))
