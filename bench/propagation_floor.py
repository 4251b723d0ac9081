"""What `sharding-propagation` cannot avoid paying the Python bindings, on
the programs of `bench/propagation.py`, against upstream's whole C++ pass.

A pass written in Python reads every op through the bindings and writes
every annotation through them. This script times only those calls, with no
propagation logic in between, so the table shows how much of our pass's
time is the bindings' floor and how much is ours:

  * read     walk the function (bodies of ruled ops skipped, as our pass
             does); per op its name, operands and results; per linalg op the
             attributes and types its rule's key reads, and its body's op
             names for a generic (a fill makes a whole value: operands and
             results only); per `mesh.shard` its operands, result and
             `annotate_for_users`;
  * write    per linalg op but a fill, its `mesh.sharding_option`, one `mesh.shard` per
             result (made in front of the op, moved behind it, its uses
             handed on) and one `mesh.shard ... annotate_for_users` per
             operand such an op produced (the operand set to it): about
             as many annotations as our pass makes (the last column);
  * verify   the module verified once, as the pass manager does after a pass.

`floor` is their sum; `ours` is our pass under a pass manager (verifier
on), `upstream` upstream's `sharding-propagation` with its verifier, as in
`bench/propagation.py`. `annotations` counts the `mesh.shard` ops each made.
Usage:
    .venv/bin/python bench/propagation_floor.py [--sizes 10000,100000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

from mlir import ir

import mesh_dialect
from mesh_dialect.interop import to_upstream
from mesh_dialect.ir import ops as mesh_ops
from mesh_dialect.ir.syntax import encode_sharding_attr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from propagation import mlp, run_ours, run_upstream, transformer  # noqa: E402

_KEY_ATTRS = ("iterator_types", "indexing_maps", "operandSegmentSizes", "mesh.sharding_option")


def _count_shards(module: ir.Operation) -> int:
    n = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal n
        n += op.name == "mesh.shard"
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return n


def floor(text: str) -> tuple[float, float, float, int]:
    """(read, write, verify) seconds and the annotations written."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx, verify=False)
    func = next(op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func")
    advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP
    linalg: list[tuple] = []
    with ctx, ir.Location.unknown():
        t0 = time.perf_counter()

        def body_names(op: ir.Operation) -> list[str]:
            names: list[str] = []

            def visit(inner: ir.Operation) -> ir.WalkResult:
                names.append(inner.name)
                return advance

            op.walk(visit, ir.WalkOrder.PRE_ORDER)
            return names

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            if name == "func.func":
                return advance
            operands = list(op.operands)
            results = [op.result] if len(op.results) == 1 else list(op.results)
            if name == "mesh.shard":
                _ = "annotate_for_users" in op.attributes
            elif name.startswith("linalg.") and name != "linalg.fill":
                get = op.attributes.get
                key = (
                    [get(a) for a in _KEY_ATTRS],
                    [v.type for v in operands],
                    [v.type for v in results],
                    body_names(op) if name == "linalg.generic" else None,
                )
                linalg.append((op, operands, results, key[2]))
            return skip

        func.walk(visit, ir.WalkOrder.PRE_ORDER)
        t1 = time.perf_counter()

        entry = func.regions[0].blocks[0]
        sharding = mesh_ops.ShardingOp("mesh", ((),), ip=ir.InsertionPoint.at_block_begin(entry)).result
        option = ir.Attribute.parse(encode_sharding_attr("@mesh", [[]]))
        for_users = {"annotate_for_users": ir.UnitAttr.get()}
        made: set = set()  # results of linalg ops (their annotations' sources)
        count = 0
        for op, operands, results, types in linalg:
            op.attributes["mesh.sharding_option"] = option
            loc, ip = op.location, ir.InsertionPoint(op)
            for i, v in enumerate(operands):
                if v in made:
                    shard = ir.Operation.create(
                        "mesh.shard", results=[v.type], operands=[v, sharding], attributes=for_users, loc=loc, ip=ip
                    )
                    op.operands[i] = shard.result
                    count += 1
            anchor = op
            for r, t in zip(results, types):
                shard = ir.Operation.create("mesh.shard", results=[t], operands=[r, sharding], loc=loc, ip=ip)
                shard.move_after(anchor)
                r.replace_all_uses_except(shard.result, shard)
                made.add(r)
                anchor = shard
                count += 1
        t2 = time.perf_counter()
        module.verify()
        t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2, count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--repeat", type=int, default=1, help="best of this many runs of each")
    args = ap.parse_args()
    rows = []
    for kind, make in (("mlp", mlp), ("transformer", transformer)):
        for n in (int(s) for s in args.sizes.split(",")):
            text, n_ops = make(n)
            up_text = to_upstream(text)
            best = [float("inf")] * 5
            given = _count_shards(mesh_dialect.parse(text, context=mesh_dialect.context(), verify=False))
            ours_made = 0
            for _ in range(args.repeat):
                # No module of an earlier run stays alive while the next is
                # timed: one kept alive slows the next run of either pass (as
                # in `bench/propagation.py`).
                gc.collect()
                read, write, verify, made = floor(text)
                gc.collect()
                _, ours, module = run_ours(text, "forward")
                ours_made = _count_shards(module) - given
                del module
                gc.collect()
                _, up, module = run_upstream(up_text, "forward")
                del module
                best = [min(a, b) for a, b in zip(best, (read, write, verify, ours, up))]
            rows.append((kind, n_ops, *best, made, ours_made))
            print(f"  {kind} {n_ops} ops done", flush=True)
    print()
    print(f"seconds, best of {args.repeat}; ratios against upstream's pass")
    print()
    print(
        "| program | ops | read | write | verify | floor | ours | upstream | floor ratio | ours ratio | annotations: floor / ours |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, n, read, write, verify, ours, up, made, ours_made in rows:
        total = read + write + verify
        print(
            f"| {kind} | {n} | {read:.3f} | {write:.3f} | {verify:.3f} | {total:.3f} | {ours:.3f} | {up:.3f} |"
            f" {total / up:.2f}x | {ours / up:.2f}x | {made:,} / {ours_made:,} |"
        )


if __name__ == "__main__":
    main()
