"""Moving the cut of one split dimension: the same devices hold its pieces
in the same order, but the pieces start elsewhere (`sharded_dims_offsets`
that differ, or an uneven default cut against an explicit one).  Pure
Python, no IR: the planner prices it (`resharding.Recut`), `sim.plans`
runs it and partition writes it (`ir.exchange.recut`).

Why.  A slice of a split dimension (`x[:, 1:]`) or a pad of it asks for
pieces cut one row off from where they are; collectives work on whole
pieces of one size, so without this the planner gathers the dimension
whole and cuts it again.  Each device lacks only the rows at the edges of
its new piece, which its neighbours along the group hold: XLA moves them
with collective-permutes, and so does this, with sends and receives.

Rounds.  Position p of the group (its linear index over the dimension's
mesh axes) holds rows [b_p, b_p+1) and needs [a_p, a_p+1).  The rows it
needs from position p + k form one run; round k moves, for every p at
once, that run from p + k to p.  A device then sends at most one run and
receives at most one per round.  Runs differ in length, so each round's
block has the length of its longest run (`block`): the sender takes the
block that starts at its run's first row from its old piece, padded at
its end when it holds fewer rows (every device cuts a block, senders or
not), and the receiver keeps the block's first rows, as many as its run
has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .exchange import chain_positions

MAX_RECUT_ROUNDS = 8
"""Rounds of sends and receives (distances along the group) a recut may
take: each is a few ops in the program, and a cut that moves rows farther
is gathered and cut again."""


@dataclass(frozen=True)
class RecutRound:
    """Every position p receives from p + `distance` the run of its new
    piece that p + `distance` holds (`recv_count[p]` rows, none when
    empty), into its new piece at `recv_at[p]`; the sender sends them
    from its old piece at `send_at` (per sender position) as a block of
    `block` rows.  `send_first`: whether the position sends before it
    receives (`exchange.chain_positions`)."""

    distance: int
    block: int
    send_at: tuple[int, ...]
    recv_at: tuple[int, ...]
    recv_count: tuple[int, ...]
    send_first: tuple[bool, ...]

    def sends(self, q: int) -> bool:
        """Whether position `q` sends in this round."""
        p = q - self.distance
        return 0 <= p < len(self.recv_count) and self.recv_count[p] > 0

    def receives(self, p: int) -> bool:
        return self.recv_count[p] > 0


@dataclass(frozen=True)
class RecutPlan:
    """A recut from pieces at `before` to pieces at `after` (each the n + 1
    boundaries of n pieces, in group order): per position, the run of its
    new piece it holds itself (`keep_from` in its old piece, `keep_at` in
    the new one, `keep_count` rows), then the rounds."""

    before: tuple[int, ...]
    after: tuple[int, ...]
    keep_from: tuple[int, ...]
    keep_at: tuple[int, ...]
    keep_count: tuple[int, ...]
    rounds: tuple[RecutRound, ...]

    def received_rows(self) -> tuple[int, ...]:
        """Rows each position receives, blocks counted whole (as they travel)."""
        n = len(self.keep_count)
        return tuple(sum(r.block for r in self.rounds if r.receives(p)) for p in range(n))

    def padding(self) -> int:
        """Rows every old piece is padded with so that each round's block
        lies inside it (0: none).  Every device cuts the block, whether it
        sends it or not (one program for all): a short or empty piece is
        padded even where it sends nothing."""
        out = 0
        for r in self.rounds:
            for q, at in enumerate(r.send_at):
                out = max(out, at + r.block - (self.before[q + 1] - self.before[q]))
        return out


def recut_plan(before: Sequence[int], after: Sequence[int], max_rounds: int = MAX_RECUT_ROUNDS) -> RecutPlan | None:
    """The rounds that move pieces cut at `before` to pieces cut at
    `after` (n + 1 nondecreasing boundaries each, from 0 to the size), or
    None when they would take more than `max_rounds` rounds."""
    before, after = tuple(before), tuple(after)
    n = len(before) - 1
    if n < 1 or len(after) != n + 1 or before[0] != after[0] or before[-1] != after[-1]:
        raise ValueError(f"cuts {list(before)} and {list(after)} do not cut one dimension into as many pieces")
    runs: dict[int, list[tuple[int, int, int]]] = {}  # per distance: (p, first row, rows)
    keep_from, keep_at, keep_count = [0] * n, [0] * n, [0] * n
    for p in range(n):
        lo, hi = after[p], after[p + 1]
        for q in range(n):
            first, last = max(lo, before[q]), min(hi, before[q + 1])
            if last <= first:
                continue
            if q == p:
                keep_from[p], keep_at[p], keep_count[p] = first - before[q], first - lo, last - first
            else:
                runs.setdefault(q - p, []).append((p, first, last - first))
    if len(runs) > max_rounds:
        return None
    rounds = []
    for k in sorted(runs, key=lambda k: (abs(k), k)):
        send_at, recv_at, count = [0] * n, [0] * n, [0] * n
        dest, source = list(range(n)), list(range(n))
        for p, first, rows in runs[k]:
            q = p + k
            send_at[q] = first - before[q]
            recv_at[p] = first - after[p]
            count[p] = rows
            dest[q], source[p] = p, q
        places = chain_positions(dest, source)
        first_sends = tuple(dest[j] != j and places[j] % 2 == 0 for j in range(n))
        rounds.append(RecutRound(k, max(count), tuple(send_at), tuple(recv_at), tuple(count), first_sends))
    return RecutPlan(before, after, tuple(keep_from), tuple(keep_at), tuple(keep_count), tuple(rounds))


def run_recut(plan: RecutPlan, pieces: Sequence[Sequence]) -> list[list]:
    """`plan` on Python lists (one per position, its old piece's rows):
    the new pieces, padded blocks and all, as the rounds move them (a
    model for tests; `sim.plans` runs it on arrays)."""
    n = len(pieces)
    out: list[list] = [[None] * (plan.after[p + 1] - plan.after[p]) for p in range(n)]
    for p in range(n):
        for i in range(plan.keep_count[p]):
            out[p][plan.keep_at[p] + i] = pieces[p][plan.keep_from[p] + i]
    for r in plan.rounds:
        for p in range(n):
            if not r.receives(p):
                continue
            q = p + r.distance
            padded = list(pieces[q]) + [None] * plan.padding()
            block = padded[r.send_at[q] : r.send_at[q] + r.block]
            for i in range(r.recv_count[p]):
                out[p][r.recv_at[p] + i] = block[i]
    return out


__all__ = ["MAX_RECUT_ROUNDS", "RecutPlan", "RecutRound", "recut_plan", "run_recut"]
