"""Bunny's keymap: the program editor's keys, then the common ones it offers. `r` is the R
token here, so the common restart moves to ctrl+r."""

from __future__ import annotations

from tui_grid.ui.keys import Key

OWN_KEYS = (
    Key("f", "token('F')", "Token", "insert a token: f hop forward (F), l turn left (L), r turn right (R)", display="f l r"),
    Key("l", "token('L')", "Token L", "insert a token: f hop forward (F), l turn left (L), r turn right (R)", display="f l r", show=False),
    Key("r", "token('R')", "Token R", "insert a token: f hop forward (F), l turn left (L), r turn right (R)", display="f l r", show=False),
    Key("left_square_bracket", "open_loop", "Loop", "open a loop; digits then set its count (none: forever)", display="["),
    *(
        Key(str(d), f"digit({d})", "Count", "type the count of the loop the cursor is in (or of the loop just closed)", display="0-9", show=False)
        for d in range(10)
    ),
    Key("right_square_bracket", "close_loop", "Close", "close the loop: the cursor steps out of it", display="]"),
    Key("backspace", "backspace", "Delete", "delete before the cursor (a count's digit, a token; a LOOP keeps its body)", display="⌫"),
    Key("delete", "delete", "Delete after", "delete after the cursor", display="del", show=False),
    Key("left", "cursor(-1)", "Cursor", "move the cursor through the program", display="◀▶"),
    Key("right", "cursor(1)", "Cursor right", "move the cursor through the program", display="◀▶", show=False),
    Key("home", "home", "Start/end", "cursor to the start / end of the program", display="home end", show=False),
    Key("end", "end", "End", "cursor to the start / end of the program", display="home end", show=False),
    Key("enter", "run", "Run", "run the program from S, animated (after a complete run too: try a shorter one)", display="enter"),
    Key("full_stop", "step_token", "Step", "step: execute one more token (the last step records the run)", display="."),
    Key("ctrl+r", "restart", "Restart", "restart: an empty program on the board before any run (u brings your program back); r is the R token", show=False, common="restart"),
)

COMMON_KEYS = ("undo", "redo", "new", "hint", "solve", "watch", "pause", "faster", "slower", "zoom", "save", "still", "help", "back", "quit")
