"""The driver behind `mesh-run`: run a function of a module on global inputs
(one device, or every device of its mesh), print or save the outputs, and
compare them with a reference program."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np
from mlir import ir

from ..files import write_all
from ..ir import diagnostics as diag
from ..ir.asm import parse
from ..ir.dialect import load_dialect
from ..ir.schema import COLLECTIVES
from ..sim.interpreter import MAX_DEVICES
from .opt import Progress, cannot_read, decoded_input, read_input

TOLERANCE_DOC = """\
Floats match when |got - ref| <= atol + rtol * |ref| at every element, NaN
matching NaN. By default rtol = n * eps and atol = n * eps * scale, where
eps is the largest machine epsilon of the result's type and of the floats
either function computes in (an f32 result widened from f16 sums carries
f16's rounding), n the reduction length
(the longest tensor dimension of either function, at least 2) and
scale the largest magnitude among the reference result and the float
inputs: summing n terms in another order (as a partitioned program does)
moves a result by up to about n * eps times the magnitude of its terms.
n * eps is capped at 1/16 (f16 summed over a thousand terms would make it
1: any result would match). --rtol / --atol replace either default.
Integers must be equal."""

MAX_RELATIVE = 1 / 16
"""The largest default relative tolerance (TOLERANCE_DOC)."""


@dataclass
class RunOptions:
    input: str
    function: str | None = None
    inputs: list[str] = field(default_factory=list)
    seed: int = 0
    mesh: str | None = None
    spmd: bool | None = None
    save_dir: str | None = None
    quiet: bool = False
    compare_with: str | None = None
    ref_function: str | None = None
    rtol: float | None = None  # None: the default of `float_tolerance`
    atol: float | None = None
    mpi: int | None = None
    allow_unregistered_dialect: bool = False
    max_devices: int | None = MAX_DEVICES


class RunError(Exception):
    """A failure already worded for the user."""


class RunDriver:
    def __init__(
        self,
        options: RunOptions,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        progress: Progress | None = None,
    ):
        self.o = options
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.progress = progress or Progress()
        self.stdin_text: str | None = None
        self.function: str | None = None  # the function being simulated
        # the modules read and their texts, for an error found in them after parsing
        self.modules: list[ir.Operation] = []
        self.sources: dict[str, str] = {}

    def run(self) -> int:
        from ..sim.program import SimError

        try:
            with diag.refusing_non_utf8(self.modules, "the simulator", self.sources):
                return self._run()
        except RunError as e:
            self.stderr.write(f"mesh-run: {e}\n")
        except SimError as e:
            self.stderr.write(_sim_error(e))
        except diag.DiagnosticError as e:
            self.stderr.write(str(e) + "\n")
        except MemoryError:
            self.stderr.write("mesh-run: error: out of memory (are the tensors or the mesh this large?)\n")
        except RecursionError as e:
            self.stderr.write(f"mesh-run: error: {_too_deep(e, self.function)}\n")
        return 1

    # ------------------------------------------------------------------

    def _load(self, path: str, ctx: ir.Context) -> ir.Operation:
        self.progress.phase(f"reading {'stdin' if path == '-' else path}")
        try:
            data = read_input(path)
        except OSError as e:
            raise RunError(cannot_read(path, e)) from None
        path = "<stdin>" if path == "-" else path
        text = decoded_input(data, path)
        if path == "<stdin>":
            self.stdin_text = text  # read once: an --mpi run hands it to the ranks
        if isinstance(text, bytes):
            raise RunError(f"input file '{path}' is MLIR bytecode: mesh-run reads text (mesh-opt prints it)")
        self.progress.phase(f"parsing {path}")
        module = parse(text, filename=path, context=ctx)
        self.modules.append(module)
        self.sources[path] = text
        return module

    def _mesh(self, module: ir.Operation) -> str | None:
        """--mesh, without its `@`: a mesh of the module."""
        from ..sim.program import Compiler

        if self.o.mesh is None:
            return None
        name = self.o.mesh.removeprefix("@")
        meshes = Compiler(module).meshes
        if name not in meshes:
            known = ", ".join("@" + n for n in meshes) or "none"
            path = "<stdin>" if self.o.input == "-" else self.o.input
            raise RunError(f"error: no mesh @{name} in '{path}' (meshes: {known})")
        return name

    @staticmethod
    def _pick(sim, requested: str | None, path: str) -> str:
        names = sim.function_names()
        if requested is not None:
            requested = requested.removeprefix("@")  # (as --mesh and mesh-viz -f take it)
            if requested not in names:
                known = ", ".join("@" + n for n in names) or "none"
                raise RunError(f"no function @{requested} in '{path}' (functions: {known})")
            return requested
        if not names:
            raise RunError(f"'{path}' has no function to run")
        if len(names) != 1:
            known = ", ".join("@" + n for n in names)
            raise RunError(f"'{path}' has {len(names)} functions ({known}); choose one with --function")
        return names[0]

    def _inputs(self, sim, sig, spmd: bool) -> list[np.ndarray]:
        from ..sharding.spec import Mesh
        from ..sim.api import random_inputs

        if self.o.inputs:
            if len(self.o.inputs) != len(sig.arg_types):
                raise RunError(f"@{sig.name} takes {len(sig.arg_types)} inputs, got {len(self.o.inputs)} .npy files")
            out = []
            for path in self.o.inputs:
                try:
                    out.append(np.load(path, allow_pickle=False))
                except (OSError, ValueError, EOFError) as e:  # (an empty file: EOFError)
                    raise RunError(f"cannot read input '{path}': {e}") from None
            return out
        mesh = None
        name = sim.mesh_for(sig)
        if spmd:
            if name is None:
                raise RunError(f"@{sig.name} has no layout; name its mesh with --mesh")
            mesh = Mesh(sim.runner(name).mesh.shape, name)
        try:
            return random_inputs(sig, mesh, self.o.seed)
        except ValueError as e:
            if "too big" in str(e):  # numpy's refusal to allocate more than it can address
                raise MemoryError(str(e)) from None
            raise RunError(f"error: cannot make random inputs for @{sig.name}: {e}") from None

    def _run(self) -> int:
        from ..sim.api import Simulation

        ctx = ir.Context()
        ctx.enable_multithreading(False)  # diagnostics reach Python only from this thread
        ctx.allow_unregistered_dialects = self.o.allow_unregistered_dialect
        load_dialect(ctx)
        with ctx, ir.Location.unknown(ctx):
            module = self._load(self.o.input, ctx)
            sim = Simulation(module, mesh=self._mesh(module), max_devices=self.o.max_devices)
            function = self.function = self._pick(sim, self.o.function, self.o.input)
            sig = sim.signature(function)
            spmd = sig.spmd if self.o.spmd is None else self.o.spmd
            written_per_device = False
            if self.o.spmd is None and not spmd and (on := _per_device_mesh(module, function, sim.mesh_for(sig))):
                # A program written partly per device, without layouts, runs
                # on every device of its mesh, and its results may differ
                # between devices.
                sim = Simulation(module, mesh=on, max_devices=self.o.max_devices)
                spmd = written_per_device = True
            self.progress.phase("preparing the inputs")
            inputs = self._inputs(sim, sig, spmd)
            if self.o.mpi is not None and self.o.spmd is False:
                raise RunError("--mpi runs every device of the mesh: it cannot be combined with --global")
            reference = ref = None
            if self.o.compare_with is not None:
                ref = self._reference(ctx, sim, sig, function)
            # A reference written partly per device may return a value that
            # differs between devices: the program may too (`_compare`).
            program_per_device: set[int] | None = set() if written_per_device or (ref is not None and ref[3]) else None
            if self.o.mpi is not None:
                self.progress.phase(f"running @{function} as {self.o.mpi} MPI processes")
                outputs = self._run_mpi(sim, sig, inputs)
            else:
                where = f"simulating @{function} {_where(sim, sig, spmd)}"
                self.progress.phase(where)
                outputs = sim.run(
                    function,
                    inputs,
                    spmd=spmd,
                    seed=self.o.seed,
                    on_progress=self._counting(where),
                    per_device=program_per_device,
                )
            if ref is not None:
                ref_module, ref_sim, ref_fn, ref_spmd = ref
                self.function = ref_fn
                ref_sig = ref_sim.signature(ref_fn)
                self.progress.phase(f"simulating the reference @{ref_fn} {_where(ref_sim, ref_sig, ref_spmd)}")
                # A per-device reference runs on its mesh, from the same global inputs.
                ref_per_device: set[int] | None = set() if ref_spmd else None
                reference = ref_sim.run(ref_fn, inputs, spmd=ref_spmd, seed=self.o.seed, per_device=ref_per_device)
                if len(reference) != len(outputs):
                    raise RunError(
                        f"@{function} returns {len(outputs)} results but the reference @{ref_fn} returns "
                        f"{len(reference)}"
                    )
                (n_ref, eps_ref), (n_got, eps_got) = _extents(ref_module, ref_fn), _extents(module, function)
                length, program_eps = max(n_ref, n_got), max(eps_ref, eps_got)
                mesh = sim.runner(sim.mesh_for(sig)).mesh if spmd and sim.mesh_for(sig) else None
                layouts = (mesh, sig.result_shardings) if mesh is not None else None
                differing = (program_per_device or set(), ref_per_device or set())
        self.progress.phase("printing the results")
        self._report(outputs, sig, program_per_device or set())
        if self.o.save_dir is not None:
            self.progress.phase(f"saving the results in {self.o.save_dir}")
        self._save(outputs)
        if reference is None:
            return 0
        self.progress.phase("comparing with the reference")
        return self._compare(outputs, reference, length, inputs, layouts, program_eps, differing)

    def _reference(self, ctx, sim, sig, function: str):
        """(module, simulation, function, whether it runs on every device)
        of the reference of --compare-with."""
        from ..sim.api import Simulation

        ref_module = self._load(self.o.compare_with, ctx)
        ref_sim = Simulation(ref_module)
        ref_fn = self._pick(ref_sim, self.o.ref_function or function, self.o.compare_with)
        ref_spmd = ref_sim.signature(ref_fn).spmd
        if not ref_spmd and (on := _per_device_mesh(ref_module, ref_fn, sim.mesh_for(sig))) is not None:
            # A reference written partly per device (collectives between
            # whole values) runs on every device of the program's mesh: each
            # holds the whole inputs.
            ref_sim, ref_spmd = Simulation(ref_module, mesh=on, max_devices=self.o.max_devices), True
        return ref_module, ref_sim, ref_fn, ref_spmd

    def _counting(self, where: str):
        """The simulator's progress callback: the phase with the collectives
        done and the devices finished so far, redrawn at most ten times a
        second (a run may complete thousands of collectives)."""
        last = [0.0]

        def report(exchanges: int, finished: int, devices: int) -> None:
            now = time.monotonic()
            if now - last[0] < 0.1 and finished < devices:
                return
            last[0] = now
            self.progress.phase(
                f"{where}: {exchanges:,} collective{'s' if exchanges != 1 else ''} done, "
                f"{finished}/{devices} devices finished"
            )

        return report

    def _run_mpi(self, sim, sig, inputs):
        try:
            from ..sim import mpi
        except ImportError as e:
            raise RunError(f"--mpi needs the MPI extra (pip install '.[mpi]'): {e}") from None
        name = sim.mesh_for(sig)
        if name is None:
            raise RunError(f"@{sig.name} has no layout; name its mesh with --mesh")
        sim.runner(name)  # the mesh exists, is static and within --max-devices
        # The simulator's checks of the inputs, before any process starts:
        # kinds of number, and each device's piece against the argument type.
        inputs = sim.checked_inputs(sig.name, inputs, spmd=True)
        sim.device_inputs(sig.name, inputs, seed=self.o.seed)
        return mpi.run_mpi(
            "<stdin>" if self.o.input == "-" else self.o.input,
            sig.name,
            mesh=name,
            inputs=inputs,
            arg_shardings=sig.arg_shardings,
            result_shardings=sig.result_shardings,
            np_procs=self.o.mpi,
            seed=self.o.seed,
            max_devices=self.o.max_devices,
            allow_unregistered_dialects=self.o.allow_unregistered_dialect,
            text=self.stdin_text if self.o.input == "-" else None,
        )

    def _report(self, outputs, sig, per_device: set[int]) -> None:
        if self.o.quiet:
            return
        for i, (value, t) in enumerate(zip(outputs, sig.result_types)):
            value = np.asarray(value)
            text = np.array2string(value, threshold=64, max_line_width=100)
            label = str(t)
            if i in per_device:
                label = f"{t} on each device, differing between devices (indexed by device first)"
            elif isinstance(t, ir.ShapedType) and tuple(ir.ShapedType(t).shape) != value.shape:
                # An SPMD result: its type is one device's piece; print the whole.
                dims = "x".join(map(str, value.shape))
                label = f"tensor<{dims}x{ir.ShapedType(t).element_type}> (each device: {t})"
            self.stdout.write(f"result {i}: {label}\n{text}\n")

    def _save(self, outputs) -> None:
        if self.o.save_dir is None:
            return
        try:
            os.makedirs(self.o.save_dir, exist_ok=True)
            # all or nothing: no file of a failed save is left half written
            write_all(
                [
                    (os.path.join(self.o.save_dir, f"result{i}.npy"), _npy_writer(np.asarray(value)))
                    for i, value in enumerate(outputs)
                ]
            )
        except OSError as e:
            raise RunError(f"cannot save the results in '{self.o.save_dir}': {e.strerror or e}") from None

    def _compare(
        self,
        outputs,
        reference,
        length: int,
        inputs,
        layouts,
        program_eps: float = 0.0,
        differing: tuple[set[int], set[int]] = (set(), set()),
    ) -> int:
        """Each result against the reference's. A result that differs between
        devices (`Simulation.run`'s `per_device`) is compared device by
        device, and only with one that differs in the reference too."""
        ok = True
        input_scale = _largest_float(inputs)
        for i, (got, want) in enumerate(zip(outputs, reference)):
            got, want = np.asarray(got), np.asarray(want)
            if (i in differing[0]) != (i in differing[1]):
                which = ("the program", "the reference") if i in differing[0] else ("the reference", "the program")
                self.stdout.write(f"result {i}: differs between devices in {which[0]}, not in {which[1]}\n")
                ok = False
                continue
            # (a result indexed by device first: no layout names its holders)
            holders = None if i in differing[0] else layouts
            if got.shape != want.shape:
                self.stdout.write(f"result {i}: shape {list(got.shape)} but the reference has {list(want.shape)}\n")
                ok = False
                continue
            if got.dtype.kind in "iub" and want.dtype.kind in "iub":
                diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
                bad = diff != 0
                tol = None
            else:
                rtol, atol = float_tolerance(got, want, length, input_scale, self.o.rtol, self.o.atol, program_eps)
                g, w = got.astype(np.complex128 if "c" in (got.dtype.kind + want.dtype.kind) else np.float64), want
                w = w.astype(g.dtype)
                with np.errstate(all="ignore"):
                    same = (g == w) | (np.isnan(g) & np.isnan(w))
                    diff = np.where(same, 0.0, np.abs(g - w))
                    tol = atol + rtol * np.where(np.isfinite(w), np.abs(w), 0.0)
                bad = ~(same | (diff <= tol))
            worst = float(np.max(diff)) if diff.size else 0.0
            self.stdout.write(f"result {i}: max error {worst:g}\n")
            if np.any(bad):
                # The worst element (a NaN against a number counts as worst).
                score = np.where(bad, np.nan_to_num(diff.astype(np.float64), nan=np.inf), -1.0)
                idx = np.unravel_index(int(np.argmax(score)), score.shape) if score.ndim else ()
                idx = tuple(int(j) for j in idx)
                where = ""
                if holders is not None:
                    mesh, shardings = holders
                    where = f" ({_holders(idx, got.shape, shardings[i] if i < len(shardings) else None, mesh)})"
                allowed = f" (tolerance {float(tol[idx]):g})" if tol is not None else ""
                self.stdout.write(
                    f"result {i}: differs from the reference at {list(idx)}{where}: got {got[idx]}, "
                    f"reference {want[idx]}, difference {diff[idx]:g}{allowed}\n"
                )
                ok = False
        self.stdout.write("match\n" if ok else "MISMATCH\n")
        return 0 if ok else 1


def _too_deep(e: RecursionError, function: str | None) -> str:
    """The message for a simulated program that nests calls or regions
    deeper than Python's stack allows: how deep (the simulator runs a block
    per call or region) and in which function (the last one called)."""
    levels = 0
    tb = e.__traceback__
    while tb is not None:
        code, names = tb.tb_frame.f_code.co_name, tb.tb_frame.f_locals
        levels += code == "run_block"
        if code == "_call" and "step" in names:
            function = getattr(names["step"], "attrs", {}).get("callee", function)
        tb = tb.tb_next
    depth = f"deeper than {levels} levels" if levels else "too deeply"
    return f"calls or regions nest {depth}" + (f" (in @{function})" if function else "")


def _npy_writer(value: np.ndarray):
    """A `files.write_all` writer of `value` as a .npy file."""

    def write(f) -> None:
        np.save(f, value)

    return write


_DEVICE_OPS = COLLECTIVES | {"mesh.process_multi_index", "mesh.process_linear_index", "mesh.update_halo"}
"""Mesh ops only a device of a mesh runs (one device alone has no group)."""


def _device_meshes(module: ir.Operation, function: str) -> set[str] | None:
    """The meshes that ops only a device of a mesh can run (`_DEVICE_OPS`)
    name in @function (of `module`'s top level) and the functions it calls;
    None when it has no such op."""
    functions = {}
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name == "func.func":
            functions[ir.StringAttr(op.attributes["sym_name"]).value] = op
    seen: set[str] = set()
    todo = [function]
    meshes: set[str] = set()
    found = False
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)

        def visit(op: ir.Operation) -> ir.WalkResult:
            nonlocal found
            if op.name in _DEVICE_OPS:
                found = True
                if "mesh" in op.attributes:
                    meshes.add(ir.FlatSymbolRefAttr(op.attributes["mesh"]).value)
            elif op.name == "func.call" and "callee" in op.attributes:
                todo.append(ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
            return ir.WalkResult.ADVANCE

        functions[name].walk(visit)
    return meshes if found else None


def _per_device_mesh(module: ir.Operation, function: str, given: str | None) -> str | None:
    """The mesh a function written partly per device (collectives, device
    indices) and without layouts runs on: `given` (the other program's, or
    --mesh), else the one mesh its device ops name; None when it has no
    such op, or they name several meshes."""
    meshes = _device_meshes(module, function)
    if meshes is None:
        return None
    if given is not None:
        return given
    return next(iter(meshes)) if len(meshes) == 1 else None


def _where(sim, sig, spmd: bool) -> str:
    """Where a function runs, for the progress display: "on one device" or
    "on 8 devices of mesh @m (2x4)"."""
    from ..sim.program import SimError

    name = sim.mesh_for(sig)
    if not spmd or name is None:
        return "on one device"
    try:
        mesh = sim.runner(name).mesh
    except SimError:  # the run itself reports it, in its own order
        return f"on mesh @{name}"
    return f"on {mesh.size} devices of mesh @{name} ({'x'.join(map(str, mesh.shape))})"


def float_tolerance(
    got: np.ndarray,
    want: np.ndarray,
    length: int,
    input_scale: float,
    rtol: float | None,
    atol: float | None,
    program_eps: float = 0.0,
) -> tuple[float, float]:
    """(rtol, atol) for comparing a float result with its reference; see
    TOLERANCE_DOC. A given value replaces the default. `program_eps`: the
    largest epsilon of the floats the programs compute in."""
    eps = max(_epsilon(got.dtype), _epsilon(want.dtype), program_eps)
    n = max(int(length), 2)
    bound = min(n * eps, MAX_RELATIVE)  # f16 over 1024 terms would otherwise allow anything
    if rtol is None:
        rtol = bound
    if atol is None:
        atol = bound * max(_largest_float([want]), input_scale)
    return float(rtol), float(atol)


def _epsilon(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).eps) if dtype.kind in "fc" else 0.0


def _largest_float(arrays) -> float:
    """The largest finite magnitude among the float arrays (0 if none)."""
    best = 0.0
    for a in arrays:
        a = np.asarray(a)
        if a.dtype.kind in "fc" and a.size:
            finite = np.abs(a[np.isfinite(a)])
            if finite.size:
                best = max(best, float(finite.max()))
    return best


def _extents(module: ir.Operation, function: str) -> tuple[int, float]:
    """The longest static tensor dimension in `function` (a bound on the
    length of the sums it computes along one dimension) and the largest
    machine epsilon of the floats it computes in (0.0 if none): a result
    widened from f16 was summed with f16's rounding."""
    from ..sim.floats import BF16_EPSILON
    from ..sim.program import SimError, dtype_of

    longest = 1
    floats: set[ir.Type] = set()

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal longest
        values = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.arguments]
        for v in values:
            t = v.type
            if isinstance(t, ir.ShapedType) and ir.ShapedType(t).has_rank:
                st = ir.ShapedType(t)
                t = st.element_type
                for k in range(st.rank):
                    if not st.is_dynamic_dim(k):
                        longest = max(longest, st.shape[k])
            if isinstance(t, ir.FloatType):
                floats.add(t)
        return ir.WalkResult.ADVANCE

    body = module.regions[0].blocks[0] if module.regions else None
    for op in body.operations if body is not None else []:
        if "sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == function:
            op.operation.walk(visit)
    eps = 0.0
    for t in floats:
        if isinstance(t, ir.BF16Type):
            eps = max(eps, BF16_EPSILON)  # (held in f32: its dtype says f32's)
            continue
        try:
            eps = max(eps, _epsilon(dtype_of(t)))
        except SimError:  # a type the simulator does not run (the run has refused it)
            continue
    return longest, eps


def _holders(index: tuple[int, ...], shape: tuple[int, ...], sharding, mesh) -> str:
    """Which devices hold (a term of) the element at global `index`."""
    from ..sharding.spec import Sharding

    s = sharding or Sharding.replicated()
    found = []
    for d in mesh.devices():
        core = s.slice_of(shape, mesh, d)
        if all(c.start <= k < c.stop for c, k in zip(core, index)):
            found.append("[" + ", ".join(map(str, d)) + "]")
    if len(found) == 1:
        return f"held by device {found[0]}"
    shown = ", ".join(found[:4]) + (", ..." if len(found) > 4 else "")
    what = "terms of it" if s.is_partial else "it"
    return f"{len(found)} devices hold {what}: {shown}"


def _sim_error(error: Exception) -> str:
    """A simulator error as mesh-opt words its diagnostics: at its place in
    the program (`file:line:col: error: ...`) when it has one, else after
    the tool's name."""
    message, where = str(error), getattr(error, "where", None)
    if where and message.startswith(where + ": "):
        return f"{where}: error: {message[len(where) + 2 :]}\n"
    return f"mesh-run: error: {message}\n"
