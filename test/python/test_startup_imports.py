"""Start-up loads only what a run uses: `import mesh_dialect` and a
`mesh-opt` run without passes must not import the simulator, the
resharding planner (numpy-heavy), the upstream interop, the pass modules or
`mlir.dialects.linalg`; a pass's module loads when the pass is named.
(numpy itself is always loaded: `mlir.ir` imports it.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import mesh_dialect
from mesh_dialect import transforms
from mesh_dialect.transforms import PASSES

# Modules (and their submodules) a run without passes never needs.
HEAVY = (
    "mesh_dialect.sim",
    "mesh_dialect.interop",
    "mesh_dialect.sharding.resharding",
    "mesh_dialect.interfaces",
    "mesh_dialect.transforms.cleanup",
    "mesh_dialect.transforms.optimize",
    "mesh_dialect.transforms.partition",
    "mesh_dialect.transforms.propagation",
    "mlir.dialects.linalg",
    "rich",
)

SMALL = """\
mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  return %x : tensor<8x16xf32>
}
"""


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    script = f"{code}\nimport json, sys\nprint('\\nMODULES=' + json.dumps(sorted(sys.modules)))"
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    line = p.stdout.rsplit("MODULES=", 1)[1]
    return set(json.loads(line))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_import_mesh_dialect_loads_nothing_heavy():
    assert heavy(loaded_after("import mesh_dialect")) == []


def test_mesh_opt_run_without_passes_loads_nothing_heavy(tmp_path: Path):
    src = tmp_path / "small.mlir"
    src.write_text(SMALL)
    code = (
        "from mesh_dialect.tools.mesh_opt import main\n"
        f"assert main([{str(src)!r}, '-o', {str(tmp_path / 'out.mlir')!r}]) == 0"
    )
    assert heavy(loaded_after(code)) == []
    assert "func.func @f" in (tmp_path / "out.mlir").read_text()


def test_a_pass_loads_its_own_module_only(tmp_path: Path):
    src = tmp_path / "small.mlir"
    src.write_text(SMALL)
    code = f"from mesh_dialect.tools.mesh_opt import main\nassert main([{str(src)!r}, '--mesh-canonicalize']) == 0"
    assert heavy(loaded_after(code)) == [
        "mesh_dialect.transforms.cleanup",
        "mesh_dialect.transforms.cleanup.mesh_canonicalize",
    ]


HLO = """\
mesh.mesh @m(shape = 4)
func.func @f(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x12xf32>
  %c = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.dynamic_slice"(%xs, %c, %c) <{slice_sizes = array<i64: 8, 12>}>
      : (tensor<8x12xf32>, tensor<i32>, tensor<i32>) -> tensor<8x12xf32>
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %yr = mesh.shard %y to %r : tensor<8x12xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %w = "stablehlo.reduce_window"(%xs, %z)
      <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x12xf32>, tensor<f32>) -> tensor<8x12xf32>
  %ws = mesh.shard %w to %s : tensor<8x12xf32>
  %o = "stablehlo.add"(%yr, %ws) : (tensor<8x12xf32>, tensor<8x12xf32>) -> tensor<8x12xf32>
  return %o : tensor<8x12xf32>
}
"""


def test_partitioning_an_hlo_program_never_loads_the_linalg_python_package(tmp_path: Path):
    # `mlir.dialects.linalg` builds every named op of its DSL when imported
    # (about 90 ms of a small run): the passes build and read linalg ops
    # through `ir.linalg_ops`, so a program without one never loads it, even
    # where partition adds a fill (the zeros of a window's halo)
    src = tmp_path / "hlo.mlir"
    src.write_text(HLO)
    out = tmp_path / "out.mlir"
    pipeline = "--pass-pipeline=builtin.module(mesh-spmd-pipeline)"
    code = (
        "from mesh_dialect.tools.mesh_opt import main\n"
        f"assert main([{str(src)!r}, '--allow-unregistered-dialect', {pipeline!r}, '-o', {str(out)!r}]) == 0"
    )
    modules = loaded_after(code)
    assert "mesh_dialect.transforms.partition.mesh_partition" in modules
    assert sorted(m for m in modules if m.startswith("mlir.dialects.linalg")) == []
    assert "linalg.fill" in out.read_text()


def test_registry_names_every_pass_without_importing_it():
    code = "from mesh_dialect.transforms import PASSES\nassert 'mesh-partition' in PASSES and len(sorted(PASSES)) >= 7"
    assert heavy(loaded_after(code)) == []


def test_every_registered_name_is_its_pass_argument():
    names = sorted(PASSES)
    assert {
        "mesh-canonicalize",
        "mesh-optimize-collectives",
        "mesh-partition",
        "mesh-spmdization",
        "mesh-verify",
        "sharding-propagation",
        "test-mesh-resharding",
    } <= set(names)
    for name in names:
        assert PASSES[name].ARGUMENT == name
        assert PASSES.get(name) is PASSES[name]


def test_public_names_still_work():
    from mesh_dialect.interop import compare, to_upstream
    from mesh_dialect.transforms import MeshOptimizeCollectives, MeshPartition, MeshSpmdization, ShardingPropagation

    assert mesh_dialect.ShardingPropagation is ShardingPropagation is PASSES["sharding-propagation"]
    assert mesh_dialect.MeshCanonicalize is transforms.MeshCanonicalize is PASSES["mesh-canonicalize"]
    assert transforms.MeshPartition is MeshPartition and issubclass(MeshSpmdization, MeshPartition)
    assert MeshOptimizeCollectives.ARGUMENT == "mesh-optimize-collectives"
    assert callable(compare) and callable(to_upstream)
    for name in ("MeshCanonicalize", "ShardingPropagation", "PASSES", "register_pass"):
        assert name in dir(mesh_dialect)
    assert "MeshPartition" in dir(transforms)


def test_unknown_names_are_attribute_errors():
    import mesh_dialect.interop

    for module in (mesh_dialect, transforms, mesh_dialect.interop):
        assert not hasattr(module, "NoSuchThing")


def test_register_pass_adds_to_the_registry():
    from dataclasses import dataclass
    from typing import ClassVar

    @dataclass
    class Noop(transforms.Pass):
        ARGUMENT: ClassVar[str] = "test-startup-noop"

        def run(self, module) -> None:
            pass

    try:
        assert mesh_dialect.register_pass(Noop) is Noop
        assert "test-startup-noop" in PASSES and PASSES["test-startup-noop"] is Noop
    finally:
        del PASSES["test-startup-noop"]


def test_the_sharding_algebra_and_planner_import_nothing_of_the_simulator():
    # the arrows point down: the planner is pure layout algebra, and running
    # its plans on arrays (`sim.plans.execute`) is the simulator's business
    modules = loaded_after(
        "import mesh_dialect.sharding.spec, mesh_dialect.sharding.resharding, "
        "mesh_dialect.sharding.placements, mesh_dialect.sharding.costs"
    )
    assert sorted(m for m in modules if m.startswith("mesh_dialect.sim")) == []
