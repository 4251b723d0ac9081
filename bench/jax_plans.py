"""Plan quality on programs written in JAX: ours, through the JAX frontend,
against XLA's compiled plan of the same export, and our result against
JAX's own.

The programs are the frontend's checked-in exports
(`test/Frontends/Inputs/`, written with JAX 0.10.2 by `generate.py` there,
which says what each is for), on the mesh ("data"=2, "model"=4). Per
program and flavour (Shardy, GSPMD), in one run:
  * ours   `mesh_dialect.parse` of the export, then `ImportShardings`,
           `PrepareWindows`, `ShardingPropagation`, `MeshPartition` and
           `MeshOptimizeCollectives`; collectives and bytes a device receives
           as `traffic.py` counts them; the partitioned program run by the
           simulator on the saved inputs, each result compared with JAX's
           (largest difference over the largest magnitude, 0 when integers
           are equal).
  * XLA    the header of `NAME.FLAVOUR.xla-collectives.txt`: the compiled
           HLO's collectives, counted as `xla_plans.py` counts them.
The table counts each op twice over: once as written (a collective in a
loop body once, whatever the trip count), and as often as it runs (ours
by mesh-analysis, which follows each device's loops; XLA's by each while
loop's known trip count).  Usage:
    .venv/bin/python bench/jax_plans.py [--flavour shardy|gspmd] [--only NAME,...] [--show NAME]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.analysis import analyze
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import (
    ImportShardings,
    MeshOptimizeCollectives,
    MeshPartition,
    PrepareWindows,
    ShardingPropagation,
)

sys.path.insert(0, str(Path(__file__).parent))
from traffic import DynamicSize, traffic  # noqa: E402

INPUTS = Path(__file__).resolve().parents[1] / "test" / "Frontends" / "Inputs"
MESH = (2, 4)


def names() -> list[str]:
    """The exported programs, in the order their files sort."""
    return sorted({p.name.split(".")[0] for p in INPUTS.glob("*.shardy.mlir")})


def saved(name: str, what: str) -> list[np.ndarray]:
    """A program's saved inputs (`arg`) or JAX's results (`result`), in order."""
    out = []
    while (path := INPUTS / f"{name}.{what}{len(out)}.npy").exists():
        out.append(np.load(path))
    return out


def xla_header(name: str, flavour: str) -> dict[str, Any]:
    """XLA's plan of the export: its collectives' count, bytes and kinds."""
    text = (INPUTS / f"{name}.{flavour}.xla-collectives.txt").read_text()
    count = re.search(r"^# collectives: (\d+)$", text, re.M)
    nbytes = re.search(r"^# bytes a device receives: (\d+)$", text, re.M)
    in_run = re.search(r"^# bytes a device receives in a run, loop bodies times their trips: (\d+)$", text, re.M)
    assert count and nbytes and in_run, text
    kinds: dict[str, int] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            kind = line.split()[0].replace("-", "_")
            kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "collectives": int(count.group(1)),
        "bytes": int(nbytes.group(1)),
        "run": int(in_run.group(1)),
        "kinds": kinds,
    }


def priced(text: str, shape: tuple[int, ...]) -> tuple[int, int, dict[str, int]]:
    """(collectives, bytes a device receives, {kind: count}) of a partitioned
    program: `traffic.py`'s model, or where a collective's type has `?` sizes
    (pieces of unequal sizes), mesh-analysis's busiest device, which follows
    each device's sizes and counts as the simulator does."""
    try:
        found = traffic(text, shape)
    except DynamicSize:
        module = mesh_dialect.parse(text, context=mesh_dialect.context(allow_unregistered_dialects=True))
        device = busiest(module)
        kinds = {k: n for k, n in device.collectives.items() if k != "all_slice"}
        return sum(kinds.values()), device.bytes_received, kinds
    assert found is not None
    return found


def busiest(module: Any) -> Any:
    """mesh-analysis's device of @main that receives the most bytes, each
    collective counted as often as it runs (the analysis follows loops)."""
    function = next(f for f in analyze(module).functions if f.name == "main")
    return max(function.devices, key=lambda d: d.bytes_received)


def partitioned(name: str, flavour: str) -> Any:
    """The export, imported, its windows prepared, propagated, partitioned
    and its collectives optimized."""
    path = INPUTS / f"{name}.{flavour}.mlir"
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(path.read_text(), filename=str(path), context=ctx)
    pm = PassManager("builtin.module", context=ctx)
    for p in (ImportShardings(), PrepareWindows(), ShardingPropagation(), MeshPartition(), MeshOptimizeCollectives()):
        p.add_to(pm)
    with ctx:
        pm.run(module)
    return module


def measure(name: str, flavour: str) -> dict[str, Any]:
    """Our plan's collectives and bytes, and how far its results are from JAX's."""
    module = partitioned(name, flavour)
    count, moved, kinds = priced(mesh_dialect.print_ir(module), MESH)
    in_run = busiest(module).bytes_received
    ours = Simulation(module, mesh="mesh").run("main", saved(name, "arg"), spmd=True)
    error = 0.0
    for result, expected in zip(ours, saved(name, "result"), strict=True):
        scale = float(np.max(np.abs(expected))) or 1.0
        error = max(error, float(np.max(np.abs(np.asarray(result, np.float64) - expected))) / scale)
    return {"collectives": count, "bytes": moved, "run": in_run, "kinds": kinds, "error": error}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flavour", choices=("shardy", "gspmd"), default="shardy")
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--show", metavar="NAME", help="print our partitioned program and stop")
    args = ap.parse_args()
    if args.show:
        print(mesh_dialect.print_ir(partitioned(args.show, args.flavour)))
        return 0
    chosen = [n for n in args.only.split(",") if n] or names()
    print(
        f"flavour: {args.flavour}; collectives as written / bytes a device receives, each op counted once; "
        "then bytes a device receives in a run (a loop body's ops times the loop's trips)\n"
    )
    print("| program | ours | XLA | ours / XLA | in a run: ours | XLA | ours / XLA | JAX's results |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    worse: dict[str, list[str]] = {"bytes": [], "run": []}
    for name in chosen:
        ours, xla = measure(name, args.flavour), xla_header(name, args.flavour)
        cells = []
        for key in ("bytes", "run"):
            if ours[key] == xla[key]:
                cells.append("=")
            else:
                cells.append(f"{ours[key] / xla[key]:.2f}" if xla[key] else "more")
            if ours[key] > xla[key]:
                worse[key].append(name)
        print(
            f"| {name} | {ours['collectives']} / {ours['bytes']:,} | {xla['collectives']} / {xla['bytes']:,} "
            f"| {cells[0]} | {ours['run']:,} | {xla['run']:,} | {cells[1]} | equal to {ours['error']:.0e} |"
        )
    print()
    for key, how in (("bytes", "each op counted once"), ("run", "in a run")):
        found = worse[key]
        print(
            f"{len(chosen)} programs; {how}, ours moves more than XLA on {len(found)}"
            f"{': ' if found else ''}{', '.join(found)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
