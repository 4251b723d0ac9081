// An axis of 12 is cut 2, 2, 3; one a sub-axis already cuts at 3 (which
// the cuts at 2 and 4 would not nest with) keeps its own pieces.
// RUN: mesh-opt --allow-unregistered-dialect '--pass-pipeline=builtin.module(import-shardings{factor-axes=true})' %s | FileCheck %s
// CHECK: mesh.mesh @mesh(shape = 2x2x3x3x4) {mesh.axis_names = ["x:(1)2", "x:(2)2", "x:(4)3", "y:(1)3", "y:(3)4"]}
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=12, "y"=12]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y":(1)3}]>}], function_type = (tensor<12x12xf32>) -> tensor<12x12xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<12x12xf32>):
    "func.return"(%arg0) : (tensor<12x12xf32>) -> ()
  }) : () -> ()
}) : () -> ()
