"""Pass pipelines that mix this project's Python passes with upstream MLIR's.

Python passes are not in MLIR's registry, so `PassManager.parse` cannot name
them. The pipeline text is split into its top-level elements here: ours are
added as Python callables, everything else is handed to MLIR's own parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from mlir import ir
from mlir.passmanager import PassManager

from ..ir.text import scan_group
from ..transforms import PASSES, OptionError, Pass, VerifyMesh


class PipelineError(ValueError):
    """A pipeline that cannot be built; the message says why."""


@dataclass
class Element:
    """One top-level pipeline element: a pass with options, or a nested
    pipeline such as `func.func(cse)`."""

    name: str
    options: str = ""
    nested: str | None = None

    @property
    def text(self) -> str:
        if self.nested is not None:
            return f"{self.name}({self.nested})"
        return f"{self.name}{{{self.options}}}" if self.options else self.name


def parse_pipeline(text: str) -> list[Element]:
    """Split `builtin.module(a, b{x=1}, func.func(c))` (the anchor is
    optional) into elements."""
    text = text.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        text = text[len("builtin.module(") : -1]
    elements: list[Element] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n,":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and (text[i].isalnum() or text[i] in "-_."):
            i += 1
        name = text[start:i]
        if not name:
            raise PipelineError(f"expected a pass name at column {i + 1} of pass pipeline '{text}'")
        options, nested = "", None
        if i < n and text[i] in "{(":
            end = scan_group(text, i)
            if end > n or text[end - 1] not in "})":
                raise PipelineError(f"unbalanced '{text[i]}' after '{name}' in pass pipeline '{text}'")
            inner = text[i + 1 : end - 1]
            if text[i] == "{":
                options = inner.strip()
            else:
                nested = inner
            i = end
        while i < n and text[i] in " \t\n":
            i += 1
        if i < n and text[i] != ",":
            raise PipelineError(f"expected ',' after '{name}' in pass pipeline '{text}'")
        elements.append(Element(name, options, nested))
    return elements


@dataclass
class Pipeline:
    """A PassManager plus the Python passes in it (whose warnings and
    remarks the driver collects)."""

    pm: PassManager
    passes: list[Pass] = field(default_factory=list)


def build(
    elements: list[Element],
    context: ir.Context,
    *,
    verify_each: bool = True,
    after_each: Callable[[str, ir.Operation], None] | None = None,
) -> Pipeline:
    """A `builtin.module` PassManager for `elements`. Our semantic verifier
    runs after each element (MLIR's own verifier already does), and
    `after_each(label, module)` when given (for --mlir-print-ir-after-all).
    After a Python pass that records what it changed, and another check
    before it, the verifier checks only what changed (`VerifyMesh`)."""
    with context:
        pm = PassManager("builtin.module")
    pipeline = Pipeline(pm)
    previous: VerifyMesh | None = None
    for el in elements:
        cls = PASSES.get(el.name)
        p: Pass | None = None
        if cls is not None:
            if el.nested is not None:
                raise PipelineError(f"pass '{el.name}' takes options in braces, not a nested pipeline")
            try:
                p = cls.from_options(el.options)
            except OptionError as e:
                raise PipelineError(str(e)) from None
            p.add_to(pm)
            pipeline.passes.append(p)
        else:
            if el.nested is not None:
                _reject_nested_python_passes(el.nested)
            try:
                pm.add(el.text)
            except (ValueError, RuntimeError) as e:
                detail = str(e).strip().splitlines()
                message = detail[0] if detail else "unknown pass"
                unknown = re.search(r"'([^']*)' does not refer to a registered pass", str(e))
                if unknown is not None:
                    # The name MLIR could not find, which may be nested: func.func(bogus).
                    message = f"'{unknown.group(1)}' is not a pass of mesh-opt or of upstream MLIR (see --list-passes)"
                raise PipelineError(message) from None
        if verify_each:
            check = VerifyMesh()
            check.after, check.previous = p, previous
            check.add_to(pm)
            previous = check
        if after_each is not None:
            label = el.text

            def dump(op, pass_, label=label):
                after_each(label, op.operation if hasattr(op, "operation") else op)

            pm.add(dump, name="PrintIR", argument="print-ir")
    return pipeline


def _reject_nested_python_passes(nested: str) -> None:
    for el in parse_pipeline(nested):
        if el.name in PASSES:
            raise PipelineError(
                f"pass '{el.name}' runs on builtin.module only; list it at the top level of the pipeline"
            )
        if el.nested is not None:
            _reject_nested_python_passes(el.nested)
