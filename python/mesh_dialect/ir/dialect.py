"""The `mesh` dialect in IRDL, generated from the op table and loaded into a context.

Types and attributes live in a first `irdl.dialect @mesh` block and ops in a
second one: inside one block they would share a symbol namespace
(`!mesh.sharding` and `mesh.sharding`), and loading two blocks works.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import irdl

from .schema import OPS, REDUCTION_KINDS, AttrKind, OpDef, TypeKind

_TYPES_AND_ATTRS = (
    "irdl.dialect @mesh {\n"
    "  irdl.type @sharding {\n    irdl.parameters()\n  }\n"
    "  irdl.attribute @partial {\n"
    + "".join(f'    %k{i} = irdl.is "{k}"\n' for i, k in enumerate(REDUCTION_KINDS))
    + "    %kind = irdl.any_of("
    + ", ".join(f"%k{i}" for i in range(len(REDUCTION_KINDS)))
    + ")\n    irdl.parameters(value: %kind)\n  }\n"
    "  irdl.attribute @axisarray {\n"
    '    %axes = irdl.base "#builtin.array"\n'
    "    irdl.parameters(axes: %axes)\n  }\n"
    "}\n"
)

_TYPE_CONSTRAINT = {
    TypeKind.TENSOR: 'irdl.base "!builtin.tensor"',
    TypeKind.INDEX: "irdl.is index",
    TypeKind.I64: "irdl.is i64",
    TypeKind.SHARDING: "irdl.is !mesh.sharding",
    # IRDL 22 aborts on `any_of` over `base` constraints; the verifier checks
    # tensor-or-memref instead.
    TypeKind.TENSOR_OR_MEMREF: "irdl.any",
}

_ATTR_CONSTRAINT = {
    AttrKind.SYMBOL: 'irdl.base "#builtin.symbol_ref"',
    AttrKind.SYMBOL_NAME: 'irdl.base "#builtin.string"',
    AttrKind.AXES: 'irdl.base "#builtin.dense_array"',
    AttrKind.SHAPE: 'irdl.base "#builtin.dense_array"',
    AttrKind.STATIC_LIST: 'irdl.base "#builtin.dense_array"',
    AttrKind.INDEX: 'irdl.base "#builtin.integer"',
    AttrKind.I64: 'irdl.base "#builtin.integer"',
    AttrKind.REDUCTION: 'irdl.base "#mesh.partial"',
    AttrKind.AXES_ARRAY: 'irdl.base "#mesh.axisarray"',
}


def _op_irdl(op: OpDef) -> str:
    """One `irdl.operation`; every slot gets its own constraint variable,
    because IRDL unifies a variable used twice."""
    lines = [f"  irdl.operation @{op.name} {{"]
    counter = 0

    def var(constraint: str) -> str:
        nonlocal counter
        counter += 1
        name = f"%c{counter}"
        lines.append(f"    {name} = {constraint}")
        return name

    def slots(values) -> str:
        parts = []
        for v in values:
            c = _TYPE_CONSTRAINT[v.kind]
            parts.append(f"{v.name}: {'variadic ' if v.variadic else ''}{var(c)}")
        return ", ".join(parts)

    if op.operands:
        lines.append(f"    irdl.operands({slots(op.operands)})")
    if op.results:
        lines.append(f"    irdl.results({slots(op.results)})")
    required = [a for a in op.attrs if a.required]
    if required:
        entries = ", ".join(f'"{a.name}" = {var(_ATTR_CONSTRAINT[a.kind])}' for a in required)
        lines.append(f"    irdl.attributes {{{entries}}}")
    lines.append("  }")
    return "\n".join(lines)


IRDL_TYPES_AND_ATTRS = _TYPES_AND_ATTRS
# `#mesh.sharding` (the layout of a function argument or result) shares its
# name with the type and the op, so it lives in a block of its own.
IRDL_LAYOUT_ATTR = """\
irdl.dialect @mesh {
  irdl.attribute @sharding {
    %mesh = irdl.base "#builtin.symbol_ref"
    %split = irdl.base "#mesh.axisarray"
    %partial_axes = irdl.base "#builtin.dense_array"
    %partial_type = irdl.base "#mesh.partial"
    %halos = irdl.base "#builtin.dense_array"
    %offsets = irdl.base "#builtin.dense_array"
    irdl.parameters(mesh: %mesh, split_axes: %split, partial_axes: %partial_axes, partial_type: %partial_type,
                    halo_sizes: %halos, sharded_dims_offsets: %offsets)
  }
}
"""
IRDL_OPS = "irdl.dialect @mesh {\n" + "\n".join(_op_irdl(op) for op in OPS) + "\n}\n"


def load_dialect(context: ir.Context | None = None) -> ir.Context:
    """Load the `mesh` dialect into `context` (or the current one).

    Idempotent: a context that already has it is left alone.
    """
    if context is not None and not isinstance(context, ir.Context):
        raise TypeError(f"load_dialect takes an ir.Context, got {type(context).__name__}")
    ctx = context or ir.Context.current
    if ctx is None:
        raise ValueError("load_dialect needs an MLIR context: pass one, or call it inside `with ctx:`")
    # Registering the op classes also spares the bindings a failed module
    # lookup (an importlib search) every time they wrap a mesh op.
    from . import ops  # noqa: F401

    if not is_loaded(ctx):
        with ctx, ir.Location.unknown(ctx):
            irdl.load_dialects(ir.Module.parse(IRDL_TYPES_AND_ATTRS, ctx))
            irdl.load_dialects(ir.Module.parse(IRDL_OPS, ctx))
            irdl.load_dialects(ir.Module.parse(IRDL_LAYOUT_ATTR, ctx))
    return ctx


def is_loaded(context: ir.Context) -> bool:
    return context.is_registered_operation("mesh.update_halo")
