"""What the generated builders in `ops.py` share: turning Python values
into attributes (with the checks that keep bad values away from C++
asserts) and reading them back. Hand-written; `ops.py` is generated."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from mlir import ir
from mlir.dialects._ods_common import _cext

from .schema import DYNAMIC, REDUCTION_KINDS
from .signature import ContextCache
from .syntax import decode_axes_array, decode_reduction, encode_axes_array, encode_reduction


@_cext.register_dialect
class _Dialect(ir.Dialect):
    DIALECT_NAMESPACE = "mesh"


T = TypeVar("T")

_I16 = (-(2**15), 2**15 - 1)
_I64 = (-(2**63), 2**63 - 1)


def _context(op_name: str, loc: ir.Location | None, ip: ir.InsertionPoint | None) -> ir.Context:
    """The context to build in. Building an op of a dialect the context has
    not loaded aborts the process, and one whose location and block are in
    different contexts corrupts it, so both are checked here."""
    if ip is None:
        try:
            ip = ir.InsertionPoint.current
        except ValueError:
            ip = None
    owner = ip.block.owner if ip is not None else None
    block_ctx = owner.context if owner is not None else None
    if loc is not None:
        ctx = loc.context
    elif block_ctx is not None:
        ctx = block_ctx
    elif ir.Location.current is not None:
        ctx = ir.Location.current.context
    else:
        ctx = ir.Context.current
    if ctx is None:
        raise ValueError(f"{op_name}: no context: pass loc= or ip=, or enter a context")
    if block_ctx is not None and block_ctx is not ctx:
        raise ValueError(f"{op_name}: the location and the insertion point are in different contexts")
    if not ctx.is_registered_operation(op_name):
        raise ValueError(f"{op_name}: the mesh dialect is not loaded in this context: call load_dialect(ctx)")
    return ctx


def _location(loc: ir.Location | None, ctx: ir.Context) -> ir.Location:
    if loc is not None:
        return loc
    current = ir.Location.current
    return current if current is not None and current.context is ctx else ir.Location.unknown(ctx)


def _int(what: str, value: object, bounds: tuple[int, int]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{what} is out of range: {value}")
    return value


def _sequence(what: str, items: object) -> list:
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise TypeError(f"{what} must be a sequence, got {type(items).__name__}")
    return list(items)


def _value(what: str, value: object, ctx: ir.Context) -> ir.Value:
    """An operand of the op being built in `ctx`: a value of another context
    would be used across contexts, which aborts the process once its own
    module goes."""
    if not isinstance(value, ir.Value):
        raise TypeError(f"{what} must be an ir.Value, got {type(value).__name__}")
    if value.context is not ctx:
        raise ValueError(f"{what} is a value of another context than the op's")
    return value


def _type(what: str, value: object, ctx: ir.Context) -> ir.Type:
    if not isinstance(value, ir.Type):
        raise TypeError(f"{what} must be an ir.Type, got {type(value).__name__}")
    if value.context is not ctx:
        raise ValueError(f"{what} is a type of another context than the op's")
    return value


def _count(what: str, value: object) -> int:
    """A number of results, one per mesh axis: at most as many as an i16
    axis index can name (a larger one would only exhaust memory)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a non-negative int, got {value!r}")
    if value > _I16[1] + 1:
        raise ValueError(f"{what} must be at most {_I16[1] + 1} (one per mesh axis), got {value}")
    return value


def _symbol_name(what: str, name: object) -> str:
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str, got {type(name).__name__}")
    # (a leading '@' is the name's own: MLIR quotes such a symbol, @"@m")
    if not name:
        raise ValueError(f"{what} must be a non-empty symbol name, got ''")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 spells it
        raise ValueError(f"{what} must be valid Unicode, got {name!r}") from None
    return name


def _symbol_attr(what: str, name: object, ctx: ir.Context) -> ir.Attribute:
    return ir.FlatSymbolRefAttr.get(_symbol_name(what, name), context=ctx)


def _string_attr(what: str, name: object, ctx: ir.Context) -> ir.Attribute:
    return ir.StringAttr.get(_symbol_name(what, name), context=ctx)


def _axes(what: str, axes: object) -> list[int]:
    return [_int(f"{what}[{i}]", a, _I16) for i, a in enumerate(_sequence(what, axes))]


def _axes_attr(what: str, axes: object, ctx: ir.Context) -> ir.Attribute:
    return ir.DenseI16ArrayAttr.get(_axes(what, axes), context=ctx)


def _shape_attr(what: str, dims: object, ctx: ir.Context) -> ir.Attribute:
    values = [DYNAMIC if d is None else _int(f"{what}[{i}]", d, _I64) for i, d in enumerate(_sequence(what, dims))]
    return ir.DenseI64ArrayAttr.get(values, context=ctx)


def _i64_list_attr(what: str, values: Sequence[int], ctx: ir.Context) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get(list(values), context=ctx)


def _split_dynamic(what: str, items: object, ctx: ir.Context) -> tuple[list[int], list[ir.Value]]:
    """Ints become static entries; each Value becomes an operand and a
    DYNAMIC entry, which is why an int may not be DYNAMIC itself."""
    static: list[int] = []
    dynamic: list[ir.Value] = []
    for i, item in enumerate(_sequence(what, items)):
        if isinstance(item, ir.Value):
            static.append(DYNAMIC)
            dynamic.append(_value(f"{what}[{i}]", item, ctx))
        elif isinstance(item, int) and not isinstance(item, bool) and item == DYNAMIC:
            raise ValueError(f"{what}[{i}] is the dynamic marker: pass the ir.Value instead")
        else:
            static.append(_int(f"{what}[{i}]", item, _I64))
    return static, dynamic


def _index_attr(what: str, value: object, ctx: ir.Context) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IndexType.get(ctx), _int(what, value, _I64))


def _i64_attr(what: str, value: object, ctx: ir.Context) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64, ctx), _int(what, value, _I64))


def _unit_attr(what: str, value: object, ctx: ir.Context) -> ir.Attribute:
    return ir.UnitAttr.get(ctx)


def _reduction_attr(what: str, kind: object, ctx: ir.Context) -> ir.Attribute:
    if kind not in REDUCTION_KINDS:
        expected = ", ".join(REDUCTION_KINDS)
        raise ValueError(f"{what}: unknown reduction kind {kind!r}; expected one of {expected}")
    return ir.Attribute.parse(encode_reduction(kind), ctx)


def _axes_array_attr(what: str, split_axes: object, ctx: ir.Context) -> ir.Attribute:
    groups = [_axes(f"{what}[{i}]", g) for i, g in enumerate(_sequence(what, split_axes))]
    return ir.Attribute.parse(encode_axes_array(groups), ctx)


def _attr(op: ir.OpView, name: str) -> ir.Attribute | None:
    attributes = op.operation.attributes
    return attributes[name] if name in attributes else None


def _read_symbol(attr: ir.Attribute) -> str:
    return ir.FlatSymbolRefAttr(attr).value


def _read_string(attr: ir.Attribute) -> str:
    return ir.StringAttr(attr).value


def _read_axes(attr: ir.Attribute) -> tuple[int, ...]:
    return tuple(ir.DenseI16ArrayAttr(attr))


def _read_i64s(attr: ir.Attribute) -> tuple[int, ...]:
    return tuple(ir.DenseI64ArrayAttr(attr))


def _read_shape(attr: ir.Attribute) -> tuple[int | None, ...]:
    return tuple(None if d == DYNAMIC else d for d in ir.DenseI64ArrayAttr(attr))


def _read_int(attr: ir.Attribute) -> int:
    return ir.IntegerAttr(attr).value


def _cached_decoder(decode: Callable[[ir.Attribute], T]) -> Callable[[ir.Attribute], T]:
    """`decode` run once per attribute: it reads the attribute's text
    (about 5 µs), where a hit costs a dict lookup."""
    cache: ContextCache[T] = ContextCache()

    def read(attr: ir.Attribute) -> T:
        try:
            return cache.values[attr]
        except KeyError:
            return cache.add(attr, decode(attr), attr.context)  # a decoding error keeps nothing

    return read


_read_reduction = _cached_decoder(lambda attr: decode_reduction(str(attr)))
"""The reduction kind of a `#mesh.partial<...>` attribute."""

_read_axes_array = _cached_decoder(lambda attr: tuple(tuple(axes) for axes in decode_axes_array(str(attr))))
"""The groups of mesh axes of a `#mesh.axisarray<...>` attribute."""


def _merge_dynamic(what: str, static: tuple[int, ...], dynamic: list[ir.Value]) -> list[int | ir.Value]:
    if static.count(DYNAMIC) != len(dynamic):
        raise ValueError(f"{what} has {static.count(DYNAMIC)} dynamic entries but {len(dynamic)} operands")
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC else v for v in static]


def _segment(op: ir.OpView, index: int) -> list[ir.Value]:
    sizes = list(ir.DenseI32ArrayAttr(op.operation.attributes["operandSegmentSizes"]))
    start = sum(sizes[:index])
    return list(op.operation.operands[start : start + sizes[index]])
