"""Meshes, device groups and shardings: the reference page's index and group
examples, the `mesh.sharding` examples, and the layout formulas of the
resharding notes."""

from __future__ import annotations

import pytest

from mesh_dialect.sharding import Mesh, MeshError, Sharding, ShardingError

# -- Mesh ------------------------------------------------------------------------


def test_linear_index_example_of_the_page():
    mesh = Mesh((10, 20, 30))
    assert mesh.linear_index((1, 2, 3)) == 3 + 30 * 2 + 20 * 30 * 1 == 663
    assert mesh.multi_index(663) == (1, 2, 3)


def test_devices_are_in_row_major_order():
    mesh = Mesh((2, 3), name="m")
    assert mesh.devices() == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert [mesh.linear_index(d) for d in mesh.devices()] == list(range(6))
    assert [mesh.multi_index(i) for i in range(6)] == mesh.devices()
    assert (mesh.size, mesh.rank, str(mesh)) == (6, 2, "@m(shape = 2x3)")


def test_device_groups_example_of_the_page():
    mesh = Mesh((2, 3, 4, 5))
    groups = mesh.groups([0, 1])
    assert len(groups) == 4 * 5
    assert all(len(g) == 2 * 3 for g in groups)
    assert sorted(d for g in groups for d in g) == mesh.devices()

    def group(d):
        (g,) = [g for g in groups if d in g]
        return g

    assert group((1, 0, 2, 3)) is group((1, 1, 2, 3))
    assert group((1, 0, 2, 4)) is not group((1, 0, 2, 3))
    # A group is named by its coordinates outside mesh_axes: (k, m) here.
    assert group((1, 0, 2, 3)) == [(i, j, 2, 3) for i in range(2) for j in range(3)]
    assert mesh.group_size([0, 1]) == 6


def test_in_group_order_follows_mesh_axes_outer_to_inner():
    mesh = Mesh((2, 3, 4, 5))
    axes = [3, 1]
    for i in range(2):
        for k in range(4):
            first = mesh.in_group_index((i, 1, k, 0), axes)
            assert first < mesh.in_group_index((i, 0, k, 1), axes)
            assert first < mesh.in_group_index((i, 2, k, 0), axes)
    assert mesh.in_group_index((0, 1, 0, 0), axes) == 1
    assert mesh.in_group_index((0, 2, 0, 0), axes) == 2
    assert mesh.in_group_index((0, 0, 0, 1), axes) == 3
    assert mesh.group_of((1, 2, 3, 4), axes)[:4] == [(1, 0, 3, 0), (1, 1, 3, 0), (1, 2, 3, 0), (1, 0, 3, 1)]
    assert mesh.group_of((1, 2, 3, 4), [1, 3])[:4] == [(1, 0, 3, 0), (1, 0, 3, 1), (1, 0, 3, 2), (1, 0, 3, 3)]


def test_in_group_device_example_of_the_page():
    mesh = Mesh((2, 3, 4))
    for g in range(3):
        for i in range(2):
            for j in range(4):
                assert mesh.device_at((1, g, 3), [0, 2], (i, j)) == (i, g, j)
    assert mesh.in_group_multi_index((1, 2, 3), [2, 0]) == (3, 1)
    assert mesh.member((1, 2, 3), [2, 0], 3) == (1, 2, 1)


def test_groups_over_no_axes_are_single_devices():
    mesh = Mesh((2, 2))
    assert mesh.groups([]) == [[d] for d in mesh.devices()]
    assert mesh.group_size([]) == 1
    assert mesh.in_group_index((1, 1), []) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: m.groups([2]), "mesh axis 2 is out of range for a mesh of rank 2"),
        (lambda m: m.groups([1, 1]), "mesh axis 1 appears twice in mesh_axes"),
        (lambda m: m.linear_index((0, 3)), "device coordinate 3 is out of range for mesh axis 1 of size 3"),
        (lambda m: m.linear_index((0,)), "device [0] needs 2 coordinates for a mesh of rank 2"),
        (lambda m: m.multi_index(6), "linear index 6 is out of range for a mesh of 6 devices"),
        (lambda m: m.device_at((0, 0), [1], (3,)), "in-group coordinate 3 is out of range for mesh axis 1 of size 3"),
        (lambda m: m.device_at((0, 0), [1], (0, 0)), "in-group multi-index [0, 0] needs 1 coordinates"),
    ],
)
def test_mesh_errors(call, message):
    with pytest.raises(MeshError, match=r"^" + message.replace("[", r"\[").replace("]", r"\]")):
        call(Mesh((2, 3)))


def test_mesh_shape_must_be_static_and_positive():
    with pytest.raises(MeshError, match="at least one axis"):
        Mesh(())
    with pytest.raises(MeshError, match="sizes must be at least 1"):
        Mesh((2, 0))
    with pytest.raises(MeshError, match="must hold integers"):
        Mesh((2, None))  # a dynamic size
    assert Mesh([2, 3]) == Mesh((2, 3))


# -- Sharding: normalization and validation ---------------------------------------


def test_equal_layouts_compare_equal():
    assert Sharding([[0], []]) == Sharding(((0,),)) == Sharding([[0], [], []])
    assert Sharding([[]]) == Sharding.replicated() == Sharding(())
    assert Sharding([[0]], partial_axes=[2, 1], partial_type="max") == Sharding([[0]], (1, 2), "max")
    assert Sharding([[0]], partial_type="max") == Sharding([[0]])
    assert Sharding([[0]], halo_sizes=[0, 0]) == Sharding([[0]])
    assert Sharding([[0, 1]]) != Sharding([[1, 0]])
    assert hash(Sharding([[0], []])) == hash(Sharding([[0]]))
    text = "split_axes = [[], [0]] partial = max [1] halo_sizes = [1, 2]"
    assert str(Sharding([[], [0]], [1], "max", (1, 2))) == text
    assert str(Sharding.replicated()) == "split_axes = [[]]"


@pytest.mark.parametrize(
    ("sharding", "shape", "message"),
    [
        (Sharding([[3]]), None, "mesh axis 3 is out of range for a mesh of rank 2"),
        (Sharding([[-1]]), None, "mesh axis -1 is out of range for a mesh of rank 2"),
        (Sharding([[0, 0]]), None, "mesh axis 0 is used twice in tensor dimension 0 of split_axes"),
        (Sharding([[0], [0]]), None, "mesh axis 0 is used in tensor dimensions 0 and 1 of split_axes"),
        (Sharding([[0]], [0]), None, r"mesh axis 0 is both a split axis \(tensor dimension 0\) and a partial axis"),
        (Sharding([[0]], [1, 1]), None, "mesh axis 1 appears twice in partial_axes"),
        (Sharding([[0]], [1], "generic"), None, "partial type 'generic' is not allowed in a sharding"),
        (Sharding([[0]], [1], "mean"), None, "unknown partial type 'mean'"),
        (Sharding([[0]], halo_sizes=[1]), None, r"halo_sizes needs 2 entries per sharded .* \(2\), got 1"),
        (Sharding([[0]], halo_sizes=[1, -1]), None, "halo sizes must be non-negative, got -1"),
        (
            Sharding([[0]], halo_sizes=[1, 1], sharded_dims_offsets=[0, 1, 2]),
            None,
            "halo_sizes and sharded_dims_offsets are mutually exclusive",
        ),
        (Sharding([[0]], sharded_dims_offsets=[0, 2]), None, r"needs \(shards \+ 1\) entries .* \(3\), got 2"),
        (Sharding([[0]], sharded_dims_offsets=[1, 2, 4]), None, "tensor dimension 0 must start at 0, got 1"),
        (Sharding([[0]], sharded_dims_offsets=[0, 3, 2]), None, "must be non-decreasing, got 2 after 3"),
        (Sharding([[0]], sharded_dims_offsets=[0, 3, 5]), (6,), "must end at its size 6, got 5"),
        (Sharding([[0], [1]]), (4,), "sharding splits 2 tensor dimensions but the tensor has rank 1"),
    ],
)
def test_validation_messages(sharding, shape, message):
    with pytest.raises(ShardingError, match=message):
        sharding.validate(Mesh((2, 3)), shape)


def test_non_integer_axes_are_refused():
    with pytest.raises(ShardingError, match="split_axes must hold integers, got 'x'"):
        Sharding([["x"]])
    with pytest.raises(ShardingError, match="partial_axes must hold integers, got True"):
        Sharding([[0]], [True])


def test_flat_split_axes_are_refused_by_name():
    # the common slip: one list of axes where a list per dimension is meant
    with pytest.raises(ShardingError, match=r"split_axes must be a sequence of integers, got 0"):
        Sharding([0])
    with pytest.raises(ShardingError, match=r"split_axes must be a list of axis lists, got 3"):
        Sharding(3)


def test_a_tensor_shape_of_floats_bools_or_strings_is_refused():
    from mesh_dialect.sharding.resharding import plan_resharding

    for shape in ([4.7, 8], [True, 8], ["4", 8]):
        with pytest.raises(ValueError, match="a tensor shape must hold integers"):
            plan_resharding(shape, [2], Sharding([[0]]), Sharding([]))
    assert plan_resharding([4, 8], [2], Sharding([[0]]), Sharding([])).bytes_received == 64


# -- Sharding: per-device layout ------------------------------------------------


def test_multi_axis_split_pieces_follow_the_listed_order():
    mesh = Mesh((2, 3))
    # [[0, 1]]: piece = 3 * m0 + m1; [[1, 0]]: piece = 2 * m1 + m0.
    s01, s10 = Sharding([[0, 1]]), Sharding([[1, 0]])
    for m0, m1 in mesh.devices():
        assert s01.slice_of((12,), mesh, (m0, m1)) == (slice(2 * (3 * m0 + m1), 2 * (3 * m0 + m1) + 2),)
        assert s10.slice_of((12,), mesh, (m0, m1)) == (slice(2 * (2 * m1 + m0), 2 * (2 * m1 + m0) + 2),)
    assert s01.shard_count(0, mesh) == s10.shard_count(0, mesh) == 6
    assert s01.shard_count(1, mesh) == 1
    assert s01.replica_axes(mesh) == () and Sharding([[1]]).replica_axes(mesh) == (0,)


def test_halo_example_of_the_page():
    # @mesh0 2x2x4, split_axes = [[0]] halo_sizes = [1, 2] on tensor<4x8xf32>
    mesh = Mesh((2, 2, 4))
    s = Sharding([[0]], halo_sizes=[1, 2])
    s.validate(mesh, (4, 8))
    for d in mesh.devices():
        assert s.local_shape((4, 8), mesh, d) == (1 + 2 + 2, 8)
    assert s.slice_of((4, 8), mesh, (1, 0, 3)) == (slice(2, 4), slice(0, 8))
    assert s.halo(0) == (1, 2) and s.halo(1) == (0, 0)


def test_halos_count_only_sharded_dimensions():
    mesh = Mesh((2, 2))
    s = Sharding([[], [0], [], [1]], halo_sizes=[1, 2, 3, 4])
    assert (s.halo(0), s.halo(1), s.halo(2), s.halo(3)) == ((0, 0), (1, 2), (0, 0), (3, 4))
    assert s.local_shape((5, 6, 7, 8), mesh, (1, 1)) == (5, 3 + 3, 7, 4 + 7)


def test_sharded_dims_offsets_example_on_a_1d_mesh():
    # @mesh1d_4, split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] on tensor<4x14xf32>
    mesh = Mesh((4,))
    s = Sharding([[], [0]], sharded_dims_offsets=[0, 2, 5, 9, 14])
    assert [s.local_shape((4, 14), mesh, d) for d in mesh.devices()] == [(4, 2), (4, 3), (4, 4), (4, 5)]
    assert s.slice_of((4, 14), mesh, (2,)) == (slice(0, 4), slice(5, 9))


def test_sharded_dims_offsets_example_on_two_dimensions():
    # 32x32x32 with offsets [0, 24, 32, 0, 20, 32]: the page's "first device"
    # gets 24x20x32 and its "second device" 8x12x32, which on a 2x2 mesh with
    # [[0], [1]] are devices (0, 0) and (1, 1).
    mesh = Mesh((2, 2))
    s = Sharding([[0], [1]], sharded_dims_offsets=[0, 24, 32, 0, 20, 32])
    assert s.local_shape((32, 32, 32), mesh, (0, 0)) == (24, 20, 32)
    assert s.local_shape((32, 32, 32), mesh, (1, 1)) == (8, 12, 32)
    assert s.local_shape((32, 32, 32), mesh, (0, 1)) == (24, 12, 32)
    assert s.offsets(1, mesh) == (0, 20, 32)


def _ceil_div_offsets(size: int, n: int) -> list[int]:
    step = -(-size // n)
    return [min(i * step, size) for i in range(n + 1)]


def _holds(region, index) -> bool:
    return all(s.start <= i < s.stop for s, i in zip(region, index))


def _owner(sharding: Sharding, shape, mesh: Mesh, index):
    """The device whose core holds `index`, and the index inside its local array."""
    (dev,) = [d for d in mesh.devices() if _holds(sharding.slice_of(shape, mesh, d), index)]
    return dev, tuple(i - s.start for s, i in zip(sharding.slice_of(shape, mesh, dev), index))


def test_ceil_div_layout_formula_of_the_resharding_notes():
    # t[13, 17] with M = 3, N = 4, K = 16, L = 23 and [[0], [1]] lies at d(2, 2)[1, 5].
    mesh = Mesh((3, 4))
    shape = (16, 23)
    s = Sharding([[0], [1]], sharded_dims_offsets=_ceil_div_offsets(16, 3) + _ceil_div_offsets(23, 4))
    assert s.sharded_dims_offsets == (0, 6, 12, 16, 0, 6, 12, 18, 23)
    assert _owner(s, shape, mesh, (13, 17)) == ((2, 2), (1, 5))
    # The general formula d(i // ceil(K/M), j // ceil(L/N))[i % ceil(K/M), j % ceil(L/N)] holds everywhere.
    for i in range(16):
        for j in range(23):
            assert _owner(s, shape, mesh, (i, j)) == ((i // 6, j // 6), (i % 6, j % 6))


def test_ceil_div_layout_formula_with_swapped_axes():
    # [[1], [0]] on an M x N = 5 x 2 mesh, K = 27, L = 14:
    # t[i, j] -> d(j // ceil(L/M), i // ceil(K/N))[i % ceil(K/N), j % ceil(L/M)].
    mesh = Mesh((5, 2))
    shape = (27, 14)
    s = Sharding([[1], [0]], sharded_dims_offsets=_ceil_div_offsets(27, 2) + _ceil_div_offsets(14, 5))
    for i in range(27):
        for j in range(14):
            assert _owner(s, shape, mesh, (i, j)) == ((j // 3, i // 14), (i % 14, j % 3))
    # The notes check this at t[9, 19], but j = 19 lies outside a tensor with L = 14 columns
    # (their answer, device (6, 0), is off a mesh with M = 5 rows): no device owns it.
    assert not any(s.slice_of(shape, mesh, d)[1].stop > 19 for d in mesh.devices())


def test_tile_overlay_of_the_resharding_notes():
    # A 6x6 tensor on a 2x3 mesh, [[0], [1]] -> [[1], [0]]: the notes draw the
    # cut pattern as tiles labelled "<source device> <target device>", a device
    # (m0, m1) being written m0+1 m1+1.
    mesh = Mesh((2, 3))
    shape = (6, 6)
    src, dst = Sharding([[0], [1]]), Sharding([[1], [0]])
    drawn = [
        ["11 11", "12 11", "12 21", "13 21"],
        ["11 12", "12 12", "12 22", "13 22"],
        ["21 12", "22 12", "22 22", "23 22"],
        ["21 13", "22 13", "22 23", "23 23"],
    ]
    cuts = [0, 2, 3, 4, 6]  # rows and columns: source cuts 0 3 6, target cuts 0 2 4 6 (columns: 0 2 4 6 / 0 3 6)
    label = lambda d: f"{d[0] + 1}{d[1] + 1}"  # noqa: E731
    for r in range(4):
        for c in range(4):
            for i in range(cuts[r], cuts[r + 1]):
                for j in range(cuts[c], cuts[c + 1]):
                    got = f"{label(_owner(src, shape, mesh, (i, j))[0])} {label(_owner(dst, shape, mesh, (i, j))[0])}"
                    assert got == drawn[r][c], (i, j)


@pytest.mark.parametrize(
    ("size", "n", "pieces"),
    [(7, 3, [2, 2, 3]), (16, 5, [3, 3, 3, 3, 4]), (15, 4, [3, 4, 4, 4]), (2, 4, [0, 0, 1, 1]), (8, 4, [2] * 4)],
)
def test_pieces_without_offsets_follow_upstreams_shard_shape(size, n, pieces):
    # every piece size // n, the last size % n one more (measured with upstream mlir-opt)
    mesh = Mesh((n,))
    s = Sharding([[0]])
    bounds = s.bounds(0, size, mesh)
    assert [b - a for a, b in bounds] == pieces
    assert [s.piece_bounds(0, size, mesh, i) for i in range(n)] == bounds
    assert [s.local_shape((size,), mesh, (i,)) for i in range(n)] == [(p,) for p in pieces]
    assert s.is_even((size,), mesh) == (len(set(pieces)) == 1)
