"""Casts into and out of i1 in the simulator, against upstream's folds.

numpy turns a nonzero integer into True and True into 1; MLIR's casts keep
the low bit when they narrow to i1 (2 is false) and read true as -1 when
they widen signed (extsi, sitofp, index_cast).  Upstream `mlir-opt
--canonicalize` folds each cast of a constant; the simulator must agree with
every fold.  The collectives' element conversion follows the signed casts."""

import re

import numpy as np
import pytest
from simhelpers import upstream_folded

import mesh_dialect
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.layout import combine, convert

# (function name, source constant and type, cast, result type)
CASES = [
    (f"{cast}_{src_name}", src, src_type, cast, dst)
    for cast, dst, sources in (
        ("trunci", "i1", ((0, "i32"), (1, "i32"), (2, "i32"), (3, "i32"), (-1, "i32"), (-2, "i8"))),
        ("extsi", "i32", ((0, "i1"), (1, "i1"))),
        ("extui", "i32", ((0, "i1"), (1, "i1"))),
        ("sitofp", "f32", ((0, "i1"), (1, "i1"))),
        ("uitofp", "f32", ((0, "i1"), (1, "i1"))),
        ("index_cast", "index", ((0, "i1"), (1, "i1"))),
        ("index_castui", "index", ((0, "i1"), (1, "i1"))),
        ("fptosi", "i1", ((-1.0, "f32"), (0.0, "f32"))),
        ("fptoui", "i1", ((1.0, "f32"), (0.0, "f32"))),
    )
    for src, src_type in sources
    for src_name in [f"{src_type}_{str(src).replace('-', 'm').replace('.', 'p')}"]
]


def _constant(value, type_: str) -> str:
    if type_ == "i1":
        return "true" if value else "false"
    return f"{value} : {type_}"


def _program() -> str:
    lines = []
    for name, src, src_type, cast, dst in CASES:
        lines += [
            f"func.func @{name}() -> {dst} {{",
            f"  %a = arith.constant {_constant(src, src_type)}",
            f"  %r = arith.{cast} %a : {src_type} to {dst}",
            f"  return %r : {dst}",
            "}",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def folded() -> dict[str, float]:
    """Per function, the number upstream folds it to (true is 1 here)."""
    out = upstream_folded(_program())
    found = {}
    for name, body in re.findall(r"func.func @(\w+)\(\) -> \S+ \{(.*?)\n  \}", out, re.S):
        constant = re.search(r"arith.constant (true|false|[-0-9.e+]+)", body)
        if constant and re.search(r"arith\.(ext|trunc|sitofp|uitofp|index_cast|fpto)", body) is None:
            text = constant.group(1)
            found[name] = {"true": 1.0, "false": 0.0}.get(text, None) if text in ("true", "false") else float(text)
    return found


def test_upstream_folds_every_case(folded):
    assert set(folded) == {c[0] for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_i1_casts_agree_with_upstream_folds(case, folded):
    name = case[0]
    sim = Simulation(mesh_dialect.parse(_program(), context=mesh_dialect.context()))
    (got,) = sim.run(name, [])
    assert float(got) == folded[name], name


def test_tensor_casts_keep_the_low_bit_and_sign_extend():
    text = """
func.func @f(%a: tensor<4xi32>, %b: tensor<2xi1>) -> (tensor<4xi1>, tensor<2xi32>, tensor<2xf32>) {
  %t = arith.trunci %a : tensor<4xi32> to tensor<4xi1>
  %e = arith.extsi %b : tensor<2xi1> to tensor<2xi32>
  %f = arith.sitofp %b : tensor<2xi1> to tensor<2xf32>
  return %t, %e, %f : tensor<4xi1>, tensor<2xi32>, tensor<2xf32>
}
"""
    sim = Simulation(mesh_dialect.parse(text, context=mesh_dialect.context()))
    t, e, f = sim.run("f", [np.array([0, 1, 2, -3], np.int32), np.array([True, False])])
    assert t.tolist() == [False, True, False, True]
    assert e.tolist() == [-1, 0]
    assert f.tolist() == [-1.0, 0.0]


def test_collective_conversion_is_the_signed_cast():
    assert convert(np.array([0, 1, 2, 3, -1], np.int32), np.bool_).tolist() == [False, True, False, True, True]
    assert convert(np.array([True, False]), np.int32).tolist() == [-1, 0]
    assert convert(np.array([True, False]), np.float32).tolist() == [-1.0, 0.0]
    # two devices holding true, summed in i32
    assert combine([np.array([True]), np.array([True])], "sum", np.int32).tolist() == [-2]
    # 0 and 2 as i1 are both false
    assert combine([np.array([0], np.int32), np.array([2], np.int32)], "bitwise_or", np.bool_).tolist() == [False]


def test_all_reduce_converts_like_a_signed_cast():
    text = """
mesh.mesh @m(shape = 2)
func.func @f() -> (tensor<1x1xi1> {mesh.sharding = #mesh.sharding<@m, [[0]]>},
                   tensor<1x1xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %i = mesh.process_multi_index on @m : index
  %c2 = arith.constant 2 : index
  %v = arith.muli %i, %c2 : index
  %vi = arith.index_cast %v : index to i32
  %t = tensor.from_elements %vi : tensor<1x1xi32>
  %r = mesh.all_reduce %t on @m mesh_axes = [0] reduction = <bitwise_or> : tensor<1x1xi32> -> tensor<1x1xi1>
  %true = arith.constant true
  %b = tensor.from_elements %true : tensor<1x1xi1>
  %s = mesh.all_reduce %b on @m mesh_axes = [0] reduction = <sum> : tensor<1x1xi1> -> tensor<1x1xi32>
  return %r, %s : tensor<1x1xi1>, tensor<1x1xi32>
}
"""
    sim = Simulation(mesh_dialect.parse(text, context=mesh_dialect.context()))
    r, s = sim.run("f", [])
    assert r.tolist() == [[False], [False]]
    assert s.tolist() == [[-2], [-2]]
