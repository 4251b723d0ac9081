"""Passes that lower mesh ops toward what a runtime offers: a process
rank and local tensor ops (the step before upstream's MPI conversion)."""

from __future__ import annotations

from .mesh_lower_all_slice import MeshLowerAllSlice
from .mesh_lower_process_multi_index import MeshLowerProcessMultiIndex

__all__ = ["MeshLowerAllSlice", "MeshLowerProcessMultiIndex"]
