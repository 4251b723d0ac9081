"""The verifier's and the sharding readers' fast paths give the answers of
the slow ones: caches keyed by attributes stay right across contexts, the
verifier's memo of passed signatures reports every failure, and the check
after a pass that records its changes looks at those ops only but still
catches what they break."""

from __future__ import annotations

import dataclasses
import gc

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.driver.pipeline import Element, build
from mesh_dialect.ir import _builders, verifier
from mesh_dialect.ir.signature import ContextCache
from mesh_dialect.ir.syntax import decode_axes_array, decode_reduction
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.transforms import PASSES, Pass, VerifyMesh
from mesh_dialect.transforms.base import sharding_of

SHARDINGS = """\
mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] partial = max [] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[1]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8x16xf32>
  %b = mesh.shard %a to %t annotate_for_users : tensor<8x16xf32>
  %c = mesh.all_reduce %b on @m mesh_axes = [0] reduction = <min> : tensor<8x16xf32> -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
"""


def _ops(root: ir.Operation, name: str) -> list[ir.Operation]:
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.operation.walk(visit)
    return found


# -- caches keyed by attributes ---------------------------------------------


def test_decoded_attribute_hits_equal_misses_and_match_the_text():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SHARDINGS, context=ctx)
    for op in _ops(module, "mesh.sharding"):
        attr = op.attributes["split_axes"]
        first, second = _builders._read_axes_array(attr), _builders._read_axes_array(attr)
        assert first == second == tuple(tuple(a) for a in decode_axes_array(str(attr)))
    (reduce,) = _ops(module, "mesh.all_reduce")
    attr = reduce.attributes["reduction"]
    assert _builders._read_reduction(attr) == _builders._read_reduction(attr) == decode_reduction(str(attr)) == "min"


def test_same_attribute_text_in_two_contexts_reads_the_same_and_keys_apart():
    texts = ["#mesh.axisarray<[array<i16: 0>, array<i16: 1>]>", "#mesh.axisarray<[array<i16: 1, 0>]>"]
    first = mesh_dialect.context()
    a = [ir.Attribute.parse(t, first) for t in texts]
    read_a = [_builders._read_axes_array(x) for x in a]
    second = mesh_dialect.context()
    b = [ir.Attribute.parse(t, second) for t in texts]
    assert a[0] != b[0]  # uniqued per context: two keys
    assert [_builders._read_axes_array(x) for x in b] == read_a == [((0,), (1,)), ((1, 0),)]
    # Back in the first context, after the cache moved to the second.
    assert [_builders._read_axes_array(x) for x in a] == read_a


def test_cache_never_answers_for_a_dead_contexts_attribute():
    """A key holds its context alive, so a later context's attribute never
    takes its address; the cache keeps one context's entries."""
    cache: ContextCache[str] = ContextCache()
    first = mesh_dialect.context()
    old = ir.Attribute.parse("#mesh.axisarray<[array<i16: 0>]>", first)
    cache.add(old, "first", first)
    del first, old
    gc.collect()
    for i in range(50):  # contexts and attributes come and go
        ctx = mesh_dialect.context()
        attr = ir.Attribute.parse(f"#mesh.axisarray<[array<i16: {i % 2}>, array<i16>]>", ctx)
        assert cache.values.get(attr) is None
        cache.add(attr, str(i), ctx)
        assert cache.context is ctx and len(cache.values) == 1
        del ctx, attr
        gc.collect()


def test_cache_is_bounded():
    cache: ContextCache[int] = ContextCache(limit=3)
    ctx = mesh_dialect.context()
    for i in range(10):
        cache.add(ir.Attribute.parse(f"{i} : i64", ctx), i, ctx)
        assert len(cache.values) <= 3


def test_sharding_of_hits_equal_misses_in_two_contexts():
    found = []
    for _ in range(2):
        ctx = mesh_dialect.context()
        module = mesh_dialect.parse(SHARDINGS, context=ctx)
        shards = _ops(module, "mesh.shard")
        once = [sharding_of(op.operands[1]) for op in shards]
        assert [sharding_of(op.operands[1]) for op in shards] == once
        found.append(once)
    expected = [("m", Sharding(((0,), (1,))), False), ("m", Sharding(((1,),)), False)]
    assert found[0] == found[1] == expected


def test_sharding_of_reads_a_changed_op_anew():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SHARDINGS, context=ctx)
    shard = _ops(module, "mesh.shard")[0]
    assert sharding_of(shard.operands[1])[1] == Sharding(((0,), (1,)))
    with ctx:
        sharding = _ops(module, "mesh.sharding")[0]
        sharding.attributes["split_axes"] = ir.Attribute.parse("#mesh.axisarray<[array<i16>, array<i16: 0, 1>]>")
    assert sharding_of(shard.operands[1])[1] == Sharding(((), (0, 1)))
    assert sharding_of(shard.operands[0]) is None  # a function argument


def test_function_layouts_are_checked_per_argument_type():
    """Two arguments with the same layout entry but different types: the
    memo keys on both, so the second is still checked."""
    text = """\
mesh.mesh @m(shape = 2)
func.func @f(%a: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>},
             %b: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}) {
  return
}
"""
    ctx = mesh_dialect.context()
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(text, context=ctx)
    assert [d.message for d in info.value.diagnostics] == [
        "'func.func' op argument 1: mesh.sharding splits 2 tensor dimensions but the tensor has rank 1"
    ]


def test_a_layout_that_does_not_decode_is_reported_again_from_the_cache():
    text = """\
mesh.mesh @m(shape = 2)
func.func private @f(tensor<4xf32> {mesh.sharding = 3 : i64})
func.func private @g(tensor<4xf32> {mesh.sharding = 3 : i64})
"""
    for _ in range(2):  # the second context reads the decoded texts from the cache
        ctx = mesh_dialect.context()
        with pytest.raises(mesh_dialect.DiagnosticError) as info:
            mesh_dialect.parse(text, context=ctx)
        rule = "'func.func' op argument 0 has a mesh.sharding that is not a #mesh.sharding: 3 : i64"
        assert [d.message for d in info.value.diagnostics] == [rule, rule]


def _without_memo(monkeypatch: pytest.MonkeyPatch, root: ir.Operation) -> list[tuple[str, str]]:
    """The violations with every op checked (as with meshes in several scopes)."""
    original = verifier._Verifier._check_ops

    def check_all(self, others, functions, one_scope):
        original(self, others, functions, False)

    with monkeypatch.context() as m:
        m.setattr(verifier._Verifier, "_check_ops", check_all)
        return [(str(v.location), v.message) for v in verifier.check(root)]


def test_memo_reports_what_checking_every_op_reports(monkeypatch):
    """Repeated ops, shardings with equal and different contents, dynamic
    ones, annotations of bad shardings: the memo changes no report."""
    text = """\
mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>, %n: index, %hs: i64, %y: tensor<3xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %s2 = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %r = mesh.sharding @m split_axes = [[0], [1], [2]] : !mesh.sharding
  %d = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, %hs] : !mesh.sharding
  %d2 = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, %hs] : !mesh.sharding
  %o = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 4, 7] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8x16xf32>
  %b = mesh.shard %a to %s2 : tensor<8x16xf32>
  %c = mesh.shard %b to %r : tensor<8x16xf32>
  %c2 = mesh.shard %c to %r : tensor<8x16xf32>
  %e = mesh.shard %c2 to %d : tensor<8x16xf32>
  %e2 = mesh.shard %e to %d2 : tensor<8x16xf32>
  %f = mesh.shard %e2 to %o : tensor<8x16xf32>
  %f2 = mesh.shard %f to %o : tensor<8x16xf32>
  %y1 = mesh.shard %y to %s : tensor<3xf32>
  %y2 = mesh.shard %y1 to %s2 : tensor<3xf32>
  %g = mesh.all_gather %f2 on @m mesh_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
  %h = mesh.all_slice %g on @m mesh_axes = [1] slice_axis = 1 : tensor<8x64xf32> -> tensor<8x16xf32>
  %g2 = mesh.all_gather %h on @m mesh_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
  %h2 = mesh.all_slice %g2 on @m mesh_axes = [1] slice_axis = 1 : tensor<8x64xf32> -> tensor<8x15xf32>
  %k:2 = mesh.shard_shape 8x16 %s %n : index, index
  %k2:2 = mesh.shard_shape 8x16 %s2 %n : index, index
  %k3 = mesh.shard_shape 8 %s %n : index
  return %a : tensor<8x16xf32>
}
"""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx, verify=False)
    found = [(str(v.location), v.message) for v in verifier.check(module)]
    assert found == _without_memo(monkeypatch, module)
    messages = [m for _, m in found]
    assert messages.count("'mesh.shard' op sharding splits 2 tensor dimensions but the tensor has rank 1") == 2
    assert any("'mesh.all_slice'" in m for m in messages)
    assert len(found) >= 6


# -- checking only what a pass changed ------------------------------------------

MODULE = """\
mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8x16xf32>
  %b = mesh.all_reduce %a on @m mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %c = mesh.all_reduce %b on @m mesh_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
"""


@dataclasses.dataclass
class Edit(Pass):
    """Runs `edit(pass, module)`; records its changes when `record`."""

    ARGUMENT = "test-edit"
    edit: object = None
    record: bool = True

    @classmethod
    def options(cls):
        return []

    def run(self, module):
        if self.record:
            self.record_changes()
        if self.edit is not None:
            self.edit(self, module)


class Spy:
    """Counts whole-module checks and the ops each partial check was given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.whole = 0
        self.partial: list[list[str]] = []
        module_check, changed_check = verifier.check_module, verifier.check_changed

        def check_module(root):
            self.whole += 1
            return module_check(root)

        def check_changed(ops, checked):
            self.partial.append([op.name for op in ops])
            return changed_check(ops, checked)

        monkeypatch.setattr(verifier, "check_module", check_module)
        monkeypatch.setattr(verifier, "check_changed", check_changed)


def _run(edits: list[Pass | str], text: str = MODULE) -> tuple[ir.Operation, list[str]]:
    """Run the passes (or upstream pipeline elements) as `mesh-opt` does,
    with the verifier after each; the errors, if it fails."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx, ir.Location.unknown():
        pm = PassManager("builtin.module")
        previous = None
        for e in edits:
            after = None
            if isinstance(e, str):
                pm.add(e)
            else:
                e.add_to(pm)
                after = e
            check = VerifyMesh()
            check.after, check.previous = after, previous
            check.add_to(pm)
            previous = check
        try:
            pm.run(module)
        except ir.MLIRError as err:
            return module, [d.message for d in err.error_diagnostics]
    return module, []


def _all_reduces(module: ir.Operation) -> list[ir.Operation]:
    return _ops(module, "mesh.all_reduce")


def _break_axes(op: ir.Operation) -> None:
    op.attributes["mesh_axes"] = ir.DenseI16ArrayAttr.get([3])


AXIS_ERROR = "'mesh.all_reduce' op mesh axis 3 is out of range for mesh @m of rank 2"


def test_check_after_a_recording_pass_looks_only_at_its_ops(monkeypatch):
    spy = Spy(monkeypatch)

    def touch(p, module):
        p.mark_changed(_all_reduces(module)[1])

    module, errors = _run([Edit(), Edit(touch)])
    assert errors == []
    assert spy.whole == 1  # the first check has nothing before it
    assert spy.partial == [["mesh.all_reduce"]]


def test_check_after_a_recording_pass_catches_a_broken_op_it_changed(monkeypatch):
    spy = Spy(monkeypatch)

    def breaks(p, module):
        op = _all_reduces(module)[1]
        _break_axes(op)
        p.mark_changed(op)

    module, errors = _run([Edit(), Edit(breaks)])
    assert errors == [AXIS_ERROR]
    assert spy.partial == [["mesh.all_reduce"]] and spy.whole == 2  # reported by a whole check
    assert [v.message for v in verifier.check(module)] == errors


def test_check_after_a_recording_pass_catches_a_broken_op_it_created():
    def creates(p, module):
        first = _all_reduces(module)[0]
        with ir.InsertionPoint(first):
            new = ir.Operation.create(
                "mesh.all_gather",
                results=[ir.RankedTensorType.get([8, 16], ir.F32Type.get())],
                operands=[first.operands[0]],
                attributes={
                    "mesh": ir.FlatSymbolRefAttr.get("m"),
                    "mesh_axes": ir.DenseI16ArrayAttr.get([1]),
                    "gather_axis": ir.IntegerAttr.get(ir.IndexType.get(), 1),
                },
            )
        p.mark_created(new)

    _, errors = _run([Edit(), Edit(creates)])
    assert errors == ["'mesh.all_gather' op result dimension 1 must be 64 (16 * 4 devices), got 16"]


def test_an_op_broken_but_not_recorded_is_not_looked_at():
    """What the check skips: a pass that breaks the contract goes unseen
    (and the same edit unrecorded, `record=False`, is caught)."""

    def breaks_quietly(p, module):
        _break_axes(_all_reduces(module)[1])

    _, errors = _run([Edit(), Edit(breaks_quietly)])
    assert errors == []
    _, errors = _run([Edit(), Edit(breaks_quietly, record=False)])
    assert errors == [AXIS_ERROR]


def test_changed_sharding_op_rechecks_the_annotations_reading_it(monkeypatch):
    spy = Spy(monkeypatch)

    def resplit(p, module):
        (sharding,) = _ops(module, "mesh.sharding")
        three = "#mesh.axisarray<[array<i16>, array<i16>, array<i16: 0>]>"
        sharding.attributes["split_axes"] = ir.Attribute.parse(three)
        p.mark_changed(sharding)

    _, errors = _run([Edit(), Edit(resplit)])
    assert errors == ["'mesh.shard' op sharding splits 3 tensor dimensions but the tensor has rank 2"]
    assert spy.partial == [["mesh.sharding"]]


def test_changed_mesh_or_unknown_changes_check_the_whole_module(monkeypatch):
    spy = Spy(monkeypatch)

    def remesh(p, module):
        (mesh,) = _ops(module, "mesh.mesh")
        mesh.attributes["shape"] = ir.DenseI64ArrayAttr.get([2, 1])
        p.mark_changed(mesh)

    _, errors = _run([Edit(), Edit(remesh)])
    assert errors == [] and spy.whole == 2 and spy.partial == [["mesh.mesh"]]  # it could not tell

    spy.whole = 0
    _, errors = _run([Edit(), Edit(record=False), "canonicalize", Edit()])
    assert errors == [] and spy.whole == 3  # the first, after the silent pass, after canonicalize


def test_replace_set_type_and_erase_mark_what_they_touch():
    def rewire(p, module):
        first, second = _all_reduces(module)
        # second reads first's operand now: recorded as changed
        p.replace_all_uses(first.results[0], first.operands[0])
        p.erase(first)
        assert [op.name for op in p.changed_ops()] == ["mesh.all_reduce"]
        # a created op erased again is forgotten
        with ir.InsertionPoint(second):
            extra = ir.Operation.create(
                "mesh.process_linear_index",
                results=[ir.IndexType.get()],
                attributes={"mesh": ir.FlatSymbolRefAttr.get("m")},
            )
        p.mark_created(extra)
        p.erase(extra)
        assert len(p.changed_ops()) == 1
        # a type change marks the value's op and its users
        (shard,) = _ops(module, "mesh.shard")
        p.set_type(shard.results[0], ir.RankedTensorType.get([8, 8], ir.F32Type.get()))
        assert sorted(op.name for op in p.changed_ops()) == ["mesh.all_reduce", "mesh.shard"]

    _, errors = _run([Edit(), Edit(rewire)])
    assert errors == [
        "'mesh.shard' op result type tensor<8x8xf32> must equal the operand type tensor<8x16xf32>",
        "'mesh.all_reduce' op result shape 8x16 must equal the input shape 8x8",
    ]


def test_erasing_a_mesh_stops_recording():
    def unmesh(p, module):
        # The module stays valid if nothing uses it: a second, unused mesh.
        (mesh,) = _ops(module, "mesh.mesh")
        with ir.InsertionPoint(mesh):
            spare = ir.Operation.create(
                "mesh.mesh",
                attributes={"sym_name": ir.StringAttr.get("spare"), "shape": ir.DenseI64ArrayAttr.get([2])},
            )
        p.erase(spare)
        assert p.changed is None

    _, errors = _run([Edit(), Edit(unmesh)])
    assert errors == []


def test_build_chains_the_checks_after_python_passes(monkeypatch):
    spy = Spy(monkeypatch)
    monkeypatch.setitem(PASSES, "test-edit", Edit)
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(MODULE, context=ctx)
    pipeline = build([Element("test-edit"), Element("test-edit"), Element("cse")], ctx)
    with ctx:
        pipeline.pm.run(module)
    # a whole check after the first pass and after cse; none needed after the
    # second, which recorded no change
    assert spy.whole == 2 and spy.partial == [[]]


def test_a_check_run_again_on_another_module_starts_whole(monkeypatch):
    spy = Spy(monkeypatch)
    monkeypatch.setitem(PASSES, "test-edit", Edit)
    ctx = mesh_dialect.context()
    pipeline = build([Element("test-edit"), Element("test-edit")], ctx)
    for _ in range(2):
        module = mesh_dialect.parse(MODULE, context=ctx)
        with ctx:
            pipeline.pm.run(module)
    assert spy.whole == 2 and spy.partial == [[], []]


LOCAL_MESH = """\
func.func @g(%x: tensor<8xf32>) -> tensor<8xf32> {
  mesh.mesh @local(shape = 2)
  %a = mesh.all_reduce %x on @local mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %a : tensor<8xf32>
}
"""


def test_a_function_with_its_own_mesh_is_found_after_its_attributes_change(monkeypatch):
    """An op's hash follows its attributes: the meshes a whole check found
    in a function are still found after a pass changed the function."""
    spy = Spy(monkeypatch)

    def tag(p, module):
        (func,) = _ops(module, "func.func")
        func.attributes["test.tag"] = ir.UnitAttr.get()
        p.mark_changed(func, *_all_reduces(module))

    _, errors = _run([Edit(), Edit(tag)], LOCAL_MESH)
    assert errors == [] and spy.whole == 1 and spy.partial == [["func.func", "mesh.all_reduce"]]

    def breaks(p, module):
        (func,) = _ops(module, "func.func")
        func.attributes["test.tag"] = ir.UnitAttr.get()
        (op,) = _all_reduces(module)
        op.attributes["mesh_axes"] = ir.DenseI16ArrayAttr.get([1])
        p.mark_changed(func, op)

    _, errors = _run([Edit(), Edit(breaks)], LOCAL_MESH)
    assert errors == ["'mesh.all_reduce' op mesh axis 1 is out of range for mesh @local of rank 1"]


def test_erasing_an_op_holding_a_mesh_stops_recording():
    def drop(p, module):
        (func,) = _ops(module, "func.func")
        p.erase(func)
        assert p.changed is None

    _, errors = _run([Edit(), Edit(drop)], LOCAL_MESH)
    assert errors == []
