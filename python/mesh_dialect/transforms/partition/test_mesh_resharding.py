"""`test-mesh-resharding`: only the resharding part of partition, for tests.

Each `mesh.shard ... annotate_for_users` whose source is a `mesh.shard` of
another layout becomes the planner's collectives between the two, on the
local piece; `builtin.unrealized_conversion_cast` ops keep the rest of the
program in global types, as upstream's test pass of the same purpose does.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from mlir import ir

from ..base import Pass, mesh_scopes, redefined_mesh
from .limits import too_many_pieces
from .mesh_partition import _Partition, _read_sharding, _Unsupported


@dataclasses.dataclass
class TestMeshResharding(Pass):
    ARGUMENT: ClassVar[str] = "test-mesh-resharding"
    SUMMARY: ClassVar[str] = "Test pass: turn pairs of mesh.shard ops into the resharding collectives"

    def run(self, module: ir.Operation) -> None:
        meshes: dict[str, tuple[int, ...]] = {}
        # The walk, kept in plain Python: each mesh.shard of a pair once, and
        # pairs as (first, second, function) indices into that list.
        shards: list[ir.Operation] = []
        index: dict[ir.Operation, int] = {}
        pairs: list[tuple[int, int, ir.Operation]] = []

        def number(op: ir.Operation) -> int:
            if op not in index:
                index[op] = len(shards)
                shards.append(op)
            return index[op]

        shadowing: list[tuple[ir.Location, str]] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == "mesh.mesh":
                if op.parent is not None and op.parent.name != "builtin.module":
                    # as the other passes: a function's own mesh of a module mesh's name is refused
                    why = redefined_mesh(op, meshes)
                    if why is not None:
                        shadowing.append((op.location, why))
                        return ir.WalkResult.INTERRUPT
                meshes[op.attributes["sym_name"].value] = tuple(int(d) for d in op.attributes["shape"])
            elif op.name == "mesh.shard" and "annotate_for_users" in op.attributes:
                owner = op.operands[0].owner
                if isinstance(owner, ir.OpView | ir.Operation) and owner.name == "mesh.shard":
                    parent = op.parent
                    while parent is not None and parent.name != "func.func":
                        parent = parent.parent
                    first = owner.operation if isinstance(owner, ir.OpView) else owner
                    pairs.append((number(first), number(op), parent))
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.PRE_ORDER)
        if shadowing:
            raise self.error(*shadowing[0])
        # as mesh-partition: a dimension cut into more pieces than it lists is refused first
        for scope_meshes, functions in mesh_scopes(module):
            if (refused := too_many_pieces(scope_meshes, functions)) is not None:
                raise self.error(*refused)
        # Rewrite every pair before erasing anything: in a chain
        # (`%b = shard %a`, `%c = shard %b annotate_for_users`) the op that
        # ends one pair starts the next, and an erased op must never be
        # touched again, not even hashed (the bindings crash at random).
        # The local piece a rewritten annotation stands for: the next link of
        # a chain starts from it, not from the global value.
        local_of: dict[int, ir.Value] = {}
        for first, second, func in pairs:
            try:
                local_of[second] = self.rewrite(shards[first], shards[second], func, meshes, local_of.get(first))
            except _Unsupported as e:
                raise self.error(e.loc, str(e)) from None
        seconds = sorted({second for _, second, _ in pairs}, reverse=True)
        for i in seconds:
            shards[i].erase()
        done = set(seconds)
        for first in sorted({first for first, _, _ in pairs} - done, reverse=True):
            if not any(True for _ in shards[first].result.uses):
                shards[first].erase()

    def rewrite(self, first: ir.Operation, second: ir.Operation, func, meshes, local_in: ir.Value | None) -> ir.Value:
        """Reshard from `first`'s layout to `second`'s and return the local
        piece; `local_in` is the piece in `first`'s layout when an earlier
        pair made it. `second` loses its uses but stays for `run` to erase."""
        found, found2 = _read_sharding(first.operands[1]), _read_sharding(second.operands[1])
        if found is None or found2 is None:
            where = first if found is None else second
            raise _Unsupported(where.location, "resharding needs a mesh.sharding with static sizes here")
        (mesh, source), (mesh2, target) = found, found2
        if mesh != mesh2:
            raise _Unsupported(second.location, f"resharding from mesh @{mesh} to mesh @{mesh2}")
        p = _Partition(self, func, meshes)
        p.use_mesh(mesh, second.location)
        value = first.operands[0]
        global_type = value.type
        with second.location:
            ip = ir.InsertionPoint(second)
            if local_in is None:
                local_type = p.local_type(global_type, source, second.location)
                local_in = ir.Operation.create(
                    "builtin.unrealized_conversion_cast", results=[local_type], operands=[value], ip=ip
                ).result
            local = p.reshard(local_in, global_type, source, target, ip, second.location)
            cast_out = ir.Operation.create(
                "builtin.unrealized_conversion_cast", results=[global_type], operands=[local], ip=ip
            ).result
        second.result.replace_all_uses_with(cast_out)
        return local
