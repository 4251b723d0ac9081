// --list-passes and --help describe every pass, its summary and each
// of its options with its default, and exit 0 without reading any input.
// RUN: mesh-opt --list-passes | FileCheck %s
// RUN: mesh-opt -list-passes < /dev/null | FileCheck %s
// RUN: mesh-opt --list-passes %s.does-not-exist | FileCheck %s
// RUN: mesh-opt --help | FileCheck %s --check-prefixes=HELP,CHECK
// RUN: mesh-opt -help | FileCheck %s --check-prefixes=HELP,CHECK
// RUN: mesh-opt -h | FileCheck %s --check-prefixes=HELP,CHECK

// HELP:      usage: mesh-opt
// HELP:      --pass-pipeline PASS_PIPELINE
// HELP:      --split-input-file
// HELP:      --mlir-print-op-generic
// HELP:      --mlir-print-debuginfo
// HELP:      --mlir-print-ir-after-all
// HELP:      --allow-unregistered-dialect
// HELP:      --list-passes
// CHECK:      passes of mesh-opt (usable as --NAME or inside --pass-pipeline):
// CHECK-NEXT:  --decompose-softmax        Write linalg.softmax as generics, so that it splits along the dimension it normalizes
// CHECK-NEXT:   --export-shardings         Write argument and result layouts as sdy.sharding attributes and meshes as sdy.mesh
// CHECK-NEXT:       strip                remove the annotations and meshes nothing uses [default: true]
// CHECK-NEXT:       python               a remark with jax.make_mesh, in_shardings and out_shardings [default: false]
// CHECK-NEXT:   --import-shardings         Turn JAX's Shardy or GSPMD shardings into mesh.mesh and mesh.shard annotations
// CHECK-NEXT:       open-dims            open dimensions keep their axes (fix) or leave the value to propagation (free) (one of fix, free) [default: fix]
// CHECK-NEXT:       inline               inline private functions, a copy per call [default: true]
// CHECK-NEXT:       factor-axes          cut every Shardy mesh axis into its prime factors, so that layouts needing a sub-axis can be said [default: false]
// CHECK-NEXT:   --mesh-analysis            Report per device the collectives, bytes received, peak memory and flops of a plan
// CHECK-NEXT:       format               report format (one of table, json) [default: table]
// CHECK-NEXT:       output               file to write the report to (default: stderr) [default: ]
// CHECK-NEXT:       max-devices          the most devices a mesh may have [default: 4096]
// CHECK-NEXT:   --mesh-canonicalize        Fold single-device collectives and static mesh queries; CSE and DCE pure mesh ops
// CHECK-NEXT:       fold-collectives     fold single-device and empty collectives, and all_gather-all_slice round trips [default: true]
// CHECK-NEXT:       fold-queries         fold mesh_shape/process index queries [default: true]
// CHECK-NEXT:       cse                  merge identical pure mesh ops in a block [default: true]
// CHECK-NEXT:       dce                  erase unused pure mesh ops [default: true]
// CHECK-NEXT:   --mesh-lower-all-slice     Replace mesh.all_slice by tensor.extract_slice at the device's in-group position
// CHECK-NEXT:   --mesh-lower-process-multi-index Compute mesh.process_multi_index from mesh.process_linear_index and the mesh shape
// CHECK-NEXT:   --mesh-optimize-collectives Merge, fold, reassociate and move collectives of per-device programs
// CHECK-NEXT:       fold-one-device      erase collectives over one-device groups or of no element; fold all_slices undoing all_gathers [default: true]
// CHECK-NEXT:       merge-identical      merge identical collectives of one value in a block [default: true]
// CHECK-NEXT:       fold-all-reduce      fold all_reduce of all_reduce; drop idempotent re-reductions [default: true]
// CHECK-NEXT:       reassociate          op(all_reduce(a), all_reduce(b)) -> all_reduce(op(a, b)) [default: true]
// CHECK-NEXT:       reduce-scatter       all_reduce then all_slice -> reduce_scatter [default: true]
// CHECK-NEXT:       move-gather-down     move all_gathers below elementwise ops when bytes do not grow [default: true]
// CHECK-NEXT:       decompose-all-reduce all_reduce then elementwise work -> reduce_scatter, work, all_gather [default: true]
// CHECK-NEXT:       roll-by-shift        a rotation between the collectives that gather and split its dimension -> mesh.shift [default: true]
// CHECK-NEXT:       pad-by-shift         a pad between the collectives that gather and split its dimension -> mesh.shift [default: true]
// CHECK-NEXT:       flip-by-exchange     a reversal between the collectives that gather and split its dimension -> mirror exchange [default: true]
// CHECK-NEXT:       stencil-by-halo      slices, pads and elementwise ops between the collectives that gather and split their dimension -> mesh.update_halo [default: true]
// CHECK-NEXT:       merge-halos          update_halos of one tensor with different halo sizes -> one with the widest halos, sliced [default: true]
// CHECK-NEXT:       explain              a remark per rewrite with the bytes received before and after [default: false]
// CHECK-NEXT:   --mesh-partition           Turn annotated functions into the program each device runs (SPMD)
// CHECK-NEXT:       full-arguments       arguments arrive whole and each device slices its piece on entry [default: false]
// CHECK-NEXT:       unroll-limit         largest group whose uneven pieces are cut and joined unrolled; larger ones loop (scf.for) [default: 16]
// CHECK-NEXT:   --mesh-spmdization         Turn annotated functions into the program each device runs (SPMD)
// CHECK-NEXT:       full-arguments       arguments arrive whole and each device slices its piece on entry [default: false]
// CHECK-NEXT:       unroll-limit         largest group whose uneven pieces are cut and joined unrolled; larger ones loop (scf.for) [default: 16]
// CHECK-NEXT:   --mesh-verify              Check the semantic rules of the mesh dialect
// CHECK-NEXT:   --prepare-windows          Rewrite convolutions and poolings so that they split with halos
// CHECK-NEXT:       narrow-slices        make a convolution read only through a slice compute the kept outputs only [default: true]
// CHECK-NEXT:       pads-past-reshapes   move a tensor.pad after the tensor.expand_shape reading it [default: true]
// CHECK-NEXT:       pad-uneven           run an hlo window op on its input padded to equal pieces where annotations cut it unevenly [default: true]
// CHECK-NEXT:   --sharding-propagation     Complete sharding annotations from the ops' sharding rules
// CHECK-NEXT:       solver               how loop shardings are chosen: cost (fewest bytes moved over the whole function) or sweep (upstream's op-by-op search, for parity) (one of cost, sweep) [default: cost]
// CHECK-NEXT:       traversal            order of the sweeps over each function (solver=sweep) (one of forward, backward, forward-backward, backward-forward) [default: backward-forward]
// CHECK-NEXT:       fixed-point          repeat the sweeps until nothing changes (solver=sweep) [default: true]
// CHECK-NEXT:       explain              emit a remark at each reshard point naming its causes [default: false]
// CHECK-NEXT:       skip-unknown         treat ops with no sharding rule as barriers instead of failing [default: false]
// CHECK-NEXT:   --test-mesh-resharding     Test pass: turn pairs of mesh.shard ops into the resharding collectives
// CHECK-NEXT: pipelines (usable as --NAME or inside --pass-pipeline; an option goes to the first pass that has it):
// CHECK-NEXT:   --mesh-spmd-pipeline       An annotated program to one SPMD program per device: prepare-windows, decompose-softmax, sharding-propagation, mesh-partition, mesh-optimize-collectives, mesh-canonicalize
// CHECK-NEXT: upstream MLIR passes (canonicalize, cse, symbol-dce, ...) are accepted the same way.
