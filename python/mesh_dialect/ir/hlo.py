"""Plain readings of the stablehlo/mhlo attributes the rules and the simulator
share.  These dialects are not registered in these bindings, so their
structured attributes are opaque: they are read from their text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GATHER = re.compile(r"#(?:stablehlo|mhlo)\.gather<(.*)>\s*\Z", re.S)
_LIST_FIELD = re.compile(r"(\w+)\s*=\s*\[([^\]]*)\]")
_INT_FIELD = re.compile(r"(\w+)\s*=\s*(-?\d+)\b")


@dataclass(frozen=True)
class GatherDimensions:
    """`#stablehlo.gather<...>`: omitted lists are empty."""

    offset_dims: tuple[int, ...] = ()
    collapsed_slice_dims: tuple[int, ...] = ()
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()
    start_index_map: tuple[int, ...] = ()
    index_vector_dim: int = 0


def gather_dimensions(text: str) -> GatherDimensions | None:
    """The fields of a gather's `dimension_numbers` printed as `text`; None
    when it is not one (or names a field this reading does not know)."""
    m = _GATHER.match(text.strip())
    if m is None:
        return None
    body = m.group(1)
    fields: dict[str, object] = {}
    for name, values in _LIST_FIELD.findall(body):
        try:
            fields[name] = tuple(int(v) for v in values.replace(" ", "").split(",") if v)
        except ValueError:
            return None
    for name, value in _INT_FIELD.findall(_LIST_FIELD.sub("", body)):
        fields[name] = int(value)
    known = set(GatherDimensions.__dataclass_fields__)
    if not set(fields) <= known or "index_vector_dim" not in fields:
        return None
    return GatherDimensions(**fields)  # type: ignore[arg-type]


__all__ = ["GatherDimensions", "gather_dimensions"]
