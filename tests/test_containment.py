"""External programs are contained: nothing they start outlives their game, they run with
limits, and no output of theirs can use up time or memory (in the app's reader and in
`tui-grid tron bot`). Work is bounded by counting bytes, never by timing it; every
process a test starts is gone when it ends."""

from __future__ import annotations

import io
import os
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from tui_grid.cli import main
from tui_grid.core import external, reaper
from tui_grid.core.agents import AgentError, Ask
from tui_grid.core.external import ExternalProgramAgent
from tui_grid.core.geometry import Direction
from tui_grid.games.tron import botmain
from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer

PY = sys.executable
LINUX = reaper.available()
needs_proc = pytest.mark.skipif(not LINUX, reason="finds descendants through /proc")
#: Peak Python memory a flooded read may take (the flood is 1 MB or 50 MB).
MEMORY_BOUND = 1 << 20


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"{PY} {path}"


def tron(command: str, mode: str = "oneshot", **kw) -> ExternalProgramAgent:  # type: ignore[no-untyped-def]
    return ExternalProgramAgent(command, mode, encode_for_program, parse_program_answer, **kw)


def ask(seconds: float | None = 60.0, seat: int = 1) -> Ask:  # type: ignore[type-arg]
    engine = TronEngine()
    deadline = None if seconds is None else time.monotonic() + seconds
    return Ask(engine, engine.initial_state(), seat, deadline=deadline)


def dead(pid: int) -> bool:
    """Gone, or a zombie (dead, its parent not yet told)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].startswith(("Z", "X"))
    except (OSError, IndexError):
        return True


def all_dead(pids: list[int]) -> bool:
    """Bounded polling: SIGKILL is delivered at once, but a process is seen to die a
    moment later."""
    for _ in range(250):
        if all(dead(pid) for pid in pids):
            return True
        time.sleep(0.02)
    return all(dead(pid) for pid in pids)


def cleanup(pids: list[int]) -> None:
    """Whatever a failed test left behind."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# A program that starts two processes outside its process group, both in sessions of
# their own: one with setsid (keeping the program's stderr open, as a careless bot
# would), one double-forked and adopted by init. It appends their pids to the file named
# by its first argument, then answers every 15x15 state with UP.
ESCAPER = """
    import os, subprocess, sys, time
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    pids = [subprocess.Popen(sleeper, start_new_session=True, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL).pid]
    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv(sys.executable, sleeper)
        os.write(w, str(pid).encode())
        os._exit(0)
    os.close(w)
    pids.append(int(os.read(r, 64)))
    os.waitpid(middle, 0)
    with open(sys.argv[1], "a") as out:
        out.write(" ".join(map(str, pids)) + "\\n")
    while True:
        lines = [sys.stdin.readline() for _ in range(17)]
        if not lines[-1]:
            break
        print("UP", flush=True)
"""


def read_pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


# --- nothing outlives its game --------------------------------------------------------------
@needs_proc
def test_close_kills_setsid_and_double_forked_descendants(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    bot = tron(f"{script(tmp_path, 'escaper.py', ESCAPER)} {pidfile}", "persistent")
    pids: list[int] = []
    try:
        assert bot.act(ask()) == Direction.UP
        pids = read_pids(pidfile)
        assert len(pids) == 2 and not any(dead(pid) for pid in pids)
        process = bot._process
        assert process is not None
        bot.close()
        assert set(pids) <= set(process.descendants)  # found, by the tree or the token
        assert all_dead(pids + bot.pids)
    finally:
        bot.close()
        cleanup(pids)


@needs_proc
def test_a_oneshot_move_leaves_no_descendant(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    bot = tron(f"{script(tmp_path, 'escaper.py', ESCAPER)} {pidfile}")
    pids: list[int] = []
    try:
        for _ in range(2):
            assert bot.act(ask()) == Direction.UP
        pids = read_pids(pidfile)
        assert len(pids) == 4
        assert all_dead(pids + bot.pids)
    finally:
        bot.close()
        cleanup(pids)


@needs_proc
@pytest.mark.parametrize("kind", ["cmd", "oneshot"])
def test_a_headless_match_leaves_no_descendant(tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    pidfile = tmp_path / "pids"
    command = f"{script(tmp_path, 'escaper.py', ESCAPER)} {pidfile}"
    try:
        assert main(["match", "tron", f"{kind}:{command}", "easy", "--games", "2", "--timeout", "30"]) == 0
        assert "(W-D-L)" in capsys.readouterr().out
        pids = read_pids(pidfile)
        assert len(pids) >= 4  # two per process: one process per game, or one per move
        assert all_dead(pids)
    finally:
        cleanup(read_pids(pidfile))


@needs_proc
async def test_quitting_the_app_leaves_no_descendant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from tests.conftest import make_app
    from tui_grid.games.tron.setup_dialog import SETUP_FILE

    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("TUI_GRID_DATA", str(data))
    pidfile = tmp_path / "pids"
    command = f"{script(tmp_path, 'escaper.py', ESCAPER)} {pidfile}"
    (data / SETUP_FILE).write_text(json.dumps({"players": [f"cmd:{command}", f"cmd:{command}"], "rounds": 3, "speed": 5}))
    app = make_app("tron", "standard")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            for _ in range(500):  # both programs have started theirs
                if len(read_pids(pidfile)) >= 4:
                    break
                await pilot.pause(0.02)
            assert len(read_pids(pidfile)) >= 4
            await pilot.press("q")
            await pilot.pause()
        assert all_dead(read_pids(pidfile))
    finally:
        cleanup(read_pids(pidfile))


@needs_proc
def test_the_token_finds_descendants_of_a_reaped_program(tmp_path: Path) -> None:
    # The program has exited (and been reaped) before its game ends: its number is no
    # longer its own, but the processes it left carry its token.
    token = reaper.new_token()
    env = dict(os.environ, **{reaper.ENV_VAR: token})
    body = """
        import subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(child.pid, flush=True)
    """
    run = subprocess.run(script(tmp_path, "leave.py", body).split(), env=env, capture_output=True, text=True, timeout=30, check=False)
    orphan = int(run.stdout)
    try:
        assert not dead(orphan)
        assert reaper.kill_tree(None, token) == [orphan]
        assert all_dead([orphan])
    finally:
        cleanup([orphan])


def test_without_proc_the_reaper_does_no_harm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(reaper, "PROC", str(tmp_path / "no-proc"))
    monkeypatch.setattr(reaper, "_tasks_cache", None)
    assert not reaper.available() and reaper.user_tasks() is None
    assert reaper.start_time(os.getpid()) == 0
    assert all(which != resource.RLIMIT_NPROC for which, _ in external.program_limits())
    child = subprocess.Popen([PY, "-c", "import time; time.sleep(120)"], start_new_session=True)
    try:
        assert reaper.kill_tree(child.pid, "token") == []  # without /proc only the program itself is killed
        assert child.wait(timeout=10) == -signal.SIGKILL
        assert reaper.kill_tree(None, "token") == []
    finally:
        child.kill()
        child.wait()


def test_close_ends_an_exchange_in_progress(tmp_path: Path) -> None:
    # Quitting must not wait for the move's deadline (here a minute).
    bot = tron(script(tmp_path, "sleepy.py", "import time\ntime.sleep(120)\n"), "persistent", timeout=60)
    errors: list[BaseException] = []

    def play() -> None:
        try:
            bot.act(ask(None))
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            errors.append(exc)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    for _ in range(500):
        if bot.pids and bot._active is not None:
            break
        time.sleep(0.01)
    bot.close()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert errors and isinstance(errors[0], AgentError)
    assert all_dead(bot.pids)


# --- limits ---------------------------------------------------------------------------------
LIMITS_BOT = """
    import resource, sys
    sys.stdin.read()
    r = resource
    print(r.getrlimit(r.RLIMIT_DATA), r.getrlimit(r.RLIMIT_NPROC), r.getrlimit(r.RLIMIT_CORE))
"""


def limits_seen(tmp_path: Path) -> tuple[tuple[int, int], ...]:
    bot = ExternalProgramAgent(script(tmp_path, "limits.py", LIMITS_BOT), "oneshot", encode_for_program, str)
    try:
        line = bot.act(ask())
    finally:
        bot.close()
    return tuple(eval(line.replace(") (", "), (")))  # three (soft, hard) pairs


def capped(value: int, which: int) -> int:
    """`value`, or this process's own limit where that is lower."""
    soft = resource.getrlimit(which)[0]
    return value if soft == resource.RLIM_INFINITY else min(value, soft)


def test_programs_run_with_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(external.MEMORY_ENV, raising=False)
    monkeypatch.delenv(external.PROCESSES_ENV, raising=False)
    data, nproc, core = limits_seen(tmp_path)
    default = capped(external.DEFAULT_MEMORY_MB << 20, resource.RLIMIT_DATA)
    assert data == (default, default)
    assert core == (0, 0)
    if reaper.available():  # relative to what this user runs now
        assert nproc[0] == nproc[1] != resource.RLIM_INFINITY
        assert nproc[0] <= capped(10**9, resource.RLIMIT_NPROC)

    monkeypatch.setenv(external.MEMORY_ENV, "256")
    monkeypatch.setenv(external.PROCESSES_ENV, "0")
    data, nproc, _ = limits_seen(tmp_path)
    assert data == (capped(256 << 20, resource.RLIMIT_DATA),) * 2
    assert nproc == resource.getrlimit(resource.RLIMIT_NPROC)  # 0: none of ours

    monkeypatch.setenv(external.MEMORY_ENV, "0")
    data, _, _ = limits_seen(tmp_path)
    assert data == resource.getrlimit(resource.RLIMIT_DATA)


def test_the_memory_limit_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(external.MEMORY_ENV, "256")
    body = """
        import sys
        sys.stdin.read()
        try:
            block = bytearray(512 << 20)
            print("allocated")
        except MemoryError:
            print("MemoryError")
    """
    bot = ExternalProgramAgent(script(tmp_path, "hog.py", body), "oneshot", encode_for_program, str)
    try:
        assert bot.act(ask()) == "MemoryError"
    finally:
        bot.close()


# --- output cannot run away with time or memory ---------------------------------------------
class Reads:
    """Counts the bytes the agent reads from programs' stdout."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.total = 0
        original = external._Process._read_chunk

        def counting(process: external._Process, size: int) -> int:
            got = original(process, size)
            self.total += got
            return got

        monkeypatch.setattr(external._Process, "_read_chunk", counting)


def flooded(bot: ExternalProgramAgent, seconds: float | None = 60.0) -> tuple[AgentError, int]:
    """The error the bot's move ends with, and the peak Python memory it took."""
    tracemalloc.start()
    try:
        with pytest.raises(AgentError) as info:
            bot.act(ask(seconds))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        bot.close()
    assert info.value.forfeit and all_dead(bot.pids)
    return info.value, peak


BLANK_FLOOD = """
    import sys, time
    sys.stdout.write("\\n" * (1 << 20)); sys.stdout.flush()
    time.sleep(120)
"""


@pytest.mark.parametrize("mode", ["oneshot", "persistent"])
def test_a_megabyte_of_blank_lines_is_a_bounded_forfeit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    reads = Reads(monkeypatch)
    # The move's deadline is a minute away: the forfeit comes from the byte bound.
    error, peak = flooded(tron(script(tmp_path, "blank.py", BLANK_FLOOD), mode))
    assert f"printed more than {external.MAX_OUTPUT} bytes without an answer line" in error.reason
    # A persistent program's output left from before the state is discarded first, up to
    # the same bound (a flood that starts before the state is sent, as under load).
    assert reads.total <= (2 if mode == "persistent" else 1) * external.MAX_OUTPUT + 1
    assert peak < MEMORY_BOUND


def test_a_50_megabyte_line_is_a_bounded_forfeit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = Reads(monkeypatch)
    body = """
        import sys, time
        chunk = "x" * (1 << 20)
        for _ in range(50):
            sys.stdout.write(chunk)
        sys.stdout.flush()
        time.sleep(120)
    """
    error, peak = flooded(tron(script(tmp_path, "line.py", body)))
    assert f"printed an output line longer than {external.MAX_LINE} bytes" in error.reason
    assert reads.total <= external.MAX_OUTPUT + 1
    assert peak < MEMORY_BOUND


def test_blank_lines_trickling_in_still_meet_the_deadline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = Reads(monkeypatch)
    body = """
        import sys, time
        while True:
            sys.stdout.write("\\n"); sys.stdout.flush()
            time.sleep(0.005)
    """
    error, _ = flooded(tron(script(tmp_path, "trickle.py", body), timeout=0.5), seconds=None)
    assert "gave no answer within 0.5 s" in error.reason
    assert reads.total <= external.MAX_OUTPUT


def test_a_program_that_never_reads_cannot_block_the_sender(tmp_path: Path) -> None:
    # A state bigger than any pipe buffer, to a program that never reads it: the write
    # waits for the deadline, not for ever.
    bot = ExternalProgramAgent(
        script(tmp_path, "deaf.py", "import time\ntime.sleep(120)\n"), "persistent",
        lambda ask: "x" * (4 << 20) + "\n", str, timeout=0.5)
    error, _ = flooded(bot, seconds=None)
    assert "gave no answer within 0.5 s" in error.reason


def test_answers_after_blank_lines_and_split_across_reads(tmp_path: Path) -> None:
    body = """
        import sys, time
        sys.stdin.read()
        sys.stdout.write("\\n \\r\\n\\t\\n" * 1000 + "  RI"); sys.stdout.flush()
        time.sleep(0.05)
        sys.stdout.write("GHT  \\nDOWN\\n"); sys.stdout.flush()
    """
    bot = tron(script(tmp_path, "split.py", body))
    try:
        assert bot.act(ask()) == Direction.RIGHT
    finally:
        bot.close()


def test_reasons_quote_at_most_80_characters_of_output(tmp_path: Path) -> None:
    body = """
        import sys
        sys.stderr.write("E" * 3000 + "\\n")
        print("G" * 4000, flush=True)
    """
    bot = tron(script(tmp_path, "loud.py", body))
    try:
        with pytest.raises(AgentError) as info:
            bot.act(ask())
    finally:
        bot.close()
    reason = info.value.reason
    assert "not one of LEFT RIGHT UP DOWN" in reason
    assert "G" * 79 in reason and "G" * 81 not in reason
    assert "E" * 81 not in reason
    assert len(reason) < 400


# --- tui-grid tron bot ----------------------------------------------------------------------
class Endless(io.TextIOBase):
    """`size` characters of `char` with no line end, served lazily; counts what was read."""

    def __init__(self, char: str, size: int) -> None:
        self.char, self.left, self.served = char, size, 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        n = self.left if size is None or size < 0 else min(size, self.left)
        self.left -= n
        self.served += n
        return self.char * n


def test_botmain_stops_at_a_long_line(capsys: pytest.CaptureFixture[str]) -> None:
    stream = Endless("r", 50 << 20)
    tracemalloc.start()
    try:
        code = botmain.run(stream, io.StringIO(), "easy", 10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2
    assert stream.served <= botmain.MAX_LINE + 2
    assert peak < MEMORY_BOUND
    err = capsys.readouterr().err.strip()
    assert err == f"tui-grid tron bot: error: state 1: line 1: longer than {botmain.MAX_LINE} characters"


def test_botmain_stops_at_a_state_too_long(capsys: pytest.CaptureFixture[str]) -> None:
    class Rows(io.TextIOBase):
        served = 0

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            self.served += 1
            return "r\n" if self.served == 1 else "1 1 1 3\n" if self.served == 2 else "#--#\n"

    stream = Rows()
    assert botmain.run(stream, io.StringIO(), "easy", 10) == 2
    assert stream.served == botmain.MAX_STATE_LINES + 1
    assert f"state 1: more than {botmain.MAX_STATE_LINES} lines" in capsys.readouterr().err


def test_botmain_errors_quote_a_clipped_piece(capsys: pytest.CaptureFixture[str]) -> None:
    engine = TronEngine()
    good = engine.observation(engine.initial_state(), 0)
    out = io.StringIO()
    assert botmain.run(io.StringIO(good + "\n" + "q" * 1000 + "\x1b\n1 2 3 4\n#\n"), out, "easy", 10) == 2
    assert len(out.getvalue().splitlines()) == 1  # the good state was answered first
    err = capsys.readouterr().err.strip()
    assert err.startswith("tui-grid tron bot: error: state 2: line 1:")
    assert len(err) <= len("tui-grid tron bot: error: ") + botmain.MESSAGE_LIMIT
    assert "\x1b" not in err


def test_botmain_process_with_an_unterminated_line() -> None:
    run = subprocess.run(
        [PY, "-m", "tui_grid.games.tron.botmain", "--level", "easy"],
        input="g" * (5 << 20), capture_output=True, text=True, timeout=60, check=False,
    )
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) < 120 and "longer than" in lines[0]
