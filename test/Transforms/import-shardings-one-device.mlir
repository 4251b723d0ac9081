// A Shardy mesh whose axes all have size 1 (`jax.make_mesh((1,), ("x",))` on
// one device) imports as a mesh of one device, its first axis kept (a mesh
// has rank 1 at least; the import made a rank-0 mesh and failed).
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings %s | FileCheck %s

// CHECK-LABEL: module @one
// CHECK: mesh.mesh @mesh(shape = 1) {mesh.axis_names = ["x"]}
// CHECK: mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
"builtin.module"() <{sym_name = "one"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}], function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8x16xf32>):
    "func.return"(%a) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: module @two_axes
// CHECK: mesh.mesh @mesh(shape = 1) {mesh.axis_names = ["x"]}
// CHECK: mesh.sharding @mesh split_axes = {{\[\[}}]] : !mesh.sharding
"builtin.module"() <{sym_name = "two_axes"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=1]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}]>}], function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8xf32>):
    "func.return"(%a) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
