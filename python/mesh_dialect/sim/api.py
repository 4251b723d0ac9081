"""Running a function on global arrays, whether it is global or SPMD.

An SPMD function states its layout on its arguments and results:
`{mesh.sharding = #mesh.sharding<@mesh, [[0], []]>}`. Global inputs are cut
with the argument layouts (an argument without one is replicated), every
device runs, and the results are put back together with the result layouts
(a result without one must agree on every device).

A partial argument (`partial = sum [1]`) gets random terms whose reduction,
in the simulator's order, is the global input (`layout.partial_terms`),
drawn from `seed`; `seed=None` feeds the fixed decomposition instead.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from mlir import ir

from ..ir.syntax import Unprintable, decode_sharding_attr
from ..sharding.spec import Mesh, Sharding
from . import layout
from . import ops as _ops  # noqa: F401 - registers the op handlers
from .floats import bf16_from_bits, to_bf16
from .interpreter import MAX_DEVICES, Runner
from .program import Function, SimError, dtype_of, is_bf16


@dataclass(frozen=True)
class Signature:
    """What a caller needs to feed a function global arrays."""

    name: str
    mesh: str | None
    arg_types: list[ir.Type]
    result_types: list[ir.Type]
    arg_shardings: list[Sharding | None]
    result_shardings: list[Sharding | None]
    where: str = ""  # the function's file:line:col

    @property
    def spmd(self) -> bool:
        return self.mesh is not None


def _at(where: str, message: str) -> SimError:
    """An error about the function at `where` (file:line:col; empty: unknown)."""
    return SimError(f"{where}: {message}", where=where) if where else SimError(message)


def _layout(attrs: dict[str, str], what: str, where: str) -> tuple[str | None, Sharding | None]:
    raw = attrs.get("mesh.sharding")
    if raw is None:
        return None, None
    try:
        mesh, split, partial_axes, kind, halos, offsets = decode_sharding_attr(raw)
    except Unprintable:
        raise _at(where, f"{what} has a mesh.sharding that is not a #mesh.sharding: {raw}") from None
    return mesh[1:], Sharding(tuple(map(tuple, split)), tuple(partial_axes), kind, tuple(halos), tuple(offsets))


def signature(fn: Function) -> Signature:
    meshes = set()
    args, results = [], []
    for i, attrs in enumerate(fn.arg_attrs):
        mesh, s = _layout(attrs, f"argument {i} of @{fn.name}", fn.where)
        meshes.add(mesh)
        args.append(s)
    for i, attrs in enumerate(fn.result_attrs):
        mesh, s = _layout(attrs, f"result {i} of @{fn.name}", fn.where)
        meshes.add(mesh)
        results.append(s)
    meshes.discard(None)
    if len(meshes) > 1:
        raise _at(fn.where, f"@{fn.name} lays out its arguments and results on several meshes: {sorted(meshes)}")
    mesh = next(iter(meshes), None)
    return Signature(fn.name, mesh, fn.arg_types, fn.result_types, args, results, fn.where)


def _static_shape(t: ir.Type, what: str, where: str = "") -> tuple[int, ...]:
    st = ir.ShapedType(t)
    if any(st.is_dynamic_dim(i) for i in range(st.rank)):
        raise _at(where, f"{what} has the dynamic type {t}; give its value as an input")
    return tuple(st.shape)


def global_shape(local: Sequence[int], sharding: Sharding | None, mesh: Mesh) -> tuple[int, ...]:
    """The global shape whose shards have the (first device's) local shape."""
    if sharding is None:
        return tuple(local)
    out = []
    for dim, size in enumerate(local):
        offsets = sharding.offsets(dim, mesh)
        if offsets is not None:
            out.append(offsets[-1])
            continue
        low, high = sharding.halo(dim)
        out.append((size - low - high) * sharding.shard_count(dim, mesh))
    return tuple(out)


def _sized_by_offsets(t: ir.Type, sharding: Sharding, mesh: Mesh) -> bool:
    """Whether every dynamic dimension of a per-device type has
    sharded_dims_offsets, whose last entry is the whole size (mesh-partition
    writes them for pieces of different sizes)."""
    st = ir.ShapedType(t)
    return all(sharding.offsets(d, mesh) is not None for d in range(st.rank) if st.is_dynamic_dim(d))


def random_inputs(sig: Signature, mesh: Mesh | None, seed: int) -> list[np.ndarray]:
    """Seeded global inputs of the function's types: small integers, or
    normal floats, so integer results stay exact and readable."""
    rng = np.random.default_rng(seed)
    out = []
    for i, (t, s) in enumerate(zip(sig.arg_types, sig.arg_shardings)):
        try:
            dtype = dtype_of(t)
        except SimError as e:
            raise _at(sig.where, f"argument {i} of @{sig.name}: {e}") from None
        if isinstance(t, ir.ShapedType):
            if mesh is not None and s is not None and _sized_by_offsets(t, s, mesh):
                shape = global_shape(tuple(ir.ShapedType(t).shape), s, mesh)
            else:
                shape = _static_shape(t, f"argument {i} of @{sig.name}", sig.where)
                if mesh is not None:
                    shape = global_shape(shape, s, mesh)
        else:
            shape = ()
        if dtype == np.bool_:
            value = rng.integers(0, 2, shape).astype(np.bool_)
        elif dtype.kind in "iu":
            value = rng.integers(-8 if dtype.kind == "i" else 0, 9, shape).astype(dtype)
        else:
            value = rng.standard_normal(shape).astype(dtype)
            if is_bf16(t):
                value = to_bf16(value)
        out.append(value if isinstance(t, ir.ShapedType) else value[()])
    return out


def partial_rng(seed: int, argument: int) -> np.random.Generator:
    """The generator of argument `argument`'s partial terms: the same in
    the simulator and in every MPI rank."""
    return np.random.default_rng((int(seed), 0x9A27, int(argument)))


def shard_input(
    value: np.ndarray,
    sharding: Sharding | None,
    mesh: Mesh,
    seed: int | None,
    argument: int,
    *,
    bf16: bool = False,
) -> dict[tuple[int, ...], np.ndarray]:
    """Every device's piece of a global input (random partial terms from
    `seed`, the fixed decomposition when it is None; `bf16`: terms a bf16
    holds, for an argument of bf16 elements)."""
    s = sharding or Sharding.replicated()
    rng = partial_rng(seed, argument) if seed is not None and s.is_partial else None
    return layout.shard(value, s, mesh, rng=rng, bf16=bf16)


class Simulation:
    """A module ready to run; functions compile on first use. An SPMD run
    refuses a mesh of more than `max_devices` devices (None: no limit).

    The module may change in place between calls (a pass manager run on
    it): each call compares a digest of the module with the one its
    functions were compiled from, and compiles again when they differ."""

    def __init__(self, module: ir.Operation, *, mesh: str | None = None, max_devices: int | None = MAX_DEVICES):
        self.module = module
        self._mesh_name = mesh
        self._max_devices = max_devices
        self._compile()

    def _compile(self) -> None:
        self._global = Runner(self.module)
        self._spmd: dict[str, Runner] = {}
        self._compiled_from = _fingerprint(self.module)

    def _current(self) -> None:
        """Compile again if the module changed since the last compilation."""
        if _fingerprint(self.module) != self._compiled_from:
            self._compile()

    def signature(self, function: str) -> Signature:
        self._current()
        return self._signature(function)

    def _signature(self, function: str) -> Signature:
        return signature(self._global.compiler.function(function))

    def function_names(self) -> list[str]:
        self._current()
        return self._global.compiler.function_names()

    def mesh_for(self, sig: Signature) -> str | None:
        return sig.mesh or self._mesh_name

    def runner(self, mesh: str) -> Runner:
        self._current()
        return self._runner(mesh)

    def _runner(self, mesh: str) -> Runner:
        if mesh not in self._spmd:
            self._spmd[mesh] = Runner(self.module, mesh=mesh, max_devices=self._max_devices)
        return self._spmd[mesh]

    def run(
        self,
        function: str,
        inputs: Sequence[np.ndarray],
        *,
        spmd: bool | None = None,
        seed: int | None = 0,
        on_progress: Callable[[int, int, int], None] | None = None,
        per_device: set[int] | None = None,
    ) -> list[np.ndarray]:
        """Global outputs for global inputs. A function with layouts (or any
        function when `spmd` is True) runs on every device of its mesh;
        `seed` draws the terms of partial arguments (see the module
        docstring). An SPMD run tells `on_progress(exchanges, finished,
        devices)` how far it is (`Runner.run_spmd`).  Float arithmetic is
        IEEE's, as MLIR's: a division by zero or an overflow gives inf or
        NaN quietly, without numpy's warnings.

        A result whose replicas differ is an error, unless `per_device` is
        given (a program written partly per device may return a value that
        differs between devices): such a result is then every device's
        array stacked in the mesh's shape (`[*mesh shape, *local shape]`),
        and its number is added to `per_device`."""
        self._current()
        with np.errstate(divide="ignore", over="ignore", invalid="ignore", under="ignore"):
            return self._run(function, inputs, spmd, seed, on_progress, stacked=per_device)

    def _run(
        self,
        function: str,
        inputs: Sequence[np.ndarray],
        spmd: bool | None,
        seed: int | None,
        on_progress: Callable[[int, int, int], None] | None,
        stacked: set[int] | None = None,
    ) -> list[np.ndarray]:
        sig = self._signature(function)
        if spmd is None:
            spmd = sig.spmd
        if not spmd:
            return self._global.run_global(function, self._checked_inputs(function, inputs, spmd=False))
        runner = self._runner(self._spmd_mesh(sig))
        mesh = runner.mesh
        per_device = self._device_inputs(function, inputs, seed=seed)
        outs = runner.run_spmd(function, per_device, on_progress)
        results = []
        for i, s in enumerate(sig.result_shardings):
            locals_ = {d: np.asarray(outs[d][i]) for d in outs}
            try:
                results.append(
                    layout.assemble(locals_, s or Sharding.replicated(), mesh, bf16=is_bf16(sig.result_types[i]))
                )
            except layout.ReplicaMismatch as e:
                whole = None if stacked is None else _stacked(locals_, mesh)
                if whole is None:
                    raise SimError(f"result {i} of @{function}: {e}") from None
                stacked.add(i)
                results.append(whole)
            except ValueError as e:
                raise SimError(f"result {i} of @{function}: {e}") from None
        return results

    def _spmd_mesh(self, sig: Signature) -> str:
        name = self.mesh_for(sig)
        if name is None:
            raise SimError(f"@{sig.name} has no layout on its arguments or results; name the mesh to run it on")
        return name

    def checked_inputs(self, function: str, inputs: Sequence[np.ndarray], *, spmd: bool | None = None) -> list:
        """The inputs as the arguments' types, after the checks a run makes
        (count, kind of number, shape: global for an SPMD run), e.g. before
        handing them to another backend."""
        self._current()
        return self._checked_inputs(function, inputs, spmd=spmd)

    def _checked_inputs(self, function: str, inputs: Sequence[np.ndarray], *, spmd: bool | None) -> list:
        sig = self._signature(function)
        if spmd is None:
            spmd = sig.spmd
        if len(inputs) != len(sig.arg_types):
            raise SimError(f"@{function} takes {len(sig.arg_types)} inputs, got {len(inputs)}")
        out = []
        for i, (x, t) in enumerate(zip(inputs, sig.arg_types)):
            if not spmd or not isinstance(t, ir.ShapedType):
                out.append(_checked(i, x, t, function))
                continue
            out.append(_checked(i, x, t, function, local=False))
        return out

    def device_inputs(
        self, function: str, inputs: Sequence[np.ndarray], *, seed: int | None = 0
    ) -> dict[tuple[int, ...], list]:
        """Every device's arguments for an SPMD run of `function`."""
        self._current()
        return self._device_inputs(function, inputs, seed=seed)

    def _device_inputs(
        self, function: str, inputs: Sequence[np.ndarray], *, seed: int | None
    ) -> dict[tuple[int, ...], list]:
        sig = self._signature(function)
        runner = self._runner(self._spmd_mesh(sig))
        mesh = runner.mesh
        values = self._checked_inputs(function, inputs, spmd=True)
        per_device: dict[tuple, list] = {d: [] for d in mesh.devices()}
        for i, (value, t, s) in enumerate(zip(values, sig.arg_types, sig.arg_shardings)):
            if not isinstance(t, ir.ShapedType):
                for d in per_device:
                    per_device[d].append(value)
                continue
            try:
                pieces = shard_input(value, s, mesh, seed, i, bf16=is_bf16(t))
            except ValueError as e:
                raise SimError(f"argument {i} of @{function}: {e}") from None
            for d in per_device:
                _check_shape(i, pieces[d].shape, t, function, f" on device {d} (after cutting the global input)")
                per_device[d].append(pieces[d])
        return per_device


def _stacked(arrays: dict, mesh: Mesh) -> np.ndarray | None:
    """Every device's array in one, indexed by device first; None when the
    devices hold arrays of different shapes or kinds of number."""
    devices = mesh.devices()
    first = arrays[devices[0]]
    if any(arrays[d].shape != first.shape or arrays[d].dtype != first.dtype for d in devices):
        return None
    return np.stack([arrays[d] for d in devices]).reshape(tuple(mesh.shape) + first.shape)


def _fingerprint(module: ir.Operation) -> bytes:
    """A digest of the module's bytecode, which holds everything a pass
    may change: every op, attribute and type, large constants and
    resources in full. Writing it costs less than printing the text
    (whose printer calls back into Python for every token) and reads no
    op's custom printer, so an invalid module (left by a failed pass) is
    safe too; the generic text is the fallback should it fail."""
    op = module.operation if hasattr(module, "operation") else module
    out = io.BytesIO()
    try:
        op.write_bytecode(out)
        data = out.getvalue()
    except Exception:  # noqa: BLE001 - any failure: the printed form says as much
        data = op.get_asm(
            binary=True,
            large_elements_limit=None,
            large_resource_limit=None,
            print_generic_op_form=True,
            assume_verified=True,
        )
    return hashlib.blake2b(data, digest_size=16).digest()


def _check_shape(i: int, shape, t: ir.Type, function: str, where: str = "") -> None:
    st = ir.ShapedType(t)
    if not st.has_rank:
        raise SimError(f"argument {i} of @{function} is unranked ({t}); the simulator needs ranked tensors")
    want = [None if st.is_dynamic_dim(k) else d for k, d in enumerate(st.shape)]
    if len(shape) != len(want) or any(w is not None and w != n for w, n in zip(want, shape)):
        raise SimError(f"input {i} of @{function} has shape {list(shape)}{where} but the argument is {t}")


def _check_range(i: int, array: np.ndarray, dtype: np.dtype, t: ir.Type, function: str) -> None:
    """Values the argument's type cannot hold are a mistake in the input, not
    something to wrap (1000 into i8) or overflow (1e10 into f16) silently.
    An integer type holds both its signed and unsigned readings (MLIR's
    signless integers)."""
    bf16 = is_bf16(t)
    if not array.size or (array.dtype == dtype and not bf16):
        return
    if dtype.kind in "iu" and array.dtype.kind in "iu":
        bits = dtype.itemsize * 8
        low, high = (0 if dtype.kind == "u" else -(1 << (bits - 1))), (1 << bits) - 1
        least, most = int(array.min()), int(array.max())
        if least < low or most > high:
            bad = least if least < low else most
            raise SimError(f"input {i} of @{function} holds {bad}, which {t} cannot hold")
    elif dtype.kind == "f" and array.dtype.kind == "f" and (bf16 or dtype.itemsize < array.dtype.itemsize):
        finite = np.isfinite(array)
        with np.errstate(over="ignore"):
            narrowed = to_bf16(array) if bf16 else array.astype(dtype)
        overflow = finite & ~np.isfinite(narrowed)
        if overflow.any():
            raise SimError(f"input {i} of @{function} holds {float(array[overflow].flat[0])!r}, which {t} cannot hold")


def _checked(i: int, x, t: ir.Type, function: str, *, local: bool = True):
    """An input as the argument's type: the same kind of number (an integer
    file for a float argument is a mistake, not a conversion) and, on one
    device, the argument's shape."""
    dtype = dtype_of(t)
    array = np.asarray(x)
    if array.dtype.kind == "V" and array.dtype.itemsize == 2 and is_bf16(t):
        # bf16 as JAX saves it (ml_dtypes' bfloat16; `|V2` where numpy reads it back alone)
        array = bf16_from_bits(array.view(np.uint16))
    kinds = {"b": "b", "i": "iu", "u": "iu", "f": "f"}
    if array.dtype.kind not in kinds.get(dtype.kind, dtype.kind):
        raise SimError(f"input {i} of @{function} holds {array.dtype} values but the argument is {t}")
    _check_range(i, array, dtype, t, function)
    if is_bf16(t):  # a bf16 argument holds bf16 values (`_check_range` refused what overflows)
        array = to_bf16(array)
    if not isinstance(t, ir.ShapedType):
        if array.ndim:
            raise SimError(f"input {i} of @{function} has shape {list(array.shape)} but the argument is {t}")
        return dtype.type(array[()])
    if local:
        _check_shape(i, array.shape, t, function)
    return array.astype(dtype, copy=False)
