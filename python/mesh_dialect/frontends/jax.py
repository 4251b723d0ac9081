"""JAX programs as the generic-form StableHLO modules `import-shardings` reads.

StableHLO's custom syntax needs the stablehlo dialect, which the MLIR
bindings here lack, so the module is printed in MLIR's generic form, which
any context parses with unregistered dialects allowed.  Two flavours, as JAX
writes them: "shardy" (JAX's default: `sdy.mesh`, `sdy.sharding`) and
"gspmd" (`mhlo.sharding` strings, `custom_call @Sharding`), chosen with
`jax_use_shardy_partitioner` for the duration of the lowering only.

JAX is an optional extra (`pip install 'mesh-dialect[jax]'`): it is imported
when a function here is called, never by `import mesh_dialect`.

    from jax.sharding import PartitionSpec as P
    from mesh_dialect.frontends import jax as mj
    mesh = jax.make_mesh((2, 4), ("data", "model"))
    text = mj.export(f, x, w, mesh=mesh, in_shardings=(P("data"), P(None, "model")),
                     out_shardings=P("data"), flavour="gspmd", path="f.gspmd.mlir")
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FLAVOURS = ("shardy", "gspmd")


def _jax() -> Any:
    try:
        import jax
    except ImportError:
        raise ImportError("mesh_dialect.frontends.jax needs JAX: pip install 'mesh-dialect[jax]'") from None
    return jax


@contextmanager
def partitioner(flavour: str) -> Iterator[None]:
    """Inside the block JAX lowers and compiles with the flavour's partitioner
    (Shardy or GSPMD); the previous setting comes back afterwards."""
    if flavour not in FLAVOURS:
        raise ValueError(f"unknown flavour {flavour!r}; expected one of {', '.join(FLAVOURS)}")
    jax = _jax()
    before = jax.config.jax_use_shardy_partitioner
    jax.config.update("jax_use_shardy_partitioner", flavour == "shardy")
    try:
        yield
    finally:
        jax.config.update("jax_use_shardy_partitioner", before)


def _named(shardings: Any, mesh: Any) -> Any:
    """`shardings` with every PartitionSpec made a NamedSharding on `mesh`
    (JAX's own shardings and None pass through)."""
    jax = _jax()
    from jax.sharding import NamedSharding, PartitionSpec

    def convert(s: Any) -> Any:
        if isinstance(s, PartitionSpec):
            if mesh is None:
                raise ValueError("a PartitionSpec needs mesh=: pass the jax.sharding.Mesh it names axes of")
            return NamedSharding(mesh, s)
        return s

    return jax.tree.map(convert, shardings, is_leaf=lambda s: isinstance(s, PartitionSpec) or s is None)


def lower(
    f: Callable[..., Any],
    *args: Any,
    in_shardings: Any = None,
    out_shardings: Any = None,
    mesh: Any = None,
    flavour: str = "shardy",
) -> Any:
    """`jax.jit(f, ...).lower(*args)` with the flavour's partitioner: the
    `jax.stages.Lowered` for `module_text` and `compiled_text`.  Shardings are
    JAX shardings, or PartitionSpecs with `mesh`; None leaves JAX to choose.
    The mesh is not set as JAX's context mesh: that would make JAX pin every
    intermediate of an Explicit-axes mesh with a constraint."""
    jax = _jax()
    kwargs = {}
    if in_shardings is not None:
        kwargs["in_shardings"] = _named(in_shardings, mesh)
    if out_shardings is not None:
        kwargs["out_shardings"] = _named(out_shardings, mesh)
    _warn_device_order([mesh, *jax.tree.leaves(list(kwargs.values()))])
    with partitioner(flavour):
        return jax.jit(f, **kwargs).lower(*args)


def _warn_device_order(candidates: list[Any]) -> None:
    """Warn about a mesh whose devices are not in id order: the export keeps
    its axes but not which device sits where (JAX holds that outside the
    module), and the partitioned program's device d is mesh position d."""
    seen: set[int] = set()
    for m in candidates:
        m = getattr(m, "mesh", m)
        devices = getattr(m, "devices", None)
        if devices is None or not hasattr(devices, "flat") or id(m) in seen:
            continue
        seen.add(id(m))
        ids = [d.id for d in devices.flat]
        if ids != sorted(ids):
            warnings.warn(
                f"mesh devices are not in id order (ids by mesh position: {ids}); the export does not record "
                "the order, so device d of the partitioned program is mesh position d, which JAX places on "
                f"device id ids[d]",
                stacklevel=3,
            )


def module_text(lowered: Any) -> str:
    """The lowered StableHLO module in MLIR's generic form."""
    return lowered.compiler_ir("stablehlo").operation.get_asm(print_generic_op_form=True)


def compiled_text(lowered: Any, flavour: str = "shardy") -> str:
    """XLA's partitioned, optimized HLO for the lowered module (what it runs
    on each device, collectives included)."""
    with partitioner(flavour):
        return lowered.compile().as_text()


def export(
    f: Callable[..., Any],
    *args: Any,
    in_shardings: Any = None,
    out_shardings: Any = None,
    mesh: Any = None,
    flavour: str = "shardy",
    path: str | os.PathLike[str] | None = None,
) -> str:
    """Lower `f` on `args` (arrays or `jax.ShapeDtypeStruct`s) and return the
    generic-form module; with `path`, also write it there."""
    text = module_text(
        lower(f, *args, in_shardings=in_shardings, out_shardings=out_shardings, mesh=mesh, flavour=flavour)
    )
    if path is not None:
        Path(path).write_text(text)
    return text


__all__ = ["FLAVOURS", "compiled_text", "export", "lower", "module_text", "partitioner"]
