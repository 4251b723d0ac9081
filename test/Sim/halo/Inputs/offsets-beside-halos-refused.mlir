// The filter's channels cut 0, 1, 2 by offsets, the input's (beside its
// halos) evenly: the pieces of the channel loop cannot line up.
mesh.mesh @mesh(shape = 2x3)
func.func @f(%x: tensor<1x4x6x3xi64>, %w: tensor<3x3x1x3xi64>) -> tensor<1x2x6x3xi64> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x4x6x3xi64>
  %o = mesh.sharding @mesh split_axes = [[], [], [], [1]] sharded_dims_offsets = [0, 0, 1, 3] : !mesh.sharding
  %ws = mesh.shard %w to %o annotate_for_users : tensor<3x3x1x3xi64>
  %c = arith.constant 0 : i64
  %e = tensor.empty() : tensor<1x2x6x3xi64>
  %z = linalg.fill ins(%c : i64) outs(%e : tensor<1x2x6x3xi64>) -> tensor<1x2x6x3xi64>
  // expected-error@+1 {{the pieces around 'linalg.conv_2d_nhwc_fhwc' do not line up: operand 0 is cut as [0:1, 1:2, 2:3] and operand 1 as [0:0, 0:1, 1:3] along loop 6; reshard one of them with an annotation for users}}
  %r = linalg.conv_2d_nhwc_fhwc ins(%xs, %ws : tensor<1x4x6x3xi64>, tensor<3x3x1x3xi64>) outs(%z : tensor<1x2x6x3xi64>) -> tensor<1x2x6x3xi64>
  return %r : tensor<1x2x6x3xi64>
}
