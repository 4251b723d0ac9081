// masked-2d: masked exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x16xi32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x16xi32>
    %5 = "stablehlo.add"(%2, %4) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %6 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x16xi32>
    %7 = "stablehlo.compare"(%5, %6) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %10 = "stablehlo.select"(%7, %1, %9) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %11 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x16xi32>
    %12 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %14:2 = "stablehlo.reduce"(%1, %11, %12, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %43 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %44 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %45 = "stablehlo.or"(%43, %44) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %46 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %47 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %48 = "stablehlo.and"(%46, %47) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %49 = "stablehlo.or"(%45, %48) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %50 = "stablehlo.select"(%45, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %51 = "stablehlo.select"(%49, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%50, %51) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    %15 = "stablehlo.convert"(%14#1) : (tensor<8xi32>) -> tensor<8xf32>
    %16 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.convert"(%16) : (tensor<f32>) -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %20 = "stablehlo.maximum"(%19, %1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %21 = "stablehlo.convert"(%17) : (tensor<f32>) -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %23 = "stablehlo.minimum"(%22, %20) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %24 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %26 = "stablehlo.multiply"(%25, %23) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %27 = "stablehlo.negate"(%23) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %28 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %30 = "stablehlo.multiply"(%27, %29) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %31 = "chlo.erfc"(%30) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %32 = "stablehlo.multiply"(%26, %31) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %33 = "stablehlo.add"(%10, %32) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %34 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %36 = "stablehlo.add"(%33, %35) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %37 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %40 = "stablehlo.add"(%36, %39) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %41 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %42 = mesh.shard %40 to %41 : tensor<8x16xf32>
    return %42 : tensor<8x16xf32>
  }
}
