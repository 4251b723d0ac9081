"""Command-line entry points; each is a thin layer over a driver class."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def guarded(prog: str, body: Callable[[], int]) -> int:
    """Run a CLI's body so that no exception reaches the user as a traceback:
    Ctrl-C exits 130, a reader that went away (`... | head`) exits 1 quietly,
    anything unexpected is one line and exit 2."""
    try:
        return body()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # No second failure when Python flushes the dead stream at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            try:
                os.dup2(devnull, stream.fileno())
            except (OSError, ValueError):
                pass
        return 1
    except Exception as e:  # noqa: BLE001 - a CLI must never show a traceback
        print(f"{prog}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
