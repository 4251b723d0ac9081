// A public function's results that are not tensors take no `mesh.reduced`
// mark, and one returning only such results is left as it is (the pass
// failed with an internal error on `func.func @f() -> i32`).
// RUN: mesh-opt --import-shardings %s | FileCheck %s

// CHECK-LABEL: func.func @scalar() -> i32 {
func.func @scalar() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}

// CHECK-LABEL: func.func @mixed(%arg0: tensor<f32>) -> (i32, tensor<f32> {mesh.reduced}) {
func.func @mixed(%t: tensor<f32>) -> (i32, tensor<f32>) {
  %c = arith.constant 0 : i32
  return %c, %t : i32, tensor<f32>
}
