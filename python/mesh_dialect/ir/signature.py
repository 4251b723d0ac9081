"""What an op's checks and rules can read of the op itself, as a dict key.

Attributes and types are uniqued by their MLIR context and compare by
identity, so a key made here must not outlive the context of its op:
`ContextCache` keeps such keys for one context at a time."""

from __future__ import annotations

import ctypes
import operator
from typing import Generic, TypeVar

from mlir import ir

V = TypeVar("V")


def op_signature(
    op: ir.Operation,
    skip: str = "",
    operands: list[ir.Value] | None = None,
    results: list[ir.Value] | None = None,
    report_skipped: bool = False,
) -> tuple:
    """Name, attributes, operand types and result types (regions aside);
    `skip` names an attribute left out (one a pass writes and the reader
    of the key never reads). A caller that has already listed the op's
    `operands` and `results` passes them: the same key, fewer binding calls.
    With `report_skipped`, returns (key, the value of `skip` or None): the
    caller need not ask the bindings for the attributes again."""
    attributes = attribute_items(op)
    skipped = None
    if skip:
        for item in attributes:
            if item[0] == skip:
                skipped = item[1]
                attributes = tuple(item for item in attributes if item[0] != skip)
                break
    key = (op.name, attributes, *_types(op, operands, results))
    return (key, skipped) if report_skipped else key


def attribute_items(op: ir.Operation) -> tuple:
    """The op's (name, attribute) pairs, `op.attributes.items()`, where one
    the bindings cannot hand over (a dense attribute of complex elements:
    asking for it raises) is keyed by its text (`attribute_or_text`)."""
    try:
        return tuple(op.attributes.items())
    except TypeError:
        attributes = op.attributes
        return tuple((attributes[i].name, attribute_or_text(op, attributes[i].name)) for i in range(len(attributes)))


def attribute_or_text(op: ir.Operation, name: str) -> ir.Attribute | tuple[str, str]:
    """`op.attributes[name]`, or ("unreadable", its text) when the bindings
    cannot hand it over (asking a `NamedAttribute` for it ends the process:
    its text is printed from the named attribute instead)."""
    attributes = op.attributes
    try:
        return attributes[name]
    except TypeError:
        for i in range(len(attributes)):
            named = attributes[i]
            if named.name == name:
                return ("unreadable", str(named))
        raise


def read_signature(
    op: ir.Operation,
    names: tuple[str, ...],
    skip: str,
    operands: list[ir.Value] | None = None,
    results: list[ir.Value] | None = None,
) -> tuple[tuple, ir.Attribute | None]:
    """(key, the value of `skip` or None): `op_signature`'s key with only
    the attributes `names` (each None when absent), for a reader known to
    read no other.  Asking for attributes by name spares building the op's
    whole attribute dictionary, which listing them does."""
    get = op.attributes.get
    return (op.name, tuple(map(get, names)), *_types(op, operands, results)), get(skip)


def _types(
    op: ir.Operation, operands: list[ir.Value] | None, results: list[ir.Value] | None
) -> tuple[tuple[ir.Type, ...], tuple[ir.Type, ...]]:
    """The op's operand types and result types, from the lists the caller
    has made when it has made them."""
    return (
        tuple(map(_type_of, op.operands if operands is None else operands)),
        tuple(op.results.types) if results is None else tuple(map(_type_of, results)),
    )


_type_of = operator.attrgetter("type")
"""A value's type (no Python frame per value, as a comprehension makes)."""


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def op_address(op: ir.Operation | ir.OpView) -> int:
    """The op's address: a key that stays the same while the op lives. An
    `ir.Operation`'s own hash changes with its attributes, types and place,
    so it cannot key a dict that outlives a change; an address can be
    reused once the op is erased."""
    return _capsule_pointer(op.operation._CAPIPtr, b"mlir.ir.Operation._CAPIPtr")


def value_address(value: ir.Value) -> int:
    """The address of the value's C API handle (an `MlirValue`), for the
    few C API calls the bindings make costly (`mesh_partition._has_uses`)."""
    return _capsule_pointer(value._CAPIPtr, b"mlir.ir.Value._CAPIPtr")


class ContextCache(Generic[V]):
    """Values computed from attributes or types, keyed by them (or by
    tuples of them), across runs. A key holds its context alive, so no
    other attribute can take its address while it is kept: a hit is always
    right. The cache keeps the entries of one context (it starts over when
    a key of another context is added) and at most `limit` of them, so it
    holds at most one context alive."""

    def __init__(self, limit: int = 1 << 14) -> None:
        self.values: dict[object, V] = {}
        self.context: ir.Context | None = None
        self.limit = limit

    def add(self, key: object, value: V, context: ir.Context) -> V:
        if context is not self.context or len(self.values) >= self.limit:
            self.values = {}
            self.context = context
        self.values[key] = value
        return value


__all__ = ["ContextCache", "op_address", "op_signature", "read_signature"]
