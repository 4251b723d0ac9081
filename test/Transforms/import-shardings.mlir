// import-shardings: JAX's Shardy and GSPMD exports become mesh annotations.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings %s | FileCheck %s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(import-shardings{open-dims=free})' %s | FileCheck %s --check-prefix=FREE
// The imported programs propagate and partition:
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline="builtin.module(import-shardings, sharding-propagation{skip-unknown=true}, mesh-partition)" %s 2>/dev/null | FileCheck %s --check-prefix=SPMD

// JAX 0.10's Shardy export of jit(f, in_shardings=(P('data', None), P(None, 'model')), out_shardings=P('data'))
// for f(x, w) = with_sharding_constraint(relu(x @ w), P('data', None)).sum(1), in generic form.
"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<8x16xf32>, %arg2: tensor<16x32xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "sdy.sharding_constraint"(%4) <{sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%5, %6) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %8 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    "func.return"(%7) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%2) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

// CHECK-LABEL: module @jit_f
// CHECK-NEXT:    mesh.mesh @mesh(shape = 2x4) {mesh.axis_names = ["data", "model"]}
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:      %[[D:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT:      %[[X:.*]] = mesh.shard %arg0 to %[[D]] : tensor<8x16xf32>
// CHECK-NEXT:      %[[M:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [1]] : !mesh.sharding
// CHECK-NEXT:      %[[W:.*]] = mesh.shard %arg1 to %[[M]] : tensor<16x32xf32>
// CHECK-NEXT:      %[[DOT:.*]] = "stablehlo.dot_general"(%[[X]], %[[W]])
// The private relu, called once, is inlined:
// CHECK-NEXT:      %[[ZERO:.*]] = "stablehlo.constant"
// CHECK-NEXT:      "stablehlo.broadcast_in_dim"
// CHECK-NEXT:      %[[R:.*]] = "stablehlo.maximum"(%[[DOT]],
// The constraint is the layout its users read:
// CHECK-NEXT:      %[[C:.*]] = mesh.shard %[[R]] to %[[D]] annotate_for_users : tensor<8x32xf32>
// The sum's zero is the relu's (one constant, as XLA merges them):
// CHECK-NEXT:      %[[SUM:.*]] = "stablehlo.reduce"(%[[C]], %[[ZERO]])
// CHECK:           %[[OUT:.*]] = mesh.shard %[[SUM]] to %[[D]] annotate_for_users : tensor<8xf32>
// CHECK-NEXT:      return %[[OUT]] : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NOT:   sdy
// CHECK-NOT:   @relu
// SPMD-LABEL: func.func public @main(%arg0: tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<16x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]]>}) -> (tensor<4xf32> {jax.result_info = "result", mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x32xf32>

// -----

// The same function exported with GSPMD (jax_use_shardy_partitioner=False).
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<8x16xf32>, %arg2: tensor<16x32xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.custom_call"(%4) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%5, %6) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %8 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    "func.return"(%7) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%2) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

// CHECK-LABEL: module @jit_f
// CHECK-NEXT:    mesh.mesh @mesh(shape = 2x4){{$}}
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:      %[[D:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT:      %[[X:.*]] = mesh.shard %arg0 to %[[D]] : tensor<8x16xf32>
// CHECK-NEXT:      %[[M:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [1]] : !mesh.sharding
// CHECK-NEXT:      %[[W:.*]] = mesh.shard %arg1 to %[[M]] : tensor<16x32xf32>
// CHECK-NEXT:      %[[DOT:.*]] = "stablehlo.dot_general"(%[[X]], %[[W]])
// CHECK-NEXT:      %[[ZERO:.*]] = "stablehlo.constant"
// CHECK-NEXT:      "stablehlo.broadcast_in_dim"
// CHECK-NEXT:      %[[R:.*]] = "stablehlo.maximum"(%[[DOT]],
// CHECK-NEXT:      %[[C:.*]] = mesh.shard %[[R]] to %[[D]] annotate_for_users : tensor<8x32xf32>
// The sum's zero is the relu's (one constant, as XLA merges them):
// CHECK-NEXT:      %[[SUM:.*]] = "stablehlo.reduce"(%[[C]], %[[ZERO]])
// CHECK:           %[[OUT:.*]] = mesh.shard %[[SUM]] to %[[D]] annotate_for_users : tensor<8xf32>
// CHECK-NEXT:      return %[[OUT]] : tensor<8xf32>
// CHECK-NOT:   mhlo.sharding
// CHECK-NOT:   custom_call
// SPMD-LABEL: func.func public @main(%arg0: tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<16x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]]>}) -> (tensor<4xf32> {jax.result_info = "result", mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x32xf32>

// -----

// Sub-axes split an axis into pieces; open dimensions keep the axes they
// list; priorities and explicitly replicated axes are dropped; unreduced
// axes are partial; a fully open sharding says nothing.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "m"}> : () -> ()
func.func @sub_axes(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}, {"x":(2)2, "y"}]>},
                    %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}p1, {?}], replicated={"x"}>},
                    %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = "test.add"(%a, %b) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = "test.add"(%0, %c) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: mesh.mesh @m(shape = 2x2x2) {mesh.axis_names = ["x:(1)2", "x:(2)2", "y"]}
// CHECK-NEXT:  func.func @sub_axes(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %[[A:.*]] = mesh.sharding @m split_axes = {{\[\[}}0], [1, 2]] : !mesh.sharding
// CHECK-NEXT:    mesh.shard %arg0 to %[[A]] : tensor<8x8xf32>
// CHECK-NEXT:    %[[B:.*]] = mesh.sharding @m split_axes = {{\[\[}}2]] : !mesh.sharding
// CHECK-NEXT:    mesh.shard %arg1 to %[[B]] : tensor<8x8xf32>
// CHECK-NEXT:    %[[R:.*]] = mesh.sharding @m split_axes = {{\[\[}}0, 1]] partial = sum [2] : !mesh.sharding
// CHECK-NEXT:    "test.add"
// CHECK-NEXT:    %[[S:.*]] = "test.add"(%{{.*}}, %arg2)
// CHECK-NEXT:    %[[OUT:.*]] = mesh.shard %[[S]] to %[[R]] annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:    return %[[OUT]]

// FREE-LABEL: func.func @sub_axes
// FREE-NOT:     mesh.shard %arg1
// FREE:         return

// -----

// Shardings on ops (one per result), a constraint whose result is unused
// (it constrains its input), a mesh with a device order, and a
// private function called twice (inlined at both calls).
"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>, sym_name = "mesh"}> : () -> ()
func.func @ops(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0:2 = "test.two"(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {"b"}]>]>} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = func.call @twice(%0#0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = func.call @twice(%0#1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>
}
func.func private @twice(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}

// CHECK-LABEL: mesh.mesh @mesh(shape = 2x2) {mesh.axis_names = ["a", "b"], mesh.device_ids = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:  func.func @ops(%arg0: tensor<4x4xf32>)
// CHECK-DAG:     %[[S0:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] :
// CHECK-DAG:     %[[S1:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [1]] :
// CHECK-DAG:     %[[XS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}1], [0]] :
// The unused constraint is the layout of %x itself, for all its users:
// CHECK:         %[[X:.*]] = mesh.shard %arg0 to %[[XS]] : tensor<4x4xf32>
// CHECK-NEXT:    %[[T:.*]]:2 = "test.two"(%[[X]]) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:    %[[T0:.*]] = mesh.shard %[[T]]#0 to %[[S0]] : tensor<4x4xf32>
// CHECK-NEXT:    %[[T1:.*]] = mesh.shard %[[T]]#1 to %[[S1]] : tensor<4x4xf32>
// CHECK-NEXT:    return %[[T0]], %[[T1]]
// CHECK-NOT:     @twice

// -----

// A sharding may carry its mesh inline: it gets a mesh.mesh of its own.
func.func @inline_mesh(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<mesh<["c"=4]>, [{"c"}, {}]>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// CHECK-LABEL: mesh.mesh @sdy_mesh(shape = 4) {mesh.axis_names = ["c"]}
// CHECK-NEXT:  func.func @inline_mesh(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {mesh.reduced}) {
// CHECK-NEXT:    %[[C:.*]] = mesh.sharding @sdy_mesh split_axes = {{\[\[}}0]] :
// CHECK-NEXT:    %[[X:.*]] = mesh.shard %arg0 to %[[C]] annotate_for_users : tensor<4x4xf32>
// CHECK-NEXT:    return %[[X]]

// -----

// GSPMD: explicit device lists (a transposed order is a mesh axis order),
// tile assignments that need a finer mesh than either alone, a replicated
// custom_call @Sharding, {unknown}, and a tuple on an op with two results.
func.func @gspmd(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2,2]0,4,2,6,1,5,3,7 last_tile_dim_replicate}"},
                 %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"},
                 %c: tensor<8x8xf32> {mhlo.sharding = "{unknown}"}) -> tensor<8x8xf32> {
  %0 = "stablehlo.custom_call"(%a) <{call_target_name = "Sharding"}> {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1:2 = "test.two"(%0, %b) {mhlo.sharding = "{{devices=[1,8]<=[8]}, {replicated}}"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %1#0 : tensor<8x8xf32>
}

// CHECK-LABEL: mesh.mesh @mesh(shape = 2x2x2){{$}}
// CHECK-NEXT:  func.func @gspmd(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32> {mesh.reduced}) {
// Devices 0,4,2,6,... : dim 0 moves the id by 1 (the minor axis), dim 1 by 2.
// CHECK-NEXT:    %[[A:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}2], [1]] :
// CHECK-NEXT:    %[[AS:.*]] = mesh.shard %arg0 to %[[A]] : tensor<8x8xf32>
// CHECK-NEXT:    %[[B:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0, 1], [2]] :
// CHECK-NEXT:    %[[BS:.*]] = mesh.shard %arg1 to %[[B]] : tensor<8x8xf32>
// CHECK-NEXT:    %[[REP:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] :
// CHECK-NEXT:    %[[ROW:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [0, 1, 2]] :
// CHECK-NEXT:    %[[AR:.*]] = mesh.shard %[[AS]] to %[[REP]] annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:    %[[T:.*]]:2 = "test.two"(%[[AR]], %[[BS]])
// CHECK-NEXT:    %[[T0:.*]] = mesh.shard %[[T]]#0 to %[[ROW]] : tensor<8x8xf32>
// CHECK-NEXT:    mesh.shard %[[T]]#1 to %[[REP]] : tensor<8x8xf32>
// CHECK-NEXT:    return %[[T0]]

// -----

// Nothing tiled: one axis of mhlo.num_partitions devices.
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @replicated(%a: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// CHECK-LABEL: mesh.mesh @mesh(shape = 4){{$}}
// CHECK:         mesh.sharding @mesh split_axes = {{\[\[}}]] :

// -----

// {unreduced} (XLA's spelling of an untiled value every device holds a term
// of): a sum pending over every mesh axis.
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @unreduced(%a: tensor<8xf32> {mhlo.sharding = "{unreduced}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// CHECK-LABEL: mesh.mesh @mesh(shape = 4){{$}}
// CHECK:         mesh.sharding @mesh split_axes = {{\[\[}}]] partial = sum [0] :

// -----

// A private function called once is inlined; the shardings of its
// signature become annotations for the users inside and after the call.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
func.func @caller(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.negate"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @callee(%b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = "stablehlo.abs"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @caller(%arg0: tensor<8xf32>) -> (tensor<8xf32> {mesh.reduced}) {
// CHECK-NEXT:    %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] :
// CHECK-NEXT:    %[[A:.*]] = mesh.shard %arg0 to %[[S]] annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] :
// CHECK-NEXT:    %[[ABS:.*]] = "stablehlo.abs"(%[[A]])
// CHECK-NEXT:    %[[OUT:.*]] = mesh.shard %[[ABS]] to %[[R]] annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    "stablehlo.negate"(%[[OUT]])
// CHECK-NOT:   @callee

// -----

// A private function called twice (JAX's helpers used twice with the same
// types) is inlined at both calls, each copy with its own annotations, and
// so is the function its body calls; a function that calls itself is kept.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
func.func @twice(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = func.call @relu(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @relu(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @again(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %2 : tensor<8xf32>, tensor<8xf32>
}
func.func private @relu(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = func.call @max0(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @max0(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.abs"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @again(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @again(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @twice(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>)
// CHECK:         %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] :
// CHECK-NEXT:    %[[A:.*]] = mesh.shard %arg0 to %[[S]] annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    %[[ABS_A:.*]] = "stablehlo.abs"(%[[A]])
// CHECK:         %[[B:.*]] = mesh.shard %arg1 to %{{.*}} annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    %[[ABS_B:.*]] = "stablehlo.abs"(%[[B]])
// CHECK-NEXT:    %[[AGAIN:.*]] = call @again(%[[ABS_B]])
// CHECK-NEXT:    return %[[ABS_A]], %[[AGAIN]]
// CHECK-NOT:     @relu
// CHECK-NOT:     @max0
// CHECK:       func.func private @again(
// CHECK-NEXT:    call @again(

// -----

// An argument with a layout of its own, then a used and an unused
// constraint of it: the unused one's annotation goes at the top beside the
// argument's, after the sharding it reads (it went right after the
// argument's annotation, before that sharding: IR that did not verify).
"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=2]>, sym_name = "mesh"}> : () -> ()
func.func @constrained_twice(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
  "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = "stablehlo.negate"(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @constrained_twice(%arg0: tensor<8x8xf32>)
// CHECK-NEXT:    %[[R:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] :
// CHECK-NEXT:    %[[X:.*]] = mesh.shard %arg0 to %[[R]] :
// CHECK-NEXT:    %[[A:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [0]] :
// CHECK-NEXT:    %[[B:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}1]] :
// CHECK-NEXT:    %[[XB:.*]] = mesh.shard %[[X]] to %[[B]] :
// CHECK-NEXT:    %[[XA:.*]] = mesh.shard %[[XB]] to %[[A]] annotate_for_users :
// CHECK-NEXT:    "stablehlo.negate"(%[[XA]])

// SPMD-LABEL: func.func @constrained_twice(
// SPMD:         return
