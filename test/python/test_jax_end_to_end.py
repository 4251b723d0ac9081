"""JAX's own exports, end to end, without JAX: `import-shardings`,
`sharding-propagation`, `mesh-partition`, then `mesh-run` on JAX's inputs
must give JAX's output, with collectives no costlier than XLA's.

The exports, inputs, outputs and XLA's collectives are checked in under
test/Frontends/Inputs (written by generate.py there): a Megatron MLP, an
attention block and a layer norm on the mesh ("data"=2, "model"=4), each in
the Shardy and the GSPMD flavour.  The layouts JAX was asked for are
restated below as DTensor placements, and every device's piece of every
argument and result of the partitioned program is checked against them.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.ir.syntax import decode_sharding_attr
from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sharding.placements import Replicate, Shard, to_sharding

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "test" / "Frontends" / "Inputs"
BIN = Path(sys.executable).parent
MESH_OPT = os.environ.get("MESH_OPT") or str(BIN / "mesh-opt")
MESH_RUN = os.environ.get("MESH_RUN") or str(BIN / "mesh-run")

sys.path.insert(0, str(ROOT / "bench"))
from traffic import traffic  # noqa: E402  (the planner's cost model, as bench/plan_quality.py counts)

JAX_MESH = Mesh((2, 4), name="mesh")
AXES = ("data", "model")
FLAVOURS = ("shardy", "gspmd")
PIPELINE = "import-shardings, sharding-propagation, mesh-partition"

# The PartitionSpecs generate.py gave JAX: (arguments, result), one name or None per tensor dimension.
SPECS = {
    "mlp": ([("data", None), (None, "model"), ("model",), ("model", None), ()], ("data", None)),
    "mlp2": ([("data", None), (None, "model"), ("model", None), (None, "model"), ("model", None)], ("data", None)),
    "cnn": ([("data", "model"), (), ()], ("data", "model")),
    "loss": ([("data", None), (None, "model"), ("data", "model")], ()),
    "scan": ([("data", None), (None, None, "model"), (None, "model", None)], ("data", None)),
    "attention": (
        [("data",), (None, "model"), (None, "model"), (None, "model"), ("model",)],
        ("data",),
    ),
    "layernorm": ([("data", "model"), ("model",), ("model",)], ("data", "model")),
    "decode": ([("data", None), (None, "model")], ("data",)),
    "clip": ([("data", "model"), ("data", "model")], ("data", "model")),
    "topk": ([("data", "model")], ("data", None)),
    "dropout": ([("data", None), (None, "model"), ("model", None)], ("data", None)),
    "gradacc": ([(None, "model"), (None, "data", None), (None, "data", "model")], (None, "model")),
    "fsdp": ([("data", None), ("data", None), ("data", None), ("data", None)], ("data", None)),
}


def cases() -> list:
    return [pytest.param(name, flavour, id=f"{name}.{flavour}") for name in SPECS for flavour in FLAVOURS]


def placements(spec: tuple[str | None, ...]) -> list:
    """A PartitionSpec as DTensor placements: mesh axis `a` shards the
    tensor dimension naming it."""
    return [Shard(spec.index(axis)) if axis in spec else Replicate() for axis in AXES]


def arguments(name: str) -> list[np.ndarray]:
    count = len(SPECS[name][0])
    return [np.load(INPUTS / f"{name}.arg{i}.npy") for i in range(count)]


def tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("jax-e2e")


@functools.cache
def _pipeline(name: str, flavour: str, optimize: bool, workdir: Path) -> tuple[Path, subprocess.CompletedProcess]:
    out = workdir / f"{name}.{flavour}{'.optimized' if optimize else ''}.mlir"
    pipeline = PIPELINE + (", mesh-optimize-collectives" if optimize else "")
    p = tool(
        MESH_OPT,
        "--allow-unregistered-dialect",
        f"--pass-pipeline=builtin.module({pipeline})",
        str(INPUTS / f"{name}.{flavour}.mlir"),
        "-o",
        str(out),
    )
    return out, p


def partitioned(name: str, flavour: str, workdir: Path, optimize: bool = False) -> Path:
    """The export through the pipeline (plus mesh-optimize-collectives with
    `optimize`); run once per test session, failures included."""
    out, p = _pipeline(name, flavour, optimize, workdir)
    assert p.returncode == 0, f"mesh-opt failed on {name}.{flavour}:\n{p.stderr}"
    return out


def main_function(module: ir.Module | ir.Operation) -> ir.Operation:
    op = module.operation if hasattr(module, "operation") else module
    for child in op.regions[0].blocks[0].operations:
        if child.operation.name == "func.func" and ir.StringAttr(child.attributes["sym_name"]).value == "main":
            return child.operation
    raise AssertionError("no @main in the module")


def parse(path: Path) -> ir.Module:
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    return mesh_dialect.parse(path.read_text(), filename=str(path), context=ctx)


def xla_header(name: str, flavour: str) -> dict[str, int]:
    text = (INPUTS / f"{name}.{flavour}.xla-collectives.txt").read_text()
    count = re.search(r"^# collectives: (\d+)$", text, re.M)
    nbytes = re.search(r"^# bytes a device receives: (\d+)$", text, re.M)
    assert count and nbytes, text
    kinds: dict[str, int] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            kind = line.split()[0].replace("-", "_")
            kinds[kind] = kinds.get(kind, 0) + 1
    return {"collectives": int(count.group(1)), "bytes": int(nbytes.group(1)), "kinds": kinds}


# Float32 tolerance: each output element sums at most n = 32 terms (the
# longest reduction: hidden 32) of magnitude up to `scale`; summing them in
# another order (XLA's partitioned order vs the simulator's BLAS order)
# moves a result by about n * eps * scale at worst, and XLA's exp/rsqrt
# differ from numpy's by a few ulps.  JAX's outputs are measured within
# 1.7 * eps * scale of a float64 reference, so n * eps (rtol) and
# n * eps * scale (atol) leave a 10x margin yet catch any wrong piece (whose
# error is O(scale)).  It is mesh-run's own default rule.
REDUCTION = 32


def assert_runs_like_jax(program: Path, name: str, tmp_path: Path, *flags: str) -> None:
    """mesh-run `program`'s @main on the saved inputs; its result must be
    JAX's within the tolerance above."""
    inputs = [x for i in range(len(SPECS[name][0])) for x in ("-i", str(INPUTS / f"{name}.arg{i}.npy"))]
    p = tool(
        MESH_RUN,
        "--allow-unregistered-dialect",
        str(program),
        "-f",
        "main",
        *inputs,
        *flags,
        "-q",
        "--save-dir",
        str(tmp_path),
    )
    assert p.returncode == 0, p.stderr
    ours = np.load(tmp_path / "result0.npy")
    jax_out = np.load(INPUTS / f"{name}.result0.npy")
    eps = float(np.finfo(np.float32).eps)
    scale = float(np.abs(jax_out).max())
    assert ours.shape == jax_out.shape
    worst = float(np.abs(ours - jax_out).max())
    assert np.allclose(ours, jax_out, rtol=REDUCTION * eps, atol=REDUCTION * eps * scale), f"max error {worst}"


# -- the checked-in files (no missing piece) ------------------------------


@pytest.mark.parametrize(("name", "flavour"), cases())
def test_checked_in_exports_match_their_inputs(name, flavour):
    """Each export parses with unregistered dialects allowed, and its @main
    takes the saved inputs and returns the saved output's shape."""
    module = parse(INPUTS / f"{name}.{flavour}.mlir")
    text = (INPUTS / f"{name}.{flavour}.mlir").read_text()
    assert ("sdy.sharding" in text) == (flavour == "shardy")
    assert ("mhlo.sharding" in text) == (flavour == "gspmd")
    ftype = ir.FunctionType(ir.TypeAttr(main_function(module).attributes["function_type"]).value)
    args = arguments(name)
    assert [tuple(ir.ShapedType(t).shape) for t in ftype.inputs] == [a.shape for a in args]
    result = np.load(INPUTS / f"{name}.result0.npy")
    assert [tuple(ir.ShapedType(t).shape) for t in ftype.results] == [result.shape]
    assert all(a.dtype == np.float32 for a in args)
    # the result's element type is the export's (decode's argmax returns indices)
    element = str(ir.ShapedType(ftype.results[0]).element_type)
    assert result.dtype == {"f32": np.float32, "i32": np.int32}[element]
    assert xla_header(name, flavour)["collectives"] >= 1


@pytest.mark.parametrize(("name", "flavour"), cases())
def test_export_as_written_runs_like_jax(name, flavour, tmp_path):
    """mesh-run on the export as JAX wrote it, on one device (no import, no
    partition): the StableHLO ops alone already give JAX's output."""
    assert_runs_like_jax(INPUTS / f"{name}.{flavour}.mlir", name, tmp_path, "--global")


# -- through the pipeline ---------------------------------------------------


def _layouts(func: ir.Operation, key: str) -> list[tuple[str | None, Sharding]]:
    out = []
    for attrs in ir.ArrayAttr(func.attributes[key]):
        d = ir.DictAttr(attrs)
        if "mesh.sharding" not in d:
            out.append((None, Sharding(())))
            continue
        mesh, split, partial, kind, halos, offsets = decode_sharding_attr(str(d["mesh.sharding"]))
        out.append((mesh[1:], Sharding(tuple(map(tuple, split)), tuple(partial), kind, tuple(halos), tuple(offsets))))
    return out


def _mesh_of(module: ir.Module, name: str) -> Mesh:
    for op in module.operation.regions[0].blocks[0].operations:
        if op.operation.name == "mesh.mesh" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return Mesh(tuple(ir.DenseI64ArrayAttr(op.attributes["shape"])), name=name)
    raise AssertionError(f"no mesh.mesh @{name}")


@pytest.mark.parametrize(("name", "flavour"), cases())
def test_partitioned_signature_gives_each_device_jaxs_piece(name, flavour, workdir):
    """Device d (XLA's device id = our linear index) holds, of every argument
    and the result, the piece JAX's sharding gives it."""
    module = parse(partitioned(name, flavour, workdir))
    func = main_function(module)
    arg_specs, result_spec = SPECS[name]
    shapes = [a.shape for a in arguments(name)] + [np.load(INPUTS / f"{name}.result0.npy").shape]
    wanted = [to_sharding(placements(s), JAX_MESH, shape) for s, shape in zip(arg_specs + [result_spec], shapes)]
    got = _layouts(func, "arg_attrs") + _layouts(func, "res_attrs")
    meshes = {m for m, _ in got if m is not None}
    assert len(meshes) == 1, f"one mesh expected, got {meshes}"
    mesh = _mesh_of(module, meshes.pop())
    assert mesh.size == JAX_MESH.size
    for i, ((_, ours), theirs, shape) in enumerate(zip(got, wanted, shapes)):
        assert not ours.is_partial, f"value {i} is partial: {ours}"
        for d in range(mesh.size):
            assert ours.slice_of(shape, mesh, mesh.multi_index(d)) == theirs.slice_of(
                shape, JAX_MESH, JAX_MESH.multi_index(d)
            ), f"value {i} ({ours} on {mesh}) on device {d}"


@pytest.mark.parametrize("optimize", [False, True], ids=["plain", "optimized"])
@pytest.mark.parametrize(("name", "flavour"), cases())
def test_mesh_run_equals_jax(name, flavour, optimize, workdir, tmp_path):
    """The partitioned program on all 8 simulated devices gives JAX's output."""
    assert_runs_like_jax(partitioned(name, flavour, workdir, optimize), name, tmp_path)


@pytest.mark.parametrize(("name", "flavour"), cases())
def test_collectives_no_costlier_than_xla(name, flavour, workdir):
    """Bytes a device receives, with the planner's model on both sides
    (bench/traffic.py for ours, bench/xla_plans.py for XLA's HLO).  Fair
    here: XLA on CPU writes no reduce-scatter these programs could use, so
    both price the same kind of plan; ours is after mesh-optimize-collectives,
    as bench/plan_quality.py counts.  `pytest -s` prints both plans."""
    xla = xla_header(name, flavour)
    plain_path = partitioned(name, flavour, workdir)
    mesh = re.search(r"^\s*mesh\.mesh @\S+\(shape = ([\dx]+)\)", plain_path.read_text(), re.M)
    assert mesh, "no mesh.mesh in the partitioned program"
    shape = tuple(int(n) for n in mesh.group(1).split("x"))
    plain = traffic(plain_path.read_text(), shape, 4)
    optimized = traffic(partitioned(name, flavour, workdir, True).read_text(), shape, 4)
    assert plain is not None and optimized is not None
    print(
        f"{name}.{flavour}: ours {plain[0]} collectives / {plain[1]} bytes {plain[2]}, "
        f"optimized {optimized[0]} / {optimized[1]} {optimized[2]}; "
        f"XLA {xla['collectives']} / {xla['bytes']} {xla['kinds']}"
    )
    assert optimized[1] <= xla["bytes"], f"ours {optimized[1]} bytes, XLA {xla['bytes']}"


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_gradient_accumulation_reduces_once_after_the_loop(flavour, workdir):
    """The gradient summed over micro-batches in `lax.scan` stays partial
    through the loop: one all_reduce of the 16x8 piece (512 bytes) after it,
    where XLA all-reduces each micro-batch's gradient inside the loop (4 x
    512 bytes at run time)."""
    module = parse(partitioned("gradacc", flavour, workdir))  # kept: its ops live as long as it does
    ops = _ops(main_function(module))
    assert ("stablehlo.while", "func.func") in ops
    collectives = [(name, holder) for name, holder in ops if name.startswith("mesh.")]
    assert collectives == [("mesh.all_reduce", "func.func")]


def _ops(op: ir.Operation) -> list[tuple[str, str]]:
    """Every op nested in `op`, with the name of the op holding it."""
    out = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                out.append((inner.operation.name, op.name))
                out += _ops(inner.operation)
    return out


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_fsdp_step_moves_activations_instead_of_weights(flavour, workdir):
    """Under FSDP (weights' rows on "data", like the batch) XLA gathers the
    weights (4,992 bytes a device with Shardy, 5,760 with GSPMD); on a
    batch of 8 the cost solver's plan moves activations and gradient pieces
    instead: 1,664 bytes in five collectives."""
    path = partitioned("fsdp", flavour, workdir)
    collectives, nbytes, kinds = traffic(path.read_text(), (2, 4), 4)
    assert (collectives, nbytes) == (5, 1664)
    assert kinds == {"all_to_all": 1, "reduce_scatter": 2, "all_gather": 2}
    assert nbytes * 3 <= xla_header("fsdp", flavour)["bytes"]  # a third of XLA's bytes or less
