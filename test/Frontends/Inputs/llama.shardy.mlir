"builtin.module"() <{sym_name = "jit_llama"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}], function_type = (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16x8x4xf32>, tensor<16x4x4xf32>, tensor<16x4x4xf32>, tensor<8x4x16xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<2x8x16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x8x4xf32>, %arg8: tensor<16x4x4xf32>, %arg9: tensor<16x4x4xf32>, %arg10: tensor<8x4x16xf32>, %arg11: tensor<16xf32>, %arg12: tensor<16x32xf32>, %arg13: tensor<16x32xf32>, %arg14: tensor<32x16xf32>):
    %22 = "stablehlo.multiply"(%arg5, %arg5) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%22, %23) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %175 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%175) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %26 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %28 = "stablehlo.divide"(%25, %27) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %29 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %31 = "stablehlo.add"(%28, %30) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %32 = "stablehlo.rsqrt"(%31) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %34 = "stablehlo.multiply"(%arg5, %33) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %35 = "stablehlo.broadcast_in_dim"(%arg6) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %37 = "stablehlo.multiply"(%34, %36) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %38 = "stablehlo.dot_general"(%37, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x8x4xf32>) -> tensor<2x8x8x4xf32>
    %39 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<2xf32>
    %40 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %42 = "stablehlo.multiply"(%41, %39) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %43 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %45 = "stablehlo.add"(%44, %42) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %46 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %48 = "stablehlo.divide"(%45, %47) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %49 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %51 = "stablehlo.power"(%50, %48) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %52 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %54 = "stablehlo.divide"(%53, %51) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %55 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %57 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %58 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x2xf32>
    %59 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<8x2xf32>
    %60 = "stablehlo.multiply"(%58, %59) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    %61 = "stablehlo.cosine"(%60) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %62 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %63 = "stablehlo.sine"(%60) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %65 = "stablehlo.slice"(%38) <{limit_indices = array<i64: 2, 8, 8, 2>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x2xf32>
    %66 = "stablehlo.slice"(%38) <{limit_indices = array<i64: 2, 8, 8, 4>, start_indices = array<i64: 0, 0, 0, 2>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x2xf32>
    %67 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %68 = "stablehlo.multiply"(%65, %67) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %69 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %70 = "stablehlo.multiply"(%66, %69) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %71 = "stablehlo.subtract"(%68, %70) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %72 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %73 = "stablehlo.multiply"(%65, %72) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %74 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %75 = "stablehlo.multiply"(%66, %74) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %76 = "stablehlo.add"(%73, %75) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %77 = "stablehlo.concatenate"(%71, %76) <{dimension = 3 : i64}> : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x4xf32>
    %78 = "stablehlo.dot_general"(%37, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %79 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<2xf32>
    %80 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %81 = "stablehlo.broadcast_in_dim"(%80) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %82 = "stablehlo.multiply"(%81, %79) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %83 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %85 = "stablehlo.add"(%84, %82) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %86 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %87 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %88 = "stablehlo.divide"(%85, %87) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %89 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %90 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %91 = "stablehlo.power"(%90, %88) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %92 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %94 = "stablehlo.divide"(%93, %91) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %95 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
    %96 = "stablehlo.broadcast_in_dim"(%95) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %97 = "stablehlo.broadcast_in_dim"(%94) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %98 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x2xf32>
    %99 = "stablehlo.broadcast_in_dim"(%97) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<8x2xf32>
    %100 = "stablehlo.multiply"(%98, %99) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    %101 = "stablehlo.cosine"(%100) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %102 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %103 = "stablehlo.sine"(%100) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %104 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %105 = "stablehlo.slice"(%78) <{limit_indices = array<i64: 2, 8, 4, 2>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2xf32>
    %106 = "stablehlo.slice"(%78) <{limit_indices = array<i64: 2, 8, 4, 4>, start_indices = array<i64: 0, 0, 0, 2>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2xf32>
    %107 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %108 = "stablehlo.multiply"(%105, %107) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %109 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %110 = "stablehlo.multiply"(%106, %109) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %111 = "stablehlo.subtract"(%108, %110) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %112 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %113 = "stablehlo.multiply"(%105, %112) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %114 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %115 = "stablehlo.multiply"(%106, %114) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %116 = "stablehlo.add"(%113, %115) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %117 = "stablehlo.concatenate"(%111, %116) <{dimension = 3 : i64}> : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x4xf32>
    %118 = "stablehlo.broadcast_in_dim"(%117) <{broadcast_dimensions = array<i64: 0, 1, 2, 4>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2x4xf32>
    %119 = "stablehlo.reshape"(%118) : (tensor<2x8x4x2x4xf32>) -> tensor<2x8x8x4xf32>
    %120 = "stablehlo.dot_general"(%37, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %121 = "stablehlo.broadcast_in_dim"(%120) <{broadcast_dimensions = array<i64: 0, 1, 2, 4>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2x4xf32>
    %122 = "stablehlo.reshape"(%121) : (tensor<2x8x4x2x4xf32>) -> tensor<2x8x8x4xf32>
    %123 = "stablehlo.dot_general"(%77, %119) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) -> tensor<2x8x8x8xf32>
    %124 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %125 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %126 = "stablehlo.divide"(%123, %125) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %127 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %129 = "func.call"(%128) <{callee = @tril}> : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %130 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %131 = "func.call"(%129, %126, %130) <{callee = @_where}> : (tensor<8x8xi1>, tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
    %132 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %133 = "stablehlo.reduce"(%131, %132) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %174 = "stablehlo.maximum"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%174) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %134 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %135 = "stablehlo.broadcast_in_dim"(%134) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8xf32>
    %136 = "stablehlo.maximum"(%135, %133) : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %137 = "stablehlo.broadcast_in_dim"(%136) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x8xf32>) -> tensor<2x8x8x1xf32>
    %138 = "stablehlo.broadcast_in_dim"(%137) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x8xf32>
    %139 = "stablehlo.subtract"(%131, %138) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %140 = "stablehlo.exponential"(%139) : (tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %141 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %142 = "stablehlo.reduce"(%140, %141) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %173 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%173) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %143 = "stablehlo.broadcast_in_dim"(%142) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x8xf32>) -> tensor<2x8x8x1xf32>
    %144 = "stablehlo.broadcast_in_dim"(%143) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x8xf32>
    %145 = "stablehlo.divide"(%140, %144) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %146 = "stablehlo.dot_general"(%122, %145) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x4x8xf32>
    %147 = "stablehlo.transpose"(%146) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x8x4x8xf32>) -> tensor<2x8x8x4xf32>
    %148 = "stablehlo.dot_general"(%147, %arg10) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [3, 2], rhs_contracting_dimensions = [1, 0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<8x4x16xf32>) -> tensor<2x8x16xf32>
    %149 = "stablehlo.add"(%arg5, %148) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %150 = "stablehlo.multiply"(%149, %149) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %151 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %152 = "stablehlo.reduce"(%150, %151) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %172 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%172) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %153 = "stablehlo.broadcast_in_dim"(%152) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %154 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %155 = "stablehlo.broadcast_in_dim"(%154) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %156 = "stablehlo.divide"(%153, %155) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %157 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %158 = "stablehlo.broadcast_in_dim"(%157) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %159 = "stablehlo.add"(%156, %158) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %160 = "stablehlo.rsqrt"(%159) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %161 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %162 = "stablehlo.multiply"(%149, %161) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %163 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %164 = "stablehlo.broadcast_in_dim"(%163) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %165 = "stablehlo.multiply"(%162, %164) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %166 = "stablehlo.dot_general"(%165, %arg12) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
    %167 = "func.call"(%166) <{callee = @silu}> : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %168 = "stablehlo.dot_general"(%165, %arg13) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
    %169 = "stablehlo.multiply"(%167, %168) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %170 = "stablehlo.dot_general"(%169, %arg14) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
    %171 = "stablehlo.add"(%149, %170) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    "func.return"(%171) : (tensor<2x8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x8xi1>) -> tensor<8x8xi1>, res_attrs = [{}], sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<8x8xi1>):
    %13 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x8xi32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %16 = "stablehlo.add"(%13, %15) : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %17 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x8xi32>
    %18 = "stablehlo.compare"(%16, %17) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %19 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %21 = "stablehlo.select"(%18, %arg4, %20) : (tensor<8x8xi1>, tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    "func.return"(%21) : (tensor<8x8xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x8xi1>, tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<8x8xi1>, %arg2: tensor<2x8x8x8xf32>, %arg3: tensor<f32>):
    %9 = "stablehlo.convert"(%arg3) : (tensor<f32>) -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<8x8xi1>) -> tensor<2x8x8x8xi1>
    %11 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %12 = "stablehlo.select"(%10, %arg2, %11) : (tensor<2x8x8x8xi1>, tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    "func.return"(%12) : (tensor<2x8x8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>, res_attrs = [{}], sym_name = "silu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x8x32xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %1 = "stablehlo.exponential"(%0) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x32xf32>
    %4 = "stablehlo.add"(%3, %1) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x32xf32>
    %7 = "stablehlo.divide"(%6, %4) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %8 = "stablehlo.multiply"(%arg0, %7) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    "func.return"(%8) : (tensor<2x8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
