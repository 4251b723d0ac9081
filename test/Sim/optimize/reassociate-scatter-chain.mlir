// Two more shapes of one reduction for two: a sum of two reduce_scatters
// along one axis becomes one reduce_scatter of the sum of the whole terms
// (the op rebuilt at their size: a linalg op gets an init of that size),
// and a chain f(f(x, R(a)), R(b)) becomes f(x, R(f(a, b))) for two
// all_reduces or two reduce_scatters of f's kind (x + y1 + y2 of a
// parallel attention+MLP block, as JAX writes it).  A chain whose reductions
// differ in axes, or a max chain over sums, is left alone.  A generic that
// only adds its inputs, some of them sums reduced alike, reduces those once:
// g(x, R(a), R(b)) -> g(x, R(g(0, a, b)), 0); not when it subtracts one.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// Bit for bit (integers) on random inputs and partial terms:
// RUN: mesh-run %s -f scatter_sum --seed 1 > %t.scatter_sum1.before
// RUN: mesh-run %t.mlir -f scatter_sum --seed 1 > %t.scatter_sum1.after
// RUN: diff %t.scatter_sum1.before %t.scatter_sum1.after
// RUN: mesh-run %s -f scatter_sum --seed 7 > %t.scatter_sum7.before
// RUN: mesh-run %t.mlir -f scatter_sum --seed 7 > %t.scatter_sum7.after
// RUN: diff %t.scatter_sum7.before %t.scatter_sum7.after
// RUN: mesh-run %s -f chain_all_reduce --seed 1 > %t.chain_all_reduce1.before
// RUN: mesh-run %t.mlir -f chain_all_reduce --seed 1 > %t.chain_all_reduce1.after
// RUN: diff %t.chain_all_reduce1.before %t.chain_all_reduce1.after
// RUN: mesh-run %s -f chain_all_reduce --seed 7 > %t.chain_all_reduce7.before
// RUN: mesh-run %t.mlir -f chain_all_reduce --seed 7 > %t.chain_all_reduce7.after
// RUN: diff %t.chain_all_reduce7.before %t.chain_all_reduce7.after
// RUN: mesh-run %s -f chain_reduce_scatter --seed 1 > %t.chain_reduce_scatter1.before
// RUN: mesh-run %t.mlir -f chain_reduce_scatter --seed 1 > %t.chain_reduce_scatter1.after
// RUN: diff %t.chain_reduce_scatter1.before %t.chain_reduce_scatter1.after
// RUN: mesh-run %s -f chain_reduce_scatter --seed 7 > %t.chain_reduce_scatter7.before
// RUN: mesh-run %t.mlir -f chain_reduce_scatter --seed 7 > %t.chain_reduce_scatter7.after
// RUN: diff %t.chain_reduce_scatter7.before %t.chain_reduce_scatter7.after
// RUN: mesh-run %s -f chain_generic --seed 3 > %t.g.before
// RUN: mesh-run %t.mlir -f chain_generic --seed 3 > %t.g.after
// RUN: diff %t.g.before %t.g.after
// RUN: mesh-run %s -f some_terms --seed 5 > %t.s.before
// RUN: mesh-run %t.mlir -f some_terms --seed 5 > %t.s.after
// RUN: diff %t.s.before %t.s.after
// RUN: mesh-run %s -f some_terms_scattered --seed 6 > %t.ss.before
// RUN: mesh-run %t.mlir -f some_terms_scattered --seed 6 > %t.ss.after
// RUN: diff %t.ss.before %t.ss.after
// RUN: mesh-run %s -f left_alone --seed 1 > %t.left_alone1.before
// RUN: mesh-run %t.mlir -f left_alone --seed 1 > %t.left_alone1.after
// RUN: diff %t.left_alone1.before %t.left_alone1.after
// CHECK-LABEL: func.func @scatter_sum
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x2xi32>
// CHECK-NEXT: %[[S:.*]] = linalg.add ins(%arg0, %arg1 : tensor<8x2xi32>, tensor<8x2xi32>) outs(%[[E]] : tensor<8x2xi32>)
// CHECK-NEXT: %[[R:.*]] = mesh.reduce_scatter %[[S]] on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x2xi32> -> tensor<4x2xi32>
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @chain_all_reduce
// CHECK: %[[S:.*]] = arith.addi %arg2, %arg1 : tensor<4xi32>
// CHECK-NEXT: %[[R:.*]] = mesh.all_reduce %[[S]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[R]], %arg0 : tensor<4xi32>
// CHECK-NEXT: return %[[T]]
// CHECK-LABEL: func.func @chain_reduce_scatter
// CHECK: %[[S:.*]] = arith.maxsi %arg2, %arg1 : tensor<8xi32>
// CHECK-NEXT: %[[R:.*]] = mesh.reduce_scatter %[[S]] on @mesh mesh_axes = [1] reduction = <max> scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
// CHECK-NEXT: %[[T:.*]] = arith.maxsi %arg0, %[[R]] : tensor<4xi32>
// CHECK-NEXT: return %[[T]]
// CHECK-LABEL: func.func @chain_generic
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%arg2, %arg1 : tensor<4xi32>, tensor<4xi32>)
// CHECK: %[[R:.*]] = mesh.all_reduce %[[S]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[R]], %arg0 : tensor<4xi32>, tensor<4xi32>)
// CHECK-NOT: mesh.all_reduce
// CHECK-LABEL: func.func @some_terms
// CHECK: %[[Z:.*]] = linalg.fill ins(%c0_i32 : i32) outs(%{{.*}} : tensor<4xi32>)
// CHECK-NEXT: %[[S:.*]] = linalg.generic {{.*}} ins(%[[Z]], %arg1, %arg2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
// CHECK: %[[R:.*]] = mesh.all_reduce %[[S]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0, %[[R]], %[[Z]] : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
// CHECK-NOT: mesh.all_reduce
// CHECK-LABEL: func.func @some_terms_scattered
// CHECK: %[[Z:.*]] = linalg.fill ins(%c0_i32 : i32) outs(%{{.*}} : tensor<4xi32>)
// CHECK: %[[W:.*]] = linalg.fill ins(%c0_i32 : i32) outs(%{{.*}} : tensor<8xi32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[W]], %arg1, %arg2 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>)
// CHECK: %[[R:.*]] = mesh.reduce_scatter %[[S]] on @mesh mesh_axes = [1] scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0, %[[R]], %[[Z]] : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
// CHECK-NOT: mesh.reduce_scatter
// CHECK-LABEL: func.func @some_terms_subtracted
// CHECK-COUNT-2: mesh.all_reduce
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: mesh.all_reduce
// CHECK-NOT: mesh.all_reduce

#v = affine_map<(d0) -> (d0)>
mesh.mesh @mesh(shape = 2x2)

func.func @scatter_sum(%a: tensor<8x2xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
                       %b: tensor<8x2xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>}) -> (tensor<4x2xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %ra = mesh.reduce_scatter %a on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x2xi32> -> tensor<4x2xi32>
  %rb = mesh.reduce_scatter %b on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x2xi32> -> tensor<4x2xi32>
  %e = tensor.empty() : tensor<4x2xi32>
  %s = linalg.add ins(%ra, %rb : tensor<4x2xi32>, tensor<4x2xi32>) outs(%e : tensor<4x2xi32>) -> tensor<4x2xi32>
  return %s : tensor<4x2xi32>
}

func.func @chain_all_reduce(%x: tensor<4xi32>,
                            %a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
                            %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>}) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %t = arith.addi %x, %ra : tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [1, 0] : tensor<4xi32> -> tensor<4xi32>
  %u = arith.addi %t, %rb : tensor<4xi32>
  return %u : tensor<4xi32>
}

func.func @chain_reduce_scatter(%x: tensor<4xi32>,
                                %a: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [1]>},
                                %b: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [1]>}) -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[1]]>}) {
  %ra = mesh.reduce_scatter %a on @mesh mesh_axes = [1] reduction = max scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  %rb = mesh.reduce_scatter %b on @mesh mesh_axes = [1] reduction = max scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  %t = arith.maxsi %x, %ra : tensor<4xi32>
  %u = arith.maxsi %rb, %t : tensor<4xi32>
  return %u : tensor<4xi32>
}

func.func @chain_generic(%x: tensor<4xi32>,
                         %a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
                         %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>}) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %t = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%x, %ra : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %s = arith.addi %p, %q : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  %u = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%t, %rb : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %s = arith.addi %p, %q : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %u : tensor<4xi32>
}

func.func @some_terms(%x: tensor<4xi32>,
                      %a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
                      %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>}) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [1, 0] : tensor<4xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %u = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]} ins(%x, %ra, %rb : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %r: i32, %o: i32):
    %s = arith.addi %p, %q : i32
    %t = arith.addi %s, %r : i32
    linalg.yield %t : i32
  } -> tensor<4xi32>
  return %u : tensor<4xi32>
}

func.func @some_terms_scattered(%x: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[1]]>},
                      %a: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [1]>},
                      %b: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [1]>}) -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[1]]>}) {
  %ra = mesh.reduce_scatter %a on @mesh mesh_axes = [1] scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  %rb = mesh.reduce_scatter %b on @mesh mesh_axes = [1] scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %u = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]} ins(%x, %ra, %rb : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %r: i32, %o: i32):
    %s = arith.addi %p, %q : i32
    %t = arith.addi %s, %r : i32
    linalg.yield %t : i32
  } -> tensor<4xi32>
  return %u : tensor<4xi32>
}

func.func @some_terms_subtracted(%x: tensor<4xi32>,
                      %a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
                      %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>}) -> tensor<4xi32> {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %u = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]} ins(%x, %ra, %rb : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32, %r: i32, %o: i32):
    %s = arith.addi %p, %q : i32
    %t = arith.subi %s, %r : i32
    linalg.yield %t : i32
  } -> tensor<4xi32>
  return %u : tensor<4xi32>
}

func.func @left_alone(%x: tensor<4xi32>,
                      %p: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
                      %q: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [1]>},
                      %a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
                      %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>}) -> (tensor<4xi32>, tensor<4xi32>) {
  %ra = mesh.all_reduce %p on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %t = arith.addi %x, %ra : tensor<4xi32>
  %rb = mesh.all_reduce %q on @mesh mesh_axes = [1] : tensor<4xi32> -> tensor<4xi32>
  %u = arith.addi %t, %rb : tensor<4xi32>
  %rc = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %v = arith.maxsi %x, %rc : tensor<4xi32>
  %rd = mesh.all_reduce %b on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %w = arith.maxsi %v, %rd : tensor<4xi32>
  return %u, %w : tensor<4xi32>, tensor<4xi32>
}
