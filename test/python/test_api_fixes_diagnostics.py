"""A pass manager reused on several modules reports the warnings and
remarks of its last run only, not those of the modules before."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest
from mlir import ir
from mlir.passmanager import PassManager
from test_pass_manager import POOL  # a program whose propagation remarks once

import mesh_dialect
from mesh_dialect.transforms import PASSES, Pass


def test_pass_manager_reports_the_last_run_only():
    ctx = mesh_dialect.context()
    pm = mesh_dialect.pass_manager("builtin.module(sharding-propagation{explain=true})", context=ctx)
    for k in range(3):
        pm.run(mesh_dialect.parse(POOL, filename=f"pool{k}.mlir", context=ctx))
        assert [(d.severity, d.filename, d.line) for d in pm.diagnostics] == [("remark", f"pool{k}.mlir", 5)]


@dataclasses.dataclass
class Gate(Pass):
    """Fails on a module marked `gate.stop`, so the passes after it do not run."""

    ARGUMENT: ClassVar[str] = "test-api-fixes-gate"

    def run(self, module: ir.Operation) -> None:
        if "gate.stop" in module.attributes:
            raise self.error(module.location, "stopped")


def test_a_pass_the_failing_run_never_reached_reports_nothing(monkeypatch):
    monkeypatch.setitem(PASSES, Gate.ARGUMENT, Gate)
    ctx = mesh_dialect.context()
    pm = mesh_dialect.pass_manager(
        f"builtin.module({Gate.ARGUMENT}, sharding-propagation{{explain=true}})", context=ctx
    )
    pm.run(mesh_dialect.parse(POOL, filename="first.mlir", context=ctx))
    assert [d.filename for d in pm.diagnostics] == ["first.mlir"]
    stopped = mesh_dialect.parse(POOL, filename="second.mlir", context=ctx)
    with ctx:
        stopped.attributes["gate.stop"] = ir.UnitAttr.get()
    with pytest.raises(ir.MLIRError):
        pm.run(stopped)
    assert pm.diagnostics == []


def test_a_pass_in_a_plain_pass_manager_keeps_its_last_run():
    ctx = mesh_dialect.context()
    propagation = PASSES["sharding-propagation"](explain=True)
    pm = PassManager("builtin.module", context=ctx)
    propagation.add_to(pm)
    for name in ("a.mlir", "b.mlir"):
        pm.run(mesh_dialect.parse(POOL, filename=name, context=ctx))
    assert [d.filename for d in propagation.diagnostics] == ["b.mlir"]
