"""Tests for mesh_dialect.driver.expected: the `--split-input-file` and
`--verify-diagnostics` rules `mesh-opt` relies on for its lit tests."""

from __future__ import annotations

import pytest

from mesh_dialect.driver.expected import Expectation, check, join_outputs, parse_expectations, split_input
from mesh_dialect.ir.diagnostics import Diagnostic

F = "t.mlir"


def err(message: str, line: int, col: int, filename: str | None = F) -> Diagnostic:
    return Diagnostic("error", message, filename, line, col)


def source(*lines: str) -> str:
    """A test file, one argument per line (the comments number them)."""
    return "\n".join(lines)


def summary(expectations: list[Expectation]) -> list[tuple]:
    """The fields a reader cares about, in a form that compares exactly."""
    return [(e.severity, e.text, e.target_line, e.line, e.col, e.is_regex, e.error) for e in expectations]


# ---------------------------------------------------------------- split_input


def test_split_without_marker_returns_the_text_unchanged() -> None:
    text = "a\nb\n"
    assert split_input(text) == [text]


def test_split_pads_chunks_so_lines_keep_their_numbers() -> None:
    text = "a\nb\n// -----\nc\n  // -----  \nd\ne\n"
    chunks = split_input(text)
    assert chunks == ["a\nb\n", "\n\n\nc\n", "\n\n\n\n\nd\ne\n"]
    original = text.split("\n")
    for chunk in chunks:
        for number, line in enumerate(chunk.split("\n"), 1):
            if line:
                assert original[number - 1] == line


def test_split_ignores_lines_that_only_resemble_the_marker() -> None:
    text = "a\n// ------\nb // -----\n// -----\nc"
    assert split_input(text) == ["a\n// ------\nb // -----\n", "\n\n\n\nc"]


def test_split_with_custom_marker_and_trailing_marker() -> None:
    assert split_input("x\n#--\n", marker="#--") == ["x\n", "\n\n"]


# --------------------------------------------------------------- join_outputs


def test_join_outputs_puts_the_marker_on_its_own_line() -> None:
    assert join_outputs(["a\n", "b\n"]) == "a\n// -----\nb\n"
    assert join_outputs(["a", "", "c\n"]) == "a\n// -----\n// -----\nc\n"
    assert join_outputs(["only\n"]) == "only\n"
    assert join_outputs([]) == ""


# --------------------------------------------------------- parse_expectations


def test_parse_every_location_form() -> None:
    text = source(
        "op1 // expected-error {{same line}}",  # 1
        "// expected-warning@+2 {{plus two}}",  # 2
        "op3",  # 3
        "op4",  # 4
        "  // expected-note@-1 {{minus one}}",  # 5
        "// expected-remark@above {{above}}",  # 6
        "// expected-error@below {{below}}",  # 7
        "op8",  # 8
        "// expected-error@unknown {{nowhere}}",  # 9
        "// expected-error @+1   {{  spaced  }}",  # 10
    )
    assert summary(parse_expectations(text, F)) == [
        ("error", "same line", 1, 1, 8, False, None),
        ("warning", "plus two", 4, 2, 4, False, None),
        ("note", "minus one", 4, 5, 6, False, None),
        ("remark", "above", 4, 6, 4, False, None),  # line 5 holds a directive: skipped
        ("error", "below", 8, 7, 4, False, None),
        ("error", "nowhere", None, 9, 4, False, None),
        ("error", "spaced", 11, 10, 4, False, None),
    ]
    assert {e.filename for e in parse_expectations(text, F)} == {F}


def test_parse_stacked_above_and_below_skip_directive_lines() -> None:
    text = source(
        "// expected-error@below {{first}}",  # 1
        "// expected-error@below {{second}}",  # 2
        "op3",  # 3
        "// expected-note@above {{third}}",  # 4
        "// expected-note@above {{fourth}}",  # 5
    )
    assert [(e.text, e.target_line) for e in parse_expectations(text, F)] == [
        ("first", 3),
        ("second", 3),
        ("third", 3),
        ("fourth", 3),
    ]


def test_parse_regex_variant() -> None:
    text = "op // expected-error-re@+0 {{value {{[0-9]+}} of (a.b)}}"
    [e] = parse_expectations(text, F)
    assert summary([e]) == [("error", "value {{[0-9]+}} of (a.b)", 1, 1, 7, True, None)]
    assert e.matches("error", "bad value 42 of (a.b) here")
    assert not e.matches("error", "bad value x of (a.b)")
    assert not e.matches("error", "bad value 42 of (aXb)")  # the literal part is not a regex
    assert not e.matches("warning", "value 42 of (a.b)")


def test_parse_ignores_prose_and_plain_text() -> None:
    text = "// expected-behaviour: nothing to see\n%x = op  // no directive\n"
    assert parse_expectations(text, F) == []


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            "// expected-error message",
            "malformed expected-error directive: missing '{{' before the expected message",
        ),
        (
            "// expected-error {{message",
            "malformed expected-error directive: missing '}}' at the end of the line",
        ),
        (
            "// expected-error {{a}} trailing",
            "malformed expected-error directive: missing '}}' at the end of the line",
        ),
        (
            "// expected-note@next {{a}}",
            ("malformed expected-note directive: unknown location '@next' (use @+N, @-N, @above, @below or @unknown)"),
        ),
        (
            "// expected-error@-3 {{a}}",
            "malformed expected-error directive: '@-3' points before the first line",
        ),
        (
            "// expected-eror {{a}}",
            ("malformed expected-eror directive: use expected-error, -warning, -note or -remark, optionally with -re"),
        ),
        (
            "// expected-error-re {{a {{[0-9}}}}",
            ("malformed expected-error-re directive: invalid regex '[0-9': unterminated character set at position 0"),
        ),
        (
            "// expected-error-re {{a {{(?i)b}}}}",
            (
                "malformed expected-error-re directive: invalid regex text 'a {{(?i)b}}': "
                "global flags not at the start of the expression"
            ),
        ),
        (
            "// expected-error-re {{{{(?P<x>a)}} {{(?P<x>b)}}}}",
            (
                "malformed expected-error-re directive: invalid regex text '{{(?P<x>a)}} {{(?P<x>b)}}': "
                "redefinition of group name 'x' as group 2; was group 1"
            ),
        ),
        (
            "// expected-error-re {{a {{b}}",
            "malformed expected-error-re directive: unterminated '{{' in regex text 'a {{b'",
        ),
    ],
)
def test_parse_reports_malformed_directives(line: str, error: str) -> None:
    [e] = parse_expectations("\n" + line, F)
    assert (e.line, e.col, e.error) == (2, 4, error)
    assert not e.matches(e.severity, e.text)


def test_parse_above_or_below_without_a_plain_line_is_malformed() -> None:
    above = parse_expectations("// expected-error@above {{a}}\nop", F)
    below = parse_expectations("op\n// expected-error@below {{b}}\n// expected-note@below {{c}}\n", F)
    tail = "directive: no line {} it that is not a directive itself"
    assert summary(above + below) == [
        ("error", "a", None, 1, 4, False, "malformed expected-error " + tail.format("above")),
        ("error", "b", None, 2, 4, False, "malformed expected-error " + tail.format("below")),
        ("note", "c", None, 3, 4, False, "malformed expected-note " + tail.format("below")),
    ]


# ---------------------------------------------------------------------- check


def test_check_success_for_every_form() -> None:
    text = source(
        "op1 // expected-error {{same line}}",  # 1
        "// expected-warning@+1 {{plus one}}",  # 2
        "op3",  # 3
        "// expected-remark@above {{above}}",  # 4
        "// expected-error@below {{below}}",  # 5
        "op6",  # 6
        "// expected-note@-6 {{minus}}",  # 7 -> line 1
        "// expected-error-re@+1 {{op {{[0-9]+}} failed}}",  # 8
        "op9",  # 9
        "// expected-error@unknown {{lost}}",  # 10
    )
    diagnostics = [
        Diagnostic("error", "this is the same line", F, 1, 1),
        Diagnostic("warning", "plus one", F, 3, 1),
        Diagnostic("remark", "above", F, 3, 2),
        Diagnostic("error", "below!", F, 6, 1),
        Diagnostic("note", "minus", F, 1, 5),
        Diagnostic("error", "op 9 failed", F, 9, 1),
        Diagnostic("error", "lost"),
    ]
    assert check(parse_expectations(text, F), diagnostics, F) == []


def test_check_matches_notes_recursively_as_notes() -> None:
    text = source(
        "op1 // expected-error {{outer}}",  # 1
        "op2 // expected-note {{inner}}",  # 2
        "op3 // expected-note {{deeper}}",  # 3
    )
    # A nested diagnostic counts as a note whatever severity it carries.
    deeper = Diagnostic("remark", "deeper", F, 3, 1)
    inner = Diagnostic("note", "inner", F, 2, 1, (deeper,))
    outer = Diagnostic("error", "outer", F, 1, 1, (inner,))
    assert check(parse_expectations(text, F), [outer], F) == []


def test_check_reports_unmatched_note() -> None:
    outer = Diagnostic("error", "outer", F, 1, 1, (Diagnostic("note", "see here", F, 2, 7),))
    expectations = parse_expectations("op1 // expected-error {{outer}}\nop2", F)
    assert check(expectations, [outer], F) == [err("unexpected note: see here", 2, 7)]


def test_check_reports_expectation_not_produced() -> None:
    expectations = parse_expectations("op\n  // expected-warning@-1 {{is odd}}\n", F)
    assert check(expectations, [], F) == [err('expected warning "is odd" was not produced', 2, 6)]


def test_check_reports_unexpected_diagnostic() -> None:
    diagnostics = [Diagnostic("error", "'mesh.shard' op bad axis", F, 4, 3)]
    assert check([], diagnostics, F) == [err("unexpected error: 'mesh.shard' op bad axis", 4, 3)]


def test_check_reports_wrong_severity_both_ways() -> None:
    expectations = parse_expectations("a\nop // expected-error {{overflow}}\n", F)
    diagnostics = [Diagnostic("warning", "overflow", F, 2, 1)]
    assert check(expectations, diagnostics, F) == [
        err("unexpected warning: overflow", 2, 1),
        err('expected error "overflow" was not produced', 2, 7),
    ]


def test_check_wrong_line_and_wrong_text() -> None:
    expectations = parse_expectations("op // expected-error {{boom}}\nop2\n", F)
    diagnostics = [Diagnostic("error", "boom", F, 2, 1), Diagnostic("error", "bang", F, 1, 1)]
    assert check(expectations, diagnostics, F) == [
        err("unexpected error: bang", 1, 1),
        err('expected error "boom" was not produced', 1, 7),
        err("unexpected error: boom", 2, 1),
    ]


def test_check_one_expectation_matches_one_diagnostic() -> None:
    expectations = parse_expectations("op // expected-error {{dup}}", F)
    diagnostics = [Diagnostic("error", "dup", F, 1, 1), Diagnostic("error", "dup", F, 1, 4)]
    assert check(expectations, diagnostics, F) == [err("unexpected error: dup", 1, 4)]
    twice = parse_expectations("op\n// expected-error@above {{dup}}\n// expected-error@above {{dup}}", F)
    assert check(twice, diagnostics, F) == []


def test_check_pairing_does_not_depend_on_directive_order() -> None:
    # "a" also fits "ab"; a greedy first-fit would give "ab" the wrong partner.
    text = "op\n// expected-error@above {{a}}\n// expected-error@above {{ab}}"
    diagnostics = [Diagnostic("error", "ab", F, 1, 1), Diagnostic("error", "a", F, 1, 1)]
    assert check(parse_expectations(text, F), diagnostics, F) == []


def test_check_unknown_location_diagnostics() -> None:
    diagnostics = [Diagnostic("error", "no location"), Diagnostic("warning", "line zero", F, 0, 0)]
    assert check([], diagnostics, F) == [
        err("unexpected error: no location", 0, 0, None),
        err("unexpected warning: line zero", 0, 0, None),
    ]
    # A located expectation cannot claim an unlocated diagnostic, nor the reverse.
    text = "op // expected-error {{no location}}\n// expected-error@unknown {{placed}}"
    diagnostics = [Diagnostic("error", "no location"), Diagnostic("error", "placed", F, 2, 1)]
    assert check(parse_expectations(text, F), diagnostics, F) == [
        err("unexpected error: no location", 0, 0, None),
        err('expected error "no location" was not produced', 1, 7),
        err("unexpected error: placed", 2, 1),
        err('expected error "placed" was not produced', 2, 4),
    ]


def test_check_diagnostic_in_another_file_is_unexpected() -> None:
    expectations = parse_expectations("op // expected-error {{elsewhere}}", F)
    diagnostics = [Diagnostic("error", "elsewhere", "other.mlir", 1, 1)]
    assert check(expectations, diagnostics, F) == [
        err('expected error "elsewhere" was not produced', 1, 7),
        err("unexpected error: elsewhere", 1, 1, "other.mlir"),
    ]


def test_check_reports_malformed_directives_in_source_order() -> None:
    text = "op1\n// expected-error {{oops\nop3 // expected-error {{fine}}\n"
    diagnostics = [Diagnostic("error", "fine", F, 3, 1), Diagnostic("error", "stray", F, 1, 2)]
    assert check(parse_expectations(text, F), diagnostics, F) == [
        err("unexpected error: stray", 1, 2),
        err("malformed expected-error directive: missing '}}' at the end of the line", 2, 4),
    ]


def test_split_then_check_uses_original_line_numbers() -> None:
    text = source(
        "op1 // expected-error {{first}}",  # 1
        "// -----",  # 2
        "// expected-error@below {{second}}",  # 3
        "op4",  # 4
        "// -----",  # 5
        "op6 // expected-warning {{missing}}",  # 6
    )
    produced = [[Diagnostic("error", "first", F, 1, 1)], [Diagnostic("error", "second", F, 4, 1)], []]
    chunks = split_input(text)
    assert len(chunks) == 3
    results = [check(parse_expectations(c, F), d, F) for c, d in zip(chunks, produced, strict=True)]
    assert results == [[], [], [err('expected warning "missing" was not produced', 6, 8)]]
