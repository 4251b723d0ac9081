"""DTensor-style placements: the exact layouts they stand for (mesh-axis
order, torch.chunk pieces), round trips, and the errors for what one side
cannot say."""

from __future__ import annotations

import itertools

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sharding.placements import (
    Partial,
    PlacementError,
    Replicate,
    Shard,
    dtensor_bounds,
    sharding_attr,
    sharding_op,
    to_placements,
    to_sharding,
)

MESH = Mesh((2, 4), name="mesh")


@pytest.mark.parametrize(
    ("placements", "split", "partial", "kind"),
    [
        ([Replicate(), Replicate()], (), (), "sum"),
        ([Shard(0), Replicate()], ((0,),), (), "sum"),
        ([Replicate(), Shard(1)], ((), (1,)), (), "sum"),
        ([Shard(1), Shard(0)], ((1,), (0,)), (), "sum"),
        # two mesh axes on one dimension: mesh-axis order, mesh axis 0 outermost
        ([Shard(0), Shard(0)], ((0, 1),), (), "sum"),
        ([Shard(0), Partial()], ((0,),), (1,), "sum"),
        ([Partial("max"), Partial("max")], (), (0, 1), "max"),
        ([Partial("avg"), Shard(2)], ((), (), (1,)), (0,), "average"),
    ],
)
def test_exact_layouts(placements, split, partial, kind):
    s = to_sharding(placements, MESH)
    assert s == Sharding(split, partial, kind)
    assert to_placements(s, MESH) == tuple(placements)


def test_mesh_axis_order_matches_dtensor_pieces():
    # DTensor: mesh axis 0 cuts dim 0 in two, mesh axis 1 cuts each half in four
    s = to_sharding([Shard(0), Shard(0)], MESH, shape=(16, 3))
    for i, j in itertools.product(range(2), range(4)):
        assert s.slice_of((16, 3), MESH, (i, j))[0] == slice(8 * i + 2 * j, 8 * i + 2 * j + 2)


def test_torch_reduce_op_names():
    assert Partial("band") == Partial("bitwise_and")
    assert Partial("bor").reduce_op == "bitwise_or"
    assert Partial("bxor").reduce_op == "bitwise_xor"
    assert Partial().reduce_op == "sum"


def test_negative_dim_resolves_with_shape():
    assert to_sharding([Replicate(), Shard(-1)], MESH, shape=(4, 8)) == Sharding(((), (1,)))


def test_even_shape_gives_no_offsets():
    assert to_sharding([Shard(0), Shard(1)], MESH, shape=(4, 8)).sharded_dims_offsets == ()


def test_uneven_sizes_follow_torch_chunk():
    # 7 rows over 4: DTensor gives 2, 2, 2, 1 (a plain mesh.sharding would give 1, 2, 2, 2)
    s = to_sharding([Replicate(), Shard(0)], MESH, shape=(7, 8))
    assert s.sharded_dims_offsets == (0, 2, 4, 6, 7)
    assert [b - a for a, b in s.bounds(0, 7, MESH)] == [2, 2, 2, 1]
    # 5 over 4 leaves an empty last piece, as torch.chunk does
    assert dtensor_bounds(5, MESH, [1]) == [(0, 2), (2, 4), (4, 5), (5, 5)]
    # nested: 7 over (2, 4) is 4 then 3, each chunked over 4
    assert [b - a for a, b in dtensor_bounds(7, MESH, [0, 1])] == [1, 1, 1, 1, 1, 1, 1, 0]
    # every sharded dimension gets offsets once one needs them
    s = to_sharding([Shard(1), Shard(0)], MESH, shape=(6, 4))
    assert s.sharded_dims_offsets == (0, 2, 4, 6, 6, 0, 2, 4)  # 6 over 4 is 2, 2, 2, 0
    assert to_placements(s, MESH) == (Shard(1), Shard(0))
    assert to_placements(s, MESH, shape=(6, 4)) == (Shard(1), Shard(0))


@pytest.mark.parametrize("shape", [(8, 8), (7, 8), (3, 5), (0, 1), (16, 9)])
def test_round_trip_every_placement_pair(shape):
    options = [Replicate(), Shard(0), Shard(1), Partial(), Partial("min")]
    for placements in itertools.product(options, repeat=2):
        kinds = {p.reduce_op for p in placements if isinstance(p, Partial)}
        if len(kinds) > 1:
            with pytest.raises(PlacementError, match="partial reductions differ"):
                to_sharding(placements, MESH, shape)
            continue
        s = to_sharding(placements, MESH, shape)
        assert to_placements(s, MESH, shape) == placements
        for i, j in itertools.product(range(2), range(4)):
            for d, axes in enumerate(s.split_axes):
                if axes:
                    want = dtensor_bounds(shape[d], MESH, axes)[s.piece_index(d, MESH, (i, j))]
                    assert s.slice_of(shape, MESH, (i, j))[d] == slice(*want)


def test_layout_to_placements_round_trip():
    for s in [
        Sharding(()),
        Sharding(((0,), (1,))),
        Sharding(((0, 1),)),
        Sharding(((), (0,)), (1,), "max"),
        Sharding((), (0, 1), "product"),
    ]:
        assert to_sharding(to_placements(s, MESH), MESH) == s


@pytest.mark.parametrize(
    ("placements", "shape", "message"),
    [
        ([Shard(0)], None, r"placements need one entry per mesh axis \(2 for @mesh\(shape = 2x4\)\), got 1"),
        ([Shard(0), "S(0)"], None, r"placement 1 must be Shard, Replicate or Partial, got 'S\(0\)'"),
        ([Shard(2), Replicate()], (4, 4), r"Shard\(2\) on mesh axis 0 is out of range for a tensor of rank 2"),
        ([Shard(-1), Replicate()], None, r"Shard\(-1\) on mesh axis 0 needs the tensor's shape to resolve"),
        (
            [Partial("sum"), Partial("max")],
            None,
            r"partial reductions differ across mesh axes \(sum on mesh axis 0, max on mesh axis 1\)",
        ),
    ],
)
def test_placement_errors(placements, shape, message):
    with pytest.raises(PlacementError, match=message):
        to_sharding(placements, MESH, shape)


def test_bad_placement_values():
    with pytest.raises(PlacementError, match=r"unknown Partial reduce_op 'mean'; expected one of sum, max"):
        Partial("mean")
    with pytest.raises(PlacementError, match="unknown Partial reduce_op 'generic'"):
        Partial("generic")
    with pytest.raises(PlacementError, match="Shard dim must be an integer, got True"):
        Shard(True)
    with pytest.raises(PlacementError, match="Shard dim must be an integer, got '0'"):
        Shard("0")


def test_layouts_without_placements():
    with pytest.raises(PlacementError, match=r"split over mesh axes \[1, 0\], against mesh-axis order"):
        to_placements(Sharding(((1, 0),)), MESH)
    with pytest.raises(PlacementError, match="halo_sizes have no DTensor placement"):
        to_placements(Sharding(((0,),), halo_sizes=(1, 1)), MESH)
    # upstream's uneven cut (1, 2, 2, 2) is not torch.chunk's (2, 2, 2, 1)
    with pytest.raises(PlacementError, match=r"size 7 is cut into pieces \[1, 2, 2, 2\], but DTensor's Shard"):
        to_placements(Sharding(((1,),)), MESH, shape=(7,))
    with pytest.raises(PlacementError, match=r"cut into pieces \[3, 1, 1, 2\]"):
        to_placements(Sharding(((1,),), sharded_dims_offsets=(0, 3, 4, 5, 7)), MESH)
    with pytest.raises(mesh_dialect.sharding.ShardingError, match="mesh axis 2 is out of range"):
        to_placements(Sharding(((2,),)), MESH)


def test_mlir_op_and_attribute():
    ctx = mesh_dialect.context()
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            from mesh_dialect.ir import ops

            ops.mesh("mesh", [2, 4])
            sharding_op(MESH, [Shard(0), Partial("max")])
            sharding_op(MESH, [Replicate(), Shard(0)], shape=(7, 8))
            sharding_op(MESH, [Replicate(), Replicate()])
        mesh_dialect.verify(module)
        text = mesh_dialect.print_ir(module)
        assert "mesh.sharding @mesh split_axes = [[0]] partial = max [1] : !mesh.sharding" in text
        assert "mesh.sharding @mesh split_axes = [[1]] sharded_dims_offsets = [0, 2, 4, 6, 7]" in text
        assert "mesh.sharding @mesh split_axes = [[]] : !mesh.sharding" in text
        attr = sharding_attr(MESH, [Shard(1), Shard(1)])
    written = mesh_dialect.parse(
        "mesh.mesh @mesh(shape = 2x4)\n"
        "func.func @f(%x: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[], [0, 1]]>}) {\n  return\n}\n",
        context=ctx,
    )
    func = written.regions[0].blocks[0].operations[1]
    assert attr == ir.DictAttr(ir.ArrayAttr(func.attributes["arg_attrs"])[0])["mesh.sharding"]
    with pytest.raises(PlacementError, match="needs a Mesh with the name of its mesh.mesh symbol"):
        sharding_attr(Mesh((2, 4)), [Shard(0), Replicate()], context=ctx)


def test_exported_lazily_from_the_package():
    import subprocess
    import sys

    from mesh_dialect.sharding import placements

    assert mesh_dialect.Shard is placements.Shard
    assert mesh_dialect.Replicate is placements.Replicate
    assert mesh_dialect.Partial is placements.Partial
    code = "import sys, mesh_dialect\nprint('mesh_dialect.sharding' in sys.modules, mesh_dialect.Shard(1))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.stdout.split() == ["False", "Shard(dim=1)"], p.stderr
