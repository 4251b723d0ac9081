"builtin.module"() <{sym_name = "jit_block_grad"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}], function_type = (tensor<16x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> (tensor<32x64xf32>, tensor<32xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x64xf32>, %arg3: tensor<64x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %85 = "stablehlo.add"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%85) : (tensor<f32>) -> ()
    }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %3 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %5 = "stablehlo.divide"(%2, %4) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x32xf32>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %8 = "chlo.square"(%7) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %84 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%84) : (tensor<f32>) -> ()
    }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %12 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %14 = "stablehlo.divide"(%11, %13) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %15 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x32xf32>
    %16 = "stablehlo.subtract"(%arg0, %15) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %17 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %19 = "stablehlo.add"(%14, %18) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %20 = "stablehlo.rsqrt"(%19) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x32xf32>
    %22 = "stablehlo.multiply"(%16, %21) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %23 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %25 = "stablehlo.multiply"(%22, %24) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %28 = "stablehlo.add"(%25, %27) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %29 = "stablehlo.dot_general"(%28, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %30 = "stablehlo.multiply"(%29, %29) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %31 = "stablehlo.multiply"(%30, %29) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %32 = "stablehlo.multiply"(%29, %29) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %33 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %35 = "stablehlo.multiply"(%34, %32) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %36 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %38 = "stablehlo.multiply"(%37, %31) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %39 = "stablehlo.add"(%29, %38) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %40 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %42 = "stablehlo.multiply"(%41, %39) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %43 = "stablehlo.tanh"(%42) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %44 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %46 = "stablehlo.subtract"(%45, %43) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %47 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %49 = "stablehlo.add"(%48, %43) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %50 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %52 = "stablehlo.multiply"(%51, %49) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %53 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %55 = "stablehlo.dot_general"(%54, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %56 = "stablehlo.multiply"(%29, %55) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %57 = "stablehlo.multiply"(%55, %52) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %58 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %59 = "stablehlo.broadcast_in_dim"(%58) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %60 = "stablehlo.multiply"(%59, %56) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %61 = "stablehlo.multiply"(%60, %46) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %62 = "stablehlo.multiply"(%61, %43) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %63 = "stablehlo.add"(%61, %62) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %64 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %66 = "stablehlo.multiply"(%65, %63) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %67 = "stablehlo.add"(%57, %66) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %68 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %69 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %70 = "stablehlo.multiply"(%69, %66) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %71 = "stablehlo.multiply"(%70, %35) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %72 = "stablehlo.add"(%67, %71) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %73 = "stablehlo.dot_general"(%72, %28) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %74 = "stablehlo.transpose"(%73) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %75 = "stablehlo.dot_general"(%72, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %76 = "stablehlo.multiply"(%22, %75) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %77 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %78 = "stablehlo.reduce"(%76, %77) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %83 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%83) : (tensor<f32>) -> ()
    }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %79 = "stablehlo.reshape"(%78) : (tensor<32xf32>) -> tensor<1x32xf32>
    %80 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %81 = "stablehlo.reduce"(%79, %80) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %82 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%82) : (tensor<f32>) -> ()
    }) : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    "func.return"(%74, %81) : (tensor<32x64xf32>, tensor<32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
