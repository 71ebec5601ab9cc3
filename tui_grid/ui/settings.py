"""Play settings shared by all screens; injected so tests can fix speed and animation."""

from __future__ import annotations

from dataclasses import dataclass, replace

MIN_SPEED, MAX_SPEED = 1, 9
#: Seconds per animation frame (one tile of a slide, one half-turn...) at each speed.
FRAME_SECONDS = {1: 0.25, 2: 0.16, 3: 0.11, 4: 0.075, 5: 0.05, 6: 0.035, 7: 0.022, 8: 0.012, 9: 0.006}
#: Seconds between moves while watching, at each speed.
WATCH_SECONDS = {1: 1.6, 2: 1.1, 3: 0.8, 4: 0.55, 5: 0.4, 6: 0.28, 7: 0.18, 8: 0.1, 9: 0.05}
#: Multiplies a real-time game's tick at each speed (5 is the game's own pace).
TICK_FACTOR = {1: 3.0, 2: 2.2, 3: 1.6, 4: 1.25, 5: 1.0, 6: 0.75, 7: 0.5, 8: 0.3, 9: 0.12}
#: Longest a single move's animation may take, so 1000-tile slides stay snappy.
MAX_FRAMES_PER_MOVE = 24


@dataclass(frozen=True)
class Settings:
    speed: int = 5
    animate: bool = True
    #: Seconds of "3, 2, 1" before a real-time round with a human starts (0: none).
    countdown: int = 3

    def faster(self) -> Settings:
        return replace(self, speed=min(MAX_SPEED, self.speed + 1))

    def slower(self) -> Settings:
        return replace(self, speed=max(MIN_SPEED, self.speed - 1))

    def at_limit(self, change: int) -> str:
        """What + or - says at the end of the scale, where it changes nothing and must not
        be silent; "" when the speed can still change that way."""
        if change > 0 and self.speed >= MAX_SPEED:
            return f"Fastest already: speed {MAX_SPEED}."
        if change < 0 and self.speed <= MIN_SPEED:
            return f"Slowest already: speed {MIN_SPEED}."
        return ""

    @property
    def frame_seconds(self) -> float:
        return FRAME_SECONDS[self.speed]

    @property
    def watch_seconds(self) -> float:
        return WATCH_SECONDS[self.speed]

    def tick(self, game_tick: float) -> float:
        """Seconds per tick of a real-time game whose own tick is `game_tick`, at this speed."""
        return game_tick * TICK_FACTOR[self.speed]


def thin_frames(frames: list, limit: int = MAX_FRAMES_PER_MOVE) -> list:
    """Keep at most `limit` frames, evenly spaced, always ending on the last one."""
    if len(frames) <= limit:
        return list(frames)
    step = len(frames) / limit
    return [frames[min(len(frames) - 1, int((i + 1) * step) - 1)] for i in range(limit)]
