// Values carried through loops and branches in a function whose annotations
// cut a size the mesh does not divide by offsets (10 rows over 4 devices:
// 3, 3, 3, 1 as XLA cuts them when JAX sends a program; 4, 4, 1, 1 by hand)
// are carried in that cut, so a loop over layers of a split sequence moves
// nothing. Before, only functions without offsets carried uneven pieces:
// the carried values were gathered whole (@hlo_while 288 bytes a device,
// @hlo_case 144, @scf_for 168).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir -f hlo_while --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f hlo_while --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f hlo_case --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f hlo_case --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f scf_for --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f scf_for --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 4)
func.func @hlo_while(%x: tensor<2x10x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x10x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x10x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %xs) ({
  ^bb0(%i: tensor<i32>, %h: tensor<2x10x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<2x10x4xf32>):
    %d = "stablehlo.dot_general"(%h, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x10x4xf32>, tensor<4x4xf32>) -> tensor<2x10x4xf32>
    %t = "stablehlo.tanh"(%d) : (tensor<2x10x4xf32>) -> tensor<2x10x4xf32>
    %ts = mesh.shard %t to %s : tensor<2x10x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %ts) : (tensor<i32>, tensor<2x10x4xf32>) -> ()
  }) : (tensor<i32>, tensor<2x10x4xf32>) -> (tensor<i32>, tensor<2x10x4xf32>)
  %o = mesh.shard %r#1 to %s : tensor<2x10x4xf32>
  return %o : tensor<2x10x4xf32>
}
func.func @hlo_case(%x: tensor<10x4xf32>, %k: tensor<i32>) -> tensor<10x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<10x4xf32>
  %r = "stablehlo.case"(%k) ({
    %a = "stablehlo.exponential"(%xs) : (tensor<10x4xf32>) -> tensor<10x4xf32>
    "stablehlo.return"(%a) : (tensor<10x4xf32>) -> ()
  }, {
    %b = "stablehlo.negate"(%xs) : (tensor<10x4xf32>) -> tensor<10x4xf32>
    "stablehlo.return"(%b) : (tensor<10x4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<10x4xf32>
  %o = mesh.shard %r to %s : tensor<10x4xf32>
  return %o : tensor<10x4xf32>
}
func.func @scf_for(%x: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 4, 8, 9, 10] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<10x4xf32>
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %st iter_args(%h = %xs) -> (tensor<10x4xf32>) {
    %e = tensor.empty() : tensor<10x4xf32>
    %m = linalg.map { math.tanh } ins(%h : tensor<10x4xf32>) outs(%e : tensor<10x4xf32>)
    scf.yield %m : tensor<10x4xf32>
  }
  %o = mesh.shard %r to %s : tensor<10x4xf32>
  return %o : tensor<10x4xf32>
}

// IR-LABEL: func.func @hlo_while(%arg0: tensor<2x?x4xf32> {{.*}}sharded_dims_offsets = [0, 3, 6, 9, 10]>}
// IR-NOT: mesh.
// IR: "stablehlo.while"(%{{.*}}, %arg0)
// IR: ^bb0(%{{.*}}: tensor<i32>, %[[H:.*]]: tensor<2x?x4xf32>):
// IR: "stablehlo.dot_general"(%[[H]], %arg1) {{.*}} -> tensor<2x?x4xf32>
// IR: }) : (tensor<i32>, tensor<2x?x4xf32>) -> (tensor<i32>, tensor<2x?x4xf32>)
// IR-LABEL: func.func @hlo_case(%arg0: tensor<?x4xf32> {{.*}}sharded_dims_offsets = [0, 3, 6, 9, 10]>}
// IR-NOT: mesh.
// IR: }) : (tensor<i32>) -> tensor<?x4xf32>
// IR-LABEL: func.func @scf_for(%arg0: tensor<?x4xf32> {{.*}}sharded_dims_offsets = [0, 4, 8, 9, 10]>}
// IR-NOT: mesh.all
// IR: scf.for {{.*}} iter_args(%[[C:.*]] = %arg0) -> (tensor<?x4xf32>)
// IR: arith.constant dense<[4, 4, 1, 1]> : tensor<4xindex>
// IR: linalg.map { math.tanh } ins(%[[C]] : tensor<?x4xf32>)

// BYTES-LABEL: @hlo_while on @mesh
// BYTES: max - 0
// BYTES-LABEL: @hlo_case on @mesh
// BYTES: max - 0
// BYTES-LABEL: @scf_for on @mesh
// BYTES: max - 0
