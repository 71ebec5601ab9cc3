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
    assert snap_compare(make_app("jimmy", "seed-escape-1"), terminal_size=(80, 24), press=["left"])


def test_ice_large_board_half_blocks_120x40(snap_compare) -> None:
    assert snap_compare(make_app("ice", "ice:150x70:m3#seed5"), terminal_size=(120, 40), press=["z"])


def test_ice_300x300_whole_board_80x24(snap_compare) -> None:
    assert snap_compare(make_app("ice", "ice:300x300:m3#seed7"), terminal_size=(80, 24), press=["z", "z"])
