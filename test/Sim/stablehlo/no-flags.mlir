// Generic-form ops of stablehlo, mhlo, chlo and sdy (what JAX exports; the
// bindings have none of these dialects) parse without
// --allow-unregistered-dialect, in mesh-opt and mesh-run alike; an op of any
// other unknown dialect is still refused, where mlir-opt places the error.
// RUN: mesh-opt --split-input-file --verify-diagnostics %s | FileCheck %s
// RUN: not mesh-opt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=POS -DFILE=%s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect %s | FileCheck %s --check-prefix=ALLOWED

// CHECK: "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}>
// CHECK-LABEL: func.func @known(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// CHECK: "stablehlo.add"
// CHECK: "mhlo.multiply"
// CHECK: "chlo.erf"
// CHECK: "sdy.sharding_constraint"
// CHECK-NOT: foo.bar
// ALLOWED: "foo.bar"
// ALLOWED: "foo.baz"

"sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2]>}> : () -> ()
func.func @known(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.multiply"(%0, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "chlo.erf"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "sdy.sharding_constraint"(%2) <{sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// POS: [[FILE]]:[[@LINE+5]]:17: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// POS-NEXT: {{^}}  %1 = "foo.bar"(%0) : (tensor<4xf32>) -> tensor<4xf32>
func.func @unknown_next_to_known(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{operation being parsed with an unregistered dialect}}
  %1 = "foo.bar"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// POS: [[FILE]]:[[@LINE+3]]:17: error: operation being parsed with an unregistered dialect
func.func @unknown_alone(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operation being parsed with an unregistered dialect}}
  %0 = "foo.baz"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
