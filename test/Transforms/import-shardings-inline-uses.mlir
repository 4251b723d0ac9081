// import-shardings inlines a private function only when its calls are its
// only uses: a symbol reference anywhere else (an unregistered op's
// properties, arrays and dictionaries at any depth, the root of a nested
// reference, a string) keeps the function and the call.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings %s | FileCheck %s

// XLA's custom call names the function it calls in its properties.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.custom_call"(%0) <{call_target_name = "foo", called_computations = [@helper]}> : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32> {mhlo.sharding = "{replicated}"}) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @helper(%arg0)
// CHECK:         called_computations = [@helper]
// CHECK:       func.func private @helper
// CHECK:         "stablehlo.add"

// -----

// In a dictionary inside an array, in a discardable attribute.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  "test.use"() {table = [{fn = [@helper]}]} : () -> ()
  return %0 : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @helper(%arg0)
// CHECK:       func.func private @helper

// -----

// The root of a nested reference, in an unregistered op's properties.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  "test.use"() <{ref = {inner = @helper::@part}}> : () -> ()
  return %0 : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @helper(%arg0)
// CHECK:       func.func private @helper

// -----

// The nested reference on a registered op (the call itself), and a quoted name.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @"odd name"(%x) {note = [@"odd name"::@x]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @"odd name"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @"odd name"(%arg0)
// CHECK:       func.func private @"odd name"

// -----

// Only registered ops: a dictionary in an array in a discardable attribute.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%0) {refs = [{a = @helper}]} : (tensor<4xf32>) -> ()
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @helper(%arg0)
// CHECK:       func.func private @helper

// -----

// A quoted name used in an unregistered op's properties.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @"odd\22name"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  "test.use"() <{fns = [@"odd\22name"]}> : () -> ()
  return %0 : tensor<4xf32>
}
func.func private @"odd\22name"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @"odd\22name"(%arg0)
// CHECK:       func.func private @"odd\22name"

// -----

// Names that only start like the function's, and its name as a plain
// string, are no use: the call is inlined.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.custom_call"(%0) <{call_target_name = "helper", called_computations = [@helper.impl, @helper_2]}> : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @helper.impl(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @helper_2(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK-NEXT:    %[[N:.*]] = "stablehlo.negate"(%arg0)
// CHECK-NEXT:    "stablehlo.custom_call"(%[[N]])
// CHECK-NOT:   func.func private @helper(
// CHECK:       func.func private @helper.impl
// CHECK:       func.func private @helper_2
// CHECK-NOT:   func.func private @helper(

// -----

// A composite's decomposition, and a function named in a custom call's
// backend_config dictionary.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @impl(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @other(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.composite"(%1) <{decomposition = @impl, name = "my.op"}> : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.custom_call"(%2) <{backend_config = {fns = [{f = @other}]}, call_target_name = "bar"}> : (tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}
func.func private @impl(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @other(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main
// CHECK:         call @impl(%arg0)
// CHECK:         call @other(
// CHECK:       func.func private @impl
// CHECK:       func.func private @other

// -----

// Two private functions calling each other: each body holds the other's
// call, so neither is inlined (inlining one into the other would move a
// call into its own callee; an earlier version aborted the process
// replacing a value with itself).
// CHECK-LABEL: func.func @mutual_main(
// CHECK: func.func private @f(%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: call @g(%[[X]])
// CHECK: func.func private @g(%[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: call @f(%[[Y]])
func.func @mutual_main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A call inside a nested module names that module's @f, not the outer one:
// the outer @f's body (an add) was inlined in place of the inner one's (a
// multiply).  Calls in nested modules are left alone.
// CHECK-LABEL: module @inner
// CHECK: func.func private @f(
// CHECK-NEXT: arith.mulf
// CHECK: func.func @inner_main(
// CHECK-NEXT: call @f(
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
module @inner {
  func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = arith.mulf %x, %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @inner_main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// Each function calls the next twice, 14 deep: inlining all would copy the
// innermost 8,191 times.  At most 4,096 copies are made; the calls past
// that are kept, with a warning at the function they call.
// RUN: %python -c "import sys; d = 14; out = ['func.func @main(%%x: tensor<4xf32>) -> tensor<4xf32> {', '  %%0 = func.call @f0(%%x) : (tensor<4xf32>) -> tensor<4xf32>', '  return %%0 : tensor<4xf32>', '}']; [out.extend([f'func.func private @f{i}(%%x: tensor<4xf32>) -> tensor<4xf32> {{'] + ([f'  %%0 = func.call @f{i + 1}(%%x) : (tensor<4xf32>) -> tensor<4xf32>', f'  %%1 = func.call @f{i + 1}(%%0) : (tensor<4xf32>) -> tensor<4xf32>'] if i + 1 < d else ['  %%1 = arith.addf %%x, %%x : tensor<4xf32>']) + ['  return %%1 : tensor<4xf32>', '}']) for i in range(d)]; print(chr(10).join(out))" > %t.deep.mlir
// RUN: mesh-opt --import-shardings %t.deep.mlir -o %t.deep.out.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: grep -c "call @f12(" %t.deep.out.mlir | FileCheck %s --check-prefix=CALLS
// DEEP: warning: import-shardings keeps the 4096 calls of @f12: inlining them would make more than 4096 copies of private functions (a call passes whole values)
// CALLS: 4096
