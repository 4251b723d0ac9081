"""Meshes and shardings as plain Python values (no MLIR): the layout rules
every consumer of the dialect's shardings must agree on."""

from . import placements
from .spec import MAX_LISTED_DEVICES, REDUCTION_KINDS, Device, Mesh, MeshError, Sharding, ShardingError

__all__ = [
    "MAX_LISTED_DEVICES",
    "placements",
    "REDUCTION_KINDS",
    "Device",
    "Mesh",
    "MeshError",
    "Sharding",
    "ShardingError",
]
