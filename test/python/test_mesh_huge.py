"""Meshes too large to list (65536x65536, 1000x1000x1000): sizes, indices,
single groups and pieces stay arithmetic; methods that must list every
device refuse with a MeshError past `MAX_LISTED_DEVICES` instead of
exhausting memory."""

from __future__ import annotations

import itertools

import pytest

from mesh_dialect.sharding import MAX_LISTED_DEVICES, Mesh, MeshError, Sharding

WIDE = Mesh((65536, 65536), "big")
CUBE = Mesh((1000, 1000, 1000))


def test_sizes_and_indices_are_arithmetic():
    assert MAX_LISTED_DEVICES == 1 << 20
    assert WIDE.size == 4294967296 and CUBE.size == 10**9
    assert WIDE.group_size([1]) == 65536 and WIDE.group_count([1]) == 65536
    assert CUBE.group_count([0, 2]) == 1000
    assert CUBE.linear_index((999, 0, 1)) == 999_000_001
    assert CUBE.multi_index(999_000_001) == (999, 0, 1)
    assert WIDE.member((5, 7), [0], 65535) == (65535, 7)


def test_listing_every_device_is_refused_past_the_limit():
    with pytest.raises(MeshError) as e:
        WIDE.devices()
    assert str(e.value) == (
        "listing the devices of @big(shape = 65536x65536) is limited to 1048576 devices, got 4294967296 devices"
    )
    with pytest.raises(MeshError) as e:
        CUBE.groups([1])
    assert str(e.value) == (
        "listing the groups over mesh axes [1] of mesh(shape = 1000x1000x1000) is limited to 1048576 devices, "
        "got 1000000000 devices"
    )
    with pytest.raises(MeshError) as e:
        WIDE.group_of((0, 0), [0, 1])
    assert str(e.value) == (
        "listing a group over mesh axes [0, 1] of @big(shape = 65536x65536) is limited to 1048576 devices, "
        "got 4294967296 devices"
    )


def test_one_group_and_lazy_walks_work_on_huge_meshes():
    assert CUBE.group_of((3, 4, 5), [1])[:3] == [(3, 0, 5), (3, 1, 5), (3, 2, 5)]
    assert len(WIDE.group_of((1, 2), [1])) == 65536
    assert list(itertools.islice(WIDE.iter_devices(), 3)) == [(0, 0), (0, 1), (0, 2)]
    first = next(iter(CUBE.iter_groups([2])))
    assert first[0] == (0, 0, 0) and first[-1] == (0, 0, 999) and len(first) == 1000
    with pytest.raises(MeshError, match=r"got 4294967296 devices"):
        next(iter(WIDE.iter_groups([0, 1])))


def test_small_meshes_list_as_before():
    mesh = Mesh((2, 3))
    assert mesh.devices() == list(mesh.iter_devices())
    assert mesh.groups([0]) == list(mesh.iter_groups([0])) == [[(0, j), (1, j)] for j in range(3)]


def test_a_device_piece_on_a_huge_mesh_is_arithmetic():
    s = Sharding(((0,), (1,)))
    assert s.slice_of((65536 * 4, 65536), WIDE, (65535, 3)) == (slice(262140, 262144), slice(3, 4))
    assert s.piece_bounds(0, 65536 * 4, WIDE, 65535) == (262140, 262144)
    assert s.local_shape((65536 * 4, 65536), WIDE, (0, 0)) == (4, 1)
