// A slice or dynamic_slice taking one element of a dimension split over
// the devices (`x[1, 4, 0]`, `x[:, 3]`, `x[:, i]`) reads it where it is
// held: the device whose piece holds the (clamped) position takes it, the
// others give -0.0 (0 for integers), and one all_reduce adds the small
// pieces, as XLA does, instead of gathering the operand whole.  The starts
// are random in [-8, 8] (clamped into the 8 rows); 1/x of a -0.0 read tells
// a +0.0 filler apart (it would turn -inf into +inf).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 4 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)
func.func @main(%arg0: tensor<2x8x4xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<8x4xi32>, %arg3: tensor<i32>, %arg4: tensor<8xf32>)
    -> (tensor<1x1x1xf32>, tensor<4x1xf32>, tensor<1x1xi32>, tensor<1xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %flat = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %x = mesh.shard %arg0 to %rows : tensor<2x8x4xf32>
  %y = mesh.shard %arg1 to %cols : tensor<4x8xf32>
  %n = mesh.shard %arg2 to %rows : tensor<8x4xi32>
  %z = mesh.shard %arg4 to %flat : tensor<8xf32>
  // the first element of the second piece along both split dimensions
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 1, 4, 0>, limit_indices = array<i64: 2, 5, 1>, strides = array<i64: 1, 1, 1>}> : (tensor<2x8x4xf32>) -> tensor<1x1x1xf32>
  // the last column of the first piece, by a stride past the end
  %1 = "stablehlo.slice"(%y) <{start_indices = array<i64: 0, 3>, limit_indices = array<i64: 4, 5>, strides = array<i64: 1, 4>}> : (tensor<4x8xf32>) -> tensor<4x1xf32>
  // a run-time start, clamped, along the rows split over axis 0 and the
  // columns over axis 1
  %2 = "stablehlo.dynamic_slice"(%n, %arg3, %arg3) <{slice_sizes = array<i64: 1, 1>}> : (tensor<8x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x1xi32>
  // -0.0 read from a dimension split 4 ways, then 1/x
  %c0 = "stablehlo.constant"() <{value = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %c1 = "stablehlo.constant"() <{value = dense<1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %abs = "stablehlo.abs"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %zero = "stablehlo.multiply"(%abs, %c0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %minus = "stablehlo.negate"(%zero) : (tensor<8xf32>) -> tensor<8xf32>
  %e = "stablehlo.slice"(%minus) <{start_indices = array<i64: 5>, limit_indices = array<i64: 6>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1xf32>
  %3 = "stablehlo.divide"(%c1, %e) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %r0 = mesh.shard %0 to %whole : tensor<1x1x1xf32>
  %r1 = mesh.shard %1 to %whole : tensor<4x1xf32>
  %r2 = mesh.shard %2 to %whole : tensor<1x1xi32>
  %r3 = mesh.shard %3 to %whole : tensor<1xf32>
  return %r0, %r1, %r2, %r3 : tensor<1x1x1xf32>, tensor<4x1xf32>, tensor<1x1xi32>, tensor<1xf32>
}

// IR-LABEL: func.func @main(
// IR-NOT: mesh.all_gather
// IR: %[[X:.*]] = tensor.extract_slice %arg0[0, %{{.*}}, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4x4xf32> to tensor<1x1x4xf32>
// IR: %[[S0:.*]] = "stablehlo.slice"(%[[X]]) <{limit_indices = array<i64: 1, 1, 1>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
// IR: %[[Z0:.*]] = arith.constant dense<-0.000000e+00> : tensor<1x1x1xf32>
// IR: %[[P0:.*]] = arith.select %{{.*}}, %[[S0]], %[[Z0]] : tensor<1x1x1xf32>
// IR: %[[Y:.*]] = tensor.extract_slice %arg1[0, %{{.*}}] [4, 1] [1, 1] : tensor<4x4xf32> to tensor<4x1xf32>
// IR: %[[S1:.*]] = "stablehlo.slice"(%[[Y]]) <{limit_indices = array<i64: 4, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}>
// IR: %[[P1:.*]] = arith.select %{{.*}}, %[[S1]], %{{.*}} : tensor<4x1xf32>
// IR: %[[I:.*]] = tensor.extract %arg3[] : tensor<i32>
// IR: %[[II:.*]] = arith.index_cast %[[I]] : i32 to index
// IR: %[[LO:.*]] = arith.maxsi %[[II]], %{{.*}} : index
// IR: %[[C7:.*]] = arith.constant 7 : index
// IR: arith.minsi %[[LO]], %[[C7]] : index
// IR: %[[N:.*]] = tensor.extract_slice %arg2[%{{.*}}, %{{.*}}] [1, 1] [1, 1] : tensor<4x2xi32> to tensor<1x1xi32>
// IR: %[[S2:.*]] = "stablehlo.dynamic_slice"(%[[N]], %arg3, %arg3) <{slice_sizes = array<i64: 1, 1>}>
// IR: %[[Z2:.*]] = arith.constant dense<0> : tensor<1x1xi32>
// IR: %[[P2:.*]] = arith.select %{{.*}}, %[[S2]], %[[Z2]] : tensor<1x1xi32>
// IR: %[[S3:.*]] = "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<1xf32>) -> tensor<1xf32>
// IR: %[[P3:.*]] = arith.select %{{.*}}, %[[S3]], %{{.*}} : tensor<1xf32>
// IR: mesh.all_reduce %[[P3]] on @mesh mesh_axes = [0, 1] : tensor<1xf32> -> tensor<1xf32>
// IR: "stablehlo.divide"
// IR: mesh.all_reduce %[[P0]] on @mesh mesh_axes = [0, 1] : tensor<1x1x1xf32> -> tensor<1x1x1xf32>
// IR: mesh.all_reduce %[[P1]] on @mesh mesh_axes = [1] : tensor<4x1xf32> -> tensor<4x1xf32>
// IR: mesh.all_reduce %[[P2]] on @mesh mesh_axes = [0, 1] : tensor<1x1xi32> -> tensor<1x1xi32>
// IR-NOT: mesh.all_gather
