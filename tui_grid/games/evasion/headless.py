"""Headless Evasion: bot against bot on a session played by the core driver, and matches.

`run_match` is what `tui-grid match evasion ...` runs: K games with seeds S, S+1, ...,
a text line per game through `emit`, and a dict whose JSON is the `--json` last line.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from typing import Callable

from tui_grid.core.agents import FunctionAgent
from tui_grid.core.headless import play_out
from tui_grid.core.live import LiveMatch
from tui_grid.core.session import Change, Session
from tui_grid.games.evasion.ai import Policy, make_policy
from tui_grid.games.evasion.engine import EvasionEngine, State
from tui_grid.games.evasion.rules import DEFAULT_MAX_STEPS, Config



@dataclass(frozen=True)
class GameResult:
    caught: bool
    steps: int  # the catch step, or the steps played when the limit ended it
    walls_built: int
    final: State

    @property
    def catch_steps(self) -> int | None:
        return self.steps if self.caught else None


def play_game(engine: EvasionEngine, hunter: Policy, prey: Policy) -> GameResult:
    """Play to the end as a one-round match, through the table and round conductor every
    front end uses (core.headless); the engine's config must have max_steps (else it may
    never end)."""
    agents = [FunctionAgent(lambda ask: hunter(ask.engine, ask.state), "hunter"), FunctionAgent(lambda ask: prey(ask.engine, ask.state), "prey")]
    feed: LiveMatch[State, object] = LiveMatch(lambda index: engine, agents, 1, names=["hunter", "prey"], timeout=None,
                                               step_seconds=0.0)
    session = feed.session
    built = [0]

    def count(_: Session[State, object], change: Change[State]) -> None:
        built[0] += sum(1 for event in change.events if event.kind == "built")

    feed.subscribe(count)
    play_out(feed)
    state = session.state
    caught = state.caught_at is not None
    return GameResult(caught, state.caught_at if caught else state.tick, built[0], state)


def run_match(
    hunter: str = "builtin",
    prey: str = "builtin",
    n: int = 10,
    m: int = 5,
    games: int = 1,
    seed: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    config: Config | None = None,
    emit: Callable[[str], None] | None = None,
) -> dict[str, object]:
    """Play `games` games of the two bots; returns {"catch_steps": [...] (None: not caught),
    "median", "hunter", "prey", "n", "m", "games", "caught", "seed"}."""
    base = config or Config()
    engine = EvasionEngine(replace(base, n=n, m=m, max_steps=max_steps))
    results: list[int | None] = []
    for game in range(games):
        game_seed = seed + game
        result = play_game(engine, make_policy("hunter", hunter, game_seed), make_policy("prey", prey, game_seed))
        results.append(result.catch_steps)
        if emit is not None:
            how = f"caught at step {result.steps}" if result.caught else f"not caught in {result.steps} steps"
            emit(f"game {game + 1}/{games} seed {game_seed}: {hunter} hunter vs {prey} prey, N={n} M={m}: {how}, {result.walls_built} walls built")
    # Uncaught games count as the step limit for the median (the score is capped there).
    scored = [steps if steps is not None else max_steps for steps in results]
    return {
        "catch_steps": results,
        "median": statistics.median(scored) if scored else None,
        "caught": sum(steps is not None for steps in results),
        "games": games,
        "hunter": hunter,
        "prey": prey,
        "n": n,
        "m": m,
        "seed": seed,
    }
