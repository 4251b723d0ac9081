"""The simulator and the MPI backend on an N-layer MLP, against plain numpy.

A 2x4 mesh runs N layers of y = relu(x @ W1) @ W2 (256x256 weights, batch 64)
partitioned by hand: rows of x over mesh axis 0, W1's columns and W2's rows
over axis 1, one all_reduce per layer. Measured in one run:
  * numpy       the same computation on one device, plain numpy;
  * simulator   every device of the mesh in one process (`Simulation.run`);
  * mpi         8 processes under mpiexec (`sim.mpi.run_mpi`), if installed.
Usage: .venv/bin/python bench/simulate.py [--layers 10,100,1000] [--no-mpi]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import mesh_dialect
from mesh_dialect.sim.api import Simulation

BATCH, WIDTH = 64, 256
OPS_PER_LAYER = 6  # fill, matmul, maximumf, fill, matmul, all_reduce


def program(layers: int) -> str:
    rows, cols = BATCH // 2, WIDTH // 4
    body = []
    for i in range(layers):
        body.append(f"""\
  %h{i} = linalg.matmul ins(%x{i}, %w1 : tensor<{rows}x{WIDTH}xf32>, tensor<{WIDTH}x{cols}xf32>) outs(%acc1 : tensor<{rows}x{cols}xf32>) -> tensor<{rows}x{cols}xf32>
  %r{i} = arith.maximumf %h{i}, %acc1 : tensor<{rows}x{cols}xf32>
  %p{i} = linalg.matmul ins(%r{i}, %w2 : tensor<{rows}x{cols}xf32>, tensor<{cols}x{WIDTH}xf32>) outs(%acc2 : tensor<{rows}x{WIDTH}xf32>) -> tensor<{rows}x{WIDTH}xf32>
  %x{i + 1} = mesh.all_reduce %p{i} on @mesh mesh_axes = [1] : tensor<{rows}x{WIDTH}xf32> -> tensor<{rows}x{WIDTH}xf32>
""")
    return f"""\
mesh.mesh @mesh(shape = 2x4)
func.func @mlp(%x0: tensor<{rows}x{WIDTH}xf32> {{mesh.sharding = #mesh.sharding<@mesh, [[0]]>}},
               %w1: tensor<{WIDTH}x{cols}xf32> {{mesh.sharding = #mesh.sharding<@mesh, [[], [1]]>}},
               %w2: tensor<{cols}x{WIDTH}xf32> {{mesh.sharding = #mesh.sharding<@mesh, [[1]]>}})
    -> (tensor<{rows}x{WIDTH}xf32> {{mesh.sharding = #mesh.sharding<@mesh, [[0]]>}}) {{
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<{rows}x{cols}xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<{rows}x{cols}xf32>) -> tensor<{rows}x{cols}xf32>
  %e2 = tensor.empty() : tensor<{rows}x{WIDTH}xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<{rows}x{WIDTH}xf32>) -> tensor<{rows}x{WIDTH}xf32>
{"".join(body)}  return %x{layers} : tensor<{rows}x{WIDTH}xf32>
}}
"""


def numpy_mlp(x, w1, w2, layers: int) -> np.ndarray:
    for _ in range(layers):
        x = np.maximum(x @ w1, 0) @ w2
    return x


def inputs(seed: int = 0):
    rng = np.random.default_rng(seed)
    # Scaled so that activations stay in range over a thousand layers.
    x = rng.standard_normal((BATCH, WIDTH)).astype(np.float32)
    w1 = (rng.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH)).astype(np.float32)
    w2 = (rng.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH) * 1.4).astype(np.float32)
    return x, w1, w2


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", default="10,100,1000")
    ap.add_argument("--no-mpi", action="store_true")
    args = ap.parse_args()
    mpi = None
    if not args.no_mpi:
        try:
            from mesh_dialect.sim import mpi
        except ImportError:
            mpi = None
    rows = []
    for layers in (int(n) for n in args.layers.split(",")):
        text = program(layers)
        x, w1, w2 = inputs()
        t_np, want = timed(numpy_mlp, x, w1, w2, layers)
        ctx = mesh_dialect.context()
        module = mesh_dialect.parse(text, context=ctx)
        with ctx:
            sim = Simulation(module)
            t_sim, (got,) = timed(sim.run, "mlp", [x, w1, w2])
            sig = sim.signature("mlp")
        err_sim = float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))
        t_mpi = err_mpi = None
        if mpi is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "mlp.mlir")
                with open(path, "w") as f:
                    f.write(text)
                t_mpi, (got_mpi,) = timed(
                    mpi.run_mpi,
                    path,
                    "mlp",
                    mesh="mesh",
                    inputs=[x, w1, w2],
                    arg_shardings=sig.arg_shardings,
                    result_shardings=sig.result_shardings,
                    np_procs=8,
                )
            err_mpi = float(np.max(np.abs(got_mpi - got)))
        rows.append((layers, layers * OPS_PER_LAYER + 5, t_np, t_sim, err_sim, t_mpi, err_mpi))

    print(f"N-layer MLP, {BATCH}x{WIDTH} activations, {WIDTH}x{WIDTH} weights, 2x4 mesh (8 devices)")
    print()
    print(
        "| layers | ops | numpy, 1 device (s) | simulator (s) | overhead | µs per op per device |"
        " rel. error | mpi, 8 processes (s) | overhead | mpi vs simulator |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for layers, ops, t_np, t_sim, err_sim, t_mpi, err_mpi in rows:
        per_op = (t_sim - t_np) / (ops * 8) * 1e6
        mpi_cols = f"{t_mpi:.2f} | {t_mpi / t_np:.0f}x | max diff {err_mpi:g}" if t_mpi is not None else "n/a | | "
        print(
            f"| {layers} | {ops} | {t_np:.3f} | {t_sim:.2f} | {t_sim / t_np:.0f}x | {per_op:.0f} |"
            f" {err_sim:.1e} | {mpi_cols} |"
        )


if __name__ == "__main__":
    main()
