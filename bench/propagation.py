"""sharding-propagation on N-layer programs of about 1k, 10k and 100k ops.

Two kinds of linalg programs, weights annotated and little else:
  * mlp          Megatron-style layer pairs on a 1-D mesh of 4: matmul with a
                 column-split weight, relu, matmul with a row-split weight,
                 relu (10 ops);
  * transformer  block-like layers on a 2x2 mesh (18 ops): the block's input
                 annotated with its rows split over axis 0, a column-split
                 projection, a row softmax (max, exp(x - max), sum, divide),
                 a row-split projection and a residual add.
Measured in one run, on the same program: our pass (Python, through the
mesh_dialect API; the cost solver by default, `--solver sweep` for
upstream's search with the same traversal) and upstream's C++
`sharding-propagation` on the program in upstream's spelling (forward by
default: upstream's backward sweep aborts on the softmax, whose scores feed
two ops that want them in different layouts).  Parsing is timed separately.  Ops are the ops of
the function that are not mesh ops (linalg bodies not counted).  `agree`
compares the layout of every value (mesh_dialect.interop, see
docs/propagation.md): results we keep partial, which upstream cannot express,
and values upstream's single sweep leaves unannotated are counted apart.
Usage:
    .venv/bin/python bench/propagation.py [--sizes 1000,10000,100000] [--quick]
        [--traversal forward] [--solver cost|sweep] [--repeat 1]
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from mlir import ir, passmanager

import mesh_dialect
from mesh_dialect.interop import compare, to_upstream, value_shardings
from mesh_dialect.interop.upstream import TRAVERSALS
from mesh_dialect.transforms import ShardingPropagation

# Upstream's backward sweep aborts on a value whose users want it in
# different layouts (the softmax's scores feed both the max and the exp), so
# the comparison runs forward sweeps; --traversal picks another.
TRAVERSAL = "forward"

_RELU = """\
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32"""

# One MLP layer pair: 10 ops (empty, fill, matmul, empty, generic, twice).
_MLP_LAYER = """\
  %ea{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %fa{i} = linalg.fill ins(%zero : f32) outs(%ea{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %wa{i}s = mesh.shard %wa{i} to %cols annotate_for_users : tensor<{d}x{d}xf32>
  %ma{i} = linalg.matmul ins(%h{i}, %wa{i}s : tensor<{b}x{d}xf32>, tensor<{d}x{d}xf32>) outs(%fa{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %ra{i}e = tensor.empty() : tensor<{b}x{d}xf32>
  %ra{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}} ins(%ma{i} : tensor<{b}x{d}xf32>) outs(%ra{i}e : tensor<{b}x{d}xf32>) {{
{relu}
  }} -> tensor<{b}x{d}xf32>
  %eb{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %fb{i} = linalg.fill ins(%zero : f32) outs(%eb{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %wb{i}s = mesh.shard %wb{i} to %rows annotate_for_users : tensor<{d}x{d}xf32>
  %mb{i} = linalg.matmul ins(%ra{i}, %wb{i}s : tensor<{b}x{d}xf32>, tensor<{d}x{d}xf32>) outs(%fb{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %rb{i}e = tensor.empty() : tensor<{b}x{d}xf32>
  %h{j} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}} ins(%mb{i} : tensor<{b}x{d}xf32>) outs(%rb{i}e : tensor<{b}x{d}xf32>) {{
{relu}
  }} -> tensor<{b}x{d}xf32>
"""
MLP_OPS_PER_LAYER = 10

# One transformer-like block: 18 ops.
_BLOCK = """\
  %hs{i} = mesh.shard %h{i} to %rows : tensor<{b}x{d}xf32>
  %qe{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %qf{i} = linalg.fill ins(%zero : f32) outs(%qe{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %wq{i}s = mesh.shard %wq{i} to %cols annotate_for_users : tensor<{d}x{d}xf32>
  %q{i} = linalg.matmul ins(%hs{i}, %wq{i}s : tensor<{b}x{d}xf32>, tensor<{d}x{d}xf32>) outs(%qf{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %xe{i} = tensor.empty() : tensor<{b}xf32>
  %xf{i} = linalg.fill ins(%ninf : f32) outs(%xe{i} : tensor<{b}xf32>) -> tensor<{b}xf32>
  %mx{i} = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}} ins(%q{i} : tensor<{b}x{d}xf32>) outs(%xf{i} : tensor<{b}xf32>) {{
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maximumf %v, %acc : f32
    linalg.yield %r : f32
  }} -> tensor<{b}xf32>
  %pe{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %p{i} = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}} ins(%q{i}, %mx{i} : tensor<{b}x{d}xf32>, tensor<{b}xf32>) outs(%pe{i} : tensor<{b}x{d}xf32>) {{
  ^bb0(%v: f32, %m: f32, %o: f32):
    %s = arith.subf %v, %m : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  }} -> tensor<{b}x{d}xf32>
  %se{i} = tensor.empty() : tensor<{b}xf32>
  %sf{i} = linalg.fill ins(%zero : f32) outs(%se{i} : tensor<{b}xf32>) -> tensor<{b}xf32>
  %sm{i} = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}} ins(%p{i} : tensor<{b}x{d}xf32>) outs(%sf{i} : tensor<{b}xf32>) {{
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }} -> tensor<{b}xf32>
  %ne{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %n{i} = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}} ins(%p{i}, %sm{i} : tensor<{b}x{d}xf32>, tensor<{b}xf32>) outs(%ne{i} : tensor<{b}x{d}xf32>) {{
  ^bb0(%v: f32, %t: f32, %o: f32):
    %r = arith.divf %v, %t : f32
    linalg.yield %r : f32
  }} -> tensor<{b}x{d}xf32>
  %oe{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %of{i} = linalg.fill ins(%zero : f32) outs(%oe{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %wo{i}s = mesh.shard %wo{i} to %rows_w annotate_for_users : tensor<{d}x{d}xf32>
  %o{i} = linalg.matmul ins(%n{i}, %wo{i}s : tensor<{b}x{d}xf32>, tensor<{d}x{d}xf32>) outs(%of{i} : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
  %ae{i} = tensor.empty() : tensor<{b}x{d}xf32>
  %h{j} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}} ins(%o{i}, %hs{i} : tensor<{b}x{d}xf32>, tensor<{b}x{d}xf32>) outs(%ae{i} : tensor<{b}x{d}xf32>) {{
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.addf %v, %w : f32
    linalg.yield %r : f32
  }} -> tensor<{b}x{d}xf32>
"""
BLOCK_OPS = 18

_HEADER = """\
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
"""


def mlp(n_ops: int, b: int = 8, d: int = 16) -> tuple[str, int]:
    """About `n_ops` ops of MLP layer pairs; returns (text, ops counted as
    `value_shardings` counts them: every non-mesh op of the function)."""
    layers = max(1, n_ops // MLP_OPS_PER_LAYER)
    weights = ", ".join(f"%wa{i}: tensor<{d}x{d}xf32>, %wb{i}: tensor<{d}x{d}xf32>" for i in range(layers))
    body = "".join(_MLP_LAYER.format(i=i, j=i + 1, b=b, d=d, relu=_RELU) for i in range(layers))
    text = (
        _HEADER + "mesh.mesh @mesh(shape = 4)\n"
        f"func.func @mlp(%h0: tensor<{b}x{d}xf32>, {weights}) -> tensor<{b}x{d}xf32> {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        "  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding\n"
        "  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding\n"
        f"{body}  return %h{layers} : tensor<{b}x{d}xf32>\n}}\n"
    )
    return text, layers * MLP_OPS_PER_LAYER + 2


def transformer(n_ops: int, b: int = 8, d: int = 16) -> tuple[str, int]:
    blocks = max(1, n_ops // BLOCK_OPS)
    weights = ", ".join(f"%wq{i}: tensor<{d}x{d}xf32>, %wo{i}: tensor<{d}x{d}xf32>" for i in range(blocks))
    body = "".join(_BLOCK.format(i=i, j=i + 1, b=b, d=d) for i in range(blocks))
    text = (
        _HEADER + "mesh.mesh @mesh(shape = 2x2)\n"
        f"func.func @blocks(%h0: tensor<{b}x{d}xf32>, {weights}) -> tensor<{b}x{d}xf32> {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        "  %ninf = arith.constant 0xFF800000 : f32\n"
        "  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding\n"
        "  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding\n"
        "  %rows_w = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding\n"
        f"{body}  return %h{blocks} : tensor<{b}x{d}xf32>\n}}\n"
    )
    return text, blocks * BLOCK_OPS + 3


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


SOLVER = "cost"
"""Our pass's solver (`--solver`): the traversal only matters to `sweep`."""


def run_ours(text: str, traversal: str) -> tuple[float, float, ir.Operation]:
    """(parse seconds, pass seconds, module)."""
    ctx = mesh_dialect.context()
    t_parse, module = timed(lambda: mesh_dialect.parse(text, context=ctx, verify=False))
    pm = passmanager.PassManager("builtin.module", context=ctx)
    ShardingPropagation(solver=SOLVER, traversal=traversal).add_to(pm)
    with ctx, ir.Location.unknown():
        t_pass, _ = timed(lambda: pm.run(module))
    return t_parse, t_pass, module


def run_upstream(text: str, traversal: str) -> tuple[float, float, ir.Module]:
    ctx = ir.Context()
    t_parse, module = timed(lambda: ir.Module.parse(text, ctx))
    pm = passmanager.PassManager.parse(f"builtin.module(func.func(sharding-propagation{{traversal={traversal}}}))", ctx)
    t_pass, _ = timed(lambda: pm.run(module.operation))
    return t_parse, t_pass, module


def agreement(ours: dict, theirs: dict) -> str:
    """`yes`, or the number of differing values (`value_shardings` of each
    output) by reason: a result kept partial (upstream cannot say partial),
    a value one sweep did not reach (upstream left it unannotated),
    anything else."""
    diffs = compare(ours, theirs)
    if not diffs:
        return "yes"
    partial = sum(1 for d in diffs if " partial = " in d.ours and d.ours.split(" partial = ")[0] == d.theirs)
    unreached = sum(1 for d in diffs if d.theirs == "none")
    other = len(diffs) - partial - unreached
    reasons = [f"{partial} partial"] if partial else []
    reasons += [f"{unreached} not reached by upstream"] if unreached else []
    reasons += [f"{other} other"] if other else []
    return f"no: {len(diffs)} ({', '.join(reasons)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--quick", action="store_true", help="1000 ops only")
    ap.add_argument("--traversal", default=TRAVERSAL, choices=TRAVERSALS)
    ap.add_argument("--solver", default="cost", choices=("cost", "sweep"), help="our pass's solver")
    ap.add_argument("--repeat", type=int, default=1, help="best of this many runs of each pass")
    args = ap.parse_args()
    global SOLVER
    SOLVER = args.solver
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    rows = []
    for kind, make in (("mlp", mlp), ("transformer", transformer)):
        for n in sizes:
            text, n_ops = make(n)
            up_text = to_upstream(text)
            best = [float("inf")] * 4  # parse and pass, ours then upstream
            for rep in range(args.repeat):
                # Each run starts with no module of an earlier run alive: one
                # kept alive slows the next run of either pass by a third.
                last = rep == args.repeat - 1
                p_ours, t_ours, module = run_ours(text, args.traversal)
                ours = value_shardings(module, "mesh") if last else {}
                del module
                gc.collect()
                p_up, t_up, module = run_upstream(up_text, args.traversal)
                theirs = value_shardings(module, "shard") if last else {}
                del module
                gc.collect()
                best = [min(a, b) for a, b in zip(best, (p_ours, t_ours, p_up, t_up))]
            p_ours, best_ours, p_up, best_up = best
            rows.append((kind, n_ops, p_ours, best_ours, p_up, best_up, agreement(ours, theirs)))
            print(f"  {kind} {n_ops} ops: ours {best_ours:.3f} s, upstream {best_up:.4f} s", flush=True)

    print()
    print(
        f"ours: solver={args.solver}; upstream: traversal={args.traversal}; seconds, best of {args.repeat}; pass times exclude parsing"
    )
    print()
    print("| program | ops | ours (s) | ours ops/s | upstream (s) | ratio | agree | parse: ours / upstream (s) |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for kind, n, p_ours, ours, p_up, up, agree in rows:
        print(
            f"| {kind} | {n} | {ours:.3f} | {n / ours:,.0f} | {up:.4f} | {ours / up:.1f}x | {agree} |"
            f" {p_ours:.2f} / {p_up:.3f} |"
        )


if __name__ == "__main__":
    main()
