"""What an op's checks and rules can read of the op itself, as a dict key.

Attributes and types are uniqued by their MLIR context and compare by
identity, so a key made here must not outlive the context of its op."""

from __future__ import annotations

from mlir import ir


def attributes_key(op: ir.Operation) -> tuple:
    """The op's attributes as (name, attribute) pairs, in order."""
    attrs = op.attributes
    return tuple((attrs[i].name, attrs[i].attr) for i in range(len(attrs)))


def op_signature(op: ir.Operation) -> tuple:
    """Name, attributes, operand types and result types (regions aside)."""
    return (op.name, attributes_key(op), tuple(v.type for v in op.operands), tuple(r.type for r in op.results))


__all__ = ["attributes_key", "op_signature"]
