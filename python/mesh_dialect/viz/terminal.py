"""A layout drawn in the terminal: a grid of tiles labelled with devices.

The picture is laid out once as characters (`picture`), so the plain text
and the coloured one have the same shape: with `rich` (the `progress`
extra) each tile is painted in its colour, without it, or when the output
is not a terminal, the characters are written as they are.  Column widths
and row heights follow the tiles' sizes, so uneven pieces look uneven.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from .layout import Layout, Tile, device_runs

PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
    "#86bcb6",
    "#d4a6c8",
)
"""Tile colours, shared with the SVG and HTML pictures (tile i gets entry
i mod 12): distinct hues readable under black or white text."""

DEFAULT_WIDTH = 64
"""Characters across the grid when the caller gives no width."""

MAX_HEIGHT = 8
"""Lines the grid's rows take at most, unless their labels need more."""

ASPECT = 2.5
"""How much taller a terminal cell is than wide: a square tile of n
columns is drawn n / ASPECT lines high."""

LABEL_WIDTH = 40
"""Tile labels wrap past this many characters."""


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def text_colour(background: str) -> str:
    """Black or white, whichever reads better on `background` (#rrggbb)."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def tile_lines(layout: Layout, tile: Tile) -> list[str]:
    """What a tile says: its holders (wrapped), then its halos if any."""
    lines = _wrap(_devices_text(tile), LABEL_WIDTH)
    halo = halo_text(tile)
    if halo:
        lines.append(halo)
    return lines


def halo_text(tile: Tile) -> str:
    """`halo ↑1 ↓2 ←1`: the cells a tile's holders read beyond it, up and
    down along the rows, left and right along the last dimension (with the
    dimension's number when rows flatten several)."""
    rank = len(tile.halo)
    parts = []
    for d, (lo, hi) in enumerate(tile.halo):
        before, after = ("←", "→") if d == rank - 1 else ("↑", "↓")
        prefix = f"d{d}" if rank > 2 and d < rank - 1 else ""
        parts += [f"{prefix}{before}{lo}"] if lo else []
        parts += [f"{prefix}{after}{hi}"] if hi else []
    return "halo " + " ".join(parts) if parts else ""


def _devices_text(tile: Tile) -> str:
    """Copies listed one by one, runs of three or more consecutive single
    devices as `a-b`; partial groups as `0+1`."""
    if any(len(g) > 1 for g in tile.replicas):
        return tile.label()
    return device_runs([g[0] for g in tile.replicas])


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return lines


@dataclass
class Picture:
    """The grid as characters, and for each character the tile it paints
    (-1 for borders and the legend)."""

    lines: list[str]
    owners: list[list[int]]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _allocate(sizes: tuple[int, ...], scale: float, minimums: list[int]) -> list[int]:
    return [max(m, round(n * scale)) for n, m in zip(sizes, minimums)]


def picture(layout: Layout, width: int = DEFAULT_WIDTH, title: str | None = None) -> Picture:
    """The layout's grid (with a title line and the legend), as characters.
    Rows and columns of empty pieces are left out (`Layout.empty_note`
    names their devices), so no tile suggests a device holds data it lacks."""
    rows_all, columns = layout.grid
    rows = [r for r in range(rows_all) if r not in layout.hidden_rows]
    cols = [c for c in range(columns) if c not in layout.hidden_columns]
    labels = [tile_lines(layout, t) for t in layout.tiles]
    min_w = [max(len(line) for r in rows for line in labels[r * columns + c]) + 2 for c in cols]
    min_h = [max(len(labels[r * columns + c]) for c in cols) for r in rows]
    col_sizes = tuple(layout.column_sizes[c] for c in cols)
    row_sizes = tuple(layout.row_sizes[r] for r in rows)
    total_cols = sum(col_sizes) or 1
    inner = max(width - len(cols) - 1, len(cols))
    hscale = inner / total_cols
    col_w = _allocate(col_sizes, hscale, min_w)
    total_rows = sum(row_sizes) or 1
    vscale = min(hscale / ASPECT, MAX_HEIGHT / total_rows)
    if len(layout.shape) < 2:
        vscale = min(vscale, 3)  # one row: a band, not a square
    row_h = _allocate(row_sizes, vscale, min_h)

    lines: list[str] = []
    owners: list[list[int]] = []

    def plain(text: str) -> None:
        lines.append(text)
        owners.append([-1] * len(text))

    plain(title if title is not None else layout.describe())

    def border(left: str, mid: str, right: str) -> None:
        plain(left + mid.join("─" * w for w in col_w) + right)

    border("┌", "┬", "┐")
    for i, r in enumerate(rows):
        tiles = [r * columns + c for c in cols]
        top = (row_h[i] - min_h[i]) // 2
        for k in range(row_h[i]):
            text, own = "│", [-1]
            for j, t in enumerate(tiles):
                label = labels[t]
                at = k - top - (min_h[i] - len(label)) // 2
                cell = label[at] if 0 <= at < len(label) else ""
                text += cell.center(col_w[j]) + "│"
                own += [t] * col_w[j] + [-1]
            lines.append(text)
            owners.append(own)
        if i + 1 < len(rows):
            border("├", "┼", "┤")
    border("└", "┴", "┘")
    for note in layout.notes:
        plain(note)
    return Picture(lines, owners)


def to_text(layout: Layout, width: int = DEFAULT_WIDTH, title: str | None = None) -> str:
    """The picture as plain text."""
    return picture(layout, width, title).text


def to_rich(layout: Layout, width: int = DEFAULT_WIDTH, title: str | None = None) -> Any:
    """The picture as a `rich.text.Text`, each tile in its colour (needs rich)."""
    from rich.text import Text

    pic = picture(layout, width, title)
    out = Text()
    for n, (line, own) in enumerate(zip(pic.lines, pic.owners)):
        if n:
            out.append("\n")
        start = 0
        for i in range(1, len(line) + 1):
            if i == len(line) or own[i] != own[start]:
                t = own[start]
                style = "bold" if n == 0 else ""
                if t >= 0:
                    bg = colour(t)
                    style = f"{text_colour(bg)} on {bg}"
                out.append(line[start:i], style=style or None)
                start = i
    return out


def colour_wanted(stream: TextIO | None, color: bool | None = None) -> bool:
    """Whether to paint: `color` when given, else only on a terminal, with
    rich importable, without NO_COLOR and not on TERM=dumb."""
    if color is not None:
        return color and _rich_available()
    if stream is None or os.environ.get("NO_COLOR") or os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return False
    try:
        if not stream.isatty():
            return False
    except (AttributeError, OSError, ValueError):
        return False
    return _rich_available()


def _rich_available() -> bool:
    try:
        return importlib.util.find_spec("rich") is not None
    except (ImportError, ValueError):
        return False


def write(
    layout: Layout,
    file: TextIO | None = None,
    *,
    color: bool | None = None,
    width: int | None = None,
    title: str | None = None,
) -> None:
    """Draw `layout` on `file` (stdout by default), in colour when
    `colour_wanted` says so."""
    stream = file if file is not None else sys.stdout
    w = width or DEFAULT_WIDTH
    if colour_wanted(stream, color):
        from rich.console import Console

        console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
        console.print(to_rich(layout, w, title))
    else:
        stream.write(to_text(layout, w, title) + "\n")
