// A float iota split along its dimension rounds each element once, as the
// whole iota does: past 2048 not every integer is an f16, and the local
// iota rounded and then added to the device's offset would round twice
// (element 8197 of the whole iota is 8200, 8192 that way).  Such an iota
// counts in i64 and converts once; one whose every index is exact in its
// type (test/Sim/stablehlo/masked.mlir) adds the offset in the float type.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --function long --compare-with %s --rtol 0 --atol 0 -q | FileCheck %s
// RUN: mesh-run %t.mlir --function rows --compare-with %s --rtol 0 --atol 0 -q | FileCheck %s
// RUN: mesh-run %t.mlir --function bytes --compare-with %s --rtol 0 --atol 0 -q | FileCheck %s
// CHECK: match
// IR-LABEL: func.func @long
// IR: %[[I:.*]] = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<3072xi64>
// IR: %[[O:.*]] = arith.index_cast %{{.*}} : index to i64
// IR: %[[S:.*]] = tensor.splat %[[O]] : tensor<3072xi64>
// IR: %[[A:.*]] = arith.addi %[[I]], %[[S]] : tensor<3072xi64>
// IR: arith.sitofp %[[A]] : tensor<3072xi64> to tensor<3072xf16>
// IR-LABEL: func.func @rows
// IR: "mhlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x6144xi64>
// IR: arith.sitofp {{.*}} : tensor<2x6144xi64> to tensor<2x6144xf16>
// IR-LABEL: func.func @bytes
// IR: "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<100xi8>
// IR: arith.addi {{.*}} : tensor<100xi8>

mesh.mesh @mesh(shape = 4)
mesh.mesh @grid(shape = 2x2)

func.func @long() -> tensor<12288xf16> {
  %i = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<12288xf16>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %i1 = mesh.shard %i to %s : tensor<12288xf16>
  return %i1 : tensor<12288xf16>
}

// mhlo, split on both dimensions of a 2x2 mesh, counting along the second
func.func @rows() -> tensor<4x12288xf16> {
  %i = "mhlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x12288xf16>
  %s = mesh.sharding @grid split_axes = [[0], [1]] : !mesh.sharding
  %i1 = mesh.shard %i to %s : tensor<4x12288xf16>
  return %i1 : tensor<4x12288xf16>
}

// integers stay in their type and wrap as the whole iota does
func.func @bytes() -> tensor<400xi8> {
  %i = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<400xi8>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %i1 = mesh.shard %i to %s : tensor<400xi8>
  return %i1 : tensor<400xi8>
}
