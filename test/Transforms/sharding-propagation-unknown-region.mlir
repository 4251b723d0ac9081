// An op without a rule next to a sharded value is named once: the ops in
// its regions (an scf.index_switch's cases) are not named again (each
// case's terminator was an error of its own).
// RUN: mesh-opt --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --verify-diagnostics --sharding-propagation=solver=sweep %s

mesh.mesh @mesh(shape = 2)
func.func @switch(%x: tensor<8x8xf32>, %k: index) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x8xf32>
  // expected-error @+1 {{no sharding rule for 'scf.index_switch' but its result 0 is sharded}}
  %r = scf.index_switch %k -> tensor<8x8xf32>
  case 1 {
    %a = arith.addf %xs, %xs : tensor<8x8xf32>
    scf.yield %a : tensor<8x8xf32>
  }
  default {
    scf.yield %xs : tensor<8x8xf32>
  }
  %rs = mesh.shard %r to %rows : tensor<8x8xf32>
  return %rs : tensor<8x8xf32>
}
