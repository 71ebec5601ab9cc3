"""tui_grid: a terminal collection of grid games with real solvers."""

__version__ = "0.1.0"
