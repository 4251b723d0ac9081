"""The MPI backend: the SPMD program run as one process per device under
mpiexec must give the simulator's results bit for bit (floats included,
since collectives reduce in the simulator's order), and a failure in any
rank must end the whole run with one clean message.

Each test launches real processes on loopback (about 1.5 s each)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import mesh_dialect
from mesh_dialect.sharding.spec import Mesh, Sharding
from mesh_dialect.sim import layout
from mesh_dialect.sim import ops as _ops  # noqa: F401 - registers the op handlers
from mesh_dialect.sim.interpreter import Runner
from mesh_dialect.sim.mpi import (
    MpiError,
    _descendants,
    _proc_stat,
    mpi_environment,
    mpi_unavailable,
    run_mpi,
    worker_command,
    write_job,
)

_REASON = mpi_unavailable()
if _REASON:
    pytest.skip(f"no MPI here: {_REASON}", allow_module_level=True)

TIMEOUT = 20  # seconds; a hang fails the test instead of the CI run

GRID = Sharding(((0,), (1,)))
"""Cuts a rank-2 value over both mesh axes: assembling results with it lays
every device's own result side by side, so nothing is lost or compared away."""

MESH = Mesh((2, 2), "mesh0")

COLLECTIVES = """\
mesh.mesh @mesh0(shape = 2x2)

func.func @colls(%x: tensor<4x4xf32>, %y: tensor<4x4xi32>) -> (
    tensor<4x8xf32>, tensor<4x2xi32>, tensor<2x8xi32>, tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xf64>,
    tensor<2x4xi32>, tensor<4x4xf32>, tensor<16x4xi32>, tensor<4x2xf32>, tensor<4x4xi32>, tensor<4x4xf32>,
    tensor<6x4xf32>, tensor<4x4xi32>, tensor<2x4xf32>) {
  %ag = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
  %as = mesh.all_slice %y on @mesh0 mesh_axes = [0] slice_axis = 1 : tensor<4x4xi32> -> tensor<4x2xi32>
  %aa = mesh.all_to_all %y on @mesh0 mesh_axes = [1] split_axis = 0 concat_axis = 1
      : tensor<4x4xi32> -> tensor<2x8xi32>
  %rs = mesh.all_reduce %x on @mesh0 mesh_axes = [0, 1] : tensor<4x4xf32> -> tensor<4x4xf32>
  %ri = mesh.all_reduce %y on @mesh0 mesh_axes = [1, 0] reduction = <max> : tensor<4x4xi32> -> tensor<4x4xi32>
  %rd = mesh.reduce %x on @mesh0 mesh_axes = [1] reduction = <sum> root = [1] : (tensor<4x4xf32>) -> tensor<4x4xf64>
  %sc = mesh.reduce_scatter %y on @mesh0 mesh_axes = [0] scatter_axis = 0 : tensor<4x4xi32> -> tensor<2x4xi32>
  %bc = mesh.broadcast %x on @mesh0 mesh_axes = [0] root = [1] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %ga = mesh.gather %y on @mesh0 mesh_axes = [0, 1] gather_axis = 0 root = [1, 0]
      : (tensor<4x4xi32>) -> tensor<16x4xi32>
  %st = mesh.scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 1 root = [0] : (tensor<4x4xf32>) -> tensor<4x2xf32>
  %sh = mesh.shift %y on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<4x4xi32> -> tensor<4x4xi32>
  %sr = mesh.shift %x on @mesh0 mesh_axes = [0, 1] shift_axis = 0 offset = 1 rotate
      : tensor<4x4xf32> -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %uh = mesh.update_halo %x into %e on @mesh0 split_axes = [[0]] destination_halo_sizes = [1, 1]
      : tensor<4x4xf32> -> tensor<6x4xf32>
  // Point to point along axis 1: position 0 sends then receives from 1;
  // position 1 receives from anyone, then sends back.
  %i = mesh.process_multi_index on @mesh0 axes = [1] : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %i, %c0 : index
  %pp = scf.if %first -> tensor<4x4xi32> {
    %s = mesh.send %y on @mesh0 mesh_axes = [1] destination = [1] : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %g = mesh.recv %y on @mesh0 mesh_axes = [1] source = [1] : (tensor<4x4xi32>) -> tensor<4x4xi32>
    scf.yield %g : tensor<4x4xi32>
  } else {
    %g = mesh.recv %y on @mesh0 mesh_axes = [1] : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %s = mesh.send %sh on @mesh0 mesh_axes = [1] destination = [0] : (tensor<4x4xi32>) -> tensor<4x4xi32>
    scf.yield %g : tensor<4x4xi32>
  }
  // Collectives after the paths rejoin, on a dynamic root.
  %one = arith.constant 1 : index
  %rt = mesh.reduce_scatter %rs on @mesh0 mesh_axes = [0] scatter_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
  %root = mesh.broadcast %rt on @mesh0 mesh_axes = [1] root = [%one] : (tensor<2x4xf32>, index) -> tensor<2x4xf32>
  return %ag, %as, %aa, %rs, %ri, %rd, %sc, %bc, %ga, %st, %sh, %sr, %uh, %pp, %root
      : tensor<4x8xf32>, tensor<4x2xi32>, tensor<2x8xi32>, tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xf64>,
        tensor<2x4xi32>, tensor<4x4xf32>, tensor<16x4xi32>, tensor<4x2xf32>, tensor<4x4xi32>, tensor<4x4xf32>,
        tensor<6x4xf32>, tensor<4x4xi32>, tensor<2x4xf32>
}
"""

# A 2-layer MLP, hand-partitioned: data parallel over mesh axis 0 (batch
# rows), tensor parallel over axis 1 (W1 by columns, W2 by rows, one
# all_reduce), next to its global version.
MLP = """\
mesh.mesh @mesh0(shape = 2x2)

func.func @mlp(%x: tensor<2x6xT>, %w1: tensor<6x4xT>, %b1: tensor<2x4xT>, %w2: tensor<4x4xT>, %b2: tensor<2x4xT>)
    -> tensor<2x4xT> {
  %z = arith.constant dense<ZERO> : tensor<2x4xT>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<2x6xT>, tensor<6x4xT>) outs(%z : tensor<2x4xT>) -> tensor<2x4xT>
  %h1 = ADD %h0, %b1 : tensor<2x4xT>
  %h = MAX %h1, %z : tensor<2x4xT>
  %p = linalg.matmul ins(%h, %w2 : tensor<2x4xT>, tensor<4x4xT>) outs(%z : tensor<2x4xT>) -> tensor<2x4xT>
  %y0 = mesh.all_reduce %p on @mesh0 mesh_axes = [1] : tensor<2x4xT> -> tensor<2x4xT>
  %y = ADD %y0, %b2 : tensor<2x4xT>
  return %y : tensor<2x4xT>
}

func.func @mlp_global(%x: tensor<4x6xT>, %w1: tensor<6x8xT>, %b1: tensor<4x8xT>, %w2: tensor<8x4xT>,
    %b2: tensor<4x4xT>) -> tensor<4x4xT> {
  %z8 = arith.constant dense<ZERO> : tensor<4x8xT>
  %z4 = arith.constant dense<ZERO> : tensor<4x4xT>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<4x6xT>, tensor<6x8xT>) outs(%z8 : tensor<4x8xT>) -> tensor<4x8xT>
  %h1 = ADD %h0, %b1 : tensor<4x8xT>
  %h = MAX %h1, %z8 : tensor<4x8xT>
  %y0 = linalg.matmul ins(%h, %w2 : tensor<4x8xT>, tensor<8x4xT>) outs(%z4 : tensor<4x4xT>) -> tensor<4x4xT>
  %y = ADD %y0, %b2 : tensor<4x4xT>
  return %y : tensor<4x4xT>
}
"""

MLP_ARGS = [Sharding(((0,),)), Sharding(((), (1,))), Sharding(((0,), (1,))), Sharding(((1,),)), Sharding(((0,),))]
MLP_RESULT = [Sharding(((0,),))]

ERRORS = """\
mesh.mesh @mesh0(shape = 2x2)

// Device 0 skips the all_reduce its group waits at.
func.func @deadlock(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @mesh0 : index
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %is0 -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    %s = mesh.all_reduce %x on @mesh0 mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Device (1, 0) sends 2 elements where device (1, 1) expects 3; row 0 is fine.
func.func @bad_recv(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %i = mesh.process_multi_index on @mesh0 axes = [1] : index
  %k = mesh.process_linear_index on @mesh0 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %first = arith.cmpi eq, %i, %c0 : index
  %bad = arith.cmpi eq, %k, %c2 : index
  %r = scf.if %first -> tensor<3xf32> {
    scf.if %bad {
      %s = mesh.send %x on @mesh0 mesh_axes = [1] destination = [1] : (tensor<2xf32>) -> tensor<2xf32>
    } else {
      %s = mesh.send %y on @mesh0 mesh_axes = [1] destination = [1] : (tensor<3xf32>) -> tensor<3xf32>
    }
    scf.yield %y : tensor<3xf32>
  } else {
    %g = mesh.recv %y on @mesh0 mesh_axes = [1] source = [0] : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %g : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
"""


def _position(text: str, needle: str) -> str:
    """LINE:COL of the first `needle` in `text`, as locations print."""
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return f"{n}:{line.index(needle) + 1}"
    raise AssertionError(needle)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _simulate(path: Path, function: str, inputs, arg_shardings, result_shardings) -> list[np.ndarray]:
    """The simulator's global outputs, assembled as `run_mpi` assembles."""
    ctx = mesh_dialect.context()
    with ctx:
        module = mesh_dialect.parse(path.read_text(), filename=str(path), context=ctx)
        runner = Runner(module, mesh="mesh0")
        mesh = runner.mesh
        assert mesh is not None
        pieces = [layout.shard(x, s or Sharding.replicated(), mesh) for x, s in zip(inputs, arg_shardings)]
        outs = runner.run_spmd(function, {d: [p[d] for p in pieces] for d in mesh.devices()})
    return [
        layout.assemble({d: np.asarray(outs[d][i]) for d in outs}, s or Sharding.replicated(), mesh)
        for i, s in enumerate(result_shardings)
    ]


def _run_global(path: Path, function: str, inputs) -> list[np.ndarray]:
    ctx = mesh_dialect.context()
    with ctx:
        module = mesh_dialect.parse(path.read_text(), filename=str(path), context=ctx)
        return Runner(module).run_global(function, inputs)


def _assert_identical(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    """Same dtype, shape and bytes: bit for bit, NaN (poison) included."""
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        assert g.tobytes() == w.tobytes(), f"result {i} differs:\n{g}\n{w}"


def test_every_collective_matches_the_simulator(tmp_path: Path) -> None:
    path = _write(tmp_path, "colls.mlir", COLLECTIVES)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((8, 8)).astype(np.float32) * np.float32(1e3)  # sums that depend on their order
    y = rng.integers(-1000, 1000, (8, 8)).astype(np.int32)
    results = [GRID] * 15
    got = run_mpi(
        path,
        "colls",
        mesh="mesh0",
        inputs=[x, y],
        arg_shardings=[GRID, GRID],
        result_shardings=results,
        np_procs=4,
        timeout=TIMEOUT,
    )
    want = _simulate(path, "colls", [x, y], [GRID, GRID], results)
    _assert_identical(got, want)
    # The run did real work: the all_gather of device (0, 0) holds both x blocks of its row.
    np.testing.assert_array_equal(got[0][:4, :8], x[:4])


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_partitioned_mlp_matches_its_global_version(tmp_path: Path, dtype) -> None:
    words = {"xT": "xi32", "ZERO": "0", "ADD": "arith.addi", "MAX": "arith.maxsi"}
    if dtype == np.float32:
        words = {"xT": "xf32", "ZERO": "0.0", "ADD": "arith.addf", "MAX": "arith.maximumf"}
    text = MLP
    for word, replacement in words.items():
        text = text.replace(word, replacement)
    path = _write(tmp_path, "mlp.mlir", text)
    rng = np.random.default_rng(1)
    shapes = [(4, 6), (6, 8), (4, 8), (8, 4), (4, 4)]
    if dtype == np.int32:
        inputs = [rng.integers(-5, 6, s).astype(dtype) for s in shapes]
    else:
        inputs = [rng.standard_normal(s).astype(dtype) for s in shapes]
    got = run_mpi(
        path,
        "mlp",
        mesh="mesh0",
        inputs=inputs,
        arg_shardings=MLP_ARGS,
        result_shardings=MLP_RESULT,
        np_procs=4,
        timeout=TIMEOUT,
    )
    _assert_identical(got, _simulate(path, "mlp", inputs, MLP_ARGS, MLP_RESULT))
    (want,) = _run_global(path, "mlp_global", inputs)
    if dtype == np.int32:
        np.testing.assert_array_equal(got[0], want)
    else:  # the partitioned sum adds in another order than the global matmul
        np.testing.assert_allclose(got[0], want, rtol=1e-5, atol=1e-5)


def test_deadlock_ends_every_rank_with_one_message(tmp_path: Path) -> None:
    path = _write(tmp_path, "errors.mlir", ERRORS)
    with pytest.raises(MpiError) as info:
        run_mpi(path, "deadlock", mesh="mesh0", inputs=[np.ones(4, np.float32)], np_procs=4, timeout=TIMEOUT)
    message = str(info.value)
    assert message.startswith("deadlock: no device group can complete its collective"), message
    assert "\n" not in message
    where = _position(ERRORS, "mesh.all_reduce")
    assert f"device (0, 1) waits at 'mesh.all_reduce' at {path}:{where}" in message
    assert "device (0, 0) has returned" in message


def test_error_in_one_rank_is_one_line_without_traceback(tmp_path: Path) -> None:
    """Run the ranks as a user would (mpiexec on the worker) and read stderr."""
    path = _write(tmp_path, "errors.mlir", ERRORS)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    inputs = [np.ones(2, np.float32), np.zeros(3, np.float32)]
    write_job(
        str(run_dir),
        path.read_text(),
        str(path),
        "bad_recv",
        mesh="mesh0",
        inputs=inputs,
        arg_shardings=[None, None],
        result_shardings=[None],
    )
    proc = subprocess.run(
        worker_command(str(run_dir), 4),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=mpi_environment(),
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    expected = (
        f"device (1, 1): {path}:{_position(ERRORS, 'mesh.recv')}: 'mesh.recv' on device (1, 1) expects shape (3,) "
        "but device (1, 0) sends shape (2,)"
    )
    assert f"mesh-mpi: error: {expected}" in proc.stderr.splitlines(), proc.stderr
    # The launcher raises the same line.
    with pytest.raises(MpiError) as info:
        run_mpi(path, "bad_recv", mesh="mesh0", inputs=inputs, np_procs=4, timeout=TIMEOUT)
    assert str(info.value) == expected


def test_process_count_must_match_the_mesh(tmp_path: Path) -> None:
    path = _write(tmp_path, "errors.mlir", ERRORS)
    with pytest.raises(MpiError, match=r"mesh @mesh0 has 4 devices but 2 MPI processes run it"):
        run_mpi(path, "deadlock", mesh="mesh0", inputs=[np.ones(4, np.float32)], np_procs=2, timeout=TIMEOUT)


# -- no orphans ------------------------------------------------------------------

LOOP = """\
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<1xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>})
    -> (tensor<1xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<1xi32>) {
    scf.yield %a : tensor<1xi32>
  }
  return %r : tensor<1xi32>
}
"""

MESH_RUN = os.environ.get("MESH_RUN") or os.path.join(os.path.dirname(sys.executable), "mesh-run")


def _alive(pid: int, started: str) -> bool:
    """Still running (not a zombie, not a new process with the old pid)."""
    fields = _proc_stat(pid)
    return fields is not None and fields[19] == started and fields[0] != "Z"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc to find the processes")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_mpi_run_leaves_no_process(tmp_path: Path, signum: int) -> None:
    _write(tmp_path, "loop.mlir", LOOP)
    proc = subprocess.Popen(
        [MESH_RUN, "loop.mlir", "--mpi", "2"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # (a shell's background job ignores SIGINT, and so would its children: Ctrl-C reaches a foreground run)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60  # a bound, not a measurement: start-up takes about 2 s
        while True:
            tree = _descendants(proc.pid)
            ranks = [p for p in tree if _cmdline(p).split()[1:3] == ["-m", "mesh_dialect.sim.mpi_worker"]]
            if len(ranks) == 2:
                break
            assert proc.poll() is None and time.monotonic() < deadline, "the ranks never started"
            time.sleep(0.05)
        time.sleep(0.5)  # the ranks are in their loop
        tree = _descendants(proc.pid)  # mpiexec, its hydra proxy and the two ranks
        assert len(tree) >= 3
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:  # the test failed: clean up what it started
            for pid in _descendants(proc.pid):
                os.kill(pid, signal.SIGKILL)
            proc.kill()
            proc.wait()
    assert proc.returncode == {signal.SIGTERM: -signal.SIGTERM, signal.SIGINT: 130, signal.SIGKILL: -9}[signum]
    assert b"Traceback" not in stderr
    # After SIGKILL the kernel ends mpiexec and its proxy then ends the
    # ranks, after mesh-run is gone: wait for that (bounded).
    deadline = time.monotonic() + 30
    while any(_alive(pid, started) for pid, started in tree.items()) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = {pid: _cmdline(pid) for pid, started in tree.items() if _alive(pid, started)}
    for pid in left:  # do not leave them running when the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == {}


PARTIAL_TERMS = """\
mesh.mesh @m(shape = 2x2)
func.func @f(%x: tensor<4x3xf32> {mesh.sharding = #mesh.sharding<@m, [[0]], partial = sum [1]>})
    -> (tensor<4x3xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %0 = mesh.broadcast %x on @m mesh_axes = [1] root = [1] : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
"""


def test_partial_arguments_get_the_simulators_random_terms(tmp_path: Path) -> None:
    """Each rank draws the same terms as the simulator for the same seed:
    the second device's term, broadcast, is equal in both and is not x."""
    from mesh_dialect.sim.api import Simulation

    path = _write(tmp_path, "terms.mlir", PARTIAL_TERMS)
    x = np.arange(24, dtype=np.float32).reshape(8, 3)
    module = mesh_dialect.parse(PARTIAL_TERMS, context=mesh_dialect.context())
    for seed in (0, 3):
        want = Simulation(module).run("f", [x], seed=seed)[0]
        got = run_mpi(path, "f", mesh="m", inputs=[x], seed=seed, timeout=TIMEOUT)[0]
        np.testing.assert_array_equal(got, want)
        assert not np.array_equal(got, x)


def test_a_partial_bf16_result_is_put_together_as_the_simulator_does(tmp_path: Path) -> None:
    """Terms 1.0 and 3 * 2**-8 add up to a tie between two bf16s: both
    runners round the sum to even, as an all_reduce would."""
    from test_sim_bf16 import PARTIAL_RESULT

    path = _write(tmp_path, "bf16.mlir", PARTIAL_RESULT)
    got = run_mpi(path, "f", mesh="mesh", inputs=[np.array([1.0], np.float32)], timeout=TIMEOUT)[0]
    assert got.tolist() == [1.015625]


# -- mesh-run --mpi takes the simulator's checks and inputs ------------------------

SPLIT_ID = """\
mesh.mesh @m(shape = 2)
func.func @id(%x: tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>})
    -> (tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  return %x : tensor<2x3xi32>
}
"""


def _mesh_run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([MESH_RUN, *args], input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def test_mpi_run_checks_each_devices_piece_against_the_argument(tmp_path: Path) -> None:
    # a 6x5 input cuts into 3x5 pieces where the argument is 2x3: the
    # simulator refused it, --mpi ran it and printed a 6x5 "result"
    path = _write(tmp_path, "id.mlir", SPLIT_ID)
    npy = tmp_path / "x.npy"
    np.save(npy, np.arange(30, dtype=np.int32).reshape(6, 5))
    out = _mesh_run(str(path), "-i", str(npy), "--mpi", "2")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "input 0 of @id has shape [3, 5] on device (0,)" in out.stderr
    assert out.stdout == ""


def test_mpi_run_refuses_global_and_reads_stdin(tmp_path: Path) -> None:
    path = _write(tmp_path, "id.mlir", SPLIT_ID)
    out = _mesh_run(str(path), "--global", "--mpi", "2")
    assert out.returncode == 1 and "--mpi runs every device of the mesh" in out.stderr
    # the program on stdin: read once, handed to the ranks (they opened '-')
    from_stdin = _mesh_run("-", "--mpi", "2", "--seed", "4", stdin=SPLIT_ID)
    simulated = _mesh_run(str(path), "--seed", "4")
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert from_stdin.stdout == simulated.stdout and "result 0" in simulated.stdout


BRANCH_FIRST = """\
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<2x3xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> tensor<4x3xf32> {
  cf.br ^bb1(%x : tensor<2x3xf32>)
^bb1(%y: tensor<2x3xf32>):
  %g = mesh.all_gather %y on @m mesh_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}
"""


def test_collectives_after_a_branch_get_their_communicators(tmp_path: Path) -> None:
    """A function whose entry block only branches: the collectives of its
    other blocks are indexed too (they had no communicator)."""
    from mesh_dialect.sim.api import Simulation

    path = _write(tmp_path, "branch.mlir", BRANCH_FIRST)
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    want = Simulation(mesh_dialect.parse(BRANCH_FIRST, context=mesh_dialect.context())).run("f", [x])[0]
    got = run_mpi(path, "f", mesh="m", inputs=[x], timeout=TIMEOUT)[0]
    _assert_identical([got], [want])
    np.testing.assert_array_equal(got, x)
