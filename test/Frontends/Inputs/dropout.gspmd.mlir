"builtin.module"() <{sym_name = "jit_dropout"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg43: tensor<8x16xf32>, %arg44: tensor<16x32xf32>, %arg45: tensor<32x16xf32>):
    %168 = "stablehlo.dot_general"(%arg43, %arg44) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %169 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %170 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %171 = "stablehlo.shift_right_logical"(%169, %170) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %172 = "stablehlo.convert"(%171) : (tensor<i32>) -> tensor<ui32>
    %173 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %174 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
    %175 = "stablehlo.and"(%169, %174) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %176 = "stablehlo.convert"(%175) : (tensor<i32>) -> tensor<ui32>
    %177 = "stablehlo.broadcast_in_dim"(%176) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %178 = "stablehlo.concatenate"(%173, %177) <{dimension = 0 : i64}> : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %179 = "stablehlo.constant"() <{value = dense<7.500000e-01> : tensor<f32>}> : () -> tensor<f32>
    %180 = "func.call"(%178, %179) <{callee = @_bernoulli}> : (tensor<2xui32>, tensor<f32>) -> tensor<8x32xi1>
    %181 = "stablehlo.constant"() <{value = dense<7.500000e-01> : tensor<f32>}> : () -> tensor<f32>
    %182 = "stablehlo.broadcast_in_dim"(%181) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %183 = "stablehlo.divide"(%168, %182) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %184 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %185 = "func.call"(%180, %183, %184) <{callee = @_where}> : (tensor<8x32xi1>, tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %186 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %187 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %188 = "stablehlo.shift_right_logical"(%186, %187) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %189 = "stablehlo.convert"(%188) : (tensor<i32>) -> tensor<ui32>
    %190 = "stablehlo.broadcast_in_dim"(%189) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %191 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
    %192 = "stablehlo.and"(%186, %191) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %193 = "stablehlo.convert"(%192) : (tensor<i32>) -> tensor<ui32>
    %194 = "stablehlo.broadcast_in_dim"(%193) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %195 = "stablehlo.concatenate"(%190, %194) <{dimension = 0 : i64}> : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %196 = "func.call"(%195) <{callee = @_normal}> : (tensor<2xui32>) -> tensor<8x32xf32>
    %197 = "stablehlo.constant"() <{value = dense<0.00999999977> : tensor<f32>}> : () -> tensor<f32>
    %198 = "stablehlo.broadcast_in_dim"(%197) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %199 = "stablehlo.multiply"(%198, %196) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %200 = "stablehlo.add"(%185, %199) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %201 = "stablehlo.dot_general"(%200, %arg45) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    "func.return"(%201) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2xui32>, tensor<f32>) -> tensor<8x32xi1>, res_attrs = [{}], sym_name = "_bernoulli", sym_visibility = "private"}> ({
  ^bb0(%arg41: tensor<2xui32>, %arg42: tensor<f32>):
    %163 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %164 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %165 = "func.call"(%arg41, %163, %164) <{callee = @_uniform}> : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x32xf32>
    %166 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %167 = "stablehlo.compare"(%165, %166) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    "func.return"(%167) : (tensor<8x32xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "_uniform", sym_visibility = "private"}> ({
  ^bb0(%arg38: tensor<2xui32>, %arg39: tensor<f32>, %arg40: tensor<f32>):
    %122 = "stablehlo.convert"(%arg39) : (tensor<f32>) -> tensor<f32>
    %123 = "stablehlo.convert"(%arg40) : (tensor<f32>) -> tensor<f32>
    %124 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %125 = "stablehlo.broadcast_in_dim"(%123) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %126 = "stablehlo.slice"(%arg38) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %127 = "stablehlo.reshape"(%126) : (tensor<1xui32>) -> tensor<ui32>
    %128 = "stablehlo.slice"(%arg38) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %129 = "stablehlo.reshape"(%128) : (tensor<1xui32>) -> tensor<ui32>
    %130 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x32xui64>
    %131 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x32xui64>
    %132 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %133 = "stablehlo.broadcast_in_dim"(%132) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x32xui64>
    %134 = "stablehlo.multiply"(%133, %130) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %135 = "stablehlo.constant"() <{value = dense<1> : tensor<ui64>}> : () -> tensor<ui64>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x32xui64>
    %137 = "stablehlo.multiply"(%136, %131) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %138 = "stablehlo.add"(%134, %137) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %139 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %140 = "stablehlo.broadcast_in_dim"(%139) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x32xui64>
    %141 = "stablehlo.shift_right_logical"(%138, %140) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %142 = "stablehlo.convert"(%138) : (tensor<8x32xui64>) -> tensor<8x32xui32>
    %143 = "stablehlo.convert"(%141) : (tensor<8x32xui64>) -> tensor<8x32xui32>
    %144:2 = "func.call"(%127, %129, %143, %142) <{callee = @threefry2x32}> : (tensor<ui32>, tensor<ui32>, tensor<8x32xui32>, tensor<8x32xui32>) -> (tensor<8x32xui32>, tensor<8x32xui32>)
    %145 = "stablehlo.xor"(%144#0, %144#1) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %146 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %147 = "stablehlo.broadcast_in_dim"(%146) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %148 = "stablehlo.shift_right_logical"(%145, %147) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %149 = "stablehlo.constant"() <{value = dense<1065353216> : tensor<ui32>}> : () -> tensor<ui32>
    %150 = "stablehlo.broadcast_in_dim"(%149) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %151 = "stablehlo.or"(%148, %150) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %152 = "stablehlo.bitcast_convert"(%151) : (tensor<8x32xui32>) -> tensor<8x32xf32>
    %153 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %154 = "stablehlo.broadcast_in_dim"(%153) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %155 = "stablehlo.subtract"(%152, %154) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %156 = "stablehlo.subtract"(%125, %124) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %157 = "stablehlo.broadcast_in_dim"(%156) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x32xf32>
    %158 = "stablehlo.multiply"(%155, %157) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %159 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x32xf32>
    %160 = "stablehlo.add"(%158, %159) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %161 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x32xf32>
    %162 = "stablehlo.maximum"(%161, %160) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%162) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<ui32>, tensor<ui32>, tensor<8x32xui32>, tensor<8x32xui32>) -> (tensor<8x32xui32>, tensor<8x32xui32>), sym_name = "threefry2x32", sym_visibility = "private"}> ({
  ^bb0(%arg16: tensor<ui32>, %arg17: tensor<ui32>, %arg18: tensor<8x32xui32>, %arg19: tensor<8x32xui32>):
    %105 = "stablehlo.constant"() <{value = dense<[13, 15, 26, 6]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %106 = "stablehlo.constant"() <{value = dense<[17, 29, 16, 24]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %107 = "stablehlo.xor"(%arg16, %arg17) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %108 = "stablehlo.constant"() <{value = dense<466688986> : tensor<ui32>}> : () -> tensor<ui32>
    %109 = "stablehlo.xor"(%107, %108) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %110 = "stablehlo.broadcast_in_dim"(%arg16) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %111 = "stablehlo.add"(%arg18, %110) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %112 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %113 = "stablehlo.add"(%arg19, %112) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %114 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %115 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %116:9 = "stablehlo.while"(%115, %114, %111, %113, %arg17, %109, %arg16, %105, %106) ({
    ^bb0(%arg29: tensor<i32>, %arg30: tensor<i32>, %arg31: tensor<8x32xui32>, %arg32: tensor<8x32xui32>, %arg33: tensor<ui32>, %arg34: tensor<ui32>, %arg35: tensor<ui32>, %arg36: tensor<4xui32>, %arg37: tensor<4xui32>):
      %120 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %121 = "stablehlo.compare"(%arg29, %120) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%121) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg20: tensor<i32>, %arg21: tensor<i32>, %arg22: tensor<8x32xui32>, %arg23: tensor<8x32xui32>, %arg24: tensor<ui32>, %arg25: tensor<ui32>, %arg26: tensor<ui32>, %arg27: tensor<4xui32>, %arg28: tensor<4xui32>):
      %117:8 = "func.call"(%arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28) <{callee = @closed_call}> : (tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %118 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %119 = "stablehlo.add"(%arg20, %118) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%119, %117#0, %117#1, %117#2, %117#3, %117#4, %117#5, %117#6, %117#7) : (tensor<i32>, tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
    "func.return"(%116#2, %116#3) : (tensor<8x32xui32>, tensor<8x32xui32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>), res_attrs = [{}, {}, {}, {}, {}, {}, {}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<i32>, %arg9: tensor<8x32xui32>, %arg10: tensor<8x32xui32>, %arg11: tensor<ui32>, %arg12: tensor<ui32>, %arg13: tensor<ui32>, %arg14: tensor<4xui32>, %arg15: tensor<4xui32>):
    %50 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %51 = "stablehlo.add"(%arg8, %50) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %52 = "stablehlo.slice"(%arg14) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
    %53 = "stablehlo.reshape"(%52) : (tensor<1xui32>) -> tensor<ui32>
    %54 = "stablehlo.add"(%arg9, %arg10) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %55 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %56 = "stablehlo.shift_left"(%arg10, %55) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %57 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
    %58 = "stablehlo.subtract"(%57, %53) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %59 = "stablehlo.broadcast_in_dim"(%58) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %60 = "stablehlo.shift_right_logical"(%arg10, %59) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %61 = "stablehlo.or"(%56, %60) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %62 = "stablehlo.xor"(%54, %61) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %63 = "stablehlo.slice"(%arg14) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
    %64 = "stablehlo.reshape"(%63) : (tensor<1xui32>) -> tensor<ui32>
    %65 = "stablehlo.add"(%54, %62) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %66 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %67 = "stablehlo.shift_left"(%62, %66) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %68 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
    %69 = "stablehlo.subtract"(%68, %64) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %70 = "stablehlo.broadcast_in_dim"(%69) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %71 = "stablehlo.shift_right_logical"(%62, %70) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %72 = "stablehlo.or"(%67, %71) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %73 = "stablehlo.xor"(%65, %72) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %74 = "stablehlo.slice"(%arg14) <{limit_indices = array<i64: 3>, start_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
    %75 = "stablehlo.reshape"(%74) : (tensor<1xui32>) -> tensor<ui32>
    %76 = "stablehlo.add"(%65, %73) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %77 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %78 = "stablehlo.shift_left"(%73, %77) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %79 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
    %80 = "stablehlo.subtract"(%79, %75) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %81 = "stablehlo.broadcast_in_dim"(%80) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %82 = "stablehlo.shift_right_logical"(%73, %81) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %83 = "stablehlo.or"(%78, %82) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %84 = "stablehlo.xor"(%76, %83) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %85 = "stablehlo.slice"(%arg14) <{limit_indices = array<i64: 4>, start_indices = array<i64: 3>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
    %86 = "stablehlo.reshape"(%85) : (tensor<1xui32>) -> tensor<ui32>
    %87 = "stablehlo.add"(%76, %84) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %88 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %89 = "stablehlo.shift_left"(%84, %88) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %90 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
    %91 = "stablehlo.subtract"(%90, %86) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %92 = "stablehlo.broadcast_in_dim"(%91) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %93 = "stablehlo.shift_right_logical"(%84, %92) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %94 = "stablehlo.or"(%89, %93) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %95 = "stablehlo.xor"(%87, %94) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %96 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %97 = "stablehlo.add"(%87, %96) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %98 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %99 = "stablehlo.add"(%95, %98) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %100 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %101 = "stablehlo.add"(%arg8, %100) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %102 = "stablehlo.convert"(%101) : (tensor<i32>) -> tensor<ui32>
    %103 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %104 = "stablehlo.add"(%99, %103) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    "func.return"(%51, %97, %104, %arg12, %arg13, %arg11, %arg15, %arg14) : (tensor<i32>, tensor<8x32xui32>, tensor<8x32xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x32xi1>, tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<8x32xi1>, %arg6: tensor<8x32xf32>, %arg7: tensor<f32>):
    %47 = "stablehlo.convert"(%arg7) : (tensor<f32>) -> tensor<f32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %49 = "stablehlo.select"(%arg5, %arg6, %48) : (tensor<8x32xi1>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%49) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2xui32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "_normal", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<2xui32>):
    %46 = "func.call"(%arg4) <{callee = @_normal_real}> : (tensor<2xui32>) -> tensor<8x32xf32>
    "func.return"(%46) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2xui32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "_normal_real", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<2xui32>):
    %39 = "stablehlo.constant"() <{value = dense<-0.99999994> : tensor<f32>}> : () -> tensor<f32>
    %40 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "func.call"(%arg3, %39, %40) <{callee = @_uniform_0}> : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x32xf32>
    %42 = "chlo.erf_inv"(%41) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %43 = "stablehlo.constant"() <{value = dense<1.41421354> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %45 = "stablehlo.multiply"(%44, %42) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%45) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "_uniform_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %2 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %3 = "stablehlo.reshape"(%2) : (tensor<1xui32>) -> tensor<ui32>
    %4 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %5 = "stablehlo.reshape"(%4) : (tensor<1xui32>) -> tensor<ui32>
    %6 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x32xui64>
    %7 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x32xui64>
    %8 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x32xui64>
    %10 = "stablehlo.multiply"(%9, %6) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %11 = "stablehlo.constant"() <{value = dense<1> : tensor<ui64>}> : () -> tensor<ui64>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x32xui64>
    %13 = "stablehlo.multiply"(%12, %7) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %14 = "stablehlo.add"(%10, %13) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %15 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x32xui64>
    %17 = "stablehlo.shift_right_logical"(%14, %16) : (tensor<8x32xui64>, tensor<8x32xui64>) -> tensor<8x32xui64>
    %18 = "stablehlo.convert"(%14) : (tensor<8x32xui64>) -> tensor<8x32xui32>
    %19 = "stablehlo.convert"(%17) : (tensor<8x32xui64>) -> tensor<8x32xui32>
    %20:2 = "func.call"(%3, %5, %19, %18) <{callee = @threefry2x32}> : (tensor<ui32>, tensor<ui32>, tensor<8x32xui32>, tensor<8x32xui32>) -> (tensor<8x32xui32>, tensor<8x32xui32>)
    %21 = "stablehlo.xor"(%20#0, %20#1) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %22 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %24 = "stablehlo.shift_right_logical"(%21, %23) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %25 = "stablehlo.constant"() <{value = dense<1065353216> : tensor<ui32>}> : () -> tensor<ui32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x32xui32>
    %27 = "stablehlo.or"(%24, %26) : (tensor<8x32xui32>, tensor<8x32xui32>) -> tensor<8x32xui32>
    %28 = "stablehlo.bitcast_convert"(%27) : (tensor<8x32xui32>) -> tensor<8x32xf32>
    %29 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %31 = "stablehlo.subtract"(%28, %30) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %32 = "stablehlo.subtract"(%1, %0) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x32xf32>
    %34 = "stablehlo.multiply"(%31, %33) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %35 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x32xf32>
    %36 = "stablehlo.add"(%34, %35) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %37 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x32xf32>
    %38 = "stablehlo.maximum"(%37, %36) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%38) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
