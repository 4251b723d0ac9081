"""Shardy attributes: parsing, mapping onto a mesh of this dialect (sub-axes
split an axis), and back (sdy -> ours -> sdy gives the attribute again)."""

import itertools
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mesh_dialect.frontends import FrontendError, sdy
from mesh_dialect.sharding.spec import Sharding

MESH = sdy.parse_mesh('#sdy.mesh<["data"=2, "model"=4]>')


def test_parses_meshes():
    assert MESH == sdy.SdyMesh((("data", 2), ("model", 4)))
    assert sdy.parse_mesh('<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>').device_ids == (0, 2, 4, 1, 3, 5)
    assert sdy.parse_mesh("<[], device_ids=[3]>").is_maximal
    assert sdy.parse_mesh("<[]>") == sdy.SdyMesh()
    # An iota device list is no device list.
    assert sdy.parse_mesh('<["a"=2], device_ids=[0, 1]>').device_ids == ()


def test_parses_shardings():
    s = sdy.parse_sharding('#sdy.sharding<@mesh, [{"data"}, {}]>')
    assert s.mesh == "mesh" and s.dims == (sdy.DimSharding((sdy.AxisRef("data"),)), sdy.DimSharding())
    s = sdy.parse_sharding('#sdy.sharding<@m, [{"x":(1)2, ?}p1, {?}, {"y"}p0], replicated={"z"}, unreduced={"w"}>')
    assert s.dims[0] == sdy.DimSharding((sdy.AxisRef("x", 1, 2),), closed=False, priority=1)
    assert s.dims[1] == sdy.DimSharding((), closed=False)
    assert s.dims[2].priority == 0
    assert s.replicated == (sdy.AxisRef("z"),) and s.unreduced == (sdy.AxisRef("w"),)
    assert sdy.parse_sharding('<@m, [{}], unreduced=max{"a"}>').reduction == "max"
    inline = sdy.parse_sharding('#sdy.sharding<mesh<["a"=2]>, [{"a"}]>')
    assert inline.mesh == sdy.SdyMesh((("a", 2),))
    assert sdy.parse_sharding('#sdy.sharding<@"weird name", []>').mesh == "weird name"
    per_value = sdy.parse_sharding_per_value('#sdy.sharding_per_value<[<@m, [{"a"}]>, <@m, [{}, {"b"}]>]>')
    assert len(per_value) == 2 and per_value[1].dims[1].axes == (sdy.AxisRef("b"),)


@pytest.mark.parametrize(
    "text",
    [
        '#sdy.sharding<@mesh, [{"data"}, {}]>',
        '#sdy.sharding<@m, [{"x":(1)2, ?}p1, {?}, {"y"}p0], replicated={"z"}, unreduced={"w"}>',
        '#sdy.sharding<@m, [{}], unreduced=max{"a", "b":(2)2}>',
        '#sdy.sharding<mesh<["a"=2], device_ids=[1, 0]>, [{"a"}]>',
        "#sdy.sharding<@m, []>",
    ],
)
def test_prints_what_it_parses(text):
    assert sdy.parse_sharding(text).text() == text


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('#sdy.sharding<@m, [{"a"}', "expected"),
        ('#sdy.sharding<@m, [{"a":(1)1}]>', "sub-axis needs"),
        ("#sdy.sharding<@m, [{a}]>", "expected string"),
        ('#sdy.sharding<@m, [], frob={"a"}>', "unknown field"),
        ('#sdy.sharding<@m, [], unreduced=avg{"a"}>', "unknown reduction"),
        ("#sdy.foo<@m, []>", "expected #sdy.sharding"),
        ('#sdy.sharding<@m, [{"a"}]> extra', "unexpected"),
    ],
)
def test_malformed_shardings_say_why_and_show_the_text(text, rule):
    with pytest.raises(FrontendError, match=rule) as e:
        sdy.parse_sharding(text)
    assert text in str(e.value)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('<["a"=0]>', "at least 1"),
        ('<["a"=2, "a"=2]>', "unique"),
        ('<["a"=2], device_ids=[0, 0]>', "permutation"),
        ("<[], device_ids=[0, 1]>", "at most one"),
    ],
)
def test_malformed_meshes(text, rule):
    with pytest.raises(FrontendError, match=rule):
        sdy.parse_mesh(text)


# -- onto this dialect's mesh -----------------------------------------------------------


def _layout(text: str, mesh: sdy.SdyMesh, rank: int) -> tuple[sdy.MeshMapping, Sharding]:
    s = sdy.parse_sharding(text)
    mapping = sdy.refine_mesh(mesh, s.axis_refs())
    return mapping, sdy.to_layout(s, mapping, rank)


def test_named_axes_become_mesh_axes():
    mapping, layout = _layout('#sdy.sharding<@mesh, [{"data"}, {}]>', MESH, 2)
    assert mapping.shape == (2, 4) and mapping.names == ("data", "model")
    assert layout == Sharding(((0,), ()))
    _, layout = _layout('#sdy.sharding<@mesh, [{}, {"model", "data"}]>', MESH, 2)
    assert layout == Sharding(((), (1, 0)))


def test_sub_axes_split_the_axis():
    mesh = sdy.parse_mesh('<["x"=4, "y"=2]>')
    mapping, layout = _layout('#sdy.sharding<@m, [{"x":(1)2}, {"x":(2)2, "y"}]>', mesh, 2)
    assert mapping.shape == (2, 2, 2) and mapping.names == ("x:(1)2", "x:(2)2", "y")
    assert layout == Sharding(((0,), (1, 2)))
    # The full axis is every piece, major first.
    assert sdy.to_layout(sdy.parse_sharding('<@m, [{"x"}, {}]>'), mapping, 2) == Sharding(((0, 1), ()))
    # Sub-axes of an axis of 8 at pre-sizes 1, 2 and 4 give three pieces.
    mesh8 = sdy.parse_mesh('<["x"=8]>')
    mapping, layout = _layout('<@m, [{"x":(2)2}, {"x":(4)2}]>', mesh8, 2)
    assert mapping.shape == (2, 2, 2) and layout == Sharding(((1,), (2,)))


def test_sub_axes_that_do_not_nest_are_refused():
    mesh = sdy.parse_mesh('<["x"=6]>')
    refs = [sdy.AxisRef("x", 1, 2), sdy.AxisRef("x", 1, 3)]
    with pytest.raises(FrontendError, match="must nest"):
        sdy.refine_mesh(mesh, refs)
    with pytest.raises(FrontendError, match="must divide"):
        sdy.refine_mesh(sdy.parse_mesh('<["x"=4]>'), [sdy.AxisRef("x", 2, 4)])
    with pytest.raises(FrontendError, match="not in the mesh"):
        sdy.refine_mesh(MESH, [sdy.AxisRef("nope")])


def test_unreduced_axes_are_partial():
    _, layout = _layout('<@mesh, [{"data"}, {}], unreduced={"model"}>', MESH, 2)
    assert layout == Sharding(((0,), ()), (1,), "sum")
    _, layout = _layout('<@mesh, [{}], unreduced=max{"model"}>', MESH, 1)
    assert layout == Sharding((), (1,), "max")


def test_open_dims_keep_their_axes_and_hints_are_dropped():
    _, layout = _layout('<@mesh, [{"data", ?}p2, {?}], replicated={"model"}>', MESH, 2)
    assert layout == Sharding(((0,), ()))


def test_rank_and_reuse_are_checked():
    with pytest.raises(FrontendError, match="one dimension per tensor dimension"):
        _layout('<@mesh, [{"data"}]>', MESH, 2)
    with pytest.raises(FrontendError, match="only one dimension once"):
        _layout('<@mesh, [{"data"}, {"data"}]>', MESH, 2)


# -- and back: sdy -> ours -> sdy ----------------------------------------------------


def _round_trip(text: str, mesh: sdy.SdyMesh, rank: int, extra_refs=()) -> str:
    s = sdy.parse_sharding(text)
    mapping = sdy.refine_mesh(mesh, list(s.axis_refs()) + list(extra_refs))
    layout = sdy.to_layout(s, mapping, rank)
    back_mesh, refs = sdy.mesh_from_names(mapping.shape, mapping.names)
    assert back_mesh == sdy.SdyMesh(mesh.axes)
    return sdy.from_layout(layout, "m", back_mesh, refs, rank).text()


@pytest.mark.parametrize(
    "text",
    [
        '#sdy.sharding<@m, [{"x"}, {}]>',
        '#sdy.sharding<@m, [{"y", "x"}, {}]>',
        '#sdy.sharding<@m, [{"x":(1)2}, {"x":(2)2, "y"}]>',
        '#sdy.sharding<@m, [{"x":(2)2}, {}], unreduced={"y"}>',
        '#sdy.sharding<@m, [{}, {}], unreduced={"x":(1)2, "y"}>',
        '#sdy.sharding<@m, [{"z"}, {"x"}]>',
    ],
)
def test_round_trips(text):
    mesh = sdy.parse_mesh('<["x"=4, "y"=2, "z"=3]>')
    assert _round_trip(text, mesh, 2) == text


def test_every_closed_sharding_of_a_small_mesh_round_trips():
    """All closed shardings of a rank-2 tensor on ["x"=4, "y"=2] with full
    axes and x's halves, on the finest mesh they need: back where they began."""
    mesh = sdy.parse_mesh('<["x"=4, "y"=2]>')
    halves = [sdy.AxisRef("x", 1, 2), sdy.AxisRef("x", 2, 2)]
    atoms = [[sdy.AxisRef("x")], [sdy.AxisRef("y")], [halves[0]], [halves[1]]]
    count = 0
    for dims in itertools.product(range(6), repeat=2):
        choices = [[], atoms[0], atoms[1], atoms[2], atoms[3], atoms[1] + atoms[2]]
        d0, d1 = choices[dims[0]], choices[dims[1]]
        names = [(r.name, r.pre_size, r.size) for r in d0 + d1]
        full_x = any(n == "x" and s is None for n, _, s in names)
        if len(set(names)) != len(names) or (full_x and sum(n == "x" for n, _, _ in names) > 1):
            continue
        if sum(n == "y" for n, _, _ in names) > 1:
            continue
        text = sdy.TensorSharding("m", (sdy.DimSharding(tuple(d0)), sdy.DimSharding(tuple(d1)))).text()
        assert _round_trip(text, mesh, 2, extra_refs=halves) == text
        count += 1
    assert count > 15


def test_adjacent_pieces_merge_into_the_axis():
    mesh = sdy.parse_mesh('<["x"=4]>')
    mapping = sdy.refine_mesh(mesh, [sdy.AxisRef("x", 1, 2)])
    back_mesh, refs = sdy.mesh_from_names(mapping.shape, mapping.names)
    assert sdy.from_layout(Sharding(((0, 1),)), "m", back_mesh, refs, 1).text() == '#sdy.sharding<@m, [{"x"}]>'


def test_meshes_without_names_get_numbered_axes():
    mesh, refs = sdy.mesh_from_names((2, 4), None)
    assert mesh.text() == '<["axis0"=2, "axis1"=4]>'
    assert sdy.from_layout(Sharding(((1,),), (0,)), "mesh", mesh, refs, 2).text() == (
        '#sdy.sharding<@mesh, [{"axis1"}, {}], unreduced={"axis0"}>'
    )
    assert sdy.partition_spec(sdy.parse_sharding('<@m, [{}, {"a", "b"}, {"c"}, {}]>')) == "P(None, ('a', 'b'), 'c')"


# -- end to end: the imported program partitions and runs as the plain one does --------

_ANNOTATED = """
"sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> : () -> ()
func.func @f(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
             %w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model":(1)2}]>},
             %w2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model", ?}]>}) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%i : tensor<8x32xf32>) -> tensor<8x32xf32>
  %c = "sdy.sharding_constraint"(%h) <{sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}>
      : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = func.call @relu(%c) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %i2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%i2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
func.func private @relu(%a: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.maximumf %v, %z : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}
"""


def _plain(text: str) -> str:
    """The same program with every sharding taken out by hand."""
    import re

    out = re.sub(r" \{sdy\.sharding = #sdy\.sharding<@mesh, \[[^>]*\]>\}", "", text)
    out = re.sub(r'"sdy\.mesh".*\n', "", out)
    cast = "tensor.cast %h : tensor<8x32xf32> to tensor<8x32xf32>\n"
    return re.sub(r'"sdy\.sharding_constraint"\(%h\) <\{[^\n]*\n[^\n]*\n', cast, out)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, name
    return found


def test_imported_program_partitions_and_runs_as_the_plain_one(tmp_path):
    annotated = tmp_path / "annotated.mlir"
    annotated.write_text(_ANNOTATED)
    plain = tmp_path / "plain.mlir"
    plain.write_text(_plain(_ANNOTATED))
    assert "sdy" not in plain.read_text()
    spmd = tmp_path / "spmd.mlir"
    opt = subprocess.run(
        [
            _tool("mesh-opt"),
            "--allow-unregistered-dialect",
            "--import-shardings",
            "--sharding-propagation",
            "--mesh-partition",
            str(annotated),
            "-o",
            str(spmd),
        ],
        capture_output=True,
        text=True,
    )
    assert opt.returncode == 0, opt.stderr
    text = spmd.read_text()
    assert "sdy" not in text and "mesh.shard " not in text and "@relu" not in text
    # "model":(1)2 split the mesh: data, then model's two halves.
    assert "mesh.mesh @mesh(shape = 2x2x2)" in text
    assert "#mesh.sharding<@mesh, [[], [1]]>" in text  # w1: columns over model's first half
    for seed in ("1", "4"):
        run = subprocess.run(
            [_tool("mesh-run"), str(spmd), "--compare-with", str(plain), "-q", "--seed", seed],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0 and run.stdout.strip().endswith("match"), run.stdout + run.stderr


def test_export_round_trips_the_signature(tmp_path):
    """import then export gives back the signature JAX wrote (the open
    dimension is closed on what it listed)."""
    annotated = tmp_path / "annotated.mlir"
    annotated.write_text(_ANNOTATED)
    out = subprocess.run(
        [
            _tool("mesh-opt"),
            "--allow-unregistered-dialect",
            "--import-shardings",
            "--sharding-propagation",
            "--export-shardings",
            str(annotated),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert '"sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}>' in out.stdout
    for attr in (
        '{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}',
        '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model":(1)2}]>}',
        '{sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}',
        '-> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})',
    ):
        assert attr in out.stdout, attr
    assert "mesh.shard" not in out.stdout and "mesh.mesh" not in out.stdout
