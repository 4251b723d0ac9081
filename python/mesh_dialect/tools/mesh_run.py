"""`mesh-run`: run a function of a .mlir file on numpy inputs, on one device
or on every device of its mesh, and compare with a reference program."""

from __future__ import annotations

import argparse
import sys

from ..driver.run import TOLERANCE_DOC, RunDriver, RunOptions
from ..sim.interpreter import MAX_DEVICES
from . import guarded, progress


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def _tolerance(text: str) -> float:
    value = float(text)
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite non-negative number, got {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mesh-run",
        description=(
            "Run a function on global inputs. A function whose arguments or results carry "
            "{mesh.sharding = #mesh.sharding<...>} runs on every device of its mesh: inputs are cut with "
            "the argument layouts and outputs put back together with the result layouts."
        ),
        epilog=TOLERANCE_DOC
        + "\n\nA partial argument gets random terms (seeded by --seed) whose reduction is the input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("input", help="the .mlir file ('-' for stdin)")
    p.add_argument("-f", "--function", help="function to run (default: the module's only function)")
    p.add_argument(
        "-i",
        "--input-npy",
        dest="inputs",
        action="append",
        default=[],
        metavar="FILE.npy",
        help="a global input, once per argument, in order (default: seeded random data)",
    )
    p.add_argument("--mesh", help="mesh to run on when the function states no layout")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--spmd", dest="spmd", action="store_true", default=None, help="run on every device")
    mode.add_argument("--global", dest="spmd", action="store_false", help="run on one device")
    p.add_argument("--save-dir", metavar="DIR", help="write each output as DIR/resultN.npy")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print the outputs")
    p.add_argument(
        "--compare-with",
        metavar="REF.mlir",
        help="run this program's function (unpartitioned) on the same inputs and compare",
    )
    p.add_argument("--ref-function", help="the reference's function (default: the same name)")
    p.add_argument(
        "--seed",
        type=_non_negative,
        default=0,
        help="seed of the random inputs and of the terms of partial arguments (default 0)",
    )
    p.add_argument("--rtol", type=_tolerance, help="relative tolerance for floats (default: n * eps, see below)")
    p.add_argument(
        "--atol", type=_tolerance, help="absolute tolerance for floats (default: n * eps * scale, see below)"
    )
    p.add_argument("--mpi", type=_positive, metavar="N", help="run as N processes under mpiexec")
    p.add_argument(
        "--max-devices",
        type=_positive,
        default=MAX_DEVICES,
        metavar="N",
        help=f"refuse a mesh of more than N devices (default {MAX_DEVICES})",
    )
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    p.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="never show progress (shown on a terminal's stderr when a run takes over 2 s and rich is installed)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    return guarded("mesh-run", lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage errors exit 1, like every other error here
        return 0 if e.code == 0 else 1
    options = RunOptions(
        input=args.input,
        function=args.function,
        inputs=args.inputs,
        seed=args.seed,
        mesh=args.mesh,
        spmd=args.spmd,
        save_dir=args.save_dir,
        quiet=args.quiet,
        compare_with=args.compare_with,
        ref_function=args.ref_function,
        rtol=args.rtol,
        atol=args.atol,
        mpi=args.mpi,
        max_devices=args.max_devices,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
    )
    with progress.shown(progress.allowed(args.progress, args.input, args.compare_with)) as (stdout, stderr, reporter):
        return RunDriver(options, stdout, stderr, reporter).run()


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
