"""bench/traffic.py's byte model against the simulator: for every mesh
collective, on a few meshes, groups and shapes, the model's bytes (the most
any device receives) equal the most any device receives in a simulated run
(`count_traffic`).  Both numbers are computed here, so a model that drifts
from the simulator fails."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import mesh_dialect
from mesh_dialect.sim.api import Simulation, random_inputs
from mesh_dialect.sim.collectives import count_traffic

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from traffic import traffic  # noqa: E402  (bench/traffic.py)

ROWS, COLS = 12, 5
"""A device's input: rows divisible by every group size used here."""


ELEMENT = ["f32"]
"""The element type `_t` writes (the last test sets it to others)."""


def _t(rows: int, cols: int = COLS) -> str:
    return f"tensor<{rows}x{cols}x{ELEMENT[0]}>"


def _program(mesh: tuple[int, ...], body: str, source: str, result: str) -> str:
    """One function on mesh @m: its argument and result are split over every
    mesh axis, so each device gets its own piece of `source` and returns
    its own `result`, whatever the collective leaves on it."""
    shape = "x".join(map(str, mesh))
    axes = ", ".join(str(a) for a in range(len(mesh)))
    layout = f"{{mesh.sharding = #mesh.sharding<@m, [[{axes}]]>}}"
    return (
        f"mesh.mesh @m(shape = {shape})\n"
        f"func.func @f(%x: {source} {layout}) -> ({result} {layout}) {{\n"
        f"  {body}\n"
        f"  return %r : {result}\n"
        "}\n"
    )


def _collectives(mesh: tuple[int, ...], axes: list[int]) -> dict[str, str]:
    """name -> program of one collective over `axes` of `mesh`."""
    g = 1
    for a in axes:
        g *= mesh[a]
    on = f"on @m mesh_axes = {axes}"
    root = str([mesh[a] - 1 for a in axes])  # the group's last device, not its first
    x = _t(ROWS)
    ops = {
        "all_gather": (f"%r = mesh.all_gather %x {on} gather_axis = 0 : {x} -> {_t(ROWS * g)}", _t(ROWS * g)),
        "all_reduce": (f"%r = mesh.all_reduce %x {on} : {x} -> {x}", x),
        "all_slice": (f"%r = mesh.all_slice %x {on} slice_axis = 0 : {x} -> {_t(ROWS // g)}", _t(ROWS // g)),
        "all_to_all": (
            f"%r = mesh.all_to_all %x {on} split_axis = 0 concat_axis = 1 : {x} -> {_t(ROWS // g, COLS * g)}",
            _t(ROWS // g, COLS * g),
        ),
        "reduce_scatter": (
            f"%r = mesh.reduce_scatter %x {on} scatter_axis = 0 : {x} -> {_t(ROWS // g)}",
            _t(ROWS // g),
        ),
        "broadcast": (f"%r = mesh.broadcast %x {on} root = {root} : ({x}) -> {x}", x),
        "gather": (f"%r = mesh.gather %x {on} gather_axis = 0 root = {root} : ({x}) -> {_t(ROWS * g)}", _t(ROWS * g)),
        "reduce": (f"%r = mesh.reduce %x {on} root = {root} : ({x}) -> {x}", x),
        "scatter": (
            f"%r = mesh.scatter %x {on} scatter_axis = 0 root = {root} : ({x}) -> {_t(ROWS // g)}",
            _t(ROWS // g),
        ),
    }
    programs = {name: _program(mesh, body, x, result) for name, (body, result) in ops.items()}
    a = axes[0]
    for offset, rotate in ((1, ""), (-2, ""), (1, " rotate"), (mesh[a], " rotate"), (mesh[a], "")):
        body = f"%r = mesh.shift %x {on} shift_axis = {a} offset = {offset}{rotate} : {x} -> {x}"
        programs[f"shift {offset}{rotate}"] = _program(mesh, body, x, x)
    # send/recv: in each group along axis `a`, coordinate 0 sends to 1, which receives.
    if mesh[a] > 1:
        body = (
            f"%i:{len(mesh)} = mesh.process_multi_index on @m : " + ", ".join(["index"] * len(mesh)) + "\n"
            "  %c0 = arith.constant 0 : index\n"
            "  %c1 = arith.constant 1 : index\n"
            f"  %first = arith.cmpi eq, %i#{a}, %c0 : index\n"
            f"  %second = arith.cmpi eq, %i#{a}, %c1 : index\n"
            f"  %r = scf.if %first -> ({x}) {{\n"
            f"    %s = mesh.send %x on @m mesh_axes = [{a}] destination = [1] : ({x}) -> {x}\n"
            f"    scf.yield %s : {x}\n"
            "  } else {\n"
            f"    %q = scf.if %second -> ({x}) {{\n"
            f"      %v = mesh.recv %x on @m mesh_axes = [{a}] source = [0] : ({x}) -> {x}\n"
            f"      scf.yield %v : {x}\n"
            "    } else {\n"
            f"      scf.yield %x : {x}\n"
            "    }\n"
            f"    scf.yield %q : {x}\n"
            "  }"
        )
        programs["send/recv"] = _program(mesh, body, x, x)
    # an exchange: coordinates 2k and 2k + 1 along `a` swap their pieces, the
    # even one sending first (the pair in both branches, a device runs one)
    if mesh[a] % 2 == 0:
        body = (
            f"%i:{len(mesh)} = mesh.process_multi_index on @m : " + ", ".join(["index"] * len(mesh)) + "\n"
            "  %c1 = arith.constant 1 : index\n"
            f"  %bit = arith.andi %i#{a}, %c1 : index\n"
            f"  %peer = arith.xori %i#{a}, %c1 : index\n"
            "  %odd = arith.cmpi eq, %bit, %c1 : index\n"
            f"  %r = scf.if %odd -> ({x}) {{\n"
            f"    %v = mesh.recv %x on @m mesh_axes = [{a}] source = [%peer] : ({x}, index) -> {x}\n"
            f"    %s = mesh.send %x on @m mesh_axes = [{a}] destination = [%peer] : ({x}, index) -> {x}\n"
            f"    scf.yield %v : {x}\n"
            "  } else {\n"
            f"    %s = mesh.send %x on @m mesh_axes = [{a}] destination = [%peer] : ({x}, index) -> {x}\n"
            f"    %v = mesh.recv %x on @m mesh_axes = [{a}] source = [%peer] : ({x}, index) -> {x}\n"
            f"    scf.yield %v : {x}\n"
            "  }"
        )
        programs["exchange"] = _program(mesh, body, x, x)
    return programs


def _halos(mesh: tuple[int, ...]) -> dict[str, str]:
    """update_halo programs: one and two split dimensions, halos wider than
    a core, source halos dropped or kept, a group of one device."""
    cases = {
        "rows": ([[0]], [0, 0], [1, 1], (4, 3)),
        "rows, low only": ([[0]], [0, 0], [2, 0], (4, 3)),
        "rows, wider than a core": ([[0]], [1, 1], [3, 5], (2, 3)),
    }
    if len(mesh) > 1:
        cases["rows and columns"] = ([[0], [1]], [0, 0, 0, 0], [1, 2, 2, 1], (4, 5))
        cases["columns, source halos kept"] = ([[], [1]], [1, 1], [1, 1], (4, 5))
    programs = {}
    for name, (split, src, dst, core) in cases.items():
        sharded = [d for d, axes in enumerate(split) if axes]
        source = list(core)
        dest = list(core)
        for i, d in enumerate(sharded):
            source[d] += src[2 * i] + src[2 * i + 1]
            dest[d] += dst[2 * i] + dst[2 * i + 1]
        s, t = _t(*source), _t(*dest)
        body = (
            f"%e = tensor.empty() : {t}\n"
            f"  %r = mesh.update_halo %x into %e on @m split_axes = {split} "
            f"source_halo_sizes = {src} destination_halo_sizes = {dst} : {s} -> {t}"
        )
        programs[f"update_halo {name}"] = _program(mesh, body, s, t)
    return programs


CASES = [
    (mesh, axes, name, text)
    for mesh, groups in (((4,), ([0],)), ((2, 3), ([1], [0, 1], [1, 0])), ((3, 1), ([0], [1])))
    for axes in groups
    for name, text in _collectives(mesh, list(axes)).items()
] + [(mesh, None, name, text) for mesh in ((4,), (2, 3), (3, 1)) for name, text in _halos(mesh).items()]


def _simulated(text: str) -> int:
    """The most bytes any device receives in a run of @f."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    sim = Simulation(module.operation)
    sig = sim.signature("f")
    with count_traffic() as counts:
        sim.run("f", random_inputs(sig, sim.runner("m").mesh, 0), seed=0)
    return max(counts.values(), default=0)


@pytest.mark.parametrize(
    ("mesh", "axes", "name", "text"), CASES, ids=[f"{'x'.join(map(str, c[0]))}-{c[1]}-{c[2]}" for c in CASES]
)
def test_model_equals_simulator(mesh, axes, name, text):
    count, modelled, _ = traffic(text, mesh)
    # all_slice moves nothing and is not counted as communicating
    expected = {"all_slice": 0, "send/recv": 2, "exchange": 4}.get(name, 1)
    assert count == expected, f"the model did not see the collective in:\n{text}"
    assert modelled == _simulated(text), f"{name} on {mesh} over {axes}:\n{text}"
    # Upstream's spelling of the same ops is read alike (its update_halo has
    # another form, checked below).
    if not name.startswith("update_halo"):
        upstream = text.replace("mesh.", "shard.").replace("mesh_axes", "grid_axes")
        assert traffic(upstream, mesh)[1] == modelled


def test_upstream_update_halo():
    """Upstream's `halo_sizes` are the source's and the destination's."""
    ours = (
        "%r = mesh.update_halo %x into %e on @m split_axes = [[0]] source_halo_sizes = [1, 2] "
        "destination_halo_sizes = [1, 2] : tensor<7x3xf32> -> tensor<7x3xf32>"
    )
    theirs = "%r = shard.update_halo %x on @grid split_axes = [[0]] halo_sizes = [1, 2] : tensor<7x3xf32>"
    assert traffic(ours, (4,))[1] == traffic(theirs, (4,))[1] == (1 + 2) * 3 * 4


def _element_programs(element: str) -> dict[str, str]:
    """Every collective over both axes of a 2x3 mesh, and the halo
    programs, on elements of type `element`."""
    ELEMENT[0] = element
    try:
        return {**_collectives((2, 3), [0, 1]), **_halos((2, 3))}
    finally:
        ELEMENT[0] = "f32"


BYTES = {"bf16": 2, "f16": 2, "f64": 8, "i8": 1, "i64": 8}
F32 = _element_programs("f32")
WIDE_AND_NARROW = [
    (element, name, text)
    for element in BYTES
    for name, text in _element_programs(element).items()
    if name not in ("all_slice", "send/recv", "exchange") and not name.startswith("shift")
]


@pytest.mark.parametrize(("element", "name", "text"), WIDE_AND_NARROW, ids=[f"{c[0]}-{c[1]}" for c in WIDE_AND_NARROW])
def test_an_element_weighs_its_type(element, name, text):
    """A bf16 collective moves half the bytes of its f32 twin, an f64 one
    twice (the simulator counts bf16 at its own width though it holds it in
    f32)."""
    modelled = traffic(text, (2, 3))[1]
    assert modelled == _simulated(text), f"{name} of {element}:\n{text}"
    assert modelled * 4 == traffic(F32[name], (2, 3))[1] * BYTES[element] > 0
