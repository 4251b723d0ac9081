"""Every layout of a function and every change between them, read from IR.

A function says how its values lie in two ways: annotations (`mesh.shard`,
before or after `sharding-propagation`) and, once partitioned, the
`mesh.sharding` attributes of its arguments and results (their types are
then one device's piece, and the global shape is put back together from
the layout).  A reshard is an annotation whose layout differs from the one
its value already has: an annotation for users of an annotated value or of
an argument with a layout, or a result annotation of a value that is
itself an annotation (a chain, as `cse` makes); its bytes are the
resharding planner's, as `mesh-partition` would emit it.

Values are named as the source file names them (`%x`), read at each op's
position, else as MLIR prints them (`%0`, `%arg0`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mlir import ir

from ..ir import schema
from ..ir.asm import remap_location
from ..ir.syntax import Unprintable, decode_sharding_attr
from ..sharding.spec import Mesh, Sharding
from .layout import Layout, LayoutError, compute_layout


@dataclass
class ValueLayout:
    """One value's layout as a place in the function states it."""

    name: str
    """The value laid out (for an annotation, the annotated value)."""
    what: str
    """"argument 0", "result 0", "annotation" (of a result) or "annotation for users"."""
    line: int
    col: int
    mesh: str
    sharding: Sharding | None
    layout: Layout | None = None
    problem: str = ""
    """Why there is no picture (a dynamic size, an unknown mesh...)."""
    result: str = ""
    """The name of an annotation's own result."""
    aliases: tuple[str, ...] = ()
    """Other names of the value (as MLIR prints it)."""
    argument: int | None = None
    """The index of the function argument laid out, if it is one."""

    @property
    def title(self) -> str:
        """`%x (annotation at 4:9, as %xa)`: the value, what lays it out
        and where, and the annotation's own result."""
        where = f" at {self.line}:{self.col}" if self.line else ""
        alias = f", as {self.result}" if self.result else ""
        return f"{self.name} ({self.what}{where}{alias})"


@dataclass
class Reshard:
    """A change of layout and what the planner makes of it."""

    name: str
    line: int
    col: int
    mesh: str
    source: Sharding
    target: Sharding
    shape: tuple[int, ...] = ()
    steps: tuple[str, ...] = ()
    bytes_received: int = 0
    lower_bound: int = 0
    problem: str = ""

    @property
    def title(self) -> str:
        where = f" at {self.line}:{self.col}" if self.line else ""
        return f"reshard {self.name}{where}: {self.source} -> {self.target}"

    def summary(self) -> str:
        if self.problem:
            return f"{self.title}: {self.problem}"
        steps = ", ".join(self.steps) if self.steps else "nothing to move"
        return (
            f"{self.title}: {steps}; {self.bytes_received:,} bytes received per device "
            f"(lower bound {self.lower_bound:,})"
        )


@dataclass
class FunctionLayouts:
    name: str
    per_device: bool
    """The function is partitioned: its arguments and results carry layouts."""
    values: list[ValueLayout] = field(default_factory=list)
    reshards: list[Reshard] = field(default_factory=list)

    def select(self, value: str) -> list[ValueLayout]:
        """The layouts of `value`: a name (`%x`, as written or as printed),
        or an argument's index."""
        if value.isdigit():
            return [v for v in self.values if v.argument == int(value)]
        name = value if value.startswith("%") else "%" + value
        return [v for v in self.values if name == v.name or name == v.result or name in v.aliases]


_RESULTS = re.compile(r"(%[\w$.\-]+(?::\d+)?(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*)\s*=\s*$")
_NAME = re.compile(r"%[\w$.\-]+")


class _Names:
    """Source names of values, read at the positions MLIR records."""

    def __init__(self, text: str | None) -> None:
        self.lines = text.split("\n") if text is not None else []
        self.state: ir.AsmState | None = None

    def position_of(self, loc: ir.Location) -> tuple[int, int]:
        name, line, col = remap_location(loc)
        return (line, col) if name is not None else (0, 0)

    def printed(self, value: ir.Value) -> str:
        return value.get_name()

    def result(self, value: ir.Value) -> str:
        """`value`'s name where its op writes it (`%a` of `%a = ...`,
        `%p#1` of `%p:2 = ...`), else its printed name."""
        owner = value.owner
        op = owner.operation if hasattr(owner, "operation") else owner
        line, col = self.position_of(op.location)
        if 0 < line <= len(self.lines):
            m = _RESULTS.search(self.lines[line - 1][: max(col - 1, 0)])
            if m is not None:
                index = ir.OpResult(value).result_number
                names = [n.strip() for n in m.group(1).split(",")]
                expanded: list[str] = []
                for n in names:
                    base, _, count = n.partition(":")
                    expanded += [f"{base}#{i}" for i in range(int(count))] if count else [base]
                if index < len(expanded):
                    name = expanded[index]
                    return name[: -len("#0")] if name.endswith("#0") and len(expanded) == 1 else name
        return self.printed(value)

    def argument(self, value: ir.Value) -> str:
        line, col = self.position_of(value.location)
        if 0 < line <= len(self.lines):
            m = _NAME.match(self.lines[line - 1], max(col - 1, 0))
            if m is not None:
                return m.group(0)
        return self.printed(value)

    def name(self, value: ir.Value) -> str:
        return self.argument(value) if isinstance(value, ir.BlockArgument) else self.result(value)

    def position(self, op: ir.Operation) -> tuple[int, int]:
        return self.position_of(op.location)


def _sharding_attr(attrs: ir.Attribute | None, index: int) -> tuple[str, Sharding] | None:
    """(mesh, layout) from the `mesh.sharding` of entry `index` of an
    `arg_attrs`/`res_attrs` array, or None."""
    if attrs is None:
        return None
    entries = ir.ArrayAttr(attrs)
    if index >= len(entries):
        return None
    d = ir.DictAttr(entries[index])
    if "mesh.sharding" not in d:
        return None
    try:
        mesh, split, partial, kind, halos, offsets = decode_sharding_attr(str(d["mesh.sharding"]))
    except Unprintable:
        return None
    return mesh[1:], Sharding(tuple(map(tuple, split)), tuple(partial), kind, tuple(halos), tuple(offsets))


def _attr(op: ir.Operation, name: str) -> ir.Attribute | None:
    return op.attributes[name] if name in op.attributes else None


def _element(t: ir.Type) -> tuple[str, int]:
    from ..transforms.base import element_bytes

    return str(ir.ShapedType(t).element_type), element_bytes(t)


class _Reader:
    def __init__(self, meshes: dict[str, tuple[int, ...]], names: _Names) -> None:
        self.meshes = meshes
        self.names = names

    def mesh(self, name: str) -> Mesh:
        shape = self.meshes.get(name)
        if shape is None:
            raise LayoutError(f"no mesh @{name} in the module")
        if any(n == schema.DYNAMIC or n < 1 for n in shape):
            raise LayoutError(f"mesh @{name} has a size known only at run time")
        return Mesh(shape, name)

    def draw(self, entry: ValueLayout, t: ir.Type, shape: tuple[int, ...] | None = None) -> ValueLayout:
        """Fill `entry.layout` (or `entry.problem`) for a tensor of type `t`
        (of global `shape`, when it is a piece)."""
        if entry.sharding is None:
            return entry
        try:
            if not isinstance(t, ir.RankedTensorType):
                raise LayoutError(f"not a ranked tensor: {t}")
            st = ir.RankedTensorType(t)
            if shape is None:
                if any(st.is_dynamic_dim(d) for d in range(st.rank)):
                    raise LayoutError(f"the shape of {t} is known only at run time")
                shape = tuple(st.shape)
            element, nbytes = _element(t)
            entry.layout = compute_layout(
                shape,
                self.mesh(entry.mesh),
                entry.sharding,
                element_type=element,
                element_bytes=nbytes,
                mesh_name=entry.mesh,
            )
        except LayoutError as e:
            entry.problem = str(e)
        return entry


def function_layouts(module: ir.Operation, source: str | None = None) -> list[FunctionLayouts]:
    """The layouts and reshards of every function of `module` with a body;
    `source` is the text it was parsed from (for the values' own names)."""
    from ..transforms.base import mesh_scopes

    names = _Names(source)
    out = []
    for meshes, functions in mesh_scopes(module):
        reader = _Reader(meshes, names)
        out.extend(_function(fn, reader) for fn in functions)
    return out


def _function(fn: ir.Operation, reader: _Reader) -> FunctionLayouts:
    names = reader.names
    entry = fn.regions[0].blocks[0]
    fn_name = ir.StringAttr(fn.attributes["sym_name"]).value
    arg_attrs, res_attrs = _attr(fn, "arg_attrs"), _attr(fn, "res_attrs")
    n_results = len(ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value).results)
    arg_layouts = [_sharding_attr(arg_attrs, i) for i in range(len(entry.arguments))]
    res_layouts = [_sharding_attr(res_attrs, i) for i in range(n_results)]
    per_device = any(arg_layouts) or any(res_layouts)
    out = FunctionLayouts(fn_name, per_device)
    known: dict[ir.Value, tuple[str, Sharding]] = {}
    arguments = list(entry.arguments)
    for i, arg in enumerate(entry.arguments):
        found = arg_layouts[i]
        if found is None:
            if not per_device:
                continue
            found = (_only_mesh(arg_layouts, res_layouts), Sharding(()))
        known[arg] = found
        line, col = names.position_of(arg.location)
        item = ValueLayout(names.argument(arg), f"argument {i}", line, col, found[0], found[1])
        item.aliases, item.argument = (names.printed(arg),), i
        out.values.append(_draw_piece(reader, item, arg.type))

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.shard":
            _annotation(op, reader, known, arguments, out)
        elif op.name == "func.return" and per_device:
            line, col = names.position(op)
            for i, v in enumerate(op.operands):
                found = res_layouts[i] if i < len(res_layouts) else None
                found = found or (_only_mesh(arg_layouts, res_layouts), Sharding(()))
                item = ValueLayout(names.name(v), f"result {i}", line, col, found[0], found[1])
                item.aliases = (names.printed(v),)
                out.values.append(_draw_piece(reader, item, v.type))
        return ir.WalkResult.ADVANCE

    for block in fn.regions[0].blocks:
        for op in block.operations:
            op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def _only_mesh(*layouts: list) -> str:
    for group in layouts:
        for found in group:
            if found is not None:
                return found[0]
    return ""


def _draw_piece(reader: _Reader, item: ValueLayout, t: ir.Type) -> ValueLayout:
    """Draw a per-device value: its global shape comes back from its piece's."""
    if item.sharding is None or not isinstance(t, ir.RankedTensorType):
        return reader.draw(item, t)
    st = ir.RankedTensorType(t)
    try:
        mesh = reader.mesh(item.mesh)
    except LayoutError as e:
        item.problem = str(e)
        return item
    s = item.sharding
    shape = []
    for d in range(st.rank):
        offsets = s.offsets(d, mesh) if d < len(s.split_axes) else None
        if offsets is not None:
            shape.append(offsets[-1])
        elif st.is_dynamic_dim(d):
            item.problem = f"the size of dimension {d} of {t} is known only at run time"
            return item
        else:
            low, high = s.halo(d)
            shape.append((st.shape[d] - low - high) * s.shard_count(d, mesh))
    return reader.draw(item, t, tuple(shape))


def _annotation(
    op: ir.Operation,
    reader: _Reader,
    known: dict[ir.Value, tuple[str, Sharding]],
    arguments: list[ir.Value],
    out: FunctionLayouts,
) -> None:
    from ..transforms.base import sharding_of

    names = reader.names
    src, sharding_value = op.operands[0], op.operands[1]
    for_users = "annotate_for_users" in op.attributes
    line, col = names.position(op)
    found = sharding_of(sharding_value)
    name = names.name(src)
    what = "annotation for users" if for_users else "annotation"
    item = ValueLayout(name, what, line, col, "", None, result=names.result(op.results[0]))
    item.aliases = (names.printed(src), names.printed(op.results[0]))
    if src in arguments:
        item.argument = arguments.index(src)
    out.values.append(item)
    if found is None:
        item.problem = "its sharding is not a mesh.sharding op of this function"
        return
    item.mesh, item.sharding, dynamic = found
    if dynamic:
        item.problem = "halo sizes or offsets known only at run time"
        return
    reader.draw(item, src.type)
    s = item.sharding
    before = known.get(src)
    known[op.results[0]] = (item.mesh, s)
    if not for_users and before is None:
        known[src] = (item.mesh, s)
    if before is None or before == (item.mesh, s):
        return
    change = Reshard(name, line, col, item.mesh, before[1], s)
    if item.layout is None:
        change.problem = item.problem
    elif before[0] != item.mesh:
        change.problem = f"from mesh @{before[0]} to mesh @{item.mesh}: not planned"
    else:
        change.shape = item.layout.shape
        _plan(change, item.layout)
    out.reshards.append(change)


def _plan(change: Reshard, layout: Layout) -> None:
    from ..sharding.resharding import plan_resharding

    try:
        plan = plan_resharding(
            layout.shape, layout.mesh_shape, change.source, change.target, element_bytes=layout.element_bytes
        )
    except ValueError as e:
        change.problem = f"cannot plan: {e}"
        return
    change.steps = tuple(str(step) for step in plan.steps)
    change.bytes_received = plan.bytes_received
    change.lower_bound = plan.lower_bound
