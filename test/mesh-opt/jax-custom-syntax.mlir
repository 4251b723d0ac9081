// A JAX module printed in its dialects' custom syntax (`as_text()`) cannot
// be read here, where stablehlo and sdy are not loaded: the error says how
// to print it in MLIR's generic form instead.
// RUN: not mesh-opt --import-shardings %s 2>&1 | FileCheck %s
// CHECK: jax-custom-syntax.mlir:[[@LINE+3]]:3: error: Dialect `sdy' not found for custom op 'sdy.mesh'
// CHECK: note: the stablehlo and sdy dialects are not loaded here: their ops are read in MLIR's generic form, which JAX prints with `lowered.compiler_ir('stablehlo').operation.get_asm(print_generic_op_form=True)`
module @jit_f {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
