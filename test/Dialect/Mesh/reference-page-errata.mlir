// Three examples of the dialect's reference page cannot be accepted as the
// page writes them; reference-examples.mlir has the corrected versions.
// RUN: mesh-opt --split-input-file --verify-diagnostics %s

// The shift example has no operand before `on`.
mesh.mesh @mesh0(shape = 2x4)
func.func @shift(%0: tensor<2xi8>) {
  // expected-error@+1 {{expected an SSA value such as %0, found 'on'}}
  %1 = mesh.shift on @mesh0 mesh_axes = [1]
    shift_axis = 1 offset = 2 rotate
    : tensor<2xi8> -> tensor<2xi8>
  return
}

// -----

// The reduce_scatter example scatters 3 rows over 2 devices (upstream
// mlir-opt rejects it too).
mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_scatter(%0: tensor<3x4xf32>) {
  // expected-error@+1 {{'mesh.reduce_scatter' op input dimension 0 of size 3 is not divisible by the 2 devices of the group (scatter_axis)}}
  %1 = mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1]
    reduction = <max> scatter_axis = 0
    : tensor<3x4xf32> -> tensor<1x4xf64>
  return
}

// -----

// The second sharding example repeats `split_axes =` inside its list.
mesh.mesh @mesh0(shape = 2x2x4)
func.func @sharding2() {
  // expected-error@+1 {{expected ',' or ']' in split axes, found 'split_axes'}}
  %sharding2 = mesh.sharding @mesh0 split_axes = [[0] split_axes = []] partial = sum[1]
  return
}
