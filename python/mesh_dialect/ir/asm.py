"""Parse and print modules that use the custom syntax of the `mesh` dialect."""

from __future__ import annotations

import bisect
import dataclasses
import functools
import os
import re
import shutil
import tempfile
import weakref

from mlir import ir
from mlir.passmanager import PassManager

from . import diagnostics as diag
from .dialect import load_dialect
from .syntax import Translation, to_custom, to_generic, untranslated_op_error
from .text import LineIndex, MeshSyntaxError, scan_balanced, scan_group, split_top_level

_ALIAS = re.compile(r"[#!][A-Za-z_][\w$.\-]*[ \t]*=")
_BLANKS = re.compile(r"(?:\s+|//[^\n]*)*")
_ALIAS_LINE = re.compile(r"[ \t]*(?:$|//|[#!][A-Za-z_][\w$.\-]*[ \t]*=)", re.M)


_PLAIN = re.compile(r'[^\n"(<\[{/]*')


_OP_AFTER_VALUE = re.compile(r'(?<=\s)(?:%|[A-Za-z_][\w$]*\.[\w$.]|"[^"\n]*"[ \t]*\()')
"""An op on the line of an alias (`#a = 1 mesh.mesh @m(...)`): no attribute
value has `%`, a bare dotted word or a quoted name called like an op."""


def _alias_value_end(text: str, pos: int) -> int:
    """End of an alias's value: the end of its line, unless a bracket keeps
    it open or an op starts on the same line; a trailing comment is not part
    of it."""
    n = len(text)
    while pos < n:
        run_end = _PLAIN.match(text, pos).end()
        op = _OP_AFTER_VALUE.search(text, pos, run_end + 1 if text.startswith('"', run_end) else run_end)
        if op is None and text.startswith('"', run_end):
            op = _OP_AFTER_VALUE.match(text, run_end)
        if op is not None:
            pos = op.start()
            break
        pos = run_end
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


def _resources_start(text: str, pos: int) -> int:
    """Where the first line from `pos` on that starts with `{-#` starts,
    or the text's end: found by C-level `find` (a regex for a line start
    steps through every character of a large module)."""
    at = text.find("{-#", pos)
    while at > 0 and text[at - 1] != "\n":
        at = text.find("{-#", at + 1)
    return len(text) if at < 0 else at


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
    trailer = _resources_start(text, header_end)
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


_LINE_ALIAS = re.compile(r"\n[ \t]*([#!][A-Za-z_][\w$.\-]*[ \t]*=)")
_NOT_NEWLINE = re.compile(r"[^\n]")


def _aliases_between_ops(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each alias definition in `text[start:end]` that opens
    a line outside every bracket: one written between two top-level ops,
    which mlir-opt takes but which would land inside the wrapping module.
    Brackets are counted only when such a line exists (a large module
    usually has none)."""
    spans: list[tuple[int, int]] = []
    depth = 0
    counted = start
    for m in _LINE_ALIAS.finditer(text, start, end):
        at = m.start(1)
        if at < counted:
            continue  # inside the value of the alias before it
        code = _STRING_OR_COMMENT.sub(" ", text[counted:at])
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        counted = at
        if depth == 0:
            counted = _alias_value_end(text, m.end(1))
            spans.append((at, counted))
    return spans


@dataclasses.dataclass
class _HoistedTranslation(Translation):
    """A translation whose wrapping `module {` comes after copies of the
    aliases written between top-level ops (`_hoist_aliases`): positions in
    a copy map back to where the user wrote the alias."""

    at: int = 0
    """The offset of the user's text where the insertion that holds the copies goes."""
    inserted: str = ""
    moved: list[tuple[int, int, Translation]] = dataclasses.field(default_factory=list)
    """(offset in `inserted`, offset of the alias in the user's text, the
    alias's own translation) per copy."""

    @functools.cached_property
    def _inserted_at(self) -> int:
        """Where `inserted` starts in the generic text (-1: not found)."""
        gen, orig = self.offsets.gen, self.offsets.orig
        for i in range(bisect.bisect_left(orig, self.at), len(orig) - 1):
            if orig[i] != self.at:
                break
            if gen[i + 1] - gen[i] == len(self.inserted) and self.generic.startswith(self.inserted, gen[i]):
                return gen[i]
        return self.generic.find(self.inserted)

    def original_position(self, line: int, col: int) -> tuple[int, int]:
        start = self.generic_lines.offset(line, 1)
        end = self.generic.find("\n", start)
        raw = self.generic[start : len(self.generic) if end < 0 else end].encode("utf-8")
        off = self.generic_lines.offset(line, len(raw[: max(col - 1, 0)].decode("utf-8", errors="ignore")) + 1)
        inside = off - self._inserted_at
        if self._inserted_at >= 0 and 0 <= inside < len(self.inserted):
            for rel, source_at, alias in self.moved:
                if rel <= inside < rel + len(alias.generic):
                    return self.source_lines.position(source_at + alias.offsets.to_original(inside - rel))
        return super().original_position(line, col)


def _refuse_early_uses(text: str, start: int, spans: list[tuple[int, int]]) -> None:
    """MLIR reads an alias only after its definition: a use of a moved
    alias before the place it was written is the error mlir-opt gives
    there, not an alias the copy defines in time."""
    leading = {m.group(0).rstrip(" \t=") for m in _ALIAS.finditer(text, 0, start)}
    defined = {_ALIAS.match(text, s).group(0).rstrip(" \t="): s for s, _ in reversed(spans)}
    defined = {name: s for name, s in defined.items() if name not in leading}  # a redefinition, left to MLIR
    if not defined:
        return
    code = _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group(0)), text[start : spans[-1][0]])
    names = "|".join(re.escape(name) for name in sorted(defined, key=len, reverse=True))
    for m in re.finditer(rf"(?:{names})(?![\w$.\-])", code):
        if start + m.start() < defined[m.group(0)]:
            # (where MLIR reports it: just after the name)
            raise MeshSyntaxError(start + m.end(), f"undefined symbol alias id '{m.group(0)[1:]}'")


def _hoist_aliases(
    text: str, insertions: dict[int, str]
) -> tuple[str, dict[int, str], list[tuple[int, int, Translation]]]:
    """Aliases between top-level ops moved out of the wrapping module, as
    MLIR takes them only at the top level: each is blanked where it is
    (lines and columns stay) and its generic form, on one line, goes into
    the insertion that opens the module. Returns the text to translate,
    the insertions and the copies (see `_HoistedTranslation.moved`)."""
    if len(insertions) < 2:
        return text, insertions, []
    at, trailer = min(insertions), max(insertions)
    spans = _aliases_between_ops(text, at, trailer)
    if not spans:
        return text, insertions, []
    _refuse_early_uses(text, at, spans)
    pieces: list[str] = []
    copies: list[str] = []
    moved: list[tuple[int, int, Translation]] = []
    length = 0
    prev = 0
    for start, end in spans:
        # comments blanked and lines joined: the copy is as long as the alias
        flat = _blank_comments(text[start:end]).replace("\n", " ").replace("\r", " ")
        try:
            alias = to_generic(flat)
        except MeshSyntaxError as e:
            raise MeshSyntaxError(start + e.offset, e.message) from None
        copies.append(" " + alias.generic.replace("\n", " "))
        moved.append((length + 1, start, alias))
        length += len(copies[-1])
        pieces += [text[prev:start], _NOT_NEWLINE.sub(" ", text[start:end])]
        prev = end
    pieces.append(text[prev:])
    inserted = "".join(copies) + " " + insertions[at].lstrip()
    return "".join(pieces), {**insertions, at: inserted}, moved


_translations: dict[tuple[int, str], tuple[weakref.ref, Translation]] = {}
"""The latest translation per context and source name, so that diagnostics
emitted after parsing (verifier, passes) and printed locations map back to
what the user wrote.  Keyed by context: a parse in another context must not
move the positions of this one's modules.  (Two modules parsed in one
context under one name share the latest translation.)"""
_MAX_REMEMBERED = 64


def remap_position(filename: str | None, line: int, col: int, context: ir.Context) -> tuple[str | None, int, int]:
    """Map a position in generated text to the user's text; `context` is
    the one the position's op lives in."""
    entry = _translations.get((id(context), filename or ""))
    t = entry[1] if entry is not None and entry[0]() is context else None
    if t is None or line <= 0:
        return filename, line, col
    return (filename, *t.original_position(line, col))


def remap_location(loc: ir.Location) -> tuple[str | None, int, int]:
    """The user's (file, line, column) of a location (`remap_position` in
    the location's context)."""
    return remap_position(*diag.file_position(loc), context=loc.context)


def remapper(context: ir.Context) -> diag.Remap:
    """`remap_position` for positions of `context` (for `diag.convert`)."""

    def remap(filename: str | None, line: int, col: int) -> tuple[str | None, int, int]:
        return remap_position(filename, line, col, context)

    return remap


def _remember(filename: str, translation: Translation, context: ir.Context) -> None:
    key = (id(context), filename)
    _translations.pop(key, None)
    _translations[key] = (weakref.ref(context), translation)
    while len(_translations) > _MAX_REMEMBERED:
        _translations.pop(next(iter(_translations)))


MAX_NESTING = 1000
"""MLIR's recursive-descent parser overflows the C stack somewhere past ten
thousand nested brackets (or unary minus signs) and takes the process down;
refuse well before."""

_OPEN_STRING = r'"(?:[^"\\\n]|\\.)*'
"""A string literal up to its closing quote (a line ends an unclosed one)."""
_STRING = _OPEN_STRING + '"'

_DEPTH_TOKEN = re.compile(_STRING + r'|//[^\n]*|->|[\[{(<\]})>"-]')
_OPENER_OF = {")": "(", "]": "[", "}": "{", ">": "<"}


_STRING_OR_COMMENT = re.compile(_STRING + r"|//[^\n]*")
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}()<>")))
_STRAY_CLOSERS = re.compile(rb"(?<=\()[\]}>]+|(?<=\[)[)}>]+|(?<=\{)[)\]>]+|(?<=<)[)\]}]+")


def _shallow(text: str, extra: int, bound: int) -> bool:
    """Whether `nesting(text, extra)` is certainly at most `bound`, found
    with string operations that run in C (a large module has millions of
    brackets, too many to walk one by one in Python).

    Strings and comments go (a blank in their place, so that no `->` forms);
    `->` closes nothing; each `-` left may add a level. Of the brackets,
    adjacent pairs `()`, `[]`, `{}`, `<>` are removed, round after round,
    and so are closers right after an opener they do not close and closers
    with nothing open (`nesting` ignores both). A bracket removed in the
    k-th replacement that changed the text encloses at most k-1 removed
    ones, so the levels are at most the replacements that changed the text
    plus the openers left."""
    if '"' in text or "//" in text:
        text = _STRING_OR_COMMENT.sub(" ", text)
    text = text.replace("->", "  ")
    levels = extra + text.count("-")
    brackets = text.encode("utf-8", "ignore").translate(None, _NOT_BRACKET)
    for _ in range(64):
        size = len(brackets)
        for pair in (b"()", b"[]", b"{}", b"<>"):
            reduced = brackets.replace(pair, b"")
            if len(reduced) != len(brackets):
                levels += 1
                brackets = reduced
        brackets = _STRAY_CLOSERS.sub(b"", brackets).lstrip(b")]}>")
        if levels > bound:
            return False
        if len(brackets) == size:
            return levels + len(brackets) <= bound
    return False


def nesting(text: str, extra: int = 0, limit: int = MAX_NESTING) -> tuple[int, int]:
    """How deep MLIR's parser will recurse on `text`, as (depth, offset where
    it is first reached), stopping at the first offset past `limit`.

    Every `[`, `{`, `(` and `<` opens a level, closed only by its own
    bracket: a `>` with no `<` on top (the `>` of `>=` in an integer set, of
    `->`) closes nothing, so no text can hide levels. A run of `-` signs
    (affine unary minus, recursive in MLIR too) adds one level per sign on
    top of the brackets. Strings and comments are skipped. `extra` counts
    levels added around the text (the `module {` that wraps it)."""
    bound = limit // 4
    # The count over the first few lines alone is often past the bound.
    over = sum(text.count(c, 0, 4096) for c in "[{(<-") + extra > bound
    if (not over and sum(text.count(c) for c in "[{(<-") + extra <= bound) or _shallow(text, extra, bound):
        return extra, 0  # cheap and certain: not even a quarter of the limit
    return _walk(text, extra, limit)


def _walk(text: str, extra: int, limit: int) -> tuple[int, int]:
    """`nesting` token by token."""
    stack: list[str] = []
    minus = 0
    minus_end = 0
    deepest, where = extra, 0
    for m in _DEPTH_TOKEN.finditer(text):
        c = m.group(0)
        if minus and minus_end != m.start() and not text[minus_end : m.start()].isspace():
            minus = 0  # an operand ended the run of signs
        if c == "-":
            minus += 1
            minus_end = m.end()
        elif c in "[{(<":
            stack.append(c)
            minus_end = m.end()  # `-(-(` is still one run of signs
        else:
            minus = 0
            if c in _OPENER_OF and stack and stack[-1] == _OPENER_OF[c]:
                stack.pop()
            continue
        depth = len(stack) + minus + extra
        if depth > deepest:
            deepest, where = depth, m.start()
            if depth > limit:
                break
    return deepest, where


_SKIPPED = _STRING + r"|//[^\n]*|"
"""Strings and comments: an op name inside them is not an op."""


def _ops_in_code(pattern: re.Pattern, text: str):
    """Matches of `pattern` (compiled as `_SKIPPED` + an op name) outside
    strings and comments."""
    for m in pattern.finditer(text):
        if m.group(0)[0] not in '"/':
            yield m


_TRAP_SCAN = re.compile(_SKIPPED + r"(?<![\w$.%@#^!])linalg\.generic(?=\s*\{)")
_ITERATOR_TYPES = re.compile(r"\biterator_types\s*=\s*\[")
_STRING_ITEM = re.compile(_STRING + r"\Z")


def _upstream_trap(text: str) -> tuple[int, str] | None:
    """Input that MLIR's own parsers crash on (an assertion, in mlir-opt
    too) rather than report: (offset, message) for the first, or None.

    `linalg.generic {iterator_types = [...]}` in custom syntax casts every
    element to a string without checking."""
    if "linalg.generic" not in text:
        return None
    for m in _ops_in_code(_TRAP_SCAN, text):
        open_at = text.index("{", m.end())
        close_at = scan_group(text, open_at)
        found = _ITERATOR_TYPES.search(text, open_at, close_at)
        if not found:
            continue
        end = scan_group(text, found.end() - 1) - 1
        pos = found.end()
        while pos < end:
            start = _BLANKS.match(text, pos).end()
            stop = min(scan_balanced(text, start), end)
            item = text[start:stop].strip()
            if item and not _STRING_ITEM.match(item):
                return start, f"'linalg.generic' iterator type must be a string such as \"parallel\", got {item[:40]}"
            pos = stop + 1
    return None


_LIST_OPS = re.compile(_SKIPPED + r"(?<![\w$.%@#^!])linalg\.(?:reduce|transpose|broadcast)\b")
_LIST_KEYWORD = re.compile(r"\b(dimensions|permutation)\s*=\s*(\[?)")
_NEXT_OP = re.compile(r"\n\s*(?:%|\^|\}|\"|[A-Za-z_][\w$]*\.[\w$.]+|return\b)")
_INTEGER = r"\s*-?(?:0x[0-9A-Fa-f]+|\d+)\s*"
_FLAT_INTEGERS = re.compile(rf"\[(?:{_INTEGER}(?:,{_INTEGER})*|\s*)\]")


_LIST_ITEM = re.compile(r"-?(?:0x[0-9A-Fa-f]+|\d+)")
_I64 = (-(2**63), 2**63 - 1)


def _flat_list_trap(text: str) -> tuple[int, str] | None:
    """`linalg.reduce`/`broadcast` `dimensions = [...]` and `linalg.transpose`
    `permutation = [...]` in custom syntax: MLIR's parser turns a list that
    fails to parse there (a nested list, a bracket that does not match, an
    integer past 64 bits) into a null attribute and aborts (mlir-opt too)."""
    if "dimensions" not in text and "permutation" not in text:
        return None
    for m in _ops_in_code(_LIST_OPS, text):
        stop_at = _NEXT_OP.search(text, m.end())
        stop = stop_at.start() if stop_at else len(text)
        found = _LIST_KEYWORD.search(text, m.end(), stop)
        if not found:
            continue
        if not found.group(2):
            return found.end(), f"'{m.group(0)}' {found.group(1)} must be a list of integers such as [0, 1]"
        open_at = found.end() - 1
        group = text[open_at : scan_group(text, open_at)]
        if not _FLAT_INTEGERS.fullmatch(_blank_comments(group)):
            # (a group not closed by its `]`, as `[1 )]`, ends where a
            # bracket did not match: shown to the end of its line)
            shown = group if group.endswith("]") else text[open_at:].split("\n", 1)[0]
            return open_at, f"'{m.group(0)}' {found.group(1)} must be a flat list of integers, got {shown[:40]}"
        for item in _LIST_ITEM.finditer(_blank_comments(group)):
            literal = item.group(0)
            # (base 16 or 10 by its prefix: `int(x, 0)` refuses the leading zeros MLIR reads, as `01`)
            value = int(literal, 16 if "x" in literal else 10)
            if not _I64[0] <= value <= _I64[1]:
                return open_at + item.start(), (
                    f"'{m.group(0)}' {found.group(1)} must be 64-bit integers, got {literal[:40]}"
                )
    return None


_TYPED_OPS = re.compile(_SKIPPED + r"(?<![\w$.%@#^!])linalg\.(max|min|powf)\b(?=\s*ins\s*\()")
_NOT_FLOAT = re.compile(r"(?:^|[\sx<,(])(?:[su]?i\d+|index)\b|complex<")


def _element_type_trap(text: str) -> tuple[int, str] | None:
    """`linalg.max`/`min` on complex elements and `linalg.powf` on anything
    but floats: their region builders assert in MLIR's parser (mlir-opt
    aborts too) instead of reporting."""
    if "linalg.max" not in text and "linalg.min" not in text and "linalg.powf" not in text:
        return None
    for m in _ops_in_code(_TYPED_OPS, text):
        open_at = text.index("(", m.end())
        group = text[open_at : scan_group(text, open_at)]
        types = group.split(":", 1)[1] if ":" in group else ""
        name = m.group(1)
        if name in ("max", "min") and "complex<" in types:
            return m.start(), f"'linalg.{name}' is not defined on complex elements, got{types.rstrip(')')}"
        if name == "powf" and _NOT_FLOAT.search(types):
            return m.start(), f"'linalg.powf' needs float elements, got{types.rstrip(')')}"
    return None


_RESHAPE_OPS = re.compile(_SKIPPED + r'(?<![\w$.%@#^!])(?:tensor|memref)\.(?:expand_shape|collapse_shape)\b(?!")')
_EMPTY_GROUP = re.compile(r"\[\s*\]")
_NEGATIVE_ITEM = re.compile(r"(?<=[\[,])\s*-\s*\d+")
_ITEM = re.compile(r"(?<=[\[,])\s*(\d+)")
_INDEX_LIMIT = 2**31
"""Reassociation indices at or past it wrap in MLIR's parser, which keeps
them in 32 bits: 2^32 - 1 becomes -1 (an invalid affine map: an abort),
2^32 becomes 0 (an error about the wrong index)."""


def _blank_comments(text: str) -> str:
    """`text` with its comments blanked (offsets kept): brackets and numbers
    in a comment are not code."""
    return _STRING_OR_COMMENT.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else " " * len(m.group(0)), text)


def _reassociation_trap(text: str) -> tuple[int, str] | None:
    """An empty reassociation group, or a negative index in one, or one
    that wraps 32 bits (`_INDEX_LIMIT`), in `expand_shape`/`collapse_shape`
    custom syntax: MLIR's parser builds an invalid affine map from it and
    asserts (mlir-opt aborts too)."""
    if "_shape" not in text:
        return None
    for m in _ops_in_code(_RESHAPE_OPS, text):
        open_at = text.find("[", m.end())
        stop_at = _NEXT_OP.search(text, m.end())
        if open_at < 0 or (stop_at and open_at > stop_at.start()):
            continue
        code = _blank_comments(text[open_at:])
        groups = code[: scan_group(code, 0)]
        empty = _EMPTY_GROUP.search(groups, 1)
        if empty is not None and empty.end() < len(groups):
            return open_at + empty.start(), f"'{m.group(0)}' reassociation groups must not be empty, got {groups[:60]}"
        negative = _NEGATIVE_ITEM.search(groups, 1)
        if negative is not None:
            index = "".join(negative.group(0).split())
            where = open_at + negative.start() + len(negative.group(0)) - len(negative.group(0).lstrip())
            return where, f"'{m.group(0)}' reassociation indices must not be negative, got {index}"
        large = next((item for item in _ITEM.finditer(groups, 1) if int(item.group(1)) >= _INDEX_LIMIT), None)
        if large is not None:
            index = large.group(1)
            return open_at + large.start(1), f"'{m.group(0)}' reassociation indices must be below 2^31, got {index}"
    return None


_PAD_CUSTOM = re.compile(_SKIPPED + r'(?<![\w$.%@#^!])tensor\.pad\b(?!")')
_PAD_GENERIC = re.compile(r'//[^\n]*|"tensor\.pad"(?=\s*\()|' + _STRING)
_PAD_LIST = re.compile(r"\b(low|high)\s*(?=\[)")
_PAD_PROPERTY = re.compile(r"\bstatic_(low|high)\s*=\s*array<i64\s*(?::([^>]*))?>")
_SOURCE_DIMS = re.compile(r"\s*:\s*\(?\s*tensor<((?:[?\d]+\s*x\s*)*)")


def _pad_trap(text: str) -> tuple[int, str] | None:
    """A `tensor.pad` whose static low and high pads take a static source
    dimension below 0 (`high[-9]` on 4 rows; the sum wraps 64 bits as MLIR
    adds it): MLIR infers the result type with that size and asserts, in
    the custom syntax's parser and in the verifier of the generic form
    (mlir-opt aborts too)."""
    if "tensor.pad" not in text:
        return None
    for m in _ops_in_code(_PAD_CUSTOM, text):
        pads: dict[str, list[int | None]] = {}
        pos = m.end()
        for _ in range(2):
            stop = _NEXT_OP.search(text, pos)
            found = _PAD_LIST.search(text, pos, stop.start() if stop else len(text))
            if found is None:
                break
            end = scan_group(text, found.end())
            pads[found.group(1)] = _pad_items(text[found.end() + 1 : end - 1])
            pos = end
        source = _after_groups(text, pos, "{")
        why = _negative_pad(pads, source)
        if why is not None:
            return m.start(), f"'tensor.pad' {why}"
    for m in _PAD_GENERIC.finditer(text):
        if m.group(0) != '"tensor.pad"':
            continue
        pos = scan_group(text, _BLANKS.match(text, m.end()).end())  # the operands
        pads = {}
        at = _BLANKS.match(text, pos).end()
        for group_open in ("<", "(", "{"):  # properties, the region, attributes
            if text.startswith(group_open, at):
                end = scan_group(text, at)
                if group_open != "(":
                    for prop in _PAD_PROPERTY.finditer(text, at, end):
                        pads[prop.group(1)] = _pad_items(prop.group(2) or "")
                at = _BLANKS.match(text, end).end()
        why = _negative_pad(pads, _SOURCE_DIMS.match(text, at))
        if why is not None:
            return m.start(), f"'tensor.pad' {why}"
    return None


def _pad_items(listed: str) -> list[int | None]:
    """A pad list's entries (None: an SSA value, or not an integer)."""
    out: list[int | None] = []
    for item in _blank_comments(listed).split(","):
        item = item.strip()
        if not item:
            continue
        out.append(int(item) if re.fullmatch(r"-?\d+", item) else None)
    return out


def _after_groups(text: str, pos: int, opener: str) -> re.Match | None:
    """The source type's dimensions (`_SOURCE_DIMS`) after the groups
    opening with `opener` from `pos` on (a pad's region and attributes)."""
    at = _BLANKS.match(text, pos).end()
    while text.startswith(opener, at):
        at = _BLANKS.match(text, scan_group(text, at)).end()
    return _SOURCE_DIMS.match(text, at)


def _negative_pad(pads: dict[str, list[int | None]], source: re.Match | None) -> str | None:
    """Why `pads` (static low and high entries) give a static source
    dimension a negative size, or None."""
    if source is None or "low" not in pads or "high" not in pads:
        return None
    dims = [None if d.strip() == "?" else int(d) for d in source.group(1).split("x")[:-1]]
    low, high = pads["low"], pads["high"]
    if not len(dims) == len(low) == len(high):
        return None  # MLIR reports the mismatch
    for d, (n, lo, hi) in enumerate(zip(dims, low, high)):
        if n is None or lo is None or hi is None:
            continue
        total = (n + lo + hi + 2**63) % 2**64 - 2**63  # as MLIR adds in 64 bits
        if total < 0 and total != -(2**63):
            return f"result dimension {d} must not be negative, got {n} + {lo} + {hi} = {total}"
    return None


_METADATA_SCAN = re.compile(_SKIPPED + r"\{-#")
_METADATA_TOKEN = re.compile(r"#-\}|[{}:,]|" + _OPEN_STRING + r'"?|[^\s{}:,"]+')
_ZERO_ALIGNED_BLOB = re.compile(r'"0x0{8}(?:[0-9A-Fa-f]{2})+"')
_RESOURCE_VALUE = re.compile(_STRING + r"|[A-Za-z_][\w$.\-]*")


_RESULT_USE = re.compile(_SKIPPED + r"(%[\w$.-]+)#(\d+)")
_RESULT_NUMBER = re.compile(r"#(\d+)")


def _result_number_trap(text: str) -> tuple[int, str] | None:
    """A use `%name#N` of a result number no op of `text` can reach (an op
    writes a type per result, so it has fewer results than `text` has
    characters): MLIR's parser makes room for N results of a name not yet
    defined, and runs out of memory (mlir-opt aborts too).  (A quick scan
    for such numbers anywhere first: the scan that skips strings and
    comments costs a few times more.)"""
    limit = len(text)
    if not any(len(m.group(1)) > 12 or int(m.group(1)) >= limit for m in _RESULT_NUMBER.finditer(text)):
        return None
    for m in _ops_in_code(_RESULT_USE, text):
        digits = m.group(m.lastindex)
        if len(digits) > 12 or int(digits) >= limit:
            name = m.group(m.lastindex - 1)
            shown = digits if len(digits) <= 24 else digits[:21] + "..."
            return m.start(m.lastindex - 1), f"result number {shown} of {name} is out of range for this input"
    return None


def _resource_trap(text: str) -> tuple[int, str] | None:
    """A resource entry (`{-# dialect_resources: {owner: {key: value}} #-}`,
    or `external_resources`) whose value is missing or does not lex (an
    unclosed string, a stray `$`): MLIR's parser steps over that token
    without looking and asserts (mlir-opt aborts too).  Entry values are
    strings (blobs are hex strings) or `true`/`false`; a word is left to
    MLIR, which reports it.  A builtin blob whose first 4 bytes (its
    alignment) are zero and that holds data makes MLIR ask for a buffer
    aligned to 0, which aborts too."""
    if "{-#" not in text:
        return None
    for m in _ops_in_code(_METADATA_SCAN, text):
        pos, depth, key = m.end(), 1, ""
        section = owner = ""  # the keys of the groups the scan is in (depth 2 and 3)
        while True:
            pos = _BLANKS.match(text, pos).end()
            token = _METADATA_TOKEN.match(text, pos)
            if token is None:
                break  # the end of the text: MLIR reports the unclosed section
            t = token.group(0)
            pos = token.end()
            if t == "#-}":  # (inside a group too: MLIR ends the section there, and reports it)
                break
            if t == "{":
                depth += 1
                if depth == 2:
                    section = key
                elif depth == 3:
                    owner = key
            elif t == "}":
                depth -= 1
            elif t == ":" and depth == 3:  # an entry's key is read: its value follows
                at = _BLANKS.match(text, pos).end()
                name = key if key.startswith('"') else f"'{key}'"
                if not _RESOURCE_VALUE.match(text, at):
                    value = _METADATA_TOKEN.match(text, at)
                    shown = "the end of the file" if value is None else value.group(0)[:40]
                    return at, f"resource entry {name} needs a string or true/false value, got {shown}"
                if section == "dialect_resources" and owner == "builtin" and _ZERO_ALIGNED_BLOB.match(text, at):
                    return at, (
                        f"resource blob {name} must give a power of two as its alignment (its first 4 bytes), got 0"
                    )
            elif t not in (",", ":"):
                key = t
    return None


def _depth(text: str, insertions: dict[int, str] | None = None) -> tuple[int, int]:
    """`nesting` of `text` as MLIR reads it: inside the `module {` wrapped
    around it (unwrapped again after parsing, so a level for every input)."""
    if insertions is None:
        insertions = wrapper_insertions(text)
    return nesting(text, extra=1 if len(insertions) > 1 else 0)


def _too_deep(text: str, filename: str, depth: int, where: int, what: str = "") -> diag.DiagnosticError:
    line, col = LineIndex(text).position(where)
    kind = "unary minus signs and brackets" if text.startswith("-", where) else "brackets"
    message = f"{kind} nest deeper than {MAX_NESTING} levels{what}"
    return diag.DiagnosticError([diag.Diagnostic("error", message, filename, line, col)], {filename: text})


def _check_printed_depth(module: ir.Operation, text: str, filename: str, where: int) -> None:
    """Refuse a module whose printed form (any spelling mesh-opt prints:
    generic regions add a `(` around each `{`, debug info adds `loc(...)`)
    would be refused, so that whatever is accepted prints to text that is
    accepted again."""
    for generic in (True, False):
        printed = print_ir(module, generic=generic, debug_info=True, assume_verified=True)  # MLIR verified it
        depth, _ = _depth(printed)
        if depth > MAX_NESTING:
            raise _too_deep(text, filename, depth, where, " once printed")


KNOWN_DIALECTS = ("stablehlo", "mhlo", "chlo", "sdy")
"""Dialects these bindings lack whose generic-form ops JAX exports: a text
that names them is parsed with unregistered dialects allowed (no
`--allow-unregistered-dialect` needed), and an op of any other unregistered
dialect is still refused."""

_MENTIONS_KNOWN = re.compile(r"(?:stablehlo|mhlo|chlo|sdy)[.<]")
_GENERIC_NAME = re.compile(r'"([A-Za-z_][\w$]*)\.[\w$.]+"\s*\(')
_AUTO_ALLOWED: weakref.WeakSet[ir.Context] = weakref.WeakSet()
"""Contexts that `parse` let accept unregistered dialects for the known ones
(they keep the setting: passes and the verifier need it for those ops)."""


def _allow_known_dialects(ctx: ir.Context, text: str) -> bool:
    """Let `ctx` parse the known dialects' ops when `text` names them; True
    when unknown dialects must then be refused by `_refuse_unknown`."""
    if ctx in _AUTO_ALLOWED:
        return True
    if ctx.allow_unregistered_dialects or not _mentions_known(text):
        return False
    ctx.allow_unregistered_dialects = True
    _AUTO_ALLOWED.add(ctx)
    return True


def _mentions_known(text: str) -> bool:
    """Whether `text` names an op or attribute of a known dialect (substring
    tests first: a regex alone costs a tenth of a large module's parse)."""
    if "hlo" not in text and "sdy" not in text:
        return False
    for m in _MENTIONS_KNOWN.finditer(text):
        start = m.start()
        if (start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_$.")) and _names_known(text, start):
            return True
    return False


_OPENS_OPERANDS = re.compile(r"\s*\(")


def _names_known(text: str, at: int) -> bool:
    """Whether the mention at `at` is code or a generic op's quoted name,
    not words in another string or a comment (which must not make the
    caller's context accept unregistered dialects)."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    for s in _STRING_OR_COMMENT.finditer(text, line_start, len(text) if line_end < 0 else line_end):
        if s.start() > at:
            break
        if at < s.end():
            return s.group(0)[0] == '"' and s.start() == at - 1 and _OPENS_OPERANDS.match(text, s.end()) is not None
    return True


def _is_dialect(ctx: ir.Context, name: str) -> bool:
    """Whether `name` is a dialect of `ctx` (MLIR itself refuses unknown ops
    of a dialect it has)."""
    try:
        ctx.dialects[name]
    except IndexError:
        return False
    return True


def _refuse_unknown(module: ir.Operation, text: str, filename: str) -> None:
    """MLIR's own error for the first op of a dialect neither registered nor
    known, at the `(` after its name as mlir-opt places it."""
    ctx = module.context
    suspects = {d for d in _GENERIC_NAME.findall(text) if d not in KNOWN_DIALECTS}
    if not suspects or all(_is_dialect(ctx, d) for d in suspects):
        return  # the common case: no walk over the module
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        dialect = op.name.split(".", 1)[0]
        if dialect in KNOWN_DIALECTS or _is_dialect(ctx, dialect):
            return ir.WalkResult.ADVANCE
        found.append(op)
        return ir.WalkResult.INTERRUPT

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    if not found:
        return
    op = found[0]
    name, line, col = remap_location(op.location)
    lines = LineIndex(text)
    offset = lines.offset(line, col)
    quoted = f'"{op.name}"'
    if text.startswith(quoted, offset):
        line, col = lines.position(_BLANKS.match(text, offset + len(quoted)).end())
    message = (
        "operation being parsed with an unregistered dialect. If this is intended, please use "
        "-allow-unregistered-dialect with the MLIR tool used"
    )
    raise diag.DiagnosticError([diag.Diagnostic("error", message, name or filename, line, col)], {filename: text})


def operation_of(what: str, op: object) -> ir.Operation:
    """`op` as an `ir.Operation` (from an op view or a module too); a
    TypeError naming `what` for anything else."""
    op = getattr(op, "operation", op)
    if not isinstance(op, ir.Operation):
        raise TypeError(f"{what} takes an ir.Operation, an op view or an ir.Module, got {type(op).__name__}")
    return op


def _check_parse_arguments(text: object, filename: object, context: object) -> None:
    if not isinstance(text, str):
        hint = " (decode bytes first)" if isinstance(text, (bytes, bytearray)) else ""
        raise TypeError(f"parse takes the module's text as a str{hint}, got {type(text).__name__}")
    if not isinstance(filename, str):
        raise TypeError(f"parse's filename must be a str, got {type(filename).__name__}")
    if context is not None and not isinstance(context, ir.Context):
        raise TypeError(f"parse's context must be an ir.Context, got {type(context).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        line, col = LineIndex(text).position(e.start)
        message = f"text is not valid Unicode: lone surrogate {text[e.start]!r} has no UTF-8 encoding"
        raise diag.DiagnosticError([diag.Diagnostic("error", message, filename, line, col)]) from None


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
    _check_parse_arguments(text, filename, context)
    ctx = context or ir.Context.current
    if ctx is None:
        raise ValueError("parse needs an MLIR context: pass context=, or parse inside `with mesh_dialect.context():`")
    load_dialect(ctx)
    refuse_unknown = _allow_known_dialects(ctx, text)
    insertions = wrapper_insertions(text)
    depth, deepest_at = _depth(text, insertions)
    if depth > MAX_NESTING:
        raise _too_deep(text, filename, depth, deepest_at)
    trap = _reassociation_trap(text) or _resource_trap(text) or _result_number_trap(text) or _pad_trap(text)
    if "linalg." in text:  # the other traps are all in linalg ops: one scan of a large text
        trap = _upstream_trap(text) or _flat_list_trap(text) or _element_type_trap(text) or trap
    if trap is not None:
        line, col = LineIndex(text).position(trap[0])
        raise diag.DiagnosticError([diag.Diagnostic("error", trap[1], filename, line, col)], {filename: text})
    try:
        source, insertions, moved = _hoist_aliases(text, insertions)
        translation = to_generic(source, insertions=insertions)
    except MeshSyntaxError as e:
        line, col = LineIndex(text).position(e.offset)
        raise diag.DiagnosticError(
            [diag.Diagnostic("error", e.message, filename, line, col)], {filename: text}
        ) from None
    if moved:
        fields = {f.name: getattr(translation, f.name) for f in dataclasses.fields(translation)}
        translation = _HoistedTranslation(
            **fields, at=min(insertions), inserted=insertions[min(insertions)], moved=moved
        )
        translation.escaped |= any(alias.escaped for _, _, alias in moved)
    _remember(filename, translation, ctx)
    generic = translation.generic
    try:
        try:
            outer = ir.Operation.parse(generic, source_name=filename, context=ctx)
        except ir.MLIRError as e:
            outer = _parse_opened(generic, e, filename, ctx)
    except RuntimeError as e:
        # MLIR's message names a string that is not UTF-8 (a function's
        # name in a verifier's words), which the bindings cannot hand over
        found = diag.non_utf8_string(text) if diag.text_refused(e) else None
        if found is None:
            raise
        line, col = LineIndex(text).position(found[0])
        message = (
            "the program has an error whose message holds a name or string that is not UTF-8, so it cannot be "
            f"shown; names and strings must be UTF-8 for it to be read, got {found[1]}"
        )
        raise diag.DiagnosticError([diag.Diagnostic("error", message, filename, line, col)], {filename: text}) from None
    except ir.MLIRError as e:
        diags = [diag.convert(d, remapper(ctx), diag.not_op_dump) for d in e.error_diagnostics]
        if not diags:
            diags = [_silent_failure(translation, filename)]
        diags = [_hint_generic_form(_place_stray_op(d, text, insertions)) for d in diags]
        if diags[0].line == 0 and "linalg." in text:
            diags[0] = _place_body_error(diags[0], text, filename, ctx)
        raise diag.DiagnosticError(diags, {filename: text}) from None
    module = _unwrap(outer.operation)
    if refuse_unknown:
        _refuse_unknown(module, text, filename)
    if verify:
        from .verifier import verify as verify_semantics

        errors = verify_semantics(module, op_order=translation.op_order())
        if errors:
            raise diag.DiagnosticError(errors, {filename: text})
    if depth > MAX_NESTING // 4:
        _check_printed_depth(module, text, filename, deepest_at)
    return module


_JAX_DIALECT = re.compile(r"Dialect `(sdy|stablehlo|mhlo|chlo)' not found for custom op")


def _hint_generic_form(d: diag.Diagnostic) -> diag.Diagnostic:
    """An op of JAX's dialects in custom syntax (`as_text()`): say how to
    print the module so that it can be read here."""
    if not _JAX_DIALECT.search(d.message):
        return d
    note = diag.Diagnostic(
        "note",
        "the stablehlo and sdy dialects are not loaded here: their ops are read in MLIR's generic form, "
        "which JAX prints with `lowered.compiler_ir('stablehlo').operation.get_asm(print_generic_op_form=True)`",
        d.filename,
        d.line,
        d.col,
    )
    return dataclasses.replace(d, notes=(*d.notes, note))


def _parse_opened(generic: str, error: ir.MLIRError, filename: str, ctx: ir.Context) -> ir.Operation:
    """`generic` parsed again where the parse failed on a call MLIR cannot
    resolve through an op of a dialect it does not know with one region
    (which it takes for a symbol table): in a shard_map's body (the op gets
    an empty second region, which `import-shardings` ignores), or in the
    body of a reduce, reduce_window, scatter or sort (JAX's `jnp.where` in
    a reducer is `func.call @_where`), whose calls are inlined, as XLA
    inlines them, before the region added is dropped again.  The module is
    printed and parsed once more, its locations moved back over the text
    added (positions stay those of `generic`).  `error` raised again when
    neither applies."""
    if not any(_UNRESOLVED_CALL in d.message for d in error.error_diagnostics):
        raise error
    manual = _manual_region_ends(generic)
    hlo = _hlo_region_ends(generic)
    if not manual and not hlo:
        raise error
    added = sorted([(end, ", {}") for end in manual] + [(end, ", {" + _OPENED + "}") for end in hlo])
    out, at = [], 0
    for end, piece in added:
        out.append(generic[at:end] + piece)
        at = end
    out.append(generic[at:])
    outer = ir.Operation.parse("".join(out), source_name=filename, context=ctx)
    if hlo:
        _inline_opened_calls(outer)
    printed = outer.get_asm(print_generic_op_form=True, enable_debug_info=True, assume_verified=True)
    closed = _placed_back(_OPENED_REGION.sub("", printed), generic, added, filename)
    if _OPENED in closed:  # (a region printed otherwise than expected: never keep it)
        raise error
    return ir.Operation.parse(closed, source_name=filename, context=ctx)


_UNRESOLVED_CALL = "does not reference a valid function"
_HLO_OP = re.compile(r'"(?:stablehlo|mhlo|chlo)\.[\w.]+"\(')
_MANUAL = '"sdy.manual_computation"('
_OPENED_NAME = "chlo.mesh_dialect_opened_region"
_OPENED = f'"{_OPENED_NAME}"() : () -> ()'
"""The op in the region `_parse_opened` adds to an hlo op: no op of any dialect."""
_OPENED_REGION = re.compile(
    r',\s*\{\s*"chlo\.mesh_dialect_opened_region"\(\)\s*:\s*\(\)\s*->\s*\(\)\s*'
    r'(?:loc\((?:[^()"]|"(?:[^"\\]|\\.)*")*\))?\s*\}'
)
"""That region as MLIR prints it back (with its location)."""
_FILE_LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)')


def _regions_group(text: str, name_end: int) -> tuple[int, int] | None:
    """(start, end) of the regions of the generic op whose quoted name and
    `(` end at `name_end`, None when it has none."""
    pos = _after_space(text, scan_group(text, name_end - 1))  # the operands
    if text.startswith("<{", pos):
        pos = _after_space(text, scan_group(text, pos))  # the properties
    if text.startswith("{", pos):
        pos = _after_space(text, scan_group(text, pos))  # an attribute dictionary
    if not (text.startswith("(", pos) and text.startswith("{", _after_space(text, pos + 1))):
        return None
    return pos, scan_group(text, pos)


def _manual_region_ends(generic: str) -> list[int]:
    """Where each shard_map's (`sdy.manual_computation`) one region ends."""
    ends, at = [], 0
    while (start := generic.find(_MANUAL, at)) >= 0:
        at = start + len(_MANUAL)
        group = _regions_group(generic, at)
        if group is not None:
            ends.append(group[1] - 1)
    return ends


def _hlo_region_ends(generic: str) -> list[int]:
    """Where the one region of each hlo op whose body calls a function ends."""
    if '"func.call"(' not in generic:
        return []
    ends = []
    for m in _HLO_OP.finditer(generic):
        group = _regions_group(generic, m.end())
        if group is None:
            continue
        region = _after_space(generic, group[0] + 1)
        end = scan_group(generic, region)
        if generic.startswith(")", _after_space(generic, end)) and '"func.call"(' in generic[region:end]:
            ends.append(end)  # one region, with a call in it
    return ends


def _placed_back(printed: str, generic: str, added: list[tuple[int, str]], filename: str) -> str:
    """`printed` with each location in `filename` that the text `added` to
    `generic` (at those offsets, on one line each) moved right put back
    where `generic` has it."""
    shifts: dict[int, list[tuple[int, int]]] = {}  # line -> (byte column in the opened text, bytes added)
    lines = LineIndex(generic)
    for end, piece in added:
        line, _ = lines.position(end)
        col = len(generic[lines.starts[line - 1] : end].encode()) + 1  # (MLIR counts bytes)
        before = sum(k for _, k in shifts.get(line, ()))
        shifts.setdefault(line, []).append((col + before, len(piece.encode())))
    name = filename.replace("\\", "\\\\").replace('"', '\\"')

    def back(m: re.Match) -> str:
        line, col = int(m.group(2)), int(m.group(3))
        if m.group(1) != name or line not in shifts:
            return m.group(0)
        shift = 0
        for start, k in shifts[line]:
            if start < col:  # (the op added there has a location in the text added: its start)
                shift += min(k, col - start)
        return f'loc("{m.group(1)}":{line}:{col - shift}'

    return _FILE_LOC.sub(back, printed) if shifts else printed


def _inline_opened_calls(outer: ir.Operation) -> None:
    """Inline every call in the first region of an op `_parse_opened`
    opened: the callee's body copied in (calls it brings along in later
    rounds).  A call whose callee is not a function of one block in the
    same module stays, and so do calls past `INLINE_COPIES` more than the
    module has (they fail the verifier as before)."""
    from .control import INLINE_COPIES, INLINE_ROUNDS, ancestors, splice_call  # (a rare path: not at start-up)

    owners: list[ir.Operation] = []  # the ops opened

    def mark(op: ir.Operation) -> ir.WalkResult:
        if op.name == _OPENED_NAME:
            owners.append(op.parent)
        return ir.WalkResult.ADVANCE

    outer.walk(mark)
    modules = []  # per op opened, its module's functions by name (one dict per module)
    by_module: dict[ir.Operation, dict[str, ir.Operation]] = {}
    for owner in owners:
        module = next((op for op in ancestors(owner) if op.name == "builtin.module"), None)
        if module is None:
            modules.append({})
            continue
        if module not in by_module:
            by_module[module] = {
                op.operation.attributes["sym_name"].value: op.operation
                for op in module.regions[0].blocks[0].operations
                if op.operation.name == "func.func"
            }
        modules.append(by_module[module])
    calls: dict[ir.Operation, dict[str, ir.Operation]] = {}  # (an op opened inside another: each call once)
    found_here: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "func.call":
            found_here.append(op)
        return ir.WalkResult.ADVANCE

    copies, most = 0, None
    for _ in range(INLINE_ROUNDS):
        calls.clear()
        for owner, functions in zip(owners, modules):  # (the first region: the second holds the mark)
            found_here.clear()
            for block in owner.regions[0].blocks:
                for op in block.operations:
                    op.operation.walk(visit)
            for call in found_here:
                calls.setdefault(call, functions)
        if most is None:  # (a function calling itself twice doubles its calls every round)
            most = INLINE_COPIES + len(calls)
        inlined = False
        for call, named in calls.items():
            if copies >= most:
                return
            copies += 1
            found = named.get(ir.FlatSymbolRefAttr(call.attributes["callee"]).value)
            if found is None or len(found.regions[0].blocks) != 1:
                continue
            copy = found.clone(ip=ir.InsertionPoint(found))  # (the module verified: the call fits it)
            splice_call(call, copy)
            call.erase()
            copy.erase()
            inlined = True
        if not inlined:
            return


def _after_space(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()


_SPACE = re.compile(r"\s*")


_NAMED_LINALG = re.compile(_SKIPPED + r"(?<![\w$.%@#^!])linalg\.(\w+)\b(?!\s*[\"(])")
_OPERAND_LIST = re.compile(r"\b(ins|outs)\s*\(")
_PROBES = 256
"""The most distinct named linalg ops `_place_body_error` parses alone."""
_PROBE_CHARS = 4096
"""The longest op text `_place_body_error` parses alone."""


def _place_body_error(d: diag.Diagnostic, text: str, filename: str, ctx: ir.Context) -> diag.Diagnostic:
    """MLIR builds a named linalg op's body itself, without locations: an
    invalid one (element types it cannot convert between: bf16 into f16)
    fails verification with no position.  Each named linalg op of `text`
    is parsed alone, on arguments of its operands' types, and the first
    that fails the same way is named (its operand types with it).  `d` is
    returned as it is when none does."""
    seen: set[str] = set()
    for m in _ops_in_code(_NAMED_LINALG, text):
        found = _NEXT_OP.search(text, m.end())
        op_text = text[m.start() : found.start() if found else len(text)]
        if len(op_text) > _PROBE_CHARS:
            continue  # (ops sharing a line: each probe would hold the rest of it)
        probe, types = _probe_text(op_text)
        if probe is None or probe in seen:
            continue
        if len(seen) >= _PROBES:
            break
        seen.add(probe)
        try:
            ir.Operation.parse(probe, context=ctx)
        except ir.MLIRError as e:
            if not e.error_diagnostics or e.error_diagnostics[0].message != d.message:
                continue
            line, col = LineIndex(text).position(_op_start(text, m.start()))
            name = f"linalg.{m.group(1)}"
            message = f"'{name}' has no valid body for its element types ({types}): {d.message}"
            return diag.Diagnostic("error", message, filename, line, col)
    return d


_RESULTS_BEFORE = re.compile(r"%[\w$.\-]+(?::\d+)?(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*\s*=\s*$")
_OP_AFTER = re.compile(r'%|(?<![#!"\w.$])[A-Za-z_][\w$]*\.[\w$.]+')
"""In what follows a named op's `outs(...)` on its line: where another op starts."""


def _op_start(text: str, name_at: int) -> int:
    """Where the op whose name is at `name_at` starts: at its result list
    when it has one (MLIR's position for an op), else at its name."""
    line_start = max(text.rfind("\n", 0, name_at) + 1, name_at - 512)
    found = _RESULTS_BEFORE.search(text, line_start, name_at)
    return found.start() if found else name_at


def _probe_text(op_text: str) -> tuple[str | None, str]:
    """A function holding only the named linalg op `op_text` (from its name
    on), its `ins` and `outs` operands renamed to the function's arguments;
    with it, the operands' element types as `a, b -> c`.  None when the
    operand lists cannot be read."""
    args: list[str] = []
    parts: list[str] = []
    sides: dict[str, list[str]] = {"ins": [], "outs": []}
    pos = 0
    for m in _OPERAND_LIST.finditer(op_text):
        if m.start() < pos:
            continue
        end = scan_group(op_text, m.end() - 1)
        names, colon, typed = op_text[m.end() : end - 1].partition(":")
        types = split_top_level(typed)
        if not colon or len(split_top_level(names)) != len(types):
            return None, ""
        renamed = [f"%p{len(args) + k}" for k in range(len(types))]
        args.extend(f"{v}: {t}" for v, t in zip(renamed, types))
        sides[m.group(1)].extend(_element_type(t) for t in types)
        parts.append(f"{op_text[pos : m.end()]}{', '.join(renamed)} : {', '.join(types)})")
        pos = end
        if m.group(1) == "outs":
            break
    if not sides["outs"]:
        return None, ""
    rest = op_text[pos:]
    after = _OP_AFTER.search(rest)  # (another op on the same line)
    body = "".join(parts) + (rest[: after.start()] if after else rest).rstrip()
    shown = f"{', '.join(sides['ins'])} -> {', '.join(sides['outs'])}"
    return f"func.func @probe({', '.join(args)}) {{\n  {body}\n  return\n}}\n", shown


_DIMS = re.compile(r"^(?:(?:\d+|\?)\s*x\s*)*")


def _element_type(t: str) -> str:
    """`tensor<4x?xf16>` as `f16`, `memref<4xcomplex<f32>, strided<[1]>>` as
    `complex<f32>`; a scalar type as it is."""
    if not t.endswith(">") or "<" not in t:
        return t
    shaped = split_top_level(t[t.index("<") + 1 : -1])[0].strip()
    return _DIMS.sub("", shaped, count=1)


def _place_stray_op(d: diag.Diagnostic, text: str, insertions: dict[int, str]) -> diag.Diagnostic:
    """MLIR reports a second top-level op (one left outside the wrapping
    module, after the file's `{-# ... #-}` resources) with no position:
    point at that op.  One MLIR reports where the wrapping module's `{`
    ends (a stray token after comments at the top of the file) moves on to
    that token, as mlir-opt, which wraps nothing, reports it."""
    if d.line > 0 and d.message == "expected operation name in quotes" and d.filename:
        index = LineIndex(text)
        pos = _BLANKS.match(text, index.offset(d.line, d.col)).end()
        if pos < len(text):
            line, col = index.position(pos)
            return dataclasses.replace(d, line=line, col=col)
        return d
    if d.line > 0 or not d.message.startswith("source must contain a single top-level operation"):
        return d
    pos = max(insertions)  # where the wrapping module ends (or, empty, sits)
    while pos < len(text):
        pos = _BLANKS.match(text, pos).end()
        if text.startswith("{-#", pos):
            close = text.find("#-}", pos)
            pos = len(text) if close < 0 else close + 3
        elif _ALIAS.match(text, pos):
            pos = _alias_value_end(text, _ALIAS.match(text, pos).end())
        else:
            break
    line, col = LineIndex(text).position(min(pos, len(text)))
    message = "operations must come before the '{-#' resources of the file"
    return diag.Diagnostic("error", message, d.filename, line, col)


def _silent_failure(translation: Translation, filename: str) -> diag.Diagnostic:
    """MLIR stops without a word on a `mesh` op in custom syntax that was not
    translated (IRDL ops have no parser of their own): say where and why."""
    offset, message = untranslated_op_error(translation.source, translation.untranslated)
    if offset < 0:
        offset, message = 0, "the input could not be parsed"
    line, col = translation.source_lines.position(offset)
    return diag.Diagnostic("error", message, filename, line, col)


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
    assume_verified: bool = False,
) -> str:
    """Print `op` with `mesh` ops in their custom syntax (or all generic).
    MLIR verifies it first and prints invalid IR generic, as `str(op)` does:
    invalid IR printed unverified may abort the process.  A caller that has
    just verified it passes `assume_verified=True` (faster)."""
    op = operation_of("print_ir", op)
    text = _printed_to_file(op, generic, debug_info, assume_verified) if _large_module(op) else None
    if text is None:
        text = op.get_asm(
            print_generic_op_form=generic,
            enable_debug_info=debug_info,
            assume_verified=assume_verified,
        )
    if debug_info:
        text = remap_printed(text, op.context)
    return to_custom(text, generic=generic)


def remap_printed(text: str, context: ir.Context) -> str:
    """Printed IR with its file locations in the user's text: MLIR recorded
    where each op was in the text it parsed, which the custom syntax was
    translated into."""
    if not _translations:
        return text
    remap = remapper(context)

    def remapped(m: re.Match) -> str:
        name, line, col = remap(m.group(1), int(m.group(2)), int(m.group(3)))
        return f'"{m.group(1)}":{line}:{col}'

    return _FILE_POSITION.sub(remapped, text)


_FILE_POSITION = re.compile(r'"((?:[^"\\\n]|\\.)*)":(\d+):(\d+)')
"""A file location's `"name":line:col` in printed IR."""


_LARGE_MODULE = 256
"""Ops from which a module is printed through a file (`_printed_to_file`):
below, its fixed cost (about 0.6 ms) is more than `get_asm` takes."""
_CAN_PRINT_TO_FILE = hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd")
_SAFE_SYMBOL = re.compile(r"[A-Za-z0-9_.$-]{1,64}\Z")
_DUMP_HEADER = "// -----// IR Dump After MeshPrint (mesh-print) //----- //\n"


def _large_module(op: ir.Operation) -> bool:
    """A detached `builtin.module` of at least `_LARGE_MODULE` ops."""
    if op.name != "builtin.module" or op.attached or not _CAN_PRINT_TO_FILE:
        return False
    count = 0

    def visit(_: ir.Operation) -> ir.WalkResult:
        nonlocal count
        count += 1
        return ir.WalkResult.INTERRUPT if count >= _LARGE_MODULE else ir.WalkResult.ADVANCE

    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return count >= _LARGE_MODULE


def _no_change(op: ir.Operation, pass_) -> None:
    """The pass after which MLIR's IR printing prints the module."""


def _printed_to_file(op: ir.Operation, generic: bool, debug_info: bool, assume_verified: bool) -> str | None:
    """`op.get_asm(...)`, three times faster on a large module; None when it
    cannot tell (then `get_asm` prints it).

    `get_asm` hands every token of the text to Python (about 64 calls per
    op, two thirds of the print). MLIR's IR printing into a file tree
    (`--mlir-print-ir-tree-dir`) writes it in large blocks through its own
    buffered stream, with the same printer and flags: the file it opens,
    whose path follows the module's symbol name, is a link to an in-memory
    file (never a full disk). It verifies before printing, as `get_asm`
    with `assume_verified=False` does; when that fails it prints the whole
    module generic, where `assume_verified=True` would not: that case
    (a generic `builtin.module` at the start of a line) is left to
    `get_asm`."""
    if "sym_name" in op.attributes:
        name_attr = op.attributes["sym_name"]
        name = name_attr.value if isinstance(name_attr, ir.StringAttr) else ""
        if not _SAFE_SYMBOL.match(name):
            return None  # a name MLIR would not make a directory of
    else:
        name = "no-symbol-name"
    actions = _signal_actions()
    if actions is None:
        return None
    try:
        fd = os.memfd_create("mesh-print", os.MFD_CLOEXEC)
    except OSError:
        return None
    tree = None
    try:
        tree = tempfile.mkdtemp(prefix="mesh-print-")
        folder = os.path.join(tree, "builtin_module_" + name)
        os.mkdir(folder)
        link = os.path.join(folder, "0_mesh-print.mlir")
        os.symlink(f"/proc/self/fd/{fd}", link)
        os.close(os.open(link, os.O_WRONLY | os.O_TRUNC))  # MLIR would say on stderr that it cannot
        pm = PassManager("any", context=op.context)
        pm.add(_no_change, name="MeshPrint", argument="mesh-print")
        pm.enable_verifier(False)
        pm.enable_ir_printing(
            print_after_all=True,
            enable_debug_info=debug_info,
            print_generic_op_form=generic,
            tree_printing_dir_path=tree,
        )
        try:
            pm.run(op)
        finally:
            _restore_signal_actions(actions)
        text = _read_all(fd).decode("utf-8")
    except (OSError, ir.MLIRError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
        if tree is not None:
            shutil.rmtree(tree, ignore_errors=True)
    if not (text.startswith(_DUMP_HEADER) and text.endswith("\n\n")):
        return None
    text = text[len(_DUMP_HEADER) : -2]
    if assume_verified and not generic and (text.startswith('"builtin.module"(') or '\n"builtin.module"(' in text):
        return None
    return text


def _read_all(fd: int) -> bytes:
    """The whole file `fd` (a read may return less than asked)."""
    size = os.fstat(fd).st_size
    chunks: list[bytes] = []
    while size > 0:
        chunk = os.pread(fd, size, sum(map(len, chunks)))
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


_SIGACTION_SIZE = 512
"""Bytes kept per signal: more than any libc's `struct sigaction`."""


def _signal_actions() -> dict[int, bytes] | None:
    """Every signal's action, as `sigaction` gives it (opaque bytes); None
    when they cannot be read. The file MLIR opens is registered for removal
    on a signal, which installs LLVM's handlers for a dozen signals in the
    whole process, once: `_restore_signal_actions` puts the host's back."""
    import ctypes
    import signal

    try:
        sigaction = ctypes.CDLL(None, use_errno=True).sigaction
    except (OSError, AttributeError):
        return None
    actions = {}
    for sig in signal.valid_signals():
        buffer = ctypes.create_string_buffer(_SIGACTION_SIZE)
        if sigaction(int(sig), None, buffer) != 0:
            return None
        actions[int(sig)] = buffer.raw
    return actions


def _restore_signal_actions(actions: dict[int, bytes]) -> None:
    """Set back the signals whose action changed since `_signal_actions`."""
    import ctypes

    sigaction = ctypes.CDLL(None, use_errno=True).sigaction
    for sig, before in actions.items():
        now = ctypes.create_string_buffer(_SIGACTION_SIZE)
        if sigaction(sig, None, now) == 0 and now.raw != before:
            sigaction(sig, ctypes.create_string_buffer(before, _SIGACTION_SIZE), None)
