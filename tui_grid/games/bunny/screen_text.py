"""What Bunny's screen says: the verdict after a run, the counts and hint lines of the
program panel, the hint's next reveal, the best token count known. UI-free, so each is
a pure function of the state, the draft and the solver's answer."""

from __future__ import annotations

from collections.abc import Collection

from tui_grid.core.geometry import Pos
from tui_grid.core.words import plural
from tui_grid.games.bunny.draft import CLOSE, Draft, reveal_text
from tui_grid.games.bunny.engine import BunnyState
from tui_grid.games.bunny.program import Program
from tui_grid.games.bunny.solver import Solution

#: What enter and `.` say when the editor holds no token to run.
TYPE_FIRST = "Type a program first: f l r insert tokens, [ ] make a loop."


def unreachable_notice(cut_off: Collection[Pos]) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    """A board with squares no hop reaches opens saying so, those squares marked (the
    cells returned): it must not look as if it could be won. None for a winnable board."""
    if not cut_off:
        return None
    cells = tuple(sorted((pos.row, pos.col) for pos in cut_off))
    return f"No program can complete this board: {plural(len(cells), 'square')} cannot be reached from S (marked).", cells


def no_program_text(solution: Solution) -> str:
    """What hint and solve say when the solver found that no program completes the board."""
    return solution.message or "No program completes this board."


def best_tokens(solution: Solution | None, published: int | None) -> int | None:
    """The fewest tokens known to complete the board: a proven optimum, else the smaller
    of the solver's program and the board's published count."""
    if solution is None or solution.tokens is None:
        return published
    if solution.proven_optimal or published is None:
        return solution.tokens
    return min(published, solution.tokens)


def after_run_text(state: BunnyState, best: int | None) -> str:
    """What the player is told once a run has been shown: what to try next."""
    if not state.complete:
        return "Edit the program and press enter to run it again; . steps through it."
    tokens = state.program.tokens if state.program is not None else 0
    if best is None:
        return "Complete! Can it be shorter? Edit and press enter; h reveals the optimal program."
    if tokens > best:
        return f"Complete! The best known program has {best} tokens: try a shorter one (h for a hint)."
    if tokens == best:
        return f"Complete with {tokens} tokens: as short as the best known program."
    return f"Complete with {tokens} tokens: shorter than the best known {best}!"


def proof_text(proven_optimal: bool) -> str:
    return "proven optimal" if proven_optimal else "best found, not proven"


def counts_text(tokens: int, solution: Solution | None, published: int | None, cut_off: bool, state: BunnyState) -> str:
    """The panel's counts line: the typed program's size, the best size known (or why
    there is none), and whether the program was edited since it last ran."""
    parts = [f"{tokens} token{'s' if tokens != 1 else ''}"]
    if solution is not None and solution.program is not None:
        parts.append(f"best {solution.tokens} ({proof_text(solution.proven_optimal)})")
    elif solution is not None or cut_off:
        parts.append("no program completes this board")  # not "best known ?": h has nothing to find
    elif published is not None:
        parts.append(f"best known {published}")
    else:
        parts.append("best known ?  (h asks the solver)")
    if state.runs and state.typed is not None and state.typed != state.program:
        parts.append("edited since the last run")
    return "  ·  ".join(parts)


def hint_text(solution: Solution | None, revealed: int) -> str:
    """The panel's hint line: the first `revealed` tokens of the solver's program."""
    if not revealed or solution is None or solution.program is None:
        return ""
    program = solution.program
    return f"Hint {revealed}/{program.tokens}: {reveal_text(program, revealed)}"


def typed_prefix(draft: Draft, best: Program) -> int | None:
    """How many tokens of `best` the typed program already is, when it is the start of it
    (open loops still to be closed are fine); None when it is not."""
    items = list(draft.items)
    while items and items[-1] == CLOSE:
        items.pop()  # brackets typed in pairs: the closings still ahead of the cursor
    if Draft.of(best).items[: len(items)] != items:
        return None
    return sum(1 for item in items if item != CLOSE)


def reveal(program: Program, proven_optimal: bool, draft: Draft, revealed: int) -> tuple[int, str]:
    """One more token of the best `program` revealed: how many are shown now, and what
    the hint says. A draft that is the start of `program` counts as revealed already."""
    total = program.tokens
    typed = typed_prefix(draft, program)
    if typed is None:
        revealed = min(total, revealed + 1)
        start = "Your program is not the start of it: the hint shows it from the beginning. " if draft.tokens else ""
    else:
        revealed = min(total, max(revealed, typed) + 1)
        start = f"What you typed ({plural(typed, 'token')}) is the start of it, so the hint goes on from there. " if typed else ""
    more = "h shows one more token." if revealed < total else "That is all of it: type it in, or s runs it."
    return revealed, f"The best program has {total} tokens ({proof_text(proven_optimal)}). {start}{more}"
