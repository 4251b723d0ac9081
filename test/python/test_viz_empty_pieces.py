"""Empty pieces in pictures: a device whose piece is empty (uneven offsets,
or the default cut of fewer elements than pieces) gets no row or column of
its own, and every renderer's legend names it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import mesh_dialect
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.viz import compute_layout, terminal
from mesh_dialect.viz.html import page_data, to_html
from mesh_dialect.viz.program import function_layouts
from mesh_dialect.viz.svg import to_svg

SVG = "{http://www.w3.org/2000/svg}"

ROWS = compute_layout([6, 4], [4], Sharding(((0,),), sharded_dims_offsets=(0, 3, 3, 5, 6)))
"""The reported case: device 1 holds rows 3:3."""


def _drawn_labels(text: str) -> list[str]:
    return [line.strip("│ ") for line in text.splitlines() if line.startswith("│") and line.strip("│ ")]


def test_empty_row_is_hidden_and_named():
    assert ROWS.hidden_rows == {1} and not ROWS.hidden_columns
    assert [ROWS.is_hidden(n) for n in range(4)] == [False, True, False, False]
    assert ROWS.empty_devices == (1,)
    assert ROWS.empty_note == "device 1 holds an empty piece"
    text = terminal.to_text(ROWS, width=24)
    assert _drawn_labels(text) == ["0", "2", "3"]
    assert text.count("├") == 2  # three rows drawn, not four
    assert text.splitlines()[-1] == "device 1 holds an empty piece"


def test_picture_owners_never_name_a_hidden_tile():
    owners = {t for row in terminal.picture(ROWS, width=24).owners for t in row}
    assert owners == {-1, 0, 2, 3}


def test_empty_column_and_replicas_share_the_note():
    # split dim 1 over mesh axis 1, axis 0 replicated: the empty column's two copies are both named
    layout = compute_layout([4, 6], [2, 2], Sharding(((), (1,)), sharded_dims_offsets=(0, 6, 6)))
    assert layout.hidden_columns == {1} and not layout.hidden_rows
    assert layout.empty_note == "devices 1, 3 hold empty pieces"
    assert _drawn_labels(terminal.to_text(layout, width=24)) == ["0, 2"]


def test_two_d_tile_is_empty_when_its_row_or_column_is():
    layout = compute_layout([4, 6], [2, 3], Sharding(((0,), (1,)), sharded_dims_offsets=(0, 4, 4, 0, 3, 3, 6)))
    assert layout.hidden_rows == {1} and layout.hidden_columns == {1}
    assert [n for n in range(6) if layout.is_hidden(n)] == [1, 3, 4, 5]
    assert layout.empty_note == "devices 1, 3-5 hold empty pieces"
    text = terminal.to_text(layout, width=40)
    assert _drawn_labels(text) == ["0         │        2"]
    assert "┼" not in text


def test_rank_three_rows_flatten_the_leading_pieces():
    layout = compute_layout([2, 3, 4], [2, 2], Sharding(((0,), (1,)), sharded_dims_offsets=(0, 2, 2, 0, 0, 3)))
    assert layout.grid == (4, 1)
    assert layout.hidden_rows == {0, 2, 3}
    assert layout.empty_devices == (0, 2, 3)


def test_partial_terms_of_an_empty_piece():
    layout = compute_layout([3, 4], [4, 2], Sharding(((0,),), (1,), sharded_dims_offsets=(0, 1, 1, 1, 3)))
    assert layout.empty_note == "devices 2-5 hold empty pieces"
    assert _drawn_labels(terminal.to_text(layout, width=24)) == ["0+1", "6+7"]


def test_default_cut_with_halos_points_only_at_drawn_tiles():
    # 2 rows over 4 devices: devices 0 and 1 hold nothing but would read halos
    layout = compute_layout([2, 4], [4], Sharding(((0,),), halo_sizes=(1, 1)))
    assert layout.hidden_rows == {0, 1}
    lines = [terminal.tile_lines(layout, t) for n, t in enumerate(layout.tiles) if not layout.is_hidden(n)]
    assert lines == [["2", "halo ↓1"], ["3", "halo ↑1"]]
    text = terminal.to_text(layout, width=24)
    assert text.splitlines()[-2:] == ["halos (dim 0: 1 before, 1 after)", "devices 0, 1 hold empty pieces"]


def test_zero_size_dimension_is_drawn_as_before():
    layout = compute_layout([0, 4], [4], [[0]])
    assert not layout.hidden_rows and not layout.empty_devices and layout.empty_note == ""
    assert _drawn_labels(terminal.to_text(layout, width=24)) == ["0", "1", "2", "3"]
    # the 0-size dimension keeps its rows; an empty piece of the other one is still hidden
    mixed = compute_layout([0, 4], [2, 2], Sharding(((0,), (1,)), sharded_dims_offsets=(0, 0, 0, 0, 0, 4)))
    assert not mixed.hidden_rows and mixed.hidden_columns == {0}
    assert mixed.empty_note == "devices 0, 2 hold empty pieces"


def test_even_layouts_have_nothing_hidden():
    layout = compute_layout([8, 16], [2, 2], [[0], [1]])
    assert layout.empty_note == "" and layout.to_json()["hidden_rows"] == []
    assert compute_layout([], [4], []).empty_devices == ()


def test_json_carries_the_empty_pieces():
    data = ROWS.to_json()
    assert data["empty"] == "device 1 holds an empty piece"
    assert data["empty_devices"] == [1]
    assert data["hidden_rows"] == [1] and data["hidden_columns"] == []
    assert [t["hidden"] for t in data["tiles"]] == [False, True, False, False]
    json.dumps(data)


def test_svg_leaves_out_the_empty_tile():
    root = ET.fromstring(to_svg(ROWS))
    rects = root.findall(f".//{SVG}rect[@class='tile']")
    assert [r.get("data-devices") for r in rects] == ["0", "2", "3"]
    # the drawn rows touch: no gap where device 1's row was
    assert float(rects[0].get("y")) + float(rects[0].get("height")) == pytest.approx(float(rects[1].get("y")))
    notes = [t.text for t in root.findall(f".//{SVG}text[@class='note']")]
    assert notes == ["device 1 holds an empty piece"]


PROGRAM = """
mesh.mesh @m(shape = 4)
func.func @f(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 3, 3, 5, 6] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}
"""


def _functions():
    module = mesh_dialect.parse(PROGRAM, filename="vz.mlir", context=mesh_dialect.context())
    return function_layouts(module, PROGRAM)


def test_html_page_data_marks_hidden_tiles():
    (value,) = page_data(_functions())["functions"][0]["values"]
    assert value["layout"]["empty"] == "device 1 holds an empty piece"
    assert [t["hidden"] for t in value["layout"]["tiles"]] == [False, True, False, False]


def _browser() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(_browser() is None, reason="no headless browser (Debian package chromium)")
def test_html_page_draws_no_empty_tile(tmp_path: Path):
    page = tmp_path / "page.html"
    page.write_text(to_html(_functions(), "vz.mlir"), encoding="utf-8")
    command = [
        _browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        page.as_uri(),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert re.findall(r'<div class="tile(?: halo)?" data-devices="([0-9 ]+)"', dom) == ["0", "2", "3"]
    assert 'data-tiles="3"' in dom
    assert '<p class="note">device 1 holds an empty piece</p>' in dom
    assert re.search(r"grid-template-rows: minmax\(2\.5em, 3fr\) minmax\(2\.5em, 2fr\) minmax\(2\.5em, 1fr\);", dom)
