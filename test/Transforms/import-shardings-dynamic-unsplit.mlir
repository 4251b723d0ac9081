// XLA cuts a split dimension that its devices do not divide into
// ceil(n / k)-long pieces, the last ones shorter; this dialect's own cut
// makes the last ones longer, so the import writes XLA's offsets.  A dynamic
// dimension that is not split does not change that: both arguments get
// XLA's cut of the 7 columns over 4 devices (partition then refuses the
// dynamic one rather than cutting it another way).
// RUN: mesh-opt --allow-unregistered-dialect --import-shardings %s | FileCheck %s
// RUN: not mesh-opt --allow-unregistered-dialect --import-shardings --sharding-propagation --mesh-partition %s 2>&1 | FileCheck %s --check-prefix=PART
// CHECK: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 2, 4, 6, 7] : !mesh.sharding
// CHECK-NEXT: = mesh.shard %arg0 to %[[S]] : tensor<?x7xf32>
// CHECK-NEXT: = mesh.shard %arg1 to %[[S]] : tensor<3x7xf32>
// PART: error: sharded_dims_offsets on a tensor of dynamic size or mesh are not supported: tensor<?x7xf32>

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}], function_type = (tensor<?x7xf32>, tensor<3x7xf32>) -> (tensor<?x7xf32>, tensor<3x7xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x7xf32>, %arg1: tensor<3x7xf32>):
    "func.return"(%arg0, %arg1) : (tensor<?x7xf32>, tensor<3x7xf32>) -> ()
  }) : () -> ()
}) : () -> ()
