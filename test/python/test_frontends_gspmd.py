"""GSPMD `mhlo.sharding` strings: parsing, and the mesh axes that give a
tile assignment's device order, checked device by device against what the
tile assignment means."""

import itertools
import math
import random

import pytest

from mesh_dialect.frontends import FrontendError, gspmd
from mesh_dialect.sharding.spec import Sharding


def _ordered_factorizations(n: int, most: int) -> list[tuple[int, ...]]:
    """Every tuple of factors > 1 (at most `most` of them) whose product is n."""
    if n == 1:
        return [()]
    out = []
    for f in range(2, n + 1):
        if n % f == 0:
            out += [(f,) + rest for rest in _ordered_factorizations(n // f, most - 1) if most > 1 or rest == ()]
    return out


def _pieces_agree(sharding: gspmd.HloSharding, mesh_shape: tuple[int, ...], layout: Sharding) -> None:
    """For every device: the piece GSPMD gives it along each tensor
    dimension is the one the layout gives it on the mesh."""
    tile_dims = sharding.tile_dims
    position = {}
    for flat, device in enumerate(sharding.devices):
        index = []
        for size in reversed(tile_dims):
            index.append(flat % size)
            flat //= size
        position[device] = tuple(reversed(index))
    for device in range(math.prod(mesh_shape)):
        coords, rest = [], device
        for size in reversed(mesh_shape):
            coords.append(rest % size)
            rest //= size
        coords.reverse()
        for dim in range(sharding.data_rank):
            axes = layout.split_axes[dim] if dim < len(layout.split_axes) else ()
            piece = 0
            for a in axes:
                piece = piece * mesh_shape[a] + coords[a]
            assert piece == position[device][dim], (sharding.text, mesh_shape, layout, device)
        # Cut into as many pieces as GSPMD cuts (replication elsewhere).
    for dim in range(sharding.data_rank):
        axes = layout.split_axes[dim] if dim < len(layout.split_axes) else ()
        assert math.prod(mesh_shape[a] for a in axes) == tile_dims[dim]


def _import(*texts: str, rank: int | None = None) -> tuple[tuple[int, ...], list[Sharding]]:
    builder = gspmd.MeshBuilder()
    parsed = [gspmd.parse(t) for t in texts]
    factors = [builder.add(p) for p in parsed]
    layouts = []
    for p, f in zip(parsed, factors):
        r = p.data_rank if rank is None else rank
        layouts.append(gspmd.to_layout(p, f, builder, r))
    return builder.shape(), layouts


def _text(tile_dims, devices, replicate: bool) -> str:
    dims = ",".join(map(str, tile_dims))
    suffix = " last_tile_dim_replicate" if replicate else ""
    return "{devices=[" + dims + "]" + ",".join(map(str, devices)) + suffix + "}"


# -- parsing ------------------------------------------------------------------------


def test_parses_every_kind():
    assert gspmd.parse("{replicated}").kind == "replicated"
    assert gspmd.parse("{manual}").kind == "manual"
    assert gspmd.parse("{unknown}").kind == "unknown"
    m = gspmd.parse("{maximal device=3}")
    assert (m.kind, m.device) == ("maximal", 3)
    t = gspmd.parse("{devices=[2,1,4]<=[8] last_tile_dim_replicate}")
    assert (t.tile_dims, t.devices, t.subgroups) == ((2, 1, 4), tuple(range(8)), ("replicated",))
    e = gspmd.parse("{devices=[2,2]0,2,1,3}")
    assert e.devices == (0, 2, 1, 3) and e.subgroups == ()
    s = gspmd.parse("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}")
    assert s.subgroups == ("manual", "replicated") and s.data_rank == 1
    tup = gspmd.parse("{{replicated}, {devices=[2]0,1}}")
    assert tup.kind == "tuple" and [x.kind for x in tup.elements] == ["replicated", "tiled"]
    meta = gspmd.parse('{devices=[2]<=[2] metadata={op_name="jit(f)/x" source_file="a.py" source_line=3}}')
    assert meta.devices == (0, 1)


@pytest.mark.parametrize(
    ("reshape", "perm", "expected"),
    [
        ([8], None, list(range(8))),
        ([2, 4], [1, 0], [0, 4, 1, 5, 2, 6, 3, 7]),
        ([2, 2, 2], [1, 0, 2], [0, 1, 4, 5, 2, 3, 6, 7]),
        ([4, 2], [1, 0], [0, 2, 4, 6, 1, 3, 5, 7]),
        ([2, 3], [1, 0], [0, 3, 1, 4, 2, 5]),
    ],
)
def test_iota_tile_assignments(reshape, perm, expected):
    assert gspmd.iota_devices(reshape, perm) == expected


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("{devices=[2,2]0,1,2}", "must list 4 devices"),
        ("{devices=[2]0,0}", "permutation of 0..1"),
        ("{devices=[2,4]<=[4]}", "iota reshape"),
        ("{devices=[2,4]<=[2,4]T(0,0)}", "iota transpose"),
        ("{maximal}", "needs device=N"),
        ("{devices=[2]0,1 last_tile_dims={bogus}}", "unknown subgroup type"),
        ("{replicated", "expected"),
        ("{devices=[2]0,1} x", "unexpected"),
        ("{frobnicate}", "unknown field"),
    ],
)
def test_malformed_strings_say_why_and_show_the_string(text, rule):
    with pytest.raises(FrontendError, match=rule) as e:
        gspmd.parse(text)
    assert text.strip() in str(e.value)


# -- what JAX exports ----------------------------------------------------------------


def test_jax_data_model_mesh():
    """P('data', None) and P(None, 'model') on ('data'=2, 'model'=4), as JAX 0.10 prints them."""
    shape, layouts = _import(
        "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
        "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
        "{devices=[2,4]<=[8] last_tile_dim_replicate}",
    )
    assert shape == (2, 4)
    assert layouts[0] == Sharding(((0,), ()))
    assert layouts[1] == Sharding(((), (1,)))
    assert layouts[2] == Sharding(((0,),))
    assert _import("{replicated}", rank=2)[1] == [Sharding(())]


def test_jax_three_axis_mesh_with_combined_axes():
    """('a', 'b', 'c') = (2, 2, 2): P(None, ('c', 'a'), 'b') and P(('b', 'a'))."""
    shape, layouts = _import("{devices=[1,4,2]<=[4,2]T(1,0)}", rank=3)
    assert shape == (2, 2, 2) and layouts[0] == Sharding(((), (2, 0), (1,)))
    shape, layouts = _import("{devices=[4,1,1,2]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}", rank=3)
    assert layouts[0] == Sharding(((1, 0),))


def test_shardings_refine_one_mesh():
    """P('data') on 2x4 and a 4x2 cut of the same devices need a 2x2x2 mesh."""
    shape, layouts = _import("{devices=[2,4]<=[8]}", "{devices=[4,2]<=[8]}")
    assert shape == (2, 2, 2)
    assert layouts == [Sharding(((0,), (1, 2))), Sharding(((0, 1), (2,)))]


def test_transposed_device_order_is_a_mesh_axis_order():
    shape, layouts = _import("{devices=[2,2]0,2,1,3}")
    assert shape == (2, 2) and layouts == [Sharding(((1,), (0,)))]


def test_maximal_and_unreduced():
    shape, layouts = _import("{maximal device=1}", rank=2)
    assert layouts == [Sharding(())]
    shape, layouts = _import("{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}", rank=2)
    assert shape == (2, 4) and layouts == [Sharding(((0,),), (1,))]


def test_unknown_is_no_layout_and_manual_is_refused():
    assert _import("{unknown}", rank=1)[1] == [None]
    with pytest.raises(FrontendError, match="manual sharding"):
        _import("{manual}", rank=1)
    with pytest.raises(FrontendError, match="manual sharding"):
        _import("{devices=[2,2]<=[4] last_tile_dims={manual}}", rank=1)


def test_what_no_mesh_gives_is_refused_with_the_value():
    with pytest.raises(FrontendError, match=r"device order must be one a mesh axis order gives.*0, 1, 3, 2") as e:
        _import("{devices=[4]0,1,3,2}")
    assert "{devices=[4]0,1,3,2}" in str(e.value)
    with pytest.raises(FrontendError, match="cuts a run"):
        _import("{devices=[3,2]<=[3,2]T(1,0)}")
    with pytest.raises(FrontendError, match="fit one mesh"):
        _import("{devices=[2,3]<=[6]}", "{devices=[3,2]<=[6]}")
    with pytest.raises(FrontendError, match="same devices"):
        _import("{devices=[2]<=[2]}", "{devices=[4]<=[4]}")
    with pytest.raises(FrontendError, match="every tensor dimension"):
        _import("{devices=[2,2]<=[4]}", rank=3)


# -- exhaustive: every iota tile assignment of small meshes ---------------------------


def _iota_cases():
    for n in (2, 4, 6, 8, 12, 16):
        for reshape in _ordered_factorizations(n, 4):
            for perm in itertools.permutations(range(len(reshape))):
                for tiles in _ordered_factorizations(n, 4):
                    yield reshape, perm, tiles


def test_every_small_iota_assignment_imports_exactly_or_is_refused():
    """Each tile assignment of up to 16 devices from a reshape/transpose of
    iota, cut into up to 4 tile dims (the last one a replicated subgroup or
    not): the layout gives every device its GSPMD piece, and the refused
    ones are exactly those whose boundaries do not nest."""
    imported = refused = 0
    for reshape, perm, tiles in _iota_cases():
        devices = gspmd.iota_devices(reshape, perm)
        for replicate in (False, True):
            if replicate and len(tiles) < 2:
                continue
            text = _text(tiles, devices, replicate)
            sharding = gspmd.parse(text)
            try:
                shape, (layout,) = _import(text)
            except FrontendError:
                refused += 1
                # Refused only when the transposed dims and the tile dims cut
                # the flat index at boundaries that do not nest.
                moved = [reshape[p] for p in perm]
                cuts = {math.prod(moved[i:]) for i in range(len(moved) + 1)}
                cuts |= {math.prod(tiles[i:]) for i in range(len(tiles) + 1)}
                chain = sorted(cuts)
                assert any(b % a for a, b in zip(chain, chain[1:])), text
                continue
            imported += 1
            assert math.prod(shape) == len(devices)
            _pieces_agree(sharding, shape, layout)
    assert imported > 1000 and refused > 50


def test_random_device_orders_import_exactly_or_are_refused():
    rng = random.Random(7)
    for _ in range(400):
        n = rng.choice([4, 6, 8])
        tiles = rng.choice(_ordered_factorizations(n, 3))
        devices = list(range(n))
        rng.shuffle(devices)
        text = _text(tiles, devices, False)
        try:
            shape, (layout,) = _import(text)
        except FrontendError as e:
            assert "device order" in str(e) and text in str(e)
            continue
        _pieces_agree(gspmd.parse(text), shape, layout)


def test_strings_jax_prints_mean_what_we_read():
    """Against XLA itself, when JAX is installed: the device list of each
    iota string equals jaxlib's."""
    xc = pytest.importorskip("jax._src.lib").xla_client
    for text in (
        "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
        "{devices=[4,1,1,2]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}",
        "{devices=[2,2,1,2]<=[4,2]T(1,0) last_tile_dim_replicate}",
        "{devices=[3,2]<=[2,3]T(1,0)}",
    ):
        ours = list(gspmd.parse(text).devices)
        theirs = list(xc.HloSharding.from_string(text).tile_assignment_devices())
        assert ours == theirs, text


def test_uneven_dimensions_are_cut_as_xla_cuts():
    """ceil(n / k) per piece, the last ones shorter or empty (k the product
    of the dimension's axes, not a cut of a cut), written as offsets."""
    from mesh_dialect.frontends.gspmd import xla_pieces

    assert xla_pieces(Sharding(((0,),)), (4,), (7,)).sharded_dims_offsets == (0, 2, 4, 6, 7)
    assert xla_pieces(Sharding(((0,),)), (8,), (3,)).sharded_dims_offsets == (0, 1, 2, 3, 3, 3, 3, 3, 3)
    # 5 over 2x2 is 2, 2, 1, 0 (a cut of a cut would give 2, 1, 1, 1).
    assert xla_pieces(Sharding(((0, 1),)), (2, 2), (5,)).sharded_dims_offsets == (0, 2, 4, 5, 5)
    # Every split dimension gets offsets once one is uneven.
    assert xla_pieces(Sharding(((0,), (1,))), (2, 4), (4, 6)).sharded_dims_offsets == (0, 2, 4, 0, 2, 4, 6, 6)
    even = Sharding(((0,), (1,)))
    assert xla_pieces(even, (2, 4), (4, 8)) is even
