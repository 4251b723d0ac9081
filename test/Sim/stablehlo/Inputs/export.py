"""Writes the JAX programs of test/Sim/stablehlo (run by hand; JAX is not
needed by the tests): each function is exported by JAX 0.10 in generic form
(`jax.jit(f).lower(...).compiler_ir("stablehlo")`), its private helpers
(`relu`, `_var`, `_where`, ...) are inlined, and mesh annotations are added
for the layouts given below: a `mesh.shard` per argument and one on the
result, as a JAX user's in_shardings and out_shardings. Beside each program
goes NAME.npz: the inputs (`arg0`, ...) and JAX's own result (`out`).

    .venv/bin/python test/Sim/stablehlo/Inputs/export.py [NAME ...]

(only the programs named, when some are).
"""

from __future__ import annotations

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from mlir import ir

import mesh_dialect
from mesh_dialect.ir import ops

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = np.random.default_rng(2026)


def mlp(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def layernorm(x, g, b):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * g + b


def attention(q, k, v):
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / np.float32(np.sqrt(q.shape[-1]))
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores, axis=-1), v)


def masked(x):
    """Ops around the reductions: iota (a causal mask), compare/select,
    argmax (a two-input reduce), clamp, convert, an exact gelu."""
    causal = jnp.tril(x)
    best = jnp.argmax(x, axis=1).astype(jnp.float32)
    clipped = jnp.clip(x, -1.0, 1.0)
    return causal + jax.nn.gelu(clipped, approximate=False) + best[:, None] + jnp.arange(16, dtype=jnp.float32)


def reshapes(x, y):
    """Data movement: concatenate, slice, pad, transpose, reshape,
    dynamic_slice."""
    z = jnp.concatenate([x, y], axis=1)  # 8x32
    p = jnp.pad(z[:, 4:28], ((0, 0), (1, 1)))  # 8x26
    t = p.T.reshape(26, 2, 4)
    return jax.lax.dynamic_slice(t, (3, 0, 1), (26, 2, 2)) * 2.0


def embedding(ids, table):
    """An embedding lookup (`jnp.take`, clipped like JAX's default mode): a
    gather and the select of its bounds check."""
    return jnp.take(table, ids, axis=0)


def batched_gather(x, idx):
    """One row per (batch, query) from each batch's own matrix: a gather
    with operand and start-indices batching dimensions."""
    dims = jax.lax.GatherDimensionNumbers(
        offset_dims=(2,),
        collapsed_slice_dims=(1,),
        start_index_map=(1,),
        operand_batching_dims=(0,),
        start_indices_batching_dims=(0,),
    )
    return jax.lax.gather(x, idx, dims, (1, 1, 8), mode=jax.lax.GatherScatterMode.CLIP)


def windows(x, idx):
    """2x3 windows at two-dimensional starts, clamped into the operand: no
    operand dimension is taken whole, so none is split."""
    dims = jax.lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
    return jax.lax.gather(x, idx, dims, (2, 3), mode=jax.lax.GatherScatterMode.CLIP)


def conv_block(x, w1, b1, w2):
    """A ResNet-style block in NHWC: a 3x3 convolution with "same" padding,
    a bias and relu, then a 1x1 convolution."""
    dn = ("NHWC", "HWIO", "NHWC")
    y = jax.lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=dn)
    y = jax.nn.relu(y + b1)
    return jax.lax.conv_general_dilated(y, w2, (1, 1), "VALID", dimension_numbers=dn)


def conv_weight_grad(x, w):
    """Data-parallel training's kernel gradient of a strided NCHW
    convolution: JAX writes it as a convolution that sums over the batch."""

    def loss(w):
        y = jax.lax.conv_general_dilated(x, w, (2, 2), ((1, 0), (1, 0)), dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return jnp.sum(y * y)

    return jax.grad(loss)(w)


def conv_input_grad(x, w):
    """The input gradient of a convolution, as backpropagation computes it
    for the layer below: JAX flips the kernel (`reverse`) and convolves the
    output gradient with it, contracting the output features."""

    def loss(x):
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.sum(y * y)

    return jax.grad(loss)(x)


def conv_pool(x, w):
    """A CNN stem: 3x3 convolution, relu, 3x3 max pooling with stride 2
    ("same"), then 2x2 average pooling (`reduce_window` with max, and with
    add before a division)."""
    dn = ("NHWC", "HWIO", "NHWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn))
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    return jax.lax.reduce_window(y, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4


def maxpool_grad(x, g):
    """The gradient of 3x3 max pooling with stride 2 ("same"): JAX pads
    the input with -inf and scatters each window's gradient to its
    maximum (`select_and_scatter`)."""
    _, vjp = jax.vjp(lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"), x)
    return vjp(g)[0]


def depthwise(x, w):
    """A depthwise convolution (one feature group per channel), dilated."""
    dn = ("NHWC", "HWIO", "NHWC")
    return jax.lax.conv_general_dilated(
        x, w, (1, 1), "SAME", rhs_dilation=(2, 1), dimension_numbers=dn, feature_group_count=4
    )


def kv_update(cache, new, pos):
    """A decoder's cache write at one position (`.at[:, pos].set`): a
    scatter whose window covers the batch and the features whole."""
    return cache.at[:, pos].set(new)


def embedding_grad(table, ids, h):
    """The gradient of an embedding lookup: a scatter-add of the rows'
    gradients into zeros, repeated ids summed."""
    return jax.grad(lambda t: jnp.sum(jnp.take(t, ids, axis=0) ** 2 * h))(table)


SCATTER_IDS = np.array([3, 1, 3, 0, 3], np.int32)
_BATCHED = jax.lax.ScatterDimensionNumbers(
    update_window_dims=(2,),
    inserted_window_dims=(1,),
    scatter_dims_to_operand_dims=(1,),
    operand_batching_dims=(0,),
    scatter_indices_batching_dims=(0,),
)


def scatters(t, u, far, x, idx, v):
    """Scatter's corner cases in one program (flattened and concatenated):
    repeated indices set (the last wins), added, and maxed with a NaN;
    indices past either end dropped; a scatter with batching dimensions."""
    t_nan = t.at[2, 1].set(jnp.nan)
    parts = [
        t.at[SCATTER_IDS].set(u),
        t.at[SCATTER_IDS].add(u),
        t_nan.at[SCATTER_IDS].max(u),
        t.at[far].add(u[:3], mode="drop"),
        jax.lax.scatter_add(x, idx, v, _BATCHED, mode=jax.lax.GatherScatterMode.FILL_OR_DROP),
    ]
    return jnp.concatenate([p.ravel() for p in parts])


def sorts(x):
    """`jnp.sort` along the rows, `argsort` along the columns (its indices
    as floats) and a median: `stablehlo.sort` with JAX's total-order
    comparators, one and two operands, and a gather of its middle."""
    by_row = jnp.sort(x, axis=-1)
    by_column = jnp.argsort(x, axis=0).astype(x.dtype)
    return jnp.concatenate([by_row.ravel(), by_column.ravel(), jnp.median(x, axis=-1)])


def moe_routing(x, wg, w1):
    """A mixture of experts' top-2 routing (`lax.top_k`: chlo's `top_k`) of
    tokens split over "data" to experts split over "model"."""
    vals, idx = jax.lax.top_k(x @ wg, 2)
    onehot = jax.nn.one_hot(idx, wg.shape[1], dtype=x.dtype)
    weight = jnp.einsum("tk,tke->te", jax.nn.softmax(vals, axis=-1), onehot)
    return jnp.einsum("te,tef->tf", weight, jnp.einsum("td,edf->tef", x, w1))


def remat_grad(x, w1, w2):
    """The weights' gradient of two Megatron layers under `jax.checkpoint`:
    the recomputed forward pass sits behind `optimization_barrier`s."""

    @jax.checkpoint
    def layer(x, w1, w2):
        return jnp.tanh(jax.nn.relu(x @ w1) @ w2)

    return jax.grad(lambda w1: jnp.sum(layer(layer(x, w1, w2), w1, w2) ** 2))(w1)


F32 = np.float32


def block_bf16(x, w1, w2, g):
    """A transformer block's MLP half in bf16, as mixed-precision training
    runs it: bf16 matmuls, a residual add, and a layer norm whose mean and
    variance JAX accumulates in f32."""
    y = jax.nn.relu(x @ w1) @ w2 + x
    mean = jnp.mean(y, axis=-1, keepdims=True)
    var = jnp.var(y, axis=-1, keepdims=True)
    return (y - mean) * jax.lax.rsqrt(var + 1e-5) * g


def bf16(a):
    return jnp.asarray(a, dtype=jnp.bfloat16)


def stored(a) -> np.ndarray:
    """An array as NAME.npz keeps it: bf16 as the f32 of the same value
    (numpy has no bf16)."""
    a = np.asarray(a)
    return a.astype(np.float32) if a.dtype == jnp.bfloat16 else a


def small(*shape):
    """Small integers as floats: every sum is exact, in any order."""
    return RNG.integers(-2, 3, shape).astype(F32)


def normal(*shape):
    return RNG.standard_normal(shape).astype(F32)


CASES = {
    # name: (function, arguments, mesh shape, argument layouts, result layout)
    "mlp-1d": (mlp, (normal(8, 16), normal(16, 32), normal(32, 16)), [2], [[], [[], [0]], [[0]]], []),
    "mlp-2d": (mlp, (normal(8, 16), normal(16, 32), normal(32, 16)), [2, 2], [[[0]], [[], [1]], [[1]]], [[0]]),
    "softmax-1d": (softmax, (normal(8, 16),), [2], [[[], [0]]], [[], [0]]),
    "softmax-2d": (softmax, (normal(8, 16),), [2, 2], [[[0], [1]]], [[0], [1]]),
    "layernorm-2d": (
        layernorm,
        (normal(8, 16), normal(16), normal(16)),
        [2, 2],
        [[[0], [1]], [[1]], [[1]]],
        [[0], [1]],
    ),
    "attention-1d": (
        attention,
        (normal(2, 8, 16), normal(2, 8, 16), normal(2, 8, 16)),
        [2],
        [[[0]], [[], [0]], [[], [0]]],
        [[0]],
    ),
    "attention-2d": (
        attention,
        (normal(4, 8, 16), normal(4, 8, 16), normal(4, 8, 16)),
        [2, 2],
        [[[0], [], [1]], [[0], [], [1]], [[0], [], [1]]],
        [[0]],
    ),
    "masked-2d": (masked, (normal(8, 16),), [2, 2], [[[0], [1]]], [[0], [1]]),
    "reshapes-2d": (reshapes, (normal(8, 16), normal(8, 16)), [2, 2], [[[0]], [[0]]], [[0], [1]]),
    "embedding-2d": (
        embedding,
        (RNG.integers(0, 16, (4, 3)).astype(np.int32), normal(16, 8)),
        [2, 2],
        [[[0]], [[], [1]]],
        [[0], [], [1]],
    ),
    "gather-batched-2d": (
        batched_gather,
        (normal(4, 6, 8), RNG.integers(-2, 8, (4, 3, 1)).astype(np.int32)),
        [2, 2],
        [[[0], [], [1]], [[0]]],
        [[0], [], [1]],
    ),
    "gather-windows-1d": (
        windows,
        (normal(6, 7), RNG.integers(-1, 7, (4, 2)).astype(np.int32)),
        [2],
        [[[], [0]], [[0]]],
        [[0]],
    ),
    "embedding-vocab-2d": (
        embedding,
        (RNG.integers(0, 16, (4, 3)).astype(np.int32), normal(16, 8)),
        [2, 2],
        [[[0]], [[1]]],
        [[0]],
    ),
    "conv-block-2d": (
        conv_block,
        (small(4, 6, 6, 3), small(3, 3, 3, 8), small(8), small(1, 1, 8, 5)),
        [2, 2],
        [[[0]], [[], [], [], [1]], [[1]], [[], [], [1]]],
        [[0]],
    ),
    "conv-weight-grad-1d": (conv_weight_grad, (small(4, 3, 7, 7), small(6, 3, 3, 3)), [2], [[[0]], []], []),
    "conv-input-grad-2d": (
        conv_input_grad,
        (small(4, 5, 5, 3), small(3, 3, 3, 8)),
        [2, 2],
        [[[0]], [[], [], [], [1]]],
        [[0]],
    ),
    "conv-pool-2d": (conv_pool, (small(4, 8, 8, 3), small(3, 3, 3, 4)), [2, 2], [[[0], [1]], []], [[0], [1]]),
    "maxpool-grad-2d": (
        maxpool_grad,
        (small(4, 8, 8, 4), small(4, 4, 4, 4)),
        [2, 2],
        [[[0], [], [], [1]], [[0], [], [], [1]]],
        [[0], [], [], [1]],
    ),
    "conv-depthwise-1d": (depthwise, (small(4, 5, 5, 4), small(3, 3, 1, 4)), [2], [[[0]], []], [[0]]),
    "scatter-rows-2d": (
        kv_update,
        (normal(4, 16, 8), normal(4, 8), np.int32(5)),
        [2, 2],
        [[[0], [], [1]], [[0], [1]], []],
        [[0], [], [1]],
    ),
    "scatter-add-2d": (
        embedding_grad,
        (normal(16, 8), np.array([1, 5, 5, 0, 15, 3, 7, 1], np.int32), normal(8, 8)),
        [2, 2],
        [[[], [1]], [[0]], [[0], [1]]],
        [[], [1]],
    ),
    "scatter-cases-1d": (
        scatters,
        (
            normal(5, 4),
            normal(5, 4),
            np.array([7, -9, 2], np.int32),
            normal(4, 6, 8),
            RNG.integers(-2, 8, (4, 3, 1)).astype(np.int32),
            normal(4, 3, 8),
        ),
        [2],
        [[[], [0]], [[], [0]], [], [[0]], [[0]], [[0]]],
        [],
    ),
    "sort-2d": (sorts, (small(8, 16),), [2, 2], [[[0], [1]]], []),
    "top-k-2d": (
        moe_routing,
        (normal(16, 8), normal(8, 4), normal(4, 8, 16)),
        [2, 2],
        [[[0]], [], [[1]]],
        [[0]],
    ),
    "scatter-sum-2d": (
        embedding_grad,
        (normal(4, 8), (np.arange(32) * 7 % 4).astype(np.int32), normal(32, 8)),
        [2, 2],
        [[[], [1]], [[0]], [[0], [1]]],
        [[], [1]],
    ),
    "remat-2d": (
        remat_grad,
        (normal(8, 16), normal(16, 32) / 4, normal(32, 16) / 4),
        [2, 2],
        [[[0]], [[], [1]], [[1]]],
        [[], [1]],
    ),
    "block-bf16-2d": (
        block_bf16,
        (bf16(normal(8, 16)), bf16(normal(16, 32) / 4), bf16(normal(32, 16) / 4), bf16(normal(16))),
        [2, 2],
        [[[0]], [[], [1]], [[1]], []],
        [[0]],
    ),
    # 15 rows over 2 devices: pieces of 7 and 8 rows; ids from -15 (counted
    # from the end) to 15 (out of range: NaN)
    "embedding-vocab-uneven-2d": (
        embedding,
        (RNG.integers(-15, 16, (4, 3)).astype(np.int32), normal(15, 8)),
        [2, 2],
        [[[0]], [[1]]],
        [[0]],
    ),
}


def _calls(module: ir.Operation) -> list[ir.Operation]:
    calls: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "func.call":
            calls.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return calls


def inline_private_calls(module: ir.Operation) -> None:
    """Inline every call (upstream's inliner asserts on functions holding
    unregistered ops with regions), then drop the private functions."""
    body = module.regions[0].blocks[0]
    funcs = {op.attributes["sym_name"].value: op for op in body.operations if op.operation.name == "func.func"}
    while True:
        calls = _calls(module)
        if not calls:
            break
        for call in calls:
            callee = funcs[ir.FlatSymbolRefAttr(call.attributes["callee"]).value].clone()
            entry = callee.regions[0].blocks[0]
            for arg, operand in zip(entry.arguments, call.operands):
                arg.replace_all_uses_with(operand)
            inner = list(entry.operations)
            for op in inner[:-1]:
                op.move_before(call)
            for result, value in zip(call.results, inner[-1].operands):
                result.replace_all_uses_with(value)
            call.erase()
            callee.erase()
    for name, op in funcs.items():
        if name != "main":
            op.erase()


def annotate(module: ir.Operation, mesh: list[int], args: list, result: list) -> None:
    body = module.regions[0].blocks[0]
    main = next(op for op in body.operations if op.operation.name == "func.func")
    entry = main.regions[0].blocks[0]
    ret = list(entry.operations)[-1]
    with ir.Location.unknown(module.context):
        ops.mesh("mesh", mesh, ip=ir.InsertionPoint.at_block_begin(body))
        first = list(entry.operations)[0]
        for arg, split in zip(entry.arguments, args):
            uses = [(u.owner, u.operand_number) for u in arg.uses]
            s = ops.sharding("mesh", split, ip=ir.InsertionPoint(first))
            sharded = ops.shard(arg, s, ip=ir.InsertionPoint(first))
            for owner, i in uses:
                owner.operands[i] = sharded
        s = ops.sharding("mesh", result, ip=ir.InsertionPoint(ret))
        ret.operands[0] = ops.shard(ret.operands[0], s, ip=ir.InsertionPoint(ret))
    for name in list(module.attributes):
        del module.attributes[name]
    if "res_attrs" in main.attributes:
        del main.attributes["res_attrs"]  # jax.result_info


def main() -> None:
    ctx = mesh_dialect.context()
    for name, (fn, args, mesh, arg_layouts, result_layout) in CASES.items():
        if sys.argv[1:] and name not in sys.argv[1:]:
            continue
        lowered = jax.jit(fn).lower(*args).compiler_ir("stablehlo")
        text = lowered.operation.get_asm(print_generic_op_form=True)
        module = mesh_dialect.parse(text, context=ctx)
        inline_private_calls(module)
        annotate(module, mesh, arg_layouts, result_layout)
        printed = mesh_dialect.print_ir(module)
        header = f"// {name}: {fn.__name__} exported by JAX {jax.__version__} (Inputs/export.py); do not edit.\n"
        with open(os.path.join(HERE, f"{name}.mlir"), "w") as f:
            f.write(header + printed)
        arrays = {f"arg{i}": stored(a) for i, a in enumerate(args)}
        np.savez(os.path.join(HERE, f"{name}.npz"), out=stored(jax.jit(fn)(*args)), **arrays)


if __name__ == "__main__":
    main()
