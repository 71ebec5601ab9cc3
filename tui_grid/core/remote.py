"""Whether this app serves a stranger (`tui-grid serve ssh` sets TUI_GRID_REMOTE=1 for each
session's process): then nothing can start a program or name a file path on the server."""

from __future__ import annotations

import os


def remote_session() -> bool:
    return bool(os.environ.get("TUI_GRID_REMOTE"))
