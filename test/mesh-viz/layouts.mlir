// mesh-viz draws every layout of a function and prices its reshards.
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --no-color --width 24 | FileCheck %s
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --value %%y --width 24 | FileCheck %s --check-prefix=ONE
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --svg %t.svg --value 0
// RUN: FileCheck %s --input-file %t.svg --check-prefix=SVG
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --html - | FileCheck %s --check-prefix=HTML

mesh.mesh @mesh(shape = 2x2)

// CHECK-LABEL: func @f
// CHECK-NEXT: %arg0 (annotation at [[@LINE+17]]:8, as %x): tensor<8x6xf32> on @mesh 2x2: split_axes = {{\[\[}}0], [1]]
// CHECK-NEXT: ┌──────────┬──────────┐
// CHECK:      │    0     │    1     │
// CHECK:      ├──────────┼──────────┤
// CHECK:      │    2     │    3     │
// CHECK:      └──────────┴──────────┘
// CHECK-NEXT: %x (annotation at [[@LINE+13]]:8, as %y): tensor<8x6xf32> on @mesh 2x2: split_axes = {{\[\[}}]] partial = sum [0, 1]
// CHECK:      │       0+1+2+3        │
// CHECK:      partial sum over mesh axes 0, 1: devices joined by + hold terms
// CHECK-NEXT: %y (annotation for users at [[@LINE+12]]:8, as %z): tensor<8x6xf32> on @mesh 2x2: split_axes = {{\[\[}}0]]
// CHECK:      │         0, 1         │
// CHECK:      │         2, 3         │
// A chain of result annotations is a change of layout too.
// CHECK:      reshard %x at [[@LINE+6]]:8: {{.*}} 144 bytes received per device (lower bound 144)
// CHECK-NEXT: reshard %y at [[@LINE+7]]:8: split_axes = {{\[\[}}]] partial = sum [0, 1] -> split_axes = {{\[\[}}0]]: reduce_scatter mesh_axes = [0] reduction = <sum> scatter_axis = 0, all_reduce mesh_axes = [1] reduction = <sum>; 192 bytes received per device (lower bound 96)
func.func @f(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8x6xf32>
  %p = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %y = mesh.shard %x to %p : tensor<8x6xf32>
  %r = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %z = mesh.shard %y to %r annotate_for_users : tensor<8x6xf32>
  return %z : tensor<8x6xf32>
}

// --value names a value as written: its annotation (whose result it is) and
// the annotations of its uses.
// ONE:      func @f
// ONE-NEXT: %x (annotation at {{[0-9]+}}:8, as %y)
// ONE:      %y (annotation for users at {{[0-9]+}}:8, as %z)
// ONE-NOT:  {{^}}%x (
// ONE-NOT:  reshard

// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: <text class="title" {{.*}}>%arg0 (annotation at {{[0-9]+}}:8, as %x)</text>
// SVG-COUNT-4: <rect class="tile"
// SVG-NOT: <rect class="tile"

// HTML: <!DOCTYPE html>
// HTML: <h2>func @f
// HTML: <tr class="reshard"><td><code>%y</code></td>
// HTML-SAME: reduce_scatter mesh_axes = [0]
// HTML: <script type="application/json" id="mesh-viz-data">
