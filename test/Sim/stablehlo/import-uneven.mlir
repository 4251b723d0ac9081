// JAX's partitioners cut a dimension their tiles do not divide into pieces
// of ceil(n / k), the last ones shorter: 7 over 4 is 2, 2, 2, 1, where this
// dialect's own cut is 1, 2, 2, 2. import-shardings writes XLA's pieces as
// offsets, so every device holds the piece JAX gives it.
// RUN: mesh-opt --import-shardings %s | FileCheck %s --check-prefix=IMPORT
// RUN: mesh-opt --import-shardings --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=SIG < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s --seed 3 -q | FileCheck %s
// IMPORT: mesh.sharding @mesh split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 2, 4, 6, 7]
// SIG: #mesh.sharding<@mesh, {{\[\[}}0]], sharded_dims_offsets = [0, 2, 4, 6, 7]>
// CHECK: match

"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}], function_type = (tensor<7xf32>) -> tensor<7xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<7xf32>):
    %0 = "stablehlo.tanh"(%arg0) : (tensor<7xf32>) -> tensor<7xf32>
    "func.return"(%0) : (tensor<7xf32>) -> ()
  }) : () -> ()
}) : () -> ()
