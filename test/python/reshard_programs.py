"""One reshard as a program, partitioned: shared by the tests that simulate
`uneven_problems` through mesh-partition."""

from __future__ import annotations

import math

import numpy as np
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.sharding import Sharding
from mesh_dialect.transforms import MeshPartition


def pattern_tensor(shape: tuple[int, ...]) -> np.ndarray:
    """Small distinct-looking int32 values, so a misplaced piece shows."""
    return (np.arange(math.prod(shape), dtype=np.int64).reshape(shape) * 7 % 23 - 11).astype(np.int32)


def reshard_program(shape, mesh_shape, source: Sharding, target: Sharding) -> str:
    """@f: its argument in `source`, resharded to `target`, then (for a
    target that is not partial) work on the pieces: `x + x`."""
    t = "tensor<" + "x".join(map(str, shape)) + "xi32>"
    work = f"""  %2 = arith.addi %1, %1 : {t}
  %3 = mesh.shard %2 to %t : {t}
  return %3 : {t}"""
    if target.is_partial:  # elementwise ops do not take partial sums: return it as it is
        work = f"  return %1 : {t}"
    return f"""
mesh.mesh @m(shape = {"x".join(map(str, mesh_shape))})
func.func @f(%x: {t}) -> {t} {{
  %s = mesh.sharding @m {source} : !mesh.sharding
  %t = mesh.sharding @m {target} : !mesh.sharding
  %0 = mesh.shard %x to %s : {t}
  %1 = mesh.shard %0 to %t annotate_for_users : {t}
{work}
}}
"""


def dynamic_reshard_program(
    shape, dynamic, mesh_shape, source: Sharding, target: Sharding, dynamic_axes=frozenset()
) -> str:
    """`reshard_program` with the tensor dimensions `dynamic` and the mesh
    axes `dynamic_axes` written `?`."""
    text = reshard_program(shape, mesh_shape, source, target)
    static_type = "tensor<" + "x".join(map(str, shape)) + "xi32>"
    dynamic_type = "tensor<" + "x".join("?" if d in dynamic else str(n) for d, n in enumerate(shape)) + "xi32>"
    dynamic_mesh = "x".join("?" if a in dynamic_axes else str(n) for a, n in enumerate(mesh_shape))
    text = text.replace(static_type, dynamic_type)
    return text.replace("shape = " + "x".join(map(str, mesh_shape)) + ")", f"shape = {dynamic_mesh})")


def partitioned(text: str, **options) -> ir.Operation:
    """`text` parsed and partitioned (`options`: mesh-partition's), the result verified."""
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    pm = PassManager("builtin.module", context=module.context)
    MeshPartition(**options).add_to(pm)
    pm.run(module)
    mesh_dialect.verify(module)
    return module
