// A collective cannot run inside a region that runs per element: an op
// without a rule (here tensor.generate, whose body reads a split tensor
// through tensor.extract) gets the whole tensor gathered in front of it,
// not in its body.  Inside scf.for the gather of a value from outside the
// loop goes in front of the loop: it is the same every iteration.
// RUN: mesh-opt --sharding-propagation=skip-unknown=true --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --function reversed --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function in_loop --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function in_loop --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function after_local --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// MATCH: match
// CHECK-LABEL: func.func @reversed
// CHECK-NEXT: %[[ALL:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0
// CHECK-NEXT: tensor.generate
// CHECK-NOT: mesh.all_gather
// CHECK: tensor.extract %[[ALL]]
// CHECK-LABEL: func.func @in_loop
// CHECK: %[[ALL:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: tensor.generate
// CHECK-NOT: mesh.all_gather
// CHECK: tensor.extract %[[ALL]]
// A reshard of a value defined in the body that moves nothing (a size-1
// axis) stays there; a later read of an outside value is still gathered
// in front of the generate.
// CHECK-LABEL: func.func @after_local
// CHECK-NEXT: %[[ALL:.*]] = mesh.all_gather %arg0 on @m21 mesh_axes = [0] gather_axis = 0
// CHECK-NEXT: tensor.generate
// CHECK-NOT: mesh.all_gather
// CHECK: tensor.extract %[[ALL]]

mesh.mesh @mesh(shape = 2)
mesh.mesh @m21(shape = 2x1)

func.func @reversed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4xf32>
  %g = tensor.generate {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %j = arith.subi %c3, %i : index
    %v = tensor.extract %xs[%j] : tensor<4xf32>
    tensor.yield %v : f32
  } : tensor<4xf32>
  return %g : tensor<4xf32>
}

func.func @in_loop(%x: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %acc) -> (tensor<4xf32>) {
    %g = tensor.generate {
    ^bb0(%i: index):
      %j = arith.subi %c3, %i : index
      %v = tensor.extract %xs[%j] : tensor<4xf32>
      %w = tensor.extract %a[%i] : tensor<4xf32>
      %s = arith.addf %v, %w : f32
      tensor.yield %s : f32
    } : tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @after_local(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %rows = mesh.sharding @m21 split_axes = [[0]] : !mesh.sharding
  %one = mesh.sharding @m21 split_axes = [[1]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4xf32>
  %g = tensor.generate {
  ^bb0(%i: index):
    %t = arith.addf %y, %y : tensor<4xf32>
    %t1 = mesh.shard %t to %one annotate_for_users : tensor<4xf32>
    %w = tensor.extract %t1[%i] : tensor<4xf32>
    %v = tensor.extract %xs[%i] : tensor<4xf32>
    %s = arith.addf %v, %w : f32
    tensor.yield %s : f32
  } : tensor<4xf32>
  return %g : tensor<4xf32>
}
