// stablehlo.bitcast_convert between element types of one width is
// elementwise: JAX's random numbers turn ui32 bits into floats in [1, 2)
// with it (jax.random.uniform, categorical), here on rows split over 4
// devices, which stay split (no collective).
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s --seed 3 -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @uniform(%arg0: tensor<2x16xui32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// IR-NOT: mesh.all_gather
// IR: "stablehlo.bitcast_convert"(%{{.*}}) : (tensor<2x16xui32>) -> tensor<2x16xf32>

module {
  mesh.mesh @mesh(shape = 4)
  func.func @uniform(%bits: tensor<8x16xui32>) -> tensor<8x16xf32> {
    %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %b = mesh.shard %bits to %rows : tensor<8x16xui32>
    %nine = "stablehlo.constant"() <{value = dense<9> : tensor<8x16xui32>}> : () -> tensor<8x16xui32>
    %mantissa = "stablehlo.shift_right_logical"(%b, %nine) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %one_bits = "stablehlo.constant"() <{value = dense<1065353216> : tensor<8x16xui32>}> : () -> tensor<8x16xui32>
    %in12 = "stablehlo.or"(%mantissa, %one_bits) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %f = "stablehlo.bitcast_convert"(%in12) : (tensor<8x16xui32>) -> tensor<8x16xf32>
    %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x16xf32>}> : () -> tensor<8x16xf32>
    %u = "stablehlo.subtract"(%f, %one) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %out = mesh.shard %u to %rows : tensor<8x16xf32>
    return %out : tensor<8x16xf32>
  }
}
