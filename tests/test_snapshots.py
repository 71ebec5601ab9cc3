"""SVG snapshots at fixed sizes; regenerate with `pytest tests/test_snapshots.py --snapshot-update`."""

from __future__ import annotations

from tests.conftest import make_app


def test_menu_80x24(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_ice_spiral_80x24(snap_compare) -> None:
    assert snap_compare(make_app("ice", "spiral"), terminal_size=(80, 24), press=["up", "right"])


def test_ice_picker_80x24(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), press=["down", "enter"])


def test_jimmy_80x24(snap_compare) -> None:
    assert snap_compare(make_app("jimmy", "seed-1"), terminal_size=(80, 24), press=["left"])


def test_ice_large_board_half_blocks_120x40(snap_compare) -> None:
    assert snap_compare(make_app("ice", "ice:150x70:m3#seed5"), terminal_size=(120, 40), press=["z"])


def test_ice_300x300_whole_board_80x24(snap_compare) -> None:
    assert snap_compare(make_app("ice", "ice:300x300:m3#seed7"), terminal_size=(80, 24), press=["z", "z"])


def test_jimmy_half_blocks_no_color_80x24(snap_compare, monkeypatch) -> None:
    """Without colour the half-block zoom still shows Jimmy and the ghosts as glyphs."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app("jimmy", "jimmy:40x40:g6:any#seed3"), terminal_size=(80, 24), press=["z", "z"])


def test_jimmy_half_blocks_16_colours_80x24(snap_compare, monkeypatch) -> None:
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")
    assert snap_compare(make_app("jimmy", "jimmy:40x40:g6:any#seed3"), terminal_size=(80, 24), press=["z", "z"])


def test_ice_whole_board_no_color_80x24(snap_compare, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app("ice", "ice:300x300:m3#seed7"), terminal_size=(80, 24), press=["z", "z"])
