"""`mesh-run` at its limits: deep calls and regions, tensors too large to
allocate, and a `--mesh` the module does not define; each either runs or is
a one-line error with exit 1, never an internal error (exit 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

MESH_RUN = os.environ.get("MESH_RUN") or os.path.join(os.path.dirname(sys.executable), "mesh-run")

COUNTDOWN = """\
func.func @f(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> index {
    scf.yield %c0 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %s = func.call @f(%m) : (index) -> index
    %t = arith.addi %s, %c1 : index
    scf.yield %t : index
  }
  return %r : index
}
func.func @main() -> index {
  %n = arith.constant DEPTH : index
  %r = func.call @f(%n) : (index) -> index
  return %r : index
}
"""

FOREVER = """\
func.func @g(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

SPMD = """\
mesh.mesh @m(shape = 2)
mesh.mesh @n(shape = 4)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
"""


LOOP = """\
func.func @f(%x: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> index {
    %b = arith.addi %a, %c1 : index
    scf.yield %b : index
  }
  return %r : index
}
"""


def run(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([MESH_RUN, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)


def nested_regions(depth: int) -> str:
    lines = ["func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {"]
    lines += [f"  %r{i} = scf.execute_region -> tensor<8xf32> {{" for i in range(depth)]
    lines.append("  scf.yield %x : tensor<8xf32>")
    for i in reversed(range(depth)):
        lines += ["  }", f"  scf.yield %r{i} : tensor<8xf32>" if i else "  return %r0 : tensor<8xf32>"]
    return "\n".join(lines) + "\n}\n"


def test_finite_deep_recursion_runs(tmp_path: Path):
    (tmp_path / "deep.mlir").write_text(COUNTDOWN.replace("DEPTH", "300"))
    p = run("deep.mlir", "-f", "main", cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, "result 0: index\n300\n", "")


def test_deeply_nested_regions_run(tmp_path: Path):
    (tmp_path / "nested.mlir").write_text(nested_regions(250))
    p = run("nested.mlir", "-q", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (0, "")


def test_endless_recursion_is_one_line_naming_the_function(tmp_path: Path):
    (tmp_path / "forever.mlir").write_text(FOREVER)
    p = run("forever.mlir", "-f", "g", "-q", cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    assert p.stderr.startswith("mesh-run: error: calls or regions nest deeper than "), p.stderr
    assert p.stderr.endswith(" levels (in @f)\n") and p.stderr.count("\n") == 1, p.stderr


def test_tensor_too_big_to_allocate_is_out_of_memory(tmp_path: Path):
    t = "tensor<4611686018427387904x4xf32>"
    (tmp_path / "huge.mlir").write_text(f"func.func @f(%x: {t}) -> {t} {{\n  return %x : {t}\n}}\n")
    p = run("huge.mlir", "-q", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (1, "mesh-run: error: out of memory (are the tensors or the mesh this large?)\n")


def test_mesh_that_does_not_exist_is_refused(tmp_path: Path):
    (tmp_path / "spmd.mlir").write_text(SPMD)
    p = run("spmd.mlir", "--mesh", "nope", "-q", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (1, "mesh-run: error: no mesh @nope in 'spmd.mlir' (meshes: @m, @n)\n")


def test_mesh_may_be_named_with_its_at_sign(tmp_path: Path):
    (tmp_path / "spmd.mlir").write_text(SPMD)
    for name in ("n", "@n"):
        p = run("spmd.mlir", "--mesh", name, "--spmd", cwd=tmp_path)
        assert (p.returncode, p.stderr) == (0, ""), name
        assert p.stdout.startswith("result 0: tensor<4xf32>\n"), p.stdout


def test_ctrl_c_stops_a_run_in_its_deep_thread(tmp_path: Path):
    """The simulation runs in a thread of its own (for its stack): Ctrl-C,
    which only the main thread sees, must still end it with exit 130 (the
    interpreter aborted when it exited with the thread still running)."""
    (tmp_path / "loop.mlir").write_text(LOOP)
    p = subprocess.Popen(
        [MESH_RUN, "loop.mlir"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)  # well into the loop
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert (p.returncode, out, err) == (130, b"", b"")
