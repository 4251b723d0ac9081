// Float formats without a zero (f8E8M0FNU holds powers of two only) cannot
// be split into partial sums: a device's piece of a sum starts from zero,
// and a masked lookup yields zero on the devices not holding the row, where
// this format would put 2^-127 (its smallest value) and the all_reduce
// would add it once per device.  Such sums stay whole, and such lookups
// read the table gathered.  A format with a zero still splits: f8E5M2 from
// -0.0, the unsigned-zero f8E4M3FNUZ from +0.0 (its -0.0 bits are its NaN).
// The simulator has no 8-bit floats: the IR is checked.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s | FileCheck %s

// CHECK-LABEL: func.func @sum_e8m0
// CHECK-NOT: f8E8M0FNU = arith.constant
// CHECK-NOT: mesh.all_reduce
// CHECK: linalg.generic
// CHECK: mesh.all_gather
// CHECK-LABEL: func.func @sum_e5m2
// CHECK: arith.constant -0.000000e+00 : f8E5M2
// CHECK: linalg.generic
// CHECK: mesh.all_reduce
// CHECK-LABEL: func.func @lookup_e8m0
// CHECK-NOT: arith.select
// CHECK-NOT: mesh.all_reduce
// CHECK: mesh.all_gather
// CHECK-LABEL: func.func @lookup_e4m3fnuz
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f8E4M3FNUZ
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[ZERO]] : f8E4M3FNUZ
// CHECK: mesh.all_reduce

#row = affine_map<(i, j) -> (i)>
#id = affine_map<(i, j) -> (i, j)>
mesh.mesh @mesh(shape = 4)

func.func @sum_e8m0(%x: tensor<8x16xf8E8M0FNU>) -> tensor<8xf8E8M0FNU> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %cols annotate_for_users : tensor<8x16xf8E8M0FNU>
  %e = tensor.empty() : tensor<8xf8E8M0FNU>
  %g = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xs : tensor<8x16xf8E8M0FNU>) outs(%e : tensor<8xf8E8M0FNU>) {
  ^bb0(%v: f8E8M0FNU, %acc: f8E8M0FNU):
    %r = arith.addf %v, %acc : f8E8M0FNU
    linalg.yield %r : f8E8M0FNU
  } -> tensor<8xf8E8M0FNU>
  %r = mesh.shard %g to %whole : tensor<8xf8E8M0FNU>
  return %r : tensor<8xf8E8M0FNU>
}

func.func @sum_e5m2(%x: tensor<8x16xf8E5M2>) -> tensor<8xf8E5M2> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %cols annotate_for_users : tensor<8x16xf8E5M2>
  %e = tensor.empty() : tensor<8xf8E5M2>
  %g = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xs : tensor<8x16xf8E5M2>) outs(%e : tensor<8xf8E5M2>) {
  ^bb0(%v: f8E5M2, %acc: f8E5M2):
    %r = arith.addf %v, %acc : f8E5M2
    linalg.yield %r : f8E5M2
  } -> tensor<8xf8E5M2>
  %r = mesh.shard %g to %whole : tensor<8xf8E5M2>
  return %r : tensor<8xf8E5M2>
}

func.func @lookup_e8m0(%ids: tensor<8xi64>, %t: tensor<64x16xf8E8M0FNU>) -> tensor<8x16xf8E8M0FNU> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xf8E8M0FNU>
  %e = tensor.empty() : tensor<8x16xf8E8M0FNU>
  %g = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf8E8M0FNU>) {
  ^bb0(%id: i64, %out: f8E8M0FNU):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xf8E8M0FNU>
    linalg.yield %v : f8E8M0FNU
  } -> tensor<8x16xf8E8M0FNU>
  %r = mesh.shard %g to %whole : tensor<8x16xf8E8M0FNU>
  return %r : tensor<8x16xf8E8M0FNU>
}

func.func @lookup_e4m3fnuz(%ids: tensor<8xi64>, %t: tensor<64x16xf8E4M3FNUZ>) -> tensor<8x16xf8E4M3FNUZ> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xf8E4M3FNUZ>
  %e = tensor.empty() : tensor<8x16xf8E4M3FNUZ>
  %g = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf8E4M3FNUZ>) {
  ^bb0(%id: i64, %out: f8E4M3FNUZ):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xf8E4M3FNUZ>
    linalg.yield %v : f8E4M3FNUZ
  } -> tensor<8x16xf8E4M3FNUZ>
  %r = mesh.shard %g to %whole : tensor<8x16xf8E4M3FNUZ>
  return %r : tensor<8x16xf8E4M3FNUZ>
}
