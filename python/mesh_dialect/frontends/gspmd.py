"""XLA's GSPMD shardings (`mhlo.sharding` strings) as layouts on a mesh.

A tiled GSPMD sharding cuts each tensor dimension into `tile_dims[d]`
pieces and gives piece (i0, i1, ...) to the device listed at that index of
the tile assignment (explicitly, `devices=[2,4]0,1,...`, or as a reshaped
and transposed iota, `devices=[2,4]<=[4,2]T(1,0)`); trailing subgroup
dimensions (`last_tile_dim_replicate`, `last_tile_dims={replicated}`) hold
the copies. This dialect says the same thing with mesh axes: a device is
its row-major position on the mesh, and a dimension split over axes
[a, b] gives piece (ia * size(b) + ib) to the device at those coordinates.

So a tile assignment is expressible when its device list is a mixed-radix
reordering of 0..N-1: reading the tile index major to minor, the device id
changes by fixed strides, and the strides, sorted, are 1, s1, s1*s2, ...
(`factor` finds them). Each factor (size g, stride s) is the run of mesh
axes whose strides lie in [s, s*g). One mesh serves every sharding of a
module when all their stride boundaries form one divisibility chain
(`MeshBuilder`); its axes, major first, are the ratios of that chain. A
device order no mesh axis order gives (`devices=[4]0,1,3,2`), or two
shardings that need different meshes, are errors that show the string.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..sharding.spec import MAX_LISTED_DEVICES, Sharding
from . import FrontendError

Factor = tuple[int, int]
"""(size, stride): a digit of the tile index and how much it moves the device id."""


@dataclass(frozen=True)
class HloSharding:
    """One parsed `mhlo.sharding` string. `kind` is "replicated", "maximal",
    "tiled", "manual", "unknown" or "tuple"; `subgroups` holds the types of
    the last tile dimensions ("replicated", "manual", "unreduced")."""

    kind: str
    text: str = ""
    tile_dims: tuple[int, ...] = ()
    devices: tuple[int, ...] = ()
    subgroups: tuple[str, ...] = ()
    device: int | None = None
    elements: tuple[HloSharding, ...] = ()

    @property
    def data_rank(self) -> int:
        """Tile dimensions that cut tensor dimensions."""
        return len(self.tile_dims) - len(self.subgroups)

    @property
    def num_devices(self) -> int:
        return len(self.devices)


# -- reading ----------------------------------------------------------------

_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<int>\d+)|(?P<word>[A-Za-z_][\w.]*)|(?P<punct><=|[{}\[\](),=T]))'
)


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[str] = []
        self.starts: list[int] = []  # where each token starts, to show a tuple's element as written
        pos, end = 0, len(text.rstrip())
        while pos < end:
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise self.fail(f"unexpected character {text[pos:].lstrip()[:1]!r}")
            self.tokens.append(m.group(m.lastgroup or ""))
            self.starts.append(m.start(m.lastgroup or 0))
            pos = m.end()
        self.i = 0

    def fail(self, rule: str) -> FrontendError:
        return FrontendError(f"{rule} in mhlo.sharding: {self.text.strip()}")

    def peek(self) -> str:
        return self.tokens[self.i] if self.i < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if not token or (expected is not None and token != expected):
            raise self.fail(f"expected {expected or 'more'}, found {token or 'the end'!r}")
        self.i += 1
        return token

    def accept(self, token: str) -> bool:
        if self.peek() == token:
            self.i += 1
            return True
        return False

    def integer(self) -> int:
        token = self.take()
        if not token.isdigit():
            raise self.fail(f"expected an integer, found {token!r}")
        return int(token)

    def ints(self, close: str) -> list[int]:
        out: list[int] = []
        while self.peek() != close:
            out.append(self.integer())
            if not self.accept(","):
                break
        self.take(close)
        return out

    def skip_value(self) -> None:
        """An attribute we do not read (`metadata={...}`): one token or a
        balanced group."""
        depth = 0
        while True:
            token = self.take()
            if token in ("{", "[", "("):
                depth += 1
            elif token in ("}", "]", ")"):
                depth -= 1
            if depth <= 0:
                return


def iota_devices(reshape: Sequence[int], perm: Sequence[int] | None = None) -> list[int]:
    """`<=[reshape]T(perm)`: iota(N) reshaped, transposed by perm, flattened."""
    perm = list(range(len(reshape))) if perm is None else list(perm)
    dims = [reshape[p] for p in perm]
    strides = [math.prod(reshape[a + 1 :]) for a in range(len(reshape))]
    moved = [strides[p] for p in perm]
    out: list[int] = []
    for index in range(math.prod(dims)):
        device, rest = 0, index
        for size, stride in zip(reversed(dims), reversed(moved)):
            device += (rest % size) * stride
            rest //= size
        out.append(device)
    return out


def _check_tile_dims(r: _Reader, tile_dims: Sequence[int]) -> None:
    """Tile dims cut tensors into pieces, so each is at least 1; their
    product is a device count the tile assignment is listed for, so it is
    bounded like every device list (an iota of 10**12 devices is text of a
    few bytes)."""
    for dim, size in enumerate(tile_dims):
        if size < 1:
            raise r.fail(f"tile dimension {dim} must be at least 1, got {size}")
    n = math.prod(tile_dims)
    if n > MAX_LISTED_DEVICES:
        raise r.fail(f"tile assignment of {n} devices is more than the limit of {MAX_LISTED_DEVICES}")


def _check_iota_form(r: _Reader, reshape: Sequence[int], perm: Sequence[int] | None) -> None:
    """XLA's parser reads `<=[n]` alone and `<=[a,b,...]T(...)` with its
    transpose, and refuses the other two forms; read alike, they would be
    imported where XLA never runs the module."""
    shown = f"<=[{','.join(map(str, reshape))}]" + ("" if perm is None else f"T({','.join(map(str, perm))})")
    if len(reshape) > 1 and perm is None:
        raise r.fail(f"an iota reshape of several dimensions needs a transpose T(...), got {shown}")
    if len(reshape) == 1 and perm is not None:
        raise r.fail(f"an iota reshape of one dimension takes no transpose, got {shown}")


_KINDS = ("replicated", "manual", "unknown", "maximal", "unreduced")
_ONCE = frozenset(("kind", "device", "last_tile_dim_replicate", "last_tile_dims"))


def _one(r: _Reader) -> HloSharding:
    start = r.i
    r.take("{")
    if r.peek() == "{":  # a tuple of shardings
        elements = []
        while r.peek() == "{":
            elements.append(_one(r))
            if not r.accept(","):
                break
        r.take("}")
        return HloSharding("tuple", elements=tuple(elements))
    kind = ""
    tile_dims: list[int] = []
    devices: list[int] = []
    subgroups: list[str] = []
    device = None
    seen: dict[str, str] = {}
    while r.peek() != "}":
        word = r.take()
        field = "kind" if word in _KINDS or word == "devices" else word
        if field in _ONCE and field in seen:
            # XLA prints each once: a second one would silently win
            if field == "kind":
                raise r.fail(f"a sharding has one kind, got {word!r} after {seen[field]!r}")
            raise r.fail(f"a sharding gives {word} once, got it twice")
        seen[field] = word
        if word in _KINDS:
            kind = word
        elif word == "device":
            r.take("=")
            device = r.integer()
        elif word == "devices":
            kind = "tiled"
            r.take("=")
            r.take("[")
            tile_dims = r.ints("]")
            _check_tile_dims(r, tile_dims)
            if r.accept("<="):
                r.take("[")
                reshape = r.ints("]")
                perm = None
                if r.accept("T"):
                    r.take("(")
                    perm = r.ints(")")
                _check_iota_form(r, reshape, perm)
                if math.prod(reshape) != math.prod(tile_dims):
                    raise r.fail(f"iota reshape {reshape} must hold {math.prod(tile_dims)} devices")
                if perm is not None and sorted(perm) != list(range(len(reshape))):
                    raise r.fail(f"iota transpose must be a permutation of the reshape's dimensions, got {perm}")
                devices = iota_devices(reshape, perm)
            else:
                devices = [r.integer()]
                while r.accept(","):
                    devices.append(r.integer())
        elif word == "last_tile_dim_replicate":
            subgroups = ["replicated"]
        elif word == "last_tile_dims":
            r.take("=")
            r.take("{")
            while r.peek() != "}":
                subgroups.append(r.take())
                if not r.accept(","):
                    break
            r.take("}")
        elif r.accept("="):  # metadata={...}, shard_as=..., anything else with a value
            r.skip_value()
        elif word in ("shard_as", "shard_like"):
            r.integer()
        elif word == ",":
            continue
        else:
            raise r.fail(f"unknown field {word!r}")
    r.take("}")
    text = r.text[r.starts[start] : r.starts[r.i - 1] + len(r.tokens[r.i - 1])]
    if kind == "maximal":
        if device is None:
            raise r.fail("maximal sharding needs device=N")
        return HloSharding("maximal", text, device=device)
    if kind != "tiled":
        return HloSharding(kind or "replicated", text)
    n = math.prod(tile_dims)
    if len(devices) != n:
        raise r.fail(f"tile assignment must list {n} devices for tile dims {tile_dims}, got {len(devices)}")
    if sorted(devices) != list(range(n)):
        raise r.fail(f"tile assignment must be a permutation of 0..{n - 1}")
    if len(subgroups) > len(tile_dims):
        raise r.fail("more subgroup dimensions than tile dimensions")
    for s in subgroups:
        if s not in ("replicated", "manual", "unreduced"):
            raise r.fail(f"unknown subgroup type {s!r}")
    return HloSharding("tiled", text, tuple(tile_dims), tuple(devices), tuple(subgroups))


def parse(text: str) -> HloSharding:
    """One `mhlo.sharding` string: `{replicated}`, `{maximal device=3}`,
    `{devices=[2,1,4]<=[8] last_tile_dim_replicate}`, a tuple `{{...}, {...}}`."""
    r = _Reader(text)
    sharding = _one(r)
    if r.peek():
        raise r.fail(f"unexpected {r.peek()!r}")
    return _with_text(sharding, text)


def _with_text(s: HloSharding, text: str) -> HloSharding:
    return HloSharding(s.kind, text.strip(), s.tile_dims, s.devices, s.subgroups, s.device, s.elements)


# -- tile assignments as mesh axes -------------------------------------------


def _runs(devices: Sequence[int]) -> list[Factor]:
    """The digits of the flat tile index, minor first, each with the stride
    it moves the device id by; FrontendError when the device ids are no
    mixed-radix reordering of 0..N-1.  A digit of size k steps by one stride
    within each block of k and breaks only between blocks, so the largest
    such k is the gcd of the list's length and the positions where the
    stride breaks (found in one vectorized pass per digit)."""
    out: list[Factor] = []
    d = np.asarray(devices, dtype=np.int64)
    while len(d) > 1:
        n = len(d)
        steps = np.diff(d)
        stride = int(steps[0])
        breaks = np.flatnonzero(steps != stride) + 1
        k = int(np.gcd.reduce(np.append(breaks, n)))
        if k < 2:
            return []
        out.append((k, stride))
        d = d[::k]
    return out


def _short(values: Sequence[int] | str, limit: int = 16) -> str:
    """A device list (or a sharding's text) cut to its first items for a
    message: a million device ids would make one of megabytes."""
    if isinstance(values, str):
        return values if len(values) <= 200 else values[:200] + "..."
    shown = ", ".join(str(v) for v in list(values[:limit]))
    return f"[{shown}{', ...' if len(values) > limit else ''}]"


def factor(sharding: HloSharding) -> list[list[Factor]]:
    """Per tile dimension, its digits (size, stride), major first. A digit
    of the device id never spans two tile dimensions (it is cut where they
    meet)."""
    if sharding.kind != "tiled":
        return []
    runs = _runs(sharding.devices)
    ordered = sorted(runs, key=lambda f: f[1])
    expected = 1
    for size, stride in ordered:
        if stride != expected:
            runs = []
            break
        expected *= size
    if not runs and sharding.num_devices > 1:
        raise FrontendError(
            f"device order must be one a mesh axis order gives; no order of mesh axes lists devices "
            f"{_short(sharding.devices)} for tile dims {list(sharding.tile_dims)}: {_short(sharding.text)}"
        )
    per_dim: list[list[Factor]] = [[] for _ in sharding.tile_dims]
    pending = list(runs)  # minor first
    for dim in reversed(range(len(sharding.tile_dims))):
        need = sharding.tile_dims[dim]
        while need > 1:
            size, stride = pending.pop(0)
            if need % size == 0:
                per_dim[dim].insert(0, (size, stride))
                need //= size
            elif size % need == 0:
                per_dim[dim].insert(0, (need, stride))
                pending.insert(0, (size // need, stride * need))
                need = 1
            else:
                raise FrontendError(
                    f"device order must be one a mesh axis order gives; tile dim {dim} of size "
                    f"{sharding.tile_dims[dim]} cuts a run of {size} devices: {_short(sharding.text)}"
                )
    return per_dim


def boundaries(factors: list[list[Factor]]) -> set[int]:
    return {b for dim in factors for size, stride in dim for b in (stride, stride * size)}


class MeshBuilder:
    """The one mesh every sharding of a module lies on: the stride
    boundaries of all of them, as a chain."""

    def __init__(self) -> None:
        self.num_devices: int | None = None
        self.cuts: set[int] = {1}
        self.first: dict[int, str] = {}  # boundary -> the sharding that needed it

    def add(self, sharding: HloSharding) -> list[list[Factor]]:
        factors = factor(sharding)
        if sharding.kind != "tiled":
            return factors
        n = sharding.num_devices
        if self.num_devices is None:
            self.num_devices = n
            self.cuts.add(n)
        elif n != self.num_devices:
            raise FrontendError(
                f"every sharding must use the same devices; {self.num_devices} devices before, {n} in: {sharding.text}"
            )
        cuts = sorted(self.cuts | boundaries(factors))
        for low, high in zip(cuts, cuts[1:]):
            if high % low:
                other = self.first.get(low) or self.first.get(high) or "an earlier sharding"
                raise FrontendError(
                    f"shardings must fit one mesh; device orders need mesh axes of strides {low} and {high}, "
                    f"which no mesh has together: {sharding.text} and {other}"
                )
        for b in boundaries(factors):
            self.first.setdefault(b, sharding.text)
        self.cuts = set(cuts)
        return factors

    def shape(self, default: int = 1) -> tuple[int, ...]:
        """Mesh axis sizes, major first (one axis of `default` devices when
        no sharding is tiled)."""
        cuts = sorted(self.cuts | ({default} if self.num_devices is None else set()))
        sizes = [high // low for low, high in zip(cuts, cuts[1:])]
        return tuple(reversed(sizes)) or (1,)

    def axes_of(self, f: Factor) -> tuple[int, ...]:
        """The mesh axes (major first) a digit (size, stride) runs over."""
        cuts = sorted(self.cuts)
        rank = len(cuts) - 1
        size, stride = f
        return tuple(rank - 1 - i for i in reversed(range(rank)) if stride <= cuts[i] < stride * size)


def to_layout(sharding: HloSharding, factors: list[list[Factor]], mesh: MeshBuilder, rank: int) -> Sharding | None:
    """The layout of a tensor of `rank` dimensions; None for `{unknown}`.
    Maximal shardings are the caller's to report (they read as replicated)."""
    if sharding.kind in ("replicated", "maximal"):
        return Sharding(())
    if sharding.kind == "unknown":
        return None
    if sharding.kind == "unreduced":  # every device holds a term of the sum
        return Sharding((), tuple(range(len(mesh.shape()))))
    if sharding.kind == "manual" or "manual" in sharding.subgroups:
        raise FrontendError(f"manual sharding (shard_map) cannot be imported: {sharding.text}")
    if sharding.kind != "tiled":
        raise FrontendError(f"a tuple sharding needs a value per element: {sharding.text}")
    if sharding.data_rank != rank:
        raise FrontendError(
            f"sharding must tile every tensor dimension ({rank}), got {sharding.data_rank} tile dims: {sharding.text}"
        )
    split = [tuple(a for f in factors[d] for a in mesh.axes_of(f)) for d in range(rank)]
    partial: list[int] = []
    for k, kind in enumerate(sharding.subgroups):
        if kind == "unreduced":
            partial.extend(a for f in factors[rank + k] for a in mesh.axes_of(f))
    return Sharding(tuple(split), tuple(partial))


__all__ = ["HloSharding", "MeshBuilder", "boundaries", "factor", "iota_devices", "parse", "to_layout"]


def xla_pieces(layout: Sharding, mesh_shape: Sequence[int], shape: Sequence[int]) -> Sharding:
    """`layout` cut as XLA (GSPMD and Shardy alike) cuts a dimension its
    tiles do not divide: every piece ceil(n / k) long but the last ones,
    which are shorter or empty (k the product of the dimension's mesh
    axes). Written as offsets, since this dialect's own cut makes the last
    pieces the longer ones; a layout that needs none is returned as it is."""
    if layout.sharded_dims_offsets:
        return layout
    cuts = [(n, math.prod(mesh_shape[a] for a in axes)) for n, axes in zip(shape, layout.split_axes) if axes]
    if all(n % k == 0 for n, k in cuts):
        return layout
    count = sum(k + 1 for _, k in cuts)
    if count > MAX_LISTED_DEVICES:
        # One offset per piece: a 10**12-device axis would need 10**12 of them.
        raise FrontendError(
            f"uneven cut needs {count} piece offsets, more than the limit of {MAX_LISTED_DEVICES}: {layout}"
        )
    offsets: list[int] = []
    for n, k in cuts:
        offsets += xla_cut(n, k)
    return replace(layout, sharded_dims_offsets=tuple(offsets))


def xla_cut(n: int, k: int) -> list[int]:
    """Where XLA's k pieces of a dimension of size n start, and the last
    ends: ceil(n / k) each but the last ones, shorter or empty."""
    chunk = -(-n // k)
    return [min(i * chunk, n) for i in range(k)] + [n]
