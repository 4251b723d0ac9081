"""Passes, grouped by phase, and the flat registry the CLI reads.

A user pass becomes available to `mesh-opt` and pipelines by
`register_pass(MyPass)`.
"""

from __future__ import annotations

from .base import OptionError, Pass, PassFailed, VerifyMesh
from .cleanup.mesh_canonicalize import MeshCanonicalize
from .optimize.mesh_optimize_collectives import MeshOptimizeCollectives
from .partition.mesh_partition import MeshPartition, MeshSpmdization
from .partition.test_mesh_resharding import TestMeshResharding
from .propagation.sharding_propagation import ShardingPropagation

PASSES: dict[str, type[Pass]] = {}


def register_pass(cls: type[Pass]) -> type[Pass]:
    if not cls.ARGUMENT:
        raise ValueError(f"pass {cls.__name__} has no ARGUMENT")
    PASSES[cls.ARGUMENT] = cls
    return cls


for _cls in (
    MeshCanonicalize,
    ShardingPropagation,
    MeshPartition,
    MeshSpmdization,
    MeshOptimizeCollectives,
    TestMeshResharding,
    VerifyMesh,
):
    register_pass(_cls)

__all__ = [
    "PASSES",
    "MeshCanonicalize",
    "MeshOptimizeCollectives",
    "MeshPartition",
    "MeshSpmdization",
    "OptionError",
    "Pass",
    "PassFailed",
    "ShardingPropagation",
    "VerifyMesh",
    "register_pass",
]
