"""The analysis report: dataclasses, a plain-text table, JSON.

JSON (`AnalysisReport.to_json`, schema version 1; keys sorted, so the text
is stable)::

    {"version": 1,
     "pipeline": ["sharding-propagation", "mesh-partition"],  # run on a copy; [] if none
     "functions": [
       {"name": "mlp", "mesh": "mesh0", "mesh_shape": [2],   # mesh null, shape [] without one; a ? size is null
        "devices": [{"device": [0], "collectives": {"all_gather": 1},
                     "bytes_received": 64, "peak_memory": 1536,
                     "flops": 1024, "redundant_flops": 0}, ...],
        "max": {...},    # over devices: each field's largest value
        "total": {...},  # over devices: sums (peak_memory: the sum of the peaks)
        "notes": ["file:line:col: what was counted conservatively", ...]}]}

The table lists one row per device (devices with equal costs share a row
past 16 devices), then the largest and the summed values.  On a terminal
with `rich` installed the same table is drawn with `rich`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..ir.syntax import encode_symbol_name

SCHEMA_VERSION = 1
_ROW_EACH_DEVICE = 16


@dataclass(frozen=True)
class DeviceCost:
    """What one device does when it runs the function."""

    device: tuple[int, ...]
    collectives: dict[str, int]
    bytes_received: int
    peak_memory: int
    flops: int
    redundant_flops: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": list(self.device),
            "collectives": dict(sorted(self.collectives.items())),
            "bytes_received": self.bytes_received,
            "peak_memory": self.peak_memory,
            "flops": self.flops,
            "redundant_flops": self.redundant_flops,
        }


def _summary(devices: list[DeviceCost], combine) -> dict[str, Any]:
    kinds = sorted({k for d in devices for k in d.collectives})
    return {
        "collectives": {k: combine(d.collectives.get(k, 0) for d in devices) for k in kinds},
        "bytes_received": combine(d.bytes_received for d in devices),
        "peak_memory": combine(d.peak_memory for d in devices),
        "flops": combine(d.flops for d in devices),
        "redundant_flops": combine(d.redundant_flops for d in devices),
    }


@dataclass
class FunctionReport:
    """One function's costs on every device of its mesh."""

    name: str
    mesh: str | None
    mesh_shape: tuple[int, ...]
    devices: list[DeviceCost]
    notes: list[str] = field(default_factory=list)

    def device(self, device: tuple[int, ...]) -> DeviceCost:
        return next(d for d in self.devices if d.device == tuple(device))

    @property
    def max(self) -> dict[str, Any]:
        return _summary(self.devices, lambda xs: max(xs, default=0))

    @property
    def total(self) -> dict[str, Any]:
        return _summary(self.devices, sum)

    @property
    def bytes_received(self) -> int:
        """Bytes the busiest device receives (the planner's `bytes_received`)."""
        return max((d.bytes_received for d in self.devices), default=0)

    @property
    def redundant_flops(self) -> int:
        """Flops done more than once, over all devices."""
        return sum(d.redundant_flops for d in self.devices)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mesh": self.mesh,
            "mesh_shape": [None if n < 0 else n for n in self.mesh_shape],  # null: known at run time only
            "devices": [d.to_dict() for d in self.devices],
            "max": self.max,
            "total": self.total,
            "notes": list(self.notes),
        }


@dataclass
class AnalysisReport:
    """Every function's report; `pipeline` names the passes run on a copy
    of an annotated module (the report is then of what they emit)."""

    functions: list[FunctionReport]
    pipeline: tuple[str, ...] = ()

    def function(self, name: str) -> FunctionReport:
        """The report of function `name`; KeyError naming those there are."""
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(f"no function @{name} in the report (functions: {', '.join(f.name for f in self.functions)})")

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": SCHEMA_VERSION,
            "pipeline": list(self.pipeline),
            "functions": [f.to_dict() for f in self.functions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n"

    def to_table(self) -> str:
        return "".join(_plain(t) for t in self.tables())

    def tables(self) -> list[_Table]:
        return [_table(f) for f in self.functions] or [_Table("mesh-analysis: no function to analyze", [], [], [])]

    def header(self) -> str:
        if not self.pipeline:
            return "mesh-analysis: the per-device program as written"
        return f"mesh-analysis: the per-device program {' and '.join(self.pipeline)} would emit"

    def write(self, out: TextIO, fmt: str = "table") -> None:
        """`fmt` "json" or "table" (drawn with rich on a terminal when it is installed)."""
        if fmt == "json":
            out.write(self.to_json())
            return
        if _is_terminal(out) and _draw_rich(self, out):
            return
        out.write(self.header() + "\n" + self.to_table())


# ---------------------------------------------------------------------------
# Tables


COLUMNS = ("device", "collectives", "received (B)", "peak memory (B)", "flops", "redundant flops")


@dataclass
class _Table:
    title: str
    rows: list[list[str]]
    footer: list[list[str]]
    notes: list[str]


def _kinds(collectives: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(collectives.items())) or "-"


def _numbers(c: dict[str, Any] | DeviceCost) -> list[str]:
    get = c.get if isinstance(c, dict) else lambda k: getattr(c, k)
    return [f"{get(k):,}" for k in ("bytes_received", "peak_memory", "flops", "redundant_flops")]


def _device(d: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, d)) + "]"


def _table(f: FunctionReport) -> _Table:
    if f.mesh is None:
        title = f"{encode_symbol_name(f.name)} (no mesh: one device)"
    else:
        shape = "x".join("?" if n < 0 else str(n) for n in f.mesh_shape)
        title = (
            f"{encode_symbol_name(f.name)} on {encode_symbol_name(f.mesh)} (shape {shape}, {len(f.devices)} devices)"
        )
    rows: list[list[str]] = []
    if len(f.devices) <= _ROW_EACH_DEVICE:
        for d in f.devices:
            rows.append([_device(d.device), _kinds(d.collectives), *_numbers(d)])
    else:
        groups: dict[tuple, list[DeviceCost]] = {}
        for d in f.devices:
            key = (tuple(sorted(d.collectives.items())), d.bytes_received, d.peak_memory, d.flops, d.redundant_flops)
            groups.setdefault(key, []).append(d)
        for members in groups.values():
            first = members[0]
            label = _device(first.device) + (f" and {len(members) - 1} more" if len(members) > 1 else "")
            rows.append([label, _kinds(first.collectives), *_numbers(first)])
    footer = []
    if len(f.devices) > 1:
        footer.append(["max", _kinds(f.max["collectives"]), *_numbers(f.max)])
        footer.append(["total", _kinds(f.total["collectives"]), *_numbers(f.total)])
    return _Table(title, rows, footer, list(f.notes))


def _plain(t: _Table) -> str:
    lines = [t.title]
    body = [list(COLUMNS), *t.rows, *t.footer]
    if t.rows:
        widths = [max(len(r[i]) for r in body) for i in range(len(COLUMNS))]
        for r in body:
            cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])]
            cells += [c.rjust(w) for c, w in zip(r[2:], widths[2:])]
            lines.append("  " + "  ".join(cells).rstrip())
    lines += [f"  note: {n}" for n in t.notes]
    return "\n".join(lines) + "\n"


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def _draw_rich(report: AnalysisReport, out: TextIO) -> bool:
    """Draw with rich when it is installed; False when it is not."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        return False
    console = Console(file=out)
    console.print(report.header(), style="bold")
    for t in report.tables():
        table = Table(title=t.title, title_justify="left", show_footer=False)
        for i, name in enumerate(COLUMNS):
            table.add_column(name, justify="left" if i < 2 else "right")
        for k, r in enumerate(t.rows):
            table.add_row(*r, end_section=k == len(t.rows) - 1)
        for r in t.footer:
            table.add_row(*r, style="bold")
        console.print(table)
        for n in t.notes:
            console.print(f"note: {n}", style="yellow", highlight=False)
    return True
