"""Writes the JAX exports the frontend tests read, so that CI needs no JAX.

For each program (a Megatron MLP, two Megatron layers calling one relu, a
CNN stem split over batch and rows, a scalar loss, an attention block, a
layer norm, a greedy decoding head, an update clipped by the gradient's
norm under `lax.cond`, a gradient accumulated over micro-batches by
`lax.scan`, an SGD step under FSDP; then programs for partition paths
those miss: causal attention over a split sequence, prefix scans, int32
argmax ties and integer sums, 2-D convolution halos, `jax.grad` of an RMS
norm, scatters, a binary search, uneven pieces (integer reductions, a
softmax, a gelu MLP), pure resharding, a reversal, a rotation, a pad, a
finite difference, a token shift, a causal filter and the total variation
of a split sequence; then whole blocks users shard: a Llama block, the same
with its sequence split, `jax.grad` of it under FSDP, a top-1 mixture of
experts, an embedding lookup and a cross-entropy by `take_along_axis` and
by indexing;
then a CLIP loss, an Adam step, a top-2 mixture of experts, sorts along
split dimensions, a while loop whose condition reduces its operand and
Mamba's short causal convolution along a split sequence, a second
difference summed and maxed along one, and a transposed convolution and
a strided convolution's input gradient on split images, and both gradients
of a strided convolution (the kernel's read through a window wider than
it) and of a convolution, relu and 2x2 max pooling; then gradients exported beside the
loss nothing returns (an MLP's, a gelu block's, attention's), a batch norm,
concatenations and RoPE along split dimensions, a scan over stacked
weights split FSDP-style, and a KV cache decode step, a scan, a slot
cache and a pooling with a convolution over a sequence the devices do not
divide) on
8 CPU devices as the mesh ("data"=2, "model"=4), and each flavour (Shardy,
GSPMD):

- `NAME.FLAVOUR.mlir`: the lowered module in MLIR's generic form, as
  `mesh_dialect.frontends.jax.export` writes it;
- `NAME.FLAVOUR.xla-collectives.txt`: the collectives of XLA's partitioned
  HLO (`compile().as_text()`), one a line (kind, per-device shape, groups,
  gathered/scattered dimension), under a header with their count and the
  bytes a device receives, priced as `bench/xla_plans.py` prices them,
  each op counted once as written and as often as it runs (a loop body's
  times the loop's trips);

and once per program (the same for both flavours):

- `NAME.argI.npy`: fixed global inputs (numpy's generator, seeded by the
  name), what `mesh-run -i` reads;
- `NAME.resultI.npy`: JAX's own outputs for them, one per result, from the
  partitioned program XLA compiled (the GSPMD flavour's are checked to agree).

Run from the project root with the jax extra installed:
    XLA_FLAGS=--xla_force_host_platform_device_count=8 .venv/bin/python test/Frontends/Inputs/generate.py
(the script sets that XLA_FLAGS itself when it is unset; names given as
arguments write only those programs).  The output does not depend on the
machine: rerunning it rewrites the same files.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python"))

import xla_plans  # noqa: E402  (bench/: XLA's collectives, priced with the planner's model)

from mesh_dialect.frontends import jax as mj  # noqa: E402

MESH_SHAPE = {"data": 2, "model": 4}


def mesh() -> jax.sharding.Mesh:
    """The 2x4 mesh, with Auto axes: JAX chooses the layouts of
    intermediates, as in_shardings/out_shardings users expect."""
    return jax.make_mesh(tuple(MESH_SHAPE.values()), tuple(MESH_SHAPE), axis_types=(AxisType.Auto,) * 2)


def mlp(x: jax.Array, w1: jax.Array, b1: jax.Array, w2: jax.Array, b2: jax.Array) -> jax.Array:
    """Two dense layers with a relu between (`jax.nn.relu` is a private
    function `main` calls)."""
    return jax.nn.relu(x @ w1 + b1) @ w2 + b2


def mlp2(x: jax.Array, w1: jax.Array, w2: jax.Array, w3: jax.Array, w4: jax.Array) -> jax.Array:
    """Two Megatron layers: `jax.nn.relu`, used twice with the same types,
    is one private function and two calls."""
    h = jax.nn.relu(x @ w1) @ w2
    return jax.nn.relu(h @ w3) @ w4


def cnn(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    """A CNN stem on images split over batch ("data") and rows ("model"):
    3x3 convolution, relu, 3x3 max pooling with stride 2, 3x3 convolution."""
    dn = ("NHWC", "HWIO", "NHWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=dn))
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    return jax.lax.conv_general_dilated(y, w2, (1, 1), "SAME", dimension_numbers=dn)


def loss(x: jax.Array, w: jax.Array, y: jax.Array) -> jax.Array:
    """A training step's loss: a scalar JAX returns replicated, the sum of
    squared errors over a batch split over "data" and features over
    "model" (each device's sum is partial until reduced)."""
    return jnp.sum(jnp.square(x @ w - y))


def scan(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    """Three residual Megatron layers with stacked weights, applied by
    `lax.scan` (a `stablehlo.while` counting to 3)."""

    def layer(h: jax.Array, ws: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, None]:
        a, b = ws
        return h + jax.nn.relu(h @ a) @ b, None

    return jax.lax.scan(layer, x, (w1, w2))[0]


def attention(x: jax.Array, wq: jax.Array, wk: jax.Array, wv: jax.Array, wo: jax.Array) -> jax.Array:
    """Multi-head self-attention, heads on "model"; the per-head output is
    pinned with a sharding constraint, as Megatron-style code does."""
    q = jnp.einsum("bsd,dhk->bhsk", x, wq)
    k = jnp.einsum("bsd,dhk->bhsk", x, wk)
    v = jnp.einsum("bsd,dhk->bhsk", x, wv)
    scores = jnp.einsum("bhsk,bhtk->bhst", q, k) / math.sqrt(q.shape[-1])
    o = jnp.einsum("bhst,bhtk->bhsk", jax.nn.softmax(scores, axis=-1), v)
    o = jax.lax.with_sharding_constraint(o, NamedSharding(mesh(), P("data", "model", None, None)))
    return jnp.einsum("bhsk,hkd->bsd", o, wo)


def layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    """Layer norm over the hidden dimension, which is split over "model"."""
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def decode(h: jax.Array, w: jax.Array) -> jax.Array:
    """Greedy decoding: the next token is the argmax of the logits over a
    vocabulary split over "model" (each device picks among its own columns,
    then among the devices' picks)."""
    return jnp.argmax(h @ w, axis=-1)


def clip(g: jax.Array, w: jax.Array) -> jax.Array:
    """An SGD step clipped by the gradient's global norm: `lax.cond` (a
    `stablehlo.case`) on a norm summed over both mesh axes."""
    norm = jnp.sqrt(jnp.sum(g * g))
    return jax.lax.cond(norm > 1.0, lambda: w - 0.1 * g / norm, lambda: w - 0.1 * g)


def topk(x: jax.Array) -> jax.Array:
    """The indices of the 3 largest logits of each row, one argmax at a time
    in a `fori_loop`, each written into its column with `.at[:, i].set` (a
    `stablehlo.scatter`) and masked out with -inf; the vocabulary is split
    over "model"."""

    def pick(i: jax.Array, carry: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        x, picked = carry
        best = jnp.argmax(x, axis=-1)
        x = jnp.where(jnp.arange(x.shape[-1])[None, :] == best[:, None], -jnp.inf, x)
        return x, picked.at[:, i].set(best)

    return jax.lax.fori_loop(0, 3, pick, (x, jnp.zeros((x.shape[0], 3), jnp.int32)))[1]


def dropout(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    """A Megatron MLP with dropout and Gaussian noise on its hidden layer:
    jax.random's counters (a ui32 iota along split dimensions), bit mixing,
    and `chlo.erf_inv` for the normal samples."""
    h = x @ w1
    keep = jax.random.bernoulli(jax.random.key(0), 0.75, h.shape)
    h = jnp.where(keep, h / 0.75, 0.0) + 0.01 * jax.random.normal(jax.random.key(1), h.shape)
    return h @ w2


def gradacc(w: jax.Array, xs: jax.Array, ys: jax.Array) -> jax.Array:
    """Gradient accumulation over 4 micro-batches with `lax.scan`: the
    weight's columns on "model", each micro-batch's rows on "data", so each
    device's gradient is a partial sum over its rows until reduced."""

    def loss_of(w: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        return jnp.sum(jnp.square(x @ w - y))

    def step(acc: jax.Array, batch: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, None]:
        return acc + jax.grad(loss_of)(w, *batch), None

    return jax.lax.scan(step, jnp.zeros_like(w), (xs, ys))[0]


def fsdp(x: jax.Array, y: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    """One SGD step of an MLP's first weight under FSDP: both weights kept
    with their rows on "data", as is the batch.  XLA gathers the weights;
    on this small batch moving the activations costs less."""

    def loss_of(w1: jax.Array, w2: jax.Array) -> jax.Array:
        return jnp.mean(jnp.square(jax.nn.relu(x @ w1) @ w2 - y))

    return w1 - 0.1 * jax.grad(loss_of)(w1, w2)


def causal(x: jax.Array, wq: jax.Array, wk: jax.Array, wv: jax.Array) -> jax.Array:
    """Causal self-attention with the sequence split over "model": the mask
    (`jnp.triu`, iotas compared) follows the query rows, offset by each
    device's position, and every query piece needs all keys and values
    (gathering x once costs half of gathering k and v, as XLA does)."""
    q, k, v = x @ wq, x @ wk, x @ wv
    s = jnp.einsum("bsd,btd->bst", q, k) / 4.0
    mask = jnp.triu(jnp.ones((s.shape[-1],) * 2, bool), k=1)
    return jnp.einsum("bst,btd->bsd", jax.nn.softmax(jnp.where(mask, -jnp.inf, s), axis=-1), v)


def cumsum(x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Prefix scans (a `reduce_window` as long as the dimension): cumsum and
    cumprod along the dimension split over "model", where each piece needs
    the pieces before it, and cumsum along the one split over "data"."""
    return jnp.cumsum(x, axis=1), jnp.cumsum(x, axis=0), jnp.cumprod(1.0 + 0.1 * x, axis=1)


def argmax_ties(a: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """argmax and argmin of int32 values in 0..2 along the dimension split
    over "model": the rows' extremes tie across pieces, and the first index
    must win (again after a transpose, with the result replicated)."""
    return jnp.argmax(a, axis=1), jnp.argmin(a, axis=1), jnp.argmax(a.T, axis=0)


def int_mean(a: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """int32 values split over both axes: a mean and a variance (JAX
    converts to float32 first), and an int32 sum of products that overflow:
    it wraps, and as wrapping addition is associative the pieces' partial
    sums must give JAX's result exactly."""
    return jnp.mean(a, axis=1), jnp.var(a.astype(jnp.float32), axis=0), jnp.sum(a * 100000000, axis=1)


def conv2d(x: jax.Array, w: jax.Array, w2: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """2-D convolutions on images with rows over "data" and columns over
    "model": halos along both split dimensions, whose corners come from a
    diagonal neighbour; a 3x3 convolution, a stride-2 4x4 one and a 3x3
    average pool need halos of 1, a dilated 3x3 one halos of 2."""
    dn = ("NHWC", "HWIO", "NHWC")
    a = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn)
    b = jax.lax.conv_general_dilated(x, w2, (2, 2), "SAME", dimension_numbers=dn)
    c = jax.lax.conv_general_dilated(x, w, (1, 1), [(2, 2), (2, 2)], rhs_dilation=(2, 2), dimension_numbers=dn)
    p = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0
    return a, b, c, p


def rms_grad(x: jax.Array, g: jax.Array, w1: jax.Array, w2: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """`jax.grad` of an RMS norm and a Megatron MLP with respect to the
    norm's gain (replicated: its gradient sums over the batch) and both
    weights (split like the weights)."""

    def loss_of(g: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
        n = x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g
        return jnp.mean(jnp.square(jax.nn.relu(n @ w1) @ w2))

    return jax.grad(loss_of, argnums=(0, 1, 2))(g, w1, w2)


def scatter(x: jax.Array, idx: jax.Array, u: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Scatters into columns split over "model": multiply and min with
    repeated indices and one out of range (dropped), and a
    `dynamic_update_slice` of a split update at column 5, across the
    pieces' boundaries."""
    y = jax.lax.dynamic_update_slice_in_dim(x, u * 10.0, 5, axis=1)
    return x.at[:, idx].multiply(u), x.at[:, idx].min(u), y


def searchsorted(edges: jax.Array, v: jax.Array) -> tuple[jax.Array, jax.Array]:
    """`jnp.searchsorted` and `jnp.digitize` (a `while` of a binary search,
    int32 results) of values split over "data" into sorted edges split over
    "model"."""
    return jnp.searchsorted(edges, v).astype(jnp.int32), jnp.digitize(v, edges).astype(jnp.int32)


def histogram(edges: jax.Array, v: jax.Array) -> jax.Array:
    """Counts of values per bucket of sorted edges: the buckets from
    `jnp.searchsorted` (a `while` loop), then `one_hot` summed over the
    values, which are split over both axes."""
    buckets = jnp.clip(jnp.searchsorted(edges, v), 0, 9)
    return jnp.sum(jax.nn.one_hot(buckets, 10, dtype=jnp.int32), axis=(0, 1))


def uneven(a: jax.Array, x: jax.Array) -> tuple[jax.Array, ...]:
    """Uneven pieces (sharding constraints: 10 columns over "model", 6 over
    both axes): max, min, product, mean, logsumexp and argmax along them,
    on negative int32 values where padding with zeros would be wrong."""
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh(), P(None, "model")))
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh(), P(None, ("data", "model"))))
    return (
        jnp.max(a, axis=1),
        jnp.min(-a, axis=1),
        jnp.prod(x, axis=1),
        jnp.mean(x, axis=1),
        jax.nn.logsumexp(x, axis=1),
        jnp.argmax(a, axis=1),
    )


def uneven_softmax(x: jax.Array, w: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Float ops on uneven pieces (sharding constraints: 6 rows over
    "model", XLA's 2, 2, 2, 0): a matmul, a softmax along the cut dimension
    and a sum across it, which run on the pieces as XLA cut them."""
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh(), P(None, "model")))
    h = jax.lax.with_sharding_constraint(x.T @ w, NamedSharding(mesh(), P("model")))
    return jax.nn.softmax(h, axis=0), jnp.sum(h, axis=1)


def uneven_gelu(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    """A Megatron gelu MLP whose 10 hidden columns the 4 "model" devices do
    not divide (XLA cuts 3, 3, 3, 1), the hidden layer constrained to
    whole rows: partition gathers its rows over "data" and slices them
    back for the second matmul, a round trip mesh-optimize-collectives
    undoes."""
    w1 = jax.lax.with_sharding_constraint(w1, NamedSharding(mesh(), P(None, "model")))
    w2 = jax.lax.with_sharding_constraint(w2, NamedSharding(mesh(), P("model")))
    h = jax.lax.with_sharding_constraint(jax.nn.gelu(x @ w1), NamedSharding(mesh(), P(None, "model")))
    return h @ w2


def reshard(x: jax.Array) -> tuple[jax.Array, ...]:
    """One array returned in six layouts (pure resharding): axes swapped,
    rows over both axes in either order, columns over both ("model"
    outermost), replicated, and rows over "model"."""
    return x, x * 1.0, x + 0.0, x - 0.0, x * 2.0, x / 2.0


def seq_flip(x: jax.Array) -> jax.Array:
    """`jnp.flip` of the sequence split over "model": each piece trades
    places with its mirror's, reversed."""
    return jnp.flip(x, 1)


def seq_roll(x: jax.Array) -> jax.Array:
    """`jnp.roll` by 3 of the sequence split over "model": 3 rows wrap
    around from each piece to the next."""
    return jnp.roll(x, 3, 1)


def seq_flip_axes(x: jax.Array) -> jax.Array:
    """`jnp.flip` of columns split over ("model", "data") with 4 rows, which
    the 8 devices do not divide: partition reshards them one mesh axis at a
    time, and each piece still trades places with its mirror's once."""
    return jnp.flip(x, 1)


def seq_flip_axes_dm(x: jax.Array) -> jax.Array:
    """`seq_flip_axes` over ("data", "model"): the reversal runs on rows
    split over "model" alone, one all_to_all away."""
    return jnp.flip(x, 1)


def seq_roll_axes(x: jax.Array) -> jax.Array:
    """`jnp.roll` by 3 of columns split over ("model", "data") with 4 rows,
    which the 8 devices do not divide: partition reshards them one mesh
    axis at a time, and the rotation still moves only 3 columns to the
    next device in that order."""
    return jnp.roll(x, 3, 1)


def seq_pad(x: jax.Array) -> jax.Array:
    """`jnp.pad` of the sequence split over "model" from 48 to 64 rows:
    pieces of 12 become pieces of 16, each topped up from the next."""
    return jnp.pad(x, ((0, 0), (0, 16), (0, 0)))


def seq_diff(x: jax.Array) -> jax.Array:
    """A finite difference along the sequence split over "model", padded
    back to 48 rows with a zero row: each piece reads the first row of the
    next."""
    return jnp.pad(x[:, 1:] - x[:, :-1], ((0, 0), (0, 1), (0, 0)))


def seq_shift(x: jax.Array) -> jax.Array:
    """A token shift (RWKV's) of the sequence split over "model": every row
    moves one down, a zero row first; each piece reads the last row of the
    previous."""
    return jnp.pad(x[:, :-1], ((0, 0), (1, 0), (0, 0)))


def seq_filter(x: jax.Array) -> jax.Array:
    """A causal 3-tap filter along the sequence split over "model" (two zero
    rows in front, three shifted copies weighed): each piece reads the last
    two rows of the previous."""
    xp = jnp.pad(x, ((0, 0), (2, 0), (0, 0)))
    return 0.5 * xp[:, 2:] + 0.3 * xp[:, 1:-1] + 0.2 * xp[:, :-2]


def seq_tv(x: jax.Array) -> jax.Array:
    """The total variation along the sequence split over "model" (the sum of
    the differences' magnitudes): each piece reads the first row of the
    next, and the partial sums are added up."""
    return jnp.sum(jnp.abs(x[:, 1:] - x[:, :-1]))


def seq_next_token(logits: jax.Array, targets: jax.Array) -> jax.Array:
    """A next-token loss over the sequence split over "model": position i's
    log-probabilities against the targets at i + 1 (a row of the next piece
    of the targets; the vocabulary is not split)."""
    log_probs = jax.nn.log_softmax(logits[:, :-1], axis=-1)
    return -jnp.sum(log_probs * targets[:, 1:])


def seq_next_token_take(logits: jax.Array, targets: jax.Array) -> jax.Array:
    """The next-token loss as LM code writes it: integer targets picked with
    `take_along_axis` (a batched gather) from the log-probabilities of
    `logits[:, :-1]`, the targets shifted by one (`targets[:, 1:]`), the
    sequence (48, cut 31 over 4 devices once sliced) split over "model"."""
    log_probs = jax.nn.log_softmax(logits[:, :-1], axis=-1)
    return -jnp.mean(jnp.take_along_axis(log_probs, targets[:, 1:, None], axis=-1))


def _rms_norm(x: jax.Array, gain: jax.Array) -> jax.Array:
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * gain


def _rotary(x: jax.Array) -> jax.Array:
    """Rotary position embedding of (batch, sequence, heads, head_dim): the
    angles come from `jnp.arange` over the sequence, so a device holding a
    piece of the sequence must use its own positions."""
    seq, dim = x.shape[1], x.shape[3]
    freq = 1.0 / (10000 ** (jnp.arange(0, dim, 2, dtype=jnp.float32) / dim))
    angle = jnp.arange(seq, dtype=jnp.float32)[:, None] * freq[None, :]
    cos, sin = jnp.cos(angle)[None, :, None, :], jnp.sin(angle)[None, :, None, :]
    lo, hi = x[..., : dim // 2], x[..., dim // 2 :]
    return jnp.concatenate([lo * cos - hi * sin, lo * sin + hi * cos], axis=-1)


def llama(x, g1, wq, wk, wv, wo, g2, wg, wu, wd):  # noqa: ANN001, ANN201 - ten arrays
    """A Llama block: RMS norms, rotary embeddings, grouped-query causal
    attention (8 query heads over 4 key/value heads, `jnp.repeat`), a
    residual, and a SwiGLU MLP; heads and the MLP's hidden columns over
    "model"."""
    h = _rms_norm(x, g1)
    q = _rotary(jnp.einsum("bse,ehd->bshd", h, wq))
    k = jnp.repeat(_rotary(jnp.einsum("bse,ehd->bshd", h, wk)), 2, axis=2)
    v = jnp.repeat(jnp.einsum("bse,ehd->bshd", h, wv), 2, axis=2)
    seq = x.shape[1]
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(q.shape[-1])
    scores = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), scores, -1e9)
    attended = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v)
    x = x + jnp.einsum("bqhd,hde->bqe", attended, wo)
    h = _rms_norm(x, g2)
    return x + (jax.nn.silu(h @ wg) * (h @ wu)) @ wd


def _llama_loss(*args: jax.Array) -> jax.Array:
    return jnp.mean(llama(*args) ** 2)


def llama_grad(*args: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """`jax.grad` of a loss over the Llama block, with respect to the query,
    gate and down projections."""
    return jax.grad(_llama_loss, argnums=(2, 7, 9))(*args)


def moe_top1(x: jax.Array, router: jax.Array, experts: jax.Array) -> jax.Array:
    """A mixture of 4 experts with top-1 routing written with one-hot
    matrices (dispatch and combine einsums), the experts over "model"."""
    gates = jax.nn.softmax(x @ router, axis=-1)
    chosen = jax.nn.one_hot(jnp.argmax(gates, axis=-1), router.shape[1], dtype=x.dtype)
    dispatched = jnp.einsum("tx,te->xte", chosen, x)
    out = jnp.einsum("xtf,tx->tf", jnp.einsum("xte,xef->xtf", dispatched, experts), chosen)
    return out * jnp.sum(gates * chosen, axis=-1)[:, None]


def embed(table: jax.Array, ids: jax.Array) -> jax.Array:
    """An embedding lookup (`jnp.take`) into a table whose vocabulary is
    over "model", the int32 ids' batch over "data"."""
    return jnp.take(table, ids, axis=0)


def xent_take(logits: jax.Array, labels: jax.Array) -> jax.Array:
    """A cross-entropy reading each row's label logit with
    `take_along_axis` from logits whose vocabulary is over "model"."""
    picked = jnp.take_along_axis(logits, labels[:, None], axis=-1)[:, 0]
    return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - picked)


def xent_index(logits: jax.Array, labels: jax.Array) -> jax.Array:
    """The same cross-entropy reading each row's label logit as
    `logits[jnp.arange(n), labels]`: a gather of one element along both
    dimensions, the batch over "data" and the vocabulary over "model"."""
    picked = logits[jnp.arange(logits.shape[0]), labels]
    return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - picked)


def contrastive(images: jax.Array, texts: jax.Array) -> jax.Array:
    """A CLIP loss: both batches over "data", their normalized products'
    log-softmax taken along each axis and read on the diagonal."""
    a = images / jnp.linalg.norm(images, axis=-1, keepdims=True)
    b = texts / jnp.linalg.norm(texts, axis=-1, keepdims=True)
    logits = 10.0 * a @ b.T
    diagonal = jnp.arange(logits.shape[0])
    rows = jax.nn.log_softmax(logits, axis=-1)[diagonal, diagonal]
    columns = jax.nn.log_softmax(logits, axis=0)[diagonal, diagonal]
    return -(jnp.mean(rows) + jnp.mean(columns)) / 2


def adam(w: jax.Array, m: jax.Array, v: jax.Array, x: jax.Array, y: jax.Array) -> tuple[jax.Array, ...]:
    """One Adam step of a least-squares layer whose weight and moments
    are over "model" (the gradient by `jax.grad`; the second moment kept
    positive so that its square root is a number)."""
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    m = 0.9 * m + 0.1 * g
    v = 0.999 * jnp.abs(v) + 0.001 * g * g
    return w - 1e-3 * m / (jnp.sqrt(v) + 1e-8), m, v


def moe_top2(x: jax.Array, router: jax.Array, experts: jax.Array) -> jax.Array:
    """A mixture of 4 experts over "model" routed to each token's two best
    (`lax.top_k`), dispatched and combined by one-hot einsums."""
    values, chosen = jax.lax.top_k(jax.nn.softmax(x @ router, axis=-1), 2)
    onehot = jax.nn.one_hot(chosen, router.shape[1], dtype=x.dtype)
    dispatched = jnp.einsum("tx,te->xte", jnp.sum(onehot, axis=1), x)
    out = jnp.einsum("xte,xef->xtf", dispatched, experts)
    return jnp.einsum("xtf,tx->tf", out, jnp.einsum("tk,tkx->tx", values, onehot))


def sort_pieces(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """`jnp.sort` along the dimension over "model" and `jnp.argsort` along
    the one over "data"."""
    return jnp.sort(x, axis=-1), jnp.argsort(x, axis=0)


def while_halve(x: jax.Array) -> jax.Array:
    """A `lax.while_loop` halving its split operand while its largest
    magnitude is above one (at most 5 times): a condition on a reduction."""

    def more(carry: tuple[jax.Array, jax.Array]) -> jax.Array:
        i, y = carry
        return (i < 5) & (jnp.max(jnp.abs(y)) > 1.0)

    return jax.lax.while_loop(more, lambda carry: (carry[0] + 1, carry[1] * 0.5), (0, x))[1]


def causal_conv(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    """Mamba's short convolution: a depthwise causal convolution of width 4
    along a sequence over "model" (the sequence padded in front, four
    shifted copies scaled by rows of the weights), a bias, SiLU, and a gate
    by the input."""
    padded = jnp.pad(x, ((0, 0), (3, 0), (0, 0)))
    y = sum(padded[:, k : k + x.shape[1], :] * w[k] for k in range(4)) + b
    return jax.nn.silu(y) * x


def second_difference(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A second difference along a sequence over "model", its energy summed
    and its largest magnitude per row."""
    d = x[:, 2:] - 2 * x[:, 1:-1] + x[:, :-2]
    return jnp.sum(d * d, axis=1), jnp.max(jnp.abs(d), axis=1)


def conv_up(x: jax.Array, w_up: jax.Array, w: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A U-Net decoder step on images with rows over "data" and columns over
    "model": a stride-2 transposed convolution doubles both (an input
    dilated by 2), relu, a 3x3 convolution; and the input gradient of a
    stride-2 3x3 convolution, which JAX writes as a convolution of the
    output gradient dilated by 2."""
    dn = ("NHWC", "HWIO", "NHWC")
    up = jax.nn.relu(jax.lax.conv_transpose(x, w_up, (2, 2), "SAME", dimension_numbers=dn))
    z = jax.lax.conv_general_dilated(up, w, (1, 1), "SAME", dimension_numbers=dn)

    def strided(y: jax.Array) -> jax.Array:
        return jnp.sum(jnp.square(jax.lax.conv_general_dilated(y, w, (2, 2), "SAME", dimension_numbers=dn)))

    return z, jax.grad(strided)(y)


def conv_grad(x: jax.Array, w: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A training step's gradients of a stride-2 3x3 convolution on images
    with rows over "data" and columns over "model": the input's gradient
    (the output gradient dilated by 2) and the kernel's, which JAX writes
    as a convolution whose window is the output gradient, wider than the
    3x3 kernel it makes."""
    dn = ("NHWC", "HWIO", "NHWC")

    def loss(x: jax.Array, w: jax.Array) -> jax.Array:
        return jnp.sum(jnp.square(jnp.tanh(jax.lax.conv_general_dilated(x, w, (2, 2), "SAME", dimension_numbers=dn))))

    return jax.grad(loss, argnums=(0, 1))(x, w)


def pool_grad(x: jax.Array, w: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A training step's gradients through a 3x3 convolution, relu and 2x2
    max pooling of stride 2, on images with rows over "data" and columns
    over "model": the pooling's gradient is a select_and_scatter whose
    windows tile the rows and columns side by side."""
    dn = ("NHWC", "HWIO", "NHWC")

    def loss(x: jax.Array, w: jax.Array) -> jax.Array:
        h = jax.nn.relu(jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn))
        pooled = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.sum(jnp.square(pooled))

    return jax.grad(loss, argnums=(0, 1))(x, w)


def _mlp_loss(x: jax.Array, w1: jax.Array, w2: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean(jnp.square(jax.nn.relu(x @ w1) @ w2 - y))


def mlp_grad(x: jax.Array, w1: jax.Array, w2: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """`jax.grad` of a Megatron MLP's squared error with respect to both
    weights: JAX exports the loss's tail beside the gradients."""
    return jax.grad(_mlp_loss, argnums=(1, 2))(x, w1, w2, y)


def _block_loss(x: jax.Array, gain: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    return jnp.sum(jax.nn.gelu(layernorm(x, gain, 0.0) @ w1) @ w2 + x)


def block_grad(x: jax.Array, gain: jax.Array, w1: jax.Array, w2: jax.Array) -> tuple[jax.Array, jax.Array]:
    """`jax.grad` of a pre-norm gelu block with respect to its first weight
    and its norm's gain: the forward pass's output, a row-parallel partial
    sum, is summed into a loss nothing returns."""
    return jax.grad(_block_loss, argnums=(2, 1))(x, gain, w1, w2)


def _attention_loss(x: jax.Array, wq: jax.Array, wk: jax.Array, wv: jax.Array) -> jax.Array:
    q, k, v = (jnp.einsum("bsd,dhk->bshk", x, w) for w in (wq, wk, wv))
    scores = jnp.einsum("bqhk,bthk->bhqt", q, k) / math.sqrt(q.shape[-1])
    return jnp.sum(jnp.square(jnp.einsum("bhqt,bthk->bqhk", jax.nn.softmax(scores, axis=-1), v)))


def attention_grad(x: jax.Array, wq: jax.Array, wk: jax.Array, wv: jax.Array) -> jax.Array:
    """`jax.grad` of self-attention with respect to the query projection."""
    return jax.grad(_attention_loss, argnums=1)(x, wq, wk, wv)


def batch_norm(x: jax.Array) -> jax.Array:
    """Batch norm in training: statistics over a batch split over "data"."""
    return (x - jnp.mean(x, axis=0)) / jnp.sqrt(jnp.var(x, axis=0) + 1e-5)


def concat(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Concatenations along a dimension both operands and the result split."""
    return jnp.concatenate([x, y], axis=1), jnp.concatenate([x, y], axis=0)


def rope_head_dim(x: jax.Array, cos: jax.Array, sin: jax.Array) -> jax.Array:
    """Rotary embedding by per-position angles given as arguments, with the
    head dimension the rotation swaps halves of split over "model"."""
    half = x.shape[-1] // 2
    rotated = jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos[:, None, :] + rotated * sin[:, None, :]


def scan_fsdp(ws: jax.Array, x: jax.Array) -> jax.Array:
    """Three tanh layers with stacked weights applied by `lax.scan`, each
    weight's input dimension split over "model" (FSDP)."""
    return jax.lax.scan(lambda h, w: (jnp.tanh(h @ w), None), x, ws)[0]


def scan_grad_fsdp(ws: jax.Array, x: jax.Array) -> jax.Array:
    """The gradient of `scan_fsdp`'s squared output by its stacked weights:
    JAX's backward `while` loop writes each layer's weight gradient into a
    stack carried from zeros, which must come out split as the weights are."""

    def loss_of(ws: jax.Array) -> jax.Array:
        return jnp.sum(scan_fsdp(ws, x) ** 2)

    return jax.grad(loss_of)(ws)


def mlp_scan_grad_fsdp(w1s: jax.Array, w2s: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The gradients of a `lax.scan` over 3 tanh MLP layers by
    their stacked weights, whose input dimensions are split over "model"
    (FSDP): the forward loop stacks each layer's activations, which the
    backward loop reads back."""

    def loss_of(w1s: jax.Array, w2s: jax.Array) -> jax.Array:
        def layer(h: jax.Array, ws: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, None]:
            return jnp.tanh(jnp.tanh(h @ ws[0]) @ ws[1]), None

        return jnp.mean(jax.lax.scan(layer, x, (w1s, w2s))[0] ** 2)

    return jax.grad(loss_of, argnums=(0, 1))(w1s, w2s)


def kv_decode_uneven(ck, cv, x, wq, wk, wv, wo, pos):  # noqa: ANN001, ANN201 - eight arrays
    """One decode step over a KV cache of 10 positions, which constraints
    split over the 4 "model" devices (XLA cuts 3, 3, 3, 1): the new token's
    key and value written at a position given at run time, then attention
    over the cache, positions past it masked."""
    b, heads, s, hd = ck.shape
    split = NamedSharding(mesh(), P("data", None, "model"))
    ck, cv = jax.lax.with_sharding_constraint(ck, split), jax.lax.with_sharding_constraint(cv, split)
    q, k, v = ((x @ w).reshape(b, heads, hd) for w in (wq, wk, wv))
    ck = jax.lax.with_sharding_constraint(jax.lax.dynamic_update_slice(ck, k[:, :, None], (0, 0, pos, 0)), split)
    cv = jax.lax.with_sharding_constraint(jax.lax.dynamic_update_slice(cv, v[:, :, None], (0, 0, pos, 0)), split)
    scores = jnp.einsum("bhd,bhsd->bhs", q, ck) / np.sqrt(hd)
    scores = jnp.where(jnp.arange(s)[None, None, :] <= pos, scores, -1e9)
    out = jnp.einsum("bhs,bhsd->bhd", jax.nn.softmax(scores, -1), cv).reshape(b, heads * hd)
    return out @ wo, ck, cv


def scan_uneven(x, w, ws):  # noqa: ANN001, ANN201 - three arrays
    """A sequence padded to 12 positions, split evenly over the 4 "model"
    devices, cut back to its 10 real ones (which constraints split as XLA
    cuts them: 3, 3, 3, 1), then three tanh layers applied by `lax.scan`
    keeping that split, and the mean over the sequence."""
    split = NamedSharding(mesh(), P("data", "model"))
    h = jax.lax.with_sharding_constraint(jnp.tanh(x @ w)[:, :10], split)
    h = jax.lax.scan(lambda c, wl: (jax.lax.with_sharding_constraint(jnp.tanh(c @ wl), split), None), h, ws)[0]
    return jnp.mean(h, 1)


def pool_conv_uneven(x, w, wc):  # noqa: ANN001, ANN201 - three arrays
    """A sequence padded to 12 positions, split evenly over the 4 "model"
    devices, cut back to its 10 real ones (XLA cuts 3, 3, 3, 1), then a
    3-wide average pooling and a 3-wide convolution along it ("same"
    padding, one position at a time), a residual, and the mean over the
    sequence: prepare-windows pads each window's input back to 3 positions
    a device, so both split with halos as XLA runs them."""
    split = NamedSharding(mesh(), P("data", "model"))
    h = jax.lax.with_sharding_constraint(jnp.tanh(x @ w)[:, :10], split)
    pooled = jax.lax.reduce_window(h, 0.0, jax.lax.add, (1, 3, 1), (1, 1, 1), "SAME") / 3.0
    dn = ("NWC", "WIO", "NWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(pooled + h, wc, (1,), "SAME", dimension_numbers=dn))
    return jnp.mean(jax.lax.with_sharding_constraint(y + h, split), 1)


def slot_cache_uneven(cache, new, slot, rd, w):  # noqa: ANN001, ANN201 - five arrays
    """Continuous batching: a cache of 4 request slots by 10 positions,
    which constraints split over the 4 "model" devices (XLA cuts 3, 3, 3,
    1); a new request's 10 positions written into slot `slot`, then slot
    `rd` read back, both slots given at run time."""
    split = NamedSharding(mesh(), P(None, "model"))
    cache = jax.lax.with_sharding_constraint(cache, split)
    prompt = jax.lax.with_sharding_constraint(jnp.tanh(new @ w), NamedSharding(mesh(), P("model")))
    cache = jax.lax.with_sharding_constraint(jax.lax.dynamic_update_slice(cache, prompt[None], (slot, 0, 0)), split)
    read = jax.lax.dynamic_slice(cache, (rd, 0, 0), (1, *cache.shape[1:]))[0]
    return jnp.sum(cache, 1), jnp.sum(read * read, 0)


def position(p: int) -> Callable[[np.random.Generator], np.ndarray]:
    """A 0-d int32 argument: a position given at run time."""
    return lambda rng: np.asarray(p, np.int32)


def ints(shape: tuple[int, ...], low: int, high: int) -> Callable[[np.random.Generator], np.ndarray]:
    """An int32 argument drawn from [low, high)."""
    return lambda rng: rng.integers(low, high, shape).astype(np.int32)


def fixed(values: list[int]) -> Callable[[np.random.Generator], np.ndarray]:
    """An int32 argument with the given values (indices chosen for their edge cases)."""
    return lambda rng: np.asarray(values, np.int32)


def stacked(shape: tuple[int, ...]) -> Callable[[np.random.Generator], np.ndarray]:
    """Stacked float32 weights scaled by 1/sqrt of each layer's fan-in (the
    default scales by the stack's length), so tanh layers do not saturate."""
    return lambda rng: (rng.standard_normal(shape) / math.sqrt(shape[1])).astype(np.float32)


def ascending(n: int) -> Callable[[np.random.Generator], np.ndarray]:
    """A sorted float32 vector (searchsorted's edges)."""
    return lambda rng: np.sort(rng.standard_normal(n)).astype(np.float32)


# The Llama programs' arguments: x, norm gain, wq (8 heads), wk and wv (4
# key/value heads), wo, norm gain, gate, up and down projections.
LLAMA_SHAPES = [(2, 8, 16), (16,), (16, 8, 4), (16, 4, 4), (16, 4, 4), (8, 4, 16), (16,), (16, 32), (16, 32), (32, 16)]
LLAMA_SPECS = [P("data"), P(), *[P(None, "model")] * 3, P("model"), P(), *[P(None, "model")] * 2, P("model", None)]

# name: (function, arguments, argument specs, result spec or a tuple of them, one per result); an argument
# is a float32 shape or one of the generators above; small sizes keep the files small
PROGRAMS = {
    "mlp": (
        mlp,
        [(8, 16), (16, 32), (32,), (32, 16), (16,)],
        [P("data", None), P(None, "model"), P("model"), P("model", None), P()],
        P("data", None),
    ),
    "mlp2": (
        mlp2,
        [(8, 16), (16, 32), (32, 16), (16, 32), (32, 16)],
        [P("data", None), P(None, "model"), P("model", None), P(None, "model"), P("model", None)],
        P("data", None),
    ),
    "cnn": (
        cnn,
        [(4, 16, 16, 3), (3, 3, 3, 8), (3, 3, 8, 8)],
        [P("data", "model"), P(), P()],
        P("data", "model"),
    ),
    "loss": (
        loss,
        [(8, 16), (16, 32), (8, 32)],
        [P("data", None), P(None, "model"), P("data", "model")],
        P(),
    ),
    "scan": (
        scan,
        [(8, 16), (3, 16, 32), (3, 32, 16)],
        [P("data", None), P(None, None, "model"), P(None, "model", None)],
        P("data", None),
    ),
    "attention": (
        attention,
        [(2, 8, 16), (16, 4, 4), (16, 4, 4), (16, 4, 4), (4, 4, 16)],
        [P("data"), P(None, "model"), P(None, "model"), P(None, "model"), P("model")],
        P("data"),
    ),
    "layernorm": (
        layernorm,
        [(8, 32), (32,), (32,)],
        [P("data", "model"), P("model"), P("model")],
        P("data", "model"),
    ),
    "decode": (
        decode,
        [(8, 16), (16, 64)],
        [P("data", None), P(None, "model")],
        P("data"),
    ),
    "clip": (
        clip,
        [(16, 32), (16, 32)],
        [P("data", "model"), P("data", "model")],
        P("data", "model"),
    ),
    "topk": (topk, [(8, 64)], [P("data", "model")], P("data", None)),
    "gradacc": (
        gradacc,
        [(16, 32), (4, 8, 16), (4, 8, 32)],
        [P(None, "model"), P(None, "data", None), P(None, "data", "model")],
        P(None, "model"),
    ),
    "fsdp": (
        fsdp,
        [(8, 16), (8, 16), (16, 32), (32, 16)],
        [P("data", None), P("data", None), P("data", None), P("data", None)],
        P("data", None),
    ),
    "dropout": (
        dropout,
        [(8, 16), (16, 32), (32, 16)],
        [P("data", None), P(None, "model"), P("model", None)],
        P("data", None),
    ),
    "causal": (
        causal,
        [(2, 8, 16), (16, 16), (16, 16), (16, 16)],
        [P("data", "model"), P(), P(), P()],
        P("data", "model"),
    ),
    "cumsum": (cumsum, [(8, 16)], [P("data", "model")], (P("data", "model"),) * 3),
    "argmax_ties": (argmax_ties, [ints((4, 16), 0, 3)], [P("data", "model")], (P("data"), P("data"), P())),
    "int_mean": (int_mean, [ints((8, 16), -50, 50)], [P("data", "model")], (P("data"), P("model"), P("data"))),
    "conv2d": (
        conv2d,
        [(2, 8, 16, 3), (3, 3, 3, 4), (4, 4, 3, 4)],
        [P(None, "data", "model"), P(), P()],
        (P(None, "data", "model"),) * 4,
    ),
    "rms_grad": (
        rms_grad,
        [(8, 16), (16,), (16, 32), (32, 16)],
        [P("data"), P(), P(None, "model"), P("model", None)],
        (P(), P(None, "model"), P("model", None)),
    ),
    "scatter": (
        scatter,
        [(4, 16), fixed([3, 3, 15, 20, 4, 3, 8, 0]), (4, 8)],
        [P("data", "model"), P(), P("data", "model")],
        (P("data", "model"),) * 3,
    ),
    "searchsorted": (searchsorted, [ascending(16), (8,)], [P("model"), P("data")], (P("data"), P("data"))),
    "histogram": (histogram, [ascending(9), (8, 16)], [P(), P("data", "model")], P()),
    "uneven": (uneven, [ints((4, 10), -90, -10), (4, 6)], [P(), P()], (P(),) * 6),
    "uneven_softmax": (uneven_softmax, [(10, 6), (10, 10)], [P(), P()], (P(), P())),
    "uneven_gelu": (uneven_gelu, [(8, 16), (16, 10), (10, 16)], [P("data"), P(), P()], P("data")),
    "seq_flip": (seq_flip, [(4, 48, 16)], [P("data", "model")], P("data", "model")),
    "seq_roll": (seq_roll, [(4, 48, 16)], [P("data", "model")], P("data", "model")),
    "seq_flip_axes": (seq_flip_axes, [(4, 64)], [P(None, ("model", "data"))], P(None, ("model", "data"))),
    "seq_flip_axes_dm": (seq_flip_axes_dm, [(4, 64)], [P(None, ("data", "model"))], P(None, ("data", "model"))),
    "seq_roll_axes": (seq_roll_axes, [(4, 64)], [P(None, ("model", "data"))], P(None, ("model", "data"))),
    "seq_pad": (seq_pad, [(4, 48, 16)], [P("data", "model")], P("data", "model")),
    "seq_diff": (seq_diff, [(4, 48, 16)], [P("data", "model")], P("data", "model")),
    "seq_shift": (seq_shift, [(4, 48, 16)], [P("data", "model")], P("data", "model")),
    "seq_filter": (seq_filter, [(4, 48, 16)], [P("data", "model")], P("data", "model")),
    "seq_tv": (seq_tv, [(4, 48, 16)], [P("data", "model")], P()),
    "seq_next_token": (seq_next_token, [(4, 48, 16), (4, 48, 16)], [P("data", "model"), P("data", "model")], P()),
    "seq_next_token_take": (
        seq_next_token_take,
        [(4, 32, 16), ints((4, 32), 0, 16)],
        [P("data", "model"), P("data", "model")],
        P(),
    ),
    "reshard": (
        reshard,
        [(8, 16)],
        [P("data", "model")],
        (P("model", "data"), P(("model", "data")), P(("data", "model")), P(None, ("model", "data")), P(), P("model")),
    ),
    "llama": (llama, LLAMA_SHAPES, LLAMA_SPECS, P("data")),
    "llama_sp": (llama, LLAMA_SHAPES, [P("data", "model"), *LLAMA_SPECS[1:]], P("data", "model")),
    "llama_fsdp_grad": (
        llama_grad,
        LLAMA_SHAPES,
        [P("data"), P(), *[P("data", "model")] * 3, P("model", None, "data"), P(), *[P("data", "model")] * 2]
        + [P("model", "data")],
        (P("data", "model"), P("data", "model"), P("model", "data")),
    ),
    "moe_top1": (moe_top1, [(16, 8), (8, 4), (4, 8, 16)], [P("data", None), P(), P("model")], P("data", None)),
    "embed": (embed, [(64, 16), ints((2, 8), 0, 64)], [P("model", None), P("data", None)], P("data", None, None)),
    "xent_take": (xent_take, [(8, 32), ints((8,), 0, 32)], [P("data", "model"), P("data")], P()),
    "xent_index": (xent_index, [(8, 32), ints((8,), 0, 32)], [P("data", "model"), P("data")], P()),
    "contrastive": (contrastive, [(8, 16), (8, 16)], [P("data"), P("data")], P()),
    "adam": (
        adam,
        [(16, 32), (16, 32), (16, 32), (8, 16), (8, 32)],
        [*[P(None, "model")] * 3, P("data"), P("data", "model")],
        (P(None, "model"),) * 3,
    ),
    "moe_top2": (moe_top2, [(16, 8), (8, 4), (4, 8, 16)], [P("data", None), P(), P("model")], P("data", None)),
    "sort_pieces": (sort_pieces, [(8, 16)], [P("data", "model")], (P("data", "model"), P("data", "model"))),
    "while_halve": (while_halve, [(8, 16)], [P("data", "model")], P("data", "model")),
    "causal_conv": (causal_conv, [(2, 32, 8), (4, 8), (8,)], [P("data", "model"), P(), P()], P("data", "model")),
    "second_difference": (second_difference, [(4, 32)], [P("data", "model")], (P("data"), P("data"))),
    "conv_up": (
        conv_up,
        [(2, 8, 16, 4), (3, 3, 4, 3), (3, 3, 3, 3), (2, 16, 32, 3)],
        [P(None, "data", "model"), P(), P(), P(None, "data", "model")],
        (P(None, "data", "model"),) * 2,
    ),
    "conv_grad": (
        conv_grad,
        [(2, 16, 16, 4), (3, 3, 4, 8)],
        [P(None, "data", "model"), P()],
        (P(None, "data", "model"), P()),
    ),
    "pool_grad": (
        pool_grad,
        [(2, 16, 16, 4), (3, 3, 4, 8)],
        [P(None, "data", "model"), P()],
        (P(None, "data", "model"), P()),
    ),
    "mlp_grad": (
        mlp_grad,
        [(16, 32), (32, 64), (64, 32), (16, 32)],
        [P("data"), P(None, "model"), P("model"), P("data")],
        (P(None, "model"), P("model")),
    ),
    "block_grad": (
        block_grad,
        [(16, 32), (32,), (32, 64), (64, 32)],
        [P("data"), P(), P(None, "model"), P("model")],
        (P(None, "model"), P()),
    ),
    "attention_grad": (
        attention_grad,
        [(2, 8, 32), (32, 4, 8), (32, 4, 8), (32, 4, 8)],
        [P("data"), *[P(None, "model")] * 3],
        P(None, "model"),
    ),
    "batch_norm": (batch_norm, [(32, 16)], [P("data", "model")], P("data", "model")),
    "concat": (concat, [(8, 32), (8, 32)], [P("data", "model")] * 2, (P("data", "model"), P("data", "model"))),
    "rope_head_dim": (
        rope_head_dim,
        [(8, 4, 64), (8, 64), (8, 64)],
        [P("data", None, "model"), P("data", "model"), P("data", "model")],
        P("data", None, "model"),
    ),
    "scan_fsdp": (scan_fsdp, [(3, 32, 32), (16, 32)], [P(None, "model"), P("data")], P("data")),
    "scan_grad_fsdp": (scan_grad_fsdp, [(3, 32, 32), (16, 32)], [P(None, "model"), P("data")], P(None, "model")),
    "mlp_scan_grad_fsdp": (
        mlp_scan_grad_fsdp,
        [stacked((3, 32, 64)), stacked((3, 64, 32)), (16, 32)],
        [P(None, "model"), P(None, "model"), P("data")],
        (P(None, "model"), P(None, "model")),
    ),
    "kv_decode_uneven": (
        kv_decode_uneven,
        [(4, 4, 10, 8), (4, 4, 10, 8), (4, 32), (32, 32), (32, 32), (32, 32), (32, 32), position(7)],
        [P("data"), P("data"), P("data"), P(), P(), P(), P(), P()],
        (P("data"), P("data"), P("data")),
    ),
    "scan_uneven": (
        scan_uneven,
        [(4, 12, 16), (16, 16), (3, 16, 16)],
        [P("data", "model"), P(), P()],
        P("data"),
    ),
    "pool_conv_uneven": (
        pool_conv_uneven,
        [(4, 12, 16), (16, 16), (3, 16, 16)],
        [P("data", "model"), P(), P()],
        P("data"),
    ),
    "slot_cache_uneven": (
        slot_cache_uneven,
        [(4, 10, 16), (10, 16), position(2), position(1), (16, 16)],
        [P(), P(), P(), P(), P()],
        (P(), P()),
    ),
}

_DROP = re.compile(
    r",?\s*(?:channel_id|use_global_device_ids|to_apply|metadata|backend_config|frontend_attributes)="
    r"(?:\{[^{}]*\}|\"[^\"]*\"|[^,\s]+)"
)


def compact(line: str) -> str:
    """An HLO collective as `kind shape, groups, dimensions`: names, layouts
    and metadata dropped."""
    m = xla_plans.INSTR.match(line.removeprefix("[+slice] "))
    assert m, line
    _, shape, opcode, rest = m.groups()
    _, attrs = xla_plans.split_call(rest)
    shape = re.sub(r"\{[\d,]*\}", "", shape)
    return f"{opcode} {shape}{_DROP.sub('', attrs)}".rstrip(", ")


def inputs(name: str, shapes: list) -> list[np.ndarray]:
    """Fixed inputs: float32 weights scaled by 1/sqrt(fan-in) so activations
    stay O(1); generators draw their own."""
    rng = np.random.default_rng(sum(map(ord, name)))
    out = []
    for shape in shapes:
        if callable(shape):
            out.append(shape(rng))
            continue
        scale = 1.0 if len(out) == 0 or len(shape) == 1 else 1 / math.sqrt(shape[0])
        out.append((rng.standard_normal(shape) * scale).astype(np.float32))
    return out


def main(names: list[str]) -> int:
    if jax.device_count() < 8:
        print(f"needs 8 devices, JAX has {jax.device_count()}: set XLA_FLAGS before running", file=sys.stderr)
        return 1
    devices = mesh()
    for name, (fn, shapes, specs, out_spec) in PROGRAMS.items():
        if names and name not in names:
            continue
        args = inputs(name, shapes)
        for i, a in enumerate(args):
            np.save(HERE / f"{name}.arg{i}.npy", a)
        results = None
        for flavour in mj.FLAVOURS:
            lowered = mj.lower(
                fn, *args, mesh=devices, in_shardings=tuple(specs), out_shardings=out_spec, flavour=flavour
            )
            (HERE / f"{name}.{flavour}.mlir").write_text(mj.module_text(lowered))
            with mj.partitioner(flavour):
                compiled = lowered.compile()
                out = compiled(*(jax.device_put(a, NamedSharding(devices, s)) for a, s in zip(args, specs)))
            outs = [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]
            if results is None:
                results = outs
                for i, o in enumerate(outs):
                    np.save(HERE / f"{name}.result{i}.npy", o)
            elif not all(np.allclose(o, r, rtol=1e-6, atol=1e-6) for o, r in zip(outs, results, strict=True)):
                print(f"{name}: the {flavour} output differs from Shardy's", file=sys.stderr)
                return 1
            found = xla_plans.collectives(compiled.as_text(), jax.device_count())
            header = [
                f"# XLA's collectives for {name} ({flavour}), JAX {jax.__version__}, mesh "
                + ", ".join(f"{k}={v}" for k, v in MESH_SHAPE.items()),
                f"# collectives: {found['collectives']}",
                f"# bytes a device receives: {found['bytes']}",
                f"# bytes if each sliced all-reduce were a reduce-scatter: {found['bytes_rs']}",
                f"# bytes a device receives in a run, loop bodies times their trips: {found['bytes_run']}",
            ]
            if found["unknown_trips"]:
                header.append(f"# loops of a trip count XLA does not know, counted once: {found['unknown_trips']}")
            body = [compact(line) for line in found["lines"]]
            (HERE / f"{name}.{flavour}.xla-collectives.txt").write_text("\n".join(header + body) + "\n")
            print(f"{name}.{flavour}: {found['collectives']} collectives, {found['bytes']} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
