"""What the hard Tron bot learns of its opponent during a game, and a search against it.

`GameMemory` is kept by the hard bot's agent for one game. Each state it is asked about,
one tick after the last, shows the opponent's move; `OpponentModel` scores that move
under each policy in POLICIES (the probability the policy gave it, softened by EPS so
that one surprise is not fatal) and keeps a log-likelihood per policy, old evidence
fading by DECAY a move (an opponent may change its ways; the random moves that open a
bench game fade too). The policies:

* straight: keeps the way it last moved, even into a wall;
* hug: the free cell with the most blocked neighbours, its way on ties (a wall hugger);
* left, right: a wall follower keeping an obstacle on that hand: that turn if it is free,
  else straight on, else the other turn;
* open: the seed article's rule, the longest straight run of free cells (LEFT RIGHT UP
  DOWN order on ties);
* medium: this package's medium bot;
* random: any free cell, uniformly;
* search: a capable opponent: a softmax (temperature SEARCH_T cells) over the medium
  bot's one-step scores of its moves, a head-on meeting scoring as a draw.

The first six are PREDICTABLE: `confidence`, the belief in them, is what the hard bot
bets on (bots._model_pick); random and search are not, since a capable opponent, whose
moves none of the others predict, looks as random to them as it looks like `search`.
A deep searcher can earn much of the belief in medium on quiet moves (a1k0n's 2010
winner held at least half of it on 38 of 2530 moves measured), so a bet against the
search's own choice needs a clear edge by the model (bots.BET_MARGIN).

`line_values` searches our moves against the belief (an expectimax: at each step the
opponent's reply is the one the predicted policies give, with their weights, those
under PRUNE dropped, while the share of `search` answers with the reply worst for us),
on utilities: `bots.utility` of the leaf evaluation, +1 for a line the opponent crashes
out of, -1 for one we do, DRAW for a draw. It runs in the C kernel (tron_line_values)
when that is built, else here (LineSearch); both give the same values.

Stdlib only (the bot module's rule): no textual, no core.
"""

from __future__ import annotations

import math
import time

from tui_grid.games.tron import bots

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
#: The turn to the left and to the right of each heading (UP DOWN LEFT RIGHT).
LEFT_OF = (LEFT, RIGHT, DOWN, UP)
RIGHT_OF = (RIGHT, LEFT, UP, DOWN)
#: A policy's probability of a move is EPS / 4 + (1 - EPS) * its own, so that a policy
#: that mispredicts once loses about a factor 200 against one that did not, not all.
EPS = 0.02
#: Old evidence fades: each move the log-likelihoods are multiplied by DECAY (about the
#: last ten moves count).
DECAY = 0.9
#: Prior weights: a capable opponent ("search") is the likeliest single policy, and the
#: predictable ones together start about even with the rest (an opponent in this app is
#: more often a simple program than a strong searcher, and a bet on one is checked by the
#: worst case). Straight starts well ahead of the other predictable ones: racing at the
#: opponent from the standard start, a never-turner moves as a searcher does, so only the
#: prior tells them apart by the time the race is decided.
PRIORS = {"straight": 0.18, "hug": 0.1, "left": 0.07, "right": 0.07, "open": 0.1, "medium": 0.12,
          "random": 0.12, "search": 0.3}
#: The capable opponent's softmax temperature, in cells of the medium bot's score (broad:
#: that one-step score only roughly tells what a searcher plays), and the score of a
#: head-on meeting to it: a draw, 0 (when two heads race for the cell between them,
#: entering it is each side's best move, so a capable opponent often does).
SEARCH_T = 15.0
SEARCH_MEET = 0.0
#: The utility of a draw in the search against the model: halfway to a loss. Against a
#: predictable opponent a draw is a win let go, so the bet on the model weighs it far
#: below the worst-case search's draw (bots.CONTEMPT, tuned against a capable one).
DRAW = -0.5
#: Moves observed before the model is trusted at all.
MIN_SEEN = 2
#: Predicted replies less likely than this are left out of the line search (the rest
#: renormalised); policies with less than MIN_WEIGHT of the belief are not asked.
PRUNE = 0.05
MIN_WEIGHT = 0.01

#: A policy's answer: the probabilities of UP DOWN LEFT RIGHT. A policy is called as
#: policy(free, S, b, heading, a): the free cells, the stride, its head at b (which last
#: moved `heading`, None when unknown) and ours at a, both heads not free.
Probs = tuple[float, float, float, float]


def _deltas(S: int) -> tuple[int, int, int, int]:
    return (-S, S, -1, 1)


def _free_moves(free: int, S: int, b: int) -> list[int]:
    return [i for i, d in enumerate(_deltas(S)) if b + d >= 0 and (free >> (b + d)) & 1]


def _uniform(moves: list[int]) -> Probs:
    if not moves:
        return (0.25, 0.25, 0.25, 0.25)
    p = 1.0 / len(moves)
    return tuple(p if i in moves else 0.0 for i in range(4))  # type: ignore[return-value]


def _one(i: int) -> Probs:
    return tuple(1.0 if k == i else 0.0 for k in range(4))  # type: ignore[return-value]


def straight(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    if heading is None:
        return _uniform(_free_moves(free, S, b))
    return _one(heading)


def hug(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    moves = _free_moves(free, S, b)
    if not moves:
        return _uniform(moves)
    deltas = _deltas(S)

    def walls(i: int) -> int:
        t = b + deltas[i]
        return 4 - bots.free_neighbours(free, t, S)

    most = max(walls(i) for i in moves)
    tied = [i for i in moves if walls(i) == most]
    return _one(heading) if heading in tied else _uniform(tied)


def _follower(free: int, S: int, b: int, heading: int | None, first: tuple[int, ...], last: tuple[int, ...]) -> Probs:
    moves = _free_moves(free, S, b)
    if heading is None:
        return _uniform(moves)
    for i in (first[heading], heading, last[heading]):
        if i in moves:
            return _one(i)
    return _uniform(moves)


def left(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    return _follower(free, S, b, heading, LEFT_OF, RIGHT_OF)


def right(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    return _follower(free, S, b, heading, RIGHT_OF, LEFT_OF)


def open_run(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    deltas = _deltas(S)
    best, best_run = -1, 0
    for i in (LEFT, RIGHT, UP, DOWN):
        run = 0
        t = b + deltas[i]
        while t >= 0 and (free >> t) & 1:
            run += 1
            t += deltas[i]
        if run > best_run:
            best, best_run = i, run
    return _one(best) if best >= 0 else _uniform([])


def medium(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    """The medium bot while the players meet: its first best score (once they are
    separated it plays by space, but then the model's predictions are not used)."""
    scores = bots.medium_scores(free, S, b, a)
    if not scores:
        return _uniform([])
    top = max(v for _, v in scores)
    return _one(next(i for i, v in scores if v == top))


def random_move(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    return _uniform(_free_moves(free, S, b))


def search(free: int, S: int, b: int, heading: int | None, a: int) -> Probs:
    scores = bots.medium_scores(free, S, b, a, SEARCH_MEET)
    if not scores:
        return _uniform([])
    top = max(v for _, v in scores)
    weights = {i: math.exp(max(-50.0, (v - top) / SEARCH_T)) for i, v in scores}
    total = sum(weights.values())
    return tuple(weights.get(i, 0.0) / total for i in range(4))  # type: ignore[return-value]


POLICIES = {"straight": straight, "hug": hug, "left": left, "right": right, "open": open_run, "medium": medium,
            "random": random_move, "search": search}
#: The policies that always answer alike in alike positions, which the bot may bet on.
#: Random and search are not among them: a capable opponent, whose moves the set above
#: does not predict, looks random to it as often as it looks like `search`.
PREDICTABLE = ("straight", "hug", "left", "right", "open", "medium")


class OpponentModel:
    """The belief over POLICIES from the opponent's moves seen so far in a game."""

    def __init__(self) -> None:
        self.evidence = {name: 0.0 for name in POLICIES}
        self.seen = 0

    def observe(self, free: int, S: int, b: int, heading: int | None, a: int, move: int) -> None:
        """The opponent at `b` (last moved `heading`), us at `a`, both cells not free,
        played `move` (index into WORDS)."""
        for name, policy in POLICIES.items():
            p = policy(free, S, b, heading, a)[move]
            self.evidence[name] = DECAY * self.evidence[name] + math.log(EPS / 4 + (1 - EPS) * p)
        self.seen += 1

    def weights(self) -> dict[str, float]:
        logs = {name: math.log(PRIORS[name]) + self.evidence[name] for name in POLICIES}
        top = max(logs.values())
        raw = {name: math.exp(v - top) for name, v in logs.items()}
        total = sum(raw.values())
        return {name: v / total for name, v in raw.items()}

    def confidence(self) -> float:
        """The belief that the opponent plays one of the PREDICTABLE policies; 0 until
        MIN_SEEN moves were seen."""
        if self.seen < MIN_SEEN:
            return 0.0
        weights = self.weights()
        return sum(weights[name] for name in PREDICTABLE)

    def mixture(self) -> list[tuple[str, float]]:
        """The policies worth asking (weight MIN_WEIGHT or more), with their share of the
        belief (renormalised)."""
        kept = [(name, w) for name, w in self.weights().items() if w >= MIN_WEIGHT]
        norm = sum(w for _, w in kept)
        return [(name, w / norm) for name, w in kept]


def _heading(before: tuple[int, int], after: tuple[int, int]) -> int | None:
    step = (after[0] - before[0], after[1] - before[1])
    return {(-1, 0): UP, (1, 0): DOWN, (0, -1): LEFT, (0, 1): RIGHT}.get(step)


class GameMemory:
    """The hard bot's memory of one game: the last state it saw and the opponent model.
    `see` each state asked about; a state that cannot follow the last (an earlier or the
    same turn, another board) starts a new game."""

    def __init__(self) -> None:
        self.model = OpponentModel()
        #: The last state seen: its turn, our seat, its rows and heads.
        self.last: tuple[int, int, tuple[str, ...], tuple[tuple[int, int], tuple[int, int]]] | None = None
        #: The way the opponent last moved (index into WORDS), when known.
        self.heading: int | None = None

    def line_values(self, field: bots.Field, seat: int, deadline: float, soft: float, control=None) -> dict[int, float]:  # type: ignore[no-untyped-def]
        """Each move's utility against this game's opponent model (`line_values`)."""
        return line_values(self, field, seat, deadline, soft, control)

    def reset(self) -> None:
        """Forget the game: a new one starts."""
        self.model = OpponentModel()
        self.last = None
        self.heading = None

    def see(self, position, seat: int) -> None:  # type: ignore[no-untyped-def]
        """Record `position` (a TronState, or anything with rows, heads and turn)."""
        rows = tuple(position.rows)
        heads = tuple((int(h[0]), int(h[1])) for h in position.heads)
        turn = int(getattr(position, "turn", -1))
        last = self.last
        if last is not None and (turn <= last[0] or seat != last[1] or len(rows) != len(last[2])
                                 or len(rows[0]) != len(last[2][0])):
            self.reset()
            last = None
        other = 1 - seat
        if last is not None and turn == last[0] + 1:
            move = _heading(last[3][other], heads[other])
            # A move made with no known way before it tells the policies that keep or turn
            # from their way nothing: no policy is scored on it.
            if move is not None and self.heading is not None:
                field = bots.Field(last[2], last[3])
                self.model.observe(field.free, field.S, field.heads[other], self.heading, field.heads[seat], move)
            self.heading = move
        else:
            headings = getattr(position, "headings", None)
            way = headings[other] if headings else None
            self.heading = None if way is None else ("UP", "DOWN", "LEFT", "RIGHT").index(way.name)
        self.last = (turn, seat, rows, (heads[0], heads[1]))


def line_params(mix: list[tuple[str, float]]) -> list[float]:
    """The model as the C kernel's tron_line_values reads it: each policy's weight in
    POLICIES order, then PRUNE, U_SCALE, MEDIUM_CONTEMPT, MEDIUM_MEAN and DRAW."""
    weights = dict(mix)
    return [weights.get(name, 0.0) for name in POLICIES] + [
        PRUNE, float(bots.U_SCALE), float(bots.MEDIUM_CONTEMPT), float(bots.MEDIUM_MEAN), DRAW]


def line_values(memory: GameMemory, field: bots.Field, seat: int, deadline: float, soft: float, control=None) -> dict[int, float]:  # type: ignore[no-untyped-def]
    """Each move of `seat` (index into WORDS) with its utility against the opponent model
    of `memory`, searched by the C kernel when it is built, else by LineSearch; empty when
    not even one move deep finished in time."""
    me, opp = field.heads[seat], field.heads[1 - seat]
    mix = memory.model.mixture()
    lib = bots.kernel.get()
    if lib is not None:
        import ctypes

        params = line_params(mix)
        model = (ctypes.c_double * len(params))(*params)
        values = (ctypes.c_double * 4)()
        info = (ctypes.c_int * 4)()
        flag = ctypes.c_int(1 if _cancelled(control) else 0)
        now = time.perf_counter()
        heading = -1 if memory.heading is None else memory.heading
        done = lib.tron_line_values(field.S, field.height, bots.kernel_cells(field), me, opp, heading, model,
                                    MAX_DEPTH, int((deadline - now) * 1e6), int((soft - now) * 1e6),
                                    ctypes.byref(flag), values, info)
        if done == 0:
            return {k: values[k] for k in range(4) if values[k] > -2.0} if info[0] else {}
    return LineSearch(memory.model, field, deadline, control).values(field.free, me, opp, memory.heading, soft)


def _cancelled(control) -> bool:  # type: ignore[no-untyped-def]
    cancel = getattr(control, "cancel", None) if control is not None else None
    return bool(cancel is not None and cancel.is_set())


#: The deepest line search (moves of ours).
MAX_DEPTH = 64


class LineSearch:
    """Our moves searched against the model's predicted replies (see the module doc)."""

    def __init__(self, model: OpponentModel, field: bots.Field, deadline: float, control=None) -> None:  # type: ignore[no-untyped-def]
        self.model = model
        self.mix = model.mixture()
        self.S = field.S
        self.scorer = bots.Search(field, deadline, control)
        self.nodes = 0
        self.depth_done = 0
        self.draw = DRAW

    def values(self, free: int, a: int, b: int, heading: int | None, soft: float, limit: int = MAX_DEPTH) -> dict[int, float]:
        """Each of our moves (index into WORDS) with its utility against the model, by
        iterative deepening until `soft` (no new depth after it) or the deadline (the
        unfinished depth is dropped); empty when not even depth 1 finished."""
        found: dict[int, float] = {}
        for depth in range(1, limit + 1):
            try:
                found = self.root(free, a, b, heading, depth)
            except bots.SearchTimeout:
                break
            self.depth_done = depth
            if all(abs(v) >= 1.0 for v in found.values()) or time.perf_counter() > soft:
                break
        return found

    def root(self, free: int, a: int, b: int, heading: int | None, depth: int) -> dict[int, float]:
        q, share = self.replies(free, b, heading, a)
        deltas = _deltas(self.S)
        return {i: self.pair(free, a, b, a + deltas[i], q, share, depth) for i in bots.safe_moves(free, a, self.S)}

    def replies(self, free: int, b: int, heading: int | None, a: int) -> tuple[list[float], float]:
        """The opponent's predicted replies: the chance of each (index into WORDS) by the
        belief's policies other than `search`, replies under PRUNE of their share dropped
        and the rest rescaled to that share; and the share of `search`, the capable
        opponent, which the search meets with the reply worst for us (a softmax would
        expect it to miss a cut that a searcher sees). With no free move the opponent
        crashes whatever it does."""
        if not _free_moves(free, self.S, b):
            return [1.0, 0.0, 0.0, 0.0], 0.0  # UP, onto a cell that is not free
        capable = dict(self.mix).get("search", 0.0)
        out = [0.0, 0.0, 0.0, 0.0]
        for name, w in self.mix:
            if name != "search":
                for i, p in enumerate(POLICIES[name](free, self.S, b, heading, a)):
                    out[i] += w * p
        share = 1.0 - capable
        q = [p if p >= PRUNE * share else 0.0 for p in out]
        total = sum(q)
        return [p * share / total if total > 0 else 0.0 for p in q], capable

    def pair(self, free: int, a: int, b: int, t: int, q: list[float], share: float, depth: int) -> float:
        """Utility of our move onto `t` against the predicted replies `q` and the capable
        opponent's `share` (see `replies`)."""
        deltas = _deltas(self.S)
        total = 0.0
        worst = 2.0
        for j in range(4):
            u = b + deltas[j]
            open_ = u >= 0 and bool((free >> u) & 1)
            if q[j] <= 0 and not (share > 0 and open_):
                continue
            if u == t:
                value = self.draw
            elif not open_:
                value = 1.0  # it crashes, we do not
            else:
                rest = free & ~(1 << t) & ~(1 << u)
                if depth <= 1:
                    self.tick()
                    value = bots.utility(self.scorer.evaluate(rest, t, u))
                else:
                    value = self.node(rest, t, u, j, depth - 1)
            total += q[j] * value
            if share > 0 and open_ and value < worst:
                worst = value
        return total + share * worst if share > 0 else total

    def node(self, free: int, a: int, b: int, heading: int, depth: int) -> float:
        self.tick()
        deltas = _deltas(self.S)
        mine = [a + d for d in deltas if a + d >= 0 and (free >> (a + d)) & 1]
        q, share = self.replies(free, b, heading, a)
        if not mine:
            crash = sum(p for j, p in enumerate(q) if p > 0 and not (b + deltas[j] >= 0 and (free >> (b + deltas[j])) & 1))
            return crash * self.draw - (1.0 - crash)
        best = -2.0
        for t in mine:
            value = self.pair(free, a, b, t, q, share, depth)
            if value > best:
                best = value
                if best >= 1.0:
                    break
        return best

    def tick(self) -> None:
        self.nodes += 1
        self.scorer.tick()
