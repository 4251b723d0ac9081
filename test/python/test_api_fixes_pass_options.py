"""Options of a user's pass typed `float` or optional (`X | None`) are
converted from pipeline text and checked from Python, as bool, int and str
options are: never handed over as the raw text."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Optional

import pytest

import mesh_dialect
from mesh_dialect.driver.pipeline import PipelineError
from mesh_dialect.transforms import PASSES, OptionError, Pass

SEEN: list[Pass] = []


@dataclasses.dataclass
class Scale(Pass):
    """Options spelled as strings (this module's future annotations)."""

    ARGUMENT: ClassVar[str] = "test-api-fixes-scale"
    factor: float = 1.0
    limit: int | None = None
    ratio: float | None = None
    label: str | None = None
    on: Optional[bool] = None  # noqa: UP045 - the typing spelling must work too

    def run(self, module) -> None:
        SEEN.append(self)


def _typed_pass() -> type[Pass]:
    """The same options with real types, as a module without future
    annotations declares them."""
    namespace = {
        "__annotations__": {"ARGUMENT": ClassVar[str], "factor": float, "limit": int | None, "on": Optional[bool]},  # noqa: UP045
        "ARGUMENT": "test-api-fixes-typed",
        "factor": 1.0,
        "limit": None,
        "on": None,
        "run": lambda self, module: SEEN.append(self),
    }
    return dataclasses.dataclass(type("Typed", (Pass,), namespace))


@pytest.mark.parametrize("cls", [Scale, _typed_pass()])
def test_float_and_optional_options_convert_from_text(cls):
    p = cls.from_options("factor=0.5 limit=3 on=true")
    assert p.factor == 0.5 and isinstance(p.factor, float)
    assert p.limit == 3 and isinstance(p.limit, int)
    assert p.on is True
    assert cls.from_options("limit=none on=None").limit is None
    assert cls.from_options("factor=2").factor == 2.0


@pytest.mark.parametrize("cls", [Scale, _typed_pass()])
@pytest.mark.parametrize(
    "text, message",
    [
        ("factor=x", "option 'factor' of pass '{}' must be a number, got 'x'"),
        ("limit=3.5", "option 'limit' of pass '{}' must be an integer, got '3.5'"),
        ("on=maybe", "option 'on' of pass '{}' must be true or false, got 'maybe'"),
    ],
)
def test_float_and_optional_options_refuse_bad_text(cls, text, message):
    with pytest.raises(OptionError) as info:
        cls.from_options(text)
    assert str(info.value) == message.format(cls.ARGUMENT)


def test_optional_str_keeps_its_text():
    assert Scale.from_options("label=none").label == "none"
    assert Scale.from_options("ratio=0.25").ratio == 0.25


@pytest.mark.parametrize("cls", [Scale, _typed_pass()])
def test_float_and_optional_options_are_checked_from_python(cls):
    with pytest.raises(OptionError, match=r"option 'factor' of pass '.*' must be a float, got 'x'"):
        cls(factor="x")
    with pytest.raises(OptionError, match=r"must be a float, got True"):
        cls(factor=True)
    with pytest.raises(OptionError, match=r"option 'limit' of pass '.*' must be an int or None, got '3'"):
        cls(limit="3")
    assert cls(factor=2, limit=None).factor == 2  # an int is a float, as in typing
    assert cls(limit=4).limit == 4


def test_registered_pass_gets_numbers_from_a_pipeline(monkeypatch):
    monkeypatch.setitem(PASSES, Scale.ARGUMENT, Scale)
    SEEN.clear()
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse("func.func @f() { return }", context=ctx)
    mesh_dialect.pass_manager(f"builtin.module({Scale.ARGUMENT}{{factor=0.5 limit=3}})", context=ctx).run(module)
    [ran] = SEEN
    assert (ran.factor, ran.limit) == (0.5, 3)
    with pytest.raises(PipelineError, match="must be a number, got 'half'"):
        mesh_dialect.pass_manager(f"builtin.module({Scale.ARGUMENT}{{factor=half}})", context=ctx)
