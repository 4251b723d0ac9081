"""Shardy's sharding attributes as plain values.

Read from and printed to the text MLIR shows for them (the `sdy` dialect is
not loaded here, so the attributes arrive as opaque text). The grammar is
the one Shardy documents (docs/sharding_representation.md and the
attribute definitions):

    mesh      ::= `<` `[` (name `=` size),* `]` (`,` `device_ids` `=` `[` int,* `]`)? `>`
    sharding  ::= `<` (`@`name | `mesh` mesh) `,` `[` dim,* `]`
                  (`,` `replicated` `=` `{` axis,* `}`)?
                  (`,` `unreduced` `=` (`max`|`min`)? `{` axis,* `}`)? `>`
    dim       ::= `{` axis,* (`,`? `?`)? `}` (`p` int)?
    axis      ::= name (`:` `(` pre-size `)` size)?

Mapping onto a mesh of this dialect (`MeshMapping`): every named axis
becomes one mesh axis, except an axis some sharding uses through sub-axes
(`"x":(1)2`), which is split into the pieces those sub-axes cut it into
(`"x"=4` used as `"x":(1)2` becomes two axes of size 2, named `x:(1)2` and
`x:(2)2`). A full axis is then the list of its pieces, major first, which
is how this dialect splits a dimension over several axes, so every layout
is the same one, device for device. Priorities and explicitly replicated
axes are hints to Shardy's propagation with no counterpart here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..sharding.spec import Sharding
from . import FrontendError


@dataclass(frozen=True)
class AxisRef:
    """A mesh axis, or a sub-axis of it: `size` devices after `pre_size`
    (the product of the sizes major to it); `size` None is the full axis."""

    name: str
    pre_size: int = 1
    size: int | None = None

    def text(self) -> str:
        name = _quote(self.name)
        return name if self.size is None else f"{name}:({self.pre_size}){self.size}"


@dataclass(frozen=True)
class DimSharding:
    """The axes one dimension is split over, major first; an open dimension
    (`?`) may be split further by propagation."""

    axes: tuple[AxisRef, ...] = ()
    closed: bool = True
    priority: int | None = None

    def text(self) -> str:
        items = [a.text() for a in self.axes] + ([] if self.closed else ["?"])
        suffix = "" if self.priority is None else f"p{self.priority}"
        return "{" + ", ".join(items) + "}" + suffix


@dataclass(frozen=True)
class SdyMesh:
    """`#sdy.mesh<["a"=2, "b"=4], device_ids=[...]>`: axes major first;
    `device_ids` empty means iota."""

    axes: tuple[tuple[str, int], ...] = ()
    device_ids: tuple[int, ...] = ()

    def text(self) -> str:
        axes = ", ".join(f"{_quote(n)}={s}" for n, s in self.axes)
        ids = f", device_ids=[{', '.join(map(str, self.device_ids))}]" if self.device_ids else ""
        return f"<[{axes}]{ids}>"

    @property
    def is_maximal(self) -> bool:
        return not self.axes and len(self.device_ids) == 1

    def size_of(self, name: str) -> int:
        for n, s in self.axes:
            if n == name:
                return s
        raise FrontendError(f"axis is not in the mesh: {_quote(name)} in {self.text()}")


@dataclass(frozen=True)
class TensorSharding:
    """`#sdy.sharding<@mesh, [dims], replicated={...}, unreduced={...}>`;
    `mesh` is a symbol name or an inline mesh."""

    mesh: str | SdyMesh
    dims: tuple[DimSharding, ...] = ()
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    reduction: str = "sum"

    def text(self) -> str:
        """The attribute as Shardy prints it."""
        mesh = f"@{_symbol(self.mesh)}" if isinstance(self.mesh, str) else f"mesh{self.mesh.text()}"
        out = f"#sdy.sharding<{mesh}, [{', '.join(d.text() for d in self.dims)}]"
        if self.replicated:
            out += ", replicated={" + ", ".join(a.text() for a in self.replicated) + "}"
        if self.unreduced:
            kind = "" if self.reduction == "sum" else self.reduction
            out += f", unreduced={kind}{{" + ", ".join(a.text() for a in self.unreduced) + "}"
        return out + ">"

    def axis_refs(self) -> list[AxisRef]:
        return [a for d in self.dims for a in d.axes] + list(self.replicated) + list(self.unreduced)

    @property
    def is_open(self) -> bool:
        return any(not d.closed for d in self.dims)


# -- reading ----------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<symbol>@(?:"(?:[^"\\]|\\.)*"|[A-Za-z_$.][\w$.\-]*))
    | (?P<int>-?\d+)
    | (?P<word>[A-Za-z_][\w.]*)
    | (?P<punct>[<>\[\]{}(),=:?#])
    )""",
    re.VERBOSE,
)


class _Reader:
    """Tokens of one attribute's text, with the text kept for messages."""

    def __init__(self, text: str, what: str):
        self.text, self.what = text, what
        self.tokens: list[tuple[str, str]] = []
        pos, end = 0, len(text.rstrip())
        while pos < end:
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise self.fail(f"unexpected character {text[pos:].lstrip()[:1]!r}")
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0

    def fail(self, rule: str) -> FrontendError:
        return FrontendError(f"{rule} in {self.what}: {self.text.strip()}")

    def peek(self, value: str | None = None, kind: str | None = None) -> bool:
        if self.i >= len(self.tokens):
            return False
        k, v = self.tokens[self.i]
        return (value is None or v == value) and (kind is None or k == kind)

    def take(self, value: str | None = None, kind: str | None = None) -> str:
        if not self.peek(value, kind):
            found = self.tokens[self.i][1] if self.i < len(self.tokens) else "the end"
            raise self.fail(f"expected {value or kind}, found {found!r}")
        self.i += 1
        return self.tokens[self.i - 1][1]

    def accept(self, value: str) -> bool:
        if self.peek(value):
            self.i += 1
            return True
        return False

    def integer(self) -> int:
        return int(self.take(kind="int"))

    def string(self) -> str:
        return _unquote(self.take(kind="string"))

    def done(self) -> None:
        if self.i != len(self.tokens):
            raise self.fail(f"unexpected {self.tokens[self.i][1]!r}")

    def prefix(self, mnemonic: str) -> None:
        """`#sdy.<mnemonic>`, `<mnemonic>` or nothing before the `<`."""
        if self.accept("#"):
            if self.take(kind="word") != f"sdy.{mnemonic}":
                raise self.fail(f"expected #sdy.{mnemonic}")
        else:
            self.accept(mnemonic)


def parse_manual_axes(text: str) -> list[str]:
    """The axis names of a shard_map's `#sdy<manual_axes{"a", "b"}>`, read
    as the mesh's own names are."""
    return [_unquote(m) for m in re.findall(r'"(?:[^"\\]|\\.)*"', text)]


def _unquote(token: str) -> str:
    return re.sub(r"\\(.)", r"\1", token[1:-1])


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _symbol(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_$.][\w$.\-]*", name) else _quote(name)


_MAX_SIZE = (1 << 63) - 1
"""Mesh shapes are i64 in this dialect."""


def _mesh_body(r: _Reader) -> SdyMesh:
    r.take("<")
    r.take("[")
    axes: list[tuple[str, int]] = []
    while not r.peek("]"):
        name = r.string()
        r.take("=")
        size = r.integer()
        if size < 1:
            raise r.fail(f"mesh axis sizes must be at least 1, got {size}")
        if size > _MAX_SIZE:
            raise r.fail(f"mesh axis size {size} is too large (at most 2**63 - 1)")
        if any(n == name for n, _ in axes):
            raise r.fail(f"mesh axis names must be unique, got {_quote(name)} twice")
        axes.append((name, size))
        if not r.accept(","):
            break
    r.take("]")
    ids: list[int] = []
    if r.accept(","):
        r.take("device_ids")
        r.take("=")
        r.take("[")
        while not r.peek("]"):
            ids.append(r.integer())
            if not r.accept(","):
                break
        r.take("]")
    r.take(">")
    # The mesh's size is only arithmetic: a 10**6 x 10**6 mesh is a few bytes
    # of text, so no list of its devices is made unless device_ids lists them.
    total = math.prod(s for _, s in axes)
    if total > _MAX_SIZE:
        raise r.fail(f"mesh device count {total} is too large (at most 2**63 - 1)")
    if axes and ids and (len(ids) != total or sorted(ids) != list(range(total))):
        raise r.fail(f"device_ids must be a permutation of 0..{total - 1}")
    if not axes and len(ids) > 1:
        raise r.fail("a mesh without axes has at most one device id")
    if axes and ids == list(range(len(ids))):
        ids = []  # iota, said by leaving device_ids out
    return SdyMesh(tuple(axes), tuple(ids))


def parse_mesh(text: str) -> SdyMesh:
    """`#sdy.mesh<["a"=2, "b"=4]>` (or `<[...]>`, as `sdy.mesh` prints it)."""
    r = _Reader(text, "sdy mesh")
    r.prefix("mesh")
    mesh = _mesh_body(r)
    r.done()
    return mesh


def _axis(r: _Reader) -> AxisRef:
    name = r.string()
    if not r.accept(":"):
        return AxisRef(name)
    r.take("(")
    pre = r.integer()
    r.take(")")
    size = r.integer()
    if pre < 1 or size < 2:
        raise r.fail(f"a sub-axis needs pre-size >= 1 and size > 1, got {_quote(name)}:({pre}){size}")
    return AxisRef(name, pre, size)


def _axes(r: _Reader) -> tuple[AxisRef, ...]:
    r.take("{")
    out: list[AxisRef] = []
    while not r.peek("}"):
        out.append(_axis(r))
        if not r.accept(","):
            break
    r.take("}")
    return tuple(out)


def _dim(r: _Reader) -> DimSharding:
    r.take("{")
    axes: list[AxisRef] = []
    closed = True
    while not r.peek("}"):
        if r.accept("?"):
            closed = False
            break
        axes.append(_axis(r))
        if not r.accept(","):
            break
    r.take("}")
    priority = None
    if r.peek(kind="word") and re.fullmatch(r"p\d+", r.tokens[r.i][1]):
        priority = int(r.take()[1:])
    return DimSharding(tuple(axes), closed, priority)


def _sharding_body(r: _Reader) -> TensorSharding:
    r.take("<")
    mesh: str | SdyMesh
    if r.peek(kind="symbol"):
        token = r.take()[1:]
        mesh = _unquote(token) if token.startswith('"') else token
    else:
        r.accept("#")
        if r.accept("sdy.mesh") or r.accept("mesh"):
            mesh = _mesh_body(r)
        else:
            raise r.fail("expected a mesh symbol or an inline mesh")
    r.take(",")
    r.take("[")
    dims: list[DimSharding] = []
    while not r.peek("]"):
        dims.append(_dim(r))
        if not r.accept(","):
            break
    r.take("]")
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    reduction = "sum"
    given: set[str] = set()
    while r.accept(","):
        key = r.take(kind="word")
        if key in given:  # Shardy refuses it; the last one would silently win
            raise r.fail(f"a sharding gives {key} once, got it twice")
        given.add(key)
        r.take("=")
        if key == "replicated":
            replicated = _axes(r)
        elif key == "unreduced":
            if r.peek(kind="word"):
                reduction = r.take()
                if reduction not in ("sum", "max", "min"):
                    raise r.fail(f"unknown reduction {reduction!r}")
            unreduced = _axes(r)
        else:
            raise r.fail(f"unknown field {key!r}")
    r.take(">")
    _check_verifier_rules(r, dims, replicated, unreduced)
    return TensorSharding(mesh, tuple(dims), replicated, unreduced, reduction)


def _check_verifier_rules(
    r: _Reader, dims: Sequence[DimSharding], replicated: Sequence[AxisRef], unreduced: Sequence[AxisRef]
) -> None:
    """Two rules of Shardy's verifier that need no mesh: a sharding JAX
    would refuse to compile is not imported either."""
    for i, refs in enumerate([d.axes for d in dims] + [replicated, unreduced]):
        for a, b in zip(refs, refs[1:]):
            if a.name == b.name and a.size is not None and b.size is not None and a.pre_size * a.size == b.pre_size:
                raise r.fail(f"two consecutive sub-axes can be merged: {a.text()}, {b.text()}")
        if i < len(dims) and dims[i].closed and not refs and dims[i].priority is not None:
            raise r.fail(f"dim {i} is empty and closed but has a priority")


def parse_sharding(text: str) -> TensorSharding:
    """`#sdy.sharding<@mesh, [{"x"}, {}]>` (or `<@mesh, ...>`)."""
    r = _Reader(text, "sdy sharding")
    r.prefix("sharding")
    sharding = _sharding_body(r)
    r.done()
    return sharding


def parse_sharding_per_value(text: str) -> list[TensorSharding]:
    """`#sdy.sharding_per_value<[<@mesh, ...>, ...]>`: one per result."""
    r = _Reader(text, "sdy sharding_per_value")
    r.prefix("sharding_per_value")
    r.take("<")
    r.take("[")
    out: list[TensorSharding] = []
    while not r.peek("]"):
        r.accept("#")
        r.accept("sdy.sharding")
        out.append(_sharding_body(r))
        if not r.accept(","):
            break
    r.take("]")
    r.take(">")
    r.done()
    return out


# -- checks -------------------------------------------------------------------


def _span(ref: AxisRef, mesh: SdyMesh) -> tuple[int, int]:
    """The part of its axis `ref` covers, as [pre-size, pre-size * size)."""
    if ref.size is None:
        return 1, mesh.size_of(ref.name)
    return ref.pre_size, ref.pre_size * ref.size


def check_axes(sharding: TensorSharding, mesh: SdyMesh) -> None:
    """Each axis, or part of one, is used once: Shardy refuses an axis that
    splits two dimensions (or one twice), or is split and also replicated or
    unreduced, or is replicated and unreduced; a sub-axis counts with the
    axis it overlaps. `mesh` is the one `sharding` names."""
    seen: list[tuple[AxisRef, str]] = []
    for ref, role in (
        [(a, "split") for d in sharding.dims for a in d.axes]
        + [(a, "replicated") for a in sharding.replicated]
        + [(a, "unreduced") for a in sharding.unreduced]
    ):
        low, high = _span(ref, mesh)
        for other, other_role in seen:
            if other.name != ref.name:
                continue
            other_low, other_high = _span(other, mesh)
            if other != ref and max(low, other_low) >= min(high, other_high):
                continue  # (an axis of size 1 covers nothing, yet is used twice)
            what = f"{role} twice" if role == other_role else f"both {other_role} and {role}"
            overlap = "" if other == ref else f" (overlapping {other.text()})"
            raise FrontendError(f"mesh axis {ref.text()} is {what}{overlap} in {sharding.text()}")
        seen.append((ref, role))


# -- onto a mesh of this dialect ---------------------------------------------


def piece_name(name: str, pre_size: int, size: int, whole: int) -> str:
    """The name a mesh axis made from part of Shardy axis `name` gets."""
    return name if size == whole else f"{name}:({pre_size}){size}"


_PIECE = re.compile(r"(?P<name>.*):\((?P<pre>\d+)\)(?P<size>\d+)")


@dataclass
class MeshMapping:
    """A Shardy mesh as a mesh of this dialect: `pieces[name]` lists the
    (pre-size, size, mesh axis) pieces Shardy axis `name` is split into,
    major first."""

    shape: tuple[int, ...]
    names: tuple[str, ...]
    pieces: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)
    device_ids: tuple[int, ...] = ()

    def axes_of(self, ref: AxisRef) -> tuple[int, ...]:
        pieces = self.pieces.get(ref.name)
        if pieces is None:
            raise FrontendError(f"axis is not in the mesh: {ref.text()}")
        if ref.size is None:
            return tuple(axis for _, _, axis in pieces)
        end = ref.pre_size * ref.size
        inside = [axis for pre, size, axis in pieces if pre >= ref.pre_size and pre * size <= end]
        covered = math.prod(self.shape[a] for a in inside)
        if covered != ref.size:
            raise FrontendError(f"sub-axis does not line up with the mesh's pieces: {ref.text()}")
        return tuple(inside)


def check_sub_axis(ref: AxisRef, mesh: SdyMesh) -> None:
    """`ref` names an axis of `mesh` (FrontendError otherwise) and, as a
    sub-axis, covers a whole part of it: its pre-size times its size
    divides the axis's size."""
    whole = mesh.size_of(ref.name)
    if ref.size is not None and whole % (ref.pre_size * ref.size):
        raise FrontendError(f"sub-axis must divide its axis of {whole} devices: {ref.text()}")


def refine_mesh(mesh: SdyMesh, refs: Iterable[AxisRef]) -> MeshMapping:
    """The mesh of this dialect that has a piece for every sub-axis in
    `refs`: each Shardy axis is cut at the boundaries its sub-axes use."""
    cuts: dict[str, set[int]] = {name: {1, size} for name, size in mesh.axes}
    for ref in refs:
        check_sub_axis(ref, mesh)  # an axis not in the mesh is refused too
        if ref.size is None:
            continue
        cuts[ref.name].update((ref.pre_size, ref.pre_size * ref.size))
    shape: list[int] = []
    names: list[str] = []
    pieces: dict[str, list[tuple[int, int, int]]] = {}
    for name, whole in mesh.axes:
        bounds = sorted(cuts[name])
        for low, high in zip(bounds, bounds[1:]):
            if high % low:
                subs = ", ".join(f"{_quote(name)}:({b})" for b in bounds[1:-1])
                raise FrontendError(f"sub-axes of one axis must nest: {subs} of {_quote(name)}={whole}")
        pieces[name] = []
        for low, high in zip(bounds, bounds[1:]):
            pieces[name].append((low, high // low, len(shape)))
            shape.append(high // low)
            names.append(piece_name(name, low, high // low, whole))
    if not shape and mesh.axes:
        # every axis has size 1 (`jax.make_mesh((1,), ("x",))`): a mesh has
        # rank 1 at least, so the first axis stays, of size 1
        name = mesh.axes[0][0]
        pieces[name] = [(1, 1, 0)]
        shape.append(1)
        names.append(name)
    return MeshMapping(tuple(shape), tuple(names), pieces, mesh.device_ids)


def to_layout(sharding: TensorSharding, mapping: MeshMapping, rank: int) -> Sharding:
    """The layout `sharding` gives a tensor of `rank` dimensions. Open
    dimensions keep the axes they list (see the pass for what else)."""
    if len(sharding.dims) != rank:
        raise FrontendError(
            f"sharding must have one dimension per tensor dimension ({rank}), got {len(sharding.dims)}: "
            f"{sharding.text()}"
        )
    split = [tuple(a for ref in d.axes for a in mapping.axes_of(ref)) for d in sharding.dims]
    partial = tuple(a for ref in sharding.unreduced for a in mapping.axes_of(ref))
    used = [a for axes in split for a in axes] + list(partial)
    if len(used) != len(set(used)):
        raise FrontendError(f"a mesh axis may shard only one dimension once: {sharding.text()}")
    return Sharding(tuple(split), partial, sharding.reduction if partial else "sum")


# -- back to Shardy ----------------------------------------------------------


def mesh_from_names(shape: Sequence[int], names: Sequence[str] | None) -> tuple[SdyMesh, list[AxisRef]]:
    """The Shardy mesh for a mesh of this dialect, and the axis (or
    sub-axis) each of its axes is. Pieces named `x:(m)k` that tile one axis
    (as `refine_mesh` names them) become that axis again when they are
    neighbours, major first (elsewhere the devices would be numbered in
    another order); without names the axes are called "axis0", "axis1", ..."""
    if names is None or len(names) != len(shape) or len(set(names)) != len(names):
        names = [f"axis{i}" for i in range(len(shape))]
    groups: dict[str, list[tuple[int, int, int]]] = {}
    order: list[str] = []
    for i, (name, size) in enumerate(zip(names, shape)):
        m = _PIECE.fullmatch(name)
        base, pre = (m.group("name"), int(m.group("pre"))) if m and int(m.group("size")) == size else (name, 0)
        if base not in groups:
            order.append(base)
            groups[base] = []
        groups[base].append((pre, size, i))
    placed: list[tuple[int, str, int]] = []  # (first mesh axis, Shardy axis, size): kept in mesh order
    refs: list[AxisRef | None] = [None] * len(shape)
    for base in order:
        group = groups[base]
        expected = 1
        tiled = True
        for k, (pre, size, i) in enumerate(group):
            tiled = tiled and pre == expected and i == group[0][2] + k
            expected *= size
        if len(group) == 1 and group[0][0] in (0, 1):
            placed.append((group[0][2], base, group[0][1]))
            refs[group[0][2]] = AxisRef(base)
        elif tiled:
            placed.append((group[0][2], base, expected))
            for pre, size, i in group:
                refs[i] = AxisRef(base, pre, size)
        else:  # names that do not tile an axis: each is an axis of its own
            for _, size, i in group:
                own = names[i]
                placed.append((i, own, size))
                refs[i] = AxisRef(own)
    axes = tuple((name, size) for _, name, size in sorted(placed))
    return SdyMesh(axes), [r for r in refs if r is not None]


def _merged(refs: Sequence[AxisRef], mesh: SdyMesh) -> tuple[AxisRef, ...]:
    """Adjacent sub-axes of one axis joined (Shardy wants them as big as
    possible); a sub-axis covering its whole axis is that axis."""
    out: list[AxisRef] = []
    for ref in refs:
        if out and ref.size is not None and out[-1].name == ref.name and out[-1].size is not None:
            last = out[-1]
            if last.pre_size * last.size == ref.pre_size:
                out[-1] = AxisRef(ref.name, last.pre_size, last.size * ref.size)
                continue
        out.append(ref)
    return tuple(
        AxisRef(r.name) if r.size is not None and r.pre_size == 1 and r.size == mesh.size_of(r.name) else r for r in out
    )


def _mesh_order(refs: Iterable[AxisRef], mesh: SdyMesh) -> list[AxisRef]:
    """Shardy's order for replicated and unreduced axes: mesh order, then pre-size."""
    index = {name: i for i, (name, _) in enumerate(mesh.axes)}
    return sorted(refs, key=lambda r: (index[r.name], r.pre_size))


_BOOLEAN_UNREDUCED = {"bitwise_or": "sum", "min": "sum", "bitwise_and": "min", "max": "min"}
"""Shardy's unreduced kind for a partial kind of i1: Shardy reduces with
StableHLO's add, maximum or minimum, on booleans or, or, and; this dialect's
max and min of i1 are signed (true is -1): and, or."""


def from_layout(
    layout: Sharding, mesh_name: str, mesh: SdyMesh, refs: Sequence[AxisRef], rank: int, boolean: bool = False
) -> TensorSharding:
    """`layout` on a tensor of `rank` dimensions as a Shardy sharding
    (closed dimensions; halos and explicit offsets have no counterpart and
    are the caller's to refuse). `boolean`: the tensor holds i1."""
    dims = []
    for d in range(rank):
        axes = layout.split_axes[d] if d < len(layout.split_axes) else ()
        dims.append(DimSharding(_merged([refs[a] for a in axes], mesh)))
    unreduced = _merged(_mesh_order((refs[a] for a in layout.partial_axes), mesh), mesh)
    kind = layout.partial_type if unreduced else "sum"
    if unreduced and boolean:
        if kind not in _BOOLEAN_UNREDUCED:
            raise FrontendError(f"shardy has no unreduced kind for partial {kind} of i1: {layout}")
        kind = _BOOLEAN_UNREDUCED[kind]
    elif kind not in ("sum", "max", "min"):
        raise FrontendError(f"shardy has no unreduced kind for partial {kind}: {layout}")
    return TensorSharding(mesh_name, tuple(dims), (), unreduced, kind)


def partition_spec(sharding: TensorSharding) -> str:
    """The `jax.sharding.PartitionSpec` that gives `sharding` on the mesh
    it names, as Python text (full axes only: a PartitionSpec cannot name a
    sub-axis, so the caller leaves those out)."""
    parts = []
    for d in sharding.dims:
        names = [repr(a.name) for a in d.axes]
        parts.append("None" if not names else names[0] if len(names) == 1 else "(" + ", ".join(names) + ")")
    while parts and parts[-1] == "None":
        parts.pop()
    if sharding.unreduced:
        parts.append("unreduced={" + ", ".join(repr(a.name) for a in sharding.unreduced) + "}")
    return "P(" + ", ".join(parts) + ")"


__all__ = [
    "AxisRef",
    "DimSharding",
    "MeshMapping",
    "SdyMesh",
    "TensorSharding",
    "check_axes",
    "check_sub_axis",
    "from_layout",
    "mesh_from_names",
    "parse_mesh",
    "parse_sharding",
    "parse_sharding_per_value",
    "partition_spec",
    "refine_mesh",
    "to_layout",
]
