"""Sizes past what the frontends can list are refused by rule, at once:
the text of a 10**12-device mesh or iota is a few bytes, so nothing may
enumerate its devices."""

from __future__ import annotations

import pytest

from mesh_dialect.frontends import FrontendError, gspmd, sdy
from mesh_dialect.sharding.spec import Sharding


def test_huge_sdy_mesh_is_arithmetic() -> None:
    mesh = sdy.parse_mesh('#sdy.mesh<["x"=1000000, "y"=1000000]>')
    assert mesh.axes == (("x", 1000000), ("y", 1000000)) and mesh.device_ids == ()
    mapping = sdy.refine_mesh(mesh, [sdy.AxisRef("x")])
    assert mapping.shape == (1000000, 1000000)


def test_iota_device_ids_are_dropped_and_others_kept() -> None:
    assert sdy.parse_mesh('<["x"=2, "y"=2], device_ids=[0, 1, 2, 3]>').device_ids == ()
    assert sdy.parse_mesh('<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>').device_ids == (0, 2, 1, 3)
    assert sdy.parse_mesh("<[], device_ids=[0]>").is_maximal


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('<["x"=1000000, "y"=1000000], device_ids=[1, 0]>', r"device_ids must be a permutation of 0\.\.999999999999"),
        ('<["x"=99999999999999999999]>', r"mesh axis size 99999999999999999999 is too large \(at most 2\*\*63 - 1\)"),
        ('<["x"=4611686018427387904, "y"=4]>', r"mesh device count 18446744073709551616 is too large"),
    ],
)
def test_sdy_mesh_limits(text: str, match: str) -> None:
    with pytest.raises(FrontendError, match=match):
        sdy.parse_mesh(text)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("{devices=[0,2]<=[0]}", r"tile dimension 0 must be at least 1, got 0"),
        ("{devices=[0,0]<=[0]}", r"tile dimension 0 must be at least 1, got 0"),
        ("{devices=[2,0]<=[0] last_tile_dim_replicate}", r"tile dimension 1 must be at least 1, got 0"),
        ("{devices=[4096,4096]<=[16777216]}", r"tile assignment of 16777216 devices is more than the limit of 1048576"),
        ("{devices=[1000000000000]<=[1000000000000]}", r"1000000000000 devices is more than the limit"),
        ("{devices=[2,1048576]0,1}", r"2097152 devices is more than the limit"),
    ],
)
def test_gspmd_tile_limits(text: str, match: str) -> None:
    with pytest.raises(FrontendError, match=match):
        gspmd.parse(text)


def test_tuple_sharding_keeps_its_text() -> None:
    tup = gspmd.parse("{{replicated}, {replicated}}")
    assert tup.text == "{{replicated}, {replicated}}"
    with pytest.raises(FrontendError, match=r"needs a value per element: \{\{replicated\}, \{replicated\}\}$"):
        gspmd.to_layout(tup, [], gspmd.MeshBuilder(), 2)


def test_uneven_cut_into_too_many_pieces_is_refused() -> None:
    with pytest.raises(FrontendError, match=r"uneven cut needs 1000000000001 piece offsets, more than the limit"):
        gspmd.xla_pieces(Sharding(((0,), ())), (1000000000000,), (8, 8))
    small = gspmd.xla_pieces(Sharding(((0,), ())), (3,), (8, 8))
    assert small.sharded_dims_offsets == (0, 3, 6, 8)


def test_a_long_device_list_no_axis_order_gives_is_refused_with_a_short_message() -> None:
    """720,720 devices in mesh order but for the last two: refused with the
    first ids only (the whole list made a message of megabytes, and the
    search took tens of seconds)."""
    n = 720720
    devices = list(range(n))
    devices[-1], devices[-2] = devices[-2], devices[-1]
    text = "{devices=[" + str(n) + "]" + ",".join(map(str, devices)) + "}"
    with pytest.raises(FrontendError, match=r"no order of mesh axes lists devices \[0, 1, 2, .*, \.\.\.\]") as e:
        gspmd.factor(gspmd.parse(text))
    assert len(str(e.value)) < 600
