// An hlo if or case the passes cannot read (the dialect is unregistered,
// so MLIR never verifies it) is an error at the op, in propagation,
// partition and mesh-analysis.
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --mesh-partition %s
// RUN: not mesh-opt --allow-unregistered-dialect --split-input-file --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'stablehlo.if' needs 2 regions, got 1
mesh.mesh @m(shape = 2)
func.func @one_region(%x: tensor<8xf32>, %p: tensor<i1>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.if' needs 2 regions, got 1}}
  %r = "stablehlo.if"(%p) ({
    "stablehlo.return"(%0) : (tensor<8xf32>) -> ()
  }) : (tensor<i1>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'stablehlo.case' needs a rank-0 tensor to choose its branch, got tensor<2xi32>
mesh.mesh @m(shape = 2)
func.func @vector_index(%x: tensor<8xf32>, %k: tensor<2xi32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.case' needs a rank-0 tensor to choose its branch, got tensor<2xi32>}}
  %r = "stablehlo.case"(%k) ({
    "stablehlo.return"(%0) : (tensor<8xf32>) -> ()
  }) : (tensor<2xi32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'stablehlo.case' has 1 results but region 1 returns 2 values
mesh.mesh @m(shape = 2)
func.func @arity(%x: tensor<8xf32>, %k: tensor<i32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.case' has 1 results but region 1 returns 2 values}}
  %r = "stablehlo.case"(%k) ({
    "stablehlo.return"(%0) : (tensor<8xf32>) -> ()
  }, {
    "stablehlo.return"(%0, %0) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'mhlo.if' needs one operand (the predicate), got 2
mesh.mesh @m(shape = 2)
func.func @two_operands(%x: tensor<8xf32>, %p: tensor<i1>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'mhlo.if' needs one operand (the predicate), got 2}}
  %r = "mhlo.if"(%p, %p) ({
    "mhlo.return"(%0) : (tensor<8xf32>) -> ()
  }, {
    "mhlo.return"(%0) : (tensor<8xf32>) -> ()
  }) : (tensor<i1>, tensor<i1>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'stablehlo.case' needs branches without arguments, got 1 in region 0
mesh.mesh @m(shape = 2)
func.func @branch_argument(%x: tensor<8xf32>, %k: tensor<i32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.case' needs branches without arguments, got 1 in region 0}}
  %r = "stablehlo.case"(%k) ({
  ^bb0(%a: tensor<8xf32>):
    "stablehlo.return"(%a) : (tensor<8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'stablehlo.if' needs an i1 predicate, got tensor<i32>
mesh.mesh @m(shape = 2)
func.func @integer_predicate(%x: tensor<8xf32>, %p: tensor<i32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.if' needs an i1 predicate, got tensor<i32>}}
  %r = "stablehlo.if"(%p) ({
    "stablehlo.return"(%0) : (tensor<8xf32>) -> ()
  }, {
    "stablehlo.return"(%0) : (tensor<8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
