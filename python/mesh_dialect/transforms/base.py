"""What every Python pass of this project shares.

A pass is a small dataclass whose fields are its options. It can be added to
any `mlir.passmanager.PassManager` (`pass_.add_to(pm)`), where it runs on the
`builtin.module` it is given. Errors go through MLIR's diagnostic engine so
the pass manager fails as it would for a C++ pass; warnings and remarks,
which the Python API cannot emit, are kept in `diagnostics`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import re
import traceback
import types
import typing
from typing import ClassVar

from mlir import ir
from mlir.passmanager import PassManager

from ..ir import diagnostics as diag
from ..ir import ops as mesh_ops
from ..ir import verifier
from ..ir.asm import remap_location
from ..ir.diagnostics import Diagnostic
from ..ir.signature import ContextCache, op_address
from ..sharding.spec import Sharding

REDUCED_ATTR = "mesh.reduced"
"""A function result attribute: the caller takes this result reduced, so
partition all-reduces it in front of the return when the plan leaves it
partial (`import-shardings` marks JAX results that name no sharding)."""
LOCAL_MESH = "the passes read meshes defined at module level, not in a function body"
"""Why a mesh the verifier resolves (one declared in a function) is unknown
to a pass: `mesh_scopes` reads the modules'."""


def redefined_mesh(op: ir.Operation, meshes: dict[str, tuple[int, ...]]) -> str | None:
    """Why a `mesh.mesh` in a function body is refused, when it takes the
    name of one of the module's `meshes`: the verifier resolves the
    function's uses to it, the passes to the module's.  None otherwise."""
    name = op.attributes["sym_name"].value
    if name not in meshes:
        return None
    return f"mesh @{name} of the module is defined again in a function body: {LOCAL_MESH}"


def mesh_scopes(module: ir.Operation) -> list[tuple[dict[str, tuple[int, ...]], list[ir.Operation]]]:
    """The functions with a body grouped by the op that holds them (a module,
    nested ones too), each group with the meshes that op holds: a mesh
    symbol is looked up in the nearest symbol table, so two nested modules
    may each define their own `@mesh`.  Groups come in program order."""
    meshes: dict[ir.Operation, dict[str, tuple[int, ...]]] = {}
    groups: dict[ir.Operation, list[ir.Operation]] = {}

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "func.func":
            if len(op.regions[0].blocks):
                groups.setdefault(op.parent.operation, []).append(op)
            return ir.WalkResult.SKIP
        if op.name == "mesh.mesh":
            name, shape = _mesh_entry(op)
            meshes.setdefault(op.parent.operation, {})[name] = shape
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    for holder in groups:
        if holder not in meshes and module.name != "builtin.module":
            # a pass run on a function (as upstream's are): its module's meshes
            found = meshes[holder] = {}
            for k in range(len(holder.regions)):
                for block in holder.regions[k].blocks:
                    for op in block.operations:
                        if op.operation.name == "mesh.mesh":
                            name, shape = _mesh_entry(op.operation)
                            found[name] = shape
    return [(meshes.get(holder, {}), functions) for holder, functions in groups.items()]


def _mesh_entry(op: ir.Operation) -> tuple[str, tuple[int, ...]]:
    """A `mesh.mesh`'s name and shape (schema.DYNAMIC for a dynamic size)."""
    return op.attributes["sym_name"].value, tuple(int(d) for d in op.attributes["shape"])


def _ops_within(op: ir.Operation) -> list[ir.Operation]:
    """`op` and every op in its regions."""
    found: list[ir.Operation] = []

    def visit(inner: ir.Operation) -> ir.WalkResult:
        found.append(inner)
        return ir.WalkResult.ADVANCE

    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def one_line(e: BaseException) -> str:
    """`Type: message` of an exception, on one line. An exception raised
    inside a callback the bindings called (a walk) comes back as a
    RuntimeError carrying the whole traceback as text: keep its last line,
    the original exception."""
    detail = "".join(traceback.format_exception_only(type(e), e)).strip()
    if isinstance(e, RuntimeError) and "Traceback (most recent call last)" in detail:
        lines = [line for line in detail.splitlines() if line.strip()]
        detail = lines[-1].strip() if lines else detail
    return detail


_SHARDINGS: ContextCache[tuple[str, Sharding, bool]] = ContextCache()
"""`sharding_of`'s answers by the `mesh.sharding` op's attributes, which
determine them (the dynamic operands' count is in operandSegmentSizes)."""


def sharding_of(value: ir.Value) -> tuple[str, Sharding, bool] | None:
    """(mesh, layout, dynamic) of the `mesh.sharding` op that defines
    `value`, or None when it comes from elsewhere.  Dynamic halo sizes or
    offsets stay in the layout as schema.DYNAMIC; `dynamic` says there are
    some, for passes that need sizes.  Read once per distinct op content."""
    owner = value.owner
    view = owner.opview if isinstance(owner, ir.Operation) else owner
    if not isinstance(view, mesh_ops.ShardingOp):
        return None
    key = tuple(view.operation.attributes.items())
    found = _SHARDINGS.values.get(key)
    if found is not None:
        return found
    layout = Sharding(
        view.split_axes,
        view.partial_axes,
        view.partial_type or "sum",
        view.static_halo_sizes,
        view.static_sharded_dims_offsets,
    )
    dynamic = bool(len(view.dynamic_halo_sizes) or len(view.dynamic_sharded_dims_offsets))
    return _SHARDINGS.add(key, (view.mesh, layout, dynamic), view.context)


def symbol_names(block: ir.Block) -> set[str]:
    """The names the ops of `block` define (a symbol table's entries)."""
    names = set()
    for op in block.operations:
        attrs = op.operation.attributes
        if "sym_name" in attrs and isinstance(attrs["sym_name"], ir.StringAttr):
            names.add(ir.StringAttr(attrs["sym_name"]).value)
    return names


def fresh_name(base: str, taken: set[str]) -> str:
    """`base`, else the first of `base_1`, `base_2`, ... not in `taken`."""
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}_{i}"
    return name


def element_bytes(t: ir.Type) -> int:
    """Bytes of one element of a shaped type (complex: both parts; index: 64
    bits; anything without a width counts as 4 bytes)."""
    element = ir.ShapedType(t).element_type
    return max(1, (_bit_width(element) + 7) // 8)


def _bit_width(element: ir.Type) -> int:
    if isinstance(element, ir.ComplexType):
        return 2 * _bit_width(element.element_type)
    if isinstance(element, ir.IndexType):
        return 64
    if isinstance(element, ir.IntegerType | ir.FloatType):
        return int(element.width)
    return 32


class PassFailed(Exception):
    """Raised inside `run` to stop the pass; the error is already reported."""


class OptionError(ValueError):
    """A pass option that does not exist or does not parse."""


@dataclasses.dataclass
class Pass:
    ARGUMENT: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""
    STATISTICS: ClassVar[dict[str, str]] = {}
    """Counters the pass keeps (`count`), name -> description, as MLIR's
    pass statistics: `mesh-opt --mlir-pass-statistics` shows them."""

    def __post_init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.statistics: dict[str, int] = dict.fromkeys(self.STATISTICS, 0)
        # The ops this run created or changed, by address (see
        # `record_changes`); None: unknown, the whole module may have changed.
        self.changed: dict[int, ir.Operation] | None = None
        for f in self.options():
            _check_option_type(self.ARGUMENT, f, getattr(self, f.name))

    # -- what a pass implements ------------------------------------------

    def run(self, module: ir.Operation) -> None:
        raise NotImplementedError

    # -- reporting -------------------------------------------------------

    def error(self, location: ir.Location, message: str) -> PassFailed:
        """Report an error; `raise self.error(...)` stops the pass."""
        location.emit_error(message)
        return PassFailed(message)

    def remark(self, location: ir.Location, message: str) -> None:
        self._keep("remark", location, message)

    def warning(self, location: ir.Location, message: str) -> None:
        self._keep("warning", location, message)

    def _keep(self, severity: str, location: ir.Location, message: str) -> None:
        self.diagnostics.append(Diagnostic(severity, message, *remap_location(location)))

    # -- statistics -----------------------------------------------------------

    def count(self, name: str, n: int = 1) -> None:
        """Add `n` to counter `name` (one of STATISTICS); it adds up over runs."""
        if name not in self.STATISTICS:
            raise KeyError(f"pass '{self.ARGUMENT}' has no statistic '{name}'")
        self.statistics[name] += n

    def statistics_lines(self, indent: str) -> list[str]:
        """The counters as MLIR prints a pass's statistics: `(S) value name -
        description`, values aligned."""
        width = max((len(str(v)) for v in self.statistics.values()), default=0)
        return [
            f"{indent}(S) {self.statistics[name]:>{width}} {name} - {text}" for name, text in self.STATISTICS.items()
        ]

    # -- what a run changed -------------------------------------------------
    #
    # The verifier that runs after a pass checks only the ops the pass says
    # it created or changed, when it says so; otherwise the whole module.
    # A pass that says so calls `record_changes()` at the start of `run`,
    # then for every op it leaves different: `mark_created` for an op it
    # built (its regions' ops included), `mark_changed` for an op whose
    # attributes, result types, operands or place it changed, and
    # `replace_all_uses` / `set_type` (which mark the ops reading the value)
    # instead of the `ir.Value` methods. It erases ops with `erase`, never
    # `op.erase()`: an erased op must not stay recorded (its memory is
    # freed). Creating, changing or erasing a `mesh.mesh` makes the verifier
    # check everything, as does `record_everything()`.

    def record_changes(self) -> None:
        """Start recording what this run changes."""
        self.changed = {}

    def record_everything(self) -> None:
        """Stop recording: the verifier after the pass checks the whole module."""
        self.changed = None

    def mark_changed(self, *ops: ir.Operation | ir.OpView) -> None:
        """Ops whose attributes, result types, operands or place changed."""
        if self.changed is not None:
            for op in ops:
                op = op.operation
                self.changed[op_address(op)] = op

    def mark_created(self, op: ir.Operation | ir.OpView) -> None:
        """An op this run built, with every op in its regions."""
        if self.changed is not None:
            self.mark_changed(*_ops_within(op.operation))

    def mark_users_changed(self, value: ir.Value) -> None:
        """The ops reading `value`, after its type or definition changed."""
        if self.changed is not None:
            self.mark_changed(*(use.owner for use in value.uses))

    def replace_all_uses(self, old: ir.Value, new: ir.Value) -> None:
        """`old.replace_all_uses_with(new)`, its users marked changed."""
        self.mark_users_changed(old)
        old.replace_all_uses_with(new)

    def set_type(self, value: ir.Value, type_: ir.Type) -> None:
        """`value.set_type(type_)`, its op (for a result) and users marked changed."""
        value.set_type(type_)
        if self.changed is not None:
            owner = value.owner
            if not isinstance(owner, ir.Block):
                self.mark_changed(owner)
            self.mark_users_changed(value)

    def erase(self, op: ir.Operation | ir.OpView) -> None:
        """Erase `op`, forgetting it and the ops in its regions."""
        op = op.operation
        if self.changed is not None:
            within = _ops_within(op)
            if any(o.name == "mesh.mesh" for o in within):
                self.changed = None
            else:
                for o in within:
                    self.changed.pop(op_address(o), None)
        op.erase()

    def changed_ops(self) -> list[ir.Operation] | None:
        """What the last run recorded, in order; None when unknown."""
        return None if self.changed is None else list(self.changed.values())

    # -- running under a PassManager -------------------------------------

    @property
    def name(self) -> str:
        return type(self).__name__

    def __call__(self, op: ir.Operation, pass_) -> None:
        """The callable a PassManager runs. Exceptions never escape into C++:
        they become an error at the module's location."""
        op = op.operation if hasattr(op, "operation") else op
        self.changed = None  # until `run` records
        self.diagnostics = []  # this run's only: a pass manager may run it on many modules
        # A pass allocates many small objects that all live until it ends:
        # the collector's passes over them cost about a fifth of the time.
        collecting = gc.isenabled()
        gc.disable()
        try:
            with _entered(op.context):
                self.run(op)
        except PassFailed:
            self.changed = None
            pass_.signal_pass_failure()
        except Exception as e:  # noqa: BLE001 - report instead of crashing the host
            self.changed = None
            # (the registry is imported here: a pass that asks no rule never loads it)
            from ..interfaces.registry import RuleError

            if isinstance(e, RuleError):  # a user's rule, reported at its op
                e.location.emit_error(str(e))
            elif diag.text_refused(e) and (found := diag.non_utf8_attribute(op)) is not None:
                found[0].location.emit_error(diag.non_utf8_message(f"pass '{self.ARGUMENT}'", found[1]))
            else:
                op.location.emit_error(f"internal error in pass '{self.ARGUMENT}': {one_line(e)}")
            pass_.signal_pass_failure()
        finally:
            if collecting:
                gc.enable()

    def add_to(self, pm: PassManager) -> None:
        pm.add(self, name=self.name, argument=self.ARGUMENT, description=self.SUMMARY)

    # -- options -----------------------------------------------------------

    @classmethod
    def options(cls) -> list[dataclasses.Field]:
        return [f for f in dataclasses.fields(cls) if f.init]

    @classmethod
    def from_options(cls, text: str) -> Pass:
        """Build from `key=value key2=value` (MLIR's pass-option syntax)."""
        fields = {f.name.replace("_", "-"): f for f in cls.options()}
        values = {}
        for item in option_items(text, f"pass '{cls.ARGUMENT}'"):
            key, eq, raw = item.partition("=")
            if len(raw) >= 2 and raw[0] + raw[-1] in ('""', "''", "{}"):
                raw = raw[1:-1]  # quoted (or braced) as mlir-opt takes a value holding spaces
            field = fields.get(key) or fields.get(key.replace("_", "-"))
            if field is None:
                known = ", ".join(sorted(fields)) or "none"
                raise OptionError(f"pass '{cls.ARGUMENT}' has no option '{key}' (options: {known})")
            values[field.name] = _convert(cls.ARGUMENT, field, raw if eq else "true")
        return cls(**values)

    def describe_options(self) -> str:
        return " ".join(f"{f.name.replace('_', '-')}={_show(getattr(self, f.name))}" for f in self.options())


def option_items(text: str, owner: str) -> list[str]:
    """The `key=value` items of an options text (`solver=cost explain`);
    OptionError names `owner` (`pass 'x'`) when the text is not such items."""
    items, end = [], 0
    for m in _OPTION_ITEM.finditer(text):
        if text[end : m.start()].strip():
            break
        items.append(m.group())
        end = m.end()
    if text[end:].strip():
        at = end + len(text[end:]) - len(text[end:].lstrip())
        raise OptionError(
            f"cannot read the options of {owner}: unexpected {text[at]!r} at column {at + 1} "
            f"of '{text}' (expected key=value items, a value with blanks quoted or braced)"
        )
    return items


_OPTION_ITEM = re.compile(r"""(?:"[^"]*"|'[^']*'|\{[^{}]*\}|[^\s"'{])+""")
"""One `key=value` of a pass's options: a quoted or braced value may hold
spaces."""


def _entered(context: ir.Context) -> contextlib.AbstractContextManager:
    """`context` and a location in it made current while a pass runs: a
    caller's PassManager may run outside `with ctx:`, and the bindings'
    builders need both. A location the caller made current in this context
    is kept, so ops built without `loc=` get the same location either way."""
    location = ir.Location.current
    if location is not None and location.context == context:
        if ir.Context.current == context:
            return contextlib.nullcontext()
        return location  # entering a location makes its context current too
    return ir.Location.unknown(context)


_OPTION_TYPES = {"bool": bool, "int": int, "float": float, "str": str}
_NONE_NAMES = ("None", "NoneType", "type(None)")


def _option_kind(field: dataclasses.Field) -> tuple[str, bool]:
    """The option's type as a name (`bool`, `int`, `float`, `str`, or
    whatever else it is spelled) and whether it may be None: `int | None`,
    `Optional[int]`, written as a type or as a string (`from __future__
    import annotations`)."""
    kind = field.type
    if not isinstance(kind, str):
        members = typing.get_args(kind) if typing.get_origin(kind) in (typing.Union, types.UnionType) else ()
        if members:
            names = [getattr(m, "__name__", str(m)) for m in members]
        else:
            names = [getattr(kind, "__name__", str(kind))]
    else:
        text = kind.strip()
        optional = re.fullmatch(r"(?:typing\.)?Optional\[(.*)\]", text)
        names = [optional.group(1).strip(), "None"] if optional else [t.strip() for t in text.split("|")]
    rest = [n for n in names if n not in _NONE_NAMES]
    return (rest[0] if len(rest) == 1 else " | ".join(rest)), len(rest) < len(names)


def _check_option_type(argument: str, field: dataclasses.Field, value) -> None:
    """Options built from Python get the checks the CLI's parsing gives:
    `dce="no"` would otherwise be truthy and silently keep dce on."""
    kind, optional = _option_kind(field)
    expected = _OPTION_TYPES.get(kind)
    if expected is None or (optional and value is None):
        return
    # an int is a float, as in Python's typing; a bool is neither
    allowed = (int, float) if expected is float else expected
    ok = isinstance(value, allowed) and not (expected in (int, float) and isinstance(value, bool))
    if not ok:
        wanted = f"{'an' if kind == 'int' else 'a'} {kind}" + (" or None" if optional else "")
        raise OptionError(
            f"option '{field.name.replace('_', '-')}' of pass '{argument}' must be {wanted}, got {value!r}"
        )
    least = field.metadata.get("min")
    if least is not None and value < least:
        raise OptionError(
            f"option '{field.name.replace('_', '-')}' of pass '{argument}' must be at least {least}, got {value!r}"
        )
    choices = field.metadata.get("choices")
    if choices is not None and value not in choices:
        raise OptionError(
            f"option '{field.name.replace('_', '-')}' of pass '{argument}' must be one of {', '.join(choices)}, "
            f"got {value!r}"
        )


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _convert(argument: str, field: dataclasses.Field, raw: str):
    """The value of an option written `raw` in pipeline text. For an
    optional option (`int | None`), `none` or nothing is None, except for
    a `str | None`, whose text is always the string."""
    option = field.name.replace("_", "-")
    kind, optional = _option_kind(field)
    choices = field.metadata.get("choices")
    if choices is not None:
        if raw not in choices:
            raise OptionError(
                f"option '{option}' of pass '{argument}' must be one of {', '.join(choices)}, got '{raw}'"
            )
        return raw
    if optional and kind != "str" and raw.strip().lower() in ("", "none"):
        return None
    if kind == "bool":
        if raw.lower() in ("true", "1", "on"):
            return True
        if raw.lower() in ("false", "0", "off"):
            return False
        raise OptionError(f"option '{option}' of pass '{argument}' must be true or false, got '{raw}'")
    if kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise OptionError(f"option '{option}' of pass '{argument}' must be an integer, got '{raw}'") from None
    if kind == "float":
        try:
            return float(raw)
        except ValueError:
            raise OptionError(f"option '{option}' of pass '{argument}' must be a number, got '{raw}'") from None
    return raw


@dataclasses.dataclass
class VerifyMesh(Pass):
    """Runs the dialect's semantic verifier; the driver adds it after every
    pass, as MLIR verifies after every pass.

    Given the pass it follows (`after`) and the check before that pass
    (`previous`, which found the module valid), it checks only the ops that
    pass recorded (see `Pass.record_changes`). When the pass did not
    record, or a recorded op breaks a rule, it checks the whole module, so
    it reports exactly what a whole check reports."""

    ARGUMENT: ClassVar[str] = "mesh-verify"
    SUMMARY: ClassVar[str] = "Check the semantic rules of the mesh dialect"

    def __post_init__(self) -> None:
        super().__post_init__()
        self.after: Pass | None = None
        self.previous: VerifyMesh | None = None
        self.checked: verifier.Checked | None = None  # after a run that found no violation

    def run(self, module: ir.Operation) -> None:
        self.record_changes()  # checking changes nothing
        known = None
        if self.previous is not None:
            known, self.previous.checked = self.previous.checked, None  # only this check reads it
        self.checked = None
        ops = self.after.changed_ops() if self.after is not None else None
        if known is not None and ops is not None and known.root == module:
            if verifier.check_changed(ops, known) == []:
                self.checked = known
                return
        violations, checked = verifier.check_module(module)
        if not verifier.report(violations):
            raise PassFailed("verification failed")
        self.checked = checked
