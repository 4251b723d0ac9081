// export-shardings writes a Shardy mesh whose devices are numbered as this
// dialect numbers them, under a name no symbol has, or leaves it out.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --verify-diagnostics --pass-pipeline='builtin.module(export-shardings{strip=false})' %s | FileCheck %s

// The two pieces of "x" are not neighbours: merged into one axis "x"=4 (as
// it did), Shardy would number the devices x-major and hand device 1 other
// rows. Each piece stays an axis of its own, in mesh order.
// CHECK-LABEL: module @apart
// CHECK: "sdy.mesh"() <{mesh = #sdy.mesh<["x:(1)2"=2, "y"=3, "x:(2)2"=2]>, sym_name = "m_sdy"}>
// CHECK: sdy.sharding = #sdy.sharding<@m_sdy, [{"x:(2)2"}]>
module @apart {
  mesh.mesh @m(shape = 2x3x2) {mesh.axis_names = ["x:(1)2", "y", "x:(2)2"]}
  func.func @main(%arg0: tensor<12xf32> {mesh.sharding = #mesh.sharding<@m, [[2]]>}) -> tensor<12xf32> {
    return %arg0 : tensor<12xf32>
  }
}

// -----

// Neighbours, major first: one axis again.
// CHECK-LABEL: module @together
// CHECK: "sdy.mesh"() <{mesh = #sdy.mesh<["y"=3, "x"=4]>, sym_name = "m_sdy"}>
// CHECK: sdy.sharding = #sdy.sharding<@m_sdy, [{"x":(2)2}]>
module @together {
  mesh.mesh @m(shape = 3x2x2) {mesh.axis_names = ["y", "x:(1)2", "x:(2)2"]}
  func.func @main(%arg0: tensor<12xf32> {mesh.sharding = #mesh.sharding<@m, [[2]]>}) -> tensor<12xf32> {
    return %arg0 : tensor<12xf32>
  }
}

// -----

// A mesh of dynamic size has no Shardy spelling.
// CHECK-LABEL: module @dynamic
// CHECK-NOT: sdy.mesh
// CHECK-NOT: sdy.sharding
module @dynamic {
  mesh.mesh @m(shape = 2x?)
  // expected-warning @+1 {{a mesh of dynamic size has no shardy counterpart (@m, shape 2x?); left out of argument 0: split_axes = [[0]]}}
  func.func @main(%arg0: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}

// -----

// The name the Shardy mesh would take is a function's: it takes another.
// CHECK-LABEL: module @clash
// CHECK: "sdy.mesh"() <{mesh = #sdy.mesh<["axis0"=2]>, sym_name = "m_sdy_1"}>
// CHECK: func.func private @m_sdy()
// CHECK: sdy.sharding = #sdy.sharding<@m_sdy_1, [{"axis0"}]>
module @clash {
  mesh.mesh @m(shape = 2)
  func.func private @m_sdy()
  func.func @main(%arg0: tensor<8xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
