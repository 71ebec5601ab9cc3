"""The one error type for bad input, so the CLI and the TUI can report it in one line."""

from __future__ import annotations

import errno

from tui_grid.core.text import echo


class BoardError(ValueError):
    """Bad board input, located by source name, 1-based line and 1-based column."""

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return one_line(f"{self.source}:{self.line}:{self.column}: {self.message}")


class UsageError(ValueError):
    """Bad arguments that are not tied to a file position (unknown board name, bad size...)."""

    def __str__(self) -> str:
        return one_line(super().__str__())


def listen_error(host: str, port: int, exc: OSError) -> UsageError:
    """Why a server cannot listen on `host`:`port`, in one line; a busy port is the usual
    case, and its cure is another --port."""
    if exc.errno == errno.EADDRINUSE:
        return UsageError(f"port {port} is in use: choose another with --port")
    return UsageError(f"cannot listen on {echo(host)}:{port}: {exc.strerror or exc}")


def one_line(text: str) -> str:
    """Every error is one line, whatever the user typed into a name or an id."""
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\f", "\\f").replace("\v", "\\v")
