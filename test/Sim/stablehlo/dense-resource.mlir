// torch-mlir's parameters: arith.constant dense_resource<...> with the data
// in the file's {-# dialect_resources #-} section (4 bytes of alignment, then
// the raw little-endian elements). The simulator reads the blobs; partition
// slices the whole constant where a split layout needs a piece, and prints
// the blobs back, so the per-device program runs and matches the original.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 3 -q | FileCheck %s
// CHECK: match

// IR: %[[W:.*]] = arith.constant dense_resource<torch_tensor_8_4_torch.float32> : tensor<8x4xf32>
// IR: mesh.all_slice %[[W]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// IR: dialect_resources
// IR-NEXT: builtin
// IR-NEXT: torch_tensor_8_4_torch.float32: "0x04000000

mesh.mesh @mesh(shape = 2)
func.func @forward(%arg0: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<4x8xf32>
  %w = arith.constant dense_resource<torch_tensor_8_4_torch.float32> : tensor<8x4xf32>
  %b = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e2 : tensor<4x4xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<4x4xf32>
  %y = linalg.add ins(%mm, %bb : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = mesh.shard %y to %s : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_4_torch.float32: "0x04000000000040C0000040C000000040000000000000803F0000803F0000803F000040C000000000000000C0000080BF0000404000000000000040C000000000000040C00000004000004040000040400000803F00004040000080BF000000C000000000000000000000803F00004040000000C000000040000040C0000080BF00000040",
      torch_tensor_4_torch.float32: "0x04000000000000C00000803F0000000000000000"
    }
  }
#-}
