"""`mesh-analysis`: print what a sharding plan costs, per function and per
device (collectives by kind, bytes received, peak live tensor memory, flops
and flops repeated on replicas), as a table or as JSON, to stderr or to a
file.  The IR is left as it is; an annotated program is partitioned on a
copy, so the report is of what `mesh-partition` would emit.  The models are
`mesh_dialect.analysis`'s."""

from __future__ import annotations

import dataclasses
import io
import sys
from dataclasses import field
from typing import ClassVar

from mlir import ir

from ...analysis import MAX_DEVICES, AnalysisError, analyze
from ...files import write_all
from ..base import Pass


@dataclasses.dataclass
class MeshAnalysis(Pass):
    ARGUMENT: ClassVar[str] = "mesh-analysis"
    SUMMARY: ClassVar[str] = "Report per device the collectives, bytes received, peak memory and flops of a plan"
    DESCRIPTION: ClassVar[str] = (
        "Per function and per device: the collectives by kind, the bytes received (the resharding planner's "
        "cost model, as the simulator counts them), the peak live tensor memory, the flops and the flops computed "
        "again on replicas. A program with mesh.shard annotations is partitioned on a copy first (after "
        "sharding-propagation when it has not run), so the report is of what mesh-partition would emit. The IR "
        "is not changed."
    )

    format: str = field(default="table", metadata={"help": "report format", "choices": ("table", "json")})
    output: str = field(default="", metadata={"help": "file to write the report to (default: stderr)"})
    max_devices: int = field(default=MAX_DEVICES, metadata={"help": "the most devices a mesh may have", "min": 1})

    def run(self, module: ir.Operation) -> None:
        self.record_changes()  # nothing changes
        try:
            report = analyze(module, max_devices=self.max_devices)
        except AnalysisError as e:
            raise self.error(e.location or _first_function(module), f"cannot analyze the program: {e}") from None
        if not self.output:
            report.write(sys.stderr, self.format)
            return
        text = io.StringIO()
        report.write(text, self.format)
        body = text.getvalue().encode("utf-8")
        try:  # (all or nothing: a file it replaces is not lost on a failed write)
            write_all([(self.output, lambda f: f.write(body))])
        except OSError as e:
            raise self.error(
                _first_function(module), f"cannot write the report to '{self.output}': {e.strerror or e}"
            ) from None


def _first_function(module: ir.Operation) -> ir.Location:
    """Where a report-wide error points: the first function, else the module."""
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "func.func":
            return op.operation.location
    return module.location
