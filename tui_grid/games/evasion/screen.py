"""The Evasion screen: the shared match shell plus a 300x300 board drawn fast, wall keys for
whoever hunts and movement keys for whoever flees.

Keys belong to the roles, not to participants: the roles swap between rounds, and the
person on the wall keys hunts in whichever seat hunts (one human plays both roles over a
match; two humans share the keyboard and change hands when the roles swap).

`ServedEvasionScreen` shows a game the architect (server.py) plays with TCP clients: the
server runs in a thread, the screen shows its states and feeds the human seats.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Event
from tui_grid.core.geometry import Pos
from tui_grid.core.live import MatchFeed
from tui_grid.core.outcome import Failure, Fault
from tui_grid.core.session import Session
from tui_grid.games.evasion.engine import (
    HUNTER,
    PREY,
    SEATS,
    EvasionEngine,
    HunterAction,
    PreyAction,
    State,
)
from tui_grid.games.evasion.rules import Config, Wall
from tui_grid.games.evasion.view import EvasionBoardView
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui.board_view import BoardView, Zoom
from tui_grid.ui.confirm_dialog import ConfirmDialog
from tui_grid.ui.keys import ANY_HUMAN, Key
from tui_grid.ui.match_screen import MatchScreen, match_keymap
from tui_grid.ui.plain import tell
from tui_grid.ui.settings import Settings

NOTE_SECONDS = 4.0

#: Prey moves: (keys, dx, dy, name). The block w e r / s d f / x c v mirrors the eight
#: directions around d (stay); digits follow a numeric keypad; arrows move straight.
PREY_KEYS = (
    ("w,7", -1, -1, "up-left"),
    ("e,8,up", 0, -1, "up"),
    ("r,9", 1, -1, "up-right"),
    ("s,4,left", -1, 0, "left"),
    ("d,5", 0, 0, "stay"),
    ("f,6,right", 1, 0, "right"),
    ("x,1", -1, 1, "down-left"),
    ("c,2,down", 0, 1, "down"),
    ("v,3", 1, 1, "down-right"),
)
DIRECTION_NAMES = {(dx, dy): name for _, dx, dy, name in PREY_KEYS}
PREY_KEY_OF = {(dx, dy): keys.split(",")[0] for keys, dx, dy, _ in PREY_KEYS}

OWN_KEYS = (
    Key("j", "wall('h')", "H-wall", "hunter: build a horizontal wall through H (it extends to the nearest obstacles)", seat=HUNTER),
    Key("k", "wall('v')", "V-wall", "hunter: build a vertical wall through H (it extends to the nearest obstacles)", seat=HUNTER),
    Key("tab", "select_wall", "Select", "hunter: select the next wall (shown ▒)", display="tab", seat=HUNTER),
    Key("backspace,delete", "remove_wall", "Remove", "hunter: remove the selected wall", display="⌫", seat=HUNTER),
    Key("n", "setup", "New", "new match: choose who plays each side (a human or a bot; two bots to watch) and the rounds"),
    Key("g", "concede", "Concede", "give up this round (y confirms): your seat loses it, and the next round swaps the roles", seat=ANY_HUMAN),
) + tuple(
    Key(keys, f"flee({dx},{dy})", "Prey" if index == 0 else f"Prey {name}",
        "prey: move (w e r / s d f / x c v around d = stay, or the digits of a keypad, or the arrows); it keeps going",
        display="wer/sdf/xcv" if index == 0 else "", show=index == 0, seat=PREY)
    for index, (keys, dx, dy, name) in enumerate(PREY_KEYS)
)


class EvasionScreen(MatchScreen[State]):
    KEYMAP = match_keymap(OWN_KEYS, {"hint": "hint: say what the builtin bot would do in your seat, and its key"})

    def __init__(
        self,
        game: GameDefinition,
        loaded: LoadedBoard,
        settings: Settings | None = None,
        players: Sequence[str] | None = None,
        rounds: int = 2,
        *,
        feed: MatchFeed[State, Any] | None = None,
    ) -> None:
        """`feed`: a match played elsewhere to show (the architect's); else a local one."""
        self._selected: Wall | None = None
        self._note = ""
        self._note_until = 0.0
        super().__init__(game, loaded, settings, players, rounds, feed=feed)

    def make_board_view(self) -> BoardView:
        return EvasionBoardView()

    def on_mount(self) -> None:
        # The shell's on_mount runs too: Textual calls the handler of every class in the MRO.
        self.view.zoom_choice = Zoom.WHOLE

    @property
    def config(self) -> Config:
        return self.engine.config  # type: ignore[attr-defined]

    def grid_size(self) -> tuple[int, int]:
        return self.config.width, self.config.height

    # --- who is who -------------------------------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        return self.session.agents[seat].human

    def seat_name(self, seat: int) -> str:
        participant = self.match.seating[seat]
        assert self.feed is not None
        return self.feed.seat_label(participant) or self.match.score.names[participant]

    def round_label(self) -> str:
        index = min(self.match.round_index + (0 if self.session.over else 1), self.rounds)
        return f"round {max(1, index)}/{self.rounds}"

    # --- drawing hooks -------------------------------------------------------------------------------
    def redraw(self) -> None:
        super().redraw()
        self.query_one("#title").update(self.title_text())

    def title_text(self) -> str:
        assert self.feed is not None
        where = self.feed.describe() or f"{self.loaded.title} · {self.round_label()}"
        return f"Evasion {where} · H {self.seat_name(HUNTER)} · P {self.seat_name(PREY)}"

    def status_text(self, state: State) -> str:
        """The most useful parts first, and at 80 columns only what fits: the line is cut
        at the terminal's edge, and the distance must not be what falls off."""
        engine = self.engine
        wait = engine.build_wait(state)  # type: ignore[attr-defined]
        (hx, hy), (px, py) = state.hunter, state.prey
        outcome = engine.outcome(state)
        # (text, rank): the lowest ranks go first when the line is too long.
        parts = [
            (self.pointer(state), 9),
            (f"step {state.tick}", 9),
            ("PAUSED" if self.paused and not self.counting_down else "", 9),  # between rounds too: the next one waits
            (f"next wall {'now' if wait == 0 else f'in {wait}'}", 8),
            (f"walls {len(state.walls)}/{self.config.m}", 7),
            (f"dist {math.hypot(px - hx, py - hy):.0f}", 6),  # the pointer, when shown, says more
            (f"N={self.config.n}", 2),
            (self.game.describe_outcome(outcome) if outcome.over else "", 1),  # the message says it too
        ]
        return fit([(text, rank) for text, rank in parts if text], self.status_room())

    def on_resize(self) -> None:
        """The status line fits the new width now, not at the next step (paused, none comes)."""
        if self.feed is not None:
            self.show_status()

    def status_room(self) -> int:
        """Columns the status text may take: the screen's, less the padding and what the
        shell adds after it (the speed; the game id is in the title)."""
        if not self.is_mounted or self.size.width <= 0:
            return 10_000
        return self.size.width - 2 - len(f"  ·  speed {self.settings.speed}")

    def pointer(self, state: State) -> str:
        """Where the other player is when the full-size view has scrolled it off screen:
        a direction and how far across and down, e.g. `P ↘ 120,40 off screen`."""
        focus = self.focus_of(state)
        other_x, other_y = state.hunter if (focus.col, focus.row) == tuple(state.prey) else state.prey
        if not self.is_mounted or self.view.is_visible(Pos(other_y, other_x)):
            return ""
        dx, dy = other_x - focus.col, other_y - focus.row
        arrow = {(0, -1): "↑", (0, 1): "↓", (-1, 0): "←", (1, 0): "→", (1, 1): "↘", (1, -1): "↗", (-1, 1): "↙", (-1, -1): "↖"}
        sign = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
        letter = "H" if (other_x, other_y) == tuple(state.hunter) else "P"
        return f"{letter} {arrow.get(sign, '·')} {abs(dx)},{abs(dy)} off screen"

    def focus_of(self, state: State) -> Pos:
        seat = PREY if self.is_human(PREY) and not self.is_human(HUNTER) else HUNTER
        x, y = state.prey if seat == PREY else state.hunter
        return Pos(y, x)

    def legend(self) -> str:
        return "H hunter ↘ its heading  P prey  █ wall  ▒ selected wall  · z: full size"

    def show_status(self) -> None:
        if not self.message and self._note and time.monotonic() < self._note_until:
            self.message = self._note
        super().show_status()

    def note(self, text: str) -> None:
        """A message that stays a few seconds although the board moves on."""
        self._note = text
        self._note_until = time.monotonic() + NOTE_SECONDS
        self.say(text)

    def selected_wall(self) -> Wall | None:
        wall = self._selected
        if wall is not None and wall not in self.shown.walls:
            self._selected = wall = None
        return wall

    def selection(self) -> Wall | None:
        return self.selected_wall()

    def session_changed(self, session: Session[State, Any], change: Any) -> None:
        try:
            super().session_changed(session, change)
            if change.kind == "step":
                self._tell(change.events)
        except Exception as exc:  # drawing must never take the app down
            tell(self, f"{type(exc).__name__}: {exc}", title="Evasion", severity="error")

    def _tell(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "refused":
                who = "your" if self.is_human(HUNTER) else f"{self.seat_name(HUNTER)}'s"
                self.note(f"Refused {who} wall: {event.text}")
            elif event.kind == "built" and self.is_human(HUNTER):
                self.note(event.text[:1].upper() + event.text[1:] + ".")  # "Wall 0 95 299 95 built."

    # --- what the driver did ----------------------------------------------------------------------------
    def round_over(self) -> None:
        session = self.session
        result = self.match.score.rounds[-1]
        state = session.state
        name = self.match.score.names[result.seating[HUNTER]]
        if state.caught_at is not None:
            what = f"{name} caught the prey at step {state.caught_at}"
        elif state.forfeit is not None and state.forfeit[1].fault is Fault.CONCEDED:
            who = self.match.score.names[result.seating[state.forfeit[0]]]
            what = f"Round {result.index + 1}: {self.game.describe_outcome(session.outcome)} by {who} at step {state.tick}"
        else:
            what = f"{self.game.describe_outcome(session.outcome)} (step {state.tick})"
        what = what[:1].upper() + what[1:]  # "you caught" starts the line
        summary = self.game.match_summary(self.match.score)
        if self.match.finished:
            _, verdict = self.game.match_verdict(self.match.score)
            self.say(f"{what}. {verdict} esc goes back.")  # the verdict may run past 2 lines
        elif not self.steerable:  # online: the server starts the next round and says when
            self.say(f"{what}. So far: {summary}. Round {result.index + 2} swaps the roles.")
        else:
            self.say(f"{what}. So far: {summary}. enter plays round {result.index + 2}: the roles swap.")
        self.query_one("#title").update(self.title_text())

    def action_next_round(self) -> None:
        if self.feed is not None and self.feed.advances and not self.session.over:
            # The shell says so too, but the next step would wipe it at once: the note stays.
            self.note("The round is still on.")
            return
        self._selected = None
        super().action_next_round()
        self.query_one("#title").update(self.title_text())

    def action_pause(self) -> None:
        """As the shell, but a round's verdict stays: the clock resumes after a concede's
        question (and on space between rounds), and the shell's resume would wipe it."""
        verdict = self.message if self.feed is not None and self.session.over else ""
        if self.paused:
            self._note = ""  # resuming: "Paused: ..." goes with the pause
        super().action_pause()
        if verdict:
            self.say(verdict)
        else:
            self.show_status()  # PAUSED in the status, or no longer

    def action_step(self) -> None:
        """One tick, and the round stays paused: say so, or the stopped clock looks hung."""
        super().action_step()
        if self.feed is not None and self.steerable and not self.session.over:
            self.note("Paused: . plays one tick, space resumes.")

    # --- keys -----------------------------------------------------------------------------------------
    def _can_play(self, seat: int) -> bool:
        if self.session.over:
            # A toast: the round's verdict stays on screen until the next round starts.
            tell(self, f"The round is over. {'enter plays the next one.' if not self.match.finished else 'esc goes back.'}", timeout=3)
            return False
        if not self.is_human(seat):
            self.say(f"The {SEATS[seat]} is played by {self.seat_name(seat)} this round: your keys are the {SEATS[1 - seat]}'s.")
            return False
        return True

    def submit_hunter(self, build: str | Wall | None = None, remove: tuple[Wall, ...] = ()) -> None:
        """A hunter request for its next step (merged with one queued: EvasionEngine.queue_action)."""
        self.session.submit(HUNTER, HunterAction(build, remove))

    def action_wall(self, kind: str) -> None:
        if not self._can_play(HUNTER):
            return
        self.submit_hunter(build=kind)
        self.say(f"{'Horizontal' if kind == 'h' else 'Vertical'} wall requested for step {self.state.tick + 1}.")

    def action_select_wall(self) -> None:
        if not self._can_play(HUNTER):
            return
        walls = self.state.walls
        if not walls:
            self.say("No walls to select.")
            return
        current = self.selected_wall()
        index = (walls.index(current) + 1) % len(walls) if current is not None else 0
        self._selected = walls[index]
        self.say(f"Selected wall {index + 1}/{len(walls)}: {walls[index].text()}. ⌫ removes it.")

    def action_remove_wall(self) -> None:
        if not self._can_play(HUNTER):
            return
        wall = self.selected_wall()
        if wall is None:
            self.say("Select a wall with tab first.")
            return
        self.submit_hunter(remove=(wall,))
        self._selected = None
        self.say(f"Removing wall {wall.text()} at step {self.state.tick + 1}.")

    def action_setup(self) -> None:
        """Open the new-match dialog; the clock stops while it is open."""
        from tui_grid.games.evasion.setup_dialog import EvasionSetup, EvasionSetupDialog

        if not self.runs_match:
            self.say("This match is run by its server (the architect or the lobby): its players are set there.")
            return
        setup = EvasionSetup((self.players[0], self.players[1]), self.rounds)

        def chosen(new: EvasionSetup | None) -> None:
            if new is not None:
                self.new_match(new.players, new.rounds, self.loaded)
                self.start_clock()

        self.push_holding_clock(EvasionSetupDialog(setup, self.loaded.title, self.game), chosen)

    def action_concede(self) -> None:
        """A human gives the round up (the hunter's seat if a human hunts, else the prey's)."""
        seats = [seat for seat in (HUNTER, PREY) if self.is_human(seat)]
        if not seats:
            self.say("No human plays this round: nothing to concede.")
            return
        if self.session.over:
            tell(self, "The round is over already.", timeout=3)
            return
        seat = seats[0]
        role = "hunter" if seat == HUNTER else "prey"

        def answered(yes: bool) -> None:
            if yes and not self.session.over and self.is_human(seat):
                self.session.forfeit(seat, Failure(Fault.CONCEDED))

        # One key next to the hint's must not end a long round by a slip.
        question = ConfirmDialog("Concede this round?", f"Your {role} loses it at step {self.state.tick}.", yes="concede", no="play on")
        self.push_holding_clock(question, answered)

    def action_flee(self, dx: int, dy: int) -> None:
        """The prey's order: queued for its next move step (it moves on even steps)."""
        if self._can_play(PREY):
            self.session.submit(PREY, PreyAction((dx, dy)))

    def action_hint(self) -> None:
        """What the builtin bots would do in the human seats, planned in a worker."""
        if self.session.over:
            tell(self, "The round is over.", timeout=3)
            return
        state = self.state
        seats = [seat for seat in (HUNTER, PREY) if self.is_human(seat)]

        def plan(control: SearchControl) -> str:
            return "Hint: " + "; ".join(hint_text(self.engine, state, seat, self.table.plan(state, control, seat).actions[0]) for seat in seats)  # type: ignore[arg-type]

        self.run_in_worker("Hint", plan, self.note)


def hint_text(engine: EvasionEngine, state: State, seat: int, action: Any) -> str:
    """A bot's action for `seat`, in words and keys."""
    if seat == HUNTER:
        parts = [f"remove wall {state.walls[r].text() if isinstance(r, int) else r.text()} (tab, ⌫)" for r in action.remove]
        if action.build is not None:
            parts.append("build a horizontal wall now (j)" if action.build == "h" else "build a vertical wall now (k)")
        wait = engine.build_wait(state)
        return "hunter: " + (", ".join(parts) if parts else f"no wall yet (wall {'ready' if wait == 0 else f'in {wait}'})")
    velocity = action.velocity or state.prey_velocity
    if velocity == (0, 0):
        return f"prey: stay where you are ({PREY_KEY_OF[velocity]})"
    return f"prey: go {DIRECTION_NAMES[velocity]} ({PREY_KEY_OF[velocity]})"


def fit(parts: list[tuple[str, int]], room: int) -> str:
    """The parts joined with ` · `, dropping the lowest ranked (the last of equals) until
    the line fits in `room` columns; the order stays."""
    parts = list(parts)
    while len(parts) > 1 and len(" · ".join(text for text, _ in parts)) > room:
        lowest = min(rank for _, rank in parts)
        drop = max(index for index, (_, rank) in enumerate(parts) if rank == lowest)
        del parts[drop]
    return " · ".join(text for text, _ in parts)
