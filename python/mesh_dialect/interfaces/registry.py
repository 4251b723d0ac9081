"""Sharding rules of real ops, looked up by op name.

Upstream MLIR attaches the sharding interface to op classes in C++; here a
rule is a Python function of the op, so ops of any dialect, registered or
not (`mhlo`/`stablehlo` in generic form), get one without touching their
definition, and users add their own with `register_rule`.

Built in: every linalg structured op (from its indexing maps and body; an
input read through a window, `S*i + D*k + c` as in a convolution, a pooling
or a stencil, splits its output loop i with halos), `arith`/`math` ops on
ranked tensors, `arith.constant`, `tensor.empty`, `tensor.splat`, tosa
elementwise ops (with size-1 broadcasting), `tosa.matmul`, `tosa.reduce_*`,
`tosa.transpose`, `tosa.const`, tosa's windowed ops (`conv2d`, `conv3d`,
`depthwise_conv2d`, `max_pool2d`, `avg_pool2d`), `func.return` and
`func.call` (which constrain nothing), the `mhlo`/`stablehlo`
ops `dot_general`, `dot`, elementwise ops (`compare`, `select`, `convert`,
`clamp`, `reduce_precision` among them; `bitcast_convert` between
element types of one width), `constant`, `iota`,
`broadcast_in_dim`, `transpose`, `reshape`, `reduce`, `concatenate`,
`slice`, `dynamic_slice`, `dynamic_update_slice` and `pad`, and chlo's
elementwise ops.  A rule function returns None for a form it does
not understand (an unranked tensor, a missing attribute), so `rule_for` never
guesses.
"""

from __future__ import annotations

import dataclasses
import io
import math
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from mlir import ir

from ..ir.hlo import (
    FLIPPED,
    MAX_LIST_ENTRIES,
    MISFIT,
    ConvDimensions,
    MalformedDimensions,
    OversizedList,
    bools_of,
    comparison_direction,
    comparison_type,
    conv_dimensions,
    dot_dimensions,
    gather_dimensions,
    gather_problem,
    int_list,
    scatter_dimensions,
    scatter_problem,
)
from ..ir.linalg_ops import get_indexing_maps
from ..ir.per_device import SOURCES as PER_DEVICE_SOURCES
from ..ir.signature import attribute_items, attribute_or_text, op_signature, read_signature
from ..ir.types import float_zero, integer_value, is_boolean
from ..ir.uniform import readable_attr
from .linear import LINEAR_BODY_OPS, generic_terms
from .rules import INVALID, SELECT, Crop, DimExpr, Iterator, Scan, ShardingRule, TensorMap, Window

RuleFn = Callable[[ir.Operation], ShardingRule | None]

_RULES: dict[str, RuleFn] = {}


def register_rule(name: str, fn: RuleFn | None) -> RuleFn | None:
    """Use `fn` for ops named `name` (None removes the entry); returns the
    function it replaces, so a caller can restore it.  An exact name wins
    over the built-in families (`linalg.*`, `arith.*`, `math.*`)."""
    previous = _RULES.get(name)
    if fn is None:
        _RULES.pop(name, None)
    else:
        _RULES[name] = fn
    _RULE_FNS.clear()
    _NAME_FACTS.clear()
    return previous


def registered_names() -> list[str]:
    """Op names with a rule of their own (the families come on top)."""
    return sorted(_RULES)


def knows(name: str) -> bool:
    """Whether some rule (the op's own or its dialect's) is asked about ops
    named `name`: when it still gives none, the op's form is what it does
    not cover (a reshape of dynamic sizes, say), not its name."""
    return _rule_fn(name) is not None


def built_in(name: str) -> bool:
    """Whether ops named `name` take a built-in rule, which `RuleCache`
    memoizes per signature (a registered one is asked for every op)."""
    return _rule_fn(name) in _LOCAL


def rule_for(op: ir.Operation | ir.OpView) -> ShardingRule | None:
    """The op's sharding rule, or None when no rule knows it."""
    operation = op.operation if isinstance(op, ir.OpView) else op
    name = operation.name
    fn = _rule_fn(name)
    if fn is None:
        return None
    if fn is _linalg:
        rule = fn(operation)
        return None if rule is None else fuse_pads(rule, _pads_read(rule, list(operation.operands)))
    return fn(operation) if fn in _LOCAL else _registered_rule(fn, operation, name)


def _rule_fn(name: str) -> RuleFn | None:
    """The rule function for ops named `name`: its own, else its family's."""
    try:
        return _RULE_FNS[name]
    except KeyError:
        fn = _RULES.get(name)
        found = _RULE_FNS[name] = fn if fn is not None else _FAMILIES.get(name.split(".", 1)[0])
        return found


_RULE_FNS: dict[str, RuleFn | None] = {}
"""`_rule_fn`'s answers per name, until `register_rule` changes one."""


class RuleCache:
    """`rule_for`, memoized per op signature.

    Real modules repeat a few op signatures thousands of times, and building
    a rule from IR costs about a hundred times more than recognizing its
    signature: the op's name, attributes, operand and result types, and for
    an op with a body of its own (`linalg.generic`, an hlo reduce), each
    body op's name, attributes and which body values it reads (of a linalg
    op without reduction loops, all its rule reads of the body is which
    loops `linalg.index` reads: the body op names suffice).  A named
    linalg op's body is implied by its name, attributes and types, so it is
    not read.  Attributes and types are uniqued by MLIR and compared by
    identity, so a cache must not outlive the context of the ops it saw:
    make one per run, or take the context's shared one (`shared`)."""

    def __init__(self) -> None:
        # key -> (rule, body reads a tensor, (operand types, result types) of
        # the key, body holds an op that may make a value differing between
        # devices: `ir.per_device`)
        self.rules: dict[tuple, tuple[ShardingRule | None, bool, tuple[tuple, tuple], bool]] = {}
        self.misses = 0
        # set by a lookup of an op whose body may make a value that differs
        # between devices (a device index read in a generic): a pass clears
        # it before reading a function's ops and asks it after
        self.varied = False
        self.parallel: dict[ir.Attribute, bool] = {}  # per iterator_types: no reduction loop
        self.unregistered: dict[str, bool] = {}  # per op name
        # Generics whose body is made of the ops a linear body is: per id of
        # their key's (operand types, result types), their `generic_terms`,
        # or None where the key does not say all that decides them (an
        # outside value `_body` names by its type): then each op is asked.
        self.linear_bodies: dict[int, tuple[tuple[int, ...], ...] | None] = {}
        # (id of a windowed linalg rule, `_pads_read`) -> (that rule, kept
        # alive, and the rule reading through those pads: `fuse_pads`)
        self.fused: dict[tuple, tuple[ShardingRule, ShardingRule]] = {}

    @classmethod
    def shared(cls, context: ir.Context) -> RuleCache:
        """The cache of `context`, kept while it is the latest context asked
        for, so that propagation and partition in one pipeline build each
        rule once.  It holds the context alive until another one asks."""
        global _SHARED
        if _SHARED is None or _SHARED[0] is not context:
            _SHARED = (context, cls())
        return _SHARED[1]

    def rule_for(
        self,
        op: ir.Operation,
        name: str | None = None,
        values: tuple[list[ir.Value], list[ir.Value]] | None = None,
    ) -> ShardingRule | None:
        """The op's rule; `name` is the op's name and `values` its
        (operands, results) lists when the caller has them."""
        return self.lookup(op, op.name if name is None else name, values)[0]

    def read_through(self, padded: ir.Value) -> bool:
        """Whether `padded`, a `tensor.pad`'s result, is read through by its
        one user (`fusible_pad`): a linalg op whose rule describes the pad's
        source there (`fuse_pads`).  False when that rule raises (the error
        is reported at the user, whose own lookup raises it again)."""
        if fusible_pad(padded) is None:
            return False
        use = next(iter(padded.uses))
        user = use.owner.operation
        if not user.name.startswith("linalg."):
            return False
        try:
            rule = self.rule_for(user)
        except RuleError:
            return False
        return rule is not None and use.operand_number in rule.fused

    def lookup(
        self,
        op: ir.Operation,
        name: str,
        values: tuple[list[ir.Value], list[ir.Value]] | None = None,
    ) -> tuple[ShardingRule | None, ir.Attribute | None, bool]:
        """The op's rule, and two facts its signature reads anyway (so the
        passes need not ask the bindings again): the op's
        `mesh.sharding_option` (None: it has none), and whether its body
        may read a tensor defined outside the op (False only when every
        value the body reads from outside is a scalar)."""
        rule, option, reads_outside, _ = self.lookup_typed(op, name, values)
        return rule, option, reads_outside

    def lookup_typed(
        self,
        op: ir.Operation,
        name: str,
        values: tuple[list[ir.Value], list[ir.Value]] | None = None,
    ) -> tuple[ShardingRule | None, ir.Attribute | None, bool, tuple[tuple, tuple] | None]:
        """`lookup`, and the op's (operand types, result types) as its key
        holds them: one pair of tuples per signature, so a caller keeps them
        per op for nothing and memoizes what it derives from them by their
        identity, instead of asking each value for its type again.  None for
        an op whose rule is registered (it has no key)."""
        facts = _NAME_FACTS.get(name)
        if facts is None or facts.unregistered is not self.unregistered:
            facts = _name_facts(op, name, self.unregistered)
        fn = facts.fn
        if not facts.built_in:
            attributes = op.attributes
            option = attributes[_IGNORED] if _IGNORED in attributes else None
            rule = None if fn is None else _registered_rule(fn, op, name)
            return rule, option, facts.keys_body and bool(len(op.regions)), None
        key, option, body = _signature(op, facts, values, self.parallel, self.unregistered)
        entry = self.rules.get(key)
        if entry is None:
            self.misses += 1
            try:
                made = fn(op)
            except OversizedList as e:
                raise RuleError(
                    op.location,
                    f"'{name}' has an integer list attribute of {e.count} entries, more than any op has dimensions "
                    f"(at most {MAX_LIST_ENTRIES})",
                ) from None
            except MalformedDimensions as e:
                raise RuleError(op.location, f"'{name}' {MISFIT}: {e}") from None
            entry = self.rules[key] = (
                made,
                body is not None and _reads_outside_tensor(body),
                (key[2], key[3]),
                body is not None and _body_may_vary(body),
            )
            if entry[0] is not None and name == "linalg.generic" and body is not None and _linear_names(body):
                self.linear_bodies[id(entry[2])] = generic_terms(op) if _keys_linear_reads(body) else None
        rule = entry[0]
        if entry[3]:
            self.varied = True
        if rule is not None and rule.windows and fn is _linalg:
            # an operand read through a window may be a pad the op reads
            # through (`fuse_pads`): the pad's facts complete the key
            pads = _pads_read(rule, list(op.operands) if values is None else values[0])
            if pads is not None:
                fused_key = (id(rule), pads)
                found = self.fused.get(fused_key)
                if found is None:
                    found = self.fused[fused_key] = (rule, fuse_pads(rule, pads))
                rule = found[1]
        return rule, option, entry[1], entry[2]


_SHARED: tuple[ir.Context, RuleCache] | None = None


class RuleError(Exception):
    """A rule registered with `register_rule` that raised, or returned
    what does not describe its op; `location` is the op's."""

    def __init__(self, location: ir.Location, message: str) -> None:
        super().__init__(message)
        self.location = location


def _registered_rule(fn: RuleFn, op: ir.Operation, name: str) -> ShardingRule | None:
    """A registered rule's answer for `op`, checked against the op's
    operands and results (the passes index its maps by them)."""
    where = f"the sharding rule registered for '{name}'"
    try:
        rule = fn(op)
    except Exception as e:  # noqa: BLE001 - the user's code: reported at the op
        raise RuleError(op.location, f"{where} raised {type(e).__name__}: {e}") from None
    if rule is None:
        return None
    if not isinstance(rule, ShardingRule):
        raise RuleError(op.location, f"{where} returned a {type(rule).__name__}, not a ShardingRule or None")
    if any(it.is_select for it in rule.iterators):
        # partition completes a split select loop only inside an hlo reduce
        raise RuleError(op.location, f"{where} has a '{SELECT}' loop, which only the built-in reduce rule may have")
    for side, maps, values in (("operand", rule.operand_maps, op.operands), ("result", rule.result_maps, op.results)):
        if len(maps) != len(values):
            raise RuleError(op.location, f"{where} maps {len(maps)} {side}s, the op has {len(values)}")
        for i, (m, v) in enumerate(zip(maps, values)):
            t = v.type
            rank = ir.RankedTensorType(t).rank if isinstance(t, ir.RankedTensorType) else None
            if m is not None and len(m) != rank:
                has = "is not a ranked tensor" if rank is None else f"has rank {rank}"
                raise RuleError(op.location, f"{where} maps {len(m)} dimensions of {side} {i}, which {has}")
    return rule


def properties_text(op: ir.Operation) -> str:
    """The op printed alone: an op of an unregistered dialect (stablehlo,
    mhlo in these bindings) keeps its `<{...}>` properties (a transpose's
    permutation, a dot's dimension numbers) out of `op.attributes`, which
    lists only its other attributes, so they enter the key as text.  A
    printing state local to the op numbers only its own results and
    regions' values, so equal ops print alike wherever they are (operands
    from outside all print as unknown), at a fifth of the cost of printing
    a detached clone."""
    out = io.StringIO()
    op.print(ir.AsmState(op, True), file=out)
    return out.getvalue()


def rule_always_exists(name: str) -> bool:
    """Whether every verified op named `name` has a rule, whatever its
    attributes and types, under the built-in rules: `tensor.empty` (its
    result is always a ranked tensor) and `linalg.fill` (the verifier holds
    it to one scalar, one init and two indexing maps of equal loops).  A
    pass that needs no rule for a whole value may then skip the lookup and
    make it only when asked."""
    fn = _rule_fn(name)
    return (name == "tensor.empty" and fn is _constant) or (name == "linalg.fill" and fn is _linalg)


INDEX_OFFSET_OPS = frozenset({"linalg.generic", "linalg.map"})
"""Linalg ops whose body may read a split loop's index (`linalg.index`):
partition offsets it by the device's first index."""

OWN_BODY = frozenset({"linalg.generic", "linalg.map", "linalg.reduce"})
"""Linalg ops whose body the user writes; every other linalg op's body is
generated from its name, attributes and element types."""


def _keys_body(name: str) -> bool:
    """Whether the body of an op named `name` (if it has one) is the user's,
    so that its key reads it and it may read outside values: not a named
    linalg op's."""
    return name in OWN_BODY or not name.startswith("linalg.")


_IGNORED = "mesh.sharding_option"
"""An attribute no built-in rule reads: propagation writes it, so partition
would otherwise miss every signature propagation saw."""


_LINALG_READS: dict[str, tuple[str, ...]] = {
    "linalg.generic": ("iterator_types", "indexing_maps", "operandSegmentSizes"),
    "linalg.matmul": ("iterator_types", "indexing_maps", "operandSegmentSizes", "cast"),
}
"""Per linalg op name, the attributes its key names when `_linalg` is its
rule: every attribute `_linalg` reads (its maps, its iterator types, its
operand segments), and every other one its maps or its generated body follow
(a matmul's `cast`; its ODS arguments are its operands, `indexing_maps` and
`cast`).  The rest (a generic's `doc`, any discardable attribute) cannot
change the rule.  Asking for a few attributes by name costs a fraction of
listing them all, which builds the op's whole attribute dictionary.  The
first is `iterator_types` (`_no_reduction_loop` reads it)."""


class _NameFacts(NamedTuple):
    """What an op's name says to the rule lookup, read once per name."""

    unregistered: dict[str, bool]  # the memo of the cache they were read for (another cache reads them again)
    fn: RuleFn | None  # the name's rule function
    built_in: bool  # whether `fn` is a built-in rule (`RuleCache` memoizes those by signature)
    reads: tuple[str, ...] | None  # the attributes a linalg key names (`_LINALG_READS`); None: all
    foreign: bool  # an unregistered op of a built-in rule (its properties enter the key as text)
    reduce_window: bool
    scatter: bool
    keys_body: bool  # whether its body is part of the key (`_keys_body`)
    linalg: bool


def _name_facts(op: ir.Operation, name: str, unregistered: dict[str, bool]) -> _NameFacts:
    """What the name of `op` says, read once per name and cache (a name is
    registered or not for the life of a context, and of its cache; its rule
    function until `register_rule` changes one): `_NAME_FACTS`'s entry."""
    fn = _rule_fn(name)
    built_in = fn in _LOCAL
    facts = _NAME_FACTS[name] = _NameFacts(
        unregistered,
        fn,
        built_in,
        _LINALG_READS.get(name) if fn is _linalg else None,
        built_in and _is_unregistered(op, name, unregistered),
        name.endswith(".reduce_window"),
        name.endswith(".scatter"),
        _keys_body(name),
        name.startswith("linalg."),
    )
    return facts


def _signature(
    op: ir.Operation,
    facts: _NameFacts,
    values: tuple | None,
    parallel: dict[ir.Attribute, bool],
    unregistered: dict[str, bool],
) -> tuple[tuple, ir.Attribute | None, tuple | None]:
    """The op's cache key, the ignored attribute's value (None: absent), and
    its body's part of the key: None when the body is not read (no body, or
    one implied by the op's name), else `_body`'s or `_parallel_body`'s
    reading. `facts` are its name's (`_name_facts`, of a built-in rule);
    `parallel` memoizes `_no_reduction_loop` per attribute."""
    reads = facts.reads
    operands, results = (None, None) if values is None else values
    if reads is None:
        key, option = op_signature(op, _IGNORED, operands, results, report_skipped=True)
        iterators = next((attr for attr_name, attr in key[1] if attr_name == "iterator_types"), None)
    else:
        # (a tuple of attributes, where the general key has one of pairs: no key of one form equals one of the other)
        key, option = read_signature(op, reads, _IGNORED, operands, results)
        iterators = key[1][0]
    if facts.foreign:
        key += (properties_text(op),)
    if facts.reduce_window:
        key += (_neutral_init(op),)  # its rule reads the init's defining op
    elif facts.scatter and len(op.operands) == 3:
        key += (_scatter_combiner(op),)  # its rule reads the input's defining op
    body = None
    if facts.keys_body and len(op.regions):
        if facts.linalg and _no_reduction_loop(iterators, parallel):
            body = _parallel_body(op)
        else:
            body = _body(op, unregistered)
        key += (body,)
    return key, option, body


_NAME_FACTS: dict[str, _NameFacts] = {}
"""`_name_facts` per op name (`register_rule` clears it)."""


def _is_unregistered(op: ir.Operation, name: str, memo: dict[str, bool]) -> bool:
    found = memo.get(name)
    if found is None:
        found = memo[name] = not op.context.is_registered_operation(name)
    return found


def _no_reduction_loop(attr: ir.Attribute | None, memo: dict[ir.Attribute, bool]) -> bool:
    """Whether a linalg op's `iterator_types` (None: it has none) name no
    reduction loop, the way `_linalg` reads them."""
    if attr is None:
        return False
    found = memo.get(attr)
    if found is None:
        found = memo[attr] = isinstance(attr, ir.ArrayAttr) and all(
            "reduction" not in str(a) for a in ir.ArrayAttr(attr)
        )
    return found


_PARALLEL_BODY = "parallel body"
"""The first item of `_parallel_body`'s reading (never an op name)."""


def _parallel_body(op: ir.Operation) -> tuple:
    """What the rule of a linalg op without reduction loops reads of its body
    (`_linalg`): only the loops `linalg.index` reads; a combiner matters
    only to reductions. The body's op names come along, a few times cheaper
    than `_body`'s full reading of operands and attributes."""
    items: list = []
    append = items.append
    # While every op so far may be in a linear body (`LINEAR_BODY_OPS`), each
    # one's reads come along too (`_linear_reads`): whether the op runs on
    # partial sums depends on them, and the key then says it.
    linear = True
    produced: dict = {}

    # (`advance` a default argument: a local, cheaper to read than the enum's attribute per op)
    def visit(inner: ir.Operation, advance: ir.WalkResult = ir.WalkResult.ADVANCE) -> ir.WalkResult:
        nonlocal linear
        name = inner.name
        append(name)
        if name == "linalg.index":
            append(ir.IntegerAttr(inner.attributes["dim"]).value)
        elif linear and len(items) > 1:  # (the first op the walk meets is `op` itself)
            if name in LINEAR_BODY_OPS:
                append(_linear_reads(inner, name, produced))
            else:
                linear = False
        return advance

    # (the walk starts at `op`, a linalg op with a body: its name comes
    # first and makes way for the marker, at less than `walk_inside`'s cost)
    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    items[0] = _PARALLEL_BODY
    return tuple(items)


def _linear_reads(inner: ir.Operation, name: str, produced: dict) -> tuple:
    """What one op of a body that may be linear reads (`generic_terms`): a
    constant, its value; any other op, per operand, the body op making it
    (the how-manieth result of the body it is), the body's argument (-1 -
    its number), or from outside a constant's value (("=", value)) or any
    other value (("?",)).  `produced` maps the body's values to those
    numbers; it lists the body's arguments when first needed."""
    if name == "arith.constant":
        reads: tuple = ("=", attribute_or_text(inner, "value"))
    else:
        found = []
        for v in inner.operands:
            k = produced.get(v)
            if k is None and _ARGUMENTS not in produced:
                produced[_ARGUMENTS] = True
                arguments = inner.block.arguments
                for n in range(len(arguments)):
                    produced[arguments[n]] = -1 - n
                k = produced.get(v)
            if k is not None:
                found.append(k)
                continue
            owner = v.owner
            if not isinstance(owner, ir.Block) and owner.name == "arith.constant" and "value" in owner.attributes:
                found.append(("=", attribute_or_text(owner, "value")))
            else:
                found.append(("?",))
        reads = tuple(found)
    if name != "linalg.yield":
        made = produced.get(_MADE, 0)
        produced[inner.result] = made
        produced[_MADE] = made + 1
    return reads


_ARGUMENTS = "arguments listed"
_MADE = "results made"
"""`_linear_reads`'s own keys in its map of values (never an `ir.Value`)."""


def walk_inside(op: ir.Operation, visit: Callable[[ir.Operation], ir.WalkResult]) -> None:
    """Walk the ops nested in `op`, in pre-order (a walk starts at `op`
    itself, which is left out)."""
    first = True

    def skip_first(inner: ir.Operation) -> ir.WalkResult:
        nonlocal first
        if first:
            first = False
            return ir.WalkResult.ADVANCE
        return visit(inner)

    op.walk(skip_first, ir.WalkOrder.PRE_ORDER)


_SCALARS = (ir.FloatType, ir.IntegerType, ir.IndexType)


def _reads_outside_tensor(body: tuple) -> bool:
    """Whether a body, as the key reads it, may read from outside the op a
    value that is not a scalar: `_body` keys such values by their type;
    `_parallel_body` names its ops, and only one outside arith and math
    (a `tensor.extract`, a nested linalg op) turns a tensor into the scalars
    a body yields (arith and math keep a tensor a tensor)."""
    if body and body[0] == _PARALLEL_BODY:
        return any(isinstance(name, str) and not _SCALAR_BODY_OP.match(name) for name in body[1:])
    return any(not isinstance(v, (int, *_SCALARS)) for item in body if len(item) == 4 for v in item[2])


def _body_may_vary(body: tuple) -> bool:
    """Whether a body's reading (`_parallel_body` or `_body`) names an op
    that may make a value differing between devices, or a call."""
    if body and body[0] == _PARALLEL_BODY:
        names = {n for n in body[1:] if isinstance(n, str)}
    else:
        names = {item[0] for item in body if isinstance(item[0], str)}
    return not PER_DEVICE_SOURCES.isdisjoint(names) or "func.call" in names


def _linear_names(body: tuple) -> bool:
    """Whether a body's reading (`_parallel_body` or `_body`) names only
    ops a linear body may have (`LINEAR_BODY_OPS`)."""
    if body and body[0] == _PARALLEL_BODY:
        names = [n for n in body[1:] if not isinstance(n, tuple)]
    else:
        names = [item[0] for item in body if item[0] != "^"]
    return all(isinstance(n, str) and n in LINEAR_BODY_OPS for n in names)


def _keys_linear_reads(body: tuple) -> bool:
    """Whether a body's reading says all that decides whether the body is
    linear (`generic_terms`): which values each op reads, and the value of
    each constant read.  `_body` names an outside value by its type only."""
    if body and body[0] == _PARALLEL_BODY:
        return not any(isinstance(n, tuple) and ("?",) in n for n in body[1:])
    return all(isinstance(v, int) for item in body if len(item) == 4 for v in item[2])


_SCALAR_BODY_OP = re.compile(r"(?:arith|math)\.|linalg\.(?:yield|index)\Z")
"""Ops of a parallel body that cannot bring an outside tensor into it."""


def _body(op: ir.Operation, unregistered: dict[str, bool]) -> tuple:
    """The ops of `op`'s regions as (name, attributes, operands, number of
    results), each operand named by its position among the body's block
    arguments and results, or by its type when defined outside, and each
    block as ("^", its number of arguments) before its ops; an op of an
    unregistered dialect (a `stablehlo.compare` in a reduce) also by its
    properties' text (`properties_text`).  (Regions, blocks and arguments
    are reached by index: iterating the bindings' lists of them costs
    several times more; an op's operands are listed once.)"""
    ids: dict[ir.Value, int] = {}
    items: list[tuple] = []

    def number_arguments(inner: ir.Operation) -> None:
        regions = inner.regions
        for k in range(len(regions)):
            blocks = regions[k].blocks
            for b in range(len(blocks)):
                args = blocks[b].arguments
                n = len(args)
                items.append(("^", n))
                for a in range(n):
                    ids[args[a]] = len(ids)

    entered = False

    # (`advance` a default argument, as in `_parallel_body`)
    def visit(inner: ir.Operation, advance: ir.WalkResult = ir.WalkResult.ADVANCE) -> ir.WalkResult:
        nonlocal entered
        if not entered:  # the walk starts at `op` itself: only its arguments count
            entered = True
            number_arguments(inner)
            return advance
        operands = []
        for v in list(inner.operands):
            found = ids.get(v)
            operands.append(v.type if found is None else found)
        results = inner.results
        n = len(results)
        name = inner.name
        attributes = attribute_items(inner)
        if _is_unregistered(inner, name, unregistered):
            attributes += (properties_text(inner),)
        items.append((name, attributes, tuple(operands), n))
        if n:
            for r in results:
                ids[r] = len(ids)
        if len(inner.regions):
            number_arguments(inner)
        return advance

    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return tuple(items)


# ---------------------------------------------------------------------------
# Helpers


def _shape(value: ir.Value) -> tuple[int | None, ...] | None:
    """A ranked tensor's shape with None for dynamic sizes; None otherwise."""
    return _type_shape(value.type)


def _type_shape(t: ir.Type) -> tuple[int | None, ...] | None:
    if not isinstance(t, ir.RankedTensorType):
        return None
    return tuple(None if ir.ShapedType.is_dynamic_size(d) else d for d in t.shape)


def _identity(value: ir.Value) -> TensorMap | None:
    shape = _shape(value)
    return None if shape is None else tuple(range(len(shape)))


def _unshardable(value: ir.Value) -> TensorMap | None:
    """A tensor none of whose dimensions follows a loop."""
    shape = _shape(value)
    return None if shape is None else (None,) * len(shape)


def _attr(op: ir.Operation, name: str) -> ir.Attribute | None:
    return op.attributes[name] if name in op.attributes else None


def _results_shape(op: ir.Operation) -> tuple[int | None, ...] | None:
    """The common shape of all results when they are ranked tensors of one shape."""
    shapes = {_shape(r) for r in op.results}
    if len(shapes) != 1:
        return None
    (shape,) = shapes
    return shape


def _all_parallel(rank: int) -> tuple[Iterator, ...]:
    return (Iterator.parallel(),) * rank


# ---------------------------------------------------------------------------
# Elementwise ops and constants


def _elementwise(op: ir.Operation, *, broadcast: bool = False) -> ShardingRule | None:
    """Results of one shape, indexed by one parallel loop per dimension.
    Operands of that rank follow the loops; with `broadcast` (tosa) an
    operand dimension whose size differs from the result's (size 1) is not
    split.  Other operands (scalars, shift or zero-point tensors) are not
    split; without `broadcast`, an operand of the results' rank has their
    sizes and any other is a scalar (the unregistered hlo ops are not
    verified: a rule for mismatched types would cut them wrongly)."""
    shape = _results_shape(op)
    if shape is None or not op.results:
        return None
    rank = len(shape)
    operand_maps: list[TensorMap | None] = []
    for v in op.operands:
        s = _shape(v)
        if s is None:
            operand_maps.append(None)
        elif not broadcast and not (len(s) == 0 or _sized(v, shape)):
            return None
        elif len(s) != rank:
            operand_maps.append((None,) * len(s))
        elif broadcast:
            operand_maps.append(tuple(d if s[d] == shape[d] else None for d in range(rank)))
        else:
            operand_maps.append(tuple(range(rank)))
    identity = tuple(range(rank))
    return ShardingRule(_all_parallel(rank), tuple(operand_maps), (identity,) * len(op.results))


def _hlo_bitcast_convert(op: ir.Operation) -> ShardingRule | None:
    """`bitcast_convert` between element types of one width (JAX's random
    bits to floats) is elementwise; between widths it adds or drops a
    dimension, which no rule here describes."""
    if len(op.operands) != 1 or len(op.results) != 1 or _shape(op.operands[0]) != _shape(op.results[0]):
        return None
    widths = []
    for v in (op.operands[0], op.results[0]):
        t = v.type
        element = ir.RankedTensorType(t).element_type if isinstance(t, ir.RankedTensorType) else None
        width = getattr(element, "width", None)
        if width is None:
            return None
        widths.append(width)
    return _elementwise(op) if widths[0] == widths[1] else None


def _tosa_elementwise(op: ir.Operation) -> ShardingRule | None:
    return _elementwise(op, broadcast=True)


def _constant(op: ir.Operation) -> ShardingRule | None:
    """A tensor constant (dense or splat) is built whole anywhere, so any
    split is free; operands (dynamic sizes, a splat value) are scalars."""
    if len(op.results) != 1:
        return None
    shape = _shape(op.results[0])
    if shape is None:
        return None
    return ShardingRule(
        _all_parallel(len(shape)),
        tuple(_unshardable(v) for v in op.operands),
        (tuple(range(len(shape))),),
    )


# ---------------------------------------------------------------------------
# Reshapes and slices


def _major(shape: tuple[int, ...], dims: list[int]) -> int | None:
    """The first dimension of a group with more than one element: splitting
    it into n equal blocks splits the group's flattened range into n equal
    contiguous blocks, so both sides of a reshape agree."""
    return next((d for d in dims if shape[d] != 1), None)


def _reshape_rule(in_shape, out_shape, groups: list[tuple[list[int], list[int]]]) -> ShardingRule:
    """One parallel loop per group of input dims that flattens to a group of
    output dims; each side splits only its group's major dimension.  Other
    dimensions are never split."""
    in_map: list[int | None] = [None] * len(in_shape)
    out_map: list[int | None] = [None] * len(out_shape)
    loops = 0
    for ins, outs in groups:
        a, b = _major(in_shape, ins), _major(out_shape, outs)
        if a is None or b is None:
            continue
        in_map[a], out_map[b] = loops, loops
        loops += 1
    return ShardingRule(_all_parallel(loops), (tuple(in_map),), (tuple(out_map),))


def shape_groups(a: tuple[int, ...], b: tuple[int, ...]) -> list[tuple[list[int], list[int]]] | None:
    """Split two static shapes of equal size into the shortest runs of
    dimensions with equal products (4x6 -> 24 is one run, 2x3x4 -> 6x4 two);
    trailing unit dimensions join the last run.  None if the sizes differ."""
    groups: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        gi, gj = [i], [j]
        pa, pb = a[i], b[j]
        i, j = i + 1, j + 1
        while pa != pb:
            if pa < pb and i < len(a):
                pa, i = pa * a[i], i + 1
                gi.append(i - 1)
            elif pb < pa and j < len(b):
                pb, j = pb * b[j], j + 1
                gj.append(j - 1)
            else:
                return None
        groups.append((gi, gj))
    rest_a, rest_b = list(range(i, len(a))), list(range(j, len(b)))
    if any(a[d] != 1 for d in rest_a) or any(b[d] != 1 for d in rest_b):
        return None
    if groups:
        groups[-1][0].extend(rest_a)
        groups[-1][1].extend(rest_b)
    return groups


def _static_cast(op: ir.Operation) -> ShardingRule | None:
    """`tensor.cast` between ranked shapes, and `tensor.bitcast` (each
    element's bits read as another type of their width): elementwise.  A dimension of
    dynamic size on one side and static on the other (what `canonicalize`
    writes once it knows a size) splits too: both sides hold the same
    piece, which the local types say as precisely as they can."""
    for v in (op.operands[0], op.results[0]):
        if _shape(v) is None:
            return None
    return _elementwise(op)


def _tensor_insert(op: ir.Operation) -> ShardingRule | None:
    """`tensor.insert` of a scalar at indices known only at run time: the
    tensor it writes into, and its result, whole (no loop: a split one is
    gathered first, and a split result cut from the whole after)."""
    whole = _unshardable(op.operands[1]) if len(op.operands) >= 2 else None
    if whole is None or len(op.results) != 1 or _shape(op.results[0]) is None:
        return None
    return ShardingRule((), (None, whole, *(None,) * (len(op.operands) - 2)), (whole,))


def _softmax(op: ir.Operation) -> ShardingRule | None:
    """`linalg.softmax`: a parallel loop per dimension but the one it
    normalizes along, which stays whole (each row's maximum and sum read
    all of it); its init and result are indexed as its input."""
    if len(op.operands) != 2 or len(op.results) != 1:
        return None
    init, result = op.operands[1], op.results[0]
    shape = _shape(op.operands[0])
    # a static size on one side and a dynamic one on another (as the verifier allows) is one size
    if shape is None or not (_sized(init, shape) and _sized(result, shape) and _sized(result, _shape(init) or ())):
        return None
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    if not 0 <= dim < len(shape):
        return None
    tensor_map = tuple(None if d == dim else d - (d > dim) for d in range(len(shape)))
    return ShardingRule(_all_parallel(len(shape) - 1), (tensor_map, tensor_map), (tensor_map,))


def _tensor_reshape(op: ir.Operation) -> ShardingRule | None:
    """`tensor.collapse_shape` / `expand_shape`: groups from the reassociation."""
    src, dst = _shape(op.operands[0]), _shape(op.results[0])
    if src is None or dst is None or None in src or None in dst:
        return None
    reassociation = [[int(ir.IntegerAttr(d).value) for d in g] for g in op.attributes["reassociation"]]
    if op.name == "tensor.collapse_shape":
        groups = [(g, [k]) for k, g in enumerate(reassociation)]
    else:
        groups = [([k], g) for k, g in enumerate(reassociation)]
    return _reshape_rule(src, dst, groups)


def _shape_reshape(op: ir.Operation) -> ShardingRule | None:
    """`tosa.reshape`, `tensor.reshape` and hlo `reshape`: groups from the
    static shapes (a target shape operand is read whole)."""
    src, dst = _shape(op.operands[0]), _shape(op.results[0])
    if src is None or dst is None or None in src or None in dst:
        return None
    if 0 in src or 0 in dst:
        # No element: products cannot group the dimensions.  A reshape that
        # only adds or drops unit dimensions (JAX's edge pads reshape 1x0x16
        # to 0x16) keeps the others, which split alike; any other splits
        # nothing (a split operand is gathered, for no bytes).
        kept_src = [d for d, n in enumerate(src) if n != 1]
        kept_dst = [d for d, n in enumerate(dst) if n != 1]
        alike = [src[d] for d in kept_src] == [dst[d] for d in kept_dst]
        groups = [([i], [j]) for i, j in zip(kept_src, kept_dst)] if alike else []
    else:
        groups = shape_groups(src, dst)
    if groups is None:
        return None
    rule = _reshape_rule(src, dst, groups)
    extra = tuple(None for _ in op.operands[1:])  # the target shape operand
    return ShardingRule(rule.iterators, rule.operand_maps + extra, rule.result_maps)


def _slice_dims(op: ir.Operation, full: tuple[int | None, ...]) -> list[bool] | None:
    """Per dimension of the full tensor: whether the slice covers it whole
    (static offset 0, its full size, stride 1), or every t-th element of it
    from an offset below t (static stride t > 1, `t * size` the full size):
    a piece of the full tensor then holds the elements of exactly its piece
    of the slice, at the same offset and stride (the pieces are even:
    slices never run on uneven ones)."""
    offsets = int_list(_attr(op, "static_offsets"))
    sizes = int_list(_attr(op, "static_sizes"))
    strides = int_list(_attr(op, "static_strides"))
    if offsets is None or sizes is None or strides is None or len(sizes) != len(full):
        return None
    return [
        f is not None and 0 <= o < t and s * t == f and (t == 1 or s > 1)
        for o, s, t, f in zip(offsets, sizes, strides, full)
    ]


def kept_dims(sizes: Sequence[int], piece_rank: int) -> list[int] | None:
    """Dimensions of the full tensor that the (possibly rank-reduced) slice
    of `sizes` keeps, in order: a rank-reducing slice drops unit dimensions.
    None when that is ambiguous (some unit dimensions kept, others dropped):
    the slice rules then give no rule, and partition never meets such a
    slice split."""
    if piece_rank == len(sizes):
        return list(range(len(sizes)))
    kept = [d for d, n in enumerate(sizes) if n != 1]
    return kept if len(kept) == piece_rank else None


def _slice_maps(
    op: ir.Operation, full_value: ir.Value, piece_value: ir.Value, crops: bool = False
) -> tuple[int, TensorMap, TensorMap, tuple[Crop, ...]] | None:
    """(loops, map of the full tensor, map of the piece, crops): one loop per
    dimension the slice takes whole or every t-th element of, the only ones
    that may be split (`_slice_dims`); with `crops`, also per dimension of
    a full tensor of static shape it takes a run of two or more elements of
    at static offset, size and stride, read through a `Crop`."""
    full, piece = _shape(full_value), _shape(piece_value)
    if full is None or piece is None:
        return None
    whole = _slice_dims(op, full)
    sizes = int_list(_attr(op, "static_sizes")) or []
    kept = kept_dims(sizes, len(piece))
    if whole is None or kept is None:
        return None
    offsets, strides = int_list(_attr(op, "static_offsets")), int_list(_attr(op, "static_strides"))
    static = crops and None not in full and offsets is not None and strides is not None
    full_map: list[int | None] = [None] * len(full)
    piece_map: list[int | None] = [None] * len(piece)
    found: list[Crop] = []
    loops = 0
    for k, d in enumerate(kept):
        if whole[d]:
            full_map[d] = piece_map[k] = loops
            loops += 1
        elif static and _is_crop(offsets[d], sizes[d], strides[d], full[d]):
            found.append(Crop(0, d, loops, offsets[d], strides[d], tuple(full), sizes[d]))
            full_map[d] = piece_map[k] = loops
            loops += 1
    return loops, tuple(full_map), tuple(piece_map), tuple(found)


def _is_crop(offset: int, size: int, stride: int, extent: int) -> bool:
    """Whether a slice reads a run of `size` >= 2 elements of a dimension of
    `extent` at static `offset` and `stride`, all inside it."""
    return min(offset, size, stride) >= 0 and size >= 2 and stride >= 1 and offset + stride * (size - 1) < extent


def _extract_slice(op: ir.Operation) -> ShardingRule | None:
    """Split only along dimensions the slice takes whole or every t-th
    element of (`_slice_dims`), or a run of at static offsets and sizes
    (`Crop`: the operand arrives holding each device's run), or one row
    of, at a static or run-time offset (`x[:, -1]`, a decoder reading
    position `pos`): a sum loop there, so its result is a partial sum,
    the row on the device whose piece holds it and zeros elsewhere
    (`partition/crop.py`, `mask_rows`)."""
    found = _slice_maps(op, op.operands[0], op.results[0], crops=True)
    if found is None:
        return None
    loops, full_map, piece_map, crops = found
    iterators = list(_all_parallel(loops))
    if not crops and _has_zero(op.results[0]):
        full = _shape(op.operands[0]) or ()
        offsets, sizes = int_list(_attr(op, "static_offsets")), int_list(_attr(op, "static_sizes"))
        dyn = ir.ShapedType.get_dynamic_size()
        full_map = list(full_map)
        for d, (o, n, f) in enumerate(zip(offsets or (), sizes or (), full)):
            if full_map[d] is None and n == 1 and f is not None and f >= 2 and (o == dyn or 0 <= o < f):
                full_map[d] = len(iterators)
                iterators.append(Iterator.reduction("sum"))
        full_map = tuple(full_map)
    others = tuple(None for _ in op.operands[1:])  # dynamic offsets, sizes, strides
    return ShardingRule(tuple(iterators), (full_map, *others), (piece_map,), crops=crops)


def _has_zero(v: ir.Value) -> bool:
    """`_summable`, of the elements arith makes a zero of (`sum_zero_attr`):
    integers only signless, floats only in a format with a zero."""
    if not isinstance(v.type, ir.RankedTensorType) or not _summable(v):
        return False
    e = v.type.element_type
    if isinstance(e, ir.IntegerType):
        return e.is_signless
    return float_zero(e) is not None if isinstance(e, ir.FloatType) else True


def _insert_slice(op: ir.Operation) -> ShardingRule | None:
    """Split along dimensions the inserted piece fills whole or every t-th
    element of (`_slice_dims`), and, at static offsets, sizes and shapes,
    along one it fills a run of at stride 1 (a KV cache's new rows): the
    piece is read there as a pad reads its source (`Crop` with `pads`),
    each device writing the rows of the run its piece of the destination
    holds and keeping the others; at a dynamic offset, along one it fills
    a run of static size at stride 1, and along a unit dimension the piece
    drops (the piece arrives whole there)."""
    found = _slice_maps(op, op.operands[1], op.operands[0])
    if found is None:
        return None
    loops, full_map, piece_map, _ = found
    full_map, piece_map = list(full_map), list(piece_map)
    crops: list[Crop] = []
    full, piece = _shape(op.operands[1]), _shape(op.operands[0])
    offsets, sizes = int_list(_attr(op, "static_offsets")), int_list(_attr(op, "static_sizes"))
    strides = int_list(_attr(op, "static_strides"))
    kept = None if sizes is None or piece is None else kept_dims(sizes, len(piece))
    static = len(op.operands) == 2 and full is not None and piece is not None and None not in (*full, *piece)
    if static and offsets is not None and strides is not None and kept is not None:
        assert full is not None and piece is not None and sizes is not None
        for k, d in enumerate(kept):
            run = strides[d] == 1 and 0 <= offsets[d] and offsets[d] + sizes[d] <= full[d]  # type: ignore[operator]
            if full_map[d] is None and run and piece[k] >= 1 and full[d] >= 2:  # type: ignore[operator]
                crop = Crop(0, k, loops, -offsets[d], 1, tuple(piece), full[d], pads=True, inserts=True)  # type: ignore[arg-type]
                crops.append(crop)
                full_map[d] = piece_map[k] = loops
                loops += 1
    if full is not None and offsets is not None and sizes is not None and strides is not None and kept is not None:
        # At a dynamic offset (a decoder's cache write at position `pos`), a
        # run of static size at stride 1 into a dimension of static extent,
        # or (without crops) one row the inserted piece drops (`x[:, 5] = v`):
        # the destination may be split there while the piece stays whole,
        # each device writing the part of the run its piece holds
        # (`partition/crop.py`, `insert_at_offsets`).
        dyn = ir.ShapedType.get_dynamic_size()
        if dyn not in sizes and dyn not in strides:
            for d, (o, n, t, f) in enumerate(zip(offsets, sizes, strides, full)):
                dropped = d not in kept and not crops and 0 <= o < (f or 0)
                runs = t == 1 and f is not None and f >= 2 and 1 <= n <= f
                if (o == dyn or dropped) and runs and full_map[d] is None:
                    full_map[d] = loops
                    loops += 1
    others = tuple(None for _ in op.operands[2:])
    return ShardingRule(
        _all_parallel(loops), (tuple(piece_map), tuple(full_map), *others), (tuple(full_map),), crops=tuple(crops)
    )


def _pad(op: ir.Operation) -> ShardingRule | None:
    """`tensor.pad`: split along dimensions it pads by nothing, where each
    piece pads alike (by nothing), and, at static sizes, along those it
    pads: a `Crop` reading the source shifted by the low padding, whose
    devices each pad their own rows by their share of the padding; none
    when its padding value depends on the position or reads a tensor
    (every device then pads whole)."""
    source, result = _shape(op.operands[0]), _shape(op.results[0])
    low, high = int_list(_attr(op, "static_low")), int_list(_attr(op, "static_high"))
    if source is None or result is None or low is None or high is None or not len(op.regions):
        return None
    rank = len(result)
    if len(source) != rank or len(low) != rank or len(high) != rank:
        return None
    blocks = op.regions[0].blocks
    positional = any(next(iter(a.uses), None) is not None for a in blocks[0].arguments) if len(blocks) else True
    reads_tensor = False

    def visit(inner: ir.Operation) -> ir.WalkResult:
        nonlocal reads_tensor
        reads_tensor = reads_tensor or any(isinstance(v.type, ir.ShapedType) for v in inner.operands)
        return ir.WalkResult.ADVANCE

    walk_inside(op, visit)
    source_map: list[int | None] = [None] * rank
    result_map: list[int | None] = [None] * rank
    crops: list[Crop] = []
    loops = 0
    static = None not in source and min((*low, *high), default=0) >= 0 and len(op.operands) == 1
    if not positional and not reads_tensor:
        for d in range(rank):
            if low[d] == 0 and high[d] == 0:
                source_map[d] = result_map[d] = loops
                loops += 1
            elif static and source[d] > 0 and result[d] >= 2:
                crops.append(Crop(0, d, loops, -low[d], 1, tuple(source), result[d], pads=True))
                source_map[d] = result_map[d] = loops
                loops += 1
    others = tuple(None for _ in op.operands[1:])  # dynamic low and high sizes
    return ShardingRule(_all_parallel(loops), (tuple(source_map), *others), (tuple(result_map),), crops=tuple(crops))


def padding_value(pad: ir.Operation) -> ir.Value | ir.Operation | None:
    """The value a `tensor.pad` pads with, when it is one for every cell: a
    value from outside the pad, or the constant its body makes (returned as
    that op, for the caller to copy); else None."""
    blocks = pad.regions[0].blocks
    if len(blocks) != 1:
        return None
    body = list(blocks[0].operations)
    if not body or body[-1].name != "tensor.yield" or len(body) > 2:
        return None
    value = body[-1].operands[0]
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None if owner == blocks[0] else value
    if len(body) == 2:
        made = body[0].operation
        if made.name == "arith.constant" and owner.operation == made:
            return made
        return None
    return value


def fusible_pad(value: ir.Value) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(low, high) of the `tensor.pad` that makes `value`, when an op reading
    `value` through windows may read the pad's source instead, padding
    included (`fuse_pads`): static sizes and padding, one padding value for
    every cell, and `value` read once (by that op); else None."""
    if not isinstance(value, ir.OpResult):
        return None
    pad = value.owner.operation
    if pad.name != "tensor.pad" or len(pad.operands) != 1 or not len(pad.regions):
        return None  # (more operands: dynamic low or high sizes)
    source, result = _shape(pad.operands[0]), _shape(value)
    low, high = int_list(_attr(pad, "static_low")), int_list(_attr(pad, "static_high"))
    if source is None or result is None or low is None or high is None:
        return None
    rank = len(result)
    if len(source) != rank or len(low) != rank or len(high) != rank or None in source or None in result:
        return None
    if any(n < 0 for n in (*low, *high)) or not single_use(value) or padding_value(pad) is None:
        return None
    return tuple(low), tuple(high)


def _pads_read(rule: ShardingRule, operands: list[ir.Value]) -> tuple | None:
    """Per operand of a linalg op's `rule`, `fusible_pad` of the operands it
    reads through windows (None elsewhere); None when there is none."""
    found: list = [None] * len(operands)
    any_pad = False
    for k, dims in enumerate(rule.windows):
        if dims is None or k >= len(operands) or all(w is None for w in dims):
            continue
        v = operands[k]
        if isinstance(v, ir.OpResult) and v.owner.name == "tensor.pad":
            found[k] = fusible_pad(v)
            any_pad = any_pad or found[k] is not None
    return tuple(found) if any_pad else None


def fuse_pads(rule: ShardingRule, pads: tuple | None) -> ShardingRule:
    """A linalg op reading a `tensor.pad` (`pads`: `_pads_read`) through
    windows along every dimension the pad pads, as an op that pads reads its
    input: the rule describes the operand as the pad's source, each window's
    extent the source's and its offset moved back by the low padding (rows
    before 0 and from the extent on are padding).  Layouts of that operand,
    halos included, then have their usual meaning on the source, and
    partition reads it without the pad (`halo.localize`).  `rule` itself
    when no pad qualifies."""
    if pads is None:
        return rule
    windows = list(rule.windows)
    fused: list[int] = []
    for k, found in enumerate(pads):
        dims = windows[k] if k < len(windows) else None
        if found is None or dims is None:
            continue
        low, high = found
        padded = [d for d in range(len(low)) if low[d] or high[d]]
        if len(low) != len(dims) or not padded or any(dims[d] is None or dims[d].base != 1 for d in padded):
            continue  # a dimension padded but not read through a window (or dilated first): the pad stays
        windows[k] = tuple(
            None if w is None else dataclasses.replace(w, extent=w.extent - low[d] - high[d], offset=w.offset - low[d])
            for d, w in enumerate(dims)
        )
        fused.append(k)
    if not fused:
        return rule
    return ShardingRule(rule.iterators, rule.operand_maps, rule.result_maps, tuple(windows), tuple(fused))


# ---------------------------------------------------------------------------
# linalg


_ARITH_COMBINERS = {
    "arith.addf": "sum",
    "arith.addi": "sum",
    "arith.mulf": "product",
    "arith.muli": "product",
    "arith.maximumf": "max",
    "arith.maxsi": "max",
    "arith.minimumf": "min",
    "arith.minsi": "min",
    "arith.andi": "bitwise_and",
    "arith.ori": "bitwise_or",
    "arith.xori": "bitwise_xor",
}
"""Body ops that fold an output with a value as a mesh reduction kind would.
Unsigned max/min are left out: the dialect's integer reductions carry no
signedness, so a partial result could not say which one it needs.  So are
`maxnumf`/`minnumf`: they skip NaNs, while a float max or min reduction
propagates them (a device whose piece is all NaN would poison the result)."""


Linear = tuple[dict[int, int], int]
"""An affine index as coefficients per loop and a constant term."""


def affine_linear(e: ir.AffineExpr) -> Linear | None:
    """`e` as a sum of constant multiples of loops plus a constant, or None
    (a division, a modulus, a product of loops)."""
    if isinstance(e, ir.AffineDimExpr):
        return {e.position: 1}, 0
    if isinstance(e, ir.AffineConstantExpr):
        return {}, e.value
    if isinstance(e, ir.AffineAddExpr):
        a, b = affine_linear(e.lhs), affine_linear(e.rhs)
        if a is None or b is None:
            return None
        coeffs = dict(a[0])
        for d, c in b[0].items():
            coeffs[d] = coeffs.get(d, 0) + c
        return {d: c for d, c in coeffs.items() if c}, a[1] + b[1]
    if isinstance(e, ir.AffineMulExpr):
        a, b = affine_linear(e.lhs), affine_linear(e.rhs)
        if a is None or b is None:
            return None
        if not b[0]:
            a, b = b, a
        if a[0]:
            return None  # a product of loops
        k = a[1]
        return {d: c * k for d, c in b[0].items() if c * k}, b[1] * k
    return None


def _loops_of(e: ir.AffineExpr) -> frozenset[int]:
    loops: set[int] = set()

    def visit(x: ir.AffineExpr) -> None:
        if isinstance(x, ir.AffineDimExpr):
            loops.add(x.position)
        elif isinstance(x, ir.AffineBinaryExpr):
            visit(x.lhs)
            visit(x.rhs)

    visit(e)
    return frozenset(loops)


def _dim_expr(e: ir.AffineExpr) -> DimExpr:
    if isinstance(e, ir.AffineDimExpr):
        return e.position
    return _loops_of(e)


def _loop_extents(
    maps: list[ir.AffineMap], shapes: list[tuple[int | None, ...] | None], n_loops: int
) -> list[int | None]:
    """Each loop's trip count, from the first operand dimension it indexes
    plainly (as linalg infers loop ranges); None when unknown or dynamic."""
    out: list[int | None] = [None] * n_loops
    for m, shape in zip(maps, shapes):
        if shape is None:
            continue
        for e, size in zip(m.results, shape):
            if isinstance(e, ir.AffineDimExpr) and out[e.position] is None:
                out[e.position] = size
    return out


def _window(
    e: ir.AffineExpr, extent: int | None, extents: list[int | None], output_loops: set[int], iterators: list[Iterator]
) -> Window | None:
    """The window of an input dimension read at `S*i + D*k + c` (or `S*i +
    c`): i a parallel loop the outputs follow, k a loop no output names, S
    and D positive, sizes static and the reads inside the dimension (linalg
    has no padding)."""
    found = affine_linear(e)
    if found is None or extent is None:
        return None
    coeffs, offset = found
    outs = [d for d in coeffs if d in output_loops]
    others = [d for d in coeffs if d not in output_loops]
    if len(outs) != 1 or len(others) > 1 or any(c <= 0 for c in coeffs.values()):
        return None
    i = outs[0]
    k = others[0] if others else None
    if not iterators[i].is_parallel or extents[i] is None or (k is not None and extents[k] is None):
        return None
    w = Window(
        loop=i,
        stride=coeffs[i],
        dilation=coeffs[k] if k is not None else 1,
        size=extents[k] if k is not None else 1,
        offset=offset,
        extent=extent,
        out=extents[i],
        window_loop=k,
    )
    if (k is None and w.stride == 1 and offset == 0) or w.out < 1 or w.size < 1 or w.pads():
        return None  # a plain loop, an empty one or window, or reads outside the tensor
    return w


def _num_inits(op: ir.Operation) -> int | None:
    """How many trailing operands are the op's outputs (`outs`)."""
    if "operandSegmentSizes" in op.attributes:
        return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[-1]
    n = len(op.operands)
    if op.name == "linalg.reduce":
        return n // 2
    if op.name in ("linalg.map", "linalg.transpose", "linalg.broadcast"):
        return 1
    return len(op.results) or None


def single_use(value: ir.Value) -> bool:
    """Whether exactly one operand reads `value`."""
    return sum(1 for _ in value.uses) == 1


def _combiner_kinds(op: ir.Operation, num_inputs: int, num_inits: int) -> list[str]:
    """Per output, the reduction kind of its body when it yields
    `combine(out, x)` with `out` used nowhere else and `x` computed without
    any output's running value, else `invalid`.  (An `x` that reads another
    output, like a running total of running sums, is no reduction of the
    inputs: pieces of it do not combine into the whole.)"""
    invalid = [INVALID] * num_inits
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return invalid
    block = op.regions[0].blocks[0]
    args = list(block.arguments)
    ops = list(block.operations)
    if len(args) != num_inputs + num_inits or not ops or len(ops[-1].operands) != num_inits:
        return invalid
    running = _reads_of(ops, set(args[num_inputs:]))
    kinds = []
    for j, y in enumerate(ops[-1].operands):
        out = args[num_inputs + j]
        kind = INVALID
        if isinstance(y, ir.OpResult):
            producer = y.owner
            operands = list(producer.operands)
            if (
                producer.name in _ARITH_COMBINERS
                and len(operands) == 2
                and operands.count(out) == 1
                and single_use(out)
                and not any(v in running for v in operands if v != out)
            ):
                kind = _ARITH_COMBINERS[producer.name]
                if kind == "sum" and isinstance(out.type, ir.FloatType) and float_zero(out.type) is None:
                    kind = INVALID  # each piece's sum starts from zero, which the format lacks
        kinds.append(kind)
    return kinds


def _reads_of(ops: list, sources: set[ir.Value]) -> set[ir.Value]:
    """`sources` and every value of `ops` (a block's ops, in order) computed
    from one of them, directly or through other values; an op with regions
    counts as reading what any op inside it reads."""
    found = set(sources)
    read: list[ir.Value] = []

    def visit(nested: ir.Operation) -> ir.WalkResult:
        read.extend(nested.operands)
        return ir.WalkResult.ADVANCE

    for op in ops:
        read.clear()
        op.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        if any(v in found for v in read):
            found.update(op.results)
    return found


def _linalg(op: ir.Operation) -> ShardingRule | None:
    """Any structured op: its indexing maps are the loop nest; iterator types
    come from `iterator_types`, else a loop no output map names is reduced
    over; a reduction's kind comes from the body's combiner."""

    maps_attr = get_indexing_maps(op)
    if maps_attr is None:
        return None
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(maps_attr)]
    n_inits = _num_inits(op)
    if not maps or len(maps) != len(op.operands) or n_inits is None or len(op.results) not in (0, n_inits):
        return None
    n_loops = maps[0].n_dims
    if any(m.n_dims != n_loops or m.n_symbols for m in maps):
        return None
    n_inputs = len(maps) - n_inits
    exprs = [[_dim_expr(e) for e in m.results] for m in maps]

    if "iterator_types" in op.attributes:
        names = [str(a) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
        if len(names) != n_loops:
            return None
        reduced = ["reduction" in name for name in names]
    else:
        used = {d for dims in exprs[n_inputs:] for d in dims if not isinstance(d, frozenset)}
        used |= {x for dims in exprs[n_inputs:] for d in dims if isinstance(d, frozenset) for x in d}
        reduced = [loop not in used for loop in range(n_loops)]
    kinds = set(_combiner_kinds(op, n_inputs, n_inits)) if any(reduced) else set()
    reduction = kinds.pop() if len(kinds) == 1 else INVALID
    iterators = [Iterator(reduction) if r else Iterator.parallel() for r in reduced]
    # A body that reads a loop's index computes with global positions.
    # Partition adds the device's first index to it (`offset_indices`) where
    # every map is plain loops and constants, so that an operand indexes
    # each split loop directly; elsewhere, split, every device would count
    # from 0: the loop is not split.
    plain = all(isinstance(d, int) or not d for dims in exprs for d in dims)
    if not (plain and op.name in INDEX_OFFSET_OPS):
        for loop in _indexed_loops(op):
            if 0 <= loop < n_loops:
                iterators[loop] = Iterator.invalid()

    operands = list(op.operands)
    shapes = [_shape(v) for v in operands]
    # An input dimension read through a window (a convolution's `2*d1 + d4`)
    # splits with halos along its output loop.
    output_loops = {d for dims in exprs[n_inputs:] for d in dims if isinstance(d, int)}
    if any(isinstance(d, frozenset) for dims in exprs[:n_inputs] for d in dims):
        extents = _loop_extents(maps, shapes, n_loops)
        for k in range(n_inputs):
            shape = shapes[k]
            if shape is None:
                continue
            for d, e in enumerate(maps[k].results):
                if isinstance(exprs[k][d], frozenset):
                    w = _window(e, shape[d], extents, output_loops, iterators)
                    if w is not None:
                        exprs[k][d] = w

    def dims_of(k: int, shape) -> list[DimExpr] | None:
        return None if shape is None else exprs[k]

    operand_dims = [dims_of(k, shape) for k, shape in enumerate(shapes)]
    result_dims = [dims_of(n_inputs + j, _shape(r)) for j, r in enumerate(op.results)]
    return ShardingRule.from_exprs(iterators, operand_dims, result_dims)


def index_reads(op: ir.Operation) -> list[ir.Operation]:
    """The `linalg.index` ops that read `op`'s loops: in its body, not in
    the body of a linalg op nested in it (whose own loops they read)."""
    found: list[ir.Operation] = []
    if not len(op.regions):
        return found

    def visit(inner: ir.Operation) -> ir.WalkResult:
        name = inner.name
        if name == "linalg.index":
            found.append(inner)
        elif name.startswith("linalg.") and len(inner.regions):
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    walk_inside(op, visit)
    return found


def _indexed_loops(op: ir.Operation) -> set[int]:
    """The loops whose index a linalg body reads with `linalg.index`."""
    return {ir.IntegerAttr(read.attributes["dim"]).value for read in index_reads(op)}


# ---------------------------------------------------------------------------
# tosa


_TOSA_ELEMENTWISE = (
    "abs add arithmetic_right_shift bitwise_and bitwise_not bitwise_or bitwise_xor cast ceil clamp clz cos equal erf "
    "exp floor greater greater_equal int_div log logical_and logical_left_shift logical_not logical_or "
    "logical_right_shift logical_xor maximum minimum mul negate pow reciprocal rsqrt select sigmoid sin sub tanh"
).split()

_TOSA_REDUCTIONS = {
    "tosa.reduce_sum": "sum",
    "tosa.reduce_max": "max",
    "tosa.reduce_min": "min",
    "tosa.reduce_product": "product",
    "tosa.reduce_all": "bitwise_and",
    "tosa.reduce_any": "bitwise_or",
}


def _tosa_matmul(op: ir.Operation) -> ShardingRule | None:
    """`[N, H, C] x [N, C, W] -> [N, H, W]`; loops n, h, w, then c (sum).
    The zero points are not split."""
    if len(op.operands) < 2 or len(op.results) != 1:
        return None
    a, b = _shape(op.operands[0]), _shape(op.operands[1])
    out = _shape(op.results[0])
    if a is None or b is None or out is None or (len(a), len(b), len(out)) != (3, 3, 3):
        return None
    iterators = _all_parallel(3) + (Iterator.reduction("sum"),)
    extra = tuple(_unshardable(v) for v in list(op.operands)[2:])
    return ShardingRule(iterators, ((0, 1, 3), (0, 3, 2)) + extra, ((0, 1, 2),))


def _tosa_windowed(op: ir.Operation) -> ShardingRule | None:
    """`tosa.conv2d`/`conv3d`/`depthwise_conv2d`/`max_pool2d`/`avg_pool2d`
    (NHWC): loops n, the output's spatial dimensions (each reading the input
    through a window: `pad`'s leading entry is a negative offset), the
    channels, then the kernel's spatial loops, never split.  The input
    channels of a convolution are not split either: the bias would be
    added once per device.  An `avg_pool2d` divides by the cells it reads
    inside the tensor, so a padded spatial dimension is not split."""
    name = op.name
    if len(op.results) != 1 or not op.operands:
        return None
    x, out = _shape(op.operands[0]), _shape(op.results[0])
    if x is None or out is None or len(x) != len(out) or len(x) < 3 or None in x or None in out:
        return None
    spatial = len(x) - 2
    pad = int_list(_attr(op, "pad"))
    stride = int_list(_attr(op, "stride"))
    dilation = int_list(_attr(op, "dilation")) or [1] * spatial
    conv = name in ("tosa.conv2d", "tosa.conv3d", "tosa.depthwise_conv2d")
    if conv:
        if len(op.operands) < 3:
            return None
        weight = _shape(op.operands[1])
        if weight is None or None in weight or len(weight) != len(x):
            return None
        # conv: [OC, K..., IC]; depthwise: [K..., C, M]
        kernel = list(weight[1:-1]) if name != "tosa.depthwise_conv2d" else list(weight[:spatial])
    else:
        kernel = int_list(_attr(op, "kernel"))
    if pad is None or stride is None or kernel is None:
        return None
    if len(pad) != 2 * spatial or len(stride) != spatial or len(dilation) != spatial or len(kernel) != spatial:
        return None
    # loops: n, spatial..., channels, then (convolutions) kernel loops and input channels
    n_loops = 2 + spatial
    windows: list[DimExpr] = []
    for d in range(spatial):
        loop = 1 + d
        klp = None
        if conv:
            klp = n_loops + d
        if name == "tosa.avg_pool2d" and (pad[2 * d] or pad[2 * d + 1]):
            windows.append(frozenset({loop}))
            continue
        windows.append(
            Window(
                loop=loop,
                stride=stride[d],
                dilation=dilation[d],
                size=kernel[d],
                offset=-pad[2 * d],
                extent=x[1 + d],
                out=out[1 + d],
                window_loop=klp,
            )
        )
    channel = 1 + spatial
    result: list[DimExpr] = list(range(1 + spatial + 1))
    # zero points (and a bias that is broadcast) are not split
    extra = [_whole_dims(v) for v in list(op.operands)[3 if conv else 1 :]]
    if not conv:
        return ShardingRule.from_exprs(_all_parallel(n_loops), [[0, *windows, channel], *extra], [result])
    k_loops: list[DimExpr] = list(range(n_loops, n_loops + spatial))
    bias = _shape(op.operands[2])
    bias_map = None if bias is None else [channel if bias == (out[-1],) else frozenset()]
    if name == "tosa.depthwise_conv2d":
        # output channel c*M + m follows input channel c: splitting c cuts
        # the output channels into the same contiguous blocks
        iterators = _all_parallel(n_loops) + (Iterator.invalid(),) * spatial
        x_map: list[DimExpr] = [0, *windows, channel]
        w_map: list[DimExpr] = [*k_loops, channel, frozenset()]
    else:
        ic = n_loops + spatial
        iterators = _all_parallel(n_loops) + (Iterator.invalid(),) * (spatial + 1)
        x_map = [0, *windows, ic]
        w_map = [channel, *k_loops, ic]
    return ShardingRule.from_exprs(iterators, [x_map, w_map, bias_map, *extra], [result])


def _whole_dims(v: ir.Value) -> list[DimExpr] | None:
    """A tensor operand none of whose dimensions is split, as expressions."""
    shape = _shape(v)
    return None if shape is None else [frozenset()] * len(shape)


def _tosa_reduce(op: ir.Operation) -> ShardingRule | None:
    """The reduced axis stays with size 1: it is a reduction loop, and the
    result's dimension there follows no loop."""
    axis = int_list(_attr(op, "axis"))
    if axis is None or len(axis) != 1 or len(op.operands) != 1 or len(op.results) != 1:
        return None
    shape = _shape(op.operands[0])
    if shape is None or not 0 <= axis[0] < len(shape):
        return None
    rank = len(shape)
    kind = _TOSA_REDUCTIONS[op.name]
    if kind in ("max", "min") and ignores_nan(op):
        # the mesh max and min propagate NaNs: a device whose piece is all
        # NaN would poison a result the op computes from the other numbers
        kind = INVALID
    iterators = tuple(Iterator(kind) if d == axis[0] else Iterator.parallel() for d in range(rank))
    result = tuple(None if d == axis[0] else d for d in range(rank))
    return ShardingRule(iterators, (tuple(range(rank)),), (result,))


def ignores_nan(op: ir.Operation) -> bool:
    """Whether a tosa max or min skips NaNs (`nan_mode = IGNORE`; the
    default propagates them)."""
    mode = _attr(op, "nan_mode")
    return mode is not None and "IGNORE" in str(mode)


def _transpose(op: ir.Operation, attr_name: str) -> ShardingRule | None:
    """`result[i] = operand[perm[i]]`; extra operands (old tosa's perms
    tensor) are not split."""
    perm = int_list(_attr(op, attr_name))
    if perm is None or not op.operands or len(op.results) != 1:
        return None
    shape = _shape(op.operands[0])
    if shape is None or sorted(perm) != list(range(len(perm))) or len(perm) != len(shape):
        return None
    if not _sized(op.results[0], [shape[p] for p in perm]):  # (a dynamic size matches any)
        return None
    rule = ShardingRule.transpose(perm)
    extra = tuple(_unshardable(v) for v in list(op.operands)[1:])
    return ShardingRule(rule.iterators, rule.operand_maps + extra, rule.result_maps)


# ---------------------------------------------------------------------------
# mhlo / stablehlo (generic form; the dialects need not be registered)


_HLO_ELEMENTWISE = (
    "abs add and atan2 cbrt ceil clamp compare complex convert cosine count_leading_zeros divide exponential "
    "exponential_minus_one floor imag is_finite log log_plus_one logistic maximum minimum multiply negate not or "
    "popcnt power real reduce_precision remainder round_nearest_afz round_nearest_even rsqrt select shift_left "
    "shift_right_arithmetic shift_right_logical sign sine sqrt subtract tan tanh xor"
).split()

_CHLO_ELEMENTWISE = (
    "acos acosh asin asinh atan atanh cosh digamma erf erf_inv erfc is_inf is_neg_inf is_pos_inf lgamma sinh square tan"
).split()
"""The chlo ops JAX leaves in its exports (`chlo.square` in a variance,
`chlo.erf` in an exact gelu, `chlo.erf_inv` in `jax.random.normal`):
elementwise, with no broadcasting."""

_HLO_COMBINERS = {
    "add": "sum",
    "multiply": "product",
    "maximum": "max",
    "minimum": "min",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
}


def _dot_dimension_numbers(attr: ir.Attribute) -> dict[str, list[int]] | None:
    """`#stablehlo.dot<lhs_batching_dimensions = [0], ...>` (an opaque
    attribute when the dialect is not registered); omitted fields are empty."""
    dims = dot_dimensions(str(attr))
    if dims is None:
        return None
    return dims.lists()


def _dot_rule(shapes: list, dims: dict[str, list[int]], result: ir.Value) -> ShardingRule | None:
    """Loops: the result's dimensions (batch, lhs free, rhs free), then one
    sum loop per contracting pair (on a boolean result, HLO's sum is a
    logical or).  `shapes`: lhs's, rhs's and the result's, which must agree."""
    lhs_rank, rhs_rank, out_rank = (len(shape) for shape in shapes)
    lb, rb = dims["lhs_batching"], dims["rhs_batching"]
    lc, rc = dims["lhs_contracting"], dims["rhs_contracting"]
    if len(lb) != len(rb) or len(lc) != len(rc):
        return None
    lhs_free = [d for d in range(lhs_rank) if d not in lb and d not in lc]
    rhs_free = [d for d in range(rhs_rank) if d not in rb and d not in rc]
    n_out = len(lb) + len(lhs_free) + len(rhs_free)
    if n_out != out_rank or len(set(lb + lc)) != len(lb + lc) or len(set(rb + rc)) != len(rb + rc):
        return None
    if any(not 0 <= d < lhs_rank for d in lb + lc) or any(not 0 <= d < rhs_rank for d in rb + rc):
        return None
    left, right = shapes[0], shapes[1]
    if any(None not in (left[a], right[b]) and left[a] != right[b] for a, b in zip(lb + lc, rb + rc)):
        return None
    if not _sized(result, [left[d] for d in lb + lhs_free] + [right[d] for d in rhs_free]):
        return None
    lhs: list[int | None] = [None] * lhs_rank
    rhs: list[int | None] = [None] * rhs_rank
    for loop, (ld, rd) in enumerate(zip(lb, rb)):
        lhs[ld], rhs[rd] = loop, loop
    for i, d in enumerate(lhs_free):
        lhs[d] = len(lb) + i
    for i, d in enumerate(rhs_free):
        rhs[d] = len(lb) + len(lhs_free) + i
    for i, (ld, rd) in enumerate(zip(lc, rc)):
        lhs[ld], rhs[rd] = n_out + i, n_out + i
    kind = hlo_combiner_kind("sum", ir.ShapedType(result.type).element_type)
    iterators = _all_parallel(n_out) + (Iterator.reduction(kind),) * len(lc)
    return ShardingRule(iterators, (tuple(lhs), tuple(rhs)), (tuple(range(n_out)),))


def _hlo_dot_general(op: ir.Operation) -> ShardingRule | None:
    attr = _attr(op, "dot_dimension_numbers")
    if attr is None or len(op.operands) != 2 or len(op.results) != 1:
        return None
    dims = _dot_dimension_numbers(attr)
    shapes = [_shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])]
    if dims is None or any(s is None for s in shapes):
        return None
    return _dot_rule(shapes, dims, op.results[0])


def _hlo_dot(op: ir.Operation) -> ShardingRule | None:
    """`dot`: vector or matrix operands, lhs's last dimension contracted with
    rhs's first."""
    if len(op.operands) != 2 or len(op.results) != 1:
        return None
    shapes = [_shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])]
    if any(s is None for s in shapes) or not 1 <= len(shapes[0]) <= 2 or not 1 <= len(shapes[1]) <= 2:
        return None
    dims = {
        "lhs_batching": [],
        "rhs_batching": [],
        "lhs_contracting": [len(shapes[0]) - 1],
        "rhs_contracting": [0],
    }
    return _dot_rule(shapes, dims, op.results[0])


def _hlo_broadcast_in_dim(op: ir.Operation) -> ShardingRule | None:
    """Operand dimension i becomes result dimension `broadcast_dimensions[i]`;
    an operand dimension of size 1 stretched to a larger one is not split."""
    bdims = int_list(_attr(op, "broadcast_dimensions"))
    if bdims is None or len(op.operands) != 1 or len(op.results) != 1:
        return None
    src, out = _shape(op.operands[0]), _shape(op.results[0])
    if src is None or out is None or len(bdims) != len(src) or any(not 0 <= d < len(out) for d in bdims):
        return None
    if any(None not in (n, out[d]) and n not in (1, out[d]) for n, d in zip(src, bdims)):
        return None
    operand = tuple(d if src[i] == out[d] else None for i, d in enumerate(bdims))
    return ShardingRule(_all_parallel(len(out)), (operand,), (tuple(range(len(out))),))


def hlo_reduce_kind(op: ir.Operation, n: int) -> str:
    """The kind when result j of the body is `op(arg j, arg n + j)` for one
    combiner shared by every result, else `invalid`."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return INVALID
    block = op.regions[0].blocks[0]
    args = list(block.arguments)
    ops = list(block.operations)
    if len(args) != 2 * n or not ops or len(ops[-1].operands) != n:
        return INVALID
    kinds = set()
    for j, y in enumerate(ops[-1].operands):
        if not isinstance(y, ir.OpResult):
            return INVALID
        producer = y.owner
        dialect, _, base = producer.name.partition(".")
        operands = list(producer.operands)
        if dialect not in ("mhlo", "stablehlo") or base not in _HLO_COMBINERS or len(operands) != 2:
            return INVALID
        if {operands[0], operands[1]} != {args[j], args[n + j]} or operands[0] == operands[1]:
            return INVALID
        kinds.add(hlo_combiner_kind(_HLO_COMBINERS[base], args[j].type))
    return kinds.pop() if len(kinds) == 1 else INVALID


_HLO_BOOLEAN_KINDS = {"sum": "bitwise_or", "product": "bitwise_and", "max": "bitwise_or", "min": "bitwise_and"}


def hlo_combiner_kind(kind: str, t: ir.Type) -> str:
    """The reduction an HLO combiner of `kind` computes on values of type
    `t`: on booleans (`i1`) HLO's add and maximum are a logical or, multiply
    and minimum a logical and, while a sum of i1 wraps (an exclusive or) and
    max and min read i1 signed (true is -1), as `arith.maxsi`/`minsi` do."""
    if is_boolean(t):
        return _HLO_BOOLEAN_KINDS.get(kind, kind)
    return kind


def _body_op(v: ir.Value, base: str, n: int) -> list[ir.Value] | None:
    """The operands of the hlo op `base` with `n` operands making `v`, else None."""
    if not isinstance(v, ir.OpResult):
        return None
    owner = v.owner
    dialect, _, name = owner.name.partition(".")
    if dialect not in ("mhlo", "stablehlo") or name != base or len(owner.operands) != n:
        return None
    return list(owner.operands)


def _comparison(v: ir.Value) -> tuple[ir.Value, ir.Value, str] | None:
    """(lhs, rhs, direction) of the compare making `v`."""
    operands = _body_op(v, "compare", 2)
    if operands is None:
        return None
    direction = comparison_direction(str(_attr(v.owner, "comparison_direction")))
    return None if direction is None else (operands[0], operands[1], direction)


def _compare_type(v: ir.Value) -> str | None:
    """The `compare_type` of the compare making `v` (None: not written)."""
    attr = _attr(v.owner, "compare_type")
    return None if attr is None else comparison_type(str(attr))


def _compares(v: ir.Value, a: ir.Value, b: ir.Value, directions: tuple[str, ...]) -> str | None:
    """The direction of `v = compare(a, b)` (either operand order, the
    direction read as a's) when it is one of `directions`."""
    found = _comparison(v)
    if found is None:
        return None
    lhs, rhs, direction = found
    if (lhs, rhs) == (b, a):
        direction = FLIPPED[direction]
    elif (lhs, rhs) != (a, b):
        return None
    return direction if direction in directions else None


def _either(v: ir.Value, base: str) -> list[tuple[ir.Value, ir.Value]]:
    """Both orders of the two operands of the `base` op making `v`."""
    operands = _body_op(v, base, 2)
    return [] if operands is None else [(operands[0], operands[1]), (operands[1], operands[0])]


def is_selection(op: ir.Operation) -> bool:
    """Whether a two-input reduce's body is an argmax or argmin as JAX writes
    it: with (value, index) pairs a (the accumulator) and b, it returns
    `select(p, a, b)` for both, p = a beats b on value (`GT` or `LT`, or a
    NaN: `a != a`), and on the index also when the values are equal and a's
    index is on the winning side.  Such a body picks one whole pair by an
    order fixed by value, index and, among NaNs, position, so folding it
    over pieces in order and then over the pieces' picks in the same order
    gives the pair the whole fold gives (inits are picked again harmlessly:
    a pick among copies of one pair is that pair).  That needs an order:
    integer indices, and float values compared as IEEE floats with the NaN
    test (without it `a > b ? a : b` drops a NaN the next element follows,
    so where the pieces are cut changes the answer; a total-order compare
    beside an IEEE one orders zeros two ways)."""
    block = op.regions[0].blocks[0]
    args = list(block.arguments)
    ops = list(block.operations)
    if len(args) != 4 or not ops or len(ops[-1].operands) != 2:
        return False
    av, ai, bv, bi = args
    elements = [
        ir.RankedTensorType(a.type).element_type if isinstance(a.type, ir.RankedTensorType) else None for a in args
    ]
    if any(not isinstance(t, ir.IntegerType) for t in (elements[1], elements[3])):
        return False
    floats = isinstance(elements[0], ir.FloatType)
    if not floats and not isinstance(elements[0], ir.IntegerType):
        return False
    allowed = ("FLOAT", None) if floats else ("SIGNED", "UNSIGNED", None)
    value, index = ops[-1].operands
    picked = _body_op(value, "select", 3)
    if picked is None or picked[1:] != [av, bv]:
        return False
    p = picked[0]
    beats = p if not floats else None
    if _compares(p, av, bv, ("GT", "LT")) is None:
        nan = [(c, x) for c, x in _either(p, "or") if _compares(x, av, av, ("NE",)) == "NE"]
        if not nan or _compares(nan[0][0], av, bv, ("GT", "LT")) is None:
            return False
        beats = nan[0][0]
        if _compare_type(nan[0][1]) not in allowed:
            return False
    if beats is None or _compare_type(beats) not in allowed:
        return False  # a float compare without the NaN test
    chosen = _body_op(index, "select", 3)
    if chosen is None or chosen[1:] != [ai, bi]:
        return False
    for first, tie in _either(chosen[0], "or"):
        if first != p:
            continue
        for equal, lower in _either(tie, "and"):
            if _compares(equal, av, bv, ("EQ",)) and _compares(lower, ai, bi, ("LT", "GT")):
                return _compare_type(equal) in allowed and _compare_type(lower) in ("SIGNED", "UNSIGNED", None)
    return False


def _hlo_reduce(op: ir.Operation) -> ShardingRule | None:
    """`reduce`: n inputs of one shape, n rank-0 inits, n results without the
    reduced `dimensions`.  An argmax or argmin over one dimension is a
    `select` reduction when its results have static shapes (partition
    gathers each device's pick along a new last dimension)."""
    n = len(op.results)
    dims = int_list(_attr(op, "dimensions"))
    if dims is None or n == 0 or len(op.operands) != 2 * n:
        return None
    shapes = {_shape(v) for v in list(op.operands)[:n]}
    if len(shapes) != 1 or None in shapes:
        return None
    (shape,) = shapes
    rank = len(shape)
    if any(not 0 <= d < rank for d in dims):
        return None
    kind = hlo_reduce_kind(op, n)
    kept = tuple(d for d in range(rank) if d not in dims)
    if not all(_sized(r, [shape[d] for d in kept]) for r in op.results):
        return None
    if kind == INVALID and n == 2 and len(dims) == 1 and all(None not in _shape(r) for r in op.results):
        kind = SELECT if is_selection(op) else INVALID
    iterators = tuple(Iterator(kind) if d in dims else Iterator.parallel() for d in range(rank))
    inits = tuple(_unshardable(v) for v in list(op.operands)[n:])
    return ShardingRule(iterators, (tuple(range(rank)),) * n + inits, (kept,) * n)


def _hlo_iota(op: ir.Operation) -> ShardingRule | None:
    """`iota`: every dimension a parallel loop; partition adds each device's
    offset along `iota_dimension` (`transforms/partition/hlo.py`)."""
    if op.operands or len(op.results) != 1 or _attr(op, "iota_dimension") is None:
        return None
    shape = _shape(op.results[0])
    if shape is None or None in shape or not 0 <= ir.IntegerAttr(_attr(op, "iota_dimension")).value < len(shape):
        return None
    return ShardingRule(_all_parallel(len(shape)), (), (tuple(range(len(shape))),))


def _kept_loops(whole: list[bool]) -> tuple[int, TensorMap]:
    """(loops, map): one loop per dimension flagged whole, None elsewhere."""
    out: list[int | None] = []
    loops = 0
    for w in whole:
        out.append(loops if w else None)
        loops += w
    return loops, tuple(out)


def _hlo_slice(op: ir.Operation) -> ShardingRule | None:
    """`slice`: dimensions taken whole (start 0, the full size, stride 1)
    split; one it takes a single element of (`x[:, 3]`) is a sum loop
    (`_one_element_loops`); one it takes every t-th element of (t > 1,
    `x[:, 1::2]`) is read through a window one element wide (`_strided`),
    the others stay whole."""
    starts, limits = int_list(_attr(op, "start_indices")), int_list(_attr(op, "limit_indices"))
    strides = int_list(_attr(op, "strides")) or ([1] * len(starts) if starts is not None else None)
    full = _shape(op.operands[0]) if len(op.operands) == 1 else None
    if starts is None or limits is None or strides is None or full is None or len(op.results) != 1:
        return None
    if not len(starts) == len(limits) == len(strides) == len(full) or any(t < 1 for t in strides):
        return None
    if not _sized(op.results[0], [max(0, -(-(b - a) // t)) for a, b, t in zip(starts, limits, strides)]):
        return None
    whole = [a == 0 and b == n and t == 1 for a, b, t, n in zip(starts, limits, strides, full)]
    one = [not w and 0 <= a < b <= a + t for w, a, b, t in zip(whole, starts, limits, strides)]
    windows = [
        None if w or o else _strided(a, b, t, n) for w, o, a, b, t, n in zip(whole, one, starts, limits, strides, full)
    ]
    runs = [
        not w and t == 1 and None not in full and _is_crop(a, b - a, 1, n)
        for w, a, b, t, n in zip(whole, starts, limits, strides, full)
    ]
    if any(runs) and all(w or r for w, r in zip(whole, runs)):
        # every dimension taken whole or a run of (`x[:, 1:]`, `x[:, :-1]`):
        # the runs are read through crops, as `tensor.extract_slice`'s
        loops, m = _kept_loops([w or r for w, r in zip(whole, runs)])
        crops = tuple(
            Crop(0, d, loop, a, 1, tuple(full), b - a)
            for d, (loop, r, a, b) in enumerate(zip(m, runs, starts, limits))
            if r and loop is not None
        )
        return ShardingRule(_all_parallel(loops), (m,), (m,), crops=crops)
    return _one_element_loops(op, whole, one, (), full, windows)


def _sized(value: ir.Value, sizes: Sequence[int | None]) -> bool:
    """Whether `value` is a ranked tensor of `sizes` (a dynamic size, or
    None in `sizes`, matches any): a result as its operands and attributes
    say.  Unregistered hlo ops are not verified, and partition cuts their
    pieces by the attributes."""
    shape = _shape(value)
    return (
        shape is not None
        and len(shape) == len(sizes)
        and all(n is None or k is None or n == k for n, k in zip(shape, sizes))
    )


def _fits(size: int | None, bound: int | None, equal: bool = False) -> bool:
    """Whether a size is at most (`equal`: exactly) `bound`; a dynamic
    size (None) fits any."""
    return size is None or bound is None or (size == bound if equal else size <= bound)


def _window_count(
    extent: int | None, size: int, stride: int, dilation: int, base: int, low: int, high: int
) -> int | None:
    """How many windows an hlo window op reads along a dimension of
    `extent` (dilated by `base`, padded by `low` and `high`) with a window
    of `size` cells `dilation` apart moved by `stride`; None when the
    extent is dynamic or a factor is not positive."""
    if extent is None or min(size, stride, dilation, base) < 1:
        return None
    padded = max(0, (extent - 1) * base + 1) + low + high
    span = (size - 1) * dilation + 1
    return 0 if padded < span else (padded - span) // stride + 1


def _strided(start: int, limit: int, stride: int, extent: int | None) -> Window | None:
    """The window of a dimension a slice takes every `stride`-th element of
    (from `start` to `limit`, two or more of them): output i reads element
    `stride * i + start`, a window one element wide.  Split, each device's
    outputs read only its own piece when `halo` says (0, 0): with
    `extent = stride * outputs` and `start < stride` (`x[:, ::2]`, `x[:,
    1::2]` of an even size) every piece is read at the same offset; other
    starts and limits read at an offset that depends on the device
    (partition cuts the rows with `mesh.process_multi_index`), or need
    halos.  Stride 1 stays whole (a plain crop needs halos on most meshes)."""
    if extent is None or stride <= 1 or not 0 <= start < limit <= extent:
        return None
    out = -(-(limit - start) // stride)
    if out < 2:
        return None
    return Window(loop=-1, stride=stride, dilation=1, size=1, offset=start, extent=extent, out=out)


def _one_element_loops(
    op: ir.Operation,
    whole: list[bool],
    one: list[bool],
    scalars: tuple[TensorMap | None, ...],
    full: tuple[int | None, ...],
    windows: list[Window | None] | None = None,
) -> ShardingRule:
    """A slice's rule: a parallel loop per dimension flagged whole or read
    through one of `windows` (its `loop` is set here), and a sum loop per
    operand dimension of static size it takes one element of, when the
    result has a sum: exactly one device holds that element, the others
    give 0 (partition, `transforms/partition/hlo.py`), as XLA reads `x[0,
    0]` of a split `x`.  `scalars` map the start indices."""
    windows = windows or [None] * len(whole)
    loops, m = _kept_loops([w or v is not None for w, v in zip(whole, windows)])
    iterators = list(_all_parallel(loops))
    operand = list(m)
    if _summable(op.results[0]):
        for d, (taken, n) in enumerate(zip(one, full)):
            if taken and n is not None and n > 1:
                operand[d] = len(iterators)
                iterators.append(Iterator.reduction("sum"))
    placed = tuple(None if v is None else dataclasses.replace(v, loop=m[d]) for d, v in enumerate(windows))
    found = (placed, *(None for _ in scalars)) if any(v is not None for v in placed) else ()
    return ShardingRule(tuple(iterators), (tuple(operand), *scalars), (m,), found)


def _hlo_reverse(op: ir.Operation) -> ShardingRule | None:
    """`reverse` (`jnp.flip`, a convolution's input gradient): dimensions it
    does not reverse split; a reversed one would need every piece sent to
    its mirror device, and stays whole."""
    dims = int_list(_attr(op, "dimensions"))
    shape = _shape(op.operands[0]) if len(op.operands) == 1 else None
    if dims is None or shape is None or len(op.results) != 1 or any(not 0 <= d < len(shape) for d in dims):
        return None
    if not _sized(op.results[0], shape):
        return None
    loops, m = _kept_loops([d not in dims for d in range(len(shape))])
    return ShardingRule(_all_parallel(loops), (m,), (m,))


def _hlo_sort(op: ir.Operation) -> ShardingRule | None:
    """`sort` (`jnp.sort`, `argsort`, a median): every operand and result
    splits alike along the dimensions it does not sort; the sorted one
    stays whole (an element's place depends on the whole row)."""
    dim = _attr(op, "dimension")
    shapes = {_shape(v) for v in (*op.operands, *op.results)}
    if dim is None or len(shapes) != 1 or None in shapes or len(op.operands) != len(op.results):
        return None
    (shape,) = shapes
    d = ir.IntegerAttr(dim).value
    if not 0 <= d < len(shape):
        return None
    loops, m = _kept_loops([k != d for k in range(len(shape))])
    return ShardingRule(_all_parallel(loops), (m,) * len(op.operands), (m,) * len(op.results))


def _chlo_top_k(op: ir.Operation) -> ShardingRule | None:
    """chlo `top_k` (`lax.top_k`: a mixture of experts' routing, top-k
    sampling): the leading dimensions split; the last, which it picks from,
    stays whole."""
    shape = _shape(op.operands[0]) if len(op.operands) == 1 else None
    k = _attr(op, "k")
    if shape is None or not shape or len(op.results) != 2 or not isinstance(k, ir.IntegerAttr):
        return None
    if not all(_sized(r, [*shape[:-1], ir.IntegerAttr(k).value]) for r in op.results):
        return None
    loops, m = _kept_loops([k != len(shape) - 1 for k in range(len(shape))])
    return ShardingRule(_all_parallel(loops), (m,), (m, m))


def _hlo_dynamic_slice(op: ir.Operation) -> ShardingRule | None:
    """`dynamic_slice`: dimensions the window covers whole (their start is
    clamped to 0) split; one it takes a single element of at a signless
    start (`x[:, i]`) is a sum loop (`_one_element_loops`: its clamped start
    falls in exactly one piece); the start indices are scalars."""
    sizes = int_list(_attr(op, "slice_sizes"))
    full = _shape(op.operands[0]) if op.operands else None
    if sizes is None or full is None or len(sizes) != len(full) or len(op.results) != 1:
        return None
    if len(op.operands) != len(full) + 1 or not _sized(op.results[0], sizes):
        return None
    starts = list(op.operands)[1:]
    whole = [k == n for k, n in zip(sizes, full)]
    one = [k == 1 and signless_index(v) for k, v in zip(sizes, starts)]
    return _one_element_loops(op, whole, one, tuple(_unshardable(v) for v in starts), full)


def signless_index(v: ir.Value) -> bool:
    """Whether a start index is a signless integer partition's arith reads."""
    if not isinstance(v.type, ir.RankedTensorType):
        return False
    element = ir.RankedTensorType(v.type).element_type
    return isinstance(element, ir.IntegerType) and element.is_signless and element.width > 1


def _hlo_dynamic_update_slice(op: ir.Operation) -> ShardingRule | None:
    """`dynamic_update_slice`: dimensions the update fills whole split alike;
    one it writes a single position of at signless starts (a decoder's
    cache write, `cache.at[:, pos].set(new)` as `lax.dynamic_update_slice`)
    splits the operand and result while the update stays whole: the
    clamped position falls in one device's piece, which writes it (partition,
    `transforms/partition/hlo.py`), as XLA writes in place."""
    if len(op.operands) < 2 or len(op.results) != 1:
        return None
    full, update = _shape(op.operands[0]), _shape(op.operands[1])
    if full is None or update is None or len(full) != len(update) or len(op.operands) != len(full) + 2:
        return None
    if not _sized(op.results[0], full):
        return None
    loops, m = _kept_loops([u == n and n is not None for u, n in zip(update, full)])
    starts = list(op.operands)[2:]
    operand, updated = list(m), list(m)
    for d, (u, n) in enumerate(zip(update, full)):
        if u == 1 and n is not None and n > 1 and all(signless_index(v) for v in starts):
            operand[d] = loops
            loops += 1
    maps = tuple(_unshardable(v) for v in starts)
    return ShardingRule(_all_parallel(loops), (tuple(operand), tuple(updated), *maps), (tuple(operand),))


def _concatenate(op: ir.Operation, attr_name: str) -> ShardingRule | None:
    """hlo `concatenate` and `tensor.concat` (`torch.cat`): every dimension
    but the joined one, which attribute `attr_name` names."""
    dim = int_list(_attr(op, attr_name))
    shape = _shape(op.results[0]) if len(op.results) == 1 else None
    if dim is None or len(dim) != 1 or shape is None or not 0 <= dim[0] < len(shape):
        return None
    shapes = [_shape(v) for v in op.operands]
    if not shapes or any(s is None or len(s) != len(shape) for s in shapes):
        return None
    joined = None if any(s[dim[0]] is None for s in shapes) else sum(s[dim[0]] for s in shapes)
    if not _sized(op.results[0], [joined if d == dim[0] else None for d in range(len(shape))]):
        return None
    if any(not _sized(v, [None if d == dim[0] else n for d, n in enumerate(shape)]) for v in op.operands):
        return None
    loops, m = _kept_loops([d != dim[0] for d in range(len(shape))])
    return ShardingRule(_all_parallel(loops), (m,) * len(op.operands), (m,))


def _hlo_pad(op: ir.Operation) -> ShardingRule | None:
    """`pad`: dimensions with no padding split, and so do ones padded only
    between and around their elements the same way in every piece: `i`
    cells after each element, `low <= i` of them before the first and `i -
    low` after the last (the gradient of `x[:, low::i + 1]`, a result of
    exactly `i + 1` cells per element), which a piece of the operand pads
    into exactly its piece of the result with the same attributes.  The
    padding value is a scalar."""
    low, high = int_list(_attr(op, "edge_padding_low")), int_list(_attr(op, "edge_padding_high"))
    interior = int_list(_attr(op, "interior_padding"))
    if low is None or high is None or interior is None or len(op.operands) != 2 or len(op.results) != 1:
        return None
    shape = _shape(op.operands[0])
    if shape is None or not len(low) == len(high) == len(interior) == len(shape) or min(interior, default=0) < 0:
        return None
    padded = [None if n is None else a + b + n + max(n - 1, 0) * i for a, b, n, i in zip(low, high, shape, interior)]
    if not _sized(op.results[0], padded):
        return None
    result = _shape(op.results[0])
    if result is not None and None not in shape and not any(interior):
        # no interior padding, static sizes: a dimension padded at its ends
        # (or cut, by negative padding) is read through a crop, as
        # `tensor.pad`'s: each device pads its own rows by its share
        runs = [(a or b) and n > 0 and r >= 2 for a, b, n, r in zip(low, high, shape, result)]
        if any(runs):
            loops, m = _kept_loops([r or (a == b == 0) for r, a, b in zip(runs, low, high)])
            crops = tuple(
                Crop(0, d, loop, -a, 1, tuple(shape), r, pads=True)
                for d, (loop, run, a, r) in enumerate(zip(m, runs, low, result))
                if run and loop is not None
            )
            return ShardingRule(_all_parallel(loops), (m, _unshardable(op.operands[1])), (m,), crops=crops)
    loops, m = _kept_loops([0 <= a <= c and b == c - a for a, b, c in zip(low, high, interior)])
    return ShardingRule(_all_parallel(loops), (m, _unshardable(op.operands[1])), (m,))


def _hlo_gather(op: ir.Operation) -> ShardingRule | None:
    """`gather`: one loop per result dimension.  The start indices' batch
    dimensions (all but `index_vector_dim`) are the result's batch loops;
    an operand dimension the slice takes whole from 0 (not indexed, not
    collapsed) is its offset loop; an operand batching dimension shares its
    indices dimension's loop.  Each dimension an index picks one row from
    (an embedding's vocabulary; both dimensions of `t[r, c]`) is a sum
    loop: exactly one device holds each picked element, and the others give
    0 for it (Megatron's vocabulary-parallel embedding; partition masks the
    ids it does not hold, `transforms/partition/hlo.py`).  Booleans have no
    such sum; other dimensions the indices pick from stay whole."""
    dims = gather_dimensions(str(_attr(op, "dimension_numbers") or ""))
    sizes = int_list(_attr(op, "slice_sizes"))
    if dims is None or sizes is None or len(op.operands) != 2 or len(op.results) != 1:
        return None
    operand, indices, result = _shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])
    if operand is None or indices is None or result is None or len(sizes) != len(operand):
        return None
    problem = gather_problem(dims, (len(result), len(operand)), indices)
    if problem is not None:
        raise MalformedDimensions(problem)
    ivd = dims.index_vector_dim
    batch_at = [p for p in range(len(result)) if p not in dims.offset_dims]
    index_batch = [k for k in range(len(indices)) if k != ivd]
    offset_of = [k for k in range(len(operand)) if k not in dims.collapsed_slice_dims + dims.operand_batching_dims]
    if len(index_batch) != len(batch_at) or len(offset_of) != len(dims.offset_dims):
        return None
    expected: list[int | None] = [None] * len(result)
    for k, p in (*zip(index_batch, batch_at), *zip(offset_of, dims.offset_dims)):
        if not 0 <= p < len(result):
            return None
        expected[p] = indices[k] if p in batch_at else sizes[k]
    if not _sized(op.results[0], expected):
        return None
    indices_map: list[int | None] = [None] * len(indices)
    for k, p in zip(index_batch, batch_at):
        indices_map[k] = p
    operand_map: list[int | None] = [None] * len(operand)
    for k, p in zip(offset_of, dims.offset_dims):
        whole = operand[k] is not None and sizes[k] == operand[k] and 0 <= p < len(result) and result[p] == operand[k]
        if whole and k not in dims.start_index_map:
            operand_map[k] = p
    for ob, ib in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
        if 0 <= ob < len(operand) and 0 <= ib < len(indices) and ib != ivd:
            operand_map[ob] = indices_map[ib]
    loops = len(result)
    # a result dimension no operand dimension follows (a slice narrower than
    # its dimension) is never split
    followed = {loop for loop in (*operand_map, *indices_map) if loop is not None}
    iterators = tuple(Iterator.parallel() if p in followed else Iterator.invalid() for p in range(loops))
    result_map = tuple(range(loops))
    given = ir.RankedTensorType(op.operands[1].type)
    ids = given.element_type
    if (
        _summable(op.results[0])
        and signless_index(op.operands[1])  # partition shifts them with arith, in i64
        and ids.width <= 64
        # (several picked dimensions: partition slices each out of the ids)
        and (len(dims.start_index_map) == 1 or given.encoding is None)
    ):
        for row in dims.start_index_map:
            if (
                0 <= row < len(operand)
                and row in dims.collapsed_slice_dims
                and sizes[row] == 1
                and operand[row] is not None
                and operand_map[row] is None
            ):
                operand_map[row] = len(iterators)
                iterators += (Iterator.reduction("sum"),)
    return ShardingRule(iterators, (tuple(operand_map), tuple(indices_map)), (result_map,))


def _hlo_scatter(op: ir.Operation) -> ShardingRule | None:
    """`scatter`: one loop per input dimension, shared by every input and
    result.  An input dimension an update window covers whole (the rows of
    `x.at[:, i].set(...)`, the features of `table.at[ids].add(grads)`; also
    one an index moves along, which only index 0 fits: vmap's
    `dynamic_update_slice`) splits with the updates' window dimension; an
    input batching dimension splits with the indices' and the updates'
    dimensions of that batch.  Each device then scatters its own updates
    into its own piece, the indices untouched.  Another dimension an index
    moves along stays whole, an update may land on any device's piece,
    unless each window covers one position of it (below).  A
    scatter-add into zeros also has a sum loop per batch dimension of its
    updates (XLA's embedding gradient: each device scatters its own tokens'
    rows, then one all_reduce adds the pieces), and so has a max, min or
    product into its identity a loop of that kind (`segment_max`)."""
    n = len(op.results)
    dims = scatter_dimensions(str(_attr(op, "scatter_dimension_numbers") or ""))
    if dims is None or n < 1 or len(op.operands) != 2 * n + 1:
        return None
    inputs, indices, updates = op.operands[:n], op.operands[n], op.operands[n + 1 :]
    shape, index_shape = _shape(inputs[0]), _shape(indices)
    update_shapes = {_shape(u) for u in updates}
    if shape is None or index_shape is None or len(update_shapes) != 1 or None in update_shapes:
        return None
    (update_shape,) = update_shapes
    if any(_shape(v) != shape for v in (*inputs, *op.results)):
        return None
    problem = scatter_problem(dims, (len(update_shape), len(shape)), index_shape)
    if problem is not None:
        raise MalformedDimensions(problem)
    rank, ivd = len(shape), dims.index_vector_dim
    window_of = dims.window_of(rank)
    scattered = [u for u in range(len(update_shape)) if u not in dims.update_window_dims]
    index_batch = [q for q in range(len(index_shape)) if q != ivd]
    if len(window_of) != len(dims.update_window_dims) or len(scattered) != len(index_batch):
        return None
    # each update row is scattered by one index row, and its window fits
    # in the input
    if not all(_fits(update_shape[u], index_shape[q], equal=True) for u, q in zip(scattered, index_batch)):
        return None
    if not all(
        0 <= u < len(update_shape) and _fits(update_shape[u], shape[k])
        for u, k in zip(dims.update_window_dims, window_of)
    ):
        return None
    indices_map: list[int | None] = [None] * len(index_shape)
    update_map: list[int | None] = [None] * len(update_shape)
    for ob, ib in zip(dims.input_batching_dims, dims.scatter_indices_batching_dims):
        if 0 <= ob < rank and ib in index_batch:
            indices_map[ib] = ob
            update_map[scattered[index_batch.index(ib)]] = ob
    # a window covering a dimension whole (maybe at an index: vmap's
    # `dynamic_update_slice` indexes every dimension, the whole ones at 0)
    # splits with it: a device writes its piece of the window at the same
    # index, which fits its piece exactly when the whole window fits
    for u, k in dims.covered(shape, update_shape).items():
        update_map[u] = k
    followed = {k for k in update_map if k is not None}
    element = ir.RankedTensorType(indices.type).element_type
    if isinstance(element, ir.IntegerType) and element.is_signless and 1 < element.width <= 64:
        # an input dimension a window covers one position of, at an index
        # (`cache.at[:, pos].set(new)`): each device writes the windows that
        # land in its piece (partition shifts the index by the piece's
        # start; a window past either end is dropped whole, XLA's rule)
        for k in dims.scatter_dims_to_operand_dims:
            width = 1 if k in dims.inserted_window_dims else None
            if k in window_of and window_of.index(k) < len(dims.update_window_dims):
                u = dims.update_window_dims[window_of.index(k)]
                width = update_shape[u] if 0 <= u < len(update_shape) else None
            if 0 <= k < rank and width == 1 and shape[k] is not None and shape[k] > 1:
                followed.add(k)
    iterators = [Iterator.parallel() if k in followed else Iterator.invalid() for k in range(rank)]
    combiner = _scatter_combiner(op) if n == 1 else None
    if combiner is not None and _summable(op.results[0]):
        # added into zeros (an embedding's gradient; `segment_max` into the
        # lowest value, `segment_prod` into ones): each device may scatter a
        # part of the updates, and the pieces combined are the scatter
        for u, q in zip(scattered, index_batch):
            if update_map[u] is None:
                update_map[u] = indices_map[q] = len(iterators)
                iterators.append(Iterator.reduction(combiner))
    same = tuple(range(rank))
    operand_maps = ((same,) * n) + (tuple(indices_map),) + ((tuple(update_map),) * n)
    return ShardingRule(tuple(iterators), operand_maps, (same,) * n)


_SCATTER_COMBINERS = ("sum", "max", "min", "product")


def _scatter_combiner(op: ir.Operation) -> str | None:
    """The combiner of a one-input scatter's body when the input is its
    identity (a splat of 0 for a sum, of the lowest value for a max, of 1
    for a product), which pieces of the updates scattered apart combine
    into the whole scatter by; else None."""
    if len(op.operands) != 3:
        return None
    kind = hlo_reduce_kind(op, 1)
    return kind if kind in _SCATTER_COMBINERS and _neutral(op.operands[0], kind) else None


def _summable(v: ir.Value) -> bool:
    """Whether pieces of `v` can be partial sums partition knows how to
    make: a real or integer element with a 0 to give (not boolean, whose
    sum is an exclusive or, nor complex)."""
    element = ir.RankedTensorType(v.type).element_type
    return isinstance(element, ir.FloatType | ir.IntegerType | ir.IndexType) and not is_boolean(element)


def window_lists(op: ir.Operation, names: tuple[str, ...], count: int) -> tuple[list[int], ...] | None:
    """An hlo window's attributes `names` (1s where absent), then its
    `padding` (0s where absent, a (low, high) pair per dimension); None
    when one does not have an entry per dimension (`count` of them)."""
    lists = [int_list(_attr(op, name)) or [1] * count for name in names]
    padding = int_list(_attr(op, "padding")) or [0] * (2 * count)
    if any(len(a) != count for a in lists) or len(padding) != 2 * count:
        return None
    return (*lists, padding)


def _hlo_convolution(op: ir.Operation) -> ShardingRule | None:
    """`convolution`: one loop per result dimension, a sum loop over the
    input features the kernel contracts (a logical or on booleans), then a
    loop per kernel spatial dimension, never split but where the window is
    wider than the outputs (a kernel's gradient): there the window's loop
    splits as a sum and the output's stays whole.  The batch loop follows
    the input's batch and the feature loop the kernel's output features;
    an output spatial loop reads its input dimension through a window
    (`window_strides`, `rhs_dilation`, the kernel's size, the low padding as
    a negative offset, `lhs_dilation` as the window's base: a transposed
    convolution), so it splits with halos, unless its elements have no
    arith zero (complex, quantized, signed or unsigned integers).  Feature
    groups tie
    a group's input and output features together, and batch groups the
    batch to the output features, so those loops stay whole then, except
    where a group has one input or one output channel (a depthwise
    convolution, with a channel multiplier or not), whose channels split
    like a batch, or one example or one output channel per batch group (a
    depthwise kernel's gradient), whose batch splits with the output
    features; batch groups still sum over every input feature."""
    dims = conv_dimensions(str(_attr(op, "dimension_numbers") or ""))
    if dims is None or len(op.operands) != 2 or len(op.results) != 1:
        return None
    shapes = [_shape(v) for v in (*op.operands, op.results[0])]
    n = len(dims.input_spatial)
    if any(s is None or len(s) != n + 2 for s in shapes):
        return None
    x, k, out = shapes
    assert x is not None and k is not None and out is not None
    groups = [int_list(_attr(op, f"{g}_group_count")) or [1] for g in ("feature", "batch")]
    grouped = groups != [[1], [1]]
    window = window_lists(op, ("window_strides", "rhs_dilation", "lhs_dilation"), n)
    if window is None:
        return None
    strides, rhs_dilation, lhs_dilation, padding = window
    if not _conv_sized(dims, x, k, out, groups[0][0], groups[1][0], window):
        return None
    rank = n + 2
    iterators = [Iterator.invalid()] * rank
    inputs: list[DimExpr] = [frozenset()] * rank
    kernel: list[DimExpr] = [frozenset()] * rank
    if groups[1] == [1]:
        inputs[dims.input_batch] = dims.output_batch
        iterators[dims.output_batch] = Iterator.parallel()
    feature_groups, batch_groups = groups[0][0], groups[1][0]
    depthwise = (
        batch_groups == 1
        and feature_groups > 1
        and k[dims.kernel_output_feature] == out[dims.output_feature]
        and (k[dims.kernel_input_feature] == 1 or k[dims.kernel_output_feature] == feature_groups)
    )
    if depthwise:
        # one input or one output channel per group (a depthwise convolution,
        # with a channel multiplier or not): a piece of either feature
        # dimension that divides evenly holds whole groups, and partition
        # sets feature_group_count to the device's groups
        inputs[dims.input_feature] = kernel[dims.kernel_output_feature] = dims.output_feature
        iterators[dims.output_feature] = Iterator.parallel()
    if (
        feature_groups == 1
        and batch_groups > 1
        and batch_groups in (x[dims.input_batch], k[dims.kernel_output_feature])
        and k[dims.kernel_output_feature] == out[dims.output_feature]
    ):
        # one example or one output channel per batch group (JAX's depthwise
        # kernel gradient, its channels the batch): a piece of either that
        # divides evenly holds whole groups, so the batch splits with the
        # output features, and partition sets batch_group_count to the
        # device's groups
        inputs[dims.input_batch] = kernel[dims.kernel_output_feature] = dims.output_feature
        iterators[dims.output_feature] = Iterator.parallel()
    if not grouped:
        kernel[dims.kernel_output_feature] = dims.output_feature
        iterators[dims.output_feature] = Iterator.parallel()
    element = ir.RankedTensorType(op.results[0].type).element_type
    if groups[0] == [1] and isinstance(element, ir.FloatType | ir.IntegerType | ir.IndexType):  # not complex
        # every batch group sums over all the input features (a depthwise
        # kernel's gradient: JAX's batch groups are the channels, and the
        # features it contracts the examples, split by data parallelism)
        inputs[dims.input_feature] = kernel[dims.kernel_input_feature] = len(iterators)
        iterators.append(Iterator.reduction(hlo_combiner_kind("sum", element)))
    # halo cells past the edges get an arith zero of the input's type:
    # real, signless integer or index elements only
    zero = ir.RankedTensorType(op.operands[0].type).element_type
    fillable = isinstance(zero, ir.FloatType | ir.IndexType) or (
        isinstance(zero, ir.IntegerType) and ir.IntegerType(zero).is_signless
    )
    # what a split window sums its positions' products with (None: no sum)
    summable = hlo_combiner_kind("sum", element) if isinstance(element, ir.FloatType | ir.IntegerType) else None
    reversed_windows = _reversed_windows(op, n)
    for j in range(n if fillable else 0):
        xd, kd, od = dims.input_spatial[j], dims.kernel_spatial[j], dims.output_spatial[j]
        size, extent, length = k[kd], x[xd], out[od]
        if None in (size, extent, length) or min(strides[j], rhs_dilation[j], lhs_dilation[j]) < 1:
            continue
        window_loop = len(iterators)
        kernel[kd] = window_loop
        if _window_splits(size, length, extent) and lhs_dilation[j] == 1 and summable and not reversed_windows[j]:
            # A window wider than the outputs it makes (a kernel's gradient:
            # the forward pass's output gradient is the window, the kernel
            # offsets the outputs): the window loop splits instead, as a sum
            # over its positions, and each device reads the rows its part
            # of the window meets at every output (with halos); the output
            # loop stays whole.  The window's roles swap (the same rows).
            iterators.append(Iterator.reduction(summable))
            iterators[od] = Iterator.invalid()
            inputs[xd] = Window(
                loop=window_loop,
                stride=rhs_dilation[j],
                dilation=strides[j],
                size=length,
                offset=-padding[2 * j],
                extent=extent,  # type: ignore[arg-type]
                out=size,  # type: ignore[arg-type]
                window_loop=od,
            )
            continue
        iterators.append(Iterator.invalid())
        iterators[od] = Iterator.parallel()
        inputs[xd] = Window(
            loop=od,
            stride=strides[j],
            dilation=rhs_dilation[j],
            size=size,  # type: ignore[arg-type]
            offset=-padding[2 * j],
            extent=extent,  # type: ignore[arg-type]
            out=length,  # type: ignore[arg-type]
            window_loop=window_loop,
            base=lhs_dilation[j],
        )
    return ShardingRule.from_exprs(tuple(iterators), [inputs, kernel], [list(range(rank))])


def _window_splits(size: int, length: int, extent: int) -> bool:
    """Whether a convolution's window loop (of `size` positions) splits
    instead of its output loop (`length` outputs) along an input dimension
    of `extent` rows: the window is wider and cuts, with the rows, into
    even pieces for more device counts than the outputs do (a loop splits
    evenly over n devices where n divides its size and the rows), or for as
    many, the fewest devices among them being fewer.  8 positions of 16 rows
    split over 2, 4 or 8 devices where 3 outputs split over none; 5
    positions beside 4 outputs of 10 rows stay whole (over 5 devices only,
    where the outputs split over 2)."""
    return size > length and _split_counts(math.gcd(size, extent)) > _split_counts(math.gcd(length, extent))


def _split_counts(n: int) -> tuple[int, int]:
    """(how many device counts above 1 divide `n`, minus the least of them):
    a larger key splits evenly over more meshes, or over a smaller one."""
    counts = [k for k in range(2, n + 1) if n % k == 0]
    return len(counts), -counts[0] if counts else 0


def _reversed_windows(op: ir.Operation, n: int) -> list[bool]:
    """Per spatial dimension, whether the convolution reads its kernel
    backwards (`window_reversal`; an unreadable one counts as reversed)."""
    attr = _attr(op, "window_reversal")
    if attr is None:
        return [False] * n
    found = bools_of(attr)
    return found if found is not None and len(found) == n else [True] * n


def _conv_sized(
    dims: ConvDimensions, x: tuple, k: tuple, out: tuple, feature_groups: int, batch_groups: int, window: tuple
) -> bool:
    """Whether a convolution's shapes agree with its attributes: the
    kernel's input features times the feature groups are the input's, the
    batch divides by the batch groups, and each output dimension has the
    size the batch, the kernel's output features or the window count say."""
    strides, rhs_dilation, lhs_dilation, padding = window
    if feature_groups < 1 or batch_groups < 1:
        return False
    if not _fits(x[dims.input_feature], _times(k[dims.kernel_input_feature], feature_groups), equal=True):
        return False
    batch = x[dims.input_batch]
    if batch is not None and batch % batch_groups:
        return False
    expected: list[int | None] = [None] * len(out)
    expected[dims.output_batch] = None if batch is None else batch // batch_groups
    expected[dims.output_feature] = k[dims.kernel_output_feature]
    for j, (xd, kd, od) in enumerate(zip(dims.input_spatial, dims.kernel_spatial, dims.output_spatial)):
        size = k[kd]
        expected[od] = (
            None
            if size is None
            else _window_count(
                x[xd], size, strides[j], rhs_dilation[j], lhs_dilation[j], padding[2 * j], padding[2 * j + 1]
            )
        )
    return all(_fits(n, e, equal=True) for n, e in zip(out, expected))


def _times(n: int | None, factor: int) -> int | None:
    return None if n is None else n * factor


def _hlo_reduce_window(op: ir.Operation) -> ShardingRule | None:
    """`reduce_window` of one input (max or average pooling): one loop per
    result dimension.  A dimension whose window is one cell wide, moved one
    by one, unpadded and undilated (a batch, the channels) follows its
    loop; one read through a wider window (`window_dimensions`,
    `window_strides`, `window_dilations`, the low padding as a negative
    offset) splits with halos, unless the input is dilated
    (`base_dilations`), or it is padded and the init value is not the
    body's identity: the specification folds init in for every padding
    cell, while XLA skips them, so only an identity makes the halo cells
    partition fills with it mean the same to both."""
    found = _one_input_window(op, _shape(op.operands[0]), _shape(op.results[0])) if len(op.operands) else None
    if found is None:
        return None
    x, out, (size, strides, dilation, base, padding) = found
    rank = len(x)
    counts = [
        _window_count(x[d], size[d], strides[d], dilation[d], base[d], padding[2 * d], padding[2 * d + 1])
        for d in range(rank)
    ]
    if not all(_fits(n, c, equal=True) for n, c in zip(out, counts)):
        return None
    neutral = _neutral_init(op)
    scan = _scanned(op, x, out, found[2])
    iterators: list[Iterator] = []
    inputs: list[DimExpr] = []
    for d in range(rank):
        padded = padding[2 * d] != 0 or padding[2 * d + 1] != 0
        plain = size[d] == strides[d] == dilation[d] == base[d] == 1 and not padded
        if plain or (scan is not None and d == scan[0]):
            iterators.append(Iterator.parallel())
            inputs.append(d)
        elif (
            base[d] == 1
            and (neutral or not padded)
            and x[d] is not None
            and out[d] is not None
            and min(size[d], strides[d], dilation[d]) >= 1
        ):
            iterators.append(Iterator.parallel())
            inputs.append(
                Window(
                    loop=d,
                    stride=strides[d],
                    dilation=dilation[d],
                    size=size[d],
                    offset=-padding[2 * d],
                    extent=x[d],
                    out=out[d],
                )
            )
        else:
            iterators.append(Iterator.invalid())
            inputs.append(frozenset())
    init = _whole_dims(op.operands[1])
    rule = ShardingRule.from_exprs(tuple(iterators), [inputs, init], [list(range(rank))])
    if scan is None or not rule.iterators[scan[0]].is_parallel:
        return rule
    return dataclasses.replace(rule, scans=(Scan(scan[0], scan[1], scan[2]),))


def _one_input_window(op: ir.Operation, x: tuple[int | None, ...] | None, out: tuple[int | None, ...] | None):
    """(input shape, result shape, its window lists) of a `reduce_window`
    of one input of shape `x` and result of shape `out`, else None."""
    if len(op.operands) != 2 or len(op.results) != 1 or x is None or out is None or len(x) != len(out):
        return None
    window = window_lists(op, ("window_dimensions", "window_strides", "window_dilations", "base_dilations"), len(x))
    return None if window is None else (x, out, window)


def hlo_scan(op: ir.Operation, types: tuple[ir.Type, ir.Type] | None = None) -> tuple[int, str, bool] | None:
    """(dimension, combiner kind, reverse) of a one-input `reduce_window`
    of static shape that scans one dimension of size n >= 2 and leaves the
    others alone: a window of n cells moved one by one and padded by n - 1 in
    front (a prefix scan, `jnp.cumsum`) or behind (`reverse`, a suffix
    scan), no dilation, an init that is its combiner's identity (the
    padding then adds nothing).  Else None.  `types`: the input's and the
    result's, where the op's own are a device's pieces (partition)."""
    if not len(op.operands):
        return None
    if types is None:
        window = _one_input_window(op, _shape(op.operands[0]), _shape(op.results[0]))
    else:
        window = _one_input_window(op, _type_shape(types[0]), _type_shape(types[1]))
    return None if window is None else _scanned(op, *window)


def _scanned(op: ir.Operation, x: tuple, out: tuple, window: tuple) -> tuple[int, str, bool] | None:
    """`hlo_scan` of a `reduce_window` whose shapes and window lists are read."""
    size, strides, dilation, base, padding = window
    if None in x or None in out:
        return None  # (the totals' row takes its other sizes from the type)
    found = None
    for d in range(len(x)):
        low, high = padding[2 * d], padding[2 * d + 1]
        if size[d] == strides[d] == dilation[d] == base[d] == 1 and low == high == 0:
            continue
        n = x[d]
        if found is not None or n < 2 or out[d] != n or size[d] != n:
            return None
        if strides[d] != 1 or dilation[d] != 1 or base[d] != 1 or (low, high) not in ((n - 1, 0), (0, n - 1)):
            return None
        found = (d, low == 0)
    kind = hlo_reduce_kind(op, 1)
    if found is None or kind == INVALID or not _neutral(op.operands[1], kind):
        return None
    return found[0], kind, found[1]


def _hlo_select_and_scatter(op: ir.Operation) -> ShardingRule | None:
    """`select_and_scatter` (the max-pooling gradient): a dimension whose
    windows tile it, unpadded and side by side (one cell wide and moved one
    by one: a batch, the channels; or s wide and moved s: 2x2 pooling with
    stride 2) splits the operand, the source and the result alike, a piece
    of the source's windows holding the operand's and the result's cells
    those windows cover; overlapping windows stay whole (a window near a
    piece's edge would scatter into its neighbour's cells)."""
    if len(op.operands) != 3 or len(op.results) != 1:
        return None
    x, src, out = (_shape(v) for v in (op.operands[0], op.operands[1], op.results[0]))
    if x is None or src is None or out is None or not len(x) == len(src) == len(out):
        return None
    rank = len(x)
    window = window_lists(op, ("window_dimensions", "window_strides"), rank)
    if window is None:
        return None
    size, strides, padding = window
    counts = [_window_count(x[d], size[d], strides[d], 1, 1, padding[2 * d], padding[2 * d + 1]) for d in range(rank)]
    if not _sized(op.results[0], x) or not all(_fits(n, c, equal=True) for n, c in zip(src, counts)):
        return None
    # (a piece of whole windows is a piece of as many cells s times over:
    # even pieces of the source cut the operand into even pieces of whole windows)
    plain = [
        size[d] == strides[d] >= 1 and padding[2 * d] == padding[2 * d + 1] == 0 and x[d] == src[d] * size[d]
        for d in range(rank)
    ]
    loops, m = _kept_loops(plain)
    return ShardingRule(_all_parallel(loops), (m, m, _unshardable(op.operands[2])), (m,))


_IDENTITIES = {
    "sum": (0,),
    "product": (1,),
    "max": (-math.inf,),
    "min": (math.inf,),
    "bitwise_or": (0,),
    "bitwise_xor": (0,),
    "bitwise_and": (-1, 1),
}
"""Each body kind's identity (`bitwise_and`: all ones, -1 or an i1 true;
an integer max or min: the type's lowest or highest, checked below)."""


def _neutral_init(op: ir.Operation) -> bool:
    """Whether a one-input reduce_window's init is a constant its body's
    combiner leaves every value unchanged with."""
    return _neutral(op.operands[1], hlo_reduce_kind(op, 1))


def reduce_identity_kind(op: ir.Operation) -> str | None:
    """The combiner's kind of a one-input hlo reduce whose init is that
    combiner's identity (folding it in on every device changes nothing),
    else None."""
    if len(op.operands) != 2:
        return None
    kind = hlo_reduce_kind(op, 1)
    return kind if kind != INVALID and _neutral(op.operands[1], kind) else None


_SPLAT_KEEPING = frozenset(("broadcast_in_dim", "reshape", "transpose"))
"""hlo ops whose result is a splat when their one operand is (of its element type)."""


def _neutral(v: ir.Value, kind: str) -> bool:
    """Whether `v` is a splat of the identity of combiner `kind`: a constant,
    through the ops JAX passes it through (a broadcast, a same-type convert)
    and the annotations and layout changes propagation and partition put
    in front of it (a piece or a gather of a splat is that splat)."""
    owner = v.owner
    while isinstance(owner, ir.OpView | ir.Operation) and len(owner.operands) >= 1:
        name = owner.name
        if name in ("mesh.shard", "mesh.all_slice", "mesh.all_gather"):
            owner = owner.operands[0].owner
            continue
        if not name.startswith(("stablehlo.", "mhlo.")) or len(owner.operands) != 1 or len(owner.results) != 1:
            break
        t, r = owner.operands[0].type, owner.results[0].type
        base = name.partition(".")[2]
        if base == "convert" and t == r:
            owner = owner.operands[0].owner
        elif (
            base in _SPLAT_KEEPING
            and isinstance(t, ir.ShapedType)
            and isinstance(r, ir.ShapedType)
            and ir.ShapedType(t).element_type == ir.ShapedType(r).element_type
        ):
            owner = owner.operands[0].owner
        else:
            break
    if kind not in _IDENTITIES or not isinstance(owner, ir.OpView | ir.Operation):
        return False
    if owner.name not in ("stablehlo.constant", "mhlo.constant"):
        return False
    attr = readable_attr(owner, "value")
    if not isinstance(attr, ir.DenseElementsAttr) or not attr.is_splat:
        return False
    element = ir.ShapedType(attr.type).element_type
    value = attr.get_splat_value()
    if isinstance(element, ir.FloatType):
        return float(ir.FloatAttr(value).value) in _IDENTITIES[kind]
    if not isinstance(element, ir.IntegerType):
        return False
    n = integer_value(ir.IntegerAttr(value))
    width = ir.IntegerType(element).width
    signed = not ir.IntegerType(element).is_unsigned
    if kind == "max":
        return n == (-(2 ** (width - 1)) if signed else 0)
    if kind == "min":
        return n == (2 ** (width - 1) - 1 if signed else 2**width - 1)
    return n in _IDENTITIES[kind] and (n != 1 or kind != "bitwise_and" or width == 1)


# ---------------------------------------------------------------------------
# Registration


def _passthrough(op: ir.Operation) -> ShardingRule:
    """`func.return` and `func.call`: no loops, and no operand or result
    constrained.  A returned value keeps the layout it has (a partial sum
    stays partial); a call's arguments and results are what the callee's
    own annotations make them."""
    return ShardingRule((), (None,) * len(op.operands), (None,) * len(op.results))


def _family_arith_math(op: ir.Operation) -> ShardingRule | None:
    return _elementwise(op)


_FAMILIES: dict[str, RuleFn] = {
    "linalg": _linalg,
    "arith": _family_arith_math,
    "math": _family_arith_math,
}


def _register_builtins() -> None:
    for name in ("arith.constant", "tensor.empty", "tensor.splat", "tosa.const"):
        register_rule(name, _constant)
    for base in _TOSA_ELEMENTWISE:
        register_rule(f"tosa.{base}", _tosa_elementwise)
    register_rule("tensor.cast", _static_cast)
    register_rule("tensor.bitcast", _static_cast)
    register_rule("linalg.softmax", _softmax)
    register_rule("tensor.collapse_shape", _tensor_reshape)
    register_rule("tensor.expand_shape", _tensor_reshape)
    register_rule("tensor.extract_slice", _extract_slice)
    register_rule("tensor.insert_slice", _insert_slice)
    register_rule("tensor.pad", _pad)
    register_rule("tensor.insert", _tensor_insert)
    register_rule("tensor.concat", lambda op: _concatenate(op, "dim"))
    register_rule("tosa.reshape", _shape_reshape)
    register_rule("tensor.reshape", _shape_reshape)
    register_rule("func.return", _passthrough)
    register_rule("func.call", _passthrough)
    register_rule("tosa.matmul", _tosa_matmul)
    for name in _TOSA_REDUCTIONS:
        register_rule(name, _tosa_reduce)
    register_rule("tosa.transpose", lambda op: _transpose(op, "perms"))
    for name in ("tosa.conv2d", "tosa.conv3d", "tosa.depthwise_conv2d", "tosa.max_pool2d", "tosa.avg_pool2d"):
        register_rule(name, _tosa_windowed)
    for dialect in ("mhlo", "stablehlo"):
        for base in _HLO_ELEMENTWISE:
            register_rule(f"{dialect}.{base}", _elementwise)
        register_rule(f"{dialect}.constant", _constant)
        register_rule(f"{dialect}.bitcast_convert", _hlo_bitcast_convert)
        register_rule(f"{dialect}.dot_general", _hlo_dot_general)
        register_rule(f"{dialect}.dot", _hlo_dot)
        register_rule(f"{dialect}.broadcast_in_dim", _hlo_broadcast_in_dim)
        register_rule(f"{dialect}.transpose", lambda op: _transpose(op, "permutation"))
        register_rule(f"{dialect}.reduce", _hlo_reduce)
        register_rule(f"{dialect}.reshape", _shape_reshape)
        register_rule(f"{dialect}.iota", _hlo_iota)
        register_rule(f"{dialect}.slice", _hlo_slice)
        register_rule(f"{dialect}.dynamic_slice", _hlo_dynamic_slice)
        register_rule(f"{dialect}.dynamic_update_slice", _hlo_dynamic_update_slice)
        register_rule(f"{dialect}.concatenate", lambda op: _concatenate(op, "dimension"))
        register_rule(f"{dialect}.pad", _hlo_pad)
        register_rule(f"{dialect}.gather", _hlo_gather)
        register_rule(f"{dialect}.scatter", _hlo_scatter)
        register_rule(f"{dialect}.convolution", _hlo_convolution)
        register_rule(f"{dialect}.reverse", _hlo_reverse)
        register_rule(f"{dialect}.sort", _hlo_sort)
        register_rule(f"{dialect}.reduce_window", _hlo_reduce_window)
        register_rule(f"{dialect}.select_and_scatter", _hlo_select_and_scatter)
    for base in _CHLO_ELEMENTWISE:
        register_rule(f"chlo.{base}", _elementwise)
    register_rule("chlo.top_k", _chlo_top_k)


_register_builtins()
_POINTWISE: frozenset[RuleFn] = frozenset({_elementwise, _tosa_elementwise, _family_arith_math, _static_cast})


_HLO_DIALECTS = ("stablehlo.", "mhlo.", "chlo.")


def is_pure_hlo(name: str) -> bool:
    """Whether ops named `name` are hlo ops with a built-in rule: each of
    those computes its results from its operands alone (no effect, no
    collective, no custom call), so one nothing reads may be dropped."""
    return name.startswith(_HLO_DIALECTS) and built_in(name)


def is_pointwise(name: str) -> bool:
    """Whether ops named `name` take a built-in elementwise rule, which reads
    none of their attributes: the op cloned onto pieces (its result retyped)
    is then the op on pieces.  An op whose rule is only elementwise in one
    form (a full slice, a reshape to its own shape) keeps the whole shape
    in its attributes, and is not."""
    return _rule_fn(name) in _POINTWISE


_LOCAL: frozenset[RuleFn] = frozenset({*_RULES.values(), *_FAMILIES.values()})
"""The built-in rule functions: each reads only the op itself (attributes,
types, body), so `RuleCache` may memoize them by signature.  A rule
registered by a user may read anything and is always called."""

__all__ = [
    "RuleCache",
    "RuleFn",
    "affine_linear",
    "fuse_pads",
    "fusible_pad",
    "is_pointwise",
    "is_pure_hlo",
    "properties_text",
    "knows",
    "padding_value",
    "reduce_identity_kind",
    "register_rule",
    "registered_names",
    "rule_for",
]
