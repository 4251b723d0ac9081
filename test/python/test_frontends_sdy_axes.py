"""Shardy shardings use each mesh axis once (`sdy.check_axes`), unreduced i1
goes back to Shardy's kinds (`sdy.from_layout(boolean=True)`), and
import-shardings finds a function's name as MLIR prints it."""

import pytest
from mlir import ir

import mesh_dialect
from mesh_dialect.frontends import FrontendError, sdy
from mesh_dialect.sharding.spec import Sharding
from mesh_dialect.transforms.frontend.import_shardings import _named_elsewhere, _symbol_token

MESH = sdy.parse_mesh('<["x"=8, "y"=2]>')


@pytest.mark.parametrize(
    "text",
    [
        '<@m, [{"x"}, {"y"}]>',
        '<@m, [{"x":(1)2}, {"x":(2)4}], replicated={"y"}>',
        '<@m, [{"x":(1)4}, {}], replicated={"x":(4)2}, unreduced={"y"}>',
        '<@m, [{"x", ?}, {?}], unreduced={"y"}>',
        "<@m, []>",
    ],
)
def test_axes_used_once_pass(text):
    sdy.check_axes(sdy.parse_sharding(text), MESH)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('<@m, [{"x"}, {}], replicated={"x"}>', 'mesh axis "x" is both split and replicated'),
        ('<@m, [{"x"}, {}], unreduced={"x"}>', 'mesh axis "x" is both split and unreduced'),
        ('<@m, [{}, {}], replicated={"y"}, unreduced={"y"}>', 'mesh axis "y" is both replicated and unreduced'),
        ('<@m, [{"x"}, {"x"}]>', 'mesh axis "x" is split twice'),
        ('<@m, [{"y", "y"}, {}]>', 'mesh axis "y" is split twice'),
        ('<@m, [{}], replicated={"y", "y"}>', 'mesh axis "y" is replicated twice'),
        ('<@m, [{"x":(2)2}], replicated={"x"}>', 'mesh axis "x" is both split and replicated (overlapping "x":(2)2)'),
        ('<@m, [{"x":(1)4}, {"x":(2)4}]>', 'mesh axis "x":(2)4 is split twice (overlapping "x":(1)4)'),
    ],
)
def test_axes_used_twice_say_which_and_show_the_sharding(text, rule):
    sharding = sdy.parse_sharding(text)
    with pytest.raises(FrontendError) as e:
        sdy.check_axes(sharding, MESH)
    assert str(e.value) == f"{rule} in {sharding.text()}"


def test_an_axis_of_size_one_is_used_once_too():
    sharding = sdy.parse_sharding('<@m, [{"one"}, {}], replicated={"one"}>')
    with pytest.raises(FrontendError, match='mesh axis "one" is both split and replicated'):
        sdy.check_axes(sharding, sdy.parse_mesh('<["one"=1, "x"=2]>'))


REFS = [sdy.AxisRef("x"), sdy.AxisRef("y")]


@pytest.mark.parametrize(
    ("kind", "shardy"),
    [("bitwise_or", "sum"), ("min", "sum"), ("bitwise_and", "min"), ("max", "min")],
)
def test_boolean_partials_go_back_to_the_shardy_kind_that_computes_them(kind, shardy):
    layout = Sharding(((0,),), (1,), kind)
    back = sdy.from_layout(layout, "m", MESH, REFS, 1, boolean=True)
    assert back.reduction == shardy and back.unreduced == (sdy.AxisRef("y"),)


@pytest.mark.parametrize("kind", ["sum", "bitwise_xor", "product"])
def test_boolean_partials_shardy_cannot_compute_are_refused(kind):
    with pytest.raises(FrontendError, match=f"shardy has no unreduced kind for partial {kind} of i1"):
        sdy.from_layout(Sharding((), (1,), kind), "m", MESH, REFS, 1, boolean=True)


def test_non_boolean_partials_are_unchanged():
    assert sdy.from_layout(Sharding((), (1,), "max"), "m", MESH, REFS, 1).reduction == "max"
    with pytest.raises(FrontendError, match="no unreduced kind for partial bitwise_or:"):
        sdy.from_layout(Sharding((), (1,), "bitwise_or"), "m", MESH, REFS, 1)


@pytest.mark.parametrize("name", ["f", "f.g$1", "_x", "a b", 'q"uote', "back\\slash", "é", "1x", "x-y", "tab\tname"])
def test_symbol_token_is_how_mlir_prints_the_name(name):
    with mesh_dialect.context(allow_unregistered_dialects=True):
        printed = str(ir.FlatSymbolRefAttr.get(name)).encode()
    assert _symbol_token(name) == printed


def test_names_count_only_as_whole_tokens():
    text = b'call @f, [@f.g, @f_2, @"f", @f::@h], "x@f", @"a b"'
    # f: the call, the root of @f::@h and "x@f" (a string counts: the
    # function is kept); @"f" is not how MLIR spells f, @f.g and @f_2 are
    # other names.
    assert _named_elsewhere(text, {"f": 1, "f.g": 1, "f_2": 1, "a b": 1}) == ["f"]
    # three calls of f account for its three names
    assert _named_elsewhere(text, {"f": 3, "a b": 0}) == ["a b"]
