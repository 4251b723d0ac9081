"""`mesh-lower-process-multi-index`: a device's coordinates as arithmetic on
its linear index.

Targets that know only a process rank (MPI's `comm_rank`, a runtime's
device id) have `mesh.process_linear_index` but no multi-index. The linear
index is row-major over the mesh, so the coordinate along axis a is
`(linear / stride(a)) % size(a)` with `stride(a)` the product of the sizes
of the axes after a. Static sizes become constants (and fold: no division
by a stride of 1, no remainder on axis 0, which the division already
bounds, and a size-1 axis is the constant 0); dynamic ones are read from
one `mesh.mesh_shape` per lowered op.

The arithmetic helpers here are shared with `mesh-lower-all-slice`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import ClassVar

from mlir import ir
from mlir.dialects import arith

from ...ir import ops as mesh_ops
from ...ir.schema import DYNAMIC
from ..base import Pass
from ..cleanup.mesh_canonicalize import Meshes, mesh_shape_of

Index = int | ir.Value
"""An index that may be known now (an int) or only at run time (a Value)."""


def collect(module: ir.Operation, name: str) -> tuple[Meshes, list[ir.Operation]]:
    """One walk: every mesh's shape (None for `?`) by (enclosing op, name),
    as `mesh_shape_of` reads them, and the ops called `name` in order."""
    meshes: Meshes = {}
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.mesh":
            key = (op.parent, op.attributes["sym_name"].value)
            meshes.setdefault(key, [None if d == DYNAMIC else int(d) for d in op.attributes["shape"]])
        elif op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return meshes, found


class IndexMath:
    """Index arithmetic in front of one op, folded where operands are
    known: only what must be computed at run time becomes `arith` ops.
    Unsigned division and remainder: every operand is a non-negative
    index. Build inside the op's insertion point and location."""

    def __init__(self, mesh: str, shape: Sequence[int | None]) -> None:
        self.mesh = mesh
        self.shape = list(shape)
        self.index = ir.IndexType.get()
        self._constants: dict[int, ir.Value] = {}
        self._sizes: dict[int, Index] = {}
        self._linear: ir.Value | None = None

    def value(self, x: Index) -> ir.Value:
        if isinstance(x, ir.Value):
            return x
        found = self._constants.get(x)
        if found is None:
            found = self._constants[x] = arith.ConstantOp(self.index, x).result
        return found

    def mul(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if a == 1 or b == 0:
            return b
        if b == 1 or a == 0:
            return a
        return arith.MulIOp(self.value(a), self.value(b)).result

    def add(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if a == 0:
            return b
        if b == 0:
            return a
        return arith.AddIOp(self.value(a), self.value(b)).result

    def div(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a // b
        if b == 1 or a == 0:
            return a
        return arith.DivUIOp(self.value(a), self.value(b)).result

    def rem(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a % b
        if b == 1 or a == 0:
            return 0
        return arith.RemUIOp(self.value(a), self.value(b)).result

    def product(self, values: Iterable[Index]) -> Index:
        out: Index = 1
        for v in values:
            out = self.mul(out, v)
        return out

    def load_sizes(self, axes: Iterable[int]) -> None:
        """Make `size` answer for `axes`: the dynamic ones among them come
        from one `mesh.mesh_shape` (a `?` size exists only at run time)."""
        wanted = sorted(set(axes) - set(self._sizes))
        dynamic = [a for a in wanted if self.shape[a] is None]
        for a in wanted:
            if self.shape[a] is not None:
                self._sizes[a] = self.shape[a]
        if dynamic:
            for a, v in zip(dynamic, mesh_ops.mesh_shape(self.mesh, axes=dynamic)):
                self._sizes[a] = v

    def size(self, axis: int) -> Index:
        if axis not in self._sizes:
            self.load_sizes([axis])
        return self._sizes[axis]

    def linear(self) -> ir.Value:
        if self._linear is None:
            self._linear = mesh_ops.process_linear_index(self.mesh)
        return self._linear

    def coordinates(self, axes: Sequence[int]) -> list[Index]:
        """This device's coordinate along each of `axes`, from its linear
        index (row-major over the whole mesh)."""
        rank = len(self.shape)
        needed = [a for a in axes if self.shape[a] != 1]
        if not needed:
            return [0] * len(axes)
        low = min(needed)
        # Sizes the strides need (the axes after the first one asked) and
        # the moduli (every axis asked but axis 0): one mesh_shape for all.
        self.load_sizes(b for b in range(low, rank) if b > low or (b in needed and b > 0))
        strides: dict[int, Index] = {}
        stride: Index = 1
        for b in range(rank - 1, low - 1, -1):
            strides[b] = stride
            if b > low:
                stride = self.mul(stride, self.size(b))
        out: list[Index] = []
        for a in axes:
            if self.shape[a] == 1:
                out.append(0)
                continue
            quotient = self.div(self.linear(), strides[a])
            # The linear index is below the mesh's size: on axis 0 the
            # quotient is already the coordinate.
            out.append(quotient if a == 0 else self.rem(quotient, self.size(a)))
        return out


def mesh_of(pass_: Pass, op: ir.Operation, meshes: Meshes) -> tuple[str, list[int | None]]:
    """The name and shape of the mesh `op` names; an error if it has none
    (the verifier reports that first, so this is a safety net)."""
    name = op.attributes["mesh"].value
    shape = mesh_shape_of(op, meshes)
    if shape is None:
        raise pass_.error(op.location, f"'{op.name}' op names no mesh in scope, got @{name}")
    return name, shape


@dataclasses.dataclass
class MeshLowerProcessMultiIndex(Pass):
    ARGUMENT: ClassVar[str] = "mesh-lower-process-multi-index"
    SUMMARY: ClassVar[str] = "Compute mesh.process_multi_index from mesh.process_linear_index and the mesh shape"
    DESCRIPTION: ClassVar[str] = (
        "Each mesh.process_multi_index becomes unsigned division and remainder of mesh.process_linear_index "
        "(row-major over the mesh) by the sizes of the mesh axes: constants for static sizes, "
        "mesh.mesh_shape for dynamic ones. Axes of size 1 give the constant 0."
    )

    def run(self, module: ir.Operation) -> None:
        meshes, found = collect(module, "mesh.process_multi_index")
        for op in found:
            self.lower(op, meshes)

    def lower(self, op: ir.Operation, meshes: Meshes) -> None:
        name, shape = mesh_of(self, op, meshes)
        axes = list(op.attributes["axes"]) or list(range(len(shape)))
        if any(a < 0 or a >= len(shape) for a in axes) or len(axes) != len(op.results):
            # The verifier reports this before any pass runs; a safety net.
            raise self.error(op.location, f"'{op.name}' op axes do not fit mesh @{name}, got {axes}")
        with ir.InsertionPoint(op), op.location:
            math = IndexMath(name, shape)
            coordinates = [math.value(c) for c in math.coordinates(axes)]
        for result, value in zip(op.results, coordinates):
            result.replace_all_uses_with(value)
        op.erase()


__all__ = ["IndexMath", "MeshLowerProcessMultiIndex", "collect", "mesh_of"]
