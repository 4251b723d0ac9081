"""`sharding-propagation` keeps each op's operands as collected and renames
them as it hands a value's uses to an annotation (`_Function.hand_uses`),
instead of asking the bindings for them again.  A rewrite that changed uses
some other way would leave `apply` reading stale operands and annotating the
wrong value, a miscompile no FileCheck line need notice.  This test runs the
pass over every test input that runs it, under both solvers, and checks at
each op it applies that the operands it believes in are the op's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mlir import ir, passmanager

import mesh_dialect
from mesh_dialect.ir.diagnostics import DiagnosticError
from mesh_dialect.transforms import ShardingPropagation
from mesh_dialect.transforms.propagation import sharding_propagation as sp

TESTS = Path(__file__).resolve().parents[1]
_RUN = re.compile(r"^\s*//\s*RUN:.*sharding-propagation", re.MULTILINE)
_SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


# An argument whose annotations for users agree on rows, read directly by an
# op whose explicit option wants it in columns and by an op after that one:
# the argument gets its own annotation in the middle of applying
# (`pin_argument`), and the op after must read that annotation.
PINNED = """\
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a0 = mesh.shard %a to %rows annotate_for_users : tensor<8x8xf32>
  %x = tosa.abs %a0 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %a1 = mesh.shard %a to %rows annotate_for_users : tensor<8x8xf32>
  %y = tosa.floor %a1 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %y1 = mesh.shard %y to %cols : tensor<8x8xf32>
  %z = tosa.abs %a {mesh.sharding_option = #mesh.sharding<@mesh, [[], [0]]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %z1 = mesh.shard %z to %cols : tensor<8x8xf32>
  %w = tosa.exp %a : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %x, %y1, %w : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
"""


def _inputs() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.mlir") if _RUN.search(p.read_text()))


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every mismatch between `operands_now` and the op's operands (or
    between an annotation it names for an operand and that operand's
    annotation), as text, after a first item counting the calls checked."""
    found: list = [0]
    plain = sp._Function.operands_now

    def operands_now(self: sp._Function, index: int) -> tuple[list[ir.Value], list | None]:
        found[0] += 1
        believed, known = answer = plain(self, index)
        op = self.ops[index]
        actual = list(op.operands)
        if believed != actual:
            wrong = [i for i, (a, b) in enumerate(zip(believed, actual)) if a != b] or ["count"]
            found.append(f"{op.name} at {op.location}: stale operands {wrong}")
        for i, ann in enumerate(known or ()):
            if ann is not None and (ann.value != believed[i] or self.anns.get(believed[i]) is not ann):
                found.append(f"{op.name} at {op.location}: operand {i} named with another annotation")
        return answer

    monkeypatch.setattr(sp._Function, "operands_now", operands_now)
    return found


def _run(text: str, solver: str) -> bool:
    """Propagate over `text`; False when it does not parse or the pass refuses it."""
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    try:
        module = mesh_dialect.parse(text, context=ctx)
    except DiagnosticError:
        return False
    pm = passmanager.PassManager("builtin.module", context=ctx)
    ShardingPropagation(solver=solver).add_to(pm)
    with ctx, ir.Location.unknown():
        ctx.emit_error_diagnostics = False
        try:
            pm.run(module)
        except ir.MLIRError:
            return False
    return True


def test_the_inputs_are_found() -> None:
    assert len(_inputs()) >= 100


@pytest.mark.parametrize("solver", ["cost", "sweep"])
def test_applied_operands_are_the_ops_own(solver: str, checked: list[str]) -> None:
    ran = 0
    for path in _inputs():
        for chunk in _SPLIT.split(path.read_text()):
            ran += _run(chunk, solver)
    assert _run(PINNED, solver)
    assert ran >= 130  # (the valid ones run: the check is not vacuous)
    assert checked[0] >= 300  # (and `apply` asks for the operands it annotates)
    assert checked[1:] == []
