"""Stills: a picture of the screen at this moment (Textual's SVG screenshot), for a README
or a slide, kept in the data folder under the policy's limits."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tui_grid.core import saves


def save_still(app: Any) -> str:
    """Save a still of `app`'s screen; what to tell the player."""
    folder = saves.data_dir() / "stills"
    refused = app.policy.still_refused(folder, time.time())
    if refused:
        return str(refused)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = app.save_screenshot(path=str(folder))
    except OSError as exc:
        return f"Cannot save a still in {app.policy.folder_name(folder)}: {exc.strerror or exc}"
    return str(app.policy.keep_stills(folder, Path(path)) or f"Still saved: {path}")
