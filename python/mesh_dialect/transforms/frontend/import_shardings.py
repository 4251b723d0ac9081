"""`import-shardings`: JAX's shardings (Shardy or GSPMD) as mesh annotations.

What a JAX export says, and what it becomes:

- `sdy.mesh @m = <["data"=2, "model"=4]>` becomes `mesh.mesh @m(shape = 2x4)`
  with the axis names kept in `mesh.axis_names` (for `export-shardings`).
  An axis some sharding uses through sub-axes (`"x":(1)2`) is split into
  the pieces they cut it into, so the mesh may be finer than JAX's. The
  GSPMD flavour names no mesh: the pass infers the one mesh, `@mesh`, whose
  axis order gives every tile assignment's device order (see
  `frontends.gspmd`).
- An argument's sharding is the layout it arrives in: `mesh.shard %arg to
  %s`, which every use of the argument reads. A result's sharding is the
  layout the caller receives: `mesh.shard %v to %s annotate_for_users` in
  front of the return. A sharding on an op's result (`sdy.sharding` on an
  op, `mhlo.sharding` on anything but a `Sharding` custom call) is the
  layout it is produced in: `mesh.shard %r to %s` after it.
- `sdy.sharding_constraint`, `sdy.reshard` and `custom_call @Sharding` are
  the layout their users read: `mesh.shard %x to %s annotate_for_users`
  replaces them. One whose result is unused constrains its input instead,
  as Shardy defines it.
- Open dimensions (`{"x", ?}`) keep the axes they list with the default
  `open-dims=fix`; a sharding with no axis at all in its open dimensions
  and nothing closed but `{}` is left out (it constrains nothing).
  `open-dims=free` leaves out every sharding with an open dimension, so
  propagation chooses it whole. Priorities and explicitly replicated axes
  guide Shardy's own propagation and are dropped. `{maximal device=N}` (a
  value on one device) reads as replicated, with a warning; `{unknown}`
  is no annotation; GSPMD's `{manual}` is an error.
- A shard_map (`sdy.manual_computation`; along axes it is not manual over, whole values) is
  inlined as code every device runs on its own piece: its operands cut by
  `mesh.all_slice`, its results put together by `mesh.all_gather`, its
  XLA collectives made this dialect's (`shard_map.Expander`).
- Unreduced axes (Shardy's `unreduced={"x"}`, GSPMD's
  `last_tile_dims={unreduced}`) are partial axes of the same reduction;
  on i1, whose pending all-reduce is StableHLO's `add` (a logical or),
  `bitwise_or` (`bitwise_and` for `unreduced=min`). A Shardy sharding that
  uses an axis twice (split and replicated, say) is an error, as in Shardy.
- A public function's result JAX gave no sharding (or only open
  dimensions) is marked `mesh.reduced`: XLA chooses its layout, but the
  caller never receives it unreduced, so partition reduces it if the
  plan leaves it partial.
- Afterwards no `sdy` op or sharding attribute is left (one inside a
  nested module, which is not read, is an error), and private
  functions (JAX's `call @relu`) are inlined, a copy per call, unless an
  attribute names them too (`called_computations = [@f]`); the shardings
  of their arguments and results become annotations for the users inside
  and after each call.
"""

from __future__ import annotations

import collections
import dataclasses
import re
from collections.abc import Callable
from typing import ClassVar

from mlir import ir

from ...frontends import FrontendError, gspmd, sdy
from ...ir import ops as mesh_ops
from ...ir.control import INLINE_COPIES, INLINE_ROUNDS, ancestors, splice_call
from ...ir.types import is_boolean
from ...sharding.spec import Sharding
from ..base import REDUCED_ATTR, Pass, fresh_name, symbol_names
from . import hlo_cleanup, shard_map

_SDY_ATTR = "sdy.sharding"
_HLO_ATTR = "mhlo.sharding"
_SHARDING_ATTRS = (_SDY_ATTR, _HLO_ATTR)
_CONSTRAINTS = ("sdy.sharding_constraint", "sdy.reshard")
_DROPPED_OP_ATTRS = (_SDY_ATTR, _HLO_ATTR, "sdy.sharding_rule", "mhlo.sharding_rule")


@dataclasses.dataclass
class _Spec:
    """One sharding read from the module, before the meshes are known."""

    location: ir.Location
    sdy: sdy.TensorSharding | None = None
    hlo: gspmd.HloSharding | None = None
    factors: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class ImportShardings(Pass):
    ARGUMENT: ClassVar[str] = "import-shardings"
    SUMMARY: ClassVar[str] = "Turn JAX's Shardy or GSPMD shardings into mesh.mesh and mesh.shard annotations"
    DESCRIPTION: ClassVar[str] = (
        "sdy.mesh becomes mesh.mesh (sub-axes split an axis into pieces), a GSPMD module gets the mesh whose "
        "axis order gives its device orders; argument shardings become mesh.shard on the arguments, result "
        "shardings and constraints annotations for users; a shard_map is inlined as per-device code between "
        "mesh.all_slice and mesh.all_gather, its collectives made mesh collectives; sdy ops and sharding attributes "
        "are removed and private functions are inlined, a copy per call."
    )

    open_dims: str = dataclasses.field(
        default="fix",
        metadata={
            "help": "open dimensions keep their axes (fix) or leave the value to propagation (free)",
            "choices": ("fix", "free"),
        },
    )
    inline: bool = dataclasses.field(default=True, metadata={"help": "inline private functions, a copy per call"})
    factor_axes: bool = dataclasses.field(
        default=False,
        metadata={
            "help": "cut every Shardy mesh axis into its prime factors, so that layouts needing a sub-axis can be said"
        },
    )

    def run(self, module: ir.Operation) -> None:
        self.module = module
        self.body = module.regions[0].blocks[0]
        self.sdy_meshes: dict[str, tuple[sdy.SdyMesh, ir.Operation]] = {}
        self.specs: list[_Spec] = []
        self.hlo_mesh = gspmd.MeshBuilder()
        self.mesh_shapes: dict[str, tuple[int, ...]] = {}
        self.mappings: dict[str, sdy.MeshMapping] = {}
        self.inline_meshes: dict[sdy.SdyMesh, str] = {}
        self.saw_hlo = False
        try:
            functions = self.read()
            self.make_meshes()
            by_name = {f.attributes["sym_name"].value: f for f in functions}
            expander = shard_map.Expander(self.shard_map_mesh, self.located, by_name)
            for func in functions:
                boundaries: list[shard_map.Boundary] = []
                for op in shard_map.manual_computations(func):
                    boundaries += expander.expand(op)
                shard_map.annotate_boundaries(func, boundaries)
            arg_shards: dict[str, list[ir.Operation | None]] = {}
            for func in functions:
                arg_shards[func.attributes["sym_name"].value] = self.annotate(func)
            if self.inline:
                self.inline_calls(functions, arg_shards)
            for op in self.body.operations:  # (inlining erased the private functions it copied)
                if op.operation.name == "func.func":
                    hlo_cleanup.merge_duplicate_hlo(op.operation)
                    hlo_cleanup.drop_dead_hlo(op.operation)
        except FrontendError as e:
            raise self.error(getattr(e, "location", module.location), str(e)) from None

    # -- reading --------------------------------------------------------------

    def read(self) -> list[ir.Operation]:
        """Parse every mesh and sharding (so the meshes can be built from all
        of them); return the functions with bodies."""
        functions: list[ir.Operation] = []
        for op in self.body.operations:
            op = op.operation
            if op.name == "sdy.mesh":
                if "mesh" not in op.attributes or "sym_name" not in op.attributes:
                    raise self.located(op.location, "sdy.mesh needs a mesh and a sym_name")
                if not isinstance(op.attributes["sym_name"], ir.StringAttr):
                    raise self.located(
                        op.location, f"sdy.mesh sym_name must be a string, got {op.attributes['sym_name']}"
                    )
                name = ir.StringAttr(op.attributes["sym_name"]).value
                self.sdy_meshes[name] = (self.parse(op.location, sdy.parse_mesh, op.attributes["mesh"]), op)
            elif op.name == "func.func" and len(op.regions[0].blocks):
                functions.append(op)
            elif op.name == "builtin.module":
                self.refuse_nested(op)
        for func in functions:
            for key in ("arg_attrs", "res_attrs"):
                if key in func.attributes:
                    for entry in ir.ArrayAttr(func.attributes[key]):
                        self.spec_of(func.location, ir.DictAttr(entry))
            self.walk_ops(func, self.read_op)
        return functions

    def read_op(self, op: ir.Operation) -> None:
        if op.name == "builtin.module":
            self.refuse_nested(op)
        if self.is_sharding_call(op) and (len(op.operands) != 1 or len(op.results) != 1):
            # XLA's sharding annotation is of one value: any other would be dropped
            operands, results = len(op.operands), len(op.results)
            raise self.located(
                op.location,
                f"custom_call @Sharding must have one operand and one result, got {operands} "
                f"operand{'' if operands == 1 else 's'} and {results} result{'' if results == 1 else 's'}",
            )
        for name in _SHARDING_ATTRS:
            if name in op.attributes and not op.name.startswith("sdy."):
                self.specs_of_op(op, op.attributes[name], name)
        if op.name == shard_map.MANUAL:
            for key in ("in_shardings", "out_shardings"):
                if key in op.attributes:
                    for ts in self.parse(op.location, sdy.parse_sharding_per_value, op.attributes[key]):
                        self.remember(_Spec(op.location, sdy=ts))
        if op.name in _CONSTRAINTS:
            if "sharding" not in op.attributes or len(op.operands) != 1 or len(op.results) != 1:
                raise self.located(op.location, f"'{op.name}' needs one operand, one result and a sharding")
            self.parse_spec(op.location, op.attributes["sharding"], _SDY_ATTR)

    @staticmethod
    def walk_ops(func: ir.Operation, visit: Callable[[ir.Operation], None]) -> None:
        found: list[ir.Operation] = []

        def collect(op: ir.Operation) -> ir.WalkResult:
            if op != func:
                found.append(op)
            return ir.WalkResult.ADVANCE

        func.walk(collect, ir.WalkOrder.PRE_ORDER)
        for op in found:
            visit(op)

    def refuse_nested(self, module: ir.Operation) -> None:
        """A nested module has symbols of its own and is not read: a
        sharding in it would be left behind, so it is an error at that op."""
        found: list[tuple[ir.Operation, str]] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            what = f"'{op.name}'" if op.name.startswith("sdy.") else None
            for name in _SHARDING_ATTRS:
                if what is None and name in op.attributes:
                    what = f"{name} on '{op.name}'"
            for key in ("arg_attrs", "res_attrs"):
                if what is None and op.name == "func.func" and key in op.attributes:
                    if any(n in ir.DictAttr(d) for d in ir.ArrayAttr(op.attributes[key]) for n in _SHARDING_ATTRS):
                        what = f"a sharding in {key} of '{op.name}'"
            if what is None:
                return ir.WalkResult.ADVANCE
            found.append((op, what))
            return ir.WalkResult.INTERRUPT

        module.walk(visit, ir.WalkOrder.PRE_ORDER)
        if found:
            op, what = found[0]
            name = module.attributes["sym_name"].value if "sym_name" in module.attributes else "(unnamed)"
            raise self.located(
                op.location, f"shardings must be in the top-level module, got {what} in nested module @{name}"
            )

    def parse(self, location: ir.Location, reader, attr: ir.Attribute):
        text = ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else str(attr)
        try:
            return reader(text)
        except FrontendError as e:
            e.location = location  # type: ignore[attr-defined]
            raise

    def spec_of(self, location: ir.Location, attrs: ir.DictAttr) -> _Spec | None:
        for name in _SHARDING_ATTRS:
            if name in attrs:
                return self.parse_spec(location, attrs[name], name)
        return None

    def parse_spec(self, location: ir.Location, attr: ir.Attribute, name: str) -> _Spec:
        """A sharding attribute of one value, remembered for the meshes."""
        if name == _SDY_ATTR:
            spec = _Spec(location, sdy=self.parse(location, sdy.parse_sharding, attr))
        else:
            spec = _Spec(location, hlo=self.parse(location, gspmd.parse, attr))
        self.remember(spec)
        return spec

    def specs_of_op(self, op: ir.Operation, attr: ir.Attribute, name: str) -> list[_Spec]:
        """An op's shardings, one per result."""
        if name == _SDY_ATTR:
            per_value = self.parse(op.location, sdy.parse_sharding_per_value, attr)
            specs = [_Spec(op.location, sdy=s) for s in per_value]
        else:
            hlo = self.parse(op.location, gspmd.parse, attr)
            elements = hlo.elements if hlo.kind == "tuple" else (hlo,)
            specs = [_Spec(op.location, hlo=h) for h in elements]
        if len(specs) != len(op.results):
            raise self.located(
                op.location, f"sharding must give one sharding per result ({len(op.results)}), got {len(specs)}: {attr}"
            )
        for spec in specs:
            self.remember(spec)
        return specs

    def remember(self, spec: _Spec) -> None:
        if spec.hlo is not None:
            self.saw_hlo = True
            self.check_devices(spec.location, spec.hlo)
            try:
                spec.factors = self.hlo_mesh.add(spec.hlo)
            except FrontendError as e:
                e.location = spec.location  # type: ignore[attr-defined]
                raise
            return
        self.specs.append(spec)

    def num_partitions(self) -> int | None:
        """The module's `mhlo.num_partitions` (None when it has none)."""
        if "mhlo.num_partitions" not in self.module.attributes:
            return None
        count = self.module.attributes["mhlo.num_partitions"]
        if not isinstance(count, ir.IntegerAttr) or ir.IntegerAttr(count).value < 1:
            raise self.located(self.module.location, f"mhlo.num_partitions must be a positive integer, got {count}")
        return ir.IntegerAttr(count).value

    def check_devices(self, location: ir.Location, hlo: gspmd.HloSharding) -> None:
        """XLA's verifier holds every sharding to the module's device count:
        a tile assignment on another number of devices, or a maximal device
        past it, is refused there, so it is here too."""
        count = self.num_partitions()
        if count is None:
            return
        for element in hlo.elements:
            self.check_devices(location, element)
        if hlo.kind == "tiled" and hlo.num_devices != count:
            raise self.located(
                location,
                f"tile assignment must have mhlo.num_partitions = {count} devices, got {hlo.num_devices}: {hlo.text}",
            )
        if hlo.kind == "maximal" and hlo.device is not None and hlo.device >= count:
            raise self.located(
                location, f"maximal device must be below mhlo.num_partitions = {count}, got {hlo.device}: {hlo.text}"
            )

    @staticmethod
    def located(location: ir.Location, message: str) -> FrontendError:
        e = FrontendError(message)
        e.location = location  # type: ignore[attr-defined]
        return e

    # -- meshes ---------------------------------------------------------------

    def make_meshes(self) -> None:
        """A mesh.mesh for each sdy.mesh (in its place) and, for GSPMD
        shardings, one inferred mesh at the top of the module."""
        refs: dict[str, list[sdy.AxisRef]] = {name: [] for name in self.sdy_meshes}
        checked: list[tuple[_Spec, sdy.SdyMesh]] = []
        for spec in self.specs:
            ts = spec.sdy
            if isinstance(ts.mesh, sdy.SdyMesh):
                if ts.mesh not in self.inline_meshes:
                    self.inline_meshes[ts.mesh] = self.fresh_name("sdy_mesh")
                    refs[self.inline_meshes[ts.mesh]] = []
                    self.sdy_meshes[self.inline_meshes[ts.mesh]] = (ts.mesh, None)
                refs[self.inline_meshes[ts.mesh]].extend(ts.axis_refs())
            elif ts.mesh not in self.sdy_meshes:
                raise self.located(spec.location, f"sharding must name an sdy.mesh of the module, got @{ts.mesh}")
            else:
                refs[ts.mesh].extend(ts.axis_refs())
            mesh = self.sdy_meshes[self.inline_meshes[ts.mesh] if isinstance(ts.mesh, sdy.SdyMesh) else ts.mesh][0]
            for ref in ts.axis_refs():
                if all(name != ref.name for name, _ in mesh.axes):  # an empty or maximal mesh has none
                    raise self.located(spec.location, f"axis is not in the mesh: {ref.text()} in {ts.text()}")
                try:  # said here, at the sharding that names it, not at the mesh (`refine_mesh`)
                    sdy.check_sub_axis(ref, mesh)
                except FrontendError as e:
                    raise self.located(spec.location, f"{e} in {ts.text()}") from None
            if mesh.axes:
                checked.append((spec, mesh))
        first = self.body.operations[0] if len(self.body.operations) else None
        for name, (mesh, op) in self.sdy_meshes.items():
            if not mesh.axes:  # empty or maximal: no mesh.mesh, its shardings read as replicated
                continue
            try:
                mapping = _factored(mesh, refs[name]) if self.factor_axes else sdy.refine_mesh(mesh, refs[name])
            except FrontendError as e:
                raise self.located(op.location if op is not None else self.module.location, str(e)) from None
            self.mappings[name] = mapping
            where = ir.InsertionPoint(op) if op is not None else ir.InsertionPoint(first)
            with where, (op or self.module).location:
                made = mesh_ops.mesh(name, mapping.shape)
                self.mesh_shapes[name] = tuple(mapping.shape)
                made.operation.attributes["mesh.axis_names"] = ir.ArrayAttr.get(
                    [ir.StringAttr.get(n) for n in mapping.names]
                )
                if mapping.device_ids:
                    made.operation.attributes["mesh.device_ids"] = ir.DenseI64ArrayAttr.get(list(mapping.device_ids))
                    if list(mapping.device_ids) != list(range(len(mapping.device_ids))):
                        shown = list(mapping.device_ids[:8]) + (["..."] if len(mapping.device_ids) > 8 else [])
                        self.warning(
                            (op or self.module).location,
                            f"device_ids {shown} of mesh @{name} are not applied: partition numbers devices in "
                            "mesh order, so its device d holds the piece Shardy gives to device device_ids[d]",
                        )
        # Once the sub-axes are known to nest: each axis is used once.
        seen: set[tuple[sdy.TensorSharding, sdy.SdyMesh]] = set()
        for spec, mesh in checked:
            if (spec.sdy, mesh) not in seen:
                seen.add((spec.sdy, mesh))
                try:
                    sdy.check_axes(spec.sdy, mesh)
                except FrontendError as e:
                    raise self.located(spec.location, str(e)) from None
        for _, op in list(self.sdy_meshes.values()):
            if op is not None:
                op.erase()
        self.hlo_mesh_name: str | None = None
        if self.saw_hlo:
            self.hlo_mesh_name = self.fresh_name("mesh")
            default = self.num_partitions() or 1
            with ir.InsertionPoint.at_block_begin(self.body), self.module.location:
                mesh_ops.mesh(self.hlo_mesh_name, self.hlo_mesh.shape(default))
            self.mesh_shapes[self.hlo_mesh_name] = tuple(self.hlo_mesh.shape(default))

    def shard_map_mesh(self, name: str) -> tuple[str, sdy.MeshMapping] | None:
        """The mesh made for sdy mesh `name` (None: it has no axes)."""
        return (name, self.mappings[name]) if name in self.mappings else None

    def fresh_name(self, base: str) -> str:
        return fresh_name(base, symbol_names(self.body) | set(self.sdy_meshes))

    # -- annotating -------------------------------------------------------------

    def layout(self, spec: _Spec, value: ir.Value, result: bool = False) -> tuple[str, Sharding] | None:
        """(mesh, layout) for `value`, or None when the sharding says nothing.
        A replicated scalar says nothing, except as a function's `result`:
        there it asks for a partial sum to be reduced (a training step's
        loss)."""
        if not isinstance(value.type, ir.RankedTensorType):
            return None
        rank = ir.RankedTensorType(value.type).rank
        try:
            if spec.hlo is not None:
                if spec.hlo.kind == "maximal":
                    self.warning(
                        spec.location,
                        f"maximal sharding holds a value on one device; imported as replicated: {spec.hlo.text}",
                    )
                layout = gspmd.to_layout(spec.hlo, spec.factors, self.hlo_mesh, rank)
                mesh = self.hlo_mesh_name
            else:
                ts = spec.sdy
                name = self.inline_meshes[ts.mesh] if isinstance(ts.mesh, sdy.SdyMesh) else ts.mesh
                mesh_def = self.sdy_meshes[name][0]
                if mesh_def.is_maximal:
                    self.warning(
                        spec.location,
                        f"maximal sharding holds a value on one device; imported as replicated: {ts.text()}",
                    )
                if name not in self.mappings:
                    return None
                if ts.is_open and self.open_dims == "free":
                    return None
                if all(not d.closed and not d.axes for d in ts.dims) and ts.dims and not ts.unreduced:
                    return None  # fully open: says nothing
                layout = sdy.to_layout(ts, self.mappings[name], rank)
                mesh = name
        except FrontendError as e:
            raise self.located(spec.location, str(e)) from None
        if layout is None or mesh is None:
            return None
        if rank == 0 and not layout.partial_axes and not result:
            return None
        if layout.partial_axes and is_boolean(value.type):
            layout = dataclasses.replace(layout, partial_type=_boolean_kind(layout.partial_type, value.type))
        shape = ir.RankedTensorType(value.type).shape
        split_dynamic = any(ir.ShapedType.is_dynamic_size(n) for n, axes in zip(shape, layout.split_axes) if axes)
        if mesh in self.mesh_shapes and not split_dynamic:
            # XLA's cut of the split dimensions, whatever the others are
            try:
                layout = gspmd.xla_pieces(layout, self.mesh_shapes[mesh], shape)
            except FrontendError as e:
                raise self.located(spec.location, str(e)) from None
        return mesh, layout

    def annotate(self, func: ir.Operation) -> list[ir.Operation | None]:
        """Annotations for one function; returns the shard op made for each
        argument (None where there is none)."""
        entry = func.regions[0].blocks[0]
        shardings: dict[tuple[str, Sharding], ir.Value] = {}
        # Shardings, and annotations of the entry block's arguments, go at
        # the top of the function in the order made: after the last one.
        made_at_top: list[ir.Operation] = []

        def at_top() -> ir.InsertionPoint:
            return ir.InsertionPoint.after(made_at_top[-1]) if made_at_top else ir.InsertionPoint.at_block_begin(entry)

        def sharding_value(mesh: str, layout: Sharding) -> ir.Value:
            key = (mesh, layout)
            if key not in shardings:
                with at_top(), func.location:
                    shardings[key] = mesh_ops.sharding(
                        mesh,
                        [list(a) for a in layout.split_axes] or [[]],
                        partial_axes=list(layout.partial_axes),
                        partial_type=layout.partial_type if layout.partial_axes else None,
                        sharded_dims_offsets=list(layout.sharded_dims_offsets),
                    )
                made_at_top.append(shardings[key].owner.operation)
            return shardings[key]

        def shard(
            value: ir.Value,
            found: tuple[str, Sharding],
            for_users: bool,
            where: ir.InsertionPoint | ir.Operation | None,
        ) -> ir.Value:
            """`where` None: at the top (for the entry block's arguments); an
            op: right after it, or at the top if it is there itself (a later
            sharding may go after it, and must come before its user)."""
            s = sharding_value(*found)
            if isinstance(where, ir.Operation):
                where = None if where in made_at_top else ir.InsertionPoint.after(where)
            with where or at_top(), func.location:
                made = mesh_ops.shard(value, s, annotate_for_users=for_users)
            if where is None:
                made_at_top.append(made.owner.operation)
            return made

        arg_specs = self.attr_specs(func, "arg_attrs", len(entry.arguments))
        res_specs = self.attr_specs(
            func, "res_attrs", len(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results)
        )
        # Arguments first, in order, right after the shardings.
        arg_shards: list[ir.Operation | None] = []
        for arg, spec in zip(entry.arguments, arg_specs):
            found = self.layout(spec, arg) if spec is not None else None
            if found is None:
                arg_shards.append(None)
                continue
            new = shard(arg, found, False, None)
            arg.replace_all_uses_except(new, new.owner.operation)
            arg_shards.append(new.owner.operation)
        # Then ops, in order.
        ops: list[ir.Operation] = []
        self.walk_ops(func, ops.append)
        returns = [op for op in ops if op.name == "func.return" and op.parent == func]
        for op in ops:
            self.annotate_op(op, shard, entry)
        # Results: in front of every return.
        annotated: set[int] = set()
        if any(spec is not None for spec in res_specs):
            for op in returns:
                for i, spec in enumerate(res_specs):
                    found = self.layout(spec, op.operands[i], result=True) if spec is not None else None
                    if found is not None:
                        op.operands[i] = shard(op.operands[i], found, True, ir.InsertionPoint(op))
                        annotated.add(i)
        # JAX hands a caller every result reduced, whatever layout XLA
        # chose for one it gave no sharding: such a result of a public
        # function must not come back partial.
        public = "sym_visibility" not in func.attributes or func.attributes["sym_visibility"].value == "public"
        reduced = {i for i in range(len(res_specs)) if i not in annotated} if public else set()
        self.strip_attrs(func, reduced)
        return arg_shards

    def attr_specs(self, func: ir.Operation, key: str, count: int) -> list[_Spec | None]:
        if key not in func.attributes:
            return [None] * count
        return [self.spec_of(func.location, ir.DictAttr(d)) for d in ir.ArrayAttr(func.attributes[key])]

    def annotate_op(self, op: ir.Operation, shard, entry: ir.Block) -> None:
        name = op.name
        if name in _CONSTRAINTS or self.is_sharding_call(op):
            if name in _CONSTRAINTS:
                spec = self.parse_spec(op.location, op.attributes["sharding"], _SDY_ATTR)
            else:
                # Shardy's export keeps the call with `sdy.sharding`, GSPMD's with
                # `mhlo.sharding`: either is the layout its users read.
                attr_name = next((n for n in _SHARDING_ATTRS if n in op.attributes), None)
                spec = self.specs_of_op(op, op.attributes[attr_name], attr_name)[0] if attr_name else None
            self.constrain(op, spec, shard, entry)
            return
        if name == "sdy.propagation_barrier":
            op.results[0].replace_all_uses_with(op.operands[0])
            self.erase(op)
            return
        if name == "sdy.sharding_group":
            self.warning(op.location, "sharding groups have no counterpart; dropped: sdy.sharding_group")
            self.erase(op)
            return
        if name.startswith("sdy."):
            raise self.located(op.location, f"sdy op cannot be imported: '{name}'")
        for attr_name in _SHARDING_ATTRS:
            if attr_name in op.attributes:
                specs = self.specs_of_op(op, op.attributes[attr_name], attr_name)
                # Each right after the op: the last result's first, so they read in order.
                for result, spec in reversed(list(zip(op.results, specs))):
                    found = self.layout(spec, result)
                    if found is None:
                        continue
                    new = shard(result, found, False, ir.InsertionPoint.after(op))
                    result.replace_all_uses_except(new, new.owner.operation)
        for attr_name in _DROPPED_OP_ATTRS:
            if attr_name in op.attributes:
                del op.attributes[attr_name]

    @staticmethod
    def is_sharding_call(op: ir.Operation) -> bool:
        if op.name not in ("stablehlo.custom_call", "mhlo.custom_call") or "call_target_name" not in op.attributes:
            return False
        target = op.attributes["call_target_name"]
        return isinstance(target, ir.StringAttr) and target.value == "Sharding"

    def constrain(self, op: ir.Operation, spec: _Spec | None, shard, entry: ir.Block) -> None:
        """A constraint: the layout its users read (or, unused, its input's)."""
        source, result = op.operands[0], op.results[0]
        found = self.layout(spec, source) if spec is not None else None
        if found is None:
            result.replace_all_uses_with(source)
        elif len(list(result.uses)):
            result.replace_all_uses_with(shard(source, found, True, ir.InsertionPoint(op)))
        else:
            # Unused: the layout of the input itself, for all its users.
            owner = source.owner
            if isinstance(owner, ir.Block):
                where = None if owner == entry else ir.InsertionPoint.at_block_begin(owner)
            else:
                where = owner.operation
            new = shard(source, found, False, where)
            source.replace_all_uses_except(new, [new.owner.operation, op])
        self.erase(op)

    def strip_attrs(self, func: ir.Operation, reduced: set[int]) -> None:
        """Sharding attributes off the signature (other entries stay); the
        results in `reduced` get `mesh.reduced` (see `REDUCED_ATTR`)."""
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        for key in ("arg_attrs", "res_attrs"):
            marked = reduced if key == "res_attrs" else set()
            if key not in func.attributes and not marked:
                continue
            if key in func.attributes:
                dicts = [ir.DictAttr(d) for d in ir.ArrayAttr(func.attributes[key])]
            else:
                dicts = [ir.DictAttr.get({}) for _ in ftype.results]
            entries = []
            for i, d in enumerate(dicts):
                kept = {a.name: a.attr for a in d if a.name not in _SHARDING_ATTRS}
                if i in marked and isinstance(ftype.results[i], ir.RankedTensorType):
                    kept[REDUCED_ATTR] = ir.UnitAttr.get()
                entries.append(ir.DictAttr.get(kept))
            if all(len(e) == 0 for e in entries):
                if key in func.attributes:
                    del func.attributes[key]
            else:
                func.attributes[key] = ir.ArrayAttr.get(entries)

    # -- inlining ---------------------------------------------------------------

    def inline_calls(self, functions: list[ir.Operation], arg_shards: dict[str, list[ir.Operation | None]]) -> None:
        """Private functions with one block are moved into their callers, a
        copy per call, as XLA inlines them: JAX writes a helper called twice
        with the same types (`relu`, `_where`, `clip`) as one function and
        two calls, and a call passes whole values.  Their argument
        annotations become annotations for the users inside.  A function
        named anywhere else (`called_computations = [@f]`) is kept, and so is
        one that calls itself.  Calls the inlined bodies bring along are
        inlined in later rounds, up to `INLINE_COPIES` copies in all (a
        chain of functions each calling the next twice doubles them at every
        level); the calls past that are kept, with a warning."""
        by_name = {f.attributes["sym_name"].value: f for f in functions}
        copies = 0
        for _ in range(INLINE_ROUNDS):
            candidates = self.inline_candidates(by_name)
            if not candidates:
                return
            for name, (calls, func) in candidates.items():
                del by_name[name]
                if copies + len(calls) - 1 > INLINE_COPIES:
                    self.warning(
                        func.location,
                        f"import-shardings keeps the {len(calls)} calls of @{name}: inlining them would make "
                        f"more than {INLINE_COPIES} copies of private functions (a call passes whole values)",
                    )
                    continue
                copies += len(calls) - 1
                self.inline_everywhere(calls, func, arg_shards.get(name, []))

    def inline_candidates(self, by_name: dict[str, ir.Operation]) -> dict[str, tuple[list[ir.Operation], ir.Operation]]:
        """The private functions to inline, with their calls in the module's
        own symbol scope: functions no other attribute names, whose body
        does not call them."""
        calls: dict[str, list[ir.Operation]] = {}
        other_uses = _Symbols()
        hidden: dict[str, tuple[str, ...] | None] = {}
        unlisted = False  # an unregistered op whose properties no schema lists
        context = self.module.context

        def visit(op: ir.Operation) -> ir.WalkResult:
            nonlocal unlisted
            name = op.name
            if name not in hidden:
                hidden[name] = _hidden_symbol_properties(context, name)
            attrs = op.attributes
            for key, attr in attrs.items():
                if key == "callee" and name == "func.call" and self.in_top_scope(op):
                    calls.setdefault(ir.FlatSymbolRefAttr(attr).value, []).append(op)
                else:  # a call inside a nested module names that module's function
                    other_uses.add(attr)
            properties = hidden[name]
            if properties is None:
                unlisted = True
            else:
                for key in properties:
                    if key in attrs:
                        other_uses.add(attrs[key])
            return ir.WalkResult.ADVANCE

        self.module.walk(visit, ir.WalkOrder.PRE_ORDER)
        candidates: dict[str, tuple[list[ir.Operation], ir.Operation]] = {}
        for name, sites in calls.items():
            func = by_name.get(name)
            if func is None or name in other_uses.found:
                continue
            visibility = func.attributes["sym_visibility"].value if "sym_visibility" in func.attributes else "public"
            if visibility != "private" or len(func.regions[0].blocks) != 1:
                continue
            if any(self.inside(call, func) for call in sites):
                continue
            candidates[name] = (sites, func)
        if candidates and unlisted:
            # What no API lists, the text shows: the module is printed once
            # (about 10 us per op), only for a module that has such an op.
            text = self.module.get_asm(
                binary=True, print_generic_op_form=True, assume_verified=True, large_elements_limit=16
            )
            uses = {name: len(sites) for name, (sites, _) in candidates.items()}
            for name in _named_elsewhere(text, uses):
                del candidates[name]
        # A function one candidate calls and another's body holds would be
        # inlined into a body that moves meanwhile: one round inlines the
        # functions no other candidate's body calls; the rest wait.
        return {
            name: (sites, func)
            for name, (sites, func) in candidates.items()
            if not any(self.inside(call, other) for call in sites for _, other in candidates.values())
        }

    def in_top_scope(self, op: ir.Operation) -> bool:
        """Whether the nearest symbol table around `op` is the module itself
        (not a nested module, whose symbols are its own)."""
        parent = op.parent
        while parent is not None and parent != self.module:
            if parent.name.endswith(".module"):
                return False
            parent = parent.parent
        return True

    @staticmethod
    def inside(op: ir.Operation, func: ir.Operation) -> bool:
        target = func.operation
        return any(p == target for p in ancestors(op))

    def inline_everywhere(
        self, calls: list[ir.Operation], func: ir.Operation, shards: list[ir.Operation | None]
    ) -> None:
        """Inline `func` at each of `calls`: a copy at every call but the
        last, which takes the function itself."""
        entry = func.regions[0].blocks[0]
        ops = [op.operation for op in entry.operations]
        at = [k for k, op in enumerate(ops) if any(op == s for s in shards if s is not None)]
        for call in calls[:-1]:
            copy = func.clone()
            copy_ops = [op.operation for op in copy.regions[0].blocks[0].operations]
            self.inline_call(call, copy, [copy_ops[k] for k in at])
        self.inline_call(calls[-1], func, [ops[k] for k in at])

    def inline_call(self, call: ir.Operation, func: ir.Operation, shards: list[ir.Operation]) -> None:
        for shard_op in shards:
            shard_op.attributes["annotate_for_users"] = ir.UnitAttr.get()
        splice_call(call, func)
        self.erase(call)
        self.erase(func)


def _prime_factors(n: int) -> list[int]:
    """`n`'s prime factors, smallest first, each as often as it divides `n`."""
    found, p = [], 2
    while p * p <= n:
        while n % p == 0:
            found.append(p)
            n //= p
        p += 1
    return found + ([n] if n > 1 else [])


def _factored(mesh: sdy.SdyMesh, refs: list[sdy.AxisRef]) -> sdy.MeshMapping:
    """`sdy.refine_mesh` with each axis also cut at its prime factors, smallest
    major, where those cuts nest with the ones its sub-axes use (an axis
    whose cuts would not nest keeps its own): a dimension split over the
    axis is split over the tuple of its pieces, so a reshape that divides
    it into fewer groups than the axis has devices (grouped-query
    attention's heads, group norm's channels) splits the groups over the
    major pieces and each group over the others, as Shardy's sub-axes do."""
    extra: list[sdy.AxisRef] = []
    for name, size in mesh.axes:
        cuts = [sdy.AxisRef(name, pre, p) for pre, p in _cuts(size)]
        try:
            sdy.refine_mesh(mesh, [*refs, *extra, *cuts])
        except FrontendError:
            continue
        extra += cuts
    return sdy.refine_mesh(mesh, [*refs, *extra])


def _cuts(size: int) -> list[tuple[int, int]]:
    """(pre_size, size) of each prime factor of an axis of `size`, major first."""
    out, pre = [], 1
    for p in _prime_factors(size):
        out.append((pre, p))
        pre *= p
    return out


def _boolean_kind(kind: str, t: ir.Type) -> str:
    """The partial kind of an i1 tensor unreduced with Shardy's (or GSPMD's)
    `kind`. Unreduced is a pending all-reduce: StableHLO's `all_reduce` with
    `add` (`maximum`, `minimum` for unreduced=max, min), on booleans or (or,
    and); not this dialect's `sum` of i1, which wraps (exclusive or), nor
    its `max`, `min` of i1, which are signed (and, or)."""
    from ...interfaces.registry import hlo_combiner_kind  # only for i1: a large module

    return hlo_combiner_kind(kind, t)


_SYMBOL_PROPERTIES: dict[str, tuple[str, ...]] = {
    "stablehlo.custom_call": ("called_computations", "backend_config"),
    "stablehlo.composite": ("decomposition", "composite_attributes"),
    "mhlo.custom_call": ("called_computations", "backend_config"),
    "mhlo.composite": ("decomposition", "composite_attributes"),
    "mhlo.async_start": ("called_computation",),
}
"""The properties of the JAX dialects' ops (unregistered here) that may name
a function, from their op definitions; their other ops name none."""
_SCHEMA_DIALECTS = ("stablehlo", "mhlo", "chlo", "sdy")


def _hidden_symbol_properties(context: ir.Context, name: str) -> tuple[str, ...] | None:
    """The properties of op `name` that its attributes leave out and may name
    a symbol; None when they are unknown. An unregistered op's properties
    (`<{called_computations = [@f]}>`) are not among its attributes, and no
    API lists them (MLIR's own symbol uses miss them too)."""
    if context.is_registered_operation(name):
        return ()
    if name in _SYMBOL_PROPERTIES:
        return _SYMBOL_PROPERTIES[name]
    return () if name.partition(".")[0] in _SCHEMA_DIALECTS else None


class _Symbols:
    """The symbols attributes name, at any depth of arrays and dictionaries
    (a nested reference `@f::@g` names `f`). Attributes are unique in MLIR,
    so an array or dictionary many ops share is read once."""

    def __init__(self) -> None:
        self.found: set[str] = set()
        self.read: set[ir.Attribute] = set()

    def add(self, attr: ir.Attribute) -> None:
        kind = type(attr)
        if kind is ir.FlatSymbolRefAttr:
            self.found.add(attr.value)
        elif kind is ir.SymbolRefAttr:
            self.found.add(attr.value[0])
        elif (kind is ir.ArrayAttr or kind is ir.DictAttr) and attr not in self.read:
            self.read.add(attr)
            for item in attr:
                self.add(item if kind is ir.ArrayAttr else item.attr)


_BARE_SYMBOL = re.compile(r"[A-Za-z_][\w$.]*\Z")


def _symbol_token(name: str) -> bytes:
    """`@name` as MLIR prints it: bare, or quoted with `\\\\`, `\\22` and
    `\\XX` escapes for a backslash, a quote and any other byte."""
    if _BARE_SYMBOL.match(name):
        return b"@" + name.encode()
    out = bytearray(b'@"')
    for byte in name.encode():
        if byte == 0x5C:
            out += b"\\\\"
        elif 0x20 <= byte < 0x7F and byte != 0x22:
            out.append(byte)
        else:
            out += b"\\%02X" % byte
    return bytes(out + b'"')


def _named_elsewhere(text: bytes, uses: dict[str, int]) -> list[str]:
    """The names the generic text of a module names in more places than
    their `uses` calls (a function's own name is a string there). A name
    inside a string counts too: the function is then kept."""
    tokens = {name: _symbol_token(name) for name in uses}
    alternatives = b"|".join(re.escape(t[1:]) for t in set(tokens.values()))
    counts = collections.Counter(re.findall(rb"@(" + alternatives + rb")(?![\w$.])", text))
    return [name for name, token in tokens.items() if counts[token[1:]] > uses[name]]


__all__ = ["ImportShardings"]
