"""The driver behind `mesh-opt`: read, parse, verify, run a pipeline, print.

It behaves like `mlir-opt`: diagnostics as `file:line:col: error: ...` on
stderr, a non-zero exit on any error, `--split-input-file` and
`--verify-diagnostics`. Output files are written atomically, so a failed run
leaves no file and never clobbers an existing one.
"""

from __future__ import annotations

import errno
import io
import os
import stat
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
        body = expected.join_outputs(outputs) if self.options.split_input_file else "".join(outputs)
        if not ok:
            # Like mlir-opt, stdout still gets the chunks that succeeded; a
            # file is never written by a failed run.
            if self.options.output == "-" and outputs:
                self._write(body)
            return 1
        return 0 if self._write(body) else 1

    def _check_pipeline(self) -> bool:
        """Reject a bad pipeline once, before reading any input."""
        try:
            ctx = ir.Context()
            ctx.enable_multithreading(False)
            build(self.options.elements, ctx, verify_each=False)
        except PipelineError as e:
            self.stderr.write(f"mesh-opt: {e.args[0]}\n")
            return False
        return True

    # -- one buffer --------------------------------------------------------

    def process(self, text: str, filename: str) -> ChunkResult:
        """Parse, verify, run the pipeline and print one buffer."""
        ctx = ir.Context()
        # Diagnostics from MLIR's worker threads reach Python handlers
        # without the GIL (an abort in nanobind): stay on this thread.
        ctx.enable_multithreading(False)
        ctx.allow_unregistered_dialects = self.options.allow_unregistered_dialect
        load_dialect(ctx)
        with ctx, ir.Location.unknown(ctx):
            try:
                module = parse(text, filename=filename, context=ctx)
            except diag.DiagnosticError as e:
                # parse() always says where; a failed run must say so even if not.
                found = e.diagnostics or [diag.Diagnostic("error", "the input could not be parsed", filename, 1, 1)]
                return ChunkResult(None, found)
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
        return print_ir(op, generic=self.options.print_op_generic, debug_info=self.options.print_debuginfo)

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
        name = "<stdin>" if path == "-" else path
        try:
            if path == "-":
                return _read_stdin(), name
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as e:
            self.stderr.write(f"mesh-opt: could not open input file '{path}': {e.strerror}\n")
        except UnicodeDecodeError as e:
            self.stderr.write(f"mesh-opt: input file '{name}' is not UTF-8 text: {e.reason} at byte {e.start}\n")
        return None, name

    def _write(self, body: str) -> bool:
        path = self.options.output
        if path == "-":
            return self._write_stdout(body)
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if path.endswith(("/", os.sep)) or (st is not None and stat.S_ISDIR(st.st_mode)):
            # `-o nodir/` names a directory even when there is none yet.
            return self._cannot_write(path, errno.EISDIR)
        if st is not None and stat.S_ISREG(st.st_mode) and not _writable(path, st):
            # The rename below would replace a read-only file: refuse, as
            # opening it for writing would.
            return self._cannot_write(path, errno.EACCES)
        if st is not None and not stat.S_ISREG(st.st_mode):
            # /dev/null, /dev/stdout, a FIFO: write in place; renaming a
            # temporary file over them would replace the device node.
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(body)
                return True
            except OSError as e:
                self.stderr.write(f"mesh-opt: cannot write output file '{path}': {e.strerror}\n")
                return False
        # Through symlinks: replace the file a link points at, not the link.
        target = os.path.realpath(path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".mesh-opt-", dir=os.path.dirname(target))
        except OSError as e:
            self.stderr.write(f"mesh-opt: cannot write output file '{path}': {e.strerror}\n")
            return False
        try:
            # mkstemp creates the file 0600: give it the mode of the file it
            # replaces, or the one a plain open() would (0666 minus umask).
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
                f.write(body)
            os.replace(tmp, target)
            return True
        except OSError as e:
            self.stderr.write(f"mesh-opt: cannot write output file '{path}': {e.strerror}\n")
            return False
        finally:
            if os.path.lexists(tmp):
                try:
                    os.unlink(tmp)
                except OSError:
                    pass

    def _cannot_write(self, path: str, code: int) -> bool:
        self.stderr.write(f"mesh-opt: cannot write output file '{path}': {os.strerror(code)}\n")
        return False

    def _write_stdout(self, body: str) -> bool:
        """Write to stdout. A full disk is one line and exit 1; a reader that
        went away (closed stdout, broken pipe) is a quiet exit 1, as with
        mlir-opt. Either way stdout is pointed at /dev/null afterwards, so
        that Python's flush at exit does not fail a second time."""
        out = self.stdout
        try:
            if out is None:  # started with stdout closed
                raise BrokenPipeError(errno.EBADF, os.strerror(errno.EBADF))
            out.write(body)
            out.flush()
            return True
        except BrokenPipeError:
            _silence(out)
            return False
        except OSError as e:
            _silence(out)
            if e.errno == errno.EBADF:
                return False
            self.stderr.write(f"mesh-opt: cannot write output: {e.strerror}\n")
            return False


def _silence(stream: TextIO | None) -> None:
    """Point `stream`'s descriptor at /dev/null and drop what it buffers."""
    if stream is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def _writable(path: str, st: os.stat_result) -> bool:
    """Whether `path` may be overwritten: the atomic rename replaces a file
    without opening it, so its permissions are checked here. Root passes
    every access check; a file with no write bit at all is read-only for
    root too."""
    return os.access(path, os.W_OK) and bool(st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _read_stdin() -> str:
    """stdin as strict UTF-8 with universal newlines, like a file opened with
    encoding="utf-8": sys.stdin itself may decode with surrogateescape and
    hand MLIR a str that cannot be encoded back."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # replaced by a text stream (in-process use)
        return sys.stdin.read()
    wrapper = io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", newline=None)
    try:
        return wrapper.read()
    finally:
        wrapper.detach()
