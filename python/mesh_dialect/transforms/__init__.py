"""Passes, grouped by phase, and the flat registry the CLI reads.

A user pass becomes available to `mesh-opt` and pipelines by
`register_pass(MyPass)`.

The registry names this project's passes as "module:Class" and imports a
pass's module only when the pass is looked up; the names below (passes,
`Pass`, `OptionError`, ...) load on first use too. So `import mesh_dialect`
and a `mesh-opt` run without passes never load the planner or the
simulator, and `from mesh_dialect.transforms import MeshPartition` works
as before. No pass loads `mlir.dialects.linalg` on a program without
linalg ops (`ir.linalg_ops` builds the few they make).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis.mesh_analysis import MeshAnalysis
    from .base import OptionError, Pass, PassFailed, VerifyMesh
    from .cleanup.mesh_canonicalize import MeshCanonicalize
    from .frontend.export_shardings import ExportShardings
    from .frontend.import_shardings import ImportShardings
    from .lowering.mesh_lower_all_slice import MeshLowerAllSlice
    from .lowering.mesh_lower_process_multi_index import MeshLowerProcessMultiIndex
    from .optimize.mesh_optimize_collectives import MeshOptimizeCollectives
    from .partition.mesh_partition import MeshPartition, MeshSpmdization
    from .prepare.decompose_softmax import DecomposeSoftmax
    from .prepare.prepare_windows import PrepareWindows
    from .propagation.sharding_propagation import ShardingPropagation

# The passes of this project: pass argument -> "module (under this package):Class".
_BUILTIN_PASSES: dict[str, str] = {
    "mesh-canonicalize": "cleanup.mesh_canonicalize:MeshCanonicalize",
    "prepare-windows": "prepare.prepare_windows:PrepareWindows",
    "decompose-softmax": "prepare.decompose_softmax:DecomposeSoftmax",
    "sharding-propagation": "propagation.sharding_propagation:ShardingPropagation",
    "mesh-partition": "partition.mesh_partition:MeshPartition",
    "mesh-spmdization": "partition.mesh_partition:MeshSpmdization",
    "mesh-optimize-collectives": "optimize.mesh_optimize_collectives:MeshOptimizeCollectives",
    "mesh-lower-process-multi-index": "lowering.mesh_lower_process_multi_index:MeshLowerProcessMultiIndex",
    "mesh-lower-all-slice": "lowering.mesh_lower_all_slice:MeshLowerAllSlice",
    "test-mesh-resharding": "partition.test_mesh_resharding:TestMeshResharding",
    "mesh-verify": "base:VerifyMesh",
    "mesh-analysis": "analysis.mesh_analysis:MeshAnalysis",
    "import-shardings": "frontend.import_shardings:ImportShardings",
    "export-shardings": "frontend.export_shardings:ExportShardings",
}


def _load(target: str):
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


class PassRegistry(MutableMapping[str, "type[Pass]"]):
    """Pass argument -> pass class. Entries may be "module:Class" strings,
    imported on first lookup; listing the names (`in`, iteration, `len`)
    imports nothing."""

    def __init__(self, entries: dict[str, str | type[Pass]]):
        self._entries: dict[str, str | type[Pass]] = dict(entries)

    def __getitem__(self, name: str) -> type[Pass]:
        entry = self._entries[name]
        if isinstance(entry, str):
            entry = self._entries[name] = _load(entry)
        return entry

    def __setitem__(self, name: str, cls: type[Pass]) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"PassRegistry({sorted(self._entries)})"


PASSES: PassRegistry = PassRegistry(_BUILTIN_PASSES)

# Public names, imported on first use: name -> "module:name".
_LAZY: dict[str, str] = {target.partition(":")[2]: target for target in _BUILTIN_PASSES.values()}
_LAZY.update({name: f"base:{name}" for name in ("OptionError", "Pass", "PassFailed")})


def register_pass(cls: type[Pass]) -> type[Pass]:
    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        raise TypeError(f"register_pass takes a subclass of mesh_dialect.transforms.Pass, got {cls!r}")
    if not cls.ARGUMENT:
        raise ValueError(f"pass {cls.__name__} has no ARGUMENT")
    PASSES[cls.ARGUMENT] = cls
    return cls


def __getattr__(name: str):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = _load(target)
    globals()[name] = cls
    return cls


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "PASSES",
    "DecomposeSoftmax",
    "ExportShardings",
    "ImportShardings",
    "MeshAnalysis",
    "MeshCanonicalize",
    "MeshLowerAllSlice",
    "MeshLowerProcessMultiIndex",
    "MeshOptimizeCollectives",
    "MeshPartition",
    "MeshSpmdization",
    "OptionError",
    "Pass",
    "PassFailed",
    "PassRegistry",
    "PrepareWindows",
    "ShardingPropagation",
    "VerifyMesh",
    "register_pass",
]
