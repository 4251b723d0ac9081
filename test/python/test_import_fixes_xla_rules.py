"""Shardings XLA's parser or Shardy's verifier refuse are refused when read,
with the rule and the value; the forms they take still read, and an
element of a GSPMD tuple is shown as written."""

import pytest

from mesh_dialect.frontends import FrontendError, gspmd, sdy


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("{devices=[2,4]<=[2,4]}", "an iota reshape of several dimensions needs a transpose T(...), got <=[2,4]"),
        ("{devices=[2,2,2]<=[2,2,2]}", "an iota reshape of several dimensions needs a transpose T(...), got <=[2,2,2]"),
        ("{devices=[8,1]<=[8]T(0)}", "an iota reshape of one dimension takes no transpose, got <=[8]T(0)"),
        ("{devices=[8]<=[8]T()}", "an iota reshape of one dimension takes no transpose, got <=[8]T()"),
    ],
)
def test_iota_forms_xla_refuses(text: str, rule: str) -> None:
    with pytest.raises(FrontendError) as e:
        gspmd.parse(text)
    assert str(e.value) == f"{rule} in mhlo.sharding: {text}"


@pytest.mark.parametrize(
    ("text", "devices"),
    [
        ("{devices=[2,4]<=[8]}", list(range(8))),
        ("{devices=[2,4]<=[2,4]T(0,1)}", list(range(8))),
        ("{devices=[2,4]<=[4,2]T(1,0)}", [0, 2, 4, 6, 1, 3, 5, 7]),
        ("{devices=[2,4]<=[1,8]T(1,0)}", list(range(8))),
        ("{devices=[2,4]<=[2,4]T (1,0)}", [0, 4, 1, 5, 2, 6, 3, 7]),
        ("{devices=[1,1]<=[1]}", [0]),
    ],
)
def test_iota_forms_xla_takes(text: str, devices: list[int]) -> None:
    assert list(gspmd.parse(text).devices) == devices


def test_tuple_elements_keep_their_text() -> None:
    tup = gspmd.parse('{{devices=[2,1]<=[2] metadata={op_name="a b"}}, {maximal device=1}}')
    assert [e.text for e in tup.elements] == ['{devices=[2,1]<=[2] metadata={op_name="a b"}}', "{maximal device=1}"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('<@m, [{"x":(1)2, "x":(2)2}, {}]>', 'two consecutive sub-axes can be merged: "x":(1)2, "x":(2)2'),
        ('<@m, [{}], replicated={"x":(2)2, "x":(4)2}>', 'two consecutive sub-axes can be merged: "x":(2)2, "x":(4)2'),
        ('<@m, [{}], unreduced={"x":(1)4, "x":(4)2}>', 'two consecutive sub-axes can be merged: "x":(1)4, "x":(4)2'),
        ('<@m, [{"x"}, {}p1]>', "dim 1 is empty and closed but has a priority"),
        ("<@m, [{}p0]>", "dim 0 is empty and closed but has a priority"),
    ],
)
def test_shardy_verifier_rules(text: str, rule: str) -> None:
    with pytest.raises(FrontendError) as e:
        sdy.parse_sharding(text)
    assert str(e.value) == f"{rule} in sdy sharding: {text}"


@pytest.mark.parametrize(
    "text",
    [
        '<@m, [{"x":(1)2, "x":(4)2}, {}]>',  # they do not meet
        '<@m, [{"x":(2)2, "x":(1)2}, {}]>',  # minor first: not consecutive in Shardy's sense
        '<@m, [{"x":(1)2, "y":(2)2}, {}]>',
        '<@m, [{"x":(1)2}, {"x":(2)2}]>',  # in two dimensions: a rule of its own (check_axes)
        '<@m, [{?}p1, {"y"}p0]>',
    ],
)
def test_shardy_forms_kept(text: str) -> None:
    sdy.parse_sharding(text)
