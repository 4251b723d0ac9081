"""`mesh-run` as a user runs it: inputs from .npy or a seed, outputs printed
or saved, comparison with a reference, and clean errors."""

import os
import subprocess
import sys

import numpy as np
import pytest

import mesh_dialect

MESH_RUN = os.environ.get("MESH_RUN") or os.path.join(os.path.dirname(sys.executable), "mesh-run")

GLOBAL = """\
func.func @scale(%x: tensor<4x2xi32>, %k: i32) -> tensor<4x2xi32> {
  %s = tensor.splat %k : tensor<4x2xi32>
  %0 = arith.muli %x, %s : tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}
"""

SPMD = """\
mesh.mesh @m(shape = 2)
func.func @scale(%x: tensor<2x2xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}, %k: i32)
    -> (tensor<2x2xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %s = tensor.splat %k : tensor<2x2xi32>
  %0 = arith.muli %x, %s : tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}
"""


def run(*args, cwd):
    return subprocess.run([MESH_RUN, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "global.mlir").write_text(GLOBAL)
    (tmp_path / "spmd.mlir").write_text(SPMD)
    (tmp_path / "empty.npy").write_bytes(b"")
    np.save(tmp_path / "x.npy", np.arange(8, dtype=np.int32).reshape(4, 2))
    np.save(tmp_path / "k.npy", np.array(3, dtype=np.int32))
    return tmp_path


def test_global_run_prints_its_result(files):
    p = run("global.mlir", "-i", "x.npy", "-i", "k.npy", cwd=files)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout == "result 0: tensor<4x2xi32>\n[[ 0  3]\n [ 6  9]\n [12 15]\n [18 21]]\n"


def test_spmd_run_splits_and_assembles(files):
    p = run("spmd.mlir", "-i", "x.npy", "-i", "k.npy", "--save-dir", "out", cwd=files)
    assert (p.returncode, p.stderr) == (0, "")
    np.testing.assert_array_equal(np.load(files / "out" / "result0.npy"), 3 * np.arange(8).reshape(4, 2))


def test_compare_with_the_reference_on_seeded_inputs(files):
    p = run("spmd.mlir", "--compare-with", "global.mlir", "--seed", "3", "-q", cwd=files)
    assert (p.returncode, p.stderr, p.stdout) == (0, "", "result 0: max error 0\nmatch\n")


def test_a_wrong_program_is_reported_with_the_worst_difference(files):
    # x + k instead of x * k: |3 - 2x| is largest (11) at x = 7, element [3, 1] on device 1.
    (files / "wrong.mlir").write_text(SPMD.replace("arith.muli", "arith.addi"))
    p = run("wrong.mlir", "-i", "x.npy", "-i", "k.npy", "--compare-with", "global.mlir", "-q", cwd=files)
    assert p.returncode == 1
    assert p.stdout == (
        "result 0: max error 11\n"
        "result 0: differs from the reference at [3, 1] (held by device [1]): got 10, reference 21, difference 11\n"
        "MISMATCH\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.mlir"], "mesh-run: could not open input file 'missing.mlir': No such file or directory\n"),
        (["global.mlir", "-f", "nope"], "mesh-run: no function @nope in 'global.mlir' (functions: @scale)\n"),
        (["global.mlir", "-i", "x.npy"], "mesh-run: @scale takes 2 inputs, got 1 .npy files\n"),
        (
            ["global.mlir", "-i", "x.npy", "-i", "nope.npy"],
            "mesh-run: cannot read input 'nope.npy': [Errno 2] No such file or directory: 'nope.npy'\n",
        ),
        (
            ["global.mlir", "-i", "x.npy", "-i", "empty.npy"],
            "mesh-run: cannot read input 'empty.npy': No data left in file\n",
        ),
        (["global.mlir", "--spmd"], "mesh-run: @scale has no layout; name its mesh with --mesh\n"),
    ],
)
def test_errors_are_one_clean_line(files, args, message):
    p = run(*args, cwd=files)
    assert (p.returncode, p.stdout, p.stderr) == (1, "", message)


def test_an_op_it_cannot_run_is_a_diagnostic_even_in_a_file_named_with_colons(files):
    """The place comes from the error, not from parsing its text: a file
    name with colons keeps the `file:line:col: error:` form."""
    (files / "a:1:b.mlir").write_text('func.func @f() -> f32 {\n  %0 = "foo.bar"() : () -> f32\n  return %0 : f32\n}\n')
    p = run("--allow-unregistered-dialect", "a:1:b.mlir", cwd=files)
    assert (p.returncode, p.stdout) == (1, "")
    want = "a:1:b.mlir:2:8: error: 'foo.bar' is not supported by the simulator (no handler registered for it)\n"
    assert p.stderr == want


def test_a_function_name_not_utf8_is_refused_at_the_function(files):
    """A function whose name is not UTF-8 (MLIR takes the bytes) fails inside
    a walk the simulator makes: the error names the function's position
    and its name as MLIR prints it (it was an internal error, exit 2)."""
    body = "  %0 = arith.constant 1.0 : f32\n  return %0 : f32\n"
    (files / "named.mlir").write_text('func.func @"f\\FF"() -> f32 {\n' + body + "}\n")
    p = run("named.mlir", cwd=files)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr.splitlines()[0] == (
        "named.mlir:1:1: error: names and strings must be UTF-8 for the simulator to read them, "
        "got attribute 'sym_name' = \"f\\FF\""
    ), p.stderr
    assert "Traceback" not in p.stderr


def test_an_exception_in_a_walk_is_one_line_without_its_traceback():
    """An exception raised inside a callback the bindings call comes back as
    a RuntimeError carrying the traceback as text: `one_line` keeps the
    original exception's line."""
    from mesh_dialect.transforms.base import one_line

    ctx = mesh_dialect.context()
    module = mesh_dialect.parse("func.func @f() {\n  return\n}\n", context=ctx)

    def visit(op):
        raise KeyError("boom")

    with pytest.raises(RuntimeError) as caught:
        module.walk(visit)
    assert "Traceback" in str(caught.value)
    assert one_line(caught.value) == "KeyError: 'boom'"


def test_input_of_the_wrong_shape(files):
    np.save(files / "bad.npy", np.zeros((3, 2), np.int32))
    p = run("spmd.mlir", "-i", "bad.npy", "-i", "k.npy", cwd=files)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr.startswith("mesh-run: error: input 0 of @scale has shape [1, 2] on device (0,)")


def test_parse_errors_use_the_compiler_format(files):
    (files / "bad.mlir").write_text(
        "func.func @f() {\n  %0 = mesh.process_linear_index on @nope : index\n  return\n}\n"
    )
    p = run("bad.mlir", cwd=files)
    assert p.returncode == 1
    assert p.stderr.splitlines()[0] == (
        "bad.mlir:2:8: error: 'mesh.process_linear_index' op mesh symbol @nope is not defined"
    )


def test_several_functions_need_a_choice(files):
    (files / "two.mlir").write_text(GLOBAL + GLOBAL.replace("@scale", "@other"))
    p = run("two.mlir", cwd=files)
    assert (p.returncode, p.stderr) == (
        1,
        "mesh-run: 'two.mlir' has 2 functions (@scale, @other); choose one with --function\n",
    )


def test_a_function_may_be_named_with_its_at_sign(files):
    """`-f @scale` names @scale, as `--mesh @mesh` and mesh-viz's `-f` take it."""
    (files / "two.mlir").write_text(GLOBAL + GLOBAL.replace("@scale", "@other"))
    with_at, without = run("two.mlir", "-f", "@other", cwd=files), run("two.mlir", "-f", "other", cwd=files)
    assert (with_at.returncode, with_at.stdout) == (0, without.stdout)
    assert without.stdout.startswith("result 0: tensor<4x2xi32>")


def test_an_argument_of_a_type_the_simulator_lacks_is_named_at_its_function(files):
    (files / "odd.mlir").write_text("func.func @f(%k: i32, %t: tuple<i32>) -> i32 {\n  return %k : i32\n}\n")
    p = run("odd.mlir", "-q", cwd=files)
    assert (p.returncode, p.stderr.splitlines()[0]) == (
        1,
        "odd.mlir:1:1: error: argument 1 of @f: element type tuple<i32> is not supported by the simulator",
    )


def test_usage_error_exits_1(files):
    p = run("global.mlir", "--no-such-flag", cwd=files)
    assert p.returncode == 1
    assert "unrecognized arguments: --no-such-flag" in p.stderr


def test_inputs_must_match_the_argument_types(files):
    np.save(files / "x6.npy", np.zeros(6, np.int32))
    np.save(files / "xf.npy", np.zeros((4, 2), np.float32))
    p = run("global.mlir", "-i", "x6.npy", "-i", "k.npy", cwd=files)
    assert (p.returncode, p.stderr) == (
        1,
        "mesh-run: error: input 0 of @scale has shape [6] but the argument is tensor<4x2xi32>\n",
    )
    p = run("global.mlir", "-i", "xf.npy", "-i", "k.npy", cwd=files)
    assert (p.returncode, p.stderr) == (
        1,
        "mesh-run: error: input 0 of @scale holds float32 values but the argument is tensor<4x2xi32>\n",
    )


def test_spmd_results_print_their_global_type(files):
    p = run("spmd.mlir", "-i", "x.npy", "-i", "k.npy", cwd=files)
    assert p.stdout.splitlines()[0] == "result 0: tensor<4x2xi32> (each device: tensor<2x2xi32>)"


def test_program_from_stdin(files):
    p = subprocess.run([MESH_RUN, "-", "-q", "--seed", "1"], input=GLOBAL, cwd=files, capture_output=True, text=True)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")


def test_negative_seed_is_a_usage_error(files):
    p = run("global.mlir", "--seed", "-1", cwd=files)
    assert p.returncode == 1
    assert p.stderr.splitlines()[-1] == "mesh-run: error: argument --seed: must be a non-negative integer, got -1"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--seed", "must be an integer, got 'abc'"),
        ("--max-devices", "must be an integer, got 'abc'"),
        ("--rtol", "must be a number, got 'abc'"),
    ],
)
def test_a_word_for_a_number_is_a_usage_error(files, option, message):
    p = run("global.mlir", option, "abc", cwd=files)
    assert p.returncode == 1
    assert p.stderr.splitlines()[-1] == f"mesh-run: error: argument {option}: {message}"
