"""torch-mlir's parameters: `dense_resource<name>` constants whose data is a
hex blob in the file's `{-# dialect_resources #-}` section (4 bytes of
alignment, then the raw little-endian elements). The simulator reads them
exactly, for each element type, in arith and stablehlo constants; a missing
or short blob is a diagnostic naming the op."""

from __future__ import annotations

import numpy as np
import pytest
from simhelpers import run

import mesh_dialect.sim.ops  # noqa: F401  (registers the handlers)
from mesh_dialect.sim.program import SimError

RNG = np.random.default_rng(7)


def blob(a: np.ndarray, alignment: int = 4) -> str:
    data = a.astype(a.dtype.newbyteorder("<")).tobytes() if a.dtype != np.bool_ else a.astype(np.uint8).tobytes()
    return "0x" + alignment.to_bytes(4, "little").hex() + data.hex().upper()


def program(constants: list[tuple[str, str, str]], blobs: dict[str, str], op: str = "arith.constant") -> str:
    """@f returning constants given as (resource name, tensor type, op)."""
    types = ", ".join(t for _, t in constants)
    lines = []
    for i, (name, t) in enumerate(constants):
        if op == "arith.constant":
            lines.append(f"  %c{i} = arith.constant dense_resource<{name}> : {t}")
        else:
            lines.append(f'  %c{i} = "{op}"() <{{value = dense_resource<{name}> : {t}}}> : () -> {t}')
    results = ", ".join(f"%c{i}" for i in range(len(constants)))
    entries = ",\n".join(f'      {k}: "{v}"' for k, v in blobs.items())
    return (
        f"func.func @f() -> ({types}) {{\n" + "\n".join(lines) + f"\n  return {results} : {types}\n}}\n\n"
        "{-#\n  dialect_resources: {\n    builtin: {\n" + entries + "\n    }\n  }\n#-}\n"
    )


CASES = [
    ("torch_tensor_3_4_torch.float32", "tensor<3x4xf32>", RNG.standard_normal((3, 4)).astype(np.float32)),
    ("weights_f64", "tensor<5xf64>", RNG.standard_normal(5)),
    ("half", "tensor<2x2xf16>", RNG.standard_normal((2, 2)).astype(np.float16)),
    ("ids", "tensor<6xi64>", RNG.integers(-(2**62), 2**62, 6)),
    ("small", "tensor<2x3xi8>", RNG.integers(-128, 128, (2, 3)).astype(np.int8)),
    ("mask", "tensor<7xi1>", RNG.random(7) > 0.5),
    ("index_like", "tensor<3xi32>", np.array([-1, 0, 2**31 - 1], np.int32)),
]


@pytest.mark.parametrize("op", ["arith.constant", "stablehlo.constant"])
def test_every_element_type_reads_exactly(op):
    text = program([(n, t) for n, t, _ in CASES], {n: blob(a) for n, _, a in CASES}, op=op)
    got = run(text)
    for (name, _, want), value in zip(CASES, got):
        assert value.dtype == want.dtype and value.shape == want.shape, name
        np.testing.assert_array_equal(value, want, err_msg=name)


def test_the_alignment_word_is_skipped_whatever_it_says():
    a = np.arange(4, dtype=np.float32)
    (got,) = run(program([("w", "tensor<4xf32>")], {"w": blob(a, alignment=16)}))
    np.testing.assert_array_equal(got, a)


def test_each_run_gets_a_fresh_array():
    text = program([("w", "tensor<2xf32>")], {"w": blob(np.ones(2, np.float32))})
    (first,) = run(text)
    first[0] = 5.0
    (second,) = run(text)
    np.testing.assert_array_equal(second, np.ones(2, np.float32))


def test_a_blob_of_the_wrong_size_is_refused():
    text = program([("w", "tensor<3xf32>")], {"w": blob(np.ones(2, np.float32))})
    with pytest.raises(
        SimError, match=r"'arith.constant' cannot be simulated: .*holds 8 bytes of data, but 3 elements"
    ):
        run(text)


def test_a_missing_blob_is_refused():
    text = "func.func @f() -> tensor<2xf32> {\n  %0 = arith.constant dense_resource<gone> : tensor<2xf32>\n"
    text += "  return %0 : tensor<2xf32>\n}\n"
    with pytest.raises(SimError, match=r"<string>:2:8: 'arith.constant' cannot be simulated: .*has no data"):
        run(text)
