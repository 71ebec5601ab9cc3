"""How a failing program's forfeit is worded: a late answer named as late (the driver's
grace window), its stderr's last line quoted from its start with its length, and an
over-long output line quoted from its start. Real programs (`sh -c` with `sleep`, Python),
real time only where a program must be slow; work is bounded, elapsed time never asserted."""

from __future__ import annotations

import os
import shlex
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tests.test_session import FakeClock, Race, RaceEngine
from tui_grid.core import external
from tui_grid.core.agents import Agent, AgentError, Ask, FunctionAgent
from tui_grid.core.driver import GRACE_MAX_SECONDS, Driver, grace
from tui_grid.core.external import ExternalProgramAgent
from tui_grid.core.geometry import Direction
from tui_grid.core.outcome import ECHO_LIMIT, Failure, Fault, describe
from tui_grid.core.session import Session
from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer

PY = sys.executable


def sh(body: str) -> str:
    """A command line that runs `body` in sh."""
    return f"sh -c {shlex.quote(body)}"


def python(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(body))
    return f"{PY} {path}"


def program(command: str, mode: str = "persistent") -> ExternalProgramAgent:
    return ExternalProgramAgent(command, mode, encode_for_program, parse_program_answer)


def play_one_step(bot: ExternalProgramAgent, seconds: float) -> Session:
    """One step of a Tron game with `bot` in red's seat and a quick builtin in green's,
    under a driver whose deadline is `seconds`; every process is ended after."""
    session = Session(TronEngine(), [bot, FunctionAgent(lambda ask: Direction.UP, "quick")], undo=False)
    driver = Driver(session, timeout=seconds)
    try:
        driver.step()
    finally:
        driver.close()
        bot.close()
    return session


def gone(pid: int) -> bool:
    """The process has ended (bounded polling: closing it reaps it)."""
    for _ in range(250):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


# --- a late answer --------------------------------------------------------------------------
def test_the_grace_window_is_a_quarter_of_the_time_at_most_a_second() -> None:
    assert grace(2.0) == 0.5 and grace(0.4) == 0.1
    assert grace(10.0) == grace(60.0) == GRACE_MAX_SECONDS == 1.0


@pytest.mark.parametrize("mode", ["persistent", "oneshot"])
def test_an_answer_past_the_deadline_is_named_late_and_the_seat_still_loses(mode: str) -> None:
    # 3 s allowed, an answer 0.1 s past them: inside the 0.75 s grace window, with room
    # for starting the program under load.
    body = "read a; sleep 3.1; echo LEFT; sleep 30" if mode == "persistent" else "sleep 3.1; echo LEFT"
    bot = program(sh(body), mode)
    session = play_one_step(bot, 3.0)
    outcome = session.outcome
    assert session.over and outcome.winner == 1 and outcome.cause is Fault.LATE
    assert outcome.detail == "LEFT"  # as the program printed it, not the engine's log letter
    taken, allowed = outcome.numbers
    assert allowed == 3.0 and taken > allowed
    assert "red forfeits: answered 'LEFT' after 3." in outcome.reason and ", past its 3 s" in outcome.reason
    assert gone(bot.pids[0])


def test_an_answer_after_the_grace_window_is_no_answer() -> None:
    # 0.4 s allowed and 0.1 s of grace: the driver has judged long before the answer comes.
    bot = program(sh("read a; sleep 1.5; echo LEFT; sleep 30"))
    session = play_one_step(bot, 0.4)
    assert session.outcome.cause is Fault.NO_ANSWER and session.outcome.winner == 1
    assert "red forfeits: gave no answer within 0.4 s" in session.outcome.reason
    assert gone(bot.pids[0])


class Silent(Agent[Race, int]):
    """A program that never answers: it waits until its ask is cancelled."""

    forfeits_when_late = True

    def __init__(self) -> None:
        super().__init__("silent program")
        self.cancelled = threading.Event()

    def act(self, ask: Ask[Race, int]) -> int:
        assert ask.control.cancel is not None
        ask.control.cancel.wait(30)
        self.cancelled.set()
        raise AgentError("was cancelled", forfeit=False)


class Ticking(FakeClock):
    """A clock that moves 0.01 s each time it is read."""

    def __call__(self) -> float:
        self.now += 0.01
        return self.now


def test_the_grace_window_is_bounded_on_the_clock_and_the_ask_is_cancelled_after() -> None:
    clock = Ticking()
    silent = Silent()
    session = Session(RaceEngine(), [silent, FunctionAgent(lambda ask: 2, "quick")], clock=clock)
    driver = Driver(session, timeout=1.0)
    driver.step()
    assert session.over and session.outcome.cause is Fault.NO_ANSWER and session.outcome.winner == 1
    # Asked at about 0.0: waited out the second and its quarter, and hardly a read more.
    assert 1.25 <= driver.last_ask_seconds < 1.25 + 0.1
    assert silent.cancelled.wait(5)
    driver.close()


def test_a_late_builtin_bot_is_not_waited_for() -> None:
    clock = Ticking()
    slow = Silent()
    slow.forfeits_when_late = False  # a builtin bot: its seat gets the default action
    session = Session(RaceEngine(), [slow, FunctionAgent(lambda ask: 2, "quick")], clock=clock)
    driver = Driver(session, timeout=1.0)
    driver.step()
    assert not session.over and session.state.pos == (1, 2)
    assert driver.last_ask_seconds < 1.0 + 0.1  # no grace window: nobody forfeits
    assert slow.cancelled.wait(5)
    driver.close()


# --- stderr ---------------------------------------------------------------------------------
def crashed(tmp_path: Path, stderr_body: str) -> AgentError:
    """The error a program that writes to stderr and exits with code 1 ends its move with."""
    bot = program(python(tmp_path, f"import sys\n{stderr_body}\nsys.exit(1)\n"), "oneshot")
    with pytest.raises(AgentError) as info:
        bot.act(Ask(TronEngine(), TronEngine().initial_state(), 1, deadline=time.monotonic() + 60))
    bot.close()
    assert info.value.failure.fault is Fault.CRASHED
    return info.value


def test_the_stderr_line_is_quoted_from_its_start_with_its_length(tmp_path: Path) -> None:
    error = crashed(tmp_path, 'sys.stderr.write("START " + "x" * 200 + " END\\n")')
    assert error.failure.detail == "START " + "x" * 200 + " END"  # raw and whole
    assert "crashed with code 1 without answering; stderr: 'START xxx" in error.reason
    assert "x…' (210 characters)" in error.reason


def test_the_stderr_line_is_the_last_non_empty_one(tmp_path: Path) -> None:
    error = crashed(tmp_path, 'sys.stderr.write("Traceback\\n  File x\\nValueError: bad state\\n\\n   \\n")')
    assert error.reason.endswith("stderr: 'ValueError: bad state'")
    words = crashed(tmp_path, 'sys.stderr.write("boom " * 50)')
    assert "stderr: 'boom boom " in words.reason and "(249 characters)" in words.reason


def test_the_stderr_line_is_whole_after_more_than_is_kept(tmp_path: Path) -> None:
    # Noise past the kept tail, written in many pieces, then a last line of 300 characters.
    body = 'for _ in range(4000):\n    sys.stderr.write("noise\\n"); sys.stderr.flush()\nsys.stderr.write("LAST " + "y" * 295 + "\\n")'
    error = crashed(tmp_path, body)
    assert error.failure.detail == "LAST " + "y" * 295
    assert "stderr: 'LAST yyy" in error.reason and "(300 characters)" in error.reason


def test_stderr_is_escaped_in_the_verdict(tmp_path: Path) -> None:
    error = crashed(tmp_path, 'sys.stderr.write("\\x1b[2Jgone\\n")')
    assert "stderr: '\\x1b[2Jgone'" in error.reason and "\x1b" not in error.reason


# --- an over-long output line -----------------------------------------------------------------
def test_a_line_past_the_bound_is_quoted_from_its_start(tmp_path: Path) -> None:
    body = """
        import sys, time
        sys.stdout.write("START" + "x" * 100000 + "\\n"); sys.stdout.flush()
        time.sleep(30)
    """
    bot = program(python(tmp_path, body), "oneshot")
    with pytest.raises(AgentError) as info:
        bot.act(Ask(TronEngine(), TronEngine().initial_state(), 1, deadline=time.monotonic() + 60))
    bot.close()
    failure = info.value.failure
    assert failure.fault is Fault.BAD_OUTPUT and failure.numbers == (external.MAX_LINE,)
    assert failure.detail.startswith("STARTxxx") and len(failure.detail) == external.MAX_LINE  # read no further
    said = f"printed an output line longer than {external.MAX_LINE} bytes: 'STARTxxx"
    assert said in info.value.reason and info.value.reason.endswith("x…'")
    assert gone(bot.pids[0])


def test_the_verdict_texts() -> None:
    line = Failure(Fault.BAD_OUTPUT, "é" * 2048, numbers=(4096,))
    text = describe(line.outcome(0, 1))
    assert text == "seat 1 forfeits: printed an output line longer than 4096 bytes: '" + "é" * (ECHO_LIMIT - 1) + "…'"
    stderr = Failure(Fault.CRASHED, "E" * 81, numbers=(1,))
    assert describe(stderr.outcome(0, 1)).endswith("stderr: '" + "E" * (ECHO_LIMIT - 1) + "…' (81 characters)")
    short = Failure(Fault.EXITED, "E" * ECHO_LIMIT, numbers=(0,))
    assert describe(short.outcome(0, 1)).endswith("stderr: '" + "E" * ECHO_LIMIT + "'")
