// layernorm-2d: layernorm exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> tensor<8x16xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<16xf32>
    %4 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<16xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%1, %6) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %52 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%52) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %11 = "stablehlo.divide"(%8, %10) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %12 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%1, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %52 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%52) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %16 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %18 = "stablehlo.divide"(%15, %17) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %20 = "stablehlo.subtract"(%1, %19) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %21 = "chlo.square"(%20) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %22 = "stablehlo.convert"(%12) : (tensor<i32>) -> tensor<f32>
    %23 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.subtract"(%23, %22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %25 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.reduce"(%21, %25) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %52 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%52) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %28 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %29 = "stablehlo.divide"(%27, %28) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %30 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.compare"(%24, %30) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %32 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.convert"(%32) : (tensor<f32>) -> tensor<f32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %35 = "stablehlo.select"(%31, %29, %34) : (tensor<i1>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %36 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %37 = "stablehlo.subtract"(%1, %36) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %38 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %40 = "stablehlo.add"(%35, %39) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %41 = "stablehlo.rsqrt"(%40) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %43 = "stablehlo.multiply"(%37, %42) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %44 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %46 = "stablehlo.multiply"(%43, %45) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %47 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %49 = "stablehlo.add"(%46, %48) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %50 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %51 = mesh.shard %49 to %50 : tensor<8x16xf32>
    return %51 : tensor<8x16xf32>
  }
}
