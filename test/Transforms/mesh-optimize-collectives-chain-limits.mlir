// The chain and reduce_scatter reassociations leave alone what they cannot
// regroup exactly: reductions that convert their element type (the op would
// run on the narrow terms), a generic that reads one input twice (not a
// combination of both); and they drop the flags a regrouped op can no
// longer promise (nsw on the terms and on the new total).
// RUN: mesh-opt --split-input-file --mesh-optimize-collectives %s | FileCheck %s

// CHECK-LABEL: func.func @converting_all_reduces
// CHECK-COUNT-2: mesh.all_reduce
mesh.mesh @mesh(shape = 2)
func.func @converting_all_reduces(%x: tensor<4xi32>, %a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xi8> -> tensor<4xi32>
  %t = arith.addi %x, %ra : tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<4xi8> -> tensor<4xi32>
  %u = arith.addi %t, %rb : tensor<4xi32>
  return %u : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @converting_reduce_scatters
// CHECK-COUNT-2: mesh.reduce_scatter
mesh.mesh @mesh(shape = 2)
func.func @converting_reduce_scatters(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<2xi32> {
  %ra = mesh.reduce_scatter %a on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4xi8> -> tensor<2xi32>
  %rb = mesh.reduce_scatter %b on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4xi8> -> tensor<2xi32>
  %u = arith.addi %ra, %rb : tensor<2xi32>
  return %u : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @reads_one_input_twice
// CHECK-COUNT-2: mesh.all_reduce
#v = affine_map<(d0) -> (d0)>
mesh.mesh @mesh(shape = 2)
func.func @reads_one_input_twice(%x: tensor<4xi32>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %t = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%x, %ra : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %s = arith.addi %q, %q : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  %u = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%t, %rb : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %s = arith.addi %q, %q : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %u : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @flags_dropped
// CHECK: arith.addi %arg2, %arg1 : tensor<4xi32>
// CHECK-NEXT: mesh.all_reduce
// CHECK-NEXT: arith.addi %{{.*}}, %arg0 : tensor<4xi32>
mesh.mesh @mesh(shape = 2)
func.func @flags_dropped(%x: tensor<4xi32>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %t = arith.addi %x, %ra overflow<nsw> : tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %u = arith.addi %t, %rb overflow<nsw> : tensor<4xi32>
  return %u : tensor<4xi32>
}
