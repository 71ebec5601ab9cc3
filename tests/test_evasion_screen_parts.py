"""The Evasion screen's parts without Textual: the status line and its fitting, the wall
selection, the transient note, the role keys and the words said."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tui_grid.core.engine import Event
from tui_grid.core.outcome import Failure, Fault
from tui_grid.games.evasion.definition import GAME
from tui_grid.games.evasion.engine import HUNTER, PREY, EvasionEngine, HunterAction, PreyAction, State
from tui_grid.games.evasion.role_keys import PREY_KEY_OF, PREY_KEYS, RoleKeys
from tui_grid.games.evasion.rules import Wall
from tui_grid.games.evasion.status_line import UNLIMITED, fit, pointer_text, status_line, status_room
from tui_grid.games.evasion.transient_note import TransientNote
from tui_grid.games.evasion.wall_selection import WallSelection
from tui_grid.games.evasion.wording import event_note, hint_text, round_report

H_WALL = Wall(0, 95, 299, 95)
V_WALL = Wall(40, 0, 40, 299)


@pytest.fixture
def engine() -> EvasionEngine:
    return GAME.make_engine(GAME.load("standard"))


def line(state: State, room: int = UNLIMITED, **facts: Any) -> str:
    given: dict[str, Any] = {"pointer": "", "paused": False, "wall_wait": 0, "max_walls": 5, "n": 10, "outcome": ""}
    return status_line(state, room=room, **{**given, **facts})


# --- the status line ----------------------------------------------------------------------------
def test_fit_keeps_everything_that_fits_in_order() -> None:
    assert fit([("a", 1), ("bb", 9), ("c", 5)], 100) == "a · bb · c"


def test_fit_drops_the_lowest_rank_and_of_equals_the_last() -> None:
    parts = [("aaaa", 2), ("bbbb", 9), ("cccc", 2), ("dddd", 5)]
    assert fit(parts, 24) == "aaaa · bbbb · dddd"  # the last of the two rank 2s goes first
    assert fit(parts, 17) == "bbbb · dddd"
    assert fit(parts, 1) == "bbbb"  # one part stays whatever the room


def test_the_status_line_says_every_fact_when_there_is_room(engine: EvasionEngine) -> None:
    state = engine.make_state(tick=12, hunter=(0, 0), prey=(30, 40), walls=(H_WALL,))
    text = line(state, pointer="P ↘ 30,40 off screen", paused=True, wall_wait=3, outcome="over")
    assert text == "P ↘ 30,40 off screen · step 12 · PAUSED · next wall in 3 · walls 1/5 · dist 50 · N=10 · over"
    assert line(state) == "step 12 · next wall now · walls 1/5 · dist 50 · N=10"


def test_a_narrow_status_line_drops_the_least_useful_first(engine: EvasionEngine) -> None:
    state = engine.make_state(tick=12, hunter=(0, 0), prey=(30, 40))
    text = line(state, room=54, paused=True, outcome="the hunter caught the prey")
    assert text == "step 12 · PAUSED · next wall now · walls 0/5 · dist 50"
    assert line(state, room=53, paused=True) == "step 12 · PAUSED · next wall now · walls 0/5"


def test_the_status_room_leaves_the_padding_and_the_speed() -> None:
    assert status_room(80, 5) == 80 - 2 - len("  ·  speed 5")
    assert status_room(0, 5) == UNLIMITED  # no width yet: nothing is dropped


def test_the_pointer_names_the_other_player_its_direction_and_distance(engine: EvasionEngine) -> None:
    state = engine.make_state(hunter=(10, 20), prey=(130, 60))
    hidden = lambda x, y: False  # noqa: E731
    assert pointer_text(state, (10, 20), hidden) == "P ↘ 120,40 off screen"
    assert pointer_text(state, (130, 60), hidden) == "H ↖ 120,40 off screen"
    assert pointer_text(state, (10, 20), lambda x, y: (x, y) == (130, 60)) == ""
    straight = engine.make_state(hunter=(10, 20), prey=(10, 5))
    assert pointer_text(straight, (10, 20), hidden) == "P ↑ 0,15 off screen"


# --- the wall selection ---------------------------------------------------------------------------
def test_the_selection_cycles_through_the_walls_and_starts_at_the_first() -> None:
    selection = WallSelection()
    walls = (H_WALL, V_WALL)
    assert selection.current(walls) is None
    assert selection.select_next(walls, walls) == 0 and selection.current(walls) == H_WALL
    assert selection.select_next(walls, walls) == 1 and selection.current(walls) == V_WALL
    assert selection.select_next(walls, walls) == 0
    assert selection.select_next((), walls) is None and selection.current(walls) == H_WALL


def test_a_selected_wall_that_is_gone_is_unselected() -> None:
    selection = WallSelection()
    selection.select_next((H_WALL, V_WALL), ())
    assert selection.current((V_WALL,)) is None
    assert selection.current((H_WALL, V_WALL)) is None  # forgotten, not hidden
    selection.select_next((V_WALL,), ())
    selection.clear()
    assert selection.current((V_WALL,)) is None


# --- the transient note ------------------------------------------------------------------------------
def test_a_note_lasts_its_seconds_on_the_clock_given() -> None:
    now = [100.0]
    note = TransientNote(4.0, clock=lambda: now[0])
    assert note.current() == ""
    note.set("Refused your wall")
    now[0] = 103.9
    assert note.current() == "Refused your wall"
    now[0] = 104.0
    assert note.current() == ""
    note.set("again")
    note.clear()
    assert note.current() == ""


# --- the role keys -------------------------------------------------------------------------------------
@dataclass
class FakeSession:
    state: State
    over: bool = False
    submitted: list[tuple[int, Any]] = field(default_factory=list)
    forfeits: list[tuple[int, Failure]] = field(default_factory=list)

    def submit(self, seat: int, action: Any) -> None:
        self.submitted.append((seat, action))

    def forfeit(self, seat: int, failure: Failure) -> bool:
        self.forfeits.append((seat, failure))
        return True


@dataclass
class FakeMatch:
    finished: bool = False


@dataclass
class FakeDesk:
    """A screen's side of the role keys: what it was told, and the humans' seats."""

    session: FakeSession
    humans: tuple[int, ...] = (HUNTER,)
    match: FakeMatch = field(default_factory=FakeMatch)
    said: list[str] = field(default_factory=list)
    toasts: list[str] = field(default_factory=list)

    @property
    def shown(self) -> State:
        return self.session.state

    def is_human(self, seat: int) -> bool:
        return seat in self.humans

    def concede(self, seat: int, failure: Any) -> None:
        self.session.forfeit(seat, failure)

    def seat_name(self, seat: int) -> str:
        return "builtin bot"

    def say(self, message: str) -> None:
        self.said.append(message)

    def toast(self, message: str) -> None:
        self.toasts.append(message)


def role_keys(engine: EvasionEngine, humans: tuple[int, ...] = (HUNTER,), walls: tuple[Wall, ...] = ()) -> tuple[RoleKeys, FakeDesk]:
    desk = FakeDesk(FakeSession(engine.make_state(tick=7, walls=walls)), humans)
    return RoleKeys(desk, WallSelection()), desk  # type: ignore[arg-type]


def test_a_wall_key_asks_for_a_wall_at_the_next_step(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine)
    keys.build("h")
    keys.build("v")
    assert desk.session.submitted == [(HUNTER, HunterAction("h")), (HUNTER, HunterAction("v"))]
    assert desk.said == ["Horizontal wall requested for step 8.", "Vertical wall requested for step 8."]


def test_tab_selects_and_backspace_removes(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine, walls=(H_WALL, V_WALL))
    keys.remove_selected()
    assert desk.said[-1] == "Select a wall with tab first."
    keys.select_next()
    keys.select_next()
    assert desk.said[-1] == "Selected wall 2/2: 40 0 40 299. ⌫ removes it."
    keys.remove_selected()
    assert desk.session.submitted == [(HUNTER, HunterAction(None, (V_WALL,)))]
    assert desk.said[-1] == "Removing wall 40 0 40 299 at step 8." and keys.walls.current((H_WALL, V_WALL)) is None


def test_tab_without_walls_says_so(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine)
    keys.select_next()
    assert desk.said == ["No walls to select."]


def test_a_bot_role_keys_say_whose_keys_are_yours(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine, humans=(PREY,))
    keys.build("h")
    assert desk.session.submitted == []
    assert desk.said == ["The hunter is played by builtin bot this round: your keys are the prey's."]
    keys.flee(1, -1)
    assert desk.session.submitted == [(PREY, PreyAction((1, -1)))]


def test_after_the_round_a_role_key_only_toasts(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine)
    desk.session.over = True
    keys.build("h")
    desk.match.finished = True
    keys.flee(0, 0)
    assert desk.session.submitted == [] and desk.said == []
    assert desk.toasts == ["The round is over. enter plays the next one.", "The round is over. esc goes back."]


def test_a_concede_gives_up_the_human_hunters_seat_first(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine, humans=(HUNTER, PREY))
    assert keys.conceding_seat() == HUNTER
    keys.concede(HUNTER)
    assert desk.session.forfeits == [(HUNTER, Failure(Fault.CONCEDED))]
    desk.session.over = True
    keys.concede(HUNTER)  # the round ended meanwhile: nothing more
    assert len(desk.session.forfeits) == 1
    assert keys.conceding_seat() is None and desk.toasts == ["The round is over already."]


def test_without_a_human_there_is_nothing_to_concede(engine: EvasionEngine) -> None:
    keys, desk = role_keys(engine, humans=())
    assert keys.conceding_seat() is None
    assert desk.said == ["No human plays this round: nothing to concede."]


def test_every_prey_key_is_named_by_its_first_key() -> None:
    assert len(PREY_KEYS) == 9 and PREY_KEY_OF[(0, 0)] == "d" and PREY_KEY_OF[(1, 1)] == "v"


# --- the words said ------------------------------------------------------------------------------------
def test_a_caught_prey_is_reported_with_the_hunters_name(engine: EvasionEngine) -> None:
    state = engine.make_state(tick=50, caught_at=50)
    def report(steerable: bool) -> str:
        return round_report(state, seating=(1, 0), names=("you", "builtin bot"), index=0, outcome="caught", summary="1-0",
                            verdict=None, steerable=steerable)

    assert report(True) == "Builtin bot caught the prey at step 50. So far: 1-0. enter plays round 2: the roles swap."
    assert report(False) == "Builtin bot caught the prey at step 50. So far: 1-0. Round 2 swaps the roles."
    done = round_report(state, seating=(0, 1), names=("you", "bot"), index=1, outcome="", summary="", verdict="You win.", steerable=True)
    assert done == "You caught the prey at step 50. You win. esc goes back."


def test_a_conceded_round_names_who_gave_up(engine: EvasionEngine) -> None:
    state = engine.make_state(tick=9, forfeit=(PREY, Failure(Fault.CONCEDED)))
    text = round_report(state, seating=(1, 0), names=("you", "bot"), index=0, outcome="the prey forfeits: conceded",
                        summary="s", verdict=None, steerable=True)
    assert text.startswith("Round 1: the prey forfeits: conceded by you at step 9. So far: s.")
    other = round_report(engine.make_state(tick=9), seating=(0, 1), names=("a", "b"), index=0, outcome="the step limit",
                         summary="s", verdict=None, steerable=True)
    assert other.startswith("The step limit (step 9). So far: s.")


def test_wall_events_are_noted_for_the_right_reader() -> None:
    refused = Event("too soon", kind="refused", seat=HUNTER)
    built = Event("wall 0 95 299 95 built", kind="built", seat=HUNTER)
    assert event_note(refused, True, "bot") == "Refused your wall: too soon"
    assert event_note(refused, False, "bot") == "Refused bot's wall: too soon"
    assert event_note(built, True, "bot") == "Wall 0 95 299 95 built."
    assert event_note(built, False, "bot") == ""
    assert event_note(Event("caught", kind="caught"), True, "bot") == ""


def test_hints_name_the_keys(engine: EvasionEngine) -> None:
    state = engine.make_state(tick=0, walls=(H_WALL,))
    assert hint_text(engine, state, HUNTER, HunterAction("h", (0,))) == "hunter: remove wall 0 95 299 95 (tab, ⌫), build a horizontal wall now (j)"
    assert hint_text(engine, state, HUNTER, HunterAction("v")) == "hunter: build a vertical wall now (k)"
    assert hint_text(engine, state, HUNTER, HunterAction()).startswith("hunter: no wall yet (wall ")
    assert hint_text(engine, state, PREY, PreyAction((-1, 1))) == "prey: go down-left (x)"
    assert hint_text(engine, state, PREY, PreyAction((0, 0))) == "prey: stay where you are (d)"


def test_tab_on_a_wall_shown_but_gone_from_the_live_state_starts_afresh() -> None:
    selection = WallSelection()
    shown = (H_WALL, V_WALL)
    selection.select_next(shown, shown)  # H_WALL selected on the board shown
    assert selection.select_next((V_WALL,), shown) == 0  # the live state lost it: no crash
    assert selection.current((V_WALL,)) == V_WALL
