"""Progress of a long `mesh-opt` or `mesh-run` run, drawn on stderr.

Only when stderr is a terminal (never under lit, in a pipe or in CI), not
with `--no-progress` or `TERM=dumb`, only once a run has taken
`MESH_PROGRESS_DELAY` seconds (2 by default), and only when the optional
`rich` package can be imported (`pip install 'mesh-dialect[progress]'`).
The display is transient: it is erased before anything else is written to
the terminal and when the run ends, so stdout, files, exit codes and
diagnostics are the same with it or without it. `rich` is imported only when
the display first appears: a short run never pays for it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO

from ..driver.opt import Progress

DELAY_ENV = "MESH_PROGRESS_DELAY"
DEFAULT_DELAY = 2.0


@contextlib.contextmanager
def shown(enabled: bool = True) -> Iterator[tuple[TextIO | None, TextIO | None, Progress | None]]:
    """(stdout, stderr, progress) for a driver: the process's own streams
    and no reporter, or, when the display may be drawn, streams that erase
    it before they write and a reporter that draws it (closed on exit).
    `sys.stdout` and `sys.stderr` are those streams meanwhile, so that a
    library's warning does not land in the middle of the display either."""
    progress = for_stderr(sys.stderr) if enabled else None
    if progress is None:
        yield sys.stdout, sys.stderr, None
        return
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = progress.wrap(sys.stdout), progress.wrap(sys.stderr)
    try:
        yield sys.stdout, sys.stderr, progress
    finally:
        sys.stdout, sys.stderr = saved
        progress.close()


def allowed(flag: bool, *inputs: str | None) -> bool:
    """Whether a run may show progress: `flag` is False for `--no-progress`;
    nor while someone types the input on the terminal (an input "-" from a
    terminal's stdin), where the display would land among their text."""
    return flag and not ("-" in inputs and _is_terminal(sys.stdin))


def for_stderr(stderr: TextIO | None) -> TerminalProgress | None:
    """A reporter that draws on `stderr` when it may (see the module
    docstring), else None."""
    if stderr is None or not _is_terminal(stderr):
        return None
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return None
    try:
        if importlib.util.find_spec("rich") is None:
            return None
    except (ImportError, ValueError):
        return None
    delay = _delay()
    return None if delay is None else TerminalProgress(stderr, delay=delay)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def _delay() -> float | None:
    """Seconds before the display appears: `MESH_PROGRESS_DELAY`, else 2;
    None (never) for more than a day or `inf`, which no timer can wait."""
    try:
        seconds = float(os.environ.get(DELAY_ENV, DEFAULT_DELAY))
    except ValueError:
        return DEFAULT_DELAY
    if math.isnan(seconds):
        return DEFAULT_DELAY
    return None if seconds > 86400 else max(0.0, seconds)


class TerminalProgress(Progress):
    """A spinner, the current phase, a bar of the steps done and the time
    spent, on a terminal. The state is kept in plain attributes; the rich
    display is built from it when the delay has passed (from a timer thread)
    and again on the next phase after output erased it. Any failure of the
    display turns it off for the rest of the run: it must never fail one."""

    wants_passes = True

    def __init__(self, stream: TextIO, *, delay: float = DEFAULT_DELAY):
        self._stream = stream
        self._lock = threading.RLock()
        self._start = time.monotonic()
        self._text = ""
        self._total: int | None = None
        self._completed = 0
        self._bar: Any = None  # a rich.progress.Progress while shown
        self._task: Any = None
        self._due = False  # the delay has passed
        self._off = False  # closed, or rich cannot draw here
        self._timer: threading.Timer | None = None
        if delay <= 0:
            self._show_now()
        else:
            self._timer = threading.Timer(delay, self._show_now)
            self._timer.daemon = True
            self._timer.start()

    # -- what a driver reports ---------------------------------------------

    def phase(self, text: str) -> None:
        with self._lock:
            self._text = text
            self._draw(refresh=True)

    def steps(self, total: int) -> None:
        with self._lock:
            self._total = total
            self._draw(refresh=False)

    def advance(self, steps: int = 1) -> None:
        with self._lock:
            self._completed += steps
            self._draw(refresh=False)

    # -- the display ---------------------------------------------------------

    def wrap(self, stream: TextIO | None) -> TextIO | None:
        """`stream`, erasing the display before each write when `stream` is
        a terminal (where the text would otherwise mix with the display)."""
        if stream is None or not _is_terminal(stream):
            return stream
        return _Erasing(stream, self)  # type: ignore[return-value]

    def hide(self) -> None:
        """Erase the display; the next phase draws it again."""
        with self._lock:
            bar, self._bar = self._bar, None
            if bar is not None:
                self._guard(bar.stop)

    def close(self) -> None:
        """The run is over: erase the display for good."""
        with self._lock:
            self._off = True
            timer = self._timer
            if timer is not None:
                timer.cancel()
            self.hide()
        if timer is not None and timer.is_alive():
            # It may be importing rich: let it end before the interpreter does.
            timer.join(timeout=1.0)

    def _show_now(self) -> None:
        # rich is imported outside the lock, so that the main thread never
        # waits on an import for its next phase.
        ok = not self._off and self._guard(_import_rich)
        with self._lock:
            if not ok:
                self._off = True
                return
            self._due = True
            self._draw(refresh=True)

    def _draw(self, *, refresh: bool) -> None:
        """Bring the display up to date (called with the lock held)."""
        if self._off or not self._due:
            return
        if self._bar is None:
            if not refresh:
                return  # erased by output: wait for the next phase
            self._bar = self._guard(self._open)
            if self._bar is None:
                self._off = True
            return
        bar, task = self._bar, self._task

        def update() -> bool:
            bar.update(task, description=self._text, total=self._total, completed=self._completed)
            if refresh:
                bar.refresh()
            return True

        if not self._guard(update):
            self._off = True

    def _open(self) -> Any:
        from rich.console import Console
        from rich.progress import BarColumn, SpinnerColumn, TextColumn
        from rich.progress import Progress as RichProgress

        console = Console(file=self._stream)
        if not console.is_interactive:  # TERM=dumb, TTY_INTERACTIVE=0
            return None
        bar = RichProgress(
            SpinnerColumn(),
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            _elapsed_column(self._start),
            console=console,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
            refresh_per_second=8,
        )
        self._task = bar.add_task(self._text, total=self._total, completed=self._completed)
        bar.start()
        return bar

    @staticmethod
    def _guard(fn) -> Any:
        """`fn()`, or None when the display fails (a closed terminal, a rich
        that does not work here)."""
        try:
            return fn()
        except Exception:  # noqa: BLE001 - progress must never fail a run
            return None


def _import_rich() -> bool:
    import rich.progress  # noqa: F401

    return True


class _Erasing:
    """A text stream that erases the progress display before each write."""

    def __init__(self, stream: TextIO, progress: TerminalProgress):
        self._stream = stream
        self._progress = progress

    def write(self, text: str) -> int:
        self._progress.hide()
        return self._stream.write(text)

    def writelines(self, lines) -> None:
        self._progress.hide()
        self._stream.writelines(lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _elapsed_column(start: float) -> Any:
    """A column with the time since the run started (rich's own counts from
    when the display appeared); built here so that rich loads only then."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Elapsed(ProgressColumn):
        def render(self, task) -> Text:
            seconds = int(time.monotonic() - start)
            return Text(f"{seconds // 60}:{seconds % 60:02d}", style="progress.elapsed")

    return Elapsed()
