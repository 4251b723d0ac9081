"""Resharding plans for every pair of layouts of a 24x24 f32 tensor, ours
against upstream's C++ `shard-partition`.

For each mesh (6, 2x3, 2x2x2, 4x2) every split-axes assignment of the two
tensor dimensions (orders included; 24 divides by every piece count) is
paired with every other one, and:
  * ours      `plan_resharding`: bytes a device receives (max over devices)
              against the lower bound of `mesh_dialect.sharding.resharding`;
  * upstream  the same pair as `shard.shard %x to %s0` then `shard.shard %0
              to %s1 annotate_for_users` in a function, partitioned by
              `func.func(shard-partition)` of the MLIR Python bindings; the
              bytes its collectives receive are counted from the output IR
              with the same cost model, or the pair "fails" (a pass error or
              an abort: upstream asserts on patterns it does not handle, so
              every case runs in its own forked child of a worker process).
Ratios are bytes / lower bound over the pairs whose lower bound is not 0.

`--large` instead times single plans of a 65536x65536 f32 tensor on meshes
of 4,096 to 65,536 devices (ours: `plan_resharding`; upstream: its
`shard-partition` on the same change of layout, in a child process, pass
time only; it supports 1-D grids only).
Usage: .venv/bin/python bench/resharding.py [--quick] [--no-upstream] [--large]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import subprocess
import sys
import time

from traffic import traffic  # bench/traffic.py, beside this script

from mesh_dialect.sharding import Sharding
from mesh_dialect.sharding.resharding import all_split_layouts, plan_resharding

SHAPE = (24, 24)
ELEMENT_BYTES = 4
MESHES = [(6,), (2, 3), (2, 2, 2), (4, 2)]

# -- the worker: one forked child per upstream case ---------------------------------

WORKER = r"""
import json, os, sys
from mlir import ir, passmanager

def case(text):
    with ir.Context() as ctx:
        ctx.enable_multithreading(False)
        module = ir.Module.parse(text)
        pm = passmanager.PassManager.parse("builtin.module(func.func(shard-partition))")
        pm.run(module.operation)
        return str(module)

for line in sys.stdin:
    text = json.loads(line)
    r, w = os.pipe()
    er, ew = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r); os.close(er)
        os.dup2(ew, 2)
        try:
            out = {"ok": True, "ir": case(text)}
        except Exception as e:
            out = {"ok": False, "error": str(e).splitlines()[0] if str(e) else type(e).__name__}
        data = json.dumps(out).encode()
        while data:
            n = os.write(w, data)
            data = data[n:]
        os._exit(0)
    os.close(w); os.close(ew)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    err = os.read(er, 4096).decode(errors="replace")
    os.close(er)
    _, status = os.waitpid(pid, 0)
    if chunks:
        result = json.loads(b"".join(chunks))
    else:
        why = err.strip().splitlines()[0] if err.strip() else ""
        result = {"ok": False, "error": f"crashed (status {status}): {why}"}
    print(json.dumps(result), flush=True)
"""


def split_text(split: tuple[tuple[int, ...], ...]) -> str:
    return "[" + ", ".join("[" + ", ".join(str(a) for a in axes) + "]" for axes in split) + "]"


def upstream_module(mesh: tuple[int, ...], s0, s1, shape: tuple[int, ...] = SHAPE) -> str:
    t = "tensor<" + "x".join(str(n) for n in shape) + "xf32>"
    return f"""
shard.grid @g(shape = {"x".join(str(n) for n in mesh)})
func.func @f(%x: {t}) -> {t} {{
  %s0 = shard.sharding @g split_axes = {split_text(s0)} : !shard.sharding
  %0 = shard.shard %x to %s0 : {t}
  %s1 = shard.sharding @g split_axes = {split_text(s1)} : !shard.sharding
  %1 = shard.shard %0 to %s1 annotate_for_users : {t}
  return %1 : {t}
}}
"""


def upstream_bytes(ir_text: str, mesh: tuple[int, ...]) -> int | None:
    """Bytes a device receives in upstream's output, with our cost model;
    None if it holds a communicating op the model does not cover."""
    found = traffic(ir_text, mesh, modelled_only=True)
    return None if found is None else found[1]


def run_upstream(cases: list[str]) -> list[dict]:
    proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    results = []
    for text in cases:
        proc.stdin.write(json.dumps(text) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the upstream worker died")
        results.append(json.loads(line))
    proc.stdin.close()
    proc.wait()
    return results


def ratio_stats(pairs: list[tuple[int, int]]) -> tuple[float, float, int]:
    """(mean, max) of bytes / bound over pairs with a bound, and how many had none."""
    ratios = [b / lb for b, lb in pairs if lb > 0]
    zero = sum(1 for _, lb in pairs if lb == 0)
    if not ratios:
        return float("nan"), float("nan"), zero
    return sum(ratios) / len(ratios), max(ratios), zero


LARGE_SHAPE = (65536, 65536)
LARGE_CASES = [
    ((4096,), ((0,),), ((), (0,))),
    ((65536,), ((0,),), ((), (0,))),
    ((65536,), ((0,),), ()),
    ((64, 64), ((0,), (1,)), ((1,), (0,))),
    ((256, 256), ((0,), (1,)), ((1,), (0,))),
    ((256, 256), ((0, 1),), ((), (1, 0))),
    ((4, 8, 8, 16), ((0, 1), (2, 3)), ((2,), (0, 3))),
]
"""(mesh, source split axes, target split axes) of the `--large` rows."""

TIMED = r"""
import sys, time
from mlir import ir, passmanager
with ir.Context() as ctx:
    ctx.enable_multithreading(False)
    module = ir.Module.parse(sys.stdin.read())
    pm = passmanager.PassManager.parse("builtin.module(func.func(shard-partition))")
    t0 = time.perf_counter()
    pm.run(module.operation)
    print(time.perf_counter() - t0)
"""


def upstream_seconds(mesh: tuple[int, ...], s0, s1) -> float | None:
    """Upstream's shard-partition time on one change of layout (None: it failed)."""
    text = upstream_module(mesh, s0, s1, LARGE_SHAPE)
    done = subprocess.run([sys.executable, "-c", TIMED], input=text, capture_output=True, text=True)
    return float(done.stdout) if done.returncode == 0 and done.stdout.strip() else None


def large() -> None:
    print(f"One change of layout of a {'x'.join(map(str, LARGE_SHAPE))} f32 tensor on large meshes (seconds)")
    print()
    print("| mesh | devices | from | to | ours (s) | ours bytes | lower bound | upstream (s) |")
    print("|---|---:|---|---|---:|---:|---:|---:|")
    for mesh, s0, s1 in LARGE_CASES:
        t0 = time.perf_counter()
        plan = plan_resharding(LARGE_SHAPE, mesh, Sharding(s0), Sharding(s1), element_bytes=ELEMENT_BYTES)
        ours = time.perf_counter() - t0
        up = upstream_seconds(mesh, s0, s1)
        shown = "fails" if up is None else f"{up:.4f}"
        print(
            f"| {'x'.join(map(str, mesh))} | {math.prod(mesh):,} | {split_text(s0)} | {split_text(s1)} | {ours:.3f} |"
            f" {plan.bytes_received:,} | {plan.lower_bound:,} | {shown} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="every 10th pair of the larger meshes only")
    ap.add_argument("--no-upstream", action="store_true", help="skip upstream's shard-partition")
    ap.add_argument("--large", action="store_true", help="time single plans on meshes of 4,096 to 65,536 devices")
    args = ap.parse_args()
    if args.large:
        large()
        return
    rows = []
    t_ours = t_up = 0.0
    for mesh in MESHES:
        all_layouts = all_split_layouts(len(mesh), len(SHAPE))
        pairs = list(itertools.product(all_layouts, repeat=2))
        if args.quick and len(pairs) > 50:
            pairs = pairs[::10]
        ours = []
        t0 = time.perf_counter()
        for s0, s1 in pairs:
            plan = plan_resharding(SHAPE, mesh, Sharding(s0), Sharding(s1), element_bytes=ELEMENT_BYTES)
            ours.append((plan.bytes_received, plan.lower_bound))
        t_ours += time.perf_counter() - t0
        up: list[tuple[int, int]] = []
        fails = moved = 0
        reasons: dict[str, int] = {}
        if not args.no_upstream:
            t0 = time.perf_counter()
            results = run_upstream([upstream_module(mesh, s0, s1) for s0, s1 in pairs])
            t_up += time.perf_counter() - t0
            for (b, lb), r in zip(ours, results):
                got = upstream_bytes(r["ir"], mesh) if r["ok"] else None
                if got is None:
                    fails += 1
                    why = r.get("error", "unmodelled op")
                    why = re.sub(r"^crashed \(status \d+\): (python: )?", "", why)
                    why = re.sub(r"^.*Assertion `(.*)' failed.*$", r"\1", why)
                    reasons[why] = reasons.get(why, 0) + 1
                else:
                    up.append((got, lb))
                    if b or lb or got:
                        moved += 1
        mean, worst, zero_lb = ratio_stats(ours)
        zero_bytes = sum(1 for b, _ in ours if b == 0)
        rows.append((mesh, len(pairs), len(ours), mean, worst, zero_lb, zero_bytes, fails, moved, up, reasons))

    print(
        f"Resharding every pair of layouts of a {'x'.join(map(str, SHAPE))} f32 tensor "
        f"(bytes received per device, max over devices; ratio = bytes / lower bound)"
    )
    print()
    print(
        "| mesh | pairs | ours handles | ours mean ratio | ours max ratio | lower bound 0 | ours 0 bytes |"
        " upstream fails | upstream handles (that move data) | upstream mean ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mesh, n, handled, mean, worst, zero_lb, zero_bytes, fails, moved, up, _ in rows:
        if args.no_upstream:
            up_cols = "n/a | n/a | n/a"
        else:
            up_mean, _, _ = ratio_stats(up)
            shown = "-" if math.isnan(up_mean) else f"{up_mean:.2f}"
            up_cols = f"{fails} | {len(up)} ({moved}) | {shown}"
        print(
            f"| {'x'.join(map(str, mesh))} | {n} | {handled} | {mean:.2f} | {worst:.2f} | {zero_lb} | {zero_bytes} | {up_cols} |"
        )
    print()
    print(f"ours: {t_ours:.1f} s" + ("" if args.no_upstream else f", upstream: {t_up:.1f} s"))
    if not args.no_upstream:
        for mesh, *_, reasons in rows:
            for why, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
                print(f"  upstream on {'x'.join(map(str, mesh))}: {count} x {why}")


if __name__ == "__main__":
    main()
