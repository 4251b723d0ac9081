"""What upstream's MPI lowering (LLVM 22) does with the collectives
`export_upstream(..., mpi=True)` (`mesh-opt --emit=upstream-mpi`) refuses.

Each refusal stands for an upstream defect: a buffer sized by the wrong
dimension, MPI_MAX/MPI_MIN for float max/min, no lowering for a halo
exchange over two mesh axes or on a dynamic mesh, no MPI datatype for an
element type, a cast that takes signless integers only. The tests here pin
each defect next to its refusal, so that when upstream fixes one, its test
fails and the refusal can go (test/Transforms/emit-upstream-mpi-*.mlir
check the messages and their positions)."""

from __future__ import annotations

import re
import signal
import subprocess

import numpy as np
import pytest
import test_lowering
from test_lowering import (
    _LOWER_TO_LLVM,
    MLIR_OPT,
    _device_args,
    _per_device,
    _run_upstream_mpi,
    needs_mlir_opt,
    needs_mpi_runner,
)

import mesh_dialect
from mesh_dialect.interop.upstream import NotExportable, export_upstream

_TO_LLVM = _LOWER_TO_LLVM[1:]  # after --convert-shard-to-mpi
_MPICH = 'module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {'


def _all_reduce(source: str, result: str, extra: str = "", mesh: str = "2") -> str:
    return (
        f"mesh.mesh @mesh(shape = {mesh})\nfunc.func @f(%x: {source}) -> {result} {{\n"
        f"  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] {extra}: {source} -> {result}\n"
        f"  return %0 : {result}\n}}\n"
    )


def _update_halo(mesh: str, split: str, t: str) -> str:
    halos = "[1, 1]"
    return (
        f"mesh.mesh @mesh(shape = {mesh})\nfunc.func @f(%x: {t}) -> {t} {{\n"
        f"  %0 = mesh.update_halo %x into %x on @mesh split_axes = {split} source_halo_sizes = {halos}"
        f" destination_halo_sizes = {halos} : {t} -> {t}\n  return %0 : {t}\n}}\n"
    )


def _upstream(text: str, *, to_llvm: bool) -> subprocess.CompletedProcess:
    """mlir-opt --convert-shard-to-mpi (and on to LLVM) on the unchecked export."""
    program = export_upstream(text).replace("module {", _MPICH, 1)
    passes = ["--convert-shard-to-mpi", *(_TO_LLVM if to_llvm else [])]
    return subprocess.run([str(MLIR_OPT), *passes], input=program, capture_output=True, text=True, timeout=120)


def _sized_by_kdynamic(p: subprocess.CompletedProcess) -> bool:
    return p.returncode == 0 and re.search(r"memref\.dim %\S+, %c-9223372036854775808\b", p.stdout) is not None


def _not_legalized(p: subprocess.CompletedProcess) -> bool:
    # reported, yet mlir-opt exits 0 with the op left in
    return p.returncode == 0 and "failed to legalize operation 'shard.update_halo'" in p.stderr


def _aborts(p: subprocess.CompletedProcess) -> bool:
    return p.returncode == -signal.SIGABRT and "Assertion" in p.stderr


def _not_signless(p: subprocess.CompletedProcess) -> bool:
    return p.returncode != 0 and "must be signless" in p.stderr


def _cast_fails(p: subprocess.CompletedProcess) -> bool:
    return p.returncode != 0 and "doesn't match the element type" in p.stderr


_T = "tensor<2x3xf32>"
_PINNED = [
    # (id, program, lowered to LLVM?, what upstream does, what the refusal says)
    ("dynamic-operand", _all_reduce("tensor<2x?xf32>", "tensor<2x?xf32>"), False, _sized_by_kdynamic,
     "wrongly when its shape is dynamic: tensor<2x?xf32>"),
    ("dynamic-integers", _all_reduce("tensor<?xi32>", "tensor<?xi32>", mesh="2x2"), False, _sized_by_kdynamic,
     "wrongly when its shape is dynamic: tensor<?xi32>"),
    ("halo-two-axes", _update_halo("2x2", "[[0, 1]]", "tensor<12xf32>"), False, _not_legalized,
     "dimension 0 over mesh axes [0, 1]"),
    ("halo-dynamic-mesh", _update_halo("2x?", "[[0]]", "tensor<9xf32>"), False, _not_legalized,
     "update_halo on a mesh with a dynamic size"),
    ("f16", _all_reduce("tensor<4xf16>", "tensor<4xf16>"), True, _aborts, "other than f32, f64"),
    ("bf16", _all_reduce("tensor<4xbf16>", "tensor<4xbf16>"), True, _aborts, "integers: bf16"),
    ("complex", _all_reduce("tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>"), True, _aborts,
     "integers: complex<f32>"),
    ("i1", _all_reduce("tensor<4xi1>", "tensor<4xi1>"), True, _aborts, "integers: i1"),
    ("index", _all_reduce("tensor<4xindex>", "tensor<4xindex>"), True, _aborts, "integers: index"),
    ("to-f16", _all_reduce("tensor<4xf32>", "tensor<4xf16>"), True, _aborts, "integers: f16"),
    ("halo-f16", _update_halo("4", "[[0]]", "tensor<9xf16>"), True, _aborts, "update_halo of elements"),
    ("ui8-to-i32", _all_reduce("tensor<4xui8>", "tensor<4xi32>"), True, _not_signless, "ui8 to i32"),
    ("si8-to-si32", _all_reduce("tensor<4xsi8>", "tensor<4xsi32>"), True, _not_signless, "si8 to si32"),
    ("i8-to-ui32", _all_reduce("tensor<4xi8>", "tensor<4xui32>"), True, _not_signless, "i8 to ui32"),
    ("i1-to-i32", _all_reduce("tensor<4xi1>", "tensor<4xi32>"), True, _aborts, "i1 to i32"),
    ("index-to-f32", _all_reduce("tensor<4xindex>", "tensor<4xf32>"), True, _cast_fails, "index to f32"),
]  # fmt: skip


@needs_mlir_opt
@pytest.mark.parametrize(("program", "to_llvm", "upstream_does", "message"),
                         [case[1:] for case in _PINNED], ids=[case[0] for case in _PINNED])  # fmt: skip
def test_refused_where_upstream_fails(program, to_llvm, upstream_does, message):
    """The export for MPI refuses at the op what upstream miscompiles,
    leaves unlowered or aborts on; upstream still does (LLVM 22)."""
    with pytest.raises(NotExportable, match=re.escape(message)) as info:
        export_upstream(program, mpi=True)
    assert info.value.location is not None
    proc = _upstream(program, to_llvm=to_llvm)
    assert upstream_does(proc), (proc.returncode, proc.stderr[-2000:])


# ---------------------------------------------------------------------------
# On MPICH: what the refused programs would compute

DYNAMIC_ALL_REDUCE = """
mesh.mesh @mesh(shape = 2)
func.func @f(%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %d = tensor.cast %y : tensor<2x3xf32> to tensor<2x?xf32>
  %0 = mesh.all_reduce %d on @mesh mesh_axes = [0] : tensor<2x?xf32> -> tensor<2x?xf32>
  %1 = tensor.cast %0 : tensor<2x?xf32> to tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
"""

# y / y is NaN where y is 0; y * 0 is -0.0 where y < 0, and 1 / that tells
# -0.0 (-inf) from +0.0 (+inf).
FLOAT_MAX_MIN = """
mesh.mesh @mesh(shape = 2x3)
func.func @f(%y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %zero = arith.constant dense<0.0> : tensor<2x3xf32>
  %one = arith.constant dense<1.0> : tensor<2x3xf32>
  %n = arith.divf %y, %y : tensor<2x3xf32>
  %0 = mesh.all_reduce %n on @mesh mesh_axes = [0, 1] reduction = <max> : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = mesh.all_reduce %n on @mesh mesh_axes = [1] reduction = <min> : tensor<2x3xf32> -> tensor<2x3xf32>
  %s = arith.mulf %y, %zero : tensor<2x3xf32>
  %m = mesh.all_reduce %s on @mesh mesh_axes = [0, 1] reduction = <max> : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = arith.divf %one, %m : tensor<2x3xf32>
  %k = mesh.all_reduce %s on @mesh mesh_axes = [0, 1] reduction = <min> : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = arith.divf %one, %k : tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
"""


def _same_on_mpi(program: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rank of upstream's MPI program (export unchecked) prints what
    the simulator computes for its device, NaN for NaN."""
    monkeypatch.setattr(
        test_lowering, "_LOWER_TO_LLVM", ["--convert-elementwise-to-linalg", *test_lowering._LOWER_TO_LLVM]
    )
    module = mesh_dialect.parse(program, context=mesh_dialect.context())
    with pytest.raises(NotExportable):
        export_upstream(module, mpi=True)
    args = _device_args(module, "f", "mesh", 3)
    expected = _per_device(module, "f", "mesh", args)
    got = _run_upstream_mpi(module, "f", "mesh", args, mpi_check=False)
    for d in expected:
        for i, (e, g) in enumerate(zip(expected[d], got[d])):
            assert np.array_equal(np.asarray(e), np.asarray(g), equal_nan=True), f"device {d}, result {i}"


@needs_mpi_runner
@pytest.mark.xfail(strict=True, raises=(AssertionError, ValueError), reason="upstream sizes the buffer by dim kDynamic")
def test_dynamic_all_reduce_on_mpi(monkeypatch):
    """Pinned upstream bug (LLVM 22): the reduced buffer has the wrong
    shape (each rank prints a 2x2 memref for a 2x3 tensor)."""
    _same_on_mpi(DYNAMIC_ALL_REDUCE, monkeypatch)


@needs_mpi_runner
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning", "ignore:divide by zero:RuntimeWarning")
@pytest.mark.xfail(strict=True, raises=AssertionError, reason="MPI_MAX/MPI_MIN drop NaNs and order zeros by arrival")
def test_float_max_min_on_mpi(monkeypatch):
    """Pinned: MPI's float max and min are not the dialect's (which are
    arith.maximumf/minimumf's: NaN wins, -0.0 < +0.0)."""
    _same_on_mpi(FLOAT_MAX_MIN, monkeypatch)
