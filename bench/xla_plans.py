"""XLA's own partitioning plans (Shardy or GSPMD, through JAX) for the
plan-quality programs, as a reference point for our planner.

Each program is written in `jax.numpy` with the shapes and argument/result
layouts of the shared spec (f32; only `in_shardings`/`out_shardings` are
given, as in our MLIR bench), lowered and compiled for CPU devices, and the
communicating ops of the compiled (post-optimisation) HLO are counted:
all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute (an
async `-start` counts once, its `-done` not at all; an op inside a called
computation counts where it is written, so a fusion is never counted twice).
Bytes a device receives use the planner's cost model (`bench/traffic.py`):
all-gather (g-1)*S, all-reduce 2(E-floor(E/g)) elements, reduce-scatter and
all-to-all (g-1)/g*S, collective-permute S (S = the op's per-device input
bytes, E its elements, g its replica group's size).  `bytes_rs` prices each
all-reduce whose only use slices it to 1/g as a reduce-scatter: the SPMD
partitioner writes that pair, and the GPU/TPU pipelines (not the CPU one we
compile for) rewrite it into a reduce-scatter.

JAX lives in its own venv, not the project's:
    python3 -m venv /tmp/jaxvenv && /tmp/jaxvenv/bin/pip install jax==0.10.2 jaxlib==0.10.2
Usage (the script sets XLA_FLAGS itself when it is unset):
    XLA_FLAGS=--xla_force_host_platform_device_count=8 /tmp/jaxvenv/bin/python bench/xla_plans.py
        [--out bench/xla_plans.json] [--partitioner shardy|gspmd] [--show NAME] [--lines]
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Must be set before jax is imported: eight CPU "devices" stand in for a mesh.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

F32 = jnp.float32
POSITION = jnp.int32
"""A 0-d argument is a position given at run time (`kv_cache_decode`)."""
KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
# Communicating opcodes outside the five: counted and reported, never silently dropped.
OTHER = ("collective-broadcast", "ragged-all-to-all", "send", "recv", "all-reduce-scatter")
DTYPE_BYTES = {
    **{"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2},
    **{"s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16},
}

# Attributes naming the computations an instruction runs (a while's body
# and condition, a call's or fusion's callee, a conditional's branches).
CALLEE = re.compile(
    r"\b(body|condition|to_apply|calls|true_computation|false_computation)=(%[\w.\-]+)"
    r"|\b(branch_computations)=\{([^}]*)\}"
)
# `%name = <shape> opcode(operands), attrs` (the shape may be a tuple).
INSTR = re.compile(r"^\s*(?:ROOT\s+)?%([\w.\-]+)\s*=\s*(.*?)\s+([a-z][\w\-]*)\((.*)$")
ARRAY = re.compile(r"\b([a-z]\w*)\[([\d,]*)\]")


# ---------------------------------------------------------------- programs


class Program:
    """One spec program: a jax function, its mesh, argument shapes and layouts."""

    def __init__(
        self,
        name: str,
        mesh_shape: tuple[int, ...],
        fn: Callable[..., Any],
        args: list[tuple],  # (shape, layout), or (shape, layout, dtype) for an argument that is not f32
        outs: tuple[Any, ...] | list[tuple[Any, ...]],
    ) -> None:
        self.name, self.mesh_shape, self.fn, self.args, self.outs = name, mesh_shape, fn, args, outs

    def compile(self) -> Any:
        n = math.prod(self.mesh_shape)
        devices = np.array(jax.devices()[:n]).reshape(self.mesh_shape)
        mesh = Mesh(devices, tuple(f"a{i}" for i in range(len(self.mesh_shape))))

        def sharding(spec: tuple[Any, ...]) -> NamedSharding:
            return NamedSharding(mesh, P(*spec))

        def divides(shape: tuple[int, ...], spec: tuple[Any, ...]) -> bool:
            sizes = dict(zip(mesh.axis_names, self.mesh_shape))
            return all(a is None or d % sizes[a] == 0 for d, a in zip(shape, spec))

        # JAX takes no argument its layout cuts unevenly: such an argument
        # arrives whole (slicing it is free, as for ours, which arrives in
        # pieces) and is constrained to its layout first thing, which XLA
        # pads and splits.
        uneven = [not divides(a[0], a[1]) for a in self.args]

        def fn(*args: jax.Array) -> Any:
            args = tuple(
                jax.lax.with_sharding_constraint(a, sharding(spec)) if cut else a
                for a, cut, (_, spec, *_) in zip(args, uneven, self.args)
            )
            return self.fn(*args)

        in_sh = tuple(sharding(R if cut else spec) for cut, (_, spec, *_) in zip(uneven, self.args))
        out_sh = [sharding(s) for s in self.outs] if isinstance(self.outs, list) else sharding(self.outs)
        out_sh = tuple(out_sh) if isinstance(out_sh, list) else out_sh
        jitted = jax.jit(fn, in_shardings=in_sh, out_shardings=out_sh)
        return jitted.lower(
            *(jax.ShapeDtypeStruct(a[0], a[2] if len(a) > 2 else POSITION if a[0] == () else F32) for a in self.args)
        ).compile()


def relu(h: jax.Array) -> jax.Array:
    return jnp.maximum(h, 0)


def megatron(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    return relu(x @ w1) @ w2


def attention(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    s = jnp.einsum("hqd,hkd->hqk", q, k) * (1.0 / math.sqrt(32))
    m = jnp.max(s, axis=-1, keepdims=True)
    e = jnp.exp(s - m)
    p = e / jnp.sum(e, axis=-1, keepdims=True)
    return jnp.einsum("hqk,hkd->hqd", p, v)


def layer_norm(x: jax.Array) -> jax.Array:
    mean = jnp.sum(x, axis=-1, keepdims=True) / 64
    c = x - mean
    var = jnp.sum(c * c, axis=-1, keepdims=True) / 64
    return c * jax.lax.rsqrt(var + 1e-5)


def sequence_parallel_block(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    return x + megatron(layer_norm(x), w1, w2)


def gpt_block(x: jax.Array, *ws: jax.Array) -> jax.Array:
    wq, wk, wv, wo, w1, w2 = ws
    h = layer_norm(x)
    q, k, v = (jnp.einsum("bsd,dhe->bshe", h, w) for w in (wq, wk, wv))
    s = jnp.einsum("bqhe,bkhe->bhqk", q, k) * (1.0 / math.sqrt(32))
    m = jnp.max(s, axis=-1, keepdims=True)
    e = jnp.exp(s - m)
    p = e / jnp.sum(e, axis=-1, keepdims=True)
    x = x + jnp.einsum("bqhe,hed->bqd", jnp.einsum("bhqk,bkhe->bqhe", p, v), wo)
    return x + relu(layer_norm(x) @ w1) @ w2


def gpt_block_args(x: tuple, model: str | None = None) -> list:
    """`gpt_block`'s arguments: the input laid out as `x`, the heads and the
    MLP's hidden dimension over a1, each weight's model dimension over
    `model` (FSDP)."""
    return (
        [((4, 16, 64), x)]
        + [((64, 4, 16), (model, "a1"))] * 3
        + [((4, 16, 64), ("a1", None, model)), ((64, 256), (model, "a1")), ((256, 64), ("a1", model))]
    )


def dp_linear(x: jax.Array, w: jax.Array, dy: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    return x @ w, x.T @ dy, dy @ w.T


def mlp_chain(x: jax.Array, *ws: jax.Array) -> jax.Array:
    for i in range(0, len(ws), 2):
        x = megatron(x, ws[i], ws[i + 1])
    return x


def shared_inits(x: jax.Array, w1: jax.Array, w2: jax.Array) -> jax.Array:
    # JAX has no destination-passing init tensors; the shared zero init only
    # exists in our (torch-mlir style) program, so this is the plain MLP.
    return relu(x @ w1) @ w2


def vocab_parallel_xent(x: jax.Array, w: jax.Array, onehot: jax.Array) -> jax.Array:
    logits = x @ w
    m = jnp.max(logits, axis=1)
    total = jnp.sum(jnp.exp(logits - m[:, None]), axis=1)
    logp = logits - m[:, None] - jnp.log(total)[:, None]
    return jnp.sum(onehot * logp) / -8.0


def moe_expert_parallel(
    x: jax.Array, dispatch: jax.Array, combine: jax.Array, w1: jax.Array, w2: jax.Array
) -> jax.Array:
    """GShard's mixture-of-experts layer: dispatch to the experts, each
    expert's feed-forward layer, combine back."""
    xe = jnp.einsum("gsec,gsd->egcd", dispatch, x)
    h = relu(jnp.einsum("egcd,edh->egch", xe, w1))
    ye = jnp.einsum("egch,ehd->egcd", h, w2)
    return jnp.einsum("gsec,egcd->gsd", combine, ye)


def vocab_parallel_embedding(table: jax.Array, ids: jax.Array) -> jax.Array:
    """Each id's row of the table (ids past it clamped, as the MLIR's)."""
    return jnp.take(table, ids, axis=0, mode="clip")


def swiglu_mlp(x: jax.Array, wg: jax.Array, wu: jax.Array, wd: jax.Array) -> jax.Array:
    """LLaMA's feed-forward layer: silu(x @ wg) * (x @ wu) @ wd."""
    g = x @ wg
    return (g / (1 + jnp.exp(-g)) * (x @ wu)) @ wd


def sequence_split_attention(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    """Attention per head of q, k, v laid out (sequence, heads, dim)."""
    s = jnp.einsum("qhd,khd->hqk", q, k)
    e = jnp.exp(s - jnp.max(s, axis=-1, keepdims=True))
    return jnp.einsum("hqk,khd->qhd", e / jnp.sum(e, axis=-1, keepdims=True), v)


def causal_conv1d(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    """PyTorch's `Conv1d(16, 16, 4, groups=16, padding=3)(x)[..., :64]`."""
    y = jax.lax.conv_general_dilated(x, w, (1,), [(3, 3)], dimension_numbers=SEQ, feature_group_count=16)
    return (y + b[None, :, None])[..., :64]


def dilated_causal_conv1d(x: jax.Array, w: jax.Array) -> jax.Array:
    """PyTorch's `Conv1d(16, 16, 2, dilation=2, padding=2, bias=False)(x)[..., :64]`."""
    return jax.lax.conv_general_dilated(x, w, (1,), [(2, 2)], rhs_dilation=(2,), dimension_numbers=SEQ)[..., :64]


def grouped_conv1d(x: jax.Array, w: jax.Array) -> jax.Array:
    """PyTorch's `Conv1d(16, 16, 3, groups=2, padding=1, bias=False)(x)`."""
    return jax.lax.conv_general_dilated(x, w, (1,), [(1, 1)], dimension_numbers=SEQ, feature_group_count=2)


def nearest_upsample(x: jax.Array, skip: jax.Array) -> jax.Array:
    """PyTorch's `F.interpolate(x, scale_factor=2, mode="nearest") + skip`."""
    return jnp.repeat(jnp.repeat(x, 2, axis=2), 2, axis=3) + skip


R = ()  # replicated
COLS, ROWS = (None, "a0"), ("a0", None)
SEQ = ("NCH", "OIH", "NCH")  # PyTorch's layout of a 1-D convolution
LENGTH = (None, None, "a0")  # a sequence split along its length
HEIGHT = (None, None, "a0", None)  # an image (N, C, H, W) split along its rows

PROGRAMS = [
    Program("megatron_mlp", (4,), megatron, [((8, 64), R), ((64, 128), COLS), ((128, 64), ROWS)], R),
    Program(
        "dp_tp_mlp",
        (2, 4),
        megatron,
        [((16, 64), ("a0", None)), ((64, 128), (None, "a1")), ((128, 64), ("a1", None))],
        ("a0", None),
    ),
    Program("attention_heads", (4,), attention, [((8, 16, 32), ("a0",))] * 3, ("a0",)),
    Program("layer_norm_hidden", (4,), layer_norm, [((8, 64), COLS)], COLS),
    Program("vocab_row_max", (4,), lambda x, w: jnp.max(x @ w, axis=1), [((8, 64), R), ((64, 192), COLS)], R),
    Program(
        "dp_linear_fwd_bwd",
        (4,),
        dp_linear,
        [((16, 64), ROWS), ((64, 32), R), ((16, 32), ROWS)],
        [ROWS, R, ROWS],
    ),
    Program("contraction_split_matmul", (4,), lambda x, w: x @ w, [((8, 64), COLS), ((64, 16), ROWS)], ROWS),
    Program(
        "weight_stationary_2d",
        (2, 2),
        lambda x, w: x @ w,
        [((8, 64), ("a0", "a1")), ((64, 32), ("a1", "a0"))],
        ("a0", "a1"),
    ),
    Program("mlp_chain_4", (4,), mlp_chain, [((8, 64), R)] + [((64, 128), COLS), ((128, 64), ROWS)] * 4, R),
    Program("shared_inits", (4,), shared_inits, [((16, 64), ROWS), ((64, 64), R), ((64, 64), R)], ROWS),
    Program(
        "residual_mlp",
        (4,),
        lambda x, w1, w2: x + megatron(x, w1, w2),
        [((8, 64), R), ((64, 128), COLS), ((128, 64), ROWS)],
        R,
    ),
    Program("dp_mean_loss", (4,), jnp.mean, [((16, 64), ROWS)], R),
    Program(
        "parallel_block",
        (4,),
        lambda x, w1, w2, w3, w4: x + megatron(x, w1, w2) + megatron(x, w3, w4),
        [((8, 64), R), ((64, 128), COLS), ((128, 64), ROWS), ((64, 128), COLS), ((128, 64), ROWS)],
        R,
    ),
    Program("uneven_hidden_mlp", (4,), megatron, [((8, 64), R), ((64, 126), COLS), ((126, 64), ROWS)], R),
    Program("fsdp_mlp", (4,), megatron, [((32, 64), ROWS), ((64, 128), ROWS), ((128, 64), ROWS)], ROWS),
    Program("vocab_parallel_xent", (4,), vocab_parallel_xent, [((8, 64), R), ((64, 192), COLS), ((8, 192), COLS)], R),
    Program("flip_cols", (4,), lambda x: jnp.flip(x, 1), [((8, 64), COLS)], COLS),
    Program("roll_cols", (4,), lambda x: jnp.roll(x, 3, 1), [((8, 64), COLS)], COLS),
    Program(
        "shifted_product_cols",
        (4,),
        lambda a, b: jnp.sum(a[:, :-1] * b[:, 1:]),
        [((8, 64), COLS), ((8, 64), COLS)],
        R,
    ),
    Program(
        "pad_rows",
        (2, 4),
        lambda x: jnp.pad(x, ((0, 0), (0, 16), (0, 0))),
        [((4, 48, 16), ("a0", "a1", None))],
        ("a0", "a1", None),
    ),
    Program(
        "diff_rows",
        (2, 4),
        lambda x: jnp.pad(x[:, 1:] - x[:, :-1], ((0, 0), (0, 1), (0, 0))),
        [((4, 48, 16), ("a0", "a1", None))],
        ("a0", "a1", None),
    ),
    Program("transpose_swap", (2, 4), lambda x: x.T, [((16, 32), ("a0", "a1"))], ("a0", "a1")),
    Program(
        "conv2d_same_rows",
        (4,),
        lambda x, w: jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        [((1, 32, 32, 8), (None, "a0")), ((3, 3, 8, 8), R)],
        (None, "a0"),
    ),
    Program("causal_conv1d", (4,), causal_conv1d, [((2, 16, 64), LENGTH), ((16, 1, 4), R), ((16,), R)], LENGTH),
    Program("dilated_causal_conv1d", (4,), dilated_causal_conv1d, [((2, 16, 64), LENGTH), ((16, 16, 2), R)], LENGTH),
    Program("grouped_conv1d", (4,), grouped_conv1d, [((2, 16, 64), LENGTH), ((16, 8, 3), R)], LENGTH),
    Program(
        "nearest_upsample",
        (4,),
        nearest_upsample,
        [((2, 8, 16, 16), HEIGHT), ((2, 8, 32, 32), HEIGHT)],
        HEIGHT,
    ),
    Program(
        "kv_cache_write",
        (4,),
        lambda cache, new: jax.lax.dynamic_update_slice(cache, new, (0, 30, 0)),
        [((2, 64, 32), (None, "a0")), ((2, 4, 32), R)],
        (None, "a0"),
    ),
    Program(
        "kv_cache_decode",
        (4,),
        lambda cache, new, pos: jax.lax.dynamic_update_slice(cache, new, (0, pos, 0)),
        [((2, 64, 32), (None, "a0")), ((2, 1, 32), R), ((), R)],
        (None, "a0"),
    ),
    Program(
        "sequence_parallel_block",
        (4,),
        sequence_parallel_block,
        [((32, 64), ROWS), ((64, 128), COLS), ((128, 64), ROWS)],
        ROWS,
    ),
    Program(
        "dp_tp_linear_bwd",
        (2, 4),
        lambda x, dy, w: (x.T @ dy, dy @ w.T),
        [((16, 64), ("a0", None)), ((16, 128), ("a0", "a1")), ((64, 128), (None, "a1"))],
        [(None, "a1"), ("a0", None)],
    ),
    Program("gpt_block_dp_tp", (2, 4), gpt_block, gpt_block_args(("a0",)), ("a0",)),
    Program("gpt_block_dp_tp_sp", (2, 4), gpt_block, gpt_block_args(("a0", "a1")), ("a0", "a1")),
    Program("gpt_block_fsdp_tp", (2, 4), gpt_block, gpt_block_args(("a0",), "a0"), ("a0",)),
    Program(
        "last_token_logits",
        (4,),
        lambda h, w: (h @ w)[:, -1],
        [((2, 8, 64), R), ((64, 50), COLS)],
        R,
    ),
    Program(
        "sequence_split_last_token", (4,), lambda h, w: h[:, -1] @ w, [((2, 16, 64), (None, "a0")), ((64, 48), R)], R
    ),
    Program(
        "kv_cache_read",
        (4,),
        lambda cache, pos: jax.lax.dynamic_index_in_dim(cache, pos, axis=1, keepdims=False),
        [((2, 64, 32), (None, "a0")), ((), R)],
        R,
    ),
    Program(
        "row_parallel_last_token",
        (4,),
        lambda h, w: (h @ w)[:, -1],
        [((2, 16, 128), (None, None, "a0")), ((128, 64), ROWS)],
        R,
    ),
    Program("vocab_softmax", (4,), lambda x, w: jax.nn.softmax(x @ w, axis=1), [((8, 64), R), ((64, 192), COLS)], COLS),
    Program(
        "moe_expert_parallel",
        (4,),
        moe_expert_parallel,
        [((8, 8, 16), ROWS), ((8, 8, 4, 4), ROWS), ((8, 8, 4, 4), ROWS), ((4, 16, 32), ROWS), ((4, 32, 16), ROWS)],
        ROWS,
    ),
    Program("vocab_parallel_embedding", (4,), vocab_parallel_embedding, [((256, 64), ROWS), ((16,), R, jnp.int32)], R),
    Program("swiglu_mlp", (4,), swiglu_mlp, [((8, 64), R), ((64, 128), COLS), ((64, 128), COLS), ((128, 64), ROWS)], R),
    Program("sequence_split_attention", (4,), sequence_split_attention, [((32, 8, 16), ROWS)] * 3, ROWS),
]


# ---------------------------------------------------------------- HLO reading


def arrays(shape: str) -> list[tuple[int, int]]:
    """(elements, bytes per element) of each array in an HLO shape (tuples flattened)."""
    out = []
    for dtype, dims in ARRAY.findall(shape):
        if dtype not in DTYPE_BYTES:
            raise ValueError(f"unknown element type {dtype} in {shape}")
        out.append((math.prod(int(d) for d in dims.split(",") if d), DTYPE_BYTES[dtype]))
    return out


def group_size(attrs: str, devices: int) -> int:
    """Size of the op's replica group, in any of the three spellings XLA prints:
    explicit `{{0,1},{2,3}}`, iota `[2,4]<=[8]` (groups x size), or mesh axes
    `mesh['axis_0'=2,'axis_1'=4] {'axis_1'}` (with a `device_ids=(...)` between
    when the devices are reordered); none or `{}` means all devices."""
    m = re.search(r"replica_groups=mesh\[([^\]]*)\](?:,\s*device_ids=\S+)?\s*\{([^}]*)\}", attrs)
    if m:
        sizes = {a: int(s) for a, s in re.findall(r"'([^']+)'=(\d+)", m.group(1))}
        g = 1
        for axis in re.findall(r"'[^']+'(?::\(\d+\)\d+)?", m.group(2)):
            sub = re.fullmatch(r"'([^']+)':\((\d+)\)(\d+)", axis)
            g *= int(sub.group(3)) if sub else sizes[axis.strip("'")]
        return g
    m = re.search(r"replica_groups=\[([\d,]+)\]<=", attrs)
    if m:
        return int(m.group(1).split(",")[-1])
    m = re.search(r"replica_groups=\{(\{[\d,]*\}(?:,\{[\d,]*\})*)\}", attrs)
    if m:
        groups = re.findall(r"\{([\d,]*)\}", m.group(1))
        sizes = {len([d for d in grp.split(",") if d]) for grp in groups}
        if len(sizes) != 1:
            raise ValueError(f"uneven replica groups: {attrs}")
        return sizes.pop()
    if re.search(r"replica_groups=\{\}", attrs) or "replica_groups" not in attrs:
        return devices
    raise ValueError(f"cannot read replica_groups in: {attrs}")


def split_call(rest: str) -> tuple[str, str]:
    """Operands (inside the call's parentheses) and the attributes after them."""
    depth = 1
    for i, ch in enumerate(rest):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return rest[:i], rest[i + 1 :]
    raise ValueError(f"unbalanced operands: {rest}")


def collectives(hlo: str, devices: int) -> dict[str, Any]:
    """Count, bytes a device receives and kinds of a compiled module's
    communicating ops, plus `bytes_rs`: the bytes if every all-reduce whose only
    use is a slice down to 1/g of it were a reduce-scatter.  XLA's SPMD
    partitioner always writes all-reduce + dynamic-slice; the GPU and TPU
    pipelines rewrite that pair into a reduce-scatter, the CPU one does not.
    `bytes_run` counts each op as often as it runs: a while body's ops times
    the loop's known trip count and its condition's once more, a
    conditional's costliest branch, other callees once per call; a loop
    XLA knows no trip count of runs once (`unknown_trips` counts those)."""
    shapes: dict[str, str] = {}
    users: dict[str, list[tuple[str, str, str]]] = {}
    bodies: dict[str, list[str]] = {}
    # per computation, the computations its instructions run: (opcode,
    # callees by attribute, the loop's known trip count or None)
    calls: dict[str, list[tuple[str, dict[str, list[str]], int | None]]] = {}
    entry = ""
    instrs = []
    computation = ""
    for line in hlo.splitlines():
        head = re.match(r"^(ENTRY\s+)?%([\w.\-]+)\s*\(.*\{\s*$", line)
        if head:
            computation = head.group(2)
            bodies[computation] = []
            entry = computation if head.group(1) else entry
            continue
        m = INSTR.match(line)
        if not m:
            continue
        name, shape, opcode, rest = m.groups()
        shapes[name] = shape
        operands, attrs = split_call(rest)
        bodies[computation].append(opcode)
        instrs.append((name, shape, opcode, operands, attrs, line, computation))
        for op in set(re.findall(r"%([\w.\-]+)", operands)):
            users.setdefault(op, []).append((shape, opcode, attrs))
        callees: dict[str, list[str]] = {}
        for key, one, branches, several in CALLEE.findall(attrs):
            callees.setdefault(key or branches, []).extend(re.findall(r"%([\w.\-]+)", one or several))
        if callees:
            known = re.search(r'"known_trip_count":\{"n":"(\d+)"', attrs) if opcode == "while" else None
            calls.setdefault(computation, []).append((opcode, callees, int(known.group(1)) if known else None))

    def sliced(name: str, g: int) -> bool:
        """The op's only use keeps 1/g of it through a dynamic-slice (maybe fused)."""
        uses = users.get(name, [])
        if len(uses) != 1:
            return False
        shape, opcode, attrs = uses[0]
        calls = re.search(r"calls=%([\w.\-]+)", attrs)
        slices = opcode == "dynamic-slice" or (
            opcode == "fusion" and calls is not None and "dynamic-slice" in bodies.get(calls.group(1), [])
        )
        return slices and sum(e for e, _ in arrays(shape)) * g == sum(e for e, _ in arrays(shapes[name]))

    own: dict[str, int] = {}  # per computation, the bytes of its own collectives

    @functools.cache
    def run_bytes(computation: str, depth: int = 0) -> int:
        """Bytes a device receives running `computation` once: its own
        collectives, a while's body times its known trip count (its
        condition once more), the costliest branch of a conditional, and
        any other callee once per call.  A loop of unknown trip count
        counts its body and condition once (`unknown_trips`)."""
        if depth > len(bodies):  # (HLO has no recursion)
            return 0
        total = own.get(computation, 0)
        for opcode, callees, trips in calls.get(computation, []):
            cost = {k: [run_bytes(c, depth + 1) for c in cs] for k, cs in callees.items()}
            if opcode == "while":
                n, tests = (1, 1) if trips is None else (trips, trips + 1)
                total += n * sum(cost.get("body", [])) + tests * sum(cost.get("condition", []))
            elif opcode == "conditional":
                branches = [*cost.get("branch_computations", []), *cost.get("true_computation", [])]
                branches += cost.get("false_computation", [])
                total += max(branches, default=0)
            else:
                total += sum(sum(v) for v in cost.values())
        return total

    count = total = total_rs = 0
    kinds: dict[str, int] = {}
    lines = []
    for name, _, opcode, operands, attrs, line, computation in instrs:
        kind = opcode.removesuffix("-start")
        if opcode.endswith("-done") or (kind not in KINDS and kind not in OTHER):
            continue
        ins = [a for op in re.findall(r"%([\w.\-]+)", operands) for a in arrays(shapes[op])]
        g = group_size(attrs, devices)
        b = b_rs = 0
        if kind == "all-to-all":
            # a tuple all-to-all's operands are its chunks, one per device: a
            # device receives all but its own, (g-1)/g of the whole, however
            # small each chunk is (rounded per operand, a chunk of 2
            # elements over 8 devices would count 1)
            ins, b = [], (g - 1) * sum(e * eb for e, eb in ins) // g
        for e, eb in ins:
            if kind == "all-gather":
                b += (g - 1) * e * eb
            elif kind == "all-reduce":
                b += 2 * (e - e // g) * eb
                b_rs += (g - 1) * e // g * eb
            elif kind == "reduce-scatter":
                b += (g - 1) * e // g * eb
            else:
                b += e * eb
        rs = kind == "all-reduce" and g > 1 and sliced(name, g)
        count += 1
        total += b
        own[computation] = own.get(computation, 0) + b
        total_rs += b_rs if rs else b
        key = kind.replace("-", "_")  # our planner's spelling (bench/traffic.py), e.g. all_reduce
        kinds[key] = kinds.get(key, 0) + 1
        lines.append(("[+slice] " if rs else "") + line.strip())
    return {
        "collectives": count,
        "bytes": total,
        "kinds": kinds,
        "bytes_rs": total_rs,
        "bytes_run": run_bytes(entry) if entry else sum(own.values()),
        "unknown_trips": sum(
            1 for cs in calls.values() for opcode, _, trips in cs if opcode == "while" and trips is None
        ),
        "lines": lines,
    }


# ---------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(Path(__file__).with_name("xla_plans.json")))
    ap.add_argument("--partitioner", choices=("shardy", "gspmd"), default="shardy")
    ap.add_argument("--show", metavar="NAME", help="print the compiled HLO of one program and stop")
    ap.add_argument("--lines", action="store_true", help="print each counted op")
    args = ap.parse_args()
    jax.config.update("jax_use_shardy_partitioner", args.partitioner == "shardy")
    if len(jax.devices()) < 8:
        sys.exit("error: fewer than 8 devices; set XLA_FLAGS=--xla_force_host_platform_device_count=8")
    by_name = {p.name: p for p in PROGRAMS}
    if args.show:
        if args.show not in by_name:
            sys.exit(f"error: unknown program {args.show}; one of {', '.join(by_name)}")
        print(by_name[args.show].compile().as_text())
        return 0

    result: dict[str, Any] = {
        "_meta": {
            "jax": jax.__version__,
            "jaxlib": jaxlib.__version__,
            "date": datetime.date.today().isoformat(),
            "partitioner": args.partitioner,
            "backend": jax.default_backend(),
            "bytes_rs": "bytes if each all-reduce only sliced to 1/g afterwards were a reduce-scatter "
            "(what the GPU/TPU pipelines emit; the CPU pipeline keeps all-reduce + dynamic-slice)",
        }
    }
    print(f"{'program':<26} {'mesh':>5} {'coll':>5} {'bytes':>7} {'bytes_rs':>8}  kinds")
    for p in PROGRAMS:
        c = collectives(p.compile().as_text(), math.prod(p.mesh_shape))
        result[p.name] = {k: c[k] for k in ("collectives", "bytes", "kinds", "bytes_rs")}
        mesh = "x".join(map(str, p.mesh_shape))
        kinds = ", ".join(f"{k} {v}" for k, v in c["kinds"].items())
        print(f"{p.name:<26} {mesh:>5} {c['collectives']:>5} {c['bytes']:>7} {c['bytes_rs']:>8}  {kinds}")
        if args.lines:
            for line in c["lines"]:
                print(f"    {line[:200]}")
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
