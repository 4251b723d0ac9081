// A rooted collective whose root is known only at run time is counted in
// its costlier role, and the note says which: a broadcast's or scatter's
// root receives nothing, a reduce's or gather's receives everything (the
// note said "the root" for all four).
// RUN: mesh-opt --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: max     broadcast 1, reduce 1, scatter 1           136
// CHECK: note: {{.*}}:[[@LINE+9]]:8: 'mesh.broadcast' with a root known only at run time: counted as a device other than the root
// CHECK: note: {{.*}}:[[@LINE+9]]:8: 'mesh.scatter' with a root known only at run time: counted as a device other than the root
// CHECK: note: {{.*}}:[[@LINE+9]]:8: 'mesh.reduce' with a root known only at run time: counted as the root

mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}, %r: index)
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
        tensor<2xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
        tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>}) {
  %0 = mesh.broadcast %x on @mesh mesh_axes = [0] root = [%r] : (tensor<8xi32>, index) -> tensor<8xi32>
  %1 = mesh.scatter %x on @mesh mesh_axes = [0] scatter_axis = 0 root = [%r] : (tensor<8xi32>, index) -> tensor<2xi32>
  %2 = mesh.reduce %x on @mesh mesh_axes = [0] root = [%r] : (tensor<8xi32>, index) -> tensor<8xi32>
  return %0, %1, %2 : tensor<8xi32>, tensor<2xi32>, tensor<8xi32>
}
