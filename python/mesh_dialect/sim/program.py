"""IR compiled once into plain Python steps that every device then runs.

Reading attributes through the bindings costs microseconds per access; a
simulated device would pay that for every op it executes. So each function
is compiled once: every op becomes a `Step` holding its decoded attributes,
the slot numbers of its operands and results, and the handler that runs it.
Handlers come from a registry keyed by op name (`register`), which users can
extend for their own ops.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from mlir import ir

from .floats import bf16_bits, bf16_from_bits, to_bf16


class SimError(Exception):
    """An op the simulator cannot run, or a run that cannot go on.  An error
    at a place in the program starts with that place, which `where` holds
    (file:line:col), so a tool can word it as a diagnostic."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.where = where


@dataclass
class Step:
    name: str
    run: Callable[..., Any]
    operands: tuple[int, ...]
    results: tuple[int, ...]
    attrs: dict[str, Any]
    regions: tuple[Block, ...]
    where: str
    generator: bool = False
    """True when `run` is a generator function (it contains a collective or
    a region that may)."""
    shapes: tuple | None = None
    """Per result, the static shape its type promises (negative: a dynamic size;
    None: not a tensor), or None when no result is a ranked tensor: a value
    of another shape is reported at the op that made it."""
    same_shape: tuple[int, ...] | None = None
    """The tensor operands of an elementwise op of dynamic shape, which must
    all have its result's shape at run time (None: nothing to check)."""
    rank0: tuple[int, ...] = ()
    """The results typed as rank-0 tensors: numpy gives scalars for them
    (a sum, an op on 0-d arrays), which later ops would fail to write into."""
    bf16: tuple[int, ...] = ()
    """The results of bf16 elements, held in f32 and rounded to bf16 as they
    are made (`floats`)."""


@dataclass
class Block:
    args: tuple[int, ...]
    steps: list[Step]
    terminator: Step | None


@dataclass
class Function:
    name: str
    body: Block
    slots: int
    arg_types: list[ir.Type]
    result_types: list[ir.Type]
    arg_attrs: list[dict[str, str]]
    result_attrs: list[dict[str, str]]
    blocks: tuple[Block, ...] = ()
    """Every block of the body, the entry (`body`) first: `cf.br` and
    `cf.cond_br` name their successors by position here."""
    where: str = ""
    """The function's file:line:col, where errors about its signature are said."""


Compile = Callable[["Compiler", ir.Operation], dict[str, Any]]


@dataclass
class Handler:
    run: Callable[..., Any]
    prepare: Compile | None = None
    generator: bool = False


HANDLERS: dict[str, Handler] = {}


def register(name: str, *, prepare: Compile | None = None, generator: bool = False):
    """Register how to run op `name`. `prepare(compiler, op)` decodes its
    attributes once; `run(frame, step, *operand_values)` returns the list of
    result values (or, for a generator, yields requests and returns it)."""

    def deco(fn):
        HANDLERS[name] = Handler(fn, prepare, generator)
        return fn

    return deco


def where(op: ir.Operation) -> str:
    """The op's file:line:col, else its nearest enclosing op's (the body
    of a named linalg op is built without locations: its ops are said at
    the op the user wrote)."""
    from ..ir.asm import remap_location

    found: ir.Operation | None = op
    while found is not None:
        filename, line, col = remap_location(found.location)
        if filename:
            return f"{filename}:{line}:{col}"
        parent = found.parent
        found = None if parent is None else parent.operation
    return "<unknown location>"


def fail(step_or_op, message: str) -> SimError:
    loc = step_or_op.where if isinstance(step_or_op, Step) else where(step_or_op)
    name = step_or_op.name if isinstance(step_or_op, Step) else step_or_op.name
    return SimError(f"{loc}: '{name}' {message}", where=loc)


# ---------------------------------------------------------------------------
# Element types.

_DTYPES = {
    "bf16": np.float32,  # every value rounded to a bf16 (`floats`)
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "si8": np.int8,
    "si16": np.int16,
    "si32": np.int32,
    "si64": np.int64,
}


def is_bf16(t: ir.Type) -> bool:
    """Whether `t` is bf16 or a shaped type of bf16 elements (held in f32)."""
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    return isinstance(t, ir.BF16Type)


_BITCASTS = frozenset(("arith.bitcast", "tensor.bitcast", "stablehlo.bitcast_convert", "tosa.bitcast"))
"""Ops that reinterpret bits: a bf16 held in f32 has other bits."""


def dtype_of(t: ir.Type) -> np.dtype:
    """numpy dtype of a scalar type or of a shaped type's elements."""
    if isinstance(t, ir.ShapedType):
        t = t.element_type
    key = str(t)
    if key not in _DTYPES:
        raise SimError(f"element type {key} is not supported by the simulator")
    return np.dtype(_DTYPES[key])


def _unsupported_element(types: list[ir.Type]) -> str | None:
    """What `dtype_of` says of the first of `types` whose elements the
    simulator does not hold (None: it holds them all)."""
    for t in types:
        try:
            dtype_of(t)
        except SimError as e:
            return str(e)
    return None


# ---------------------------------------------------------------------------
# The compiler.


class Compiler:
    """Compiles the functions of one module (lazily, when first called)."""

    def __init__(self, module: ir.Operation):
        self.module = module.operation if hasattr(module, "operation") else module
        self.functions: dict[str, Function] = {}
        self._func_ops: dict[str, ir.Operation] = {}
        self.meshes: dict[str, tuple[int | None, ...]] = {}
        self._children: dict[ir.Block, list[ir.Operation]] = defaultdict(list)
        self._slots: dict[ir.Value, int] = {}
        self._block_ids: dict[ir.Block, int] = {}  # the blocks of the function being compiled
        # names that nested modules define twice: the simulator's tables are
        # flat, so it refuses to pick one (`check_unambiguous`)
        self.ambiguous: set[str] = set()

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            if name == "builtin.module":
                return ir.WalkResult.ADVANCE
            self._children[op.block].append(op)
            if name == "func.func":
                symbol = op.attributes["sym_name"].value
                if symbol in self._func_ops:
                    self.ambiguous.add("@" + symbol)
                self._func_ops[symbol] = op
            elif name == "mesh.mesh":
                from ..ir.schema import DYNAMIC

                shape = tuple(None if d == DYNAMIC else d for d in op.attributes["shape"])
                symbol = op.attributes["sym_name"].value
                if self.meshes.get(symbol, shape) != shape:
                    self.ambiguous.add("@" + symbol)
                self.meshes[symbol] = shape
            return ir.WalkResult.ADVANCE

        self.module.walk(visit, ir.WalkOrder.PRE_ORDER)

    def check_unambiguous(self, symbol: str, what: str) -> None:
        if "@" + symbol in self.ambiguous:
            raise SimError(
                f"{what} @{symbol} is defined twice in nested modules (differently); simulate each module on its own"
            )

    def function_names(self) -> list[str]:
        return list(self._func_ops)

    def function(self, name: str) -> Function:
        found = self.functions.get(name)
        if found is not None:
            return found
        self.check_unambiguous(name, "function")
        op = self._func_ops.get(name)
        if op is None:
            known = ", ".join("@" + n for n in self._func_ops) or "none"
            raise SimError(f"no function @{name} in the module (functions: {known})")
        if not op.regions[0].blocks:
            raise fail(op, f"@{name} is only declared; the simulator needs its body")
        self._slots = {}
        ftype = ir.FunctionType(op.attributes["function_type"].value)
        region_blocks = op.regions[0].blocks
        listed = [region_blocks[k] for k in range(len(region_blocks))]
        self._block_ids = {b: k for k, b in enumerate(listed)}
        blocks = tuple(self.block(b) for b in listed)
        fn = Function(
            name,
            blocks[0],
            len(self._slots),
            list(ftype.inputs),
            list(ftype.results),
            _dict_array(op, "arg_attrs", len(ftype.inputs)),
            _dict_array(op, "res_attrs", len(ftype.results)),
            blocks,
            where(op),
        )
        self.functions[name] = fn
        return fn

    def slot(self, value: ir.Value) -> int:
        s = self._slots.get(value)
        if s is None:
            s = self._slots[value] = len(self._slots)
        return s

    def block(self, block: ir.Block) -> Block:
        args = tuple(self.slot(a) for a in block.arguments)
        steps = [self.step(op) for op in self._children.get(block, [])]
        terminator = steps.pop() if steps and steps[-1].name in _TERMINATORS else None
        return Block(args, steps, terminator)

    def _branch(self, op: ir.Operation) -> dict[str, Any]:
        """A branch's successors, by their position in the function
        (`Function.blocks`), and for `cf.cond_br` how many of its operands
        go to the first one (after the condition)."""
        dests = []
        for succ in op.successors:
            k = self._block_ids.get(succ)
            if k is None:  # a branch in a nested region: those run single blocks only
                raise fail(op, "branches outside the function's own blocks; the simulator cannot follow it")
            dests.append(k)
        attrs: dict[str, Any] = {"dests": tuple(dests)}
        if op.name == "cf.cond_br":
            attrs["first"] = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[1]
        return attrs

    def step(self, op: ir.Operation) -> Step:
        name = op.name
        if name in _TERMINATORS:
            operands = tuple(self.slot(v) for v in op.operands)
            attrs = self._branch(op) if name in _BRANCHES else {}
            return Step(name, _no_run, operands, (), attrs, (), where(op))
        handler = HANDLERS.get(name)
        if handler is None:
            raise fail(op, "is not supported by the simulator (no handler registered for it)")
        operands = tuple(self.slot(v) for v in op.operands)
        results = tuple(self.slot(r) for r in op.results)
        regions = tuple(self.block(r.blocks[0]) for r in op.regions if len(r.blocks) == 1)
        if any(len(r.blocks) > 1 for r in op.regions):
            raise fail(op, "has a region with several blocks; the simulator runs single-block regions only")
        step = Step(name, handler.run, operands, results, {}, regions, where(op), handler.generator)
        step.attrs["result_types"] = [r.type for r in op.results]
        step.bf16 = tuple(k for k, t in enumerate(step.attrs["result_types"]) if is_bf16(t))
        from_bf16 = name in _BITCASTS and len(op.operands) == 1 and is_bf16(op.operands[0].type)
        shapes = tuple(
            tuple(ir.RankedTensorType(t).shape) if isinstance(t, ir.RankedTensorType) else None
            for t in step.attrs["result_types"]
        )
        if any(s is not None for s in shapes):
            step.shapes = shapes
            step.rank0 = tuple(k for k, s in enumerate(shapes) if s == ())
            if name.startswith(_SAME_SHAPE_DIALECTS) and any(s is not None and min(s, default=0) < 0 for s in shapes):
                # numpy would broadcast pieces of different sizes: these ops take one shape
                step.same_shape = tuple(k for k, v in enumerate(op.operands) if isinstance(v.type, ir.RankedTensorType))
        if handler.prepare is not None:
            try:
                step.attrs.update(handler.prepare(self, op))
            except SimError:
                raise
            except (KeyError, ValueError, TypeError, IndexError) as e:
                # (a complex constant's attribute cannot even be read: name its type instead)
                lacking = _unsupported_element(step.attrs["result_types"])
                raise fail(op, lacking or f"cannot be simulated: {e}") from None
        if from_bf16 or (name in _BITCASTS and step.bf16):
            _through_bits(step, from_bf16)
        # A plain handler runs its regions with run_block_now, which reports a
        # collective inside them; only generator handlers pass them through.
        return step


def _through_bits(step: Step, from_bf16: bool) -> None:
    """Make a bitcast `step` from or to bf16 (held in f32) reinterpret the
    bf16's own 16 bits: its operand's bits go in as uint16, and a bf16
    result comes out of the uint16 the handler makes."""
    run, to_bf16 = step.run, bool(step.bf16)
    if to_bf16:
        step.attrs["dtype"] = np.dtype(np.uint16)

    def through_bits(frame, step: Step, x):
        outs = run(frame, step, bf16_bits(x) if from_bf16 else x)
        return [bf16_from_bits(out) for out in outs] if to_bf16 else outs

    step.run = through_bits


def _no_run(*_args):  # pragma: no cover - terminators are read, not run
    raise AssertionError("a terminator is not executed")


_BRANCHES = frozenset(("cf.br", "cf.cond_br"))
_TERMINATORS = frozenset(("func.return", "scf.yield", "linalg.yield", "tensor.yield", "scf.condition", *_BRANCHES))


def _dict_array(op: ir.Operation, name: str, n: int) -> list[dict[str, str]]:
    if name not in op.attributes:
        return [{} for _ in range(n)]
    out = []
    for entry in ir.ArrayAttr(op.attributes[name]):
        d = ir.DictAttr(entry)
        out.append({d[i].name: str(d[i].attr) for i in range(len(d))})
    return out


# ---------------------------------------------------------------------------
# Running a block on one device.


@dataclass
class Frame:
    """The state of one device: its values, its position in the mesh and
    the program it runs."""

    slots: list[Any]
    device: tuple[int, ...] | None
    runner: Any = field(repr=False, default=None)


_NUMPY_FAILURES = (ArithmeticError, LookupError, TypeError, ValueError, MemoryError)


_SAME_SHAPE_DIALECTS = ("arith.", "math.")
"""Dialects whose ops on tensors are all elementwise, on operands of their
result's shape (tosa's broadcast)."""


def _check_same_shape(step: Step, values, out) -> None:
    """An elementwise op's tensor operands all of its result's shape."""
    want = np.shape(out[0]) if out else None
    for k in step.same_shape or ():
        got = np.shape(values[k])
        if got != want:
            raise fail(step, f"operand {k} is {list(got)} where its result is {list(want)}: one shape is required")


def _check_shapes(step: Step, out) -> None:
    """A result whose value has another shape than its type says is a wrong
    program (or a wrong handler): said here, not where it is next read."""
    for k, (value, want) in enumerate(zip(out, step.shapes)):
        if want is None:
            continue
        got = np.shape(value)
        if len(got) != len(want) or any(w >= 0 and g != w for g, w in zip(got, want)):
            shown = "x".join("?" if w < 0 else str(w) for w in want)
            raise fail(step, f"result {k} is {list(got)} where its type says {shown}")


def _as_arrays(out, ks: tuple[int, ...]) -> list:
    """`out` with its rank-0 tensor results as 0-d arrays, not numpy scalars."""
    out = list(out)
    for k in ks:
        if k < len(out) and not isinstance(out[k], np.ndarray):
            out[k] = np.array(out[k])
    return out


def run_block(frame: Frame, block: Block, args, check: bool = True) -> Iterator:
    """Run `block` on `frame`; a generator returning the terminator's operand
    values (collectives inside yield their requests).  With `check`, each
    result's shape is held to its type (`_check_shapes`); bodies run on
    whole arrays of elements at once (`run_block_now`) are not."""
    slots = frame.slots
    for slot, value in zip(block.args, args):
        slots[slot] = value
    for step in block.steps:
        values = [slots[i] for i in step.operands]
        try:
            if step.generator:
                out = yield from step.run(frame, step, *values)
            else:
                out = step.run(frame, step, *values)
        except _NUMPY_FAILURES as e:
            # numpy's own complaint (shapes that do not broadcast, memory),
            # said at the op that caused it.
            raise fail(step, f"failed: {type(e).__name__}: {e}") from None
        if step.bf16:
            out = list(out)
            for k in step.bf16:
                out[k] = to_bf16(out[k])
        if step.rank0:
            out = _as_arrays(out, step.rank0)
        if check and step.shapes is not None:
            _check_shapes(step, out)
            if step.same_shape:
                _check_same_shape(step, values, out)
        for slot, value in zip(step.results, out):
            slots[slot] = value
    term = block.terminator
    return [slots[i] for i in term.operands] if term is not None else []


def run_function(frame: Frame, fn: Function, args) -> Iterator:
    """Run a function's body on `frame`, from its entry block along the
    branches its blocks end with (`cf.br`, `cf.cond_br`); a generator, as
    `run_block`, returning the values `func.return` returns."""
    block = fn.body
    while True:
        values = yield from run_block(frame, block, args)
        term = block.terminator
        if term is None or term.name not in _BRANCHES:
            return values
        dests = term.attrs["dests"]
        if term.name == "cf.br":
            block, args = fn.blocks[dests[0]], values
            continue
        first = 1 + term.attrs["first"]
        if values[0]:
            block, args = fn.blocks[dests[0]], values[1:first]
        else:
            block, args = fn.blocks[dests[1]], values[first:]


def run_block_now(frame: Frame, block: Block, args) -> list:
    """Run a block that holds no collective (linalg bodies, tensor.generate)."""
    gen = run_block(frame, block, args, check=False)
    try:
        next(gen)
    except StopIteration as stop:
        return stop.value
    raise SimError("a collective inside a region that runs element by element")
