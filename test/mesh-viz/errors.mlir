// Bad input: a positioned diagnostic, exit 1, no traceback.
// RUN: not %python -m mesh_dialect.tools.mesh_viz %s 2>&1 | FileCheck %s
// RUN: not %python -m mesh_dialect.tools.mesh_viz %S/layouts.mlir --function nope 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not %python -m mesh_dialect.tools.mesh_viz %S/layouts.mlir --value %%nope 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not %python -m mesh_dialect.tools.mesh_viz %S/layouts.mlir --svg %t.missing/x.svg 2>&1 | FileCheck %s --check-prefix=WRITE

mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<4xf32>) {
  // CHECK: errors.mlir:[[@LINE+3]]:8: error: 'mesh.sharding' op mesh axis 3 is out of range for mesh @m of rank 1
  // CHECK-NEXT: {{^}}  %s = mesh.sharding
  // CHECK-NOT: Traceback
  %s = mesh.sharding @m split_axes = [[3]] : !mesh.sharding
  return
}

// FUNC: mesh-viz: error: no function @nope in '{{.*}}layouts.mlir' (functions: @f)
// VALUE: mesh-viz: error: no layout of %nope in '{{.*}}layouts.mlir' (values with layouts: %arg0, %x, %y)
// WRITE: mesh-viz: cannot write output file '{{.*}}x.svg': No such file or directory
