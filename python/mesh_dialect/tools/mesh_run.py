"""`mesh-run`: run a function of a .mlir file on numpy inputs, on one device
or on every device of its mesh, and compare with a reference program."""

from __future__ import annotations

import argparse
import ctypes
import sys
import threading
from collections.abc import Callable

from ..driver.run import TOLERANCE_DOC, RunDriver, RunOptions
from ..sim.interpreter import MAX_DEVICES
from . import guarded, progress
from .opviews import use_light_dialect_modules


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got '{text}'") from None


def _non_negative(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def _positive(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got '{text}'") from None
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


RECURSION_LIMIT = 12_000
"""Python frames a run may nest: each call or region (`func.call`, `scf.if`,
...) of a simulated program takes two, so about 6000 levels of them run;
deeper, the run stops with one line (`RunDriver`). Not more: a level costs
the simulator time in proportion to the depth."""

STACK_SIZE = 256 * 1024 * 1024
"""The stack of the thread a run uses: RECURSION_LIMIT frames take about
8 MB of it (generators nest on the C stack too), all of a default main
thread's stack."""


def main(argv: list[str] | None = None) -> int:
    return guarded("mesh-run", lambda: _main(argv))


def _deep(body: Callable[[], int]) -> int:
    """`body()` in a thread whose stack holds RECURSION_LIMIT frames (in
    this thread if none can be started); its exceptions are raised here."""
    result: list[int] = []
    failure: list[BaseException] = []
    done = threading.Event()  # not Thread.join: interrupted, it may return before the thread ends

    def run() -> None:
        try:
            result.append(body())
        except BaseException as e:  # noqa: BLE001 - raised again in the calling thread
            failure.append(e)
        finally:
            done.set()

    thread = threading.Thread(target=run, name="mesh-run", daemon=True)
    old_limit, old_size = sys.getrecursionlimit(), threading.stack_size()
    try:
        threading.stack_size(STACK_SIZE)
        sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
        thread.start()
    except (RuntimeError, ValueError, MemoryError):  # no such stack here: as deep as this one allows
        sys.setrecursionlimit(old_limit)
        return body()
    finally:
        threading.stack_size(old_size)
    try:
        while not done.is_set():
            try:
                done.wait()
            except KeyboardInterrupt:  # Ctrl-C reaches this thread only: stop the run where it is
                exception = ctypes.py_object(KeyboardInterrupt)
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident or 0), exception)
    finally:
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    return result[0]


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage errors exit 1, like every other error here
        if e.code:
            return 1
        raise  # --help: `guarded` checks that it was written
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
        driver = RunDriver(options, stdout, stderr, reporter)
        # An MPI run simulates nothing here, and forwards signals from the main thread.
        return driver.run() if args.mpi is not None else _deep(driver.run)


def entry() -> None:
    use_light_dialect_modules()
    sys.exit(main())


if __name__ == "__main__":
    entry()
