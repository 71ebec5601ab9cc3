"""The driver: the one game loop, with an injected clock and sleep so no test waits on
real time for a deadline or a beat (bounded polling only where a thread must answer)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Sequence

from tests.test_session import FakeClock, Race, RaceEngine
from tui_grid.core.agents import Agent, AgentError, Ask, FunctionAgent, HumanAgent
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Engine, Joint, Outcome, PLAYING, Result, Step
from tui_grid.core.outcome import Rule
from tui_grid.core.session import Session


class FakeSleep:
    """Sleeping moves the fake clock; `stop_after` sets an event after so many sleeps."""

    def __init__(self, clock: FakeClock, stop: threading.Event | None = None, stop_after: int | None = None) -> None:
        self.clock = clock
        self.stop = stop
        self.stop_after = stop_after
        self.calls = 0

    def __call__(self, seconds: float) -> None:
        self.calls += 1
        self.clock.now += seconds
        if self.stop is not None and self.stop_after is not None and self.calls >= self.stop_after:
            self.stop.set()


class MovingClock(FakeClock):
    """A clock that moves a little each time it is read, and never by itself."""

    def __call__(self) -> float:
        self.now += 0.05
        return self.now


@dataclass(frozen=True)
class Count:
    value: int = 0


class CountEngine(Engine[Count, int]):
    """A turn-based one-seat puzzle: add 1 or 2 until 5 exactly; more is refused."""

    allows_undo = True

    def initial_state(self) -> Count:
        return Count()

    def legal_actions(self, state: Count, seat: int) -> Sequence[int]:
        return tuple(n for n in (1, 2) if state.value + n <= 5)

    def step(self, state: Count, actions: Joint) -> Step[Count]:
        from tui_grid.core.engine import IllegalAction

        n = actions[0]
        if state.value + n > 5:
            raise IllegalAction(f"{state.value} + {n} is past 5")
        return Step(Count(state.value + n))

    def outcome(self, state: Count) -> Outcome:
        return Outcome(Result.WON, Rule.WON) if state.value == 5 else PLAYING

    def encode_action(self, action: int) -> str:
        return str(action)

    def decode_action(self, text: str) -> int:
        return int(text)


def runner(n: int) -> Agent[Race, int]:
    return FunctionAgent(lambda ask: n, f"runs {n}")


class LateAgent(Agent[Race, int]):
    """Answers, but only after moving the clock past the deadline (a slow bot or program)."""

    def __init__(self, clock: FakeClock, program: bool) -> None:
        super().__init__("late program" if program else "late bot")
        self.clock = clock
        self.forfeits_when_late = program

    def act(self, ask: Ask[Race, int]) -> int:
        assert ask.deadline is not None
        self.clock.now = ask.deadline + 1.0
        return 2


class HungAgent(Agent[Race, int]):
    """Never answers until released or cancelled (a program stuck in a loop)."""

    forfeits_when_late = True

    def __init__(self) -> None:
        super().__init__("hung program")
        self.cancelled = 0

    def act(self, ask: Ask[Race, int]) -> int:
        assert ask.control.cancel is not None
        ask.control.cancel.wait(30)
        self.cancelled += 1
        raise AgentError("was cancelled", forfeit=False)


# --- turn-based and ticking -------------------------------------------------------------------
def test_turn_based_a_bot_plays_one_move_per_step() -> None:
    session = Session(CountEngine(), [FunctionAgent(lambda ask: 2, "twos")])
    driver = Driver(session)
    driver.step()
    driver.step()
    assert session.state.value == 4 and len(session.log) == 2 and session.can_undo
    driver.step()  # 4 + 2 is refused: the loop stops and says why
    assert session.state.value == 4 and driver.refused and "past 5" in driver.refused


def test_turn_based_a_human_is_never_asked() -> None:
    session = Session(CountEngine(), [HumanAgent()])
    driver = Driver(session)
    assert driver.ask().answers == {} and driver.step() is None and session.state.value == 0
    assert session.submit(0, 2) is None and session.state.value == 2


def test_ticking_keys_queue_and_a_seat_without_one_gets_the_default() -> None:
    session = Session(RaceEngine(), [HumanAgent(), runner(2)])
    driver = Driver(session, timeout=1.0)
    session.submit(0, 0)
    driver.step()
    assert session.state.pos == (0, 2)
    driver.step()  # no key queued: the default (1)
    assert session.state.pos == (1, 4)
    Driver(session, timeout=1.0, step_seconds=0.0).run()
    assert session.over and session.outcome.winner == 1


# --- pace ---------------------------------------------------------------------------------------
def test_run_steps_once_per_beat_and_speed_divides_it() -> None:
    clock = FakeClock()
    session = Session(RaceEngine(), [runner(0), runner(0)], clock=clock)
    times: list[float] = []
    session.subscribe(lambda s, change: times.append(clock.now) if change.kind == "step" else None)
    driver = Driver(session, step_seconds=0.5, clock=clock, sleep=FakeSleep(clock))
    driver.run(max_steps=3)
    assert [round(t, 6) for t in times] == [0.5, 1.0, 1.5]
    driver.speed = 2.0
    driver.run(max_steps=2)  # the same session: the beat goes on, twice as fast
    assert [round(t - times[2], 6) for t in times[3:]] == [0.25, 0.5]


def test_paused_plays_nothing_and_single_step_plays_exactly_one() -> None:
    clock = FakeClock()
    stop = threading.Event()
    session = Session(RaceEngine(), [runner(1), runner(1)], clock=clock)
    driver = Driver(session, step_seconds=0.1, clock=clock, sleep=FakeSleep(clock, stop, stop_after=200))
    driver.pause(True)
    driver.run(stop)  # 200 polls while paused: the fake clock ran on, the game did not
    assert session.log == [] and clock.now > 1.0
    stop.clear()
    driver.sleep = FakeSleep(clock)
    driver.single_step()
    driver.run(stop, max_steps=1)
    assert len(session.log) == 1 and driver.paused
    assert driver.pause() is False  # toggles


def test_a_thread_runs_until_stopped_and_leaves_no_thread() -> None:
    session = Session(RaceEngine(), [runner(1), runner(1)])
    driver = Driver(session, step_seconds=0.0)
    driver.start(forever=False)
    for _ in range(500):
        if session.over:
            break
        threading.Event().wait(0.01)
    assert session.over
    driver.stop()
    assert not driver.running


# --- deadlines --------------------------------------------------------------------------------
def test_a_late_builtin_bot_gets_the_default_action() -> None:
    clock = FakeClock()
    session = Session(RaceEngine(), [HumanAgent(), LateAgent(clock, program=False)], clock=clock)
    session.submit(0, 2)  # the key queue answers on the driver's thread, before the bot moves the clock
    messages: list[str] = []
    session.subscribe(lambda s, change: messages.append(change.message))
    Driver(session, timeout=0.5).step()
    assert not session.over and session.state.pos == (2, 1)  # the late seat moved by its default (1), not its 2
    assert any("late bot answered '2' after 1.5 s, past its 0.5 s" in m for m in messages)  # late, not silent


def test_a_late_program_forfeits_every_time() -> None:
    for _ in range(50):
        clock = FakeClock()
        session = Session(RaceEngine(), [LateAgent(clock, program=True), runner(2)], clock=clock)
        Driver(session, timeout=0.5).step()
        assert session.over and session.outcome.winner == 1 and session.state.forfeited == 0
        assert session.outcome.detail == "2" and session.outcome.numbers == (1.5, 0.5)  # its answer, named as late


def test_a_hung_program_forfeits_every_time_and_its_ask_is_cancelled() -> None:
    for _ in range(50):
        clock = MovingClock()
        hung = HungAgent()
        session = Session(RaceEngine(), [hung, runner(2)], clock=clock)
        seen: list[str] = []
        session.subscribe(lambda s, change: seen.append(change.message) if change.kind == "forfeit" else None)
        driver = Driver(session, timeout=0.2)
        driver.step()
        assert session.over and session.outcome.winner == 1
        assert seen and "red (hung program) forfeits: gave no answer within 0.2 s" in seen[0]
        driver.stop()
    for _ in range(100):
        if hung.cancelled:
            break
        threading.Event().wait(0.01)
    assert hung.cancelled == 1


def test_crashed_and_garbage_programs_forfeit_with_their_reason_every_time() -> None:
    def crashed(ask: Ask[Race, int]) -> int:
        raise AgentError("bot.py crashed with code 3 without answering")

    def garbage(ask: Ask[Race, int]) -> int:
        raise AgentError("bot.py printed 'hello', not a move")

    for _ in range(50):
        for fails, reason in ((crashed, "crashed with code 3"), (garbage, "printed 'hello'")):
            session = Session(RaceEngine(), [FunctionAgent(fails, "bot"), runner(2)])
            Driver(session, timeout=1.0).step()
            assert session.over and session.outcome.winner == 1, reason


def test_a_raising_agent_is_reported_and_the_game_goes_on() -> None:
    def broken(ask: Ask[Race, int]) -> int:
        raise RuntimeError("boom")

    session = Session(RaceEngine(), [FunctionAgent(broken, "broken"), runner(2)])
    messages: list[str] = []
    session.subscribe(lambda s, change: messages.append(change.message))
    Driver(session, timeout=1.0).step()
    assert not session.over and session.state.pos == (1, 2)
    assert any("broken failed: RuntimeError: boom" in m for m in messages)


def test_no_deadline_waits_for_the_answer() -> None:
    release = threading.Event()

    def thinks(ask: Ask[Race, int]) -> int:
        release.wait(10)
        return 2

    session = Session(RaceEngine(), [FunctionAgent(thinks, "thinker"), runner(0)])
    threading.Timer(0.05, release.set).start()
    Driver(session, timeout=None).step()
    assert session.state.pos == (2, 0)
