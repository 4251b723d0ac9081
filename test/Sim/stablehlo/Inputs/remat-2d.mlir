// remat-2d: remat_grad exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32x16xf32>) -> tensor<16x32xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<16x32xf32>
    %4 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<32x16xf32>
    %6 = "stablehlo.dot_general"(%1, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %9 = "stablehlo.maximum"(%6, %8) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %10 = "stablehlo.dot_general"(%9, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %11 = "stablehlo.tanh"(%10) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %12 = "stablehlo.dot_general"(%11, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %15 = "stablehlo.maximum"(%12, %14) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %16 = "stablehlo.dot_general"(%15, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %17 = "stablehlo.tanh"(%16) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %18 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %20 = "stablehlo.multiply"(%19, %17) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %21 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %23 = "stablehlo.multiply"(%22, %20) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %24:4 = "stablehlo.optimization_barrier"(%11, %3, %5, %23) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<8x16xf32>)
    %25 = "stablehlo.dot_general"(%24#0, %24#1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %28 = "stablehlo.maximum"(%25, %27) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %29 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %31 = "stablehlo.compare"(%25, %30) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %32 = "stablehlo.dot_general"(%28, %24#2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %33 = "stablehlo.tanh"(%32) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %34 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %36 = "stablehlo.subtract"(%35, %33) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %37 = "stablehlo.multiply"(%24#3, %36) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %38 = "stablehlo.multiply"(%37, %33) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %39 = "stablehlo.add"(%37, %38) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %40 = "stablehlo.dot_general"(%39, %24#2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %41 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %43 = "stablehlo.select"(%31, %40, %42) : (tensor<8x32xi1>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %44 = "stablehlo.dot_general"(%43, %24#0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %45 = "stablehlo.transpose"(%44) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %46 = "stablehlo.dot_general"(%43, %24#1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %47:4 = "stablehlo.optimization_barrier"(%1, %3, %5, %46) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<8x16xf32>)
    %48 = "stablehlo.dot_general"(%47#0, %47#1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %49 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %51 = "stablehlo.maximum"(%48, %50) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %52 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %54 = "stablehlo.compare"(%48, %53) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %55 = "stablehlo.dot_general"(%51, %47#2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %56 = "stablehlo.tanh"(%55) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %57 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %59 = "stablehlo.subtract"(%58, %56) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %60 = "stablehlo.multiply"(%47#3, %59) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %61 = "stablehlo.multiply"(%60, %56) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %62 = "stablehlo.add"(%60, %61) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %63 = "stablehlo.dot_general"(%62, %47#2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %64 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %66 = "stablehlo.select"(%54, %63, %65) : (tensor<8x32xi1>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %67 = "stablehlo.dot_general"(%66, %47#0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %68 = "stablehlo.transpose"(%67) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %69 = "stablehlo.add"(%45, %68) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %70 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %71 = mesh.shard %69 to %70 : tensor<16x32xf32>
    return %71 : tensor<16x32xf32>
  }
}
