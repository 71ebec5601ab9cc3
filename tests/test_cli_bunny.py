"""Bunny on the command line: solve --json, run --program, generate, watch."""

from __future__ import annotations

import json



from tui_grid.cli import main  # noqa: E402


def test_solve_json_prints_one_line_per_board(capsys) -> None:
    assert main(["solve", "bunny", "doodle-4-two-rings", "doodle-2-corner", "--json", "--time-limit", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert list(first) == ["solvable", "program", "tokens", "proven_optimal", "seconds"]
    assert first["program"] == "LOOP{LOOP(7){L F} F}" and first["tokens"] == 5 and first["proven_optimal"] is True
    assert second["tokens"] == 4 and isinstance(second["seconds"], float)


def test_solve_rejects_a_bad_time_limit(capsys) -> None:
    assert main(["solve", "bunny", "doodle-1-line", "--time-limit", "soon"]) == 2
    assert "--time-limit" in capsys.readouterr().err


def test_run_prints_the_outcome_and_the_marked_board(capsys) -> None:
    assert main(["run", "bunny", "doodle-2-corner", "--program", "loop{f f r}"]) == 0
    out = capsys.readouterr().out
    assert "LOOP{F F R}" in out and "Complete in 4 tokens (5 steps)" in out
    assert out.splitlines()[-3:] == ["OOO", "  O", "  v"]
    assert main(["bunny", "run", "doodle-2-corner", "--program", "F"]) == 1  # not complete
    assert "Not complete: 3 squares left after 1 step" in capsys.readouterr().out


def test_a_bad_program_is_one_line_with_its_column(capsys) -> None:
    assert main(["run", "bunny", "doodle-2-corner", "--program", "LOOP(3{F}"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == "" and "\n" not in err
    assert err == "tui-grid: error: --program: column 7: expected ')', found '{'"


def test_generate_is_reproducible_from_the_seed(capsys) -> None:
    assert main(["generate", "bunny", "--size", "6x5", "--squares", "10", "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert main(["generate", "bunny", "--size", "6x5", "--squares", "10", "--seed", "3"]) == 0
    assert capsys.readouterr().out == first
    assert "id: bunny:6x5:n10#seed3" in first and "tokens: " in first
    assert main(["generate", "bunny", "--size", "2x2", "--squares", "9"]) == 2
    assert "do not fit" in capsys.readouterr().err


def test_a_generated_board_solves_to_its_recorded_tokens(tmp_path, capsys) -> None:
    assert main(["generate", "bunny", "--seed", "11"]) == 0
    path = tmp_path / "gen.txt"
    path.write_text(capsys.readouterr().out)
    tokens = int(next(line for line in path.read_text().splitlines() if line.startswith("tokens:")).split(":")[1])
    assert main(["solve", "bunny", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["tokens"] == tokens and record["proven_optimal"]


def test_watch_plays_the_optimal_program(capsys) -> None:
    assert main(["watch", "bunny", "doodle-3-ring", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "move LOOP{F L F}" in out and "Complete in 4 tokens" in out and "proven optimal" in out


def test_watch_prints_every_step_of_the_run(capsys) -> None:
    """`watch bunny` prints every step of the run, numbered from 1."""
    assert main(["watch", "bunny", "doodle-3-ring", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    steps = [line for line in out.splitlines() if line.startswith("Running: step ")]
    assert [int(line.split()[2].rstrip(",")) for line in steps] == list(range(1, len(steps) + 1))
    assert len(steps) >= 10 and "Complete in 4 tokens" in out


def test_a_board_no_program_can_complete_is_not_solvable(tmp_path, capsys) -> None:
    board = tmp_path / "cut.txt"
    board.write_text("S##  #\n")
    assert main(["solve", "bunny", str(board), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"solvable": False, "program": None, "tokens": None, "proven_optimal": True, "seconds": 0.0}


def test_a_run_stopped_by_the_step_limit_says_so(capsys) -> None:
    """A run cut at the 200,000-step limit says it was stopped at the limit, in the CLI and
    in the app, so the player never takes it for a run that ended."""
    from tui_grid.games.bunny.engine import BunnyEngine
    from tui_grid.games.bunny.program import parse_program
    from tui_grid.games.registry import get_game

    nested = "[3f" * 30 + "]" * 30
    assert main(["run", "bunny", "doodle-6-halo", "--program", nested]) == 1
    assert "Stopped at the limit of 200,000 steps a run may take:" in capsys.readouterr().out
    engine = BunnyEngine(get_game("bunny").load("doodle-6-halo").board)
    step = engine.step(engine.initial_state(), {0: parse_program(nested)})
    assert step.state.summary().startswith("Stopped at the limit of 200,000 steps")
