// 5 elements over 2 devices: the pieces have 2 and 3, a dynamic shape once
// partitioned.
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<5xi1>) -> tensor<5xi1> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<5xi1>
  %0 = arith.xori %as, %as : tensor<5xi1>
  %r = mesh.shard %0 to %s : tensor<5xi1>
  return %r : tensor<5xi1>
}
