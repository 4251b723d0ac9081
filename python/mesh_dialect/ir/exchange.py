"""A permutation of pieces among the devices of each group, written with
point-to-point `mesh.send`/`mesh.recv`: partition's Permute step, and the
optimizer's mirror exchange for a reversed dimension."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir
from mlir.dialects import arith, scf, tensor

from . import ops as mesh_ops


def permuted(
    value: ir.Value,
    mesh: str,
    sizes: Sequence[int],
    axes: Sequence[int],
    perm: Sequence[int],
    buffer: ir.Value | None = None,
) -> ir.Value:
    """Device i of each group (over `axes` of sizes `sizes`, i its linear
    index there) sends `value` to perm[i] and receives from perm^-1[i],
    built at the current insertion point and location.  Send and receive
    meet, so along each cycle of the permutation devices at even positions
    send first and those at odd positions receive first; devices that keep
    their piece do nothing.  `buffer` receives a piece of another size than
    the device's own."""
    perm = list(perm)
    n = len(perm)
    inverse = [0] * n
    for i, p in enumerate(perm):
        inverse[p] = i
    position = [0] * n
    seen = [False] * n
    for start in range(n):
        if seen[start]:
            continue
        k, i = 0, start
        while not seen[i]:
            seen[i] = True
            position[i] = k
            k += 1
            i = perm[i]
    idx_type = ir.IndexType.get()
    loc = ir.Location.current
    t = value.type
    index = mesh_ops.ProcessMultiIndexOp(mesh, axes=list(axes)).operation.results
    linear = None
    for i, size in enumerate(sizes):
        term = index[i]
        if linear is None:
            linear = term
        else:
            c = arith.ConstantOp(idx_type, size).result
            linear = arith.AddIOp(arith.MulIOp(linear, c).result, term).result

    def table(values: list[int]) -> ir.Value:
        attr = ir.DenseElementsAttr.get(
            np.array(values, dtype=np.int64), type=ir.RankedTensorType.get([n], idx_type, loc=loc)
        )
        return tensor.ExtractOp(arith.ConstantOp(attr.type, attr).result, [linear]).result

    def multi(lin: ir.Value) -> list[ir.Value]:
        out = []
        rest = lin
        for size in reversed(sizes):
            c = arith.ConstantOp(idx_type, size).result
            out.append(arith.RemUIOp(rest, c).result)
            rest = arith.DivUIOp(rest, c).result
        return list(reversed(out))

    target = table(perm)
    dest = multi(target)
    source = multi(table(inverse))
    moves = arith.CmpIOp(arith.CmpIPredicate.ne, target, linear).result
    even = arith.CmpIOp(
        arith.CmpIPredicate.eq,
        arith.RemUIOp(table(position), arith.ConstantOp(idx_type, 2).result).result,
        arith.ConstantOp(idx_type, 0).result,
    ).result
    outer = scf.IfOp(moves, [t], has_else=True)
    with ir.InsertionPoint(outer.then_block):
        inner = scf.IfOp(even, [t], has_else=True)
        into = value if buffer is None else buffer
        with ir.InsertionPoint(inner.then_block):
            mesh_ops.SendOp(t, value, mesh, mesh_axes=list(axes), destination=dest)
            got = mesh_ops.RecvOp(t, into, mesh, mesh_axes=list(axes), source=source).result
            scf.YieldOp([got])
        with ir.InsertionPoint(inner.else_block):
            got = mesh_ops.RecvOp(t, into, mesh, mesh_axes=list(axes), source=source).result
            mesh_ops.SendOp(t, value, mesh, mesh_axes=list(axes), destination=dest)
            scf.YieldOp([got])
        scf.YieldOp([inner.results[0]])
    with ir.InsertionPoint(outer.else_block):
        scf.YieldOp([value])
    return outer.results[0]


__all__ = ["permuted"]
