"""Plain readings of the stablehlo/mhlo attributes the rules and the simulator
share.  These dialects are not registered in these bindings, so their
structured attributes are opaque: they are read from their text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from mlir import ir

_GATHER = re.compile(r"#(?:stablehlo|mhlo)\.gather<(.*)>\s*\Z", re.S)
_SCATTER = re.compile(r"#(?:stablehlo|mhlo)\.scatter<(.*)>\s*\Z", re.S)
_DOT = re.compile(r"#(?:stablehlo|mhlo)\.dot<(.*)>\s*\Z", re.S)
_CONV = re.compile(r"#(?:stablehlo|mhlo)\.conv<(.*)>\s*\Z", re.S)
_CONV_COMPACT = re.compile(r"\[([^\]]*)\]\s*x\s*\[([^\]]*)\]\s*->\s*\[([^\]]*)\]")
_LIST_FIELD = re.compile(r"(\w+)\s*=\s*\[([^\]]*)\]")
_INT_FIELD = re.compile(r"(\w+)\s*=\s*(-?\d+)\b")
_DIRECTION = re.compile(r"comparison_direction\s+(EQ|NE|LT|LE|GT|GE)")
_COMPARE_TYPE = re.compile(r"comparison_type\s+(\w+)")

T = TypeVar("T")

MAX_LIST_ENTRIES = 4096
"""The most entries an hlo op's integer list attribute may hold: such lists
hold an entry or two per dimension, and an unverified one (the dialect is
unregistered) may be a splat of billions that would take minutes to read.
The rules and the simulator refuse longer ones."""


class OversizedList(Exception):
    """An integer list attribute of more than `MAX_LIST_ENTRIES` entries."""

    def __init__(self, count: int) -> None:
        super().__init__(
            f"an integer list attribute of {count} entries is more than any op has dimensions "
            f"(at most {MAX_LIST_ENTRIES})"
        )
        self.count = count


_DENSE_INTS = ir.DenseI64ArrayAttr | ir.DenseI32ArrayAttr | ir.DenseI16ArrayAttr | ir.DenseI8ArrayAttr


def int_list(attr: ir.Attribute | None) -> list[int] | None:
    """An integer list attribute in any spelling mhlo or stablehlo uses (an
    integer, a dense array, dense elements, an array of integers); None for
    anything else.  Raises `OversizedList` before reading a huge one."""
    if isinstance(attr, ir.IntegerAttr):
        return [attr.value]
    if not isinstance(attr, _DENSE_INTS | ir.DenseIntElementsAttr | ir.ArrayAttr):
        return None
    if len(attr) > MAX_LIST_ENTRIES:  # (read one by one, a splat of billions takes minutes)
        raise OversizedList(len(attr))
    if not isinstance(attr, ir.ArrayAttr):
        return [int(x) for x in attr]
    out = []
    for x in attr:  # (each entry read once: a binding call)
        if not isinstance(x, ir.IntegerAttr):
            return None
        out.append(x.value)
    return out


FLIPPED = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "EQ": "EQ", "NE": "NE"}
"""A compare's direction with its operands swapped."""


def comparison_direction(text: str) -> str | None:
    """`#stablehlo<comparison_direction GT>` (or mhlo's) as "GT"."""
    found = _DIRECTION.search(text)
    return None if found is None else found.group(1)


def comparison_type(text: str) -> str | None:
    """`#stablehlo<comparison_type FLOAT>` (or mhlo's) as "FLOAT"."""
    found = _COMPARE_TYPE.search(text)
    return None if found is None else found.group(1)


def _fields(body: str) -> dict[str, object] | None:
    """`name = [1, 2]` and `name = 3` fields of an attribute's body."""
    fields: dict[str, object] = {}
    for name, values in _LIST_FIELD.findall(body):
        try:
            fields[name] = tuple(int(v) for v in values.replace(" ", "").split(",") if v)
        except ValueError:
            return None
    for name, value in _INT_FIELD.findall(_LIST_FIELD.sub("", body)):
        fields[name] = int(value)
    return fields


@dataclass(frozen=True)
class GatherDimensions:
    """`#stablehlo.gather<...>`: omitted lists are empty and an omitted
    `index_vector_dim` is 0 (the printer leaves defaults out: JAX's
    `x[:, i]` with a scalar `i` prints none)."""

    offset_dims: tuple[int, ...] = ()
    collapsed_slice_dims: tuple[int, ...] = ()
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()
    start_index_map: tuple[int, ...] = ()
    index_vector_dim: int = 0


def _read(pattern: re.Pattern[str], cls: type[T], text: str) -> T | None:
    """`cls` from the fields of an attribute printed as `text` that
    `pattern` matches; None when it does not, or names a field `cls` does
    not have."""
    m = pattern.match(text.strip())
    fields = None if m is None else _fields(m.group(1))
    if fields is None or not set(fields) <= set(cls.__dataclass_fields__):  # type: ignore[attr-defined]
        return None
    return cls(**fields)


def _dims_problem(field: str, values: tuple[int, ...], rank: int, of: str) -> str | None:
    """Why `values`, a dimension-number list, is not distinct dimensions of
    a rank-`rank` value; None when they are."""
    for v in values:
        if not 0 <= v < rank:
            return f"{field} entry {v} is out of range for {of} of rank {rank}"
    if len(set(values)) != len(values):
        return f"{field} {list(values)} names a dimension twice"
    return None


def _first(*problems: str | None) -> str | None:
    return next((p for p in problems if p is not None), None)


class MalformedDimensions(ValueError):
    """An hlo gather's or scatter's dimension numbers that do not fit its
    operands (MLIR never verifies the unregistered dialect); the message
    names the field and the value."""


MISFIT = "has dimension numbers that do not fit its values"
"""How the rules and the simulator begin refusing such an op, after its name."""


def _indexing_problem(
    dims: GatherDimensions | ScatterDimensions,
    names: tuple[str, str, str, str, str],
    ranks: tuple[int, int],
    indices: Sequence[int | None],
    of: tuple[str, str, str],
) -> str | None:
    """Why a gather's or scatter's dimension numbers do not fit its values:
    `names` are its fields for (window dimensions, collapsed dimensions,
    operand batching dimensions, index batching dimensions, index map),
    `ranks` the ranks of (its window-holding value, its operand), `of`
    how to call (that value, the operand, the indices)."""
    window, collapsed, batching, index_batching, index_map = (getattr(dims, n) for n in names)
    ivd = dims.index_vector_dim
    if not 0 <= ivd <= len(indices):
        return f"index_vector_dim {ivd} is out of range for {of[2]} of rank {len(indices)}"
    problem = _first(
        _dims_problem(names[0], window, ranks[0], of[0]),
        *(_dims_problem(n, v, ranks[1], of[1]) for n, v in zip(names[1:3], (collapsed, batching))),
        _dims_problem(names[3], index_batching, len(indices), of[2]),
        _dims_problem(names[4], index_map, ranks[1], of[1]),
    )
    if problem is not None:
        return problem
    for other, values in ((names[1], collapsed), (names[4], index_map)):
        if set(values) & set(batching):
            return f"{other} and {names[2]} share a dimension"
    if ivd in index_batching:
        return f"{names[3]} holds index_vector_dim {ivd}"
    if len(batching) != len(index_batching):
        return f"{names[2]} has {len(batching)} entries but {names[3]} {len(index_batching)}"
    vector = 1 if ivd == len(indices) else indices[ivd]
    if vector is not None and len(index_map) != vector:
        return f"{names[4]} has {len(index_map)} entries for index vectors of {vector}"
    return None


def gather_problem(dims: GatherDimensions, ranks: tuple[int, int], indices: Sequence[int | None]) -> str | None:
    """Why `dims` cannot describe a gather of a rank-`ranks[1]` operand
    into a rank-`ranks[0]` result by start indices of shape `indices` (the
    rules, partition and the simulator index by these numbers); None when
    they fit.  Counts the shapes decide are left to the callers."""
    names = ("offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims")
    return _indexing_problem(
        dims, (*names, "start_index_map"), ranks, indices, ("a result", "an operand", "start indices")
    )


def gather_dimensions(text: str) -> GatherDimensions | None:
    """The fields of a gather's `dimension_numbers` printed as `text`; None
    when it is not one (or names a field this reading does not know)."""
    return _read(_GATHER, GatherDimensions, text)


@dataclass(frozen=True)
class ScatterDimensions:
    """`#stablehlo.scatter<...>`: omitted lists are empty and an omitted
    `index_vector_dim` is 0 (the printer leaves defaults out)."""

    update_window_dims: tuple[int, ...] = ()
    inserted_window_dims: tuple[int, ...] = ()
    input_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()
    scatter_dims_to_operand_dims: tuple[int, ...] = ()
    index_vector_dim: int = 0

    def window_of(self, rank: int) -> list[int]:
        """The input dimensions an update's window dimensions cover, in
        order: those neither inserted nor batching."""
        skipped = set(self.inserted_window_dims) | set(self.input_batching_dims)
        return [d for d in range(rank) if d not in skipped]

    def covered(self, shape: Sequence[int | None], update_shape: Sequence[int | None]) -> dict[int, int]:
        """{update window dimension: the input dimension it covers whole}
        (sizes None where unknown never count).  The rule splits them alike,
        even one an index moves along: only index 0 fits it, in the whole
        and in each piece alike, so partition leaves that index as it is."""
        return {
            u: k
            for u, k in zip(self.update_window_dims, self.window_of(len(shape)))
            if 0 <= u < len(update_shape) and shape[k] is not None and update_shape[u] == shape[k]
        }


def scatter_problem(dims: ScatterDimensions, ranks: tuple[int, int], indices: Sequence[int | None]) -> str | None:
    """Why `dims` cannot describe a scatter of rank-`ranks[0]` updates into
    rank-`ranks[1]` inputs by indices of shape `indices`; None when they
    fit (as `gather_problem`)."""
    names = ("update_window_dims", "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims")
    return _indexing_problem(
        dims, (*names, "scatter_dims_to_operand_dims"), ranks, indices, ("updates", "an input", "indices")
    )


def scatter_dimensions(text: str) -> ScatterDimensions | None:
    """The fields of a scatter's `scatter_dimension_numbers` printed as
    `text`; None when it is not one (or names a field this reading does
    not know)."""
    return _read(_SCATTER, ScatterDimensions, text)


@dataclass(frozen=True)
class DotDimensions:
    """`#stablehlo.dot<...>`: omitted lists are empty."""

    lhs_batching_dimensions: tuple[int, ...] = ()
    rhs_batching_dimensions: tuple[int, ...] = ()
    lhs_contracting_dimensions: tuple[int, ...] = ()
    rhs_contracting_dimensions: tuple[int, ...] = ()

    def lists(self) -> dict[str, list[int]]:
        """As `{"lhs_batching": [...], ...}`, the rules' and simulator's key."""
        return {
            f"{s}_{k}": list(getattr(self, f"{s}_{k}_dimensions"))
            for s in ("lhs", "rhs")
            for k in ("batching", "contracting")
        }


def dot_dimensions(text: str) -> DotDimensions | None:
    """The fields of a `dot_dimension_numbers` printed as `text`; None when
    it is not one (or has a field this reading does not know)."""
    dims = _read(_DOT, DotDimensions, text)
    if dims is None or any(not isinstance(v, tuple) for v in vars(dims).values()):
        return None
    return dims


@dataclass(frozen=True)
class ConvDimensions:
    """`#stablehlo.conv<...>`: which dimension of the input, the kernel and
    the output is the batch, the feature and each spatial dimension (the
    spatial lists in the window's order)."""

    input_batch: int
    input_feature: int
    input_spatial: tuple[int, ...]
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: tuple[int, ...]
    output_batch: int
    output_feature: int
    output_spatial: tuple[int, ...]


def _compact_layout(items: str, letters: tuple[str, str]) -> tuple[int, int, tuple[int, ...]] | None:
    """`b, 0, 1, f` as (where `b` is, where `f` is, where spatial 0, 1, ... are)."""
    names = [t.strip() for t in items.split(",")]
    spatial = sorted((int(t), d) for d, t in enumerate(names) if t.isdigit())
    if (
        any(names.count(c) != 1 for c in letters)
        or len(spatial) + 2 != len(names)
        or [k for k, _ in spatial] != list(range(len(spatial)))
    ):
        return None
    return names.index(letters[0]), names.index(letters[1]), tuple(d for _, d in spatial)


_RAW_FIELDS = {
    f"{name}_dimension{'s' if name.endswith('spatial') else ''}": name for name in ConvDimensions.__dataclass_fields__
}
"""The raw spelling's field names, to ConvDimensions' own."""


def conv_dimensions(text: str) -> ConvDimensions | None:
    """A convolution's `dimension_numbers` printed as `text`, in the compact
    (`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`) or the raw spelling; None
    when it is neither, or its three ranks disagree."""
    m = _CONV.match(text.strip())
    if m is None:
        return None
    body = m.group(1).strip()
    compact = _CONV_COMPACT.fullmatch(body)
    if compact is not None:
        parts = [_compact_layout(compact.group(k), letters) for k, letters in ((1, "bf"), (2, "io"), (3, "bf"))]
        if any(p is None for p in parts):
            return None
        (ib, if_, isp), (ki, ko, ksp), (ob, of, osp) = parts  # type: ignore[misc]
        dims = ConvDimensions(ib, if_, isp, ki, ko, ksp, ob, of, osp)
    elif body.startswith("raw"):
        fields = _fields(body[3:])
        if fields is None or set(fields) != set(_RAW_FIELDS):
            return None
        values = {_RAW_FIELDS[k]: v for k, v in fields.items()}
        if any(isinstance(v, tuple) != k.endswith("spatial") for k, v in values.items()):
            return None
        dims = ConvDimensions(**values)  # type: ignore[arg-type]
    else:
        return None
    layouts = (
        (dims.input_batch, dims.input_feature, *dims.input_spatial),
        (dims.kernel_input_feature, dims.kernel_output_feature, *dims.kernel_spatial),
        (dims.output_batch, dims.output_feature, *dims.output_spatial),
    )
    rank = len(layouts[0])
    return dims if all(sorted(d) == list(range(rank)) for d in layouts) else None


def ints_of(attr: ir.Attribute) -> list[int]:
    """An hlo index list (stablehlo's `array<i64: ...>`, mhlo's `dense<...>`
    of any integer width) as ints."""
    if isinstance(attr, ir.DenseI64ArrayAttr | ir.DenseI32ArrayAttr):
        return list(attr)
    return [int(x) for x in ir.DenseIntElementsAttr(attr)]


def bools_of(attr: ir.Attribute) -> list[bool] | None:
    """An hlo flag list (stablehlo's `array<i1: ...>`, mhlo's `dense<...> :
    tensor<Nxi1>`) as bools; None for any other attribute."""
    if isinstance(attr, ir.DenseBoolArrayAttr):
        return [bool(x) for x in attr]
    if isinstance(attr, ir.DenseIntElementsAttr):
        return [bool(x) for x in ir.DenseIntElementsAttr(attr)]
    return None


def hlo_ints(dialect: str, values: list[int]) -> ir.Attribute:
    """An index list as `dialect` spells it in an op it builds: stablehlo's
    `array<i64: ...>`, mhlo's `dense<...> : tensor<Nxi64>`."""
    if dialect == "stablehlo":
        return ir.DenseI64ArrayAttr.get(values)
    return ir.DenseElementsAttr.get(np.array(values, dtype=np.int64))


def ints_like(attr: ir.Attribute, values: list[int]) -> ir.Attribute:
    """`values` in the spelling of `attr` (stablehlo's `array<i64: ...>`,
    mhlo's `dense<...> : tensor<Nxi64>`, or their 32-bit forms)."""
    if isinstance(attr, ir.DenseI64ArrayAttr):
        return ir.DenseI64ArrayAttr.get(values, context=attr.context)
    if isinstance(attr, ir.DenseI32ArrayAttr):
        return ir.DenseI32ArrayAttr.get(values, context=attr.context)
    t = ir.DenseElementsAttr(attr).type
    width = ir.IntegerType(ir.ShapedType(t).element_type).width
    return ir.DenseElementsAttr.get(np.array(values, dtype=np.dtype(f"int{width}")), type=t)


__all__ = [
    "ConvDimensions",
    "DotDimensions",
    "GatherDimensions",
    "MISFIT",
    "MalformedDimensions",
    "ScatterDimensions",
    "conv_dimensions",
    "dot_dimensions",
    "gather_dimensions",
    "gather_problem",
    "ints_like",
    "ints_of",
    "scatter_dimensions",
    "scatter_problem",
]
