"""Low-level helpers for reading MLIR text: a cursor, offsets and positions.

The custom syntax is translated as text (IRDL ops have no C++ parser or
printer of their own), so these helpers must skip strings and comments
exactly as MLIR's lexer does.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate


class MeshSyntaxError(Exception):
    """A syntax error at a character offset of the text being read."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


_SSA = re.compile(r"%(?:\d+|[A-Za-z_$.\-][\w$.\-]*)(?:#\d+)?", re.ASCII)
_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\\n]|\\.)*")', re.ASCII)
_INT = re.compile(r"-?\d+")
_WORD = re.compile(r"[A-Za-z_][\w$.]*", re.ASCII)
_DIMS = re.compile(r"(?:\d+|\?)(?:x(?:\d+|\?))*")
_BLANKS = re.compile(r"(?:\s+|//[^\n]*)*").match
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


@dataclass
class Cursor:
    """Reads tokens from `text` starting at `pos`; errors carry offsets."""

    text: str
    pos: int = 0
    end: int = -1
    """End of the last token consumed (`pos` may be past blanks after it)."""

    def advance(self, to: int) -> None:
        self.pos = self.end = to

    def skip(self) -> int:
        self.pos = _BLANKS(self.text, self.pos).end()
        return self.pos

    def peek(self, literal: str) -> bool:
        pos = self.skip()
        text = self.text
        if not text.startswith(literal, pos):
            return False
        if literal[-1] in _WORD_CHARS:
            nxt = pos + len(literal)
            return nxt >= len(text) or text[nxt] not in _WORD_CHARS
        return True

    def accept(self, literal: str) -> bool:
        if self.peek(literal):
            self.advance(self.pos + len(literal))
            return True
        return False

    def expect(self, literal: str, what: str | None = None) -> int:
        if not self.accept(literal):
            raise MeshSyntaxError(self.pos, f"expected '{literal}'{' ' + what if what else ''}, found {self.found()}")
        return self.end - len(literal)

    def found(self) -> str:
        self.skip()
        if self.pos >= len(self.text):
            return "end of input"
        m = re.compile(r"\S+").match(self.text, self.pos)
        tok = m.group(0) if m else self.text[self.pos]
        return repr(tok[:20])

    def match(self, pattern: re.Pattern, what: str) -> tuple[int, str]:
        start = self.skip()
        m = pattern.match(self.text, self.pos)
        if not m:
            raise MeshSyntaxError(start, f"expected {what}, found {self.found()}")
        self.advance(m.end())
        return start, m.group(0)

    def ssa(self) -> tuple[int, str]:
        return self.match(_SSA, "an SSA value such as %0")

    def symbol(self) -> tuple[int, str]:
        return self.match(_SYMBOL, "a symbol such as @mesh0")

    def integer(self, bits: int = 64) -> int:
        """A signed integer that fits in `bits` bits (MLIR would reject a
        larger one somewhere inside the generated text)."""
        start, tok = self.match(_INT, "an integer")
        value = int(tok)
        if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
            raise MeshSyntaxError(start, f"integer {tok} does not fit in {bits} bits")
        return value

    def word(self) -> tuple[int, str]:
        return self.match(_WORD, "a keyword")

    def dims(self) -> list[int | None]:
        start, tok = self.match(_DIMS, "a dimension list such as 2x?x4")
        if self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] == "_"):
            raise MeshSyntaxError(
                start, f"expected a dimension list such as 2x?x4, found {tok + self.text[self.pos]!r}"
            )
        dims = [None if d == "?" else int(d) for d in tok.split("x")]
        if any(d is not None and d >= 1 << 63 for d in dims):
            raise MeshSyntaxError(start, f"dimension list {tok} has a size that does not fit in 64 bits")
        return dims

    def balanced(self, what: str) -> tuple[int, str]:
        """One type or attribute value: a word with balanced brackets, or a
        bracketed group; stops before a top-level `,`, `)`, `}` or `]`."""
        start = self.skip()
        end = scan_balanced(self.text, start)
        if end == start:
            raise MeshSyntaxError(start, f"expected {what}, found {self.found()}")
        self.advance(end)
        return start, self.text[start:end].rstrip()

    def type_(self) -> tuple[int, str]:
        start = self.skip()
        end = scan_type(self.text, start)
        if end == start:
            raise MeshSyntaxError(start, f"expected a type, found {self.found()}")
        self.advance(end)
        return start, self.text[start:end]


_OPENERS = {"<": ">", "(": ")", "[": "]", "{": "}"}
_TYPE_HEAD = re.compile(r"![A-Za-z_][\w$.\-]*|[A-Za-z_][\w$.]*")  # an alias may hold `-`


def scan_type(text: str, pos: int) -> int:
    """End of the type starting at `pos` (a word, `!dialect.type`, with an
    optional `<...>` body), or `pos` when there is none."""
    if text.startswith("(", pos):
        # A function type: (inputs) -> results.
        end = scan_group(text, pos)
        m = re.compile(r"\s*->\s*").match(text, end)
        if not m:
            return pos
        return scan_type(text, m.end()) if not text.startswith("(", m.end()) else scan_group(text, m.end())
    m = _TYPE_HEAD.match(text, pos)
    if not m:
        return pos
    end = m.end()
    if text.startswith("<", end):
        end = scan_group(text, end)
    return end


_BORING_IN_GROUP = re.compile(r'[^<>()\[\]{}"\-]*')
_BORING_IN_VALUE = re.compile(r'[^<>()\[\]{}"\-,]*')


def scan_group(text: str, pos: int) -> int:
    """End of the bracketed group opening at `pos`, skipping strings, `->`
    and `>=`."""
    stack = [_OPENERS[text[pos]]]
    i = pos + 1
    n = len(text)
    boring = _BORING_IN_GROUP.match
    while i < n and stack:
        i = boring(text, i).end()
        if i >= n:
            break
        c = text[i]
        if c == '"':
            m = _STRING.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c == "-":
            i += 2 if text.startswith("->", i) else 1
            continue
        if c == ">" and text.startswith(">=", i):
            i += 2  # a comparison (an affine set's `d0 >= 0`), not a closing bracket
            continue
        if c in _OPENERS:
            stack.append(_OPENERS[c])
        elif c == stack[-1]:
            stack.pop()
        else:
            return i  # unbalanced: stop here, the caller reports it
        i += 1
    return i


def scan_balanced(text: str, pos: int) -> int:
    """End of an attribute value or type list item (see `Cursor.balanced`)."""
    i = pos
    n = len(text)
    boring = _BORING_IN_VALUE.match
    while i < n:
        i = boring(text, i).end()
        if i >= n:
            break
        c = text[i]
        if c == '"':
            m = _STRING.match(text, i)
            i = m.end() if m else i + 1
        elif c in _OPENERS:
            i = scan_group(text, i)
        elif c in ",)}]":
            break
        elif c == "-":
            i += 2 if text.startswith("->", i) else 1
        else:  # a stray '>' outside any group
            i += 1
    return i


_STRING_ESCAPE = re.compile(r"\\(?:([0-9A-Fa-f]{2})|(.))", re.S)
_NAMED_ESCAPES = {"n": b"\n", "t": b"\t", "\\": b"\\", '"': b'"'}


def unescape_string_body(body: str) -> bytes | None:
    """The bytes of an MLIR string literal's body (quotes aside): `\\XX`
    hex bytes, `\\\\`, `\\"`, `\\n`, `\\t`; None at any other escape.
    MLIR prints a symbol or file name that is no plain identifier so."""
    out = bytearray()
    i = 0
    for m in _STRING_ESCAPE.finditer(body):
        out += body[i : m.start()].encode()
        if m.group(1) is not None:
            out.append(int(m.group(1), 16))
        elif m.group(2) in _NAMED_ESCAPES:
            out += _NAMED_ESCAPES[m.group(2)]
        else:
            return None
        i = m.end()
    out += body[i:].encode()
    return bytes(out)


def split_top_level(text: str) -> list[str]:
    """Split `a, b<c, d>, e` at top-level commas."""
    parts = []
    i = 0
    n = len(text)
    while i < n:
        end = scan_balanced(text, i)
        parts.append(text[i:end].strip())
        if end < n and text[end] == ",":
            i = end + 1
        else:
            break
    return [p for p in parts if p]


@dataclass
class LineIndex:
    """Offset <-> (line, column) for one text, both 1-based."""

    text: str
    starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        # Line lengths from C-level splitting (a regex walk over every
        # newline costs more on large modules).
        lines = self.text.split("\n")
        lines.pop()
        self.starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def offset(self, line: int, col: int) -> int:
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        return self.starts[line - 1] + max(col - 1, 0)


class OffsetMap:
    """Maps offsets of generated text back to the text the user wrote.

    Anchors are (generated, original) pairs in increasing order; between two
    anchors the texts are assumed to match character for character. Anchors
    inside ops translated from a line template are computed when first
    needed (`defer`): most translations are never asked for a position.
    """

    def __init__(self) -> None:
        self._gen = [0]
        self._orig = [0]
        self._deferred: list[int] = []
        self._anchors: Callable[[int, int], tuple[list[int], list[int]]] | None = None

    def add(self, gen_offset: int, orig_offset: int) -> None:
        if gen_offset == self._gen[-1]:
            self._orig[-1] = orig_offset
        else:
            self._gen.append(gen_offset)
            self._orig.append(orig_offset)

    def defer(self, positions: list[int], anchors: Callable[[int, int], tuple[list[int], list[int]]]) -> None:
        """More anchors go before each of the anchors added at `positions`
        (increasing): `anchors(gen, orig)` of the anchor before them gives
        their generated and original offsets, in order."""
        self._deferred = positions
        self._anchors = anchors

    def _expand(self) -> None:
        gen: list[int] = []
        orig: list[int] = []
        done = 0
        for at in self._deferred:
            gen += self._gen[done:at]
            orig += self._orig[done:at]
            more_gen, more_orig = self._anchors(self._gen[at - 1], self._orig[at - 1])
            gen += more_gen
            orig += more_orig
            done = at
        gen += self._gen[done:]
        orig += self._orig[done:]
        self._gen, self._orig, self._deferred, self._anchors = gen, orig, [], None

    @property
    def gen(self) -> list[int]:
        if self._deferred:
            self._expand()
        return self._gen

    @property
    def orig(self) -> list[int]:
        if self._deferred:
            self._expand()
        return self._orig

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OffsetMap) and (self.gen, self.orig) == (other.gen, other.orig)

    def __repr__(self) -> str:
        return f"OffsetMap(gen={self.gen!r}, orig={self.orig!r})"

    def to_original(self, gen_offset: int) -> int:
        gen, orig = self.gen, self.orig
        i = bisect.bisect_right(gen, gen_offset) - 1
        off = orig[i] + (gen_offset - gen[i])
        if i + 1 < len(orig):
            off = min(off, max(orig[i + 1] - 1, orig[i]))
        return off
