"""Parse and print modules that use the custom syntax of the `mesh` dialect."""

from __future__ import annotations

import re

from mlir import ir

from . import diagnostics as diag
from .dialect import load_dialect
from .syntax import Translation, to_custom, to_generic
from .text import LineIndex, MeshSyntaxError, scan_group

_ALIAS = re.compile(r"[#!][A-Za-z_][\w$.\-]*[ \t]*=")
_BLANKS = re.compile(r"(?:\s+|//[^\n]*)*")
_RESOURCES = re.compile(r"^\{-#", re.M)
_ALIAS_LINE = re.compile(r"[ \t]*(?:$|//|[#!][A-Za-z_][\w$.\-]*[ \t]*=)", re.M)


_PLAIN = re.compile(r'[^\n"(<\[{/]*')


def _alias_value_end(text: str, pos: int) -> int:
    """End of an alias's value: the end of its line, unless a bracket keeps
    it open; a trailing comment is not part of it."""
    n = len(text)
    while pos < n:
        pos = _PLAIN.match(text, pos).end()
        if pos >= n or text[pos] == "\n" or text.startswith("//", pos):
            break
        c = text[pos]
        if c == '"':
            close = text.find('"', pos + 1)
            pos = n if close < 0 else close + 1
        elif c == "/":
            pos += 1
        else:
            pos = scan_group(text, pos)
    return len(text[:pos].rstrip()) if pos <= n else n


def wrapper_insertions(text: str) -> dict[int, str]:
    """Where `module {` and its `}` go so that every top-level op sits in one
    module, as mlir-opt does: after the alias definitions that open the file
    (they must stay at the top level) and before those that close it (the
    `#loc` lines of printed debug info) and any `{-# ... #-}` resources.
    Both are placed inside existing lines, so no line moves."""
    header_end = 0
    pos = 0
    while True:
        p = _BLANKS.match(text, pos).end()
        m = _ALIAS.match(text, p)
        if not m:
            break
        header_end = pos = _alias_value_end(text, m.end())
    trailer = len(text)
    resources = _RESOURCES.search(text, header_end)
    if resources:
        trailer = resources.start()
    # Walk back over blank, comment and alias lines at the end.
    while trailer > header_end:
        line_start = text.rfind("\n", 0, max(trailer - 1, 0)) + 1
        if line_start < header_end or not _ALIAS_LINE.match(text, line_start):
            break
        trailer = line_start
    if trailer <= header_end:
        return {header_end: " module {}"} if header_end else {0: "module {}"}
    close = "}" if trailer < len(text) else "\n}"
    return {header_end: " module {" if header_end else "module {", trailer: close}
_translations: dict[str, Translation] = {}
"""The latest translation per source name, so that diagnostics emitted after
parsing (verifier, passes) map back to what the user wrote."""
_MAX_REMEMBERED = 64


def remap_position(filename: str | None, line: int, col: int) -> tuple[str | None, int, int]:
    """Map a position in generated text to the user's text."""
    t = _translations.get(filename or "")
    if t is None or line <= 0:
        return filename, line, col
    return (filename, *t.original_position(line, col))


def _remember(filename: str, translation: Translation) -> None:
    _translations.pop(filename, None)
    _translations[filename] = translation
    while len(_translations) > _MAX_REMEMBERED:
        _translations.pop(next(iter(_translations)))


MAX_NESTING = 1000
"""MLIR's recursive-descent parser overflows the C stack somewhere past ten
thousand nested brackets and takes the process down; refuse well before."""

_BRACKET = re.compile(r'->|[\[{(<]|[\]})>]|"(?:[^"\\\n]|\\.)*"|//[^\n]*')


def _too_deep(text: str) -> int | None:
    """Offset where bracket nesting (`[`, `{`, `(`, `<`) passes MAX_NESTING,
    or None. A quick count first; the careful scan skips strings, comments
    and the `>` of `->`."""
    if sum(text.count(c) for c in "[{(<") <= MAX_NESTING:
        return None
    depth = 0
    for m in _BRACKET.finditer(text):
        c = m.group(0)
        if c in ("[", "{", "(", "<"):
            depth += 1
            if depth > MAX_NESTING:
                return m.start()
        elif c in ("]", "}", ")", ">"):
            depth = max(depth - 1, 0)
    return None


def parse(
    text: str,
    *,
    filename: str = "<string>",
    context: ir.Context | None = None,
    verify: bool = True,
) -> ir.Operation:
    """Parse `text` (custom or generic syntax) into a `builtin.module`.

    Top-level ops other than a single module are wrapped in one, as
    `mlir-opt` does. Raises `DiagnosticError` with positions in `text`.
    """
    ctx = context or ir.Context.current
    if ctx is None:
        raise ValueError("parse needs an MLIR context: pass context=, or parse inside `with mesh_dialect.context():`")
    load_dialect(ctx)
    deep = _too_deep(text)
    if deep is not None:
        line, col = LineIndex(text).position(deep)
        raise diag.DiagnosticError(
            [diag.Diagnostic("error", f"brackets nest deeper than {MAX_NESTING} levels", filename, line, col)],
            {filename: text},
        )
    try:
        translation = to_generic(text, insertions=wrapper_insertions(text))
    except MeshSyntaxError as e:
        line, col = LineIndex(text).position(e.offset)
        raise diag.DiagnosticError(
            [diag.Diagnostic("error", e.message, filename, line, col)], {filename: text}
        ) from None
    _remember(filename, translation)
    generic = translation.generic
    try:
        outer = ir.Operation.parse(generic, source_name=filename, context=ctx)
    except ir.MLIRError as e:
        diags = [diag.convert(d, remap_position, diag.not_op_dump) for d in e.error_diagnostics]
        raise diag.DiagnosticError(diags, {filename: text}) from None
    module = _unwrap(outer.operation)
    if verify:
        from .verifier import verify as verify_semantics

        errors = verify_semantics(module)
        if errors:
            raise diag.DiagnosticError(errors, {filename: text})
    return module


def _unwrap(outer: ir.Operation) -> ir.Operation:
    """Return the user's module when the text held exactly one."""
    first = None
    count = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal first, count
        if op is outer or op == outer:
            return ir.WalkResult.ADVANCE
        count += 1
        if first is None:
            first = op
        return ir.WalkResult.SKIP

    outer.walk(visit, ir.WalkOrder.PRE_ORDER)
    if count == 1 and first.name == "builtin.module":
        first.detach_from_parent()
        return first
    return outer


def print_ir(
    op: ir.Operation | ir.OpView,
    *,
    generic: bool = False,
    debug_info: bool = False,
    assume_verified: bool = True,
) -> str:
    """Print `op` with `mesh` ops in their custom syntax (or all generic)."""
    op = op.operation if hasattr(op, "operation") else op
    text = op.get_asm(
        print_generic_op_form=generic,
        enable_debug_info=debug_info,
        assume_verified=assume_verified,
    )
    return to_custom(text, generic=generic)
