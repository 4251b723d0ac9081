// export-shardings on mesh attributes of the wrong kind: an error at the
// mesh naming the rule and the value, never an internal error.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --export-shardings --verify-diagnostics %s

// expected-error @+1 {{mesh.axis_names must be an array of strings, got [1, 2]}}
mesh.mesh @mesh(shape = 2x2) {mesh.axis_names = [1, 2]}
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %a to %s : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// expected-error @+1 {{mesh.device_ids must be an array<i64> listing devices 0 to 1 once each, got [1, 0]}}
mesh.mesh @mesh(shape = 2) {mesh.device_ids = [1, 0]}
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %a to %s : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// expected-error @+1 {{mesh.device_ids must be an array<i64> listing devices 0 to 1 once each, got array<i64: 5, 7, 9>}}
mesh.mesh @mesh(shape = 2) {mesh.device_ids = array<i64: 5, 7, 9>}
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %a to %s : tensor<8xf32>
  return %b : tensor<8xf32>
}
