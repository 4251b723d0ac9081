// JAX never hands its caller an unreduced value: a result `jax.jit` was
// given no out_shardings for is laid out as XLA chooses, but reduced.
// import-shardings marks such results of public functions `mesh.reduced`,
// and partition all-reduces one the plan leaves partial in front of the
// return, keeping its split (the column sums below stay split over "b", as
// JAX returns them).  Without the mark the signature said `partial = sum
// [0]`: every device returned its own rows' sums.  Other entries of the
// signature (a donation, a result's name) stay through partition.
// RUN: mesh-opt --allow-unregistered-dialect --import-shardings %s | FileCheck %s --check-prefix=IMPORT
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(import-shardings, sharding-propagation, mesh-partition)' %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=PART < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f main -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f named -q --seed 2 | FileCheck %s --check-prefix=SIM
// SIM-NOT: partial
// SIM: match

// IMPORT-LABEL: func.func public @main(
// IMPORT-SAME: -> (tensor<32xf32> {jax.result_info = "result", mesh.reduced})
// IMPORT-LABEL: func.func @named(
// IMPORT-SAME: -> (tensor<32xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]", mesh.reduced})
// IMPORT-LABEL: func.func private @helper(
// IMPORT-NOT: mesh.reduced

// PART-LABEL: func.func public @main(
// PART-SAME: %arg0: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>, tf.aliasing_output = 0 : i32}
// PART-SAME: -> (tensor<8xf32> {jax.result_info = "result", mesh.reduced, mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>})
// PART: "stablehlo.reduce"
// PART: %[[SUM:.*]] = mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// PART-NEXT: return %[[SUM]]
// PART-LABEL: func.func @named(
// PART-SAME: -> (tensor<32xf32> {jax.result_info = "result[0]", mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}, tensor<f32> {jax.result_info = "result[1]", mesh.reduced, mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>})
"builtin.module"() <{sym_name = "jit_sums"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>, tf.aliasing_output = 0 : i32}], function_type = (tensor<16x32xf32>) -> tensor<32xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
    "func.return"(%1) : (tensor<32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}], function_type = (tensor<16x32xf32>) -> (tensor<32xf32>, tensor<f32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[1]"}], sym_name = "named"}> ({
  ^bb0(%arg0: tensor<16x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %3 = "stablehlo.reduce"(%1, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%1, %3) : (tensor<32xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    "func.return"(%arg0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
