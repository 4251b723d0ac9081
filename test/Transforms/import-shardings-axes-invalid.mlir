// A Shardy sharding uses each mesh axis (or part of one) once, as Shardy's
// verifier demands: an axis both split and replicated or unreduced, split
// twice, or a sub-axis overlapping another use of its axis is an error at
// the sharding, whatever open-dims says.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings --verify-diagnostics %s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(import-shardings{open-dims=free})' --verify-diagnostics %s

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "x" is both split and replicated in #sdy.sharding<@m, [{"x"}, {}], replicated={"x"}>}}
func.func @split_and_replicated(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], replicated={"x"}>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "y" is both split and unreduced in #sdy.sharding<@m, [{"y"}, {}], unreduced={"y"}>}}
func.func @split_and_unreduced(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "x" is both replicated and unreduced in #sdy.sharding<@m, [{}, {}], replicated={"x"}, unreduced={"x"}>}}
func.func @replicated_and_unreduced(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], replicated={"x"}, unreduced={"x"}>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "x" is split twice in #sdy.sharding<@m, [{"x"}, {"x"}]>}}
func.func @two_dimensions(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"x"}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// One dimension, open: open-dims=free would leave the sharding out, but it
// is wrong all the same.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "x" is split twice in #sdy.sharding<@m, [{"x", "x", ?}]>}}
func.func @one_dimension(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "x", ?}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "y" is unreduced twice in #sdy.sharding<@m, [{}], unreduced={"y", "y"}>}}
func.func @unreduced_twice(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"y", "y"}>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// A sub-axis and its whole axis overlap.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "x" is both split and replicated (overlapping "x":(1)2) in #sdy.sharding<@m, [{"x":(1)2}, {}], replicated={"x"}>}}
func.func @sub_axis_and_axis(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}, {}], replicated={"x"}>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// Two sub-axes that share the devices of "x":(2)2.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=8]>, sym_name = "m"}> : () -> ()
// expected-error @+1 {{mesh axis "x":(2)2 is split twice (overlapping "x":(1)4) in #sdy.sharding<@m, [{"x":(1)4}, {"x":(2)2}]>}}
func.func @overlapping_sub_axes(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)4}, {"x":(2)2}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// On an op's result, and on a constraint: the error is at the op.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> : () -> ()
func.func @on_ops(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{mesh axis "x" is both split and replicated in #sdy.sharding<@m, [{}, {"x"}], replicated={"x"}>}}
  %0 = "stablehlo.negate"(%a) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"x"}], replicated={"x"}>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> : () -> ()
func.func @constraint(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{mesh axis "x" is both split and unreduced in #sdy.sharding<@m, [{"x", ?}, {?}], unreduced={"x"}>}}
  %0 = "sdy.sharding_constraint"(%a) <{sharding = #sdy.sharding<@m, [{"x", ?}, {?}], unreduced={"x"}>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// An inline mesh is checked the same way.
// expected-error @+1 {{mesh axis "a" is both split and replicated in #sdy.sharding<mesh<["a"=2]>, [{"a"}], replicated={"a"}>}}
func.func @inline_mesh(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}], replicated={"a"}>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
