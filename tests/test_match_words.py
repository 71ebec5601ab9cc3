"""What a match screen says at a round's end and before leaving (ui.match_words)."""

from __future__ import annotations

from typing import Any

from tui_grid.core.agents import HumanAgent
from tui_grid.core.match import Match
from tui_grid.games.registry import get_game
from tui_grid.ui.match_words import leaving_loses, round_over


def tron_round(rounds: int) -> tuple[Any, Match[Any, Any]]:
    """A Tron match whose first round ended by red's forfeit."""
    from tui_grid.core.outcome import Failure, Fault

    game = get_game("tron")
    loaded = game.load(game.online.default_board if game.online else "empty")
    match: Match[Any, Any] = Match(lambda index: game.make_engine(loaded), [HumanAgent("ann"), HumanAgent("bob")], rounds)
    session = match.new_session()
    session.forfeit(0, Failure(Fault.LEFT))
    match.finish_round()
    return game, match


def test_the_round_is_said_in_the_games_words_with_the_players_named_then_what_comes_next() -> None:
    game, match = tron_round(3)
    text = round_over(game, match, match.session.outcome, steerable=True)
    assert text == "red (ann) forfeits: left the match. Score: ann 0 · bob 1 · draws 0. enter plays round 2 (seats swap)."
    assert not round_over(game, match, match.session.outcome, steerable=False).endswith("(seats swap).")


def test_the_last_round_says_the_match_verdict() -> None:
    game, match = tron_round(1)
    text = round_over(game, match, match.session.outcome, steerable=True)
    assert text == "red (ann) forfeits: left the match. Match over: bob wins. ann 0 · bob 1 · draws 0."


def test_leaving_a_local_match_loses_it_and_an_online_one_hands_it_over_unless_nobody_moved() -> None:
    tron = get_game("tron")
    loaded = tron.load("standard")
    match = Match(lambda index: tron.make_engine(loaded), [HumanAgent("ann"), HumanAgent("bob")], 2, names=["ann", "bob"])
    session = match.new_session()
    assert leaving_loses(match, local=True).startswith("A match is not saved")
    assert leaving_loses(match, local=False, you=0) == "Nobody has moved yet: leaving now aborts the match, and it counts for nobody."
    session.tick()
    assert leaving_loses(match, local=False, you=0) == "Leaving now hands the match to bob, at any moment of it."


def test_an_arenas_score_names_the_first_three_on_points_then_how_many_more() -> None:
    from tui_grid.core.match import MatchScore, RoundResult
    from tui_grid.core.outcome import Outcome, Result

    names = ("ann", "bob", "cat", "dan", "eve")
    places = (4, 1, 5, 2, 3)  # bob first, dan second, eve third
    score = MatchScore(names, [RoundResult(0, (0, 1, 2, 3, 4), 1, Outcome(Result.WON), 10, places=places)])
    assert score.summary() == "bob 4 · dan 3 · eve 2 points (and 2 more)"
    three = MatchScore(names[:3], [RoundResult(0, (0, 1, 2), 0, Outcome(Result.WON), 10, places=(1, 3, 2))])
    assert three.summary() == "ann 2 · cat 1 · bob 0 points"
