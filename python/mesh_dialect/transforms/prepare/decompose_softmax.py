"""`decompose-softmax`: `linalg.softmax` written as the generics it stands
for, so that a softmax along a split dimension keeps it split.

`linalg.softmax`'s rule needs the dimension it normalizes along whole:
over a vocabulary split by a column-parallel LM head, propagation moves
that split to the rows first (an all_to_all of the logits).  Written as
its four steps (the largest number of each row, exp of the difference, the
sum of those, the quotient), the maximum and the sum split into partial
results like any reduction, and two all_reduces of one number per row
replace the all_to_all.

The steps are upstream's decomposition (`decompose_interface`) but for the
maximum, which is `arith.maximumf` from -inf instead of `arith.maxnumf`
from a NaN: a mesh max reduction propagates NaNs, so only the former may
run on partial results.  The softmax is the same, bit for bit, but for the
sign of a NaN: without a NaN in a row both maxima are the same number (a
zero's sign changes no difference, exp(±0) = 1), and with one the row's
sum is NaN either way, so every element of the row is NaN (propagated
from another operand, so its sign may differ).  Each new op takes the
softmax's location.  A softmax on buffers, or whose input, init and
result are not of one tensor type (a static size on one side, dynamic on
the other), is left as it is.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from mlir import ir

from ..base import Pass

_NEG_INF = {"f16": "0xFC00", "bf16": "0xFF80", "f32": "0xFF800000", "f64": "0xFFF0000000000000"}
"""-inf in each float type a softmax may have, as MLIR's hexadecimal literal."""


@dataclasses.dataclass
class DecomposeSoftmax(Pass):
    ARGUMENT: ClassVar[str] = "decompose-softmax"
    SUMMARY: ClassVar[str] = "Write linalg.softmax as generics, so that it splits along the dimension it normalizes"
    DESCRIPTION: ClassVar[str] = (
        "Each linalg.softmax on tensors becomes a max reduction (arith.maximumf from -inf), exp(x - max), a sum "
        "reduction and a division, computing the same bits (a NaN's sign aside): sharding-propagation can then split "
        "the dimension it normalizes along, with the maximum and the sum as partial results, instead of moving that "
        "split away."
    )

    def run(self, module: ir.Operation) -> None:
        found: list[ir.Operation] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == "linalg.softmax":
                found.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        templates: dict[tuple[str, int], ir.Module] = {}  # (the module keeps its function alive)
        for op in found:
            # (the generics index their input, init and result alike: one type for the three)
            if len(op.results) != 1 or not isinstance(op.results[0].type, ir.RankedTensorType):
                continue
            if not op.operands[0].type == op.operands[1].type == op.results[0].type:
                continue
            t = ir.RankedTensorType(op.operands[0].type)
            element = str(t.element_type)
            if element not in _NEG_INF:
                continue
            dim = ir.IntegerAttr(op.attributes["dimension"]).value
            key = (str(t), dim)
            template = templates.get(key)
            if template is None:
                template = templates[key] = _template(t, element, dim, op.context)
            _replace(op, template.body.operations[0].operation)
            self.erase(op)


def _template(t: ir.RankedTensorType, element: str, dim: int, context: ir.Context) -> ir.Module:
    """A module of one function of (input, init) computing the softmax of
    `t` along `dim`."""
    rank = len(t.shape)
    kept = [d for d in range(rank) if d != dim]
    reduced = "x".join("?" if ir.ShapedType.is_dynamic_size(t.shape[d]) else str(t.shape[d]) for d in kept)
    row = f"tensor<{reduced + 'x' if kept else ''}{element}>"
    loops = ", ".join(f"d{d}" for d in range(rank))
    identity = f"affine_map<({loops}) -> ({loops})>"
    to_row = f"affine_map<({loops}) -> ({', '.join(f'd{d}' for d in kept)})>"
    sweep = ", ".join('"reduction"' if d == dim else '"parallel"' for d in range(rank))
    every = ", ".join(['"parallel"'] * rank)
    sizes = []
    lines = []
    for d in kept:
        if ir.ShapedType.is_dynamic_size(t.shape[d]):
            lines.append(f"  %c{d} = arith.constant {d} : index")
            lines.append(f"  %n{d} = tensor.dim %x, %c{d} : {t}")
            sizes.append(f"%n{d}")
    text = "\n".join(
        [
            f"func.func @softmax(%x: {t}, %init: {t}) -> {t} {{",
            *lines,
            f"  %e = tensor.empty({', '.join(sizes)}) : {row}",
            f"  %low = arith.constant {_NEG_INF[element]} : {element}",
            f"  %m0 = linalg.fill ins(%low : {element}) outs(%e : {row}) -> {row}",
            f"  %m = linalg.generic {{indexing_maps = [{identity}, {to_row}], iterator_types = [{sweep}]}}",
            f"      ins(%x : {t}) outs(%m0 : {row}) {{",
            f"  ^bb0(%a: {element}, %b: {element}):",
            f"    %r = arith.maximumf %a, %b : {element}",
            f"    linalg.yield %r : {element}",
            f"  }} -> {row}",
            f"  %p = linalg.generic {{indexing_maps = [{identity}, {to_row}, {identity}], iterator_types = [{every}]}}",
            f"      ins(%x, %m : {t}, {row}) outs(%init : {t}) {{",
            f"  ^bb0(%a: {element}, %b: {element}, %o: {element}):",
            f"    %s = arith.subf %a, %b : {element}",
            f"    %r = math.exp %s : {element}",
            f"    linalg.yield %r : {element}",
            f"  }} -> {t}",
            f"  %zero = arith.constant 0.0 : {element}",
            f"  %s0 = linalg.fill ins(%zero : {element}) outs(%e : {row}) -> {row}",
            f"  %s = linalg.generic {{indexing_maps = [{identity}, {to_row}], iterator_types = [{sweep}]}}",
            f"      ins(%p : {t}) outs(%s0 : {row}) {{",
            f"  ^bb0(%a: {element}, %b: {element}):",
            f"    %r = arith.addf %a, %b : {element}",
            f"    linalg.yield %r : {element}",
            f"  }} -> {row}",
            f"  %q = linalg.generic {{indexing_maps = [{identity}, {to_row}, {identity}], iterator_types = [{every}]}}",
            f"      ins(%p, %s : {t}, {row}) outs(%init : {t}) {{",
            f"  ^bb0(%a: {element}, %b: {element}, %o: {element}):",
            f"    %r = arith.divf %a, %b : {element}",
            f"    linalg.yield %r : {element}",
            f"  }} -> {t}",
            f"  return %q : {t}",
            "}",
        ]
    )
    return ir.Module.parse(text, context)


def _replace(op: ir.Operation, template: ir.Operation) -> None:
    """The template's ops cloned in front of `op`, reading its input and
    init, at its location; `op`'s result replaced by theirs."""
    entry = template.regions[0].blocks[0]
    mapping: dict[ir.Value, ir.Value] = {entry.arguments[0]: op.operands[0], entry.arguments[1]: op.operands[1]}
    at = ir.InsertionPoint(op)
    for inner in entry.operations:
        inner = inner.operation
        if inner.name == "func.return":
            op.results[0].replace_all_uses_with(mapping[inner.operands[0]])
            break
        new = inner.clone(ip=at)
        for k, v in enumerate(new.operands):
            if v in mapping:
                new.operands[k] = mapping[v]
        for old, now in zip(inner.results, new.results):
            mapping[old] = now
        _relocate(new, op.location)


def _relocate(op: ir.Operation, loc: ir.Location) -> None:
    """`op`, the ops in its regions and their blocks' arguments at `loc`."""

    def visit(inner: ir.Operation) -> ir.WalkResult:
        inner.location = loc
        for region in inner.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    arg.set_location(loc)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
