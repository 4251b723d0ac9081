"builtin.module"() <{sym_name = "jit_mlp_scan_grad_fsdp"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], function_type = (tensor<3x32x64xf32>, tensor<3x64x32xf32>, tensor<16x32xf32>) -> (tensor<3x32x64xf32>, tensor<3x64x32xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg31: tensor<3x32x64xf32>, %arg32: tensor<3x64x32xf32>, %arg33: tensor<16x32xf32>):
    %54 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x32xf32>
    %56 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x64xf32>
    %58 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %59 = "stablehlo.broadcast_in_dim"(%58) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x64xf32>
    %60 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x32xf32>
    %62 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x32xf32>
    %64 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %65:9 = "stablehlo.while"(%arg31, %arg32, %64, %arg33, %55, %57, %59, %61, %63) ({
    ^bb0(%arg65: tensor<3x32x64xf32>, %arg66: tensor<3x64x32xf32>, %arg67: tensor<i32>, %arg68: tensor<16x32xf32>, %arg69: tensor<3x16x32xf32>, %arg70: tensor<3x16x64xf32>, %arg71: tensor<3x16x64xf32>, %arg72: tensor<3x16x32xf32>, %arg73: tensor<3x16x32xf32>):
      %108 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %109 = "stablehlo.compare"(%arg67, %108) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%109) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg56: tensor<3x32x64xf32>, %arg57: tensor<3x64x32xf32>, %arg58: tensor<i32>, %arg59: tensor<16x32xf32>, %arg60: tensor<3x16x32xf32>, %arg61: tensor<3x16x64xf32>, %arg62: tensor<3x16x64xf32>, %arg63: tensor<3x16x32xf32>, %arg64: tensor<3x16x32xf32>):
      %98 = "func.call"(%arg56, %arg58) <{callee = @dynamic_index_in_dim}> : (tensor<3x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %99 = "func.call"(%arg57, %arg58) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>
      %100:6 = "func.call"(%arg59, %98, %99) <{callee = @closed_call}> : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
      %101 = "func.call"(%arg60, %100#1, %arg58) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>
      %102 = "func.call"(%arg61, %100#2, %arg58) <{callee = @dynamic_update_index_in_dim_1}> : (tensor<3x16x64xf32>, tensor<16x64xf32>, tensor<i32>) -> tensor<3x16x64xf32>
      %103 = "func.call"(%arg62, %100#3, %arg58) <{callee = @dynamic_update_index_in_dim_1}> : (tensor<3x16x64xf32>, tensor<16x64xf32>, tensor<i32>) -> tensor<3x16x64xf32>
      %104 = "func.call"(%arg63, %100#4, %arg58) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>
      %105 = "func.call"(%arg64, %100#5, %arg58) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>
      %106 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %107 = "stablehlo.add"(%arg58, %106) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg56, %arg57, %107, %100#0, %101, %102, %103, %104, %105) : (tensor<3x32x64xf32>, tensor<3x64x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>) -> ()
    }) : (tensor<3x32x64xf32>, tensor<3x64x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>) -> (tensor<3x32x64xf32>, tensor<3x64x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>)
    %66 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %68 = "stablehlo.multiply"(%67, %65#3) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %69 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %70 = "stablehlo.constant"() <{value = dense<5.120000e+02> : tensor<f32>}> : () -> tensor<f32>
    %71 = "stablehlo.divide"(%69, %70) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %73 = "stablehlo.multiply"(%72, %68) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %74 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x32x64xf32>
    %76 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %77 = "stablehlo.broadcast_in_dim"(%76) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x64x32xf32>
    %78 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %79:11 = "stablehlo.while"(%arg31, %65#4, %65#5, %65#6, %arg32, %65#7, %65#8, %78, %73, %75, %77) ({
    ^bb0(%arg45: tensor<3x32x64xf32>, %arg46: tensor<3x16x32xf32>, %arg47: tensor<3x16x64xf32>, %arg48: tensor<3x16x64xf32>, %arg49: tensor<3x64x32xf32>, %arg50: tensor<3x16x32xf32>, %arg51: tensor<3x16x32xf32>, %arg52: tensor<i32>, %arg53: tensor<16x32xf32>, %arg54: tensor<3x32x64xf32>, %arg55: tensor<3x64x32xf32>):
      %96 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %97 = "stablehlo.compare"(%arg52, %96) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%97) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg34: tensor<3x32x64xf32>, %arg35: tensor<3x16x32xf32>, %arg36: tensor<3x16x64xf32>, %arg37: tensor<3x16x64xf32>, %arg38: tensor<3x64x32xf32>, %arg39: tensor<3x16x32xf32>, %arg40: tensor<3x16x32xf32>, %arg41: tensor<i32>, %arg42: tensor<16x32xf32>, %arg43: tensor<3x32x64xf32>, %arg44: tensor<3x64x32xf32>):
      %80 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %81 = "stablehlo.subtract"(%80, %arg41) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %82 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %83 = "stablehlo.subtract"(%81, %82) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %84 = "func.call"(%arg34, %83) <{callee = @dynamic_index_in_dim}> : (tensor<3x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %85 = "func.call"(%arg35, %83) <{callee = @dynamic_index_in_dim_2}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %86 = "func.call"(%arg36, %83) <{callee = @dynamic_index_in_dim_3}> : (tensor<3x16x64xf32>, tensor<i32>) -> tensor<16x64xf32>
      %87 = "func.call"(%arg37, %83) <{callee = @dynamic_index_in_dim_3}> : (tensor<3x16x64xf32>, tensor<i32>) -> tensor<16x64xf32>
      %88 = "func.call"(%arg38, %83) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>
      %89 = "func.call"(%arg39, %83) <{callee = @dynamic_index_in_dim_2}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %90 = "func.call"(%arg40, %83) <{callee = @dynamic_index_in_dim_2}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %91:3 = "func.call"(%arg42, %84, %85, %86, %87, %88, %89, %90) <{callee = @closed_call_4}> : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x32xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<64x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>)
      %92 = "func.call"(%arg43, %91#1, %83) <{callee = @dynamic_update_index_in_dim_5}> : (tensor<3x32x64xf32>, tensor<32x64xf32>, tensor<i32>) -> tensor<3x32x64xf32>
      %93 = "func.call"(%arg44, %91#2, %83) <{callee = @dynamic_update_index_in_dim_6}> : (tensor<3x64x32xf32>, tensor<64x32xf32>, tensor<i32>) -> tensor<3x64x32xf32>
      %94 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %95 = "stablehlo.add"(%arg41, %94) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg34, %arg35, %arg36, %arg37, %arg38, %arg39, %arg40, %95, %91#0, %92, %93) : (tensor<3x32x64xf32>, tensor<3x16x32xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>, tensor<3x64x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x32x64xf32>, tensor<3x64x32xf32>) -> ()
    }) : (tensor<3x32x64xf32>, tensor<3x16x32xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>, tensor<3x64x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x32x64xf32>, tensor<3x64x32xf32>) -> (tensor<3x32x64xf32>, tensor<3x16x32xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>, tensor<3x64x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x32x64xf32>, tensor<3x64x32xf32>)
    "func.return"(%79#9, %79#10) : (tensor<3x32x64xf32>, tensor<3x64x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg29: tensor<3x32x64xf32>, %arg30: tensor<i32>):
    %50 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %51 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %52 = "stablehlo.dynamic_slice"(%arg29, %arg30, %50, %51) <{slice_sizes = array<i64: 1, 32, 64>}> : (tensor<3x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x64xf32>
    %53 = "stablehlo.reshape"(%52) : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
    "func.return"(%53) : (tensor<32x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_0", sym_visibility = "private"}> ({
  ^bb0(%arg27: tensor<3x64x32xf32>, %arg28: tensor<i32>):
    %46 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %47 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %48 = "stablehlo.dynamic_slice"(%arg27, %arg28, %46, %47) <{slice_sizes = array<i64: 1, 64, 32>}> : (tensor<3x64x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x32xf32>
    %49 = "stablehlo.reshape"(%48) : (tensor<1x64x32xf32>) -> tensor<64x32xf32>
    "func.return"(%49) : (tensor<64x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x32xf32>, tensor<16x32xf32>), res_attrs = [{}, {}, {}, {}, {}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg24: tensor<16x32xf32>, %arg25: tensor<32x64xf32>, %arg26: tensor<64x32xf32>):
    %36 = "stablehlo.dot_general"(%arg24, %arg25) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %37 = "stablehlo.tanh"(%36) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %38 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %40 = "stablehlo.subtract"(%39, %37) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %41 = "stablehlo.dot_general"(%37, %arg26) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %42 = "stablehlo.tanh"(%41) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %43 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %45 = "stablehlo.subtract"(%44, %42) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%42, %arg24, %37, %40, %42, %45) : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>, res_attrs = [{}], sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg21: tensor<3x16x32xf32>, %arg22: tensor<16x32xf32>, %arg23: tensor<i32>):
    %32 = "stablehlo.broadcast_in_dim"(%arg22) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %33 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %34 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %35 = "stablehlo.dynamic_update_slice"(%arg21, %32, %arg23, %33, %34) : (tensor<3x16x32xf32>, tensor<1x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x16x32xf32>
    "func.return"(%35) : (tensor<3x16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<3x16x64xf32>, tensor<16x64xf32>, tensor<i32>) -> tensor<3x16x64xf32>, res_attrs = [{}], sym_name = "dynamic_update_index_in_dim_1", sym_visibility = "private"}> ({
  ^bb0(%arg18: tensor<3x16x64xf32>, %arg19: tensor<16x64xf32>, %arg20: tensor<i32>):
    %28 = "stablehlo.broadcast_in_dim"(%arg19) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<16x64xf32>) -> tensor<1x16x64xf32>
    %29 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %30 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %31 = "stablehlo.dynamic_update_slice"(%arg18, %28, %arg20, %29, %30) : (tensor<3x16x64xf32>, tensor<1x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x16x64xf32>
    "func.return"(%31) : (tensor<3x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_2", sym_visibility = "private"}> ({
  ^bb0(%arg16: tensor<3x16x32xf32>, %arg17: tensor<i32>):
    %24 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %25 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %26 = "stablehlo.dynamic_slice"(%arg16, %arg17, %24, %25) <{slice_sizes = array<i64: 1, 16, 32>}> : (tensor<3x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %27 = "stablehlo.reshape"(%26) : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%27) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x16x64xf32>, tensor<i32>) -> tensor<16x64xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_3", sym_visibility = "private"}> ({
  ^bb0(%arg14: tensor<3x16x64xf32>, %arg15: tensor<i32>):
    %20 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %21 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %22 = "stablehlo.dynamic_slice"(%arg14, %arg15, %20, %21) <{slice_sizes = array<i64: 1, 16, 64>}> : (tensor<3x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
    %23 = "stablehlo.reshape"(%22) : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%23) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x32xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<64x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>), res_attrs = [{}, {}, {}], sym_name = "closed_call_4", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<16x32xf32>, %arg7: tensor<32x64xf32>, %arg8: tensor<16x32xf32>, %arg9: tensor<16x64xf32>, %arg10: tensor<16x64xf32>, %arg11: tensor<64x32xf32>, %arg12: tensor<16x32xf32>, %arg13: tensor<16x32xf32>):
    %8 = "stablehlo.multiply"(%arg6, %arg13) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %9 = "stablehlo.multiply"(%8, %arg12) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %10 = "stablehlo.add"(%8, %9) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %11 = "stablehlo.dot_general"(%10, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %12 = "stablehlo.transpose"(%11) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %13 = "stablehlo.dot_general"(%10, %arg11) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %14 = "stablehlo.multiply"(%13, %arg10) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %15 = "stablehlo.multiply"(%14, %arg9) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %16 = "stablehlo.add"(%14, %15) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %17 = "stablehlo.dot_general"(%16, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %18 = "stablehlo.transpose"(%17) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %19 = "stablehlo.dot_general"(%16, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    "func.return"(%19, %18, %12) : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<3x32x64xf32>, tensor<32x64xf32>, tensor<i32>) -> tensor<3x32x64xf32>, res_attrs = [{}], sym_name = "dynamic_update_index_in_dim_5", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<3x32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<i32>):
    %4 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
    %5 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.dynamic_update_slice"(%arg3, %4, %arg5, %5, %6) : (tensor<3x32x64xf32>, tensor<1x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x32x64xf32>
    "func.return"(%7) : (tensor<3x32x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<3x64x32xf32>, tensor<64x32xf32>, tensor<i32>) -> tensor<3x64x32xf32>, res_attrs = [{}], sym_name = "dynamic_update_index_in_dim_6", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3x64x32xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<i32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<64x32xf32>) -> tensor<1x64x32xf32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2, %1, %2) : (tensor<3x64x32xf32>, tensor<1x64x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x64x32xf32>
    "func.return"(%3) : (tensor<3x64x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
