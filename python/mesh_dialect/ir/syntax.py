"""The custom assembly syntax of `mesh` ops, both ways, as text translation.

IRDL ops only have MLIR's generic form. `to_generic` rewrites every op
written in the documented custom syntax into the generic form MLIR parses,
keeping the text's line structure and an `OffsetMap` so diagnostics point at
what the user wrote. `to_custom` rewrites the generic `mesh` ops MLIR prints
back into the custom syntax. Both also translate the surface spelling of the
dialect's attributes (`#mesh.partial<sum>`, `#mesh.axisarray<[[0], []]>`) to
and from IRDL's (`#mesh.partial<"sum">`, `#mesh.axisarray<[array<i16: 0>,
array<i16>]>`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from .schema import (
    DYNAMIC,
    FORMATS,
    OPS_BY_NAME,
    REDUCTION_KINDS,
    AttrDef,
    AttrDict,
    AttrKind,
    Dims,
    DynList,
    FunctionalType,
    Literal,
    OpDef,
    Optional,
    Ref,
    TypeKind,
    TypeOf,
)
from .text import (
    Cursor,
    LineIndex,
    MeshSyntaxError,
    OffsetMap,
    scan_balanced,
    scan_group,
    split_top_level,
    unescape_string_body,
)

# ---------------------------------------------------------------------------
# Attribute values: generic text <-> Python values.

_FIXED_TYPES = {
    TypeKind.INDEX: "index",
    TypeKind.I64: "i64",
    TypeKind.SHARDING: "!mesh.sharding",
}
_BARE_SYMBOL = re.compile(r"[A-Za-z_][\w$.]*\Z")


def _dense(elem: str, values) -> str:
    return f"array<{elem}: {', '.join(str(v) for v in values)}>" if values else f"array<{elem}>"


def encode_axes(axes) -> str:
    return _dense("i16", axes)


def encode_i64_list(values) -> str:
    return _dense("i64", [DYNAMIC if v is None else v for v in values])


def encode_reduction(kind: str) -> str:
    return f'#mesh.partial<"{kind}">'


def encode_axes_array(split_axes) -> str:
    return "#mesh.axisarray<[" + ", ".join(encode_axes(a) for a in split_axes) + "]>"


def encode_symbol_name(name: str) -> str:
    return "@" + name if _BARE_SYMBOL.match(name) else "@" + _quote(name)


def _quote(s: str) -> str:
    """`s` as an MLIR string literal: a backslash and a quote escaped, and
    a control character as its hex code (the lexer takes no raw newline)."""
    out = []
    for c in s:
        if c == "\\" or c == '"':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\{ord(c):02X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _unescape(quoted: str, raw: str) -> str:
    """The text of an MLIR string literal (`"..."`, as MLIR prints a symbol
    name that is no bare identifier); `raw` is what a failure names."""
    if len(quoted) < 2 or not (quoted.startswith('"') and quoted.endswith('"')):
        raise Unprintable(raw)
    found = unescape_string_body(quoted[1:-1])
    if found is not None:
        try:
            return found.decode()
        except UnicodeDecodeError:
            pass
    raise Unprintable(raw)


class Unprintable(Exception):
    """A generic op whose attributes do not fit its custom syntax."""


_DENSE = re.compile(r"array<(i16|i64)(?::\s*([-\d,\s]*))?>\Z")
_INT_ATTR = re.compile(r"(-?\d+)(?:\s*:\s*(index|i64))?\Z")
_PARTIAL = re.compile(r'#mesh\.partial<"?(\w+)"?>\Z')


def decode_dense(raw: str, elem: str) -> list[int]:
    m = _DENSE.match(raw)
    if not m or m.group(1) != elem:
        raise Unprintable(raw)
    body = m.group(2)
    return [int(x) for x in body.split(",")] if body and body.strip() else []


def decode_int(raw: str, type_name: str) -> int:
    m = _INT_ATTR.match(raw)
    if not m or (m.group(2) or "i64") != type_name:
        raise Unprintable(raw)
    return int(m.group(1))


def decode_reduction(raw: str) -> str:
    m = _PARTIAL.match(raw)
    if not m or m.group(1) not in REDUCTION_KINDS:
        raise Unprintable(raw)
    return m.group(1)


def decode_axes_array(raw: str) -> list[list[int]]:
    if not (raw.startswith("#mesh.axisarray<[") and raw.endswith("]>")):
        raise Unprintable(raw)
    inner = raw[len("#mesh.axisarray<[") : -2]
    return [decode_dense(p, "i16") for p in split_top_level(inner)]


_BARE_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


def symbol_from_string(raw: str) -> str:
    """`@name` for a StringAttr as MLIR prints it (`"name"`). MLIR escapes a
    symbol reference exactly as a string, so the escapes are kept as they
    are (decoding and re-quoting them would change the name)."""
    if len(raw) < 2 or not (raw.startswith('"') and raw.endswith('"')):
        raise Unprintable(raw)
    return "@" + raw[1:-1] if _BARE_IDENT.match(raw[1:-1]) else "@" + raw


def decode_symbol_name(raw: str) -> str:
    if not (raw.startswith('"') and raw.endswith('"')):
        raise Unprintable(raw)
    return raw[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _fmt_dims(values) -> str:
    return "x".join("?" if v == DYNAMIC else str(v) for v in values)


def _fmt_list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


# ---------------------------------------------------------------------------
# Surface spelling of the dialect's attributes.

_SURFACE_PARTIAL = re.compile(r"#mesh\.partial<\s*(\w+)\s*>")
_ATTR_START = re.compile(r"#mesh\.(partial|axisarray|sharding)<")


def _surface_attr_to_generic(text: str, pos: int) -> tuple[int, str] | None:
    """Rewrite `#mesh.partial<max>` / `#mesh.axisarray<[[0]]>` starting at
    `pos`; None when it is already in IRDL's spelling."""
    m = _SURFACE_PARTIAL.match(text, pos)
    if m:
        kind = m.group(1)
        if kind not in REDUCTION_KINDS:
            raise MeshSyntaxError(
                m.start(1), f"unknown reduction kind '{kind}'; expected one of {', '.join(REDUCTION_KINDS)}"
            )
        return m.end(), encode_reduction(kind)
    if text.startswith("#mesh.sharding<", pos):
        return _surface_sharding_to_generic(text, pos)
    if text.startswith("#mesh.axisarray<", pos):
        cur = Cursor(text, pos + len("#mesh.axisarray<"))
        if cur.peek("[array") or cur.peek("[]"):
            return None  # IRDL's spelling already (or empty, the same in both)
        axes = _parse_axes_array(cur)
        cur.expect(">", "to close #mesh.axisarray")
        return cur.pos, encode_axes_array(axes)
    return None


def encode_sharding_attr(
    mesh: str, split_axes, partial_axes=(), partial_type: str = "sum", halo_sizes=(), sharded_dims_offsets=()
) -> str:
    """IRDL's spelling of `#mesh.sharding` (`mesh` is `@` and the mesh's
    name as it is, quoted here when it is no bare identifier)."""
    if mesh.startswith("@"):
        mesh = encode_symbol_name(mesh[1:])
    return (
        f"#mesh.sharding<{mesh}, {encode_axes_array(split_axes)}, {encode_axes(partial_axes)}, "
        f"{encode_reduction(partial_type)}, {encode_i64_list(halo_sizes)}, {encode_i64_list(sharded_dims_offsets)}>"
    )


def decode_sharding_attr(raw: str) -> tuple[str, list[list[int]], list[int], str, list[int], list[int]]:
    """(mesh, split_axes, partial_axes, partial_type, halo_sizes, offsets)
    of a `#mesh.sharding` in IRDL's spelling."""
    if not (raw.startswith("#mesh.sharding<") and raw.endswith(">")):
        raise Unprintable(raw)
    parts = split_top_level(raw[len("#mesh.sharding<") : -1])
    if len(parts) != 6 or not parts[0].startswith("@"):
        raise Unprintable(raw)
    return (
        parts[0] if not parts[0].startswith('@"') else "@" + _unescape(parts[0][1:], raw),
        decode_axes_array(parts[1]),
        decode_dense(parts[2], "i16"),
        decode_reduction(parts[3]),
        decode_dense(parts[4], "i64"),
        decode_dense(parts[5], "i64"),
    )


def _surface_sharding_to_generic(text: str, pos: int) -> tuple[int, str] | None:
    """`#mesh.sharding<@m, [[0], []], partial = sum [1], halo_sizes = [1, 1]>`
    (the fields after the split axes are optional, in any order)."""
    cur = Cursor(text, pos + len("#mesh.sharding<"))
    start, mesh = cur.symbol()
    if mesh.startswith('@"'):  # (encode_sharding_attr quotes the name itself)
        try:
            mesh = "@" + _unescape(mesh[1:], mesh)
        except Unprintable:
            raise MeshSyntaxError(start, f"mesh name {mesh} is not a valid string") from None
    cur.expect(",", "after the mesh of #mesh.sharding")
    if cur.peek("#mesh.axisarray"):
        return None  # IRDL's spelling already
    split = _parse_axes_array(cur)
    fields: dict[str, object] = {}
    while cur.accept(","):
        start, key = cur.word()
        if key in fields or key not in ("partial", "halo_sizes", "sharded_dims_offsets"):
            what = "repeated" if key in fields else "unknown"
            raise MeshSyntaxError(
                start, f"{what} #mesh.sharding field '{key}'; expected partial, halo_sizes or sharded_dims_offsets"
            )
        cur.expect("=")
        fields[key] = (_parse_reduction(cur), _parse_int_list(cur)) if key == "partial" else _parse_int_list(cur, 64)
    cur.expect(">", "to close #mesh.sharding")
    kind, partial_axes = fields.get("partial", ("sum", []))
    generic = encode_sharding_attr(
        mesh, split, partial_axes, kind, fields.get("halo_sizes", []), fields.get("sharded_dims_offsets", [])
    )
    return cur.end, generic


def _sharding_to_surface(raw: str) -> str:
    mesh, split, partial_axes, kind, halos, offsets = decode_sharding_attr(raw)
    text = f"#mesh.sharding<{encode_symbol_name(mesh[1:])}, {_fmt_axes_array(split)}"
    if partial_axes:
        text += f", partial = {kind} {_fmt_list(partial_axes)}"
    if halos:
        text += f", halo_sizes = {_fmt_list(halos)}"
    if offsets:
        text += f", sharded_dims_offsets = {_fmt_list(offsets)}"
    return text + ">"


def _generic_attr_to_surface(raw: str) -> str:
    if raw.startswith("#mesh.sharding"):
        try:
            return _sharding_to_surface(raw)
        except Unprintable:
            return raw
    if raw.startswith("#mesh.partial"):
        try:
            return f"#mesh.partial<{decode_reduction(raw)}>"
        except Unprintable:
            return raw
    try:
        return "#mesh.axisarray<" + _fmt_axes_array(decode_axes_array(raw)) + ">"
    except Unprintable:
        return raw


_ATTR_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|#mesh\.(?:partial|axisarray|sharding)<')


def _attrs_to_surface(text: str) -> str:
    """`text` (attribute values) with every dialect attribute in it, at any
    depth and outside strings, in its surface spelling."""
    out: list[str] = []
    pos = 0
    for m in _ATTR_OR_STRING.finditer(text):
        if m.start() < pos or text[m.start()] == '"':
            continue
        end = scan_balanced(text, m.start())
        out.append(text[pos : m.start()])
        out.append(_generic_attr_to_surface(text[m.start() : end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _fmt_axes_array(axes) -> str:
    return "[" + ", ".join(_fmt_list(a) for a in axes) + "]"


# ---------------------------------------------------------------------------
# Parsing the custom syntax.


def _parse_int_list(cur: Cursor, bits: int = 16) -> list[int]:
    cur.expect("[")
    values: list[int] = []
    if not cur.accept("]"):
        while True:
            values.append(cur.integer(bits))
            if cur.accept("]"):
                break
            cur.expect(",", "or ']' in list")
    return values


def _parse_axes_array(cur: Cursor) -> list[list[int]]:
    cur.expect("[", "to open split axes such as [[0], []]")
    axes: list[list[int]] = []
    if not cur.accept("]"):
        while True:
            axes.append(_parse_int_list(cur))
            if cur.accept("]"):
                break
            cur.expect(",", "or ']' in split axes")
    return axes


def _parse_reduction(cur: Cursor) -> str:
    """`<max>`, `#mesh.partial<max>` or a bare `max`."""
    if cur.accept("#mesh.partial"):
        cur.expect("<")
        angle = True
    else:
        angle = cur.accept("<")
    start, kind = cur.word()
    if kind not in REDUCTION_KINDS:
        raise MeshSyntaxError(start, f"unknown reduction kind '{kind}'; expected one of {', '.join(REDUCTION_KINDS)}")
    if angle:
        cur.expect(">", "to close the reduction kind")
    return kind


@dataclass
class _Parsed:
    operands: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    attrs: dict[str, str] = field(default_factory=dict)
    types: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    functional: tuple[list[tuple[int, str]], list[tuple[int, str]]] | None = None
    attr_dict: str | None = None
    attr_dict_span: tuple[int, int] = (0, 0)  # source offsets of its text and of its `}`


def _parse_type_list(cur: Cursor) -> list[tuple[int, str]]:
    types = [cur.type_()]
    while cur.accept(","):
        types.append(cur.type_())
    return types


def _parse_elements(cur: Cursor, op: OpDef, elements, out: _Parsed) -> None:
    skipped: list[str] = []  # the leading literals of the optional groups left out so far
    for el in elements:
        if isinstance(el, Literal):
            if el.text == ":" and op.implicit_result_type and not cur.peek(":"):
                return  # `: !mesh.sharding` may be left out
            cur.expect(el.text, f"in '{op.full_name}'")
        elif isinstance(el, Optional):
            first = el.elements[0]
            if not isinstance(first, Literal):
                continue
            if not cur.peek(first.text):
                skipped.append(first.text)
                continue
            _parse_elements(cur, op, el.elements, out)
            late = next((lit for lit in skipped if cur.peek(lit)), None)
            if late is not None:  # (an optional part written after one the format puts later)
                raise MeshSyntaxError(cur.pos, f"'{late}' must come before '{first.text}' in '{op.full_name}'")
        elif isinstance(el, Ref):
            if op.operand(el.name):
                out.operands[el.name] = [cur.ssa()]
            else:
                out.attrs[el.name] = _parse_attr(cur, op.attr(el.name))
        elif isinstance(el, Dims):
            out.attrs[el.attr] = encode_i64_list(cur.dims())
        elif isinstance(el, DynList):
            cur.expect("[")
            static: list[int | None] = []
            dynamic: list[tuple[int, str]] = []
            if not cur.accept("]"):
                while True:
                    if cur.peek("%"):
                        dynamic.append(cur.ssa())
                        static.append(None)
                    else:
                        static.append(cur.integer())
                    if cur.accept("]"):
                        break
                    cur.expect(",", "or ']' in list")
            out.attrs[el.attr] = encode_i64_list(static)
            out.operands[el.operands] = dynamic
        elif isinstance(el, TypeOf):
            value = op.operand(el.name) or next(r for r in op.results if r.name == el.name)
            out.types[el.name] = _parse_type_list(cur) if value.variadic else [cur.type_()]
        elif isinstance(el, FunctionalType):
            cur.expect("(", "to open the operand types")
            inputs = [] if cur.accept(")") else _parse_type_list(cur)
            if inputs:
                cur.expect(")", "to close the operand types")
            cur.expect("->")
            if cur.accept("("):
                results = [] if cur.accept(")") else _parse_type_list(cur)
                if results:
                    cur.expect(")", "to close the result types")
            else:
                results = [cur.type_()]
            out.functional = (inputs, results)
        elif isinstance(el, AttrDict):
            if cur.peek("{") and not cur.peek("{-#"):  # `{-#` opens the file's resources
                start = cur.skip()
                end = scan_group(cur.text, start)
                if "//" in cur.text[start:end]:  # a comment may hide or fake a `}`
                    end = _attr_dict_end(cur.text, start)
                if end < 0 or not cur.text.startswith("}", end - 1):
                    raise MeshSyntaxError(start, "unbalanced attribute dictionary")
                raw = cur.text[start + 1 : end - 1]
                out.attr_dict = _attr_dict_to_generic(cur.text, start + 1, end - 1)
                out.attr_dict_span = (start + 1 + len(raw) - len(raw.lstrip()), end - 1)
                cur.advance(end)


_DICT_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]')
_DICT_REWRITE = re.compile(
    r'(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<cmt>//[^\n]*)|(?P<nl>\n)|(?P<attr>#mesh\.(?:partial|axisarray|sharding)<)'
)


def _attr_dict_end(text: str, start: int) -> int:
    """End of the `{...}` opening at `start`, skipping strings and comments
    (-1 when it is not closed)."""
    depth = 0
    for m in _DICT_TOKEN.finditer(text, start):
        if m.group() == "{":
            depth += 1
        elif m.group() == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    return -1


def _attr_dict_to_generic(text: str, pos: int, end: int) -> str:
    """`text[pos:end]`, the inside of a custom op's attr-dict, as generic
    text: comments dropped (the op's generic text goes on one line, so a
    comment would hide its end), newlines made blanks and surface attribute
    spellings rewritten."""
    out: list[str] = []
    for m in _DICT_REWRITE.finditer(text, pos, end):
        if m.start() < pos:
            continue
        out.append(text[pos : m.start()])
        pos = m.end()
        if m.lastgroup == "str":
            out.append(m.group())
        elif m.lastgroup in ("cmt", "nl"):
            out.append(" ")
        else:
            rewritten = _surface_attr_to_generic(text, m.start())
            if rewritten is None:
                out.append(m.group())
            else:
                pos, generic = rewritten
                out.append(generic)
    out.append(text[pos:end])
    return "".join(out).strip()


def _parse_attr(cur: Cursor, attr: AttrDef) -> str:
    kind = attr.kind
    if kind is AttrKind.SYMBOL:
        return cur.symbol()[1]
    if kind is AttrKind.SYMBOL_NAME:
        tok = cur.symbol()[1][1:]
        return tok if tok.startswith('"') else _quote(tok)
    if kind is AttrKind.AXES:
        return encode_axes(_parse_int_list(cur))
    if kind is AttrKind.INDEX:
        return f"{cur.integer()} : index"
    if kind is AttrKind.I64:
        return f"{cur.integer()} : i64"
    if kind is AttrKind.UNIT:
        return ""
    if kind is AttrKind.REDUCTION:
        return encode_reduction(_parse_reduction(cur))
    if kind is AttrKind.AXES_ARRAY:
        return encode_axes_array(_parse_axes_array(cur))
    raise AssertionError(kind)  # pragma: no cover - every kind is listed


def _default_text(attr: AttrDef) -> str:
    if attr.kind is AttrKind.AXES:
        return encode_axes(attr.default)
    if attr.kind is AttrKind.STATIC_LIST:
        return encode_i64_list(attr.default)
    if attr.kind is AttrKind.REDUCTION:
        return encode_reduction(attr.default)
    raise AssertionError(attr)  # pragma: no cover - required attrs have defaults


class _Emitter:
    """Accumulates generated text and the offset anchors back to the source."""

    def __init__(self, offsets: OffsetMap, base: int):
        self.parts: list[str] = []
        self.length = 0
        self.offsets = offsets
        self.base = base
        self.holes: list[tuple[int, int, str]] = []
        """(generated offset from `base`, source offset, text) of each SSA
        name copied from the source: the holes of a line template."""

    def put(self, s: str, orig: int | None = None) -> None:
        if orig is not None:
            self.offsets.add(self.base + self.length, orig)
        self.parts.append(s)
        self.length += len(s)

    def name(self, s: str, orig: int) -> None:
        self.holes.append((self.length, orig, s))
        self.put(s, orig)


def _emit_generic(op: OpDef, p: _Parsed, name_offset: int, em: _Emitter) -> None:
    em.put(f'"{op.full_name}"(', name_offset)
    flat: list[tuple[int, str]] = []
    for o in op.operands:
        flat.extend(p.operands.get(o.name, []))
    for i, (off, name) in enumerate(flat):
        if i:
            em.put(", ")
        em.name(name, off)
    end_of_name = name_offset + len(op.full_name)
    em.put(")", end_of_name)
    attrs = dict(p.attrs)
    for a in op.attrs:
        if a.name not in attrs and a.required:
            attrs[a.name] = _default_text(a)
    if op.needs_segment_sizes:
        sizes = ", ".join(str(len(p.operands.get(o.name, []))) for o in op.operands)
        attrs["operandSegmentSizes"] = f"array<i32: {sizes}>"
    entries = [k if v == "" else f"{k} = {v}" for k, v in attrs.items()]
    em.put(" {" + ", ".join(entries))
    if p.attr_dict:
        em.put(", " if entries else "")
        em.put(p.attr_dict, p.attr_dict_span[0])
        em.put("}", p.attr_dict_span[1])
        em.put(" : (")
    else:
        em.put("} : (")
    operand_types, result_types = _resolve_types(op, p, flat, name_offset)
    for i, (off, t) in enumerate(operand_types):
        em.put(", " if i else "")
        em.put(t, off)
    em.put(") -> (")
    for i, (off, t) in enumerate(result_types):
        em.put(", " if i else "")
        em.put(t, off)
    em.put(")")


def _resolve_types(op: OpDef, p: _Parsed, flat, name_offset: int):
    result_types: list[tuple[int, str]] = []
    if p.functional is not None:
        inputs, result_types = p.functional
        if len(inputs) != len(flat):
            off = inputs[0][0] if inputs else name_offset
            raise MeshSyntaxError(
                off,
                f"'{op.full_name}' has {len(flat)} operands but its functional type lists {len(inputs)} operand types",
            )
        if len(result_types) != len(op.results):
            raise MeshSyntaxError(
                result_types[0][0] if result_types else name_offset,
                f"'{op.full_name}' has {len(op.results)} result but its functional type lists "
                f"{len(result_types)} result types",
            )
        return inputs, result_types
    for r in op.results:
        if r.name in p.types:
            result_types.extend(p.types[r.name])
        elif op.implicit_result_type:
            result_types.append((name_offset, op.implicit_result_type))
    operand_types: list[tuple[int, str]] = []
    for o in op.operands:
        values = p.operands.get(o.name, [])
        if o.name in p.types:
            operand_types.extend(p.types[o.name])
        elif o.kind in _FIXED_TYPES:
            operand_types.extend((off, _FIXED_TYPES[o.kind]) for off, _ in values)
        else:  # a shaped operand whose type is the result's (shard, update_halo)
            operand_types.extend((off, result_types[0][1]) for off, _ in values)
    return operand_types, result_types


# Where an op may start: after a newline, `=`, `{` or `}` (ignoring blanks),
# and not followed by `=`/`,`/`}` (which would make it an attribute name).
# (No group opens an alternative, and the look-behind follows the `m`, so
# that the regex engine can jump between the first characters; the first
# character says which alternative matched.)
_SCAN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|//[^\n]*'
    r"|m(?<![\w$.#!@%^\-]m)esh\.[A-Za-z_]\w*(?![\w$.])"
    r"|#mesh\.(?:partial|axisarray|sharding)<"
)
_SCAN_KIND = {'"': "str", "/": "cmt", "m": "op", "#": "attr"}


def _op_position_ok(text: str, start: int, end: int) -> bool:
    """A bare `mesh.x` is an op unless it sits where an attribute name or a
    value would: after `,`, `(`, `[`, `<` or `:`, or before `=`, `,`, `}`..."""
    if start >= 2 and text[start - 1] == " " and text[end : end + 1] == " ":
        # The usual `%x = mesh.op %y ...`: one blank on either side.
        before = text[start - 2]
        after = text[end + 1 : end + 2]
        if before not in " \t\r\n" and after and after not in " \t":
            return before not in ",([<:" and after not in "=,}:>)]"
    i = start - 1
    newline = False
    while i >= 0 and text[i] in " \t\r\n":
        newline |= text[i] == "\n"
        i -= 1
    # A block label (`^bb0(%a: f32):`) ends its line with `:`; ops follow it.
    if i >= 0 and text[i] in ",([<:" and not (newline and text[i] == ":"):
        return False
    i = end
    while i < len(text) and text[i] in " \t":
        i += 1
    return i >= len(text) or text[i] not in "=,}:>)]"


@dataclass
class Translation:
    """Generic text produced from custom syntax, with its way back."""

    source: str
    generic: str
    offsets: OffsetMap
    untranslated: list[int] = field(default_factory=list)
    """Offsets of `mesh.<op>` names left as written (not at an op's place):
    MLIR fails on such an op without a word, so the caller says where."""
    op_names: list[str] = field(default_factory=list)
    """The name of each `mesh` op in the generic text, in order: those
    translated and those written generic (every string that starts with
    `"mesh.`, in case it is an op name)."""
    op_templates: list[object | None] = field(default_factory=list)
    """The line template each of them was filled in from (None: translated
    on its own or written generic). Ops of one template have the same
    generic text but for their SSA names: the same attributes and types."""
    escaped: bool = False
    """A string with a backslash was seen: it may spell an op name that
    `op_names` does not list, such as `"mesh\\2Eshard"`."""

    # Line indexes are built when a position is first asked for.
    @cached_property
    def source_lines(self) -> LineIndex:
        return LineIndex(self.source)

    @cached_property
    def generic_lines(self) -> LineIndex:
        return LineIndex(self.generic)

    def op_order(self) -> tuple[list[str], list[object | None]] | None:
        """(`op_names`, `op_templates`), for checking the module MLIR parsed
        from `generic` (`verifier.check`): a pre-order walk meets its `mesh`
        ops in text order and every one is listed, so when the walk's names
        are `op_names` the lists line up with its ops. None when a string
        with an escape may spell an op name that is not listed, or when no
        op was filled in from a template."""
        if self.escaped or not any(t is not None for t in self.op_templates):
            return None
        return self.op_names, self.op_templates

    def original_position(self, line: int, col: int) -> tuple[int, int]:
        """Map a line:col of the generic text (MLIR counts columns in bytes)
        to the user's text (in characters, as the caret is drawn)."""
        start = self.generic_lines.offset(line, 1)
        end = self.generic.find("\n", start)
        raw = self.generic[start : len(self.generic) if end < 0 else end].encode("utf-8")
        col = len(raw[: max(col - 1, 0)].decode("utf-8", errors="ignore")) + 1
        off = self.generic_lines.offset(line, col)
        return self.source_lines.position(self.offsets.to_original(off))


def untranslated_op_error(text: str, offsets: list[int]) -> tuple[int, str]:
    """Where and why MLIR failed without a diagnostic: at the first
    `mesh.<op>` name left as written, preferring those not followed by `=`
    (which may be attribute names), the error of reading its custom syntax
    there; (-1, "") when there is none."""
    followed_by_eq = [start for start in offsets if _ATTR_NAME_AT.match(text, start)]
    for start in [s for s in offsets if s not in followed_by_eq] + followed_by_eq:
        m = _WORD_AT.match(text, start)
        name = m.group(0)
        try:
            _parse_elements(Cursor(text, m.end()), OPS_BY_NAME[name], FORMATS[name], _Parsed())
        except MeshSyntaxError as e:
            return e.offset, e.message
        return start, f"custom op '{name}' cannot appear here, found {Cursor(text, m.end()).found()} after it"
    return -1, ""


_ATTR_NAME_AT = re.compile(r"mesh\.\w+[ \t]*=(?!=)")
_WORD_AT = re.compile(r"mesh\.\w+")


# ---------------------------------------------------------------------------
# Line templates: modules repeat a few op shapes, so the text of an op with
# its SSA names blanked out (the key) is translated once by the exact code
# above; later ops with the same key are filled in from what it produced.

_SSA_SPLIT = re.compile(r"(%(?:\d+|[A-Za-z_$.\-][\w$.\-]*)(?:#\d+)?)", re.ASCII)
"""Splits a line into [text, name, text, name, ..., text] (text.py's SSA
token, so the names are the tokens the cursor reads)."""

_SEEN = object()
"""A key seen once: a template is built the second time (unique lines, as
with debug locations, never pay for one)."""
_EXACT = object()
"""A key whose ops are always translated by the exact code."""


def _seen_twice(cache: dict, key) -> bool:
    """Record a sighting of `key`: True the second time, when the caller
    may build a template (the key is marked `_EXACT` until it does)."""
    seen = cache.get(key)
    if seen is None:
        cache[key] = _SEEN
        return False
    if seen is _SEEN:
        cache[key] = _EXACT
        return True
    return False


def _continues(literals) -> re.Pattern:
    """What, after the end of a line, an op's optional trailing parts could
    start with: the literals of every format and the attr-dict's `{`
    (`%` is left out: the cursor peeks for it only inside brackets)."""
    alts = []
    for lit in sorted(set(literals) | {"{", ":", ","}, key=len, reverse=True):
        word = lit[-1].isalnum() or lit[-1] in "_$."
        alts.append(re.escape(lit) + (r"(?![A-Za-z0-9_$.])" if word else ""))
    return re.compile("|".join(alts))


def _literals(elements):
    for el in elements:
        if isinstance(el, Literal):
            yield el.text
        elif isinstance(el, Optional):
            yield from _literals(el.elements)


_CONTINUES = _continues(lit for f in FORMATS.values() for lit in _literals(f))
_LINE_BLANKS = re.compile(r"(?:\s+|//[^\n]*)*")


@dataclass(eq=False)  # hashed by identity: the verifier's key for its ops
class _GenericTemplate:
    """The generic text and offset anchors of one key, with holes for names.

    A position is stored as (constant, k): constant plus the lengths of the
    first k names (in source order for source offsets, in generated order
    for generated ones)."""

    fmt: str  # generated text; `{i}` is the i-th name of the line
    order: tuple[int, ...]  # the line's name index of each hole, in generated order
    anchors: tuple[tuple[int, int, int, int], ...]  # (gen const, k, source const, k) inside the op
    end: tuple[int, int]  # source offset where the op ends
    peeks: bool  # the cursor looked past the line: the next line must not continue it

    def fill(self, names: list[str], orig_base: int) -> tuple[str, int]:
        """The generated text and the source end of the op at `orig_base`
        whose line has `names`."""
        k = self.end[1]
        return self.fmt.format(*names), orig_base + self.end[0] + (sum(map(len, names[:k])) if k else 0)

    def offsets(self, names: list[str], gen_base: int, orig_base: int) -> tuple[list[int], list[int]]:
        """The anchors inside the op (see `OffsetMap.defer`)."""
        lengths = [0]
        for name in names:
            lengths.append(lengths[-1] + len(name))
        gen_lengths = [0]
        for i in self.order:
            gen_lengths.append(gen_lengths[-1] + len(names[i]))
        gens = [gen_base + g + gen_lengths[gk] for g, gk, _, _ in self.anchors]
        origs = [orig_base + o + lengths[ok] for _, _, o, ok in self.anchors]
        return gens, origs


def _position(offset: int, holes: list[tuple[int, int]]) -> tuple[int, int] | None:
    """`offset` as (constant, k) given the (start, length) of the holes in
    order; None when it falls inside a name."""
    k = 0
    const = offset
    for start, length in holes:
        if start >= offset:
            break
        if offset < start + length:
            return None
        k += 1
        const -= length
    return const, k


def _generic_template(
    parts: list[str], gen: str, em: _Emitter, anchors: list[tuple[int, int]], end: int, peeks: bool
) -> _GenericTemplate | None:
    """A template from one exact translation of the op at the start of
    `parts` (its line, split at names), or None when the names are not all
    copied to the generated text once each (a `%` in an attr-dict string)."""
    names = parts[1::2]
    starts = []
    at = 0
    for i, part in enumerate(parts):
        if i % 2:
            starts.append(at)
        at += len(part)
    if len(em.holes) != len(names):
        return None
    order: list[int] = []
    for _, orig, text in em.holes:
        rel = orig - anchors[0][1]
        if rel not in starts:
            return None
        i = starts.index(rel)
        if names[i] != text or i in order:
            return None
        order.append(i)
    src_holes = [(s, len(n)) for s, n in zip(starts, names)]
    gen_holes = [(g, len(t)) for g, _, t in em.holes]
    pieces = []
    prev = 0
    for (g, length), i in zip(gen_holes, order):
        pieces.append(gen[prev:g].replace("{", "{{").replace("}", "}}"))
        pieces.append("{" + str(i) + "}")
        prev = g + length
    pieces.append(gen[prev:].replace("{", "{{").replace("}", "}}"))
    gbase, obase = anchors[0]
    rel_anchors = []
    for g, o in anchors[1:]:
        gp = _position(g - gbase, gen_holes)
        op = _position(o - obase, src_holes)
        if gp is None or op is None:
            return None
        rel_anchors.append((*gp, *op))
    end_pos = _position(end - obase, src_holes)
    if end_pos is None:
        return None
    tpl = _GenericTemplate("".join(pieces), tuple(order), tuple(rel_anchors), end_pos, peeks)
    # It must give back what it was made from, and its last anchor must come
    # before the op's end (the end's anchor is added as the exact code does).
    if tpl.fill(names, obase) != (gen, end) or tpl.offsets(names, gbase, obase) != (
        [g for g, _ in anchors[1:]],
        [o for _, o in anchors[1:]],
    ):
        return None
    if len(anchors) > 1 and anchors[-1][0] >= gbase + len(gen):
        return None
    return tpl


def to_generic(text: str, *, insertions: dict[int, str] | None = None, templates: bool = True) -> Translation:
    """Translate custom-syntax `mesh` ops (and surface attribute spellings)
    in `text` into MLIR's generic form. `insertions` maps offsets of `text`
    (outside ops, strings and comments) to text inserted there, such as the
    `module {` that wraps a file of several top-level ops; the offset map
    accounts for it.

    A rewritten op starts at the column the user wrote it at, so MLIR gives
    it the user's location, unless an earlier rewrite or insertion on the
    same line shifted it; diagnostics are mapped back through
    `Translation.original_position` in every case.

    An op whose line (from its name on, names blanked) was seen before is
    filled in from that line's translation; `templates=False` translates
    every op on its own (the same text and offsets, slower).
    """
    offsets = OffsetMap()
    gens, origs = offsets._gen, offsets._orig  # the anchors added so far (deferred ones aside)
    out: list[str] = []
    pending = sorted((insertions or {}).items())
    gen_len = 0
    pos = 0
    untranslated: list[int] = []
    cache: dict[tuple[str, ...], object] | None = {} if templates else None
    # Where the anchors inside templated ops go, computed when first needed
    # from the op's first anchor (its line gives the template and names).
    deferred: list[int] = []
    op_names: list[str] = []
    op_templates: list[object | None] = []
    escaped = False
    n = len(text)

    def copy(upto: int) -> None:
        """Copy text[pos:upto] unchanged, placing the insertions inside it."""
        nonlocal pos, gen_len
        while pending and pending[0][0] <= upto:
            at, extra = pending.pop(0)
            out.append(text[pos:at])
            gen_len += at - pos
            offsets.add(gen_len, at)
            out.append(extra)
            gen_len += len(extra)
            offsets.add(gen_len, at)
            pos = at
        out.append(text[pos:upto])
        gen_len += upto - pos
        pos = upto

    search, split, find = _SCAN.search, _SSA_SPLIT.split, text.find
    while True:
        m = search(text, pos)
        if not m:
            break
        start = m.start()
        kind = _SCAN_KIND[text[start]]
        if kind in ("str", "cmt"):
            copy(start)
            token = m.group(0)
            if kind == "str":
                if token.startswith('"mesh.'):
                    op_names.append(token[1:-1])
                    op_templates.append(None)
                if "\\" in token:
                    escaped = True
            out.append(token)
            gen_len += len(token)
            pos = m.end()
            continue
        if kind == "attr":
            # Copy the text before the match unchanged.
            copy(start)
            offsets.add(gen_len, start)
            rewritten = _surface_attr_to_generic(text, start)
            if rewritten is None:
                out.append(m.group(0))
                gen_len += len(m.group(0))
                pos = m.end()
                continue
            end, gen = rewritten
        else:
            name = m.group(0)
            op = OPS_BY_NAME.get(name)
            if op is None or not _op_position_ok(text, start, m.end()):
                copy(start)
                offsets.add(gen_len, start)
                if op is not None:
                    untranslated.append(start)
                out.append(name)
                gen_len += len(name)
                pos = m.end()
                continue
            parts = key = None
            if cache is not None:
                eol = find("\n", start)
                if eol < 0:
                    eol = n
                parts = split(text[start:eol])
                key = tuple(parts[::2])
                tpl = cache.get(key)
                if tpl.__class__ is _GenericTemplate and not (
                    tpl.peeks and _CONTINUES.match(text, _LINE_BLANKS.match(text, eol).end())
                ):
                    # What the exact code below does, with its steps inlined.
                    if pending and pending[0][0] <= start:
                        copy(start)
                    else:
                        out.append(text[pos:start])
                        gen_len += start - pos
                    if gen_len == gens[-1]:
                        origs[-1] = start
                    else:
                        gens.append(gen_len)
                        origs.append(start)
                    if tpl.anchors:
                        deferred.append(len(gens))
                    op_names.append(name)
                    op_templates.append(tpl)
                    names = parts[1::2]
                    gen = tpl.fmt.format(*names)
                    end, k = tpl.end
                    end += start
                    if k:
                        end += sum(map(len, names if k == len(names) else names[:k]))
                    out.append(gen)
                    gen_len += len(gen)
                    gens.append(gen_len)  # past the op's last anchor
                    origs.append(end)
                    pos = end
                    continue
            copy(start)
            offsets.add(gen_len, start)
            first = len(gens) - 1
            cur = Cursor(text, m.end())
            parsed = _Parsed()
            _parse_elements(cur, op, FORMATS[name], parsed)
            end = cur.end
            em = _Emitter(offsets, gen_len)
            _emit_generic(op, parsed, start, em)
            gen = "".join(em.parts)
            op_names.append(name)
            op_templates.append(None)
            if key is not None and _seen_twice(cache, key) and end <= eol:  # on one line
                anchors = list(zip(gens[first:], origs[first:]))
                cache[key] = _generic_template(parts, gen, em, anchors, end, cur.pos > eol) or _EXACT
        # Keep the line structure: as many newlines as the source span had.
        gen += "\n" * text.count("\n", start, end)
        out.append(gen)
        gen_len += len(gen)
        offsets.add(gen_len, end)
        pos = end
    copy(len(text))
    if deferred:

        def anchors(gen_base: int, start: int) -> tuple[list[int], list[int]]:
            eol = text.find("\n", start)
            parts = _SSA_SPLIT.split(text[start : n if eol < 0 else eol])
            return cache[tuple(parts[::2])].offsets(parts[1::2], gen_base, start)

        offsets.defer(deferred, anchors)
    return Translation(text, "".join(out), offsets, untranslated, op_names, op_templates, escaped)


# ---------------------------------------------------------------------------
# Printing the custom syntax.

_PRINTED_SSA = r"%(?:\d+|[A-Za-z_$.\-][\w$.\-]*)(?:#\d+)?"
# An op (the `name` group matched), a string, a comment or an attribute (by
# its first character); no group opens an alternative (see `_SCAN`). An op
# on one line as MLIR prints it also matches `operands` and the `rest` of
# the line (up to ` loc(` when there is one): the key of a print template
# is its text with the operands counted rather than named.
_PRINT_SCAN = re.compile(
    r'"mesh\.(?P<name>\w+)"\('
    rf"(?:(?a:(?P<operands>(?:{_PRINTED_SSA}(?:, {_PRINTED_SSA})*)?))\)(?P<rest>[^\n]*))?"
    r'|"(?:[^"\\\n]|\\.)*"|//[^\n]*'
    r"|#mesh\.(?:partial|axisarray|sharding)<"
)
_PROBE = re.compile("\x00(\\d+)\x01")


@dataclass
class _GenericOp:
    operands: list[str]
    attrs: dict[str, str]
    operand_types: list[str]
    result_types: list[str]
    end: int


# The shape MLIR prints for our ops, when nothing in it needs bracket
# matching (no strings, nested braces or parenthesised types).
_FAST_GENERIC = re.compile(
    r'\((?P<operands>[^()"]*)\)'
    r'(?: \{(?P<attrs>[^{}()"]*)\})?'
    r' : \((?P<inputs>[^()"{}]*)\) -> (?:\((?P<results>[^()"{}]*)\)|(?P<result>[^\s()"{},]+))'
    r"(?=\n| loc\(|$)"
)


def _read_generic(text: str, pos: int) -> _GenericOp:
    """Read `(operands) {attrs} : (types) -> results` as MLIR prints it."""
    m = _FAST_GENERIC.match(text, pos)
    if m:
        attrs: dict[str, str] = {}
        if m["attrs"]:
            for entry in split_top_level(m["attrs"]):
                key, eq, value = entry.partition(" = ")
                attrs[key] = value if eq else ""
        results = split_top_level(m["results"]) if m["result"] is None else [m["result"]]
        operands = m["operands"].split(", ") if m["operands"] else []
        return _GenericOp(operands, attrs, split_top_level(m["inputs"]), results, m.end())
    return _read_generic_slow(text, pos)


def _read_generic_slow(text: str, pos: int) -> _GenericOp:
    cur = Cursor(text, pos)
    cur.expect("(")
    operands: list[str] = []
    if not cur.accept(")"):
        while True:
            operands.append(cur.ssa()[1])
            if cur.accept(")"):
                break
            cur.expect(",")
    if cur.peek("<{") or cur.peek("[") or cur.peek("("):
        raise Unprintable("properties, successors or regions")
    attrs: dict[str, str] = {}
    if cur.peek("{"):
        start = cur.skip()
        end = scan_group(text, start)
        for entry in split_top_level(text[start + 1 : end - 1]):
            key, value = _attribute_entry(entry)
            attrs[key] = value
        cur.advance(end)
    cur.expect(":")
    start = cur.skip()
    end = scan_group(text, start)
    operand_types = split_top_level(text[start + 1 : end - 1])
    cur.advance(end)
    cur.expect("->")
    if cur.peek("("):
        start = cur.skip()
        end = scan_group(text, start)
        result_types = split_top_level(text[start + 1 : end - 1])
        cur.advance(end)
    else:
        result_types = [cur.type_()[1]]
    return _GenericOp(operands, attrs, operand_types, result_types, cur.pos)


_QUOTED_KEY = re.compile(r'\s*"(?:[^"\\]|\\.)*"')


def _attribute_entry(entry: str) -> tuple[str, str]:
    """(name, value text) of one `name = value` entry of an attribute
    dictionary; a quoted name may hold `=` itself (`"a=b" = 1`)."""
    m = _QUOTED_KEY.match(entry)
    cut = m.end() if m else 0
    key, eq, value = entry[cut:].partition("=")
    return (entry[:cut] + key).strip(), value.strip() if eq else ""


def _segments(op: OpDef, g: _GenericOp) -> dict[str, list[str]]:
    """Split the flat operand list into the op's named operand groups."""
    if op.needs_segment_sizes:
        sizes = _i32_sizes(g.attrs)
    else:
        n_variadic = len(g.operands) - sum(not o.variadic for o in op.operands)
        sizes = [n_variadic if o.variadic else 1 for o in op.operands]
    if sum(sizes) != len(g.operands) or len(sizes) != len(op.operands) or min(sizes, default=0) < 0:
        raise Unprintable("operand segments")
    groups: dict[str, list[str]] = {}
    i = 0
    for o, size in zip(op.operands, sizes):
        groups[o.name] = g.operands[i : i + size]
        i += size
    return groups


def _i32_sizes(attrs: dict[str, str]) -> list[int]:
    m = re.match(r"array<i32(?::\s*([\d,\s]*))?>\Z", attrs.get("operandSegmentSizes", ""))
    if not m:
        raise Unprintable("operandSegmentSizes")
    return [int(x) for x in m.group(1).split(",")] if m.group(1) else []


class _Printer:
    def __init__(self, op: OpDef, g: _GenericOp):
        self.op = op
        self.g = g
        self.groups = _segments(op, g)
        self.used = {"operandSegmentSizes"}
        self.tokens: list[str] = [op.full_name]

    def present(self, attr_name: str) -> bool:
        attr = self.op.attr(attr_name)
        raw = self.g.attrs.get(attr_name)
        if raw is None:
            if attr.required:
                raise Unprintable(f"missing {attr_name}")
            return False
        if not attr.required:
            return True
        return self.value(attr) != self.default(attr)

    def default(self, attr: AttrDef):
        return list(attr.default) if isinstance(attr.default, tuple) else attr.default

    def value(self, attr: AttrDef):
        raw = self.g.attrs[attr.name]
        k = attr.kind
        if k is AttrKind.AXES:
            return decode_dense(raw, "i16")
        if k in (AttrKind.SHAPE, AttrKind.STATIC_LIST):
            return decode_dense(raw, "i64")
        if k is AttrKind.INDEX:
            return decode_int(raw, "index")
        if k is AttrKind.I64:
            return decode_int(raw, "i64")
        if k is AttrKind.REDUCTION:
            return decode_reduction(raw)
        if k is AttrKind.AXES_ARRAY:
            return decode_axes_array(raw)
        if k is AttrKind.UNIT:
            if raw not in ("", "unit"):
                raise Unprintable(raw)
            return True
        return raw

    def attr_text(self, attr: AttrDef) -> str:
        self.used.add(attr.name)
        raw = self.g.attrs.get(attr.name)
        if raw is None:
            raise Unprintable(f"missing {attr.name}")
        k = attr.kind
        if k is AttrKind.SYMBOL:
            if not raw.startswith("@") or "::" in raw:
                raise Unprintable(raw)
            return raw
        if k is AttrKind.SYMBOL_NAME:
            return symbol_from_string(raw)
        if k is AttrKind.UNIT:
            self.value(attr)
            return ""
        if k is AttrKind.REDUCTION:
            kind = decode_reduction(raw)
            return kind if attr.name == "partial_type" else f"<{kind}>"
        if k is AttrKind.AXES_ARRAY:
            return _fmt_axes_array(decode_axes_array(raw))
        v = self.value(attr)
        return _fmt_list(v) if isinstance(v, list) else str(v)

    def emit(self, elements) -> None:
        for el in elements:
            if isinstance(el, Literal):
                self.tokens.append(el.text)
            elif isinstance(el, Optional):
                if self.present(el.anchor):
                    self.emit(el.elements)
                else:
                    for sub in el.elements:
                        if isinstance(sub, Ref) and self.op.attr(sub.name):
                            self.used.add(sub.name)
                        elif isinstance(sub, DynList):
                            self.used.add(sub.attr)
            elif isinstance(el, Ref):
                if self.op.operand(el.name):
                    (name,) = self.groups[el.name] or [None]
                    if name is None:
                        raise Unprintable(el.name)
                    self.tokens.append(name)
                else:
                    text = self.attr_text(self.op.attr(el.name))
                    if text:
                        self.tokens.append(text)
            elif isinstance(el, Dims):
                self.used.add(el.attr)
                dims = decode_dense(self.g.attrs.get(el.attr, ""), "i64")
                if not dims or any(v < 0 and v != DYNAMIC for v in dims):
                    raise Unprintable("dimension list")  # no `2x?x4` spells it: the op stays generic
                self.tokens.append(_fmt_dims(dims))
            elif isinstance(el, DynList):
                self.used.add(el.attr)
                static = decode_dense(self.g.attrs.get(el.attr, ""), "i64")
                dynamic = iter(self.groups[el.operands])
                items = []
                for v in static:
                    if v == DYNAMIC:
                        d = next(dynamic, None)
                        if d is None:
                            raise Unprintable("dynamic list")
                        items.append(d)
                    else:
                        items.append(str(v))
                if next(dynamic, None) is not None:
                    raise Unprintable("dynamic list")
                self.tokens.append("[" + ", ".join(items) + "]")
            elif isinstance(el, TypeOf):
                self.tokens.append(", ".join(self.types_of(el.name)))
            elif isinstance(el, FunctionalType):
                res = self.g.result_types
                res_text = res[0] if len(res) == 1 else "(" + ", ".join(res) + ")"
                self.tokens.append("(" + ", ".join(self.g.operand_types) + ") -> " + res_text)
            elif isinstance(el, AttrDict):
                known = self.used | {a.name for a in self.op.attrs}
                rest = [
                    k if v == "" else f"{k} = {_attrs_to_surface(v) if '#mesh.' in v else v}"
                    for k, v in self.g.attrs.items()
                    if k not in known
                ]
                if rest:
                    self.tokens.append("{" + ", ".join(rest) + "}")

    def types_of(self, name: str) -> list[str]:
        if any(r.name == name for r in self.op.results):
            return self.g.result_types
        i = 0
        for o in self.op.operands:
            n = len(self.groups[o.name])
            if o.name == name:
                return self.g.operand_types[i : i + n]
            i += n
        raise Unprintable(name)  # pragma: no cover

    def check_implied_types(self) -> None:
        """Types the custom syntax leaves implicit must be what it implies,
        or printing then parsing would change the IR."""
        if len(self.g.operand_types) != len(self.g.operands):
            raise Unprintable("operand types")
        formats = FORMATS[self.op.full_name]
        if any(isinstance(e, FunctionalType) for e in formats):
            return
        explicit = {e.name for e in formats if isinstance(e, TypeOf)}
        result = self.g.result_types
        if self.op.implicit_result_type and (result != [self.op.implicit_result_type]):
            raise Unprintable("result type")
        i = 0
        for o in self.op.operands:
            group = self.groups[o.name]
            types = self.g.operand_types[i : i + len(group)]
            i += len(group)
            if o.name in explicit:
                continue
            want = _FIXED_TYPES.get(o.kind) or (result[0] if result else None)
            if any(t != want for t in types):
                raise Unprintable(f"type of {o.name}")


def _join(tokens: list[str]) -> str:
    s = ""
    for t in tokens:
        if not s or t in (")",) or s.endswith("(") or t == "(":
            s += t
        else:
            s += " " + t
    return s


def print_custom_op(name: str, g: _GenericOp) -> str:
    op = OPS_BY_NAME[name]
    printer = _Printer(op, g)
    printer.check_implied_types()
    printer.emit(FORMATS[name])
    return _join(printer.tokens)


def _custom_template(full: str, g: _GenericOp, names: list[str], custom: str) -> str | None:
    """`custom` (the custom syntax of `g`, whose operands are `names`) as a
    format string with a field for each operand, or None when the printer
    does not copy each operand as it is."""
    probe = _GenericOp([f"\x00{i}\x01" for i in range(len(names))], g.attrs, g.operand_types, g.result_types, g.end)
    try:
        text = print_custom_op(full, probe)
    except (Unprintable, MeshSyntaxError):
        return None
    fmt = _PROBE.sub(r"{\1}", text.replace("{", "{{").replace("}", "}}"))
    return fmt if "\x00" not in fmt and fmt.format(*names) == custom else None


def to_custom(text: str, *, generic: bool = False, templates: bool = True) -> str:
    """Rewrite the generic `mesh` ops in printed MLIR `text` into their
    custom syntax (unless `generic`), and the dialect's attributes into
    their surface spelling. Ops whose attributes do not fit their custom
    syntax stay generic, as MLIR does for ops that fail to verify.

    An op printed as one seen before but for its operands' names is filled
    in from that op's custom syntax; `templates=False` prints every op on
    its own (the same text, slower)."""
    out: list[str] = []
    pos = 0
    cache: dict[tuple[str, int, str], object] = {}
    attrs: dict[str, str] = {}
    search = _PRINT_SCAN.search
    while True:
        m = search(text, pos)
        if not m:
            break
        start = m.start()
        name = m.group("name")
        if name is None:
            c = text[start]
            if c != "#":  # a string or a comment
                out.append(text[pos : m.end()])
                pos = m.end()
                continue
            out.append(text[pos:start])
            end = scan_balanced(text, start)
            raw = text[start:end]
            surface = attrs.get(raw)
            if surface is None:
                surface = attrs[raw] = _generic_attr_to_surface(raw)
            out.append(surface)
            pos = end
            continue
        out.append(text[pos:start])
        full = "mesh." + name
        paren = m.end("name") + 1  # the `(` of the operands
        if generic or full not in OPS_BY_NAME:
            out.append(text[start:paren])
            pos = paren
            continue
        key = names = None
        operands = m.group("operands") if templates else None
        if operands is not None:
            rest = m.group("rest")
            op_end = m.start("rest")
            loc = rest.find(" loc(")
            if loc >= 0:
                rest = rest[:loc]
            op_end += len(rest)
            names = operands.split(", ") if operands else []
            key = (full, len(names), rest)
            tpl = cache.get(key)
            if tpl.__class__ is str:
                out.append(tpl.format(*names))
                pos = op_end
                continue
        try:
            g = _read_generic(text, paren)
            custom = print_custom_op(full, g)
        except (Unprintable, MeshSyntaxError):
            out.append(text[start:paren])
            pos = paren
            continue
        out.append(custom)
        pos = g.end
        if (
            key is not None
            and _seen_twice(cache, key)
            and g.end == op_end
            and g.operands == names
            and "\x00" not in text[start : g.end]
        ):
            cache[key] = _custom_template(full, g, names, custom) or _EXACT
    out.append(text[pos:])
    return "".join(out)
