"""Pictures of layouts (`mesh_dialect.viz`, `mesh-viz`): the tiles are exact,
the SVG and HTML hold what the tiles say, and the HTML page's script draws
them in a real browser when one is installed."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

import mesh_dialect
from mesh_dialect.sharding.resharding import plan_resharding
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.tools import mesh_viz
from mesh_dialect.viz import LayoutError, compute_layout, terminal, visualize
from mesh_dialect.viz.html import to_html
from mesh_dialect.viz.program import function_layouts
from mesh_dialect.viz.svg import to_svg

SVG = "{http://www.w3.org/2000/svg}"


def tiles(layout):
    """(bounds, replicas) of every tile, in grid order."""
    return [(t.bounds, t.replicas) for t in layout.tiles]


# -- which device holds which tile -------------------------------------------


def test_even_2d_mesh_both_dims():
    layout = compute_layout([8, 16], [2, 2], [[0], [1]])
    assert layout.grid == (2, 2)
    assert tiles(layout) == [
        (((0, 4), (0, 8)), ((0,),)),
        (((0, 4), (8, 16)), ((1,),)),
        (((4, 8), (0, 8)), ((2,),)),
        (((4, 8), (8, 16)), ((3,),)),
    ]
    assert layout.row_sizes == (4, 4) and layout.column_sizes == (8, 8)


def test_replicated_axis_lists_every_copy():
    # columns over mesh axis 1: devices (0, b) and (1, b) hold the same tile
    layout = compute_layout([8, 16], [2, 2], [[], [1]])
    assert tiles(layout) == [(((0, 8), (0, 8)), ((0,), (2,))), (((0, 8), (8, 16)), ((1,), (3,)))]
    assert [t.label() for t in layout.tiles] == ["0, 2", "1, 3"]
    assert layout.device_tile(3) is layout.tiles[1]


def test_two_axes_on_one_dimension_in_order():
    # [1, 0]: mesh axis 1 outermost, so piece p = b * 2 + a
    assert [t.devices for t in compute_layout([8], [2, 2], [[0, 1]]).tiles] == [(0,), (1,), (2,), (3,)]
    assert [t.devices for t in compute_layout([8], [2, 2], [[1, 0]]).tiles] == [(0,), (2,), (1,), (3,)]


def test_uneven_default_cut_and_offsets():
    layout = compute_layout([7], [3], [[0]])
    assert [t.bounds for t in layout.tiles] == [((0, 2),), ((2, 4),), ((4, 7),)]
    assert layout.column_sizes == (2, 2, 3)
    given = compute_layout([7], [3], Sharding(((0,),), sharded_dims_offsets=(0, 1, 5, 7)))
    assert [t.bounds for t in given.tiles] == [((0, 1),), ((1, 5),), ((5, 7),)]
    # 10 rows over 4: 2, 2, 3, 3 on a 4x2 mesh
    rows = compute_layout([10, 16], [4, 2], [[0], [1]])
    assert rows.row_sizes == (2, 2, 3, 3)
    assert [t.bounds[0] for t in rows.tiles[::2]] == [(0, 2), (2, 4), (4, 7), (7, 10)]


def test_partial_groups_terms_per_copy():
    layout = compute_layout([8, 4], [2, 2, 2], Sharding(((0,),), (1,)))
    assert tiles(layout) == [
        (((0, 4), (0, 4)), ((0, 2), (1, 3))),
        (((4, 8), (0, 4)), ((4, 6), (5, 7))),
    ]
    assert [t.label() for t in layout.tiles] == ["0+2, 1+3", "4+6, 5+7"]
    assert layout.partial_note == "partial sum over mesh axis 1: devices joined by + hold terms"
    whole_max = compute_layout([4], [2], Sharding((), (0,), "max"))
    assert tiles(whole_max) == [(((0, 4),), ((0, 1),))]
    assert "partial max" in whole_max.partial_note


def test_halos_clipped_at_the_edges():
    layout = compute_layout([16, 4], [4], Sharding(((0,),), halo_sizes=(1, 2)))
    assert [t.halo for t in layout.tiles] == [
        ((0, 2), (0, 0)),
        ((1, 2), (0, 0)),
        ((1, 2), (0, 0)),
        ((1, 0), (0, 0)),
    ]
    # every holder carries both halos, even at the edge
    assert layout.local_shape(layout.tiles[0]) == (7, 4)
    assert layout.halo_note == "halos (dim 0: 1 before, 2 after)"


def test_scalar_and_rank_three():
    scalar = compute_layout([], [4], [])
    assert scalar.grid == (1, 1) and tiles(scalar) == [((), ((0,), (1,), (2,), (3,)))]
    cube = compute_layout([4, 6, 8], [2, 2], [[0], [], [1]])
    assert cube.grid == (2, 2) and cube.row_sizes == (12, 12)
    assert [t.index for t in cube.tiles] == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]


def test_bad_layouts_are_layout_errors():
    with pytest.raises(LayoutError, match="mesh axis 2 is out of range"):
        compute_layout([8], [2, 2], [[2]])
    with pytest.raises(LayoutError, match="limited to 65536 devices"):
        compute_layout([8], [512, 512], [[0]])
    with pytest.raises(LayoutError, match="invalid mesh"):
        compute_layout([8], [0], [[0]])
    with pytest.raises(LayoutError, match="limited to 4096 tiles"):
        compute_layout([128, 128], [128, 128], [[0], [1]])


# -- the terminal picture --------------------------------------------------------


# A tensor split over axis 0 with partial sums over axis 1 of a 2x2 mesh,
# 24 columns wide: the picture both the API and the CLI draw.
_PARTIAL_2X2 = [
    "┌──────────────────────┐",
    "│         0+1          │",
    "│                      │",
    "├──────────────────────┤",
    "│         2+3          │",
    "│                      │",
    "└──────────────────────┘",
    "partial sum over mesh axis 1: devices joined by + hold terms",
]


def test_terminal_picture_exact():
    text = terminal.to_text(compute_layout([4, 8], [2, 2], Sharding(((0,),), (1,))), width=24)
    assert text == "\n".join(
        [
            "tensor<4x8xf32> on mesh 2x2: split_axes = [[0]] partial = sum [1]",
            *_PARTIAL_2X2,
        ]
    )
    uneven = terminal.to_text(compute_layout([7], [3], [[0]]), width=30).splitlines()
    assert uneven[1:] == [
        "┌───────┬───────┬───────────┐",
        "│   0   │   1   │     2     │",
        "└───────┴───────┴───────────┘",
    ]


def test_terminal_labels_runs_and_halos():
    layout = compute_layout([8, 8], [2, 2], Sharding(((0,), (1,)), halo_sizes=(1, 1, 1, 1)))
    assert [terminal.tile_lines(layout, t) for t in layout.tiles] == [
        ["0", "halo ↓1 →1"],
        ["1", "halo ↓1 ←1"],
        ["2", "halo ↑1 →1"],
        ["3", "halo ↑1 ←1"],
    ]
    whole = compute_layout([4], [2, 4], [])
    assert terminal.tile_lines(whole, whole.tiles[0]) == ["0-7"]


def test_visualize_plain_and_coloured():
    out = io.StringIO()
    layout = visualize([8, 16], [2, 2], [[0], [1]], file=out, color=False)
    assert "\x1b[" not in out.getvalue() and "│" in out.getvalue()
    assert [t.devices for t in layout.tiles] == [(0,), (1,), (2,), (3,)]
    coloured = io.StringIO()
    visualize([8, 16], [2, 2], [[0], [1]], file=coloured, color=True)
    assert "\x1b[" in coloured.getvalue()
    # the same characters once the colours are stripped
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.getvalue()).replace("\x1b[1m", "") == out.getvalue()
    # not a terminal: plain, whatever rich could do
    auto = io.StringIO()
    visualize([8, 16], [2, 2], [[0], [1]], file=auto)
    assert auto.getvalue() == out.getvalue()


def test_rich_spans_carry_the_tile_colours():
    pytest.importorskip("rich")
    text = terminal.to_rich(compute_layout([4], [2], [[0]]), width=20)
    styles = {str(span.style) for span in text.spans}
    assert f"{terminal.text_colour(terminal.PALETTE[0])} on {terminal.PALETTE[0]}" in styles
    assert any(terminal.PALETTE[1] in s for s in styles)


def test_without_rich_the_picture_is_plain(monkeypatch):
    monkeypatch.setattr(terminal, "_rich_available", lambda: False)
    out = io.StringIO()
    visualize([4], [2], [[0]], file=out, color=True)
    assert "\x1b[" not in out.getvalue()
    assert not terminal.colour_wanted(out, True)


def test_top_level_export():
    assert mesh_dialect.visualize is visualize


# -- SVG --------------------------------------------------------------------------


def _svg(text: str) -> ET.Element:
    return ET.fromstring(text.split("\n", 1)[1])  # past the XML declaration


def test_svg_tiles_labels_and_halos():
    layout = compute_layout([8, 8], [2, 2], Sharding(((0,), (1,)), halo_sizes=(1, 1, 1, 1)))
    root = _svg(to_svg(layout))
    assert root.tag == SVG + "svg"
    rects = root.findall(f".//{SVG}rect[@class='tile']")
    assert [r.get("data-devices") for r in rects] == ["0", "1", "2", "3"]
    assert {r.get("fill") for r in rects} == set(terminal.PALETTE[:4])
    labels = [t.text for t in root.findall(f".//{SVG}text[@class='label']")]
    assert labels == ["0", "halo ↓1 →1", "1", "halo ↓1 ←1", "2", "halo ↑1 →1", "3", "halo ↑1 ←1"]
    halos = root.findall(f".//{SVG}rect[@class='halo']")
    assert len(halos) == 4
    # the halo outline of tile 0 grows down and right by one row/column of cells
    tile0, halo0 = rects[0], halos[0]
    assert float(halo0.get("x")) == float(tile0.get("x"))
    assert float(halo0.get("width")) == pytest.approx(float(tile0.get("width")) * 5 / 4)
    assert float(halo0.get("height")) == pytest.approx(float(tile0.get("height")) * 5 / 4)
    assert (
        root.find(f".//{SVG}text[@class='note']").text == "halos (dim 0: 1 before, 1 after; dim 1: 1 before, 1 after)"
    )


def test_svg_stacks_several_layouts_and_sizes_uneven_pieces():
    items = [
        ("%a", compute_layout([7], [3], [[0]])),
        ("%b", compute_layout([8, 4], [2, 2, 2], Sharding(((0,),), (1,)))),
    ]
    root = _svg(to_svg(items))
    groups = root.findall(f"{SVG}g[@class='layout']")
    assert [g.find(f"{SVG}text[@class='title']").text for g in groups] == ["%a", "%b"]
    widths = [float(r.get("width")) for r in groups[0].findall(f"{SVG}rect[@class='tile']")]
    assert widths[0] == widths[1] < widths[2]
    assert [t.text for t in groups[1].findall(f"{SVG}text[@class='label']")] == ["0+2, 1+3", "4+6, 5+7"]
    assert "partial sum" in groups[1].find(f"{SVG}text[@class='note']").text
    # the second layout is drawn below the first
    y_a = max(float(r.get("y")) for r in groups[0].findall(f"{SVG}rect"))
    assert min(float(r.get("y")) for r in groups[1].findall(f"{SVG}rect")) > y_a


# -- layouts read from a program ----------------------------------------------------

ANNOTATED = """\
mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xa = mesh.shard %x to %s : tensor<8x16xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %xb = mesh.shard %xa to %s2 annotate_for_users : tensor<8x16xf32>
  %p:2 = "foo.bar"(%xb) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %s3 = mesh.sharding @mesh split_axes = [[0]] partial = sum [1] : !mesh.sharding
  %pa = mesh.shard %p#1 to %s3 : tensor<8x16xf32>
  %pb = mesh.shard %pa to %s annotate_for_users : tensor<8x16xf32>
  %h = mesh.sharding @mesh split_axes = [[0]] halo_sizes = [1, 1] : !mesh.sharding
  %pc = mesh.shard %pa to %h annotate_for_users : tensor<8x16xf32>
  return %pb : tensor<8x16xf32>
}
"""

PER_DEVICE = """\
mesh.mesh @mesh(shape = 2x2)
func.func @g(%x: tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
             %u: tensor<?x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[1]], sharded_dims_offsets = [0, 1, 5]>},
             %r: tensor<3xf32>)
    -> (tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], partial = sum [1]>}) {
  return %x : tensor<4x16xf32>
}
"""


def _functions(text: str, name: str = "model.mlir"):
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(text, filename=name, context=ctx)
    return function_layouts(module, text)


def test_program_values_named_as_written_and_reshards_planned():
    (f,) = _functions(ANNOTATED)
    assert not f.per_device
    assert [(v.name, v.what, v.line) for v in f.values] == [
        ("%x", "annotation", 4),
        ("%xa", "annotation for users", 6),
        ("%p#1", "annotation", 9),
        ("%pa", "annotation for users", 10),
        ("%pa", "annotation for users", 12),
    ]
    assert f.values[0].argument == 0 and "%arg0" in f.values[0].aliases
    assert [v.title for v in f.select("0")] == ["%x (annotation at 4:9, as %xa)"]
    # %pa is the result of the annotation at line 9 and is annotated at 10 and 12
    assert [v.line for v in f.select("%pa")] == [9, 10, 12]
    assert [v.line for v in f.select("xb")] == [6]  # an annotation's own result
    shape = (8, 16)
    expected = [
        (Sharding(((0,),)), Sharding(((), (1,)))),
        (Sharding(((0,),), (1,)), Sharding(((0,),))),
        (Sharding(((0,),), (1,)), Sharding(((0,),), halo_sizes=(1, 1))),
    ]
    assert [(r.source, r.target) for r in f.reshards] == expected
    for r, (source, target) in zip(f.reshards, expected):
        plan = plan_resharding(shape, (2, 2), source, target, element_bytes=4)
        assert r.bytes_received == plan.bytes_received and r.lower_bound == plan.lower_bound
        assert r.steps == tuple(str(s) for s in plan.steps)
    assert f.reshards[1].steps == ("all_reduce mesh_axes = [1] reduction = <sum>",)
    assert f.values[4].layout.tiles[0].halo == ((0, 1), (0, 0))


def test_per_device_signature_gives_global_layouts():
    (f,) = _functions(PER_DEVICE)
    assert f.per_device
    by_name = {v.name: v for v in f.values}
    assert by_name["%x"].layout.shape == (8, 16)
    assert [t.devices for t in by_name["%x"].layout.tiles] == [(0, 1), (2, 3)]
    # uneven pieces written as offsets: the whole size is their end
    assert by_name["%u"].layout.shape == (5, 8)
    assert [t.bounds[0] for t in by_name["%u"].layout.tiles] == [(0, 1), (1, 5)]
    # no layout in a per-device signature: every device holds it whole
    assert by_name["%r"].layout.tiles[0].devices == (0, 1, 2, 3)
    result = [v for v in f.values if v.what == "result 0"][0]
    assert result.layout.tiles[0].label() == "0+1"


def test_program_problems_are_reported_not_raised():
    text = """\
mesh.mesh @m(shape = 2x?)
mesh.mesh @n(shape = 2)
func.func @f(%x: tensor<?x4xf32>, %y: tensor<4xf32>) {
  %s = mesh.sharding @n split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<?x4xf32>
  %t = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %y to %t : tensor<4xf32>
  return
}
"""
    (f,) = _functions(text)
    assert [v.problem for v in f.values] == [
        "the shape of tensor<?x4xf32> is known only at run time",
        "mesh @m has a size known only at run time",
    ]


# -- the HTML page -----------------------------------------------------------------


class _Page(HTMLParser):
    """What a test reads of a page: the embedded data, the reshard table's
    rows, the text inside <noscript>, and every external reference."""

    def __init__(self) -> None:
        super().__init__()
        self.data_text = ""
        self.rows: list[list[str]] = []
        self.noscript = ""
        self.external: list[str] = []
        self._in: list[str] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if key in a:
                self.external.append(a[key])
        if tag in ("br", "meta", "link", "img", "hr"):  # void: no end tag follows
            if tag == "br" and self._cell is not None:
                self._cell.append("\n")
            return
        self._in.append(tag if a.get("id") != "mesh-viz-data" else "data")
        if tag == "tr" and a.get("class") == "reshard":
            self._row = []
        if tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if self._in:
            self._in.pop()
        if tag == "td" and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if "data" in self._in:
            self.data_text += data
        if "noscript" in self._in:
            self.noscript += data
        if self._cell is not None:
            self._cell.append(data)


def _page(text: str = ANNOTATED) -> tuple[str, _Page, dict]:
    html = to_html(_functions(text), "model.mlir")
    parser = _Page()
    parser.feed(html)
    return html, parser, json.loads(parser.data_text)


def test_html_page_content():
    html, page, data = _page()
    assert page.external == []  # self-contained
    assert html.startswith("<!DOCTYPE html>") and "<title>Layouts of @f in model.mlir</title>" in html
    (fn,) = data["functions"]
    assert [v["name"] for v in fn["values"]] == ["%x", "%xa", "%p#1", "%pa", "%pa"]
    first = fn["values"][0]["layout"]
    assert [t["devices"] for t in first["tiles"]] == [[0, 1], [2, 3]]
    assert first["tiles"][0]["color"] == terminal.PALETTE[0]
    # the last: all_reduce (256) then update_halo (a 16-element row each way: 64 of them received)
    assert [r["bytes_received"] for r in fn["reshards"]] == [128, 256, 320]
    assert [row[0] for row in page.rows] == ["%xa", "%pa", "%pa"]
    assert page.rows[1][1] == "10:9" and page.rows[1][4] == "all_reduce mesh_axes = [1] reduction = <sum>"
    assert [row[5] for row in page.rows] == ["128", "256", "320"]
    assert page.rows[2][4].splitlines() == [
        "all_reduce mesh_axes = [1] reduction = <sum>",
        "update_halo split_axes = [[0]] halo_sizes = [] -> [1, 1]",
    ]
    assert "total" in html and ">704<" in html
    # without scripts, the pictures are there as text
    assert "%p#1 (annotation at 9:9, as %pa)" in page.noscript and "0+1" in page.noscript


def test_html_data_cannot_close_its_script():
    text = ANNOTATED.replace("@f(", '@"f</script><b>"(')
    html, page, data = _page(text)
    assert data["functions"][0]["name"] == "f</script><b>"
    assert html.count("</script>") == 2


def _browser() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(_browser() is None, reason="no headless browser (Debian package chromium)")
def test_html_page_renders_in_a_browser(tmp_path: Path):
    page_path = tmp_path / "page.html"
    page_path.write_text(to_html(_functions(ANNOTATED) + _functions(PER_DEVICE), "model.mlir"), encoding="utf-8")
    profile = tmp_path / "profile"
    command = [
        _browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--dump-dom",
        page_path.as_uri(),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert 'data-rendered="true"' in dom
    drawn = re.findall(r'<div class="tile(?: halo)?" data-devices="([0-9 ]+)"', dom)
    # f: 2 + 2 + 2 + 2 + 2 tiles; g: %x 2, %u 2, %r 1, result 2
    assert len(drawn) == 17
    assert re.search(r'data-tiles="17"', dom)
    assert drawn[:2] == ["0 1", "2 3"]
    assert '<span class="label">0+1</span>' in dom
    assert '<span class="halo-text">halo ↓1</span>' in dom
    assert '<figure class="value" data-name="%u">' in dom


# -- mesh-viz ---------------------------------------------------------------------


def _run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = mesh_viz.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def annotated(tmp_path: Path) -> Path:
    path = tmp_path / "model.mlir"
    path.write_text(ANNOTATED, encoding="utf-8")
    return path


def test_cli_terminal(annotated: Path):
    code, out, err = _run([str(annotated), "--allow-unregistered-dialect", "--no-color", "--width", "24"])
    assert code == 0 and err == ""
    assert out.splitlines()[:2] == [
        "func @f",
        "%x (annotation at 4:9, as %xa): tensor<8x16xf32> on @mesh 2x2: split_axes = [[0]]",
    ]
    assert "\x1b[" not in out
    assert "reshard %pa at 10:9: split_axes = [[0]] partial = sum [1] -> split_axes = [[0]]: " in out
    assert "256 bytes received per device (lower bound 256)" in out
    code, out, _ = _run([str(annotated), "--allow-unregistered-dialect", "--value", "%p#1", "--width", "24"])
    assert code == 0
    assert out.splitlines()[1:] == [
        "%p#1 (annotation at 9:9, as %pa): tensor<8x16xf32> on @mesh 2x2: split_axes = [[0]] partial = sum [1]",
        *_PARTIAL_2X2,
    ]


def test_cli_svg_and_html_files(annotated: Path, tmp_path: Path):
    svg, html = tmp_path / "x.svg", tmp_path / "p.html"
    code, out, err = _run(
        [str(annotated), "--allow-unregistered-dialect", "--value", "0", "--svg", str(svg), "--html", str(html)]
    )
    assert (code, out, err) == (0, "", "")
    root = _svg(svg.read_text(encoding="utf-8"))
    assert len(root.findall(f".//{SVG}rect[@class='tile']")) == 2
    assert root.find(f".//{SVG}text[@class='title']").text == "%x (annotation at 4:9, as %xa)"
    parser = _Page()
    parser.feed(html.read_text(encoding="utf-8"))
    assert len(json.loads(parser.data_text)["functions"][0]["values"]) == 5  # the page shows the whole function
    assert sorted(os.listdir(tmp_path)) == ["model.mlir", "p.html", "x.svg"]  # no temporary file left


def test_cli_refusals(annotated: Path, tmp_path: Path):
    code, out, err = _run([str(annotated), "--allow-unregistered-dialect", "--function", "nope"])
    assert code == 1 and err == f"mesh-viz: error: no function @nope in '{annotated}' (functions: @f)\n"
    code, _, err = _run([str(annotated), "--allow-unregistered-dialect", "--value", "%zz"])
    assert code == 1 and "no layout of %zz" in err and "%p#1" in err
    # an unwritable output: one line, exit 1, nothing left behind, the old file kept
    (tmp_path / "dir").mkdir()
    code, _, err = _run([str(annotated), "--allow-unregistered-dialect", "--svg", str(tmp_path / "dir")])
    assert code == 1 and err == f"mesh-viz: cannot write output file '{tmp_path / 'dir'}': Is a directory\n"
    code, _, err = _run([str(tmp_path / "missing.mlir")])
    assert code == 1 and "could not open input file" in err


def test_cli_bad_input_is_a_positioned_diagnostic(tmp_path: Path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n  %0 = mesh.sharding @m split_axes = [[3]] : !mesh.sharding\n"
        "  return\n}\n",
        encoding="utf-8",
    )
    code, out, err = _run([str(bad)])
    assert code == 1 and out == ""
    assert err.startswith(f"{bad}:3:8: error: 'mesh.sharding' op mesh axis 3 is out of range for mesh @m of rank 1\n")
    assert "Traceback" not in err
    # unregistered ops are refused unless allowed, at their position
    code, _, err = _run([str(tmp_path / "m.mlir")])
    (tmp_path / "m.mlir").write_text(ANNOTATED, encoding="utf-8")
    code, _, err = _run([str(tmp_path / "m.mlir")])
    assert code == 1 and err.startswith(f"{tmp_path / 'm.mlir'}:7:")


def test_cli_as_a_module_from_stdin():
    done = subprocess.run(
        [sys.executable, "-m", "mesh_dialect.tools.mesh_viz", "-", "--value", "1", "--width", "30"],
        input=PER_DEVICE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == (
        "%u (argument 1 at 3:14): tensor<5x8xf32> on @mesh 2x2: split_axes = [[1]] sharded_dims_offsets = [0, 1, 5]"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mesh_dialect.tools.mesh_viz", "-"],
        input="func.func @f( {",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and re.match(r"<stdin>:1:\d+: error: ", done.stderr) and "Traceback" not in done.stderr


def test_svg_of_nothing_drawable_says_why(tmp_path: Path):
    """When every layout is refused for one reason (a mesh too large to
    draw), --svg names it, as the terminal view does, and writes nothing."""
    path = tmp_path / "huge.mlir"
    path.write_text(
        "mesh.mesh @m(shape = 100000)\n"
        "func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
        "  %xs = mesh.shard %x to %s : tensor<8xf32>\n"
        "  return %xs : tensor<8xf32>\n"
        "}\n",
        encoding="utf-8",
    )
    code, _, err = _run([str(path), "--svg", str(tmp_path / "out.svg")])
    assert (code, err) == (
        1,
        f"mesh-viz: error: nothing to draw in '{path}': not drawn: "
        "drawing is limited to 65536 devices, got a mesh of 100000\n",
    )
    assert not (tmp_path / "out.svg").exists()
