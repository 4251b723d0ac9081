"""The semantic verifier: the rules of the `mesh` dialect that IRDL cannot say.

IRDL checks operand and attribute kinds while parsing; this module checks
everything that needs context: that mesh symbols resolve, that axes are in
range, that static shapes agree with the mesh. It runs after parsing and after
every pass (after a pass that recorded what it changed, on those ops only:
`check_changed`). Messages follow MLIR's style: `'mesh.op' op <rule>, <value>`.

The uses of `mesh.shard` the reference page calls undefined (a value
annotated twice with different shardings, or an annotation annotated again)
are accepted, as upstream's verifier accepts them: upstream's `cse` (merging
equal constants) and `canonicalize` (folding an identity op between two
annotations) make each of them from valid input, and the verifier must never
reject what those passes produce. A later annotation that differs is a change
of layout.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import repeat

from mlir import ir

from .diagnostics import Diagnostic, file_position
from .schema import DYNAMIC, OPS_BY_NAME, TypeKind
from .signature import ContextCache, op_signature
from .syntax import Unprintable, decode_axes_array, decode_reduction, decode_sharding_attr

Shape = tuple[int | None, ...]


_REGIONS_IN_ORDER = frozenset(
    (
        "builtin.module",
        "func.func",
        "scf.for",
        "scf.forall",
        "scf.parallel",
        "scf.if",
        "scf.while",
        "scf.execute_region",
        "scf.reduce",
        "affine.for",
        "affine.if",
        "tensor.generate",
        "linalg.generic",
    )
)
"""Ops (besides linalg's, of one region each) whose syntax prints their
regions in the order they are numbered (the order of a pre-order walk).
Other ops with several regions may not (`scf.index_switch` prints its
default region, region 0, last), so the line templates cannot then be
lined up with the walk by op names alone."""


@dataclass
class Violation:
    location: ir.Location
    message: str
    notes: list[tuple[ir.Location, str]] = field(default_factory=list)


class _Invalid(Exception):
    """One rule broken; stops checking the op that broke it."""

    def __init__(self, message: str, notes: list[tuple[ir.Location, str]] | None = None):
        super().__init__(message)
        self.message = message
        self.notes = notes or []


@dataclass(frozen=True)
class MeshInfo:
    name: str
    shape: Shape
    location: ir.Location

    @property
    def rank(self) -> int:
        return len(self.shape)

    def group_size(self, axes: Iterable[int]) -> int | None:
        """Devices in one group over `axes`, by arithmetic (a mesh may hold
        billions of devices); None when any size is dynamic. An axis out of
        range is the range error, never an IndexError."""
        size: int | None = 1
        for a in axes:
            if a < 0 or a >= self.rank:
                raise _Invalid(f"mesh axis {a} is out of range for mesh @{self.name} of rank {self.rank}")
            s = self.shape[a]
            if s is None:
                size = None
            elif size is not None:
                size *= s
        return size


def _check_partial_element(kind: str, element: ir.Type, what: str = "partial") -> None:
    """Terms of `kind` must be reducible in the element type (a partial
    layout's, or a collective's accumulation type): a bitwise reduction of
    floats, or a max of complex numbers, means nothing."""
    integer = isinstance(element, ir.IntegerType | ir.IndexType)
    if kind.startswith("bitwise_") and not integer:
        raise _Invalid(f"{what} = {kind} needs an integer element type, got {element}")
    if kind in ("max", "min") and isinstance(element, ir.ComplexType):
        raise _Invalid(f"{what} = {kind} needs an ordered element type, got {element}")


@dataclass(frozen=True)
class ShardingInfo:
    """The static content of a `mesh.sharding` op, comparable for equality."""

    mesh: str
    split_axes: tuple[tuple[int, ...], ...]
    partial_axes: tuple[int, ...]
    partial_type: str | None
    halo_sizes: tuple[int | None, ...]
    sharded_dims_offsets: tuple[int | None, ...]
    dynamic: tuple  # the dynamic operands, compared by identity


def _dims(values: Iterable[int]) -> Shape:
    return tuple(None if v == DYNAMIC else v for v in values)


def _fmt_shape(shape: Shape) -> str:
    return "x".join("?" if d is None else str(d) for d in shape)


def _axes_attr(op: ir.Operation, name: str) -> list[int]:
    attr = op.attributes[name]
    if not isinstance(attr, ir.DenseI16ArrayAttr):
        raise _Invalid(f"{name} must be an array<i16>, got {attr}")
    return list(attr)


def _i64_list_attr(op: ir.Operation, name: str) -> list[int]:
    attr = op.attributes[name]
    if not isinstance(attr, ir.DenseI64ArrayAttr):
        raise _Invalid(f"{name} must be an array<i64>, got {attr}")
    return list(attr)


def _symbol(attr: ir.StringAttr | ir.FlatSymbolRefAttr) -> str:
    """A symbol's name; one that is not UTF-8 (MLIR takes any bytes) breaks
    a rule here, where the passes, which name meshes with str, would fail."""
    try:
        return attr.value
    except RuntimeError:  # (the bindings' failed conversion to str)
        shown = str(attr)
        shown = shown if shown.startswith("@") else "@" + shown
        raise _Invalid(f"mesh name must be valid UTF-8, got {shown}") from None


def _symbol_or_none(attr: ir.Attribute) -> str | None:
    """`_symbol` without the rule: None for a name that is not UTF-8 (its op reports it)."""
    try:
        return _symbol(attr)
    except _Invalid:
        return None


def _int_attr(op: ir.Operation, name: str, type_name: str) -> int:
    attr = op.attributes[name]
    if not isinstance(attr, ir.IntegerAttr) or str(attr.type) != type_name:
        raise _Invalid(f"{name} must be an integer of type {type_name}, got {attr}")
    return attr.value


def _split_axes_attr(op: ir.Operation, name: str = "split_axes") -> list[list[int]]:
    raw = str(op.attributes[name])
    try:
        return decode_axes_array(raw)
    except Unprintable:
        raise _Invalid(f"{name} must hold arrays of i16 mesh axes, got {raw}") from None


def _unit_attr(op: ir.Operation, name: str) -> bool:
    if name not in op.attributes:
        return False
    if not isinstance(op.attributes[name], ir.UnitAttr):
        raise _Invalid(f"{name} must be a unit attribute, got {op.attributes[name]}")
    return True


def _tensor_type(value: ir.Value, what: str, *, memref_ok: bool = False, nonzero: bool = False):
    t = value.type
    ok = isinstance(t, ir.RankedTensorType) or (memref_ok and isinstance(t, ir.MemRefType))
    if not ok:
        kind = "a ranked tensor or memref" if memref_ok else "a ranked tensor"
        raise _Invalid(f"{what} must be {kind}, got {t}")
    if nonzero and t.rank == 0:
        raise _Invalid(f"{what} must have rank >= 1, got {t}")
    return t


def _shape(t) -> Shape:
    return tuple(None if t.is_dynamic_dim(i) else d for i, d in enumerate(t.shape))


@dataclass
class Checked:
    """What a check of a whole module learned that a later check of only
    some of its ops reuses: the meshes of every scope. Valid while no mesh
    is created, changed or erased."""

    root: ir.Operation
    meshes: dict[ir.Operation, dict[str, MeshInfo]]
    one_scope: bool


_MISSING = object()

_LAYOUTS: ContextCache[ShardingInfo | str] = ContextCache()
"""Function layouts (`#mesh.sharding<...>` attributes) decoded, or their
text when they do not decode, by attribute: decoding reads the text."""


class _Verifier:
    def __init__(self, op_order: tuple[list[str], list[object | None]] | None = None) -> None:
        self.op_order = op_order
        # Lined up with the ops `_check_ops` is given, when known (see `check`).
        self.templates: list[object | None] | None = None
        self.violations: list[Violation] = []
        self.meshes: dict[ir.Operation, dict[str, MeshInfo]] = {}
        self.valid_shardings: dict[ir.Operation, ShardingInfo | None] = {}  # None: invalid
        self.checked: Checked | None = None
        # With one scope for mesh symbols (see _check_ops): what passed, by
        # signature, and a sharding op's content by its signature.
        self.passed: set[tuple] | None = None
        self.contents: dict[tuple, ShardingInfo | None] | None = None
        # A sharding operand's part of its user's signature, by value: a
        # small int per distinct valid content, else the value itself.
        self.tokens: dict[ir.Value, object] = {}
        self.interned: dict[ShardingInfo, int] = {}

    # -- driving ---------------------------------------------------------

    def run(self, root: ir.Operation) -> list[Violation]:
        with _collector_paused():
            return self._run(root)

    def _run(self, root: ir.Operation) -> list[Violation]:
        mesh_ops: list[ir.Operation] = []
        others: list[ir.Operation] = []
        functions: list[ir.Operation] = []
        modules = 0
        ops_by_name = OPS_BY_NAME
        advance = ir.WalkResult.ADVANCE

        names: list[str] = []
        seen = names.append
        has_regions: dict[str, bool] = {}  # per op name, from its first op
        reordered = False  # an op whose syntax may print its regions out of order

        def visit(op: ir.Operation) -> ir.WalkResult:
            nonlocal modules, reordered
            name = op.name
            regions = has_regions.get(name)
            if regions is None:
                regions = has_regions[name] = (
                    name not in _REGIONS_IN_ORDER and not name.startswith("linalg.") and len(op.regions) > 0
                )
            if regions and len(op.regions) > 1:
                reordered = True
            if name in ops_by_name:
                (mesh_ops if name == "mesh.mesh" else others).append(op)
                seen(name)
            elif name == "builtin.module":
                modules += 1
            elif name == "func.func" and ("arg_attrs" in op.attributes or "res_attrs" in op.attributes):
                functions.append(op)
            return advance

        root.walk(visit, ir.WalkOrder.PRE_ORDER)
        for op in mesh_ops:
            self._guard(op, self.verify_mesh)
        one_scope = modules <= 1 and all(scope.name == "builtin.module" for scope in self.meshes)
        self.checked = Checked(root, self.meshes, one_scope)
        if self.op_order is not None and not reordered and names == self.op_order[0]:
            self.templates = [t for name, t in zip(*self.op_order) if name != "mesh.mesh"]
        self._check_ops(others, functions, one_scope)
        return self.violations

    def run_changed(self, ops: Iterable[ir.Operation], checked: Checked) -> list[Violation] | None:
        """Check only `ops` (and the annotations reading a sharding op among
        them) in a module `checked` found valid; None when that cannot tell
        (a mesh or a module among them: the meshes in scope may differ)."""
        with _collector_paused():
            # Hashed anew: an op's hash follows its attributes, which a pass
            # may have changed on a scope (a function) since.
            self.meshes = {scope: table for scope, table in checked.meshes.items()}
            others: dict[ir.Operation, None] = {}
            functions: dict[ir.Operation, None] = {}
            for op in ops:
                name = op.name
                if name == "mesh.mesh" or name == "builtin.module":
                    return None
                if name == "mesh.sharding":
                    others[op] = None
                    for use in op.results[0].uses:
                        user = use.owner.operation
                        if user.name in ("mesh.shard", "mesh.shard_shape"):
                            others.setdefault(user)
                elif name in OPS_BY_NAME:
                    others[op] = None
                elif name == "func.func" and ("arg_attrs" in op.attributes or "res_attrs" in op.attributes):
                    functions[op] = None
            self.checked = checked
            self._check_ops(list(others), list(functions), checked.one_scope)
            return self.violations

    def _check_ops(self, others: list[ir.Operation], functions: list[ir.Operation], one_scope: bool) -> None:
        """Every op of `others` and `functions`, meshes already known.

        An op's rules read only its name, attributes, operand and result
        types, the meshes in scope and (for annotations) the content of its
        sharding operand: with every mesh in the one module (one scope for
        mesh symbols), an op with the signature of one that passed passes
        too. Modules repeat a few signatures. Failures are always checked
        (and reported) again."""
        if not one_scope:
            for op in others:
                self._guard(op, getattr(self, "verify_" + op.name[5:]))
            for op in functions:
                self._guard(op, self.verify_function_layouts)
            return
        passed: set[tuple] = set()
        self.passed = passed
        self.contents = {}
        token = self.token
        tokens = self.tokens
        for op, template in zip(others, self.templates or repeat(None)):
            name = op.name
            annotation = name == "mesh.shard" or name == "mesh.shard_shape"
            if template is not None:
                # Right after parsing, an op filled in from a line template
                # (`templates`) has the name, attributes and types of every
                # op of that template: the template stands for them.
                key = (name, template)
                operands = op.operands if annotation else ()
            else:
                # op_signature, inlined: it is most of the cost of a hit.
                operands = tuple(op.operands)
                key = (name, tuple(op.attributes.items()), tuple([v.type for v in operands]), tuple(op.results.types))
            if annotation:
                at = 1 if name == "mesh.shard" else 0
                if len(operands) > at:
                    key += (token(operands[at]),)
            if key not in passed and self._guard(op, getattr(self, "verify_" + name[5:])):
                passed.add(key)
            if name == "mesh.sharding":
                # Its users find its content by value, without reading it.
                info = self.content(op, key)
                result = op.results[0]
                tokens[result] = result if info is None else self.interned.setdefault(info, len(self.interned))
        for op in functions:
            self._guard(op, self.verify_function_layouts)

    def token(self, value: ir.Value) -> object:
        """What a sharding operand adds to its user's signature."""
        found = self.tokens.get(value, _MISSING)
        if found is _MISSING:
            info = self.sharding_info(value)
            found = info if info is value else self.interned.setdefault(info, len(self.interned))
            self.tokens[value] = found
        return found

    def content(self, op: ir.Operation, key: tuple) -> ShardingInfo | None:
        """A `mesh.sharding` op's content (None: invalid), read once per
        signature `key`; one scope only (its mesh is found by name)."""
        static = self.contents.get(key, _MISSING)
        if static is _MISSING:
            info = self.read_valid(op)
            static = self.contents[key] = None if info is None else replace(info, dynamic=())
        if static is None or not len(op.operands):
            return static
        return replace(static, dynamic=tuple(op.operands))

    def read_valid(self, op: ir.Operation) -> ShardingInfo | None:
        try:
            info = self.read_sharding(op)
            self.check_sharding(self.mesh_of(op), info)
        except _Invalid:
            return None
        return info

    def verify_function_layouts(self, op: ir.Operation) -> None:
        """`{mesh.sharding = #mesh.sharding<...>}` on arguments and results."""
        ftype = ir.FunctionType(op.attributes["function_type"].value)
        passed = self.passed
        for kind, attr_name, types in (("argument", "arg_attrs", ftype.inputs), ("result", "res_attrs", ftype.results)):
            if attr_name not in op.attributes:
                continue
            for i, entry in enumerate(ir.ArrayAttr(op.attributes[attr_name])):
                # One scope: the entry and the type decide (the mesh is found by name).
                key = ("layout", entry, types[i]) if passed is not None and i < len(types) else None
                if key is not None and key in passed:
                    continue
                d = ir.DictAttr(entry)
                if "mesh.sharding" not in d:
                    continue
                info = _layout(d["mesh.sharding"])
                if isinstance(info, str):
                    raise _Invalid(f"{kind} {i} has a mesh.sharding that is not a #mesh.sharding: {info}")
                try:
                    self.check_sharding(self.mesh_named(op, info.mesh), info)
                    t = types[i]
                    if not isinstance(t, ir.RankedTensorType):
                        raise _Invalid(f"is on a {t}, not a ranked tensor")
                    if len(info.split_axes) > t.rank:
                        raise _Invalid(
                            f"splits {len(info.split_axes)} tensor dimensions but the tensor has rank {t.rank}"
                        )
                except _Invalid as e:
                    raise _Invalid(f"{kind} {i}: mesh.sharding {e.message}") from None
                if key is not None:
                    passed.add(key)

    def _guard(self, op: ir.Operation, check) -> bool:
        """Run one op's check; False when it broke a rule (reported)."""
        try:
            check(op)
        except _Invalid as e:
            self.violations.append(Violation(op.location, f"'{op.name}' op {e.message}", e.notes))
            return False
        return True

    # -- meshes ----------------------------------------------------------

    def verify_mesh(self, op: ir.Operation) -> None:
        name_attr = op.attributes["sym_name"]
        if not isinstance(name_attr, ir.StringAttr):
            raise _Invalid(f"sym_name must be a string, got {name_attr}")
        name = _symbol(name_attr)
        shape = _dims(_i64_list_attr(op, "shape"))
        scope = self.meshes.setdefault(op.parent, {})
        if name in scope:
            raise _Invalid(f"redefinition of mesh @{name}", [(scope[name].location, "previous definition is here")])
        scope[name] = MeshInfo(name, shape, op.location)
        if not shape:
            raise _Invalid(f"mesh @{name} must have rank >= 1, got rank 0")
        for axis, size in enumerate(shape):
            if size is not None and size < 1:
                raise _Invalid(f"mesh axis {axis} of @{name} must have size >= 1 or ?, got {size}")

    def mesh_of(self, op: ir.Operation) -> MeshInfo:
        attr = op.attributes["mesh"]
        if not isinstance(attr, ir.FlatSymbolRefAttr):
            raise _Invalid(f"mesh must be a flat symbol reference, got {attr}")
        return self.mesh_named(op, _symbol(attr))

    def mesh_named(self, op: ir.Operation, name: str) -> MeshInfo:
        scope = op.parent
        while scope is not None:
            found = self.meshes.get(scope, {}).get(name)
            if found is not None:
                if found.rank == 0 or any(s is not None and s < 1 for s in found.shape):
                    raise _Invalid(f"mesh @{name} is invalid")
                return found
            if scope.name == "builtin.module" or scope.parent is None:
                break
            scope = scope.parent
        other = self._other_symbol(scope, name) if scope is not None else None
        if other == "mesh.mesh":
            # a mesh outside the op being verified (a function checked on its
            # own): read it where the symbol table has it
            mesh_op = ir.SymbolTable(scope)[name].operation
            self.verify_mesh(mesh_op)
            return self.mesh_named(op, name)
        if other is not None:
            raise _Invalid(f"symbol @{name} names a '{other}', not a mesh.mesh")
        if _defines_mesh_within(op, name):  # a function's argument or result layout
            raise _Invalid(
                f"mesh symbol @{name} is defined only in the body of this '{op.name}', which its argument and "
                "result layouts cannot see: define the mesh at module level"
            )
        raise _Invalid(f"mesh symbol @{name} is not defined")

    @staticmethod
    def _other_symbol(scope: ir.Operation, name: str) -> str | None:
        try:
            return ir.SymbolTable(scope)[name].operation.name
        except (KeyError, ValueError, RuntimeError, IndexError):
            return None

    @staticmethod
    def check_axes(mesh: MeshInfo, axes: Sequence[int], what: str) -> None:
        seen: set[int] = set()
        for a in axes:
            if a < 0 or a >= mesh.rank:
                raise _Invalid(f"mesh axis {a} is out of range for mesh @{mesh.name} of rank {mesh.rank}")
            if a in seen:
                raise _Invalid(f"mesh axis {a} appears more than once in {what}")
            seen.add(a)

    # -- queries ---------------------------------------------------------

    def verify_mesh_shape(self, op: ir.Operation) -> None:
        self._axes_query(op)

    def verify_process_multi_index(self, op: ir.Operation) -> None:
        self._axes_query(op)

    def _axes_query(self, op: ir.Operation) -> None:
        mesh = self.mesh_of(op)
        axes = _axes_attr(op, "axes")
        self.check_axes(mesh, axes, "axes")
        expected = len(axes) if axes else mesh.rank
        if len(op.results) != expected:
            raise _Invalid(
                f"expected {expected} results for {'axes ' + str(axes) if axes else 'all axes of @' + mesh.name}, "
                f"got {len(op.results)}"
            )

    def verify_process_linear_index(self, op: ir.Operation) -> None:
        self.mesh_of(op)

    def verify_shard_shape(self, op: ir.Operation) -> None:
        shape = _i64_list_attr(op, "shape")
        for d, size in enumerate(shape):
            if size < 0 and size != DYNAMIC:
                raise _Invalid(f"shape dimension {d} must have size >= 0 or ?, got {size}")
        if len(op.results) != len(shape):
            raise _Invalid(f"expected {len(shape)} results for shape {_fmt_shape(_dims(shape))}, got {len(op.results)}")
        info = self.sharding_info(op.operands[0])
        if isinstance(info, ShardingInfo) and len(info.split_axes) > len(shape):
            raise _Invalid(
                f"sharding splits {len(info.split_axes)} dimensions but shape {_fmt_shape(_dims(shape))} "
                f"has rank {len(shape)}"
            )

    # -- shardings -------------------------------------------------------

    def verify_sharding(self, op: ir.Operation) -> None:
        self.check_sharding(self.mesh_of(op), self.read_sharding(op))

    def check_sharding(self, mesh: MeshInfo, info: ShardingInfo) -> None:
        """The rules every sharding obeys, as an op or as an attribute."""
        used: dict[int, int] = {}
        for dim, axes in enumerate(info.split_axes):
            for a in axes:
                if a < 0 or a >= mesh.rank:
                    raise _Invalid(f"mesh axis {a} is out of range for mesh @{mesh.name} of rank {mesh.rank}")
                if a in used:
                    where = "twice in tensor dimension" if used[a] == dim else f"in tensor dimensions {used[a]} and"
                    raise _Invalid(f"mesh axis {a} is used {where} {dim} of split_axes")
                used[a] = dim
        self.check_axes(mesh, info.partial_axes, "partial axes")
        for a in info.partial_axes:
            if a in used:
                raise _Invalid(f"mesh axis {a} is both a split axis (tensor dimension {used[a]}) and a partial axis")
        if info.partial_type == "generic":
            raise _Invalid("partial reduction kind 'generic' is not allowed in a sharding")
        if info.halo_sizes and info.sharded_dims_offsets:
            raise _Invalid("halo_sizes and sharded_dims_offsets are mutually exclusive")
        if info.halo_sizes:
            _halo_pairs(info.split_axes, info.halo_sizes, "halo_sizes")
        if info.sharded_dims_offsets:
            self._check_offsets(mesh, info)

    @staticmethod
    def offset_groups(mesh: MeshInfo, info: ShardingInfo) -> list[tuple[int, tuple[int | None, ...]]]:
        """sharded_dims_offsets cut into one (dim, offsets) group per split
        tensor dimension; each group has one entry per shard plus the end."""
        counts = []
        for dim, axes in enumerate(info.split_axes):
            if axes:
                n = mesh.group_size(axes)
                if n is None:
                    raise _Invalid("sharded_dims_offsets needs static sizes for the mesh axes it splits over")
                counts.append((dim, n + 1))
        want = sum(n for _, n in counts)
        offsets = info.sharded_dims_offsets
        if len(offsets) != want:
            raise _Invalid(
                f"sharded_dims_offsets needs (shards + 1) entries per split tensor dimension ({want}), "
                f"got {len(offsets)}"
            )
        groups, pos = [], 0
        for dim, n in counts:
            groups.append((dim, offsets[pos : pos + n]))
            pos += n
        return groups

    def _check_offsets(self, mesh: MeshInfo, info: ShardingInfo) -> None:
        for dim, group in self.offset_groups(mesh, info):
            if group[0] is not None and group[0] != 0:
                raise _Invalid(f"sharded_dims_offsets of tensor dimension {dim} must start at 0, got {group[0]}")
            static = [o for o in group if o is not None]
            for a, b in zip(static, static[1:]):
                if b < a:
                    raise _Invalid(
                        f"sharded_dims_offsets of tensor dimension {dim} must be non-decreasing, got {b} after {a}"
                    )

    def read_sharding(self, op: ir.Operation) -> ShardingInfo:
        split_axes = _split_axes_attr(op)
        has_axes = "partial_axes" in op.attributes
        has_type = "partial_type" in op.attributes
        if has_axes != has_type:
            raise _Invalid("partial_axes and partial_type must be given together")
        partial_axes = _axes_attr(op, "partial_axes") if has_axes else []
        partial_type = None
        if has_type:
            raw = str(op.attributes["partial_type"])
            try:
                partial_type = decode_reduction(raw)
            except Unprintable:
                raise _Invalid(f"partial_type must be a #mesh.partial reduction kind, got {raw}") from None
            if partial_type == "generic":  # even with no axes: `partial = generic []`
                raise _Invalid("partial reduction kind 'generic' is not allowed in a sharding")
        halos = _i64_list_attr(op, "static_halo_sizes")
        offsets = _i64_list_attr(op, "static_sharded_dims_offsets")
        segments = self._segments(op, 2)
        self._check_dynamic(offsets, segments[0], "sharded_dims_offsets")
        self._check_dynamic(halos, segments[1], "halo_sizes")
        return ShardingInfo(
            _symbol(op.attributes["mesh"]),
            tuple(tuple(a) for a in _trim(split_axes)),
            tuple(sorted(partial_axes)),
            partial_type if partial_axes else None,
            _dims(halos),
            _dims(offsets),
            tuple(op.operands),
        )

    @staticmethod
    def _segments(op: ir.Operation, n: int) -> list[int]:
        attr = op.attributes["operandSegmentSizes"] if "operandSegmentSizes" in op.attributes else None
        if not isinstance(attr, ir.DenseI32ArrayAttr) or len(attr) != n:
            raise _Invalid(f"operandSegmentSizes must be an array<i32> of {n} sizes")
        return list(attr)

    @staticmethod
    def _check_dynamic(static: Sequence[int], n_dynamic: int, what: str) -> None:
        holes = sum(1 for v in static if v == DYNAMIC)
        if holes != n_dynamic:
            raise _Invalid(f"{what} has {holes} dynamic entries but {n_dynamic} dynamic operands")

    def sharding_info(self, value: ir.Value) -> ShardingInfo | ir.Value:
        """The content of the sharding a value holds, or the value itself
        when it is not produced by a valid `mesh.sharding` op (whose errors
        are reported at that op, not at every user)."""
        owner = value.owner
        if not (isinstance(owner, ir.OpView) and owner.operation.name == "mesh.sharding"):
            return value
        op = owner.operation
        found = self.valid_shardings.get(op, _MISSING)
        if found is _MISSING:
            found = self.read_valid(op) if self.contents is None else self.content(op, op_signature(op))
            self.valid_shardings[op] = found
        return value if found is None else found

    # -- mesh.shard ------------------------------------------------------

    def verify_shard(self, op: ir.Operation) -> None:
        src, sharding_value = op.operands[0], op.operands[1]
        t = _tensor_type(src, "operand")
        if src.type != op.results[0].type:
            raise _Invalid(f"result type {op.results[0].type} must equal the operand type {src.type}")
        _unit_attr(op, "annotate_for_users")
        info = self.sharding_info(sharding_value)
        if isinstance(info, ShardingInfo):
            if len(info.split_axes) > t.rank:
                raise _Invalid(
                    f"sharding splits {len(info.split_axes)} tensor dimensions but the tensor has rank {t.rank}"
                )
            if info.sharded_dims_offsets:
                self._check_offsets_end(sharding_value.owner.operation, info, _shape(t))
            if info.partial_axes and info.partial_type:
                _check_partial_element(info.partial_type, t.element_type)

    def _check_offsets_end(self, sharding_op: ir.Operation, info: ShardingInfo, shape: Shape) -> None:
        for dim, group in self.offset_groups(self.mesh_of(sharding_op), info):
            last = group[-1]
            if last is not None and shape[dim] is not None and last != shape[dim]:
                raise _Invalid(
                    f"sharded_dims_offsets of tensor dimension {dim} must end at its size {shape[dim]}, got {last}"
                )

    # -- collectives -----------------------------------------------------

    def collective(self, op: ir.Operation) -> tuple[MeshInfo, list[int]]:
        mesh = self.mesh_of(op)
        axes = _axes_attr(op, "mesh_axes")
        self.check_axes(mesh, axes, "mesh_axes")
        spec = OPS_BY_NAME[op.name]
        for i, (value, vdef) in enumerate(zip(op.operands, spec.operands)):
            if vdef.kind is TypeKind.TENSOR:
                _tensor_type(value, "input" if i == 0 else vdef.name, nonzero=vdef.nonzero_rank)
        if spec.results[0].kind is TypeKind.TENSOR:
            _tensor_type(op.results[0], "result", nonzero=spec.results[0].nonzero_rank)
        if "reduction" in op.attributes:
            raw = str(op.attributes["reduction"])
            try:
                kind = decode_reduction(raw)
            except Unprintable:
                raise _Invalid(f"reduction must be a #mesh.partial reduction kind, got {raw}") from None
            # the reduction accumulates in the result's element type
            _check_partial_element(kind, ir.ShapedType(op.results[0].type).element_type, "reduction")
        return mesh, axes

    def io(self, op: ir.Operation):
        return op.operands[0].type, op.results[0].type

    @staticmethod
    def tensor_axis(op: ir.Operation, name: str, rank: int) -> int:
        axis = _int_attr(op, name, "index")
        if axis < 0 or axis >= rank:
            raise _Invalid(f"{name} {axis} is out of range for a tensor of rank {rank}")
        return axis

    @staticmethod
    def same_shape(src, dst, *, element: bool) -> None:
        if not _compatible(_shape(src), _shape(dst)):
            raise _Invalid(
                f"result shape {_fmt_shape(_shape(dst))} must equal the input shape {_fmt_shape(_shape(src))}"
            )
        if element and src.element_type != dst.element_type:
            raise _Invalid(
                f"result element type {dst.element_type} must equal the input element type {src.element_type}"
            )

    @staticmethod
    def same_rank_and_element(src, dst, *, element: bool = True) -> None:
        if src.rank != dst.rank:
            raise _Invalid(f"result rank {dst.rank} must equal the input rank {src.rank}")
        if element and src.element_type != dst.element_type:
            raise _Invalid(
                f"result element type {dst.element_type} must equal the input element type {src.element_type}"
            )

    @staticmethod
    def resized(src, dst, axis: int, group: int | None, *, grow: bool, what: str) -> None:
        """`dst` equals `src` except along `axis`, multiplied (grow) or
        divided by the group size. A static result size that a `?` input
        size or group size leaves unknowable is refused, as upstream does."""
        s, d = _shape(src), _shape(dst)
        for i, (a, b) in enumerate(zip(s, d)):
            if i == axis or b is None:
                continue
            _unknowable(i, b, input_dynamic=a is None, group_dynamic=False)
            if a != b:
                raise _Invalid(f"result dimension {i} must equal the input dimension {a}, got {b}")
        a, b = s[axis], d[axis]
        if b is not None:
            _unknowable(axis, b, input_dynamic=a is None, group_dynamic=group is None)
        if group is None or a is None:
            return
        if grow:
            want = a * group
        else:
            if a % group:
                raise _Invalid(
                    f"input dimension {axis} of size {a} is not divisible by the {group} devices of the group ({what})"
                )
            want = a // group
        if b is not None and b != want:
            raise _Invalid(
                f"result dimension {axis} must be {want} ({a} {'*' if grow else '/'} {group} devices), got {b}"
            )

    def in_group_index(self, op: ir.Operation, mesh: MeshInfo, axes: list[int], name: str) -> None:
        static = _i64_list_attr(op, name)
        spec = OPS_BY_NAME[op.name]
        n_dynamic = len(op.operands) - sum(not o.variadic for o in spec.operands)
        self._check_dynamic(static, n_dynamic, name)
        if len(static) != len(axes):
            raise _Invalid(f"{name} has {len(static)} entries but mesh_axes has {len(axes)}")
        for a, v in zip(axes, static):
            if v == DYNAMIC:
                continue
            size = mesh.shape[a]
            if v < 0 or (size is not None and v >= size):
                raise _Invalid(
                    f"{name} index {v} is out of range for mesh axis {a} of size {'?' if size is None else size}"
                )

    def verify_all_gather(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_rank_and_element(src, dst)
        axis = self.tensor_axis(op, "gather_axis", src.rank)
        self.resized(src, dst, axis, mesh.group_size(axes), grow=True, what="gather_axis")

    def verify_all_slice(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_rank_and_element(src, dst)
        axis = self.tensor_axis(op, "slice_axis", src.rank)
        self.resized(src, dst, axis, mesh.group_size(axes), grow=False, what="slice_axis")

    def verify_all_to_all(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_rank_and_element(src, dst)
        split = self.tensor_axis(op, "split_axis", src.rank)
        concat = self.tensor_axis(op, "concat_axis", src.rank)
        group = mesh.group_size(axes)
        s, d = _shape(src), _shape(dst)
        for i, (a, b) in enumerate(zip(s, d)):
            if b is None:
                continue
            resized = split != concat and i in (split, concat)
            _unknowable(i, b, input_dynamic=a is None, group_dynamic=resized and group is None)
            want = a
            if group is None:
                pass  # only dimensions the group does not resize get here
            elif i == split and i != concat:
                if a % group:
                    raise _Invalid(
                        f"input dimension {i} of size {a} is not divisible by the {group} devices "
                        "of the group (split_axis)"
                    )
                want = a // group
            elif i == concat and i != split:
                want = a * group
            if b != want:
                raise _Invalid(f"result dimension {i} must be {want}, got {b}")

    def verify_all_reduce(self, op: ir.Operation) -> None:
        self.collective(op)
        src, dst = self.io(op)
        self.same_shape(src, dst, element=False)

    def verify_reduce(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_shape(src, dst, element=False)
        self.in_group_index(op, mesh, axes, "root")

    def verify_broadcast(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_shape(src, dst, element=True)
        self.in_group_index(op, mesh, axes, "root")

    def verify_gather(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_rank_and_element(src, dst)
        axis = self.tensor_axis(op, "gather_axis", src.rank)
        self.resized(src, dst, axis, mesh.group_size(axes), grow=True, what="gather_axis")
        self.in_group_index(op, mesh, axes, "root")

    def verify_scatter(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_rank_and_element(src, dst)
        axis = self.tensor_axis(op, "scatter_axis", src.rank)
        self.resized(src, dst, axis, mesh.group_size(axes), grow=False, what="scatter_axis")
        self.in_group_index(op, mesh, axes, "root")

    def verify_reduce_scatter(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_rank_and_element(src, dst, element=False)
        axis = self.tensor_axis(op, "scatter_axis", src.rank)
        self.resized(src, dst, axis, mesh.group_size(axes), grow=False, what="scatter_axis")

    def verify_send(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_shape(src, dst, element=True)
        self.in_group_index(op, mesh, axes, "destination")

    def verify_recv(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_shape(src, dst, element=True)
        if "source" in op.attributes:
            self.in_group_index(op, mesh, axes, "source")
        elif len(op.operands) > 1:
            raise _Invalid(f"has {len(op.operands) - 1} dynamic source operands but no source attribute")

    def verify_shift(self, op: ir.Operation) -> None:
        mesh, axes = self.collective(op)
        src, dst = self.io(op)
        self.same_shape(src, dst, element=True)
        shift_axis = _int_attr(op, "shift_axis", "index")
        _int_attr(op, "offset", "i64")
        _unit_attr(op, "rotate")
        if shift_axis not in axes:
            raise _Invalid(f"shift_axis {shift_axis} must be one of mesh_axes {list(axes)}")

    def verify_update_halo(self, op: ir.Operation) -> None:
        mesh = self.mesh_of(op)
        split_axes = _split_axes_attr(op)
        source, destination = op.operands[0], op.operands[1]
        src = _tensor_type(source, "source", memref_ok=True, nonzero=True)
        dst = _tensor_type(destination, "destination", memref_ok=True, nonzero=True)
        if op.results[0].type != dst:
            raise _Invalid(f"result type {op.results[0].type} must equal the destination type {dst}")
        self.same_rank_and_element(src, dst)
        used: set[int] = set()
        for axes in split_axes:
            for a in axes:
                if a < 0 or a >= mesh.rank:
                    raise _Invalid(f"mesh axis {a} is out of range for mesh @{mesh.name} of rank {mesh.rank}")
                if a in used:
                    raise _Invalid(f"mesh axis {a} appears more than once in split_axes")
                used.add(a)
        if len(split_axes) > src.rank:
            raise _Invalid(f"split_axes has {len(split_axes)} tensor dimensions but the source has rank {src.rank}")
        segments = self._segments(op, 4)
        src_halo = _i64_list_attr(op, "static_source_halo_sizes")
        dst_halo = _i64_list_attr(op, "static_destination_halo_sizes")
        self._check_dynamic(src_halo, segments[2], "source_halo_sizes")
        self._check_dynamic(dst_halo, segments[3], "destination_halo_sizes")
        src_pairs = _halo_pairs(split_axes, _dims(src_halo), "source_halo_sizes") if src_halo else {}
        dst_pairs = _halo_pairs(split_axes, _dims(dst_halo), "destination_halo_sizes") if dst_halo else {}
        s, d = _shape(src), _shape(dst)
        for dim in range(src.rank):
            halo_s = src_pairs.get(dim, (0, 0))
            halo_d = dst_pairs.get(dim, (0, 0))
            values = (s[dim], d[dim], *halo_s, *halo_d)
            if any(v is None for v in values):
                continue
            core_s = s[dim] - halo_s[0] - halo_s[1]
            core_d = d[dim] - halo_d[0] - halo_d[1]
            if core_s != core_d:
                raise _Invalid(
                    f"destination dimension {dim} of size {d[dim]} must hold the source's {core_s} elements "
                    f"plus its halos {halo_d[0]} and {halo_d[1]}, got {core_d} elements"
                )


def _unknowable(dim: int, size: int, *, input_dynamic: bool, group_dynamic: bool) -> None:
    """A static result dimension computed from a `?` cannot be checked and
    may be wrong at run time: it must be `?` too."""
    if input_dynamic:
        raise _Invalid(
            f"result dimension {dim} must be dynamic (?) because input dimension {dim} is dynamic, got {size}"
        )
    if group_dynamic:
        raise _Invalid(
            f"result dimension {dim} must be dynamic (?) because the group size over mesh_axes is dynamic, got {size}"
        )


def _halo_pairs(split_axes, halos: Sequence[int | None], what: str) -> dict[int, tuple[int | None, int | None]]:
    """The (low, high) halo of each sharded tensor dimension: two entries for
    every dimension with split axes, in order (as upstream counts them)."""
    sharded = [dim for dim, axes in enumerate(split_axes) if axes]
    if len(halos) != 2 * len(sharded):
        raise _Invalid(f"{what} needs 2 entries per sharded tensor dimension ({2 * len(sharded)}), got {len(halos)}")
    for h in halos:
        if h is not None and h < 0:
            raise _Invalid(f"halo sizes must be non-negative, got {h}")
    return {dim: (halos[2 * i], halos[2 * i + 1]) for i, dim in enumerate(sharded)}


def _compatible(a: Shape, b: Shape) -> bool:
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def _trim(split_axes: list[list[int]]) -> list[list[int]]:
    """Trailing empty entries of split_axes do not change the sharding."""
    out = list(split_axes)
    while out and not out[-1]:
        out.pop()
    return out


def _layout(attr: ir.Attribute) -> ShardingInfo | str:
    """A function layout's content (its mesh unchecked), or its text when
    it is not a #mesh.sharding; decoded once per attribute."""
    found = _LAYOUTS.values.get(attr)
    if found is not None:
        return found
    raw = str(attr)
    try:
        mesh, split, partial_axes, kind, halos, offsets = decode_sharding_attr(raw)
    except Unprintable:
        return _LAYOUTS.add(attr, raw, attr.context)
    info = ShardingInfo(
        mesh[1:],
        tuple(tuple(a) for a in _trim(split)),
        tuple(sorted(partial_axes)),
        kind if partial_axes else None,
        _dims(halos),
        _dims(offsets),
        (),
    )
    return _LAYOUTS.add(attr, info, attr.context)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The checks allocate many small objects that live until the end: the
    collector's passes over them would cost as much as the checks."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _operation(root: ir.Operation | ir.OpView) -> ir.Operation:
    return root.operation if hasattr(root, "operation") else root


def check(
    root: ir.Operation | ir.OpView, op_order: tuple[list[str], list[object | None]] | None = None
) -> list[Violation]:
    """All rule violations under `root`, in op order. `op_order` is
    `Translation.op_order()` of the text `root` was just parsed from: ops
    filled in from one line template are then checked once."""
    return _Verifier(op_order).run(_operation(root))


def check_module(root: ir.Operation | ir.OpView) -> tuple[list[Violation], Checked]:
    """`check`, and what a later `check_changed` of the same module needs."""
    verifier = _Verifier()
    violations = verifier.run(_operation(root))
    assert verifier.checked is not None
    return violations, verifier.checked


def check_changed(ops: Iterable[ir.Operation | ir.OpView], checked: Checked) -> list[Violation] | None:
    """The violations among `ops` of a module that was valid when `checked`
    was made and has changed only in `ops` since; None when a mesh or a
    module is among them (check the whole module then). The annotations
    that read a `mesh.sharding` op of `ops` are checked too; other ops
    whose operands changed type or definition must be in `ops`."""
    return _Verifier().run_changed([_operation(op) for op in ops], checked)


def verify(
    root: ir.Operation | ir.OpView, remap=None, op_order: tuple[list[str], list[object | None]] | None = None
) -> list[Diagnostic]:
    """The violations as `Diagnostic`s with positions in the user's text
    (`op_order` as in `check`)."""
    from .asm import remapper

    remap = remap or remapper(root.context)
    out = []
    for v in check(root, op_order):
        notes = tuple(Diagnostic("note", msg, *remap(*file_position(loc))) for loc, msg in v.notes)
        out.append(Diagnostic("error", v.message, *remap(*file_position(v.location)), notes=notes))
    return out


def report(violations: list[Violation]) -> bool:
    """Report `violations` through MLIR's diagnostic engine, as a pass
    must; True when there are none. (The C API cannot attach notes.)"""
    for v in violations:
        v.location.emit_error(v.message)
    return not violations


def emit(root: ir.Operation | ir.OpView) -> bool:
    """Check `root` and `report` the violations; True when there were none."""
    return report(check(root))


def _defines_mesh_within(op: ir.Operation, name: str) -> bool:
    """Whether a `mesh.mesh @name` lies in `op`'s regions (read only to
    explain an unresolved name: a function's argument layouts resolve
    meshes from outside the function)."""
    found = False

    def visit(inner: ir.Operation) -> ir.WalkResult:
        nonlocal found
        if inner.name == "mesh.mesh" and _symbol_or_none(inner.attributes["sym_name"]) == name:
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    op.walk(visit, ir.WalkOrder.PRE_ORDER)  # (the walk starts at `op`, which names the mesh and is no mesh.mesh)
    return found
