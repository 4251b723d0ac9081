"""Resharding by direct point-to-point exchange: every device receives the
parts of its new piece it does not hold, each from a device that holds it.
Pure Python, no IR: the planner prices it, `sim.plans` runs it and
partition writes it (`ir.exchange.exchanged`).

Why.  Collectives work over whole mesh axes, so when two layouts trade
mesh axes between dimensions that they cut into different numbers of
pieces (`x.T` with the same layout in and out), every sequence of them
moves some data twice.  A device's new piece is a box of the tensor; its
old piece is another; it lacks their difference, and receiving exactly
that is the lower bound of any plan.

Blocks.  Along dimension d, with the old layout cutting it into nb pieces
and the new one into na, both cuts are unions of L = lcm(nb, na) blocks
of size/L.  Every block of a new piece lies inside one old piece, so a
device receives whole blocks: one per round, all of one shape, at
offsets its device's row of a table gives.  Rounds are found greedily so
that a device sends at most one block and receives at most one per
round; in a round, sends and receives form paths and cycles, and along
each, devices at even positions send first (so every send meets its
receive).  A block the device holds itself is copied locally.

Only layouts without partial axes or halos, on static meshes whose
sizes the blocks divide, and within `MAX_DEVICES` devices over the axes
either layout uses, `MAX_SLOTS` blocks per new piece and `MAX_ROUNDS`
rounds (tables grow with all three).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .spec import Mesh

MAX_DEVICES = 1024
"""Devices over the axes the two layouts use: a table has a row each."""

MAX_SLOTS = 64
"""Blocks per new piece: each one is a local copy in the program."""

MAX_ROUNDS = 64
"""Rounds of sends and receives: each one is a few ops in the program."""

Split = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Round:
    """One round, per device (by its linear index over `Schedule.axes`):
    where it sends its block (itself: sends nothing), where it receives
    one from (itself: receives nothing), the block's offsets in its old
    piece and in its new piece, and whether it sends before receiving."""

    dest: tuple[int, ...]
    source: tuple[int, ...]
    send_at: tuple[tuple[int, ...], ...]
    recv_at: tuple[tuple[int, ...], ...]
    send_first: tuple[bool, ...]


@dataclass(frozen=True)
class Schedule:
    """How devices over `axes` (sizes `sizes`, linear index row-major)
    build their new pieces (`piece`) from blocks of shape `block`: per
    slot (the block at `slots[k]` in the new piece), the offsets in the
    device's old piece of the block it copies itself (None: it receives
    that block in some round); then the rounds."""

    axes: tuple[int, ...]
    sizes: tuple[int, ...]
    block: tuple[int, ...]
    piece: tuple[int, ...]
    slots: tuple[tuple[int, ...], ...]
    own: tuple[tuple[tuple[int, ...] | None, ...], ...]
    rounds: tuple[Round, ...]

    def received(self) -> int:
        """The most elements any device receives."""
        counts = [0] * math.prod(self.sizes)
        for r in self.rounds:
            for j, src in enumerate(r.source):
                if src != j:
                    counts[j] += 1
        return max(counts, default=0) * math.prod(self.block)


def _full(split: Split, rank: int) -> Split:
    return tuple(tuple(a) for a in split) + ((),) * (rank - len(split))


def schedule(
    shape: tuple[int, ...], mesh: Mesh, before: Split, after: Split, max_rounds: int = MAX_ROUNDS
) -> Schedule | None:
    """The exchange turning pieces of a static `shape` cut by `before` into
    pieces cut by `after` (split axes only, each dividing evenly), or None
    when it is past the limits above, takes more than `max_rounds` rounds
    (a caller comparing it with a plan stops early) or the blocks do not
    divide the sizes."""
    max_rounds = min(max_rounds, MAX_ROUNDS)
    rank = len(shape)
    before, after = _full(before, rank), _full(after, rank)
    axes = tuple(sorted({a for s in (before, after) for dim in s for a in dim}))
    sizes = tuple(mesh.shape[a] for a in axes)
    n = math.prod(sizes)
    if n > MAX_DEVICES:
        return None
    nb = [math.prod(mesh.shape[a] for a in dim) for dim in before]
    na = [math.prod(mesh.shape[a] for a in dim) for dim in after]
    lcm = [math.lcm(b, a) for b, a in zip(nb, na)]
    if any(size % m for size, m in zip(shape, lcm)):
        return None
    block = tuple(size // m for size, m in zip(shape, lcm))
    per_old = [m // b for m, b in zip(lcm, nb)]  # blocks per old piece, per dimension
    per_new = [m // a for m, a in zip(lcm, na)]
    slot_list = list(itertools.product(*(range(k) for k in per_new)))
    if len(slot_list) > MAX_SLOTS:
        return None
    coords = list(itertools.product(*(range(s) for s in sizes)))
    place = {a: k for k, a in enumerate(axes)}  # each axis's place in a coordinate tuple

    def linear(c: list[int]) -> int:
        index = 0
        for x, s in zip(c, sizes):
            index = index * s + x
        return index

    # A device receives at most one block per round: the most blocks of its
    # new piece that any device lacks bounds the rounds from below, and
    # costs less to count (from the blocks the two pieces share along each
    # dimension) than listing the transfers.
    lacking = 0
    new_pieces = []  # per device, its piece under `after` (the transfers below read it too)
    for c in coords:
        at = dict(zip(axes, c))
        new_pieces.append(piece_key(after, mesh.shape, at))
        shared = 1
        for d, (old, new) in enumerate(zip(piece_key(before, mesh.shape, at), new_pieces[-1])):
            lo = max(old * per_old[d], new * per_new[d])
            hi = min((old + 1) * per_old[d], (new + 1) * per_new[d])
            shared *= max(0, hi - lo)
        lacking = max(lacking, len(slot_list) - shared)
    if lacking > max_rounds:
        return None
    own: list[list[tuple[int, ...] | None]] = [[None] * n for _ in slot_list]
    transfers: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []  # (from, to, send_at, recv_at)
    for j, c in enumerate(coords):
        new = new_pieces[j]
        for k, slot in enumerate(slot_list):
            atom = [p * q + s for p, q, s in zip(new, per_new, slot)]
            holder = list(c)
            at = []
            for d, dim in enumerate(before):
                held = atom[d] // per_old[d]
                at.append((atom[d] - held * per_old[d]) * block[d])
                for a in reversed(dim):  # the held piece's index, as coordinates
                    holder[place[a]] = held % mesh.shape[a]
                    held //= mesh.shape[a]
            h = linear(holder)
            if h == j:
                own[k][j] = tuple(at)
            else:
                transfers.append((h, j, tuple(at), tuple(s * b for s, b in zip(slot, block))))
    # greedy rounds: a device sends at most one block and receives at most one per round
    busy: list[tuple[set[int], set[int]]] = []
    placed: list[list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]] = []
    for t in transfers:
        r = next((k for k, (out, into) in enumerate(busy) if t[0] not in out and t[1] not in into), None)
        if r is None:
            if len(busy) == max_rounds:
                return None
            busy.append((set(), set()))
            placed.append([])
            r = len(busy) - 1
        busy[r][0].add(t[0])
        busy[r][1].add(t[1])
        placed[r].append(t)
    zero = (0,) * rank
    rounds = []
    for moves in placed:
        dest, source = list(range(n)), list(range(n))
        send_at, recv_at = [zero] * n, [zero] * n
        for h, j, s_at, r_at in moves:
            dest[h], source[j], send_at[h], recv_at[j] = j, h, s_at, r_at
        places = chain_positions(dest, source)
        first = tuple(dest[j] != j and places[j] % 2 == 0 for j in range(n))
        rounds.append(Round(tuple(dest), tuple(source), tuple(send_at), tuple(recv_at), first))
    piece_shape = tuple(b * k for b, k in zip(block, per_new))
    slots = tuple(tuple(s * b for s, b in zip(slot, block)) for slot in slot_list)
    return Schedule(axes, sizes, block, piece_shape, slots, tuple(tuple(o) for o in own), tuple(rounds))


def piece_key(split: Split, sizes: tuple[int, ...], coords: Mapping[int, int]) -> tuple[int, ...]:
    """Which piece of every tensor dimension a device with `coords` (per
    mesh axis) holds under `split`, on a mesh of `sizes`."""
    out = []
    for axes in split:
        index = 0
        for a in axes:
            index = index * sizes[a] + coords[a]
        out.append(index)
    return tuple(out)


def chain_positions(dest: Sequence[int], source: Sequence[int]) -> list[int]:
    """Each device's place along its chain of point-to-point sends (device
    i sends to `dest[i]` and receives from `source[i]`, itself meaning
    none): chains that start at a device receiving nothing first, then
    cycles, each from its lowest device; 0 for a device that sends
    nothing.  A device at an even place sends before it receives, one at
    an odd place receives first: every send then meets a receive (partition's
    Permute and Exchange steps, the optimizer's mirror exchange)."""
    n = len(dest)
    place = [0] * n
    seen = [False] * n
    starts = [i for i in range(n) if dest[i] != i and source[i] == i]  # paths first
    starts += [i for i in range(n) if dest[i] != i]  # then what is left: cycles
    for start in starts:
        k, i = 0, start
        while not seen[i] and dest[i] != i:
            seen[i] = True
            place[i] = k
            k += 1
            i = dest[i]
    return place


__all__ = ["MAX_DEVICES", "MAX_ROUNDS", "MAX_SLOTS", "Round", "Schedule", "chain_positions", "piece_key", "schedule"]
