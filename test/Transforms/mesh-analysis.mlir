// mesh-analysis prints what a plan costs per device and leaves the IR as it is.
// RUN: mesh-opt --split-input-file %s -o %t.plain.mlir
// RUN: mesh-opt --split-input-file --mesh-analysis %s -o %t.out.mlir 2> %t.report
// RUN: diff %t.plain.mlir %t.out.mlir
// RUN: FileCheck %s --match-full-lines --strict-whitespace < %t.report
// JSON, one document per chunk:
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(mesh-analysis{format=json})' %s -o /dev/null 2> %t.json
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// A report written to a file (each chunk's replaces the one before); a file
// that cannot be written, or a mesh over the device limit, is an error at a position:
// RUN: mesh-opt --split-input-file '--mesh-analysis=output=%t.txt' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FILE < %t.txt
// RUN: not mesh-opt --split-input-file '--mesh-analysis=output=%t.missing/report.txt' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not mesh-opt --split-input-file '--mesh-analysis=max-devices=3' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT

// 1. An annotated program: the report is of what partition emits (after
// propagation, on a copy). The design's 1-D weight-stationary MLP: one
// all_gather of the 2x4x4 input (128 bytes), one reduce_scatter of the
// 2x4x8 partial output ((2-1) * 32 elements * 4 bytes); flops: the two
// matmuls 2 * (2*4*16*8) each and the relu 2*4*16; peak memory at the first
// matmul: w1 and w2 (512 + 512), the gathered input (256), its init and its
// result (512 + 512).
// CHECK:mesh-analysis: the per-device program sharding-propagation and mesh-partition would emit
// CHECK-NEXT:@mlp on @mesh0 (shape 2, 2 devices)
// CHECK-NEXT:  device  collectives                     received (B)  peak memory (B)  flops  redundant flops
// CHECK-NEXT:  [0]     all_gather 1, reduce_scatter 1           256            2,304  4,224                0
// CHECK-NEXT:  [1]     all_gather 1, reduce_scatter 1           256            2,304  4,224                0
// CHECK-NEXT:  max     all_gather 1, reduce_scatter 1           256            2,304  4,224                0
// CHECK-NEXT:  total   all_gather 2, reduce_scatter 2           512            4,608  8,448                0
// JSON: "pipeline": [
// JSON-NEXT: "sharding-propagation",
// JSON-NEXT: "mesh-partition"

#lhs = affine_map<(b, l, f, e) -> (b, l, e)>
#rhs = affine_map<(b, l, f, e) -> (e, f)>
#out = affine_map<(b, l, f, e) -> (b, l, f)>
#id = affine_map<(b, l, f) -> (b, l, f)>

mesh.mesh @mesh0(shape = 2)

// ERR: mesh-analysis.mlir:[[@LINE+1]]:1: error: cannot write the report to '{{.*}}report.txt': {{.+}}
func.func @mlp(%x: tensor<2x4x8xf32>, %w1: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s0 = mesh.sharding @mesh0 split_axes = [[], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s0 : tensor<2x4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x4x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %h = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x0, %w1 : tensor<2x4x8xf32>, tensor<8x32xf32>) outs(%z1 : tensor<2x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  %e2 = tensor.empty() : tensor<2x4x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h : tensor<2x4x32xf32>) outs(%e2 : tensor<2x4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x32xf32>
  %e3 = tensor.empty() : tensor<2x4x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%r, %w2 : tensor<2x4x32xf32>, tensor<32x8xf32>) outs(%z3 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  %s1 = mesh.sharding @mesh0 split_axes = [[], [], []] partial = sum [0] : !mesh.sharding
  %y0 = mesh.shard %y to %s1 : tensor<2x4x8xf32>
  %y1 = mesh.shard %y0 to %s0 annotate_for_users : tensor<2x4x8xf32>
  return %y1 : tensor<2x4x8xf32>
}

// -----

// 2. A per-device program, analyzed as written. Its weight is whole on
// every device and its input split along axis 0 only, so the matmul
// (2 * 4*8*8) and the three adds of the loop (3 * 32) are done again along
// axis 1: redundant on [0, 1] and [1, 1]. The branch runs on the devices at
// coordinate 0 of axis 1, where the gathered value is the same: [1, 0]
// repeats [0, 0]'s 64 flops. Received: the all_gather (128 bytes) and the
// all_reduce of 64 elements over 2 devices (2 * 32 * 4). Peak memory at
// the matmul: x, w, its init and its result (128 + 256 + 128 + 128).
// CHECK:mesh-analysis: the per-device program as written
// CHECK-NEXT:@replicated on @mesh (shape 2x2, 4 devices)
// CHECK-NEXT:  device  collectives                 received (B)  peak memory (B)  flops  redundant flops
// CHECK-NEXT:  [0, 0]  all_gather 1, all_reduce 1           384              640    672                0
// CHECK-NEXT:  [0, 1]  all_gather 1, all_reduce 1           384              640    608              608
// CHECK-NEXT:  [1, 0]  all_gather 1, all_reduce 1           384              640    672               64
// CHECK-NEXT:  [1, 1]  all_gather 1, all_reduce 1           384              640    608              608
// CHECK-NEXT:  max     all_gather 1, all_reduce 1           384              640    672              608
// CHECK-NEXT:  total   all_gather 4, all_reduce 4         1,536            2,560  2,560            1,280
// JSON: "pipeline": []

mesh.mesh @mesh(shape = 2x2)

// LIMIT: mesh-analysis.mlir:[[@LINE+1]]:1: error: cannot analyze the program: mesh @mesh of @replicated has 4 devices, more than the limit of 3 (raise max-devices)
func.func @replicated(%x: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
                      %w: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>})
    -> (tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %y) -> (tensor<4x8xf32>) {
    %s = arith.addf %a, %a : tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  }
  %g = mesh.all_gather %r on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
  %i1 = mesh.process_multi_index on @mesh axes = [1] : index
  %first = arith.cmpi eq, %i1, %c0 : index
  %d = scf.if %first -> (tensor<8x8xf32>) {
    %sq = arith.mulf %g, %g : tensor<8x8xf32>
    scf.yield %sq : tensor<8x8xf32>
  } else {
    scf.yield %g : tensor<8x8xf32>
  }
  %h = mesh.all_reduce %d on @mesh mesh_axes = [1] : tensor<8x8xf32> -> tensor<8x8xf32>
  return %h : tensor<8x8xf32>
}

// -----

// 3. What is known only at run time is counted conservatively, with a
// note: here the costlier branch (an add on the piece, an all_gather of
// 3 * 32 bytes, an add on the whole, which devices [1] to [3] repeat).
// CHECK:mesh-analysis: the per-device program as written
// CHECK-NEXT:@branch on @mesh (shape 4, 4 devices)
// FILE: mesh-analysis: the per-device program as written
// FILE-NEXT: @branch on @mesh (shape 4, 4 devices)
// CHECK-NEXT:  device  collectives   received (B)  peak memory (B)  flops  redundant flops
// CHECK-NEXT:  [0]     all_gather 1            96              288     40                0
// CHECK-NEXT:  [1]     all_gather 1            96              288     40               32
// CHECK:  total   all_gather 4           384            1,152    160               96
// CHECK-NEXT:  note: {{.*}}mesh-analysis.mlir:[[@LINE+6]]:8: 'scf.if' on a value known only at run time: the costlier branch is counted

mesh.mesh @mesh(shape = 4)

func.func @branch(%x: tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}, %flag: i1)
    -> (tensor<32xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %y = scf.if %flag -> (tensor<32xf32>) {
    %g = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 0 : tensor<8xf32> -> tensor<32xf32>
    scf.yield %g : tensor<32xf32>
  } else {
    %s = arith.addf %x, %x : tensor<8xf32>
    %g = mesh.all_gather %s on @mesh mesh_axes = [0] gather_axis = 0 : tensor<8xf32> -> tensor<32xf32>
    %t = arith.addf %g, %g : tensor<32xf32>
    scf.yield %t : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}
