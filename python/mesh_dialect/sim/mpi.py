"""Run an SPMD function as one OS process per device, under `mpiexec`.

The simulator runs every device in one process; this backend runs the very
same per-device program (`Runner.device_program`) in one MPI rank per
device, so that what is checked in the simulator is what runs distributed.
Rank r is the device whose row-major linear index is r.

Exactness.  Collectives compute their results with the simulator's own code
(`step.attrs["collective"]`, i.e. `sim.collectives`) applied to the inputs
of the device's group only, gathered on the group's communicator.  So
reductions add in the simulator's order and results equal it bit for bit,
floats included.  Where a result is plain data movement, a direct MPI
collective moves only the data needed (broadcast, scatter, gather,
all_to_all, shift); the simulator's function still checks the arguments, on
zero-stride stand-ins, so errors read as in the simulator.

Errors and deadlocks.  A rank that fails writes one line, prints it to
stderr and calls `MPI_Abort`, which ends every rank.  Every wait polls, and
rank 0 runs a deadlock detector: a rank blocked for a while reports where it
waits; when every rank has reported and the reports admit no progress by
the simulator's rules, rank 0 asks every rank whether it is still at the
same place (a consistent snapshot) and, if so, fails with a message naming
where each device waits, as the simulator does.

Group communicators are made once, at start-up, by `Split` for every
`mesh_axes` tuple a collective of the module uses (color: the group, key:
the in-group index), since `Split` needs every rank.

`run_mpi` is the launcher (it needs no mpi4py itself); the worker entry is
`python -m mesh_dialect.sim.mpi_worker RUN_DIR`.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..sharding.spec import Device, Mesh, MeshError, Sharding
from . import layout
from .interpreter import MAX_DEVICES, PointToPoint, Request, Runner
from .program import Block, Compiler, SimError, Step, is_bf16

# ---------------------------------------------------------------------------
# Errors.


class MpiError(SimError):
    """A multi-process run that failed; the message is meant for the user."""


class MpiUnavailable(MpiError):
    """No MPI to run with (mpi4py or mpiexec missing)."""


def _describe(device: Sequence[int]) -> str:
    return "(" + ", ".join(str(c) for c in device) + ")"


# ---------------------------------------------------------------------------
# The launcher.

WORKER_MODULE = "mesh_dialect.sim.mpi_worker"

TRACEBACK_ENV = "MESH_MPI_TRACEBACK_AFTER"
"""Set to N: every rank prints its Python stack after N seconds (for a run
that hangs, e.g. a rank stuck in a long computation); a timed-out
`run_mpi` then shows what they printed."""

_MPIEXEC_ENV = {
    # Open MPI refuses root and more ranks than cores unless told; MPICH
    # ignores these.
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe",
    # MPICH's hydra: start local ranks by fork, never try ssh.
    "HYDRA_LAUNCHER": "fork",
    # One BLAS thread per rank: the ranks already share the cores.
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
}


def find_mpiexec() -> str | None:
    """`mpiexec` to launch with: $MESH_MPIEXEC, else the one installed
    beside this Python (the `mpich` wheel puts it there), else PATH's."""
    given = os.environ.get("MESH_MPIEXEC")
    if given:
        return given
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("mpiexec")


def mpi_unavailable() -> str | None:
    """Why a multi-process run cannot start here, or None if it can."""
    import importlib.util

    if importlib.util.find_spec("mpi4py") is None:
        return "mpi4py is not installed (pip install 'mesh-dialect[mpi]')"
    if find_mpiexec() is None:
        return "no mpiexec found (pip install 'mesh-dialect[mpi]' installs MPICH's)"
    return None


def run_mpi(
    module_path: str | os.PathLike[str],
    function: str,
    *,
    mesh: str,
    inputs: Sequence[Any],
    arg_shardings: Sequence[Sharding | None] | None = None,
    result_shardings: Sequence[Sharding | None] | None = None,
    np_procs: int | None = None,
    timeout: float | None = None,
    allow_unregistered_dialects: bool = False,
    seed: int | None = 0,
    max_devices: int | None = MAX_DEVICES,
    text: str | None = None,
) -> list[np.ndarray]:
    """Run `function` of the module at `module_path` (or of `text`, when
    given, `module_path` naming it in messages) on mesh `mesh` as
    `np_procs` processes (default: the mesh size) and return the global
    outputs, like `Simulation.run` does in one process.

    `inputs` are global arrays (scalars for scalar arguments); each rank
    takes its shard with `layout.shard`.  Shardings are `Sharding | None`
    per argument / result (None: replicated); left as None they are read
    from the function's `mesh.sharding` argument and result attributes.
    Partial arguments get the random terms `Simulation.run` feeds with the
    same `seed` (None: the fixed decomposition).  A mesh of more than
    `max_devices` devices is refused.  Raises `MpiError` (a `SimError`)
    with the failing rank's message.  SIGTERM, SIGINT or a timeout during
    the run end mpiexec and every process it started.
    """
    problem = mpi_unavailable()
    if problem:
        raise MpiUnavailable(f"cannot run on MPI: {problem}")
    path = os.fspath(module_path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise MpiError(f"could not open input file '{path}': {e.strerror}") from None
    if np_procs is None or arg_shardings is None or result_shardings is None:
        size, sig_args, sig_results = _signature(text, path, function, mesh, allow_unregistered_dialects, max_devices)
        np_procs = size if np_procs is None else np_procs
        arg_shardings = sig_args if arg_shardings is None else arg_shardings
        result_shardings = sig_results if result_shardings is None else result_shardings
    if isinstance(np_procs, bool) or not isinstance(np_procs, int) or np_procs < 1:
        raise MpiError(f"the number of processes must be a positive integer, got {np_procs!r}")
    if max_devices is not None and np_procs > max_devices:
        raise MpiError(
            f"{np_procs} processes are more than the limit of {max_devices} devices; "
            "raise it with --max-devices (max_devices= in Python) to run anyway"
        )
    if len(arg_shardings) != len(inputs):
        raise MpiError(f"{len(inputs)} inputs but {len(arg_shardings)} argument shardings")
    with tempfile.TemporaryDirectory(prefix="mesh-mpi-") as run_dir:
        write_job(
            run_dir,
            text,
            path,
            function,
            mesh=mesh,
            inputs=inputs,
            arg_shardings=arg_shardings,
            result_shardings=result_shardings,
            allow_unregistered_dialects=allow_unregistered_dialects,
            seed=seed,
        )
        command = worker_command(run_dir, np_procs)
        returncode, stderr = _launch(command, timeout, mpi_environment())
        error = _first_error(run_dir)
        if error is not None:
            raise MpiError(error)
        if returncode != 0:
            tail = " | ".join(line for line in stderr.strip().splitlines()[-5:] if line.strip())
            raise MpiError(f"mpiexec exited with status {returncode}" + (f": {tail}" if tail else ""))
        try:
            with open(os.path.join(run_dir, "results.json"), encoding="utf-8") as f:
                count = json.load(f)["results"]
            return [np.load(os.path.join(run_dir, f"result{i}.npy"), allow_pickle=False) for i in range(count)]
        except (OSError, ValueError, KeyError) as e:
            raise MpiError(f"the MPI run wrote no results: {e}") from None


def write_job(
    run_dir: str,
    text: str,
    filename: str,
    function: str,
    *,
    mesh: str,
    inputs: Sequence[Any],
    arg_shardings: Sequence[Sharding | None],
    result_shardings: Sequence[Sharding | None],
    allow_unregistered_dialects: bool = False,
    seed: int | None = 0,
) -> None:
    """Write what the ranks read into `run_dir`: the module's text (so that
    locations in messages read as in the simulator), the global inputs as
    .npy files and the rest as a pickle (`seed` draws partial terms)."""
    for i, x in enumerate(inputs):
        np.save(os.path.join(run_dir, f"input{i}.npy"), np.asarray(x), allow_pickle=False)
    job = {
        "text": text,
        "filename": filename,
        "function": function,
        "mesh": mesh,
        "inputs": len(inputs),
        "arg_shardings": list(arg_shardings),
        "result_shardings": list(result_shardings),
        "allow_unregistered_dialects": allow_unregistered_dialects,
        "seed": seed,
    }
    with open(os.path.join(run_dir, "job.pkl"), "wb") as f:
        pickle.dump(job, f)


def worker_command(run_dir: str, np_procs: int) -> list[str]:
    """The mpiexec command line that runs the job in `run_dir`."""
    mpiexec = find_mpiexec()
    if mpiexec is None:
        raise MpiUnavailable("cannot run on MPI: no mpiexec found")
    return [mpiexec, "-n", str(np_procs), sys.executable, "-m", WORKER_MODULE, run_dir]


def mpi_environment() -> dict[str, str]:
    """The environment to run `worker_command` in: Open MPI's root and
    oversubscription switches, and this package importable."""
    env = dict(os.environ)
    for k, v in _MPIEXEC_ENV.items():
        env.setdefault(k, v)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return env


def _signature(
    text: str, path: str, function: str, mesh: str, allow_unregistered: bool, max_devices: int | None
) -> tuple[int, list[Sharding | None], list[Sharding | None]]:
    """Mesh size and layouts of `function`, read from the module (only
    when the caller did not give them)."""
    from mlir import ir

    from ..ir.asm import parse
    from ..ir.dialect import load_dialect
    from .api import signature

    ctx = ir.Context()
    ctx.enable_multithreading(False)
    ctx.allow_unregistered_dialects = allow_unregistered
    load_dialect(ctx)
    with ctx, ir.Location.unknown(ctx):
        module = parse(text, filename=path, context=ctx)
        runner = Runner(module, mesh=mesh, max_devices=max_devices)
        sig = signature(runner.compiler.function(function))
        assert runner.mesh is not None
        return runner.mesh.size, list(sig.arg_shardings), list(sig.result_shardings)


class _Signalled(BaseException):
    """SIGTERM or SIGHUP arrived while mpiexec ran (not an Exception, so
    that nothing on the way up swallows it)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_FORWARDED = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def _launch(command: list[str], timeout: float | None, env: dict[str, str]) -> tuple[int, str]:
    """Run mpiexec in its own session, so that it, its hydra proxy and the
    ranks form one process group that is ended as a whole on a timeout, an
    error, Ctrl-C (KeyboardInterrupt) or SIGTERM / SIGHUP to this process.
    Those signals do not reach the group by themselves (another session),
    so they are caught for the duration of the run, the group is ended, and
    the signal is delivered again with its previous handler."""
    previous: dict[int, Any] = {}
    caught: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        if not caught:  # a second signal must not interrupt the clean-up of the first
            caught.append(signum)
            raise _Signalled(signum)

    import threading

    if threading.current_thread() is threading.main_thread():
        for sig in _FORWARDED:
            previous[sig] = signal.signal(sig, on_signal)
    proc: subprocess.Popen | None = None
    try:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent(),
        )
        _, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        assert proc is not None
        printed = _end_group(proc)
        message = f"the MPI run did not finish within {timeout:g} s and was stopped"
        if env.get(TRACEBACK_ENV):
            message += "; the ranks printed:\n" + printed
        raise MpiError(message) from None
    except _Signalled as e:
        if proc is not None:
            _end_group(proc)
        _restore(previous)
        previous = {}
        signal.raise_signal(e.signum)  # the previous handler's turn (default: end this process)
        raise MpiError(f"the MPI run was stopped by signal {signal.Signals(e.signum).name}") from None
    except BaseException:
        if proc is not None:
            _end_group(proc)
        raise
    finally:
        _restore(previous)
    return proc.returncode, stderr


def _die_with_parent() -> Callable[[], None] | None:
    """On Linux, a pre-exec hook that has the kernel kill mpiexec when this
    process dies without a chance to clean up (SIGKILL); MPICH's proxy then
    ends the ranks itself."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the call
            os._exit(1)

    return hook


def _restore(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


def _end_group(proc: subprocess.Popen) -> str:
    """Stop mpiexec and its ranks (the process group this launcher made,
    and every descendant: MPICH's ranks start sessions of their own);
    returns what they printed on stderr."""
    tree = _descendants(proc.pid)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        for pid, started in tree.items():
            if _start_time(pid) == started:  # still that process, not a reused pid
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        try:
            return proc.communicate(timeout=2)[1] or ""
        except subprocess.TimeoutExpired:
            continue
    return ""


def _proc_stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def _start_time(pid: int) -> str | None:
    fields = _proc_stat(pid)
    return fields[19] if fields and len(fields) > 19 else None


def _descendants(root: int) -> dict[int, str]:
    """Every process below `root`, with its start time (empty where there
    is no /proc)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for name in entries:
        if name.isdigit():
            fields = _proc_stat(int(name))
            if fields and len(fields) > 1:
                children.setdefault(int(fields[1]), []).append(int(name))
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            started = _start_time(child)
            if started is not None and child not in found:
                found[child] = started
                todo.append(child)
    return found


def _first_error(run_dir: str) -> str | None:
    """The message of the rank that failed first."""
    found = []
    for p in Path(run_dir).glob("error-*.txt"):
        try:
            found.append((p.stat().st_mtime_ns, int(p.stem.split("-")[1]), p.read_text(encoding="utf-8")))
        except (OSError, ValueError, IndexError):
            continue
    return min(found)[2].strip() if found else None


# ---------------------------------------------------------------------------
# Stable names of steps: the same op must be named alike in every rank.


def _walk(block: Block) -> Iterator[Step]:
    for step in block.steps:
        yield step
        for region in step.regions:
            yield from _walk(region)


class _StepIndex:
    """Names every compiled step (function, position in a pre-order walk):
    ids differ between processes, compiled functions do not."""

    def __init__(self, compiler: Compiler):
        self.compiler = compiler
        self._key: dict[int, tuple[str, int]] = {}
        self._step: dict[tuple[str, int], Step] = {}
        for name in compiler.function_names():
            try:
                compiler.function(name)
            except (SimError, ValueError, KeyError, TypeError, IndexError):
                continue  # fails again, with its message, if it is ever run
        self._index()

    def _index(self) -> None:
        for name, fn in list(self.compiler.functions.items()):
            if (name, 0) in self._step or not any(block.steps for block in fn.blocks):
                continue
            for i, step in enumerate(step for block in fn.blocks for step in _walk(block)):
                self._key[id(step)] = (name, i)
                self._step[(name, i)] = step

    def key(self, step: Step) -> tuple[str, int]:
        found = self._key.get(id(step))
        if found is None:
            self._index()
            found = self._key.get(id(step))
        if found is None:
            raise MpiError(f"{step.where}: '{step.name}' is not part of a compiled function")
        return found

    def step(self, key: tuple[str, int]) -> Step | None:
        return self._step.get(tuple(key))

    def axes_used(self) -> list[tuple[int, ...]]:
        """Every mesh_axes tuple of a collective, in a fixed order."""
        found = {tuple(s.attrs["mesh_axes"]) for s in self._step.values() if "collective" in s.attrs}
        return sorted(found, key=lambda a: (len(a), a))


# ---------------------------------------------------------------------------
# The executor: one device per rank.


class _Wait(NamedTuple):
    """Where a rank waits, as the deadlock detector sees it."""

    kind: str  # "collective", "send", "recv" or "done"
    key: tuple[str, int] | None = None
    axes: tuple[int, ...] = ()
    peer: Device | None = None


@dataclass
class _GroupRunner:
    """What a collective of `sim.ops.mesh` reads from its runner: the mesh
    (here the group's own sub-mesh)."""

    mesh: Mesh


_TAG_P2P = 1
_TAG_REPORT, _TAG_PROBE, _TAG_ACK, _TAG_FIN = 11, 12, 13, 14
_HEADER = 2048
REPORT_AFTER = 0.1
"""Seconds a rank waits before telling the deadlock detector where."""

_ABORT_GRACE = 0.3
"""Seconds between printing a rank's error and aborting every rank."""

_DIRECT = frozenset(("mesh.broadcast", "mesh.scatter", "mesh.gather", "mesh.all_to_all", "mesh.shift"))
_KEEP_AXES = ("slice_axis", "split_axis", "scatter_axis", "gather_axis", "concat_axis")


def _bytes(a: np.ndarray) -> np.ndarray:
    """A contiguous array's memory as bytes, for MPI."""
    return a.reshape(-1).view(np.uint8)


def _contiguous(value: Any) -> np.ndarray:
    """`value` as a C-contiguous array of its own shape (0-d stays 0-d,
    unlike np.ascontiguousarray)."""
    a = np.asarray(value)
    return a if a.flags.c_contiguous else a.copy(order="C")


def _pieces(value: np.ndarray, axis: int, n: int) -> np.ndarray:
    """`value` cut into `n` equal pieces along `axis`, stacked (contiguous)."""
    return np.stack(np.split(value, n, axis=axis))


def _standin(shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """An array of any shape that costs one element: for argument checks."""
    return np.broadcast_to(np.zeros((), dtype), tuple(shape))


class Executor:
    """Drives one device's program in this rank, mapping its collectives to
    MPI on the communicator of the device's group."""

    def __init__(self, runner: Runner, comm: Any = None):
        from mpi4py import MPI

        if runner.mesh is None:
            raise MpiError("no mesh given for an MPI run")
        self.MPI = MPI
        self.runner = runner
        self.mesh: Mesh = runner.mesh
        base = comm if comm is not None else MPI.COMM_WORLD
        if base.Get_size() != self.mesh.size:
            raise MpiError(
                f"mesh @{self.mesh.name} has {self.mesh.size} devices but {base.Get_size()} MPI processes run it: "
                f"launch {self.mesh.size} (mpiexec -n {self.mesh.size})"
            )
        self.rank: int = base.Get_rank()
        self.size: int = base.Get_size()
        self.device: Device = self.mesh.multi_index(self.rank)
        self.data = base.Dup()
        self.ctl = base.Dup()
        self.steps = _StepIndex(runner.compiler)
        self.groups: dict[tuple[int, ...], Any] = {}
        for axes in self.steps.axes_used():
            try:
                checked = self.mesh.check_axes(axes)
            except MeshError:
                continue  # the collective reports it when it runs
            outside = [a for a in range(self.mesh.rank) if a not in checked]
            color = 0
            for a in outside:
                color = color * self.mesh.shape[a] + self.device[a]
            self.groups[axes] = self.data.Split(color, self.mesh.in_group_index(self.device, checked))
        self.progress = 0
        self._pending: list[Any] = []
        # Deadlock detector state (rank 0).
        self._latest: dict[int, tuple[int, _Wait]] = {}
        self._round = 0
        self._snapshot: dict[int, int] | None = None
        self._acks: set[int] = set()

    # -- running ---------------------------------------------------------------

    def run(self, function: str, args: Sequence[Any]) -> list[Any]:
        """This device's results of `function`; returns once every rank has
        finished (so no rank leaves while another may still need it)."""
        gen = self.runner.device_program(function, self.device, args)
        reply: Any = None
        while True:
            try:
                request = gen.send(reply)
            except StopIteration as stop:
                results = stop.value
                break
            if isinstance(request, Request):
                reply = self._collective(request)
            elif isinstance(request, PointToPoint):
                reply = self._point_to_point(request)
            else:
                raise MpiError(f"the device program stopped with {request!r}, which is not a communication")
        self._finish()
        return results

    def gather_results(self, results: list[Any]) -> dict[Device, list[Any]] | None:
        """Every device's results on rank 0 (None elsewhere)."""
        everything = self.data.gather(results, root=0)
        if everything is None:
            return None
        return {self.mesh.multi_index(r): list(v) for r, v in enumerate(everything)}

    # -- collectives -----------------------------------------------------------

    def _collective(self, request: Request) -> np.ndarray:
        step = request.step
        axes = tuple(step.attrs["mesh_axes"])
        value = _contiguous(request.value)
        extra = dict(request.extra)
        comm = self.groups.get(axes)
        if comm is None:
            # Axes the mesh does not have: the simulator's check says so.
            step.attrs["collective"](
                _GroupRunner(self.mesh), step, {self.device: Request(step, self.device, value, extra)}
            )
            raise MpiError(f"{step.where}: '{step.name}' has mesh_axes {list(axes)} with no communicator")
        key = self.steps.key(step)
        wait = _Wait("collective", key, axes, None)
        headers = self._exchange_headers(comm, (key, value.shape, value.dtype.str, extra), wait)
        group = self.mesh.group_of(self.device, axes)
        for member, (other, _, _, _) in zip(group, headers):
            if tuple(other) != key:
                theirs = self.steps.step(other)
                where = f"'{theirs.name}' at {theirs.where}" if theirs is not None else str(other)
                raise MpiError(
                    f"deadlock: devices {_describe(self.device)} and {_describe(member)} of one group wait at "
                    f"different collectives: '{step.name}' at {step.where} and {where}"
                )
        sub = Mesh(tuple(n if a in axes else 1 for a, n in enumerate(self.mesh.shape)), self.mesh.name)
        members = [tuple(c if a in axes else 0 for a, c in enumerate(d)) for d in group]
        me = group.index(self.device)
        extras = [h[3] for h in headers]

        def simulate(values: Sequence[np.ndarray]) -> dict[Device, np.ndarray]:
            requests = {m: Request(step, m, v, e) for m, v, e in zip(members, values, extras)}
            return step.attrs["collective"](_GroupRunner(sub), step, requests)

        types = {(tuple(h[1]), h[2]) for h in headers}
        if len(types) > 1:
            simulate([_standin(h[1], np.dtype(h[2])) for h in headers])  # raises the simulator's error
            raise MpiError(f"{step.where}: '{step.name}' devices of one group hold different types")
        if step.name == "mesh.all_slice":
            # No data moves: only the group's agreement above was needed.
            stand = _standin(value.shape, value.dtype)
            return simulate([value if j == me else stand for j in range(len(group))])[members[me]]
        if step.name in _DIRECT and all(e == extras[0] for e in extras):
            return self._direct(step, comm, value, extras[0], members, sub, simulate, wait)
        everything = self._allgather(comm, value, wait)
        return simulate(list(everything))[members[me]]

    def _exchange_headers(self, comm: Any, header: tuple, wait: _Wait) -> list[tuple]:
        """Every member's (step, shape, dtype, extra): checks that the group
        meets at one op before any data moves."""
        raw = pickle.dumps(header)
        if len(raw) > _HEADER - 4:
            raise MpiError(f"the arguments of a collective take {len(raw)} bytes, more than {_HEADER - 4}")
        mine = np.zeros(_HEADER, np.uint8)
        mine[:4] = np.frombuffer(len(raw).to_bytes(4, "little"), np.uint8)
        mine[4 : 4 + len(raw)] = np.frombuffer(raw, np.uint8)
        everyone = np.empty((comm.Get_size(), _HEADER), np.uint8)
        MPI = self.MPI
        req = comm.Iallgather([mine, MPI.BYTE], [everyone, MPI.BYTE])
        self._wait(req.Test, wait)
        out = []
        for row in everyone:
            n = int.from_bytes(row[:4].tobytes(), "little")
            out.append(pickle.loads(row[4 : 4 + n].tobytes()))
        return out

    def _allgather(self, comm: Any, value: np.ndarray, wait: _Wait) -> np.ndarray:
        """The group's inputs, in in-group order, stacked on a new axis 0."""
        out = np.empty((comm.Get_size(), *value.shape), value.dtype)
        MPI = self.MPI
        req = comm.Iallgather([_bytes(value), MPI.BYTE], [_bytes(out), MPI.BYTE])
        self._wait(req.Test, wait)
        return out

    def _direct(
        self,
        step: Step,
        comm: Any,
        value: np.ndarray,
        extra: dict[str, Any],
        members: list[Device],
        sub: Mesh,
        simulate: Callable[[Sequence[np.ndarray]], dict[Device, np.ndarray]],
        wait: _Wait,
    ) -> np.ndarray:
        """Collectives that only move data, with the MPI call that moves
        just what this device needs."""
        MPI = self.MPI
        attrs = step.attrs
        n = len(members)
        me = comm.Get_rank()
        # The simulator's argument checks, on stand-ins that keep only the
        # sizes the checks read.
        small = [s if s == 0 or any(attrs.get(k) == d for k in _KEEP_AXES) else 1 for d, s in enumerate(value.shape)]
        simulate([_standin(small, value.dtype)] * n)
        root = None
        if "root" in extra:
            axes = attrs["mesh_axes"]
            root = sub.in_group_index(sub.device_at(members[me], axes, extra["root"]), axes)
        name = step.name
        if name == "mesh.broadcast":
            out = value.copy() if me == root else np.empty_like(value)
            req = comm.Ibcast([_bytes(out), MPI.BYTE], root=root)
            self._wait(req.Test, wait)
            return out
        if name == "mesh.scatter":
            axis = attrs["scatter_axis"]
            piece = value.shape[axis] // n
            send = None
            if me == root:
                send = _pieces(value, axis, n)
            shape = list(value.shape)
            shape[axis] = piece
            out = np.empty(shape, value.dtype)
            req = comm.Iscatter(None if send is None else [_bytes(send), MPI.BYTE], [_bytes(out), MPI.BYTE], root=root)
            self._wait(req.Test, wait)
            return out
        if name == "mesh.gather":
            axis = attrs["gather_axis"]
            everything = np.empty((n, *value.shape), value.dtype) if me == root else None
            into = None if everything is None else [_bytes(everything), MPI.BYTE]
            req = comm.Igather([_bytes(value), MPI.BYTE], into, root=root)
            self._wait(req.Test, wait)
            if everything is not None:
                return np.concatenate(list(everything), axis=axis)
            shape = list(value.shape)
            shape[axis] *= n
            return layout.poison(shape, value.dtype)
        if name == "mesh.all_to_all":
            split, concat = attrs["split_axis"], attrs["concat_axis"]
            send = _pieces(value, split, n)
            recv = np.empty_like(send)
            req = comm.Ialltoall([_bytes(send), MPI.BYTE], [_bytes(recv), MPI.BYTE])
            self._wait(req.Test, wait)
            return np.concatenate(list(recv), axis=concat)
        if name == "mesh.shift":
            return self._shift(step, comm, value, members, sub, wait)
        raise MpiError(f"{step.where}: '{name}' has no direct MPI form")  # pragma: no cover

    def _shift(
        self, step: Step, comm: Any, value: np.ndarray, members: list[Device], sub: Mesh, wait: _Wait
    ) -> np.ndarray:
        """Send to the device `offset` further along the axis, receive from
        the one `offset` before (wrapping with `rotate`), as numpy.roll."""
        MPI = self.MPI
        attrs = step.attrs
        axes, axis, offset = attrs["mesh_axes"], attrs["shift_axis"], int(attrs["offset"])
        me = comm.Get_rank()
        here = members[me]
        n = sub.shape[axis]
        source, dest = here[axis] - offset, here[axis] + offset
        if attrs["rotate"]:
            source, dest = source % n, dest % n
        requests = []
        out = None
        if 0 <= dest < n:
            peer = here[:axis] + (dest,) + here[axis + 1 :]
            requests.append(comm.Isend([_bytes(value), MPI.BYTE], sub.in_group_index(peer, axes), _TAG_P2P))
        if 0 <= source < n:
            peer = here[:axis] + (source,) + here[axis + 1 :]
            out = np.empty_like(value)
            requests.append(comm.Irecv([_bytes(out), MPI.BYTE], sub.in_group_index(peer, axes), _TAG_P2P))
        self._wait(lambda: MPI.Request.Testall(requests), wait)
        return out if out is not None else layout.poison(value.shape, value.dtype)

    # -- point to point ---------------------------------------------------------

    def _point_to_point(self, p: PointToPoint) -> Any:
        """`mesh.send` waits until its receive takes it (synchronous send),
        as in the simulator; messages between two devices keep their order."""
        MPI = self.MPI
        key = self.steps.key(p.step)
        if p.send:
            assert p.peer is not None
            req = self.data.issend(p.value, dest=self.mesh.linear_index(p.peer), tag=_TAG_P2P)
            self._wait(req.Test, _Wait("send", key, (), tuple(p.peer)))
            return p.value
        source = MPI.ANY_SOURCE if p.peer is None else self.mesh.linear_index(p.peer)
        status = MPI.Status()
        got: list[tuple[Any, int]] = []

        def arrived() -> bool:
            message = self.data.improbe(source=source, tag=_TAG_P2P, status=status)
            if message is None:
                return False
            got.append((message.recv(), status.Get_source()))
            return True

        self._wait(arrived, _Wait("recv", key, (), None if p.peer is None else tuple(p.peer)))
        received, sender = got[0]
        if p.value is not None and np.shape(p.value) != np.shape(received):
            raise MpiError(
                f"{p.step.where}: 'mesh.recv' on device {_describe(self.device)} expects shape "
                f"{np.shape(p.value)} but device {_describe(self.mesh.multi_index(sender))} sends shape "
                f"{np.shape(received)}"
            )
        return np.array(received, copy=True)

    # -- waiting and the deadlock detector --------------------------------------

    def _wait(self, done: Callable[[], bool], where: _Wait) -> None:
        """Poll until `done()`, serving the deadlock detector meanwhile."""
        if done():
            self.progress += 1
            return
        start = time.monotonic()
        reported = False
        polls = 0
        while not done():
            if not reported and time.monotonic() - start >= REPORT_AFTER:
                self._report(where)
                reported = True
            self._serve()
            polls += 1
            time.sleep(0 if polls < 100 else min(1e-3, 1e-5 * (polls - 99)))
        self.progress += 1

    def _report(self, where: _Wait) -> None:
        if self.rank == 0:
            self._note(0, self.progress, where)
        else:
            self._pending.append(self.ctl.isend((self.progress, where), dest=0, tag=_TAG_REPORT))

    def _serve(self) -> None:
        MPI = self.MPI
        if self._pending:
            self._pending = [r for r in self._pending if not r.Test()]
        if self.rank != 0:
            while self.ctl.iprobe(source=0, tag=_TAG_PROBE):
                round_id = self.ctl.recv(source=0, tag=_TAG_PROBE)
                self._pending.append(self.ctl.isend((round_id, self.progress), dest=0, tag=_TAG_ACK))
            return
        # Only these two tags: a rank past the final barrier may already have
        # sent its FIN, which `_finish` must be the one to receive.
        status = MPI.Status()
        for tag in (_TAG_REPORT, _TAG_ACK):
            while True:
                message = self.ctl.improbe(source=MPI.ANY_SOURCE, tag=tag, status=status)
                if message is None:
                    break
                sender, body = status.Get_source(), message.recv()
                if tag == _TAG_REPORT:
                    self._note(sender, *body)
                    continue
                round_id, progress = body
                if self._snapshot is not None and round_id == self._round:
                    if progress == self._snapshot[sender]:
                        self._acks.add(sender)
                    else:
                        self._snapshot = None
                        self._latest.pop(sender, None)
        self._check_deadlock()

    def _note(self, rank: int, progress: int, where: _Wait) -> None:
        self._latest[rank] = (progress, where)
        if self._snapshot is not None and self._snapshot.get(rank) != progress:
            self._snapshot = None

    def _check_deadlock(self) -> None:
        latest = self._latest
        if self._snapshot is not None:
            if self._snapshot[0] != self.progress:
                self._snapshot = None
            elif len(self._acks) == self.size - 1:
                raise MpiError(self._deadlock_message())
            return
        if len(latest) < self.size or latest[0][0] != self.progress or not self._stuck():
            return
        self._round += 1
        self._snapshot = {r: p for r, (p, _) in latest.items()}
        self._acks = set()
        for r in range(1, self.size):
            self._pending.append(self.ctl.isend(self._round, dest=r, tag=_TAG_PROBE))
        if self.size == 1:
            raise MpiError(self._deadlock_message())

    def _stuck(self) -> bool:
        """No device can go on, by the simulator's rules, from the reports."""
        states = {self.mesh.multi_index(r): w for r, (_, w) in self._latest.items()}
        if all(w.kind == "done" for w in states.values()):
            return False
        for d, w in states.items():
            if w.kind == "collective":
                try:
                    group = self.mesh.group_of(d, w.axes)
                except MeshError:
                    continue
                if all(states[m].kind == "collective" and states[m].key == w.key for m in group):
                    return False
            elif w.kind == "send":
                r = states.get(w.peer)
                if r is not None and r.kind == "recv" and r.peer in (None, d):
                    return False
        return True

    def _deadlock_message(self) -> str:
        parts = []
        done = []
        for r in range(self.size):
            w = self._latest[r][1]
            d = self.mesh.multi_index(r)
            if w.kind == "done":
                done.append(f"device {_describe(d)} has returned")
                continue
            step = self.steps.step(w.key) if w.key is not None else None
            what = f"'{step.name}' at {step.where}" if step is not None else w.kind
            if w.peer is not None:
                what += f" ({'to' if w.kind == 'send' else 'from'} device {_describe(w.peer)})"
            parts.append(f"device {_describe(d)} waits at {what}")
        return "deadlock: no device group can complete its collective: " + "; ".join(parts + done)

    def _finish(self) -> None:
        """Wait for every rank (still detecting deadlocks), then settle the
        detector's messages so that none is left in flight."""
        MPI = self.MPI
        req = self.data.Ibarrier()
        self._wait(req.Test, _Wait("done"))
        status = MPI.Status()
        if self.rank == 0:
            for r in range(1, self.size):
                while True:
                    self.ctl.recv(source=r, tag=MPI.ANY_TAG, status=status)
                    if status.Get_tag() == _TAG_FIN:
                        break
            for r in range(1, self.size):
                self._pending.append(self.ctl.isend(None, dest=r, tag=_TAG_FIN))
        else:
            self._pending.append(self.ctl.isend(None, dest=0, tag=_TAG_FIN))
            while True:
                self.ctl.recv(source=0, tag=MPI.ANY_TAG, status=status)
                if status.Get_tag() == _TAG_FIN:
                    break
        MPI.Request.Waitall(self._pending)
        self._pending = []


# ---------------------------------------------------------------------------
# The worker: what each rank runs.


def _local_inputs(
    runner: Runner,
    function: str,
    inputs: list[np.ndarray],
    shardings: Sequence[Sharding | None],
    device: Device,
    seed: int | None = None,
) -> list[Any]:
    """This device's arguments: its shard of every global input (partial
    terms drawn as `Simulation.run` draws them)."""
    from mlir import ir

    from .api import shard_input
    from .program import dtype_of

    fn = runner.compiler.function(function)
    if len(inputs) != len(fn.arg_types):
        raise MpiError(f"@{function} takes {len(fn.arg_types)} arguments, got {len(inputs)} inputs")
    assert runner.mesh is not None
    out: list[Any] = []
    for i, (x, t) in enumerate(zip(inputs, fn.arg_types)):
        dtype = dtype_of(t)
        if not isinstance(t, ir.ShapedType):
            out.append(dtype.type(x))
            continue
        sharding = shardings[i] if i < len(shardings) and shardings[i] is not None else Sharding.replicated()
        try:
            out.append(shard_input(np.asarray(x, dtype=dtype), sharding, runner.mesh, seed, i, bf16=is_bf16(t))[device])
        except ValueError as e:
            raise MpiError(f"argument {i} of @{function}: {e}") from None
    return out


def _global_outputs(
    per_device: dict[Device, list[Any]],
    shardings: Sequence[Sharding | None],
    mesh: Mesh,
    function: str,
    bf16: Sequence[bool] = (),
) -> list[np.ndarray]:
    """The global results; `bf16`: per result, whether its elements are
    bf16 (`layout.assemble`)."""
    first = per_device[mesh.devices()[0]]
    out = []
    for i in range(len(first)):
        sharding = shardings[i] if i < len(shardings) and shardings[i] is not None else Sharding.replicated()
        try:
            locals_ = {d: np.asarray(v[i]) for d, v in per_device.items()}
            out.append(layout.assemble(locals_, sharding, mesh, bf16=i < len(bf16) and bf16[i]))
        except ValueError as e:
            raise MpiError(f"result {i} of @{function}: {e}") from None
    return out


def worker_main(argv: Sequence[str]) -> int:
    debug_after = os.environ.get(TRACEBACK_ENV)
    if debug_after:
        import faulthandler

        faulthandler.dump_traceback_later(float(debug_after))
    """Run one rank of the job in run directory `argv[0]` (written by
    `run_mpi`); rank 0 writes the global results there."""
    if len(argv) != 1:
        sys.stderr.write("usage: mpiexec -n N python -m mesh_dialect.sim.mpi_worker RUN_DIR\n")
        return 2
    run_dir = argv[0]
    try:
        from mpi4py import MPI
    except ImportError as e:
        sys.stderr.write(f"mesh-mpi: error: mpi4py is not available: {e}\n")
        return 1
    world = MPI.COMM_WORLD
    rank = world.Get_rank()
    device: Device | None = None
    try:
        from mlir import ir

        from ..ir.asm import parse
        from ..ir.dialect import load_dialect
        from . import ops as _ops  # noqa: F401 - registers the op handlers

        with open(os.path.join(run_dir, "job.pkl"), "rb") as f:
            job = pickle.load(f)
        ctx = ir.Context()
        ctx.enable_multithreading(False)
        ctx.allow_unregistered_dialects = job["allow_unregistered_dialects"]
        load_dialect(ctx)
        with ctx, ir.Location.unknown(ctx):
            module = parse(job["text"], filename=job["filename"], context=ctx)
            runner = Runner(module, mesh=job["mesh"], max_devices=None)  # the launcher checked
            executor = Executor(runner, world)
            device = executor.device
            inputs = [np.load(os.path.join(run_dir, f"input{i}.npy"), allow_pickle=False) for i in range(job["inputs"])]
            args = _local_inputs(runner, job["function"], inputs, job["arg_shardings"], device, job.get("seed"))
            del inputs
            results = executor.run(job["function"], args)
            per_device = executor.gather_results(results)
            if per_device is not None:
                bf16 = [is_bf16(t) for t in runner.compiler.function(job["function"]).result_types]
                outputs = _global_outputs(per_device, job["result_shardings"], executor.mesh, job["function"], bf16)
                for i, value in enumerate(outputs):
                    np.save(os.path.join(run_dir, f"result{i}.npy"), np.asarray(value), allow_pickle=False)
                with open(os.path.join(run_dir, "results.json"), "w", encoding="utf-8") as f:
                    json.dump({"results": len(outputs)}, f)
        return 0
    except BaseException as e:  # noqa: BLE001 - every failure must end all ranks, never hang them
        _fail(run_dir, rank, device, e)
        time.sleep(_ABORT_GRACE)  # mpiexec forwards stderr asynchronously; Abort ends that too
        world.Abort(1)
        return 1


def _fail(run_dir: str, rank: int, device: Device | None, error: BaseException) -> None:
    """Record and print a rank's failure as one line (no traceback)."""
    if isinstance(error, SimError | ValueError) or type(error).__name__ == "DiagnosticError":
        message = str(error)
    elif isinstance(error, KeyboardInterrupt):
        message = "interrupted"
    else:
        message = f"{type(error).__name__}: {error}"
    if device is not None and not message.startswith("deadlock"):
        message = f"device {_describe(device)}: {message}"  # before that, every rank fails alike
    try:
        tmp = os.path.join(run_dir, f".error-{rank}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(message)
        os.replace(tmp, os.path.join(run_dir, f"error-{rank}.txt"))
    except OSError:
        pass
    line = " | ".join(part for part in message.splitlines() if part.strip())
    sys.stderr.write(f"mesh-mpi: error: {line}\n")
    sys.stderr.flush()
