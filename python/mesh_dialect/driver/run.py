"""The driver behind `mesh-run`: run a function of a module on global inputs
(one device, or every device of its mesh), print or save the outputs, and
compare them with a reference program."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np
from mlir import ir

from ..ir import diagnostics as diag
from ..ir.asm import parse
from ..ir.dialect import load_dialect


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
    rtol: float = 1e-5
    atol: float = 1e-6
    mpi: int | None = None
    allow_unregistered_dialect: bool = False


class RunError(Exception):
    """A failure already worded for the user."""


class RunDriver:
    def __init__(self, options: RunOptions, stdout: TextIO | None = None, stderr: TextIO | None = None):
        self.o = options
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr

    def run(self) -> int:
        from ..sim.program import SimError

        try:
            return self._run()
        except RunError as e:
            self.stderr.write(f"mesh-run: {e}\n")
        except SimError as e:
            self.stderr.write(f"mesh-run: error: {e}\n")
        except diag.DiagnosticError as e:
            self.stderr.write(str(e) + "\n")
        except MemoryError:
            self.stderr.write("mesh-run: error: out of memory (are the tensors or the mesh this large?)\n")
        return 1

    # ------------------------------------------------------------------

    def _load(self, path: str, ctx: ir.Context) -> ir.Operation:
        try:
            if path == "-":
                text, path = sys.stdin.read(), "<stdin>"
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except OSError as e:
            raise RunError(f"could not open input file '{path}': {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise RunError(f"input file '{path}' is not UTF-8 text: {e.reason} at byte {e.start}") from None
        return parse(text, filename=path, context=ctx)

    @staticmethod
    def _pick(sim, requested: str | None, path: str) -> str:
        names = sim.function_names()
        if requested is not None:
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

    def _inputs(self, sim, sig) -> list[np.ndarray]:
        from ..sharding.spec import Mesh
        from ..sim.api import random_inputs

        if self.o.inputs:
            if len(self.o.inputs) != len(sig.arg_types):
                raise RunError(f"@{sig.name} takes {len(sig.arg_types)} inputs, got {len(self.o.inputs)} .npy files")
            out = []
            for path in self.o.inputs:
                try:
                    out.append(np.load(path, allow_pickle=False))
                except (OSError, ValueError) as e:
                    raise RunError(f"cannot read input '{path}': {e}") from None
            return out
        mesh = None
        name = sim.mesh_for(sig)
        if (sig.spmd if self.o.spmd is None else self.o.spmd):
            if name is None:
                raise RunError(f"@{sig.name} has no layout; name its mesh with --mesh")
            mesh = Mesh(sim.runner(name).mesh.shape, name)
        return random_inputs(sig, mesh, self.o.seed)

    def _run(self) -> int:
        from ..sim.api import Simulation

        ctx = ir.Context()
        ctx.allow_unregistered_dialects = self.o.allow_unregistered_dialect
        load_dialect(ctx)
        with ctx, ir.Location.unknown(ctx):
            module = self._load(self.o.input, ctx)
            sim = Simulation(module, mesh=self.o.mesh)
            function = self._pick(sim, self.o.function, self.o.input)
            sig = sim.signature(function)
            inputs = self._inputs(sim, sig)
            if self.o.mpi is not None:
                outputs = self._run_mpi(sim, sig, inputs)
            else:
                outputs = sim.run(function, inputs, spmd=self.o.spmd)
            reference = None
            if self.o.compare_with is not None:
                ref_module = self._load(self.o.compare_with, ctx)
                ref_sim = Simulation(ref_module)
                ref_fn = self._pick(ref_sim, self.o.ref_function or function, self.o.compare_with)
                reference = ref_sim.run(ref_fn, inputs, spmd=False)
                if len(reference) != len(outputs):
                    raise RunError(
                        f"@{function} returns {len(outputs)} results but the reference @{ref_fn} returns "
                        f"{len(reference)}"
                    )
        self._report(outputs, sig)
        self._save(outputs)
        return self._compare(outputs, reference) if reference is not None else 0

    def _run_mpi(self, sim, sig, inputs):
        try:
            from ..sim import mpi
        except ImportError as e:
            raise RunError(f"--mpi needs the MPI extra (pip install '.[mpi]'): {e}") from None
        name = sim.mesh_for(sig)
        if name is None:
            raise RunError(f"@{sig.name} has no layout; name its mesh with --mesh")
        return mpi.run_mpi(
            self.o.input,
            sig.name,
            mesh=name,
            inputs=inputs,
            arg_shardings=sig.arg_shardings,
            result_shardings=sig.result_shardings,
            np_procs=self.o.mpi,
        )

    def _report(self, outputs, sig) -> None:
        if self.o.quiet:
            return
        for i, (value, t) in enumerate(zip(outputs, sig.result_types)):
            value = np.asarray(value)
            text = np.array2string(value, threshold=64, max_line_width=100)
            label = str(t)
            if isinstance(t, ir.ShapedType) and tuple(ir.ShapedType(t).shape) != value.shape:
                # An SPMD result: its type is one device's piece; print the whole.
                dims = "x".join(map(str, value.shape))
                label = f"tensor<{dims}x{ir.ShapedType(t).element_type}> (each device: {t})"
            self.stdout.write(f"result {i}: {label}\n{text}\n")

    def _save(self, outputs) -> None:
        if self.o.save_dir is None:
            return
        try:
            os.makedirs(self.o.save_dir, exist_ok=True)
            for i, value in enumerate(outputs):
                np.save(os.path.join(self.o.save_dir, f"result{i}.npy"), np.asarray(value))
        except OSError as e:
            raise RunError(f"cannot save the results in '{self.o.save_dir}': {e.strerror or e}") from None

    def _compare(self, outputs, reference) -> int:
        ok = True
        for i, (got, want) in enumerate(zip(outputs, reference)):
            got, want = np.asarray(got), np.asarray(want)
            if got.shape != want.shape:
                self.stdout.write(f"result {i}: shape {list(got.shape)} but the reference has {list(want.shape)}\n")
                ok = False
                continue
            if got.dtype.kind in "iub" and want.dtype.kind in "iub":
                diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
                bad = diff != 0
            else:
                g, w = got.astype(np.float64), want.astype(np.float64)
                diff = np.where(np.isnan(g) & np.isnan(w), 0.0, np.abs(g - w))
                bad = ~(diff <= self.o.atol + self.o.rtol * np.abs(w))
            worst = float(np.max(diff)) if diff.size else 0.0
            self.stdout.write(f"result {i}: max error {worst:g}\n")
            if np.any(bad):
                idx = tuple(int(j) for j in np.argwhere(bad)[0])
                self.stdout.write(
                    f"result {i}: differs from the reference at {list(idx)}: got {got[idx]}, reference {want[idx]}\n"
                )
                ok = False
        self.stdout.write("match\n" if ok else "MISMATCH\n")
        return 0 if ok else 1
