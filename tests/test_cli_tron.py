"""Tron on the command line: `tron bot` on stdin/stdout, `match tron`, `solve tron`,
`generate tron`, and one-line errors with exit code 2."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest



from tui_grid.cli import main  # noqa: E402
from tui_grid.core.boardfile import parse_board_text  # noqa: E402
from tui_grid.games.tron.board import parse_tron  # noqa: E402
from tui_grid.games.tron.protocol import DELTAS, WORDS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "boards" / "tron"
SEED_BOT = "/work/shared/opponents/tron_seed_bot.py"
SEED_STATE = (BOARDS / "seed-example.txt").read_text().split("---\n", 1)[1]


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """`tui-grid ARGV` in a fresh interpreter (tron registered), stdin from `input`."""
    code = f"import sys; from tui_grid.cli import main; sys.exit(main({list(argv)!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)


def cli_input(text: str, *argv: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys; from tui_grid.cli import main; sys.exit(main({list(argv)!r}))"
    return subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, timeout=60, cwd=ROOT)


def one_line_error(capsys, code: int) -> str:  # type: ignore[no-untyped-def]
    out = capsys.readouterr()
    assert code == 2
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tui-grid: error:"), out.err
    return lines[0]


def children_running(name: str) -> list[int]:
    """Processes started by this test process whose command line names `name`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(") ", 1)[1].split()
        if int(fields[1]) == os.getpid() and name in cmdline and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def test_tron_bot_answers_a_state_from_stdin() -> None:
    run = cli_input(SEED_STATE, "tron", "bot", "--level", "hard", "--time-ms", "50")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() in WORDS
    head = (4, 3)  # red's head from line 2
    dr, dc = DELTAS[run.stdout.strip()]
    board = SEED_STATE.splitlines()[2:]
    assert board[head[0] + dr][head[1] + dc] == "-"


def test_tron_bot_answers_a_stream_of_states_and_both_spellings(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(SEED_STATE + SEED_STATE.replace("r\n", "g\n", 1)))
    assert main(["tron", "bot", "--level", "easy"]) == 0
    answers = capsys.readouterr().out.split()
    assert len(answers) == 2 and all(word in WORDS for word in answers)
    monkeypatch.setattr(sys, "stdin", io.StringIO(SEED_STATE))
    assert main(["bot", "tron", "--level", "medium"]) == 0
    assert capsys.readouterr().out.strip() in WORDS


def test_tron_bot_rejects_bad_options(capsys) -> None:
    assert "--level" in one_line_error(capsys, main(["tron", "bot", "--level", "godlike"]))
    assert "--time-ms" in one_line_error(capsys, main(["tron", "bot", "--time-ms", "0"]))


def test_match_easy_medium_json(capsys) -> None:
    assert main(["match", "tron", "easy", "medium", "--games", "2", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    record = json.loads(lines[-1])
    assert record["wins"] + record["draws"] + record["losses"] == 2
    assert [game["red"] for game in record["games"]] == ["easy bot", "medium bot"]  # seats swapped
    for game in record["games"]:
        assert game["result"] in "WDL" and game["reason"] and game["steps"] > 0 and game["board"] == "standard"
    assert lines[0].startswith("game 1: easy bot ") and lines[1].startswith("game 2: easy bot ")
    assert lines[2].startswith(f"easy bot: {record['wins']}-{record['draws']}-{record['losses']} (W-D-L) against medium bot")


def test_an_arena_of_four_names_every_players_place_and_plays_on_past_a_forfeit(capsys, tmp_path) -> None:
    """Four of every kind: a program printing garbage is out at once and comes last, the
    other three play on; the seed article's duel bot plays the arena as it is."""
    bad = tmp_path / "bad.py"
    bad.write_text("print('NORTH')\n")
    players = ["easy", "medium", f"oneshot:{sys.executable} {SEED_BOT}", f"oneshot:{sys.executable} {bad}"]
    assert main(["match", "tron", *players, "--games", "2", "--time-ms", "20", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    record = json.loads(lines[-1])
    names = record["names"]
    assert names == ["easy bot", "medium bot", "tron_seed_bot.py", "bad.py"]
    assert [game["board"] for game in record["games"]] == ["arena4", "arena4"]
    assert [game["red"] for game in record["games"]] == ["easy bot", "bad.py"]  # the seats turn by one
    for game in record["games"]:
        places = game["places"]
        assert sorted(places) == sorted(names) and places["bad.py"] == 4 and min(places.values()) == 1
        assert game["steps"] > 1 and len(game["moves"].split()) == game["steps"]
    assert record["points"][3] == 0 and sum(record["firsts"]) >= 2
    assert lines[-2].startswith("points in 2 games: ")
    assert children_running("tron_seed_bot") == [] and children_running("bad.py") == []


def test_match_on_random_maps_shares_a_map_per_pair(capsys) -> None:
    assert main(["tron", "match", "easy", "easy", "--random-maps", "--seed", "7", "--size", "12x12", "--games", "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [game["board"] for game in record["games"]] == ["tron:12x12:w12#seed7", "tron:12x12:w12#seed7", "tron:12x12:w12#seed8"]
    assert record["names"] == ["easy bot (1)", "easy bot (2)"] and record["seed"] == 7


def test_match_against_the_seed_bot_as_a_oneshot_program(capsys) -> None:
    player = f"oneshot:{sys.executable} {SEED_BOT}"
    assert main(["match", "tron", "easy", player, "--games", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert len(record["games"]) == 2 and record["names"] == ["easy bot", "tron_seed_bot.py"]
    assert all("forfeits" not in game["reason"] for game in record["games"])
    assert children_running("tron_seed_bot") == []


def test_a_program_that_prints_garbage_forfeits_the_game(capsys, tmp_path) -> None:
    bot = tmp_path / "bad.py"
    bot.write_text("print('NORTH')\n")
    assert main(["match", "tron", f"oneshot:{sys.executable} {bot}", "easy", "--games", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["losses"] == 2
    assert "forfeits" in record["games"][0]["reason"] and "printed 'NORTH'" in record["games"][0]["reason"]
    assert children_running("bad.py") == []


def test_a_program_that_hangs_loses_each_game_with_the_reason(capsys, tmp_path) -> None:
    """A program that never answers forfeits every game at once, with the reason; it never
    drives on one tick per timeout."""
    for mode in ("oneshot", "cmd"):
        bot = tmp_path / f"sleeper_{mode}.py"
        bot.write_text("import time\ntime.sleep(60)\n")
        assert main(["match", "tron", f"{mode}:{sys.executable} {bot}", "easy", "--games", "2", "--timeout", "0.3", "--json"]) == 0
        record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert record["losses"] == 2
        for game in record["games"]:
            assert game["steps"] == 0 and "forfeits" in game["reason"] and "gave no answer within 0.3 s" in game["reason"]
        assert children_running(bot.name) == []


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["match", "tron", "easy", "foo"], "unknown tron player 'foo'"),
        (["match", "tron", "cmd:", "easy"], "cmd: needs a command line"),
        (["match", "tron", "human", "easy"], "no humans"),
        (["match", "tron", "easy", "easy", "--games", "0"], "--games"),
        (["match", "tron", "easy", "easy", "--board", "nope"], "nope"),
        (["match", "tron", "easy", "easy", "--board", "standard", "--random-maps"], "not allowed with"),
        (["match", "tron", "easy", "easy", "--random-maps", "--size", "5x5"], "10x10"),
        (["match", "tron", "easy"], "2 to 8 players, got 1"),
        (["match", "tron", *["easy"] * 9], "2 to 8 players, got 9"),
        (["match", "tron", "hard", "cmd:/nonexistent/prog"], "no program '/nonexistent/prog' (not an executable file)"),
        (["match", "tron", "hard", "oneshot:nosuchprog --flag"], "no program 'nosuchprog' (not found on PATH)"),
        (["match", "tron", "easy", "easy", "--seed", "3"], "--seed picks the random maps"),
        (["match", "tron", "easy", "easy", "easy", "--board", "standard"], "an arena of 3 plays on its own board"),
    ],
)
def test_bad_match_arguments_exit_2_with_one_line(capsys, argv: list[str], needle: str) -> None:
    assert needle in one_line_error(capsys, main(argv))


def test_solve_prints_the_hard_bots_move_as_json(capsys) -> None:
    assert main(["solve", "tron", str(BOARDS / "seed-example.txt"), "--json", "--time-ms", "50"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert list(record)[:3] == ["move", "score", "depth"]
    assert record["move"] in WORDS and record["player"] == "r" and isinstance(record["depth"], int)


def test_solve_reads_a_pasted_state_on_stdin_for_green(monkeypatch, capsys) -> None:
    grid = (BOARDS / "pillars.txt").read_text().split("---\n", 1)[1]
    state = "g\n7 1 7 13\n" + grid
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(state.encode())))
    assert main(["solve", "tron", "-", "--json", "--time-ms", "30"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["player"] == "g" and record["mode"] == "territory" and record["depth"] >= 1
    dr, dc = DELTAS[record["move"]]
    assert grid.splitlines()[7 + dr][13 + dc] == "-"  # a free cell next to green's head


def test_solve_drawing_and_player_override(capsys) -> None:
    assert main(["solve", "tron", "standard", "--player", "g", "--time-ms", "30"]) == 0
    out = capsys.readouterr().out
    assert "green moves" in out and "*" in out and out.splitlines()[7].endswith("G#")


def test_generate_and_load_a_random_map(capsys) -> None:
    assert main(["generate", "tron", "--size", "20x12", "--walls", "15", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    board = parse_tron(parse_board_text(text))
    assert (board.width, board.height) == (20, 12) and "id: tron:20x12:w15#seed4" in text
    assert "walls" in one_line_error(capsys, main(["generate", "tron", "--walls", "90"]))


def test_boards_lists_the_shipped_tron_boards(capsys) -> None:
    assert main(["boards", "tron"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert {"standard", "pillars", "gen-40x30-w10"} <= set(names)


def test_watch_ends_on_the_outcome_not_the_bots_last_move(capsys) -> None:
    """`watch tron` ends on the outcome, not on a bot's next move: a bot plans each move, so
    only a solver's one plan sums up the watch."""
    assert main(["watch", "tron", "standard", "--delay", "0"]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    assert lines[-1].startswith("move ") and "drives" not in lines[-1]
    assert main(["watch", "ice", "spiral", "--delay", "0"]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("Optimal from here: 6 moves")
