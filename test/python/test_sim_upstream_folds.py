"""Scalar arith and math ops in the simulator, against upstream's folds and,
where upstream does not fold, against the op's documented result.

Each case is a function of constants; `mlir-opt --canonicalize` folds what it
can, and the simulator must give what the folded function returns, bit for
bit (signed zeros included).  The simulator is the oracle of every
partitioned run: an op it computes wrongly is wrong on both sides of a
comparison, so no comparison finds it."""

import re

import numpy as np
import pytest
from simhelpers import upstream_folded

import mesh_dialect
from mesh_dialect.sim.api import Simulation

# name: (result type, body computing %r from constants)
CASES = {
    # a + b - 1 wraps near the maximum; -a wraps at the minimum
    "ceildivui_wrap": (
        "i32",
        "%a = arith.constant -1 : i32\n%b = arith.constant 2 : i32\n%r = arith.ceildivui %a, %b : i32",
    ),
    "ceildivui_i8": ("i8", "%a = arith.constant -3 : i8\n%b = arith.constant 7 : i8\n%r = arith.ceildivui %a, %b : i8"),
    "ceildivsi_neg": (
        "i8",
        "%a = arith.constant -7 : i8\n%b = arith.constant 2 : i8\n%r = arith.ceildivsi %a, %b : i8",
    ),
    # signed predicates read an i1 true as -1
    "cmpi_slt_i1": ("i1", "%a = arith.constant true\n%b = arith.constant false\n%r = arith.cmpi slt, %a, %b : i1"),
    "cmpi_sgt_i1": ("i1", "%a = arith.constant true\n%b = arith.constant false\n%r = arith.cmpi sgt, %a, %b : i1"),
    "cmpi_ult_i1": ("i1", "%a = arith.constant true\n%b = arith.constant false\n%r = arith.cmpi ult, %a, %b : i1"),
    # in range of the unsigned type, out of range of the signed one
    "fptoui_i32": ("i32", "%a = arith.constant 3.0e9 : f32\n%r = arith.fptoui %a : f32 to i32"),
    "fptoui_i64": ("i64", "%a = arith.constant 1.0e19 : f64\n%r = arith.fptoui %a : f64 to i64"),
    # halves away from zero, exactly; the sign of zero kept
    "round_neg_zero": ("f32", "%a = arith.constant -0.0 : f32\n%r = math.round %a : f32"),
    "round_below_half": ("f32", "%a = arith.constant 0.49999997 : f32\n%r = math.round %a : f32"),
    "round_neg_below_half": ("f32", "%a = arith.constant -0.49999997 : f32\n%r = math.round %a : f32"),
    "round_odd_integer": ("f32", "%a = arith.constant 8388609.0 : f32\n%r = math.round %a : f32"),
    "round_half": ("f32", "%a = arith.constant -2.5 : f32\n%r = math.round %a : f32"),
    # a scalar exponent of 0.5 is no square root
    "powf_neg_zero_half": (
        "f32",
        "%a = arith.constant -0.0 : f32\n%b = arith.constant 0.5 : f32\n%r = math.powf %a, %b : f32",
    ),
    "powf_neg_inf_half": (
        "f32",
        "%a = arith.constant 0xFF800000 : f32\n%b = arith.constant 0.5 : f32\n%r = math.powf %a, %b : f32",
    ),
    "ipowi_negative": (
        "i32",
        "%a = arith.constant 3 : i32\n%b = arith.constant -2 : i32\n%r = math.ipowi %a, %b : i32",
    ),
    "ipowi_minus_one": (
        "i32",
        "%a = arith.constant -1 : i32\n%b = arith.constant -3 : i32\n%r = math.ipowi %a, %b : i32",
    ),
    "ctlz": ("i32", "%a = arith.constant 40 : i32\n%r = math.ctlz %a : i32"),
    "cttz_zero": ("i32", "%a = arith.constant 0 : i32\n%r = math.cttz %a : i32"),
    "ctpop_i8": ("i8", "%a = arith.constant -1 : i8\n%r = math.ctpop %a : i8"),
}


def _program() -> str:
    out = []
    for name, (t, body) in CASES.items():
        out.append(f"func.func @{name}() -> {t} {{\n{body}\nreturn %r : {t}\n}}")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def folded() -> Simulation:
    out = upstream_folded(_program())
    for name in CASES:  # every case folds to a constant: the comparison is with upstream
        body = re.search(rf"func.func @{name}\(\).*?\n  \}}", out, re.S).group(0)
        assert re.search(r"(arith\.cmpi|arith\.ceil|arith\.fpto|math\.)", body) is None, body
    return Simulation(mesh_dialect.parse(out, context=mesh_dialect.context()))


@pytest.fixture(scope="module")
def sim() -> Simulation:
    return Simulation(mesh_dialect.parse(_program(), context=mesh_dialect.context()))


@pytest.mark.parametrize("name", list(CASES))
def test_agrees_with_upstream_fold(name, sim, folded):
    (got,) = sim.run(name, [])
    (want,) = folded.run(name, [])
    assert np.asarray(got).dtype == np.asarray(want).dtype
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (got, want)


def _run(text: str, *inputs):
    return Simulation(mesh_dialect.parse(text, context=mesh_dialect.context())).run("f", list(inputs))


def test_ceildivsi_of_the_minimum():
    # upstream does not fold it (-a overflows); rounded toward +inf by the op's definition
    (r,) = _run("""func.func @f() -> i8 {
  %a = arith.constant -128 : i8
  %b = arith.constant -3 : i8
  %r = arith.ceildivsi %a, %b : i8
  return %r : i8
}""")
    assert r == 43


def test_fma_rounds_once():
    # (1 + 2^-23)^2 - (1 + 2^-22) is 2^-46 exactly; a product rounded first gives 0
    (r,) = _run("""func.func @f() -> f32 {
  %a = arith.constant 1.00000012 : f32
  %c = arith.constant -1.00000024 : f32
  %r = math.fma %a, %a, %c : f32
  return %r : f32
}""")
    assert r == np.float32(2.0**-46)


def test_fma_rounds_once_in_the_narrow_type_and_overflows_to_infinity():
    # the exact value is 1 + 2^-24 + 2^-70: through f64 it lands on the f32
    # tie and goes down to 1.0; rounded once it is 1 + 2^-23
    (r, big) = _run("""func.func @f() -> (f32, f64) {
  %x = arith.constant -0.99999988079071044921875 : f32
  %y = arith.constant 5.9604651880817982601e-08 : f32
  %z = arith.constant 1.00000011920928955078125 : f32
  %r = math.fma %x, %y, %z : f32
  %a = arith.constant 1.0e308 : f64
  %b = arith.constant 10.0 : f64
  %c = arith.constant 0.0 : f64
  %big = math.fma %a, %b, %c : f64
  return %r, %big : f32, f64
}""")
    assert r == np.float32(1 + 2.0**-23)
    assert big == np.inf


def test_truncf_rounding_modes():
    # 1 + 2^-11 lies halfway between two f16 neighbours, 1 and 1 + 2^-10
    text = """func.func @f() -> (f16, f16, f16, f16, f16) {
  %h = arith.constant 1.00048828125 : f32
  %a = arith.truncf %h : f32 to f16
  %b = arith.truncf %h to_nearest_away : f32 to f16
  %c = arith.truncf %h downward : f32 to f16
  %m = arith.constant -1.00048828125 : f32
  %d = arith.truncf %m upward : f32 to f16
  %big = arith.constant 70000.0 : f32
  %e = arith.truncf %big toward_zero : f32 to f16
  return %a, %b, %c, %d, %e : f16, f16, f16, f16, f16
}"""
    a, b, c, d, e = _run(text)
    assert [float(v) for v in (a, b, c, d, e)] == [1.0, 1 + 2.0**-10, 1.0, -1.0, 65504.0]


def test_scf_for_unsigned_compares_unsigned():
    # 0 to 2^31 (negative read signed) by 2^30: two iterations
    (r,) = _run("""func.func @f() -> i32 {
  %lb = arith.constant 0 : i32
  %ub = arith.constant -2147483648 : i32
  %st = arith.constant 1073741824 : i32
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%acc = %z) -> (i32) : i32 {
    %n = arith.addi %acc, %one : i32
    scf.yield %n : i32
  }
  return %r : i32
}""")
    assert r == 2


def test_named_matmul_of_i1_casts_signed():
    # the named op's body extends i1 with extsi: true is -1
    a = np.array([[True, True, False]])
    b = np.array([[3], [4], [9]], np.int32)
    (r,) = _run(
        """func.func @f(%a: tensor<1x3xi1>, %b: tensor<3x1xi32>) -> tensor<1x1xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x1xi32>
  %c = linalg.fill ins(%z : i32) outs(%e : tensor<1x1xi32>) -> tensor<1x1xi32>
  %r = linalg.matmul ins(%a, %b : tensor<1x3xi1>, tensor<3x1xi32>) outs(%c : tensor<1x1xi32>) -> tensor<1x1xi32>
  return %r : tensor<1x1xi32>
}""",
        a,
        b,
    )
    assert r.tolist() == [[-7]]


def test_extract_slice_drops_only_the_unit_dimensions_it_reduces():
    r, d, rank = _run("""func.func @f() -> (tensor<1x3xi32>, index, index) {
  %c = arith.constant dense<[[[1, 2, 3]], [[4, 5, 6]]]> : tensor<2x1x3xi32>
  %s = tensor.extract_slice %c[1, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<2x1x3xi32> to tensor<1x3xi32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %s, %c0 : tensor<1x3xi32>
  %r = tensor.rank %s : tensor<1x3xi32>
  return %s, %d, %r : tensor<1x3xi32>, index, index
}""")
    assert r.tolist() == [[4, 5, 6]] and d == 1 and rank == 2
