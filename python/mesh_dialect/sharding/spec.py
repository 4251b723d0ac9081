"""Meshes and shardings as plain values: which part of a tensor each device holds.

The IR interpreter, the MPI backend, sharding propagation and the resharding
planner all need the same answer to "what does device d hold?", so the
layout rules live here once, in pure Python, with no MLIR in sight.

Conventions (shared with `mesh_dialect.sim`):

- A device is its multi-index, a tuple of ints, one coordinate per mesh axis.
  Linear indices are row-major: the last mesh axis varies fastest.
- A collective's `mesh_axes` cut the mesh into groups: devices whose
  coordinates agree on every other axis.  Inside a group a device's position
  is its row-major index over its coordinates along `mesh_axes`, taken in the
  order given (the first axis listed is the outermost).
- A tensor dimension split over mesh axes `[a, b]` is cut into
  `size(a) * size(b)` consecutive pieces; a device holds the piece whose
  number is its position over `(a, b)` in that order, `a` outermost.
- Without `sharded_dims_offsets`, n elements cut into k pieces give every
  piece n // k elements and the last n % k pieces one more (upstream MLIR's
  `shard_shape`: 7 over 3 is 2, 2, 3); `sharded_dims_offsets` give any pieces.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..ir.schema import DYNAMIC, REDUCTION_KINDS  # one list for the dialect and the algebra

_INT64_MAX = (1 << 63) - 1

Device = tuple[int, ...]
"""A device's multi-index on its mesh."""

MAX_LISTED_DEVICES = 1 << 20
"""The most devices `Mesh.devices`, `Mesh.groups` and `Mesh.group_of` list:
past it (a 65536x65536 or 1000x1000x1000 mesh) a list would exhaust memory,
so they raise MeshError; sizes, indices and single devices stay arithmetic,
and `iter_devices` / `iter_groups` walk any mesh lazily."""


class MeshError(ValueError):
    """A mesh, a device or a list of mesh axes that does not fit the mesh."""


class ShardingError(ValueError):
    """A sharding that does not describe a layout of the given tensor on the given mesh."""


def _listlike(values: object) -> bool:
    """An iterable that is not text (a string is iterable, but no list of axes)."""
    return isinstance(values, Iterable) and not isinstance(values, str | bytes)


def _ints(values: Iterable[object], what: str, error: type[ValueError]) -> tuple[int, ...]:
    """`values` as a tuple of Python ints; bools and floats are refused so a
    typo cannot silently become axis 0 or 1."""
    out = []
    if not _listlike(values):
        raise error(f"{what} must be a sequence of integers, got {values!r}")
    for v in values:
        if isinstance(v, bool):
            raise error(f"{what} must hold integers, got {v!r}")
        try:
            out.append(operator.index(v))
        except TypeError:
            raise error(f"{what} must hold integers, got {v!r}") from None
    return tuple(out)


def _fmt(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _fmt_sizes(values: Sequence[int]) -> str:
    """Halos or offsets as the IR shows them: a size known only at run time is `?`."""
    return "[" + ", ".join("?" if v == DYNAMIC else str(v) for v in values) + "]"


@dataclass(frozen=True)
class Mesh:
    """A device mesh with static sizes (`mesh.mesh @name(shape = 2x3)`)."""

    shape: tuple[int, ...]
    name: str = ""

    def __post_init__(self) -> None:
        shape = _ints(self.shape, "a mesh shape", MeshError)
        if not shape:
            raise MeshError("a mesh needs at least one axis")
        for size in shape:
            if size < 1:
                raise MeshError(f"mesh axis sizes must be at least 1, got {_fmt(shape)}")
        object.__setattr__(self, "shape", shape)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of devices."""
        return math.prod(self.shape)

    def devices(self) -> list[Device]:
        """Every device, in row-major (linear index) order; MeshError past
        `MAX_LISTED_DEVICES` devices."""
        self._check_listable(self.size, "the devices of")
        return list(self.iter_devices())

    def iter_devices(self) -> Iterator[Device]:
        """Every device, in row-major order, one at a time (no limit)."""
        return itertools.product(*(range(n) for n in self.shape))

    def _check_listable(self, count: int, what: str) -> None:
        if count > MAX_LISTED_DEVICES:
            raise MeshError(f"listing {what} {self} is limited to {MAX_LISTED_DEVICES} devices, got {count} devices")

    # -- indices ---------------------------------------------------------

    def check_device(self, device: Sequence[int]) -> Device:
        """`device` as a tuple, after checking it names a device of this mesh."""
        dev = _ints(device, "a device multi-index", MeshError)
        if len(dev) != self.rank:
            raise MeshError(f"device {_fmt(dev)} needs {self.rank} coordinates for a mesh of rank {self.rank}")
        for axis, (c, n) in enumerate(zip(dev, self.shape)):
            if not 0 <= c < n:
                raise MeshError(f"device coordinate {c} is out of range for mesh axis {axis} of size {n}")
        return dev

    def check_axes(self, mesh_axes: Iterable[int], what: str = "mesh_axes") -> tuple[int, ...]:
        """`mesh_axes` as a tuple, after checking each is in range and listed once."""
        axes = _ints(mesh_axes, what, MeshError)
        seen: set[int] = set()
        for a in axes:
            if not 0 <= a < self.rank:
                raise MeshError(f"mesh axis {a} is out of range for a mesh of rank {self.rank}")
            if a in seen:
                raise MeshError(f"mesh axis {a} appears twice in {what}")
            seen.add(a)
        return axes

    def linear_index(self, multi: Sequence[int]) -> int:
        """Row-major: for shape (10, 20, 30), (1, 2, 3) is 3 + 30*2 + 30*20*1."""
        index = 0
        for c, n in zip(self.check_device(multi), self.shape):
            index = index * n + c
        return index

    def multi_index(self, linear: int) -> Device:
        """The inverse of `linear_index`."""
        linear = operator.index(linear)
        if not 0 <= linear < self.size:
            raise MeshError(f"linear index {linear} is out of range for a mesh of {self.size} devices")
        return _unravel(linear, self.shape)

    # -- device groups ---------------------------------------------------

    def group_size(self, mesh_axes: Iterable[int]) -> int:
        """How many devices a group over `mesh_axes` holds (1 for no axes)."""
        return math.prod(self.shape[a] for a in self.check_axes(mesh_axes))

    def in_group_multi_index(self, device: Sequence[int], mesh_axes: Iterable[int]) -> Device:
        """The device's coordinates along `mesh_axes`, in the order given."""
        dev = self.check_device(device)
        return tuple(dev[a] for a in self.check_axes(mesh_axes))

    def in_group_index(self, device: Sequence[int], mesh_axes: Iterable[int]) -> int:
        """The device's position in its group (first listed axis outermost)."""
        dev = self.check_device(device)
        index = 0
        for a in self.check_axes(mesh_axes):
            index = index * self.shape[a] + dev[a]
        return index

    def device_at(self, device: Sequence[int], mesh_axes: Iterable[int], in_group: Sequence[int]) -> Device:
        """The member of `device`'s group whose coordinates along `mesh_axes`
        are `in_group`: how a root, source or destination becomes a device."""
        dev = list(self.check_device(device))
        axes = self.check_axes(mesh_axes)
        coords = _ints(in_group, "an in-group multi-index", MeshError)
        if len(coords) != len(axes):
            raise MeshError(
                f"in-group multi-index {_fmt(coords)} needs {len(axes)} coordinates, one per mesh axis in {_fmt(axes)}"
            )
        for a, c in zip(axes, coords):
            if not 0 <= c < self.shape[a]:
                raise MeshError(f"in-group coordinate {c} is out of range for mesh axis {a} of size {self.shape[a]}")
            dev[a] = c
        return tuple(dev)

    def member(self, device: Sequence[int], mesh_axes: Iterable[int], index: int) -> Device:
        """The device at position `index` of `device`'s group."""
        axes = self.check_axes(mesh_axes)
        n = math.prod(self.shape[a] for a in axes)
        if not 0 <= index < n:
            raise MeshError(f"in-group index {index} is out of range for a group of {n} devices")
        return self.device_at(device, axes, _unravel(index, tuple(self.shape[a] for a in axes)))

    def group_count(self, mesh_axes: Iterable[int]) -> int:
        """How many groups `mesh_axes` cut the mesh into."""
        return self.size // self.group_size(mesh_axes)

    def group_of(self, device: Sequence[int], mesh_axes: Iterable[int]) -> list[Device]:
        """`device`'s group, in in-group order; MeshError past
        `MAX_LISTED_DEVICES` members."""
        axes = self.check_axes(mesh_axes)
        dev = self.check_device(device)
        self._check_listable(self.group_size(axes), f"a group over mesh axes {_fmt(axes)} of")
        return self._group(dev, axes)

    def _group(self, dev: Device, axes: tuple[int, ...]) -> list[Device]:
        out = []
        for coords in itertools.product(*(range(self.shape[a]) for a in axes)):
            member = list(dev)
            for a, c in zip(axes, coords):
                member[a] = c
            out.append(tuple(member))
        return out

    def groups(self, mesh_axes: Iterable[int]) -> list[list[Device]]:
        """Every group over `mesh_axes`, each in in-group order.  Groups come
        in row-major order of their coordinates outside `mesh_axes`.
        MeshError past `MAX_LISTED_DEVICES` devices in all."""
        axes = self.check_axes(mesh_axes)
        self._check_listable(self.size, f"the groups over mesh axes {_fmt(axes)} of")
        return list(self.iter_groups(axes))

    def iter_groups(self, mesh_axes: Iterable[int]) -> Iterator[list[Device]]:
        """`groups`, one group at a time; each group is still a list, so a
        single group must fit (MeshError past `MAX_LISTED_DEVICES` members)."""
        axes = self.check_axes(mesh_axes)
        self._check_listable(self.group_size(axes), f"a group over mesh axes {_fmt(axes)} of")
        outside = [a for a in range(self.rank) if a not in axes]
        base = [0] * self.rank
        for coords in itertools.product(*(range(self.shape[a]) for a in outside)):
            for a, c in zip(outside, coords):
                base[a] = c
            yield self._group(tuple(base), axes)

    def __str__(self) -> str:
        name = f"@{self.name}" if self.name else "mesh"
        return f"{name}(shape = {'x'.join(str(n) for n in self.shape)})"


def split_piece(size: int, n: int, index: int) -> tuple[int, int]:
    """[start, stop) of piece `index` when `size` elements are cut into `n`
    pieces without explicit offsets: size // n each, the last size % n one
    more, as upstream MLIR's `shard_shape` (7 over 3: 2, 2, 3)."""
    base, extra = divmod(size, n)
    first_big = n - extra
    start = index * base + max(0, index - first_big)
    return (start, start + base + (index >= first_big))


def _unravel(index: int, sizes: Sequence[int]) -> Device:
    out = []
    for n in reversed(sizes):
        index, c = divmod(index, n)
        out.append(c)
    return tuple(reversed(out))


@dataclass(frozen=True)
class Sharding:
    """How a tensor lies on a mesh: `mesh.sharding` without its mesh symbol.

    `split_axes[d]` lists the mesh axes tensor dimension `d` is cut over.
    `partial_axes` are mesh axes along which devices hold terms whose
    `partial_type` reduction is the value.  `halo_sizes` holds (low, high)
    for each dimension with split axes, in order; `sharded_dims_offsets`
    holds, for each such dimension, the start of every piece and the end of
    the last one (any pieces; without them the module docstring's rule
    cuts).  Only static sizes: dynamic ones are resolved before a `Sharding`
    is built.

    Values are normalized so that equal layouts compare equal: trailing empty
    split entries are dropped, partial axes are sorted, the partial type is
    "sum" when nothing is partial, and all-zero halos are dropped.
    """

    split_axes: tuple[tuple[int, ...], ...]
    partial_axes: tuple[int, ...] = ()
    partial_type: str = "sum"
    halo_sizes: tuple[int, ...] = ()
    sharded_dims_offsets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not _listlike(self.split_axes):
            raise ShardingError(f"split_axes must be a list of axis lists, got {self.split_axes!r}")
        split = [_ints(axes, "split_axes", ShardingError) for axes in self.split_axes]
        while split and not split[-1]:
            split.pop()
        partial = tuple(sorted(_ints(self.partial_axes, "partial_axes", ShardingError)))
        if not isinstance(self.partial_type, str):
            raise ShardingError(f"partial_type must be a reduction kind name, got {self.partial_type!r}")
        halos = _ints(self.halo_sizes, "halo_sizes", ShardingError)
        if not any(halos):
            halos = ()
        object.__setattr__(self, "split_axes", tuple(split))
        object.__setattr__(self, "partial_axes", partial)
        object.__setattr__(self, "partial_type", self.partial_type if partial else "sum")
        object.__setattr__(self, "halo_sizes", halos)
        object.__setattr__(
            self, "sharded_dims_offsets", _ints(self.sharded_dims_offsets, "sharded_dims_offsets", ShardingError)
        )
        # layouts key the planner's and propagation's memo tables: hash once
        key = (self.split_axes, partial, self.partial_type, halos, self.sharded_dims_offsets)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # the generated one compares field tuples; layouts are compared by
        # the hundred thousand in propagation, and most unequal ones differ
        # in their hash
        if other.__class__ is not Sharding:
            return NotImplemented
        return self is other or (
            self._hash == other._hash
            and self.split_axes == other.split_axes
            and self.partial_axes == other.partial_axes
            and self.partial_type == other.partial_type
            and self.halo_sizes == other.halo_sizes
            and self.sharded_dims_offsets == other.sharded_dims_offsets
        )

    def __reduce__(self):
        # rebuilt by the constructor, so another process computes its own hash
        fields = (self.split_axes, self.partial_axes, self.partial_type, self.halo_sizes, self.sharded_dims_offsets)
        return (Sharding, fields)

    @classmethod
    def replicated(cls) -> Sharding:
        """Every device holds the whole tensor (`split_axes = [[]]`)."""
        return cls(())

    # -- plain queries -----------------------------------------------------

    def axes_of(self, dim: int) -> tuple[int, ...]:
        """The mesh axes tensor dimension `dim` is split over (() if none)."""
        return self.split_axes[dim] if 0 <= dim < len(self.split_axes) else ()

    def sharded_dims(self) -> list[int]:
        """The tensor dimensions with split axes, in order: the ones halos and
        offsets are listed for."""
        return [d for d, axes in enumerate(self.split_axes) if axes]

    def used_axes(self) -> tuple[int, ...]:
        """Mesh axes used for splitting or as partial axes."""
        return tuple(sorted({a for axes in self.split_axes for a in axes} | set(self.partial_axes)))

    def replica_axes(self, mesh: Mesh) -> tuple[int, ...]:
        """Mesh axes along which devices hold identical copies."""
        used = set(self.used_axes())
        return tuple(a for a in range(mesh.rank) if a not in used)

    @property
    def is_partial(self) -> bool:
        return bool(self.partial_axes)

    @property
    def is_replicated(self) -> bool:
        """No dimension is split and nothing is partial."""
        return not self.split_axes and not self.partial_axes

    def halo(self, dim: int) -> tuple[int, int]:
        """(low, high) halo of tensor dimension `dim`; (0, 0) when it has none."""
        if not self.halo_sizes or not self.axes_of(dim):
            return (0, 0)
        i = self.sharded_dims().index(dim)
        return (self.halo_sizes[2 * i], self.halo_sizes[2 * i + 1])

    def shard_count(self, dim: int, mesh: Mesh) -> int:
        """How many pieces tensor dimension `dim` is cut into."""
        return math.prod(mesh.shape[a] for a in self.axes_of(dim))

    def piece_index(self, dim: int, mesh: Mesh, device: Sequence[int]) -> int:
        """Which piece of tensor dimension `dim` the device holds."""
        return mesh.in_group_index(device, self.axes_of(dim))

    def offsets(self, dim: int, mesh: Mesh) -> tuple[int, ...] | None:
        """The given sharded_dims_offsets of `dim` (piece starts plus the end),
        or None for an even split."""
        if not self.sharded_dims_offsets or not self.axes_of(dim):
            return None
        pos = 0
        for d in self.sharded_dims():
            n = self.shard_count(d, mesh) + 1
            if d == dim:
                return self.sharded_dims_offsets[pos : pos + n]
            pos += n
        return None  # pragma: no cover - dim is sharded, so the loop returns

    def bounds(self, dim: int, size: int, mesh: Mesh) -> list[tuple[int, int]]:
        """The [start, stop) of every piece of dimension `dim` (of `size`
        elements), in piece order."""
        given = self.offsets(dim, mesh)
        if given is not None:
            return list(zip(given, given[1:]))
        n = self.shard_count(dim, mesh)
        return [split_piece(size, n, i) for i in range(n)]

    def cut(self, dim: int, size: int, mesh: Mesh) -> tuple[int, ...]:
        """Every piece's start along dimension `dim` and the last one's end:
        the dimension's `sharded_dims_offsets`, given or by the default cut."""
        bounds = self.bounds(dim, size, mesh)
        return tuple(a for a, _ in bounds) + (bounds[-1][1],)

    def piece_bounds(self, dim: int, size: int, mesh: Mesh, index: int) -> tuple[int, int]:
        """`bounds(dim, size, mesh)[index]` without listing every piece (a
        dimension of a huge mesh may have billions)."""
        given = self.offsets(dim, mesh)
        if given is not None:
            return (given[index], given[index + 1])
        return split_piece(size, self.shard_count(dim, mesh), index)

    def is_even(self, shape: Sequence[int], mesh: Mesh) -> bool:
        """Whether every split dimension of a tensor of `shape` is cut into
        pieces of one size, so that every device holds the same local shape."""
        return all(self.is_even_dim(dim, shape[dim], mesh) for dim in self.sharded_dims())

    def is_even_dim(self, dim: int, size: int, mesh: Mesh) -> bool:
        """Whether dimension `dim` (of `size` elements) is cut into pieces of
        one size, by its offsets or by the default cut."""
        given = self.offsets(dim, mesh)
        if given is None:
            return size % self.shard_count(dim, mesh) == 0
        return len({b - a for a, b in zip(given, given[1:])}) <= 1

    # -- validation --------------------------------------------------------

    def validate(self, mesh: Mesh, shape: Sequence[int] | None = None) -> None:
        """Raise ShardingError unless this describes a layout on `mesh` (and
        of a tensor of `shape`, when given)."""
        used: dict[int, int] = {}
        for dim, axes in enumerate(self.split_axes):
            for a in axes:
                self._check_axis(mesh, a)
                if a in used:
                    where = "twice in tensor dimension" if used[a] == dim else f"in tensor dimensions {used[a]} and"
                    raise ShardingError(f"mesh axis {a} is used {where} {dim} of split_axes")
                used[a] = dim
        seen: set[int] = set()
        for a in self.partial_axes:
            self._check_axis(mesh, a)
            if a in seen:
                raise ShardingError(f"mesh axis {a} appears twice in partial_axes")
            seen.add(a)
            if a in used:
                raise ShardingError(
                    f"mesh axis {a} is both a split axis (tensor dimension {used[a]}) and a partial axis"
                )
        if self.partial_type not in REDUCTION_KINDS:
            raise ShardingError(f"unknown partial type '{self.partial_type}'")
        if self.partial_type == "generic":
            raise ShardingError("partial type 'generic' is not allowed in a sharding")
        if self.halo_sizes and self.sharded_dims_offsets:
            raise ShardingError("halo_sizes and sharded_dims_offsets are mutually exclusive")
        sharded = self.sharded_dims()
        if self.halo_sizes:
            if len(self.halo_sizes) != 2 * len(sharded):
                raise ShardingError(
                    f"halo_sizes needs 2 entries per sharded tensor dimension ({2 * len(sharded)}), "
                    f"got {len(self.halo_sizes)}"
                )
            for h in self.halo_sizes:
                if h < 0:
                    raise ShardingError(f"halo sizes must be non-negative, got {h}")
        if self.sharded_dims_offsets:
            want = sum(self.shard_count(d, mesh) + 1 for d in sharded)
            if len(self.sharded_dims_offsets) != want:
                raise ShardingError(
                    f"sharded_dims_offsets needs (shards + 1) entries per sharded tensor dimension ({want}), "
                    f"got {len(self.sharded_dims_offsets)}"
                )
            for dim in sharded:
                given = self.offsets(dim, mesh) or ()
                if given[0] != 0:
                    raise ShardingError(
                        f"sharded_dims_offsets of tensor dimension {dim} must start at 0, got {given[0]}"
                    )
                for a, b in zip(given, given[1:]):
                    if b < a:
                        raise ShardingError(
                            f"sharded_dims_offsets of tensor dimension {dim} must be non-decreasing, got {b} after {a}"
                        )
        if shape is not None:
            self._check_shape(mesh, _ints(shape, "a tensor shape", ShardingError))

    @staticmethod
    def _check_axis(mesh: Mesh, a: int) -> None:
        if not 0 <= a < mesh.rank:
            raise ShardingError(f"mesh axis {a} is out of range for a mesh of rank {mesh.rank}")

    def _check_shape(self, mesh: Mesh, shape: tuple[int, ...]) -> None:
        for size in shape:
            if size < 0:
                raise ShardingError(f"tensor sizes must be non-negative, got {_fmt(shape)}")
        if len(self.split_axes) > len(shape):
            raise ShardingError(
                f"sharding splits {len(self.split_axes)} tensor dimensions but the tensor has rank {len(shape)}"
            )
        for dim in self.sharded_dims():
            given = self.offsets(dim, mesh)
            if given is not None:
                if given[-1] != shape[dim]:
                    raise ShardingError(
                        f"sharded_dims_offsets of tensor dimension {dim} must end at its size {shape[dim]}, "
                        f"got {given[-1]}"
                    )
            # a piece with its halos, and the pieces padded to the largest
            # (as collectives move them), must have a 64-bit size
            k = self.shard_count(dim, mesh)
            largest = max(b - a for a, b in zip(given, given[1:])) if given else -(-shape[dim] // max(k, 1))
            widest = max(largest + sum(self.halo(dim)), k * largest)
            if widest > _INT64_MAX:
                raise ShardingError(
                    f"pieces of tensor dimension {dim} reach {widest} elements (with halos, or padded to the "
                    f"largest), more than a 64-bit size holds"
                )

    # -- per-device layout -------------------------------------------------

    def slice_of(self, global_shape: Sequence[int], mesh: Mesh, device: Sequence[int]) -> tuple[slice, ...]:
        """The region of the global tensor that is `device`'s core (halos excluded)."""
        shape = _ints(global_shape, "a tensor shape", ShardingError)
        self.validate(mesh, shape)
        dev = mesh.check_device(device)
        out = []
        for dim, size in enumerate(shape):
            if self.axes_of(dim):
                start, stop = self.piece_bounds(dim, size, mesh, self.piece_index(dim, mesh, dev))
                out.append(slice(start, stop))
            else:
                out.append(slice(0, size))
        return tuple(out)

    def local_shape(self, global_shape: Sequence[int], mesh: Mesh, device: Sequence[int]) -> tuple[int, ...]:
        """The shape of `device`'s local tensor: its core plus its halos (every
        device carries both halos, even at the tensor's edge)."""
        core = self.slice_of(global_shape, mesh, device)
        return tuple(s.stop - s.start + sum(self.halo(dim)) for dim, s in enumerate(core))

    def __str__(self) -> str:
        text = "split_axes = [" + ", ".join(_fmt(a) for a in (self.split_axes or ((),))) + "]"
        if self.partial_axes:
            text += f" partial = {self.partial_type} {_fmt(self.partial_axes)}"
        if self.halo_sizes:
            text += f" halo_sizes = {_fmt_sizes(self.halo_sizes)}"
        if self.sharded_dims_offsets:
            text += f" sharded_dims_offsets = {_fmt_sizes(self.sharded_dims_offsets)}"
        return text


IDEMPOTENT_KINDS = frozenset(("max", "min", "bitwise_and", "bitwise_or"))
"""Reductions for which combining a value with itself gives the value: one
device's whole value, repeated on the others, is a valid set of terms, and
reducing an already reduced value again changes nothing."""
