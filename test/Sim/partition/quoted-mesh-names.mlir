// Meshes whose names are no bare identifiers (a space, a comma and a '>'
// in them, a leading '@') are written quoted, as MLIR writes any such symbol, in every
// sharding the passes make: the options propagation records, the layouts
// partition writes on arguments and results.  The output parses again,
// and each function simulates equal to the original.
// RUN: mesh-opt --sharding-propagation %s | mesh-opt | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f spaced --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f punctuated --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f at_sign --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// MATCH: match
// The analysis names the meshes as MLIR writes them (it wrote @@x).
// REPORT: @spaced on @"two devices" (shape 2, 2 devices)
// REPORT: @punctuated on @"odd,name>" (shape 2x2, 4 devices)
// REPORT: @at_sign on @"@x" (shape 2, 2 devices)

// PROP: linalg.matmul {mesh.sharding_option = #mesh.sharding<@"two devices", {{\[\[0\]\]}}>}
// PROP: math.exp %{{.*}} {mesh.sharding_option = #mesh.sharding<@"two devices", {{\[\[0\]\]}}>}
// PROP: linalg.matmul {mesh.sharding_option = #mesh.sharding<@"odd,name>", {{\[\[0\], \[\], \[1\]\]}}>}

// CHECK: func.func @spaced(%arg0: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@"two devices", {{\[\[0\]\]}}>}
// CHECK: func.func @punctuated(%arg0: tensor<4x2xf32> {mesh.sharding = #mesh.sharding<@"odd,name>", {{\[\[0\], \[1\]\]}}>}
// CHECK-SAME: -> (tensor<4x6xf32> {mesh.sharding = #mesh.sharding<@"odd,name>", {{\[\[0\]\]}}, partial = sum [1]>})
// CHECK: func.func @at_sign(%arg0: tensor<4xf32> {mesh.sharding = #mesh.sharding<@"@x", {{\[\[0\]\]}}>}) -> (tensor<8xf32> {mesh.sharding = #mesh.sharding<@"@x", {{\[\[\]\]}}>})
// CHECK: mesh.all_gather %{{.*}} on @"@x" mesh_axes = [0] gather_axis = 0
mesh.mesh @"two devices"(shape = 2)
mesh.mesh @"odd,name>"(shape = 2x2)
mesh.mesh @"@x"(shape = 2)

func.func @spaced(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %rows = mesh.sharding @"two devices" split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = linalg.matmul ins(%xs, %w : tensor<8x4xf32>, tensor<4x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  %z = math.exp %y : tensor<8x6xf32>
  return %z : tensor<8x6xf32>
}

func.func @punctuated(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %cols = mesh.sharding @"odd,name>" split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %cols annotate_for_users : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = linalg.matmul ins(%xs, %w : tensor<8x4xf32>, tensor<4x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}

// A name beginning with '@' (the builders refused it as a mistake: "@m"
// for "m"): propagation and partition made an internal error.
func.func @at_sign(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @"@x" split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8xf32>
  %y = math.exp %xs : tensor<8xf32>
  %whole = mesh.sharding @"@x" split_axes = [[]] : !mesh.sharding
  %z = mesh.shard %y to %whole : tensor<8xf32>
  return %z : tensor<8xf32>
}
