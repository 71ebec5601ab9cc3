"""Glicko-2 as Glickman's "Example of the Glicko-2 system" computes it, and the builtin
bots' fixed ratings."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_grid.games.registry import get_game, online_games
from tui_grid.online.ratings import BOT_RATINGS, BOT_RD, MAX_RD, Rating, bot_rating, provisional, rate


def test_the_papers_worked_example() -> None:
    # The paper rounds every intermediate value; unrounded the rating is 1464.0507, which
    # its two decimals (1464.06) meet within 0.01.
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # the paper: 0.05999, unrounded 0.059996


def test_a_period_without_games_grows_only_the_rd() -> None:
    before = Rating(1620, 80, 0.06)
    after = rate(before, [])
    assert after.rating == before.rating and after.volatility == before.volatility
    assert after.rd == pytest.approx(math.sqrt((80 / 173.7178) ** 2 + 0.06**2) * 173.7178)
    assert after.rd > before.rd
    assert rate(Rating(), []).rd == MAX_RD  # never past a newcomer's


def test_a_draw_between_equals_leaves_them_equal() -> None:
    one, other = Rating(1700, 120, 0.06), Rating(1700, 120, 0.06)
    assert rate(one, [(other, 0.5)]) == rate(other, [(one, 0.5)])
    assert rate(one, [(other, 0.5)]).rating == pytest.approx(1700)


def test_a_win_and_a_loss_move_equals_by_the_same_amount() -> None:
    one = Rating()
    won, lost = rate(one, [(one, 1)]), rate(one, [(one, 0)])
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.rd == pytest.approx(lost.rd) and won.rd < one.rd


def test_provisional_until_the_rd_is_110_or_less() -> None:
    assert provisional(Rating()) and provisional(Rating(rd=110.01))
    assert not provisional(Rating(rd=110)) and not provisional(Rating(rd=60))


def test_every_builtin_bot_of_an_online_game_has_a_fixed_rating() -> None:
    for game in online_games():
        for level in get_game(game).bot_levels:
            assert bot_rating(game, level).rd == BOT_RD
    assert {game for game, _ in BOT_RATINGS} == set(online_games()) == {"tron", "evasion"}
    assert bot_rating("tron", "easy").rating < bot_rating("tron", "medium").rating < bot_rating("tron", "hard").rating
    with pytest.raises(KeyError):
        bot_rating("tron", "impossible")


ratings = st.builds(Rating, st.floats(0, 3000), st.floats(30, 350), st.floats(0.03, 0.1))
scores = st.sampled_from([0.0, 0.5, 1.0])


@settings(derandomize=True, max_examples=200, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, scores), max_size=6))
def test_ratings_stay_finite_and_the_rd_within_bounds(player: Rating, results: list[tuple[Rating, float]]) -> None:
    after = rate(player, results)
    assert all(math.isfinite(x) for x in (after.rating, after.rd, after.volatility))
    assert 0 < after.rd <= MAX_RD and after.volatility > 0


@settings(derandomize=True, max_examples=200, deadline=None)
@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(player: Rating, opponent: Rating) -> None:
    assert rate(player, [(opponent, 1)]).rating >= player.rating
    assert rate(player, [(opponent, 0)]).rating <= player.rating
