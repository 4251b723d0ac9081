"""Which device holds which tile of a tensor: the picture's content as data.

Every renderer (terminal, SVG, HTML) draws a `Layout`, so what a picture
says is computed, and tested, once.  A tile is a piece of the tensor that
some devices hold as their core (halos aside): devices whose coordinates
differ only along replica axes hold copies, devices that differ along
partial axes hold terms whose reduction is the tile.

The grid is 2-D, as `jax.debug.visualize_array_sharding` draws it: the last
tensor dimension runs across, the others (flattened, the first outermost)
run down; a 1-D tensor is one row, a scalar one tile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from ..sharding.spec import Mesh, MeshError, Sharding, ShardingError

MAX_DRAWN_DEVICES = 1 << 16
"""The most devices a picture lists (every device is placed in a tile)."""

MAX_DRAWN_TILES = 4096
"""The most tiles a picture holds: past it no grid is readable."""


class LayoutError(ValueError):
    """A layout that cannot be drawn (invalid, dynamic or too large), worded
    for the user."""


@dataclass(frozen=True)
class Tile:
    """One piece of the tensor and the devices that hold it.

    `index` is the piece's number along every tensor dimension (0 for a
    dimension that is not split); `bounds` its [start, stop) per dimension;
    `halo` the (low, high) cells each holder also reads around it, clipped
    to the tensor (cells past its edge hold no data); `replicas` the holders
    as linear device ids, one group per copy, each group the devices whose
    terms reduce to the tile (one device when nothing is partial)."""

    index: tuple[int, ...]
    bounds: tuple[tuple[int, int], ...]
    halo: tuple[tuple[int, int], ...]
    replicas: tuple[tuple[int, ...], ...]

    @property
    def devices(self) -> tuple[int, ...]:
        """Every holder, in linear order."""
        return tuple(sorted(d for group in self.replicas for d in group))

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(b - a for a, b in self.bounds)

    def label(self) -> str:
        """The holders as drawn: copies separated by commas, the terms of a
        partial value joined by `+` (`0+1, 2+3`)."""
        return ", ".join("+".join(str(d) for d in group) for group in self.replicas)


@dataclass(frozen=True)
class Layout:
    """A tensor of `shape` laid out by `sharding` on a mesh of `mesh_shape`.

    `tiles` are in grid order (row-major over piece indices); `rows` and
    `columns` give the grid: `rows[i]` is the [start, stop) of grid row i
    along the flattened leading dimensions' pieces, drawn as its element
    count, likewise `columns` along the last dimension.  Rows and columns of
    empty pieces (`hidden_rows`, `hidden_columns`) are not drawn: a tile
    there would claim its devices hold data; `empty_note` names them."""

    shape: tuple[int, ...]
    mesh_shape: tuple[int, ...]
    sharding: Sharding
    tiles: tuple[Tile, ...]
    grid: tuple[int, int]
    row_sizes: tuple[int, ...]
    column_sizes: tuple[int, ...]
    element_type: str = "f32"
    element_bytes: int = 4
    mesh_name: str = ""

    def tile_at(self, row: int, column: int) -> Tile:
        return self.tiles[row * self.grid[1] + column]

    def device_tile(self, device: int) -> Tile:
        """The tile whose holders include linear device `device`."""
        for tile in self.tiles:
            if device in tile.devices:
                return tile
        raise LayoutError(f"device {device} is not on the mesh of {self.mesh_shape}")

    @property
    def partial_note(self) -> str:
        """The legend line for partial axes ('' when nothing is partial)."""
        s = self.sharding
        if not s.partial_axes:
            return ""
        axes = ", ".join(str(a) for a in s.partial_axes)
        plural = "es" if len(s.partial_axes) > 1 else "is"
        return f"partial {s.partial_type} over mesh ax{plural} {axes}: devices joined by + hold terms"

    @property
    def halo_note(self) -> str:
        """The legend line for halos ('' without halos)."""
        s = self.sharding
        if not s.halo_sizes:
            return ""
        parts = []
        for dim in s.sharded_dims():
            low, high = s.halo(dim)
            if low or high:
                parts.append(f"dim {dim}: {low} before, {high} after")
        return "halos (" + "; ".join(parts) + ")"

    @cached_property
    def hidden_rows(self) -> frozenset[int]:
        """Grid rows not drawn: their piece is empty along a leading
        dimension that has elements (a 0-size dimension is drawn as is)."""
        rank, columns = len(self.shape), self.grid[1]
        if rank < 2:
            return frozenset()
        return frozenset(
            r for r in range(self.grid[0]) if _empty_along(self.tiles[r * columns], self.shape, range(rank - 1))
        )

    @cached_property
    def hidden_columns(self) -> frozenset[int]:
        """Grid columns not drawn: their piece of the last dimension is
        empty while the dimension has elements."""
        if not self.shape:
            return frozenset()
        return frozenset(c for c in range(self.grid[1]) if _empty_along(self.tiles[c], self.shape, (-1,)))

    def is_hidden(self, n: int) -> bool:
        """Whether tile `n` is not drawn: an empty piece, so its row or its
        column takes no room and its holders are named in `empty_note`."""
        r, c = divmod(n, self.grid[1])
        return r in self.hidden_rows or c in self.hidden_columns

    @cached_property
    def empty_devices(self) -> tuple[int, ...]:
        """Every holder of a hidden tile, in linear order."""
        return tuple(sorted(d for n, t in enumerate(self.tiles) if self.is_hidden(n) for d in t.devices))

    @property
    def empty_note(self) -> str:
        """The legend line naming the devices that hold an empty piece ('' when none do)."""
        ids = self.empty_devices
        if not ids:
            return ""
        if len(ids) == 1:
            return f"device {ids[0]} holds an empty piece"
        return f"devices {device_runs(ids)} hold empty pieces"

    @property
    def notes(self) -> tuple[str, ...]:
        """The legend lines every renderer prints under the grid."""
        return tuple(n for n in (self.partial_note, self.halo_note, self.empty_note) if n)

    def local_shape(self, tile: Tile) -> tuple[int, ...]:
        """The local array of a holder of `tile`: its core plus both halos
        (carried even at the tensor's edge)."""
        return tuple(n + sum(self.sharding.halo(d)) for d, n in enumerate(tile.shape))

    def type_text(self) -> str:
        dims = "x".join(str(n) for n in self.shape)
        return f"tensor<{dims}x{self.element_type}>" if dims else f"tensor<{self.element_type}>"

    def mesh_text(self) -> str:
        name = f"@{self.mesh_name} " if self.mesh_name else "mesh "
        return name + "x".join(str(n) for n in self.mesh_shape)

    def describe(self) -> str:
        """One line: the tensor, the mesh and the sharding."""
        return f"{self.type_text()} on {self.mesh_text()}: {self.sharding}"

    def to_json(self) -> dict:
        """Plain data for the HTML page's script."""
        return {
            "shape": list(self.shape),
            "mesh": list(self.mesh_shape),
            "mesh_name": self.mesh_name,
            "sharding": str(self.sharding),
            "type": self.type_text(),
            "grid": list(self.grid),
            "rows": list(self.row_sizes),
            "columns": list(self.column_sizes),
            "partial": self.partial_note,
            "halo": self.halo_note,
            "empty": self.empty_note,
            "empty_devices": list(self.empty_devices),
            "hidden_rows": sorted(self.hidden_rows),
            "hidden_columns": sorted(self.hidden_columns),
            "tiles": [
                {
                    "index": list(t.index),
                    "bounds": [list(b) for b in t.bounds],
                    "halo": [list(h) for h in t.halo],
                    "devices": list(t.devices),
                    "label": t.label(),
                    "local": list(self.local_shape(t)),
                    "hidden": self.is_hidden(n),
                }
                for n, t in enumerate(self.tiles)
            ],
        }


def _as_mesh(mesh: Mesh | Sequence[int]) -> Mesh:
    if isinstance(mesh, Mesh):
        return mesh
    try:
        return Mesh(tuple(mesh))
    except (MeshError, TypeError) as e:
        raise LayoutError(f"invalid mesh {mesh!r}: {e}") from None


def as_sharding(sharding: Sharding | Sequence[Sequence[int]]) -> Sharding:
    """A `Sharding`, or split axes (`[[0], [1]]`) meaning one."""
    if isinstance(sharding, Sharding):
        return sharding
    try:
        return Sharding(tuple(tuple(axes) for axes in sharding))
    except (ShardingError, TypeError) as e:
        raise LayoutError(f"invalid split axes {sharding!r}: {e}") from None


def compute_layout(
    shape: Sequence[int],
    mesh: Mesh | Sequence[int],
    sharding: Sharding | Sequence[Sequence[int]],
    *,
    element_type: str = "f32",
    element_bytes: int = 4,
    mesh_name: str = "",
) -> Layout:
    """The tiles of a tensor of `shape` laid out by `sharding` on `mesh`
    (a `Mesh` or its shape); LayoutError when the layout is invalid or too
    large to draw."""
    m = _as_mesh(mesh)
    s = as_sharding(sharding)
    try:
        dims = tuple(int(n) for n in shape)
        s.validate(m, dims)
    except (ShardingError, MeshError, TypeError, ValueError) as e:
        raise LayoutError(f"invalid layout: {e}") from None
    if m.size > MAX_DRAWN_DEVICES:
        raise LayoutError(f"drawing is limited to {MAX_DRAWN_DEVICES} devices, got a mesh of {m.size}")
    counts = tuple(s.shard_count(d, m) for d in range(len(dims)))
    n_tiles = math.prod(counts)
    if n_tiles > MAX_DRAWN_TILES:
        raise LayoutError(f"drawing is limited to {MAX_DRAWN_TILES} tiles, got {n_tiles}")
    bounds = [s.bounds(d, n, m) if s.axes_of(d) else [(0, n)] for d, n in enumerate(dims)]
    # holders[piece index] -> {replica coordinates: [devices]}: the devices of
    # one entry differ only along partial axes, so they hold one copy's terms.
    holders: dict[tuple[int, ...], dict[tuple[int, ...], list[int]]] = {}
    replica_axes = s.replica_axes(m)
    for linear, dev in enumerate(m.iter_devices()):
        index = tuple(s.piece_index(d, m, dev) if s.axes_of(d) else 0 for d in range(len(dims)))
        copy = tuple(dev[a] for a in replica_axes)
        holders.setdefault(index, {}).setdefault(copy, []).append(linear)
    tiles = []
    for index in _row_major(counts):
        box = tuple(bounds[d][i] for d, i in enumerate(index))
        halo = tuple(_clipped_halo(s.halo(d), box[d], dims[d]) for d in range(len(dims)))
        groups = holders.get(index, {})
        replicas = tuple(tuple(groups[k]) for k in sorted(groups, key=lambda k: groups[k][0]))
        tiles.append(Tile(index, box, halo, replicas))
    if not dims:
        grid, rows, columns = (1, 1), (1,), (1,)
    else:
        grid = (math.prod(counts[:-1]), counts[-1])
        columns = tuple(b - a for a, b in bounds[-1])
        rows = tuple(_row_extent(bounds[:-1], index) for index in _row_major(counts[:-1]))
    return Layout(dims, m.shape, s, tuple(tiles), grid, rows, columns, element_type, element_bytes, mesh_name)


def _row_major(counts: Sequence[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for n in counts:
        out = [prefix + (i,) for prefix in out for i in range(n)]
    return out


def _row_extent(leading: Sequence[Sequence[tuple[int, int]]], index: tuple[int, ...]) -> int:
    """Elements a grid row spans: the product of its pieces' sizes along the
    leading dimensions (1 for a 1-D tensor)."""
    return math.prod(leading[d][i][1] - leading[d][i][0] for d, i in enumerate(index))


def _clipped_halo(halo: tuple[int, int], box: tuple[int, int], size: int) -> tuple[int, int]:
    low, high = halo
    return (min(low, box[0]), min(high, size - box[1]))


def _empty_along(tile: Tile, shape: Sequence[int], dims: Sequence[int]) -> bool:
    """Whether `tile` holds nothing of one of `dims` that has elements."""
    return any(shape[d] > 0 and tile.bounds[d][0] == tile.bounds[d][1] for d in dims)


def device_runs(ids: Sequence[int]) -> str:
    """Sorted device ids listed with runs of three or more as `a-b`."""
    parts: list[str] = []
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts += [f"{ids[i]}-{ids[j]}"] if j - i >= 2 else [str(d) for d in ids[i : j + 1]]
        i = j + 1
    return ", ".join(parts)
