"""JAX's own exports, end to end, without JAX: `import-shardings`,
`sharding-propagation`, `mesh-partition`, then `mesh-run` on JAX's inputs
must give JAX's output, with collectives no costlier than XLA's.

The exports, inputs, outputs and XLA's collectives are checked in under
test/Frontends/Inputs (written by generate.py there, which says what each
program is for): Megatron layers, attention, convolutions, scans, scatters,
gradients, integer and uneven programs on the mesh ("data"=2, "model"=4),
each in the Shardy and the GSPMD flavour.  The layouts JAX was asked for
are restated below as mesh axes per dimension, and every device's piece of
every argument and result of the partitioned program is checked against
them.
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

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "test" / "Frontends" / "Inputs"
BIN = Path(sys.executable).parent
MESH_OPT = os.environ.get("MESH_OPT") or str(BIN / "mesh-opt")
MESH_RUN = os.environ.get("MESH_RUN") or str(BIN / "mesh-run")

sys.path.insert(0, str(ROOT / "bench"))
from jax_plans import busiest, priced, xla_header  # noqa: E402  (the planner's cost model, as bench/plan_quality.py counts)
from traffic import traffic  # noqa: E402

JAX_MESH = Mesh((2, 4), name="mesh")
AXES = ("data", "model")
FLAVOURS = ("shardy", "gspmd")
PIPELINE = "import-shardings, prepare-windows, sharding-propagation, mesh-partition"

# The PartitionSpecs generate.py gave JAX: (arguments, results), one entry per tensor dimension: a mesh
# axis, a tuple of them (the first outermost), or None.
DM = ("data", "model")
# the Llama block's arguments (generate.py's LLAMA_SPECS)
LLAMA = [("data",), (), *[(None, "model")] * 3, ("model",), (), *[(None, "model")] * 2, ("model", None)]
SPECS = {
    "mlp": ([("data", None), (None, "model"), ("model",), ("model", None), ()], [("data", None)]),
    "mlp2": ([("data", None), (None, "model"), ("model", None), (None, "model"), ("model", None)], [("data", None)]),
    "cnn": ([DM, (), ()], [DM]),
    "loss": ([("data", None), (None, "model"), DM], [()]),
    "scan": ([("data", None), (None, None, "model"), (None, "model", None)], [("data", None)]),
    "attention": (
        [("data",), (None, "model"), (None, "model"), (None, "model"), ("model",)],
        [("data",)],
    ),
    "layernorm": ([DM, ("model",), ("model",)], [DM]),
    "decode": ([("data", None), (None, "model")], [("data",)]),
    "clip": ([DM, DM], [DM]),
    "topk": ([DM], [("data", None)]),
    "dropout": ([("data", None), (None, "model"), ("model", None)], [("data", None)]),
    "gradacc": ([(None, "model"), (None, "data", None), (None, "data", "model")], [(None, "model")]),
    "fsdp": ([("data", None), ("data", None), ("data", None), ("data", None)], [("data", None)]),
    "causal": ([DM, (), (), ()], [DM]),
    "cumsum": ([DM], [DM] * 3),
    "argmax_ties": ([DM], [("data",), ("data",), ()]),
    "int_mean": ([DM], [("data",), ("model",), ("data",)]),
    "conv2d": ([(None, "data", "model"), (), ()], [(None, "data", "model")] * 4),
    "rms_grad": ([("data",), (), (None, "model"), ("model", None)], [(), (None, "model"), ("model", None)]),
    "scatter": ([DM, (), DM], [DM] * 3),
    "searchsorted": ([("model",), ("data",)], [("data",), ("data",)]),
    "histogram": ([(), DM], [()]),
    "uneven": ([(), ()], [()] * 6),
    "uneven_softmax": ([(), ()], [(), ()]),
    "uneven_gelu": ([("data", None), (), ()], [("data", None)]),
    "seq_flip": ([DM], [DM]),
    "seq_roll": ([DM], [DM]),
    "seq_flip_axes": ([(None, ("model", "data"))], [(None, ("model", "data"))]),
    "seq_flip_axes_dm": ([(None, DM)], [(None, DM)]),
    "seq_roll_axes": ([(None, ("model", "data"))], [(None, ("model", "data"))]),
    "seq_pad": ([DM], [DM]),
    "seq_diff": ([DM], [DM]),
    "seq_shift": ([DM], [DM]),
    "seq_filter": ([DM], [DM]),
    "seq_tv": ([DM], [()]),
    "seq_next_token": ([DM, DM], [()]),
    "seq_next_token_take": ([DM, DM], [()]),
    "reshard": (
        [DM],
        [("model", "data"), (("model", "data"),), (DM,), (None, ("model", "data")), (), ("model",)],
    ),
    "llama": (LLAMA, [("data",)]),
    "llama_sp": ([DM, *LLAMA[1:]], [DM]),
    "llama_fsdp_grad": (
        [("data",), (), DM, DM, DM, ("model", None, "data"), (), DM, DM, ("model", "data")],
        [DM, DM, ("model", "data")],
    ),
    "moe_top1": ([("data", None), (), ("model",)], [("data", None)]),
    "embed": ([("model", None), ("data", None)], [("data", None, None)]),
    "xent_take": ([DM, ("data",)], [()]),
    "xent_index": ([DM, ("data",)], [()]),
    "contrastive": ([("data",), ("data",)], [()]),
    "adam": ([(None, "model")] * 3 + [("data",), DM], [(None, "model")] * 3),
    "moe_top2": ([("data", None), (), ("model",)], [("data", None)]),
    "sort_pieces": ([DM], [DM, DM]),
    "while_halve": ([DM], [DM]),
    "causal_conv": ([DM, (), ()], [DM]),
    "second_difference": ([DM], [("data",), ("data",)]),
    "conv_up": ([(None, "data", "model"), (), (), (None, "data", "model")], [(None, "data", "model")] * 2),
    "conv_grad": ([(None, "data", "model"), ()], [(None, "data", "model"), ()]),
    "pool_grad": ([(None, "data", "model"), ()], [(None, "data", "model"), ()]),
    "mlp_grad": ([("data",), (None, "model"), ("model",), ("data",)], [(None, "model"), ("model",)]),
    "block_grad": ([("data",), (), (None, "model"), ("model",)], [(None, "model"), ()]),
    "attention_grad": ([("data",), *[(None, "model")] * 3], [(None, "model")]),
    "batch_norm": ([DM], [DM]),
    "concat": ([DM, DM], [DM, DM]),
    "rope_head_dim": ([("data", None, "model"), DM, DM], [("data", None, "model")]),
    "scan_fsdp": ([(None, "model"), ("data",)], [("data",)]),
    "scan_grad_fsdp": ([(None, "model"), ("data",)], [(None, "model")]),
    "mlp_scan_grad_fsdp": ([(None, "model"), (None, "model"), ("data",)], [(None, "model")] * 2),
    "kv_decode_uneven": ([("data",)] * 3 + [()] * 5, [("data",)] * 3),
    "scan_uneven": ([DM, (), ()], [("data",)]),
    "pool_conv_uneven": ([DM, (), ()], [("data",)]),
    "slot_cache_uneven": ([()] * 5, [(), ()]),
}


def cases() -> list:
    return [pytest.param(name, flavour, id=f"{name}.{flavour}") for name in SPECS for flavour in FLAVOURS]


def layout(spec: tuple, shape: tuple[int, ...]) -> Sharding:
    """A PartitionSpec as a `Sharding`: each dimension cut over the mesh axes
    it names, the first outermost (JAX's order and ours).  JAX's arguments
    and results here divide evenly, so the pieces are the plain ones."""
    split = []
    for d, entry in enumerate(spec):
        names = () if entry is None else (entry,) if isinstance(entry, str) else entry
        split.append(tuple(AXES.index(a) for a in names))
        assert shape[d] % JAX_MESH.group_size(split[-1]) == 0, f"{spec} does not divide {shape} evenly"
    return Sharding(tuple(split))


def arguments(name: str) -> list[np.ndarray]:
    count = len(SPECS[name][0])
    return [np.load(INPUTS / f"{name}.arg{i}.npy") for i in range(count)]


def results(name: str) -> list[np.ndarray]:
    """JAX's outputs, one file per result."""
    count = len(SPECS[name][1])
    return [np.load(INPUTS / f"{name}.result{i}.npy") for i in range(count)]


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


# Float32 tolerance (integer results must be equal): each element of a
# result sums at most n = 32 terms (the longest reduction: hidden 32) of
# magnitude up to the result's `scale`; summing them in another order
# (XLA's partitioned order vs the simulator's BLAS order) moves an element
# by about n * eps * scale at worst, and XLA's exp/rsqrt differ from
# numpy's by a few ulps.  JAX's outputs are measured within 1.7 * eps *
# scale of a float64 reference, so n * eps (rtol) and n * eps * scale
# (atol) leave a 10x margin yet catch any wrong piece (whose error is
# O(scale)).  It is mesh-run's own default rule.
REDUCTION = 32


# mesh-run's results by (program text, name, flags): mesh-optimize-collectives
# mostly leaves a program as it was, and its twin need not be simulated again.
_SIMULATED: dict[tuple[str, str, tuple[str, ...]], list[np.ndarray]] = {}


def simulate(program: Path, name: str, tmp_path: Path, *flags: str) -> list[np.ndarray]:
    """mesh-run `program`'s @main on the saved inputs, once per distinct program text."""
    key = (program.read_text(), name, flags)
    if key not in _SIMULATED:
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
        _SIMULATED[key] = [np.load(tmp_path / f"result{i}.npy") for i in range(len(SPECS[name][1]))]
    return _SIMULATED[key]


def assert_runs_like_jax(program: Path, name: str, tmp_path: Path, *flags: str) -> None:
    """mesh-run `program`'s @main on the saved inputs; each result must be
    JAX's within the tolerance above."""
    simulated = simulate(program, name, tmp_path, *flags)
    eps = float(np.finfo(np.float32).eps)
    for i, (ours, jax_out) in enumerate(zip(simulated, results(name), strict=True)):
        assert (ours.shape, ours.dtype) == (jax_out.shape, jax_out.dtype), f"result {i}"
        if jax_out.dtype != np.float32:
            assert np.array_equal(ours, jax_out), f"result {i}: {ours} != {jax_out}"
            continue
        scale = float(np.abs(jax_out).max())
        worst = float(np.abs(ours - jax_out).max())
        assert np.allclose(ours, jax_out, rtol=REDUCTION * eps, atol=REDUCTION * eps * scale), (
            f"result {i}: max error {worst}"
        )


# -- the checked-in files (no missing piece) ------------------------------


@pytest.mark.parametrize(("name", "flavour"), cases())
def test_checked_in_exports_match_their_inputs(name, flavour):
    """Each export parses with unregistered dialects allowed, and its @main
    takes the saved inputs and returns the saved outputs' shapes and
    element types (f32, or i32 for indices and integer programs)."""
    module = parse(INPUTS / f"{name}.{flavour}.mlir")
    text = (INPUTS / f"{name}.{flavour}.mlir").read_text()
    assert ("sdy.sharding" in text) == (flavour == "shardy")
    assert ("mhlo.sharding" in text) == (flavour == "gspmd")
    ftype = ir.FunctionType(ir.TypeAttr(main_function(module).attributes["function_type"]).value)
    dtypes = {"f32": np.float32, "i32": np.int32}

    def signature(types: list) -> list[tuple]:
        return [(tuple(ir.ShapedType(t).shape), dtypes[str(ir.ShapedType(t).element_type)]) for t in types]

    assert signature(ftype.inputs) == [(a.shape, a.dtype) for a in arguments(name)]
    assert signature(ftype.results) == [(r.shape, r.dtype) for r in results(name)]
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
    and result, the piece JAX's sharding gives it."""
    module = parse(partitioned(name, flavour, workdir))
    func = main_function(module)
    arg_specs, result_specs = SPECS[name]
    shapes = [a.shape for a in arguments(name)] + [r.shape for r in results(name)]
    wanted = [layout(s, shape) for s, shape in zip(arg_specs + result_specs, shapes, strict=True)]
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


# Where ours moves more as both count it (each collective once, as written).
# scan_fsdp: XLA all-reduces each layer's partial product inside the scan's
# loop (1,536 bytes, three times a run) and gathers 768 bytes; ours sends
# the stacked weights to a split of their other dimension once, before the
# loop (2,304), and gathers the activations in it (768 a step): 4,608 bytes
# a run against XLA's 5,376.
# scan_grad_fsdp: the same forward loop, then a backward one whose every
# step gathers the activations' gradient (768), reduces the weight's
# gradient over "data" (1,024) and writes it into a stack kept split as
# the weights are: 9,984 bytes a run, as XLA's plan moves.
MOVES_MORE = {"scan_fsdp": 3072, "scan_grad_fsdp": 4864}


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
    plain = priced(plain_path.read_text(), shape)
    optimized = priced(partitioned(name, flavour, workdir, True).read_text(), shape)
    print(
        f"{name}.{flavour}: ours {plain[0]} collectives / {plain[1]} bytes {plain[2]}, "
        f"optimized {optimized[0]} / {optimized[1]} {optimized[2]}; "
        f"XLA {xla['collectives']} / {xla['bytes']} {xla['kinds']}"
    )
    if name in MOVES_MORE:
        assert optimized[1] == MOVES_MORE[name] > xla["bytes"]
    else:
        assert optimized[1] <= xla["bytes"], f"ours {optimized[1]} bytes, XLA {xla['bytes']}"


@pytest.mark.parametrize(("name", "flavour"), cases())
def test_collectives_in_a_run_no_costlier_than_xla(name, flavour, workdir):
    """Bytes a device receives in a run, each collective counted as often
    as it runs: ours by mesh-analysis's busiest device, which follows the
    loops, XLA's by its while loops' known trip counts.  The scans above
    move no more than XLA's plans when so counted."""
    xla = xla_header(name, flavour)
    path = partitioned(name, flavour, workdir, True)
    module = mesh_dialect.parse(path.read_text(), context=mesh_dialect.context(allow_unregistered_dialects=True))
    ours = busiest(module).bytes_received
    print(f"{name}.{flavour}: ours {ours} bytes in a run, XLA {xla['run']}")
    assert ours <= xla["run"], f"ours {ours} bytes in a run, XLA {xla['run']}"


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_gather_the_next_op_slices_back_is_undone(flavour, workdir):
    """uneven_gelu's hidden layer is constrained to whole rows, which the
    second matmul splits again: partition gathers over "data" and slices
    back; mesh-optimize-collectives leaves the one all_reduce of the
    second matmul's partial sums (384 bytes against XLA's 432)."""
    shape = (2, 4)
    plain = priced(partitioned("uneven_gelu", flavour, workdir).read_text(), shape)
    optimized = priced(partitioned("uneven_gelu", flavour, workdir, True).read_text(), shape)
    assert plain == (2, 432, {"all_gather": 1, "all_reduce": 1})
    assert optimized == (1, 384, {"all_reduce": 1})


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
    collectives, nbytes, kinds = traffic(path.read_text(), (2, 4))
    assert (collectives, nbytes) == (5, 1664)
    assert kinds == {"all_to_all": 1, "reduce_scatter": 2, "all_gather": 2}
    assert nbytes * 3 <= xla_header("fsdp", flavour)["bytes"]  # a third of XLA's bytes or less
