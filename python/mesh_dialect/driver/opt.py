"""The driver behind `mesh-opt`: read, parse, verify, run a pipeline, print.

It behaves like `mlir-opt`: diagnostics as `file:line:col: error: ...` on
stderr, a non-zero exit on any error, `--split-input-file` and
`--verify-diagnostics`. Output files are written atomically, so a failed run
leaves no file and never clobbers an existing one.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from mlir import ir

from ..files import umask, writable
from ..ir import diagnostics as diag
from ..ir.asm import parse, print_ir, remap_location, remapper, to_custom
from ..ir.dialect import load_dialect
from . import expected
from .pipeline import Element, Pipeline, PipelineError, build, describe, expand

BYTECODE_MAGIC = b"ML\xefR"
"""How an MLIR bytecode file starts; mesh-opt reads such input as mlir-opt does."""


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
    # mlir-opt's flags of the same names (see mesh_opt.py).
    print_ir_before_all: bool = False
    print_ir_after_change: bool = False  # only filters print_ir_after_all, as in mlir-opt
    print_ir_after_failure: bool = False
    elide_elementsattrs_if_larger: int | None = None
    timing: bool = False
    pass_statistics: bool = False
    dump_pass_pipeline: bool = False
    emit_bytecode: bool = False


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
    output: str | bytes | None
    diagnostics: list[diag.Diagnostic]
    trailer: str = ""  # stderr text after the diagnostics (the IR after a failed pass)

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
        self.timing = Timing() if options.timing else None

    # -- entry -------------------------------------------------------------

    def run(self) -> int:
        if self.timing is None:
            return self._run()
        try:
            return self._run()
        finally:
            self.stderr.write(self.timing.report())
            self.stderr.flush()

    def _run(self) -> int:
        if not self._check_pipeline():
            return 1
        path = self.options.input
        self.progress.phase(f"reading {'stdin' if path == '-' else path}")
        text, name = self._read()
        if text is None:
            return 1
        if isinstance(text, bytes) and self.options.split_input_file:
            self.stderr.write(f"mesh-opt: input file '{name}' is bytecode, which --split-input-file cannot split\n")
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
                ok &= self._check_expected(chunk if isinstance(chunk, str) else "", name, result)
            else:
                for d in result.diagnostics:
                    self._report(d, text if isinstance(text, str) else None)
                ok &= not result.failed
            if result.trailer:
                self.stderr.write(result.trailer)
            if result.output is not None:
                outputs.append(result.output)
        body: str | bytes
        if self.options.emit_bytecode:
            body = b"".join(o for o in outputs if isinstance(o, bytes))
        else:
            body = expected.join_outputs(outputs) if self.options.split_input_file else "".join(outputs)
        output = self.options.output
        self.progress.phase(f"writing {'stdout' if output == '-' else output}")
        with self._timed("Output"):
            if not ok:
                # Like mlir-opt, stdout still gets the chunks that succeeded; a
                # file is never written by a failed run.
                if self.options.output == "-" and outputs:
                    self._write(body)
                return 1
            return 0 if self._write(body) else 1

    def _check_pipeline(self) -> bool:
        """Reject a bad pipeline once, before reading any input. Our passes
        written in upstream's nesting (`func.func(sharding-propagation)`)
        are moved out of it here, so that labels and steps name what runs."""
        try:
            self.options.elements = expand(self.options.elements)
            ctx = ir.Context()
            ctx.enable_multithreading(False)
            build(self.options.elements, ctx, verify_each=False)
            if self.options.dump_pass_pipeline:
                # mlir-opt prints it to stderr before reading the input.
                self.stderr.write(describe(self.options.elements, ctx))
                self.stderr.flush()
        except PipelineError as e:
            self.stderr.write(f"mesh-opt: {e.args[0]}\n")
            return False
        return True

    def _timed(self, name: str) -> contextlib.AbstractContextManager:
        return self.timing.measure(name) if self.timing is not None else contextlib.nullcontext()

    # -- one buffer --------------------------------------------------------

    def process(self, text: str | bytes, filename: str) -> ChunkResult:
        """Parse, verify, run the pipeline and print one buffer (text, or
        bytecode as bytes)."""
        ctx = ir.Context()
        # Diagnostics from MLIR's worker threads reach Python handlers
        # without the GIL (an abort in nanobind): stay on this thread.
        ctx.enable_multithreading(False)
        ctx.allow_unregistered_dialects = self.options.allow_unregistered_dialect
        load_dialect(ctx)
        progress = self.progress
        options = self.options
        with ctx, ir.Location.unknown(ctx):
            progress.phase(f"{self._chunk}parsing {filename}")
            try:
                with self._timed("Parser"):
                    module = _parse_bytecode(text, filename, ctx) if isinstance(text, bytes) else None
                    if module is None:
                        module = parse(text, filename=filename, context=ctx)
            except diag.DiagnosticError as e:
                # parse() always says where; a failed run must say so even if not.
                found = e.diagnostics or [diag.Diagnostic("error", "the input could not be parsed", filename, 1, 1)]
                return ChunkResult(None, found)
            progress.advance()
            labels = [el.text for el in options.elements]
            done = 0
            running = -1  # the element that runs now, for --mlir-print-ir-after-failure
            fingerprint = [self._fingerprint(module)] if options.print_ir_after_change else []
            clock: list[tuple[float, float]] = []

            def pass_phase() -> None:
                progress.phase(f"{self._chunk}pass {done + 1}/{len(labels)}: {labels[done]}")

            def observe(point: str, index: int, op: ir.Operation) -> None:
                nonlocal done, running
                label = labels[index]
                if point == "before":
                    running = index
                    if options.print_ir_before_all:
                        self._dump(f"IR Dump Before {label}", op)
                    if self.timing is not None:
                        clock[:] = [self.timing.now()]
                    return
                if point == "ran":
                    if self.timing is not None:
                        clock.append(self.timing.now())
                    return
                if self.timing is not None:
                    start, ran = clock
                    self.timing.add((index, label), start, ran, options.verify_each)
                if options.print_ir_after_all and not options.print_ir_after_failure:
                    changed = True
                    if options.print_ir_after_change:
                        now = self._fingerprint(op)
                        changed, fingerprint[0] = now != fingerprint[0], now
                    if changed:
                        self._dump(f"IR Dump After {label}", op)
                done += 1
                progress.advance()
                if done < len(labels):
                    pass_phase()

            watched = (
                options.print_ir_after_all
                or options.print_ir_before_all
                or options.print_ir_after_failure
                or options.timing
                or progress.wants_passes
            )
            try:
                pipeline = build(
                    options.elements,
                    ctx,
                    verify_each=options.verify_each,
                    observe=observe if watched else None,
                )
            except PipelineError as e:
                return ChunkResult(None, [diag.Diagnostic("error", e.args[0])])
            found: list[diag.Diagnostic] = []
            failed = False
            trailer = ""
            if options.elements:
                pass_phase()
                try:
                    self._run_pipeline(pipeline, module)
                except ir.MLIRError as e:
                    failed = True
                    remap = remapper(module.context)
                    found.extend(diag.convert(d, remap, diag.not_op_dump) for d in e.error_diagnostics)
                    if not e.error_diagnostics:
                        found.append(diag.Diagnostic("error", "pass pipeline failed"))
                    if options.print_ir_after_failure and running >= 0:
                        header = f"// -----// IR Dump After {labels[running]} Failed //----- //\n"
                        trailer = header + self._print(module, verified=False) + "\n"
            for p in pipeline.passes:
                found.extend(p.diagnostics)
            found.sort(key=lambda d: (d.filename or "", d.line, d.col))
            if failed:
                return ChunkResult(None, found, trailer)
            progress.phase(f"{self._chunk}printing")
            with self._timed("Output"):
                printed, problem = self._emit(module, filename)
            progress.advance()
            if problem is not None:
                return ChunkResult(None, [*found, problem])
            return ChunkResult(printed, found)

    def _run_pipeline(self, pipeline: Pipeline, module: ir.Operation) -> None:
        """Run; with --mlir-pass-statistics, MLIR's report (written by C++ to
        stderr at the end of the run) is caught and shown with the Python
        passes' counters added."""
        if not self.options.pass_statistics:
            pipeline.pm.run(module)
            return
        pipeline.pm.enable_statistics()
        captured: list[str] = []
        try:
            with _stderr_captured(captured):
                pipeline.pm.run(module)
        finally:
            text = captured[0] if captured else ""
            at = text.find(_STATISTICS_BANNER)
            before, report = (text, "") if at < 0 else (text[:at], text[at:])
            self.stderr.write(before)
            if report:
                self.stderr.write(statistics_report(report, pipeline))
            self.stderr.flush()

    def _dump(self, header: str, op: ir.Operation) -> None:
        self.stderr.write(f"// -----// {header} //----- //\n")
        self.stderr.write(self._print(op) + "\n")

    def _fingerprint(self, op: ir.Operation) -> bytes:
        """What `--mlir-print-ir-after-change` compares: the IR with its locations."""
        asm = op.get_asm(binary=True, print_generic_op_form=True, enable_debug_info=True, assume_verified=True)
        return hashlib.blake2b(asm, digest_size=16).digest()

    def _print(self, op: ir.Operation, *, verified: bool = True) -> str:
        """Our custom syntax. `verified=False` for IR a pass left broken:
        MLIR then checks it and prints it generic if it is invalid."""
        limit = self.options.elide_elementsattrs_if_larger
        if limit is None and verified:
            return print_ir(
                op, generic=self.options.print_op_generic, debug_info=self.options.print_debuginfo, assume_verified=True
            )
        text = op.get_asm(
            large_elements_limit=limit,
            print_generic_op_form=self.options.print_op_generic,
            enable_debug_info=self.options.print_debuginfo,
            assume_verified=verified,
        )
        return to_custom(text, generic=self.options.print_op_generic)

    def _emit(self, module: ir.Operation, filename: str) -> tuple[str | bytes | None, diag.Diagnostic | None]:
        """The output text in the dialect `--emit` asks for (or bytecode), or
        the error saying why upstream's `shard` dialect cannot hold it."""
        if self.options.emit_bytecode:
            buffer = io.BytesIO()
            module.write_bytecode(buffer)
            return buffer.getvalue(), None
        if self.options.emit == "mesh":
            return self._print(module), None
        from ..interop.upstream import NotExpressible, export_upstream

        try:
            return export_upstream(module, mpi=self.options.emit == "upstream-mpi"), None
        except NotExpressible as e:
            location = getattr(e, "location", None)
            name, line, col = remap_location(location) if location is not None else (None, 0, 0)
            if not name:
                name, line, col = filename, 1, 1
            return None, diag.Diagnostic("error", f"cannot emit upstream's shard dialect: {e}", name, line, col)

    # -- diagnostics -------------------------------------------------------

    def _report(self, d: diag.Diagnostic, source: str | None) -> None:
        """`d` on stderr, quoting `source` (None for bytecode: no lines to quote)."""
        self.stderr.write(d.format({d.filename or "": source} if d.filename and source is not None else None) + "\n")

    def _check_expected(self, chunk: str, name: str, result: ChunkResult) -> bool:
        expectations = expected.parse_expectations(chunk, name)
        problems = expected.check(expectations, result.diagnostics, name)
        for p in problems:
            self._report(p, chunk)
        return not problems

    # -- files -------------------------------------------------------------

    def _read(self) -> tuple[str | bytes | None, str]:
        """The input: text, or bytes when it is MLIR bytecode."""
        path = self.options.input
        name = "<stdin>" if path == "-" else path
        try:
            data = read_input(path)
        except OSError as e:
            self.stderr.write(f"mesh-opt: {cannot_read(path, e)}\n")
            return None, name
        if isinstance(data, str):
            return data, name
        try:
            return _decoded(data), name
        except UnicodeDecodeError:
            found = diag.undecodable(data, name)
            assert found is not None  # the strict decoder refused it, so does this one
            self._report(*found)
        return None, name

    def _write(self, body: str | bytes) -> bool:
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
        if st is not None and stat.S_ISREG(st.st_mode) and not writable(path, st):
            # The rename below would replace a read-only file: refuse, as
            # opening it for writing would.
            return self._cannot_write(path, errno.EACCES)
        if st is not None and not stat.S_ISREG(st.st_mode):
            # /dev/null, /dev/stdout, a FIFO: write in place; renaming a
            # temporary file over them would replace the device node.
            try:
                with _opened(path, body) as f:
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
            with _opened(fd, body) as f:
                os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~umask())
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
            if isinstance(body, bytes):
                out.flush()
                binary = getattr(out, "buffer", None)
                if binary is None:
                    self.stderr.write("mesh-opt: cannot write bytecode to a text stream: give -o FILE\n")
                    return False
                binary.write(body)
                binary.flush()
                return True
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


def _opened(target: str | int, body: str | bytes):
    """`target` (a path or a descriptor) opened for writing `body`."""
    if isinstance(body, bytes):
        return open(target, "wb")
    return open(target, "w", encoding="utf-8")


def _decoded(data: bytes) -> str | bytes:
    """`data` as strict UTF-8 text with universal newlines (what opening the
    file with encoding="utf-8" gives), or unchanged when it is bytecode."""
    if data.startswith(BYTECODE_MAGIC):
        return data
    wrapper = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict", newline=None)
    return wrapper.read()


def _parse_bytecode(data: bytes, filename: str, ctx: ir.Context) -> ir.Operation:
    """A module read from MLIR bytecode, verified as parsed text is.

    MLIR's bytecode reader trusts its input more than the text parser does:
    damaged bytecode can fail an assertion, and a string that is not UTF-8
    (used as a location's file name) throws from the bindings inside C++,
    which terminates the process. So the bytes are first read once in a
    forked child; if it dies, the input is refused without reading it here."""
    import os
    import signal

    pid = os.fork()
    if pid == 0:  # the child: read, verify, convert diagnostics; its exit code is all that counts
        code = 0
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 2)
            _read_bytecode(data, filename, ctx)
        except BaseException:  # noqa: BLE001 - any Python-level failure is reported by the parent's read
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        raise diag.DiagnosticError(
            [
                diag.Diagnostic(
                    "error",
                    f"invalid bytecode: MLIR's bytecode reader stops the process on it ({name})",
                    filename,
                    1,
                    1,
                )
            ]
        )
    return _read_bytecode(data, filename, ctx)


def _read_bytecode(data: bytes, filename: str, ctx: ir.Context) -> ir.Operation:
    from ..ir.verifier import verify as semantic_errors

    try:
        module = ir.Module.parse(data, context=ctx).operation
        module.verify()
    except ir.MLIRError as e:
        try:
            found = [diag.convert(d, remapper(ctx), diag.not_op_dump) for d in e.error_diagnostics]
        except (RuntimeError, UnicodeError):  # a location whose file name is not UTF-8
            found = []
        # (a name that is not UTF-8 reads with U+FFFD: a damaged file's bytes, no file of the user's)
        found = [
            d if d.filename and d.filename != "-" and "\ufffd" not in d.filename else _at_file_start(d, filename)
            for d in found
        ]
        raise diag.DiagnosticError(found or [diag.Diagnostic("error", "invalid bytecode", filename, 1, 1)]) from None
    except (RuntimeError, UnicodeError) as e:
        detail = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
        raise diag.DiagnosticError([diag.Diagnostic("error", f"invalid bytecode: {detail}", filename, 1, 1)]) from None
    problems = semantic_errors(module)
    if problems:
        raise diag.DiagnosticError(problems)
    return module


def _at_file_start(d: diag.Diagnostic, filename: str) -> diag.Diagnostic:
    """A bytecode reader's error, which has no position, at the file's start."""
    notes = tuple(diag.Diagnostic(n.severity, n.message, filename, 1, 1) for n in d.notes)
    return diag.Diagnostic(d.severity, f"invalid bytecode: {d.message}", filename, 1, 1, notes)


@contextlib.contextmanager
def _stderr_captured(into: list[str]) -> Iterator[None]:
    """Send file descriptor 2 (where C++ writes) to a temporary file while
    the body runs; its text is appended to `into` afterwards."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as tmp:
            os.dup2(tmp.fileno(), 2)
            try:
                yield
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
                tmp.seek(0)
                into.append(tmp.read().decode("utf-8", errors="replace"))
    finally:
        os.close(saved)


_RULE = "===" + "-" * 73 + "==="
_STATISTICS_BANNER = f"{_RULE}\n                         ... Pass statistics report ...\n{_RULE}\n"
_HELPERS = ("Observe", "PrintIR", "VerifyMesh", "InlinerGuard", "FoldGuard")
"""The driver's own passes in a pipeline (pass `name`s), left out of reports."""


def statistics_report(report: str, pipeline: Pipeline) -> str:
    """MLIR's statistics report for `pipeline` (pipeline display), without
    the driver's helper passes, each Python pass followed by its counters as
    MLIR shows a C++ pass's statistics."""
    lines = report[len(_STATISTICS_BANNER) :].split("\n") if report.startswith(_STATISTICS_BANNER) else []
    ours = list(pipeline.passes)
    out = [_STATISTICS_BANNER.rstrip("\n")]
    skipping = False
    for line in lines:
        top = bool(line) and not line[0].isspace()
        if top:
            skipping = line in _HELPERS
        if skipping and line:
            continue
        out.append(line)
        if top and ours and line == ours[0].name:
            out.extend(ours.pop(0).statistics_lines("  "))
    return "\n".join(out)


class Timing:
    """`--mlir-timing`: the time of parsing, of each pipeline element (our
    verifier's share shown under it) and of output, summed over the chunks
    of a split input, reported in mlir-opt's layout."""

    def __init__(self) -> None:
        self.start = self.now()
        # name -> [user, wall, {child: [user, wall]}], in the order first seen
        self.rows: dict[object, list] = {}

    @staticmethod
    def now() -> tuple[float, float]:
        return time.process_time(), time.perf_counter()

    def _row(self, key: object) -> list:
        return self.rows.setdefault(key, [0.0, 0.0, {}])

    @contextlib.contextmanager
    def measure(self, name: str) -> Iterator[None]:
        start = self.now()
        try:
            yield
        finally:
            end = self.now()
            row = self._row(name)
            row[0] += end[0] - start[0]
            row[1] += end[1] - start[1]

    def add(self, key: tuple[int, str], start: tuple[float, float], ran: tuple[float, float], verified: bool) -> None:
        """Element `key` ran from `start` to `ran`, then our verifier until now."""
        end = self.now()
        row = self._row(key)
        row[0] += end[0] - start[0]
        row[1] += end[1] - start[1]
        if verified:
            check = row[2].setdefault("mesh-verify", [0.0, 0.0])
            check[0] += end[0] - ran[0]
            check[1] += end[1] - ran[1]

    def report(self) -> str:
        end = self.now()
        user, wall = end[0] - self.start[0], end[1] - self.start[1]
        rows = list(self.rows.items())
        # Parser first, Output last, the pipeline's elements between, as mlir-opt lists them.
        rows.sort(key=lambda kv: 0 if kv[0] == "Parser" else 2 if kv[0] == "Output" else 1)
        rest = [max(0.0, user - sum(r[0] for _, r in rows)), max(0.0, wall - sum(r[1] for _, r in rows))]

        def line(u: float, w: float, name: str) -> str:
            return f"  {_cell(u, user)}  {_cell(w, wall)}  {name}"

        out = [
            _RULE,
            "                         ... Execution time report ...",
            _RULE,
            f"  Total Execution Time: {wall:.4f} seconds",
            "",
            "  ----User Time----  ----Wall Time----  ----Name----",
        ]
        for key, (u, w, children) in rows:
            out.append(line(u, w, key[1] if isinstance(key, tuple) else key))
            for child, (cu, cw) in children.items():
                out.append(line(cu, cw, f"  {child}"))
        out.append(line(rest[0], rest[1], "Rest"))
        out.append(line(user, wall, "Total"))
        return "\n".join(out) + "\n"


def _cell(seconds: float, total: float) -> str:
    share = 100.0 * seconds / total if total > 0 else 0.0
    return f"{seconds:8.4f} ({share:5.1f}%)"


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


def cannot_read(path: str, e: OSError) -> str:
    """Why input `path` ('-': stdin) could not be read, for a tool's message."""
    if path == "-":
        return f"error: cannot read standard input: {e.strerror}"
    return f"could not open input file '{path}': {e.strerror}"


def read_input(path: str) -> str | bytes:
    """The bytes of input `path` ('-': stdin, or its text when stdin was
    replaced by a text stream); an OSError says why they cannot be read
    (`cannot_read` words it)."""
    if path == "-":
        return _stdin_data()
    with open(path, "rb") as f:
        return f.read()


def decoded_input(data: str | bytes, name: str) -> str | bytes:
    """Input `data` as text (bytes when it is MLIR bytecode), or a
    `DiagnosticError` at its first byte that is not UTF-8."""
    try:
        return data if isinstance(data, str) else _decoded(data)
    except UnicodeDecodeError:
        found = diag.undecodable(data, name)
        assert found is not None  # the strict decoder refused it, so does this one
        raise diag.DiagnosticError([found[0]], {name: found[1]}) from None


def _read_stdin() -> str | bytes:
    """stdin as strict UTF-8 with universal newlines, like a file opened with
    encoding="utf-8": sys.stdin itself may decode with surrogateescape and
    hand MLIR a str that cannot be encoded back."""
    data = _stdin_data()
    return data if isinstance(data, str) else _decoded(data)


def _stdin_data() -> str | bytes:
    """stdin's bytes, or its text when it was replaced by a text stream
    (in-process use)."""
    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))
    buffer = getattr(sys.stdin, "buffer", None)
    return sys.stdin.read() if buffer is None else buffer.read()
