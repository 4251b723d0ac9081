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

from ..base import Pass
from .mesh_partition import _Partition, _read_sharding, _Unsupported


@dataclasses.dataclass
class TestMeshResharding(Pass):
    ARGUMENT: ClassVar[str] = "test-mesh-resharding"
    SUMMARY: ClassVar[str] = "Test pass: turn pairs of mesh.shard ops into the resharding collectives"

    def run(self, module: ir.Operation) -> None:
        meshes: dict[str, tuple[int, ...]] = {}
        pairs: list[tuple[ir.Operation, ir.Operation, ir.Operation]] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == "mesh.mesh":
                meshes[op.attributes["sym_name"].value] = tuple(int(d) for d in op.attributes["shape"])
            elif op.name == "mesh.shard" and "annotate_for_users" in op.attributes:
                owner = op.operands[0].owner
                if isinstance(owner, ir.OpView | ir.Operation) and owner.name == "mesh.shard":
                    parent = op.parent
                    while parent is not None and parent.name != "func.func":
                        parent = parent.parent
                    pairs.append((owner.operation if isinstance(owner, ir.OpView) else owner, op, parent))
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.PRE_ORDER)
        for first, second, func in pairs:
            try:
                self.rewrite(first, second, func, meshes)
            except _Unsupported as e:
                raise self.error(e.loc, str(e)) from None

    def rewrite(self, first: ir.Operation, second: ir.Operation, func, meshes) -> None:
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
            local_in = p.local_type(global_type, source, second.location)
            cast_in = ir.Operation.create(
                "builtin.unrealized_conversion_cast", results=[local_in], operands=[value], ip=ip
            ).result
            local = p.reshard(cast_in, global_type, source, target, ip, second.location)
            cast_out = ir.Operation.create(
                "builtin.unrealized_conversion_cast", results=[global_type], operands=[local], ip=ip
            ).result
        second.result.replace_all_uses_with(cast_out)
        second.erase()
        if not len(list(first.result.uses)):
            first.erase()
