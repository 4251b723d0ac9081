// import-shardings on sizes past what it can list or express: an error
// naming the rule and the value, quickly, never an internal error.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings --verify-diagnostics %s | FileCheck %s

// A huge mesh is only arithmetic: nothing lists its 10**12 devices.
// CHECK: mesh.mesh @m(shape = 1000000x1000000) {mesh.axis_names = ["x", "y"]}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=1000000, "y"=1000000]>, sym_name = "m"}> : () -> ()
func.func @huge_mesh(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// CHECK: mesh.mesh @m(shape = 1000000x1000000)
// CHECK: mesh.sharding @m split_axes = {{\[\[}}], [0]] : !mesh.sharding
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=1000000, "y"=1000000]>, sym_name = "m"}> : () -> ()
func.func @huge_mesh_sharded(%a: tensor<8x1000000xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) -> tensor<8x1000000xf32> {
  return %a : tensor<8x1000000xf32>
}

// -----

// device_ids are checked by their count before any list of the mesh's devices is made.
// expected-error @+1 {{device_ids must be a permutation of 0..999999999999 in sdy mesh}}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=1000000, "y"=1000000], device_ids=[1, 0]>, sym_name = "m"}> : () -> ()
func.func @huge_device_ids(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{mesh axis size 99999999999999999999 is too large (at most 2**63 - 1) in sdy mesh: #sdy.mesh<["x"=99999999999999999999]>}}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=99999999999999999999]>, sym_name = "m"}> : () -> ()
func.func @axis_too_large(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{mesh device count 85070591730234615847396907784232501249 is too large (at most 2**63 - 1) in sdy mesh}}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=9223372036854775807, "y"=9223372036854775807]>, sym_name = "m"}> : () -> ()
func.func @mesh_too_large(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{tile assignment of 16777216 devices is more than the limit of 1048576 in mhlo.sharding: {devices=[4096,4096]<=[16777216]}}}
func.func @big_iota(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[4096,4096]<=[16777216]}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{tile assignment of 1000000000000 devices is more than the limit of 1048576 in mhlo.sharding: {devices=[1000000,1000000]<=[1000000000000]}}}
func.func @huge_iota(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[1000000,1000000]<=[1000000000000]}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{tile dimension 0 must be at least 1, got 0 in mhlo.sharding: {devices=[0,2]<=[0]}}}
func.func @zero_tile(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[0,2]<=[0]}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{tile dimension 1 must be at least 1, got 0 in mhlo.sharding: {devices=[2,0]<=[0] last_tile_dim_replicate}}}
func.func @zero_subgroup(%a: tensor<8xf32> {mhlo.sharding = "{devices=[2,0]<=[0] last_tile_dim_replicate}"}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// expected-error @+1 {{tile dimension 0 must be at least 1, got 0 in mhlo.sharding: {devices=[0,0]<=[0]}}}
func.func @zero_tiles(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[0,0]<=[0]}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{a tuple sharding needs a value per element: {{replicated}, {replicated}}}}
func.func @tuple_on_tensor(%a: tensor<8x8xf32> {mhlo.sharding = "{{replicated}, {replicated}}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{mhlo.num_partitions must be a positive integer, got 0 : i32}}
module attributes {mhlo.num_partitions = 0 : i32} {
  func.func @replicated(%a: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// expected-error @+1 {{mhlo.num_partitions must be a positive integer, got "eight"}}
module attributes {mhlo.num_partitions = "eight"} {
  func.func @replicated(%a: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// A custom call whose target is not a string is not a sharding constraint.
// CHECK-LABEL: func.func @not_a_target
// CHECK: "stablehlo.custom_call"
func.func @not_a_target(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.custom_call"(%a) {call_target_name = 3 : i32} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
