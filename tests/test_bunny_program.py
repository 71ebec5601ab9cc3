"""Bunny programs: parser, printer, token counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.examples import examples

from tui_grid.games.bunny.program import F, L, R, Loop, Program, ProgramError, format_program, parse_program


def programs(max_leaves: int = 12) -> st.SearchStrategy[Program]:
    ops = st.sampled_from([F, L, R])
    counts = st.one_of(st.none(), st.integers(min_value=1, max_value=10**6))
    nodes = st.recursive(
        ops,
        lambda children: st.builds(Loop, st.lists(children, max_size=4).map(tuple), counts),
        max_leaves=max_leaves,
    )
    return st.lists(nodes, max_size=5).map(lambda items: Program(tuple(items)))


@settings(derandomize=True, max_examples=examples(200))
@given(programs())
def test_parse_print_round_trip(program: Program) -> None:
    text = format_program(program)
    assert parse_program(text) == program
    assert str(program) == text


@settings(derandomize=True, max_examples=100)
@given(programs(), st.sampled_from(["", " ", ",", " , ", "\t"]))
def test_any_separators_parse_the_same(program: Program, sep: str) -> None:
    text = format_program(program).replace(" ", sep)
    assert parse_program(text) == program
    assert parse_program(text.lower()) == program


@pytest.mark.parametrize(
    "text, canonical, tokens",
    [
        ("LOOP(3){F F R}", "LOOP(3){F F R}", 4),
        ("loop { f f r }", "LOOP{F F R}", 4),
        ("LOOP ( 3 ) {F}", "LOOP(3){F}", 2),
        ("FFR", "F F R", 3),
        ("F,L,R", "F L R", 3),
        ("LOOP(3){F F R} L LOOP{F R}", "LOOP(3){F F R} L LOOP{F R}", 8),
        ("LLOOP{F}", "L LOOP{F}", 3),
        ("LOOP{LOOP(7){F L} F}", "LOOP{LOOP(7){F L} F}", 5),
        ("", "", 0),
        # the editor's keys as text (boards/README's `program:` example; the CLI's --program)
        ("[f[f]r]", "LOOP{F LOOP{F} R}", 5),
        ("[[7lf]f]", "LOOP{LOOP(7){L F} F}", 5),
        ("[ 3 f, f r] l", "LOOP(3){F F R} L", 5),
        ("LOOP{[2f]}", "LOOP{LOOP(2){F}}", 3),
    ],
)
def test_examples(text: str, canonical: str, tokens: int) -> None:
    program = parse_program(text)
    assert format_program(program) == canonical
    assert program.tokens == tokens


@pytest.mark.parametrize(
    "text, column, words",
    [
        ("LOOP(3){F F R", 14, "expected '}'"),
        ("F F X", 5, "unexpected 'X'"),
        ("LOOP(0){F}", 6, "at least 1"),
        ("LOOP(){F}", 6, "expected a loop count"),
        ("F }", 3, "no open loop"),
        ("LOOP(3 F}", 8, "expected ')'"),
        ("LOOP F", 6, "expected '{'"),
        ("[f}", 3, "expected ']', found '}'"),
        ("LOOP{f]", 7, "expected '}', found ']'"),
        ("[0f]", 2, "at least 1"),
        ("[ff", 4, "expected ']'"),
        ("f]", 2, "no open loop"),
    ],
)
def test_errors_name_the_column(text: str, column: int, words: str) -> None:
    with pytest.raises(ProgramError) as info:
        parse_program(text)
    assert info.value.column == column
    assert str(info.value).startswith(f"column {column}: ")
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_paths_and_node_at() -> None:
    program = parse_program("F LOOP(2){L LOOP{F}}")
    paths = list(program.paths())
    assert paths == [(0,), (1,), (1, 0), (1, 1), (1, 1, 0)]
    assert program.node_at((1, 1, 0)) == F
    assert program.node_at((1,)) == Loop((L, Loop((F,), None)), 2)


def test_loop_count_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Loop((F,), 0)
