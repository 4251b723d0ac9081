"""The collectives: every drawing of the reference page, the worked examples
of the resharding notes carried out with these functions, argument checks,
send/recv pairing, halo updates, and algebraic properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sim.collectives import (
    CollectiveError,
    CollectiveMismatch,
    all_gather,
    all_reduce,
    all_slice,
    all_to_all,
    broadcast,
    exchange,
    gather,
    reduce,
    reduce_scatter,
    scatter,
    shift,
    update_halo,
)
from mesh_dialect.sim.layout import assemble, is_poison, poison, shard

M22 = Mesh((2, 2))
I8 = np.int8


def arrays(values: dict, dtype=I8) -> dict:
    return {d: np.array(v, dtype=dtype) for d, v in values.items()}


def as_lists(out: dict) -> dict:
    return {d: a.tolist() for d, a in sorted(out.items())}


# The 2x2 input of the all_gather, gather and reduce_scatter drawings.
BLOCKS = arrays(
    {
        (0, 0): [[1, 2], [3, 4]],
        (0, 1): [[5, 6], [7, 8]],
        (1, 0): [[9, 10], [11, 12]],
        (1, 1): [[13, 14], [15, 16]],
    }
)
ROW0 = [[1, 2, 5, 6], [3, 4, 7, 8]]
ROW1 = [[9, 10, 13, 14], [11, 12, 15, 16]]

# -- the reference page's drawings ----------------------------------------------


def test_all_gather_drawing():
    out = all_gather(BLOCKS, M22, [1], gather_axis=1)
    assert as_lists(out) == {(0, 0): ROW0, (0, 1): ROW0, (1, 0): ROW1, (1, 1): ROW1}
    assert all(a.dtype == I8 for a in out.values())


def test_all_slice_drawing():
    inputs = arrays({(0, 0): ROW0, (0, 1): ROW0, (1, 0): ROW1, (1, 1): ROW1})
    out = all_slice(inputs, M22, [1], slice_axis=1)
    assert as_lists(out) == as_lists(BLOCKS)


def test_all_to_all_drawing():
    mesh = Mesh((3,))
    inputs = arrays({(i,): [[10 * (i + 1) + 2 * r + 1, 10 * (i + 1) + 2 * r + 2] for r in range(3)] for i in range(3)})
    assert inputs[(1,)].tolist() == [[21, 22], [23, 24], [25, 26]]
    out = all_to_all(inputs, mesh, [0], split_axis=0, concat_axis=0)
    assert as_lists(out) == {
        (0,): [[11, 12], [21, 22], [31, 32]],
        (1,): [[13, 14], [23, 24], [33, 34]],
        (2,): [[15, 16], [25, 26], [35, 36]],
    }


def test_broadcast_drawing():
    # Devices (1, 0) and (1, 1) hold nothing meaningful before the broadcast.
    inputs = {(0, 0): np.array([1, 2], I8), (0, 1): np.array([3, 4], I8), (1, 0): poison((2,), I8)}
    inputs[(1, 1)] = poison((2,), I8)
    out = broadcast(inputs, M22, [0], root=[0])
    assert as_lists(out) == {(0, 0): [1, 2], (0, 1): [3, 4], (1, 0): [1, 2], (1, 1): [3, 4]}


def test_gather_drawing():
    out = gather(BLOCKS, M22, [1], gather_axis=1, root=[1])
    assert out[(0, 1)].tolist() == ROW0 and out[(1, 1)].tolist() == ROW1
    for d in [(0, 0), (1, 0)]:  # undefined off the root
        assert out[d].shape == (2, 4) and out[d].dtype == I8 and is_poison(out[d]).all()


def test_reduce_scatter_drawing():
    # The drawing's numbers are sums of the two 2x2 blocks of each mesh row (its
    # op text says max and 3x4 -> 1x4, which fits neither the drawing nor the mesh).
    out = reduce_scatter(BLOCKS, M22, [1], "sum", scatter_axis=0)
    assert as_lists(out) == {(0, 0): [[6, 8]], (0, 1): [[10, 12]], (1, 0): [[22, 24]], (1, 1): [[26, 28]]}
    out = reduce_scatter(BLOCKS, M22, [1], "max", scatter_axis=0, result_dtype=np.float64)
    assert as_lists(out) == {(0, 0): [[5, 6]], (0, 1): [[7, 8]], (1, 0): [[13, 14]], (1, 1): [[15, 16]]}
    assert out[(0, 0)].dtype == np.float64


def test_scatter_drawing():
    inputs = {
        (0, 0): poison((2, 2), I8),
        (0, 1): poison((2, 2), I8),
        (1, 0): np.array([[1, 2], [3, 4]], I8),
        (1, 1): np.array([[5, 6], [7, 8]], I8),
    }
    out = scatter(inputs, M22, [0], scatter_axis=0, root=[1])
    assert as_lists(out) == {(0, 0): [[1, 2]], (0, 1): [[5, 6]], (1, 0): [[3, 4]], (1, 1): [[7, 8]]}


def test_shift_drawing():
    mesh = Mesh((2, 4))
    inputs = {(r, c): np.array([4 * r + c + 1], I8) for r, c in mesh.devices()}
    out = shift(inputs, mesh, [1], shift_axis=1, offset=2, rotate=True)
    assert [[int(out[(r, c)][0]) for c in range(4)] for r in range(2)] == [[3, 4, 1, 2], [7, 8, 5, 6]]


def test_shift_direction_follows_numpy_roll():
    # The drawing (offset 2 on 4 devices) reads the same either way; offset 1 does not.
    mesh = Mesh((2, 4))
    inputs = {(r, c): np.array([4 * r + c + 1], I8) for r, c in mesh.devices()}
    row = lambda out, r: [int(out[(r, c)][0]) for c in range(4)]  # noqa: E731
    rolled = shift(inputs, mesh, [0, 1], shift_axis=1, offset=1, rotate=True)
    assert row(rolled, 0) == np.roll([1, 2, 3, 4], 1).tolist() == [4, 1, 2, 3]
    back = shift(inputs, mesh, [1], shift_axis=1, offset=-1, rotate=True)
    assert row(back, 1) == [6, 7, 8, 5]
    cut = shift(inputs, mesh, [1], shift_axis=1, offset=1)
    assert row(cut, 0)[1:] == [1, 2, 3] and is_poison(cut[(0, 0)]).all()
    far = shift(inputs, mesh, [1], shift_axis=1, offset=-6, rotate=True)  # modulo the axis size
    assert row(far, 0) == [3, 4, 1, 2]
    down = shift(inputs, mesh, [0, 1], shift_axis=0, offset=1)
    assert row(down, 1) == [1, 2, 3, 4] and all(is_poison(down[(0, c)]).all() for c in range(4))


def test_all_reduce_example_converts_to_the_result_type():
    # mesh_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>
    mesh = Mesh((2, 3))
    inputs = {d: np.full((3, 4), 0.1 * (mesh.linear_index(d) + 1), np.float32) for d in mesh.devices()}
    out = all_reduce(inputs, mesh, [1, 0], "max", np.float64)
    assert all(a.dtype == np.float64 and (a == np.float64(np.float32(0.6))).all() for a in out.values())
    assert all_reduce(inputs, mesh, [1], "sum")[(0, 2)].dtype == np.float32


def test_reduce_example_with_a_root():
    # mesh_axes = [1, 0] reduction = <max> root = [2, 3] on a 4x3 mesh: the root is (3, 2).
    mesh = Mesh((4, 3))
    inputs = {d: np.full((3, 4), mesh.linear_index(d), np.float32) for d in mesh.devices()}
    out = reduce(inputs, mesh, [1, 0], "max", root=[2, 3], result_dtype=np.float64)
    assert (out[(3, 2)] == 11).all() and out[(3, 2)].dtype == np.float64
    assert all(is_poison(a).all() and a.dtype == np.float64 for d, a in out.items() if d != (3, 2))


def test_reduce_per_group_roots():
    mesh = Mesh((2, 3))
    inputs = {(i, j): np.array([10 * i + j], np.int64) for i, j in mesh.devices()}
    out = reduce(inputs, mesh, [1], "sum", root=[2])
    assert out[(0, 2)].tolist() == [3] and out[(1, 2)].tolist() == [33]
    assert is_poison(out[(0, 0)]).all() and is_poison(out[(1, 1)]).all()


def test_dynamic_roots_may_differ_between_groups():
    mesh = Mesh((2, 3))
    inputs = {(i, j): np.array([10 * i + j]) for i, j in mesh.devices()}
    per_device = {(i, j): [i + 1] for i, j in mesh.devices()}  # group i picks root i + 1
    out = broadcast(inputs, mesh, [1], per_device)
    assert [out[(0, j)].tolist() for j in range(3)] == [[1]] * 3
    assert [out[(1, j)].tolist() for j in range(3)] == [[12]] * 3
    same = broadcast(inputs, mesh, [1], lambda d: (d[0] + 1,))
    assert as_lists(same) == as_lists(out)
    out = gather(inputs, mesh, [1], 0, lambda d: [2 - d[0]])
    assert out[(0, 2)].tolist() == [0, 1, 2] and out[(1, 1)].tolist() == [10, 11, 12]
    out = scatter({d: np.arange(3) + 10 * d[0] for d in mesh.devices()}, mesh, [1], 0, per_device)
    assert as_lists(out)[(1, 2)] == [12]


def test_collectives_over_no_axes_leave_every_device_alone():
    out = all_gather(BLOCKS, M22, [], gather_axis=0)
    assert as_lists(out) == as_lists(BLOCKS)
    assert as_lists(all_reduce(BLOCKS, M22, [], "sum")) == as_lists(BLOCKS)
    assert as_lists(broadcast(BLOCKS, M22, [], root=[])) == as_lists(BLOCKS)


def test_results_never_alias_inputs():
    out = all_gather(BLOCKS, M22, [1], gather_axis=0)
    out[(0, 0)][0, 0] = 100
    assert out[(0, 1)][0, 0] == 1 and BLOCKS[(0, 0)][0, 0] == 1
    b = broadcast(BLOCKS, M22, [1], root=[0])
    b[(0, 0)][0, 0] = 100
    assert BLOCKS[(0, 0)][0, 0] == 1 and b[(0, 1)][0, 0] == 1


# -- argument checks -------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: all_gather(BLOCKS, M22, [2], 0), "mesh axis 2 is out of range for a mesh of rank 2"),
        (lambda: all_gather(BLOCKS, M22, [0, 0], 0), "mesh axis 0 appears twice in mesh_axes"),
        (lambda: all_gather(BLOCKS, M22, [0], 2), "gather_axis 2 is out of range for a tensor of rank 2"),
        (lambda: all_gather(BLOCKS, M22, [0], -1), "gather_axis -1 is out of range for a tensor of rank 2"),
        (
            lambda: all_slice(arrays({d: [1, 2, 3] for d in M22.devices()}), M22, [0], 0),
            "slice_axis 0 has size 3, which does not split evenly over a group of 2 devices",
        ),
        (lambda: all_to_all(BLOCKS, M22, [0, 1], 0, 1), "split_axis 0 has size 2, which does not split evenly"),
        (lambda: all_to_all(BLOCKS, M22, [0], 0, 5), "concat_axis 5 is out of range"),
        (lambda: reduce_scatter(BLOCKS, M22, [0], "sum", 3), "scatter_axis 3 is out of range"),
        (lambda: all_reduce(BLOCKS, M22, [0], "generic"), "reduction kind 'generic' has no defined semantics"),
        (lambda: all_reduce(BLOCKS, M22, [0], "bitwise_or", np.float32), "needs an integer element type, got float32"),
        (lambda: all_reduce(BLOCKS, M22, [0], "median"), "unknown reduction kind 'median'"),
        (lambda: all_reduce({(0, 0): BLOCKS[(0, 0)]}, M22, [0]), r"device \[0, 1\] has none \(3 of 4 missing\)"),
        (
            lambda: all_reduce({**BLOCKS, (0, 1): np.zeros((2, 2))}, M22, [0]),
            r"device \[0, 1\] holds \[2, 2\] float64 but device \[0, 0\] holds \[2, 2\] int8",
        ),
        (lambda: all_reduce({**BLOCKS, (2, 0): BLOCKS[(0, 0)]}, M22, [0]), r"\(2, 0\) is not a device"),
        (lambda: shift(BLOCKS, M22, [0], 1, 1), r"shift_axis 1 must be one of mesh_axes \[0\]"),
        (lambda: broadcast(BLOCKS, M22, [0], root=[0, 0]), r"root \[0, 0\] needs 1 coordinates"),
        (lambda: broadcast(BLOCKS, M22, [0], root=[2]), "root coordinate 2 is out of range for mesh axis 0 of size 2"),
        (
            lambda: broadcast(BLOCKS, M22, [0], root=lambda d: [d[0]]),
            r"devices \[0, 0\] and \[1, 0\] of one group disagree on the root: \[0\] and \[1\]",
        ),
        (lambda: broadcast(BLOCKS, M22, [0], root={(0, 0): [0]}), r"root has no entry for device \[1, 0\]"),
        (lambda: gather(BLOCKS, M22, [0], 0, root="a"), "root must be a sequence of integers"),
    ],
)
def test_argument_errors(call, message):
    with pytest.raises(CollectiveError, match=message):
        call()


# -- send / recv -------------------------------------------------------------------


def test_exchange_pairs_sends_with_receives():
    a, b, c = (0, 0), (0, 1), (1, 0)
    sends = {a: (b, np.array([1])), b: (a, np.array([2])), c: (c, np.array([3]))}
    out = exchange(sends, {a: b, b: None, c: c}, mesh=M22)
    assert as_lists(out) == {a: [2], b: [1], c: [3]}
    out[a][0] = 9
    assert sends[b][1][0] == 2


@pytest.mark.parametrize(
    ("sends", "recvs", "message"),
    [
        ({}, {(0, 0): (0, 1)}, r"device \[0, 0\] receives from device \[0, 1\], which sends nothing"),
        (
            {(0, 1): ((1, 1), [1])},
            {(0, 0): (0, 1), (1, 1): (0, 1)},
            r"device \[0, 0\] receives from device \[0, 1\], which sends to device \[1, 1\]",
        ),
        ({(0, 1): ((1, 1), [1])}, {}, r"device \[0, 1\] sends to device \[1, 1\], which receives nothing"),
        (
            {(0, 0): ((1, 1), [1]), (0, 1): ((1, 1), [2])},
            {(1, 1): (0, 0)},
            r"device \[0, 1\] sends to device \[1, 1\], which receives from device \[0, 0\] instead",
        ),
        ({}, {(1, 1): None}, r"device \[1, 1\] receives from any device but no device sends to it"),
        (
            {(0, 0): ((1, 1), [1]), (0, 1): ((1, 1), [2])},
            {(1, 1): None},
            r"device \[1, 1\] receives from any device but devices \[0, 0\] and \[0, 1\] both send to it",
        ),
    ],
)
def test_exchange_mismatches(sends, recvs, message):
    with pytest.raises(CollectiveMismatch, match=message):
        exchange(sends, recvs)


def test_exchange_checks_devices_against_the_mesh():
    with pytest.raises(CollectiveError, match=r"device \[2, 0\] is not on the mesh"):
        exchange({(0, 0): ((2, 0), [1])}, {(2, 0): (0, 0)}, mesh=M22)


# -- update_halo -------------------------------------------------------------------


def test_update_halo_in_one_dimension():
    mesh = Mesh((3,))
    cores = {(i,): np.array([10 * i, 10 * i + 1], np.float64) for i in range(3)}
    out = update_halo(cores, mesh, [[0]], [0, 0], [1, 2])
    np.testing.assert_array_equal(out[(0,)], [np.nan, 0, 1, 10, 11])
    np.testing.assert_array_equal(out[(1,)], [1, 10, 11, 20, 21])
    np.testing.assert_array_equal(out[(2,)], [11, 20, 21, np.nan, np.nan])


def test_update_halo_reads_cores_not_stale_halos():
    mesh = Mesh((2,))
    s = Sharding([[0]], halo_sizes=[1, 1])
    held = shard(np.arange(6, dtype=np.int32), s, mesh)
    held[(1,)][1] = 30  # device 1 changes its first core element; device 0's halo is now stale
    held[(0,)][-1] = 99  # and device 0's stale halo is never read by anybody
    out = update_halo(held, mesh, [[0]], [1, 1], [1, 1])
    assert out[(0,)].tolist() == [np.iinfo(np.int32).min, 0, 1, 2, 30]
    assert out[(1,)].tolist() == [2, 30, 4, 5, np.iinfo(np.int32).min]


def test_update_halo_fills_corners_from_diagonal_neighbours():
    mesh = Mesh((2, 2))
    x = np.arange(1.0, 17.0).reshape(4, 4)
    out = update_halo(shard(x, Sharding([[0], [1]]), mesh), mesh, [[0], [1]], [], [1, 1, 1, 1])
    np.testing.assert_array_equal(
        out[(1, 1)], [[6, 7, 8, np.nan], [10, 11, 12, np.nan], [14, 15, 16, np.nan], [np.nan] * 4]
    )
    np.testing.assert_array_equal(out[(0, 1)][1:3, 0], [2, 6])


def test_update_halo_rows_of_groups_that_differ_in_another_dimension():
    """Rows split unevenly over axis 0 (3 rows: 1 and 2), columns over axis 1
    with halos: each group along axis 1 holds its own rows, and halos come
    from the neighbours holding the same ones."""
    mesh = Mesh((2, 2))
    x = np.arange(1.0, 13.0).reshape(3, 4)
    out = update_halo(shard(x, Sharding([[0], [1]]), mesh), mesh, [[0], [1]], [], [0, 0, 1, 1])
    np.testing.assert_array_equal(out[(0, 1)], [[2, 3, 4, np.nan]])
    np.testing.assert_array_equal(out[(1, 0)], [[np.nan, 5, 6, 7], [np.nan, 9, 10, 11]])
    # pieces of different sizes along the halo dimension itself are refused
    with pytest.raises(CollectiveError, match="every device must hold the same type"):
        update_halo(shard(x.T, Sharding([[1], [0]]), mesh), mesh, [[1], [0]], [], [0, 0, 1, 1])


def test_update_halo_errors():
    cores = {(i,): np.zeros(2) for i in range(2)}
    with pytest.raises(CollectiveError, match=r"destination_halos needs 2 entries per sharded tensor dimension \(2\)"):
        update_halo(cores, Mesh((2,)), [[0]], [], [1])
    with pytest.raises(CollectiveError, match="mesh axis 1 is out of range"):
        update_halo(cores, Mesh((2,)), [[1]], [], [])
    with pytest.raises(CollectiveError, match="fewer than its halos"):
        update_halo(cores, Mesh((2,)), [[0]], [2, 1], [])


# -- the resharding notes' worked examples ---------------------------------------


def t2(rows: int, cols: int) -> np.ndarray:
    """The notes' tensors: element [i, j] is 10 * (i + 1) + (j + 1)."""
    return np.array([[10 * (i + 1) + j + 1 for j in range(cols)] for i in range(rows)], dtype=np.int64)


def swap_order(held: dict, mesh: Mesh, src: Sharding, dst: Sharding, dim: int) -> dict:
    """Reorder the mesh axes splitting `dim` ([[a, b]] -> [[b, a]]): each
    device sends its piece to the device holding the same piece number under
    `dst`, with send/recv pairs."""
    axes_src, axes_dst = src.axes_of(dim), dst.axes_of(dim)
    sends = {d: (mesh.member(d, axes_dst, src.piece_index(dim, mesh, d)), a) for d, a in held.items()}
    recvs = {e: mesh.member(e, axes_src, dst.piece_index(dim, mesh, e)) for e in held}
    return exchange(sends, recvs, mesh=mesh)


def grid(held: dict, mesh: Mesh) -> list:
    """Each device's array as a list, laid out like the mesh."""
    cells = [held[d].tolist() for d in mesh.devices()]
    for n in reversed(mesh.shape[1:]):
        cells = [cells[i : i + n] for i in range(0, len(cells), n)]
    return cells


def test_notes_swap_the_order_of_split_axes():
    # The "2x3 tensor" sharded [[0, 1]] on a 2x3 mesh puts one element on each
    # device: its 6 elements in a row are what is split.
    mesh = Mesh((2, 3))
    t = t2(2, 3).reshape(6)
    src, dst = Sharding([[0, 1]]), Sharding([[1, 0]])
    held = shard(t, src, mesh)
    assert grid(held, mesh) == [[[11], [12], [13]], [[21], [22], [23]]]
    out = swap_order(held, mesh, src, dst, 0)
    assert grid(out, mesh) == [[[11], [13], [22]], [[12], [21], [23]]]
    assert np.array_equal(assemble(out, dst, mesh), t)


def test_notes_all_gather_along_mesh_axis_0():
    mesh = Mesh((2, 3))
    t = t2(2, 3)
    # As drawn, device (m0, m1) holds t[m0, m1], i.e. [[0], [1]] of the 2x3 tensor.
    held = shard(t, Sharding([[0], [1]]), mesh)
    out = all_gather(held, mesh, [0], gather_axis=0)
    assert grid(out, mesh) == [[[[11], [21]], [[12], [22]], [[13], [23]]]] * 2
    assert np.array_equal(assemble(out, Sharding([[], [1]]), mesh), t)
    # As written, [[0, 1]] -> [[1]] of the 6 elements: the same all_gather gives
    # the drawn pairs, which are not the [[1]] layout (the gathered axis is the
    # outer one); swapping the order first makes it so.
    flat = t.reshape(6)
    written = all_gather(shard(flat, Sharding([[0, 1]]), mesh), mesh, [0], gather_axis=0)
    assert written[(1, 0)].tolist() == [11, 21]
    assert assemble(written, Sharding([[1]]), mesh).tolist() == [11, 21, 12, 22, 13, 23]
    swapped = swap_order(shard(flat, Sharding([[0, 1]]), mesh), mesh, Sharding([[0, 1]]), Sharding([[1, 0]]), 0)
    fixed = all_gather(swapped, mesh, [0], gather_axis=0)
    assert grid(fixed, mesh) == [[[11, 12], [13, 21], [22, 23]]] * 2
    assert np.array_equal(assemble(fixed, Sharding([[1]]), mesh), flat)


def test_notes_all_gather_along_mesh_axis_1():
    # Titled 4x6, drawn (and used here) as 2x6.
    mesh = Mesh((2, 3))
    t = t2(2, 6)
    held = shard(t, Sharding([[], [0, 1]]), mesh)
    assert grid(held, mesh) == [
        [[[11], [21]], [[12], [22]], [[13], [23]]],
        [[[14], [24]], [[15], [25]], [[16], [26]]],
    ]
    out = all_gather(held, mesh, [1], gather_axis=1)
    assert grid(out, mesh) == [[[[11, 12, 13], [21, 22, 23]]] * 3, [[[14, 15, 16], [24, 25, 26]]] * 3]
    assert np.array_equal(assemble(out, Sharding([[], [0]]), mesh), t)


def test_notes_two_step_all_gather_on_a_2x2x2_mesh():
    mesh = Mesh((2, 2, 2))
    t = t2(4, 8)
    src, mid, dst = Sharding([[0], [1, 2]]), Sharding([[0], [2, 1]]), Sharding([[0], [2]])
    held = shard(t, src, mesh)
    assert grid(held, mesh) == [
        [[[[11, 12], [21, 22]], [[13, 14], [23, 24]]], [[[15, 16], [25, 26]], [[17, 18], [27, 28]]]],
        [[[[31, 32], [41, 42]], [[33, 34], [43, 44]]], [[[35, 36], [45, 46]], [[37, 38], [47, 48]]]],
    ]
    # A single all_gather along mesh axis 1 interleaves the pieces.
    direct = all_gather(held, mesh, [1], gather_axis=1)
    assert direct[(0, 0, 0)].tolist() == [[11, 12, 15, 16], [21, 22, 25, 26]]
    out = all_gather(swap_order(held, mesh, src, mid, 1), mesh, [1], gather_axis=1)
    top = [[11, 12, 13, 14], [21, 22, 23, 24]], [[15, 16, 17, 18], [25, 26, 27, 28]]
    bottom = [[31, 32, 33, 34], [41, 42, 43, 44]], [[35, 36, 37, 38], [45, 46, 47, 48]]
    assert grid(out, mesh) == [[list(top)] * 2, [list(bottom)] * 2]
    assert np.array_equal(assemble(out, dst, mesh), t)


def decompose_transpose(held: dict, mesh: Mesh) -> dict:
    """[[0], [1]] -> [[1], [0]] as the notes decompose it: all-gather along
    mesh axis 1, all-to-all along mesh axis 0, slice along mesh axis 1."""
    step1 = all_gather(held, mesh, [1], gather_axis=1)  # [[0], []]
    step2 = all_to_all(step1, mesh, [0], split_axis=1, concat_axis=0)  # [[], [0]]
    return all_slice(step2, mesh, [1], slice_axis=0)  # [[1], [0]]


def test_notes_transpose_the_split_on_a_2x3_mesh():
    mesh = Mesh((2, 3))
    t = t2(6, 6)
    held = shard(t, Sharding([[0], [1]]), mesh)
    assert held[(1, 2)].tolist() == [[45, 46], [55, 56], [65, 66]]
    step1 = all_gather(held, mesh, [1], gather_axis=1)
    assert as_lists(step1) == as_lists(shard(t, Sharding([[0]]), mesh))
    step2 = all_to_all(step1, mesh, [0], split_axis=1, concat_axis=0)
    assert as_lists(step2) == as_lists(shard(t, Sharding([[], [0]]), mesh))
    out = decompose_transpose(held, mesh)
    assert grid(out, mesh) == [
        [[[11, 12, 13], [21, 22, 23]], [[31, 32, 33], [41, 42, 43]], [[51, 52, 53], [61, 62, 63]]],
        [[[14, 15, 16], [24, 25, 26]], [[34, 35, 36], [44, 45, 46]], [[54, 55, 56], [64, 65, 66]]],
    ]
    assert np.array_equal(assemble(out, Sharding([[1], [0]]), mesh), t)


def test_notes_transpose_the_split_on_a_2x6_mesh():
    mesh = Mesh((2, 6))
    t = t2(6, 6)
    held = shard(t, Sharding([[0], [1]]), mesh)
    # The drawing shows 23 where device (0, 4) holds 25 (a typo in the notes).
    assert held[(0, 4)].tolist() == [[15], [25], [35]]
    out = decompose_transpose(held, mesh)
    drawn = [  # row m1 of the drawing, devices m0 = 0 and 1 side by side
        [[11, 12, 13], [14, 15, 16]],
        [[21, 22, 23], [24, 25, 26]],
        [[31, 32, 33], [34, 35, 36]],
        [[41, 42, 43], [44, 45, 46]],
        [[51, 52, 53], [54, 55, 56]],
        [[61, 62, 63], [64, 65, 66]],
    ]
    assert {d: a.tolist() for d, a in out.items()} == {(m0, m1): [drawn[m1][m0]] for m0, m1 in mesh.devices()}
    assert np.array_equal(assemble(out, Sharding([[1], [0]]), mesh), t)


def test_notes_all_to_all_moves_the_split_to_another_dimension():
    mesh = Mesh((3,))
    t = t2(6, 6)
    held = shard(t, Sharding([[0], []]), mesh)
    assert held[(1,)].tolist() == [[31, 32, 33, 34, 35, 36], [41, 42, 43, 44, 45, 46]]
    out = all_to_all(held, mesh, [0], split_axis=1, concat_axis=0)
    assert out[(1,)].tolist() == [[13, 14], [23, 24], [33, 34], [43, 44], [53, 54], [63, 64]]
    assert np.array_equal(assemble(out, Sharding([[], [0]]), mesh), t)


def test_notes_swap_then_all_to_all_on_a_2x2x2_mesh():
    mesh = Mesh((2, 2, 2))
    t = t2(4, 4)
    src, mid, dst = Sharding([[0], [1, 2]]), Sharding([[0], [2, 1]]), Sharding([[0, 1], [2]])
    held = shard(t, src, mesh)
    assert grid(held, mesh) == [
        [[[[11], [21]], [[12], [22]]], [[[13], [23]], [[14], [24]]]],
        [[[[31], [41]], [[32], [42]]], [[[33], [43]], [[34], [44]]]],
    ]
    # The notes' single all_to_all (split_axis = 1 of size 1 over 2 devices) cannot run.
    with pytest.raises(CollectiveError, match="split_axis 1 has size 1, which does not split evenly"):
        all_to_all(held, mesh, [2], split_axis=1, concat_axis=0)
    out = all_to_all(swap_order(held, mesh, src, mid, 1), mesh, [1], split_axis=0, concat_axis=1)
    # The drawing shows "13 41" on device (0, 0, 1): it holds 13 14.
    assert grid(out, mesh) == [
        [[[[11, 12]], [[13, 14]]], [[[21, 22]], [[23, 24]]]],
        [[[[31, 32]], [[33, 34]]], [[[41, 42]], [[43, 44]]]],
    ]
    assert np.array_equal(assemble(out, dst, mesh), t)


def test_notes_basis_decomposition_on_a_4d_mesh():
    # [[3, 2], [], [0, 1]] -> [[0], [1, 2], []] with the notes' four steps.
    mesh = Mesh((2, 3, 2, 2))
    t = np.arange(4 * 6 * 6).reshape(4, 6, 6)
    held = shard(t, Sharding([[3, 2], [], [0, 1]]), mesh)
    steps = [
        (lambda h: all_to_all(h, mesh, [1], split_axis=1, concat_axis=2), Sharding([[3, 2], [1], [0]])),
        (lambda h: all_to_all(h, mesh, [2], split_axis=1, concat_axis=0), Sharding([[3], [1, 2], [0]])),
        (lambda h: all_gather(h, mesh, [3], gather_axis=0), Sharding([[], [1, 2], [0]])),
        (lambda h: all_to_all(h, mesh, [0], split_axis=0, concat_axis=2), Sharding([[0], [1, 2], []])),
    ]
    for step, sharding in steps:
        held = step(held)
        assert as_lists(held) == as_lists(shard(t, sharding, mesh)), sharding
        assert np.array_equal(assemble(held, sharding, mesh), t)


# -- properties --------------------------------------------------------------------


@st.composite
def setups(draw, min_rank: int = 1):
    """A mesh, mesh axes (any subset, any order), a tensor axis whose size
    the group divides, and an int64 array per device."""
    mesh = Mesh(tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))))
    order = draw(st.permutations(range(mesh.rank)))
    axes = tuple(order[: draw(st.integers(0, mesh.rank))])
    n = mesh.group_size(axes)
    shape = [draw(st.integers(1, 3)) for _ in range(draw(st.integers(min_rank, 3)))]
    axis = draw(st.integers(0, len(shape) - 1))
    shape[axis] *= n
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    inputs = {d: rng.integers(-100, 100, size=shape) for d in mesh.devices()}
    return mesh, axes, axis, inputs


@settings(max_examples=60, deadline=None)
@given(setups())
def test_all_gather_after_all_slice_is_identity(setup):
    mesh, axes, axis, inputs = setup
    # all_slice keeps one piece per device, so the group must hold one tensor.
    same = {d: inputs[mesh.group_of(d, axes)[0]] for d in mesh.devices()}
    back = all_gather(all_slice(same, mesh, axes, axis), mesh, axes, axis)
    assert as_lists(back) == as_lists(same)
    pieces = all_slice(all_gather(inputs, mesh, axes, axis), mesh, axes, axis)
    assert as_lists(pieces) == as_lists(inputs)


@settings(max_examples=60, deadline=None)
@given(setups(), st.data())
def test_all_to_all_twice_with_swapped_axes_is_identity(setup, data):
    mesh, axes, split_axis, inputs = setup
    concat_axis = data.draw(st.integers(0, inputs[mesh.devices()[0]].ndim - 1))
    once = all_to_all(inputs, mesh, axes, split_axis, concat_axis)
    back = all_to_all(once, mesh, axes, concat_axis, split_axis)
    assert as_lists(back) == as_lists(inputs)


@settings(max_examples=60, deadline=None)
@given(setups(), st.sampled_from(["sum", "max", "min", "product", "average", "bitwise_xor"]))
def test_reduce_scatter_is_all_slice_of_all_reduce(setup, kind):
    mesh, axes, axis, inputs = setup
    expected = all_slice(all_reduce(inputs, mesh, axes, kind), mesh, axes, axis)
    assert as_lists(reduce_scatter(inputs, mesh, axes, kind, axis)) == as_lists(expected)


def wrap(value: int, dtype: np.dtype) -> int:
    """`value` in the integer dtype's two's-complement range."""
    bits = 8 * dtype.itemsize
    if dtype.kind == "u":
        return value % 2**bits
    return (value + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)


def reference(terms: list, kind: str, dtype: np.dtype):
    """One element's reduction computed with exact Python integers, wrapped
    into `dtype` only where the collective's arithmetic would wrap."""
    import functools
    import math
    import operator

    terms = [wrap(int(v), dtype) for v in terms]
    if kind in ("sum", "average"):
        total = wrap(sum(terms), dtype)
        if kind == "sum":
            return total
        q = abs(total) // len(terms)
        return -q if total < 0 else q
    if kind == "product":
        return wrap(math.prod(terms), dtype)
    ops = {"max": max, "min": min}
    if kind in ops:
        return ops[kind](terms)
    op = {"bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor}[kind]
    return wrap(functools.reduce(op, terms), dtype)


KINDS = ["sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint64"]


@settings(max_examples=120, deadline=None)
@given(setups(), st.sampled_from(INTS), st.sampled_from(INTS), st.sampled_from(KINDS), st.integers(0, 2**32 - 1))
def test_integer_reductions_against_exact_arithmetic(setup, in_dtype, out_dtype, kind, seed):
    mesh, axes, _, inputs = setup
    in_dt, out_dt = np.dtype(in_dtype), np.dtype(out_dtype)
    info = np.iinfo(in_dt)
    rng = np.random.default_rng(seed)
    shape = inputs[mesh.devices()[0]].shape
    inputs = {d: rng.integers(info.min, info.max, size=shape, dtype=in_dt, endpoint=True) for d in mesh.devices()}
    out = all_reduce(inputs, mesh, axes, kind, out_dt)
    for group in mesh.groups(axes):
        stacked = np.stack([inputs[d] for d in group]).reshape(len(group), -1)
        want = [reference(stacked[:, k].tolist(), kind, out_dt) for k in range(stacked.shape[1])]
        for d in group:
            assert out[d].dtype == out_dt
            assert out[d].reshape(-1).tolist() == want


@settings(max_examples=60, deadline=None)
@given(setups(), st.sampled_from(["float32", "float64"]), st.sampled_from(KINDS[:5]), st.integers(0, 2**32 - 1))
def test_float_reductions_against_numpy(setup, out_dtype, kind, seed):
    mesh, axes, _, inputs = setup
    dt = np.dtype(out_dtype)
    rng = np.random.default_rng(seed)
    shape = inputs[mesh.devices()[0]].shape
    # Values in -2..2: every sum and product is exact, whatever the order.
    inputs = {d: rng.integers(-2, 3, size=shape).astype(np.float16) for d in mesh.devices()}
    out = all_reduce(inputs, mesh, axes, kind, dt)
    ufunc = {"sum": np.sum, "average": np.sum, "max": np.max, "min": np.min, "product": np.prod}[kind]
    for group in mesh.groups(axes):
        stacked = np.stack([inputs[d].astype(dt) for d in group])
        want = ufunc(stacked, axis=0).astype(dt)
        if kind == "average":
            want = want / dt.type(len(group))
        for d in group:
            assert out[d].dtype == dt and np.array_equal(out[d], want)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_update_halo_matches_a_fresh_shard(data):
    mesh = Mesh(tuple(data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))))
    rank = data.draw(st.integers(1, 2))
    roles = [data.draw(st.integers(-1, rank - 1)) for _ in range(mesh.rank)]
    split = [[a for a in range(mesh.rank) if roles[a] == dim] for dim in range(rank)]
    shape = [data.draw(st.integers(1, 3)) * int(np.prod([mesh.shape[a] for a in axes])) for axes in split]
    sharded = [dim for dim in range(rank) if split[dim]]
    halo = st.lists(st.integers(0, 3), min_size=2 * len(sharded), max_size=2 * len(sharded))
    src_h, dst_h = data.draw(halo), data.draw(halo)
    x = np.arange(float(np.prod(shape))).reshape(shape)
    held = shard(x, Sharding(split, halo_sizes=src_h), mesh)
    out = update_halo(held, mesh, split, src_h, dst_h)
    want = shard(x, Sharding(split, halo_sizes=dst_h), mesh)
    for d in mesh.devices():
        np.testing.assert_array_equal(out[d], want[d])


# -- integer average over several mesh axes ------------------------------------------


def test_integer_average_over_two_axes_reduces_the_whole_group_once():
    """Terms 1, 0, 1, 2 on a 2x2 mesh: trunc(4 / 4) = 1; averaging axis by
    axis would truncate twice (trunc(1/2) = 0, trunc(3/2) = 1, trunc(1/2) = 0)."""
    mesh = Mesh((2, 2))
    terms = {(0, 0): 1, (0, 1): 0, (1, 0): 1, (1, 1): 2}
    for axes in ([0, 1], [1, 0]):
        out = all_reduce(arrays(terms, np.int32), mesh, axes, "average")
        assert as_lists(out) == {d: 1 for d in mesh.devices()}
    whole = {d: np.full((4,), v, np.int32) for d, v in terms.items()}
    out = reduce_scatter(whole, mesh, [0, 1], "average", scatter_axis=0)
    assert {d: a.tolist() for d, a in out.items()} == {d: [1] for d in mesh.devices()}


def test_integer_average_partial_over_two_axes_assembles_once():
    mesh = Mesh((2, 2))
    held = {d: np.array([v], np.int32) for d, v in {(0, 0): 1, (0, 1): 0, (1, 0): 1, (1, 1): 2}.items()}
    got = assemble(held, Sharding((), (0, 1), "average"), mesh)
    assert got.tolist() == [1]
