"""A layout as SVG: one rectangle per tile, labelled with its devices.

Tiles are sized like the tensor's pieces (uneven pieces look uneven) and
coloured as in the terminal; a tile's halos are a dashed rectangle around
it, clipped to the tensor.  Several layouts stack vertically in one
drawing, each under its title.  Elements carry classes (`tile`, `halo`,
`label`, `title`, `note`) and `data-devices`, so tests and stylesheets can
find them.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from .layout import Layout
from .terminal import colour, halo_text, text_colour

GRID_WIDTH = 480
"""Pixels across every grid."""

MAX_GRID_HEIGHT = 360
"""Pixels down a grid at most (a tall tensor is squeezed)."""

MIN_TILE = 36
"""Pixels a tile keeps across and down, however small its piece."""

LINE = 16
"""Pixels per line of text."""

MARGIN = 12


def _sizes(extents: Sequence[int], scale: float, minimum: int) -> list[float]:
    return [max(float(minimum), n * scale) for n in extents]


def _layout_group(layout: Layout, title: str, top: float) -> tuple[list[str], float]:
    """The SVG elements of one layout whose title starts at `top`, and the
    height they take."""
    rows, columns = layout.grid
    total_cols = sum(layout.column_sizes) or 1
    total_rows = sum(layout.row_sizes) or 1
    scale = GRID_WIDTH / total_cols
    if scale * total_rows > MAX_GRID_HEIGHT:
        vscale = MAX_GRID_HEIGHT / total_rows
    else:
        vscale = scale
    if len(layout.shape) < 2:
        vscale = min(vscale, 48.0)  # a 1-D tensor is a band
    # a row or column of empty pieces takes no room (the note names its devices)
    widths = [
        0.0 if c in layout.hidden_columns else w for c, w in enumerate(_sizes(layout.column_sizes, scale, MIN_TILE))
    ]
    heights = [0.0 if r in layout.hidden_rows else h for r, h in enumerate(_sizes(layout.row_sizes, vscale, MIN_TILE))]
    xs = [MARGIN + sum(widths[:c]) for c in range(columns)]
    grid_top = top + LINE + 4
    ys = [grid_top + sum(heights[:r]) for r in range(rows)]
    out = [f'<g class="layout" data-sharding={quoteattr(str(layout.sharding))}>']
    out.append(f'<text class="title" x="{MARGIN}" y="{top + LINE - 4:g}" font-weight="bold">{escape(title)}</text>')
    halos = []
    for n, tile in enumerate(layout.tiles):
        if layout.is_hidden(n):
            continue
        r, c = divmod(n, columns)
        x, y, w, h = xs[c], ys[r], widths[c], heights[r]
        fill = colour(n)
        devices = " ".join(str(d) for d in tile.devices)
        out.append(
            f'<rect class="tile" data-devices="{devices}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
            f'fill="{fill}" stroke="#ffffff" stroke-width="1"/>'
        )
        lines = [tile.label()]
        halo = halo_text(tile)
        if halo:
            lines.append(halo)
        first = y + h / 2 - (len(lines) - 1) * LINE / 2 + 5
        for k, text in enumerate(lines):
            out.append(
                f'<text class="label" x="{x + w / 2:g}" y="{first + k * LINE:g}" text-anchor="middle" '
                f'fill="{text_colour(fill)}">{escape(text)}</text>'
            )
        if any(lo or hi for lo, hi in tile.halo):
            halos.append(_halo_rect(layout, n, x, y, w, h))
    out += halos  # above every tile, so a neighbour does not hide them
    bottom = grid_top + sum(heights) + 4
    for note in layout.notes:
        bottom += LINE
        out.append(f'<text class="note" x="{MARGIN}" y="{bottom - 4:g}">{escape(note)}</text>')
    out.append("</g>")
    return out, bottom - top


def _halo_rect(layout: Layout, n: int, x: float, y: float, w: float, h: float) -> str:
    """The dashed outline of what tile `n`'s holders read: the tile grown
    by its halos, each halo cell as wide as one cell of the tile."""
    tile = layout.tiles[n]
    rank = len(layout.shape)
    cols = tile.shape[-1] if rank else 1
    rows = max(1, layout.row_sizes[n // layout.grid[1]]) if rank else 1
    left, right = tile.halo[-1] if rank else (0, 0)
    up = down = 0
    if rank > 1:
        # along the rows only the first dimension's halo shows as height
        up, down = tile.halo[0]
        inner = max(1, rows // max(1, tile.shape[0]))
        up, down = up * inner, down * inner
    cw, ch = w / max(1, cols), h / rows
    return (
        f'<rect class="halo" data-tile="{n}" x="{x - left * cw:g}" y="{y - up * ch:g}" '
        f'width="{w + (left + right) * cw:g}" height="{h + (up + down) * ch:g}" fill="none" '
        f'stroke="{colour(n)}" stroke-width="2" stroke-dasharray="5,3"/>'
    )


def to_svg(layouts: Layout | Sequence[tuple[str, Layout]], title: str | None = None) -> str:
    """An SVG document drawing one layout, or several (title, layout) pairs
    stacked."""
    items = [(title or layouts.describe(), layouts)] if isinstance(layouts, Layout) else list(layouts)
    body: list[str] = []
    top = float(MARGIN)
    width = GRID_WIDTH + 2 * MARGIN
    for name, layout in items:
        group, height = _layout_group(layout, name, top)
        body += group
        top += height + MARGIN
        width = max(width, MARGIN + len(name) * 8)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{top:g}" '
        f'viewBox="0 0 {width:g} {top:g}" font-family="monospace" font-size="12">\n' + "\n".join(body) + "\n</svg>\n"
    )
