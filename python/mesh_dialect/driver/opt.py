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
    emit: str = "mesh"  # "mesh", "upstream" (upstream's shard dialect), "upstream-mpi" (and checked for MPI)


class Progress:
    """Where a driver reports the phases of a run; this one shows nothing.
    The command-line tools pass one that draws on a terminal
    (`tools/progress.py`). Reporting must never change what a run prints."""

    wants_passes = False
    """Whether to be told when each pass ends (it costs a callback pass
    after every element of the pipeline)."""

    def phase(self, text: str) -> None:
        """A phase starts, `text` says which."""

    def steps(self, total: int) -> None:
        """The run has `total` steps (a bar shows how many are done)."""

    def advance(self, steps: int = 1) -> None:
        """`steps` more steps of the run are done."""


@dataclass
class ChunkResult:
    output: str | None
    diagnostics: list[diag.Diagnostic]

    @property
    def failed(self) -> bool:
        return self.output is None


class OptDriver:
    def __init__(
        self,
        options: OptOptions,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        progress: Progress | None = None,
    ):
        self.options = options
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.progress = progress or Progress()
        self._chunk = ""  # "chunk 2/5: " while a split input runs

    # -- entry -------------------------------------------------------------

    def run(self) -> int:
        if not self._check_pipeline():
            return 1
        path = self.options.input
        self.progress.phase(f"reading {'stdin' if path == '-' else path}")
        text, name = self._read()
        if text is None:
            return 1
        chunks = expected.split_input(text) if self.options.split_input_file else [text]
        # Steps: parsing, each pipeline element and printing, per chunk.
        self.progress.steps(len(chunks) * (len(self.options.elements) + 2))
        outputs: list[str] = []
        ok = True
        for k, chunk in enumerate(chunks):
            self._chunk = f"chunk {k + 1}/{len(chunks)}: " if len(chunks) > 1 else ""
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
        output = self.options.output
        self.progress.phase(f"writing {'stdout' if output == '-' else output}")
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
        progress = self.progress
        with ctx, ir.Location.unknown(ctx):
            progress.phase(f"{self._chunk}parsing {filename}")
            try:
                module = parse(text, filename=filename, context=ctx)
            except diag.DiagnosticError as e:
                # parse() always says where; a failed run must say so even if not.
                found = e.diagnostics or [diag.Diagnostic("error", "the input could not be parsed", filename, 1, 1)]
                return ChunkResult(None, found)
            progress.advance()
            labels = [el.text for el in self.options.elements]
            done = 0

            def pass_phase() -> None:
                progress.phase(f"{self._chunk}pass {done + 1}/{len(labels)}: {labels[done]}")

            def after_each(label: str, op: ir.Operation) -> None:
                nonlocal done
                if self.options.print_ir_after_all:
                    self.stderr.write(f"// -----// IR Dump After {label} //----- //\n")
                    self.stderr.write(self._print(op) + "\n")
                done += 1
                progress.advance()
                if done < len(labels):
                    pass_phase()

            try:
                pipeline = build(
                    self.options.elements,
                    ctx,
                    verify_each=self.options.verify_each,
                    after_each=after_each if self.options.print_ir_after_all or progress.wants_passes else None,
                )
            except PipelineError as e:
                return ChunkResult(None, [diag.Diagnostic("error", e.args[0])])
            found: list[diag.Diagnostic] = []
            failed = False
            if self.options.elements:
                pass_phase()
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
            progress.phase(f"{self._chunk}printing")
            printed, problem = self._emit(module, filename)
            progress.advance()
            if problem is not None:
                return ChunkResult(None, [*found, problem])
            return ChunkResult(printed, found)

    def _print(self, op: ir.Operation) -> str:
        return print_ir(op, generic=self.options.print_op_generic, debug_info=self.options.print_debuginfo)

    def _emit(self, module: ir.Operation, filename: str) -> tuple[str | None, diag.Diagnostic | None]:
        """The output text in the dialect `--emit` asks for, or the error
        saying why upstream's `shard` dialect cannot hold it."""
        if self.options.emit == "mesh":
            return self._print(module), None
        from ..interop.upstream import NotExpressible, export_upstream

        try:
            return export_upstream(module, mpi=self.options.emit == "upstream-mpi"), None
        except NotExpressible as e:
            location = getattr(e, "location", None)
            name, line, col = remap_position(*diag.file_position(location)) if location is not None else (None, 0, 0)
            if not name:
                name, line, col = filename, 1, 1
            return None, diag.Diagnostic("error", f"cannot emit upstream's shard dialect: {e}", name, line, col)

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
