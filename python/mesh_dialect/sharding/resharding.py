"""Plan how to turn one sharding of a tensor into another, as a short list of
mesh collectives: pure Python, no IR.

The IR side (spmdization of `mesh.shard` pairs) only has to emit the steps of
a plan one op each; the simulator proves plans right by running them
(`sim.plans.execute`).  Keeping the planner free of MLIR makes it testable on every
pair of layouts of small meshes.

Layouts.  A layout is what `Sharding` says without halos: for every tensor
dimension the ordered mesh axes it is split over (major first), plus the
partial axes and their reduction kind.  Every step moves between two
layouts:

=================================  ==========================================
step                               layout change
=================================  ==========================================
`AllGather(axes, dim)`             drop `axes`, a suffix of `dim`'s axes
`AllSlice(axes, dim)`              append free `axes` to `dim` (local)
`AllToAll(axes, split, concat)`    move `axes`, a suffix of `concat`'s axes,
                                   to the end of `split`'s axes
`AllReduce(axes, kind)`            drop partial `axes`
`ReduceScatter(axes, kind, dim)`   move partial `axes` to the end of `dim`
`Permute(axes, perm, split_axes)`  any layout with the same number of
                                   pieces per dimension (and the same partial
                                   axes): point-to-point, whole pieces
`Partialize(axes, kind)`           make free `axes` partial (local)
`Exchange(split_axes, rounds)`     any layout, neither partial: point-to-
                                   point, blocks of pieces (`exchange`)
`UpdateHalo(...)`                  change halo sizes only
=================================  ==========================================

Permute generalizes reordering the mesh axes of one dimension: whenever two
layouts cut every dimension into the same number of pieces, some device
holds each piece the other layout wants, so a device permutation (the same
in every group of devices that differ only along `axes`) realizes the
change.  `[[0, 1]] -> [[1, 0]]`, `[[0]] -> [[1]]` on a 2x2 mesh and
`[[0], [1]] -> [[1], [0]]` on a square mesh are all one Permute.

Cost model (bytes a device receives; S is the step's local input in
bytes, g the size of the device group of the step's `axes`):

- all_gather: (g - 1) * S, the g - 1 pieces of the others;
- all_to_all, reduce_scatter: (g - 1) / g * S, every piece but its own
  (reduce_scatter as a ring);
- all_reduce: 2 * (E - floor(E / g)) elements of E, a ring reduce-scatter
  then a ring all-gather, each bringing a device every chunk but its own
  (the chunks are E / g elements, rounded up or down, and the device
  whose own chunk is the smallest receives the most; for g dividing E
  that is 2 * (g - 1) * E / g);
- all_slice, partialize: 0, they are local;
- permute: S for a device whose piece comes from another device (even if
  it holds part of it already), 0 for a fixed point;
- exchange: the part of its new piece a device does not hold (the lower
  bound below);
- update_halo: the destination halo cells inside the tensor (cells past the
  tensor's edge are poison and not sent); 0 when every destination halo is
  within the source's (it drops or narrows halos: a local slice).

A plan's `bytes_received` is the maximum over devices of the sum of its
steps' bytes for that device.  The search minimizes the sum over steps of
each step's maximum over devices, which is the same number unless a plan
holds two Permutes with different fixed points (then `bytes_received` may be
smaller); every other step costs every device the same.

Search.  A shortest-path search over the layouts whose every tensor
dimension divides evenly by its number of pieces (pieces of different sizes:
see "Uneven pieces" below), with the steps above as
edges and their exact byte costs, taking layouts in the order of their
cost so far plus a bound on the cost still to come (A*, `_Remaining`: the
"Lower bound" below, taken from each layout, and for partial layouts the
average cost of combining their terms; it never falls by more than a
step costs, so the plan is the one the plain order finds).  Layouts of
equal cost plus bound are taken in the order of steps so far plus a
bound on the steps to come (`_StepsLeft`: 0 at the target, 1 where one
move might reach it, else 2; it never falls by more than one a step), so
the zero-cost slices over free axes that leave the byte bound unchanged
wait until the target is found instead of being swept first; the plan is
still the one least in (cost, steps, keys).  After a Permute no Permute is
a move (one Permute from the layout before reaches the same layout for no
more bytes in fewer steps).  The search examines at most
`EXACT_SEARCH_BUDGET` candidate moves (every candidate step the move
generator looks at counts, kept or not, and every partial split
`_Problem.same_counts` grows while listing the layouts one Permute
reaches); the state space grows
exponentially with the mesh rank, so past the budget the plan comes from
the decomposition below instead.  Every test case (meshes up
to rank 4) stays within it; on 5- and 6-axis meshes the benchmark's
pairs mostly do.  The plans one pass asks for may share a
`SearchAllowance`: once many searches have spent it, each further one
gets a small budget, so a program of many hard plans stays within seconds.
An `average` partial is only ever reduced over
all its partial axes in one step (all_reduce or reduce_scatter over the
whole group): integer averages truncate, so averaging axis by axis is not
the average.  A Permute whose table (the devices over every mesh axis the
two layouts use) exceeds `MAX_PERMUTE_DEVICES` is never a move.  Ties
are broken by fewer steps, then by a fixed order of the steps
(`_KIND_ORDER`, then their fields), so plans are deterministic.  Within the
budget the plan is optimal over these steps, so it never gathers a
dimension whole (the notes' basis decomposition) when a sequence of
all_to_alls and permutations is cheaper; on equal cost the shorter plan
wins, which is the only way a whole-dimension gather that the target does
not need can appear.  Because every divisible intermediate layout is reachable (at
worst: reduce, gather everything, slice), a plan always exists for valid
inputs and only collectives whose `sim.collectives` semantics are defined are
used (all_slice, all_to_all and reduce_scatter need an even split, and every
layout visited has one).

Decomposition (`_decompose`, past the search budget; time polynomial in the
mesh and tensor ranks).  With E the source's local elements, W the tensor's
elements, g the size of the reduced group, R = 2 (E - floor(E / g)) when
the source's partial axes are reduced (0 when the target keeps them all, same
kind), lcp(d) the longest common prefix of the source's and target's axes of
dimension d, E_lcp = prod_d shape[d] / size(lcp(d)), and M the source's
split axes outside those prefixes:

    bytes_received <= element_bytes * (R + min(W - E, sum over a in M of (1 - 1/size(a)) * E_lcp))

Steps: reduce the partial axes the target does not keep (an average all of
them at once), then the cheapest of: one Permute (when the pieces per
dimension already match); a Permute to the layout with the source's pieces
per dimension that starts each dimension with the target's axes, then
`_move_axes`; `_move_axes` alone (one axis at a time: slice the next axis of
a dimension that is a prefix of its target, else all_to_all the last axis of
a dimension that is not into the dimension that wants it next, else gather
it; each axis of M is gathered or moved once, while the lcp axes stay, so
each such step costs at most (1 - 1/size(a)) E_lcp); gather every dimension
whole then slice (W - E); finally Partialize the target's partial axes.

Huge meshes.  Up to `MAX_COUNTED_DEVICES` devices, per-device costs and the
lower bound are taken for every device (on numpy arrays over the devices'
coordinates, all at once).  Past it `bytes_received` is the sum
of the steps' maxima (exact unless a plan holds two Permutes or a Permute and
a halo update) and the lower bound is the maximum over a deterministic sample
of devices (`_devices_over`), still a bound some device must receive; no
device list is ever built.

Lower bound.  `lower_bound` is the maximum over devices of the bytes of the
device's target local array (core and halos, inside the tensor) that it does
not already hold.  A device "holds" the cells of its source local array,
except when the source is partial along a mesh axis (of size > 1) that the
target does not keep partial with the same kind: then it holds only a term
of every cell and must receive something for each one, so it holds nothing.
When the target is a sum, bitwise_xor or product partial, a device off
position 0 along the target's new partial axes needs nothing (it holds the
identity, see `sim.layout.shard`'s decomposition, which plans produce:
partial terms only ever come from the source or from `Partialize`, never
from padding a piece with zeros, which would need no data but give another
decomposition).

Uneven pieces.  When the pieces of the source or the target differ in size
(sizes the mesh does not divide, cut as `spec.split_piece` says, or
`sharded_dims_offsets`), the search runs on states that also carry each
dimension's piece boundaries (the default cut unless given).  A step that
joins the pieces of a group (all_gather, the concat side of all_to_all)
always fits: the new pieces are the old ones joined.  A step that cuts
(all_slice, reduce_scatter, the split side of all_to_all) cuts each piece
into the target's pieces when the dimension then has the target's axes,
else into the default cut, and is a move only when those new pieces tile
the old ones exactly.  A permutation keeps the boundaries.  The
collectives need one shape per group, so each is run on pieces padded to
the largest one (GSPMD's way) and the valid parts are taken after it;
costs count the padding that is sent: with M the largest piece of the
dimension a step joins or cuts (the largest new piece for a cut) and R the
device's elements outside that dimension,

- all_gather: (g - 1) * M * R;
- all_to_all: (g - 1) * M_split * M_concat * R (R outside both);
- reduce_scatter: (g - 1) * M * R;
- all_reduce: 2 * (E - floor(E / g)) for the device's own E (a group
  shares its pieces, so nothing is padded);
- permute: the device's new piece.

`sim.plans.execute` runs such steps exactly so, and
`sim.collectives.count_traffic` counts what they move with the same
model, so a plan's bytes can be checked against its execution.  Past the
search budget, uneven plans reduce, gather every dimension whole and cut
the target's pieces.  Two layouts that split every dimension over the same
axes but cut some elsewhere become Recuts instead (one per such
dimension, `recut.recut_plan`) when those receive fewer bytes: each
device receives only the rows at the edges of its new piece that its
neighbours hold, as blocks as long as each round's longest run.  Sizes only known at run time (`dynamic_dims`,
`dynamic_axes`) are planned with stand-in sizes for the costs, and a
dimension whose pieces depend on them is only gathered whole or cut from
whole (the only moves that fit whatever the sizes).  Halos on uneven
pieces are refused (ValueError).

Halos are supported on even pieces: halo-only changes are one
`UpdateHalo`; otherwise halos are dropped first (an `UpdateHalo` to no
halos, which moves nothing) and the target's added last.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .costs import all_reduce_elements
from .exchange import schedule
from .recut import recut_plan
from .spec import Mesh, Sharding, ShardingError, _ints, split_piece

Split = tuple[tuple[int, ...], ...]
"""Split axes with one entry per tensor dimension (trailing empties kept)."""

_Fit = tuple[tuple[int, tuple[int, ...]], tuple[int, ...], object]
"""A slice that fits (`_Problem.slices`): the sequence's place, the sequence, the new boundaries."""

IDENTITY_KINDS = ("sum", "bitwise_xor", "product")
"""Partial kinds whose non-leading terms are an identity value, not the value."""

EXACT_SEARCH_BUDGET = 100_000
"""Candidate moves the exact search may examine before `_decompose` takes
over (module docstring, "Search"): about half a second of Python."""


@dataclass
class SearchAllowance:
    """Candidate moves the exact searches of many plans may examine
    together (one pass's plans).  A program asking for many hard plans (a
    mesh of many axes) would otherwise pay the whole budget for each: 422
    such plans took half a minute.  Once `left` is spent, each further
    search examines at most `after` candidates before `_decompose` takes
    over.  The plans of real programs need far fewer (204 at most in the
    JAX corpus; 2 of 600 random plans on meshes of up to 12 devices needed
    more than 2,000, 2,646 the most), so only the hard ones change."""

    left: int = 4 * EXACT_SEARCH_BUDGET
    after: int = 2_000

    def budget(self) -> int:
        """The next search's budget."""
        return min(EXACT_SEARCH_BUDGET, max(self.left, self.after))


MAX_PERMUTE_DEVICES = 1 << 16
"""The most devices a Permute's table may cover (`_permutation` walks every
coordinate of the mesh axes the two layouts use); larger changes are made
of the other steps."""

MAX_COUNTED_DEVICES = 1 << 16
"""Up to this many devices, per-device costs and the lower bound are taken for
every device (on arrays); past it they are computed per step (module docstring)."""


_SAMPLED_DEVICES = 1024
"""Past `MAX_COUNTED_DEVICES`, the lower bound is the maximum over at most
four times this many sampled devices (`_devices_over`)."""


class _SearchTooLarge(Exception):
    """The exact search ran past its budget."""


def _fmt(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _fmt_split(split: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(_fmt(a) for a in (split or ((),))) + "]"


# -- steps -----------------------------------------------------------------------


@dataclass(frozen=True)
class AllGather:
    """`mesh.all_gather` over `axes` along tensor dimension `dim`: `axes`
    must be the innermost axes of `dim`, so the gathered pieces are contiguous."""

    axes: tuple[int, ...]
    dim: int

    def __str__(self) -> str:
        return f"all_gather mesh_axes = {_fmt(self.axes)} gather_axis = {self.dim}"


@dataclass(frozen=True)
class AllSlice:
    """`mesh.all_slice`: every device keeps its piece of `dim`; no data moves."""

    axes: tuple[int, ...]
    dim: int

    def __str__(self) -> str:
        return f"all_slice mesh_axes = {_fmt(self.axes)} slice_axis = {self.dim}"


@dataclass(frozen=True)
class AllToAll:
    """`mesh.all_to_all`: moves `axes` from the end of `concat_dim`'s axes to
    the end of `split_dim`'s, receiving (g-1)/g of the local array."""

    axes: tuple[int, ...]
    split_dim: int
    concat_dim: int

    def __str__(self) -> str:
        return f"all_to_all mesh_axes = {_fmt(self.axes)} split_axis = {self.split_dim} concat_axis = {self.concat_dim}"


@dataclass(frozen=True)
class AllReduce:
    """`mesh.all_reduce` of partial terms along `axes`."""

    axes: tuple[int, ...]
    kind: str

    def __str__(self) -> str:
        return f"all_reduce mesh_axes = {_fmt(self.axes)} reduction = <{self.kind}>"


@dataclass(frozen=True)
class ReduceScatter:
    """`mesh.reduce_scatter` of partial terms along `axes`, scattered over
    `dim`: partial to split at half the price of all_reduce."""

    axes: tuple[int, ...]
    kind: str
    dim: int

    def __str__(self) -> str:
        return f"reduce_scatter mesh_axes = {_fmt(self.axes)} reduction = <{self.kind}> scatter_axis = {self.dim}"


@dataclass(frozen=True)
class Permute:
    """Point-to-point: in every group of devices that differ only along
    `axes`, in-group index i sends its whole local array to in-group index
    `perm[i]` (in-group order as in `Mesh.group_of`).  `split_axes` is the
    layout afterwards, kept for bookkeeping; the op needs only `axes` and
    `perm` (send/recv pairs, fixed points send nothing)."""

    axes: tuple[int, ...]
    perm: tuple[int, ...]
    split_axes: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return f"permute mesh_axes = {_fmt(self.axes)} perm = {_fmt(self.perm)}"


@dataclass(frozen=True)
class Exchange:
    """Point-to-point to the layout `split_axes` (no partial axes on either
    side, pieces of one size): each device receives the blocks of its new
    piece it does not hold (`sharding.exchange`).  Never a move of the
    search: a plan becomes one Exchange when the search's plan moves more
    (`plan_resharding`)."""

    split_axes: tuple[tuple[int, ...], ...]
    rounds: int
    """How many rounds its schedule takes: the number of messages a device
    may send, as a collective step is one."""

    def __str__(self) -> str:
        return f"exchange to {_fmt_split(self.split_axes)} in {self.rounds} rounds"


@dataclass(frozen=True)
class Partialize:
    """Local: make the free mesh `axes` partial with `kind`.  For sum and
    bitwise_xor the devices off position 0 along `axes` replace their data by
    0, for product by 1; for the other kinds every device keeps the value
    (nothing to emit)."""

    axes: tuple[int, ...]
    kind: str

    def __str__(self) -> str:
        return f"partialize mesh_axes = {_fmt(self.axes)} reduction = <{self.kind}>"


@dataclass(frozen=True)
class UpdateHalo:
    """`mesh.update_halo`: the same cores, halos re-read from the neighbours
    (`destination_halos` empty drops the halos without communication)."""

    split_axes: tuple[tuple[int, ...], ...]
    source_halos: tuple[int, ...]
    destination_halos: tuple[int, ...]

    def __str__(self) -> str:
        return (
            f"update_halo split_axes = {_fmt_split(self.split_axes)} "
            f"halo_sizes = {_fmt(self.source_halos)} -> {_fmt(self.destination_halos)}"
        )


def halos_within(destination: Sequence[int], source: Sequence[int]) -> bool:
    """Whether every destination halo is at most the source's on its side:
    the new local array is a slice of the old one (no halo: 0)."""
    return all(d <= (source[k] if k < len(source) else 0) for k, d in enumerate(destination))


@dataclass(frozen=True)
class Recut:
    """Point-to-point: tensor dimension `dim`, split over `axes` as before,
    cut at `cut` (its n + 1 piece boundaries) instead: each device receives
    from its neighbours along the group the rows of its new piece it does
    not hold, one round per distance (`recut.recut_plan`).  Never a move of
    the search: a plan becomes Recuts when the layouts differ only in where
    they cut dimensions and the search's plan moves more (`plan_resharding`)."""

    dim: int
    axes: tuple[int, ...]
    cut: tuple[int, ...]
    rounds: int

    def __str__(self) -> str:
        return f"recut mesh_axes = {_fmt(self.axes)} axis = {self.dim} at {_fmt(self.cut)} in {self.rounds} rounds"


Step = (
    AllGather | AllSlice | AllToAll | AllReduce | ReduceScatter | Permute | Partialize | UpdateHalo | Exchange | Recut
)

_KIND_ORDER = {
    UpdateHalo: 0,
    AllReduce: 1,
    ReduceScatter: 2,
    AllSlice: 3,
    Partialize: 4,
    Permute: 5,
    AllToAll: 6,
    AllGather: 7,
    Exchange: 8,
}
"""The fixed order that breaks ties between plans of equal cost and length."""


# -- plans -----------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A resharding plan: `steps` turn `source` into `target`.

    `intermediate[i]` (a tuple, so plans stay immutable) is the layout
    after `steps[i]`; `step_bytes[i]` the most bytes any device receives in it.  `bytes_received` and
    `lower_bound` are defined in the module docstring.
    """

    shape: tuple[int, ...]
    mesh_shape: tuple[int, ...]
    source: Sharding
    target: Sharding
    steps: tuple[Step, ...]
    intermediate: tuple[Sharding, ...]
    step_bytes: tuple[int, ...]
    bytes_received: int
    lower_bound: int
    element_bytes: int = 4

    def __str__(self) -> str:
        head = (
            f"reshard {fmt_shape(self.shape)} on mesh {fmt_shape(self.mesh_shape)}: "
            f"{self.source} -> {self.target}: {len(self.steps)} step(s), "
            f"{self.bytes_received} bytes received (lower bound {self.lower_bound})"
        )
        lines = [head]
        for i, (step, layout, b) in enumerate(zip(self.steps, self.intermediate, self.step_bytes), 1):
            lines.append(f"  {i}. {step}  ->  {layout}  ({b} bytes)")
        return "\n".join(lines)


def fmt_shape(shape: Sequence[int]) -> str:
    """A shape as diagnostics write it (`4x8`, or `scalar`)."""
    return "x".join(str(n) for n in shape) if shape else "scalar"


# -- entry points ----------------------------------------------------------------


def plan_resharding(
    shape: Sequence[int],
    mesh_shape: Sequence[int] | Mesh,
    source: Sharding,
    target: Sharding,
    *,
    element_bytes: int = 4,
    dynamic_dims: Sequence[int] = (),
    dynamic_axes: Sequence[int] = (),
    exchange: bool = True,
    allowance: SearchAllowance | None = None,
) -> Plan:
    """The cheapest sequence of steps (see the module docstring) that turns a
    tensor of `shape` laid out by `source` into `target`; with `exchange`
    False, of collectives and Permutes only (no Exchange or Recut).  An
    `allowance` shared by many plans bounds their exact searches together.

    Pieces of different sizes (sizes the mesh does not divide, or
    `sharded_dims_offsets`) are planned as the module docstring's "Uneven
    pieces" says.  `dynamic_dims` are tensor dimensions and `dynamic_axes`
    mesh axes whose size is only known at run time: `shape` and
    `mesh_shape` hold a stand-in for them, which only the costs use, and
    the plan only gathers such a dimension whole or cuts it from whole.

    Raises ValueError for an invalid mesh, shape or sharding, and for
    uneven pieces with halos.
    """
    mesh, shape = _check_common(shape, mesh_shape, element_bytes)
    source = _checked(source, "source", mesh, shape)
    target = _checked(target, "target", mesh, shape)
    if source == target:
        return _plan(_Problem(shape, mesh, element_bytes, target), source, target, [])
    steps: list[Step] = []
    if _halos_beside_dynamic(shape, mesh, source, target, dynamic_dims, dynamic_axes):
        if _without_halos(source) == _without_halos(target):
            return _plan(
                _Problem(shape, mesh, element_bytes, _without_halos(target)),
                source,
                target,
                [UpdateHalo(source.split_axes, source.halo_sizes, target.halo_sizes)],
            )
        return _plan_around_halos(shape, mesh, element_bytes, source, target, dynamic_dims, dynamic_axes, allowance)
    # a dynamic size counts only where a layout cuts it (an unsplit one is
    # the same on every device, as a static one is)
    cut_dynamic = any(source.axes_of(d) or target.axes_of(d) for d in dynamic_dims)
    used_axes = {a for s in (source, target) for a in s.used_axes()}
    if (
        cut_dynamic
        or used_axes.intersection(dynamic_axes)
        or not (source.is_even(shape, mesh) and target.is_even(shape, mesh))
    ):
        p = _uneven_problem(shape, mesh, element_bytes, source, target, dynamic_dims, dynamic_axes)
        src_core, tgt_core = source, target  # halos on uneven pieces are refused
    else:
        src_core, tgt_core = _without_halos(source), _without_halos(target)
        p = _Problem(shape, mesh, element_bytes, tgt_core)
        if src_core == tgt_core:
            return _plan(p, source, target, [UpdateHalo(source.split_axes, source.halo_sizes, target.halo_sizes)])
        if source.halo_sizes:
            steps.append(UpdateHalo(source.split_axes, source.halo_sizes, ()))
    start, goal = _state(p, src_core), _state(p, tgt_core)
    if allowance is not None:
        p.budget = allowance.budget()
    try:
        found = _search(p, start, goal)
    except _SearchTooLarge:
        found = _decompose(p, start, goal)
    finally:
        if allowance is not None:
            allowance.left -= p.spent
    if found is None:  # pragma: no cover - gathering whole and cutting always works
        raise AssertionError(f"no resharding path from {src_core} to {tgt_core}")
    steps += found
    if target.halo_sizes:
        steps.append(UpdateHalo(target.split_axes, (), target.halo_sizes))
    plan = _plan(p, source, target, steps)
    static = not (dynamic_dims or dynamic_axes)  # (the schedule's tables need every size)
    if exchange and static and p.uneven and plan.bytes_received:
        best, best_key = plan, (plan.bytes_received, _rounds(found))
        recuts = _recuts_instead(p, source, target)
        for other in [recuts] if recuts is not None else _recuts_around(p, source, target):
            moved = _plan(p, source, target, other)
            key = (moved.bytes_received, _rounds(other))
            if key < best_key:
                best, best_key = moved, key
        if best is not plan:
            return best
    if exchange and static and plan.lower_bound < plan.bytes_received and _may_exchange(p, source, target):
        direct = _exchange_instead(p, source, found)
        if direct is not None:
            return _plan(p, source, target, [direct])
    return plan


def _may_exchange(p: _Problem, source: Sharding, target: Sharding) -> bool:
    """Whether an Exchange may replace the plan: static pieces of one size,
    neither layout partial or with halos."""
    return not (
        p.uneven
        or source.partial_axes
        or target.partial_axes
        or source.halo_sizes
        or target.halo_sizes
        or source.sharded_dims_offsets
        or target.sharded_dims_offsets
    )


def _exchange_instead(p: _Problem, source: Sharding, found: list[Step]) -> Exchange | None:
    """The Exchange from `source` to `p.target` that replaces `found`, a
    plan receiving more than the lower bound (which only an exchange
    reaches when collectives move some data twice), if it takes no more
    rounds than `found` has steps that move data (fewer bytes are not
    bought with more latency) and is within `sharding.exchange`'s limits;
    else None."""
    moving = _rounds(found)
    target = _full_split(p.target, len(p.shape))
    found_schedule = schedule(p.shape, p.mesh, source.split_axes, target, max_rounds=moving)
    if found_schedule is None:
        return None
    return Exchange(target, len(found_schedule.rounds))


def _rounds(steps: Sequence[Step]) -> int:
    """The steps that move data, each point-to-point round counted."""
    return sum(
        step.rounds
        if isinstance(step, Exchange | Recut)
        else int(
            isinstance(step, AllGather | AllToAll | ReduceScatter | AllReduce)
            or (isinstance(step, Permute) and any(i != j for i, j in enumerate(step.perm)))
        )
        for step in steps
    )


def _recuts_instead(p: _Problem, source: Sharding, target: Sharding) -> list[Step] | None:
    """Where `source` and `target` split every dimension over the same axes
    (partial alike, no halos, static sizes) and differ only in where they
    cut some: a Recut per such dimension (`recut.recut_plan`); else None."""
    rank = len(p.shape)
    split = _full_split(source, rank)
    if split != _full_split(target, rank) or (source.partial_axes, source.partial_type) != (
        target.partial_axes,
        target.partial_type,
    ):
        return None
    return _recut_steps(p, source, target, range(rank)) or None


def _recut_steps(p: _Problem, source: Sharding, target: Sharding, dims: Iterable[int]) -> list[Recut] | None:
    """A Recut of each of `dims` that both layouts split over the same axes
    but cut elsewhere, from `source`'s cut to `target`'s (static sizes, no
    halos); None where one cannot be planned."""
    if p.dynamic_dims or p.dynamic_axes or source.halo_sizes or target.halo_sizes:
        return None
    rank = len(p.shape)
    split, tsplit = _full_split(source, rank), _full_split(target, rank)
    steps: list[Recut] = []
    for d in dims:
        axes = split[d]
        if not axes or axes != tsplit[d]:
            continue
        before, after = source.cut(d, p.shape[d], p.mesh), target.cut(d, p.shape[d], p.mesh)
        if before == after:
            continue
        found = recut_plan(before, after)
        if found is None:
            return None
        steps.append(Recut(d, axes, tuple(after), len(found.rounds)))
    return steps


def _recuts_around(p: _Problem, source: Sharding, target: Sharding) -> list[list[Step]]:
    """Where the layouts differ in split too, but split some dimensions over
    the same axes and cut them elsewhere: the search's plan to `target` cut
    there as `source` is, then Recuts of those dimensions; and the Recuts
    first, then the search's plan from there.  (The search itself moves
    such rows by gathering the dimension and cutting it again.)"""
    recuts = _recut_steps(p, source, target, range(len(p.shape)))
    if not recuts:
        return []
    found: list[list[Step]] = []
    for recut_first in (False, True):
        mid = source if recut_first else target
        for step in recuts:
            # (`target` cut back as `source` is along the step's dimension)
            cut = step.cut if recut_first else source.cut(step.dim, p.shape[step.dim], p.mesh)
            mid = _recut_applied(p, Recut(step.dim, step.axes, tuple(cut), step.rounds), mid)
        start, goal = (_state(p, mid), _state(p, target)) if recut_first else (_state(p, source), _state(p, mid))
        try:
            searched = _search(p, start, goal)
        except _SearchTooLarge:
            searched = _decompose(p, start, goal)
        if searched is not None:
            found.append([*recuts, *searched] if recut_first else [*searched, *recuts])
    return found


def _recut_applied(p: _Problem, step: Recut, layout: Sharding) -> Sharding:
    """The layout after a Recut: dimension `step.dim` cut at `step.cut`."""
    rank = len(p.shape)
    split = _full_split(layout, rank)
    if not 0 <= step.dim < rank or split[step.dim] != tuple(step.axes) or not step.axes:
        raise ValueError(f"{step} does not apply to {layout}: the dimension is not split over those axes")
    if layout.halo_sizes:
        raise ValueError(f"{step} does not apply to {layout}: the layout has halos")
    cut = tuple(step.cut)
    size, n = p.shape[step.dim], p.count(tuple(step.axes))
    if len(cut) != n + 1 or cut[0] != 0 or cut[-1] != size or any(a > b for a, b in zip(cut, cut[1:])):
        raise ValueError(f"{step} does not apply to {layout}: not a cut of {size} elements into {n} pieces")
    split_, partial, kind, bounds = _state(p, layout)
    out = list(bounds)
    out[step.dim] = _normal(p, step.dim, tuple(step.axes), cut)
    return _sharding(p, (split_, partial, kind, tuple(out)))


def _halos_beside_dynamic(
    shape: Sequence[int],
    mesh: Mesh,
    source: Sharding,
    target: Sharding,
    dynamic_dims: Sequence[int],
    dynamic_axes: Sequence[int],
) -> bool:
    """Whether a reshard with halos beside a dynamic split dimension (a
    convolution's batch of any size) can be planned around them: every halo
    dimension static and cut evenly, no other static dimension cut
    unevenly (halos beside uneven static pieces are refused), no offsets
    and no mesh axis of dynamic size.  The halos' exchanges then run along
    the halo dimensions' axes, between devices that hold the same piece of
    every other dimension, so pieces whose size only the run knows still
    line up."""
    if not (source.halo_sizes or target.halo_sizes):
        return False
    if source.sharded_dims_offsets or target.sharded_dims_offsets:
        return False
    dynamic = frozenset(dynamic_dims)
    layouts = (source, target)
    if not any(s.axes_of(d) for s in layouts for d in dynamic):
        return False  # no dynamic piece: the plans below apply
    if any(a in dynamic_axes for s in layouts for a in s.used_axes()):
        return False
    for s in layouts:
        for d in range(len(shape)):
            if not s.axes_of(d):
                continue
            if any(s.halo(d)):
                if d in dynamic or not s.is_even_dim(d, shape[d], mesh):
                    return False
            elif d not in dynamic and not s.is_even_dim(d, shape[d], mesh):
                return False
    return True


def _plan_around_halos(
    shape: tuple[int, ...],
    mesh: Mesh,
    element_bytes: int,
    source: Sharding,
    target: Sharding,
    dynamic_dims: Sequence[int],
    dynamic_axes: Sequence[int],
    allowance: SearchAllowance | None,
) -> Plan:
    """Drop the source's halos (no data moves), reshard the cores, add the
    target's halos (one update_halo, between devices that hold the same
    piece of every other dimension); the bytes are the parts' sum."""
    core_src, core_tgt = _without_halos(source), _without_halos(target)
    parts: list[Plan] = []
    if source.halo_sizes:
        drop = UpdateHalo(source.split_axes, source.halo_sizes, ())
        parts.append(_plan(_Problem(shape, mesh, element_bytes, core_src), source, core_src, [drop]))
    parts.append(
        plan_resharding(
            shape,
            mesh,
            core_src,
            core_tgt,
            element_bytes=element_bytes,
            dynamic_dims=dynamic_dims,
            dynamic_axes=dynamic_axes,
            allowance=allowance,
        )
    )
    if target.halo_sizes:
        add = UpdateHalo(target.split_axes, (), target.halo_sizes)
        parts.append(_plan(_Problem(shape, mesh, element_bytes, core_tgt), core_tgt, target, [add]))
    return Plan(
        shape=shape,
        mesh_shape=mesh.shape,
        source=source,
        target=target,
        steps=tuple(step for part in parts for step in part.steps),
        intermediate=tuple(layout for part in parts for layout in part.intermediate),
        step_bytes=tuple(b for part in parts for b in part.step_bytes),
        bytes_received=sum(part.bytes_received for part in parts),
        lower_bound=parts[1 if source.halo_sizes else 0].lower_bound,
        element_bytes=element_bytes,
    )


def apply_steps(
    shape: Sequence[int],
    mesh_shape: Sequence[int] | Mesh,
    source: Sharding,
    steps: Sequence[Step],
    *,
    element_bytes: int = 4,
) -> Plan:
    """The Plan of a given step sequence (its target is where the steps
    lead): to cost and check hand-written decompositions.  Raises ValueError
    when a step does not apply to the layout it meets."""
    mesh, shape = _check_common(shape, mesh_shape, element_bytes)
    source = _checked(source, "source", mesh, shape)
    p = _Problem(shape, mesh, element_bytes, Sharding(()))
    layout, even = source, source.is_even(shape, mesh)
    for step in steps:
        if not even:
            break
        layout = _apply(p, step, layout)
        even = layout.is_even(shape, mesh)
    if not even:
        # Uneven pieces: cuts from whole follow the default rule.
        p = _uneven_problem(shape, mesh, element_bytes, source, None, (), ())
        layout = source
        for step in steps:
            layout = _apply(p, step, layout)
    return _plan(p, source, layout, list(steps))


def all_split_layouts(mesh_rank: int, tensor_rank: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every assignment of mesh axes to tensor dimensions (each axis used at
    most once, orders within a dimension included): the split axes of every
    layout without partial axes, for exhaustive tests and benchmarks."""
    out: list[tuple[tuple[int, ...], ...]] = []

    def fill(dim: int, avail: list[int], acc: list[tuple[int, ...]]) -> None:
        if dim == tensor_rank:
            out.append(tuple(acc))
            return
        for r in range(len(avail) + 1):
            for seq in itertools.permutations(avail, r):
                fill(dim + 1, [a for a in avail if a not in seq], acc + [seq])

    fill(0, list(range(mesh_rank)), [])
    return out


def lower_bound(
    shape: Sequence[int],
    mesh_shape: Sequence[int] | Mesh,
    source: Sharding,
    target: Sharding,
    *,
    element_bytes: int = 4,
) -> int:
    """Bytes some device must receive whatever the plan (module docstring)."""
    mesh, shape = _check_common(shape, mesh_shape, element_bytes)
    source = _checked(source, "source", mesh, shape)
    target = _checked(target, "target", mesh, shape)
    return _lower_bound(shape, mesh, source, target) * element_bytes


def _cheapest_without_whole_gathers(
    shape: Sequence[int], mesh_shape: Sequence[int], source: Sharding, target: Sharding, *, element_bytes: int = 4
) -> int | None:
    """The bytes of the cheapest plan between two halo-free layouts that never
    all_gathers a dimension whole which the target splits (None if there is
    none, or when the search runs past its budget): what tests compare plans
    that do gather one whole against."""
    mesh, dims = _check_common(shape, mesh_shape, element_bytes)
    source = _checked(source, "source", mesh, dims)
    target = _checked(target, "target", mesh, dims)
    p = _Problem(dims, mesh, element_bytes, target, forbid_whole_gathers=True)
    try:
        steps = _search(p, _state(p, source), _state(p, target))
    except _SearchTooLarge:
        return None
    return None if steps is None else _plan(p, source, target, steps).bytes_received


# -- input checks ----------------------------------------------------------------


def _check_common(
    shape: Sequence[int], mesh_shape: Sequence[int] | Mesh, element_bytes: int
) -> tuple[Mesh, tuple[int, ...]]:
    mesh = mesh_shape if isinstance(mesh_shape, Mesh) else Mesh(tuple(mesh_shape))
    if isinstance(element_bytes, bool) or not isinstance(element_bytes, int) or element_bytes < 1:
        raise ValueError(f"element_bytes must be a positive integer, got {element_bytes!r}")
    dims = _ints(shape, "a tensor shape", ValueError)  # not int(): 4.7, True or "4" is a mistake
    if any(n < 0 for n in dims):
        raise ValueError(f"tensor sizes must be non-negative, got {_fmt(dims)}")
    return mesh, dims


def _checked(s: Sharding, name: str, mesh: Mesh, shape: tuple[int, ...]) -> Sharding:
    """`s` after validation, with offsets that describe the even split dropped."""
    if not isinstance(s, Sharding):
        raise ValueError(f"the {name} must be a Sharding, got {s!r}")
    try:
        s.validate(mesh, shape)
    except ShardingError as e:
        raise ValueError(f"invalid {name} sharding ({s}): {e}") from None
    if s.sharded_dims_offsets and _offsets_are_default(s, mesh, shape):
        s = Sharding(s.split_axes, s.partial_axes, s.partial_type, s.halo_sizes)
    return s


def _offsets_are_default(s: Sharding, mesh: Mesh, shape: tuple[int, ...]) -> bool:
    """Do the sharded_dims_offsets of `s` describe the cut without offsets
    (the even split, or upstream's rule for sizes the mesh does not divide)?"""
    for d in s.sharded_dims():
        if tuple(s.offsets(d, mesh) or ()) != _default_bounds(shape[d], s.shard_count(d, mesh)):
            return False
    return True


def _without_halos(s: Sharding) -> Sharding:
    return Sharding(s.split_axes, s.partial_axes, s.partial_type)


def _full_split(s: Sharding, rank: int) -> Split:
    return tuple(s.axes_of(d) for d in range(rank))


# -- layouts as search states ----------------------------------------------------

_State = tuple[Split, tuple[int, ...], str, tuple]
"""(split axes per tensor dimension, sorted partial axes, partial kind,
piece boundaries per tensor dimension: None for the default cut, always
None when every piece has one size)."""


def _state(p: _Problem, s: Sharding) -> _State:
    """A layout as a search state."""
    split = _full_split(s, len(p.shape))
    bounds = []
    for d, axes in enumerate(split):
        given = s.offsets(d, p.mesh)
        b = None if given is None else _normal(p, d, axes, tuple(given))
        bounds.append(None if b is _INVALID else b)
    return (split, s.partial_axes, s.partial_type, tuple(bounds))


def _sharding(p: _Problem, state: _State) -> Sharding:
    split, partial, kind, bounds = state
    offsets: list[int] = []
    if any(b is not None for b in bounds):
        for d, axes in enumerate(split):
            if axes:
                offsets += _actual(p, d, axes, bounds[d])
    return Sharding(split, partial, kind, (), tuple(offsets))


@dataclass
class _Problem:
    shape: tuple[int, ...]
    mesh: Mesh
    element_bytes: int
    target: Sharding

    forbid_whole_gathers: bool = False
    """Leave out all_gathers that make a dimension whole which the target
    splits (only to check, in tests, that such gathers are never dearer)."""

    budget: int | None = None
    """How many candidate moves the exact search may examine (None: the
    module's `EXACT_SEARCH_BUDGET`, read when the problem is made)."""

    uneven: bool = False
    """Pieces may differ in size: a cut fits where the new pieces tile the
    old ones (module docstring, "Uneven pieces").  Otherwise every layout
    visited has pieces of one size: a cut fits where the size divides."""

    dynamic_dims: frozenset[int] = frozenset()
    dynamic_axes: frozenset[int] = frozenset()
    goal_bounds: tuple = ()
    """The target's piece boundaries per dimension (None: the default cut)."""

    def __post_init__(self) -> None:
        self.sizes = self.mesh.shape
        self.classes: dict[tuple, list[Split]] = {}
        self.defaults: dict[tuple[int, int], tuple[int, ...]] = {}
        self.counts: dict[tuple[int, ...], int] = {}
        self.reductions: dict[Split, Split] = {}
        self.fits: dict[tuple, list[_Fit]] = {}
        self.spent = 0
        if self.budget is None:
            self.budget = EXACT_SEARCH_BUDGET

    def spend(self, n: int = 1) -> None:
        """Count `n` examined candidates; past the budget the exact search
        gives way to `_decompose`."""
        self.spent += n
        if self.spent > self.budget:
            raise _SearchTooLarge

    def count(self, axes: tuple[int, ...]) -> int:
        """Devices along `axes` (memoized: the search asks about the same few
        tuples of axes again and again)."""
        n = self.counts.get(axes)
        if n is None:
            n = self.counts[axes] = math.prod(self.sizes[a] for a in axes)
        return n

    def slices(self, d: int, axes: tuple[int, ...], b, free: tuple[int, ...]) -> list[_Fit]:
        """The all_slices of dimension `d` (split over `axes`, boundaries
        `b`) over a sequence of the `free` axes that fit, as (the
        sequence's place among every order of every subset of the free
        axes: by length, then in `itertools.permutations` order; the
        sequence; the new boundaries), in that order; memoized, as layouts
        of a search share most dimensions."""
        key = (d, axes, b, free)
        found = self.fits.get(key)
        if found is None:
            if self.uneven:
                candidates: Iterator[tuple[int, ...]] = itertools.chain.from_iterable(
                    itertools.permutations(free, r) for r in range(1, len(free) + 1)
                )
            else:
                # pieces of one size: a sequence fits when its devices divide
                # what is left of the dimension, so no longer one does when
                # a prefix does not
                size, pieces = self.shape[d], self.count(axes)
                candidates = iter(()) if size % pieces else self._dividing(size // pieces, free)
            place = {a: i for i, a in enumerate(free)}
            found = []
            for seq in candidates:
                nb = _refined(self, d, axes, b, seq)
                if nb is not _INVALID:
                    found.append(((len(seq), tuple(place[a] for a in seq)), seq, nb))
            found.sort(key=_first)
            self.fits[key] = found
        return found

    def _dividing(self, n: int, free: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """The sequences of distinct `free` axes whose devices divide `n`."""
        stack: list[tuple[tuple[int, ...], int]] = [((), n)]
        while stack:
            seq, left = stack.pop()
            for a in free:
                size = self.sizes[a]
                if a not in seq and left % size == 0:
                    stack.append((seq + (a,), left // size))
                    yield seq + (a,)

    def reduced(self, split: Split) -> Split:
        """`_reduced(split)` on this mesh (memoized: a search meets the
        same splits again and again)."""
        found = self.reductions.get(split)
        if found is None:
            found = self.reductions[split] = _reduced(split, self.sizes)
        return found

    def permute_table(self, *splits: Split) -> int:
        """Entries of the table `_permutation` walks between `splits`: the
        devices over every mesh axis they use."""
        return math.prod(self.sizes[a] for a in {a for split in splits for axes in split for a in axes})

    def local_elements(self, split: Split) -> int:
        return math.prod(n // self.count(axes) for n, axes in zip(self.shape, split))

    def same_counts(self, counts: tuple[int, ...], partial: tuple[int, ...]) -> list[Split]:
        """Every split with `counts` pieces per dimension that leaves the
        `partial` axes alone: the layouts one Permute reaches."""
        key = (counts, partial)
        if key not in self.classes:
            free = [a for a in range(len(self.sizes)) if a not in partial]
            out: list[Split] = []

            def grow(dim: int, used: frozenset[int], acc: list[tuple[int, ...]], seq: tuple[int, ...], n: int) -> None:
                # every order of unused axes whose sizes multiply to counts[dim],
                # grown axis by axis: a product that does not divide it never will
                self.spend()
                if n == counts[dim]:
                    fill(dim + 1, used, acc + [seq])
                for a in free:
                    if a not in used and counts[dim] % (n * self.sizes[a]) == 0:
                        grow(dim, used | {a}, acc, seq + (a,), n * self.sizes[a])

            def fill(dim: int, used: frozenset[int], acc: list[tuple[int, ...]]) -> None:
                if dim == len(counts):
                    out.append(tuple(acc))
                    return
                grow(dim, used, acc, (), 1)

            fill(0, frozenset(), [])
            self.classes[key] = out
        return self.classes[key]


def _reduced(split: Split, sizes: tuple[int, ...]) -> Split:
    """`split` without mesh axes of size 1, which do not change who holds what."""
    return tuple(tuple(a for a in axes if sizes[a] > 1) for axes in split)


def _step_key(step: Step) -> tuple:
    """A total order on steps of every kind (all keys have one shape)."""
    order = _KIND_ORDER[type(step)]
    if isinstance(step, AllGather | AllSlice):
        return (order, step.axes, step.dim, -1, "", ())
    if isinstance(step, AllToAll):
        return (order, step.axes, step.split_dim, step.concat_dim, "", ())
    if isinstance(step, AllReduce | Partialize):
        return (order, step.axes, -1, -1, step.kind, ())
    if isinstance(step, ReduceScatter):
        return (order, step.axes, step.dim, -1, step.kind, ())
    if isinstance(step, Permute):
        return (order, step.axes, -1, -1, "", step.split_axes)
    if isinstance(step, Exchange):
        return (order, (), -1, -1, "", step.split_axes)
    return (order, (), -1, -1, "", ())


def _moves(p: _Problem, state: _State, last: Step | None = None) -> Iterator[tuple[Step, _State, int]]:
    """Every step that applies to `state`, with the layout it leads to and
    its cost (the most bytes a device receives, padding included).  A step
    that cuts is kept only where its new pieces fit (`_refined`).

    `last` is the step the search reached `state` by (None: any way).
    After a Permute no Permute is generated: one Permute from the state
    before reaches the same layout (same pieces per dimension, same
    boundaries) for no more bytes in fewer steps, so such a path is never
    the cheapest (on meshes within `MAX_PERMUTE_DEVICES`, where every
    Permute's table fits)."""
    split, partial, kind, bounds = state
    rank = len(split)
    eb = p.element_bytes
    counts = tuple(p.count(axes) for axes in split)
    widest = [_widest(n, k, b) for n, k, b in zip(p.shape, counts, bounds)]
    elems = math.prod(widest)

    def cut_cost(d: int, g: int, b) -> int:
        """Bytes of a step that cuts dimension `d` `g` times finer into
        pieces `b`: (g - 1) of the padded pieces, all but the device's own."""
        outside = elems // widest[d] if widest[d] else 0  # a dimension of 0 moves nothing
        return (g - 1) * _widest(p.shape[d], counts[d] * g, b) * outside * eb

    used = {a for axes in split for a in axes} | set(partial)
    free = [a for a in range(len(p.sizes)) if a not in used]

    # gather a suffix of a dimension's axes
    for d, axes in enumerate(split):
        for k in range(1, len(axes) + 1):
            p.spend()
            if p.forbid_whole_gathers and k == len(axes) and p.target.axes_of(d):
                continue
            b = _coarsened(p, d, axes, bounds[d], k)
            if b is _INVALID:
                continue
            g = p.count(axes[-k:])
            new, nb = _with_dim(split, bounds, d, axes[:-k], b)
            yield AllGather(axes[-k:], d), (new, partial, kind, nb), (g - 1) * elems * eb
    # slice over free axes (every order of every subset is a candidate for
    # every dimension; those that fit come from `_Problem.slices`, in the
    # order of the sequences, then of the dimensions)
    free_key = tuple(free)
    # (charged before any is listed: past the budget the search stops here,
    # before listing the orders of many free axes, which grow factorially)
    p.spend(rank * _orders(len(free_key)))
    fitting = [(i, d, seq, b) for d in range(rank) for i, seq, b in p.slices(d, split[d], bounds[d], free_key)]
    fitting.sort(key=_first_two)
    for _, d, seq, b in fitting:
        new, nb = _with_dim(split, bounds, d, split[d] + seq, b)
        yield AllSlice(seq, d), (new, partial, kind, nb), 0
    # all_to_all: a suffix of concat_dim to the end of split_dim
    for c, axes in enumerate(split):
        for k in range(1, len(axes) + 1):
            p.spend(rank)
            bc = _coarsened(p, c, axes, bounds[c], k)
            if bc is _INVALID:
                continue
            suffix = axes[-k:]
            g = p.count(suffix)
            joined, jb = _with_dim(split, bounds, c, axes[:-k], bc)
            for t in range(rank):
                if t == c:
                    continue
                grown = split[t] + suffix
                bt = _refined(p, t, split[t], bounds[t], suffix)
                if bt is _INVALID:
                    continue
                new, nb = _with_dim(joined, jb, t, grown, bt)
                yield AllToAll(suffix, t, c), (new, partial, kind, nb), cut_cost(t, g, bt)
    # reductions of partial axes (an average only over all of them at once:
    # integer averages truncate, so averaging in stages is not the average)
    for r in range(len(partial) if kind == "average" else 1, len(partial) + 1):
        for sub in itertools.combinations(partial, r):
            p.spend()
            left = tuple(a for a in partial if a not in sub)
            g = p.count(sub)
            cost = all_reduce_elements(elems, g) * eb
            yield AllReduce(sub, kind), (split, left, kind if left else "sum", bounds), cost
        for seq in itertools.permutations(partial, r):
            p.spend(rank)
            left = tuple(a for a in partial if a not in seq)
            g = p.count(seq)
            for d in range(rank):
                b = _refined(p, d, split[d], bounds[d], seq)
                if b is _INVALID:
                    continue
                grown = split[d] + seq
                new, nb = _with_dim(split, bounds, d, grown, b)
                yield ReduceScatter(seq, kind, d), (new, left, kind if left else "sum", nb), cut_cost(d, g, b)
    # make target partial axes partial
    tkind = p.target.partial_type
    if p.target.partial_axes and (not partial or kind == tkind):
        candidates = [a for a in p.target.partial_axes if a in free]
        for r in range(1, len(candidates) + 1):
            for sub in itertools.combinations(candidates, r):
                p.spend()
                yield Partialize(sub, tkind), (split, tuple(sorted(partial + sub)), tkind, bounds), 0
    # permute to any layout with as many pieces per dimension: whole pieces
    # change hands and the boundaries stay, so only on static mesh axes
    if isinstance(last, Permute) and p.mesh.size <= MAX_PERMUTE_DEVICES:
        return
    others = p.same_counts(counts, partial)
    # (the caller takes every move, so counting them all at once runs out
    # of budget exactly when counting one by one would)
    p.spend(len(others))
    reduced = p.reduced
    mine = reduced(split)
    # a table never has more entries than the mesh has devices
    check_table = p.mesh.size > MAX_PERMUTE_DEVICES
    whole = elems * eb
    for other in others:
        if other == split or (check_table and p.permute_table(split, other) > MAX_PERMUTE_DEVICES):
            continue
        if p.dynamic_axes and any(a in p.dynamic_axes for axes in (*split, *other) for a in axes):
            continue
        yield Permute((), (), other), (other, partial, kind, bounds), 0 if reduced(other) == mine else whole


@functools.cache
def _orders(k: int) -> int:
    """How many orders of non-empty subsets `k` axes have (`_Problem.slices`)."""
    return sum(math.perm(k, r) for r in range(1, k + 1))


def _first_two(entry: tuple) -> tuple:
    return entry[:2]


def _first(entry: tuple):
    return entry[0]


def _with_dim(split: Split, bounds: tuple, d: int, axes: tuple[int, ...], b) -> tuple[Split, tuple]:
    """`split` and `bounds` with dimension `d` replaced (the same `bounds`
    when they do not change, as on pieces of one size)."""
    nb = bounds if b == bounds[d] else bounds[:d] + (b,) + bounds[d + 1 :]
    return split[:d] + (axes,) + split[d + 1 :], nb


def _search(p: _Problem, start: _State, goal: _State) -> list[Step] | None:
    """The cheapest path from `start` to `goal`; ties go to fewer steps,
    then to the smaller sequence of step keys.  None if there is no path.

    States are taken in the order of their cost so far plus `_Remaining`'s
    bound on the cost still to come (A*): the bound is consistent (no step
    lowers it by more than the step costs), so the search still returns the
    plan least in (cost, steps, keys), but it no longer examines every
    cheaper layout first, which on meshes of four or more axes (where
    slicing over free axes reaches hundreds of layouts for nothing) ran
    past the budget.  Among equal cost plus bound, states go by steps so
    far plus `_StepsLeft`'s bound (also consistent, so the order of the
    plans least in cost is kept: fewest steps, then keys)."""
    remaining = _Remaining.of(p, goal)
    steps_left = _StepsLeft.of(p, goal)
    best: dict[_State, tuple] = {start: (0, 0, ())}
    parent: dict[_State, tuple[_State, Step]] = {}
    heap: list[tuple] = [(remaining(start), steps_left(start), (), 0, 0, start)]
    while heap:
        _, _, keys, cost, n, state = heapq.heappop(heap)
        if best[state] != (cost, n, keys):
            continue
        if state == goal:
            break
        for step, new, c in _moves(p, state, parent[state][1] if state in parent else None):
            known = best.get(new)
            if known is not None and (cost + c, n + 1) > known[:2]:
                continue  # (without making the step's key: most moves reach a layout already reached for less)
            cand = (cost + c, n + 1, keys + (_step_key(step),))
            if known is None or cand < known:
                best[new] = cand
                parent[new] = (state, step)
                order = (cand[0] + remaining(new), cand[1] + steps_left(new), cand[2])
                heapq.heappush(heap, (*order, cand[0], cand[1], new))
    else:
        return None
    path: list[tuple[_State, Step, _State]] = []
    state = goal
    while state != start:
        prev, step = parent[state]
        path.append((prev, step, state))
        state = prev
    steps: list[Step] = []
    for prev, step, new in reversed(path):
        if isinstance(step, Permute):
            axes, perm = _permutation(p.mesh, prev[0], new[0])
            step = Permute(axes, perm, _sharding(p, new).split_axes)
        steps.append(step)
    return steps


class _Remaining:
    """A lower bound on the bytes still to move from a search state to the
    goal, consistent (no move lowers it by more than the move costs, and it
    is 0 at the goal), so A* returns the plain order's plan.  The larger of:

    Held.  The most any device must receive of its goal piece that it does
    not hold (`lower_bound`'s reasoning, on states).  A device holds its
    piece when the state keeps (no partial axis of size > 1, or only ones
    the goal keeps partial with the same kind), else nothing: it holds
    terms, which a reduction must complete.  Consistent: a device's piece
    after a move is what it held plus what it received, and a move costs at
    least what each device receives (padding only adds).  Partialize (free)
    keeps pieces; no move leads from a state that keeps to one that does
    not; the reduction that makes a state keep gives a device at most its
    new piece and costs at least that (group g >= 2: 2 (g-1)/g of the piece
    for all_reduce, g - 1 new pieces for reduce_scatter).  Unlike
    `lower_bound`, no device is let off for holding a sum's identity: only
    Partialize makes one, and it keeps pieces.

    Terms (goals that are not partial; `terms`).  A move costs at least
    the average a device receives, so N times its cost bounds what all N
    devices receive.  In a state partial over a group of k > 1 devices,
    every cell needs k - 1 receptions to combine its k terms once and one
    more for every device that wants it but the first: T = W (k - 2) + the
    goal pieces' elements summed (W: the tensor's), and the bound is T / N.
    Consistent: with n pieces, N/n >= k devices hold each cell, and a
    reduction over a group of g receives at least (g-1)/g of every piece,
    (g-1)/g W N/n in all.  With terms left (k to k/g) it lowers T by
    W k (g-1)/g, no more (k <= N/n).  The last one lowers T (then the
    devices' needs summed, at most N times Held) by at most
    W (k-2) plus what the devices then hold: f W for reduce_scatter
    (f = N/(n k) >= 1) against (k-1) f W received, no less as
    k - 2 <= (k-2) f; k f W for all_reduce against 2 (k-1) f W.  Other
    moves keep k and T.

    Meshes too large to list search without a bound."""

    LIMIT = 1 << 12
    """The most devices the bound lists (one entry per device per dimension)."""

    def __init__(self, p: _Problem, goal: _State) -> None:
        self.p = p
        # Per mesh axis, its coordinates along an array dimension of its
        # own (size 1 along the others): a device's piece depends only on
        # the axes a layout uses, so arrays broadcast over those axes alone,
        # and their maxima and sums are those over every device.
        rank = len(p.sizes)
        self.devices = math.prod(p.sizes)
        self.coords = [
            np.arange(n, dtype=np.int64).reshape([n if k == a else 1 for k in range(rank)])
            for a, n in enumerate(p.sizes)
        ]
        self.scalar_shape = (1,) * rank
        self.indices: dict[tuple[int, ...], np.ndarray] = {}
        self.edges: dict[tuple, np.ndarray] = {}
        gsplit, gpartial, gkind, gbounds = goal
        self.goal_partial = frozenset(a for a in gpartial if p.sizes[a] > 1)
        self.goal_kind = gkind
        self.goal_pieces = [self.pieces(d, gsplit[d], gbounds[d]) for d in range(len(p.shape))]
        goal_volume = np.ones(self.scalar_shape, dtype=np.int64)
        for lo, hi in self.goal_pieces:
            goal_volume = goal_volume * (hi - lo)
        self.goal_volume = goal_volume
        self.whole = int(goal_volume.max(initial=0)) * p.element_bytes
        # (each entry stands for the devices that differ only along the axes it is broadcast over)
        self.wanted = int(goal_volume.sum()) * (self.devices // goal_volume.size)
        self.overlaps: dict[tuple, np.ndarray] = {}
        self.bounds: dict[_State, int] = {}

    @classmethod
    def of(cls, p: _Problem, goal: _State) -> Callable[[_State], int]:
        """The bound as a function of a state (0 where there is none),
        shared by the searches toward one goal (`_shared`)."""
        if p.mesh.size > cls.LIMIT:
            return lambda state: 0
        return _shared(cls, (p.shape, p.sizes, p.element_bytes, goal), p, goal)

    def pieces(self, d: int, axes: tuple[int, ...], b) -> tuple[np.ndarray, np.ndarray]:
        """[start, stop) of every device's piece of dimension `d` split over
        `axes` with boundaries `b` (first listed axis outermost)."""
        if not axes:
            return np.zeros(self.scalar_shape, dtype=np.int64), np.full(
                self.scalar_shape, self.p.shape[d], dtype=np.int64
            )
        # (a device's piece number along `axes`, and a dimension's edges,
        # recur across dimensions and layouts: each is made once)
        index = self.indices.get(axes)
        if index is None:
            index = np.zeros(self.scalar_shape, dtype=np.int64)
            for a in axes:
                index = index * self.p.sizes[a] + self.coords[a]
            self.indices[axes] = index
        key = (d, self.p.count(axes), b)
        edges = self.edges.get(key)
        if edges is None:
            edges = self.edges[key] = np.asarray(_actual(self.p, d, axes, b), dtype=np.int64)
        return edges[index], edges[index + 1]

    def __call__(self, state: _State) -> int:
        found = self.bounds.get(state)
        if found is None:
            found = self.bounds[state] = self.compute(state)
        return found

    def compute(self, state: _State) -> int:
        split, partial, kind, bounds = state
        sizes = self.p.sizes
        live = [a for a in partial if sizes[a] > 1]
        if live and not (kind == self.goal_kind and self.goal_partial.issuperset(live)):
            if self.goal_partial:
                return self.whole
            return max(self.whole, self.terms(math.prod(sizes[a] for a in live)))
        held = None
        for d, axes in enumerate(split):
            key = (d, axes, bounds[d])
            overlap = self.overlaps.get(key)
            if overlap is None:
                lo, hi = self.pieces(d, axes, bounds[d])
                glo, ghi = self.goal_pieces[d]
                overlap = self.overlaps[key] = np.maximum(np.minimum(hi, ghi) - np.maximum(lo, glo), 0)
            held = overlap if held is None else held * overlap
        if held is None:
            return 0  # a scalar that keeps: every device holds it
        return int((self.goal_volume - held).max(initial=0)) * self.p.element_bytes

    def terms(self, k: int) -> int:
        """Bytes of the "Terms" bound of a state partial over a group of `k`
        devices: T / N, rounded down (a consistent bound stays so)."""
        total = math.prod(self.p.shape) * (k - 2) + self.wanted
        return total * self.p.element_bytes // self.devices


class _StepsLeft:
    """A lower bound on the steps still to take from a search state to the
    goal: 0 at the goal, 1 where some single move might reach it, else 2.
    It never falls by more than 1 along a move, so ordering the states of
    equal cost-plus-bound by steps taken plus this bound still returns the
    plan least in (cost, steps, keys); among the many layouts a zero-cost
    slice over a free axis reaches at no change of the byte bound, the
    ones that cannot finish next wait until the goal is found.

    "Might reach it" is checked loosely (a move's own conditions, such as
    pieces that fit or the Permute size limit, are not), which only makes
    the bound smaller."""

    def __init__(self, p: _Problem, goal: _State) -> None:
        self.p = p
        self.goal = goal
        self.found: dict[_State, int] = {}

    @classmethod
    def of(cls, p: _Problem, goal: _State) -> Callable[[_State], int]:
        """The bound as a function of a state (`_shared`)."""
        return _shared(cls, (p.sizes, goal), p, goal)

    def __call__(self, state: _State) -> int:
        found = self.found.get(state)
        if found is None:
            found = self.found[state] = 0 if state == self.goal else 1 if self.one_move(state) else 2
        return found

    def one_move(self, state: _State) -> bool:
        """Whether some move might lead from `state` to the goal."""
        split, partial, kind, bounds = state
        gsplit, gpartial, gkind, gbounds = self.goal
        diff = [d for d in range(len(split)) if split[d] != gsplit[d] or bounds[d] != gbounds[d]]
        if not diff:
            return True  # only the partial axes differ: a reduction or Partialize
        if partial != gpartial or (partial and kind != gkind):
            # only reduce_scatter changes the partial axes and the split
            if len(diff) != 1:
                return False
            a, b = split[diff[0]], gsplit[diff[0]]
            return len(b) > len(a) and b[: len(a)] == a
        if len(diff) == 1:
            a, b = split[diff[0]], gsplit[diff[0]]
            if a[: len(b)] == b or b[: len(a)] == a:
                return True  # all_gather or all_slice
        elif len(diff) == 2:
            for c, t in (diff, diff[::-1]):
                a, b = split[c], gsplit[c]
                if len(b) < len(a) and a[: len(b)] == b and gsplit[t] == split[t] + a[len(b) :]:
                    return True  # all_to_all
        count = self.p.count
        return all(count(a) == count(b) for a, b in zip(split, gsplit))  # Permute


_BOUNDS: dict[tuple, _Remaining | _StepsLeft] = {}
"""The search bounds by what they depend on (`_shared`)."""

_BOUNDS_KEPT = 512
"""How many `_BOUNDS` keeps before it starts again."""


def _shared(cls: type, key: tuple, p: _Problem, goal: _State) -> _Remaining | _StepsLeft:
    """The bound `cls` toward `goal` for problems alike in `key` (what the
    bound reads of the problem): a compile plans many layout changes toward
    a few goals (on a five-axis mesh, 376 searches toward 46), and each
    bound remembers what it found per state."""
    key = (cls, *key)
    found = _BOUNDS.get(key)
    if found is None:
        if len(_BOUNDS) >= _BOUNDS_KEPT:
            _BOUNDS.clear()
        found = _BOUNDS[key] = cls(p, goal)
    return found


# -- the decomposition past the search budget ------------------------------------


def _decompose(p: _Problem, start: _State, goal: _State) -> list[Step]:
    """A plan within the module docstring's bound ("Decomposition"), in time
    polynomial in the mesh and tensor ranks: reduce what the target does not
    keep partial, then the cheapest of (a) `_move_axes`, (b) gather every
    dimension whole and slice, (c) one Permute when the pieces per dimension
    already match, (d) a Permute to `_toward`'s layout then `_move_axes`;
    then make the target's partial axes partial.  Pieces of different sizes
    only surely fit when cut from whole, so for them (b) is the plan."""
    split, partial, kind, _ = start
    tsplit, tpartial, tkind, _ = goal
    steps: list[Step] = []
    if partial and not (kind == tkind and set(partial) <= set(tpartial)):
        # an average is only reduced over its whole group (see `_moves`)
        keep = kind == tkind and kind != "average"
        sub = tuple(a for a in partial if not (keep and a in tpartial))
        steps.append(AllReduce(sub, kind))
        partial = tuple(a for a in partial if a not in sub)
        kind = kind if partial else "sum"
    whole = [AllGather(axes, d) for d, axes in enumerate(split) if axes]
    whole += [AllSlice(axes, d) for d, axes in enumerate(tsplit) if axes]
    if p.uneven:
        steps += whole
    else:
        options: list[list[Step]] = [_move_axes(split, tsplit, partial), whole]
        counts = tuple(p.count(axes) for axes in split)
        if (
            split != tsplit
            and counts == tuple(p.count(axes) for axes in tsplit)
            and p.permute_table(split, tsplit) <= MAX_PERMUTE_DEVICES
        ):
            axes, perm = _permutation(p.mesh, split, tsplit)
            options.append([Permute(axes, perm, Sharding(tsplit).split_axes)])
        toward = _toward(p, split, tsplit, partial)
        if toward is not None and toward != split and p.permute_table(split, toward) <= MAX_PERMUTE_DEVICES:
            axes, perm = _permutation(p.mesh, split, toward)
            options.append([Permute(axes, perm, Sharding(toward).split_axes), *_move_axes(toward, tsplit, partial)])
        steps += min(options, key=lambda o: (_path_cost(p, split, o), len(o)))
    extra = tuple(a for a in tpartial if a not in partial)
    if extra:
        steps.append(Partialize(extra, tkind))
    return steps


def _toward(p: _Problem, split: Split, tsplit: Split, partial: tuple[int, ...]) -> Split | None:
    """A layout with `split`'s pieces per dimension (one Permute away) that
    starts every dimension with as much of the target's axes as fit, the
    rest filled with other free axes (None if the sizes do not fill)."""
    out: list[tuple[int, ...]] = []
    left: list[int] = []
    taken = set(partial)
    for axes, want in zip(split, tsplit):
        n, pre = p.count(axes), ()
        for a in want:
            if a in taken or n % (p.count(pre) * p.sizes[a]):
                break
            pre += (a,)
        taken |= set(pre)
        out.append(pre)
        left.append(n // p.count(pre))
    # fill with the target's axes first (by position), then the source's, then the rest
    pool = [a for i in range(len(p.sizes)) for want in tsplit if i < len(want) for a in want[i : i + 1]]
    pool += [a for axes in split for a in axes] + list(range(len(p.sizes)))
    for d, need in enumerate(left):
        for a in pool:
            if need == 1:
                break
            if a not in taken and need % p.sizes[a] == 0:
                out[d] += (a,)
                taken.add(a)
                need //= p.sizes[a]
        if need != 1:
            return None
    return tuple(out)


def _move_axes(split: Split, tsplit: Split, partial: tuple[int, ...]) -> list[Step]:
    """One mesh axis at a time, from `split` to `tsplit`: call a dimension
    done while its axes are a prefix of the target's; slice a free axis that
    is the next of a done dimension (free), else move the last axis of a
    dimension that is not done to the done dimension that wants it next
    (all_to_all), else gather the last axis of a dimension that is not done.
    Axes of the common prefixes never move, each other source axis moves at
    most once (gathered or moved), so there are at most 2 * mesh rank steps;
    consecutive gathers or slices of one dimension are merged."""
    cur = list(split)
    rank = len(cur)
    steps: list[Step] = []

    def done(d: int) -> bool:
        return cur[d] == tsplit[d][: len(cur[d])]

    def wants(d: int) -> int | None:
        return tsplit[d][len(cur[d])] if done(d) and len(cur[d]) < len(tsplit[d]) else None

    while tuple(cur) != tuple(tsplit):
        used = {a for axes in cur for a in axes} | set(partial)
        step: Step | None = None
        for d in range(rank):
            a = wants(d)
            if a is not None and a not in used:
                step, cur[d] = AllSlice((a,), d), cur[d] + (a,)
                break
        if step is None:
            for c in range(rank):
                if done(c):
                    continue
                a = cur[c][-1]
                s = next((s for s in range(rank) if s != c and wants(s) == a), None)
                if s is not None:
                    step, cur[c], cur[s] = AllToAll((a,), s, c), cur[c][:-1], cur[s] + (a,)
                    break
        if step is None:
            c = next(c for c in range(rank) if not done(c))
            step, cur[c] = AllGather((cur[c][-1],), c), cur[c][:-1]
        last = steps[-1] if steps else None
        if isinstance(step, AllSlice) and isinstance(last, AllSlice) and last.dim == step.dim:
            steps[-1] = AllSlice(last.axes + step.axes, step.dim)
        elif isinstance(step, AllGather) and isinstance(last, AllGather) and last.dim == step.dim:
            steps[-1] = AllGather(step.axes + last.axes, step.dim)
        else:
            steps.append(step)
    return steps


def _path_cost(p: _Problem, split: Split, steps: Sequence[Step]) -> int:
    """The sum of the steps' costs (the most elements a device receives in
    each) from a layout split as `split`, without listing devices."""
    total = 0
    for step in steps:
        elems = p.local_elements(split)
        if isinstance(step, Permute):
            moved = _reduced(tuple(step.split_axes) + ((),) * (len(split) - len(step.split_axes)), p.sizes)
            total += 0 if moved == _reduced(split, p.sizes) else elems
            split = tuple(step.split_axes) + ((),) * (len(split) - len(step.split_axes))
            continue
        total += uniform_cost(step, elems, p.mesh)
        new = list(split)
        if isinstance(step, AllGather):
            new[step.dim] = split[step.dim][: -len(step.axes)]
        elif isinstance(step, AllSlice):
            new[step.dim] = split[step.dim] + step.axes
        elif isinstance(step, AllToAll):
            new[step.concat_dim] = split[step.concat_dim][: -len(step.axes)]
            new[step.split_dim] = split[step.split_dim] + step.axes
        split = tuple(new)
    return total


# -- permutations ----------------------------------------------------------------


def _permutation(mesh: Mesh, before: Split, after: Split) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(axes, perm) of a Permute from `before` to `after` (same pieces per
    dimension): every device gets a piece it wants from the device that holds
    it, fixed points first; then mesh axes that the permutation leaves alone
    (the same permutation of the others for every coordinate) are dropped."""
    sizes = mesh.shape
    axes = sorted({a for s in (before, after) for dim in s for a in dim})
    n = math.prod(sizes[a] for a in axes)
    if n > MAX_PERMUTE_DEVICES:
        raise ValueError(f"a permutation of {n} devices is past the planner's limit of {MAX_PERMUTE_DEVICES} devices")
    coords = _coordinates(mesh, axes)[:, axes]  # (one row per device over `axes`, in row-major order)
    every = np.zeros((len(coords), mesh.rank), dtype=np.int64)
    every[:, axes] = coords
    have, want = _piece_ids(before, sizes, every), _piece_ids(after, sizes, every)
    # device j's source: itself where it holds what it wants, else the k-th
    # device (in order) holding the piece that is the k-th wanted among the rest
    source = np.arange(len(coords))
    moving = np.flatnonzero(have != want)
    givers = moving[np.argsort(have[moving], kind="stable")]
    takers = moving[np.argsort(want[moving], kind="stable")]
    source[takers] = givers
    src, dst = coords[source], coords  # device src[k] sends to dst[k]
    # drop axes the permutation does not need: it keeps their coordinate, and
    # moves every device alike whatever that coordinate is
    pos = 0
    while pos < len(axes):
        rest = [k for k in range(len(axes)) if k != pos]
        radix = tuple(sizes[axes[k]] for k in rest)
        ki = np.ravel_multi_index(tuple(src[:, rest].T), radix) if rest else np.zeros(len(src), dtype=np.int64)
        kj = np.ravel_multi_index(tuple(dst[:, rest].T), radix) if rest else np.zeros(len(dst), dtype=np.int64)
        first = np.full(math.prod(radix), -1, dtype=np.int64)
        first[ki[::-1]] = kj[::-1]  # (per reduced source, the destination of its first row)
        if np.array_equal(src[:, pos], dst[:, pos]) and np.array_equal(first[ki], kj):
            axes.pop(pos)
            keep = np.unique(ki, return_index=True)[1]
            src, dst = src[keep][:, rest], dst[keep][:, rest]
        else:
            pos += 1
    radix = tuple(sizes[a] for a in axes)
    if not axes:
        return (), (0,)
    perm = np.empty(math.prod(radix), dtype=np.int64)
    perm[np.ravel_multi_index(tuple(src.T), radix)] = np.ravel_multi_index(tuple(dst.T), radix)
    return tuple(axes), tuple(int(k) for k in perm)


def _piece_ids(split: Split, sizes: tuple[int, ...], coords: np.ndarray) -> np.ndarray:
    """`piece_key` of every row of `coords` (all mesh axes), as one number
    per device (the pieces' indices in mixed radix)."""
    out = np.zeros(len(coords), dtype=np.int64)
    for axes in split:
        count = math.prod(sizes[a] for a in axes)
        out = out * count + _group_index(axes, sizes, coords)
    return out


# -- applying steps to layouts ---------------------------------------------------


def _apply(p: _Problem, step: Step, layout: Sharding) -> Sharding:
    """The layout after `step`, or ValueError if the step does not fit; on
    pieces of different sizes, with their boundaries (module docstring,
    "Uneven pieces")."""
    mesh, shape = p.mesh, p.shape
    original = layout
    if isinstance(step, Recut):
        return _recut_applied(p, step, layout)
    if p.uneven:
        if layout.halo_sizes or isinstance(step, UpdateHalo):
            raise ValueError(f"{step} does not apply to {layout}: halos on uneven pieces are not supported yet")
        layout = Sharding(layout.split_axes, layout.partial_axes, layout.partial_type)  # boundaries: below
    rank = len(shape)
    split = list(_full_split(layout, rank))
    partial, kind = layout.partial_axes, layout.partial_type
    used = {a for axes in split for a in axes} | set(partial)

    def bad(why: str) -> ValueError:
        return ValueError(f"{step} does not apply to {layout}: {why}")

    def dim_ok(d: int) -> None:
        if not 0 <= d < rank:
            raise bad(f"tensor dimension {d} is out of range for rank {rank}")

    def axes_ok(axes: Sequence[int]) -> tuple[int, ...]:
        try:
            return mesh.check_axes(axes)
        except ValueError as e:
            raise bad(str(e)) from None

    if isinstance(step, UpdateHalo):
        given = tuple(step.split_axes) + ((),) * (rank - len(step.split_axes))
        halos = tuple(step.source_halos) if any(step.source_halos) else ()
        if given != tuple(split) or halos != layout.halo_sizes:
            raise bad("its split axes or source halos are not the layout's")
        new = Sharding(layout.split_axes, partial, kind, step.destination_halos)
        try:
            new.validate(mesh, shape)
        except ShardingError as e:
            raise bad(str(e)) from None
        return new
    if layout.halo_sizes:
        raise bad("the layout has halos; drop them first with update_halo")
    if isinstance(step, AllGather | AllSlice | AllToAll | ReduceScatter | Partialize | AllReduce):
        axes = axes_ok(step.axes)
        if not axes:
            raise bad("no mesh axes")
    if isinstance(step, AllGather):
        dim_ok(step.dim)
        if split[step.dim][-len(axes) :] != axes:
            raise bad(f"mesh axes {_fmt(axes)} are not the innermost axes of tensor dimension {step.dim}")
        split[step.dim] = split[step.dim][: -len(axes)]
    elif isinstance(step, AllSlice | Partialize):
        if used & set(axes):
            raise bad("the mesh axes are already used")
        if isinstance(step, AllSlice):
            dim_ok(step.dim)
            split[step.dim] = split[step.dim] + axes
        else:
            if partial and kind != step.kind:
                raise bad(f"the layout is already partial with {kind}")
            partial, kind = tuple(sorted(partial + axes)), step.kind
    elif isinstance(step, AllToAll):
        dim_ok(step.split_dim)
        dim_ok(step.concat_dim)
        if step.split_dim == step.concat_dim:
            raise bad("split and concat dimensions must differ")
        c = split[step.concat_dim]
        if c[-len(axes) :] != axes:
            raise bad(f"mesh axes {_fmt(axes)} are not the innermost axes of tensor dimension {step.concat_dim}")
        split[step.concat_dim] = c[: -len(axes)]
        split[step.split_dim] = split[step.split_dim] + axes
    elif isinstance(step, AllReduce | ReduceScatter):
        if not set(axes) <= set(partial) or kind != step.kind:
            raise bad(f"the layout is not partial with {step.kind} along {_fmt(axes)}")
        partial = tuple(a for a in partial if a not in axes)
        if isinstance(step, ReduceScatter):
            dim_ok(step.dim)
            split[step.dim] = split[step.dim] + axes
        if not partial:
            kind = "sum"
    elif isinstance(step, Permute):
        after = tuple(tuple(axes) for axes in step.split_axes) + ((),) * (rank - len(step.split_axes))
        if len(after) != rank:
            raise bad("the resulting split axes do not fit the tensor rank")
        try:
            Sharding(after, partial, kind).validate(mesh, shape)
        except ShardingError as e:
            raise bad(str(e)) from None
        axes = axes_ok(step.axes)
        n = mesh.group_size(axes)
        if sorted(step.perm) != list(range(n)):
            raise bad(f"perm must be a permutation of 0..{n - 1}")
        # only the coordinates along the permuted and the split axes matter
        involved = sorted(set(axes) | {a for s in (split, after) for dim in s for a in dim})
        count = mesh.group_size(involved)
        if count > MAX_PERMUTE_DEVICES:
            raise bad(f"checking it covers {count} devices, past the limit of {MAX_PERMUTE_DEVICES} devices")
        # every device sends the piece it holds to the device that holds it after
        devs = _coordinates(mesh, involved)
        dest = _sent_to(mesh, axes, step.perm, devs)
        wrong = _piece_ids(tuple(split), mesh.shape, devs) != _piece_ids(after, mesh.shape, dest)
        if wrong.any():
            first = tuple(int(c) for c in dest[int(np.argmax(wrong))])
            raise bad(f"device {_fmt(first)} would not receive the piece {_fmt_split(after)} gives it")
        split = list(after)
    elif isinstance(step, Exchange):
        if partial or p.uneven:
            raise bad("an exchange moves whole values in pieces of one size only")
        after = tuple(tuple(axes) for axes in step.split_axes) + ((),) * (rank - len(step.split_axes))
        if len(after) != rank:
            raise bad("the resulting split axes do not fit the tensor rank")
        split = list(after)
    else:
        raise TypeError(f"not a resharding step: {step!r}")
    new = Sharding(tuple(split), partial, kind)
    try:
        new.validate(mesh, shape)
    except ShardingError as e:
        raise bad(str(e)) from None
    if not p.uneven:
        return new
    before, _, _, bounds = _state(p, original)
    after = _full_split(new, rank)
    out = list(bounds)
    if not isinstance(step, Permute):
        for d, (old, axes) in enumerate(zip(before, after)):
            if old == axes:
                continue
            if axes == old[: len(axes)]:
                b = _coarsened(p, d, old, bounds[d], len(old) - len(axes))
            else:
                b = _refined(p, d, old, bounds[d], axes[len(old) :])
            if b is _INVALID:
                raise ValueError(
                    f"{step} does not apply to {original}: the pieces of tensor dimension {d} do not line up "
                    "with the new ones"
                )
            out[d] = b
    return _sharding(p, (after, new.partial_axes, new.partial_type, tuple(out)))


# -- piece boundaries (module docstring, "Uneven pieces") -----------------------

_INVALID = object()
"""A move whose pieces would not line up (module docstring, "Uneven pieces")."""


def _default_bounds(size: int, n: int) -> tuple[int, ...]:
    """Piece boundaries of `size` elements cut into `n` pieces without offsets."""
    return tuple(split_piece(size, n, i)[0] for i in range(n)) + (size,)


def _uneven_problem(
    shape: tuple[int, ...],
    mesh: Mesh,
    element_bytes: int,
    source: Sharding,
    target: Sharding | None,
    dynamic_dims: Sequence[int],
    dynamic_axes: Sequence[int],
) -> _Problem:
    """The search problem of a resharding whose pieces may differ in size;
    ValueError for what it does not cover."""
    dims = frozenset(int(d) for d in dynamic_dims)
    axes = frozenset(int(a) for a in dynamic_axes)
    for d in dims:
        if not 0 <= d < len(shape):
            raise ValueError(f"dynamic dimension {d} is out of range for a tensor of rank {len(shape)}")
    for a in axes:
        if not 0 <= a < mesh.rank:
            raise ValueError(f"dynamic mesh axis {a} is out of range for a mesh of rank {mesh.rank}")
    if mesh.size > MAX_COUNTED_DEVICES:
        raise ValueError(
            f"resharding uneven pieces is limited to meshes of {MAX_COUNTED_DEVICES} devices, got {mesh.size}"
        )
    layouts = [source] if target is None else [source, target]
    for s in layouts:
        if s.halo_sizes:
            known = not any(d in dims or any(a in axes for a in s.axes_of(d)) for d in s.sharded_dims())
            if known and s.is_even(shape, mesh) and target is not None:  # the other layout is the uneven one
                other = target if s is source else source
                raise ValueError(f"resharding between halos and uneven pieces is not supported yet: {other} is uneven")
            raise ValueError(f"halos on uneven pieces are not supported yet: {s}")
        if s.sharded_dims_offsets and (dims or axes):
            raise ValueError(f"sharded_dims_offsets with dynamic sizes are not supported: {s}")
    goal = target if target is not None else Sharding(())
    p = _Problem(shape, mesh, element_bytes, goal, uneven=True, dynamic_dims=dims, dynamic_axes=axes)
    p.goal_bounds = _state(p, goal)[3] if target is not None else (None,) * len(shape)
    return p


def _generic(p: _Problem, d: int, axes: Sequence[int]) -> bool:
    """Are the pieces of dimension `d` split over `axes` unknown until run
    time (a dynamic size or a dynamic mesh axis)?"""
    return bool(axes) and (d in p.dynamic_dims or any(a in p.dynamic_axes for a in axes))


def _actual(p: _Problem, d: int, axes: tuple[int, ...], b) -> tuple[int, ...]:
    """The piece boundaries of dimension `d` over `axes` (`b`: explicit ones)."""
    if b is not None:
        return b
    key = (d, p.count(axes))
    found = p.defaults.get(key)
    if found is None:
        found = p.defaults[key] = _default_bounds(p.shape[d], key[1])
    return found


def _normal(p: _Problem, d: int, axes: tuple[int, ...], bounds: tuple[int, ...]):
    """`bounds` as a state keeps them: None for the default cut."""
    if not axes or _generic(p, d, axes) or bounds == _actual(p, d, axes, None):
        return None
    if p.dynamic_dims or p.dynamic_axes:
        return _INVALID  # a layout of explicit pieces cannot be written next to unknown sizes
    return bounds


def _coarsened(p: _Problem, d: int, axes: tuple[int, ...], b, k: int):
    """The boundaries of dimension `d` after dropping its last `k` axes: the
    group's pieces joined (always contiguous), or _INVALID."""
    if not p.uneven:
        return None  # equal pieces joined are equal
    kept = axes[:-k]
    if _generic(p, d, axes):
        return None if not kept else _INVALID
    return _normal(p, d, kept, _actual(p, d, axes, b)[:: p.count(axes[-k:])])


def _refined(p: _Problem, d: int, axes: tuple[int, ...], b, added: tuple[int, ...]):
    """The boundaries of dimension `d` after appending `added` to its axes:
    the target's own when the dimension then has the target's axes, else the
    default cut; _INVALID unless the new pieces tile the old ones."""
    grown = axes + added
    if not p.uneven:
        return _INVALID if p.shape[d] % p.count(grown) else None  # only ever pieces of one size
    if _generic(p, d, grown):
        return None if not axes else _INVALID
    want = p.goal_bounds[d] if tuple(p.target.axes_of(d)) == grown else None
    new = _actual(p, d, grown, want)
    if new[:: p.count(added)] != _actual(p, d, axes, b):
        return _INVALID
    return _normal(p, d, grown, new)


def _widest(size: int, pieces: int, bounds: tuple[int, ...] | None) -> int:
    """The largest of the `pieces` pieces of a dimension of `size` elements
    cut at `bounds` (None: the default cut, whose last piece is the
    largest): what a collective pads them to."""
    if bounds is None:
        return -(-size // pieces)
    return max((y - x for x, y in zip(bounds, bounds[1:])), default=0)


def largest_piece(s: Sharding, dim: int, shape: tuple[int, ...], mesh: Mesh) -> int:
    """`_widest` of tensor dimension `dim` laid out by `s`."""
    return _widest(shape[dim], s.shard_count(dim, mesh), s.offsets(dim, mesh))


# -- costs -----------------------------------------------------------------------


def _coordinates(mesh: Mesh, axes: Sequence[int]) -> np.ndarray:
    """One row per combination of coordinates along `axes` (0 along the
    other mesh axes), in row-major order over `axes`: every device when
    `axes` are all the mesh's."""
    out = np.zeros((math.prod(mesh.shape[a] for a in axes), mesh.rank), dtype=np.int64)
    if len(axes):
        grid = np.indices(tuple(mesh.shape[a] for a in axes)).reshape(len(axes), -1)
        out[:, list(axes)] = grid.T
    return out


def _group_index(axes: Sequence[int], sizes: Sequence[int], coords: np.ndarray) -> np.ndarray:
    """Each device's position in its group along `axes` (first axis
    outermost, as `Mesh.in_group_index`), one per row of `coords`."""
    index = np.zeros(len(coords), dtype=np.int64)
    for a in axes:
        index = index * sizes[a] + coords[:, a]
    return index


def _sent_to(mesh: Mesh, axes: Sequence[int], perm: Sequence[int], coords: np.ndarray) -> np.ndarray:
    """The device (coordinates) each row of `coords` sends its piece to in
    a Permute along `axes`: the member of its group at `perm[its position]`
    (`Mesh.member`, for many devices at once)."""
    dest = coords.copy()
    if axes:  # (a Permute along no axis sends every piece to itself)
        to = np.asarray(perm, dtype=np.int64)[_group_index(axes, mesh.shape, coords)]
        dest[:, list(axes)] = np.array(np.unravel_index(to, tuple(mesh.shape[a] for a in axes))).T
    return dest


def _cores(s: Sharding, shape: tuple[int, ...], mesh: Mesh, coords: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per tensor dimension, the [start, stop) of every device's core (one
    per row of `coords`): `Sharding.slice_of` for many devices at once."""
    s.validate(mesh, shape)
    n = len(coords)
    out = []
    for dim, size in enumerate(shape):
        axes = s.axes_of(dim)
        if not axes:
            out.append((np.zeros(n, dtype=np.int64), np.full(n, size, dtype=np.int64)))
            continue
        index = _group_index(axes, mesh.shape, coords)
        given = s.offsets(dim, mesh)
        if given is not None:
            table = np.asarray(given, dtype=np.int64)
            out.append((table[index], table[index + 1]))
            continue
        # `split_piece`, on arrays
        base, extra = divmod(size, s.shard_count(dim, mesh))
        first_big = s.shard_count(dim, mesh) - extra
        start = index * base + np.maximum(0, index - first_big)
        out.append((start, start + base + (index >= first_big)))
    return out


def _boxes(s: Sharding, shape: tuple[int, ...], mesh: Mesh, coords: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The cells every device's local array covers (core plus halos,
    clipped to the tensor), per dimension as `_cores` gives them."""
    out = []
    for dim, (start, stop) in enumerate(_cores(s, shape, mesh, coords)):
        low, high = s.halo(dim)
        if low or high:
            start, stop = np.maximum(start - low, 0), np.minimum(stop + high, shape[dim])
        out.append((start, stop))
    return out


def _volumes(boxes: Sequence[tuple[np.ndarray, np.ndarray]], shape: tuple[int, ...], n: int) -> np.ndarray:
    """Each device's cells in its box: int64, or Python ints where a
    tensor's cells might not fit one."""
    big = math.prod(max(d, 1) for d in shape) >= 1 << 62
    out = np.ones(n, dtype=object if big else np.int64)
    for start, stop in boxes:
        extent = np.maximum(stop - start, 0)
        out = out * (extent.astype(object) if big else extent)
    return out


def _lacking(before: Sharding, after: Sharding, shape: tuple[int, ...], mesh: Mesh, coords: np.ndarray) -> np.ndarray:
    """Elements of each device's piece under `after` that its piece under
    `before` does not hold (halos included; partial layouts are the
    caller's to weigh), one per row of `coords`."""
    want, have = _boxes(after, shape, mesh, coords), _boxes(before, shape, mesh, coords)
    both = [(np.maximum(a, c), np.minimum(b, d)) for (a, b), (c, d) in zip(want, have)]
    return _volumes(want, shape, len(coords)) - _volumes(both, shape, len(coords))


def _step_costs(p: _Problem, step: Step, before: Sharding, after: Sharding) -> np.ndarray:
    """Elements every device (in row-major order) receives in `step` (the
    module docstring's model): what `uniform_cost` says of the array its
    collective runs on, the device's piece padded as `sim.plans.execute`
    pads it."""
    shape, mesh = p.shape, p.mesh
    coords = _coordinates(mesh, range(mesh.rank))
    n = len(coords)
    if isinstance(step, UpdateHalo):
        if halos_within(step.destination_halos, step.source_halos):
            return np.zeros(n, dtype=np.int64)
        after = Sharding(before.split_axes, before.partial_axes, before.partial_type, step.destination_halos)
        return _volumes(_boxes(after, shape, mesh, coords), shape, n) - _volumes(
            _cores(after, shape, mesh, coords), shape, n
        )
    if isinstance(step, AllSlice | Partialize):  # local
        return np.zeros(n, dtype=np.int64)
    if isinstance(step, Exchange):
        return _lacking(before, after, shape, mesh, coords)
    if isinstance(step, Recut):
        found = recut_plan(before.cut(step.dim, shape[step.dim], mesh), step.cut)
        assert found is not None  # (the planner only plans a recut it can make)
        extents = [stop - start for start, stop in _cores(before, shape, mesh, coords)]
        rows = np.asarray(found.received_rows(), dtype=np.int64)
        extents[step.dim] = rows[_group_index(step.axes, mesh.shape, coords)]
        return _volumes([(np.zeros(n, dtype=np.int64), e) for e in extents], shape, n)
    if p.uneven:  # the extents of each device's piece
        extents = [stop - start for start, stop in _cores(before, shape, mesh, coords)]
    else:  # every device's piece has one shape
        extents = [np.full(n, k, dtype=np.int64) for k in before.local_shape(shape, mesh, (0,) * mesh.rank)]
    if isinstance(step, Permute):
        # device d sends its piece to the member of its group at perm[its position]
        to = np.ravel_multi_index(tuple(_sent_to(mesh, mesh.check_axes(step.axes), step.perm, coords).T), mesh.shape)
        moved = to != np.arange(n)
        elems = _volumes([(np.zeros(n, dtype=np.int64), e) for e in extents], shape, n)
        out = np.zeros(n, dtype=elems.dtype)
        out[to[moved]] = elems[moved]
        return out
    if not p.uneven:
        cost = uniform_cost(step, math.prod(before.local_shape(shape, mesh, (0,) * mesh.rank)), mesh)
        return np.full(n, cost, dtype=object if cost >= 1 << 62 else np.int64)
    # padded: the dimension a gather joins, the one an all_to_all joins, and
    # the one it or a reduce_scatter cuts (g times the largest new piece)
    padded: dict[int, int] = {}
    if isinstance(step, AllGather):
        padded[step.dim] = largest_piece(before, step.dim, shape, mesh)
    elif isinstance(step, AllToAll | ReduceScatter):
        cut = step.split_dim if isinstance(step, AllToAll) else step.dim
        padded[cut] = mesh.group_size(step.axes) * largest_piece(after, cut, shape, mesh)
        if isinstance(step, AllToAll):
            padded[step.concat_dim] = largest_piece(before, step.concat_dim, shape, mesh)
    for i, k in padded.items():
        extents[i] = np.full(n, k, dtype=np.int64)
    elems = _volumes([(np.zeros(n, dtype=np.int64), e) for e in extents], shape, n)
    # pieces come in few sizes
    sizes_seen, which = np.unique(elems, return_inverse=True)
    costs = np.array([uniform_cost(step, int(k), mesh) for k in sizes_seen], dtype=elems.dtype)
    return costs[which.reshape(-1)]


def _step_cost_max(step: Step, before: Sharding, shape: tuple[int, ...], mesh: Mesh) -> int:
    """The most elements any device receives in `step`, without listing the
    devices: `max(_step_costs(...).values())`, for meshes too large to list."""
    first = (0,) * mesh.rank
    if isinstance(step, Exchange):
        return _lower_bound(shape, mesh, before, Sharding(step.split_axes))
    if isinstance(step, Permute):
        moved = any(i != j for i, j in enumerate(step.perm))
        return math.prod(before.local_shape(shape, mesh, first)) if moved else 0
    if isinstance(step, UpdateHalo):
        if halos_within(step.destination_halos, step.source_halos):
            return 0
        # Tensor dimensions are cut over disjoint mesh axes, so every
        # combination of pieces is some device's: the largest box is the
        # product of the largest extents per dimension.
        after = Sharding(before.split_axes, before.partial_axes, before.partial_type, step.destination_halos)
        core = math.prod(s.stop - s.start for s in after.slice_of(shape, mesh, first))
        widest = 1
        for dim, size in enumerate(shape):
            low, high = after.halo(dim)
            widest *= max(min(b + high, size) - max(a - low, 0) for a, b in after.bounds(dim, size, mesh))
        return widest - core
    return uniform_cost(step, math.prod(before.local_shape(shape, mesh, first)), mesh)


def uniform_cost(step: Step, elems: int, mesh: Mesh) -> int:
    """Elements every device receives in a collective step that costs every
    device the same, from `elems`, the local elements before it."""
    if isinstance(step, AllSlice | Partialize):
        return 0
    g = mesh.group_size(step.axes)
    if isinstance(step, AllGather):
        return (g - 1) * elems
    if isinstance(step, AllToAll | ReduceScatter):
        return (g - 1) * elems // g
    if isinstance(step, AllReduce):
        return all_reduce_elements(elems, g)
    raise TypeError(f"not a uniform resharding step: {step!r}")  # pragma: no cover


def _lower_bound(shape: tuple[int, ...], mesh: Mesh, source: Sharding, target: Sharding) -> int:
    """Elements (not bytes) of the module docstring's lower bound."""
    sizes = mesh.shape
    src_partial = {a for a in source.partial_axes if sizes[a] > 1}
    tgt_partial = set(target.partial_axes)
    keep = not src_partial or (source.partial_type == target.partial_type and src_partial <= tgt_partial)
    new_axes = sorted(tgt_partial - src_partial) if keep else sorted(tgt_partial)
    identity = target.is_partial and target.partial_type in IDENTITY_KINDS
    # a device's need depends only on its coordinates along these axes
    relevant = sorted(set(source.used_axes()) | set(target.used_axes()))
    coords = _devices_over(mesh, relevant)
    if identity and new_axes:
        coords = coords[~np.any(coords[:, new_axes] != 0, axis=1)]
    if not len(coords):
        return 0
    if keep:
        need = _lacking(source, target, shape, mesh, coords)
    else:
        need = _volumes(_boxes(target, shape, mesh, coords), shape, len(coords))
    return max(0, int(need.max()))


def _devices_over(mesh: Mesh, axes: Sequence[int]) -> np.ndarray:
    """One device (a row of coordinates) per combination of coordinates
    along `axes` (0 elsewhere); past `MAX_COUNTED_DEVICES` combinations, a
    deterministic sample: for every i below the largest axis size and
    `_SAMPLED_DEVICES`, the devices whose coordinate along the k-th axis is
    i, size - 1 - i, i + k, or alternately i and size - 1 - i (modulo the
    axis size)."""
    sizes = [mesh.shape[a] for a in axes]
    if math.prod(sizes) <= MAX_COUNTED_DEVICES:
        return _coordinates(mesh, axes)
    rows = []
    for i in range(min(max(sizes), _SAMPLED_DEVICES)):
        rows.append([i % n for n in sizes])
        rows.append([(n - 1 - i) % n for n in sizes])
        rows.append([(i + k) % n for k, n in enumerate(sizes)])
        rows.append([(i if k % 2 else n - 1 - i) % n for k, n in enumerate(sizes)])
    out = np.zeros((len(rows), mesh.rank), dtype=np.int64)
    out[:, list(axes)] = np.array(rows, dtype=np.int64)
    return out


def _plan(p: _Problem, source: Sharding, target: Sharding, steps: list[Step]) -> Plan:
    shape, mesh = p.shape, p.mesh
    layouts: list[Sharding] = []
    per_step: list[int] = []
    small = mesh.size <= MAX_COUNTED_DEVICES
    totals: np.ndarray | int = 0  # per device (a large mesh's: the steps' maxima)
    layout = source
    for step in steps:
        after = _apply(p, step, layout)
        if small:
            costs = _step_costs(p, step, layout, after)
            totals = totals + costs
            most = int(costs.max()) if len(costs) else 0
        else:  # only pieces of one size: uneven ones are refused on such meshes
            most = _step_cost_max(step, layout, shape, mesh)
            totals += most
        per_step.append(most * p.element_bytes)
        layout = after
        layouts.append(layout)
    if layout != target:  # pragma: no cover - the search only ends at the target
        raise AssertionError(f"the steps lead to {layout}, not {target}")
    return Plan(
        shape=shape,
        mesh_shape=mesh.shape,
        source=source,
        target=target,
        steps=tuple(steps),
        intermediate=tuple(layouts),
        step_bytes=tuple(per_step),
        bytes_received=int(np.max(totals)) * p.element_bytes,
        lower_bound=_lower_bound(shape, mesh, source, target) * p.element_bytes,
        element_bytes=p.element_bytes,
    )


__all__ = [
    "AllGather",
    "AllReduce",
    "AllSlice",
    "AllToAll",
    "Exchange",
    "Partialize",
    "Permute",
    "Plan",
    "Recut",
    "ReduceScatter",
    "Step",
    "UpdateHalo",
    "all_split_layouts",
    "apply_steps",
    "fmt_shape",
    "IDENTITY_KINDS",
    "largest_piece",
    "lower_bound",
    "plan_resharding",
]
