"""`mesh-opt`, `mesh-run` and `mesh-viz` started with a standard stream
closed or full: each a one-line error (or a quiet exit 1) and the exit code
of the run, never an internal error (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
TOOLS = ["mesh-opt", "mesh-run", "mesh-viz"]

GOOD = """\
mesh.mesh @m(shape = 2x2)
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<4x8xf32>
  %1 = mesh.shard %0 to %s annotate_for_users : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""
BAD = GOOD.replace("[[0]]", "[[5]]")


def start(tool: str, *args: str, cwd: Path, closed: int | None = None, **kw) -> subprocess.CompletedProcess:
    """`tool args`, with descriptor `closed` closed in the child."""
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(
        [str(BIN / tool), *args],
        cwd=cwd,
        timeout=120,
        preexec_fn=None if closed is None else (lambda: os.close(closed)),
        **kw,
    )


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "good.mlir").write_text(GOOD)
    (tmp_path / "bad.mlir").write_text(BAD)
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        ["mesh-opt", "--version"],
        ["mesh-opt", "--list-passes"],
        ["mesh-opt", "--help"],
        ["mesh-run", "good.mlir"],
        ["mesh-run", "--help"],
        ["mesh-viz", "good.mlir"],
    ],
)
def test_closed_stdout_is_a_quiet_exit_1(files: Path, argv: list[str]):
    p = start(*argv, cwd=files, closed=1, stdout=None)
    assert (p.returncode, p.stderr.decode()) == (1, "")


@pytest.mark.parametrize(
    "argv",
    [
        ["mesh-opt", "--version"],
        ["mesh-opt", "--list-passes"],
        ["mesh-opt", "--help"],
        ["mesh-opt", "good.mlir"],
        ["mesh-run", "good.mlir"],
        ["mesh-viz", "good.mlir"],
        ["mesh-viz", "--help"],
    ],
)
def test_full_stdout_is_one_line_and_exit_1(files: Path, argv: list[str]):
    with open("/dev/full", "wb") as full:
        p = start(*argv, cwd=files, stdout=full)
    assert (p.returncode, p.stderr.decode()) == (1, f"{argv[0]}: cannot write output: No space left on device\n")


@pytest.mark.parametrize("argv", [["mesh-opt"], ["mesh-opt", "-"], ["mesh-run", "-"], ["mesh-viz"], ["mesh-viz", "-"]])
def test_closed_stdin_is_one_line_and_exit_1(files: Path, argv: list[str]):
    p = start(*argv, cwd=files, closed=0, stdin=None)
    message = f"{argv[0]}: error: cannot read standard input: Bad file descriptor\n"
    assert (p.returncode, p.stdout.decode(), p.stderr.decode()) == (1, "", message)


@pytest.mark.parametrize("tool", TOOLS)
def test_closed_stderr_keeps_the_exit_code(files: Path, tool: str):
    """The diagnostic has nowhere to go; the exit code is still the run's,
    and nothing lands on stdout (the internal error was printed there)."""
    p = start(tool, "bad.mlir", cwd=files, closed=2, stderr=None)
    assert (p.returncode, p.stdout.decode()) == (1, "")
    assert start(tool, "good.mlir", cwd=files, closed=2, stderr=None).returncode == 0
