"""Output files written all or nothing.

A tool that writes several files (`mesh-viz --svg --html`, `mesh-run
--save-dir`) or a report (`mesh-analysis{output=...}`) must leave no half
of its output behind when something fails, and must not destroy a file it
was about to replace: each file is written to a temporary file beside it,
and only when every one is complete are they renamed over their targets.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable, Sequence
from typing import BinaryIO


class OutputError(OSError):
    """An output that could not be written: `filename` names it."""


def write_all(outputs: Sequence[tuple[str, Callable[[BinaryIO], None]]]) -> None:
    """Write each (path, writer) pair: `writer` gets the file opened in binary
    mode.  Either every file is written, or none is changed and OutputError
    says which failed.  A device or FIFO (`/dev/null`) is written in place,
    once all the others are staged."""
    staged: list[tuple[str, str]] = []  # (temporary file, target)
    in_place: list[tuple[str, Callable[[BinaryIO], None]]] = []
    seen: dict[str, str] = {}
    try:
        for path, writer in outputs:
            target = os.path.realpath(path)
            if target in seen:
                raise OutputError(errno.EINVAL, f"'{seen[target]}' and '{path}' are the same file", path)
            seen[target] = path
            try:
                st = os.stat(path)
            except OSError:
                st = None
            if path.endswith(("/", os.sep)) or (st is not None and stat.S_ISDIR(st.st_mode)):
                raise OutputError(errno.EISDIR, os.strerror(errno.EISDIR), path)
            if st is not None and not stat.S_ISREG(st.st_mode):
                in_place.append((path, writer))
                continue
            if st is not None and not writable(path, st):
                raise OutputError(errno.EACCES, os.strerror(errno.EACCES), path)
            try:
                fd, tmp = tempfile.mkstemp(prefix=".mesh-", dir=os.path.dirname(target))
            except OSError as e:
                raise OutputError(e.errno, e.strerror, path) from None
            staged.append((tmp, target))
            try:
                with open(fd, "wb") as f:
                    # mkstemp makes the file 0600: give it the replaced file's mode, or a plain open()'s
                    os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~umask())
                    writer(f)
            except OSError as e:
                raise OutputError(e.errno, e.strerror or str(e), path) from None
        for path, writer in in_place:
            try:
                with open(path, "wb") as f:
                    writer(f)
            except OSError as e:
                raise OutputError(e.errno, e.strerror or str(e), path) from None
        while staged:
            tmp, target = staged[0]
            try:
                os.replace(tmp, target)
            except OSError as e:
                raise OutputError(e.errno, e.strerror, target) from None
            staged.pop(0)
    finally:
        for tmp, _ in staged:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def writable(path: str, st: os.stat_result) -> bool:
    """Whether `path` may be replaced: the rename does not open it, so its
    permissions are checked here (a file with no write bit is read-only for
    root too)."""
    return os.access(path, os.W_OK) and bool(st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


__all__ = ["OutputError", "umask", "writable", "write_all"]
