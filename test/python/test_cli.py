"""The installed `mesh-opt`, run as a user runs it (a subprocess): exit
codes, diagnostics, input and output files, and malformed inputs.

mlir-opt's contract, which `mesh-opt` follows: exit 0 on success and 1 on any
error (never 2, our "internal error", never a signal); errors on stderr as
`FILE:LINE:COL: error: message`, then the source line and a caret; `-o FILE`
is written only by a successful run and never half-written.
"""

from __future__ import annotations

import os
import random
import resource
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# The installed console script beside the interpreter; $MESH_OPT tests another build.
MESH_OPT = Path(os.environ.get("MESH_OPT") or Path(sys.executable).with_name("mesh-opt"))

OK = (
    "mesh.mesh @m(shape = 2x4)\n"
    "func.func @f() -> index {\n"
    "  %0 = mesh.process_linear_index on @m : index\n"
    "  return %0 : index\n"
    "}\n"
)
OK_OUT = (
    "module {\n"
    "  mesh.mesh @m(shape = 2x4)\n"
    "  func.func @f() -> index {\n"
    "    %0 = mesh.process_linear_index on @m : index\n"
    "    return %0 : index\n"
    "  }\n"
    "}\n"
)
# Line 3, column 8: the op; its mesh does not exist.
BAD = OK.replace("on @m :", "on @nope :")
BAD_ERR = (
    "{name}:3:8: error: 'mesh.process_linear_index' op mesh symbol @nope is not defined\n"
    "  %0 = mesh.process_linear_index on @nope : index\n"
    "       ^\n"
)


def run(*args, stdin: bytes | str | None = None, cwd: Path | None = None, **kw) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [str(MESH_OPT), *map(str, args)],
        input=data if data is not None else b"",
        capture_output=True,
        cwd=cwd,
        timeout=120,
        **kw,
    )


def out(p: subprocess.CompletedProcess) -> str:
    return p.stdout.decode()


def err(p: subprocess.CompletedProcess) -> str:
    return p.stderr.decode()


def listing(directory: Path) -> list[str]:
    """Every entry, hidden ones (temporary files) included."""
    return sorted(os.listdir(directory))


def test_installed():
    assert MESH_OPT.is_file(), f"{MESH_OPT} is not installed (pip install -e .)"


# -- exit codes and diagnostics -------------------------------------------------


def test_success_exits_0_and_prints_module(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (0, OK_OUT, "")


def test_verifier_error_exits_1_with_position_source_line_and_caret(tmp_path):
    (tmp_path / "in.mlir").write_text(BAD)
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (1, "", BAD_ERR.format(name="in.mlir"))


def test_error_names_the_file_as_given(tmp_path):
    (tmp_path / "in.mlir").write_text(BAD)
    p = run(tmp_path / "in.mlir")
    assert (p.returncode, err(p)) == (1, BAD_ERR.format(name=tmp_path / "in.mlir"))


def test_error_on_stdin_is_named_stdin():
    p = run(stdin=BAD)
    assert (p.returncode, out(p), err(p)) == (1, "", BAD_ERR.format(name="<stdin>"))
    p = run("-", stdin=BAD)
    assert (p.returncode, out(p), err(p)) == (1, "", BAD_ERR.format(name="<stdin>"))


def test_custom_syntax_error_points_into_the_op(tmp_path):
    (tmp_path / "in.mlir").write_text(
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n"
        "  %s = mesh.sharding @m split_axes = [[0] : !mesh.sharding\n  return\n}\n"
    )
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "in.mlir:3:43: error: expected ',' or ']' in split axes, found ':'\n"
        "  %s = mesh.sharding @m split_axes = [[0] : !mesh.sharding\n"
        "                                          ^\n"
    )


def test_mlir_error_in_generic_syntax(tmp_path):
    (tmp_path / "in.mlir").write_text(
        'mesh.mesh @m(shape = 2)\n  "mesh.mesh"() {shape = array<i64: 4>, sym_name = "n"} : () -> i32\n'
    )
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "in.mlir:2:3: error: op expects exactly 0 results, but got 1\n"
        '  "mesh.mesh"() {shape = array<i64: 4>, sym_name = "n"} : () -> i32\n'
        "  ^\n"
    )


def test_error_with_note(tmp_path):
    (tmp_path / "in.mlir").write_text("mesh.mesh @m(shape = 2)\n\n  mesh.mesh @m(shape = 4)\n")
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "in.mlir:3:3: error: redefinition of symbol named 'm'\n"
        "  mesh.mesh @m(shape = 4)\n"
        "  ^\n"
        "in.mlir:1:1: note: see existing symbol definition here\n"
        "mesh.mesh @m(shape = 2)\n"
        "^\n"
    )


def test_split_input_file_errors_keep_file_positions_and_all_chunks_run(tmp_path):
    text = BAD + "// -----\n" + OK + "// -----\n" + BAD
    (tmp_path / "in.mlir").write_text(text)
    p = run("--split-input-file", "in.mlir", cwd=tmp_path)
    second = BAD_ERR.format(name="in.mlir").replace("in.mlir:3:8:", "in.mlir:15:8:")
    # The chunk that parses is still printed, as mlir-opt does.
    assert (p.returncode, out(p), err(p)) == (1, OK_OUT, BAD_ERR.format(name="in.mlir") + second)


def test_error_in_a_pass_points_at_the_users_op(tmp_path):
    (tmp_path / "in.mlir").write_text(
        "mesh.mesh @m(shape = 2)\nfunc.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n"
    )
    p = run("in.mlir", "--one-shot-bufferize", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "in.mlir:3:8: error: op was not bufferized\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>\n"
        "       ^\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "mesh-opt: 'bogus' is not a pass of mesh-opt or of upstream MLIR (see --list-passes)\n"),
        (
            ["--pass-pipeline=builtin.module(func.func(bogus))"],
            "mesh-opt: 'bogus' is not a pass of mesh-opt or of upstream MLIR (see --list-passes)\n",
        ),
        (
            ["--mesh-canonicalize=nope=1"],
            "mesh-opt: pass 'mesh-canonicalize' has no option 'nope' "
            "(options: cse, dce, fold-collectives, fold-queries)\n",
        ),
        (
            ["--pass-pipeline=builtin.module(func.func(mesh-canonicalize))"],
            "mesh-opt: pass 'mesh-canonicalize' runs on builtin.module only; "
            "list it at the top level of the pipeline\n",
        ),
    ],
    ids=["unknown-pass", "unknown-nested-pass", "unknown-option", "nested-python-pass"],
)
def test_pipeline_errors_exit_1_with_one_line(tmp_path, args, message):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", *args, cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (1, "", message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["in.mlir", "in.mlir"], "mesh-opt: error: unrecognized argument 'in.mlir'\n"),
        (
            ["in.mlir", "--pass-pipeline=builtin.module(cse)", "--canonicalize"],
            "mesh-opt: error: --pass-pipeline cannot be combined with pass flags\n",
        ),
        (["in.mlir", "--pass-pipeline"], "mesh-opt: error: argument --pass-pipeline: expected one argument\n"),
        (["in.mlir", "-o"], "mesh-opt: error: argument -o: expected one argument\n"),
    ],
    ids=["two-inputs", "pipeline-and-flag", "pipeline-without-value", "o-without-value"],
)
def test_command_line_errors_exit_1_not_2(tmp_path, args, message):
    """argparse exits 2 on usage errors; mlir-opt (and so mesh-opt) exits 1."""
    (tmp_path / "in.mlir").write_text(OK)
    p = run(*args, cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p).startswith("usage: mesh-opt ")
    assert err(p).endswith(message)


def test_help_and_list_passes_exit_0():
    for flag in ("--help", "-help", "-h", "--list-passes", "-list-passes"):
        p = run(flag)
        assert (p.returncode, err(p)) == (0, ""), flag
        assert "  --mesh-canonicalize        Fold single-device collectives" in out(p), flag
        assert "      dce                  erase unused pure mesh ops [default: true]" in out(p), flag


# -- input ----------------------------------------------------------------------


def test_missing_input_file(tmp_path):
    p = run("missing.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == "mesh-opt: could not open input file 'missing.mlir': No such file or directory\n"


def test_directory_as_input(tmp_path):
    (tmp_path / "adir").mkdir()
    p = run("adir", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (1, "", "mesh-opt: could not open input file 'adir': Is a directory\n")


def test_non_utf8_input_file(tmp_path):
    (tmp_path / "in.mlir").write_bytes(b"mesh.mesh @m(shape = 2)\n// caf\xe9\n")
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "in.mlir:2:7: error: input must be UTF-8 text: invalid continuation byte 0xe9 (byte 30 of the input)\n"
        "// caf\ufffd\n"
        "      ^\n"
    )


def test_non_utf8_stdin():
    """stdin used to be decoded with surrogateescape and crash MLIR's binding
    (exit 2, "internal error: TypeError")."""
    p = run(stdin=b"mesh.mesh @m(shape = 2)\n// caf\xe9\n")
    assert (p.returncode, out(p)) == (1, "")
    assert err(p).startswith(
        "<stdin>:2:7: error: input must be UTF-8 text: invalid continuation byte 0xe9 (byte 30 of the input)\n"
    )
    p = run("-", stdin=b"\xff\xfe\x00")
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "<stdin>:1:1: error: input must be UTF-8 text: invalid start byte 0xff (byte 0 of the input)\n"
        "\ufffd\ufffd\x00\n"
        "^\n"
    )


def test_crlf_input_from_file_and_stdin_alike(tmp_path):
    text = OK.replace("\n", "\r\n")
    (tmp_path / "in.mlir").write_text(text, newline="")
    p_file, p_stdin = run("in.mlir", cwd=tmp_path), run(stdin=text)
    assert (p_file.returncode, out(p_file), err(p_file)) == (0, OK_OUT, "")
    assert (p_stdin.returncode, out(p_stdin), err(p_stdin)) == (0, OK_OUT, "")


def test_parse_failure_is_never_silent(tmp_path):
    """MLIR fails without any diagnostic on the custom syntax of an IRDL op it
    is handed untranslated; the error still has a position (it was a bare
    "error: failed to parse 'in.mlir'")."""
    (tmp_path / "in.mlir").write_text("mesh.mesh=@m(shape = 2)\n")
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == (
        "in.mlir:1:10: error: expected a symbol such as @mesh0, found '=@m(shape'\n"
        "mesh.mesh=@m(shape = 2)\n"
        "         ^\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "mesh.mesh} @m(shape = 2)\n",
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n  mesh.mesh: @x\n  return\n}\n",
        "  ^bb0(%v: f32):\nmesh.mesh @m(shape = 2)\n",
        "func.func @f() {\n  cf.br ^bb1\n^bb1:\n  mesh.mesh) @m(shape = 2)\n  return\n}\n",
        "#a = 1\nmesh.mesh, @m(shape = 2)\n",
        "module {\n  mesh.mesh} @m(shape = 2)\n}\nmodule {}\n",
    ],
)
def test_every_parse_error_has_a_position(tmp_path, text):
    (tmp_path / "in.mlir").write_text(text)
    p = run("in.mlir", cwd=tmp_path)
    assert p.returncode == 1
    first = err(p).split("\n")[0]
    assert first.startswith("in.mlir:") and ": error: " in first, first
    line, col = first.split(":")[1:3]
    assert int(line) >= 1 and int(col) >= 1, first


def test_errors_reported_from_many_functions_do_not_abort(tmp_path):
    """Eight functions each holding a function: MLIR verifies them on worker
    threads, whose diagnostics reached Python without the GIL (nanobind's
    "incref_check(): GIL was not held" abort)."""
    one = "func.func @outer{i}() {{\n  func.func @inner() {{\n    return\n  }}\n  return\n}}\n"
    (tmp_path / "in.mlir").write_text("".join(one.format(i=i) for i in range(8)))
    for args in (["in.mlir"], ["--canonicalize", "in.mlir"], ["--verify-diagnostics", "in.mlir"]):
        p = run(*args, cwd=tmp_path)
        lines = [line for line in err(p).split("\n") if ": error: " in line]
        assert p.returncode == 1 and len(lines) == 8, (args, err(p))


def test_two_ops_on_one_line(tmp_path):
    (tmp_path / "in.mlir").write_text("mesh.mesh @a(shape = 2) mesh.mesh @b(shape = 4)\n")
    p = run("in.mlir", cwd=tmp_path)
    assert (p.returncode, err(p)) == (0, "")
    assert out(p) == "module {\n  mesh.mesh @a(shape = 2)\n  mesh.mesh @b(shape = 4)\n}\n"


# -- output files ---------------------------------------------------------------


def test_output_file_is_written(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (0, "", "")
    assert (tmp_path / "out.mlir").read_text() == OK_OUT
    assert listing(tmp_path) == ["in.mlir", "out.mlir"]


def test_output_file_with_equals_sign(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-o=out.mlir", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (0, "", "")
    assert (tmp_path / "out.mlir").read_text() == OK_OUT


def test_output_file_replaces_existing_one(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    (tmp_path / "out.mlir").write_text("old\n" * 1000)
    p = run("in.mlir", "-o", "out.mlir", "--mesh-canonicalize", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (0, "", "")
    assert (tmp_path / "out.mlir").read_text() == OK_OUT
    assert listing(tmp_path) == ["in.mlir", "out.mlir"]


def test_single_dash_pass_flag_starting_with_o_is_not_an_output_file(tmp_path):
    """`-outline-shape-computation` used to mean `-o utline-shape-computation`."""
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-outline-shape-computation", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (0, OK_OUT, "")
    assert listing(tmp_path) == ["in.mlir"]


def test_new_output_file_has_the_usual_mode(tmp_path):
    """Not mkstemp's 0600: what `open(..., "w")` would give (0666 & ~umask)."""
    (tmp_path / "in.mlir").write_text(OK)
    mask = os.umask(0o022)
    os.umask(mask)
    p = run("in.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert p.returncode == 0
    assert stat.S_IMODE((tmp_path / "out.mlir").stat().st_mode) == 0o666 & ~mask


def test_replaced_output_file_keeps_its_mode(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    (tmp_path / "out.mlir").write_text("old\n")
    (tmp_path / "out.mlir").chmod(0o640)
    p = run("in.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert p.returncode == 0
    assert stat.S_IMODE((tmp_path / "out.mlir").stat().st_mode) == 0o640


def test_output_through_a_symlink_writes_the_target(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    (tmp_path / "real.mlir").write_text("old\n")
    (tmp_path / "link.mlir").symlink_to("real.mlir")
    p = run("in.mlir", "-o", "link.mlir", cwd=tmp_path)
    assert (p.returncode, err(p)) == (0, "")
    assert (tmp_path / "link.mlir").is_symlink()
    assert (tmp_path / "real.mlir").read_text() == OK_OUT
    assert listing(tmp_path) == ["in.mlir", "link.mlir", "real.mlir"]


def test_output_to_a_fifo_writes_into_it(tmp_path):
    """A non-regular output (a FIFO here; /dev/null, /dev/stdout alike) is
    written in place: renaming a temporary file over it would replace it."""
    (tmp_path / "in.mlir").write_text(OK)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so opening to write does not block
    try:
        p = run("in.mlir", "-o", "pipe", cwd=tmp_path)
        try:
            received = os.read(reader, 1 << 16)
        except BlockingIOError:
            received = b""
    finally:
        os.close(reader)
    assert (p.returncode, err(p)) == (0, "")
    assert received == OK_OUT.encode()
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert listing(tmp_path) == ["in.mlir", "pipe"]


def test_output_to_proc_self_fd_1(tmp_path):
    """`-o /dev/stdout`, spelled by what it links to: a build with the old
    rename-over bug run as root would replace the system's /dev/stdout."""
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-o", "/proc/self/fd/1", cwd=tmp_path)
    assert (p.returncode, out(p), err(p)) == (0, OK_OUT, "")
    assert listing(tmp_path) == ["in.mlir"]


# A failing run for every way a run can fail: (input text or None, extra args).
FAILURES = {
    "verifier-error": (BAD, []),
    "syntax-error": ("mesh.mesh @m(shape = 2\n", []),
    "pass-error": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n",
        ["--one-shot-bufferize"],
    ),
    "split-chunk-error": (OK + "// -----\n" + BAD, ["--split-input-file"]),
    "unknown-pass": (OK, ["--bogus"]),
    "usage-error": (OK, ["--pass-pipeline=builtin.module(cse)", "--cse"]),
    "missing-input": (None, []),
    "non-utf8-input": (b"// \xff\n", []),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_failed_run_leaves_no_output_file(tmp_path, case):
    text, args = FAILURES[case]
    if text is not None:
        (tmp_path / "in.mlir").write_bytes(text if isinstance(text, bytes) else text.encode())
    before = listing(tmp_path)
    p = run("in.mlir", "-o", "out.mlir", *args, cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert listing(tmp_path) == before


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_failed_run_keeps_existing_output_file(tmp_path, case):
    text, args = FAILURES[case]
    if text is not None:
        (tmp_path / "in.mlir").write_bytes(text if isinstance(text, bytes) else text.encode())
    old = b"// precious\r\n\x00\xff" + bytes(range(256)) * 50
    (tmp_path / "out.mlir").write_bytes(old)
    (tmp_path / "out.mlir").chmod(0o640)
    before = listing(tmp_path)
    p = run("in.mlir", "-o", "out.mlir", *args, cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert (tmp_path / "out.mlir").read_bytes() == old
    assert stat.S_IMODE((tmp_path / "out.mlir").stat().st_mode) == 0o640
    assert listing(tmp_path) == before


def test_failed_write_keeps_existing_file_and_leaves_no_temporary(tmp_path):
    """The write itself fails (a file-size limit stands in for a full disk)."""
    (tmp_path / "in.mlir").write_text("".join(f"mesh.mesh @m{i}(shape = 2x4)\n" for i in range(200)))
    (tmp_path / "out.mlir").write_text("old\n")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    p = run("in.mlir", "-o", "out.mlir", cwd=tmp_path, preexec_fn=limit)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == "mesh-opt: cannot write output file 'out.mlir': File too large\n"
    assert (tmp_path / "out.mlir").read_text() == "old\n"
    assert listing(tmp_path) == ["in.mlir", "out.mlir"]


def test_output_in_missing_directory(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-o", "nodir/out.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == "mesh-opt: cannot write output file 'nodir/out.mlir': No such file or directory\n"
    assert listing(tmp_path) == ["in.mlir"]


def test_output_under_a_regular_file(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-o", "in.mlir/out.mlir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == "mesh-opt: cannot write output file 'in.mlir/out.mlir': Not a directory\n"
    assert listing(tmp_path) == ["in.mlir"]
    assert (tmp_path / "in.mlir").read_text() == OK


def test_output_is_a_directory(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    (tmp_path / "adir").mkdir()
    p = run("in.mlir", "-o", "adir", cwd=tmp_path)
    assert (p.returncode, out(p)) == (1, "")
    assert err(p) == "mesh-opt: cannot write output file 'adir': Is a directory\n"
    assert listing(tmp_path) == ["adir", "in.mlir"]
    assert listing(tmp_path / "adir") == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_output_in_unwritable_directory(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "out.mlir").write_text("old\n")
    locked.chmod(0o555)
    try:
        p = run("in.mlir", "-o", "locked/out.mlir", cwd=tmp_path)
        assert (p.returncode, out(p)) == (1, "")
        assert err(p) == "mesh-opt: cannot write output file 'locked/out.mlir': Permission denied\n"
        assert listing(locked) == ["out.mlir"]
        assert (locked / "out.mlir").read_text() == "old\n"
    finally:
        locked.chmod(0o755)


def test_output_to_a_full_disk_is_one_line_and_exit_1(tmp_path):
    (tmp_path / "in.mlir").write_text(OK)
    p = run("in.mlir", "-o", "/dev/full", cwd=tmp_path)
    assert (p.returncode, err(p)) == (1, "mesh-opt: cannot write output file '/dev/full': No space left on device\n")
    with open("/dev/full", "wb") as full:
        p = subprocess.run([str(MESH_OPT), "in.mlir"], stdout=full, stderr=subprocess.PIPE, cwd=tmp_path, timeout=120)
    assert (p.returncode, p.stderr.decode()) == (1, "mesh-opt: cannot write output: No space left on device\n")


def test_started_with_stdout_closed(tmp_path):
    """`mesh-opt in.mlir >&-`: an internal error (exit 2) before; now a quiet
    exit 1, as for a reader that went away."""
    (tmp_path / "in.mlir").write_text(OK)
    p = subprocess.run(
        [str(MESH_OPT), "in.mlir"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert (p.returncode, p.stderr.decode()) == (1, "")


@pytest.mark.parametrize("name", ["nodir/", "sub/nodir/"])
def test_output_path_ending_in_a_slash_is_refused(tmp_path, name):
    """`-o nodir/` created a file named `nodir`."""
    (tmp_path / "in.mlir").write_text(OK)
    (tmp_path / "sub").mkdir()
    p = run("in.mlir", "-o", name, cwd=tmp_path)
    assert (p.returncode, err(p)) == (1, f"mesh-opt: cannot write output file '{name}': Is a directory\n")
    assert listing(tmp_path) == ["in.mlir", "sub"]
    assert listing(tmp_path / "sub") == []


def test_read_only_output_file_is_not_replaced(tmp_path):
    """The atomic rename replaced a file that open() could not write (the
    tests run as root, who passes every access check: the mode decides)."""
    (tmp_path / "in.mlir").write_text(OK)
    target = tmp_path / "out.mlir"
    target.write_text("old\n")
    target.chmod(0o444)
    p = run("in.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert (p.returncode, err(p)) == (1, "mesh-opt: cannot write output file 'out.mlir': Permission denied\n")
    assert target.read_text() == "old\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert listing(tmp_path) == ["in.mlir", "out.mlir"]


def test_closed_stdout_is_not_an_internal_error(tmp_path):
    """`mesh-opt big.mlir | head -1`: used to print "internal error:
    BrokenPipeError" (exit 2), or a traceback for --list-passes."""
    (tmp_path / "in.mlir").write_text("".join(f"mesh.mesh @m{i}(shape = 2x4)\n" for i in range(3000)))
    for args in (["in.mlir"], ["--list-passes"]):
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.run([str(MESH_OPT), *args], stdout=w, stderr=subprocess.PIPE, cwd=tmp_path, timeout=120)
        finally:
            os.close(w)
        assert (p.returncode, p.stderr.decode()) == (1, ""), args


# -- malformed inputs -------------------------------------------------------------

VALID_SNIPPETS = [
    'mesh.mesh @mesh0(shape = 2x?x4) {note = "n"}\n',
    "mesh.mesh @m(shape = 2x2)\n"
    "func.func @f(%t: tensor<4x8xf32>, %h: i64) -> index {\n"
    "  %s = mesh.sharding @m split_axes = [[0], [1]] partial = max [1] halo_sizes = [1, %h, %h, 3] : !mesh.sharding\n"
    "  %a = mesh.shard %t to %s annotate_for_users : tensor<4x8xf32>\n"
    "  %1:2 = mesh.mesh_shape @m axes = [1, 0] : index, index\n"
    "  %2:2 = mesh.shard_shape 8x? %s %1#0 : index, index\n"
    "  return %2#1 : index\n"
    "}\n",
    "mesh.mesh @m(shape = 4x1)\n"
    "func.func @g(%x: tensor<2x2xi8>, %r: index) -> tensor<2x2xi8> {\n"
    "  %0 = mesh.all_reduce %x on @m mesh_axes = [1] reduction = <max> : tensor<2x2xi8> -> tensor<2x2xi8>\n"
    "  %1 = mesh.shift %0 on @m mesh_axes = [0] shift_axis = 0 offset = -1 rotate : tensor<2x2xi8> -> tensor<2x2xi8>\n"
    "  %2 = mesh.broadcast %1 on @m mesh_axes = [0] root = [%r] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>\n"
    "  %3 = mesh.all_gather %2 on @m mesh_axes = [0] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x8xi8>\n"
    '  %4 = "mesh.all_slice"(%3) {mesh = @m, mesh_axes = array<i16: 0>, slice_axis = 1 : index}'
    " : (tensor<2x8xi8>) -> tensor<2x2xi8>\n"
    "  return %4 : tensor<2x2xi8>\n"
    "}\n",
    "mesh.mesh @m(shape = 2)\n"
    "func.func @h(%t: tensor<6x8xf32>, %d: tensor<8x8xf32>) {\n"
    "  %0 = mesh.update_halo %t into %d on @m split_axes = [[0]] source_halo_sizes = [1, 1]"
    " destination_halo_sizes = [2, 2] : tensor<6x8xf32> -> tensor<8x8xf32>\n"
    "  %1 = mesh.reduce_scatter %t on @m mesh_axes = [0] reduction = <sum> scatter_axis = 0"
    " : tensor<6x8xf32> -> tensor<3x8xf32>\n"
    "  return\n"
    "}\n",
]

# The brief's classics, each run on its own: exact exit code and first line of stderr.
MALFORMED = {
    "empty": ("", 0, None),
    "only-comments": ("// only a comment\n\n   // another one\n", 0, None),
    "huge-axis": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f(%x: tensor<4xf32>) {\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [99999999999999999999] : tensor<4xf32> -> tensor<4xf32>\n"
        "  return\n}\n",
        1,
        "in.mlir:3:46: error: integer 99999999999999999999 does not fit in 16 bits",
    ),
    "huge-dim": (
        "mesh.mesh @m(shape = 99999999999999999999)\n",
        1,
        "in.mlir:1:22: error: dimension list 99999999999999999999 has a size that does not fit in 64 bits",
    ),
    "negative-dim": (
        "mesh.mesh @m(shape = -1x2)\n",
        1,
        "in.mlir:1:22: error: expected a dimension list such as 2x?x4, found '-1x2)'",
    ),
    "negative-inner-dim": (
        "mesh.mesh @m(shape = 2x-3)\n",
        1,
        "in.mlir:1:22: error: expected a dimension list such as 2x?x4, found '2x'",
    ),
    "zero-dim": (
        "mesh.mesh @m(shape = 0x2)\n",
        1,
        "in.mlir:1:1: error: 'mesh.mesh' op mesh axis 0 of @m must have size >= 1 or ?, got 0",
    ),
    "negative-axis": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f(%x: tensor<4xf32>) {\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [-1] : tensor<4xf32> -> tensor<4xf32>\n  return\n}\n",
        1,
        "in.mlir:3:8: error: 'mesh.all_reduce' op mesh axis -1 is out of range for mesh @m of rank 1",
    ),
    "negative-halo": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n"
        "  %s = mesh.sharding @m split_axes = [[0]] halo_sizes = [-1, 2] : !mesh.sharding\n  return\n}\n",
        1,
        "in.mlir:3:8: error: 'mesh.sharding' op halo sizes must be non-negative, got -1",
    ),
    "open-brackets": ("[[[[\n", 1, "in.mlir:1:1: error: expected operation name in quotes"),
    "close-brackets": ("]]]]\n", 1, "in.mlir:1:1: error: expected operation name in quotes"),
    "unclosed-paren": (
        "mesh.mesh @m(shape = 2\n",
        1,
        "in.mlir:2:1: error: expected ')' in 'mesh.mesh', found end of input",
    ),
    "extra-paren": ("mesh.mesh @m(shape = 2))\n", 1, "in.mlir:1:24: error: expected operation name in quotes"),
    "unclosed-split-axes": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n  %s = mesh.sharding @m split_axes = [[0] : !mesh.sharding\n"
        "  return\n}\n",
        1,
        "in.mlir:3:43: error: expected ',' or ']' in split axes, found ':'",
    ),
    "truncated-list": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f(%x: tensor<4xf32>) {\n  %0 = mesh.all_reduce %x on @m mesh_axes = [0",
        1,
        "in.mlir:3:47: error: expected ',' or ']' in list, found end of input",
    ),
    "unclosed-region": (
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n  return\n",
        1,
        "in.mlir:3:9: error: expected operation name in quotes",
    ),
    "op-name-glued-to-symbol": (
        "mesh.mesh=@m(shape = 2)\n",
        1,
        "in.mlir:1:10: error: expected a symbol such as @mesh0, found '=@m(shape'",
    ),
}


def _is_clean(p: subprocess.CompletedProcess) -> bool:
    """Exit 0 or 1, no traceback or internal error, and a failure says why."""
    text = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
    return (
        p.returncode in (0, 1)
        and "Traceback" not in text
        and "internal error" not in text
        and (p.returncode == 0 or p.stderr.strip() != b"")
    )


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_input(tmp_path, case):
    text, code, first_line = MALFORMED[case]
    (tmp_path / "in.mlir").write_text(text)
    p = run("in.mlir", cwd=tmp_path)
    assert _is_clean(p), (p.returncode, err(p))
    assert p.returncode == code, err(p)
    if first_line is None:
        assert (out(p), err(p)) == ("module {\n}\n", "")
    else:
        assert out(p) == ""
        assert err(p).split("\n")[0] == first_line


def test_out_of_range_axis_points_at_the_literal(tmp_path):
    (tmp_path / "in.mlir").write_text(MALFORMED["huge-axis"][0])
    p = run("in.mlir", cwd=tmp_path)
    assert err(p).split("\n")[0] == "in.mlir:3:46: error: integer 99999999999999999999 does not fit in 16 bits"


def test_caret_under_the_op_after_a_tab(tmp_path):
    (tmp_path / "in.mlir").write_text(
        "mesh.mesh @m(shape = 2)\nfunc.func @f() {\n\t%0 = mesh.process_linear_index on @nope : index\n\treturn\n}\n"
    )
    p = run("in.mlir", cwd=tmp_path)
    lines = err(p).split("\n")
    assert lines[0] == "in.mlir:3:7: error: 'mesh.process_linear_index' op mesh symbol @nope is not defined"
    assert lines[1:3] == ["        %0 = mesh.process_linear_index on @nope : index", "             ^"]


def test_deeply_nested_attribute(tmp_path):
    depth = 20000
    (tmp_path / "in.mlir").write_text("mesh.mesh @m(shape = 2) {a = " + "[" * depth + "]" * depth + "}\n")
    p = run("in.mlir", cwd=tmp_path)
    assert _is_clean(p), p.returncode


def _mutations(rng: random.Random, count: int) -> list[str]:
    alphabet = '[](){}<>%@=:,x?-0123456789 \n"#!^.abz'
    found = []
    for _ in range(count):
        text = rng.choice(VALID_SNIPPETS)
        i = rng.randrange(len(text))
        kind = rng.randrange(3)
        if kind == 0:
            text = text[:i] + rng.choice(alphabet) + text[i:]
        elif kind == 1:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + rng.choice(alphabet) + text[i + 1 :]
        found.append(text)
    return found


def _garbage(rng: random.Random, count: int) -> list[str]:
    tokens = [
        "mesh.mesh", "mesh.sharding", "mesh.all_reduce", "mesh.shard", "@m", "%0", "%x", "=", ":", ",", "(", ")",
        "[", "]", "{", "}", "<", ">", "shape", "split_axes", "mesh_axes", "2x?", "0x2", "-1", "99999999999999999999",
        "tensor<4xf32>", "!mesh.sharding", "#mesh.partial<sum>", "->", "\"", "//", "\n", " ", "on", "axes",
        "func.func", "return", "^bb0", "\x00", "\t", "é", "\u2028", "\ufeff",
    ]  # fmt: skip
    found = []
    for _ in range(count):
        found.append("".join(rng.choice(tokens) for _ in range(rng.randrange(1, 40))))
        found.append("".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 80))))
    return found


def _corpus() -> tuple[list[str], list[str]]:
    """All inputs, and those also run through passes: the ones likely to
    parse (the snippets, every 4th prefix, the mutations)."""
    rng = random.Random(20240607)
    prefixes = [snippet[:i] for snippet in VALID_SNIPPETS for i in range(len(snippet) + 1)]
    mutations = _mutations(rng, 400)
    corpus = prefixes + mutations + _garbage(rng, 150)
    corpus += [text for text, _, _ in MALFORMED.values()]
    corpus += ["(" * n for n in (1, 2, 100)] + [")" * n for n in (1, 2, 100)] + ["{[(<" * 50, ">)]}" * 50]
    with_passes = VALID_SNIPPETS + prefixes[::4] + mutations

    # `// -----` would split a chunk in two: the batches below rely on it not occurring.
    def usable(texts: list[str]) -> list[str]:
        return [c for c in texts if "// -----" not in c and "\r" not in c]

    return usable(corpus), usable(with_passes)


def _check_batch(batch: list[str], flags: list[str]) -> str | None:
    """None if the batch is clean, else which inputs are not (run one by one)."""
    p = run("--split-input-file", "-", *flags, stdin="\n// -----\n".join(batch))
    if _is_clean(p):
        return None
    culprits = []
    for text in batch:
        q = run("-", *flags, stdin=text)
        if not _is_clean(q):
            culprits.append((text[:300], q.returncode, q.stderr.decode("utf-8", "replace")[-400:]))
    return f"mesh-opt --split-input-file {' '.join(flags)}: exit {p.returncode}; culprits: {culprits!r}"


def test_fuzz_malformed_inputs():
    """Every prefix of a few valid inputs, random mutations of them, and
    random garbage: each exits 0 or 1 and never shows a traceback. Inputs run
    in batches through --split-input-file (each chunk is parsed in its own
    context, like a separate run); a bad batch is re-run one input at a time to
    name the culprit."""
    corpus, with_passes = _corpus()
    assert len(corpus) > 2000 and len(with_passes) > 700
    size = 200
    jobs = [(corpus[i : i + size], []) for i in range(0, len(corpus), size)]
    jobs += [
        (with_passes[i : i + size], ["--mesh-canonicalize", "--canonicalize"]) for i in range(0, len(with_passes), size)
    ]
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        failures = [f for f in pool.map(lambda job: _check_batch(*job), jobs) if f is not None]
    assert failures == []


def test_fuzz_random_bytes(tmp_path):
    """Bytes that are not UTF-8, from a file and from stdin: an error at the
    first invalid byte, exit 1."""
    rng = random.Random(7)
    for i in range(6):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) + b"\xff"
        reason = None
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            reason = f"{e.reason} 0x{data[e.start]:02x}"
            before = data[: e.start].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
            line, col = before.count("\n") + 1, len(before) - before.rfind("\n")
        (tmp_path / "in.mlir").write_bytes(data)
        p = run("in.mlir", cwd=tmp_path) if i % 2 else run(stdin=data)
        name = "in.mlir" if i % 2 else "<stdin>"
        assert (p.returncode, out(p)) == (1, "")
        assert err(p).startswith(f"{name}:{line}:{col}: error: input must be UTF-8 text: {reason}")


_OP_VIEWS = """
import sys
from mesh_dialect.tools.opviews import use_light_dialect_modules
if sys.argv[1] == "light":
    use_light_dialect_modules()
import mesh_dialect
from mlir.dialects import _linalg_ops_gen
text = '''
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
'''
module = mesh_dialect.parse(text, context=mesh_dialect.context())
body = module.regions[0].blocks[0].operations[0].regions[0].blocks[0]
matmul = list(body.operations)[0]
print(type(matmul) is _linalg_ops_gen.MatmulOp, "mlir.dialects.linalg" in sys.modules)
"""


@pytest.mark.parametrize(("search", "printed"), [("light", "True False"), ("upstream", "True True")])
def test_tools_find_linalg_op_classes_without_its_op_dsl(search, printed):
    """The tools' search finds the same generated op class for a linalg op
    without importing `mlir.dialects.linalg`, whose op DSL costs a small
    run about 50 ms; upstream's search (the Python API's) imports it."""
    p = subprocess.run([sys.executable, "-c", _OP_VIEWS, search], capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.decode().split() == printed.split()
