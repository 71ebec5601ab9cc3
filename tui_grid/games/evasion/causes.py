"""How an Evasion round ends by the rules, and the sentences that say it: the hunter catches
the prey (at a step), or the step limit comes first. Both concern the prey's seat; the
numbers are the step of the catch, or the limit.

Without names a sentence is as short as the status line wants it ("caught at step 5");
with them it says who caught whom ("the hunter (ann) caught the prey (bob) at step 5").
"""

from __future__ import annotations

from tui_grid.core.outcome import Cause, Outcome, Wording, number

#: How sentences call the seats (hunter, prey).
SEAT_WORDS = ("the hunter", "the prey")


class EvasionCause(Cause, family="evasion"):
    CAUGHT = "caught"
    TIME_UP = "time_up"

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        step = number(outcome.numbers[0]) if outcome.numbers else "?"
        hunter, prey = words.who(0), words.who(1)
        if self is EvasionCause.CAUGHT:
            return f"{hunter} caught {prey} at step {step}" if words.named else f"caught at step {step}"
        limit = f"not caught in {step} steps (step limit)"
        return f"{prey} was {limit}" if words.named else limit
