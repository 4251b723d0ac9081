// A value split along a dynamic dimension inside a region that may run
// once per element cannot have its size read there: the pieces' sizes
// would be summed by a collective in that region.
// RUN: mesh-opt --mesh-partition %s -verify-diagnostics -o /dev/null


mesh.mesh @m(shape = 4)

func.func @split_inside(%x: tensor<?x3xi32>) -> tensor<5xindex> {
  %g = tensor.generate {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %n0 = tensor.dim %x, %c0 : tensor<?x3xi32>
    %e = tensor.empty(%n0) : tensor<?x3xi32>
    %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
    %es = mesh.shard %e to %s : tensor<?x3xi32>
    // expected-error @+1 {{the size of a value split along its dynamic dimension 0 is read in the region of 'tensor.generate', which may run once per element, where the pieces' sizes cannot be summed; annotate the value outside that region}}
    %n = tensor.dim %es, %c0 : tensor<?x3xi32>
    %v = arith.addi %n, %i : index
    tensor.yield %v : index
  } : tensor<5xindex>
  return %g : tensor<5xindex>
}
