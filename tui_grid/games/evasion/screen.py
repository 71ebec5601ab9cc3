"""The Evasion screen: the shared match shell plus a 300x300 board drawn fast, wall keys for
whoever hunts and movement keys for whoever flees (role_keys), a status line cut to the
width (status_line), and notes that outlive a step (transient_note).

A match played elsewhere shows here too, given as `feed`: the architect's (server.py),
whose server runs in a thread while this screen shows its states.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Pos
from tui_grid.core.live import MatchFeed
from tui_grid.core.outcome import Failure
from tui_grid.core.session import ChangeKind, Session
from tui_grid.games.evasion.engine import HUNTER, PREY, SEATS, State
from tui_grid.games.evasion.role_keys import PREY_KEYS, RoleKeys
from tui_grid.games.evasion.rules import Config, Wall
from tui_grid.games.evasion.status_line import pointer_text, status_line, status_room
from tui_grid.games.evasion.transient_note import TransientNote
from tui_grid.games.evasion.view import EvasionBoardView
from tui_grid.games.evasion.wall_selection import WallSelection
from tui_grid.games.evasion.wording import event_note, hint_text, round_report
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui.board_view import Zoom
from tui_grid.ui.confirm_dialog import ConfirmDialog
from tui_grid.ui.keys import ANY_HUMAN, Key, match_keymap
from tui_grid.ui.match_screen import MatchScreen
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings

#: How long a note stays on the message line although the board moves on.
NOTE_SECONDS = 4.0

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
    VIEW = EvasionBoardView

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
        super().__init__(game, loaded, settings, players, rounds, feed=feed)
        self.wall_choice = WallSelection()
        self.notes = TransientNote(NOTE_SECONDS)
        self.role_keys = RoleKeys(self, self.wall_choice)


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

    def concede(self, seat: int, failure: Failure) -> None:
        if self.feed is not None:
            self.feed.concede(seat, failure)

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
        self.show_title()

    def show_title(self) -> None:
        self.query_one("#title", Plain).update(self.title_text())

    def title_text(self) -> str:
        assert self.feed is not None
        where = self.feed.describe() or f"{self.loaded.title} · {self.round_label()}"
        return f"Evasion {where} · H {self.seat_name(HUNTER)} · P {self.seat_name(PREY)}"

    def status_text(self, state: State) -> str:
        """At 80 columns only what fits: the line is cut at the terminal's edge, and the
        distance must not be what falls off."""
        focus, outcome = self.focus_of(state), self.engine.outcome(state)
        # Where the other player is when the full-size view has scrolled it off screen.
        pointer = pointer_text(state, (focus.col, focus.row), lambda x, y: self.view.is_visible(Pos(y, x))) if self.is_mounted else ""
        return status_line(
            state, pointer=pointer, paused=self.paused and not self.counting_down,
            wall_wait=self.engine.build_wait(state), max_walls=self.config.m, n=self.config.n,  # type: ignore[attr-defined]
            outcome=self.game.describe_outcome(outcome) if outcome.over else "",
            room=status_room(self.size.width if self.is_mounted else 0, self.settings.speed),
        )

    def on_resize(self) -> None:
        """The status line fits the new width now, not at the next step (paused, none comes)."""
        if self.feed is not None:
            self.show_status()

    def focus_of(self, state: State) -> Pos:
        seat = PREY if self.is_human(PREY) and not self.is_human(HUNTER) else HUNTER
        x, y = state.prey if seat == PREY else state.hunter
        return Pos(y, x)

    def legend(self) -> str:
        return "H hunter ↘ its heading  P prey  █ wall  ▒ selected wall  · z: full size"

    def show_status(self) -> None:
        if not self.message and (note := self.notes.current()):
            self.message = note
        super().show_status()

    def note(self, text: str) -> None:
        """A message that stays a few seconds although the board moves on."""
        self.notes.set(text)
        self.say(text)

    def toast(self, message: str) -> None:
        """Aside for a few seconds: the message line keeps what it says (a round's verdict)."""
        tell(self, message, timeout=3)

    def selected_wall(self) -> Wall | None:
        return self.wall_choice.current(self.shown.walls)

    def selection(self) -> Wall | None:
        return self.selected_wall()

    def session_changed(self, session: Session[State, Any], change: Any) -> None:
        try:
            super().session_changed(session, change)
            if change.kind is ChangeKind.STEP:
                for event in change.events:
                    if text := event_note(event, self.is_human(HUNTER), self.seat_name(HUNTER)):
                        self.note(text)
        except Exception as exc:  # drawing must never take the app down
            tell(self, f"{type(exc).__name__}: {exc}", title="Evasion", severity="error")

    # --- what the driver did ----------------------------------------------------------------------------
    def round_over(self) -> None:
        score = self.match.score
        result = score.rounds[-1]
        verdict = self.game.match_verdict(score)[1] if self.match.finished else None
        self.say(round_report(self.session.state, seating=result.seating, names=score.names, index=result.index,
                              outcome=self.game.describe_outcome(self.session.outcome),
                              summary=self.game.match_summary(score), verdict=verdict, steerable=self.steerable))
        self.show_title()

    def action_next_round(self) -> None:
        if self.feed is not None and self.feed.advances and not self.session.over:
            # The shell says so too, but the next step would wipe it at once: the note stays.
            self.note("The round is still on.")
            return
        self.wall_choice.clear()
        super().action_next_round()
        self.show_title()

    def action_pause(self) -> None:
        """As the shell, but a round's verdict stays: the clock resumes after a concede's
        question (and on space between rounds), and the shell's resume would wipe it."""
        verdict = self.message if self.feed is not None and self.session.over else ""
        if self.paused:
            self.notes.clear()  # resuming: "Paused: ..." goes with the pause
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
    def action_wall(self, kind: str) -> None:
        self.role_keys.build(kind)

    def action_select_wall(self) -> None:
        self.role_keys.select_next()

    def action_remove_wall(self) -> None:
        self.role_keys.remove_selected()

    def action_flee(self, dx: int, dy: int) -> None:
        self.role_keys.flee(dx, dy)

    def action_setup(self) -> None:
        """Open the new-match dialog; the clock stops while it is open."""
        from tui_grid.games.evasion.setup_dialog import ask_new_match

        ask_new_match(self)

    def action_concede(self) -> None:
        """A human gives the round up (the hunter's seat if a human hunts, else the prey's)."""
        seat = self.role_keys.conceding_seat()
        if seat is None:
            return
        # One key next to the hint's must not end a long round by a slip.
        question = ConfirmDialog("Concede this round?", f"Your {SEATS[seat]} loses it at step {self.state.tick}.", yes="concede", no="play on")
        self.push_holding_clock(question, lambda yes: self.role_keys.concede(seat) if yes else None)

    def action_hint(self) -> None:
        """What the builtin bots would do in the human seats, planned in a worker."""
        if self.session.over:
            self.toast("The round is over.")
            return
        state = self.state
        seats = [seat for seat in (HUNTER, PREY) if self.is_human(seat)]

        def plan(control: SearchControl) -> str:
            return "Hint: " + "; ".join(hint_text(self.engine, state, seat, self.table.plan(state, control, seat).actions[0]) for seat in seats)  # type: ignore[arg-type]

        self.run_in_worker("Hint", plan, self.note)
