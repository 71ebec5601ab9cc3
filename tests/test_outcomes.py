"""Typed outcomes (core.outcome): every cause of every game says its sentence, with and
without the players' names; a program's output stays raw in the outcome and is quoted
escaped when said; the engines end games with their own causes."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tui_grid.core.agents import AgentError, FunctionAgent
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Outcome, Result
from tui_grid.core.external import ExternalProgramAgent
from tui_grid.core.geometry import Direction
from tui_grid.core.outcome import Cause, Failure, Fault, Rule, cause_named, describe
from tui_grid.core.session import Session
from tui_grid.games.bunny.causes import BunnyCause
from tui_grid.games.evasion.causes import EvasionCause
from tui_grid.games.ice.causes import IceCause
from tui_grid.games.jimmy.causes import JimmyCause
from tui_grid.games.registry import get_game
from tui_grid.games.tron.causes import TronCause
from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


def lost(cause: Cause, seat: int, *cells: tuple[int, int]) -> Outcome:
    return Outcome(Result.LOST, cause, seat, cells=cells)


def won(cause: Cause, seat: int | None, winner: int | None, *cells: tuple[int, int], numbers: tuple[float, ...] = ()) -> Outcome:
    return Outcome(Result.WON, cause, seat, winner, numbers=numbers, cells=cells)


def forfeit(failure: Failure, seat: int = 1) -> Outcome:
    return failure.outcome(seat, 1 - seat)


#: (game, outcome, sentence without names, sentence with these names)
NAMES = ("ann", "prog.py")
SENTENCES = [
    # Tron's rules
    ("tron", won(TronCause.OFF_BOARD, 0, 1, (0, 3)), "red drove off the board from row 1, col 4: green wins",
     "red (ann) drove off the board from row 1, col 4: green (prog.py) wins"),
    ("tron", won(TronCause.WALL, 1, 0, (4, 0)), "green crashed into a wall at row 5, col 1: red wins",
     "green (prog.py) crashed into a wall at row 5, col 1: red (ann) wins"),
    ("tron", won(TronCause.OWN_TRAIL, 1, 0, (2, 4)), "green crashed into its own trail at row 3, col 5: red wins",
     "green (prog.py) crashed into its own trail at row 3, col 5: red (ann) wins"),
    ("tron", won(TronCause.TRAIL, 0, 1, (2, 4)), "red crashed into green's trail at row 3, col 5: green wins",
     "red (ann) crashed into green's trail at row 3, col 5: green (prog.py) wins"),
    ("tron", won(TronCause.HEAD, 0, 1, (1, 3)), "red crashed into green's head at row 2, col 4: green wins",
     "red (ann) crashed into green's head at row 2, col 4: green (prog.py) wins"),
    ("tron", Outcome(Result.DRAW, TronCause.HEAD_ON, cells=((2, 3),)), "red and green met head-on at row 3, col 4: both crash",
     "red (ann) and green (prog.py) met head-on at row 3, col 4: both crash"),
    ("tron", Outcome(Result.DRAW, TronCause.SWAPPED, cells=((2, 3), (2, 4))),
     "red and green swapped cells head-on between row 3, col 4 and row 3, col 5: both crash",
     "red (ann) and green (prog.py) swapped cells head-on between row 3, col 4 and row 3, col 5: both crash"),
    ("tron", Outcome(Result.DRAW, TronCause.BOTH, parts=(lost(TronCause.WALL, 0, (2, 0)), lost(TronCause.TRAIL, 1, (2, 1)))),
     "both crashed: red crashed into a wall at row 3, col 1; green crashed into red's trail at row 3, col 2",
     "both crashed: red (ann) crashed into a wall at row 3, col 1; green (prog.py) crashed into red's trail at row 3, col 2"),
    # Tron's arena (three or more cycles): meetings name their seats, other trails their owner
    ("tron", Outcome(Result.DRAW, TronCause.HEAD_ON, numbers=(0, 2, 3), cells=((4, 4),)),
     "red, blue and yellow met head-on at row 5, col 5: all crash",
     "red (ann), blue and yellow met head-on at row 5, col 5: all crash"),
    ("tron", Outcome(Result.WON, TronCause.LAST_STANDING, winner=2, places=(2, 3, 1),
                     parts=(Outcome(Result.LOST, TronCause.TRAIL, 0, numbers=(2,), cells=((1, 1),)),)),
     "blue is the last cycle riding: red crashed into blue's trail at row 2, col 2",
     "blue is the last cycle riding: red (ann) crashed into blue's trail at row 2, col 2"),
    ("tron", Outcome(Result.DRAW, TronCause.ALL_OUT, places=(1, 1, 3),
                     parts=(Outcome(Result.DRAW, TronCause.SWAPPED, numbers=(0, 1), cells=((1, 1), (1, 2))),)),
     "the last cycles went out together, a shared win: red and green swapped cells head-on between row 2, col 2 and row 2, col 3: both crash",
     "the last cycles went out together, a shared win: red (ann) and green (prog.py) swapped cells head-on between row 2, col 2 "
     "and row 2, col 3: both crash"),
    # Evasion's rules
    ("evasion", won(EvasionCause.CAUGHT, 1, 0, numbers=(5,)), "caught at step 5", "the hunter (ann) caught the prey (prog.py) at step 5"),
    ("evasion", won(EvasionCause.TIME_UP, 1, 1, numbers=(40,)), "not caught in 40 steps (step limit)",
     "the prey (prog.py) was not caught in 40 steps (step limit)"),
    # the puzzles: one seat, never named
    ("jimmy", won(JimmyCause.ESCAPED, 0, None, numbers=(3,)), "Escaped in 3 moves", "Escaped in 3 moves"),
    ("jimmy", lost(JimmyCause.CAUGHT, 0, (2, 2), (1, 2)), "Caught at row 3, col 3 by the ghost from row 2, col 3",
     "Caught at row 3, col 3 by the ghost from row 2, col 3"),
    ("jimmy", lost(JimmyCause.STUCK, 0), "Caught: dead end: no legal move", "Caught: dead end: no legal move"),
    ("ice", won(IceCause.SOLVED, 0, None, numbers=(6, 16)), "Solved in 6 moves (distance 16)", "Solved in 6 moves (distance 16)"),
    ("bunny", won(BunnyCause.COMPLETE, 0, None, numbers=(1,)), "Complete in 1 token", "Complete in 1 token"),
    # core's generic ends by rule
    ("tron", won(Rule.WON, None, 1), "green wins", "green (prog.py) wins"),
    ("tron", lost(Rule.LOST, 0), "red loses", "red (ann) loses"),
    ("tron", Outcome(Result.DRAW, Rule.DRAW), "A draw", "A draw"),
    ("jimmy", Outcome(Result.WON, Rule.WON), "Won", "Won"),
    # core's forfeits, in a two-seat game's words
    ("tron", forfeit(Failure(Fault.COULD_NOT_START, "[red]nosuchprog", "No such file or directory")),
     "green forfeits: could not start '[red]nosuchprog': No such file or directory",
     "green (prog.py) forfeits: could not start '[red]nosuchprog': No such file or directory"),
    ("tron", forfeit(Failure(Fault.CRASHED, "ValueError: boom", numbers=(3,))),
     "green forfeits: crashed with code 3 without answering; stderr: 'ValueError: boom'",
     "green (prog.py) forfeits: crashed with code 3 without answering; stderr: 'ValueError: boom'"),
    ("tron", forfeit(Failure(Fault.EXITED, note="between moves", numbers=(0,))), "green forfeits: exited with code 0 between moves",
     "green (prog.py) forfeits: exited with code 0 between moves"),
    ("tron", forfeit(Failure(Fault.NO_ANSWER, numbers=(0.3,)), 0), "red forfeits: gave no answer within 0.3 s",
     "red (ann) forfeits: gave no answer within 0.3 s"),
    ("tron", forfeit(Failure(Fault.LATE, "L", numbers=(2.04, 2)), 0), "red forfeits: answered 'L' after 2.04 s, past its 2 s",
     "red (ann) forfeits: answered 'L' after 2.04 s, past its 2 s"),
    ("evasion", forfeit(Failure(Fault.OUT_OF_TIME, numbers=(120,)), 0), "the hunter forfeits: ran out of thinking time (120 s in all)",
     "the hunter (ann) forfeits: ran out of thinking time (120 s in all)"),
    ("tron", forfeit(Failure(Fault.BAD_OUTPUT, "BANANA", "not one of LEFT RIGHT UP DOWN")),
     "green forfeits: printed 'BANANA', not one of LEFT RIGHT UP DOWN",
     "green (prog.py) forfeits: printed 'BANANA', not one of LEFT RIGHT UP DOWN"),
    ("tron", forfeit(Failure(Fault.BAD_OUTPUT, note="more than 65536 bytes without an answer line")),
     "green forfeits: printed more than 65536 bytes without an answer line",
     "green (prog.py) forfeits: printed more than 65536 bytes without an answer line"),
    ("evasion", forfeit(Failure(Fault.GARBAGE, "fly away", "not a hunter's answer"), 0),
     "the hunter forfeits: sent garbage: 'fly away', not a hunter's answer",
     "the hunter (ann) forfeits: sent garbage: 'fly away', not a hunter's answer"),
    ("tron", forfeit(Failure(Fault.ILLEGAL, "X", "not a direction")), "green forfeits: played 'X': not a direction",
     "green (prog.py) forfeits: played 'X': not a direction"),
    ("tron", forfeit(Failure(Fault.LEFT), 0), "red forfeits: left the match", "red (ann) forfeits: left the match"),
    ("tron", forfeit(Failure(Fault.DISCONNECTED), 0), "red forfeits: disconnected", "red (ann) forfeits: disconnected"),
    ("tron", forfeit(Failure(Fault.DISCONNECTED, note="Connection reset by peer"), 0),
     "red forfeits: disconnected (Connection reset by peer)", "red (ann) forfeits: disconnected (Connection reset by peer)"),
    ("tron", forfeit(Failure(Fault.IDLE, numbers=(60,)), 0), "red forfeits: idled for 60 s", "red (ann) forfeits: idled for 60 s"),
    ("evasion", forfeit(Failure(Fault.CONCEDED), 0), "the hunter forfeits: conceded", "the hunter (ann) forfeits: conceded"),
    ("tron", forfeit(Failure(Fault.FAILED, note="gave up"), 0), "red forfeits: gave up", "red (ann) forfeits: gave up"),
]


@pytest.mark.parametrize(("game", "outcome", "plain", "named"), SENTENCES, ids=lambda value: getattr(value, "key", None))
def test_every_cause_says_its_sentence_with_and_without_names(game: str, outcome: Outcome, plain: str, named: str) -> None:
    definition = get_game(game)
    assert definition.describe_outcome(outcome) == plain
    assert definition.describe_outcome(outcome, NAMES) == named
    assert definition.describe_outcome(outcome, (None, None)) == plain  # a seat without a name: its word alone


def test_the_table_covers_every_cause_of_every_family() -> None:
    covered = {outcome.cause for _, outcome, _, _ in SENTENCES}
    families = (Rule, Fault, TronCause, EvasionCause, JimmyCause, IceCause, BunnyCause)
    assert {cause for family in families for cause in family} == covered


@pytest.mark.parametrize("cause", [cause for family in (Rule, Fault, TronCause, EvasionCause, JimmyCause, IceCause, BunnyCause)
                                   for cause in family], ids=lambda cause: cause.key)
def test_a_cause_is_found_by_its_key(cause: Cause) -> None:
    assert cause_named(cause.key) is cause


def test_an_unknown_cause_is_refused() -> None:
    with pytest.raises(KeyError):
        cause_named("tron:teleported")
    with pytest.raises(KeyError):
        cause_named("chess:mate")
    with pytest.raises(TypeError, match="family"):
        class Nameless(Cause):  # noqa: F841
            X = "x"


def test_outside_text_is_escaped_and_cut_when_said_and_kept_raw() -> None:
    output = "[red]UP[/red]\x1b[2J\u202e" + "G" * 200
    outcome = forfeit(Failure(Fault.BAD_OUTPUT, output, "not one of LEFT RIGHT UP DOWN"))
    said = get_game("tron").describe_outcome(outcome, ("you", "bad\x1b]0;name\x07"))
    assert outcome.detail == output
    assert said.startswith("green (bad\\x1b]0;name\\x07) forfeits: printed '[red]UP[/red]\\x1b[2J\\u202eGGG")
    assert "G" * 80 not in said and "…' (218 characters), not one of LEFT RIGHT UP DOWN" in said
    assert "\x1b" not in said and "\u202e" not in said


def test_an_outcome_without_a_cause_says_its_result() -> None:
    assert describe(Outcome(Result.WON, winner=0), seat_words=("red", "green")) == "red wins"
    assert describe(Outcome(Result.LOST)) == "Lost"
    assert describe(Outcome()) == ""  # still playing: nothing to say


def test_seat_words_take_no_part_in_comparing_outcomes() -> None:
    assert won(TronCause.WALL, 1, 0, (4, 0)) == Outcome(Result.WON, TronCause.WALL, 1, 0, cells=((4, 0),), seat_words=("red", "green"))


def test_an_agent_error_in_words_forfeits_with_those_words() -> None:
    error = AgentError("gave up")
    assert error.failure == Failure(Fault.FAILED, note="gave up")


# --- the engines end games with their own causes ------------------------------------------------
def test_tron_crashes_are_typed_with_their_seat_and_cell() -> None:
    engine = TronEngine()
    state = engine.initial_state()
    while not state.outcome.over:
        state = engine.step(state, {0: U, 1: D}).state
    outcome = state.outcome
    assert outcome.result is Result.DRAW and outcome.cause is TronCause.BOTH
    assert [(part.cause, part.seat) for part in outcome.parts] == [(TronCause.WALL, 0), (TronCause.WALL, 1)]
    assert outcome.parts[0].cells == (tuple(state.crashes[0]),)
    assert outcome.reason.startswith("both crashed: red crashed into a wall at row 1, col")


def test_a_tron_program_forfeit_keeps_its_output_verbatim(tmp_path: Path) -> None:
    """What the program printed is the outcome's detail, byte for byte (markup, escape and
    all); the sentence quotes it escaped."""
    printed = "[red]UP\x1b[2J"
    path = tmp_path / "loud.py"
    path.write_text(textwrap.dedent(f"""
        import sys
        sys.stdout.write({printed!r} + "\\n")
    """))
    program = ExternalProgramAgent(f"{sys.executable} {path}", "oneshot", encode_for_program, parse_program_answer, name="loud")
    outcome = one_step_against(program, seat=1)
    assert outcome.cause is Fault.BAD_OUTPUT and outcome.seat == 1 and outcome.winner == 0
    assert outcome.detail == printed
    tron = get_game("tron")
    assert tron.describe_outcome(outcome, ("you", "loud.py")) == \
        "green (loud.py) forfeits: printed '[red]UP\\x1b[2J', not one of LEFT RIGHT UP DOWN"
    assert outcome.reason == "green forfeits: printed '[red]UP\\x1b[2J', not one of LEFT RIGHT UP DOWN"


def one_step_against(program: ExternalProgramAgent, seat: int) -> Outcome:
    """One Tron step with `program` in `seat` and a bot that goes up in the other: the outcome."""
    agents: list[Any] = [FunctionAgent(lambda ask: Direction.UP, "quick")]
    agents.insert(seat, program)
    session = Session(TronEngine(), agents, undo=False)
    driver = Driver(session, timeout=20.0)
    try:
        driver.step()
    finally:
        driver.close()
    assert session.over
    return session.outcome


def test_a_program_that_cannot_start_names_its_command() -> None:
    program = ExternalProgramAgent("/nonexistent/[red]bot --flag", "oneshot", encode_for_program, parse_program_answer)
    outcome = one_step_against(program, seat=0)
    assert outcome.cause is Fault.COULD_NOT_START and outcome.detail == "/nonexistent/[red]bot --flag"
    assert outcome.reason == "red forfeits: could not start '/nonexistent/[red]bot --flag': No such file or directory"


def test_evasion_and_the_puzzles_end_with_their_causes() -> None:
    from tui_grid.games.evasion.engine import HUNTER, NO_WALLS, PREY, EvasionEngine
    from tui_grid.games.evasion.rules import Config

    engine = EvasionEngine(Config(max_steps=2))
    state = engine.initial_state()
    for _ in range(2):
        state = engine.step(state, {HUNTER: NO_WALLS}).state
    outcome = engine.outcome(state)
    assert (outcome.cause, outcome.seat, outcome.winner, outcome.numbers) == (EvasionCause.TIME_UP, PREY, PREY, (2,))
    ice = get_game("ice").make_engine(get_game("ice").load("spiral"))
    solved = ice.outcome(ice.replay(ice.parse_log("urdlur"))[-1])
    assert (solved.cause, solved.numbers) == (IceCause.SOLVED, (6, 16))
    jimmy = get_game("jimmy").make_engine(get_game("jimmy").load("seed-1"))
    escaped = jimmy.outcome(jimmy.replay(jimmy.parse_log("ULL"))[-1])
    assert (escaped.cause, escaped.numbers) == (JimmyCause.ESCAPED, (3,))
    caught = get_game("jimmy").make_engine(get_game("jimmy").load("seed-5"))
    assert caught.outcome(caught.initial_state()).cause in (JimmyCause.CAUGHT, JimmyCause.STUCK)


def test_a_long_reply_is_quoted_cut_with_its_length() -> None:
    reply = "LEFT" * 100
    text = describe(Failure(Fault.BAD_OUTPUT, reply, "not one of LEFT RIGHT UP DOWN").outcome(0, 1))
    assert "(400 characters)" in text and text.count("LEFT") < 30
    assert "characters" not in describe(Failure(Fault.BAD_OUTPUT, "BANANA", "no").outcome(0, 1))
