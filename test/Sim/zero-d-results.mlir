// Rank-0 tensors that numpy computes as scalars (a dot product, arith on
// tensor<i32>) stay tensors that tensor.insert and tensor.insert_slice
// write into: 1*1 + 2*2 + 3*3 + 5 = 19, and 19 + 19 = 38.
// RUN: mesh-run %s | FileCheck %s
// CHECK: result 0: tensor<i32>
// CHECK-NEXT: {{^}}7{{$}}
// CHECK: result 1: tensor<i32>
// CHECK-NEXT: {{^}}-3{{$}}
// CHECK: result 2: tensor<2xi32>
// CHECK-NEXT: {{^}}[ 0 38]{{$}}
// CHECK: result 3: tensor<i32>
// CHECK-NEXT: {{^}}38{{$}}

func.func @f() -> (tensor<i32>, tensor<i32>, tensor<2xi32>, tensor<i32>) {
  %a = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %s = arith.constant dense<5> : tensor<i32>
  %c7 = arith.constant 7 : i32
  %cm3 = arith.constant -3 : i32
  %z = arith.constant dense<0> : tensor<2xi32>
  %d = linalg.dot ins(%a, %a : tensor<3xi32>, tensor<3xi32>) outs(%s : tensor<i32>) -> tensor<i32>
  %r0 = tensor.insert %c7 into %d[] : tensor<i32>
  %t = arith.addi %d, %d : tensor<i32>
  %r1 = tensor.insert %cm3 into %t[] : tensor<i32>
  %r2 = tensor.insert_slice %t into %z[1] [1] [1] : tensor<i32> into tensor<2xi32>
  return %r0, %r1, %r2, %t : tensor<i32>, tensor<i32>, tensor<2xi32>, tensor<i32>
}
