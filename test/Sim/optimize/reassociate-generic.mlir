// Elementwise ops that combine all_reduces with the reduction's own
// operator become one all_reduce of their combination: a linalg.generic
// whose body only adds, subtracts and negates its inputs (a sum), or only
// takes their max (a max), and a subtraction of two sums.  The body's nsw
// goes (the terms may overflow where the totals do not).  A body that reads
// its init, mixes kinds, or a boolean subtraction is left alone.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 4 > %t.before4.txt
// RUN: mesh-run %t.mlir --seed 4 > %t.after4.txt
// RUN: diff %t.before4.txt %t.after4.txt
// IR-LABEL: func.func @f
// IR: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1, %arg2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
// IR: arith.subi %{{.*}}, %{{.*}} : i32
// IR-NEXT: arith.addi %{{.*}}, %{{.*}} : i32
// IR: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// IR: %[[M:.*]] = linalg.generic {{.*}} ins(%arg3, %arg4 : tensor<4xi32>, tensor<4xi32>)
// IR: mesh.all_reduce %[[M]] on @mesh mesh_axes = [1] reduction = <max>
// IR: %[[D:.*]] = arith.subi %arg5, %arg6 : tensor<4xi32>
// IR-NEXT: mesh.all_reduce %[[D]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// The init-reading body and the mixed one keep their all_reduces:
// IR-COUNT-4: mesh.all_reduce %arg{{[7-9]|10}}
// IR-NOT: mesh.all_reduce

#v = affine_map<(d0) -> (d0)>
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %c: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %p: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [1]>},
             %q: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [1]>},
             %d: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %g: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %h: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %k: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %u: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %w: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %init: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>})
    -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [1, 0] : tensor<4xi32> -> tensor<4xi32>
  %rc = mesh.all_reduce %c on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  // (a - b) + c
  %s = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]}
      ins(%ra, %rb, %rc : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %z: i32, %o: i32):
    %df = arith.subi %x, %y overflow<nsw> : i32
    %t = arith.addi %df, %z overflow<nsw> : i32
    linalg.yield %t : i32
  } -> tensor<4xi32>
  %rp = mesh.all_reduce %p on @mesh mesh_axes = [1] reduction = <max> : tensor<4xi32> -> tensor<4xi32>
  %rq = mesh.all_reduce %q on @mesh mesh_axes = [1] reduction = <max> : tensor<4xi32> -> tensor<4xi32>
  %m = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%rp, %rq : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %t = arith.maxsi %x, %y : i32
    linalg.yield %t : i32
  } -> tensor<4xi32>
  %ra2 = mesh.all_reduce %d on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rc2 = mesh.all_reduce %g on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %sub = arith.subi %ra2, %rc2 : tensor<4xi32>
  // reads its init: a + b + init is no combination of the two sums
  %ra3 = mesh.all_reduce %h on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rb3 = mesh.all_reduce %k on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %i = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%ra3, %rb3 : tensor<4xi32>, tensor<4xi32>) outs(%init : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %t = arith.addi %x, %y : i32
    %t2 = arith.addi %t, %o : i32
    linalg.yield %t2 : i32
  } -> tensor<4xi32>
  // a sum times a sum is no sum
  %ra4 = mesh.all_reduce %u on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %rb4 = mesh.all_reduce %w on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %x4 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%ra4, %rb4 : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %t = arith.addi %x, %y : i32
    %t2 = arith.muli %t, %x : i32
    linalg.yield %t2 : i32
  } -> tensor<4xi32>
  return %s, %m, %sub, %i, %x4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
