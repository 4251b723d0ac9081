// A gather or scatter whose dimension numbers name a dimension its values
// do not have (MLIR never verifies the unregistered dialect) is refused by
// the simulator at the op, with the field and the value the passes name:
// it failed inside with "IndexError: list index out of range".
// RUN: not mesh-run %s -f gather --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not mesh-run %s -f scatter --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=SCATTER

// GATHER: malformed-dimensions.mlir:[[@LINE+2]]:8: error: 'stablehlo.gather' has dimension numbers that do not fit its values: start_index_map entry 7 is out of range for an operand of rank 2
func.func @gather(%table: tensor<8x6xf32>, %ids: tensor<5x2xi32>) -> tensor<5xf32> {
  %g = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 7], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x6xf32>, tensor<5x2xi32>) -> tensor<5xf32>
  return %g : tensor<5xf32>
}

// SCATTER: malformed-dimensions.mlir:[[@LINE+2]]:8: error: 'stablehlo.scatter' has dimension numbers that do not fit its values: input_batching_dims has 1 entries but scatter_indices_batching_dims 0
func.func @scatter(%t: tensor<4x16x8xf32>, %ids: tensor<4x1xi32>, %g: tensor<4x8xf32>) -> tensor<4x16x8xf32> {
  %r = "stablehlo.scatter"(%t, %ids, %g) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%y) : (tensor<f32>) -> ()
  }) : (tensor<4x16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<4x16x8xf32>
  return %r : tensor<4x16x8xf32>
}
