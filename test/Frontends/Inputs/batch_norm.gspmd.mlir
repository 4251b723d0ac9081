"builtin.module"() <{sym_name = "jit_batch_norm"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}], function_type = (tensor<32x16xf32>) -> tensor<32x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,4]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<32x16xf32>):
    %25 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.reduce"(%arg9, %25) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %42 = "stablehlo.add"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%42) : (tensor<f32>) -> ()
    }) : (tensor<32x16xf32>, tensor<f32>) -> tensor<16xf32>
    %27 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %29 = "stablehlo.divide"(%26, %28) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<32x16xf32>
    %32 = "stablehlo.subtract"(%arg9, %31) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %33 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %34 = "func.call"(%arg9, %33) <{callee = @_var}> : (tensor<32x16xf32>, tensor<i32>) -> tensor<16xf32>
    %35 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %37 = "stablehlo.add"(%34, %36) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %38 = "stablehlo.sqrt"(%37) : (tensor<16xf32>) -> tensor<16xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<32x16xf32>
    %41 = "stablehlo.divide"(%32, %40) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    "func.return"(%41) : (tensor<32x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<32x16xf32>, tensor<i32>) -> tensor<16xf32>, res_attrs = [{}], sym_name = "_var", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<32x16xf32>, %arg4: tensor<i32>):
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%arg3, %3) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %24 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<32x16xf32>, tensor<f32>) -> tensor<16xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %6 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x16xf32>
    %8 = "stablehlo.divide"(%5, %7) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<32x16xf32>
    %10 = "stablehlo.subtract"(%arg3, %9) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %11 = "chlo.square"(%10) : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %12 = "stablehlo.convert"(%arg4) : (tensor<i32>) -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.subtract"(%13, %12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%11, %15) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %23 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%23) : (tensor<f32>) -> ()
    }) : (tensor<32x16xf32>, tensor<f32>) -> tensor<16xf32>
    %17 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %18 = "stablehlo.divide"(%16, %17) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.compare"(%14, %19) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %21 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %22 = "func.call"(%20, %18, %21) <{callee = @_where}> : (tensor<i1>, tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
    "func.return"(%22) : (tensor<16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i1>, tensor<16xf32>, tensor<f32>) -> tensor<16xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<16xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<i1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%2) : (tensor<16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
