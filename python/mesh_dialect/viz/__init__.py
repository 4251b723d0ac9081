"""Pictures of layouts: which device holds which tile of a tensor.

    import mesh_dialect
    mesh_dialect.visualize([8, 16], [2, 2], [[0], [1]])    # drawn on stdout

`layout` computes the tiles, `terminal` draws them as text (in colour with
`rich`), `svg` writes an SVG, `program` reads every layout and reshard of a
function from IR and `html` makes a self-contained page of them;
`mesh-viz` is the command line over all of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from ..sharding.spec import Mesh, Sharding
from .layout import Layout, LayoutError, Tile, compute_layout


def visualize(
    shape: Sequence[int],
    mesh: Mesh | Sequence[int],
    sharding: Sharding | Sequence[Sequence[int]],
    *,
    element_type: str = "f32",
    file: TextIO | None = None,
    color: bool | None = None,
    width: int | None = None,
) -> Layout:
    """Draw how a tensor of `shape` lies on `mesh` (a `Mesh` or its shape)
    under `sharding` (a `Sharding`, or split axes such as `[[0], [1]]`), as
    `jax.debug.visualize_array_sharding` does: a grid of tiles labelled
    with the devices holding them.  Colour only on a terminal with `rich`
    installed unless `color` says otherwise.  Returns the computed layout;
    raises LayoutError for a layout that is invalid or too large to draw."""
    from .terminal import write

    layout = compute_layout(shape, mesh, sharding, element_type=element_type)
    write(layout, file, color=color, width=width)
    return layout


__all__ = ["Layout", "LayoutError", "Tile", "compute_layout", "visualize"]
