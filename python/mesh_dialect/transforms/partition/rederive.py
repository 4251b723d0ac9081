"""An op's loop sharding when the layouts around it do not fit one.

`sharding-propagation` records each op's loop sharding (`mesh.sharding_option`)
and annotates every value around it, so after it the layouts of an op's
operands and results are exactly what one loop sharding implies.  Upstream
passes break that without breaking the program: `linalg-generalize-named-ops`
and elementwise fusion make new ops without the attribute (missing), a
rewrite may keep an attribute that no longer fits the op's loops (stale),
and a fresh init (`tensor.empty`) arrives unannotated.  The `mesh.shard`
annotations survive, since upstream passes cannot look through them, so they
are what partition derives the loop sharding from:

1. the recorded option, when it is valid for the op's current rule and
   gives every annotated result its annotated layout (results without an
   annotation then take the option's layout: theirs was lost);
2. else the choice upstream's search makes from the annotations
   (`interfaces.choice.choose`): results (annotated, else whole, partition's
   default) must be met, operands that are split or partial are followed
   where they agree.  Whole operands cost nothing to cut, so they are not
   asked about.

Operands that do not arrive in the layouts the option needs are resharded in
front of the op, results it cannot produce as annotated after it.

A loop sharding says which loops are split, not where the pieces end: a
layout that stays as it is (an operand that fits, an annotated result the
op produces) fixes the cut of an uneven loop (offsets, or a size the mesh
does not divide), and every layout partition reshards to along that loop
takes the same cut, scaled to the dimension's size where the rule maps a
larger or smaller dimension to the loop (a depthwise convolution's C*M
output channels, a reshape merging dimensions).  Without that, the default
cut of each reshard would hand a device another part of the loop than its
neighbours' pieces.  No exact cut (3 channels cut 1|2 against 4 elements)
raises `Misaligned`, naming partition's reshard.

Pure Python on `ShardingRule`s and `Sharding`s: no IR.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...interfaces.choice import Request, choose, same_layout, same_placement
from ...interfaces.rules import ShardingOption, ShardingRule, option_from_lists, shardings_from_option, validate_option
from ...ir.syntax import Unprintable, decode_sharding_attr
from ...sharding.spec import Mesh, Sharding

_WHOLE = Sharding(())

Shapes = Sequence[Sequence[int | None] | None]
"""Per operand (or result), its global shape; None for a value that is not a
ranked tensor; a dynamic size is None or negative (MLIR's kDynamic)."""

Cut = list[tuple[int, int]]
"""[start, stop) of every piece of a dimension, in piece order."""


class Misaligned(ValueError):
    """A layout partition reshards to cannot be cut into the pieces an
    uneven loop already has; the message names the values and cuts."""


@dataclass(frozen=True)
class Derived:
    """The loop sharding an op runs with and the layouts it implies.

    `source`: "option" (the recorded one) or "annotations" (re-derived);
    `stale`: why a recorded option was not used ("" when it was, or when
    there was none)."""

    option: ShardingOption
    operands: tuple[Sharding | None, ...]
    results: tuple[Sharding | None, ...]
    source: str
    stale: str = ""


def recorded_option(
    text: str, rule: ShardingRule, mesh: str, mesh_shape: Sequence[int]
) -> tuple[ShardingOption | None, str]:
    """(the option, "") when `text` (a `mesh.sharding_option`) is a loop
    sharding of `rule` on `mesh`, else (None, why it is stale)."""
    try:
        name, split, partial, _kind, halos, offsets = decode_sharding_attr(text)
    except Unprintable:
        return None, f"it is not a #mesh.sharding: {text}"
    if name[1:] != mesh:
        return None, f"it is on mesh {name}, the function on @{mesh}"
    if partial or halos or offsets:
        return None, "a sharding option lists split axes per loop only"
    try:
        option = option_from_lists(split, rule.num_loops)
        for axes in option:
            for a in axes:
                if not 0 <= a < len(mesh_shape):
                    raise ValueError(f"mesh axis {a} is out of range for @{mesh} of rank {len(mesh_shape)}")
        validate_option(rule, option)
    except ValueError as e:
        return None, str(e)
    return option, ""


def derive(
    rule: ShardingRule,
    mesh: str,
    operands: Sequence[Sharding | None],
    results: Sequence[Sharding | None],
    recorded: ShardingOption | None = None,
    mesh_shape: Sequence[int] | None = None,
    stale: str = "",
    shapes: tuple[Shapes, Shapes] | None = None,
) -> Derived:
    """The loop sharding of an op whose operands are laid out as `operands`
    and whose results are annotated as `results` (None: not annotated; for
    operands, not a tensor or whole), per the module docstring.  Given the
    (operand, result) `shapes` and `mesh_shape`, the layouts partition
    reshards to are cut as the uneven loops they follow (`line_up`)."""
    derived = _derive(rule, mesh, operands, results, recorded, mesh_shape, stale)
    if shapes is None or mesh_shape is None or any(n < 1 for n in mesh_shape):
        return derived  # a dynamic mesh size: no static pieces to line up
    return line_up(rule, derived, operands, results, shapes, Mesh(tuple(mesh_shape)))


def _derive(
    rule: ShardingRule,
    mesh: str,
    operands: Sequence[Sharding | None],
    results: Sequence[Sharding | None],
    recorded: ShardingOption | None,
    mesh_shape: Sequence[int] | None,
    stale: str,
) -> Derived:
    shapes = None if mesh_shape is None else {mesh: tuple(mesh_shape)}
    if recorded is not None:
        need_operands, need_results = shardings_from_option(rule, recorded, mesh_shape)
        wrong = [
            (i, have, need)
            for i, (have, need) in enumerate(zip(results, need_results))
            if have is not None and need is not None and not same_layout(have, need)
        ]
        if not wrong:
            return Derived(recorded, need_operands, need_results, "option")
        i, have, need = wrong[0]
        stale = f"it produces result {i} as {need} but the result is annotated {have}"
    result_requests = [
        [] if m is None else [Request(mesh, _WHOLE if s is None else s, True)]
        for s, m in zip(results, rule.result_maps)
    ]
    operand_requests = [
        None if s is None or m is None or s.is_replicated else Request(mesh, s, False)
        for s, m in zip(operands, rule.operand_maps)
    ]
    choice = choose(rule, operand_requests, result_requests, shapes)
    if choice is None:  # no tensor around the op: nothing is split
        option: ShardingOption = ((),) * rule.num_loops
        need_operands, need_results = shardings_from_option(rule, option, mesh_shape)
        return Derived(option, need_operands, need_results, "annotations", stale)
    return Derived(choice.option, choice.operands, choice.results, "annotations", stale)


def same_cut(size0: int, cut0: Cut, size1: int, cut1: Cut) -> bool:
    """Whether two cuts of one loop give each device the same part of it:
    the same pieces, or pieces that scale exactly (partition's
    `check_pieces` criterion)."""
    if size0 == size1:
        return cut0 == cut1
    if size0 and size1 % size0 == 0:
        f = size1 // size0
        return [(a * f, b * f) for a, b in cut0] == cut1
    if size1 and size0 % size1 == 0:
        f = size0 // size1
        return cut0 == [(a * f, b * f) for a, b in cut1]
    return False


def scaled_cut(size0: int, cut0: Cut, size: int) -> Cut | None:
    """The cut of `size` elements that gives every device the part of a loop
    `cut0` (of `size0` elements) gives it: the same pieces, or pieces scaled
    by the ratio of the sizes when one divides the other and the pieces
    scale exactly; None when there is none (or a size is 0)."""
    if not size or not size0:
        return None
    if size == size0:
        return list(cut0)
    if size % size0 == 0:
        f = size // size0
        return [(a * f, b * f) for a, b in cut0]
    if size0 % size == 0:
        f = size0 // size
        if all(a % f == 0 and b % f == 0 for a, b in cut0):
            return [(a // f, b // f) for a, b in cut0]
    return None


class _Piece(NamedTuple):
    """A split tensor dimension along one loop: whose (`side`, `index`), its
    dimension and size, its layout, and whether that layout is one
    partition reshards to (`free`: its cut may be chosen).  A tuple: one
    is made per split dimension of every op partition re-derives."""

    side: str
    index: int
    dim: int
    size: int
    layout: Sharding
    free: bool

    def name(self) -> str:
        return f"{self.side} {self.index}"


def _fmt_cut(cut: Cut) -> str:
    return "[" + ", ".join(f"{a}:{b}" for a, b in cut) + "]"


def line_up(
    rule: ShardingRule,
    derived: Derived,
    operands: Sequence[Sharding | None],
    results: Sequence[Sharding | None],
    shapes: tuple[Shapes, Shapes],
    mesh: Mesh,
) -> Derived:
    """`derived` with the layouts partition reshards to cut as the uneven
    loops they follow (module docstring).  A layout that stays is one that
    already has the placement the option needs: an operand (`operands`,
    None for whole) or an annotated result (`results`).  Loops cut evenly
    everywhere are left alone (even cuts always line up), and so are
    dimensions read through a window (halos bridge their cuts) or a crop,
    or of dynamic size, as partition's `check_pieces` does."""
    pieces: dict[int, list[_Piece]] = {}
    uneven: set[int] = set()  # loops some layout cuts unevenly
    free_loops: set[int] = set()  # loops some reshard follows
    sides = (
        ("operand", operands, derived.operands, rule.operand_maps, shapes[0]),
        ("result", results, derived.results, rule.result_maps, shapes[1]),
    )
    for side, have, need, maps, side_shapes in sides:
        for i, (h, n, m) in enumerate(zip(have, need, maps)):
            shape = side_shapes[i] if i < len(side_shapes) else None
            if n is None or m is None or shape is None:
                continue
            if side == "operand" and h is None:
                h = _WHOLE
            free = h is None or not same_placement(h, n)
            s = n if free else h
            for d, loop in enumerate(m):
                if loop is None or d >= len(shape) or not s.axes_of(d):
                    continue
                if side == "operand" and (rule.window(i, d) is not None or rule.crop(i, d) is not None):
                    continue  # (a crop's operand is cut as its runs need: `crop.fit`)
                size = shape[d]
                if size is None or size < 0:
                    continue
                pieces.setdefault(loop, []).append(_Piece(side, i, d, size, s, free))
                if free:
                    free_loops.add(loop)
                if s.sharded_dims_offsets or size % s.shard_count(d, mesh):
                    uneven.add(loop)
    cuts: dict[tuple[str, int], dict[int, Cut]] = {}
    for loop in sorted(uneven & free_loops):  # even cuts of one loop are proportional: they always line up
        found = pieces[loop]
        bounds = [p.layout.bounds(p.dim, p.size, mesh) for p in found]
        first = found[0]
        if all(same_cut(first.size, bounds[0], p.size, b) for p, b in zip(found, bounds)):
            continue  # lines up as partition checks it (`check_pieces`)
        kept = [k for k, p in enumerate(found) if not p.free]
        r = kept[0] if kept else min(range(len(found)), key=lambda k: found[k].size)
        ref, ref_cut = found[r], bounds[r]
        for p, b in zip(found, bounds):
            if not p.free or p is ref or not p.size or not ref.size:
                continue  # an empty dimension has no part of the loop to line up
            want = scaled_cut(ref.size, ref_cut, p.size)
            if want is None:
                ref_is = f"{ref.name()} is cut" if kept else f"{ref.name()}, also resharded by partition, is cut"
                raise Misaligned(
                    f"{ref_is} as {_fmt_cut(ref_cut)} along loop {loop}, and no cut of the {p.size} elements of "
                    f"{p.name()}, which partition reshards to fit it, gives each device the same part of that loop"
                )
            if want != b:
                cuts.setdefault((p.side, p.index), {})[p.dim] = want
    if not cuts:
        return derived
    new_operands, new_results = list(derived.operands), list(derived.results)
    for (side, i), dims in cuts.items():
        layouts = new_operands if side == "operand" else new_results
        s = layouts[i]
        assert s is not None
        shape = shapes[0 if side == "operand" else 1][i]
        assert shape is not None
        layouts[i] = _with_cuts(s, dims, shape, mesh, f"{side} {i}")
    return Derived(derived.option, tuple(new_operands), tuple(new_results), derived.source, derived.stale)


def _with_cuts(s: Sharding, dims: dict[int, Cut], shape: Sequence[int | None], mesh: Mesh, name: str) -> Sharding:
    """`s` with the pieces of `dims` as offsets (the other split dimensions
    keep their cuts, spelled out: offsets list every split dimension)."""
    if s.halo_sizes:
        d, cut = next(iter(dims.items()))
        raise Misaligned(
            f"{name}, resharded by partition, would need halos and the pieces {_fmt_cut(cut)} of dimension {d} at "
            "once; a layout with halos has no offsets"
        )
    offsets: list[int] = []
    for d in s.sharded_dims():
        size = shape[d]
        if d in dims:
            cut = dims[d]
        elif size is None or size < 0:
            raise Misaligned(f"{name}, resharded by partition, would need uneven pieces but dimension {d} is dynamic")
        else:
            cut = s.bounds(d, size, mesh)
        offsets += [cut[0][0], *(b for _, b in cut)]
    return Sharding(s.split_axes, s.partial_axes, s.partial_type, (), tuple(offsets))


def option_text(option: ShardingOption) -> str:
    """`[[0], [], [1]]`, as `mesh.sharding_option` spells it."""
    return "[" + ", ".join("[" + ", ".join(str(a) for a in axes) + "]" for axes in option) + "]"


__all__ = ["Derived", "Misaligned", "derive", "line_up", "option_text", "recorded_option", "same_cut", "scaled_cut"]
