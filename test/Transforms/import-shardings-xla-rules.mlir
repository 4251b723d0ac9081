// import-shardings holds JAX's shardings to the rules XLA and Shardy hold
// them to: what they refuse is an error here too, at the op or function
// that carries it, naming the rule and the value; nothing is dropped
// silently.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings --verify-diagnostics %s | FileCheck %s

// Shardy's export (keep-hlo-sharding-constraints) writes a constraint as a
// custom_call @Sharding with sdy.sharding: the layout its users read.
// CHECK-LABEL: func.func @sharding_call_sdy
// CHECK:         %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK-NEXT:    %[[A:.*]] = mesh.shard %arg0 to %[[S]] annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:    "stablehlo.add"(%[[A]], %[[A]])
// CHECK-NOT:     custom_call
"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=4]>, sym_name = "mesh"}> : () -> ()
func.func @sharding_call_sdy(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.custom_call"(%a) <{call_target_name = "Sharding"}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = "stablehlo.add"(%0, %0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Unused, it constrains its input, as an sdy.sharding_constraint does.
// CHECK-LABEL: func.func @sharding_call_sdy_unused
// CHECK:         %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}1]] : !mesh.sharding
// CHECK:         %[[N:.*]] = "stablehlo.negate"
// CHECK-NEXT:    %[[NS:.*]] = mesh.shard %[[N]] to %[[S]] : tensor<8xf32>
// CHECK-NEXT:    return %[[NS]]
"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=4]>, sym_name = "mesh"}> : () -> ()
func.func @sharding_call_sdy_unused(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.negate"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.custom_call"(%0) <{call_target_name = "Sharding"}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @sharding_call_two_operands(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // expected-error @+1 {{custom_call @Sharding must have one operand and one result, got 2 operands and 1 result}}
    %0 = "stablehlo.custom_call"(%a, %a) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// XLA's verifier: "tile_assignment should have 8 devices but has 4".
module attributes {mhlo.num_partitions = 8 : i32} {
  // expected-error @+1 {{tile assignment must have mhlo.num_partitions = 8 devices, got 4: {devices=[4]<=[4]}}}
  func.func @fewer_devices(%a: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @fewer_devices_on_an_op(%a: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{tile assignment must have mhlo.num_partitions = 8 devices, got 2: {devices=[2]<=[2]}}}
    %0 = "stablehlo.negate"(%a) {mhlo.sharding = "{{devices=[2]<=[2]}}"} : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// XLA's verifier: "device 9 >= num_devices (8) in tile assignment".
module attributes {mhlo.num_partitions = 8 : i32} {
  // expected-error @+1 {{maximal device must be below mhlo.num_partitions = 8, got 8: {maximal device=8}}}
  func.func @maximal_out_of_range(%a: tensor<8xf32> {mhlo.sharding = "{maximal device=8}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// In range, it still reads as replicated.
module attributes {mhlo.num_partitions = 8 : i32} {
  // expected-warning @+1 {{maximal sharding holds a value on one device; imported as replicated: {maximal device=7}}}
  func.func @maximal_in_range(%a: tensor<8xf32> {mhlo.sharding = "{maximal device=7}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// CHECK-LABEL: mesh.mesh @mesh(shape = 8)
// CHECK-LABEL: func.func @maximal_in_range

// -----

// XLA's parser: "expected 'T(' to start sharding devices iota_transpose_perm".
// expected-error @+1 {{an iota reshape of several dimensions needs a transpose T(...), got <=[2,4] in mhlo.sharding: {devices=[2,4]<=[2,4]}}}
func.func @iota_without_transpose(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[2,4]}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// XLA's parser: "unexpected token" at the T.
// expected-error @+1 {{an iota reshape of one dimension takes no transpose, got <=[8]T(0) in mhlo.sharding: {devices=[8,1]<=[8]T(0)}}}
func.func @iota_transposed_alone(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[8,1]<=[8]T(0)}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// Forms XLA's parser takes: one reshape dimension alone, several with a
// transpose (the identity too).
// CHECK-LABEL: mesh.mesh @mesh(shape = 2x4)
// CHECK-LABEL: func.func @iota_forms
// CHECK-COUNT-3: mesh.shard %arg
func.func @iota_forms(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"},
                      %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[2,4]T(0,1)}"},
                      %c: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[1,8]T(1,0)}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// Shardy's verifier: "two consecutive sub-axes can be merged".
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "mesh"}> : () -> ()
// expected-error @+1 {{two consecutive sub-axes can be merged: "x":(1)2, "x":(2)2 in sdy sharding: #sdy.sharding<@mesh, [{"x":(1)2, "x":(2)2}, {}]>}}
func.func @mergeable_sub_axes(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "x":(2)2}, {}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=8, "y"=2]>, sym_name = "mesh"}> : () -> ()
func.func @mergeable_unreduced_sub_axes(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{two consecutive sub-axes can be merged: "x":(2)2, "x":(4)2 in sdy sharding_per_value}}
  %0 = "stablehlo.negate"(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x":(2)2, "x":(4)2}>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Shardy's verifier: "dim 1 is empty and closed but has a priority".
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "mesh"}> : () -> ()
// expected-error @+1 {{dim 1 is empty and closed but has a priority in sdy sharding: #sdy.sharding<@mesh, [{"x"}, {}p1]>}}
func.func @empty_closed_priority(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}p1]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// Sub-axes that do not meet, an open empty dimension with a priority and
// sub-axes of two axes are fine.
// CHECK-LABEL: func.func @shardy_forms
// CHECK-COUNT-2: mesh.shard %arg
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=8, "y"=4]>, sym_name = "mesh"}> : () -> ()
func.func @shardy_forms(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "x":(4)2}, {?}p1]>},
                        %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y":(2)2}, {}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// A nested module is not read: a sharding in it is an error where it is.
module @outer {
  module @inner {
    // expected-error @+1 {{shardings must be in the top-level module, got 'sdy.mesh' in nested module @inner}}
    "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=4]>, sym_name = "mesh"}> : () -> ()
    func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
      return %a : tensor<8x8xf32>
    }
  }
}

// -----

module @outer attributes {mhlo.num_partitions = 8 : i32} {
  module @inner {
    // expected-error @+1 {{shardings must be in the top-level module, got a sharding in arg_attrs of 'func.func' in nested module @inner}}
    func.func @main(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x8xf32> {
      return %a : tensor<8x8xf32>
    }
  }
}

// -----

module @outer {
  func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
    "test.region"() ({
      builtin.module @in_a_function {
        func.func @g(%b: tensor<8x8xf32>) -> tensor<8x8xf32> {
          // expected-error @+1 {{shardings must be in the top-level module, got mhlo.sharding on 'stablehlo.negate' in nested module @in_a_function}}
          %0 = "stablehlo.negate"(%b) {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
          return %0 : tensor<8x8xf32>
        }
      }
      "test.end"() : () -> ()
    }) : () -> ()
    return %a : tensor<8x8xf32>
  }
}

// -----

// A nested module without shardings is left as it is.
// CHECK-LABEL: module @plain
// CHECK:         func.func @h
"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2]>, sym_name = "mesh"}> : () -> ()
module @plain {
  func.func @h(%b: tensor<8xf32>) -> tensor<8xf32> {
    return %b : tensor<8xf32>
  }
}
