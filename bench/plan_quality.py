"""Plan quality: how much a device receives in the partitioned program, ours
against upstream MLIR's and XLA's, on 40 small programs where only the
arguments and results are annotated (as JAX's in/out shardings do).

The programs (f32 tensors, linalg; kv_cache_decode also takes a 0-d i64
position) are the shared spec of the plan-quality
benchmarks: megatron_mlp, dp_tp_mlp, attention_heads, layer_norm_hidden,
vocab_row_max, dp_linear_fwd_bwd, contraction_split_matmul,
weight_stationary_2d, mlp_chain_4, shared_inits, residual_mlp, dp_mean_loss,
parallel_block, uneven_hidden_mlp, fsdp_mlp, vocab_parallel_xent, flip_cols,
roll_cols, shifted_product_cols, pad_rows, diff_rows, transpose_swap,
conv2d_same_rows, causal_conv1d, dilated_causal_conv1d, grouped_conv1d,
nearest_upsample, kv_cache_write, kv_cache_decode, sequence_parallel_block,
dp_tp_linear_bwd, gpt_block_dp_tp, gpt_block_dp_tp_sp, gpt_block_fsdp_tp,
last_token_logits, sequence_split_last_token, kv_cache_read,
row_parallel_last_token, vocab_softmax, moe_expert_parallel
(see `PROGRAMS` below for each one's mesh and layouts).

Measured in one run, per program:
  * ours      `mesh_dialect.parse`, then `PrepareWindows` and `DecomposeSoftmax`, `ShardingPropagation`,
              `MeshPartition` and `MeshOptimizeCollectives` through `mlir.passmanager`;
              collectives and bytes a device receives are read after the
              partition and again after optimize-collectives (`traffic.py`'s
              cost model).  Each partitioned program is simulated against the
              original on seeded random inputs (`mesh-run --compare-with`'s
              driver and tolerance): `ok` or `MISMATCH`.
  * upstream  the program renamed to upstream's `shard` dialect, then
              `func.func(sharding-propagation)` and `func.func(shard-partition)`
              in a child process (upstream aborts on some inputs: `fails`).
  * XLA       read from `bench/xla_plans.json` when it exists (written by
              `bench/xla_plans.py`), else `n/a`.
Bytes count every communicating op as written (`traffic.py`): a send/recv
pair in both branches of an `scf.if` (a permutation) counts twice.  A plan
whose partitioned signature is not the requested layouts (an argument that
arrives whole: moving it there is not counted) is marked `(sig)`, with the
difference in the notes.  `best` names, among the other plans (ours+opt,
upstream, XLA), those with the fewest bytes, then the fewest collectives.
`--pin-arguments` also gives each argument its own layout (`mesh.shard %arg
to %s`) before its annotation for users, so no pass can choose another.
Usage:
    .venv/bin/python bench/plan_quality.py [--only NAME[,NAME]] [--no-upstream] [--no-sim]
                                           [--json FILE] [--show NAME] [--pin-arguments]
                                           [--solver cost|sweep]
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

from mlir import ir
from mlir.passmanager import PassManager
from partition import UPSTREAM  # bench/partition.py's child script, beside this script
from traffic import traffic  # bench/traffic.py, beside this script

import mesh_dialect
from mesh_dialect.driver.run import RunDriver, RunOptions
from mesh_dialect.interop.upstream import to_upstream
from mesh_dialect.transforms import (
    DecomposeSoftmax,
    MeshOptimizeCollectives,
    MeshPartition,
    PrepareWindows,
    ShardingPropagation,
)

XLA_PLANS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "xla_plans.json")
UPSTREAM_TIMEOUT = 300.0

# Scalars a generic's body may name; each is defined once at the top of the
# function when some line uses it.
CONSTANTS = {
    "zero": "0.000000e+00",
    "ninf": "0xFF800000",
    "scale": f"{1 / math.sqrt(32):.9e}",
    "n64": "6.400000e+01",
    "n1024": "1.024000e+03",
    "eps": "9.99999974e-06",
    "neg8": "-8.000000e+00",
    "two": "2.000000e+00",
    "top15": "1.500000e+01",
    "one": "1.000000e+00",
}

# Bodies of linalg.generic: block arguments %a0, %a1, ... then %acc (the init).
MAX2 = "%r = arith.maximumf %a0, %a1 : f32"
ADD2 = "%r = arith.addf %a0, %a1 : f32"
SUB2 = "%r = arith.subf %a0, %a1 : f32"
DIV2 = "%r = arith.divf %a0, %a1 : f32"
MAX_ACC = "%r = arith.maximumf %a0, %acc : f32"  # also relu against a zero init
SUM_ACC = "%r = arith.addf %a0, %acc : f32"
MAC = "%p = arith.mulf %a0, %a1 : f32\n%r = arith.addf %p, %acc : f32"
SQUARE_ACC = "%p = arith.mulf %a0, %a0 : f32\n%r = arith.addf %p, %acc : f32"
SCALE = "%r = arith.mulf %a0, %scale : f32"
EXP_SUB = "%d = arith.subf %a0, %a1 : f32\n%r = math.exp %d : f32"
DIV_64 = "%r = arith.divf %a0, %n64 : f32"
DIV_1024 = "%r = arith.divf %a0, %n1024 : f32"
NORMALIZE = "%v = arith.addf %a1, %eps : f32\n%s = math.rsqrt %v : f32\n%r = arith.mulf %a0, %s : f32"
LOG_SUB = "%l = math.log %a2 : f32\n%d = arith.subf %a0, %a1 : f32\n%r = arith.subf %d, %l : f32"
DIV_NEG8 = "%r = arith.divf %a0, %neg8 : f32"
# silu(a0) * a1, silu(x) = x / (1 + exp(-x))
SILU_MUL = (
    "%n = arith.negf %a0 : f32\n%e = math.exp %n : f32\n%d = arith.addf %e, %one : f32\n"
    "%s = arith.divf %a0, %d : f32\n%r = arith.mulf %s, %a1 : f32"
)

Split = tuple[tuple[int, ...], ...]


def tensor(shape: tuple[int | str, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


class Builder:
    """One function on one mesh, written op by op; values are SSA names and
    their shapes are tracked so the helpers can write every type."""

    def __init__(self, mesh: tuple[int, ...], pin_arguments: bool = False) -> None:
        self.mesh = mesh
        self.pin_arguments = pin_arguments
        self.layouts: dict[str, list[tuple[tuple[int, ...], Split]]] = {"arguments": [], "results": []}
        self.args: list[str] = []
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.body: list[str] = []
        self.shardings: dict[Split, str] = {}
        self.results: list[str] = []
        self.count = 0

    def fresh(self, shape: tuple[int, ...]) -> str:
        self.count += 1
        name = f"%v{self.count}"
        self.shapes[name] = shape
        return name

    def sharding(self, split: Split) -> str:
        if split not in self.shardings:
            self.shardings[split] = f"%s{len(self.shardings)}"
        return self.shardings[split]

    def emit(self, op: str, shape: tuple[int, ...]) -> str:
        v = self.fresh(shape)
        self.body.append(f"  {v} = {op}")
        return v

    def arg(self, name: str, shape: tuple[int, ...], split: Split = ()) -> str:
        """An argument, annotated for its users (`()` is replicated); with
        `pin_arguments` also given its own layout first."""
        self.args.append(f"%{name}: {tensor(shape)}")
        self.layouts["arguments"].append((shape, split))
        t, s = tensor(shape), self.sharding(split)
        v = self.emit(f"mesh.shard %{name} to {s} : {t}", shape) if self.pin_arguments else f"%{name}"
        return self.emit(f"mesh.shard {v} to {s} annotate_for_users : {t}", shape)

    def position(self, name: str, last: int) -> str:
        """A position given at run time, as JAX passes one: a 0-d i64
        argument (after the tensors: it has no layout), read and clamped
        to [0, last] as `lax.dynamic_update_slice` clamps its start."""
        self.args.append(f"%{name}: tensor<i64>")
        at = self.emit(f"tensor.extract %{name}[] : tensor<i64>", ())
        index = self.emit(f"arith.index_cast {at} : i64 to index", ())
        low, high = self.emit("arith.constant 0 : index", ()), self.emit(f"arith.constant {last} : index", ())
        return self.emit(f"arith.minsi {self.emit(f'arith.maxsi {index}, {low} : index', ())}, {high} : index", ())

    def result(self, value: str, split: Split = ()) -> None:
        shape = self.shapes[value]
        self.layouts["results"].append((shape, split))
        self.results.append(self.emit(f"mesh.shard {value} to {self.sharding(split)} : {tensor(shape)}", shape))

    def empty(self, shape: tuple[int, ...]) -> str:
        return self.emit(f"tensor.empty() : {tensor(shape)}", shape)

    def zeros(self, shape: tuple[int, ...], scalar: str = "zero") -> str:
        t = tensor(shape)
        return self.emit(f"linalg.fill ins(%{scalar} : f32) outs({self.empty(shape)} : {t}) -> {t}", shape)

    def named(self, op: str, a: str, b: str, init: str | None = None) -> str:
        """`linalg.matmul` or `linalg.batch_matmul` into a zero-filled init."""
        sa, sb = self.shapes[a], self.shapes[b]
        shape = sa[:-1] + sb[-1:]
        init = init or self.zeros(shape)
        t = tensor(shape)
        return self.emit(f"{op} ins({a}, {b} : {tensor(sa)}, {tensor(sb)}) outs({init} : {t}) -> {t}", shape)

    def matmul(self, a: str, b: str, init: str | None = None) -> str:
        return self.named("linalg.matmul", a, b, init)

    def generic(self, spec: str, ins: list[str], body: str, init: str | None = None, fill: str | None = None) -> str:
        """A linalg.generic from an einsum-like `spec` ("ij,i->ij"): output
        letters are parallel loops, the others reductions.  The init is
        `init`, else a fill with the constant `fill`, else a tensor.empty."""
        in_letters, out_letters = spec.split("->")
        operands = in_letters.split(",")  # "" is one rank-0 operand
        sizes: dict[str, int] = {}
        for letters, v in zip(operands, ins, strict=True):
            sizes.update(zip(letters, self.shapes[v], strict=True))
        loops = list(out_letters) + [c for c in dict.fromkeys("".join(operands)) if c not in out_letters]
        dims = ", ".join(f"d{i}" for i in range(len(loops)))

        def amap(letters: str) -> str:
            return f"affine_map<({dims}) -> ({', '.join(f'd{loops.index(c)}' for c in letters)})>"

        shape = tuple(sizes[c] for c in out_letters)
        t = tensor(shape)
        if init is None:
            init = self.zeros(shape, fill) if fill else self.empty(shape)
        maps = ", ".join(amap(letters) for letters in [*operands, out_letters])
        kinds = ", ".join('"parallel"' if c in out_letters else '"reduction"' for c in loops)
        block = ", ".join([f"%a{i}: f32" for i in range(len(ins))] + ["%acc: f32"])
        lines = "".join(f"    {line}\n" for line in body.splitlines())
        operands_text = f"{', '.join(ins)} : {', '.join(tensor(self.shapes[v]) for v in ins)}"
        return self.emit(
            f"linalg.generic {{indexing_maps = [{maps}], iterator_types = [{kinds}]}}\n"
            f"      ins({operands_text}) outs({init} : {t}) {{\n"
            f"  ^bb0({block}):\n{lines}    linalg.yield %r : f32\n  }} -> {t}",
            shape,
        )

    def mapped(self, maps: str, x: str, x_type: str, shape: tuple[int, ...], block: str, body: str) -> str:
        """A linalg.generic of parallel loops over `shape` reading `x` (of
        type `x_type`) through hand-written `maps`, where `generic`'s einsum
        spec cannot say the read (a flipped index, a gathered row): its block
        arguments are `block`, its lines `body` (which end in the yield)."""
        t = tensor(shape)
        kinds = ", ".join(['"parallel"'] * len(shape))
        lines = "".join(f"    {line}\n" for line in body.splitlines())
        return self.emit(
            f"linalg.generic {{indexing_maps = {maps}, iterator_types = [{kinds}]}}\n"
            f"      ins({x} : {x_type}) outs({self.empty(shape)} : {t}) {{\n"
            f"  ^bb0({block}):\n{lines}  }} -> {t}",
            shape,
        )

    def text(self, name: str) -> str:
        used = set(re.findall(r"%(\w+)", "\n".join(self.body)))
        consts = [f"  %{c} = arith.constant {v} : f32" for c, v in CONSTANTS.items() if c in used]
        shardings = [
            f"  {v} = mesh.sharding @mesh split_axes = [{', '.join(str(list(a)) for a in split) or '[]'}]"
            " : !mesh.sharding"
            for split, v in self.shardings.items()
        ]
        types = [tensor(self.shapes[r]) for r in self.results]
        ret = f"  return {', '.join(self.results)} : {', '.join(types)}"
        signature = f"func.func @{name}({', '.join(self.args)}) -> ({', '.join(types)}) {{"
        mesh = "x".join(map(str, self.mesh))
        return "\n".join([f"mesh.mesh @mesh(shape = {mesh})", signature, *shardings, *consts, *self.body, ret, "}", ""])


# -- the programs -----------------------------------------------------------------

R: Split = ()
ROWS: Split = ((0,),)
COLS: Split = ((), (0,))


def relu(b: Builder, h: str) -> str:
    """relu as an elementwise max against a zero-filled tensor."""
    return b.generic("ij,ij->ij", [h, b.zeros(b.shapes[h])], MAX2)


def megatron_layer(b: Builder, x: str, i: int = 0, hidden: int = 128) -> str:
    w1 = b.arg(f"w1_{i}", (64, hidden), COLS)
    w2 = b.arg(f"w2_{i}", (hidden, 64), ROWS)
    return b.matmul(relu(b, b.matmul(x, w1)), w2)


def uneven_hidden_mlp(b: Builder) -> None:
    """A Megatron layer whose hidden size (126) the 4 devices do not divide."""
    b.result(megatron_layer(b, b.arg("x", (8, 64), R), hidden=126), R)


def mlp(layers: int, residual: bool = False) -> Callable[[Builder], None]:
    def build(b: Builder) -> None:
        x = b.arg("x", (8, 64), R)
        y = x
        for i in range(layers):
            y = megatron_layer(b, y, i)
        b.result(b.generic("ij,ij->ij", [x, y], ADD2) if residual else y, R)

    return build


def parallel_block(b: Builder) -> None:
    """GPT-J's parallel attention+MLP block, both branches Megatron layers:
    x + y1 + y2, two partial sums added to the residual one at a time."""
    x = b.arg("x", (8, 64), R)
    y1 = megatron_layer(b, x, 0)
    y2 = megatron_layer(b, x, 1)
    b.result(b.generic("ij,ij->ij", [b.generic("ij,ij->ij", [x, y1], ADD2), y2], ADD2), R)


def dp_tp_mlp(b: Builder) -> None:
    x = b.arg("x", (16, 64), ((0,), ()))
    w1 = b.arg("w1", (64, 128), ((), (1,)))
    w2 = b.arg("w2", (128, 64), ((1,), ()))
    b.result(b.matmul(relu(b, b.matmul(x, w1)), w2), ((0,), ()))


def attention_heads(b: Builder) -> None:
    q, k, v = (b.arg(n, (8, 16, 32), ROWS) for n in "qkv")
    s = b.generic("hqd,hkd->hqk", [q, k], MAC, fill="zero")
    s = b.generic("hqk->hqk", [s], SCALE)
    m = b.generic("hqk->hq", [s], MAX_ACC, fill="ninf")
    e = b.generic("hqk,hq->hqk", [s, m], EXP_SUB)
    p = b.generic("hqk,hq->hqk", [e, b.generic("hqk->hq", [e], SUM_ACC, fill="zero")], DIV2)
    b.result(b.named("linalg.batch_matmul", p, v), ROWS)


def layer_norm(b: Builder, x: str, dims: str = "ij") -> str:
    """A layer norm over the last of `dims` (the einsum letters of `x`, whose
    last dimension is 64), without scale and shift."""
    rows = dims[:-1]
    mean = b.generic(f"{rows}->{rows}", [b.generic(f"{dims}->{rows}", [x], SUM_ACC, fill="zero")], DIV_64)
    c = b.generic(f"{dims},{rows}->{dims}", [x, mean], SUB2)
    var = b.generic(f"{rows}->{rows}", [b.generic(f"{dims}->{rows}", [c], SQUARE_ACC, fill="zero")], DIV_64)
    return b.generic(f"{dims},{rows}->{dims}", [c, var], NORMALIZE)


def layer_norm_hidden(b: Builder) -> None:
    b.result(layer_norm(b, b.arg("x", (8, 64), COLS)), COLS)


def vocab_row_max(b: Builder) -> None:
    logits = b.matmul(b.arg("x", (8, 64), R), b.arg("w", (64, 192), COLS))
    b.result(b.generic("ij->i", [logits], MAX_ACC, fill="ninf"), R)


def dp_linear_fwd_bwd(b: Builder) -> None:
    x, w, dy = b.arg("x", (16, 64), ROWS), b.arg("w", (64, 32), R), b.arg("dy", (16, 32), ROWS)
    b.result(b.matmul(x, w), ROWS)
    b.result(b.generic("ki,kj->ij", [x, dy], MAC, fill="zero"), R)
    b.result(b.generic("ik,jk->ij", [dy, w], MAC, fill="zero"), ROWS)


def sequence_parallel_block(b: Builder) -> None:
    """Megatron's sequence parallelism: the layer norm and the residual on
    the sequence split (rows), the MLP between them tensor-parallel; the
    sequence is gathered before the first matmul and the second one's
    partial sums go back to the sequence split."""
    x = b.arg("x", (32, 64), ROWS)
    b.result(b.generic("ij,ij->ij", [x, megatron_layer(b, layer_norm(b, x))], ADD2), ROWS)


def dp_tp_linear_bwd(b: Builder) -> None:
    """The backward of a column-parallel linear layer under data and
    tensor parallelism (2x4): the weight gradient `x.T @ dy` keeps the
    weight's column split, the input gradient `dy @ w.T` the batch split."""
    x = b.arg("x", (16, 64), ((0,), ()))
    dy = b.arg("dy", (16, 128), ((0,), (1,)))
    w = b.arg("w", (64, 128), ((), (1,)))
    b.result(b.generic("ki,kj->ij", [x, dy], MAC, fill="zero"), ((), (1,)))
    b.result(b.generic("ik,jk->ij", [dy, w], MAC, fill="zero"), ((0,), ()))


def gpt_block(sequence_parallel: bool = False, fsdp: bool = False) -> Callable[[Builder], None]:
    """A pre-norm GPT block on 2x4: the batch over the first mesh axis
    (data parallel), the heads of the q, k, v and output projections and
    the MLP's hidden dimension over the second (Megatron tensor
    parallelism): attention and MLP each with their residual add.  With
    `sequence_parallel`, the block's input and output also split their
    sequence over the second axis (Megatron's sequence parallelism); with
    `fsdp`, each weight's model dimension is also split over the first."""
    layout = ((0,), (1,)) if sequence_parallel else ((0,),)
    return functools.partial(_gpt_block, layout=layout, fsdp=fsdp)


def _gpt_block(b: Builder, layout: Split, fsdp: bool = False) -> None:
    model: tuple[int, ...] = (0,) if fsdp else ()
    x = b.arg("x", (4, 16, 64), layout)
    wq, wk, wv = (b.arg(n, (64, 4, 16), (model, (1,))) for n in ("wq", "wk", "wv"))
    wo = b.arg("wo", (4, 16, 64), ((1,), (), model))
    w1 = b.arg("w1", (64, 256), (model, (1,)))
    w2 = b.arg("w2", (256, 64), ((1,), model))
    h = layer_norm(b, x, "bsd")
    q, k, v = (b.generic("bsd,dhe->bshe", [h, w], MAC, fill="zero") for w in (wq, wk, wv))
    s = b.generic("bqhe,bkhe->bhqk", [q, k], MAC, fill="zero")
    s = b.generic("bhqk->bhqk", [s], SCALE)
    m = b.generic("bhqk->bhq", [s], MAX_ACC, fill="ninf")
    e = b.generic("bhqk,bhq->bhqk", [s, m], EXP_SUB)
    p = b.generic("bhqk,bhq->bhqk", [e, b.generic("bhqk->bhq", [e], SUM_ACC, fill="zero")], DIV2)
    ctx = b.generic("bhqk,bkhe->bqhe", [p, v], MAC, fill="zero")
    x = b.generic("bsd,bsd->bsd", [x, b.generic("bshe,hed->bsd", [ctx, wo], MAC, fill="zero")], ADD2)
    f = b.generic("bsd,df->bsf", [layer_norm(b, x, "bsd"), w1], MAC, fill="zero")
    f = b.generic("bsf,bsf->bsf", [f, b.zeros(b.shapes[f])], MAX2)
    y = b.generic("bsf,fd->bsd", [f, w2], MAC, fill="zero")
    b.result(b.generic("bsd,bsd->bsd", [x, y], ADD2), layout)


def row_at(b: Builder, x: str, at: str | None = None) -> str:
    """`x[:, at]` of a (batch, sequence, hidden) `x`: one position's row,
    the sequence dimension dropped; the last one unless `at` (a static
    index or an index value) says."""
    batch, seq, hidden = b.shapes[x]
    at = str(seq - 1) if at is None else at
    t, row = tensor((batch, seq, hidden)), tensor((batch, hidden))
    op = f"tensor.extract_slice {x}[0, {at}, 0] [{batch}, 1, {hidden}] [1, 1, 1] : {t} to {row}"
    return b.emit(op, (batch, hidden))


def last_token_logits(b: Builder) -> None:
    """The LM head's logits of the last position only (`logits[:, -1]`, for
    sampling the next token, which reads them whole), the vocabulary (50)
    split unevenly over 4 devices."""
    logits = b.generic("bsd,dv->bsv", [b.arg("h", (2, 8, 64), R), b.arg("w", (64, 50), COLS)], MAC, fill="zero")
    b.result(row_at(b, logits), R)


def sequence_split_last_token(b: Builder) -> None:
    """The LM head on the last position of a hidden state whose sequence
    is split (sequence or context parallelism): `h[:, -1] @ w`, read
    whole for sampling."""
    h = b.arg("h", (2, 16, 64), ((), (0,)))
    b.result(b.matmul(row_at(b, h), b.arg("w", (64, 48), R)), R)


def kv_cache_read(b: Builder) -> None:
    """One decoding step reading the keys at a position known only at run
    time (`lax.dynamic_index_in_dim(cache, pos, 1, keepdims=False)`,
    torch's `cache[:, pos]`) from a cache whose sequence is split, whole."""
    cache = b.arg("cache", (2, 64, 32), ((), (0,)))
    b.result(row_at(b, cache, b.position("pos", 63)), R)


def row_parallel_last_token(b: Builder) -> None:
    """The last token of a row-parallel layer's output (the contraction
    split, the result a partial sum), read whole: `(h @ w)[:, -1]`."""
    h, w = b.arg("h", (2, 16, 128), ((), (), (0,))), b.arg("w", (128, 64), ROWS)
    b.result(row_at(b, b.generic("bsk,kn->bsn", [h, w], MAC, fill="zero")), R)


def vocab_softmax(b: Builder) -> None:
    """An LM head's probabilities: `linalg.softmax` over a vocabulary the
    column-parallel weight splits (`decompose-softmax` writes it as the
    generics whose maximum and sum split into partial results)."""
    logits = b.matmul(b.arg("x", (8, 64), R), b.arg("w", (64, 192), COLS))
    t, init = tensor((8, 192)), b.empty((8, 192))
    probs = b.emit(f"linalg.softmax dimension(1) ins({logits} : {t}) outs({init} : {t}) -> {t}", (8, 192))
    b.result(probs, COLS)


def moe_expert_parallel(b: Builder) -> None:
    """GShard's expert-parallel mixture-of-experts layer: the groups of
    tokens (G=8, S=8, D=16) and their dispatch and combine masks (E=4
    experts of capacity C=4) split over the groups, each expert's
    feed-forward weights (H=32) over the experts; the tokens go to their
    experts and come back (two all-to-alls in GShard)."""
    x = b.arg("x", (8, 8, 16), ROWS)
    dispatch = b.arg("dispatch", (8, 8, 4, 4), ROWS)
    combine = b.arg("combine", (8, 8, 4, 4), ROWS)
    w1, w2 = b.arg("w1", (4, 16, 32), ROWS), b.arg("w2", (4, 32, 16), ROWS)
    xe = b.generic("gsec,gsd->egcd", [dispatch, x], MAC, fill="zero")
    h = b.generic("egch->egch", [b.generic("egcd,edh->egch", [xe, w1], MAC, fill="zero")], MAX_ACC, fill="zero")
    ye = b.generic("egch,ehd->egcd", [h, w2], MAC, fill="zero")
    b.result(b.generic("gsec,egcd->gsd", [combine, ye], MAC, fill="zero"), ROWS)


def vocab_parallel_embedding(b: Builder) -> None:
    """Megatron's vocabulary-parallel embedding: the table's rows (a
    vocabulary of 256) split over the devices, the token ids (a run-time
    input, as JAX passes them: i64 after the tensors) whole; each id's row
    (`table[ids]`, an id past the table clamped to it as XLA's gather
    does), whole."""
    table = b.arg("table", (256, 64), ROWS)
    b.args.append("%ids: tensor<16xi64>")
    body = (
        "%at = arith.index_cast %id : i64 to index\n"
        "%first = arith.constant 0 : index\n"
        "%last = arith.constant 255 : index\n"
        "%low = arith.maxsi %at, %first : index\n"
        "%row = arith.minsi %low, %last : index\n"
        "%col = linalg.index 1 : index\n"
        f"%r = tensor.extract {table}[%row, %col] : {tensor((256, 64))}\n"
        "linalg.yield %r : f32"
    )
    maps = "[affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>]"
    rows = b.mapped(maps, "%ids", "tensor<16xi64>", (16, 64), "%id: i64, %acc: f32", body)
    b.result(rows, R)


def swiglu_mlp(b: Builder) -> None:
    """LLaMA's feed-forward layer, Megatron-split: the gate and up
    projections by columns, the down projection by rows; silu(x @ wg) *
    (x @ wu) @ wd (silu as x * sigmoid written out: x / (1 + exp(-x)))."""
    x = b.arg("x", (8, 64), R)
    gate = b.matmul(x, b.arg("wg", (64, 128), COLS))
    up = b.matmul(x, b.arg("wu", (64, 128), COLS))
    act = b.generic("ij,ij->ij", [gate, up], SILU_MUL)
    b.result(b.matmul(act, b.arg("wd", (128, 64), ROWS)), R)


def sequence_split_attention(b: Builder) -> None:
    """Attention over a sequence split across the devices (context or
    Ulysses-style sequence parallelism): q, k and v (sequence 32, 8 heads
    of 16) and the output split by sequence; each position attends to every
    other, per head."""
    q, k, v = (b.arg(n, (32, 8, 16), ROWS) for n in "qkv")
    s = b.generic("qhd,khd->hqk", [q, k], MAC, fill="zero")
    m = b.generic("hqk->hq", [s], MAX_ACC, fill="ninf")
    e = b.generic("hqk,hq->hqk", [s, m], EXP_SUB)
    p = b.generic("hqk,hq->hqk", [e, b.generic("hqk->hq", [e], SUM_ACC, fill="zero")], DIV2)
    b.result(b.generic("hqk,khd->qhd", [p, v], MAC, fill="zero"), ROWS)


def contraction_split_matmul(b: Builder) -> None:
    b.result(b.matmul(b.arg("x", (8, 64), COLS), b.arg("w", (64, 16), ROWS)), ((0,), ()))


def weight_stationary_2d(b: Builder) -> None:
    y = b.matmul(b.arg("x", (8, 64), ((0,), (1,))), b.arg("w", (64, 32), ((1,), (0,))))
    b.result(y, ((0,), (1,)))


def shared_inits(b: Builder) -> None:
    x, w1, w2 = b.arg("x", (16, 64), ROWS), b.arg("w1", (64, 64), R), b.arg("w2", (64, 64), R)
    init = b.zeros((16, 64))
    h = b.generic("ij->ij", [b.matmul(x, w1, init)], MAX_ACC, init=init)
    b.result(b.matmul(h, w2, init), ROWS)


def dp_mean_loss(b: Builder) -> None:
    total = b.generic("ij->", [b.arg("x", (16, 64), ROWS)], SUM_ACC, fill="zero")
    b.result(b.generic("->", [total], DIV_1024), R)


def fsdp_mlp(b: Builder) -> None:
    """FSDP / ZeRO-3: the batch and every weight's first dimension split
    over the one (data) axis; each weight must meet its batch somewhere."""
    x = b.arg("x", (32, 64), ROWS)
    w1, w2 = b.arg("w1", (64, 128), ROWS), b.arg("w2", (128, 64), ROWS)
    b.result(b.matmul(relu(b, b.matmul(x, w1)), w2), ROWS)


def vocab_parallel_xent(b: Builder) -> None:
    """Megatron's vocabulary-parallel cross-entropy: logits split over the
    vocabulary, the labels one-hot and split alike; the mean loss whole."""
    logits = b.matmul(b.arg("x", (8, 64), R), b.arg("w", (64, 192), COLS))
    onehot = b.arg("labels", (8, 192), COLS)
    m = b.generic("ij->i", [logits], MAX_ACC, fill="ninf")
    total = b.generic("ij->i", [b.generic("ij,i->ij", [logits, m], EXP_SUB)], SUM_ACC, fill="zero")
    logp = b.generic("ij,i,i->ij", [logits, m, total], LOG_SUB)
    picked = b.generic("ij,ij->", [onehot, logp], MAC, fill="zero")
    b.result(b.generic("->", [picked], DIV_NEG8), R)


def flip_cols(b: Builder) -> None:
    """`jnp.flip` along the split columns."""
    x = b.arg("x", (8, 64), COLS)
    maps = "[affine_map<(i, j) -> (i, 63 - j)>, affine_map<(i, j) -> (i, j)>]"
    y = b.mapped(maps, x, tensor((8, 64)), (8, 64), "%a0: f32, %acc: f32", "linalg.yield %a0 : f32")
    b.result(y, COLS)


def roll_cols(b: Builder) -> None:
    """`jnp.roll` by 3 along the split columns, as JAX writes it: the last
    3 columns, then the first 61, concatenated."""
    x = b.arg("x", (8, 64), COLS)
    t = tensor((8, 64))
    tail = b.emit(f"tensor.extract_slice {x}[0, 61] [8, 3] [1, 1] : {t} to {tensor((8, 3))}", (8, 3))
    head = b.emit(f"tensor.extract_slice {x}[0, 0] [8, 61] [1, 1] : {t} to {tensor((8, 61))}", (8, 61))
    types = f"{tensor((8, 3))}, {tensor((8, 61))}"
    b.result(b.emit(f"tensor.concat dim(1) {tail}, {head} : ({types}) -> {t}", (8, 64)), COLS)


def shifted_product_cols(b: Builder) -> None:
    """`jnp.sum(a[:, :-1] * b[:, 1:])` with the columns split: neighbouring
    columns multiplied, as a causal shift or a finite difference reads
    them (each device lacks one column of one of the two slices)."""
    x = b.arg("a", (8, 64), COLS)
    y = b.arg("b", (8, 64), COLS)
    t, cut = tensor((8, 64)), tensor((8, 63))
    head = b.emit(f"tensor.extract_slice {x}[0, 0] [8, 63] [1, 1] : {t} to {cut}", (8, 63))
    tail = b.emit(f"tensor.extract_slice {y}[0, 1] [8, 63] [1, 1] : {t} to {cut}", (8, 63))
    b.result(b.generic("ij,ij->", [head, tail], MAC, fill="zero"))


def zero_rows(b: Builder, x: str, shape: tuple[int, int, int], high: int) -> str:
    """`x` (of `shape`) with `high` rows of zeros after its rows (dimension 1)."""
    out = (shape[0], shape[1] + high, shape[2])
    return b.emit(
        f"tensor.pad {x} low[0, 0, 0] high[0, {high}, 0] {{\n"
        "  ^bb0(%i: index, %j: index, %k: index):\n    tensor.yield %zero : f32\n"
        f"  }} : {tensor(shape)} to {tensor(out)}",
        out,
    )


def pad_rows(b: Builder) -> None:
    """`jnp.pad` of a sequence split over the second mesh axis from 48 to 64
    rows: pieces of 12 rows become pieces of 16."""
    x = b.arg("x", (4, 48, 16), ((0,), (1,)))
    b.result(zero_rows(b, x, (4, 48, 16), 16), ((0,), (1,)))


def diff_rows(b: Builder) -> None:
    """`jnp.pad(x[:, 1:] - x[:, :-1], ((0, 0), (0, 1), (0, 0)))`: a finite
    difference of a sequence split over the second mesh axis, padded back
    to its 48 rows (each piece reads the first row of the next)."""
    x = b.arg("x", (4, 48, 16), ((0,), (1,)))
    t, cut = tensor((4, 48, 16)), tensor((4, 47, 16))
    ahead = b.emit(f"tensor.extract_slice {x}[0, 1, 0] [4, 47, 16] [1, 1, 1] : {t} to {cut}", (4, 47, 16))
    here = b.emit(f"tensor.extract_slice {x}[0, 0, 0] [4, 47, 16] [1, 1, 1] : {t} to {cut}", (4, 47, 16))
    d = b.emit(f"arith.subf {ahead}, {here} : {cut}", (4, 47, 16))
    b.result(zero_rows(b, d, (4, 47, 16), 1), ((0,), (1,)))


def kv_cache_write(b: Builder) -> None:
    """`lax.dynamic_update_slice(cache, new, (0, 30, 0))`: four new tokens'
    keys written into a cache whose sequence is split, across the boundary
    of two devices' pieces."""
    seq: Split = ((), (0,))
    cache = b.arg("cache", (2, 64, 32), seq)
    new = b.arg("new", (2, 4, 32), R)
    t, n = tensor((2, 64, 32)), tensor((2, 4, 32))
    op = f"tensor.insert_slice {new} into {cache}[0, 30, 0] [2, 4, 32] [1, 1, 1] : {n} into {t}"
    b.result(b.emit(op, (2, 64, 32)), seq)


def kv_cache_decode(b: Builder) -> None:
    """One decoding step's keys written at a position known only at run
    time (`lax.dynamic_update_slice(cache, new, (0, pos, 0))`, torch's
    `cache[:, pos] = new`) into a cache whose sequence is split."""
    seq: Split = ((), (0,))
    cache = b.arg("cache", (2, 64, 32), seq)
    new = b.arg("new", (2, 1, 32), R)
    pos = b.position("pos", 63)
    t, n = tensor((2, 64, 32)), tensor((2, 1, 32))
    op = f"tensor.insert_slice {new} into {cache}[0, {pos}, 0] [2, 1, 32] [1, 1, 1] : {n} into {t}"
    b.result(b.emit(op, (2, 64, 32)), seq)


def transpose_swap(b: Builder) -> None:
    """`x.T` with the same layout in and out: the mesh axes trade dimensions."""
    x = b.arg("x", (16, 32), ((0,), (1,)))
    t = tensor((32, 16))
    y = b.emit(
        f"linalg.transpose ins({x} : {tensor((16, 32))}) outs({b.empty((32, 16))} : {t}) permutation = [1, 0]",
        (32, 16),
    )
    b.result(y, ((0,), (1,)))


def conv2d_same_rows(b: Builder) -> None:
    """A 3x3 "same" convolution as torch-mlir writes it (a `tensor.pad`,
    then `linalg.conv_2d_nhwc_hwcf` without padding), the image split
    along its rows."""
    rows = ((), (0,))
    x = b.arg("x", (1, 32, 32, 8), rows)
    w = b.arg("w", (3, 3, 8, 8))
    padded = b.emit(
        f"tensor.pad {x} low[0, 1, 1, 0] high[0, 1, 1, 0] {{\n"
        "  ^bb0(%n: index, %i: index, %j: index, %c: index):\n    tensor.yield %zero : f32\n"
        f"  }} : {tensor((1, 32, 32, 8))} to {tensor((1, 34, 34, 8))}",
        (1, 34, 34, 8),
    )
    t = tensor((1, 32, 32, 8))
    y = b.emit(
        f"linalg.conv_2d_nhwc_hwcf ins({padded}, {w} : {tensor((1, 34, 34, 8))}, {tensor((3, 3, 8, 8))})"
        f" outs({b.zeros((1, 32, 32, 8))} : {t}) -> {t}",
        (1, 32, 32, 8),
    )
    b.result(y, rows)


SEQ: Split = ((), (), (0,))  # a sequence split along its length


def _pad(b: Builder, x: str, low: tuple[int, ...], high: tuple[int, ...]) -> str:
    """`x` padded with zeros (a `tensor.pad`, as torch-mlir writes it)."""
    shape = b.shapes[x]
    out = tuple(n + lo + hi for n, lo, hi in zip(shape, low, high, strict=True))
    indices = ", ".join(f"%i{d}: index" for d in range(len(shape)))
    return b.emit(
        f"tensor.pad {x} low{list(low)} high{list(high)} {{\n"
        f"  ^bb0({indices}):\n    tensor.yield %zero : f32\n  }} : {tensor(shape)} to {tensor(out)}",
        out,
    )


def _reshape(b: Builder, op: str, x: str, groups: str, shape: tuple[int, ...]) -> str:
    """`tensor.expand_shape` or `tensor.collapse_shape` of `x` to `shape`."""
    sizes = f" output_shape {list(shape)}" if op == "expand_shape" else ""
    return b.emit(f"tensor.{op} {x} {groups}{sizes} : {tensor(b.shapes[x])} into {tensor(shape)}", shape)


def _conv(b: Builder, op: str, x: str, w: str, init: str, dilation: int = 1) -> str:
    shape = b.shapes[init]
    rank = len(shape) - 2 - ("ngc" in op)
    attrs = f"dilations = dense<{dilation}> : vector<{rank}xi64>, strides = dense<1> : vector<{rank}xi64>"
    types = f"{tensor(b.shapes[x])}, {tensor(b.shapes[w])}"
    return b.emit(f"{op} {{{attrs}}} ins({x}, {w} : {types}) outs({init} : {tensor(shape)}) -> {tensor(shape)}", shape)


def _keep(b: Builder, y: str, length: int) -> str:
    """The first `length` outputs of `y` (N, C, L): PyTorch's `[..., :length]`."""
    n, c, _ = b.shapes[y]
    return b.emit(
        f"tensor.extract_slice {y}[0, 0, 0] [{n}, {c}, {length}] [1, 1, 1] : "
        f"{tensor(b.shapes[y])} to {tensor((n, c, length))}",
        (n, c, length),
    )


def causal_conv1d(b: Builder) -> None:
    """Mamba's causal depthwise convolution, `Conv1d(16, 16, 4, groups=16,
    padding=3)(x)[..., :64]`, as torch-mlir writes it: lifted to 2-D (a unit
    width), padded on both sides, 67 outputs of which 64 are kept."""
    x = b.arg("x", (2, 16, 64), SEQ)
    w = b.arg("w", (16, 4, 1))
    bias = b.arg("b", (16,))
    x4 = _reshape(b, "expand_shape", x, "[[0], [1], [2, 3]]", (2, 16, 64, 1))
    padded = _pad(b, x4, (0, 0, 3, 0), (0, 0, 3, 0))
    out = (2, 16, 67, 1)
    init = b.emit(
        f"linalg.broadcast ins({bias} : {tensor((16,))}) outs({b.empty(out)} : {tensor(out)}) dimensions = [0, 2, 3]",
        out,
    )
    y = _conv(b, "linalg.depthwise_conv_2d_nchw_chw", padded, w, init)
    b.result(_keep(b, _reshape(b, "collapse_shape", y, "[[0], [1], [2, 3]]", (2, 16, 67)), 64), SEQ)


def dilated_causal_conv1d(b: Builder) -> None:
    """WaveNet's causal convolution, `Conv1d(16, 16, 2, dilation=2,
    padding=2, bias=False)(x)[..., :64]`, as torch-mlir writes it."""
    x = b.arg("x", (2, 16, 64), SEQ)
    w = b.arg("w", (16, 16, 2))
    y = _conv(b, "linalg.conv_1d_ncw_fcw", _pad(b, x, (0, 0, 2), (0, 0, 2)), w, b.zeros((2, 16, 66)), dilation=2)
    b.result(_keep(b, y, 64), SEQ)


def grouped_conv1d(b: Builder) -> None:
    """`Conv1d(16, 16, 3, groups=2, padding=1, bias=False)` as torch-mlir
    writes it: lifted to 2-D and padded, then the channels expanded into
    their groups, so the convolution reads the reshape of the pad."""
    x = b.arg("x", (2, 16, 64), SEQ)
    w = b.arg("w", (2, 8, 8, 3, 1))
    x4 = _reshape(b, "expand_shape", x, "[[0], [1], [2, 3]]", (2, 16, 64, 1))
    padded = _pad(b, x4, (0, 0, 1, 0), (0, 0, 1, 0))
    grouped = _reshape(b, "expand_shape", padded, "[[0], [1, 2], [3], [4]]", (2, 2, 8, 66, 1))
    y = _conv(b, "linalg.conv_2d_ngchw_gfchw", grouped, w, b.zeros((2, 2, 8, 64, 1)))
    b.result(_reshape(b, "collapse_shape", y, "[[0], [1, 2], [3, 4]]", (2, 16, 64)), SEQ)


def _nearest_index(loop: str, name: str) -> str:
    """torch-mlir's source index of output index `loop` for a scale of 2 and
    an input of 16: clamp(floor(float(loop) / 2), 0, 15)."""
    return (
        f"    %{name}c = arith.index_cast %{loop} : index to i64\n"
        f"    %{name}f = arith.sitofp %{name}c : i64 to f32\n"
        f"    %{name}q = arith.divf %{name}f, %two : f32\n"
        f"    %{name}l = math.floor %{name}q : f32\n"
        f"    %{name}lo = arith.maximumf %{name}l, %zero : f32\n"
        f"    %{name}hi = arith.minimumf %{name}lo, %top15 : f32\n"
        f"    %{name}n = arith.fptosi %{name}hi : f32 to i64\n"
        f"    %{name} = arith.index_cast %{name}n : i64 to index\n"
    )


def nearest_upsample(b: Builder) -> None:
    """A U-Net decoder step, `F.interpolate(x, scale_factor=2,
    mode="nearest") + skip`, as torch-mlir writes the up-sampling: a
    generic whose body reads the input at each output index's source
    (float division, floor, clamp), the rows split over the mesh."""
    rows = ((), (), (0,))
    x = b.arg("x", (2, 8, 16, 16), rows)
    skip = b.arg("skip", (2, 8, 32, 32), rows)
    out = (2, 8, 32, 32)
    t = tensor(out)
    identity = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    up = b.emit(
        f'linalg.generic {{indexing_maps = [{identity}], iterator_types = ["parallel", "parallel", "parallel", '
        f'"parallel"]}} outs({b.empty(out)} : {t}) {{\n'
        "  ^bb0(%out: f32):\n"
        "    %n = linalg.index 0 : index\n    %c = linalg.index 1 : index\n"
        "    %i = linalg.index 2 : index\n    %j = linalg.index 3 : index\n"
        f"{_nearest_index('i', 'si')}{_nearest_index('j', 'sj')}"
        f"    %v = tensor.extract {x}[%n, %c, %si, %sj] : {tensor(b.shapes[x])}\n"
        f"    linalg.yield %v : f32\n  }} -> {t}",
        out,
    )
    b.result(b.generic("ncij,ncij->ncij", [up, skip], ADD2), rows)


@dataclass
class Program:
    name: str
    mesh: tuple[int, ...]
    build: Callable[[Builder], None]

    def builder(self, pin_arguments: bool = False) -> Builder:
        b = Builder(self.mesh, pin_arguments)
        self.build(b)
        return b


PROGRAMS = [
    Program("megatron_mlp", (4,), mlp(1)),
    Program("dp_tp_mlp", (2, 4), dp_tp_mlp),
    Program("attention_heads", (4,), attention_heads),
    Program("layer_norm_hidden", (4,), layer_norm_hidden),
    Program("vocab_row_max", (4,), vocab_row_max),
    Program("dp_linear_fwd_bwd", (4,), dp_linear_fwd_bwd),
    Program("contraction_split_matmul", (4,), contraction_split_matmul),
    Program("weight_stationary_2d", (2, 2), weight_stationary_2d),
    Program("mlp_chain_4", (4,), mlp(4)),
    Program("shared_inits", (4,), shared_inits),
    Program("residual_mlp", (4,), mlp(1, residual=True)),
    Program("dp_mean_loss", (4,), dp_mean_loss),
    Program("parallel_block", (4,), parallel_block),
    Program("uneven_hidden_mlp", (4,), uneven_hidden_mlp),
    Program("fsdp_mlp", (4,), fsdp_mlp),
    Program("vocab_parallel_xent", (4,), vocab_parallel_xent),
    Program("flip_cols", (4,), flip_cols),
    Program("roll_cols", (4,), roll_cols),
    Program("shifted_product_cols", (4,), shifted_product_cols),
    Program("pad_rows", (2, 4), pad_rows),
    Program("diff_rows", (2, 4), diff_rows),
    Program("transpose_swap", (2, 4), transpose_swap),
    Program("conv2d_same_rows", (4,), conv2d_same_rows),
    Program("causal_conv1d", (4,), causal_conv1d),
    Program("dilated_causal_conv1d", (4,), dilated_causal_conv1d),
    Program("grouped_conv1d", (4,), grouped_conv1d),
    Program("nearest_upsample", (4,), nearest_upsample),
    Program("kv_cache_write", (4,), kv_cache_write),
    Program("kv_cache_decode", (4,), kv_cache_decode),
    Program("sequence_parallel_block", (4,), sequence_parallel_block),
    Program("dp_tp_linear_bwd", (2, 4), dp_tp_linear_bwd),
    Program("gpt_block_dp_tp", (2, 4), gpt_block(sequence_parallel=False)),
    Program("gpt_block_dp_tp_sp", (2, 4), gpt_block(sequence_parallel=True)),
    Program("gpt_block_fsdp_tp", (2, 4), gpt_block(fsdp=True)),
    Program("last_token_logits", (4,), last_token_logits),
    Program("sequence_split_last_token", (4,), sequence_split_last_token),
    Program("kv_cache_read", (4,), kv_cache_read),
    Program("row_parallel_last_token", (4,), row_parallel_last_token),
    Program("vocab_softmax", (4,), vocab_softmax),
    Program("moe_expert_parallel", (4,), moe_expert_parallel),
    Program("vocab_parallel_embedding", (4,), vocab_parallel_embedding),
    Program("swiglu_mlp", (4,), swiglu_mlp),
    Program("sequence_split_attention", (4,), sequence_split_attention),
]

# -- measuring --------------------------------------------------------------------


@dataclass
class Plan:
    """One partitioned program's communication, or why there is none.
    `signature` says how the partitioned function's argument or result
    types differ from the requested layouts (its bytes then do not count
    what moving the data into those layouts would cost)."""

    collectives: int = 0
    bytes: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    signature: str | None = None

    @classmethod
    def of(cls, text: str, b: Builder, name: str) -> Plan:
        c, n, kinds = traffic(text, b.mesh)
        return cls(c, n, kinds, signature=signature_change(text, b, name))

    @property
    def comparable(self) -> bool:
        return self.error is None and self.signature is None

    def cell(self) -> str:
        if self.error:
            return "fails"
        return f"{self.collectives} / {self.bytes:,} B" + (" (sig)" if self.signature else "")

    def kinds_text(self) -> str:
        return ", ".join(f"{v} {k}" for k, v in sorted(self.kinds.items())) or "none"


def local_type(shape: tuple[int, ...], split: Split, mesh: tuple[int, ...]) -> str:
    """A device's type: pieces of unequal sizes are of dynamic size (`?`)."""
    axes = list(split) + [()] * (len(shape) - len(split))
    pieces = [math.prod(mesh[a] for a in ax) for ax in axes]
    return tensor(tuple(d // k if d % k == 0 else "?" for d, k in zip(shape, pieces)))


def signature_change(text: str, b: Builder, name: str) -> str | None:
    """How the partitioned `@name`'s per-device argument and result types
    differ from the requested layouts (either dialect's spelling), or None."""
    m = re.search(rf"func\.func @{name}\((.*?)\)\s*->\s*(.*?)\s*\{{\s*$", text, re.M)
    if m is None:
        return "no partitioned function found"
    got = {
        "arguments": re.findall(r"%\w+: (tensor<[^>]*>)", m.group(1)),
        "results": re.findall(r"tensor<[^>]*>", re.sub(r"\{[^{}]*\}", "", m.group(2))),
    }
    problems = []
    for what, layouts in b.layouts.items():
        want = [local_type(shape, split, b.mesh) for shape, split in layouts]
        problems += [f"{what[:-1]} {i} is {g}, not {w}" for i, (g, w) in enumerate(zip(got[what], want)) if g != w]
    return "; ".join(problems) or None


def first_line(e: BaseException) -> str:
    if isinstance(e, ir.MLIRError) and e.error_diagnostics:
        msg = e.error_diagnostics[0].message
    elif isinstance(e, mesh_dialect.DiagnosticError) and e.diagnostics:
        msg = e.diagnostics[0].message
    else:
        msg = str(e) or type(e).__name__
    return (msg.strip().splitlines() or [""])[0][:200]


SOLVER = "cost"
"""`sharding-propagation`'s solver (`--solver`)."""


def run_ours(text: str, b: Builder, name: str) -> tuple[dict[str, Plan], dict[str, str]]:
    """Plans after partition and after optimize-collectives, and the IR text
    of the input and of each stage ("input", "prepare", "propagate", "partition",
    "optimize")."""
    plans: dict[str, Plan] = {}
    irs = {"input": text}
    ctx = mesh_dialect.context()
    stages = (
        ("prepare", (PrepareWindows(), DecomposeSoftmax())),
        ("propagate", (ShardingPropagation(solver=SOLVER),)),
        ("partition", (MeshPartition(),)),
        ("optimize", (MeshOptimizeCollectives(),)),
    )
    stage = "parse"
    try:
        module = mesh_dialect.parse(text, filename=f"{name}.mlir", context=ctx)
        for stage, passes in stages:
            pm = PassManager("builtin.module", context=ctx)
            for pass_ in passes:
                pass_.add_to(pm)
            with ctx:
                pm.run(module)
            irs[stage] = mesh_dialect.print_ir(module)
            if stage in ("partition", "optimize"):
                plans[stage] = Plan.of(irs[stage], b, name)
    except Exception as e:  # noqa: BLE001 - any failure of ours is a result to report
        for key in ("partition", "optimize"):
            plans.setdefault(key, Plan(error=f"{stage}: {first_line(e)}"))
    return plans, irs


def simulate(original: str, partitioned: str, seed: int) -> str:
    """`ok`, `MISMATCH: ...` or `error: ...`: the partitioned program run on
    every device against the original, as `mesh-run --compare-with` does."""
    with tempfile.TemporaryDirectory() as tmp:
        ref, got = os.path.join(tmp, "ref.mlir"), os.path.join(tmp, "got.mlir")
        for path, text in ((ref, original), (got, partitioned)):
            with open(path, "w") as f:
                f.write(text)
        out, err = io.StringIO(), io.StringIO()
        code = RunDriver(RunOptions(input=got, compare_with=ref, quiet=True, seed=seed), out, err).run()
    if code == 0:
        return "ok"
    lines = out.getvalue().strip().splitlines()
    if lines and lines[-1] == "MISMATCH":
        worst = next((ln for ln in lines if "differs" in ln), lines[0])
        return f"MISMATCH: {worst}"
    return "error: " + (err.getvalue().strip().splitlines() or ["failed"])[0]


def check_upstream_input(text: str) -> str | None:
    """None when upstream's parser and verifier accept the renamed program."""
    try:
        ctx = ir.Context()
        ctx.enable_multithreading(False)
        ir.Module.parse(text, ctx)
    except Exception as e:  # noqa: BLE001
        return first_line(e)
    return None


def run_upstream(text: str) -> tuple[str | None, str]:
    """(partitioned text or None, why not): upstream's two passes in a child
    process (bench/partition.py's child script, reading stdin and writing
    the module then its timings to stdout), since upstream asserts."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", UPSTREAM, "/dev/stdin", "/dev/stdout"],
            input=text,
            capture_output=True,
            text=True,
            timeout=UPSTREAM_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return None, f"timed out after {UPSTREAM_TIMEOUT:.0f} s"
    if proc.returncode == 0:
        return proc.stdout.rstrip().rsplit("\n", 1)[0], ""
    err = proc.stderr
    m = re.search(r"([\w:~]+)\([^`\n]*\): Assertion `(.*)' failed", err)
    if m:
        return None, f"aborts in {m.group(1)}: assertion `{m.group(2)}`"
    line = next((ln for ln in err.splitlines() if "error:" in ln), None) or (err.strip().splitlines() or ["?"])[-1]
    return None, f"exit {proc.returncode}: {line.strip()[:200]}"


def load_xla() -> dict | None:
    if not os.path.exists(XLA_PLANS):
        return None
    with open(XLA_PLANS) as f:
        return json.load(f)


def best_of(plans: dict[str, Plan]) -> str:
    """The plans with the fewest bytes, then collectives, among those that
    kept the requested signature."""
    ok = {k: (p.bytes, p.collectives) for k, p in plans.items() if p.comparable}
    if not ok:
        return "-"
    top = min(ok.values())
    return "=".join(k for k, v in ok.items() if v == top)


def measure(p: Program, args: argparse.Namespace, xla: dict | None) -> dict:
    b = p.builder(args.pin_arguments)
    text = b.text(p.name)
    plans, irs = run_ours(text, b, p.name)
    row: dict = {"name": p.name, "mesh": "x".join(map(str, p.mesh)), "irs": irs}
    row["ours"], row["opt"] = plans["partition"], plans["optimize"]
    row["sim"] = "-"
    if not args.no_sim and row["opt"].error is None:
        checks = {k: simulate(text, irs[k], seed=1) for k in ("partition", "optimize")}
        bad = {k: v for k, v in checks.items() if v != "ok"}
        row["sim"] = "ok" if not bad else "; ".join(f"{k} {v}" for k, v in bad.items())
    up_text = to_upstream(text)
    invalid = check_upstream_input(up_text)
    if invalid:
        row["up"] = Plan(error=f"invalid input: {invalid}")
    elif args.no_upstream:
        row["up"] = None
    else:
        out, why = run_upstream(up_text)
        row["up"] = Plan.of(out, b, p.name) if out is not None else Plan(error=why)
    entry = (xla or {}).get(p.name)
    row["xla"] = None
    if entry:
        row["xla"] = Plan(entry["collectives"], entry["bytes"], dict(entry.get("kinds", {})))
        row["xla_bytes_rs"] = entry.get("bytes_rs")
    candidates = {"ours+opt": row["opt"], "upstream": row["up"], "XLA": row["xla"]}
    row["best"] = best_of({k: v for k, v in candidates.items() if v is not None})
    return row


# -- output -----------------------------------------------------------------------

COLUMNS = ("program", "mesh", "ours", "ours+opt", "upstream", "XLA", "best", "sim")
PLANS = (("ours", "ours"), ("ours+opt", "opt"), ("upstream", "up"), ("XLA", "xla"))


def cells(row: dict) -> list[str]:
    shown = ["n/a" if row[key] is None else row[key].cell() for _, key in PLANS]
    return [row["name"], row["mesh"], *shown, row["best"], row["sim"].split(":")[0]]


def table(rows: list[dict]) -> str:
    body = [list(COLUMNS)] + [cells(r) for r in rows]
    widths = [max(len(line[i]) for line in body) for i in range(len(COLUMNS))]
    numeric = range(2, 2 + len(PLANS))

    def fmt(line: list[str]) -> str:
        return " | ".join(c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(line, widths)))

    return "\n".join([fmt(body[0]), "-+-".join("-" * w for w in widths)] + [fmt(line) for line in body[1:]])


def notes(row: dict) -> list[str]:
    parts = []
    for label, key in PLANS:
        plan = row[key]
        if plan is None:
            continue
        text = f"{label} fails: {plan.error}" if plan.error else f"{label} {plan.kinds_text()}"
        if key == "xla" and row.get("xla_bytes_rs") not in (None, plan.bytes):
            text += f" ({row['xla_bytes_rs']:,} B with reduce-scatter)"
        parts.append(text)
    out = [f"{row['name']}: " + "; ".join(parts)]
    for label, key in PLANS:
        if row[key] is not None and row[key].signature:
            out.append(f"{row['name']}: {label} signature changed: {row[key].signature}")
    if row["sim"] not in ("ok", "-"):
        out.append(f"{row['name']}: simulation {row['sim']}")
    return out


def as_json(row: dict) -> dict:
    def plan(p: Plan | None) -> dict | None:
        return None if p is None else dataclasses.asdict(p)

    out = {"mesh": row["mesh"], **{label: plan(row[key]) for label, key in PLANS}}
    out.update(best=row["best"], sim=row["sim"])
    out["xla_bytes_rs"] = row.get("xla_bytes_rs")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--no-upstream", action="store_true", help="skip upstream's passes")
    ap.add_argument("--no-sim", action="store_true", help="skip simulating our partitioned programs")
    ap.add_argument("--json", metavar="FILE", help="write every number to FILE")
    ap.add_argument("--show", metavar="NAME", help="print the input and our IR after each pass for one program")
    ap.add_argument(
        "--pin-arguments",
        action="store_true",
        help="also give each argument its own layout (mesh.shard %%arg to %%s) before the annotation for users",
    )
    ap.add_argument(
        "--solver",
        choices=("cost", "sweep"),
        default="cost",
        help="sharding-propagation's solver: cost (the default) or sweep (upstream's search, to compare)",
    )
    args = ap.parse_args()
    global SOLVER
    SOLVER = args.solver
    known = {p.name: p for p in PROGRAMS}
    wanted = [args.show] if args.show else [n for n in args.only.split(",") if n] or list(known)
    unknown = [n for n in wanted if n not in known]
    if unknown:
        sys.exit(f"plan_quality: unknown program {', '.join(unknown)} (known: {', '.join(known)})")

    if args.show:
        b = known[args.show].builder(args.pin_arguments)
        _, irs = run_ours(b.text(args.show), b, args.show)
        for stage, text in irs.items():
            print(f"// ---- {args.show}: {stage}\n{text}")
        return

    xla = load_xla()
    rows = []
    for name in wanted:
        rows.append(measure(known[name], args, xla))
        print(f"  {name}: done", file=sys.stderr, flush=True)

    print(
        "collectives / bytes a device receives (f32); ours = prepare-windows + decompose-softmax + sharding-propagation +"
    )
    print(
        "mesh-partition, ours+opt = then mesh-optimize-collectives; (sig) = the partitioned signature is not the requested"
    )
    print("layouts (arguments arrive whole): its bytes are not comparable and it is never `best`;")
    print(f"XLA from {os.path.relpath(XLA_PLANS)}" + ("" if xla else " (absent: n/a)"))
    print()
    print(table(rows))
    print()
    for row in rows:
        for line in notes(row):
            print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({r["name"]: as_json(r) for r in rows}, f, indent=2)


if __name__ == "__main__":
    main()
