// An op without a rule next to a sharded value is named once: the ops in
// its regions (a stablehlo.case's branches, as JAX exports lax.cond) are
// not named again (each branch's stablehlo.return was an error of its own).
// RUN: mesh-opt --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --verify-diagnostics --sharding-propagation=solver=sweep %s

mesh.mesh @mesh(shape = 2)
func.func @cond(%x: tensor<8x8xf32>, %k: tensor<i32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x8xf32>
  // expected-error @+1 {{no sharding rule for 'stablehlo.case' but its result 0 is sharded}}
  %r = "stablehlo.case"(%k) ({
    %a = "stablehlo.add"(%xs, %xs) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "stablehlo.return"(%a) : (tensor<8x8xf32>) -> ()
  }, {
    "stablehlo.return"(%xs) : (tensor<8x8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<8x8xf32>
  %rs = mesh.shard %r to %rows : tensor<8x8xf32>
  return %rs : tensor<8x8xf32>
}
