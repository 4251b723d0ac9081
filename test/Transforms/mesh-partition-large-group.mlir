// RUN: mesh-opt --split-input-file --mesh-partition %s 2>/dev/null | FileCheck %s

// Pieces of different sizes are moved padded to the largest: each group
// member's part is cut out into (or taken from) its slot of the padded
// buffer.  Up to `unroll-limit` members (16 by default) each member gets its
// own extract_slice / insert_slice; a larger group loops over its members
// with scf.for, reading their offsets and sizes from constant tables made
// once, in front of the loops.  Unrolled, the 65536-device axis below kept
// partition busy for hours (each member listed every piece again);
// test/python/test_partition_loops.py simulates the loops on small meshes.

// 20 elements over 16 devices (12 of 1, 4 of 2): unrolled, one tensor.concat.
mesh.mesh @mesh(shape = 16)
// CHECK-LABEL: func.func @sixteen_unrolled
// CHECK:       %[[G:[a-z0-9_]+]] = mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<32xi32>
// CHECK-COUNT-12: tensor.extract_slice %[[G]][{{[0-9]+}}] [1] [1] : tensor<32xi32> to tensor<1xi32>
// CHECK-COUNT-4: tensor.extract_slice %[[G]][{{[0-9]+}}] [2] [1] : tensor<32xi32> to tensor<2xi32>
// CHECK-NEXT:  %[[C:[a-z0-9_]+]] = tensor.concat dim(0) {{.*}} -> tensor<20xi32>
// CHECK-NEXT:  return %[[C]] : tensor<20xi32>
// CHECK-NOT:   scf.for
func.func @sixteen_unrolled(%x: tensor<20xi32>) -> tensor<20xi32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<20xi32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %w annotate_for_users : tensor<20xi32>
  return %1 : tensor<20xi32>
}

// -----

// 20 elements over 17 devices (14 of 1, 3 of 2): one more member, a loop.
mesh.mesh @mesh(shape = 17)
// CHECK-LABEL: func.func @seventeen_loop
// CHECK:       %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK:       %[[G:[a-z0-9_]+]] = mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<34xi32>
// CHECK-NEXT:  %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<20xi32>
// CHECK-NEXT:  %[[N:[a-z0-9_]+]] = arith.constant 17 : index
// CHECK-NEXT:  %[[C1:[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:  %[[SIZES:[a-z0-9_]+]] = arith.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]> : tensor<17xindex>
// CHECK-NEXT:  %[[C2:[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT:  %[[STARTS:[a-z0-9_]+]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18]> : tensor<17xindex>
// CHECK-NEXT:  %[[R:[a-z0-9_]+]] = scf.for %[[J:[a-z0-9_]+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:[a-z0-9_]+]] = %[[E]]) -> (tensor<20xi32>) {
// CHECK-NEXT:    %[[SIZE:[a-z0-9_]+]] = tensor.extract %[[SIZES]][%[[J]]] : tensor<17xindex>
// CHECK-NEXT:    %[[SLOT:[a-z0-9_]+]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:    %[[PART:[a-z0-9_]+]] = tensor.extract_slice %[[G]][%[[SLOT]]] [%[[SIZE]]] [1] : tensor<34xi32> to tensor<?xi32>
// CHECK-NEXT:    %[[AT:[a-z0-9_]+]] = tensor.extract %[[STARTS]][%[[J]]] : tensor<17xindex>
// CHECK-NEXT:    %[[LEN:[a-z0-9_]+]] = tensor.dim %[[PART]], %[[C0]] : tensor<?xi32>
// CHECK-NEXT:    %[[PUT:[a-z0-9_]+]] = tensor.insert_slice %[[PART]] into %[[ACC]][%[[AT]]] [%[[LEN]]] [1] : tensor<?xi32> into tensor<20xi32>
// CHECK-NEXT:    scf.yield %[[PUT]] : tensor<20xi32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]] : tensor<20xi32>
func.func @seventeen_loop(%x: tensor<20xi32>) -> tensor<20xi32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<20xi32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %w annotate_for_users : tensor<20xi32>
  return %1 : tensor<20xi32>
}

// -----

// The fuzzer's reshard: 4 rows, then 12 columns, over a 65536-device axis
// (65532 and 65524 pieces empty), gathered whole: an all_to_all and an
// all_gather, with a loop over the 65536 members to build the all_to_all's
// buffer and one after each collective to join the parts.  The tables
// (little-endian 64-bit entries) are zeros but for their last entries.
mesh.mesh @mesh(shape = 1x65536)
// CHECK-LABEL: func.func @rows_over_a_huge_axis
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: tensor<?x12xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]], sharded_dims_offsets = [{{(0, )+}}1, 2, 3, 4]>})
// CHECK-SAME:    -> (tensor<4x12xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>})
// CHECK-NEXT:  %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:  %[[ROWS:[a-z0-9_]+]] = tensor.dim %[[X]], %[[C0]] : tensor<?x12xi32>
// CHECK-NEXT:  %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<1x65536xi32>
// CHECK-NEXT:  %[[N:[a-z0-9_]+]] = arith.constant 65536 : index
// CHECK-NEXT:  %[[C1:[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:  %[[CSTART:[a-z0-9_]+]] = arith.constant dense<"0x
// CHECK-NOT:   {{[1-9A-F]}}
// CHECK-SAME:  0100000000000000020000000000000003000000000000000400000000000000050000000000000006000000000000000700000000000000080000000000000009000000000000000A000000000000000B00000000000000"> : tensor<65536xindex>
// CHECK-NEXT:  %[[CSIZE:[a-z0-9_]+]] = arith.constant dense<"0x
// CHECK-NOT:   {{[1-9A-F]}}
// CHECK-SAME:  010000000000000001000000000000000100000000000000010000000000000001000000000000000100000000000000010000000000000001000000000000000100000000000000010000000000000001000000000000000100000000000000"> : tensor<65536xindex>
// CHECK-NEXT:  %[[BUF:[a-z0-9_]+]] = scf.for %[[J:[a-z0-9_]+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:[a-z0-9_]+]] = %[[E]]) -> (tensor<1x65536xi32>) {
// CHECK-NEXT:    %[[S:[a-z0-9_]+]] = tensor.extract %[[CSTART]][%[[J]]] : tensor<65536xindex>
// CHECK-NEXT:    %[[Z:[a-z0-9_]+]] = tensor.extract %[[CSIZE]][%[[J]]] : tensor<65536xindex>
// CHECK-NEXT:    %[[P:[a-z0-9_]+]] = tensor.extract_slice %[[X]][0, %[[S]]] [%[[ROWS]], %[[Z]]] [1, 1] : tensor<?x12xi32> to tensor<?x?xi32>
// CHECK-NEXT:    %[[I:[a-z0-9_]+]] = tensor.insert_slice %[[P]] into %[[ACC]][0, %[[J]]] [%[[ROWS]], %[[Z]]] [1, 1] : tensor<?x?xi32> into tensor<1x65536xi32>
// CHECK-NEXT:    scf.yield %[[I]] : tensor<1x65536xi32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[ME:[a-z0-9_]+]] = mesh.process_multi_index on @mesh axes = [1] : index
// CHECK-NEXT:  %[[MYCOLS:[a-z0-9_]+]] = tensor.extract %[[CSIZE]][%[[ME]]] : tensor<65536xindex>
// CHECK-NEXT:  %[[A:[a-z0-9_]+]] = mesh.all_to_all %[[BUF]] on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<1x65536xi32> -> tensor<65536x1xi32>
// CHECK-NEXT:  %[[E2:[a-z0-9_]+]] = tensor.empty(%[[MYCOLS]]) : tensor<4x?xi32>
// CHECK-NEXT:  %[[RSIZE:[a-z0-9_]+]] = arith.constant dense<"0x
// CHECK-NOT:   {{[1-9A-F]}}
// CHECK-SAME:  0100000000000000010000000000000001000000000000000100000000000000"> : tensor<65536xindex>
// CHECK-NEXT:  %[[RSTART:[a-z0-9_]+]] = arith.constant dense<"0x
// CHECK-NOT:   {{[1-9A-F]}}
// CHECK-SAME:  010000000000000002000000000000000300000000000000"> : tensor<65536xindex>
// CHECK-NEXT:  %[[JOINED:[a-z0-9_]+]] = scf.for %[[J:[a-z0-9_]+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:[a-z0-9_]+]] = %[[E2]]) -> (tensor<4x?xi32>) {
// CHECK-NEXT:    %[[Z:[a-z0-9_]+]] = tensor.extract %[[RSIZE]][%[[J]]] : tensor<65536xindex>
// CHECK-NEXT:    %[[P:[a-z0-9_]+]] = tensor.extract_slice %[[A]][%[[J]], 0] [%[[Z]], %[[MYCOLS]]] [1, 1] : tensor<65536x1xi32> to tensor<?x?xi32>
// CHECK-NEXT:    %[[S:[a-z0-9_]+]] = tensor.extract %[[RSTART]][%[[J]]] : tensor<65536xindex>
// CHECK-NEXT:    %[[D0:[a-z0-9_]+]] = tensor.dim %[[P]], %[[C0]] : tensor<?x?xi32>
// CHECK-NEXT:    %[[D1:[a-z0-9_]+]] = tensor.dim %[[P]], %[[C1]] : tensor<?x?xi32>
// CHECK-NEXT:    %[[I:[a-z0-9_]+]] = tensor.insert_slice %[[P]] into %[[ACC]][%[[S]], 0] [%[[D0]], %[[D1]]] [1, 1] : tensor<?x?xi32> into tensor<4x?xi32>
// CHECK-NEXT:    scf.yield %[[I]] : tensor<4x?xi32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[W:[a-z0-9_]+]] = tensor.dim %[[JOINED]], %[[C1]] : tensor<4x?xi32>
// CHECK-NEXT:  %[[E3:[a-z0-9_]+]] = tensor.empty() : tensor<4x1xi32>
// CHECK-NEXT:  %[[PAD:[a-z0-9_]+]] = tensor.insert_slice %[[JOINED]] into %[[E3]][0, 0] [4, %[[W]]] [1, 1] : tensor<4x?xi32> into tensor<4x1xi32>
// CHECK-NEXT:  %[[G:[a-z0-9_]+]] = mesh.all_gather %[[PAD]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x1xi32> -> tensor<4x65536xi32>
// CHECK-NEXT:  %[[E4:[a-z0-9_]+]] = tensor.empty() : tensor<4x12xi32>
// CHECK-NEXT:  %[[WHOLE:[a-z0-9_]+]] = scf.for %[[J:[a-z0-9_]+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:[a-z0-9_]+]] = %[[E4]]) -> (tensor<4x12xi32>) {
// CHECK-NEXT:    %[[Z:[a-z0-9_]+]] = tensor.extract %[[CSIZE]][%[[J]]] : tensor<65536xindex>
// CHECK-NEXT:    %[[P:[a-z0-9_]+]] = tensor.extract_slice %[[G]][0, %[[J]]] [4, %[[Z]]] [1, 1] : tensor<4x65536xi32> to tensor<4x?xi32>
// CHECK-NEXT:    %[[S:[a-z0-9_]+]] = tensor.extract %[[CSTART]][%[[J]]] : tensor<65536xindex>
// CHECK-NEXT:    %[[D1:[a-z0-9_]+]] = tensor.dim %[[P]], %[[C1]] : tensor<4x?xi32>
// CHECK-NEXT:    %[[I:[a-z0-9_]+]] = tensor.insert_slice %[[P]] into %[[ACC]][0, %[[S]]] [4, %[[D1]]] [1, 1] : tensor<4x?xi32> into tensor<4x12xi32>
// CHECK-NEXT:    scf.yield %[[I]] : tensor<4x12xi32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[Y:[a-z0-9_]+]] = arith.addi %[[WHOLE]], %[[WHOLE]] : tensor<4x12xi32>
// CHECK-NEXT:  return %[[Y]] : tensor<4x12xi32>
func.func @rows_over_a_huge_axis(%x: tensor<4x12xi32>) -> tensor<4x12xi32> {
  %s = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<4x12xi32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %w annotate_for_users : tensor<4x12xi32>
  %2 = arith.addi %1, %1 : tensor<4x12xi32>
  %3 = mesh.shard %2 to %w : tensor<4x12xi32>
  return %3 : tensor<4x12xi32>
}

// -----

// A partial sum cut into pieces of unequal sizes over the same axis: the
// ring all_reduce of its 24 elements receives 48, where a reduce_scatter of
// the buffer padded to one row per device would receive 131,070; each
// device then cuts its rows at the offset and size the tables made once
// give it.  (The reduce_scatter of a loop-built buffer, which larger
// tensors take: test/python/test_partition_loops.py.)
mesh.mesh @mesh(shape = 1x65536)
// CHECK-LABEL: func.func @partial_rows_over_a_huge_axis
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: tensor<12x2xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]], partial = sum [1]>})
// CHECK-SAME:    -> (tensor<?x2xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]], sharded_dims_offsets = [{{(0, )+}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]>})
// CHECK-NEXT:  %[[R:[a-z0-9_]+]] = mesh.all_reduce %[[X]] on @mesh mesh_axes = [1] : tensor<12x2xi32> -> tensor<12x2xi32>
// CHECK-NEXT:  %[[ME:[a-z0-9_]+]] = mesh.process_multi_index on @mesh axes = [1] : index
// CHECK-NEXT:  %[[STARTS:[a-z0-9_]+]] = arith.constant dense<"0x
// CHECK-NOT:   {{[1-9A-F]}}
// CHECK-SAME:  0100000000000000020000000000000003000000000000000400000000000000050000000000000006000000000000000700000000000000080000000000000009000000000000000A000000000000000B00000000000000"> : tensor<65536xindex>
// CHECK-NEXT:  %[[S:[a-z0-9_]+]] = tensor.extract %[[STARTS]][%[[ME]]] : tensor<65536xindex>
// CHECK-NEXT:  %[[SIZES:[a-z0-9_]+]] = arith.constant dense<"0x
// CHECK-NOT:   {{[1-9A-F]}}
// CHECK-SAME:  010000000000000001000000000000000100000000000000010000000000000001000000000000000100000000000000010000000000000001000000000000000100000000000000010000000000000001000000000000000100000000000000"> : tensor<65536xindex>
// CHECK-NEXT:  %[[Z:[a-z0-9_]+]] = tensor.extract %[[SIZES]][%[[ME]]] : tensor<65536xindex>
// CHECK-NEXT:  %[[V:[a-z0-9_]+]] = tensor.extract_slice %[[R]][%[[S]], 0] [%[[Z]], 2] [1, 1] : tensor<12x2xi32> to tensor<?x2xi32>
// CHECK-NEXT:  %[[Y:[a-z0-9_]+]] = arith.addi %[[V]], %[[V]] : tensor<?x2xi32>
// CHECK-NEXT:  return %[[Y]] : tensor<?x2xi32>
func.func @partial_rows_over_a_huge_axis(%x: tensor<12x2xi32>) -> tensor<12x2xi32> {
  %p = mesh.sharding @mesh split_axes = [[]] partial = sum [1] : !mesh.sharding
  %0 = mesh.shard %x to %p : tensor<12x2xi32>
  %s = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s annotate_for_users : tensor<12x2xi32>
  %2 = arith.addi %1, %1 : tensor<12x2xi32>
  %3 = mesh.shard %2 to %s : tensor<12x2xi32>
  return %3 : tensor<12x2xi32>
}
