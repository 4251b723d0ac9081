"""`export-shardings`: this dialect's layouts as Shardy attributes for JAX.

Each function's argument and result layouts are written as `sdy.sharding`
attributes in its signature, and each mesh they use as an `sdy.mesh`, so a
JAX user can read them off (or, with `python=true`, copy the
`in_shardings`/`out_shardings` the pass prints as a remark) and pass them
to `jax.jit`.

Where a layout is read from, first found wins:

- a per-device function (after `mesh-partition`): its `mesh.sharding`
  signature attributes;
- an argument: its `mesh.shard` annotation, else the annotations for users
  its users agree on;
- a result: the `mesh.shard` that defines the returned value.

A value with none of these gets no attribute (JAX then chooses). Axis names
are the ones `import-shardings` kept in `mesh.axis_names` (pieces of a
split axis become Shardy sub-axes again, adjacent ones merged), else
"axis0", "axis1", ... Partial layouts become `unreduced` axes. Halos have
no Shardy counterpart, and neither do pieces cut other than Shardy cuts a
dimension its devices do not divide (ceil(n / k) each, the last ones
shorter; this dialect's default cut makes the last ones longer): such a
value gets a warning and no attribute. Explicit offsets equal to Shardy's
cut are written as the plain split they are.

With `strip` (the default) the annotations themselves go (`mesh.shard`,
`mesh.sharding`, `mesh.sharding_option`, the signature's `mesh.sharding`)
and so does every `mesh.mesh` nothing uses any more, which leaves the plain
program with Shardy attributes, as JAX exports it. An `sdy.mesh` takes its
mesh's name, or `<name>_sdy` while the `mesh.mesh` stays.
"""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

from mlir import ir

from ...frontends import FrontendError, gspmd, sdy
from ...ir.schema import DYNAMIC
from ...ir.syntax import Unprintable, decode_sharding_attr
from ...ir.types import is_boolean
from ...sharding.spec import Sharding, split_piece
from ..base import Pass, fresh_name, sharding_of, symbol_names

_MESH_ATTR = "mesh.sharding"


@dataclasses.dataclass
class ExportShardings(Pass):
    ARGUMENT: ClassVar[str] = "export-shardings"
    SUMMARY: ClassVar[str] = "Write argument and result layouts as sdy.sharding attributes and meshes as sdy.mesh"
    DESCRIPTION: ClassVar[str] = (
        "Each function's argument and result layouts (from its signature, its annotations, or the annotation "
        "defining a returned value) become sdy.sharding attributes; each mesh used becomes an sdy.mesh. With "
        "strip (default) the mesh annotations and unused meshes are removed; python=true prints the jit "
        "shardings as a remark."
    )

    strip: bool = dataclasses.field(default=True, metadata={"help": "remove the annotations and meshes nothing uses"})
    python: bool = dataclasses.field(
        default=False, metadata={"help": "a remark with jax.make_mesh, in_shardings and out_shardings"}
    )

    def run(self, module: ir.Operation) -> None:
        if not module.context.allow_unregistered_dialects:
            # The sdy dialect is not loaded: its attributes and ops exist
            # only as unregistered ones (the flag cannot change mid-run).
            raise self.error(
                module.location, "export-shardings writes sdy attributes, which need --allow-unregistered-dialect"
            )
        body = module.regions[0].blocks[0]
        self.meshes: dict[str, ir.Operation] = {}
        functions: list[ir.Operation] = []
        for op in body.operations:
            op = op.operation
            if op.name == "mesh.mesh":
                self.meshes[op.attributes["sym_name"].value] = op
            elif op.name == "func.func" and len(op.regions[0].blocks):
                functions.append(op)
        self.used: dict[str, tuple[sdy.SdyMesh, list[sdy.AxisRef]]] = {}
        found = [(func, self.signature(func)) for func in functions]
        if self.strip:
            for func in functions:
                self.strip_annotations(func)
        kept = self.meshes_in_use(module) if self.strip else set(self.meshes)
        taken = symbol_names(body)
        names = {}
        for mesh in self.used:
            name = mesh
            if mesh in kept:  # the mesh.mesh stays: the sdy.mesh takes a free name beside it
                name = fresh_name(f"{mesh}_sdy", taken)
                taken.add(name)
            names[mesh] = name
        for func, (args, results) in found:
            self.write(func, "arg_attrs", args, names)
            self.write(func, "res_attrs", results, names)
            if self.python:
                self.snippet(func, args, results)
        for mesh, (smesh, _) in self.used.items():
            op = self.meshes[mesh]
            text = f'"sdy.mesh"() <{{mesh = #sdy.mesh{smesh.text()}, sym_name = "{names[mesh]}"}}> : () -> ()'
            with op.location:
                made = ir.Operation.parse(text)
            ir.InsertionPoint(op).insert(made)
            self.mark_created(made)
        for mesh, op in self.meshes.items():
            if mesh not in kept:
                self.erase(op)

    # -- reading layouts ----------------------------------------------------------

    def signature(self, func: ir.Operation) -> tuple[list, list]:
        """(mesh, layout, rank) or None per argument and per result."""
        entry = func.regions[0].blocks[0]
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        attrs_args = self.attr_layouts(func, "arg_attrs", len(entry.arguments))
        attrs_results = self.attr_layouts(func, "res_attrs", len(ftype.results))
        args = []
        for arg, given in zip(entry.arguments, attrs_args):
            # a layout in the signature is a per-device function's: its type is a piece
            local = given is not None
            what = f"argument {arg.arg_number}"
            args.append(self.checked(func, given or self.argument_layout(arg), arg.type, what, local))
        returns = [op for op in entry.operations if op.operation.name == "func.return"]
        results = []
        for i, given in enumerate(attrs_results):
            local = given is not None
            if given is None and len(returns) == 1:
                given = self.defining_layout(returns[0].operation.operands[i])
            results.append(self.checked(func, given, ftype.results[i], f"result {i}", local))
        return args, results

    def attr_layouts(self, func: ir.Operation, key: str, count: int) -> list[tuple[str, Sharding] | None]:
        out: list[tuple[str, Sharding] | None] = [None] * count
        if key not in func.attributes:
            return out
        for i, d in enumerate(ir.ArrayAttr(func.attributes[key])):
            d = ir.DictAttr(d)
            if _MESH_ATTR in d:
                try:
                    mesh, split, partial, kind, halos, offsets = decode_sharding_attr(str(d[_MESH_ATTR]))
                except Unprintable:
                    continue
                out[i] = (
                    mesh[1:],
                    Sharding(tuple(map(tuple, split)), tuple(partial), kind, tuple(halos), tuple(offsets)),
                )
        return out

    @staticmethod
    def argument_layout(arg: ir.Value) -> tuple[str, Sharding] | None:
        for_users: set[tuple[str, Sharding]] = set()
        for use in arg.uses:
            user = use.owner
            user = user.operation if hasattr(user, "operation") else user
            if user.name != "mesh.shard" or use.operand_number != 0:
                continue
            found = sharding_of(user.operands[1])
            if found is None:
                continue
            if "annotate_for_users" not in user.attributes:
                return found[0], found[1]
            for_users.add((found[0], found[1]))
        return next(iter(for_users)) if len(for_users) == 1 else None

    @staticmethod
    def defining_layout(value: ir.Value) -> tuple[str, Sharding] | None:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return ExportShardings.argument_layout(value)
        owner = owner.operation if hasattr(owner, "operation") else owner
        if owner.name != "mesh.shard":
            return None
        found = sharding_of(owner.operands[1])
        return None if found is None else (found[0], found[1])

    def checked(self, func: ir.Operation, found, t: ir.Type, what: str, local: bool = False):
        """(sdy mesh name, TensorSharding) for a layout Shardy can hold; `t`
        is a piece's type when `local`; `what` names the value in warnings."""
        if found is None or not isinstance(t, ir.RankedTensorType):
            return None
        mesh, layout = found
        if layout.halo_sizes:
            self.warning(func.location, f"halos have no shardy counterpart; left out of {what}: {layout}")
            return None
        if DYNAMIC in layout.sharded_dims_offsets:
            self.warning(
                func.location,
                f"piece offsets known only at run time have no shardy counterpart; left out of {what}: {layout}",
            )
            return None
        if mesh not in self.meshes:
            return None
        mesh_shape = [int(d) for d in self.meshes[mesh].attributes["shape"]]
        if any(d < 1 for d in mesh_shape):
            shape = "x".join("?" if d < 1 else str(d) for d in mesh_shape)
            self.warning(
                func.location,
                f"a mesh of dynamic size has no shardy counterpart (@{mesh}, shape {shape}); "
                f"left out of {what}: {layout}",
            )
            return None
        smesh, refs = self.sdy_mesh(mesh)
        tensor = ir.RankedTensorType(t)
        ours, shardys = _cuts(layout, mesh_shape, tensor, local)
        if ours != shardys:
            # Shardy cuts a dimension its devices do not divide into pieces
            # of ceil(n / k), the last ones shorter; another cut has no
            # Shardy spelling, and writing the layout without it would
            # hand JAX different pieces.
            if ours is None:
                rule = "explicit pieces of a dynamic dimension have no shardy counterpart"
            else:
                rule = f"shardy would cut the pieces at {list(shardys)}, this layout cuts them at {list(ours)}"
            self.warning(func.location, f"{rule}; left out of {what}: {layout}")
            return None
        layout = dataclasses.replace(layout, sharded_dims_offsets=())
        try:
            return mesh, sdy.from_layout(layout, mesh, smesh, refs, tensor.rank, boolean=is_boolean(tensor))
        except FrontendError as e:
            self.warning(func.location, f"{e}; left out of {what}")
            return None

    def sdy_mesh(self, mesh: str) -> tuple[sdy.SdyMesh, list[sdy.AxisRef]]:
        if mesh not in self.used:
            op = self.meshes[mesh]
            shape = [int(d) for d in op.attributes["shape"]]
            names = None
            if "mesh.axis_names" in op.attributes:
                given = op.attributes["mesh.axis_names"]
                if not isinstance(given, ir.ArrayAttr) or not all(isinstance(a, ir.StringAttr) for a in given):
                    raise self.error(op.location, f"mesh.axis_names must be an array of strings, got {given}")
                names = [ir.StringAttr(a).value for a in given]
            smesh, refs = sdy.mesh_from_names(shape, names)
            if "mesh.device_ids" in op.attributes:
                given = op.attributes["mesh.device_ids"]
                ids = tuple(int(i) for i in given) if isinstance(given, ir.DenseI64ArrayAttr) else None
                if ids is None or sorted(ids) != list(range(math.prod(shape))):
                    raise self.error(
                        op.location,
                        f"mesh.device_ids must be an array<i64> listing devices 0 to {math.prod(shape) - 1} once "
                        f"each, got {given}",
                    )
                smesh = sdy.SdyMesh(smesh.axes, ids)
            self.used[mesh] = (smesh, refs)
        return self.used[mesh]

    # -- writing ------------------------------------------------------------------

    def write(self, func: ir.Operation, key: str, found: list, names: dict[str, str]) -> None:
        entries: list[dict[str, ir.Attribute]] = [{} for _ in found]
        if key in func.attributes:
            for i, d in enumerate(ir.ArrayAttr(func.attributes[key])):
                entries[i] = {a.name: a.attr for a in ir.DictAttr(d) if not (self.strip and a.name == _MESH_ATTR)}
        context = func.context
        for entry, item in zip(entries, found):
            if item is not None:
                mesh, ts = item
                ts = dataclasses.replace(ts, mesh=names[mesh])
                entry["sdy.sharding"] = ir.Attribute.parse(ts.text(), context)
        if any(entries):
            func.attributes[key] = ir.ArrayAttr.get([ir.DictAttr.get(e, context) for e in entries])
        elif key in func.attributes:
            del func.attributes[key]

    def snippet(self, func: ir.Operation, args: list, results: list) -> None:
        """The jit shardings, for a remark: NamedSharding(mesh, P(...)) per
        value, None where JAX may choose or where a sub-axis (which a
        PartitionSpec cannot name) is used."""
        notes: list[str] = []

        def spec(item, what: str) -> str:
            if item is None:
                return "None"
            ts = item[1]
            if any(a.size is not None for a in ts.axis_refs()):
                notes.append(f"# {what}: {ts.text()} uses sub-axes, which a PartitionSpec cannot name")
                return "None"
            if ts.unreduced and ts.reduction != "sum":
                notes.append(f"# {what}: {ts.text()} is unreduced by {ts.reduction}, which a PartitionSpec cannot say")
                return "None"
            return f"NamedSharding(mesh, {sdy.partition_spec(ts)})"

        def tuple_of(items: list[str]) -> str:
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

        meshes = sorted({item[0] for item in args + results if item is not None})
        lines = []
        for mesh in meshes:
            smesh, _ = self.used[mesh]
            sizes = tuple_of([str(s) for _, s in smesh.axes])
            axes = tuple_of([repr(n) for n, _ in smesh.axes])
            name = "mesh" if len(meshes) == 1 else mesh
            ids = smesh.device_ids
            if ids and list(ids) != list(range(len(ids))):
                # make_mesh picks its own device order: this one is given
                order = "[" + ", ".join(map(str, ids)) + "]"
                lines.append(f"{name} = jax.sharding.Mesh(np.asarray(jax.devices())[{order}].reshape({sizes}), {axes})")
            else:
                lines.append(f"{name} = jax.make_mesh({sizes}, {axes})")
        lines.append("in_shardings = " + tuple_of([spec(a, f"argument {i}") for i, a in enumerate(args)]))
        lines.append("out_shardings = " + tuple_of([spec(r, f"result {i}") for i, r in enumerate(results)]))
        self.remark(
            func.location, f"jit shardings of @{func.attributes['sym_name'].value}:\n" + "\n".join(lines + notes)
        )

    def strip_annotations(self, func: ir.Operation) -> None:
        ops: list[ir.Operation] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            ops.append(op)
            return ir.WalkResult.ADVANCE

        func.walk(visit, ir.WalkOrder.POST_ORDER)
        shardings: list[ir.Operation] = []
        for op in ops:
            if op.name == "mesh.shard":
                op.results[0].replace_all_uses_with(op.operands[0])
                self.erase(op)
                continue
            if op.name == "mesh.sharding":
                shardings.append(op)
            if "mesh.sharding_option" in op.attributes:
                del op.attributes["mesh.sharding_option"]
        for op in shardings:
            if not len(list(op.results[0].uses)):
                self.erase(op)

    @staticmethod
    def meshes_in_use(module: ir.Operation) -> set[str]:
        used: set[str] = set()

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name.startswith("mesh.") and op.name != "mesh.mesh" and "mesh" in op.attributes:
                attr = op.attributes["mesh"]
                used.add(
                    ir.FlatSymbolRefAttr(attr).value
                    if isinstance(attr, ir.FlatSymbolRefAttr)
                    else str(attr).lstrip("@")
                )
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.PRE_ORDER)
        return used


_LISTED_PIECES = 1 << 12
"""The most pieces of one dimension `_cuts` lists to compare."""


def _cuts(
    layout: Sharding, mesh_shape: list[int], t: ir.RankedTensorType, local: bool
) -> tuple[tuple | None, tuple | None]:
    """Where each split dimension's pieces start (and the last ends), as
    `layout` cuts them and as Shardy would; (None, None) when they agree.
    `t` is the whole tensor's type, or with `local` a piece's: its pieces
    are then even (a per-device signature states an uneven cut as offsets)."""
    split = [(d, axes) for d, axes in enumerate(layout.split_axes) if axes]
    given = layout.sharded_dims_offsets
    # a piece's dynamic size says nothing when the offsets give the whole one
    sized_by_offsets = local and bool(given)
    dynamic = (not sized_by_offsets and any(t.is_dynamic_dim(d) for d, _ in split if d < t.rank)) or any(
        mesh_shape[a] < 1 for _, axes in split for a in axes if a < len(mesh_shape)
    )
    if dynamic:
        # an explicit cut of a dynamic size cannot be matched; a default one
        # is exported as before
        return (None, ()) if given else (None, None)
    ours: list[int | str] = []
    shardys: list[int | str] = []
    at = 0  # where dimension d's offsets start in `given`
    for d, axes in split:
        k = 1
        for a in axes:
            k *= mesh_shape[a] if a < len(mesh_shape) else 1
        n = t.shape[d] if d < t.rank else 1
        if given:
            n = given[at + k] if at + k < len(given) else n
            at += k + 1
        elif local:
            n *= k
        if not given and n % k == 0:
            continue  # even pieces: both cuts are the same
        if not given and k > _LISTED_PIECES:  # too many to list: the two cuts differ (n % k > 0)
            return (f"{n} over {k} pieces, the last {n % k} one larger",), (f"{n} over {k} pieces of {-(-n // k)}",)
        shardys += gspmd.xla_cut(n, k)
        if not given:
            ours += [split_piece(n, k, i)[0] for i in range(k)] + [n]
    if given:
        ours = list(given)
    if ours == shardys:
        return None, None
    return tuple(ours), tuple(shardys)


__all__ = ["ExportShardings"]
