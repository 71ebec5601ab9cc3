"""Recordings: `tui-grid record` and `tui-grid demo --record` write asciicast v2 files
(header, monotonic times, terminal output) whose replay into a terminal emulator (pyte)
shows the app's own screen. The recording stops after the stated duration by pressing q,
so what is asserted is what was drawn, never how fast."""

from __future__ import annotations

from pathlib import Path

import pyte
import pytest

from tui_grid.cli import main
from tui_grid.core.recording import read_cast


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def replay(path: Path) -> tuple[dict, list[str]]:
    header, events = read_cast(path)
    assert events and all(kind == "o" for _, kind, _ in events)
    times = [t for t, _, _ in events]
    assert times == sorted(times) and times[0] >= 0
    screen = pyte.Screen(header["width"], header["height"])
    stream = pyte.Stream(screen)
    for _, _, data in events:
        stream.feed(data)
    return header, list(screen.display)


def test_a_recording_replays_to_the_apps_own_screen(tmp_path: Path, capsys) -> None:
    cast = tmp_path / "spiral.cast"
    assert main(["record", "ice", "spiral", "-o", str(cast), "--duration", "3"]) == 0
    assert "asciinema play" in capsys.readouterr().err
    header, display = replay(cast)
    assert (header["version"], header["width"], header["height"]) == (2, 80, 24)
    assert display[0][1:].startswith("Ice sliding — A simple spiral")
    assert any("┌────" in line for line in display) and any("@" in line for line in display[2:16])
    assert display[-2].startswith("←↑↓→ Move") and "q Quit" in display[-2] + display[-1]


def test_the_demo_records_at_the_size_asked(tmp_path: Path) -> None:
    cast = tmp_path / "demo.cast"
    assert main(["demo", "--games", "ice", "--record", str(cast), "--duration", "3", "--size", "100x30"]) == 0
    header, display = replay(cast)
    assert (header["width"], header["height"]) == (100, 30) and header["title"] == "tui-grid demo"
    assert "DEMO 1/1 · Ice: the optimal route" in display[0]


def test_a_bad_recording_request_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["record", "ice", "nosuchboard", "-o", str(tmp_path / "x.cast")]) == 2
    assert main(["record", "ice", "spiral", "-o", str(tmp_path / "missing" / "x.cast")]) == 2
    assert main(["record", "ice", "spiral", "-o", str(tmp_path / "x.cast"), "--size", "3x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and not (tmp_path / "x.cast").exists()
