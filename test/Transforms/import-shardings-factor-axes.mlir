// import-shardings{factor-axes=true} cuts every Shardy mesh axis into its
// prime factors: "model"=4 becomes two axes of 2, and a dimension split
// over "model" is split over both, major first.  A reshape that divides
// that dimension into fewer groups than "model" has devices (here 8
// columns into 2 heads of 4, repeated: grouped-query attention's keys)
// then splits the heads over the first piece and each head over the
// second: each device fetches the half of its head its partner holds (32
// bytes a device, as XLA; 96 without the option, where the 4x8 whole is
// gathered).
// RUN: mesh-opt --allow-unregistered-dialect '--pass-pipeline=builtin.module(import-shardings{factor-axes=true})' %s | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect '--pass-pipeline=builtin.module(import-shardings{factor-axes=true}, sharding-propagation, mesh-partition, mesh-optimize-collectives)' %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f main -q --seed 1 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(mesh-analysis)' %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-opt --allow-unregistered-dialect '--pass-pipeline=builtin.module(import-shardings, sharding-propagation, mesh-partition, mesh-optimize-collectives)' %s -o %t.whole.mlir
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(mesh-analysis)' %t.whole.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK: mesh.mesh @mesh(shape = 2x2x2) {mesh.axis_names = ["data", "model:(1)2", "model:(2)2"]}
// CHECK: mesh.sharding @mesh split_axes = {{\[\[}}], [1, 2]] : !mesh.sharding
// SIM: match
// BYTES: max {{.*}} 32
// WHOLE: max {{.*}} 96
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], function_type = (tensor<4x8xf32>) -> tensor<4x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4x8xf32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1, 3>}> : (tensor<4x2x4xf32>) -> tensor<4x2x4x4xf32>
    %2 = "stablehlo.reshape"(%1) : (tensor<4x2x4x4xf32>) -> tensor<4x32xf32>
    "func.return"(%2) : (tensor<4x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()

