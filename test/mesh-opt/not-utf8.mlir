// Input that is not UTF-8 is refused at its first invalid byte, as a located
// error with the line quoted (the bad byte shown as U+FFFD), exit 1 and no
// output.  The column counts the characters before the byte on its line, as
// this project's other diagnostics do.

// A byte 0xff in a comment on line 3, after a two-byte character.
// RUN: printf 'func.func @f() {\n  return\n  // caf\303\251 \377 here\n}\n' > %t.mlir
// RUN: not mesh-opt %t.mlir -o %t.out 2>&1 | FileCheck %s -DFILE=%t.mlir
// RUN: not test -e %t.out
// CHECK:      [[FILE]]:3:11: error: input must be UTF-8 text: invalid start byte 0xff (byte 37 of the input)
// CHECK-NEXT: {{^}}  // café � here
// CHECK-NEXT: {{^}}          ^
// CHECK-NOT:  {{.}}

// From stdin, on the first line, and with CRLF and CR line ends as the parser
// reads them; a character cut short by the end of the input.
// RUN: printf '\377' | not mesh-opt 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:1:1: error: input must be UTF-8 text: invalid start byte 0xff (byte 0 of the input)
// RUN: printf 'a\r\nb\rc\303' | not mesh-opt - 2>&1 | FileCheck %s --check-prefix=ENDS
// ENDS: <stdin>:3:2: error: input must be UTF-8 text: unexpected end of data 0xc3 (byte 6 of the input)

// --split-input-file and --verify-diagnostics read the file the same way.
// RUN: not mesh-opt %t.mlir --split-input-file --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=SPLIT -DFILE=%t.mlir
// SPLIT: [[FILE]]:3:11: error: input must be UTF-8 text
