"""Integer arithmetic on i1 in the simulator, against upstream's folds.

numpy's bool arithmetic is not i1's: its add is an or, its subtract and
negate raise.  On i1, addition and subtraction wrap (an exclusive or), and
the signed ops read true as -1.  Upstream `mlir-opt --canonicalize` folds
each op on constant operands; every case it folds must agree with the
simulator (cases it leaves alone are undefined: a zero divisor, an
overflowing signed division, a shift by the width)."""

import itertools
import re

import numpy as np
import pytest
from simhelpers import upstream_folded

import mesh_dialect
from mesh_dialect.sim.api import Simulation

OPS = ("addi subi muli divsi divui remsi remui floordivsi ceildivsi ceildivui shli shrsi shrui andi ori xori").split()
PAIRS = list(itertools.product((False, True), repeat=2))


def _program() -> str:
    lines = []
    for op in OPS:
        for a, b in PAIRS:
            name = f"{op}_{int(a)}{int(b)}"
            lines += [
                f"func.func @{name}() -> i1 {{",
                f"  %a = arith.constant {str(a).lower()}",
                f"  %b = arith.constant {str(b).lower()}",
                f"  %r = arith.{op} %a, %b : i1",
                "  return %r : i1",
                "}",
            ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def folded() -> dict[str, bool]:
    """Per function, the constant upstream folds it to (left out: not folded)."""
    out = upstream_folded(_program())
    found = {}
    for name, body in re.findall(r"func.func @(\w+)\(\) -> i1 \{(.*?)\n  \}", out, re.S):
        constant = re.search(r"arith.constant (true|false)\n\s*return", body)
        if constant and "arith." + name.split("_")[0] not in body:
            found[name] = constant.group(1) == "true"
    return found


def test_upstream_folds_most_cases(folded):
    assert len(folded) >= 2 * len(OPS)  # the checks below are not vacuous


@pytest.mark.parametrize("op", OPS)
def test_i1_ops_agree_with_upstream_folds(op, folded):
    sim = Simulation(mesh_dialect.parse(_program(), context=mesh_dialect.context()))
    for a, b in PAIRS:
        name = f"{op}_{int(a)}{int(b)}"
        if name in folded:
            (got,) = sim.run(name, [])
            assert bool(got) == folded[name], name


def test_tensor_i1_add_and_sub_wrap():
    text = """
func.func @f(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %s = arith.addi %a, %b : tensor<4xi1>
  %d = arith.subi %a, %b : tensor<4xi1>
  return %s, %d : tensor<4xi1>, tensor<4xi1>
}
"""
    a = np.array([False, False, True, True])
    b = np.array([False, True, False, True])
    s, d = Simulation(mesh_dialect.parse(text, context=mesh_dialect.context())).run("f", [a, b])
    assert s.dtype == np.bool_ and s.tolist() == (a ^ b).tolist()
    assert d.tolist() == (a ^ b).tolist()
