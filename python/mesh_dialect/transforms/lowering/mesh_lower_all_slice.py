"""`mesh-lower-all-slice`: `mesh.all_slice` as a local `tensor.extract_slice`.

An all_slice moves no data: every device keeps the piece of the tensor it
already holds at its position in its group. That position is the device's
coordinates along the op's mesh axes (`mesh.process_multi_index`), read as
one number with the first listed axis outermost, as the dialect orders
device groups; the piece starts at position * (its size along the slice
axis). Static sizes fold into constants; dynamic ones (a `?` mesh axis, a
`?` tensor dimension) are computed at run time. Lowering the result's
`mesh.process_multi_index` further is `mesh-lower-process-multi-index`'s
job, so the two passes chain: `mesh-lower-all-slice,
mesh-lower-process-multi-index` leaves only `mesh.process_linear_index`
(and `mesh.mesh_shape` for dynamic axes).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from mlir import ir
from mlir.dialects import tensor

from ...ir import ops as mesh_ops
from ..base import Pass
from ..cleanup.mesh_canonicalize import Meshes
from .mesh_lower_process_multi_index import Index, IndexMath, collect, mesh_of


@dataclasses.dataclass
class MeshLowerAllSlice(Pass):
    ARGUMENT: ClassVar[str] = "mesh-lower-all-slice"
    SUMMARY: ClassVar[str] = "Replace mesh.all_slice by tensor.extract_slice at the device's in-group position"
    DESCRIPTION: ClassVar[str] = (
        "Each mesh.all_slice becomes a tensor.extract_slice of its input along slice_axis, at offset "
        "(in-group index) * (local size), the in-group index combining mesh.process_multi_index over "
        "mesh_axes in the order listed. A one-device group becomes its input."
    )

    def run(self, module: ir.Operation) -> None:
        meshes, found = collect(module, "mesh.all_slice")
        for op in found:
            self.lower(op, meshes)

    def lower(self, op: ir.Operation, meshes: Meshes) -> None:
        name, shape = mesh_of(self, op, meshes)
        source, result = op.operands[0], op.results[0]
        source_type = ir.RankedTensorType(source.type)
        result_type = ir.RankedTensorType(result.type)
        axis = ir.IntegerAttr(op.attributes["slice_axis"]).value
        # A size-1 axis adds nothing to the in-group index (its coordinate
        # is 0) nor to the group's size.
        axes = [int(a) for a in op.attributes["mesh_axes"] if shape[a] != 1]
        with ir.InsertionPoint(op), op.location:
            if not axes:
                replacement = source
                if source_type != result_type:
                    replacement = tensor.CastOp(result_type, source).result
            else:
                replacement = self.slice(name, shape, axes, axis, source, source_type, result_type)
        result.replace_all_uses_with(replacement)
        op.erase()

    @staticmethod
    def slice(
        name: str,
        shape: list[int | None],
        axes: list[int],
        axis: int,
        source: ir.Value,
        source_type: ir.RankedTensorType,
        result_type: ir.RankedTensorType,
    ) -> ir.Value:
        math = IndexMath(name, shape)
        math.load_sizes(axes)
        empty = any(not result_type.is_dynamic_dim(d) and result_type.shape[d] == 0 for d in range(result_type.rank))

        position: Index = 0
        if not empty:  # an empty result reads nothing: no index either
            coordinates = mesh_ops.process_multi_index(name, axes=axes)
            position = coordinates[0]
            for a, c in zip(axes[1:], coordinates[1:]):
                position = math.add(math.mul(position, math.size(a)), c)

        def extent(d: int) -> Index:
            if not source_type.is_dynamic_dim(d):
                return source_type.shape[d]
            return tensor.DimOp(source, math.value(d)).result

        dynamic = ir.ShapedType.get_dynamic_size()
        offsets: list[ir.Value] = []
        sizes: list[ir.Value] = []
        static_offsets: list[int] = []
        static_sizes: list[int] = []
        for d in range(result_type.rank):
            if result_type.is_dynamic_dim(d):
                size: Index = extent(d)
                if d == axis:
                    size = math.div(size, math.product(math.size(a) for a in axes))
            else:
                size = result_type.shape[d]
            offset: Index = math.mul(position, size) if d == axis and not empty else 0
            # extract_slice's result type follows its static sizes: a size
            # known here but `?` in the result type stays an operand.
            if isinstance(size, int) and result_type.is_dynamic_dim(d):
                size = math.value(size)
            for x, values, statics in ((offset, offsets, static_offsets), (size, sizes, static_sizes)):
                if isinstance(x, int):
                    statics.append(x)
                else:
                    statics.append(dynamic)
                    values.append(x)
        rank = result_type.rank
        if empty:
            # no elements: extract_slice's verifier refuses any static offset
            # on a dimension of size 0, and there is nothing to read
            given = iter(sizes)
            extents = [next(given) if n == dynamic else n for n in static_sizes]
            return tensor.EmptyOp(extents, result_type.element_type).result
        return tensor.ExtractSliceOp(
            result_type, source, offsets, sizes, [], static_offsets, static_sizes, [1] * rank
        ).result


__all__ = ["MeshLowerAllSlice"]
