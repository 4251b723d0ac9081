"""`mesh_dialect.frontends.jax`: JAX stays optional (importing the package
never imports it), and `export` writes the generic-form module in the flavour
asked for, leaving JAX's partitioner setting as it found it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import mesh_dialect


def loaded_after(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)


def test_importing_the_frontend_does_not_import_jax():
    p = loaded_after("import sys, mesh_dialect, mesh_dialect.frontends.jax\nprint('jax' in sys.modules)")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_unknown_flavour():
    from mesh_dialect.frontends import jax as mj

    with pytest.raises(ValueError, match="unknown flavour 'xla'; expected one of shardy, gspmd"):
        with mj.partitioner("xla"):
            pass


def test_a_mesh_out_of_device_order_is_warned_about():
    """The export does not say which device sits at which mesh position:
    `lower` warns when the order is not the ids' (as `jax.make_mesh` builds
    it on some TPU topologies), and stays quiet for an iota mesh."""
    import types

    import numpy as np

    from mesh_dialect.frontends import jax as mj

    def mesh(ids: list[int]) -> object:
        return types.SimpleNamespace(devices=np.array([types.SimpleNamespace(id=i) for i in ids]).reshape(2, 2))

    with pytest.warns(UserWarning, match=r"ids by mesh position: \[0, 2, 1, 3\]"):
        mj._warn_device_order([mesh([0, 2, 1, 3])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mj._warn_device_order([mesh([0, 1, 2, 3]), None])


def test_partition_spec_needs_a_mesh():
    pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    from mesh_dialect.frontends import jax as mj

    with pytest.raises(ValueError, match="a PartitionSpec needs mesh="):
        mj.export(lambda x: x, jnp.ones(4), in_shardings=(P("x"),))


CHILD = """
import json, os, sys
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P
from mesh_dialect.frontends import jax as mj

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
f = lambda x, w: jax.nn.relu(x @ w)
args = (jnp.ones((8, 16)), jax.ShapeDtypeStruct((16, 32), jnp.float32))
out = {"before": jax.config.jax_use_shardy_partitioner}
for flavour in ("shardy", "gspmd"):
    out[flavour] = mj.export(f, *args, mesh=mesh, in_shardings=(P("data"), P(None, "model")),
                             out_shardings=P("data", "model"), flavour=flavour,
                             path=os.path.join(sys.argv[1], flavour + ".mlir"))
    out[flavour + "_after"] = jax.config.jax_use_shardy_partitioner
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    pytest.importorskip("jax")
    where = tmp_path_factory.mktemp("jax-export")
    p = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHILD), str(where)], capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.splitlines()[-1]), where


def test_export_flavours(exported):
    out, where = exported
    shardy, gspmd = out["shardy"], out["gspmd"]
    assert '"sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>' in shardy
    assert 'sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>' in shardy
    assert "mhlo.sharding" not in shardy
    assert 'mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"' in gspmd
    assert 'mhlo.sharding = "{devices=[2,4]<=[8]}"' in gspmd  # the result: data x model
    assert "sdy." not in gspmd
    for text in (shardy, gspmd):
        assert text.startswith('"builtin.module"()')  # generic form: no stablehlo dialect needed
        assert '"stablehlo.dot_general"' in text
    assert (where / "shardy.mlir").read_text() == shardy
    assert (where / "gspmd.mlir").read_text() == gspmd


def test_export_restores_the_partitioner_setting(exported):
    out, _ = exported
    assert out["shardy_after"] == out["gspmd_after"] == out["before"]


def test_export_parses_with_unregistered_dialects(exported):
    _, where = exported
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    for flavour in ("shardy", "gspmd"):
        text = (where / f"{flavour}.mlir").read_text()
        module = mesh_dialect.parse(text, filename=f"{flavour}.mlir", context=ctx)
        assert module is not None
