// A 0-d tensor an arith op makes (numpy returns a scalar for it) is a
// tensor to the linalg op whose init it is: (4 | 8) + 1 + 2 = 15.
// RUN: mesh-run %s | FileCheck %s
// CHECK: result 0: tensor<i32>
// CHECK-NEXT: {{^}}15{{$}}

func.func @f() -> tensor<i32> {
  %a = arith.constant dense<[1, 2]> : tensor<2xi32>
  %b = arith.constant dense<4> : tensor<i32>
  %c = arith.constant dense<8> : tensor<i32>
  %o = arith.ori %b, %c : tensor<i32>
  %r = linalg.reduce ins(%a : tensor<2xi32>) outs(%o : tensor<i32>) dimensions = [0]
    (%x: i32, %y: i32) {
      %z = arith.addi %x, %y : i32
      linalg.yield %z : i32
    }
  return %r : tensor<i32>
}
