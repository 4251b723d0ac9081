"""Output files are written all or nothing (`files.write_all`): a failed
write leaves no part of a tool's output behind and does not destroy the
file it was to replace (`mesh-viz --svg --html`, `mesh-run --save-dir`,
`mesh-analysis{output=...}`)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from mesh_dialect.files import write_all

BIN = Path(sys.executable).parent

ANNOTATED = (
    "mesh.mesh @mesh(shape = 2)\n"
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding\n"
    "  %a = mesh.shard %x to %s : tensor<4xf32>\n"
    "  %b = arith.addf %a, %a : tensor<4xf32>\n"
    "  return %b : tensor<4xf32>\n"
    "}\n"
)
TWO_RESULTS = (
    "func.func @f(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {\n"
    "  %0 = arith.addf %x, %x : tensor<64x64xf32>\n"
    "  return %0, %x : tensor<64x64xf32>, tensor<64x64xf32>\n"
    "}\n"
)


def run(tool: str, *args: str, limit: int | None = None) -> subprocess.CompletedProcess:
    """Run a tool whose files may grow to `limit` bytes (a larger write fails: EFBIG)."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [str(BIN / tool), *args],
        capture_output=True,
        text=True,
        preexec_fn=small_files if limit is not None else None,
        timeout=120,
    )


def test_write_all_writes_every_file(tmp_path: Path):
    write_all([(str(tmp_path / "a"), lambda f: f.write(b"one")), (str(tmp_path / "b"), lambda f: f.write(b"two"))])
    assert (tmp_path / "a").read_bytes() == b"one" and (tmp_path / "b").read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_write_all_changes_nothing_when_one_fails(tmp_path: Path):
    (tmp_path / "a").write_bytes(b"old")

    def fails(f) -> None:
        f.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError) as e:
        write_all([(str(tmp_path / "a"), lambda f: f.write(b"new")), (str(tmp_path / "b"), fails)])
    assert e.value.filename == str(tmp_path / "b") and e.value.strerror == "No space left on device"
    assert (tmp_path / "a").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]  # no temporary file left


def test_write_all_refuses_one_file_named_twice(tmp_path: Path):
    with pytest.raises(OSError, match="are the same file"):
        write_all([(str(tmp_path / "a"), lambda f: None), (str(tmp_path / "." / "a"), lambda f: None)])
    assert list(tmp_path.iterdir()) == []


def test_viz_writes_neither_file_when_one_cannot_be_written(tmp_path: Path):
    source = tmp_path / "in.mlir"
    source.write_text(ANNOTATED)
    svg = tmp_path / "v.svg"
    done = run("mesh-viz", str(source), "--svg", str(svg), "--html", str(tmp_path / "missing" / "x.html"))
    assert done.returncode == 1
    assert f"mesh-viz: cannot write output file '{tmp_path / 'missing' / 'x.html'}': No such file or directory" in (
        done.stderr
    )
    assert not svg.exists()


def test_viz_refuses_svg_and_html_in_one_file(tmp_path: Path):
    source = tmp_path / "in.mlir"
    source.write_text(ANNOTATED)
    out = tmp_path / "v.svg"
    done = run("mesh-viz", str(source), "--svg", str(out), "--html", str(out))
    assert (done.returncode, done.stderr) == (1, f"mesh-viz: error: --svg and --html name the same file '{out}'\n")
    assert not out.exists()


def test_run_saves_no_result_when_one_cannot_be_saved(tmp_path: Path):
    source = tmp_path / "in.mlir"
    source.write_text(TWO_RESULTS)
    saved = tmp_path / "out"
    (saved / "result1.npy").mkdir(parents=True)
    done = run("mesh-run", str(source), "-q", "--save-dir", str(saved))
    assert done.returncode == 1 and f"cannot save the results in '{saved}'" in done.stderr
    assert sorted(p.name for p in saved.iterdir()) == ["result1.npy"]


def test_run_leaves_no_truncated_result(tmp_path: Path):
    source = tmp_path / "in.mlir"
    source.write_text(TWO_RESULTS)
    saved = tmp_path / "out"
    saved.mkdir()
    (saved / "result0.npy").write_bytes(b"kept")
    done = run("mesh-run", str(source), "-q", "--save-dir", str(saved), limit=1024)  # results of 16 KiB
    assert done.returncode == 1 and f"cannot save the results in '{saved}'" in done.stderr
    assert sorted(p.name for p in saved.iterdir()) == ["result0.npy"]
    assert (saved / "result0.npy").read_bytes() == b"kept"


def test_analysis_keeps_the_report_it_could_not_replace(tmp_path: Path):
    source = tmp_path / "in.mlir"
    source.write_text(ANNOTATED)
    report = tmp_path / "report.txt"
    report.write_text("the last report\n")
    done = run(
        "mesh-opt",
        f"--pass-pipeline=builtin.module(mesh-analysis{{output={report}}})",
        str(source),
        "-o",
        "/dev/null",
        limit=64,  # the report is some 500 bytes
    )
    assert done.returncode == 1
    assert f"cannot write the report to '{report}': File too large" in done.stderr
    assert report.read_text() == "the last report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "report.txt"]
