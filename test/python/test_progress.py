"""Progress of mesh-opt and mesh-run: drawn on stderr only when it is a
terminal (a pseudo-terminal here), erased when done, never with
`--no-progress`, `TERM=dumb`, a pipe or without rich, and never changing
stdout, exit codes or diagnostics. `MESH_PROGRESS_DELAY` replaces the 2 s
delay, so no test depends on how long a run takes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mesh_dialect.driver.opt import OptDriver, OptOptions, Progress
from mesh_dialect.driver.pipeline import parse_pipeline

ROOT = Path(__file__).resolve().parents[2]
MLP = ROOT / "test" / "Sim" / "mlp-spmd.mlir"
MLP_GLOBAL = ROOT / "test" / "Sim" / "Inputs" / "mlp-global.mlir"

SMALL = """\
mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}
"""
BAD = "mesh.mesh @m(shape = 2x4)\nfunc.func @f() {\n  %0 = mesh.all_gather\n}\n"

OPT = [sys.executable, "-m", "mesh_dialect.tools.mesh_opt"]
RUN = [sys.executable, "-m", "mesh_dialect.tools.mesh_run"]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(TERM="xterm-256color", COLUMNS="200", MESH_PROGRESS_DELAY="0")
    env.update(extra)
    return env


def in_terminal(cmd: list[str], env: dict[str, str], typed: str | None = None) -> tuple[int, bytes, str]:
    """Run `cmd` with stderr on a pseudo-terminal and stdout on a pipe:
    (exit code, stdout, what the terminal received, newlines as "\\n").
    With `typed`, stdin is the terminal too and `typed` is typed into it,
    then end-of-file (Ctrl-D)."""
    master, slave = os.openpty()
    try:
        stdin = slave if typed is not None else subprocess.DEVNULL
        p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=slave, env=env)
    finally:
        os.close(slave)
    if typed is not None:
        os.write(master, typed.encode() + b"\x04")
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
    reader.start()
    received = bytearray()
    try:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not data:
                break
            received += data
    finally:
        os.close(master)
    reader.join(timeout=120)
    code = p.wait(timeout=120)
    return code, out[0], received.decode("utf-8", "replace").replace("\r\n", "\n")


def piped(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=120)


needs_rich = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("rich") is None, reason="rich is not installed"
)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.mlir"
    path.write_text(SMALL)
    return path


# -- drawn on a terminal --------------------------------------------------------


@needs_rich
def test_mesh_opt_shows_each_phase_and_pass_then_erases(small: Path):
    cmd = [*OPT, str(small), "--pass-pipeline=builtin.module(mesh-canonicalize, cse)"]
    code, out, term = in_terminal(cmd, environment())
    plain = piped(cmd, environment())
    assert code == plain.returncode == 0
    assert out == plain.stdout and plain.stderr == b""
    for phase in (f"reading {small}", f"parsing {small}", "pass 1/2: mesh-canonicalize", "pass 2/2: cse", "printing"):
        assert phase in term, phase
    assert term.startswith("\x1b[?25l")  # the cursor is hidden while drawing ...
    assert term.endswith("\x1b[2K")  # ... and the last line drawn is erased at the end
    assert "\x1b[?25h" in term


@needs_rich
def test_mesh_opt_diagnostics_reach_the_terminal_unchanged(tmp_path: Path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    cmd = [*OPT, str(bad)]
    code, out, term = in_terminal(cmd, environment())
    plain = piped(cmd, environment())
    assert code == plain.returncode == 1
    assert out == plain.stdout
    diagnostics = plain.stderr.decode()
    assert diagnostics.startswith(f"{bad}:4:1: error: ")
    # The display is erased before they are written, so they arrive whole;
    # whatever is drawn after them is erased at the end.
    assert diagnostics in term
    assert term.endswith("\x1b[2K")


@needs_rich
def test_mesh_opt_split_input_counts_chunks(small: Path, tmp_path: Path):
    split = tmp_path / "split.mlir"
    split.write_text(SMALL + "// -----\n" + SMALL)
    code, _, term = in_terminal([*OPT, str(split), "--split-input-file", "--mesh-canonicalize"], environment())
    assert code == 0
    assert "chunk 1/2: pass 1/1: mesh-canonicalize" in term and "chunk 2/2: parsing" in term


@needs_rich
def test_mesh_opt_output_file_is_the_same(small: Path, tmp_path: Path):
    shown, quiet = tmp_path / "shown.mlir", tmp_path / "quiet.mlir"
    code, out, term = in_terminal([*OPT, str(small), "--mesh-canonicalize", "-o", str(shown)], environment())
    assert code == 0 and out == b""
    assert f"writing {shown}" in term
    assert piped([*OPT, str(small), "--mesh-canonicalize", "-o", str(quiet)], environment()).returncode == 0
    assert shown.read_bytes() == quiet.read_bytes()


@needs_rich
def test_mesh_run_shows_the_devices_it_simulates():
    cmd = [*RUN, str(MLP), "--compare-with", str(MLP_GLOBAL)]
    code, out, term = in_terminal(cmd, environment())
    plain = piped(cmd, environment())
    assert code == plain.returncode == 0
    assert out == plain.stdout and plain.stderr == b""
    assert out.decode().endswith("match\n")
    for phase in (
        f"parsing {MLP}",
        "simulating @mlp on 4 devices of mesh @mesh (2x2)",
        # one all_reduce over axis 1 of a 2x2 mesh: two groups
        "simulating @mlp on 4 devices of mesh @mesh (2x2): 2 collectives done, 4/4 devices finished",
        "simulating the reference @mlp on one device",
        "comparing with the reference",
    ):
        assert phase in term, phase
    assert term.endswith("\x1b[2K")


@needs_rich
def test_no_color_draws_without_colours(small: Path):
    code, _, term = in_terminal([*OPT, str(small), "--mesh-canonicalize"], environment(NO_COLOR="1"))
    assert code == 0
    assert "pass 1/1: mesh-canonicalize" in term
    assert "\x1b[3" not in term  # no foreground colour codes


# -- never drawn -------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["mesh-opt", "mesh-run"])
def test_no_progress_flag(tool: str, small: Path):
    cmd = [*OPT, str(small), "--mesh-canonicalize"] if tool == "mesh-opt" else [*RUN, str(MLP), "-q"]
    code, out, term = in_terminal([*cmd, "--no-progress"], environment())
    assert code == 0 and out == piped(cmd, environment()).stdout
    assert term == ""


def test_not_while_the_input_is_typed_on_the_terminal():
    code, out, term = in_terminal([*OPT, "--mesh-canonicalize"], environment(), typed=SMALL)
    assert code == 0 and b"mesh.shard" in out
    assert "\x1b[" not in term  # only the echo of what was typed


def test_dumb_terminal(small: Path):
    code, _, term = in_terminal([*OPT, str(small), "--mesh-canonicalize"], environment(TERM="dumb"))
    assert code == 0 and term == ""


def test_before_the_delay_nothing_is_drawn(small: Path):
    code, _, term = in_terminal([*OPT, str(small), "--mesh-canonicalize"], environment(MESH_PROGRESS_DELAY="3600"))
    assert code == 0 and term == ""


def test_without_rich_runs_silently(small: Path):
    # An import of rich fails as if it were not installed.
    script = (
        "import sys; sys.modules['rich'] = None\n"
        "from mesh_dialect.tools.mesh_opt import main\n"
        f"sys.exit(main([{str(small)!r}, '--mesh-canonicalize']))"
    )
    code, out, term = in_terminal([sys.executable, "-c", script], environment())
    assert code == 0 and b"mesh.shard" in out
    assert term == ""


@pytest.mark.parametrize("tool", ["mesh-opt", "mesh-run"])
def test_stderr_not_a_terminal(tool: str, small: Path, tmp_path: Path):
    cmd = [*OPT, str(small), "--mesh-canonicalize"] if tool == "mesh-opt" else [*RUN, str(MLP), "-q"]
    p = piped(cmd, environment(FORCE_COLOR="1", TTY_COMPATIBLE="1"))  # rich's overrides do not force it
    assert p.returncode == 0 and p.stderr == b""


# -- what the driver reports -----------------------------------------------------


class Recorder(Progress):
    wants_passes = True

    def __init__(self) -> None:
        self.events: list[tuple[str, object]] = []

    def phase(self, text: str) -> None:
        self.events.append(("phase", text))

    def steps(self, total: int) -> None:
        self.events.append(("steps", total))

    def advance(self, steps: int = 1) -> None:
        self.events.append(("advance", steps))


@pytest.mark.parametrize("print_ir_after_all", [False, True])
def test_driver_reports_every_pass_and_prints_the_same(small: Path, print_ir_after_all: bool):
    def run(progress: Progress | None) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        options = OptOptions(
            input=str(small),
            elements=parse_pipeline("mesh-canonicalize, canonicalize"),
            print_ir_after_all=print_ir_after_all,
        )
        code = OptDriver(options, stdout=out, stderr=err, progress=progress).run()
        return code, out.getvalue(), err.getvalue()

    recorder = Recorder()
    assert run(recorder) == run(None)
    assert recorder.events == [
        ("phase", f"reading {small}"),
        ("steps", 4),
        ("phase", f"parsing {small}"),
        ("advance", 1),
        ("phase", "pass 1/2: mesh-canonicalize"),
        ("advance", 1),
        ("phase", "pass 2/2: canonicalize"),
        ("advance", 1),
        ("phase", "printing"),
        ("advance", 1),
        ("phase", "writing stdout"),
    ]


def test_simulator_counts_collectives_and_finished_devices():
    """`Simulation.run`'s progress callback: exchanges completed (one per
    group of a collective) and devices returned, ending with all of them."""
    import numpy as np

    from mesh_dialect.sim.api import Simulation

    text = """
mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = mesh.all_reduce %x on @m mesh_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
  %g = mesh.all_gather %r on @m mesh_axes = [0] gather_axis = 0 : tensor<8x16xf32> -> tensor<16x16xf32>
  %s = mesh.all_slice %g on @m mesh_axes = [0] slice_axis = 0 : tensor<16x16xf32> -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}
"""
    from mlir import ir

    import mesh_dialect

    ctx = mesh_dialect.context()
    with ctx, ir.Location.unknown():
        sim = Simulation(mesh_dialect.parse(text, context=ctx), mesh="m")
        calls: list[tuple[int, int, int]] = []
        x = np.ones((8, 16), np.float32)  # no layout: every device gets it whole
        sim.run("f", [x], spmd=True, on_progress=lambda *a: calls.append(a))
    # the all_reduce runs in 2 groups of 4, the all_gather and the all_slice
    # in 4 groups of 2 each; the last call has every device back
    assert calls[-1] == (10, 8, 8)
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)
    assert all(c[1] == 0 for c in calls[:-1])
