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
winner held at least half of it on 38 of 2530 moves measured), then plays otherwise where
it matters: the line search meets medium's share as a capable opponent (`line_belief`)
unless nearly all the belief is medium's, and a bet against the search's own choice
needs a clear edge by the model (bots.BET_MARGIN).

`line_values` searches our moves against the belief (`line_belief`: medium's share is
the capable opponent's short of MEDIUM_SURE), an expectimax in which every policy is
followed along its own replies: a policy's weight at a node is its belief times the
chances it gave the replies that led there (those under PRUNE of the mixture dropped),
so its prediction several moves deep is not diluted by the others', while `search`
answers with the reply worst for us. Our later moves are chosen for the belief at their
node, among the moves the root would play there (`LineRule`, bots._model_pick's rule).
Values are utilities: `bots.utility` of the leaf evaluation (to a
never-turner, +1 when we outlast the free run ahead of it, which a horizon would miss),
+1 for a line the opponent crashes out of, -1 for one we do, DRAW for a draw. It runs in
the C kernel (tron_line_values) when that is built, else here (LineSearch); both give
the same values.

Stdlib only (the bot module's rule): no textual, no core.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

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
#: From this share of the belief on, the line search meets medium as medium (`line_belief`):
#: the medium bot holds over 0.8 of it from about its eighth move, while a1k0n's 2010
#: winner reached 0.7 on 23 of 2530 moves (the moves before separation of the bench
#: games it did not lose, at 100 and 300 ms).
MEDIUM_SURE = 0.7

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


def line_belief(mix: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The belief the line search plays against: `mix` with medium's share given to the
    capable opponent (met with the reply worst for us), unless that share is MEDIUM_SURE
    or more. A deep searcher earns much of the belief in medium on quiet moves and then,
    where it matters, does not play as medium does: in a head-on race medium steps aside
    at the last moment, a1k0n's 2010 winner does not, and a line that counts on it misses
    the earlier, safe way to outlast a never-turner. The medium bot itself earns nearly
    all of the belief; met as a capable opponent, it would leave the line search unable
    to tell a move into a cell it would never enter from one that gains nothing, and the
    root would step aside from the better one (`bots._no_needless_head_on`)."""
    shares = dict(mix)
    medium = shares.get("medium", 0.0)
    if medium and medium < MEDIUM_SURE:
        del shares["medium"]
        shares["search"] = shares.get("search", 0.0) + medium
    return [(name, shares[name]) for name in POLICIES if name in shares]


def line_params(mix: list[tuple[str, float]], rule: LineRule | None = None) -> list[float]:
    """The model as the C kernel's tron_line_values reads it: each policy's weight in
    POLICIES order, then PRUNE, U_SCALE, MEDIUM_CONTEMPT, MEDIUM_MEAN, DRAW, SEP_UTILITY
    and `rule` (risk, then 1.0 or 0.0 for separated and lost; none of them by default)."""
    weights = dict(mix)
    rule = rule or LineRule(0.0, False, False)
    return [weights.get(name, 0.0) for name in POLICIES] + [
        PRUNE, float(bots.U_SCALE), float(bots.MEDIUM_CONTEMPT), float(bots.MEDIUM_MEAN), DRAW, bots.SEP_UTILITY,
        rule.risk, float(rule.separated), float(rule.lost)]


@dataclass(frozen=True)
class LineRule:
    """Which of our later moves the line search may plan for the model: the moves the
    root would play (bots._model_pick), judged by the worst case (the capable opponent's
    reply, `search` in the values). A line may plan only what the root would play when
    it gets there: a move the root refuses rates the moves before it as if a bet were
    sure to pay, and a move the root would play, refused in the line, leaves the line at
    the draw where the root wins. Against a wall hugger that red raced for the top-left
    corner, lines that refused, from a held draw, the worst case's separated loss of
    trapping it rated the race a draw, and the root stepped aside into a lost
    separation that a shallow horizon called won (bench hugger, empty board, game 18)."""

    #: Utility of the worst case a move may give up next to the best one's while the
    #: best is better than a draw (bots.RISK times the confidence; 2.0, any, when sure).
    risk: float
    #: A move the worst case calls a separated loss, while another's is not (SEP_BET).
    separated: bool
    #: A move the worst case calls a proven loss, while another's is not (MODEL_SURE).
    lost: bool

    def allows(self, worst: float, safest: float, draw: float, sep_utility: float) -> bool:
        """Whether a move of worst case `worst` may be planned where the best worst case
        is `safest` (utilities; `draw` is a draw's, `sep_utility` a separated loss's)."""
        if worst <= -1.0 < safest and not self.lost:
            return False
        if worst <= -sep_utility < safest and not self.separated:
            return False
        return safest <= draw or worst >= safest - self.risk


def line_rule(model: OpponentModel) -> LineRule:
    """The root's rule (bots._model_pick) at the model's confidence."""
    confidence = model.confidence()
    sure = confidence >= bots.MODEL_SURE
    return LineRule(2.0 if sure else confidence * bots.RISK, confidence >= bots.SEP_BET, sure)


def line_values(memory: GameMemory, field: bots.Field, seat: int, deadline: float, soft: float, control=None) -> dict[int, float]:  # type: ignore[no-untyped-def]
    """Each move of `seat` (index into WORDS) with its utility against the opponent model
    of `memory`, searched by the C kernel when it is built, else by LineSearch; empty when
    not even one move deep finished in time."""
    me, opp = field.heads[seat], field.heads[1 - seat]
    mix = line_belief(memory.model.mixture())
    lib = bots.kernel.get()
    if lib is not None:
        import ctypes

        params = line_params(mix, line_rule(memory.model))
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
    return LineSearch(memory.model, field, deadline, control).values(field.free, me, opp, memory.heading, soft, MAX_DEPTH)


def _cancelled(control) -> bool:  # type: ignore[no-untyped-def]
    cancel = getattr(control, "cancel", None) if control is not None else None
    return bool(cancel is not None and cancel.is_set())


#: The indices in POLICIES of the capable policy and of the never-turner.
SEARCH = list(POLICIES).index("search")
STRAIGHT = list(POLICIES).index("straight")


def _expected(weights: list[float], values: list[float]) -> float:
    """The belief's expected utility of per-policy values (weights unnormalised)."""
    total = 0.0
    value = 0.0
    for w, v in zip(weights, values):
        total += w
        value += w * v
    return value / total if total > 0 else 0.0


#: The deepest line search (moves of ours).
MAX_DEPTH = 64
#: A line search depth costs about this many times the one before (nodes, by the
#: bench's positions: about 5 a depth), until two depths were measured.
LINE_GROWTH = 5.0


def line_next_cost(took: float, last: int, before: int) -> float:
    """Seconds the next depth of the line search will take: the last depth's (`took`,
    `last` nodes) times its growth over the depth before (`before` nodes; LINE_GROWTH
    until that is known). A depth that would not end by the deadline is not started: it
    would be dropped unfinished, and the time it took is the worst-case search's (which
    runs after it, and at 100 ms a move lost its last depth to it: hard vs medium, maps
    game 15, turn 9, depth 6 against 7, a different move, 5 draws in 10 runs)."""
    growth = last / before if before > 0 else LINE_GROWTH
    return took * max(1.0, growth)


class LineSearch:
    """Our moves searched against the model's predicted replies (see the module doc)."""

    def __init__(self, model: OpponentModel, field: bots.Field, deadline: float, control=None) -> None:  # type: ignore[no-untyped-def]
        self.model = model
        self.mix = line_belief(model.mixture())
        mix = dict(self.mix)
        #: The belief as a list in POLICIES order (the policies not worth asking at 0).
        self.weights = [mix.get(name, 0.0) for name in POLICIES]
        self.rule = line_rule(model)
        self.S = field.S
        self.scorer = bots.Search(field, deadline, control)
        self.nodes = 0
        self.depth_done = 0
        self.draw = DRAW

    def values(self, free: int, a: int, b: int, heading: int | None, soft: float, limit: int = MAX_DEPTH) -> dict[int, float]:
        """Each of our moves (index into WORDS) with its utility against the model, by
        iterative deepening until `soft` (no new depth after it) or the deadline (the
        unfinished depth is dropped; no depth starts that `line_next_cost` says would not
        end by then); empty when not even depth 1 finished."""
        found: dict[int, float] = {}
        before = 0
        for depth in range(1, limit + 1):
            began, start_nodes = time.perf_counter(), self.nodes
            try:
                found = self.root(free, a, b, heading, depth)
            except bots.SearchTimeout:
                break
            self.depth_done = depth
            last = self.nodes - start_nodes
            now = time.perf_counter()
            if (all(abs(v) >= 1.0 for v in found.values()) or now > soft
                    or now + line_next_cost(now - began, last, before) > self.scorer.deadline):
                break
            before = last
        return found

    def root(self, free: int, a: int, b: int, heading: int | None, depth: int) -> dict[int, float]:
        weights = self.weights
        p = self.predict(free, weights, b, heading, a)
        deltas = _deltas(self.S)
        return {i: _expected(weights, self.pair(free, weights, b, a + deltas[i], p, depth))
                for i in bots.safe_moves(free, a, self.S)}

    def predict(self, free: int, weights: list[float], b: int, heading: int | None, a: int) -> list[list[float]]:
        """Each policy's predicted replies (index into WORDS), in POLICIES order: the
        chance that it plays each, for the policies with weight (the capable one,
        `search`, aside: the search meets it with the reply worst for us). Replies whose
        share of the mixture (weights normalised) is under PRUNE of the predictable share
        are dropped and each policy's chances renormalised over the rest (uniform over
        the free replies kept when it predicted only dropped ones). With no free move
        the opponent crashes whatever it does (UP, onto a cell that is not free)."""
        S = self.S
        total = sum(weights)
        p = [[0.0, 0.0, 0.0, 0.0] for _ in POLICIES]
        q = [0.0, 0.0, 0.0, 0.0]
        moves = _free_moves(free, S, b)
        for k, (name, policy) in enumerate(POLICIES.items()):
            if name == "search" or weights[k] <= 0:
                continue
            if not moves:
                p[k][0] = 1.0
                continue
            p[k] = list(policy(free, S, b, heading, a))
            for j in range(4):
                q[j] += weights[k] / total * p[k][j]
        if not moves:
            return p
        share = 1.0 - weights[SEARCH] / total
        kept_replies = [q[j] >= PRUNE * share for j in range(4)]
        for k, name in enumerate(POLICIES):
            if name == "search" or weights[k] <= 0:
                continue
            kept = 0.0
            for j in range(4):
                if not kept_replies[j]:
                    p[k][j] = 0.0
                kept += p[k][j]
            if kept > 0:
                p[k] = [x / kept for x in p[k]]
            else:
                open_kept = [j for j in range(4) if kept_replies[j] and j in moves]
                p[k] = [1.0 / len(open_kept) if j in open_kept else 0.0 for j in range(4)]
        return p

    def pair(self, free: int, weights: list[float], b: int, t: int, p: list[list[float]], depth: int) -> list[float]:
        """Our move onto `t` against the opponent at `b` whose replies each policy
        predicts (`p`): the utility of the line to each policy, every policy followed
        along its own replies (its weight at a node is its belief times the chances of
        the replies that led there, so that a prediction several moves deep is not
        diluted by the other policies'), the capable one along the reply worst for us."""
        deltas = _deltas(self.S)
        out = [0.0] * len(POLICIES)
        worst = 2.0
        for j in range(4):
            u = b + deltas[j]
            open_ = u >= 0 and bool((free >> u) & 1)
            capable = weights[SEARCH] > 0 and open_
            wj = [0.0] * len(POLICIES)
            mass = 0.0
            for k in range(len(POLICIES)):
                if k == SEARCH:
                    wj[k] = weights[k] if capable else 0.0
                else:
                    wj[k] = weights[k] * p[k][j]
                    mass += wj[k]
            if mass <= 0 and not capable:
                continue
            if u == t or not open_ or depth <= 1:
                if u == t:
                    value = self.draw
                elif not open_:
                    value = 1.0  # it crashes, we do not
                else:
                    self.tick()
                    rest = free & ~(1 << t) & ~(1 << u)
                    value = bots.utility(self.scorer.evaluate(rest, t, u))
                child = [value] * len(POLICIES)
                # The horizon does not end a never-turner's line: its crash ahead is sure.
                if open_ and u != t and wj[STRAIGHT] > 0 and value < 1.0 and self.outlasts_straight(rest, t, u, j):
                    child[STRAIGHT] = 1.0
            else:
                child = self.node(free & ~(1 << t) & ~(1 << u), wj, t, u, j, depth - 1)
            for k in range(len(POLICIES)):
                if k != SEARCH:
                    out[k] += p[k][j] * child[k]
            if capable and child[SEARCH] < worst:
                worst = child[SEARCH]
        out[SEARCH] = worst if worst < 2.0 else 1.0
        return out

    def outlasts_straight(self, free: int, t: int, u: int, j: int) -> bool:
        """A never-turner at `u` (heading `j`; `free` without both heads) crashes at the
        end of the free run ahead of it: it is outlasted when we can make more moves
        than that off its path (our fill estimate from `t` with the run blocked)."""
        step = _deltas(self.S)[j]
        run = 0
        path = 0
        x = u + step
        while x >= 0 and (free >> x) & 1:
            path |= 1 << x
            run += 1
            x += step
        return bots.fill_estimate(free & ~path, t, self.S, self.scorer.even) > run

    def node(self, free: int, weights: list[float], a: int, b: int, heading: int, depth: int) -> list[float]:
        """Our move at `a`, `depth` moves deep: the utility of the move best for the
        belief `weights` (unnormalised) to each policy."""
        self.tick()
        deltas = _deltas(self.S)
        p = self.predict(free, weights, b, heading, a)
        mine = [a + d for d in deltas if a + d >= 0 and (free >> (a + d)) & 1]
        if not mine:
            open_ = bool(_free_moves(free, self.S, b))
            out = []
            for k in range(len(POLICIES)):
                if k == SEARCH:
                    crash = 0.0 if open_ else 1.0
                else:
                    crash = 0.0
                    for j in range(4):
                        u = b + deltas[j]
                        if not (u >= 0 and (free >> u) & 1):
                            crash += p[k][j]
                out.append(crash * self.draw - (1.0 - crash))
            return out
        lines = []
        for t in mine:
            values = self.pair(free, weights, b, t, p, depth)
            lines.append((_expected(weights, values), values))
            if lines[-1][0] >= 1.0:
                break
        # As bots._model_pick: only moves the root would play here (LineRule).
        safest = max(values[SEARCH] for _, values in lines)
        best: tuple[float, list[float]] | None = None
        for value, values in lines:
            if weights[SEARCH] > 0 and not self.rule.allows(values[SEARCH], safest, self.draw, bots.SEP_UTILITY):
                continue
            if best is None or value > best[0]:
                best = (value, values)
        assert best is not None
        return best[1]

    def tick(self) -> None:
        self.nodes += 1
        self.scorer.tick()
