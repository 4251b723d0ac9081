"""Diagnostics as plain data, so the parser, the verifier, the passes and the
CLI report them one way: `file:line:col: error: message`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from mlir import ir

from .text import unescape_string_body

_SEVERITY = {
    ir.DiagnosticSeverity.ERROR: "error",
    ir.DiagnosticSeverity.WARNING: "warning",
    ir.DiagnosticSeverity.NOTE: "note",
    ir.DiagnosticSeverity.REMARK: "remark",
}


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    message: str
    filename: str | None = None
    line: int = 0
    col: int = 0
    notes: tuple[Diagnostic, ...] = ()

    def format(self, sources: dict[str, str] | None = None) -> str:
        """mlir-opt's layout: the position, the message, the source line and
        a caret under the column; then the notes."""
        where = f"{self.filename}:{self.line}:{self.col}: " if self.filename else ""
        text = f"{where}{self.severity}: {self.message}"
        src = (sources or {}).get(self.filename or "")
        if src is not None and self.line > 0:
            lines = src.split("\n")
            if self.line <= len(lines):
                source_line = lines[self.line - 1]
                caret = len(source_line[: max(self.col - 1, 0)].expandtabs())
                text += f"\n{source_line.expandtabs()}\n{' ' * caret}^"
        for note in self.notes:
            text += "\n" + note.format(sources)
        return text


class DiagnosticError(Exception):
    """Raised by the Python API when parsing, verifying or a pass fails."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__("\n".join(d.format(self.sources) for d in diagnostics))


def undecodable(data: bytes, filename: str) -> tuple[Diagnostic, str] | None:
    """The error for input that is not UTF-8, at its first invalid byte, and
    the text to quote under it (invalid bytes shown as U+FFFD); None when
    `data` decodes.  Lines end at LF, CRLF or CR, as the parser reads them
    (universal newlines); the column counts the characters before the byte
    on its line, as this project's other diagnostics do (mlir-opt counts
    bytes)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        bad = " ".join(f"0x{b:02x}" for b in data[e.start : e.end])
        message = f"input must be UTF-8 text: {e.reason} {bad} (byte {e.start} of the input)"
        quoted = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
        return Diagnostic("error", message, filename, line, col), quoted
    return None


def file_position(loc: ir.Location) -> tuple[str | None, int, int]:
    """The first file:line:col inside a location (name, call-site and fused
    locations wrap one)."""
    try:
        if loc.is_a_file():
            return _file_name(loc), loc.start_line, loc.start_col
        if loc.is_a_name():
            return file_position(loc.child_loc)
        if loc.is_a_callsite():
            return file_position(loc.callee)
        if loc.is_a_fused():
            for inner in loc.locations:
                found = file_position(inner)
                if found[0] is not None:
                    return found
    except (AttributeError, ValueError, RuntimeError):  # pragma: no cover - exotic locations
        pass
    return None, 0, 0


_PRINTED_FILE = re.compile(r'loc\("((?:[^"\\]|\\.)*)"')


def _file_name(loc: ir.Location) -> str:
    """A file location's name, read from its printed form: the bindings'
    `filename` aborts the process on a name that is not UTF-8, where the
    printer escapes its bytes (`\\XX`); such bytes read as U+FFFD here."""
    m = _PRINTED_FILE.match(str(loc))
    found = None if m is None else unescape_string_body(m.group(1))
    return "-" if found is None else found.decode("utf-8", errors="replace")


def text_refused(e: BaseException) -> bool:
    """Whether `e` is the bindings refusing to hand a name or string that is
    not UTF-8 to Python as a `str` (MLIR accepts any bytes there)."""
    return isinstance(e, UnicodeDecodeError) or (isinstance(e, RuntimeError) and "str_from_cstr_and_size" in str(e))


_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _utf8(printed: str) -> bool:
    """Whether every string literal in a printed attribute is UTF-8 once
    unescaped (the printer escapes every byte outside ASCII)."""
    return non_utf8_string(printed) is None


def non_utf8_string(text: str) -> tuple[int, str] | None:
    """(offset, literal) of the first string literal in `text` whose
    escapes spell bytes that are not UTF-8 (`"f\\ff"`); None when there is
    none."""
    for m in _QUOTED.finditer(text):
        body = unescape_string_body(m.group(1))
        try:
            (body or b"").decode("utf-8")
        except UnicodeDecodeError:
            return m.start(), m.group(0)
    return None


def non_utf8_attribute(root: ir.Operation) -> tuple[ir.Operation, str] | None:
    """The first op under `root` (itself included) with an attribute whose
    name, or a string or symbol inside whose value, is not UTF-8, and the
    words for it (`attribute 'sym_name' = "f\\FF"`); None when there is
    none.  Slow (it prints every attribute): for an error path only."""
    found: list[tuple[ir.Operation, str]] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        attributes = op.attributes
        for i in range(len(attributes)):
            named = attributes[i]
            printed = str(named.attr)
            try:
                name = named.name
            except (RuntimeError, UnicodeDecodeError):
                found.append((op, f"an attribute's name (its value {printed})"))
                return ir.WalkResult.INTERRUPT
            if not _utf8(printed):
                found.append((op, f"attribute '{name}' = {printed}"))
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found[0] if found else None


def non_utf8_message(reader: str, what: str) -> str:
    """The words for `what` (`non_utf8_attribute`'s) that `reader` refused:
    one wording for every tool and pass."""
    return f"names and strings must be UTF-8 for {reader} to read them, got {what}"


@contextmanager
def refusing_non_utf8(roots: Iterable[ir.Operation], reader: str, sources: dict[str, str]) -> Iterator[None]:
    """Turn the bindings' refusal of a name or string that is not UTF-8
    (`text_refused`) into a DiagnosticError at the first op under `roots`
    holding one, worded for `reader`; any other exception, or one whose
    culprit is not found, goes on.  `roots` is read only then (a list the
    body fills works)."""
    from .asm import remap_location  # (asm reads this module)

    try:
        yield
    except (RuntimeError, UnicodeDecodeError) as e:
        found = next(filter(None, map(non_utf8_attribute, roots)), None) if text_refused(e) else None
        if found is None:
            raise
        name, line, col = remap_location(found[0].location)
        diagnostic = Diagnostic("error", non_utf8_message(reader, found[1]), name, line, col)
        raise DiagnosticError([diagnostic], sources) from None


def not_op_dump(message: str) -> bool:
    """False for the note MLIR attaches with the failing op in generic form:
    it repeats the error in a spelling the user did not write."""
    return not message.startswith("see current operation:")


Remap = Callable[[str | None, int, int], tuple[str | None, int, int]]


def _identity(filename: str | None, line: int, col: int) -> tuple[str | None, int, int]:
    return filename, line, col


def convert(diag, remap: Remap = _identity, note_filter: Callable[[str], bool] | None = None) -> Diagnostic:
    """Turn an `ir.Diagnostic` (or `ir.DiagnosticInfo`) into a `Diagnostic`."""
    filename, line, col = remap(*file_position(diag.location))
    notes = tuple(convert(n, remap, note_filter) for n in diag.notes if note_filter is None or note_filter(n.message))
    return Diagnostic(_SEVERITY.get(diag.severity, "error"), diag.message, filename, line, col, notes)


@contextmanager
def collect(context: ir.Context, sink: list, remap: Remap = _identity) -> Iterator[list]:
    """Collect every diagnostic emitted in `context` while the block runs."""

    def handler(d) -> bool:
        try:
            sink.append(convert(d, remap))
        except Exception:  # noqa: BLE001 - a handler must never raise into C++
            sink.append(Diagnostic("error", str(getattr(d, "message", d))))
        return True

    h = context.attach_diagnostic_handler(handler)
    try:
        yield sink
    finally:
        h.detach()
