"""Running a compiled function: on one device, or on every device of a mesh.

On the mesh, each device runs the program as a generator that stops at every
collective with a `Request`. The scheduler lets every device run until it
waits; a device group whose members all wait at the same collective goes
ahead; when no group can, the run is deadlocked and the error names where
each device waits. So devices may take different paths (an `scf.if` on the
process index) and still meet at their collectives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from mlir import ir

from ..sharding.spec import MAX_LISTED_DEVICES, Mesh
from .program import Compiler, Frame, SimError, Step, run_function

Device = tuple[int, ...]


@dataclass
class Request:
    """A device waiting at a collective."""

    step: Step
    device: Device
    value: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class PointToPoint:
    """A device waiting at `mesh.send` (peer = destination) or `mesh.recv`
    (peer = source, None for any)."""

    step: Step
    device: Device
    send: bool
    peer: Device | None
    value: Any = None


def check_device_count(mesh: str, shape: Sequence[int], max_devices: int | None) -> None:
    """Refuse a mesh of more than `max_devices` devices (None: no limit)."""
    count = 1
    for size in shape:
        count *= int(size)
    dims = "x".join(str(s) for s in shape)
    if count > MAX_LISTED_DEVICES:
        raise SimError(
            f"mesh @{mesh} ({dims}) has {count} devices; the simulator runs every device and stops at "
            f"{MAX_LISTED_DEVICES}, whatever --max-devices says"
        )
    if max_devices is not None and count > max_devices:
        raise SimError(
            f"mesh @{mesh} ({dims}) has {count} devices, more than the limit of {max_devices}; "
            "raise it with --max-devices (max_devices= in Python) to run it anyway"
        )


def _describe(device: Device) -> str:
    return "(" + ", ".join(str(c) for c in device) + ")"


MAX_DEVICES = 4096
"""How many devices an SPMD run may have unless the caller raises the limit
(`max_devices`, `mesh-run --max-devices`): every device is a generator
with its own copies of the data, so a 1000x1000 mesh takes minutes and
gigabytes."""


class Runner:
    """Runs functions of a module; `mesh` is None for the global program."""

    def __init__(self, module: ir.Operation, *, mesh: str | None = None, max_devices: int | None = MAX_DEVICES):
        self.compiler = Compiler(module)
        self.mesh_name = mesh
        self.mesh: Mesh | None = None
        if mesh is not None:
            self.compiler.check_unambiguous(mesh, "mesh")
            shape = self.compiler.meshes.get(mesh)
            if shape is None:
                raise SimError(f"no mesh @{mesh} in the module")
            if any(s is None for s in shape):
                raise SimError(f"mesh @{mesh} has dynamic sizes; the simulator needs static ones")
            check_device_count(mesh, shape, max_devices)
            self.mesh = Mesh(tuple(shape), mesh)

    @staticmethod
    def default_mesh(module: ir.Operation) -> str | None:
        """The module's only mesh, if it has exactly one."""
        meshes = Compiler(module).meshes
        return next(iter(meshes)) if len(meshes) == 1 else None

    # -- one device ----------------------------------------------------------

    def run_global(self, function: str, args: Sequence[Any]) -> list[Any]:
        """The unpartitioned program: shardings are identities; collectives
        and process queries are errors."""
        fn = self.compiler.function(function)
        self._check_arity(fn, args)
        frame = Frame([None] * fn.slots, None, self)
        gen = run_function(frame, fn, list(args))
        try:
            request = next(gen)
        except StopIteration as stop:
            return stop.value
        raise SimError(
            f"{request.step.where}: '{request.step.name}' is a collective: run the function on a mesh "
            "(SPMD mode) to execute it"
        )

    # -- every device ----------------------------------------------------------

    def device_program(self, function: str, device: Device, args: Sequence[Any]):
        """One device's run as a generator: it yields a `Request` or a
        `PointToPoint` at every collective, must be sent that device's
        result, and returns the function's results. `run_spmd` drives all of
        them; the MPI backend drives one per process."""
        if self.mesh is None:
            raise SimError("no mesh given for an SPMD run")
        fn = self.compiler.function(function)
        self._check_arity(fn, args)
        return run_function(Frame([None] * fn.slots, tuple(device), self), fn, list(args))

    def run_spmd(
        self,
        function: str,
        args: dict[Device, Sequence[Any]],
        on_progress: Callable[[int, int, int], None] | None = None,
    ) -> dict[Device, list[Any]]:
        """Run `function` on every device of the mesh with its own arguments.
        `on_progress(exchanges, finished, devices)` is told after each round
        how many collectives (one per group) and point-to-point transfers
        have completed, and how many devices have returned."""
        if self.mesh is None:
            raise SimError("no mesh given for an SPMD run")
        devices = list(self.mesh.devices())
        gens = {d: self.device_program(function, d, args[d]) for d in devices}
        reply: dict[Device, Any] = {d: None for d in devices}
        waiting: dict[Device, Request | PointToPoint] = {}
        done: dict[Device, list[Any]] = {}
        exchanges = 0
        while len(done) < len(devices):
            for d in devices:
                if d in done or d in waiting:
                    continue
                try:
                    waiting[d] = gens[d].send(reply.pop(d, None))
                except StopIteration as stop:
                    done[d] = stop.value
            if not waiting:
                break
            ran = self._run_collectives(waiting, reply) + self._run_point_to_point(waiting, reply)
            if not ran:
                raise SimError(self._deadlock(waiting, done))
            exchanges += ran
            if on_progress is not None:
                on_progress(exchanges, len(done), len(devices))
        if on_progress is not None:
            on_progress(exchanges, len(done), len(devices))
        return done

    def _run_collectives(self, waiting: dict, reply: dict) -> int:
        """Run every collective whose groups have all arrived; how many groups ran."""
        by_step: dict[int, list[Request]] = {}
        for r in waiting.values():
            if isinstance(r, Request):
                by_step.setdefault(id(r.step), []).append(r)
        ran = 0
        for requests in by_step.values():
            step = requests[0].step
            axes = step.attrs["mesh_axes"]
            here = {r.device: r for r in requests}
            ready = [g for g in self.mesh.groups(axes) if all(d in here for d in g)]
            if not ready:
                continue
            members = [d for g in ready for d in g]
            outs = step.attrs["collective"](self, step, {d: here[d] for d in members})
            for d in members:
                reply[d] = outs[d]
                del waiting[d]
            ran += len(ready)
        return ran

    def _run_point_to_point(self, waiting: dict, reply: dict) -> int:
        """Pair every waiting send with its receive; how many transfers ran."""
        progressed = 0
        sends = [r for r in waiting.values() if isinstance(r, PointToPoint) and r.send]
        for s in sends:
            recv = waiting.get(s.peer)
            if not isinstance(recv, PointToPoint) or recv.send or recv.peer not in (None, s.device):
                continue
            if recv.value is not None and np.shape(recv.value) != np.shape(s.value):
                raise SimError(
                    f"{recv.step.where}: 'mesh.recv' on device {_describe(recv.device)} expects shape "
                    f"{np.shape(recv.value)} but device {_describe(s.device)} sends shape {np.shape(s.value)}"
                )
            reply[s.device] = s.value
            reply[recv.device] = np.array(s.value, copy=True)
            del waiting[s.device], waiting[recv.device]
            progressed += 1
        return progressed

    def _deadlock(self, waiting: dict, done: dict) -> str:
        lines = ["deadlock: no device group can complete its collective"]
        for d, r in sorted(waiting.items()):
            what = f"'{r.step.name}' at {r.step.where}"
            if isinstance(r, PointToPoint) and r.peer is not None:
                what += f" ({'to' if r.send else 'from'} device {_describe(r.peer)})"
            lines.append(f"  device {_describe(d)} waits at {what}")
        for d in sorted(done):
            lines.append(f"  device {_describe(d)} has returned")
        return "\n".join(lines)

    @staticmethod
    def _check_arity(fn, args) -> None:
        if len(args) != len(fn.arg_types):
            raise SimError(f"@{fn.name} takes {len(fn.arg_types)} arguments, got {len(args)}")
