"""Inputs for the fuzzer: lit-test chunks mutated at the token level, and
structure-aware programs (a mesh, tensors it divides, chains of linalg ops
with random `mesh.shard` annotations, loops and ifs carrying values).

Everything here is pure text and a `random.Random`, so an input is a
function of the seed alone and a finding can be regenerated.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KINDS = ["sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor", "generic"]
ELEMENT_TYPES = ["f32", "i32", "i8", "i1", "f16", "f64", "i64", "index", "bf16", "f8E4M3FN", "complex<f32>"]
HUGE = ["65536", "2147483647", "2147483648", "4294967296", "9223372036854775807", "99999999999999999999999"]


@dataclass
class Input:
    """One fuzz input: its text, where it came from, and whether its
    partitioned forms are to be simulated against it."""

    text: str
    origin: str
    simulate: bool = False
    unregistered: bool = False
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------
# seeds


def load_seeds(root: Path = ROOT) -> list[tuple[str, str]]:
    """Every `// -----` chunk of every lit test, as (origin, text)."""
    seeds = []
    for path in sorted(root.glob("test/**/*.mlir")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for i, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
            body = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("// RUN"))
            if body.strip():
                seeds.append((f"{path.relative_to(root)}#{i}", body + "\n"))
    return seeds


# --------------------------------------------------------------------------
# token-level mutations

_TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<comment>//[^\n]*)|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<num>-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)"""
    r"""|(?P<id>[%@#!^]?[A-Za-z_.$][\w.$-]*)|(?P<punct>.)""",
    re.S,
)


def tokens(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(text)]


def _num_token(tok: str) -> bool:
    return bool(re.fullmatch(r"-?\d+", tok))


def mut_number(text: str, rng: random.Random) -> str:
    toks = tokens(text)
    idx = [i for i, t in enumerate(toks) if _num_token(t)]
    if not idx:
        return text
    i = rng.choice(idx)
    n = int(toks[i])
    toks[i] = rng.choice(
        [
            "0",
            "-1",
            "1",
            "2",
            "3",
            "?",
            str(n + 1),
            str(max(n - 1, 0)),
            str(n * 2),
            str(n * 3),
            rng.choice(HUGE),
            "7",
            "5",
            "-2",
        ]
    )
    return "".join(toks)


_LIST = re.compile(r"\[([^\[\]]*)\]")


def mut_list(text: str, rng: random.Random) -> str:
    """Swap, duplicate, delete or add an element of an innermost `[...]`."""
    ms = list(_LIST.finditer(text))
    if not ms:
        return text
    m = rng.choice(ms)
    items = [s.strip() for s in m.group(1).split(",") if s.strip()]
    op = rng.randrange(6)
    if op == 0 and len(items) >= 2:
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    elif op == 1 and items:
        items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    elif op == 2 and items:
        del items[rng.randrange(len(items))]
    elif op == 3:
        items.insert(rng.randrange(len(items) + 1), str(rng.choice([0, 1, 2, 3, 4, 7, -1, 65535])))
    elif op == 4:
        items = []
    else:
        items = [str(rng.randrange(4)) for _ in range(rng.randrange(1, 5))]
    return text[: m.start()] + "[" + ", ".join(items) + "]" + text[m.end() :]


def mut_outer_list(text: str, rng: random.Random) -> str:
    """Swap, duplicate or delete a whole inner list of `split_axes = [[..], [..]]`."""
    ms = list(re.finditer(r"\[(\s*\[[^\[\]]*\]\s*(?:,\s*\[[^\[\]]*\]\s*)*)\]", text))
    if not ms:
        return text
    m = rng.choice(ms)
    items = re.findall(r"\[[^\[\]]*\]", m.group(1))
    op = rng.randrange(4)
    if op == 0 and len(items) >= 2:
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    elif op == 1:
        items.append(rng.choice(items))
    elif op == 2 and items:
        del items[rng.randrange(len(items))]
    else:
        items = [f"[{rng.randrange(3)}]" for _ in range(rng.randrange(1, 4))]
    return text[: m.start()] + "[" + ", ".join(items) + "]" + text[m.end() :]


def mut_mesh_shape(text: str, rng: random.Random) -> str:
    ms = list(re.finditer(r"shape\s*=\s*([\dx?]+)", text))
    if not ms:
        return text
    m = rng.choice(ms)
    dims = m.group(1).split("x")
    op = rng.randrange(5)
    if op == 0:
        dims.append(rng.choice(["1", "2", "3", "4", "?"]))
    elif op == 1 and len(dims) > 1:
        del dims[rng.randrange(len(dims))]
    elif op == 2:
        dims[rng.randrange(len(dims))] = rng.choice(["0", "1", "2", "3", "4", "8", "?", "65536", "-1"])
    elif op == 3:
        dims = [rng.choice(["2", "2", "3", "4"]) for _ in range(rng.randrange(1, 8))]
    else:
        dims = dims[::-1]
    return text[: m.start(1)] + "x".join(dims) + text[m.end(1) :]


def mut_tensor(text: str, rng: random.Random) -> str:
    ms = list(re.finditer(r"tensor<([^<>]*)>", text))
    if not ms:
        return text
    m = rng.choice(ms)
    parts = m.group(1).split("x")
    dims, elt = parts[:-1], parts[-1]
    op = rng.randrange(5)
    if op == 0:
        elt = rng.choice(ELEMENT_TYPES)
    elif op == 1 and dims:
        dims[rng.randrange(len(dims))] = rng.choice(["1", "2", "3", "4", "6", "8", "?", "0", "16"])
    elif op == 2 and dims:
        del dims[rng.randrange(len(dims))]
    elif op == 3:
        dims.insert(rng.randrange(len(dims) + 1), rng.choice(["2", "4", "?"]))
    else:
        dims = dims[::-1]
    body = "x".join(dims + [elt])
    new = f"tensor<{body}>"
    # All occurrences of the same type, or just this one.
    if rng.random() < 0.5:
        return text.replace(m.group(0), new)
    return text[: m.start()] + new + text[m.end() :]


def mut_lines(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    if not lines:
        return text
    op = rng.randrange(4)
    i = rng.randrange(len(lines))
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, lines[i])
    return "\n".join(lines) + "\n"


def mut_annotate(text: str, rng: random.Random) -> str:
    ms = list(re.finditer(r"mesh\.shard %[\w#]+ to %[\w#]+( annotate_for_users)?", text))
    if not ms:
        return text
    m = rng.choice(ms)
    s = m.group(0)
    s = s.replace(" annotate_for_users", "") if m.group(1) else s + " annotate_for_users"
    return text[: m.start()] + s + text[m.end() :]


def mut_kind(text: str, rng: random.Random) -> str:
    pat = r"\b(" + "|".join(KINDS) + r")\b"
    ms = list(re.finditer(pat, text))
    if ms:
        m = rng.choice(ms)
        return text[: m.start()] + rng.choice(KINDS) + text[m.end() :]
    # add a partial to a sharding
    ms = list(re.finditer(r"(mesh\.sharding @\w+ split_axes = \[[^\n]*?\]\])", text))
    if not ms:
        return text
    m = rng.choice(ms)
    add = f" partial = {rng.choice(KINDS)} [{rng.randrange(3)}]"
    return text[: m.end()] + add + text[m.end() :]


def mut_nest(text: str, rng: random.Random) -> str:
    """Nest brackets: a little (an extra list level) or a lot (deep attributes)."""
    r = rng.random()
    if r < 0.6:
        ms = list(_LIST.finditer(text))
        if not ms:
            return text
        m = rng.choice(ms)
        d = rng.choice([1, 2, 3])
        return text[: m.start()] + "[" * d + m.group(0) + "]" * d + text[m.end() :]
    depth = rng.choice([900, 999, 1000, 1001, 2000, 5000, 10000, 20000, 30000])
    kind = rng.randrange(7)
    if kind == 5:  # modules nested around the whole input
        return "module {\n" * depth + text + "}\n" * depth
    if kind == 6:  # regions nested in a generic op
        return '"test.r"() ({\n' * depth + text + "}) : () -> ()\n" * depth
    if kind == 0:
        attr = "[" * depth + "1" + "]" * depth
    elif kind == 1:
        attr = "affine_set<(d0) : (" + "(" * depth + "d0" + ")" * depth + " >= 0)>"
    elif kind == 2:
        attr = "affine_map<(d0) -> (" + "-" * depth + "d0)>"
    elif kind == 3:
        attr = "{a = " * depth + "1" + "}" * depth
    else:
        attr = "array<i64: " + ", ".join(["1"] * depth) + ">"
    line = f'"test.op"() {{x = {attr}}} : () -> ()\n'
    lines = text.splitlines(keepends=True)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return "".join(lines)


def mut_splice(text: str, rng: random.Random, seeds: list[tuple[str, str]]) -> str:
    other = rng.choice(seeds)[1].splitlines()
    ops = [ln for ln in other if re.match(r"\s*(%[\w#:]+ = |mesh\.|func\.|return|scf\.)", ln)]
    if not ops:
        return text
    lines = text.splitlines()
    start = rng.randrange(len(ops))
    chunk = ops[start : start + rng.randrange(1, 5)]
    i = rng.randrange(len(lines) + 1)
    return "\n".join(lines[:i] + chunk + lines[i:]) + "\n"


def mut_ssa(text: str, rng: random.Random) -> str:
    """Use another value where one was used."""
    names = sorted(set(re.findall(r"%[\w]+", text)))
    if len(names) < 2:
        return text
    toks = tokens(text)
    idx = [i for i, t in enumerate(toks) if t in names]
    if not idx:  # the names only occur inside longer tokens
        return text
    i = rng.choice(idx)
    toks[i] = rng.choice(names)
    return "".join(toks)


def mut_bytes(text: str, rng: random.Random) -> str:
    if not text:
        return text
    i = rng.randrange(len(text))
    op = rng.randrange(3)
    if op == 0:
        return text[:i] + text[i + rng.randrange(1, 8) :]
    if op == 1:
        return (
            text[:i]
            + rng.choice(["{", "}", "(", ")", "<", ">", "[", "]", ",", ":", "=", "%", "@", "\x00", "é", "?"])
            + text[i:]
        )
    j = rng.randrange(len(text))
    return text[:i] + text[j : j + rng.randrange(1, 40)] + text[i:]


def mut_module(text: str, rng: random.Random) -> str:
    """Wrap in modules, duplicate the whole, or nest a function in one."""
    op = rng.randrange(3)
    if op == 0:
        return "module {\n" + text + "}\n"
    if op == 1:
        return text + text
    m = re.search(r"func\.func @\w+\([^\n]*\{\n", text)
    if not m:
        return text
    inner = "\n".join([f"func.func @inner_{k}() {{ return }}" for k in range(rng.choice([1, 8]))])
    return text[: m.end()] + inner + "\n" + text[m.end() :]


MUTATORS = [
    (mut_number, 4),
    (mut_list, 3),
    (mut_outer_list, 2),
    (mut_mesh_shape, 2),
    (mut_tensor, 3),
    (mut_lines, 2),
    (mut_annotate, 2),
    (mut_kind, 2),
    (mut_nest, 0.3),
    (mut_ssa, 1),
    (mut_bytes, 0.5),
    (mut_module, 0.3),
]


def mutate(text: str, rng: random.Random, seeds: list[tuple[str, str]]) -> tuple[str, list[str]]:
    applied = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        if rng.random() < 0.08:
            text = mut_splice(text, rng, seeds)
            applied.append("splice")
            continue
        fn = rng.choices([f for f, _ in MUTATORS], [w for _, w in MUTATORS])[0]
        text = fn(text, rng)
        applied.append(fn.__name__[4:])
    return text, applied


def mutate_annotations(text: str, rng: random.Random) -> str:
    """Change the layouts of an annotated program, nothing else: the split
    axes, partial kinds and axes of `mesh.sharding` ops and
    `#mesh.sharding<...>` attributes, and which annotations are for users.
    Layouts never change what a program computes, so its partition must
    still simulate equal to the original."""
    lines = text.splitlines()
    idx = [i for i, ln in enumerate(lines) if "mesh.sharding @" in ln or "#mesh.sharding<" in ln]
    for _ in range(rng.choice([1, 1, 2, 3])):
        if not idx:
            break
        i = rng.choice(idx)
        fn = rng.choice([mut_list, mut_list, mut_outer_list, mut_kind, mut_kind])
        lines[i] = _mutate_layouts(lines[i], fn, rng)
    if rng.random() < 0.3:
        return mut_annotate("\n".join(lines) + "\n", rng)
    return "\n".join(lines) + "\n"


def _mutate_layouts(line: str, fn: Callable[[str, random.Random], str], rng: random.Random) -> str:
    """`fn` applied to the layouts on `line` only: a `mesh.sharding` op's
    line is all layout, but on any other line only a `#mesh.sharding<...>`
    attribute is (the op's own lists, a slice's strides say, are not)."""
    if "mesh.sharding @" in line:
        return fn(line, rng)
    spans = []
    for m in re.finditer(r"#mesh\.sharding<", line):
        depth, end = 0, m.end() - 1
        for end in range(m.end() - 1, len(line)):
            depth += {"<": 1, ">": -1}.get(line[end], 0)
            if depth == 0:
                break
        spans.append((m.start(), end + 1))
    if not spans:
        return line
    start, stop = rng.choice(spans)
    return line[:start] + fn(line[start:stop], rng) + line[stop:]


# --------------------------------------------------------------------------
# structure-aware programs


@dataclass
class Val:
    name: str
    shape: tuple[int, ...]
    elt: str | None = None  # an argument of another element type than the program's (gather ids)


class Program:
    """A function on one mesh built op by op; values are tensors of one
    element type whose every dimension the generator keeps divisible by
    products of mesh axes (or not, now and then)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        rank = rng.choice([1, 1, 2, 2, 2, 3])
        self.mesh = [rng.choice([1, 2, 2, 2, 3, 4]) for _ in range(rank)]
        if math.prod(self.mesh) > 16:
            self.mesh = [2] * rank
        self.elt = rng.choice(["i32", "i32", "f32", "f32", "i64", "f64", "bf16", "f16"])
        self.is_int = self.elt.startswith("i")
        self.args: list[Val] = []
        self.lines: list[str] = []
        self.pool: list[Val] = []
        self.n = 0
        self.shardings: dict[str, str] = {}
        self.dims = sorted({d for d in (2, 4, 6, 8, 12) if d <= 12})
        self.indent = "  "
        self.consts: dict[str, str] = {}
        self.blocks = 0
        self.divergent = 0  # how many branches devices may decide differently are open
        # Ops beyond linalg and scf.for/if: reshapes, slices, scf.while,
        # cf.br, collectives in the input.
        self.extended = rng.random() < 0.5
        # Ops that read through windows (stencils, convolutions, pooling,
        # pads, concats) and layouts with halo_sizes; sizes the mesh does not
        # divide, split all the same, and layouts with sharded_dims_offsets.
        self.windows = rng.random() < 0.35
        self.uneven = rng.random() < 0.3
        self.features: set[str] = set()

    # -- names and types --------------------------------------------------

    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"%{prefix}{self.n}"

    def ty(self, shape: tuple[int, ...], elt: str | None = None) -> str:
        return "tensor<" + "".join(f"{d}x" for d in shape) + (elt or self.elt) + ">"

    def infinity(self, negative: bool) -> str:
        """The hex spelling of the float element type's -inf or +inf (f32's
        0xFF800000 and 0x7F800000 stand for them in the generator's calls)."""
        bits = {"f64": ("0xFFF0000000000000", "0x7FF0000000000000"), "f16": ("0xFC00", "0x7C00")}
        bits["bf16"] = ("0xFF80", "0x7F80")
        return bits.get(self.elt, ("0xFF800000", "0x7F800000"))[0 if negative else 1]

    def emit(self, line: str) -> None:
        self.lines.append(self.indent + line)

    def dim(self) -> int:
        if self.uneven and self.rng.random() < 0.4:
            return self.rng.choice([3, 5, 7, 9, 10])
        return self.rng.choice([2, 4, 4, 6, 8, 12])

    def new_arg(self, shape: tuple[int, ...]) -> Val:
        v = Val(f"%arg{len(self.args)}", shape)
        self.args.append(v)
        return v

    def pick(self, rank: int | None = None, shape: tuple[int, ...] | None = None) -> Val:
        cands = [v for v in self.pool if (rank is None or len(v.shape) == rank) and (shape is None or v.shape == shape)]
        if cands and self.rng.random() < 0.85:
            return self.rng.choice(cands[-4:])
        if shape is None:
            shape = tuple(self.dim() for _ in range(rank if rank is not None else self.rng.choice([1, 2, 2, 3])))
        v = self.new_arg(shape)
        self.pool.append(v)
        return v

    # -- shardings --------------------------------------------------------

    def sharding_for(self, shape: tuple[int, ...], allow_partial: bool) -> str:
        rng = self.rng
        free = list(range(len(self.mesh)))
        rng.shuffle(free)
        split: list[list[int]] = [[] for _ in shape]
        for axis in list(free):
            if rng.random() < 0.55:
                d = rng.randrange(len(shape))
                size = math.prod(self.mesh[a] for a in split[d]) * self.mesh[axis]
                if shape[d] % size == 0 or rng.random() < (0.4 if self.uneven else 0.03):
                    split[d].append(axis)
                    free.remove(axis)
                    if shape[d] % size:
                        self.features.add("uneven")
        while split and not split[-1] and rng.random() < 0.7:
            split.pop()
        extra = self.layout_extras(shape, split)
        partial = ""
        if allow_partial and free and rng.random() < 0.3:
            axes = sorted(rng.sample(free, rng.randrange(1, len(free) + 1)))
            kinds = ["sum", "sum", "max", "min"] + (
                ["bitwise_xor", "bitwise_or", "bitwise_and", "average"] if self.is_int else ["average"]
            )
            partial = f" partial = {rng.choice(kinds)} [{', '.join(map(str, axes))}]"
        return self.sharding_op(split, partial + extra)

    def sharding_op(self, split: list[list[int]], rest: str = "") -> str:
        """The `mesh.sharding` of `split` and `rest` (partial, halos or
        offsets), made once per scope."""
        text = "[" + ", ".join("[" + ", ".join(map(str, s)) + "]" for s in split) + "]"
        key = text + rest
        if key not in self.shardings:
            name = self.fresh("s")
            self.shardings[key] = name
            self.emit(f"{name} = mesh.sharding @mesh split_axes = {text}{rest} : !mesh.sharding")
        return self.shardings[key]

    def layout_extras(self, shape: tuple[int, ...], split: list[list[int]]) -> str:
        """Now and then `halo_sizes` (two per split dimension) or
        `sharded_dims_offsets` (a cut per split dimension: the default one,
        or any), rarely of the wrong length or end, so that most are valid."""
        rng = self.rng
        dims = [d for d, axes in enumerate(split) if axes]
        if not dims or not (self.windows or self.uneven):
            return ""
        r = rng.random()
        even = all(shape[d] % math.prod(self.mesh[a] for a in split[d]) == 0 for d in dims)
        if self.windows and r < (0.3 if even else 0.05):  # halos on uneven pieces are refused
            sizes = []
            for _ in dims:
                sizes += [rng.choice([0, 0, 1, 1, 2, 3]), rng.choice([0, 1, 1, 2])]
            if rng.random() < 0.03:
                sizes = sizes[:-1] if rng.random() < 0.5 else sizes + [1]
            self.features.add("halo")
            return f" halo_sizes = [{', '.join(map(str, sizes))}]"
        if self.uneven and r > 0.6:
            offsets = []
            for d in dims:
                n, size = math.prod(self.mesh[a] for a in split[d]), shape[d]
                if rng.random() < 0.3:  # the default cut: the last size % n pieces one longer
                    pieces = [size // n + (i >= n - size % n) for i in range(n)]
                    group = [sum(pieces[:i]) for i in range(n + 1)]
                else:
                    group = [0, *sorted(rng.randrange(size + 1) for _ in range(n - 1)), size]
                if rng.random() < 0.03:
                    group[-1] += 1
                offsets += group
            self.features.add("offsets")
            return f" sharded_dims_offsets = [{', '.join(map(str, offsets))}]"
        return ""

    def halo_operand(self, v: Val, dims: list[int]) -> Val:
        """`v` annotated for its users split along one of `dims` (a dimension
        read through a window) with halos, as propagation would write it;
        the sizes are random, so partition may also have to reshard them."""
        rng = self.rng
        if rng.random() < 0.7 or not dims:
            return self.operand(v)
        d = rng.choice(dims)
        axes = [a for a in range(len(self.mesh)) if self.mesh[a] > 1] or [0]
        even = [a for a in axes if v.shape[d] % self.mesh[a] == 0]
        axis = rng.choice(even if even and rng.random() < 0.9 else axes)  # halos on uneven pieces are refused
        split: list[list[int]] = [[] for _ in range(d + 1)]
        split[d] = [axis]
        lo, hi = rng.choice([0, 1, 1, 2, 3]), rng.choice([0, 1, 1, 2])
        self.features.add("halo")
        s = self.sharding_op(split, f" halo_sizes = [{lo}, {hi}]")
        name = self.fresh("a")
        self.emit(f"{name} = mesh.shard {v.name} to {s} annotate_for_users : {self.ty(v.shape)}")
        return Val(name, v.shape)

    def annotate(self, v: Val, users: bool = False, allow_partial: bool = True) -> Val:
        s = self.sharding_for(v.shape, allow_partial)
        name = self.fresh("a")
        suffix = " annotate_for_users" if users else ""
        self.emit(f"{name} = mesh.shard {v.name} to {s}{suffix} : {self.ty(v.shape)}")
        return Val(name, v.shape)

    def maybe_annotate(self, v: Val, p: float = 0.35) -> Val:
        if self.rng.random() < p:
            v = self.annotate(v, users=False)
            if self.rng.random() < 0.25:
                v = self.annotate(v, users=True)
        return v

    def operand(self, v: Val) -> Val:
        if self.rng.random() < 0.15:
            return self.annotate(v, users=True)
        return v

    # -- constants and inits ----------------------------------------------

    def scalar(self, value: str) -> str:
        key = f"{value}:{self.elt}"
        if key not in self.consts:
            name = self.fresh("c")
            lit = value if self.is_int or value.startswith("0x") else (value if "." in value else value + ".0")
            if not self.is_int and value.startswith("0x"):
                lit = self.infinity(negative=value == "0xFF800000")
            self.emit(f"{name} = arith.constant {lit} : {self.elt}")
            self.consts[key] = name
        return self.consts[key]

    def init(self, shape: tuple[int, ...], value: str = "0") -> Val:
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty() : {self.ty(shape)}")
        if value is None:
            return Val(e, shape)
        c = self.scalar(value)
        f = self.fresh("f")
        t = self.ty(shape)
        self.emit(f"{f} = linalg.fill ins({c} : {self.elt}) outs({e} : {t}) -> {t}")
        return Val(f, shape)

    def accumulator(self, shape: tuple[int, ...]) -> Val | None:
        """Sometimes a value the program holds, to fold a reduction into (a
        loop's carried value is one: gradient accumulation); else None."""
        held = [v for v in self.pool if v.shape == shape and v.elt is None]
        if not held or self.rng.random() >= 0.25:
            return None
        self.features.add("accumulate")
        return self.rng.choice(held)

    # -- ops ---------------------------------------------------------------

    def elementwise(self) -> Val:
        a = self.pick()
        b = self.pick(shape=a.shape)
        a, b = self.operand(a), self.operand(b)
        r = self.fresh()
        t = self.ty(a.shape)
        style = self.rng.randrange(3)
        if style == 0:
            op = self.rng.choice(
                ["addi", "muli", "subi", "maxsi", "minsi", "xori"]
                if self.is_int
                else ["addf", "mulf", "subf", "maximumf"]
            )
            self.emit(f"{r} = arith.{op} {a.name}, {b.name} : {t}")
        else:
            op = self.rng.choice(["add", "mul", "sub", "max"])
            out = self.init(a.shape, None)
            self.emit(f"{r} = linalg.{op} ins({a.name}, {b.name} : {t}, {t}) outs({out.name} : {t}) -> {t}")
        return Val(r, a.shape)

    def matmul(self) -> Val:
        a = self.pick(rank=2)
        b = self.pick(shape=(a.shape[1], self.dim()))
        a, b = self.operand(a), self.operand(b)
        c = self.accumulator((a.shape[0], b.shape[1]))
        if c is None:
            c = self.init((a.shape[0], b.shape[1]))
        c = self.maybe_annotate(c, 0.15)
        r = self.fresh()
        ta, tb, tc = self.ty(a.shape), self.ty(b.shape), self.ty(c.shape)
        self.emit(f"{r} = linalg.matmul ins({a.name}, {b.name} : {ta}, {tb}) outs({c.name} : {tc}) -> {tc}")
        return Val(r, c.shape)

    def reduce(self) -> Val:
        a = self.pick()
        if len(a.shape) == 1 and self.rng.random() < 0.7:
            a = self.pick(rank=2)
        dim = self.rng.randrange(len(a.shape))
        if len(a.shape) == 1:
            return self.elementwise()
        out_shape = tuple(d for i, d in enumerate(a.shape) if i != dim)
        if self.is_int:
            op, neutral = self.rng.choice(
                [
                    ("addi", "0"),
                    ("maxsi", "-2147483648" if self.elt == "i32" else "-9223372036854775808"),
                    ("minsi", "2147483647" if self.elt == "i32" else "9223372036854775807"),
                    ("xori", "0"),
                    ("ori", "0"),
                    ("andi", "-1"),
                    ("muli", "1"),
                ]
            )
        else:
            op, neutral = self.rng.choice(
                [("addf", "0"), ("maximumf", "0xFF800000"), ("minimumf", "0x7F800000"), ("mulf", "1")]
            )
        if self.rng.random() < 0.1:
            neutral = "1" if neutral != "1" else "0"  # a non-neutral init
        a = self.operand(a)
        init = self.accumulator(out_shape) if op in ("addf", "addi", "maximumf", "maxsi") else None
        if init is None:
            init = self.init(out_shape, neutral)
        r = self.fresh()
        ta, tr = self.ty(a.shape), self.ty(out_shape)
        self.emit(f"{r} = linalg.reduce ins({a.name} : {ta}) outs({init.name} : {tr}) dimensions = [{dim}]")
        self.emit(f"  (%in: {self.elt}, %acc: {self.elt}) {{")
        self.emit(f"    %x = arith.{op} %in, %acc : {self.elt}")
        self.emit(f"    linalg.yield %x : {self.elt}")
        self.emit("  }")
        return Val(r, out_shape)

    def argmax(self) -> Val:
        """`jnp.argmax`/`argmin` as JAX exports it: a two-input stablehlo
        reduce whose body compares and selects; the pick's value, or its
        index converted to the element type."""
        a = self.pick(rank=2)
        dim = self.rng.randrange(2)
        a = self.operand(a)
        out_shape = (a.shape[1 - dim],)
        elt, kind = self.elt, "SIGNED" if self.is_int else "FLOAT"
        wins = self.rng.choice(["GT", "LT"])
        bits = 32 if elt.endswith("32") else 64
        if self.is_int:
            lowest = str(-(2 ** (bits - 1)) if wins == "GT" else 2 ** (bits - 1) - 1)
        else:
            lowest = self.infinity(negative=wins == "GT")
        ta, tr, tn = self.ty(a.shape), self.ty(out_shape), self.ty(a.shape, "i32")
        s, si = f"tensor<{elt}>", "tensor<i32>"
        r, iota, v0, i0 = self.fresh("am"), self.fresh("ai"), self.fresh("av"), self.fresh("ak")

        def compare(x: str, y: str, direction: str, k: str, t: str) -> str:
            return (
                f'"stablehlo.compare"({x}, {y}) <{{compare_type = #stablehlo<comparison_type {k}>, '
                f"comparison_direction = #stablehlo<comparison_direction {direction}>}}> : ({t}, {t}) -> tensor<i1>"
            )

        self.emit(f'{iota} = "stablehlo.iota"() <{{iota_dimension = {dim} : i64}}> : () -> {tn}')
        self.emit(f'{v0} = "stablehlo.constant"() <{{value = dense<{lowest}> : {s}}}> : () -> {s}')
        self.emit(f'{i0} = "stablehlo.constant"() <{{value = dense<0> : {si}}}> : () -> {si}')
        self.emit(f'{r}:2 = "stablehlo.reduce"({a.name}, {iota}, {v0}, {i0}) <{{dimensions = array<i64: {dim}>}}> ({{')
        self.emit(f"^bb0(%x: {s}, %xi: {si}, %y: {s}, %yi: {si}):")
        self.emit(f"  %w = {compare('%x', '%y', wins, kind, s)}")
        self.emit(f"  %n = {compare('%x', '%x', 'NE', kind, s)}")
        self.emit('  %p = "stablehlo.or"(%w, %n) : (tensor<i1>, tensor<i1>) -> tensor<i1>')
        self.emit(f"  %e = {compare('%x', '%y', 'EQ', kind, s)}")
        self.emit(f"  %l = {compare('%xi', '%yi', 'LT', 'SIGNED', si)}")
        self.emit('  %t = "stablehlo.and"(%e, %l) : (tensor<i1>, tensor<i1>) -> tensor<i1>')
        self.emit('  %q = "stablehlo.or"(%p, %t) : (tensor<i1>, tensor<i1>) -> tensor<i1>')
        self.emit(f'  %v = "stablehlo.select"(%p, %x, %y) : (tensor<i1>, {s}, {s}) -> {s}')
        self.emit(f'  %j = "stablehlo.select"(%q, %xi, %yi) : (tensor<i1>, {si}, {si}) -> {si}')
        self.emit(f'  "stablehlo.return"(%v, %j) : ({s}, {si}) -> ()')
        self.emit(f"}}) : ({ta}, {tn}, {s}, {si}) -> ({tr}, {self.ty(out_shape, 'i32')})")
        if self.rng.random() < 0.5:
            return Val(f"{r}#0", out_shape)
        c = self.fresh("ac")
        self.emit(f'{c} = "stablehlo.convert"({r}#1) : ({self.ty(out_shape, "i32")}) -> {tr}')
        return Val(c, out_shape)

    def transpose(self) -> Val:
        a = self.pick(rank=self.rng.choice([2, 3]))
        perm = list(range(len(a.shape)))
        self.rng.shuffle(perm)
        shape = tuple(a.shape[p] for p in perm)
        a = self.operand(a)
        out = self.init(shape, None)
        r = self.fresh()
        self.emit(
            f"{r} = linalg.transpose ins({a.name} : {self.ty(a.shape)}) outs({out.name} : {self.ty(shape)}) "
            f"permutation = [{', '.join(map(str, perm))}]"
        )
        return Val(r, shape)

    def softmax(self) -> Val:
        """`linalg.softmax` along any dimension (float programs), or, in
        others, a `tensor.bitcast` to floats of the width and back."""
        rng = self.rng
        a = self.pick(rank=rng.choice([1, 2, 2, 3]))
        a = self.operand(a)
        t = self.ty(a.shape)
        r = self.fresh()
        if self.is_int:
            other = self.ty(a.shape, {"i32": "f32", "i64": "f64"}[self.elt])
            mid = self.fresh()
            self.emit(f"{mid} = tensor.bitcast {a.name} : {t} to {other}")
            self.emit(f"{r} = tensor.bitcast {mid} : {other} to {t}")
            self.features.add("bitcast")
            return Val(r, a.shape)
        out = self.init(a.shape, None)
        dim = rng.randrange(len(a.shape))
        self.emit(f"{r} = linalg.softmax dimension({dim}) ins({a.name} : {t}) outs({out.name} : {t}) -> {t}")
        self.features.add("softmax")
        return Val(r, a.shape)

    def reshape(self) -> Val:
        """collapse_shape, expand_shape, tosa.reshape, tensor.reshape, an
        identity tensor.cast."""
        rng = self.rng
        kind = rng.randrange(5)
        if kind == 0:
            a = self.pick(rank=rng.choice([2, 3]))
            i = rng.randrange(len(a.shape) - 1)
            groups = [[j] for j in range(i)] + [[i, i + 1]] + [[j] for j in range(i + 2, len(a.shape))]
            shape = a.shape[:i] + (a.shape[i] * a.shape[i + 1],) + a.shape[i + 2 :]
            a = self.operand(a)
            r = self.fresh()
            self.emit(f"{r} = tensor.collapse_shape {a.name} {groups} : {self.ty(a.shape)} into {self.ty(shape)}")
            return Val(r, shape)
        if kind == 1:
            a = self.pick(rank=rng.choice([1, 2]))
            i = rng.randrange(len(a.shape))
            d = a.shape[i]
            f = rng.choice([k for k in (2, 3, d) if d % k == 0] or [d])
            shape = a.shape[:i] + (f, d // f) + a.shape[i + 1 :]
            groups, k = [], 0
            for j in range(len(a.shape)):
                groups.append([k, k + 1] if j == i else [k])
                k += 2 if j == i else 1
            a = self.operand(a)
            r = self.fresh()
            self.emit(
                f"{r} = tensor.expand_shape {a.name} {groups} output_shape {list(shape)} : "
                f"{self.ty(a.shape)} into {self.ty(shape)}"
            )
            return Val(r, shape)
        if kind == 2:
            a = self.pick(rank=rng.choice([2, 3]))
            n = 1
            for d in a.shape:
                n *= d
            shape = (a.shape[0], n // a.shape[0])
            a = self.operand(a)
            c, r = self.fresh("sh"), self.fresh()
            self.emit(
                f"{c} = tosa.const_shape {{values = dense<{list(shape)}> : tensor<2xindex>}} : () -> !tosa.shape<2>"
            )
            self.emit(f"{r} = tosa.reshape {a.name}, {c} : ({self.ty(a.shape)}, !tosa.shape<2>) -> {self.ty(shape)}")
            return Val(r, shape)
        if kind == 3:  # the rows kept, the rest merged (8x6 to 16x3 needs no more)
            a = self.pick(rank=rng.choice([2, 3]))
            shape = (a.shape[0], math.prod(a.shape[1:]))
            a = self.operand(a)
            c, r = self.fresh("sh"), self.fresh()
            target = f"tensor<2x{rng.choice(['index', 'i64'])}>"
            self.emit(f"{c} = arith.constant dense<{list(shape)}> : {target}")
            self.emit(f"{r} = tensor.reshape {a.name}({c}) : ({self.ty(a.shape)}, {target}) -> {self.ty(shape)}")
            self.features.add("tensor-reshape")
            return Val(r, shape)
        a = self.operand(self.pick())
        r = self.fresh()
        self.emit(f"{r} = tensor.cast {a.name} : {self.ty(a.shape)} to {self.ty(a.shape)}")
        return Val(r, a.shape)

    def slice(self) -> Val:
        """extract_slice along one dimension (a run of it, now and then every
        other element: a crop where that dimension is split; extended, now
        and then a stablehlo slice), or insert_slice of one back."""
        rng = self.rng
        a = self.pick()
        i = rng.randrange(len(a.shape))
        n = a.shape[i]
        stride = 2 if n > 2 and rng.random() < 0.25 else 1
        if stride == 1 and rng.random() < 0.5:
            size = rng.choice([k for k in range(1, n + 1) if n % k == 0])
        else:
            size = rng.randrange(1, (n - 1) // stride + 2)
        off = rng.randrange(0, n - stride * (size - 1))
        if size < n:
            self.features.add("crop")
        offs = [off if j == i else 0 for j in range(len(a.shape))]
        sizes = [size if j == i else d for j, d in enumerate(a.shape)]
        ones = [stride if j == i else 1 for j in range(len(a.shape))]
        shape = tuple(sizes)
        a = self.operand(a)
        r = self.fresh()
        if self.extended and stride == 1 and rng.random() < 0.4:
            # (extended) JAX's `x[:, 1:]`: a stablehlo slice, read through a crop too
            limits = [o + n for o, n in zip(offs, sizes, strict=True)]
            self.emit(
                f'{r} = "stablehlo.slice"({a.name}) <{{start_indices = array<i64: {", ".join(map(str, offs))}>, '
                f"limit_indices = array<i64: {', '.join(map(str, limits))}>, "
                f"strides = array<i64: {', '.join(map(str, ones))}>}}> : ({self.ty(a.shape)}) -> {self.ty(shape)}"
            )
            return Val(r, shape)
        self.emit(f"{r} = tensor.extract_slice {a.name}{offs} {sizes} {ones} : {self.ty(a.shape)} to {self.ty(shape)}")
        if rng.random() < 0.5:
            return Val(r, shape)
        dest = self.operand(self.pick(shape=a.shape))
        r2 = self.fresh()
        self.emit(
            f"{r2} = tensor.insert_slice {r} into {dest.name}{offs} {sizes} {ones} : "
            f"{self.ty(shape)} into {self.ty(a.shape)}"
        )
        return Val(r2, a.shape)

    def gather(self) -> Val:
        """An embedding lookup as JAX exports it: `stablehlo.gather` of rows of
        a 2-D table at i32 ids (an `and` keeps most in range; the rest are
        clamped), with an explicit or implicit index vector dimension."""
        rng = self.rng
        table = self.operand(self.pick(rank=2))
        width = table.shape[1]
        n = self.dim()
        explicit = rng.random() < 0.5
        ids_shape = (n, 1) if explicit else (n,)
        ids_type = self.ty(ids_shape, "i32")
        ids = self.new_arg(ids_shape)
        ids.elt = "i32"
        mask, kept = self.fresh("m"), self.fresh("k")
        self.emit(f'{mask} = "stablehlo.constant"() <{{value = dense<15> : {ids_type}}}> : () -> {ids_type}')
        self.emit(f'{kept} = "stablehlo.and"({ids.name}, {mask}) : ({ids_type}, {ids_type}) -> {ids_type}')
        shape = (n, width)
        r = self.fresh()
        dims = "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1"
        self.emit(
            f'{r} = "stablehlo.gather"({table.name}, {kept}) <{{dimension_numbers = #stablehlo.gather<{dims}>, '
            f"indices_are_sorted = false, slice_sizes = array<i64: 1, {width}>}}> : "
            f"({self.ty(table.shape)}, {ids_type}) -> {self.ty(shape)}"
        )
        return Val(r, shape)

    def open_generic(self, a: Val, prefix: str) -> tuple[str, str, str]:
        """Open an elementwise `linalg.generic` over `a` into a fresh init of
        its shape, up to its block's arguments: its result, type and input
        element (`%{prefix}x...`)."""
        n = len(a.shape)
        dims = ", ".join(f"d{k}" for k in range(n))
        ident = f"affine_map<({dims}) -> ({dims})>"
        out = self.init(a.shape, None)
        r, t = self.fresh(), self.ty(a.shape)
        iters = ", ".join(['"parallel"'] * n)
        self.emit(
            f"{r} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = [{iters}]}} "
            f"ins({a.name} : {t}) outs({out.name} : {t}) {{"
        )
        self.emit(f"^bb0(%{prefix}x{self.n}: {self.elt}, %{prefix}o{self.n}: {self.elt}):")
        return r, t, f"%{prefix}x{self.n}"

    def close_generic(self, table: Val, positions: list[str], x: str, t: str, prefix: str) -> None:
        """End a generic `open_generic` began: yield its input element plus
        `table` read at `positions`."""
        e, y = self.fresh(f"{prefix}t"), self.fresh(f"{prefix}y")
        self.emit(f"  {e} = tensor.extract {table.name}[{', '.join(positions)}] : {self.ty(table.shape)}")
        self.emit(f"  {y} = arith.{'addi' if self.is_int else 'addf'} {x}, {e} : {self.elt}")
        self.emit(f"  linalg.yield {y} : {self.elt}")
        self.emit(f"}} -> {t}")

    def lookup(self) -> Val:
        """A table read from inside a `linalg.generic` body with
        `tensor.extract`, as torch-mlir lowers embeddings: the table is no
        operand (often annotated split or partial), and each position is
        a function of the loop indices kept in range (`(i * m + c) mod n`),
        for some of the op's input element instead (a token id, a label: a
        dimension read so may be masked, `masked_read`),
        or, in a table shaped after the loops, often a loop index itself
        (an NLL loss reads its log-softmax at [row, label]: partition
        splits that dimension as the loop is)."""
        rng = self.rng
        picked = self.pick()
        a = self.operand(picked)
        # A float computed in the program may round to either side of an
        # integer once partitioned (sums run in another order), and the
        # lookup then picks another row: only arguments give ids.
        exact_ids = self.is_int or any(picked is v for v in self.args)
        n = len(a.shape)
        loops: list[int | None] = []
        if rng.random() < 0.5:
            loops = [rng.randrange(n) for _ in range(rng.choice([1, 2]))]
            table = self.operand(self.pick(shape=tuple(a.shape[k] for k in loops)))
            loops = [k if rng.random() < 0.7 else None for k in loops]
        else:
            table = self.operand(self.pick(rank=rng.choice([1, 2])))
        r, t, x = self.open_generic(a, "l")
        positions = []
        for d, size in enumerate(table.shape):
            if d < len(loops) and loops[d] is not None:
                i = self.fresh("li")
                self.emit(f"  {i} = linalg.index {loops[d]} : index")
                positions.append(i)
                self.features.add("aligned lookup")
                continue
            k, m, c = rng.randrange(n), rng.choice([1, 1, 3, 5]), rng.randrange(size)
            i, mm, cc, nn = self.fresh("li"), self.fresh("lm"), self.fresh("lc"), self.fresh("ln")
            p1, p2, pos = self.fresh("lp"), self.fresh("lq"), self.fresh("lr")
            if m == 5 and c % 2 and exact_ids:
                # (drawn as before: the random stream of other programs stays)
                self.emit(f"  {mm} = arith.constant {m} : index")
                self.emit(f"  {cc} = arith.constant {c} : index")
                self.emit(f"  {nn} = arith.constant {size} : index")
                if self.is_int:
                    self.emit(f"  {i} = arith.index_cast {x} : {self.elt} to index")
                else:
                    w = self.fresh("lw")
                    self.emit(f"  {w} = arith.fptosi {x} : {self.elt} to i64")
                    self.emit(f"  {i} = arith.index_cast {w} : i64 to index")
                self.emit(f"  {p1} = arith.muli {i}, {mm} : index")
                self.emit(f"  {p2} = arith.addi {p1}, {cc} : index")
                self.emit(f"  {pos} = arith.remui {p2}, {nn} : index")
                positions.append(pos)
                self.features.add("id lookup")
                continue
            self.emit(f"  {i} = linalg.index {k} : index")
            self.emit(f"  {mm} = arith.constant {m} : index")
            self.emit(f"  {cc} = arith.constant {c} : index")
            self.emit(f"  {nn} = arith.constant {size} : index")
            self.emit(f"  {p1} = arith.muli {i}, {mm} : index")
            self.emit(f"  {p2} = arith.addi {p1}, {cc} : index")
            self.emit(f"  {pos} = arith.remui {p2}, {nn} : index")
            positions.append(pos)
        self.close_generic(table, positions, x, t, "l")
        self.features.add("lookup")
        return Val(r, a.shape)

    def upsample(self) -> Val:
        """Nearest up-sampling as torch-mlir writes it: a generic whose body
        reads a table `s` times shorter along one dimension at a source
        index computed from the loop index (float division, floor and a
        clamp, now and then one that bites; a multiplication by the
        reciprocal; unsigned casts; integer division), the table's other
        dimensions at the loop indices (`index_chains`, `aligned_reads`)."""
        rng = self.rng
        a = self.operand(self.pick())
        n = len(a.shape)
        k = rng.randrange(n)
        s = rng.choice([1, 2, 2, 3, 4])
        if a.shape[k] % s:
            s = 1
        rows = a.shape[k] // s
        table = self.operand(self.pick(shape=tuple(rows if d == k else m for d, m in enumerate(a.shape))))
        r, t, x = self.open_generic(a, "u")
        positions = []
        for d in range(n):
            i = self.fresh("ui")
            self.emit(f"  {i} = linalg.index {d} : index")
            positions.append(i)
        i = positions[k]
        spelling = rng.choice(["torch", "torch", "reciprocal", "unsigned", "floordivsi", "divui"])
        top = rows - 1 if rng.random() < 0.8 else max(0, rows - 2)
        names = [self.fresh("us") for _ in range(8)]
        c, f, q, fl, lo, hi, m, pos = names
        if spelling in ("floordivsi", "divui"):
            self.emit(f"  {c} = arith.constant {s} : index")
            self.emit(f"  {pos} = arith.{spelling} {i}, {c} : index")
        else:
            cast, to_f, to_i = (
                ("index_castui", "uitofp", "fptoui") if spelling == "unsigned" else ("index_cast", "sitofp", "fptosi")
            )
            factor, op = (f"{1.0 / s}", "mulf") if spelling == "reciprocal" else (f"{float(s)}", "divf")
            self.emit(f"  {c} = arith.{cast} {i} : index to i32")
            self.emit(f"  {f} = arith.{to_f} {c} : i32 to f32")
            self.emit(f"  {lo} = arith.constant {factor} : f32")
            self.emit(f"  {q} = arith.{op} {f}, {lo} : f32")
            self.emit(f"  {fl} = math.floor {q} : f32")
            last = fl
            if spelling == "torch":
                self.emit(f"  {hi} = arith.constant {float(top)} : f32")
                self.emit(f"  {m} = arith.minimumf {fl}, {hi} : f32")
                last = m
            w = self.fresh("uw")
            self.emit(f"  {w} = arith.{to_i} {last} : f32 to i32")
            self.emit(f"  {pos} = arith.{cast} {w} : i32 to index")
        positions[k] = pos
        self.close_generic(table, positions, x, t, "u")
        self.features.add("upsample")
        return Val(r, a.shape)

    def scatter(self) -> Val:
        """`.at[ids].set/add(u)` as JAX exports it: `stablehlo.scatter` of
        rows into a 2-D value at i32 ids (an `and` keeps most in range; the
        rest are dropped), or `.at[:, i].set(u)` of one column."""
        rng = self.rng
        x = self.operand(self.pick(rank=2))
        rows, width = x.shape
        add = rng.random() < 0.5
        if rng.random() < 0.6:
            n = self.dim()
            ids = self.new_arg((n, 1))
            ids.elt = "i32"
            ids_type = self.ty((n, 1), "i32")
            mask, kept = self.fresh("m"), self.fresh("k")
            self.emit(f'{mask} = "stablehlo.constant"() <{{value = dense<15> : {ids_type}}}> : () -> {ids_type}')
            self.emit(f'{kept} = "stablehlo.and"({ids.name}, {mask}) : ({ids_type}, {ids_type}) -> {ids_type}')
            u = self.operand(self.pick(shape=(n, width)))
            dims = "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
            dims += "index_vector_dim = 1"
        else:
            ids_type = self.ty((1,), "i32")
            kept = self.fresh("k")
            column = rng.randrange(width + 1)  # now and then one past the end: dropped
            self.emit(f'{kept} = "stablehlo.constant"() <{{value = dense<{column}> : {ids_type}}}> : () -> {ids_type}')
            u = self.operand(self.pick(shape=(rows,)))
            dims = "update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]"
        scalar = f"tensor<{self.elt}>"
        r, a, b, c = self.fresh(), self.fresh("a"), self.fresh("b"), self.fresh("c")
        self.emit(
            f'{r} = "stablehlo.scatter"({x.name}, {kept}, {u.name}) <{{scatter_dimension_numbers = '
            f"#stablehlo.scatter<{dims}>, indices_are_sorted = false, unique_indices = false}}> ({{"
        )
        self.emit(f"^bb0({a}: {scalar}, {b}: {scalar}):")
        if add:
            self.emit(f'  {c} = "stablehlo.add"({a}, {b}) : ({scalar}, {scalar}) -> {scalar}')
        self.emit(f'  "stablehlo.return"({c if add else b}) : ({scalar}) -> ()')
        self.emit(f"}}) : ({self.ty(x.shape)}, {ids_type}, {self.ty(u.shape)}) -> {self.ty(x.shape)}")
        return Val(r, x.shape)

    def sort(self) -> Val:
        """`jnp.sort`/`argsort` as JAX exports it: `stablehlo.sort` along one
        dimension, ascending by the first operand (total order for floats),
        a second operand carried along now and then."""
        rng = self.rng
        x = self.operand(self.pick())
        dim = rng.randrange(len(x.shape))
        xs = [x] + ([self.operand(self.pick(shape=x.shape))] if rng.random() < 0.4 else [])
        scalar = f"tensor<{self.elt}>"
        kind = "SIGNED" if self.is_int else "TOTALORDER"
        names = [self.fresh("s") for _ in xs]
        r = self.fresh()
        count = f":{len(xs)}" if len(xs) > 1 else ""
        types = ", ".join(self.ty(v.shape) for v in xs)
        self.emit(
            f'{r}{count} = "stablehlo.sort"({", ".join(v.name for v in xs)}) '
            f"<{{dimension = {dim} : i64, is_stable = true}}> ({{"
        )
        self.emit("^bb0(" + ", ".join(f"{n}a: {scalar}, {n}b: {scalar}" for n in names) + "):")
        c = self.fresh("c")
        self.emit(
            f'  {c} = "stablehlo.compare"({names[0]}a, {names[0]}b) <{{comparison_direction = '
            f"#stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type {kind}>}}> : "
            f"({scalar}, {scalar}) -> tensor<i1>"
        )
        self.emit(f'  "stablehlo.return"({c}) : (tensor<i1>) -> ()')
        self.emit(f"}}) : ({types}) -> ({types})")
        return Val(f"{r}#{rng.randrange(len(xs))}" if len(xs) > 1 else r, x.shape)

    # -- windows: stencils, convolutions, pooling, pads, concats ---------

    def lowest(self) -> str:
        """The identity of a max: the element type's lowest value."""
        if self.is_int:
            return "-2147483648" if self.elt == "i32" else "-9223372036854775808"
        return "0xFF800000"

    def highest(self) -> str:
        """The identity of a min: the element type's highest value."""
        if self.is_int:
            return "2147483647" if self.elt == "i32" else "9223372036854775807"
        return "0x7F800000"

    def hlo_scalar(self, value: str) -> str:
        """A `stablehlo.constant` scalar of the element type (lowest: -inf)."""
        lit = value
        if not self.is_int:
            if value == "0xFF800000":
                lit = self.infinity(negative=True)
            elif not value.startswith("0x") and "." not in value:
                lit = value + ".0"
        s, name = f"tensor<{self.elt}>", self.fresh("hc")
        self.emit(f'{name} = "stablehlo.constant"() <{{value = dense<{lit}> : {s}}}> : () -> {s}')
        return name

    def window(self) -> tuple[int, int, int]:
        """A window's (size, stride, dilation), mostly small and plain."""
        rng = self.rng
        return rng.choice([1, 2, 3, 3, 5]), rng.choice([1, 1, 1, 2, 3]), rng.choice([1, 1, 1, 2])

    def windowed_input(
        self, rank: int, spatial: list[int], reach: list[int], make: Callable[[], tuple[int, ...]]
    ) -> Val:
        """A recent value of `rank` whose `spatial` dimensions hold the
        windows' `reach`, a new argument of shape `make()`, or such a shape
        made by a `tensor.pad` of a new argument along `spatial` (which the
        op reads through when it is the pad's only user, as torch-mlir's
        padded convolutions are written)."""
        if self.rng.random() < 0.25:
            padded = self.padded_input(make(), spatial)
            if padded is not None:
                return padded
        cands = [
            v
            for v in self.pool[-6:]
            if len(v.shape) == rank and all(v.shape[d] >= r for d, r in zip(spatial, reach, strict=True))
        ]
        if cands and self.rng.random() < 0.6:
            return self.rng.choice(cands)
        v = self.new_arg(make())
        self.pool.append(v)
        return v

    def padded_input(self, shape: tuple[int, ...], spatial: list[int]) -> Val | None:
        """`shape` made by padding a new argument along some of `spatial`
        with 0, 1 or the lowest value (None: a padded size would be empty)."""
        rng = self.rng
        dims = [d for d in spatial if rng.random() < 0.8] or spatial[:1]
        lo = [rng.choice([0, 1, 1, 2]) if d in dims else 0 for d in range(len(shape))]
        hi = [rng.choice([0, 1, 1, 2]) if d in dims else 0 for d in range(len(shape))]
        base = tuple(n - a - b for n, a, b in zip(shape, lo, hi, strict=True))
        if any(n < 1 for n in base):
            return None
        x = self.operand(self.new_arg(base))
        c = self.scalar(rng.choice(["0", "0", "1", self.lowest()]))
        r = self.fresh()
        self.emit(f"{r} = tensor.pad {x.name} low{lo} high{hi} {{")
        self.emit("^bb0(" + ", ".join(f"%pi{d}: index" for d in range(len(shape))) + "):")
        self.emit(f"  tensor.yield {c} : {self.elt}")
        self.emit(f"}} : {self.ty(base)} to {self.ty(shape)}")
        self.features.add("pad-read")
        return Val(r, shape)

    def stencil(self) -> Val:
        """A `linalg.generic` reading one or two dimensions through windows,
        `S*i + D*k + c`: a weighted sum (a convolution), or the max or the
        sum of the window's cells (pooling)."""
        rng = self.rng
        rank = rng.choice([1, 1, 2, 2, 3])
        dims = sorted(rng.sample(range(rank), 2 if rank > 1 and rng.random() < 0.3 else 1))
        windows = {d: (*self.window(), rng.choice([0, 0, 0, 1])) for d in dims}
        reach = {d: dl * (k - 1) + c + 1 for d, (k, _, dl, c) in windows.items()}
        x = self.windowed_input(
            rank,
            dims,
            [reach[d] for d in dims],
            lambda: tuple(self.dim() + reach[j] - 1 if j in reach else self.dim() for j in range(rank)),
        )
        shape = tuple((n - reach[j]) // windows[j][1] + 1 if j in reach else n for j, n in enumerate(x.shape))
        loops = {d: f"k{i}" for i, d in enumerate(dims)}

        def read(j: int) -> str:
            if j not in windows:
                return f"d{j}"
            k, st, dl, c = windows[j]
            terms = [f"{st} * d{j}" if st > 1 else f"d{j}", f"{dl} * {loops[j]}" if dl > 1 else loops[j]]
            return " + ".join(terms + ([str(c)] if c else []))

        head = "(" + ", ".join([f"d{j}" for j in range(rank)] + list(loops.values())) + ")"
        plain = ", ".join(f"d{j}" for j in range(rank))
        kind = rng.choice(["weighted", "weighted", "max", "sum"])
        x = self.halo_operand(x, dims)
        wshape = tuple(windows[d][0] for d in dims)
        if kind == "weighted":
            w = self.operand(self.new_arg(wshape))
        else:  # a window tensor that only gives the window loops their sizes, as linalg's poolings have
            w = Val(self.fresh("e"), wshape)
            self.emit(f"{w.name} = tensor.empty() : {self.ty(wshape)}")
        maps = [
            f"affine_map<{head} -> ({', '.join(read(j) for j in range(rank))})>",
            f"affine_map<{head} -> ({', '.join(loops.values())})>",
            f"affine_map<{head} -> ({plain})>",
        ]
        init = self.maybe_annotate(self.init(shape, self.lowest() if kind == "max" else "0"), 0.1)
        iters = ", ".join(['"parallel"'] * rank + ['"reduction"'] * len(dims))
        e, t, r = self.elt, self.ty(shape), self.fresh()
        i = "i" if self.is_int else "f"
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iters}]}}")
        self.emit(f"    ins({x.name}, {w.name} : {self.ty(x.shape)}, {self.ty(wshape)}) outs({init.name} : {t}) {{")
        self.emit(f"^bb0(%wa: {e}, %wb: {e}, %wo: {e}):")
        if kind == "weighted":
            self.emit(f"  %wm = arith.mul{i} %wa, %wb : {e}")
            self.emit(f"  %wt = arith.add{i} %wo, %wm : {e}")
        else:
            op = ("maxsi" if self.is_int else "maximumf") if kind == "max" else f"add{i}"
            self.emit(f"  %wt = arith.{op} %wo, %wa : {e}")
        self.emit(f"  linalg.yield %wt : {e}")
        self.emit(f"}} -> {t}")
        self.features.add("stencil")
        return Val(r, shape)

    # linalg's convolutions and poolings: the dimensions of input, filter and
    # output, n(batch) c(channels) f(features) g(groups) m(multiplier)
    # s(spatial, read through the window) k(window) o(output spatial).
    CONVS: dict[str, tuple[str, str, str]] = {
        "conv_1d": ("s", "k", "o"),
        "conv_2d": ("ss", "kk", "oo"),
        "conv_1d_nwc_wcf": ("nsc", "kcf", "nof"),
        "conv_1d_ncw_fcw": ("ncs", "fck", "nfo"),
        "conv_2d_nhwc_hwcf": ("nssc", "kkcf", "noof"),
        "conv_2d_nhwc_fhwc": ("nssc", "fkkc", "noof"),
        "conv_2d_nchw_fchw": ("ncss", "fckk", "nfoo"),
        "conv_2d_ngchw_fgchw": ("ngcss", "fgckk", "ngfoo"),
        "conv_2d_nhwgc_gfhwc": ("nssgc", "gfkkc", "noogf"),
        "conv_3d_ndhwc_dhwcf": ("nsssc", "kkkcf", "nooof"),
        "depthwise_conv_1d_nwc_wc": ("nsc", "kc", "noc"),
        "depthwise_conv_1d_ncw_cw": ("ncs", "ck", "nco"),
        "depthwise_conv_1d_nwc_wcm": ("nsc", "kcm", "nocm"),
        "depthwise_conv_2d_nhwc_hwc": ("nssc", "kkc", "nooc"),
        "depthwise_conv_2d_nchw_chw": ("ncss", "ckk", "ncoo"),
        "depthwise_conv_2d_nhwc_hwcm": ("nssc", "kkcm", "noocm"),
        "pooling_nwc_sum": ("nsc", "k", "noc"),
        "pooling_nwc_max": ("nsc", "k", "noc"),
        "pooling_nwc_min": ("nsc", "k", "noc"),
        "pooling_ncw_max": ("ncs", "k", "nco"),
        "pooling_nhwc_sum": ("nssc", "kk", "nooc"),
        "pooling_nhwc_max": ("nssc", "kk", "nooc"),
        "pooling_nhwc_min": ("nssc", "kk", "nooc"),
        "pooling_nchw_sum": ("ncss", "kk", "ncoo"),
        "pooling_nchw_max": ("ncss", "kk", "ncoo"),
        "pooling_nhwc_max_unsigned": ("nssc", "kk", "nooc"),
        "pooling_nhwc_min_unsigned": ("nssc", "kk", "nooc"),
        "pooling_ndhwc_max": ("nsssc", "kkk", "noooc"),
    }

    def conv(self) -> Val:
        """A linalg convolution or pooling named op (1-D to 3-D, channels
        first or last, grouped, depthwise, unsigned poolings on integers)
        with strides and dilations."""
        rng = self.rng
        kinds = [k for k in self.CONVS if self.is_int or "unsigned" not in k]
        kind = rng.choice(kinds)
        xl, wl, ol = self.CONVS[kind]
        spatial = [d for d, ch in enumerate(xl) if ch == "s"]
        plain = kind in ("conv_1d", "conv_2d")  # no strides or dilations
        windows = [self.window() if not plain else (self.window()[0], 1, 1) for _ in spatial]
        if "3d" in kind:  # small: three spatial dimensions
            windows = [(min(k, 3), st, 1) for k, st, _ in windows]
        reach = [dl * (k - 1) + 1 for k, _, dl in windows]
        sizes = {"n": rng.choice([1, 1, 2]), "c": rng.choice([1, 2, 3]), "g": 2}

        def make() -> tuple[int, ...]:
            dims, j = [], 0
            for ch in xl:
                if ch == "s":
                    dims.append((self.dim() if "3d" not in kind else rng.choice([2, 3, 4])) + reach[j] - 1)
                    j += 1
                else:
                    dims.append(sizes[ch])
            return tuple(dims)

        x = self.windowed_input(len(xl), spatial, reach, make)
        for ch, n in zip(xl, x.shape, strict=True):
            if ch != "s":
                sizes[ch] = n
        sizes.update(f=rng.choice([2, 3, 4]), m=rng.choice([1, 2]))
        outs = [(x.shape[d] - r) // st + 1 for d, r, (_, st, _) in zip(spatial, reach, windows, strict=True)]
        ks = [k for k, _, _ in windows]

        def shape_of(layout: str, spatial_sizes: list[int], letter: str) -> tuple[int, ...]:
            it = iter(spatial_sizes)
            return tuple(next(it) if ch == letter else sizes[ch] for ch in layout)

        wshape, shape = shape_of(wl, ks, "k"), shape_of(ol, outs, "o")
        nsp = len(spatial)
        attrs = ""
        if not plain and (rng.random() < 0.8 or any(st != 1 or dl != 1 for _, st, dl in windows)):
            strides = ", ".join(str(st) for _, st, _ in windows)
            dilations = ", ".join(str(dl) for _, _, dl in windows)
            attrs = (
                f" {{strides = dense<[{strides}]> : tensor<{nsp}xi64>, "
                f"dilations = dense<[{dilations}]> : tensor<{nsp}xi64>}}"
            )
        x = self.halo_operand(x, spatial)
        if kind.startswith("pooling"):
            w = Val(self.fresh("e"), wshape)
            self.emit(f"{w.name} = tensor.empty() : {self.ty(wshape)}")
        else:
            w = self.operand(self.new_arg(wshape))
        if kind.endswith("max_unsigned"):
            neutral = "0"
        elif kind.endswith("min_unsigned"):
            neutral = "-1"
        elif kind.endswith("max"):
            neutral = self.lowest()
        elif kind.endswith("min"):
            neutral = self.highest()
        else:
            neutral = "0"
        init = self.maybe_annotate(self.init(shape, neutral), 0.1)
        r, t = self.fresh(), self.ty(shape)
        self.emit(
            f"{r} = linalg.{kind}{attrs} ins({x.name}, {w.name} : {self.ty(x.shape)}, {self.ty(wshape)}) "
            f"outs({init.name} : {t}) -> {t}"
        )
        self.features.add("pool" if kind.startswith("pooling") else "conv")
        if rng.random() < 0.3:
            # PyTorch's causal `conv(x, padding=k-1)[..., :L]`: a run of one
            # spatial dimension kept (which prepare-windows narrows the op to)
            j = rng.choice([d for d, ch in enumerate(ol) if ch == "o"])
            size = rng.randrange(1, shape[j] + 1)
            offs = [rng.randrange(0, shape[j] - size + 1) if d == j else 0 for d in range(len(shape))]
            kept = tuple(size if d == j else n for d, n in enumerate(shape))
            r2 = self.fresh()
            self.emit(f"{r2} = tensor.extract_slice {r}{offs} {list(kept)} {[1] * len(shape)} : {t} to {self.ty(kept)}")
            self.features.add("sliced-window")
            return Val(r2, kept)
        return Val(r, shape)

    def tosa_window(self) -> Val:
        """`tosa.conv2d`, `depthwise_conv2d`, `max_pool2d` or `avg_pool2d`
        (f32, NHWC) with padding, strides and (convolutions) dilations: an
        input whose sizes make the output exact, as TOSA asks."""
        rng = self.rng
        kind = rng.choice(["conv2d", "depthwise_conv2d", "max_pool2d", "avg_pool2d"])
        pool = kind.endswith("pool2d")
        windows = []
        for _ in range(2):
            k, st, dl = self.window()
            if pool:
                k, dl = max(k, 2) if rng.random() < 0.7 else k, 1
            windows.append((k, st, dl))

        def pads(size: int, k: int, st: int, dl: int) -> tuple[int, int] | None:
            """Padding (each below the kernel for a pooling) that makes the output exact."""
            top = k if not pool else k - 1
            opts = [(a, b) for a in range(top + 1) for b in range(top + 1)]
            rng.shuffle(opts)
            if rng.random() < 0.5:
                opts.sort(key=sum)  # unpadded first
            for a, b in opts:
                span = size - 1 + a + b - dl * (k - 1)
                if span >= 0 and span % st == 0 and (not pool or (a < k and b < k)):
                    return a, b
            return None

        x = None
        for v in self.pool[-6:]:
            if len(v.shape) == 4:
                ps = [pads(v.shape[1 + j], *windows[j]) for j in range(2)]
                if all(ps):
                    x, padding = v, ps
                    break
        if x is None:
            sizes, padding = [], []
            for k, st, dl in windows:
                a, b = (rng.randrange(k), rng.randrange(k)) if rng.random() < 0.5 else (0, 0)
                o = rng.choice([2, 3, 4, 5, 6])
                size = max((o - 1) * st + dl * (k - 1) + 1 - a - b, 1)
                while (size - 1 + a + b - dl * (k - 1)) % st or size - 1 + a + b - dl * (k - 1) < 0:
                    size += 1
                sizes.append(size)
                padding.append((a, b))
            x = self.new_arg((rng.choice([1, 1, 2]), *sizes, rng.choice([1, 2, 3])))
            self.pool.append(x)
        outs = [
            (x.shape[1 + j] - 1 + a + b - dl * (k - 1)) // st + 1
            for j, ((k, st, dl), (a, b)) in enumerate(zip(windows, padding, strict=True))
        ]
        n, c = x.shape[0], x.shape[3]
        pad = ", ".join(str(v) for ab in padding for v in ab)
        stride = ", ".join(str(st) for _, st, _ in windows)
        x = self.halo_operand(x, [1, 2])
        zp = self.fresh("zp")
        one = "tensor<1xf32>"
        self.emit(f'{zp} = "tosa.const"() {{values = dense<0.0> : {one}}} : () -> {one}')
        r = self.fresh()
        if pool:
            shape = (n, *outs, c)
            kernel = ", ".join(str(k) for k, _, _ in windows)
            t = self.ty(shape)
            attrs = f"kernel = array<i64: {kernel}>, pad = array<i64: {pad}>, stride = array<i64: {stride}>"
            if kind == "max_pool2d":
                self.emit(f"{r} = tosa.max_pool2d {x.name} {{{attrs}}} : ({self.ty(x.shape)}) -> {t}")
            else:
                self.emit(
                    f"{r} = tosa.avg_pool2d {x.name}, {zp}, {zp} {{acc_type = f32, {attrs}}} : "
                    f"({self.ty(x.shape)}, {one}, {one}) -> {t}"
                )
            self.features.update(("tosa", "pool"))
            return Val(r, shape)
        ks = [k for k, _, _ in windows]
        if kind == "conv2d":
            f = rng.choice([2, 3, 4])
            wshape = (f, *ks, c)
        else:
            m = rng.choice([1, 2])
            wshape, f = (*ks, c, m), c * m
        shape = (n, *outs, f)
        w = self.operand(self.new_arg(wshape))
        b = self.new_arg((f,))
        dilation = ", ".join(str(dl) for _, _, dl in windows)
        t = self.ty(shape)
        self.emit(
            f"{r} = tosa.{kind} {x.name}, {w.name}, {b.name}, {zp}, {zp} {{acc_type = f32, "
            f"dilation = array<i64: {dilation}>, pad = array<i64: {pad}>, stride = array<i64: {stride}>}} : "
            f"({self.ty(x.shape)}, {self.ty(wshape)}, {self.ty((f,))}, {one}, {one}) -> {t}"
        )
        self.features.update(("tosa", "conv"))
        return Val(r, shape)

    def hlo_conv(self) -> Val:
        """`stablehlo.convolution` as JAX exports one (channels last, 1-D or
        2-D) with padding, strides and a dilated kernel; now and then a
        dilated input (which stays whole) or depthwise groups."""
        rng = self.rng
        nsp = rng.choice([1, 2])
        windows = [self.window() for _ in range(nsp)]
        reach = [dl * (k - 1) + 1 for k, _, dl in windows]

        def make() -> tuple[int, ...]:
            return (rng.choice([1, 2]), *[self.dim() + r - 1 for r in reach], rng.choice([1, 2, 3]))

        x = self.windowed_input(nsp + 2, list(range(1, nsp + 1)), reach, make)
        padding = [(rng.choice([0, 0, 1, 2]), rng.choice([0, 0, 1, 2])) for _ in range(nsp)]
        lhs = [2 if rng.random() < 0.1 else 1 for _ in range(nsp)]
        outs = [
            ((x.shape[1 + j] - 1) * lhs[j] + 1 + a + b - reach[j]) // st + 1
            for j, ((_, st, _), (a, b)) in enumerate(zip(windows, padding, strict=True))
        ]
        c = x.shape[-1]
        ks = [k for k, _, _ in windows]
        if rng.random() < 0.25:
            m = rng.choice([1, 2])
            groups, wshape, f = c, (*ks, 1, c * m), c * m
        else:
            f = rng.choice([2, 3, 4])
            groups, wshape = 1, (*ks, c, f)
        shape = (x.shape[0], *outs, f)
        sp = ", ".join(str(j) for j in range(nsp))
        numbers = f"[b, {sp}, f]x[{sp}, i, o]->[b, {sp}, f]"
        x = self.halo_operand(x, list(range(1, nsp + 1)))
        w = self.operand(self.new_arg(wshape))

        def arr(vals: list[int]) -> str:
            return f"array<i64: {', '.join(map(str, vals))}>"

        pad = ", ".join(f"[{a}, {b}]" for a, b in padding)
        r, t = self.fresh(), self.ty(shape)
        self.emit(
            f'{r} = "stablehlo.convolution"({x.name}, {w.name}) <{{batch_group_count = 1 : i64, '
            f"dimension_numbers = #stablehlo.conv<{numbers}>, feature_group_count = {groups} : i64, "
            f"lhs_dilation = {arr(lhs)}, padding = dense<[{pad}]> : tensor<{nsp}x2xi64>, "
            f"rhs_dilation = {arr([dl for _, _, dl in windows])}, "
            f"window_strides = {arr([st for _, st, _ in windows])}}}> : "
            f"({self.ty(x.shape)}, {self.ty(wshape)}) -> {t}"
        )
        self.features.update(("hlo-window", "conv"))
        return Val(r, shape)

    def hlo_pool(self) -> Val:
        """`stablehlo.reduce_window` (JAX's max and sum pooling) over any
        dimensions, with strides, padding, window dilations and, rarely, a
        dilated input; its init mostly the body's identity."""
        rng = self.rng
        x = self.pick()
        dims, strides, wdil, bdil, padding = [], [], [], [], []
        for size in x.shape:
            k, st, dl = self.window() if rng.random() < 0.5 else (1, 1, 1)
            if dl * (k - 1) + 1 > size:
                k, dl = 1, 1
            dims.append(k)
            strides.append(st)
            wdil.append(dl)
            bdil.append(2 if rng.random() < 0.05 else 1)
            padding.append((rng.choice([0, 0, 0, 1, 2]), rng.choice([0, 0, 0, 1])) if k > 1 else (0, 0))
        shape = tuple(
            ((n - 1) * bd + 1 + a + b - (dl * (k - 1) + 1)) // st + 1
            for n, k, st, dl, bd, (a, b) in zip(x.shape, dims, strides, wdil, bdil, padding, strict=True)
        )
        is_max = rng.random() < 0.5
        identity = self.lowest() if is_max else "0"
        init = self.hlo_scalar(identity if rng.random() < 0.85 else "1")
        x = self.halo_operand(x, [d for d, k in enumerate(dims) if k > 1])

        def arr(vals: list[int]) -> str:
            return f"array<i64: {', '.join(map(str, vals))}>"

        s, r, t = f"tensor<{self.elt}>", self.fresh(), self.ty(shape)
        pad = ", ".join(f"[{a}, {b}]" for a, b in padding)
        self.emit(
            f'{r} = "stablehlo.reduce_window"({x.name}, {init}) <{{base_dilations = {arr(bdil)}, '
            f"padding = dense<[{pad}]> : tensor<{len(shape)}x2xi64>, window_dilations = {arr(wdil)}, "
            f"window_dimensions = {arr(dims)}, window_strides = {arr(strides)}}}> ({{"
        )
        self.emit(f"^bb0(%wa: {s}, %wb: {s}):")
        self.emit(f'  %wm = "stablehlo.{"maximum" if is_max else "add"}"(%wa, %wb) : ({s}, {s}) -> {s}')
        self.emit(f'  "stablehlo.return"(%wm) : ({s}) -> ()')
        self.emit(f"}}) : ({self.ty(x.shape)}, {s}) -> {t}")
        self.features.update(("hlo-window", "pool"))
        return Val(r, shape)

    def pad(self) -> Val:
        """`tensor.pad` by a constant, or (extended) `stablehlo.pad` with
        edge padding (now and then negative: a crop) and interior padding."""
        rng = self.rng
        x = self.pick()
        rank = len(x.shape)
        padded = set(rng.sample(range(rank), rng.randrange(1, rank + 1)))
        value = rng.choice(["0", "0", "1", "7"])
        if self.extended and rng.random() < 0.5:
            lo, hi, inner = [], [], []
            for d, n in enumerate(x.shape):
                a, b = (rng.choice([0, 1, 2]), rng.choice([0, 1, 2])) if d in padded else (0, 0)
                if d in padded and n >= 3 and rng.random() < 0.15:
                    a = -1
                lo.append(a)
                hi.append(b)
                inner.append(1 if d in padded and rng.random() < 0.2 else 0)
            shape = tuple(a + b + n + (n - 1) * i for n, a, b, i in zip(x.shape, lo, hi, inner, strict=True))
            pv = self.hlo_scalar(value)
            x = self.halo_operand(x, sorted(padded))
            r, s = self.fresh(), f"tensor<{self.elt}>"

            def arr(vals: list[int]) -> str:
                return f"array<i64: {', '.join(map(str, vals))}>"

            self.emit(
                f'{r} = "stablehlo.pad"({x.name}, {pv}) <{{edge_padding_high = {arr(hi)}, '
                f"edge_padding_low = {arr(lo)}, interior_padding = {arr(inner)}}}> : "
                f"({self.ty(x.shape)}, {s}) -> {self.ty(shape)}"
            )
            self.features.update(("pad", "hlo-window"))
            return Val(r, shape)
        lo = [rng.choice([0, 1, 2]) if d in padded else 0 for d in range(rank)]
        hi = [rng.choice([0, 1, 2]) if d in padded else 0 for d in range(rank)]
        shape = tuple(n + a + b for n, a, b in zip(x.shape, lo, hi, strict=True))
        c = self.scalar(value)
        x = self.halo_operand(x, sorted(padded))
        r = self.fresh()
        self.emit(f"{r} = tensor.pad {x.name} low{lo} high{hi} {{")
        self.emit("^bb0(" + ", ".join(f"%pi{d}: index" for d in range(rank)) + "):")
        self.emit(f"  tensor.yield {c} : {self.elt}")
        self.emit(f"}} : {self.ty(x.shape)} to {self.ty(shape)}")
        self.features.add("pad")
        return Val(r, shape)

    def concat(self) -> Val:
        """`tensor.concat` or (extended)
        `stablehlo.concatenate` of two or three values along one dimension."""
        rng = self.rng
        a = self.operand(self.pick())
        d = rng.randrange(len(a.shape))
        parts = [a]
        for _ in range(rng.choice([1, 1, 2])):
            n = a.shape[d] if rng.random() < 0.3 else self.dim()
            parts.append(self.operand(self.pick(shape=a.shape[:d] + (n,) + a.shape[d + 1 :])))
        shape = a.shape[:d] + (sum(v.shape[d] for v in parts),) + a.shape[d + 1 :]
        r, t = self.fresh(), self.ty(shape)
        names, types = ", ".join(v.name for v in parts), ", ".join(self.ty(v.shape) for v in parts)
        if self.extended and rng.random() < 0.5:
            self.emit(f'{r} = "stablehlo.concatenate"({names}) <{{dimension = {d} : i64}}> : ({types}) -> {t}')
        else:
            self.emit(f"{r} = tensor.concat dim({d}) {names} : ({types}) -> {t}")
        self.features.add("concat")
        return Val(r, shape)

    def while_loop(self, depth: int) -> Val:
        a = self.maybe_annotate(self.pick(), 0.4)
        t = self.ty(a.shape)
        lo, hi, one = self.index_const(0), self.index_const(self.rng.choice([1, 2])), self.index_const(1)
        r, i, x, c = self.fresh("w"), self.fresh("wi"), self.fresh("wx"), self.fresh("wc")
        self.emit(f"{r}:2 = scf.while ({i} = {lo}, {x} = {a.name}) : (index, {t}) -> (index, {t}) {{")
        self.emit(f"  {c} = arith.cmpi slt, {i}, {hi} : index")
        self.emit(f"  scf.condition({c}) {i}, {x} : index, {t}")
        self.emit("} do {")
        j, y = self.fresh("wj"), self.fresh("wy")
        self.emit(f"^bb0({j}: index, {y}: {t}):")
        op = "addi" if self.is_int else "addf"
        n, j1 = self.fresh(), self.fresh()
        self.emit(f"  {n} = arith.{op} {y}, {a.name} : {t}")
        self.emit(f"  {j1} = arith.addi {j}, {one} : index")
        self.emit(f"  scf.yield {j1}, {n} : index, {t}")
        self.emit("}")
        return Val(f"{r}#1", a.shape)

    def block_branch(self) -> Val:
        """Hand a value to a new block with cf.br (a multi-block function)."""
        a = self.maybe_annotate(self.pick(), 0.4)
        self.blocks += 1
        arg = self.fresh("bb")
        self.emit(f"cf.br ^bb{self.blocks}({a.name} : {self.ty(a.shape)})")
        self.lines.append(f"^bb{self.blocks}({arg}: {self.ty(a.shape)}):")
        return Val(arg, a.shape)

    def block_choice(self) -> Val:
        """Hand one of two values to a new block with cf.cond_br, on a flag
        read from the data (so each seed may take either edge)."""
        a = self.maybe_annotate(self.pick(), 0.4)
        b = self.maybe_annotate(self.pick(shape=a.shape), 0.4)
        t = self.ty(a.shape)
        first = ", ".join([self.index_const(0)] * len(a.shape))
        x, flag = self.fresh("x"), self.fresh("flag")
        self.emit(f"{x} = tensor.extract {a.name}[{first}] : {t}")
        compare = "cmpi sgt" if self.is_int else "cmpf ogt"
        self.emit(f"{flag} = arith.{compare}, {x}, {self.scalar('0')} : {self.elt}")
        self.blocks += 1
        arg = self.fresh("bb")
        self.emit(f"cf.cond_br {flag}, ^bb{self.blocks}({a.name} : {t}), ^bb{self.blocks}({b.name} : {t})")
        self.lines.append(f"^bb{self.blocks}({arg}: {t}):")
        self.features.add("cond_br")
        return Val(arg, a.shape)

    def collective(self) -> Val:
        """A collective or a device index already in the program: values
        that differ between devices, which partition must leave as they are
        (the reference runs on every device of the mesh)."""
        if self.divergent:  # a collective some devices skip deadlocks the reference itself
            return self.device_value()
        kind = self.rng.choice(["all_reduce", "all_reduce", "gather", "slice", "scatter", "all_to_all"])
        kind = self.rng.choice([kind, "device", "broadcast", "shift"])
        if kind == "device":
            return self.device_value()
        a = self.pick()
        self.features.add("collective")
        rng, t = self.rng, self.ty(a.shape)
        axes = sorted(rng.sample(range(len(self.mesh)), rng.randrange(0, len(self.mesh) + 1)))
        group = math.prod(self.mesh[x] for x in axes)
        r = self.fresh()
        on = f"on @mesh mesh_axes = {axes}"
        dim = rng.randrange(len(a.shape))
        if kind == "gather":
            shape = tuple(n * group if d == dim else n for d, n in enumerate(a.shape))
            self.emit(f"{r} = mesh.all_gather {a.name} {on} gather_axis = {dim} : {t} -> {self.ty(shape)}")
            return Val(r, shape)
        if kind in ("slice", "scatter") and a.shape[dim] % group == 0:
            shape = tuple(n // group if d == dim else n for d, n in enumerate(a.shape))
            op, axis = ("all_slice", "slice_axis") if kind == "slice" else ("reduce_scatter", "scatter_axis")
            self.emit(f"{r} = mesh.{op} {a.name} {on} {axis} = {dim} : {t} -> {self.ty(shape)}")
            return Val(r, shape)
        if kind == "all_to_all" and len(a.shape) > 1 and a.shape[dim] % group == 0:
            concat = rng.choice([d for d in range(len(a.shape)) if d != dim])
            shape = list(a.shape)
            shape[dim] //= group
            shape[concat] *= group
            self.emit(
                f"{r} = mesh.all_to_all {a.name} {on} split_axis = {dim} concat_axis = {concat} : "
                f"{t} -> {self.ty(tuple(shape))}"
            )
            return Val(r, tuple(shape))
        if kind == "broadcast":
            root = [rng.randrange(self.mesh[x]) for x in axes]
            self.emit(f"{r} = mesh.broadcast {a.name} {on} root = {root} : ({t}) -> {t}")
            return Val(r, a.shape)
        if kind == "shift" and axes:
            axis = rng.choice(axes)
            offset = rng.choice([-1, 1, 2])
            rotate = rng.choice(["", " rotate"])
            self.emit(f"{r} = mesh.shift {a.name} {on} shift_axis = {axis} offset = {offset}{rotate} : {t} -> {t}")
            return Val(r, a.shape)
        kinds = ["sum", "max", "min"] + (["bitwise_xor"] if self.is_int else [])
        reduction = rng.choice(kinds)
        self.emit(f"{r} = mesh.all_reduce {a.name} {on} reduction = <{reduction}> : {t} -> {t}")
        return Val(r, a.shape)

    def device_value(self) -> Val:
        """A tensor holding the device's index (linear, or along one mesh
        axis), added to a value of the program."""
        rng = self.rng
        a = self.pick()
        self.features.add("device index")
        d = self.fresh("d")
        if rng.random() < 0.5:
            self.emit(f"{d} = mesh.process_linear_index on @mesh : index")
        else:
            self.emit(f"{d} = mesh.process_multi_index on @mesh axes = [{rng.randrange(len(self.mesh))}] : index")
        n = self.fresh("n")
        if self.is_int:
            self.emit(f"{n} = arith.index_cast {d} : index to {self.elt}")
        else:
            wide = self.fresh("n")
            self.emit(f"{wide} = arith.index_cast {d} : index to i64")
            self.emit(f"{n} = arith.sitofp {wide} : i64 to {self.elt}")
        e, f, r = self.fresh("e"), self.fresh("f"), self.fresh()
        t = self.ty(a.shape)
        self.emit(f"{e} = tensor.empty() : {t}")
        self.emit(f"{f} = linalg.fill ins({n} : {self.elt}) outs({e} : {t}) -> {t}")
        self.emit(f"{r} = arith.{'addi' if self.is_int else 'addf'} {a.name}, {f} : {t}")
        return Val(r, a.shape)

    def device_branch(self, depth: int) -> Val:
        """An scf.if that devices decide differently (on their index): only
        some run each arm, so no collective goes inside."""
        a = self.pick()
        d, zero, cond = self.fresh("d"), self.index_const(0), self.fresh("b")
        self.emit(f"{d} = mesh.process_linear_index on @mesh : index")
        self.emit(f"{cond} = arith.cmpi {self.rng.choice(['eq', 'ne'])}, {d}, {zero} : index")
        r = self.fresh("r")
        t = self.ty(a.shape)
        self.features.add("device branch")
        self.emit(f"{r} = scf.if {cond} -> ({t}) {{")
        saved_pool, saved_consts, saved_sh = self.pool, self.consts, self.shardings
        self.divergent += 1
        for arm in range(2):
            if arm:
                self.emit("} else {")
            self.pool, self.consts, self.shardings = list(saved_pool), dict(saved_consts), dict(saved_sh)
            self.indent += "  "
            v = self.chain(self.rng.randrange(0, 2), depth + 1, want=a.shape, start=a)
            self.emit(f"scf.yield {v.name} : {t}")
            self.indent = self.indent[:-2]
        self.divergent -= 1
        self.emit("}")
        self.pool, self.consts, self.shardings = saved_pool, saved_consts, saved_sh
        return Val(r, a.shape)

    def index_const(self, v: int) -> str:
        key = f"{v}:index"
        if key not in self.consts:
            name = self.fresh("i")
            self.emit(f"{name} = arith.constant {v} : index")
            self.consts[key] = name
        return self.consts[key]

    def loop(self, depth: int) -> Val:
        acc0 = self.pick()
        acc0 = self.maybe_annotate(acc0, 0.4)
        lo, hi, st = self.index_const(0), self.index_const(self.rng.choice([1, 2, 3])), self.index_const(1)
        r, iv, acc = self.fresh("r"), self.fresh("iv"), self.fresh("acc")
        t = self.ty(acc0.shape)
        self.emit(f"{r} = scf.for {iv} = {lo} to {hi} step {st} iter_args({acc} = {acc0.name}) -> ({t}) {{")
        saved_pool, saved_consts, saved_sh = self.pool, self.consts, self.shardings
        self.pool = [Val(acc, acc0.shape)] + [v for v in saved_pool]
        self.consts, self.shardings = dict(saved_consts), dict(saved_sh)
        self.indent += "  "
        carried = Val(acc, acc0.shape)
        if self.rng.random() < 0.3:
            carried = self.annotate(carried, users=False)
            self.pool.append(carried)
        body = self.chain(self.rng.randrange(1, 3), depth + 1, want=acc0.shape, start=carried)
        body = self.maybe_annotate(body, 0.4)
        self.emit(f"scf.yield {body.name} : {t}")
        self.indent = self.indent[:-2]
        self.emit("}")
        self.pool, self.consts, self.shardings = saved_pool, saved_consts, saved_sh
        return Val(r, acc0.shape)

    def hlo_loop(self, depth: int) -> Val:
        """A `stablehlo.while` as JAX's fori_loop writes it: an i32 counter
        carried beside a tensor, the body reading values from outside too."""
        acc0 = self.maybe_annotate(self.pick(), 0.4)
        t = self.ty(acc0.shape)
        start, trips = self.rng.choice([0, 0, 2]), self.rng.choice([0, 1, 2, 3])
        r, k0, i, a, c, n = (self.fresh(p) for p in ("h", "hk", "hi", "ha", "hc", "hn"))
        i32 = "tensor<i32>"
        self.emit(f'{k0} = "stablehlo.constant"() <{{value = dense<{start}> : {i32}}}> : () -> {i32}')
        self.emit(f'{r}:2 = "stablehlo.while"({k0}, {acc0.name}) ({{')
        self.emit(f"^bb0({i}: {i32}, {a}: {t}):")
        self.emit(f'  {n} = "stablehlo.constant"() <{{value = dense<{start + trips}> : {i32}}}> : () -> {i32}')
        direction = "#stablehlo<comparison_direction LT>"
        compare = f'"stablehlo.compare"({i}, {n}) <{{comparison_direction = {direction}}}>'
        self.emit(f"  {c} = {compare} : ({i32}, {i32}) -> tensor<i1>")
        self.emit('  "stablehlo.return"(' + c + ") : (tensor<i1>) -> ()")
        self.emit("}, {")
        j, y = self.fresh("hj"), self.fresh("hy")
        self.emit(f"^bb0({j}: {i32}, {y}: {t}):")
        saved_pool, saved_consts, saved_sh = self.pool, self.consts, self.shardings
        self.pool = [Val(y, acc0.shape), *saved_pool]
        self.consts, self.shardings = dict(saved_consts), dict(saved_sh)
        self.indent += "  "
        carried = Val(y, acc0.shape)
        if self.rng.random() < 0.3:
            carried = self.annotate(carried, users=False)
            self.pool.append(carried)
        body = self.chain(self.rng.randrange(1, 3), depth + 1, want=acc0.shape, start=carried)
        body = self.maybe_annotate(body, 0.4)
        one, j1 = self.fresh("h1"), self.fresh("hj")
        self.emit(f'{one} = "stablehlo.constant"() <{{value = dense<1> : {i32}}}> : () -> {i32}')
        self.emit(f'{j1} = "stablehlo.add"({j}, {one}) : ({i32}, {i32}) -> {i32}')
        self.emit(f'"stablehlo.return"({j1}, {body.name}) : ({i32}, {t}) -> ()')
        self.indent = self.indent[:-2]
        self.emit(f"}}) : ({i32}, {t}) -> ({i32}, {t})")
        self.pool, self.consts, self.shardings = saved_pool, saved_consts, saved_sh
        return Val(f"{r}#1", acc0.shape)

    def hlo_case(self, depth: int) -> Val:
        """`lax.cond`/`lax.switch` as JAX exports them: a `stablehlo.case`
        on an index computed from a tensor (a sum compared with 0, so it
        may be partial), its branches reading values from outside."""
        a = self.pick()
        t = self.ty(a.shape)
        s, i32 = f"tensor<{self.elt}>", "tensor<i32>"
        zero, total, flag, index = self.fresh("cz"), self.fresh("cs"), self.fresh("cf"), self.fresh("ck")
        kind = "SIGNED" if self.is_int else "FLOAT"
        dims = ", ".join(map(str, range(len(a.shape))))
        literal = "0" if self.is_int else "0.0"
        self.emit(f'{zero} = "stablehlo.constant"() <{{value = dense<{literal}> : {s}}}> : () -> {s}')
        self.emit(f'{total} = "stablehlo.reduce"({a.name}, {zero}) <{{dimensions = array<i64: {dims}>}}> ({{')
        self.emit(f"^bb0(%p: {s}, %q: {s}):")
        self.emit(f'  %r = "stablehlo.add"(%p, %q) : ({s}, {s}) -> {s}')
        self.emit(f'  "stablehlo.return"(%r) : ({s}) -> ()')
        self.emit(f"}}) : ({t}, {s}) -> {s}")
        direction = self.rng.choice(["GT", "LT", "EQ"])
        self.emit(
            f'{flag} = "stablehlo.compare"({total}, {zero}) <{{compare_type = #stablehlo<comparison_type {kind}>, '
            f"comparison_direction = #stablehlo<comparison_direction {direction}>}}> : ({s}, {s}) -> tensor<i1>"
        )
        self.emit(f'{index} = "stablehlo.convert"({flag}) : (tensor<i1>) -> {i32}')
        branches = self.rng.choice([1, 2, 2, 3])
        r = self.fresh("c")
        self.emit(f'{r} = "stablehlo.case"({index}) ({{')
        saved_pool, saved_consts, saved_sh = self.pool, self.consts, self.shardings
        for k in range(branches):
            if k:
                self.emit("}, {")
            self.pool, self.consts, self.shardings = list(saved_pool), dict(saved_consts), dict(saved_sh)
            self.indent += "  "
            v = self.chain(self.rng.randrange(0, 2), depth + 1, want=a.shape, start=a)
            v = self.maybe_annotate(v, 0.3)
            self.emit(f'"stablehlo.return"({v.name}) : ({t}) -> ()')
            self.indent = self.indent[:-2]
        self.emit(f"}}) : ({i32}) -> {t}")
        self.pool, self.consts, self.shardings = saved_pool, saved_consts, saved_sh
        return Val(r, a.shape)

    def branch(self, depth: int) -> Val:
        a = self.pick()
        x, y = self.index_const(self.rng.randrange(3)), self.index_const(1)
        cond = self.fresh("b")
        self.emit(f"{cond} = arith.cmpi {self.rng.choice(['eq', 'ne', 'slt'])}, {x}, {y} : index")
        r = self.fresh("r")
        t = self.ty(a.shape)
        self.emit(f"{r} = scf.if {cond} -> ({t}) {{")
        saved_pool, saved_consts, saved_sh = self.pool, self.consts, self.shardings
        for arm in range(2):
            if arm:
                self.emit("} else {")
            self.pool, self.consts, self.shardings = list(saved_pool), dict(saved_consts), dict(saved_sh)
            self.indent += "  "
            v = self.chain(self.rng.randrange(0, 2), depth + 1, want=a.shape, start=a)
            v = self.maybe_annotate(v, 0.4)
            self.emit(f"scf.yield {v.name} : {t}")
            self.indent = self.indent[:-2]
        self.emit("}")
        self.pool, self.consts, self.shardings = saved_pool, saved_consts, saved_sh
        return Val(r, a.shape)

    def step(self, depth: int) -> Val:
        choices = [self.elementwise, self.elementwise, self.matmul, self.matmul, self.reduce, self.transpose]
        if self.extended:
            choices += [self.reshape, self.slice, self.gather, self.argmax, self.scatter, self.sort, self.lookup]
            choices += [self.upsample, self.softmax]
            if self.rng.random() < 0.2:
                choices += [self.collective, self.collective]
            if depth == 0 and self.rng.random() < 0.2:
                choices += [self.block_branch, self.block_choice]
        if self.windows:
            choices += [self.stencil, self.conv, self.conv, self.pad, self.concat]
            if self.elt == "f32":
                choices += [self.tosa_window, self.tosa_window]
            if self.extended:
                choices += [self.hlo_conv, self.hlo_pool]
        if depth < 2:
            choices += [lambda: self.loop(depth), lambda: self.branch(depth)]
            if self.extended and self.rng.random() < 0.3:
                choices.append(lambda: self.while_loop(depth))
            if self.extended and self.rng.random() < 0.3:
                choices.append(lambda: self.hlo_loop(depth))
            if self.extended and self.rng.random() < 0.3:
                choices.append(lambda: self.hlo_case(depth))
            if self.extended and self.rng.random() < 0.1:
                choices.append(lambda: self.device_branch(depth))
        v = self.rng.choice(choices)()
        self.pool.append(v)
        v2 = self.maybe_annotate(v)
        if v2 is not v:
            self.pool.append(v2)
        return v2

    def chain(self, n: int, depth: int, want: tuple[int, ...] | None = None, start: Val | None = None) -> Val:
        last = start
        for _ in range(n):
            last = self.step(depth)
        if want is not None:
            # Bring the chain back to the carried shape with an elementwise op.
            cands = [v for v in self.pool if v.shape == want]
            a = self.rng.choice(cands[-3:]) if cands else start
            b = start if start is not None else a
            r = self.fresh()
            t = self.ty(want)
            op = (
                ("addi" if self.is_int else "addf")
                if self.rng.random() < 0.7
                else ("maxsi" if self.is_int else "maximumf")
            )
            self.emit(f"{r} = arith.{op} {a.name}, {b.name} : {t}")
            last = Val(r, want)
            self.pool.append(last)
        assert last is not None
        return last

    def build(self) -> str:
        n = self.rng.randrange(1, 6)
        last = self.chain(n, 0)
        results = [last]
        if self.rng.random() < 0.3 and len(self.pool) > 1:
            results.append(self.rng.choice(self.pool[:-1]))
        final = []
        for v in results:
            if self.rng.random() < 0.3:
                v = self.annotate(v, users=True)
            final.append(v)
        self.emit(f"return {', '.join(v.name for v in final)} : {', '.join(self.ty(v.shape) for v in final)}")
        args = ", ".join(f"{a.name}: {self.ty(a.shape, a.elt)}" for a in self.args)
        rets = ", ".join(self.ty(v.shape) for v in final)
        head = [
            f"mesh.mesh @mesh(shape = {'x'.join(map(str, self.mesh))})",
            f"func.func @f({args}) -> ({rets}) {{",
        ]
        return "\n".join(head + self.lines + ["}"]) + "\n"


def structured(rng: random.Random) -> str:
    return Program(rng).build()


def structured_input(rng: random.Random) -> Input:
    p = Program(rng)
    text = p.build()
    return Input(
        text,
        "structured" + ("-extended" if p.extended else "") + ("-windows" if p.windows else ""),
        simulate=True,
        notes=sorted(p.features),
    )


def next_input(rng: random.Random, seeds: list[tuple[str, str]]) -> Input:
    """One input: a structured program (plain, or mutated) or a mutated seed."""
    r = rng.random()
    if r < 0.45:
        return structured_input(rng)
    if r < 0.55:
        text, applied = mutate(structured(rng), rng, seeds)
        return Input(text, "structured+" + ",".join(applied))
    origin, text = rng.choice(seeds)
    if rng.random() < 0.1:
        return Input(text, origin, unregistered=True)
    text, applied = mutate(text, rng, seeds)
    return Input(text, origin + "+" + ",".join(applied), unregistered=rng.random() < 0.5)
