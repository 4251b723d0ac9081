"""Writes the shard_map programs of test/Sim/shard_map (run by hand in a
venv with JAX 0.10; the tests do not need JAX): each program is exported by
JAX in generic form (`jax.jit(f, in_shardings=..., out_shardings=...)
.lower(...).compiler_ir("stablehlo")`) with its `sdy.manual_computation`
as JAX writes it, and beside it NAME.npz holds the inputs (`arg0`, ...)
and JAX's results on 8 CPU devices (`out0`, ...).  `xla.json` holds, per
program with layouts, the bytes a device receives in XLA's compiled plan
(bench/xla_plans.py's reading of its HLO).

    XLA_FLAGS=--xla_force_host_platform_device_count=8 python test/Sim/shard_map/Inputs/export.py
"""

from __future__ import annotations

import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import shard_map
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "bench"))
from xla_plans import collectives as xla_collectives  # noqa: E402  (bench/xla_plans.py)

XLA: dict[str, dict] = {}
RNG = np.random.default_rng(7)
MESH = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))


def normal(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def named(spec):
    return None if spec is None else NamedSharding(MESH, spec)


def write(name, f, args, ins=None, out=None) -> None:
    jitted = jax.jit(
        f,
        in_shardings=None if ins is None else tuple(named(p) for p in ins),
        out_shardings=named(out),
    )
    module = jitted.lower(*args).compiler_ir("stablehlo")
    text = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    with open(os.path.join(HERE, f"{name}.mlir"), "w", encoding="utf-8") as file:
        file.write(text)
    results = jitted(*args)
    results = results if isinstance(results, tuple) else (results,)
    arrays = {f"arg{i}": np.asarray(a) for i, a in enumerate(args)}
    arrays.update({f"out{i}": np.asarray(r) for i, r in enumerate(results)})
    np.savez(os.path.join(HERE, f"{name}.npz"), **arrays)
    if ins is not None:
        plan = xla_collectives(jitted.lower(*args).compile().as_text(), MESH.size)
        XLA[name] = {"collectives": plan["collectives"], "bytes": plan["bytes"], "kinds": plan["kinds"]}


def psum_matmul(x, w):
    return jax.lax.psum(x @ w, "model")


def row_parallel(x, w):
    """A row-parallel matmul by hand, arguments laid out as it reads them."""
    return shard_map(psum_matmul, mesh=MESH, in_specs=(P("data", "model"), P("model", None)), out_specs=P("data"))(x, w)


def between(x, w):
    """Whole-program code around a shard_map, arguments laid out otherwise."""
    y = shard_map(psum_matmul, mesh=MESH, in_specs=(P("data", "model"), P("model", None)), out_specs=P("data"))(
        jnp.tanh(x), w
    )
    return jnp.exp(y) @ w.T


def ring_step(x):
    """One step of a ring: each device's block to the next along "model",
    plus the device's index on that axis."""

    def body(b):
        index = jax.lax.axis_index("model").astype(jnp.float32)
        return jax.lax.ppermute(b, "model", [(i, (i + 1) % 4) for i in range(4)]) + index

    return shard_map(body, mesh=MESH, in_specs=P("data", "model"), out_specs=P("data", "model"))(x) * 2


def collectives(x):
    """Every collective a shard_map writes, on one block per device."""

    def body(b):
        return (
            jax.lax.psum_scatter(b, "model", scatter_dimension=0, tiled=True),
            jax.lax.pmax(b, ("data", "model")),
            jax.lax.all_to_all(b, "model", 0, 1, tiled=True),
            jax.lax.ppermute(b, "model", [(i, i + 1) for i in range(3)]),
            jax.lax.all_gather(b, "data", axis=0, tiled=True),
            jax.lax.pmin(b, "data") * jax.lax.axis_index("data").astype(jnp.float32),
        )

    specs = (P("data", "model"), P(), P(None, "model"), P(None, "model"), P(None, "model"), P("data", "model"))
    return shard_map(body, mesh=MESH, in_specs=P(None, "model"), out_specs=specs, check_vma=False)(x)


def booleans(x):
    """Reductions of flags and counts: XLA's maximum of i1 is a logical or,
    its minimum a logical and."""

    def body(b):
        flags = b > 0
        return (
            jax.lax.pmax(flags, "model"),
            jax.lax.pmin(flags, "data"),
            jax.lax.psum(flags.astype(jnp.int32), ("model", "data")),
        )

    specs = (P("data", None), P(None, "model"), P())
    return shard_map(body, mesh=MESH, in_specs=P("data", "model"), out_specs=specs)(x)


def tiled_again(x, y):
    """Pieces every device of a group holds alike, tiled by out_specs over
    that group (a psum's result out as P("data", "model")), and a whole
    operand (in_specs P()) put out in pieces."""
    summed = shard_map(
        lambda b: jax.lax.psum(b, "model"), mesh=MESH, in_specs=P("data", "model"), out_specs=P("data", "model")
    )(x)
    tiled = shard_map(lambda b: jnp.sin(b), mesh=MESH, in_specs=P(), out_specs=P("data", "model"))(y)
    return summed, tiled


def axis_indices(x):
    """Each device's index along one axis added to its block, put out along
    that axis only: the index varies along that axis alone (JAX writes it
    as the device's number divided and reduced)."""

    def by_model(b):
        return b + jax.lax.axis_index("model").astype(jnp.float32)

    def by_data(b):
        return b * jax.lax.axis_index("data").astype(jnp.float32)

    y = shard_map(by_model, mesh=MESH, in_specs=P(None, "model"), out_specs=P(None, "model"))(x)
    return shard_map(by_data, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(y)


def helper_calls(x, w):
    """A body calling JAX's jitted helpers (`jax.nn.relu`, written as a
    private function and a `func.call`) inside the shard_map."""

    def body(x, w):
        return jax.lax.psum(jax.nn.relu(x) @ w, "model")

    return shard_map(body, mesh=MESH, in_specs=(P("data", "model"), P("model")), out_specs=P("data"))(x, w)


def partly_manual(x, w):
    """A shard_map manual over "model" only (`axis_names`): along "data"
    its body speaks of whole values, which JAX's compiler may still cut."""

    def body(x, w):
        return jax.lax.psum(x @ w, "model")

    y = shard_map(
        body, mesh=MESH, in_specs=(P(None, "model"), P("model")), out_specs=P(), axis_names=frozenset({"model"})
    )(x, w)
    return jnp.tanh(y)


@jax.jit
def _summed(a):
    """A jitted helper holding a collective and a device index."""
    return jax.lax.psum(a, "model") + jax.lax.axis_index("data").astype(a.dtype)


def collective_helper(x, counts):
    """A body calling a jitted helper that holds a psum and an axis_index
    (JAX writes it as a private function and a call), and an open chain of
    uint8 blocks (devices with no sender get zeros)."""

    def body(b, c):
        return _summed(b) * 2, jax.lax.ppermute(c, "model", [(i, i + 1) for i in range(3)])

    specs = (P("data", "model"), P(None, "model"))
    return shard_map(body, mesh=MESH, in_specs=specs, out_specs=(P("data"), P(None, "model")))(x, counts)


def rings_over_two_axes(x):
    """Rings over all eight devices, numbered over ("data", "model") and
    over ("model", "data"), by one and by three steps."""

    def body(b):
        forward = [(i, (i + 1) % 8) for i in range(8)]
        by_three = [(i, (i + 3) % 8) for i in range(8)]
        return (
            jax.lax.ppermute(b, ("data", "model"), forward),
            jax.lax.ppermute(b, ("model", "data"), by_three),
        )

    specs = (P(("data", "model")), P(("data", "model")))
    return shard_map(body, mesh=MESH, in_specs=P(("data", "model")), out_specs=specs)(x)


def two_maps(x, w):
    """Two shard_maps in a row: a reduce-scatter's pieces, then gathered."""

    def first(x, w):
        return jax.lax.psum_scatter(x @ w, "model", scatter_dimension=1, tiled=True)

    def second(y):
        return jax.lax.all_gather(y, "model", axis=1, tiled=True) * 3

    y = shard_map(
        first, mesh=MESH, in_specs=(P("data", "model"), P("model")), out_specs=P("data", "model"), check_vma=False
    )(x, w)
    return shard_map(second, mesh=MESH, in_specs=P("data", "model"), out_specs=P("data"), check_vma=False)(jnp.sin(y))


def main() -> None:
    write("row-parallel", row_parallel, (normal(8, 16), normal(16, 4)), (P("data", "model"), P("model")), P("data"))
    write("between", between, (normal(8, 16), normal(16, 4)), (P("data"), P()), P(None, "model"))
    write("ring-step", ring_step, (normal(4, 8),), (P("data", "model"),), P("data", "model"))
    write("collectives", collectives, (normal(4, 8),))
    write("booleans", booleans, (normal(4, 8),))
    write("axis-index", axis_indices, (normal(8, 8),), (P(None, "model"),), P(None, "model"))
    write("helper-calls", helper_calls, (normal(8, 16), normal(16, 4)), (P("data", "model"), P("model")), P("data"))
    write("partly-manual", partly_manual, (normal(8, 16), normal(16, 4)), (P("data", "model"), P("model")), P("data"))
    counts = RNG.integers(0, 255, (2, 8)).astype(np.uint8)
    write("collective-helper", collective_helper, (normal(4, 8), counts))
    write("rings", rings_over_two_axes, (normal(16, 4),), (P(("data", "model")),), None)
    write("tiled-again", tiled_again, (normal(8, 8), normal(4, 2)), (P("data", "model"), P()), None)
    write("two-maps", two_maps, (normal(8, 16), normal(16, 8)), (P("data", "model"), P("model")), P("data"))
    with open(os.path.join(HERE, "xla.json"), "w", encoding="utf-8") as file:
        json.dump(XLA, file, indent=1, sort_keys=True)
        file.write("\n")


if __name__ == "__main__":
    main()
