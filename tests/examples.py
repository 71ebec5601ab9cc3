"""How many examples a property test draws.

The suite draws a share of each test's full count so that it stays within its time budget
on a slow 2-core machine; `TUI_GRID_THOROUGH=1` draws them all (`bench/properties.py` runs
the property tests that way). Every test is derandomized, so both runs are reproducible
and the short run's examples are a prefix-like sample of the thorough one's.
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("TUI_GRID_THOROUGH") == "1"
SHARE = 0.35


def examples(full: int, floor: int = 5) -> int:
    """The full count when thorough, else a share of it (at least `floor`)."""
    return full if THOROUGH else max(floor, round(full * SHARE))
