// mesh-analysis runs an scf.for of at most 64 trips trip by trip: its
// induction variable and the integers it carries are known in each trip, so
// a branch on them is decided as the simulator decides it.  It used to run
// the body once, with the carried values' first values, and multiply: the
// all_reduce below, taken in the first trip only, counted 4 times.
// RUN: mesh-opt --split-input-file --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: @carried on @mesh (shape 2, 2 devices)
// CHECK: max     all_reduce 1            32
// CHECK-NOT: note
mesh.mesh @mesh(shape = 2)
func.func @carried(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%flag = %c0, %acc = %x) -> (index, tensor<8xi32>) {
    %first = arith.cmpi eq, %flag, %c0 : index
    %y = scf.if %first -> tensor<8xi32> {
      %s = mesh.all_reduce %acc on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
      scf.yield %s : tensor<8xi32>
    } else {
      scf.yield %acc : tensor<8xi32>
    }
    scf.yield %c1, %y : index, tensor<8xi32>
  }
  return %r#1 : tensor<8xi32>
}

// -----

// A branch on the induction variable: taken in trips 2 and 3 of 0..5.
// CHECK-LABEL: @on_the_index on @mesh (shape 2, 2 devices)
// CHECK: max     all_reduce 2            64
// CHECK-NOT: note
mesh.mesh @mesh(shape = 2)
func.func @on_the_index(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %x) -> (tensor<8xi32>) {
    %h = arith.divui %i, %c2 : index
    %mid = arith.cmpi eq, %h, %c1 : index
    %y = scf.if %mid -> tensor<8xi32> {
      %s = mesh.all_reduce %acc on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
      scf.yield %s : tensor<8xi32>
    } else {
      scf.yield %acc : tensor<8xi32>
    }
    scf.yield %y : tensor<8xi32>
  }
  return %r : tensor<8xi32>
}

// -----

// A longer loop runs once and multiplies; a carried integer that changes
// is then said.
// CHECK-LABEL: @long on @mesh (shape 2, 2 devices)
// CHECK: max     all_reduce 100         3,200
// CHECK: note: {{.*}}mesh-analysis-loop-trips.mlir:[[@LINE+7]]:{{[0-9]+}}: 'scf.for' of 100 trips carries integers that change: its body is counted 100 times as its first trip runs
mesh.mesh @mesh(shape = 2)
func.func @long(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %r:2 = scf.for %i = %c0 to %c100 step %c1 iter_args(%flag = %c0, %acc = %x) -> (index, tensor<8xi32>) {
    %first = arith.cmpi eq, %flag, %c0 : index
    %y = scf.if %first -> tensor<8xi32> {
      %s = mesh.all_reduce %acc on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
      scf.yield %s : tensor<8xi32>
    } else {
      scf.yield %acc : tensor<8xi32>
    }
    scf.yield %c1, %y : index, tensor<8xi32>
  }
  return %r#1 : tensor<8xi32>
}

// -----

// A loop of one trip binds its induction variable too: the branch below is
// never taken (it counted an all_reduce, "known only at run time").
// CHECK-LABEL: @one_trip on @mesh (shape 2, 2 devices)
// CHECK: max     -                       0
// CHECK-NOT: note
mesh.mesh @mesh(shape = 2)
func.func @one_trip(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %x) -> (tensor<8xi32>) {
    %late = arith.cmpi eq, %i, %c5 : index
    %y = scf.if %late -> tensor<8xi32> {
      %s = mesh.all_reduce %acc on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
      scf.yield %s : tensor<8xi32>
    } else {
      scf.yield %acc : tensor<8xi32>
    }
    scf.yield %y : tensor<8xi32>
  }
  return %r : tensor<8xi32>
}

// -----

// Nested loops run trip by trip up to 256 trips in all: the innermost of
// three 8-trip loops (512) runs once per trip of the two around it and
// multiplies, so the analysis does not take 512 times the body's time per
// device (three nested 64-trip loops took minutes); the count is the same.
// CHECK-LABEL: @nested on @mesh (shape 2, 2 devices)
// CHECK: max     all_reduce 512        16,384
mesh.mesh @mesh(shape = 2)
func.func @nested(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = scf.for %i = %c0 to %c8 step %c1 iter_args(%u = %x) -> (tensor<8xi32>) {
    %b = scf.for %j = %c0 to %c8 step %c1 iter_args(%v = %u) -> (tensor<8xi32>) {
      %c = scf.for %k = %c0 to %c8 step %c1 iter_args(%w = %v) -> (tensor<8xi32>) {
        %s = mesh.all_reduce %w on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
        scf.yield %s : tensor<8xi32>
      }
      scf.yield %c : tensor<8xi32>
    }
    scf.yield %b : tensor<8xi32>
  }
  return %a : tensor<8xi32>
}
