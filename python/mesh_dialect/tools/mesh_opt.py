"""`mesh-opt`: mlir-opt for the mesh dialect (flags spelled as mlir-opt's)."""

from __future__ import annotations

import argparse
import sys

from ..driver.opt import OptDriver, OptOptions
from ..driver.pipeline import Element, PipelineError, parse_pipeline
from ..transforms import PASSES
from . import guarded, progress


def _pass_listing() -> str:
    lines = ["passes of mesh-opt (usable as --NAME or inside --pass-pipeline):"]
    for name, cls in sorted(PASSES.items()):
        lines.append(f"  --{name:<24} {cls.SUMMARY}")
        for f in cls.options():
            default = str(f.default).lower() if isinstance(f.default, bool) else f.default
            choices = f.metadata.get("choices")
            extra = f" (one of {', '.join(choices)})" if choices else ""
            lines.append(
                f"      {f.name.replace('_', '-'):<20} {f.metadata.get('help', '')}{extra} [default: {default}]"
            )
    lines.append("upstream MLIR passes (canonicalize, cse, symbol-dce, ...) are accepted the same way.")
    return "\n".join(lines)


class _ArgumentParser(argparse.ArgumentParser):
    """Command-line errors exit 1, as every other error (argparse uses 2).
    The pass listing ends `--help` only: it imports every pass, which a run
    must not pay for."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")

    def format_help(self) -> str:
        self.epilog = _pass_listing()
        return super().format_help()


def _parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="mesh-opt",
        description="Parse, verify, transform and print MLIR that uses the mesh sharding dialect.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("input", nargs="?", default="-", help="input file (default: stdin)")
    p.add_argument(
        "-o", dest="output", default="-", metavar="FILE", help="output file, written atomically (default: stdout)"
    )
    p.add_argument(
        "--pass-pipeline", default=None, help="textual pipeline, e.g. 'builtin.module(mesh-canonicalize, cse)'"
    )
    p.add_argument(
        "--split-input-file", action="store_true", help="process chunks separated by '// -----' on their own"
    )
    p.add_argument("--verify-diagnostics", action="store_true", help="check diagnostics against expected-* comments")
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print every op in the generic form")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR to stderr after every pass")
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    p.add_argument("--no-verify-each", dest="verify_each", action="store_false", help="do not verify after every pass")
    p.add_argument("--list-passes", action="store_true", help="describe every pass and its options, then exit")
    p.add_argument(
        "--emit",
        choices=("mesh", "upstream", "upstream-mpi"),
        default="mesh",
        help="output dialect: mesh (default); upstream: MLIR's shard dialect, without the layouts of "
        "arguments and results; upstream-mpi: the same, refusing ops --convert-shard-to-mpi would not lower",
    )
    p.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="never show progress (shown on a terminal's stderr when a run takes over 2 s and rich is installed)",
    )
    return p


def _pass_flags(unknown: list[str], parser: argparse.ArgumentParser) -> list[Element]:
    """`--NAME` or `--NAME=options` for any pass, in command-line order."""
    elements = []
    for arg in unknown:
        if not arg.startswith("--") or len(arg) == 2:
            parser.error(f"unrecognized argument '{arg}'")
        name, _, options = arg[2:].partition("=")
        elements.append(Element(name, options.strip().strip("{}")))
    return elements


def _long_flags(argv: list[str]) -> list[str]:
    """mlir-opt accepts `-flag` for `--flag`; so do we. Only `-o` and `-o=FILE`
    stay short: `-one-shot-bufferize` is a pass, not `-o ne-shot-bufferize`."""
    return [
        "-" + a if a.startswith("-") and not a.startswith("--") and len(a) > 2 and not a.startswith("-o=") else a
        for a in argv
    ]


def main(argv: list[str] | None = None) -> int:
    return guarded("mesh-opt", lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    args, unknown = parser.parse_known_args(_long_flags(sys.argv[1:] if argv is None else argv))
    if args.list_passes:
        print(_pass_listing())
        return 0
    flags = _pass_flags(unknown, parser)
    if args.emit != "mesh" and args.mlir_print_op_generic:
        parser.error(f"--emit={args.emit} prints upstream's custom syntax, not --mlir-print-op-generic")
    if args.pass_pipeline is not None and flags:
        parser.error("--pass-pipeline cannot be combined with pass flags")
    try:
        elements = parse_pipeline(args.pass_pipeline) if args.pass_pipeline is not None else flags
    except PipelineError as e:
        print(f"mesh-opt: {e}", file=sys.stderr)
        return 1
    options = OptOptions(
        input=args.input,
        output=args.output,
        elements=elements,
        split_input_file=args.split_input_file,
        verify_diagnostics=args.verify_diagnostics,
        print_op_generic=args.mlir_print_op_generic,
        print_debuginfo=args.mlir_print_debuginfo,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
        print_ir_after_all=args.mlir_print_ir_after_all,
        verify_each=args.verify_each,
        emit=args.emit,
    )
    with progress.shown(progress.allowed(args.progress, args.input)) as (stdout, stderr, reporter):
        return OptDriver(options, stdout, stderr, reporter).run()


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
