// block-bf16-2d: block_bf16 exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<8x16xbf16>, %arg1: tensor<16x32xbf16>, %arg2: tensor<32x16xbf16>, %arg3: tensor<16xbf16>) -> tensor<8x16xbf16> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xbf16>
    %2 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<16x32xbf16>
    %4 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<32x16xbf16>
    %6 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %7 = mesh.shard %arg3 to %6 : tensor<16xbf16>
    %8 = "stablehlo.dot_general"(%1, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<bf16>}> : () -> tensor<bf16>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<bf16>) -> tensor<8x32xbf16>
    %11 = "stablehlo.maximum"(%8, %10) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
    %12 = "stablehlo.dot_general"(%11, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xbf16>, tensor<32x16xbf16>) -> tensor<8x16xbf16>
    %13 = "stablehlo.add"(%12, %1) : (tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %14 = "stablehlo.convert"(%13) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%14, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %61 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %18 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %20 = "stablehlo.divide"(%17, %19) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %21 = "stablehlo.convert"(%20) : (tensor<8x1xf32>) -> tensor<8x1xbf16>
    %22 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %23 = "stablehlo.convert"(%13) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
    %24 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.reduce"(%23, %24) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %61 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %27 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %29 = "stablehlo.divide"(%26, %28) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %31 = "stablehlo.subtract"(%23, %30) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %32 = "chlo.square"(%31) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %33 = "stablehlo.convert"(%22) : (tensor<i32>) -> tensor<f32>
    %34 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.subtract"(%34, %33) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %36 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.reduce"(%32, %36) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %61 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %39 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %40 = "stablehlo.divide"(%38, %39) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %41 = "stablehlo.convert"(%40) : (tensor<8x1xf32>) -> tensor<8x1xbf16>
    %42 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.compare"(%35, %42) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %44 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.convert"(%44) : (tensor<f32>) -> tensor<bf16>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64>}> : (tensor<bf16>) -> tensor<8x1xbf16>
    %47 = "stablehlo.select"(%43, %41, %46) : (tensor<i1>, tensor<8x1xbf16>, tensor<8x1xbf16>) -> tensor<8x1xbf16>
    %48 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xbf16>) -> tensor<8x16xbf16>
    %49 = "stablehlo.subtract"(%13, %48) : (tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %50 = "stablehlo.constant"() <{value = dense<1.001360e-05> : tensor<bf16>}> : () -> tensor<bf16>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64>}> : (tensor<bf16>) -> tensor<8x1xbf16>
    %52 = "stablehlo.add"(%47, %51) : (tensor<8x1xbf16>, tensor<8x1xbf16>) -> tensor<8x1xbf16>
    %53 = "stablehlo.rsqrt"(%52) : (tensor<8x1xbf16>) -> tensor<8x1xbf16>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xbf16>) -> tensor<8x16xbf16>
    %55 = "stablehlo.multiply"(%49, %54) : (tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %56 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xbf16>) -> tensor<1x16xbf16>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xbf16>) -> tensor<8x16xbf16>
    %58 = "stablehlo.multiply"(%55, %57) : (tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %59 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %60 = mesh.shard %58 to %59 : tensor<8x16xbf16>
    return %60 : tensor<8x16xbf16>
  }
}
