"""What one per-device function costs on each device of its mesh.

A function is compiled once into nodes (one per op, control flow kept as
nested blocks), then run symbolically for every device: integer and index
values that depend only on constants and the device's position (process
indices, mesh sizes, constant tables read at them, `arith` on those) are
computed, so an `scf.if` on them takes the device's own branch, an
`scf.for` with such bounds repeats its body that many times, and a tensor
whose type has `?` sizes gets the device's sizes when they follow from
those values.  No tensor data is ever computed.

The models, per device:

- Collectives: how many of each kind the device runs (`all_gather`,
  `send`, ...; `all_slice` counts although it moves nothing).
- Bytes received: the resharding planner's cost model, counted exactly as
  `sim.collectives.count_traffic` counts a run (S the device's input in
  bytes, E its elements, g the size of the device group): all_gather
  (g - 1) S; all_to_all (g - 1) floor(S / g); reduce_scatter
  (g - 1) floor(E / g) elements; all_reduce 2 (E - floor(E / g))
  elements (reduction results in the result's element type); the root of
  reduce and gather the others' pieces; broadcast and scatter, off the
  root, what the root sends it; shift, its source's input when it has a
  source other than itself; recv its buffer; send and all_slice nothing;
  update_halo the destination halo cells inside the tensor that other
  devices own.
- Peak memory: the largest sum, over the function's ops in order, of the
  bytes of the device's tensors that are live there.  Every tensor SSA
  value counts as its own buffer (no in-place reuse), from its definition
  (arguments: from entry) to its last use; a use inside a region keeps the
  value live to the end of the op holding that region; `tensor.empty` holds
  no data and counts 0.  Scalars do not count.
- Flops: a structured `linalg` op does its loop nest's iterations times the
  `arith`/`math` ops in its body (constants and casts aside), so a matmul's
  multiply and add give 2 M N K and a fill, copy or transpose 0; elementwise
  ops on tensors (`arith`, `math`, `tosa`, `stablehlo`/`mhlo`) 1 per result
  element (casts 0); `tosa.matmul` and `dot`/`dot_general` 2 per multiply
  and add; `tosa` and hlo convolutions 2 per kernel tap and output element
  (channels in included), pooling (and `reduce_window`) 1 per kernel tap
  and output element;
  reductions (`tosa.reduce_*`, `reduce`) 1 per input element.  Every other
  op (data movement, slices, reshapes, collectives, index arithmetic) 0.
- Redundant flops: the flops of an op whose results a device computes
  although another device computes the same: a value that does not vary
  along a mesh axis (of size > 1) is the same on every device along it, and
  all but the device at coordinate 0 along such axes do the work again.  A
  value varies along the axes its arguments are split or partial over,
  along the axes of a process index it reads, and as collectives change
  (all_gather, all_reduce and broadcast make their group agree; all_slice,
  all_to_all, reduce_scatter and the rooted ones make it differ); an op's
  results vary wherever its operands do.  The sum over devices is the work
  done more than once.

What is not known statically is counted conservatively and named in the
function's notes: a branch on a value known only at run time counts the
costlier of its branches, a loop with such bounds its body once, an
`scf.while` its body once, a tensor size known only at run time 0 bytes
and 0 flops, a function of several blocks (`cf.br`, `cf.cond_br`) each
block once, whichever way its branches go (a loop of branches once).
Calls are not followed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mlir import ir

from ..ir.asm import remap_location
from ..ir.control import HLO_BRANCHES, HLO_REGION_OPS, HLO_WHILE, malformed, trip_count
from ..ir.hlo import conv_dimensions, dot_dimensions
from ..ir.linalg_ops import get_indexing_maps
from ..ir.schema import DYNAMIC
from ..ir.syntax import Unprintable, decode_axes_array, decode_sharding_attr
from ..ir.uniform import readable_attr
from ..sharding.costs import all_reduce_elements
from ..sharding.spec import Mesh, Sharding, ShardingError
from ..transforms.base import element_bytes

MAX_DEVICES = 4096
"""Devices analyzed by default; each is run symbolically."""
_TABLE_LIMIT = 1 << 16
"""Integer constants of at most this many elements are kept as tables (the
per-device offsets and sizes partition writes)."""
_ITERATED_TRIPS = 64
"""An `scf.for` of at most this many trips is run trip by trip, its
induction variable and carried values bound each time; a longer one is run
once and its costs multiplied."""
_ITERATED_BODIES = 256
"""At most this many trips of nested loops run trip by trip (the product of
their trip counts): an inner loop past it runs once per outer trip and
multiplies, so nesting does not multiply the analysis time without bound."""

Device = tuple[int, ...]
Shape = tuple[int | None, ...]


class AnalysisError(ValueError):
    """A program the analysis cannot cost (the message says why; `location`
    is the op concerned, when there is one)."""

    def __init__(self, message: str, location: ir.Location | None = None):
        super().__init__(message)
        self.location = location


# ---------------------------------------------------------------------------
# Costs


@dataclass
class Costs:
    """What a device does in a block, summed."""

    flops: int = 0
    redundant_flops: int = 0
    bytes_received: int = 0
    collectives: dict[str, int] = field(default_factory=dict)

    def add(self, other: Costs, times: int = 1) -> None:
        self.flops += times * other.flops
        self.redundant_flops += times * other.redundant_flops
        self.bytes_received += times * other.bytes_received
        for kind, n in other.collectives.items():
            self.collectives[kind] = self.collectives.get(kind, 0) + times * n

    def most(self, other: Costs) -> Costs:
        """The larger of both, field by field (a branch known only at run time)."""
        kinds = set(self.collectives) | set(other.collectives)
        return Costs(
            max(self.flops, other.flops),
            max(self.redundant_flops, other.redundant_flops),
            max(self.bytes_received, other.bytes_received),
            {k: max(self.collectives.get(k, 0), other.collectives.get(k, 0)) for k in sorted(kinds)},
        )


@dataclass
class DeviceCosts:
    device: Device
    costs: Costs
    peak_memory: int


# ---------------------------------------------------------------------------
# Nodes


COLLECTIVES = frozenset(
    "all_gather all_reduce all_slice all_to_all broadcast gather recv reduce reduce_scatter scatter send shift "
    "update_halo".split()
)
_CONTROL = frozenset(("scf.if", "scf.index_switch", "scf.for", "scf.while", "scf.execute_region", *HLO_REGION_OPS))
_HLO_CONSTANTS = frozenset(("stablehlo.constant", "mhlo.constant"))
_CASTS = frozenset(
    "arith.extf arith.truncf arith.extsi arith.extui arith.trunci arith.sitofp arith.uitofp arith.fptosi "
    "arith.fptoui arith.index_cast arith.index_castui arith.bitcast arith.constant".split()
)
_TOSA_ELEMENTWISE = frozenset(
    "abs add arithmetic_right_shift bitwise_and bitwise_not bitwise_or bitwise_xor ceil clamp clz cos equal erf "
    "exp floor greater greater_equal int_div log logical_and logical_left_shift logical_not logical_or "
    "logical_right_shift logical_xor maximum minimum mul negate pow reciprocal rsqrt select sigmoid sin sub "
    "tanh".split()
)
_HLO_ELEMENTWISE = frozenset(
    "abs add and atan2 cbrt ceil clamp compare complex cosine count_leading_zeros divide exponential "
    "exponential_minus_one floor imag is_finite log log_plus_one logistic maximum minimum multiply negate not or "
    "popcnt power real remainder round_nearest_afz round_nearest_even rsqrt select shift_left "
    "shift_right_arithmetic shift_right_logical sign sine sqrt subtract tan tanh xor".split()
)
_TOSA_CONV_KERNEL = {"tosa.conv2d": (1, 2, 3), "tosa.conv3d": (1, 2, 3, 4), "tosa.depthwise_conv2d": (0, 1)}
"""Weight dimensions multiplied per output element (taps, and input channels)."""
_DOT_CONTRACTING = re.compile(r"lhs_contracting_dimensions\s*=\s*\[([^\]]*)\]")


@dataclass(eq=False)
class Node:
    """One op: what the device run reads of it."""

    name: str
    operands: tuple[int, ...]
    results: tuple[int, ...]
    attrs: dict
    where: str
    regions: list[list[Node]] = field(default_factory=list)
    region_args: list[tuple[int, ...]] = field(default_factory=list)
    yields: list[tuple[int, ...]] = field(default_factory=list)
    captured: tuple[int, ...] = ()
    replicated: tuple[int, ...] = ()  # mesh axes (size > 1) its results do not vary along
    pos: int = 0
    end: int = 0


@dataclass
class Function:
    """A function compiled for the device runs."""

    name: str
    mesh: str | None
    mesh_shape: tuple[int, ...] | None
    body: list[Node]
    args: tuple[int, ...]
    arg_layouts: list[Sharding | None]
    types: dict[int, tuple[Shape, int]]  # tensor value -> (static shape, element bytes)
    live: dict[int, tuple[int, int]]  # tensor value -> (first, last) position
    empty: frozenset[int]  # values of tensor.empty: no data
    widths: dict[int, int] = field(default_factory=dict)  # integer or index value -> its bit width
    notes: list[str] = field(default_factory=list)  # what the compiler could only count conservatively


def _blocks_in_order(region: ir.Region) -> tuple[list[ir.Block], bool]:
    """A function's blocks, each after the blocks that branch to it first
    (a depth-first reverse postorder from the entry; blocks no branch
    reaches last), and whether some branch goes back to a block before it
    (a loop)."""
    listed = list(region.blocks)
    if len(listed) == 1:
        return listed, False
    done: list[ir.Block] = []
    seen, open_ = {listed[0]}, {listed[0]}
    stack = [(listed[0], iter(listed[0].successors))]
    looped = False
    while stack:  # (no recursion: a function may have thousands of blocks)
        b, successors = stack[-1]
        succ = None
        for x in successors:
            if x in open_:
                looped = True
            elif x not in seen:
                succ = x
                break
        if succ is None:
            stack.pop()
            open_.discard(b)
            done.append(b)
        else:
            seen.add(succ)
            open_.add(succ)
            stack.append((succ, iter(succ.successors)))
    return [*reversed(done), *(b for b in listed if b not in seen)], looped


def _where(loc: ir.Location) -> str:
    name, line, col = remap_location(loc)
    return f"{name}:{line}:{col}" if name else "an unknown location"


def _shape_of(t: ir.Type) -> tuple[Shape, int] | None:
    if not isinstance(t, ir.RankedTensorType):
        return None
    st = ir.RankedTensorType(t)
    return tuple(None if st.is_dynamic_dim(i) else st.get_dim_size(i) for i in range(st.rank)), element_bytes(t)


def _int_attr(op: ir.Operation, name: str) -> int | None:
    if name not in op.attributes:
        return None
    try:
        return ir.IntegerAttr(op.attributes[name]).value
    except (TypeError, ValueError):
        return None


def _ints(op: ir.Operation, name: str) -> list[int]:
    if name not in op.attributes:
        return []
    attr = op.attributes[name]
    try:
        return [int(v) for v in attr]
    except (TypeError, ValueError):
        return [int(v) for v in re.findall(r"-?\d+", str(attr).split(":")[-1])]


def layout_attr(attrs: ir.Attribute | None) -> tuple[str | None, Sharding | None]:
    """(mesh, layout) of an argument's or result's `mesh.sharding`."""
    if attrs is None:
        return None, None
    d = ir.DictAttr(attrs)
    if "mesh.sharding" not in d:
        return None, None
    try:
        mesh, split, partial, kind, halos, offsets = decode_sharding_attr(str(d["mesh.sharding"]))
        return mesh[1:], Sharding(tuple(map(tuple, split)), tuple(partial), kind, tuple(halos), tuple(offsets))
    except (Unprintable, ShardingError, ValueError):
        return None, None


class Compiler:
    """Turns a `func.func` into nodes: value ids, static types, liveness
    intervals and the mesh axes each op's results vary along."""

    def __init__(self, meshes: dict[str, tuple[int, ...]]):
        self.meshes = meshes
        self.ids: dict[ir.Value, int] = {}
        self.types: dict[int, tuple[Shape, int]] = {}
        self.defined_in: dict[int, int] = {}  # value -> nesting depth of its block
        self.last_use: dict[int, list[tuple[Node, ...]]] = {}
        self.pos = 0
        self.mesh_names: list[str] = []
        self.empty: set[int] = set()
        self.def_pos: dict[int, int] = {}
        self.widths: dict[int, int] = {}

    def vid(self, v: ir.Value) -> int:
        found = self.ids.get(v)
        if found is None:
            found = self.ids[v] = len(self.ids)
            t = v.type
            shaped = _shape_of(t)
            if shaped is not None:
                self.types[found] = shaped
            elif isinstance(t, ir.IntegerType):
                self.widths[found] = ir.IntegerType(t).width
            elif isinstance(t, ir.IndexType):
                self.widths[found] = _INDEX_WIDTH
        return found

    def function(self, op: ir.Operation) -> Function:
        name = op.attributes["sym_name"].value
        block = op.regions[0].blocks[0]
        args = tuple(self.vid(a) for a in block.arguments)
        for a in args:
            self.defined_in[a] = 0
        layouts: list[Sharding | None] = []
        meshes: list[str] = []
        arg_attrs = list(op.attributes["arg_attrs"]) if "arg_attrs" in op.attributes else [None] * len(args)
        res_attrs = list(op.attributes["res_attrs"]) if "res_attrs" in op.attributes else []
        for attrs in arg_attrs:
            mesh, layout = layout_attr(attrs)
            layouts.append(layout)
            if mesh is not None:
                meshes.append(mesh)
        for attrs in res_attrs:
            mesh, _ = layout_attr(attrs)
            if mesh is not None:
                meshes.append(mesh)
        blocks, looped = _blocks_in_order(op.regions[0])
        body = [node for b in blocks for node in self.block(b, ())]
        notes = []
        if len(blocks) > 1:
            where = _where(op.location)
            how = "joined by a loop of branches" if looped else "joined by branches"
            notes.append(f"{where}: @{name} has {len(blocks)} blocks {how}: each block is counted once")
        mesh = (meshes + self.mesh_names + [None])[0]
        shape = self.meshes.get(mesh) if mesh is not None else ()
        live: dict[int, tuple[int, int]] = {}
        for v in self.types:
            first = -1 if v in args else self.def_pos.get(v)
            if first is None:
                continue  # a block argument of a region: an alias of another value
            last = max((chain[-1].end for chain in self.last_use.get(v, [])), default=first)
            live[v] = (first, max(first, last))
        fn = Function(
            name, mesh, shape, body, args, layouts, self.types, live, frozenset(self.empty), self.widths, notes
        )
        if shape is not None and DYNAMIC not in shape:
            _vary(fn, shape)
        return fn

    def block(self, block: ir.Block, ancestors: tuple[Node, ...]) -> list[Node]:
        return [self.node(op, ancestors) for op in block.operations]

    def use(self, v: int, ancestors: tuple[Node, ...], node: Node) -> None:
        """Record a use of `v` by `node`; `ancestors` are the ops around it."""
        chain = (*ancestors, node)
        target = self.defined_in.get(v)
        # The use counts at the op, in v's own block, that holds `node`.
        depth = 0 if target is None else target
        self.last_use.setdefault(v, []).append(chain[: depth + 1])

    def node(self, op: ir.Operation, ancestors: tuple[Node, ...]) -> Node:
        name = op.name
        node = Node(
            name,
            tuple(self.vid(v) for v in op.operands),
            tuple(self.vid(r) for r in op.results),
            {},
            _where(op.location),
        )
        node.pos = self.pos
        self.pos += 1
        depth = len(ancestors)
        for r in node.results:
            self.defined_in[r] = depth
            self.def_pos[r] = node.pos
        for v in node.operands:
            self.use(v, ancestors, node)
        if name == "tensor.empty":
            self.empty.update(node.results)
        self.prepare(op, node)
        if len(op.regions) and name in _CONTROL:
            for region in op.regions:
                if not len(region.blocks):
                    node.regions.append([])
                    node.region_args.append(())
                    node.yields.append(())
                    continue
                inner = region.blocks[0]
                args = tuple(self.vid(a) for a in inner.arguments)
                for a in args:
                    self.defined_in[a] = depth + 1
                node.region_args.append(args)
                node.regions.append(self.block(inner, (*ancestors, node)))
                ops = list(inner.operations)
                node.yields.append(tuple(self.vid(v) for v in ops[-1].operands) if ops else ())
            for r in node.results:
                self.def_pos[r] = self.pos  # what the regions yield, once they end
        elif len(op.regions):
            node.captured = self.captures(op, ancestors, node)
        node.end = self.pos - 1
        return node

    def captures(self, op: ir.Operation, ancestors: tuple[Node, ...], node: Node) -> tuple[int, ...]:
        """Values from outside that the op's regions read (a payload's scalars)."""
        inside: set[ir.Value] = set()
        used: list[ir.Value] = []

        def visit(inner: ir.Operation) -> ir.WalkResult:
            if inner is not op:
                for r in inner.results:
                    inside.add(r)
                used.extend(inner.operands)
            for region in inner.regions:
                for b in region.blocks:
                    inside.update(b.arguments)
            return ir.WalkResult.ADVANCE

        op.walk(visit, ir.WalkOrder.PRE_ORDER)
        out = []
        for v in used:
            if v not in inside and v in self.ids:
                vid = self.ids[v]
                if vid not in out:
                    out.append(vid)
                    self.use(vid, ancestors, node)
        return tuple(out)

    def prepare(self, op: ir.Operation, node: Node) -> None:
        """Read once what the device runs need of the op's attributes."""
        name = node.name
        a = node.attrs
        dialect, _, base = name.partition(".")
        if "mesh" in op.attributes and dialect == "mesh":
            try:
                mesh = ir.FlatSymbolRefAttr(op.attributes["mesh"]).value
                a["mesh"] = mesh
                if mesh not in self.mesh_names:
                    self.mesh_names.append(mesh)
            except (TypeError, ValueError):
                pass
        if dialect == "mesh":
            a["mesh_axes"] = _ints(op, "mesh_axes")
            a["axes"] = _ints(op, "axes")
            for key in ("gather_axis", "slice_axis", "split_axis", "concat_axis", "scatter_axis", "shift_axis"):
                value = _int_attr(op, key)
                if value is not None:
                    a[key] = value
            a["offset"] = _int_attr(op, "offset") or 0
            a["rotate"] = "rotate" in op.attributes
            for key in ("root", "source", "destination"):
                if key in op.attributes:
                    a["root"] = _ints(op, key)
            if name == "mesh.update_halo":
                a["split_axes"] = decode_axes_array(str(op.attributes["split_axes"]))
                a["src_halos"] = _ints(op, "static_source_halo_sizes")
                a["dst_halos"] = _ints(op, "static_destination_halo_sizes")
            return
        if name == "scf.index_switch":
            a["cases"] = list(ir.DenseI64ArrayAttr(op.attributes["cases"]))
            return
        if name in _HLO_CONSTANTS:
            # a rank-0 integer constant: an hlo case's index or if's predicate
            attr = readable_attr(op, "value")
            if isinstance(attr, ir.DenseIntElementsAttr) and ir.ShapedType(attr.type).rank == 0:
                a["int"] = ir.IntegerAttr(ir.DenseIntElementsAttr(attr).get_splat_value()).value
            return
        if name in HLO_REGION_OPS:
            why = malformed(op)
            if why is not None:
                raise AnalysisError(f"'{name}' {why}", op.location)
            if name in HLO_WHILE:
                a["trips"] = trip_count(op)
            return
        if name == "scf.for" and "unsignedCmp" in op.attributes:
            bound = op.operands[0].type  # its bounds compare unsigned, at this width
            a["unsigned"] = ir.IntegerType(bound).width if isinstance(bound, ir.IntegerType) else 64
            return
        if name == "arith.constant":
            attr = readable_attr(op, "value")  # (None for complex elements: no integer to follow)
            if isinstance(attr, ir.BoolAttr):  # an i1 constant: true is -1, as cmpi gives it
                a["int"] = -1 if ir.BoolAttr(attr).value else 0
            elif isinstance(attr, ir.IntegerAttr):
                a["int"] = ir.IntegerAttr(attr).value
            elif isinstance(attr, ir.DenseIntElementsAttr):
                dense = ir.DenseIntElementsAttr(attr)
                st = ir.ShapedType(dense.type)
                if dense.is_splat:
                    a["splat"] = ir.IntegerAttr(dense.get_splat_value()).value
                elif st.has_static_shape and math.prod(st.shape) <= _TABLE_LIMIT:
                    a["table"] = (tuple(st.shape), [int(x) for x in dense])
            return
        if name == "arith.cmpi":
            a["predicate"] = _int_attr(op, "predicate")
        if name in ("tensor.extract_slice", "tensor.empty", "tensor.splat", "tensor.concat", "tensor.dim"):
            a["static_sizes"] = _ints(op, "static_sizes")
            a["segments"] = _ints(op, "operandSegmentSizes")
            a["dim"] = _int_attr(op, "dim")
            return
        self.prepare_flops(op, node)
        if name.startswith(("stablehlo.", "mhlo.")):
            sources = _hlo_size_sources(op, name.partition(".")[2])
            if sources is not None:
                a["sources"] = sources

    def prepare_flops(self, op: ir.Operation, node: Node) -> None:
        name = node.name
        a = node.attrs
        dialect, _, base = name.partition(".")
        if dialect == "linalg" and len(op.regions):
            maps_attr = get_indexing_maps(op)
            if maps_attr is None:
                return
            maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(maps_attr)]
            if len(maps) != len(op.operands) or not maps:
                return
            a["flops"] = "loops"
            a["loops"] = maps[0].n_dims
            a["maps"] = [[e.position if isinstance(e, ir.AffineDimExpr) else None for e in m.results] for m in maps]
            a["per_iteration"] = _payload_ops(op)
            segments = _ints(op, "operandSegmentSizes")
            a["inits"] = segments[-1] if segments else len(op.results)
            return
        if not any(isinstance(r.type, ir.RankedTensorType) for r in op.results):
            return
        if dialect in ("arith", "math"):
            if name not in _CASTS:
                a["flops"] = "elementwise"
        elif name == "linalg.softmax":
            a["flops"] = "softmax"
        elif dialect == "tosa":
            if base in _TOSA_ELEMENTWISE:
                a["flops"] = "elementwise"
            elif name == "tosa.matmul":
                a["flops"] = "tosa_matmul"
            elif name in _TOSA_CONV_KERNEL:
                a["flops"] = "conv"
                a["kernel_dims"] = _TOSA_CONV_KERNEL[name]
            elif name in ("tosa.max_pool2d", "tosa.avg_pool2d"):
                a["flops"] = "pool"
                a["kernel"] = _ints(op, "kernel")
            elif base.startswith("reduce_"):
                a["flops"] = "reduce"
        elif dialect in ("stablehlo", "mhlo"):
            if base in _HLO_ELEMENTWISE:
                a["flops"] = "elementwise"
            elif base == "dot":
                a["flops"] = "dot"
                a["contracting"] = [-1]
            elif base == "dot_general" and "dot_dimension_numbers" in op.attributes:
                m = _DOT_CONTRACTING.search(str(op.attributes["dot_dimension_numbers"]))
                a["flops"] = "dot"
                a["contracting"] = [int(x) for x in m.group(1).replace(" ", "").split(",") if x] if m else []
            elif base == "reduce":
                a["flops"] = "reduce"
                a["inputs"] = len(op.results)
            elif base == "reduce_window" and "window_dimensions" in op.attributes:
                a["flops"] = "pool"
                a["kernel"] = _ints(op, "window_dimensions")
            elif base == "convolution" and "dimension_numbers" in op.attributes:
                dims = conv_dimensions(str(op.attributes["dimension_numbers"]))
                if dims is not None:
                    a["flops"] = "conv"
                    a["kernel_dims"] = (dims.kernel_input_feature, *dims.kernel_spatial)


def _rank(v: ir.Value) -> int | None:
    t = v.type
    return ir.RankedTensorType(t).rank if isinstance(t, ir.RankedTensorType) else None


SizeSource = tuple[int, int] | None
"""Where a result dimension's size comes from: (operand index, its dimension)."""


def _hlo_size_sources(op: ir.Operation, base: str) -> list[list[SizeSource]] | None:
    """Per result, per dimension, the operand dimension of the same size, for
    the hlo ops partition runs on pieces of unequal sizes whose results are
    not shaped like their operands (elementwise ops are: `follow`); None for
    any other op, or one whose attributes do not read as expected."""
    ranks = [_rank(v) for v in op.operands]
    if base == "transpose":
        return [[(0, d) for d in _ints(op, "permutation")]]
    if base == "broadcast_in_dim":
        rank = _rank(op.results[0])
        if rank is None:
            return None
        out: list[SizeSource] = [None] * rank
        for i, d in enumerate(_ints(op, "broadcast_dimensions")):
            if 0 <= d < rank:
                out[d] = (0, i)
        return [out]
    if base == "reduce":
        dims = set(_ints(op, "dimensions"))
        inputs = len(op.results)
        return [[(k, d) for d in range(ranks[k] or 0) if d not in dims] for k in range(inputs)]
    if base == "dot" and len(ranks) == 2 and None not in ranks:
        lhs, rhs = ranks
        return [[(0, d) for d in range(lhs - 1)] + [(1, d) for d in range(1, rhs)]]  # type: ignore[operator]
    if base == "dot_general" and "dot_dimension_numbers" in op.attributes and None not in ranks[:2]:
        dims = dot_dimensions(str(op.attributes["dot_dimension_numbers"]))
        if dims is None or len(ranks) < 2:
            return None
        lhs_used = set(dims.lhs_batching_dimensions) | set(dims.lhs_contracting_dimensions)
        rhs_used = set(dims.rhs_batching_dimensions) | set(dims.rhs_contracting_dimensions)
        return [
            [(0, d) for d in dims.lhs_batching_dimensions]
            + [(0, d) for d in range(ranks[0]) if d not in lhs_used]  # type: ignore[arg-type]
            + [(1, d) for d in range(ranks[1]) if d not in rhs_used]  # type: ignore[arg-type]
        ]
    return None


def _payload_ops(op: ir.Operation) -> int:
    """`arith`/`math` ops in a structured op's body, constants and casts aside."""
    count = 0

    def visit(inner: ir.Operation) -> ir.WalkResult:
        nonlocal count
        name = inner.name
        if inner is not op and name.partition(".")[0] in ("arith", "math") and name not in _CASTS:
            count += 1
        return ir.WalkResult.ADVANCE

    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return count


# ---------------------------------------------------------------------------
# Which mesh axes a value varies along


_AGREE = frozenset(("mesh.all_gather", "mesh.all_reduce", "mesh.broadcast"))
_DIFFER = frozenset(
    (
        "mesh.all_slice",
        "mesh.all_to_all",
        "mesh.reduce_scatter",
        "mesh.reduce",
        "mesh.gather",
        "mesh.scatter",
        "mesh.shift",
        "mesh.recv",
    )
)


def _vary(fn: Function, mesh_shape: tuple[int, ...]) -> None:
    """Set each node's `replicated` axes from a fixed point of the axes each
    value varies along (see the module docstring)."""
    rank = len(mesh_shape)
    every = frozenset(range(rank))
    var: dict[int, frozenset[int]] = {}
    for a, layout in zip(fn.args, fn.arg_layouts):
        if layout is not None:
            var[a] = frozenset(layout.used_axes())
    nodes: list[Node] = []

    def flatten(block: list[Node]) -> None:
        for n in block:
            nodes.append(n)
            for region in n.regions:
                flatten(region)

    flatten(fn.body)

    def of(vids) -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for v in vids:
            out |= var.get(v, frozenset())
        return out

    def inside(n: Node) -> frozenset[int]:
        out = of(n.operands) | of(n.captured)
        for region, ys in zip(n.regions, n.yields):
            out |= of(ys)
            for inner in region:
                out |= inside(inner) | of(inner.results)
        return out

    for _ in range(64):
        changed = False
        for n in nodes:
            name = n.name
            axes = n.attrs.get("mesh_axes", [])
            if name == "mesh.process_multi_index":
                new = frozenset(n.attrs.get("axes") or range(rank))
            elif name == "mesh.process_linear_index":
                new = every
            elif name in _AGREE:
                new = of(n.operands[:1]) - set(axes)
            elif name in _DIFFER:
                new = of(n.operands) | set(axes)
            elif name == "mesh.update_halo":
                new = of(n.operands) | {x for group in n.attrs.get("split_axes", []) for x in group}
            elif n.regions:
                new = inside(n)
                for args in n.region_args:
                    for a in args:
                        if var.get(a) != of(n.operands) | new:
                            var[a] = of(n.operands) | new
                            changed = True
            else:
                new = of(n.operands) | of(n.captured)
            for r in n.results:
                if var.get(r) != new:
                    var[r] = new
                    changed = True
        if not changed:
            break
    for n in nodes:
        varies = of(n.results)
        n.replicated = tuple(a for a in range(rank) if mesh_shape[a] > 1 and a not in varies)


# ---------------------------------------------------------------------------
# One device's run


_INDEX_WIDTH = 64
"""The width `arith` folds `index` values at (MLIR's internal storage width)."""


def _signed(x: int, width: int) -> int:
    """`x` wrapped to `width` bits, read as signed: how the evaluator keeps
    every integer (an i1 true is -1, as MLIR's own constants give it)."""
    if width <= 0:
        return 0  # i0 holds only 0
    x &= (1 << width) - 1
    return x - (1 << width) if x >> (width - 1) else x


def _unsigned(x: int, width: int) -> int:
    """`x`'s bits at `width`, read as unsigned (an i1 true is 1)."""
    return x & ((1 << width) - 1)


def _cmp(predicate: int, x: int, y: int, width: int) -> int:
    """`arith.cmpi` as an i1: -1 (true) or 0."""
    if predicate >= 6:
        x, y = _unsigned(x, width), _unsigned(y, width)
    match predicate:
        case 0:
            holds = x == y
        case 1:
            holds = x != y
        case 2 | 6:
            holds = x < y
        case 3 | 7:
            holds = x <= y
        case 4 | 8:
            holds = x > y
        case _:
            holds = x >= y
    return -1 if holds else 0


def _div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def _shift(x: int, y: int, width: int, right: Callable[[int, int], int] | None) -> int:
    """A shift by `y`; ValueError for a shift of `width` bits or more (poison)."""
    if not 0 <= y < width:
        raise ValueError("shift out of range")
    return x << y if right is None else right(x, y)


_INT_OPS: dict[str, Callable[[int, int, int], int]] = {
    # operands as the evaluator keeps them (signed at `w` bits); the result
    # is wrapped to the result's width afterwards
    "arith.addi": lambda x, y, w: x + y,
    "arith.subi": lambda x, y, w: x - y,
    "arith.muli": lambda x, y, w: x * y,
    "arith.divui": lambda x, y, w: _unsigned(x, w) // _unsigned(y, w),
    "arith.divsi": lambda x, y, w: _div(x, y),
    "arith.remui": lambda x, y, w: _unsigned(x, w) % _unsigned(y, w),
    "arith.remsi": lambda x, y, w: x - y * _div(x, y),
    "arith.floordivsi": lambda x, y, w: x // y,
    "arith.ceildivsi": lambda x, y, w: -(-x // y),
    "arith.ceildivui": lambda x, y, w: -(-_unsigned(x, w) // _unsigned(y, w)),
    "arith.maxsi": lambda x, y, w: max(x, y),
    "arith.minsi": lambda x, y, w: min(x, y),
    "arith.maxui": lambda x, y, w: max(_unsigned(x, w), _unsigned(y, w)),
    "arith.minui": lambda x, y, w: min(_unsigned(x, w), _unsigned(y, w)),
    "arith.andi": lambda x, y, w: x & y,
    "arith.ori": lambda x, y, w: x | y,
    "arith.xori": lambda x, y, w: x ^ y,
    "arith.shli": lambda x, y, w: _shift(x, _unsigned(y, w), w, None),
    "arith.shrui": lambda x, y, w: _shift(_unsigned(x, w), _unsigned(y, w), w, lambda a, b: a >> b),
    "arith.shrsi": lambda x, y, w: _shift(x, _unsigned(y, w), w, lambda a, b: a >> b),
}
_PASS_THROUGH = frozenset(("arith.index_cast", "arith.extsi", "arith.trunci"))
"""Casts that keep the signed value (wrapped to the result's width)."""
_ZERO_EXTEND = frozenset(("arith.index_castui", "arith.extui"))
"""Casts that keep the unsigned value of the operand's width."""


class DeviceRun:
    """One device's symbolic run of a function."""

    def __init__(self, fn: Function, device: Device, notes: dict[str, None]):
        self.fn = fn
        self.device = device
        self.mesh_shape = fn.mesh_shape or ()
        self.notes = notes
        self.ints: dict[int, int] = {}
        self.tables: dict[int, tuple[tuple[int, ...], list[int]]] = {}
        self.shapes: dict[int, Shape] = {}
        self.iterated = 1  # trips of the enclosing loops run trip by trip
        self.bytes: dict[int, int] = {}

    def set_int(self, v: int, x: int) -> None:
        """Keep integer `x` as value `v`'s type holds it (see `_signed`)."""
        self.ints[v] = _signed(x, self.fn.widths.get(v, _INDEX_WIDTH))

    def note(self, where: str, text: str) -> None:
        self.notes.setdefault(f"{where}: {text}", None)

    # -- values ------------------------------------------------------------

    def shape(self, v: int) -> Shape | None:
        found = self.shapes.get(v)
        if found is not None:
            return found
        t = self.fn.types.get(v)
        return None if t is None else t[0]

    def known(self, v: int) -> tuple[int, ...] | None:
        s = self.shape(v)
        return None if s is None or None in s else s  # type: ignore[return-value]

    def set_shape(self, v: int, shape: Shape) -> None:
        t = self.fn.types.get(v)
        if t is None:
            return
        static = t[0]
        if len(shape) != len(static):
            shape = static
        merged = tuple(s if s is not None else d for s, d in zip(static, shape))
        self.shapes[v] = merged
        if None not in merged:
            self.bytes[v] = 0 if v in self.fn.empty else math.prod(merged) * t[1]  # type: ignore[arg-type]

    def nbytes(self, v: int) -> int | None:
        s = self.known(v)
        t = self.fn.types.get(v)
        return None if s is None or t is None else math.prod(s) * t[1]

    def elements(self, v: int) -> int | None:
        s = self.known(v)
        return None if s is None else math.prod(s)

    # -- the run -------------------------------------------------------------

    def run(self) -> DeviceCosts:
        for a, layout in zip(self.fn.args, self.fn.arg_layouts):
            self.set_shape(a, self.arg_shape(a, layout))
        costs = self.block(self.fn.body)
        return DeviceCosts(self.device, costs, self.peak())

    def arg_shape(self, a: int, layout: Sharding | None) -> Shape:
        """An argument's local shape; `?` sizes from its layout's offsets."""
        t = self.fn.types.get(a)
        if t is None:
            return ()
        local = t[0]
        if layout is None or None not in local or not self.mesh_shape:
            return local
        mesh = Mesh(self.mesh_shape)
        whole = []
        for dim, size in enumerate(local):
            offsets = layout.offsets(dim, mesh)
            if offsets is not None:
                whole.append(offsets[-1])
            elif size is None:
                return local
            else:
                low, high = layout.halo(dim)
                whole.append((size - low - high) * layout.shard_count(dim, mesh))
        try:
            return layout.local_shape(whole, mesh, self.device)
        except ShardingError:
            return local

    def block(self, nodes: Sequence[Node]) -> Costs:
        costs = Costs()
        for n in nodes:
            self.step(n, costs)
        return costs

    def step(self, n: Node, costs: Costs) -> None:
        name = n.name
        if n.regions:
            self.control(n, costs)
            return
        if name.startswith("mesh."):
            self.mesh_op(n, costs)
        elif name.startswith("arith.") or name == "tensor.extract" or name == "tensor.dim":
            self.scalar(n)
        elif "int" in n.attrs and name in _HLO_CONSTANTS:
            self.set_int(n.results[0], n.attrs["int"])
        elif name == "func.call":
            self.note(n.where, "calls are not followed: the callee's costs are not counted")
        self.result_shapes(n)
        flops = self.flops(n)
        if flops:
            costs.flops += flops
            if any(self.device[a] for a in n.replicated):
                costs.redundant_flops += flops

    def scalar(self, n: Node) -> None:
        name = n.name
        a = n.attrs
        if not n.results:
            return
        r = n.results[0]
        self.ints.pop(r, None)  # a loop run trip by trip evaluates it again
        if name == "arith.constant":
            if "int" in a:
                self.set_int(r, a["int"])
            elif "table" in a:
                self.tables[r] = a["table"]
            elif "splat" in a:
                shape = self.known(r)
                if shape is not None and math.prod(shape) <= _TABLE_LIMIT:
                    self.tables[r] = (shape, [a["splat"]] * math.prod(shape))
            return
        values = [self.ints.get(v) for v in n.operands]
        widths = self.fn.widths
        if name in _INT_OPS and len(values) == 2 and None not in values:
            try:
                found = _INT_OPS[name](values[0], values[1], widths.get(n.operands[0], _INDEX_WIDTH))  # type: ignore[arg-type]
            except (ZeroDivisionError, ValueError):
                pass
            else:
                self.set_int(r, found)
        elif name in _PASS_THROUGH and values and values[0] is not None:
            self.set_int(r, values[0])
        elif name in _ZERO_EXTEND and values and values[0] is not None:
            self.set_int(r, _unsigned(values[0], widths.get(n.operands[0], _INDEX_WIDTH)))
        elif name == "arith.cmpi" and len(values) == 2 and None not in values:
            width = widths.get(n.operands[0], _INDEX_WIDTH)
            self.ints[r] = _cmp(a["predicate"], values[0], values[1], width)  # type: ignore[arg-type]
        elif name == "arith.select" and len(values) == 3 and values[0] is not None:
            chosen = n.operands[1] if values[0] else n.operands[2]
            if chosen in self.ints:
                self.ints[r] = self.ints[chosen]
        elif name == "tensor.extract":
            table = self.tables.get(n.operands[0])
            index = values[1:]
            if table is not None and None not in index and len(index) == len(table[0]):
                flat = 0
                for i, size in zip(index, table[0]):
                    flat = flat * size + i  # type: ignore[operator]
                if 0 <= flat < len(table[1]):
                    self.set_int(r, table[1][flat])
        elif name == "tensor.dim" and len(values) == 2 and values[1] is not None:
            shape = self.shape(n.operands[0])
            if shape is not None and 0 <= values[1] < len(shape) and shape[values[1]] is not None:
                self.ints[r] = shape[values[1]]  # type: ignore[assignment]

    # -- mesh ops ------------------------------------------------------------

    def mesh_op(self, n: Node, costs: Costs) -> None:
        name = n.name
        a = n.attrs
        kind = name[len("mesh.") :]
        if name == "mesh.process_multi_index":
            for r, axis in zip(n.results, a["axes"] or range(len(self.device))):
                self.ints[r] = self.device[axis]
            return
        if name == "mesh.process_linear_index":
            linear = 0
            for c, size in zip(self.device, self.mesh_shape):
                linear = linear * size + c
            self.ints[n.results[0]] = linear
            return
        if name == "mesh.mesh_shape":
            for r, axis in zip(n.results, a["axes"] or range(len(self.mesh_shape))):
                self.ints[r] = self.mesh_shape[axis]
            return
        if kind not in COLLECTIVES:
            return
        costs.collectives[kind] = costs.collectives.get(kind, 0) + 1
        received = self.received(n, kind)
        if received is None:
            self.note(n.where, f"'{name}' on a tensor of size known only at run time: its bytes are not counted")
        else:
            costs.bytes_received += received

    def group(self, axes: Sequence[int]) -> int:
        return math.prod(self.mesh_shape[x] for x in axes)

    def is_root(self, n: Node) -> bool | None:
        root = list(n.attrs.get("root", []))
        dynamic = iter(n.operands[1:])
        for i, r in enumerate(root):
            if r == DYNAMIC:
                root[i] = self.ints.get(next(dynamic, -1), None)
        if None in root:
            return None
        return tuple(self.device[x] for x in n.attrs["mesh_axes"]) == tuple(root)

    def received(self, n: Node, kind: str) -> int | None:
        """Bytes this device receives in the collective (`count_traffic`'s count)."""
        a = n.attrs
        axes = a["mesh_axes"]
        g = self.group(axes)
        src = n.operands[0]
        res = n.results[0] if n.results else None
        result_bytes = self.fn.types[res][1] if res in self.fn.types else 0
        if kind in ("send", "all_slice"):
            return 0
        if kind == "recv":
            return self.nbytes(src)
        size, count = self.nbytes(src), self.elements(src)
        if size is None or count is None:
            return None
        if kind == "all_gather":
            return (g - 1) * size
        if kind == "all_to_all":
            return (g - 1) * (size // g)
        if kind == "reduce_scatter":
            return (g - 1) * (count // g) * result_bytes
        if kind == "all_reduce":
            return all_reduce_elements(count, g) * result_bytes
        if kind == "shift":
            axis = a.get("shift_axis", 0)
            n_axis = self.mesh_shape[axis]
            c = self.device[axis] - a["offset"]
            if a["rotate"]:
                c %= n_axis
            return size if 0 <= c < n_axis and c != self.device[axis] else 0
        if kind == "update_halo":
            return self.halo_bytes(n)
        root = self.is_root(n)
        if root is None:  # counted in the costlier role: the root receives in a reduce or gather only
            role = "the root" if kind in ("reduce", "gather") else "a device other than the root"
            self.note(n.where, f"'{n.name}' with a root known only at run time: counted as {role}")
        if kind in ("reduce", "gather"):
            if root is False:
                return 0
            return (g - 1) * (count * result_bytes if kind == "reduce" else size)
        if kind == "broadcast":
            return 0 if root else size
        if kind == "scatter":
            out = self.nbytes(res) if res is not None else None
            return 0 if root or out is None else out
        return 0

    def halo_bytes(self, n: Node) -> int | None:
        a = n.attrs
        src = self.known(n.operands[0])
        if src is None:
            return None
        dynamic = iter(n.operands[2:])
        src_h = [self.ints.get(next(dynamic, -1)) if h == DYNAMIC else h for h in a["src_halos"]]
        dst_h = [self.ints.get(next(dynamic, -1)) if h == DYNAMIC else h for h in a["dst_halos"]]
        if None in src_h or None in dst_h:
            return None
        split = [list(axes) for axes in a["split_axes"]]
        sharded = [d for d, axes in enumerate(split) if axes]
        if not src_h:
            src_h = [0] * (2 * len(sharded))
        if not dst_h:
            dst_h = [0] * (2 * len(sharded))
        inside = own = 1
        for dim, extent in enumerate(src):
            if dim not in sharded:
                inside *= extent
                own *= extent
                continue
            i = sharded.index(dim)
            core = extent - src_h[2 * i] - src_h[2 * i + 1]  # type: ignore[operator]
            axes = split[dim]
            pieces = self.group(axes)
            index = 0
            for x in axes:
                index = index * self.mesh_shape[x] + self.device[x]
            start = index * core - dst_h[2 * i]  # type: ignore[operator]
            stop = start + core + dst_h[2 * i] + dst_h[2 * i + 1]  # type: ignore[operator]
            inside *= max(0, min(stop, core * pieces) - max(start, 0))
            own *= core
        return (inside - own) * self.fn.types[n.operands[0]][1]

    # -- shapes ----------------------------------------------------------------

    def sized(self, static: Sequence[int], dynamic: Sequence[int]) -> Shape:
        it = iter(dynamic)
        return tuple(self.ints.get(next(it, -1)) if s == DYNAMIC else s for s in static)

    def result_shapes(self, n: Node) -> None:
        """The device's shape of each tensor result."""
        tensors = [r for r in n.results if r in self.fn.types]
        if not tensors:
            return
        if all(None not in self.fn.types[r][0] for r in tensors):
            for r in tensors:
                self.set_shape(r, self.fn.types[r][0])
            return
        name = n.name
        a = n.attrs
        shape: Shape | None = None
        r = n.results[0]
        if name == "tensor.empty":
            static = self.fn.types[r][0]
            shape = self.sized([DYNAMIC if s is None else s for s in static], n.operands)
        elif name == "tensor.splat":
            static = self.fn.types[r][0]
            shape = self.sized([DYNAMIC if s is None else s for s in static], n.operands[1:])
        elif name == "tensor.extract_slice" and len(a["segments"]) == 4:
            seg = a["segments"]
            sizes = self.sized(a["static_sizes"], n.operands[1 + seg[1] : 1 + seg[1] + seg[2]])
            rank = len(self.fn.types[r][0])
            if len(sizes) == rank:
                shape = sizes
            else:
                kept = [s for s, st in zip(sizes, a["static_sizes"]) if st != 1]
                shape = tuple(kept) if len(kept) == rank else None
        elif name == "tensor.concat" and a.get("dim") is not None:
            parts = [self.shape(v) for v in n.operands]
            if parts and all(p is not None for p in parts):
                d = a["dim"]
                total = sum(p[d] for p in parts) if all(p[d] is not None for p in parts) else None  # type: ignore
                shape = tuple(total if i == d else parts[0][i] for i in range(len(parts[0])))  # type: ignore
        elif name.startswith("mesh."):
            shape = self.collective_shape(n)
        elif name == "tensor.insert_slice":
            shape = self.shape(n.operands[1])
        elif name.startswith("linalg.") and "inits" in a:
            inits = n.operands[len(n.operands) - a["inits"] :]
            for res, init in zip(n.results, inits):
                self.set_shape(res, self.shape(init) or ())
            return
        elif "sources" in a:
            for k, res in enumerate(n.results):
                if res in self.fn.types and k < len(a["sources"]):
                    self.set_shape(res, self.sourced(n, res, a["sources"][k]))
            return
        if shape is not None:
            self.set_shape(r, shape)
            tensors = tensors[1:]
        for res in tensors:
            self.set_shape(res, self.follow(n, res))

    def sourced(self, n: Node, r: int, sources: list[SizeSource]) -> Shape:
        """Result `r`'s shape, each dynamic size read from the operand
        dimension `sources` maps it to (`_hlo_size_sources`)."""
        static = self.fn.types[r][0]
        out = list(static)
        for i, s in enumerate(static):
            if s is not None or i >= len(sources) or sources[i] is None:
                continue
            k, d = sources[i]  # type: ignore[misc]
            shape = self.shape(n.operands[k]) if k < len(n.operands) else None
            if shape is not None and d < len(shape):
                out[i] = shape[d]
        return tuple(out)

    def follow(self, n: Node, r: int) -> Shape:
        """A dynamic size taken from an operand of the same rank that has it."""
        static = self.fn.types[r][0]
        out = list(static)
        for i, s in enumerate(static):
            if s is not None:
                continue
            for v in n.operands:
                shape = self.shape(v)
                if shape is not None and len(shape) == len(static) and shape[i] is not None:
                    out[i] = shape[i]
                    break
        return tuple(out)

    def collective_shape(self, n: Node) -> Shape | None:
        shape = self.shape(n.operands[0]) if n.operands else None
        if shape is None:
            return None
        a = n.attrs
        g = self.group(a.get("mesh_axes", []))
        out = list(shape)

        def scale(axis: int | None, by: Callable[[int], int]) -> None:
            if axis is not None and 0 <= axis < len(out) and out[axis] is not None:
                out[axis] = by(out[axis])  # type: ignore[arg-type]

        kind = n.name[len("mesh.") :]
        if kind == "all_gather":
            scale(a.get("gather_axis"), lambda s: s * g)
        elif kind in ("all_slice", "reduce_scatter", "scatter"):
            scale(a.get("slice_axis", a.get("scatter_axis")), lambda s: s // g)
        elif kind == "all_to_all":
            scale(a.get("split_axis"), lambda s: s // g)
            scale(a.get("concat_axis"), lambda s: s * g)
        elif kind == "update_halo":
            return self.shape(n.operands[1])
        elif kind not in ("all_reduce", "broadcast", "shift", "send", "recv", "reduce"):
            return None
        return tuple(out)

    # -- control flow --------------------------------------------------------

    def bind(self, targets: Sequence[int], sources: Sequence[int]) -> None:
        """Block arguments or results take the values flowing into them."""
        known = [self.ints.get(s) for s in sources]  # read all first: a loop's yield may swap them
        for t, s, x in zip(targets, sources, known):
            if x is not None:
                self.ints[t] = x
            else:
                self.ints.pop(t, None)
            shape = self.shape(s)
            if shape is not None and t in self.fn.types:
                self.set_shape(t, shape)
            else:
                self.shapes.pop(t, None)  # an earlier trip's shape no longer holds

    def control(self, n: Node, costs: Costs) -> None:
        name = n.name
        if name in ("scf.if", "scf.index_switch") or name in HLO_BRANCHES:
            cond = self.ints.get(n.operands[0])
            if cond is not None:
                if name.endswith(".case"):  # an index out of range takes the last branch
                    taken = cond if 0 <= cond < len(n.regions) else len(n.regions) - 1
                elif name == "scf.index_switch":  # the default region comes first
                    cases = n.attrs.get("cases", [])
                    taken = 1 + cases.index(cond) if cond in cases else 0
                else:
                    taken = 0 if cond else 1
                if taken < len(n.regions):
                    costs.add(self.block(n.regions[taken]))
                    self.bind(n.results, n.yields[taken])
                return
            self.note(n.where, f"'{name}' on a value known only at run time: the costlier branch is counted")
            branches = [self.block(region) for region in n.regions]
            if branches:
                most = branches[0]
                for b in branches[1:]:
                    most = most.most(b)
                costs.add(most)
                self.bind(n.results, n.yields[0])
            return
        if name == "scf.for":
            lb, ub, step = (self.ints.get(v) for v in n.operands[:3])
            width = n.attrs.get("unsigned")
            if width and None not in (lb, ub, step):
                lb, ub, step = (_unsigned(x, width) for x in (lb, ub, step))
            args = n.region_args[0]
            self.bind(args[1:], n.operands[3:])
            known = not (lb is None or ub is None or step is None or step <= 0)
            if not known:
                self.note(n.where, "'scf.for' with bounds known only at run time: its body is counted once")
                trips = 1
            else:
                trips = max(0, -(-(ub - lb) // step))
            if known and 0 < trips <= _ITERATED_TRIPS and self.iterated * trips <= _ITERATED_BODIES:
                # trip by trip: a branch on the induction variable or on a
                # value the loop carries is decided each time
                self.iterated *= trips
                try:
                    for k in range(trips):
                        self.set_int(args[0], lb + k * step)  # type: ignore[operator]
                        costs.add(self.block(n.regions[0]))
                        self.bind(args[1:], n.yields[0])
                finally:
                    self.iterated //= trips
                self.ints.pop(args[0], None)
                self.bind(n.results, args[1:])
            elif trips:
                first = [self.ints.get(a) for a in args[1:]]
                costs.add(self.block(n.regions[0]), trips)
                if trips > 1 and first != [self.ints.get(v) for v in n.yields[0]]:
                    self.note(
                        n.where,
                        f"'scf.for' of {trips} trips carries integers that change: its body is counted "
                        f"{trips} times as its first trip runs",
                    )
                self.bind(n.results, n.yields[0])
            else:
                self.bind(n.results, n.operands[3:])
            return
        if name == "scf.while":
            self.note(n.where, "'scf.while': its body is counted once")
            self.bind(n.region_args[0], n.operands)
            costs.add(self.block(n.regions[0]))
            if len(n.regions) > 1:
                self.bind(n.region_args[1], n.yields[0][1:])
                costs.add(self.block(n.regions[1]))
            self.bind(n.results, n.yields[0][1:])
            return
        if name in HLO_WHILE:
            self.hlo_while(n, costs)
            return
        # scf.execute_region
        for region in n.regions:
            costs.add(self.block(region))
        if n.yields:
            self.bind(n.results, n.yields[0])

    def hlo_while(self, n: Node, costs: Costs) -> None:
        """The body as many times as the loop's counter says (once, with a
        note, when its IR does not say), the condition once more."""
        trips = n.attrs.get("trips")
        if trips is None:
            self.note(n.where, f"'{n.name}' of a trip count known only at run time: its body is counted once")
            trips = 1
        self.bind(n.region_args[0], n.operands)
        costs.add(self.block(n.regions[0]), trips + 1)
        if not trips:
            self.bind(n.results, n.operands)
            return
        self.bind(n.region_args[1], n.operands)
        first = [self.ints.get(a) for a in n.region_args[1]]
        costs.add(self.block(n.regions[1]), trips)
        self.bind(n.results, n.yields[1])
        changed = [i for i, (a, y) in enumerate(zip(first, n.yields[1])) if a != self.ints.get(y)]
        if trips > 1 and any(first[i] is not None for i in changed):
            self.note(
                n.where,
                f"'{n.name}' of {trips} trips carries integers that change: its body is counted "
                f"{trips} times as its first trip runs",
            )

    # -- flops ---------------------------------------------------------------

    def flops(self, n: Node) -> int:
        a = n.attrs
        model = a.get("flops")
        if model is None:
            return 0
        if model == "loops":
            if not a["per_iteration"]:
                return 0
            extents: list[int | None] = [None] * a["loops"]
            for v, m in zip(n.operands, a["maps"]):
                shape = self.shape(v)
                if shape is None or len(shape) != len(m):
                    continue
                for loop, size in zip(m, shape):
                    if loop is not None and extents[loop] is None:
                        extents[loop] = size
            if None in extents:
                return self.unknown(n)
            return math.prod(extents) * a["per_iteration"]  # type: ignore[arg-type]
        out = self.known(n.results[0]) if n.results else None
        if model == "elementwise":
            return math.prod(out) if out is not None else self.unknown(n)
        if model == "softmax":  # per element as decomposed: a max, a subtraction, an exp, a sum and a division
            return 5 * math.prod(out) if out is not None else self.unknown(n)
        if model == "reduce":
            total = 0
            for v in n.operands[: a.get("inputs", 1)]:
                s = self.known(v)
                if s is None:
                    return self.unknown(n)
                total += math.prod(s)
            return total
        lhs = self.known(n.operands[0]) if n.operands else None
        rhs = self.known(n.operands[1]) if len(n.operands) > 1 else None
        if out is None or lhs is None:
            return self.unknown(n)
        if model == "tosa_matmul":
            return 2 * math.prod(out) * lhs[-1]
        if model == "dot":
            return 2 * math.prod(out) * math.prod(lhs[d] for d in a["contracting"])
        if model == "conv":
            if rhs is None:
                return self.unknown(n)
            return 2 * math.prod(out) * math.prod(rhs[d] for d in a["kernel_dims"] if d < len(rhs))
        if model == "pool":
            return math.prod(out) * math.prod(a["kernel"])
        return 0

    def unknown(self, n: Node) -> int:
        self.note(n.where, f"'{n.name}' on tensors of sizes known only at run time: its flops are not counted")
        return 0

    # -- memory --------------------------------------------------------------

    def peak(self) -> int:
        """The largest sum of live tensor bytes over the function's ops."""
        deltas: dict[int, int] = {}
        for v, size in self.bytes.items():
            span = self.fn.live.get(v)
            if span is None or not size:
                continue
            first, last = span
            deltas[first] = deltas.get(first, 0) + size
            deltas[last + 1] = deltas.get(last + 1, 0) - size
        peak = live = 0
        for pos in sorted(deltas):
            live += deltas[pos]
            peak = max(peak, live)
        return peak


def devices_of(shape: Sequence[int]) -> list[Device]:
    """Every device of a mesh, in row-major order."""
    out: list[Device] = [()]
    for size in shape:
        out = [d + (c,) for d in out for c in range(size)]
    return out


def cost_function(
    fn_op: ir.Operation, meshes: dict[str, tuple[int, ...]], max_devices: int = MAX_DEVICES
) -> tuple[Function, list[DeviceCosts], list[str]]:
    """(compiled function, each device's costs, notes) of one per-device function."""
    compiler = Compiler(meshes)
    fn = compiler.function(fn_op)
    notes: dict[str, None] = dict.fromkeys(fn.notes)
    if fn.mesh is not None and fn.mesh_shape is None:
        raise AnalysisError(f"@{fn.name} uses mesh @{fn.mesh}, which the module does not define", fn_op.location)
    for other in compiler.mesh_names:
        if other != fn.mesh and meshes.get(other) != fn.mesh_shape:
            # each device runs the function on one mesh (as the simulator does)
            raise AnalysisError(
                f"@{fn.name} uses meshes @{fn.mesh} and @{other} of different shapes; the analysis runs a function "
                "on one mesh",
                fn_op.location,
            )
    shape = fn.mesh_shape or ()
    if DYNAMIC in shape:
        return fn, [], [f"mesh @{fn.mesh} has sizes known only at run time: no device is analyzed"]
    count = math.prod(shape)
    if count > max_devices:
        raise AnalysisError(
            f"mesh @{fn.mesh} of @{fn.name} has {count} devices, more than the limit of {max_devices} "
            "(raise max-devices)",
            fn_op.location,
        )
    results = [DeviceRun(fn, d, notes).run() for d in devices_of(shape)]
    return fn, results, list(notes)
