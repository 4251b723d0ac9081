"""`--split-input-file` and `--verify-diagnostics` for `mesh-opt`, in the
same spirit as `mlir-opt`, so our lit tests can be written like upstream ones.

The module is plain text processing on purpose: it neither imports nor needs
MLIR, so the rules can be unit-tested on their own. `check` builds its results
with `mesh_dialect.ir.diagnostics.Diagnostic`, imported when it is called.

Typical driver loop::

    outputs, failures = [], []
    for chunk in split_input(text):
        diagnostics, output = run_pipeline(chunk, filename)   # line numbers are the file's own
        failures += check(parse_expectations(chunk, filename), diagnostics, filename)
        outputs.append(output)
    print(join_outputs(outputs), end="")

Directive syntax, one per line, written in a `//` comment::

    // expected-error {{text}}               diagnostic on this line
    // expected-warning@+N {{text}}          N lines below (`@-N`: N lines above)
    // expected-note@above {{text}}          previous line that has no directive
    // expected-remark@below {{text}}        next line that has no directive
    // expected-error@unknown {{text}}       diagnostic without a file location
    // expected-error-re {{id {{[0-9]+}}}}   `{{...}}` inside is a regex, the rest literal

The expected text must occur in the diagnostic's message (for `-re`, the
regex must match somewhere in it). `@above`/`@below` skip lines that hold
directives, like `mlir-opt`, so several directives can be stacked over or
under the line they describe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only; keeps this module free of the MLIR import
    from mesh_dialect.ir.diagnostics import Diagnostic

SPLIT_MARKER = "// -----"

# `expected-` right after `//`: the words after it decide whether it is a directive.
_DIRECTIVE = re.compile(r"//\s*(expected-[A-Za-z]+(?:-[A-Za-z]+)*)")
_KIND = re.compile(r"expected-(error|warning|note|remark)(-re)?")
_TAIL = re.compile(r"\s*(?:@(?P<loc>[^\s{]*))?\s*(?P<open>\{\{)?(?P<body>.*)")
_LOCATION = re.compile(r"[+-]\d+|above|below|unknown")


def split_input(text: str, marker: str = SPLIT_MARKER) -> list[str]:
    """Split `text` at lines consisting only of `marker` (surrounding blanks allowed).

    Every chunk starts with one newline per line that precedes it in `text`, so
    line N of a chunk is line N of the file and diagnostics need no remapping.
    The marker lines themselves belong to no chunk. A line that merely contains
    the marker next to other text, or `// ------` with extra dashes, is not a
    separator. Without any separator the result is `[text]`.
    """
    lines = text.split("\n")
    chunks: list[str] = []
    start = 0
    for index, line in enumerate(lines):
        if line.strip() == marker:
            chunks.append("\n" * start + "".join(f"{body}\n" for body in lines[start:index]))
            start = index + 1
    if not chunks:
        return [text]
    chunks.append("\n" * start + "\n".join(lines[start:]))
    return chunks


def join_outputs(outputs: Sequence[str], marker: str = SPLIT_MARKER) -> str:
    """Join per-chunk outputs with a `marker` line between them, as `mlir-opt
    --split-input-file` prints them, so FileCheck tests can anchor on it.

    An output that does not end in a newline gets one, so the marker always
    sits on its own line; empty outputs (failed chunks) are kept as empty.
    """
    pieces = [out if not out or out.endswith("\n") else out + "\n" for out in outputs[:-1]]
    return f"{marker}\n".join([*pieces, *outputs[-1:]])


@dataclass(frozen=True)
class Expectation:
    """One `expected-*` directive.

    `line`/`col` are where the directive itself is written (1-based; `col` is
    that of `expected-`), used to report it. `target_line` is the line the
    diagnostic must be on, or None for `@unknown` (no file location). A
    malformed directive has `error` set to its complaint and never matches.
    """

    severity: str
    text: str
    target_line: int | None
    filename: str
    line: int
    col: int
    is_regex: bool = False
    error: str | None = None
    pattern: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    def matches(self, severity: str, message: str) -> bool:
        """Whether a diagnostic with this severity and message satisfies us (location aside)."""
        if self.error is not None or severity != self.severity:
            return False
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


def parse_expectations(text: str, filename: str) -> list[Expectation]:
    """All `// expected-*` directives in `text`, in source order.

    Malformed directives are returned too, with `error` set (e.g. `malformed
    expected-error directive: missing '{{'`), rather than raised, so one run
    reports every problem; `check` turns them into error diagnostics at the
    directive's position. A comment starting with an unknown `expected-word`
    counts as a malformed directive only if it is followed by `{{`.
    """
    lines = text.split("\n")
    found: list[tuple[int, int, str, str]] = []
    for lineno, line in enumerate(lines, 1):
        match = _DIRECTIVE.search(line)
        if match is None:
            continue
        token, tail = match.group(1), line[match.end(1) :]
        if _KIND.fullmatch(token) is None and "{{" not in tail:
            continue  # prose such as `// expected-behaviour: ...`
        found.append((lineno, match.start(1) + 1, token, tail))
    directive_lines = {lineno for lineno, _, _, _ in found}
    num_lines = len(lines) - 1 if text.endswith("\n") else len(lines)  # no line after the final newline
    return [
        _parse_directive(token, tail, filename, lineno, col, num_lines, directive_lines)
        for lineno, col, token, tail in found
    ]


def _parse_directive(
    token: str, tail: str, filename: str, lineno: int, col: int, num_lines: int, directive_lines: set[int]
) -> Expectation:
    """Turn one directive into an Expectation, or into one carrying the reason it is malformed."""
    kind = _KIND.fullmatch(token)
    severity = kind.group(1) if kind else "error"
    is_regex = bool(kind and kind.group(2))

    def bad(why: str, text: str = "") -> Expectation:
        message = f"malformed {token} directive: {why}"
        return Expectation(severity, text, None, filename, lineno, col, is_regex, error=message)

    if kind is None:
        return bad("use expected-error, -warning, -note or -remark, optionally with -re")
    parts = _TAIL.fullmatch(tail)
    assert parts is not None  # the pattern accepts any single line
    loc, body = parts.group("loc"), parts.group("body").rstrip()
    if loc is not None and _LOCATION.fullmatch(loc) is None:
        return bad(f"unknown location '@{loc}' (use @+N, @-N, @above, @below or @unknown)")
    if parts.group("open") is None:
        return bad("missing '{{' before the expected message")
    if not body.endswith("}}"):
        return bad("missing '}}' at the end of the line")
    text = body[:-2].strip()

    target: int | None = lineno
    if loc == "unknown":
        target = None
    elif loc in ("above", "below"):
        step = -1 if loc == "above" else 1
        target = lineno + step
        while target in directive_lines:
            target += step
        if not 1 <= target <= num_lines:
            return bad(f"no line {loc} it that is not a directive itself", text)
    elif loc is not None:
        target = lineno + int(loc)
        if target < 1:
            return bad(f"'@{loc}' points before the first line", text)

    pattern = None
    if is_regex:
        try:
            pattern = _compile_mixed(text)
        except ValueError as exc:
            return bad(str(exc), text)
    return Expectation(severity, text, target, filename, lineno, col, is_regex, pattern=pattern)


def _compile_mixed(text: str) -> re.Pattern[str]:
    """Compile `-re` text: `{{...}}` groups are regexes, everything else is literal."""
    pieces: list[str] = []
    pos = 0
    while (start := text.find("{{", pos)) >= 0:
        end = text.find("}}", start + 2)
        if end < 0:
            raise ValueError(f"unterminated '{{{{' in regex text '{text}'")
        inner = text[start + 2 : end]
        try:
            re.compile(inner)
        except re.error as exc:
            raise ValueError(f"invalid regex '{inner}': {exc}") from None
        pieces += [re.escape(text[pos:start]), f"(?:{inner})"]
        pos = end + 2
    pieces.append(re.escape(text[pos:]))
    try:  # (each group compiles alone; together, a flag not in front or a group name used twice does not)
        return re.compile("".join(pieces))
    except re.error as exc:
        raise ValueError(f"invalid regex text '{text}': {exc.msg}") from None  # (positions in the joined text)


def _flatten(diagnostics: Iterable[Diagnostic], as_note: bool = False) -> Iterator[tuple[str, Diagnostic]]:
    """Each diagnostic, then its notes recursively; notes always count as severity "note"."""
    for diag in diagnostics:
        yield ("note" if as_note else diag.severity), diag
        yield from _flatten(diag.notes, as_note=True)


def _located(diag: Diagnostic) -> bool:
    return diag.filename is not None and diag.line > 0


def _fits(expectation: Expectation, severity: str, diag: Diagnostic, filename: str) -> bool:
    if expectation.target_line is None:
        where_ok = not _located(diag)
    else:
        where_ok = _located(diag) and diag.filename == filename and diag.line == expectation.target_line
    return where_ok and expectation.matches(severity, diag.message)


def _augment(produced: int, candidates: list[list[int]], owner: list[int | None], seen: set[int]) -> bool:
    """Kuhn's augmenting path: give `produced` an expectation, moving earlier matches if needed."""
    for index in candidates[produced]:
        if index in seen:
            continue
        seen.add(index)
        current = owner[index]
        if current is None or _augment(current, candidates, owner, seen):
            owner[index] = produced
            return True
    return False


def check(expectations: Sequence[Expectation], diagnostics: Sequence[Diagnostic], filename: str) -> list[Diagnostic]:
    """Compare the diagnostics a run produced for `filename` with its expectations.

    A diagnostic (or any of its notes, taken as severity "note") satisfies an
    expectation when the severity and line agree and the message contains the
    text (or matches the `-re` regex). Each expectation is used by at most one
    diagnostic and vice versa; the pairing is a maximum matching, so the result
    does not depend on the order in which overlapping directives are written.

    Returns severity-"error" diagnostics in source order, empty on success:
    `expected <severity> "<text>" was not produced` at the directive,
    `unexpected <severity>: <message>` at the diagnostic (filename None, line 0
    when it has no file location), and each malformed directive's complaint.
    """
    from mesh_dialect.ir.diagnostics import Diagnostic

    produced = list(_flatten(diagnostics))
    usable = [e for e in expectations if e.error is None]
    candidates = [[j for j, e in enumerate(usable) if _fits(e, sev, diag, filename)] for sev, diag in produced]
    owner: list[int | None] = [None] * len(usable)
    for index in range(len(produced)):
        _augment(index, candidates, owner, set())
    matched = {index for index in owner if index is not None}

    errors: list[Diagnostic] = []
    for e in expectations:
        if e.error is not None:
            errors.append(Diagnostic("error", e.error, e.filename, e.line, e.col))
    for e, who in zip(usable, owner, strict=True):
        if who is None:
            message = f'expected {e.severity} "{e.text}" was not produced'
            errors.append(Diagnostic("error", message, e.filename, e.line, e.col))
    for index, (sev, diag) in enumerate(produced):
        if index in matched:
            continue
        message = f"unexpected {sev}: {diag.message}"
        if _located(diag):
            errors.append(Diagnostic("error", message, diag.filename, diag.line, diag.col))
        else:
            errors.append(Diagnostic("error", message, None, 0, 0))

    def order(d: Diagnostic) -> tuple[int, str, int, int]:
        group = 0 if d.filename is None else 1 if d.filename == filename else 2
        return group, d.filename or "", d.line, d.col

    return sorted(errors, key=order)
