"""Command-line entry points; each is a thin layer over a driver class."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO


class OutputError(OSError):
    """Standard output could not be written (a full disk): one line, exit 1."""


class _Standard:
    """sys.stdout or sys.stderr while a tool runs. A stream the process was
    started without (`>&-`, `2>&-`) is None in Python: writing to stdout then
    fails as a reader that went away does (a quiet exit 1), and stderr drops
    what it is given (no message can be shown, the exit code stays the
    run's). A failed write to stdout is an `OutputError`; to stderr, it is
    dropped."""

    def __init__(self, stream: TextIO | None, *, is_stdout: bool):
        self.stream = stream
        self.is_stdout = is_stdout
        self.failed: OSError | None = None  # the last failed write (argparse drops it)

    def write(self, text: str) -> int:
        return self._do("write", text) or len(text)

    def flush(self) -> None:
        self._do("flush")

    def _do(self, name: str, *args: Any) -> Any:
        if self.stream is None:
            if self.is_stdout:
                self.failed = BrokenPipeError(errno.EBADF, os.strerror(errno.EBADF))
                raise self.failed
            return None
        try:
            return getattr(self.stream, name)(*args)
        except (OSError, ValueError) as e:  # ValueError: a closed file object
            if not self.is_stdout:
                self.stream = None  # nowhere to say it: say nothing more
                return None
            code = e.errno if isinstance(e, OSError) else errno.EBADF
            if code in (errno.EPIPE, errno.EBADF):
                self.failed = BrokenPipeError(code, os.strerror(code))
            else:
                self.failed = OutputError(code, os.strerror(code) if code else str(e))
            raise self.failed from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _reserve_standard_descriptors() -> None:
    """Open /dev/null on descriptors 0-2 the process was started without, so
    that no file opened later becomes "stdout" or "stderr" for MLIR's C++."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor: this one


def _silence(streams: tuple[TextIO | None, ...]) -> None:
    """Point `streams` at /dev/null: no second failure when Python flushes a
    dead stream at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in streams:
        try:
            os.dup2(devnull, stream.fileno())  # type: ignore[union-attr]
        except (AttributeError, OSError, ValueError):
            pass
    os.close(devnull)


def guarded(prog: str, body: Callable[[], int]) -> int:
    """Run a CLI's body so that no exception reaches the user as a traceback:
    Ctrl-C exits 130, a reader that went away (`... | head`, `>&-`) exits 1
    quietly, a full disk on stdout is one line and exit 1, anything
    unexpected is one line and exit 2."""
    _reserve_standard_descriptors()
    saved = sys.stdout, sys.stderr
    stdout = _Standard(sys.stdout, is_stdout=True)
    stderr = _Standard(sys.stderr, is_stdout=False)
    sys.stdout, sys.stderr = stdout, stderr  # type: ignore[assignment]
    try:
        try:
            code = body()
        except SystemExit as e:  # argparse's --help and usage errors
            if stdout.failed is not None:  # argparse ignores a failed write
                raise stdout.failed from None
            code = e.code if isinstance(e.code, int) else int(e.code is not None)
        stdout.flush()  # a full disk is reported here, not by Python at exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence(saved)
        return 1
    except OutputError as e:
        stderr.write(f"{prog}: cannot write output: {e.strerror}\n")
        _silence(saved)
        return 1
    except Exception as e:  # noqa: BLE001 - a CLI must never show a traceback
        from ..transforms.base import one_line  # (a callback's exception carries a traceback as text)

        stderr.write(f"{prog}: internal error: {one_line(e)}\n")
        return 2
    finally:
        stderr.flush()
        sys.stdout, sys.stderr = saved
