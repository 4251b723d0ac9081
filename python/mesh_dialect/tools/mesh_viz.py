"""`mesh-viz`: draw the layouts of a program's values over its mesh.

    mesh-viz model.mlir                          # every layout, in the terminal
    mesh-viz model.mlir --value %x               # one value (or an argument index)
    mesh-viz model.mlir --svg x.svg --value 0    # an SVG file
    mesh-viz model.mlir --html plan.html         # a page: every value, every reshard
    mesh-opt --sharding-propagation model.mlir | mesh-viz -

Bad input is reported as `file:line:col: error: ...` with exit 1; output
files are written as `mesh-opt -o` writes them (atomically).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TextIO

from mlir import ir

from ..driver.opt import OptDriver, OptOptions, cannot_read, decoded_input, read_input
from ..files import write_all
from ..ir import diagnostics as diag
from ..ir.asm import parse
from ..ir.dialect import load_dialect
from . import guarded
from .opviews import use_light_dialect_modules

PROG = "mesh-viz"
MAX_WIDTH = 10000
"""The widest terminal picture --width asks for (a picture is drawn in memory)."""


class _ArgumentParser(argparse.ArgumentParser):
    """Command-line errors exit 1, as every other error (argparse uses 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=PROG,
        description="Draw how each value of a mesh program is laid out over its device mesh: which device holds "
        "which tile, halos and partial values; in the terminal, as SVG or as an HTML page with every reshard.",
        allow_abbrev=False,
    )
    p.add_argument("input", nargs="?", default="-", help="input file (default: stdin)")
    p.add_argument("--function", "-f", metavar="NAME", help="only this function (default: every function)")
    p.add_argument(
        "--value", metavar="VALUE", help="only this value: %%name as written or printed, or an argument index"
    )
    p.add_argument("--svg", metavar="OUT", help="write an SVG of the layouts to OUT ('-': stdout)")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML page to OUT ('-': stdout)")
    p.add_argument("--no-color", dest="color", action="store_false", default=None, help="never use colours")
    p.add_argument("--width", type=int, default=None, metavar="N", help="characters across a terminal picture")
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    return p


class _Failure(Exception):
    """A failure already worded for the user."""


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    # The streams are looked up inside `guarded`, which stands in for closed ones.
    return guarded(
        PROG, lambda: _main(sys.argv[1:] if argv is None else argv, stdout or sys.stdout, stderr or sys.stderr)
    )


def _main(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    args = _parser().parse_args(argv)
    if args.width is not None and not 8 <= args.width <= MAX_WIDTH:
        bound = "at least 8" if args.width < 8 else f"at most {MAX_WIDTH}"
        stderr.write(f"{PROG}: error: --width must be {bound}, got {args.width}\n")
        return 1
    try:
        return _run(args, stdout, stderr)
    except _Failure as e:
        stderr.write(f"{PROG}: error: {e}\n")
    except diag.DiagnosticError as e:
        stderr.write(str(e) + "\n")
    return 1


def _read(path: str) -> tuple[str, str]:
    """The input's text, refused as `mesh-opt` refuses it (not UTF-8: at
    its first invalid byte, with the source line and a caret)."""
    name = "<stdin>" if path == "-" else path
    try:
        data = read_input(path)
    except OSError as e:
        raise _Failure(cannot_read(path, e).removeprefix("error: ")) from None
    text = decoded_input(data, name)
    if isinstance(text, bytes):  # MLIR bytecode
        raise _Failure(f"input file '{name}' is MLIR bytecode: mesh-viz reads text (mesh-opt prints it)")
    return text, name


def _run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..viz.html import to_html
    from ..viz.program import function_layouts
    from ..viz.svg import to_svg
    from ..viz.terminal import write

    text, name = _read(args.input)
    ctx = ir.Context()
    ctx.enable_multithreading(False)
    ctx.allow_unregistered_dialects = args.allow_unregistered_dialect
    load_dialect(ctx)
    with ctx, ir.Location.unknown(ctx):
        module = parse(text, filename=name, context=ctx)
        with diag.refusing_non_utf8([module], PROG, {name: text}):
            functions = function_layouts(module, text)
    if args.function is not None:
        wanted = args.function.removeprefix("@")
        chosen = [f for f in functions if f.name == wanted]
        if not chosen:
            known = ", ".join("@" + f.name for f in functions) or "none"
            raise _Failure(f"no function @{wanted} in '{name}' (functions: {known})")
        functions = chosen
    values = [(f, v) for f in functions for v in (f.select(args.value) if args.value is not None else f.values)]
    if args.value is not None and not values:
        laid_out = sorted({v.name for f in functions for v in f.values})
        known = ", ".join(laid_out) or "none"
        raise _Failure(f"no layout of {args.value} in '{name}' (values with layouts: {known})")
    bodies: list[tuple[str, str]] = []
    if args.svg is not None:
        drawn = [(v.title, v.layout) for _, v in values if v.layout is not None]
        if not drawn:
            problems = sorted({v.problem for _, v in values if v.problem})
            why = f"not drawn: {problems[0]}" if len(problems) == 1 else "no value with a static layout"
            raise _Failure(f"nothing to draw in '{name}': {why}")
        bodies.append((args.svg, to_svg(drawn)))
    if args.html is not None:
        bodies.append((args.html, to_html(functions, name)))
    if not bodies:
        _terminal(functions, values, args, stdout, write)
        return 0
    if (
        args.svg is not None
        and args.svg != "-"
        and args.html is not None
        and os.path.realpath(args.svg) == os.path.realpath(args.html)
    ):
        raise _Failure(f"--svg and --html name the same file '{args.html}'")
    # the files all or nothing (`files.write_all`), then what goes to stdout
    try:
        write_all([(path, _text_writer(body)) for path, body in bodies if path != "-"])
    except OSError as e:
        stderr.write(f"{PROG}: cannot write output file '{e.filename}': {e.strerror}\n")
        return 1
    ok = True
    for path, body in bodies:
        if path == "-":
            ok &= _write_stdout(body, stdout, stderr)
    return 0 if ok else 1


def _terminal(functions, values, args: argparse.Namespace, stdout: TextIO, write) -> None:
    """Every chosen layout as a picture, then (for a whole function) its reshards."""
    for f in functions:
        mine = [v for g, v in values if g is f]
        if args.value is not None and not mine:
            continue
        stdout.write(f"func @{f.name}" + (" (per-device program)" if f.per_device else "") + "\n")
        if not mine:
            stdout.write("  no layouts: no annotation and no laid-out argument\n")
        for v in mine:
            if v.layout is None:
                stdout.write(f"{v.title}: not drawn: {v.problem}\n")
                continue
            write(v.layout, stdout, color=args.color, width=args.width, title=f"{v.title}: {v.layout.describe()}")
        if args.value is None:
            for r in f.reshards:
                stdout.write(r.summary() + "\n")
    stdout.flush()


def _write_stdout(body: str, stdout: TextIO, stderr: TextIO) -> bool:
    """Write `body` to stdout as `mesh-opt -o -` does (a closed or full
    stdout is one message and exit 1), under this tool's name."""
    errors = io.StringIO()
    ok = OptDriver(OptOptions(output="-"), stdout, errors)._write(body)
    for line in errors.getvalue().splitlines():
        stderr.write(line.replace("mesh-opt:", f"{PROG}:", 1) + "\n")
    return ok


def _text_writer(body: str):
    """A `files.write_all` writer of `body` as UTF-8."""
    data = body.encode("utf-8")
    return lambda f: f.write(data)


def entry() -> None:
    use_light_dialect_modules()
    sys.exit(main())


if __name__ == "__main__":
    entry()
