// sort-2d: sorts exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<264xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = "stablehlo.sort"(%1) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %48 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %49 = "stablehlo.compare"(%arg1, %48) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %50 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %51 = "stablehlo.select"(%49, %50, %arg1) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %52 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %53 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %54 = "stablehlo.select"(%52, %53, %51) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %55 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %56 = "stablehlo.compare"(%arg2, %55) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %57 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %58 = "stablehlo.select"(%56, %57, %arg2) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %59 = "stablehlo.compare"(%arg2, %arg2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %60 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %61 = "stablehlo.select"(%59, %60, %58) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %62 = "stablehlo.compare"(%54, %61) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%62) : (tensor<i1>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x16xi32>
    %4:2 = "stablehlo.sort"(%1, %3) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %48 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %49 = "stablehlo.compare"(%arg1, %48) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %50 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %51 = "stablehlo.select"(%49, %50, %arg1) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %52 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %53 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %54 = "stablehlo.select"(%52, %53, %51) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %55 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %56 = "stablehlo.compare"(%arg2, %55) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %57 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %58 = "stablehlo.select"(%56, %57, %arg2) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %59 = "stablehlo.compare"(%arg2, %arg2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %60 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %61 = "stablehlo.select"(%59, %60, %58) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %62 = "stablehlo.compare"(%54, %61) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%62) : (tensor<i1>) -> ()
    }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
    %5 = "stablehlo.convert"(%4#1) : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %6 = "stablehlo.reshape"(%2) : (tensor<8x16xf32>) -> tensor<128xf32>
    %7 = "stablehlo.reshape"(%5) : (tensor<8x16xf32>) -> tensor<128xf32>
    %8 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.compare"(%1, %1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %10 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
      %48 = "stablehlo.or"(%arg1, %arg2) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%48) : (tensor<i1>) -> ()
    }) : (tensor<8x16xi1>, tensor<i1>) -> tensor<8xi1>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi1>) -> tensor<8x1xi1>
    %13 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.convert"(%13) : (tensor<f32>) -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xi1>) -> tensor<8x16xi1>
    %16 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %17 = "stablehlo.select"(%15, %16, %1) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %18 = "stablehlo.sort"(%17) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %48 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %49 = "stablehlo.compare"(%arg1, %48) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %50 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %51 = "stablehlo.select"(%49, %50, %arg1) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %52 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %53 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %54 = "stablehlo.select"(%52, %53, %51) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %55 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %56 = "stablehlo.compare"(%arg2, %55) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %57 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %58 = "stablehlo.select"(%56, %57, %arg2) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %59 = "stablehlo.compare"(%arg2, %arg2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %60 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %61 = "stablehlo.select"(%59, %60, %58) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %62 = "stablehlo.compare"(%54, %61) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%62) : (tensor<i1>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %19 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.subtract"(%19, %20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %22 = "stablehlo.multiply"(%8, %21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %23 = "stablehlo.floor"(%22) : (tensor<f32>) -> tensor<f32>
    %24 = "stablehlo.ceil"(%22) : (tensor<f32>) -> tensor<f32>
    %25 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.subtract"(%25, %26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %28 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.clamp"(%28, %23, %27) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %30 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.subtract"(%30, %31) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %33 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %34 = "stablehlo.clamp"(%33, %24, %32) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %35 = "stablehlo.convert"(%29) : (tensor<f32>) -> tensor<i32>
    %36 = "stablehlo.convert"(%34) : (tensor<f32>) -> tensor<i32>
    %37 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %38 = "stablehlo.gather"(%18, %37) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x16xf32>, tensor<1xi32>) -> tensor<8xf32>
    %39 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %40 = "stablehlo.gather"(%18, %39) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x16xf32>, tensor<1xi32>) -> tensor<8xf32>
    %41 = "stablehlo.add"(%38, %40) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %42 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %44 = "stablehlo.multiply"(%41, %43) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %45 = "stablehlo.concatenate"(%6, %7, %44) <{dimension = 0 : i64}> : (tensor<128xf32>, tensor<128xf32>, tensor<8xf32>) -> tensor<264xf32>
    %46 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %47 = mesh.shard %45 to %46 : tensor<264xf32>
    return %47 : tensor<264xf32>
  }
}
