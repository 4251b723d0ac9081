"""Parse, verify and print modules of 1k, 10k and 100k mesh ops.

Measured in one run, on the same program:
  * ours      `mesh-opt in.mlir -o out.mlir` (custom syntax in and out), and
              the same work in-process, split into its phases;
  * upstream  `mlir-opt` on the program renamed to upstream's C++ `shard`
              dialect (custom syntax in and out: the reference), and
              `mlir-opt --allow-unregistered-dialect` on our generic form.
Times are the best of `--repeat` runs. Usage:
    .venv/bin/python bench/parse_print.py [--sizes 1000,10000,100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mlir import ir

from mesh_dialect.ir.asm import parse, print_ir, wrapper_insertions
from mesh_dialect.ir.dialect import load_dialect
from mesh_dialect.ir.syntax import to_generic
from mesh_dialect.ir.verifier import check

# One layer: 12 mesh ops whose shapes agree with a 2x4 mesh.
_LAYER = """\
    %s{i} = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
    %a{i} = mesh.shard %x{i} to %s{i} : tensor<8x16xf32>
    %b{i} = mesh.shard %a{i} to %s{i} annotate_for_users : tensor<8x16xf32>
    %c{i} = mesh.all_gather %b{i} on @m mesh_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
    %d{i} = mesh.all_slice %c{i} on @m mesh_axes = [1] slice_axis = 1 : tensor<8x64xf32> -> tensor<8x16xf32>
    %e{i} = mesh.all_reduce %d{i} on @m mesh_axes = [0] reduction = <max> : tensor<8x16xf32> -> tensor<8x16xf32>
    %f{i} = mesh.all_to_all %e{i} on @m mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
    %g{i} = mesh.all_to_all %f{i} on @m mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<2x64xf32> -> tensor<8x16xf32>
    %h{i} = mesh.reduce_scatter %g{i} on @m mesh_axes = [0] scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
    %k{i} = mesh.all_gather %h{i} on @m mesh_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
    %l{i} = mesh.shift %k{i} on @m mesh_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<8x16xf32> -> tensor<8x16xf32>
    %x{j} = mesh.broadcast %l{i} on @m mesh_axes = [0, 1] root = [1, 3] : (tensor<8x16xf32>) -> tensor<8x16xf32>
"""
OPS_PER_LAYER = 12


def program(n_ops: int) -> str:
    layers = max(1, n_ops // OPS_PER_LAYER)
    body = "".join(_LAYER.format(i=i, j=i + 1) for i in range(layers))
    return (
        "mesh.mesh @m(shape = 2x4)\n"
        "func.func @f(%x0: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
        f"{body}    return %x{layers} : tensor<8x16xf32>\n}}\n"
    )


def to_upstream(text: str) -> str:
    """The same program in upstream's spelling (mesh -> grid, shard dialect)."""
    return (
        text.replace("mesh.mesh @m", "shard.grid @m")
        .replace("mesh_axes", "grid_axes")
        .replace("!mesh.sharding", "!shard.sharding")
        .replace("reduction = <max>", "reduction = max")
        .replace("mesh.", "shard.")
    )


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def tool(package: str, name: str) -> str:
    import importlib

    base = list(importlib.import_module(package).__path__)[0]
    path = os.path.join(base, "bin", name)
    if not os.path.exists(path):
        sys.exit(f"bench: {name} not found (install the test extras: python3 dev.py setup)")
    return path


def phases(text: str, repeat: int) -> dict[str, float]:
    """In-process time of each phase of `mesh-opt` on one module."""
    out: dict[str, float] = {}
    wrap = wrapper_insertions(text)
    out["translate"] = best(lambda: to_generic(text, insertions=wrap), repeat)
    generic = to_generic(text, insertions=wrap).generic
    ctx = ir.Context()
    load_dialect(ctx)
    out["mlir parse+irdl"] = best(lambda: ir.Operation.parse(generic, source_name="b.mlir", context=ctx), repeat)
    with ctx:
        module = parse(text, filename="b.mlir", context=ctx, verify=False)
        # As parse() runs it: ops filled in from one line template checked once.
        order = to_generic(text, insertions=wrap).op_order()
        out["verify"] = best(lambda: check(module, order), repeat)
        out["print"] = best(lambda: print_ir(module, assume_verified=True), repeat)  # verified above
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    mesh_opt = shutil.which("mesh-opt", path=os.path.dirname(sys.executable)) or "mesh-opt"
    mlir_opt = tool("mlir", "mlir-opt")
    rows, phase_rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            text = program(n)
            n_ops = (n // OPS_PER_LAYER) * OPS_PER_LAYER + 1
            ours_in = Path(tmp, f"ours{n}.mlir")
            ours_in.write_text(text)
            up_in = Path(tmp, f"up{n}.mlir")
            up_in.write_text(to_upstream(text))
            generic_in = Path(tmp, f"gen{n}.mlir")
            run([mesh_opt, str(ours_in), "--mlir-print-op-generic", "-o", str(generic_in)])
            out = str(Path(tmp, "out.mlir"))
            ours_cmd = [mesh_opt, str(ours_in), "-o", out]
            up_cmd = [mlir_opt, str(up_in), "-o", out]
            gen_cmd = [mlir_opt, "--allow-unregistered-dialect", str(generic_in), "-o", out]
            t_ours, t_up, t_gen = (best(lambda c=c: run(c), args.repeat) for c in (ours_cmd, up_cmd, gen_cmd))
            rows.append((n_ops, t_ours, t_up, t_gen))
            phase_rows.append((n_ops, phases(text, args.repeat)))

    print(f"mesh ops per module: 12-op layers on a 2x4 mesh; best of {args.repeat}; wall seconds of the whole tool")
    print()
    print(
        "| mesh ops | mesh-opt (s) | ops/s | upstream mlir-opt, shard dialect (s) | ops/s | ratio |"
        " mlir-opt, generic unregistered (s) | ratio |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, ours, up, gen in rows:
        print(
            f"| {n} | {ours:.3f} | {n / ours:,.0f} | {up:.3f} | {n / up:,.0f} | {ours / up:.1f}x |"
            f" {gen:.3f} | {ours / gen:.1f}x |"
        )
    print()
    print("In-process phases of mesh-opt (seconds):")
    print()
    names = list(phase_rows[0][1])
    print("| mesh ops | " + " | ".join(names) + " | µs per op (total) |")
    print("|---:|" + "---:|" * (len(names) + 1))
    for n, ph in phase_rows:
        total = sum(ph.values())
        print(f"| {n} | " + " | ".join(f"{ph[k]:.3f}" for k in names) + f" | {total / n * 1e6:.1f} |")


if __name__ == "__main__":
    main()
