// An op without a rule next to a sharded value is named once: the ops in
// its regions are not named again (each region's terminator was an error
// of its own once).
// RUN: mesh-opt --allow-unregistered-dialect --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --allow-unregistered-dialect --verify-diagnostics --sharding-propagation=solver=sweep %s

mesh.mesh @mesh(shape = 2)
func.func @unknown(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x8xf32>
  // expected-error @+1 {{no sharding rule for 'frontend.choose' but its result 0 is sharded}}
  %r = "frontend.choose"() ({
    %a = arith.addf %xs, %xs : tensor<8x8xf32>
    "frontend.yield"(%a) : (tensor<8x8xf32>) -> ()
  }, {
    "frontend.yield"(%xs) : (tensor<8x8xf32>) -> ()
  }) : () -> tensor<8x8xf32>
  %rs = mesh.shard %r to %rows : tensor<8x8xf32>
  return %rs : tensor<8x8xf32>
}
