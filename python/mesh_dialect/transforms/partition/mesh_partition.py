"""`mesh-partition` (alias `mesh-spmdization`): the global program with
complete annotations becomes the program every device runs.

Every tensor gets the type of one device's piece, and the signature with it;
each argument and result records its layout in `mesh.sharding`, the
attribute the simulator reads.  Ops with a sharding rule stay the same op on
local pieces: an op whose reduction loops are split leaves a partial result,
which stays partial as long as its annotation says so.  Every change of
layout (a `mesh.shard ... annotate_for_users` whose layout differs from its
value's) becomes the collectives the resharding planner
(`sharding.resharding`) returns; the `mesh.shard` and `mesh.sharding` ops
then disappear.

Arguments arrive partitioned by default; with `full-arguments` every device
receives whole arguments and slices its piece on entry (no communication).

A split reduction accumulates into its init on every device of the group,
so the init is kept on the group's first device only and replaced by the
reduction's neutral value elsewhere (unless it already is that value).

Pieces of different sizes (a size the mesh axes do not divide, cut as
upstream's shard_shape does, or `sharded_dims_offsets`) and sizes known only
at run time (dynamic tensor sizes, dynamic mesh sizes) give local types that
are dynamic along those dimensions.  Their collectives run on pieces padded
to the largest one and the valid parts are taken after (`_Ix` computes each
device's offsets and sizes: constant tables where they are static, the
default cut from `mesh.mesh_shape` and the summed piece sizes where not;
a group of more devices than the option `unroll-limit` cuts and joins its
members' parts in an `scf.for` instead of one slice per member);
`tensor.empty`, splats and `tensor.dim` of partitioned values are made with
the device's own sizes, and a signature spells static uneven pieces out as
`sharded_dims_offsets`, since a dynamic local type does not say how large
the whole tensor is.
"""

from __future__ import annotations

import ctypes
import dataclasses
import math
import os
from collections.abc import Callable
from dataclasses import field
from typing import Any, ClassVar, NamedTuple

import numpy as np
from mlir import _mlir_libs, ir
from mlir.dialects import arith, scf, tensor

from ...interfaces.captures import AlignedRead, MaskedRead, aligned_reads, masked_read
from ...interfaces.choice import same_layout, same_placement
from ...interfaces.linear import on_terms, term_operands, ways_off_pads
from ...interfaces.registry import (
    INDEX_OFFSET_OPS,
    OWN_BODY,
    RuleCache,
    built_in,
    index_reads,
    walk_inside,
)
from ...interfaces.rules import (
    Conflict,
    ShardingRule,
    option_from_shardings,
    shardings_from_option,
    uncropped,
    with_whole_loops,
)
from ...ir import linalg_ops
from ...ir import ops as mesh_ops
from ...ir.asm import remap_location
from ...ir.control import (
    CARRIED_OPS,
    HLO_REGION_OPS,
    LOOP_OPS,
    ancestors,
    carried,
    layout_holder,
    malformed,
    selector,
    terminator,
)
from ...ir.exchange import exchanged, permuted, recut
from ...ir.flags import drop_totals_only_flags
from ...ir.per_device import Callees, is_collective, may_vary, per_device_values
from ...ir.signature import op_address, value_address
from ...ir.syntax import Unprintable, decode_sharding_attr, encode_sharding_attr
from ...ir.types import float_extreme, float_zero
from ...ir.uniform import CONSTANTS as _CONSTANTS
from ...ir.uniform import fill_init as _fill_init
from ...ir.uniform import filled as _filled
from ...ir.uniform import readable_attr
from ...ir.uniform import splat_of as _splat_of
from ...sharding.exchange import schedule
from ...sharding.recut import recut_plan
from ...sharding.spec import IDEMPOTENT_KINDS, Mesh, Sharding, ShardingError
from ..base import LOCAL_MESH, REDUCED_ATTR, Pass, element_bytes, mesh_scopes, redefined_mesh, sharding_of
from ..propagation.sharding_propagation import OPTION_ATTR
from . import crop, halo, hlo, rederive
from .limits import too_many_pieces

_CARRIED = CARRIED_OPS
"""Region ops whose results are carried through their regions: each carried
value has one layout across init, block arguments, yielded values and
result, and partition reshards the init and every yielded value to it."""
_RUN_ONCE = frozenset(
    {"func.func", "scf.for", "scf.if", "scf.while", "scf.execute_region", "scf.index_switch", *HLO_REGION_OPS}
)
"""Ops whose regions run as control flow, once per entry on every device:
a collective may sit inside.  Any other op's region (`tensor.generate`, an
op without a rule) may run per element or any number of times."""
_YIELDS = ("scf.yield", "scf.condition", "stablehlo.return", "mhlo.return")
_LOOPS = frozenset(LOOP_OPS)
"""Loops: a value defined outside one is resharded in front of it, once,
not in its body on every iteration."""
_NOT_RULED = ("mesh.mesh", "mesh.sharding")
_WRITTEN_BODIES = frozenset({"linalg.generic", "linalg.map", "linalg.reduce"})
"""linalg ops whose bodies the user writes (a named op's is made from its name)."""
"""Mesh ops partition leaves alone (`mesh.shard` has its own rewrite); every
other mesh op is a collective or a query that already speaks of one device's
data."""
_SPECIAL = frozenset(
    {
        *_CARRIED,
        *_CONSTANTS,
        "func.return",
        "func.call",
        "scf.yield",
        "scf.condition",
        "stablehlo.return",
        "mhlo.return",
        "tensor.dim",
        "tensor.extract_slice",
        "tensor.insert_slice",
        "tensor.expand_shape",
        "tosa.reshape",
        "tensor.reshape",
    }
)
"""Ops `_Partition.rewrite` treats by name (besides mesh and hlo ops):
never skipped, whatever their layouts."""
_SKIP = object()
"""The rule slot of an op partition leaves as it is (`_Partition.rules`)."""
_READ_THROUGH = object()
"""The rule slot of a `tensor.pad` its user reads through (`fuse_pads`):
the user's rewrite reads the pad's source and pads what is left itself."""


class _MlirPointer(ctypes.Structure):
    """`MlirValue` and `MlirOpOperand` of the C API: one pointer each."""

    _fields_ = [("ptr", ctypes.c_void_p)]


_first_use = None  # the C API's mlirValueGetFirstUse, found on first use (False: not found)


def _slice_target(op: ir.Operation, before: Sharding) -> Sharding | None:
    """The layout `before` (of a value a chain of all_slices cuts) with
    `op`, an all_slice of it, cutting it further; None when `op` cuts over
    an axis `before` already uses."""
    view = op.opview
    axes, dim = view.mesh_axes, view.slice_axis
    split = [tuple(a) for a in before.split_axes]
    split += [()] * (dim + 1 - len(split))
    if set(axes) & {a for d in split for a in d}:
        return None
    split[dim] = split[dim] + axes
    return Sharding(tuple(split))


def _slices_line_up(op: ir.Operation, before: Sharding, mesh: str) -> bool:
    """Whether `op` and every all_slice after it that `enter_pieces` would
    lay out with it (through results only slices read) give layouts, on
    `mesh`: else none of them is laid out."""
    if op.opview.mesh != mesh:
        return False
    target = _slice_target(op, before)
    if target is None:
        return False
    users = [u.owner.operation for u in op.results[0].uses]
    if users and all(u.name == "mesh.all_slice" for u in users):
        return all(_slices_line_up(u, target, mesh) for u in users)
    return True


def _has_uses(value: ir.Value) -> bool:
    """Whether anything reads `value`.  The bindings' use iterator ends by
    throwing a C++ exception (about 3 us, most of an unused init's
    erasure), so the C API is asked for the first use (a ctypes call costs
    about a third of that; an iterator with a use left costs less, so
    callers that mostly find one keep it); the iterator answers where the
    library cannot be found."""
    global _first_use
    if _first_use is None:
        _first_use = False
        try:
            lib = ctypes.CDLL(os.path.join(os.path.dirname(_mlir_libs.__file__), "libMLIRPythonCAPI.so"))
            first = lib.mlirValueGetFirstUse
            first.argtypes, first.restype = [_MlirPointer], _MlirPointer
            _first_use = first
        except (OSError, AttributeError):
            pass
    if _first_use is False:
        return next(iter(value.uses), None) is not None
    return _first_use(_MlirPointer(value_address(value))).ptr is not None


def _skippable_name(name: str) -> bool | None:
    """Whether the rewrite of an op named `name` changes nothing (but its
    sharding option) when all its values are whole: a rule with no split
    loop fits them, and an op without a rule gathers nothing.  False for
    ops treated by name; None for an op that qualifies only without
    regions, since partition visits them (their block arguments may be
    annotated): linalg bodies are not visited."""
    if name in _SPECIAL or name.startswith(("mesh.", "mhlo.", "stablehlo.")):
        return False
    if name in OWN_BODY:
        return None  # its body may read outside tensors (`check_captures`)
    return True if name.startswith("linalg.") else None


UNROLL_LIMIT = 16
"""The largest group of devices whose pieces of different sizes a reshard
cuts and joins with one `extract_slice` / `insert_slice` per member; a
larger group gets an `scf.for` over its members, so a 65536-device axis
costs a loop instead of 65536 copies of its body (`_Ix.loop`)."""


def _op_at(op: ir.Operation) -> str:
    """An op another op's diagnostic names: `'mesh.all_slice' at f.mlir:3:8`."""
    name, line, col = remap_location(op.location)
    return f"'{op.name}'" + (f" at {name}:{line}:{col}" if name else "")


class _Unsupported(Exception):
    """Input partition cannot handle: reported at `loc` as an error."""

    def __init__(self, loc: ir.Location, message: str) -> None:
        super().__init__(message)
        self.loc = loc


@dataclasses.dataclass
class MeshPartition(Pass):
    ARGUMENT: ClassVar[str] = "mesh-partition"
    SUMMARY: ClassVar[str] = "Turn annotated functions into the program each device runs (SPMD)"
    DESCRIPTION: ClassVar[str] = (
        "Tensors get their per-device types, ops with a sharding rule run on local pieces, and every change of "
        "layout becomes the collectives of the resharding planner. mesh.shard and mesh.sharding ops disappear; "
        "arguments and results record their layout in mesh.sharding attributes. Alias: mesh-spmdization."
    )

    full_arguments: bool = field(
        default=False, metadata={"help": "arguments arrive whole and each device slices its piece on entry"}
    )
    unroll_limit: int = field(
        default=UNROLL_LIMIT,
        metadata={
            "help": "largest group whose uneven pieces are cut and joined unrolled; larger ones loop (scf.for)",
            "min": 0,
        },
    )

    def run(self, module: ir.Operation) -> None:
        scopes = mesh_scopes(module)
        for meshes, functions in scopes:
            if (refused := too_many_pieces(meshes, functions)) is not None:
                raise self.error(*refused)
        self.callees = Callees()  # (this run's: which functions may compute per-device values)
        for meshes, functions in scopes:
            annotated = {f.attributes["sym_name"].value for f in functions if _has_annotation(f)}
            for f in functions:
                try:
                    _Partition(self, f, meshes, annotated).run()
                except _Unsupported as e:
                    raise self.error(e.loc, str(e)) from None


_SLICES = frozenset(("mesh.all_slice", "tensor.extract_slice"))
"""What a reshard that only slices makes (`_slices_only`): ops with no effect but their result."""


def _slices_only(source: Sharding, target: Sharding, t: ir.Type, mesh: Mesh) -> bool:
    """Whether resharding a value of type `t` from `source` to `target`
    only cuts pieces out of the ones each device holds: each dimension's
    axes extended (a split one into even pieces only: uneven ones do not lie
    within the coarser pieces), nothing partial, no halos, a dimension split
    alike on both sides cut alike.  Such a reshard moves nothing, and the
    way back is the value it started from."""
    if source.partial_axes or target.partial_axes or source.halo_sizes or target.halo_sizes:
        return False
    if source.sharded_dims_offsets or not isinstance(t, ir.RankedTensorType):
        return False
    before = source.split_axes
    for d, axes in enumerate(target.split_axes):
        had = before[d] if d < len(before) else ()
        if axes[: len(had)] != had:
            return False
        if not had:
            continue  # held whole: any cut of it is sliced out
        if t.is_dynamic_dim(d):
            return False
        size = t.shape[d]
        if axes == had:
            if target.sharded_dims_offsets and target.bounds(d, size, mesh) != source.bounds(d, size, mesh):
                return False  # (the offsets cut it elsewhere than the source holds it)
        elif target.sharded_dims_offsets or size % target.shard_count(d, mesh):
            return False  # (uneven pieces of a split dimension do not lie within its pieces)
    return all(not axes for axes in before[len(target.split_axes) :])


def _has_annotation(func: ir.Operation) -> bool:
    found = False

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal found
        if op.name == "mesh.shard":
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    func.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


@dataclasses.dataclass
class MeshSpmdization(MeshPartition):
    """The pass under its former upstream name."""

    ARGUMENT: ClassVar[str] = "mesh-spmdization"


def _fmt(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


_WHOLE = Sharding(())
"""The layout of a value every device holds whole (built once: a hot default)."""

_Read = tuple[ir.Attribute | None, bool, list[ir.Value], list[AlignedRead]]
"""What partition reads of an op before rewriting anything (`rewrite`)."""

_STAND_IN_AXIS = 2
"""The size the planner assumes for a dynamic mesh axis (costs only)."""
_STAND_IN_DIM = 1 << 12
"""The size the planner assumes for a dynamic tensor dimension (costs only)."""


_RESHARDING = None


def _planner():
    """The resharding planner, imported on first use: it pulls in the
    simulator's collectives, which mesh-opt's start-up does not need."""
    global _RESHARDING
    if _RESHARDING is None:
        from ...sharding import resharding

        _RESHARDING = resharding
    return _RESHARDING


def _read_sharding(value: ir.Value) -> tuple[str, Sharding] | None:
    """(mesh, layout) of a `mesh.sharding` with static sizes, or None."""
    found = sharding_of(value)
    return None if found is None or found[2] else found[:2]


def sharding_attr(mesh: str, s: Sharding) -> ir.Attribute:
    text = encode_sharding_attr(
        "@" + mesh, s.split_axes or ((),), s.partial_axes, s.partial_type, s.halo_sizes, s.sharded_dims_offsets
    )
    return ir.Attribute.parse(text)


def _neutral(kind: str, element: ir.Type) -> float | int | None:
    """The value that leaves a reduction of `kind` unchanged, or None (also
    for complex numbers: arith makes no complex constant to hold it)."""
    if isinstance(element, ir.ComplexType):
        return None
    is_float = isinstance(element, ir.FloatType)
    if kind == "sum" and is_float:
        return float_zero(element)
    if kind in ("max", "min") and is_float:
        return float_extreme(element, kind == "min")  # (a finite-only format's constant -inf is its NaN)
    if kind in ("sum", "bitwise_xor", "bitwise_or"):
        return 0
    if kind == "product":
        return 1.0 if is_float else 1
    if is_float:
        return None  # (no and, or or xor of floats; max and min are above)
    if isinstance(element, ir.IndexType):  # signless, 64 bits wide
        width, unsigned = 64, False
    elif not isinstance(element, ir.IntegerType):
        return None  # complex numbers: no order, no bits
    else:
        integer = ir.IntegerType(element)
        width, unsigned = integer.width, integer.is_unsigned
    if unsigned:  # all ones is 2**width - 1, and max and min compare unsigned
        return {"bitwise_and": 2**width - 1, "max": 0, "min": 2**width - 1}.get(kind)
    return {"bitwise_and": -1, "max": -(2 ** (width - 1)), "min": 2 ** (width - 1) - 1}.get(kind)


class _Partition:
    def __init__(
        self,
        pass_: MeshPartition,
        func: ir.Operation,
        meshes: dict[str, tuple[int, ...]],
        annotated: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        self.pass_ = pass_
        self.annotated = annotated  # functions this run partitions: their signatures change
        self.func = func
        self.meshes = meshes
        self.mesh_name: str | None = None
        self.mesh: Mesh | None = None
        self.dynamic_axes: tuple[int, ...] = ()  # mesh axes of dynamic size
        self.uncropped: dict[int, ShardingRule] = {}  # `rules.uncropped` per rule id, on a mesh of dynamic size
        self.layout: dict[ir.Value, Sharding] = {}  # global value -> its layout
        self.global_type: dict[ir.Value, ir.RankedTensorType] = {}
        self.whole: dict[ir.Value, ir.Value] = {}  # a sliced full argument -> the argument
        self.shardings: dict[ir.Value, tuple[str, Sharding] | None] = {}  # per run: values die with the IR
        self.returned: list[Sharding | None] | None = None  # result layouts, from the first func.return
        self.reshards: dict[tuple[ir.Value, Sharding, ir.Block], ir.Value] = {}  # one reshard per block
        # per value a reshard made by slicing alone (`_slices_only`), the value
        # it was sliced from: asked for in that one's layout, the value is that
        # one, not gathered back (a constraint cuts rows a convolution then
        # reads whole); by the value started from, the values sliced from it
        # (erased, it answers for none)
        self.undo: dict[ir.Value, ir.Value] = {}
        self.undone_from: dict[ir.Value, list[ir.Value]] = {}
        self.went_back: list[ir.Value] = []  # values of `undo` a user was given the origin of instead
        # values a program written partly per device computes differently on each
        # device, and blocks only some devices run (`ir.per_device`)
        self.per_device: dict[ir.Value, tuple[frozenset, ir.Operation]] = {}
        # results of `mesh.all_slice`s of a laid-out value that a later slice
        # of the chain lays out: (that value, the layout so far)
        self.entered: dict[ir.Value, tuple[ir.Value, Sharding]] = {}
        # the `tensor.cast`s those slices and gathers became: a value of its
        # own, with no layout (or one), folded away once partition is done
        self.aliases: list[ir.Operation] = []
        self.divergent: dict[ir.Block, ir.Operation] = {}
        # values rebuilt in a layout instead of resharded: (value, its op, and
        # for a fill the empty it fills and that empty's op, else None, None)
        self.rebuilt: list[tuple] = []
        self.empty_facts: dict[ir.Type, tuple] = {}  # local type -> `_empty_facts`
        # (global type, source, target) -> (global, local type, whether the source is whole along dynamic sizes)
        self.reshard_types: dict[tuple, tuple[ir.RankedTensorType, ir.Type, bool]] = {}
        self.outer_blocks: dict[ir.Block, ir.Block | None] = {}  # a block -> the block of its region op
        self.totals: dict[ir.Value, tuple] = {}  # an all_reduce made here -> (its terms, their layout, reshard key)
        self.totals_of: dict[Sharding, Sharding] = {}  # a partial layout -> its total's (`without_partial`)
        self.per_element: dict[ir.Block, None] = {}  # blocks held by no loop or per-element region (`reshard_anchor`)
        # Real programs repeat a few signatures: local types, plans and fit
        # checks are memoized for the run (types are uniqued by the context).
        self.local_types: dict[tuple[ir.Type, Sharding], ir.Type] = {}
        self.plans: dict[tuple, object] = {}
        self.allowance: Any = None  # the planner's `SearchAllowance` for this function's plans
        # per plan: (step, layout before, layout after, local type after, plain)
        self.plan_steps: dict[tuple, list[tuple]] = {}
        self.collectives: dict[object, tuple[str, dict[str, ir.Attribute]]] = {}  # step -> (op name, attributes)
        self.fitting: dict[tuple, bool] = {}
        self.pieces_of: dict[tuple[Sharding, int, int], _Pieces] = {}  # (layout, dimension, size) -> its pieces
        # test-mesh-resharding runs partition's reshards without the option
        self.unroll_limit = pass_.unroll_limit if isinstance(pass_, MeshPartition) else UNROLL_LIMIT
        self.index_free: dict[int, tuple[ShardingRule, bool]] = {}  # id(rule) -> (rule, its body reads no index)
        self.pieces_fit: set[tuple] = set()  # (rule, layouts, types) whose pieces line up
        self.attrs: dict[object, ir.Attribute] = {}  # layout attributes, per layout or (type, layout)
        # The op defining each result of a visited op: `Value.owner` builds
        # an OpView, which costs tens of microseconds for a linalg op.  An
        # entry is dropped when its op is erased (`forget`): MLIR may give
        # the address to a value created later.
        self.defs: dict[ir.Value, ir.Operation] = {}
        self.annotations: dict[int, tuple[tuple[str, Sharding], bool]] = {}  # mesh.shard op index -> layout, for users
        # per op in program order, when `rules` looked its rule up: its
        # sharding option (None: it has none), whether its body may read
        # an outside tensor, its results, and the outside tensors its body
        # reads at its loop indices (`aligned_reads`)
        self.read: list[_Read | None] = []

    # -- layouts ---------------------------------------------------------------

    def use_mesh(self, name: str, loc: ir.Location) -> None:
        if self.mesh_name is None:
            if name not in self.meshes:
                raise _Unsupported(loc, f"mesh @{name} is not defined in the module: {LOCAL_MESH}")
            shape = self.meshes[name]
            # A dynamic mesh size is planned with a stand-in; the IR asks
            # mesh.mesh_shape for the real one.
            self.dynamic_axes = tuple(a for a, d in enumerate(shape) if d < 0)
            self.mesh_name, self.mesh = name, Mesh(tuple(_STAND_IN_AXIS if d < 0 else d for d in shape))
        elif name != self.mesh_name:
            raise _Unsupported(loc, f"function uses meshes @{self.mesh_name} and @{name}; partition needs one mesh")

    def local_type(self, t: ir.Type, s: Sharding | None, loc: ir.Location) -> ir.Type:
        if s is None or not isinstance(t, ir.RankedTensorType):
            return t
        found = self.local_types.get((t, s))
        if found is None:
            found = self.local_types[(t, s)] = self.piece_type(t, s, loc)
        return found

    def piece_type(self, t: ir.RankedTensorType, s: Sharding, loc: ir.Location) -> ir.Type:
        """One device's type: a split dimension whose pieces differ in size
        (or are only known at run time) is dynamic, since devices hold
        different sizes."""
        assert self.mesh is not None
        shape = list(t.shape)
        if len(s.split_axes) > len(shape):
            raise _Unsupported(
                loc, f"sharding {s} splits dimension {len(s.split_axes) - 1} of a tensor of rank {len(shape)}"
            )
        dynamic = [d for d in range(len(shape)) if t.is_dynamic_dim(d)]
        if s.sharded_dims_offsets and (dynamic or self.dynamic_axes):
            raise _Unsupported(
                loc, f"sharded_dims_offsets on a tensor of dynamic size or mesh are not supported: {t}, {s}"
            )
        try:
            s.validate(self.mesh, [_STAND_IN_DIM if d in dynamic else n for d, n in enumerate(shape)])
        except ShardingError as e:
            raise _Unsupported(loc, f"sharding {s} does not fit {t}: {e}") from None
        for d, axes in enumerate(s.split_axes):
            if not axes:
                continue
            if d in dynamic or any(a in self.dynamic_axes for a in axes):
                if any(s.halo(d)):
                    raise _Unsupported(loc, f"halos on pieces of dynamic size are not supported: {t}, {s}")
                shape[d] = ir.ShapedType.get_dynamic_size()
                continue
            size = self.pieces(s, d, shape[d]).size
            shape[d] = size + sum(s.halo(d)) if size is not None else ir.ShapedType.get_dynamic_size()
        return ir.RankedTensorType.get(shape, t.element_type, t.encoding, loc=loc)

    def uniform(self, t: ir.RankedTensorType, s: Sharding, d: int) -> bool:
        """Whether every device holds a piece of one static size along
        dimension `d` (what the collectives need without padding)."""
        axes = s.axes_of(d)
        if not axes:
            return True
        if t.is_dynamic_dim(d) or any(a in self.dynamic_axes for a in axes):
            return False
        return self.pieces(s, d, t.shape[d]).size is not None

    def pieces(self, s: Sharding, d: int, n: int) -> _Pieces:
        """The pieces `s` cuts dimension `d` of `n` elements into, listed
        once per run: a reshard asks for them per group member, and listing
        them costs the group's size."""
        found = self.pieces_of.get((s, d, n))
        if found is None:
            assert self.mesh is not None
            bounds = s.bounds(d, n, self.mesh)
            starts = tuple(a for a, _ in bounds)
            sizes = tuple(b - a for a, b in bounds)
            found = self.pieces_of[(s, d, n)] = _Pieces(starts, sizes, _one(starts), _one(sizes), max(sizes, default=0))
        return found

    def read_sharding(self, value: ir.Value) -> tuple[str, Sharding] | None:
        found = self.shardings.get(value, False)  # one lookup when known: a Value's hash is a binding call
        if found is False:
            found = self.shardings[value] = _read_sharding(value)
        return found

    # -- running ---------------------------------------------------------------

    def run(self) -> None:
        ops: list[ir.Operation] = []
        names: list[str] = []
        bodies: list[int] = []  # ops whose own bodies (not their names) say what they compute
        func = self.func
        advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP

        def visit(op: ir.Operation) -> ir.WalkResult:
            ops.append(op)
            name = op.name
            names.append(name)
            if name.startswith(("linalg.", "mhlo.", "stablehlo.")) and len(op.regions) and name not in HLO_REGION_OPS:
                if name in _WRITTEN_BODIES or not name.startswith("linalg."):
                    bodies.append(len(ops) - 2)  # its index once the function is dropped from `ops`
                return skip
            return advance

        func.walk(visit, ir.WalkOrder.PRE_ORDER)
        del ops[0], names[0]  # the function itself, visited first
        if _RESHAPES.intersection(names):
            _empties_for_reshapes(ops, names)
        # Layouts: each mesh.shard that annotates a value as produced.
        for k, (op, name) in enumerate(zip(ops, names)):
            if name != "mesh.shard":
                continue
            found = self.read_sharding(op.operands[1])
            if found is None:
                raise _Unsupported(op.location, "mesh.shard with a sharding that is not a static mesh.sharding")
            if found[0] != self.mesh_name:
                self.use_mesh(found[0], op.location)
            for_users = "annotate_for_users" in op.attributes
            self.annotations[k] = (found, for_users)
            if not for_users:
                self.layout.setdefault(op.operands[0], found[1])
        if self.mesh is None:
            # Nothing annotated: every device runs the program as it is, but
            # it must not call a function whose signature partition changes.
            for op, name in zip(ops, names):
                if name == "func.call":
                    self.check_callee(op)
            return
        self.check_signature()
        entry = func.regions[0].blocks[0]
        for block in list(func.regions[0].blocks)[1:]:
            # Values reach other blocks through branches, which pass them
            # whole; an annotation on such an argument becomes a reshard.
            for arg in block.arguments:
                self.layout.pop(arg, None)
        shardings = [op for op, name in zip(ops, names) if name == "mesh.sharding"]
        returns = [op for op, name in zip(ops, names) if name == "func.return"]
        cache = RuleCache.shared(func.context)
        cache.varied = False
        rules = self.rules(ops, names)
        # (a rule lookup tells whether a body it read may make a value differing
        # between devices; the bodies of ops it skipped are read here)
        skipped = [ops[k] for k in bodies if rules[k] is _SKIP or rules[k] is _READ_THROUGH]
        # (the pass run's `Callees`; a test pass running one function has none)
        callees = getattr(self.pass_, "callees", None)
        if cache.varied or may_vary(func, names, skipped, callees):
            found = per_device_values(func, callees)
            self.per_device, self.divergent = found.values, found.blocks
            self.check_per_device_annotations(ops)
        self.arguments(entry)
        for k, (op, name, rule) in enumerate(zip(ops, names, rules)):
            if rule is _SKIP or rule is _READ_THROUGH:
                if OPTION_ATTR in op.attributes:
                    del op.attributes[OPTION_ATTR]
            elif name == "mesh.shard":
                self.shard(op, self.annotations[k])
            else:
                self.rewrite(op, name, rule, self.read[k])
        for made in self.went_back:
            origin = self.undo.get(made)  # (none once erased: `forget`)
            if origin is not None:
                self.erase_slices(made, origin)
        for local, arg in self.whole.items():  # slices of full arguments nobody read
            while local != arg and not _has_uses(local):
                owner = local.owner
                source = owner.operands[0] if len(owner.operands) else None
                owner.erase()
                if source is None or not isinstance(source.type, ir.ShapedType):
                    break  # a piece of no element is made, not cut: a `tensor.empty` of its sizes
                local = source
        self.erase_unused_inits()
        self.defs.clear()
        for op in reversed(shardings):
            if not any(_has_uses(r) for r in op.results):
                op.erase()
        self.signature(entry, returns[0] if returns else None)
        for alias in self.aliases:  # (they kept per-device code's values apart while layouts were read)
            alias.results[0].replace_all_uses_with(alias.operands[0])
            alias.erase()

    def rules(self, ops: list[ir.Operation], names: list[str]) -> list[ShardingRule | None | object]:
        """Each op's sharding rule, taken before anything is retyped (rules
        read operand shapes), or `_SKIP` for an op partition leaves as it
        is: one whose operands come only from such ops (or whole constants)
        and whose results nobody annotated runs on whole values, and its
        rewrite would change nothing (see `_skippable`)."""
        cache = RuleCache.shared(self.func.context)
        layout, defs = self.layout, self.defs
        read = self.read = [None] * len(ops)
        whole: set[ir.Value] = set()  # results of skipped ops and of unannotated constants
        by_name: dict[str, bool | None] = {}  # skippable by its name (None: unless it has regions)
        rules: list = []
        for op, name in zip(ops, names):
            if name.startswith("mesh."):
                rules.append(None)
                continue
            operands, results = list(op.operands), list(op.results)
            annotated = False
            for r in results:
                defs[r] = op
                if r in layout:
                    annotated = True
            if not annotated:
                skippable = by_name.get(name, False)
                if skippable is False and name not in by_name:
                    skippable = by_name[name] = _skippable_name(name)
                if skippable is None:
                    skippable = not len(op.regions)
                if skippable and all(v in whole for v in operands):
                    whole.update(results)
                    rules.append(_SKIP)
                    continue
            if not annotated and name in _CONSTANTS:
                whole.update(results)
            if name == "tensor.pad" and not annotated and cache.read_through(op.result):
                rules.append(_READ_THROUGH)
                continue
            rule, option, captures = cache.lookup(op, name, (operands, results))
            rules.append(rule)
            # (tensors the body reads at the op's loop indices: sizes read while whole)
            aligned = aligned_reads(op) if captures and name in INDEX_OFFSET_OPS else {}
            masked = masked_read(op, aligned) if captures and name == "linalg.generic" else None
            read[len(rules) - 1] = (option, captures, results, list(aligned.values()), masked)
        return rules

    def may_read_index(self, op: ir.Operation, name: str, rule: ShardingRule) -> bool:
        """False when `op`'s body surely has no `linalg.index`: a built-in
        rule is memoized per signature, which names every body op, so ops
        sharing its rule object share their body's ops; one walk per rule
        then tells (a registered rule may be one object for any body)."""
        found = self.index_free.get(id(rule))
        if found is not None:
            return not found[1]
        if not built_in(name):
            return True
        free = not index_reads(op)
        self.index_free[id(rule)] = (rule, free)  # the rule kept alive: its id is not reused
        return not free

    def offset_indices(self, op: ir.Operation, local: dict[int, list[tuple[ir.Operation, int]]]) -> None:
        """A body reading the index of a split loop (`linalg.index`) counts
        from this device's first index along it: each read gets the start of
        the device's piece of an operand dimension the loop indexes plainly
        added (the rule splits such loops only when one does).  The uses
        `local` lists by the read's address (extracts from a piece split as
        the loop is, `align_captures`) keep the local index."""
        reads = index_reads(op)
        if not reads:
            return
        maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(linalg_ops.get_indexing_maps(op))]
        operands = list(op.operands)
        ix: _Ix | None = None
        starts: dict[int, ir.Value | None] = {}
        for read in reads:
            keep = local.get(op_address(read), ()) if local else ()
            if keep and len(keep) == len(list(read.result.uses)):
                continue  # only local reads
            loop = ir.IntegerAttr(read.attributes["dim"]).value
            if loop not in starts:
                starts[loop] = None
                for v, m in zip(operands, maps):
                    s = self.layout.get(v)
                    plain = [k for k, e in enumerate(m.results) if _is_dim(e, loop)]
                    k = next((k for k in plain if s is not None and s.axes_of(k)), None)
                    if k is None:
                        continue
                    if s.halo_sizes:
                        raise _Unsupported(op.location, "a body reads the index of a loop split with halos")
                    if v not in self.global_type:  # a piece whose whole type was not recorded
                        raise _Unsupported(op.location, f"the whole size of operand {operands.index(v)} is unknown")
                    ix = ix or _Ix(self, ir.InsertionPoint(op), op.location)
                    t = ir.RankedTensorType(self.global_type[v])
                    start = ix.start(s, k, ix.total(v, t, s, k), ix.group_index(s.axes_of(k)))
                    starts[loop] = None if isinstance(start, int) and start == 0 else ix.value(start)
                    break
            start = starts[loop]
            if start is None:
                continue
            index = read.result
            with ir.InsertionPoint.after(read), read.location:
                moved = arith.AddIOp(index, start)
            index.replace_all_uses_except(moved.result, moved.operation)
            for extract, i in keep:
                extract.operands[i] = index

    def erase_unused_inits(self) -> None:
        """Whole inits that every user rebuilt in its own layout are dead.
        The candidates (each fill, then the empty it fills) are listed
        before anything is erased, and each op is erased at most once: an
        erased op must never be touched again."""
        # by value (ops are compared only while alive): is it a fill's, its op
        values: dict[ir.Value, tuple[bool, ir.Operation | ir.OpView]] = {}
        for value, owner, init, init_owner in self.rebuilt:
            if value in values:
                continue
            values[value] = (init is not None, owner)
            if init is not None:
                values.setdefault(init, (False, init_owner))
        # users before what they use
        ops = [owner.operation for filled, owner in values.values() if filled]
        ops += [owner.operation for filled, owner in values.values() if not filled]
        for op in ops:
            if not any(_has_uses(r) for r in op.results):
                op.erase()

    def arguments(self, entry: ir.Block) -> None:
        """An argument's layout: its own annotation, else the one its
        annotations for users agree on, else replicated."""
        layout, local_types = self.layout, self.local_types
        for arg in entry.arguments:
            t = arg.type
            if not isinstance(t, ir.RankedTensorType):
                continue
            s = layout.get(arg)
            if s is None:
                wanted = []
                collective = False  # a collective reading it takes it whole: it arrives so
                for use in arg.uses:
                    user = use.owner
                    if user.name == "mesh.shard" and "annotate_for_users" in user.attributes:
                        wanted.append(self.read_sharding(user.operands[1])[1])
                    elif is_collective(user.name):
                        collective = True
                if wanted and all(w == wanted[0] for w in wanted) and not wanted[0].partial_axes and not collective:
                    s = layout[arg] = wanted[0]
            if s is None or s.is_replicated:
                continue
            if self.pass_.full_arguments:
                if s.partial_axes:
                    raise _Unsupported(self.func.location, "a whole argument cannot arrive as a partial value")
                self.local_type(t, s, arg.location)  # the layout fits the type
                if not s.halo_sizes and all(self.mesh.shape[a] == 1 for axes in s.split_axes for a in axes):
                    # split only over axes of one device: the piece is the whole, and
                    # its whole type is recorded as any split value's is (hlo ops read it)
                    self.global_type[arg] = t
                    continue
                # (comparing types would not do: a split dynamic size is `?` in both)
                uses = [u for u in arg.uses]
                first = entry.operations[0]
                local = self.reshard(arg, t, _WHOLE, s, ir.InsertionPoint(first), arg.location)
                layout[local] = s
                self.global_type[local] = t
                self.whole[local] = arg
                layout[arg] = _WHOLE  # the argument itself is whole on every device
                for use in uses:
                    use.owner.operands[use.operand_number] = local
            else:
                self.global_type[arg] = t
                piece = local_types.get((t, s))  # the location is only for a diagnostic
                arg.set_type(self.local_type(t, s, self.annotation_location(arg)) if piece is None else piece)

    def annotation_location(self, arg: ir.Value) -> ir.Location:
        """Where an argument's layout was written, for diagnostics."""
        for use in arg.uses:
            if use.owner.name == "mesh.shard":
                return use.owner.location
        return self.func.location

    def signature(self, entry: ir.Block, terminator: ir.Operation | None) -> None:
        ftype = ir.FunctionType(ir.TypeAttr(self.func.attributes["function_type"]).value)
        inputs = [a.type for a in entry.arguments]
        results = [v.type for v in terminator.operands] if terminator is not None else list(ftype.results)
        self.func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))
        assert self.mesh_name is not None
        # Every tensor of a partitioned signature says its layout, replicated
        # ones too, so a function whose values all end up whole still reads
        # as a per-device program (the simulator runs it on every device).
        # With full-arguments, arguments arrive whole and carry nothing.
        replicated = self.sharding_attr(_WHOLE)
        dicts: dict[ir.Attribute | None, ir.Attribute] = {}  # one DictAttr per layout attribute
        # Other entries of the signature (JAX's donations, result names, a
        # `mesh.reduced`) stay beside the layout.
        kept = {key: self.other_entries(key) for key in ("arg_attrs", "res_attrs")}

        def entry_of(attr: ir.Attribute | None, key: str = "", k: int = 0) -> ir.Attribute:
            others = kept[key][k] if key and k < len(kept[key]) else None
            if others:
                entries = dict(others)
                if attr is not None:
                    entries["mesh.sharding"] = attr
                return ir.DictAttr.get(entries)
            found = dicts.get(attr)
            if found is None:
                found = dicts[attr] = ir.DictAttr.get({} if attr is None else {"mesh.sharding": attr})
            return found

        arg_attrs = []
        full = self.pass_.full_arguments
        for k, (arg, t) in enumerate(zip(entry.arguments, inputs)):
            s = self.layout.get(arg)
            attr = None
            if not full and isinstance(t, ir.RankedTensorType):
                attr = replicated if s is None else self.signature_attr(arg, s, f"argument {k}")
            arg_attrs.append(entry_of(attr, "arg_attrs", k))
        res_attrs = []
        for k, v in enumerate(terminator.operands if terminator is not None else []):
            s = self.layout.get(v)
            attr = None
            if isinstance(v.type, ir.RankedTensorType):
                attr = replicated if s is None else self.signature_attr(v, s, f"result {k}")
            res_attrs.append(entry_of(attr, "res_attrs", k))
        self.func.attributes["arg_attrs"] = ir.ArrayAttr.get(arg_attrs)
        self.func.attributes["res_attrs"] = ir.ArrayAttr.get(res_attrs)

    def other_entries(self, key: str) -> list[dict[str, ir.Attribute]]:
        """Per argument or result, its signature entries besides its layout."""
        if key not in self.func.attributes:
            return []
        return [
            {a.name: a.attr for a in ir.DictAttr(d) if a.name != "mesh.sharding"}
            for d in ir.ArrayAttr(self.func.attributes[key])
        ]

    def signature_attr(self, value: ir.Value, s: Sharding, what: str) -> ir.Attribute:
        """The layout a signature records.  Pieces of different sizes spell
        out their offsets (the default cut's, when none were given): a local
        type of dynamic size does not say how large the whole tensor is, and
        the offsets do."""
        assert self.mesh is not None and self.mesh_name is not None
        t = self.global_type.get(value)
        key = (t, s)
        found = self.attrs.get(key)
        if found is not None:
            return found
        if (
            s.sharded_dims_offsets
            or not isinstance(t, ir.RankedTensorType)
            or not t.has_static_shape
            or self.dynamic_axes
            or s.is_even(t.shape, self.mesh)
        ):
            found = self.sharding_attr(s)
        else:
            if any(s.halo_sizes):
                raise _Unsupported(
                    self.func.location,
                    f"function {what} of type {t} has halos and pieces of different sizes ({s}): its signature "
                    "would need sharded_dims_offsets beside halo_sizes, which a mesh.sharding cannot hold",
                )
            offsets = [x for d in s.sharded_dims() for x in s.cut(d, t.shape[d], self.mesh)]
            spelled = Sharding(s.split_axes, s.partial_axes, s.partial_type, s.halo_sizes, tuple(offsets))
            found = self.sharding_attr(spelled)
        self.attrs[key] = found
        return found

    def sharding_attr(self, s: Sharding) -> ir.Attribute:
        """`sharding_attr` on this run's mesh, once per layout."""
        assert self.mesh_name is not None
        found = self.attrs.get(s)
        if found is None:
            found = self.attrs[s] = sharding_attr(self.mesh_name, s)
        return found

    # -- one op ------------------------------------------------------------------

    def rewrite(
        self,
        op: ir.Operation,
        name: str,
        rule: ShardingRule | None,
        read: _Read | None,
    ) -> None:
        """`read`: what the rule's lookup saw of the op (its sharding option,
        whether its body may read an outside tensor, its results, and the
        outside tensors its body reads at its loop indices); None for mesh
        ops, which have no rule.  (`run` treats `mesh.shard` itself.)"""
        if name.startswith("mesh."):
            if name == "mesh.all_slice" and self.enter_pieces(op):
                return
            if name == "mesh.all_gather" and self.leave_pieces(op):
                return
            if name not in _NOT_RULED:
                self.check_collective(op)
            elif name == "mesh.mesh" and (why := redefined_mesh(op, self.meshes)) is not None:
                raise _Unsupported(op.location, why)
            return
        assert read is not None
        if name == "func.return":
            self.func_return(op)
            return
        recorded = read[0]  # read only if the layouts around the op do not fit
        if recorded is not None:
            del op.attributes[OPTION_ATTR]
        if name in _CONSTANTS:
            self.constant(op)
            return
        if name == "func.call":
            self.call(op)
            return
        if name in _CARRIED:
            self.carried(op)
            return
        if name in _YIELDS and op.parent.name in _CARRIED and self.carried_yield(op):
            return
        if name == "tensor.dim" and self.dim_of_piece(op):
            return
        if rule is None:
            self.without_rule(op)
            return
        if rule.crops and self.dynamic_axes:
            # (where each device's rows start depends on the sizes: as the solver, never split a crop there)
            rule = self.uncropped.setdefault(id(rule), uncropped(rule))
        if rule.windows and self.mesh is not None:
            rule = self.dilations_kept_whole(op, rule, read[2])
        if name.endswith(".select_and_scatter") and self.mesh is not None:
            rule = self.tiles_kept_whole(op, rule, read[2])
        pads: dict[int, ir.Operation] = {}
        for k in rule.fused:
            # the rule describes the pad's source: the op reads it (and the
            # padding comes back with its window, `halo.localize`)
            pad = self.owner(op.operands[k])
            pads[k] = pad.operation
            op.operands[k] = pad.operands[0]
        results = read[2]
        masked = self.masking(op, read[4], results) if read[4] is not None else None
        aligned = self.check_captures(op, name, read[3], masked[0].value if masked else None) if read[1] else {}
        layout, local_types = self.layout, self.local_types
        operands = list(op.operands)
        outs = [layout.get(r) for r in results]
        if masked is not None:
            # the op runs as if its results were not partial; masking its
            # body then makes them the partial sums they are annotated
            partial = outs
            outs = [_without_partial(p) for p in partial]
            layout.update(zip(results, outs))
        # the (global) types of the results partition retypes, read once
        types = [None if s is None else r.type for r, s in zip(results, outs)]
        if self.on_terms(op, rule, outs[0] if outs else None):
            after: list[tuple[int, Sharding]] = []
        else:
            after, fitted = self.fit(op, rule, recorded, operands, results, outs, types)
            if not fitted:  # fitting set layouts of results, and may have resharded operands
                outs = [layout.get(r) for r in results]
                types = [None if s is None else r.type for r, s in zip(results, outs)]
            self.fix_init(op, rule, name, results, outs, operands if fitted else None)
        if rule.crops:
            try:
                crop.fit(self, op, rule, outs[0])
            except ValueError as e:
                raise _Unsupported(op.location, str(e)) from None
        local = self.align_captures(op, aligned) if aligned else {}
        if masked is not None:
            after, masks = self.masked_results(op, *masked, results, partial, after)
            if masks:
                for index, reads in self.mask_capture(op, *masked).items():
                    local.setdefault(index, []).extend(reads)
        if name in INDEX_OFFSET_OPS and self.may_read_index(op, name, rule):
            self.offset_indices(op, local)
        if name in ("tensor.empty", "tensor.splat") and self.sized_per_device(op):
            return
        for r, s, t in zip(results, outs, types):
            if s is not None:
                self.global_type[r] = t
                local = local_types.get((t, s))
                r.set_type(self.local_type(t, s, op.location) if local is None else local)
        if after:
            self.reshard_results(op, after)
        if name == "tensor.extract_slice" and any(it.is_reduction for it in rule.iterators):
            try:
                crop.mask_rows(self, op, rule)
            except ValueError as e:
                raise _Unsupported(op.location, str(e)) from None
        cropped = None
        if rule.crops:
            try:
                cropped = crop.localize(self, op, rule, outs[0])
            except ValueError as e:
                raise _Unsupported(op.location, str(e)) from None
        if cropped is None and name == "tensor.insert_slice":
            try:
                cropped = crop.insert_at_offsets(self, op, outs[0])
            except ValueError as e:
                raise _Unsupported(op.location, str(e)) from None
        if cropped is not None:
            assert not rule.windows and not pads  # (a crop's rule reads no window and fuses no pad)
            self.replaced(op, cropped)
            return
        if name not in _LOCALIZED or not self.localize_dynamic(op, name):
            _localize(op, name, self.forget)
        # the operands' layouts and global types, read before `hlo.localize`
        # may cut an operand (a slice's one-element dimension, `_held_element`)
        layouts = [self.layout.get(v) for v in op.operands] if rule.windows else []
        types = [self.global_type.get(v, v.type) for v in op.operands] if rule.windows else []
        if name.startswith(("stablehlo.", "mhlo.")):
            hlo.localize(self, op, name)
        if rule.windows:
            assert self.mesh is not None and self.mesh_name is not None
            _check_windowed_results(op, rule, outs, self.mesh)
            try:
                halo.localize(op, rule, layouts, types, self.mesh, self.mesh_name, self.dynamic_axes, pads)
            except ValueError as e:
                raise _Unsupported(op.location, str(e)) from None
        for pad in pads.values():
            self.forget(pad.result)
            pad.erase()

    def on_terms(self, op: ir.Operation, rule: ShardingRule, out: Sharding | None) -> bool:
        """An op linear in the sum (`interfaces/linear.py`: an add, a transpose, a
        product by a whole factor...) whose result is annotated a partial
        sum runs on terms: each operand it reads as terms is resharded to
        its split under the loop sharding giving the result's, partial
        alike (a partial sum is read as it is, a whole value kept on one
        device of each group), any other to that split, and each device
        applies the op to its own terms, whose total is the op applied to
        the totals (without the flags promising what holds of totals only).
        False (nothing done) for any other op or result layout."""
        if out is None or not out.partial_axes:
            return False
        if op.name == "linalg.generic" and (len(op.results) != 1 or self.fits_rule(op, rule, out)):
            # a sum reduction split over devices (`fit`) gives partial sums
            # too (asked first: reading the body costs more); only a generic
            # of one result may run on terms (`generic_terms`)
            return False
        if op.name == "tensor.extract_slice" and self.fits_rule(op, rule, out):
            return False  # a row of a split operand read where it lies (`crop.mask_rows`)
        ways = ways_off_pads(term_operands(op), rule)
        if not ways:
            return False
        assert self.mesh is not None
        partial = {i for i, v in enumerate(op.operands) if self.layout.get(v, _WHOLE).partial_axes}
        # a product reads as terms the factor that already is partial (the first, else)
        terms = next((way for way in ways if partial.issuperset(way)), ways[0])
        found = on_terms(rule, out, terms, self.mesh.shape)
        if found is None:
            return False
        ip = ir.InsertionPoint(op)
        for i, target in enumerate(found[1]):
            if target is not None:  # (None: an index operand, a slice's offset)
                self.reshard_operand(op, i, target, ip, op.location)
        self.check_pieces(op, rule)  # uneven cuts must line up, as in `fit`
        drop_totals_only_flags(op)  # terms may wrap where their totals do not
        if op.name == "linalg.generic":  # (its body's ops, then)
            for inner in op.regions[0].blocks[0].operations:
                drop_totals_only_flags(inner)
        return True

    def fits_rule(self, op: ir.Operation, rule: ShardingRule, out: Sharding) -> bool:
        """Whether the layouts around `op` (of one result, `out`) are the
        ones a loop sharding of its rule implies."""
        ins = [None if m is None else self.layout.get(v, _WHOLE) for v, m in zip(op.operands, rule.operand_maps)]
        return self.fits_at(op, rule, _init_read_whole(op.name, rule, ins, [out]), [out])

    def localize_dynamic(self, op: ir.Operation, name: str) -> bool:
        """Slices and expand_shape whose local pieces have sizes only known at
        run time: their sizes become `tensor.dim`s of the local values (the op
        is made again with them).  False when `_localize` does the job."""
        if name in ("tensor.extract_slice", "tensor.insert_slice"):
            full = op.operands[0 if name == "tensor.extract_slice" else 1]
            s = self.layout.get(full)
            ft = ir.RankedTensorType(full.type)
            split = [d for d in range(ft.rank) if s is not None and s.axes_of(d)]
            if not any(ft.is_dynamic_dim(d) for d in split):
                return False
            lead = 1 if name == "tensor.extract_slice" else 2
            segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
            operands = list(op.operands)
            n_off, n_size = segments[-3], segments[-2]
            offsets = operands[lead : lead + n_off]
            given = iter(operands[lead + n_off : lead + n_off + n_size])
            strides = operands[lead + n_off + n_size :]
            dyn = ir.ShapedType.get_dynamic_size()
            static = list(op.attributes["static_sizes"])
            ix = _Ix(self, ir.InsertionPoint(op), op.location)
            steps = list(op.attributes["static_strides"])
            sizes = []
            for d, size in enumerate(static):
                value = next(given) if size == dyn else size
                # the rule splits only dimensions the slice covers whole, or
                # every t-th element of: the piece's size over t (pieces cut
                # at multiples of t, as the result's cut scaled by t)
                if d in split and steps[d] > 1:
                    value = ix.div(ix.dim(full, d), steps[d])
                elif d in split:
                    value = ix.dim(full, d)
                sizes.append(value)
            attrs = {key: op.attributes[key] for key in op.attributes}
            attrs["static_sizes"] = _dense_i64([v if isinstance(v, int) else dyn for v in sizes])
            dynamic_sizes = [v for v in sizes if not isinstance(v, int)]
            segments[-2] = len(dynamic_sizes)
            attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get(segments)
            new = ir.Operation.create(
                name,
                results=[op.results[0].type],
                operands=operands[:lead] + offsets + dynamic_sizes + strides,
                attributes=attrs,
                loc=op.location,
                ip=ir.InsertionPoint(op),
            )
            self.replaced(op, new)
            return True
        if name == "tensor.expand_shape":
            result = ir.RankedTensorType(op.results[0].type)
            if result.has_static_shape:
                return False
            src = op.operands[0]
            groups = [
                [ir.IntegerAttr(i).value for i in ir.ArrayAttr(g)] for g in ir.ArrayAttr(op.attributes["reassociation"])
            ]
            ix = _Ix(self, ir.InsertionPoint(op), op.location)
            sizes: list = list(result.shape)
            for k, group in enumerate(groups):
                open_dims = [d for d in group if result.is_dynamic_dim(d)]
                if not open_dims:
                    continue
                if len(open_dims) > 1:
                    raise _Unsupported(
                        op.location,
                        "tensor.expand_shape of a piece with two dynamic sizes in one group is not supported",
                    )
                rest = math.prod(result.shape[d] for d in group if d not in open_dims)
                sizes[open_dims[0]] = ix.div(ix.dim(src, k), rest)
            with ir.InsertionPoint(op), op.location:
                dyn = ir.ShapedType.get_dynamic_size()
                new = tensor.ExpandShapeOp(
                    result,
                    src,
                    op.attributes["reassociation"],
                    [v for v in sizes if not isinstance(v, int)],
                    [v if isinstance(v, int) else dyn for v in sizes],
                ).operation
            self.replaced(op, new)
            return True
        if name in ("tosa.reshape", "tensor.reshape") and not ir.RankedTensorType(op.results[0].type).has_static_shape:
            raise _Unsupported(op.location, f"{name} of pieces of different or dynamic sizes is not supported yet")
        return False

    def replaced(self, op: ir.Operation, new: ir.Operation) -> None:
        """`new` takes over `op`'s results, layouts and global types."""
        for old, fresh in zip(op.results, new.results):
            old.replace_all_uses_with(fresh)
            if old in self.layout:
                self.layout[fresh] = self.layout[old]
            if old in self.global_type:
                self.global_type[fresh] = self.global_type[old]
            self.forget(old)
        op.erase()

    def dim_of_piece(self, op: ir.Operation) -> bool:
        """`tensor.dim` of a partitioned value asks for the whole tensor's
        size: kept when the dimension is not split (the piece has it too),
        else the pieces' sizes summed over the group.  False when the
        dimension is not a constant (the op then runs on the whole value)."""
        v = op.operands[0]
        index = op.operands[1].owner
        if not isinstance(index, ir.OpView | ir.Operation) or index.name != "arith.constant":
            return False
        d = ir.IntegerAttr(index.attributes["value"]).value
        if v in self.whole:  # a slice of an argument that arrived whole: ask the argument
            op.operands[0] = self.whole[v]
            return True
        s = self.layout.get(v)
        if s is None or not s.axes_of(d):
            return True
        t = ir.RankedTensorType(self.global_type.get(v, v.type))
        if not 0 <= d < t.rank:
            return False
        at = op
        if t.is_dynamic_dim(d) and self.per_element.get(op.block, False) is not None:
            # the pieces' sizes are summed by a collective, which must not run
            # per element: in front of the region, as a reshard would be
            at, trapped = self.reshard_anchor(op, v)
            if trapped is not None:
                raise _Unsupported(
                    op.location,
                    f"the size of a value split along its dynamic dimension {d} is read in the region of "
                    f"'{trapped}', which may run once per element, where the pieces' sizes cannot be summed; "
                    "annotate the value outside that region",
                )
        ix = _Ix(self, ir.InsertionPoint(at), at.location)
        r = op.results[0]
        r.replace_all_uses_with(ix.value(ix.total(v, t, s, d)))
        self.forget(r)
        op.erase()
        return True

    def sized_per_device(self, op: ir.Operation) -> bool:
        """A `tensor.empty` or `tensor.splat` whose pieces have sizes that
        differ between devices (or depend on a dynamic size): made again
        with this device's sizes.  False when the plain retyping fits."""
        r = op.results[0]
        s = self.layout.get(r)
        t = ir.RankedTensorType(r.type)
        if s is None or not any(
            s.axes_of(d) and (t.is_dynamic_dim(d) or not self.uniform(t, s, d)) for d in range(t.rank)
        ):
            return False
        local = ir.RankedTensorType(self.local_type(t, s, op.location))
        ix = _Ix(self, ir.InsertionPoint(op), op.location)
        given = iter(list(op.operands)[0 if op.name == "tensor.empty" else 1 :])
        sizes: list = []
        for d in range(t.rank):
            n = next(given) if t.is_dynamic_dim(d) else t.shape[d]
            sizes.append(ix.size(s, d, n, ix.group_index(s.axes_of(d))) if s.axes_of(d) else n)
        with ir.InsertionPoint(op), op.location:
            if op.name == "tensor.empty":
                new = tensor.EmptyOp(sizes, t.element_type).result
            else:
                new = tensor.SplatOp(
                    local, op.operands[0], [ix.value(n) for n in sizes if not isinstance(n, int)]
                ).result
        r.replace_all_uses_with(new)
        self.layout[new] = s
        self.global_type[new] = t
        self.forget(r)
        op.erase()
        return True

    # -- values carried through regions --------------------------------------

    def carried(self, op: ir.Operation) -> None:
        """One layout per carried value: the result's annotation, else a
        block argument's, else whole.  The init is resharded to it here, the
        values handed on at their terminator (`carried_yield`)."""
        for region in op.regions:
            if len(region.blocks) > 1:
                raise _Unsupported(
                    op.location,
                    f"partition needs single-block regions: '{op.name}' has a region of {len(region.blocks)} blocks",
                )
        why = malformed(op)
        if why is not None:
            raise _Unsupported(op.location, f"'{op.name}' {why}")
        k = selector(op)
        if k is not None:  # every device takes the same branch
            self.reshard_operand(op, k, None, ir.InsertionPoint(op), op.location)
        for value in carried(op):
            s = None if value.result is None else self.layout.get(value.result)
            for arg in value.args:
                if s is None:
                    s = self.layout.get(arg)
            for v in (value.result, *value.args):
                if v is None:
                    continue
                if s is None:
                    self.layout.pop(v, None)
                else:
                    self.layout[v] = s
                    self.global_type[v] = v.type
                    v.set_type(self.local_type(v.type, s, op.location))
            if value.init is not None:
                self.reshard_operand(op, value.init, s, ir.InsertionPoint(op), op.location)

    def carried_yield(self, op: ir.Operation) -> bool:
        """Reshard what terminator `op` hands on to its carried values'
        layouts; False when it hands on none (a `stablehlo.while`
        condition's flag: an op without a rule)."""
        found = False
        for value in carried(op.parent):
            for y, i in value.yields:
                if y == op:
                    s = self.layout.get(layout_holder(value))
                    self.reshard_operand(op, i, s, ir.InsertionPoint(op), op.location)
                    found = True
        return found

    def reshard_operand(
        self, op: ir.Operation, i: int, target: Sharding | None, ip: ir.InsertionPoint, loc: ir.Location
    ) -> bool:
        """Make operand `i` of `op` arrive in layout `target` (None: whole);
        True if that took a reshard."""
        v = op.operands[i]
        if not isinstance(v.type, ir.RankedTensorType):
            return False
        new = self.in_layout(v, target or _WHOLE, op, ip, loc)
        if new == v:
            return False
        op.operands[i] = new
        return True

    def in_layout(self, v: ir.Value, target: Sharding, user: ir.Operation, ip, loc: ir.Location) -> ir.Value:
        """`v` in layout `target` for `user`: itself when it already is, the
        value a reshard sliced `v` out of when that one is in `target`
        (`undo`), the whole of a sliced full argument when that is what
        `target` asks, else a reshard (from the whole for a sliced full
        argument)."""
        source = self.layout.get(v, _WHOLE)
        if source is target or source == target:
            return v
        if self.undo:
            origin = self.undo.get(v)
            if origin is not None and self.layout.get(origin, _WHOLE) == target:
                self.went_back.append(v)
                return origin  # (it dominates `v`, which a reshard made from it, and so every user of `v`)
        if self.whole and v in self.whole:
            v, source = self.whole[v], _WHOLE
            if source == target:
                return v
        return self.resharded(v, source, target, user, ip, loc)

    def resharded(
        self, v: ir.Value, source: Sharding, target: Sharding, user: ir.Operation, ip, loc: ir.Location
    ) -> ir.Value:
        """`v` in layout `target`: resharded once per block, where the first
        reshard (in front of an earlier op of the block) serves every later
        user in that block."""
        block = user.block
        trapped = None
        if self.per_element.get(block, False) is not None:
            anchor, trapped = self.reshard_anchor(user, v)
            if anchor is not user:  # in front of a per-element region or a loop
                if loc is None:
                    loc = user.location  # said where the value is used
                user, block, ip = anchor, anchor.block, ir.InsertionPoint(anchor)
        key = (v, target, block)
        new = self.reshards.get(key)
        while new is None:
            # A reshard made in an enclosing block sits before the region op
            # holding this user (ops are visited in order), so it dominates.
            outer = self.outer_blocks.get(block, False)
            if outer is False:
                parent = block.owner
                outer = None if parent is None or parent.operation == self.func else parent.operation.block
                self.outer_blocks[block] = outer
            if outer is None:
                break
            block = outer
            new = self.reshards.get((v, target, block))
        if new is None:
            global_type = self.global_type.get(v)
            if global_type is None:
                global_type = v.type
            if ip is None:  # made here, only when a reshard is needed
                ip, loc = ir.InsertionPoint(user), user.location
            rebuilt = len(self.rebuilt)
            new = self.reshards[key] = self.reshard(v, global_type, source, target, ip, loc, trapped)
            if (
                new != v
                and len(self.rebuilt) == rebuilt
                and not self.dynamic_axes  # (pieces over an axis of unknown size may not nest: sizes unknown)
                and _slices_only(source, target, global_type, self.mesh)
            ):
                # (a value made again in the new layout, not sliced, is made again on the way back)
                self.undo[new] = v
                self.undone_from.setdefault(v, []).append(new)
            if source.partial_axes and target == self.without_partial(source) and _made_by(new, "mesh.all_reduce"):
                self.totals[new] = (v, source, key)  # `terms_of_total` may read v instead
            if not target.is_replicated:
                self.layout[new] = target
                self.global_type[new] = global_type
        return new

    def without_partial(self, s: Sharding) -> Sharding:
        """`_without_partial(s)`, once per layout (building a layout costs
        about ten microseconds; every partial result asks)."""
        found = self.totals_of.get(s)
        if found is None:
            found = self.totals_of[s] = _without_partial(s)
        return found

    def reshard_anchor(self, user: ir.Operation, v: ir.Value) -> tuple[ir.Operation, str | None]:
        """The op a reshard of `v` for `user` goes in front of: `user`, or
        the outermost op around it that does not define `v` and whose region
        is a loop (`_LOOPS`: `v` is the same every iteration), not control
        flow at all (`_RUN_ONCE`: a collective must not run per element) or
        run by some devices only (`divergent`: the others would not come);
        and the name of a per-element op the reshard stays inside (it
        defines `v`), else None.  Memoizes in `per_element` (None) the
        blocks that no such op holds, whatever the value."""
        block = user.block
        defined_in = v.owner if isinstance(v, ir.BlockArgument) else v.owner.operation.block
        anchor, trapped, depends = user, None, False
        below_def = block == defined_in  # v is visible only in and below its block
        while True:
            owner = block.owner  # an OpView's `name` may be its symbol: ask the operation
            name = None if owner is None else owner.operation.name
            if name is None or name == "func.func":
                break
            if name in _LOOPS or name not in _RUN_ONCE:
                depends = True  # where the reshard goes depends on the value: no memo
                if not below_def:
                    anchor = owner.operation
                elif name not in _LOOPS and trapped is None:
                    trapped = name
            elif self.divergent and block in self.divergent:
                # a region only some devices run: a collective goes in front of it
                depends = True
                if not below_def:
                    anchor = owner.operation
            block = owner.operation.block
            below_def = below_def or block == defined_in
        if not depends:
            self.per_element[user.block] = None
        return anchor, trapped

    def func_return(self, op: ir.Operation) -> None:
        """The first `func.return` sets the layouts of the results; any other
        one (in another block) is resharded to them."""
        if self.returned is None:
            self.returned = [self.layout.get(v) for v in op.operands]
            for i in self.reduced_results():
                s = self.returned[i]
                if s is not None and s.partial_axes:
                    self.returned[i] = _without_partial(s)
                    self.reshard_operand(op, i, self.returned[i], ir.InsertionPoint(op), op.location)
            return
        for i, s in enumerate(self.returned):
            self.reshard_operand(op, i, s, ir.InsertionPoint(op), op.location)

    def reduced_results(self) -> list[int]:
        """The results marked `mesh.reduced`."""
        if "res_attrs" not in self.func.attributes:
            return []
        entries = ir.ArrayAttr(self.func.attributes["res_attrs"])
        return [i for i, d in enumerate(entries) if REDUCED_ATTR in ir.DictAttr(d)]

    # -- ops without a rule ---------------------------------------------------

    def without_rule(self, op: ir.Operation) -> None:
        """An op with no sharding rule runs on whole values: sharded operands
        are gathered in front of it, and its results, block arguments and
        terminator operands are whole (an annotation on them reshards)."""
        gathered = []
        for i, v in enumerate(op.operands):
            s = self.layout.get(v)
            back = len(self.went_back)
            if self.reshard_operand(op, i, None, ir.InsertionPoint(op), op.location) and len(self.went_back) == back:
                gathered.append(f"operand {i} ({s})")  # (not the whole value a slice was cut from: nothing moves)
        if gathered:
            self.pass_.remark(
                op.location,
                f"no sharding rule for '{op.name}': {', '.join(gathered)} gathered whole on every device",
            )
        for r in op.results:
            self.layout.pop(r, None)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    self.layout.pop(arg, None)

    def enter_pieces(self, op: ir.Operation) -> bool:
        """`mesh.all_slice` of a value partition lays out (a shard_map's
        operand, `import-shardings`): each device's piece is that value in
        the layout the slice cuts, so the slice becomes a reshard to it,
        free when the value is laid out so already.  A chain of slices (one
        per dimension) is one layout: slices whose only users are slices
        wait for the last.  False when this does not apply (a whole value:
        the slice stays)."""
        v = op.operands[0]
        mesh = op.opview.mesh
        entered = self.entered.get(v)
        if entered is not None:
            source, before = entered
        else:
            s = self.layout.get(v)
            if s is None or s.is_replicated or v in self.per_device:
                return False
            source, before = v, _WHOLE
            if not _slices_line_up(op, before, mesh):
                return False  # (the collective check names what does not fit)
        self.use_mesh(mesh, op.location)
        target = _slice_target(op, before)
        assert target is not None  # (`_slices_line_up` checked the chain from its first slice)
        result = op.results[0]
        uses = [u.owner.operation.name for u in result.uses]
        if uses and all(u == "mesh.all_slice" for u in uses):
            self.entered[result] = (source, target)  # the last slice of the chain lays it out
            return True
        local = self.in_layout(source, target, op, ir.InsertionPoint(op), op.location)
        if local.type != result.type:
            raise _Unsupported(
                op.location,
                f"the piece of a value laid out as {target} is {local.type}, but 'mesh.all_slice' gives {result.type}",
            )
        with op.location, ir.InsertionPoint(op):
            # a value of its own, with no layout: the code after it runs per
            # device (a same-type cast, folded away at the end)
            alias = ir.Operation.create("tensor.cast", results=[result.type], operands=[local]).result
        self.aliases.append(alias.owner.operation)
        result.replace_all_uses_with(alias)
        while op is not None and not _has_uses(op.results[0]):
            owner = op.operands[0].owner
            self.forget(op.results[0])
            op.erase()
            slice_before = not isinstance(owner, ir.Block) and owner.operation.name == "mesh.all_slice"
            op = owner.operation if slice_before else None
        return True

    def leave_pieces(self, op: ir.Operation) -> bool:
        """`mesh.all_gather` that makes pieces one value every device holds
        (a shard_map's result): partition takes that value as laid out in
        those pieces, each device's piece being the gather's operand, so the
        gather moves nothing (a laid-out value gathered again is tiled
        copies of it: its own pieces).  False when the result still differs
        between devices, or the pieces are not each device's alone."""
        result = op.results[0]
        if result in self.per_device:  # (no analysis: no value differs)
            return False
        mesh = op.opview.mesh
        self.use_mesh(mesh, op.location)
        t = ir.RankedTensorType(result.type)
        if any(ir.ShapedType.is_dynamic_size(n) for n in t.shape):
            return False
        # a chain of gathers (one per dimension) is one layout: walk back to
        # its first, whose operand is each device's piece; a later gather
        # makes the pieces an earlier one made its minor parts
        split: list[tuple[int, ...]] = [()] * t.rank
        chain, link = [], op
        while True:
            view = link.opview
            split[view.gather_axis] = split[view.gather_axis] + view.mesh_axes
            chain.append(link)
            owner = link.operands[0].owner
            if isinstance(owner, ir.Block) or owner.operation.name != "mesh.all_gather":
                break
            inner = owner.operation
            if len(list(inner.results[0].uses)) != 1 or self.layout.get(inner.operands[0]) is not None:
                break
            if inner.opview.mesh != mesh:
                break
            link = inner
        piece = chain[-1].operands[0]
        base = self.layout.get(piece)
        if base is not None:
            # the gathered value is one every device holds alike, laid out:
            # the gather tiles copies of it, and each device's piece of the
            # tiles is its piece of the value (whose axes stay minor)
            gathered = {a for axes in split for a in axes}
            if base.partial_axes or base.halo_sizes or base.sharded_dims_offsets:
                return False
            if gathered & {a for axes in base.split_axes for a in axes}:
                return False
            split = [axes + base.axes_of(d) for d, axes in enumerate(split)]
        used = [a for axes in split for a in axes]
        if len(used) != len(set(used)):
            return False  # a gather over an axis the pieces already vary along twice: no layout says it
        target = Sharding(tuple(split))
        if target.is_replicated or self.local_type(result.type, target, op.location) != piece.type:
            return False
        with op.location, ir.InsertionPoint(op):
            alias = ir.Operation.create("tensor.cast", results=[piece.type], operands=[piece]).result
        self.aliases.append(alias.owner.operation)
        self.layout[alias] = target
        self.global_type[alias] = result.type
        result.replace_all_uses_with(alias)
        for link in chain:  # the last first: each the only user of the one before
            self.forget(link.results[0])
            link.erase()
        return True

    def check_collective(self, op: ir.Operation) -> None:
        """A collective already speaks of one device's data: its operands and
        results must not be values partition would split."""
        for what, values in (("operand", op.operands), ("result", op.results)):
            for i, v in enumerate(values):
                s = self.layout.get(v)
                if s is not None and not s.is_replicated:
                    raise _Unsupported(
                        op.location,
                        "a collective already works on one device's data, so its values cannot be partitioned: "
                        f"'{op.name}' {what} {i} is annotated {s}",
                    )

    def check_fits(
        self,
        op: ir.Operation,
        rule: ShardingRule,
        recorded: ir.Attribute | None = None,
        operands: list[ir.Value] | None = None,
        results: list[ir.Value] | None = None,
    ) -> list[tuple[int, Sharding]]:
        """Fit the layouts around `op` to one loop sharding; returns the
        results to reshard after the op (index, the layout its users read).
        `operands` and `results` are the op's, when the caller has them."""
        if operands is None:
            operands = list(op.operands)
        if results is None:
            results = list(op.results)
        return self.fit(op, rule, recorded, operands, results, [self.layout.get(r) for r in results])[0]

    def check_captures(
        self, op: ir.Operation, name: str, reads: list[AlignedRead], masked: ir.Value | None = None
    ) -> dict[ir.Value, AlignedRead]:
        """A body that reads a tensor from outside the op which is not whole
        on every device reads it whole: the rule sees only the op's
        operands, so the body indexes the tensor with global indices (a
        torch-mlir embedding's `tensor.extract` from its table).  The value
        is resharded whole in front of the op, once per block, and the
        body's reads take that.  Returns the tensors read only at the op's
        loop indices (`reads`, as found before annotations were erased),
        which are left to `align_captures`.  The `masked` tensor is left
        to `mask_capture`."""
        # Only values this function's walk gave a layout can be split; the
        # walk does not enter linalg bodies, but it enters a `tensor.pad`'s,
        # where an annotation may split a body's own value: that one cannot
        # be made whole in front of the op, and is refused.
        layout = self.layout
        found: list[tuple[ir.Operation, int, ir.Value]] = []
        aligned = _aligned_now(reads)
        # each aligned tensor's reads: one read any other way (erasing an
        # annotation may have made two tensors one) makes it whole
        allowed = {v: {op_address(extract) for extract, _, _ in a.reads} for v, a in aligned.items()}
        stray: set[ir.Value] = set()

        def visit(inner: ir.Operation) -> ir.WalkResult:
            for i, v in enumerate(inner.operands):
                extracts = allowed.get(v)
                if extracts is not None and (i or op_address(inner) not in extracts):
                    stray.add(v)
                s = layout.get(v)
                if s is not None and (s.split_axes or s.partial_axes):
                    found.append((inner, i, v))
            return ir.WalkResult.ADVANCE

        walk_inside(op, visit)  # the op's own operands are its rule's
        for inner, _, v in found:
            if _defined_within(v, op):
                raise _Unsupported(
                    inner.location,
                    f"'{inner.name}' in the body of '{name}' reads a value of that body that is not whole on every "
                    f"device ({layout[v]}); the body runs on scalars",
                )
        for v in stray:
            del aligned[v]
        if masked is not None:
            aligned.pop(masked, None)  # (its aligned dimensions too are `mask_capture`'s)
        for inner, i, v in found:
            if v not in aligned and (masked is None or v != masked):
                inner.operands[i] = self.in_layout(v, _WHOLE, op, None, None)
        return aligned

    def masking(
        self, op: ir.Operation, masked: MaskedRead, results: list[ir.Value]
    ) -> tuple[MaskedRead, tuple[int, ...]] | None:
        """The masked read (`masked_read`, its tensor as the body reads it
        now) and the mesh axes its dimension is split over, when the op's
        results are all annotated partial sums over those axes and the op
        cannot make them on terms: each device then reads only the indices
        its piece holds (`mask_capture`).  None (the tensor is read whole,
        the results resharded as annotated) when a device's piece would be
        empty, or the tensor is read some other way now (erasing
        annotations may have made two tensors one)."""
        mesh = self.mesh
        if mesh is None or term_operands(op):
            return None
        axes: tuple[int, ...] | None = None
        for r in results:
            s = self.layout.get(r)
            if s is None or not s.partial_axes or s.partial_type != "sum" or s.halo_sizes or s.sharded_dims_offsets:
                return None
            if axes is not None and s.partial_axes != axes:
                return None
            axes = s.partial_axes
        assert axes is not None
        if any(a in self.dynamic_axes for a in axes):
            return None
        v = masked.extracts[0].operands[0]
        reads = {op_address(e) for e in masked.extracts}
        other = False

        def visit(inner: ir.Operation) -> ir.WalkResult:
            nonlocal other
            for i, w in enumerate(inner.operands):
                if w == v and (i or op_address(inner) not in reads):
                    other = True
                    return ir.WalkResult.INTERRUPT
            return ir.WalkResult.ADVANCE

        walk_inside(op, visit)
        if other:
            return None
        d = masked.dim
        split = Sharding(((),) * d + (axes,))
        if any(b <= a for a, b in split.bounds(d, masked.shape[d], mesh)):
            return None
        return dataclasses.replace(masked, value=v), axes

    def masked_results(
        self,
        op: ir.Operation,
        masked: MaskedRead,
        axes: tuple[int, ...],
        results: list[ir.Value],
        annotated: list[Sharding],
        after: list[tuple[int, Sharding]],
    ) -> tuple[list[tuple[int, Sharding]], bool]:
        """After fitting the op as if its results were not partial: each
        result as the masked op makes it (partial over the masked axes too),
        and the reshards after the op to the annotated layouts; and whether
        to mask.  When the op's loops now split over a masked axis (layouts
        written by hand), masking cannot be: the tensor is read whole, and
        the results are made partial after the op."""
        layout = self.layout
        made = [layout.get(r) for r in results]
        if any(a in axes for s in made if s is not None for dim in s.split_axes for a in dim):
            whole = self.in_layout(masked.value, _WHOLE, op, None, None)
            for extract in masked.extracts:
                extract.operands[0] = whole
            return [(i, annotated[i]) for i, s in enumerate(made) if s != annotated[i]], False
        for r, s in zip(results, made):
            base = _WHOLE if s is None else s
            layout[r] = Sharding(base.split_axes, axes, "sum", base.halo_sizes, base.sharded_dims_offsets)
        return [(i, annotated[i]) for i, _ in after], True

    def mask_capture(
        self, op: ir.Operation, masked: MaskedRead, axes: tuple[int, ...]
    ) -> dict[int, list[tuple[ir.Operation, int]]]:
        """Split the masked tensor's dimension over `axes` (its dimensions
        read at split loops' indices as those loops, when their pieces are
        the default ones), and mask the body: each device reads its piece
        at the index less its first, when its piece holds the index (else
        at 0), and yields zero where it does not.  Exactly one device of
        each group then yields the value, so the results are the partial
        sums `masking` found them annotated as.  Returns the reads that
        keep a local loop index, as `align_captures` does."""
        d = masked.dim
        have = self.layout.get(masked.value)
        if have is not None:
            # A partial sum's axes have no order: the table's split of the
            # dimension keeps its order (a further axis only narrows its
            # pieces, as the cost solver prices a split of the masked loop
            # in that order), the other axes following in ascending order.
            own = tuple(a for a in have.axes_of(d) if a in axes)
            axes = (*own, *(a for a in axes if a not in own))
        split: list[tuple[int, ...]] = [()] * len(masked.shape)
        split[d] = axes
        carrier = self._loop_carrier(op)
        if masked.aligned is not None:
            for k, loop in enumerate(masked.aligned.map):
                found = None if loop is None else carrier(loop)
                if (
                    found is not None
                    and not found[0].sharded_dims_offsets
                    and self.scaled_piece(masked.aligned, k, found)
                ):
                    split[k] = found[0].axes_of(found[1])
        target = Sharding(tuple(split))
        piece = self.in_layout(masked.value, target, op, None, None)
        local: dict[int, list[tuple[ir.Operation, int]]] = {}
        for extract in masked.extracts:
            extract.operands[0] = piece
        if masked.aligned is not None:
            for (_, k, index), keep in zip(masked.aligned.reads, masked.aligned.keeps):
                if split[k] and k != d:
                    local.setdefault(op_address(index), []).append(keep)
        ix = _Ix(self, ir.InsertionPoint(op), op.location)
        n = masked.shape[d]
        group = ix.group_index(axes)
        start = ix.value(ix.start(target, d, n, group))
        size = ix.value(ix.size(target, d, n, group))
        first = masked.extracts[0]
        index_type = ir.IndexType.get()
        with ir.InsertionPoint(first), first.location:
            at = arith.SubIOp(first.operands[1 + d], start).result
            holds = arith.CmpIOp(arith.CmpIPredicate.ult, at, size).result
            safe = arith.SelectOp(holds, at, arith.ConstantOp(index_type, 0).result).result
        for extract in masked.extracts:
            extract.operands[1 + d] = safe
        end = terminator(op.regions[0].blocks[0])
        with ir.InsertionPoint(end), end.location:
            for i, y in enumerate(list(end.operands)):
                zero = arith.ConstantOp(y.type, _neutral("sum", y.type)).result
                end.operands[i] = arith.SelectOp(holds, y, zero).result
        return local

    def align_captures(
        self, op: ir.Operation, aligned: dict[ir.Value, AlignedRead]
    ) -> dict[int, list[tuple[ir.Operation, int]]]:
        """Reshard each tensor the body reads at the op's own loop indices
        (`aligned_reads`) to the split those loops have here, whole
        elsewhere: each device's piece of a loop reads the same piece of
        the tensor, at the local index.  Returns, per `linalg.index` of a
        split loop (by address), the (extract, operand) reads that keep its
        local value (`offset_indices` makes the others global).  A loop split with
        halos, or cut at offsets other than the default cut, leaves the
        tensor whole."""
        carrier = self._loop_carrier(op)
        local: dict[int, list[tuple[ir.Operation, int]]] = {}
        for v, read in aligned.items():
            found = [None if loop is None else carrier(loop) for loop in read.map]
            found = [None if c is None or not self.scaled_piece(read, d, c) else c for d, c in enumerate(found)]
            split = tuple(() if c is None else c[0].axes_of(c[1]) for c in found)
            target = _WHOLE
            if any(split):
                target = Sharding(split)
                if any(c is not None and c[0].sharded_dims_offsets for c in found):
                    # The loop's pieces spelled by offsets: the tensor's are cut
                    # alike when that is the default cut (an uneven one); any
                    # other cut is read whole, as the solver priced it (it
                    # prices no aligned read where annotations are cut at
                    # offsets: a recut could run in every iteration of a loop).
                    mesh = self.mesh
                    assert mesh is not None
                    shape = read.shape  # (its type may be local by now)
                    cuts = [(d, c[0].cut(c[1], shape[d], mesh)) for d, c in enumerate(found) if c is not None]
                    if all(cut == target.cut(d, shape[d], mesh) for d, cut in cuts):
                        target = Sharding(split, sharded_dims_offsets=tuple(x for _, cut in cuts for x in cut))
                    else:
                        split, target = tuple(() for _ in split), _WHOLE
            piece = self.in_layout(v, target, op, None, None)
            for (extract, d, index), keep in zip(read.reads, read.keeps):
                extract.operands[0] = piece
                if split[d]:
                    local.setdefault(op_address(index), []).append(keep)
        return local

    def scaled_piece(self, read: AlignedRead, d: int, carrier: tuple[Sharding, int]) -> bool:
        """Whether a device's piece of the loop reading dimension `d` of an
        aligned read at `i floordiv scale` (`AlignedRead.scales`) reads
        exactly the same piece of the dimension: the loop cut evenly, into
        pieces a multiple of `scale`, which holds when the mesh divides the
        dimension.  Else the tensor is read whole (at global indices)."""
        scale = read.scales[d]
        if scale == 1:
            return True
        s, k = carrier
        axes = s.axes_of(k)
        if s.sharded_dims_offsets or any(a in self.dynamic_axes for a in axes):
            return False
        assert self.mesh is not None
        return read.shape[d] % s.shard_count(k, self.mesh) == 0

    def _loop_carrier(self, op: ir.Operation) -> Callable[[int], tuple[Sharding, int] | None]:
        """Per loop of a linalg op, the layout of an operand dimension the
        loop indexes plainly and splits, and that dimension: it gives the
        loop's pieces (None: the loop is not split, or split with halos)."""
        maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(linalg_ops.get_indexing_maps(op))]
        operands = list(op.operands)
        carriers: dict[int, tuple[Sharding, int] | None] = {}

        def carrier(loop: int) -> tuple[Sharding, int] | None:
            if loop not in carriers:
                carriers[loop] = None
                for v, m in zip(operands, maps):
                    s = self.layout.get(v)
                    k = next((k for k, e in enumerate(m.results) if _is_dim(e, loop)), None)
                    if s is None or k is None or not s.axes_of(k):
                        continue
                    if not s.halo_sizes:
                        carriers[loop] = (s, k)
                    break
            return carriers[loop]

        return carrier

    def fit(
        self,
        op: ir.Operation,
        rule: ShardingRule,
        recorded: ir.Attribute | None,
        operands: list[ir.Value],
        results: list[ir.Value],
        outs: list[Sharding | None],
        types: list[ir.Type | None] | None = None,
    ) -> tuple[list[tuple[int, Sharding]], bool]:
        """`check_fits` given the layouts of the results (`outs`); also
        says whether the layouts fitted as they were (nothing changed).
        `types`: the results' types where `outs` has a layout, when the
        caller has them."""
        layout = self.layout
        ins = [layout.get(v) for v in operands]
        have_in = [None if m is None else _WHOLE if s is None else s for s, m in zip(ins, rule.operand_maps)]
        have_out = [None if m is None else _WHOLE if s is None else s for s, m in zip(outs, rule.result_maps)]
        have_in = _init_read_whole(op.name, rule, have_in, have_out)  # (`fix_init` leaves it as it is)
        if self.fits_at(op, rule, have_in, have_out):
            self.check_pieces(op, rule, operands, results, ins, outs, types)
            return [], True
        after = self.fit_layouts(op, rule, recorded)
        self.check_pieces(op, rule, list(op.operands), results)  # some operands may be resharded
        return after, False

    def check_pieces(
        self,
        op: ir.Operation,
        rule: ShardingRule,
        operands: list[ir.Value] | None = None,
        results: list[ir.Value] | None = None,
        ins: list[Sharding | None] | None = None,
        outs: list[Sharding | None] | None = None,
        types: list[ir.Type | None] | None = None,
    ) -> None:
        """Values an op indexes by one split loop must be cut into the same
        pieces of that loop, or a device computes its result piece from
        another piece of its operands.  Even cuts always line up; uneven
        ones (offsets, sizes the mesh does not divide) may not: a different
        cut of the same size, or a reshape whose pieces do not scale to the
        result's, is refused."""
        mesh = self.mesh
        if mesh is None:
            return
        if operands is None:
            operands = list(op.operands)
        if results is None:
            results = list(op.results)
        # What the check reads: the rule, and the layout and (global) type of
        # every value some layout splits.  Real programs repeat a few of them.
        layout, global_type = self.layout, self.global_type
        if ins is None:
            ins = [layout.get(v) for v in operands]
        if outs is None:
            outs = [layout.get(r) for r in results]
        key: list = [id(rule)]  # rules live as long as the run: one id each
        for v, s, m in zip(operands, ins, rule.operand_maps):
            if m is None or s is None or not any(s.split_axes):
                key.append(None)
                continue
            t = global_type.get(v)
            key.append((s, v.type if t is None else t))
        for k, (v, s, m) in enumerate(zip(results, outs, rule.result_maps)):
            if m is None or s is None or not any(s.split_axes):
                key.append(None)
                continue
            t = None if types is None else types[k]  # (a result is not retyped yet)
            key.append((s, v.type if t is None else t))
        known = tuple(key)
        if known in self.pieces_fit:
            return
        by_loop: dict[int, list[tuple[str, int, int, Sharding, int]]] = {}
        uneven: set[int] = set()
        dynamic: dict[int, tuple[str, int]] = {}  # per loop, a side of dynamic size
        sides = (
            ("operand", operands, rule.operand_maps, True),
            ("result", results, rule.result_maps, False),
        )
        for what, values, maps, retyped in sides:
            for i, (v, m) in enumerate(zip(values, maps)):
                s = self.layout.get(v)
                if m is None or s is None or not any(s.split_axes):
                    continue
                t = self.global_type.get(v, v.type) if retyped else v.type
                if not isinstance(t, ir.RankedTensorType):
                    continue
                shape = t.shape
                for d, loop in enumerate(m):
                    if not isinstance(loop, int) or d >= len(s.split_axes) or not s.split_axes[d]:
                        continue
                    if retyped and rule.window(i, d) is not None:
                        continue  # read through a window: its halos bridge the cuts (halo.py)
                    if retyped and rule.crops and rule.crop(i, d) is not None:
                        continue  # it holds each device's run however it is cut (crop.py)
                    size = shape[d]
                    if ir.ShapedType.is_dynamic_size(size):
                        # cut at run time by the default rule: so must every other side be
                        dynamic.setdefault(loop, (what, i))
                        continue
                    by_loop.setdefault(loop, []).append((what, i, size, s, d))
                    if s.sharded_dims_offsets or size % s.shard_count(d, mesh):
                        uneven.add(loop)
        for loop, (what0, i0) in dynamic.items():
            for what, i, size, s, d in by_loop.get(loop, ()):
                if s.sharded_dims_offsets:
                    raise _Unsupported(
                        op.location,
                        f"the pieces around '{op.name}' do not line up: {what0} {i0} is of dynamic size, cut at "
                        f"run time, and {what} {i} as {_fmt_cut(s.bounds(d, size, mesh))} along loop {loop}; "
                        "reshard one of them with an annotation for users",
                    )
        for loop in uneven:  # even cuts of one loop are proportional: they always line up
            entries = by_loop[loop]
            what0, i0, size0, s0, d0 = entries[0]
            first = s0.bounds(d0, size0, mesh)
            for what, i, size, s, d in entries[1:]:
                bounds = s.bounds(d, size, mesh)
                if not _same_cut(size0, first, size, bounds):
                    raise _Unsupported(
                        op.location,
                        f"the pieces around '{op.name}' do not line up: {what0} {i0} is cut as "
                        f"{_fmt_cut(first)} and {what} {i} as {_fmt_cut(bounds)} along loop {loop}; "
                        "reshard one of them with an annotation for users",
                    )
        self.pieces_fit.add(known)

    def derive_anew(
        self, rule: ShardingRule, annotated: list[Sharding | None], shapes: tuple, stale: str
    ) -> rederive.Derived | None:
        """A loop sharding for an op whose operands' uneven cuts line up with
        no cut of the layouts it needs (a split of 12 rows expanded to 3x4,
        the 4 annotated split): the op follows its results' annotations alone
        (its operands resharded to it), else runs whole (its results
        resharded after it); None when neither lines up."""
        assert self.mesh is not None and self.mesh_name is not None
        free = [None] * len(rule.operand_maps)
        for results in (annotated, [None] * len(annotated)):
            try:
                return rederive.derive(rule, self.mesh_name, free, results, None, self.mesh.shape, stale, shapes)
            except rederive.Misaligned:
                continue
        return None

    def dilations_kept_whole(self, op: ir.Operation, rule: ShardingRule, results: list[ir.Value]) -> ShardingRule:
        """`rule`, or a copy whose loops read through a dilated input
        (`Window.base`), or summing over a window's positions (a kernel's
        gradient), are whole where the layouts around `op` split them into
        pieces that would not read their rows alike (`Window.even`): the
        input is gathered there and the result sliced, as propagation plans
        such an op, instead of a refusal."""
        assert self.mesh is not None
        shape = self.mesh.shape
        layouts = [self.layout.get(v) for v in op.operands]
        outs = [self.layout.get(r) for r in results]
        whole: set[int] = set()
        for dims in rule.windows:
            for w in dims or ():
                if w is None or (w.base == 1 and not rule.iterators[w.loop].is_reduction):
                    continue
                # every value the loop splits: the windowed operand, the
                # results, a summed window's kernel
                axes = [
                    s.axes_of(m.index(w.loop))
                    for maps, values in ((rule.operand_maps, layouts), (rule.result_maps, outs))
                    for m, s in zip(maps, values)
                    if m is not None and s is not None and w.loop in m
                ]
                if any(not w.even(math.prod(shape[a] for a in group)) for group in axes):
                    whole.add(w.loop)
        return with_whole_loops(rule, whole)

    def tiles_kept_whole(self, op: ir.Operation, rule: ShardingRule, results: list[ir.Value]) -> ShardingRule:
        """`rule`, or a copy whose loops are whole where the layouts around
        a select_and_scatter cut its windows (the source) and the cells
        they cover (the operand and the result) into pieces that do not
        line up (6 windows of 12 cells over 4 devices, each cut by default):
        those values are gathered and the result sliced, as propagation
        plans it, instead of a refusal (`check_pieces`)."""
        assert self.mesh is not None
        mesh = self.mesh
        whole: set[int] = set()
        sides = [
            (list(op.operands), rule.operand_maps, lambda v: self.global_type.get(v, v.type)),
            (results, rule.result_maps, lambda v: v.type),
        ]
        for loop in range(rule.num_loops):
            cuts = []
            for values, maps, type_of in sides:
                for v, m in zip(values, maps):
                    s = self.layout.get(v)
                    t = type_of(v)
                    if m is None or s is None or loop not in m or not isinstance(t, ir.RankedTensorType):
                        continue
                    d = m.index(loop)
                    size = t.shape[d]
                    if d < len(s.split_axes) and s.split_axes[d] and not ir.ShapedType.is_dynamic_size(size):
                        cuts.append((size, s.bounds(d, size, mesh)))
            if any(not _same_cut(*cuts[0], *cut) for cut in cuts[1:]):
                whole.add(loop)
        return with_whole_loops(rule, whole)

    def fit_layouts(
        self, op: ir.Operation, rule: ShardingRule, recorded: ir.Attribute | None = None
    ) -> list[tuple[int, Sharding]]:
        """The layouts around an op must be the ones one loop sharding of it
        implies, or running it on local pieces computes garbage.  When they
        are not (an upstream pass rebuilt the op, dropped or outdated its
        `mesh.sharding_option`, gave it a fresh init; a sweep of propagation
        reached it too early; annotations written by hand), the loop sharding
        is re-derived (`rederive.py`): operands that do not fit are resharded
        in front of the op, results it cannot produce as annotated after it."""
        replicated = _WHOLE
        operands = [
            None if m is None else self.layout.get(v, replicated) for v, m in zip(op.operands, rule.operand_maps)
        ]
        results = [None if m is None else self.layout.get(r, replicated) for r, m in zip(op.results, rule.result_maps)]
        if self.fits_at(op, rule, operands, results):
            return []
        assert self.mesh is not None and self.mesh_name is not None
        option, stale = None, ""
        if recorded is not None:
            option, stale = rederive.recorded_option(str(recorded), rule, self.mesh_name, self.mesh.shape)
        annotated = [None if m is None else self.layout.get(r) for r, m in zip(op.results, rule.result_maps)]
        known = [None if m is None else self.layout.get(v) for v, m in zip(op.operands, rule.operand_maps)]
        ins = [self.global_type.get(v, v.type) for v in op.operands]
        shapes = (
            [t.shape if isinstance(t, ir.RankedTensorType) else None for t in ins],
            [r.type.shape if isinstance(r.type, ir.RankedTensorType) else None for r in op.results],
        )
        try:
            derived = rederive.derive(rule, self.mesh_name, known, annotated, option, self.mesh.shape, stale, shapes)
        except rederive.Misaligned as e:  # no cut of partition's own reshard lines up
            derived = self.derive_anew(rule, annotated, shapes, stale)
            if derived is None:
                raise _Unsupported(op.location, f"the pieces around '{op.name}' do not line up: {e}") from None
        except ValueError as e:  # an annotation that does not fit its tensor
            raise _Unsupported(
                op.location, f"the layouts around '{op.name}' do not fit its sharding rule: {e}"
            ) from None
        if derived.stale:
            self.pass_.remark(
                op.location,
                f"the {OPTION_ATTR} of '{op.name}' is stale ({derived.stale}): its loop sharding is re-derived "
                f"from the annotations around it as {rederive.option_text(derived.option)}",
            )
        moved = []
        crops = {c.operand for c in rule.crops}
        kept = _init_as_terms(op.name, rule, operands, list(derived.results))  # (`fix_init` leaves it as it is)
        for i, (have, need) in enumerate(zip(operands, derived.operands)):
            if have is None or need is None or same_placement(have, need) or i == kept:
                continue
            if i in crops and same_layout(have, need):
                continue  # its runs' rows come in `crop.fit`
            free = _is_rebuildable(op.operands[i], self.owner)  # a fresh init: made again in the layout, nothing moves
            self.reshard_operand(op, i, need, ir.InsertionPoint(op), op.location)
            if not free:
                moved.append(f"operand {i} from {have} to {need}")
        if moved:
            self.pass_.remark(
                op.location,
                f"the operands of '{op.name}' do not fit the layouts of its results: {', '.join(moved)} resharded",
            )
        after: list[tuple[int, Sharding]] = []
        for i, (r, have, need) in enumerate(zip(op.results, annotated, derived.results)):
            if need is None:
                continue
            target = have
            if target is None:
                # Unannotated: whole, unless the recorded option says how it
                # is produced (its annotation was lost, not its layout).
                target = need if derived.source == "option" else replicated
            if same_placement(target, need):
                if have is None and not need.is_replicated:
                    self.layout[r] = need
                continue  # an annotated layout is kept as written (uneven offsets)
            after.append((i, target))
            if need.is_replicated:
                self.layout.pop(r, None)
            else:
                self.layout[r] = need
        if after:
            why = f"its {OPTION_ATTR}" if derived.source == "option" else "re-derived from the annotations around it"
            wanted = ", ".join(f"{_value_name(op.results[i])} as {have}" for i, have in after)
            self.pass_.remark(
                op.location,
                f"'{op.name}' runs with its loops split as {rederive.option_text(derived.option)} ({why}), "
                f"which cannot produce {wanted}: resharded after it",
            )
        return after

    def reshard_results(self, op: ir.Operation, after: list[tuple[int, Sharding]]) -> None:
        """Results produced in another layout than their users read: each is
        resharded right after the op, and every user reads the reshard.
        In a per-element region only a reshard that moves nothing may go."""
        ip = ir.InsertionPoint.after(op)
        for i, target in after:
            r = op.results[i]
            uses = [(u.owner, u.operand_number) for u in r.uses]
            source = self.layout.get(r, _WHOLE)
            global_type = self.global_type.get(r, r.type)
            _, trapped = self.reshard_anchor(op, r)  # r is defined here: the anchor is op itself
            new = self.reshard(r, global_type, source, target, ip, op.location, trapped)
            for owner, k in uses:
                owner.operands[k] = new
            if target.is_replicated:
                self.layout.pop(new, None)
            else:
                self.layout[new] = target
            self.global_type[new] = global_type

    def fits_at(
        self, op: ir.Operation, rule: ShardingRule, operands: list[Sharding | None], results: list[Sharding | None]
    ) -> bool:
        """`fits`, an annotation that does not fit its tensor reported at `op`."""
        try:
            return self.fits(rule, operands, results)
        except ValueError as e:  # an annotation splitting more dimensions than its tensor has
            raise _Unsupported(
                op.location, f"the layouts around '{op.name}' do not fit its sharding rule: {e}"
            ) from None

    def fits(self, rule: ShardingRule, operands: list[Sharding | None], results: list[Sharding | None]) -> bool:
        """Whether one loop sharding gives exactly these layouts."""
        key = (id(rule), tuple(operands), tuple(results))  # rules come from one RuleCache: one object each
        found = self.fitting.get(key)
        if found is None:
            found = self.fitting[key] = _fits(rule, operands, results, self.mesh_shape())
        return found

    def mesh_shape(self) -> tuple[int, ...] | None:
        """The mesh's shape for halo sizes (None: no mesh yet)."""
        return None if self.mesh is None else self.mesh.shape

    def check_per_device_annotations(self, ops: list[ir.Operation]) -> None:
        """An annotation that says a value differing between devices is
        produced in pieces (or as partial terms) would have partition take
        each device's value for its piece: refused at the annotation."""
        for k, ((_, s), for_users) in self.annotations.items():
            if for_users or s.is_replicated:
                continue
            found = self.per_device.get(ops[k].operands[0])
            if found is None:
                continue
            raise _Unsupported(
                ops[k].location,
                "a value that differs between devices cannot be annotated as produced in pieces, as partition would "
                f"take each device's value for its piece: it is computed per device from {_op_at(found[1])}, and is "
                f"annotated {s}",
            )

    def check_signature(self) -> None:
        """A function whose signature already gives an argument or result
        in pieces or partial (partition's own output, or one written per
        device) holds one device's data there, where partition would take
        each type for the whole tensor's: refused."""
        attributes = self.func.attributes
        for key, what in (("arg_attrs", "argument"), ("res_attrs", "result")):
            if key not in attributes:
                continue
            for k, entries in enumerate(ir.ArrayAttr(attributes[key])):
                entries = ir.DictAttr(entries)
                if "mesh.sharding" not in entries:
                    continue
                raw = str(entries["mesh.sharding"])
                try:
                    mesh, split, partial_axes, kind, halos, offsets = decode_sharding_attr(raw)
                except Unprintable:
                    said = raw  # not a layout partition can read
                else:
                    if not (any(split) or partial_axes or halos or offsets):
                        continue  # whole on every device: its type is the tensor's
                    layout = Sharding(tuple(map(tuple, split)), tuple(partial_axes), kind, tuple(halos), tuple(offsets))
                    said = f"{layout} on {mesh}"
                raise _Unsupported(
                    self.func.location,
                    "a function with a per-device signature cannot be partitioned, as its types are one "
                    f"device's pieces: {what} {k} is {said}",
                )

    def check_callee(self, op: ir.Operation) -> None:
        callee = op.attributes["callee"].value if "callee" in op.attributes else None
        if callee in self.annotated:
            raise _Unsupported(
                op.location,
                f"calls into a function that is partitioned too are not supported yet: @{callee} is annotated, "
                "so its signature becomes per-device",
            )

    def call(self, op: ir.Operation) -> None:
        """A callee is its own function, with whole values: sharded arguments
        are gathered before the call, and its results are whole.  A callee
        this run partitions takes pieces instead, which calls do not yet
        pass: refused rather than emitted with mismatched types."""
        self.check_callee(op)
        for i in range(len(op.operands)):
            self.reshard_operand(op, i, None, ir.InsertionPoint(op), op.location)
        for r in op.results:
            self.layout.pop(r, None)  # whole: an annotation on it reshards

    def shard(self, op: ir.Operation, annotation: tuple[tuple[str, Sharding], bool]) -> None:
        """An annotation becomes the collectives from its value's layout to
        the one it names: for users, or a second result annotation that
        disagrees with the first (as `cse` makes by merging two annotated
        values), or a result annotation on a value produced whole.
        `annotation` is what `run` read of it: (mesh and layout, for users)."""
        result = op.result
        if next(iter(result.uses), None) is None:  # (cheaper than `_has_uses` when used, as it mostly is)
            self.forget(result)
            op.erase()  # nobody reads this layout: nothing to move
            return
        result.replace_all_uses_with(self.in_layout(op.operands[0], annotation[0][1], op, None, None))
        self.layout.pop(result, None)  # a mesh.shard result is in no other table (`forget`)
        op.erase()

    def erase_slices(self, value: ir.Value, origin: ir.Value) -> None:
        """The slices from `origin` to `value` that nothing reads any more
        (users went back to `origin`), last first; index arithmetic for
        uneven pieces stays, unused, for `canonicalize`."""
        while value != origin:
            owner = value.owner
            if isinstance(owner, ir.Block) or owner.name not in _SLICES or _has_uses(value):
                return
            source = owner.operands[0]
            self.forget(value)
            owner.erase()
            value = source

    def forget(self, value: ir.Value) -> None:
        """Drop what is known of a value about to be erased: MLIR may give its
        address to a value created later."""
        self.layout.pop(value, None)
        self.global_type.pop(value, None)
        self.defs.pop(value, None)
        self.per_device.pop(value, None)
        self.entered.pop(value, None)
        if self.undo:
            self.undo.pop(value, None)
            for made in self.undone_from.pop(value, ()):
                self.undo.pop(made, None)

    def owner(self, value: ir.Value) -> ir.Operation | ir.OpView | ir.Block:
        """`value.owner`, from `defs` when a visited op defines it."""
        found = self.defs.get(value)
        return value.owner if found is None else found

    def reshard(
        self,
        value: ir.Value,
        global_type: ir.Type,
        source: Sharding,
        target: Sharding,
        ip,
        loc: ir.Location,
        trapped: str | None = None,
    ) -> ir.Value:
        """`value` from `source` to `target` at `ip`; `trapped` names the
        per-element op the reshard sits in (`reshard_anchor`), where only a
        plan that moves nothing may go."""
        if self.divergent and ip is not None and ip.block in self.divergent:
            raise _Unsupported(
                loc,
                "a reshard inside a region only some devices run would wait for devices that never come: which "
                f"devices run it depends on {_op_at(self.divergent[ip.block])}, and a value there is wanted as "
                f"{target}",
            )
        if self.per_device and value in self.per_device:
            raise _Unsupported(
                loc,
                "a value that differs between devices cannot be resharded, as partition would cut or gather it as "
                f"one tensor: it is computed per device from {_op_at(self.per_device[value][1])}, and is wanted as "
                f"{target}",
            )
        rs = _planner()
        assert self.mesh is not None and self.mesh_name is not None
        types = self.reshard_types.get((global_type, source, target))
        if types is None:
            t = ir.RankedTensorType(global_type)
            self.local_type(t, source, loc)  # the layouts fit the type
            # whether an empty's dynamic sizes are the whole tensor's (`_rebuilt_in`)
            sizes_whole = not any(source.axes_of(d) for d in range(t.rank) if t.is_dynamic_dim(d))
            types = (t, self.local_type(t, target, loc), sizes_whole)
            self.reshard_types[(global_type, source, target)] = types
        t, local, sizes_whole = types
        made: list[_Ix] = []  # one _Ix, made when first needed

        def index() -> _Ix:
            if not made:
                made.append(_Ix(self, ip, loc))
            return made[0]

        if not target.partial_axes:
            rebuilt = _rebuilt_in(
                value,
                local,
                ip,
                loc,
                lambda given: self.piece_sizes(t, target, index(), given),
                self.owner,
                self.empty_facts,
                self.rebuilt,
                sizes_whole,
            )
            if rebuilt is not None:
                return rebuilt
            if source.is_replicated and target.halo_sizes:
                return halo.slice_whole(value, t, target, self.mesh, self.mesh_name, ip, loc, self.dynamic_axes)
        key = (t, source, target)
        plan = self.plans.get(key)
        if plan is None:
            dynamic = [d for d in range(t.rank) if t.is_dynamic_dim(d)]
            shape = tuple(_STAND_IN_DIM if d in dynamic else n for d, n in enumerate(t.shape))
            if self.allowance is None:
                self.allowance = rs.SearchAllowance()
            try:
                plan = rs.plan_resharding(
                    shape,
                    self.mesh.shape,
                    source,
                    target,
                    element_bytes=element_bytes(t),
                    dynamic_dims=dynamic,
                    dynamic_axes=self.dynamic_axes,
                    allowance=self.allowance,
                )
            except ValueError as e:
                raise _Unsupported(loc, f"cannot reshard from {source} to {target}: {e}") from None
            self.plans[key] = plan
        if trapped is not None and plan.bytes_received:
            raise _Unsupported(
                loc,
                f"a value defined in the region of '{trapped}', which may run once per element, would be "
                f"resharded there from {source} to {target} by collectives; annotate it outside that region",
            )
        self.warn_whole_argument(value, t, source, target, plan.bytes_received, loc)
        current = value
        steps = self.plan_steps.get(key)
        if steps is None:
            steps, before = [], plan.source
            for step, after in zip(plan.steps, plan.intermediate):
                steps.append((step, before, after, self.local_type(t, after, loc), self.plain(step, t, before, after)))
                before = after
            self.plan_steps[key] = steps
        with loc:
            for step, before, after, out, plain in steps:
                if isinstance(step, _planner().Exchange):
                    current = self.exchange(current, out, t, before, after, ip, loc)
                elif isinstance(step, _planner().Recut):
                    current = self.recut(step, current, out, t, before, ip, loc)
                elif plain:
                    current = self.emit(step, current, out, ip, loc)
                else:
                    current = self.emit_uneven(step, current, out, t, before, after, index())
            if current == value:
                # The layouts differ only in name (size-1 axes, an idempotent
                # partial): the data is the same, but the value under its
                # other name needs its own SSA value to carry that layout.
                current = tensor.CastOp(current.type, current, ip=ip).result
        return current

    def warn_whole_argument(
        self, value: ir.Value, t: ir.RankedTensorType, source: Sharding, target: Sharding, moved: int, loc
    ) -> None:
        """A function argument that arrives split but is gathered whole is
        usually a weight every device then holds: say so at the annotation
        (or op) that asks for it, with what it costs."""
        if not isinstance(value, ir.BlockArgument) or moved == 0:
            return
        if not any(source.split_axes) or any(target.split_axes):
            return
        if value.owner != self.func.regions[0].blocks[0]:
            return
        estimate = ""
        if not t.has_static_shape or self.dynamic_axes:
            estimate = f" (dynamic sizes taken as {_STAND_IN_DIM}, mesh axes as {_STAND_IN_AXIS})"
        self.pass_.warning(
            loc,
            f"function argument {value.arg_number} ({t}, {source}) is gathered whole on every device here: "
            f"{moved} bytes received per device{estimate}",
        )

    def emit(self, step, value: ir.Value, out: ir.Type, ip, loc: ir.Location) -> ir.Value:
        made = self.collectives.get(step)
        if made is not None:
            # the op the builder below made for this step, without its cost
            # (kept only for groups of several devices: the checks below pass)
            name, attributes = made
            return ir.Operation.create(
                name, results=[out], operands=[value], attributes=attributes, loc=loc, ip=ip
            ).result
        rs = _planner()
        m = self.mesh_name
        if isinstance(step, rs.UpdateHalo):
            return halo.emit_update_halo(step, value, out, m, ip, loc)
        axes = list(step.axes)
        assert self.mesh is not None
        one = math.prod(self.mesh.shape[a] for a in axes) == 1
        if one and value.type == out:
            return value  # a group of one device: nothing to do
        built = None
        if isinstance(step, rs.AllReduce):
            built = mesh_ops.AllReduceOp(out, value, m, mesh_axes=axes, reduction=step.kind, loc=loc, ip=ip)
        elif isinstance(step, rs.ReduceScatter):
            built = mesh_ops.ReduceScatterOp(
                out, value, m, step.dim, mesh_axes=axes, reduction=step.kind, loc=loc, ip=ip
            )
        elif isinstance(step, rs.AllGather):
            built = mesh_ops.AllGatherOp(out, value, m, step.dim, mesh_axes=axes, loc=loc, ip=ip)
        elif isinstance(step, rs.AllSlice):
            built = mesh_ops.AllSliceOp(out, value, m, step.dim, mesh_axes=axes, loc=loc, ip=ip)
        elif isinstance(step, rs.AllToAll):
            built = mesh_ops.AllToAllOp(out, value, m, step.split_dim, step.concat_dim, mesh_axes=axes, loc=loc, ip=ip)
        if built is not None:
            op = built.operation
            if not one:
                self.collectives[step] = (op.name, dict(op.attributes.items()))
            return op.result
        if isinstance(step, rs.Permute):
            return self.permute(step, value, ip, loc)
        if isinstance(step, rs.Partialize):
            element = ir.RankedTensorType(value.type).element_type
            if step.kind in IDEMPOTENT_KINDS or (step.kind == "average" and isinstance(element, ir.FloatType)):
                # Every device may hold the value itself: the average of n
                # float copies is the value.
                return value
            if step.kind == "average":
                # Integer terms are summed in their own type: n copies of a
                # large value wrap, and no other terms can average to it.
                raise _Unsupported(
                    loc,
                    f"an average partial of {element} cannot be made from a whole value: its terms are summed "
                    f"in {element}, where n copies of a large value overflow",
                )
            if step.kind == "sum" and _is_zero(value, self.owner):
                return value  # zeros on every device sum to zeros (a loop's accumulator starting at 0)
            neutral = _neutral(step.kind, element)
            if neutral is None:
                raise _Unsupported(loc, f"a {step.kind} partial value of {element} cannot be made from a whole one")
            return self.first_only(value, list(step.axes), neutral, ip, loc)
        raise _Unsupported(loc, f"the planner returned a step mesh-partition cannot emit: {step}")

    def plain(self, step, t: ir.RankedTensorType, before: Sharding, after: Sharding) -> bool:
        """Whether `step` is the dialect's collective as it is: the pieces it
        cuts or joins have one static size on every device."""
        rs = _planner()
        if isinstance(step, rs.AllReduce | rs.UpdateHalo | rs.Exchange):
            return True  # (an exchange runs on pieces of one size only)
        if isinstance(step, rs.Partialize | rs.Permute):
            return all(self.uniform(t, before, d) for d in range(t.rank))
        if isinstance(step, rs.AllToAll):
            dims = (step.split_dim, step.concat_dim)
        else:
            dims = (step.dim,)
        return all(self.uniform(t, s, d) for s in (before, after) for d in dims)

    def piece_sizes(
        self, t: ir.RankedTensorType, s: Sharding, ix: _Ix, given: list[ir.Value]
    ) -> list[int | ir.Value] | None:
        """This device's sizes of a tensor of type `t` laid out by `s`, the
        whole tensor's dynamic sizes being `given` (None when they are not)."""
        dynamic = [d for d in range(t.rank) if t.is_dynamic_dim(d)]
        if len(given) != len(dynamic):
            return None
        whole = dict(zip(dynamic, given))
        out: list[int | ir.Value] = []
        for d in range(t.rank):
            n = whole.get(d, t.shape[d])
            out.append(ix.size(s, d, n, ix.group_index(s.axes_of(d))) if s.axes_of(d) else n)
        return out

    def emit_uneven(
        self, step, value: ir.Value, out: ir.Type, t: ir.RankedTensorType, before: Sharding, after: Sharding, ix: _Ix
    ) -> ir.Value:
        """A step on pieces of different sizes, as the planner costs it:
        every piece padded to the largest (an insert_slice into a
        tensor.empty), the dialect's collective on the padded type, then the
        valid parts (one extract_slice per piece, joined by tensor.concat).
        Cuts are extract_slices at offsets chosen per device."""
        rs = _planner()
        assert self.mesh_name is not None
        m = self.mesh_name
        axes = list(step.axes)
        rank = ir.RankedTensorType(value.type).rank

        def zeros() -> list:
            return [0] * rank

        def replaced(values: list, *pairs) -> list:
            new = list(values)
            for k in range(0, len(pairs), 2):
                new[pairs[k]] = pairs[k + 1]
            return new

        if isinstance(step, rs.Partialize):
            return self.emit(step, value, out, ix.ip, ix.loc)
        if isinstance(step, rs.Permute):
            if all(i == j for i, j in enumerate(step.perm)):
                return ix.cast(value, out)  # only names change (size-1 axes)
            fresh = self.piece_sizes_of(t, after, value, before, ix)
            buffer = ix.empty(fresh, t.element_type)
            return ix.cast(self.permute(step, value, ix.ip, ix.loc, buffer), out)
        sizes = ix.sizes_of(value)
        if isinstance(step, rs.AllSlice):
            d = step.dim
            n = ix.total(value, t, before, d)
            old_start = ix.start(before, d, n, ix.group_index(before.axes_of(d)))
            start, size = ix.piece(after, d, n, ix.group_index(after.axes_of(d)))
            piece = ix.slice(value, replaced(zeros(), d, ix.sub(start, old_start)), replaced(sizes, d, size))
            return ix.cast(piece, out)
        g = ix.count(axes)
        if isinstance(step, rs.AllGather):
            d = step.dim
            n = ix.total(value, t, before, d)
            widest = ix.widest(before, d, n)
            padded = ix.insert(value, ix.empty(replaced(sizes, d, widest), t.element_type), zeros(), sizes)
            gathered_type = ix.tensor_type(replaced(sizes, d, _times(g, widest)), t.element_type)
            gathered = mesh_ops.AllGatherOp(gathered_type, padded, m, d, mesh_axes=axes, loc=ix.loc, ip=ix.ip).result
            base = ix.mul(ix.group_index(after.axes_of(d)), g)

            def member(jx: _Ix, j, where: bool) -> tuple[ir.Value, int | ir.Value | None]:
                index = jx.add(base, j)
                size = jx.size(before, d, n, index)
                piece = jx.slice(gathered, replaced(zeros(), d, jx.mul(j, widest)), replaced(sizes, d, size))
                return piece, jx.start(before, d, n, index) if where else None

            return ix.cast(ix.joined(g, member, d, sizes, after, n, t.element_type), out)
        # all_to_all and reduce_scatter: the part of the piece that member j
        # of the group gets goes at j times the largest new piece
        d = step.split_dim if isinstance(step, rs.AllToAll) else step.dim
        n = ix.total(value, t, before, d)
        widest = ix.widest(after, d, n)
        old_start = ix.start(before, d, n, ix.group_index(before.axes_of(d)))
        buffer_sizes = replaced(sizes, d, ix.mul(g, widest))
        if isinstance(step, rs.AllToAll):
            c = step.concat_dim
            nc = ix.total(value, t, before, c)
            widest_c = ix.widest(before, c, nc)
            buffer_sizes[c] = widest_c
        base = ix.mul(ix.group_index(before.axes_of(d)), g)

        def chunk(jx: _Ix, j, buffer: ir.Value) -> ir.Value:
            start, size = jx.piece(after, d, n, jx.add(base, j))
            chunk_sizes = replaced(sizes, d, size)
            part = jx.slice(value, replaced(zeros(), d, jx.sub(start, old_start)), chunk_sizes)
            return jx.insert(part, buffer, replaced(zeros(), d, jx.mul(j, widest)), chunk_sizes)

        buffer = ix.loop(g, ix.empty(buffer_sizes, t.element_type), chunk)
        mine = ix.size(after, d, n, ix.group_index(after.axes_of(d)))
        if isinstance(step, rs.ReduceScatter):
            reduced_type = ix.tensor_type(replaced(sizes, d, widest), t.element_type)
            reduced = mesh_ops.ReduceScatterOp(
                reduced_type, buffer, m, d, mesh_axes=axes, reduction=step.kind, loc=ix.loc, ip=ix.ip
            ).result
            return ix.cast(ix.slice(reduced, zeros(), replaced(sizes, d, mine)), out)
        moved_type = ix.tensor_type(replaced(buffer_sizes, d, widest, c, _times(g, widest_c)), t.element_type)
        moved = mesh_ops.AllToAllOp(moved_type, buffer, m, d, c, mesh_axes=axes, loc=ix.loc, ip=ix.ip).result
        base_c = ix.mul(ix.group_index(after.axes_of(c)), g)

        def sender(jx: _Ix, i, where: bool) -> tuple[ir.Value, int | ir.Value | None]:
            index = jx.add(base_c, i)
            size_c = jx.size(before, c, nc, index)
            offsets = replaced(zeros(), c, jx.mul(i, widest_c))
            piece = jx.slice(moved, offsets, replaced(sizes, d, mine, c, size_c))
            return piece, jx.start(before, c, nc, index) if where else None

        return ix.cast(ix.joined(g, sender, c, replaced(sizes, d, mine), after, nc, t.element_type), out)

    def piece_sizes_of(self, t: ir.RankedTensorType, s: Sharding, value: ir.Value, layout: Sharding, ix: _Ix) -> list:
        """This device's sizes under `s` of the tensor whose piece under
        `layout` is `value`."""
        out: list = []
        for d in range(t.rank):
            if not s.axes_of(d):
                out.append(ix.dim(value, d))
            else:
                n = ix.total(value, t, layout, d)
                out.append(ix.size(s, d, n, ix.group_index(s.axes_of(d))))
        return out

    def exchange(
        self, value: ir.Value, out: ir.Type, t: ir.RankedTensorType, before: Sharding, after: Sharding, ip, loc
    ) -> ir.Value:
        """An Exchange step: `ir.exchange.exchanged` by the planner's schedule."""
        assert self.mesh is not None and self.mesh_name is not None
        found = schedule(tuple(t.shape), self.mesh, before.split_axes, after.split_axes)
        if found is None:  # pragma: no cover - the planner only plans an exchange it can schedule
            raise _Unsupported(loc, f"no exchange schedule from {before} to {after}")
        with ip, loc:
            return exchanged(value, self.mesh_name, found, ir.RankedTensorType(out))

    def recut(self, step, value: ir.Value, out: ir.Type, t: ir.RankedTensorType, before: Sharding, ip, loc) -> ir.Value:
        """A Recut step: `ir.exchange.recut` by the planner's rounds."""
        assert self.mesh is not None and self.mesh_name is not None
        plan = recut_plan(before.cut(step.dim, t.shape[step.dim], self.mesh), step.cut)
        if plan is None:  # pragma: no cover - the planner only plans a recut it can make
            raise _Unsupported(loc, f"no recut from {before} to {step}")
        sizes = [self.mesh.shape[a] for a in step.axes]
        with ip, loc:
            return recut(value, self.mesh_name, step.axes, sizes, step.dim, plan, out)

    def permute(self, step, value: ir.Value, ip, loc: ir.Location, buffer: ir.Value | None = None) -> ir.Value:
        """A Permute step: `ir.exchange.permuted` over the step's axes."""
        assert self.mesh is not None and self.mesh_name is not None
        sizes = [self.mesh.shape[a] for a in step.axes]
        with ip, loc:
            return permuted(value, self.mesh_name, sizes, step.axes, step.perm, buffer)

    def constant(self, op: ir.Operation) -> None:
        r = op.results[0]
        s = self.layout.get(r)
        if s is None or s.is_replicated or not isinstance(r.type, ir.RankedTensorType):
            return
        attr_name = "value" if "value" in op.attributes else "values"
        attr = readable_attr(op, attr_name)  # (None for complex elements: sliced as a non-splat)
        local = self.local_type(r.type, s, op.location)
        if (
            isinstance(attr, ir.DenseElementsAttr)
            and attr.is_splat
            and not s.partial_axes
            and ir.RankedTensorType(local).has_static_shape
        ):
            op.attributes[attr_name] = ir.DenseElementsAttr.get_splat(local, attr.get_splat_value())
            self.global_type[r] = r.type
            r.set_type(local)
            return
        # A non-splat constant is built whole on every device and sliced (a
        # splat whose pieces differ in size is made again per device).
        uses = [(u.owner, u.operand_number) for u in r.uses]
        new = self.reshard(r, r.type, _WHOLE, s, ir.InsertionPoint.after(op), op.location)
        for owner, i in uses:
            owner.operands[i] = new
        self.layout[new] = s
        self.layout.pop(r, None)
        self.global_type[new] = r.type

    def first_only(self, value: ir.Value, axes: list[int], neutral, ip, loc: ir.Location) -> ir.Value:
        """`value` on the first device of each group along `axes`, the
        neutral value `neutral` on the others: the terms of a partial value
        whose total is `value`."""
        t = ir.RankedTensorType(value.type)
        with ip, loc:
            index = mesh_ops.ProcessMultiIndexOp(self.mesh_name, axes=axes).operation.results
            zero = arith.ConstantOp(ir.IndexType.get(), 0).result
            first = None
            for v in index:
                eq = arith.CmpIOp(arith.CmpIPredicate.eq, v, zero).result
                first = eq if first is None else arith.AndIOp(first, eq).result
            sizes = halo.sizes_of(value, t)
            element = t.element_type
            # arith.constant makes scalars of signless integers only: a signed
            # or unsigned element type takes a whole tensor constant
            scalar_ok = not isinstance(element, ir.IntegerType) or ir.IntegerType(element).is_signless
            if not scalar_ok and not t.has_static_shape:
                raise _Unsupported(
                    loc,
                    f"a partial value of {t} needs a neutral tensor of a size known only at run time, and "
                    f"arith.constant makes no scalar of {element} to fill it with",
                )
            choice = scf.IfOp(first, [t], has_else=True)
            with ir.InsertionPoint(choice.then_block):
                scf.YieldOp([value])
            with ir.InsertionPoint(choice.else_block):
                if scalar_ok:
                    scalar = arith.ConstantOp(element, neutral).result
                    empty = tensor.EmptyOp(sizes, element).result
                    scf.YieldOp([linalg_ops.fill(scalar, empty)])
                else:
                    splat = ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(element, neutral))
                    scf.YieldOp([arith.ConstantOp(t, splat).result])
        return choice.results[0]

    def terms_of_total(self, op: ir.Operation, i: int, init: ir.Value, out: Sharding) -> bool:
        """When `init` is an all_reduce partition made of terms reduced the
        way the op's result is partial (kind and axes), the op reads those
        terms instead: their total is the init's, so the all_reduce and the
        init kept on one device are not needed (a gradient accumulated
        through a matmul's init reduces once, at the end)."""
        found = self.totals.get(init)
        if found is None:
            return False
        terms, source, key = found
        if source.partial_type != out.partial_type or set(source.partial_axes) != set(out.partial_axes):
            return False
        op.operands[i] = terms
        if not _has_uses(init):
            owner = init.owner.operation
            del self.totals[init]
            self.reshards.pop(key, None)
            self.forget(init)
            owner.erase()
        return True

    def fix_init(
        self,
        op: ir.Operation,
        rule: ShardingRule,
        name: str | None = None,
        results: list[ir.Value] | None = None,
        outs: list[Sharding | None] | None = None,
        operands: list[ir.Value] | None = None,
    ) -> None:
        """Keep a split reduction's init on the group's first device only,
        and take from its combiner the flags only the whole reduction keeps
        (`_drop_split_combiner_flags`).  `name`, `results` and their layouts
        `outs`, and `operands`: the op's, when the caller has them."""
        if name is None:
            name = op.name
        if not name.startswith("linalg."):
            return
        if results is None:
            results = list(op.results)
        if not results:
            return
        out = self.layout.get(results[0]) if outs is None else outs[0]
        if out is None or not out.partial_axes:
            return
        if name in OWN_BODY:  # a named op's body is made from its name: it has no flags
            _drop_split_combiner_flags(op)
        if out.partial_type in IDEMPOTENT_KINDS:
            return  # the init may be folded in on every device
        n_inits = len(results)
        if operands is None:
            operands = list(op.operands)
        layouts = [self.layout.get(v) for v in operands]
        as_terms = _init_as_terms(name, rule, layouts, [out] * n_inits)
        for k in range(n_inits):
            i = len(operands) - n_inits + k
            init = operands[i]
            neutral = _neutral(out.partial_type, ir.RankedTensorType(init.type).element_type)
            if neutral is None:
                raise _Unsupported(op.location, f"a split {out.partial_type} reduction has no neutral value")
            if i == as_terms or _is_fill_of(init, neutral, self.owner):
                continue  # (an init in the result's layout holds its terms)
            if self.terms_of_total(op, i, init, out):
                continue
            kept = self.first_only(init, list(out.partial_axes), neutral, ir.InsertionPoint(op), op.location)
            op.operands[i] = kept
            self.layout[kept] = self.layout.get(init, _WHOLE)
            self.global_type[kept] = self.global_type.get(init, init.type)


class _Pieces(NamedTuple):
    """The pieces of one split dimension of static size on a static mesh."""

    starts: tuple[int, ...]
    sizes: tuple[int, ...]
    start: int | None  # the start every piece has (all empty at one place), else None
    size: int | None  # the size every piece has, else None
    widest: int


def _one(values: tuple[int, ...]) -> int | None:
    """The value all of `values` are, else None."""
    first = values[0] if values else None
    return first if values and values.count(first) == len(values) else None


def _is_dim(e: ir.AffineExpr, loop: int) -> bool:
    """Whether an indexing map's result is loop `loop` itself."""
    return isinstance(e, ir.AffineDimExpr) and e.position == loop


class _Ix:
    """Index values of one reshard, created at its insertion point: per-device
    offsets and sizes of pieces, folded to Python ints where they are static.
    Static piece tables become `arith.constant dense<...> : tensor<kxindex>`
    read at the device's piece number; sizes only known at run time (a
    dynamic tensor size or mesh axis) follow the default cut in arithmetic."""

    def __init__(self, part: _Partition, ip, loc: ir.Location) -> None:
        self.part = part
        self.ip = ip
        self.loc = loc
        self.index = ir.IndexType.get()
        self.coords: dict[int, ir.Value] = {}
        self.axis_sizes: dict[int, ir.Value] = {}
        self.totals: dict[tuple[ir.Value, int], int | ir.Value] = {}
        self.consts: dict[int, ir.Value] = {}
        self.memo: dict[tuple, ir.Value] = {}  # one op per computation
        # In a loop's body (`loop`): where constants go instead, in front of
        # the outermost loop, and the _Ix of that loop's block, which learns
        # them too (a 65536-entry table is made once, not per iteration).
        self.hoist: ir.InsertionPoint | None = None
        self.top: _Ix = self

    # -- arithmetic --------------------------------------------------------------

    def value(self, x: int | ir.Value) -> ir.Value:
        if not isinstance(x, int):
            return x
        found = self.consts.get(x)
        if found is None:
            with self.hoist or self.ip, self.loc:
                found = self.consts[x] = self.top.consts[x] = arith.ConstantOp(self.index, x).result
        return found

    def _arith(self, op, a: int | ir.Value, b: int | ir.Value) -> ir.Value:
        key = (op, a, b)
        found = self.memo.get(key)
        if found is None:
            with self.ip, self.loc:
                found = self.memo[key] = op(self.value(a), self.value(b)).result
        return found

    def add(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if a == 0:
            return b
        return a if b == 0 else self._arith(arith.AddIOp, a, b)

    def clamp(self, x, low: int, high):
        """`x` clamped to [low, high] (signed)."""
        if isinstance(x, int) and isinstance(high, int):
            return min(max(x, low), high)
        return self._arith(arith.MaxSIOp, self._arith(arith.MinSIOp, x, high), low)

    def sub(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a - b
        return a if b == 0 else self._arith(arith.SubIOp, a, b)

    def mul(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if a == 0 or b == 0:
            return 0
        if a == 1:
            return b
        return a if b == 1 else self._arith(arith.MulIOp, a, b)

    def div(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a // b
        return a if b == 1 else self._arith(arith.DivUIOp, a, b)

    def rem(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a % b
        return 0 if b == 1 else self._arith(arith.RemUIOp, a, b)

    def at_least(self, a, b, then, otherwise):
        """`then` if a >= b else `otherwise` (signed)."""
        if isinstance(a, int) and isinstance(b, int):
            return then if a >= b else otherwise
        key = ("at_least", a, b, then, otherwise)
        found = self.memo.get(key)
        if found is None:
            cond = self.memo.get(("sge", a, b))
            with self.ip, self.loc:
                if cond is None:
                    cond = self.memo["sge", a, b] = arith.CmpIOp(
                        arith.CmpIPredicate.sge, self.value(a), self.value(b)
                    ).result
                found = self.memo[key] = arith.SelectOp(cond, self.value(then), self.value(otherwise)).result
        return found

    def table(self, values: tuple[int, ...], same: int | None, index: int | ir.Value) -> int | ir.Value:
        """`values[index]`: `same` when all of them are that value, a
        constant when `index` is known, else a read of a constant table."""
        if same is not None:
            return same
        if isinstance(index, int):
            return values[index]
        key = ("table", values)
        with self.ip, self.loc:
            constant = self.memo.get(key)
            if constant is None:
                kind = ir.RankedTensorType.get([len(values)], self.index)
                attr = ir.DenseElementsAttr.get(np.array(values, dtype=np.int64), type=kind)
                with self.hoist or self.ip:
                    constant = arith.ConstantOp(kind, attr).result
                self.memo[key] = self.top.memo[key] = constant
            read = ("read", constant, index)
            if read not in self.memo:
                self.memo[read] = tensor.ExtractOp(constant, [index]).result
            return self.memo[read]

    # -- the mesh ------------------------------------------------------------------

    def axis_size(self, a: int) -> int | ir.Value:
        if a not in self.part.dynamic_axes:
            assert self.part.mesh is not None
            return self.part.mesh.shape[a]
        if a not in self.axis_sizes:
            with self.ip, self.loc:
                self.axis_sizes[a] = mesh_ops.MeshShapeOp(self.part.mesh_name, axes=[a]).operation.results[0]
        return self.axis_sizes[a]

    def coord(self, a: int) -> int | ir.Value:
        if self.axis_size(a) == 1:
            return 0
        if a not in self.coords:
            with self.ip, self.loc:
                op = mesh_ops.ProcessMultiIndexOp(self.part.mesh_name, axes=[a])
                self.coords[a] = op.operation.results[0]
        return self.coords[a]

    def count(self, axes) -> int | ir.Value:
        n: int | ir.Value = 1
        for a in axes:
            n = self.mul(n, self.axis_size(a))
        return n

    def group_index(self, axes) -> int | ir.Value:
        """This device's piece number over `axes` (first axis outermost)."""
        index: int | ir.Value = 0
        for a in axes:
            index = self.add(self.mul(index, self.axis_size(a)), self.coord(a))
        return index

    # -- pieces --------------------------------------------------------------------

    def piece(self, s: Sharding, d: int, n: int | ir.Value, index: int | ir.Value):
        """(start, size) of piece `index` of dimension `d` (`n` elements)."""
        return (self.start(s, d, n, index), self.size(s, d, n, index))

    def _cut(self, s: Sharding, d: int, n: int | ir.Value):
        """The static pieces of dimension `d` (`_Partition.pieces`), else
        (k, n // k, the first piece with one more)."""
        k = self.count(s.axes_of(d))
        if isinstance(n, int) and isinstance(k, int):
            return self.part.pieces(s, d, n), None
        # the default cut: n // k each, the last n % k one more
        return None, (k, self.div(n, k), self.sub(k, self.rem(n, k)))

    def start(self, s: Sharding, d: int, n: int | ir.Value, index: int | ir.Value) -> int | ir.Value:
        pieces, rule = self._cut(s, d, n)
        if pieces is not None:
            return self.table(pieces.starts, pieces.start, index)
        _, base, first_big = rule
        late = self.at_least(index, first_big, self.sub(index, first_big), 0)
        return self.add(self.mul(index, base), late)

    def size(self, s: Sharding, d: int, n: int | ir.Value, index: int | ir.Value) -> int | ir.Value:
        pieces, rule = self._cut(s, d, n)
        if pieces is not None:
            return self.table(pieces.sizes, pieces.size, index)
        _, base, first_big = rule
        return self.add(base, self.at_least(index, first_big, 1, 0))

    def widest(self, s: Sharding, d: int, n: int | ir.Value) -> int | ir.Value:
        """The largest piece of dimension `d`: what collectives pad it to."""
        k = self.count(s.axes_of(d))
        if isinstance(n, int) and isinstance(k, int):
            return self.part.pieces(s, d, n).widest
        return self.div(self.add(n, self.sub(k, 1)), k)

    def dim(self, value: ir.Value, d: int) -> int | ir.Value:
        t = ir.RankedTensorType(value.type)
        if not t.is_dynamic_dim(d):
            return t.shape[d]
        key = ("dim", value, d)
        if key not in self.memo:
            with self.ip, self.loc:
                self.memo[key] = tensor.DimOp(value, self.value(d)).result
        return self.memo[key]

    def sizes_of(self, value: ir.Value) -> list[int | ir.Value]:
        return [self.dim(value, d) for d in range(ir.RankedTensorType(value.type).rank)]

    def total(self, value: ir.Value, t: ir.RankedTensorType, s: Sharding, d: int) -> int | ir.Value:
        """The global size of dimension `d` of the tensor whose piece under
        `s` is `value`: summed over the group when it is split and dynamic."""
        if not t.is_dynamic_dim(d):
            return t.shape[d]
        if not s.axes_of(d):
            return self.dim(value, d)
        key = (value, d)
        if key not in self.totals:
            one = ir.RankedTensorType.get([1], self.index)
            with self.ip, self.loc:
                mine = tensor.FromElementsOp(one, [self.value(self.dim(value, d))]).result
                total = mesh_ops.AllReduceOp(
                    one, mine, self.part.mesh_name, mesh_axes=list(s.axes_of(d)), reduction="sum"
                ).result
                self.totals[key] = tensor.ExtractOp(total, [self.value(0)]).result
        return self.totals[key]

    # -- tensors -------------------------------------------------------------------

    def tensor_type(self, sizes: list, element: ir.Type) -> ir.RankedTensorType:
        """Sizes that are not Python ints (values, None) are dynamic."""
        dyn = ir.ShapedType.get_dynamic_size()
        return ir.RankedTensorType.get([n if isinstance(n, int) else dyn for n in sizes], element)

    def empty(self, sizes: list, element: ir.Type) -> ir.Value:
        with self.ip, self.loc:
            return tensor.EmptyOp(list(sizes), element).result

    def _mixed(self, values: list) -> tuple[list[ir.Value], list[int]]:
        dyn = ir.ShapedType.get_dynamic_size()
        return [v for v in values if not isinstance(v, int)], [v if isinstance(v, int) else dyn for v in values]

    def slice(self, source: ir.Value, offsets: list, sizes: list) -> ir.Value:
        t = ir.RankedTensorType(source.type)
        if all(o == 0 for o in offsets) and t.has_static_shape and list(sizes) == list(t.shape):
            return source
        element = ir.RankedTensorType(source.type).element_type
        if 0 in sizes:
            # no elements (MLIR refuses even offset 0 into a dimension of size 0)
            return self.empty(sizes, element)
        dyn_off, st_off = self._mixed(offsets)
        dyn_size, st_size = self._mixed(sizes)
        with self.ip, self.loc:
            return tensor.ExtractSliceOp(
                self.tensor_type(sizes, element), source, dyn_off, dyn_size, [], st_off, st_size, [1] * len(sizes)
            ).result

    def insert(self, source: ir.Value, dest: ir.Value, offsets: list, sizes: list) -> ir.Value:
        if 0 in sizes:
            return dest
        dyn_off, st_off = self._mixed(offsets)
        dyn_size, st_size = self._mixed(sizes)
        with self.ip, self.loc:
            return tensor.InsertSliceOp(source, dest, dyn_off, dyn_size, [], st_off, st_size, [1] * len(sizes)).result

    def concat(self, parts: list[ir.Value], d: int) -> ir.Value:
        if len(parts) == 1:
            return parts[0]
        types = [ir.RankedTensorType(p.type) for p in parts]
        shape = list(types[0].shape)
        along = [tp.shape[d] for tp in types]
        dyn = ir.ShapedType.get_dynamic_size()
        shape[d] = dyn if any(tp.is_dynamic_dim(d) for tp in types) else sum(along)
        result = ir.RankedTensorType.get(shape, types[0].element_type)
        with self.ip, self.loc:
            return tensor.ConcatOp(result, d, parts).result

    def unrolled(self, count: int | ir.Value) -> bool:
        """Whether a loop over `count` group members is written out member
        by member: a static count up to the pass's `unroll-limit`."""
        return isinstance(count, int) and count <= self.part.unroll_limit

    def loop(self, count: int | ir.Value, init: ir.Value, body) -> ir.Value:
        """`body(ix, j, acc)` for j below `count`, threading `acc`: unrolled
        (`unrolled`), else an `scf.for` (a dynamic mesh axis or a large group)."""
        if self.unrolled(count):
            acc = init
            for j in range(count):
                acc = body(self, j, acc)
            return acc
        with self.ip, self.loc:
            op = scf.ForOp(self.value(0), self.value(count), self.value(1), [init])
        inner = _Ix(self.part, ir.InsertionPoint(op.body), self.loc)
        # values made before the loop dominate its body; those made inside stay there
        inner.consts, inner.coords, inner.axis_sizes = dict(self.consts), dict(self.coords), dict(self.axis_sizes)
        inner.totals, inner.memo = dict(self.totals), dict(self.memo)
        inner.hoist = self.hoist or ir.InsertionPoint(op)
        inner.top = self.top
        result = body(inner, op.induction_variable, op.inner_iter_args[0])
        with ir.InsertionPoint(op.body), self.loc:
            scf.YieldOp([result])
        return op.results[0]

    def joined(self, count: int | ir.Value, part, d: int, sizes: list, s: Sharding, n, element: ir.Type) -> ir.Value:
        """The parts of a group of `count` devices joined along `d` into this
        device's piece under `s` (`n`: the dimension's size): one
        tensor.concat when the loop is unrolled (`unrolled`), else each part
        inserted at its offset in the piece.  `part(ix, j, where)` gives
        part j and, when `where`, its start in the whole dimension."""
        if self.unrolled(count):
            return self.concat([part(self, j, False)[0] for j in range(count)], d)
        index = self.group_index(s.axes_of(d))
        start = self.start(s, d, n, index)
        whole = [self.size(s, d, n, index) if k == d else x for k, x in enumerate(sizes)]
        init = self.empty(whole, element)

        def put(jx: _Ix, j, acc: ir.Value) -> ir.Value:
            value, at = part(jx, j, True)
            offsets = [jx.sub(at, start) if k == d else 0 for k in range(len(sizes))]
            return jx.insert(value, acc, offsets, jx.sizes_of(value))

        return self.loop(count, init, put)

    def cast(self, value: ir.Value, t: ir.Type) -> ir.Value:
        if value.type == t:
            return value
        with self.ip, self.loc:
            return tensor.CastOp(t, value).result


def _times(a: int | ir.Value, b: int | ir.Value) -> int | None:
    """A product for a type: None (dynamic) unless both are known."""
    return a * b if isinstance(a, int) and isinstance(b, int) else None


def _dense_i64(values) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _check_windowed_results(op: ir.Operation, rule: ShardingRule, outs: list[Sharding | None], mesh: Mesh) -> None:
    """Halos give each device the rows its even share of the outputs reads
    (halo.py): a result cut unevenly by offsets along a loop an operand
    reads through a window would be computed from the wrong rows."""
    windowed = {w.loop for dims in rule.windows if dims for w in dims if w is not None}
    for k, (m, s) in enumerate(zip(rule.result_maps, outs)):
        if m is None or s is None or not s.sharded_dims_offsets:
            continue
        for d, loop in enumerate(m):
            if loop not in windowed or d >= len(s.split_axes) or not s.split_axes[d]:
                continue
            cut = s.offsets(d, mesh)
            if cut is None or s.is_even_dim(d, cut[-1], mesh):
                continue  # the even cut, spelled out
            raise _Unsupported(
                op.location,
                f"result {k} of '{op.name}' is cut by sharded_dims_offsets along loop {loop}, which an operand "
                f"reads through a window; uneven pieces are not supported yet there: {s}",
            )


_LOCALIZED = frozenset(
    {"tensor.extract_slice", "tensor.insert_slice", "tensor.expand_shape", "tosa.reshape", "tensor.reshape"}
)
"""The ops whose attributes or operands spell out global sizes (`_localize`,
`_Partition.localize_dynamic`)."""


def _localize(op: ir.Operation, name: str, forget) -> None:
    """Attributes and operands that spell out the global sizes of an op whose
    types partition made local: slices' sizes, reshapes' target shapes.
    `name` is the op's; `forget(value)` is told of the value of an op it
    erases."""
    if name not in _LOCALIZED:
        return
    if name in ("tensor.extract_slice", "tensor.insert_slice"):
        # The rule splits only dimensions the slice covers whole or every
        # t-th element of, from the same offset on every piece: each static
        # size is the (now local) piece's, the slice's result or the
        # inserted source (a rank-reducing slice drops unit dimensions).
        piece = ir.RankedTensorType(op.results[0].type if name == "tensor.extract_slice" else op.operands[0].type)
        sizes = list(op.attributes["static_sizes"])
        kept = crop.kept_of(sizes, piece.rank)
        for k, d in enumerate(kept):
            if sizes[d] >= 0 and k < piece.rank and not piece.is_dynamic_dim(k):
                sizes[d] = piece.shape[k]
        op.attributes["static_sizes"] = _dense_i64(sizes)
    elif name == "tensor.expand_shape":
        op.attributes["static_output_shape"] = _dense_i64(ir.RankedTensorType(op.results[0].type).shape)
    elif name in ("tosa.reshape", "tensor.reshape"):
        shape = ir.RankedTensorType(op.results[0].type).shape
        with op.location, ir.InsertionPoint(op):
            if name == "tosa.reshape":
                attr = ir.DenseElementsAttr.get(
                    np.array(shape, dtype=np.int64), type=ir.RankedTensorType.get([len(shape)], ir.IndexType.get())
                )
                const = ir.Operation.create(
                    "tosa.const_shape", results=[op.operands[1].type], attributes={"values": attr}
                )
            else:
                # the shape as a constant of the operand's element type (index
                # or integer), whole: the operand itself may have been split
                element = ir.ShapedType(op.operands[1].type).element_type
                t = ir.RankedTensorType.get([len(shape)], element)
                attr = ir.Attribute.parse(f"dense<[{', '.join(map(str, shape))}]> : {t}")
                const = ir.Operation.create("arith.constant", results=[t], attributes={"value": attr})
        old = op.operands[1]
        op.operands[1] = const.results[0]
        owner = old.owner
        # a constant read by nothing else goes (visited already: it comes
        # before its use); any other op stays, its other results or effects
        # may matter
        if isinstance(owner, ir.Operation | ir.OpView) and owner.name in ("arith.constant", "tosa.const_shape"):
            if not len(list(old.uses)):
                forget(old)
                owner.erase()


_same_cut = rederive.same_cut
"""Whether two cuts of one loop give each device the same part of it (one
test for the check here and for the reshards `rederive` lines up)."""


def _drop_split_combiner_flags(op: ir.Operation) -> None:
    """A linalg reduction split over devices folds, on each device, only its
    piece, starting from the init or the neutral value: running values no
    prefix of the whole fold reaches.  A piece's sum may wrap where the
    whole one never does ([INT32_MIN | INT32_MAX, INT32_MAX]: the second
    piece overflows), so the combiner of each output (the body op that
    folds the output's running value, as the rule found it) loses nsw, nuw
    and ninf, as a combiner `mesh-optimize-collectives` moves onto terms
    does; the body's other ops see the values they saw before."""
    if op.name not in OWN_BODY:
        return  # a named op's body is made from its name: it has no flags
    body = op.regions[0].blocks[0]
    args = list(body.arguments)
    n_inits = len(op.results)
    n_inputs = len(args) - n_inits
    if n_inputs < 0:
        return
    for j, y in enumerate(terminator(body).operands):
        if j < n_inits and isinstance(y, ir.OpResult) and args[n_inputs + j] in list(y.owner.operands):
            drop_totals_only_flags(y.owner)


def _fmt_cut(bounds: list[tuple[int, int]]) -> str:
    return "[" + ", ".join(f"{a}:{b}" for a, b in bounds) + "]"


_TERM_INIT_KINDS = frozenset(("sum", "max", "min"))
"""Reductions whose split op may read its init as terms (`_init_as_terms`)."""


def _init_as_terms(
    name: str, rule: ShardingRule, ins: list[Sharding | None], outs: list[Sharding | None]
) -> int | None:
    """The operand of a linalg op of one result that is its init, when the
    init arrives in the result's layout, partial over the same axes: each
    device then folds its own part of the reduction into its own terms of
    the init, and the terms' total is the whole result (a loop's
    accumulator stays partial through a matmul).  The partial's kind must
    be the combiner of one of the op's reduction loops: folding terms of
    another kind would not add up.  None otherwise."""
    if len(outs) != 1 or not ins or not name.startswith("linalg."):
        return None
    out = outs[0]
    if out is None or not out.partial_axes or out.partial_type not in _TERM_INIT_KINDS:
        return None
    if not any(it.is_reduction and it.kind == out.partial_type for it in rule.iterators):
        return None
    k = len(ins) - 1
    return k if ins[k] == out else None


def _init_read_whole(
    name: str, rule: ShardingRule, ins: list[Sharding | None], outs: list[Sharding | None]
) -> list[Sharding | None]:
    """`ins` as the rule's fit sees them: an init `_init_as_terms` accepts
    counts as its result's layout without the partial (the split reduction
    folds into it where it lies)."""
    k = _init_as_terms(name, rule, ins, outs)
    if k is None:
        return ins
    out = outs[0]
    assert out is not None
    return [*ins[:k], dataclasses.replace(out, partial_axes=()), *ins[k + 1 :]]


def _fits(
    rule: ShardingRule,
    operands: list[Sharding | None],
    results: list[Sharding | None],
    mesh_shape: tuple[int, ...] | None = None,
) -> bool:
    option = option_from_shardings(rule, operands, results)
    if isinstance(option, Conflict):
        return False
    need_operands, need_results = shardings_from_option(rule, option, mesh_shape)
    # (a crop's operand holds the rows its runs need however it is split: `crop.fit`)
    crops = {c.operand for c in rule.crops}
    return all(
        have is None or (same_layout(have, need) if k in crops else same_placement(have, need))
        for k, (have, need) in enumerate(zip([*operands, *results], [*need_operands, *need_results]))
    )


def _value_owner(value: ir.Value):
    return value.owner


def _rebuilt_in(
    value: ir.Value,
    local: ir.Type,
    ip,
    loc: ir.Location,
    piece_sizes=None,
    owner_of=_value_owner,
    facts: dict | None = None,
    made: list | None = None,
    sizes_whole: bool = True,
) -> ir.Value | None:
    """`value` made again in the local type `local`, when every piece of it
    is the same thing as the whole: a splat constant, a `tensor.empty`, or a
    fill of one with a scalar (`_filled`).  Such a value (typically an init)
    then costs neither communication nor a whole copy on every device.
    `piece_sizes()` gives this device's sizes when `local` is dynamic (None
    if they cannot be known without communication); `owner_of(v)` is
    `v.owner`; `facts` memoizes `_empty_facts` per local type;
    `made` gets (value, its op, the init of a fill and the init's op) of
    what is rebuilt, for `erase_unused_inits`.  `sizes_whole` says whether
    the empty's dynamic sizes are the whole tensor's: not when `value` is a
    piece split along a dynamic dimension (partition made its empty with the
    piece's sizes), and then an empty with sizes is not rebuilt."""
    owner = owner_of(value)
    if not isinstance(owner, ir.OpView | ir.Operation):
        return None
    name = owner.name
    splat = _splat_of(owner) if name in _CONSTANTS else None
    init = None if splat is not None else _fill_init(owner, name)
    fill = init is not None
    empty = owner_of(init) if fill else owner
    if splat is None:
        if not fill and name != "tensor.empty":
            return None
        if not isinstance(empty, ir.OpView | ir.Operation) or empty.name != "tensor.empty":
            return None
    known = None if facts is None else facts.get(local)
    if known is None:
        known = _empty_facts(local)
        if facts is not None:
            facts[local] = known
    t, static, plain = known
    sizes: list = [] if plain else list(t.shape)  # read only where the empty is not plain
    sized = splat is None and len(empty.operands)  # an empty with dynamic sizes
    if sized and not sizes_whole:
        return None
    if not static or sized:
        # The whole tensor's dynamic sizes are the empty's operands.
        found = None if piece_sizes is None else piece_sizes([] if splat is not None else list(empty.operands))
        if found is None:
            return None
        sizes, static = found, False
    if made is not None:
        made.append((value, owner, init, empty if fill else None))
    if splat is not None:
        constant, attr_name, scalar = splat
        with ip, loc:
            if not t.has_static_shape:
                element = arith.ConstantOp(t.element_type, scalar).result
                return tensor.SplatOp(t, element, [v for v in sizes if not isinstance(v, int)]).result
            attr = ir.DenseElementsAttr.get_splat(local, scalar)
            return ir.Operation.create(constant, results=[local], attributes={attr_name: attr}).result
    if static and plain:
        # what tensor.EmptyOp(sizes, element) builds, without its builder's cost
        new_empty = ir.Operation.create("tensor.empty", results=[local], loc=loc, ip=ip).result
    else:
        with ip, loc:
            new_empty = tensor.EmptyOp(sizes, t.element_type).result
    if name == "tensor.empty":
        return new_empty
    # a clone keeps the fill's body; only its init and type change
    clone = owner.operation.clone(ip)
    clone.operands[len(clone.operands) - 1] = new_empty
    result = clone.result  # a fill has one result (`_fill_init`)
    result.set_type(local)
    return result


_RESHAPES = frozenset(("tensor.expand_shape", "tensor.collapse_shape"))


def _empties_for_reshapes(ops: list[ir.Operation], names: list[str]) -> None:
    """Each reshape of a `tensor.empty` of static sizes, or of a
    `linalg.fill` of one (through the annotations on them), made again in
    its own type in its place in `ops` (and `names`), the reshape and what
    only it read erased: every device then makes its piece of the empty or
    the fill (`_rebuilt_in`), where it sliced a whole one.  (Upstream's
    linalg-fuse-elementwise-ops leaves such reshapes as the inits of the
    ops whose reshapes it folded.)"""
    read: list[tuple[int, ir.Operation]] = []  # what the rewritten reshapes read, the nearest first
    out_ops: list[ir.Operation] = []
    out_names: list[str] = []
    for op, name in zip(ops, names):
        made = _remade_reshape(op, read) if name in _RESHAPES else None
        if made is None:
            out_ops.append(op)
            out_names.append(name)
        else:
            out_ops.extend(made)
            out_names.extend(m.name for m in made)
    dead: set[int] = set()
    for address, op in read:  # (one read by two reshapes is listed twice: asked once)
        if address not in dead and not _has_uses(op.results[0]):
            dead.add(address)
            op.erase()
    kept = [(op, name) for op, name in zip(out_ops, out_names) if name not in _DROPPED or op_address(op) not in dead]
    ops[:], names[:] = [op for op, _ in kept], [name for _, name in kept]


def _remade_reshape(op: ir.Operation, read: list[tuple[int, ir.Operation]]) -> list[ir.Operation] | None:
    """`_empties_for_reshapes` for one reshape: the ops that replace it (an
    empty, or an empty and a fill), None when it is left as it is; `read`
    gets what it read, to erase once nothing else does."""
    t = op.results[0].type
    if not (isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.encoding is None):
        return None
    source, chain = _through_annotations(op.operands[0])
    fill = None
    # (a linalg.fill only: a generic fill's maps say its rank)
    init = None if source is None or source.name != "linalg.fill" else _fill_init(source, "linalg.fill")
    if init is not None:
        fill = source
        source, more = _through_annotations(init)
        chain = [*chain, fill, *more]
    if source is None or source.name != "tensor.empty" or len(source.operands):
        return None
    block = op.block
    if any(o.block != block for o in (*chain, source)):
        return None  # (made again where the reshape is, it could run once per iteration)
    ip = ir.InsertionPoint(op)
    empty = ir.Operation.create("tensor.empty", results=[t], loc=op.location, ip=ip).operation
    made = [empty]
    result = empty.result
    if fill is not None:
        clone = fill.clone(ip).operation
        clone.operands[1] = empty.result
        clone.results[0].set_type(t)
        if OPTION_ATTR in clone.attributes:
            del clone.attributes[OPTION_ATTR]  # (its loops are the old type's)
        made.append(clone)
        result = clone.results[0]
    # What only the reshape read goes, up to the first annotation of a layout
    # as produced: that one (and what it annotates) gives the value's other
    # users their layout, and stays.
    plain = next(
        (k for k, o in enumerate(chain) if o.name == "mesh.shard" and "annotate_for_users" not in o.attributes), None
    )
    gone = [*chain, source] if plain is None else chain[:plain]
    read.extend((op_address(o), o) for o in gone)
    op.results[0].replace_all_uses_with(result)
    op.erase()
    return made


def _through_annotations(value: ir.Value) -> tuple[ir.Operation | None, list[ir.Operation]]:
    """The op making `value` under the `mesh.shard`s on it (None: a block
    argument), and those annotations, the nearest first."""
    chain: list[ir.Operation] = []
    owner = value.owner
    while not isinstance(owner, ir.Block) and owner.name == "mesh.shard" and len(chain) < 16:
        chain.append(owner.operation)
        owner = owner.operands[0].owner
    return (None if isinstance(owner, ir.Block) else owner.operation), chain


_DROPPED = frozenset(("tensor.empty", "mesh.shard", "linalg.fill"))


def _empty_facts(local: ir.Type) -> tuple[ir.RankedTensorType, bool, bool]:
    """A local type as a ranked tensor type, whether it is static, and
    whether it has no encoding (static without one: a plain `tensor.empty`)."""
    t = ir.RankedTensorType(local)
    return t, t.has_static_shape, t.encoding is None


def _splat_constant(value: ir.Value, owner_of=_value_owner) -> tuple[str, str, ir.Attribute] | None:
    """(op name, attribute name, element) of a splat tensor constant."""
    owner = owner_of(value)
    if not isinstance(owner, ir.OpView | ir.Operation):
        return None
    return _splat_of(owner)


def _is_rebuildable(value: ir.Value, owner_of=_value_owner) -> bool:
    """Whether `value` is made again in any layout for free (`_rebuilt_in`)."""
    if _splat_constant(value, owner_of) is not None:
        return True
    owner = owner_of(value)
    if not isinstance(owner, ir.OpView | ir.Operation):
        return False
    if _filled(owner) is not None:
        owner = owner_of(owner.operands[len(owner.operands) - 1])
    empty = owner
    return isinstance(empty, ir.OpView | ir.Operation) and empty.name == "tensor.empty" and not len(empty.operands)


def _value_name(value: ir.Value) -> str:
    """A value as diagnostics name it: SSA names are not kept past parsing,
    so by its place (the diagnostic's location is its op's)."""
    if isinstance(value, ir.BlockArgument):
        return f"argument {value.arg_number}"
    return f"result {ir.OpResult(value).result_number}"


def _aligned_now(reads: list[AlignedRead]) -> dict[ir.Value, AlignedRead]:
    """Each aligned read by the tensor its extracts read now (partition has
    erased the annotations, so two tensors may have become one: their reads
    merge when their maps agree; else the other's reads are stray to
    `check_captures`, which makes the tensor whole)."""
    found: dict[ir.Value, AlignedRead] = {}
    for a in reads:
        v = a.reads[0][0].operands[0]
        have = found.get(v)
        if have is None:
            found[v] = a
        elif have.map == a.map and have.scales == a.scales:
            found[v] = dataclasses.replace(have, reads=have.reads + a.reads, keeps=have.keeps + a.keeps)
    return found


def _defined_within(v: ir.Value, op: ir.Operation) -> bool:
    """Whether `v` is defined in one of `op`'s regions."""
    owner = v.owner
    node = owner.owner if isinstance(owner, ir.Block) else owner
    if node is None:
        return False
    node = node.operation
    return node == op or any(p == op for p in ancestors(node))


def _made_by(value: ir.Value, name: str) -> bool:
    return isinstance(value, ir.OpResult) and value.owner.operation.name == name


def _without_partial(s: Sharding) -> Sharding:
    return Sharding(s.split_axes, (), s.partial_type, s.halo_sizes, s.sharded_dims_offsets)


_ZERO_KEEPING = ("mesh.all_slice", "stablehlo.broadcast_in_dim", "mhlo.broadcast_in_dim")
"""Ops whose result is zeros when their first operand is."""


def _is_zero(value: ir.Value, owner_of=_value_owner) -> bool:
    """Whether `value` is a tensor of zeros (of either sign) made here: a
    splat constant, a fill, JAX's `broadcast_in_dim` of a scalar zero, or
    a piece of one (`mesh.all_slice`)."""
    owner = owner_of(value)
    while isinstance(owner, ir.OpView | ir.Operation) and owner.name in _ZERO_KEEPING:
        value = owner.operands[0]
        owner = owner_of(value)
    splat = _splat_constant(value, owner_of)
    if splat is None:
        return _is_fill_of(value, 0.0, owner_of)
    try:
        return float(splat[2].value) == 0.0
    except (AttributeError, TypeError, ValueError):
        return False


def _is_fill_of(value: ir.Value, neutral, owner_of=_value_owner) -> bool:
    filled = _filled(owner_of(value))
    if filled is None:
        return False
    scalar = owner_of(filled)
    if not isinstance(scalar, ir.OpView | ir.Operation) or scalar.name != "arith.constant":
        return False
    try:
        return float(scalar.attributes["value"].value) == float(neutral)
    except (AttributeError, TypeError, ValueError):
        return False


__all__ = ["MeshPartition", "MeshSpmdization", "sharding_attr"]
