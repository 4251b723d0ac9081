"""Random chains of stablehlo slices (stride 1) and pads (negative
padding included, no interior padding) of split dimensions, with
elementwise ops (a product of two slices a row apart among them) and a
closing sum, annotated only at the
arguments and the result as JAX does: propagation and partition keep the
dimensions split through the crops (`interfaces/registry.py`,
`transforms/partition/crop.py`), and every device's piece of the result
must equal the original's, exactly (small integers in f32)."""

from __future__ import annotations

import numpy as np
from hlo_programs import partitioned_results
from hypothesis import event, given, settings
from hypothesis import strategies as st


def _t(shape: list[int]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}f32>"


def _ints(values: list[int]) -> str:
    return f"array<i64: {', '.join(map(str, values))}>"


def _slice(name: str, value: str, shape: list[int], starts: list[int], limits: list[int]) -> str:
    out = [b - a for a, b in zip(starts, limits)]
    attrs = f"start_indices = {_ints(starts)}, limit_indices = {_ints(limits)}, strides = {_ints([1] * len(shape))}"
    return f'{name} = "stablehlo.slice"({value}) <{{{attrs}}}> : ({_t(shape)}) -> {_t(out)}'


def _pad(name: str, value: str, fill: str, shape: list[int], low: list[int], high: list[int]) -> str:
    out = [n + a + b for n, a, b in zip(shape, low, high)]
    attrs = f"edge_padding_low = {_ints(low)}, edge_padding_high = {_ints(high)}"
    attrs += f", interior_padding = {_ints([0] * len(shape))}"
    return f'{name} = "stablehlo.pad"({value}, {fill}) <{{{attrs}}}> : ({_t(shape)}, tensor<f32>) -> {_t(out)}'


@st.composite
def programs(draw) -> str:
    mesh = draw(st.sampled_from([(2,), (3,), (4,), (2, 2), (2, 3)]))
    rank = draw(st.integers(1, 2))
    shape = [draw(st.integers(4, 14)) for _ in range(rank)]
    axes = list(range(len(mesh)))
    split: list[list[int]] = [[] for _ in range(rank)]
    for a in axes:
        d = draw(st.integers(-1, rank - 1))  # -1: this axis splits nothing
        if d >= 0:
            split[d].append(a)
    sharding = f"[{', '.join('[' + ', '.join(map(str, s)) + ']' for s in split)}]"
    lines = []
    value, current = "%xs", list(shape)
    for k in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["slice", "pad", "add", "shifted"]))
        if kind == "slice":
            starts, limits = [], []
            for n in current:
                a = draw(st.integers(0, max(0, n - 2)))
                b = draw(st.integers(a + 1, n))
                starts.append(a)
                limits.append(b)
            out = [b - a for a, b in zip(starts, limits)]
            lines.append(_slice(f"%v{k}", value, current, starts, limits))
        elif kind == "pad":
            low = [draw(st.integers(-2, 3)) for _ in current]
            high = [draw(st.integers(-2, 3)) for _ in current]
            out = [n + a + b for n, a, b in zip(current, low, high)]
            if min(out) < 1:
                continue
            fill = draw(st.integers(-3, 3))
            constant = f"<{{value = dense<{fill}.0> : tensor<f32>}}> : () -> tensor<f32>"
            lines.append(f'%c{k} = "stablehlo.constant"() {constant}')
            lines.append(_pad(f"%v{k}", value, f"%c{k}", current, low, high))
        elif kind == "shifted" and max(current) >= 3:
            # x[1:] * x[:-1] along one dimension: two crops a row apart
            d = draw(st.sampled_from([d for d, n in enumerate(current) if n >= 3]))
            out = [n - (e == d) for e, n in enumerate(current)]
            for j, start in enumerate((1, 0)):
                starts = [start if e == d else 0 for e in range(rank)]
                limits = [n - 1 + start if e == d else n for e, n in enumerate(current)]
                lines.append(_slice(f"%s{k}_{j}", value, current, starts, limits))
            lines.append(f'%v{k} = "stablehlo.multiply"(%s{k}_0, %s{k}_1) : ({_t(out)}, {_t(out)}) -> {_t(out)}')
        else:
            out = current
            lines.append(f'%v{k} = "stablehlo.add"({value}, {value}) : ({_t(current)}, {_t(current)}) -> {_t(out)}')
        value, current = f"%v{k}", out
    summed = draw(st.booleans())
    result_sharding = sharding
    if summed:
        dims = _ints(list(range(rank)))
        lines.append('%zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>')
        lines.append(
            f'%sum = "stablehlo.reduce"({value}, %zero) <{{dimensions = {dims}}}> ({{\n'
            "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
            '    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
            '    "stablehlo.return"(%t) : (tensor<f32>) -> ()\n'
            f"  }}) : ({_t(current)}, tensor<f32>) -> tensor<f32>"
        )
        value, current, result_sharding = "%sum", [], "[]"
    body = "\n  ".join(lines)
    return f"""mesh.mesh @m(shape = {"x".join(map(str, mesh))})
func.func @f(%x: {_t(shape)}) -> {_t(current)} {{
  %s = mesh.sharding @m split_axes = {sharding} : !mesh.sharding
  %r = mesh.sharding @m split_axes = {result_sharding} : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(shape)}
  {body}
  %out = mesh.shard {value} to %r : {_t(current)}
  return %out : {_t(current)}
}}
"""


@settings(max_examples=150, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_hlo_crops_partition_to_the_same_results(text, seed):
    rng = np.random.default_rng(seed)

    def args_of(signature) -> list[np.ndarray]:
        return [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in signature.arg_types]

    printed, expected, got = partitioned_results(text, args_of)
    event("kept split through a crop" if "tensor.extract_slice" in printed or "tensor.pad" in printed else "no crop")
    np.testing.assert_array_equal(got[0], expected[0])
