"""`sharding-propagation` then `mesh-partition` on N-layer MLPs of about 1k,
10k and 100k ops, against upstream's C++ passes on the same program.

The program (our spelling, linalg on tensors): per layer
    x @ W1 (linalg.matmul) -> relu (linalg.generic) -> @ W2 (linalg.matmul),
with 8x64 activations, 64x128 W1 and 128x64 W2 (every layer has its own
weights, function arguments), 1-D weight-stationary on a 1-D mesh of 4
devices: W1 annotated split on its columns, W2 on its rows, the input
annotated replicated (or `--input split`: split on its features), the result
annotated replicated; the activations' layouts are left to propagation.

Measured in one run:
  * ours      `mesh_dialect.parse` (timed on its own), then
              `ShardingPropagation` and `MeshPartition` through
              `mlir.passmanager.PassManager`, each timed on its own;
  * upstream  the program renamed to upstream's `shard` dialect
              (`interop.upstream.to_upstream`), parsed in a plain context of
              a child process, then `func.func(sharding-propagation)` and
              `func.func(shard-partition)` (each timed, parse excluded); the
              child may abort on patterns upstream does not handle, and the
              size then "fails".
Collectives and the bytes a device receives are counted per layer from each
partitioned output with the planner's cost model
(`mesh_dialect.sharding.resharding`). No simulation.
Usage: .venv/bin/python bench/partition.py [--quick] [--sizes 1000,10000,100000] [--repeat 1]
                                           [--input replicated|split] [--no-upstream] [--profile N]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time

from mlir import ir
from mlir.passmanager import PassManager
from traffic import traffic  # bench/traffic.py, beside this script

import mesh_dialect
from mesh_dialect.transforms import MeshPartition

BATCH, FEATURES, HIDDEN = 8, 64, 128
MESH = (4,)
# Ops per layer as MLIR counts them (a walk), the bodies of linalg's named ops
# included: 2 mesh.shard, 3 tensor.empty, 2 linalg.fill (+ yield), 2
# linalg.matmul (+ mulf, addf, yield), linalg.generic (+ maximumf, yield).
OPS_PER_LAYER = 20
FIXED_OPS = 10  # module, mesh, func, 3 shardings, constant, input and output shard, return

# -- the program ------------------------------------------------------------------


def program(layers: int, input_layout: str = "replicated") -> str:
    x = f"tensor<{BATCH}x{FEATURES}xf32>"
    h = f"tensor<{BATCH}x{HIDDEN}xf32>"
    w1 = f"tensor<{FEATURES}x{HIDDEN}xf32>"
    w2 = f"tensor<{HIDDEN}x{FEATURES}xf32>"
    args = [f"%x: {x}"] + [f"%w1_{i}: {w1}, %w2_{i}: {w2}" for i in range(layers)]
    first = "%rep" if input_layout == "replicated" else "%col"
    out = [
        "#map = affine_map<(d0, d1) -> (d0, d1)>",
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, MESH))})",
        f"func.func @mlp({', '.join(args)}) -> {x} {{",
        "  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding",
        "  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding",
        "  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding",
        "  %zero = arith.constant 0.0 : f32",
        f"  %a0 = mesh.shard %x to {first} : {x}",
    ]
    for i in range(layers):
        out.append(
            f"""\
  %v1_{i} = mesh.shard %w1_{i} to %col annotate_for_users : {w1}
  %e1_{i} = tensor.empty() : {h}
  %f1_{i} = linalg.fill ins(%zero : f32) outs(%e1_{i} : {h}) -> {h}
  %m1_{i} = linalg.matmul ins(%a{i}, %v1_{i} : {x}, {w1}) outs(%f1_{i} : {h}) -> {h}
  %e2_{i} = tensor.empty() : {h}
  %r_{i} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}}
      ins(%m1_{i} : {h}) outs(%e2_{i} : {h}) {{
  ^bb0(%in: f32, %acc: f32):
    %relu = arith.maximumf %in, %zero : f32
    linalg.yield %relu : f32
  }} -> {h}
  %v2_{i} = mesh.shard %w2_{i} to %row annotate_for_users : {w2}
  %e3_{i} = tensor.empty() : {x}
  %f3_{i} = linalg.fill ins(%zero : f32) outs(%e3_{i} : {x}) -> {x}
  %a{i + 1} = linalg.matmul ins(%r_{i}, %v2_{i} : {h}, {w2}) outs(%f3_{i} : {x}) -> {x}"""
        )
    out += [f"  %out = mesh.shard %a{layers} to %rep annotate_for_users : {x}", f"  return %out : {x}", "}", ""]
    return "\n".join(out)


def layers_for(n_ops: int) -> int:
    return max(1, round((n_ops - FIXED_OPS) / OPS_PER_LAYER))


def count_ops(module: ir.Operation) -> int:
    n = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal n
        n += 1
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return n


# -- collectives and their bytes ----------------------------------------------------

# -- ours -------------------------------------------------------------------------


def run_ours(text: str, profile: bool = False) -> dict:
    out: dict = {"ok": False}
    ctx = mesh_dialect.context()
    t0 = time.perf_counter()
    module = mesh_dialect.parse(text, filename="mlp.mlir", context=ctx)
    out["parse"] = time.perf_counter() - t0
    out["ops"] = count_ops(module)
    prof = cProfile.Profile() if profile else None
    for key, pass_ in (("propagate", mesh_dialect.ShardingPropagation()), ("partition", MeshPartition())):
        pm = PassManager("builtin.module", context=ctx)
        pass_.add_to(pm)
        t0 = time.perf_counter()
        try:
            if prof is not None:
                prof.enable()
            with ctx:
                pm.run(module)
        except ir.MLIRError as e:
            first = e.error_diagnostics[0].message if e.error_diagnostics else str(e)
            out["error"] = f"{key}: {first.splitlines()[0]}"
            return out
        finally:
            if prof is not None:
                prof.disable()
            out[key] = time.perf_counter() - t0
    out["ok"] = True
    out["ir"] = mesh_dialect.print_ir(module)
    if prof is not None:
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(25)
        out["profile"] = buf.getvalue()
    return out


# -- upstream, in a child process -----------------------------------------------------


def to_upstream(text: str) -> str:
    """The program in upstream's spelling: `interop.upstream.to_upstream`
    when it imports, else the few renames this program needs."""
    try:
        from mesh_dialect.interop.upstream import to_upstream as rename
    except ImportError:
        return (
            text.replace("mesh.mesh @", "shard.grid @")
            .replace("!mesh.sharding", "!shard.sharding")
            .replace("mesh.sharding @", "shard.sharding @")
            .replace("mesh.shard %", "shard.shard %")
        )
    return rename(text)


UPSTREAM = r"""
import json, sys, time
from mlir import ir, passmanager
def hwm():
    # VmHWM is per address space (ru_maxrss would carry the parent's over fork and exec)
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]) * 1024
src, dst = sys.argv[1], sys.argv[2]
base = hwm()
with ir.Context() as ctx:
    ctx.enable_multithreading(False)
    module = ir.Module.parse(open(src).read())
    times = {}
    for key, pipeline in (("propagate", "builtin.module(func.func(sharding-propagation))"),
                          ("partition", "builtin.module(func.func(shard-partition))")):
        pm = passmanager.PassManager.parse(pipeline)
        t0 = time.perf_counter()
        pm.run(module.operation)
        times[key] = time.perf_counter() - t0
    with open(dst, "w") as f:
        f.write(str(module))
times["rss_base"] = base
times["rss_peak"] = hwm()
print(json.dumps(times))
"""


def run_upstream(text: str, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.mlir"), os.path.join(tmp, "out.mlir")
        with open(src, "w") as f:
            f.write(text)
        try:
            proc = subprocess.run(
                [sys.executable, "-c", UPSTREAM, src, dst], capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": f"timed out after {timeout:.0f} s"}
        if proc.returncode != 0:
            lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
            why = next((ln for ln in lines if "Assertion" in ln or "error" in ln.lower()), lines[-1] if lines else "")
            why = re.sub(r"^.*Assertion `(.*)' failed.*$", r"\1", why)
            return {"ok": False, "error": f"exit {proc.returncode}: {why.strip()[:200]}"}
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        with open(dst) as f:
            result["ir"] = f.read()
        result["ok"] = True
        return result


def run_ours_child(text: str, timeout: float) -> dict:
    """Our passes in a fresh process, for its peak resident memory (Linux
    reports the high-water mark per process; the baseline is taken after the
    bindings and the package are imported, as upstream's child does)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.mlir")
        with open(src, "w") as f:
            f.write(text)
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", src], capture_output=True, text=True, timeout=timeout
        )
        if proc.returncode != 0:
            return {"ok": False, "error": proc.stderr.strip().splitlines()[-1:]}
        return json.loads(proc.stdout.strip().splitlines()[-1])


def high_water_mark() -> int:
    """Peak resident bytes of this address space (Linux VmHWM; unlike
    ru_maxrss it does not carry the parent's peak over fork and exec)."""
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith("VmHWM")).split()[1]) * 1024


def child(src: str) -> None:
    base = high_water_mark()
    with open(src) as f:
        r = run_ours(f.read())
    r.pop("ir", None)
    r["rss_base"] = base
    r["rss_peak"] = high_water_mark()
    print(json.dumps(r))


# -- the table ----------------------------------------------------------------------


def best(runs: list[dict]) -> dict:
    """The first run, with each phase's time the best over all runs; a
    failure if any run failed."""
    failed = [r for r in runs if not r["ok"]]
    if failed:
        return failed[0]
    out = dict(runs[0])
    for key in ("parse", "propagate", "partition"):
        if key in out:
            out[key] = min(r[key] for r in runs)
    return out


def per_layer(value: int, layers: int) -> str:
    v = value / layers
    return f"{v:,.0f}" if v == int(v) else f"{v:,.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000", help="approximate op counts (comma-separated)")
    ap.add_argument("--quick", action="store_true", help="1k ops only")
    ap.add_argument("--input", choices=("replicated", "split"), default="replicated", help="the input's annotation")
    ap.add_argument("--no-upstream", action="store_true", help="skip upstream's passes")
    ap.add_argument("--repeat", type=int, default=1, help="best of N runs per phase (each run parses anew)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds allowed to upstream's child process")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile our passes at about N ops")
    ap.add_argument("--memory", action="store_true", help="also run ours in a fresh process and report peak memory")
    ap.add_argument("--child", metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",")]

    if args.profile:
        r = run_ours(program(layers_for(args.profile), args.input), profile=True)
        print(r.get("profile", r.get("error", "")))
        return

    rows = []
    for n in sizes:
        layers = layers_for(n)
        text = program(layers, args.input)
        ours = best([run_ours(text) for _ in range(args.repeat)])
        up = (
            {"ok": False, "error": "skipped"}
            if args.no_upstream
            else best([run_upstream(to_upstream(text), args.timeout) for _ in range(args.repeat)])
        )
        if args.memory:
            mem = run_ours_child(text, args.timeout)
            ours["rss_base"], ours["rss_peak"] = mem.get("rss_base"), mem.get("rss_peak")
        rows.append((layers, ours, up))

    print(
        f"N-layer MLP (x@W1 -> relu -> @W2, {BATCH}x{FEATURES} activations, {FEATURES}x{HIDDEN} and "
        f"{HIDDEN}x{FEATURES} weights), 1-D weight-stationary on a mesh of {MESH[0]} devices, input "
        f"{args.input}; seconds, best of {args.repeat}; collectives and bytes a device receives per layer, ours / upstream"
    )
    print()
    print(
        "| layers | ops | ours parse (s) | ours propagate (s) | ours partition (s) | ours ops/s |"
        " upstream (s) | ratio | collectives per layer | bytes per layer |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    for layers, ours, up in rows:
        ops = ours.get("ops", "?")
        if ours["ok"]:
            passes = ours["propagate"] + ours["partition"]
            c_ours, b_ours, k_ours = traffic(ours["ir"], MESH)
            ours_cols = f"{ours['parse']:.3f} | {ours['propagate']:.3f} | {ours['partition']:.3f} | {ops / passes:,.0f}"
        else:
            passes = None
            ours_cols = f"{ours.get('parse', 0):.3f} | fails | fails | -"
            notes.append(f"ours at {ops} ops: {ours['error']}")
        if up["ok"]:
            t_up = up["propagate"] + up["partition"]
            c_up, b_up, k_up = traffic(up["ir"], MESH)
            up_col = f"{t_up:.3f}"
            ratio = f"{passes / t_up:.1f}x" if passes else "-"
            notes.append(f"upstream at {ops} ops: propagate {up['propagate']:.3f} s, partition {up['partition']:.3f} s")
        else:
            up_col, ratio = ("n/a", "-") if args.no_upstream else ("fails", "-")
            if not args.no_upstream:
                notes.append(f"upstream at {ops} ops: {up['error']}")
        coll = (
            (per_layer(c_ours, layers) if ours["ok"] else "-") + " / " + (per_layer(c_up, layers) if up["ok"] else "-")
        )
        byts = (
            (per_layer(b_ours, layers) if ours["ok"] else "-") + " / " + (per_layer(b_up, layers) if up["ok"] else "-")
        )
        print(f"| {layers} | {ops} | {ours_cols} | {up_col} | {ratio} | {coll} | {byts} |")
        kinds = []
        if ours["ok"]:
            kinds.append("ours " + ", ".join(f"{v} {k}" for k, v in sorted(k_ours.items())))
        if up["ok"]:
            kinds.append("upstream " + ", ".join(f"{v} {k}" for k, v in sorted(k_up.items())))
        if kinds:
            notes.append(f"collectives at {ops} ops: " + "; ".join(kinds))
    print()
    for note in notes:
        print(note)
    if args.memory:
        mib = 1 << 20
        print()
        print("Peak resident memory of the whole process (MiB): after importing the bindings (and, for ours, the")
        print("package), and at the end of parse + propagate + partition + print; growth is the difference.")
        print()
        print(
            "| layers | ops | ours base | ours peak | ours growth | upstream base | upstream peak | upstream growth | peak ratio | growth ratio |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for layers, ours, up in rows:
            if not (ours.get("rss_peak") and up.get("ok")):
                continue
            og, ug = ours["rss_peak"] - ours["rss_base"], up["rss_peak"] - up["rss_base"]
            print(
                f"| {layers} | {ours.get('ops', '?')} | {ours['rss_base'] / mib:.0f} | {ours['rss_peak'] / mib:.0f} | {og / mib:.0f} |"
                f" {up['rss_base'] / mib:.0f} | {up['rss_peak'] / mib:.0f} | {ug / mib:.0f} |"
                f" {ours['rss_peak'] / up['rss_peak']:.1f}x | {f'{og / ug:.1f}x' if ug > 0 else '-'} |"
            )


if __name__ == "__main__":
    main()
