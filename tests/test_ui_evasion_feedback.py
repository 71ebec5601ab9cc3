"""Evasion's match screen says what happens: a concede's verdict, a pause, enter during a
round, a prey's hint to stay, and a status line that fits 80 columns."""

from __future__ import annotations

import pytest

from tests.conftest import make_app, status, until, wait_idle
from tui_grid.core.errors import UsageError
from tui_grid.games.evasion import screen as evasion_screen
from tui_grid.games.evasion.definition import GAME
from tui_grid.games.evasion.engine import HUNTER, PREY, PreyAction


def message(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#message").content)


async def test_conceding_a_running_round_says_who_the_score_and_what_next():
    """The verdict stays on the message line when the clock the question held runs again,
    and the status line does not say PAUSED."""
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await wait_idle(pilot)
        assert not screen.paused  # running, as a player finds it
        await pilot.press("g", "y")
        await wait_idle(pilot)
        assert screen.session.over and not screen.paused
        assert "PAUSED" not in str(screen.query_one("#status").content)
        text = message(app)
        assert "Round 1: the hunter forfeits: conceded by you at step" in text
        assert "So far: you gave up hunting at step" in text and "enter plays round 2" in text


async def test_conceding_loses_the_match_summary_too():
    """A hunter who gives up at step 10 against a prey that gives up at step 20 loses the
    match: the summary agrees with the score rather than comparing the chases' lengths."""
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await wait_idle(pilot)
        await pilot.press("space")
        await wait_idle(pilot)
        screen.session.state = screen.engine.make_state(tick=10, hunter=(0, 0), prey=(200, 200))
        await pilot.press("g", "y")
        await wait_idle(pilot)
        await pilot.press("enter")  # round 2: you flee from the bot
        await wait_idle(pilot)
        assert screen.is_human(PREY)
        screen.session.state = screen.engine.make_state(tick=20, hunter=(0, 0), prey=(200, 200))
        await pilot.press("g", "y")
        await wait_idle(pilot)
        text = message(app)
        assert screen.match.finished and "Match over: builtin bot wins. " in text, text
        assert "you gave up hunting at step 10" in text and "builtin bot caught in 20 (the prey gave up)" in text


async def test_a_single_step_says_paused_until_space_resumes(monkeypatch):
    monkeypatch.setattr(evasion_screen, "NOTE_SECONDS", 1e6)  # the note outlives any slow machine
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.pause()  # running (wait_idle would wait out its bound: the clock keeps it busy)
        await pilot.press("full_stop")
        await wait_idle(pilot)  # the step arrived (it clears messages)
        assert screen.paused and "PAUSED" in status(app)
        assert "Paused: . plays one tick, space resumes." in message(app)
        await pilot.press("space")
        await pilot.pause()
        assert not screen.paused and "PAUSED" not in status(app) and "Paused" not in message(app)


async def test_enter_during_a_round_says_it_is_still_on(monkeypatch):
    """Enter during a round says the round is still on, and the message outlasts the next ticks."""
    monkeypatch.setattr(evasion_screen, "NOTE_SECONDS", 1e6)
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.pause()
        await pilot.press("enter")
        tick = screen.shown.tick
        assert await until(pilot, lambda: screen.shown.tick > tick + 1)  # steps went on meanwhile
        assert "The round is still on." in message(app)
        assert screen.match.round_index == 0


def test_a_prey_told_to_stay_is_told_in_words():
    engine = GAME.make_engine(GAME.load("standard"))
    state = engine.initial_state()
    assert evasion_screen.hint_text(engine, state, PREY, PreyAction((0, 0))) == "prey: stay where you are (d)"
    assert evasion_screen.hint_text(engine, state, PREY, PreyAction((1, 0))) == "prey: go right (f)"


def test_the_new_board_field_and_its_error_use_one_name():
    from tui_grid.games.evasion.definition import N_LABEL

    assert GAME.options[0].label == N_LABEL
    with pytest.raises(UsageError, match=r"N \(wall delay\) must be between 1 and 50"):
        GAME.game_id_from_options({"n": "99", "m": "5"}, 1)


@pytest.mark.parametrize("width", [80, 160])
async def test_the_status_line_fits_and_keeps_the_most_useful_first(width):
    """At 80 columns the line drops its least useful parts to fit; at 160 nothing is dropped."""
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(width, 24)) as pilot:
        screen = app.screen
        await wait_idle(pilot)
        await pilot.press("full_stop")  # paused: the longest line
        await wait_idle(pilot)
        await pilot.press("z", "z")  # full size: the pointer to the prey comes first
        await pilot.pause()
        line = status(app)
        assert len(line) <= width - 2, line  # the padding of the status bar
        assert line.startswith("P ") and "off screen" in line and "PAUSED" in line and "step " in line
        assert screen.is_human(HUNTER) and "next wall" in line
        if width == 160:
            for part in ("walls 0/5", "dist ", "N=10", "speed 1"):
                assert part in line, line


async def test_a_long_verdict_is_shown_whole_at_80x24():
    """After two concedes the match verdict takes three lines or more, and the message
    line grows to show all of them, '(the prey gave up).' included."""
    from rich.text import Text

    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("space", "g", "y")
        await wait_idle(pilot)
        await pilot.press("enter")
        await wait_idle(pilot)
        await pilot.press("g", "y")
        await wait_idle(pilot)
        widget = screen.query_one("#message")
        needed = len(Text(message(app)).wrap(app.console, widget.content_size.width))
        assert needed >= 3 and widget.content_size.height >= needed, (needed, widget.content_size)
