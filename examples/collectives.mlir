// A two-layer MLP written by hand in SPMD form on a 2x4 mesh: activations
// split over axis 0, weights split over axis 1. `python3 dev.py demo` runs
// `mesh-opt --mesh-canonicalize` on it: the all_reduce over the size-1
// axis of @tiny folds away, the duplicate sharding merges, and the
// unused mesh query is erased.
mesh.mesh @mesh(shape = 2x4)
mesh.mesh @tiny(shape = 1)

func.func @mlp(%x: tensor<4x64xf32>, %w1: tensor<64x32xf32>, %w2: tensor<32x64xf32>) -> tensor<4x64xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %rows_again = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<4x32xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%init1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  // Each device holds a 32-column slice of W1: the hidden layer comes out split.
  %h = linalg.matmul ins(%xs, %w1 : tensor<4x64xf32>, tensor<64x32xf32>) outs(%acc1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %init2 = tensor.empty() : tensor<4x64xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%init2 : tensor<4x64xf32>) -> tensor<4x64xf32>
  // The second matmul contracts the split dimension: partial sums to reduce
  // over mesh axis 1.
  %partial = linalg.matmul ins(%h, %w2 : tensor<4x32xf32>, tensor<32x64xf32>) outs(%acc2 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %y = mesh.all_reduce %partial on @mesh mesh_axes = [1] : tensor<4x64xf32> -> tensor<4x64xf32>
  %same = mesh.all_reduce %y on @tiny mesh_axes = [0] : tensor<4x64xf32> -> tensor<4x64xf32>
  %ys = mesh.shard %same to %rows_again : tensor<4x64xf32>
  %unused:2 = mesh.mesh_shape @mesh : index, index
  return %ys : tensor<4x64xf32>
}
