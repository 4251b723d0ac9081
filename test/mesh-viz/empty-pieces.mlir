// An empty piece (uneven offsets) takes no room in the picture: its row or
// column is not drawn and the legend names the devices that hold it.
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --no-color --width 24 | FileCheck %s --match-full-lines
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --svg %t.svg --function rows
// RUN: FileCheck %s --input-file %t.svg --check-prefix=SVG
// RUN: %python -m mesh_dialect.tools.mesh_viz %s --html - --function rows | FileCheck %s --check-prefix=HTML

mesh.mesh @m(shape = 4)
mesh.mesh @m2(shape = 2x2)

// CHECK-LABEL: func @rows
// CHECK-NEXT: %x (annotation at {{[0-9]+}}:8, as %y): tensor<6x4xf32> on @m 4: split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 3, 3, 5, 6]
// CHECK-NEXT: ┌──────────────────────┐
// CHECK-NEXT: │                      │
// CHECK-NEXT: │          0           │
// CHECK-NEXT: │                      │
// CHECK-NEXT: │                      │
// CHECK-NEXT: ├──────────────────────┤
// CHECK-NEXT: │                      │
// CHECK-NEXT: │          2           │
// CHECK-NEXT: │                      │
// CHECK-NEXT: ├──────────────────────┤
// CHECK-NEXT: │          3           │
// CHECK-NEXT: └──────────────────────┘
// CHECK-NEXT: device 1 holds an empty piece
func.func @rows(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 3, 3, 5, 6] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// A 2-D mesh: the empty column (mesh axis 1) is dropped, and with it both
// copies along the replicated axis 0.
// CHECK-LABEL: func @columns
// CHECK-NEXT: %x (annotation at {{[0-9]+}}:8, as %y): tensor<4x6xf32> on @m2 2x2: split_axes = {{\[\[}}], [1]] sharded_dims_offsets = [0, 6, 6]
// CHECK-NEXT: ┌──────────────────────┐
// CHECK:      │         0, 2         │
// CHECK:      └──────────────────────┘
// CHECK-NEXT: devices 1, 3 hold empty pieces
func.func @columns(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s = mesh.sharding @m2 split_axes = [[], [1]] sharded_dims_offsets = [0, 6, 6] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// A 0-size dimension has only empty pieces: drawn as before, no note.
// CHECK-LABEL: func @nothing
// CHECK:      │          0           │
// CHECK:      │          1           │
// CHECK:      └──────────────────────┘
// CHECK-NOT:  empty piece
func.func @nothing(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<0x4xf32>
  return %y : tensor<0x4xf32>
}

// SVG-COUNT-3: <rect class="tile"
// SVG-NOT:     <rect class="tile" data-devices="1"
// SVG:         <text class="note" {{.*}}>device 1 holds an empty piece</text>

// HTML: "empty": "device 1 holds an empty piece",
// HTML: "hidden_rows": [
// HTML-NEXT: 1
// HTML: "hidden": true
