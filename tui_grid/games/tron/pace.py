"""How long Tron's players may think in the app, where a tick is a fraction of a second:
a builtin bot within the tick, a program a fixed deadline; and the warning when a program
keeps the clock waiting."""

from __future__ import annotations

from collections.abc import Sequence

from tui_grid.core.players import Roster, is_program, parse_player

#: Seconds an external program may take per move in the app, whatever the tick.
PROGRAM_TIMEOUT = 2.0
#: Seconds a builtin bot may run over its thinking time before its seat drives straight on.
BOT_SLACK = 0.5
#: A move this many ticks long is slow enough to say so.
SLOW_TICKS = 1.5


def bot_budget_ms(time_ms: int, tick: float) -> float:
    """A builtin bot's thinking time: the setup's `time_ms`, but no more than most of a
    tick (and never under 10 ms)."""
    return max(10.0, min(float(time_ms), tick * 600))


def agent_timeout(game: Roster, players: Sequence[str], tick: float, budget_ms: float) -> float:
    """Seconds each seat has per move: a program PROGRAM_TIMEOUT, and it forfeits when late;
    a builtin bot its thinking time and some slack, after which its seat drives straight on.
    Never less than a tick."""
    if any(is_program(game, player) for player in players):
        return max(tick, PROGRAM_TIMEOUT)
    return max(tick, BOT_SLACK + budget_ms / 1000)


class SlowProgramWarning:
    """A program started afresh every move can take longer than a tick, and the clock waits
    for it: said once a match, with what to do about it."""

    def __init__(self, game: Roster) -> None:
        self.game = game
        self.said = False  # reset for each new match

    def check(self, ask_seconds: float, tick: float, players: Sequence[str]) -> str | None:
        """The warning, the first time the last move's wait (`ask_seconds`) is slow and a
        one-shot program plays; else None."""
        if self.said or ask_seconds <= SLOW_TICKS * tick:
            return None
        if not any(parse_player(self.game, player).kind == "oneshot" for player in players):
            return None
        self.said = True
        return (f"A move took {ask_seconds:.2g} s against a {tick:.2g} s tick: the clock waits for the "
                f"program, which starts a new process every move. Seat it as 'program (one run per round)' to keep the pace.")
