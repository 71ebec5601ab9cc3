"""The hard Tron bot's search against its opponent model (opponent_model.LineSearch and the
kernel's tron_line_values): each policy followed along its own replies, a never-turner
outlasted past the horizon, our later moves held to the same risk as the root's."""

from __future__ import annotations

import math
import time

import pytest

from tui_grid.core.geometry import Pos
from tui_grid.games.tron import bots, opponent_model
from tui_grid.games.tron.bots import Field
from tui_grid.games.tron.rules import TronState

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3


def test_the_line_belief_gives_medium_s_share_to_the_capable_opponent_unless_nearly_all() -> None:
    belief = opponent_model.line_belief([("straight", 0.5), ("medium", 0.2), ("search", 0.3)])
    assert dict(belief) == pytest.approx({"straight": 0.5, "search": 0.5})
    assert opponent_model.line_belief([("straight", 0.6), ("medium", 0.4)]) == [("straight", 0.6), ("search", 0.4)]
    # The medium bot earns nearly all of the belief: then it is met as itself.
    sure = opponent_model.MEDIUM_SURE
    assert opponent_model.line_belief([("medium", sure), ("search", 1 - sure)]) == [("medium", sure), ("search", 1 - sure)]


def never_turner_model() -> opponent_model.OpponentModel:
    model = opponent_model.OpponentModel()
    model.evidence = {name: (0.0 if name == "straight" else -50.0) for name in opponent_model.POLICIES}
    model.seen = opponent_model.MIN_SEEN
    return model


def red_line_values(state: TronState, model: opponent_model.OpponentModel, heading: int, depth: int,
                    use_kernel: bool, monkeypatch) -> tuple[Field, dict[int, float], float]:  # type: ignore[no-untyped-def]
    """Red's line values against `model` (green last moved `heading`), `depth` deep, by
    the C kernel or by Python; with the field and the far deadline used."""
    field = Field(state.rows, state.heads)
    memory = opponent_model.GameMemory()
    memory.model = model
    memory.heading = heading
    monkeypatch.setattr(opponent_model, "MAX_DEPTH", depth)
    if use_kernel and (bots.kernel.disabled() or not bots.kernel.build()):
        pytest.skip("no C kernel here (no gcc, or TUI_GRID_NO_KERNEL set)")
    if not use_kernel:
        monkeypatch.setattr(bots.kernel, "get", lambda: None)
    far = time.perf_counter() + 1000.0
    return field, opponent_model.line_values(memory, field, 0, far, far), far


@pytest.mark.parametrize("use_kernel", [False, True])
def test_a_never_turner_is_outlasted_past_the_horizon(use_kernel: bool, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Green heads left along row 3 toward red's wall of trail (column 2): it crashes in
    # four moves. One move deep, red's moves off that row outlast it (a sure win), while
    # the Voronoi evaluation alone calls the position about even.
    rows = (
        "##########",
        "#-r------#",
        "#-r------#",
        "#-r----g-#",
        "#-r------#",
        "#--------#",
        "##########",
    )
    state = TronState(rows, (Pos(1, 2), Pos(3, 7)))
    field, values, far = red_line_values(state, never_turner_model(), LEFT, 1, use_kernel, monkeypatch)
    assert values[RIGHT] == pytest.approx(1.0)
    a, b = field.heads
    plain = bots.utility(bots.Search(field, far, None).evaluate(field.free & ~(1 << (a + 1)) & ~(1 << (b - 1)), a + 1, b - 1))
    assert plain < 0.5


def test_a_held_draw_is_bet_into_a_separated_loss_only_on_a_firm_belief() -> None:
    # The medium bot, half taken for a capable opponent: the matrix game's mix drew UP
    # (a separated loss if red answers UP), the model rates UP and DOWN alike.
    rows = {UP: -bots.SEP - 100, DOWN: -bots.CONTEMPT, LEFT: -bots.SEP - 10}
    tied = {UP: opponent_model.DRAW, DOWN: opponent_model.DRAW, LEFT: -0.9}
    assert bots._model_pick(UP, rows, tied, 0.36) == DOWN
    # A never-turner about to crash: past SEP_BET the bet on its line stands.
    wins = {UP: 1.0, DOWN: opponent_model.DRAW, LEFT: -0.9}
    assert bots._model_pick(DOWN, rows, wins, bots.SEP_BET + 0.1) == UP
    assert bots._model_pick(DOWN, rows, wins, bots.SEP_BET - 0.1) == DOWN


def test_the_model_s_ties_go_to_the_better_worst_case() -> None:
    # A shallower search rates UP a Voronoi deficit, not yet a separated loss: the
    # model, which cannot tell UP from DOWN, does not keep the matrix game's gamble.
    rows = {UP: -170, DOWN: -bots.CONTEMPT, LEFT: -bots.SEP - 10}
    tied = {UP: opponent_model.DRAW, DOWN: opponent_model.DRAW, LEFT: -0.9}
    assert bots._model_pick(UP, rows, tied, 0.36) == DOWN
    assert bots._model_pick(DOWN, rows, {UP: -0.3, DOWN: opponent_model.DRAW, LEFT: -0.9}, 0.36) == UP


def hugger_model(search_share: float) -> opponent_model.OpponentModel:
    """A belief that is `1 - search_share` the wall hugger's, the rest a capable opponent's."""
    model = opponent_model.OpponentModel()
    priors = opponent_model.PRIORS
    model.evidence = {name: -50.0 for name in opponent_model.POLICIES}
    model.evidence["hug"] = 0.0
    model.evidence["search"] = math.log(search_share / (1 - search_share) * priors["hug"] / priors["search"])
    model.seen = opponent_model.MIN_SEEN
    return model


def test_the_line_rule_is_the_root_s() -> None:
    rule = opponent_model.LineRule(risk=0.2, separated=False, lost=False)
    draw, sep = opponent_model.DRAW, bots.SEP_UTILITY
    # Better than a draw: no more than `risk` given up.
    assert rule.allows(-0.1, 0.05, draw, sep) and not rule.allows(-0.3, 0.05, draw, sep)
    # From a held draw: any move short of a separated or proven loss.
    assert rule.allows(-0.8, draw, draw, sep)
    assert not rule.allows(-0.95, draw, draw, sep) and not rule.allows(-1.0, draw, draw, sep)
    bold = opponent_model.LineRule(risk=0.2, separated=True, lost=False)
    assert bold.allows(-0.95, draw, draw, sep) and not bold.allows(-1.0, draw, draw, sep)
    # When every move is a separated loss, the best of them is no bet.
    assert rule.allows(-0.95, -0.92, draw, sep)
    hugger = hugger_model(0.27)
    assert opponent_model.line_rule(hugger) == opponent_model.LineRule(
        hugger.confidence() * bots.RISK, hugger.confidence() >= bots.SEP_BET, False)


@pytest.mark.parametrize("use_kernel", [False, True])
def test_from_a_held_draw_the_line_plans_the_trap_the_root_would_play(use_kernel: bool, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The bench's hugger game on the empty board (game 18, turn 10): red races the
    # hugger up column 3. RIGHT meets it head-on (a draw); UP keeps racing and traps it
    # in the top-left corner a few moves on, where the capable opponent would cut red off
    # instead (a separated loss), a bet the root makes at this confidence. Lines that
    # refused that bet at our later moves rated UP a draw too, and the root stepped LEFT
    # into a lost separation that a shallow horizon called won.
    rows = (
        "###############",
        "#-------------#",
        "#-------------#",
        "#-------------#",
        "#-------------#",
        "#--r----------#",
        "#--rg---------#",
        "#r-rgggggggggg#",
        "#rrr----------#",
        "#rr-----------#",
        "#rr-----------#",
        "#-------------#",
        "#-------------#",
        "#-------------#",
        "###############",
    )
    state = TronState(rows, (Pos(5, 3), Pos(6, 4)))
    assert bots.SEP_BET <= hugger_model(0.27).confidence() < bots.MODEL_SURE
    _, values, _ = red_line_values(state, hugger_model(0.27), UP, 4, use_kernel, monkeypatch)
    assert values[RIGHT] == pytest.approx(opponent_model.DRAW)
    assert values[UP] > 0.3
    assert values[UP] >= values[LEFT] - bots.BET_MARGIN



def test_a_line_depth_is_not_started_when_it_cannot_end_in_time() -> None:
    # The next depth costs the last one's time times its growth in nodes over the one
    # before (LINE_GROWTH while only one depth is known, never less than the last).
    assert opponent_model.line_next_cost(0.002, 500, 100) == pytest.approx(0.010)
    assert opponent_model.line_next_cost(0.002, 500, 0) == pytest.approx(0.002 * opponent_model.LINE_GROWTH)
    assert opponent_model.line_next_cost(0.002, 50, 100) == pytest.approx(0.002)
