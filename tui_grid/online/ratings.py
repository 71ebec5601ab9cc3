"""Glicko-2 ratings, as Mark Glickman's "Example of the Glicko-2 system" computes them
(steps 1 to 8, the Illinois algorithm for the volatility), and the builtin bots' fixed
ratings.

A rating period is one match: a finished match updates each rated participant once, from
the ratings everyone held before it. Nothing here knows about storage or the server.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

#: Glicko-2's scale factor between the Glicko scale (1500 +- 350) and its own (0 +- 2.01).
SCALE = 173.7178
#: The system constant: how fast volatility may change (Glickman suggests 0.3 to 1.2).
DEFAULT_TAU = 0.5
#: The Illinois algorithm stops once its bracket is this narrow.
EPSILON = 1e-6
NEW_RATING = 1500.0
NEW_RD = 350.0
NEW_VOLATILITY = 0.06
#: Nobody's RD grows past a newcomer's: the cap of Glicko (Glickman's Glicko paper, step
#: 1). It only binds on step 6, for a player already near 350.
MAX_RD = NEW_RD
#: A rating with an RD above this is provisional, as lichess counts it: too few games yet.
PROVISIONAL_RD = 110.0
#: Every builtin bot's RD: its rating is fixed, so it is well known by construction.
BOT_RD = 50.0


@dataclass(frozen=True)
class Rating:
    """A player's strength on the Glicko scale: rating, rating deviation, volatility."""

    rating: float = NEW_RATING
    rd: float = NEW_RD
    volatility: float = NEW_VOLATILITY


def provisional(rating: Rating) -> bool:
    """Whether the rating is still too uncertain to rank among established players."""
    return rating.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period of `results`: (opponent's rating before
    the period, score) with score 1 for a win, 0.5 for a draw, 0 for a loss. With no
    results only the RD grows (step 6)."""
    # Step 2: onto the Glicko-2 scale.
    mu = (player.rating - NEW_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    games = [(_g(opponent.rd / SCALE), (opponent.rating - NEW_RATING) / SCALE, score) for opponent, score in results]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    information = sum(g_j * g_j * _expected(mu, mu_j, g_j) * (1.0 - _expected(mu, mu_j, g_j)) for g_j, mu_j, _ in games)
    if not games or information == 0.0:  # no games, or none that tell anything (E is exactly 0 or 1)
        return Rating(player.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, MAX_RD), sigma)
    v = 1.0 / information
    # Step 4: the estimated improvement, against the pre-period rating.
    improvement = sum(g_j * (score - _expected(mu, mu_j, g_j)) for g_j, mu_j, score in games)
    delta = v * improvement
    # Step 5: the new volatility.
    sigma_new = _volatility(sigma, phi, v, delta, tau)
    # Step 6: the pre-period RD grown by the new volatility.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    # Step 7: the new RD and rating.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back onto the Glicko scale.
    return Rating(SCALE * mu_new + NEW_RATING, min(SCALE * phi_new, MAX_RD), sigma_new)


#: The builtin bots' published ratings, by (game, level) for each game's `bot_levels`. They
#: are fixed anchors, never updated: a bot plays the same whoever it meets, so games
#: against it measure the account alone, and the scale stays put as players come and go.
BOT_RATINGS: Mapping[tuple[str, str], Rating] = {
    ("tron", "easy"): Rating(1000.0, BOT_RD, NEW_VOLATILITY),
    ("tron", "medium"): Rating(1400.0, BOT_RD, NEW_VOLATILITY),
    ("tron", "hard"): Rating(1800.0, BOT_RD, NEW_VOLATILITY),
    # Evasion: "nowall" never builds (random steps as prey), "random" builds at random,
    # "builtin" is the course's architect bot.
    ("evasion", "nowall"): Rating(700.0, BOT_RD, NEW_VOLATILITY),
    ("evasion", "random"): Rating(900.0, BOT_RD, NEW_VOLATILITY),
    ("evasion", "builtin"): Rating(1500.0, BOT_RD, NEW_VOLATILITY),
}


def bot_rating(game: str, level: str) -> Rating:
    """The fixed rating of `game`'s builtin bot `level`; KeyError for a bot without one."""
    try:
        return BOT_RATINGS[(game, level)]
    except KeyError:
        raise KeyError(f"no published rating for {game}'s {level!r} bot") from None
