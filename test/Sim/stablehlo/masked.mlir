// The ops around JAX's reductions (Inputs/export.py): jnp.tril's iotas and
// compare/select, jnp.argmax (a reduce of two inputs whose body compares
// and selects), jnp.clip, an exact gelu (chlo.erfc) and jnp.arange, on
// rows over axis 0 and columns over axis 1 of a 2x2 mesh. An iota split
// along its dimension gets the device's offset (a table read at the
// device's index, added to the local iota); argmax split along the reduced
// dimension picks on each device, gathers the picks (one value and one index
// per row and device, not the columns) and picks from them again.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/masked-2d.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/masked-2d.mlir -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/masked-2d.mlir --seed 9 -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func public @main(%arg0: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>})
// IR: %[[I:.*]] = mesh.process_multi_index on @mesh axes = [0] : index
// IR: %[[T:.*]] = arith.constant dense<[0, 4]> : tensor<2xindex>
// IR: %[[O:.*]] = tensor.extract %[[T]][%[[I]]] : tensor<2xindex>
// IR: %[[ROWS:.*]] = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x8xi32>
// IR: %[[C:.*]] = arith.index_cast %[[O]] : index to i32
// IR: %[[S:.*]] = tensor.splat %[[C]] : tensor<4x8xi32>
// IR: arith.addi %[[ROWS]], %[[S]] : tensor<4x8xi32>
// IR: arith.constant dense<[0, 8]> : tensor<2xindex>
// IR: "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
// IR-NOT: mesh.all_gather %arg0
// IR: %[[PICKS:.*]]:2 = "stablehlo.reduce"(%arg0, {{.*}}) <{dimensions = array<i64: 1>}>
// IR: (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// IR: %[[V:.*]] = "stablehlo.reshape"(%[[PICKS]]#0) : (tensor<4xf32>) -> tensor<4x1xf32>
// IR: %[[GV:.*]] = mesh.all_gather %[[V]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x1xf32> -> tensor<4x2xf32>
// IR: %[[I:.*]] = "stablehlo.reshape"(%[[PICKS]]#1) : (tensor<4xi32>) -> tensor<4x1xi32>
// IR: %[[GI:.*]] = mesh.all_gather %[[I]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x1xi32> -> tensor<4x2xi32>
// IR: %[[ARGMAX:.*]]:2 = "stablehlo.reduce"(%[[GV]], %[[GI]], {{.*}}) <{dimensions = array<i64: 1>}>
// IR: (tensor<4x2xf32>, tensor<4x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// IR: "stablehlo.convert"(%[[ARGMAX]]#1) : (tensor<4xi32>) -> tensor<4xf32>
// IR: "chlo.erfc"
// IR: "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
// IR: arith.sitofp
// IR: arith.addf
