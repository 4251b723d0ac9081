"""The driver behind `mesh-opt`: read, parse, verify, run a pipeline, print.

It behaves like `mlir-opt`: diagnostics as `file:line:col: error: ...` on
stderr, a non-zero exit on any error, `--split-input-file` and
`--verify-diagnostics`. Output files are written atomically, so a failed run
leaves no file and never clobbers an existing one.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field
from typing import TextIO

from mlir import ir

from ..ir import diagnostics as diag
from ..ir.asm import parse, print_ir, remap_position
from ..ir.dialect import load_dialect
from . import expected
from .pipeline import Element, PipelineError, build


@dataclass
class OptOptions:
    input: str = "-"
    output: str = "-"
    elements: list[Element] = field(default_factory=list)
    split_input_file: bool = False
    verify_diagnostics: bool = False
    print_op_generic: bool = False
    print_debuginfo: bool = False
    allow_unregistered_dialect: bool = False
    print_ir_after_all: bool = False
    verify_each: bool = True


@dataclass
class ChunkResult:
    output: str | None
    diagnostics: list[diag.Diagnostic]

    @property
    def failed(self) -> bool:
        return self.output is None


class OptDriver:
    def __init__(self, options: OptOptions, stdout: TextIO | None = None, stderr: TextIO | None = None):
        self.options = options
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr

    # -- entry -------------------------------------------------------------

    def run(self) -> int:
        if not self._check_pipeline():
            return 1
        text, name = self._read()
        if text is None:
            return 1
        chunks = expected.split_input(text) if self.options.split_input_file else [text]
        outputs: list[str] = []
        ok = True
        for chunk in chunks:
            result = self.process(chunk, name)
            if self.options.verify_diagnostics:
                ok &= self._check_expected(chunk, name, result)
            else:
                for d in result.diagnostics:
                    self._report(d, text)
                ok &= not result.failed
            if result.output is not None:
                outputs.append(result.output)
        if not ok:
            return 1
        body = expected.join_outputs(outputs) if self.options.split_input_file else "".join(outputs)
        return 0 if self._write(body) else 1

    def _check_pipeline(self) -> bool:
        """Reject a bad pipeline once, before reading any input."""
        try:
            build(self.options.elements, ir.Context(), verify_each=False)
        except PipelineError as e:
            self.stderr.write(f"mesh-opt: {e.args[0]}\n")
            return False
        return True

    # -- one buffer --------------------------------------------------------

    def process(self, text: str, filename: str) -> ChunkResult:
        """Parse, verify, run the pipeline and print one buffer."""
        ctx = ir.Context()
        ctx.allow_unregistered_dialects = self.options.allow_unregistered_dialect
        load_dialect(ctx)
        with ctx, ir.Location.unknown(ctx):
            try:
                module = parse(text, filename=filename, context=ctx)
            except diag.DiagnosticError as e:
                return ChunkResult(None, e.diagnostics)
            dumps: list[str] = []

            def after_each(label: str, op: ir.Operation) -> None:
                self.stderr.write(f"// -----// IR Dump After {label} //----- //\n")
                self.stderr.write(self._print(op) + "\n")
                dumps.append(label)

            try:
                pipeline = build(
                    self.options.elements,
                    ctx,
                    verify_each=self.options.verify_each,
                    after_each=after_each if self.options.print_ir_after_all else None,
                )
            except PipelineError as e:
                return ChunkResult(None, [diag.Diagnostic("error", e.args[0])])
            found: list[diag.Diagnostic] = []
            failed = False
            if self.options.elements:
                try:
                    pipeline.pm.run(module)
                except ir.MLIRError as e:
                    failed = True
                    found.extend(diag.convert(d, remap_position, diag.not_op_dump) for d in e.error_diagnostics)
                    if not e.error_diagnostics:
                        found.append(diag.Diagnostic("error", "pass pipeline failed"))
            for p in pipeline.passes:
                found.extend(p.diagnostics)
            found.sort(key=lambda d: (d.filename or "", d.line, d.col))
            if failed:
                return ChunkResult(None, found)
            return ChunkResult(self._print(module), found)

    def _print(self, op: ir.Operation) -> str:
        return print_ir(op, generic=self.options.print_op_generic, debug_info=self.options.print_debuginfo) + "\n"

    # -- diagnostics -------------------------------------------------------

    def _report(self, d: diag.Diagnostic, source: str) -> None:
        self.stderr.write(d.format({d.filename or "": source} if d.filename else None) + "\n")

    def _check_expected(self, chunk: str, name: str, result: ChunkResult) -> bool:
        expectations = expected.parse_expectations(chunk, name)
        problems = expected.check(expectations, result.diagnostics, name)
        for p in problems:
            self._report(p, chunk)
        return not problems

    # -- files -------------------------------------------------------------

    def _read(self) -> tuple[str | None, str]:
        path = self.options.input
        try:
            if path == "-":
                return sys.stdin.read(), "<stdin>"
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as e:
            self.stderr.write(f"mesh-opt: could not open input file '{path}': {e.strerror}\n")
        except UnicodeDecodeError as e:
            self.stderr.write(f"mesh-opt: input file '{path}' is not UTF-8 text: {e.reason} at byte {e.start}\n")
        return None, path

    def _write(self, body: str) -> bool:
        path = self.options.output
        if path == "-":
            self.stdout.write(body)
            self.stdout.flush()
            return True
        directory = os.path.dirname(os.path.abspath(path))
        try:
            fd, tmp = tempfile.mkstemp(prefix=".mesh-opt-", dir=directory)
        except OSError as e:
            self.stderr.write(f"mesh-opt: cannot write output file '{path}': {e.strerror}\n")
            return False
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(body)
            os.replace(tmp, path)
            return True
        except OSError as e:
            self.stderr.write(f"mesh-opt: cannot write output file '{path}': {e.strerror}\n")
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return False
