"""Ops seen as loop nests, and how loop shardings and tensor shardings
determine each other.

Sharding propagation needs, for every op, one answer to two questions: given
how some of its operands and results are laid out, how should the op's
computation be split over the mesh; and given such a split, how must every
operand and result be laid out.  Both answers follow from describing the op
as a loop nest (a `ShardingRule`): which loops exist, which are reductions,
and which loop indexes each tensor dimension.  The algorithms below are plain
functions on that description, so they need no MLIR and are tested alone;
`registry.py` derives rules from real ops.

Vocabulary:

- A *loop* is parallel, a reduction of one of the dialect's reduction kinds
  (`sum`, `max`, ...), a `select` reduction, or `invalid`: the op cannot be
  split along it (an unknown combiner, a scan, a dimension the results need
  whole).  A `select` reduction's body picks one of its two inputs (an
  argmax: the larger value, the smaller index on ties): it has no partial
  form, but a split one ends whole once each device's pick is gathered and
  picked from again (partition does it inside the op, and the solver prices
  the gather as the op's own cost).
- A *map* gives, for each dimension of one tensor, the loop that indexes it,
  or None when no single loop does (a constant index, a sum of loops, a
  broadcast dimension of size 1).  Such dimensions are never split.  An
  operand or result that is not a tensor has map None, a rank-0 tensor the
  empty map.
- A *window* (`Window`) is an operand dimension read at `stride * i +
  dilation * k + offset` for a parallel loop i and a window loop k (a
  convolution's or a pooling's input, a stencil): its map names i, and
  splitting i splits the dimension with halos, the rows a device's outputs
  read beyond its piece.  The window loop is never split.
- A *crop* (`Crop`) is an operand dimension a slice reads a run of, at
  `offset + stride * i` for a parallel loop i (`x[1:]`, `x[:-1]`), or a
  pad reads shifted, padding beyond it: its map names i, and splitting i
  asks the operand to arrive so that each device holds the rows its
  outputs read (`crop_layout`: halos, or a cut where those rows start).
- A `ShardingOption` holds the mesh axes each loop is split over, one tuple
  per loop, outermost axis first.

Conventions of `option_from_shardings` (tie-breaking is deterministic):

1. Results are read before operands, each side in index order, each tensor
   dimension by dimension (a result's split dimensions, then its partial).
   The first split dimension to reach a loop sets the loop's axes; a later
   one must name the same axes in the same order.
2. A dimension that is not split, a dimension whose map is None, a missing
   sharding (None) and the partial axes of an operand constrain nothing: the
   layout they ask for is reached from any loop sharding by resharding the
   value (gathering, or all-reducing the operand before the op).
3. A result partial over axes A with kind k says: a reduction loop of kind k
   is split over A.  Those axes are reserved before operands are read; an
   operand may place a reserved axis only on a reduction loop of kind k.
   Reserved axes still unplaced after the operands go to a reduction loop of
   kind k: one already holding an axis of the same partial, else the first.
4. A conflict (a loop asked for two different axis lists, a mesh axis asked
   for on two loops, an axis on a loop that cannot be split, sharded
   reductions of different kinds, a partial with no loop of its kind) is
   returned as a `Conflict`, never raised.  It names the first losing tensor
   dimension (or partial) and carries `resolved`: the option obtained when
   every losing request is dropped, i.e. when earlier requests win.  A
   dimension's request (or a result's partial) wins or loses as a whole.

Conventions of `shardings_from_option`:

- Every tensor dimension indexed by loop l is split over `option[l]`;
  dimensions with no loop are not split.
- Results are partial over the axes of every split reduction loop, with the
  loops' kind (the option may split reduction loops of only one kind);
  a split `select` loop leaves them whole (`select_axes` lists its axes).
  Operands are never partial: an operand indexed by a split reduction loop
  holds the slice of its reduced dimension that the device folds.
- Invalid loops hold no axes, so they contribute nothing to any tensor.
- Uneven offsets are not part of a loop sharding: they are neither read nor
  produced here.  Halo sizes are never read here; given the mesh's shape,
  `shardings_from_option` gives each split windowed operand dimension the
  halos its windows need (`Window.halo`), and without it none.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..ir.schema import REDUCTION_KINDS
from ..sharding.spec import Mesh, Sharding, split_piece

PARALLEL = "parallel"
INVALID = "invalid"
SELECT = "select"

LOOP_REDUCTION_KINDS: tuple[str, ...] = tuple(k for k in REDUCTION_KINDS if k != "generic")
"""Reduction kinds a loop may have: those a sharding's partial type may take
(a `generic` reduction has no partial form, so such a loop is `invalid`)."""

TensorMap = tuple[int | None, ...]
"""Per tensor dimension, the loop indexing it, or None."""

ShardingOption = tuple[tuple[int, ...], ...]
"""Per loop, the mesh axes it is split over (outermost first)."""


@dataclass(frozen=True)
class Window:
    """An operand dimension of `extent` elements read at `stride * i +
    dilation * k + offset`, for loop i (`loop`, of `out` iterations) and k
    in [0, `size`) (`window_loop`, None when no loop of the op stands for k,
    as in tosa's pooling).  A negative offset is padding: rows before 0 and
    from `extent` on are the op's padding value, not data.  With `base` > 1
    (a transposed convolution's `lhs_dilation`) those positions index the
    dimension dilated by `base`: position q is row q / base where base
    divides q, and a padding cell elsewhere.

    Split i into n even pieces and device p's outputs [p*P, (p+1)*P) read
    rows `reads(n, p)` of the dimension, whose own even piece is
    [p*E/n, (p+1)*E/n): the halo is what the first and the last piece lack
    (the shortfall grows linearly with p, so the ends bound it)."""

    loop: int
    stride: int
    dilation: int
    size: int
    offset: int
    extent: int
    out: int
    window_loop: int | None = None
    base: int = 1

    def span(self, piece: int) -> int:
        """Positions (rows, for `base` 1) `piece` consecutive outputs read."""
        return (piece - 1) * self.stride + (self.size - 1) * self.dilation + 1 if piece else 0

    def even(self, n: int) -> bool:
        """Whether both the outputs and the dimension cut into n even pieces
        and, on a dilated dimension, every piece reads as many rows, at the
        same place between them (its outputs move a whole number of rows)."""
        if not (n >= 1 and self.out % n == 0 and self.extent % n == 0):
            return False
        if self.base == 1 or n == 1:
            return True
        piece = self.out // n
        return piece * self.stride % self.base == 0 and self.rows(n) > 0

    def positions(self, n: int, p: int) -> tuple[int, int]:
        """[start, stop) of the (dilated) positions piece p of n reads."""
        piece = self.out // n
        start = p * piece * self.stride + self.offset
        return start, start + self.span(piece)

    def reads(self, n: int, p: int) -> tuple[int, int]:
        """[start, stop) of the rows piece p of n reads (beyond [0, extent)
        where the op pads)."""
        start, stop = self.positions(n, p)
        if self.base == 1:
            return start, stop
        return -(-start // self.base), -(-stop // self.base)

    def rows(self, n: int) -> int:
        """Rows each of n even pieces reads."""
        start, stop = self.reads(n, 0)
        return stop - start

    def step(self, n: int) -> int:
        """How many rows further on each of n even pieces reads than the one
        before."""
        return self.out // n * self.stride // self.base

    def dilated_padding(self, n: int) -> tuple[int, int]:
        """(low, high) positions each of n even pieces reads before its first
        row and after its last one (0 without `base`): the local dilated
        op's padding."""
        if self.base == 1:
            return (0, 0)
        start, stop = self.positions(n, 0)
        first, last = self.reads(n, 0)
        return first * self.base - start, stop - 1 - (last - 1) * self.base

    def halo(self, n: int) -> tuple[int, int]:
        """(low, high) rows every piece carries so that its window is local;
        (0, 0) for uneven pieces (which are not partitioned)."""
        if not self.even(n) or n == 1:
            return (0, 0)
        core = self.extent // n
        lows, highs = [], []
        for p in (0, n - 1):
            start, stop = self.reads(n, p)
            lows.append(p * core - start)
            highs.append(stop - (p + 1) * core)
        return max(0, *lows), max(0, *highs)

    def pads(self) -> bool:
        """Whether the whole op reads rows outside the dimension (padding)."""
        start, stop = self.reads(1, 0)
        return start < 0 or stop > self.extent


def _sums(it: Iterator) -> bool:
    """Whether a loop sums what it iterates over (a logical or on booleans):
    a window's loop may be one (a convolution's kernel gradient)."""
    return it.kind in ("sum", "bitwise_or")


@dataclass(frozen=True)
class Crop:
    """Dimension `dim` of operand `operand` (a tensor of static `shape`)
    read at `offset + stride * i` for loop i (`loop`, of `out` iterations):
    a slice taking part of the dimension, or (`pads`) a pad, whose outputs
    read rows before 0 and from the extent on as its padding value.  Split
    i into pieces, and device p's outputs [r_p, r_p+1) read the run of
    rows from `offset + stride * r_p` on (`run`, clipped to the
    dimension): the operand arrives so that each device holds its run
    (`crop_layout`), and slices (and pads) it locally."""

    operand: int
    dim: int
    loop: int
    offset: int
    stride: int
    shape: tuple[int, ...]
    out: int
    pads: bool = False
    # an inserted piece (`tensor.insert_slice`): the rows it does not cover
    # keep the destination's, and the piece, no longer than its run, arrives
    # cut where each device's part of the run starts (pieces may be empty)
    inserts: bool = False

    @property
    def extent(self) -> int:
        return self.shape[self.dim]

    def run(self, out_cut: Sequence[int], p: int) -> tuple[int, int] | None:
        """[start, stop) of the rows of the dimension piece p's outputs read
        (None: none, it has no output or pads them all)."""
        first, stop = out_cut[p], out_cut[p + 1]
        if stop <= first:
            return None
        start = max(0, self.offset + self.stride * first)
        end = min(self.extent, self.offset + self.stride * (stop - 1) + 1)
        return (start, end) if start < end else None

    def padding(self, out_cut: Sequence[int], p: int) -> tuple[int, int]:
        """(low, high): how many of piece p's outputs come before its run and
        after it (a pad's, read beyond the dimension; stride 1)."""
        first, stop = out_cut[p], out_cut[p + 1]
        count = max(0, stop - first)
        low = min(count, max(0, -self.offset - first))
        run = self.run(out_cut, p)
        return low, count - low - (run[1] - run[0] if run else 0)

    def cut(self, out_cut: Sequence[int]) -> tuple[int, ...]:
        """The operand's cut (every piece's start, then the end) at which each
        piece holds its run, the first piece's rows before its run and the
        last piece's after the runs aside."""
        inner = (min(self.extent, max(0, self.offset + self.stride * r)) for r in out_cut[1:-1])
        return (0, *inner, self.extent)

    def halo(self, out_cut: Sequence[int], cut: Sequence[int]) -> tuple[int, int]:
        """(low, high) rows that pieces cut as `cut` need beyond them to hold
        their runs."""
        low = high = 0
        for p in range(len(out_cut) - 1):
            run = self.run(out_cut, p)
            if run is not None:
                low, high = max(low, cut[p] - run[0]), max(high, run[1] - cut[p + 1])
        return low, high

    def local(self, out_cut: Sequence[int], cut: Sequence[int], halo: tuple[int, int], p: int) -> int | None:
        """Where piece p's run starts in its local rows (its piece of `cut`
        with `halo` rows either side); None when the run is not all there."""
        run = self.run(out_cut, p)
        if run is None:
            return 0  # nothing read: an empty slice
        held = cut[p] - halo[0]
        return run[0] - held if held <= run[0] and run[1] <= cut[p + 1] + halo[1] else None


def with_whole_loops(rule: ShardingRule, loops: set[int]) -> ShardingRule:
    """`rule` with `loops` invalid (never split), its maps as they are."""
    if not loops:
        return rule
    its = tuple(Iterator.invalid() if i in loops else it for i, it in enumerate(rule.iterators))
    return ShardingRule(its, rule.operand_maps, rule.result_maps, rule.windows, rule.fused)


def uncropped(rule: ShardingRule) -> ShardingRule:
    """`rule` with its crops' loops invalid: their dimensions never split
    (as on a mesh axis of dynamic size, where the rows each device's
    outputs read depend on the size)."""
    if not rule.crops:
        return rule
    bad = {c.loop for c in rule.crops}
    cropped = {(c.operand, c.dim) for c in rule.crops}
    its = tuple(Iterator.invalid() if loop in bad else it for loop, it in enumerate(rule.iterators))
    operands = tuple(
        None if m is None else tuple(None if (k, d) in cropped else x for d, x in enumerate(m))
        for k, m in enumerate(rule.operand_maps)
    )
    results = tuple(None if m is None else tuple(None if x in bad else x for x in m) for m in rule.result_maps)
    return ShardingRule(its, operands, results, rule.windows, rule.fused)


def crop_layout(s: Sharding, crops: dict[int, tuple[Crop, Sequence[int]]], cuts: dict[int, Sequence[int]]) -> Sharding:
    """Layout `s` of a slice's operand (split; no halos, no offsets) made to
    hold each device's runs along its split crops (per dimension, the crop
    and its outputs' cut); `cuts`: every split dimension's cut as the
    operand is cut.  Pieces cut evenly keep their cut and take halos, when
    those are no wider than a piece (one neighbour's rows: an
    `update_halo` moves them); else the operand is cut where each device's
    run starts (`Crop.cut`: the planner moves rows across each boundary)."""
    dims = s.sharded_dims()
    halos: list[int] = []
    for d in dims:
        cut = cuts[d]
        widths = {b - a for a, b in zip(cut, cut[1:])}
        if len(widths) != 1:
            break
        if d not in crops:
            halos += (0, 0)
            continue
        c, out_cut = crops[d]
        low, high = c.halo(out_cut, cut)
        if max(low, high) > cut[1] - cut[0]:
            break
        halos += (low, high)
    else:
        return replace(s, halo_sizes=tuple(halos)) if any(halos) else s
    offsets: list[int] = []
    for d in dims:
        offsets += crops[d][0].cut(crops[d][1]) if d in crops else cuts[d]
    if offsets == [n for d in dims for n in cuts[d]]:
        return s  # every piece holds its run as the operand is cut
    return replace(s, sharded_dims_offsets=tuple(offsets))


def cheapest_crop_cut(
    made: Sequence[tuple[Crop, int, Sequence[int]]],
    read: Sequence[tuple[Crop, int, Sequence[int]]],
    size: int,
    count: int,
) -> tuple[int, ...] | None:
    """A cut of a dimension of `size` into `count` pieces that moves fewer
    rows than the default cut into the runs of the crops that make such a
    dimension (`made`: per crop, the bytes of one of its rows and its
    operand's cut) and of those that read one (`read`: per crop, the bytes
    of a row and its outputs' cut).  The candidates are the cuts the
    stride-1 slices of `made` keep in place, each device keeping the outputs
    of the rows it holds (`x[:, :-1]` of 32 rows over 4: 8, 8, 8, 7, where
    the default cut, 7, 8, 8, 8, brings a row to three devices).  None when
    none moves fewer bytes than the default."""
    default = tuple(a for a, _ in (split_piece(size, count, p) for p in range(count))) + (size,)

    def cost(cut: Sequence[int]) -> int:
        total = 0
        for c, row, operand_cut in made:
            low, high = c.halo(cut, operand_cut)
            total += (low + high) * row
        for c, row, out_cut in read:
            low, high = c.halo(out_cut, cut)
            total += (low + high) * row
        return total

    best, least = None, cost(default)
    for c, _, operand_cut in made:
        if c.stride != 1 or c.pads or c.inserts or len(operand_cut) != count + 1:
            continue
        own = (0, *(min(size, max(0, b - c.offset)) for b in operand_cut[1:-1]), size)
        if own == default or any(b <= a for a, b in zip(own, own[1:])):
            continue
        moved = cost(own)
        if moved < least:
            best, least = own, moved
    return best


Crops = tuple[Crop, ...]


@dataclass(frozen=True)
class Scan:
    """Parallel loop `loop` runs a prefix scan of combiner `kind` along the
    dimensions it indexes (`reverse`: a suffix scan): `jnp.cumsum`, an hlo
    `reduce_window` as long as the dimension.  Split, each device scans its
    own piece, then combines it with the total of the pieces before it (or
    after it), from one all_gather of every device's last (or first) row
    (the solver's `own_cost`, partition's `hlo._scan`)."""

    loop: int
    kind: str
    reverse: bool = False


DimExpr = int | frozenset[int] | Window
"""What `ShardingRule.from_exprs` takes per tensor dimension: a loop index
for a plain loop, a `Window` for an operand read through a window, else the
set of loops the index expression involves."""

Windows = tuple[tuple[Window | None, ...] | None, ...]
"""Per operand, per dimension, its window (None: a plain or unsplit one)."""


def _index(value: object, what: str) -> int:
    """`value` as an int; bools are refused so a flag cannot become loop 0 or 1."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be an integer, got {value!r}") from None


def _fmt(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


# ---------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class Iterator:
    """One loop of an op's nest: `parallel`, `invalid`, or a reduction kind."""

    kind: str = PARALLEL

    def __post_init__(self) -> None:
        if self.kind not in (PARALLEL, INVALID, SELECT, *LOOP_REDUCTION_KINDS):
            hint = " (a loop with no partial form is 'invalid')" if self.kind == "generic" else ""
            raise ValueError(f"unknown iterator kind {self.kind!r}{hint}")

    @classmethod
    def parallel(cls) -> Iterator:
        return cls(PARALLEL)

    @classmethod
    def reduction(cls, kind: str = "sum") -> Iterator:
        if kind in (PARALLEL, INVALID):
            raise ValueError(f"{kind!r} is not a reduction kind")
        return cls(kind)

    @classmethod
    def invalid(cls) -> Iterator:
        return cls(INVALID)

    @property
    def is_parallel(self) -> bool:
        return self.kind == PARALLEL

    @property
    def is_reduction(self) -> bool:
        return self.kind not in (PARALLEL, INVALID)

    @property
    def is_invalid(self) -> bool:
        return self.kind == INVALID

    @property
    def is_select(self) -> bool:
        """A reduction that picks one of its inputs: split, it needs no
        partial type (see the module docstring)."""
        return self.kind == SELECT

    def __str__(self) -> str:
        return f"reduction<{self.kind}>" if self.is_reduction else self.kind


def _iterator(value: Iterator | str) -> Iterator:
    return value if isinstance(value, Iterator) else Iterator(value)


@dataclass(frozen=True)
class ShardingRule:
    """An op as a loop nest: its loops and, per operand and result, the map
    from tensor dimensions to loops.

    Invariants (checked, because the algorithms rely on them): loop indices
    are in range; no map names a loop twice (that dimension pair could not be
    split on the same axes); result maps name no reduction loop; and every
    parallel loop indexes a dimension of every tensor result, since splitting
    a loop a result does not follow would leave that result neither whole
    nor sliced.  `from_exprs` turns arbitrary index expressions into a rule
    that meets them.
    """

    iterators: tuple[Iterator, ...]
    operand_maps: tuple[TensorMap | None, ...]
    result_maps: tuple[TensorMap | None, ...]
    windows: Windows = ()
    # operands the rule describes as the source of the `tensor.pad` that
    # makes them (`registry.fuse_pads`): their windows read the source,
    # padding included (a negative offset), as an op that pads does
    fused: tuple[int, ...] = ()
    # operand dimensions a slice or a pad reads a run of (`Crop`): split,
    # the operand arrives holding each device's run (`crop_layout`)
    crops: Crops = ()
    # parallel loops along which the op scans (`Scan`): split, each device
    # adds the pieces before its own to its scan
    scans: tuple[Scan, ...] = ()
    selects: bool = field(default=False, init=False, compare=False, repr=False)  # a `select` loop among them

    def __post_init__(self) -> None:
        iterators = tuple(_iterator(it) for it in self.iterators)
        n = len(iterators)

        def norm(maps: Sequence[Sequence[int | None] | None], side: str) -> tuple[TensorMap | None, ...]:
            out: list[TensorMap | None] = []
            for i, m in enumerate(maps):
                if m is None:
                    out.append(None)
                    continue
                dims = tuple(None if d is None else _index(d, f"a loop index of {side} {i}") for d in m)
                for d in dims:
                    if d is not None and not 0 <= d < n:
                        raise ValueError(f"{side} {i} names loop {d} but the op has {n} loops")
                named = [d for d in dims if d is not None]
                if len(set(named)) != len(named):
                    raise ValueError(f"{side} {i} is indexed twice by one loop: {_map_str(dims)}")
                out.append(dims)
            return tuple(out)

        operand_maps = norm(self.operand_maps, "operand")
        result_maps = norm(self.result_maps, "result")
        for r, m in enumerate(result_maps):
            if m is None:
                continue
            for d in m:
                if d is not None and iterators[d].is_reduction:
                    raise ValueError(f"result {r} is indexed by reduction loop {d}")
            for loop, it in enumerate(iterators):
                if it.is_parallel and loop not in m:
                    raise ValueError(f"parallel loop {loop} indexes no dimension of result {r}; make it invalid")
        windows = _normalized_windows(self.windows, operand_maps, iterators)
        for c in self.crops:
            m = operand_maps[c.operand] if 0 <= c.operand < len(operand_maps) else None
            if m is None or c.dim >= len(m) or m[c.dim] != c.loop or not iterators[c.loop].is_parallel:
                raise ValueError(f"crop {c} names no parallel loop of operand {c.operand} dimension {c.dim}")
            inside = c.offset >= 0 and c.offset + c.stride * (c.out - 1) < c.extent
            if c.stride < 1 or c.out < 1 or not (inside or (c.pads and c.stride == 1)):
                raise ValueError(f"crop {c} reads beyond its dimension")
        for sc in self.scans:
            if not 0 <= sc.loop < n or not iterators[sc.loop].is_parallel:
                raise ValueError(f"scan {sc} names no parallel loop")
        object.__setattr__(self, "iterators", iterators)
        object.__setattr__(self, "selects", any(it.is_select for it in iterators))
        object.__setattr__(self, "operand_maps", operand_maps)
        object.__setattr__(self, "result_maps", result_maps)
        object.__setattr__(self, "windows", windows)

    @property
    def num_loops(self) -> int:
        return len(self.iterators)

    def crop(self, operand: int, dim: int) -> Crop | None:
        """The crop through which operand `operand` reads dimension `dim`."""
        return next((c for c in self.crops if c.operand == operand and c.dim == dim), None)

    def window(self, operand: int, dim: int) -> Window | None:
        """The window through which operand `operand` reads dimension `dim`."""
        if not self.windows:
            return None
        dims = self.windows[operand]
        return None if dims is None else dims[dim]

    def __str__(self) -> str:
        loops = ", ".join(f"d{i}" for i in range(self.num_loops))
        kinds = ", ".join(str(it) for it in self.iterators)
        ins = ", ".join(_map_str(m) for m in self.operand_maps)
        outs = ", ".join(_map_str(m) for m in self.result_maps)
        return f"({loops}) [{kinds}] operands [{ins}] results [{outs}]"

    # -- constructors ------------------------------------------------------

    @classmethod
    def from_exprs(
        cls,
        iterators: Sequence[Iterator | str],
        operand_dims: Sequence[Sequence[DimExpr] | None],
        result_dims: Sequence[Sequence[DimExpr] | None],
    ) -> ShardingRule:
        """A rule from index expressions of any shape, made safe to shard.

        Each dimension is a loop index, a `Window` (operands only), or the
        set of loops a non-plain index expression involves (empty for a
        constant).  Non-plain dimensions and a loop repeated within one map
        become None, and every loop they involve becomes invalid, in
        operands as in results: a split loop would leave such a dimension
        needing data a local slice cannot give (`A[i, i]`).  So does a
        reduction loop that indexes a result, and a parallel loop missing
        from a tensor result.  A window's loop stays splittable (with
        halos) when it is parallel and nothing else rules it out; its
        window loop never is.
        """
        its = [_iterator(it) for it in iterators]
        n = len(its)
        bad: set[int] = set()

        def loop_of(d: DimExpr) -> int | None:
            if isinstance(d, Window):
                return d.loop
            return None if isinstance(d, frozenset) else _index(d, "a loop index")

        def scan(dims: Sequence[DimExpr], is_result: bool) -> None:
            loops = [loop_of(d) for d in dims]
            for d, loop in zip(dims, loops):
                if isinstance(d, frozenset):
                    bad.update(d)
                elif isinstance(d, Window):
                    if d.window_loop is not None:
                        bad.add(d.window_loop)
                    # (a sum over a window's positions splits too: a kernel's gradient)
                    if is_result or not 0 <= d.loop < n or not (its[d.loop].is_parallel or _sums(its[d.loop])):
                        bad.add(d.loop)
                if loop is not None and loops.count(loop) > 1:
                    bad.add(loop)

        for m in operand_dims:
            if m is not None:
                scan(m, False)
        for m in result_dims:
            if m is not None:
                scan(m, True)
        for m in result_dims:
            if m is None:
                continue
            named = {loop_of(d) for d in m}
            for loop in range(n):
                if its[loop].is_reduction and loop in named:
                    bad.add(loop)
                if its[loop].is_parallel and loop not in named:
                    bad.add(loop)

        def plain(dims: Sequence[DimExpr]) -> tuple[TensorMap, tuple[Window | None, ...]]:
            out: list[int | None] = []
            windows: list[Window | None] = []
            loops = [loop_of(d) for d in dims]
            for d, loop in zip(dims, loops):
                if loop is None or loops.count(loop) > 1 or (isinstance(d, Window) and loop in bad):
                    out.append(None)
                    windows.append(None)
                else:
                    out.append(loop)
                    windows.append(d if isinstance(d, Window) else None)
            return tuple(out), tuple(windows)

        operand_maps: list[TensorMap | None] = []
        windows: list[tuple[Window | None, ...] | None] = []
        for m in operand_dims:
            if m is None:
                operand_maps.append(None)
                windows.append(None)
            else:
                tm, ws = plain(m)
                operand_maps.append(tm)
                windows.append(ws)
        result_maps = [None if m is None else plain(m)[0] for m in result_dims]
        its = [Iterator.invalid() if i in bad else it for i, it in enumerate(its)]
        return cls(tuple(its), tuple(operand_maps), tuple(result_maps), tuple(windows))

    @classmethod
    def elementwise(cls, rank: int, num_operands: int = 1, num_results: int = 1) -> ShardingRule:
        """Same-shape operands and results, every loop parallel."""
        identity = tuple(range(rank))
        return cls((Iterator.parallel(),) * rank, (identity,) * num_operands, (identity,) * num_results)

    @classmethod
    def matmul(cls, batch_dims: int = 0, kind: str = "sum") -> ShardingRule:
        """`[..., m, k] x [..., k, n] -> [..., m, n]`; loops: batch..., m, n, k."""
        b = tuple(range(batch_dims))
        m, n, k = batch_dims, batch_dims + 1, batch_dims + 2
        iterators = (Iterator.parallel(),) * (batch_dims + 2) + (Iterator.reduction(kind),)
        return cls(iterators, (b + (m, k), b + (k, n)), (b + (m, n),))

    @classmethod
    def transpose(cls, permutation: Sequence[int]) -> ShardingRule:
        """`result[i] = operand[permutation[i]]`; one loop per result dimension."""
        perm = [_index(p, "a permutation entry") for p in permutation]
        if sorted(perm) != list(range(len(perm))):
            raise ValueError(f"{_fmt(perm)} is not a permutation")
        operand = tuple(perm.index(j) for j in range(len(perm)))
        return cls((Iterator.parallel(),) * len(perm), (operand,), (tuple(range(len(perm))),))


def _normalized_windows(
    windows: Sequence[Sequence[Window | None] | None], operand_maps: tuple[TensorMap | None, ...], iterators
) -> Windows:
    """`windows` checked against the maps; () when there is none, so rules
    without windows compare equal however they were built."""
    if not any(w is not None for dims in windows if dims is not None for w in dims):
        return ()
    if len(windows) != len(operand_maps):
        raise ValueError(f"{len(windows)} window lists for {len(operand_maps)} operands")
    out: list[tuple[Window | None, ...] | None] = []
    for i, (dims, m) in enumerate(zip(windows, operand_maps)):
        if dims is None or m is None:
            out.append(None)
            continue
        dims = tuple(dims)
        if len(dims) != len(m):
            raise ValueError(f"operand {i} has {len(m)} dimensions but {len(dims)} window entries")
        for d, w in enumerate(dims):
            if w is None:
                continue
            if m[d] != w.loop:
                raise ValueError(f"operand {i} dimension {d} has a window over loop {w.loop} but its map names {m[d]}")
            if w.window_loop is not None and 0 <= w.window_loop < len(iterators):
                if not iterators[w.window_loop].is_invalid:
                    raise ValueError(f"window loop {w.window_loop} of operand {i} dimension {d} must be invalid")
            if w.stride < 1 or w.dilation < 1 or w.size < 1 or w.base < 1 or w.extent < 0 or w.out < 0:
                raise ValueError(f"operand {i} dimension {d} has a malformed window {w}")
        out.append(dims)
    return tuple(out)


def _map_str(m: TensorMap | None) -> str:
    if m is None:
        return "-"
    return "(" + ", ".join("_" if d is None else f"d{d}" for d in m) + ")"


# ---------------------------------------------------------------------------
# Options


def option_to_lists(option: ShardingOption, *, trim: bool = True) -> list[list[int]]:
    """The option as nested lists for an attribute (`[[0], [], [1]]`); with
    `trim`, trailing unsplit loops are dropped, as upstream prints them."""
    out = [list(axes) for axes in option]
    while trim and out and not out[-1]:
        out.pop()
    return out


def option_from_lists(lists: Sequence[Sequence[int]], num_loops: int) -> ShardingOption:
    """The inverse of `option_to_lists`: pads trimmed trailing loops."""
    if len(lists) > num_loops:
        raise ValueError(f"sharding option names {len(lists)} loops but the op has {num_loops}")
    out = [tuple(_index(a, "a mesh axis") for a in axes) for axes in lists]
    return tuple(out) + ((),) * (num_loops - len(out))


def validate_option(rule: ShardingRule, option: ShardingOption) -> None:
    """Raise ValueError unless `option` is a loop sharding the rule allows:
    one entry per loop, every mesh axis used once, nothing on invalid loops,
    and split reduction loops all of one kind (a result has one partial
    type)."""
    if len(option) != rule.num_loops:
        raise ValueError(f"sharding option has {len(option)} entries for {rule.num_loops} loops")
    seen: dict[int, int] = {}
    kinds: set[str] = set()
    for loop, axes in enumerate(option):
        for a in axes:
            a = _index(a, "a mesh axis")
            if a < 0:
                raise ValueError(f"mesh axis {a} is negative")
            if a in seen:
                where = "twice in loop" if seen[a] == loop else f"in loops {seen[a]} and"
                raise ValueError(f"mesh axis {a} is used {where} {loop}")
            seen[a] = loop
        if axes and rule.iterators[loop].is_invalid:
            raise ValueError(f"loop {loop} cannot be sharded but is split over {_fmt(axes)}")
        if axes and rule.iterators[loop].is_reduction:
            kinds.add(rule.iterators[loop].kind)
    if len(kinds) > 1:
        raise ValueError(f"reduction loops of different kinds are split: {', '.join(sorted(kinds))}")


def shardings_from_option(
    rule: ShardingRule,
    option: ShardingOption,
    mesh_shape: Sequence[int] | None = None,
    cuts: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] | None = None,
) -> tuple[tuple[Sharding | None, ...], tuple[Sharding | None, ...]]:
    """The layout of every operand and result when the op runs split as
    `option` says (None for operands and results that are not tensors).
    With `mesh_shape`, windowed operand dimensions carry their halos, and
    cropped ones the layout their outputs' cut needs: the default cut, or
    the one `cuts` gives a size split over those axes (a function's
    explicit cut, which propagation gives such a size)."""
    option = tuple(tuple(_index(a, "a mesh axis") for a in axes) for axes in option)
    validate_option(rule, option)
    its = rule.iterators
    reduced = [loop for loop, axes in enumerate(option) if axes and its[loop].is_reduction and not its[loop].is_select]
    partial = tuple(a for loop in reduced for a in option[loop])
    kind = rule.iterators[reduced[0]].kind if reduced else "sum"

    def split(m: TensorMap) -> tuple[tuple[int, ...], ...]:
        return tuple(() if d is None else option[d] for d in m)

    operands = tuple(
        None if m is None else Sharding(split(m), halo_sizes=_halos(rule, i, m, option, mesh_shape))
        for i, m in enumerate(rule.operand_maps)
    )
    if rule.crops and mesh_shape is not None:
        operands = tuple(
            _cropped(rule, i, s, option, mesh_shape, cuts) if s is not None else None for i, s in enumerate(operands)
        )
    results = tuple(None if m is None else Sharding(split(m), partial, kind) for m in rule.result_maps)
    return operands, results


def select_axes(rule: ShardingRule, option: ShardingOption) -> tuple[int, ...]:
    """The mesh axes splitting the rule's `select` loops, in loop order: the
    group over which each device's picks are gathered and picked again."""
    if not rule.selects:
        return ()
    return tuple(a for loop, axes in enumerate(option) if rule.iterators[loop].is_select for a in axes)


def _cropped(
    rule: ShardingRule,
    operand: int,
    s: Sharding,
    option: ShardingOption,
    mesh_shape: Sequence[int],
    cuts: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] | None = None,
) -> Sharding:
    """Operand `operand`'s layout `s` as its split crops need it
    (`crop_layout`, for the outputs' cut: `cuts`' for a size it lists, else
    the default one); `s` when it has none or a mesh size it uses is dynamic
    (partition then reshards it as it finds the outputs cut)."""
    crops = [c for c in rule.crops if c.operand == operand and option[c.loop]]
    if not crops:
        return s
    used = [a for d in s.sharded_dims() for a in s.split_axes[d]]
    if any(not 0 <= a < len(mesh_shape) or mesh_shape[a] < 1 for a in used):
        return s
    mesh = Mesh(tuple(n if n >= 1 else 1 for n in mesh_shape))  # (the axes `s` uses are static)
    shape = crops[0].shape

    def cut(d: int, n: int) -> Sequence[int]:
        given = cuts.get((n, s.split_axes[d])) if cuts else None
        return given if given is not None else s.cut(d, n, mesh)

    found = {c.dim: (c, cut(c.dim, c.out)) for c in crops}
    return crop_layout(s, found, {d: cut(d, shape[d]) for d in s.sharded_dims()})


def _halos(
    rule: ShardingRule, operand: int, m: TensorMap, option: ShardingOption, mesh_shape: Sequence[int] | None
) -> tuple[int, ...]:
    """The halo sizes of operand `operand` (a sharding's flat list)."""
    if mesh_shape is None or not rule.windows or rule.windows[operand] is None:
        return ()
    out: list[int] = []
    for d, loop in enumerate(m):
        if loop is None or not option[loop]:
            continue
        w = rule.windows[operand][d]
        if w is None:
            out += (0, 0)
            continue
        sizes = [mesh_shape[a] if 0 <= a < len(mesh_shape) else 1 for a in option[loop]]
        if any(size < 1 for size in sizes):
            out += (0, 0)  # a dynamic mesh size: the pieces are unknown (partition refuses such meshes)
            continue
        out += w.halo(math.prod(sizes))
    return tuple(out)


@dataclass(frozen=True)
class Conflict:
    """The given shardings ask for incompatible loop shardings.

    Names the first request that lost: `side` ("result" or "operand") and
    `index` say which value, `dim` which tensor dimension (None for a
    result's partial axes), `loop` the loop concerned (None when no loop
    fits), `axes` the mesh axes asked for.  `resolved` is the option when
    every losing request is dropped; a pass may use it and reshard the
    losers.
    """

    side: str
    index: int
    dim: int | None
    loop: int | None
    axes: tuple[int, ...]
    reason: str
    resolved: ShardingOption = field(compare=False)

    def __str__(self) -> str:
        what = f"{self.side} {self.index}"
        what += f" partial axes {_fmt(self.axes)}" if self.dim is None else f" dimension {self.dim}"
        if self.loop is not None:
            what += f" (loop {self.loop})"
        return f"{what}: {self.reason}"


class _Builder:
    """The state of `option_from_shardings`: loops filled so far, the owner
    of each placed mesh axis, and result partial axes not yet placed."""

    def __init__(self, rule: ShardingRule) -> None:
        self.rule = rule
        self.loops: list[tuple[int, ...]] = [()] * rule.num_loops
        self.owner: dict[int, int] = {}
        self.reserved: dict[int, tuple[str, int]] = {}  # axis -> (kind, result)
        self.partials: list[tuple[int, str, tuple[int, ...]]] = []
        self.conflict: Conflict | None = None
        self.setter: dict[int, tuple[str, int, int]] = {}  # loop -> the request that split it

    def lose(self, side: str, index: int, dim: int | None, loop: int | None, axes: tuple[int, ...], why: str) -> None:
        if self.conflict is None:
            self.conflict = Conflict(side, index, dim, loop, axes, why, ())

    def kinds_in_use(self) -> set[str]:
        its = self.rule.iterators
        used = {its[loop].kind for loop, axes in enumerate(self.loops) if axes and its[loop].is_reduction}
        return used | {kind for kind, _ in self.reserved.values()}

    def split(self, side: str, index: int, dim: int, loop: int, axes: tuple[int, ...]) -> None:
        """Tensor dimension `dim`, indexed by `loop`, is split over `axes`."""
        it = self.rule.iterators[loop]

        def lose(why: str) -> None:
            self.lose(side, index, dim, loop, axes, why)

        if it.is_invalid:
            return lose(f"loop {loop} cannot be sharded")
        if self.loops[loop]:
            if self.loops[loop] != axes:
                lose(f"loop {loop} is already split over {_fmt(self.loops[loop])}")
            return None
        for i, a in enumerate(axes):
            if a in axes[:i]:
                return lose(f"mesh axis {a} is listed twice")
            if a in self.owner:
                return lose(f"mesh axis {a} already splits loop {self.owner[a]}")
            if a in self.reserved:
                kind, result = self.reserved[a]
                if it.kind != kind:
                    return lose(f"mesh axis {a} is a partial {kind} axis of result {result}")
        if it.is_reduction:
            other = self.kinds_in_use() - {it.kind}
            if other:
                return lose(f"a {it.kind} reduction cannot be split together with a {min(other)} reduction")
        self.loops[loop] = axes
        self.setter[loop] = (side, index, dim)
        for a in axes:
            self.owner[a] = loop
            self.reserved.pop(a, None)
        return None

    def partial(self, index: int, kind: str, axes: tuple[int, ...]) -> None:
        """Result `index` is partial over `axes` with `kind`."""
        its = self.rule.iterators

        def lose(why: str, loop: int | None = None) -> None:
            self.lose("result", index, None, loop, axes, why)

        if not any(it.kind == kind for it in its):
            return lose(f"the op has no {kind} reduction loop")
        other = self.kinds_in_use() - {kind}
        if other:
            return lose(f"a {kind} reduction cannot be split together with a {min(other)} reduction")
        fresh = []
        for a in axes:
            if a in self.owner:
                loop = self.owner[a]
                if its[loop].kind != kind:
                    return lose(f"mesh axis {a} already splits loop {loop}", loop)
            elif a in self.reserved:
                other_kind, result = self.reserved[a]
                if other_kind != kind:
                    return lose(f"mesh axis {a} is a partial {other_kind} axis of result {result}")
            else:
                fresh.append(a)
        for a in fresh:
            self.reserved[a] = (kind, index)
        self.partials.append((index, kind, axes))
        return None

    def place_partials(self) -> None:
        """Put reserved axes no operand placed on a reduction loop of their kind."""
        its = self.rule.iterators
        for result, kind, axes in self.partials:
            left = [a for a in axes if a in self.reserved]
            if not left:
                continue
            candidates = [loop for loop, it in enumerate(its) if it.kind == kind]
            held = [self.owner[a] for a in axes if a in self.owner and self.owner[a] in candidates]
            free = [loop for loop in candidates if not self.loops[loop]]
            loop = held[0] if held else (free or candidates)[0]
            if self.loops[loop] and loop not in self.setter:
                # An earlier result's partial axes split this loop: growing it
                # would make that result partial over more axes than it says
                # (the earlier partial wins; these axes stay unplaced).
                why = (
                    f"the partial axes {_fmt(axes)} of result {result} also split loop {loop}, already split by a "
                    "partial"
                )
                self.lose("result", result, None, loop, axes, why)
                for a in left:
                    del self.reserved[a]
                continue
            if self.loops[loop]:
                # A request fixed this loop's axes exactly; growing it makes
                # that request lose (the partial came first, so it wins).
                side, index, dim = self.setter[loop]
                why = f"the partial axes {_fmt(axes)} of result {result} also split loop {loop}"
                self.lose(side, index, dim, loop, self.loops[loop], why)
            for a in left:
                del self.reserved[a]
                self.loops[loop] = self.loops[loop] + (a,)
                self.owner[a] = loop

    def tensor(self, side: str, index: int, m: TensorMap | None, sharding: Sharding) -> None:
        if m is None:
            return
        if len(sharding.split_axes) > len(m):
            raise ValueError(
                f"{side} {index} has rank {len(m)} but its sharding splits {len(sharding.split_axes)} dimensions"
            )
        for dim, loop in enumerate(m):
            axes = tuple(_index(a, "a mesh axis") for a in sharding.axes_of(dim))
            if axes and loop is not None:
                self.split(side, index, dim, loop, axes)
        if side == "result" and sharding.partial_axes:
            self.partial(index, sharding.partial_type, tuple(sharding.partial_axes))


def option_from_shardings(
    rule: ShardingRule,
    operand_shardings: Sequence[Sharding | None],
    result_shardings: Sequence[Sharding | None],
) -> ShardingOption | Conflict:
    """The loop sharding the given layouts imply (None: not annotated).

    See the module docstring for the order in which requests are honoured.
    Raises ValueError only for malformed input (wrong counts, a sharding
    splitting more dimensions than its tensor has)."""
    if len(operand_shardings) != len(rule.operand_maps):
        raise ValueError(f"{len(operand_shardings)} operand shardings for {len(rule.operand_maps)} operands")
    if len(result_shardings) != len(rule.result_maps):
        raise ValueError(f"{len(result_shardings)} result shardings for {len(rule.result_maps)} results")
    requests = [("result", i, s) for i, s in enumerate(result_shardings) if s is not None]
    requests += [("operand", i, s) for i, s in enumerate(operand_shardings) if s is not None]
    return option_from_requests(rule, requests)


def option_from_requests(
    rule: ShardingRule, requests: Sequence[tuple[str, int, Sharding]]
) -> ShardingOption | Conflict:
    """`option_from_shardings` with the order of the requests chosen by the
    caller: each is (`"operand"` or `"result"`, index, sharding), and an
    earlier request wins over a later one.  Propagation uses it to let
    explicit annotations win over inferred ones on either side."""
    b = _Builder(rule)
    for side, i, s in requests:
        maps = rule.result_maps if side == "result" else rule.operand_maps
        if side not in ("result", "operand") or not 0 <= i < len(maps):
            raise ValueError(f"no {side} {i} in a rule with {len(maps)} {side}s")
        b.tensor(side, i, maps[i], s)
    b.place_partials()
    option = tuple(b.loops)
    if b.conflict is not None:
        c = b.conflict
        return Conflict(c.side, c.index, c.dim, c.loop, c.axes, c.reason, option)
    return option


def moved_options(
    rule: ShardingRule, request: tuple[str, int, Sharding], mesh_shape: Sequence[int] | None = None
) -> list[ShardingOption]:
    """Options for a request that splits a dimension the op needs whole (a
    sort's or top_k's sorted dimension, a reverse's flipped one): the mesh
    axes the op cannot place move to a parallel loop indexing another
    dimension of the same tensor, as its innermost axes, one option per such
    loop.  The value then reaches the op by one all_to_all (each device
    receives about 1/n of its piece from each of the n-1 others) instead of
    a gather of the whole dimension (n-1 pieces), XLA's plan for a sort
    along a split dimension.  Empty when the request places all its axes.
    Given the mesh's shape, axes placed on a loop that reads one element
    per output through a window (a strided slice) count as not placed
    where the window does not make the loop local: pieces of uneven size
    (6 outputs over 4 devices: halos need even ones), or halos to bring in
    (which may move more than the all_to_all: the solver weighs both).
    Wider windows (convolutions, poolings) keep their halos alone, but for
    an operand read through a pad (`fused`): the pad's own rule, when it was
    an op, offered those moves, and they can beat halos wider than a piece
    or a dimension the mesh does not divide.  Axes on a crop's loop move
    too (the crop's own split is the request's option)."""
    side, i, s = request
    m = (rule.result_maps if side == "result" else rule.operand_maps)[i]
    if m is None:
        return []
    found = option_from_requests(rule, [request])
    base = found.resolved if isinstance(found, Conflict) else found
    unfit = _nonlocal_windows(rule, base, mesh_shape)
    # a crop splits (slicing or padding each device's rows), but moving
    # its axes away is offered too: its pieces may be uneven, which its
    # users may not run on
    unfit.update(c.loop for c in rule.crops if base[c.loop])
    base = tuple(() if loop in unfit else axes for loop, axes in enumerate(base))
    placed = {a for axes in base for a in axes}
    lost_of = [tuple(a for a in s.axes_of(d) if a not in placed) for d in range(len(s.split_axes))]
    lost = tuple(a for axes in lost_of for a in axes)
    if not lost:
        return []
    # all of them, or, when one dimension lost a tuple, its inner axes alone (the outer
    # ones gathered): one all_to_all moves those where all would take a permutation
    # first, or not divide the loop
    moves = [lost]
    if sum(1 for axes in lost_of if axes) == 1:
        moves += [lost[k:] for k in range(1, len(lost))]
    out = []
    for loop in dict.fromkeys(m):
        if loop is not None and loop not in unfit and rule.iterators[loop].is_parallel:
            for move in moves:
                out.append(tuple(axes + move if j == loop else axes for j, axes in enumerate(base)))
    if any(w is not None and w.base != 1 and w.loop in unfit for dims in rule.windows for w in dims or ()):
        # a dilated input's loop may not split at all: the other loops keep
        # their axes without it (the all_gather a whole window loop asks)
        out.append(base)
    return out


def clash_moves(rule: ShardingRule, a: tuple[str, int, Sharding], b: tuple[str, int, Sharding]) -> list[ShardingOption]:
    """Options for two requests that want one mesh axis on different loops
    (attention's q and k, each split along its own sequence loop): the
    contested axes leave both loops for a parallel loop both tensors index
    (the heads), as its innermost axes, one option per such loop.  Both
    values then reach the op by an all_to_all each (DeepSpeed-Ulysses'
    sequence parallelism), where settling the clash for one of them gathers
    the other whole.  Empty when the two do not clash, or share no such
    loop."""
    found = option_from_requests(rule, [a, b])
    maps = [(rule.result_maps if side == "result" else rule.operand_maps)[i] for side, i, _ in (a, b)]
    if not isinstance(found, Conflict) or maps[0] is None or maps[1] is None:
        return []
    alone = [option_from_requests(rule, [r]) for r in (a, b)]
    if any(isinstance(o, Conflict) for o in alone):
        return []
    # the axes both place, on different loops
    where = [{x: loop for loop, axes in enumerate(o) for x in axes} for o in alone]
    moved = tuple(x for x in where[1] if x in where[0] and where[0][x] != where[1][x])
    if not moved:
        return []
    base = tuple(tuple(x for x in axes if x not in moved) for axes in found.resolved)
    shared = [loop for loop in dict.fromkeys(maps[0]) if loop is not None and loop in maps[1]]
    out = []
    for loop in shared:
        if rule.iterators[loop].is_parallel:
            out.append(tuple(axes + moved if k == loop else axes for k, axes in enumerate(base)))
    return out


def _nonlocal_windows(rule: ShardingRule, option: ShardingOption, mesh_shape: Sequence[int] | None) -> set[int]:
    """The loops of `option` read through a window one element wide (or
    any window of an operand read through a pad, `ShardingRule.fused`) that
    its axes do not cut into even pieces each read locally, and so those of
    a dilated input (`Window.base`) (on a mesh of static sizes)."""
    if mesh_shape is None or not rule.windows:
        return set()
    out = set()
    for k, dims in enumerate(rule.windows):
        for w in dims or ():
            if w is None or not option[w.loop]:
                continue
            sizes = [mesh_shape[a] if 0 <= a < len(mesh_shape) else 1 for a in option[w.loop]]
            n = math.prod(sizes)
            if any(size < 1 for size in sizes):
                continue
            # (a dilated input's halos may be wider than its pieces: moving
            # its axes away is offered too, and the solver weighs both)
            if (w.size == 1 or k in rule.fused or w.base != 1) and (not w.even(n) or any(w.halo(n))):
                out.add(w.loop)
    return out
