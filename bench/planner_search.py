"""The resharding planner's exact search on meshes of three to six axes,
with and without its bound on the cost still to come.

For each mesh, the same random pairs of layouts of a 48x48x48 f32 tensor
(source possibly partial, target not unless --partial-targets) are
planned twice in one run:
  * bound   `plan_resharding` as it is: layouts taken by cost so far plus
            `_Remaining`'s lower bound on the cost to come (A*), ties by
            steps taken plus `_StepsLeft`'s bound on the steps to come;
  * plain   the same search with both bounds at 0 (uniform-cost order).
Both stop after `EXACT_SEARCH_BUDGET` candidate moves and fall back to the
decomposition; `past budget` counts those pairs.  Where both searches finish
they return the same plan, so the bytes differ only where the plain search
ran out of budget.
Usage: .venv/bin/python bench/planner_search.py [--pairs 40] [--seed 7] [--partial-targets]
"""

from __future__ import annotations

import argparse
import random
import time
from unittest.mock import patch

from mesh_dialect.sharding import Sharding
from mesh_dialect.sharding import resharding as rs

MESHES = [(2, 2, 2), (2, 2, 2, 2), (2, 2, 3, 2), (2, 2, 2, 2, 2), (2, 2, 3, 2, 4, 2)]
SHAPE = (48, 48, 48)


def layout(rng: random.Random, mesh: tuple[int, ...], partial_ok: bool) -> Sharding:
    """Each mesh axis, in a random order, to a dimension, to the partial
    axes (when allowed) or to none."""
    split: list[list[int]] = [[] for _ in SHAPE]
    partial = []
    for a in rng.sample(range(len(mesh)), len(mesh)):
        r = rng.random()
        if r < 0.35:
            continue
        if r < 0.5 and partial_ok:
            partial.append(a)
            continue
        split[rng.randrange(len(SHAPE))].append(a)
    return Sharding(tuple(map(tuple, split)), tuple(sorted(partial)))


def measure(pairs: list[tuple[Sharding, Sharding]], mesh: tuple[int, ...]) -> tuple[float, int, int]:
    """(ms per plan, plans past the budget, total bytes received)."""
    past = 0
    decompose = rs._decompose

    def counted(*args):
        nonlocal past
        past += 1
        return decompose(*args)

    total = 0
    with patch.object(rs, "_decompose", counted):
        t0 = time.perf_counter()
        for source, target in pairs:
            total += rs.plan_resharding(SHAPE, mesh, source, target).bytes_received
        elapsed = time.perf_counter() - t0
    return elapsed / len(pairs) * 1e3, past, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=40, help="random pairs per mesh")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--partial-targets", action="store_true", help="targets may be partial too")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rs.plan_resharding(SHAPE, MESHES[0], Sharding(((0,),)), Sharding(((1,),)))  # first-call costs out of the table
    targets = "partial or not" if args.partial_targets else "not partial"
    print(
        f"{args.pairs} random pairs per mesh (targets {targets}), tensor {'x'.join(map(str, SHAPE))} f32, seed {args.seed}\n"
    )
    print("| mesh | bound: ms/plan | past budget | MB | plain: ms/plan | past budget | MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for mesh in MESHES:
        pairs = [(layout(rng, mesh, True), layout(rng, mesh, args.partial_targets)) for _ in range(args.pairs)]
        bound = measure(pairs, mesh)
        zero = classmethod(lambda cls, p, goal: lambda state: 0)
        with patch.object(rs._Remaining, "of", zero), patch.object(rs._StepsLeft, "of", zero):
            plain = measure(pairs, mesh)
        cells = [f"{ms:.1f} | {past}/{len(pairs)} | {total / 1e6:.2f}" for ms, past, total in (bound, plain)]
        print(f"| {'x'.join(map(str, mesh))} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
