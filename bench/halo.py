"""Halos: convolutions, poolings and stencils split along their spatial
dimensions, against the same programs when windows cannot be split.

Each program has its input and output annotated split along spatial
dimensions (rows, or rows and columns); `sharding-propagation` and
`mesh-partition` do the rest.  Two runs per program:

  * split     the built-in rules: the output's spatial loops split, the
              input gets halos, partition emits one `mesh.update_halo`;
  * gathered  the same rules with every window loop refused, and every
              crop loop of a slice or a pad (what the rules did before
              halos: an input dimension read through a window or a crop is
              never split), so the cost solver picks the cheapest
              plan without halos (gather the input, or split channels and
              reshard); a `tensor.pad` is then its own op again (rules
              registered by hand are never read through a pad), as before
              convolutions read through pads.

Bytes a device receives are the resharding planner's model (`traffic.py`
for the collectives; an `update_halo` costs the halo cells inside the tensor,
the planner's `UpdateHalo` price).  Every partitioned program is run on the
simulator against the original on seeded random inputs (`sim`).

Usage: .venv/bin/python bench/halo.py [--only NAME[,NAME]] [--no-sim]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import sys
import time
from collections.abc import Callable

from mlir.passmanager import PassManager
from plan_quality import simulate  # bench/plan_quality.py, beside this script
from traffic import traffic  # bench/traffic.py, beside this script

import mesh_dialect
from mesh_dialect.interfaces import registry
from mesh_dialect.interfaces.rules import Iterator, ShardingRule, uncropped
from mesh_dialect.sharding.resharding import plan_resharding
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.transforms.partition.mesh_partition import MeshPartition
from mesh_dialect.transforms.propagation.sharding_propagation import ShardingPropagation


@dataclasses.dataclass
class Program:
    name: str
    mesh: tuple[int, ...]
    what: str
    text: str


def _linalg_conv(name, op, attrs, x, w, out, split, mesh, zero="0.0", elem="f32") -> Program:
    m = "x".join(map(str, mesh))
    t = lambda s: f"tensor<{'x'.join(map(str, s))}x{elem}>"  # noqa: E731
    text = f"""mesh.mesh @m(shape = {m})
func.func @{name}(%x: {t(x)}, %w: {t(w)}) -> {t(out)} {{
  %s = mesh.sharding @m split_axes = {split} : !mesh.sharding
  %xs = mesh.shard %x to %s : {t(x)}
  %zero = arith.constant {zero} : {elem}
  %e = tensor.empty() : {t(out)}
  %z = linalg.fill ins(%zero : {elem}) outs(%e : {t(out)}) -> {t(out)}
  %c = {op} {attrs} ins(%xs, %w : {t(x)}, {t(w)}) outs(%z : {t(out)}) -> {t(out)}
  %cs = mesh.shard %c to %s : {t(out)}
  return %cs : {t(out)}
}}
"""
    return Program(name, mesh, "", text)


def stencil_1d() -> Program:
    text = """#in = affine_map<(i, k) -> (i + k)>
#w = affine_map<(i, k) -> (k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 4)
func.func @stencil_1d(%x: tensor<4100xf32>, %k: tensor<5xf32>) -> tensor<4096xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4100xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %k : tensor<4100xf32>, tensor<5xf32>) outs(%z : tensor<4096xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<4096xf32>
  %rs = mesh.shard %r to %s : tensor<4096xf32>
  return %rs : tensor<4096xf32>
}
"""
    return Program("stencil_1d", (4,), "generic (i + k), 4100 -> 4096, window 5", text)


def linalg_conv_same() -> Program:
    """torch-mlir's conv2d(padding=1): a `tensor.pad` the convolution reads through."""
    text = """mesh.mesh @m(shape = 4)
func.func @linalg_conv_same(%x: tensor<1x64x64x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x64x64x8xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x64x64x8xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %i: index, %j: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x64x64x8xf32> to tensor<1x66x66x8xf32>
  %e = tensor.empty() : tensor<1x64x64x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x64x8xf32>) -> tensor<1x64x64x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%p, %w : tensor<1x66x66x8xf32>, tensor<3x3x8x8xf32>)
      outs(%z : tensor<1x64x64x8xf32>) -> tensor<1x64x64x8xf32>
  %cs = mesh.shard %c to %s : tensor<1x64x64x8xf32>
  return %cs : tensor<1x64x64x8xf32>
}
"""
    return Program("linalg_conv_same", (4,), "tensor.pad + linalg conv 3x3, 64x64x8, rows", text)


def _tosa(name, mesh, op_text, x, out, split, extra_args="", extra_types="", what="") -> Program:
    m = "x".join(map(str, mesh))
    t = lambda s: f"tensor<{'x'.join(map(str, s))}xf32>"  # noqa: E731
    text = f"""mesh.mesh @m(shape = {m})
func.func @{name}(%x: {t(x)}{extra_args}) -> {t(out)} {{
  %s = mesh.sharding @m split_axes = {split} : !mesh.sharding
  %xs = mesh.shard %x to %s : {t(x)}
  %zp = "tosa.const"() {{values = dense<0.0> : tensor<1xf32>}} : () -> tensor<1xf32>
  %c = {op_text}
  %cs = mesh.shard %c to %s : {t(out)}
  return %cs : {t(out)}
}}
"""
    return Program(name, mesh, what, text)


def programs() -> list[Program]:
    out = [stencil_1d()]
    p = _linalg_conv(
        "conv2d_rows",
        "linalg.conv_2d_nhwc_hwcf",
        "",
        (1, 68, 64, 8),
        (5, 5, 8, 8),
        (1, 64, 60, 8),
        "[[], [0]]",
        (4,),
    )
    p.what = "linalg conv 5x5, 68x64x8 -> 64x60x8, rows"
    out.append(p)
    p = _linalg_conv(
        "conv2d_2x2",
        "linalg.conv_2d_nhwc_hwcf",
        "",
        (1, 66, 66, 8),
        (3, 3, 8, 8),
        (1, 64, 64, 8),
        "[[], [0], [1]]",
        (2, 2),
    )
    p.what = "linalg conv 3x3, 66x66x8 -> 64x64x8, rows x cols"
    out.append(p)
    p = _linalg_conv(
        "conv3d_2x2x2",
        "linalg.conv_3d_ndhwc_dhwcf",
        "",
        (1, 18, 18, 18, 4),
        (3, 3, 3, 4, 4),
        (1, 16, 16, 16, 4),
        "[[], [0], [1], [2]]",
        (2, 2, 2),
    )
    p.what = "linalg conv 3x3x3, 18^3x4 -> 16^3x4, d x h x w"
    out.append(p)
    out.append(linalg_conv_same())
    conv = (
        "tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, "
        "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x64x64x8xf32>, "
        "tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64x8xf32>"
    )
    out.append(
        _tosa(
            "tosa_conv_same",
            (4,),
            conv,
            (1, 64, 64, 8),
            (1, 64, 64, 8),
            "[[], [0]]",
            ", %w: tensor<8x3x3x8xf32>, %b: tensor<8xf32>",
            what="tosa.conv2d 3x3 pad 1, 64x64x8, rows",
        )
    )
    strided = (
        "tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, "
        "pad = array<i64: 2, 1, 2, 1>, stride = array<i64: 2, 2>} : (tensor<1x64x64x8xf32>, "
        "tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32x8xf32>"
    )
    out.append(
        _tosa(
            "tosa_conv_strided",
            (2, 2),
            strided,
            (1, 64, 64, 8),
            (1, 32, 32, 8),
            "[[], [0], [1]]",
            ", %w: tensor<8x3x3x8xf32>, %b: tensor<8xf32>",
            what="tosa.conv2d 3x3 stride 2 dilation 2, 64x64x8 -> 32x32x8",
        )
    )
    pool = (
        "tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} "
        ": (tensor<1x64x64x8xf32>) -> tensor<1x32x32x8xf32>"
    )
    out.append(
        _tosa(
            "max_pool",
            (4,),
            pool,
            (1, 64, 64, 8),
            (1, 32, 32, 8),
            "[[], [0]]",
            what="tosa.max_pool2d 3x3 stride 2, 64x64x8 -> 32x32x8",
        )
    )
    return out


# ---------------------------------------------------------------------------
# Rules without windows (the "gathered" run)

WINDOWED = (
    "linalg.generic",
    "linalg.conv_2d_nhwc_hwcf",
    "linalg.conv_3d_ndhwc_dhwcf",
    "tosa.conv2d",
    "tosa.max_pool2d",
    "tensor.pad",
    "tensor.extract_slice",
)


def _without_windows(rule: ShardingRule | None) -> ShardingRule | None:
    """`rule` with every loop read through a window refused, and every
    crop's (a pad's or a slice's, which take halos too: `uncropped`)."""
    if rule is None:
        return rule
    rule = uncropped(rule)
    if not rule.windows:
        return rule
    bad = {w.loop for dims in rule.windows if dims for w in dims if w is not None}
    its = tuple(Iterator.invalid() if i in bad else it for i, it in enumerate(rule.iterators))
    maps = tuple(
        None if m is None else tuple(None if (dims and dims[d] is not None) else x for d, x in enumerate(m))
        for m, dims in zip(rule.operand_maps, rule.windows)
    )
    return ShardingRule(its, maps, rule.result_maps)


class NoWindows:
    """Within it, the windowed ops' rules refuse their window loops."""

    def __enter__(self) -> None:
        self.saved = {}
        for name in WINDOWED:
            base = registry._rule_fn(name)  # noqa: SLF001 - the built-in to wrap
            self.saved[name] = registry.register_rule(name, lambda op, base=base: _without_windows(base(op)))

    def __exit__(self, *exc) -> None:
        for name, fn in self.saved.items():
            registry.register_rule(name, fn)


# ---------------------------------------------------------------------------
# Measuring

HALO = re.compile(
    r"mesh\.update_halo .*split_axes = (\[\[.*?\]\])(?: source_halo_sizes = \[([\d, ]*)\])?"
    r"(?: destination_halo_sizes = \[([\d, ]*)\])? : (tensor<[^>]*>) -> (tensor<[^>]*>)"
)


def _ints(text: str | None) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",") if v.strip()) if text else ()


def _shape(tensor: str) -> tuple[list[int], int]:
    parts = tensor[len("tensor<") : -1].split("x")
    bits = int(re.sub(r"\D", "", parts[-1]) or 32)
    return [int(d) for d in parts[:-1]], max(1, bits // 8)


def halo_bytes(line: str, mesh: tuple[int, ...]) -> int | None:
    """The planner's price of one `update_halo` line (None: not one)."""
    m = HALO.search(line)
    if not m:
        return None
    split = tuple(tuple(int(a) for a in _ints(g)) for g in re.findall(r"\[([\d, ]*)\]", m.group(1)[1:-1]))
    src, dst = _ints(m.group(2)), _ints(m.group(3))
    local, element = _shape(m.group(4))
    source = Sharding(split, halo_sizes=src)
    shape = []
    for d, size in enumerate(local):
        n = math.prod(mesh[a] for a in source.axes_of(d))
        shape.append((size - sum(source.halo(d))) * n)
    return plan_resharding(shape, mesh, source, Sharding(split, halo_sizes=dst), element_bytes=element).bytes_received


def bytes_received(text: str, mesh: tuple[int, ...]) -> tuple[int, int, dict[str, int]]:
    halos, count, other = 0, 0, []
    for line in text.splitlines():
        found = halo_bytes(line, mesh)
        if found is None:
            other.append(line)
        else:
            halos += found
            count += 1
    n, b, kinds = traffic("\n".join(other), mesh)
    if count:
        kinds["update_halo"] = count
    return n + count, b + halos, kinds


def run(p: Program) -> tuple[str, float]:
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(p.text, filename=f"{p.name}.mlir", context=ctx)
    start = time.perf_counter()
    for pass_ in (ShardingPropagation(), MeshPartition()):
        pm = PassManager("builtin.module", context=ctx)
        pass_.add_to(pm)
        with ctx:
            pm.run(module)
    return mesh_dialect.print_ir(module), time.perf_counter() - start


def fmt_kinds(kinds: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"


def measure(p: Program, sim: bool) -> dict:
    row: dict = {"name": p.name, "mesh": "x".join(map(str, p.mesh)), "what": p.what}
    variants: list[tuple[str, Callable]] = [("split", lambda: run(p))]

    def gathered():
        with NoWindows():
            return run(p)

    variants.append(("gathered", gathered))
    for key, fn in variants:
        try:
            text, seconds = fn()
        except Exception as e:  # noqa: BLE001 - a failure is a result
            row[key] = {"error": str(e).splitlines()[0][:100]}
            continue
        n, b, kinds = bytes_received(text, p.mesh)
        row[key] = {"collectives": n, "bytes": b, "kinds": fmt_kinds(kinds), "seconds": seconds}
        if sim:
            row[key]["sim"] = simulate(p.text, text, seed=1)
    return row


def table(rows: list[dict], sim: bool) -> str:
    head = [
        "program",
        "mesh",
        "split: collectives",
        "split: bytes",
        "gathered: collectives",
        "gathered: bytes",
        "ratio",
    ]
    if sim:
        head.append("sim (split / gathered)")
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---"] * 2 + ["---:"] * 5 + (["---"] if sim else [])) + "|",
    ]
    for r in rows:
        s, g = r["split"], r["gathered"]
        cells = [r["name"], r["mesh"]]
        for v in (s, g):
            if "error" in v:
                cells += ["error", v["error"]]
            else:
                cells += [v["kinds"], f"{v['bytes']:,}"]
        ratio = "n/a"
        if "bytes" in s and "bytes" in g and s["bytes"]:
            ratio = f"{g['bytes'] / s['bytes']:.1f}x"
        cells.append(ratio)
        if sim:
            cells.append(f"{s.get('sim', '-')} / {g.get('sim', '-')}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated program names")
    ap.add_argument("--no-sim", action="store_true", help="skip simulating the partitioned programs")
    args = ap.parse_args()
    chosen = programs()
    if args.only:
        names = set(args.only.split(","))
        chosen = [p for p in chosen if p.name in names]
    rows = [measure(p, not args.no_sim) for p in chosen]
    print("bytes a device receives (f32), split spatially with halos vs. windows refused\n")
    for p in chosen:
        print(f"- {p.name}: {p.what}")
    print()
    print(table(rows, not args.no_sim))
    bad = [r["name"] for r in rows for k in ("split", "gathered") if r[k].get("sim", "ok") != "ok"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
