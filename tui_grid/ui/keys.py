"""Keymaps: the common actions every game shares (after Tatham's puzzles) plus each game's
own keys, declared once per game. The key bar, the help screen and the bindings are all
generated from the active keymap, so they cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.binding import Binding


@dataclass(frozen=True)
class Key:
    """One entry of a keymap. `keys` are Textual key names, comma-separated; `common`
    names the common action it belongs to (hidden when the session does not offer it)."""

    keys: str
    action: str
    label: str
    help: str
    display: str = ""
    show: bool = True
    common: str = ""
    #: Whose key it is in a match: a seat (or keyset) a human presses it for, ANY_HUMAN, or
    #: None (everyone's). The key bar leaves out keys no human at the board would press.
    seat: int | None = None

    @property
    def key_list(self) -> tuple[str, ...]:
        return tuple(key.strip() for key in self.keys.split(","))

    @property
    def shown_keys(self) -> str:
        """Every key, for the help screen."""
        return self.display or ", ".join(_pretty(key) for key in self.key_list)

    @property
    def bar_key(self) -> str:
        """The one key the key bar shows."""
        return self.display or _pretty(self.key_list[0])


def _pretty(key: str) -> str:
    return {"question_mark": "?", "escape": "esc", "equals_sign": "=", "plus": "+", "minus": "-", "full_stop": ".", "enter": "enter"}.get(key, key)


ANY_HUMAN = -1

#: The common actions, in key-bar order. A game lists the ones it supports.
COMMON: dict[str, Key] = {
    key.common: key
    for key in (
        Key("u,ctrl+z", "undo", "Undo", "undo (a solve is one step, a watched move one each)", common="undo"),
        Key("y,ctrl+y", "redo", "Redo", "redo", common="redo"),
        Key("r,ctrl+r", "restart", "Restart", "restart this board (undoable)", common="restart"),
        Key("n", "new", "New", "new random board: choose its options, or paste a game id", common="new"),
        Key("h", "hint", "Hint", "hint: mark the next good move", common="hint"),
        Key("s", "solve", "Solve", "solve: play the solver's answer from here, animated, as one undo step", common="solve"),
        Key("w", "watch", "Watch", "watch the solver play move by move (w again stops)", common="watch"),
        Key("space", "pause", "Pause", "pause or resume watching or a running animation", show=False, common="pause"),
        Key("full_stop", "skip", "Skip", "skip the running animation to its end; in a paused watch, play one move", display=".", show=False, common="skip"),
        Key("full_stop", "step", "Step", "while paused: play one tick", display=".", show=False, common="step"),
        Key("enter", "next_round", "Next", "after a round: play the next one (seats swap)", display="enter", show=False, common="next"),
        Key("m", "rematch", "Rematch", "after an online match: offer the other player a rematch (seats swap), or take theirs", common="rematch"),
        Key("plus,equals_sign", "speed(1)", "Faster", "faster animation and watching", display="+", show=False, common="faster"),
        Key("minus", "speed(-1)", "Slower", "slower animation and watching", display="-", show=False, common="slower"),
        Key("z", "zoom", "Zoom", "zoom: huge, large, wide or narrow cells, half blocks, whole board (a board larger than the screen scrolls with the play)", show=False, common="zoom"),
        Key("c", "coords", "Coords", "show or hide row and column numbers (messages name cells by them)", show=False, common="coords"),
        Key("ctrl+s", "save", "Save", "save the game in progress to a file (resume with tui-grid play GAME FILE)", show=False, common="save"),
        Key("f12", "still", "Still", "save what the screen shows now as an SVG picture (in the data folder's stills/)", show=False, common="still"),
        Key("question_mark,f1", "help", "Help", "this help", display="?", common="help"),
        Key("escape", "back", "Back", "stop a solve, a watch or an animation; else back to the boards", display="esc", common="back"),
        Key("q,ctrl+c", "quit", "Quit", "quit (a game in progress is saved and offered again)", display="q", common="quit"),
    )
}

#: A solo puzzle's common keys; a real-time match uses MATCH_COMMON instead.
PUZZLE_COMMON = tuple(name for name in COMMON if name not in ("step", "next", "rematch"))
MATCH_COMMON = ("hint", "pause", "step", "next", "rematch", "faster", "slower", "zoom", "still", "help", "back", "quit")


@dataclass(frozen=True)
class Keymap:
    keys: tuple[Key, ...]

    def bindings(self) -> list[Binding]:
        out: list[Binding] = []
        for key in self.keys:
            for index, name in enumerate(key.key_list):
                out.append(Binding(name, key.action, key.label, show=key.show and index == 0, key_display=key.display or None))
        return out

    def collisions(self) -> list[str]:
        """Keys bound to more than one action."""
        seen: dict[str, str] = {}
        clashes = []
        for key in self.keys:
            for name in key.key_list:
                if name in seen and seen[name] != key.action:
                    clashes.append(f"{name}: {seen[name]} and {key.action}")
                seen.setdefault(name, key.action)
        return clashes

    def action_of(self, key_name: str) -> str | None:
        for key in self.keys:
            if key_name in key.key_list:
                return key.action
        return None


def keymap(own: tuple[Key, ...], common: tuple[str, ...] = PUZZLE_COMMON) -> Keymap:
    """A game's keymap: its own keys first, then the common actions it supports."""
    return Keymap(tuple(own) + tuple(COMMON[name] for name in common))


def arrow_moves(encode: dict[str, str], label: str = "Move", help_text: str = "move") -> tuple[Key, ...]:
    """Arrow keys bound to `act('<action text>')`; `encode` maps up/down/left/right to the
    game's action encoding. The first one carries the key bar's ←↑↓→ entry."""
    keys = []
    for index, name in enumerate(("up", "down", "left", "right")):
        keys.append(
            Key(name, f"act({encode[name]!r})", label if index == 0 else f"{label} {name}", help_text, display="←↑↓→" if index == 0 else "", show=index == 0)
        )
    return tuple(keys)


#: The common keys' help, as it reads in a real-time match.
MATCH_HELP = {
    "hint": "hint: mark where the strongest bot would go for your seat",
    "faster": "faster clock",
    "slower": "slower clock",
    "quit": "quit (a match is not saved)",
    "back": "back to the boards",
}


def match_keymap(own: tuple[Key, ...], help: dict[str, str] | None = None) -> Keymap:
    """A match's keymap; `help` overrides the common keys' help for this game."""
    texts = {**MATCH_HELP, **(help or {})}
    base = keymap(own, MATCH_COMMON)
    return Keymap(tuple(replace(key, help=texts.get(key.common, key.help)) for key in base.keys))
