"""`mesh-opt`: mlir-opt for the mesh dialect (flags spelled as mlir-opt's)."""

from __future__ import annotations

import argparse
import sys

from ..driver.opt import OptDriver, OptOptions
from ..driver.pipeline import PIPELINES, Element, PipelineError, parse_pipeline
from ..transforms import PASSES
from . import guarded, progress
from .opviews import use_light_dialect_modules


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
    lines.append(
        "pipelines (usable as --NAME or inside --pass-pipeline; an option goes to the first pass that has it):"
    )
    for name, pipeline in sorted(PIPELINES.items()):
        lines.append(f"  --{name:<24} {pipeline.summary}")
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


_BOOL_VALUES = {"": True, "true": True, "True": True, "TRUE": True, "1": True}
_BOOL_VALUES.update({"false": False, "False": False, "FALSE": False, "0": False})
"""What mlir-opt (LLVM's command-line library) takes after `--flag=`."""


def _bool_flag(p: argparse.ArgumentParser, flag: str, help: str, *, dest: str | None = None, default=False) -> None:
    """An on/off flag that, as in mlir-opt, also takes `=true`, `=false`,
    `=1`, `=0` (see `_bool_values`)."""
    p.add_argument(flag, dest=dest, action="store_true", default=default, help=help)
    _BOOL_FLAGS[flag] = (dest or flag[2:].replace("-", "_"), True)


_BOOL_FLAGS: dict[str, tuple[str, bool]] = {}
"""Flag -> (its destination, the value the bare flag sets)."""


def _parser() -> argparse.ArgumentParser:
    _BOOL_FLAGS.clear()
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
    _bool_flag(p, "--split-input-file", "process chunks separated by '// -----' on their own")
    _bool_flag(p, "--verify-diagnostics", "check diagnostics against expected-* comments")
    _bool_flag(p, "--mlir-print-op-generic", "print every op in the generic form")
    _bool_flag(p, "--mlir-print-debuginfo", "print locations")
    _bool_flag(p, "--mlir-print-ir-after-all", "print the IR to stderr after every pass")
    _bool_flag(p, "--mlir-print-ir-before-all", "print the IR to stderr before every pass")
    _bool_flag(
        p,
        "--mlir-print-ir-after-change",
        "with --mlir-print-ir-after-all, print only after the passes that changed the IR",
    )
    _bool_flag(p, "--mlir-print-ir-after-failure", "print the IR to stderr after a pass that failed, and only then")
    p.add_argument(
        "--mlir-elide-elementsattrs-if-larger",
        type=_count,
        default=None,
        metavar="N",
        help="print elements attributes of more than N elements as dense_resource<__elided__>",
    )
    _bool_flag(p, "--mlir-timing", "report the time of parsing, of every pass and of output on stderr")
    _bool_flag(p, "--mlir-pass-statistics", "report the statistics of every pass (ours and upstream's) on stderr")
    _bool_flag(p, "--dump-pass-pipeline", "print the pipeline that will run, every option shown, on stderr")
    _bool_flag(p, "--emit-bytecode", "write MLIR bytecode instead of text (mesh-opt reads it back)")
    _bool_flag(p, "--allow-unregistered-dialect", "accept ops of unknown dialects")
    _bool_flag(p, "--verify-each", "verify after every pass (the default; =false turns it off)", default=True)
    p.add_argument("--no-verify-each", dest="verify_each", action="store_false", help="do not verify after every pass")
    _BOOL_FLAGS["--no-verify-each"] = ("verify_each", False)
    p.add_argument("--list-passes", action="store_true", help="describe every pass and its options, then exit")
    p.add_argument("--version", action="store_true", help="print the versions of mesh-opt and MLIR, then exit")
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


def _count(text: str) -> int:
    """A non-negative integer argument that fits 32 bits unsigned, as
    mlir-opt's does (MLIR's printer takes it as such)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to 4294967295, got '{text}'")
    return value


def _bool_values(argv: list[str], parser: argparse.ArgumentParser) -> tuple[list[str], dict[str, bool]]:
    """`argv` without its on/off flags, and the value each sets (the last
    one given wins), so that `--verify-each=false` works as in mlir-opt."""
    rest: list[str] = []
    values: dict[str, bool] = {}
    for arg in argv:
        flag, eq, raw = arg.partition("=")
        known = _BOOL_FLAGS.get(flag)
        if known is None or arg == "--":
            rest.append(arg)
            continue
        value = _BOOL_VALUES.get(raw) if eq else True
        if value is None:
            parser.error(f"option '{flag}' takes true, false, 1 or 0, got '{raw}'")
        dest, bare = known
        values[dest] = value if bare else not value
    return rest, values


def _version() -> str:
    """mlir-opt's `--version` layout: who we are, then the LLVM we run on."""
    import platform
    from importlib import metadata

    def installed(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "unknown"

    bindings = installed("xtc-mlir-python-bindings")
    llvm = ".".join(bindings.split(".")[:3])
    return (
        f"mesh-opt (mesh-dialect {installed('mesh-dialect')}):\n"
        f"  LLVM version {llvm} (MLIR Python bindings: xtc-mlir-python-bindings {bindings})\n"
        f"  Python {platform.python_version()}\n"
    )


def _pass_flags(unknown: list[str], parser: argparse.ArgumentParser) -> list[Element]:
    """`--NAME` or `--NAME=options` for any pass, in command-line order."""
    elements = []
    for arg in unknown:
        if not arg.startswith("--") or len(arg) == 2:
            parser.error(f"unrecognized argument '{arg}'")
        name, _, options = arg[2:].partition("=")
        options = options.strip()
        if options.startswith("{") and options.endswith("}"):
            options = options[1:-1].strip()  # one pair of braces, as a pipeline writes them
        elements.append(Element(name, options))
    return elements


def _unknown_flags(words: list[str], parser: argparse.ArgumentParser) -> tuple[list[str], list[str]]:
    """`words` without the `--NAME...` words that name no option of ours
    (pass flags), and those words in order.  argparse would take a flag
    whose options hold a space (`--mesh-analysis=format=json output=x`,
    which mlir-opt accepts) for the input file."""
    known = parser._option_string_actions
    rest: list[str] = []
    flags: list[str] = []
    for k, word in enumerate(words):
        if word == "--":
            rest.extend(words[k:])
            break
        if word.startswith("--") and word.partition("=")[0] not in known:
            flags.append(word)
        else:
            rest.append(word)
    return rest, flags


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
    words, values = _bool_values(_long_flags(sys.argv[1:] if argv is None else argv), parser)
    words, unknown_first = _unknown_flags(words, parser)
    args, unknown = parser.parse_known_args(words)
    unknown = unknown_first + unknown
    for dest, value in values.items():
        setattr(args, dest, value)
    if args.version:
        sys.stdout.write(_version())
        return 0
    if args.list_passes:
        print(_pass_listing())
        return 0
    flags = _pass_flags(unknown, parser)
    if args.emit != "mesh" and args.mlir_print_op_generic:
        parser.error(f"--emit={args.emit} prints upstream's custom syntax, not --mlir-print-op-generic")
    if args.emit_bytecode and args.emit != "mesh":
        parser.error(f"--emit-bytecode writes the mesh dialect, not --emit={args.emit}")
    if args.emit_bytecode and args.split_input_file:
        parser.error("--emit-bytecode writes one module, which --split-input-file cannot give")
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
        print_ir_before_all=args.mlir_print_ir_before_all,
        print_ir_after_change=args.mlir_print_ir_after_change,
        print_ir_after_failure=args.mlir_print_ir_after_failure,
        elide_elementsattrs_if_larger=args.mlir_elide_elementsattrs_if_larger,
        timing=args.mlir_timing,
        pass_statistics=args.mlir_pass_statistics,
        dump_pass_pipeline=args.dump_pass_pipeline,
        emit_bytecode=args.emit_bytecode,
    )
    # The statistics report is caught from stderr's descriptor while the
    # pipeline runs, where a progress display must not draw.
    shown = progress.allowed(args.progress and not args.mlir_pass_statistics, args.input)
    with progress.shown(shown) as (stdout, stderr, reporter):
        return OptDriver(options, stdout, stderr, reporter).run()


def entry() -> None:
    use_light_dialect_modules()
    sys.exit(main())


if __name__ == "__main__":
    entry()
