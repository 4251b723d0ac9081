"""The installed `mesh-viz`, run as a user runs it: bad --width values and
input that is not UTF-8 are one-line errors with exit 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MESH_VIZ = Path(sys.executable).with_name("mesh-viz")

MODEL = """\
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
"""


def run(*args, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([str(MESH_VIZ), *map(str, args)], cwd=cwd, input=stdin, capture_output=True, timeout=120)


@pytest.mark.parametrize("width", ["10001", "100000000", "99999999999999999999"])
def test_width_has_an_upper_bound(tmp_path: Path, width: str):
    (tmp_path / "m.mlir").write_text(MODEL)
    p = run("m.mlir", "--width", width, cwd=tmp_path)
    message = f"mesh-viz: error: --width must be at most 10000, got {width}\n"
    assert (p.returncode, p.stdout, p.stderr.decode()) == (1, b"", message)


def test_widest_width_draws(tmp_path: Path):
    (tmp_path / "m.mlir").write_text(MODEL)
    p = run("m.mlir", "--width", "10000", "--no-color", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (0, b"")


def test_non_utf8_input_is_positioned_like_mesh_opt(tmp_path: Path):
    (tmp_path / "bad.mlir").write_bytes(b"mesh.mesh @m(shape = 2)\n// caf\xe9\n")
    message = (
        "{name}:2:7: error: input must be UTF-8 text: invalid continuation byte 0xe9 (byte 30 of the input)\n"
        "// caf\N{REPLACEMENT CHARACTER}\n"
        "      ^\n"
    )
    p = run("bad.mlir", cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr.decode()) == (1, b"", message.format(name="bad.mlir"))
    p = run(cwd=tmp_path, stdin=(tmp_path / "bad.mlir").read_bytes())
    assert (p.returncode, p.stdout, p.stderr.decode()) == (1, b"", message.format(name="<stdin>"))
