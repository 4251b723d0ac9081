// A stray token after the comments at the top of a file is reported where
// it is (MLIR reports it where the module the parser wraps around the file
// opens).
// RUN: not mesh-opt %s 2>&1 | FileCheck %s -DFILE=%s
// CHECK: [[FILE]]:[[# @LINE + 2]]:1: error: expected operation name in quotes

(oops)
mesh.mesh @m(shape = 2)
