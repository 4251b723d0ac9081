"""print_ir on IR a builder or a broken pass left invalid: MLIR verifies it
first and prints it generic, as `str(module)` does, instead of taking the
process down (the printer asserts on an op missing what it prints)."""

import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent(
    """
    import mesh_dialect
    from mlir import ir

    ctx = mesh_dialect.context()
    with ctx, ir.Location.unknown():
        m = ir.Module.create()
        with ir.InsertionPoint(m.body):
            ir.Operation.create("arith.constant", results=[ir.IndexType.get()])
        print(mesh_dialect.print_ir(m))
    """
)


def test_an_invalid_op_prints_generic_instead_of_aborting():
    # in a child process: before the fix the printer aborted the interpreter
    run = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip("\n").splitlines() == [
        '"builtin.module"() ({',
        '  %0 = "arith.constant"() : () -> index',
        "}) : () -> ()",
    ]
