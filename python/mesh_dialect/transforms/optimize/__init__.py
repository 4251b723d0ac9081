"""Passes that improve partitioned (per-device) programs."""

from __future__ import annotations

from .mesh_optimize_collectives import MeshOptimizeCollectives

__all__ = ["MeshOptimizeCollectives"]
