"""One table describing every `mesh` op.

The IRDL definition, the custom-syntax parser and printer, the verifier and
the builders are all derived from this table, so an op is described once.
The `format` strings follow MLIR's declarative assembly-format notation:
`$name` refers to an operand or attribute, backquoted words are literals,
`( ... $anchor^ )?` is an optional group present when the anchor is set,
`dims($a)` is a `2x?x4` dimension list and `dynlist($operands, $a)` is a
`[1, %x, 3]` list mixing static values and SSA operands.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

DYNAMIC = -9223372036854775808
"""How MLIR stores `?` in a static i64 list (ShapedType::kDynamic)."""

REDUCTION_KINDS = (
    "sum",
    "max",
    "min",
    "product",
    "average",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "generic",
)


class TypeKind(enum.Enum):
    """What an operand or result may hold."""

    TENSOR = "tensor"  # ranked tensor
    TENSOR_OR_MEMREF = "tensor_or_memref"
    INDEX = "index"
    I64 = "i64"
    SHARDING = "sharding"


class AttrKind(enum.Enum):
    """How an attribute is spelled in the custom syntax and stored in IR."""

    SYMBOL = "symbol"  # @mesh0 <-> FlatSymbolRefAttr
    SYMBOL_NAME = "symbol_name"  # @mesh0 <-> StringAttr "mesh0"
    AXES = "axes"  # [1, 0] <-> array<i16: 1, 0>
    SHAPE = "shape"  # 2x?x4 <-> array<i64: 2, kDynamic, 4>
    STATIC_LIST = "static_list"  # [1, %h] <-> array<i64: 1, kDynamic> + operands
    INDEX = "index"  # 1 <-> 1 : index
    I64 = "i64"  # -1 <-> -1 : i64
    UNIT = "unit"  # keyword <-> unit attribute
    REDUCTION = "reduction"  # <max> (or max) <-> #mesh.partial<"max">
    AXES_ARRAY = "axes_array"  # [[0], []] <-> #mesh.axisarray<[array<i16: 0>, array<i16>]>


@dataclass(frozen=True)
class ValueDef:
    name: str
    kind: TypeKind
    variadic: bool = False
    nonzero_rank: bool = False


@dataclass(frozen=True)
class AttrDef:
    name: str
    kind: AttrKind
    required: bool = True
    """Required attributes are declared in IRDL and always present in IR;
    the parser fills in `default` when the custom syntax leaves them out."""
    default: object = None


@dataclass(frozen=True)
class OpDef:
    name: str
    summary: str
    operands: tuple[ValueDef, ...]
    results: tuple[ValueDef, ...]
    attrs: tuple[AttrDef, ...]
    format: str
    implicit_result_type: str | None = None
    """Result type the custom syntax may leave out (mesh.sharding)."""

    @property
    def full_name(self) -> str:
        return f"mesh.{self.name}"

    def attr(self, name: str) -> AttrDef | None:
        for a in self.attrs:
            if a.name == name:
                return a
        return None

    def operand(self, name: str) -> ValueDef | None:
        for o in self.operands:
            if o.name == name:
                return o
        return None

    @property
    def needs_segment_sizes(self) -> bool:
        return sum(o.variadic for o in self.operands) > 1


def _t(name: str, *, nonzero: bool = False) -> ValueDef:
    return ValueDef(name, TypeKind.TENSOR, nonzero_rank=nonzero)


_MESH = AttrDef("mesh", AttrKind.SYMBOL)
_MESH_AXES = AttrDef("mesh_axes", AttrKind.AXES, default=())
_REDUCTION = AttrDef("reduction", AttrKind.REDUCTION, default="sum")
_MESH_AXES_FMT = "(`mesh_axes` `=` $mesh_axes^)?"
_REDUCTION_FMT = "(`reduction` `=` $reduction^)?"
_UNARY_TYPES = "attr-dict `:` type($input) `->` type($result)"
_FUNC_TYPES = "attr-dict `:` functional-type(operands, results)"


def _collective(
    name: str,
    summary: str,
    extra_attrs: tuple[AttrDef, ...],
    middle: str,
    *,
    input_nonzero: bool = True,
    result_nonzero: bool = False,
    dynamic: str | None = None,
    functional: bool = False,
) -> OpDef:
    operands = [_t("input", nonzero=input_nonzero)]
    if dynamic:
        operands.append(ValueDef(f"{dynamic}_dynamic", TypeKind.INDEX, variadic=True))
    fmt = f"$input `on` $mesh {_MESH_AXES_FMT} {middle} "
    fmt += _FUNC_TYPES if functional else _UNARY_TYPES
    return OpDef(
        name,
        summary,
        tuple(operands),
        (_t("result", nonzero=result_nonzero),),
        (_MESH, _MESH_AXES, *extra_attrs),
        fmt,
    )


def _index_attr(name: str) -> AttrDef:
    return AttrDef(name, AttrKind.INDEX)


def _root(name: str, required: bool = True) -> AttrDef:
    return AttrDef(name, AttrKind.STATIC_LIST, required=required, default=())


OPS: tuple[OpDef, ...] = (
    OpDef(
        "mesh",
        "Declares a device mesh symbol and its shape.",
        (),
        (),
        (AttrDef("sym_name", AttrKind.SYMBOL_NAME), AttrDef("shape", AttrKind.SHAPE)),
        "$sym_name `(` `shape` `=` dims($shape) `)` attr-dict",
    ),
    OpDef(
        "mesh_shape",
        "Returns the size of the given mesh axes (all axes by default).",
        (),
        (ValueDef("result", TypeKind.INDEX, variadic=True),),
        (_MESH, AttrDef("axes", AttrKind.AXES, default=())),
        "$mesh (`axes` `=` $axes^)? attr-dict `:` type($result)",
    ),
    OpDef(
        "process_multi_index",
        "Returns this device's index along the given mesh axes (all by default).",
        (),
        (ValueDef("result", TypeKind.INDEX, variadic=True),),
        (_MESH, AttrDef("axes", AttrKind.AXES, default=())),
        "`on` $mesh (`axes` `=` $axes^)? attr-dict `:` type($result)",
    ),
    OpDef(
        "process_linear_index",
        "Returns this device's row-major linear index in the mesh.",
        (),
        (ValueDef("result", TypeKind.INDEX),),
        (_MESH,),
        "`on` $mesh attr-dict `:` type($result)",
    ),
    OpDef(
        "sharding",
        "Defines how a tensor is laid out over a mesh.",
        (
            ValueDef("dynamic_sharded_dims_offsets", TypeKind.I64, variadic=True),
            ValueDef("dynamic_halo_sizes", TypeKind.I64, variadic=True),
        ),
        (ValueDef("result", TypeKind.SHARDING),),
        (
            _MESH,
            AttrDef("split_axes", AttrKind.AXES_ARRAY),
            AttrDef("partial_axes", AttrKind.AXES, required=False, default=()),
            AttrDef("partial_type", AttrKind.REDUCTION, required=False),
            AttrDef("static_sharded_dims_offsets", AttrKind.STATIC_LIST, default=()),
            AttrDef("static_halo_sizes", AttrKind.STATIC_LIST, default=()),
        ),
        "$mesh `split_axes` `=` $split_axes"
        " (`partial` `=` $partial_type $partial_axes^)?"
        " (`halo_sizes` `=` dynlist($dynamic_halo_sizes, $static_halo_sizes)^)?"
        " (`sharded_dims_offsets` `=`"
        " dynlist($dynamic_sharded_dims_offsets, $static_sharded_dims_offsets)^)?"
        " attr-dict `:` type($result)",
        implicit_result_type="!mesh.sharding",
    ),
    OpDef(
        "shard",
        "Annotates a tensor value (or its uses) with a sharding.",
        (_t("src"), ValueDef("sharding", TypeKind.SHARDING)),
        (_t("result"),),
        (AttrDef("annotate_for_users", AttrKind.UNIT, required=False, default=False),),
        "$src `to` $sharding (`annotate_for_users` $annotate_for_users^)? attr-dict `:` type($result)",
    ),
    OpDef(
        "shard_shape",
        "Returns the local shard shape of a device for a sharding.",
        (ValueDef("sharding", TypeKind.SHARDING), ValueDef("device", TypeKind.INDEX)),
        (ValueDef("result", TypeKind.INDEX, variadic=True),),
        (AttrDef("shape", AttrKind.SHAPE),),
        "dims($shape) $sharding $device attr-dict `:` type($result)",
    ),
    _collective(
        "all_gather",
        "Concatenates each group's tensors along gather_axis on every member.",
        (_index_attr("gather_axis"),),
        "`gather_axis` `=` $gather_axis",
        result_nonzero=True,
    ),
    _collective(
        "all_reduce",
        "Reduces each group's tensors element-wise onto every member.",
        (_REDUCTION,),
        _REDUCTION_FMT,
        input_nonzero=False,
    ),
    _collective(
        "all_slice",
        "Keeps each member's slice of its tensor along slice_axis (inverse of all_gather).",
        (_index_attr("slice_axis"),),
        "`slice_axis` `=` $slice_axis",
        result_nonzero=True,
    ),
    _collective(
        "all_to_all",
        "Splits along split_axis, exchanges pieces in the group, concatenates along concat_axis.",
        (_index_attr("split_axis"), _index_attr("concat_axis")),
        "`split_axis` `=` $split_axis `concat_axis` `=` $concat_axis",
        result_nonzero=True,
    ),
    _collective(
        "broadcast",
        "Copies the root member's tensor to every member of its group.",
        (_root("root"),),
        "`root` `=` dynlist($root_dynamic, $root)",
        input_nonzero=False,
        dynamic="root",
        functional=True,
    ),
    _collective(
        "gather",
        "Concatenates each group's tensors along gather_axis on the root member only.",
        (_index_attr("gather_axis"), _root("root")),
        "`gather_axis` `=` $gather_axis `root` `=` dynlist($root_dynamic, $root)",
        result_nonzero=True,
        dynamic="root",
        functional=True,
    ),
    _collective(
        "recv",
        "Receives a tensor from another member of the group.",
        (_root("source", required=False),),
        "(`source` `=` dynlist($source_dynamic, $source)^)?",
        dynamic="source",
        functional=True,
    ),
    _collective(
        "reduce",
        "Reduces each group's tensors element-wise onto the root member.",
        (_REDUCTION, _root("root")),
        f"{_REDUCTION_FMT} `root` `=` dynlist($root_dynamic, $root)",
        input_nonzero=False,
        dynamic="root",
        functional=True,
    ),
    _collective(
        "reduce_scatter",
        "Reduces each group's tensors, then scatters the result along scatter_axis.",
        (_REDUCTION, _index_attr("scatter_axis")),
        f"{_REDUCTION_FMT} `scatter_axis` `=` $scatter_axis",
    ),
    _collective(
        "scatter",
        "Splits the root member's tensor along scatter_axis over the group.",
        (_index_attr("scatter_axis"), _root("root")),
        "`scatter_axis` `=` $scatter_axis `root` `=` dynlist($root_dynamic, $root)",
        dynamic="root",
        functional=True,
    ),
    _collective(
        "send",
        "Sends a tensor to another member of the group.",
        (_root("destination"),),
        "`destination` `=` dynlist($destination_dynamic, $destination)",
        dynamic="destination",
        functional=True,
    ),
    _collective(
        "shift",
        "Shifts (or rotates) tensors along one mesh axis inside each group.",
        (
            _index_attr("shift_axis"),
            AttrDef("offset", AttrKind.I64),
            AttrDef("rotate", AttrKind.UNIT, required=False, default=False),
        ),
        "`shift_axis` `=` $shift_axis `offset` `=` $offset (`rotate` $rotate^)?",
    ),
    OpDef(
        "update_halo",
        "Refreshes the halo regions of a sharded tensor from its neighbours.",
        (
            ValueDef("source", TypeKind.TENSOR_OR_MEMREF, nonzero_rank=True),
            ValueDef("destination", TypeKind.TENSOR_OR_MEMREF, nonzero_rank=True),
            ValueDef("source_halo_sizes", TypeKind.I64, variadic=True),
            ValueDef("destination_halo_sizes", TypeKind.I64, variadic=True),
        ),
        (ValueDef("result", TypeKind.TENSOR_OR_MEMREF, nonzero_rank=True),),
        (
            _MESH,
            AttrDef("split_axes", AttrKind.AXES_ARRAY),
            AttrDef("static_source_halo_sizes", AttrKind.STATIC_LIST, default=()),
            AttrDef("static_destination_halo_sizes", AttrKind.STATIC_LIST, default=()),
        ),
        "$source `into` $destination `on` $mesh `split_axes` `=` $split_axes"
        " (`source_halo_sizes` `=` dynlist($source_halo_sizes, $static_source_halo_sizes)^)?"
        " (`destination_halo_sizes` `=`"
        " dynlist($destination_halo_sizes, $static_destination_halo_sizes)^)?"
        " attr-dict `:` type($source) `->` type($result)",
    ),
)

OPS_BY_NAME: dict[str, OpDef] = {op.full_name: op for op in OPS}

COLLECTIVES = frozenset(op.full_name for op in OPS if op.attr("mesh_axes") is not None)


# ---------------------------------------------------------------------------
# Format strings, parsed once into a small tree.


@dataclass(frozen=True)
class Literal:
    text: str


@dataclass(frozen=True)
class Ref:
    """`$name`: an operand or an attribute."""

    name: str


@dataclass(frozen=True)
class Dims:
    attr: str


@dataclass(frozen=True)
class DynList:
    operands: str
    attr: str


@dataclass(frozen=True)
class TypeOf:
    name: str


@dataclass(frozen=True)
class FunctionalType:
    pass


@dataclass(frozen=True)
class AttrDict:
    pass


@dataclass(frozen=True)
class Optional:
    elements: tuple
    anchor: str


def parse_format(fmt: str) -> tuple:
    """Parse an assembly-format string into directive objects."""
    import re

    token_re = re.compile(
        r"\s*(?:`(?P<lit>[^`]*)`|\$(?P<ref>\w+)(?P<anchor>\^)?"
        r"|(?P<dims>dims)\(\$(?P<dims_attr>\w+)\)"
        r"|(?P<dyn>dynlist)\(\$(?P<dyn_ops>\w+),\s*\$(?P<dyn_attr>\w+)\)(?P<dyn_anchor>\^)?"
        r"|(?P<type>type)\(\$(?P<type_of>\w+)\)"
        r"|(?P<ftype>functional-type\(operands,\s*results\))"
        r"|(?P<adict>attr-dict)|(?P<open>\()|(?P<close>\)\?))"
    )
    pos = 0
    stack: list[tuple[list, str | None]] = [([], None)]
    while pos < len(fmt):
        if fmt[pos:].strip() == "":
            break
        m = token_re.match(fmt, pos)
        if not m:
            raise ValueError(f"bad assembly format near {fmt[pos:]!r}")
        pos = m.end()
        elems, anchor = stack[-1]
        if m["lit"] is not None:
            elems.append(Literal(m["lit"]))
        elif m["ref"]:
            elems.append(Ref(m["ref"]))
            if m["anchor"]:
                stack[-1] = (elems, m["ref"])
        elif m["dims"]:
            elems.append(Dims(m["dims_attr"]))
        elif m["dyn"]:
            elems.append(DynList(m["dyn_ops"], m["dyn_attr"]))
            if m["dyn_anchor"]:
                stack[-1] = (elems, m["dyn_attr"])
        elif m["type"]:
            elems.append(TypeOf(m["type_of"]))
        elif m["ftype"]:
            elems.append(FunctionalType())
        elif m["adict"]:
            elems.append(AttrDict())
        elif m["open"]:
            stack.append(([], None))
        elif m["close"]:
            inner, inner_anchor = stack.pop()
            if inner_anchor is None:
                raise ValueError(f"optional group without anchor in {fmt!r}")
            stack[-1][0].append(Optional(tuple(inner), inner_anchor))
    if len(stack) != 1:
        raise ValueError(f"unbalanced optional group in {fmt!r}")
    return tuple(stack[0][0])


FORMATS: dict[str, tuple] = {op.full_name: parse_format(op.format) for op in OPS}
