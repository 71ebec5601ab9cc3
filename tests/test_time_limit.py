"""Every headless search has a time limit, reports progress, and says when it gave up:
`--time-limit` on solve, watch and generate, exit 4, and the same limit in the app."""

from __future__ import annotations

import json

import pytest

from tui_grid.cli import EXIT_GAVE_UP, main
from tui_grid.core.control import OutOfTime, SearchControl
from tui_grid.games.registry import get_game

#: A limit every real search passes at its first check (after 4096 nodes).
TINY = "0.000000001"


class SteppingClock:
    """A clock that moves one second each time it is read: time is counted in checks."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_search_gives_up_at_its_limit_counted_on_its_clock(monkeypatch) -> None:
    from tui_grid.games.bunny import kernel
    from tui_grid.games.bunny.board import parse_bunny
    from tui_grid.core.catalog import find_board

    monkeypatch.setattr(kernel, "_disabled", True)  # the pure path: its node count does not depend on gcc being there

    bunny = get_game("bunny")
    entry = find_board("bunny", "huge-lopsided-7x7")
    assert entry is not None
    board = parse_bunny(entry.load())
    engine, state = bunny.state_after(bunny.load(str(entry.path)))
    clock = SteppingClock()
    control = SearchControl(every=256, time_limit=10, clock=clock)
    with pytest.raises(OutOfTime) as gave_up:
        bunny.plan(engine, state, 0, control)
    assert gave_up.value.limit == 10 and gave_up.value.nodes >= 256
    assert clock.now <= 12  # the clock is read once at the start and once per check: it stopped at the 10th
    assert "gave up after 10 s" in str(gave_up.value)
    assert board is not None


def test_no_limit_means_none() -> None:
    control = SearchControl(time_limit=0, clock=SteppingClock())
    for _ in range(100):
        control.checkpoint()
    assert control.time_limit is None


HARD_JIMMY = "jimmy:60x60:g4:any#seed3"


def test_solve_gives_up_with_exit_4_and_says_so(capsys) -> None:
    code = main(["solve", "jimmy", HARD_JIMMY, "--time-limit", TINY, "--json"])
    out, err = capsys.readouterr()
    assert code == EXIT_GAVE_UP
    assert json.loads(out.strip())["gave_up"] is True
    assert "gave up after" in err and "the time limit" in err and len(err.strip().splitlines()) == 1


def test_generate_gives_up_with_exit_4(capsys) -> None:
    """`generate bunny --size 30x30 --squares 300` gives up at the time limit, with exit 4."""
    code = main(["generate", "bunny", "--size", "30x30", "--squares", "300", "--seed", "1", "--time-limit", TINY])
    out, err = capsys.readouterr()
    assert code == EXIT_GAVE_UP and out == ""
    assert "gave up after" in err and "smaller board" in err


def test_watch_gives_up_with_exit_4(capsys) -> None:
    code = main(["watch", "jimmy", HARD_JIMMY, "--delay", "0", "--time-limit", TINY])
    _, err = capsys.readouterr()
    assert code == EXIT_GAVE_UP and "gave up after" in err


def test_progress_lines_reach_a_log_when_stderr_is_no_terminal(capsys, monkeypatch) -> None:
    import tui_grid.cli as cli

    monkeypatch.setattr(cli, "LOG_PROGRESS_SECONDS", 0.0)
    assert main(["solve", "jimmy", HARD_JIMMY, "--time-limit", "2"]) == 0  # no escape, proven at once
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines and all(line.startswith("tui-grid: solving ") and " nodes, " in line and "of 2 s" in line for line in lines)
    assert "no escape (proven); the time limit ran out while looking for the longest line" in out  # the longest-line search stops at the limit too


def test_bunny_settles_for_its_best_program_at_the_limit(capsys) -> None:
    """Bunny's search is anytime: at the limit it prints the best program found, unproven."""
    assert main(["solve", "bunny", "huge-lopsided-9x9", "--time-limit", TINY, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["proven_optimal"] is False and record["program"]


@pytest.mark.parametrize("bad", ["-1", "nan", "x", "1e99"])
def test_a_bad_time_limit_is_one_line(capsys, bad: str) -> None:
    assert main(["solve", "ice", "spiral", f"--time-limit={bad}"]) == 2
    assert "--time-limit must be" in capsys.readouterr().err
