// What import-shardings cannot express is an error at the function or op
// that carries it, naming the rule and the value seen.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings --verify-diagnostics %s

// expected-error @+1 {{manual sharding (shard_map) cannot be imported: {manual}}}
func.func @manual(%a: tensor<8xf32> {mhlo.sharding = "{manual}"}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// expected-error @+1 {{device order must be one a mesh axis order gives; no order of mesh axes lists devices [0, 1, 3, 2] for tile dims [4]: {devices=[4]0,1,3,2}}}
func.func @no_mesh_order(%a: tensor<8xf32> {mhlo.sharding = "{devices=[4]0,1,3,2}"}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// A 2x3 and a 3x2 cut of six devices need meshes of different axis orders.
// expected-error @+1 {{shardings must fit one mesh; device orders need mesh axes of strides 2 and 3, which no mesh has together: {devices=[3,2]<=[6]} and {devices=[2,3]<=[6]}}}
func.func @two_meshes(%a: tensor<6x6xf32> {mhlo.sharding = "{devices=[2,3]<=[6]}"}, %b: tensor<6x6xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"}) -> tensor<6x6xf32> {
  return %a : tensor<6x6xf32>
}

// -----

func.func @custom_call_rank(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{sharding must tile every tensor dimension (2), got 1 tile dims: {devices=[2]<=[2]}}}
  %0 = "stablehlo.custom_call"(%a) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{unknown field 'bogus' in mhlo.sharding: {devices=[2]<=[2] bogus}}}
func.func @bad_string(%a: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2] bogus}"}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
// expected-error @+1 {{sharding must have one dimension per tensor dimension (2), got 1: #sdy.sharding<@mesh, [{"x"}]>}}
func.func @rank(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{sharding must name an sdy.mesh of the module, got @nowhere}}
func.func @no_mesh(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nowhere, [{"x"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
// expected-error @+1 {{axis is not in the mesh: "y" in #sdy.sharding<@mesh, [{"y"}]>}}
func.func @no_axis(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// expected-error @+1 {{sub-axes of one axis must nest: "x":(2), "x":(3) of "x"=6}}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=6]>, sym_name = "mesh"}> : () -> ()
func.func @sub_axes(%a: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(1)3}]>}) -> tensor<6x6xf32> {
  return %a : tensor<6x6xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
func.func @manual_computation(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{a shard_map needs in_shardings}}
  %0 = "sdy.manual_computation"(%a) ({
  ^bb0(%b: tensor<4xf32>):
    "sdy.return"(%b) : (tensor<4xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
func.func @manual_odd_groups(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "sdy.manual_computation"(%a) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}> ({
  ^bb0(%b: tensor<2xf32>):
    // expected-error @+1 {{replica groups must be the groups of some axes of the 4 mesh, got [[0, 2], [1, 3]]}}
    %1 = "stablehlo.all_reduce"(%b) <{replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    "sdy.return"(%1) : (tensor<2xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
func.func @manual_swap(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "sdy.manual_computation"(%a) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}> ({
  ^bb0(%b: tensor<2xf32>):
    // expected-error @+1 {{source_target_pairs must shift the devices along one axis of the 4 mesh, or rotate them over two, got [[0, 1], [1, 0]]}}
    %1 = "stablehlo.collective_permute"(%b) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    "sdy.return"(%1) : (tensor<2xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{expected string, found 'x' in sdy sharding: #sdy.sharding<@mesh, [{x}]>}}
func.func @bad_attr(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{x}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// Warnings: a value on one device reads as replicated; sharding groups are dropped.
// expected-warning @+1 {{maximal sharding holds a value on one device; imported as replicated: {maximal device=3}}}
func.func @maximal(%a: tensor<8xf32> {mhlo.sharding = "{maximal device=3}"}) -> tensor<8xf32> {
  // expected-warning @+1 {{sharding groups have no counterpart; dropped: sdy.sharding_group}}
  "sdy.sharding_group"(%a) <{group_id = 0 : i64}> : (tensor<8xf32>) -> ()
  return %a : tensor<8xf32>
}

// -----

func.func @constraint_without_sharding(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' needs one operand, one result and a sharding}}
  %0 = "sdy.sharding_constraint"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{sdy.mesh sym_name must be a string, got 5 : i64}}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = 5}> : () -> ()
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// Shardy's device_ids are kept, not applied: a warning says which device
// gets which piece.
// expected-warning @+1 {{device_ids [1, 0] of mesh @m are not applied: partition numbers devices in mesh order, so its device d holds the piece Shardy gives to device device_ids[d]}}
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2], device_ids=[1, 0]>, sym_name = "m"}> : () -> ()
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// XLA prints a sharding's kind (or its device list) once: a second one is
// refused, not read as the last one given.
// expected-error @+1 {{a sharding has one kind, got 'devices' after 'replicated' in mhlo.sharding: {replicated devices=[2,1]1,0}}}
func.func @two_kinds(%a: tensor<4x4xf32> {mhlo.sharding = "{replicated devices=[2,1]1,0}"}) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}

// -----

// expected-error @+1 {{a sharding has one kind, got 'devices' after 'devices' in mhlo.sharding: {devices=[2,1]1,0 devices=[2,1]0,1}}}
func.func @two_device_lists(%a: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,1]1,0 devices=[2,1]0,1}"}) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}

// -----

// A bare number is not a field (after shard_as or shard_like it is their group).
// expected-error @+1 {{unknown field '3'}}
func.func @bare_number(%a: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,1]1,0 3}"}) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
// Shardy refuses a second unreduced (or replicated) list; the first one's
// pending sum would otherwise be dropped.
// expected-error @+1 {{a sharding gives unreduced once, got it twice}}
func.func @two_unreduced(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}, unreduced={"y"}>}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// An empty mesh has no axes for a sharding to name.
"sdy.mesh"() <{mesh = #sdy.mesh<[]>, sym_name = "mesh"}> : () -> ()
// expected-error @+1 {{axis is not in the mesh: "x" in #sdy.sharding<@mesh, [{"x"}]>}}
func.func @empty_mesh_axis(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// A sub-axis that does not divide its axis is reported at the sharding
// that names it.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
// expected-error @+1 {{sub-axis must divide its axis of 4 devices: "x":(3)2 in #sdy.sharding<@mesh, [{"x":(3)2}, {}]>}}
func.func @sub_axis_not_dividing(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(3)2}, {}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
func.func @manual_inside_manual(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "sdy.manual_computation"(%a) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}> ({
  ^bb0(%b: tensor<4xf32>):
    // expected-error @+1 {{a shard_map inside a shard_map cannot be imported}}
    %1 = "sdy.manual_computation"(%b) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}]>]>}> ({
    ^bb0(%c: tensor<4xf32>):
      "sdy.return"(%c) : (tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    "sdy.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
func.func @manual_wrong_piece(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{shard_map operand 0 cut as #sdy.sharding<@mesh, [{"x"}]> is tensor<2xf32>, its body reads tensor<4xf32>}}
  %0 = "sdy.manual_computation"(%a) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}]>]>}> ({
  ^bb0(%b: tensor<4xf32>):
    "sdy.return"(%b) : (tensor<4xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
