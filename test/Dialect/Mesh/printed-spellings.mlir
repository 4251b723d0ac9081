// What the printer writes reads back: dialect attributes in an op's trailing
// dictionary in their surface spelling (they came out in IRDL's, as
// #mesh.partial<"max">), and a mesh.shard_shape of no dimension in the
// generic form (its dimension list would be empty, which does not parse).
// RUN: mesh-opt %s | FileCheck %s
// RUN: mesh-opt %s | mesh-opt | FileCheck %s

mesh.mesh @m(shape = 2)

// CHECK-LABEL: func.func @attr_dict(
// CHECK: mesh.all_reduce %arg0 on @m {k = #mesh.partial<max>, nested = {y = [#mesh.axisarray<{{\[\[}}0], []]>]}, s = "#mesh.partial<\22max\22>"} : tensor<4xf32> -> tensor<4xf32>
func.func @attr_dict(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.all_reduce %x on @m {k = #mesh.partial<max>, nested = {y = [#mesh.axisarray<[[0], []]>]}, s = "#mesh.partial<\22max\22>"} : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @rank0_shard_shape(
// CHECK: "mesh.shard_shape"(%{{.*}}, %arg0) {shape = array<i64>} : (!mesh.sharding, index) -> ()
func.func @rank0_shard_shape(%d: index) {
  %s = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  "mesh.shard_shape"(%s, %d) {shape = array<i64>} : (!mesh.sharding, index) -> ()
  return
}

// A quoted attribute name may hold `=` (and spaces): printed as written.
// CHECK-LABEL: func.func @quoted_attribute_names(
// CHECK: mesh.shard %arg0 to %{{.*}} {"a=b" = 1 : i64, "c =d" = "x=y", e = "=f"} : tensor<4xf32>
func.func @quoted_attribute_names(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %d = mesh.shard %x to %s {"a=b" = 1 : i64, "c =d" = "x=y", e = "=f"} : tensor<4xf32>
  return %d : tensor<4xf32>
}
