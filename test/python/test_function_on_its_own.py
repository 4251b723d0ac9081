"""A function checked or transformed on its own (a verifier call on one
func.func, a pass manager anchored on func.func as upstream's passes are)
finds the meshes of its module."""

from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.transforms import ShardingPropagation

_TEXT = """
mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  %1 = math.exp %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""


def _function(module):
    return next(op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func")


def test_a_function_verified_on_its_own_finds_its_modules_mesh():
    module = mesh_dialect.parse(_TEXT, context=mesh_dialect.context())
    assert mesh_dialect.diagnose(_function(module)) == []
    mesh_dialect.verify(_function(module))


def test_a_pass_anchored_on_a_function_reads_its_modules_meshes():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(_TEXT, context=ctx)
    pm = PassManager("func.func", context=ctx)
    ShardingPropagation().add_to(pm)
    pm.run(_function(module).operation)
    text = mesh_dialect.print_ir(module)
    assert "math.exp %2 {mesh.sharding_option = #mesh.sharding<@mesh, [[0]]>} : tensor<8xf32>" in text
