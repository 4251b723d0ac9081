"builtin.module"() <{sym_name = "jit_llama_grad"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{devices=[2,4,1]<=[8]}"}, {mhlo.sharding = "{devices=[2,4,1]<=[8]}"}, {mhlo.sharding = "{devices=[2,4,1]<=[8]}"}, {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0)}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{devices=[2,4]<=[8]}"}, {mhlo.sharding = "{devices=[2,4]<=[8]}"}, {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}], function_type = (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16x8x4xf32>, tensor<16x4x4xf32>, tensor<16x4x4xf32>, tensor<8x4x16xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<16x8x4xf32>, tensor<16x32xf32>, tensor<32x16xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,4,1]<=[8]}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg11: tensor<2x8x16xf32>, %arg12: tensor<16xf32>, %arg13: tensor<16x8x4xf32>, %arg14: tensor<16x4x4xf32>, %arg15: tensor<16x4x4xf32>, %arg16: tensor<8x4x16xf32>, %arg17: tensor<16xf32>, %arg18: tensor<16x32xf32>, %arg19: tensor<16x32xf32>, %arg20: tensor<32x16xf32>):
    %33 = "stablehlo.multiply"(%arg11, %arg11) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %34 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.reduce"(%33, %34) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %280 = "stablehlo.add"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%280) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %37 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %39 = "stablehlo.divide"(%36, %38) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %40 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %42 = "stablehlo.add"(%39, %41) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %43 = "stablehlo.rsqrt"(%42) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %45 = "stablehlo.multiply"(%arg11, %44) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %46 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %48 = "stablehlo.multiply"(%45, %47) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %49 = "stablehlo.dot_general"(%48, %arg13) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x8x4xf32>) -> tensor<2x8x8x4xf32>
    %50 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<2xf32>
    %51 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %53 = "stablehlo.multiply"(%52, %50) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %54 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %56 = "stablehlo.add"(%55, %53) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %57 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %59 = "stablehlo.divide"(%56, %58) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %60 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %62 = "stablehlo.power"(%61, %59) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %63 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %65 = "stablehlo.divide"(%64, %62) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %66 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %68 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %69 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x2xf32>
    %70 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<8x2xf32>
    %71 = "stablehlo.multiply"(%69, %70) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    %72 = "stablehlo.cosine"(%71) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %74 = "stablehlo.sine"(%71) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %76 = "stablehlo.slice"(%49) <{limit_indices = array<i64: 2, 8, 8, 2>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x2xf32>
    %77 = "stablehlo.slice"(%49) <{limit_indices = array<i64: 2, 8, 8, 4>, start_indices = array<i64: 0, 0, 0, 2>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x2xf32>
    %78 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %79 = "stablehlo.multiply"(%76, %78) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %80 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %81 = "stablehlo.multiply"(%77, %80) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %82 = "stablehlo.subtract"(%79, %81) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %83 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %84 = "stablehlo.multiply"(%76, %83) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %85 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %86 = "stablehlo.multiply"(%77, %85) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %87 = "stablehlo.add"(%84, %86) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %88 = "stablehlo.concatenate"(%82, %87) <{dimension = 3 : i64}> : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x4xf32>
    %89 = "stablehlo.dot_general"(%48, %arg14) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %90 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<2xf32>
    %91 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %92 = "stablehlo.broadcast_in_dim"(%91) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %93 = "stablehlo.multiply"(%92, %90) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %94 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %95 = "stablehlo.broadcast_in_dim"(%94) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %96 = "stablehlo.add"(%95, %93) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %97 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %98 = "stablehlo.broadcast_in_dim"(%97) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %99 = "stablehlo.divide"(%96, %98) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %100 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %101 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %102 = "stablehlo.power"(%101, %99) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %103 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %104 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %105 = "stablehlo.divide"(%104, %102) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %106 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
    %107 = "stablehlo.broadcast_in_dim"(%106) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %108 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %109 = "stablehlo.broadcast_in_dim"(%107) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x2xf32>
    %110 = "stablehlo.broadcast_in_dim"(%108) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<8x2xf32>
    %111 = "stablehlo.multiply"(%109, %110) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    %112 = "stablehlo.cosine"(%111) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %113 = "stablehlo.broadcast_in_dim"(%112) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %114 = "stablehlo.sine"(%111) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %115 = "stablehlo.broadcast_in_dim"(%114) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %116 = "stablehlo.slice"(%89) <{limit_indices = array<i64: 2, 8, 4, 2>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2xf32>
    %117 = "stablehlo.slice"(%89) <{limit_indices = array<i64: 2, 8, 4, 4>, start_indices = array<i64: 0, 0, 0, 2>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2xf32>
    %118 = "stablehlo.broadcast_in_dim"(%113) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %119 = "stablehlo.multiply"(%116, %118) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %120 = "stablehlo.broadcast_in_dim"(%115) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %121 = "stablehlo.multiply"(%117, %120) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %122 = "stablehlo.subtract"(%119, %121) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %123 = "stablehlo.broadcast_in_dim"(%115) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %124 = "stablehlo.multiply"(%116, %123) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %125 = "stablehlo.broadcast_in_dim"(%113) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x4x2xf32>
    %126 = "stablehlo.multiply"(%117, %125) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %127 = "stablehlo.add"(%124, %126) : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x2xf32>
    %128 = "stablehlo.concatenate"(%122, %127) <{dimension = 3 : i64}> : (tensor<2x8x4x2xf32>, tensor<2x8x4x2xf32>) -> tensor<2x8x4x4xf32>
    %129 = "stablehlo.broadcast_in_dim"(%128) <{broadcast_dimensions = array<i64: 0, 1, 2, 4>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2x4xf32>
    %130 = "stablehlo.reshape"(%129) : (tensor<2x8x4x2x4xf32>) -> tensor<2x8x8x4xf32>
    %131 = "stablehlo.dot_general"(%48, %arg15) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %132 = "stablehlo.broadcast_in_dim"(%131) <{broadcast_dimensions = array<i64: 0, 1, 2, 4>}> : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x2x4xf32>
    %133 = "stablehlo.reshape"(%132) : (tensor<2x8x4x2x4xf32>) -> tensor<2x8x8x4xf32>
    %134 = "stablehlo.dot_general"(%88, %130) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) -> tensor<2x8x8x8xf32>
    %135 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %137 = "stablehlo.divide"(%134, %136) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %138 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %139 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %140 = "func.call"(%139) <{callee = @tril}> : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %141 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %142:2 = "func.call"(%140, %137, %141) <{callee = @_where}> : (tensor<8x8xi1>, tensor<2x8x8x8xf32>, tensor<f32>) -> (tensor<2x8x8x8xf32>, tensor<2x8x8x8xi1>)
    %143 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %144 = "stablehlo.reduce"(%142#0, %143) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %279 = "stablehlo.maximum"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%279) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %145 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %146 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8xf32>
    %147 = "stablehlo.maximum"(%146, %144) : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %148 = "stablehlo.broadcast_in_dim"(%147) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x8xf32>) -> tensor<2x8x8x1xf32>
    %149 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x8xf32>
    %150 = "stablehlo.subtract"(%142#0, %149) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %151 = "stablehlo.exponential"(%150) : (tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %152 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %153 = "stablehlo.reduce"(%151, %152) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %278 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%278) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %154 = "stablehlo.broadcast_in_dim"(%153) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x8xf32>) -> tensor<2x8x8x1xf32>
    %155 = "stablehlo.broadcast_in_dim"(%154) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x8xf32>
    %156 = "stablehlo.divide"(%151, %155) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %157 = "stablehlo.multiply"(%154, %154) : (tensor<2x8x8x1xf32>, tensor<2x8x8x1xf32>) -> tensor<2x8x8x1xf32>
    %158 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %159 = "stablehlo.broadcast_in_dim"(%158) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x1xf32>
    %160 = "stablehlo.divide"(%159, %157) : (tensor<2x8x8x1xf32>, tensor<2x8x8x1xf32>) -> tensor<2x8x8x1xf32>
    %161 = "stablehlo.dot_general"(%133, %156) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x4x8xf32>
    %162 = "stablehlo.transpose"(%161) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x8x4x8xf32>) -> tensor<2x8x8x4xf32>
    %163 = "stablehlo.dot_general"(%162, %arg16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [3, 2], rhs_contracting_dimensions = [1, 0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<8x4x16xf32>) -> tensor<2x8x16xf32>
    %164 = "stablehlo.add"(%arg11, %163) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %165 = "stablehlo.multiply"(%164, %164) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %166 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %167 = "stablehlo.reduce"(%165, %166) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %277 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%277) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %168 = "stablehlo.broadcast_in_dim"(%167) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %169 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %170 = "stablehlo.broadcast_in_dim"(%169) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %171 = "stablehlo.divide"(%168, %170) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %172 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %173 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %174 = "stablehlo.add"(%171, %173) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %175 = "stablehlo.rsqrt"(%174) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %176 = "stablehlo.divide"(%175, %174) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %177 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %178 = "stablehlo.broadcast_in_dim"(%177) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %179 = "stablehlo.multiply"(%178, %176) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %180 = "stablehlo.broadcast_in_dim"(%175) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %181 = "stablehlo.multiply"(%164, %180) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %182 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %183 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %184 = "stablehlo.multiply"(%181, %183) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %185 = "stablehlo.dot_general"(%184, %arg18) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
    %186:3 = "func.call"(%185) <{callee = @silu}> : (tensor<2x8x32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>)
    %187 = "stablehlo.dot_general"(%184, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
    %188 = "stablehlo.multiply"(%186#0, %187) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %189 = "stablehlo.dot_general"(%188, %arg20) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
    %190 = "stablehlo.add"(%164, %189) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %191 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %192 = "stablehlo.broadcast_in_dim"(%191) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x16xf32>
    %193 = "stablehlo.multiply"(%192, %190) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %194 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %195 = "stablehlo.constant"() <{value = dense<2.560000e+02> : tensor<f32>}> : () -> tensor<f32>
    %196 = "stablehlo.divide"(%194, %195) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %197 = "stablehlo.broadcast_in_dim"(%196) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x16xf32>
    %198 = "stablehlo.multiply"(%197, %193) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %199 = "stablehlo.dot_general"(%198, %188) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<2x8x32xf32>) -> tensor<16x32xf32>
    %200 = "stablehlo.transpose"(%199) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %201 = "stablehlo.dot_general"(%198, %arg20) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<32x16xf32>) -> tensor<2x8x32xf32>
    %202 = "stablehlo.multiply"(%186#0, %201) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %203 = "stablehlo.multiply"(%201, %187) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %204 = "stablehlo.dot_general"(%202, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<16x32xf32>) -> tensor<2x8x16xf32>
    %205 = "func.call"(%186#1, %186#2, %185, %203) <{callee = @silu_0}> : (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %206 = "stablehlo.dot_general"(%205, %184) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<2x8x16xf32>) -> tensor<32x16xf32>
    %207 = "stablehlo.transpose"(%206) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %208 = "stablehlo.dot_general"(%205, %arg18) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<16x32xf32>) -> tensor<2x8x16xf32>
    %209 = "stablehlo.add"(%204, %208) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %210 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %211 = "stablehlo.multiply"(%209, %210) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %212 = "stablehlo.multiply"(%164, %211) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %213 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %214 = "stablehlo.reduce"(%212, %213) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %276 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%276) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %215 = "stablehlo.reshape"(%214) : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %216 = "stablehlo.broadcast_in_dim"(%175) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %217 = "stablehlo.multiply"(%211, %216) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %218 = "stablehlo.add"(%198, %217) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %219 = "stablehlo.multiply"(%215, %179) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %220 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %221 = "stablehlo.broadcast_in_dim"(%220) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %222 = "stablehlo.divide"(%219, %221) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %223 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %224 = "stablehlo.reduce"(%222, %223) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %275 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%275) : (tensor<f32>) -> ()
    }) : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %225 = "stablehlo.broadcast_in_dim"(%224) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
    %226 = "stablehlo.multiply"(%164, %225) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %227 = "stablehlo.add"(%218, %226) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %228 = "stablehlo.multiply"(%225, %164) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %229 = "stablehlo.add"(%227, %228) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %230 = "stablehlo.dot_general"(%229, %arg16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<8x4x16xf32>) -> tensor<2x8x8x4xf32>
    %231 = "stablehlo.transpose"(%230) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x4x8xf32>
    %232 = "stablehlo.dot_general"(%231, %133) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x4x8xf32>, tensor<2x8x8x4xf32>) -> tensor<2x8x8x8xf32>
    %233 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x8xf32>
    %234 = "stablehlo.multiply"(%232, %233) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %235 = "stablehlo.multiply"(%234, %151) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %236 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %237 = "stablehlo.reduce"(%235, %236) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %274 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%274) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %238 = "stablehlo.reshape"(%237) : (tensor<2x8x8xf32>) -> tensor<2x8x8x1xf32>
    %239 = "stablehlo.negate"(%238) : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x1xf32>
    %240 = "stablehlo.broadcast_in_dim"(%154) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x8x1xf32>) -> tensor<2x8x8x8xf32>
    %241 = "stablehlo.divide"(%232, %240) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %242 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %243 = "stablehlo.reduce"(%239, %242) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %273 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%273) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8x1xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %244 = "stablehlo.broadcast_in_dim"(%243) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x8xf32>) -> tensor<2x8x8x8xf32>
    %245 = "stablehlo.add"(%241, %244) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %246 = "stablehlo.multiply"(%245, %151) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %247 = "func.call"(%142#1, %246) <{callee = @_where_1}> : (tensor<2x8x8x8xi1>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %248 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %249 = "stablehlo.broadcast_in_dim"(%248) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %250 = "stablehlo.divide"(%247, %249) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %251 = "stablehlo.dot_general"(%250, %130) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x8xf32>, tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %252 = "stablehlo.transpose"(%251) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %253 = "stablehlo.slice"(%252) <{limit_indices = array<i64: 2, 8, 8, 2>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x2xf32>
    %254 = "stablehlo.slice"(%252) <{limit_indices = array<i64: 2, 8, 8, 4>, start_indices = array<i64: 0, 0, 0, 2>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x2xf32>
    %255 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %256 = "stablehlo.multiply"(%254, %255) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %257 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %258 = "stablehlo.multiply"(%254, %257) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %259 = "stablehlo.negate"(%253) : (tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %260 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %261 = "stablehlo.multiply"(%259, %260) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %262 = "stablehlo.add"(%256, %261) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %263 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x8x1x2xf32>) -> tensor<2x8x8x2xf32>
    %264 = "stablehlo.multiply"(%253, %263) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %265 = "stablehlo.add"(%258, %264) : (tensor<2x8x8x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
    %266 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %267 = "stablehlo.pad"(%262, %266) <{edge_padding_high = array<i64: 0, 0, 0, 0>, edge_padding_low = array<i64: 0, 0, 0, 2>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x8x8x2xf32>, tensor<f32>) -> tensor<2x8x8x4xf32>
    %268 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %269 = "stablehlo.pad"(%265, %268) <{edge_padding_high = array<i64: 0, 0, 0, 2>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x8x8x2xf32>, tensor<f32>) -> tensor<2x8x8x4xf32>
    %270 = "stablehlo.add"(%267, %269) : (tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %271 = "stablehlo.dot_general"(%270, %48) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x4xf32>, tensor<2x8x16xf32>) -> tensor<8x4x16xf32>
    %272 = "stablehlo.transpose"(%271) <{permutation = array<i64: 2, 0, 1>}> : (tensor<8x4x16xf32>) -> tensor<16x8x4xf32>
    "func.return"(%272, %207, %200) : (tensor<16x8x4xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x8xi1>) -> tensor<8x8xi1>, res_attrs = [{}], sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<8x8xi1>):
    %24 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x8xi32>
    %25 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %27 = "stablehlo.add"(%24, %26) : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %28 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x8xi32>
    %29 = "stablehlo.compare"(%27, %28) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %30 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %32 = "stablehlo.select"(%29, %arg10, %31) : (tensor<8x8xi1>, tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    "func.return"(%32) : (tensor<8x8xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x8xi1>, tensor<2x8x8x8xf32>, tensor<f32>) -> (tensor<2x8x8x8xf32>, tensor<2x8x8x8xi1>), res_attrs = [{}, {}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<8x8xi1>, %arg8: tensor<2x8x8x8xf32>, %arg9: tensor<f32>):
    %20 = "stablehlo.convert"(%arg9) : (tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<8x8xi1>) -> tensor<2x8x8x8xi1>
    %22 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %23 = "stablehlo.select"(%21, %arg8, %22) : (tensor<2x8x8x8xi1>, tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    "func.return"(%23, %21) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x8x32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>), res_attrs = [{}, {}, {}], sym_name = "silu", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<2x8x32xf32>):
    %7 = "stablehlo.negate"(%arg6) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %8 = "stablehlo.exponential"(%7) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %9 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x32xf32>
    %11 = "stablehlo.add"(%10, %8) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %12 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x32xf32>
    %14 = "stablehlo.divide"(%13, %11) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x32xf32>
    %17 = "stablehlo.subtract"(%16, %14) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %18 = "stablehlo.multiply"(%14, %17) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %19 = "stablehlo.multiply"(%arg6, %14) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    "func.return"(%19, %18, %14) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}, {}], function_type = (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>, res_attrs = [{}], sym_name = "silu_0", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<2x8x32xf32>, %arg3: tensor<2x8x32xf32>, %arg4: tensor<2x8x32xf32>, %arg5: tensor<2x8x32xf32>):
    %3 = "stablehlo.multiply"(%arg4, %arg5) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %4 = "stablehlo.multiply"(%arg5, %arg3) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %5 = "stablehlo.multiply"(%3, %arg2) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %6 = "stablehlo.add"(%4, %5) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    "func.return"(%6) : (tensor<2x8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x8x8x8xi1>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>, res_attrs = [{}], sym_name = "_where_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x8x8x8xi1>, %arg1: tensor<2x8x8x8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<2x8x8x8xi1>, tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    "func.return"(%2) : (tensor<2x8x8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
