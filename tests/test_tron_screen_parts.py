"""The plain parts of the Tron screen, without Textual: the words at a round's end and
around the arena, who steers with which keys, the players' thinking time and the slow
program warning, the live hint, the next round of bots and the setup flow; and the setup
a screen starts from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from tui_grid.core.conductor import AUTO_NEXT_SECONDS
from tui_grid.core.control import SearchControl
from tui_grid.core.errors import UsageError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.match import MatchScore, RoundResult
from tui_grid.core.outcome import Outcome, Result
from tui_grid.core.players import participant_names
from tui_grid.core.table import Hint
from tui_grid.games.tron import pace, panel_text, participants, round_text
from tui_grid.games.tron.definition import GAME
from tui_grid.games.tron.board import standard_board
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.live_hint import LiveHint, hint_for, think_seconds
from tui_grid.games.tron.rules import TronState
from tui_grid.games.tron.setup_flow import SetupFlow
from tui_grid.games.registry import LoadedBoard

MARK = ("◆ ", "hint")


def scored(*winners: int | None, names: tuple[str, ...] = ("ann", "bob")) -> MatchScore:
    """A score of rounds won by `winners` (None: drawn), seats swapped each round."""
    rounds = [RoundResult(index, (index % 2, 1 - index % 2), winner, Outcome(Result.DRAW), 10)
              for index, winner in enumerate(winners)]
    return MatchScore(names, rounds)


# --- round_text -----------------------------------------------------------------------------
def test_the_score_names_wins_and_draws_only_when_there_are_some() -> None:
    assert round_text.score_line(scored(0, 1, 0)) == "ann 2 · bob 1"
    assert round_text.score_line(scored(0, None)) == "ann 1 · bob 0 · 1 drawn"


def test_a_round_verdict_says_the_round_and_a_draw() -> None:
    assert round_text.round_verdict(2, "red crashed", False) == "Round 2: red crashed."
    assert round_text.round_verdict(1, "both crashed", True) == "Round 1: both crashed. A draw."


def test_what_comes_next_after_a_round() -> None:
    kwargs: dict[str, Any] = {"match_verdict": None, "steerable": True, "humans": True}
    assert round_text.what_next("ann 1 · bob 0", 2, **kwargs) == "Score: ann 1 · bob 0. enter: round 2 (seats swap)."
    assert round_text.what_next("s", 3, **{**kwargs, "humans": False}) == (
        f"Score: s. Round 3 in {AUTO_NEXT_SECONDS:g} s (enter now, space holds).")
    assert round_text.what_next("s", 2, **{**kwargs, "steerable": False}) == "Score: s."
    assert round_text.what_next("s", 4, **{**kwargs, "match_verdict": "Match over: ann wins."}) == (
        "Match over: ann wins. n new match · esc back.")
    assert round_text.what_next("s", 4, match_verdict="Match over: ann wins.", steerable=False, humans=True) == "Match over: ann wins."


def test_a_round_end_is_its_verdict_and_what_next() -> None:
    verdict, then = round_text.round_end(scored(0, None), "both crashed", match_verdict=None, steerable=True, humans=True)
    assert verdict == "Round 2: both crashed. A draw."
    assert then == "Score: ann 1 · bob 0 · 1 drawn. enter: round 3 (seats swap)."


def test_a_steering_key_after_the_round_says_how_the_next_comes() -> None:
    assert round_text.after_round(False, False, "s") == "The round is over: the server starts the next one."
    assert round_text.after_round(True, True, "ann 2 · bob 1") == "The match is over: ann 2 · bob 1. n: new match."
    assert round_text.after_round(True, False, "s") == "The round is over: enter plays the next one."


def test_the_verdict_stays_first_on_the_message_line() -> None:
    verdict = "Round 1: red crashed."
    assert round_text.under_verdict(verdict, "Zoom: cells.") == f"{verdict}\nZoom: cells."
    assert round_text.under_verdict(verdict, "") == verdict
    assert round_text.under_verdict(verdict, f"{verdict}\nScore: s.") == f"{verdict}\nScore: s."


# --- panel_text -----------------------------------------------------------------------------
def test_the_title_names_the_drivers_by_colour_and_a_map_of_its_own() -> None:
    assert panel_text.title("standard", "", ("ann", "bob"), (1, 0)) == "Tron — standard  ·  R bob  vs  G ann"
    assert panel_text.title("standard", "standard", ("ann", "bob"), (0, 1)) == "Tron — standard  ·  R ann  vs  G bob"
    long = "x" * 50
    title = panel_text.title(long, "15x15-12#7", ("ann", "bob"), (0, 1))
    assert long not in title and title.endswith("R ann  vs  G bob  ·  15x15-12#7")


def test_the_legend_gives_each_human_their_keys() -> None:
    legend = panel_text.legend(("ann", "bob"), (1, 0), [0, 1], True)
    assert legend.splitlines()[0] == "R red: bob (WASD)   G green: ann (arrows)"
    assert "space pause" in legend
    lone = panel_text.legend(("you", "easy bot"), (0, 1), [0], False)
    assert lone == "R red: you (arrows/WASD)   G green: easy bot\n░ red  ▒ green  █ wall  X crash"


def test_the_status_counts_the_round_on_or_the_last_one_over() -> None:
    assert panel_text.status(0, False, 3, 5, "ann 0 · bob 0", False) == "round 1/3 · tick 5 · ann 0 · bob 0"
    assert panel_text.status(1, True, 3, 40, "s", True) == "round 1/3 · tick 40 · s · PAUSED"
    assert panel_text.status(3, True, 3, 9, "s", False) == "round 3/3 · tick 9 · s"
    assert panel_text.status(0, True, 3, 0, "s", False) == "round 1/3 · tick 0 · s"


# --- participants ---------------------------------------------------------------------------
def test_a_short_program_goes_by_its_command_a_long_one_by_its_file() -> None:
    players = ["cmd:python3 bot.py", "oneshot:python3 /a/very/long/path/to/bot_program.py"]
    assert participants.shown_names(GAME, players, participant_names(GAME, players)) == ["python3 bot.py", "bot_program.py"]
    assert participants.shown_names(GAME, ["human", "easy"], ["you", "easy bot"]) == ["you", "easy bot"]


def test_two_seats_of_one_command_are_told_apart() -> None:
    players = ["cmd:python3 bot.py"] * 2
    assert participants.shown_names(GAME, players, participant_names(GAME, players)) == ["python3 bot.py (1)", "python3 bot.py (2)"]


def test_keysets_belong_to_participants() -> None:
    assert [participants.keyset_driver(keyset, [0, 1]) for keyset in (0, 1)] == [0, 1]
    assert [participants.keyset_driver(keyset, [1]) for keyset in (0, 1)] == [1, 1]  # a lone human: either set
    assert participants.serves(None, [1]) and participants.serves(0, [1]) and participants.serves(1, [1])
    assert participants.serves(1, [0, 1]) and participants.serves(1, [1, 3]) and not participants.serves(2, [1, 3])
    assert [participants.keyset_driver(keyset, [1, 3]) for keyset in (0, 1)] == [1, 3]  # an arena's two humans
    assert [participants.keys_label(p, [1, 3]) for p in (0, 1, 3)] == ["", " (arrows)", " (WASD)"]
    assert not participants.serves(None, [])
    assert [participants.keys_label(p, [0, 1]) for p in (0, 1)] == [" (arrows)", " (WASD)"]
    assert participants.keys_label(0, [1]) == "" and participants.keys_label(1, [1]) == " (arrows/WASD)"


def test_a_keyset_rides_while_the_cycle_it_steers_does() -> None:
    seating, out = (3, 1, 0, 2), {1}  # participant 0 in seat 2, participant 3 in seat 0; seat 1 is out
    riding = lambda seat: seat not in out  # noqa: E731
    assert [participants.keyset_rides(keyset, [0, 3], seating, riding) for keyset in (0, 1)] == [True, True]
    assert [participants.keyset_rides(keyset, [1, 3], seating, riding) for keyset in (0, 1)] == [False, True]
    assert [participants.keyset_rides(keyset, [1], seating, riding) for keyset in (0, 1)] == [False, False]  # a lone human's both


def test_each_keyset_steers_all_four_ways() -> None:
    for keys in (participants.ARROW_KEYS, participants.WASD_KEYS):
        assert {Direction.from_letter(letter) for _, letter in keys} == set(Direction)


# --- pace -------------------------------------------------------------------------------------
def test_a_bot_thinks_within_most_of_a_tick() -> None:
    assert pace.bot_budget_ms(1000, 0.25) == 150.0
    assert pace.bot_budget_ms(100, 0.25) == 100.0
    assert pace.bot_budget_ms(1000, 0.01) == 10.0


def test_a_program_has_a_fixed_deadline_a_bot_its_budget_and_slack() -> None:
    assert pace.agent_timeout(GAME, ["human", "cmd:python3 bot.py"], 0.25, 150.0) == pace.PROGRAM_TIMEOUT
    assert pace.agent_timeout(GAME, ["human", "easy"], 0.25, 150.0) == pytest.approx(pace.BOT_SLACK + 0.15)
    assert pace.agent_timeout(GAME, ["human", "easy"], 3.0, 150.0) == 3.0


def test_a_slow_one_shot_program_is_told_once() -> None:
    warning = pace.SlowProgramWarning(GAME)
    oneshot = ["human", "oneshot:python3 bot.py"]
    assert warning.check(0.3, 0.25, oneshot) is None  # within 1.5 ticks
    assert warning.check(0.3, 0.25, ["human", "cmd:python3 bot.py"]) is None  # one run per round: not the cause
    said = warning.check(0.5, 0.25, oneshot)
    assert said is not None and said.startswith("A move took 0.5 s against a 0.25 s tick") and "one run per round" in said
    assert warning.check(0.9, 0.25, oneshot) is None  # once a match
    warning.said = False
    assert warning.check(0.9, 0.25, oneshot) is not None


# --- live_hint ----------------------------------------------------------------------------------
@dataclass
class HintScreen:
    """A screen as the live hint sees it: its tasks run at once."""

    state: TronState
    humans: tuple[bool, bool] = (True, False)
    over: bool = False
    people_ride: bool = True
    hint: Hint | None = None
    planned: list[int] = field(default_factory=list)
    tasks: list[tuple[str, bool]] = field(default_factory=list)
    later: list[Callable[[], None]] = field(default_factory=list)

    @property
    def session(self) -> Any:
        agents = [SimpleNamespace(human=human) for human in self.humans]
        return SimpleNamespace(over=self.over, agents=agents, state=self.state, people_act=lambda: self.people_ride)

    @property
    def table(self) -> Any:
        def plan(state: TronState, control: SearchControl, seat: int) -> Any:
            assert control.seconds == think_seconds(self.tick_seconds())
            self.planned.append(seat)
            return SimpleNamespace(actions=[Direction.UP if seat == 0 else Direction.LEFT])

        return SimpleNamespace(plan=plan)

    def tick_seconds(self) -> float:
        return 0.4

    def run_in_worker(self, what: str, task: Callable[[Any], Any], done: Callable[[Any], None], *, quiet: bool = False) -> None:
        self.tasks.append((what, quiet))
        result = task(SearchControl())
        self.later.append(lambda: done(result))


def test_the_hint_thinks_a_quarter_tick_within_bounds() -> None:
    assert think_seconds(0.4) == pytest.approx(0.12)
    assert think_seconds(0.01) == pytest.approx(0.015)
    assert think_seconds(3.0) == pytest.approx(0.15)


def test_a_hint_marks_where_each_head_would_drive() -> None:
    state = TronEngine().initial_state()
    hint = hint_for(state, {0: Direction.UP, 1: Direction.LEFT}, MARK)
    assert hint.marks == {Pos(6, 1): MARK, Pos(7, 12): MARK}
    assert hint.message == "Hint: the hard bot would drive red UP, green LEFT."


def test_the_live_hint_plans_for_the_human_seats_while_on() -> None:
    screen = HintScreen(TronEngine().initial_state())
    live = LiveHint(screen, MARK)
    live.request()
    assert screen.tasks == []  # off
    assert live.toggle().startswith("Hint on: ◆ marks where the hard bot would drive you")
    live.request()
    assert screen.tasks == [("Hint", True)] and screen.planned == [0]
    screen.later.pop()()
    assert screen.hint is not None and screen.hint.marks == {Pos(6, 1): MARK}
    assert live.toggle() == "Hint off." and screen.hint is None


def test_the_live_hint_turned_on_while_no_person_rides_says_it_marks_from_the_next_round() -> None:
    screen = HintScreen(TronEngine().initial_state(), people_ride=False)
    assert LiveHint(screen, MARK).toggle().startswith("Hint on from the next round: no person rides in this one.")


def test_the_live_hint_drops_an_answer_the_round_has_left() -> None:
    screen = HintScreen(TronEngine().initial_state())
    live = LiveHint(screen, MARK)
    live.toggle()
    live.request()
    screen.state = TronEngine().initial_state()  # a tick later
    screen.later.pop()()
    assert screen.hint is None


def test_the_live_hint_asks_nothing_between_rounds_or_without_humans() -> None:
    screen = HintScreen(TronEngine().initial_state(), over=True)
    live = LiveHint(screen, MARK)
    live.toggle()
    live.request()
    screen.over, screen.humans = False, (False, False)
    live.request()
    assert screen.tasks == []


# --- setup_flow --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """The fields of a Tron setup the flow reads."""

    board: str = "this"
    size: str = "12x12"
    walls: str = "10"
    players: tuple[str, ...] = ("human", "easy")


OPENED = LoadedBoard(board=standard_board(), name="opened", title="the board opened")


def test_the_dialog_first_then_cancel_leaves_but_not_once_a_match_was_set_up() -> None:
    flow = SetupFlow(GAME, OPENED, Setup(), asks=True)  # type: ignore[arg-type]
    assert flow.open and not flow.started
    assert flow.cancelled() and not flow.open
    assert flow.choose(Setup()) is OPENED  # type: ignore[arg-type]
    flow.begun()
    flow.opening(paused=True)
    assert flow.open and flow.was_paused
    assert not flow.cancelled() and not flow.open


def test_given_players_start_at_once_and_cancel_returns_to_the_match() -> None:
    flow = SetupFlow(GAME, OPENED, Setup(), asks=False)  # type: ignore[arg-type]
    assert not flow.open and flow.started
    flow.opening(paused=False)
    assert not flow.cancelled() and not flow.was_paused


def test_a_random_map_is_made_to_the_setup_and_each_round_when_asked() -> None:
    flow = SetupFlow(GAME, OPENED, Setup(), asks=False)  # type: ignore[arg-type]
    made = flow.choose(Setup(board="new"))  # type: ignore[arg-type]
    assert made is not OPENED and (made.board.width, made.board.height) == (12, 12)
    assert flow.round_board(1, made) is made  # "new": one map for the match
    flow.choose(Setup(board="each", size="14x14"))  # type: ignore[arg-type]
    assert flow.round_board(0, made) is made
    assert (flow.round_board(1, made).board.width) == 14


def test_more_than_two_players_ride_their_arena_and_two_opened_on_an_arena_the_standard_board() -> None:
    flow = SetupFlow(GAME, OPENED, Setup(), asks=False)  # type: ignore[arg-type]
    arena = flow.choose(Setup(board="each", players=("human",) + ("easy",) * 5))  # type: ignore[arg-type]
    assert arena.name == "arena6" and len(arena.board.heads) == 6
    assert flow.round_board(1, arena) is arena  # an arena keeps its board: "each" is for a duel
    on_arena = SetupFlow(GAME, arena, Setup(), asks=False)  # type: ignore[arg-type]
    assert on_arena.choose(Setup()).name == "standard"  # type: ignore[arg-type]


def test_a_setup_no_map_can_be_made_to_is_refused_and_closes_the_dialog() -> None:
    flow = SetupFlow(GAME, OPENED, Setup(), asks=True)  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        flow.choose(Setup(board="new", size="9x9"))  # type: ignore[arg-type]
    assert not flow.open and not flow.started


def test_a_screen_starts_from_the_given_the_remembered_or_the_default_setup() -> None:
    from tui_grid.games.tron.setup_dialog import TronSetup, starting_setup  # the dialog's module: it loads Textual

    assert starting_setup(7, ["human", "hard"]) == TronSetup(players=("human", "hard"), speed=7)
    assert starting_setup(7, None, 5) == TronSetup(rounds=5, speed=7)  # nothing remembered yet
    given = TronSetup(board="each", rounds=9)
    assert starting_setup(2, ["easy", "easy"], None, given) == TronSetup(players=("easy", "easy"), board="each", rounds=9)


def test_a_remembered_setup_plays_the_board_opened() -> None:
    import json

    from tui_grid.games.tron.setup_dialog import setup_path, starting_setup

    path = setup_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"players": ["hard", "human"], "board": "each", "rounds": 4}))
    setup = starting_setup(6)
    assert (setup.players, setup.board, setup.rounds, setup.speed) == (("hard", "human"), "this", 4, 6)
    assert starting_setup(6, ["human", "easy"]).board == "this" and starting_setup(6, ["human", "easy"]).rounds == 3


def test_the_countdown_names_each_persons_colour() -> None:
    from tui_grid.games.tron.panel_text import who_drives

    assert who_drives([0], [1, 0]) == "You drive green (G)."
    assert who_drives([1, 2], [2, 0, 1]) == "The arrows drive blue (B), W A S D red (R)."
    assert who_drives([], [0, 1]) == ""
