"""PyTorch DTensor-style placements: `Shard(dim)`, `Replicate()`, `Partial(op)`.

DTensor describes a layout by one placement per mesh axis
(`placements=[Shard(0), Replicate()]` on a 2-D mesh); a `Sharding` describes
it by the mesh axes of each tensor dimension.  The two say the same thing
except where noted below, so users coming from PyTorch can write the layout
they know and get a `mesh.sharding`.

Rules (all DTensor's, so a layout means the same device pieces in both):

- **Mesh-axis order.**  When several mesh axes shard one tensor dimension
  (`[Shard(0), Shard(0)]`), DTensor cuts it over the mesh axes from first to
  last: over mesh axis 0 first (outermost), then each piece over mesh axis 1.
  That is `split_axes = [[0, 1]]`.  The other order (`[[1, 0]]`, mesh axis 1
  outermost) has no DTensor placements: `to_placements` refuses it.
- **Uneven sizes.**  DTensor cuts n elements over k devices like
  `torch.chunk`: ceil(n/k) per piece, the last ones smaller or empty (7 over 3
  is 3, 3, 1), where a plain `mesh.sharding` gives 2, 2, 3.  With the tensor's
  shape, `to_sharding` writes DTensor's pieces as `sharded_dims_offsets`
  (only when some dimension is uneven); without it, dimensions are assumed
  to divide evenly.
- **One partial type.**  A `Sharding` has one reduction for all its partial
  axes: `[Partial("sum"), Partial("max")]` is refused.
- Halos have no placement; `to_placements` refuses them.

`Partial` takes this dialect's reduction names (sum, max, min, product,
average, bitwise_and, bitwise_or, bitwise_xor) and torch's c10d spellings
(avg, band, bor, bxor), stored under this dialect's name.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .spec import REDUCTION_KINDS, Mesh, Sharding, ShardingError, split_piece

if TYPE_CHECKING:
    from mlir import ir


class PlacementError(ShardingError):
    """Placements that do not describe a layout, or a layout no placements describe."""


_TORCH_NAMES = {"avg": "average", "band": "bitwise_and", "bor": "bitwise_or", "bxor": "bitwise_xor"}
_PARTIAL_KINDS = tuple(k for k in REDUCTION_KINDS if k != "generic")


@dataclass(frozen=True)
class Shard:
    """The tensor dimension `dim` is cut over this mesh axis (negative counts
    from the end, resolved with the tensor's shape)."""

    dim: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "dim", _int(self.dim, "Shard dim"))


@dataclass(frozen=True)
class Replicate:
    """Every device along this mesh axis holds the same data."""


@dataclass(frozen=True)
class Partial:
    """Devices along this mesh axis hold terms whose `reduce_op` is the value."""

    reduce_op: str = "sum"

    def __post_init__(self) -> None:
        op = self.reduce_op
        kind = _TORCH_NAMES.get(op, op) if isinstance(op, str) else op
        if kind not in _PARTIAL_KINDS:
            raise PlacementError(f"unknown Partial reduce_op {op!r}; expected one of {', '.join(_PARTIAL_KINDS)}")
        object.__setattr__(self, "reduce_op", kind)


Placement = Shard | Replicate | Partial


def _int(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise PlacementError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise PlacementError(f"{what} must be an integer, got {value!r}") from None


def _mesh(mesh: Mesh | Sequence[int]) -> Mesh:
    return mesh if isinstance(mesh, Mesh) else Mesh(tuple(mesh))


def dtensor_bounds(size: int, mesh: Mesh, axes: Sequence[int]) -> list[tuple[int, int]]:
    """[start, stop) of each piece DTensor cuts `size` elements into over
    `axes` (in mesh-axis order), in the piece order of `split_axes`: each
    axis cuts every piece of the previous one like `torch.chunk`."""
    pieces = [(0, size)]
    for a in axes:
        k = mesh.shape[a]
        out = []
        for start, stop in pieces:
            n = stop - start
            chunk = -(-n // k)
            for i in range(k):
                lo = min(start + i * chunk, stop)
                out.append((lo, min(lo + chunk, stop)))
        pieces = out
    return pieces


def to_sharding(
    placements: Sequence[Placement], mesh: Mesh | Sequence[int], shape: Sequence[int] | None = None
) -> Sharding:
    """The layout of `placements` (one per mesh axis of `mesh`, a `Mesh` or
    its shape) as a `Sharding`; with the tensor's `shape`, negative `Shard`
    dims resolve and uneven dimensions get DTensor's pieces as offsets."""
    mesh = _mesh(mesh)
    placements = tuple(placements)
    if len(placements) != mesh.rank:
        raise PlacementError(f"placements need one entry per mesh axis ({mesh.rank} for {mesh}), got {len(placements)}")
    if shape is not None:
        shape = tuple(_int(n, "a tensor size") for n in shape)
    split: dict[int, list[int]] = {}
    partial: list[int] = []
    kind: str | None = None
    for axis, p in enumerate(placements):
        if isinstance(p, Shard):
            dim = p.dim
            if shape is not None:
                if not -len(shape) <= dim < len(shape):
                    raise PlacementError(
                        f"Shard({p.dim}) on mesh axis {axis} is out of range for a tensor of rank {len(shape)}"
                    )
                dim %= len(shape)
            elif dim < 0:
                raise PlacementError(f"Shard({dim}) on mesh axis {axis} needs the tensor's shape to resolve")
            split.setdefault(dim, []).append(axis)
        elif isinstance(p, Partial):
            if kind is not None and p.reduce_op != kind:
                raise PlacementError(
                    f"partial reductions differ across mesh axes ({kind} on mesh axis {partial[0]}, "
                    f"{p.reduce_op} on mesh axis {axis}): a mesh sharding has one partial type"
                )
            kind = p.reduce_op
            partial.append(axis)
        elif not isinstance(p, Replicate):
            raise PlacementError(f"placement {axis} must be Shard, Replicate or Partial, got {p!r}")
    rank = max(split, default=-1) + 1
    split_axes = tuple(tuple(split.get(d, ())) for d in range(rank))
    offsets: list[int] = []
    if shape is not None:
        uneven = False
        for d in sorted(split):
            pieces = dtensor_bounds(shape[d], mesh, split[d])
            n = len(pieces)
            uneven |= pieces != [split_piece(shape[d], n, i) for i in range(n)]
            offsets += [start for start, _ in pieces] + [shape[d]]
        if not uneven:
            offsets = []
    layout = Sharding(split_axes, tuple(partial), kind or "sum", sharded_dims_offsets=tuple(offsets))
    layout.validate(mesh, shape)
    return layout


def to_placements(
    sharding: Sharding, mesh: Mesh | Sequence[int], shape: Sequence[int] | None = None
) -> tuple[Placement, ...]:
    """The DTensor placements of `sharding` on `mesh`; PlacementError when it
    has none (mesh axes against mesh-axis order, halos, pieces other than
    DTensor's).  Pieces are checked where the sizes are known (from `shape`
    or from offsets); otherwise dimensions are assumed to divide evenly."""
    mesh = _mesh(mesh)
    sharding.validate(mesh, shape)
    if sharding.halo_sizes:
        raise PlacementError(f"halo_sizes have no DTensor placement, got {sharding}")
    out: list[Placement] = [Replicate()] * mesh.rank
    for dim, axes in enumerate(sharding.split_axes):
        if list(axes) != sorted(axes):
            raise PlacementError(
                f"tensor dimension {dim} is split over mesh axes [{', '.join(map(str, axes))}], against mesh-axis "
                "order: DTensor cuts a dimension over its mesh axes first to last, so only ascending axes have "
                "placements"
            )
        for a in axes:
            out[a] = Shard(dim)
        if not axes:
            continue
        offsets = sharding.offsets(dim, mesh)
        size = shape[dim] if shape is not None else (offsets[-1] if offsets is not None else None)
        if size is None:
            continue
        ours = sharding.bounds(dim, size, mesh)
        theirs = dtensor_bounds(size, mesh, axes)
        if ours != theirs:
            raise PlacementError(
                f"tensor dimension {dim} of size {size} is cut into pieces {_sizes(ours)}, but DTensor's Shard "
                f"cuts it into {_sizes(theirs)}"
            )
    for a in sharding.partial_axes:
        out[a] = Partial(sharding.partial_type)
    return tuple(out)


def _sizes(bounds: Sequence[tuple[int, int]]) -> str:
    return "[" + ", ".join(str(b - a) for a, b in bounds) + "]"


# -- MLIR: the op and the attribute ---------------------------------------


def _named(mesh: Mesh) -> str:
    if not isinstance(mesh, Mesh) or not mesh.name:
        raise PlacementError(f"building MLIR needs a Mesh with the name of its mesh.mesh symbol, got {mesh!r}")
    return mesh.name


def sharding_op(
    mesh: Mesh,
    placements: Sequence[Placement],
    *,
    shape: Sequence[int] | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Build the `mesh.sharding` of `placements` on `mesh` (a `Mesh` named
    like its `mesh.mesh` symbol) and return its result."""
    from ..ir import ops

    s = to_sharding(placements, mesh, shape)
    return ops.sharding(
        _named(mesh),
        s.split_axes or ((),),
        partial_axes=s.partial_axes,
        partial_type=s.partial_type if s.is_partial else None,
        sharded_dims_offsets=s.sharded_dims_offsets,
        loc=loc,
        ip=ip,
    )


def sharding_attr(
    mesh: Mesh,
    placements: Sequence[Placement],
    *,
    shape: Sequence[int] | None = None,
    context: ir.Context | None = None,
) -> ir.Attribute:
    """The `#mesh.sharding` attribute of `placements` (for a function's
    argument or result attributes)."""
    from mlir import ir

    from ..ir.syntax import encode_sharding_attr

    s = to_sharding(placements, mesh, shape)
    text = encode_sharding_attr(
        "@" + _named(mesh), s.split_axes or ((),), s.partial_axes, s.partial_type, (), s.sharded_dims_offsets
    )
    return ir.Attribute.parse(text, context=context)


__all__ = [
    "Partial",
    "Placement",
    "PlacementError",
    "Replicate",
    "Shard",
    "dtensor_bounds",
    "sharding_attr",
    "sharding_op",
    "to_placements",
    "to_sharding",
]
