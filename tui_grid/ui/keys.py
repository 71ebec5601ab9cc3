"""The one keymap every game shares, so the footer, the help screen and tests agree."""

from __future__ import annotations

from textual.binding import Binding

GAME_BINDINGS: list[Binding] = [
    Binding("up", "move('u')", "Move", key_display="←↑↓→", tooltip="Move with the arrow keys"),
    Binding("down", "move('d')", "Move down", show=False),
    Binding("left", "move('l')", "Move left", show=False),
    Binding("right", "move('r')", "Move right", show=False),
    Binding("u", "undo", "Undo"),
    Binding("ctrl+z", "undo", "Undo", show=False),
    Binding("y", "redo", "Redo"),
    Binding("ctrl+y", "redo", "Redo", show=False),
    Binding("r", "restart", "Restart"),
    Binding("n", "new", "New"),
    Binding("h", "hint", "Hint"),
    Binding("s", "solve", "Solve"),
    Binding("w", "watch", "Watch"),
    Binding("space", "pause", "Pause", show=False),
    Binding("plus,equals_sign", "speed(1)", "Faster", key_display="+", show=False),
    Binding("minus", "speed(-1)", "Slower", key_display="-", show=False),
    Binding("z", "zoom", "Zoom", show=False),
    Binding("question_mark,f1", "help", "Help", key_display="?"),
    Binding("escape", "back", "Back", key_display="esc"),
    Binding("q", "quit", "Quit"),
]

#: (keys, what they do) rows for every help screen, in keymap order.
KEY_HELP: list[tuple[str, str]] = [
    ("← ↑ ↓ →", "move"),
    ("u, ctrl+z", "undo (solve and watch are undoable too)"),
    ("y, ctrl+y", "redo"),
    ("r", "restart this board (undoable)"),
    ("n", "new random board: pick size and options, or paste a game id"),
    ("h", "hint: mark the next good move"),
    ("s", "solve: play the solver's answer from here, animated, as one undo step"),
    ("w", "watch the solver play move by move (w again stops)"),
    ("space", "pause or resume watching"),
    ("+ / -", "faster / slower animation and watching"),
    ("z", "zoom: wide cells, narrow cells, half blocks"),
    ("?, f1", "this help"),
    ("esc", "cancel a running solve, else back to the boards"),
    ("q", "quit"),
]
