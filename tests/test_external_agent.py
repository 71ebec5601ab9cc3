"""External programs as agents: one-shot and persistent, and every way a program can fail."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tui_grid.core.agents import AgentError, Ask, FunctionAgent
from tui_grid.core.driver import Driver
from tui_grid.core.external import ExternalProgramAgent
from tui_grid.core.session import Session
from tui_grid.core.geometry import Direction
from tui_grid.core.text import echo
from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer

SEED_BOT = Path("/work/shared/opponents/tron_seed_bot.py")
PY = sys.executable


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"{PY} {path}"


def agent(command: str, mode: str = "oneshot", **kw) -> ExternalProgramAgent:  # type: ignore[no-untyped-def]
    return ExternalProgramAgent(command, mode, encode_for_program, parse_program_answer, **kw)


def ask(state=None, seat: int = 1, seconds: float = 30.0) -> Ask:  # type: ignore[no-untyped-def]
    engine = TronEngine()
    return Ask(engine, engine.initial_state() if state is None else state, seat, deadline=time.monotonic() + seconds)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


ECHO_BOT = """
    import sys
    player = sys.stdin.readline().strip()
    pos = list(map(int, sys.stdin.readline().split()))
    rows = [sys.stdin.readline() for _ in range(15)]
    print("LEFT" if player == "g" else "RIGHT")
"""

PERSISTENT_BOT = """
    import sys
    count = 0
    while True:
        player = sys.stdin.readline()
        if not player:
            break
        sys.stdin.readline()
        for _ in range(15):
            sys.stdin.readline()
        count += 1
        print(["LEFT", "UP", "DOWN"][count % 3] if player.strip() == "g" else "RIGHT", flush=True)
"""


def test_oneshot_program_answers_and_leaves_nothing(tmp_path: Path) -> None:
    bot = agent(script(tmp_path, "bot.py", ECHO_BOT))
    assert bot.act(ask(seat=1)) == Direction.LEFT
    assert bot.act(ask(seat=0)) == Direction.RIGHT
    assert len(bot.pids) == 2 and all(gone(pid) for pid in bot.pids)
    bot.close()


def test_the_seed_bot_plays_as_a_oneshot_program() -> None:
    bot = agent(f"{PY} {SEED_BOT}")
    engine = TronEngine()
    state = engine.initial_state()
    assert bot.act(ask(state, 1)) == Direction.LEFT  # the longest straight run from (7,13)
    assert bot.act(ask(state, 0)) == Direction.RIGHT
    assert all(gone(pid) for pid in bot.pids)


def test_the_seed_bot_printing_none_is_a_forfeit() -> None:
    # Green boxed in: the seed bot finds no free cell and prints 'None'.
    engine = TronEngine()
    rows = list(engine.initial_state().rows)
    rows[6] = rows[6][:12] + "gg#"
    rows[8] = rows[8][:12] + "gg#"
    rows[7] = rows[7][:12] + "gg#"
    from tui_grid.games.tron.rules import TronState

    state = TronState(tuple(rows), engine.initial_state().heads)
    bot = agent(f"{PY} {SEED_BOT}", name="seed")
    with pytest.raises(AgentError) as info:
        bot.act(ask(state, 1))
    assert info.value.forfeit
    # The program's label is outside text, clipped like any echo (CI's paths are longer).
    label = echo(f"oneshot:{PY} {SEED_BOT}")
    assert info.value.reason == f"green ({label}) printed 'None', not one of LEFT RIGHT UP DOWN"


def test_persistent_program_keeps_its_process(tmp_path: Path) -> None:
    bot = agent(script(tmp_path, "pbot.py", PERSISTENT_BOT), "persistent")
    answers = [bot.act(ask(seat=1)) for _ in range(4)]
    assert answers == [Direction.UP, Direction.DOWN, Direction.LEFT, Direction.UP]
    assert len(bot.pids) == 1
    pid = bot.pids[0]
    assert not gone(pid)
    bot.close()
    assert gone(pid)


def test_persistent_hard_bot_through_botmain() -> None:
    bot = agent(f"{PY} -m tui_grid.games.tron.botmain --time-ms 30", "persistent")
    engine = TronEngine()
    state = engine.initial_state()
    for _ in range(5):
        moves = {seat: bot.act(ask(state, seat)) for seat in (0, 1)}
        assert all(m in state.safe_moves(s) for s, m in moves.items())
        state = engine.step(state, moves).state
    assert len(bot.pids) == 1
    bot.close()
    assert gone(bot.pids[0])


def test_garbage_answer(tmp_path: Path) -> None:
    bot = agent(script(tmp_path, "g.py", "print('left, I think')\n"))
    with pytest.raises(AgentError) as info:
        bot.act(ask())
    assert info.value.forfeit and "printed 'left, I think', not one of LEFT RIGHT UP DOWN" in info.value.reason


def driven(bot: ExternalProgramAgent, seconds: float) -> tuple[Session, Driver]:
    """A Tron game with `bot` in red's seat and a quick builtin in green's, under a driver
    whose deadline is `seconds`: the driver, not the agent, decides lateness."""
    session = Session(TronEngine(), [bot, FunctionAgent(lambda ask: Direction.UP, "quick")], undo=False)
    return session, Driver(session, timeout=seconds)


def wait_gone(pid: int) -> bool:
    """The process ends once the abandoned ask sees its cancel (bounded polling)."""
    for _ in range(250):
        if gone(pid):
            return True
        time.sleep(0.02)
    return gone(pid)


def test_timeout(tmp_path: Path) -> None:
    bot = agent(script(tmp_path, "slow.py", "import time\ntime.sleep(30)\nprint('UP')\n"))
    session, driver = driven(bot, 0.3)
    driver.step()
    assert session.over and session.outcome.winner == 1
    assert "red forfeits:" in session.outcome.reason and "gave no answer within 0.3 s" in session.outcome.reason
    assert wait_gone(bot.pids[0])
    driver.close()


def test_persistent_timeout_kills_and_restarts(tmp_path: Path) -> None:
    body = """
        import sys, time
        for _ in range(17):
            sys.stdin.readline()
        print("UP", flush=True)
        time.sleep(30)
        """
    bot = agent(script(tmp_path, "stall.py", body), "persistent")
    session, driver = driven(bot, 10.0)
    driver.step()  # the first state is answered in time (a generous deadline: start-up under load)
    assert not session.over and session.state.turn == 1
    driver.timeout = 0.3
    driver.step()
    assert session.over and "gave no answer within 0.3 s" in session.outcome.reason
    assert wait_gone(bot.pids[0])
    # The next ask starts a fresh process (a late answer could not be matched to its state).
    for _ in range(250):  # the abandoned ask has let go of the agent
        if not bot._lock.locked():
            break
        time.sleep(0.02)
    assert bot.act(ask(seconds=5)) == Direction.UP
    assert len(bot.pids) == 2
    bot.close()


def test_crash_and_exit(tmp_path: Path) -> None:
    bot = agent(script(tmp_path, "crash.py", "import sys\nsys.stderr.write('boom: bad state\\n')\nsys.exit(3)\n"))
    with pytest.raises(AgentError) as info:
        bot.act(ask())
    assert info.value.forfeit
    assert "crashed with code 3 without answering" in info.value.reason and "boom: bad state" in info.value.reason
    assert "boom" in bot.stderr_tail()
    quiet = agent(script(tmp_path, "quiet.py", "pass\n"))
    with pytest.raises(AgentError, match="exited with code 0 without answering"):
        quiet.act(ask())
    persistent = agent(script(tmp_path, "once.py", ECHO_BOT), "persistent")
    assert persistent.act(ask()) == Direction.LEFT  # answers once, then exits
    with pytest.raises(AgentError, match="without answering|before reading|between moves"):
        persistent.act(ask())
    missing = agent("/nonexistent/bot --flag")
    with pytest.raises(AgentError, match="could not start"):
        missing.act(ask())


def test_close_kills_the_process_group(tmp_path: Path) -> None:
    # The bot starts a child of its own that would outlive it; close() takes both.
    body = f"""
        import subprocess, sys, time
        child = subprocess.Popen([{PY!r}, "-c", "import time; time.sleep(60)"])
        print(child.pid, flush=True)
        time.sleep(60)
    """
    bot = ExternalProgramAgent(script(tmp_path, "fork.py", body), "persistent", encode_for_program, int)
    child = bot.act(ask())
    assert not gone(child)
    bot.close()
    deadline = time.monotonic() + 2
    while not gone(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gone(child) or _zombie(child)
    assert gone(bot.pids[0])


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except OSError:
        return True


def test_atexit_cleanup_in_a_child_interpreter(tmp_path: Path) -> None:
    import subprocess

    bot_path = script(tmp_path, "pbot.py", PERSISTENT_BOT)
    code = textwrap.dedent(f"""
        import time
        from tui_grid.core.agents import Ask
        from tui_grid.core.external import ExternalProgramAgent
        from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer
        engine = TronEngine()
        bot = ExternalProgramAgent({bot_path!r}, "persistent", encode_for_program, parse_program_answer)
        bot.act(Ask(engine, engine.initial_state(), 1, deadline=time.monotonic() + 5))
        print(bot.pids[0])
    """)
    run = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    pid = int(run.stdout.split()[0])
    assert gone(pid) or _zombie(pid)


def test_a_program_that_floods_its_answer_plays_whole_lines(tmp_path: Path) -> None:
    """`yes LEFT` prints far more than it is asked: what it printed for earlier states is
    dropped to the end of a line, so no answer is ever a fragment ('EFT')."""
    player = agent(script(tmp_path, "flood.py", """
        import sys
        line = b"LEFT\\n" * 17000  # 85,000 bytes a burst: past a read's 64 KiB
        while True:
            sys.stdout.buffer.write(line)
            sys.stdout.flush()
    """), mode="persistent")
    engine = TronEngine()
    try:
        for _ in range(6):
            assert player.act(ask()) is Direction.LEFT
    finally:
        player.close()


def test_an_answer_printed_before_the_first_state_is_the_first_answer(tmp_path: Path) -> None:
    """A program that answers at once, before it reads its state, has answered the first
    state: there is nothing earlier for it to be stale about."""
    player = agent(f"{PY} -c \"import sys, time; print('LEFT', flush=True); time.sleep(5)\"", mode="persistent")
    try:
        assert player.act(ask(seconds=2.0)) is Direction.LEFT
    finally:
        player.close()
