// A reducer, a window's reducer, a scatter's combiner or a sort's
// comparator that calls a function (JAX writes `jnp.where` and `jnp.clip`
// as private functions and calls them, here an argmax by `lax.reduce` over
// values and column numbers): MLIR takes an op of a dialect it does not
// know with one region for a symbol table, so the call found no function
// and a valid program was refused.  The parse inlines such calls, as XLA
// does, leaving the function itself; positions stay those of the text.
// RUN: mesh-opt %s | FileCheck %s --check-prefix=PARSED
// RUN: mesh-opt --import-shardings --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f main -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f main -q --seed 2 | FileCheck %s
// RUN: not mesh-opt %S/../Inputs/call-in-reducer-missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mesh-opt %S/../Inputs/call-in-reducer-one-line.mlir 2>&1 | FileCheck %s --check-prefix=ONE-LINE
// CHECK: match

// PARSED-LABEL: func.func public @main(
// PARSED: "stablehlo.reduce"
// PARSED-NOT: func.call
// PARSED: %[[PICK:.*]] = "stablehlo.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
// PARSED-NEXT: "stablehlo.return"(%{{.*}}, %[[PICK]]) : (tensor<f32>, tensor<i32>) -> ()
// PARSED: func.func private @_where(

// Rows over "data": each device picks in its own rows, and the picks are
// gathered for the whole result.
// IR-LABEL: func.func public @main(
// IR-SAME: %arg0: tensor<2x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR: "stablehlo.reduce"
// IR-NOT: func.call
// IR: }) : (tensor<2x8xf32>, tensor<2x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
// IR-NEXT: mesh.all_gather %{{.*}}#1 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<4xi32>

// MISSING: call-in-reducer-missing.mlir:8:12: error: 'func.call' op '_nowhere' does not reference a valid function

// The reducer's region is closed again, and positions after it on its
// line are where the text has them.
// ONE-LINE: call-in-reducer-one-line.mlir:5:297: error: 'mesh.sharding' op mesh axis 3 is out of range for mesh @mesh of rank 1

"builtin.module"() <{sym_name = "jit_argmax"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], function_type = (tensor<4x8xf32>) -> tensor<4xi32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %cols = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %best:2 = "stablehlo.reduce"(%x, %cols, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>):
      %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %ge = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %k = "func.call"(%ge, %i, %j) <{callee = @_where}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%m, %k) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%best#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%p: tensor<i1>, %t: tensor<i32>, %f: tensor<i32>):
    %r = "stablehlo.select"(%p, %t, %f) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%r) : (tensor<i32>) -> ()
  }) : () -> ()
}) : () -> ()
